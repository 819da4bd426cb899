//! The history heuristic: Schaeffer 1989, "The history heuristic and alpha-beta search
//! enhancements in practice" (IEEE PAMI 11(11)), §3; Schaeffer's slides, "Successor ordering".
//!
//! Every move that is best at a node, or cuts off there, earns `2^draft` (Schaeffer's weighting:
//! a move that is good near the root, deep in remaining depth, counts far more than one near the
//! leaves); at every node the moves not already placed first (the table's move, the killers)
//! are tried in decreasing order of their score. Scores are kept per side (Max, Min), a move
//! being a child's position among its siblings, as for [`super::killers`].

/// The history scores of each side's moves.
#[derive(Debug, Default)]
pub struct History {
    score: [Vec<u64>; 2],
}

impl History {
    /// The score of move `m` for Max (`max`) or Min: how much it has cut off so far.
    #[inline]
    pub fn score(&self, max: bool, m: u32) -> u64 {
        self.score[usize::from(max)]
            .get(m as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Move `m` was best, or cut off, at a node searched to `draft`.
    pub fn reward(&mut self, max: bool, m: u32, draft: u32) {
        let s = &mut self.score[usize::from(max)];
        if s.len() <= m as usize {
            s.resize(m as usize + 1, 0);
        }
        s[m as usize] = s[m as usize].saturating_add(1u64 << draft.min(62));
    }

    /// Sorts `moves` by decreasing score, equal scores keeping their order.
    pub fn order(&self, max: bool, moves: &mut [u32]) {
        moves.sort_by_key(|&m| std::cmp::Reverse(self.score(max, m)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_rewards_weigh_more_and_sides_are_apart() {
        let mut h = History::default();
        h.reward(true, 2, 1);
        h.reward(true, 2, 1);
        h.reward(true, 0, 3);
        h.reward(false, 1, 5);
        let mut moves = [0, 1, 2, 3];
        h.order(true, &mut moves);
        assert_eq!(moves, [0, 2, 1, 3]);
        let mut moves = [0, 1, 2, 3];
        h.order(false, &mut moves);
        assert_eq!(moves, [1, 0, 2, 3]);
    }
}
