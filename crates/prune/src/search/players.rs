//! n-player views of any tree, for max^n, shallow pruning and the paranoid reduction: on a
//! two-player tree (the slides call minimax the two-player case of max^n) Max is player 1,
//! Min player 2, and a leaf worth v pays (v, −v).

use std::borrow::Cow;

use crate::tree::{Kind, NodeId, Nodes};

/// The player (from 0) who moves at `node`; `None` at chance nodes and leaves.
#[inline]
pub(crate) fn mover<T: Nodes>(tree: &T, node: NodeId) -> Option<usize> {
    match tree.kind(node) {
        Kind::Player(p) => Some(usize::from(p)),
        Kind::Max => Some(0),
        Kind::Min => Some(1),
        _ => None,
    }
}

/// A leaf's payoff vector: its own in an n-player tree, (v, −v) in a two-player one.
#[inline]
pub(crate) fn payoff<T: Nodes>(tree: &T, leaf: NodeId) -> Cow<'_, [f64]> {
    if tree.is_multiplayer() {
        tree.payoff(leaf)
    } else {
        let v = tree.value(leaf);
        Cow::Owned(vec![v, if v == 0.0 { 0.0 } else { -v }])
    }
}

/// What a leaf's `leaf` event carries: its value in a two-player tree, NaN (see its payoff)
/// in an n-player one.
#[inline]
pub(crate) fn leaf_event_value<T: Nodes>(tree: &T, leaf: NodeId) -> f64 {
    if tree.is_multiplayer() {
        f64::NAN
    } else {
        tree.value(leaf)
    }
}

/// The floor of every component and the constant sum: the tree's own for an n-player tree;
/// for a two-player one, the vectors (v, −v) sum to 0 and each component is at least
/// min(L, −U) for the value bounds L..U.
pub(crate) fn limits<T: Nodes>(tree: &T) -> (f64, f64) {
    match tree.payoff_limits() {
        Some((floor, sum, _)) => (floor, sum),
        None => {
            let b = tree.value_bounds();
            (b.lo.min(-b.hi), 0.0)
        }
    }
}
