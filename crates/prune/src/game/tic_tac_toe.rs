//! Tic-tac-toe: X (Max) and O (Min) on a 3 × 3 board, from the empty board.
//!
//! A finished game is +1 when X has three in a row, −1 when O has, 0 for a full board without
//! one. Cells are named by column `a`–`c` (left to right) and row `1`–`3` (top to bottom): `a1`
//! is the top-left corner, `b2` the centre. Moves come in OpenSpiel's action order (cells row by
//! row from the top left: a1, b1, c1, a2, …), labelled "X b2" / "O a1". The heuristic is (lines
//! still open for X − lines still open for O) / 10, within ±0.8 so that a win outweighs it; the
//! key packs X's cells in bits 0–8 and O's in bits 9–17.

use super::{Game, Outcome, Turn};
use crate::tree::{Bounds, Meta};

/// Tic-tac-toe's rules. A position is (X's cells, O's cells) as bit sets, bit k = cell k row by
/// row from the top left; a move is a cell.
#[derive(Copy, Clone, Debug, Default)]
pub struct TicTacToe;

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

/// Whether `cells` hold a line.
fn three(cells: u16) -> bool {
    TIC_TAC_TOE_LINES.iter().any(|&l| l & !cells == 0)
}

/// X's and O's cells of a tic-tac-toe position key (X's in bits 0–8, O's in bits 9–17).
pub fn tic_tac_toe_board(key: u64) -> (u16, u16) {
    ((key & 0x1ff) as u16, ((key >> 9) & 0x1ff) as u16)
}

/// The tic-tac-toe evaluation: (lines still open for X − lines still open for O) / 10, within
/// ±0.8 so that a win (±1) outweighs it. A line is open for X when O has no mark on it.
pub fn tic_tac_toe_heuristic(x: u16, o: u16) -> f64 {
    let open = |theirs: u16| {
        TIC_TAC_TOE_LINES
            .iter()
            .filter(|&&l| l & theirs == 0)
            .count() as f64
    };
    (open(o) - open(x)) / 10.0
}

/// Whether X is to move: X has as many marks as O.
fn x_to_move(x: u16, o: u16) -> bool {
    x.count_ones() == o.count_ones()
}

impl Game for TicTacToe {
    type Position = (u16, u16);
    type Move = u32;

    fn name(&self) -> String {
        "tic-tac-toe".into()
    }

    fn meta(&self) -> Meta {
        Meta {
            name: self.name(),
            description: "tic-tac-toe from the empty board, X (Max) first; +1 X wins, 0 draw, −1 O wins; heuristic (open lines for X − open lines for O)/10".into(),
            players: 2,
            bounds: Some(Bounds { lo: -1.0, hi: 1.0 }),
            ..Meta::default()
        }
    }

    fn start(&self) -> (u16, u16) {
        (0, 0)
    }

    fn outcome(&self, &(x, o): &(u16, u16)) -> Option<Outcome> {
        if three(x) {
            Some(Outcome::Value(1.0))
        } else if three(o) {
            Some(Outcome::Value(-1.0))
        } else if x | o == 0x1ff {
            Some(Outcome::Value(0.0))
        } else {
            None
        }
    }

    fn turn(&self, &(x, o): &(u16, u16)) -> Turn {
        if x_to_move(x, o) {
            Turn::Max
        } else {
            Turn::Min
        }
    }

    fn moves(&self, &(x, o): &(u16, u16), moves: &mut Vec<u32>) {
        moves.extend((0..9).filter(|&cell| (x | o) & (1 << cell) == 0));
    }

    fn play(&self, &(x, o): &(u16, u16), &cell: &u32) -> (u16, u16) {
        if x_to_move(x, o) {
            (x | 1 << cell, o)
        } else {
            (x, o | 1 << cell)
        }
    }

    fn label(&self, &(x, o): &(u16, u16), &cell: &u32) -> String {
        let mark = if x_to_move(x, o) { 'X' } else { 'O' };
        let column = (b'a' + (cell % 3) as u8) as char;
        format!("{mark} {column}{}", cell / 3 + 1)
    }

    fn heuristic(&self, &(x, o): &(u16, u16)) -> Option<f64> {
        Some(tic_tac_toe_heuristic(x, o))
    }

    /// Finished games are worth −1, 0 or +1 (the heuristic's values are tenths).
    fn integral_outcomes(&self) -> bool {
        true
    }

    /// Nine cells, a move each.
    fn longest(&self) -> Option<u32> {
        Some(9)
    }

    /// The nine cells of the empty board.
    fn most_moves(&self) -> Option<u32> {
        Some(9)
    }

    /// X's cells in bits 0–8, O's in bits 9–17 (read back by [`tic_tac_toe_board`]).
    fn key(&self, &(x, o): &(u16, u16)) -> Option<u64> {
        Some(u64::from(x) | u64::from(o) << 9)
    }
}
