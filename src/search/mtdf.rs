//! MTD(f) (Plaat, Schaeffer, Pijls & de Bruin 1996; beyond the papers): a sequence of
//! minimal-window alpha-beta searches with memory, converging on the value from a first guess.
//!
//! ```text
//! g := f; upper := +∞; lower := −∞
//! repeat
//!     β := if g = lower then g + 1 else g
//!     g := AlphaBetaWithMemory(root, β − 1, β)
//!     if g < β then upper := g else lower := g
//! until lower ≥ upper
//! ```
//!
//! `AlphaBetaWithMemory` is fail-soft alpha-beta in min/max form that keeps, for every node it
//! has searched, a lower and an upper bound on its value (a node-keyed "transposition table":
//! our trees have no transpositions), consults them before searching a node and stores what it
//! learnt after. A leaf answered from memory is not evaluated again; `leaves` counts
//! evaluations, `distinct_leaves` different leaves; every pass after the first counts as a
//! re-search of the root.
//!
//! "+ 1" assumes integer values; on trees with other leaf values the step is one floating-point
//! number (`next_up`), so the minimal window stays minimal. On integer trees beyond 2⁵³, where
//! `x + 1` rounds back to `x`, the step is `next_up` too ([`super::negascout::above`]): the
//! window never collapses and every pass makes progress, so the loop ends on every finite tree.
//! The first guess defaults to the middle of the tree's value bounds, `lo/2 + hi/2` (which
//! cannot overflow), rounded down on integer trees. A guess outside the bounds is fine: the
//! first pass fails low or high and returns a leaf's value, and the loop goes on from there.

use super::negascout::above;
use super::{Bound, Cutoff, Found, Observer};
use crate::tree::{Kind, NodeId, Tree};

/// MTD(f): null-window alpha-beta passes with a node-keyed memory, starting from `guess` (by
/// default the middle of the tree's value bounds), until the bounds meet.
pub fn search<O: Observer>(tree: &Tree, guess: Option<f64>, obs: &mut O) -> Found {
    let mut memory = Memory::new(tree.len());
    Found::exact(drive(tree, guess, obs, |lo, hi, obs| {
        abm(tree, tree.root(), lo, hi, &mut memory, obs)
    }))
}

/// The MTD(f) loop over `pass(α, β)`, a fail-soft alpha-beta search of the root with memory
/// (this file's, or the transposition table of [`super::improved`]); the root's value.
pub(super) fn drive<O: Observer>(
    tree: &Tree,
    guess: Option<f64>,
    obs: &mut O,
    mut pass: impl FnMut(f64, f64, &mut O) -> f64,
) -> f64 {
    let integral = tree.is_integral();
    let b = tree.value_bounds();
    let mid = b.lo / 2.0 + b.hi / 2.0;
    let mid = if mid.is_finite() { mid } else { 0.0 };
    let mut g = guess.unwrap_or(if integral { mid.floor() } else { mid });
    let up = |x: f64| {
        if integral {
            above::<true>(x)
        } else {
            x.next_up()
        }
    };
    let down = |x: f64| {
        if integral {
            -above::<true>(-x)
        } else {
            x.next_down()
        }
    };
    let (mut lower, mut upper) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut count = 0;
    while lower < upper {
        let beta = if g == lower { up(g) } else { g };
        if count > 0 {
            obs.research(tree.root(), down(beta), beta);
        }
        g = pass(down(beta), beta, obs);
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
        count += 1;
    }
    g
}

/// `AlphaBetaWithMemory(n, α, β)`, fail-soft.
fn abm<O: Observer>(
    tree: &Tree,
    n: NodeId,
    alpha: f64,
    beta: f64,
    mem: &mut Memory,
    obs: &mut O,
) -> f64 {
    let (lo, hi) = mem.get(n);
    if lo >= beta {
        return lo;
    }
    if hi <= alpha {
        return hi;
    }
    let (alpha, beta) = (alpha.max(lo), beta.min(hi));
    let g = match tree.kind(n) {
        Kind::Leaf => {
            let v = tree.value(n);
            obs.leaf(n, v);
            v
        }
        Kind::Max => {
            obs.enter(n, alpha, beta);
            let (mut g, mut a) = (f64::NEG_INFINITY, alpha);
            let count = tree.child_count(n);
            for (i, c) in tree.children(n).enumerate() {
                g = g.max(abm(tree, c, a, beta, mem, obs));
                a = a.max(g);
                if g >= beta {
                    obs.cutoff(n, i as u32, (count - i - 1) as u32, Cutoff::Beta);
                    break;
                }
            }
            obs.exit(n, g, Bound::classify(g, alpha, beta));
            g
        }
        _ => {
            obs.enter(n, alpha, beta);
            let (mut g, mut b) = (f64::INFINITY, beta);
            let count = tree.child_count(n);
            for (i, c) in tree.children(n).enumerate() {
                g = g.min(abm(tree, c, alpha, b, mem, obs));
                b = b.min(g);
                if g <= alpha {
                    obs.cutoff(n, i as u32, (count - i - 1) as u32, Cutoff::Alpha);
                    break;
                }
            }
            obs.exit(n, g, Bound::classify(g, alpha, beta));
            g
        }
    };
    let (mut lo, mut hi) = mem.get(n);
    if g <= alpha {
        hi = g;
    }
    if g > alpha && g < beta {
        (lo, hi) = (g, g);
    }
    if g >= beta {
        lo = g;
    }
    mem.set(n, lo, hi);
    g
}

/// The bounds `(lower, upper)` known for every node, `(−∞, +∞)` until searched. Stored as the
/// bits of each bound exclusive-or the bits of its default, so the table starts as zeroed memory
/// the system hands out lazily: a pass that visits 0.2 million nodes of an 11-million-node tree
/// does not write 180 MB first.
struct Memory(Vec<[u64; 2]>);

const LO: u64 = f64::NEG_INFINITY.to_bits();
const HI: u64 = f64::INFINITY.to_bits();

impl Memory {
    fn new(n: usize) -> Memory {
        Memory(vec![[0, 0]; n])
    }

    #[inline]
    fn get(&self, n: NodeId) -> (f64, f64) {
        let [lo, hi] = self.0[n.index()];
        (f64::from_bits(lo ^ LO), f64::from_bits(hi ^ HI))
    }

    #[inline]
    fn set(&mut self, n: NodeId, lo: f64, hi: f64) {
        self.0[n.index()] = [lo.to_bits() ^ LO, hi.to_bits() ^ HI];
    }
}
