//! `gen multiplayer`: n players moving in turn (player 1 at the root), uniform branching b and
//! depth d, leaves payoff vectors of non-negative integers summing to a constant S — the trees
//! max^n's shallow pruning is defined on (Korf: a lower bound on each component, 0 here, and a
//! bound on their sum, S). Each vector is a uniformly random composition of S into n parts.

use super::{GenError, Rng, check_size, level_arena, level_sizes};
use crate::tree::{Kind, Meta, Tree};

/// The parameters of `gen multiplayer` (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Multiplayer {
    /// n, the number of players.
    pub players: u32,
    /// b, the children of every interior node.
    pub branching: u32,
    /// d, the depth of every leaf.
    pub depth: u32,
    /// The constant sum S of every payoff vector.
    pub sum: u32,
}

/// An n-player tree drawn with `seed`.
pub fn generate(p: &Multiplayer, seed: u64) -> Result<Tree, GenError> {
    if !(2..=255).contains(&p.players) {
        return Err(GenError::Invalid(format!(
            "{} players: prune handles 2 to 255",
            p.players
        )));
    }
    if p.branching == 0 {
        return Err(GenError::Invalid("branching must be at least 1".into()));
    }
    let n = p.players as usize;
    check_size(
        &format!(
            "a {n}-player tree with b = {}, d = {}",
            p.branching, p.depth
        ),
        super::count_levels(u64::from(p.depth), &[p.branching]),
        0,
    )?;
    let levels: Vec<(Kind, u32)> = (0..p.depth)
        .map(|k| (Kind::Player((k % p.players) as u8), p.branching))
        .collect();
    let sizes = level_sizes(&vec![p.branching; p.depth as usize]);
    let leaves = sizes
        .as_ref()
        .and_then(|s| s.last().copied())
        .unwrap_or(u64::MAX);
    check_size(
        &format!(
            "a {n}-player tree with b = {}, d = {}",
            p.branching, p.depth
        ),
        sizes.as_ref().map(|s| s.iter().sum()),
        leaves.saturating_mul(8 * n as u64),
    )?;
    let mut rng = Rng::new(seed);
    let mut payoffs = Vec::with_capacity(leaves as usize * n);
    let mut nodes = level_arena(&levels, |_| 0.0);
    let mut cuts = Vec::with_capacity(n + 1);
    for (row, node) in nodes
        .iter_mut()
        .filter(|a| a.kind == Kind::Leaf)
        .enumerate()
    {
        // Stars and bars: n − 1 distinct bars among S + n − 1 places.
        cuts.clear();
        cuts.push(-1i64);
        let places = u64::from(p.sum) + n as u64 - 1;
        while cuts.len() < n {
            let c = rng.below(places) as i64;
            if !cuts.contains(&c) {
                cuts.push(c);
            }
        }
        cuts.sort_unstable();
        cuts.push(places as i64);
        payoffs.extend(cuts.windows(2).map(|w| (w[1] - w[0] - 1) as f64));
        node.first = row as u32;
    }
    let meta = Meta {
        name: format!("{n}-player b={} d={} S={}", p.branching, p.depth, p.sum),
        description: format!(
            "prune gen multiplayer: {n} players in turn, payoffs non-negative integers summing to {}, seed {seed}",
            p.sum
        ),
        players: n as u8,
        payoff_floor: Some(0.0),
        payoff_sum: Some(f64::from(p.sum)),
        ..Meta::default()
    };
    Tree::from_arena(meta, true, nodes, payoffs).map_err(GenError::Invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payoffs_are_compositions_of_the_sum() {
        let t = generate(
            &Multiplayer {
                players: 3,
                branching: 2,
                depth: 5,
                sum: 10,
            },
            4,
        )
        .unwrap();
        assert_eq!(t.players(), 3);
        assert_eq!(t.kind(t.child(t.root(), 1)), Kind::Player(1));
        assert_eq!(
            t.kind(t.child(t.child(t.child(t.root(), 1), 0), 0)),
            Kind::Player(0)
        );
        for id in t.ids().filter(|&i| t.is_leaf(i)) {
            let v = t.payoff(id);
            assert_eq!(v.iter().sum::<f64>(), 10.0);
            assert!(v.iter().all(|&x| x >= 0.0 && x.fract() == 0.0));
        }
        assert_eq!(t.payoff_limits(), Some((0.0, 10.0, true)));
    }
}
