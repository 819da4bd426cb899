//! The transposition table the threads of a parallel walk share ([`super::walk`]'s Lazy SMP):
//! lock-free, its entries in atomic words checked by Hyatt & Mann's lockless hashing ("A
//! lockless transposition-table implementation for parallel search", ICGA Journal 25(1), 2002).
//!
//! An entry is three 64-bit words: the value's bits, the data (best move, bound, horizon flag,
//! draft), and a check word, the position's key XORed with a mix of the other two. The words
//! are written and read one at a time (relaxed atomics: no lock, no undefined behaviour), so a
//! reader may see the words of two writes interleaved; it recomputes the check from the value
//! and data it read and takes the entry only when that gives back the key it asked for (and the
//! draft it asked for). A torn entry passes only if the mix of words from different writes
//! happens to equal a key XOR: about one chance in 2^64 a read, as for the key collisions any
//! 64-bit table accepts ([`crate::search::tt`]'s is keyed by the game's 64-bit key as well).
//!
//! **What is shared.** Entries are keyed by (position, draft) exactly as in the serial table, and
//! an entry's value is used only at its own draft ([`crate::search::tt`]: a deeper entry gives its
//! move only). The value of a position searched to a given draft does not depend on the path to
//! it nor on the thread that searched it, so every entry any thread stores is a true bound (or
//! the exact value) of that draft's value: the main thread's search, taking them, returns its
//! fixed-depth value all the same (see [`super::walk`]'s "Lazy SMP").
//!
//! **Size and replacement.** A fixed array of `2^k` entries in pairs (two-way buckets, both
//! chosen by the key and the draft). A store for the same key and draft goes to its entry, an
//! exact one replaced only by an exact one as in the serial table; otherwise to an empty entry
//! of the pair, or else over the one of lower draft. Entries lost cost search, never a value.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::hash::{GOLDEN_GAMMA, mix64};
use crate::search::Bound;
use crate::search::tt::{Entry, Table};

/// A transposition table as the walk uses it: the serial [`Table`] or the shared one.
pub(crate) trait Tt {
    /// The entry of `key` searched to exactly `draft`.
    fn get(&self, key: u64, draft: u32) -> Option<Entry>;
    /// The best move known for `key`: from this draft, or else from the one below.
    #[inline]
    fn best_move(&self, key: u64, draft: u32) -> Option<u32> {
        self.get(key, draft)
            .or_else(|| draft.checked_sub(1).and_then(|d| self.get(key, d)))
            .map(|e| e.best)
    }
    /// Stores `entry` for `key` at `draft`.
    fn store(&mut self, key: u64, draft: u32, entry: Entry);
}

/// One entry's three words.
struct Slot {
    check: AtomicU64,
    value: AtomicU64,
    data: AtomicU64,
}

/// The shared table.
pub(crate) struct Shared {
    slots: Box<[Slot]>,
    /// `slots.len() - 1`, a power of two less one.
    mask: usize,
}

/// The memory of one entry: three 64-bit words.
pub(crate) const ENTRY_BYTES: u64 = std::mem::size_of::<Slot>() as u64;

const BEST_BITS: u64 = 32;
const BOUND_SHIFT: u64 = 32;
const HORIZON_SHIFT: u64 = 34;
const DRAFT_SHIFT: u64 = 40;

/// The data word of `entry` at `draft`: the best move (32 bits), the bound (2 bits, never 0 for
/// an entry: 0 is an empty slot), the horizon flag, the draft (24 bits).
#[inline]
fn pack(draft: u32, e: &Entry) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(e.best)
        | bound << BOUND_SHIFT
        | u64::from(e.horizon) << HORIZON_SHIFT
        | u64::from(draft) << DRAFT_SHIFT
}

/// The entry and draft of a data word and value bits; `None` for an empty slot.
#[inline]
fn unpack(value: u64, data: u64) -> Option<(u32, Entry)> {
    let bound = match (data >> BOUND_SHIFT) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let entry = Entry {
        value: f64::from_bits(value),
        bound,
        best: (data & ((1 << BEST_BITS) - 1)) as u32,
        horizon: (data >> HORIZON_SHIFT) & 1 == 1,
    };
    Some(((data >> DRAFT_SHIFT) as u32, entry))
}

/// The check word: the key XOR a mix of the value and the data, so that words of different
/// writes do not pass for one entry.
#[inline]
fn check(key: u64, value: u64, data: u64) -> u64 {
    key ^ mix64(value ^ mix64(data.wrapping_add(GOLDEN_GAMMA)))
}

impl Shared {
    /// A table of `2^bits` entries (24 bytes each), all empty.
    pub(crate) fn new(bits: u32) -> Self {
        let n = 1usize << bits.max(1);
        // Zeroed memory, which the allocator takes from the system as it is (a big block: pages
        // the kernel zeroes when first touched), rather than 3·2^bits stores before the search.
        let layout = std::alloc::Layout::array::<Slot>(n).expect("a table's size");
        // SAFETY: the layout has a nonzero size (n ≥ 2); a `Slot` is three `AtomicU64`s, for
        // which all-zero bytes are a valid value (an empty entry), so the zeroed block is n
        // initialised slots, allocated by the global allocator with the layout a `Box<[Slot]>`
        // of n frees it with.
        let slots = unsafe {
            let p = std::alloc::alloc_zeroed(layout).cast::<Slot>();
            if p.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
        };
        Shared { slots, mask: n - 1 }
    }

    /// The first of the pair of slots of `key` at `draft`.
    #[inline]
    fn pair(&self, key: u64, draft: u32) -> usize {
        (mix64(key ^ mix64(u64::from(draft).wrapping_add(GOLDEN_GAMMA))) as usize) & self.mask & !1
    }

    /// The slot's entry and draft if its words are one write's entry for `key`.
    #[inline]
    fn read(&self, i: usize, key: u64) -> Option<(u32, Entry)> {
        let s = &self.slots[i];
        let c = s.check.load(Relaxed);
        let value = s.value.load(Relaxed);
        let data = s.data.load(Relaxed);
        if check(key, value, data) != c {
            return None;
        }
        unpack(value, data)
    }

    #[inline]
    fn write(&self, i: usize, key: u64, draft: u32, e: &Entry) {
        let s = &self.slots[i];
        let (value, data) = (e.value.to_bits(), pack(draft, e));
        s.check.store(check(key, value, data), Relaxed);
        s.value.store(value, Relaxed);
        s.data.store(data, Relaxed);
    }

    /// The draft held in slot `i` (torn or not: only to choose which entry to replace), `None`
    /// when empty.
    #[inline]
    fn held_draft(&self, i: usize) -> Option<u32> {
        let data = self.slots[i].data.load(Relaxed);
        ((data >> BOUND_SHIFT) & 3 != 0).then_some((data >> DRAFT_SHIFT) as u32)
    }

    /// The entry of `key` at exactly `draft`, if the table holds it.
    #[inline]
    pub(crate) fn get(&self, key: u64, draft: u32) -> Option<Entry> {
        let p = self.pair(key, draft);
        (p..p + 2).find_map(|i| match self.read(i, key) {
            Some((d, e)) if d == draft => Some(e),
            _ => None,
        })
    }

    /// Stores `entry` for `key` at `draft` (see the module's replacement rule).
    pub(crate) fn store(&self, key: u64, draft: u32, entry: Entry) {
        let p = self.pair(key, draft);
        for i in p..p + 2 {
            if let Some((d, old)) = self.read(i, key)
                && d == draft
            {
                if !(old.bound == Bound::Exact && entry.bound != Bound::Exact) {
                    self.write(i, key, draft, &entry);
                }
                return;
            }
        }
        let i = match (self.held_draft(p), self.held_draft(p + 1)) {
            (None, _) => p,
            (_, None) => p + 1,
            (Some(a), Some(b)) if b < a => p + 1,
            _ => p,
        };
        self.write(i, key, draft, &entry);
    }
}

impl Tt for &Shared {
    #[inline]
    fn get(&self, key: u64, draft: u32) -> Option<Entry> {
        Shared::get(self, key, draft)
    }
    #[inline]
    fn store(&mut self, key: u64, draft: u32, entry: Entry) {
        Shared::store(self, key, draft, entry)
    }
}

impl Tt for Table {
    #[inline]
    fn get(&self, key: u64, draft: u32) -> Option<Entry> {
        Table::get(self, key, draft)
    }
    #[inline]
    fn best_move(&self, key: u64, draft: u32) -> Option<u32> {
        Table::best_move(self, key, draft)
    }
    #[inline]
    fn store(&mut self, key: u64, draft: u32, entry: Entry) {
        Table::store(self, key, draft, entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(value: f64, bound: Bound, best: u32) -> Entry {
        Entry {
            value,
            bound,
            best,
            horizon: best % 2 == 0,
        }
    }

    /// Entries come back at their own draft only, an exact one is not replaced by a bound, and
    /// the move of the draft below is found as the serial table finds it.
    #[test]
    fn entries_are_kept_by_key_and_draft() {
        let t = Shared::new(8);
        let r = &t;
        r.store(7, 3, e(1.5, Bound::Exact, 4));
        r.store(7, 3, e(9.0, Bound::Lower, 2));
        assert_eq!(t.get(7, 3), Some(e(1.5, Bound::Exact, 4)));
        assert_eq!(t.get(7, 2), None);
        assert_eq!(t.get(8, 3), None);
        assert_eq!(r.best_move(7, 4), Some(4));
        assert_eq!(r.best_move(7, 5), None);
        r.store(7, 2, e(-3.0, Bound::Upper, 1));
        assert_eq!(t.get(7, 2), Some(e(-3.0, Bound::Upper, 1)));
        assert_eq!(t.get(7, 3), Some(e(1.5, Bound::Exact, 4)));
    }

    /// A slot whose words come from two different writes is not taken for either.
    #[test]
    fn a_torn_entry_is_never_read() {
        let t = Shared::new(4);
        let p = t.pair(11, 2);
        t.write(p, 11, 2, &e(5.0, Bound::Exact, 3));
        // Another write of the same key and draft, interrupted after its value word.
        t.slots[p].value.store(6.0f64.to_bits(), Relaxed);
        assert_eq!(t.get(11, 2), None);
        // Its data word too, but the check word still the first write's.
        t.slots[p]
            .data
            .store(pack(2, &e(6.0, Bound::Lower, 1)), Relaxed);
        assert_eq!(t.get(11, 2), None);
        // The check word last: the second write's entry, whole.
        t.write(p, 11, 2, &e(6.0, Bound::Lower, 1));
        assert_eq!(t.get(11, 2), Some(e(6.0, Bound::Lower, 1)));
    }

    /// Many threads storing and reading the same few keys read only entries some thread wrote
    /// whole: each thread writes values that encode their key and draft.
    #[test]
    fn concurrent_stores_are_read_whole() {
        let t = Shared::new(4);
        std::thread::scope(|s| {
            for th in 0..4u32 {
                let t = &t;
                s.spawn(move || {
                    let r = t;
                    for n in 0..20_000u32 {
                        let key = u64::from(n % 13);
                        let draft = n % 5;
                        let v = (key * 100 + u64::from(draft)) as f64;
                        let bound = if (n + th) % 3 == 0 {
                            Bound::Exact
                        } else {
                            Bound::Lower
                        };
                        r.store(key, draft, e(v, bound, key as u32 + draft));
                        let (k2, d2) = (u64::from((n * 7) % 13), (n * 3) % 5);
                        if let Some(got) = t.get(k2, d2) {
                            assert_eq!(got.value, (k2 * 100 + u64::from(d2)) as f64);
                            assert_eq!(got.best, k2 as u32 + d2);
                        }
                    }
                });
            }
        });
    }
}
