//! Background work and what waits for it: the [`Worker`] running a load, a generation or a
//! search, the file being loaded and its progress, the runs the command line asked for, the tree
//! on its way in, and practice asked to start when the runs arrive. Starting work here only
//! starts it; what its result does to the rest of the explorer is `App::update`'s, on the tick
//! that picks it up.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::format::LoadProgress;
use crate::format::progress::Snapshot;
use crate::search::{Algorithm, Control};
use crate::tree::Tree;

use super::edit::Replacing;
use super::runs::RunView;
use super::worker::{Busy, Done, Polled, Worker};

#[derive(Default)]
pub struct Jobs {
    worker: Worker,
    /// The file being loaded in the background, and how far its load has got.
    pub(super) loading: Option<(PathBuf, Arc<LoadProgress>)>,
    /// While the file named on the command line loads: the runs to start when it arrives.
    pub(super) first_runs: Option<Vec<Algorithm>>,
    /// A tree whose runs are being searched again before it replaces this one.
    pub(super) replacing: Option<Replacing>,
    /// Practice starts when the next runs arrive (`prune tui --practice ALGO`).
    pub practice_pending: bool,
    /// Why the explorer ended on its own: the file it was asked to open did not load.
    pub fatal: Option<String>,
}

impl Jobs {
    pub fn is_busy(&self) -> bool {
        self.worker.is_busy()
    }

    /// Work in progress: what, for how long, and the nodes a search has visited so far.
    pub fn pending(&self) -> Option<(&str, Duration, u64)> {
        self.worker.progress()
    }

    /// While the file named on the command line loads (the explorer shows only the loading
    /// screen then): the file, and how far the load has got.
    pub fn first_load(&self) -> Option<(&Path, Snapshot)> {
        self.first_runs.as_ref()?;
        let (path, progress) = self.loading.as_ref()?;
        Some((path, progress.snapshot()))
    }

    /// The loading screen of `path` at `progress`, without loading anything (snapshot tests).
    pub fn show_loading(&mut self, path: PathBuf, progress: Arc<LoadProgress>) {
        self.first_runs = Some(Vec::new());
        self.loading = Some((path, progress));
    }

    /// Starts `work` in the background.
    pub fn start(
        &mut self,
        what: String,
        work: impl FnOnce(&Control) -> Done + Send + 'static,
    ) -> Result<(), Busy> {
        self.worker.start(what, work)
    }

    /// Loads `path` in the background.
    pub fn load(&mut self, path: PathBuf) -> Result<(), Busy> {
        let source = path.display().to_string();
        // The size now, so that the first frame already says how much there is to load.
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        let progress = Arc::new(LoadProgress::new(size));
        if !self.worker.is_busy() {
            self.loading = Some((path.clone(), Arc::clone(&progress)));
        }
        self.start(format!("loading {source}"), move |_| {
            Done::Tree(
                crate::format::load_with_progress(&path, None, &progress)
                    .map(|t| (t, source))
                    .map_err(|e| e.render(false)),
            )
        })
    }

    /// Starts the runs of `algos` on `tree` in the background; `new_tree` (its source)
    /// replaces the tree when they are done.
    pub fn start_runs(
        &mut self,
        tree: Arc<Tree>,
        algos: Vec<Algorithm>,
        new_tree: Option<String>,
    ) -> Result<(), Busy> {
        let names: Vec<String> = algos.iter().map(|a| a.label()).collect();
        let what = if names.is_empty() {
            "preparing the tree".to_owned()
        } else {
            format!("running {}", names.join(", "))
        };
        self.start(what, move |control| {
            let results = algos
                .into_iter()
                .map(|a| RunView::with_control(&tree, a, control).map_err(|e| e.to_string()))
                .collect();
            let tree = new_tree.map(|source| {
                (
                    Arc::try_unwrap(tree).unwrap_or_else(|t| (*t).clone()),
                    source,
                )
            });
            Done::Runs(results, tree)
        })
    }

    /// Abandons the work in progress, and the tree or file it was bringing; says what it was.
    pub fn cancel(&mut self) -> Option<String> {
        let what = self.worker.cancel()?;
        self.replacing = None;
        self.loading = None;
        Some(what)
    }

    /// The finished work, if it is finished; a failed load is over.
    pub fn poll(&mut self) -> Polled {
        let polled = self.worker.poll();
        if let Polled::Failed = polled {
            self.loading = None;
            self.first_runs = None;
        }
        polled
    }
}
