//! What the user configures: the keymap and the themes (see [`super::keymap`] and
//! [`super::theme`]), and the theme in use.

use super::keymap::{Action, Keymap};
use super::theme::Theme;

pub struct Config {
    pub(crate) keymap: Keymap,
    /// Never empty: the built-in theme at least.
    pub(crate) themes: Vec<Theme>,
    /// The theme in use, in `themes`.
    pub(crate) theme: usize,
}

impl Config {
    pub fn new(keymap: Keymap, themes: Vec<Theme>) -> Config {
        Config {
            keymap,
            themes,
            theme: 0,
        }
    }

    pub fn theme(&self) -> &Theme {
        &self.themes[self.theme]
    }

    /// The next theme, and the message that names it.
    pub fn next_theme(&mut self) -> String {
        self.theme = (self.theme + 1) % self.themes.len();
        format!("theme: {}", self.theme().name)
    }

    /// What to say when there is no run to `what` yet: the key that adds one.
    pub fn no_run(&self, what: &str) -> String {
        let key = self.keymap.keys_for(Action::AddRun);
        let key = key.split(' ').next().unwrap_or("r").to_owned();
        format!("no run yet to {what}: press {key} to run an algorithm")
    }
}
