//! The slides' method of learning an evaluation (the lecture slides on alpha-beta analysis,
//! max^n and pathology, "Linear Regression" and "Experiments with Chess"): no oracle, only the evaluation itself, backed up.
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
//! are taken from games of seeded material self-play ([`candidate`]: each side plays a best move
//! of a 2-ply material search, ties broken at random), from the opening to the endgame; a
//! position whose 2-ply search meets a finished game is left out, since a material evaluation
//! has no value for a checkmate, and so is a quiet one, where no material changes hands within
//! two plies (every weight vector is a fixed point there).
//!
//! **Tic-tac-toe**: the ten features of [`super::FEATURES`], all weights 1 at the start, over the
//! 4,520 distinct non-terminal positions; finished games are worth ±1 or 0, which fixes the
//! scale, so no normalisation. The exact values are used only to judge the result (R², the
//! share of correct moves), never to fit.

use cozy_chess::{Board, Color, Piece};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{K, Linear, Positions, features, solve};
use prune::game::Game;
use prune::game::chess::{Chess, Position};
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

/// The positions of the chess experiment: one position from each of `count` games of seeded
/// material self-play ([`candidate`]), kept when the game is not over within two plies and the
/// position is not quiet (see [`Drawn::of`]). Each position is listed with its children's
/// grandchildren's material, which is all a 2-ply material search looks at.
pub struct ChessSet {
    /// Each position's material features.
    pub features: Vec<[f64; 5]>,
    /// For each position, White to move, and each move's replies' material.
    pub frontier: Vec<(bool, Vec<Vec<[f64; 5]>>)>,
}

/// The most plies a candidate game lasts: positions are taken from the opening (8 plies) to
/// deep endgames (8 + 99).
const LONGEST_GAME: u64 = 99;

/// Candidate `i` of the stream `stream`: the position after a game of 8 to 107 plies (the
/// number seeded) in which each side plays a move with the best 2-ply material value (the
/// classical values, a mate worth more than any material), picked at random among equals;
/// `None` when the game ended sooner. Such games give positions like real play's — pieces are
/// not given away, exchanges happen — which is what the slides' regression needs: positions
/// drawn from uniformly random games have material balances unlike any game's.
pub fn candidate(stream: u64, i: u64) -> Option<Position> {
    let chess = Chess::default();
    let mut rng = Rng::new(prune::hash::mix64(
        stream ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
    ));
    let plies = 8 + rng.below(LONGEST_GAME + 1);
    let mut board = chess.start();
    let mut moves = Vec::new();
    let mut best = Vec::new();
    for _ in 0..plies {
        if chess.outcome(&board).is_some() {
            return None;
        }
        moves.clear();
        chess.moves(&board, &mut moves);
        best.clear();
        let mut top = i32::MIN;
        for m in &moves {
            // A move no better than the best so far need not be valued exactly: its replies
            // are searched only until one brings it to the best (`top`), as alpha-beta would.
            let v = move_value(&chess, &board, m, top);
            if v > top {
                top = v;
                best.clear();
            }
            if v == top {
                best.push(*m);
            }
        }
        // Now and then a move at random, as a weaker player's slip: without them the two sides
        // trade like for like and few positions unbalance the pieces the fit must tell apart.
        let pick = if rng.below(SLIP) == 0 {
            moves[rng.below(moves.len() as u64) as usize]
        } else {
            best[rng.below(best.len() as u64) as usize]
        };
        board = chess.play(&board, &pick);
    }
    (chess.outcome(&board).is_none()).then_some(board)
}

/// One move in `SLIP` is played at random instead of a best one (see [`candidate`]).
const SLIP: u64 = 4;

/// A mate, worth more than any material (the classical values sum to 78 at most a side).
const MATED: i32 = 10_000;

/// White's material minus Black's in the classical values, in pawns.
fn classical(board: &Board) -> i32 {
    counts(board)
        .iter()
        .zip(CLASSICAL)
        .map(|(&c, v)| i32::from(c) * v as i32)
        .sum()
}

/// The 2-ply material value of playing `m` at `board`, for the side to move: the worst reply's
/// material (a mate of the mover the worst of all, a draw 0), stopped as soon as a reply brings
/// it to `floor` or below (the value is then at most `floor`, which is all the caller needs).
fn move_value(chess: &Chess, board: &Position, m: &cozy_chess::Move, floor: i32) -> i32 {
    let sign = if board.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    let child = chess.play(board, m);
    match child.status() {
        cozy_chess::GameStatus::Won => return MATED,
        cozy_chess::GameStatus::Drawn => return 0,
        cozy_chess::GameStatus::Ongoing => {}
    }
    let mut worst = i32::MAX;
    let mut replies = Vec::new();
    chess.moves(&child, &mut replies);
    for r in &replies {
        let g = chess.play(&child, r);
        let v = match g.status() {
            cozy_chess::GameStatus::Won => -MATED,
            cozy_chess::GameStatus::Drawn => 0,
            cozy_chess::GameStatus::Ongoing => sign * classical(&g),
        };
        worst = worst.min(v);
        if worst <= floor {
            break;
        }
    }
    worst
}

/// The candidate positions of one stream of the chess experiment, in order ([`candidate`]):
/// each is a game of its own, so candidates are drawn independently (and in parallel).
pub struct Candidates {
    stream: u64,
    next: u64,
}

impl Candidates {
    /// The candidates of stream `seed`.
    pub fn new(seed: u64) -> Candidates {
        Candidates {
            stream: seed,
            next: 0,
        }
    }
}

impl Iterator for Candidates {
    type Item = Option<Position>;

    fn next(&mut self) -> Option<Option<Position>> {
        self.next += 1;
        Some(candidate(self.stream, self.next - 1))
    }
}

/// Candidates to draw ahead for `count` positions: enough that the ones left out (a game over
/// before its last ply or within two plies after it, a quiet position) are nearly always made
/// up; if not, [`ChessSet::gather`] draws the rest one by one.
pub fn candidates_for(count: usize) -> usize {
    count + count / 2 + 16
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
    /// plies, or when the position is quiet: every position two plies on has its material, so
    /// the 2-ply value is the material itself whatever the weights — a fixed point of every
    /// weight vector, which would teach the regression nothing.
    pub fn of(chess: &Chess, board: &Position) -> Option<Drawn> {
        let material = counts(board);
        let frontier = two_ply(chess, board)?;
        let quiet = frontier.iter().flatten().all(|g| *g == material);
        (!quiet).then(|| Drawn {
            white: board.side_to_move() == Color::White,
            material,
            frontier,
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
            if let Some(d) = board.and_then(|b| Drawn::of(&chess, &b)) {
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
fn two_ply(chess: &Chess, board: &Position) -> Option<Vec<Vec<[i8; 5]>>> {
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

/// R² of the least-squares fit the slides' inner loop makes from weights `w`: how much of the
/// spread of the 2-ply backed-up values the material features explain.
pub fn chess_fit_r2(set: &ChessSet, w: &[f64; 5]) -> Option<f64> {
    let b: Vec<f64> = set
        .frontier
        .iter()
        .map(|(white, f)| backed_up(*white, f, w))
        .collect();
    let fit = solve(&set.features, &b)?;
    let mean = b.iter().sum::<f64>() / b.len() as f64;
    let predicted = set
        .features
        .iter()
        .map(|f| f.iter().zip(&fit).map(|(a, b)| a * b).sum::<f64>());
    let sse: f64 = predicted.zip(&b).map(|(p, y)| (p - y).powi(2)).sum();
    let sst: f64 = b.iter().map(|y| (y - mean).powi(2)).sum();
    Some(1.0 - sse / sst)
}

/// Chess material: the iterations of the slides' method from all weights 1, each divided by
/// the pawn's weight (see the module documentation); why it stops short when it does: the
/// normal equations are singular (a piece whose count differs between the sides in no position
/// of the set), or the pawn's fitted weight is not positive, which leaves the ratios no scale.
pub fn chess(set: &ChessSet) -> Result<Vec<Iteration<5>>, String> {
    let mut why = String::new();
    let its = outer_loop([1.0; 5], |w| {
        let b: Vec<f64> = set
            .frontier
            .par_iter()
            .map(|(white, f)| backed_up(*white, f, w))
            .collect();
        let Some(next) = solve(&set.features, &b) else {
            why = "no least-squares solution (a piece whose count differs between the sides in no position of the set; more positions with --trials)".into();
            return None;
        };
        let pawn = next[4];
        if pawn <= 0.0 {
            why = format!(
                "the pawn's fitted weight fell to {pawn:.3} (from weights {}): the ratios have no scale",
                w.map(|x| format!("{x:.2}")).join("/")
            );
            return None;
        }
        Some(next.map(|x| x / pawn))
    });
    its.ok_or(why)
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

    /// Self-play values a move by the worst reply's material: a queen left en prise is worth
    /// what remains after it is taken, a capture what it wins; a floor stops the count early.
    #[test]
    fn self_play_values_a_move_by_the_worst_reply() {
        let chess = Chess::default();
        // White: queen d4 (attacked by the pawn on e5), pawn a2, king e1; Black: king e8, pawn e5.
        let board = Position::new("4k3/8/8/4p3/3Q4/8/P7/4K3 w - - 0 1".parse().unwrap());
        let value = |m: &str, floor: i32| {
            let m = cozy_chess::util::parse_san_move(&board, m).unwrap();
            move_value(&chess, &board, &m, floor)
        };
        assert_eq!(classical(&board), 9);
        assert_eq!(value("Qxe5+", i32::MIN), 10, "the pawn won, nothing lost");
        assert_eq!(value("a3", i32::MIN), 0, "the queen taken: a pawn each");
        // Below a floor already reached, the count stops at the first reply at or under it.
        assert!(value("a3", 5) <= 5);
        // Games are the seed's, and end where they end.
        assert_eq!(candidate(11, 3), candidate(11, 3));
        let kept = (0..12).filter_map(|i| candidate(11, i)).count();
        assert!(kept >= 6, "{kept} of 12 games lasted their plies");
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
            .filter_map(|b| Drawn::of(&chess, &b?))
            .collect();
        assert!(drawn.len() >= 5, "{} of 20 kept", drawn.len());
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
            .map(|b| Drawn::of(&chess, &b?))
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
