//! `gen random`: two-player trees of random shape, for testing searches on what a human would
//! not draw — branching anywhere in `min..=max` (1 gives unary chains), leaves at any depth, and
//! optionally kinds that do not alternate (`mixed`: Max below Max is allowed).

use super::{GenError, Rng, Values, check_size};
use crate::tree::{Draft, DraftNode, Kind, Tree};

/// The parameters of `gen random` (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RandomShape {
    /// The fewest children of an interior node.
    pub min_branching: u32,
    /// The most children of an interior node.
    pub max_branching: u32,
    /// Depth limit; every path ends in a leaf by then.
    pub depth: u32,
    /// Probability that a non-root node above the depth limit is a leaf.
    pub leaf_probability: f64,
    /// The leaf values.
    pub values: Values,
    /// Kinds drawn at random instead of alternating from a Max root.
    pub mixed: bool,
}

/// A random-shaped tree drawn with `seed`.
pub fn generate(p: &RandomShape, seed: u64) -> Result<Tree, GenError> {
    if p.min_branching == 0 || p.min_branching > p.max_branching {
        return Err(GenError::Invalid(format!(
            "branching range {}..={} is empty (the smallest is 1)",
            p.min_branching, p.max_branching
        )));
    }
    if !(0.0..=1.0).contains(&p.leaf_probability) {
        return Err(GenError::Invalid(format!(
            "leaf probability {} is not a probability",
            p.leaf_probability
        )));
    }
    p.values.check()?;
    let bound = super::size_bound(p.max_branching, p.depth);
    check_size(
        &format!(
            "a random tree with branching up to {} and depth {}",
            p.max_branching, p.depth
        ),
        bound,
        0,
    )?;
    let mut rng = Rng::new(seed);
    let meta = p.values.meta(
        format!("random shape seed={seed}"),
        format!(
            "prune gen random: branching {}..={}, depth up to {}, leaf probability {}, {} kinds, {}",
            p.min_branching,
            p.max_branching,
            p.depth,
            p.leaf_probability,
            if p.mixed { "mixed" } else { "alternating" },
            p.values.describe()
        ),
    );
    let mut draft = Draft::new(meta);
    let mut pending: Vec<(u32, Kind)> = vec![(0, Kind::Max)]; // (depth, kind if interior)
    while let Some((depth, kind)) = pending.pop() {
        if depth == p.depth || (depth > 0 && rng.chance(p.leaf_probability)) {
            draft.push(DraftNode::leaf(p.values.draw(&mut rng)));
            continue;
        }
        let span = u64::from(p.max_branching - p.min_branching) + 1;
        let n = p.min_branching + rng.below(span) as u32;
        draft.push(DraftNode::interior(kind, n));
        for _ in 0..n {
            let next = if p.mixed {
                if rng.chance(0.5) {
                    Kind::Max
                } else {
                    Kind::Min
                }
            } else if kind == Kind::Max {
                Kind::Min
            } else {
                Kind::Max
            };
            pending.push((depth + 1, next));
        }
    }
    draft.finish().map_err(|e| GenError::Invalid(e.message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unary_chains_and_mixed_kinds() {
        let p = RandomShape {
            min_branching: 1,
            max_branching: 1,
            depth: 50,
            leaf_probability: 0.0,
            values: Values::integers(0, 3),
            mixed: false,
        };
        let t = generate(&p, 1).unwrap();
        assert_eq!(t.len(), 51);
        let p = RandomShape {
            min_branching: 1,
            max_branching: 3,
            depth: 6,
            leaf_probability: 0.2,
            values: Values::integers(0, 3),
            mixed: true,
        };
        let any_same = (0..30).any(|s| {
            let t = generate(&p, s).unwrap();
            t.ids()
                .any(|i| t.parent(i).is_some_and(|q| t.kind(q) == t.kind(i)))
        });
        assert!(any_same, "mixed kinds put Max under Max somewhere");
    }
}
