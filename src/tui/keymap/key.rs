//! A key as the keymap names it: from a terminal event, from its name in a keymap file
//! (`ctrl-n`, `pageup`, `F`), and back to the name the help shows.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key with its modifiers (shift only where it is not already in the character).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub code: KeyName,
    pub ctrl: bool,
    pub alt: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyName {
    Char(char),
    F(u8),
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Enter,
    Esc,
    Tab,
    BackTab,
    Backspace,
    Delete,
}

impl Key {
    pub fn from_event(e: &KeyEvent) -> Option<Key> {
        let code = match e.code {
            KeyCode::Char(c) => KeyName::Char(c),
            KeyCode::F(n) => KeyName::F(n),
            KeyCode::Up => KeyName::Up,
            KeyCode::Down => KeyName::Down,
            KeyCode::Left => KeyName::Left,
            KeyCode::Right => KeyName::Right,
            KeyCode::PageUp => KeyName::PageUp,
            KeyCode::PageDown => KeyName::PageDown,
            KeyCode::Home => KeyName::Home,
            KeyCode::End => KeyName::End,
            KeyCode::Enter => KeyName::Enter,
            KeyCode::Esc => KeyName::Esc,
            KeyCode::Tab => KeyName::Tab,
            KeyCode::BackTab => KeyName::BackTab,
            KeyCode::Backspace => KeyName::Backspace,
            KeyCode::Delete => KeyName::Delete,
            _ => return None,
        };
        Some(Key {
            code,
            ctrl: e.modifiers.contains(KeyModifiers::CONTROL),
            alt: e.modifiers.contains(KeyModifiers::ALT),
        })
    }

    /// Parses `j`, `ctrl-c`, `alt-x`, `pagedown`, `f1`, `space`, `?` …
    pub fn parse(s: &str) -> Result<Key, String> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl-") && rest.len() > 5 {
                ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("alt-") && rest.len() > 4 {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyName::Char(c),
            _ => match rest.to_ascii_lowercase().as_str() {
                "space" => KeyName::Char(' '),
                "up" => KeyName::Up,
                "down" => KeyName::Down,
                "left" => KeyName::Left,
                "right" => KeyName::Right,
                "pageup" | "pgup" => KeyName::PageUp,
                "pagedown" | "pgdn" => KeyName::PageDown,
                "home" => KeyName::Home,
                "end" => KeyName::End,
                "enter" | "return" => KeyName::Enter,
                "esc" | "escape" => KeyName::Esc,
                "tab" => KeyName::Tab,
                "backtab" | "shift-tab" => KeyName::BackTab,
                "backspace" => KeyName::Backspace,
                "delete" | "del" => KeyName::Delete,
                f if f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                    KeyName::F(f[1..].parse().expect("checked"))
                }
                _ => return Err(format!("unknown key `{s}`")),
            },
        };
        Ok(Key { code, ctrl, alt })
    }

    pub fn name(&self) -> String {
        let base = match self.code {
            KeyName::Char(' ') => "space".to_owned(),
            KeyName::Char(c) => c.to_string(),
            KeyName::F(n) => format!("F{n}"),
            KeyName::Up => "↑".into(),
            KeyName::Down => "↓".into(),
            KeyName::Left => "←".into(),
            KeyName::Right => "→".into(),
            KeyName::PageUp => "PgUp".into(),
            KeyName::PageDown => "PgDn".into(),
            KeyName::Home => "Home".into(),
            KeyName::End => "End".into(),
            KeyName::Enter => "Enter".into(),
            KeyName::Esc => "Esc".into(),
            KeyName::Tab => "Tab".into(),
            KeyName::BackTab => "S-Tab".into(),
            KeyName::Backspace => "Bksp".into(),
            KeyName::Delete => "Del".into(),
        };
        let mut s = String::new();
        if self.ctrl {
            s.push_str("C-");
        }
        if self.alt {
            s.push_str("M-");
        }
        s + &base
    }
}
