//! Issue 12's items for SSS*, MTD(f) and NegaScout: each minimal tree with its exact counts,
//! labels and values, and the properties behind them on many seeded random trees.

use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use prune::format::parse_expr;
use prune::generate::{self, Values};
use prune::search::{self, Algorithm, Bound, Reference, Value};
use prune::trace::{self, EventView};
use prune::tree::{Draft, DraftNode, Kind, Meta, NodeId, Tree};

fn tree(expr: &str) -> Tree {
    parse_expr(expr, false).unwrap()
}

fn scalar(v: &Value) -> f64 {
    match v {
        Value::Scalar(x) => *x,
        Value::Vector(_) => panic!("a two-player value expected"),
    }
}

fn events(t: &Tree, algo: &Algorithm) -> (search::Run, Vec<EventView>) {
    let (run, tr) = trace::record(t, algo, &AtomicU64::new(0)).unwrap();
    let ev = (0..tr.len()).map(|i| tr.event(i).view()).collect();
    (run, ev)
}

/// Every `exit` claims only what is true of its node's minimax value (root-relative, as the
/// trace records it): `exact` equal, `lower` at least, `upper` at most.
fn check_exit_claims(t: &Tree, algo: &Algorithm, what: &str) {
    let truth = Reference::of(t, &Algorithm::Minimax);
    let (_, ev) = events(t, algo);
    for (step, e) in ev.iter().enumerate() {
        if let EventView::Exit { node, value, bound } = *e {
            let v = scalar(&truth.get(node));
            let ok = match bound {
                Bound::Exact => v == value,
                Bound::Lower => v >= value,
                Bound::Upper => v <= value,
            };
            assert!(
                ok,
                "{what}: {algo} step {step}: node {} exits {value} {bound:?}, true value {v}\n{}",
                node.0,
                prune::format::write(t, prune::format::Format::Bracket)
            );
        }
    }
}

/// Every `enter` has its `exit`, or the node lies under a cutoff that skips it (a cutoff at an
/// ancestor after a child to the left of the branch leading to it).
fn check_enters_matched(t: &Tree, algo: &Algorithm, what: &str) {
    let (_, ev) = events(t, algo);
    let mut depth = vec![0i64; t.len()];
    let mut cut_after: Vec<Option<u32>> = vec![None; t.len()];
    for e in &ev {
        match *e {
            EventView::Enter { node, .. } => depth[node.index()] += 1,
            EventView::Exit { node, .. } => depth[node.index()] -= 1,
            EventView::Research { node, .. } if !t.is_leaf(node) => {}
            EventView::Cutoff { node, after, .. } => cut_after[node.index()] = Some(after),
            _ => {}
        }
    }
    for id in t.ids() {
        assert!(
            depth[id.index()] >= 0,
            "{what}: {algo}: node {} exits unentered",
            id.0
        );
        if depth[id.index()] == 0 {
            continue;
        }
        let mut c = id;
        let mut skipped = false;
        while let Some(p) = t.parent(c) {
            if cut_after[p.index()].is_some_and(|a| t.child_index(c) > a as usize) {
                skipped = true;
                break;
            }
            c = p;
        }
        assert!(skipped, "{what}: {algo}: node {} entered, never left", id.0);
    }
}

fn random_tree(seed: u64, values: Values) -> Tree {
    let p = generate::random::RandomShape {
        min_branching: 1,
        max_branching: 1 + (seed % 4) as u32,
        depth: 1 + (seed % 7) as u32,
        leaf_probability: 0.2,
        values,
        mixed: seed % 3 == 0,
    };
    generate::random::generate(&p, seed).unwrap()
}

const CHECKED: &[Algorithm] = &[
    Algorithm::Sss,
    Algorithm::Mtdf { guess: None },
    Algorithm::Mtdf {
        guess: Some(-1000.0),
    },
    Algorithm::MT_SSS,
    Algorithm::NegaScout,
    Algorithm::NegaScoutAb,
    Algorithm::AlphaBeta { fail_soft: false },
    Algorithm::AlphaBeta { fail_soft: true },
    Algorithm::Minimax,
];

// Item 1 and 2: SSS* on -(3,+(-(5),+(1))).
//
// Ids (breadth-first): 0 the Min root, 1 the leaf 3, 2 the Max node, 3 = -(5), 4 = +(1),
// 5 the leaf 5, 6 the leaf 1. SSS* expands 0, 2 and 3 and never +(1): it is LIVE when node 3 is
// solved with merit 3, which solves node 2 and purges it.
#[test]
fn sss_counts_and_labels_on_the_issue_tree() {
    let t = tree("-(3,+(-(5),+(1)))");
    let (run, ev) = events(&t, &Algorithm::Sss);
    assert_eq!(run.value, Value::Scalar(3.0));
    assert_eq!(run.bound, Bound::Exact);
    let s = &run.stats;
    assert_eq!(
        (s.interior, s.leaves, s.distinct_leaves, s.nodes),
        (3, 2, 2, 5)
    );
    assert_eq!((s.cutoffs, s.pruned_children), (1, 1));
    let inf = f64::INFINITY;
    let ninf = f64::NEG_INFINITY;
    use prune::search::Cutoff;
    let n = NodeId;
    assert_eq!(
        ev,
        vec![
            EventView::Enter {
                node: n(0),
                alpha: ninf,
                beta: inf
            },
            EventView::Leaf {
                node: n(1),
                value: 3.0
            },
            EventView::Enter {
                node: n(2),
                alpha: ninf,
                beta: 3.0
            },
            EventView::Enter {
                node: n(3),
                alpha: ninf,
                beta: 3.0
            },
            EventView::Leaf {
                node: n(5),
                value: 5.0
            },
            EventView::Exit {
                node: n(3),
                value: 3.0,
                bound: Bound::Lower
            },
            EventView::Cutoff {
                node: n(2),
                after: 0,
                rank: 0,
                skipped: 1,
                kind: Cutoff::Beta
            },
            EventView::Exit {
                node: n(2),
                value: 3.0,
                bound: Bound::Lower
            },
            EventView::Exit {
                node: n(0),
                value: 3.0,
                bound: Bound::Exact
            },
        ]
    );
    // Alpha-beta expands the same three interior nodes.
    let ab = search::run(&t, &Algorithm::AlphaBeta { fail_soft: false }).unwrap();
    assert_eq!(ab.stats.interior, 3);
    check_exit_claims(&t, &Algorithm::Sss, "issue tree");
    check_enters_matched(&t, &Algorithm::Sss, "issue tree");
}

// Item 1: a left sibling expanded and then abandoned when a sibling to its right solves their
// Max parent leaves with an upper bound, so its `enter` has its `exit`.
//
// +(-(2,9),-(10)): ids 0 root, 1 = -(2,9), 2 = -(10), 3 leaf 2, 4 leaf 9, 5 leaf 10. Node 1 is
// expanded first (tie, leftmost), its leaf 2 drops its merit to 2; node 2 is expanded and
// solved with 10, which solves the root; node 1 is abandoned with "at most 10".
#[test]
fn sss_abandoned_left_sibling_exits() {
    let t = tree("+(-(2,9),-(10))");
    let (run, ev) = events(&t, &Algorithm::Sss);
    assert_eq!(run.value, Value::Scalar(10.0));
    assert_eq!((run.stats.interior, run.stats.leaves), (3, 2));
    let n = NodeId;
    let inf = f64::INFINITY;
    let ninf = f64::NEG_INFINITY;
    use prune::search::Cutoff;
    assert_eq!(
        ev,
        vec![
            EventView::Enter {
                node: n(0),
                alpha: ninf,
                beta: inf
            },
            EventView::Enter {
                node: n(1),
                alpha: ninf,
                beta: inf
            },
            EventView::Leaf {
                node: n(3),
                value: 2.0
            },
            EventView::Enter {
                node: n(2),
                alpha: ninf,
                beta: inf
            },
            EventView::Leaf {
                node: n(5),
                value: 10.0
            },
            EventView::Exit {
                node: n(2),
                value: 10.0,
                bound: Bound::Exact
            },
            EventView::Cutoff {
                node: n(0),
                after: 1,
                rank: 1,
                skipped: 0,
                kind: Cutoff::Beta
            },
            EventView::Exit {
                node: n(1),
                value: 10.0,
                bound: Bound::Upper
            },
            EventView::Exit {
                node: n(0),
                value: 10.0,
                bound: Bound::Exact
            },
        ]
    );
    check_enters_matched(&t, &Algorithm::Sss, "abandoned sibling");
}

// Item 2: every exit's claim holds, for every two-player algorithm with exits, on 1,000 seeded
// random integer trees with ties and 1,000 real ones (176 of 1,000 failed for SSS* before).
#[test]
fn exit_claims_hold_on_random_trees() {
    for seed in 0..1000 {
        let ints = random_tree(seed, Values::integers(0, 4));
        let reals = random_tree(
            seed,
            Values {
                lo: -1.0,
                hi: 1.0,
                real: true,
            },
        );
        for algo in CHECKED {
            check_exit_claims(&ints, algo, &format!("integers, seed {seed}"));
            check_exit_claims(&reals, algo, &format!("reals, seed {seed}"));
        }
        check_enters_matched(&ints, &Algorithm::Sss, &format!("integers, seed {seed}"));
        check_enters_matched(&reals, &Algorithm::Sss, &format!("reals, seed {seed}"));
    }
}

/// A unary chain of `levels` interior nodes (Max and Min alternating) above the leaf 7.
fn chain(levels: usize) -> Tree {
    let mut d = Draft::with_capacity(
        Meta {
            players: 2,
            ..Meta::default()
        },
        levels + 1,
    );
    for i in 0..levels {
        let kind = if i % 2 == 0 { Kind::Max } else { Kind::Min };
        d.push(DraftNode::interior(kind, 1));
    }
    d.push(DraftNode::leaf(7.0));
    d.finish().unwrap()
}

// Item 3: SSS*'s purging is O(1) a state, so a 2·10⁵-level chain takes well under a second
// (it took minutes when every state walked its ancestors). The limit is generous for debug
// builds and busy machines.
#[test]
fn sss_on_a_long_unary_chain() {
    let levels = 200_000;
    let t = chain(levels);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let start = Instant::now();
        let run = search::run(&t, &Algorithm::Sss).unwrap();
        tx.send((run, start.elapsed())).unwrap();
    });
    let (run, took) = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("SSS* on a 2·10⁵-level chain took more than 60 s");
    eprintln!("SSS* on a {levels}-level chain: {took:?}");
    assert_eq!(run.value, Value::Scalar(7.0));
    assert_eq!(run.stats.interior, levels as u64);
    assert_eq!(run.stats.leaves, 1);
}

/// Runs `algo` on `t` in a thread and fails if it does not end within 20 s (MTD(f) used to loop
/// forever when its null window collapsed).
fn run_bounded(t: &Tree, algo: &Algorithm) -> search::Run {
    let (t2, a2) = (t.clone(), algo.clone());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(search::run(&t2, &a2).unwrap());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| {
            panic!(
                "{algo} did not end on {}",
                prune::format::write(t, prune::format::Format::Bracket)
            )
        })
}

const EXACT: &[Algorithm] = &[
    Algorithm::Sss,
    Algorithm::Mtdf { guess: None },
    Algorithm::Mtdf { guess: Some(0.0) },
    Algorithm::Mtdf {
        guess: Some(-1e300),
    },
    Algorithm::Mtdf { guess: Some(1e300) },
    Algorithm::Mtdf { guess: Some(2.5) },
    Algorithm::NegaScout,
    Algorithm::NegaScoutAb,
    Algorithm::AlphaBeta { fail_soft: false },
    Algorithm::AlphaBeta { fail_soft: true },
];

// Items 4 and 5: the issue's trees. 2⁵³ + 1 rounds to 2⁵³, and -1e16 + 1 to -1e16.
#[test]
fn minimal_windows_at_large_magnitudes_on_the_issue_trees() {
    for (expr, want) in [
        ("(9007199254740992,1)", 9007199254740992.0),
        ("((-1e16),(0))", 0.0),
        ("((1e16),(1e16,2e16))", 1e16),
        ("(-9007199254740994,-9007199254740992)", -9007199254740992.0),
        ("((1e308),(1.7976931348623157e308))", 1.7976931348623157e308),
        ("((-1.7976931348623157e308),(-1e308))", -1e308),
    ] {
        let t = tree(expr);
        for algo in EXACT {
            let run = run_bounded(&t, algo);
            assert_eq!(run.value, Value::Scalar(want), "{algo} on {expr}");
            assert_eq!(run.bound, Bound::Exact, "{algo} on {expr}");
        }
    }
    // MTD(f) on (2⁵³, 1): the default guess ⌊1/2 + 2⁵³/2⌋ = 2⁵² fails high on the first leaf
    // (a cutoff: the leaf's memory says only "≥ 2⁵³"); the second pass's window is
    // (2⁵³, next_up(2⁵³) = 2⁵³ + 2), where 2⁵³ + 1 would round back to 2⁵³: it evaluates both
    // leaves and fails low with 2⁵³. Two passes, one re-search, three evaluations.
    let t = tree("(9007199254740992,1)");
    let run = run_bounded(&t, &Algorithm::Mtdf { guess: None });
    assert_eq!(run.stats.researches, 1);
    assert_eq!((run.stats.leaves, run.stats.distinct_leaves), (3, 2));
    assert_eq!((run.stats.interior, run.stats.cutoffs), (2, 1));
    // NegaScout on ((-1e16),(0)): the scout of the second child fails high and is re-searched.
    let t = tree("((-1e16),(0))");
    let run = run_bounded(&t, &Algorithm::NegaScout);
    assert_eq!(run.stats.researches, 1);
    assert_eq!(run.stats.leaves, 3);
}

/// A random tree whose leaves are drawn from values near ±2⁵³, ±1e16 and ±1e308 (and their
/// neighbours, so ties and one-ulp differences are common); with a non-integral leaf value
/// possible unless `integral`.
fn huge_tree(seed: u64, integral: bool) -> Tree {
    let two53 = 9007199254740992.0_f64;
    let palette = [
        two53,
        -two53,
        two53 + 2.0,
        -two53 - 2.0,
        two53 - 1.0,
        1e16,
        -1e16,
        1e16 + 2.0,
        -1e16 - 2.0,
        1e308,
        -1e308,
        f64::MAX,
        -f64::MAX,
        if integral { 0.0 } else { 1e15 / 3.0 },
    ];
    let shape = random_tree(seed, Values::integers(0, palette.len() as i64 - 1));
    let mut d = Draft::new(Meta {
        players: 2,
        ..Meta::default()
    });
    for id in shape.preorder() {
        let mut node = shape.draft_node(id);
        node.children = shape.child_count(id) as u32;
        if shape.is_leaf(id) {
            node.value = palette[shape.value(id) as usize];
        }
        d.push(node);
    }
    d.finish().unwrap()
}

#[test]
fn exact_algorithms_agree_with_minimax_at_large_magnitudes() {
    for seed in 0..1000 {
        for integral in [true, false] {
            let t = huge_tree(seed, integral);
            let want = search::run(&t, &Algorithm::Minimax).unwrap().value;
            for algo in EXACT {
                let run = run_bounded(&t, algo);
                assert!(
                    run.value == want && run.bound == Bound::Exact,
                    "seed {seed}: {algo} gives {} ({:?}), minimax {want}\n{}",
                    run.value,
                    run.bound,
                    prune::format::write(&t, prune::format::Format::Bracket)
                );
            }
            for algo in CHECKED {
                check_exit_claims(&t, algo, &format!("large magnitudes, seed {seed}"));
            }
        }
    }
}

// SSS* and MTD(f) keep OPEN and their memory in compact forms (a stack and a heap, a node's
// leaves searched in one loop, leaves' bounds as bits). Both are held here to their textbook
// statements on many seeded trees: the same leaves evaluated in the same order, the same value.

/// The leaves a trace evaluates, in order.
fn leaves_evaluated(t: &Tree, algo: &Algorithm) -> (Vec<NodeId>, f64) {
    let (run, ev) = events(t, algo);
    let leaves = ev
        .iter()
        .filter_map(|e| match *e {
            EventView::Leaf { node, .. } => Some(node),
            _ => None,
        })
        .collect();
    (leaves, scalar(&run.value))
}

/// Stockman's SSS* as textbooks state it: OPEN a plain list, the state of highest merit taken
/// (ties: the first in preorder), the states below a solved Max node's purged by a scan.
fn textbook_sss(t: &Tree) -> (Vec<NodeId>, f64) {
    let rank = t.preorder_ranks();
    let below = |x: NodeId, p: NodeId| {
        let mut c = x;
        while let Some(q) = t.parent(c) {
            if q == p {
                return true;
            }
            c = q;
        }
        false
    };
    // (node, solved, merit)
    let mut open = vec![(t.root(), false, f64::INFINITY)];
    let mut leaves = Vec::new();
    loop {
        let best = crate::common::highest_merit(&open, &rank);
        let (n, solved, h) = open.swap_remove(best);
        if !solved {
            match t.kind(n) {
                Kind::Leaf => {
                    leaves.push(n);
                    open.push((n, true, h.min(t.value(n))));
                }
                Kind::Max => open.extend(t.children(n).map(|c| (c, false, h))),
                _ => open.push((t.child(n, 0), false, h)),
            }
            continue;
        }
        let Some(p) = t.parent(n) else {
            return (leaves, h);
        };
        let i = t.child_index(n);
        if t.kind(p) == Kind::Max {
            open.retain(|s| !below(s.0, p));
            open.push((p, true, h));
        } else if i + 1 < t.child_count(p) {
            open.push((t.child(p, i + 1), false, h));
        } else {
            open.push((p, true, h));
        }
    }
}

/// MTD(f) as Plaat et al. state it, from a first guess, with its memory a hash map; integer
/// trees only (the step is 1).
fn textbook_mtdf(t: &Tree, guess: f64) -> (Vec<NodeId>, f64) {
    use std::collections::HashMap;
    type Memory = HashMap<NodeId, (f64, f64)>;
    fn abm(
        t: &Tree,
        n: NodeId,
        alpha: f64,
        beta: f64,
        m: &mut Memory,
        out: &mut Vec<NodeId>,
    ) -> f64 {
        let (lo, hi) = m
            .get(&n)
            .copied()
            .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        if lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        let (alpha, beta) = (alpha.max(lo), beta.min(hi));
        let g = match t.kind(n) {
            Kind::Leaf => {
                out.push(n);
                t.value(n)
            }
            Kind::Max => {
                let (mut g, mut a) = (f64::NEG_INFINITY, alpha);
                for c in t.children(n) {
                    g = g.max(abm(t, c, a, beta, m, out));
                    a = a.max(g);
                    if g >= beta {
                        break;
                    }
                }
                g
            }
            _ => {
                let (mut g, mut b) = (f64::INFINITY, beta);
                for c in t.children(n) {
                    g = g.min(abm(t, c, alpha, b, m, out));
                    b = b.min(g);
                    if g <= alpha {
                        break;
                    }
                }
                g
            }
        };
        let e = m.entry(n).or_insert((f64::NEG_INFINITY, f64::INFINITY));
        if g <= alpha {
            e.1 = g;
        }
        if g > alpha && g < beta {
            *e = (g, g);
        }
        if g >= beta {
            e.0 = g;
        }
        g
    }
    let (mut g, mut lower, mut upper) = (guess, f64::NEG_INFINITY, f64::INFINITY);
    let (mut memory, mut leaves) = (Memory::new(), Vec::new());
    while lower < upper {
        let beta = if g == lower { g + 1.0 } else { g };
        g = abm(t, t.root(), beta - 1.0, beta, &mut memory, &mut leaves);
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
    }
    (leaves, g)
}

/// Seeded integer trees: random shapes (unary chains, mixed kinds, many ties) and uniform
/// trees of both parities (the last interior level Max or Min).
fn seeded_trees() -> impl Iterator<Item = (String, Tree)> {
    let shapes = (0..400).map(|seed| {
        let values = Values::integers(0, [1, 3, 9, 99][seed as usize % 4]);
        (format!("random seed {seed}"), random_tree(seed, values))
    });
    let uniform = (0..120).map(|seed| {
        let p = generate::uniform::Uniform {
            branching: 2 + (seed % 5) as u32,
            depth: 1 + (seed % 6) as u32,
            values: Values::integers(0, [2, 20, 999][seed as usize % 3]),
            order: generate::uniform::Order::Random,
        };
        let t = generate::uniform::generate(&p, seed).unwrap();
        (format!("uniform seed {seed}"), t)
    });
    shapes.chain(uniform)
}

#[test]
fn sss_evaluates_the_textbook_leaves_in_its_order() {
    for (what, t) in seeded_trees() {
        assert_eq!(
            leaves_evaluated(&t, &Algorithm::Sss),
            textbook_sss(&t),
            "{what}\n{}",
            prune::format::write(&t, prune::format::Format::Bracket)
        );
    }
}

#[test]
fn mtdf_evaluates_the_textbook_leaves_in_its_order() {
    for (what, t) in seeded_trees() {
        for guess in [-5.0, 0.0, 2.0, 50.0, 2000.0] {
            assert_eq!(
                leaves_evaluated(&t, &Algorithm::Mtdf { guess: Some(guess) }),
                textbook_mtdf(&t, guess),
                "{what}, guess {guess}\n{}",
                prune::format::write(&t, prune::format::Format::Bracket)
            );
        }
    }
}

/// Plaat, Schaeffer, Pijls & de Bruin (1996) prove that MT-SSS* (MTD from +∞) evaluates the
/// leaves SSS* evaluates, in the same order. MT-SSS* may evaluate a leaf again in a later pass
/// (prune reports it, `leaf_again`); its first evaluations are SSS*'s. Compared on every seeded
/// tree (integer values with many ties, unary chains, kinds that do not alternate) and on trees
/// of real values: the sequence of leaves SSS* evaluates against the sequence of MT-SSS*'s first
/// evaluations; SSS*'s `leaves` and `distinct_leaves` (equal: it evaluates a leaf once) against
/// MT-SSS*'s `distinct_leaves`; and both values.
#[test]
fn mt_sss_evaluates_the_leaves_of_sss_in_its_order() {
    let reals = (0..200).map(|seed| {
        let values = Values {
            lo: -1.0,
            hi: 1.0,
            real: true,
        };
        let t = random_tree(seed, values);
        (format!("reals seed {seed}"), t)
    });
    let mut again = 0;
    for (what, t) in seeded_trees().chain(reals) {
        let shown = || prune::format::write(&t, prune::format::Format::Bracket);
        let (sss, v) = leaves_evaluated(&t, &Algorithm::Sss);
        let (mt, w) = leaves_evaluated(&t, &Algorithm::MT_SSS);
        let mut seen = std::collections::HashSet::new();
        let first: Vec<NodeId> = mt.iter().copied().filter(|&l| seen.insert(l)).collect();
        again += mt.len() - first.len();
        assert_eq!(first, sss, "{what}\n{}", shown());
        assert_eq!(v, w, "{what}\n{}", shown());
        let s = search::run(&t, &Algorithm::Sss).unwrap().stats;
        let m = search::run(&t, &Algorithm::MT_SSS).unwrap().stats;
        assert_eq!(s.leaves, s.distinct_leaves, "{what}");
        assert_eq!(s.distinct_leaves, m.distinct_leaves, "{what}\n{}", shown());
    }
    // Not vacuous: later passes do return to leaves they evaluated.
    assert!(again > 100, "{again} repeated evaluations");
}
