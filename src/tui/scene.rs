//! The scene: the tree on screen and its runs, the run being stepped, the outline through the
//! view's filters, and the player — what most keys in the outline act on. [`Scene::action`]
//! answers those keys, and says in a [`Reply`] what the rest of the explorer must do after
//! (a message, a form to open, a tree whose runs must be searched again); modes, background
//! work and practice are `App::update`'s.
//!
//! The layout is read, never changed: the outline's height pages and scrolls, and the diagram
//! view keeps its subtree when a step moves.

use std::time::Instant;

use prune::search::Algorithm;
use prune::tree::{NodeId, Tree};

use super::doc::{Doc, Replacement};
use super::edit::{Edit, Replacing};
use super::form::Form;
use super::keymap::Action;
use super::layout::{Hit, Layout};
use super::outline::Outline;
use super::practice::Practice;
use super::runs::RunView;
use super::stepper::{Player, Step};
use super::view::{Filters, View};

pub struct Scene {
    pub(crate) doc: Doc,
    pub(crate) runs: Vec<RunView>,
    /// The run the stepper moves, in `runs`.
    pub(crate) current: usize,
    pub(crate) player: Player,
    pub(crate) filter: Filters,
    pub(crate) outline: Outline,
}

/// What the rest of the explorer does after a key the scene answered.
pub enum Reply {
    /// Nothing: the message on the status bar stays.
    Nothing,
    /// The message on the status bar no longer holds.
    Clear,
    Say(String),
    /// Say this as an error.
    Warn(String),
    /// The key needs a run and there is none: to do this.
    NeedRun(&'static str),
    Form(Form),
    /// The tree to replace this one once the runs of these algorithms are searched again on it.
    Replace(Replacement, Vec<Algorithm>),
}

impl Scene {
    pub fn new(doc: Doc) -> Scene {
        Scene {
            outline: Outline::new(&doc.tree),
            doc,
            runs: Vec::new(),
            current: 0,
            player: Player::default(),
            filter: Filters::default(),
        }
    }

    pub fn current_run(&self) -> Option<&RunView> {
        self.runs.get(self.current)
    }

    /// The outline's filter, from the current run at its step.
    pub fn view(&self) -> View<'_> {
        View::new(
            &self.doc.tree,
            self.current_run(),
            self.filter.visited_only,
            self.filter.fold_pruned,
        )
    }

    /// Does `f` to the outline through the current view.
    fn with_outline<R>(&mut self, f: impl FnOnce(&mut Outline, &Tree, &View) -> R) -> R {
        let view = View::new(
            &self.doc.tree,
            self.runs.get(self.current),
            self.filter.visited_only,
            self.filter.fold_pruned,
        );
        f(&mut self.outline, &self.doc.tree, &view)
    }

    /// A run that arrived, made the current one.
    pub fn push_run(&mut self, r: RunView) {
        self.runs.push(r);
        self.current = self.runs.len() - 1;
    }

    /// The algorithms of the runs searched on this tree (not those kept from before a reorder).
    pub fn algos(&self) -> Vec<Algorithm> {
        self.runs
            .iter()
            .filter(|r| r.kept.is_none())
            .map(|r| r.algo.clone())
            .collect()
    }

    /// The keys of the outline, the runs, the stepper, the view's switches and the edits, in
    /// normal mode; the others answer [`Reply::Nothing`].
    pub fn action(&mut self, action: Action, layout: &Layout) -> Reply {
        let h = layout.height.max(1);
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
                self.outline.toggle(&self.doc.tree, sel);
            }
            Action::ExpandDepth(d) => {
                self.outline.expand_to_depth(usize::from(d));
                self.with_outline(|o, t, v| o.refresh(t, v, h));
            }
            Action::Parent => {
                if let Some(p) = self.doc.tree.parent(self.outline.selected) {
                    self.with_outline(|o, t, v| o.select(t, v, p, h));
                }
            }
            Action::SearchNext => return self.search_again(true, layout),
            Action::SearchPrev => return self.search_again(false, layout),
            Action::RemoveRun | Action::NextRun | Action::PrevRun => {
                return self.runs_action(action, h);
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
            | Action::Departure
            | Action::PlayPause
            | Action::Faster
            | Action::Slower
            | Action::StepStart
            | Action::StepEnd => return self.stepper(action, layout),
            Action::VisitedOnly => {
                self.filter.visited_only = !self.filter.visited_only;
                self.with_outline(|o, t, v| o.refresh(t, v, h));
            }
            Action::FoldPruned => {
                self.filter.fold_pruned = !self.filter.fold_pruned;
                self.with_outline(|o, t, v| o.refresh(t, v, h));
            }
            Action::Differences => {
                self.filter.differences = !self.filter.differences;
                if self.runs.len() < 2 && self.filter.differences {
                    return Reply::Say("differences show with two runs or more".into());
                }
            }
            Action::EditNode
            | Action::AddChild
            | Action::DeleteNode
            | Action::Undo
            | Action::Redo
            | Action::Save
            | Action::SaveAs => return self.edit_action(action),
            // The explorer's own keys (modes, forms, work, layout) are not the scene's.
            _ => {}
        }
        Reply::Nothing
    }

    /// Removing a run, or going to the next (previous) one.
    fn runs_action(&mut self, action: Action, h: usize) -> Reply {
        let n = self.runs.len();
        match action {
            Action::RemoveRun if n == 0 => return Reply::NeedRun("remove"),
            Action::RemoveRun if self.current < n => {
                let r = self.runs.remove(self.current);
                self.current = self.current.min(self.runs.len().saturating_sub(1));
                self.player.playing = false;
                self.with_outline(|o, t, v| o.refresh(t, v, h));
                return Reply::Say(format!("removed {}", r.algo));
            }
            Action::NextRun | Action::PrevRun if n > 1 => {
                self.current = if action == Action::NextRun {
                    (self.current + 1) % n
                } else {
                    (self.current + n - 1) % n
                };
                self.with_outline(|o, t, v| o.refresh(t, v, h));
            }
            _ => {}
        }
        Reply::Nothing
    }

    /// The next (or previous) node after the selection whose label contains the last query.
    pub fn search_again(&mut self, forward: bool, layout: &Layout) -> Reply {
        let Some(q) = self.filter.last_search.clone().filter(|q| !q.is_empty()) else {
            return Reply::Say("no search yet: type / and a label".into());
        };
        match super::label_search::find(&self.doc.tree, self.outline.selected, &q, forward) {
            Some(id) => {
                self.select(id, layout);
                Reply::Clear
            }
            None => Reply::Warn(format!("no label contains “{}”", q.to_lowercase())),
        }
    }

    /// Selects `id`, opening the outline to it.
    pub fn select(&mut self, id: NodeId, layout: &Layout) {
        let h = layout.height;
        self.with_outline(|o, t, v| o.select(t, v, id, h));
    }

    /// A mouse click at (x, y) on the outline laid out as `hit`: select the row; on its fold
    /// marker, also fold or unfold.
    pub fn click(&mut self, x: u16, y: u16, hit: &Hit) {
        if x < hit.x || x >= hit.x + hit.width || y < hit.y {
            return;
        }
        let row = usize::from(y - hit.y);
        let Some(&(id, marker)) = hit.rows.get(row) else {
            return;
        };
        if x == marker {
            self.outline.toggle(&self.doc.tree, id);
        }
        self.outline.selected = id;
        self.outline.cursor_row = row;
    }

    /// A stepper key: the player answers, and the run moves (with the selection) as it says.
    fn stepper(&mut self, action: Action, layout: &Layout) -> Reply {
        if self.runs.is_empty() {
            return Reply::NeedRun("step through");
        }
        let Some(r) = self.runs.get(self.current) else {
            return Reply::Nothing;
        };
        match self
            .player
            .action(action, r, &self.doc.tree, self.outline.selected)
        {
            Step::To(k) => self.go_to_step(k, layout),
            Step::Say(what) => Reply::Say(what),
            Step::Nothing => Reply::Nothing,
        }
    }

    /// Time passes: the player plays the current run.
    pub fn tick(&mut self, now: Instant, layout: &Layout) -> Reply {
        match self.player.tick(now, self.runs.get(self.current)) {
            Some(k) => self.go_to_step(k, layout),
            None => Reply::Nothing,
        }
    }

    /// Moves the current run to step `k` and selects the node of the step's event (not in the
    /// diagram view, which keeps the subtree the user chose and marks the step's node in it).
    pub fn go_to_step(&mut self, k: usize, layout: &Layout) -> Reply {
        let Some(r) = self.runs.get_mut(self.current) else {
            return Reply::Say("no run yet: press r to run an algorithm".into());
        };
        r.step = k.min(r.trace.len());
        let node = match r.step.checked_sub(1) {
            None => self.doc.tree.root(),
            Some(s) => r.trace.event(s).view().node(),
        };
        if !layout.diagram {
            self.select(node, layout);
        }
        Reply::Nothing
    }

    /// Moves the stepper to where `p`'s current question is asked (the end when none is left).
    pub fn follow(&mut self, p: &Practice, layout: &Layout) -> Reply {
        let run = p.run;
        let (step, node) = p.whereabouts(self.runs.get(run).map_or(0, |r| r.trace.len()));
        self.current = run;
        let reply = self.go_to_step(step, layout);
        if let Some(n) = node {
            self.select(n, layout);
        }
        reply
    }

    /// Practice on the current run: the player stops and the stepper goes to the first
    /// question; or why not (and whether that is an error).
    pub fn practise(&mut self, layout: &Layout) -> Result<(Practice, Reply), (String, bool)> {
        let Some(r) = self.current_run() else {
            let why = "no run to practise: press r to run an algorithm, then T";
            return Err((why.into(), false));
        };
        let p = Practice::start(&self.doc.tree, r, self.current)?;
        self.player.playing = false;
        let reply = self.follow(&p, layout);
        Ok((p, reply))
    }

    /// The edit keys: the document answers with the tree that replaces this one, whose runs
    /// are then searched again, or with why not.
    fn edit_action(&mut self, action: Action) -> Reply {
        let sel = self.outline.selected;
        let replacement = match action {
            Action::EditNode => return Reply::Form(super::edit::edit_form(&self.doc.tree, sel)),
            Action::AddChild => self.doc.edit(sel, &Edit::AddChild).map_err(Reply::Warn),
            Action::DeleteNode => self.doc.edit(sel, &Edit::Delete).map_err(Reply::Warn),
            Action::Undo | Action::Redo => self
                .doc
                .undo_redo(action == Action::Undo, sel)
                .map_err(Reply::Say),
            Action::Save if self.doc.file.is_some() => {
                let file = self.doc.file.clone().unwrap_or_default();
                return match self.doc.save_to(&file) {
                    Ok(said) => Reply::Say(said),
                    Err(e) => Reply::Warn(e),
                };
            }
            Action::Save | Action::SaveAs => return Reply::Form(self.doc.save_form()),
            _ => return Reply::Nothing,
        };
        match replacement {
            Ok(r) => Reply::Replace(r, self.algos()),
            Err(reply) => reply,
        }
    }

    /// `tree` (from `source`) in place of this one, as `r` says: the one before goes to the
    /// history, the runs go, the outline starts afresh.
    pub fn replace(&mut self, tree: Tree, source: String, r: &Replacing) {
        self.doc.record(r.history);
        self.doc.replace(tree, source);
        self.runs.clear();
        self.current = 0;
        self.player.playing = false;
        self.outline = Outline::new(&self.doc.tree);
        self.doc.file = r.file.clone();
        self.doc.unsaved = r.changed;
    }

    /// Runs that arrived, the last one current, and after them `kept`, the runs kept from
    /// before a reorder; the last refusal among `results`, to say.
    pub fn receive(
        &mut self,
        results: Vec<Result<RunView, String>>,
        kept: Vec<RunView>,
    ) -> Option<String> {
        let mut refused = None;
        for r in results {
            match r {
                Ok(r) => self.push_run(r),
                Err(e) => refused = Some(e),
            }
        }
        if !kept.is_empty() {
            // The kept runs go after the new ones, which stay selected.
            let fresh = self.current;
            self.runs.extend(kept);
            self.current = fresh;
        }
        refused
    }

    /// After an edit, as `r` says: the run that was current (`current`, as far as there are
    /// runs) and the node at its path selected again; what to say about it, compared over the
    /// runs.
    pub fn settle(&mut self, current: usize, r: Replacing, layout: &Layout) -> Option<String> {
        if r.message.is_some() {
            // An edit, an undo or a reorder searched the same algorithms again: their runs show
            // their ends, where the change tells (the message compares the results), not step 0
            // as a run just opened does.
            for run in self.runs.iter_mut().filter(|run| run.kept.is_none()) {
                run.step = run.trace.len();
            }
        }
        if let Some(path) = r.select {
            self.current = current.min(self.runs.len().saturating_sub(1));
            let id = super::edit::node_at(&self.doc.tree, &path);
            self.select(id, layout);
        }
        let m = r.message?;
        Some(super::edit::compared(&m, &r.before, &self.runs))
    }
}
