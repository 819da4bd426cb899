//! What makes a transposition table sound on an explicit tree: nodes with equal position keys
//! are the same position, so their subtrees must be equal — in kinds, leaf values (payoffs),
//! heuristic values, probabilities and children. Children may come in another order: a game may
//! list one position's moves in two orders (nim's keys ignore the order of the heaps), and a
//! permutation changes no minimax or expectiminimax value at any depth; a best move the table
//! gives then orders the children differently, which changes no value either. Keys themselves and
//! labels are not compared: a search reads neither.
//!
//! Checked in time linear in the tree (times log b for sorting b children, where they differ in
//! order): every subtree gets a class, bottom-up, such that two subtrees are equal exactly when
//! their classes are. A node's class is found by hashing what its own node holds and its
//! children's classes (order aside); nodes of equal hashes are then compared entry by entry (one
//! level: their children's classes stand for the rest), so a hash collision can never make two
//! different subtrees one class.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use super::{Kind, NodeId, Tree};

/// Two nodes that share a key and whose subtrees differ, and the first difference found.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyClash {
    /// The first node of the pair.
    pub a: NodeId,
    /// The second node, with the same key.
    pub b: NodeId,
    /// Where below `a` and `b` (the same path under each) the subtrees first differ.
    pub at: (NodeId, NodeId),
    /// How the subtrees differ there.
    pub why: String,
}

/// The first pair of nodes (in arena order) that share a key and head different subtrees.
pub(super) fn find_clash(tree: &Tree) -> Option<KeyClash> {
    let mut first: HashMap<u64, NodeId> = HashMap::new();
    let mut twins = Vec::new();
    for id in tree.ids() {
        if let Some(key) = tree.key(id) {
            let f = *first.entry(key).or_insert(id);
            if f != id {
                twins.push((f, id));
            }
        }
    }
    if twins.is_empty() {
        return None;
    }
    let class = classes(tree);
    twins
        .into_iter()
        .find(|&(a, b)| class[a.index()] != class[b.index()])
        .map(|(a, b)| {
            let (at, why) = first_difference(tree, &class, a, b);
            KeyClash { a, b, at, why }
        })
}

/// Every subtree's class, indexed by node id: equal classes ⇔ equal subtrees.
fn classes(tree: &Tree) -> Vec<u32> {
    let mut class = vec![0u32; tree.len()];
    // The first node of each class, and the next class of the same hash (a chain, for the
    // rare collision).
    let mut first: Vec<NodeId> = Vec::new();
    let mut next: Vec<Option<u32>> = Vec::new();
    let mut by_hash: HashMap<u64, u32> = HashMap::new();
    // Children have larger ids than their parent: a reverse sweep classes them first.
    for i in (0..tree.len()).rev() {
        let id = NodeId(i as u32);
        let h = hash_node(tree, &class, id);
        let mut slot = by_hash.get(&h).copied();
        let mut last = None;
        while let Some(c) = slot {
            if level_difference(tree, &class, first[c as usize], id).is_none() {
                break;
            }
            last = Some(c);
            slot = next[c as usize];
        }
        class[i] = slot.unwrap_or_else(|| {
            let c = first.len() as u32;
            first.push(id);
            next.push(None);
            match last {
                Some(l) => next[l as usize] = Some(c),
                None => {
                    by_hash.insert(h, c);
                }
            }
            c
        });
    }
    class
}

/// −0 and +0 are one value to a search.
fn bits(x: f64) -> u64 {
    (x + 0.0).to_bits()
}

fn hash_node(tree: &Tree, class: &[u32], id: NodeId) -> u64 {
    let mut h = DefaultHasher::new();
    tree.kind(id).hash(&mut h);
    tree.heuristic(id).map(bits).hash(&mut h);
    if tree.is_leaf(id) {
        bits(tree.value(id)).hash(&mut h);
        if tree.is_multiplayer() {
            tree.payoff(id).iter().for_each(|&p| bits(p).hash(&mut h));
        }
    }
    tree.child_count(id).hash(&mut h);
    // The children's (probability, class) pairs, summed: the same in any order.
    let children = tree.children(id).fold(0u64, |sum, c| {
        let mut hc = DefaultHasher::new();
        entry(tree, class, c).hash(&mut hc);
        sum.wrapping_add(hc.finish())
    });
    children.hash(&mut h);
    h.finish()
}

/// A child as the class compares it: its probability and its class.
fn entry(tree: &Tree, class: &[u32], c: NodeId) -> (u64, u32) {
    (bits(tree.prob(c)), class[c.index()])
}

/// How `a` and `b` differ in their own entries or their children's probabilities, or the first
/// child position whose subtrees differ (by class); `None` when they head equal subtrees.
fn level_difference(tree: &Tree, class: &[u32], a: NodeId, b: NodeId) -> Option<Difference> {
    let (ka, kb) = (tree.kind(a), tree.kind(b));
    if ka != kb {
        return Some(Difference::Here(format!(
            "{} against {}",
            ka.name(),
            kb.name()
        )));
    }
    if ka == Kind::Leaf {
        let (va, vb) = (tree.value(a), tree.value(b));
        let payoffs = tree.is_multiplayer() && tree.payoff(a) != tree.payoff(b);
        if va != vb || payoffs {
            let show = |id| match tree.is_multiplayer() {
                true => crate::text::vector_text(tree.payoff(id)),
                false => crate::text::number_text(tree.value(id)),
            };
            return Some(Difference::Here(format!(
                "values {} and {}",
                show(a),
                show(b)
            )));
        }
    }
    let (ha, hb) = (tree.heuristic(a), tree.heuristic(b));
    if ha != hb {
        let show = |h: Option<f64>| h.map_or("none".to_owned(), crate::text::number_text);
        return Some(Difference::Here(format!(
            "heuristic values {} and {}",
            show(ha),
            show(hb)
        )));
    }
    let (na, nb) = (tree.child_count(a), tree.child_count(b));
    if na != nb {
        return Some(Difference::Here(format!("{na} children against {nb}")));
    }
    let same = |(ca, cb): (NodeId, NodeId)| entry(tree, class, ca) == entry(tree, class, cb);
    if tree.children(a).zip(tree.children(b)).all(same) {
        return None;
    }
    // Another order of the same children is the same position.
    let sorted = |n: NodeId| {
        let mut e: Vec<(u64, u32)> = tree.children(n).map(|c| entry(tree, class, c)).collect();
        e.sort_unstable();
        e
    };
    let mut unmatched = sorted(b);
    if sorted(a) == unmatched {
        return None;
    }
    // The first child of `a` that none of `b`'s matches, beside `b`'s child in its place.
    let (ca, cb) = tree
        .children(a)
        .zip(tree.children(b))
        .find(
            |&(ca, _)| match unmatched.binary_search(&entry(tree, class, ca)) {
                Ok(i) => {
                    unmatched.remove(i);
                    false
                }
                Err(_) => true,
            },
        )
        .expect("children that differ as sets have one without a match");
    let (pa, pb) = (tree.prob(ca), tree.prob(cb));
    if pa != pb {
        return Some(Difference::Here(format!(
            "probabilities {} and {} of child {}",
            crate::text::number_text(pa),
            crate::text::number_text(pb),
            tree.child_index(ca) + 1
        )));
    }
    if class[ca.index()] == class[cb.index()] {
        return Some(Difference::Here(format!(
            "children that differ (child {} of one has no equal among the other's)",
            tree.child_index(ca) + 1
        )));
    }
    Some(Difference::Below(ca, cb))
}

enum Difference {
    Here(String),
    Below(NodeId, NodeId),
}

/// The first place where the subtrees of `a` and `b` (of different classes) differ: a walk down
/// one path, so it costs the depth times the branching.
fn first_difference(
    tree: &Tree,
    class: &[u32],
    mut a: NodeId,
    mut b: NodeId,
) -> ((NodeId, NodeId), String) {
    loop {
        match level_difference(tree, class, a, b) {
            Some(Difference::Below(ca, cb)) => (a, b) = (ca, cb),
            Some(Difference::Here(why)) => return ((a, b), why),
            None => unreachable!("nodes of different classes differ"),
        }
    }
}
