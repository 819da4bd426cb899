//! NegaScout: Reinefeld & Marsland (1987), "A Quantitative Analysis of Minimal Window Search",
//! Figure 2, and its variant NS^αβ.
//!
//! ```text
//! lo_value ← α; hi_value ← β
//! for j ← 1 to w do
//!     t ← −NS(P.j, −hi_value, −lo_value, d − 1)
//!     if t > lo_value and t < β and j > 1 then
//!         t ← −NS(P.j, −β, −t, d − 1)            /* re-search */
//!     lo_value ← max(lo_value, t)
//!     if lo_value ≥ β then return lo_value    /* cut-off */
//!     hi_value ← lo_value + 1                  /* minimal window */
//! return lo_value
//! ```
//!
//! NS (`ReSearch::SelfCall`) re-searches by calling itself; NS^αβ (`ReSearch::AlphaBeta`)
//! replaces that line with `t ← −αβ(P.j, −β, −t, d − 1)`, Knuth & Moore's fail-hard F2.
//!
//! Choices where the figure is silent:
//! - The minimal window `(v, v + 1)` assumes integer values. On a tree whose leaves are all
//!   integers we use `+ 1`; otherwise — and on integer trees where `v + 1` rounds back to `v`,
//!   beyond 2⁵³ — the next floating-point number after `v`, the narrowest window there is.
//!   (Any nonempty width is correct; a wider one only scouts less. An empty one, `(v, v)`,
//!   would make every scout fail low and return the first child's value.)
//! - Figure 2 re-searches even a leaf (at `d = 1`); we follow it, so a re-searched leaf is
//!   evaluated twice, as in the paper's cost model (`N1_d` counts `r N1_{d−1}` re-searches at
//!   every depth). Reinefeld's "depth-2 improvement", which the paper omits "for simplicity",
//!   is not applied.
//! - The depth parameter `d` is the tree itself: a search ends at the leaves.

use super::alphabeta;
use super::negamax::{Negamax, child, cut_kind, enter, exit, sign};
use super::{Found, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// How NegaScout searches a child again after its null-window test failed high.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReSearch {
    /// NS: `t ← −NS(P.j, −β, −t)`.
    SelfCall,
    /// NS^αβ: `t ← −αβ(P.j, −β, −t)`.
    AlphaBeta,
}

/// NegaScout from the root: a full window on each node's first child, null windows on the
/// others, and a re-search (a self-call, or alpha-beta for NS^αβ, by `re`) when one fails high.
pub fn search<T: Nodes, O: Observer>(tree: &T, re: ReSearch, obs: &mut O) -> Found {
    let root = tree.root();
    if tree.is_leaf(root) {
        let v = tree.value(root);
        obs.leaf(root, v);
        return Found::exact(v);
    }
    let ns: Negamax<T, O> = if tree.is_integral() {
        match re {
            ReSearch::SelfCall => ns::<_, O, true, true>,
            ReSearch::AlphaBeta => ns::<_, O, true, false>,
        }
    } else {
        match re {
            ReSearch::SelfCall => ns::<_, O, false, true>,
            ReSearch::AlphaBeta => ns::<_, O, false, false>,
        }
    };
    let v = ns(tree, root, f64::NEG_INFINITY, f64::INFINITY, obs);
    Found::exact(sign(tree.kind(root)) * v)
}

/// The minimal window's upper end above `v`: `v + 1` on integer trees, unless that rounds back
/// to `v` (|v| ≥ 2⁵³); otherwise, and on other trees, the next floating-point number. Either way
/// it is above `v` and no leaf value lies strictly between them.
#[inline]
pub(crate) fn above<const INTEGRAL: bool>(v: f64) -> f64 {
    if INTEGRAL && v + 1.0 > v {
        v + 1.0
    } else {
        v.next_up()
    }
}

/// Figure 2, `NS(P, α, β, d)`. `SELF`: NS rather than NS^αβ.
fn ns<T: Nodes, O: Observer, const INTEGRAL: bool, const SELF: bool>(
    tree: &T,
    p: NodeId,
    alpha: f64,
    beta: f64,
    obs: &mut O,
) -> f64 {
    let s = sign(tree.kind(p));
    enter(obs, p, s, alpha, beta);
    let v = if tree.children_all_leaves(p) {
        scan::<_, O, INTEGRAL, SELF, true>(tree, p, s, alpha, beta, obs)
    } else {
        scan::<_, O, INTEGRAL, SELF, false>(tree, p, s, alpha, beta, obs)
    };
    exit(obs, p, s, v, alpha, beta);
    v
}

/// The loop of Figure 2 over `p`'s children. `LEAVES`: they are all leaves (the last level of
/// a uniform tree: most visits), so each child is evaluated in place, a scout and its
/// re-search alike (Figure 2 re-searches leaves too); the events are those of the general loop.
#[inline(always)]
fn scan<T: Nodes, O: Observer, const INTEGRAL: bool, const SELF: bool, const LEAVES: bool>(
    tree: &T,
    p: NodeId,
    s: f64,
    alpha: f64,
    beta: f64,
    obs: &mut O,
) -> f64 {
    let me: Negamax<T, O> = ns::<_, O, INTEGRAL, SELF>;
    let re: Negamax<T, O> = if SELF {
        me
    } else {
        alphabeta::f2::<_, O, false>
    };
    let (mut lo, mut hi) = (alpha, beta);
    let w = tree.child_count(p);
    for (j, c) in tree.children(p).enumerate() {
        let k = if LEAVES { Kind::Leaf } else { tree.kind(c) };
        let mut t = child::<_, O, false>(tree, s, c, k, lo, hi, obs, me);
        if t > lo && t < beta && j > 0 {
            // The scout failed high: search again with the window (t, β), seen from P.
            if s > 0.0 {
                obs.research(c, t, beta);
            } else {
                obs.research(c, -beta, -t);
            }
            t = child::<_, O, false>(tree, s, c, k, t, beta, obs, re);
        }
        lo = lo.max(t);
        if lo >= beta {
            obs.cutoff(p, j as u32, (w - j - 1) as u32, cut_kind(s));
            return lo;
        }
        hi = above::<INTEGRAL>(lo);
    }
    lo
}
