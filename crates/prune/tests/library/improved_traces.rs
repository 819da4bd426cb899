//! Issue 17 §2 in the explorer: the traces of searches that order children at search time — a
//! transposition table, iterative deepening, aspiration windows, killer moves, the history
//! heuristic, on alpha-beta, NegaScout and MTD(f) — say exactly what the search did, and the
//! replay shows it truly. On positions of each built-in game, every combination's trace is
//! checked against the search's statistics, the true values and itself:
//!
//! - the statistics recounted from the events are the search's own, iteration by iteration;
//! - every iteration is one balanced search to its depth, the depths 1, 2, …, D in order;
//! - every value returned, and every transposition-table hit, holds of the node's depth-limited
//!   minimax value at the iteration's depth (exact, or the bound it claims);
//! - every cutoff names the child that fired it, its rank among the children searched in that
//!   visit and the number left unsearched;
//! - at the end of every iteration (and at steps inside it), replaying one node agrees with
//!   replaying all; what a finished node did not reach is pruned, what a table answer spared is
//!   pruned by it, what lies below the horizon is not reached — never pruned;
//! - the narration of iterations, table hits and reordered cutoffs says those numbers.

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;

use prune::generate::game::connect_four::Moves;
use prune::generate::game::{GameSpec, Heaps, generate};
use prune::search::{Algorithm, Bound, Params, Run, expectiminimax};
use prune::text::short_number;
use prune::trace::narrate::describe;
use prune::trace::provenance::{End, Origin, window_origin};
use prune::trace::{EventView, Replay, Status, Trace, record};
use prune::tree::{Kind, NodeId, Tree};

use crate::common::{IMPROVED as ORDERED, subtree};

/// Minimax values of every node of `t` cut at `depth` plies (ids are kept by the cut);
/// expectiminimax's on a tree with chance nodes.
fn truth(t: &Tree, depth: usize) -> Vec<f64> {
    if t.ids().any(|i| t.kind(i) == Kind::Chance) {
        return t.ids().map(|i| expectiminimax::value(t, i)).collect();
    }
    let cut = t
        .to_depth(depth)
        .expect("heuristic values down to the depth");
    let mut v = vec![0.0; cut.len()];
    for id in cut.ids().collect::<Vec<_>>().into_iter().rev() {
        v[id.index()] = if cut.is_leaf(id) {
            cut.value(id)
        } else {
            let kids = cut.children(id).map(|c| v[c.index()]);
            if cut.kind(id) == Kind::Min {
                kids.fold(f64::INFINITY, f64::min)
            } else {
                kids.fold(f64::NEG_INFINITY, f64::max)
            }
        };
    }
    v
}

fn holds(claim: f64, bound: Bound, truth: f64) -> bool {
    match bound {
        Bound::Exact => claim == truth,
        Bound::Lower => claim <= truth,
        Bound::Upper => claim >= truth,
    }
}

/// What the checks saw, over all runs: each kind of event must have been met.
#[derive(Default, Debug)]
struct Seen {
    runs: u64,
    iterations: u64,
    table_cuts: u64,
    table_hits_searched: u64,
    reordered_cutoffs: u64,
    aspiration_failures: u64,
    pruned_by_table: u64,
    beyond_horizon: u64,
}

/// An open visit: the node and the children it has started, in order.
struct Visit {
    node: NodeId,
    started: Vec<u32>,
}

/// Checks `algo`'s trace on `tree`; `limit`: the depth limit it searches to.
fn check(tree: &Tree, algo: &Algorithm, seen: &mut Seen) {
    let (run, trace) =
        record(tree, algo, &AtomicU64::new(0)).unwrap_or_else(|e| panic!("{algo}: {e}"));
    seen.runs += 1;
    let height = tree.height();
    let limit = algo
        .improvements()
        .and_then(|w| w.depth)
        .map_or(height, |d| (d as usize).min(height));
    let iterative = algo.improvements().is_some_and(|w| w.id);
    let events: Vec<EventView> = trace.events().iter().map(|e| e.view()).collect();
    // Segments: the steps where each iteration begins, and its depth.
    let mut segments: Vec<(usize, usize)> = events
        .iter()
        .enumerate()
        .filter_map(|(k, e)| match e {
            EventView::Iteration { depth } => Some((k, *depth as usize)),
            _ => None,
        })
        .collect();
    if iterative {
        let depths: Vec<usize> = segments.iter().map(|s| s.1).collect();
        assert_eq!(depths, (1..=limit.max(1)).collect::<Vec<_>>(), "{algo}");
        seen.iterations += segments.len() as u64;
    } else {
        assert!(segments.is_empty(), "{algo}");
        segments.push((0, limit));
    }
    let index = prune::trace::StepIndex::new(tree, &trace);
    let replay = Replay::with_index(tree, &trace, &index);
    let mut counts: HashMap<&str, u64> = HashMap::new();
    let mut per_iteration = Vec::new();
    for (i, &(start, depth)) in segments.iter().enumerate() {
        let end = segments.get(i + 1).map_or(events.len(), |s| s.0);
        let truth = truth(tree, depth);
        let mut stack: Vec<Visit> = Vec::new();
        let mut nodes = 0u64;
        for (k, e) in events.iter().enumerate().take(end).skip(start) {
            // A child started by the open node: entered, evaluated or answered by the table.
            let start_child = |c: NodeId, stack: &mut Vec<Visit>| {
                if let Some(top) = stack.last_mut() {
                    assert_eq!(tree.parent(c), Some(top.node), "{algo} step {k}");
                    let ci = tree.child_index(c) as u32;
                    if top.started.last() != Some(&ci) {
                        assert!(!top.started.contains(&ci), "{algo} step {k}: again");
                        top.started.push(ci);
                    }
                } else {
                    assert_eq!(c, tree.root(), "{algo} step {k}");
                }
            };
            match *e {
                EventView::Enter { node, .. } => {
                    start_child(node, &mut stack);
                    stack.push(Visit {
                        node,
                        started: Vec::new(),
                    });
                    *counts.entry("interior").or_default() += 1;
                    nodes += 1;
                }
                EventView::Leaf { node, .. } => {
                    start_child(node, &mut stack);
                    assert!(
                        tree.is_leaf(node) || tree.path_to(node).len() == depth + 1,
                        "{algo} step {k}: an interior node evaluated above the horizon"
                    );
                    *counts.entry("leaves").or_default() += 1;
                    nodes += 1;
                }
                EventView::TableHit {
                    node,
                    value,
                    bound,
                    cut,
                } => {
                    start_child(node, &mut stack);
                    assert!(
                        holds(value, bound, truth[node.index()]),
                        "{algo} step {k}: table entry {value} {bound:?} of {node}, true {}",
                        truth[node.index()]
                    );
                    *counts.entry("tt_hits").or_default() += 1;
                    if cut {
                        *counts.entry("tt_cutoffs").or_default() += 1;
                        seen.table_cuts += 1;
                    } else {
                        seen.table_hits_searched += 1;
                        assert!(
                            matches!(events.get(k + 1), Some(EventView::Enter { node: n, .. }) if *n == node),
                            "{algo} step {k}: a hit that does not cut is entered next"
                        );
                    }
                }
                EventView::Cutoff {
                    node,
                    after,
                    rank,
                    skipped,
                    ..
                } => {
                    let top = stack.last().expect("a cutoff inside a visit");
                    assert_eq!(top.node, node, "{algo} step {k}");
                    assert_eq!(
                        top.started.last(),
                        Some(&after),
                        "{algo} step {k}: fired by"
                    );
                    assert_eq!(
                        rank as usize,
                        top.started.len() - 1,
                        "{algo} step {k}: rank"
                    );
                    assert_eq!(
                        skipped as usize,
                        tree.child_count(node) - top.started.len(),
                        "{algo} step {k}: skipped"
                    );
                    seen.reordered_cutoffs += u64::from(rank != after);
                    *counts.entry("cutoffs").or_default() += 1;
                    *counts.entry("pruned_children").or_default() += u64::from(skipped);
                    let said = describe(tree, &run, &trace, &replay, k + 1);
                    assert!(
                        said.contains(&format!("after child {}", after + 1)),
                        "{said}"
                    );
                    assert_eq!(rank != after, said.contains(" searched ("), "{said}");
                }
                EventView::Exit { node, value, bound } => {
                    let top = stack.pop().expect("an exit of an open visit");
                    assert_eq!(top.node, node, "{algo} step {k}");
                    assert!(
                        holds(value, bound, truth[node.index()]),
                        "{algo} step {k}: {node} returns {value} {bound:?}, true {}",
                        truth[node.index()]
                    );
                }
                EventView::Research { aspiration, .. } => {
                    *counts.entry("researches").or_default() += 1;
                    if aspiration {
                        *counts.entry("aspiration").or_default() += 1;
                        seen.aspiration_failures += 1;
                    }
                }
                EventView::Iteration { depth: d } => {
                    assert_eq!(k, start, "{algo}");
                    let said = describe(tree, &run, &trace, &replay, k + 1);
                    assert!(
                        said.starts_with(&format!(
                            "iteration {} of {} begins: search to depth {d}",
                            i + 1,
                            segments.len()
                        )),
                        "{said}"
                    );
                    assert_eq!(replay.iteration(k + 1), Some((i + 1, d, segments.len())));
                }
                ref other => panic!("{algo} step {k}: unexpected {other:?}"),
            }
        }
        assert!(
            stack.is_empty(),
            "{algo}: iteration {} is unbalanced",
            i + 1
        );
        per_iteration.push(nodes);
        check_states(tree, &replay, algo, start, end, seen);
    }
    check_root_windows(tree, algo, &trace, &replay);
    let s = &run.stats;
    let count = |name: &str| counts.get(name).copied().unwrap_or(0);
    assert_eq!(count("interior"), s.interior, "{algo}");
    assert_eq!(count("leaves"), s.leaves, "{algo}");
    assert_eq!(count("cutoffs"), s.cutoffs, "{algo}");
    assert_eq!(count("pruned_children"), s.pruned_children, "{algo}");
    assert_eq!(count("researches"), s.researches, "{algo}");
    assert_eq!(count("tt_hits"), s.tt_hits, "{algo}");
    assert_eq!(count("tt_cutoffs"), s.tt_cutoffs, "{algo}");
    assert_eq!(count("aspiration"), s.aspiration_researches, "{algo}");
    if iterative {
        assert_eq!(per_iteration, s.iteration_nodes, "{algo}");
    }
    check_run(&run, &trace);
}

/// Detail's account of the root's window is true: an aspiration window is said to be one,
/// around the previous iteration's value (the root's latest exit), and the window of the root
/// searched again after it failed is said to come from that failure.
fn check_root_windows(tree: &Tree, algo: &Algorithm, trace: &Trace, replay: &Replay) {
    let aspiration = algo.improvements().and_then(|w| w.aspiration);
    // The root's latest exit, and that of the iteration before this one.
    let (mut latest, mut previous) = (None, None);
    let mut failed = false;
    for (k, e) in trace.events().iter().enumerate() {
        let x = match e.view() {
            EventView::Exit { node, value, .. } if node == tree.root() => {
                latest = Some(value);
                continue;
            }
            EventView::Iteration { .. } => {
                (previous, failed) = (latest, false);
                continue;
            }
            EventView::Enter { node, alpha, beta } if node == tree.root() => (alpha, beta),
            EventView::Research {
                node,
                alpha,
                beta,
                aspiration,
            } if node == tree.root() => {
                failed |= aspiration;
                (alpha, beta)
            }
            _ => continue,
        };
        for (end, x) in [(End::Alpha, x.0), (End::Beta, x.1)] {
            let (got, origin) = window_origin(tree, replay, tree.root(), k + 1, end).unwrap();
            assert_eq!(got.to_bits(), x.to_bits(), "{algo} step {}", k + 1);
            let said = origin.sentence(tree, algo, end, x);
            if failed {
                assert_eq!(origin, Origin::AspirationFailed, "{algo}: {said}");
                assert!(said.contains("aspiration window"), "{algo}: {said}");
            } else if x.is_finite() && !matches!(algo.base(), Algorithm::Mtdf { .. }) {
                let w = aspiration.unwrap_or_else(|| panic!("{algo}: a finite root window"));
                let v = previous.expect("a previous iteration");
                let around = format!(
                    "the root's aspiration window, the previous iteration's value {} {} {}",
                    short_number(v),
                    if end == End::Alpha { '−' } else { '+' },
                    short_number(w)
                );
                assert!(
                    said.contains(&around),
                    "{algo} step {}: {said}; expected {around}",
                    k + 1
                );
                assert!(!said.contains("bound of the tree's values"), "{said}");
            }
        }
    }
}

/// The run's last event is the root's exit with the run's value.
fn check_run(run: &Run, trace: &Trace) {
    let last = trace.events().last().map(|e| e.view());
    assert!(
        matches!(last, Some(EventView::Exit { node, .. }) if node == NodeId::ROOT)
            || matches!(last, Some(EventView::Leaf { .. })),
        "{}: ends with {last:?}",
        run.algorithm
    );
}

/// The replay within the iteration `start..end`: one node agrees with all, and the statuses say
/// what the search did.
fn check_states(
    tree: &Tree,
    replay: &Replay,
    algo: &Algorithm,
    start: usize,
    end: usize,
    seen: &mut Seen,
) {
    let inside = [
        start + 1,
        (start + end) / 2,
        end.saturating_sub(1).max(start + 1),
        end,
    ];
    for k in inside {
        let all = replay.states(k);
        for id in tree.ids() {
            assert_eq!(
                replay.state(id, k),
                all[id.index()],
                "{algo} {id} after {k} steps"
            );
        }
    }
    let all = replay.states(end);
    for id in tree.ids() {
        let st = &all[id.index()];
        if tree.is_leaf(id) || st.status != Status::Done {
            continue;
        }
        let answered = st.table.is_some_and(|t| t.2);
        for c in tree.children(id) {
            let cs = &all[c.index()];
            if st.horizon {
                assert_eq!(
                    cs.status,
                    Status::NotReached,
                    "{algo}: {c} below the horizon"
                );
                seen.beyond_horizon += 1;
            } else if !cs.reached() {
                // Left by a finished node, or spared by the table's answer: pruned by the node,
                // by its cutoff when one fired (in an earlier pass of the iteration, for an
                // answered node: MTD(f)'s passes, an aspiration window's re-search).
                assert_eq!(
                    cs.status,
                    Status::Pruned,
                    "{algo}: {c} left by a finished {id}"
                );
                let (by, kind) = cs.pruned_by.expect("a pruner");
                assert_eq!(by, id, "{algo}: {c}");
                assert_eq!(kind.is_some(), st.cutoff.is_some(), "{algo}: {c}");
                seen.pruned_by_table += u64::from(answered && kind.is_none());
            }
        }
    }
}

fn parse(name: &str, w: f64, depth: Option<u32>) -> Algorithm {
    let suffix = depth.map_or(String::new(), |d| format!(":depth={d}"));
    let s = name.replace('W', &w.to_string()) + &suffix;
    Algorithm::parse(&s, &Params::default()).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Interior nodes of `t`, evenly spread over the arena, `n` of them, each with between
/// `min_nodes` and `max_nodes` below it.
fn positions(t: &Tree, n: usize, min_nodes: u32, max_nodes: u32) -> Vec<NodeId> {
    let sizes = t.subtree_sizes();
    let all: Vec<NodeId> = t
        .ids()
        .filter(|&i| (min_nodes..=max_nodes).contains(&sizes[i.index()]))
        .collect();
    assert!(all.len() >= n, "only {} positions", all.len());
    let step = all.len() / n;
    all.into_iter().step_by(step).take(n).collect()
}

fn met_everything(game: &str, seen: &Seen, iterative: bool) {
    assert!(seen.table_cuts > 0, "{game}: {seen:?}");
    assert!(seen.table_hits_searched > 0, "{game}: {seen:?}");
    assert!(seen.reordered_cutoffs > 0, "{game}: {seen:?}");
    assert!(seen.pruned_by_table > 0, "{game}: {seen:?}");
    if iterative {
        assert!(seen.iterations > 0, "{game}: {seen:?}");
        assert!(seen.aspiration_failures > 0, "{game}: {seen:?}");
        assert!(seen.beyond_horizon > 0, "{game}: {seen:?}");
    }
}

#[test]
fn tic_tac_toe_traces_tell_the_truth() {
    let t = generate(&GameSpec::TicTacToe { depth: None }).unwrap();
    let mut seen = Seen::default();
    for (i, node) in positions(&t, 40, 200, 4_000).into_iter().enumerate() {
        let sub = subtree(&t, node);
        let depth = [None, Some(3), Some(2)][i % 3];
        for name in ORDERED {
            check(&sub, &parse(name, 0.05, depth), &mut seen);
        }
    }
    met_everything("tic-tac-toe", &seen, true);
}

#[test]
fn connect_four_traces_tell_the_truth() {
    let mut seen = Seen::default();
    for (i, moves) in ["", "4", "44", "435", "1234", "7", "3344"]
        .iter()
        .enumerate()
    {
        let game = GameSpec::ConnectFour {
            depth: 4,
            moves: Moves::parse(moves).unwrap(),
        };
        let t = generate(&game).unwrap();
        for name in ORDERED {
            check(&t, &parse(name, 3.0, [None, Some(3)][i % 2]), &mut seen);
        }
    }
    met_everything("connect-four", &seen, true);
}

#[test]
fn nim_traces_tell_the_truth() {
    let heaps = Heaps::new(&[1, 2, 3, 4]).unwrap();
    let t = generate(&GameSpec::Nim { heaps, players: 2 }).unwrap();
    let mut seen = Seen::default();
    for node in positions(&t, 30, 20, 3_000) {
        let sub = subtree(&t, node);
        // Nim has no evaluation: no iterative deepening.
        for name in ORDERED.iter().filter(|n| !n.contains("id")) {
            check(&sub, &parse(name, 1.0, None), &mut seen);
        }
    }
    met_everything("nim", &seen, false);
}

#[test]
fn pig_traces_tell_the_truth() {
    // OpenSpiel's pig(6, 3, 8): expectiminimax with the table, on positions of the game.
    let t = generate(&GameSpec::Pig {
        win: 6,
        dice: 3,
        horizon: 8,
    })
    .unwrap();
    let mut seen = Seen::default();
    for node in positions(&t, 40, 30, 6_000) {
        let sub = subtree(&t, node);
        check(&sub, &parse("expectiminimax:tt", 0.0, None), &mut seen);
    }
    assert!(seen.table_cuts > 0 && seen.pruned_by_table > 0, "{seen:?}");
}
