//! An engine's trace as one of prune's own runs on the tree it searched, so the explorer can
//! step it beside prune's textbook run.
//!
//! The protocol's events are replayed into a [`Recorder`], the observer prune's searches
//! record with, its paths resolved in the tree ([`compare::resolve`]) and every window,
//! value and bound turned to Max's point of view ([`super::Values::to_max`]), as docs/TRACE.md
//! requires. The statistics are the Recorder's, counted as for prune's own searches. The
//! run's value and bound are the root's last return; its best moves are the root's
//! children whose last return was exact and equal to the root's exact value, and its
//! principal variation follows such a child down from the root as long as there is one:
//! what the trace itself shows, not prune's reference values (the engine may be wrong).

use std::collections::{HashMap, HashSet};

use super::check::Departure;
use super::{Event, Side, Trace, compare, path_text};
use crate::search::{Bound, Cutoff, Observer, Run, Stats, Value};
use crate::trace::{self, Recorder};
use crate::tree::{Kind, NodeId, Tree};

/// An engine's trace replayed on a tree.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The run as prune records its own: the claimed algorithm, the root's value, statistics.
    pub run: Run,
    /// The events on the tree's nodes, Max's point of view.
    pub trace: trace::Trace,
    /// For each event of `trace`, the protocol line it came from (increasing).
    pub lines: Vec<usize>,
    /// The first line whose path the tree does not have: the replay stops there.
    pub stopped: Option<usize>,
}

impl Imported {
    /// The explorer's step just after the event of protocol line `line` (or the last event
    /// before it), where what that line did is on screen.
    pub fn step_at(&self, line: usize) -> usize {
        self.lines.partition_point(|&l| l <= line)
    }
}

/// An open node of the replay.
struct Open {
    node: NodeId,
    side: Side,
    /// Children searched in this visit, for a cutoff's rank and the children it skips.
    searched: HashSet<NodeId>,
}

/// Replays `trace` on `tree`; see the module's notes for what the run's fields mean.
pub fn import(tree: &Tree, trace: &Trace) -> Imported {
    let values = trace.header.values;
    let mut rec = Recorder::new(tree.len());
    let mut lines = Vec::with_capacity(trace.lines.len());
    let mut open: Vec<Open> = Vec::new();
    // Each node's last return (a leaf's value, an exit, a table hit that answered it).
    let mut returned: HashMap<NodeId, (f64, Bound)> = HashMap::new();
    let mut stopped = None;
    for (i, line) in trace.lines.iter().enumerate() {
        let node = match line.event.path() {
            Some(path) => match compare::resolve(tree, path) {
                Some(n) => Some(n),
                None => {
                    stopped = Some(line.number);
                    break;
                }
            },
            None => None,
        };
        // The side to move at a node just reached: the parent's opponent, Max at the root.
        let below = open.last().map_or(Side::Max, |o| o.side.other());
        if let (Some(n), Some(o)) = (node, open.last_mut()) {
            if matches!(
                line.event,
                Event::Enter { .. } | Event::Leaf { .. } | Event::TtHit { .. }
            ) && n != o.node
            {
                o.searched.insert(n);
            }
        }
        match (&line.event, node) {
            (Event::Iteration { depth }, _) => rec.iteration(*depth),
            (
                Event::Enter {
                    alpha,
                    beta,
                    player,
                    ..
                },
                Some(n),
            ) => {
                let side = player.unwrap_or(below);
                let (a, b) = values.window_to_max(side, (*alpha, *beta));
                rec.enter(n, a, b);
                open.push(Open {
                    node: n,
                    side,
                    searched: HashSet::new(),
                });
            }
            (Event::Leaf { value, .. }, Some(n)) => {
                let v = values.to_max(below, *value);
                rec.leaf(n, v);
                returned.insert(n, (v, Bound::Exact));
            }
            (Event::Exit { value, bound, .. }, Some(n)) => {
                let side = open.last().map_or(below, |o| o.side);
                if open.last().is_some_and(|o| o.node == n) {
                    open.pop();
                }
                let v = values.to_max(side, *value);
                let b = values.bound_to_max(side, *bound);
                rec.exit(n, v, b);
                returned.insert(n, (v, b));
            }
            (Event::Cutoff { path, after }, Some(n)) => {
                let mut child = path.clone();
                child.push(after.clone());
                let Some(c) = compare::resolve(tree, &child) else {
                    stopped = Some(line.number);
                    break;
                };
                let searched = open.last().map_or(1, |o| o.searched.len().max(1));
                let skipped = tree.child_count(n).saturating_sub(searched);
                let kind = if tree.kind(n) == Kind::Min {
                    Cutoff::Alpha
                } else {
                    Cutoff::Beta
                };
                rec.cutoff_ranked(
                    n,
                    count(tree.child_index(c)),
                    count(searched - 1),
                    count(skipped),
                    kind,
                );
            }
            (Event::TtHit { value, bound, .. }, Some(n)) => {
                let v = values.to_max(below, *value);
                let b = values.bound_to_max(below, *bound);
                // The entry answers the node unless the node is entered next.
                let entered = trace.lines.get(i + 1).is_some_and(|next| {
                    matches!(&next.event, Event::Enter { path, .. } if Some(path) == line.event.path())
                });
                rec.tt_hit(n, v, b, !entered);
                if !entered {
                    returned.insert(n, (v, b));
                }
            }
            // Every event but an iteration has a path, resolved above.
            (_, None) => continue,
        }
        lines.push(line.number);
    }
    let (trace_out, stats) = rec.finish();
    Imported {
        run: run_of(tree, trace, &returned, stats),
        trace: trace_out,
        lines,
        stopped,
    }
}

/// A departure in one sentence, the checker's own words: for the explorer's status bar.
pub fn sentence(d: &Departure) -> String {
    format!(
        "departure at {}: the engine {}; the rule: {}",
        path_text(&d.path),
        d.did,
        d.requires
    )
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The run the trace shows: the root's last return, its exact best children, the line they
/// start.
fn run_of(
    tree: &Tree,
    trace: &Trace,
    returned: &HashMap<NodeId, (f64, Bound)>,
    stats: Stats,
) -> Run {
    let root = tree.root();
    let (value, bound) = returned
        .get(&root)
        .copied()
        .unwrap_or((f64::NAN, Bound::Exact));
    let best = |node: NodeId| -> Vec<usize> {
        match returned.get(&node) {
            Some(&(v, Bound::Exact)) if !tree.is_leaf(node) => tree
                .children(node)
                .enumerate()
                .filter(|(_, c)| returned.get(c) == Some(&(v, Bound::Exact)))
                .map(|(i, _)| i)
                .collect(),
            _ => Vec::new(),
        }
    };
    let best_moves = best(root);
    let mut pv = vec![root];
    let mut node = root;
    while let Some(&i) = best(node).first() {
        node = tree.child(node, i);
        pv.push(node);
    }
    Run {
        algorithm: trace.header.claim.algorithm(),
        value: Value::Scalar(value),
        bound,
        best_moves,
        pv,
        stats,
        seconds: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Claim, Header, Line, Move, Values, write};
    use crate::search::Algorithm;
    use std::sync::atomic::AtomicU64;

    /// prune's own run written in the protocol, as `--trace-format protocol` writes it.
    fn written(tree: &Tree, algo: &Algorithm) -> (Run, trace::Trace, Trace) {
        let (run, recorded) = trace::record(tree, algo, &AtomicU64::new(0)).unwrap();
        let lines = write::events(tree, &recorded)
            .into_iter()
            .enumerate()
            .map(|(i, event)| Line {
                number: i + 2,
                text: String::new(),
                event,
            })
            .collect();
        let header = Header::new(
            "prune",
            write::protocol_claim(algo).unwrap(),
            Values::Minimax,
        );
        (run, recorded, Trace { header, lines })
    }

    /// The same run in negamax form: every number from the side to move at its node.
    fn negamax(tree: &Tree, t: &Trace) -> Trace {
        let side = |path: &[Move]| match compare::resolve(tree, path) {
            // A node's side to move: its own kind when interior, else its parent's opponent.
            Some(n) if !tree.is_leaf(n) => match tree.kind(n) {
                Kind::Min => Side::Min,
                _ => Side::Max,
            },
            Some(n) => match tree.parent(n).map(|p| tree.kind(p)) {
                Some(Kind::Max) => Side::Min,
                _ => Side::Max,
            },
            None => Side::Max,
        };
        let mut t = t.clone();
        t.header.values = Values::Negamax;
        for l in &mut t.lines {
            match &mut l.event {
                Event::Enter {
                    path, alpha, beta, ..
                } => (*alpha, *beta) = Values::Negamax.window_to_max(side(path), (*alpha, *beta)),
                Event::Leaf { path, value, .. } => {
                    *value = Values::Negamax.to_max(side(path), *value)
                }
                Event::Exit { path, value, bound }
                | Event::TtHit {
                    path, value, bound, ..
                } => {
                    let s = side(path);
                    *value = Values::Negamax.to_max(s, *value);
                    *bound = Values::Negamax.bound_to_max(s, *bound);
                }
                _ => {}
            }
        }
        t
    }

    #[test]
    fn prunes_own_traces_come_back_the_same() {
        let mut checked = 0;
        for seed in 0..60u64 {
            let p = crate::generate::random::RandomShape {
                min_branching: 1,
                max_branching: 2 + (seed % 3) as u32,
                depth: 2 + (seed % 4) as u32,
                leaf_probability: 0.2,
                values: crate::generate::Values::integers(-9, 9),
                mixed: seed % 2 == 0,
            };
            let tree = crate::generate::random::generate(&p, seed).unwrap();
            for algo in [
                Algorithm::Minimax,
                Algorithm::AlphaBeta { fail_soft: false },
                Algorithm::AlphaBeta { fail_soft: true },
            ] {
                let (run, recorded, protocol) = written(&tree, &algo);
                for t in [negamax(&tree, &protocol), protocol] {
                    let back = import(&tree, &t);
                    assert_eq!(back.stopped, None);
                    assert_eq!(back.trace, recorded, "seed {seed}, {algo:?}");
                    assert_eq!(back.run.stats, run.stats, "seed {seed}, {algo:?}");
                    assert_eq!(back.run.value, run.value);
                    assert_eq!(back.run.bound, run.bound);
                    assert_eq!(back.lines.len(), recorded.len());
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 360);
    }

    #[test]
    fn the_best_move_and_the_line_are_the_traces_own() {
        let tree = crate::examples::default_tree();
        let (run, _, protocol) = written(&tree, &Algorithm::AlphaBeta { fail_soft: false });
        let back = import(&tree, &protocol);
        assert_eq!(back.run.best_moves, run.best_moves);
        assert_eq!(back.run.pv, run.pv);
        assert_eq!(back.run.algorithm, Claim::FailHard.algorithm());
    }

    #[test]
    fn a_path_the_tree_lacks_stops_the_replay_at_its_line() {
        let tree = crate::examples::default_tree();
        let (_, _, mut protocol) = written(&tree, &Algorithm::AlphaBeta { fail_soft: false });
        if let Event::Enter { path, .. } = &mut protocol.lines[2].event {
            path.push(Move::Label("nowhere".into()));
        }
        let back = import(&tree, &protocol);
        assert_eq!(back.stopped, Some(protocol.lines[2].number));
        assert_eq!(back.trace.len(), 2);
        assert_eq!(back.step_at(protocol.lines[1].number), 2);
    }
}
