//! Exact arithmetic for chance nodes (issue 12, item 5). Every paper's tree has integer values
//! and probabilities like 1/3 or 6/7, which binary floating point cannot hold: summed as
//! floats, `6/7·(−6) + 1/7·(−6)` is −5.999999999999999, and a cutoff test `≤ α` made in that
//! arithmetic can fail by one rounding. So a chance node whose children's values and
//! probabilities are all *simple fractions* gets its value as the exact fraction, rounded once
//! to the nearest float.
//!
//! A float x *stands for* the fraction p/q when q is small enough that no other fraction of
//! such a denominator rounds to the same float: with |x|·q² < 2^51 any two distinct fractions
//! of denominators ≤ q are more than 2^-51·|x| apart, at least four roundings of x. Such a p/q
//! is then a convergent of x's continued fraction (Legendre: |x − p/q| < 1/(2q²)), which is how
//! [`Ratio::of`] finds it. A chance node's value rounded from such fractions is again a float
//! that stands for its exact value, so the exactness carries up through nested chance nodes.
//! Whatever is not a simple fraction (a value like 0.2837461293, or beyond 2^53) leaves the
//! node to floating point, as before.
//!
//! It sits below the tree, which asks it once whether all of a tree's numbers are simple
//! fractions ([`crate::tree::Tree::simple_fractions`]), and below the search, whose chance sums
//! (`search::chance`) are made with it.

/// 2^53: integers up to it are floats exactly.
const EXACT: f64 = 9_007_199_254_740_992.0;

/// Whether `v` is a whole number: `v.fract() == 0.0`, without the call to the C library's
/// `trunc` that `fract` makes on x86-64 without SSE4.1 (5 % of chess minimax's time when every
/// leaf's value was checked with it). From 2^52 on, every finite float is whole; below, the
/// conversion to an integer is exact for whole numbers. Infinities and NaN are not whole, as
/// with `fract`. The tree readers' and the games' declarations of integer values both ask it.
#[inline]
pub(crate) fn is_integer(v: f64) -> bool {
    if v.abs() < 4_503_599_627_370_496.0 {
        (v as i64) as f64 == v
    } else {
        v.is_finite()
    }
}

/// The largest denominator [`Ratio::of`] tries, whatever the magnitude.
const MAX_DENOMINATOR: f64 = 1_048_576.0; // 2^20

/// A fraction `num/den`, `den > 0`: in lowest terms except for sums (see
/// [`Ratio::checked_add`]), so equality compares values.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Ratio {
    num: i128,
    den: i128,
}

impl Ratio {
    pub(crate) const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// The simple fraction the float `x` stands for, if any (see the module's comment).
    pub(crate) fn of(x: f64) -> Option<Ratio> {
        if let Some(i) = integer(x) {
            return Some(Ratio::integer(i128::from(i)));
        }
        let a = x.abs();
        if a.is_nan() || a > EXACT {
            return None; // too large, infinite or NaN
        }
        let qmax = (2f64.powi(51) / a).sqrt().min(MAX_DENOMINATOR).floor();
        // The convergents h/k of a's continued fraction, computed in floating point: a term
        // may come out wrong after many steps, but every candidate is checked exactly.
        let (mut h0, mut h1, mut k0, mut k1) = (0.0, 1.0, 1.0, 0.0);
        let mut r = a;
        for _ in 0..64 {
            let t = r.floor();
            let (h, k) = (t * h1 + h0, t * k1 + k0);
            if k > qmax || h > EXACT {
                return None;
            }
            // h and k are integers below 2^53, so h / k is rounded once, as the float x was.
            if h / k == a {
                let num = i128::from(h as i64);
                return Some(Ratio {
                    num: if x < 0.0 { -num } else { num },
                    den: i128::from(k as i64),
                });
            }
            let f = r - t; // exact
            if f == 0.0 {
                return None;
            }
            r = 1.0 / f;
            (h0, h1, k0, k1) = (h1, h, k1, k);
        }
        None
    }

    /// The integer `n` as a fraction.
    pub(crate) const fn integer(n: i128) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    fn new(num: i128, den: i128) -> Ratio {
        let g = gcd(num, den).max(1);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// The sum, over the least common denominator, not reduced further (a sum is reduced
    /// when it is rounded): a chance node's children mostly share a denominator or are
    /// integers, so the search's hot path mostly needs no gcd at all.
    pub(crate) fn checked_add(self, o: Ratio) -> Option<Ratio> {
        let (num, den) = if self.den == o.den {
            (self.num.checked_add(o.num)?, self.den)
        } else if o.den == 1 {
            (
                self.num.checked_add(o.num.checked_mul(self.den)?)?,
                self.den,
            )
        } else if self.den == 1 {
            (self.num.checked_mul(o.den)?.checked_add(o.num)?, o.den)
        } else {
            let g = gcd(self.den, o.den);
            let (a, b) = (self.den / g, o.den / g);
            let num = self
                .num
                .checked_mul(b)?
                .checked_add(o.num.checked_mul(a)?)?;
            (num, a.checked_mul(o.den)?)
        };
        Some(Ratio { num, den })
    }

    pub(crate) fn checked_sub(self, o: Ratio) -> Option<Ratio> {
        self.checked_add(Ratio {
            num: o.num.checked_neg()?,
            den: o.den,
        })
    }

    pub(crate) fn checked_mul(self, o: Ratio) -> Option<Ratio> {
        // Factors of 64 bits, the common case, cannot overflow 128: no checked 128-bit products.
        let small = |x: i128| i64::try_from(x).is_ok();
        if small(self.num) && small(self.den) && small(o.num) && small(o.den) {
            return Some(Ratio {
                num: self.num * o.num,
                den: self.den * o.den,
            });
        }
        if let (Some(num), Some(den)) = (self.num.checked_mul(o.num), self.den.checked_mul(o.den)) {
            return Some(Ratio { num, den });
        }
        // Cross-reduce, so that the products stay as small as they can.
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        Some(Ratio {
            num: (self.num / g1).checked_mul(o.num / g2)?,
            den: (self.den / g2).checked_mul(o.den / g1)?,
        })
    }

    /// `self / o` for a positive `o`.
    pub(crate) fn checked_div_ratio(self, o: Ratio) -> Option<Ratio> {
        if o.num <= 0 {
            return None;
        }
        self.checked_mul(Ratio {
            num: o.den,
            den: o.num,
        })
    }

    /// `self / n` for a positive integer n.
    /// (Not reduced: [`Ratio::to_f64`] reduces only when it must.)
    pub(crate) fn checked_div(self, n: i128) -> Option<Ratio> {
        Some(Ratio {
            num: self.num,
            den: self.den.checked_mul(n)?,
        })
    }

    /// The nearest float, when numerator and denominator are floats exactly (one division,
    /// rounded once); `None` beyond that.
    pub(crate) fn to_f64(self) -> Option<f64> {
        let limit = EXACT as i128;
        let r = if self.num.abs() <= limit && self.den <= limit {
            self
        } else {
            Ratio::new(self.num, self.den)
        };
        (r.num.abs() <= limit && r.den <= limit)
            .then(|| (r.num as i64) as f64 / (r.den as i64) as f64)
    }
}

/// The integer the float `x` is, if it is one of at most 2^53 in magnitude: the simple
/// fractions of denominator 1, which sums of integers can keep as integers.
#[inline]
pub(crate) fn integer(x: f64) -> Option<i64> {
    // Through i64, which converts inline (i128 would call the runtime); NaN fails the test.
    (x.abs() <= EXACT && (x as i64) as f64 == x).then_some(x as i64)
}

/// Whether the float `x` stands for a simple fraction.
pub(crate) fn is_simple(x: f64) -> bool {
    Ratio::of(x).is_some()
}

impl PartialEq for Ratio {
    fn eq(&self, o: &Ratio) -> bool {
        let (a, b) = (Ratio::new(self.num, self.den), Ratio::new(o.num, o.den));
        a.num == b.num && a.den == b.den
    }
}

/// The greatest common divisor (0 for 0 and 0), by Stein's binary algorithm: shifts and
/// subtractions, no 128-bit division, since it runs on the search's hot path.
fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    if a == 0 || b == 0 {
        return (a | b).min(i128::MAX as u128) as i128;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            (a, b) = (b, a);
        }
        b -= a;
        if b == 0 {
            break;
        }
    }
    (a << shift).min(i128::MAX as u128) as i128
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(num: i128, den: i128) -> Ratio {
        Ratio::new(num, den)
    }

    /// `is_integer` answers as `fract() == 0.0` does, at the edges too: signed zeros, halves, the
    /// last fractional floats below 2^52, huge and tiny values, infinities and NaN.
    #[test]
    fn is_integer_is_fract_being_zero() {
        let two52 = 4_503_599_627_370_496.0_f64;
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            1e-300,
            -1e-300,
            f64::MIN_POSITIVE,
            two52,
            -two52,
            two52 - 0.5,
            -(two52 - 0.5),
            two52 * 2.0 + 2.0,
            9.3e18,
            -9.3e18,
            1e300,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(f64::from_bits(x));
            values.push((x % 2_000_001) as f64 / 4.0 - 250_000.0);
        }
        for v in values {
            assert_eq!(is_integer(v), v.fract() == 0.0, "{v:e}");
        }
    }

    #[test]
    fn floats_stand_for_the_fractions_they_round() {
        assert_eq!(Ratio::of(-6.0), Some(r(-6, 1)));
        assert_eq!(Ratio::of(6.0 / 7.0), Some(r(6, 7)));
        assert_eq!(Ratio::of(-8.0 / 3.0), Some(r(-8, 3)));
        assert_eq!(Ratio::of(0.1), Some(r(1, 10)));
        assert_eq!(Ratio::of(2.5), Some(r(5, 2)));
        assert_eq!(Ratio::of(1234.0 / 65537.0), Some(r(1234, 65537)));
        assert_eq!(
            Ratio::of(0.1 + 0.2),
            None,
            "0.30000000000000004 is no simple fraction"
        );
        assert_eq!(Ratio::of(0.2837461293), None);
        assert_eq!(Ratio::of(1e300), None);
        assert_eq!(Ratio::of(f64::INFINITY), None);
        assert_eq!(Ratio::of(f64::NAN), None);
        // Large magnitudes allow only small denominators.
        assert_eq!(Ratio::of(1e12 + 0.5), Some(r(2_000_000_000_001, 2)));
        assert_eq!(Ratio::of(1e12 + 1.0 / 3.0), Some(r(3_000_000_000_001, 3)));
        assert_eq!(
            Ratio::of(1e12 + 0.37),
            None,
            "37/100: too fine a denominator at 1e12"
        );
    }

    #[test]
    fn arithmetic_is_exact_and_rounds_once() {
        let sum = r(6, 7)
            .checked_mul(r(-6, 1))
            .unwrap()
            .checked_add(r(1, 7).checked_mul(r(-6, 1)).unwrap())
            .unwrap();
        assert_eq!(sum, r(-6, 1));
        assert_eq!(sum.to_f64(), Some(-6.0));
        let third = r(-8, 1).checked_div(3).unwrap();
        assert_eq!(third.to_f64(), Some(-8.0 / 3.0));
        assert_eq!(r(i128::MAX, 1).checked_add(r(1, 1)), None);
        assert_eq!(r(1i128 << 60, 1).to_f64(), None);
        assert_eq!(r(0, 5), Ratio::ZERO);
        assert_eq!(gcd(12, -18), 6);
        assert_eq!(gcd(0, 7), 7);
        assert_eq!(gcd(1 << 100, 3 << 40), 1 << 40);
        assert_eq!(r(1, 6).checked_add(r(1, 3)), Some(r(1, 2)));
        assert_eq!(r(1, 6).checked_add(r(2, 1)), Some(r(13, 6)));
    }
}
