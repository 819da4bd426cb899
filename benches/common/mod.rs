//! What the benchmarks share: the tree the search targets are measured on.

use prune::generate::{Values, uniform};
use prune::tree::Tree;

/// The random uniform tree of 10^7 leaves (b = 10, d = 7, 11 111 111 nodes, values 0..999,
/// seed 7), the same for `search` and for the `peer` comparison.
pub fn uniform_1e7(order: uniform::Order) -> Tree {
    let p = uniform::Uniform {
        branching: 10,
        depth: 7,
        values: Values::integers(0, 999),
        order,
    };
    uniform::generate(&p, 7).expect("generate")
}
