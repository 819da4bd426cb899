//! The explorer's state and its one entry point for change, [`App::update`] — the Elm way:
//! terminal events become [`Event`]s, keys become [`Action`]s through the keymap, `update`
//! changes the state, and `draw` shows it from `&App` alone.
//!
//! `App` is a handful of components, each in its own file with its own state and the keys it
//! owns: the [`Scene`] (the tree and its facts, its runs, the outline through the view's
//! filters, the player — what most keys act on), the [`Mode`] and its prompts, the layout
//! ([`Layout`]), background work ([`Jobs`]), the forms ([`super::form`], [`Dialogs`]),
//! practice ([`super::practice`]) and the user's keymap and themes ([`Config`]). A component
//! answers with what should follow — a scene's [`Reply`], a prompt's [`Prompted`], a form's
//! [`Submitted`], finished work's [`Arrival`] — and `update` carries it out here, where it
//! touches more than one component: a new tree ending practice, a form starting work, practice
//! moving the stepper, a message on the status bar.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use prune::search::{ALGORITHMS, Algorithm, Params};
use prune::tree::{NodeId, Tree};

use super::config::Config;
use super::dialogs::{self, Dialogs, Submitted};
use super::doc::{Doc, Replacement};
use super::edit::Replacing;
use super::form::{Form, Outcome};
use super::jobs::{Arrival, Jobs};
use super::keymap::{Action, Context, Key, KeyName, Keymap};
use super::layout::Layout;
use super::mode::{self, Prompted};
use super::practice::{self, Practice};
use super::scene::{Reply, Scene};
use super::theme::Theme;
use super::worker::Busy;

pub use super::form::{Field, FieldValue, Purpose};
pub use super::layout::Hit;
pub use super::mode::{Mode, Popup};
pub use super::runs::RunView;

/// Everything that changes the explorer.
#[derive(Clone, Debug)]
pub enum Event {
    /// A key typed, in whatever mode the explorer is.
    Key(Key),
    /// An action, as a key bound to it in the outline asks.
    Action(Action),
    /// Time passes: background work is picked up, the player plays.
    Tick(Instant),
    /// A mouse click at a column and row.
    Click(u16, u16),
    /// The mouse wheel: down or up.
    Scroll { down: bool },
    /// A file to open in the background.
    Load(PathBuf),
    /// What the last frame laid out: the outline's area and rows.
    Drawn(Hit),
}

impl From<Action> for Event {
    fn from(a: Action) -> Event {
        Event::Action(a)
    }
}

/// Everything on screen, and what the last draw laid out (for the mouse).
pub struct App {
    /// The tree, its runs, the outline and the player: what most keys act on.
    pub scene: Scene,
    pub mode: Mode,
    /// A one-line message for the status bar, and whether it reports an error.
    pub status: Option<(String, bool)>,
    pub config: Config,
    pub jobs: Jobs,
    pub quit: bool,
    /// What the layout keys change: Detail, scrolling, precision (see [`super::layout`]).
    pub layout: Layout,
    /// Practising on a run: its questions, the answers given, the score.
    pub practice: Option<Practice>,
    pub(super) dialogs: Dialogs,
}

impl App {
    pub fn new(tree: Tree, source: String, keymap: Keymap, themes: Vec<Theme>) -> App {
        App {
            scene: Scene::new(Doc::new(tree, source)),
            mode: Mode::Normal,
            status: None,
            config: Config::new(keymap, themes),
            jobs: Jobs::default(),
            quit: false,
            layout: Layout::default(),
            practice: None,
            dialogs: Dialogs::default(),
        }
    }

    /// The one entry point for change.
    pub fn update(&mut self, event: impl Into<Event>) {
        match event.into() {
            Event::Key(k) => self.key(k),
            Event::Action(a) => self.act(a),
            Event::Tick(now) => self.tick(now),
            Event::Click(x, y) => self.click(x, y),
            Event::Scroll { down } => self.act(if down { Action::Down } else { Action::Up }),
            Event::Load(path) => self.load(path),
            Event::Drawn(hit) => {
                if hit.height > 0 {
                    self.layout.height = usize::from(hit.height);
                }
                self.layout.hit = hit;
            }
        }
    }

    pub fn theme(&self) -> &Theme {
        self.config.theme()
    }

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
    fn load(&mut self, path: PathBuf) {
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
    fn busy(&mut self, started: Result<(), Busy>) {
        if started.is_err() {
            self.status = Some(("busy: wait for the work in progress".into(), true));
        }
    }

    /// Picks up finished background work; called on every tick.
    fn poll(&mut self) {
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

    /// Time passes: pick up background work, play the trace.
    pub fn tick(&mut self, now: Instant) {
        self.poll();
        let reply = self.scene.tick(now, &self.layout);
        self.follow(reply);
    }

    /// What follows a key the scene answered.
    fn follow(&mut self, reply: Reply) {
        match reply {
            Reply::Nothing => {}
            Reply::Clear => self.status = None,
            Reply::Say(m) => self.status = Some((m, false)),
            Reply::Warn(m) => self.status = Some((m, true)),
            Reply::NeedRun(what) => {
                self.need_run(what);
            }
            Reply::Form(form) => self.mode = Mode::Form(form),
            Reply::Replace(r, algos) => self.rerun_on(r, algos),
        }
    }

    /// The key typed, in whatever mode the explorer is.
    pub fn key(&mut self, key: Key) {
        let context = self.mode.context();
        if self.jobs.first_load().is_some() && self.mode == Mode::Normal {
            // The loading screen: the keys that quit or cancel end the explorer; there is
            // nothing else yet to act on.
            if matches!(
                self.config.keymap.action_in(Context::Normal, &key),
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
        let action = self.config.keymap.action_in(context, &key);
        // A message lasts until the next key: it may no longer be true after it.
        self.status = None;
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Normal => {
                if let Some(a) = action {
                    self.act(a);
                }
            }
            Mode::Help => {
                // Scrolling keys scroll; any other closes; Ctrl-C still quits.
                if action == Some(Action::Quit) && key.ctrl {
                    self.quit = true;
                } else if self.layout.help_key(action) {
                    self.mode = Mode::Help;
                }
            }
            Mode::Popup(_) => {
                // Any key closes; Ctrl-C still quits.
                if key.ctrl && key.code == KeyName::Char('c') {
                    self.quit = true;
                }
            }
            Mode::Search(q) => self.prompted(mode::search_key(action, key, q)),
            Mode::Picker(i) => self.prompted(mode::picker_key(action, i)),
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

    /// The action, in normal mode: the explorer's own (modes, forms, work, the layout); the
    /// scene answers the rest.
    fn act(&mut self, action: Action) {
        match action {
            Action::Search => self.mode = Mode::Search(String::new()),
            Action::AddRun => self.mode = Mode::Picker(self.scene.doc.first_applicable()),
            Action::Theme => self.status = Some((self.config.next_theme(), false)),
            Action::Help => self.mode = Mode::Help,
            Action::Open => self.mode = Mode::Form(dialogs::open_form()),
            Action::Generate => self.mode = Mode::Form(self.dialogs.generate_form()),
            Action::Reorder => self.mode = Mode::Form(dialogs::reorder_form()),
            Action::Export => {
                if self.need_run("export") {
                    let form = dialogs::export_form(&self.scene.doc.tree, self.scene.current_run());
                    self.mode = Mode::Form(form);
                }
            }
            Action::Quit => self.quit = true,
            Action::Cancel => self.cancel(),
            Action::Zoom | Action::PanLeft | Action::PanRight | Action::PanUp | Action::PanDown
                if !self.layout.diagram =>
            {
                if self.practice.is_some() {
                    // Practising, the diagram key would go to the answer: the message would not hold.
                    return;
                }
                // Nothing to move: say which key shows what they move.
                let keys = self.config.keymap.keys_for(Action::Diagram);
                let d = keys.split(' ').next().unwrap_or_default();
                let said = format!("zoom and pan move the diagram view: {d} shows it");
                self.status = Some((said, false));
            }
            Action::ToggleDetail
            | Action::DetailUp
            | Action::DetailDown
            | Action::FullPrecision
            | Action::EventLog
            | Action::Diagram
            | Action::Zoom
            | Action::PanLeft
            | Action::PanRight
            | Action::PanUp
            | Action::PanDown => {
                if let Some(said) = self.layout.action(action) {
                    self.status = Some((said, false));
                }
            }
            Action::Practice => self.start_practice(),
            _ => {
                let reply = self.scene.action(action, &self.layout);
                self.follow(reply);
            }
        }
    }

    /// Esc in the outline: stop the work in progress, or the player; never quit.
    fn cancel(&mut self) {
        if let Some(what) = self.jobs.cancel() {
            self.status = Some((format!("cancelled: {what}"), false));
        } else if self.scene.player.playing {
            self.scene.player.playing = false;
        } else {
            self.status = None;
        }
    }

    /// Says that `what` needs a run when there is none; true when there is one.
    fn need_run(&mut self, what: &str) -> bool {
        let none = self.scene.runs.is_empty();
        if none {
            self.status = Some((self.config.no_run(what), false));
        }
        !none
    }

    /// What a prompt's key asks for.
    fn prompted(&mut self, p: Prompted) {
        match p {
            Prompted::Stay(mode) => self.mode = mode,
            Prompted::Closed => {}
            Prompted::Quit => self.quit = true,
            Prompted::Find(q) => {
                self.scene.filter.last_search = Some(q);
                let reply = self.scene.search_again(true, &self.layout);
                self.follow(reply);
            }
            Prompted::Pick(i) => {
                if let Some(why) = &self.scene.doc.refusals()[i] {
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
                    let players = self.scene.doc.tree.players();
                    self.mode = Mode::Form(dialogs::run_form(info, players));
                }
            }
        }
    }

    /// Selects `id`, opening the outline to it.
    pub fn select(&mut self, id: NodeId) {
        self.scene.select(id, &self.layout);
    }

    /// A mouse click at (x, y): select the row; on its fold marker, also fold or unfold.
    /// Practising the leaves never evaluated on the diagram: a click on a leaf puts the cursor
    /// there and marks it (or unmarks it), as Space does.
    pub fn click(&mut self, x: u16, y: u16) {
        let tree = &self.scene.doc.tree;
        if self.layout.diagram
            && let Some(p) = self
                .practice
                .as_mut()
                .filter(|p| p.leaves_asked().is_some())
        {
            if let Some(id) = self.layout.hit.card_at(x, y).filter(|&n| tree.is_leaf(n)) {
                self.layout.diagram_view.cursor = Some(id);
                let space = Key {
                    code: KeyName::Char(' '),
                    ctrl: false,
                    alt: false,
                };
                p.key(space, tree, id, &self.config.keymap);
            }
            return;
        }
        self.scene.click(x, y, &self.layout.hit);
    }
    /// Carries out a confirmed form: the dialogs read it, and what it asks is started here;
    /// an error keeps the form open with the message.
    fn submit(&mut self, form: &Form) -> Result<(), String> {
        let practice = self.practice.as_ref();
        match self
            .dialogs
            .submit(form, &mut self.scene, &self.layout, practice)?
        {
            Submitted::Run(algo) => self.run_all(&[algo]),
            Submitted::Open(path) => self.load(path),
            Submitted::Work(what, work) => {
                let started = self.jobs.start(what, work);
                self.busy(started);
            }
            Submitted::Replace(r, algos) => self.rerun_on(r, algos),
            Submitted::Said(said) => self.status = Some((said, false)),
        }
        Ok(())
    }

    /// Starts practice on the current run: the stepper goes to the first question.
    pub fn start_practice(&mut self) {
        match self.scene.practise(&self.layout) {
            Ok((p, reply)) => {
                self.practice = Some(p);
                self.follow(reply);
            }
            Err(said) => self.status = Some(said),
        }
    }

    /// Moves the stepper to where the current question is asked (the end when none is left).
    fn follow_practice(&mut self) {
        if let Some(p) = &self.practice {
            let reply = self.scene.follow(p, &self.layout);
            self.follow(reply);
        }
    }

    /// A key while practising: the practice answers, and the explorer follows.
    fn practice_key(&mut self, key: Key) {
        let Some(p) = self.practice.as_mut() else {
            return;
        };
        let tree = &self.scene.doc.tree;
        let root = self.scene.outline.selected;
        // On the diagram, the question of the leaves never evaluated is answered with its
        // cursor: ← → move it from leaf to leaf, and Space marks the leaf it is on.
        let on_diagram = self.layout.diagram && p.leaves_asked().is_some();
        let view = &mut self.layout.diagram_view;
        if on_diagram && !key.ctrl && !key.alt {
            match key.code {
                KeyName::Left | KeyName::Right => {
                    view.move_cursor(tree, root, key.code == KeyName::Right);
                    return;
                }
                _ => {}
            }
        }
        let selected = if on_diagram {
            view.cursor_in(tree, root).unwrap_or(root)
        } else {
            root
        };
        match p.key(key, tree, selected, &self.config.keymap) {
            practice::Reply::Nothing => {}
            practice::Reply::Quit => self.quit = true,
            practice::Reply::Report => {
                self.mode = Mode::Form(practice::report_form(self.practice.as_ref()));
            }
            practice::Reply::Leave(score) => {
                self.practice = None;
                self.status = Some((format!("practice over: {score}"), false));
            }
            practice::Reply::Follow => self.follow_practice(),
            practice::Reply::Look(a) => self.act(a),
        }
    }

    /// Replaces the tree by `r.tree` once the runs in `wanted` that apply to it are searched
    /// again on it (in the background); says which do not apply.
    fn rerun_on(&mut self, r: Replacement, wanted: Vec<Algorithm>) {
        let started = self.jobs.rerun_on(r, wanted);
        self.rerunning(started);
    }

    /// Says which runs do not apply to the tree on its way in, or that the worker is busy.
    fn rerunning(&mut self, started: Result<Option<String>, Busy>) {
        match started {
            Ok(None) => {}
            Ok(Some(dropped)) => self.status = Some((dropped, true)),
            Err(busy) => self.busy(Err(busy)),
        }
    }
}
