//! Star2: Ballard (1982), §5, "A 'Better' Solution for 'Regular' *-Minimax Trees".
//!
//! Below a * node whose children are all − nodes, Star2 first *probes* each − node — evaluates
//! one of its children, whose value Wi bounds the − node's from above — and cuts the * node off
//! if the probes alone prove it worth at most α:
//!
//! ```text
//! (5)  (V1 + … + Vi−1) + Vi + (Wi+1 + … + WN)  ≤  N·α
//! (6)  Ai = α·N − (V1 + … + Vi−1) − (Wi+1 + … + WN)
//! (7)  A1 = α·N − (W2 + … + WN)          (8)  An+1 = An + Wn+1 − Vn
//! ```
//!
//! then searches the − nodes as Star1 does, with the tighter Ai of (6). `star2_min` is the
//! paper's `Star2Min` line for line (the probing loop, `A = A − U`, the regular loop);
//! `star2_max` is "the related procedure for * nodes followed by + nodes" the paper asks for,
//! its mirror image: probes bound + nodes from below and tighten B.
//!
//! Choices where the paper is silent or garbled:
//! - `Probe(x, y, z)` "returns Term(x) if x is a leaf, otherwise chooses some successor s of x …
//!   and returns Min(s, y, z)". `Min(s, …)` cannot be meant literally (s is a child of a −
//!   node); we evaluate s with the window (y, z) — Ballard's `Eval`. The child probed is the
//!   first in order (then the second, … with cyclic probing).
//! - Cyclic probing (§5, last paragraph; §6.2.1.3's "2 leaves during preliminary probing"):
//!   with `probes = K`, K rounds, round r probing the r-th child of every − node (those that
//!   have one), keeping for each the smallest value seen; each probe is tested against
//!   `Ai = N·α − Σ_{j≠i} Wj`. K = 1 is the paper's Star2.
//! - A probed leaf that the regular phase searches again is evaluated again: `leaves` counts it
//!   twice and `distinct_leaves` once (§6.2.1 counts the first way, §6.1 the second).
//! - Uneven probabilities: (5)–(8) weighted as (22) weights (1a): with Pj the probabilities,
//!   `Ai = (α − Σ_{j<i} Pj Vj − Σ_{j>i} Pj Wj) / Pi` (and the mirror for + children).
//! - A * node whose children are not all − or all + (leaves, mixed kinds) is searched by Star1,
//!   and the observer is told (`fallback`).

use super::chance::ChanceSum;
use super::star1::{self, Ctx, Root, cut, rightmost};
use super::{Bound, Cutoff, Found, Observer};
use crate::tree::{Kind, NodeId, Tree};

/// Ballard's Star2 from the root: `probes` rounds of cyclic probing at each chance node whose
/// children are all of one kind, then Star1's regular phase; `rightmost` as for Star1.
pub fn search<O: Observer>(tree: &Tree, probes: u32, rightmost: bool, obs: &mut O) -> Found {
    star1::run(tree, probes.max(1), rightmost, obs)
}

/// A * node under Star2: Star2Min, its Max twin, or Star1.
pub(crate) fn node<O: Observer>(
    tree: &Tree,
    node: NodeId,
    alpha: f64,
    beta: f64,
    root: Option<Root>,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    let first = tree.kind(tree.child(node, 0));
    let regular = matches!(first, Kind::Min | Kind::Max)
        && tree.children(node).all(|c| tree.kind(c) == first);
    if !regular {
        obs.fallback(node);
        return star1::star1(tree, node, alpha, beta, root, ctx, obs);
    }
    obs.enter(node, alpha, beta);
    match (tree.is_uniform(node), first) {
        (true, Kind::Min) => star2_min(tree, node, alpha, beta, root, ctx, obs),
        (true, _) => star2_max(tree, node, alpha, beta, root, ctx, obs),
        (false, side) => star2_weighted(tree, node, alpha, beta, side == Kind::Min, root, ctx, obs),
    }
}

/// `Probe(s, y, z)`: evaluates child `k` of `s` with the window (y, z).
fn probe<O: Observer>(
    tree: &Tree,
    s: NodeId,
    k: usize,
    y: f64,
    z: f64,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    let c = tree.child(s, k);
    obs.probe(c);
    star1::eval(tree, c, y, z, ctx, obs)
}

/// A cutoff during the probing phase: the * node is worth at most α (`low`) or at least β.
fn probe_cut<O: Observer>(
    obs: &mut O,
    node: NodeId,
    i: usize,
    n: usize,
    low: bool,
    alpha: f64,
    beta: f64,
) -> f64 {
    obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::Probe);
    let (v, b) = if low {
        (alpha, Bound::Upper)
    } else {
        (beta, Bound::Lower)
    };
    obs.exit(node, v, b);
    v
}

/// `Star2Min(board, alpha, beta)`, for a * node with N equally likely − children.
fn star2_min<O: Observer>(
    tree: &Tree,
    node: NodeId,
    alpha: f64,
    beta: f64,
    root: Option<Root>,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    let (l, u) = (ctx.l, ctx.u);
    let kids: Vec<NodeId> = tree.children(node).collect();
    let n = kids.len();
    let nf = n as f64;
    let mut a = nf * (alpha - u) + u;
    let mut b = nf * (beta - l) + l;
    let bx = b.min(u);
    let mut w = vec![u; n];
    // The probing loop: (7) and (8), "distributed".
    for i in 0..n {
        obs.chance_bounds(tree.child(node, i), a, b);
        let ax = a.max(l);
        w[i] = probe(tree, kids[i], 0, ax, bx, ctx, obs);
        if w[i] <= a {
            return probe_cut(obs, node, i, n, true, alpha, beta);
        }
        a = a + u - w[i];
    }
    // Cyclic probing: the k-th child of every − node, against Ai = N·α − Σ_{j≠i} Wj.
    for k in 1..ctx.probes as usize {
        let total: f64 = w.iter().sum();
        for i in (0..n).filter(|&i| tree.child_count(kids[i]) > k) {
            let ai = nf * alpha - (total - w[i]);
            let wk = probe(tree, kids[i], k, ai.max(l), bx, ctx, obs);
            if wk <= ai {
                return probe_cut(obs, node, i, n, true, alpha, beta);
            }
            w[i] = w[i].min(wk);
        }
        a = nf * (alpha - u) + u;
        for &wi in &w {
            a = a + u - wi;
        }
    }
    a -= u;
    // The regular loop.
    let mut sum = ChanceSum::new(tree, node);
    for i in 0..n {
        a += w[i];
        obs.chance_bounds(tree.child(node, i), a, b);
        let (ax, bx) = (a.max(l), b.min(u));
        let v = star1::min_node(tree, kids[i], ax, bx, false, ctx, obs);
        if let Some(r) = cut(obs, node, i, n, v, a, b, alpha, beta) {
            return r;
        }
        sum.add(tree, kids[i], v);
        let left = (n - i - 1) as f64;
        if let Some(r) = rightmost(
            obs,
            node,
            i,
            n,
            root,
            sum.sum() + l * left,
            sum.sum() + u * left,
            nf,
            alpha,
            beta,
            ctx,
        ) {
            return r;
        }
        a -= v;
        b = b + l - v;
    }
    let v = sum.value();
    obs.exit(node, v, Bound::classify(v, alpha, beta));
    v
}

/// The Max twin of `Star2Min`, for a * node with N equally likely + children: probes bound the
/// + nodes from below, `Bi = N·β − (V1 + … + Vi−1) − (Wi+1 + … + WN)`.
fn star2_max<O: Observer>(
    tree: &Tree,
    node: NodeId,
    alpha: f64,
    beta: f64,
    root: Option<Root>,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    let (l, u) = (ctx.l, ctx.u);
    let kids: Vec<NodeId> = tree.children(node).collect();
    let n = kids.len();
    let nf = n as f64;
    let mut a = nf * (alpha - u) + u;
    let mut b = nf * (beta - l) + l;
    let ax = a.max(l);
    let mut w = vec![l; n];
    for i in 0..n {
        obs.chance_bounds(tree.child(node, i), a, b);
        let bx = b.min(u);
        w[i] = probe(tree, kids[i], 0, ax, bx, ctx, obs);
        if w[i] >= b {
            return probe_cut(obs, node, i, n, false, alpha, beta);
        }
        b = b + l - w[i];
    }
    for k in 1..ctx.probes as usize {
        let total: f64 = w.iter().sum();
        for i in (0..n).filter(|&i| tree.child_count(kids[i]) > k) {
            let bi = nf * beta - (total - w[i]);
            let wk = probe(tree, kids[i], k, ax, bi.min(u), ctx, obs);
            if wk >= bi {
                return probe_cut(obs, node, i, n, false, alpha, beta);
            }
            w[i] = w[i].max(wk);
        }
        b = nf * (beta - l) + l;
        for &wi in &w {
            b = b + l - wi;
        }
    }
    b -= l;
    let mut sum = ChanceSum::new(tree, node);
    for i in 0..n {
        b += w[i];
        obs.chance_bounds(tree.child(node, i), a, b);
        let (ax, bx) = (a.max(l), b.min(u));
        let v = star1::max_node(tree, kids[i], ax, bx, false, ctx, obs);
        if let Some(r) = cut(obs, node, i, n, v, a, b, alpha, beta) {
            return r;
        }
        sum.add(tree, kids[i], v);
        let left = (n - i - 1) as f64;
        if let Some(r) = rightmost(
            obs,
            node,
            i,
            n,
            root,
            sum.sum() + l * left,
            sum.sum() + u * left,
            nf,
            alpha,
            beta,
            ctx,
        ) {
            return r;
        }
        b -= v;
        a = a + u - v;
    }
    let v = sum.value();
    obs.exit(node, v, Bound::classify(v, alpha, beta));
    v
}

/// Star2 with uneven probabilities, for either kind of children (`min`: − children).
#[allow(clippy::too_many_arguments)]
fn star2_weighted<O: Observer>(
    tree: &Tree,
    node: NodeId,
    alpha: f64,
    beta: f64,
    min: bool,
    root: Option<Root>,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    let (l, u) = (ctx.l, ctx.u);
    let kids: Vec<NodeId> = tree.children(node).collect();
    let n = kids.len();
    let p: Vec<f64> = kids.iter().map(|&k| tree.prob(k)).collect();
    // Wi: the probes' bounds on each child (above for −, below for +), unprobed: U or L.
    let mut w = vec![if min { u } else { l }; n];
    let mut ws: f64 = w.iter().zip(&p).map(|(w, p)| w * p).sum(); // Σ Pj Wj
    for k in 0..ctx.probes as usize {
        for i in (0..n).filter(|&i| tree.child_count(kids[i]) > k) {
            let others = ws - p[i] * w[i];
            // The window for the probe: the bound (6) from the probes so far, the other end as
            // if nothing but this child were known.
            let (ai, bi) = if min {
                ((alpha - others) / p[i], (beta - l * (1.0 - p[i])) / p[i])
            } else {
                ((alpha - u * (1.0 - p[i])) / p[i], (beta - others) / p[i])
            };
            obs.chance_bounds(tree.child(node, i), ai, bi);
            let wk = probe(tree, kids[i], k, ai.max(l), bi.min(u), ctx, obs);
            if (min && wk <= ai) || (!min && wk >= bi) {
                return probe_cut(obs, node, i, n, min, alpha, beta);
            }
            w[i] = if min { w[i].min(wk) } else { w[i].max(wk) };
            ws = others + p[i] * w[i];
        }
    }
    let mut sum = ChanceSum::new(tree, node); // Σ_{j<i} Pj Vj
    let mut after = ws; // Σ_{j≥i} Pj Wj
    let mut done = 0.0;
    for i in 0..n {
        after -= p[i] * w[i];
        let rest = (1.0 - done - p[i]).max(0.0);
        let (a, b) = if min {
            (
                (alpha - sum.sum() - after) / p[i],
                (beta - sum.sum() - l * rest) / p[i],
            )
        } else {
            (
                (alpha - sum.sum() - u * rest) / p[i],
                (beta - sum.sum() - after) / p[i],
            )
        };
        obs.chance_bounds(tree.child(node, i), a, b);
        let (ax, bx) = (a.max(l), b.min(u));
        let v = if min {
            star1::min_node(tree, kids[i], ax, bx, false, ctx, obs)
        } else {
            star1::max_node(tree, kids[i], ax, bx, false, ctx, obs)
        };
        if let Some(r) = cut(obs, node, i, n, v, a, b, alpha, beta) {
            return r;
        }
        sum.add(tree, kids[i], v);
        done += p[i];
        let rest = (1.0 - done).max(0.0);
        if let Some(r) = rightmost(
            obs,
            node,
            i,
            n,
            root,
            sum.sum() + l * rest,
            sum.sum() + u * rest,
            1.0,
            alpha,
            beta,
            ctx,
        ) {
            return r;
        }
    }
    let v = sum.value();
    obs.exit(node, v, Bound::classify(v, alpha, beta));
    v
}
