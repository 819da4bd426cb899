//! PVS: principal variation search, NegaScout as Reinefeld writes it ("An Improvement to the
//! Scout Tree Search Algorithm", ICCA Journal 6(4), 1983, Figure 2; the fail-soft form of
//! Reinefeld & Marsland's PVS).
//!
//! A node's first child is searched with the node's window, as alpha-beta searches it; each
//! later child with a null window at the running value `m`: `(m, m + 1)` at Max (one
//! floating-point step wide where values are not integers), `(m − 1, m)` at Min, or in
//! negamax form `(−m − 1, −m)`. A null-window search that returns `t` strictly inside the
//! node's window (`m < t < β` at Max) has only proved a bound, so the child is searched again
//! next, with `(t, β)` — which is the alpha-beta window at the running value, now `t`; a leaf's
//! value is exact, so its re-search may be left out. No other child is searched twice. In
//! `pvs-ab` the re-search is an alpha-beta search: below it, every child gets alpha-beta's
//! window. The value returned is the best child's (fail-soft) or that clamped to the window
//! (fail-hard, as Figure 2 returns it).

use super::{Claim, Frame, Move, Side, Step, Walk, departure, is_null, num, window_text};
use crate::protocol::path_text;

/// How a child is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Search {
    /// With alpha-beta's window: a first child, or any child where PVS does not scout.
    Full,
    /// With a null window at the running value.
    Null,
    /// Again, after its null-window search returned inside the window.
    Again,
}

/// The null window at the running value `m` of a node of `side`, one unit wide.
fn null_at(side: Side, m: f64) -> (f64, f64) {
    match side {
        Side::Max => (m, m + 1.0),
        Side::Min => (m - 1.0, m),
    }
}

impl Walk<'_> {
    /// Whether the children of a node entered below `parent` (the root: none) are scouted.
    pub(super) fn scouts_below(&self, parent: Option<&Frame>) -> bool {
        match (self.claim, parent) {
            (Claim::Pvs, _) | (Claim::PvsAb, None) => true,
            (Claim::PvsAb, Some(p)) => {
                p.scout && !matches!(p.arriving, Some((_, Search::Again, _)))
            }
            _ => false,
        }
    }

    /// How the child arriving at `f` is searched (`research`: the re-search due there).
    pub(super) fn search_of(&self, f: &Frame, research: bool) -> Search {
        if research {
            Search::Again
        } else if f.scout && !f.children.is_empty() {
            Search::Null
        } else {
            Search::Full
        }
    }

    /// The window the arriving child of `f` is searched with, from Max's point of view (a
    /// null window shown one unit wide).
    pub(super) fn window_wanted(&self, f: &Frame) -> (f64, f64) {
        match f.arriving {
            Some((_, Search::Null, m)) => null_at(f.side, m),
            _ => f.child_window(),
        }
    }

    /// The narrowest window the arriving child of `f` may be searched with: what a table
    /// entry must settle to answer it (a null window as narrow as one floating-point step,
    /// since the trace does not say how wide the engine makes it).
    pub(super) fn window_settled(&self, f: &Frame) -> (f64, f64) {
        match (f.arriving.as_ref(), f.side) {
            (Some((_, Search::Null, m)), Side::Max) => (*m, m.next_up()),
            (Some((_, Search::Null, m)), Side::Min) => (m.next_down(), *m),
            _ => f.child_window(),
        }
    }

    /// Whether the arriving child of `f` is entered with a window the rules allow.
    pub(super) fn window_fits(&self, f: &Frame, w: (f64, f64)) -> bool {
        match f.arriving {
            Some((_, Search::Null, m)) => {
                is_null(w)
                    && match f.side {
                        Side::Max => w.0 == m,
                        Side::Min => w.1 == m,
                    }
            }
            _ => w == f.child_window(),
        }
    }

    /// Why a child of `f` needed a null window (`given`, in the engine's convention), when it
    /// did.
    pub(super) fn null_reason(&self, f: &Frame, given: (f64, f64)) -> Option<String> {
        let Some((_, Search::Null, m)) = f.arriving else {
            return None;
        };
        Some(format!(
            "a null window {}: after its first child, PVS searches each child of {} with a minimal window at the running value {}",
            window_text(given),
            path_text(&f.path),
            num(self.conv(f.side, m))
        ))
    }

    /// The re-search due at `f` not made: the next child (`next`), a cutoff or the exit
    /// comes first. A leaf's re-search may be left out.
    pub(super) fn research_missed(&self, f: &Frame, next: Option<&Move>, n: usize) -> Step {
        let Some((due, line, leaf, _)) = &f.research_due else {
            return Ok(());
        };
        if *leaf || next == Some(due) {
            return Ok(());
        }
        let mut child = f.path.clone();
        child.push(due.clone());
        let (t, _) = f.best.unwrap_or((f64::NAN, 0));
        let far = match f.side {
            Side::Max => f.beta,
            Side::Min => f.alpha,
        };
        Err(departure(
            &f.path,
            format!(
                "goes on to {} without searching {} again",
                next.map_or("its exit".to_owned(), |m| {
                    let mut p = f.path.clone();
                    p.push(m.clone());
                    path_text(&p)
                }),
                path_text(&child)
            ),
            format!(
                "a re-search: {}'s null-window search returned {}, strictly between the running value before it and the window's end {}, which proves only a bound, so PVS searches it again with the window from {} to {}",
                path_text(&child),
                num(self.conv(f.side, t)),
                num(self.conv(f.side, far)),
                num(self.conv(f.side, t)),
                num(self.conv(f.side, far))
            ),
            vec![f.enter_line, *line, n],
        ))
    }
}

/// A child of `f` returned `v` (Max's point of view) on line `n`: a null-window search that
/// returned strictly inside the window is due for a re-search.
pub(super) fn returned(f: &mut Frame, v: f64, n: usize, leaf: bool) {
    if let Some((m, Search::Null, before)) = &f.arriving {
        let inside = match f.side {
            Side::Max => v > *before && v < f.beta,
            Side::Min => v < *before && v > f.alpha,
        };
        if inside {
            f.research_due = Some((m.clone(), n, leaf, f.best));
        }
    }
    f.arriving = None;
}
