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
//! then searches the − nodes as Star1 does, with the tighter Ai of (6). `star2` with `min` is
//! the paper's `Star2Min` line for line: its probing loop (`probing_phase`), then `A = A − U`
//! and its regular loop (`regular_phase`); without `min` it is "the related procedure for *
//! nodes followed by + nodes" the paper asks for, its mirror image: probes bound + nodes from
//! below and tighten B. The Max/Min layer and the Star1 procedure it falls back to are the
//! ground it shares with Star1 (`star.rs`).
//!
//! Choices where the paper is silent or garbled:
//! - `Probe(x, y, z)` "returns Term(x) if x is a leaf, otherwise chooses some successor s of x …
//!   and returns Min(s, y, z)". `Min(s, …)` cannot be meant literally (s is a child of a −
//!   node); we evaluate s with the window (y, z) — Ballard's `Eval`. The child probed is the
//!   first in order (then the second, … with cyclic probing).
//! - Cyclic probing (§5, last paragraph; §6.2.1.3's "2 leaves during preliminary probing"):
//!   with `probes = K`, K rounds, round r probing the r-th child of every − node (those that
//!   have one), keeping for each the smallest value seen; each probe is tested against the
//!   latest bounds of all the others, `Ai = N·α − Σ_{j≠i} Wj`, whether the children are equally
//!   likely or not. K = 1 is the paper's Star2.
//! - Probing only where a probe can cut off (unless `probe_always`): a probe proves a − child
//!   at most its value and never below L, so when the * node with every child at L is still
//!   above α (with every + child at U, below β) — always below α = −∞, as for a + node's first
//!   chance child — no probe can cut it off and none is made. §5 probes for a * node "not better than
//!   all previously searched alternatives"; Ballard's Table II, counted as he counts (a probed
//!   leaf searched again twice), comes out exactly this way and not with `Star2Min` as printed,
//!   which probes there too (29 leaves for his 25 at N = 4).
//! - No probe with an empty window (its fail-hard answer would not say on which side the value
//!   lies). A probe that fails high under a − node (low under a + node) bounds nothing.
//! - Bounded work: a probe's answer for an interior node is kept, and the regular phase uses it
//!   instead of searching that node again when it settles the new window (the regular window
//!   lies inside the probe's). Without this a chain of chance nodes doubled its work per level.
//! - A probed leaf that the regular phase searches again is evaluated again: `leaves` counts it
//!   twice (as §6.2.1 says it counts) and `distinct_leaves` once.
//! - Uneven probabilities: (5)–(8) weighted as (22) weights (1a): with Pj the probabilities,
//!   `Ai = (α − Σ_{j<i} Pj Vj − Σ_{j>i} Pj Wj) / Pi` (and the mirror for + children).
//! - A * node whose children are not all − or all + (leaves, mixed kinds) is searched by Star1,
//!   and the observer is told (`fallback`).

use super::chance::{AtValues, ChanceSum, ChildTests};
use super::chance::{lower_end, upper_end};
use super::star::{self, ChanceRule, Ctx, Probed, Probing, Root, cut, rightmost};
use super::{Bound, Cutoff, Found, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// Ballard's Star2 from the root: `probes` rounds of cyclic probing at each chance node whose
/// children are all of one kind and where a probe can cut the node off (every such node with
/// `probe_always`), then Star1's regular phase; `rightmost` as for Star1.
pub fn search<T: Nodes, O: Observer>(
    tree: &T,
    probes: u32,
    probe_always: bool,
    rightmost: bool,
    obs: &mut O,
) -> Found {
    let probing = Probing {
        probes: probes.max(1),
        probe_always,
        node_major: false,
    };
    star::run::<_, Star2, O>(tree, probing, rightmost, obs)
}

/// Star2 with `probes` children of each − node (+ node) probed before the next node's, the
/// reading of §6.2.1.3's "looking at 2 leaves during preliminary probing, rather than just 1,
/// below each − node" that does not cycle; each probe is still tested for a cutoff against the
/// latest bounds of the others. For experiments (`ballard-average`); not in the catalogue.
pub fn search_node_major<T: Nodes, O: Observer>(
    tree: &T,
    probes: u32,
    probe_always: bool,
    obs: &mut O,
) -> Found {
    let probing = Probing {
        probes: probes.max(1),
        probe_always,
        node_major: true,
    };
    star::run::<_, Star2, O>(tree, probing, false, obs)
}

/// Star2's rule: a * node by Star2Min, its Max twin, or Star1's procedure.
enum Star2 {}

impl ChanceRule for Star2 {
    fn chance<T: Nodes, O: Observer>(
        tree: &T,
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
            return star::chance_node::<_, Star2, O>(tree, node, alpha, beta, root, ctx, obs);
        }
        obs.enter(node, alpha, beta);
        let mark = ctx.probed.len();
        let v = star2(tree, node, alpha, beta, first == Kind::Min, root, ctx, obs);
        ctx.probed.truncate(mark); // the probes' answers are for this node's regular phase only
        v
    }
}

/// `Probe(s, y, z)`: evaluates child `k` of `s` with the window (y, z). `None` when the window
/// is empty: a fail-hard answer in it does not say on which side the value lies. An interior
/// child's answer is kept for the regular phase, which then does not search it again.
#[allow(clippy::too_many_arguments)]
fn probe<T: Nodes, O: Observer>(
    tree: &T,
    s: NodeId,
    k: usize,
    y: f64,
    z: f64,
    ctx: &mut Ctx,
    obs: &mut O,
) -> Option<f64> {
    if y >= z || y.is_nan() || z.is_nan() {
        return None;
    }
    let c = tree.child(s, k);
    obs.probe(c);
    let v = star::eval::<_, Star2, O>(tree, c, y, z, ctx, obs);
    if tree.kind(c) != Kind::Leaf {
        ctx.probed.push(Probed {
            node: c,
            alpha: y,
            beta: z,
            value: v,
        });
    }
    Some(v)
}

/// The end of the value range a probe can at best prove a child at: L under a − node, U under a
/// + node.
fn far_end(min: bool, l: f64, u: f64) -> f64 {
    if min { l } else { u }
}

/// A cutoff during the probing phase: the * node is worth at most α (`low`) or at least β.
fn probe_cut<O: Observer>(
    obs: &mut O,
    node: NodeId,
    i: usize,
    n: usize,
    low: bool,
    (alpha, beta): (f64, f64),
    ctx: &Ctx,
) -> f64 {
    obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::Probe);
    let (v, b) = if low {
        (alpha, Bound::Upper)
    } else {
        (beta, Bound::Lower)
    };
    obs.exit(node, v, ctx.claim(v, alpha, beta, b));
    v
}

/// `Star2Min(board, alpha, beta)` for a * node whose children are all − nodes (`min`), or its
/// Max twin for + children; equally likely children or not: the probing phase, then the
/// regular one.
///
/// Equally likely children follow the paper line for line: the probing loop with (7) and (8)
/// "distributed", `A = A − U`, the regular loop. With uneven probabilities the bounds are the
/// weighted ones. Later rounds of cyclic probing test each probe against the latest bounds of
/// all the other children, in both cases.
#[allow(clippy::too_many_arguments)]
fn star2<T: Nodes, O: Observer>(
    tree: &T,
    node: NodeId,
    alpha: f64,
    beta: f64,
    min: bool,
    root: Option<Root>,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    let mut st = Regular::new(tree, node, (alpha, beta), min, ctx);
    match probing_phase(tree, node, &mut st, ctx, obs) {
        Some(cut) => cut,
        None => regular_phase(tree, node, &st, root, ctx, obs),
    }
}

/// A regular * node under Star2 (its children all − or all +), and what its probes proved.
struct Regular {
    kids: Vec<NodeId>,
    /// The children's probabilities.
    p: Vec<f64>,
    uniform: bool,
    /// Its children are − nodes (else + nodes).
    min: bool,
    alpha: f64,
    beta: f64,
    /// (3a) A1 and (3b) B1.
    a1: f64,
    b1: f64,
    /// The probes' values as the equations use them, the smallest (largest) seen for each
    /// child.
    w: AtValues,
    /// The bounds the probes prove, by which the cutoffs are decided (a probe that failed high
    /// under a − node, or low under a + node, proves nothing about it).
    wb: AtValues,
    /// Σ Pj Wj.
    ws: f64,
    /// After probing, (7) and (8)'s A and B (only A counts under − children, only B under +).
    a: f64,
    b: f64,
}

impl Regular {
    fn new<T: Nodes>(
        tree: &T,
        node: NodeId,
        (alpha, beta): (f64, f64),
        min: bool,
        ctx: &Ctx,
    ) -> Self {
        let (l, u) = (ctx.l, ctx.u);
        let kids: Vec<NodeId> = tree.children(node).collect();
        let nf = kids.len() as f64;
        let p: Vec<f64> = kids.iter().map(|&k| tree.prob(k)).collect();
        // Unprobed, a − child is bounded by U from above, a + child by L from below.
        let far = if min { u } else { l };
        let w = AtValues::new(tree, node, vec![far; kids.len()]);
        let ws: f64 = w.iter().zip(&p).map(|(w, p)| w * p).sum(); // Σ Pj Wj
        let a1 = nf * (alpha - u) + u; // (3a)
        let b1 = nf * (beta - l) + l; // (3b)
        Regular {
            uniform: tree.is_uniform(node),
            wb: w.clone(),
            kids,
            p,
            min,
            alpha,
            beta,
            a1,
            b1,
            w,
            ws,
            a: a1,
            b: b1,
        }
    }

    /// Aᵢ and Bᵢ for the `k`-th probe of child `i`: the bound of (6) from the latest probes
    /// ((7)–(8) in the first round), the other end as if nothing but this child were known;
    /// exact where the numbers are simple fractions. `others`: Σ_{j≠i} Pj Wj.
    fn probe_bounds<T: Nodes>(
        &self,
        tree: &T,
        (i, k): (usize, usize),
        others: f64,
        node_major: bool,
        (l, u): (f64, f64),
    ) -> (f64, f64) {
        let (alpha, beta, min, p) = (self.alpha, self.beta, self.min, &self.p);
        let nf = self.kids.len() as f64;
        // (7) and (8), "distributed" (node by node, the same bounds as the later rounds)
        let first = k == 0 && !node_major;
        let sum_others = || {
            let o = self.w.iter().enumerate().filter(|&(j, _)| j != i);
            o.map(|(_, w)| w).sum::<f64>()
        };
        // Each end in floating point, computed only where the exact one below does not
        // replace it.
        let ai = || match (self.uniform, min) {
            (true, _) if first => self.a,
            (true, true) => nf * alpha - sum_others(),
            (true, false) => self.a1,
            (false, true) => (alpha - others) / p[i],
            (false, false) => (alpha - u * (1.0 - p[i])) / p[i],
        };
        let bi = || match (self.uniform, min) {
            (true, _) if first => self.b,
            (true, true) => self.b1,
            (true, false) => nf * beta - sum_others(),
            (false, true) => (beta - l * (1.0 - p[i])) / p[i],
            (false, false) => (beta - others) / p[i],
        };
        // The end (6) or (7)–(8) computes from the probes, exactly where the numbers are
        // simple fractions: the others at W (U or L where not probed yet).
        let target = if min { alpha } else { beta };
        match self.w.solve(tree, &self.kids, i, target) {
            Some(x) if min => (x, bi()),
            Some(x) => (ai(), x),
            None => (ai(), bi()),
        }
    }

    /// The node's value with child `i` worth `x` and the others at their proved bounds.
    fn proved<T: Nodes>(&self, tree: &T, i: usize, x: f64) -> f64 {
        self.wb.with(tree, &self.kids, i, x)
    }
}

/// The probing phase: `probes` rounds (none where no probe can cut off), each probe of child i
/// searched with the bound of (6)–(8) from the latest probes of the others. `Some`: the value
/// of a probe cutoff.
fn probing_phase<T: Nodes, O: Observer>(
    tree: &T,
    node: NodeId,
    st: &mut Regular,
    ctx: &mut Ctx,
    obs: &mut O,
) -> Option<f64> {
    let (l, u) = (ctx.l, ctx.u);
    let (alpha, beta, min) = (st.alpha, st.beta, st.min);
    let n = st.kids.len();
    let none = ChanceSum::new(tree, node);
    // A probe shows a − child worth at most its value, never less than L: the probes can cut
    // the node off only if it is at most α with every child at L (at least β with every + child
    // at U). Where they cannot — below α = −∞, the + node's first * child — Ballard's
    // experiment does not probe (§5 probes for a * node "worse than a previously searched
    // * node"); the procedure as printed does (`probe_always`).
    let floor = none.completed(tree, st.kids.iter().map(|&c| (c, far_end(min, l, u))));
    let can_cut = if min { floor <= alpha } else { floor >= beta };
    let probing = ctx.probing;
    let rounds = if can_cut || probing.probe_always {
        probing.probes.max(1) as usize
    } else {
        0
    };
    let order: Vec<(usize, usize)> = if probing.node_major {
        (0..n)
            .flat_map(|i| (0..rounds).map(move |k| (k, i)))
            .collect()
    } else {
        (0..rounds)
            .flat_map(|k| (0..n).map(move |i| (k, i)))
            .collect()
    };
    for (k, i) in order {
        let kid = st.kids[i];
        if tree.child_count(kid) <= k {
            continue;
        }
        let p = &st.p;
        let others = st.ws - p[i] * st.w[i]; // uneven probabilities: Σ_{j≠i} Pj Wj
        let (ai, bi) = st.probe_bounds(tree, (i, k), others, probing.node_major, (l, u));
        obs.chance_bounds(kid, ai, bi);
        let (y, z) = if min {
            let low = |x: f64| st.proved(tree, i, x) <= alpha;
            (
                lower_end(ai, l, low),
                if bi.is_nan() { u } else { bi.min(u) },
            )
        } else {
            let high = |x: f64| st.proved(tree, i, x) >= beta;
            (
                if ai.is_nan() { l } else { ai.max(l) },
                upper_end(bi, u, high),
            )
        };
        if let Some(wk) = probe(tree, kid, k, y, z, ctx, obs) {
            let leaf = tree.kind(tree.child(kid, k)) == Kind::Leaf;
            if min {
                st.w.set(i, st.w[i].min(wk));
                if leaf || wk < z {
                    st.wb.set(i, st.wb[i].min(wk));
                }
            } else {
                st.w.set(i, st.w[i].max(wk));
                if leaf || wk > y {
                    st.wb.set(i, st.wb[i].max(wk));
                }
            }
            // Node by node, the probe of a − node is the smallest of its first `rounds`
            // children, tested once they are all seen (`Star2Min`'s test of `w[i]`).
            let last = k + 1 == rounds || k + 1 == tree.child_count(kid);
            let bound = st.proved(tree, i, st.wb[i]);
            if (last || !probing.node_major) && ((min && bound <= alpha) || (!min && bound >= beta))
            {
                return Some(probe_cut(obs, node, i, n, min, (alpha, beta), ctx));
            }
        }
        if st.uniform && k == 0 {
            if min {
                st.a = st.a + u - st.w[i];
            } else {
                st.b = st.b + l - st.w[i];
            }
        }
        st.ws = others + p[i] * st.w[i];
    }
    if st.uniform && rounds > 1 {
        // (7) and (8) again, from the smallest (largest) probe of each child.
        let (mut a2, mut b2) = (st.a1, st.b1);
        for &wi in st.w.iter() {
            a2 = a2 + u - wi;
            b2 = b2 + l - wi;
        }
        (st.a, st.b) = (a2, b2);
    }
    None
}

/// The regular phase: `A = A − U`, then (6) child by child (the mirror for + children), each
/// child searched as Star1 searches it with the tighter bound the probes give.
fn regular_phase<T: Nodes, O: Observer>(
    tree: &T,
    node: NodeId,
    st: &Regular,
    root: Option<Root>,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    let (l, u) = (ctx.l, ctx.u);
    let (alpha, beta, min) = (st.alpha, st.beta, st.min);
    let (kids, p, w, wb) = (&st.kids, &st.p, &st.w, &st.wb);
    let n = kids.len();
    let mut e = if min { st.a - u } else { st.b - l };
    let (mut a, mut b) = (st.a1, st.b1);
    let mut sum = ChanceSum::new(tree, node); // Σ_{j<i} Vj, or Σ_{j<i} Pj Vj
    let mut after = st.ws; // Σ_{j≥i} Pj Wj
    let mut done = 0.0; // Σ_{j<i} Pj
    // The later children's bounds in the tests (6) stands for: their proved bounds on the
    // probed side, L or U on the other; and their exact shares, summed once for the node.
    let lo = |j: usize| if min { wb[j] } else { u };
    let hi = |j: usize| if min { l } else { wb[j] };
    let tests = ChildTests::new(tree, node, kids, (alpha, beta), lo, hi);
    for (i, &s) in kids.iter().enumerate() {
        if st.uniform {
            e += w[i];
            if min {
                a = e;
            } else {
                b = e;
            }
        } else {
            after -= p[i] * w[i];
            let rest = (1.0 - done - p[i]).max(0.0);
            (a, b) = if min {
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
        }
        // Aᵢ and Bᵢ exactly where the numbers are simple fractions (as in Star1).
        a = tests.end(&sum, i, false).unwrap_or(a);
        b = tests.end(&sum, i, true).unwrap_or(b);
        obs.chance_bounds(s, a, b);
        // The tests (6) stands for, in the arithmetic of the node's value: the children after
        // this one at their proved bounds on the probed side, at L or U on the other.
        let low = |x: f64| tests.value(&sum, i, x, false) <= alpha;
        let high = |x: f64| tests.value(&sum, i, x, true) >= beta;
        let (ax, bx) = (lower_end(a, l, low), upper_end(b, u, high));
        let v = if min {
            star::min_node::<_, Star2, O>(tree, s, ax, bx, false, ctx, obs)
        } else {
            star::max_node::<_, Star2, O>(tree, s, ax, bx, false, ctx, obs)
        };
        if let Some(r) = cut(obs, node, i, n, low(v), high(v), (alpha, beta), ctx) {
            return r;
        }
        sum.add(tree, s, v);
        let range = || {
            let at = |x: f64| kids[i + 1..].iter().map(move |&c| (c, x));
            (sum.completed(tree, at(l)), sum.completed(tree, at(u)))
        };
        if let Some(r) = rightmost(obs, node, i, n, root, range, alpha, beta, ctx) {
            return r;
        }
        if st.uniform {
            e -= v;
            if min {
                b = b + l - v;
            } else {
                a = a + u - v;
            }
        } else {
            done += p[i];
        }
    }
    let v = sum.value();
    obs.exit(
        node,
        v,
        ctx.claim(v, alpha, beta, Bound::classify(v, alpha, beta)),
    );
    v
}
