//! max^n (the slides, after Luckhardt & Irani): at a node where player i moves, the whole
//! payoff vector of the child with the largest i-th component, ties to the leftmost child. The
//! reference for n-player trees. At a chance node, the probability-weighted mean of the
//! children's vectors (each component as expectiminimax would).

use super::chance::ChanceSum;
use super::{Bound, Found, Observer, Value, players};
use crate::tree::{NodeId, Nodes};

/// max^n: each player's node takes the child vector best for that player (the leftmost on
/// ties); chance nodes average the vectors.
pub fn search<T: Nodes, O: Observer>(tree: &T, obs: &mut O) -> Found {
    Found {
        value: Value::Vector(visit(tree, tree.root(), obs)),
        bound: Bound::Exact,
    }
}

/// The max^n vector of `node`.
pub fn value<T: Nodes>(tree: &T, node: NodeId) -> Vec<f64> {
    visit(tree, node, &mut super::Quiet)
}

fn visit<T: Nodes, O: Observer>(tree: &T, node: NodeId, obs: &mut O) -> Vec<f64> {
    if tree.is_leaf(node) {
        obs.leaf(node, players::leaf_event_value(tree, node));
        return players::payoff(tree, node).into_owned();
    }
    obs.enter(node, f64::NEG_INFINITY, f64::INFINITY);
    let v = match players::mover(tree, node) {
        Some(p) => {
            let mut kids = tree.children(node);
            let mut best = visit(
                tree,
                kids.next().expect("interior nodes have children"),
                obs,
            );
            for c in kids {
                let cur = visit(tree, c, obs);
                if cur[p] > best[p] {
                    best = cur;
                }
            }
            best
        }
        None => {
            let mut sums: Vec<ChanceSum> = (0..tree.players())
                .map(|_| ChanceSum::new(tree, node))
                .collect();
            for c in tree.children(node) {
                for (s, x) in sums.iter_mut().zip(visit(tree, c, obs)) {
                    s.add(tree, c, x);
                }
            }
            sums.iter().map(ChanceSum::value).collect()
        }
    };
    obs.exit_vector(node, &v, Bound::Exact);
    v
}
