//! `gen game NAME`: the full game tree of a real game, built from its rules, moves as labels.
//!
//! - **tic-tac-toe**: the whole game from the empty board. X moves first and is Max; a leaf is
//!   +1 when X has three in a row, −1 when O has, 0 for a full board without one. Cells are named
//!   by column `a`–`c` (left to right) and row `1`–`3` (top to bottom): `a1` is the top-left
//!   corner, `b2` the centre. Children come in OpenSpiel's action order (cells row by row from
//!   the top left: a1, b1, c1, a2, …), labelled "X b2" / "O a1". The plain tree has 549,946 nodes
//!   (255,168 leaves), root value 0; `--depth D` stops D moves from the start.
//! - **nim** `--heaps 1,2,3,4`: normal play — a move takes k ≥ 1 objects from one heap, and the
//!   player who takes the last object wins. The first player is Max; a leaf (all heaps empty) is
//!   +1 when Max took the last object, −1 when Min did. Labels "take k from heap h" (heaps
//!   numbered from 1 as given); children by heap, then by k from 1 up. With `--players N`
//!   (N ≥ 3) the players move in turn and the tree is n-player: the one who takes the last
//!   object gets payoff 1, the others 0 (for max^n).
//! - **connect-four** `--depth D [--moves 4435]`: 7 × 6, to depth D from the start or after the
//!   given moves; ±1000 a win, heuristic = open windows ([`connect_four`]).
//! - **pig** `--win W --dice K --horizon H`: two-player Pig with chance nodes, the rules of
//!   OpenSpiel's `pig(winscore=W, diceoutcomes=K, horizon=H)`. The player to move (player 1 =
//!   Max, player 2 = Min) chooses "roll" or "stop" (both even with a turn total of 0; only
//!   "stop" when the score plus the turn total reaches W).
//!   "roll" leads to a chance node with K equally likely outcomes "rolled 1" … "rolled K": a 1
//!   loses the turn total and passes the turn; any other face adds its value to the turn total and
//!   the same player chooses again. "stop" adds the turn total to the player's score and passes
//!   the turn. The game ends when some player's banked score reaches W (+1 for player 1, −1 for
//!   player 2), or when H decisions ("roll" or "stop", die outcomes not counted) have been made:
//!   the position right after the H-th decision is a leaf of value 0 (even after a "roll" whose
//!   die is then never thrown). As in OpenSpiel, a turn total alone never wins: the player must
//!   stop to bank it. Checked against OpenSpiel 2.0.2 (`pyspiel.load_game("pig", {...})`, a full
//!   traversal with expectiminimax): the same node counts and root values (tests/games.rs).
//!
//! The trees are laid out breadth first, level by level, directly in the arena; every game
//! checks the size of its tree before allocating it. Positions are not shared: a position reached
//! by two move orders appears twice, and both nodes carry the same position key (`Rules::key`;
//! the encodings are in docs/FORMAT.md). Games with an evaluation (`Rules::heuristic`;
//! tic-tac-toe: (lines open for X − lines open for O) / 10) store it at every interior node, and
//! with a depth limit the positions at the limit that are not over become leaves worth it.

pub mod connect_four;

use super::rng::{GOLDEN_GAMMA, mix64};
use super::{GenError, check_size, size_bound};
use crate::tree::{ArenaNode, Bounds, Kind, MAX_NODES, Meta, Tree};
use connect_four::{ConnectFour, Moves};

/// The most heaps `gen game nim` takes.
pub const MAX_HEAPS: usize = 16;

/// Nim's heaps: a fixed-size list so that [`Game`] (and `Spec`) stay `Copy`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Heaps {
    sizes: [u32; MAX_HEAPS],
    len: u8,
}

impl Heaps {
    /// The heaps `sizes`, or an error when there are none or more than [`MAX_HEAPS`].
    pub fn new(sizes: &[u32]) -> Result<Heaps, GenError> {
        if sizes.is_empty() || sizes.len() > MAX_HEAPS {
            return Err(GenError::Invalid(format!(
                "nim takes 1 to {MAX_HEAPS} heaps, not {}",
                sizes.len()
            )));
        }
        let mut h = Heaps {
            sizes: [0; MAX_HEAPS],
            len: sizes.len() as u8,
        };
        h.sizes[..sizes.len()].copy_from_slice(sizes);
        Ok(h)
    }

    /// The heaps' sizes, in order.
    pub fn as_slice(&self) -> &[u32] {
        &self.sizes[..usize::from(self.len)]
    }

    /// "1,2,3,4", as `--heaps` takes it.
    pub fn text(&self) -> String {
        let parts: Vec<String> = self.as_slice().iter().map(u32::to_string).collect();
        parts.join(",")
    }
}

/// A game and its parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Game {
    /// To `depth` moves (positions there valued by the heuristic), or the full game.
    TicTacToe {
        /// Moves to search before the horizon; `None`: to the end of the game.
        depth: Option<u32>,
    },
    /// `players` take turns (2: Max and Min; more: an n-player tree for max^n).
    Nim {
        /// The heaps' sizes.
        heaps: Heaps,
        /// The number of players.
        players: u8,
    },
    /// Pig with dice: roll or stop, a turn's total lost on a 1.
    Pig {
        /// The score that wins.
        win: u32,
        /// The number of faces of the die.
        dice: u32,
        /// Turns to search before the horizon.
        horizon: u32,
    },
    /// To `depth` moves after `moves` (positions there valued by the heuristic).
    ConnectFour {
        /// Moves to search after `moves`.
        depth: u32,
        /// The columns already played, in order.
        moves: Moves,
    },
}

/// The most players `gen game nim` takes.
pub const MAX_NIM_PLAYERS: u8 = 16;

impl Game {
    /// The names `prune gen game NAME` takes, in the order of its help.
    pub const NAMES: [&'static str; 4] = ["tic-tac-toe", "nim", "pig", "connect-four"];

    /// The name `prune gen game NAME` takes.
    pub fn name(&self) -> &'static str {
        match self {
            Game::TicTacToe { .. } => "tic-tac-toe",
            Game::Nim { .. } => "nim",
            Game::Pig { .. } => "pig",
            Game::ConnectFour { .. } => "connect-four",
        }
    }

    /// The game `name` with the command line's defaults.
    pub fn default_for(name: &str) -> Option<Game> {
        Some(match name {
            "tic-tac-toe" => Game::TicTacToe { depth: None },
            "nim" => Game::Nim {
                heaps: Heaps::new(&[1, 2, 3, 4]).expect("four heaps"),
                players: 2,
            },
            "connect-four" => Game::ConnectFour {
                depth: 4,
                moves: Moves::NONE,
            },
            "pig" => Game::Pig {
                win: 6,
                dice: 3,
                horizon: 8,
            },
            _ => return None,
        })
    }
}

/// What a position is, for the breadth-first builder.
enum Position {
    Leaf(f64),
    /// A finished game of an n-player tree: its payoff vector.
    Payoffs(Vec<f64>),
    Decision(Kind),
    Chance,
}

/// A game's rules as the builder needs them: positions, their moves (a label code, the
/// probability for chance moves, the position reached) and how a label code reads.
trait Rules {
    type State: Clone;
    fn root(&self) -> Self::State;
    fn expand(&self, s: &Self::State, moves: &mut Vec<(u32, f64, Self::State)>) -> Position;
    fn label(&self, code: u32) -> String;
    /// The position's key: equal positions, whatever the move order, have equal keys.
    fn key(&self, s: &Self::State) -> u64;
    /// The static evaluation of a position that is not over, from Max's point of view; `None`
    /// for games without one.
    fn heuristic(&self, _s: &Self::State) -> Option<f64> {
        None
    }
}

/// The game tree of `rules`, breadth first: level k's nodes are numbered in order, and the
/// children of each node follow those of the node before it on the next level. With a depth
/// limit, the positions on level `depth` that are not over become leaves worth their heuristic
/// value. Every node gets its position's key, every interior node its heuristic value.
fn build<R: Rules>(rules: &R, meta: Meta, depth: Option<u32>) -> Result<Tree, GenError> {
    const NO_LABEL: u32 = u32::MAX;
    let mut nodes: Vec<ArenaNode> = Vec::new();
    let mut labels: Vec<u32> = Vec::new();
    let mut keys: Vec<Option<u64>> = Vec::new();
    let mut heuristics: Vec<Option<f64>> = Vec::new();
    let mut payoffs: Vec<f64> = Vec::new();
    let players = usize::from(meta.players);
    let multiplayer = players > 2;
    // (position, parent, label code, probability)
    let mut level = vec![(rules.root(), ArenaNode::NO_PARENT, NO_LABEL, 1.0)];
    let mut moves = Vec::new();
    let mut d = 0u32;
    while !level.is_empty() {
        let mut next_id = (nodes.len() + level.len()) as u64;
        let mut next = Vec::new();
        let cut = depth.is_some_and(|limit| d >= limit);
        for (state, parent, code, prob) in level {
            moves.clear();
            let position = rules.expand(&state, &mut moves);
            let heuristic = match position {
                Position::Leaf(_) | Position::Payoffs(_) => None,
                _ => rules.heuristic(&state),
            };
            let (kind, value) = match position {
                Position::Leaf(v) => (Kind::Leaf, v),
                Position::Payoffs(p) => {
                    debug_assert_eq!(p.len(), players);
                    let row = payoffs.len() / players;
                    payoffs.extend_from_slice(&p);
                    (Kind::Leaf, row as f64)
                }
                _ if cut => match heuristic {
                    Some(h) => (Kind::Leaf, h),
                    None => {
                        return Err(GenError::Invalid(format!(
                            "{} has no heuristic value to stop at a depth limit",
                            meta.name
                        )));
                    }
                },
                Position::Decision(k) => (k, 0.0),
                Position::Chance => (Kind::Chance, 0.0),
            };
            let first = match kind {
                // An n-player leaf's `first` is the row of its payoff vector.
                Kind::Leaf if multiplayer => value as u64,
                Kind::Leaf => 0,
                _ => next_id,
            };
            let value = if multiplayer { 0.0 } else { value };
            let uniform = kind == Kind::Chance && moves.windows(2).all(|w| w[0].1 == w[1].1);
            nodes.push(ArenaNode {
                first: first as u32,
                len: if kind == Kind::Leaf {
                    0
                } else {
                    moves.len() as u32
                },
                parent,
                kind,
                uniform,
                value,
                prob,
            });
            labels.push(code);
            keys.push(Some(rules.key(&state)));
            heuristics.push(if kind == Kind::Leaf { None } else { heuristic });
            if kind == Kind::Leaf {
                continue;
            }
            next_id += moves.len() as u64;
            if next_id > MAX_NODES as u64 {
                return Err(GenError::TooLarge(format!(
                    "{} has more than {MAX_NODES} nodes",
                    meta.name
                )));
            }
            let me = (nodes.len() - 1) as u32;
            next.extend(moves.drain(..).map(|(c, p, s)| (s, me, c, p)));
        }
        level = next;
        d += 1;
    }
    let tree = Tree::from_arena(meta, multiplayer, nodes, payoffs)
        .and_then(|t| t.with_positions(keys, heuristics))
        .map_err(GenError::Invalid)?;
    Ok(tree.with_labels(|id| {
        let code = labels[id.index()];
        (code != NO_LABEL).then(|| rules.label(code))
    }))
}

/// The tree of `game`.
pub fn generate(game: &Game) -> Result<Tree, GenError> {
    let bounds = Some(Bounds { lo: -1.0, hi: 1.0 });
    match *game {
        Game::TicTacToe { depth } => {
            // 1 + 9 + 9·8 + … positions at most to the depth limit: checked before anything is
            // allocated.
            let last = depth.map_or(9, |d| d.min(9)) as u64;
            let bound = (0..=last).map(|k| (10 - k..=9).product::<u64>()).sum();
            check_size("the tic-tac-toe tree", Some(bound), 0)?;
            let meta = match depth {
                None => Meta {
                    name: "tic-tac-toe".into(),
                    description: "prune gen game tic-tac-toe: the full game from the empty board, X (Max) first; +1 X wins, 0 draw, −1 O wins; heuristic (open lines for X − open lines for O)/10".into(),
                    players: 2,
                    bounds,
                    ..Meta::default()
                },
                Some(d) => Meta {
                    name: format!("tic-tac-toe depth {d}"),
                    description: format!("prune gen game tic-tac-toe --depth {d}: from the empty board to depth {d}, X (Max) first; +1 X wins, 0 draw, −1 O wins; positions at depth {d} valued by the heuristic (open lines for X − open lines for O)/10"),
                    players: 2,
                    bounds,
                    ..Meta::default()
                },
            };
            build(&TicTacToe, meta, depth)
        }
        Game::Nim { heaps, players: 2 } => {
            let nim = Nim::new(heaps.as_slice(), 2)?;
            let meta = Meta {
                name: format!("nim {}", heaps.text()),
                description: format!(
                    "prune gen game nim: heaps {}, normal play (taking the last object wins), Max first; +1 Max wins, −1 Min wins",
                    heaps.text()
                ),
                players: 2,
                bounds,
                ..Meta::default()
            };
            build(&nim, meta, None)
        }
        Game::Nim { heaps, players } => {
            let nim = Nim::new(heaps.as_slice(), players)?;
            let meta = Meta {
                name: format!("nim {} players {players}", heaps.text()),
                description: format!(
                    "prune gen game nim --players {players}: heaps {}, players 1 to {players} in turn, taking the last object wins; payoff 1 to the winner, 0 to the others",
                    heaps.text()
                ),
                players,
                payoff_floor: Some(0.0),
                payoff_sum: Some(1.0),
                ..Meta::default()
            };
            build(&nim, meta, None)
        }
        Game::ConnectFour { depth, moves } => {
            let rules = ConnectFour::new(&moves)?;
            // At most as many children as open columns at the root, on every level: a bound
            // checked before anything is allocated, with room for keys, heuristic values and
            // labels (about 48 bytes a node).
            let bound = size_bound(rules.open_columns(), depth);
            let what = format!("the connect-four tree of depth {depth}");
            check_size(&what, bound, bound.unwrap_or(0).saturating_mul(48))?;
            let after = if moves.as_slice().is_empty() {
                String::new()
            } else {
                format!(" after {}", moves.text())
            };
            // The first player (Max) moves first, so after an odd number of moves the root is
            // the second player's (Min's).
            let mover = if moves.as_slice().len() % 2 == 0 {
                "the first player (Max)"
            } else {
                "the second player (Min)"
            };
            let meta = Meta {
                name: format!("connect-four depth {depth}{after}"),
                description: format!(
                    "prune gen game connect-four --depth {depth}: 7×6 board{after}, {mover} to move; ±1000 a win for Max/Min, 0 a draw; positions {depth} moves on valued by open windows (3 of a colour +5, 2 of a colour +2, negative for Min)"
                ),
                players: 2,
                bounds: Some(Bounds {
                    lo: -connect_four::WIN,
                    hi: connect_four::WIN,
                }),
                ..Meta::default()
            };
            build(&rules, meta, Some(depth))
        }
        Game::Pig { win, dice, horizon } => {
            let pig = Pig::new(win, dice, horizon)?;
            let meta = Meta {
                name: format!("pig win={win} dice={dice} horizon={horizon}"),
                description: format!(
                    "prune gen game pig: OpenSpiel's pig(winscore={win}, diceoutcomes={dice}, horizon={horizon}); +1 player 1 (Max) banks {win}, −1 player 2 does, 0 at the horizon"
                ),
                players: 2,
                bounds,
                ..Meta::default()
            };
            build(&pig, meta, None)
        }
    }
}

/// Tic-tac-toe: (X's cells, O's cells) as bit sets, bit k = cell k row by row from the top left.
struct TicTacToe;

/// Tic-tac-toe's eight lines, as cell bit sets (cell `3·row + column`).
pub const TIC_TAC_TOE_LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

fn three(cells: u16) -> bool {
    TIC_TAC_TOE_LINES.iter().any(|&l| l & !cells == 0)
}

/// X's and O's cells of a tic-tac-toe position key (X's in bits 0–8, O's in bits 9–17).
pub fn tic_tac_toe_board(key: u64) -> (u16, u16) {
    ((key & 0x1ff) as u16, ((key >> 9) & 0x1ff) as u16)
}

/// The tic-tac-toe evaluation stored at interior positions: (lines still open for X − lines
/// still open for O) / 10, within ±0.8 so that a win (±1) outweighs it. A line is open for X
/// when O has no mark on it.
pub fn tic_tac_toe_heuristic(x: u16, o: u16) -> f64 {
    let open = |theirs: u16| {
        TIC_TAC_TOE_LINES
            .iter()
            .filter(|&&l| l & theirs == 0)
            .count() as f64
    };
    (open(o) - open(x)) / 10.0
}

impl Rules for TicTacToe {
    type State = (u16, u16);

    fn root(&self) -> (u16, u16) {
        (0, 0)
    }

    fn expand(&self, &(x, o): &(u16, u16), moves: &mut Vec<(u32, f64, (u16, u16))>) -> Position {
        if three(x) {
            return Position::Leaf(1.0);
        }
        if three(o) {
            return Position::Leaf(-1.0);
        }
        let filled = x | o;
        if filled == 0x1ff {
            return Position::Leaf(0.0);
        }
        let x_moves = x.count_ones() == o.count_ones();
        for cell in 0..9u32 {
            if filled & (1 << cell) != 0 {
                continue;
            }
            let next = if x_moves {
                (x | 1 << cell, o)
            } else {
                (x, o | 1 << cell)
            };
            // Code: the cell, plus 9 when O moves.
            moves.push((cell + if x_moves { 0 } else { 9 }, 1.0, next));
        }
        Position::Decision(if x_moves { Kind::Max } else { Kind::Min })
    }

    /// X's cells in bits 0–8, O's in bits 9–17 (read back by [`tic_tac_toe_board`]).
    fn key(&self, &(x, o): &(u16, u16)) -> u64 {
        u64::from(x) | u64::from(o) << 9
    }

    fn heuristic(&self, &(x, o): &(u16, u16)) -> Option<f64> {
        Some(tic_tac_toe_heuristic(x, o))
    }

    fn label(&self, code: u32) -> String {
        let (mark, cell) = if code < 9 {
            ('X', code)
        } else {
            ('O', code - 9)
        };
        let column = (b'a' + (cell % 3) as u8) as char;
        format!("{mark} {column}{}", cell / 3 + 1)
    }
}

/// Nim for `players` players in turn.
struct Nim {
    heaps: Vec<u32>,
    players: u8,
}

impl Nim {
    fn new(heaps: &[u32], players: u8) -> Result<Nim, GenError> {
        if !(2..=MAX_NIM_PLAYERS).contains(&players) {
            return Err(GenError::Invalid(format!(
                "nim takes 2 to {MAX_NIM_PLAYERS} players, not {players}"
            )));
        }
        // The tree of a heap of n objects has 2^n nodes, and with several heaps the tree holds
        // every pair of a node of one heap's tree followed by a node of the other's: at least
        // 2^(total) nodes. Refuse before counting what cannot fit.
        let total: u64 = heaps.iter().map(|&h| u64::from(h)).sum();
        if total >= 32 {
            return Err(GenError::TooLarge(format!(
                "nim with {total} objects has at least 2^{total} nodes; prune trees hold at most {MAX_NODES}"
            )));
        }
        let nim = Nim {
            heaps: heaps.to_vec(),
            players,
        };
        let nodes = nim.count();
        check_size(&format!("the nim tree of heaps {heaps:?}"), Some(nodes), 0)?;
        Ok(nim)
    }

    /// The exact number of nodes of the tree, by counting over sorted heap multisets.
    fn count(&self) -> u64 {
        fn go(heaps: Vec<u32>, memo: &mut std::collections::HashMap<Vec<u32>, u64>) -> u64 {
            if let Some(&n) = memo.get(&heaps) {
                return n;
            }
            let mut n = 1u64;
            for (i, &h) in heaps.iter().enumerate() {
                for k in 1..=h {
                    let mut child = heaps.clone();
                    child[i] = h - k;
                    child.retain(|&c| c > 0);
                    child.sort_unstable();
                    n = n.saturating_add(go(child, memo));
                }
            }
            memo.insert(heaps, n);
            n
        }
        let mut start: Vec<u32> = self.heaps.iter().copied().filter(|&h| h > 0).collect();
        start.sort_unstable();
        go(start, &mut std::collections::HashMap::new())
    }
}

impl Rules for Nim {
    /// The heaps and the player to move (0 is the first player, Max in a two-player game).
    type State = (Vec<u32>, u8);

    fn root(&self) -> (Vec<u32>, u8) {
        (self.heaps.clone(), 0)
    }

    fn expand(
        &self,
        (heaps, mover): &(Vec<u32>, u8),
        moves: &mut Vec<(u32, f64, (Vec<u32>, u8))>,
    ) -> Position {
        if heaps.iter().all(|&h| h == 0) {
            // The player who moved last took the last object.
            let winner = (mover + self.players - 1) % self.players;
            if self.players == 2 {
                return Position::Leaf(if winner == 0 { 1.0 } else { -1.0 });
            }
            let mut payoff = vec![0.0; usize::from(self.players)];
            payoff[usize::from(winner)] = 1.0;
            return Position::Payoffs(payoff);
        }
        let next_mover = (mover + 1) % self.players;
        for (i, &h) in heaps.iter().enumerate() {
            for k in 1..=h {
                let mut next = heaps.clone();
                next[i] -= k;
                // Code: the heap in the low 8 bits, k above.
                moves.push(((k << 8) | i as u32, 1.0, (next, next_mover)));
            }
        }
        Position::Decision(match (self.players, mover) {
            (2, 0) => Kind::Max,
            (2, _) => Kind::Min,
            (_, p) => Kind::Player(*p),
        })
    }

    fn label(&self, code: u32) -> String {
        format!("take {} from heap {}", code >> 8, (code & 0xff) + 1)
    }

    /// The player to move in the low 8 bits; above them the non-empty heaps from the smallest
    /// up, each written as that many 1 bits and a 0: the order of the heaps and empty heaps do
    /// not matter, and with fewer than 32 objects in at most 16 heaps the code fits in 56 bits.
    fn key(&self, (heaps, mover): &(Vec<u32>, u8)) -> u64 {
        let mut sorted: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        sorted.sort_unstable();
        let mut key = 0u64;
        let mut bit = 8;
        for h in sorted {
            key |= ((1u64 << h) - 1) << bit;
            bit += h + 1;
        }
        key | u64::from(*mover)
    }
}

/// Pig, OpenSpiel's rules (see the module documentation).
struct Pig {
    win: u32,
    dice: u32,
    horizon: u32,
}

/// A Pig position.
#[derive(Clone, PartialEq, Eq, Hash)]
struct PigState {
    scores: [u32; 2],
    turn_total: u32,
    /// The player whose turn it is (0 is Max).
    player: usize,
    /// The die is about to be rolled.
    chance: bool,
    /// Decisions made so far (die outcomes are not counted).
    moves: u32,
}

const ROLL: u32 = u32::MAX - 1;
const STOP: u32 = u32::MAX - 2;

impl Pig {
    fn new(win: u32, dice: u32, horizon: u32) -> Result<Pig, GenError> {
        if win == 0 {
            return Err(GenError::Invalid(
                "pig needs a winning score of at least 1".into(),
            ));
        }
        if dice < 2 {
            return Err(GenError::Invalid(
                "pig needs a die of at least 2 outcomes".into(),
            ));
        }
        if dice > 1 << 16 {
            return Err(GenError::Invalid(
                "pig takes dice of at most 65536 outcomes".into(),
            ));
        }
        let pig = Pig { win, dice, horizon };
        // The exact count over distinct positions when there are not too many of them; else, with
        // h decisions left a position has at most N(h) = 1 + N(h − 1) (stop) + 1 + K·N(h − 1)
        // (roll, then the die) nodes under it, N(0) = 1: an upper bound (wins end the game
        // sooner). Either is counted before the tree is allocated.
        if let Some(nodes) = pig.count(1 << 18) {
            check_size(
                &format!("the pig tree with {dice} outcomes and horizon {horizon}"),
                Some(nodes),
                0,
            )?;
            return Ok(pig);
        }
        let mut bound = Some(1u64);
        for _ in 0..horizon {
            bound = bound
                .and_then(|n| n.checked_mul(u64::from(dice) + 1))
                .and_then(|n| n.checked_add(2))
                .filter(|&n| n <= MAX_NODES as u64);
            if bound.is_none() {
                break;
            }
        }
        check_size(
            &format!("the pig tree with {dice} outcomes and horizon {horizon}"),
            bound,
            0,
        )?;
        Ok(pig)
    }

    /// Bits for a score or turn total, and for the number of decisions, when the packed key
    /// (2 flag bits, two scores, the turn total, the decisions) fits in 64 bits. A score or
    /// turn total never exceeds `W − 1 + K` (a turn stops once it could win).
    fn key_widths(&self) -> Option<(u32, u32)> {
        let bits = |n: u64| 64 - n.leading_zeros();
        let value_bits = bits(u64::from(self.win) + u64::from(self.dice));
        let move_bits = bits(u64::from(self.horizon));
        (2 + 3 * value_bits + move_bits <= 64).then_some((value_bits, move_bits))
    }

    /// The exact number of nodes of the tree, memoised on positions; `None` when more than
    /// `budget` distinct positions would have to be remembered. Counts past [`MAX_NODES`] are
    /// reported as `MAX_NODES + 1`. Depth first with a stack of its own: a game runs to twice
    /// the horizon in plies, deeper than the thread's stack would take recursion.
    fn count(&self, budget: usize) -> Option<u64> {
        /// A position being counted: its children, the next one to count, the nodes so far.
        struct Open {
            state: PigState,
            children: Vec<PigState>,
            next: usize,
            nodes: u64,
        }
        let open = |state: PigState| {
            let mut moves = Vec::new();
            self.expand(&state, &mut moves);
            Open {
                state,
                children: moves.into_iter().map(|(_, _, child)| child).collect(),
                next: 0,
                nodes: 1,
            }
        };
        let add = |a: u64, b: u64| a.saturating_add(b).min(MAX_NODES as u64 + 1);
        let mut memo: std::collections::HashMap<PigState, u64> = std::collections::HashMap::new();
        let mut stack = vec![open(self.root())];
        // Ends when the root is done: its count is the answer.
        loop {
            let depth = stack.len();
            let top = stack
                .last_mut()
                .expect("the root is popped last, and returns");
            if let Some(child) = top.children.get(top.next) {
                top.next += 1;
                match memo.get(child) {
                    Some(&n) => top.nodes = add(top.nodes, n),
                    // The positions on the stack are remembered too, until they are done.
                    None if memo.len() + depth >= budget => return None,
                    None => {
                        let child = child.clone();
                        stack.push(open(child));
                    }
                }
                continue;
            }
            let done = stack.pop().expect("the loop's top");
            match stack.last_mut() {
                Some(parent) => parent.nodes = add(parent.nodes, done.nodes),
                None => return Some(done.nodes),
            }
            memo.insert(done.state, done.nodes);
        }
    }
}

impl Rules for Pig {
    type State = PigState;

    fn root(&self) -> PigState {
        PigState {
            scores: [0, 0],
            turn_total: 0,
            player: 0,
            chance: false,
            moves: 0,
        }
    }

    fn expand(&self, s: &PigState, moves: &mut Vec<(u32, f64, PigState)>) -> Position {
        // OpenSpiel's `Returns`: a banked win counts even on the horizon's last move.
        if let Some(p) = (0..2).find(|&p| s.scores[p] >= self.win) {
            return Position::Leaf(if p == 0 { 1.0 } else { -1.0 });
        }
        if s.moves >= self.horizon {
            return Position::Leaf(0.0);
        }
        if s.chance {
            // Die outcomes do not count towards the horizon.
            let after = s.clone();
            let p = 1.0 / f64::from(self.dice);
            for face in 1..=self.dice {
                let next = if face == 1 {
                    PigState {
                        turn_total: 0,
                        player: 1 - s.player,
                        chance: false,
                        ..after.clone()
                    }
                } else {
                    PigState {
                        turn_total: s.turn_total.saturating_add(face),
                        chance: false,
                        ..after.clone()
                    }
                };
                moves.push((face, p, next));
            }
            return Position::Chance;
        }
        let after = PigState {
            moves: s.moves + 1,
            ..s.clone()
        };
        let mut scores = s.scores;
        scores[s.player] = scores[s.player].saturating_add(s.turn_total);
        // A player whose turn total would win may only stop (OpenSpiel's legal actions).
        if scores[s.player] < self.win {
            moves.push((
                ROLL,
                1.0,
                PigState {
                    chance: true,
                    ..after.clone()
                },
            ));
        }
        moves.push((
            STOP,
            1.0,
            PigState {
                scores,
                turn_total: 0,
                player: 1 - s.player,
                ..after
            },
        ));
        Position::Decision(if s.player == 0 { Kind::Max } else { Kind::Min })
    }

    /// The state packed into 64 bits when it fits (see [`Pig::key_widths`]), otherwise a
    /// 64-bit mix of its fields.
    fn key(&self, s: &PigState) -> u64 {
        let fields = [
            u64::from(s.scores[0]),
            u64::from(s.scores[1]),
            u64::from(s.turn_total),
            u64::from(s.moves),
        ];
        let flags = (s.player as u64) << 1 | u64::from(s.chance);
        match self.key_widths() {
            Some((value_bits, move_bits)) => {
                let mut key = flags;
                let mut shift = 2;
                for (i, f) in fields.into_iter().enumerate() {
                    key |= f << shift;
                    shift += if i < 3 { value_bits } else { move_bits };
                }
                key
            }
            None => fields
                .into_iter()
                .fold(flags, |h, f| mix64(h ^ f.wrapping_mul(GOLDEN_GAMMA))),
        }
    }

    fn label(&self, code: u32) -> String {
        match code {
            ROLL => "roll".into(),
            STOP => "stop".into(),
            face => format!("rolled {face}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_labels_and_first_levels() {
        let t = generate(&Game::TicTacToe { depth: None }).unwrap();
        assert_eq!(t.child_count(t.root()), 9);
        assert_eq!(t.kind(t.root()), Kind::Max);
        let b2 = t.child(t.root(), 4);
        assert_eq!(t.label(b2), Some("X b2"));
        assert_eq!(t.kind(b2), Kind::Min);
        assert_eq!(t.child_count(b2), 8);
        assert_eq!(t.label(t.child(b2, 0)), Some("O a1"));
        assert_eq!(t.label(t.child(t.root(), 8)), Some("X c3"));
        // Breadth first: the root's children are nodes 1..=9.
        assert_eq!(t.child(t.root(), 0).index(), 1);
    }

    #[test]
    fn nim_leaves_name_who_took_the_last_object() {
        let t = generate(&Game::Nim {
            heaps: Heaps::new(&[2]).unwrap(),
            players: 2,
        })
        .unwrap();
        // Take 2: Max took the last; take 1 then 1: Min did.
        let take2 = t.child(t.root(), 1);
        assert_eq!(t.label(take2), Some("take 2 from heap 1"));
        assert_eq!(t.value(take2), 1.0);
        let take1 = t.child(t.root(), 0);
        assert_eq!(t.value(t.child(take1, 0)), -1.0);
        assert_eq!(t.len(), 4);
        assert!(
            generate(&Game::Nim {
                heaps: Heaps::new(&[20, 20]).unwrap(),
                players: 2,
            })
            .is_err()
        );
        assert!(Heaps::new(&[]).is_err());
    }

    #[test]
    fn nim_count_matches_the_tree() {
        for heaps in [&[1, 2, 3][..], &[3, 3], &[0, 4, 1]] {
            let nim = Nim::new(heaps, 2).unwrap();
            let t = generate(&Game::Nim {
                heaps: Heaps::new(heaps).unwrap(),
                players: 2,
            })
            .unwrap();
            assert_eq!(nim.count(), t.len() as u64, "{heaps:?}");
        }
    }

    /// The number of positions reachable in `rules` (states equal under `position`), after
    /// checking that they have one key each.
    fn keys_are_one_to_one<R: Rules, P: Eq + std::hash::Hash + std::fmt::Debug>(
        rules: &R,
        position: impl Fn(&R::State) -> P,
    ) -> usize {
        use std::collections::HashMap;
        let mut keys: HashMap<u64, P> = HashMap::new();
        let mut positions: HashMap<P, u64> = HashMap::new();
        let mut stack = vec![rules.root()];
        let mut moves = Vec::new();
        while let Some(s) = stack.pop() {
            let (p, key) = (position(&s), rules.key(&s));
            if let Some(&k) = positions.get(&p) {
                assert_eq!(k, key, "{p:?} has two keys");
                continue;
            }
            if let Some(other) = keys.get(&key) {
                panic!("{p:?} and {other:?} share key {key}");
            }
            keys.insert(key, position(&s));
            positions.insert(p, key);
            moves.clear();
            rules.expand(&s, &mut moves);
            stack.extend(moves.drain(..).map(|(_, _, c)| c));
        }
        positions.len()
    }

    #[test]
    fn keys_tell_positions_apart() {
        let pig_state = |s: &PigState| (s.scores, s.turn_total, s.player, s.chance, s.moves);
        let packed = Pig::new(6, 3, 8).unwrap();
        assert!(packed.key_widths().is_some());
        assert!(keys_are_one_to_one(&packed, pig_state) > 1000);
        // Too wide to pack: the fields are mixed instead.
        let mixed = Pig::new(1 << 30, 2, 6).unwrap();
        assert!(mixed.key_widths().is_none());
        assert!(keys_are_one_to_one(&mixed, pig_state) > 50);
        // Nim's positions are the sorted non-empty heaps and the player to move.
        let nim_position = |(heaps, mover): &(Vec<u32>, u8)| {
            let mut h: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
            h.sort_unstable();
            (h, *mover)
        };
        for players in [2, 3, 5] {
            let nim = Nim::new(&[1, 2, 3, 4], players).unwrap();
            // 42 multisets of heaps lie below {1, 2, 3, 4}; some are reached with different
            // players to move, which the keys tell apart.
            assert!(keys_are_one_to_one(&nim, nim_position) > 42);
        }
        assert_eq!(keys_are_one_to_one(&TicTacToe, |s| *s), 5478);
    }

    #[test]
    fn pig_moves_follow_the_rules() {
        let t = generate(&Game::Pig {
            win: 2,
            dice: 2,
            horizon: 4,
        })
        .unwrap();
        let root = t.root();
        assert_eq!(t.kind(root), Kind::Max);
        let roll = t.child(root, 0);
        assert_eq!(t.label(roll), Some("roll"));
        assert_eq!(t.kind(roll), Kind::Chance);
        assert!(t.is_uniform(roll));
        // A 1 passes the turn; a 2 keeps it.
        let one = t.child(roll, 0);
        assert_eq!(t.label(one), Some("rolled 1"));
        assert_eq!(t.kind(one), Kind::Min);
        let two = t.child(roll, 1);
        assert_eq!(t.kind(two), Kind::Max);
        assert_eq!(t.prob(two), 0.5);
        // With a turn total of 2 = W, "stop" is the only move, and it banks the win.
        assert_eq!(t.child_count(two), 1);
        let stop = t.child(two, 0);
        assert_eq!(t.label(stop), Some("stop"));
        assert!(t.is_leaf(stop));
        assert_eq!(t.value(stop), 1.0);
        // Stopping at once passes the turn; the horizon ends the game with 0.
        let pass = t.child(root, 1);
        assert_eq!(t.kind(pass), Kind::Min);
        assert!(
            generate(&Game::Pig {
                win: 6,
                dice: 1,
                horizon: 8
            })
            .is_err()
        );
        assert!(
            generate(&Game::Pig {
                win: 6,
                dice: 6,
                horizon: 1000
            })
            .is_err()
        );
    }

    /// The description names the player to move at the root, Min after an odd prefix.
    #[test]
    fn connect_four_says_who_is_to_move_at_the_root() {
        for (prefix, kind, mover) in [
            ("", Kind::Max, "the first player (Max) to move"),
            ("4", Kind::Min, "the second player (Min) to move"),
            ("44", Kind::Max, "the first player (Max) to move"),
        ] {
            let t = generate(&Game::ConnectFour {
                depth: 1,
                moves: connect_four::Moves::parse(prefix).unwrap(),
            })
            .unwrap();
            assert_eq!(t.kind(t.root()), kind, "{prefix:?}");
            assert!(
                t.meta().description.contains(mover),
                "{prefix:?}: {}",
                t.meta().description
            );
        }
    }

    /// A long horizon is counted without recursion (it overflowed the stack and aborted), then
    /// refused for its size.
    #[test]
    fn a_long_horizon_is_refused_not_a_stack_overflow() {
        let long = generate(&Game::Pig {
            win: 6,
            dice: 3,
            horizon: 50_000,
        });
        assert!(
            matches!(&long, Err(GenError::TooLarge(why)) if why.contains("horizon 50000")),
            "{long:?}"
        );
        // A game of 20,000 plies whose positions are few (win 1: a 2 wins, a 1 passes the
        // turn) is counted to the end, and its tree, which doubles every move, refused.
        let pig = Pig {
            win: 1,
            dice: 2,
            horizon: 10_000,
        };
        assert_eq!(pig.count(1 << 18), Some(MAX_NODES as u64 + 1));
    }
}
