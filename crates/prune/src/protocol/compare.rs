//! A trace against a tree: its paths resolved to nodes, its leaves and players checked, and
//! its search lined up against prune's textbook run of the claimed algorithm on the same tree.
//!
//! The tree is one source of the game the engine searched; a lazily expanded game will be
//! another, so everything here asks the tree only for a node's children, kind and value.

use std::collections::HashSet;

use super::check::{Departure, is_null, num};
use super::{Claim, Event, Move, Path, Side, Trace, Values, path_text, write};
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
            Move::Label(l) => tree
                .children(node)
                .find(|&c| tree.label(c) == Some(l.as_str()))?,
        };
    }
    Some(node)
}

/// An open node, as the tree sees it.
struct Open {
    side: Side,
    node: NodeId,
    enter_line: usize,
    /// Its children searched (entered, evaluated or answered by the table) in this visit.
    searched: HashSet<NodeId>,
    cut: bool,
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
        let Some(node) = resolve(tree, path) else {
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
        if let (Some(o), Event::Enter { .. } | Event::Leaf { .. } | Event::TtHit { .. }) =
            (open.last_mut(), &line.event)
        {
            o.searched.insert(node);
        }
        match &line.event {
            Event::Enter { player, .. } => {
                let side = player.unwrap_or(open.last().map_or(Side::Max, |o| o.side.other()));
                let kind = tree.kind(node);
                let want = match kind {
                    Kind::Max => Side::Max,
                    Kind::Min => Side::Min,
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
                    node,
                    enter_line: n,
                    searched: HashSet::new(),
                    cut: false,
                });
            }
            Event::Cutoff { .. } => {
                if let Some(o) = open.last_mut() {
                    o.cut = true;
                }
            }
            Event::Exit { .. } => {
                let o = open.pop()?;
                let all = tree.child_count(o.node);
                // MTD(f)'s memory answers children without an event (check.rs judges those).
                let silent = trace.header.claim == Claim::Mtdf;
                if !o.cut && !silent && o.node == node && o.searched.len() < all {
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
    let mut out = Textbook {
        run,
        difference: None,
        visits,
        engine_visits,
        answers,
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
        let lines = &trace.lines;
        let unnested = |n: usize| format!("the events do not nest as calls do (line {n})");
        for (i, line) in lines.iter().enumerate() {
            let n = line.number;
            if let Event::Iteration { depth } = &line.event {
                horizon = Some(*depth);
                continue;
            }
            let Some(path) = line.event.path() else {
                continue;
            };
            let node = resolve(tree, path)
                .ok_or_else(|| format!("line {n} names a node the tree does not have"))?;
            let below = stack.last().map_or(Side::Max, |&p| all[p].side.other());
            let how = match &line.event {
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
                    if tree.parent(node) != Some(all[p].node) {
                        return Err(unnested(n));
                    }
                    all[p].children.push(k);
                }
                None if node == tree.root() => roots.push((k, horizon)),
                None => return Err(unnested(n)),
            }
            if how == How::Enter {
                stack.push(k);
            }
        }
        if !stack.is_empty() {
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
                    How::Leaf | How::Answer => false,
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
