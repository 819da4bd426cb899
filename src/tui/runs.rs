//! A run as the explorer holds it: the recorded search, its step index, and where the user is
//! in it.

use std::sync::atomic::AtomicU64;

use crate::search::{Algorithm, Refusal, Run};
use crate::trace::{self, Replay, StepIndex, Trace};
use crate::tree::Tree;

/// One algorithm's run on the tree, with its trace and where the user is in it.
pub struct RunView {
    pub algo: Algorithm,
    pub run: Run,
    pub trace: Trace,
    pub index: StepIndex,
    /// Steps applied: 0 is before the search, `trace.len()` after it.
    pub step: usize,
}

impl RunView {
    /// Searches `tree` recording every event.
    pub fn new(tree: &Tree, algo: Algorithm) -> Result<RunView, Refusal> {
        RunView::with_progress(tree, algo, &AtomicU64::new(0))
    }

    /// Searches `tree` recording every event, publishing the visits so far in `visits`.
    pub fn with_progress(
        tree: &Tree,
        algo: Algorithm,
        visits: &AtomicU64,
    ) -> Result<RunView, Refusal> {
        let (run, trace) = trace::record(tree, &algo, visits)?;
        let index = StepIndex::new(tree, &trace);
        let step = trace.len();
        Ok(RunView {
            algo,
            run,
            trace,
            index,
            step,
        })
    }

    pub fn replay<'a>(&'a self, tree: &'a Tree) -> Replay<'a> {
        Replay::with_index(tree, &self.trace, &self.index)
    }

    /// Step `k` in words (see [`trace::narrate`]).
    pub fn describe(&self, tree: &Tree, k: usize) -> String {
        trace::narrate::describe(tree, &self.run, &self.trace, &self.replay(tree), k)
    }
}
