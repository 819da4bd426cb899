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

impl GameSpec {
    /// The names `prune gen game NAME` takes, in the order of its help.
    pub const NAMES: [&'static str; 5] = ["tic-tac-toe", "nim", "pig", "connect-four", "chess"];

    /// The game's name, as `gen game` takes it.
    pub fn name(&self) -> &'static str {
        match self {
            GameSpec::TicTacToe { .. } => "tic-tac-toe",
            GameSpec::Nim { .. } => "nim",
            GameSpec::Pig { .. } => "pig",
            GameSpec::ConnectFour { .. } => "connect-four",
            GameSpec::Chess { .. } => "chess",
        }
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
