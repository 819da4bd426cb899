//! The outline's filter: which rows the current run's state hides or folds. One constructor,
//! [`View::new`], used by drawing, by moving the selection and by jumps to a step. The
//! switches the user flips ([`Filters`]) live here too, with the last label search.

use prune::trace::{Replay, Status};
use prune::tree::{NodeId, Tree};

use super::outline::Filter;
use super::runs::RunView;

/// What the view keys switch on and off, and the label search `n` repeats.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// Only the nodes the current run reached (pruned ones as their first row when folded).
    pub(crate) visited_only: bool,
    pub(crate) fold_pruned: bool,
    /// Mark where the runs differ.
    pub(crate) differences: bool,
    pub(crate) last_search: Option<String>,
}

/// The filter the outline applies, from the current run at its step.
pub struct View<'a> {
    pub tree: &'a Tree,
    pub replay: Option<(Replay<'a>, usize)>,
    pub visited_only: bool,
    pub fold_pruned: bool,
}

impl<'a> View<'a> {
    /// The view of `tree` through `run` (if any) at its step.
    pub fn new(
        tree: &'a Tree,
        run: Option<&'a RunView>,
        visited_only: bool,
        fold_pruned: bool,
    ) -> View<'a> {
        View {
            tree,
            replay: run.map(|r| (r.replay(tree), r.step)),
            visited_only,
            fold_pruned,
        }
    }

    pub fn status(&self, id: NodeId) -> Option<Status> {
        self.replay.as_ref().map(|(r, k)| r.state(id, *k).status)
    }
}

impl Filter for View<'_> {
    fn hidden(&self, id: NodeId) -> bool {
        if !self.visited_only || id == self.tree.root() {
            return false;
        }
        match self.status(id) {
            Some(Status::NotReached) => true,
            // A pruned subtree stays as its folded first row when folding is on.
            Some(Status::Pruned) => {
                !self.fold_pruned
                    || self
                        .tree
                        .parent(id)
                        .is_some_and(|p| self.status(p) == Some(Status::Pruned))
            }
            _ => false,
        }
    }

    fn folded(&self, id: NodeId) -> bool {
        self.fold_pruned && self.status(id) == Some(Status::Pruned)
    }
}
