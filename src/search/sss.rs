//! SSS* (Stockman 1979; beyond the papers): best-first search over solution trees.
//!
//! States `(node, status, merit)` wait in OPEN; the one with the highest merit (ties: the
//! leftmost node) is taken and the Γ operator applied:
//!
//! | state taken | what goes into OPEN |
//! |---|---|
//! | LIVE leaf | `(leaf, SOLVED, min(merit, value))` |
//! | LIVE Max node | `(child, LIVE, merit)` for every child |
//! | LIVE Min node | `(first child, LIVE, merit)` |
//! | SOLVED node, parent Max | `(parent, SOLVED, merit)`; every state below the parent is purged |
//! | SOLVED node, parent Min, a next sibling | `(next sibling, LIVE, merit)` |
//! | SOLVED node, parent Min, last child | `(parent, SOLVED, merit)` |
//! | SOLVED root | stop: merit is the value |
//!
//! The cases are stated by the kind of a node and of its parent, so trees that do not
//! alternate Max and Min are searched too. Every leaf is evaluated at most once.
//!
//! Ties go to the leftmost node by its path from the root ([`Lefts`]), and what SSS* keeps
//! about a node sits in a table of sibling blocks ([`Slots`]): no pass over the whole tree, no
//! per-node array of its size, unless the paths do not fit in 64 bits.
//!
//! Purging is lazy and O(1) a state: every current state's parent has been expanded and not
//! yet left, so when a Max node is solved it and the unsolved nodes expanded below it are
//! closed, and a state whose parent is closed is dropped when it reaches the top of OPEN. A
//! unary chain of n levels costs O(n log n).
//!
//! Trace (docs/TRACE.md): `enter` when an interior node is *expanded* (taken LIVE from OPEN, not
//! when it is put there), with the window (−∞, h), h its merit then; `exit` when it is SOLVED,
//! with its merit h' = min(h, true value): exact when h' < h, a lower bound when h' = h (exact
//! at the root, entered with h = +∞). A Max node solved by a child gets a beta cutoff after that
//! child (`skipped`: the children to its right); the nodes expanded below it and not solved
//! are abandoned, each reported as left with an upper bound — h' when below its own entry
//! merit, else +∞ (nothing proved) — so every `enter` has its `exit`.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{Bound, Cutoff, Found, Observer};
use crate::tree::{Kind, NodeId, Tree};

#[derive(Copy, Clone, PartialEq, Eq)]
struct State {
    /// The order of OPEN in one integer: the merit (by `f64::total_cmp`) in the high half, the
    /// node's place left to right ([`Lefts`]: smaller is further left) inverted in the low half,
    /// so that the greatest key is the state with the highest merit, ties to the leftmost.
    key: u128,
    node: NodeId,
    /// The node's [`Slot`].
    slot: u32,
    /// The node's depth (the root's is 0).
    depth: u32,
    solved: bool,
}

impl State {
    #[inline]
    fn key(merit: f64, left: u64) -> u128 {
        // `f64::total_cmp`'s order as unsigned integers.
        let b = merit.to_bits();
        let m = if b >> 63 == 1 { !b } else { b | 1 << 63 };
        u128::from(m) << 64 | u128::from(!left)
    }

    #[inline]
    fn merit(&self) -> f64 {
        let m = (self.key >> 64) as u64;
        f64::from_bits(if m >> 63 == 1 { m & !(1 << 63) } else { !m })
    }

    #[inline]
    fn left(&self) -> u64 {
        !(self.key as u64)
    }
}

impl Ord for State {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        self.key.cmp(&o.key)
    }
}

impl PartialOrd for State {
    #[inline]
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Ties in OPEN go to the leftmost node: the one first in preorder. Two ways to number nodes
/// in that order, with the same comparisons:
/// - `Paths`: the path from the root, child positions from 1 as digits of `width` bits, the
///   first move in the highest digit, zeros below the node's depth. An ancestor sorts before
///   its descendants (its key is a prefix, then zeros), and otherwise the first differing move
///   decides: preorder. Computed from the state the new one comes from, in O(1), when the
///   height times `width` fits in 64 bits (10 levels of up to 63 children, say).
/// - `Ranks`: preorder positions of all the nodes, an O(n) pass, for the other trees.
enum Lefts {
    Paths { width: u32 },
    Ranks(Vec<u32>),
}

impl Lefts {
    fn new(tree: &Tree) -> Lefts {
        let width = u64::BITS - u64::from(tree.max_branching()).leading_zeros();
        match (tree.height() as u64).checked_mul(u64::from(width)) {
            Some(bits) if bits <= 64 => Lefts::Paths { width },
            _ => Lefts::Ranks(tree.preorder_ranks()),
        }
    }

    /// The shift of the digit of depth `d` (≥ 1).
    #[inline]
    fn shift(width: u32, d: u32) -> u32 {
        64 - d * width
    }

    /// Child `i` (from 0), node `c`, of the node at `left`, depth `d`.
    #[inline]
    fn child(&self, left: u64, d: u32, i: usize, c: NodeId) -> u64 {
        match self {
            Lefts::Paths { width } => left | (i as u64 + 1) << Lefts::shift(*width, d + 1),
            Lefts::Ranks(rank) => u64::from(rank[c.index()]),
        }
    }

    /// The next sibling, node `c`, of the node at `left`, depth `d`.
    #[inline]
    fn next(&self, left: u64, d: u32, c: NodeId) -> u64 {
        match self {
            Lefts::Paths { width } => left + (1 << Lefts::shift(*width, d)),
            Lefts::Ranks(rank) => u64::from(rank[c.index()]),
        }
    }

    /// The parent, node `p`, of the node at `left`, depth `d`.
    #[inline]
    fn parent(&self, left: u64, d: u32, p: NodeId) -> u64 {
        match self {
            Lefts::Paths { width } => {
                let digit = (1u64 << width) - 1;
                left & !(digit << Lefts::shift(*width, d))
            }
            Lefts::Ranks(rank) => u64::from(rank[p.index()]),
        }
    }
}

/// Where a node stands in SSS*: the trace's `enter` and `exit` follow these.
#[derive(Copy, Clone, PartialEq, Eq)]
#[repr(u8)]
enum Status {
    /// Not expanded (perhaps LIVE in OPEN): not entered.
    Waiting,
    /// Expanded, not yet left: states below it in OPEN are current.
    Open,
    /// Solved, abandoned, or a Max node solved by a child whose own SOLVED state is still in
    /// OPEN: every state below it is stale and is dropped when it reaches the top.
    Closed,
}

/// What SSS* keeps about a node it has reached (the root, or a child of an expanded node).
/// Slots are laid out by sibling blocks: the root's is 0, and a node's children get a block of
/// consecutive slots when it is expanded. The table grows with the nodes expanded, not with
/// the tree.
#[derive(Copy, Clone)]
struct Slot {
    /// The merit the node had when it was expanded (the upper end of its window), as bits.
    entry: u64,
    /// The parent's slot; [`NO_SLOT`] for the root.
    parent: u32,
    /// The slot of the first child; 0 until the node is expanded (0 is the root's).
    children: u32,
    status: Status,
}

const NO_SLOT: u32 = u32::MAX;

struct Slots(Vec<Slot>);

impl Slots {
    #[inline]
    fn status(&self, slot: u32) -> Status {
        self.0[slot as usize].status
    }

    #[inline]
    fn set_status(&mut self, slot: u32, s: Status) {
        self.0[slot as usize].status = s;
    }

    #[inline]
    fn entry(&self, slot: u32) -> f64 {
        f64::from_bits(self.0[slot as usize].entry)
    }

    /// Expands the node in `slot` with merit `h`: open, its entry merit set, a block of slots
    /// for its `count` children; returns the first.
    #[inline]
    fn expand(&mut self, slot: u32, h: f64, count: usize) -> u32 {
        let first = self.0.len();
        let s = &mut self.0[slot as usize];
        s.status = Status::Open;
        s.entry = h.to_bits();
        if s.children != 0 {
            return s.children;
        }
        // Node ids are `u32` and every slot is a different node.
        s.children = first as u32;
        let child = Slot {
            entry: f64::INFINITY.to_bits(),
            parent: slot,
            children: 0,
            status: Status::Waiting,
        };
        self.0.resize(first + count, child);
        first as u32
    }
}

/// The OPEN list: the state with the greatest key first. Merits never increase (a state pushed
/// has at most the merit of the state just taken), so OPEN is kept as two heaps: the states of
/// the current merit (the last taken state's), where most pushes go, and the others. Taking the
/// greater of the two tops is taking OPEN's greatest state: the same order as one heap, with
/// smaller heaps.
#[derive(Default)]
struct Open {
    current: BinaryHeap<State>,
    /// The merit of the last state taken, as its key's high half.
    merit: u64,
    rest: BinaryHeap<State>,
}

impl Open {
    #[inline]
    fn push(&mut self, s: State) {
        if (s.key >> 64) as u64 == self.merit {
            self.current.push(s)
        } else {
            self.rest.push(s)
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<State> {
        let s = match (self.current.peek(), self.rest.peek()) {
            (Some(c), Some(r)) if r.key > c.key => self.rest.pop(),
            (Some(_), _) => self.current.pop(),
            (None, _) => self.rest.pop(),
        }?;
        let merit = (s.key >> 64) as u64;
        if merit != self.merit {
            // A lower merit: the current heap is empty (its states had a greater one).
            debug_assert!(self.current.is_empty());
            self.merit = merit;
        }
        Some(s)
    }
}

/// Stockman's SSS*: best-first, with the OPEN list of states ordered by their merit.
pub fn search<O: Observer>(tree: &Tree, obs: &mut O) -> Found {
    let lefts = Lefts::new(tree);
    let mut slots = Slots(vec![Slot {
        entry: f64::INFINITY.to_bits(),
        parent: NO_SLOT,
        children: 0,
        status: Status::Waiting,
    }]);
    let mut open = Open::default();
    let mut stack = Vec::new();
    let root = tree.root();
    open.push(State {
        key: State::key(f64::INFINITY, 0),
        node: root,
        slot: 0,
        depth: 0,
        solved: false,
    });
    while let Some(s) = open.pop() {
        // Lazy purging: every current state's parent is open (the root has none), so a state
        // whose parent is not has been purged. O(1) a state, whatever the depth.
        let parent = slots.0[s.slot as usize].parent;
        if parent != NO_SLOT && slots.status(parent) != Status::Open {
            continue;
        }
        let (n, h, left) = (s.node, s.merit(), s.left());
        if !s.solved {
            match tree.kind(n) {
                Kind::Leaf => {
                    let v = tree.value(n);
                    obs.fresh_leaf(n, v);
                    open.push(State {
                        key: State::key(h.min(v), left),
                        solved: true,
                        ..s
                    });
                }
                kind => {
                    obs.enter(n, f64::NEG_INFINITY, h);
                    let count = tree.child_count(n);
                    let first = slots.expand(s.slot, h, count);
                    let child = |i: usize| {
                        let c = tree.child(n, i);
                        State {
                            key: State::key(h, lefts.child(left, s.depth, i, c)),
                            node: c,
                            slot: first + i as u32,
                            depth: s.depth + 1,
                            solved: false,
                        }
                    };
                    if kind == Kind::Max {
                        for i in 0..count {
                            open.push(child(i));
                        }
                    } else {
                        open.push(child(0));
                    }
                }
            }
            continue;
        }
        if !tree.is_leaf(n) {
            // Solved with merit h = min(entry merit, true value): exact below the entry merit.
            let bound = Bound::classify(h, f64::NEG_INFINITY, slots.entry(s.slot));
            obs.exit(n, h, bound);
            slots.set_status(s.slot, Status::Closed);
        }
        let Some(p) = tree.parent(n) else {
            return Found::exact(h);
        };
        let up = State {
            key: State::key(h, lefts.parent(left, s.depth, p)),
            node: p,
            slot: parent,
            depth: s.depth - 1,
            solved: true,
        };
        let i = (s.slot - slots.0[parent as usize].children) as usize;
        if tree.kind(p) == Kind::Max {
            let skipped = (tree.child_count(p) - i - 1) as u32;
            obs.cutoff(p, i as u32, skipped, Cutoff::Beta);
            abandon(tree, p, parent, h, &mut slots, &mut stack, obs);
            open.push(up);
        } else if i + 1 < tree.child_count(p) {
            let next = NodeId(n.0 + 1);
            open.push(State {
                key: State::key(h, lefts.next(left, s.depth, next)),
                node: next,
                slot: s.slot + 1,
                depth: s.depth,
                solved: false,
            });
        } else {
            open.push(up);
        }
    }
    unreachable!("SSS* ends when the root is solved")
}

/// Max node `p` (in slot `ps`) is solved with merit `h`: the nodes below it that were expanded
/// and not solved are abandoned. Each is reported as left (deepest first) with what SSS*
/// proved about it: an upper bound `h` when `h` is below its entry merit (every state below it
/// had a merit of at most `h`), else nothing (`+∞`, upper). `p` is closed, so the states below
/// it are purged. Only open nodes are walked: each node is abandoned at most once.
fn abandon<O: Observer>(
    tree: &Tree,
    p: NodeId,
    ps: u32,
    h: f64,
    slots: &mut Slots,
    stack: &mut Vec<(NodeId, u32)>,
    obs: &mut O,
) {
    slots.set_status(ps, Status::Closed);
    let mut found = Vec::new();
    stack.clear();
    stack.push((p, ps));
    while let Some((x, xs)) = stack.pop() {
        let first = slots.0[xs as usize].children;
        if first == 0 {
            continue;
        }
        for (i, c) in tree.children(x).enumerate() {
            let cs = first + i as u32;
            if slots.status(cs) == Status::Open {
                slots.set_status(cs, Status::Closed);
                found.push((c, cs));
                stack.push((c, cs));
            }
        }
    }
    // `found` lists parents before their children: leave them in reverse.
    for &(x, xs) in found.iter().rev() {
        let e = slots.entry(xs);
        obs.exit(x, if h < e { h } else { f64::INFINITY }, Bound::Upper);
    }
}
