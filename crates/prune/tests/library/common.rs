//! Helpers the library's tests share.

use std::path::PathBuf;

use prune::search::{self, Algorithm, Counter, Value};
use prune::tree::{Draft, NodeId, Tree};

/// A path from the repository's root (the trees and malformed inputs live there).
pub fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The subtree of `t` below `root`, keys and heuristic values kept.
pub fn subtree(t: &Tree, root: NodeId) -> Tree {
    let mut d = Draft::new(t.meta().clone());
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let mut node = t.draft_node(n);
        node.children = t.child_count(n) as u32;
        d.push(node);
        stack.extend(t.children(n).rev());
    }
    d.finish().expect("a subtree of a valid tree is valid")
}

/// The root value `algo` finds on `tree`, a number (panics on a refusal or a payoff vector).
pub fn scalar_value(tree: &Tree, algo: &Algorithm) -> f64 {
    let mut counter = Counter::new(tree.len());
    let (found, _) =
        search::search(tree, algo, &mut counter).unwrap_or_else(|e| panic!("{algo}: {e}"));
    match found.value {
        Value::Scalar(v) => v,
        v => panic!("{algo}: not a scalar: {v}"),
    }
}

/// Every improvement alone and in combination, on alpha-beta, NegaScout and MTD(f) — all of
/// them order children at search time — `W` standing for the game's aspiration half-width.
pub const IMPROVED: &[&str] = &[
    "alphabeta:tt",
    "alphabeta:fail-soft:tt",
    "alphabeta:killers",
    "alphabeta:history",
    "alphabeta:tt:killers:history",
    "alphabeta:id",
    "alphabeta:id:aspiration=W",
    "alphabeta:tt:id",
    "alphabeta:tt:id:aspiration=W:killers:history",
    "negascout:tt",
    "negascout:killers:history",
    "negascout:id:aspiration=W",
    "negascout:tt:id:aspiration=W:killers:history",
    "mtdf:tt",
    "mtdf:id",
    "mtdf:tt:id",
];

/// SSS*'s choice from OPEN (Stockman 1979, Γ's first step): the state of the highest merit,
/// ties to the leftmost node (the first in preorder, by `rank`). `open` holds (node, SOLVED,
/// merit) states; the test models of SSS* share this, and keep their own bookkeeping.
pub fn highest_merit(open: &[(NodeId, bool, f64)], rank: &[u32]) -> usize {
    (0..open.len())
        .max_by(|&a, &b| {
            let (x, y) = (open[a], open[b]);
            x.2.total_cmp(&y.2)
                .then(rank[y.0.index()].cmp(&rank[x.0.index()]))
        })
        .expect("OPEN empties only after the root is solved")
}
