//! A run as the explorer holds it: the recorded search, its step index, and where the user is
//! in it.

use crate::search::{Algorithm, Control, Refusal, Run};
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
        RunView::with_control(tree, algo, &Control::default())
    }

    /// Searches `tree` recording every event, publishing the visits so far in `control` and
    /// stopping when it asks.
    pub fn with_control(
        tree: &Tree,
        algo: Algorithm,
        control: &Control,
    ) -> Result<RunView, Refusal> {
        let (run, trace) = trace::record_with(tree, &algo, control)?;
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
