//! The explorer's state and its one entry point for change, [`App::update`] — the Elm way: keys
//! become [`Action`]s through the keymap, actions change the state, `draw` shows it.
//!
//! Long work (loading a file, searching a big tree, generating one) runs on a worker thread;
//! the screen keeps redrawing with a spinner and the elapsed time until [`App::poll`] picks the
//! result up.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use clap::Parser;

use crate::analyze::{self, Analysis};
use crate::format;
use crate::search::{self, ALGORITHMS, Algorithm, Params, Progress, Reference, Run, Value};
use crate::trace::export;
use crate::trace::{EventKind, EventView, Recorder, Replay, Status, StepIndex, Trace};
use crate::tree::{Kind, NodeId, Tree};

use super::keymap::{Action, Key, KeyName, Keymap};
use super::outline::{Filter, Outline};
use super::theme::Theme;

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
    pub fn new(tree: &Tree, algo: Algorithm) -> Result<RunView, String> {
        RunView::with_progress(tree, algo, &AtomicU64::new(0))
    }

    /// Searches `tree` recording every event, publishing the visits so far in `visits`.
    pub fn with_progress(
        tree: &Tree,
        algo: Algorithm,
        visits: &AtomicU64,
    ) -> Result<RunView, String> {
        let mut obs = Progress::new(Recorder::new(tree.len()), visits);
        let (found, secs) = search::search(tree, &algo, &mut obs)?;
        let (trace, stats) = obs.inner.finish();
        let run = search::finish(tree, &algo, found, stats, secs);
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
}

/// A text field, a choice or a toggle of a [`Form`].
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    Text(String),
    Choice(Vec<&'static str>, usize),
    Toggle(bool),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub label: &'static str,
    pub value: FieldValue,
}

impl Field {
    fn text(label: &'static str, v: impl Into<String>) -> Field {
        Field {
            label,
            value: FieldValue::Text(v.into()),
        }
    }

    fn choice(label: &'static str, options: &[&'static str], index: usize) -> Field {
        Field {
            label,
            value: FieldValue::Choice(options.to_vec(), index),
        }
    }

    fn toggle(label: &'static str, on: bool) -> Field {
        Field {
            label,
            value: FieldValue::Toggle(on),
        }
    }

    pub fn shown(&self) -> String {
        match &self.value {
            FieldValue::Text(s) => s.clone(),
            FieldValue::Choice(o, i) => format!("‹ {} ›", o[*i]),
            FieldValue::Toggle(b) => if *b { "[x]" } else { "[ ]" }.into(),
        }
    }
}

/// What a form is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Purpose {
    Run(&'static str),
    Generate,
    Open,
    Export,
    Reorder,
}

/// A small dialog of fields: Tab/↑/↓ move between fields, ←/→ change a choice or toggle, typing
/// edits text, Enter confirms, Esc cancels.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub title: String,
    pub purpose: Purpose,
    pub fields: Vec<Field>,
    pub focus: usize,
    pub error: Option<String>,
}

impl Form {
    fn get(&self, label: &str) -> &FieldValue {
        &self
            .fields
            .iter()
            .find(|f| f.label == label)
            .expect("the form has this field")
            .value
    }

    fn text(&self, label: &str) -> &str {
        match self.get(label) {
            FieldValue::Text(s) => s.trim(),
            _ => "",
        }
    }

    fn choice(&self, label: &str) -> &'static str {
        match self.get(label) {
            FieldValue::Choice(o, i) => o[*i],
            _ => "",
        }
    }
}

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

/// What a worker thread sends back.
enum Done {
    Tree(Result<(Tree, String), String>),
    Runs(Vec<Result<RunView, String>>, Option<(Tree, String)>),
}

struct Pending {
    what: String,
    started: Instant,
    rx: Receiver<Done>,
    /// Nodes visited so far by the search in progress, if it is one.
    visits: Arc<AtomicU64>,
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
    refusals: Vec<Option<String>>,
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
    last_play: Instant,
    pub last_search: Option<String>,
    /// A one-line message for the status bar, and whether it reports an error.
    pub status: Option<(String, bool)>,
    pending: Option<Pending>,
    pub quit: bool,
    /// Rows of the outline on screen (set by draw).
    pub height: usize,
    /// The outline's area and rows at the last draw, for mouse clicks.
    pub hit: Hit,
    /// The last generator and export settings, so forms reopen as they were left.
    gen_form: Option<Form>,
}

#[derive(Clone, Debug, Default)]
pub struct Hit {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub rows: Vec<(NodeId, u16)>,
}

const SPEEDS: [u32; 8] = [1, 2, 5, 10, 20, 50, 100, 1000];

/// The filter the outline applies, from the current run at its step.
pub struct View<'a> {
    pub tree: &'a Tree,
    pub replay: Option<(Replay<'a>, usize)>,
    pub visited_only: bool,
    pub fold_pruned: bool,
}

impl View<'_> {
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

impl App {
    pub fn new(tree: Tree, source: String, keymap: Keymap, themes: Vec<Theme>) -> App {
        let tree = Arc::new(tree);
        let mut app = App {
            sizes: tree.subtree_sizes(),
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
            pending: None,
            quit: false,
            height: 20,
            hit: Hit::default(),
            gen_form: None,
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
                    .map_or_else(Some, |a| a.refusal(&self.tree))
            })
            .collect();
    }

    pub fn theme(&self) -> &Theme {
        &self.themes[self.theme]
    }

    pub fn current_run(&self) -> Option<&RunView> {
        self.runs.get(self.current)
    }

    pub fn view(&self) -> View<'_> {
        View {
            tree: &self.tree,
            replay: self.current_run().map(|r| (r.replay(&self.tree), r.step)),
            visited_only: self.visited_only,
            fold_pruned: self.fold_pruned,
        }
    }

    /// Work in progress: what, for how long, and the nodes a search has visited so far.
    pub fn pending(&self) -> Option<(&str, Duration, u64)> {
        self.pending.as_ref().map(|p| {
            let visits = p.visits.load(Ordering::Relaxed);
            (p.what.as_str(), p.started.elapsed(), visits)
        })
    }

    /// Runs `algos`: at once on a small tree, in the background on a big one.
    pub fn run_all(&mut self, algos: &[Algorithm]) {
        if self.tree.len() <= 100_000 {
            self.run_now(algos);
        } else if !algos.is_empty() {
            self.start_runs(Arc::clone(&self.tree), algos.to_vec(), None);
        }
    }

    /// Runs `algos` now, on this thread (small trees and tests).
    pub fn run_now(&mut self, algos: &[Algorithm]) {
        for a in algos {
            match RunView::new(&self.tree, a.clone()) {
                Ok(r) => {
                    self.runs.push(r);
                    self.current = self.runs.len() - 1;
                }
                Err(e) => self.status = Some((format!("cannot run {a}: {e}"), true)),
            }
        }
    }

    fn start(&mut self, what: String, work: impl FnOnce(&AtomicU64) -> Done + Send + 'static) {
        if self.pending.is_some() {
            self.status = Some(("busy: wait for the work in progress".into(), true));
            return;
        }
        let (tx, rx) = mpsc::channel();
        let visits = Arc::new(AtomicU64::new(0));
        let shared = Arc::clone(&visits);
        std::thread::spawn(move || {
            let done = work(&shared);
            let _ = tx.send(done);
        });
        self.pending = Some(Pending {
            what,
            started: Instant::now(),
            rx,
            visits,
        });
    }

    /// Starts the runs of `algos` on `tree` in the background; `new_tree` replaces the tree
    /// when they are done.
    fn start_runs(&mut self, tree: Arc<Tree>, algos: Vec<Algorithm>, new_tree: Option<String>) {
        let names: Vec<String> = algos.iter().map(|a| a.label()).collect();
        let what = if names.is_empty() {
            "preparing the tree".to_owned()
        } else {
            format!("running {}", names.join(", "))
        };
        self.start(what, move |visits| {
            let results = algos
                .into_iter()
                .map(|a| search::with_stack(&tree, || RunView::with_progress(&tree, a, visits)))
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
        let Some(p) = &self.pending else { return };
        let done = match p.rx.try_recv() {
            Ok(d) => d,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => {
                self.pending = None;
                self.status = Some(("the work in progress failed".into(), true));
                return;
            }
        };
        self.pending = None;
        match done {
            Done::Tree(Ok((tree, source))) => {
                // Re-run what was on screen, where it applies.
                let algos: Vec<Algorithm> = self
                    .runs
                    .iter()
                    .map(|r| r.algo.clone())
                    .filter(|a| a.refusal(&tree).is_none())
                    .collect();
                self.start_runs(Arc::new(tree), algos, Some(source));
            }
            Done::Tree(Err(report)) => {
                self.mode = Mode::Popup(Popup {
                    title: "cannot open".into(),
                    text: report,
                    error: true,
                });
            }
            Done::Runs(results, tree) => {
                if let Some((tree, source)) = tree {
                    self.replace_tree(tree, source);
                }
                for r in results {
                    match r {
                        Ok(r) => {
                            self.runs.push(r);
                            self.current = self.runs.len() - 1;
                        }
                        Err(e) => self.status = Some((e, true)),
                    }
                }
            }
        }
    }

    fn replace_tree(&mut self, tree: Tree, source: String) {
        self.tree = Arc::new(tree);
        self.source = source;
        self.runs.clear();
        self.current = 0;
        self.playing = false;
        self.outline = Outline::new(&self.tree);
        self.analyse();
    }

    /// Waits for background work (tests and scripted use).
    pub fn wait(&mut self) {
        while self.pending.is_some() {
            std::thread::sleep(Duration::from_millis(2));
            self.poll();
        }
    }

    /// Time passes: play the trace.
    pub fn tick(&mut self, now: Instant) {
        self.poll();
        if !self.playing {
            return;
        }
        let every = Duration::from_secs_f64(1.0 / f64::from(self.speed));
        let due = (now.duration_since(self.last_play).as_secs_f64() / every.as_secs_f64()) as usize;
        if due == 0 {
            return;
        }
        self.last_play = now;
        let Some(r) = self.runs.get(self.current) else {
            self.playing = false;
            return;
        };
        let target = (r.step + due).min(r.trace.len());
        self.go_to_step(target);
        if target == self.runs[self.current].trace.len() {
            self.playing = false;
        }
    }

    /// The key typed, in whatever mode the explorer is.
    pub fn key(&mut self, key: Key) {
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Normal => {
                if let Some(a) = self.keymap.action(&key) {
                    self.update(a);
                }
            }
            Mode::Help | Mode::Popup(_) => {
                // Any key closes; Ctrl-C still quits.
                if key.ctrl && key.code == KeyName::Char('c') {
                    self.quit = true;
                }
            }
            Mode::Search(q) => self.search_key(key, q),
            Mode::Picker(i) => self.picker_key(key, i),
            Mode::Form(f) => self.form_key(key, f),
        }
    }

    /// The action, in normal mode.
    pub fn update(&mut self, action: Action) {
        let tree = Arc::clone(&self.tree);
        let h = self.height.max(1);
        let page = h.saturating_sub(1).max(1) as isize;
        macro_rules! outline {
            ($f:ident $(, $arg:expr)*) => {{
                let view = View {
                    tree: &tree,
                    replay: self.runs.get(self.current).map(|r| (r.replay(&tree), r.step)),
                    visited_only: self.visited_only,
                    fold_pruned: self.fold_pruned,
                };
                self.outline.$f(&tree, &view $(, $arg)*)
            }};
        }
        match action {
            Action::Up => outline!(move_by, -1, h),
            Action::Down => outline!(move_by, 1, h),
            Action::PageUp => outline!(move_by, -page, h),
            Action::PageDown => outline!(move_by, page, h),
            Action::Top => outline!(select, tree.root(), h),
            Action::Bottom => outline!(select_last, h),
            Action::Collapse => outline!(collapse_or_parent, h),
            Action::Expand => outline!(expand_or_child, h),
            Action::Toggle => {
                let sel = self.outline.selected;
                self.outline.toggle(&tree, sel);
            }
            Action::ExpandDepth(d) => {
                self.outline.expand_to_depth(usize::from(d));
                outline!(refresh, h);
            }
            Action::Parent => {
                if let Some(p) = tree.parent(self.outline.selected) {
                    outline!(select, p, h);
                }
            }
            Action::Search => self.mode = Mode::Search(String::new()),
            Action::SearchNext => self.search_again(true),
            Action::SearchPrev => self.search_again(false),
            Action::AddRun => self.mode = Mode::Picker(self.first_applicable()),
            Action::RemoveRun => {
                if self.current < self.runs.len() {
                    let r = self.runs.remove(self.current);
                    self.status = Some((format!("removed {}", r.algo), false));
                    self.current = self.current.min(self.runs.len().saturating_sub(1));
                    self.playing = false;
                    outline!(refresh, h);
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
                    outline!(refresh, h);
                }
            }
            Action::StepForward => self.step_by(1),
            Action::StepBack => self.step_by(-1),
            Action::NextCutoff => self.jump(EventKind::Cutoff, true),
            Action::PrevCutoff => self.jump(EventKind::Cutoff, false),
            Action::NextProbe => self.jump(EventKind::Probe, true),
            Action::PrevProbe => self.jump(EventKind::Probe, false),
            Action::NextResearch => self.jump(EventKind::Research, true),
            Action::PrevResearch => self.jump(EventKind::Research, false),
            Action::PlayPause => {
                if let Some(r) = self.current_run() {
                    if !self.playing && r.step == r.trace.len() {
                        self.go_to_step(0);
                    }
                    self.playing = !self.playing;
                    self.last_play = Instant::now();
                }
            }
            Action::Faster | Action::Slower => {
                let i = SPEEDS.iter().position(|&s| s >= self.speed).unwrap_or(3);
                let i = if action == Action::Faster {
                    (i + 1).min(SPEEDS.len() - 1)
                } else {
                    i.saturating_sub(1)
                };
                self.speed = SPEEDS[i];
                self.status = Some((format!("playing at {} steps a second", self.speed), false));
            }
            Action::StepStart => self.go_to_step(0),
            Action::StepEnd => {
                if let Some(r) = self.current_run() {
                    let end = r.trace.len();
                    self.go_to_step(end);
                }
            }
            Action::VisitedOnly => {
                self.visited_only = !self.visited_only;
                outline!(refresh, h);
            }
            Action::FoldPruned => {
                self.fold_pruned = !self.fold_pruned;
                outline!(refresh, h);
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
            Action::Open => {
                self.mode = Mode::Form(Form {
                    title: "Open a tree (RON, .efg or bracket notation)".into(),
                    purpose: Purpose::Open,
                    fields: vec![Field::text("file", "")],
                    focus: 0,
                    error: None,
                })
            }
            Action::Generate => self.mode = Mode::Form(self.generate_form()),
            Action::Reorder => {
                self.mode = Mode::Form(Form {
                    title: "Reorder every node's children, then re-run".into(),
                    purpose: Purpose::Reorder,
                    fields: vec![
                        Field::choice("order", &["best first", "worst first", "random"], 0),
                        Field::text("seed", "1"),
                    ],
                    focus: 0,
                    error: None,
                })
            }
            Action::Export => self.mode = Mode::Form(self.export_form()),
            Action::Quit => self.quit = true,
            Action::Unbound => {}
        }
    }

    fn first_applicable(&self) -> usize {
        self.refusals.iter().position(Option::is_none).unwrap_or(0)
    }

    /// Why each algorithm cannot search this tree, in [`ALGORITHMS`] order.
    pub fn refusals(&self) -> &[Option<String>] {
        &self.refusals
    }

    fn picker_key(&mut self, key: Key, i: usize) {
        let n = ALGORITHMS.len();
        match key.code {
            KeyName::Up | KeyName::Char('k') => self.mode = Mode::Picker((i + n - 1) % n),
            KeyName::Down | KeyName::Char('j') => self.mode = Mode::Picker((i + 1) % n),
            KeyName::Enter => {
                if let Some(why) = &self.refusals[i] {
                    self.status = Some((why.clone(), true));
                    self.mode = Mode::Picker(i);
                    return;
                }
                let name = ALGORITHMS[i].name;
                let fields = run_fields(name);
                if fields.is_empty() {
                    self.add_run(Algorithm::with_params(name, &Params::default()).expect("known"));
                } else {
                    self.mode = Mode::Form(Form {
                        title: format!("Run {name} on this {}-player tree", self.tree.players()),
                        purpose: Purpose::Run(name),
                        fields,
                        focus: 0,
                        error: None,
                    });
                }
            }
            KeyName::Esc | KeyName::Char('q') => {}
            _ if key.ctrl && key.code == KeyName::Char('c') => self.quit = true,
            _ => self.mode = Mode::Picker(i),
        }
    }

    fn add_run(&mut self, algo: Algorithm) {
        self.run_all(&[algo]);
    }

    fn search_key(&mut self, key: Key, mut q: String) {
        match key.code {
            KeyName::Enter => {
                self.last_search = Some(q);
                self.search_again(true);
            }
            KeyName::Esc => {}
            KeyName::Backspace => {
                q.pop();
                self.mode = Mode::Search(q);
            }
            KeyName::Char('c') if key.ctrl => self.quit = true,
            KeyName::Char(c) if !key.ctrl && !key.alt => {
                q.push(c);
                self.mode = Mode::Search(q);
            }
            _ => self.mode = Mode::Search(q),
        }
    }

    /// The next (or previous) node in preorder after the selection whose label contains the
    /// query, case-insensitively, wrapping around.
    fn search_again(&mut self, forward: bool) {
        let Some(q) = self.last_search.clone().filter(|q| !q.is_empty()) else {
            self.status = Some(("no search yet: type / and a label".into(), false));
            return;
        };
        let q = q.to_lowercase();
        let tree = Arc::clone(&self.tree);
        let order: Vec<NodeId> = tree.preorder().collect();
        let at = order
            .iter()
            .position(|&id| id == self.outline.selected)
            .unwrap_or(0);
        let n = order.len();
        let found = (1..=n)
            .map(|d| {
                if forward {
                    order[(at + d) % n]
                } else {
                    order[(at + n - d % n) % n]
                }
            })
            .find(|&id| {
                tree.label(id)
                    .is_some_and(|l| l.to_lowercase().contains(&q))
            });
        match found {
            Some(id) => {
                self.select(id);
                self.status = None;
            }
            None => self.status = Some((format!("no label contains “{q}”"), true)),
        }
    }

    /// Selects `id`, opening the outline to it.
    pub fn select(&mut self, id: NodeId) {
        let tree = Arc::clone(&self.tree);
        let view = View {
            tree: &tree,
            replay: self
                .runs
                .get(self.current)
                .map(|r| (r.replay(&tree), r.step)),
            visited_only: self.visited_only,
            fold_pruned: self.fold_pruned,
        };
        self.outline.select(&tree, &view, id, self.height);
    }

    fn step_by(&mut self, d: isize) {
        if let Some(r) = self.current_run() {
            let k = r.step as isize + d;
            let k = k.clamp(0, r.trace.len() as isize) as usize;
            self.go_to_step(k);
        }
    }

    /// Moves the current run to step `k` and selects the node of the step's event.
    pub fn go_to_step(&mut self, k: usize) {
        let Some(r) = self.runs.get_mut(self.current) else {
            self.status = Some(("no run yet: press r to run an algorithm".into(), false));
            return;
        };
        r.step = k.min(r.trace.len());
        let node = if r.step == 0 {
            self.tree.root()
        } else {
            event_node(&r.trace.event(r.step - 1).view())
        };
        self.select(node);
    }

    /// Jumps to the next (previous) event of `kind`: the step that applies it.
    fn jump(&mut self, kind: EventKind, forward: bool) {
        let Some(r) = self.current_run() else { return };
        let events = r.trace.events();
        let found = if forward {
            (r.step..events.len()).find(|&s| events[s].kind() == kind)
        } else {
            (0..r.step.saturating_sub(1))
                .rev()
                .find(|&s| events[s].kind() == kind)
        };
        match found {
            Some(s) => self.go_to_step(s + 1),
            None => {
                let what = match kind {
                    EventKind::Cutoff => "cutoff",
                    EventKind::Probe => "probe",
                    _ => "re-search",
                };
                let dir = if forward { "after" } else { "before" };
                self.status = Some((format!("no {what} {dir} this step"), false));
            }
        }
    }

    fn generate_form(&self) -> Form {
        self.gen_form.clone().unwrap_or_else(|| Form {
            title: "Generate a tree".into(),
            purpose: Purpose::Generate,
            fields: vec![
                Field::choice(
                    "family",
                    &[
                        "uniform",
                        "star-complete",
                        "win-loss",
                        "chance",
                        "multiplayer",
                        "ordered",
                        "random",
                    ],
                    0,
                ),
                Field::text("branching", "3"),
                Field::text("depth", "4"),
                Field::choice("order", &["random", "best", "worst"], 0),
                Field::text("seed", "1"),
                Field::text("more flags", ""),
            ],
            focus: 0,
            error: None,
        })
    }

    fn export_form(&self) -> Form {
        let stem = match self.current_run() {
            Some(r) => format!("{}-{}", file_stem(&self.tree.meta().name), r.algo.name()),
            None => file_stem(&self.tree.meta().name),
        };
        Form {
            title: "Export the selected run (empty: skip)".into(),
            purpose: Purpose::Export,
            fields: vec![
                Field::text("trace (JSONL)", format!("{stem}.jsonl")),
                Field::text("stats (CSV)", format!("{stem}.csv")),
                Field::text("picture (DOT)", format!("{stem}.dot")),
            ],
            focus: 0,
            error: None,
        }
    }

    fn form_key(&mut self, key: Key, mut form: Form) {
        let n = form.fields.len();
        match key.code {
            KeyName::Esc => return,
            KeyName::Char('c') if key.ctrl => {
                self.quit = true;
                return;
            }
            KeyName::Tab | KeyName::Down => form.focus = (form.focus + 1) % n,
            KeyName::BackTab | KeyName::Up => form.focus = (form.focus + n - 1) % n,
            KeyName::Enter => {
                if let Err(e) = self.submit(&form) {
                    form.error = Some(e);
                    self.mode = Mode::Form(form);
                }
                return;
            }
            code => {
                let f = &mut form.fields[form.focus].value;
                match (f, code) {
                    (FieldValue::Choice(o, i), KeyName::Left) => *i = (*i + o.len() - 1) % o.len(),
                    (FieldValue::Choice(o, i), KeyName::Right | KeyName::Char(' ')) => {
                        *i = (*i + 1) % o.len()
                    }
                    (
                        FieldValue::Toggle(b),
                        KeyName::Left | KeyName::Right | KeyName::Char(' '),
                    ) => *b = !*b,
                    (FieldValue::Text(s), KeyName::Backspace) => {
                        s.pop();
                    }
                    (FieldValue::Text(s), KeyName::Char(c)) if !key.ctrl && !key.alt => s.push(c),
                    _ => {}
                }
            }
        }
        form.error = None;
        self.mode = Mode::Form(form);
    }

    /// Carries out a confirmed form; an error keeps the form open with the message.
    fn submit(&mut self, form: &Form) -> Result<(), String> {
        match &form.purpose {
            Purpose::Run(name) => {
                let mut p = Params::default();
                for f in &form.fields {
                    match (f.label, &f.value) {
                        ("fail-soft", FieldValue::Toggle(b)) => p.fail_soft = *b,
                        ("rightmost (§7.2)", FieldValue::Toggle(b)) => p.rightmost = *b,
                        ("probes K", FieldValue::Text(s)) => {
                            p.probes = parse_num::<u32>(s, "probes K")?;
                        }
                        ("k", FieldValue::Text(s)) => p.k = parse_num::<f64>(s, "k")?,
                        ("player", FieldValue::Text(s)) => {
                            let i = parse_num::<u8>(s, "player")?;
                            if i == 0 {
                                return Err("players count from 1".into());
                            }
                            p.player = i - 1;
                        }
                        ("first guess", FieldValue::Text(s)) if !s.trim().is_empty() => {
                            p.guess = Some(parse_num::<f64>(s, "first guess")?);
                        }
                        _ => {}
                    }
                }
                let algo = Algorithm::with_params(name, &p)?;
                if let Some(why) = algo.refusal(&self.tree) {
                    return Err(why);
                }
                self.add_run(algo);
                Ok(())
            }
            Purpose::Open => {
                let path = PathBuf::from(form.text("file"));
                if path.as_os_str().is_empty() {
                    return Err("type the path of a tree file".into());
                }
                let source = path.display().to_string();
                self.start(format!("loading {source}"), move |_| {
                    Done::Tree(
                        format::load(&path, None)
                            .map(|t| (t, source))
                            .map_err(|e| e.render(false)),
                    )
                });
                Ok(())
            }
            Purpose::Generate => {
                let family = form.choice("family");
                let mut args = vec![
                    "gen".to_owned(),
                    family.to_owned(),
                    "-b".into(),
                    form.text("branching").into(),
                    "-d".into(),
                    form.text("depth").into(),
                    "--seed".into(),
                    form.text("seed").into(),
                ];
                if matches!(family, "uniform" | "star-complete") {
                    args.push("--order".into());
                    args.push(form.choice("order").into());
                }
                args.extend(form.text("more flags").split_whitespace().map(String::from));
                let cmd = GenCommand::try_parse_from(&args).map_err(|e| {
                    let text = e.to_string();
                    text.lines()
                        .next()
                        .unwrap_or("bad parameters")
                        .trim_start_matches("error: ")
                        .to_owned()
                })?;
                self.gen_form = Some(form.clone());
                let source = format!("prune {}", args[1..].join(" "));
                self.start(format!("generating ({source})"), move |_| {
                    Done::Tree(
                        crate::cli::generate::build(&cmd.family)
                            .map(|(t, _)| (t, source))
                            .map_err(|e| format!("error: {e}")),
                    )
                });
                Ok(())
            }
            Purpose::Reorder => {
                let seed = parse_num::<u64>(form.text("seed"), "seed")?;
                let how = form.choice("order");
                let tree = reorder(&self.tree, &self.reference, how, seed);
                let algos: Vec<Algorithm> = self.runs.iter().map(|r| r.algo.clone()).collect();
                let source = format!("{} ({how})", self.source);
                self.start_runs(Arc::new(tree), algos, Some(source));
                Ok(())
            }
            Purpose::Export => self.export(form),
        }
    }

    fn export(&mut self, form: &Form) -> Result<(), String> {
        let Some(r) = self.current_run() else {
            return Err("no run to export: run an algorithm first (r)".into());
        };
        let tree = &self.tree;
        let mut written = Vec::new();
        let targets = [
            form.text("trace (JSONL)"),
            form.text("stats (CSV)"),
            form.text("picture (DOT)"),
        ];
        for (i, path) in targets.iter().enumerate() {
            if path.is_empty() {
                continue;
            }
            let p = Path::new(path);
            let result = format::save_with(p, |w| match i {
                0 => export::write_jsonl(w, tree, &r.run, &r.trace),
                1 => w.write_all(export::stats_csv(tree, &[&r.run]).as_bytes()),
                _ => export::write_dot(w, tree, &r.run, &r.trace),
            });
            result.map_err(|e| format!("cannot write {path}: {e}"))?;
            written.push(path.to_string());
        }
        self.status = Some((format!("wrote {}", written.join(", ")), false));
        Ok(())
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

/// `prune gen`'s arguments, parsed from the generate form.
#[derive(Parser)]
#[command(name = "gen", no_binary_name = false)]
struct GenCommand {
    #[command(subcommand)]
    family: crate::cli::generate::Family,
}

fn parse_num<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{what}: `{}` is not a valid number", s.trim()))
}

/// The parameter fields of algorithm `name` (empty: it has none).
fn run_fields(name: &str) -> Vec<Field> {
    match name {
        "alphabeta" => vec![Field::toggle("fail-soft", false)],
        "star1" => vec![Field::toggle("rightmost (§7.2)", false)],
        "star2" => vec![
            Field::text("probes K", "1"),
            Field::toggle("rightmost (§7.2)", false),
        ],
        "krule" => vec![Field::text("k", "2")],
        "paranoid" => vec![Field::text("player", "1")],
        "mtdf" => vec![Field::text("first guess", "")],
        _ => Vec::new(),
    }
}

/// The node an event is about, for the outline to follow.
pub fn event_node(e: &EventView) -> NodeId {
    match *e {
        EventView::Enter { node, .. }
        | EventView::Leaf { node, .. }
        | EventView::Research { node, .. }
        | EventView::Cutoff { node, .. }
        | EventView::Exit { node, .. }
        | EventView::ExitVector { node, .. }
        | EventView::Fallback { node } => node,
        EventView::ChanceBounds { child, .. } | EventView::Probe { child } => child,
    }
}

fn file_stem(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches('-').to_owned();
    if s.is_empty() { "tree".into() } else { s }
}

/// A copy of `tree` whose children are sorted by their true values: best first (for the
/// player to move), worst first, or shuffled with a seed.
pub fn reorder(tree: &Tree, reference: &Reference, how: &str, seed: u64) -> Tree {
    let mut rng = crate::generate::Rng::new(seed);
    tree.reordered(|t, id| {
        let n = t.child_count(id);
        let mut order: Vec<usize> = (0..n).collect();
        if how == "random" {
            for i in (1..n).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                order.swap(i, j);
            }
            return order;
        }
        // The mover's preference: larger is better at Max (and chance) nodes, smaller at Min,
        // the mover's own component at an n-player node.
        let score = |i: usize| -> f64 {
            let c = t.child(id, i);
            match (reference.get(c), t.kind(id)) {
                (Value::Scalar(v), Kind::Min) => -v,
                (Value::Scalar(v), _) => v,
                (Value::Vector(v), Kind::Player(p)) => v[usize::from(p)],
                (Value::Vector(v), _) => v.iter().sum(),
            }
        };
        order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
        if how == "worst first" {
            order.reverse();
        }
        order
    })
}
