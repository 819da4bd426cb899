//! `gen star-complete`: Ballard's *-complete N-ary trees (Ballard 1982, §6).
//!
//! A complete N-ary minimax tree of depth D with a chance node inserted above every decision
//! node: depth 2D, levels `* + * − * + …`, N^(2D) leaves. Leaf values follow Fuller, Gaschnig
//! and Gillogly: each arc carries a value and a leaf's value is the sum of the arcs on its path.
//! Arcs below − nodes are 0, 1, …, N−1; below + nodes 0, −1, …, −(N−1); below * nodes
//! −N/2, …, −1, 1, …, N/2 for even N. Ballard assumes N even; for odd N we use
//! −(N−1)/2, …, 0, …, (N−1)/2, which keeps what the paper wants of these arcs (distinct, evenly
//! spaced, averaging 0).
//!
//! `critical` gives the 2-ply subtree of §6 (Figure 8): `+ → * → − → leaf`, N³ leaves, with the
//! bounds the paper uses, U = 3N/2 − 1 and L = −U (for odd N, the same sums of extreme arcs).
//!
//! Orders: `random` — an independent uniformly random permutation of the arcs at every node
//! (§6.2.1); `best` — §6.1's best case: + and − nodes best child first (arcs 0, −1, … and
//! 0, 1, …), and * nodes with the values that cut off soonest first: ascending below a * whose
//! children are − nodes (Star1's cutoff there is `v ≤ A`), descending when they are + nodes.

use super::{GenError, Rng, check_size, from_levels, level_arena, level_sizes};
use crate::tree::{Bounds, Kind, Meta, NodeId, Tree};

/// The order of a *-complete tree's arcs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StarOrder {
    /// Each node's arcs in an independent random order (§6.2.1).
    Random,
    /// §6.1's best case: the arcs that cut off soonest first.
    Best,
}

/// The parameters of `gen star-complete` (Ballard's *-complete N-ary tree).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StarComplete {
    /// N, the branching factor of every node.
    pub branching: u32,
    /// D, the depth of the underlying minimax tree (the tree has depth 2D).
    pub depth: u32,
    /// The order of the arcs.
    pub order: StarOrder,
    /// The 2-ply critical subtree `+ → * → − → leaf` instead of the full tree.
    pub critical: bool,
    /// Label every node with the value of the arc above it.
    pub labels: bool,
}

/// The arc values below a node of `kind` with `n` children, in best-first order for that
/// kind (see the module docs for `*`).
pub fn arcs(kind: Kind, n: u32, star_children_max: bool) -> Vec<i64> {
    let n = i64::from(n);
    match kind {
        Kind::Max => (0..n).map(|i| -i).collect(),
        Kind::Min => (0..n).collect(),
        Kind::Chance => {
            let mut a: Vec<i64> = if n % 2 == 0 {
                (-n / 2..=n / 2).filter(|&x| x != 0).collect()
            } else {
                (-(n - 1) / 2..=(n - 1) / 2).collect()
            };
            if star_children_max {
                a.reverse();
            }
            a
        }
        _ => unreachable!("*-complete trees have +, − and * nodes"),
    }
}

/// The kinds of the levels, top down.
fn levels(p: &StarComplete) -> Vec<Kind> {
    if p.critical {
        return vec![Kind::Max, Kind::Chance, Kind::Min];
    }
    (0..2 * p.depth)
        .map(|k| {
            if k % 2 == 0 {
                Kind::Chance
            } else if (k / 2) % 2 == 0 {
                Kind::Max
            } else {
                Kind::Min
            }
        })
        .collect()
}

/// A *-complete tree; `seed` draws the random order.
pub fn generate(p: &StarComplete, seed: u64) -> Result<Tree, GenError> {
    let n = p.branching;
    if n < 1 {
        return Err(GenError::Invalid("N must be at least 1".into()));
    }
    // Depth 0 would be a lone leaf: no arc, no level, none of the tree Ballard describes.
    if p.depth == 0 && !p.critical {
        return Err(GenError::Invalid(
            "D must be at least 1 (the tree has depth 2D: a * level above each + or − level)"
                .into(),
        ));
    }
    let depth = if p.critical {
        3
    } else {
        2 * u64::from(p.depth)
    };
    check_size(
        &format!("a *-complete tree with N = {n}, depth {depth}"),
        super::count_levels(depth, &[n]),
        0,
    )?;
    let kinds = levels(p);
    let layout: Vec<(Kind, u32)> = kinds.iter().map(|&k| (k, n)).collect();
    let sizes = level_sizes(&vec![n; kinds.len()]);
    let what = format!("a *-complete tree with N = {n}, depth {}", kinds.len());
    check_size(&what, sizes.as_ref().map(|s| s.iter().sum()), 0)?;
    // The leaves' values (the sums of the arcs down to them) and, for labels, the arc into
    // every node, level by level as the arena numbers them.
    let mut values: Vec<i64> = Vec::new();
    let mut arc_in: Vec<i64> = vec![0];
    draw_arcs(p, &kinds, seed, |level, sum, arcs| {
        if level + 1 == kinds.len() {
            values.extend(arcs.iter().map(|a| sum + a));
        }
        if p.labels {
            arc_in.extend_from_slice(arcs);
        }
    });
    let (lo, hi) = kinds
        .iter()
        .enumerate()
        .fold((0i64, 0i64), |(lo, hi), (k, &kind)| {
            let a = arcs(kind, n, kinds.get(k + 1) == Some(&Kind::Max));
            (
                lo + a.iter().min().expect("n >= 1"),
                hi + a.iter().max().expect("n >= 1"),
            )
        });
    let meta = Meta {
        name: if p.critical {
            format!("*-complete critical 2-ply, N={n}")
        } else {
            format!("*-complete N={n} D={}", p.depth)
        },
        description: description(p, seed),
        players: 2,
        bounds: Some(Bounds {
            lo: lo as f64,
            hi: hi as f64,
        }),
        ..Meta::default()
    };
    let tree = from_levels(meta, level_arena(&layout, |j| values[j] as f64));
    if !p.labels {
        return Ok(tree);
    }
    // Arena ids run level by level in the same left-to-right order as `arc_in`.
    Ok(tree.with_labels(|id: NodeId| {
        (id != NodeId::ROOT).then(|| format!("{:+}", arc_in[id.index()]))
    }))
}

/// The random draws a *-complete tree is made of, in the one order [`generate`] and [`redraw`]
/// both make them: level by level, left to right, each node's arcs to its children (its
/// level's base arcs, shuffled in random order). `each(level, sum, arcs)` gets the arcs below
/// one node of `level` (0: the root's children), whose own arcs from the root add up to `sum`.
fn draw_arcs(
    p: &StarComplete,
    kinds: &[Kind],
    seed: u64,
    mut each: impl FnMut(usize, i64, &[i64]),
) {
    let mut rng = Rng::new(seed);
    let mut sums: Vec<i64> = vec![0];
    let mut ordered = Vec::new();
    for (k, &kind) in kinds.iter().enumerate() {
        let base = arcs(kind, p.branching, kinds.get(k + 1) == Some(&Kind::Max));
        // The leaves' sums are the caller's: only the interior levels' are kept.
        let last = k + 1 == kinds.len();
        let mut next = Vec::with_capacity(if last { 0 } else { sums.len() * base.len() });
        for &s in &sums {
            ordered.clear();
            ordered.extend_from_slice(&base);
            if p.order == StarOrder::Random {
                rng.shuffle(&mut ordered);
            }
            each(k, s, &ordered);
            if !last {
                next.extend(ordered.iter().map(|a| s + a));
            }
        }
        sums = next;
    }
}

fn description(p: &StarComplete, seed: u64) -> String {
    format!(
        "prune gen star-complete: Ballard 1982 §6, {} order{}, FGG arc-sum leaf values",
        if p.order == StarOrder::Best {
            "best (§6.1)"
        } else {
            "random (§6.2.1)"
        },
        if p.order == StarOrder::Random {
            format!(", seed {seed}")
        } else {
            String::new()
        }
    )
}

/// Turns `tree`, a tree [`generate`] made with `p` (without labels) and any seed, into the one
/// it makes with `seed`: the same draws, written into the leaves' values, with no tree laid
/// out or allocated — what an experiment searching thousands of them needs (each fresh tree's
/// pages were faulted in anew). Refuses a tree of another shape.
pub fn redraw(p: &StarComplete, seed: u64, tree: &mut Tree) -> Result<(), GenError> {
    let n = p.branching as usize;
    let kinds = levels(p);
    let nodes = super::count_levels(kinds.len() as u64, &[p.branching]);
    let ours = tree.meta().bounds.is_some() && !tree.has_labels() && !tree.is_multiplayer();
    if n < 1
        || !ours
        || nodes != Some(tree.len() as u64)
        || kinds.first() != Some(&tree.kind(tree.root()))
    {
        return Err(GenError::Invalid(
            "only a *-complete tree of the same parameters can be redrawn".into(),
        ));
    }
    // The leaves are the last ids, written in the order their arcs are drawn.
    let leaves = n.pow(kinds.len() as u32);
    tree.set_values(|values| {
        let first = values.len() - leaves;
        let mut leaf = values[first..].iter_mut();
        draw_arcs(p, &kinds, seed, |level, sum, arcs| {
            if level + 1 == kinds.len() {
                // `arcs` first: it ends the zip before another leaf is taken.
                for (a, v) in arcs.iter().zip(leaf.by_ref()) {
                    *v = (sum + a) as f64;
                }
            }
        });
    });
    tree.meta_mut().description = description(p, seed);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn critical(n: u32, order: StarOrder) -> Tree {
        generate(
            &StarComplete {
                branching: n,
                depth: 2,
                order,
                critical: true,
                labels: true,
            },
            3,
        )
        .unwrap()
    }

    #[test]
    fn fgg_values_of_the_binary_critical_tree_by_hand() {
        // N = 2, best order. + arcs 0, −1; * arcs (children −) ascending −1, +1; − arcs 0, 1.
        // Leaves, left to right: 0−1+0, 0−1+1, 0+1+0, 0+1+1, −1−1+0, −1−1+1, −1+1+0, −1+1+1.
        let t = critical(2, StarOrder::Best);
        let leaves: Vec<f64> = t
            .preorder()
            .filter(|&i| t.is_leaf(i))
            .map(|i| t.value(i))
            .collect();
        assert_eq!(leaves, vec![-1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0]);
        // U = 3N/2 − 1 = 2, L = −U.
        assert_eq!(t.meta().bounds, Some(Bounds { lo: -2.0, hi: 2.0 }));
        assert_eq!(t.label(t.child(t.root(), 1)), Some("-1"));
    }

    #[test]
    fn star_nodes_average_to_their_arc() {
        // Each * node's value is the + arc above it: 0, −1, …, −(N−1) (§6.2.2).
        for order in [StarOrder::Best, StarOrder::Random] {
            let t = critical(6, order);
            let mut got: Vec<f64> = t
                .children(t.root())
                .map(|star| {
                    t.children(star)
                        .map(|m| {
                            t.children(m)
                                .map(|l| t.value(l))
                                .fold(f64::INFINITY, f64::min)
                        })
                        .sum::<f64>()
                        / 6.0
                })
                .collect();
            got.sort_by(|a, b| b.total_cmp(a));
            assert_eq!(got, vec![0.0, -1.0, -2.0, -3.0, -4.0, -5.0]);
        }
    }

    /// A tree redrawn with a seed is the tree generated with it, whatever it was before.
    #[test]
    fn redrawn_trees_are_generated_trees() {
        for (critical, depth, n) in [(true, 2, 2), (true, 2, 5), (true, 2, 8), (false, 2, 3)] {
            for order in [StarOrder::Random, StarOrder::Best] {
                let p = StarComplete {
                    branching: n,
                    depth,
                    order,
                    critical,
                    labels: false,
                };
                let mut tree = generate(&p, 1).unwrap();
                for seed in [2, 3, 1, 99] {
                    redraw(&p, seed, &mut tree).unwrap();
                    assert_eq!(tree, generate(&p, seed).unwrap(), "N = {n}, seed {seed}");
                    assert!(tree.simple_fractions() && tree.is_integral());
                }
            }
        }
        let p = |n| StarComplete {
            branching: n,
            depth: 2,
            order: StarOrder::Random,
            critical: true,
            labels: false,
        };
        let mut other = generate(&p(4), 1).unwrap();
        assert!(redraw(&p(6), 1, &mut other).is_err());
    }

    #[test]
    fn bounds_for_even_and_odd_n() {
        assert_eq!(
            critical(40, StarOrder::Best).meta().bounds,
            Some(Bounds {
                lo: -59.0,
                hi: 59.0
            })
        );
        assert_eq!(
            critical(5, StarOrder::Best).meta().bounds,
            Some(Bounds { lo: -6.0, hi: 6.0 })
        );
        assert_eq!(arcs(Kind::Chance, 5, false), vec![-2, -1, 0, 1, 2]);
    }

    #[test]
    fn full_tree_levels_and_size() {
        let t = generate(
            &StarComplete {
                branching: 3,
                depth: 2,
                order: StarOrder::Random,
                critical: false,
                labels: false,
            },
            9,
        )
        .unwrap();
        assert_eq!(t.leaf_count(), 81);
        assert_eq!(t.kind(t.root()), Kind::Chance);
        assert_eq!(t.kind(t.child(t.root(), 0)), Kind::Max);
        assert_eq!(
            t.kind(t.child(t.child(t.child(t.root(), 0), 0), 0)),
            Kind::Min
        );
        let s = crate::tree::shape(&t);
        assert!(s.regular);
        assert_eq!(s.depth, 4);
        // * arcs ±1 twice, + arc ≤ 0, − arc ≤ 2: U = 1 + 0 + 1 + 2 = 4, L = −1 − 2 − 1 + 0 = −4.
        assert_eq!(t.meta().bounds, Some(Bounds { lo: -4.0, hi: 4.0 }));
    }
}
