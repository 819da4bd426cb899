//! Alpha-beta, NegaScout and MTD(f) with the improvements of Schaeffer's slides
//! ([`super::improvements`]): one fail-soft negamax search that probes and stores a
//! transposition table ([`super::tt`]), orders each node's children at search time — the table's
//! (or the previous iteration's) best move, then the killers ([`super::killers`]), then the rest
//! by the history heuristic ([`super::history`]) or in order — and stops at a horizon for
//! iterative deepening ([`super::iterative`]).
//!
//! The search follows Schaeffer's slides' fail-soft `AlphaBeta(s, depth, α, β)` with the table
//! around it as in Marsland 1986 ("A Review of Game-Tree Pruning", the transposition-table
//! version of alpha-beta) and Schaeffer 1989 (§2): look the position up; if an entry of the same
//! draft settles the window, return its value (a *TT cutoff*: the node is not entered); else
//! search the table's move first and store value, bound, draft and best move after. NegaScout is
//! Reinefeld & Marsland's Figure 2 in its fail-soft form (PVS): the first child with the window,
//! the others with a minimal window, re-searched with `(t, β)` when one fails high — a scout
//! of a leaf or of a position at the horizon is exact, so those are not re-searched. MTD(f) is
//! the driver of [`super::mtdf`] over this search with the table as its memory.
//!
//! The tree is never changed: children are visited in a computed order, and a cutoff reports
//! how many were left. Nodes without a key are searched without the table.

use std::collections::HashMap;

use super::history::History;
use super::improvements::Improvements;
use super::killers::Killers;
use super::negamax::{cut_kind, enter, exit, root_bound, sign};
use super::tt::{Entry, Table, answer};
use super::{Algorithm, Bound, Found, Observer, aspiration, iterative};
use crate::tree::{NodeId, Nodes};

/// The state of one improved search: its memories and what it may use.
pub(super) struct Engine<'t, T> {
    tree: &'t T,
    /// Every subtree's height: a node's draft is `min(remaining depth, height)`. `None` on a
    /// lazy tree, whose heights are unknown before the search: the draft is the remaining depth.
    heights: Option<Vec<u32>>,
    tt: Option<Table>,
    /// Without a table, iterative deepening remembers each node's best move here.
    best: Option<HashMap<NodeId, u32>>,
    killers: Option<Killers>,
    history: Option<History>,
    scout: bool,
    integral: bool,
    /// The horizon of the current iteration, in plies from the root.
    limit: u32,
    /// Positions valued at the horizon by their heuristic so far (table entries that did count
    /// once more): an iteration that adds none is iterative deepening's last.
    horizon: u64,
}

/// Runs `base` (alpha-beta, NegaScout or MTD(f)) with `with` on `tree` (already cut at the depth
/// limit, if any).
pub(super) fn search<T: Nodes, O: Observer>(
    tree: &T,
    base: &Algorithm,
    with: &Improvements,
    obs: &mut O,
) -> Found {
    let root = tree.root();
    if tree.is_leaf(root) {
        let v = tree.value(root);
        obs.leaf(root, v);
        return Found::exact(v);
    }
    let mut engine = Engine {
        tree,
        heights: tree.subtree_heights(),
        tt: with.tt.then(Table::default),
        best: (with.id && !with.tt).then(HashMap::new),
        killers: with.killers.then(Killers::default),
        history: with.history.then(History::default),
        scout: matches!(base, Algorithm::NegaScout),
        // The minimal window steps by 1 on integer trees. Iterations short of the leaves also
        // see heuristic values, which may not be integers: there the "minimal" window is wider
        // than minimal — still sound for a fail-soft search, only less sharp.
        integral: tree.is_integral(),
        limit: tree.height() as u32,
        horizon: 0,
    };
    let height = tree.height() as u32;
    let inf = f64::INFINITY;
    let v = match base {
        // Iterative-deepening MTD(f) (Plaat et al. 1996): each depth's value is the next
        // depth's first guess; the table carries the best moves and bounds across depths.
        // `drive` steps its null windows by 1 on integer trees, as `integral` above does.
        Algorithm::Mtdf { guess } if with.id => {
            iterative::deepen(height, obs, |depth, prev, obs| {
                let before = engine.horizon;
                let v = super::mtdf::drive(tree, prev.or(*guess), obs, |lo, hi, obs| {
                    engine.root(depth, lo, hi, obs)
                });
                (v, engine.horizon > before)
            })
        }
        Algorithm::Mtdf { guess } => super::mtdf::drive(tree, *guess, obs, |lo, hi, obs| {
            engine.root(height, lo, hi, obs)
        }),
        _ if with.id => iterative::deepen(height, obs, |depth, prev, obs| {
            let before = engine.horizon;
            let v = match (prev, with.aspiration) {
                (Some(prev), Some(w)) => aspiration::search(root, prev, w, obs, |lo, hi, obs| {
                    engine.root(depth, lo, hi, obs)
                }),
                _ => engine.root(depth, -inf, inf, obs),
            };
            (v, engine.horizon > before)
        }),
        _ => engine.root(height, -inf, inf, obs),
    };
    Found::exact(v)
}

impl<T: Nodes> Engine<'_, T> {
    /// The root searched to `limit` plies with the root-relative window `(lo, hi)`; the
    /// root-relative value.
    pub(super) fn root<O: Observer>(&mut self, limit: u32, lo: f64, hi: f64, obs: &mut O) -> f64 {
        self.limit = limit;
        let root = self.tree.root();
        let s = sign(self.tree.kind(root));
        let (a, b) = if s > 0.0 { (lo, hi) } else { (-hi, -lo) };
        s * self.node(root, 0, a, b, obs)
    }

    /// Whether `c`, at `ply`, is evaluated rather than searched: a leaf, or at the horizon.
    #[inline]
    fn terminal(&self, c: NodeId, ply: u32) -> bool {
        self.tree.is_leaf(c) || ply >= self.limit
    }

    /// Child `c` (at `ply`) of a node of sign `s`, with the window `(alpha, beta)` seen from the
    /// parent; its value seen from the parent.
    fn child<O: Observer>(
        &mut self,
        s: f64,
        c: NodeId,
        ply: u32,
        alpha: f64,
        beta: f64,
        obs: &mut O,
    ) -> f64 {
        if self.terminal(c, ply) {
            let v = if self.tree.is_leaf(c) {
                self.tree.value(c)
            } else {
                self.horizon += 1;
                // Refused before the search (Refusal::NoHeuristicForIteration) when missing.
                self.tree.heuristic(c).unwrap_or(f64::NAN)
            };
            obs.leaf(c, v);
            return s * v;
        }
        if sign(self.tree.kind(c)) == s {
            self.node(c, ply, alpha, beta, obs)
        } else {
            -self.node(c, ply, -beta, -alpha, obs)
        }
    }

    /// The minimal window's upper end above `v` ([`super::negascout::above`]).
    #[inline]
    fn above(&self, v: f64) -> f64 {
        if self.integral {
            super::negascout::above::<true>(v)
        } else {
            v.next_up()
        }
    }

    /// The children of `p` in the order they are searched.
    fn order(&self, p: NodeId, ply: u32, max: bool, first: Option<u32>) -> Vec<u32> {
        let n = self.tree.child_count(p) as u32;
        let mut out: Vec<u32> = Vec::with_capacity(n as usize);
        let front = |m: u32, out: &mut Vec<u32>| {
            if m < n && !out.contains(&m) {
                out.push(m);
            }
        };
        if let Some(m) = first {
            front(m, &mut out);
        }
        if let Some(k) = &self.killers {
            for m in k.of(ply as usize).into_iter().flatten() {
                front(m, &mut out);
            }
        }
        let placed = out.len();
        let rest: Vec<u32> = (0..n).filter(|m| !out.contains(m)).collect();
        out.extend(rest);
        if let Some(h) = &self.history {
            h.order(max, &mut out[placed..]);
        }
        out
    }

    /// Fail-soft negamax search of interior node `p` at `ply` with the window `(alpha, beta)`.
    fn node<O: Observer>(
        &mut self,
        p: NodeId,
        ply: u32,
        alpha: f64,
        beta: f64,
        obs: &mut O,
    ) -> f64 {
        let tree = self.tree;
        let s = sign(tree.kind(p));
        let left = self.limit - ply;
        let draft = self
            .heights
            .as_ref()
            .map_or(left, |h| left.min(h[p.index()]));
        let key = tree.key(p).filter(|_| self.tt.is_some());
        let mut first = None;
        if let (Some(tt), Some(k)) = (&self.tt, key) {
            obs.tt_probe(p);
            if let Some(e) = tt.get(k, draft) {
                // At the root the search goes on: it must name a best move and enter the root.
                let settled = answer(e, alpha, beta).filter(|_| ply > 0);
                obs.tt_hit(p, s * e.value, root_bound(e.bound, s), settled.is_some());
                if let Some(v) = settled {
                    self.horizon += u64::from(e.horizon);
                    return v;
                }
            }
            first = tt.best_move(k, draft);
        } else if let Some(best) = &self.best {
            first = best.get(&p).copied();
        }
        let order = self.order(p, ply, s > 0.0, first);
        let horizon_before = self.horizon;
        enter(obs, p, s, alpha, beta);
        let n = order.len();
        let (mut score, mut best, mut a) = (f64::NEG_INFINITY, order[0], alpha);
        for (j, &i) in order.iter().enumerate() {
            let c = tree.child(p, i as usize);
            let mut t;
            if j == 0 || !self.scout {
                t = self.child(s, c, ply + 1, a, beta, obs);
            } else {
                t = self.child(s, c, ply + 1, a, self.above(a), obs);
                if t > a && t < beta && !self.terminal(c, ply + 1) {
                    if s > 0.0 {
                        obs.research(c, t, beta);
                    } else {
                        obs.research(c, -beta, -t);
                    }
                    t = self.child(s, c, ply + 1, t, beta, obs);
                }
            }
            if t > score {
                score = t;
                best = i;
            }
            a = a.max(score);
            if score >= beta {
                obs.cutoff_ranked(p, i, j as u32, (n - j - 1) as u32, cut_kind(s));
                if let Some(k) = &mut self.killers {
                    k.cut(ply as usize, i);
                }
                break;
            }
        }
        exit(obs, p, s, score, alpha, beta);
        let bound = Bound::classify(score, alpha, beta);
        if bound != Bound::Upper
            && let Some(h) = &mut self.history
        {
            h.reward(s > 0.0, best, draft);
        }
        if let (Some(tt), Some(k)) = (&mut self.tt, key) {
            tt.store(
                k,
                draft,
                Entry {
                    value: score,
                    bound,
                    best,
                    horizon: self.horizon > horizon_before,
                },
            );
        }
        if let Some(b) = &mut self.best {
            b.insert(p, best);
        }
        score
    }
}
