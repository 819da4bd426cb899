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
//! alternate Max and Min are searched too. Every leaf is evaluated at most once. Purging is
//! lazy: a solved Max node is marked, and a state whose node lies below a marked one is dropped
//! when it reaches the top of OPEN. Trace: `enter` when a node first goes LIVE (its window's
//! upper end is its merit), `exit` with an upper bound when it is SOLVED (exact at the root),
//! and a beta cutoff at a Max node solved before all its children were.

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

/// Stockman's SSS*: best-first, with the OPEN list of states ordered by their merit.
pub fn search<O: Observer>(tree: &Tree, obs: &mut O) -> Found {
    let mut rank = vec![0u32; tree.len()];
    for (i, id) in tree.preorder().enumerate() {
        rank[id.index()] = i as u32;
    }
    let mut closed = vec![false; tree.len()]; // solved Max nodes: their subtrees are purged
    let mut open = BinaryHeap::new();
    let state = |node: NodeId, merit: f64, solved: bool| State {
        merit,
        left: rank[node.index()],
        node,
        solved,
    };
    let root = tree.root();
    if !tree.is_leaf(root) {
        obs.enter(root, f64::NEG_INFINITY, f64::INFINITY);
    }
    open.push(state(root, f64::INFINITY, false));
    while let Some(s) = open.pop() {
        let purged = {
            let mut a = tree.parent(s.node);
            let mut hit = false;
            while let Some(p) = a {
                if closed[p.index()] {
                    hit = true;
                    break;
                }
                a = tree.parent(p);
            }
            hit
        };
        if purged {
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
                Kind::Max => {
                    for c in tree.children(n) {
                        live(tree, c, h, obs);
                        open.push(state(c, h, false));
                    }
                }
                _ => {
                    let c = tree.child(n, 0);
                    live(tree, c, h, obs);
                    open.push(state(c, h, false));
                }
            }
            continue;
        }
        if !tree.is_leaf(n) {
            obs.exit(
                n,
                h,
                if n == root {
                    Bound::Exact
                } else {
                    Bound::Upper
                },
            );
        }
        let Some(p) = tree.parent(n) else {
            return Found::exact(h);
        };
        if tree.kind(p) == Kind::Max {
            let i = tree.child_index(n);
            let skipped = (tree.child_count(p) - i - 1) as u32;
            obs.cutoff(p, i as u32, skipped, Cutoff::Beta);
            closed[p.index()] = true;
            open.push(state(p, h, true));
        } else if tree.child_index(n) + 1 < tree.child_count(p) {
            let next = NodeId(n.0 + 1);
            live(tree, next, h, obs);
            open.push(state(next, h, false));
        } else {
            open.push(state(p, h, true));
        }
    }
    unreachable!("SSS* ends when the root is solved")
}

/// A node goes LIVE with merit `h`: reported as entering it with the window (−∞, h).
fn live<O: Observer>(tree: &Tree, node: NodeId, h: f64, obs: &mut O) {
    if !tree.is_leaf(node) {
        obs.enter(node, f64::NEG_INFINITY, h);
    }
}
