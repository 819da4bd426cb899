//! The explorer's state and its one entry point for change, [`App::update`] — the Elm way: keys
//! become [`Action`]s through the keymap, actions change the state, `draw` shows it.
//!
//! The state's jobs have their own files: the runs ([`super::runs`]), the background worker
//! ([`super::worker`]), the stepper and player ([`super::stepper`]), the label search
//! ([`super::label_search`]), the forms ([`super::form`], [`super::dialogs`]) and the outline's
//! filter ([`super::view`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::analyze::{self, Analysis};
use crate::format::LoadProgress;
use crate::format::progress::Snapshot;
use crate::search::{ALGORITHMS, Algorithm, Params, Reference, Refusal};
use crate::tree::{NodeId, Tree};

use super::edit::{History, Replacing};
use super::form::{Form, Outcome};
use super::keymap::{Action, Context, Key, KeyName, Keymap};
use super::layout::Layout;
use super::outline::Outline;
use super::theme::Theme;
use super::view::View;
use super::worker::{Done, Polled, Worker};

pub use super::form::{Field, FieldValue, Purpose};
pub use super::runs::RunView;

/// A message box: errors from files opened in the explorer show here with the CLI's report.
#[derive(Clone, Debug, PartialEq)]
pub struct Popup {
    pub title: String,
    pub text: String,
    pub error: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    Normal,
    Help,
    /// Typing a label search.
    Search(String),
    /// Choosing an algorithm: the highlighted row.
    Picker(usize),
    Form(Form),
    Popup(Popup),
}

/// Everything on screen, and what the last draw laid out (for the mouse).
pub struct App {
    pub tree: Arc<Tree>,
    /// Where the tree came from: a path or "(built-in example)".
    pub source: String,
    pub sizes: Vec<u32>,
    /// Knuth–Moore types, for two-player trees without chance nodes.
    pub analysis: Option<Analysis>,
    pub reference: Reference,
    refusals: Vec<Option<Refusal>>,
    pub outline: Outline,
    pub runs: Vec<RunView>,
    pub current: usize,
    pub mode: Mode,
    pub keymap: Keymap,
    pub themes: Vec<Theme>,
    pub theme: usize,
    pub visited_only: bool,
    pub fold_pruned: bool,
    pub differences: bool,
    pub playing: bool,
    /// Steps a second when playing.
    pub speed: u32,
    pub(super) last_play: Instant,
    pub last_search: Option<String>,
    /// A one-line message for the status bar, and whether it reports an error.
    pub status: Option<(String, bool)>,
    pub(super) worker: Worker,
    pub quit: bool,
    /// Rows of the outline on screen (set by draw).
    pub height: usize,
    /// The outline's area and rows at the last draw, for mouse clicks.
    pub hit: Hit,
    /// The last generator settings, so the form reopens as it was left.
    pub(super) gen_form: Option<Form>,
    /// Export files the user was told exist; a second Enter on the same names overwrites them.
    pub(super) overwrite_confirmed: Option<Vec<String>>,
    /// While the file named on the command line loads: the runs to start when it arrives.
    pub(super) first_runs: Option<Vec<Algorithm>>,
    /// Why the explorer ended on its own: the file it was asked to open did not load.
    pub fatal: Option<String>,
    /// What the layout keys change: Detail, scrolling, precision (see [`super::layout`]).
    pub layout: Layout,
    /// Practising on a run: its questions, the answers given, the score.
    pub practice: Option<super::practice::Practice>,
    /// Practice starts when the next runs arrive (`prune tui --practice ALGO`).
    pub practice_pending: bool,
    /// The file the tree was loaded from or last saved to: where `w` saves. `None` for a
    /// generated, reordered or built-in tree, which `w` asks a path for.
    pub file: Option<std::path::PathBuf>,
    /// The file being loaded in the background, and how far its load has got.
    pub(super) loading: Option<(std::path::PathBuf, Arc<LoadProgress>)>,
    /// Earlier trees (undo) and undone ones (redo), the latest last.
    pub(super) undo: Vec<super::edit::Version>,
    pub(super) redo: Vec<super::edit::Version>,
    /// A tree whose runs are being searched again before it replaces this one.
    pub(super) replacing: Option<super::edit::Replacing>,
    /// The tree was edited (or reordered) since it was opened, generated or saved.
    pub unsaved: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Hit {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub rows: Vec<(NodeId, u16)>,
}

impl App {
    pub fn new(tree: Tree, source: String, keymap: Keymap, themes: Vec<Theme>) -> App {
        let tree = Arc::new(tree);
        let mut app = App {
            sizes: Vec::new(),
            analysis: None,
            reference: Reference::Scalars(Vec::new()),
            refusals: Vec::new(),
            outline: Outline::new(&tree),
            tree,
            source,
            runs: Vec::new(),
            current: 0,
            mode: Mode::Normal,
            keymap,
            themes,
            theme: 0,
            visited_only: false,
            fold_pruned: false,
            differences: false,
            playing: false,
            speed: 10,
            last_play: Instant::now(),
            last_search: None,
            status: None,
            worker: Worker::default(),
            quit: false,
            height: 20,
            hit: Hit::default(),
            gen_form: None,
            overwrite_confirmed: None,
            first_runs: None,
            fatal: None,
            layout: Layout::default(),
            practice: None,
            practice_pending: false,
            file: None,
            loading: None,
            undo: Vec::new(),
            redo: Vec::new(),
            replacing: None,
            unsaved: false,
        };
        app.analyse();
        app
    }

    fn analyse(&mut self) {
        self.sizes = self.tree.subtree_sizes();
        self.reference = if self.tree.is_multiplayer() {
            Reference::of(&self.tree, &Algorithm::Maxn)
        } else {
            Reference::of(&self.tree, &Algorithm::Expectiminimax)
        };
        self.analysis = analyze::analyze(&self.tree).ok();
        // Some refusals scan every leaf: computed once per tree, not per frame.
        self.refusals = ALGORITHMS
            .iter()
            .map(|i| {
                Algorithm::with_params(i.name, &Params::default())
                    .ok()
                    .and_then(|a| a.refusal(&self.tree))
            })
            .collect();
    }

    pub fn theme(&self) -> &Theme {
        &self.themes[self.theme]
    }

    pub fn current_run(&self) -> Option<&RunView> {
        self.runs.get(self.current)
    }

    /// The outline's filter, from the current run at its step.
    pub fn view(&self) -> View<'_> {
        View::new(
            &self.tree,
            self.current_run(),
            self.visited_only,
            self.fold_pruned,
        )
    }

    /// Does `f` to the outline through the current view.
    pub(super) fn with_outline<R>(&mut self, f: impl FnOnce(&mut Outline, &Tree, &View) -> R) -> R {
        let view = View::new(
            &self.tree,
            self.runs.get(self.current),
            self.visited_only,
            self.fold_pruned,
        );
        f(&mut self.outline, &self.tree, &view)
    }

    /// Why each algorithm cannot search this tree, in [`ALGORITHMS`] order.
    pub fn refusals(&self) -> &[Option<Refusal>] {
        &self.refusals
    }

    /// Work in progress: what, for how long, and the nodes a search has visited so far.
    pub fn pending(&self) -> Option<(&str, Duration, u64)> {
        self.worker.progress()
    }

    /// While the file named on the command line loads (the explorer shows only the loading
    /// screen then): the file, and how far the load has got.
    pub fn first_load(&self) -> Option<(&std::path::Path, Snapshot)> {
        self.first_runs.as_ref()?;
        let (path, progress) = self.loading.as_ref()?;
        Some((path, progress.snapshot()))
    }

    /// The loading screen of `path` at `progress`, without loading anything (snapshot tests).
    pub fn show_loading(&mut self, path: std::path::PathBuf, progress: Arc<LoadProgress>) {
        self.first_runs = Some(Vec::new());
        self.loading = Some((path, progress));
    }

    /// Runs `algos` in the background: the screen stays live, and Esc cancels a search that
    /// takes too long.
    pub fn run_all(&mut self, algos: &[Algorithm]) {
        if !algos.is_empty() {
            self.start_runs(Arc::clone(&self.tree), algos.to_vec(), None);
        }
    }

    /// Runs `algos` now, on this thread (tests and benchmarks).
    pub fn run_now(&mut self, algos: &[Algorithm]) {
        for a in algos {
            match RunView::new(&self.tree, a.clone()) {
                Ok(r) => self.push_run(r),
                Err(e) => self.status = Some((format!("cannot run {a}: {e}"), true)),
            }
        }
    }

    fn push_run(&mut self, r: RunView) {
        self.runs.push(r);
        self.current = self.runs.len() - 1;
    }

    /// Loads `path` in the background; when it arrives it replaces the tree and the runs on
    /// screen are searched again on it.
    pub fn load(&mut self, path: std::path::PathBuf) {
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
        });
    }

    /// The first load, of the file named on the command line: `runs` start when it arrives,
    /// and if it fails the explorer ends with the report.
    pub fn load_first(&mut self, path: std::path::PathBuf, runs: Vec<Algorithm>) {
        self.first_runs = Some(runs);
        self.load(path);
    }

    /// Starts `work` in the background, or says that the worker is busy.
    pub(super) fn start(
        &mut self,
        what: String,
        work: impl FnOnce(&crate::search::Control) -> Done + Send + 'static,
    ) {
        if self.worker.start(what, work).is_err() {
            self.status = Some(("busy: wait for the work in progress".into(), true));
        }
    }

    /// Starts the runs of `algos` on `tree` in the background; `new_tree` replaces the tree
    /// when they are done.
    pub(super) fn start_runs(
        &mut self,
        tree: Arc<Tree>,
        algos: Vec<Algorithm>,
        new_tree: Option<String>,
    ) {
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
        });
    }

    /// Picks up finished background work; called on every tick.
    pub fn poll(&mut self) {
        let done = match self.worker.poll() {
            Polled::Nothing => return,
            Polled::Failed => {
                // A load that failed so is over: the explorer stays on the tree it has.
                self.loading = None;
                self.first_runs = None;
                self.status = Some(("the work in progress failed".into(), true));
                return;
            }
            Polled::Done(d) => *d,
        };
        if self
            .status
            .as_ref()
            .is_some_and(|(m, _)| m.starts_with("busy:"))
        {
            self.status = None;
        }
        match done {
            Done::Tree(Err(report)) if self.first_runs.is_some() => {
                self.fatal = Some(report);
                self.quit = true;
            }
            Done::Tree(Ok((tree, source))) => {
                // Re-run what was on screen (or what the command line asked for), where it
                // applies, and say what does not. A new tree can be undone, the first cannot.
                let (wanted, history) = match self.first_runs.take() {
                    Some(first) => (first, History::Keep),
                    None => (
                        self.runs
                            .iter()
                            .filter(|r| r.kept.is_none())
                            .map(|r| r.algo.clone())
                            .collect(),
                        History::Change,
                    ),
                };
                let replacing = Replacing {
                    file: self.loading.take().map(|(path, _)| path),
                    select: None,
                    history,
                    message: None,
                    before: Vec::new(),
                    changed: false,
                    kept: Vec::new(),
                };
                self.rerun_on(Arc::new(tree), source, wanted, replacing);
            }
            Done::Tree(Err(report)) => {
                // The file did not load: `w` must not write to it later.
                self.loading = None;
                self.mode = Mode::Popup(Popup {
                    title: "cannot open".into(),
                    text: report,
                    error: true,
                });
            }
            Done::Runs(results, tree) => {
                let current = self.current;
                let mut replacing = None;
                if let Some((tree, source)) = tree {
                    let r = self.replacing.take().unwrap_or(Replacing {
                        file: None,
                        select: None,
                        history: History::Change,
                        message: None,
                        before: Vec::new(),
                        changed: false,
                        kept: Vec::new(),
                    });
                    self.record(r.history);
                    self.replace_tree(tree, source);
                    self.file = r.file.clone();
                    self.unsaved = r.changed;
                    replacing = Some(r);
                }
                for r in results {
                    match r {
                        Ok(r) => self.push_run(r),
                        Err(e) => self.status = Some((e, true)),
                    }
                }
                if let Some(r) = replacing.as_mut()
                    && !r.kept.is_empty()
                {
                    // The kept runs go after the new ones, which stay selected.
                    let fresh = self.current;
                    self.runs.append(&mut r.kept);
                    self.current = fresh;
                }
                if std::mem::take(&mut self.practice_pending) && !self.runs.is_empty() {
                    self.current = self.runs.len() - 1;
                    self.start_practice();
                }
                // An edit keeps the run and the node that were selected (the node by path).
                if let Some(r) = replacing {
                    if let Some(path) = r.select {
                        self.current = current.min(self.runs.len().saturating_sub(1));
                        let id = super::edit::node_at(&self.tree, &path);
                        self.select(id);
                    }
                    if let Some(m) = r.message
                        && self.status.is_none()
                    {
                        let m = super::edit::compared(&m, &r.before, &self.runs);
                        self.status = Some((m, false));
                    }
                }
            }
        }
    }

    fn replace_tree(&mut self, tree: Tree, source: String) {
        self.tree = Arc::new(tree);
        self.source = source;
        self.runs.clear();
        self.practice = None;
        self.current = 0;
        self.playing = false;
        self.outline = Outline::new(&self.tree);
        self.analyse();
    }

    /// Waits for background work (tests and scripted use).
    pub fn wait(&mut self) {
        while self.worker.is_busy() {
            std::thread::sleep(Duration::from_millis(2));
            self.poll();
        }
    }

    /// The key typed, in whatever mode the explorer is.
    pub fn key(&mut self, key: Key) {
        let context = match self.mode {
            Mode::Normal | Mode::Help | Mode::Popup(_) => Context::Normal,
            Mode::Picker(_) => Context::List,
            Mode::Search(_) | Mode::Form(_) => Context::Input,
        };
        if self.first_load().is_some() && self.mode == Mode::Normal {
            // The loading screen: the keys that quit or cancel end the explorer; there is
            // nothing else yet to act on.
            if matches!(
                self.keymap.action_in(Context::Normal, &key),
                Some(Action::Quit | Action::Cancel)
            ) {
                self.quit = true;
            }
            return;
        }
        if self.practice.is_some() && self.mode == Mode::Normal {
            self.status = None;
            self.practice_key(key);
            return;
        }
        let action = self.keymap.action_in(context, &key);
        // A message lasts until the next key: it may no longer be true after it.
        self.status = None;
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Normal => {
                if let Some(a) = action {
                    self.update(a);
                }
            }
            Mode::Help => {
                // Scrolling keys scroll; any other closes; Ctrl-C still quits.
                if action == Some(Action::Quit) && key.ctrl {
                    self.quit = true;
                } else if self.help_key(action) {
                    self.mode = Mode::Help;
                }
            }
            Mode::Popup(_) => {
                // Any key closes; Ctrl-C still quits.
                if key.ctrl && key.code == KeyName::Char('c') {
                    self.quit = true;
                }
            }
            Mode::Search(q) => self.search_key(action, key, q),
            Mode::Picker(i) => self.picker_key(action, i),
            Mode::Form(mut form) => match action {
                Some(Action::Quit) => self.quit = true,
                _ => match form.input(action, key) {
                    Outcome::Cancelled => {}
                    Outcome::Edited => {
                        if form.purpose == Purpose::Generate {
                            super::generate_form::follow_family(&mut form);
                        }
                        self.mode = Mode::Form(form);
                    }
                    Outcome::Submitted => {
                        if let Err(e) = self.submit(&form) {
                            form.error = Some(e);
                            self.mode = Mode::Form(form);
                        }
                    }
                },
            },
        }
    }

    /// The action, in normal mode.
    pub fn update(&mut self, action: Action) {
        let h = self.height.max(1);
        let page = h.saturating_sub(1).max(1) as isize;
        match action {
            Action::Up => self.with_outline(|o, t, v| o.move_by(t, v, -1, h)),
            Action::Down => self.with_outline(|o, t, v| o.move_by(t, v, 1, h)),
            Action::PageUp => self.with_outline(|o, t, v| o.move_by(t, v, -page, h)),
            Action::PageDown => self.with_outline(|o, t, v| o.move_by(t, v, page, h)),
            Action::Top => self.with_outline(|o, t, v| o.select(t, v, t.root(), h)),
            Action::Bottom => self.with_outline(|o, t, v| o.select_last(t, v, h)),
            Action::Collapse => self.with_outline(|o, t, v| o.collapse_or_parent(t, v, h)),
            Action::Expand => self.with_outline(|o, t, v| o.expand_or_child(t, v, h)),
            Action::Toggle => {
                let sel = self.outline.selected;
                let tree = Arc::clone(&self.tree);
                self.outline.toggle(&tree, sel);
            }
            Action::ExpandDepth(d) => {
                self.outline.expand_to_depth(usize::from(d));
                self.with_outline(|o, t, v| o.refresh(t, v, h));
            }
            Action::Parent => {
                if let Some(p) = self.tree.parent(self.outline.selected) {
                    self.with_outline(|o, t, v| o.select(t, v, p, h));
                }
            }
            Action::Search => self.mode = Mode::Search(String::new()),
            Action::SearchNext => self.search_again(true),
            Action::SearchPrev => self.search_again(false),
            Action::AddRun => self.mode = Mode::Picker(self.first_applicable()),
            Action::RemoveRun => {
                if self.need_run("remove") && self.current < self.runs.len() {
                    let r = self.runs.remove(self.current);
                    self.status = Some((format!("removed {}", r.algo), false));
                    self.current = self.current.min(self.runs.len().saturating_sub(1));
                    self.playing = false;
                    self.with_outline(|o, t, v| o.refresh(t, v, h));
                }
            }
            Action::NextRun | Action::PrevRun => {
                let n = self.runs.len();
                if n > 1 {
                    self.current = if action == Action::NextRun {
                        (self.current + 1) % n
                    } else {
                        (self.current + n - 1) % n
                    };
                    self.with_outline(|o, t, v| o.refresh(t, v, h));
                }
            }
            Action::StepForward
            | Action::StepBack
            | Action::NextCutoff
            | Action::PrevCutoff
            | Action::NextProbe
            | Action::PrevProbe
            | Action::NextResearch
            | Action::PrevResearch
            | Action::NextIteration
            | Action::PrevIteration
            | Action::NextTableHit
            | Action::PrevTableHit
            | Action::JumpToPruner
            | Action::PlayPause
            | Action::Faster
            | Action::Slower
            | Action::StepStart
            | Action::StepEnd => {
                if self.need_run("step through") {
                    self.stepper(action);
                }
            }
            Action::VisitedOnly => {
                self.visited_only = !self.visited_only;
                self.with_outline(|o, t, v| o.refresh(t, v, h));
            }
            Action::FoldPruned => {
                self.fold_pruned = !self.fold_pruned;
                self.with_outline(|o, t, v| o.refresh(t, v, h));
            }
            Action::Differences => {
                self.differences = !self.differences;
                if self.runs.len() < 2 && self.differences {
                    self.status = Some(("differences show with two runs or more".into(), false));
                }
            }
            Action::Theme => {
                self.theme = (self.theme + 1) % self.themes.len();
                self.status = Some((format!("theme: {}", self.theme().name), false));
            }
            Action::Help => self.mode = Mode::Help,
            Action::Open => self.mode = Mode::Form(super::dialogs::open_form()),
            Action::Generate => self.mode = Mode::Form(self.generate_form()),
            Action::Reorder => self.mode = Mode::Form(super::dialogs::reorder_form()),
            Action::Export => {
                if self.need_run("export") {
                    self.mode = Mode::Form(self.export_form());
                }
            }
            Action::EditNode
            | Action::AddChild
            | Action::DeleteNode
            | Action::Undo
            | Action::Redo
            | Action::Save
            | Action::SaveAs => self.edit_action(action),
            Action::Quit => self.quit = true,
            Action::Cancel => self.cancel(),
            Action::ToggleDetail
            | Action::DetailUp
            | Action::DetailDown
            | Action::FullPrecision
            | Action::EventLog
            | Action::Diagram => self.layout_action(action),
            Action::Practice => self.start_practice(),
            // Dialog actions bound in the outline do nothing there.
            Action::Confirm
            | Action::NextField
            | Action::PrevField
            | Action::NextChoice
            | Action::PrevChoice
            | Action::DeleteChar
            | Action::EvenProbabilities
            | Action::Unbound => {}
        }
    }

    /// Esc in the outline: stop the work in progress, or the player; never quit.
    fn cancel(&mut self) {
        if let Some(what) = self.worker.cancel() {
            self.replacing = None;
            self.loading = None;
            self.status = Some((format!("cancelled: {what}"), false));
        } else if self.playing {
            self.playing = false;
        } else {
            self.status = None;
        }
    }

    /// Says that `what` needs a run when there is none; true when there is one.
    fn need_run(&mut self, what: &str) -> bool {
        if self.runs.is_empty() {
            let key = self.keymap.keys_for(Action::AddRun);
            let key = key.split(' ').next().unwrap_or("r").to_owned();
            self.status = Some((
                format!("no run yet to {what}: press {key} to run an algorithm"),
                false,
            ));
            false
        } else {
            true
        }
    }

    fn first_applicable(&self) -> usize {
        self.refusals.iter().position(Option::is_none).unwrap_or(0)
    }

    fn picker_key(&mut self, action: Option<Action>, i: usize) {
        let n = ALGORITHMS.len();
        match action {
            Some(Action::Up) => self.mode = Mode::Picker((i + n - 1) % n),
            Some(Action::Down) => self.mode = Mode::Picker((i + 1) % n),
            Some(Action::Confirm) => {
                if let Some(why) = &self.refusals[i] {
                    self.status = Some((why.to_string(), true));
                    self.mode = Mode::Picker(i);
                    return;
                }
                let info = &ALGORITHMS[i];
                if info.params.is_empty() {
                    match Algorithm::with_params(info.name, &Params::default()) {
                        Ok(a) => self.run_all(&[a]),
                        Err(e) => self.status = Some((e.to_string(), true)),
                    }
                } else {
                    self.mode = Mode::Form(super::dialogs::run_form(info, self.tree.players()));
                }
            }
            Some(Action::Cancel) => {}
            Some(Action::Quit) => self.quit = true,
            _ => self.mode = Mode::Picker(i),
        }
    }

    fn search_key(&mut self, action: Option<Action>, key: Key, mut q: String) {
        match action {
            Some(Action::Confirm) => {
                self.last_search = Some(q);
                self.search_again(true);
            }
            Some(Action::Cancel) => {}
            Some(Action::Quit) => self.quit = true,
            Some(Action::DeleteChar) => {
                q.pop();
                self.mode = Mode::Search(q);
            }
            _ => {
                if let KeyName::Char(c) = key.code
                    && !key.ctrl
                    && !key.alt
                {
                    q.push(c);
                }
                self.mode = Mode::Search(q);
            }
        }
    }

    /// The next (or previous) node after the selection whose label contains the last query.
    fn search_again(&mut self, forward: bool) {
        let Some(q) = self.last_search.clone().filter(|q| !q.is_empty()) else {
            self.status = Some(("no search yet: type / and a label".into(), false));
            return;
        };
        match super::label_search::find(&self.tree, self.outline.selected, &q, forward) {
            Some(id) => {
                self.select(id);
                self.status = None;
            }
            None => self.status = Some((format!("no label contains “{}”", q.to_lowercase()), true)),
        }
    }

    /// Selects `id`, opening the outline to it.
    pub fn select(&mut self, id: NodeId) {
        let h = self.height;
        self.with_outline(|o, t, v| o.select(t, v, id, h));
    }

    /// A mouse click at (x, y): select the row; on its fold marker, also fold or unfold.
    pub fn click(&mut self, x: u16, y: u16) {
        let hit = &self.hit;
        if x < hit.x || x >= hit.x + hit.width || y < hit.y {
            return;
        }
        let row = usize::from(y - hit.y);
        let Some(&(id, marker)) = hit.rows.get(row) else {
            return;
        };
        if x == marker {
            let tree = Arc::clone(&self.tree);
            self.outline.toggle(&tree, id);
        }
        self.outline.selected = id;
        self.outline.cursor_row = row;
    }

    pub fn scroll(&mut self, down: bool) {
        self.update(if down { Action::Down } else { Action::Up });
    }
}
