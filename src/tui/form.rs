//! Forms: small dialogs of typed fields, with no terminal in sight.
//!
//! A [`Form`] knows its fields — each with a typed [`FieldId`], a kind (text, choice, toggle), a
//! default and a line of help — and turns an input [`Action`] (or a typed character) into
//! [`Outcome::Edited`], [`Outcome::Cancelled`] or [`Outcome::Submitted`]. What a submitted form
//! means is for its [`Purpose`]'s owner to decide; reading a field that is not there is an
//! error value, never a panic.

use std::borrow::Cow;

use prune::search::{Param, ParamKind, ParamSpec};

use super::keymap::{Action, Key, KeyName};

/// Which field: typed, so nothing is looked up by the text of its label.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FieldId {
    /// An algorithm's parameter (the run form).
    Param(Param),
    /// A path to read (the open form).
    File,
    /// The export form's outputs: the trace, the statistics, the whole run in DOT, and the
    /// picture of the current step (its format from its extension).
    TraceFile,
    StatsFile,
    PictureFile,
    StepPictureFile,
    /// The reorder form.
    Order,
    Seed,
    /// The generate form: the family, then a parameter of the family's specification.
    Family,
    Gen(&'static str),
    /// Where the practice report goes.
    ReportFile,
    /// The edit form: the node's label, kind, value (or payoff vector), and the probability of
    /// each child of the chance node edited with it (by child position).
    Label,
    Kind,
    Value,
    ChildProb(usize),
    /// The save form: where to write the tree.
    SavePath,
}

/// A text field, a choice or a toggle.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    Text(String),
    Choice(Vec<&'static str>, usize),
    Toggle(bool),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub id: FieldId,
    /// Most labels are fixed; a child's probability is labelled with the child's name.
    pub label: Cow<'static, str>,
    pub value: FieldValue,
    /// One line shown under the form while the field has the focus.
    pub help: &'static str,
}

impl Field {
    pub fn text(id: FieldId, label: impl Into<Cow<'static, str>>, v: impl Into<String>) -> Field {
        Field {
            id,
            label: label.into(),
            value: FieldValue::Text(v.into()),
            help: "",
        }
    }

    pub fn choice(id: FieldId, label: &'static str, options: &[&'static str], i: usize) -> Field {
        Field {
            id,
            label: label.into(),
            value: FieldValue::Choice(options.to_vec(), i.min(options.len().saturating_sub(1))),
            help: "",
        }
    }

    pub fn toggle(id: FieldId, label: &'static str, on: bool) -> Field {
        Field {
            id,
            label: label.into(),
            value: FieldValue::Toggle(on),
            help: "",
        }
    }

    pub fn with_help(mut self, help: &'static str) -> Field {
        self.help = help;
        self
    }

    /// The field of an algorithm's parameter, from its description in the catalogue.
    pub fn param(spec: &ParamSpec) -> Field {
        let id = FieldId::Param(spec.param);
        let f = match spec.kind {
            ParamKind::Toggle => Field::toggle(id, spec.label, false),
            _ => Field::text(id, spec.label, spec.default),
        };
        f.with_help(spec.help)
    }

    /// The value as the form shows it.
    pub fn shown(&self) -> String {
        match &self.value {
            FieldValue::Text(s) => s.clone(),
            FieldValue::Choice(o, i) => format!("‹ {} ›", o.get(*i).copied().unwrap_or("")),
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
    PracticeReport,
    /// Editing the node at this path (child positions from the root).
    Edit(Vec<usize>),
    Save,
}

/// What an input did to a form.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Edited,
    Cancelled,
    Submitted,
}

/// A small dialog of fields: Tab/↑/↓ move between fields, ←/→ change a choice or toggle, typing
/// edits text, Enter submits, Esc cancels (the keys come from the keymap's input context).
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub title: String,
    pub purpose: Purpose,
    pub fields: Vec<Field>,
    pub focus: usize,
    pub error: Option<String>,
}

/// A field the code asked for is not in the form.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("the form has no field {0:?}")]
pub struct MissingField(pub FieldId);

impl Form {
    pub fn new(title: impl Into<String>, purpose: Purpose, fields: Vec<Field>) -> Form {
        Form {
            title: title.into(),
            purpose,
            fields,
            focus: 0,
            error: None,
        }
    }

    pub fn field(&self, id: FieldId) -> Result<&Field, MissingField> {
        self.fields
            .iter()
            .find(|f| f.id == id)
            .ok_or(MissingField(id))
    }

    /// A text field's trimmed text (a choice's option, a toggle's "true"/"").
    pub fn text(&self, id: FieldId) -> Result<&str, MissingField> {
        Ok(match &self.field(id)?.value {
            FieldValue::Text(s) => s.trim(),
            FieldValue::Choice(o, i) => o.get(*i).copied().unwrap_or(""),
            FieldValue::Toggle(true) => "true",
            FieldValue::Toggle(false) => "",
        })
    }

    /// A choice field's option.
    pub fn choice(&self, id: FieldId) -> Result<&'static str, MissingField> {
        match &self.field(id)?.value {
            FieldValue::Choice(o, i) => Ok(o.get(*i).copied().unwrap_or("")),
            _ => Err(MissingField(id)),
        }
    }

    pub fn toggle(&self, id: FieldId) -> Result<bool, MissingField> {
        match &self.field(id)?.value {
            FieldValue::Toggle(b) => Ok(*b),
            _ => Err(MissingField(id)),
        }
    }

    pub fn focused(&self) -> Option<&Field> {
        self.fields.get(self.focus)
    }

    /// Applies an input action — or, for a key bound to nothing, types it into a text field.
    pub fn input(&mut self, action: Option<Action>, key: Key) -> Outcome {
        let n = self.fields.len().max(1);
        match action {
            Some(Action::Cancel) => return Outcome::Cancelled,
            Some(Action::Confirm) => return Outcome::Submitted,
            Some(Action::NextField) => self.focus = (self.focus + 1) % n,
            Some(Action::PrevField) => self.focus = (self.focus + n - 1) % n,
            Some(Action::EvenProbabilities) => self.even_probabilities(),
            _ => {
                if let Some(f) = self.fields.get_mut(self.focus) {
                    edit(&mut f.value, action, key);
                }
            }
        }
        self.error = None;
        Outcome::Edited
    }
}

impl Form {
    /// Every child's probability field set to `1/n`: the children equally likely, written out.
    fn even_probabilities(&mut self) {
        let n = self.prob_fields().count();
        for f in self.fields.iter_mut() {
            if let (FieldId::ChildProb(_), FieldValue::Text(s)) = (f.id, &mut f.value) {
                *s = format!("1/{n}");
            }
        }
    }

    /// The children's probability fields, in child order.
    pub fn prob_fields(&self) -> impl Iterator<Item = &Field> {
        self.fields
            .iter()
            .filter(|f| matches!(f.id, FieldId::ChildProb(_)))
    }
}

/// One edit of a field's value: a choice or toggle changes with Next/PrevChoice; a text field
/// takes typed characters (a key bound to NextChoice, such as space, types itself there).
fn edit(value: &mut FieldValue, action: Option<Action>, key: Key) {
    match (value, action) {
        (FieldValue::Choice(o, i), Some(Action::PrevChoice)) if !o.is_empty() => {
            *i = (*i + o.len() - 1) % o.len()
        }
        (FieldValue::Choice(o, i), Some(Action::NextChoice)) if !o.is_empty() => {
            *i = (*i + 1) % o.len()
        }
        (FieldValue::Toggle(b), Some(Action::NextChoice | Action::PrevChoice)) => *b = !*b,
        (FieldValue::Text(s), Some(Action::DeleteChar)) => {
            s.pop();
        }
        (FieldValue::Text(s), _) => {
            if let KeyName::Char(c) = key.code
                && !key.ctrl
                && !key.alt
            {
                s.push(c);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Key {
        Key::parse(s).unwrap()
    }

    fn form() -> Form {
        Form::new(
            "t",
            Purpose::Reorder,
            vec![
                Field::choice(FieldId::Order, "order", &["a", "b", "c"], 0),
                Field::text(FieldId::Seed, "seed", "1"),
                Field::toggle(FieldId::Gen("flag"), "flag", false),
            ],
        )
    }

    #[test]
    fn choices_cycle_and_text_is_typed() {
        let mut f = form();
        assert_eq!(
            f.input(Some(Action::PrevChoice), key("left")),
            Outcome::Edited
        );
        assert_eq!(f.choice(FieldId::Order), Ok("c"));
        f.input(Some(Action::NextField), key("tab"));
        f.input(Some(Action::DeleteChar), key("backspace"));
        f.input(None, key("4"));
        f.input(None, key("2"));
        // Space is "next choice" in the keymap, but types itself into text.
        f.input(Some(Action::NextChoice), key("space"));
        assert_eq!(f.text(FieldId::Seed), Ok("42"));
        f.input(Some(Action::NextField), key("tab"));
        f.input(Some(Action::NextChoice), key("space"));
        assert_eq!(f.toggle(FieldId::Gen("flag")), Ok(true));
        assert_eq!(
            f.input(Some(Action::Confirm), key("enter")),
            Outcome::Submitted
        );
        assert_eq!(
            f.input(Some(Action::Cancel), key("esc")),
            Outcome::Cancelled
        );
    }

    #[test]
    fn a_missing_field_is_an_error_not_a_panic() {
        let f = form();
        assert_eq!(f.text(FieldId::File), Err(MissingField(FieldId::File)));
        assert!(f.choice(FieldId::Seed).is_err());
        let mut empty = Form::new("e", Purpose::Open, Vec::new());
        assert_eq!(
            empty.input(Some(Action::NextField), key("tab")),
            Outcome::Edited
        );
        assert_eq!(empty.input(None, key("x")), Outcome::Edited);
    }

    #[test]
    fn editing_clears_the_error() {
        let mut f = form();
        f.error = Some("bad".into());
        f.input(None, key("x"));
        assert_eq!(f.error, None);
    }

    #[test]
    fn parameter_fields_come_from_the_catalogue() {
        let spec = prune::search::find_param(Param::Probes);
        let f = Field::param(spec);
        assert_eq!(f.label, "probes K");
        assert_eq!(f.value, FieldValue::Text("1".into()));
        assert!(!f.help.is_empty());
    }
}
