//! What `prune info` reports about a tree: sizes, depth, branching, kinds, bounds and whether it
//! is a "regular" *-minimax tree (Ballard 1982, §5).

use serde::Serialize;

use super::{Kind, NodeId, Tree};

/// A summary of a tree's shape. Field names are the `prune info --json` schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Shape {
    /// The tree's name.
    pub name: String,
    /// What the tree shows, or where it comes from.
    pub description: String,
    /// All nodes.
    pub nodes: usize,
    /// Leaves.
    pub leaves: usize,
    /// Interior nodes.
    pub interior: usize,
    /// Longest root-to-leaf path, in edges.
    pub depth: usize,
    /// Shortest root-to-leaf path, in edges.
    pub min_leaf_depth: usize,
    /// The fewest children of an interior node.
    pub min_branching: usize,
    /// The most children of a node.
    pub max_branching: usize,
    /// Mean number of children of interior nodes.
    pub mean_branching: f64,
    /// The number of players.
    pub players: usize,
    /// Max nodes.
    pub max_nodes: usize,
    /// Min nodes.
    pub min_nodes: usize,
    /// Chance nodes.
    pub chance_nodes: usize,
    /// Player nodes (n-player trees).
    pub player_nodes: usize,
    /// Chance nodes whose children are not equally likely.
    pub uneven_chance_nodes: usize,
    /// Leaf-value bounds `[L, U]` (two-player trees).
    pub bounds: Option<[f64; 2]>,
    /// Whether the file declared `bounds`.
    pub bounds_declared: bool,
    /// Per-component floor and maximum sum of payoff vectors (n-player trees).
    pub payoff_floor: Option<f64>,
    /// The largest sum of a payoff vector.
    pub payoff_sum: Option<f64>,
    /// Ballard's "regular" *-minimax tree: below every chance node all children are of one kind,
    /// and Max and Min alternate on every path once chance nodes are skipped.
    pub regular: bool,
    /// Why the tree is not regular, when it is not.
    pub irregular_because: Option<String>,
    /// Whether any node has a label.
    pub labelled: bool,
    /// Nodes that carry a position key.
    pub keyed_nodes: usize,
    /// Distinct position keys (`None` without keys): fewer than `keyed_nodes` when positions
    /// recur by transposition.
    pub distinct_keys: Option<usize>,
    /// Interior nodes that carry a heuristic value.
    pub heuristic_nodes: usize,
}

/// Summarises `tree` in one pass over the arena.
pub fn shape(tree: &Tree) -> Shape {
    let mut s = Shape {
        name: tree.meta().name.clone(),
        description: tree.meta().description.clone(),
        nodes: tree.len(),
        leaves: 0,
        interior: 0,
        depth: 0,
        min_leaf_depth: usize::MAX,
        min_branching: usize::MAX,
        max_branching: 0,
        mean_branching: 0.0,
        players: tree.players(),
        max_nodes: 0,
        min_nodes: 0,
        chance_nodes: 0,
        player_nodes: 0,
        uneven_chance_nodes: 0,
        bounds: None,
        bounds_declared: false,
        payoff_floor: None,
        payoff_sum: None,
        regular: true,
        irregular_because: None,
        labelled: tree.has_labels(),
        keyed_nodes: tree.positions.keyed_nodes(),
        distinct_keys: tree.distinct_keys(),
        heuristic_nodes: tree.positions.heuristic_nodes(),
    };
    // Ids are in breadth-first order: each level is a range of ids, the next one as long as
    // the level's children are many.
    let (mut d, mut level_end, mut next_end) = (0, 1, 1);
    let mut edges = 0usize;
    for id in tree.ids() {
        if id.index() == level_end {
            (d, level_end) = (d + 1, next_end);
        }
        next_end += tree.child_count(id);
        match tree.kind(id) {
            Kind::Leaf => {
                s.leaves += 1;
                s.depth = s.depth.max(d);
                s.min_leaf_depth = s.min_leaf_depth.min(d);
                continue;
            }
            Kind::Max => s.max_nodes += 1,
            Kind::Min => s.min_nodes += 1,
            Kind::Chance => {
                s.chance_nodes += 1;
                if !tree.is_uniform(id) {
                    s.uneven_chance_nodes += 1;
                }
            }
            Kind::Player(_) => s.player_nodes += 1,
        }
        let b = tree.child_count(id);
        s.interior += 1;
        edges += b;
        s.min_branching = s.min_branching.min(b);
        s.max_branching = s.max_branching.max(b);
        if s.regular {
            if let Some(reason) = irregularity(tree, id) {
                s.regular = false;
                s.irregular_because = Some(reason);
            }
        }
    }
    if s.interior == 0 {
        s.min_branching = 0;
    } else {
        s.mean_branching = edges as f64 / s.interior as f64;
    }
    if tree.is_multiplayer() {
        if let Some((floor, sum, _)) = tree.payoff_limits() {
            s.payoff_floor = Some(floor);
            s.payoff_sum = Some(sum);
        }
        s.regular = false;
        s.irregular_because = Some("an n-player tree".into());
    } else {
        let b = tree.value_bounds();
        s.bounds = Some([b.lo, b.hi]);
        s.bounds_declared = b.declared;
    }
    s
}

/// Why the node breaks Ballard's regularity, if it does.
fn irregularity(tree: &Tree, id: NodeId) -> Option<String> {
    let kind = tree.kind(id);
    if kind == Kind::Chance {
        let mut kinds = tree.children(id).map(|c| tree.kind(c));
        let first = kinds.next()?;
        if kinds.any(|k| k != first) {
            return Some(format!(
                "the children of chance node {id} are not all of one kind"
            ));
        }
        if first == Kind::Chance {
            return Some(format!("chance node {id} has a chance node as child"));
        }
        return None;
    }
    // A Max node's next decision node (skipping chance nodes) must be a Min node and vice versa.
    let opposite = match kind {
        Kind::Max => Kind::Min,
        Kind::Min => Kind::Max,
        _ => return None,
    };
    for c in tree.children(id) {
        let mut k = c;
        while tree.kind(k) == Kind::Chance {
            k = tree.child(k, 0);
        }
        let ck = tree.kind(k);
        if ck != Kind::Leaf && ck != opposite {
            return Some(format!(
                "{} node {id} is followed by a {} node",
                kind.name(),
                ck.name()
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::tree::{Draft, DraftNode, Kind, Meta};

    #[test]
    fn regular_star_tree() {
        // + -> * -> - -> leaves, N = 2
        let mut d = Draft::new(Meta {
            players: 2,
            ..Meta::default()
        });
        d.push(DraftNode::interior(Kind::Max, 2));
        for _ in 0..2 {
            d.push(DraftNode::interior(Kind::Chance, 2));
            for _ in 0..2 {
                d.push(DraftNode::interior(Kind::Min, 2));
                d.push(DraftNode::leaf(1.0));
                d.push(DraftNode::leaf(2.0));
            }
        }
        let s = super::shape(&d.finish().unwrap());
        assert!(s.regular, "{:?}", s.irregular_because);
        assert_eq!((s.nodes, s.leaves, s.depth, s.chance_nodes), (15, 8, 3, 2));
        assert_eq!((s.min_branching, s.max_branching), (2, 2));
        assert_eq!(s.bounds, Some([1.0, 2.0]));
    }

    #[test]
    fn mixed_chance_children_are_irregular() {
        let mut d = Draft::new(Meta {
            players: 2,
            ..Meta::default()
        });
        d.push(DraftNode::interior(Kind::Chance, 2));
        d.push(DraftNode::interior(Kind::Max, 1));
        d.push(DraftNode::leaf(1.0));
        d.push(DraftNode::interior(Kind::Min, 1));
        d.push(DraftNode::leaf(2.0));
        let s = super::shape(&d.finish().unwrap());
        assert!(!s.regular);
        assert!(s.irregular_because.unwrap().contains("not all of one kind"));
    }
}
