//! The transposition table: Schaeffer's slides, "Using storage"; Marsland 1986, "A Review of
//! Game-Tree Pruning", §"Transposition table"; Schaeffer 1989, "The history heuristic and
//! alpha-beta search enhancements in practice", §2 ("transposition tables").
//!
//! An entry holds what a search of a position learnt: its value, whether that value is exact or
//! a lower or upper bound (fail-soft alpha-beta's postcondition for the window it was searched
//! with), the depth it was searched to ("draft"), and the best move (a child's position among its
//! siblings, which is the same move at every node of that position).
//!
//! **Soundness on an explicit tree.** Nodes with equal keys are the same position, so their
//! subtrees are the same (checked in full before a search: [`crate::tree::Tree::key_clash`]).
//! What a search of a node sees is its subtree cut at the remaining
//! depth, so the draft of a node is `min(remaining depth, height of its subtree)`: two nodes of
//! one position with equal drafts have identical searched subtrees.
//!
//! **Use.** An entry's value is used only at its own draft. Game programs use an entry whenever
//! its draft is at least the remaining depth: a deeper search's value is taken as a better
//! estimate. Here every improvement must return the value of depth-limited minimax at the same
//! depth (its reference), which a deeper entry would change; so a deeper entry gives its best
//! move only. Where the subtree is shallower than the remaining depth the draft is the height,
//! so positions near the end of the game are shared across depths all the same.
//!
//! **Size and replacement.** prune's trees are explicit and in memory, so the table is a
//! `HashMap` with one entry per (key, draft) — at most one per node of the searched tree, no
//! collisions and no replacement between positions (the full tic-tac-toe tree has 5,478 keys and
//! 549,946 nodes). When a position is searched again at the same draft, the new entry replaces
//! the old unless the old one is exact and the new one only a bound.
//!
//! A search of a game from its rules walks positions without end in sight, so its table may be
//! given a most memory ([`Table::with_memory`]), as game programs' tables are: when a new entry
//! finds it full, the entries of the shallowest drafts go, enough to halve it (the deep ones cost
//! the most to search again). Entries lost cost search, never a value.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::Bound;
use crate::hash::mix64;

/// The table's hasher: SplitMix64's mixer over the key and the draft. A game's key need not be
/// random in its low bits (connect-four's packs the board), which pick a bucket; SipHash mixes
/// as well but costs several times more, for no resistance the table needs.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = mix64(self.0 ^ x);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
}

/// What a search of one position to one draft learnt. Values are negamax values: seen from the
/// player to move in the position.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Entry {
    /// The value (negamax: from the player to move), or its bound.
    pub value: f64,
    /// Whether `value` is exact or a bound.
    pub bound: Bound,
    /// The best move (the child's position), or the move that cut off.
    pub best: u32,
    /// Whether the search it came from valued some position at its horizon by the heuristic
    /// (an iteration that took this entry did too, for iterative deepening's last iteration).
    pub horizon: bool,
}

/// The table.
#[derive(Debug, Default)]
pub struct Table {
    entries: HashMap<(u64, u32), Entry, BuildHasherDefault<KeyHasher>>,
    /// The most entries it holds, if it has a most.
    limit: Option<usize>,
}

/// The memory of one entry of the table: its key, draft and entry, and the hash map's control
/// byte.
const ENTRY_BYTES: usize = std::mem::size_of::<((u64, u32), Entry)>() + 1;

impl Table {
    /// A table that never takes more than `bytes` of memory (at least 16 buckets' worth). It
    /// grows as it fills, up to that.
    ///
    /// The hash map's buckets are a power of two, filled to 7/8 before it grows; when its free
    /// places have gone to erased entries, it cleans them up in place if at most half of those
    /// 7/8 hold entries, and grows otherwise. So the table holds at most 7/16 of the buckets
    /// that fit in `bytes`: then it never grows past them, however many entries come and go.
    pub fn with_memory(bytes: u64) -> Table {
        let buckets = (bytes / ENTRY_BYTES as u64).max(16);
        let buckets = 1u64 << (63 - buckets.leading_zeros());
        Table {
            entries: HashMap::default(),
            limit: Some((buckets / 16 * 7) as usize),
        }
    }

    /// The most entries the table holds, if it has a most.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// The entry of `key` searched to exactly `draft`.
    #[inline]
    pub fn get(&self, key: u64, draft: u32) -> Option<Entry> {
        self.entries.get(&(key, draft)).copied()
    }

    /// The best move known for `key`: from this draft, or else from the one below (the previous
    /// iteration of iterative deepening).
    #[inline]
    pub fn best_move(&self, key: u64, draft: u32) -> Option<u32> {
        self.get(key, draft)
            .or_else(|| draft.checked_sub(1).and_then(|d| self.get(key, d)))
            .map(|e| e.best)
    }

    /// Stores `entry` for `key` at `draft`; an exact entry is replaced only by an exact one. A
    /// full table first forgets its shallowest entries.
    pub fn store(&mut self, key: u64, draft: u32, entry: Entry) {
        if let Some(limit) = self.limit
            && self.entries.len() >= limit
            && !self.entries.contains_key(&(key, draft))
        {
            self.forget_shallowest(limit);
        }
        let slot = self.entries.entry((key, draft)).or_insert(entry);
        if !(slot.bound == Bound::Exact && entry.bound != Bound::Exact) {
            *slot = entry;
        }
    }

    /// Forgets the entries of the shallowest drafts, whole drafts at a time, until fewer than
    /// half of `limit` remain.
    #[cold]
    fn forget_shallowest(&mut self, limit: usize) {
        let mut by_draft = std::collections::BTreeMap::<u32, usize>::new();
        for &(_, draft) in self.entries.keys() {
            *by_draft.entry(draft).or_default() += 1;
        }
        let mut left = self.entries.len();
        let mut last = None;
        for (&draft, &n) in &by_draft {
            if left < limit / 2 {
                break;
            }
            left -= n;
            last = Some(draft);
        }
        if let Some(last) = last {
            self.entries.retain(|&(_, draft), _| draft > last);
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// What a table entry says for the window `(alpha, beta)`: `Some(value)` when it settles the
/// search (exact, or a bound outside the window), `None` when the node must be searched.
#[inline]
pub fn answer(e: Entry, alpha: f64, beta: f64) -> Option<f64> {
    match e.bound {
        Bound::Exact => Some(e.value),
        Bound::Lower if e.value >= beta => Some(e.value),
        Bound::Upper if e.value <= alpha => Some(e.value),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table with a most memory keeps to it: filled draft by draft, it forgets the shallowest
    /// drafts first, keeps the deepest, and its map never grows past the memory given.
    #[test]
    fn a_table_with_a_most_memory_forgets_its_shallowest_entries() {
        let e = |value: f64| Entry {
            value,
            bound: Bound::Exact,
            best: 0,
            horizon: false,
        };
        let mut t = Table::with_memory(64 * 1024);
        let limit = t.limit().unwrap();
        // The buckets that fit, a power of two.
        let buckets = (64 * 1024 / ENTRY_BYTES).next_power_of_two() / 2;
        assert!(buckets * ENTRY_BYTES <= 64 * 1024);
        assert_eq!(limit, buckets / 16 * 7);
        let (mut most_capacity, mut deepest) = (0, Vec::new());
        let mut x = 1u64;
        for i in 0..20 * limit {
            x = mix64(x);
            // Drafts 1 to 8, the shallow ones the commonest, as in a search.
            let draft = 8 - (1 + x % 255).ilog2();
            t.store(x, draft, e(i as f64));
            if draft == 8 {
                deepest.push((x, e(i as f64)));
            }
            assert!(t.len() <= limit);
            most_capacity = most_capacity.max(t.entries.capacity());
        }
        // capacity() is 7/8 of the buckets.
        assert!(
            most_capacity * 8 / 7 <= buckets,
            "{most_capacity} for {buckets}"
        );
        // The deepest draft's entries are all there still.
        assert!(!deepest.is_empty());
        for (key, entry) in deepest {
            assert_eq!(t.get(key, 8), Some(entry));
        }
        // Without a most, nothing is forgotten.
        let mut t = Table::default();
        for k in 0..10_000 {
            t.store(k, 1, e(0.0));
        }
        assert_eq!(t.len(), 10_000);
    }

    #[test]
    fn bounds_answer_only_outside_the_window() {
        let e = |value, bound| Entry {
            value,
            bound,
            best: 0,
            horizon: false,
        };
        assert_eq!(answer(e(3.0, Bound::Exact), 5.0, 9.0), Some(3.0));
        assert_eq!(answer(e(9.0, Bound::Lower), 5.0, 9.0), Some(9.0));
        assert_eq!(answer(e(8.0, Bound::Lower), 5.0, 9.0), None);
        assert_eq!(answer(e(5.0, Bound::Upper), 5.0, 9.0), Some(5.0));
        assert_eq!(answer(e(6.0, Bound::Upper), 5.0, 9.0), None);
    }

    #[test]
    fn an_exact_entry_is_not_replaced_by_a_bound_and_older_drafts_give_moves() {
        let mut t = Table::default();
        t.store(
            7,
            2,
            Entry {
                value: 1.0,
                bound: Bound::Exact,
                best: 3,
                horizon: false,
            },
        );
        t.store(
            7,
            2,
            Entry {
                value: 4.0,
                bound: Bound::Lower,
                best: 1,
                horizon: false,
            },
        );
        assert_eq!(t.get(7, 2).unwrap().value, 1.0);
        assert_eq!(t.get(7, 3), None);
        assert_eq!(t.best_move(7, 3), Some(3));
        assert_eq!(t.best_move(7, 4), None);
        assert_eq!(t.len(), 1);
    }
}
