//! MTD(f) (Plaat, Schaeffer, Pijls & de Bruin 1996; beyond the papers): a sequence of
//! minimal-window alpha-beta searches with memory, converging on the value from a first guess.
//!
//! ```text
//! g := f; upper := +∞; lower := −∞
//! repeat
//!     β := if g = lower then g + 1 else g
//!     g := AlphaBetaWithMemory(root, β − 1, β)
//!     if g < β then upper := g else lower := g
//! until lower ≥ upper
//! ```
//!
//! `AlphaBetaWithMemory` is fail-soft alpha-beta in min/max form that keeps, for every node it
//! has searched, a lower and an upper bound on its value (a node-keyed "transposition table":
//! our trees have no transpositions), consults them before searching a node and stores what it
//! learnt after (the table holds a slot for each node searched, by sibling blocks: see
//! `Memory`). A leaf answered from memory is not evaluated again; `leaves` counts
//! evaluations, `distinct_leaves` different leaves (memory tells a leaf's first evaluation from
//! the others); every pass after the first counts as a re-search of the root.
//!
//! "+ 1" assumes integer values; on trees with other leaf values the step is one floating-point
//! number (`next_up`), so the minimal window stays minimal. On integer trees beyond 2⁵³, where
//! `x + 1` rounds back to `x`, the step is `next_up` too (`super::negascout::above`): the
//! window never collapses and every pass makes progress, so the loop ends on every finite tree.
//! The first guess defaults to the middle of the tree's value bounds, `lo/2 + hi/2` (which
//! cannot overflow), rounded down on integer trees. A guess outside the bounds is fine: the
//! first pass fails low or high and returns a leaf's value, and the loop goes on from there.
//!
//! With the first guess +∞ this is Plaat et al.'s MT-SSS* (`mt-sss`, [`super::Algorithm::MT_SSS`]):
//! every pass but the last fails low, and the first window is `(U, +∞)`, `U` the tree's upper
//! value bound.

use super::negascout::above;
use super::{Bound, Cutoff, Found, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// MTD(f): null-window alpha-beta passes with a node-keyed memory, starting from `guess` (by
/// default the middle of the tree's value bounds), until the bounds meet.
pub fn search<T: Nodes, O: Observer>(tree: &T, guess: Option<f64>, obs: &mut O) -> Found {
    let mut memory = Memory::new(tree.len());
    Found::exact(drive(tree, guess, obs, |lo, hi, obs| {
        abm(tree, tree.root(), Memory::ROOT, lo, hi, &mut memory, obs)
    }))
}

/// The MTD(f) loop over `pass(α, β)`, a fail-soft alpha-beta search of the root with memory
/// (this file's, or the transposition table of [`super::improved`]); the root's value.
pub(crate) fn drive<T: Nodes, O: Observer>(
    tree: &T,
    guess: Option<f64>,
    obs: &mut O,
    mut pass: impl FnMut(f64, f64, &mut O) -> f64,
) -> f64 {
    let integral = tree.is_integral();
    let b = tree.value_bounds();
    let mid = b.lo / 2.0 + b.hi / 2.0;
    let mid = if mid.is_finite() { mid } else { 0.0 };
    let mut g = guess.unwrap_or(if integral { mid.floor() } else { mid });
    let up = |x: f64| {
        if integral {
            above::<true>(x)
        } else {
            x.next_up()
        }
    };
    let down = |x: f64| {
        // MT-SSS*'s first window, below +∞: from the tree's upper bound rather than from the
        // largest finite number, so the trace shows a number of the tree. Every leaf is at
        // most that bound, so every node fails low in both windows alike.
        if x == f64::INFINITY && b.hi.is_finite() {
            b.hi
        } else if integral {
            -above::<true>(-x)
        } else {
            x.next_down()
        }
    };
    let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut count = 0;
    while lower < upper {
        let beta = if g == lower { up(g) } else { g };
        if count > 0 {
            obs.research(tree.root(), down(beta), beta);
        }
        g = pass(down(beta), beta, obs);
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
        count += 1;
    }
    g
}

/// `AlphaBetaWithMemory(n, α, β)`, fail-soft; `slot`: where `n`'s bounds are kept.
fn abm<T: Nodes, O: Observer>(
    tree: &T,
    n: NodeId,
    slot: usize,
    alpha: f64,
    beta: f64,
    mem: &mut Memory,
    obs: &mut O,
) -> f64 {
    let known = mem.get(slot);
    let (alpha, beta) = match consult(known, alpha, beta) {
        Ok(window) => window,
        Err(g) => return g,
    };
    let g = match tree.kind(n) {
        Kind::Leaf => {
            let v = tree.value(n);
            // Every search of a leaf leaves a bound in memory.
            if known == (f64::NEG_INFINITY, f64::INFINITY) {
                obs.fresh_leaf(n, v);
            } else {
                obs.leaf_again(n, v);
            }
            v
        }
        Kind::Max => {
            obs.enter(n, alpha, beta);
            let (mut g, mut a) = (f64::NEG_INFINITY, alpha);
            let count = tree.child_count(n);
            let kids = Children::new(tree, n, slot, count, mem);
            for i in 0..count {
                g = g.max(kids.abm(tree, i, a, beta, mem, obs));
                a = a.max(g);
                if g >= beta {
                    obs.cutoff(n, i as u32, (count - i - 1) as u32, Cutoff::Beta);
                    break;
                }
            }
            obs.exit(n, g, Bound::classify(g, alpha, beta));
            g
        }
        _ => {
            obs.enter(n, alpha, beta);
            let (mut g, mut b) = (f64::INFINITY, beta);
            let count = tree.child_count(n);
            let kids = Children::new(tree, n, slot, count, mem);
            for i in 0..count {
                g = g.min(kids.abm(tree, i, alpha, b, mem, obs));
                b = b.min(g);
                if g <= alpha {
                    obs.cutoff(n, i as u32, (count - i - 1) as u32, Cutoff::Alpha);
                    break;
                }
            }
            obs.exit(n, g, Bound::classify(g, alpha, beta));
            g
        }
    };
    let (lo, hi) = learn(known, g, alpha, beta);
    mem.set(slot, lo, hi);
    g
}

/// What memory says of a node with bounds `(lo, hi)` searched with window `(α, β)`: its value
/// (`Err`) when a bound decides the search, else the window narrowed by the bounds.
#[inline]
fn consult((lo, hi): (f64, f64), alpha: f64, beta: f64) -> Result<(f64, f64), f64> {
    if lo >= beta {
        return Err(lo);
    }
    if hi <= alpha {
        return Err(hi);
    }
    Ok((alpha.max(lo), beta.min(hi)))
}

/// The bounds `(lo, hi)` after a search with window `(α, β)` returned `g`: fail low, an upper
/// bound; inside, exact; fail high, a lower bound.
#[inline]
fn learn((mut lo, mut hi): (f64, f64), g: f64, alpha: f64, beta: f64) -> (f64, f64) {
    if g <= alpha {
        hi = g;
    }
    if g > alpha && g < beta {
        (lo, hi) = (g, g);
    }
    if g >= beta {
        lo = g;
    }
    (lo, hi)
}

/// `AlphaBetaWithMemory` of leaf `c`, value `v`, whose bounds are the two bits `known`: every
/// bound a leaf is given is its value (`learn` stores `g`, and a leaf's `g` is `v`), so its
/// bounds are `(−∞ or v, v or +∞)`, and the bits say which.
#[inline]
fn abm_leaf<O: Observer>(
    c: NodeId,
    v: f64,
    known: &mut u8,
    alpha: f64,
    beta: f64,
    obs: &mut O,
) -> f64 {
    let bounds = (
        if *known & LOWER != 0 {
            v
        } else {
            f64::NEG_INFINITY
        },
        if *known & UPPER != 0 {
            v
        } else {
            f64::INFINITY
        },
    );
    let (alpha, beta) = match consult(bounds, alpha, beta) {
        Ok(window) => window,
        Err(g) => return g,
    };
    // Every search of a leaf sets a bit.
    if *known == 0 {
        obs.fresh_leaf(c, v);
    } else {
        obs.leaf_again(c, v);
    }
    let (lo, hi) = learn(bounds, v, alpha, beta);
    *known = (if lo == v { LOWER } else { 0 }) | (if hi == v { UPPER } else { 0 });
    v
}

const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// Where the children of a node being searched keep their bounds.
enum Children {
    /// Interior nodes, or a mix: the children's slots from `slot`.
    Slots { first: u32, slot: usize },
    /// Leaves only: two bits each in [`Memory`]'s leaf bytes from `at`, values straight from
    /// the value column.
    Leaves { first: u32, at: usize },
}

impl Children {
    #[inline]
    fn new<T: Nodes>(tree: &T, n: NodeId, slot: usize, count: usize, mem: &mut Memory) -> Children {
        let first = tree.child(n, 0).0;
        if tree.children_all_leaves(n) {
            Children::Leaves {
                first,
                at: mem.leaves(slot, count),
            }
        } else {
            Children::Slots {
                first,
                slot: mem.children(slot, count),
            }
        }
    }

    /// `AlphaBetaWithMemory` of the `i`-th child.
    #[inline]
    fn abm<T: Nodes, O: Observer>(
        &self,
        tree: &T,
        i: usize,
        alpha: f64,
        beta: f64,
        mem: &mut Memory,
        obs: &mut O,
    ) -> f64 {
        match *self {
            Children::Slots { first, slot } => abm(
                tree,
                NodeId(first + i as u32),
                slot + i,
                alpha,
                beta,
                mem,
                obs,
            ),
            Children::Leaves { first, at } => {
                let c = NodeId(first + i as u32);
                abm_leaf(c, tree.value(c), &mut mem.leaves[at + i], alpha, beta, obs)
            }
        }
    }
}

/// The bounds `(lower, upper)` known for every node searched, `(−∞, +∞)` until then: a
/// node-keyed table, laid out by sibling blocks. The root has slot 0; a node's children get a
/// block of consecutive slots, appended the first time the node is searched, and its slot keeps
/// where the block starts. The table grows with the nodes searched, not with the tree: a pass
/// that visits 0.2 million nodes of an 11-million-node tree touches no per-node array of the
/// tree's size. Bounds are stored as their bits exclusive-or the bits of their defaults, so a
/// new block is zeroed memory.
///
/// Children that are all leaves get a block of bytes in `leaves` instead, two bits a leaf
/// ([`abm_leaf`]): a byte a leaf instead of a 24-byte slot, and no kind to read.
struct Memory {
    slots: Vec<Slot>,
    /// Leaves' bounds, from index 1 (0 marks "no block" in a slot).
    leaves: Vec<u8>,
}

#[derive(Copy, Clone, Default)]
struct Slot {
    lo: u64,
    hi: u64,
    /// Slot of the first child (or index of the first leaf byte); 0 while the children have
    /// none (0 is the root's slot, and no leaf's byte).
    children: u32,
}

const LO: u64 = f64::NEG_INFINITY.to_bits();
const HI: u64 = f64::INFINITY.to_bits();

/// The most slots (and leaf bytes) reserved up front: 24 MiB of address space, whose pages are
/// only faulted in when written. Grown by doubling from one slot, the table was copied again
/// and again (on the 10⁷-leaf tree the copies were 6 % of the search's instructions); beyond
/// this it doubles as before.
const RESERVED: usize = 1 << 20;

impl Memory {
    const ROOT: usize = 0;

    /// An empty memory for a tree of `nodes` nodes (so far): room for that many slots, up to
    /// [`RESERVED`].
    fn new(nodes: usize) -> Memory {
        let room = nodes.clamp(1, RESERVED);
        let mut slots = Vec::with_capacity(room);
        // A search writes a few MiB of slots once each: on 4 KiB pages their faults were a
        // third of MTD(f)'s time on the 10⁷-leaf tree (one fault a 170 slots).
        crate::memory::huge_pages(&mut slots);
        slots.push(Slot::default());
        let mut leaves = Vec::with_capacity(room);
        leaves.push(0);
        Memory { slots, leaves }
    }

    #[inline]
    fn get(&self, slot: usize) -> (f64, f64) {
        let s = &self.slots[slot];
        (f64::from_bits(s.lo ^ LO), f64::from_bits(s.hi ^ HI))
    }

    #[inline]
    fn set(&mut self, slot: usize, lo: f64, hi: f64) {
        let s = &mut self.slots[slot];
        (s.lo, s.hi) = (lo.to_bits() ^ LO, hi.to_bits() ^ HI);
    }

    /// The first slot of the `count` children of the node in `slot`, appended if new.
    #[inline]
    fn children(&mut self, slot: usize, count: usize) -> usize {
        if self.slots[slot].children == 0 {
            self.slots[slot].children = append(&mut self.slots, count);
        }
        self.slots[slot].children as usize
    }

    /// The first leaf byte of the `count` children, all leaves, of the node in `slot`,
    /// appended if new.
    #[inline]
    fn leaves(&mut self, slot: usize, count: usize) -> usize {
        if self.slots[slot].children == 0 {
            self.slots[slot].children = append(&mut self.leaves, count);
        }
        self.slots[slot].children as usize
    }
}

/// Appends a block of `count` defaults to `v`; where it starts.
fn append<T: Copy + Default>(v: &mut Vec<T>, count: usize) -> u32 {
    let first = v.len();
    v.resize(first + count, T::default());
    // Node ids are `u32`, and every slot or byte is a different node.
    first as u32
}
