//! Expectiminimax: every node searched; a chance node is worth the probability-weighted mean of
//! its children (Ballard 1982, §1). The reference Star1 and Star2 must agree with.
//!
//! How a chance node's value is computed is shared with Star1 and Star2, so a
//! chance node they search fully gets the very same floating-point number ([`super::chance`]): the sum of the
//! children's values divided by N when they are equally likely (Ballard's `vsum / N`), the sum
//! of `p_i · v_i` in child order otherwise (§7.3).
//!
//! With a transposition table (`expectiminimax:tt`; Schaeffer's slides, "Using storage") a
//! position is searched once: its value is stored under its key, and every other node of that
//! position is answered from the table without a search. Expectiminimax has no window, so every
//! entry is exact and every hit answers. Keys are checked to agree before the search
//! ([`crate::tree::Tree::key_clash`]); the value of a position is the same wherever it is met
//! because its subtree is, so the table changes no value, only the nodes visited — in Pig, the
//! same scores are reached by many orders of rolls and holds.

use super::chance::ChanceSum;
use super::tt::{Entry, Table};
use super::{Bound, Found, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// Every node searched; chance nodes worth the probability-weighted mean of their children.
pub fn search<T: Nodes, O: Observer>(tree: &T, obs: &mut O) -> Found {
    Found::exact(visit(tree, tree.root(), &mut NoTable, obs))
}

/// [`search`] with a transposition table: each position searched once.
pub fn search_with_table<T: Nodes, O: Observer>(tree: &T, obs: &mut O) -> Found {
    let mut memory = Memory {
        table: Table::default(),
        heights: tree.subtree_heights(),
    };
    Found::exact(visit(tree, tree.root(), &mut memory, obs))
}

/// The exact value of `node`.
pub fn value<T: Nodes>(tree: &T, node: NodeId) -> f64 {
    visit(tree, node, &mut NoTable, &mut super::Quiet)
}

/// Where the search looks positions up and stores them: nowhere (the plain search, at no
/// cost), or a transposition table.
trait Remember {
    /// The stored value of `node`'s position, told to the observer.
    fn recall<T: Nodes, O: Observer>(&mut self, tree: &T, node: NodeId, obs: &mut O)
    -> Option<f64>;
    fn store<T: Nodes>(&mut self, tree: &T, node: NodeId, v: f64);
}

struct NoTable;

impl Remember for NoTable {
    #[inline]
    fn recall<T: Nodes, O: Observer>(&mut self, _: &T, _: NodeId, _: &mut O) -> Option<f64> {
        None
    }
    #[inline]
    fn store<T: Nodes>(&mut self, _: &T, _: NodeId, _: f64) {}
}

/// The table, keyed by position and draft (here the subtree's height: there is no depth limit).
struct Memory {
    table: Table,
    /// Each subtree's height, or `None` for a lazy tree: then the plies left to its horizon.
    heights: Option<Vec<u32>>,
}

impl Memory {
    /// The draft `node` is stored and looked up at.
    #[inline]
    fn draft<T: Nodes>(&self, tree: &T, node: NodeId) -> u32 {
        match &self.heights {
            Some(h) => h[node.index()],
            None => tree.remaining(node),
        }
    }
}

impl Remember for Memory {
    fn recall<T: Nodes, O: Observer>(
        &mut self,
        tree: &T,
        node: NodeId,
        obs: &mut O,
    ) -> Option<f64> {
        let key = tree.key(node)?;
        obs.tt_probe(node);
        let e = self.table.get(key, self.draft(tree, node))?;
        obs.tt_hit(node, e.value, Bound::Exact, true);
        Some(e.value)
    }

    fn store<T: Nodes>(&mut self, tree: &T, node: NodeId, value: f64) {
        if let Some(key) = tree.key(node) {
            let entry = Entry {
                value,
                bound: Bound::Exact,
                best: 0,
                horizon: false,
            };
            self.table.store(key, self.draft(tree, node), entry);
        }
    }
}

fn visit<T: Nodes, O: Observer, M: Remember>(
    tree: &T,
    node: NodeId,
    memo: &mut M,
    obs: &mut O,
) -> f64 {
    if tree.is_leaf(node) {
        // Every node is visited at most once (a table hit skips a subtree, it repeats none).
        let v = tree.value(node);
        obs.fresh_leaf(node, v);
        return v;
    }
    if let Some(v) = memo.recall(tree, node, obs) {
        return v;
    }
    obs.enter(node, f64::NEG_INFINITY, f64::INFINITY);
    let v = match tree.kind(node) {
        Kind::Max => tree
            .children(node)
            .fold(f64::NEG_INFINITY, |b, c| b.max(visit(tree, c, memo, obs))),
        Kind::Min => tree
            .children(node)
            .fold(f64::INFINITY, |b, c| b.min(visit(tree, c, memo, obs))),
        _ => {
            let mut sum = ChanceSum::new(tree, node);
            for c in tree.children(node) {
                let v = visit(tree, c, memo, obs);
                sum.add(tree, c, v);
            }
            sum.value()
        }
    };
    obs.exit(node, v, Bound::Exact);
    memo.store(tree, node, v);
    v
}
