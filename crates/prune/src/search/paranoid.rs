//! Paranoid search (Sturtevant & Korf 2000; beyond the papers): player I assumes all the others
//! have formed a coalition against it. The n-player tree becomes a two-player one — I's nodes
//! are Max, everyone else's Min, a leaf is worth I's payoff — searched by fail-hard alpha-beta
//! (Knuth & Moore's F2, in min/max form). The reference is plain minimax on the same reduction.
//! A chance node is worth the expected value of the reduction below it (its children searched
//! with the full window, as expectiminimax would).

use super::chance::ChanceSum;
use super::{Bound, Cutoff, Found, Observer, players};
use crate::tree::{Kind, NodeId, Nodes};

/// The paranoid reduction: `player` (from 0) maximises its own payoff against a coalition of
/// every other player, searched by alpha-beta.
pub fn search<T: Nodes, O: Observer>(tree: &T, player: u8, obs: &mut O) -> Found {
    Found::exact(ab(
        tree,
        tree.root(),
        player,
        f64::NEG_INFINITY,
        f64::INFINITY,
        obs,
    ))
}

/// Player `player`'s paranoid value of `node` (minimax on the reduction).
pub fn value<T: Nodes>(tree: &T, node: NodeId, player: u8) -> f64 {
    if tree.is_leaf(node) {
        return players::payoff(tree, node)[usize::from(player)];
    }
    if tree.kind(node) == Kind::Chance {
        let mut sum = ChanceSum::new(tree, node);
        for c in tree.children(node) {
            sum.add(tree, c, value(tree, c, player));
        }
        return sum.value();
    }
    let vals = tree.children(node).map(|c| value(tree, c, player));
    if players::mover(tree, node) == Some(usize::from(player)) {
        vals.fold(f64::NEG_INFINITY, f64::max)
    } else {
        vals.fold(f64::INFINITY, f64::min)
    }
}

fn ab<T: Nodes, O: Observer>(
    tree: &T,
    node: NodeId,
    me: u8,
    alpha: f64,
    beta: f64,
    obs: &mut O,
) -> f64 {
    if tree.is_leaf(node) {
        let v = players::payoff(tree, node)[usize::from(me)];
        obs.leaf(node, v);
        return v;
    }
    obs.enter(node, alpha, beta);
    if tree.kind(node) == Kind::Chance {
        // Expected value of the reduction: every child searched with the full window.
        let mut sum = ChanceSum::new(tree, node);
        for c in tree.children(node) {
            let v = ab(tree, c, me, f64::NEG_INFINITY, f64::INFINITY, obs);
            sum.add(tree, c, v);
        }
        let v = sum.value();
        obs.exit(node, v, Bound::Exact);
        return v;
    }
    let n = tree.child_count(node);
    let (mut a, mut b) = (alpha, beta);
    let max = players::mover(tree, node) == Some(usize::from(me));
    for (i, c) in tree.children(node).enumerate() {
        let v = ab(tree, c, me, a, b, obs);
        if max && v >= b {
            obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::Beta);
            obs.exit(node, b, Bound::Lower);
            return b;
        }
        if !max && v <= a {
            obs.cutoff(node, i as u32, (n - i - 1) as u32, Cutoff::Alpha);
            obs.exit(node, a, Bound::Upper);
            return a;
        }
        if max {
            a = a.max(v);
        } else {
            b = b.min(v);
        }
    }
    let v = if max { a } else { b };
    obs.exit(node, v, Bound::classify(v, alpha, beta));
    v
}
