//! Issue 12's differential family, in the style of the audit: every algorithm on many seeded
//! random trees, its trace checked against its statistics and every `exit` event's claim
//! checked against the node's true value.
//!
//! - The statistics are the trace's events counted: `leaves` the `leaf` events, `interior` the
//!   `enter` events, `cutoffs` the `cutoff` events (and by kind), `pruned_children` their
//!   `skipped`, `probes`, `researches` and `fallbacks` their events, `distinct_leaves` the
//!   different leaves evaluated.
//! - Every node entered is left as often as it is entered.
//! - An `exit` with `exact` carries the node's true value, `lower` a value at most the true
//!   one, `upper` at least: the reference's value (minimax, expectiminimax, max^n, the paranoid
//!   reduction, the probabilistic rules). For max^n vectors, a bound is on the mover's
//!   component (docs/TRACE.md).
//!
//! `PRUNE_TREES=N` raises the number of trees per family (default 300).

use std::collections::HashMap;
use std::collections::HashSet;
use std::sync::atomic::AtomicU64;

use prune::generate::{self, Values};
use prune::search::catalogue::ALGORITHMS;
use prune::search::params::Params;
use prune::search::reference::Reference;
use prune::search::{Algorithm, Bound, Cutoff, Value};
use prune::trace::{EventView, Trace, record};
use prune::tree::{Kind, NodeId, Tree};

fn trees_per_family() -> u64 {
    std::env::var("PRUNE_TREES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// Trees of every family: integer values with many ties, single leaves and unary chains
/// (branching from 1), kinds that do not alternate, chance trees (uneven, irregular),
/// n-player trees, win-loss trees in [0, 1].
fn trees(seed: u64) -> Vec<Tree> {
    let b = 1 + (seed % 4) as u32;
    let random = generate::random::RandomShape {
        min_branching: 1,
        max_branching: b,
        depth: 1 + (seed % 7) as u32,
        leaf_probability: 0.2,
        values: Values::integers(-3, 3),
        mixed: seed % 3 == 0,
    };
    let chance = generate::chance::ChanceTree {
        branching: 1 + (seed % 3) as u32,
        chance_branching: 1 + (seed % 4) as u32,
        depth: 1 + (seed % 3) as u32,
        values: Values::integers(-4, 4),
        uneven: seed % 2 == 0,
        irregular: seed % 3 == 0,
    };
    let players = generate::multiplayer::Multiplayer {
        players: 2 + (seed % 3) as u32,
        branching: 1 + (seed % 3) as u32,
        depth: 1 + (seed % 4) as u32,
        sum: 6,
    };
    let winloss = generate::winloss::WinLoss {
        branching: 2,
        depth: 1 + (seed % 5) as u32,
        p0: 0.6,
        board: false,
    };
    vec![
        generate::random::generate(&random, seed).unwrap(),
        generate::chance::generate(&chance, seed).unwrap(),
        generate::multiplayer::generate(&players, seed).unwrap(),
        generate::winloss::generate(&winloss, seed).unwrap(),
    ]
}

/// Every algorithm with its default parameters, and the variants a parameter makes.
fn algorithms() -> Vec<Algorithm> {
    let mut all: Vec<Algorithm> = ALGORITHMS
        .iter()
        .map(|i| Algorithm::with_params(i.name, &Params::default()).unwrap())
        .collect();
    let d = Params::default;
    let variants = [
        (
            "alphabeta",
            Params {
                fail_soft: true,
                ..d()
            },
        ),
        (
            "star1",
            Params {
                rightmost: true,
                ..d()
            },
        ),
        ("star2", Params { probes: 2, ..d() }),
        ("star2", Params { probes: 3, ..d() }),
        ("krule", Params { k: 1.5, ..d() }),
        ("paranoid", Params { player: 1, ..d() }),
        (
            "mtdf",
            Params {
                guess: Some(-2.0),
                ..d()
            },
        ),
    ];
    for (name, params) in variants {
        if let Ok(a) = Algorithm::with_params(name, &params) {
            all.push(a);
        }
    }
    all
}

/// The statistics recounted from the trace.
fn recount(tree: &Tree, trace: &Trace) -> HashMap<&'static str, u64> {
    let mut c: HashMap<&'static str, u64> = HashMap::new();
    let mut distinct = HashSet::new();
    let mut depth: HashMap<NodeId, i64> = HashMap::new();
    for e in trace.events() {
        match e.view() {
            EventView::Enter { node, .. } => {
                *c.entry("interior").or_default() += 1;
                *depth.entry(node).or_default() += 1;
            }
            EventView::Leaf { node, .. } => {
                *c.entry("leaves").or_default() += 1;
                distinct.insert(node);
            }
            EventView::Cutoff { skipped, kind, .. } => {
                *c.entry("cutoffs").or_default() += 1;
                *c.entry("pruned_children").or_default() += u64::from(skipped);
                *c.entry(kind.name()).or_default() += 1;
            }
            EventView::Probe { .. } => *c.entry("probes").or_default() += 1,
            EventView::Research { .. } => *c.entry("researches").or_default() += 1,
            EventView::Fallback { .. } => *c.entry("fallbacks").or_default() += 1,
            EventView::Exit { node, .. } | EventView::ExitVector { node, .. } => {
                if tree.kind(node) != Kind::Leaf {
                    *depth.entry(node).or_default() -= 1;
                }
            }
            EventView::ChanceBounds { .. } => {}
            // Only the searches that order children at search time (crates/prune/tests/library/improved_traces.rs).
            EventView::Iteration { .. } | EventView::TableHit { .. } => {
                *c.entry("improved").or_default() += 1
            }
        }
    }
    c.insert("distinct_leaves", distinct.len() as u64);
    let unbalanced = depth.values().filter(|&&d| d != 0).count() as u64;
    c.insert("unbalanced", unbalanced);
    c
}

/// Whether an exit's claim holds of the node's true value.
fn holds(
    tree: &Tree,
    node: NodeId,
    claim: &Value,
    bound: Bound,
    truth: &Value,
    algo: &Algorithm,
) -> bool {
    // The probabilistic rules multiply in a different order in the reference.
    let loose = matches!(algo, Algorithm::Product | Algorithm::KRule { .. });
    let eq = |a: f64, b: f64| a == b || (loose && (a - b).abs() <= 1e-12);
    match (claim, truth) {
        (Value::Scalar(v), Value::Scalar(t)) => match bound {
            Bound::Exact => eq(*v, *t),
            Bound::Lower => *v <= *t || eq(*v, *t),
            Bound::Upper => *v >= *t || eq(*v, *t),
        },
        (Value::Vector(v), Value::Vector(t)) => {
            let mover = match tree.kind(node) {
                Kind::Player(p) => usize::from(p),
                Kind::Min => 1,
                _ => 0,
            };
            match bound {
                Bound::Exact => v == t,
                Bound::Lower => v[mover] <= t[mover],
                Bound::Upper => v[mover] >= t[mover],
            }
        }
        _ => false,
    }
}

#[test]
fn traces_agree_with_statistics_and_true_values() {
    let algos = algorithms();
    let mut checked_exits = 0u64;
    let mut runs = 0u64;
    let mut seen_bounds = HashSet::new();
    for seed in 0..trees_per_family() {
        for tree in trees(seed) {
            for algo in &algos {
                if algo.refusal(&tree).is_some() {
                    continue;
                }
                let (run, trace) = record(&tree, algo, &AtomicU64::new(0)).unwrap();
                runs += 1;
                let shown = || prune::format::write(&tree, prune::format::Format::Bracket);
                let c = recount(&tree, &trace);
                let get = |k: &str| c.get(k).copied().unwrap_or(0);
                let s = &run.stats;
                let pairs = [
                    ("leaves", s.leaves),
                    ("distinct_leaves", s.distinct_leaves),
                    ("interior", s.interior),
                    ("cutoffs", s.cutoffs),
                    ("pruned_children", s.pruned_children),
                    ("probes", s.probes),
                    ("researches", s.researches),
                    ("fallbacks", s.fallbacks),
                ];
                for (name, stat) in pairs {
                    assert_eq!(get(name), stat, "{algo}: {name} on {}", shown());
                }
                assert_eq!(s.nodes, s.leaves + s.interior, "{algo}");
                for kind in Cutoff::ALL {
                    assert_eq!(get(kind.name()), s.cutoffs_of(kind), "{algo}: {kind:?}");
                }
                assert_eq!(
                    get("unbalanced"),
                    0,
                    "{algo}: enters without exits on {}",
                    shown()
                );

                let reference = Reference::of(&tree, algo);
                for (k, e) in trace.events().iter().enumerate() {
                    let (node, claim, bound) = match e.view() {
                        EventView::Exit { node, value, bound } => {
                            (node, Value::Scalar(value), bound)
                        }
                        EventView::ExitVector { node, index, bound } => {
                            (node, Value::Vector(trace.vector(index).to_vec()), bound)
                        }
                        _ => continue,
                    };
                    let truth = reference.get(node);
                    assert!(
                        holds(&tree, node, &claim, bound, &truth, algo),
                        "{algo}, step {}: node {} exits {claim:?} {bound:?}, its value is {truth:?}, on {}",
                        k + 1,
                        node.index(),
                        shown()
                    );
                    seen_bounds.insert((algo.name(), format!("{bound:?}")));
                    checked_exits += 1;
                }
                // The run's own result is the root's claim too.
                assert!(
                    holds(
                        &tree,
                        tree.root(),
                        &run.value,
                        run.bound,
                        &reference.get(tree.root()),
                        algo
                    ),
                    "{algo}: the run's value {:?} {:?} on {}",
                    run.value,
                    run.bound,
                    shown()
                );
            }
        }
    }
    assert!(runs > 1_000, "{runs} runs");
    assert!(checked_exits > 50_000, "{checked_exits} exits");
    // Not vacuous: bounds of both kinds were claimed and checked.
    let both = ["Lower", "Upper"];
    let kinds = [
        "alphabeta",
        "negascout",
        "star1",
        "star2",
        "sss",
        "mtdf",
        "mt-sss",
        "paranoid",
    ]
    .map(|name| (name, &both[..]))
    .into_iter()
    // A shallow cutoff leaves a lower bound on the mover's component, never an upper one.
    .chain([("maxn-shallow", &both[..1])]);
    for (name, bounds) in kinds {
        for &b in bounds {
            assert!(
                seen_bounds.contains(&(name, b.to_string())),
                "no {b} exit from {name}: {seen_bounds:?}"
            );
        }
    }
}
