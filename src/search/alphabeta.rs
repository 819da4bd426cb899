//! Alpha-beta, in the negamax form of its sources.
//!
//! - fail-hard: Knuth & Moore (1975), procedure F2. Every value returned lies in `[α, β]`:
//!   `m := α; for each child: t := −F2(child, −β, −m); if t > m then m := t; if m ≥ β then
//!   exit`. Ballard's Star1 and Star2 use this form below their chance nodes.
//! - fail-soft: Schaeffer's slides, `AlphaBeta(s, depth, α, β)`: the returned `score` may lie
//!   outside the window, a tighter bound.
//!
//! Trees need not alternate Max and Min: [`child`] gives a child's value from its parent's point
//! of view, negating only between opposite players (see `negamax` in the module).

use super::{Bound, Cutoff, Found, Observer, sign};
use crate::tree::{NodeId, Tree};

pub fn search<O: Observer>(tree: &Tree, fail_soft: bool, obs: &mut O) -> Found {
    let root = tree.root();
    if tree.is_leaf(root) {
        let v = tree.value(root);
        obs.leaf(root, v);
        return Found::exact(v);
    }
    let (lo, hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let v = if fail_soft {
        soft(tree, root, lo, hi, obs)
    } else {
        f2(tree, root, lo, hi, obs)
    };
    Found::exact(sign(tree.kind(root)) * v)
}

/// A negamax search function: a node's value from its own player's point of view.
pub(crate) type Negamax<O> = fn(&Tree, NodeId, f64, f64, &mut O) -> f64;

/// Child `c` of a node whose sign is `s`, searched with the window `(alpha, beta)` seen from the
/// parent; returns its value seen from the parent. Between opposite players this is negamax's
/// `−f(c, −β, −α)`; between nodes of the same player, `f(c, α, β)`. A leaf is evaluated here.
#[inline]
pub(crate) fn child<O: Observer>(
    tree: &Tree,
    s: f64,
    c: NodeId,
    alpha: f64,
    beta: f64,
    obs: &mut O,
    f: Negamax<O>,
) -> f64 {
    if tree.is_leaf(c) {
        let v = tree.value(c);
        obs.leaf(c, v);
        return s * v;
    }
    if sign(tree.kind(c)) == s {
        f(tree, c, alpha, beta, obs)
    } else {
        -f(tree, c, -beta, -alpha, obs)
    }
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
    let b = match (Bound::classify(v, alpha, beta), s > 0.0) {
        (b, true) | (b @ Bound::Exact, false) => b,
        (Bound::Lower, false) => Bound::Upper,
        (Bound::Upper, false) => Bound::Lower,
    };
    obs.exit(node, s * v, b);
}

/// The cutoff kind at a node of sign `s`: beta at Max nodes, alpha at Min nodes.
#[inline]
pub(crate) fn cut_kind(s: f64) -> Cutoff {
    if s > 0.0 { Cutoff::Beta } else { Cutoff::Alpha }
}

/// Knuth & Moore's F2: fail-hard.
pub(crate) fn f2<O: Observer>(tree: &Tree, p: NodeId, alpha: f64, beta: f64, obs: &mut O) -> f64 {
    let s = sign(tree.kind(p));
    enter(obs, p, s, alpha, beta);
    let mut m = alpha;
    let n = tree.child_count(p);
    for (i, c) in tree.children(p).enumerate() {
        let t = child(tree, s, c, m, beta, obs, f2);
        if t > m {
            m = t;
        }
        if m >= beta {
            obs.cutoff(p, i as u32, (n - i - 1) as u32, cut_kind(s));
            break;
        }
    }
    exit(obs, p, s, m, alpha, beta);
    m
}

/// Schaeffer's fail-soft alpha-beta.
fn soft<O: Observer>(tree: &Tree, p: NodeId, alpha: f64, beta: f64, obs: &mut O) -> f64 {
    let s = sign(tree.kind(p));
    enter(obs, p, s, alpha, beta);
    let (mut a, mut score) = (alpha, f64::NEG_INFINITY);
    let n = tree.child_count(p);
    for (i, c) in tree.children(p).enumerate() {
        let value = child(tree, s, c, a, beta, obs, soft);
        if value > score {
            score = value;
        }
        if score > a {
            a = score;
        }
        if score >= beta {
            obs.cutoff(p, i as u32, (n - i - 1) as u32, cut_kind(s));
            break;
        }
    }
    exit(obs, p, s, score, alpha, beta);
    score
}
