//! Every sentence the stepper shows is true: for every algorithm, on many seeded random trees,
//! each step is narrated and each arithmetic claim in it ("child 3 ≤ α 5", "≥ β", "≤ A", "≥ B",
//! "returns 4 (exact)") is checked — the comparison against the numbers printed beside it, and
//! "exact" against the node's true value.

use std::sync::atomic::AtomicU64;

use prune::generate::{self, Values};
use prune::search::{ALGORITHMS, Algorithm, Params, Reference, Value};
use prune::trace::narrate::describe;
use prune::trace::{EventView, Replay, StepIndex, record};
use prune::tree::Tree;

/// A number as the narration prints it.
fn number(s: &str) -> f64 {
    let s = s.trim_matches(|c: char| c == ',' || c == ')' || c == '(' || c == ':');
    match s {
        "+∞" => f64::INFINITY,
        "−∞" => f64::NEG_INFINITY,
        _ => s
            .replace('−', "-")
            .parse()
            .unwrap_or_else(|_| panic!("not a number: {s:?}")),
    }
}

/// The first false comparison of a sentence, if any: "X ≤ α Y", "X ≥ β Y", "X ≤ A Y", "X ≥ B Y".
fn false_comparison(sentence: &str) -> Option<String> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    for i in 1..words.len().saturating_sub(2) {
        let (op, sym) = (words[i], words[i + 1]);
        if !matches!(op, "≤" | "≥") || !matches!(sym, "α" | "β" | "A" | "B") {
            continue;
        }
        let (Ok(x), Ok(y)) = (
            std::panic::catch_unwind(|| number(words[i - 1])),
            std::panic::catch_unwind(|| number(words[i + 2])),
        ) else {
            continue;
        };
        // The narration rounds long reals to three decimals.
        let slack = 1e-3 * (1.0 + x.abs().min(y.abs()));
        let holds = if op == "≤" {
            x <= y + slack
        } else {
            x + slack >= y
        };
        if !holds {
            return Some(format!("{x} {op} {sym} {y}"));
        }
    }
    None
}

fn trees() -> Vec<Tree> {
    let mut out = Vec::new();
    for seed in 0..60u64 {
        let p = generate::random::RandomShape {
            min_branching: 1,
            max_branching: 1 + (seed % 4) as u32,
            depth: 1 + (seed % 6) as u32,
            leaf_probability: 0.2,
            values: Values::integers(-4, 4),
            mixed: seed % 3 == 0,
        };
        out.push(generate::random::generate(&p, seed).unwrap());
        let c = generate::chance::ChanceTree {
            branching: 1 + (seed % 3) as u32,
            chance_branching: 1 + (seed % 4) as u32,
            depth: 1 + (seed % 3) as u32,
            values: Values::integers(-5, 5),
            uneven: seed % 2 == 0,
            irregular: seed % 3 == 0,
        };
        out.push(generate::chance::generate(&c, seed).unwrap());
        let m = generate::multiplayer::Multiplayer {
            players: 2 + (seed % 2) as u32,
            branching: 1 + (seed % 3) as u32,
            depth: 1 + (seed % 3) as u32,
            sum: 6,
        };
        out.push(generate::multiplayer::generate(&m, seed).unwrap());
        let w = generate::winloss::WinLoss {
            branching: 2,
            depth: 1 + (seed % 5) as u32,
            p0: 0.6,
            board: false,
        };
        out.push(generate::winloss::generate(&w, seed).unwrap());
    }
    out
}

fn algorithms() -> Vec<Algorithm> {
    let mut all: Vec<Algorithm> = ALGORITHMS
        .iter()
        .map(|i| Algorithm::with_params(i.name, &Params::default()).unwrap())
        .collect();
    all.push(Algorithm::AlphaBeta { fail_soft: true });
    all.push(Algorithm::Star2 {
        probes: 2,
        probe_always: false,
        rightmost: false,
    });
    all.push(Algorithm::Star1 { rightmost: true });
    all
}

#[test]
fn every_sentence_of_every_algorithm_is_true() {
    let mut checked = 0usize;
    let mut failures: std::collections::BTreeMap<String, String> = Default::default();
    for tree in trees() {
        for algo in algorithms() {
            if algo.refusal(&tree).is_some() {
                continue;
            }
            let (run, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
            let index = StepIndex::new(&tree, &trace);
            let replay = Replay::with_index(&tree, &trace, &index);
            let reference = Reference::of(&tree, &algo);
            for k in 0..=trace.len() {
                let s = describe(&tree, &run, &trace, &replay, k);
                if let Some(claim) = false_comparison(&s) {
                    failures
                        .entry(algo.label())
                        .or_insert_with(|| format!("false claim {claim} in: {s}"));
                }
                checked += 1;
                // "returns v (exact)" of a two-player node: v is the node's true value.
                if k > 0
                    && let EventView::Exit { node, value, bound } = trace.event(k - 1).view()
                    && bound == prune::search::Bound::Exact
                    && !algo.name().starts_with("maxn")
                    && algo.name() != "paranoid"
                    && let Value::Scalar(truth) = reference.get(node)
                    && (truth - value).abs() > 1e-9 * (1.0 + truth.abs())
                {
                    failures.entry(algo.label()).or_insert_with(|| {
                        format!(
                            "step {k} says exact {value}, the true value is {truth}: {s}\n{}",
                            prune::format::write(&tree, prune::format::Format::Bracket)
                        )
                    });
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked} sentences");
    let report: Vec<String> = failures.iter().map(|(a, f)| format!("{a}: {f}")).collect();
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// Issue 14 §2: every bound's provenance names a real event — the child's exit (or
/// evaluation) with that very value, below an ancestor of the node, or the chance node's
/// announced Aᵢ, Bᵢ — and alpha-beta's bounds always come from the root or a child's value.
#[test]
fn every_provenance_names_the_event_that_set_the_bound() {
    use prune::trace::provenance::{End, Origin, window_origin};
    let mut checked = 0usize;
    for tree in trees() {
        for algo in algorithms() {
            if algo.refusal(&tree).is_some() {
                continue;
            }
            let (_, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
            let index = StepIndex::new(&tree, &trace);
            let replay = Replay::with_index(&tree, &trace, &index);
            for (k, e) in trace.events().iter().enumerate() {
                let EventView::Enter { node, .. } = e.view() else {
                    continue;
                };
                for end in [End::Alpha, End::Beta] {
                    let (x, origin) = window_origin(&tree, &replay, node, k + 1, end).unwrap();
                    checked += 1;
                    let ancestors = tree.path_to(node);
                    match origin {
                        Origin::Returned {
                            child,
                            parent,
                            step,
                        } => {
                            assert!(step <= k, "{algo}: set after it was used");
                            let v = match trace.event(step - 1).view() {
                                EventView::Exit { node, value, .. }
                                | EventView::Leaf { node, value } => {
                                    assert_eq!(node, child, "{algo}");
                                    value
                                }
                                other => panic!("{algo}: step {step} is {other:?}"),
                            };
                            assert_eq!(v, x, "{algo}");
                            assert_eq!(tree.parent(child), Some(parent), "{algo}");
                            assert!(ancestors.contains(&parent), "{algo}");
                        }
                        Origin::ChanceBound { child, step, .. } => {
                            assert!(
                                matches!(trace.event(step - 1).view(), EventView::ChanceBounds { child: c, .. } if c == child),
                                "{algo}"
                            );
                            assert!(ancestors.contains(&child), "{algo}");
                        }
                        Origin::Start => assert!(
                            ancestors.len() == 1
                                || x.is_infinite()
                                || !matches!(algo, Algorithm::AlphaBeta { .. }),
                            "{algo}"
                        ),
                        Origin::AspirationFailed => assert!(
                            algo.improvements().is_some_and(|w| w.aspiration.is_some()),
                            "{algo}"
                        ),
                        Origin::Chosen => assert!(
                            !matches!(algo, Algorithm::AlphaBeta { .. } | Algorithm::Minimax),
                            "{algo}: {end:?} = {x} of node {} at step {} has no source in {}",
                            node.index(),
                            k + 1,
                            prune::format::write(&tree, prune::format::Format::Bracket)
                        ),
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked} bounds");
}
