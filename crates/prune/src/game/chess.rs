//! Chess, by the `cozy-chess` move generator (legal moves, FEN, Zobrist keys).
//!
//! White is Max and Black is Min, whoever is to move at the start. Moves are labelled in
//! standard algebraic notation ("Nf3", "exd5", "O-O", "e8=Q+"), listed in `cozy-chess`'s order
//! of generation. A finished game — checkmate, stalemate, or the fifty-move rule as `cozy-chess`
//! counts it (a halfmove clock of 100) — is worth ±[`MATE`] for the side that mates, 0 for a draw;
//! repetitions are not detected (a position does not remember the game that led to it), and a
//! mate is worth the same whatever its distance.
//!
//! The heuristic, in centipawns from White's point of view, is Tomasz Michniewski's
//! *Simplified Evaluation Function* (chessprogramming.org/Simplified_Evaluation_Function): the
//! material (pawn 100, knight 320, bishop 330, rook 500, queen 900; the kings cancel) plus one
//! piece-square table per piece, the king's middle-game table throughout. A [`Position`] carries
//! its evaluation, brought up to date by each move from the squares it changes (as engines keep
//! it), so a leaf's heuristic is read, not summed. The key is
//! `cozy-chess`'s Zobrist hash of the position (pieces, side to move, castling rights and the
//! en-passant file).

use std::ops::Deref;

use cozy_chess::{
    BitBoard, Board, Color, File, GameStatus, Move, Piece, Rank, Square, get_knight_moves,
};

use super::{Game, GameError, Outcome, Turn};
use crate::tree::{Bounds, Meta};

/// What a checkmate is worth, in centipawns: more than any material and position.
pub const MATE: f64 = 100_000.0;

/// The standard starting position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Chess from a position.
#[derive(Clone, Debug)]
pub struct Chess {
    start: Position,
    fen: String,
}

/// A chess position: `cozy-chess`'s board (which it derefs to) and its [`evaluate`]d worth,
/// which [`Chess::play`] updates from the squares a move changes instead of summing every piece
/// again. Summing was a third of chess minimax's instructions to depth 5 (300 a leaf); the
/// update is a few table reads a move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    /// White's worth minus Black's, in centipawns: `evaluate(&board)`.
    worth: i32,
}

impl Position {
    /// `board`, its worth summed.
    pub fn new(board: Board) -> Position {
        let worth = worth(&board, Color::White) - worth(&board, Color::Black);
        Position { board, worth }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board, the worth dropped.
    pub fn into_board(self) -> Board {
        self.board
    }

    /// The position after `mv`, a legal move: the board played, the worth brought up to date by
    /// the squares `mv` empties and fills (castling's king and rook, a capture's victim, en
    /// passant's pawn beside the target square, a promotion's new piece).
    pub fn play(&self, mv: Move) -> Position {
        let board = &self.board;
        let us = board.side_to_move();
        let them = !us;
        let mine = &WORTH[us as usize];
        let theirs = &WORTH[them as usize];
        let moved = board.piece_on(mv.from).expect("a legal move moves a piece");
        let (from, to) = (mv.from as usize, mv.to as usize);
        let gain = if board.colors(us).has(mv.to) {
            // Castling, which cozy-chess writes as the king taking its own rook.
            let rank = mv.from.rank();
            let (king, rook) = if mv.from.file() < mv.to.file() {
                (File::G, File::F)
            } else {
                (File::C, File::D)
            };
            let (king, rook) = (
                Square::new(king, rank) as usize,
                Square::new(rook, rank) as usize,
            );
            mine[KING][king] - mine[KING][from] + mine[ROOK][rook] - mine[ROOK][to]
        } else {
            let now = mv.promotion.unwrap_or(moved) as usize;
            let mut gain = mine[now][to] - mine[moved as usize][from];
            let victim = if board.colors(them).has(mv.to) {
                board.piece_on(mv.to)
            } else {
                None
            };
            if let Some(victim) = victim {
                gain += theirs[victim as usize][to];
            } else if moved == Piece::Pawn && mv.from.file() != mv.to.file() {
                // En passant: the pawn taken stands beside the target, on the mover's fifth rank.
                let beside = Square::new(mv.to.file(), Rank::Fifth.relative_to(us));
                gain += theirs[PAWN][beside as usize];
            }
            gain
        };
        let mut next = board.clone();
        next.play_unchecked(mv);
        let worth = match us {
            Color::White => self.worth + gain,
            Color::Black => self.worth - gain,
        };
        debug_assert_eq!(
            worth,
            Position::new(next.clone()).worth,
            "{mv} at {board}: the worth kept up to date is the worth summed"
        );
        Position { board: next, worth }
    }
}

/// Whether the side to move at `board` surely has a legal move and the game goes on: not in
/// check, the fifty-move count short of its end, and a knight or pawn that no pin holds with a
/// square to go to (a knight's to any square not its side's; a pawn's one step ahead, empty).
/// Without a check, such a move is legal. Most positions answer here, without the move
/// generation `cozy-chess`'s status makes (a fifth of chess minimax's instructions to depth 5);
/// `false` says nothing, and [`Chess::outcome`] asks the generator.
fn surely_goes_on(board: &Board) -> bool {
    if !board.checkers().is_empty() || board.halfmove_clock() >= 100 {
        return false;
    }
    let us = board.side_to_move();
    let free = !board.pinned();
    let own = board.colors(us);
    let knights = board.colored_pieces(us, Piece::Knight) & free;
    if knights
        .into_iter()
        .any(|square| !(get_knight_moves(square) & !own).is_empty())
    {
        return true;
    }
    let pawns = (board.colored_pieces(us, Piece::Pawn) & free).0;
    let ahead = BitBoard(match us {
        Color::White => pawns << 8,
        Color::Black => pawns >> 8,
    });
    !(ahead & !board.occupied()).is_empty()
}

/// The position's FEN.
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.board.fmt(f)
    }
}

impl Deref for Position {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl Chess {
    /// Chess from the position `fen` (Forsyth–Edwards Notation), or why it cannot be read.
    pub fn new(fen: &str) -> Result<Chess, GameError> {
        let start = Board::from_fen(fen.trim(), false).map_err(|e| {
            GameError::Invalid(format!(
                "the FEN \"{}\" is not a chess position: {e:?}",
                fen.trim()
            ))
        })?;
        Ok(Chess {
            start: Position::new(start),
            fen: fen.trim().to_string(),
        })
    }

    /// The starting position's FEN.
    pub fn fen(&self) -> &str {
        &self.fen
    }
}

impl Default for Chess {
    fn default() -> Chess {
        Chess::new(START).expect("the start position reads")
    }
}

/// Material in centipawns, pawn to queen (the king's is left out: the two cancel).
const MATERIAL: [i32; 5] = [100, 320, 330, 500, 900];

/// The piece-square tables of the Simplified Evaluation Function, pawn to king, as printed: from
/// White's side, rank 8 first, files a to h.
#[rustfmt::skip]
const TABLES: [[i8; 64]; 6] = [
    [ 0,  0,  0,  0,  0,  0,  0,  0,
     50, 50, 50, 50, 50, 50, 50, 50,
     10, 10, 20, 30, 30, 20, 10, 10,
      5,  5, 10, 25, 25, 10,  5,  5,
      0,  0,  0, 20, 20,  0,  0,  0,
      5, -5,-10,  0,  0,-10, -5,  5,
      5, 10, 10,-20,-20, 10, 10,  5,
      0,  0,  0,  0,  0,  0,  0,  0],
    [-50,-40,-30,-30,-30,-30,-40,-50,
     -40,-20,  0,  0,  0,  0,-20,-40,
     -30,  0, 10, 15, 15, 10,  0,-30,
     -30,  5, 15, 20, 20, 15,  5,-30,
     -30,  0, 15, 20, 20, 15,  0,-30,
     -30,  5, 10, 15, 15, 10,  5,-30,
     -40,-20,  0,  5,  5,  0,-20,-40,
     -50,-40,-30,-30,-30,-30,-40,-50],
    [-20,-10,-10,-10,-10,-10,-10,-20,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  5, 10, 10,  5,  0,-10,
     -10,  5,  5, 10, 10,  5,  5,-10,
     -10,  0, 10, 10, 10, 10,  0,-10,
     -10, 10, 10, 10, 10, 10, 10,-10,
     -10,  5,  0,  0,  0,  0,  5,-10,
     -20,-10,-10,-10,-10,-10,-10,-20],
    [  0,  0,  0,  0,  0,  0,  0,  0,
       5, 10, 10, 10, 10, 10, 10,  5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
      -5,  0,  0,  0,  0,  0,  0, -5,
       0,  0,  0,  5,  5,  0,  0,  0],
    [-20,-10,-10, -5, -5,-10,-10,-20,
     -10,  0,  0,  0,  0,  0,  0,-10,
     -10,  0,  5,  5,  5,  5,  0,-10,
      -5,  0,  5,  5,  5,  5,  0, -5,
       0,  0,  5,  5,  5,  5,  0, -5,
     -10,  5,  5,  5,  5,  5,  0,-10,
     -10,  0,  5,  0,  0,  0,  0,-10,
     -20,-10,-10, -5, -5,-10,-10,-20],
    [-30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -30,-40,-40,-50,-50,-40,-40,-30,
     -20,-30,-30,-40,-40,-30,-30,-20,
     -10,-20,-20,-20,-20,-20,-20,-10,
      20, 20,  0,  0,  0,  0, 20, 20,
      20, 30, 10,  0,  0, 10, 30, 20],
];

/// Indices of [`WORTH`]'s pieces.
const PAWN: usize = 0;
const ROOK: usize = 3;
const KING: usize = 5;

/// The pieces in the order of [`MATERIAL`] and [`TABLES`] (cozy-chess's own order).
const PIECES: [Piece; 6] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
    Piece::King,
];

/// What `color`'s pieces are worth on `board`: material plus their squares' table entries,
/// summed from [`WORTH`].
fn worth(board: &Board, color: Color) -> i32 {
    let table = &WORTH[color as usize];
    let mut sum = 0;
    for (k, &piece) in PIECES.iter().enumerate() {
        for square in board.colored_pieces(color, piece) {
            sum += table[k][square as usize];
        }
    }
    sum
}

/// A piece's worth on a square, by colour ([`Color`]'s order), piece ([`PIECES`]'s) and square
/// (a1, b1, …, h8): its material plus its table entry read from its own side. Laid out once, at
/// compile time, so that an evaluation is one load a piece (it was a third of chess minimax's
/// time to depth 5 when each entry was worked out at each leaf).
const WORTH: [[[i32; 64]; 6]; 2] = {
    let mut t = [[[0; 64]; 6]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 6 {
            let mut square = 0;
            while square < 64 {
                let material = if k < MATERIAL.len() { MATERIAL[k] } else { 0 };
                let (file, rank) = (square % 8, square / 8);
                t[c][k][square] = material + TABLES[k][table_index(file, rank, c == 0)] as i32;
                square += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// The entry of the square on `file` and `rank` (from 0) in a table printed from White's side
/// with rank 8 first; Black's squares are read mirrored, rank 1 as rank 8.
const fn table_index(file: usize, rank: usize, white: bool) -> usize {
    let row = if white { 7 - rank } else { rank };
    8 * row + file
}

/// The static evaluation of `board` in centipawns, White's worth minus Black's.
pub fn evaluate(board: &Board) -> f64 {
    f64::from(worth(board, Color::White) - worth(board, Color::Black))
}

impl Game for Chess {
    type Position = Position;
    type Move = Move;

    fn name(&self) -> String {
        if self.fen == START {
            "chess".into()
        } else {
            format!("chess from {}", self.fen)
        }
    }

    fn meta(&self) -> Meta {
        Meta {
            name: self.name(),
            description: format!(
                "chess from {}; White is Max; ±{MATE} a checkmate, 0 a draw; heuristic: Michniewski's Simplified Evaluation Function (centipawns, White's view)",
                self.fen
            ),
            players: 2,
            bounds: Some(Bounds {
                lo: -MATE,
                hi: MATE,
            }),
            ..Meta::default()
        }
    }

    fn start(&self) -> Position {
        self.start.clone()
    }

    fn outcome(&self, board: &Position) -> Option<Outcome> {
        if surely_goes_on(board) {
            return None;
        }
        match board.status() {
            GameStatus::Ongoing => None,
            GameStatus::Drawn => Some(Outcome::Value(0.0)),
            // The side to move is mated.
            GameStatus::Won => Some(Outcome::Value(match board.side_to_move() {
                Color::White => -MATE,
                Color::Black => MATE,
            })),
        }
    }

    fn turn(&self, board: &Position) -> Turn {
        match board.side_to_move() {
            Color::White => Turn::Max,
            Color::Black => Turn::Min,
        }
    }

    fn moves(&self, board: &Position, moves: &mut Vec<Move>) {
        board.generate_moves(|piece_moves| {
            moves.extend(piece_moves);
            false
        });
    }

    fn play(&self, position: &Position, mv: &Move) -> Position {
        position.play(*mv)
    }

    fn label(&self, board: &Position, mv: &Move) -> String {
        cozy_chess::util::display_san_move(board, *mv).to_string()
    }

    fn heuristic(&self, position: &Position) -> Option<f64> {
        Some(f64::from(position.worth))
    }

    /// Values ±100000, 0 and whole centipawns.
    fn integral(&self) -> bool {
        true
    }

    fn key(&self, board: &Position) -> Option<u64> {
        Some(board.hash())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Square;

    /// The number of positions `depth` moves on: perft, the move generator's own check; `visit`
    /// sees every position on the way, the start and the leaves included.
    fn perft(game: &Chess, p: &Position, depth: u32, visit: &mut impl FnMut(&Position)) -> u64 {
        visit(p);
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        game.moves(p, &mut moves);
        moves
            .iter()
            .map(|m| perft(game, &game.play(p, m), depth - 1, visit))
            .sum()
    }

    /// Every position to depth 3 from positions rich in special moves — both castlings on both
    /// sides, en passant, promotions with and without capture, checks — has the worth its
    /// moves kept up to date equal to the worth summed piece by piece; the counts are the
    /// published perft numbers (chessprogramming.org/Perft_Results), so every move was tried.
    #[test]
    fn the_worth_kept_up_to_date_is_the_worth_summed() {
        // The worth, and the shortcut to "the game goes on", which is never wrong; how often
        // the shortcut answered.
        let check = |sure: &mut u64, p: &Position| {
            assert_eq!(p.worth, Position::new(p.board().clone()).worth, "{p}");
            if surely_goes_on(p) {
                assert_eq!(p.status(), GameStatus::Ongoing, "{p}");
                *sure += 1;
            }
        };
        for (fen, nodes) in [
            (START, 8_902),
            // "Kiwipete": castling both ways for both sides, en passant, promotions later.
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                97_862,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 2_812),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                9_467,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                62_379,
            ),
        ] {
            let game = Chess::new(fen).unwrap();
            let mut sure = 0;
            let leaves = perft(&game, &game.start(), 3, &mut |p| check(&mut sure, p));
            assert_eq!(leaves, nodes, "{fen}");
            assert!(
                sure > nodes / 2,
                "{fen}: the shortcut answered {sure} times"
            );
        }
    }

    #[test]
    fn perft_from_the_start() {
        let chess = Chess::default();
        let counts: Vec<u64> = (1..=3)
            .map(|d| perft(&chess, &chess.start(), d, &mut |_| ()))
            .collect();
        assert_eq!(counts, [20, 400, 8_902]);
    }

    #[test]
    fn the_start_is_level_and_a_mate_is_scored() {
        let chess = Chess::default();
        assert_eq!(chess.heuristic(&chess.start()), Some(0.0));
        // Fool's mate: White is mated.
        let mated =
            Chess::new("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
        assert_eq!(mated.outcome(&mated.start()), Some(Outcome::Value(-MATE)));
        let stalemate = Chess::new("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            stalemate.outcome(&stalemate.start()),
            Some(Outcome::Value(0.0))
        );
        assert!(Chess::new("not a position").is_err());
    }

    /// The laid-out worths are material plus the table entry read from each side, square by
    /// square, as cozy-chess numbers squares (a1 = 0, b1 = 1, …, a2 = 8).
    #[test]
    fn the_laid_out_worths_are_the_tables() {
        for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
            assert_eq!(color as usize, c);
            for (k, &piece) in PIECES.iter().enumerate() {
                // A move's update indexes the worths by cozy-chess's own piece numbers.
                assert_eq!(piece as usize, k);
                for square in Square::ALL {
                    let (file, rank) = (square.file() as usize, square.rank() as usize);
                    let row = if color == Color::White {
                        7 - rank
                    } else {
                        rank
                    };
                    let material = if piece == Piece::King { 0 } else { MATERIAL[k] };
                    let want = material + i32::from(TABLES[k][8 * row + file]);
                    assert_eq!(
                        WORTH[c][k][square as usize], want,
                        "{color:?} {piece:?} {square}"
                    );
                }
            }
        }
    }

    #[test]
    fn tables_read_from_each_sides_own_end() {
        // A white knight on f3 and a black knight on f6 stand on mirrored squares: equal worth.
        let board = Board::from_fen("4k3/8/5n2/8/8/5N2/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(evaluate(&board), 0.0);
        // 1.e4: the pawn leaves e2 (−20) for e4 (+20).
        let chess = Chess::default();
        let e4 = "e2e4".parse().unwrap();
        assert_eq!(evaluate(&chess.play(&chess.start(), &e4)), 40.0);
        assert_eq!(chess.label(&chess.start(), &e4), "e4");
    }
}
