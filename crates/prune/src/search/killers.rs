//! Killer moves: Schaeffer's slides, "Successor ordering"; Schaeffer 1989, "The history
//! heuristic and alpha-beta search enhancements in practice", §2 ("killer heuristic"); Marsland
//! 1986, "A Review of Game-Tree Pruning".
//!
//! A move that cut off the search at one node is likely to cut off at its siblings' children,
//! the other nodes at the same depth: the two most recent such moves of each depth are tried
//! first (after the transposition table's move). A move is a child's position among its
//! siblings — in the built-in games the same position means the same move (tic-tac-toe's
//! squares in order, connect-four's columns), up to the moves no longer legal.

/// The two killer moves of each ply, most recent first.
#[derive(Debug, Default)]
pub struct Killers {
    slots: Vec<[Option<u32>; 2]>,
}

impl Killers {
    /// The killers of `ply`, most recent first.
    #[inline]
    pub fn of(&self, ply: usize) -> [Option<u32>; 2] {
        self.slots.get(ply).copied().unwrap_or_default()
    }

    /// Move `m` cut off at depth `ply`.
    pub fn cut(&mut self, ply: usize, m: u32) {
        if self.slots.len() <= ply {
            self.slots.resize(ply + 1, [None, None]);
        }
        let s = &mut self.slots[ply];
        if s[0] != Some(m) {
            s[1] = s[0];
            s[0] = Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_killers_per_ply_most_recent_first_without_repeats() {
        let mut k = Killers::default();
        k.cut(2, 5);
        k.cut(2, 5);
        assert_eq!(k.of(2), [Some(5), None]);
        k.cut(2, 1);
        k.cut(2, 4);
        assert_eq!(k.of(2), [Some(4), Some(1)]);
        assert_eq!(k.of(0), [None, None]);
    }
}
