//! A game of your own, searched by prune: Kalah (mancala) with few pits, against the
//! [`prune::game::Game`] trait. Run it with `cargo run --example kalah -- [PITS SEEDS DEPTH]`;
//! crates/prune/tests/library/example_game.rs builds and searches it.
//!
//! Each player has `pits` pits of `seeds` seeds and a store. A move takes every seed of one of
//! the mover's pits and sows them one by one, counter-clockwise, into the following pits and the
//! mover's own store (never the opponent's). A last seed in the mover's store earns another
//! move (so Max and Min need not alternate); a last seed in an empty pit of the mover's, across
//! from seeds, captures both into the store. When the player to move has no seeds left, the
//! other player stores theirs and the game is over, worth South's store minus North's. South is
//! Max. The heuristic is the same difference of the stores so far.

use prune::game::{self, Game, Outcome, Turn};
use prune::search::{self, Algorithm};

/// Kalah with `pits` pits a side, `seeds` seeds in each at the start.
pub struct Kalah {
    pub pits: usize,
    pub seeds: u8,
}

/// A position: South's pits then store, North's pits then store (`2 · pits + 2` cells), and
/// whether South (Max) is to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub cells: Vec<u8>,
    pub south: bool,
}

impl Kalah {
    /// The index of `side`'s store (side 0 is South).
    fn store(&self, side: usize) -> usize {
        side * (self.pits + 1) + self.pits
    }

    /// The range of `side`'s pits.
    fn pits_of(&self, side: usize) -> std::ops::Range<usize> {
        side * (self.pits + 1)..side * (self.pits + 1) + self.pits
    }
}

impl Game for Kalah {
    type Position = Board;
    /// A pit of the mover's, from 0 (nearest their left hand).
    type Move = usize;

    fn name(&self) -> String {
        format!("kalah {}×{}", self.pits, self.seeds)
    }

    fn start(&self) -> Board {
        let mut cells = vec![self.seeds; 2 * self.pits + 2];
        cells[self.store(0)] = 0;
        cells[self.store(1)] = 0;
        Board { cells, south: true }
    }

    fn outcome(&self, b: &Board) -> Option<Outcome> {
        let side = usize::from(!b.south);
        if b.cells[self.pits_of(side)].iter().any(|&s| s > 0) {
            return None;
        }
        // The other player stores what is left on their side.
        let left: u32 = b.cells[self.pits_of(1 - side)]
            .iter()
            .map(|&s| u32::from(s))
            .sum();
        let mut stores = [self.store(0), self.store(1)].map(|i| f64::from(b.cells[i]));
        stores[1 - side] += f64::from(left);
        Some(Outcome::Value(stores[0] - stores[1]))
    }

    fn turn(&self, b: &Board) -> Turn {
        if b.south { Turn::Max } else { Turn::Min }
    }

    fn moves(&self, b: &Board, moves: &mut Vec<usize>) {
        let side = usize::from(!b.south);
        let first = self.pits_of(side).start;
        moves.extend((0..self.pits).filter(|&p| b.cells[first + p] > 0));
    }

    fn play(&self, b: &Board, &pit: &usize) -> Board {
        let side = usize::from(!b.south);
        let mut cells = b.cells.clone();
        let n = cells.len();
        let mut at = self.pits_of(side).start + pit;
        let mut hand = std::mem::take(&mut cells[at]);
        while hand > 0 {
            at = (at + 1) % n;
            if at == self.store(1 - side) {
                continue;
            }
            cells[at] += 1;
            hand -= 1;
        }
        if at == self.store(side) {
            return Board {
                cells,
                south: b.south,
            };
        }
        let across = 2 * self.pits - at;
        if self.pits_of(side).contains(&at) && cells[at] == 1 && cells[across] > 0 {
            let captured = cells[at] + std::mem::take(&mut cells[across]);
            cells[at] = 0;
            cells[self.store(side)] += captured;
        }
        Board {
            cells,
            south: !b.south,
        }
    }

    fn label(&self, b: &Board, &pit: &usize) -> String {
        format!("{} pit {}", if b.south { "S" } else { "N" }, pit + 1)
    }

    fn heuristic(&self, b: &Board) -> Option<f64> {
        Some(f64::from(b.cells[self.store(0)]) - f64::from(b.cells[self.store(1)]))
    }

    /// Five bits a cell and the player to move: exact while every cell holds fewer than 32
    /// seeds and the board has at most 12 cells.
    fn key(&self, b: &Board) -> Option<u64> {
        if b.cells.len() > 12 || b.cells.iter().any(|&s| s >= 32) {
            return None;
        }
        let packed = b.cells.iter().fold(0u64, |k, &s| k << 5 | u64::from(s));
        Some(packed << 1 | u64::from(b.south))
    }
}

#[allow(dead_code)] // a test includes this file as a module, without calling `main`
fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (pits, seeds, depth) = match args[..] {
        [p, s, d] => (p, s as u8, d as u32),
        _ => (3, 3, 8),
    };
    let kalah = Kalah { pits, seeds };
    let tree = match game::tree(&kalah, Some(depth)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("kalah: {e}");
            std::process::exit(2);
        }
    };
    println!("{}: {} nodes to depth {depth}", kalah.name(), tree.len());
    for algo in [
        Algorithm::Minimax,
        Algorithm::parse("alphabeta:tt", &Default::default()).expect("a name"),
    ] {
        match search::run(&tree, &algo) {
            Ok(run) => println!("{algo}: value {}, {} leaves", run.value, run.stats.leaves),
            Err(e) => eprintln!("{algo}: {e}"),
        }
    }
}
