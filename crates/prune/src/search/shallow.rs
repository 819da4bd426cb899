//! max^n with immediate and shallow pruning: the slides' `Shallow(Node, Player, Bound)`
//! (Korf 1991).
//!
//! ```text
//! Shallow(Node, Player, Bound)
//!   IF Node is terminal, RETURN static value
//!   Best = Shallow(first Child, next Player, Sum)
//!   FOR each remaining Child
//!     IF Best[Player] >= Bound, RETURN Best
//!     Current = Shallow(Child, next Player, Sum - Best[Player])
//!     IF Current[Player] > Best[Player], Best = Current
//!   RETURN Best
//! ```
//!
//! Pruning needs a lower bound on every component and an upper bound on their sum; the slides
//! take 0 and Sum. With a floor f ≠ 0 and n players, a component is at most `Sum − (n−1)·f`
//! (the root's Bound: immediate pruning) and a child whose player already holds `x` leaves the
//! next player at most `Sum − x − (n−2)·f` (the child's Bound: shallow pruning); with f = 0 these
//! are the slides' `Sum` and `Sum − Best[Player]`. The tree's declared floor and sum are used,
//! or else the tight ones over its leaves.
//!
//! A child where the same player moves again gains nothing from its parent's bound (it wants
//! the same component larger): it gets the immediate bound only. A cutoff is *immediate* when
//! `Best[Player]` reached the largest value a component can have, *shallow* otherwise. The
//! value returned by a cut-off node is its best vector so far — a lower bound on its player's
//! component — and, as the theorem on the slides says, the root's vector is exactly max^n's.

use super::chance::ChanceSum;
use super::{Bound, Cutoff, Found, Observer, Value, players};
use crate::tree::{Kind, NodeId, Nodes};

struct Limits {
    /// The largest value one component can have: `Sum − (n−1)·floor`.
    top: f64,
    /// `Sum − (n−2)·floor`: a child's bound is this less its parent's best component.
    rest: f64,
}

/// max^n with immediate and shallow pruning, using the tree's payoff floor and sum.
pub fn search<T: Nodes, O: Observer>(tree: &T, obs: &mut O) -> Found {
    let (floor, sum) = players::limits(tree);
    let n = tree.players() as f64;
    let lim = Limits {
        top: sum - (n - 1.0) * floor,
        rest: sum - (n - 2.0) * floor,
    };
    let v = shallow(tree, tree.root(), lim.top, &lim, obs);
    Found {
        value: Value::Vector(v),
        bound: Bound::Exact,
    }
}

fn player<T: Nodes>(tree: &T, node: NodeId) -> Option<u8> {
    players::mover(tree, node).map(|p| p as u8)
}

/// The Bound passed to child `c` of a node where `p` moves and holds `best`.
fn child_bound<T: Nodes>(tree: &T, p: u8, c: NodeId, best: f64, lim: &Limits) -> f64 {
    if player(tree, c) == Some(p) {
        lim.top
    } else {
        lim.rest - best
    }
}

fn shallow<T: Nodes, O: Observer>(
    tree: &T,
    node: NodeId,
    bound: f64,
    lim: &Limits,
    obs: &mut O,
) -> Vec<f64> {
    if tree.kind(node) == Kind::Chance {
        return chance(tree, node, lim, obs);
    }
    let Some(p) = player(tree, node) else {
        obs.leaf(node, players::leaf_event_value(tree, node));
        return players::payoff(tree, node).into_owned();
    };
    obs.enter(node, f64::NEG_INFINITY, bound);
    let pi = usize::from(p);
    let kids: Vec<NodeId> = tree.children(node).collect();
    let mut best = shallow(tree, kids[0], lim.top, lim, obs);
    for (i, &c) in kids.iter().enumerate().skip(1) {
        if best[pi] >= bound {
            let kind = if best[pi] >= lim.top {
                Cutoff::Immediate
            } else {
                Cutoff::Shallow
            };
            obs.cutoff(node, (i - 1) as u32, (kids.len() - i) as u32, kind);
            // Immediate pruning: the mover already has the largest share possible, and ties go
            // to the leftmost child, so `best` is the node's max^n value exactly. A shallow
            // cutoff only proves the mover's component is at least the bound.
            let b = if kind == Cutoff::Immediate {
                Bound::Exact
            } else {
                Bound::Lower
            };
            obs.exit_vector(node, &best, b);
            return best;
        }
        let current = shallow(tree, c, child_bound(tree, p, c, best[pi], lim), lim, obs);
        if current[pi] > best[pi] {
            best = current;
        }
    }
    obs.exit_vector(node, &best, Bound::Exact);
    best
}

/// A chance node: no shallow bound is passed below it (a child's share is averaged with its
/// siblings', so no single child's bound follows from the parent's), every child is searched
/// with the largest bound, and the node's vector is the probability-weighted mean — exact.
fn chance<T: Nodes, O: Observer>(tree: &T, node: NodeId, lim: &Limits, obs: &mut O) -> Vec<f64> {
    obs.enter(node, f64::NEG_INFINITY, f64::INFINITY);
    let mut sums: Vec<ChanceSum> = (0..tree.players())
        .map(|_| ChanceSum::new(tree, node))
        .collect();
    for c in tree.children(node) {
        let v = shallow(tree, c, lim.top, lim, obs);
        for (s, x) in sums.iter_mut().zip(v) {
            s.add(tree, c, x);
        }
    }
    let v: Vec<f64> = sums.iter().map(ChanceSum::value).collect();
    obs.exit_vector(node, &v, Bound::Exact);
    v
}
