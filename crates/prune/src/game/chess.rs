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
//! piece-square table per piece, the king's middle-game table throughout. The key is
//! `cozy-chess`'s Zobrist hash of the position (pieces, side to move, castling rights and the
//! en-passant file).

use cozy_chess::{Board, Color, GameStatus, Move, Piece};

use super::{Game, GameError, Outcome, Turn};
use crate::tree::{Bounds, Meta};

/// What a checkmate is worth, in centipawns: more than any material and position.
pub const MATE: f64 = 100_000.0;

/// The standard starting position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Chess from a position.
#[derive(Clone, Debug)]
pub struct Chess {
    start: Board,
    fen: String,
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
            start,
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

/// The pieces in the order of [`MATERIAL`] and [`TABLES`].
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
    type Position = Board;
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

    fn start(&self) -> Board {
        self.start.clone()
    }

    fn outcome(&self, board: &Board) -> Option<Outcome> {
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

    fn turn(&self, board: &Board) -> Turn {
        match board.side_to_move() {
            Color::White => Turn::Max,
            Color::Black => Turn::Min,
        }
    }

    fn moves(&self, board: &Board, moves: &mut Vec<Move>) {
        board.generate_moves(|piece_moves| {
            moves.extend(piece_moves);
            false
        });
    }

    fn play(&self, board: &Board, mv: &Move) -> Board {
        let mut next = board.clone();
        next.play_unchecked(*mv);
        next
    }

    fn label(&self, board: &Board, mv: &Move) -> String {
        cozy_chess::util::display_san_move(board, *mv).to_string()
    }

    fn heuristic(&self, board: &Board) -> Option<f64> {
        Some(evaluate(board))
    }

    /// Values ±100000, 0 and whole centipawns.
    fn integral(&self) -> bool {
        true
    }

    fn key(&self, board: &Board) -> Option<u64> {
        Some(board.hash())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cozy_chess::Square;

    /// The number of positions `depth` moves on: perft, the move generator's own check.
    fn perft(game: &Chess, board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        game.moves(board, &mut moves);
        moves
            .iter()
            .map(|m| perft(game, &game.play(board, m), depth - 1))
            .sum()
    }

    #[test]
    fn perft_from_the_start() {
        let chess = Chess::default();
        let counts: Vec<u64> = (1..=3).map(|d| perft(&chess, &chess.start(), d)).collect();
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
