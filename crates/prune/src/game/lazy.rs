//! A game searched from its rules: `Lazy`, a tree whose nodes are generated when a search
//! first asks for them.
//!
//! The arena grows as [`super::tree`]'s does — columns, a node's children consecutive after
//! every node generated before them — but one node at a time: the first time a search asks
//! for a node's children, they are generated, classified (over, at the depth limit, or whose
//! turn) and appended. A position is kept only while its node waits to be expanded, so memory
//! grows with the nodes the search generated, not with the game.
//!
//! What a search reads is copied out of a `RefCell` (a kind, a value, a range of ids): no
//! borrow outlives a call, so an expansion in the middle of a search never meets a reader.
//!
//! The rules are checked as [`super::tree`] checks them. A search cannot stop to report a
//! broken rule, so the first one found is kept (`Lazy::error`), the offending node gets a
//! single stand-in child (a leaf worth 0: the node keeps the kind the search already read, and
//! every algorithm finds the children it counts on), every later expansion gets one too without
//! asking the game, and the run reports the error instead of the search's value.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use super::{Game, GameError, LabelTable, classify, probabilities};
use crate::exact;
use crate::tree::{ArenaNode, Children, Kind, MAX_NODES, Meta, NodeId, Nodes, Tree, ValueBounds};

/// Marks an interior node not yet expanded (its children unknown).
const UNEXPANDED: u32 = u32::MAX;

/// What ends the label of a position a searched tree holds but never expanded
/// (`Lazy::searched_tree`): such a leaf is worth the game's heuristic, not the game's value.
pub const NOT_EXPANDED: &str = "(not expanded)";

/// How many leaves labelled [`NOT_EXPANDED`] each node's subtree holds, by node id; empty when
/// the tree has none (every tree but a game's searched one, or a copy of it saved and opened
/// again). Where a node has some, its minimax value is the searched tree's, not the game's.
pub fn unexpanded_below(tree: &Tree) -> Vec<u32> {
    let stub =
        |id: NodeId| tree.is_leaf(id) && tree.label(id).is_some_and(|l| l.ends_with(NOT_EXPANDED));
    if !tree.ids().any(stub) {
        return Vec::new();
    }
    let mut below = vec![0u32; tree.len()];
    // Children have larger ids than their parent: a reverse sweep counts them first.
    for i in (0..tree.len()).rev() {
        let id = NodeId(i as u32);
        if stub(id) {
            below[i] += 1;
        }
        if let Some(p) = tree.parent(id) {
            below[p.index()] += below[i];
        }
    }
    below
}

/// A game's tree, generated as a search reaches it. See the [module documentation](self).
pub(crate) struct Lazy<'g, G: Game> {
    game: &'g G,
    meta: Meta,
    players: usize,
    /// The horizon: positions this many moves from the start are leaves (their heuristic
    /// value) unless the game is over. Never beyond the game's longest ([`Game::longest`]).
    depth: u32,
    /// Whether every leaf value is an integer: the game's values all are
    /// ([`Game::integral`]), or its outcomes are and no line is cut at the horizon.
    integral: bool,
    /// The most moves a position may have (SSS* numbers moves in a few bits), if limited.
    max_moves: Cell<Option<u32>>,
    /// Why a chance position may not appear (the algorithm has no rule for one), if so.
    no_chance: RefCell<Option<String>>,
    arena: RefCell<Arena<G>>,
    error: RefCell<Option<GameError>>,
}

/// The nodes generated so far, a column per field, as in [`crate::tree::Tree`].
struct Arena<G: Game> {
    kind: Vec<Kind>,
    parent: Vec<u32>,
    /// The first child's id; 0 for a leaf.
    first: Vec<u32>,
    /// The number of children; [`UNEXPANDED`] for an interior node not yet expanded.
    len: Vec<u32>,
    /// Moves from the start.
    ply: Vec<u32>,
    /// A leaf's value (two players) or the row of its payoff vector (n players).
    value: Vec<f64>,
    prob: Vec<f64>,
    uniform: Vec<bool>,
    all_leaves: Vec<bool>,
    key: Vec<Option<u64>>,
    heuristic: Vec<Option<f64>>,
    /// A node's position, until it is expanded.
    position: Vec<Option<G::Position>>,
    payoffs: Vec<f64>,
    labels: LabelTable,
    moves: Vec<G::Move>,
    probs: Vec<f64>,
}

impl<'g, G: Game> Lazy<'g, G> {
    /// The tree of `game` from its start to `depth` moves, of which only the root exists yet.
    /// A depth beyond the game's longest ([`Game::longest`]) is the longest: the tree is the
    /// whole game. `u32::MAX` searches to the end of every line whatever the game declares.
    pub fn new(game: &'g G, depth: u32) -> Result<Self, GameError> {
        let mut meta = game.meta();
        if meta.players == 0 {
            meta.players = game.players();
        }
        let longest = game.longest();
        let depth = longest.map_or(depth, |l| depth.min(l));
        let to_the_end = depth == u32::MAX || longest.is_some_and(|l| depth >= l);
        let lazy = Lazy {
            game,
            players: usize::from(meta.players),
            meta,
            depth,
            integral: game.integral() || (to_the_end && game.integral_outcomes()),
            max_moves: Cell::new(None),
            no_chance: RefCell::new(None),
            arena: RefCell::new(Arena {
                kind: Vec::new(),
                parent: Vec::new(),
                first: Vec::new(),
                len: Vec::new(),
                ply: Vec::new(),
                value: Vec::new(),
                prob: Vec::new(),
                uniform: Vec::new(),
                all_leaves: Vec::new(),
                key: Vec::new(),
                heuristic: Vec::new(),
                position: Vec::new(),
                payoffs: Vec::new(),
                labels: LabelTable::default(),
                moves: Vec::new(),
                probs: Vec::new(),
            }),
            error: RefCell::new(None),
        };
        let start = game.start();
        {
            let mut a = lazy.arena.borrow_mut();
            lazy.push(&mut a, start, u32::MAX, 0, 0, 1.0)?;
        }
        Ok(lazy)
    }

    /// From now on, refuses positions of more than `n` moves (recorded as an [`Lazy::error`]),
    /// or (`None`) any number. Set for each search of the tree, as its algorithm needs.
    pub fn set_max_moves(&self, n: Option<u32>) {
        self.max_moves.set(n);
    }

    /// From now on, refuses chance positions for `why` (recorded as an [`Lazy::error`] when one
    /// is generated: a game's chance positions may show only deep in the game), or (`None`)
    /// accepts them.
    pub fn set_no_chance(&self, why: Option<String>) {
        *self.no_chance.borrow_mut() = why;
    }

    /// The game's metadata.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// The depth limit.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The most moves a game lasts, when the game says ([`Game::longest`]).
    pub fn longest(&self) -> Option<u32> {
        self.game.longest()
    }

    /// The most moves a position has, when the game says ([`Game::most_moves`]).
    pub fn most_moves(&self) -> Option<u32> {
        self.game.most_moves()
    }

    /// The first rule the game broke during the search, if any: the search's value then means
    /// nothing.
    pub fn error(&self) -> Option<GameError> {
        self.error.borrow().clone()
    }

    /// The label of node `id`'s move (`None` for the root).
    pub fn label(&self, id: NodeId) -> Option<String> {
        self.arena.borrow().labels.text(id.index())
    }

    /// The number of positions kept for nodes not yet expanded.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        let a = self.arena.borrow();
        a.position.iter().filter(|p| p.is_some()).count()
    }

    /// Appends the node of `position`, `ply` moves from the start, below `parent`.
    fn push(
        &self,
        a: &mut Arena<G>,
        position: G::Position,
        parent: u32,
        label: u32,
        ply: u32,
        prob: f64,
    ) -> Result<(), GameError> {
        if a.kind.len() >= MAX_NODES {
            return Err(GameError::TooLarge(format!(
                "the search of {} generated more than {MAX_NODES} nodes",
                self.meta.name
            )));
        }
        let cut = ply >= self.depth;
        let (kind, value, heuristic) =
            classify(self.game, &self.meta, &position, cut, &mut a.payoffs)?;
        self.check_declared(kind, value, heuristic, a)?;
        if let (Kind::Chance, Some(why)) = (kind, &*self.no_chance.borrow()) {
            return Err(GameError::Invalid(why.clone()));
        }
        let leaf = kind == Kind::Leaf;
        a.kind.push(kind);
        a.parent.push(parent);
        a.first.push(0);
        a.len.push(if leaf { 0 } else { UNEXPANDED });
        a.ply.push(ply);
        a.value.push(value);
        a.prob.push(prob);
        a.uniform.push(false);
        a.all_leaves.push(false);
        a.key.push(self.game.key(&position));
        a.heuristic.push(heuristic);
        a.position.push((!leaf).then_some(position));
        a.labels.of.push(label);
        Ok(())
    }

    /// A game that declares itself integral ([`Game::integral`]) keeps its word, and so does
    /// one that declares its outcomes integral ([`Game::integral_outcomes`]) when the search
    /// goes to the end.
    fn check_declared(
        &self,
        kind: Kind,
        value: f64,
        heuristic: Option<f64>,
        a: &Arena<G>,
    ) -> Result<(), GameError> {
        if !self.integral {
            return Ok(());
        }
        let bad = if kind != Kind::Leaf {
            heuristic.filter(|h| !crate::exact::is_integer(*h) && self.game.integral())
        } else if self.players > 2 {
            let row = value as usize * self.players;
            a.payoffs[row..row + self.players]
                .iter()
                .copied()
                .find(|x| !crate::exact::is_integer(*x))
        } else {
            Some(value).filter(|v| !crate::exact::is_integer(*v))
        };
        match bad {
            Some(x) => Err(GameError::Invalid(format!(
                "{} declares integer values but gives {x}",
                self.meta.name
            ))),
            None => Ok(()),
        }
    }

    /// The tree searched so far, as a stored tree with the same node ids (so the traces of the
    /// searches apply to it): every node generated, each position never expanded (its moves
    /// never generated) a leaf labelled "(not expanded)" and worth its heuristic value (0 where
    /// the game has none; an n-player one a payoff vector of zeros). Its description says so.
    /// A search may have evaluated such a position by its heuristic (iterative deepening's
    /// shallower iterations do): it did so at the value the leaf holds.
    pub fn searched_tree(&self, searches: &str) -> Result<Tree, GameError> {
        let a = self.arena.borrow();
        let multiplayer = self.players > 2;
        let mut payoffs = a.payoffs.clone();
        let mut stubs = 0usize;
        let nodes: Vec<ArenaNode> = (0..a.kind.len())
            .map(|i| {
                let stub = a.len[i] == UNEXPANDED;
                let (kind, len, value) = if stub {
                    stubs += 1;
                    let value = if multiplayer {
                        let row = payoffs.len() / self.players;
                        payoffs.extend(std::iter::repeat_n(0.0, self.players));
                        row as f64
                    } else {
                        a.heuristic[i].unwrap_or(0.0)
                    };
                    (Kind::Leaf, 0, value)
                } else {
                    (a.kind[i], a.len[i], a.value[i])
                };
                let leaf = kind == Kind::Leaf;
                ArenaNode {
                    first: if leaf && multiplayer {
                        value as u32
                    } else {
                        a.first[i]
                    },
                    len,
                    parent: a.parent[i],
                    kind,
                    uniform: a.uniform[i],
                    value: if leaf && multiplayer { 0.0 } else { value },
                    prob: a.prob[i],
                }
            })
            .collect();
        let mut meta = self.meta.clone();
        meta.description = format!(
            "{searches} in {}, {} moves deep: the {} positions generated; the {stubs} whose moves were never generated are leaves labelled \"{NOT_EXPANDED}\", worth the game's heuristic value (0 where it has none). {}",
            self.meta.name,
            self.depth,
            a.kind.len(),
            self.meta.description
        );
        let heuristics = (0..a.kind.len())
            .map(|i| a.heuristic[i].filter(|_| a.len[i] != UNEXPANDED))
            .collect();
        let tree = Tree::from_arena(meta, multiplayer, nodes, payoffs)
            .and_then(|t| t.with_positions(a.key.clone(), heuristics))
            .map_err(GameError::Invalid)?;
        Ok(tree.with_labels(|id| {
            let label = a.labels.text(id.index());
            if a.len[id.index()] != UNEXPANDED {
                return label;
            }
            Some(match label {
                Some(l) => format!("{l} {NOT_EXPANDED}"),
                None => NOT_EXPANDED.to_owned(),
            })
        }))
    }

    /// Generates node `id`'s children if they are not yet.
    ///
    /// A search has read the node's kind before it asks for its children, and every algorithm
    /// counts on an interior node having some: a node whose expansion breaks a rule keeps its
    /// kind and gets a stand-in child instead ([`Lazy::stand_in`]). Once a rule is broken the
    /// search's value means nothing, so every later expansion gets a stand-in without asking
    /// the game: the search ends soon, having generated nothing more.
    #[inline]
    fn expand(&self, id: NodeId) {
        if self.arena.borrow().len[id.index()] != UNEXPANDED {
            return;
        }
        let mut a = self.arena.borrow_mut();
        let broken = self.error.borrow().is_some();
        let result = if broken {
            Err(None)
        } else {
            self.generate(&mut a, id).map_err(Some)
        };
        if let Err(e) = result {
            self.stand_in(&mut a, id);
            if let Some(e) = e {
                self.error.borrow_mut().get_or_insert(e);
            }
        }
    }

    /// Gives node `id`, whose children could not be generated, one child: a leaf worth 0 (an
    /// n-player game's: a vector of zeros) with probability 1. Children generated before the
    /// rule was broken stay in the arena, unreachable; the run reports the error, not a value.
    fn stand_in(&self, a: &mut Arena<G>, id: NodeId) {
        let i = id.index();
        a.position[i] = None;
        // Past MAX_NODES (the only nodes pushed there are stand-ins, after the error of a full
        // arena) the last stand-in is shared, so that ids stay below `u32::MAX`.
        let child = if a.kind.len() <= MAX_NODES {
            let value = if self.players > 2 {
                let row = a.payoffs.len() / self.players;
                a.payoffs.extend(std::iter::repeat_n(0.0, self.players));
                row as f64
            } else {
                0.0
            };
            let label = a
                .labels
                .entry("(not generated: the game broke a rule)".into());
            a.kind.push(Kind::Leaf);
            a.parent.push(id.0);
            a.first.push(0);
            a.len.push(0);
            a.ply.push(a.ply[i] + 1);
            a.value.push(value);
            a.prob.push(1.0);
            a.uniform.push(false);
            a.all_leaves.push(false);
            a.key.push(None);
            a.heuristic.push(None);
            a.position.push(None);
            a.labels.of.push(label);
            a.kind.len() - 1
        } else {
            a.kind.len() - 1
        };
        a.first[i] = child as u32;
        a.len[i] = 1;
        a.uniform[i] = a.kind[i] == Kind::Chance;
        a.all_leaves[i] = a.kind[child] == Kind::Leaf;
    }

    fn generate(&self, a: &mut Arena<G>, id: NodeId) -> Result<(), GameError> {
        let i = id.index();
        let position = a.position[i]
            .take()
            .expect("an unexpanded node keeps its position");
        let mut moves = std::mem::take(&mut a.moves);
        let mut probs = std::mem::take(&mut a.probs);
        moves.clear();
        self.game.moves(&position, &mut moves);
        if moves.is_empty() {
            return Err(GameError::Invalid(format!(
                "{}: a position that is not over has no moves ({} moves from the start)",
                self.meta.name, a.ply[i]
            )));
        }
        if let Some(n) = self.max_moves.get().filter(|&n| moves.len() > n as usize) {
            let why = match self.game.most_moves() {
                Some(_) => format!("more than the {n} the game declares a position has at most"),
                None => format!("SSS* searches games of at most {n} moves a position"),
            };
            return Err(GameError::Invalid(format!(
                "{}: a position has {} moves; {why}",
                self.meta.name,
                moves.len()
            )));
        }
        let kind = a.kind[i];
        probabilities(self.game, &position, &moves, kind, &self.meta, &mut probs)?;
        let uniform = kind == Kind::Chance && probs.windows(2).all(|w| w[0] == w[1]);
        if kind == Kind::Chance && !uniform && self.game.integral() {
            if let Some(p) = probs.iter().find(|&&p| !exact::is_simple(p)) {
                return Err(GameError::Invalid(format!(
                    "{} declares exact values but a chance outcome has probability {p}, not a simple fraction",
                    self.meta.name
                )));
            }
        }
        let first = a.kind.len() as u32;
        let ply = a.ply[i] + 1;
        for (mv, &p) in moves.iter().zip(&probs) {
            let label = a.labels.entry(self.game.label(&position, mv));
            let child = self.game.play(&position, mv);
            self.push(a, child, id.0, label, ply, p)?;
        }
        let n = moves.len() as u32;
        a.first[i] = first;
        a.len[i] = n;
        a.uniform[i] = uniform;
        a.all_leaves[i] = a.kind[first as usize..(first + n) as usize]
            .iter()
            .all(|k| *k == Kind::Leaf);
        a.moves = moves;
        a.probs = probs;
        Ok(())
    }
}

impl<G: Game> Nodes for Lazy<'_, G> {
    fn root(&self) -> NodeId {
        NodeId::ROOT
    }
    fn len(&self) -> usize {
        self.arena.borrow().kind.len()
    }
    #[inline]
    fn kind(&self, id: NodeId) -> Kind {
        self.arena.borrow().kind[id.index()]
    }
    #[inline]
    fn children(&self, id: NodeId) -> Children {
        self.expand(id);
        let a = self.arena.borrow();
        Children::new(a.first[id.index()], a.len[id.index()])
    }
    #[inline]
    fn child_count(&self, id: NodeId) -> usize {
        self.expand(id);
        self.arena.borrow().len[id.index()] as usize
    }
    #[inline]
    fn child(&self, id: NodeId, i: usize) -> NodeId {
        self.expand(id);
        NodeId(self.arena.borrow().first[id.index()] + i as u32)
    }
    fn parent(&self, id: NodeId) -> Option<NodeId> {
        let p = self.arena.borrow().parent[id.index()];
        (p != u32::MAX).then_some(NodeId(p))
    }
    #[inline]
    fn value(&self, id: NodeId) -> f64 {
        self.arena.borrow().value[id.index()]
    }
    fn payoff(&self, id: NodeId) -> Cow<'_, [f64]> {
        let a = self.arena.borrow();
        let row = a.value[id.index()] as usize * self.players;
        Cow::Owned(a.payoffs[row..row + self.players].to_vec())
    }
    #[inline]
    fn prob(&self, id: NodeId) -> f64 {
        self.arena.borrow().prob[id.index()]
    }
    fn is_uniform(&self, id: NodeId) -> bool {
        self.expand(id);
        self.arena.borrow().uniform[id.index()]
    }
    #[inline]
    fn key(&self, id: NodeId) -> Option<u64> {
        self.arena.borrow().key[id.index()]
    }
    #[inline]
    fn heuristic(&self, id: NodeId) -> Option<f64> {
        self.arena.borrow().heuristic[id.index()]
    }
    #[inline]
    fn children_all_leaves(&self, id: NodeId) -> bool {
        self.expand(id);
        self.arena.borrow().all_leaves[id.index()]
    }
    fn values_from(&self, first: u32, n: usize) -> Cow<'_, [f64]> {
        let a = self.arena.borrow();
        Cow::Owned(a.value[first as usize..first as usize + n].to_vec())
    }
    fn players(&self) -> usize {
        self.players.max(2)
    }
    fn is_multiplayer(&self) -> bool {
        self.players > 2
    }
    fn height(&self) -> usize {
        self.depth as usize
    }
    fn subtree_heights(&self) -> Option<Vec<u32>> {
        None
    }
    fn remaining(&self, id: NodeId) -> u32 {
        self.depth - self.arena.borrow().ply[id.index()]
    }
    /// The game's declared bounds, or unbounded (Star1 and Star2 are refused without them).
    fn value_bounds(&self) -> ValueBounds {
        match self.meta.bounds {
            Some(b) => ValueBounds {
                lo: b.lo,
                hi: b.hi,
                declared: true,
            },
            None => ValueBounds {
                lo: f64::NEG_INFINITY,
                hi: f64::INFINITY,
                declared: false,
            },
        }
    }
    /// The declared floor and sum; undeclared ones are unbounded (no shallow pruning).
    fn payoff_limits(&self) -> Option<(f64, f64, bool)> {
        (self.players > 2).then(|| {
            let floor = self.meta.payoff_floor.unwrap_or(f64::NEG_INFINITY);
            let sum = self.meta.payoff_sum.unwrap_or(f64::INFINITY);
            let declared = self.meta.payoff_floor.is_some() && self.meta.payoff_sum.is_some();
            (floor, sum, declared)
        })
    }
    fn is_integral(&self) -> bool {
        self.integral
    }
    fn simple_fractions(&self) -> bool {
        self.game.integral()
    }
    /// The most moves a position may have while the search runs (SSS* sets it: more is an
    /// error), if it sets one.
    fn max_branching(&self) -> Option<u32> {
        self.max_moves.get()
    }
    fn preorder_ranks(&self) -> Option<Vec<u32>> {
        None
    }
}
