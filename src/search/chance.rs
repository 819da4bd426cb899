//! A chance node's value, accumulated child by child — shared by expectiminimax, Star1, Star2,
//! max^n and the reference values, so that a chance node searched fully gets the very same
//! floating-point number whichever algorithm searched it: the sum of the children's values
//! divided by N when they are equally likely (Ballard's `vsum / N`), the sum of `p_i · v_i` in
//! child order otherwise (§7.3).

use crate::tree::{NodeId, Tree};

/// A chance node's value, accumulated child by child.
pub(crate) struct ChanceSum {
    sum: f64,
    /// `Some(N)` for equally likely children: the value is `sum / N`.
    uniform: Option<f64>,
}

impl ChanceSum {
    #[inline]
    pub(crate) fn new(tree: &Tree, node: NodeId) -> Self {
        let uniform = tree.is_uniform(node).then(|| tree.child_count(node) as f64);
        ChanceSum { sum: 0.0, uniform }
    }

    #[inline]
    pub(crate) fn add(&mut self, tree: &Tree, child: NodeId, v: f64) {
        self.sum += if self.uniform.is_some() {
            v
        } else {
            tree.prob(child) * v
        };
    }

    /// The running sum: `Σ v` for equally likely children, `Σ p·v` otherwise.
    #[inline]
    pub(crate) fn sum(&self) -> f64 {
        self.sum
    }

    #[inline]
    pub(crate) fn value(&self) -> f64 {
        match self.uniform {
            Some(n) => self.sum / n,
            None => self.sum,
        }
    }
}
