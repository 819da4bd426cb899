//! The improvements of Schaeffer's slides ("Improvements": using storage, exploratory searches,
//! successor ordering, playing with the search windows, playing with the search depth) as
//! options of the two-player algorithms: `alphabeta:depth=4:tt:id:aspiration=0.5:killers:history`.
//!
//! - a depth limit ([`crate::tree::Tree::to_depth`]): every two-player algorithm, and the
//!   reference values it is checked against, see the tree cut at depth D;
//! - a transposition table ([`super::tt`]) for alpha-beta, NegaScout and MTD(f);
//! - iterative deepening and aspiration windows (`super::iterative`, `super::aspiration`);
//! - killer moves ([`super::killers`]) and the history heuristic ([`super::history`]).
//!
//! Searches with any of the last four run on `super::improved`, one fail-soft negamax search
//! that takes them all.

use super::refusal::Refusal;
use crate::tree::{NodeId, Tree};

/// Which improvements a search uses: [`super::Params::improvements`], and an improved
/// algorithm's own ([`super::Algorithm::Improved`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Improvements {
    /// Search to this depth, the positions there valued by their heuristic.
    pub depth: Option<u32>,
    /// A transposition table ([`super::tt`]) keyed by position key: refused on a tree without
    /// keys, or where two nodes share a key but not a subtree.
    pub tt: bool,
    /// Iterative deepening: depth 1, 2, … to `depth` (or the tree's height), each iteration's
    /// best move tried first in the next; every interior node below the root then needs a
    /// heuristic value.
    pub id: bool,
    /// The aspiration window's half-width (with `id`).
    pub aspiration: Option<f64>,
    /// Killer moves ([`super::killers`]): the two moves that last cut off at a depth tried
    /// first there.
    pub killers: bool,
    /// The history heuristic ([`super::history`]): moves ordered by `2^draft` for each time
    /// they were best or cut off.
    pub history: bool,
}

impl Improvements {
    /// Whether the search needs `super::improved` (anything but a depth limit).
    pub fn reorders(&self) -> bool {
        self.tt || self.id || self.killers || self.history
    }

    /// Why `algo` with these improvements cannot search `tree` (the tree before any depth cut).
    pub(super) fn refusal(&self, tree: &Tree, algo: &'static str) -> Option<Refusal> {
        let view = match self.depth {
            Some(d) => match tree.to_depth(d as usize) {
                Ok(v) => v,
                Err(node) => {
                    return Some(Refusal::NoHeuristic {
                        algo,
                        depth: d,
                        node: crate::tree::names::node_at(tree, node),
                    });
                }
            },
            None => tree.clone(),
        };
        if self.aspiration.is_some() && !self.id {
            return Some(Refusal::AspirationWithoutId { algo });
        }
        if self.id
            && let Some((node, depth)) = missing_heuristic(&view)
        {
            let node = crate::tree::names::node_at(&view, node);
            return Some(Refusal::NoHeuristicForIteration { algo, depth, node });
        }
        if self.tt {
            if !tree.has_keys() {
                return Some(Refusal::NoKeys);
            }
            if let Some(refused) = keys_disagree(tree) {
                return Some(refused);
            }
        }
        None
    }
}

/// The first interior node below the root (and its depth) without a heuristic value: iterative
/// deepening's shallower iterations stop there.
fn missing_heuristic(tree: &Tree) -> Option<(NodeId, usize)> {
    let mut depth = vec![0usize; tree.len()];
    for id in tree.ids().skip(1) {
        let p = tree.parent(id).expect("not the root");
        depth[id.index()] = depth[p.index()] + 1;
        if !tree.is_leaf(id) && tree.heuristic(id).is_none() {
            return Some((id, depth[id.index()]));
        }
    }
    None
}

/// Why a transposition table is unsound on `tree`: two nodes share a key and head different
/// subtrees ([`Tree::key_clash`]), named by path, and where they first differ.
pub(crate) fn keys_disagree(tree: &Tree) -> Option<Refusal> {
    let clash = tree.key_clash()?;
    let name = |id| crate::tree::names::node_at(tree, id);
    let why = if clash.at == (clash.a, clash.b) {
        clash.why.clone()
    } else {
        format!(
            "at {} and {}: {}",
            name(clash.at.0),
            name(clash.at.1),
            clash.why
        )
    };
    Some(Refusal::KeysDisagree {
        a: name(clash.a),
        b: name(clash.b),
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Draft, DraftNode, Kind, Meta};

    /// `Max(Min(a, b), Min(c, d))` with the two Min nodes under one key.
    fn twins(c: f64) -> Tree {
        let mut d = Draft::new(Meta {
            players: 2,
            ..Meta::default()
        });
        d.push(DraftNode::interior(Kind::Max, 2).with_key(1));
        d.push(DraftNode::interior(Kind::Min, 2).with_key(2));
        d.push(DraftNode::leaf(3.0).with_key(3));
        d.push(DraftNode::leaf(5.0).with_key(4));
        d.push(DraftNode::interior(Kind::Min, 2).with_key(2));
        d.push(DraftNode::leaf(3.0).with_key(3));
        d.push(DraftNode::leaf(c).with_key(4));
        d.finish().unwrap()
    }

    #[test]
    fn equal_keys_must_be_equal_positions() {
        let tt = Improvements {
            tt: true,
            ..Improvements::default()
        };
        assert_eq!(tt.refusal(&twins(5.0), "alphabeta"), None);
        let refused = tt.refusal(&twins(6.0), "alphabeta").unwrap();
        assert_eq!(
            refused.to_string(),
            "the transposition table takes nodes with equal keys for the same position, but #1 and #2 share a key and differ (at #1.2 and #2.2: values 5 and 6)"
        );
    }
}
