//! What the explorer is doing — the outline, the help, a label search being typed, the
//! algorithm picker, a form, a message box — and the keys of the two prompts, the label search
//! and the picker, which answer with a [`Prompted`] for `App::update` to carry out.

use prune::search::ALGORITHMS;

use super::form::Form;
use super::keymap::{Action, Context, Key, KeyName};

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

impl Mode {
    /// The keymap's context for keys in this mode.
    pub fn context(&self) -> Context {
        match self {
            Mode::Normal | Mode::Help | Mode::Popup(_) => Context::Normal,
            Mode::Picker(_) => Context::List,
            Mode::Search(_) | Mode::Form(_) => Context::Input,
        }
    }
}

/// What a key in a prompt asks for.
#[derive(Debug, PartialEq)]
pub enum Prompted {
    /// The prompt stays, as this.
    Stay(Mode),
    Closed,
    Quit,
    /// The label search typed, confirmed.
    Find(String),
    /// The picker's row confirmed: the algorithm at this index of [`ALGORITHMS`].
    Pick(usize),
}

/// A key while typing the label search `q`.
pub fn search_key(action: Option<Action>, key: Key, mut q: String) -> Prompted {
    match action {
        Some(Action::Confirm) => return Prompted::Find(q),
        Some(Action::Cancel) => return Prompted::Closed,
        Some(Action::Quit) => return Prompted::Quit,
        Some(Action::DeleteChar) => {
            q.pop();
        }
        _ => {
            if let KeyName::Char(c) = key.code
                && !key.ctrl
                && !key.alt
            {
                q.push(c);
            }
        }
    }
    Prompted::Stay(Mode::Search(q))
}

/// A key in the algorithm picker, on row `i`.
pub fn picker_key(action: Option<Action>, i: usize) -> Prompted {
    let n = ALGORITHMS.len();
    match action {
        Some(Action::Up) => Prompted::Stay(Mode::Picker((i + n - 1) % n)),
        Some(Action::Down) => Prompted::Stay(Mode::Picker((i + 1) % n)),
        Some(Action::Confirm) => Prompted::Pick(i),
        Some(Action::Cancel) => Prompted::Closed,
        Some(Action::Quit) => Prompted::Quit,
        _ => Prompted::Stay(Mode::Picker(i)),
    }
}
