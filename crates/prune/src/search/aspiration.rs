//! Aspiration windows: Schaeffer's slides, "Playing with the search windows"; Schaeffer 1989,
//! §2 ("aspiration search"); Marsland 1986.
//!
//! Instead of `(−∞, +∞)`, search with `(v − W, v + W)` around an estimate `v` (the previous
//! iteration's value): a narrower window prunes more. Fail-soft alpha-beta's postcondition says
//! what a failure means: a value at or below `v − W` is an upper bound, the true value lies
//! below; at or above `v + W`, a lower bound. The failed side is then opened to infinity and the
//! root searched again — one re-search, counted in `aspiration_researches` (and in
//! `researches`), whose window holds the true value, so its result is exact.

use super::Observer;
use crate::tree::NodeId;

/// `pass(lo, hi)` (a root-relative window) with the aspiration window of half-width `w` around
/// `estimate`, re-searched with the failed side open when it fails.
pub(crate) fn search<O: Observer>(
    root: NodeId,
    estimate: f64,
    w: f64,
    obs: &mut O,
    mut pass: impl FnMut(f64, f64, &mut O) -> f64,
) -> f64 {
    let (lo, hi) = (estimate - w, estimate + w);
    let v = pass(lo, hi, obs);
    let (lo, hi) = if v <= lo {
        (f64::NEG_INFINITY, hi)
    } else if v >= hi {
        (lo, f64::INFINITY)
    } else {
        return v;
    };
    obs.aspiration_fail(root);
    obs.research(root, lo, hi);
    pass(lo, hi, obs)
}
