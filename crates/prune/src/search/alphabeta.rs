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
use crate::tree::{NodeId, Nodes};

/// Alpha-beta from the root with the window (−∞, +∞): Knuth & Moore's F2 (fail-hard), or
/// Schaeffer's fail-soft form when `fail_soft`. The root's value is exact. Every leaf is
/// evaluated at most once.
pub fn search<T: Nodes, O: Observer>(tree: &T, fail_soft: bool, obs: &mut O) -> Found {
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
        f2::<_, O, true>(tree, root, lo, hi, obs)
    };
    Found::exact(sign(tree.kind(root)) * v)
}

/// Knuth & Moore's F2: fail-hard. `FRESH`: a search of its own, which evaluates no leaf twice
/// (not NegaScout's re-search).
///
/// A node whose children are all leaves (the last level of a uniform tree: most visits) is
/// searched by a loop over the value column; the events and their order are those of the
/// general loop.
pub(crate) fn f2<T: Nodes, O: Observer, const FRESH: bool>(
    tree: &T,
    p: NodeId,
    alpha: f64,
    beta: f64,
    obs: &mut O,
) -> f64 {
    let s = sign(tree.kind(p));
    enter(obs, p, s, alpha, beta);
    let mut m = alpha;
    if tree.children_all_leaves(p) {
        m = leaf_children::<_, O, FRESH>(tree, p, s, m, beta, obs);
    } else {
        let n = tree.child_count(p);
        for (i, c) in tree.children(p).enumerate() {
            let k = tree.kind(c);
            let t = child::<_, O, FRESH>(tree, s, c, k, m, beta, obs, f2::<_, O, FRESH>);
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
fn soft<T: Nodes, O: Observer>(tree: &T, p: NodeId, alpha: f64, beta: f64, obs: &mut O) -> f64 {
    let s = sign(tree.kind(p));
    enter(obs, p, s, alpha, beta);
    let (mut a, mut score) = (alpha, f64::NEG_INFINITY);
    if tree.children_all_leaves(p) {
        score = leaf_children::<_, O, true>(tree, p, s, score, beta, obs);
    } else {
        let n = tree.child_count(p);
        for (i, c) in tree.children(p).enumerate() {
            let k = tree.kind(c);
            let value = child::<_, O, true>(tree, s, c, k, a, beta, obs, soft);
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
