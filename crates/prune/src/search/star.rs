//! The ground Star1 and Star2 share: Ballard (1982), "Search Procedures for Perfect Information
//! Trees Containing Chance Nodes" — the search's context ([`Ctx`]), the Max/Min layer, `Eval`,
//! Star1's procedure at a * node (§4), which Star2 also uses where it cannot probe, its two
//! cutoff tests ([`cut`]) and §7.2's cutoff below the root's last child ([`rightmost`]). How a
//! run searches a * node is a [`ChanceRule`]: [`super::star1`] and [`super::star2`] each give
//! theirs, and neither imports the other.
//!
//! Star1 (§4) is alpha-beta extended to chance (*) nodes. With L and U bounds on every leaf value, a * node with N equally likely children whose first
//! i − 1 children are worth V1 … Vi−1 is cut off after its i-th child if
//!
//! ```text
//! (1a)  (V1 + … + Vi−1) + Vi + U·(N − i)  ≤  N·α      (it cannot be worth more than α)
//! (1b)  (V1 + … + Vi−1) + Vi + L·(N − i)  ≥  N·β      (it cannot be worth less than β)
//! ```
//!
//! so child i is searched with the window (Ai, Bi), clipped to L..U:
//!
//! ```text
//! (2a)  Ai = N·α − (V1 + … + Vi−1) − U·(N − i)     (3a)  A1 = N·(α − U) + U    (4a)  An+1 = An + U − Vn
//! (2b)  Bi = N·β − (V1 + … + Vi−1) − L·(N − i)     (3b)  B1 = N·(β − L) + L    (4b)  Bn+1 = Bn + L − Vn
//! ```
//!
//! The pseudocode of §4 as our OCR'd copy prints it has `A = N + (alpha - U) + U`; equation
//! (3a), which rules, is `A1 = N·(α − U) + U`, and that is what we compute.
//!
//! - Equally likely children: §4's procedure, line for line, with the updates (4a)/(4b).
//! - Uneven probabilities (§7.3): the left side of (1a) becomes
//!   `(P1V1 + … + Pi−1Vi−1) + PiVi + U·(1 − P1 − … − Pi)` (22), so
//!   `Ai = (α − Σ_{j<i} Pj Vj − U·Σ_{j>i} Pj) / Pi` and likewise Bi with L and β ("(2a), (3a)
//!   and (4a) are modified accordingly"); we compute these directly.
//! - `rightmost` (§7.2): below the root's last child, a * node stops as soon as its lower
//!   *-value exceeds the α passed into it (upper *-value below β under a Min root): that move is
//!   proved strictly better than the others though its value is not known. The root's value is
//!   then a lower (upper) bound.
//!
//! Max and Min nodes are searched by fail-hard alpha-beta (Ballard's `Max` and `Min`
//! procedures are not printed; his algorithm "reduces to the familiar alpha-beta procedure (Knuth
//! and Moore) for degenerate *-minimax trees"). Leaves that are children of a * node are
//! evaluated as part of the loop, like any child.

use super::chance::{ChanceSum, ChildTests, lower_end, upper_end};
use super::{Bound, Cutoff, Found, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// How a run searches its chance nodes: Star1's §4 procedure ([`chance_node`]) or Star2's probing
/// ([`super::star2`]). The Max/Min layer here calls it back, so that neither algorithm's file
/// names the other's and this one names neither.
pub(crate) trait ChanceRule {
    /// The * node `node` with the window (α, β); `root`: the root's player, when `node` is the
    /// root's last child and §7.2 applies.
    fn chance<T: Nodes, O: Observer>(
        tree: &T,
        node: NodeId,
        alpha: f64,
        beta: f64,
        root: Option<Root>,
        ctx: &mut Ctx,
        obs: &mut O,
    ) -> f64;
}

/// What the Max/Min layer needs to know while Star1 or Star2 runs.
pub(crate) struct Ctx {
    pub l: f64,
    pub u: f64,
    /// How Star2 probes; nothing for Star1.
    pub probing: Probing,
    pub rightmost: bool,
    /// Set when the §7.2 cutoff ended the search below the root's last child.
    pub rightmost_fired: bool,
    /// Star2's probes of interior nodes whose answers the regular phase has yet to use.
    pub probed: Vec<Probed>,
}

impl Ctx {
    /// What an exit with the value `v` for the window (α, β) claims of its node, `bound` being
    /// fail-hard alpha-beta's postcondition for it. That postcondition needs a window that is
    /// not empty. §4's clipping of a child's window to L..U (`AX = max(A, L)`,
    /// `BX = min(B, U)`) makes empty ones — (L, B) with B ≤ L, or (A, U) with A ≥ U — and
    /// passes them down; a node searched with one returns an end of it, and
    /// only the clipped side is known: every value is at least L and at most U.
    pub(crate) fn claim(&self, v: f64, alpha: f64, beta: f64, bound: Bound) -> Bound {
        if alpha < beta {
            bound
        } else if v <= self.l {
            Bound::Lower
        } else if v >= self.u {
            Bound::Upper
        } else {
            bound
        }
    }
}

/// Star2's parameters of probing.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Probing {
    /// Rounds of probing at chance nodes: 0 for Star1.
    pub probes: u32,
    /// Star2 probes even at a chance node where no probe can cut it off (the paper's procedure
    /// as printed); by default it probes only where a probe cutoff is possible.
    pub probe_always: bool,
    /// Star2 probes the first `probes` children of one − node before the next one's (§6.2.1.3's
    /// "2 leaves … below each − node"), instead of round by round (§5's cyclic probing).
    pub node_major: bool,
}

/// A node Star2's probing phase searched with the window (α, β), and the fail-hard answer.
pub(crate) struct Probed {
    pub node: NodeId,
    pub alpha: f64,
    pub beta: f64,
    pub value: f64,
}

impl Probed {
    /// The answer a search with the window (α, β) would give, if this one tells it.
    fn answer(&self, alpha: f64, beta: f64) -> Option<f64> {
        if self.alpha < self.value && self.value < self.beta {
            Some(self.value.clamp(alpha, beta)) // the exact value
        } else if self.value <= self.alpha && self.alpha <= alpha {
            Some(alpha)
        } else if self.value >= self.beta && self.beta >= beta {
            Some(beta)
        } else {
            None
        }
    }
}

/// The player at the root, for the §7.2 cutoff below its last child.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Root {
    Max,
    Min,
}

/// Star1 or Star2 (as `R` searches chance nodes) from the root with the window (−∞, +∞), the
/// * nodes' windows clipped to the tree's value bounds L..U; `probing`: Star2's, see [`Ctx`].
pub(crate) fn run<T: Nodes, R: ChanceRule, O: Observer>(
    tree: &T,
    probing: Probing,
    rightmost: bool,
    obs: &mut O,
) -> Found {
    let b = tree.value_bounds();
    let mut ctx = Ctx {
        l: b.lo,
        u: b.hi,
        probing,
        rightmost,
        rightmost_fired: false,
        probed: Vec::new(),
    };
    let root = tree.root();
    let v = match tree.kind(root) {
        Kind::Max => max_node::<_, R, O>(
            tree,
            root,
            f64::NEG_INFINITY,
            f64::INFINITY,
            true,
            &mut ctx,
            obs,
        ),
        Kind::Min => min_node::<_, R, O>(
            tree,
            root,
            f64::NEG_INFINITY,
            f64::INFINITY,
            true,
            &mut ctx,
            obs,
        ),
        _ => eval::<_, R, O>(tree, root, f64::NEG_INFINITY, f64::INFINITY, &mut ctx, obs),
    };
    let bound = match (ctx.rightmost_fired, tree.kind(root)) {
        (false, _) => Bound::Exact,
        (true, Kind::Min) => Bound::Upper,
        (true, _) => Bound::Lower,
    };
    Found {
        value: super::Value::Scalar(v),
        bound,
    }
}

/// Ballard's `Eval`: a node of any kind with the window (α, β).
pub(crate) fn eval<T: Nodes, R: ChanceRule, O: Observer>(
    tree: &T,
    node: NodeId,
    alpha: f64,
    beta: f64,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    match tree.kind(node) {
        Kind::Leaf => {
            let v = tree.value(node);
            obs.leaf(node, v);
            v
        }
        Kind::Max => max_node::<_, R, O>(tree, node, alpha, beta, false, ctx, obs),
        Kind::Min => min_node::<_, R, O>(tree, node, alpha, beta, false, ctx, obs),
        _ => R::chance(tree, node, alpha, beta, None, ctx, obs),
    }
}

/// A child of a Max or Min node: `eval`, unless Star2's probing phase searched it already and
/// its answer holds for the window (α, β).
fn child<T: Nodes, R: ChanceRule, O: Observer>(
    tree: &T,
    node: NodeId,
    alpha: f64,
    beta: f64,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    if !ctx.probed.is_empty() && alpha < beta {
        let known = ctx.probed.iter().rev().find(|p| p.node == node);
        if let Some(v) = known.and_then(|p| p.answer(alpha, beta)) {
            obs.enter(node, alpha, beta);
            obs.exit(node, v, Bound::classify(v, alpha, beta));
            return v;
        }
    }
    eval::<_, R, O>(tree, node, alpha, beta, ctx, obs)
}

/// `Max(board, α, β)`: fail-hard alpha-beta. `root`: the root, whose last child may get §7.2.
pub(crate) fn max_node<T: Nodes, R: ChanceRule, O: Observer>(
    tree: &T,
    node: NodeId,
    alpha: f64,
    beta: f64,
    root: bool,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    obs.enter(node, alpha, beta);
    let mut a = alpha;
    let n = tree.child_count(node);
    for (i, c) in tree.children(node).enumerate() {
        let rightmost = root && ctx.rightmost && i + 1 == n && tree.kind(c) == Kind::Chance;
        let v = if rightmost {
            R::chance(tree, c, a, beta, Some(Root::Max), ctx, obs)
        } else {
            child::<_, R, O>(tree, c, a, beta, ctx, obs)
        };
        if v > a {
            a = v;
        }
        // F2's test is on m = max(α, v), not on v: a window that is empty (α ≥ β, as Ballard's
        // clipping AX = max(A, L), BX = min(B, U) can make it) stops after the first child.
        if a >= beta {
            obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::Beta);
            obs.exit(node, beta, ctx.claim(beta, alpha, beta, Bound::Lower));
            return beta;
        }
    }
    // §7.2: a value from the rightmost cutoff is a lower bound of the root's, not its value.
    let bound = if root && ctx.rightmost_fired {
        Bound::Lower
    } else {
        ctx.claim(a, alpha, beta, Bound::classify(a, alpha, beta))
    };
    obs.exit(node, a, bound);
    a
}

/// `Min(board, α, β)`: fail-hard alpha-beta.
pub(crate) fn min_node<T: Nodes, R: ChanceRule, O: Observer>(
    tree: &T,
    node: NodeId,
    alpha: f64,
    beta: f64,
    root: bool,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    obs.enter(node, alpha, beta);
    let mut b = beta;
    let n = tree.child_count(node);
    for (i, c) in tree.children(node).enumerate() {
        let rightmost = root && ctx.rightmost && i + 1 == n && tree.kind(c) == Kind::Chance;
        let v = if rightmost {
            R::chance(tree, c, alpha, b, Some(Root::Min), ctx, obs)
        } else {
            child::<_, R, O>(tree, c, alpha, b, ctx, obs)
        };
        if v < b {
            b = v;
        }
        if b <= alpha {
            obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::Alpha);
            obs.exit(node, alpha, ctx.claim(alpha, alpha, beta, Bound::Upper));
            return alpha;
        }
    }
    let bound = if root && ctx.rightmost_fired {
        Bound::Upper
    } else {
        ctx.claim(b, alpha, beta, Bound::classify(b, alpha, beta))
    };
    obs.exit(node, b, bound);
    b
}

/// `Star1(board, alpha, beta)`: Ballard's §4 procedure at a * node, (1a)–(4b) above, the
/// weighted bounds of §7.3 (22) for uneven probabilities; Star1 at every * node, and Star2 where
/// its children are not all − or all +.
pub(crate) fn chance_node<T: Nodes, R: ChanceRule, O: Observer>(
    tree: &T,
    node: NodeId,
    alpha: f64,
    beta: f64,
    root: Option<Root>,
    ctx: &mut Ctx,
    obs: &mut O,
) -> f64 {
    obs.enter(node, alpha, beta);
    let (l, u) = (ctx.l, ctx.u);
    let kids: Vec<NodeId> = tree.children(node).collect();
    let n = kids.len();
    let nf = n as f64;
    let uniform = tree.is_uniform(node);
    // Equally likely children: §4's procedure line for line, (3a)/(3b) then (4a)/(4b).
    let mut a = nf * (alpha - u) + u; // (3a)
    let mut b = nf * (beta - l) + l; // (3b)
    let mut sum = ChanceSum::new(tree, node); // Σ_{j<i} Vj, or Σ_{j<i} Pj Vj
    let mut done = 0.0; // Σ_{j<i} Pj
    // The tests, the later children at U (for `≤ α`) and at L (for `≥ β`).
    let tests = ChildTests::new(tree, node, &kids, (alpha, beta), |_| u, |_| l);
    for (i, &s) in kids.iter().enumerate() {
        let p = tree.prob(s);
        if !uniform {
            // §7.3: (22) and its twin for B.
            let rest = (1.0 - done - p).max(0.0); // Σ_{j>i} Pj
            a = (alpha - sum.sum() - u * rest) / p;
            b = (beta - sum.sum() - l * rest) / p;
        }
        // The tests the equations stand for, in the arithmetic of the node's value.
        let low = |x: f64| tests.value(&sum, i, x, false) <= alpha;
        let high = |x: f64| tests.value(&sum, i, x, true) >= beta;
        // Aᵢ and Bᵢ exactly where the numbers are simple fractions.
        a = tests.end(&sum, i, false).unwrap_or(a);
        b = tests.end(&sum, i, true).unwrap_or(b);
        obs.chance_bounds(s, a, b);
        let (ax, bx) = (lower_end(a, l, low), upper_end(b, u, high));
        let v = eval::<_, R, O>(tree, s, ax, bx, ctx, obs);
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
        if uniform {
            a = a + u - v; // (4a)
            b = b + l - v; // (4b)
        } else {
            done += p;
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

/// Star1's two tests after child `i`: `if (v <= A) return(alpha); if (v >= B) return(beta);`,
/// `low` and `high` being the tests `v ≤ A` and `v ≥ B` stand for.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn cut<O: Observer>(
    obs: &mut O,
    node: NodeId,
    i: usize,
    n: usize,
    low: bool,
    high: bool,
    (alpha, beta): (f64, f64),
    ctx: &Ctx,
) -> Option<f64> {
    if low {
        obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::StarLower);
        obs.exit(node, alpha, ctx.claim(alpha, alpha, beta, Bound::Upper));
        return Some(alpha);
    }
    if high {
        obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::StarUpper);
        obs.exit(node, beta, ctx.claim(beta, alpha, beta, Bound::Lower));
        return Some(beta);
    }
    None
}

/// §7.2 below the root's last child: stop once the *-value, between the two ends of `range()`,
/// is proved better for the root than what it has (α under Max, β under Min).
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rightmost<O: Observer>(
    obs: &mut O,
    node: NodeId,
    i: usize,
    n: usize,
    root: Option<Root>,
    range: impl FnOnce() -> (f64, f64),
    alpha: f64,
    beta: f64,
    ctx: &mut Ctx,
) -> Option<f64> {
    if i + 1 == n {
        return None; // the *-value is known exactly: nothing left to save
    }
    let root = root?;
    let (lower, upper) = range();
    let (v, bound) = match root {
        Root::Max if lower > alpha => (lower, Bound::Lower),
        Root::Min if upper < beta => (upper, Bound::Upper),
        _ => return None,
    };
    ctx.rightmost_fired = true;
    obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::Rightmost);
    obs.exit(node, v, bound);
    Some(v)
}
