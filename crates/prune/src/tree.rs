//! The game tree: a validated flat arena.
//!
//! Every node is 31 bytes, stored as a column per field (the fields a search reads apart from
//! the cold ones); a node's children occupy a contiguous block of the arena, so iterating
//! children is a range of indices and no pointer is chased. Nodes are numbered
//! breadth-first (the root `#0`, then its children, then theirs), whatever built the tree, so two
//! equal trees have equal arenas and a node id means the same node in every view and export. Labels (move names) and the
//! payoff vectors of n-player leaves live in side tables, so a tree without labels pays nothing for
//! them; so do the position keys and heuristic values of game trees ([`Tree::key`],
//! [`Tree::heuristic`]).
//!
//! Trees are built through [`Draft`] (the preorder form every loader and generator produces),
//! which validates them and lays them out, or directly from a laid-out arena with
//! [`Tree::from_arena`], which re-checks the arena's invariants. A `Tree` is immutable: reordering
//! children ([`Tree::reordered`]) builds a new one.

mod draft;
mod horizon;
pub mod names;
pub mod nodes;
mod room;
mod shape;
mod transpositions;

pub use draft::{Draft, DraftNode, Invalid, PROB_TOLERANCE, Valid};
pub use nodes::Nodes;
pub use room::Room;
pub use shape::{Shape, shape};
pub use transpositions::KeyClash;

use std::fmt;
use std::ops::Range;
use std::sync::OnceLock;

/// Index of a node in its tree's arena. The root is `NodeId(0)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root's id.
    pub const ROOT: NodeId = NodeId(0);

    /// The id as an index into the arena's columns.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// What a node is. `Player(i)` (0-based) appears only in n-player trees, `Max` and `Min` only in
/// two-player trees; `Chance` and `Leaf` in both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A Max node: the player to move maximises.
    Max,
    /// A Min node: the player to move minimises.
    Min,
    /// A chance node: its value is its children's, weighted by their probabilities.
    Chance,
    /// Player `i`'s node (0-based) in an n-player tree.
    Player(u8),
    /// A leaf: a value, or a payoff vector in n-player trees.
    Leaf,
}

impl Kind {
    /// The glyph the papers use: Ballard's `+`, `-`, `*`; player numbers from 1 for n-player trees.
    pub fn glyph(self) -> String {
        match self {
            Kind::Max => "+".into(),
            Kind::Min => "-".into(),
            Kind::Chance => "*".into(),
            Kind::Player(p) => format!("{}", u32::from(p) + 1),
            Kind::Leaf => "·".into(),
        }
    }

    /// The kind in words, as the formats write it: "max", "min", "chance", "player 2", "leaf".
    pub fn name(self) -> String {
        match self {
            Kind::Max => "max".into(),
            Kind::Min => "min".into(),
            Kind::Chance => "chance".into(),
            Kind::Player(p) => format!("player {}", u32::from(p) + 1),
            Kind::Leaf => "leaf".into(),
        }
    }

    /// Whether this is a leaf.
    #[inline]
    pub fn is_leaf(self) -> bool {
        self == Kind::Leaf
    }
}

/// The arena, a column per field (31 bytes a node in all, 22 without chance nodes). A search reads a node's kind, its
/// children's range and a leaf's value: those sit in their own compact arrays, so the kinds of
/// ten siblings share one cache line instead of occupying five 32-byte nodes; the parent, the
/// edge probability and the uniform flag, which the searches rarely read, sit apart.
#[derive(Clone, Debug, PartialEq, Default)]
struct Columns {
    kind: Vec<Kind>,
    /// Interior node: index of the first child. n-player leaf: row of its payoff vector.
    first: Vec<u32>,
    /// Number of children (0 for a leaf).
    len: Vec<u32>,
    /// Leaf value (two-player trees); unused elsewhere.
    value: Vec<f64>,
    /// Parent index; `u32::MAX` for the root.
    parent: Vec<u32>,
    /// Probability of the edge from the parent: set under chance nodes, 1 elsewhere. Empty
    /// when the tree has no chance node: every probability is 1, and a column of them would
    /// be 8 bytes a node written for nothing (0.9 GB at 10⁸ nodes).
    prob: Vec<f64>,
    /// A chance node whose edges all have probability exactly `1 / len` (stored as such). Star1
    /// and Star2 use Ballard's exact `N`-scaled equations (3)–(4) on these, equation (22) on others.
    /// Empty with `prob`.
    uniform: Vec<bool>,
}

impl Positions {
    /// The columns, each left empty when no node has a value in it.
    fn new(key: Vec<Option<u64>>, heuristic: Vec<Option<f64>>) -> Positions {
        let mut p = Positions::default();
        if heuristic.iter().any(Option::is_some) {
            p.heuristic = heuristic.iter().map(|h| h.unwrap_or(f64::NAN)).collect();
        }
        if key.iter().any(Option::is_some) {
            p.key = key.iter().map(|k| k.unwrap_or(0)).collect();
            p.keyed = vec![0; key.len().div_ceil(64)];
            for (i, k) in key.iter().enumerate() {
                if k.is_some() {
                    p.keyed[i / 64] |= 1 << (i % 64);
                }
            }
        }
        p
    }

    /// Nodes with a key: the bits set.
    fn keyed_nodes(&self) -> usize {
        self.keyed.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Nodes with a heuristic value (an empty column: none).
    fn heuristic_nodes(&self) -> usize {
        self.heuristic.iter().filter(|h| !h.is_nan()).count()
    }

    #[inline]
    fn heuristic(&self, i: usize) -> Option<f64> {
        self.heuristic.get(i).copied().filter(|h| !h.is_nan())
    }

    #[inline]
    fn key(&self, i: usize) -> Option<u64> {
        let keyed = self
            .keyed
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1);
        keyed.then(|| self.key[i])
    }
}

/// Heuristic values compare by bits (an absent one is NaN), keys only where present.
impl PartialEq for Positions {
    fn eq(&self, other: &Positions) -> bool {
        self.keyed == other.keyed
            && self.key.len() == other.key.len()
            && (0..self.key.len()).all(|i| self.key(i) == other.key(i))
            && self.heuristic.len() == other.heuristic.len()
            && self
                .heuristic
                .iter()
                .zip(&other.heuristic)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl Columns {
    fn with_capacity(n: usize) -> Columns {
        Columns {
            kind: hot(Vec::with_capacity(n)),
            first: hot(Vec::with_capacity(n)),
            len: hot(Vec::with_capacity(n)),
            value: hot(Vec::with_capacity(n)),
            parent: Vec::with_capacity(n),
            prob: Vec::with_capacity(n),
            uniform: Vec::with_capacity(n),
        }
    }

    /// `n` nodes to be written over: leaves of value 0, first child and parent 0, edge
    /// probability `prob` (no probability columns for `None`: a tree without chance nodes).
    /// The zero columns are fresh memory, faulted in when written.
    pub(crate) fn leaves(n: usize, prob: Option<f64>) -> Columns {
        let mut kind = hot(Vec::with_capacity(n));
        kind.resize(n, Kind::Leaf);
        Columns {
            kind,
            first: hot(vec![0; n]),
            len: hot(vec![0; n]),
            value: hot(vec![0.0; n]),
            parent: vec![0; n],
            prob: prob.map_or_else(Vec::new, |p| vec![p; n]),
            uniform: if prob.is_some() {
                vec![false; n]
            } else {
                Vec::new()
            },
        }
    }

    /// Empties the probability columns where they say nothing: no chance node, every edge
    /// probability 1 (see `prob`).
    fn drop_unit_probs(&mut self) {
        if !self.kind.contains(&Kind::Chance)
            && self.prob.iter().all(|&p| p == 1.0)
            && !self.uniform.contains(&true)
        {
            self.prob = Vec::new();
            self.uniform = Vec::new();
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.kind.len()
    }

    /// The first `n` nodes (room made for more keeps its capacity).
    fn truncate(&mut self, n: usize) {
        self.kind.truncate(n);
        self.first.truncate(n);
        self.len.truncate(n);
        self.value.truncate(n);
        self.parent.truncate(n);
        self.prob.truncate(n);
        self.uniform.truncate(n);
    }

    /// The probability columns of [`Columns::leaves`], added to columns made without them.
    fn with_probs(mut self, prob: Option<f64>) -> Columns {
        if let Some(p) = prob {
            self.prob = vec![p; self.len()];
            self.uniform = vec![false; self.len()];
        }
        self
    }

    /// Faults in the pages of the zeroed columns a layout writes whole (see
    /// [`crate::memory::populate`]); not the first-child column, which only interior nodes
    /// write (a tenth of it in a tree of branching 10: the leaves' part is never touched).
    fn populate(&mut self) {
        fn whole<T>(v: &mut [T]) {
            crate::memory::populate(v.as_mut_ptr().cast(), size_of_val(v));
        }
        whole(&mut self.len);
        whole(&mut self.value);
        whole(&mut self.parent);
        whole(&mut self.prob);
        whole(&mut self.uniform);
    }
}

/// A column the searches read at random, on huge pages where the system offers them
/// ([`crate::memory::huge_pages`]), asked for before it is written.
fn hot<T>(mut column: Vec<T>) -> Vec<T> {
    crate::memory::huge_pages(&mut column);
    column
}

const NO_PARENT: u32 = u32::MAX;

/// The largest number of nodes a tree may have: ids are `u32` and `u32::MAX` marks "no parent".
pub const MAX_NODES: usize = (u32::MAX - 1) as usize;

/// Declared value bounds `L..U` (Ballard's L and U).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Bounds {
    /// L, the lowest value a leaf may have.
    pub lo: f64,
    /// U, the highest value a leaf may have.
    pub hi: f64,
}

/// Tree metadata. Declared bounds are what the file says; [`Tree::value_bounds`] falls back to
/// the tight bounds of the leaves.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Meta {
    /// The tree's name (a file's title).
    pub name: String,
    /// Where the tree comes from, or what it shows.
    pub description: String,
    /// 2 for Max/Min trees; n for n-player trees.
    pub players: u8,
    /// Declared bounds on leaf values (two-player trees).
    pub bounds: Option<Bounds>,
    /// Declared lower bound on every payoff component (n-player trees, max^n pruning).
    pub payoff_floor: Option<f64>,
    /// Declared maximum sum of a payoff vector (n-player trees, max^n pruning).
    pub payoff_sum: Option<f64>,
}

/// Optional labels, one string per node, stored back to back in the order they were given (a
/// loader's preorder): a load hands its labels over as read, without rearranging their text.
#[derive(Clone, Debug, Default)]
struct Labels {
    /// Node `i`'s label is entry `of[i]` (from 1), 0 for none; empty when the tree has none.
    of: Vec<u32>,
    /// Entry `k`'s text is `text[ends[k - 1]..ends[k]]`; `ends[0]` is 0.
    ends: Vec<u32>,
    text: String,
}

impl Labels {
    /// Labels from a loader: `of` by node, `ends` and `text` as described on the fields.
    fn new(of: Vec<u32>, mut ends: Vec<u32>, mut text: String) -> Labels {
        debug_assert_eq!(ends.first(), Some(&0));
        debug_assert!(of.iter().all(|&k| (k as usize) < ends.len()));
        // The loader's room to grow (see `Draft::expect_label_text`) is not the tree's.
        ends.shrink_to_fit();
        text.shrink_to_fit();
        Labels { of, ends, text }
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&str> {
        let k = *self.of.get(i)? as usize;
        if k == 0 {
            return None;
        }
        let (a, b) = (self.ends[k - 1] as usize, self.ends[k] as usize);
        (a < b).then(|| &self.text[a..b])
    }

    fn is_empty(&self) -> bool {
        self.of.is_empty()
    }

    /// Keeps the labels of the first `n` nodes.
    fn truncate(&mut self, n: usize) {
        self.of.truncate(n);
    }
}

/// Labels compare as the strings they give each node, however they are stored.
impl PartialEq for Labels {
    fn eq(&self, other: &Labels) -> bool {
        self.of.len() == other.of.len() && (0..self.of.len()).all(|i| self.get(i) == other.get(i))
    }
}

/// Optional per-node facts of game trees: the static evaluation of a position (interior nodes
/// only, from Max's point of view) and a position key (equal positions reached by different move
/// orders have equal keys). Each column is empty when no node has one, so trees without them pay
/// nothing; with them a node costs 8 bytes more for each (and a bit for "has a key").
#[derive(Clone, Debug, Default)]
struct Positions {
    /// The heuristic value of every node, NaN where it has none (values are finite).
    heuristic: Vec<f64>,
    /// The key of every node, 0 where it has none.
    key: Vec<u64>,
    /// Bit `i` set when node `i` has a key.
    keyed: Vec<u64>,
}

/// A validated game tree. See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    nodes: Columns,
    /// n-player payoff vectors, `players` values a row.
    payoffs: Vec<f64>,
    labels: Labels,
    positions: Positions,
    meta: Meta,
    /// Whether the tree is n-player (Player nodes, payoff vectors) rather than Max/Min.
    multiplayer: bool,
    /// Longest root-to-leaf path, in edges (cached by [`Tree::sealed`]).
    height: u32,
    /// Every leaf value (or payoff) is an integer (cached by [`Tree::sealed`]).
    integral: bool,
    /// Number of leaves (cached by [`Tree::sealed`]).
    leaves: usize,
    /// The largest number of children of a node (cached by [`Tree::sealed`]).
    branching: u32,
    /// Bit `i`: node `i` is interior and its children are all leaves (cached by
    /// [`Tree::sealed`]; 1 bit a node).
    leaf_parents: Vec<u64>,
    /// Some node is a chance node (cached by [`Tree::sealed`]).
    chance: bool,
    /// Every leaf value and uneven probability is a simple fraction (computed when first
    /// asked: see [`Tree::simple_fractions`]).
    fractions: Lazy<bool>,
    /// The tree as Max against Min, when it is a constant-sum two-player tree written with
    /// payoff vectors (built when first asked: see [`Tree::two_player_view`]).
    view: Lazy<Option<Box<Tree>>>,
    /// Two nodes that share a position key and head different subtrees, if any (found when
    /// first asked: see [`Tree::key_clash`]).
    clash: Lazy<Option<KeyClash>>,
}

/// What a tree computes about itself when first asked. It is not part of what the tree is:
/// two trees compare equal whatever each has computed.
#[derive(Clone, Debug, Default)]
struct Lazy<T>(OnceLock<T>);

impl<T> PartialEq for Lazy<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Where a tree's leaf values lie and whether that was declared or derived from the leaves.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ValueBounds {
    /// The lowest leaf value.
    pub lo: f64,
    /// The highest leaf value.
    pub hi: f64,
    /// Whether the file declared the bounds (else they are the leaves' own).
    pub declared: bool,
}

impl Tree {
    /// The number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// A tree always has at least its root.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The root's id (always `NodeId::ROOT`).
    #[inline]
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    /// The tree's name and description, to say what was done to it (a reorder, say); the
    /// structure stays as validated.
    pub fn meta_mut(&mut self) -> &mut Meta {
        self.view = Lazy::default();
        &mut self.meta
    }

    /// The tree's metadata: name, description, players, declared bounds.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// Number of players: 2 for Max/Min trees.
    pub fn players(&self) -> usize {
        usize::from(self.meta.players)
    }

    /// Whether leaves carry payoff vectors and interior nodes are `Player(i)`.
    pub fn is_multiplayer(&self) -> bool {
        self.multiplayer
    }

    /// What node `id` is.
    #[inline]
    pub fn kind(&self, id: NodeId) -> Kind {
        self.nodes.kind[id.index()]
    }

    /// Whether node `id` is a leaf.
    #[inline]
    pub fn is_leaf(&self, id: NodeId) -> bool {
        self.kind(id) == Kind::Leaf
    }

    /// The children of `id`, in order.
    #[inline]
    pub fn children(&self, id: NodeId) -> Children {
        if self.is_leaf(id) {
            return Children(0..0);
        }
        let first = self.nodes.first[id.index()];
        Children(first..first + self.nodes.len[id.index()])
    }

    /// The children of interior node `id` as columns: the first child's id, and the kinds of
    /// all its children in order (siblings are contiguous). The searches' hot loops read these
    /// with one bounds check a node instead of one a child.
    #[inline]
    pub fn child_kinds(&self, id: NodeId) -> (u32, &[Kind]) {
        debug_assert!(!self.is_leaf(id));
        let first = self.nodes.first[id.index()];
        let n = self.nodes.len[id.index()];
        (
            first,
            &self.nodes.kind[first as usize..(first + n) as usize],
        )
    }

    /// Whether `id` is an interior node whose children are all leaves (the last level of a
    /// uniform tree), from a bitset: a search can read their values without their kinds.
    #[inline]
    pub fn children_all_leaves(&self, id: NodeId) -> bool {
        self.leaf_parents[id.index() / 64] >> (id.index() % 64) & 1 == 1
    }

    /// The leaf values of the `n` nodes from `first` (a block of siblings).
    #[inline]
    pub fn values_from(&self, first: u32, n: usize) -> &[f64] {
        &self.nodes.value[first as usize..first as usize + n]
    }

    /// The number of children of node `id`.
    #[inline]
    pub fn child_count(&self, id: NodeId) -> usize {
        self.nodes.len[id.index()] as usize
    }

    /// The `i`-th child (0-based).
    #[inline]
    pub fn child(&self, id: NodeId, i: usize) -> NodeId {
        debug_assert!(i < self.child_count(id) && !self.is_leaf(id));
        NodeId(self.nodes.first[id.index()] + i as u32)
    }

    /// The parent of node `id`; `None` for the root.
    #[inline]
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.nodes.parent[id.index()];
        (p != NO_PARENT).then_some(NodeId(p))
    }

    /// Position of `id` among its parent's children (0 for the root).
    pub fn child_index(&self, id: NodeId) -> usize {
        match self.parent(id) {
            Some(p) => (id.0 - self.nodes.first[p.index()]) as usize,
            None => 0,
        }
    }

    /// Leaf value of a two-player tree (Max/Min/Chance leaves).
    #[inline]
    pub fn value(&self, id: NodeId) -> f64 {
        self.nodes.value[id.index()]
    }

    /// Payoff vector of an n-player leaf.
    #[inline]
    pub fn payoff(&self, id: NodeId) -> &[f64] {
        let n = self.players();
        let row = self.nodes.first[id.index()] as usize;
        &self.payoffs[row * n..row * n + n]
    }

    /// Probability of the edge from the parent (1 when the parent is not a chance node).
    #[inline]
    pub fn prob(&self, id: NodeId) -> f64 {
        self.nodes.prob.get(id.index()).copied().unwrap_or(1.0)
    }

    /// Whether a chance node's children are equally likely (each edge exactly `1 / N`).
    #[inline]
    pub fn is_uniform(&self, id: NodeId) -> bool {
        self.nodes.uniform.get(id.index()).copied().unwrap_or(false)
    }

    /// The label of node `id` (the move that leads to it), if it has one.
    pub fn label(&self, id: NodeId) -> Option<&str> {
        self.labels.get(id.index())
    }

    /// Whether any node has a label.
    pub fn has_labels(&self) -> bool {
        !self.labels.is_empty()
    }

    /// The heuristic value (static evaluation) stored at an interior node, from Max's point of
    /// view in Max/Min trees.
    #[inline]
    pub fn heuristic(&self, id: NodeId) -> Option<f64> {
        self.positions.heuristic(id.index())
    }

    /// The position key of a node: equal positions have equal keys.
    #[inline]
    pub fn key(&self, id: NodeId) -> Option<u64> {
        self.positions.key(id.index())
    }

    /// Whether some node carries a position key.
    pub fn has_keys(&self) -> bool {
        !self.positions.key.is_empty()
    }

    /// Whether some node carries a heuristic value.
    pub fn has_heuristics(&self) -> bool {
        !self.positions.heuristic.is_empty()
    }

    /// The number of distinct position keys (`None` for a tree without keys): fewer than the
    /// keyed nodes when positions recur (transpositions).
    pub fn distinct_keys(&self) -> Option<usize> {
        if !self.has_keys() {
            return None;
        }
        let mut keys: Vec<u64> = self.ids().filter_map(|i| self.key(i)).collect();
        keys.sort_unstable();
        keys.dedup();
        Some(keys.len())
    }

    /// Two nodes that share a position key but head different subtrees (kinds, values,
    /// heuristic values, probabilities or children), which a transposition table would take for
    /// one position; found in linear time when first asked, then kept.
    pub fn key_clash(&self) -> Option<&KeyClash> {
        self.clash
            .0
            .get_or_init(|| transpositions::find_clash(self))
            .as_ref()
    }

    /// This tree with position keys and heuristic values (replacing any); `key` and `heuristic`
    /// are indexed by node id. Heuristic values must be finite and sit at interior nodes.
    pub fn with_positions(
        mut self,
        key: Vec<Option<u64>>,
        heuristic: Vec<Option<f64>>,
    ) -> Result<Tree, String> {
        for (what, len) in [("keys", key.len()), ("heuristic values", heuristic.len())] {
            if len != 0 && len != self.len() {
                return Err(format!("{len} {what} for a tree of {} nodes", self.len()));
            }
        }
        for (i, h) in heuristic.iter().enumerate() {
            match h {
                Some(h) if !h.is_finite() => {
                    return Err(format!("node #{i}: heuristic value {h} is not finite"));
                }
                Some(_) if self.nodes.kind[i] == Kind::Leaf => {
                    return Err(format!("node #{i}: a leaf carries a heuristic value"));
                }
                _ => {}
            }
        }
        self.positions = Positions::new(key, heuristic);
        self.clash = Lazy::default();
        Ok(self)
    }

    /// All node ids, in arena order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + use<> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// Number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.leaves
    }

    /// Depth of `id` (the root has depth 0).
    pub fn depth_of(&self, mut id: NodeId) -> usize {
        let mut d = 0;
        while let Some(p) = self.parent(id) {
            d += 1;
            id = p;
        }
        d
    }

    /// Path from the root to `id`, both included.
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        let mut cur = id;
        while let Some(p) = self.parent(cur) {
            path.push(p);
            cur = p;
        }
        path.reverse();
        path
    }

    /// Whether the tree has any chance node.
    pub fn has_chance(&self) -> bool {
        self.chance
    }

    /// Bounds on leaf values: the declared `L..U`, or the tight bounds of the leaves.
    pub fn value_bounds(&self) -> ValueBounds {
        if let Some(b) = self.meta.bounds {
            return ValueBounds {
                lo: b.lo,
                hi: b.hi,
                declared: true,
            };
        }
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        if !self.multiplayer {
            for (&k, &v) in self.nodes.kind.iter().zip(&self.nodes.value) {
                if k == Kind::Leaf {
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        ValueBounds {
            lo,
            hi,
            declared: false,
        }
    }

    /// The per-component floor and maximum sum of payoff vectors used by max^n pruning: declared
    /// ones, or the tight values over the leaves. `None` for two-player trees.
    pub fn payoff_limits(&self) -> Option<(f64, f64, bool)> {
        if !self.multiplayer {
            return None;
        }
        let n = self.players();
        let floor = self
            .meta
            .payoff_floor
            .unwrap_or_else(|| self.payoffs.iter().copied().fold(f64::INFINITY, f64::min));
        let sum = self.meta.payoff_sum.unwrap_or_else(|| {
            self.payoffs
                .chunks(n)
                .map(|r| r.iter().sum::<f64>())
                .fold(f64::NEG_INFINITY, f64::max)
        });
        let declared = self.meta.payoff_floor.is_some() && self.meta.payoff_sum.is_some();
        Some((floor, sum, declared))
    }

    /// Whether every leaf value and every probability of an uneven chance node stands for a
    /// simple fraction (integers, 6/7, 0.25): then chance nodes are summed exactly
    /// (`crate::exact`). Computed once, when a search first asks.
    pub fn simple_fractions(&self) -> bool {
        *self.fractions.0.get_or_init(|| {
            let simple = |x: f64| crate::exact::is_simple(x);
            let c = &self.nodes;
            (0..c.len()).all(|i| {
                let values_ok = if c.kind[i] != Kind::Leaf {
                    true
                } else if self.multiplayer {
                    self.payoff(NodeId(i as u32)).iter().all(|&x| simple(x))
                } else {
                    simple(c.value[i])
                };
                let under_uneven = c.parent[i] != NO_PARENT && {
                    let p = c.parent[i] as usize;
                    c.kind[p] == Kind::Chance && !c.uniform[p]
                };
                values_ok && (!under_uneven || simple(c.prob[i]))
            })
        })
    }

    /// The largest number of children of a node (0 when the root is a leaf).
    pub fn max_branching(&self) -> u32 {
        self.branching
    }

    /// Longest root-to-leaf path, in edges.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Whether every leaf value (every payoff, in n-player trees) is an integer: then a minimal
    /// window is one unit wide (NegaScout, MTD(f)); otherwise it is one floating-point step.
    pub fn is_integral(&self) -> bool {
        self.integral
    }

    /// Computes the cached facts; every constructor ends here.
    pub(super) fn sealed(mut self) -> Tree {
        self.nodes.drop_unit_probs();
        (self.height, self.leaves, self.chance, self.integral) = self.facts();
        self.with_search_facts()
    }

    /// Caches what the searches read besides the arena ([`Tree::search_facts`]).
    pub(super) fn with_search_facts(mut self) -> Tree {
        (self.branching, self.leaf_parents) = self.search_facts();
        self
    }

    /// The largest branching, and a bit a node for the interior nodes whose children are all
    /// leaves (their values are read straight from the value column, without their kinds).
    pub(super) fn search_facts(&self) -> (u32, Vec<u64>) {
        let branching = self.nodes.len.iter().copied().max().unwrap_or(0);
        // Every interior node, then not those with an interior child (its parent).
        let mut bits = vec![0u64; self.len().div_ceil(64)];
        for (i, &k) in self.nodes.kind.iter().enumerate() {
            bits[i / 64] |= u64::from(k != Kind::Leaf) << (i % 64);
        }
        for (&k, &p) in self.nodes.kind.iter().zip(&self.nodes.parent).skip(1) {
            let p = p as usize;
            bits[p / 64] &= !(u64::from(k != Kind::Leaf) << (p % 64));
        }
        (branching, bits)
    }

    /// What [`Tree::sealed`] caches: height, leaves, whether a node is a chance node, whether
    /// every leaf value (or payoff) is an integer.
    pub(super) fn facts(&self) -> (u32, usize, bool, bool) {
        let mut depth = vec![0u32; self.len()];
        let mut height = 0;
        for i in 1..self.len() {
            depth[i] = depth[self.nodes.parent[i] as usize] + 1;
            height = height.max(depth[i]);
        }
        let kinds = &self.nodes.kind;
        let leaves = kinds.iter().filter(|&&k| k == Kind::Leaf).count();
        let chance = kinds.contains(&Kind::Chance);
        let integral = if self.multiplayer {
            self.payoffs.iter().all(|x| x.fract() == 0.0)
        } else {
            kinds
                .iter()
                .zip(&self.nodes.value)
                .all(|(&k, v)| k != Kind::Leaf || v.fract() == 0.0)
        };
        (height, leaves, chance, integral)
    }

    /// Nodes in preorder (parents before children, children in order), without recursion.
    pub fn preorder(&self) -> Preorder<'_> {
        Preorder {
            tree: self,
            stack: vec![NodeId::ROOT],
        }
    }

    /// Every node's position in preorder, indexed by node id: two sequential passes over the
    /// arena (subtree sizes bottom-up, then positions top-down), no walk.
    pub fn preorder_ranks(&self) -> Vec<u32> {
        let size = self.subtree_sizes();
        let mut rank = vec![0u32; self.len()];
        for i in 0..self.len() {
            if self.nodes.kind[i] == Kind::Leaf {
                continue;
            }
            let mut r = rank[i] + 1;
            let first = self.nodes.first[i] as usize;
            for c in first..first + self.nodes.len[i] as usize {
                rank[c] = r;
                r += size[c];
            }
        }
        rank
    }

    /// Number of nodes in every subtree, indexed by node id.
    pub fn subtree_sizes(&self) -> Vec<u32> {
        let mut size = vec![1u32; self.len()];
        // Children always have larger ids than their parent (see `check_arena`), so a reverse
        // sweep finishes every child before its parent.
        for i in (1..self.len()).rev() {
            let p = self.nodes.parent[i] as usize;
            size[p] += size[i];
        }
        size
    }

    /// Height of every subtree (0 for a leaf), indexed by node id.
    pub fn heights(&self) -> Vec<u32> {
        let mut h = vec![0u32; self.len()];
        for i in (1..self.len()).rev() {
            let p = self.nodes.parent[i] as usize;
            h[p] = h[p].max(h[i] + 1);
        }
        h
    }

    /// A copy of this tree whose children are put in a new order. `order(tree, node)` returns,
    /// for an interior node, the old child positions in their new order.
    pub fn reordered(&self, order: impl FnMut(&Tree, NodeId) -> Vec<usize>) -> Tree {
        self.reordered_map(order).0
    }

    /// [`Tree::reordered`], and where each node went: `map[old.index()]` is its id in the copy.
    pub fn reordered_map(
        &self,
        mut order: impl FnMut(&Tree, NodeId) -> Vec<usize>,
    ) -> (Tree, Vec<NodeId>) {
        let mut draft = Draft::with_capacity(self.meta.clone(), self.len());
        draft.expect_label_text(self.labels.text.len());
        // The old nodes in the order they are written: the copy's preorder.
        let mut written = Vec::with_capacity(self.len());
        // Explicit stack of (old node, probability to write); emits the new preorder.
        let mut stack = vec![NodeId::ROOT];
        while let Some(id) = stack.pop() {
            written.push(id);
            let mut node = self.draft_node(id);
            node.children = self.child_count(id) as u32;
            draft.push(node);
            if !self.is_leaf(id) {
                let perm = order(self, id);
                debug_assert_eq!(perm.len(), self.child_count(id));
                for &i in perm.iter().rev() {
                    stack.push(self.child(id, i));
                }
            }
        }
        let tree = draft
            .finish()
            .expect("reordering a valid tree keeps it valid");
        let mut map = vec![NodeId::ROOT; self.len()];
        for (new, old) in tree.preorder().zip(written) {
            map[old.index()] = new;
        }
        (tree, map)
    }

    /// The sum of the two payoffs at every leaf of a two-player tree written with payoff
    /// vectors, when it is the same at every leaf (a zero-sum or constant-sum game); else the
    /// first two leaves (in id order) whose sums differ.
    pub fn constant_sum(&self) -> Result<f64, (NodeId, NodeId)> {
        let mut rows = self.ids().filter(|&i| self.is_leaf(i));
        let first = rows.next().expect("a tree has a leaf");
        let sum = |i: NodeId| self.payoff(i).iter().sum::<f64>();
        let c = sum(first);
        match rows.find(|&i| sum(i) != c) {
            Some(other) => Err((first, other)),
            None => Ok(c),
        }
    }

    /// A constant-sum two-player tree written with payoff vectors, as the two-player tree it
    /// is: the same nodes under the same ids, player 1's nodes Max, player 2's Min, a leaf
    /// worth player 1's payoff (player 2's is the constant sum minus it). `None` for any other
    /// tree. Built once, when first asked, and kept with the tree.
    pub fn two_player_view(&self) -> Option<&Tree> {
        self.view
            .0
            .get_or_init(|| self.build_two_player_view().map(Box::new))
            .as_deref()
    }

    fn build_two_player_view(&self) -> Option<Tree> {
        if !self.multiplayer || self.players() != 2 || self.constant_sum().is_err() {
            return None;
        }
        let mut nodes = self.nodes.clone();
        for i in 0..nodes.len() {
            match nodes.kind[i] {
                Kind::Player(0) => nodes.kind[i] = Kind::Max,
                Kind::Player(_) => nodes.kind[i] = Kind::Min,
                Kind::Leaf => {
                    nodes.value[i] = self.payoffs[nodes.first[i] as usize * 2];
                    nodes.first[i] = 0;
                }
                _ => {}
            }
        }
        let mut meta = self.meta.clone();
        meta.payoff_floor = None;
        meta.payoff_sum = None;
        let tree = Tree {
            nodes,
            payoffs: Vec::new(),
            labels: self.labels.clone(),
            positions: self.positions.clone(),
            meta,
            multiplayer: false,
            height: 0,
            branching: 0,
            leaf_parents: Vec::new(),
            integral: false,
            leaves: 0,
            chance: false,
            fractions: Lazy::default(),
            view: Lazy::default(),
            clash: Lazy::default(),
        };
        Some(tree.sealed())
    }

    /// The node as a [`Draft`] entry (without its child count).
    pub fn draft_node(&self, id: NodeId) -> DraftNode {
        let parent_chance = self
            .parent(id)
            .is_some_and(|p| self.kind(p) == Kind::Chance);
        let parent_uniform = self.parent(id).is_some_and(|p| self.is_uniform(p));
        let kind = self.kind(id);
        DraftNode {
            kind,
            value: self.value(id),
            payoff: if kind == Kind::Leaf && self.multiplayer {
                self.payoff(id).to_vec()
            } else {
                Vec::new()
            },
            prob: (parent_chance && !parent_uniform).then_some(self.prob(id)),
            label: self.label(id).map(str::to_owned),
            heuristic: self.heuristic(id),
            key: self.key(id),
            children: 0,
        }
    }

    /// Gives a two-player tree's leaves new values: `fill` writes them into the value column,
    /// indexed by node id (an interior node's entry is unused: leave it), and everything else is
    /// kept. For experiments that search thousands of trees of one shape (Ballard's random
    /// orders), which then lay out and allocate none. What depends on the values is found
    /// again; whether they are simple fractions, only where they are all integers (as when
    /// generated) and were before.
    pub fn set_values(&mut self, fill: impl FnOnce(&mut [f64])) {
        debug_assert!(!self.multiplayer, "n-player leaves hold payoff rows");
        fill(&mut self.nodes.value);
        let (mut integral, mut small) = (true, true);
        for (&k, &v) in self.nodes.kind.iter().zip(&self.nodes.value) {
            if k == Kind::Leaf {
                let int = crate::exact::integer(v).is_some(); // integers of at most 2⁵³
                small &= int;
                integral &= int || v.fract() == 0.0;
            }
        }
        self.integral = integral;
        let simple = (small && self.fractions.0.get() == Some(&true)).then_some(true);
        self.fractions = Lazy(simple.map(OnceLock::from).unwrap_or_default());
        (self.view, self.clash) = Default::default();
    }

    /// This tree with new labels (replacing any); `label` is called once per node in id order.
    pub fn with_labels(mut self, mut label: impl FnMut(NodeId) -> Option<String>) -> Tree {
        let mut l = Labels {
            of: Vec::with_capacity(self.len()),
            ends: vec![0],
            text: String::new(),
        };
        for id in self.ids() {
            match label(id) {
                Some(s) if !s.is_empty() => {
                    l.text.push_str(&s);
                    l.of.push(l.ends.len() as u32);
                    l.ends.push(l.text.len() as u32);
                }
                _ => l.of.push(0),
            }
        }
        self.labels = if l.text.is_empty() {
            Labels::default()
        } else {
            l
        };
        self
    }

    /// Builds a tree from a laid-out arena, checking every invariant. Generators that lay out
    /// large trees directly (level by level) use this; everything else goes through [`Draft`].
    pub fn from_arena(
        meta: Meta,
        multiplayer: bool,
        nodes: Vec<ArenaNode>,
        payoffs: Vec<f64>,
    ) -> Result<Tree, String> {
        let mut columns = Columns::with_capacity(nodes.len());
        for a in nodes {
            columns.kind.push(a.kind);
            columns.first.push(a.first);
            columns.len.push(a.len);
            columns.value.push(a.value);
            columns.parent.push(a.parent);
            columns.prob.push(a.prob);
            columns.uniform.push(a.uniform);
        }
        let tree = Tree {
            nodes: columns,
            payoffs,
            labels: Labels::default(),
            positions: Positions::default(),
            meta,
            multiplayer,
            height: 0,
            branching: 0,
            leaf_parents: Vec::new(),
            integral: false,
            leaves: 0,
            chance: false,
            fractions: Lazy::default(),
            view: Lazy::default(),
            clash: Lazy::default(),
        };
        tree.check_arena()?;
        Ok(tree.sealed())
    }

    /// Structural invariants of the arena (not the semantic checks of [`Draft::validate`]).
    fn check_arena(&self) -> Result<(), String> {
        let n = self.nodes.len();
        if n == 0 || n > MAX_NODES {
            return Err(format!(
                "a tree needs between 1 and {MAX_NODES} nodes, not {n}"
            ));
        }
        if self.nodes.parent[0] != NO_PARENT {
            return Err("the root has a parent".into());
        }
        for i in 0..n {
            let (first, len) = (self.nodes.first[i], self.nodes.len[i]);
            if self.nodes.kind[i] == Kind::Leaf {
                if self.multiplayer && (first as usize + 1) * self.players() > self.payoffs.len() {
                    return Err(format!("leaf #{i} has no payoff row"));
                }
                continue;
            }
            if len == 0 {
                return Err(format!("interior node #{i} has no children"));
            }
            let (a, b) = (first as usize, first as usize + len as usize);
            if a <= i || b > n {
                return Err(format!(
                    "node #{i} has children outside the arena or before it"
                ));
            }
            for c in a..b {
                if self.nodes.parent[c] as usize != i {
                    return Err(format!("node #{c} does not point back to its parent #{i}"));
                }
            }
        }
        Ok(())
    }
}

/// A node of a laid-out arena, for [`Tree::from_arena`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ArenaNode {
    /// The id of the first child (any value for a leaf).
    pub first: u32,
    /// The number of children.
    pub len: u32,
    /// The parent's id, or [`ArenaNode::NO_PARENT`] for the root.
    pub parent: u32,
    /// What the node is.
    pub kind: Kind,
    /// A chance node whose children are equally likely.
    pub uniform: bool,
    /// A two-player leaf's value.
    pub value: f64,
    /// The probability of the edge from the parent (chance children).
    pub prob: f64,
}

impl ArenaNode {
    /// The root's parent.
    pub const NO_PARENT: u32 = NO_PARENT;
}

/// Iterator over a node's children.
#[derive(Clone, Debug)]
pub struct Children(Range<u32>);

impl Children {
    /// The `n` consecutive ids from `first` (a node's children, in an arena's layout).
    #[inline]
    pub fn new(first: u32, n: u32) -> Self {
        Children(first..first + n)
    }
}

impl Iterator for Children {
    type Item = NodeId;

    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        self.0.next().map(NodeId)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Children {
    #[inline]
    fn next_back(&mut self) -> Option<NodeId> {
        self.0.next_back().map(NodeId)
    }
}

impl ExactSizeIterator for Children {}

/// Preorder walk; see [`Tree::preorder`].
pub struct Preorder<'t> {
    tree: &'t Tree,
    stack: Vec<NodeId>,
}

impl Iterator for Preorder<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.stack.pop()?;
        self.stack.extend(self.tree.children(id).rev());
        Some(id)
    }
}

/// Small trees for the crate's unit tests, built without a parser.
#[cfg(test)]
pub(crate) mod samples {
    use super::*;

    /// The classic `((3, 12, 8), (2, 4, 6), (14, 5, 2))`, with labels a, b, c on the root's
    /// moves.
    pub(crate) fn classic() -> Tree {
        // ((3, 12, 8), (2, 4, 6), (14, 5, 2)) with labels on the root's moves.
        let mut d = Draft::new(Meta {
            players: 2,
            ..Meta::default()
        });
        d.push(DraftNode::interior(Kind::Max, 3));
        for (label, leaves) in [
            ("a", [3.0, 12.0, 8.0]),
            ("b", [2.0, 4.0, 6.0]),
            ("c", [14.0, 5.0, 2.0]),
        ] {
            d.push(DraftNode::interior(Kind::Min, 3).with_label(label));
            for v in leaves {
                d.push(DraftNode::leaf(v));
            }
        }
        d.finish().unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Tree {
        samples::classic()
    }

    #[test]
    fn a_node_costs_31_bytes() {
        let per_node = std::mem::size_of::<Kind>()
            + 3 * std::mem::size_of::<u32>()
            + 2 * std::mem::size_of::<f64>()
            + std::mem::size_of::<bool>();
        assert_eq!(per_node, 31);
    }

    #[test]
    fn children_are_contiguous_and_point_back() {
        let t = sample();
        assert_eq!(t.len(), 13);
        assert_eq!(t.leaf_count(), 9);
        let kids: Vec<_> = t.children(t.root()).collect();
        assert_eq!(kids.len(), 3);
        for (i, &k) in kids.iter().enumerate() {
            assert_eq!(t.parent(k), Some(t.root()));
            assert_eq!(t.child_index(k), i);
            assert_eq!(t.kind(k), Kind::Min);
        }
        assert_eq!(t.label(kids[1]), Some("b"));
        assert_eq!(t.label(t.root()), None);
        let leaves: Vec<f64> = t.children(kids[2]).map(|l| t.value(l)).collect();
        assert_eq!(leaves, vec![14.0, 5.0, 2.0]);
    }

    #[test]
    fn preorder_sizes_heights() {
        let t = sample();
        let pre: Vec<_> = t.preorder().collect();
        assert_eq!(pre.len(), 13);
        assert_eq!(pre[0], t.root());
        assert_eq!(t.kind(pre[1]), Kind::Min);
        assert_eq!(t.value(pre[2]), 3.0);
        let sizes = t.subtree_sizes();
        assert_eq!(sizes[0], 13);
        assert_eq!(sizes[t.child(t.root(), 0).index()], 4);
        assert_eq!(t.heights()[0], 2);
        let ranks = t.preorder_ranks();
        for (i, id) in t.preorder().enumerate() {
            assert_eq!(ranks[id.index()], i as u32);
        }
        let leaf = t.child(t.child(t.root(), 2), 1);
        assert_eq!(t.depth_of(leaf), 2);
        assert_eq!(t.path_to(leaf).len(), 3);
    }

    #[test]
    fn labels_follow_their_nodes_from_preorder_to_ids() {
        let t = crate::format::parse_expr("(a=(c=1,d=2),b=(\"\"=3,f=4))", false).unwrap();
        let by_id: Vec<Option<&str>> = t.ids().map(|i| t.label(i)).collect();
        let want = [
            None,
            Some("a"),
            Some("b"),
            Some("c"),
            Some("d"),
            None,
            Some("f"),
        ];
        assert_eq!(by_id, want);
        // Stored in preorder or rebuilt in id order, the same labels make equal trees.
        let rebuilt = t.clone().with_labels(|i| t.label(i).map(str::to_owned));
        assert_eq!(rebuilt, t);
        let renamed = t
            .clone()
            .with_labels(|i| t.label(i).map(|l| l.replace('f', "g")));
        assert_ne!(renamed, t);
        assert_eq!(
            t.clone().with_labels(|_| None),
            t.clone().with_labels(|_| Some(String::new()))
        );
        assert!(!t.clone().with_labels(|_| None).has_labels());
    }

    #[test]
    fn reordering_keeps_values_and_labels() {
        let t = sample();
        let r = t.reordered(|t, id| (0..t.child_count(id)).rev().collect());
        let first = r.child(r.root(), 0);
        assert_eq!(r.label(first), Some("c"));
        let leaves: Vec<f64> = r.children(first).map(|l| r.value(l)).collect();
        assert_eq!(leaves, vec![2.0, 5.0, 14.0]);
        let back = r.reordered(|t, id| (0..t.child_count(id)).rev().collect());
        assert_eq!(back, t);
    }

    #[test]
    fn keys_and_heuristics_are_stored_only_where_given() {
        let t = sample();
        assert!(!t.has_keys() && !t.has_heuristics());
        assert_eq!((t.key(t.root()), t.heuristic(t.root())), (None, None));
        let n = t.len();
        // Keys on every other node, 0 included; heuristics at the root and the first Min node.
        let keys: Vec<Option<u64>> = (0..n as u64).map(|i| (i % 2 == 0).then_some(i)).collect();
        let mut heur = vec![None; n];
        heur[0] = Some(2.5);
        heur[1] = Some(-0.0);
        let k = t
            .clone()
            .with_positions(keys.clone(), heur.clone())
            .unwrap();
        assert!(k.has_keys() && k.has_heuristics());
        for i in 0..n {
            assert_eq!(k.key(NodeId(i as u32)), keys[i]);
            assert_eq!(k.heuristic(NodeId(i as u32)), heur[i]);
        }
        assert_eq!(k.distinct_keys(), Some(n.div_ceil(2)));
        assert_ne!(k, t);
        assert_eq!(
            k,
            t.clone()
                .with_positions(keys.clone(), heur.clone())
                .unwrap()
        );
        // Equality sees a key's absence apart from a key 0, and -0.0 apart from 0.0.
        let mut zero = keys.clone();
        zero[1] = Some(0);
        assert_ne!(k, t.clone().with_positions(zero, heur.clone()).unwrap());
        let mut plus = heur.clone();
        plus[1] = Some(0.0);
        assert_ne!(k, t.clone().with_positions(keys.clone(), plus).unwrap());
        // Only the keys: no heuristic column at all.
        let only = t
            .clone()
            .with_positions(keys.clone(), vec![None; n])
            .unwrap();
        assert!(only.has_keys() && !only.has_heuristics());
        let leaf = t.child(t.child(t.root(), 0), 0);
        let mut on_leaf = vec![None; n];
        on_leaf[leaf.index()] = Some(1.0);
        assert!(t.clone().with_positions(vec![], on_leaf).is_err());
        let mut nan = vec![None; n];
        nan[0] = Some(f64::NAN);
        assert!(t.clone().with_positions(vec![], nan).is_err());
        assert!(t.clone().with_positions(vec![Some(1)], vec![]).is_err());
    }

    #[test]
    fn derived_bounds_are_tight() {
        let b = sample().value_bounds();
        assert_eq!((b.lo, b.hi, b.declared), (2.0, 14.0, false));
    }

    #[test]
    fn from_arena_rejects_broken_links() {
        let leaf = |parent| ArenaNode {
            first: 0,
            len: 0,
            parent,
            kind: Kind::Leaf,
            uniform: false,
            value: 1.0,
            prob: 1.0,
        };
        let root = ArenaNode {
            first: 1,
            len: 2,
            parent: ArenaNode::NO_PARENT,
            kind: Kind::Max,
            ..leaf(0)
        };
        let meta = Meta {
            players: 2,
            ..Meta::default()
        };
        assert!(
            Tree::from_arena(meta.clone(), false, vec![root, leaf(0), leaf(0)], vec![]).is_ok()
        );
        let err = Tree::from_arena(meta, false, vec![root, leaf(0), leaf(1)], vec![]).unwrap_err();
        assert!(err.contains("does not point back"), "{err}");
    }
}
