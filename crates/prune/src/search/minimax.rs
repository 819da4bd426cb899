//! Minimax: every node searched. The reference every two-player algorithm must agree with.
//!
//! A Max node's value is the largest of its children's, a Min node's the smallest (the
//! slides' `MiniMax`); leaves are their own values. Every node is visited once.

use super::{Bound, Found, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// Every node searched: the reference for two-player trees without chance nodes.
pub fn search<T: Nodes, O: Observer>(tree: &T, obs: &mut O) -> Found {
    Found::exact(visit(tree, tree.root(), obs))
}

fn visit<T: Nodes, O: Observer>(tree: &T, node: NodeId, obs: &mut O) -> f64 {
    if tree.is_leaf(node) {
        let v = tree.value(node);
        obs.fresh_leaf(node, v);
        return v;
    }
    obs.enter(node, f64::NEG_INFINITY, f64::INFINITY);
    let v = if tree.kind(node) == Kind::Max {
        tree.children(node)
            .fold(f64::NEG_INFINITY, |best, c| best.max(visit(tree, c, obs)))
    } else {
        tree.children(node)
            .fold(f64::INFINITY, |best, c| best.min(visit(tree, c, obs)))
    };
    obs.exit(node, v, Bound::Exact);
    v
}
