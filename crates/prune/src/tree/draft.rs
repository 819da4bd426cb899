//! The preorder form of a tree, validated and then laid out as an arena.
//!
//! Loaders read nodes in preorder (a node, then its children's subtrees in order); they push one
//! [`DraftNode`] each, with its number of children. [`Draft::validate`] reports the first problem
//! as the preorder index of the offending node, which the loader turns into a file position.

use super::{Bounds, Columns, Kind, Labels, MAX_NODES, Meta, NO_PARENT, Positions, Tree};
use crate::exact::is_integer;
use crate::text::number_text;

/// Probabilities of a chance node may be off by this much in total (decimal input such as
/// `0.333333` three times, or ten probabilities rounded to six places); they are then rescaled to
/// sum to 1.
pub const PROB_TOLERANCE: f64 = 1e-5;

/// One node in preorder.
#[derive(Clone, Debug, PartialEq)]
pub struct DraftNode {
    /// What the node is.
    pub kind: Kind,
    /// Value of a two-player leaf.
    pub value: f64,
    /// Payoff vector of an n-player leaf (empty otherwise).
    pub payoff: Vec<f64>,
    /// Probability of the edge from the parent, when written (chance children only).
    pub prob: Option<f64>,
    /// The move that leads to the node.
    pub label: Option<String>,
    /// Static evaluation of the position (interior nodes of two-player trees).
    pub heuristic: Option<f64>,
    /// Position key: equal positions have equal keys.
    pub key: Option<u64>,
    /// Number of children that follow in preorder.
    pub children: u32,
}

impl DraftNode {
    /// A two-player leaf of value `value`.
    pub fn leaf(value: f64) -> Self {
        DraftNode {
            kind: Kind::Leaf,
            value,
            payoff: Vec::new(),
            prob: None,
            label: None,
            heuristic: None,
            key: None,
            children: 0,
        }
    }

    /// An n-player leaf with its payoff vector.
    pub fn payoff(payoff: Vec<f64>) -> Self {
        DraftNode {
            payoff,
            ..Self::leaf(0.0)
        }
    }

    /// An interior node whose `children` follow it in preorder.
    pub fn interior(kind: Kind, children: u32) -> Self {
        DraftNode {
            kind,
            children,
            ..Self::leaf(0.0)
        }
    }

    /// The node with a label.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// The node with the probability of the edge from its parent.
    pub fn with_prob(mut self, p: f64) -> Self {
        self.prob = Some(p);
        self
    }

    /// The node with a position key.
    pub fn with_key(mut self, key: u64) -> Self {
        self.key = Some(key);
        self
    }

    /// The node with a heuristic value.
    pub fn with_heuristic(mut self, h: f64) -> Self {
        self.heuristic = Some(h);
        self
    }
}

/// A semantic problem at a node, given by its preorder index.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// The node's index in preorder.
    pub node: usize,
    /// What is wrong.
    pub message: String,
    /// What to do about it, when something can be suggested.
    pub hint: Option<String>,
}

fn invalid(node: usize, message: impl Into<String>, hint: Option<&str>) -> Invalid {
    Invalid {
        node,
        message: message.into(),
        hint: hint.map(str::to_owned),
    }
}

/// A tree in preorder, not yet validated. See the module documentation.
///
/// Stored as columns, because the largest trees are loaded through it: kind, child count and
/// value for every node (14 bytes), and probabilities, labels and payoff vectors only for the
/// nodes that have them, in preorder (a load's peak memory is this plus the arena).
#[derive(Clone, Debug, Default)]
pub struct Draft {
    /// The tree's metadata, as read.
    pub meta: Meta,
    kind: Vec<Kind>,
    children: Vec<u32>,
    value: Vec<f64>,
    /// (preorder index, probability), by index.
    probs: Vec<(u32, f64)>,
    /// Preorder index of every labelled node, by index.
    label_nodes: Vec<u32>,
    /// 0, then the end of each of those labels in `label_text` (one starts where the previous
    /// ends): handed over to the tree as they are (see [`Labels`]).
    label_ends: Vec<u32>,
    label_text: String,
    /// Bytes of label text to make room for when the first label comes (see
    /// [`Draft::expect_label_text`]).
    label_room: usize,
    /// Payoff values to make room for when the first vector comes (see
    /// [`Draft::expect_payoff_values`]).
    payoff_room: usize,
    /// Preorder index of every node with a payoff vector, by index.
    payoff_nodes: Vec<u32>,
    /// End of each of those vectors in `payoff_values` (one starts where the previous ends).
    payoff_ends: Vec<usize>,
    payoff_values: Vec<f64>,
    /// (preorder index, position key), by index: only the nodes that have one.
    keys: Vec<(u32, u64)>,
    /// (preorder index, heuristic value), by index: only the nodes that have one.
    heuristics: Vec<(u32, f64)>,
    /// Facts kept as nodes are pushed and changed, so that validating a common tree needs no
    /// pass over its kinds and values: see [`Summary`].
    summary: Summary,
}

/// What [`Draft`] keeps up to date as nodes are pushed and changed.
#[derive(Clone, Debug)]
struct Summary {
    /// Nodes of kind `Player` (exact).
    players: usize,
    /// Nodes other than leaves without children.
    childless: usize,
    /// Whether every leaf value is finite.
    finite: bool,
    /// The smallest and largest leaf value, or bounds on them (the default, 0, is one).
    lo: f64,
    hi: f64,
    /// A leaf became an interior node or the other way round: `childless`, `finite`, `lo`
    /// and `hi` no longer tell anything.
    stale: bool,
}

impl Default for Summary {
    fn default() -> Self {
        Summary {
            players: 0,
            childless: 0,
            finite: true,
            lo: f64::INFINITY,
            hi: f64::NEG_INFINITY,
            stale: false,
        }
    }
}

impl Summary {
    #[inline]
    fn leaf(&mut self, value: f64) {
        self.finite &= value.is_finite();
        self.lo = self.lo.min(value);
        self.hi = self.hi.max(value);
    }
}

impl Draft {
    /// An empty draft for a tree described by `meta`.
    pub fn new(meta: Meta) -> Self {
        Draft {
            meta,
            ..Draft::default()
        }
    }

    /// A draft with room for `n` nodes (labels, probabilities and payoffs grow as needed).
    pub fn with_capacity(meta: Meta, n: usize) -> Self {
        Draft {
            meta,
            kind: Vec::with_capacity(n),
            children: Vec::with_capacity(n),
            value: Vec::with_capacity(n),
            ..Draft::default()
        }
    }

    /// Where the columns every node has start, with their bytes a node, for their reserved
    /// room to be faulted in ahead (see [`super::Room`]).
    pub(super) fn reserved_columns(&self) -> Vec<(usize, usize)> {
        vec![
            (self.kind.as_ptr() as usize, size_of::<Kind>()),
            (self.children.as_ptr() as usize, size_of::<u32>()),
            (self.value.as_ptr() as usize, size_of::<f64>()),
        ]
    }

    /// Appends the next node in preorder.
    pub fn push(&mut self, node: DraftNode) {
        let i = self.kind.len() as u32;
        match node.kind {
            Kind::Leaf => self.summary.leaf(node.value),
            Kind::Player(_) => self.summary.players += 1,
            _ => {}
        }
        if node.kind != Kind::Leaf && node.children == 0 {
            self.summary.childless += 1;
        }
        self.kind.push(node.kind);
        self.children.push(node.children);
        self.value.push(node.value);
        if let Some(p) = node.prob {
            self.push_prob(i, p);
        }
        if let Some(l) = node.label {
            self.push_label(i, &l);
        }
        self.push_payoff_of(i, &node.payoff);
        if let Some(k) = node.key {
            self.keys.push((i, k));
        }
        if let Some(h) = node.heuristic {
            self.heuristics.push((i, h));
        }
    }

    /// `push(DraftNode::leaf(value))`, for loaders' hot loops.
    #[inline]
    pub fn push_leaf(&mut self, value: f64) {
        self.summary.leaf(value);
        self.kind.push(Kind::Leaf);
        self.children.push(0);
        self.value.push(value);
    }

    /// `push(DraftNode::interior(kind, 0))`, for loaders' hot loops (the count is set with
    /// [`Draft::set_children`] once the children are read).
    #[inline]
    pub fn push_interior(&mut self, kind: Kind) {
        match kind {
            Kind::Leaf => self.summary.leaf(0.0),
            Kind::Player(_) => {
                self.summary.players += 1;
                self.summary.childless += 1;
            }
            _ => self.summary.childless += 1,
        }
        self.kind.push(kind);
        self.children.push(0);
        self.value.push(0.0);
    }

    /// `push(DraftNode::payoff(payoff.to_vec()))`, without the vector.
    pub fn push_payoff(&mut self, payoff: &[f64]) {
        self.push_leaf(0.0);
        self.push_payoff_of(self.kind.len() as u32 - 1, payoff);
    }

    /// Labels the node pushed last, as [`Draft::push`] does a node with `label: Some(…)`
    /// (loaders read labels from their text without making a `String` of each).
    pub fn label_last(&mut self, label: &str) {
        self.push_label(self.kind.len() as u32 - 1, label);
    }

    /// Gives the node pushed last its probability, as [`Draft::push`] does a node with
    /// `prob: Some(p)`.
    pub fn prob_last(&mut self, p: f64) {
        self.push_prob(self.kind.len() as u32 - 1, p);
    }

    /// Entries a side table (labels, probabilities, payoffs) may need for the nodes still to
    /// come, as far as the draft's room tells: reserved when its first entry is pushed, as a
    /// table that grows by doubling copies itself several times on the way to a million
    /// entries (pages reserved and never written cost no memory). One entry a node, one byte
    /// of label text, one payoff value a node of the draft's room (what `format::load_estimate`
    /// counts), unless the loader said to expect more; a longer label or vector grows as
    /// before.
    fn room(&self) -> usize {
        self.kind.capacity().saturating_sub(self.kind.len()) + 1
    }

    fn push_prob(&mut self, i: u32, p: f64) {
        if self.probs.is_empty() {
            self.probs.reserve(self.room());
        }
        self.probs.push((i, p));
    }

    fn push_payoff_of(&mut self, i: u32, payoff: &[f64]) {
        if payoff.is_empty() {
            return;
        }
        if self.payoff_nodes.is_empty() {
            let room = self.room();
            self.payoff_nodes.reserve(room);
            self.payoff_ends.reserve(room);
            self.payoff_values.reserve(room.max(self.payoff_room));
        }
        self.payoff_values.extend_from_slice(payoff);
        self.payoff_nodes.push(i);
        self.payoff_ends.push(self.payoff_values.len());
    }

    fn push_label(&mut self, i: u32, label: &str) {
        if self.label_nodes.is_empty() {
            let room = self.room();
            self.label_nodes.reserve(room);
            self.label_ends.reserve(room + 1);
            self.label_ends.push(0);
            self.label_text.reserve(room.max(self.label_room));
        }
        self.label_text.push_str(label);
        self.label_nodes.push(i);
        self.label_ends.push(self.label_text.len() as u32);
    }

    /// Tells the draft that its labels will likely take at most `bytes` bytes in all: a loader
    /// passes its text's length, which bounds labels read from it. The room is taken when the
    /// first label comes (and costs nothing until written): a label text grown by doubling is
    /// copied, and faulted in, several times on the way to a few megabytes.
    pub fn expect_label_text(&mut self, bytes: usize) {
        self.label_room = bytes;
    }

    /// Tells the draft how many payoff values its vectors will hold in all, when the loader
    /// knows (the `.efg` reader sums every leaf's vector before it pushes any): room for them
    /// all is taken with the first, so the values are never copied as they grow.
    pub fn expect_payoff_values(&mut self, values: usize) {
        self.payoff_room = values;
    }

    /// Number of nodes pushed.
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    /// Whether no node was pushed.
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    /// Kind of the node at preorder index `i`.
    pub fn kind(&self, i: usize) -> Kind {
        self.kind[i]
    }

    /// Sets the kind of node `i` (in preorder): a reader that learns it later.
    pub fn set_kind(&mut self, i: usize, kind: Kind) {
        let old = self.kind[i];
        self.summary.players -= usize::from(matches!(old, Kind::Player(_)));
        self.summary.players += usize::from(matches!(kind, Kind::Player(_)));
        self.summary.stale |= (old == Kind::Leaf) != (kind == Kind::Leaf);
        self.kind[i] = kind;
    }

    /// Number of children of the node at preorder index `i`.
    pub fn children(&self, i: usize) -> u32 {
        self.children[i]
    }

    /// Sets the child count of a node pushed before its children were read.
    pub fn set_children(&mut self, i: usize, children: u32) {
        if self.kind[i] != Kind::Leaf {
            let old = self.children[i];
            self.summary.childless -= usize::from(old == 0);
            self.summary.childless += usize::from(children == 0);
        }
        self.children[i] = children;
    }

    /// Gives the node at preorder index `i` the probability `p` (replacing any it had).
    pub fn set_prob(&mut self, i: usize, p: f64) {
        let i = i as u32;
        match self.probs.binary_search_by_key(&i, |&(at, _)| at) {
            Ok(k) => self.probs[k].1 = p,
            Err(k) => self.probs.insert(k, (i, p)),
        }
    }

    /// Gives the node at preorder index `i` a position key (a loader that reads it after the
    /// node's children; [`Draft::validate`] puts them in order).
    pub fn set_key(&mut self, i: usize, key: u64) {
        self.keys.push((i as u32, key));
    }

    /// Gives the node at preorder index `i` a heuristic value (as [`Draft::set_key`]).
    pub fn set_heuristic(&mut self, i: usize, h: f64) {
        self.heuristics.push((i as u32, h));
    }

    /// Length of the first payoff vector, if any node has one.
    pub fn first_payoff_len(&self) -> Option<usize> {
        self.payoff_ends.first().copied()
    }

    /// The `k`-th payoff vector (in preorder).
    fn payoff(&self, k: usize) -> &[f64] {
        let start = if k == 0 { 0 } else { self.payoff_ends[k - 1] };
        &self.payoff_values[start..self.payoff_ends[k]]
    }

    /// Whether the draft is an n-player tree: any `Player` node or payoff vector makes it one.
    pub fn is_multiplayer(&self) -> bool {
        self.meta.players > 2 || !self.payoff_nodes.is_empty() || self.summary.players > 0
    }

    /// Checks everything a tree must satisfy, fixing up what is only a matter of representation:
    /// the number of players of an n-player tree when not declared, uniform flags, and chance
    /// probabilities within [`PROB_TOLERANCE`] of summing to 1 (rescaled exactly to 1).
    pub fn validate(&mut self) -> Result<(), Invalid> {
        // Keys and heuristic values set after a node's children come out of order: sort them
        // (stably, so a value set later for the same node wins in `dedup`).
        self.keys.sort_by_key(|&(i, _)| i);
        dedup_last(&mut self.keys);
        self.heuristics.sort_by_key(|&(i, _)| i);
        dedup_last(&mut self.heuristics);
        let multiplayer = self.is_multiplayer();
        self.check_meta(multiplayer)?;
        if !multiplayer && self.heuristics.is_empty() && self.two_player_nodes_pass() {
            return self.check_probabilities();
        }
        self.check_shape()?;
        let players = usize::from(self.meta.players);
        self.check_stray_player(multiplayer)?;
        let mut payoff = 0; // the next payoff vector, in preorder
        let mut heuristic = 0; // the next heuristic value, in preorder
        for (i, (&kind, &children)) in self.kind.iter().zip(&self.children).enumerate() {
            let own = if self.payoff_nodes.get(payoff) == Some(&(i as u32)) {
                payoff += 1;
                self.payoff(payoff - 1)
            } else {
                &[]
            };
            let h = match self.heuristics.get(heuristic) {
                Some(&(at, h)) if at as usize == i => {
                    heuristic += 1;
                    Some(h)
                }
                _ => None,
            };
            match kind {
                Kind::Max | Kind::Min if multiplayer => {
                    return Err(invalid(
                        i,
                        format!("a {} node in an n-player tree", kind.name()),
                        Some(
                            "n-player trees use `Player(i, [...])` nodes; Max/Min belong to two-player trees",
                        ),
                    ));
                }
                Kind::Player(p) if !multiplayer => {
                    return Err(invalid(
                        i,
                        format!("a player {} node in a two-player tree", p + 1),
                        None,
                    ));
                }
                Kind::Player(p) if usize::from(p) >= players => {
                    return Err(invalid(
                        i,
                        format!(
                            "player {} does not exist: the tree has {players} players",
                            p + 1
                        ),
                        Some("players are numbered from 1"),
                    ));
                }
                Kind::Leaf if h.is_some() => {
                    return Err(invalid(
                        i,
                        "a heuristic value on a leaf",
                        Some(
                            "heuristic values belong to interior nodes; a leaf's value is its own",
                        ),
                    ));
                }
                Kind::Leaf => self.check_leaf(i, self.value[i], own, multiplayer)?,
                _ if h.is_some_and(|h| !h.is_finite()) => {
                    return Err(invalid(
                        i,
                        format!(
                            "heuristic value {} is not a finite number",
                            number_text(h.unwrap_or(0.0))
                        ),
                        None,
                    ));
                }
                _ if children == 0 => {
                    let what = if kind == Kind::Chance {
                        "a chance node"
                    } else {
                        "an interior node"
                    };
                    return Err(invalid(
                        i,
                        format!("{what} with no children"),
                        Some("give it at least one child, or make it a leaf with a value"),
                    ));
                }
                _ => {}
            }
        }
        self.check_probabilities()
    }

    /// One pass for the common case, a two-player tree without heuristic values: whether the
    /// shape and every node pass the checks below. When not, the checks run one by one to
    /// report the first problem in their order.
    fn two_player_nodes_pass(&self) -> bool {
        let n = self.len();
        if n == 0 || n > MAX_NODES {
            return false;
        }
        let (lo, hi) = self
            .meta
            .bounds
            .map_or((f64::NEG_INFINITY, f64::INFINITY), |b| (b.lo, b.hi));
        let s = &self.summary;
        if !s.stale && s.players == 0 && s.childless == 0 && s.finite && lo <= s.lo && s.hi <= hi {
            // Every node passes: only the shape is left to check.
            let mut open: u64 = 1;
            for &c in &self.children {
                if open == 0 {
                    return false;
                }
                open = open - 1 + u64::from(c);
            }
            debug_assert!(open != 0 || self.every_node_passes(lo, hi));
            return open == 0;
        }
        self.every_node_passes(lo, hi)
    }

    /// [`Draft::two_player_nodes_pass`] node by node, for leaf values within `lo..=hi`.
    fn every_node_passes(&self, lo: f64, hi: f64) -> bool {
        let mut open: u64 = 1; // nodes still expected
        let mut ok = true;
        for ((&kind, &c), &v) in self.kind.iter().zip(&self.children).zip(&self.value) {
            if open == 0 {
                return false;
            }
            open = open - 1 + u64::from(c);
            ok &= match kind {
                Kind::Leaf => v.is_finite() && v >= lo && v <= hi,
                Kind::Max | Kind::Min | Kind::Chance => c > 0,
                Kind::Player(_) => false,
            };
        }
        ok && open == 0
    }

    /// A `Player` node among Max/Min nodes and plain-number leaves is the mistake, not the Max
    /// nodes around it: only `Player` nodes made the tree n-player.
    fn check_stray_player(&self, multiplayer: bool) -> Result<(), Invalid> {
        if !multiplayer
            || self.meta.players > 2
            || !self.payoff_nodes.is_empty()
            || !self.kind.iter().any(|k| matches!(k, Kind::Max | Kind::Min))
        {
            return Ok(());
        }
        match self.kind.iter().enumerate().find_map(|(i, k)| match k {
            Kind::Player(p) => Some((i, *p)),
            _ => None,
        }) {
            Some((i, p)) => Err(invalid(
                i,
                format!(
                    "a player {} node in a two-player tree of Max/Min nodes and single values",
                    p + 1
                ),
                Some(
                    "use Max or Min here; Player(i, [...]) nodes belong to n-player trees, whose leaves are payoff vectors",
                ),
            )),
            None => Ok(()),
        }
    }

    fn check_meta(&mut self, multiplayer: bool) -> Result<(), Invalid> {
        if let Some(Bounds { lo, hi }) = self.meta.bounds {
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(invalid(
                    0,
                    format!(
                        "bounds {}..{} are not a finite range L <= U",
                        number_text(lo),
                        number_text(hi)
                    ),
                    None,
                ));
            }
        }
        if multiplayer {
            match (self.meta.players, self.first_payoff_len()) {
                (0, Some(w)) => self.meta.players = u8::try_from(w).unwrap_or(u8::MAX),
                (0, None) => self.meta.players = 2,
                _ => {}
            }
            if self.meta.players < 2 {
                // Blame the first one-value payoff vector when there is one, not the root.
                let one = (0..self.payoff_nodes.len()).find(|&k| self.payoff(k).len() == 1);
                let (at, what) = match one {
                    Some(k) => (self.payoff_nodes[k] as usize, "a payoff vector of 1 value"),
                    None => (0, "a tree of 1 player"),
                };
                return Err(invalid(
                    at,
                    format!("{what}: an n-player tree needs at least 2 players"),
                    Some(
                        "give each leaf one payoff per player, such as (3, 1); a two-player zero-sum leaf is a plain number",
                    ),
                ));
            }
        } else if self.meta.players == 0 {
            self.meta.players = 2;
        } else if self.meta.players != 2 {
            return Err(invalid(
                0,
                format!(
                    "the tree declares {} players but has no payoff vectors",
                    self.meta.players
                ),
                Some("leaves of an n-player tree are payoff vectors such as (3, 1, 8)"),
            ));
        }
        Ok(())
    }

    /// The child counts must describe exactly one tree.
    fn check_shape(&self) -> Result<(), Invalid> {
        if self.is_empty() {
            return Err(invalid(
                0,
                "the tree has no nodes",
                Some("a tree needs at least a root"),
            ));
        }
        if self.len() > MAX_NODES {
            return Err(invalid(
                MAX_NODES,
                format!("more than {MAX_NODES} nodes"),
                None,
            ));
        }
        let mut open: u64 = 1; // nodes still expected
        for (i, &c) in self.children.iter().enumerate() {
            if open == 0 {
                return Err(invalid(i, "node after the end of the tree", None));
            }
            open = open - 1 + u64::from(c);
        }
        if open != 0 {
            return Err(invalid(
                self.len() - 1,
                format!("{open} children missing at the end of the tree"),
                None,
            ));
        }
        Ok(())
    }

    fn check_leaf(
        &self,
        i: usize,
        value: f64,
        payoff: &[f64],
        multiplayer: bool,
    ) -> Result<(), Invalid> {
        if !multiplayer {
            if !value.is_finite() {
                return Err(invalid(
                    i,
                    format!("leaf value {} is not a finite number", number_text(value)),
                    None,
                ));
            }
            if let Some(b) = self.meta.bounds {
                if value < b.lo || value > b.hi {
                    return Err(invalid(
                        i,
                        format!(
                            "leaf value {} is outside the declared bounds {}..{}",
                            number_text(value),
                            number_text(b.lo),
                            number_text(b.hi)
                        ),
                        Some("widen `bounds`, or fix the value"),
                    ));
                }
            }
            return Ok(());
        }
        let players = usize::from(self.meta.players);
        if payoff.len() != players {
            return Err(invalid(
                i,
                format!(
                    "payoff vector of {} values in a {players}-player tree",
                    payoff.len()
                ),
                Some("every leaf of an n-player tree has one payoff per player"),
            ));
        }
        if let Some(x) = payoff.iter().find(|x| !x.is_finite()) {
            return Err(invalid(
                i,
                format!("payoff {} is not a finite number", number_text(*x)),
                None,
            ));
        }
        if let Some(floor) = self.meta.payoff_floor {
            if let Some(x) = payoff.iter().find(|&&x| x < floor) {
                return Err(invalid(
                    i,
                    format!(
                        "payoff {} is below the declared floor {}",
                        number_text(*x),
                        number_text(floor)
                    ),
                    None,
                ));
            }
        }
        if let Some(max) = self.meta.payoff_sum {
            let sum: f64 = payoff.iter().sum();
            if sum > max + 1e-9 * max.abs().max(1.0) {
                return Err(invalid(
                    i,
                    format!(
                        "payoffs sum to {}, above the declared maximum sum {}",
                        number_text(sum),
                        number_text(max)
                    ),
                    None,
                ));
            }
        }
        Ok(())
    }

    /// Probabilities: only under chance nodes, all or none of a node's children, each in (0, 1],
    /// summing to 1. One preorder walk: a misplaced or out-of-range probability is reported at
    /// once; a chance node's sum is checked when its last child is read, and of those problems
    /// the first chance node in preorder is reported, as if the nodes were checked in order.
    fn check_probabilities(&mut self) -> Result<(), Invalid> {
        if self.probs.is_empty() {
            return Ok(());
        }
        struct Open {
            node: usize,
            left: u32,
            /// Where this chance node's children start in `kids`.
            kids: usize,
        }
        let mut stack: Vec<Open> = Vec::new();
        // Children of the open chance nodes: (preorder index, its entry in `probs`).
        let mut kids: Vec<(usize, Option<usize>)> = Vec::new();
        let mut next = 0; // the next entry of `probs`
        let mut sum_error: Option<(usize, Invalid)> = None; // (chance node, its problem)
        for i in 0..self.len() {
            let given = match self.probs.get(next) {
                Some(&(at, _)) if at as usize == i => {
                    next += 1;
                    Some(next - 1)
                }
                _ => None,
            };
            let parent_is_chance = stack
                .last()
                .is_some_and(|o| self.kind[o.node] == Kind::Chance);
            if let Some(k) = given {
                let p = self.probs[k].1;
                if !parent_is_chance {
                    return Err(invalid(
                        i,
                        "a probability on a node whose parent is not a chance node",
                        Some("only the children of a chance node carry probabilities"),
                    ));
                }
                if !(p.is_finite() && p > 0.0 && p <= 1.0) {
                    return Err(invalid(
                        i,
                        format!("probability {} is not in (0, 1]", number_text(p)),
                        Some("write probabilities as decimals like 0.25 or fractions like \"1/3\""),
                    ));
                }
            }
            if parent_is_chance {
                kids.push((i, given));
            }
            if let Some(top) = stack.last_mut() {
                top.left -= 1;
            }
            if self.children[i] > 0 {
                stack.push(Open {
                    node: i,
                    left: self.children[i],
                    kids: kids.len(),
                });
            }
            while stack.last().is_some_and(|o| o.left == 0) {
                let done = stack.pop().expect("non-empty");
                if self.kind[done.node] == Kind::Chance {
                    if let Err(e) = self.check_chance_sum(done.node, &kids[done.kids..]) {
                        if sum_error.as_ref().is_none_or(|&(at, _)| done.node < at) {
                            sum_error = Some((done.node, e));
                        }
                    }
                    kids.truncate(done.kids);
                }
            }
        }
        match sum_error {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    /// The children of chance node `node` (preorder index, entry in `probs`) carry probabilities
    /// for all or none, summing to 1 within [`PROB_TOLERANCE`]; rescaled to sum to exactly 1.
    fn check_chance_sum(
        &mut self,
        node: usize,
        kids: &[(usize, Option<usize>)],
    ) -> Result<(), Invalid> {
        let given = kids.iter().filter(|k| k.1.is_some()).count();
        if given == 0 {
            return Ok(());
        }
        if given != kids.len() {
            let missing = kids.iter().find(|k| k.1.is_none()).map_or(node, |k| k.0);
            return Err(invalid(
                missing,
                "some children of this chance node have a probability and this one has none",
                Some(
                    "give every child of a chance node a probability, or none to make them equally likely",
                ),
            ));
        }
        let sum: f64 = kids
            .iter()
            .filter_map(|k| k.1)
            .map(|k| self.probs[k].1)
            .sum();
        if (sum - 1.0).abs() > PROB_TOLERANCE {
            return Err(invalid(
                node,
                format!(
                    "the probabilities of this chance node sum to {}, not 1",
                    number_text(sum)
                ),
                Some("fractions like \"1/3\" are exact"),
            ));
        }
        if (sum - 1.0).abs() > 1e-12 {
            for k in kids.iter().filter_map(|k| k.1) {
                self.probs[k].1 /= sum;
            }
        }
        Ok(())
    }

    /// Validates, then lays the tree out in breadth-first order — the one layout every tree has,
    /// so two equal trees have equal arenas and node ids mean the same thing everywhere: `#0` is
    /// the root, its children follow, then the grandchildren, level by level.
    pub fn finish(self) -> Result<Tree, Invalid> {
        Ok(self.validated()?.layout())
    }

    /// [`Draft::validate`], keeping the draft for [`Valid::layout`]: a loader can free what
    /// it only needed for error messages (the text, node positions) in between.
    pub fn validated(mut self) -> Result<Valid, Invalid> {
        self.validate()?;
        Ok(Valid(self))
    }
}

/// Keeps, of entries for the same node (sorted by node), the last one.
fn dedup_last<T: Copy>(v: &mut Vec<(u32, T)>) {
    let mut out: Vec<(u32, T)> = Vec::with_capacity(v.len());
    for &e in v.iter() {
        match out.last_mut() {
            Some(last) if last.0 == e.0 => *last = e,
            _ => out.push(e),
        }
    }
    *v = out;
}

/// A draft that passed [`Draft::validate`].
#[derive(Debug)]
pub struct Valid(Draft);

impl Valid {
    /// The arena, in breadth-first order. A node's id is the start of its level plus the
    /// number of nodes of that level before it in preorder, so two preorder walks (one counting
    /// the levels, one writing every node at its id) lay it out without any per-node table
    /// beyond the arena itself. The second walk also gathers what `Tree::sealed` would
    /// compute in passes of its own (height, leaves, chance nodes, integer values).
    pub fn layout(self) -> Tree {
        self.layout_with(None)
    }

    /// [`Valid::layout`], in the arena's columns `room` made ahead where it made them for
    /// enough nodes (the same tree either way).
    pub fn layout_in(self, room: super::Room) -> Tree {
        let n = self.0.len();
        self.layout_with(room.take(n))
    }

    fn layout_with(self, made: Option<Columns>) -> Tree {
        let mut d = self.0;
        let multiplayer = d.is_multiplayer();
        let n = d.len();
        // next[depth]: the id the next node of that level gets.
        let mut next = level_starts(&d.children);
        // Only kinds, child counts, values and perhaps labels: no other side table to look into
        // for each node, and every probability is 1 but under chance nodes.
        let plain = !multiplayer
            && d.probs.is_empty()
            && d.keys.is_empty()
            && d.heuristics.is_empty()
            && d.payoff_nodes.is_empty();
        // The hot columns are on huge pages where the system offers them (`Columns::leaves`):
        // a search reads them at random, and on a big tree nearly every read would otherwise
        // be a TLB miss as well as a cache miss. NaN probabilities until the parent's pass
        // below: "no probability given" (when some are). Without chance nodes every
        // probability is 1, and the tree keeps none (a probability given under a decision node
        // is 1 there too).
        let has_chance = d.kind.contains(&Kind::Chance);
        let prob = match (has_chance, d.probs.is_empty()) {
            (false, _) => None,
            (true, true) => Some(1.0),
            (true, false) => Some(f64::NAN),
        };
        let mut nodes = match made {
            Some(made) => made.with_probs(prob),
            None => Columns::leaves(n, prob),
        };
        // Node id → the entry of its label (from 1), 0 for none.
        let mut label_of: Vec<u32> = if d.label_nodes.is_empty() {
            Vec::new()
        } else {
            vec![0; n]
        };
        let (mut next_prob, mut next_label, mut next_payoff) = (0, 0, 0);
        // Keys and heuristic values by id, when the draft has any.
        let positioned = !d.keys.is_empty() || !d.heuristics.is_empty();
        let mut keys: Vec<Option<u64>> = if positioned {
            vec![None; n]
        } else {
            Vec::new()
        };
        let mut heuristics: Vec<Option<f64>> = if positioned {
            vec![None; n]
        } else {
            Vec::new()
        };
        let (mut next_key, mut next_heuristic) = (0, 0);
        let (mut height, mut leaves, mut chance, mut integral) = (0, 0, false, true);
        // What the searches read besides the arena, gathered as `plain_walk` does.
        let mut branching = 0;
        let mut leaf_parents = if plain {
            Vec::new()
        } else {
            vec![0u64; n.div_ceil(64)]
        };
        // (id, children still to come, whether a child is interior)
        let mut stack: Vec<(u32, u32, bool)> = Vec::new();
        if plain {
            let facts;
            (facts, branching, leaf_parents) = if d.label_nodes.is_empty() {
                plain_walk::<false>(&mut d, &mut next, &mut nodes, &mut label_of)
            } else {
                plain_walk::<true>(&mut d, &mut next, &mut nodes, &mut label_of)
            };
            (height, leaves, chance, integral) = facts;
        } else {
            for i in 0..n {
                if i % RELEASE_EVERY == 0 {
                    release_walked(&mut d, i, next_label, next_prob);
                }
                let depth = stack.len();
                height = height.max(depth);
                let id = next[depth];
                next[depth] += 1;
                let at = id as usize;
                let (kind, c, value) = (d.kind[i], d.children[i], d.value[i]);
                if let Some(top) = stack.last_mut() {
                    nodes.parent[at] = top.0;
                    top.1 -= 1;
                    top.2 |= c > 0;
                }
                nodes.kind[at] = kind;
                nodes.len[at] = c;
                nodes.value[at] = value;
                if kind == Kind::Leaf {
                    leaves += 1;
                    integral &= is_integer(value);
                } else {
                    nodes.first[at] = next[depth + 1];
                    chance |= kind == Kind::Chance;
                }
                if !plain {
                    if d.probs
                        .get(next_prob)
                        .is_some_and(|&(k, _)| k as usize == i)
                    {
                        if has_chance {
                            nodes.prob[at] = d.probs[next_prob].1;
                        }
                        next_prob += 1;
                    }
                    if d.label_nodes.get(next_label) == Some(&(i as u32)) {
                        next_label += 1;
                        label_of[at] = next_label as u32;
                    }
                    if let Some(&(k, key)) = d.keys.get(next_key)
                        && k as usize == i
                    {
                        keys[at] = Some(key);
                        next_key += 1;
                    }
                    if let Some(&(k, h)) = d.heuristics.get(next_heuristic)
                        && k as usize == i
                    {
                        heuristics[at] = Some(h);
                        next_heuristic += 1;
                    }
                    if d.payoff_nodes.get(next_payoff) == Some(&(i as u32)) {
                        if multiplayer && kind == Kind::Leaf {
                            nodes.first[at] = next_payoff as u32; // its row is set below
                        }
                        next_payoff += 1;
                    }
                }
                if c > 0 {
                    branching = branching.max(c);
                    stack.push((id, c, false));
                }
                while let Some(&(id, 0, interior_child)) = stack.last() {
                    if !interior_child {
                        leaf_parents[id as usize / 64] |= 1 << (id % 64);
                    }
                    stack.pop();
                }
            }
        }
        if n > 0 {
            nodes.parent[0] = NO_PARENT;
            if has_chance {
                nodes.prob[0] = 1.0;
            }
        }
        // Every leaf's payoffs, rearranged by id (room for all at once: growing by doubling
        // copied them several times).
        let mut payoffs = Vec::with_capacity(if multiplayer {
            d.payoff_values.len()
        } else {
            0
        });
        let players = usize::from(d.meta.players);
        if d.probs.is_empty() || !has_chance {
            // Children of chance nodes are equally likely, the others have probability 1; a
            // leaf of an n-player tree gets its row of payoffs.
            for id in 0..n {
                match nodes.kind[id] {
                    Kind::Chance => {
                        let (first, len) = (nodes.first[id] as usize, nodes.len[id] as usize);
                        nodes.prob[first..first + len].fill(1.0 / len as f64);
                        nodes.uniform[id] = true;
                    }
                    Kind::Leaf if multiplayer => {
                        let first = nodes.first[id] as usize;
                        nodes.first[id] = (payoffs.len() / players) as u32;
                        payoffs.extend_from_slice(d.payoff(first));
                    }
                    _ => {}
                }
            }
        } else {
            for id in 0..n {
                let (kind, first, len) = (
                    nodes.kind[id],
                    nodes.first[id] as usize,
                    nodes.len[id] as usize,
                );
                if kind == Kind::Leaf {
                    if multiplayer {
                        nodes.first[id] = (payoffs.len() / players) as u32;
                        payoffs.extend_from_slice(d.payoff(first));
                    }
                    continue;
                }
                let kids = &mut nodes.prob[first..first + len];
                // Given probabilities are finite after validation; NaN is "none given".
                let equal = kids.iter().all(|p| p.to_bits() == kids[0].to_bits());
                for p in kids.iter_mut() {
                    *p = match kind {
                        Kind::Chance if !p.is_nan() && !equal => *p,
                        Kind::Chance => 1.0 / len as f64,
                        _ => 1.0,
                    };
                }
                nodes.uniform[id] = kind == Kind::Chance && equal;
            }
        }
        if multiplayer {
            integral = payoffs.iter().all(|&x| is_integer(x));
        }
        let labels = if d.label_nodes.is_empty() {
            Labels::default()
        } else {
            Labels::new(label_of, d.label_ends, d.label_text)
        };
        let positions = if positioned {
            Positions::new(keys, heuristics)
        } else {
            Positions::default()
        };
        let tree = Tree {
            nodes,
            payoffs,
            labels,
            positions,
            meta: d.meta,
            multiplayer,
            height: height as u32,
            branching: 0,
            leaf_parents: Vec::new(),
            integral,
            leaves,
            chance,
            fractions: Default::default(),
            view: Default::default(),
            clash: Default::default(),
        };
        debug_assert_eq!(
            tree.facts(),
            (tree.height, tree.leaves, tree.chance, tree.integral),
            "the layout's facts are those `Tree::sealed` computes"
        );
        debug_assert_eq!(
            tree.search_facts(),
            (branching, leaf_parents.clone()),
            "the walk's search facts are those `Tree::search_facts` computes"
        );
        Tree {
            branching,
            leaf_parents,
            ..tree
        }
    }
}

/// The walk of [`Valid::layout`] for a plain draft (no side tables but labels, every interior
/// node with children, as validation leaves it): every node's kind, child count, value, parent
/// and first child at its id, with few live variables; with `LABELS`, each labelled node's
/// entry in `label_of`. Returns the height, the number of leaves, whether
/// a node is a chance node and whether every leaf value is an integer; then the largest
/// branching and the bits of the nodes whose children are all leaves (what
/// [`Tree::with_search_facts`] computes in passes of its own).
type Walked = ((usize, usize, bool, bool), u32, Vec<u64>);

fn plain_walk<const LABELS: bool>(
    d: &mut Draft,
    next: &mut [u32],
    nodes: &mut Columns,
    label_of: &mut [u32],
) -> Walked {
    let mut next_label = 0;
    let (mut height, mut leaves, mut chance, mut integral) = (0, 0, false, true);
    let mut branching = 0;
    let n = d.kind.len();
    let mut leaf_parents = vec![0u64; n.div_ceil(64)];
    // (id, children to come, whether a child is interior)
    let mut stack: Vec<(u32, u32, bool)> = Vec::with_capacity(next.len());
    for from in (0..n).step_by(RELEASE_EVERY) {
        let to = (from + RELEASE_EVERY).min(n);
        let nodes_here = d.kind[from..to]
            .iter()
            .zip(&d.children[from..to])
            .zip(&d.value[from..to]);
        for (i, ((&kind, &c), &value)) in (from..).zip(nodes_here) {
            let depth = stack.len();
            let id = next[depth];
            next[depth] = id + 1;
            let at = id as usize;
            nodes.parent[at] = match stack.last_mut() {
                Some(top) => {
                    top.1 -= 1;
                    top.2 |= c > 0;
                    top.0
                }
                None => NO_PARENT,
            };
            nodes.kind[at] = kind;
            nodes.len[at] = c;
            nodes.value[at] = value;
            if LABELS && d.label_nodes.get(next_label) == Some(&(i as u32)) {
                next_label += 1;
                label_of[at] = next_label as u32;
            }
            if c > 0 {
                nodes.first[at] = next[depth + 1];
                chance |= kind == Kind::Chance;
                height = height.max(depth + 1);
                branching = branching.max(c);
                stack.push((id, c, false));
            } else {
                leaves += 1;
                integral &= is_integer(value);
                while let Some(&(id, 0, interior_child)) = stack.last() {
                    if !interior_child {
                        leaf_parents[id as usize / 64] |= 1 << (id % 64);
                    }
                    stack.pop();
                }
            }
        }
        // A plain draft has no probabilities.
        release_walked(d, to, next_label, 0);
    }
    ((height, leaves, chance, integral), branching, leaf_parents)
}

/// Nodes the layout's walks go through between two [`release_walked`]s: 4 MiB of values.
const RELEASE_EVERY: usize = 1 << 19;

/// Gives back the memory of the draft's columns the layout has walked past (nodes before
/// `walked`, labelled nodes before `labels`, probabilities before `probs`): read once, in preorder, they are not read again,
/// and the arena the walk writes grows as they shrink, so a load's peak is not the draft and
/// the arena whole at once. Kinds are kept (2 bytes a node: `Kind` has no all-zero guarantee,
/// see [`crate::memory::Zeroable`]); label texts are handed to the tree as they are.
fn release_walked(d: &mut Draft, walked: usize, labels: usize, probs: usize) {
    crate::memory::release_read(&mut d.children, walked);
    crate::memory::release_read(&mut d.value, walked);
    crate::memory::release_read(&mut d.label_nodes, labels);
    crate::memory::release_read(&mut d.probs, probs);
}

/// The id of the first node of each level of a tree given by its child counts in preorder,
/// and one past the last id.
fn level_starts(children: &[u32]) -> Vec<u32> {
    let mut next: Vec<u32> = Vec::new();
    let mut left: Vec<u32> = Vec::new(); // children still to come of each open node
    for &c in children {
        let depth = left.len();
        if next.len() == depth {
            next.push(0);
        }
        next[depth] += 1;
        if let Some(top) = left.last_mut() {
            *top -= 1;
        }
        if c > 0 {
            left.push(c);
        }
        while left.last() == Some(&0) {
            left.pop();
        }
    }
    let mut start = 0;
    for x in &mut next {
        (*x, start) = (start, start + *x);
    }
    next.push(start);
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_player() -> Meta {
        Meta {
            players: 2,
            ..Meta::default()
        }
    }

    fn chance(probs: &[Option<f64>]) -> Draft {
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Chance, probs.len() as u32));
        for (i, p) in probs.iter().enumerate() {
            let mut leaf = DraftNode::leaf(i as f64);
            leaf.prob = *p;
            d.push(leaf);
        }
        d
    }

    #[test]
    fn uniform_chance_gets_exact_one_over_n() {
        let t = chance(&[None, None, None]).finish().unwrap();
        assert!(t.is_uniform(t.root()));
        assert_eq!(t.prob(t.child(t.root(), 2)), 1.0 / 3.0);
        let t = chance(&[Some(0.333333), Some(0.333333), Some(0.333333)])
            .finish()
            .unwrap();
        assert!(t.is_uniform(t.root()), "equal probabilities are uniform");
    }

    #[test]
    fn uneven_probabilities_are_rescaled_within_tolerance() {
        let t = chance(&[Some(0.2), Some(0.3), Some(0.4999999)])
            .finish()
            .unwrap();
        assert!(!t.is_uniform(t.root()));
        let sum: f64 = t.children(t.root()).map(|c| t.prob(c)).sum();
        assert!((sum - 1.0).abs() < 1e-15);
    }

    #[test]
    fn bad_probabilities_name_the_node() {
        let e = chance(&[Some(0.5), Some(0.4)]).finish().unwrap_err();
        assert_eq!(e.node, 0);
        assert!(e.message.contains("sum to 0.9"), "{}", e.message);
        let e = chance(&[Some(0.5), None]).finish().unwrap_err();
        assert_eq!(e.node, 2);
        let e = chance(&[Some(-0.5), Some(1.5)]).finish().unwrap_err();
        assert_eq!(e.node, 1);
        let e = chance(&[Some(f64::NAN), Some(1.0)]).finish().unwrap_err();
        assert!(e.message.contains("NaN"), "{}", e.message);
    }

    #[test]
    fn probability_under_max_is_rejected() {
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Max, 1));
        d.push(DraftNode::leaf(1.0).with_prob(1.0));
        assert_eq!(d.finish().unwrap_err().node, 1);
    }

    #[test]
    fn leaf_checks() {
        let mut d = Draft::new(Meta {
            bounds: Some(Bounds { lo: 0.0, hi: 10.0 }),
            ..two_player()
        });
        d.push(DraftNode::interior(Kind::Min, 2));
        d.push(DraftNode::leaf(3.0));
        d.push(DraftNode::leaf(11.0));
        let e = d.finish().unwrap_err();
        assert_eq!(e.node, 2);
        assert!(e.message.contains("outside the declared bounds"));
        let mut d = Draft::new(two_player());
        d.push(DraftNode::leaf(f64::INFINITY));
        assert!(d.finish().unwrap_err().message.contains("not a finite"));
    }

    #[test]
    fn shape_checks() {
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Chance, 0));
        assert!(
            d.finish()
                .unwrap_err()
                .message
                .contains("chance node with no children")
        );
        let mut d = Draft::new(two_player());
        d.push(DraftNode::interior(Kind::Max, 2));
        d.push(DraftNode::leaf(1.0));
        assert!(d.finish().unwrap_err().message.contains("missing"));
        assert!(Draft::new(two_player()).finish().is_err());
    }

    #[test]
    fn multiplayer_checks() {
        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Player(0), 2));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        d.push(DraftNode::payoff(vec![1.0, 2.0]));
        let e = d.finish().unwrap_err();
        assert_eq!(e.node, 2);
        assert!(e.message.contains("2 values in a 3-player tree"));

        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Player(3), 1));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        assert!(
            d.finish()
                .unwrap_err()
                .message
                .contains("player 4 does not exist")
        );

        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Max, 1));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        assert!(
            d.finish()
                .unwrap_err()
                .message
                .contains("max node in an n-player tree")
        );

        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Player(1), 2));
        d.push(DraftNode::payoff(vec![1.0, 2.0, 3.0]));
        d.push(DraftNode::payoff(vec![0.0, 0.0, 6.0]));
        let t = d.finish().unwrap();
        assert_eq!(t.players(), 3);
        assert_eq!(t.payoff(t.child(t.root(), 1)), &[0.0, 0.0, 6.0]);
        assert_eq!(t.payoff_limits(), Some((0.0, 6.0, false)));
    }
}
