//! The negamax plumbing shared by alpha-beta, NegaScout, MTD(f), SSS*'s passes and the
//! Max/Min parts of Star1 and Star2.
//!
//! The papers write their searches in negamax form: a node's value seen from its own player,
//! negated between opposite players. prune's trees need not alternate Max and Min, so `child`
//! negates only between opposite players, and `enter`/`exit` turn the negamax window and
//! value back into the root-relative ones the trace records.

use super::{Bound, Cutoff, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// +1 at Max nodes, −1 at Min nodes: a node's value times its sign is the value seen from the
/// player to move there.
#[inline]
pub(crate) fn sign(kind: Kind) -> f64 {
    if kind == Kind::Min { -1.0 } else { 1.0 }
}

/// A negamax search function: a node's value from its own player's point of view.
pub(crate) type Negamax<T, O> = fn(&T, NodeId, f64, f64, &mut O) -> f64;

/// Child `c` (of kind `kind`) of a node whose sign is `s`, searched with the window
/// `(alpha, beta)` seen from the parent; returns its value seen from the parent. Between
/// opposite players this is negamax's `−f(c, −β, −α)`; between nodes of the same player,
/// `f(c, α, β)`. A leaf is evaluated here, reported as [`Observer::fresh_leaf`] when `FRESH`
/// (the search evaluates no leaf twice). Always inlined, so `f` is a direct call.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn child<T: Nodes, O: Observer, const FRESH: bool>(
    tree: &T,
    s: f64,
    c: NodeId,
    kind: Kind,
    alpha: f64,
    beta: f64,
    obs: &mut O,
    f: Negamax<T, O>,
) -> f64 {
    if kind == Kind::Leaf {
        let v = tree.value(c);
        leaf::<O, FRESH>(obs, c, v);
        return s * v;
    }
    if sign(kind) == s {
        f(tree, c, alpha, beta, obs)
    } else {
        -f(tree, c, -beta, -alpha, obs)
    }
}

/// Reports the evaluation of leaf `c`: as a [`Observer::fresh_leaf`] when `FRESH`.
#[inline(always)]
pub(crate) fn leaf<O: Observer, const FRESH: bool>(obs: &mut O, c: NodeId, v: f64) {
    if FRESH {
        obs.fresh_leaf(c, v)
    } else {
        obs.leaf(c, v)
    }
}

/// A node `p` (sign `s`) whose children are all leaves (the last level of a uniform tree:
/// most visits), searched by a loop over the value column: `best` raised by each child's
/// value from `p`'s side, until it reaches `beta` (a cutoff after that child). The events and
/// their order are those of the general loop, which would read each child's kind first.
#[inline]
pub(crate) fn leaf_children<T: Nodes, O: Observer, const FRESH: bool>(
    tree: &T,
    p: NodeId,
    s: f64,
    mut best: f64,
    beta: f64,
    obs: &mut O,
) -> f64 {
    let first = tree.child(p, 0).0;
    let n = tree.child_count(p);
    for (i, &v) in tree.values_from(first, n).iter().enumerate() {
        leaf::<O, FRESH>(obs, NodeId(first + i as u32), v);
        let t = s * v;
        if t > best {
            best = t;
        }
        if best >= beta {
            obs.cutoff(p, i as u32, (n - i - 1) as u32, cut_kind(s));
            break;
        }
    }
    best
}

/// Reports entering `node` (sign `s`) with a negamax window, as a root-relative window.
#[inline]
pub(crate) fn enter<O: Observer>(obs: &mut O, node: NodeId, s: f64, alpha: f64, beta: f64) {
    if s > 0.0 {
        obs.enter(node, alpha, beta)
    } else {
        obs.enter(node, -beta, -alpha)
    }
}

/// Reports leaving `node` with negamax value `v` for the entry window `(alpha, beta)`.
#[inline]
pub(crate) fn exit<O: Observer>(obs: &mut O, node: NodeId, s: f64, v: f64, alpha: f64, beta: f64) {
    obs.exit(node, s * v, root_bound(Bound::classify(v, alpha, beta), s));
}

/// A negamax bound at a node of sign `s`, root-relative: a Min node's lower bound on its own
/// value is an upper bound on the root's.
#[inline]
pub(crate) fn root_bound(b: Bound, s: f64) -> Bound {
    match (b, s > 0.0) {
        (b, true) | (b @ Bound::Exact, false) => b,
        (Bound::Lower, false) => Bound::Upper,
        (Bound::Upper, false) => Bound::Lower,
    }
}

/// The cutoff kind at a node of sign `s`: beta at Max nodes, alpha at Min nodes.
#[inline]
pub(crate) fn cut_kind(s: f64) -> Cutoff {
    if s > 0.0 { Cutoff::Beta } else { Cutoff::Alpha }
}
