//! `gen uniform`: every interior node has `b` children, every leaf is at depth `d`, Max at the
//! root and levels alternating.
//!
//! - `random`: leaf values drawn independently, left to right.
//! - `best`: the same leaves with every node's children sorted best-first (Max descending, Min
//!   ascending, ties in their random order). Alpha-beta then visits exactly the Knuth–Moore
//!   minimal tree, b^⌈d/2⌉ + b^⌊d/2⌋ − 1 leaves.
//! - `worst`: sorting worst-first is not enough to defeat alpha-beta (a node deep in the tree
//!   can still fall outside the window an ancestor set), so these trees are built top-down so
//!   that every node's value lies strictly inside the window alpha-beta will search it with:
//!   a Max node's children have increasing values ending at its own, a Min node's decreasing.
//!   No cutoff can happen and every one of the b^d leaves is evaluated. This needs distinct
//!   values; with integers the range must be wide enough, else the generator says so.

use super::{GenError, Rng, Values, check_size, from_levels, level_arena, level_sizes};
use crate::tree::{Kind, Tree};

/// The order of a uniform tree's children.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Leaf values drawn independently, left to right.
    Random,
    /// The same leaves, every node's children best first.
    Best,
    /// Leaves arranged so that alpha-beta searches every leaf (see the module documentation).
    Worst,
}

/// The parameters of `gen uniform`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Uniform {
    /// b, the children of every interior node.
    pub branching: u32,
    /// d, the depth of every leaf.
    pub depth: u32,
    /// The leaf values.
    pub values: Values,
    /// The order of the children.
    pub order: Order,
}

/// A uniform tree drawn with `seed`: the same seed gives the same tree on every machine.
///
/// ```
/// use prune::generate::{Values, uniform};
///
/// let shape = uniform::Uniform {
///     branching: 3,
///     depth: 4,
///     values: Values::integers(0, 99),
///     order: uniform::Order::Random,
/// };
/// let tree = uniform::generate(&shape, 42)?;
/// assert_eq!((tree.len(), tree.leaf_count()), (121, 81));
/// assert_eq!(tree, uniform::generate(&shape, 42)?);
/// # Ok::<(), prune::generate::GenError>(())
/// ```
pub fn generate(p: &Uniform, seed: u64) -> Result<Tree, GenError> {
    if p.branching == 0 {
        return Err(GenError::Invalid("branching must be at least 1".into()));
    }
    p.values.check()?;
    check_size(
        &format!("a uniform tree with b = {}, d = {}", p.branching, p.depth),
        super::count_levels(u64::from(p.depth), &[p.branching]),
        0,
    )?;
    let levels: Vec<(Kind, u32)> = (0..p.depth)
        .map(|k| (if k % 2 == 0 { Kind::Max } else { Kind::Min }, p.branching))
        .collect();
    let branching: Vec<u32> = levels.iter().map(|l| l.1).collect();
    let sizes = level_sizes(&branching);
    let what = format!("a uniform tree with b = {}, d = {}", p.branching, p.depth);
    check_size(&what, sizes.as_ref().map(|s| s.iter().sum()), 0)?;
    let sizes = sizes.expect("checked");
    let leaves = *sizes.last().expect("at least the root level") as usize;
    let mut rng = Rng::new(seed);
    let values = match p.order {
        Order::Random => (0..leaves).map(|_| p.values.draw(&mut rng)).collect(),
        Order::Best => {
            let random: Vec<f64> = (0..leaves).map(|_| p.values.draw(&mut rng)).collect();
            best_first(&random, p.branching as usize, p.depth as usize)
        }
        Order::Worst => worst_case(p, &mut rng)?,
    };
    let order = match p.order {
        Order::Random => "random order",
        Order::Best => "perfectly ordered (best first)",
        Order::Worst => "worst order (no cutoff possible)",
    };
    let meta = p.values.meta(
        format!("uniform b={} d={} seed={seed}", p.branching, p.depth),
        format!(
            "prune gen uniform: branching {}, depth {}, {}, {order}",
            p.branching,
            p.depth,
            p.values.describe()
        ),
    );
    Ok(from_levels(meta, level_arena(&levels, |j| values[j])))
}

/// Reorders a uniform tree's leaves (given left to right) so that every node's children are
/// sorted best-first. Works on per-level arrays: minimax values bottom-up, then the new order
/// of each level top-down from the sorted children of the level above.
pub(crate) fn best_first(leaves: &[f64], b: usize, d: usize) -> Vec<f64> {
    // values[k] holds the minimax values of level k, left to right.
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); d + 1];
    values[d] = leaves.to_vec();
    for k in (0..d).rev() {
        let max = k % 2 == 0;
        values[k] = values[k + 1]
            .chunks(b)
            .map(|c| {
                c.iter().copied().fold(
                    if max {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    },
                    if max { f64::max } else { f64::min },
                )
            })
            .collect();
    }
    // order[j] = old index, at the current level, of the node now at position j.
    let mut order: Vec<u32> = vec![0];
    let mut kids: Vec<u32> = Vec::with_capacity(b);
    for k in 0..d {
        let max = k % 2 == 0;
        let below = &values[k + 1];
        let mut next = Vec::with_capacity(order.len() * b);
        for &old in &order {
            kids.clear();
            kids.extend((0..b as u32).map(|i| old * b as u32 + i));
            // Stable: ties keep their random order.
            if max {
                kids.sort_by(|&x, &y| below[y as usize].total_cmp(&below[x as usize]));
            } else {
                kids.sort_by(|&x, &y| below[x as usize].total_cmp(&below[y as usize]));
            }
            next.extend_from_slice(&kids);
        }
        order = next;
    }
    order.iter().map(|&o| leaves[o as usize]).collect()
}

/// Leaf values of a uniform tree that alpha-beta must search completely (see module docs).
/// Built with reals; integer trees then take each leaf's rank, spread evenly over `lo..=hi`,
/// which keeps every comparison between leaves and so every step of the search.
fn worst_case(p: &Uniform, rng: &mut Rng) -> Result<Vec<f64>, GenError> {
    let b = p.branching as usize;
    let leaves = (p.branching as usize).pow(p.depth);
    let too_narrow = || {
        GenError::Invalid(format!(
            "worst-case ordering needs {leaves} distinct leaf values and {}..={} has fewer; widen it or use --real",
            p.values.lo, p.values.hi
        ))
    };
    if !p.values.real && p.values.hi - p.values.lo + 1.0 < leaves as f64 {
        return Err(too_narrow());
    }
    let (lo, hi) = if p.values.real {
        (p.values.lo, p.values.hi)
    } else {
        (0.0, 1.0)
    };
    // Open window (a, z) and value v of every node of the current level, left to right.
    let mut level: Vec<(f64, f64, f64)> = vec![(lo, hi, rng.real(lo, hi))];
    let mut draws = Vec::with_capacity(b);
    for k in 0..p.depth {
        let max = k % 2 == 0;
        let mut next = Vec::with_capacity(level.len() * b);
        for &(a, z, v) in &level {
            // Max: b − 1 values in (a, v), increasing, then v; Min: in (v, z), decreasing, then v.
            let (from, to) = if max { (a, v) } else { (v, z) };
            draws.clear();
            draws.extend((1..b).map(|_| from + (to - from) * rng.unit_open0()));
            draws.sort_by(f64::total_cmp);
            if !max {
                draws.reverse();
            }
            draws.push(v);
            let strict = draws.iter().all(|&x| x > a && x < z)
                && draws
                    .windows(2)
                    .all(|w| if max { w[0] < w[1] } else { w[0] > w[1] });
            if !strict {
                return Err(GenError::Invalid(format!(
                    "worst-case ordering ran out of floating-point precision at depth {k}; use a smaller depth"
                )));
            }
            for i in 0..b {
                let window = match (max, i) {
                    (_, 0) => (a, z),
                    (true, _) => (draws[i - 1], z),
                    (false, _) => (a, draws[i - 1]),
                };
                next.push((window.0, window.1, draws[i]));
            }
        }
        level = next;
    }
    let values: Vec<f64> = level.into_iter().map(|(_, _, v)| v).collect();
    if p.values.real {
        return Ok(values);
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&x, &y| values[x].total_cmp(&values[y]));
    let mut ranked = vec![0.0; values.len()];
    let step = if leaves > 1 {
        ((p.values.hi - p.values.lo) / (leaves - 1) as f64).floor()
    } else {
        0.0
    };
    for (r, &i) in order.iter().enumerate() {
        ranked[i] = p.values.lo + r as f64 * step;
    }
    Ok(ranked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen_tree(b: u32, d: u32, order: Order, real: bool) -> Tree {
        let values = if real {
            Values {
                lo: 0.0,
                hi: 1.0,
                real,
            }
        } else {
            Values::integers(0, 9)
        };
        generate(
            &Uniform {
                branching: b,
                depth: d,
                values,
                order,
            },
            5,
        )
        .unwrap()
    }

    #[test]
    fn shape_and_determinism() {
        let t = gen_tree(3, 4, Order::Random, false);
        assert_eq!(t.len(), 1 + 3 + 9 + 27 + 81);
        assert_eq!(t.leaf_count(), 81);
        assert_eq!(t, gen_tree(3, 4, Order::Random, false));
        assert_ne!(
            t,
            generate(
                &Uniform {
                    branching: 3,
                    depth: 4,
                    values: Values::integers(0, 9),
                    order: Order::Random
                },
                6
            )
            .unwrap()
        );
        let leaf = t.child(t.child(t.child(t.child(t.root(), 2), 1), 0), 2);
        assert_eq!(t.kind(t.parent(leaf).unwrap()), Kind::Min);
        assert!(t.is_leaf(leaf));
    }

    #[test]
    fn best_first_sorts_children_and_keeps_the_multiset() {
        let r = gen_tree(3, 4, Order::Random, false);
        let b = gen_tree(3, 4, Order::Best, false);
        let mut lr: Vec<f64> = r
            .ids()
            .filter(|&i| r.is_leaf(i))
            .map(|i| r.value(i))
            .collect();
        let mut lb: Vec<f64> = b
            .ids()
            .filter(|&i| b.is_leaf(i))
            .map(|i| b.value(i))
            .collect();
        lr.sort_by(f64::total_cmp);
        lb.sort_by(f64::total_cmp);
        assert_eq!(lr, lb);
        // Every Min node above leaves: children ascending.
        for id in b
            .ids()
            .filter(|&i| b.kind(i) == Kind::Min && b.is_leaf(b.child(i, 0)))
        {
            let v: Vec<f64> = b.children(id).map(|c| b.value(c)).collect();
            assert!(v.windows(2).all(|w| w[0] <= w[1]), "{v:?}");
        }
    }

    #[test]
    fn worst_needs_room_with_integers() {
        let values = Values::integers(0, 9);
        let e = generate(
            &Uniform {
                branching: 4,
                depth: 6,
                values,
                order: Order::Worst,
            },
            1,
        )
        .unwrap_err();
        assert!(e.to_string().contains("4096 distinct leaf values"), "{e}");
        let t = generate(
            &Uniform {
                branching: 2,
                depth: 4,
                values: Values::integers(1, 40),
                order: Order::Worst,
            },
            1,
        )
        .unwrap();
        let mut leaves: Vec<f64> = t
            .ids()
            .filter(|&i| t.is_leaf(i))
            .map(|i| t.value(i))
            .collect();
        leaves.sort_by(f64::total_cmp);
        leaves.dedup();
        assert_eq!(leaves.len(), 16, "distinct integers");
        assert_eq!(gen_tree(3, 5, Order::Worst, true).leaf_count(), 243);
    }

    #[test]
    fn refuses_absurd_sizes_before_allocating() {
        let p = Uniform {
            branching: 1000,
            depth: 9,
            values: Values::integers(0, 9),
            order: Order::Random,
        };
        assert!(matches!(generate(&p, 0), Err(GenError::TooLarge(_))));
        let p = Uniform {
            branching: u32::MAX,
            depth: 40,
            ..p
        };
        assert!(matches!(generate(&p, 0), Err(GenError::TooLarge(_))));
    }
}
