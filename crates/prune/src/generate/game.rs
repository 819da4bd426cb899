//! `gen game NAME`: the tree a built-in game spans, written out from its rules (the
//! [`crate::game::Game`] trait), to a depth limit or to the end, moves as labels.
//!
//! The rules live in [`crate::game`], one implementation for each game; this module holds what
//! the command line names ([`GameSpec`]: the game and its parameters) and checks the size of
//! each tree before it is allocated:
//! - **tic-tac-toe** (`--depth D` stops D moves from the start): the plain tree has 549,946
//!   nodes (255,168 leaves), root value 0 ([`crate::game::tic_tac_toe`]);
//! - **nim** `--heaps 1,2,3,4 [--players N]` ([`crate::game::nim`]);
//! - **connect-four** `--depth D [--moves 4435]` ([`crate::game::connect_four`]);
//! - **pig** `--win W --dice K --horizon H` ([`crate::game::pig`]), checked against OpenSpiel;
//! - **chess** `--depth D [--fen FEN]` ([`crate::game::chess`]).
//!
//! The trees are laid out breadth first by [`crate::game::tree`]. Positions are not shared: a
//! position reached by two move orders appears twice, and both nodes carry the same position
//! key (the encodings are in docs/GAMES.md). Games with an evaluation store it at every interior
//! node, and with a depth limit the positions at the limit that are not over become leaves
//! worth it.

pub use crate::game::connect_four;
pub use crate::game::nim::MAX_NIM_PLAYERS;

use super::{GenError, check_size, size_bound};
use crate::game::chess::{self, Chess};
use crate::game::nim::Nim;
use crate::game::pig::Pig;
use crate::game::tic_tac_toe::TicTacToe;
use crate::game::{self as rules, GameError};
use crate::tree::{MAX_NODES, Tree};
use connect_four::{ConnectFour, Moves};

impl From<GameError> for GenError {
    fn from(e: GameError) -> GenError {
        match e {
            GameError::TooLarge(why) => GenError::TooLarge(why),
            GameError::Invalid(why) => GenError::Invalid(why),
        }
    }
}

/// The most heaps `gen game nim` takes.
pub const MAX_HEAPS: usize = 16;

/// Nim's heaps: a fixed-size list so that [`GameSpec`] (and `Spec`) stay `Copy`.
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

    /// The heap sizes, as given.
    pub fn as_slice(&self) -> &[u32] {
        &self.sizes[..usize::from(self.len)]
    }

    /// "1,2,3,4", as `--heaps` takes it.
    pub fn text(&self) -> String {
        let parts: Vec<String> = self.as_slice().iter().map(u32::to_string).collect();
        parts.join(",")
    }
}

/// The longest FEN [`Fen`] holds: far more than a legal position's (at most about 90 bytes).
pub const MAX_FEN: usize = 128;

/// A chess position in Forsyth–Edwards Notation, checked to be one: a fixed-size text so that
/// [`GameSpec`] (and `Spec`) stay `Copy`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    bytes: [u8; MAX_FEN],
    len: u8,
}

impl Fen {
    /// The standard starting position.
    pub fn start() -> Fen {
        Fen::parse(chess::START).expect("the start position reads")
    }

    /// `--fen TEXT`, or why it is not a chess position.
    pub fn parse(text: &str) -> Result<Fen, GenError> {
        let text = text.trim();
        if text.len() > MAX_FEN {
            return Err(GenError::Invalid(format!(
                "a FEN is at most {MAX_FEN} bytes, not {}",
                text.len()
            )));
        }
        Chess::new(text)?;
        let mut fen = Fen {
            bytes: [0; MAX_FEN],
            len: text.len() as u8,
        };
        fen.bytes[..text.len()].copy_from_slice(text.as_bytes());
        Ok(fen)
    }

    /// The FEN's text.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("parsed from a str")
    }
}

/// A built-in game and its parameters, as `prune gen game NAME` takes them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameSpec {
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
    /// OpenSpiel's pig(winscore, diceoutcomes, horizon): roll or stop, a turn's total lost on a 1.
    Pig {
        /// The score that wins.
        win: u32,
        /// The number of faces of the die.
        dice: u32,
        /// Decisions before the horizon.
        horizon: u32,
    },
    /// To `depth` moves after `moves` (positions there valued by the heuristic).
    ConnectFour {
        /// Moves to search after `moves`.
        depth: u32,
        /// The columns already played, in order.
        moves: Moves,
    },
    /// To `depth` moves from `fen` (positions there valued by the heuristic).
    Chess {
        /// Moves to search from the position.
        depth: u32,
        /// The root position.
        fen: Fen,
    },
}

/// A built-in game as every reader of its parameters presents it: `prune gen game NAME`, the
/// `--game NAME` flags of `run`, `compare`, `tui` and `check-trace`, the explorer's generate
/// form, and the `prune gen` command that rebuilds a tree ([`super::Spec::command`]). Each
/// reads the game's name, description, depth rule and parameters here ([`GAMES`]), and the
/// values through [`GameSpec::value`] and [`GameSpec::set`]: a new built-in game is a row
/// here and its arms in [`GameSpec`]'s methods, and no reader changes.
#[derive(Copy, Clone, Debug)]
pub struct BuiltIn {
    /// Its name, as `gen game` and `--game` take it.
    pub name: &'static str,
    /// `game NAME`, its family among `prune gen`'s ([`super::Spec::FAMILIES`]).
    pub family: &'static str,
    /// What it is: the rules, who is Max, the values, how moves are labelled (a paragraph).
    pub about: &'static str,
    /// How it takes a depth limit.
    pub depth: Depth,
    /// What `--depth` means for it, where it takes one: lower case, without a final stop.
    pub depth_help: &'static str,
    /// Its parameters other than the depth, in the order of the help.
    pub params: &'static [GameParam],
}

/// A parameter of a built-in game other than its depth.
#[derive(Copy, Clone, Debug)]
pub struct GameParam {
    /// Its name: the flag without its dashes (`heaps` for `--heaps`) and the form's field.
    pub name: &'static str,
    /// What a value looks like in a usage line (`N,N,…`).
    pub value_name: &'static str,
    /// What it is, lower case, without a final stop or the default (the readers add those).
    pub help: &'static str,
}

/// How a built-in game takes a depth limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Depth {
    /// Optional everywhere: without it the whole game, small enough to write out and to solve
    /// (tic-tac-toe).
    Optional,
    /// Not a parameter of its tree, which always goes to the end; a search may stop short
    /// only where the game has a heuristic, and without `--depth` solves it (nim, pig).
    ToTheEnd,
    /// Needed: `gen game` has this default, and a search must name one (connect-four and
    /// chess, whose games are far beyond the end of any search).
    Needed(u32),
}

/// The built-in games, in the order of the help.
pub const GAMES: [BuiltIn; 5] = [
    BuiltIn {
        name: "tic-tac-toe",
        family: "game tic-tac-toe",
        about: "The whole game from the empty board: X is Max; leaves +1 / 0 / −1; moves \"X b2\" (columns a–c left to right, rows 1–3 top to bottom). 549,946 nodes",
        depth: Depth::Optional,
        depth_help: "build the tree to this many moves; positions there that are not over become leaves worth the heuristic, (open lines for X − open lines for O)/10. The full game when absent",
        params: &[],
    },
    BuiltIn {
        name: "nim",
        family: "game nim",
        about: "Normal-play nim: take k ≥ 1 objects from one heap; taking the last object wins (+1 when Max, the first player, does)",
        depth: Depth::ToTheEnd,
        depth_help: "",
        params: &[
            GameParam {
                name: "heaps",
                value_name: "N,N,…",
                help: "the heap sizes, comma-separated",
            },
            GameParam {
                name: "players",
                value_name: "N",
                help: "players in turn; more than 2 makes an n-player game (payoff 1 to the winner, 0 to the others) for max^n",
            },
        ],
    },
    BuiltIn {
        name: "pig",
        family: "game pig",
        about: "Two-player Pig with chance nodes, OpenSpiel's pig(winscore, diceoutcomes, horizon)",
        depth: Depth::ToTheEnd,
        depth_help: "",
        params: &[
            GameParam {
                name: "win",
                value_name: "N",
                help: "the banked score that wins",
            },
            GameParam {
                name: "dice",
                value_name: "N",
                help: "outcomes of the die, a 1 losing the turn total",
            },
            GameParam {
                name: "horizon",
                value_name: "N",
                help: "the game ends (value 0) after this many decisions, roll or stop; the die's rolls are moves too, so a search counts up to 2N − 1 moves",
            },
        ],
    },
    BuiltIn {
        name: "connect-four",
        family: "game connect-four",
        about: "Connect four (7 × 6) to a depth limit, from the start or after --moves: the first player is Max; ±1000 a win, 0 a draw; positions at the limit valued by open windows; moves \"drop col 4\"",
        depth: Depth::Needed(4),
        depth_help: "moves from the root position; positions there that are not over become leaves worth the heuristic (open windows)",
        params: &[GameParam {
            name: "moves",
            value_name: "COLUMNS",
            help: "columns (1–7, left to right) played before the root, such as 4435",
        }],
    },
    BuiltIn {
        name: "chess",
        family: "game chess",
        about: "Chess to a depth limit, from the start or a FEN (legal moves by cozy-chess): White is Max; ±100000 a checkmate, 0 a draw; positions at the limit valued by material and piece squares (centipawns); moves in SAN (\"Nf3\")",
        depth: Depth::Needed(2),
        depth_help: "moves from the root position; positions there that are not over become leaves worth the heuristic (material and piece squares)",
        params: &[GameParam {
            name: "fen",
            value_name: "FEN",
            help: "the root position in Forsyth–Edwards Notation",
        }],
    },
];

/// The built-in game `name`.
pub fn built_in(name: &str) -> Option<&'static BuiltIn> {
    GAMES.iter().find(|g| g.name == name)
}

/// Something to do with a game whichever it is: a game's type is known only at run time, and
/// [`GameSpec::with`] calls [`WithGame::with`] with the one it names.
pub trait WithGame {
    /// What is done.
    type Out;
    /// Does it with `game`.
    fn with<G: rules::Game + Sync>(self, game: &G) -> Self::Out;
}

impl GameSpec {
    /// The names `prune gen game NAME` takes, in the order of its help ([`GAMES`]).
    pub const NAMES: [&'static str; GAMES.len()] = {
        let mut names = [""; GAMES.len()];
        let mut i = 0;
        while i < GAMES.len() {
            names[i] = GAMES[i].name;
            i += 1;
        }
        names
    };

    /// The game's name, as `gen game` takes it.
    pub fn name(&self) -> &'static str {
        self.built_in().name
    }

    /// The game's row of [`GAMES`].
    pub fn built_in(&self) -> &'static BuiltIn {
        &GAMES[match self {
            GameSpec::TicTacToe { .. } => 0,
            GameSpec::Nim { .. } => 1,
            GameSpec::Pig { .. } => 2,
            GameSpec::ConnectFour { .. } => 3,
            GameSpec::Chess { .. } => 4,
        }]
    }

    /// The depth limit, where the game has one.
    pub fn depth(&self) -> Option<u32> {
        match *self {
            GameSpec::TicTacToe { depth } => depth,
            GameSpec::ConnectFour { depth, .. } | GameSpec::Chess { depth, .. } => Some(depth),
            GameSpec::Nim { .. } | GameSpec::Pig { .. } => None,
        }
    }

    /// Sets the depth limit: `None` removes an optional one and leaves a needed one as it is;
    /// a game whose tree always goes to the end ([`Depth::ToTheEnd`]) keeps none.
    pub fn set_depth(&mut self, depth: Option<u32>) {
        match self {
            GameSpec::TicTacToe { depth: d } => *d = depth,
            GameSpec::ConnectFour { depth: d, .. } | GameSpec::Chess { depth: d, .. } => {
                *d = depth.unwrap_or(*d)
            }
            GameSpec::Nim { .. } | GameSpec::Pig { .. } => {}
        }
    }

    /// The value of the parameter `param` (one of [`BuiltIn::params`]) as its flag takes it;
    /// `None` for a parameter the game does not have.
    pub fn value(&self, param: &str) -> Option<String> {
        Some(match (self, param) {
            (GameSpec::Nim { heaps, .. }, "heaps") => heaps.text(),
            (GameSpec::Nim { players, .. }, "players") => players.to_string(),
            (GameSpec::Pig { win, .. }, "win") => win.to_string(),
            (GameSpec::Pig { dice, .. }, "dice") => dice.to_string(),
            (GameSpec::Pig { horizon, .. }, "horizon") => horizon.to_string(),
            (GameSpec::ConnectFour { moves, .. }, "moves") => moves.text(),
            (GameSpec::Chess { fen, .. }, "fen") => fen.text().to_owned(),
            _ => return None,
        })
    }

    /// Sets the parameter `param` (one of [`BuiltIn::params`]) from `text` as its flag takes
    /// it, or says why `text` is not one of its values.
    pub fn set(&mut self, param: &str, text: &str) -> Result<(), GenError> {
        fn number<T: std::str::FromStr>(param: &str, text: &str) -> Result<T, GenError> {
            text.trim().parse().map_err(|_| {
                GenError::Invalid(format!(
                    "--{param}: `{}` is not a whole number in range",
                    crate::text::terminal_safe(text.trim())
                ))
            })
        }
        match (self, param) {
            (GameSpec::Nim { heaps, .. }, "heaps") => {
                let sizes = text
                    .split(',')
                    .map(|h| number(param, h))
                    .collect::<Result<Vec<u32>, _>>()?;
                *heaps = Heaps::new(&sizes)?;
            }
            (GameSpec::Nim { players, .. }, "players") => *players = number(param, text)?,
            (GameSpec::Pig { win, .. }, "win") => *win = number(param, text)?,
            (GameSpec::Pig { dice, .. }, "dice") => *dice = number(param, text)?,
            (GameSpec::Pig { horizon, .. }, "horizon") => *horizon = number(param, text)?,
            (GameSpec::ConnectFour { moves, .. }, "moves") => *moves = Moves::parse(text)?,
            (GameSpec::Chess { fen, .. }, "fen") => *fen = Fen::parse(text)?,
            (spec, _) => {
                return Err(GenError::Invalid(format!(
                    "{} has no parameter --{param}",
                    spec.name()
                )));
            }
        }
        Ok(())
    }

    /// Builds the game from its rules and does `f` with it; an error where the rules refuse
    /// the parameters.
    pub fn with<F: WithGame>(&self, f: F) -> Result<F::Out, GenError> {
        Ok(match self {
            GameSpec::TicTacToe { .. } => f.with(&TicTacToe),
            GameSpec::Nim { heaps, players } => f.with(&Nim::new(heaps.as_slice(), *players)?),
            GameSpec::Pig { win, dice, horizon } => f.with(&Pig::new(*win, *dice, *horizon)?),
            GameSpec::ConnectFour { moves, .. } => f.with(&ConnectFour::new(moves)?),
            GameSpec::Chess { fen, .. } => f.with(&Chess::new(fen.text())?),
        })
    }

    /// The game `name` with the command line's defaults.
    pub fn default_for(name: &str) -> Option<GameSpec> {
        Some(match name {
            "tic-tac-toe" => GameSpec::TicTacToe { depth: None },
            "nim" => GameSpec::Nim {
                heaps: Heaps::new(&[1, 2, 3, 4]).expect("four heaps"),
                players: 2,
            },
            "connect-four" => GameSpec::ConnectFour {
                depth: 4,
                moves: Moves::NONE,
            },
            "pig" => GameSpec::Pig {
                win: 6,
                dice: 3,
                horizon: 8,
            },
            "chess" => GameSpec::Chess {
                depth: 2,
                fen: Fen::start(),
            },
            _ => return None,
        })
    }
}

/// The tree of `game`.
pub fn generate(game: &GameSpec) -> Result<Tree, GenError> {
    match *game {
        GameSpec::TicTacToe { depth } => {
            // 1 + 9 + 9·8 + … positions at most to the depth limit: checked before anything is
            // allocated.
            let last = depth.map_or(9, |d| d.min(9)) as u64;
            let bound = (0..=last).map(|k| (10 - k..=9).product::<u64>()).sum();
            check_size("the tic-tac-toe tree", Some(bound), 0)?;
            let mut tree = rules::tree(&TicTacToe, depth)?;
            let meta = tree.meta_mut();
            match depth {
                None => {
                    meta.description = "prune gen game tic-tac-toe: the full game from the empty board, X (Max) first; +1 X wins, 0 draw, −1 O wins; heuristic (open lines for X − open lines for O)/10".into();
                }
                Some(d) => {
                    meta.name = format!("tic-tac-toe depth {d}");
                    meta.description = format!(
                        "prune gen game tic-tac-toe --depth {d}: from the empty board to depth {d}, X (Max) first; +1 X wins, 0 draw, −1 O wins; positions at depth {d} valued by the heuristic (open lines for X − open lines for O)/10"
                    );
                }
            }
            Ok(tree)
        }
        GameSpec::Nim { heaps, players } => {
            let nim = Nim::new(heaps.as_slice(), players)?;
            // The tree of a heap of n objects has 2^n nodes, and with several heaps the tree
            // holds every pair of a node of one heap's tree followed by a node of the other's:
            // at least 2^(total) nodes. Refuse before counting what cannot fit.
            let total: u64 = heaps.as_slice().iter().map(|&h| u64::from(h)).sum();
            if total >= 32 {
                return Err(GenError::TooLarge(format!(
                    "nim with {total} objects has at least 2^{total} nodes; prune trees hold at most {MAX_NODES}"
                )));
            }
            check_size(
                &format!("the nim tree of heaps {:?}", heaps.as_slice()),
                Some(nim.count()),
                0,
            )?;
            Ok(rules::tree(&nim, None)?)
        }
        GameSpec::ConnectFour { depth, moves } => {
            let game = ConnectFour::new(&moves)?;
            // At most as many children as open columns at the root, on every level: a bound
            // checked before anything is allocated, with room for keys, heuristic values and
            // labels (about 48 bytes a node).
            let bound = size_bound(game.open_columns(), depth);
            let what = format!("the connect-four tree of depth {depth}");
            check_size(&what, bound, bound.unwrap_or(0).saturating_mul(48))?;
            let mut tree = rules::tree(&game, Some(depth))?;
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
            let meta = tree.meta_mut();
            meta.name = format!("connect-four depth {depth}{after}");
            meta.description = format!(
                "prune gen game connect-four --depth {depth}: 7×6 board{after}, {mover} to move; ±1000 a win for Max/Min, 0 a draw; positions {} on valued by open windows (3 of a colour +5, 2 of a colour +2, negative for Min)",
                moves_on(depth)
            );
            Ok(tree)
        }
        GameSpec::Pig { win, dice, horizon } => {
            let pig = Pig::new(win, dice, horizon)?;
            check_pig_size(&pig)?;
            Ok(rules::tree(&pig, None)?)
        }
        GameSpec::Chess { depth, fen } => {
            let chess = Chess::new(fen.text())?;
            let what = format!("the chess tree of depth {depth}");
            // Chess trees grow about 30-fold a move: counted (without storing anything) up to
            // what memory could hold, about 160 bytes a node with the positions of a level,
            // and at most CHESS_NODES. An estimate from the first levels refuses the trees far
            // beyond that at once, before minutes of counting.
            let room = crate::memory::headroom().map_or(MAX_NODES as u64, |(room, _)| room / 160);
            let limit = room.min(MAX_NODES as u64).min(CHESS_NODES);
            let guess = rules::estimate(&chess, depth, ESTIMATE_BUDGET);
            if guess.nodes > limit {
                return Err(GenError::TooLarge(format!(
                    "{what} has about {} nodes (estimated from its first {} levels), more than the {limit} prune writes out; search it from its rules instead: prune run ALGO --game chess --depth {depth}",
                    guess.nodes, guess.counted
                )));
            }
            match rules::count(&chess, Some(depth), limit) {
                Some(nodes) => check_size(&what, Some(nodes), nodes.saturating_mul(96))?,
                None => {
                    return Err(GenError::TooLarge(format!(
                        "{what} has more than {limit} nodes: more than prune trees or this machine's memory hold"
                    )));
                }
            };
            let mut tree = rules::tree(&chess, Some(depth))?;
            let meta = tree.meta_mut();
            meta.name = format!("{} depth {depth}", meta.name);
            meta.description = format!(
                "prune gen game chess --depth {depth}: {}; positions {} on valued by the heuristic",
                meta.description,
                moves_on(depth)
            );
            Ok(tree)
        }
    }
}

/// The most nodes of a chess tree prune writes out (`gen game chess`, `check-trace --game
/// chess`): 2^25, beyond depth 5 from the start (5,072,213 nodes; depth 6 has 124,132,537,
/// minutes to count and write and about 20 GB). Deeper searches run from the rules.
pub const CHESS_NODES: u64 = 1 << 25;

/// The nodes counted exactly before an estimate extrapolates ([`rules::estimate`]): the levels
/// of chess's tree to depth 4 from the start (206,604 nodes), in a fraction of a second.
const ESTIMATE_BUDGET: u64 = 1 << 18;

/// "1 move", "4 moves".
fn moves_on(depth: u32) -> String {
    if depth == 1 {
        "1 move".into()
    } else {
        format!("{depth} moves")
    }
}

/// Refuses a pig tree too large to build: the exact count over distinct positions when there
/// are not too many of them; else, with h decisions left a position has at most N(h) = 1 +
/// N(h − 1) (stop) + 1 + K·N(h − 1) (roll, then the die) nodes under it, N(0) = 1: an upper
/// bound (wins end the game sooner). Either is counted before the tree is allocated.
fn check_pig_size(pig: &Pig) -> Result<(), GenError> {
    let what = format!(
        "the pig tree with {} outcomes and horizon {}",
        pig.dice(),
        pig.horizon()
    );
    if let Some(nodes) = pig.count(1 << 18) {
        check_size(&what, Some(nodes), 0)?;
        return Ok(());
    }
    let mut bound = Some(1u64);
    for _ in 0..pig.horizon() {
        bound = bound
            .and_then(|n| n.checked_mul(u64::from(pig.dice()) + 1))
            .and_then(|n| n.checked_add(2))
            .filter(|&n| n <= MAX_NODES as u64);
        if bound.is_none() {
            break;
        }
    }
    check_size(&what, bound, 0)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Kind;

    /// Every row of the registry is a game with defaults whose parameters read and write back
    /// through `value` and `set`, under the names its readers use.
    #[test]
    fn every_built_in_game_reads_and_writes_its_parameters() {
        assert_eq!(GameSpec::NAMES.len(), GAMES.len());
        for (i, g) in GAMES.iter().enumerate() {
            assert_eq!(GameSpec::NAMES[i], g.name);
            assert_eq!(g.family, format!("game {}", g.name));
            let spec = GameSpec::default_for(g.name).expect("defaults");
            assert_eq!(spec.built_in().name, g.name);
            assert_eq!(built_in(g.name).map(|b| b.name), Some(g.name));
            match g.depth {
                Depth::Optional => assert_eq!(spec.depth(), None),
                Depth::Needed(d) => assert_eq!(spec.depth(), Some(d)),
                Depth::ToTheEnd => assert_eq!(spec.depth(), None),
            }
            for p in g.params {
                let value = spec.value(p.name).expect("its own parameter");
                let mut again = spec;
                again.set(p.name, &value).unwrap();
                assert_eq!(again, spec, "{} --{}", g.name, p.name);
                assert!(!p.help.ends_with('.') && p.help.starts_with(char::is_lowercase));
            }
            // Another game's parameter is not this one's.
            let mut other = spec;
            let foreign = GAMES
                .iter()
                .flat_map(|o| o.params)
                .find(|p| !g.params.iter().any(|q| q.name == p.name))
                .unwrap();
            assert_eq!(spec.value(foreign.name), None);
            assert!(other.set(foreign.name, "1").is_err());
        }
        let mut nim = GameSpec::default_for("nim").unwrap();
        nim.set("heaps", "3, 5").unwrap();
        nim.set("players", "3").unwrap();
        assert_eq!(
            nim,
            GameSpec::Nim {
                heaps: Heaps::new(&[3, 5]).unwrap(),
                players: 3
            }
        );
        assert!(nim.set("heaps", "3,x").is_err());
        assert!(nim.set("players", "300").is_err());
        let mut chess = GameSpec::default_for("chess").unwrap();
        assert!(chess.set("fen", "not a position").is_err());
        chess.set_depth(None);
        assert_eq!(chess.depth(), Some(2), "a needed depth stays");
        chess.set_depth(Some(5));
        assert_eq!(chess.depth(), Some(5));
    }

    #[test]
    fn tic_tac_toe_labels_and_first_levels() {
        let t = generate(&GameSpec::TicTacToe { depth: None }).unwrap();
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
        let t = generate(&GameSpec::Nim {
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
            generate(&GameSpec::Nim {
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
            assert_eq!(rules::count(&nim, None, u64::MAX), Some(nim.count()));
            let t = generate(&GameSpec::Nim {
                heaps: Heaps::new(heaps).unwrap(),
                players: 2,
            })
            .unwrap();
            assert_eq!(nim.count(), t.len() as u64, "{heaps:?}");
        }
    }

    #[test]
    fn pig_moves_follow_the_rules() {
        let t = generate(&GameSpec::Pig {
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
            generate(&GameSpec::Pig {
                win: 6,
                dice: 1,
                horizon: 8
            })
            .is_err()
        );
        assert!(
            generate(&GameSpec::Pig {
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
            let t = generate(&GameSpec::ConnectFour {
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
        let long = generate(&GameSpec::Pig {
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
        let pig = Pig::new(1, 2, 10_000).unwrap();
        assert_eq!(pig.count(1 << 18), Some(MAX_NODES as u64 + 1));
    }
}
