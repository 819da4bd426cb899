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
//! Ties go to the leftmost node by its path from the root (`Lefts`), and what SSS* keeps
//! about a node sits in a table of sibling blocks (`Slots`): no pass over the whole tree, no
//! per-node array of its size, unless the paths do not fit in 64 bits. OPEN is a stack for the
//! current merit and a heap for the lower ones (`Open`). A node whose children are all leaves
//! evaluates them in one loop, in the order OPEN would take them, and puts in OPEN only the
//! state OPEN would keep (`leaves_of_max`, `leaves_of_min`).
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
use crate::tree::{Kind, NodeId, Nodes};

#[derive(Copy, Clone, PartialEq, Eq)]
struct State {
    /// The order of OPEN in one integer: the merit (by `f64::total_cmp`) in the high half, the
    /// node's place left to right ([`Lefts`]: smaller is further left) inverted in the low half,
    /// so that the greatest key is the state with the highest merit, ties to the leftmost.
    key: u128,
    node: NodeId,
    /// The node's [`Slot`]; [`NO_SLOT`] for a child of a node whose children are all leaves
    /// (they have none).
    slot: u32,
    /// The parent's slot; [`NO_SLOT`] for the root.
    parent: u32,
    /// The node's depth (the root's is 0) and, in the top bits, whether the state is SOLVED
    /// and whether the node is a leaf (known where the state is made, so that taking a SOLVED
    /// state reads nothing of the tree's columns to tell).
    depth: u32,
}

const SOLVED: u32 = 1 << 31;
const LEAF: u32 = 1 << 30;

impl State {
    #[inline]
    fn key(merit: f64, left: u64) -> u128 {
        u128::from(State::order(merit)) << 64 | u128::from(!left)
    }

    /// A merit as the key's high half: `f64::total_cmp`'s order as unsigned integers.
    #[inline]
    fn order(merit: f64) -> u64 {
        let b = merit.to_bits();
        if b >> 63 == 1 { !b } else { b | 1 << 63 }
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

    #[inline]
    fn solved(&self) -> bool {
        self.depth & SOLVED != 0
    }

    #[inline]
    fn leaf(&self) -> bool {
        self.depth & LEAF != 0
    }

    #[inline]
    fn depth(&self) -> u32 {
        self.depth & !(SOLVED | LEAF)
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

/// On a lazy tree, whose largest branching is unknown before the search, a move's position
/// takes 8 bits: SSS* searches games to at most 8 plies with at most [`LAZY_MOVES`] moves a
/// position (the lazy tree refuses a position with more, and the run refuses deeper searches).
pub const LAZY_WIDTH: u32 = 8;

/// The most moves a position of a lazily searched game may have under SSS*, unless the game
/// declares its own ([`crate::game::Game::most_moves`]).
pub const LAZY_MOVES: u32 = (1 << LAZY_WIDTH) - 1;

/// The bits a move's position (from 1) takes among at most `moves` siblings.
pub fn width(moves: u32) -> u32 {
    u32::BITS - moves.leading_zeros()
}

impl Lefts {
    fn new<T: Nodes>(tree: &T) -> Lefts {
        let width = match tree.max_branching() {
            Some(b) => width(b),
            None => LAZY_WIDTH,
        };
        match (tree.height() as u64).checked_mul(u64::from(width)) {
            Some(bits) if bits <= 64 => Lefts::Paths { width },
            _ => Lefts::Ranks(
                tree.preorder_ranks()
                    .expect("SSS* on a lazy tree is refused deeper than 64 / LAZY_WIDTH plies"),
            ),
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

/// What SSS* keeps about a node it has reached (the root, or a child of an expanded node
/// with an interior child). Slots are laid out by sibling blocks: the root's is 0, and a node's
/// children get a block of consecutive slots when it is expanded, unless they are all leaves:
/// a leaf is never expanded, and its state finds its parent by the state's `parent`. The table
/// grows with the nodes expanded, not with the tree.
///
/// An expanded node's slot also keeps its kind, first child and child count, read from the
/// tree when it is expanded: a child's SOLVED state, taken much later, needs all three of its
/// parent, and the parent's slot is read anyway (the tree's columns, by then, are mostly out
/// of the cache).
#[derive(Copy, Clone)]
struct Slot {
    /// The merit the node had when it was expanded (the upper end of its window), as bits.
    entry: u64,
    /// The parent's slot; [`NO_SLOT`] for the root.
    parent: u32,
    /// The slot of the first child; 0 while the children have no block (0 is the root's).
    children: u32,
    node: NodeId,
    /// The first child and the number of children, once expanded.
    first: u32,
    count: u32,
    /// Whether the node is a Max node, once expanded.
    max: bool,
    status: Status,
}

const NO_SLOT: u32 = u32::MAX;

/// The most slots reserved up front (24 MiB); beyond, the table doubles.
const RESERVED: usize = 1 << 20;

struct Slots(Vec<Slot>);

impl Slots {
    /// The root's slot, with room for the slots of a tree of `nodes` nodes (so far), up to
    /// [`RESERVED`]: address space, faulted in as the blocks are written, instead of the
    /// copies of growing by doubling from one slot.
    fn new(root: NodeId, nodes: usize) -> Slots {
        let mut slots = Vec::with_capacity(nodes.clamp(1, RESERVED));
        // A few MiB written once each, in a single run: on 4 KiB pages their faults were a
        // sixth of the search's time.
        crate::memory::huge_pages(&mut slots);
        slots.push(Slot::waiting(root, NO_SLOT));
        Slots(slots)
    }

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

    /// Expands interior node `n`, in `slot`, with merit `h`: open, its entry merit set, and a
    /// block of slots for its children unless they are all leaves; its kind, first child and
    /// child count kept in its slot (see [`Slot`]) and returned.
    #[inline]
    fn expand<T: Nodes>(&mut self, tree: &T, n: NodeId, kind: Kind, slot: u32, h: f64) -> Expanded {
        let (first, count) = (tree.child(n, 0).0, tree.child_count(n));
        let block = self.0.len();
        let s = &mut self.0[slot as usize];
        s.status = Status::Open;
        s.entry = h.to_bits();
        (s.first, s.count, s.max) = (first, count as u32, kind == Kind::Max);
        let slots = if s.children != 0 {
            s.children
        } else if tree.children_all_leaves(n) {
            NO_SLOT
        } else {
            // Node ids are `u32` and every slot is a different node.
            s.children = block as u32;
            let children = (first..first + count as u32).map(|c| Slot::waiting(NodeId(c), slot));
            self.0.extend(children);
            block as u32
        };
        Expanded {
            slots,
            first,
            count,
        }
    }
}

/// A node just expanded ([`Slots::expand`]): its first child's slot ([`NO_SLOT`] when its
/// children are all leaves, which have none), its first child and its child count.
struct Expanded {
    slots: u32,
    first: u32,
    count: usize,
}

impl Slot {
    fn waiting(node: NodeId, parent: u32) -> Slot {
        Slot {
            entry: f64::INFINITY.to_bits(),
            parent,
            children: 0,
            node,
            first: 0,
            count: 0,
            max: false,
            status: Status::Waiting,
        }
    }
}

/// The OPEN list: the state with the greatest key first. Merits never increase (a state pushed
/// has at most the merit of the state just taken), so OPEN is kept in two parts: the states of
/// the current merit (the last taken state's), where most pushes go, and the others, a heap.
///
/// The current merit's states need no heap: they are a stack, the leftmost on top. Every state
/// pushed at the current merit comes from the state just taken, the leftmost of OPEN at that
/// merit, and stands left of every other live state there:
/// - a Max node's children and a Min node's first child lie below it, and no other state does
///   (the live states of OPEN are never one below another);
/// - a solved node's next sibling follows its subtree, where no state is left;
/// - a solved node's parent is before it, and no live state is below the parent but it (a Max
///   parent's other children are purged, a Min parent searches one child at a time).
///
/// So pushing on top keeps the live states of the stack in order (a Max node pushes its
/// children last first). Purged states stay where they are until they are taken and dropped;
/// one on top is compared with the heap's top as it is: every live state under it was there
/// when it was pushed, so is further right, and has a smaller key. Taking the greater of the two
/// tops is taking OPEN's greatest live state, the same order as one heap.
#[derive(Default)]
struct Open {
    current: Vec<State>,
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
        let s = match (self.current.last(), self.rest.peek()) {
            (Some(c), Some(r)) if r.key > c.key => self.rest.pop(),
            (Some(_), _) => self.current.pop(),
            (None, _) => self.rest.pop(),
        }?;
        let merit = (s.key >> 64) as u64;
        if merit != self.merit {
            // A lower merit: the stack is empty (its states had a greater one).
            debug_assert!(self.current.is_empty());
            self.merit = merit;
        }
        Some(s)
    }
}

/// Stockman's SSS*: best-first, with the OPEN list of states ordered by their merit.
pub fn search<T: Nodes, O: Observer>(tree: &T, obs: &mut O) -> Found {
    let lefts = Lefts::new(tree);
    let root = tree.root();
    let mut slots = Slots::new(root, tree.len());
    let mut open = Open::default();
    let mut walk = Walk::default();
    open.push(State {
        key: State::key(f64::INFINITY, 0),
        node: root,
        slot: 0,
        parent: NO_SLOT,
        depth: 0,
    });
    while let Some(s) = open.pop() {
        // Lazy purging: every current state's parent is open (the root has none), so a state
        // whose parent is not has been purged. O(1) a state, whatever the depth.
        if s.parent != NO_SLOT && slots.status(s.parent) != Status::Open {
            continue;
        }
        let (n, h, left, d) = (s.node, s.merit(), s.left(), s.depth());
        if !s.solved() {
            let kind = tree.kind(n);
            if kind == Kind::Leaf {
                let v = tree.value(n);
                obs.fresh_leaf(n, v);
                open.push(State {
                    key: State::key(h.min(v), left),
                    depth: d | SOLVED | LEAF,
                    ..s
                });
                continue;
            }
            obs.enter(n, f64::NEG_INFINITY, h);
            let Expanded {
                slots: first,
                first: fc,
                count,
            } = slots.expand(tree, n, kind, s.slot, h);
            let child = |i: usize| {
                let c = NodeId(fc + i as u32);
                State {
                    key: State::key(h, lefts.child(left, d, i, c)),
                    node: c,
                    slot: first + i as u32,
                    parent: s.slot,
                    depth: d + 1,
                }
            };
            if kind != Kind::Max {
                open.push(if first == NO_SLOT {
                    leaves_of_min(tree, &s, (fc, count), 0, &lefts, obs)
                } else {
                    child(0)
                });
            } else if first == NO_SLOT {
                if let Some(solved) = leaves_of_max(tree, &s, (fc, count), &lefts, obs) {
                    open.push(solved);
                }
            } else {
                // The first child on top of OPEN's stack ([`Open`]).
                for i in (0..count).rev() {
                    open.push(child(i));
                }
            }
            continue;
        }
        if !s.leaf() {
            // Solved with merit h = min(entry merit, true value): exact below the entry merit.
            let bound = Bound::classify(h, f64::NEG_INFINITY, slots.entry(s.slot));
            obs.exit(n, h, bound);
            slots.set_status(s.slot, Status::Closed);
        }
        if s.parent == NO_SLOT {
            return Found::exact(h);
        }
        let ps = slots.0[s.parent as usize];
        let p = ps.node;
        let up = State {
            key: State::key(h, lefts.parent(left, d, p)),
            node: p,
            slot: s.parent,
            parent: ps.parent,
            depth: (d - 1) | SOLVED,
        };
        let (i, count) = ((n.0 - ps.first) as usize, ps.count as usize);
        if ps.max {
            let skipped = (count - i - 1) as u32;
            obs.cutoff(p, i as u32, skipped, Cutoff::Beta);
            abandon(p, s.parent, h, &mut slots, &mut walk, obs);
            open.push(up);
        } else if s.slot == NO_SLOT && i + 1 < count {
            open.push(leaves_of_min(
                tree,
                &up,
                (ps.first, count),
                i + 1,
                &lefts,
                obs,
            ));
        } else if i + 1 < count {
            let next = NodeId(n.0 + 1);
            open.push(State {
                key: State::key(h, lefts.next(left, d, next)),
                node: next,
                slot: s.slot + 1,
                parent: s.parent,
                depth: d,
            });
        } else {
            open.push(up);
        }
    }
    unreachable!("SSS* ends when the root is solved")
}

/// A LIVE Max node whose children are all leaves has just been expanded (state `s`, merit h).
/// Put in OPEN LIVE, its children would be on top, taken one after another and evaluated, each
/// put back SOLVED with merit min(h, value): a child keeping merit h would be taken next and
/// solve the Max node (purging its siblings), and otherwise the greatest of the lower merits
/// (ties: the leftmost) would, when its turn came. So the children are evaluated here, in
/// order, up to the first that keeps h, and only the SOLVED state that would be taken goes
/// into OPEN: the same events in the same order, without the states that would be purged.
fn leaves_of_max<T: Nodes, O: Observer>(
    tree: &T,
    s: &State,
    (first, count): (u32, usize),
    lefts: &Lefts,
    obs: &mut O,
) -> Option<State> {
    let h = s.merit();
    let top = State::order(h);
    // The best so far: its merit's order, then the smallest position.
    let mut best: Option<(u64, usize, f64)> = None;
    for (i, &v) in tree.values_from(first, count).iter().enumerate() {
        obs.fresh_leaf(NodeId(first + i as u32), v);
        let m = h.min(v);
        let order = State::order(m);
        if best.is_none_or(|(o, _, _)| order > o) {
            best = Some((order, i, m));
        }
        if order == top {
            break;
        }
    }
    let (_, i, m) = best?;
    let c = NodeId(first + i as u32);
    let d = s.depth();
    Some(State {
        key: State::key(m, lefts.child(s.left(), d, i, c)),
        node: c,
        slot: NO_SLOT,
        parent: s.slot,
        depth: (d + 1) | SOLVED | LEAF,
    })
}

/// A Min node whose children are all leaves (its state `p`) searches its children from the
/// `from`-th with merit h: just expanded (`from` = 0, h its merit), or after the child before
/// was solved with merit h. Each child would be put in OPEN LIVE, on top, taken next and
/// evaluated, and put back SOLVED with merit min(h, value): a child keeping merit h would be
/// taken next and make way for the next child, so the children are evaluated here, in order,
/// while they keep h. The state returned is the one the last would put in OPEN: the first
/// child to lower the merit, SOLVED with its value, else the Min node, SOLVED with merit h.
#[inline]
fn leaves_of_min<T: Nodes, O: Observer>(
    tree: &T,
    p: &State,
    (first, count): (u32, usize),
    from: usize,
    lefts: &Lefts,
    obs: &mut O,
) -> State {
    let (h, d) = (p.merit(), p.depth());
    let top = State::order(h);
    let values = tree.values_from(first, count);
    for (i, &v) in values.iter().enumerate().skip(from) {
        let c = NodeId(first + i as u32);
        obs.fresh_leaf(c, v);
        if v > h {
            // min(h, v) is h itself: the merit stays (the common case, tested first).
            continue;
        }
        let m = h.min(v);
        if State::order(m) != top {
            return State {
                key: State::key(m, lefts.child(p.left(), d, i, c)),
                node: c,
                slot: NO_SLOT,
                parent: p.slot,
                depth: (d + 1) | SOLVED | LEAF,
            };
        }
    }
    State {
        key: State::key(h, p.left()),
        depth: d | SOLVED,
        ..*p
    }
}

/// Max node `p` (in slot `ps`) is solved with merit `h`: the nodes below it that were expanded
/// and not solved are abandoned. Each is reported as left (deepest first) with what SSS*
/// proved about it: an upper bound `h` when `h` is below its entry merit (every state below it
/// had a merit of at most `h`), else nothing (`+∞`, upper). `p` is closed, so the states below
/// it are purged. Only open nodes are walked: each node is abandoned at most once.
fn abandon<O: Observer>(
    p: NodeId,
    ps: u32,
    h: f64,
    slots: &mut Slots,
    walk: &mut Walk,
    obs: &mut O,
) {
    slots.set_status(ps, Status::Closed);
    let Walk { stack, found } = walk;
    found.clear();
    stack.clear();
    stack.push((p, ps));
    while let Some((_, xs)) = stack.pop() {
        // An open node has been expanded: its slot knows its children.
        let Slot {
            children: first,
            first: child,
            count,
            ..
        } = slots.0[xs as usize];
        if first == 0 {
            continue;
        }
        let block = &mut slots.0[first as usize..(first + count) as usize];
        for (i, s) in block.iter_mut().enumerate() {
            if s.status == Status::Open {
                s.status = Status::Closed;
                let c = (NodeId(child + i as u32), first + i as u32);
                found.push(c);
                stack.push(c);
            }
        }
    }
    // `found` lists parents before their children: leave them in reverse.
    for &(x, xs) in found.iter().rev() {
        let e = slots.entry(xs);
        obs.exit(x, if h < e { h } else { f64::INFINITY }, Bound::Upper);
    }
}

/// [`abandon`]'s buffers, kept across its calls (a Max node is solved at every cutoff): the
/// walk's stack, and the open nodes it finds, parents first.
#[derive(Default)]
struct Walk {
    stack: Vec<(NodeId, u32)>,
    found: Vec<(NodeId, u32)>,
}
