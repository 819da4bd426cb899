//! The slides' method of learning an evaluation (Schaeffer's slides, last chapter, "Linear
//! Regression" and "Experiments with Chess"): no oracle, only the evaluation itself, backed up.
//!
//! - **Inner loop.** For every position of a fixed set, a 2-ply minimax search applies the
//!   *current* evaluation at its frontier (finished games at their value) and backs up a value
//!   b; the new weights are the least-squares solution of `features(position) · w = b` over the
//!   set ("each state produces another line … the point which more nearly approximates their
//!   mutual intersection").
//! - **Outer loop.** The new weights become the evaluation of the next inner loop, until they
//!   stop changing ("the values eventually converged to a fixed point"): here until no weight
//!   moves by more than [`TOLERANCE`], or [`MAX_ITERATIONS`] loops.
//!
//! **Chess material**, as in the slides: five weights (queen, rook, bishop, knight, pawn), all 1
//! at the start; a feature is White's count of the piece minus Black's. Minimax is unchanged
//! when every value is scaled by the same positive factor, and least squares is linear in its
//! targets, so one inner loop maps weights `c·w` to `c·F(w)`: only the weights' ratios matter,
//! and each loop's weights are divided by the pawn's (the slides' table and the classical
//! values have pawn = 1), which keeps them from shrinking or growing without bound. Positions
//! are drawn from seeded random games ([`chess_positions`]); a position whose 2-ply search meets
//! a finished game is left out, since a material evaluation has no value for a checkmate.
//!
//! **Tic-tac-toe**: the ten features of [`super::FEATURES`], all weights 1 at the start, over the
//! 4,520 distinct non-terminal positions; finished games are worth ±1 or 0, which fixes the
//! scale, so no normalisation. The exact values are used only to judge the result (R², the
//! share of correct moves), never to fit.

use cozy_chess::{Board, Color, Piece};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{K, Linear, Positions, features, solve};
use prune::game::chess::Chess;
use prune::game::{self, Game};
use prune::generate::Rng;

/// The outer loop stops when no weight moves by more than this (after normalisation).
pub const TOLERANCE: f64 = 1e-3;
/// The outer loop's most iterations.
pub const MAX_ITERATIONS: usize = 100;

/// One outer-loop iteration's weights, and how far the largest one moved.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<const N: usize> {
    /// The weights this iteration ends with (chess: divided by the pawn's).
    pub weights: [f64; N],
    /// The largest change of a weight from the iteration before; NaN for the start.
    pub change: f64,
}

/// Iterates `step` from `start` until no weight moves by more than [`TOLERANCE`] or
/// [`MAX_ITERATIONS`] pass; `None` when a step has no least-squares solution.
fn outer_loop<const N: usize>(
    start: [f64; N],
    mut step: impl FnMut(&[f64; N]) -> Option<[f64; N]>,
) -> Option<Vec<Iteration<N>>> {
    let mut out = vec![Iteration {
        weights: start,
        change: f64::NAN,
    }];
    for _ in 0..MAX_ITERATIONS {
        let w = out.last().expect("the start").weights;
        let next = step(&w)?;
        let change = next
            .iter()
            .zip(&w)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        out.push(Iteration {
            weights: next,
            change,
        });
        if change <= TOLERANCE {
            break;
        }
    }
    Some(out)
}

/// Tic-tac-toe: the iterations of the slides' method from all weights 1.
pub fn tic_tac_toe(p: &Positions) -> Option<Vec<Iteration<K>>> {
    let keys: Vec<u64> = p.nodes.iter().map(|&n| p.key(n)).collect();
    let rows: Vec<[f64; K]> = keys.iter().map(|&k| features(k)).collect();
    outer_loop([1.0; K], |w| {
        let eval = Linear(*w);
        let mut memo = std::collections::HashMap::new();
        let backed: Vec<f64> = p
            .nodes
            .iter()
            .map(|&n| p.searched(n, 2, &|k| eval.eval(k), &mut memo))
            .collect();
        solve(&rows, &backed)
    })
}

/// The chess pieces of the material evaluation, in the slides' order.
pub const PIECES: [(Piece, &str); 5] = [
    (Piece::Queen, "queen"),
    (Piece::Rook, "rook"),
    (Piece::Bishop, "bishop"),
    (Piece::Knight, "knight"),
    (Piece::Pawn, "pawn"),
];

/// The values the slides' program learned ("Experiments with Chess - Result"), in [`PIECES`]
/// order.
pub const SLIDES: [f64; 5] = [8.0, 4.0, 4.0, 3.0, 1.0];
/// The classical values the slides print beside them, in [`PIECES`] order.
pub const CLASSICAL: [f64; 5] = [9.0, 5.0, 3.0, 3.0, 1.0];

/// White's count of each piece minus Black's.
pub fn material(board: &Board) -> [f64; 5] {
    counts(board).map(f64::from)
}

/// [`material`] in whole pieces, as a part records it (a side has at most 10 of a piece).
fn counts(board: &Board) -> [i8; 5] {
    PIECES.map(|(piece, _)| {
        let count = |c: Color| board.colored_pieces(c, piece).len() as i8;
        count(Color::White) - count(Color::Black)
    })
}

/// The positions of the chess experiment: one position from each of `count` seeded random
/// games, after 10 to 79 random legal moves from the start, kept when the game is not over and
/// no line of the 2-ply search ends it. Each position is listed with its children's
/// grandchildren's material, which is all a 2-ply material search looks at.
pub struct ChessSet {
    /// Each position's material features.
    pub features: Vec<[f64; 5]>,
    /// For each position, White to move, and each move's replies' material.
    pub frontier: Vec<(bool, Vec<Vec<[f64; 5]>>)>,
}

/// The candidate positions of the chess experiment, in the order they are drawn: the end of
/// each seeded random game. The stream is serial (each game takes the random numbers where the
/// previous one left them) but cheap; deciding whether a candidate is kept ([`Drawn::of`]) is
/// the cost, about ten times a game's, and candidates are independent there.
pub struct Candidates {
    chess: Chess,
    rng: Rng,
}

impl Candidates {
    /// The candidates drawn from `seed`.
    pub fn new(seed: u64) -> Candidates {
        Candidates {
            chess: Chess::default(),
            rng: Rng::new(seed),
        }
    }
}

impl Iterator for Candidates {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        let plies = 10 + self.rng.below(70);
        let rng = &mut self.rng;
        Some(game::play_out(
            &self.chess,
            self.chess.start(),
            plies,
            |n| rng.below(n as u64) as usize,
        ))
    }
}

/// Candidates to draw ahead for `count` positions: enough that the ones left out (a game over
/// within two plies: 168 of the first 2,000 from seed 1, 8.4 %) are nearly always made up, at
/// the cost of about 3 % more candidates than needed; if not, [`ChessSet::gather`] draws the
/// rest one by one.
pub fn candidates_for(count: usize) -> usize {
    count + count / 8 + 16
}

/// A kept candidate: White to move, its material and its 2-ply frontier's, in whole pieces (a
/// part records it so; the values are small integers, exact as floats).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "Written", try_from = "Written")]
pub struct Drawn {
    white: bool,
    material: [i8; 5],
    frontier: Vec<Vec<[i8; 5]>>,
}

/// A [`Drawn`] as a part writes it: the frontier as one string, each grandchild's material five
/// letters (`m` is 0, `n` +1, `l` −1: a side has at most 10 of a piece) and the moves separated
/// by commas. About 900 grandchildren a position: as JSON arrays of numbers, reading the parts
/// back cost the merge as much time as drawing the candidates had cost the shards.
#[derive(Serialize, Deserialize)]
struct Written {
    white: bool,
    material: [i8; 5],
    frontier: String,
}

/// The letter of a piece count difference.
const ZERO: u8 = b'm';

impl From<Drawn> for Written {
    fn from(d: Drawn) -> Written {
        let mut frontier = String::with_capacity(d.frontier.iter().map(|r| 5 * r.len() + 1).sum());
        for (i, replies) in d.frontier.iter().enumerate() {
            if i > 0 {
                frontier.push(',');
            }
            for m in replies.iter().flatten() {
                let letter = ZERO.wrapping_add_signed(*m);
                debug_assert!(letter.is_ascii_lowercase(), "{m} pieces more");
                frontier.push(char::from(letter));
            }
        }
        Written {
            white: d.white,
            material: d.material,
            frontier,
        }
    }
}

impl TryFrom<Written> for Drawn {
    type Error = String;

    fn try_from(w: Written) -> Result<Drawn, String> {
        let bad = || {
            format!(
                "a chess frontier that is not letters in fives: `{}`",
                w.frontier
            )
        };
        let mut frontier = Vec::new();
        if !w.frontier.is_empty() {
            for replies in w.frontier.split(',') {
                let bytes = replies.as_bytes();
                if bytes.len() % 5 != 0 || !bytes.iter().all(u8::is_ascii_lowercase) {
                    return Err(bad());
                }
                let counts = bytes
                    .chunks_exact(5)
                    .map(|c| std::array::from_fn(|i| c[i].wrapping_sub(ZERO) as i8));
                frontier.push(counts.collect());
            }
        }
        Ok(Drawn {
            white: w.white,
            material: w.material,
            frontier,
        })
    }
}

impl Drawn {
    /// `board` as a position of the set; `None` when the game is over there or within two
    /// plies.
    pub fn of(chess: &Chess, board: &Board) -> Option<Drawn> {
        Some(Drawn {
            white: board.side_to_move() == Color::White,
            material: counts(board),
            frontier: two_ply(chess, board)?,
        })
    }
}

impl ChessSet {
    /// The first `count` positions kept among `drawn` (the first candidates from `seed`, in
    /// order, `None` where left out), the stream continued past them if they keep too few.
    pub fn gather(
        drawn: impl IntoIterator<Item = Option<Drawn>>,
        count: usize,
        seed: u64,
    ) -> ChessSet {
        let mut set = ChessSet {
            features: Vec::new(),
            frontier: Vec::new(),
        };
        let mut seen = 0;
        let keep = |set: &mut ChessSet, d: Drawn| {
            let pieces = |m: [i8; 5]| m.map(f64::from);
            set.features.push(pieces(d.material));
            let frontier = d
                .frontier
                .into_iter()
                .map(|replies| replies.into_iter().map(pieces).collect())
                .collect();
            set.frontier.push((d.white, frontier));
        };
        for d in drawn {
            if set.features.len() == count {
                return set;
            }
            seen += 1;
            if let Some(d) = d {
                keep(&mut set, d);
            }
        }
        let chess = Chess::default();
        let mut more = Candidates::new(seed).skip(seen);
        while set.features.len() < count {
            let board = more.next().expect("the candidates never end");
            if let Some(d) = Drawn::of(&chess, &board) {
                keep(&mut set, d);
            }
        }
        set
    }
}

/// Draws the chess positions (see [`ChessSet`]) from `seed`, one candidate after another.
pub fn chess_positions(count: usize, seed: u64) -> ChessSet {
    ChessSet::gather(std::iter::empty(), count, seed)
}

/// The material of every position two plies below `board`, by move and reply; `None` when the
/// game is over there or within those two plies.
fn two_ply(chess: &Chess, board: &Board) -> Option<Vec<Vec<[i8; 5]>>> {
    if chess.outcome(board).is_some() {
        return None;
    }
    let mut moves = Vec::new();
    chess.moves(board, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for m in &moves {
        let child = chess.play(board, m);
        if chess.outcome(&child).is_some() {
            return None;
        }
        let mut replies = Vec::new();
        chess.moves(&child, &mut replies);
        let mut grand = Vec::with_capacity(replies.len());
        for r in &replies {
            let g = chess.play(&child, r);
            if chess.outcome(&g).is_some() {
                return None;
            }
            grand.push(counts(&g));
        }
        out.push(grand);
    }
    Some(out)
}

/// The 2-ply minimax value of a chess position with material weights `w` at the frontier.
fn backed_up(white: bool, frontier: &[Vec<[f64; 5]>], w: &[f64; 5]) -> f64 {
    let value = |f: &[f64; 5]| f.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
    // The side to move picks the move, the other side the reply.
    let reply = |grand: &Vec<[f64; 5]>| {
        let vs = grand.iter().map(value);
        if white {
            vs.fold(f64::INFINITY, f64::min)
        } else {
            vs.fold(f64::NEG_INFINITY, f64::max)
        }
    };
    let vs = frontier.iter().map(reply);
    if white {
        vs.fold(f64::NEG_INFINITY, f64::max)
    } else {
        vs.fold(f64::INFINITY, f64::min)
    }
}

/// Chess material: the iterations of the slides' method from all weights 1, each divided by
/// the pawn's weight (see the module documentation).
pub fn chess(set: &ChessSet) -> Option<Vec<Iteration<5>>> {
    outer_loop([1.0; 5], |w| {
        let b: Vec<f64> = set
            .frontier
            .par_iter()
            .map(|(white, f)| backed_up(*white, f, w))
            .collect();
        let next = solve(&set.features, &b)?;
        let pawn = next[4];
        (pawn > 0.0).then(|| next.map(|x| x / pawn))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outer loop stops at a fixed point: a step that halves the distance to (2, 3) reaches
    /// it within the tolerance and stops there.
    #[test]
    fn the_outer_loop_stops_at_a_fixed_point() {
        let its = outer_loop([0.0, 0.0], |w| {
            Some([(w[0] + 2.0) / 2.0, (w[1] + 3.0) / 2.0])
        })
        .unwrap();
        let last = its.last().unwrap();
        assert!(last.change <= TOLERANCE);
        assert!((last.weights[0] - 2.0).abs() < 2.0 * TOLERANCE, "{last:?}");
        assert!(its.len() < MAX_ITERATIONS);
    }

    /// A 2-ply search backs up the side to move's best move against the best reply.
    #[test]
    fn two_ply_material_backs_up_the_best_exchange() {
        // White to move: move A allows replies worth 1 or −3 (Black picks −3); move B's replies
        // are worth 0 or 2 (Black picks 0): White chooses B, 0.
        let pawn = |n: f64| [0.0, 0.0, 0.0, 0.0, n];
        let frontier = vec![vec![pawn(1.0), pawn(-3.0)], vec![pawn(0.0), pawn(2.0)]];
        assert_eq!(backed_up(true, &frontier, &[1.0; 5]), 0.0);
        assert_eq!(backed_up(true, &frontier, &[2.0; 5]), 0.0);
        assert_eq!(backed_up(false, &frontier, &[1.0; 5]), 1.0);
    }

    /// One inner loop of tic-tac-toe, recomputed here without the memo: each iteration's
    /// weights are the least-squares fit to the 2-ply values the previous weights back up; the
    /// loop ends at a fixed point.
    #[test]
    fn each_tic_tac_toe_iteration_fits_the_previous_ones_backed_up_values() {
        use prune::tree::{Kind, NodeId};
        let p = Positions::tic_tac_toe().unwrap();
        let its = tic_tac_toe(&p).unwrap();
        assert!(its.last().unwrap().change <= TOLERANCE, "{:?}", its.last());
        fn two_ply(p: &Positions, n: NodeId, left: u32, w: &Linear) -> f64 {
            let t = &p.tree;
            if t.is_leaf(n) {
                return t.value(n);
            }
            if left == 0 {
                return w.eval(t.key(n).unwrap());
            }
            let vs = t.children(n).map(|c| two_ply(p, c, left - 1, w));
            if t.kind(n) == Kind::Max {
                vs.fold(f64::NEG_INFINITY, f64::max)
            } else {
                vs.fold(f64::INFINITY, f64::min)
            }
        }
        let rows: Vec<[f64; K]> = p
            .nodes
            .iter()
            .map(|&n| features(p.tree.key(n).unwrap()))
            .collect();
        for k in [1, its.len() - 1] {
            let before = Linear(its[k - 1].weights);
            let b: Vec<f64> = p
                .nodes
                .iter()
                .map(|&n| two_ply(&p, n, 2, &before))
                .collect();
            let fit = solve(&rows, &b).unwrap();
            for (x, y) in fit.iter().zip(&its[k].weights) {
                assert!(
                    (x - y).abs() < 1e-9,
                    "iteration {k}: {fit:?} against {:?}",
                    its[k]
                );
            }
        }
    }

    /// The chess positions are the seed's: the same seed, the same set.
    #[test]
    fn chess_positions_are_seeded() {
        let (a, b) = (chess_positions(20, 3), chess_positions(20, 3));
        assert_eq!(a.features, b.features);
        assert_ne!(a.features, chess_positions(20, 4).features);
    }

    /// A candidate comes back from a part as it was drawn, and a frontier that is not five
    /// letters a grandchild is refused.
    #[test]
    fn a_drawn_candidate_reads_back_as_written() {
        let chess = Chess::default();
        let drawn: Vec<Drawn> = Candidates::new(3)
            .take(20)
            .filter_map(|b| Drawn::of(&chess, &b))
            .collect();
        let json = serde_json::to_string(&drawn).unwrap();
        assert_eq!(serde_json::from_str::<Vec<Drawn>>(&json).unwrap(), drawn);
        let lopsided = Drawn {
            white: false,
            material: [0, 0, 0, 0, 8],
            frontier: vec![vec![[-10, 10, 0, -1, 1]], vec![]],
        };
        let json = serde_json::to_string(&lopsided).unwrap();
        assert!(json.contains("\"cwmln,\""), "{json}");
        assert_eq!(serde_json::from_str::<Drawn>(&json).unwrap(), lopsided);
        let bad = json.replace("cwmln", "cwml");
        assert!(serde_json::from_str::<Drawn>(&bad).is_err());
    }

    /// The set gathered from candidates drawn ahead (as shards draw them), too few of them or
    /// none, is the set drawn one by one.
    #[test]
    fn a_set_gathered_from_candidates_drawn_ahead_is_the_same() {
        let chess = Chess::default();
        let one_by_one = chess_positions(40, 5);
        let drawn: Vec<Option<Drawn>> = Candidates::new(5)
            .take(candidates_for(40))
            .map(|b| Drawn::of(&chess, &b))
            .collect();
        for ahead in [0, 10, drawn.len()] {
            let set = ChessSet::gather(drawn[..ahead].to_vec(), 40, 5);
            assert_eq!(set.features, one_by_one.features, "{ahead} drawn ahead");
            assert_eq!(set.frontier, one_by_one.frontier, "{ahead} drawn ahead");
        }
        let left_out = drawn.iter().filter(|d| d.is_none()).count();
        assert!(left_out < candidates_for(40) - 40, "{left_out} left out");
    }

    /// If the backed-up values were the material itself, the fit returns the weights: a fixed
    /// point in one step.
    #[test]
    fn the_chess_inner_loop_is_least_squares_on_backed_up_values() {
        let set = chess_positions(60, 7);
        assert_eq!(set.features.len(), 60);
        // Frontiers that keep the material unchanged make b = w · f exactly.
        let still = ChessSet {
            frontier: set
                .features
                .iter()
                .map(|f| (true, vec![vec![*f]]))
                .collect(),
            features: set.features.clone(),
        };
        let its = chess(&still).unwrap();
        assert_eq!(its.len(), 2, "{its:?}");
        for w in its[1].weights {
            assert!((w - 1.0).abs() < 1e-6, "{its:?}");
        }
    }
}
