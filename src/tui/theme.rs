//! Themes: RON files naming a colour for each role. Four are built in (`themes/` in the
//! source tree); more are read from `themes/*.ron` in the config directory. With `NO_COLOR` set
//! every colour is the terminal's own and the glyphs alone tell states apart.

use std::path::Path;
use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

/// A theme file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: String,
    text: String,
    dim: String,
    accent: String,
    border: String,
    selection: String,
    visited: String,
    open: String,
    pruned: String,
    probed: String,
    researched: String,
    pv: String,
    cutoff: String,
    difference: String,
    error: String,
    /// The screen's background; the terminal's own when absent or empty.
    #[serde(default)]
    background: String,
}

/// The colours of each role.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub name: String,
    pub text: Color,
    pub dim: Color,
    pub accent: Color,
    pub border: Color,
    pub selection: Color,
    pub visited: Color,
    pub open: Color,
    pub pruned: Color,
    pub probed: Color,
    pub researched: Color,
    pub pv: Color,
    pub cutoff: Color,
    pub difference: Color,
    pub error: Color,
    /// The screen's background (`Reset`: the terminal's own).
    pub background: Color,
    /// `NO_COLOR`: styles use modifiers only.
    pub monochrome: bool,
}

pub const BUILT_IN: [&str; 4] = [
    include_str!("../../themes/dark.ron"),
    include_str!("../../themes/light.ron"),
    include_str!("../../themes/high-contrast.ron"),
    include_str!("../../themes/colorblind.ron"),
];

impl Theme {
    pub fn parse(text: &str) -> Result<Theme, String> {
        let f: ThemeFile = ron::from_str(text).map_err(|e| e.to_string())?;
        let c = |role: &str, s: &str| {
            Color::from_str(s).map_err(|_| format!("{role}: `{s}` is not a colour"))
        };
        Ok(Theme {
            text: c("text", &f.text)?,
            dim: c("dim", &f.dim)?,
            accent: c("accent", &f.accent)?,
            border: c("border", &f.border)?,
            selection: c("selection", &f.selection)?,
            visited: c("visited", &f.visited)?,
            open: c("open", &f.open)?,
            pruned: c("pruned", &f.pruned)?,
            probed: c("probed", &f.probed)?,
            researched: c("researched", &f.researched)?,
            pv: c("pv", &f.pv)?,
            cutoff: c("cutoff", &f.cutoff)?,
            difference: c("difference", &f.difference)?,
            error: c("error", &f.error)?,
            background: if f.background.is_empty() {
                Color::Reset
            } else {
                c("background", &f.background)?
            },
            name: f.name,
            monochrome: false,
        })
    }

    /// No colours at all: what `NO_COLOR` asks for.
    pub fn monochrome() -> Theme {
        let r = Color::Reset;
        Theme {
            name: "monochrome".into(),
            text: r,
            dim: r,
            accent: r,
            border: r,
            selection: r,
            visited: r,
            open: r,
            pruned: r,
            probed: r,
            researched: r,
            pv: r,
            cutoff: r,
            difference: r,
            error: r,
            background: r,
            monochrome: true,
        }
    }

    /// The screen: text on the background.
    pub fn base(&self) -> Style {
        Style::default().fg(self.text).bg(self.background)
    }

    /// Foreground `c`.
    pub fn fg(&self, c: Color) -> Style {
        Style::default().fg(c)
    }

    pub fn dim_style(&self) -> Style {
        if self.monochrome {
            Style::default().add_modifier(Modifier::DIM)
        } else {
            self.fg(self.dim)
        }
    }

    pub fn selected_style(&self) -> Style {
        if self.monochrome {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default().bg(self.selection)
        }
    }

    pub fn difference_style(&self) -> Style {
        if self.monochrome {
            Style::default().add_modifier(Modifier::UNDERLINED)
        } else {
            Style::default().bg(self.difference)
        }
    }

    pub fn title_style(&self) -> Style {
        self.fg(self.accent).add_modifier(Modifier::BOLD)
    }

    pub fn pv_style(&self) -> Style {
        self.fg(self.pv).add_modifier(Modifier::BOLD)
    }
}

/// The themes on offer: built in, then the user's (`<config>/themes/*.ron`). A user theme that
/// does not parse is skipped and its error returned for the status line.
pub fn available(config_dir: Option<&Path>) -> (Vec<Theme>, Vec<String>) {
    let mut themes: Vec<Theme> = BUILT_IN
        .iter()
        .map(|t| Theme::parse(t).expect("built-in themes parse"))
        .collect();
    let mut errors = Vec::new();
    if let Some(dir) = config_dir.map(|d| d.join("themes")) {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            let mut paths: Vec<_> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                .collect();
            paths.sort();
            for p in paths {
                match std::fs::read_to_string(&p)
                    .map_err(|e| e.to_string())
                    .and_then(|t| Theme::parse(&t))
                {
                    Ok(t) => themes.push(t),
                    Err(e) => errors.push(format!("theme {}: {e}", p.display())),
                }
            }
        }
    }
    (themes, errors)
}

/// `$XDG_CONFIG_HOME/prune`, or `~/.config/prune`.
pub fn config_dir() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".config")))?;
    Some(base.join("prune"))
}

/// Whether `NO_COLOR` asks for no colour.
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_parse_with_distinct_names() {
        let (themes, errors) = available(None);
        assert!(errors.is_empty());
        let names: Vec<&str> = themes.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["dark", "light", "high-contrast", "colorblind"]);
    }

    #[test]
    fn light_themes_paint_their_own_background() {
        let (themes, _) = available(None);
        for name in ["light", "high-contrast"] {
            let t = themes.iter().find(|t| t.name == name).unwrap();
            assert_ne!(t.background, Color::Reset, "{name}");
            assert_eq!(t.base().bg, Some(t.background));
        }
    }

    #[test]
    fn user_themes_load_and_bad_ones_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("themes")).unwrap();
        let mine = BUILT_IN[0].replace("name: \"dark\"", "name: \"mine\"");
        std::fs::write(dir.path().join("themes/mine.ron"), mine).unwrap();
        std::fs::write(dir.path().join("themes/bad.ron"), "(name: \"bad\")").unwrap();
        let (themes, errors) = available(Some(dir.path()));
        assert_eq!(themes.last().unwrap().name, "mine");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("bad.ron"));
    }

    #[test]
    fn a_bad_colour_is_named() {
        let t = BUILT_IN[0].replace("\"#d0d0d0\"", "\"blurple\"");
        let e = Theme::parse(&t).unwrap_err();
        assert!(e.contains("text") && e.contains("blurple"), "{e}");
    }
}
