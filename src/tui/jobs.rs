//! Background work and what waits for it: the [`Worker`] running a load, a generation or a
//! search, the file being loaded and its progress, the runs the command line asked for, the tree
//! on its way in, and practice asked to start when the runs arrive. Starting work here only
//! starts it. [`Jobs::pick_up`] takes finished work in: a tree that arrives has the runs on
//! screen searched again on it before it takes the old one's place, and the rest comes back as
//! an [`Arrival`]. The `impl App` at the end starts the work from the explorer and, on the tick
//! that picks it up, applies the arrival to the other components.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use prune::format::LoadProgress;
use prune::format::progress::Snapshot;
use prune::search::{Algorithm, Control};
use prune::tree::Tree;

use super::app::{App, Mode, Popup};
use super::doc::Replacement;
use super::edit::{History, Replacing};
use super::runs::RunView;
use super::scene::Scene;
use super::worker::{Busy, Done, Polled, Worker};

/// What finished work asks of the rest of the explorer.
pub enum Arrival {
    Nothing,
    /// The work failed: the explorer stays as it was.
    Failed,
    /// The file named on the command line did not load: the explorer ends, with
    /// [`Jobs::fatal`] the report.
    Fatal,
    /// A tree arrived, and the runs are being searched again on it ([`Jobs::rerun_on`]).
    Rerun(Result<Option<String>, Busy>),
    /// A file did not load: the loader's report.
    NotLoaded(String),
    /// Runs arrived; with the tree they were searched on when it replaces the one on screen,
    /// as its [`Replacing`] says (boxed: a tree is large); and whether practice starts on them.
    Runs {
        results: Vec<Result<RunView, String>>,
        tree: Option<Box<(Tree, String, Replacing)>>,
        practise: bool,
    },
}

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
    pub(crate) practice_pending: bool,
    /// Why the explorer ended on its own: the file it was asked to open did not load.
    pub(crate) fatal: Option<String>,
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
                prune::format::load_with_progress(&path, None, &progress)
                    .map(|t| (t, source))
                    .map_err(|e| e.render()),
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

    /// Replaces the tree by `r.tree` once the runs in `wanted` that apply to it are searched
    /// again on it; what to say about those that do not apply.
    pub fn rerun_on(
        &mut self,
        r: Replacement,
        wanted: Vec<Algorithm>,
    ) -> Result<Option<String>, Busy> {
        if self.is_busy() {
            return Err(Busy);
        }
        let (algos, dropped): (Vec<Algorithm>, Vec<Algorithm>) = wanted
            .into_iter()
            .partition(|a| a.refusal(&r.tree).is_none());
        let why: Vec<String> = dropped
            .iter()
            .filter_map(|a| a.refusal(&r.tree).map(|why| format!("{a}: {why}")))
            .collect();
        self.replacing = Some(r.replacing);
        self.start_runs(r.tree, algos, Some(r.source))?;
        Ok((!dropped.is_empty()).then(|| format!("dropped {}", why.join("; "))))
    }

    /// Finished work taken in; a tree that arrived is searched with the runs on `scene` (or
    /// with those the command line asked for, on the first).
    pub fn pick_up(&mut self, scene: &Scene) -> Arrival {
        let done = match self.poll() {
            Polled::Nothing => return Arrival::Nothing,
            Polled::Failed => return Arrival::Failed,
            Polled::Done(d) => *d,
        };
        match done {
            Done::Tree(Err(report)) if self.first_runs.is_some() => {
                self.fatal = Some(report);
                Arrival::Fatal
            }
            Done::Tree(Ok((tree, source))) => {
                // Re-run what was on screen (or what the command line asked for), where it
                // applies. A new tree can be undone, the first cannot.
                let (wanted, history) = match self.first_runs.take() {
                    Some(first) => (first, History::Keep),
                    None => (scene.algos(), History::Change),
                };
                let replacing = Replacing {
                    file: self.loading.take().map(|(path, _)| path),
                    ..Replacing::new(history)
                };
                let tree = Arc::new(tree);
                let r = Replacement {
                    tree,
                    source,
                    replacing,
                };
                Arrival::Rerun(self.rerun_on(r, wanted))
            }
            Done::Tree(Err(report)) => {
                // The file did not load: `w` must not write to it later.
                self.loading = None;
                Arrival::NotLoaded(report)
            }
            Done::Runs(results, tree) => {
                let tree = tree.map(|(tree, source)| {
                    let r = self.replacing.take();
                    Box::new((tree, source, r.unwrap_or(Replacing::new(History::Change))))
                });
                Arrival::Runs {
                    results,
                    tree,
                    practise: std::mem::take(&mut self.practice_pending),
                }
            }
        }
    }

    /// The finished work, if it is finished; a failed load is over.
    fn poll(&mut self) -> Polled {
        let polled = self.worker.poll();
        if let Polled::Failed = polled {
            self.loading = None;
            self.first_runs = None;
        }
        polled
    }
}

/// Runs and background work as the explorer starts them and takes them in: what arrives is
/// applied to the components it touches (a new tree ends practice, runs arrive on the scene,
/// a message says what went wrong).
impl App {
    /// Runs `algos` in the background: the screen stays live, and Esc cancels a search that
    /// takes too long.
    pub fn run_all(&mut self, algos: &[Algorithm]) {
        if !algos.is_empty() {
            let tree = Arc::clone(&self.scene.doc.tree);
            let started = self.jobs.start_runs(tree, algos.to_vec(), None);
            self.busy(started);
        }
    }

    /// Runs `algos` now, on this thread (tests and benchmarks).
    pub fn run_now(&mut self, algos: &[Algorithm]) {
        for a in algos {
            match RunView::new(&self.scene.doc.tree, a.clone()) {
                Ok(r) => self.scene.push_run(r),
                Err(e) => self.status = Some((format!("cannot run {a}: {e}"), true)),
            }
        }
    }

    /// Loads `path` in the background; when it arrives it replaces the tree and the runs on
    /// screen are searched again on it.
    pub(super) fn load(&mut self, path: PathBuf) {
        let started = self.jobs.load(path);
        self.busy(started);
    }

    /// The first load, of the file named on the command line: `runs` start when it arrives,
    /// and if it fails the explorer ends with the report.
    pub fn load_first(&mut self, path: PathBuf, runs: Vec<Algorithm>) {
        self.jobs.first_runs = Some(runs);
        self.load(path);
    }

    /// Says that work could not start because the worker is busy.
    pub(super) fn busy(&mut self, started: Result<(), Busy>) {
        if started.is_err() {
            self.status = Some(("busy: wait for the work in progress".into(), true));
        }
    }

    /// Picks up finished background work; called on every tick.
    pub(super) fn poll(&mut self) {
        let arrival = match self.jobs.pick_up(&self.scene) {
            Arrival::Nothing => return,
            Arrival::Failed => {
                // A load that failed so is over: the explorer stays on the tree it has.
                self.status = Some(("the work in progress failed".into(), true));
                return;
            }
            arrival => arrival,
        };
        if self
            .status
            .as_ref()
            .is_some_and(|(m, _)| m.starts_with("busy:"))
        {
            self.status = None;
        }
        match arrival {
            Arrival::Nothing | Arrival::Failed => {}
            Arrival::Fatal => self.quit = true,
            Arrival::Rerun(started) => self.rerunning(started),
            Arrival::NotLoaded(report) => {
                self.mode = Mode::Popup(Popup {
                    title: "cannot open".into(),
                    text: report,
                    error: true,
                });
            }
            Arrival::Runs {
                results,
                tree,
                practise,
            } => self.receive(results, tree, practise),
        }
    }

    /// Runs that arrived, on the tree that replaces this one if they bring one.
    fn receive(
        &mut self,
        results: Vec<Result<RunView, String>>,
        tree: Option<Box<(Tree, String, Replacing)>>,
        practise: bool,
    ) {
        let current = self.scene.current;
        let mut replacing = tree.map(|new| {
            let (tree, source, r) = *new;
            self.practice = None;
            self.scene.replace(tree, source, &r);
            r
        });
        let kept = replacing.as_mut().map(|r| std::mem::take(&mut r.kept));
        if let Some(e) = self.scene.receive(results, kept.unwrap_or_default()) {
            self.status = Some((e, true));
        }
        if practise && !self.scene.runs.is_empty() {
            self.scene.current = self.scene.runs.len() - 1;
            self.start_practice();
        }
        if let Some(r) = replacing
            && let Some(said) = self.scene.settle(current, r, &self.layout)
            && self.status.is_none()
        {
            self.status = Some((said, false));
        }
    }

    /// Waits for background work (tests and scripted use).
    pub fn wait(&mut self) {
        while self.jobs.is_busy() {
            std::thread::sleep(Duration::from_millis(2));
            self.poll();
        }
    }

    /// Replaces the tree by `r.tree` once the runs in `wanted` that apply to it are searched
    /// again on it (in the background); says which do not apply.
    pub(super) fn rerun_on(&mut self, r: Replacement, wanted: Vec<Algorithm>) {
        let started = self.jobs.rerun_on(r, wanted);
        self.rerunning(started);
    }

    /// Says which runs do not apply to the tree on its way in, or that the worker is busy.
    pub(super) fn rerunning(&mut self, started: Result<Option<String>, Busy>) {
        match started {
            Ok(None) => {}
            Ok(Some(dropped)) => self.status = Some((dropped, true)),
            Err(busy) => self.busy(Err(busy)),
        }
    }
}
