//! Iterative deepening: Schaeffer's slides, "Exploratory searches"; Schaeffer 1989, §2
//! ("iterative deepening"); Marsland 1986, "A Review of Game-Tree Pruning".
//!
//! Search to depth 1, then 2, …, then D (the depth limit, or the tree's height): each iteration
//! is a full search whose horizon positions are valued by their heuristic, and each leaves
//! behind what orders the next — the best move of every node it searched, in the
//! transposition table ([`super::tt::Table::best_move`] looks one draft down) or, without one, in
//! a node-keyed memory of best moves. The last iteration's value is the result: the value of
//! depth-limited minimax at D, whatever the earlier iterations found. With
//! [`super::aspiration`], each iteration after the first searches a window around the previous
//! iteration's value.
//!
//! An iteration that valued no position by its heuristic — every line it looked at ended in a
//! finished game — is the last: its proof rests on the game's own values, which a deeper
//! iteration would meet again, so its value is the value at any greater depth (a game that
//! ends before the depth limit is not searched again and again to the limit).

use super::Observer;

/// Runs `iteration(depth, previous value)` for depth 1 to `height` (at least 1), telling the
/// observer where each begins; the last value. Each iteration also says whether it valued a
/// position at its horizon by its heuristic: the first that did not is the last.
pub(crate) fn deepen<O: Observer>(
    height: u32,
    obs: &mut O,
    mut iteration: impl FnMut(u32, Option<f64>, &mut O) -> (f64, bool),
) -> f64 {
    let mut prev = None;
    for depth in 1..=height.max(1) {
        obs.iteration(depth);
        let (value, cut) = iteration(depth, prev, obs);
        prev = Some(value);
        if !cut {
            break;
        }
    }
    prev.expect("at least one iteration")
}
