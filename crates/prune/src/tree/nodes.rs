//! What a search reads of a tree: the [`Nodes`] trait.
//!
//! Every algorithm is generic over it. [`Tree`] answers from its arena (each method is its own
//! inherent one, inlined: a search of a stored tree costs what it cost before the trait);
//! `crate::game::Lazy` answers from a game's rules, generating a node's children the first time
//! a search asks for them, so a search of chess or a deep connect-four stores only the nodes it
//! reached.
//!
//! Node ids follow the arena's rules on both: the root is 0, a node's children have
//! consecutive ids greater than its own. A lazy tree gives a node's children their ids when it
//! generates them, so ids are valid only once the search has reached the parent.
//!
//! The whole-tree facts at the end ([`Nodes::height`], [`Nodes::value_bounds`], …) are what a
//! search assumes before it starts; a lazy tree answers them from the game's declarations
//! (its depth limit, its declared bounds), never by walking the game.

use std::borrow::Cow;

use super::{Children, Kind, NodeId, Tree, ValueBounds};

/// Read access to a tree for the searches. See the [module documentation](self).
pub trait Nodes {
    /// The root.
    fn root(&self) -> NodeId;
    /// The number of nodes known so far (all of them for a stored tree).
    fn len(&self) -> usize;
    /// Whether the tree has no node (never, for a loaded tree).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// What node `id` is.
    fn kind(&self, id: NodeId) -> Kind;
    /// Whether `id` is a leaf.
    fn is_leaf(&self, id: NodeId) -> bool {
        self.kind(id) == Kind::Leaf
    }
    /// The children of `id`, in order.
    fn children(&self, id: NodeId) -> Children;
    /// The number of children of `id`.
    fn child_count(&self, id: NodeId) -> usize;
    /// The `i`-th child of `id` (0-based).
    fn child(&self, id: NodeId, i: usize) -> NodeId;
    /// The parent of `id`; `None` for the root.
    fn parent(&self, id: NodeId) -> Option<NodeId>;
    /// A leaf's value (two-player trees).
    fn value(&self, id: NodeId) -> f64;
    /// An n-player leaf's payoff vector.
    fn payoff(&self, id: NodeId) -> Cow<'_, [f64]>;
    /// The probability of the edge from the parent (1 below a decision node).
    fn prob(&self, id: NodeId) -> f64;
    /// Whether a chance node's children are equally likely.
    fn is_uniform(&self, id: NodeId) -> bool;
    /// A node's position key, if it has one.
    fn key(&self, id: NodeId) -> Option<u64>;
    /// An interior node's heuristic value, if it has one.
    fn heuristic(&self, id: NodeId) -> Option<f64>;
    /// Whether every child of interior node `id` is a leaf.
    fn children_all_leaves(&self, id: NodeId) -> bool;
    /// The leaf values of the `n` siblings from `first`.
    fn values_from(&self, first: u32, n: usize) -> Cow<'_, [f64]>;
    /// The number of players (2 for Max/Min trees).
    fn players(&self) -> usize;
    /// Whether leaves carry payoff vectors (n-player trees).
    fn is_multiplayer(&self) -> bool;

    /// The longest root-to-leaf path, in edges (a lazy tree: its depth limit).
    fn height(&self) -> usize;
    /// Every subtree's height, indexed by node id; `None` where it cannot be known before the
    /// search (a lazy tree), and a search then takes the remaining depth instead.
    fn subtree_heights(&self) -> Option<Vec<u32>>;
    /// Where [`Nodes::subtree_heights`] is `None`: the plies from `id` to the depth limit, an
    /// upper bound on its subtree's height that depends only on the node's depth.
    fn remaining(&self, _id: NodeId) -> u32 {
        u32::MAX
    }
    /// Bounds on leaf values: declared, or (a stored tree without declared ones) the leaves'.
    fn value_bounds(&self) -> ValueBounds;
    /// max^n's per-component floor and largest payoff sum, and whether both were declared.
    fn payoff_limits(&self) -> Option<(f64, f64, bool)>;
    /// Whether every leaf value is an integer (minimal windows are one unit wide).
    fn is_integral(&self) -> bool;
    /// Whether chance nodes may be summed exactly (see [`Tree::simple_fractions`]).
    fn simple_fractions(&self) -> bool;
    /// The largest number of children of a node, if known before the search.
    fn max_branching(&self) -> Option<u32>;
    /// Every node's preorder position, indexed by id, if known before the search.
    fn preorder_ranks(&self) -> Option<Vec<u32>>;
}

impl Nodes for Tree {
    #[inline]
    fn root(&self) -> NodeId {
        Tree::root(self)
    }
    #[inline]
    fn len(&self) -> usize {
        Tree::len(self)
    }
    #[inline]
    fn kind(&self, id: NodeId) -> Kind {
        Tree::kind(self, id)
    }
    #[inline]
    fn is_leaf(&self, id: NodeId) -> bool {
        Tree::is_leaf(self, id)
    }
    #[inline]
    fn children(&self, id: NodeId) -> Children {
        Tree::children(self, id)
    }
    #[inline]
    fn child_count(&self, id: NodeId) -> usize {
        Tree::child_count(self, id)
    }
    #[inline]
    fn child(&self, id: NodeId, i: usize) -> NodeId {
        Tree::child(self, id, i)
    }
    #[inline]
    fn parent(&self, id: NodeId) -> Option<NodeId> {
        Tree::parent(self, id)
    }
    #[inline]
    fn value(&self, id: NodeId) -> f64 {
        Tree::value(self, id)
    }
    #[inline]
    fn payoff(&self, id: NodeId) -> Cow<'_, [f64]> {
        Cow::Borrowed(Tree::payoff(self, id))
    }
    #[inline]
    fn prob(&self, id: NodeId) -> f64 {
        Tree::prob(self, id)
    }
    #[inline]
    fn is_uniform(&self, id: NodeId) -> bool {
        Tree::is_uniform(self, id)
    }
    #[inline]
    fn key(&self, id: NodeId) -> Option<u64> {
        Tree::key(self, id)
    }
    #[inline]
    fn heuristic(&self, id: NodeId) -> Option<f64> {
        Tree::heuristic(self, id)
    }
    #[inline]
    fn children_all_leaves(&self, id: NodeId) -> bool {
        Tree::children_all_leaves(self, id)
    }
    #[inline]
    fn values_from(&self, first: u32, n: usize) -> Cow<'_, [f64]> {
        Cow::Borrowed(Tree::values_from(self, first, n))
    }
    #[inline]
    fn players(&self) -> usize {
        Tree::players(self)
    }
    #[inline]
    fn is_multiplayer(&self) -> bool {
        Tree::is_multiplayer(self)
    }
    fn height(&self) -> usize {
        Tree::height(self)
    }
    fn subtree_heights(&self) -> Option<Vec<u32>> {
        Some(self.heights())
    }
    fn value_bounds(&self) -> ValueBounds {
        Tree::value_bounds(self)
    }
    fn payoff_limits(&self) -> Option<(f64, f64, bool)> {
        Tree::payoff_limits(self)
    }
    fn is_integral(&self) -> bool {
        Tree::is_integral(self)
    }
    fn simple_fractions(&self) -> bool {
        Tree::simple_fractions(self)
    }
    fn max_branching(&self) -> Option<u32> {
        Some(Tree::max_branching(self))
    }
    fn preorder_ranks(&self) -> Option<Vec<u32>> {
        Some(Tree::preorder_ranks(self))
    }
}
