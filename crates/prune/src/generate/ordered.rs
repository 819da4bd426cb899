//! Reinefeld & Marsland's "averagely ordered" trees (1987, §2–4, Figures 3 and 4): a uniform
//! tree of width w and depth d whose values are built so that
//!
//! - at a type-1 (principal variation) node the best move changes r times: r of its children
//!   after the first, at seeded random positions, are each better than all before them;
//! - at a cut node the first g children fail to refute it and the (g + 1)-th does — the "1 + g
//!   descendants" of the paper's N4 nodes — the later children being never needed;
//! - the refuting child is an ALL node (N5): every one of its children is a cut node again.
//!
//! Values are built top-down in negamax terms (a node's value from its own player's view),
//! with integer thresholds, by three constructors:
//!
//! - `pv(v)`: exactly v. Children at the change positions get pv(−b_k) with
//!   b_0 < b_1 < … < b_r = v; a child between changes, while b_k is the best so far, gets
//!   cut(1 − b_k), so that its negated value stays below b_k.
//! - `cut(t)`: at least t. Children 1 … g get cut(1 − t) (negated: below t), child g + 1 gets
//!   all(−t) (negated: at least t), later children random values.
//! - `all(t)`: at most t. Every child gets cut(−t) (negated: at most t).
//!
//! Leaves take the bound plus or minus a random margin in 0..=`spread`. Max is at the root and
//! levels alternate, as in `gen uniform`.

use super::{GenError, Rng, check_size, level_sizes};
use crate::tree::{Draft, DraftNode, Kind, Meta, Tree};

/// The parameters of Reinefeld and Marsland's averagely ordered trees.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ordered {
    /// w, the children of every interior node.
    pub width: u32,
    /// d, the depth of every leaf.
    pub depth: u32,
    /// Extra expansions at cut nodes: 0 ≤ g < w.
    pub g: u32,
    /// Principal-variation changes at type-1 nodes: 0 ≤ r < w.
    pub r: u32,
}

const SPREAD: i64 = 9;

struct Builder {
    p: Ordered,
    rng: Rng,
    draft: Draft,
}

impl Builder {
    fn kind(&self, depth_left: u32) -> Kind {
        if (self.p.depth - depth_left) % 2 == 0 {
            Kind::Max
        } else {
            Kind::Min
        }
    }

    /// A leaf worth `v` to the player to move at its parent's child level (negamax view).
    fn leaf(&mut self, depth_left: u32, v: i64) {
        // Negamax values are from the mover's view; the tree stores Max's view.
        let max_view = if self.kind(depth_left) == Kind::Max {
            v
        } else {
            -v
        };
        self.draft.push(DraftNode::leaf(max_view as f64));
    }

    fn margin(&mut self) -> i64 {
        self.rng.int(0, SPREAD)
    }

    fn pv(&mut self, d: u32, v: i64) {
        if d == 0 {
            return self.leaf(d, v);
        }
        let w = self.p.width;
        self.draft.push(DraftNode::interior(self.kind(d), w));
        // Positions of the r changes among children 1 … w − 1 (0-based), in order.
        let mut positions: Vec<u32> = (1..w).collect();
        for i in 0..self.p.r as usize {
            let j = i + self.rng.below((positions.len() - i) as u64) as usize;
            positions.swap(i, j);
        }
        let mut changes: Vec<u32> = positions[..self.p.r as usize].to_vec();
        changes.sort_unstable();
        // b_0 < b_1 < … < b_r = v.
        let mut bests = vec![v; changes.len() + 1];
        for k in (0..changes.len()).rev() {
            bests[k] = bests[k + 1] - 1 - self.margin();
        }
        let mut k = 0;
        for i in 0..w {
            if i == 0 {
                self.pv(d - 1, -bests[0]);
            } else if changes.get(k).is_some_and(|&c| c == i) {
                k += 1;
                self.pv(d - 1, -bests[k]);
            } else {
                self.cut(d - 1, 1 - bests[k]);
            }
        }
    }

    fn cut(&mut self, d: u32, t: i64) {
        if d == 0 {
            let m = self.margin();
            return self.leaf(d, t + m);
        }
        let w = self.p.width;
        self.draft.push(DraftNode::interior(self.kind(d), w));
        for i in 0..w {
            if i < self.p.g {
                self.cut(d - 1, 1 - t);
            } else if i == self.p.g {
                self.all(d - 1, -t);
            } else {
                // Never searched by a perfect cut: any value.
                let v = t + self.rng.int(-3 * SPREAD, 3 * SPREAD);
                self.random(d - 1, v);
            }
        }
    }

    fn all(&mut self, d: u32, t: i64) {
        if d == 0 {
            let m = self.margin();
            return self.leaf(d, t - m);
        }
        let w = self.p.width;
        self.draft.push(DraftNode::interior(self.kind(d), w));
        for _ in 0..w {
            self.cut(d - 1, -t);
        }
    }

    /// A subtree nobody needs, with values near `v`.
    fn random(&mut self, d: u32, v: i64) {
        if d == 0 {
            return self.leaf(d, v);
        }
        let w = self.p.width;
        self.draft.push(DraftNode::interior(self.kind(d), w));
        for _ in 0..w {
            let x = -v + self.rng.int(-SPREAD, SPREAD);
            self.random(d - 1, x);
        }
    }
}

/// An averagely ordered tree drawn with `seed`.
pub fn generate(p: &Ordered, seed: u64) -> Result<Tree, GenError> {
    if p.width < 2 || p.depth == 0 {
        return Err(GenError::Invalid(
            "width must be at least 2 and depth at least 1".into(),
        ));
    }
    if p.g >= p.width || p.r >= p.width {
        return Err(GenError::Invalid(format!(
            "g = {} and r = {} must both be below the width {}",
            p.g, p.r, p.width
        )));
    }
    check_size(
        &format!("an ordered tree with w = {}, d = {}", p.width, p.depth),
        super::count_levels(u64::from(p.depth), &[p.width]),
        0,
    )?;
    let sizes = level_sizes(&vec![p.width; p.depth as usize]);
    let n = check_size(
        &format!("an ordered tree with w = {}, d = {}", p.width, p.depth),
        sizes.as_ref().map(|s| s.iter().sum()),
        0,
    )?;
    let meta = Meta {
        name: format!("ordered w={} d={} g={} r={}", p.width, p.depth, p.g, p.r),
        description: format!(
            "Reinefeld & Marsland's averagely ordered tree: {} extra expansions at cut nodes, {} principal-variation changes (seed {seed})",
            p.g, p.r
        ),
        players: 2,
        ..Meta::default()
    };
    let mut b = Builder {
        p: *p,
        rng: Rng::new(seed),
        draft: Draft::with_capacity(meta, n as usize),
    };
    b.pv(p.depth, 0);
    b.draft
        .finish()
        .map_err(|e| GenError::Invalid(format!("internal: {e:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{self, Algorithm};

    fn tree(w: u32, d: u32, g: u32, r: u32, seed: u64) -> Tree {
        generate(
            &Ordered {
                width: w,
                depth: d,
                g,
                r,
            },
            seed,
        )
        .unwrap()
    }

    #[test]
    fn g_and_r_zero_is_perfectly_ordered() {
        for (w, d) in [(2, 5), (3, 4), (5, 3), (4, 6)] {
            let t = tree(w, d, 0, 0, 1);
            let s = search::run(&t, &Algorithm::AlphaBeta { fail_soft: false }).unwrap();
            let minimal = crate::analyze::minimal_leaves(u64::from(w), d);
            assert_eq!(s.stats.leaves, minimal, "w = {w}, d = {d}");
            assert_eq!(
                s.value,
                search::Value::Scalar(0.0),
                "the root is worth the pv value 0"
            );
        }
    }

    #[test]
    fn the_root_value_and_the_changes_are_as_built() {
        for seed in 0..20 {
            let t = tree(5, 4, 2, 2, seed);
            let r = search::run(&t, &Algorithm::Minimax).unwrap();
            assert_eq!(r.value, search::Value::Scalar(0.0));
            // Exactly r + 1 of the root's children improve on all before them.
            let refs = search::Reference::of(&t, &Algorithm::Minimax);
            let mut best = f64::NEG_INFINITY;
            let mut improvements = 0;
            for c in t.children(t.root()) {
                let v = refs.get(c).scalar().unwrap();
                if v > best {
                    best = v;
                    improvements += 1;
                }
            }
            assert_eq!(improvements, 3, "seed {seed}");
        }
    }

    #[test]
    fn more_extra_expansions_cost_alpha_beta_more() {
        let leaves = |g| {
            let t = tree(6, 5, g, 1, 3);
            search::run(&t, &Algorithm::AlphaBeta { fail_soft: false })
                .unwrap()
                .stats
                .leaves
        };
        assert!(leaves(0) < leaves(2) && leaves(2) < leaves(4));
    }
}
