//! A trace against a tree: its paths resolved to nodes, its leaves and players checked, and
//! its search lined up against prune's textbook run of the claimed algorithm on the same tree.
//!
//! The tree is one source of the game the engine searched; a lazily expanded game will be
//! another, so everything here asks the tree only for a node's children, kind and value.

use std::collections::HashSet;

use super::check::{Departure, is_null, num};
use super::{Claim, Event, Leaves, Move, Path, Selective, Side, Trace, Values, path_text, write};
use crate::search::{Refusal, Run};
use crate::tree::{Kind, NodeId, Tree};

/// The node a path names in `tree`: a label names the child with that label, a position the
/// child there. `None` when a move is not in the tree.
pub fn resolve(tree: &Tree, path: &[Move]) -> Option<NodeId> {
    let mut node = tree.root();
    for m in path {
        node = match m {
            Move::Index(i) => {
                let i = *i as usize;
                (i < tree.child_count(node) && !tree.is_leaf(node)).then(|| tree.child(node, i))?
            }
            Move::Label(l) => tree.children(node).find(|&c| tree.label(c) == Some(&**l))?,
            // No tree holds the position after a pass.
            Move::Null => return None,
        };
    }
    Some(node)
}

/// An open node, as the tree sees it.
struct Open {
    side: Side,
    /// The tree's node; none past the tree (a quiescence search, an extension or a null
    /// move going where the tree does not).
    node: Option<NodeId>,
    enter_line: usize,
    /// Its children searched (entered, evaluated or answered by the table) in this visit.
    searched: HashSet<NodeId>,
    cut: bool,
    /// In a subtree the tree does not bind: a quiescence search, an extension or a null
    /// move, or below one.
    free: bool,
    /// In a reduced subtree, or below one: the engine's horizon comes sooner than the tree's.
    reduced: bool,
}

/// Whether a declared step takes the search where the tree does not bind it: past its
/// horizon (quiescence, extensions) or to a position it does not have (a null move).
fn frees(selective: Option<Selective>, path: &[Move]) -> bool {
    path.last() == Some(&Move::Null)
        || matches!(
            selective,
            Some(Selective::Quiescence | Selective::Extended | Selective::NullMove)
        )
}

/// The first event that disagrees with the tree: a move it does not have, a player it does
/// not put there, a leaf of another value, an interior node evaluated as a leaf or a leaf
/// entered, a node left before all its children are searched with no cutoff to say why.
pub fn against_tree(tree: &Tree, trace: &Trace) -> Option<Departure> {
    let values = trace.header.values;
    let mut open: Vec<Open> = Vec::new();
    for line in &trace.lines {
        let Some(path) = line.event.path() else {
            continue;
        };
        let n = line.number;
        let selective = line.event.selective();
        let arriving = matches!(
            line.event,
            Event::Enter { .. } | Event::Leaf { .. } | Event::TtHit { .. }
        );
        // An arriving node inherits from its parent, the open node; an exit or a cutoff is
        // the open node's own.
        let top = open.last();
        let free = top.is_some_and(|o| o.free) || (arriving && frees(selective, path));
        let reduced =
            top.is_some_and(|o| o.reduced) || (arriving && selective == Some(Selective::Reduced));
        // The engine's own values, where the tree does not hold them to its own.
        let loose = free || reduced || trace.header.leaves == Leaves::Engine;
        let resolved = resolve(tree, path);
        if resolved.is_none() && free {
            match &line.event {
                Event::Enter { player, .. } => open.push(Open {
                    side: player.unwrap_or(open.last().map_or(Side::Max, |o| o.side.other())),
                    node: None,
                    enter_line: n,
                    searched: HashSet::new(),
                    cut: false,
                    free,
                    reduced,
                }),
                Event::Exit { .. } => {
                    open.pop();
                }
                _ => {}
            }
            continue;
        }
        let Some(node) = resolved else {
            let known = (0..path.len())
                .rev()
                .find(|&k| resolve(tree, &path[..k]).is_some())
                .unwrap_or(0);
            return Some(Departure {
                path: path.clone(),
                did: format!(
                    "names the move {} below {}",
                    path[known],
                    path_text(&path[..known])
                ),
                requires: "a move of the tree: a child's label, or its position from 0".into(),
                lines: vec![n],
            });
        };
        if let (Some(o), true) = (open.last_mut(), arriving) {
            o.searched.insert(node);
        }
        match &line.event {
            Event::Enter { player, .. } => {
                let side = player.unwrap_or(open.last().map_or(Side::Max, |o| o.side.other()));
                let kind = tree.kind(node);
                let want = match kind {
                    Kind::Max => Side::Max,
                    Kind::Min => Side::Min,
                    // A quiescence search or an extension goes on past the tree's horizon.
                    _ if free => side,
                    _ => {
                        return Some(Departure {
                            path: path.clone(),
                            did: format!("enters {}", path_text(path)),
                            requires: format!(
                                "a Max or Min node to enter; the tree has a {} node there",
                                kind.name()
                            ),
                            lines: vec![n],
                        });
                    }
                };
                if side != want {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!("has {} to move at {}", side.name(), path_text(path)),
                        requires: format!(
                            "{} to move, as in the tree (say it with \"player\" when the sides do not alternate)",
                            want.name()
                        ),
                        lines: vec![n],
                    });
                }
                open.push(Open {
                    side,
                    node: Some(node),
                    enter_line: n,
                    searched: HashSet::new(),
                    cut: false,
                    free,
                    reduced,
                });
            }
            Event::Cutoff { .. } => {
                if let Some(o) = open.last_mut() {
                    o.cut = true;
                }
            }
            Event::Exit { .. } => {
                let o = open.pop()?;
                let Some(o_node) = o.node else { continue };
                let all = tree.child_count(o_node);
                // MTD(f)'s memory answers children without an event (check.rs judges those).
                let silent = trace.header.claim == Claim::Mtdf;
                if !o.cut && !silent && !o.free && o.node == Some(node) && o.searched.len() < all {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!(
                            "leaves {} after searching {} of its {all} children, with no cutoff",
                            path_text(path),
                            o.searched.len()
                        ),
                        requires: "every child searched, unless a cutoff event says why the others are not".into(),
                        lines: vec![o.enter_line, n],
                    });
                }
            }
            Event::Leaf { value, .. } => {
                let leaf_side = open.last().map_or(Side::Max, |o| o.side.other());
                if let Some(d) = mate_departure(tree, trace, node, path, *value, leaf_side, n) {
                    return Some(d);
                }
                if loose || trace.header.mate_distance(*value).is_some() {
                    continue;
                }
                let truth = if tree.is_leaf(node) {
                    tree.value(node)
                } else if let Some(h) = tree.heuristic(node) {
                    h
                } else {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!("evaluates {} as a leaf", path_text(path)),
                        requires:
                            "an interior node without a heuristic value is entered and searched"
                                .into(),
                        lines: vec![n],
                    });
                };
                let want = match values {
                    Values::Minimax => truth,
                    Values::Negamax => leaf_side.sign() * truth,
                };
                if *value != want {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!("evaluates {} as {}", path_text(path), num(*value)),
                        requires: format!(
                            "the tree's value, {}{}",
                            num(want),
                            if values == Values::Negamax {
                                " from the side to move there"
                            } else {
                                ""
                            }
                        ),
                        lines: vec![n],
                    });
                }
            }
            _ => {}
        }
    }
    None
}

/// A leaf scored as a mate (the header's `mate`): the tree must end the game there, won by
/// the side the score says, as many plies from the root as the score says.
fn mate_departure(
    tree: &Tree,
    trace: &Trace,
    node: NodeId,
    path: &Path,
    value: f64,
    side: Side,
    n: usize,
) -> Option<Departure> {
    let h = &trace.header;
    let d = h.mate_distance(value)?;
    let mate = h.mate?;
    let truth = tree.is_leaf(node).then(|| tree.value(node));
    // The tree's values are Max's; the score's sign says who won, from Max's view too.
    let want = truth;
    let ply = path.len() as f64;
    let won_by = h.values.to_max(side, value).signum();
    if want.is_some_and(|w| w != 0.0 && w.signum() == won_by) && d == ply {
        return None;
    }
    let requires = match want {
        None => format!(
            "a mate score only where the game ends: the tree goes on below {}",
            path_text(path)
        ),
        Some(w) if w == 0.0 || w.signum() != won_by => format!(
            "the tree's end there is worth {} (Max's point of view), not a win for {}",
            num(truth.unwrap_or(0.0)),
            if won_by > 0.0 { "Max" } else { "Min" }
        ),
        Some(_) => format!(
            "a mate {ply} plies from the root scores {} (mate − plies)",
            num(mate - ply)
        ),
    };
    Some(Departure {
        path: path.clone(),
        did: format!("scores {} as the mate {}", path_text(path), num(value)),
        requires,
        lines: vec![n],
    })
}

/// Where the engine's search and the textbook's first part, and both root values.
#[derive(Clone, Debug)]
pub struct Textbook {
    /// prune's run of the claimed algorithm on the tree, in the tree's order and without a
    /// table: the root value, and the visits the engine's stand for.
    pub run: Run,
    /// The first place the engine leaves the textbook search replayed in its own move order.
    pub difference: Option<Departure>,
    /// Nodes prune's run visits (enters or evaluates), counting repeats.
    pub visits: usize,
    /// Nodes the engine visits (enters or evaluates), counting repeats.
    pub engine_visits: usize,
    /// Nodes the engine's table answers (a `tt-hit` not followed by the node's `enter`).
    pub answers: usize,
    /// Selective steps the engine declared (reduced, extended and quiescence searches, null
    /// moves), each taken at the engine's word: the textbook does not search that way.
    pub selective: usize,
    /// With `"leaves":"engine"`: the engine's leaf evaluations the tree has a value for, and
    /// how many of them differ from it. The engine's values are the truth the comparison
    /// replays.
    pub engine_leaves: Option<(usize, usize)>,
    /// Why the engine's visits could not be lined up with the textbook's, when they could not
    /// (the rules and the tree have judged every event all the same).
    pub not_compared: Option<String>,
}

/// Runs the claimed algorithm on `tree` (the root value and the visits it makes in the tree's
/// order), and replays the textbook search in the engine's move order: at each node the
/// children the engine visits, in the order it visits them, then the others in the tree's
/// order. The textbook decides where a node cuts off, where PVS must search a child again
/// and where a node may stop; the engine's own choices within the rules stand (its root
/// windows and passes, its table's answers and narrowed windows, its iterations' horizons,
/// PVS's fail-hard or fail-soft returns, a leaf's re-search left out). A table answer stands
/// for the textbook's visits of the node's subtree.
pub fn textbook(tree: &Tree, trace: &Trace) -> Result<Textbook, Refusal> {
    let algo = trace.header.claim.algorithm();
    let (run, recorded) = crate::trace::record(tree, &algo, &std::sync::atomic::AtomicU64::new(0))?;
    let visits = write::events(tree, &recorded)
        .iter()
        .filter(|e| matches!(e, Event::Enter { .. } | Event::Leaf { .. }))
        .count();
    let (engine_visits, answers) = counts(trace);
    let selective = trace
        .lines
        .iter()
        .filter(|l| {
            l.event.selective().is_some()
                || matches!(&l.event, Event::Enter { path, .. } | Event::Leaf { path, .. } if path.last() == Some(&Move::Null))
        })
        .count();
    let engine_leaves = (trace.header.leaves == Leaves::Engine).then(|| engine_leaves(tree, trace));
    let mut out = Textbook {
        run,
        difference: None,
        visits,
        engine_visits,
        answers,
        selective,
        engine_leaves,
        not_compared: None,
    };
    match Visits::build(tree, trace) {
        Ok(v) => {
            let replay = Replay {
                tree,
                trace,
                v: &v,
                algo: trace.header.claim.name(),
            };
            for &(root, horizon) in &v.roots {
                if let Err(d) = replay.node(root, true, horizon) {
                    out.difference = Some(*d);
                    break;
                }
            }
        }
        Err(why) => out.not_compared = Some(why),
    }
    Ok(out)
}

/// The engine's leaf evaluations at the tree's leaves (and its horizon nodes with a heuristic),
/// and how many differ from the tree's values.
fn engine_leaves(tree: &Tree, trace: &Trace) -> (usize, usize) {
    let mut sides: Vec<Side> = Vec::new();
    let (mut known, mut differ) = (0, 0);
    for l in &trace.lines {
        match &l.event {
            Event::Enter { player, .. } => {
                let side = player.unwrap_or(sides.last().map_or(Side::Max, |s| s.other()));
                sides.push(side);
            }
            Event::Exit { .. } => {
                sides.pop();
            }
            Event::Leaf { path, value, .. } => {
                let side = sides.last().map_or(Side::Max, |s| s.other());
                let Some(node) = resolve(tree, path) else {
                    continue;
                };
                let truth = if tree.is_leaf(node) {
                    Some(tree.value(node))
                } else {
                    tree.heuristic(node)
                };
                // A mate score is held to the tree's end by `against_tree`.
                if let Some(t) = truth {
                    known += 1;
                    let mate = trace.header.mate_distance(*value).is_some();
                    if !mate && trace.header.values.to_max(side, *value) != t {
                        differ += 1;
                    }
                }
            }
            _ => {}
        }
    }
    (known, differ)
}

/// The engine's visits (enters and leaves) and its table's answers.
fn counts(trace: &Trace) -> (usize, usize) {
    let (mut visits, mut answers) = (0, 0);
    for (i, l) in trace.lines.iter().enumerate() {
        match &l.event {
            Event::Enter { .. } | Event::Leaf { .. } => visits += 1,
            Event::TtHit { path, .. } => {
                let entered = trace.lines.get(i + 1).is_some_and(
                    |next| matches!(&next.event, Event::Enter { path: p, .. } if p == path),
                );
                if !entered {
                    answers += 1;
                }
            }
            _ => {}
        }
    }
    (visits, answers)
}

/// How the engine reached a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    /// Entered and searched.
    Enter,
    /// Evaluated: a leaf, or a node at the engine's horizon.
    Leaf,
    /// Answered by the table without a search.
    Answer,
    /// A selective step the engine declared (a reduced or extended search, a quiescence
    /// search): the textbook does not search that way, so the visit stands at the engine's
    /// word, its value what the engine returned.
    Selective,
    /// A null move: no move of the tree. Where the node cuts off on it, the node stands at
    /// the engine's word; else it is as if it had not been tried.
    NullMove,
}

/// One visit of a node in the engine's trace.
struct Visit {
    node: NodeId,
    /// The node as the engine names it.
    path: Path,
    line: usize,
    /// The line of its exit (its own line when it has none).
    end: usize,
    how: How,
    side: Side,
    /// The entry window, from Max's point of view (entered nodes).
    window: (f64, f64),
    /// What the visit returned, from Max's point of view.
    value: f64,
    /// The visits of its children, in order.
    children: Vec<usize>,
    /// The line of its cutoff, if it took one.
    cut: Option<usize>,
}

/// The engine's visits as a forest: one tree of calls for each search of the root.
struct Visits {
    all: Vec<Visit>,
    /// Each search of the root, with the depth of its iteration (none: the whole tree).
    roots: Vec<(usize, Option<u32>)>,
}

impl Visits {
    /// The visits of `trace`, its paths resolved in `tree`; `Err`: why they cannot be
    /// lined up (a path the tree lacks, events that do not nest), which the rules and the
    /// tree's own checks report.
    fn build(tree: &Tree, trace: &Trace) -> Result<Visits, String> {
        let values = trace.header.values;
        let mut all: Vec<Visit> = Vec::new();
        let mut roots = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        let mut horizon = None;
        // A selective step's search, skipped whole: its visit and how many of its nodes are
        // open.
        let mut boxed: Option<(usize, usize)> = None;
        let lines = &trace.lines;
        let unnested = |n: usize| format!("the events do not nest as calls do (line {n})");
        for (i, line) in lines.iter().enumerate() {
            let n = line.number;
            if let Some((k, open)) = boxed {
                match &line.event {
                    Event::Enter { .. } => boxed = Some((k, open + 1)),
                    Event::Exit { value, .. } if open == 1 => {
                        all[k].value = values.to_max(all[k].side, *value);
                        all[k].end = n;
                        boxed = None;
                    }
                    Event::Exit { .. } => boxed = Some((k, open - 1)),
                    Event::Iteration { .. } => return Err(unnested(n)),
                    _ => {}
                }
                continue;
            }
            if let Event::Iteration { depth } = &line.event {
                horizon = Some(*depth);
                continue;
            }
            let Some(path) = line.event.path() else {
                continue;
            };
            let null = path.last() == Some(&Move::Null);
            let node = if null {
                resolve(tree, &path[..path.len() - 1])
            } else {
                resolve(tree, path)
            }
            .ok_or_else(|| format!("line {n} names a node the tree does not have"))?;
            let below = stack.last().map_or(Side::Max, |&p| all[p].side.other());
            let selective = line.event.selective();
            let how = match &line.event {
                Event::Enter { .. } | Event::Leaf { .. } if null => How::NullMove,
                Event::Enter { .. } | Event::Leaf { .. } if selective.is_some() => How::Selective,
                Event::Enter { .. } => How::Enter,
                Event::Leaf { .. } => How::Leaf,
                Event::TtHit { .. } => {
                    let entered = lines.get(i + 1).is_some_and(
                        |next| matches!(&next.event, Event::Enter { path: p, .. } if p == path),
                    );
                    if entered {
                        continue;
                    }
                    How::Answer
                }
                Event::Cutoff { .. } => {
                    let &top = stack.last().ok_or_else(|| unnested(n))?;
                    all[top].cut = Some(n);
                    continue;
                }
                Event::Exit { value, .. } => {
                    let top = stack.pop().ok_or_else(|| unnested(n))?;
                    if all[top].node != node {
                        return Err(unnested(n));
                    }
                    all[top].value = values.to_max(all[top].side, *value);
                    all[top].end = n;
                    continue;
                }
                Event::Iteration { .. } => continue,
            };
            let (side, window, value) = match &line.event {
                Event::Enter {
                    alpha,
                    beta,
                    player,
                    ..
                } => {
                    let side = player.unwrap_or(below);
                    (side, values.window_to_max(side, (*alpha, *beta)), f64::NAN)
                }
                Event::Leaf { value, .. } | Event::TtHit { value, .. } => (
                    below,
                    (f64::NEG_INFINITY, f64::INFINITY),
                    values.to_max(below, *value),
                ),
                _ => unreachable!("the other events continue above"),
            };
            let k = all.len();
            all.push(Visit {
                node,
                path: path.clone(),
                line: n,
                end: n,
                how,
                side,
                window,
                value,
                children: Vec::new(),
                cut: None,
            });
            match stack.last() {
                Some(&p) => {
                    let parent = if null { Some(node) } else { tree.parent(node) };
                    if parent != Some(all[p].node) {
                        return Err(unnested(n));
                    }
                    all[p].children.push(k);
                }
                None if node == tree.root() && !null => roots.push((k, horizon)),
                None => return Err(unnested(n)),
            }
            match (how, &line.event) {
                (How::Enter, _) => stack.push(k),
                (How::Selective | How::NullMove, Event::Enter { .. }) => boxed = Some((k, 1)),
                _ => {}
            }
        }
        if !stack.is_empty() || boxed.is_some() {
            return Err("the trace ends with nodes still open".into());
        }
        Ok(Visits { all, roots })
    }
}

/// The textbook search, replayed in the engine's order over its visits.
struct Replay<'a> {
    tree: &'a Tree,
    trace: &'a Trace,
    v: &'a Visits,
    algo: &'static str,
}

impl Replay<'_> {
    fn path(&self, n: NodeId) -> String {
        path_text(&write::path_of(self.tree, n))
    }

    fn claim(&self) -> Claim {
        self.trace.header.claim
    }

    /// Replays the visit `i` and those below it; `scout`: whether PVS gives the node's later
    /// children null windows (not below `pvs-ab`'s alpha-beta re-search).
    /// `horizon`: the depth of the iteration it belongs to, where the engine stops and
    /// evaluates (none: the tree's own leaves).
    fn node(&self, i: usize, scout: bool, horizon: Option<u32>) -> Result<(), Box<Departure>> {
        let v = &self.v.all[i];
        let ply = self.tree.depth_of(v.node);
        if v.how == How::Leaf
            && !self.tree.is_leaf(v.node)
            && horizon.is_none_or(|h| (ply as u64) < u64::from(h))
        {
            return Err(self.departure(
                &v.path,
                format!("evaluates {} as a leaf", path_text(&v.path)),
                format!(
                    "textbook {} searches it: the tree goes on below it{}",
                    self.algo,
                    horizon.map_or(String::new(), |h| format!(
                        " (ply {ply}, before the iteration's horizon at {h})"
                    ))
                ),
                v.line,
            ));
        }
        if v.how != How::Enter || self.tree.is_leaf(v.node) {
            // A leaf's value and an answer's entry are judged by the tree and the rules.
            return Ok(());
        }
        let claim = self.claim();
        let windowed = claim != Claim::Minimax;
        let pvs = matches!(claim, Claim::Pvs | Claim::PvsAb);
        let (alpha, beta) = v.window;
        let running = |best: Option<f64>| match (v.side, best) {
            (Side::Max, Some(b)) => alpha.max(b),
            (Side::Min, Some(b)) => beta.min(b),
            (Side::Max, None) => alpha,
            (Side::Min, None) => beta,
        };
        let due = |best: Option<f64>| {
            windowed
                && match (v.side, best) {
                    (Side::Max, Some(b)) => b >= beta,
                    (Side::Min, Some(b)) => b <= alpha,
                    _ => false,
                }
        };
        let mut best: Option<f64> = None;
        let mut reached: Option<NodeId> = None;
        let mut seen: Vec<NodeId> = Vec::new();
        let mut k = 0;
        while let Some(&j) = v.children.get(k) {
            let e = &self.v.all[j];
            if e.how == How::NullMove {
                // A node that cuts off on its null move stands at the engine's word: the
                // tree has no pass to replay.
                let cut_on_it = v.cut.is_some()
                    && k + 1 == v.children.len()
                    && match v.side {
                        Side::Max => e.value >= beta,
                        Side::Min => e.value <= alpha,
                    };
                if cut_on_it {
                    return Ok(());
                }
                k += 1;
                continue;
            }
            // A reduced search the engine searches again at full depth: the new search
            // stands for it.
            let again_next = v
                .children
                .get(k + 1)
                .is_some_and(|&a| self.v.all[a].node == e.node);
            if e.how == How::Selective && again_next {
                k += 1;
                continue;
            }
            if due(best) {
                let at = reached.map_or(String::new(), |r| format!(" after {}", self.path(r)));
                return Err(self.departure(
                    &e.path,
                    format!("searches {}", path_text(&e.path)),
                    format!(
                        "textbook {}, replayed in the engine's move order, cuts off at {}{at}, before {}",
                        self.algo,
                        self.path(v.node),
                        self.path(e.node)
                    ),
                    e.line,
                ));
            }
            if seen.contains(&e.node) {
                return Err(self.departure(
                    &e.path,
                    format!("searches {} a second time", path_text(&e.path)),
                    format!(
                        "textbook {} searches each child of {} once{}",
                        self.algo,
                        self.path(v.node),
                        if pvs {
                            ", and again only after a null-window search returned inside the window"
                        } else {
                            ""
                        }
                    ),
                    e.line,
                ));
            }
            let m = running(best);
            self.node(j, scout, horizon)?;
            k += 1;
            let mut t = e.value;
            let inside = match v.side {
                Side::Max => t > m && t < beta,
                Side::Min => t < m && t > alpha,
            };
            let again = v
                .children
                .get(k)
                .is_some_and(|&a| self.v.all[a].node == e.node);
            if pvs && scout && !seen.is_empty() && inside {
                let scouted = match e.how {
                    How::Enter => is_null(e.window),
                    How::Leaf | How::Answer | How::Selective | How::NullMove => false,
                };
                if again {
                    let a = v.children[k];
                    self.node(a, claim == Claim::Pvs, horizon)?;
                    t = self.v.all[a].value;
                    k += 1;
                } else if scouted {
                    return Err(self.departure(
                        &e.path,
                        format!("never searches {} again", path_text(&e.path)),
                        format!(
                            "textbook {} searches it again: its null-window search returned {}, strictly between the running value {} and the window's end {}",
                            self.algo,
                            num(self.trace.header.values.to_max(v.side, t)),
                            num(self.trace.header.values.to_max(v.side, m)),
                            num(self.trace.header.values.to_max(
                                v.side,
                                if v.side == Side::Max { beta } else { alpha }
                            )),
                        ),
                        e.end,
                    ));
                }
            }
            seen.push(e.node);
            let better = match (v.side, best) {
                (_, None) => true,
                (Side::Max, Some(b)) => t > b,
                (Side::Min, Some(b)) => t < b,
            };
            if better {
                best = Some(t);
                reached = Some(e.node);
            }
        }
        let all = self.tree.child_count(v.node);
        // MTD(f)'s memory settles children without an event (the rules judge them).
        if seen.len() < all && !due(best) && claim != Claim::Mtdf {
            let next = self
                .tree
                .children(v.node)
                .find(|c| !seen.contains(c))
                .expect("a child not searched");
            let mut lines = vec![v.line];
            lines.extend(v.cut);
            lines.push(v.end);
            return Err(self.departures(
                &v.path,
                format!(
                    "stops searching {} after {} of its {all} children",
                    path_text(&v.path),
                    seen.len()
                ),
                format!(
                    "textbook {}, replayed in the engine's move order, goes on to search {}",
                    self.algo,
                    self.path(next)
                ),
                lines,
            ));
        }
        Ok(())
    }

    fn departure(&self, path: &Path, did: String, requires: String, line: usize) -> Box<Departure> {
        self.departures(path, did, requires, vec![line])
    }

    fn departures(
        &self,
        path: &Path,
        did: String,
        requires: String,
        lines: Vec<usize>,
    ) -> Box<Departure> {
        Box::new(Departure {
            path: path.clone(),
            did,
            requires,
            lines,
        })
    }
}
