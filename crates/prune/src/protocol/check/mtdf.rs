//! MTD(f): Plaat, Schaeffer, Pijls & de Bruin, "Best-first fixed-depth minimax algorithms"
//! (Artificial Intelligence 87, 1996), Figure 3 (`MTDF`) over `AlphaBetaWithMemory`.
//!
//! At the root, a sequence of null-window passes: each tests a value γ with the window
//! `(γ − 1, γ)` (one floating-point step wide where values are not integers) and returns `g`, a
//! new upper bound when `g < γ` (the pass failed low), else a new lower bound. Each pass must
//! test a value strictly above the lower bound proven so far and at most the upper bound, and
//! its result must lie between them, so that one of them tightens; the passes stop exactly
//! when the two meet (with iterative deepening, by the end of each iteration).
//!
//! Inside a pass the search is fail-soft alpha-beta whose memory answers a node whose stored
//! bounds settle its window without searching it — and without an event. So the walk keeps
//! that memory from the trace itself, each node's and leaf's `(lower, upper)` learnt from its
//! returns as `AlphaBetaWithMemory` learns them, and a known child that a node skips (its
//! children as they first appeared, before its exit without a cutoff, or the child named by a
//! cutoff) must be one the memory settles: its value is the memory's bound. A null window
//! never leaves room for memory to narrow it, so children keep their parent's window.

use std::collections::HashMap;

use super::{Bound, Claim, Frame, Move, Path, Step, Walk, departure, is_null, num, window_text};
use crate::protocol::path_text;

/// The passes so far at the root, and the memory their searches keep.
pub(super) struct Passes {
    /// The bounds on the root's value the passes have proven, from Max's point of view.
    lower: f64,
    upper: f64,
    /// The value the pass under way tests (its window's upper end).
    test: Option<f64>,
    count: usize,
    /// The line of the last pass's root exit.
    last_exit: usize,
    /// Each node's memory: what its returns proved of its value.
    memory: HashMap<Path, (f64, f64)>,
    /// Each node's children in the order they first appeared.
    known: HashMap<Path, Vec<Move>>,
}

impl Default for Passes {
    fn default() -> Passes {
        Passes {
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
            test: None,
            count: 0,
            last_exit: 0,
            memory: HashMap::new(),
            known: HashMap::new(),
        }
    }
}

/// `AlphaBetaWithMemory`'s `store`: what a return `g` for the window `(alpha, beta)` proves.
fn learn((mut lo, mut hi): (f64, f64), g: f64, (alpha, beta): (f64, f64)) -> (f64, f64) {
    if g <= alpha {
        hi = g;
    } else if g < beta {
        (lo, hi) = (g, g);
    } else {
        lo = g;
    }
    (lo, hi)
}

const UNKNOWN: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

impl Passes {
    /// A child arrived at `path`: known from now on, in the order children first appear.
    pub(super) fn know(&mut self, claim: Claim, path: &Path) {
        let Some((m, parent)) = path.split_last().filter(|_| claim == Claim::Mtdf) else {
            return;
        };
        let known = self.known.entry(parent.to_vec()).or_default();
        if !known.contains(m) {
            known.push(m.clone());
        }
    }

    /// `f` returns `v` (Max's point of view).
    pub(super) fn learn(&mut self, claim: Claim, f: &Frame, v: f64) {
        if claim == Claim::Mtdf {
            let known = self.memory.get(&f.path).copied().unwrap_or(UNKNOWN);
            let learnt = learn(known, v, (f.alpha, f.beta));
            self.memory.insert(f.path.clone(), learnt);
        }
    }

    /// A leaf child of `f` at `path` is evaluated to `v`, searched with `f`'s child window.
    pub(super) fn learn_leaf(&mut self, claim: Claim, f: &Frame, path: &Path, v: f64) {
        if claim == Claim::Mtdf {
            let known = self.memory.get(path).copied().unwrap_or(UNKNOWN);
            let learnt = learn(known, v, f.child_window());
            self.memory.insert(path.clone(), learnt);
        }
    }
}

impl Walk<'_> {
    /// The root reached with no node open: under MTD(f), only while the bounds are apart.
    pub(super) fn root_arrives(&mut self, n: usize) -> Step {
        let p = &self.passes;
        if self.claim != Claim::Mtdf || p.count == 0 || p.lower < p.upper {
            return Ok(());
        }
        Err(departure(
            &[],
            format!(
                "begins pass {} after the bounds met at {}",
                p.count + 1,
                num(p.lower)
            ),
            "MTD(f) stops when its lower and upper bounds meet: that is the value".into(),
            vec![p.last_exit, n],
        ))
    }

    /// The root entered with `window` (Max's point of view; `written` as the engine wrote
    /// it): under MTD(f), a null window testing a value between the bounds.
    pub(super) fn pass_window(
        &mut self,
        n: usize,
        window: (f64, f64),
        written: (f64, f64),
    ) -> Step {
        if self.claim != Claim::Mtdf {
            return Ok(());
        }
        if !is_null(window) {
            return Err(departure(
                &[],
                format!("enters the root with the window {}", window_text(written)),
                "an MTD(f) pass is a null-window search: (γ − 1, γ), or one floating-point step wide".into(),
                vec![n],
            ));
        }
        let (p, test) = (&self.passes, window.1);
        if p.count > 0 && !(p.lower < test && test <= p.upper) {
            return Err(departure(
                &[],
                format!("tests {} in pass {}", num(test), p.count + 1),
                format!(
                    "a value above the lower bound {} and at most the upper bound {} that the passes so far proved, so that the pass tightens one of them",
                    num(p.lower),
                    num(p.upper)
                ),
                vec![p.last_exit, n],
            ));
        }
        self.passes.test = Some(test);
        Ok(())
    }

    /// A pass ends with the root's value `v` (Max's point of view): a new upper bound below
    /// the test value, else a new lower bound, within those proven so far.
    pub(super) fn pass_ends(&mut self, n: usize, v: f64) -> Step {
        let Some(test) = self.passes.test.take() else {
            return Ok(());
        };
        let p = &mut self.passes;
        let (lower, upper) = if v < test { (p.lower, v) } else { (v, p.upper) };
        if v < p.lower || v > p.upper {
            return Err(departure(
                &[],
                format!("ends pass {} with {}", p.count + 1, num(v)),
                format!(
                    "a value within the bounds the passes so far proved, {} to {}: the root's value lies there",
                    num(p.lower),
                    num(p.upper)
                ),
                vec![p.last_exit, n],
            ));
        }
        (p.lower, p.upper) = (lower, upper);
        p.count += 1;
        p.last_exit = n;
        if lower >= upper {
            // The bounds met: the root's value is known exactly.
            self.report.root = Some((v, Bound::Exact));
        }
        Ok(())
    }

    /// The passes are over (an iteration begins, or the trace ends): the bounds must have
    /// met; the next iteration starts afresh.
    pub(super) fn passes_met(&mut self, n: usize) -> Step {
        let p = &self.passes;
        if self.claim == Claim::Mtdf && p.count > 0 && p.lower < p.upper {
            return Err(departure(
                &[],
                format!(
                    "stops after {} passes with the bounds {} and {} apart",
                    p.count,
                    num(p.lower),
                    num(p.upper)
                ),
                "MTD(f) searches until its lower and upper bounds meet".into(),
                vec![p.last_exit, n],
            ));
        }
        self.passes = Passes::default();
        Ok(())
    }

    /// Whether `after`, named by a cutoff at `f`, is a known child not searched in this
    /// visit: one the memory answered.
    pub(super) fn silent_cutter(&self, f: &Frame, after: &Move) -> bool {
        self.claim == Claim::Mtdf
            && !f.children.iter().any(|(c, _)| c == after)
            && self
                .passes
                .known
                .get(&f.path)
                .is_some_and(|k| k.contains(after))
    }

    /// The known children of `f`, left without a cutoff, not searched in this visit: the
    /// memory answered them.
    pub(super) fn silent_children(&self, f: &Frame) -> Vec<Move> {
        if self.claim != Claim::Mtdf || f.cut.is_some() {
            return Vec::new();
        }
        let known = self
            .passes
            .known
            .get(&f.path)
            .map_or(&[][..], Vec::as_slice);
        known
            .iter()
            .filter(|m| !f.children.iter().any(|(c, _)| c == *m))
            .cloned()
            .collect()
    }

    /// The child `m` of the open node answered by memory without an event, noticed on line
    /// `n`: its memory must settle its window, and its value is the bound that does.
    pub(super) fn answer_silently(&mut self, n: usize, m: &Move) -> Step {
        let Some(f) = self.stack.last() else {
            return Ok(());
        };
        let mut child = f.path.clone();
        child.push(m.clone());
        let (alpha, beta) = f.child_window();
        let (lo, hi) = self.passes.memory.get(&child).copied().unwrap_or(UNKNOWN);
        let v = if lo >= beta {
            lo
        } else if hi <= alpha {
            hi
        } else {
            return Err(departure(
                &child,
                format!("skips {} without an event", path_text(&child)),
                format!(
                    "a child is skipped only when the memory of earlier passes settles it: what its returns proved, {} to {}, lies outside the window {}",
                    num(self.conv(f.side.other(), lo)),
                    num(self.conv(f.side.other(), hi)),
                    window_text(self.conv_window(f.side, (alpha, beta)))
                ),
                vec![f.enter_line, n],
            ));
        };
        self.returned(v, n, Some(m), true, None);
        Ok(())
    }
}
