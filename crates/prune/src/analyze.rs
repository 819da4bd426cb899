//! Knuth–Moore node types and the minimal tree.
//!
//! Knuth & Moore (1975, §6) number the nodes alpha-beta must examine on a perfectly ordered
//! tree: type 1 (the principal variation, "PV"), type 2 ("CUT": one child refutes it) and
//! type 3 ("ALL": every child must be refuted). On a tree of any ordering we assign the types
//! from the true (minimax) values and the given order, the way a perfectly informed alpha-beta
//! would prove the root's value:
//!
//! - the root is PV; a PV node's first child (in order) whose value equals the node's is PV,
//!   its other children must be shown no better — they carry the requirement "value ≤ v" (at a
//!   Max parent of value v) or "value ≥ v" (at a Min parent);
//! - a node with a requirement it can meet with a single child (a Min node asked for "≤ t", a
//!   Max node asked for "≥ t") is CUT: its first child (in order) that meets the requirement
//!   inherits it, the others are outside the minimal tree;
//! - any other node with a requirement is ALL: every child inherits it.
//!
//! The nodes typed this way form the minimal tree: on a perfectly ordered uniform tree of
//! branching b and depth d, its leaves are the b^⌈d/2⌉ + b^⌊d/2⌋ − 1 that alpha-beta evaluates.
//! On other orderings it is the proof alpha-beta would examine if it always knew the values
//! but still took children in the given order; a smaller proof may exist when a later child
//! would refute a CUT node with a smaller subtree. Ties: a requirement is met with equality,
//! as fail-hard alpha-beta cuts off at `v ≤ alpha` and `v ≥ beta`.

use serde::Serialize;

use crate::search::{Algorithm, Reference, References};
use crate::tree::{Kind, NodeId, Tree};

/// A Knuth–Moore node type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeType {
    /// Type 1: on the principal variation.
    Pv,
    /// Type 2: one child refutes it.
    Cut,
    /// Type 3: every child must be refuted.
    All,
}

impl NodeType {
    /// The type as Knuth and Moore write it: "PV", "CUT", "ALL".
    pub fn name(self) -> &'static str {
        match self {
            NodeType::Pv => "PV",
            NodeType::Cut => "CUT",
            NodeType::All => "ALL",
        }
    }
}

/// Every node's type (`None`: outside the minimal tree) and the minimal tree's size.
pub struct Analysis {
    /// Each node's type, by id.
    pub types: Vec<Option<NodeType>>,
    /// The minimax value of every node.
    pub values: Vec<f64>,
    /// Leaves of the minimal tree.
    pub minimal_leaves: u64,
    /// Nodes of the minimal tree.
    pub minimal_nodes: u64,
}

impl Analysis {
    /// The number of nodes of type `t`.
    pub fn count(&self, t: NodeType) -> u64 {
        self.types.iter().filter(|&&x| x == Some(t)).count() as u64
    }
}

/// Why a tree has no Knuth–Moore types, if it has none.
pub fn refusal(tree: &Tree) -> Option<String> {
    if tree.is_multiplayer() {
        Some(
            "Knuth–Moore node types are defined for two-player trees; this one has n players"
                .into(),
        )
    } else if tree.has_chance() {
        Some("Knuth–Moore node types are defined for trees without chance nodes".into())
    } else {
        None
    }
}

/// Types every node of a two-player tree without chance nodes (see the module documentation).
pub fn analyze(tree: &Tree) -> Result<Analysis, String> {
    if let Some(why) = refusal(tree) {
        return Err(why);
    }
    let values = match Reference::of(tree, &Algorithm::Minimax) {
        Reference::Scalars(v) => v,
        Reference::Vectors(..) => unreachable!("two-player trees have scalar values"),
    };
    let mut types = vec![None; tree.len()];
    let (minimal_leaves, minimal_nodes) = walk(tree, &values, |id, t| types[id] = Some(t));
    Ok(Analysis {
        types,
        values,
        minimal_leaves,
        minimal_nodes,
    })
}

/// The minimal tree's leaves and nodes, from the minimax values of `refs` (computed there once
/// for every use), without typing every node.
pub fn minimal_tree(refs: &References<'_>) -> Result<(u64, u64), String> {
    let tree = refs.tree();
    if let Some(why) = refusal(tree) {
        return Err(why);
    }
    let values = refs.minimax();
    let values = values
        .scalars()
        .expect("two-player trees have scalar values");
    Ok(walk(tree, values, |_, _| {}))
}

/// A node's role in the walk: its type, and for CUT and ALL nodes the direction of the
/// requirement it carries ("value ≤ t" or "value ≥ t"; `t` in a side array).
const NONE: u8 = 0;
const PV: u8 = 1;
const CUT: u8 = 2;
const ALL: u8 = 3;
const AT_LEAST: u8 = 4;

/// Types the nodes of the minimal tree, calling `typed` for each (in id order); returns its
/// leaves and nodes.
fn walk(tree: &Tree, values: &[f64], mut typed: impl FnMut(usize, NodeType)) -> (u64, u64) {
    // Children come after their parents in the arena, so one forward pass sees each node's
    // role before its children; the requirement travels in side arrays.
    let mut role = vec![NONE; tree.len()];
    let mut bound = vec![0.0f64; tree.len()];
    role[tree.root().index()] = PV;
    let (mut leaves, mut nodes) = (0u64, 0u64);
    for i in 0..tree.len() {
        let r = role[i];
        if r == NONE {
            continue;
        }
        typed(
            i,
            match r & 3 {
                PV => NodeType::Pv,
                CUT => NodeType::Cut,
                _ => NodeType::All,
            },
        );
        nodes += 1;
        let id = NodeId(i as u32);
        if tree.is_leaf(id) {
            leaves += 1;
            continue;
        }
        let kind = tree.kind(id);
        let v = |c: NodeId| values[c.index()];
        let role_of = |c: NodeId, at_least: bool| -> u8 {
            // A leaf is typed by Knuth & Moore's structural rule (a CUT node's child is ALL,
            // any other's is CUT), an interior node by what its kind must do to meet the
            // requirement — the same thing on alternating trees, and the right thing when a
            // Max node sits below a Max node.
            let ty = if tree.is_leaf(c) {
                if r & 3 == CUT { ALL } else { CUT }
            } else if matches!(
                (tree.kind(c), at_least),
                (Kind::Min, false) | (Kind::Max, true)
            ) {
                CUT
            } else {
                ALL
            };
            ty | if at_least { AT_LEAST } else { 0 }
        };
        let t_here = bound[i];
        let mut assign = |role: &mut [u8], c: NodeId, at_least: bool, t: f64| {
            role[c.index()] = role_of(c, at_least);
            bound[c.index()] = t;
        };
        if r == PV {
            let mine = values[i];
            let best = tree
                .children(id)
                .find(|&c| v(c) == mine)
                .expect("a best child");
            for c in tree.children(id) {
                if c == best {
                    role[c.index()] = PV;
                } else {
                    // At a Max parent of value v the others must be shown "≤ v"; at a Min
                    // parent, "≥ v".
                    assign(&mut role, c, kind != Kind::Max, mine);
                }
            }
            continue;
        }
        let (at_least, t) = (r & AT_LEAST != 0, t_here);
        // Ties: a requirement is met with equality.
        let met = |x: f64| if at_least { x >= t } else { x <= t };
        if r & 3 == CUT {
            let c = tree
                .children(id)
                .find(|&c| met(v(c)))
                .expect("the requirement holds");
            assign(&mut role, c, at_least, t);
        } else {
            for c in tree.children(id) {
                assign(&mut role, c, at_least, t);
            }
        }
    }
    (leaves, nodes)
}

/// The Knuth–Moore count: leaves alpha-beta evaluates on a perfectly ordered uniform tree.
pub fn minimal_leaves(b: u64, d: u32) -> u64 {
    b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_expr;
    use crate::generate::Values;
    use crate::generate::uniform::{Order, Uniform, generate};

    #[test]
    fn the_classic_three_by_three() {
        let tree = parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
        let a = analyze(&tree).unwrap();
        let t = |i: u32| a.types[i as usize];
        assert_eq!(t(0), Some(NodeType::Pv));
        assert_eq!(t(1), Some(NodeType::Pv));
        assert_eq!(t(2), Some(NodeType::Cut));
        assert_eq!(t(3), Some(NodeType::Cut));
        // Under the PV Min node every leaf must be seen; under each CUT node, the first refuting one.
        assert_eq!(a.minimal_leaves, 3 + 1 + 1);
        let counted = minimal_tree(&References::new(&tree)).unwrap();
        assert_eq!(counted, (a.minimal_leaves, a.minimal_nodes));
        assert_eq!(t(7), Some(NodeType::All), "2 refutes the second Min node");
        assert_eq!(t(8), None);
        assert_eq!(t(10), None, "14 does not refute; 5 does not; 2 does");
        assert_eq!(t(12), Some(NodeType::All));
        assert_eq!(t(5), Some(NodeType::Cut));
    }

    #[test]
    fn best_ordered_uniform_trees_give_the_knuth_moore_count() {
        for (b, d) in [(2, 1), (2, 2), (2, 5), (3, 4), (4, 3), (5, 4)] {
            let p = Uniform {
                branching: b,
                depth: d,
                values: Values::integers(0, 9),
                order: Order::Best,
            };
            let tree = generate(&p, 7).unwrap();
            let a = analyze(&tree).unwrap();
            assert_eq!(a.minimal_leaves, minimal_leaves(b as u64, d), "b={b} d={d}");
            let counted = minimal_tree(&References::new(&tree)).unwrap();
            assert_eq!(counted, (a.minimal_leaves, a.minimal_nodes));
        }
    }

    #[test]
    fn chance_trees_are_refused() {
        let tree = parse_expr("*(1,2)", false).unwrap();
        assert!(analyze(&tree).is_err());
    }
}
