//! `gen win-loss`: Pearl's WIN-LOSS trees (slides, "WIN-LOSS Trees") and the board-splitting game.
//!
//! A uniform tree of branching b and depth d, Max at the root, each leaf a WIN for Max (1) with
//! probability P0 and a LOSS (0) otherwise, independently. The board-splitting game is the same
//! tree seen as a game: a square board of b^(d/2) × b^(d/2) cells, each V (1) with probability P0
//! and H (0) otherwise; Vertical (Max) keeps one of b vertical slices, Horizontal (Min) one of b
//! horizontal slices, until one cell is left, whose letter names the winner. `board` labels the
//! moves (`c1`…`cb` for Vertical's slices, `r1`…`rb` for Horizontal's) and needs an even d. The
//! number of V cells left on the board is the number of WIN leaves under a node.

use super::{GenError, Rng, check_size, from_levels, level_arena, level_sizes};
use crate::tree::{Bounds, Kind, Meta, NodeId, Tree};

/// The parameters of `gen win-loss` (Pearl's WIN-LOSS tree).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WinLoss {
    /// b, the children of every interior node.
    pub branching: u32,
    /// d, the depth of every leaf.
    pub depth: u32,
    /// Probability that a leaf is a WIN for Max.
    pub p0: f64,
    /// Label moves as board-splitting slices (needs an even depth).
    pub board: bool,
}

/// A WIN-LOSS tree drawn with `seed`.
pub fn generate(p: &WinLoss, seed: u64) -> Result<Tree, GenError> {
    if !(0.0..=1.0).contains(&p.p0) {
        return Err(GenError::Invalid(format!(
            "P0 = {} is not a probability",
            p.p0
        )));
    }
    if p.branching == 0 {
        return Err(GenError::Invalid("branching must be at least 1".into()));
    }
    if p.board && p.depth % 2 == 1 {
        return Err(GenError::Invalid(
            "the board-splitting game needs an even depth (Vertical and Horizontal move in turn)"
                .into(),
        ));
    }
    check_size(
        &format!("a win-loss tree with b = {}, d = {}", p.branching, p.depth),
        super::count_levels(u64::from(p.depth), &[p.branching]),
        0,
    )?;
    let levels: Vec<(Kind, u32)> = (0..p.depth)
        .map(|k| (if k % 2 == 0 { Kind::Max } else { Kind::Min }, p.branching))
        .collect();
    let sizes = level_sizes(&vec![p.branching; p.depth as usize]);
    check_size(
        &format!("a win-loss tree with b = {}, d = {}", p.branching, p.depth),
        sizes.as_ref().map(|s| s.iter().sum()),
        0,
    )?;
    let mut rng = Rng::new(seed);
    let side = u64::from(p.branching)
        .checked_pow(p.depth / 2)
        .unwrap_or(u64::MAX);
    let meta = Meta {
        name: if p.board {
            format!(
                "board splitting b={} d={} P0={}",
                p.branching, p.depth, p.p0
            )
        } else {
            format!("win-loss b={} d={} P0={}", p.branching, p.depth, p.p0)
        },
        description: if p.board {
            format!(
                "prune gen win-loss --board: Pearl's board-splitting game on a {side}×{side} board, cells V (1) with probability {}, seed {seed}",
                p.p0
            )
        } else {
            format!(
                "prune gen win-loss: Pearl's WIN-LOSS tree, leaves WIN (1) with probability {}, seed {seed}",
                p.p0
            )
        },
        players: 2,
        bounds: Some(Bounds { lo: 0.0, hi: 1.0 }),
        ..Meta::default()
    };
    let tree = from_levels(
        meta,
        level_arena(&levels, |_| if rng.chance(p.p0) { 1.0 } else { 0.0 }),
    );
    if !p.board {
        return Ok(tree);
    }
    Ok(tree.clone().with_labels(|id: NodeId| {
        let parent = tree.parent(id)?;
        let slice = tree.child_index(id) + 1;
        Some(if tree.kind(parent) == Kind::Max {
            format!("c{slice}")
        } else {
            format!("r{slice}")
        })
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_are_wins_with_probability_p0() {
        let t = generate(
            &WinLoss {
                branching: 2,
                depth: 14,
                p0: 0.3,
                board: false,
            },
            1,
        )
        .unwrap();
        let wins = t
            .ids()
            .filter(|&i| t.is_leaf(i) && t.value(i) == 1.0)
            .count() as f64;
        let share = wins / t.leaf_count() as f64;
        assert!((share - 0.3).abs() < 0.02, "{share}");
    }

    #[test]
    fn board_labels_and_depth_check() {
        let t = generate(
            &WinLoss {
                branching: 3,
                depth: 2,
                p0: 0.5,
                board: true,
            },
            1,
        )
        .unwrap();
        let c = t.child(t.root(), 2);
        assert_eq!(t.label(c), Some("c3"));
        assert_eq!(t.label(t.child(c, 0)), Some("r1"));
        assert!(
            generate(
                &WinLoss {
                    branching: 3,
                    depth: 3,
                    p0: 0.5,
                    board: true
                },
                1
            )
            .is_err()
        );
        assert!(
            generate(
                &WinLoss {
                    branching: 3,
                    depth: 2,
                    p0: 1.5,
                    board: false
                },
                1
            )
            .is_err()
        );
    }
}
