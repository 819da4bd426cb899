//! `gen chance`: random expectiminimax trees.
//!
//! - regular (default): Ballard's "regular" *-minimax trees — decision levels alternating Max
//!   and Min from a Max root, a chance level between every two (`+ * − * + …`), `depth`
//!   decision levels, the last one's children leaves. `--uneven` draws each chance node's
//!   probabilities (weights uniform in (0, 1], normalised) instead of making children equally
//!   likely.
//! - irregular: every node independently a leaf (never the root; always at the depth limit)
//!   or a Max, Min or chance node with 1..=b children, so chance nodes mix kinds below them,
//!   leaves sit at many depths and Star2 must fall back to Star1 in places.

use super::{GenError, Rng, Values, check_size, level_arena, level_sizes};
use crate::tree::{Draft, DraftNode, Kind, Meta, Tree};

/// The parameters of `gen chance` (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ChanceTree {
    /// Children of a decision node (at most this many when irregular).
    pub branching: u32,
    /// Children of a chance node (at most this many when irregular).
    pub chance_branching: u32,
    /// Regular: number of decision levels. Irregular: the depth limit.
    pub depth: u32,
    /// The leaf values.
    pub values: Values,
    /// Each chance node's probabilities drawn, instead of its children equally likely.
    pub uneven: bool,
    /// Every node independently a leaf or not (irregular), instead of Ballard's regular levels.
    pub irregular: bool,
}

/// A chance tree drawn with `seed`.
pub fn generate(p: &ChanceTree, seed: u64) -> Result<Tree, GenError> {
    if p.branching == 0 || p.chance_branching == 0 {
        return Err(GenError::Invalid("branching must be at least 1".into()));
    }
    p.values.check()?;
    let mut rng = Rng::new(seed);
    let meta = p.values.meta(
        format!("{} chance tree seed={seed}", if p.irregular { "irregular" } else { "regular" }),
        format!(
            "prune gen chance: {}, decision branching {}, chance branching {}, depth {}, {} probabilities, {}",
            if p.irregular { "irregular" } else { "regular (+ * - * ...)" },
            p.branching,
            p.chance_branching,
            p.depth,
            if p.uneven { "uneven" } else { "equal" },
            p.values.describe()
        ),
    );
    if p.irregular {
        return irregular(p, meta, &mut rng);
    }
    // Decision levels alternate with chance levels: 2d − 1 levels of interior nodes.
    check_size(
        &format!("a chance tree with depth {}", p.depth),
        super::count_levels(
            (2 * u64::from(p.depth)).saturating_sub(1),
            &[p.branching, p.chance_branching],
        ),
        0,
    )?;
    let mut levels = Vec::new();
    for i in 0..p.depth {
        levels.push((if i % 2 == 0 { Kind::Max } else { Kind::Min }, p.branching));
        if i + 1 < p.depth {
            levels.push((Kind::Chance, p.chance_branching));
        }
    }
    let branching: Vec<u32> = levels.iter().map(|l| l.1).collect();
    let sizes = level_sizes(&branching);
    check_size(
        &format!("a chance tree with depth {}", p.depth),
        sizes.as_ref().map(|s| s.iter().sum()),
        0,
    )?;
    let mut nodes = level_arena(&levels, |_| p.values.draw(&mut rng));
    if p.uneven {
        let mut weights = Vec::new();
        for i in 0..nodes.len() {
            if nodes[i].kind != Kind::Chance {
                continue;
            }
            let (first, len) = (nodes[i].first as usize, nodes[i].len as usize);
            weights.clear();
            weights.extend((0..len).map(|_| rng.unit_open0()));
            let total: f64 = weights.iter().sum();
            nodes[i].uniform = false;
            for (k, w) in weights.iter().enumerate() {
                nodes[first + k].prob = w / total;
            }
        }
    }
    Tree::from_arena(meta, false, nodes, Vec::new()).map_err(GenError::Invalid)
}

fn irregular(p: &ChanceTree, meta: Meta, rng: &mut Rng) -> Result<Tree, GenError> {
    let bound = super::size_bound(p.branching.max(p.chance_branching), p.depth);
    check_size(
        &format!("an irregular chance tree with depth {}", p.depth),
        bound,
        0,
    )?;
    let mut draft = Draft::new(meta);
    let mut pending: Vec<(u32, Option<f64>)> = vec![(0, None)]; // (depth, probability)
    let mut weights = Vec::new();
    while let Some((depth, prob)) = pending.pop() {
        let leaf = depth == p.depth || (depth > 0 && rng.chance(0.25));
        let mut node = if leaf {
            DraftNode::leaf(p.values.draw(rng))
        } else {
            let kind = [Kind::Max, Kind::Min, Kind::Chance][rng.below(3) as usize];
            let most = if kind == Kind::Chance {
                p.chance_branching
            } else {
                p.branching
            };
            let n = 1 + rng.below(u64::from(most)) as u32;
            if kind == Kind::Chance && p.uneven {
                weights.clear();
                weights.extend((0..n).map(|_| rng.unit_open0()));
                let total: f64 = weights.iter().sum();
                pending.extend(weights.iter().rev().map(|w| (depth + 1, Some(w / total))));
            } else {
                pending.extend((0..n).map(|_| (depth + 1, None)));
            }
            DraftNode::interior(kind, n)
        };
        node.prob = prob;
        draft.push(node);
    }
    draft.finish().map_err(|e| GenError::Invalid(e.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(irregular: bool, uneven: bool) -> ChanceTree {
        ChanceTree {
            branching: 3,
            chance_branching: 2,
            depth: 3,
            values: Values::integers(-5, 5),
            uneven,
            irregular,
        }
    }

    #[test]
    fn regular_trees_are_regular() {
        let t = generate(&params(false, false), 2).unwrap();
        let s = crate::tree::shape(&t);
        assert!(s.regular, "{:?}", s.irregular_because);
        assert_eq!(s.leaves, 3 * 2 * 3 * 2 * 3);
        assert_eq!(s.uneven_chance_nodes, 0);
    }

    #[test]
    fn uneven_probabilities_sum_to_one() {
        let t = generate(&params(false, true), 2).unwrap();
        for id in t.ids().filter(|&i| t.kind(i) == Kind::Chance) {
            assert!(!t.is_uniform(id));
            let sum: f64 = t.children(id).map(|c| t.prob(c)).sum();
            assert!((sum - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn irregular_trees_vary_and_are_deterministic() {
        let shapes: Vec<_> = (0..20)
            .map(|s| crate::tree::shape(&generate(&params(true, true), s).unwrap()))
            .collect();
        assert!(shapes.iter().any(|s| !s.regular));
        assert!(shapes.iter().any(|s| s.min_leaf_depth < s.depth));
        assert_eq!(
            generate(&params(true, true), 7).unwrap(),
            generate(&params(true, true), 7).unwrap()
        );
    }
}
