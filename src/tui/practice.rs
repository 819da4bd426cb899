//! Practice in the explorer: the current run's results hidden, its questions asked one by one
//! ([`prune::trace::practice`]), the stepper moved to where each is asked, a score kept, and
//! the session's report saved as JSON. [`Practice`] owns the session and its keys; a key
//! answers with a [`Reply`] when the explorer must follow (move the stepper, open a form).

use std::cell::Cell;
use std::path::Path;

use prune::format;
use prune::trace::practice::{Answer, Session, leaf_names};

use prune::tree::{NodeId, Tree};

use super::app::{App, Mode};
use super::dialogs::Dialogs;
use super::form::{Field, FieldId, Form, Purpose};
use super::keymap::{Action, Context, Key, KeyName, Keymap};
use super::runs::RunView;

/// The longest trace practised: the questions and their explanations are all prepared when
/// practice starts, and an exercise is for a tree a student can follow by hand.
pub const MAX_STEPS: usize = 20_000;

/// A practice session on one run.
pub struct Practice {
    /// The run practised (the explorer's current run while practising).
    pub(crate) run: usize,
    pub(crate) session: Session,
    /// The answer being typed.
    pub(crate) input: String,
    /// The choice Tab last put in `input`, if the input is still that choice.
    pub(crate) pick: Option<usize>,
    /// What the last answer got: right or not, and what to say about it.
    pub(crate) feedback: Option<(bool, String)>,
    /// Lines of the feedback scrolled past, and (set by the last draw) how many do not fit.
    pub(crate) why_scroll: u16,
    pub(crate) why_extent: Cell<u16>,
}

/// The keys that scroll the feedback: not letters, which go to the answer, nor the outline's
/// moving keys, which look around it.
pub const WHY_DOWN: Key = Key {
    code: KeyName::Char('n'),
    ctrl: true,
    alt: false,
};
pub const WHY_UP: Key = Key {
    code: KeyName::Char('p'),
    ctrl: true,
    alt: false,
};

/// What a key while practising asks of the explorer.
#[derive(Debug, PartialEq)]
pub enum Reply {
    Nothing,
    Quit,
    /// Open the form that saves the report.
    Report,
    /// Practice is over, with this score.
    Leave(String),
    /// Move the stepper to where the current question is asked.
    Follow,
    /// Look around: the outline's moving action.
    Look(Action),
}

impl Practice {
    /// The questions, and the answers given so far.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The answer being typed.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The choice Tab last put in the answer, if the answer is still that choice.
    pub fn picked(&self) -> Option<usize> {
        self.pick
    }

    /// What the last answer got: right or not, and what to say about it.
    pub fn feedback(&self) -> Option<(bool, &str)> {
        self.feedback
            .as_ref()
            .map(|(right, why)| (*right, why.as_str()))
    }

    /// Practice on run `index` of `tree`, or why it cannot be practised (and whether that is
    /// an error).
    pub fn start(tree: &Tree, r: &RunView, index: usize) -> Result<Practice, (String, bool)> {
        if r.algo.improvements().is_some_and(|w| w.reorders()) {
            return Err((
                format!(
                    "practice does not cover the transposition table, iterative deepening, killers or history, which {} uses: step through it instead",
                    r.algo.label()
                ),
                true,
            ));
        }
        if r.trace.len() > MAX_STEPS {
            return Err((
                format!(
                    "practice is for small trees: this run has {} steps, at most {MAX_STEPS} are practised",
                    r.trace.len()
                ),
                true,
            ));
        }
        let session = Session::new(tree, &r.run, &r.trace, &r.replay(tree));
        if session.questions.is_empty() {
            return Err((format!("{} asks no questions on this tree", r.algo), true));
        }
        Ok(Practice {
            run: index,
            session,
            input: String::new(),
            pick: None,
            feedback: None,
            why_scroll: 0,
            why_extent: Cell::new(0),
        })
    }

    /// Where the current question is asked: the step (the end of the run, `end`, when none is
    /// left) and the node.
    pub fn whereabouts(&self, end: usize) -> (usize, Option<NodeId>) {
        match self.session.current() {
            Some(q) => (q.step, Some(q.node)),
            None => (end, None),
        }
    }

    /// Every leaf's name while the current question asks which leaves are never evaluated
    /// (the names an answer is read against); `None` for other questions.
    pub fn leaves_asked(&self) -> Option<&[String]> {
        match self.session.current().map(|q| &q.answer) {
            Some(Answer::Leaves { leaves, .. }) => Some(leaves),
            _ => None,
        }
    }

    /// The leaves the answer being typed names (as far as it reads as names): the ones marked.
    pub fn marked(&self) -> Vec<String> {
        self.leaves_asked()
            .and_then(|leaves| leaf_names(&self.input, leaves).ok())
            .unwrap_or_default()
    }

    /// A key while practising: typing, Enter to answer, Esc to leave, Ctrl-S to save the
    /// report, the arrows to look around the outline (`selected` is its selection), Ctrl-C to
    /// quit.
    pub fn key(&mut self, key: Key, tree: &Tree, selected: NodeId, keymap: &Keymap) -> Reply {
        let p = self;
        match key.code {
            KeyName::Char('c') if key.ctrl => return Reply::Quit,
            KeyName::Char('s') if key.ctrl => return Reply::Report,
            _ if key == WHY_DOWN => p.why_scroll = (p.why_scroll + 1).min(p.why_extent.get()),
            _ if key == WHY_UP => p.why_scroll = p.why_scroll.saturating_sub(1),
            KeyName::Tab | KeyName::BackTab => p.pick(key.code == KeyName::Tab),
            KeyName::Char(' ')
                if p.session
                    .current()
                    .is_some_and(|q| q.ask == prune::trace::practice::Ask::Unevaluated) =>
            {
                p.mark(tree, selected)
            }
            KeyName::Char(c) if !key.ctrl && !key.alt => {
                p.pick = None;
                p.input.push(c)
            }
            KeyName::Backspace => {
                p.pick = None;
                p.input.pop();
            }
            KeyName::Esc => return Reply::Leave(p.session.score()),
            KeyName::Enter => return p.answer(),
            _ => {
                // Looking around: the outline's moving keys, and the diagram's pan keys.
                if let Some(a) = keymap.action_in(Context::Normal, &key)
                    && matches!(
                        a,
                        Action::Up
                            | Action::Down
                            | Action::PageUp
                            | Action::PageDown
                            | Action::Top
                            | Action::Bottom
                            | Action::Collapse
                            | Action::Expand
                            | Action::PanLeft
                            | Action::PanRight
                            | Action::PanUp
                            | Action::PanDown
                    )
                {
                    return Reply::Look(a);
                }
            }
        }
        Reply::Nothing
    }

    /// Tab (or back-tab): the next (previous) choice into the answer.
    fn pick(&mut self, forward: bool) {
        let choices = self.session.current().map_or(&[][..], |q| &q.choices[..]);
        let n = choices.len();
        if n > 0 {
            let next = match (self.pick, forward) {
                (None, true) => 0,
                (None, false) => n - 1,
                (Some(i), true) => (i + 1) % n,
                (Some(i), false) => (i + n - 1) % n,
            };
            self.input = choices[next].clone();
            self.pick = Some(next);
        }
    }

    /// Space: the selected leaf into (or out of) the list of leaves typed.
    fn mark(&mut self, tree: &Tree, sel: NodeId) {
        let leaves = self.leaves_asked().unwrap_or_default().to_vec();
        self.why_scroll = 0;
        if tree.is_leaf(sel) {
            let name = prune::tree::names::node_name(tree, sel);
            toggle_name(&mut self.input, &name, &leaves);
            self.feedback = None;
        } else {
            self.feedback = Some((false, "Space marks a leaf: select one with ↑ ↓".into()));
        }
    }

    /// Enter: the answer typed, judged; the report form once every question is answered.
    fn answer(&mut self) -> Reply {
        let p = self;
        if p.session.done() {
            return Reply::Report;
        }
        let typed = std::mem::take(&mut p.input);
        p.pick = None;
        let Some(q) = p.session.current().cloned() else {
            return Reply::Nothing;
        };
        p.why_scroll = 0;
        match p.session.answer(&typed) {
            Ok(true) => p.feedback = Some((true, format!("right: {}", q.answer.text()))),
            Ok(false) => {
                p.feedback = Some((
                    false,
                    format!(
                        "wrong ({}): the answer is {}. {}",
                        typed.trim(),
                        q.answer.text(),
                        q.why
                    ),
                ))
            }
            Err(hint) => {
                p.input = typed;
                p.feedback = Some((false, hint));
                return Reply::Nothing;
            }
        }
        Reply::Follow
    }
}

/// The form that saves the report of `practice`.
pub fn report_form(practice: Option<&Practice>) -> Form {
    let stem = practice.map_or("practice".into(), |p| {
        format!("practice-{}", p.session.algorithm.replace([' ', '/'], "-"))
    });
    Form::new(
        "Save the practice report (JSON)",
        Purpose::PracticeReport,
        vec![Field::text(
            FieldId::ReportFile,
            "report",
            format!("{stem}.json"),
        )],
    )
}

/// Writes the report of `practice` on the tree from `source` (its title, unsaved changes
/// said) to the form's path; an existing file is not overwritten without a second Enter.
pub fn save_report(
    practice: Option<&Practice>,
    form: &Form,
    source: &str,
    dialogs: &mut Dialogs,
) -> Result<String, String> {
    let path = form.text(FieldId::ReportFile).map_err(|e| e.to_string())?;
    if path.is_empty() || path == "-" {
        return Err("type a file name for the report".into());
    }
    let Some(p) = practice else {
        return Err("no practice to report".into());
    };
    dialogs.confirm_overwrite(&[path.to_owned()])?;
    let mut text = serde_json::to_string_pretty(&p.session.report(source))
        .map_err(|e| format!("cannot write the report: {e}"))?;
    text.push('\n');
    format::save_text(Path::new(path), &text).map_err(|e| format!("cannot write {path}: {e}"))?;
    Ok(format!("wrote {path}"))
}

/// Adds `name` to the list of leaf names typed so far, or takes it out if it is there; what
/// cannot be read as names is kept, and `name` added after it.
fn toggle_name(list: &mut String, name: &str, leaves: &[String]) {
    let mut names = if list.trim().is_empty() {
        Vec::new()
    } else {
        match leaf_names(list, leaves) {
            Ok(names) => names,
            Err(_) => {
                list.push_str(", ");
                list.push_str(name);
                return;
            }
        }
    };
    match names.iter().position(|n| n == name) {
        Some(i) => {
            names.remove(i);
        }
        None => names.push(name.to_owned()),
    }
    *list = names.join(", ");
}

/// Practice as the explorer carries it out: the session answers a key, and the stepper, the
/// mode and the status bar follow.
impl App {
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
    pub(super) fn practice_key(&mut self, key: Key) {
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
            Reply::Nothing => {}
            Reply::Quit => self.quit = true,
            Reply::Report => {
                self.mode = Mode::Form(report_form(self.practice.as_ref()));
            }
            Reply::Leave(score) => {
                self.practice = None;
                self.status = Some((format!("practice over: {score}"), false));
            }
            Reply::Follow => self.follow_practice(),
            Reply::Look(a) => self.act(a),
        }
    }

    /// A click at (x, y) while practising the leaves never evaluated on the diagram: on a
    /// leaf, the cursor goes there and marks it (or unmarks it), as Space does. False when
    /// the click is not practice's.
    pub(super) fn practice_click(&mut self, x: u16, y: u16) -> bool {
        if !self.layout.diagram {
            return false;
        }
        let tree = &self.scene.doc.tree;
        let Some(p) = self
            .practice
            .as_mut()
            .filter(|p| p.leaves_asked().is_some())
        else {
            return false;
        };
        if let Some(id) = self.layout.hit.card_at(x, y).filter(|&n| tree.is_leaf(n)) {
            self.layout.diagram_view.cursor = Some(id);
            let space = Key {
                code: KeyName::Char(' '),
                ctrl: false,
                alt: false,
            };
            p.key(space, tree, id, &self.config.keymap);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::toggle_name;

    #[test]
    fn space_marks_and_unmarks_leaves() {
        let leaves: Vec<String> = ["#2.2", "#2.3", "a, b"].map(String::from).to_vec();
        let mut s = String::new();
        toggle_name(&mut s, "#2.2", &leaves);
        toggle_name(&mut s, "a, b", &leaves);
        toggle_name(&mut s, "#2.3", &leaves);
        assert_eq!(s, "#2.2, a, b, #2.3");
        toggle_name(&mut s, "#2.2", &leaves);
        assert_eq!(s, "a, b, #2.3");
        toggle_name(&mut s, "a, b", &leaves);
        assert_eq!(s, "#2.3");
        toggle_name(&mut s, "#2.3", &leaves);
        assert_eq!(s, "");
    }
}
