//! Expectiminimax: every node searched; a chance node is worth the probability-weighted mean of
//! its children (Ballard 1982, §1). The reference Star1 and Star2 must agree with.
//!
//! How a chance node's value is computed is shared with Star1 and Star2, so a
//! chance node they search fully gets the very same floating-point number ([`super::chance`]): the sum of the
//! children's values divided by N when they are equally likely (Ballard's `vsum / N`), the sum
//! of `p_i · v_i` in child order otherwise (§7.3).

use super::chance::ChanceSum;
use super::{Bound, Found, Observer};
use crate::tree::{Kind, NodeId, Tree};

/// Every node searched; chance nodes worth the probability-weighted mean of their children.
pub fn search<O: Observer>(tree: &Tree, obs: &mut O) -> Found {
    Found::exact(visit(tree, tree.root(), obs))
}

/// The exact value of `node`.
pub fn value(tree: &Tree, node: NodeId) -> f64 {
    visit(tree, node, &mut super::Quiet)
}

fn visit<O: Observer>(tree: &Tree, node: NodeId, obs: &mut O) -> f64 {
    if tree.is_leaf(node) {
        let v = tree.value(node);
        obs.leaf(node, v);
        return v;
    }
    obs.enter(node, f64::NEG_INFINITY, f64::INFINITY);
    let v = match tree.kind(node) {
        Kind::Max => tree
            .children(node)
            .fold(f64::NEG_INFINITY, |b, c| b.max(visit(tree, c, obs))),
        Kind::Min => tree
            .children(node)
            .fold(f64::INFINITY, |b, c| b.min(visit(tree, c, obs))),
        _ => {
            let mut sum = ChanceSum::new(tree, node);
            for c in tree.children(node) {
                let v = visit(tree, c, obs);
                sum.add(tree, c, v);
            }
            sum.value()
        }
    };
    obs.exit(node, v, Bound::Exact);
    v
}
