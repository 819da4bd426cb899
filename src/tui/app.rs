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
//! [`Submitted`], finished work's [`Arrival`](super::jobs::Arrival) — and `update` carries it
//! out here, where it touches more than one component: a new tree ending practice, a form
//! starting work, practice moving the stepper, a message on the status bar. Two of those parts
//! live beside the component they follow: finished work taken in, in [`super::jobs`], and
//! practice's keys, in [`super::practice`].
//!
//! The components are the explorer's own: outside it, `App` is read through its methods
//! ([`App::tree`], [`App::runs`], [`App::mode`] …) and changed through [`App::update`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use prune::format::LoadProgress;
use prune::format::progress::Snapshot;
use prune::search::{ALGORITHMS, Algorithm, Params, Refusal};
use prune::tree::{NodeId, Tree};

use super::config::Config;
use super::dialogs::{self, Dialogs, Submitted};
use super::doc::Doc;
use super::form::{Form, Outcome};
use super::jobs::Jobs;
use super::keymap::{Action, Context, Key, KeyName, Keymap};
use super::layout::Layout;
use super::mode::{self, Prompted};
use super::outline::Outline;
use super::practice::Practice;
use super::scene::{Reply, Scene};
use super::stepper::Player;
use super::theme::Theme;
use super::view::{Filters, View};
use super::zoom::DiagramView;

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

/// Everything on screen, and what the last draw laid out (for the mouse). Its components are
/// the explorer's own: the drawing, the tests and the command line read them through the
/// methods below, and change them only through [`App::update`] and the few entry points that
/// start work.
pub struct App {
    /// The tree, its runs, the outline and the player: what most keys act on.
    pub(super) scene: Scene,
    pub(super) mode: Mode,
    /// A one-line message for the status bar, and whether it reports an error.
    pub(super) status: Option<(String, bool)>,
    pub(super) config: Config,
    pub(super) jobs: Jobs,
    pub(super) quit: bool,
    /// What the layout keys change: Detail, scrolling, precision (see [`super::layout`]).
    pub(super) layout: Layout,
    /// Practising on a run: its questions, the answers given, the score.
    pub(super) practice: Option<Practice>,
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

    /// A run already searched (recorded from a game's rules, imported from an engine's
    /// trace), made the current one. An imported run opened at its departure selects the
    /// departing node, as `!` does.
    pub fn push_run(&mut self, run: RunView) {
        let departs = run.departs_at().map(|(node, _)| node);
        self.scene.push_run(run);
        if let Some(node) = departs {
            self.select(node);
        }
    }

    /// A message on the status bar until the next key, and whether it reports a problem.
    pub fn say(&mut self, message: String, error: bool) {
        self.status = Some((message, error));
    }

    /// The loading screen of `path` at `progress`, without loading anything (snapshot tests).
    pub fn show_loading(&mut self, path: PathBuf, progress: Arc<LoadProgress>) {
        self.jobs.show_loading(path, progress);
    }

    /// Time passes: pick up background work, play the trace.
    pub fn tick(&mut self, now: Instant) {
        self.poll();
        let reply = self.scene.tick(now, &self.layout);
        self.follow(reply);
    }
}

/// What the explorer shows, read by the drawing, the event loop and the tests.
impl App {
    /// The tree on screen.
    pub fn tree(&self) -> &Tree {
        &self.scene.doc.tree
    }

    /// Where the tree came from (a path, a generator's command), as the title bar says.
    pub fn source(&self) -> &str {
        &self.scene.doc.source
    }

    /// The tree was edited (or reordered) since it was opened, generated or saved.
    pub fn unsaved(&self) -> bool {
        self.scene.doc.unsaved
    }

    /// Why each algorithm, in [`ALGORITHMS`]' order, cannot search the tree (`None`: it can).
    pub fn refusals(&self) -> &[Option<Refusal>] {
        self.scene.doc.refusals()
    }

    /// The tree and the facts kept about it (sizes, true values, types).
    pub(crate) fn doc(&self) -> &Doc {
        &self.scene.doc
    }

    /// The runs on screen, in their columns' order.
    pub fn runs(&self) -> &[RunView] {
        &self.scene.runs
    }

    /// The index in [`App::runs`] of the run the stepper moves.
    pub fn current(&self) -> usize {
        self.scene.current
    }

    /// The run the stepper moves, if there is one.
    pub fn current_run(&self) -> Option<&RunView> {
        self.scene.current_run()
    }

    /// The node selected in the outline (and the diagram's root).
    pub fn selected(&self) -> NodeId {
        self.scene.outline.selected
    }

    /// The outline: which nodes are open, which rows are on screen.
    pub fn outline(&self) -> &Outline {
        &self.scene.outline
    }

    /// The outline's filter, from the current run at its step.
    pub(crate) fn view(&self) -> View<'_> {
        self.scene.view()
    }

    /// The view's switches: visited only, pruned folded, differences marked.
    pub(crate) fn filters(&self) -> &Filters {
        &self.scene.filter
    }

    /// The player: whether it plays the current run, and how fast.
    pub fn player(&self) -> &Player {
        &self.scene.player
    }

    /// The mode: the outline, or the prompt, form or box open over it.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The message on the status bar, and whether it reports an error.
    pub fn status(&self) -> Option<(&str, bool)> {
        self.status.as_ref().map(|(m, e)| (m.as_str(), *e))
    }

    /// The practice session, while practising.
    pub fn practice(&self) -> Option<&Practice> {
        self.practice.as_ref()
    }

    /// The explorer was asked to end.
    pub fn quitting(&self) -> bool {
        self.quit
    }

    /// What the layout keys changed, and what the drawing wrote back.
    pub(crate) fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The outline's area and rows (or the diagram's cards) at the last draw.
    pub fn hit(&self) -> &Hit {
        &self.layout.hit
    }

    /// The diagram's zoom, its window on the picture, its practice cursor.
    pub fn diagram_view(&self) -> &DiagramView {
        &self.layout.diagram_view
    }

    /// Work in progress: what, for how long, and the nodes a search has visited so far.
    pub fn pending(&self) -> Option<(&str, Duration, u64)> {
        self.jobs.pending()
    }

    /// While the file named on the command line loads: the file, and how far the load has got.
    pub fn first_load(&self) -> Option<(&Path, Snapshot)> {
        self.jobs.first_load()
    }

    /// The user's keys.
    pub(crate) fn keymap(&self) -> &Keymap {
        &self.config.keymap
    }

    /// The theme in use.
    pub fn theme(&self) -> &Theme {
        self.config.theme()
    }
}

impl App {
    /// What follows a key the scene answered.
    pub(super) fn follow(&mut self, reply: Reply) {
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
    pub(super) fn act(&mut self, action: Action) {
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

    /// The diagram's pictures laid out so far: a pan draws a slice of the one kept
    /// ([`crate::tui::zoom::PictureCache`]) and adds none.
    pub fn diagram_pictures_made(&self) -> usize {
        self.layout.diagram_cache.made()
    }

    /// Forgets the diagram's kept pictures: the next frame lays its picture out again, as
    /// every frame did before they were kept (the diagram's measurement compares the two).
    pub fn forget_diagram_pictures(&self) {
        self.layout.diagram_cache.clear();
    }

    /// Selects `id`, opening the outline to it.
    pub fn select(&mut self, id: NodeId) {
        self.scene.select(id, &self.layout);
    }

    /// A mouse click at (x, y): select the row; on its fold marker, also fold or unfold.
    /// Practising the leaves never evaluated on the diagram: a click on a leaf puts the cursor
    /// there and marks it (or unmarks it), as Space does.
    pub fn click(&mut self, x: u16, y: u16) {
        if self.practice_click(x, y) {
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
}
