//! A fast hasher for maps keyed by small integers of prune's own making (node ids, outcome
//! numbers of one file): SipHash's resistance to flooding buys nothing there and costs much of
//! the time of the loops that use them. And SplitMix64's mixer, the one bit mixer of the crate
//! (the seeded generators' stream, the experiments' seeds, the games' keys), kept here below
//! both the generators and the games.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hasher, as in rustc's FxHash.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// A `HashMap` with [`Fx`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
/// A `HashSet` with [`Fx`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<Fx>>;

/// SplitMix64's gamma, ⌊2^64/φ⌋ (odd).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (Stafford's Mix13): a bijection of `u64` whose every output bit
/// depends on every input bit. Pinned: seeds derived with it name trees.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
