//! Nim, normal play, for two or more players.
//!
//! A move takes k ≥ 1 objects from one heap, and the player who takes the last object wins.
//! Players move in turn, the first player first. With two players the first is Max and a
//! finished game is +1 when Max took the last object, −1 when Min did; with n ≥ 3 players the
//! winner gets payoff 1 and the others 0 (for max^n). Labels "take k from heap h" (heaps
//! numbered from 1 as given); moves by heap, then by k from 1 up.

use std::collections::HashMap;

use super::{Game, GameError, Outcome, Turn};
use crate::tree::{Bounds, Meta};

/// The most players nim takes.
pub const MAX_NIM_PLAYERS: u8 = 16;

/// Nim with these heaps, for `players` players in turn. A position is the heaps and the player
/// to move (0 is the first player, Max in a two-player game); a move is (heap, objects taken).
#[derive(Clone, Debug)]
pub struct Nim {
    heaps: Vec<u32>,
    players: u8,
}

impl Nim {
    /// Nim with `heaps` for `players` players, or why not (2 to [`MAX_NIM_PLAYERS`] players).
    pub fn new(heaps: &[u32], players: u8) -> Result<Nim, GameError> {
        if !(2..=MAX_NIM_PLAYERS).contains(&players) {
            return Err(GameError::Invalid(format!(
                "nim takes 2 to {MAX_NIM_PLAYERS} players, not {players}"
            )));
        }
        Ok(Nim {
            heaps: heaps.to_vec(),
            players,
        })
    }

    /// "1,2,3,4", as `--heaps` takes it.
    fn heaps_text(&self) -> String {
        let parts: Vec<String> = self.heaps.iter().map(u32::to_string).collect();
        parts.join(",")
    }

    /// The exact number of nodes of the game's tree, by counting over sorted heap multisets.
    pub fn count(&self) -> u64 {
        fn go(heaps: Vec<u32>, memo: &mut HashMap<Vec<u32>, u64>) -> u64 {
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
        go(start, &mut HashMap::new())
    }
}

impl Game for Nim {
    type Position = (Vec<u32>, u8);
    type Move = (usize, u32);

    fn name(&self) -> String {
        match self.players {
            2 => format!("nim {}", self.heaps_text()),
            n => format!("nim {} players {n}", self.heaps_text()),
        }
    }

    fn meta(&self) -> Meta {
        let heaps = self.heaps_text();
        match self.players {
            2 => Meta {
                name: self.name(),
                description: format!(
                    "prune gen game nim: heaps {heaps}, normal play (taking the last object wins), Max first; +1 Max wins, −1 Min wins"
                ),
                players: 2,
                bounds: Some(Bounds { lo: -1.0, hi: 1.0 }),
                ..Meta::default()
            },
            n => Meta {
                name: self.name(),
                description: format!(
                    "prune gen game nim --players {n}: heaps {heaps}, players 1 to {n} in turn, taking the last object wins; payoff 1 to the winner, 0 to the others"
                ),
                players: n,
                payoff_floor: Some(0.0),
                payoff_sum: Some(1.0),
                ..Meta::default()
            },
        }
    }

    fn players(&self) -> u8 {
        self.players
    }

    fn start(&self) -> (Vec<u32>, u8) {
        (self.heaps.clone(), 0)
    }

    fn outcome(&self, (heaps, mover): &(Vec<u32>, u8)) -> Option<Outcome> {
        if heaps.iter().any(|&h| h > 0) {
            return None;
        }
        // The player who moved last took the last object.
        let winner = (mover + self.players - 1) % self.players;
        if self.players == 2 {
            return Some(Outcome::Value(if winner == 0 { 1.0 } else { -1.0 }));
        }
        let mut payoff = vec![0.0; usize::from(self.players)];
        payoff[usize::from(winner)] = 1.0;
        Some(Outcome::Payoffs(payoff))
    }

    fn turn(&self, &(_, mover): &(Vec<u32>, u8)) -> Turn {
        match (self.players, mover) {
            (2, 0) => Turn::Max,
            (2, _) => Turn::Min,
            (_, p) => Turn::Player(p),
        }
    }

    fn moves(&self, (heaps, _): &(Vec<u32>, u8), moves: &mut Vec<(usize, u32)>) {
        for (i, &h) in heaps.iter().enumerate() {
            moves.extend((1..=h).map(|k| (i, k)));
        }
    }

    fn play(&self, (heaps, mover): &(Vec<u32>, u8), &(i, k): &(usize, u32)) -> (Vec<u32>, u8) {
        let mut next = heaps.clone();
        next[i] -= k;
        (next, (mover + 1) % self.players)
    }

    fn label(&self, _: &(Vec<u32>, u8), &(i, k): &(usize, u32)) -> String {
        format!("take {k} from heap {}", i + 1)
    }

    /// The player to move in the low 8 bits; above them the non-empty heaps from the smallest
    /// up, each written as that many 1 bits and a 0: the order of the heaps and empty heaps do
    /// not matter, and with fewer than 32 objects in at most 16 heaps the code fits in 56 bits.
    /// Positions whose code would not fit in 64 bits have no key.
    /// Values ±1, or payoffs of 0 and 1.
    fn integral(&self) -> bool {
        true
    }

    /// Every move takes at least one object.
    fn longest(&self) -> Option<u32> {
        Some(self.heaps.iter().fold(0u32, |n, &h| n.saturating_add(h)))
    }

    /// Taking 1 to h from each heap of h: the start has the most, the total, which bounds the
    /// length too.
    fn most_moves(&self) -> Option<u32> {
        self.longest()
    }

    fn key(&self, (heaps, mover): &(Vec<u32>, u8)) -> Option<u64> {
        let mut sorted: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        sorted.sort_unstable();
        let mut key = 0u64;
        let mut bit = 8;
        for h in sorted {
            if bit + h >= 64 {
                return None;
            }
            key |= ((1u64 << h) - 1) << bit;
            bit += h + 1;
        }
        Some(key | u64::from(*mover))
    }
}
