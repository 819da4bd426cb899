//! Product propagation and the k-rule: Tzeng & Purdom (1982), "A Theory of the Heuristic Game
//! Tree Search".
//!
//! Leaves hold probabilities that the position is a win for MAX. When the positions below a
//! node are independent, the conditional probability of a win is backed up by the
//! product-propagation rules
//!
//! ```text
//! (6.3)  MIN node:  Π p_i
//! (6.4)  MAX node:  1 − Π (1 − p_i)
//! ```
//!
//! and §7 proposes, between product propagation and minimax,
//!
//! ```text
//! (7.1)  v0 = exp(−((−ln v1)^k + (−ln v2)^k + …)^(1/k))
//! ```
//!
//! for a MIN node: k = 1 is (6.3), k = ∞ is `min`. The paper writes only the MIN rule; for a
//! MAX node we apply it to the probabilities of a loss, `1 − v0(1 − v1, 1 − v2, …)`, which is
//! (6.4) at k = 1 and `max` at k = ∞, the symmetry (6.3)/(6.4) has. k = 1 and k = ∞ are computed
//! with the exact rules rather than through logarithms. These rules prune nothing: every leaf
//! is evaluated.

use super::{Bound, Found, Observer};
use crate::tree::{Kind, NodeId, Nodes};

/// `k = 1.0`: product propagation; `k = f64::INFINITY`: minimax.
pub fn search<T: Nodes, O: Observer>(tree: &T, k: f64, obs: &mut O) -> Found {
    Found::exact(visit(tree, tree.root(), k, obs))
}

/// The rule's value of `node`.
pub fn value<T: Nodes>(tree: &T, node: NodeId, k: f64) -> f64 {
    visit(tree, node, k, &mut super::Quiet)
}

fn visit<T: Nodes, O: Observer>(tree: &T, node: NodeId, k: f64, obs: &mut O) -> f64 {
    if tree.is_leaf(node) {
        let v = tree.value(node);
        obs.leaf(node, v);
        return v;
    }
    obs.enter(node, 0.0, 1.0);
    let values: Vec<f64> = tree
        .children(node)
        .map(|c| visit(tree, c, k, obs))
        .collect();
    let v = if tree.kind(node) == Kind::Min {
        min_rule(&values, k)
    } else {
        1.0 - min_rule(&values.iter().map(|v| 1.0 - v).collect::<Vec<_>>(), k)
    };
    obs.exit(node, v, Bound::Exact);
    v
}

/// (7.1) at a MIN node.
pub fn min_rule(p: &[f64], k: f64) -> f64 {
    if k == 1.0 {
        return p.iter().product(); // (6.3)
    }
    if k == f64::INFINITY {
        return p.iter().copied().fold(f64::INFINITY, f64::min);
    }
    // x_i = −ln p_i ≥ 0; (Σ x_i^k)^(1/k) computed relative to the largest, so large k do not
    // overflow; a zero probability (x = ∞) makes the node a certain loss.
    let x: Vec<f64> = p.iter().map(|&v| -v.ln()).collect();
    let m = x.iter().copied().fold(0.0, f64::max);
    if m == f64::INFINITY {
        return 0.0;
    }
    if m == 0.0 {
        return 1.0;
    }
    let norm = m * x
        .iter()
        .map(|&xi| (xi / m).powf(k))
        .sum::<f64>()
        .powf(1.0 / k);
    (-norm).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_one_is_product_and_k_infinity_is_min() {
        let p = [0.5, 0.8, 0.9];
        assert_eq!(min_rule(&p, 1.0), 0.5 * 0.8 * 0.9);
        assert_eq!(min_rule(&p, f64::INFINITY), 0.5);
        assert!(
            (min_rule(&p, 1.0 + 1e-12) - 0.36).abs() < 1e-9,
            "continuous at k = 1"
        );
        assert!((min_rule(&p, 400.0) - 0.5).abs() < 1e-3, "tends to min");
        assert_eq!(min_rule(&[0.0, 0.7], 3.0), 0.0);
        assert_eq!(min_rule(&[1.0, 1.0], 3.0), 1.0);
    }
}
