//! Practice in the explorer: the current run's results hidden, its questions asked one by one
//! ([`crate::trace::practice`]), the stepper moved to where each is asked, a score kept, and
//! the session's report saved as JSON.

use std::cell::Cell;
use std::path::Path;

use crate::format;
use crate::trace::practice::{Answer, Session, leaf_names};

use super::app::{App, Mode};
use super::form::{Field, FieldId, Form, Purpose};
use super::keymap::{Action, Context, Key, KeyName};

/// The longest trace practised: the questions and their explanations are all prepared when
/// practice starts, and an exercise is for a tree a student can follow by hand.
pub const MAX_STEPS: usize = 20_000;

/// A practice session on one run.
pub struct Practice {
    /// The run practised (the explorer's current run while practising).
    pub run: usize,
    pub session: Session,
    /// The answer being typed.
    pub input: String,
    /// The choice Tab last put in `input`, if the input is still that choice.
    pub pick: Option<usize>,
    /// What the last answer got: right or not, and what to say about it.
    pub feedback: Option<(bool, String)>,
    /// Lines of the feedback scrolled past, and (set by the last draw) how many do not fit.
    pub why_scroll: u16,
    pub why_extent: Cell<u16>,
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

impl App {
    /// Starts practice on the current run: the stepper goes to the first question.
    pub fn start_practice(&mut self) {
        let Some(r) = self.current_run() else {
            self.status = Some((
                "no run to practise: press r to run an algorithm, then T".into(),
                false,
            ));
            return;
        };
        if r.algo.improvements().is_some_and(|w| w.reorders()) {
            self.status = Some((
                format!(
                    "practice does not cover the transposition table, iterative deepening, killers or history, which {} uses: step through it instead",
                    r.algo.label()
                ),
                true,
            ));
            return;
        }
        if r.trace.len() > MAX_STEPS {
            self.status = Some((
                format!(
                    "practice is for small trees: this run has {} steps, at most {MAX_STEPS} are practised",
                    r.trace.len()
                ),
                true,
            ));
            return;
        }
        let session = Session::new(&self.tree, &r.run, &r.trace, &r.replay(&self.tree));
        if session.questions.is_empty() {
            self.status = Some((format!("{} asks no questions on this tree", r.algo), true));
            return;
        }
        self.playing = false;
        self.practice = Some(Practice {
            run: self.current,
            session,
            input: String::new(),
            pick: None,
            feedback: None,
            why_scroll: 0,
            why_extent: Cell::new(0),
        });
        self.follow_practice();
    }

    /// Moves the stepper to where the current question is asked (the end when none is left).
    fn follow_practice(&mut self) {
        let Some(p) = &self.practice else { return };
        let run = p.run;
        let step = match p.session.current() {
            Some(q) => q.step,
            None => self.runs.get(run).map_or(0, |r| r.trace.len()),
        };
        let node = p.session.current().map(|q| q.node);
        self.current = run;
        self.go_to_step(step);
        if let Some(n) = node {
            self.select(n);
        }
    }

    /// A key while practising: typing, Enter to answer, Esc to leave, Ctrl-S to save the
    /// report, the arrows to look around the outline, Ctrl-C to quit.
    pub(super) fn practice_key(&mut self, key: Key) {
        let Some(p) = self.practice.as_mut() else {
            return;
        };
        match key.code {
            KeyName::Char('c') if key.ctrl => self.quit = true,
            KeyName::Char('s') if key.ctrl => self.mode = Mode::Form(self.report_form()),
            _ if key == WHY_DOWN => p.why_scroll = (p.why_scroll + 1).min(p.why_extent.get()),
            _ if key == WHY_UP => p.why_scroll = p.why_scroll.saturating_sub(1),
            KeyName::Tab | KeyName::BackTab => {
                let n = p.session.current().map_or(0, |q| q.choices.len());
                if n > 0 {
                    let next = match (p.pick, key.code == KeyName::Tab) {
                        (None, true) => 0,
                        (None, false) => n - 1,
                        (Some(i), true) => (i + 1) % n,
                        (Some(i), false) => (i + n - 1) % n,
                    };
                    p.pick = Some(next);
                    p.input = p.session.current().unwrap().choices[next].clone();
                }
            }
            KeyName::Char(' ')
                if p.session
                    .current()
                    .is_some_and(|q| q.ask == crate::trace::practice::Ask::Unevaluated) =>
            {
                let sel = self.outline.selected;
                let leaves = match p.session.current().map(|q| &q.answer) {
                    Some(Answer::Leaves { leaves, .. }) => leaves.clone(),
                    _ => Vec::new(),
                };
                p.why_scroll = 0;
                if self.tree.is_leaf(sel) {
                    let name = crate::tree::names::node_name(&self.tree, sel);
                    toggle_name(&mut p.input, &name, &leaves);
                    p.feedback = None;
                } else {
                    p.feedback = Some((false, "Space marks a leaf: select one with ↑ ↓".into()));
                }
            }
            KeyName::Char(c) if !key.ctrl && !key.alt => {
                p.pick = None;
                p.input.push(c)
            }
            KeyName::Backspace => {
                p.pick = None;
                p.input.pop();
            }
            KeyName::Esc => {
                let score = p.session.score();
                self.practice = None;
                self.status = Some((format!("practice over: {score}"), false));
            }
            KeyName::Enter => {
                if p.session.done() {
                    self.mode = Mode::Form(self.report_form());
                    return;
                }
                let typed = std::mem::take(&mut p.input);
                p.pick = None;
                let Some(q) = p.session.current().cloned() else {
                    return;
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
                        return;
                    }
                }
                self.follow_practice();
            }
            _ => {
                // Looking around: the outline's moving keys.
                if let Some(a) = self.keymap.action_in(Context::Normal, &key)
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
                    )
                {
                    self.update(a);
                }
            }
        }
    }

    fn report_form(&self) -> Form {
        let stem = self.practice.as_ref().map_or("practice".into(), |p| {
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

    /// Writes the practice report to the form's path.
    pub(super) fn save_report(&mut self, form: &Form) -> Result<(), String> {
        let path = form.text(FieldId::ReportFile).map_err(|e| e.to_string())?;
        if path.is_empty() || path == "-" {
            return Err("type a file name for the report".into());
        }
        if self.practice.is_none() {
            return Err("no practice to report".into());
        }
        self.confirm_overwrite(&[path.to_owned()])?;
        let Some(p) = &self.practice else {
            return Err("no practice to report".into());
        };
        // The tree as the title bar names it: its file, or the --expr / --gen that built it.
        let source = if self.unsaved {
            format!("{} (unsaved changes)", self.source)
        } else {
            self.source.clone()
        };
        let mut text = serde_json::to_string_pretty(&p.session.report(&source))
            .map_err(|e| format!("cannot write the report: {e}"))?;
        text.push('\n');
        format::save_text(Path::new(path), &text)
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        self.status = Some((format!("wrote {path}"), false));
        Ok(())
    }
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
