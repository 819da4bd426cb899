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

#[derive(Copy, Clone, PartialEq)]
struct State {
    merit: f64,
    /// Preorder position of the node: smaller is further left.
    left: u32,
    node: NodeId,
    solved: bool,
}

impl Eq for State {}

impl Ord for State {
    fn cmp(&self, o: &Self) -> Ordering {
        self.merit
            .total_cmp(&o.merit)
            .then_with(|| o.left.cmp(&self.left))
    }
}

impl PartialOrd for State {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
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

/// Every node's [`Status`], a byte each, zero (`Waiting`) until set.
struct Statuses(Vec<u8>);

impl Statuses {
    #[inline]
    fn get(&self, n: NodeId) -> Status {
        match self.0[n.index()] {
            0 => Status::Waiting,
            1 => Status::Open,
            _ => Status::Closed,
        }
    }

    #[inline]
    fn set(&mut self, n: NodeId, s: Status) {
        self.0[n.index()] = s as u8;
    }
}

/// Every node's entry merit, `+∞` until set; stored as bits xor those of `+∞`.
struct Entries(Vec<u64>);

const INF: u64 = f64::INFINITY.to_bits();

impl Entries {
    #[inline]
    fn get(&self, n: NodeId) -> f64 {
        f64::from_bits(self.0[n.index()] ^ INF)
    }

    #[inline]
    fn set(&mut self, n: NodeId, h: f64) {
        self.0[n.index()] = h.to_bits() ^ INF;
    }
}

/// Stockman's SSS*: best-first, with the OPEN list of states ordered by their merit.
pub fn search<O: Observer>(tree: &Tree, obs: &mut O) -> Found {
    let rank = tree.preorder_ranks();
    let mut status = Statuses(vec![0u8; tree.len()]);
    // The merit a node had when it was expanded: the upper end of its window (the bits xor
    // those of +∞, so that the table starts as zeroed memory, handed out lazily).
    let mut entry = Entries(vec![0u64; tree.len()]);
    let mut open = BinaryHeap::new();
    let mut stack = Vec::new();
    let state = |node: NodeId, merit: f64, solved: bool| State {
        merit,
        left: rank[node.index()],
        node,
        solved,
    };
    let root = tree.root();
    open.push(state(root, f64::INFINITY, false));
    while let Some(s) = open.pop() {
        // Lazy purging: every current state's parent is open (the root has none), so a state
        // whose parent is not has been purged. O(1) a state, whatever the depth.
        if tree
            .parent(s.node)
            .is_some_and(|p| status.get(p) != Status::Open)
        {
            continue;
        }
        let (n, h) = (s.node, s.merit);
        if !s.solved {
            match tree.kind(n) {
                Kind::Leaf => {
                    let v = tree.value(n);
                    obs.leaf(n, v);
                    open.push(state(n, h.min(v), true));
                }
                kind => {
                    obs.enter(n, f64::NEG_INFINITY, h);
                    status.set(n, Status::Open);
                    entry.set(n, h);
                    if kind == Kind::Max {
                        for c in tree.children(n) {
                            open.push(state(c, h, false));
                        }
                    } else {
                        open.push(state(tree.child(n, 0), h, false));
                    }
                }
            }
            continue;
        }
        if !tree.is_leaf(n) {
            // Solved with merit h = min(entry merit, true value): exact below the entry merit.
            obs.exit(n, h, Bound::classify(h, f64::NEG_INFINITY, entry.get(n)));
            status.set(n, Status::Closed);
        }
        let Some(p) = tree.parent(n) else {
            return Found::exact(h);
        };
        if tree.kind(p) == Kind::Max {
            let i = tree.child_index(n);
            let skipped = (tree.child_count(p) - i - 1) as u32;
            obs.cutoff(p, i as u32, skipped, Cutoff::Beta);
            abandon(tree, p, h, &mut status, &entry, &mut stack, obs);
            open.push(state(p, h, true));
        } else if tree.child_index(n) + 1 < tree.child_count(p) {
            open.push(state(NodeId(n.0 + 1), h, false));
        } else {
            open.push(state(p, h, true));
        }
    }
    unreachable!("SSS* ends when the root is solved")
}

/// Max node `p` is solved with merit `h`: the nodes below it that were expanded and not solved
/// are abandoned. Each is reported as left (deepest first) with what SSS* proved about it: an
/// upper bound `h` when `h` is below its entry merit (every state below it had a merit of at
/// most `h`), else nothing (`+∞`, upper). `p` is closed, so the states below it are purged.
/// Only open nodes are walked: each node is abandoned at most once.
fn abandon<O: Observer>(
    tree: &Tree,
    p: NodeId,
    h: f64,
    status: &mut Statuses,
    entry: &Entries,
    stack: &mut Vec<NodeId>,
    obs: &mut O,
) {
    status.set(p, Status::Closed);
    let mut found = Vec::new();
    stack.clear();
    stack.push(p);
    while let Some(x) = stack.pop() {
        for c in tree.children(x) {
            if status.get(c) == Status::Open {
                status.set(c, Status::Closed);
                found.push(c);
                stack.push(c);
            }
        }
    }
    // `found` lists parents before their children: leave them in reverse.
    for &x in found.iter().rev() {
        let e = entry.get(x);
        obs.exit(x, if h < e { h } else { f64::INFINITY }, Bound::Upper);
    }
}
