//! Connect four on the standard 7 × 6 board, to a depth limit.
//!
//! The first player (Max) and the second (Min) drop stones into columns 1–7 (left to right); a
//! stone falls to the lowest free cell. Four in a row — across, up, or along either diagonal —
//! wins: +1000 for Max, −1000 for Min; a full board without one is 0. Labels are "drop col 4";
//! children come in column order.
//!
//! Positions are two bitboards in the usual 7 × 7 layout: bit `7·c + r` is column `c` (0-based,
//! from the left), row `r` (0 at the bottom); row 6 of each column stays empty, so that shifts
//! never carry a line from one column into the next. The position key is Pons's: Max's stones
//! plus the occupied cells, `x + (x | o)`. In each column the occupied cells are the lowest h
//! bits, and adding them to Max's stones there gives a number in [2^h − 1, 2^(h+1) − 2], which
//! tells both h and Max's stones; the sum never exceeds the column's 7 bits, so the key (49
//! bits) names the position exactly.
//!
//! The heuristic value counts open windows: over the 69 windows of four cells in a line, a window
//! holding three of Max's stones and an empty cell is worth +5, two of Max's and two empty +2, and
//! the same for Min negatively; windows holding both colours count 0. Its magnitude is at most
//! 69 · 5 = 345, below a win's 1000.

use super::{Game, GameError, Outcome, Turn};
use crate::tree::{Bounds, Meta};

/// The board's width and height.
pub const COLUMNS: u32 = 7;
/// The board's height.
pub const ROWS: u32 = 6;

/// What a won game is worth (for Max; its negation for Min).
pub const WIN: f64 = 1000.0;

/// The moves before the tree's root: columns, 0-based. A fixed-size list so that `Game` stays
/// `Copy`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Moves {
    columns: [u8; (COLUMNS * ROWS) as usize],
    len: u8,
}

impl Moves {
    /// No moves: the empty board.
    pub const NONE: Moves = Moves {
        columns: [0; (COLUMNS * ROWS) as usize],
        len: 0,
    };

    /// `--moves 4435`: one digit 1–7 per move. Whether the moves can be played is checked when
    /// the tree is built.
    pub fn parse(text: &str) -> Result<Moves, GameError> {
        let mut m = Moves::NONE;
        for (i, c) in text.trim().chars().enumerate() {
            let column = c
                .to_digit(10)
                .filter(|d| (1..=COLUMNS).contains(d))
                .ok_or_else(|| {
                    GameError::Invalid(format!(
                        "move {} of \"{text}\" is `{c}`: moves are columns 1 to {COLUMNS}",
                        i + 1
                    ))
                })?;
            if usize::from(m.len) == m.columns.len() {
                return Err(GameError::Invalid(format!(
                    "\"{text}\" has more than {} moves: the board has {} cells",
                    m.columns.len(),
                    m.columns.len()
                )));
            }
            m.columns[usize::from(m.len)] = (column - 1) as u8;
            m.len += 1;
        }
        Ok(m)
    }

    /// The columns played, in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.columns[..usize::from(self.len)]
    }

    /// "4435", as `--moves` takes it.
    pub fn text(&self) -> String {
        self.as_slice()
            .iter()
            .map(|&c| char::from(b'1' + c))
            .collect()
    }
}

/// The cells of column `c`.
const fn column_mask(c: u32) -> u64 {
    ((1u64 << ROWS) - 1) << (c * (ROWS + 1))
}

/// The bottom cell of column `c`.
const fn bottom(c: u32) -> u64 {
    1u64 << (c * (ROWS + 1))
}

/// The top cell of column `c`.
const fn top(c: u32) -> u64 {
    1u64 << (c * (ROWS + 1) + ROWS - 1)
}

/// Whether `stones` hold four in a row: for each direction (up 1, across 7, the diagonals 6 and
/// 8 in the 7-bit layout), pairs of neighbours, then pairs of pairs.
pub fn four(stones: u64) -> bool {
    [1, 7, 6, 8].iter().any(|&d| {
        let pairs = stones & (stones >> d);
        pairs & (pairs >> (2 * d)) != 0
    })
}

/// The 69 windows of four cells in a line, as bit masks.
pub fn windows() -> Vec<u64> {
    let cell = |c: i32, r: i32| 1u64 << (c * (ROWS as i32 + 1) + r);
    let mut w = Vec::with_capacity(69);
    for c in 0..COLUMNS as i32 {
        for r in 0..ROWS as i32 {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let (ec, er) = (c + 3 * dc, r + 3 * dr);
                if (0..COLUMNS as i32).contains(&ec) && (0..ROWS as i32).contains(&er) {
                    w.push((0..4).map(|k| cell(c + k * dc, r + k * dr)).sum());
                }
            }
        }
    }
    w
}

/// The windows of [`windows`] by direction: for each (up, across, and the two diagonals), the
/// step between a window's cells (1, 7, 8, 6) and the cells where a window in that direction
/// starts (its lowest bit).
fn lines() -> [(u32, u64); 4] {
    let mut lines = [(1, 0), (7, 0), (8, 0), (6, 0)];
    for w in windows() {
        let start = w.trailing_zeros();
        let step = (w & !(1 << start)).trailing_zeros() - start;
        let line = lines
            .iter_mut()
            .find(|(d, _)| *d == step)
            .expect("a step of four");
        line.1 |= 1 << start;
    }
    lines
}

/// For each window starting at a cell of `starts` whose cells are `step` apart: the windows
/// where `stones` hold exactly three of the four cells, and those where they hold exactly two,
/// by adding the four cells' bits (shifted onto the window's start) bit-sliced.
#[inline]
fn threes_and_twos(stones: u64, step: u32, starts: u64) -> (u64, u64) {
    let (a, b) = (stones, stones >> step);
    let (c, d) = (stones >> (2 * step), stones >> (3 * step));
    // a + b = 2·ab + s1, c + d = 2·cd + s2; the sum's low bit, then its half's two bits.
    let (s1, ab) = (a ^ b, a & b);
    let (s2, cd) = (c ^ d, c & d);
    let (low, carry) = (s1 ^ s2, s1 & s2);
    let mid = ab ^ cd ^ carry;
    let high = (ab & cd) | (ab & carry) | (cd & carry);
    let some = mid & !high & starts;
    (some & low, some & !low)
}

/// Whether any of the windows starting at `starts` (cells `step` apart) holds a stone of
/// `stones`: the windows starting where this is 0 are free of them.
#[inline]
fn touched(stones: u64, step: u32) -> u64 {
    stones | stones >> step | stones >> (2 * step) | stones >> (3 * step)
}

/// The rules, from the position after `moves`.
pub struct ConnectFour {
    start: (u64, u64),
    lines: [(u32, u64); 4],
}

impl ConnectFour {
    /// The position after `moves`, or why they cannot be played (a full column, a move after
    /// the game is won).
    pub fn new(moves: &Moves) -> Result<ConnectFour, GameError> {
        let (mut x, mut o) = (0u64, 0u64);
        for (i, &c) in moves.as_slice().iter().enumerate() {
            let c = u32::from(c);
            if four(x) || four(o) {
                return Err(GameError::Invalid(format!(
                    "move {} of \"{}\" comes after the game is won",
                    i + 1,
                    moves.text()
                )));
            }
            let filled = x | o;
            if filled & top(c) != 0 {
                return Err(GameError::Invalid(format!(
                    "move {} of \"{}\" drops into column {}, which is full",
                    i + 1,
                    moves.text(),
                    c + 1
                )));
            }
            let stone = (filled + bottom(c)) & column_mask(c);
            if i % 2 == 0 { x |= stone } else { o |= stone }
        }
        Ok(ConnectFour {
            start: (x, o),
            lines: lines(),
        })
    }

    /// Columns that are not full at the root: the most children any node has.
    pub fn open_columns(&self) -> u32 {
        let filled = self.start.0 | self.start.1;
        (0..COLUMNS).filter(|&c| filled & top(c) == 0).count() as u32
    }
}

impl ConnectFour {
    /// Whether Max (the first player) is to move: an even number of stones on the board.
    fn max_to_move(x: u64, o: u64) -> bool {
        (x | o).count_ones() % 2 == 0
    }
}

impl Game for ConnectFour {
    /// Max's stones, Min's stones.
    type Position = (u64, u64);
    /// A column, 0-based.
    type Move = u32;

    fn name(&self) -> String {
        "connect-four".into()
    }

    fn meta(&self) -> Meta {
        Meta {
            name: self.name(),
            description: "connect four, 7×6; ±1000 a win for Max/Min, 0 a draw; heuristic: open windows (3 of a colour +5, 2 of a colour +2, negative for Min)".into(),
            players: 2,
            bounds: Some(Bounds { lo: -WIN, hi: WIN }),
            ..Meta::default()
        }
    }

    fn start(&self) -> (u64, u64) {
        self.start
    }

    fn outcome(&self, &(x, o): &(u64, u64)) -> Option<Outcome> {
        if four(x) {
            Some(Outcome::Value(WIN))
        } else if four(o) {
            Some(Outcome::Value(-WIN))
        } else if (0..COLUMNS).all(|c| (x | o) & top(c) != 0) {
            Some(Outcome::Value(0.0))
        } else {
            None
        }
    }

    fn turn(&self, &(x, o): &(u64, u64)) -> Turn {
        if Self::max_to_move(x, o) {
            Turn::Max
        } else {
            Turn::Min
        }
    }

    fn moves(&self, &(x, o): &(u64, u64), moves: &mut Vec<u32>) {
        moves.extend((0..COLUMNS).filter(|&c| (x | o) & top(c) == 0));
    }

    fn play(&self, &(x, o): &(u64, u64), &c: &u32) -> (u64, u64) {
        let filled = x | o;
        let stone = (filled + bottom(c)) & column_mask(c);
        if Self::max_to_move(x, o) {
            (x | stone, o)
        } else {
            (x, o | stone)
        }
    }

    fn label(&self, _: &(u64, u64), &c: &u32) -> String {
        format!("drop col {}", c + 1)
    }

    /// Values ±1000, 0 and whole window counts.
    fn integral(&self) -> bool {
        true
    }

    /// A stone a move, until the 42 cells are full.
    fn longest(&self) -> Option<u32> {
        Some(COLUMNS * ROWS - (self.start.0 | self.start.1).count_ones())
    }

    /// A column a move.
    fn most_moves(&self) -> Option<u32> {
        Some(COLUMNS)
    }

    fn key(&self, &(x, o): &(u64, u64)) -> Option<u64> {
        Some(x + (x | o))
    }

    /// The open windows counted a direction at a time, all windows of a direction at once
    /// (`threes_and_twos`): a tenth of the instructions of counting each window's stones, the
    /// values the same (a test holds them to the window-by-window count).
    fn heuristic(&self, &(x, o): &(u64, u64)) -> Option<f64> {
        let mut score = 0i32;
        for &(step, starts) in &self.lines {
            let (x3, x2) = threes_and_twos(x, step, starts & !touched(o, step));
            let (o3, o2) = threes_and_twos(o, step, starts & !touched(x, step));
            score += 5 * (x3.count_ones() as i32 - o3.count_ones() as i32)
                + 2 * (x2.count_ones() as i32 - o2.count_ones() as i32);
        }
        Some(f64::from(score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_nine_windows_of_four_cells() {
        let w = windows();
        assert_eq!(w.len(), 69);
        assert!(w.iter().all(|m| m.count_ones() == 4 && four(*m)));
        let mut sorted = w.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 69);
        // No window uses the empty seventh row.
        let board: u64 = (0..COLUMNS).map(column_mask).sum();
        assert!(w.iter().all(|m| m & !board == 0));
    }

    #[test]
    fn fours_in_every_direction_and_no_wrap_around() {
        let cell = |c: u32, r: u32| 1u64 << (c * 7 + r);
        assert!(four((0..4).map(|r| cell(2, r)).sum()));
        assert!(four((0..4).map(|c| cell(c + 3, 5)).sum()));
        assert!(four((0..4).map(|k| cell(k + 1, k + 2)).sum()));
        assert!(four((0..4).map(|k| cell(k, 3 - k)).sum()));
        // The top of one column and the bottom of the next are not in a line.
        assert!(!four(cell(0, 4) | cell(0, 5) | cell(1, 0) | cell(1, 1)));
        assert!(!four((0..3).map(|r| cell(6, r)).sum()));
    }

    #[test]
    fn moves_are_checked() {
        assert_eq!(Moves::parse("4435").unwrap().text(), "4435");
        assert!(Moves::parse("48").is_err());
        assert!(Moves::parse("4x").is_err());
        assert!(ConnectFour::new(&Moves::parse("4444444").unwrap()).is_err());
        // Max wins in column 1 with the seventh move; an eighth is refused.
        assert!(ConnectFour::new(&Moves::parse("1212121").unwrap()).is_ok());
        assert!(ConnectFour::new(&Moves::parse("12121213").unwrap()).is_err());
    }

    #[test]
    fn keys_name_positions() {
        let g = ConnectFour::new(&Moves::NONE).unwrap();
        let after = |moves: &str| {
            let g = ConnectFour::new(&Moves::parse(moves).unwrap()).unwrap();
            g.key(&g.start())
        };
        assert_eq!(g.key(&g.start()), Some(0));
        assert_eq!(after("4435"), after("3544"));
        assert_ne!(after("4435"), after("4453"));
        assert_ne!(after("45"), after("54"));
    }

    /// The heuristic by directions is the window-by-window count of the module's definition, on
    /// positions from random games (and random stone sets, legal or not).
    #[test]
    fn the_heuristic_by_directions_counts_each_window() {
        fn by_windows(x: u64, o: u64) -> i32 {
            let worth = |n: u32| match n {
                3 => 5,
                2 => 2,
                _ => 0,
            };
            windows()
                .iter()
                .map(|&w| match ((x & w).count_ones(), (o & w).count_ones()) {
                    (mine, 0) => worth(mine),
                    (0, theirs) => -worth(theirs),
                    _ => 0,
                })
                .sum()
        }
        let g = ConnectFour::new(&Moves::NONE).unwrap();
        let board: u64 = (0..COLUMNS).map(column_mask).sum();
        let mut r = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = || {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            r
        };
        for _ in 0..2_000 {
            let mut p = g.start();
            let mut moves = Vec::new();
            while g.outcome(&p).is_none() {
                assert_eq!(g.heuristic(&p), Some(f64::from(by_windows(p.0, p.1))));
                moves.clear();
                g.moves(&p, &mut moves);
                p = g.play(&p, &moves[next() as usize % moves.len()]);
            }
            let (x, o) = (next() & board, next() & board);
            let o = o & !x;
            assert_eq!(g.heuristic(&(x, o)), Some(f64::from(by_windows(x, o))));
        }
    }

    #[test]
    fn heuristic_counts_open_windows() {
        let g = ConnectFour::new(&Moves::NONE).unwrap();
        assert_eq!(g.heuristic(&g.start()), Some(0.0));
        // Max on 1 and 2 of the bottom row, Min above them: the bottom row's window 1–4 holds
        // two of Max's (+2); Min's two on row 2 likewise (−2), and nothing else has two.
        let g = ConnectFour::new(&Moves::parse("1122").unwrap()).unwrap();
        assert_eq!(g.heuristic(&g.start()), Some(0.0));
        // Max's three in the bottom row (1, 2, 3) with 4 open: +5 for window 1–4, +2 for 2–5;
        // Min's 1 and 2 in row 2: −2 for window 1–4 of row 2.
        let g = ConnectFour::new(&Moves::parse("11223").unwrap()).unwrap();
        assert_eq!(g.heuristic(&g.start()), Some(5.0 + 2.0 - 2.0));
    }
}
