//! Alpha-beta, in the negamax form of its sources.
//!
//! - fail-hard: Knuth & Moore (1975), procedure F2. Every value returned lies in `[α, β]`:
//!   `m := α; for each child: t := −F2(child, −β, −m); if t > m then m := t; if m ≥ β then
//!   exit`. Ballard's Star1 and Star2 use this form below their chance nodes.
//! - fail-soft: Schaeffer's slides, `AlphaBeta(s, depth, α, β)`: the returned `score` may lie
//!   outside the window, a tighter bound.
//!
//! Trees need not alternate Max and Min: `super::negamax::child` gives a child's value from its parent's point
//! of view, negating only between opposite players (see [`super::negamax`]).

use super::negamax::{child, cut_kind, enter, exit, leaf_children, sign};
use super::{Found, Observer};
use crate::tree::{NodeId, Tree};

/// Alpha-beta from the root with the window (−∞, +∞): Knuth & Moore's F2 (fail-hard), or
/// Schaeffer's fail-soft form when `fail_soft`. The root's value is exact. Every leaf is
/// evaluated at most once.
pub fn search<O: Observer>(tree: &Tree, fail_soft: bool, obs: &mut O) -> Found {
    let root = tree.root();
    if tree.is_leaf(root) {
        let v = tree.value(root);
        obs.fresh_leaf(root, v);
        return Found::exact(v);
    }
    let (lo, hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let v = if fail_soft {
        soft(tree, root, lo, hi, obs)
    } else {
        f2::<O, true>(tree, root, lo, hi, obs)
    };
    Found::exact(sign(tree.kind(root)) * v)
}

/// Knuth & Moore's F2: fail-hard. `FRESH`: a search of its own, which evaluates no leaf twice
/// (not NegaScout's re-search).
///
/// A node whose children are all leaves (the last level of a uniform tree: most visits) is
/// searched by a loop over the value column; the events and their order are those of the
/// general loop.
pub(crate) fn f2<O: Observer, const FRESH: bool>(
    tree: &Tree,
    p: NodeId,
    alpha: f64,
    beta: f64,
    obs: &mut O,
) -> f64 {
    let s = sign(tree.kind(p));
    enter(obs, p, s, alpha, beta);
    let mut m = alpha;
    if tree.children_all_leaves(p) {
        m = leaf_children::<O, FRESH>(tree, p, s, m, beta, obs);
    } else {
        let (first, kinds) = tree.child_kinds(p);
        let n = kinds.len();
        for (i, &k) in kinds.iter().enumerate() {
            let c = NodeId(first + i as u32);
            let t = child::<O, FRESH>(tree, s, c, k, m, beta, obs, f2::<O, FRESH>);
            if t > m {
                m = t;
            }
            if m >= beta {
                obs.cutoff(p, i as u32, (n - i - 1) as u32, cut_kind(s));
                break;
            }
        }
    }
    exit(obs, p, s, m, alpha, beta);
    m
}

/// Schaeffer's fail-soft alpha-beta (a search of its own: every leaf fresh), with the same
/// leaf loop as [`f2`].
fn soft<O: Observer>(tree: &Tree, p: NodeId, alpha: f64, beta: f64, obs: &mut O) -> f64 {
    let s = sign(tree.kind(p));
    enter(obs, p, s, alpha, beta);
    let (mut a, mut score) = (alpha, f64::NEG_INFINITY);
    if tree.children_all_leaves(p) {
        score = leaf_children::<O, true>(tree, p, s, score, beta, obs);
    } else {
        let (first, kinds) = tree.child_kinds(p);
        let n = kinds.len();
        for (i, &k) in kinds.iter().enumerate() {
            let c = NodeId(first + i as u32);
            let value = child::<O, true>(tree, s, c, k, a, beta, obs, soft);
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
    }
    exit(obs, p, s, score, alpha, beta);
    score
}
