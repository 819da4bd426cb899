//! The one random source of every generator: ChaCha8, seeded from a `u64`.
//!
//! The same seed gives the same tree on every machine and every version of prune: the stream is
//! ChaCha8's (whose output `rand_chacha` keeps stable), the 32-byte key is derived from the seed
//! by SplitMix64 here, and every draw (integers in a range, floats, shuffles) is computed here
//! from raw 64-bit outputs rather than through `rand`'s distributions, which may change.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng as _, SeedableRng};

/// The seeded random source (see the module documentation).
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// The stream of `seed`, the same on every machine.
    pub fn new(seed: u64) -> Self {
        let mut state = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        Rng(ChaCha8Rng::from_seed(key))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`), without bias (Lemire's multiply-and-reject).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// Uniform integer in `lo..=hi`.
    #[inline]
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        debug_assert!(lo <= hi);
        let span = (hi as i128 - lo as i128 + 1) as u128;
        if span > u128::from(u64::MAX) {
            return self.u64() as i64;
        }
        (lo as i128 + i128::from(self.below(span as u64))) as i64
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `(0, 1]`.
    #[inline]
    pub fn unit_open0(&mut self) -> f64 {
        1.0 - self.unit()
    }

    /// Uniform in `[lo, hi)`.
    #[inline]
    pub fn real(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// `true` with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Fisher–Yates: every permutation equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The SplitMix64 step: advances `state` by the golden gamma and returns its [`mix64`].
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    mix64(*state)
}

pub use crate::hash::{GOLDEN_GAMMA, mix64};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned() {
        // If this changes, every seeded tree changes: that is a breaking change for users.
        let mut r = Rng::new(42);
        let first: Vec<u64> = (0..3).map(|_| r.u64()).collect();
        let mut again = Rng::new(42);
        assert_eq!(first, (0..3).map(|_| again.u64()).collect::<Vec<_>>());
        assert_eq!(first[0], PINNED_FIRST_U64);
    }

    const PINNED_FIRST_U64: u64 = 3_536_907_876_931_541_756;

    #[test]
    fn ranges_are_inclusive_and_fair() {
        let mut r = Rng::new(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[(r.int(-2, 3) + 2) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        for _ in 0..1000 {
            let x = r.unit();
            assert!((0.0..1.0).contains(&x));
            assert!(r.unit_open0() > 0.0);
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(7);
        let mut v: Vec<u32> = (0..100).collect();
        r.shuffle(&mut v);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert_ne!(v, s);
    }
}
