//! Games from their rules: the [`Game`] trait, the library's front door for a game of your own.
//!
//! A game is a start position, the moves at each position, and what a finished game is worth.
//! Implement [`Game`] for it, and [`tree`] writes out the tree it spans (to a depth limit, the
//! positions there valued by your heuristic): every algorithm, the explorer and every export then
//! work on it as on any other tree.
//!
//! The built-in games implement the same trait, and `prune gen game NAME` is [`tree`] applied to
//! them: [`tic_tac_toe`], [`nim`] (two or more players), [`connect_four`], [`pig`] (a game with
//! dice: chance positions) and [`chess`] (legal moves and Zobrist keys by the `cozy-chess`
//! crate). docs/GAMES.md describes each one's rules, labels, heuristic and position keys.
//!
//! # Conventions
//! - Two players: [`Turn::Max`] moves first unless the start position says otherwise; outcomes
//!   and heuristic values are from Max's point of view (Max wants them high).
//! - n players (n ≥ 3): players are numbered from 0; [`Turn::Player`]`(i)` is to move, and a
//!   finished game is worth a payoff vector, one entry per player ([`Outcome::Payoffs`]).
//! - Chance: at a [`Turn::Chance`] position the moves are the outcomes, equally likely unless
//!   [`Game::probability`] says otherwise; the probabilities must sum to 1.
//!
//! # Example
//! A game of Nim with one heap, in which a move takes one or two objects and taking the last one
//! wins (the first player loses exactly when the heap is a multiple of 3):
//!
//! ```
//! use prune::game::{self, Game, Outcome, Turn};
//!
//! /// (objects left, whether Max is to move)
//! struct TakeOneOrTwo(u32);
//!
//! impl Game for TakeOneOrTwo {
//!     type Position = (u32, bool);
//!     type Move = u32;
//!
//!     fn name(&self) -> String {
//!         format!("take one or two from {}", self.0)
//!     }
//!     fn start(&self) -> (u32, bool) {
//!         (self.0, true)
//!     }
//!     fn outcome(&self, &(left, max): &(u32, bool)) -> Option<Outcome> {
//!         // The player who just moved took the last object.
//!         (left == 0).then(|| Outcome::Value(if max { -1.0 } else { 1.0 }))
//!     }
//!     fn turn(&self, &(_, max): &(u32, bool)) -> Turn {
//!         if max { Turn::Max } else { Turn::Min }
//!     }
//!     fn moves(&self, &(left, _): &(u32, bool), moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|&k| k <= left));
//!     }
//!     fn play(&self, &(left, max): &(u32, bool), &k: &u32) -> (u32, bool) {
//!         (left - k, !max)
//!     }
//!     fn label(&self, _: &(u32, bool), k: &u32) -> String {
//!         format!("take {k}")
//!     }
//! }
//!
//! use prune::search::{Value, alphabeta, Quiet};
//! for (heap, value) in [(6, -1.0), (7, 1.0)] {
//!     let tree = game::tree(&TakeOneOrTwo(heap), None).unwrap();
//!     let found = alphabeta::search(&tree, false, &mut Quiet);
//!     assert_eq!(found.value, Value::Scalar(value));
//! }
//! ```

pub mod best;
pub mod chess;
pub mod connect_four;
pub mod lazy;
pub mod nim;
pub mod pig;
pub mod run;
pub mod tic_tac_toe;

pub(crate) use lazy::Lazy;

use std::collections::HashMap;

use crate::hash::{FastMap, FastSet};
use crate::hash::{GOLDEN_GAMMA, mix64};
use crate::tree::{ArenaNode, Kind, MAX_NODES, Meta, Tree};

/// Who chooses the move at a position that is not over.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The maximising player of a two-player game.
    Max,
    /// The minimising player of a two-player game.
    Min,
    /// Player `i` (from 0) of an n-player game.
    Player(u8),
    /// Chance: the moves are outcomes with probabilities ([`Game::probability`]).
    Chance,
}

/// What a finished game is worth.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A two-player game: the value for Max (Min's is its negation).
    Value(f64),
    /// An n-player game: one payoff per player, player 0 first.
    Payoffs(Vec<f64>),
}

/// A game's rules: positions, the moves at each, and what finished games are worth.
///
/// Only the methods without a default are required. See the [module documentation](self) for
/// the conventions and a complete example.
pub trait Game {
    /// A position: everything the rules need to know (board, player to move, counters).
    type Position: Clone;
    /// A move (or, at a chance position, an outcome).
    type Move;

    /// The game's name, as the tree's name.
    fn name(&self) -> String;

    /// The tree's metadata: its name, a description, the number of players and declared bounds
    /// (Star1 and Star2 need bounds on every leaf value: declare them in `bounds`). The default
    /// names the game and declares nothing.
    fn meta(&self) -> Meta {
        Meta {
            name: self.name(),
            description: self.name(),
            players: self.players(),
            ..Meta::default()
        }
    }

    /// The number of players: 2 (Max and Min), or n ≥ 3 for an n-player game.
    fn players(&self) -> u8 {
        2
    }

    /// The position the game starts from.
    fn start(&self) -> Self::Position;

    /// What the game is worth when it is over at `position`; `None` while it goes on.
    fn outcome(&self, position: &Self::Position) -> Option<Outcome>;

    /// Who moves at `position` (asked only when the game is not over).
    fn turn(&self, position: &Self::Position) -> Turn;

    /// The moves at `position`, in the order the tree lists them (asked only when the game is
    /// not over; a position that is not over needs at least one move).
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>);

    /// The position after `mv`.
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;

    /// The move's label: "e2e4", "take 2 from heap 1", "rolled 3".
    fn label(&self, position: &Self::Position, mv: &Self::Move) -> String;

    /// At a chance position, the probability of outcome `mv`; `None` (the default) when the
    /// outcomes are equally likely.
    fn probability(&self, _position: &Self::Position, _mv: &Self::Move) -> Option<f64> {
        None
    }

    /// The static evaluation of a position that is not over, from Max's point of view: what a
    /// depth-limited search stops at. `None` (the default) when the game has none.
    fn heuristic(&self, _position: &Self::Position) -> Option<f64> {
        None
    }

    /// A key naming the position whatever the move order (a Zobrist hash, a packed board), for
    /// transposition tables; `None` (the default) when the game has none. Equal positions must
    /// have equal keys; unequal positions should not.
    fn key(&self, _position: &Self::Position) -> Option<u64> {
        None
    }

    /// Whether every value the game gives — outcomes, payoffs, heuristic values — is an
    /// integer, and every uneven chance probability a simple fraction (as a tree file's would
    /// have to be to be summed exactly). A lazy search cannot look at all the leaves before it
    /// starts, as a stored tree's does: this declaration lets its NegaScout and MTD(f) step
    /// minimal windows by 1 and its chance nodes be summed exactly, and the lazy tree checks it
    /// at every node it generates. The default is `false`.
    fn integral(&self) -> bool {
        false
    }

    /// Whether every finished game's value (or payoff vector) is an integer, even where the
    /// heuristic's values are not (tic-tac-toe's are tenths). A search that reaches the end of
    /// every line ([`Game::longest`] moves deep) stops at no heuristic value, so its leaves
    /// are integers: its NegaScout and MTD(f) then step minimal windows by 1, as they do on
    /// the game written out (whose leaves are its outcomes). The default is [`Game::integral`].
    fn integral_outcomes(&self) -> bool {
        self.integral()
    }

    /// The most moves any game from the start can last, when the rules bound it (chance
    /// outcomes count as moves: pig's roll of the die is one): a search this deep reaches the
    /// end of every line, solving the game, and needs no heuristic. `None` (the default) when
    /// the rules do not say.
    fn longest(&self) -> Option<u32> {
        None
    }

    /// The most moves any position of the game offers, when the rules bound it (tic-tac-toe 9,
    /// connect-four 7). SSS* on a game numbers a move among its siblings in as few bits as this
    /// takes and a path in 64 bits, so the bound sets how deep it can search: 21 plies of
    /// connect-four, 16 of tic-tac-toe. `None` (the default): 255 moves, 8 bits, 8 plies. A
    /// position with more moves than declared is an error the search reports.
    fn most_moves(&self) -> Option<u32> {
        None
    }
}

/// Why a game's tree cannot be written out.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// The tree would not fit.
    #[error("{0}")]
    TooLarge(String),
    /// The game's parameters, or what its rules answered, do not make a tree.
    #[error("{0}")]
    Invalid(String),
}

/// A position of the level being laid out: the position, its parent node, its label's entry
/// and its probability.
struct Pending<P> {
    position: P,
    parent: u32,
    label: u32,
    prob: f64,
}

/// The tree `game` spans from its start, breadth first: level k's nodes are numbered in order,
/// and the children of each node follow those of the node before it on the next level. With a
/// depth limit, the positions `depth` moves from the start that are not over become leaves
/// worth their heuristic value. Every node gets its position's key (when the game has keys),
/// every interior node its heuristic value (when the game has one).
///
/// What the rules answer is checked: a position that is not over has moves, a two-player game
/// has values and Max/Min turns, an n-player game has payoff vectors of n entries and player
/// turns, chance probabilities sum to 1; a tree of more than [`MAX_NODES`] nodes is refused.
///
/// ```
/// use prune::game::{self, tic_tac_toe::TicTacToe};
///
/// let tree = game::tree(&TicTacToe, Some(2)).unwrap();
/// assert_eq!(tree.len(), 1 + 9 + 9 * 8);
/// assert_eq!(tree.label(tree.child(tree.root(), 4)), Some("X b2"));
/// ```
pub fn tree<G: Game>(game: &G, depth: Option<u32>) -> Result<Tree, GameError> {
    let meta = game.meta();
    let players = usize::from(meta.players);
    let multiplayer = players > 2;
    let mut nodes: Vec<ArenaNode> = Vec::new();
    let mut keys: Vec<Option<u64>> = Vec::new();
    // Each node's depth from the start (for `keys_with_depth`).
    let mut levels: Vec<u32> = Vec::new();
    let mut heuristics: Vec<Option<f64>> = Vec::new();
    let mut payoffs: Vec<f64> = Vec::new();
    let mut labels = LabelTable::default();
    let mut level = vec![Pending {
        position: game.start(),
        parent: ArenaNode::NO_PARENT,
        label: 0,
        prob: 1.0,
    }];
    let (mut moves, mut probs) = (Vec::new(), Vec::new());
    let mut d = 0u32;
    while !level.is_empty() {
        let mut next_id = (nodes.len() + level.len()) as u64;
        let mut next = Vec::new();
        let cut = depth.is_some_and(|limit| d >= limit);
        for Pending {
            position,
            parent,
            label,
            prob,
        } in level
        {
            let me = nodes.len() as u32;
            let (kind, value, heuristic) = classify(game, &meta, &position, cut, &mut payoffs)?;
            keys.push(game.key(&position));
            levels.push(d);
            heuristics.push(heuristic);
            labels.of.push(label);
            if kind == Kind::Leaf {
                let first = if multiplayer { value as u32 } else { 0 };
                let value = if multiplayer { 0.0 } else { value };
                nodes.push(leaf(first, parent, value, prob));
                continue;
            }
            moves.clear();
            game.moves(&position, &mut moves);
            if moves.is_empty() {
                return Err(GameError::Invalid(format!(
                    "{}: a position that is not over has no moves (node {me}, {} moves from the start)",
                    meta.name, d
                )));
            }
            probabilities(game, &position, &moves, kind, &meta, &mut probs)?;
            let uniform = kind == Kind::Chance && probs.windows(2).all(|w| w[0] == w[1]);
            nodes.push(ArenaNode {
                first: next_id as u32,
                len: moves.len() as u32,
                parent,
                kind,
                uniform,
                value: 0.0,
                prob,
            });
            next_id += moves.len() as u64;
            if next_id > MAX_NODES as u64 {
                return Err(GameError::TooLarge(format!(
                    "{} has more than {MAX_NODES} nodes",
                    meta.name
                )));
            }
            for (mv, &p) in moves.drain(..).zip(&probs) {
                next.push(Pending {
                    label: labels.entry(game.label(&position, &mv)),
                    position: game.play(&position, &mv),
                    parent: me,
                    prob: p,
                });
            }
        }
        level = next;
        d += 1;
    }
    let keys = if keys.iter().all(Option::is_none) {
        Vec::new()
    } else if let Some(limit) = depth {
        keys_with_depth(keys, &levels, limit)
    } else {
        keys
    };
    let tree = Tree::from_arena(meta, multiplayer, nodes, payoffs)
        .and_then(|t| t.with_positions(keys, heuristics))
        .map_err(GameError::Invalid)?;
    Ok(tree.with_labels(|id| labels.text(id.index())))
}

/// The position after up to `plies` moves from `from`, each chosen by `pick` (given the number
/// of moves, it returns an index below it: a seeded random choice, say); stops early when the
/// game is over. How experiments and tests draw positions of random games.
pub fn play_out<G: Game>(
    game: &G,
    from: G::Position,
    plies: u64,
    mut pick: impl FnMut(usize) -> usize,
) -> G::Position {
    let mut position = from;
    let mut moves = Vec::new();
    for _ in 0..plies {
        if game.outcome(&position).is_some() {
            break;
        }
        moves.clear();
        game.moves(&position, &mut moves);
        position = game.play(&position, &moves[pick(moves.len())]);
    }
    position
}

/// The keys of a tree cut at depth `limit`, where a position that occurs at two depths has two
/// different subtrees (the one nearer the cut stops sooner): a transposition table that took
/// them as one would return the wrong value. Such positions' keys are mixed with the depth left
/// to search, so that equal keys still mean equal subtrees; positions met at one depth only
/// (tic-tac-toe's and connect-four's, whose depth their stones tell) keep the game's key.
fn keys_with_depth(mut keys: Vec<Option<u64>>, levels: &[u32], limit: u32) -> Vec<Option<u64>> {
    let mut first_level: FastMap<u64, u32> = FastMap::default();
    let mut recurs: FastSet<u64> = FastSet::default();
    for (key, &level) in keys.iter().zip(levels) {
        let Some(k) = *key else { continue };
        if *first_level.entry(k).or_insert(level) != level {
            recurs.insert(k);
        }
    }
    if recurs.is_empty() {
        return keys;
    }
    for (key, &level) in keys.iter_mut().zip(levels) {
        if let Some(k) = *key
            && recurs.contains(&k)
        {
            let left = u64::from(limit.saturating_sub(level));
            *key = Some(k ^ mix64(left.wrapping_add(GOLDEN_GAMMA)));
        }
    }
    keys
}

/// The number of nodes of the tree `game` spans to `depth` moves (or to the end), counted depth
/// first without storing the tree; `None` as soon as it passes `limit`. A size check before
/// [`tree`] allocates anything. Recursive, one frame a move: give a depth for long games.
pub fn count<G: Game>(game: &G, depth: Option<u32>, limit: u64) -> Option<u64> {
    fn go<G: Game>(g: &G, p: &G::Position, left: Option<u32>, n: &mut u64, limit: u64) -> bool {
        *n += 1;
        if *n > limit {
            return false;
        }
        if left == Some(0) || g.outcome(p).is_some() {
            return true;
        }
        let mut moves = Vec::new();
        g.moves(p, &mut moves);
        let left = left.map(|d| d - 1);
        moves.iter().all(|m| go(g, &g.play(p, m), left, n, limit))
    }
    let mut n = 0;
    go(game, &game.start(), depth, &mut n, limit).then_some(n)
}

/// An estimate of the number of nodes of the tree `game` spans to `depth` moves, made in a
/// moment: the first levels are counted ([`count`]) while the tree to them has at most
/// `budget` nodes, and each level beyond grows as the last counted one did (its size over the
/// one before it). Exact when the whole tree fits the budget (then `exact` is true). A game
/// whose branching grows with the depth, as chess's does from its start, has more.
pub fn estimate<G: Game>(game: &G, depth: u32, budget: u64) -> Estimate {
    // Nodes to depth k, and the sizes of the last two levels counted.
    let (mut total, mut last, mut before) = (1u64, 1u64, 0u64);
    let mut counted = 0;
    while counted < depth {
        let Some(n) = count(game, Some(counted + 1), budget) else {
            break;
        };
        before = last;
        last = n - total;
        total = n;
        counted += 1;
        if last == 0 {
            // Every game ended: deeper levels are empty.
            return Estimate {
                nodes: total,
                exact: true,
                counted,
            };
        }
    }
    if counted == 0 {
        // The first level alone passes the budget.
        return Estimate {
            nodes: budget.saturating_add(1),
            exact: false,
            counted,
        };
    }
    if counted == depth {
        return Estimate {
            nodes: total,
            exact: true,
            counted,
        };
    }
    let growth = if before == 0 {
        1.0
    } else {
        last as f64 / before as f64
    };
    let mut nodes = total as f64;
    let mut level = last as f64;
    for _ in counted..depth {
        level *= growth;
        nodes += level;
    }
    Estimate {
        nodes: if nodes >= u64::MAX as f64 {
            u64::MAX
        } else {
            nodes as u64
        },
        exact: false,
        counted,
    }
}

/// What [`estimate`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The number of nodes, counted or extrapolated.
    pub nodes: u64,
    /// Whether it was counted to the depth asked.
    pub exact: bool,
    /// The levels counted.
    pub counted: u32,
}

/// What `position` is as a node: its kind, its value (a leaf's value; an n-player leaf's row
/// of `payoffs`, where its payoff vector is appended) and an interior node's heuristic value.
/// `cut`: the position is at the depth limit, a leaf worth its heuristic value unless the game
/// is over. One reading of the rules for [`tree`] and [`Lazy`].
pub(crate) fn classify<G: Game>(
    game: &G,
    meta: &Meta,
    position: &G::Position,
    cut: bool,
    payoffs: &mut Vec<f64>,
) -> Result<(Kind, f64, Option<f64>), GameError> {
    let players = usize::from(meta.players);
    let multiplayer = players > 2;
    Ok(match game.outcome(position) {
        Some(Outcome::Value(v)) if !multiplayer => (Kind::Leaf, v, None),
        Some(Outcome::Payoffs(p)) if multiplayer && p.len() == players => {
            let row = payoffs.len() / players;
            payoffs.extend_from_slice(&p);
            // An n-player leaf's `first` is the row of its payoff vector.
            (Kind::Leaf, row as f64, None)
        }
        Some(o) => return Err(wrong_outcome(meta, players, &o)),
        None => {
            let heuristic = game.heuristic(position);
            match heuristic {
                Some(h) if cut => (Kind::Leaf, h, None),
                None if cut => {
                    return Err(GameError::Invalid(format!(
                        "{} has no heuristic value to stop at a depth limit",
                        meta.name
                    )));
                }
                _ => (kind_of(meta, game.turn(position))?, 0.0, heuristic),
            }
        }
    })
}

/// A leaf of the arena.
fn leaf(first: u32, parent: u32, value: f64, prob: f64) -> ArenaNode {
    ArenaNode {
        first,
        len: 0,
        parent,
        kind: Kind::Leaf,
        uniform: false,
        value,
        prob,
    }
}

/// The node kind of `turn`, or why it does not fit the game's number of players.
fn kind_of(meta: &Meta, turn: Turn) -> Result<Kind, GameError> {
    match (turn, meta.players) {
        (Turn::Max, 2) => Ok(Kind::Max),
        (Turn::Min, 2) => Ok(Kind::Min),
        (Turn::Chance, _) => Ok(Kind::Chance),
        (Turn::Player(p), n) if n > 2 && p < n => Ok(Kind::Player(p)),
        (turn, n) => Err(GameError::Invalid(format!(
            "{}: {turn:?} to move in a game of {n} players ({})",
            meta.name,
            if n > 2 {
                format!("players 0 to {}", n - 1)
            } else {
                "Max and Min".to_string()
            }
        ))),
    }
}

/// Why an outcome does not fit the game's number of players.
fn wrong_outcome(meta: &Meta, players: usize, o: &Outcome) -> GameError {
    let got = match o {
        Outcome::Value(v) => format!("the value {v}"),
        Outcome::Payoffs(p) => format!("a payoff vector of {} entries", p.len()),
    };
    let wanted = if players > 2 {
        format!("a payoff vector of {players} entries")
    } else {
        "a value for Max".to_string()
    };
    GameError::Invalid(format!(
        "{}: a finished game is worth {got}, but a game of {players} players needs {wanted}",
        meta.name
    ))
}

/// The probabilities of `moves` at a node of `kind`, into `probs` (a buffer the builder reuses,
/// node after node): 1 for a decision, the game's (or equal ones) at a chance position, checked
/// to be probabilities that sum to 1.
pub(crate) fn probabilities<G: Game>(
    game: &G,
    position: &G::Position,
    moves: &[G::Move],
    kind: Kind,
    meta: &Meta,
    probs: &mut Vec<f64>,
) -> Result<(), GameError> {
    probs.clear();
    if kind != Kind::Chance {
        probs.resize(moves.len(), 1.0);
        return Ok(());
    }
    let even = 1.0 / moves.len() as f64;
    probs.extend(
        moves
            .iter()
            .map(|m| game.probability(position, m).unwrap_or(even)),
    );
    if let Some(p) = probs.iter().find(|p| !(**p > 0.0 && **p <= 1.0)) {
        return Err(GameError::Invalid(format!(
            "{}: a chance outcome has probability {p}; probabilities lie in (0, 1]",
            meta.name
        )));
    }
    let sum: f64 = probs.iter().sum();
    if (sum - 1.0).abs() > 1e-9 {
        return Err(GameError::Invalid(format!(
            "{}: the outcomes of a chance position have probabilities summing to {}, not 1",
            meta.name,
            (sum * 1e9).round() / 1e9
        )));
    }
    Ok(())
}

/// Move labels, each text stored once: games repeat a few labels ("X b2", "drop col 4") over
/// millions of nodes.
#[derive(Default)]
pub(crate) struct LabelTable {
    /// Node i's label entry, 0 for none (the root).
    of: Vec<u32>,
    /// Entry k's text is `texts[k - 1]`.
    texts: Vec<String>,
    index: HashMap<String, u32>,
}

impl LabelTable {
    pub(crate) fn entry(&mut self, text: String) -> u32 {
        if let Some(&k) = self.index.get(&text) {
            return k;
        }
        self.texts.push(text.clone());
        let k = self.texts.len() as u32;
        self.index.insert(text, k);
        k
    }

    pub(crate) fn text(&self, node: usize) -> Option<String> {
        let k = *self.of.get(node)? as usize;
        (k > 0).then(|| self.texts[k - 1].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of positions reachable in `rules` (states equal under `position`), after
    /// checking that they have one key each.
    fn keys_are_one_to_one<G: Game, P: Eq + std::hash::Hash + std::fmt::Debug>(
        rules: &G,
        position: impl Fn(&G::Position) -> P,
    ) -> usize {
        use std::collections::HashMap;
        let mut keys: HashMap<u64, P> = HashMap::new();
        let mut positions: HashMap<P, u64> = HashMap::new();
        let mut stack = vec![rules.start()];
        let mut moves = Vec::new();
        while let Some(s) = stack.pop() {
            let (p, key) = (position(&s), rules.key(&s).expect("a key"));
            if let Some(&k) = positions.get(&p) {
                assert_eq!(k, key, "{p:?} has two keys");
                continue;
            }
            if let Some(other) = keys.get(&key) {
                panic!("{p:?} and {other:?} share key {key}");
            }
            keys.insert(key, position(&s));
            positions.insert(p, key);
            if rules.outcome(&s).is_some() {
                continue;
            }
            moves.clear();
            rules.moves(&s, &mut moves);
            stack.extend(moves.iter().map(|m| rules.play(&s, m)));
        }
        positions.len()
    }

    #[test]
    fn keys_tell_positions_apart() {
        let pig_state = |s: &pig::PigState| (s.scores, s.turn_total, s.player, s.chance, s.moves);
        let packed = pig::Pig::new(6, 3, 8).unwrap();
        assert!(packed.key_widths().is_some());
        assert!(keys_are_one_to_one(&packed, pig_state) > 1000);
        // Too wide to pack: the fields are mixed instead.
        let mixed = pig::Pig::new(1 << 30, 2, 6).unwrap();
        assert!(mixed.key_widths().is_none());
        assert!(keys_are_one_to_one(&mixed, pig_state) > 50);
        // Nim's positions are the sorted non-empty heaps and the player to move.
        let nim_position = |(heaps, mover): &(Vec<u32>, u8)| {
            let mut h: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
            h.sort_unstable();
            (h, *mover)
        };
        for players in [2, 3, 5] {
            let nim = nim::Nim::new(&[1, 2, 3, 4], players).unwrap();
            // 42 multisets of heaps lie below {1, 2, 3, 4}; some are reached with different
            // players to move, which the keys tell apart.
            assert!(keys_are_one_to_one(&nim, nim_position) > 42);
        }
        assert_eq!(keys_are_one_to_one(&tic_tac_toe::TicTacToe, |s| *s), 5478);
    }

    /// What [`Broken`]'s rules answer at the start: its outcome, its turn, how many moves.
    type Answer = fn() -> (Option<Outcome>, Turn, u32);

    /// A game whose rules answer what `answer` says at the start, to see each answer refused.
    struct Broken(Answer, u8);

    impl Game for Broken {
        type Position = u32;
        type Move = u32;
        fn name(&self) -> String {
            "broken".into()
        }
        fn players(&self) -> u8 {
            self.1
        }
        fn start(&self) -> u32 {
            0
        }
        fn outcome(&self, &p: &u32) -> Option<Outcome> {
            if p == 0 {
                (self.0)().0
            } else {
                Some(Outcome::Value(0.0))
            }
        }
        fn turn(&self, _: &u32) -> Turn {
            (self.0)().1
        }
        fn moves(&self, _: &u32, moves: &mut Vec<u32>) {
            moves.extend(1..=(self.0)().2);
        }
        fn play(&self, _: &u32, &m: &u32) -> u32 {
            m
        }
        fn label(&self, _: &u32, m: &u32) -> String {
            format!("m{m}")
        }
        fn probability(&self, _: &u32, &m: &u32) -> Option<f64> {
            Some(if m == 1 { 0.7 } else { 0.2 })
        }
    }

    #[test]
    fn rules_that_do_not_make_a_tree_are_refused_with_the_reason() {
        let cases: [(Answer, &str); 5] = [
            (|| (None, Turn::Max, 0), "has no moves"),
            (|| (None, Turn::Player(1), 2), "game of 2 players"),
            (
                || (Some(Outcome::Payoffs(vec![1.0])), Turn::Max, 1),
                "needs a value",
            ),
            (|| (None, Turn::Chance, 2), "summing to 0.9"),
            (|| (None, Turn::Chance, 1), "summing to 0.7"),
        ];
        for (answer, why) in cases {
            let err = tree(&Broken(answer, 2), None).unwrap_err();
            assert!(err.to_string().contains(why), "{err} lacks {why:?}");
        }
        // Three players who reach an outcome of one value for Max.
        let err = tree(&Broken(|| (None, Turn::Player(2), 1), 3), None).unwrap_err();
        assert!(err.to_string().contains("payoff vector of 3"), "{err}");
    }

    #[test]
    fn a_depth_limit_needs_a_heuristic() {
        let err = tree(&Broken(|| (None, Turn::Max, 2), 2), Some(0)).unwrap_err();
        assert!(err.to_string().contains("no heuristic"), "{err}");
    }
}
