//! Star1: Ballard (1982), "Search Procedures for Perfect Information Trees Containing Chance
//! Nodes", §4. Alpha-beta extended to chance (*) nodes: at every * node, the §4 procedure with
//! its cutoffs (1a)/(1b) and windows (2a)–(4b), weighted as §7.3 (22) for uneven probabilities;
//! `rightmost`, §7.2's cutoff below the root's last child.
//!
//! The procedure, the Max/Min layer and §7.2 are in `star.rs`, the ground Star1 shares
//! with Star2 (which searches with the same procedure where it cannot probe); what makes Star1
//! is the rule that every * node is searched by it.

use super::star::{self, ChanceRule, Ctx, Root};
use super::{Found, Observer};
use crate::tree::{NodeId, Nodes};

/// Star1's rule: every * node by the §4 procedure.
pub(crate) enum Star1 {}

impl ChanceRule for Star1 {
    fn chance<T: Nodes, O: Observer>(
        tree: &T,
        node: NodeId,
        alpha: f64,
        beta: f64,
        root: Option<Root>,
        ctx: &mut Ctx,
        obs: &mut O,
    ) -> f64 {
        star::chance_node::<_, Star1, O>(tree, node, alpha, beta, root, ctx, obs)
    }
}

/// Ballard's Star1 from the root with the window (L, U) of the tree's value bounds; with
/// `rightmost`, §7.2's cutoff below the root's last child.
pub fn search<T: Nodes, O: Observer>(tree: &T, rightmost: bool, obs: &mut O) -> Found {
    star::run::<_, Star1, O>(tree, Default::default(), rightmost, obs)
}
