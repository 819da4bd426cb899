//! Seeded tree generators: `prune gen FAMILY`.
//!
//! Every family is a function from its parameters and a `u64` seed to a [`Tree`]; the same seed
//! gives the same tree everywhere (see [`rng`]). Families whose trees are uniform (every node of
//! a level has the same kind and branching) are laid out level by level directly in the arena,
//! which is what makes a 10^7-node tree quick to generate; irregular families go through
//! [`crate::tree::Draft`]. Every family checks the size of what it is asked for before
//! allocating anything.

pub mod chance;
pub mod game;
pub mod multiplayer;
pub mod ordered;
pub mod random;
pub mod rng;
pub mod spec;
pub mod star;
pub mod uniform;
pub mod winloss;

pub use rng::Rng;
pub use spec::Spec;

use crate::tree::{ArenaNode, Bounds, Kind, MAX_NODES, Meta, Tree};

/// Why a generator refused its parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenError {
    /// The tree would not fit (in ids or in memory).
    #[error("{0}")]
    TooLarge(String),
    /// The parameters do not describe a tree.
    #[error("{0}")]
    Invalid(String),
}

/// Leaf values: integers in `lo..=hi`, or reals in `[lo, hi)`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Values {
    /// The lowest value.
    pub lo: f64,
    /// The highest value (included for integers, excluded for reals).
    pub hi: f64,
    /// Reals in `[lo, hi)` rather than integers in `lo..=hi`.
    pub real: bool,
}

impl Values {
    /// Integers in `lo..=hi`.
    pub fn integers(lo: i64, hi: i64) -> Self {
        Values {
            lo: lo as f64,
            hi: hi as f64,
            real: false,
        }
    }

    /// Refuses bounds that are not finite or not in order.
    pub fn check(&self) -> Result<(), GenError> {
        if !(self.lo.is_finite() && self.hi.is_finite() && self.lo <= self.hi) {
            return Err(GenError::Invalid(format!(
                "leaf values need lo <= hi, not {}..{}",
                self.lo, self.hi
            )));
        }
        if !self.real && (self.lo.fract() != 0.0 || self.hi.fract() != 0.0) {
            return Err(GenError::Invalid(
                "integer leaf values need integer bounds (or use --real)".into(),
            ));
        }
        if self.lo.abs() > 1e15 || self.hi.abs() > 1e15 {
            return Err(GenError::Invalid(
                "leaf value bounds must lie within ±10^15".into(),
            ));
        }
        Ok(())
    }

    /// "integer leaf values in 0..99" — for descriptions.
    pub fn describe(&self) -> String {
        let kind = if self.real { "real" } else { "integer" };
        format!("{kind} leaf values in {}..{}", self.lo, self.hi)
    }

    /// Metadata of a two-player tree whose declared bounds are these values' range.
    pub fn meta(&self, name: String, description: String) -> Meta {
        Meta {
            name,
            description,
            players: 2,
            bounds: Some(Bounds {
                lo: self.lo,
                hi: self.hi,
            }),
            ..Meta::default()
        }
    }

    /// One value, drawn from `rng`.
    #[inline]
    pub fn draw(&self, rng: &mut Rng) -> f64 {
        if self.real {
            rng.real(self.lo, self.hi)
        } else {
            rng.int(self.lo as i64, self.hi as i64) as f64
        }
    }
}

/// Number of nodes of a uniform tree with per-level branching factors, or `None` on overflow.
pub fn level_sizes(branching: &[u32]) -> Option<Vec<u64>> {
    let mut sizes = vec![1u64];
    for &b in branching {
        let next = sizes.last()?.checked_mul(u64::from(b))?;
        sizes.push(next);
    }
    sizes.iter().try_fold(0u64, |acc, &s| acc.checked_add(s))?;
    Some(sizes)
}

/// The nodes of a tree with `levels` levels of interior nodes whose branching factors repeat
/// `pattern` (level k has `pattern[k % len]` children a node), counted arithmetically, with no
/// allocation and in a handful of steps whatever the depth; `None` when the count exceeds what
/// a tree can hold. Every family checks this before building anything.
pub fn count_levels(levels: u64, pattern: &[u32]) -> Option<u64> {
    let limit = MAX_NODES as u64;
    if pattern.iter().all(|&b| b == 1) {
        // A chain: one node a level, and the leaf.
        return levels.checked_add(1).filter(|&n| n <= limit);
    }
    let (mut size, mut total) = (1u64, 1u64);
    for k in 0..levels {
        let b = u64::from(pattern[(k % pattern.len() as u64) as usize]);
        size = size.checked_mul(b)?;
        if size == 0 {
            break;
        }
        total = total.checked_add(size)?;
        // Some factor is at least 2, so this ends within about 64 patterns.
        if total > limit {
            return None;
        }
    }
    Some(total)
}

/// An upper bound on the nodes of a tree of depth at most `depth` whose nodes have at most
/// `widest` children (random shapes): `None` when it exceeds what a tree can hold.
pub fn size_bound(widest: u32, depth: u32) -> Option<u64> {
    count_levels(u64::from(depth), &[widest.max(1)])
}

/// Refuses a tree of `nodes` nodes (plus `extra` bytes) that cannot have ids or memory.
pub fn check_size(what: &str, nodes: Option<u64>, extra: u64) -> Result<u64, GenError> {
    let Some(nodes) = nodes else {
        return Err(GenError::TooLarge(format!(
            "{what} has more nodes than can be counted"
        )));
    };
    if nodes > MAX_NODES as u64 {
        return Err(GenError::TooLarge(format!(
            "{what} has {nodes} nodes; prune trees hold at most {MAX_NODES}"
        )));
    }
    // The arena (32 bytes a node) and the generator's working arrays (about as much again).
    let bytes = nodes.saturating_mul(64).saturating_add(extra);
    if let Some((room, limit)) = crate::memory::headroom()
        && bytes > room
    {
        return Err(GenError::TooLarge(format!(
            "{what} has {nodes} nodes and needs about {} of memory; {limit} leaves {}",
            human_bytes(bytes),
            human_bytes(room)
        )));
    }
    Ok(nodes)
}

pub use crate::memory::human_bytes;

/// A uniform tree laid out level by level: `levels[k]` is the kind and branching factor of the
/// nodes at depth `k`; the last level's children are leaves, whose values come from `leaf`
/// (called left to right). Chance nodes get equally likely children.
pub(crate) fn level_arena(
    levels: &[(Kind, u32)],
    mut leaf: impl FnMut(usize) -> f64,
) -> Vec<ArenaNode> {
    let branching: Vec<u32> = levels.iter().map(|&(_, b)| b).collect();
    let sizes = level_sizes(&branching).expect("size checked by the caller");
    let total: u64 = sizes.iter().sum();
    let mut nodes = Vec::with_capacity(total as usize);
    let mut offset = 0u64; // first id of the current level
    for (k, &size) in sizes.iter().enumerate() {
        let next_offset = offset + size;
        let parent_b = if k == 0 {
            1
        } else {
            u64::from(levels[k - 1].1)
        };
        let parent_offset = offset - if k == 0 { 0 } else { sizes[k - 1] };
        let prob = if k > 0 && levels[k - 1].0 == Kind::Chance {
            1.0 / parent_b as f64
        } else {
            1.0
        };
        for j in 0..size {
            let parent = if k == 0 {
                ArenaNode::NO_PARENT
            } else {
                (parent_offset + j / parent_b) as u32
            };
            let node = match levels.get(k) {
                Some(&(kind, b)) => ArenaNode {
                    first: (next_offset + j * u64::from(b)) as u32,
                    len: b,
                    parent,
                    kind,
                    uniform: kind == Kind::Chance,
                    value: 0.0,
                    prob,
                },
                None => ArenaNode {
                    first: 0,
                    len: 0,
                    parent,
                    kind: Kind::Leaf,
                    uniform: false,
                    value: leaf(j as usize),
                    prob,
                },
            };
            nodes.push(node);
        }
        offset = next_offset;
    }
    nodes
}

/// Builds a two-player tree from a level arena.
pub(crate) fn from_levels(meta: Meta, nodes: Vec<ArenaNode>) -> Tree {
    Tree::from_arena(meta, false, nodes, Vec::new()).expect("level arenas are well formed")
}
