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
        self.exact_solution(target, s.exact?, || Ratio::of(tree.prob(child)))
    }

    /// The x, rounded once, at which the node's value is `target` when the other children's
    /// exact shares sum to `rest`; `prob`: the fraction of x's child, for uneven children.
    #[inline]
    fn exact_solution(
        &self,
        target: Ratio,
        rest: Ratio,
        prob: impl FnOnce() -> Option<Ratio>,
    ) -> Option<f64> {
        let x = match self.float.uniform {
            // value = (Σ + x) / N
            Some(n) => target.checked_mul(Ratio::of(n)?)?.checked_sub(rest)?,
            // value = Σ + p·x
            None => target.checked_sub(rest)?.checked_div_ratio(prob()?)?,
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
        sum.exact_solution(target, rest, || self.probs[i])
    }
}

/// A chance node's children each at a value of its own — under Star2, what each child's probes
/// have shown — and the node's value with one of them changed ([`Self::with`]) or the value of
/// one that makes the node's value a target ([`Self::solve`]), each what [`ChanceSum`] gives
/// summing all N children. Where that sum is exact, the children equally likely and every value
/// an integer (Ballard's trees, whose probes are leaves), the values' sum is kept as an integer
/// as they change: each answer is then that sum changed by one term, over N, rounded once — the
/// fraction [`ChanceSum`] rounds — in O(1) instead of O(N). Elsewhere each answer sums them all.
#[derive(Clone)]
pub(crate) struct AtValues {
    values: Vec<f64>,
    /// The empty sum of the node, which the answers start from.
    none: ChanceSum,
    /// The integer sum, where the node has one (see above).
    ints: Option<Ints>,
}

/// The sum of the values that are integers, and how many are not: the integer sum is the
/// values' own while none is missing.
#[derive(Copy, Clone)]
struct Ints {
    sum: i128,
    odd: usize,
}

impl Ints {
    fn add(&mut self, v: f64) {
        match crate::exact::integer(v) {
            Some(k) => self.sum += i128::from(k), // N < 2³² terms below 2⁵³: no overflow
            None => self.odd += 1,
        }
    }

    fn remove(&mut self, v: f64) {
        match crate::exact::integer(v) {
            Some(k) => self.sum -= i128::from(k),
            None => self.odd -= 1,
        }
    }
}

impl std::ops::Deref for AtValues {
    type Target = [f64];

    /// The values read as a slice; they change through [`AtValues::set`].
    fn deref(&self) -> &[f64] {
        &self.values
    }
}

impl AtValues {
    /// The children of `node` at `values`.
    pub(crate) fn new<T: Nodes>(tree: &T, node: NodeId, values: Vec<f64>) -> Self {
        let none = ChanceSum::new(tree, node);
        let ints = (none.exact.is_some() && none.float.uniform.is_some()).then(|| {
            let mut ints = Ints { sum: 0, odd: 0 };
            values.iter().for_each(|&v| ints.add(v));
            ints
        });
        AtValues { values, none, ints }
    }

    pub(crate) fn set(&mut self, i: usize, v: f64) {
        if let Some(ints) = &mut self.ints {
            ints.remove(self.values[i]);
            ints.add(v);
        }
        self.values[i] = v;
    }

    /// The integer sum of the values but child `i`'s, where there is one.
    #[inline]
    fn others(&self, i: usize) -> Option<i128> {
        let ints = self.ints.filter(|s| s.odd == 0)?;
        Some(ints.sum - i128::from(crate::exact::integer(self.values[i])?))
    }

    /// The node's value with child `i` (of `kids`, the node's children) worth `x` and the
    /// others at their values.
    pub(crate) fn with<T: Nodes>(&self, tree: &T, kids: &[NodeId], i: usize, x: f64) -> f64 {
        let sum = self
            .others(i)
            .and_then(|rest| Some(rest + i128::from(crate::exact::integer(x)?)));
        // Where the sum outgrows 2⁵³ even reduced, the full sum finds no exact value either
        // and falls back to floating point.
        sum.and_then(|sum| self.none.exact_over(Ratio::integer(sum)))
            .unwrap_or_else(|| {
                let at = |(j, &c): (usize, &NodeId)| (c, if j == i { x } else { self.values[j] });
                self.none.completed(tree, kids.iter().enumerate().map(at))
            })
    }

    /// The value of child `i` at which the node's value is `target`, the others at their
    /// values, as [`ChanceSum::solve`] finds it.
    pub(crate) fn solve<T: Nodes>(
        &self,
        tree: &T,
        kids: &[NodeId],
        i: usize,
        target: f64,
    ) -> Option<f64> {
        if let Some(rest) = self.others(i) {
            let target = Ratio::of(target)?;
            return self
                .none
                .exact_solution(target, Ratio::integer(rest), || None);
        }
        let rest = kids.iter().enumerate().filter(|&(j, _)| j != i);
        let at = rest.map(|(j, &c)| (c, self.values[j]));
        self.none.solve(tree, kids[i], target, at)
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

    /// The integer sum [`AtValues`] keeps gives, bit for bit, what summing every child gives:
    /// the node's value with one child changed and the value solving for a target, as the
    /// values change between integers, fractions, huge integers and non-simple floats.
    #[test]
    fn values_summed_as_integers_agree_with_summing_each_time() {
        let big = 9_007_199_254_740_992.0; // 2⁵³: its sums over 3 have no exact float
        for expr in [
            "*(1,2,3)",
            "*(1/3:1, 1/3:2, 1/3:3)",
            "*(1/2:1, 1/4:2, 1/4:3)",
        ] {
            let tree = crate::format::parse_expr(expr, false).unwrap();
            let node = tree.root();
            let kids: Vec<NodeId> = tree.children(node).collect();
            let none = ChanceSum::new(&tree, node);
            let mut at = AtValues::new(&tree, node, vec![7.0; 3]);
            for (step, v) in [
                -4.0,
                0.5,
                2.0,
                big,
                -0.0,
                0.2837461293,
                11.0,
                big,
                5.0,
                -big,
            ]
            .into_iter()
            .enumerate()
            {
                at.set(step % 3, v);
                for i in 0..3 {
                    let all = |x: f64| {
                        let pair = |(j, &c): (usize, &NodeId)| (c, if j == i { x } else { at[j] });
                        kids.iter().enumerate().map(pair).collect::<Vec<_>>()
                    };
                    for x in [-3.0, 1.0 / 3.0, 6.0, big, 1e300] {
                        let want = none.completed(&tree, all(x));
                        assert_eq!(at.with(&tree, &kids, i, x).to_bits(), want.to_bits());
                    }
                    for target in [-2.0, 5.0 / 3.0, 4.0, 0.2837461293] {
                        let others = all(0.0).into_iter().filter(|&(c, _)| c != kids[i]);
                        let want = none.solve(&tree, kids[i], target, others);
                        assert_eq!(at.solve(&tree, &kids, i, target), want, "{expr} {i}");
                    }
                }
            }
            assert_eq!(at.ints.is_some(), tree.is_uniform(node), "{expr}");
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
