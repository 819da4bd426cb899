//! Pig with OpenSpiel's rules: `pig(winscore=W, diceoutcomes=K, horizon=H)`.
//!
//! The player to move (player 1 = Max, player 2 = Min) chooses "roll" or "stop" (both even with
//! a turn total of 0; only "stop" when the score plus the turn total reaches W). "roll" leads to
//! a chance position with K equally likely outcomes "rolled 1" … "rolled K": a 1 loses the turn
//! total and passes the turn; any other face adds its value to the turn total and the same
//! player chooses again. "stop" adds the turn total to the player's score and passes the turn.
//! The game ends when some player's banked score reaches W (+1 for player 1, −1 for player 2),
//! or when H decisions ("roll" or "stop", die outcomes not counted) have been made: the position
//! right after the H-th decision is over with value 0 (even after a "roll" whose die is then
//! never thrown). As in OpenSpiel, a turn total alone never wins: the player must stop to bank
//! it. Checked against OpenSpiel 2.0.2 (tests/app/games.rs).

use std::collections::HashMap;

use super::{Game, GameError, Outcome, Turn};
use crate::hash::{GOLDEN_GAMMA, mix64};
use crate::tree::{Bounds, MAX_NODES, Meta};

/// Pig's rules, with its winning score, die and horizon.
#[derive(Copy, Clone, Debug)]
pub struct Pig {
    win: u32,
    dice: u32,
    horizon: u32,
}

/// A Pig position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PigState {
    /// The banked scores of player 1 (Max) and player 2 (Min).
    pub scores: [u32; 2],
    /// The points of this turn, not yet banked.
    pub turn_total: u32,
    /// The player whose turn it is (0 is Max).
    pub player: usize,
    /// The die is about to be rolled.
    pub chance: bool,
    /// Decisions made so far (die outcomes are not counted).
    pub moves: u32,
}

/// A decision, or a face of the die.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PigMove {
    /// Throw the die: the position becomes a chance one (counts as a decision).
    Roll,
    /// Bank the turn total and pass the turn (counts as a decision); the only move once the
    /// score plus the turn total reaches the winning score.
    Stop,
    /// The die shows this face (1 to K).
    Rolled(u32),
}

impl Pig {
    /// Pig to `win` points with a die of `dice` faces and a horizon of `horizon` decisions, or
    /// why not (a winning score of at least 1, a die of 2 to 65,536 outcomes).
    pub fn new(win: u32, dice: u32, horizon: u32) -> Result<Pig, GameError> {
        if win == 0 {
            return Err(GameError::Invalid(
                "pig needs a winning score of at least 1".into(),
            ));
        }
        if dice < 2 {
            return Err(GameError::Invalid(
                "pig needs a die of at least 2 outcomes".into(),
            ));
        }
        if dice > 1 << 16 {
            return Err(GameError::Invalid(
                "pig takes dice of at most 65536 outcomes".into(),
            ));
        }
        Ok(Pig { win, dice, horizon })
    }

    /// The die's number of faces.
    pub fn dice(&self) -> u32 {
        self.dice
    }

    /// The horizon, in decisions.
    pub fn horizon(&self) -> u32 {
        self.horizon
    }

    /// Bits for a score or turn total, and for the number of decisions, when the packed key
    /// (2 flag bits, two scores, the turn total, the decisions) fits in 64 bits. A score or
    /// turn total never exceeds `W − 1 + K` (a turn stops once it could win).
    pub fn key_widths(&self) -> Option<(u32, u32)> {
        let bits = |n: u64| 64 - n.leading_zeros();
        let value_bits = bits(u64::from(self.win) + u64::from(self.dice));
        let move_bits = bits(u64::from(self.horizon));
        (2 + 3 * value_bits + move_bits <= 64).then_some((value_bits, move_bits))
    }

    /// The positions after each move at `s` (none when the game is over).
    fn successors(&self, s: &PigState) -> Vec<PigState> {
        if self.outcome(s).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.moves(s, &mut moves);
        moves.iter().map(|m| self.play(s, m)).collect()
    }

    /// The exact number of nodes of the tree, memoised on positions; `None` when more than
    /// `budget` distinct positions would have to be remembered. Counts past [`MAX_NODES`] are
    /// reported as `MAX_NODES + 1`. Depth first with a stack of its own: a game runs to twice
    /// the horizon in plies, deeper than the thread's stack would take recursion.
    pub fn count(&self, budget: usize) -> Option<u64> {
        /// A position being counted: its children, the next one to count, the nodes so far.
        struct Open {
            state: PigState,
            children: Vec<PigState>,
            next: usize,
            nodes: u64,
        }
        let open = |state: PigState| Open {
            children: self.successors(&state),
            state,
            next: 0,
            nodes: 1,
        };
        let add = |a: u64, b: u64| a.saturating_add(b).min(MAX_NODES as u64 + 1);
        let mut memo: HashMap<PigState, u64> = HashMap::new();
        let mut stack = vec![open(self.start())];
        // Ends when the root is done: its count is the answer.
        loop {
            let depth = stack.len();
            let top = stack
                .last_mut()
                .expect("the root is popped last, and returns");
            if let Some(child) = top.children.get(top.next) {
                top.next += 1;
                match memo.get(child) {
                    Some(&n) => top.nodes = add(top.nodes, n),
                    // The positions on the stack are remembered too, until they are done.
                    None if memo.len() + depth >= budget => return None,
                    None => {
                        let child = child.clone();
                        stack.push(open(child));
                    }
                }
                continue;
            }
            let done = stack.pop().expect("the loop's top");
            match stack.last_mut() {
                Some(parent) => parent.nodes = add(parent.nodes, done.nodes),
                None => return Some(done.nodes),
            }
            memo.insert(done.state, done.nodes);
        }
    }
}

impl Game for Pig {
    type Position = PigState;
    type Move = PigMove;

    fn name(&self) -> String {
        format!(
            "pig win={} dice={} horizon={}",
            self.win, self.dice, self.horizon
        )
    }

    fn meta(&self) -> Meta {
        let (win, dice, horizon) = (self.win, self.dice, self.horizon);
        Meta {
            name: self.name(),
            description: format!(
                "prune gen game pig: OpenSpiel's pig(winscore={win}, diceoutcomes={dice}, horizon={horizon}); +1 player 1 (Max) banks {win}, −1 player 2 does, 0 at the horizon"
            ),
            players: 2,
            bounds: Some(Bounds { lo: -1.0, hi: 1.0 }),
            ..Meta::default()
        }
    }

    fn start(&self) -> PigState {
        PigState {
            scores: [0, 0],
            turn_total: 0,
            player: 0,
            chance: false,
            moves: 0,
        }
    }

    fn outcome(&self, s: &PigState) -> Option<Outcome> {
        // OpenSpiel's `Returns`: a banked win counts even on the horizon's last move.
        if let Some(p) = (0..2).find(|&p| s.scores[p] >= self.win) {
            return Some(Outcome::Value(if p == 0 { 1.0 } else { -1.0 }));
        }
        (s.moves >= self.horizon).then_some(Outcome::Value(0.0))
    }

    fn turn(&self, s: &PigState) -> Turn {
        match (s.chance, s.player) {
            (true, _) => Turn::Chance,
            (false, 0) => Turn::Max,
            (false, _) => Turn::Min,
        }
    }

    fn moves(&self, s: &PigState, moves: &mut Vec<PigMove>) {
        if s.chance {
            moves.extend((1..=self.dice).map(PigMove::Rolled));
            return;
        }
        // A player whose turn total would win may only stop (OpenSpiel's legal actions).
        if s.scores[s.player].saturating_add(s.turn_total) < self.win {
            moves.push(PigMove::Roll);
        }
        moves.push(PigMove::Stop);
    }

    fn play(&self, s: &PigState, mv: &PigMove) -> PigState {
        match *mv {
            // Die outcomes do not count towards the horizon.
            PigMove::Rolled(1) => PigState {
                turn_total: 0,
                player: 1 - s.player,
                chance: false,
                ..s.clone()
            },
            PigMove::Rolled(face) => PigState {
                turn_total: s.turn_total.saturating_add(face),
                chance: false,
                ..s.clone()
            },
            PigMove::Roll => PigState {
                chance: true,
                moves: s.moves + 1,
                ..s.clone()
            },
            PigMove::Stop => {
                let mut scores = s.scores;
                scores[s.player] = scores[s.player].saturating_add(s.turn_total);
                PigState {
                    scores,
                    turn_total: 0,
                    player: 1 - s.player,
                    chance: false,
                    moves: s.moves + 1,
                }
            }
        }
    }

    fn label(&self, _: &PigState, mv: &PigMove) -> String {
        match mv {
            PigMove::Roll => "roll".into(),
            PigMove::Stop => "stop".into(),
            PigMove::Rolled(face) => format!("rolled {face}"),
        }
    }

    /// The state packed into 64 bits when it fits (see [`Pig::key_widths`]), otherwise a
    /// 64-bit mix of its fields.
    /// Values ±1 and 0; the dice are fair.
    fn integral(&self) -> bool {
        true
    }

    /// H decisions, and a roll of the die after each "roll" but the last (the game is over
    /// right after the H-th decision): 2H − 1 moves, the die's counted.
    fn longest(&self) -> Option<u32> {
        Some(self.horizon.saturating_mul(2).saturating_sub(1))
    }

    fn key(&self, s: &PigState) -> Option<u64> {
        let fields = [
            u64::from(s.scores[0]),
            u64::from(s.scores[1]),
            u64::from(s.turn_total),
            u64::from(s.moves),
        ];
        let flags = (s.player as u64) << 1 | u64::from(s.chance);
        Some(match self.key_widths() {
            Some((value_bits, move_bits)) => {
                let mut key = flags;
                let mut shift = 2;
                for (i, f) in fields.into_iter().enumerate() {
                    key |= f << shift;
                    shift += if i < 3 { value_bits } else { move_bits };
                }
                key
            }
            None => fields
                .into_iter()
                .fold(flags, |h, f| mix64(h ^ f.wrapping_mul(GOLDEN_GAMMA))),
        })
    }
}
