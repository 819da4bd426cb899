//! A chance node's value, accumulated child by child — shared by expectiminimax, Star1, Star2,
//! max^n and the reference values, so that a chance node searched fully gets the very same
//! number whichever algorithm searched it.
//!
//! While every child's value and probability is a simple fraction (see `crate::exact`: the
//! integers and fractions like 1/3 or 6/7 of every paper's tree), the value is the exact
//! fraction, rounded once. Otherwise it is computed in floating point: the sum of the
//! children's values divided by N when they are equally likely (Ballard's `vsum / N`), the sum
//! of `p_i · v_i` in child order otherwise (§7.3). Should that sum overflow where the value is
//! finite (values near ±1e308), the same sum is taken with every term scaled by 2⁻⁶⁴, which
//! rounds alike and cannot overflow.

use crate::exact::Ratio;
use crate::tree::{NodeId, Nodes};

/// A chance node's value, accumulated child by child.
#[derive(Clone)]
pub(crate) struct ChanceSum {
    float: Float,
    /// The same sum, exactly, while every value and probability added is a simple fraction.
    exact: Option<Ratio>,
}

/// The sum in floating point: small and `Copy`, so that the tests Star1 and Star2 make with it
/// cost what they did before exact sums existed.
#[derive(Copy, Clone)]
struct Float {
    sum: f64,
    /// The same sum with every term scaled by 2⁻⁶⁴ (exactly: a power of two), the value should
    /// `sum` overflow though the node's value is finite (values near ±1e308). No sum of fewer
    /// than 2⁶³ terms of at most 2¹⁰²⁴·2⁻⁶⁴ overflows, and only terms too small to matter beside
    /// such a sum lose bits to the scaling.
    scaled: f64,
    /// The smallest and the largest value added: a mean lies between them, though the rounding
    /// of a sum near ±1e308 may not.
    lo: f64,
    hi: f64,
    /// `Some(N)` for equally likely children: the value is `sum / N`.
    uniform: Option<f64>,
}

/// 2⁶⁴ and its inverse, the scale of [`Float::scaled`].
const SCALE: f64 = 18_446_744_073_709_551_616.0;
const UNSCALE: f64 = 1.0 / SCALE;

impl Float {
    #[inline]
    fn add<T: Nodes>(&mut self, tree: &T, child: NodeId, v: f64) {
        let term = match self.uniform {
            Some(_) => v,
            None => tree.prob(child) * v,
        };
        self.sum += term;
        self.scaled += term * UNSCALE;
        self.lo = self.lo.min(v);
        self.hi = self.hi.max(v);
    }

    #[inline]
    fn value(&self) -> f64 {
        let v = match self.uniform {
            Some(n) => self.sum / n,
            None => self.sum,
        };
        if v.is_finite() || !self.scaled.is_finite() {
            return v;
        }
        self.rescaled()
    }

    /// The value from the scaled sum, where the plain one overflowed.
    #[inline(never)]
    fn rescaled(&self) -> f64 {
        let v = match self.uniform {
            Some(n) => self.scaled / n * SCALE,
            None => self.scaled * SCALE,
        };
        // A mean of finite values is finite: only rounding can push it past the largest double.
        v.clamp(self.lo, self.hi)
    }
}

impl ChanceSum {
    #[inline]
    pub(crate) fn new<T: Nodes>(tree: &T, node: NodeId) -> Self {
        let uniform = tree.is_uniform(node).then(|| tree.child_count(node) as f64);
        ChanceSum {
            float: Float {
                sum: 0.0,
                scaled: 0.0,
                lo: f64::INFINITY,
                hi: f64::NEG_INFINITY,
                uniform,
            },
            exact: tree.simple_fractions().then_some(Ratio::ZERO),
        }
    }

    #[inline]
    pub(crate) fn add<T: Nodes>(&mut self, tree: &T, child: NodeId, v: f64) {
        if self.exact.is_some() {
            self.add_exact(tree, child, v);
        }
        self.float.add(tree, child, v);
    }

    /// The exact sum's share of [`Self::add`], kept out of line so that the floating-point
    /// path stays small enough to inline.
    #[inline(never)]
    fn add_exact<T: Nodes>(&mut self, tree: &T, child: NodeId, v: f64) {
        let uniform = self.float.uniform.is_some();
        self.exact = self.exact.and_then(|sum| {
            let v = Ratio::of(v)?;
            let term = if uniform {
                v
            } else {
                Ratio::of(tree.prob(child))?.checked_mul(v)?
            };
            sum.checked_add(term)
        });
    }

    /// The running sum in floating point: `Σ v` for equally likely children, `Σ p·v` otherwise
    /// (the equations' approximate window ends start from it; the tests use [`Self::value`]).
    #[inline]
    pub(crate) fn sum(&self) -> f64 {
        self.float.sum
    }

    #[inline]
    pub(crate) fn value(&self) -> f64 {
        if self.exact.is_some()
            && let Some(v) = self.exact_value()
        {
            return v;
        }
        self.float.value()
    }

    #[inline(never)]
    fn exact_value(&self) -> Option<f64> {
        self.exact_over(self.exact?)
    }

    /// The node's value, rounded once, if its exact sum were `sum`: `sum / N` for equally
    /// likely children, `sum` otherwise.
    #[inline]
    fn exact_over(&self, sum: Ratio) -> Option<f64> {
        match self.float.uniform {
            Some(n) => sum.checked_div(n as i128),
            None => Some(sum),
        }
        .and_then(Ratio::to_f64)
    }

    /// The value the node gets if child `child` is worth `x` and the children after it `rest`,
    /// by the very arithmetic that sums them: Star1 and Star2 decide their cutoffs with it, so
    /// a cutoff holds for the value expectiminimax computes, whatever the magnitudes (§4's
    /// `N·α − …` cancels or overflows near ±1e16 or ±1e308). Rounding is monotone, so with
    /// `rest` at the children's bounds this is the bound on the node's value.
    pub(crate) fn then<T: Nodes>(
        &self,
        tree: &T,
        child: NodeId,
        x: f64,
        rest: impl IntoIterator<Item = (NodeId, f64)>,
    ) -> f64 {
        self.completed(tree, std::iter::once((child, x)).chain(rest))
    }

    /// The value `x` of `child` (not yet added) at which the node's value, with the other
    /// children not yet added worth `rest`, is exactly `target`: Ballard's Aᵢ (target α, rest
    /// at U) or Bᵢ (target β, rest at L), computed exactly and rounded once. `None` unless every
    /// number is a simple fraction. Star1 and Star2 start their window ends from it, so that a
    /// child failing at the end makes the test `≤ α` (`≥ β`) hold exactly, without bisection.
    pub(crate) fn solve<T: Nodes>(
        &self,
        tree: &T,
        child: NodeId,
        target: f64,
        rest: impl IntoIterator<Item = (NodeId, f64)>,
    ) -> Option<f64> {
        self.exact?;
        let target = Ratio::of(target)?;
        let mut s = self.clone();
        for (c, v) in rest {
            s.add(tree, c, v);
        }
        let sum = s.exact?;
        let x = match self.float.uniform {
            // value = (Σ + x) / N
            Some(n) => target.checked_mul(Ratio::of(n)?)?.checked_sub(sum)?,
            // value = Σ + p·x
            None => target
                .checked_sub(sum)?
                .checked_div_ratio(Ratio::of(tree.prob(child))?)?,
        };
        x.to_f64()
    }

    /// The value the node gets if the children not yet added are worth `rest`.
    pub(crate) fn completed<T: Nodes>(
        &self,
        tree: &T,
        rest: impl IntoIterator<Item = (NodeId, f64)>,
    ) -> f64 {
        if self.exact.is_none() {
            let mut f = self.float;
            for (c, v) in rest {
                f.add(tree, c, v);
            }
            return f.value();
        }
        let mut s = self.clone();
        for (c, v) in rest {
            s.add(tree, c, v);
        }
        s.value()
    }
}

/// The tests Star1 and Star2 make child by child at a chance node: the node's value with the
/// children before `i` summed, child `i` worth x and the later children at fixed values (at U
/// or L; at Star2's probe bounds), and the window ends Aᵢ and Bᵢ that solve it. Where the numbers
/// are simple fractions the later children's exact shares are summed once a node and each
/// probability's fraction is found once; otherwise (or should a sum outgrow 128 bits)
/// [`ChanceSum::then`] and [`ChanceSum::solve`] sum the later children for the test. The same
/// numbers either way: each is the exact fraction rounded once, or the floating-point sum.
pub(crate) struct ChildTests<'a, T, L, H> {
    tree: &'a T,
    kids: &'a [NodeId],
    /// Child `j`'s value in the test `≤ α` (and Aᵢ), and in the test `≥ β` (and Bᵢ).
    low: L,
    high: H,
    alpha: f64,
    beta: f64,
    exact: Option<Exact>,
}

/// The exact side of [`ChildTests`].
struct Exact {
    uniform: bool,
    /// Each child's probability as a fraction (empty for equally likely children).
    probs: Vec<Option<Ratio>>,
    /// Entry `i`: the exact shares of the children after `i`, at their values for the test
    /// `≤ α`, and for the test `≥ β`.
    low: Vec<Option<Ratio>>,
    high: Vec<Option<Ratio>>,
    alpha: Option<Ratio>,
    beta: Option<Ratio>,
}

impl<'a, T: Nodes, L: Fn(usize) -> f64, H: Fn(usize) -> f64> ChildTests<'a, T, L, H> {
    /// The tests at the chance node `node` (children `kids`, window (α, β)), child `j` worth
    /// `low(j)` in the test `≤ α` and `high(j)` in the test `≥ β`.
    pub(crate) fn new(
        tree: &'a T,
        node: NodeId,
        kids: &'a [NodeId],
        (alpha, beta): (f64, f64),
        low: L,
        high: H,
    ) -> Self {
        // Exactly where [`ChanceSum::new`] sums exactly.
        let exact = tree.simple_fractions().then(|| {
            let uniform = tree.is_uniform(node);
            let probs = if uniform {
                Vec::new()
            } else {
                kids.iter().map(|&c| Ratio::of(tree.prob(c))).collect()
            };
            let mut e = Exact {
                uniform,
                probs,
                low: Vec::new(),
                high: Vec::new(),
                alpha: Ratio::of(alpha),
                beta: Ratio::of(beta),
            };
            e.low = e.tails(kids.len(), &low);
            e.high = e.tails(kids.len(), &high);
            e
        });
        ChildTests {
            tree,
            kids,
            low,
            high,
            alpha,
            beta,
            exact,
        }
    }

    /// The children after child `i`, at their values of the test `≤ α` (`high`: `≥ β`).
    fn later(&self, i: usize, high: bool) -> impl Iterator<Item = (NodeId, f64)> + '_ {
        (i + 1..self.kids.len()).map(move |j| {
            let x = if high { (self.high)(j) } else { (self.low)(j) };
            (self.kids[j], x)
        })
    }

    /// The node's value with the children before `i` summed in `sum`, child `i` worth `x` and
    /// the later ones at their values of the test `≤ α` (`high`: of the test `≥ β`).
    #[inline]
    pub(crate) fn value(&self, sum: &ChanceSum, i: usize, x: f64, high: bool) -> f64 {
        let exact = self.exact.as_ref().and_then(|e| e.value(sum, i, x, high));
        exact.unwrap_or_else(|| sum.then(self.tree, self.kids[i], x, self.later(i, high)))
    }

    /// Aᵢ (`high` false: the x at which [`Self::value`] is α) or Bᵢ (`high`: at which it is
    /// β), where the numbers are simple fractions; `None` elsewhere.
    pub(crate) fn end(&self, sum: &ChanceSum, i: usize, high: bool) -> Option<f64> {
        let e = self.exact.as_ref()?;
        // A target that is no simple fraction: `solve` would find none either.
        (if high { e.beta } else { e.alpha })?;
        e.solved(sum, i, high).or_else(|| {
            let target = if high { self.beta } else { self.alpha };
            sum.solve(self.tree, self.kids[i], target, self.later(i, high))
        })
    }
}

impl Exact {
    /// Child `i`'s share when it is worth `x`: `x`, or `pᵢ·x`.
    #[inline]
    fn share(&self, i: usize, x: f64) -> Option<Ratio> {
        let x = Ratio::of(x)?;
        if self.uniform {
            Some(x)
        } else {
            self.probs[i]?.checked_mul(x)
        }
    }

    /// Entry `i`: `Σ_{j>i} share_j` with child `j` worth `at(j)`.
    fn tails(&self, n: usize, at: impl Fn(usize) -> f64) -> Vec<Option<Ratio>> {
        let mut out = vec![None; n];
        let mut acc = Some(Ratio::ZERO);
        for i in (0..n).rev() {
            out[i] = acc;
            acc = acc.and_then(|a| a.checked_add(self.share(i, at(i))?));
        }
        out
    }

    #[inline]
    fn value(&self, sum: &ChanceSum, i: usize, x: f64, high: bool) -> Option<f64> {
        let tail = if high { self.high[i] } else { self.low[i] }?;
        let total = sum
            .exact?
            .checked_add(self.share(i, x)?)?
            .checked_add(tail)?;
        sum.exact_over(total)
    }

    fn solved(&self, sum: &ChanceSum, i: usize, high: bool) -> Option<f64> {
        let (target, tail) = if high {
            (self.beta?, self.high[i]?)
        } else {
            (self.alpha?, self.low[i]?)
        };
        let rest = sum.exact?.checked_add(tail)?;
        let x = match sum.float.uniform {
            // value = (Σ + x) / N
            Some(n) => target.checked_mul(Ratio::of(n)?)?.checked_sub(rest)?,
            // value = Σ + p·x
            None => target
                .checked_sub(rest)?
                .checked_div_ratio(self.probs[i]?)?,
        };
        x.to_f64()
    }
}

/// The lower end of a child's window: the window's `a` (from Ballard's equations) clipped to L,
/// lowered where rounding made it too high, so that a child failing low at it makes `low` hold
/// (`low(x)`: a child worth at most x proves the chance node worth at most α). Monotone: `low`
/// holds up to some x and not above.
pub(crate) fn lower_end(a: f64, l: f64, low: impl Fn(f64) -> bool) -> f64 {
    let ax = if a.is_nan() { f64::INFINITY } else { a.max(l) };
    if ax <= l || low(ax) {
        return ax;
    }
    if !low(l) {
        return l;
    }
    let (mut lo, mut hi) = (key(l), key(ax)); // low(lo), !low(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if low(unkey(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    unkey(lo)
}

/// The upper end of a child's window, the mirror of [`lower_end`]: a child failing high at it
/// makes `high` hold.
pub(crate) fn upper_end(b: f64, u: f64, high: impl Fn(f64) -> bool) -> f64 {
    let bx = if b.is_nan() {
        f64::NEG_INFINITY
    } else {
        b.min(u)
    };
    if bx >= u || high(bx) {
        return bx;
    }
    if !high(u) {
        return u;
    }
    let (mut lo, mut hi) = (key(bx), key(u)); // !high(lo), high(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if high(unkey(mid)) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    unkey(hi)
}

/// Floats in order as integers (−0 and +0 together), for bisection.
fn key(x: f64) -> i128 {
    let b = x.to_bits() as i64;
    (if b < 0 { i64::MIN - b } else { b }) as i128
}

fn unkey(k: i128) -> f64 {
    let k = k as i64;
    f64::from_bits(if k >= 0 {
        k as u64
    } else {
        (i64::MIN - k) as u64
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests summed once a node give, bit for bit, what summing the later children for
    /// every test gives: the node's value with child i at x and Aᵢ/Bᵢ, at every i.
    #[test]
    fn exact_tests_agree_with_summing_each_time() {
        for expr in [
            "*(3,-7,2,9,-4,0)",
            "*(1/3:(5,1), 1/6:(-2,8), 1/2:(7,3))",
            "*(2/7:4, 3/7:(1,-1), 1/7:-8, 1/7:6)",
            "*(1,2.5,-1)",
        ] {
            let tree = crate::format::parse_expr(expr, false).unwrap();
            let node = tree.root();
            let kids: Vec<NodeId> = tree.children(node).collect();
            let n = kids.len();
            let (l, u) = (-10.0, 10.0);
            for (alpha, beta) in [(-3.0, 4.0), (-1.0 / 3.0, 2.5), (0.0, 0.0)] {
                let e = ChildTests::new(&tree, node, &kids, (alpha, beta), |_| u, |_| l);
                assert!(e.exact.is_some(), "{expr}");
                let mut sum = ChanceSum::new(&tree, node);
                for (i, &c) in kids.iter().enumerate() {
                    let at = |x: f64| kids[i + 1..].iter().map(move |&k| (k, x));
                    let exact = e.exact.as_ref().unwrap();
                    for x in [-9.0, -1.5, 0.0, 1.0 / 3.0, 7.0] {
                        for (high, rest) in [(false, u), (true, l)] {
                            let summed = sum.then(&tree, c, x, at(rest));
                            assert_eq!(
                                exact.value(&sum, i, x, high),
                                Some(summed),
                                "{expr} {i} {x}"
                            );
                        }
                    }
                    let a = exact.solved(&sum, i, false);
                    assert_eq!(a, sum.solve(&tree, c, alpha, at(u)), "{expr} A{i}");
                    let b = exact.solved(&sum, i, true);
                    assert_eq!(b, sum.solve(&tree, c, beta, at(l)), "{expr} B{i}");
                    assert!(a.is_some() && b.is_some());
                    sum.add(&tree, c, tree.value(kids[(i + 1) % n]));
                }
            }
        }
    }

    /// A chance node's value is finite wherever its children's are: sums near ±1e308 that
    /// overflow are taken scaled.
    #[test]
    fn sums_near_the_largest_double_do_not_overflow() {
        let m = f64::MAX;
        let third = m / 3.0; // rounds up: three of them overflow
        for (expr, want) in [
            (format!("*({m},{m},{m})"), m),
            (format!("*(-{m},-{m},-{m})"), -m),
            (format!("*({m},{m},-{m})"), third),
            (format!("*({m},{m},{m},-{m})"), m / 2.0),
            (format!("*({m},{m},0)"), m / 3.0 * 2.0),
            (format!("*(0.5:{m}, 0.5:{m})"), m),
            (format!("*(0.75:{m}, 0.25:{m})"), m),
            (format!("*(0.75:-{m}, 0.25:-{m})"), -m),
            (format!("*(0.5:{m}, 0.25:-{m}, 0.25:{m})"), m / 2.0),
            ("*(1,2,3)".to_owned(), 2.0),
        ] {
            let tree = crate::format::parse_expr(&expr, false).unwrap();
            let root = tree.root();
            let mut sum = ChanceSum::new(&tree, root);
            for c in tree.children(root) {
                sum.add(&tree, c, tree.value(c));
            }
            let v = sum.value();
            assert!(
                (v - want).abs() <= want.abs() * 4.0 * f64::EPSILON,
                "{expr}: {v}, not {want}"
            );
        }
    }

    #[test]
    fn window_ends_are_the_thresholds_of_their_tests() {
        for x in [-1e308, -3.5, -0.0, 0.0, 1e-300, 2.0, 1e16, f64::INFINITY] {
            assert_eq!(unkey(key(x)), x);
        }
        assert!(key(-1.0) < key(-0.5) && key(-0.5) < key(0.0) && key(0.0) < key(1.0));
        let t = 1.0 + f64::EPSILON * 8.0;
        assert_eq!(lower_end(2.0, -5.0, |x| x <= t), t);
        assert_eq!(lower_end(f64::NAN, -5.0, |x| x <= t), t);
        assert_eq!(lower_end(2.0, -5.0, |x| x <= -6.0), -5.0);
        assert_eq!(lower_end(0.5, -5.0, |x| x <= t), 0.5);
        assert_eq!(upper_end(-2.0, 5.0, |x| x >= t), t);
        assert_eq!(upper_end(f64::NAN, 5.0, |x| x >= t), t);
        assert_eq!(upper_end(-2.0, 5.0, |x| x >= 6.0), 5.0);
    }
}
