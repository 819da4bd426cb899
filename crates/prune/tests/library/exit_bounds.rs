//! Every exit of a Star1 or Star2 search claims something of its node — its value, or a lower
//! or an upper bound on it — and the trace, `prune draw` and the explorer show that claim. It
//! must be true of the node's exact expectiminimax value, even where a window was empty (Ballard's
//! clipping to L..U makes such windows, and only the clipped side holds there).

use prune::generate::{Values, chance};
use prune::search::{self, Algorithm, Bound, Observer, expectiminimax};
use prune::tree::{NodeId, Tree};

/// Every exit: the node, the value returned and what it claims.
#[derive(Default)]
struct Exits(Vec<(NodeId, f64, Bound)>);

impl Observer for Exits {
    fn exit(&mut self, node: NodeId, value: f64, bound: Bound) {
        self.0.push((node, value, bound));
    }
}

fn variants() -> Vec<Algorithm> {
    let mut all = Vec::new();
    for rightmost in [false, true] {
        all.push(Algorithm::Star1 { rightmost });
        for probes in [1, 2, 3] {
            for probe_always in [false, true] {
                all.push(Algorithm::Star2 {
                    probes,
                    probe_always,
                    rightmost,
                });
            }
        }
    }
    all
}

/// Checks every exit of `algo` on `tree`; `what` names the tree in a failure.
fn check(tree: &Tree, algo: &Algorithm, what: &str) {
    let mut exits = Exits::default();
    search::search(tree, algo, &mut exits).unwrap_or_else(|e| panic!("{algo}: {e}"));
    for (node, v, bound) in exits.0 {
        let real = expectiminimax::value(tree, node);
        let slack = 1e-12 * real.abs().max(1.0);
        let holds = match bound {
            Bound::Exact => (real - v).abs() <= slack,
            Bound::Lower => real >= v - slack,
            Bound::Upper => real <= v + slack,
        };
        assert!(
            holds,
            "{what}, {algo}: node {node} exits {v} {bound:?}, but is worth {real}"
        );
    }
}

#[test]
fn the_issues_trees_exit_with_true_bounds() {
    for expr in ["-(-10,*(-(-7,-3),-5))", "+(*(-(+(-4,13))),*(-(+(-3,2))))"] {
        let tree = prune::format::parse_expr(expr, false).unwrap();
        for algo in variants() {
            check(&tree, &algo, expr);
        }
    }
}

#[test]
fn every_exit_claims_what_is_true_on_seeded_chance_trees() {
    for seed in 0..600u64 {
        let shape = chance::ChanceTree {
            branching: 1 + (seed % 3) as u32,
            chance_branching: 1 + (seed / 3 % 3) as u32,
            depth: 1 + (seed / 9 % 4) as u32,
            values: Values::integers(-12, 12),
            uneven: seed % 2 == 0,
            irregular: seed % 5 < 3,
        };
        let mut tree = chance::generate(&shape, seed).unwrap();
        for declared in [true, false] {
            // Bounds taken from the leaves are tight: the windows clipped to them are often
            // empty.
            if !declared {
                tree.meta_mut().bounds = None;
            }
            for algo in variants() {
                check(
                    &tree,
                    &algo,
                    &format!("seed {seed}, {shape:?}, declared bounds {declared}"),
                );
            }
        }
    }
}
