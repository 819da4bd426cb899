//! The loading screen: what the explorer shows from its first frame until the file named on
//! the command line has loaded — the file, the bytes done of its size, a gauge, the stage, and
//! the keys that quit.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Gauge, Paragraph};

use crate::tui::app::App;
use crate::tui::keymap::Action;
use prune::format::progress::{Snapshot, Stage};

/// A byte count in decimal units with one decimal ("23.4 MB"), as file sizes are usually given.
pub fn size_text(bytes: u64) -> String {
    let x = bytes as f64;
    if x < 1e3 {
        format!("{bytes} B")
    } else if x < 1e6 {
        format!("{:.1} kB", x / 1e3)
    } else if x < 1e9 {
        format!("{:.1} MB", x / 1e6)
    } else {
        format!("{:.1} GB", x / 1e9)
    }
}

/// "Loading big.efg — 23.4 MB of 70.1 MB (33 %)".
pub fn progress_text(name: &str, s: &Snapshot) -> String {
    format!(
        "Loading {name} — {} of {} ({} %)",
        size_text(s.done),
        size_text(s.total),
        s.percent()
    )
}

pub(super) fn draw_loading(f: &mut Frame, app: &App, area: Rect, name: &str, s: &Snapshot) {
    let t = app.theme();
    let [title, _, body, _] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(7),
        Constraint::Fill(1),
    ])
    .areas(area);
    let title_line = Line::from(vec![
        Span::styled(" prune ", t.title_style().add_modifier(Modifier::REVERSED)),
        Span::styled(
            format!("  {}", app.tree().meta().name),
            t.fg(t.text).add_modifier(Modifier::BOLD),
        ),
    ]);
    f.render_widget(Paragraph::new(title_line), title);
    let [text, _, gauge, stage, _, hint] = Layout::vertical([Constraint::Length(1); 6]).areas(
        Layout::horizontal([Constraint::Percentage(70)])
            .flex(ratatui::layout::Flex::Center)
            .areas::<1>(body)[0],
    );
    let centred = |s: String, style| Paragraph::new(s).style(style).alignment(Alignment::Center);
    f.render_widget(centred(progress_text(name, s), t.fg(t.text)), text);
    f.render_widget(
        Gauge::default()
            .gauge_style(t.fg(t.accent))
            .ratio(s.percent() as f64 / 100.0)
            .label(""),
        gauge,
    );
    let what = match s.stage {
        Stage::Reading => "reading the file",
        Stage::Parsing => "reading the tree",
        Stage::Building => "checking the tree and laying it out",
    };
    f.render_widget(centred(what.into(), t.dim_style()), stage);
    // The first key of each, as the keymap has them ("Esc or q: quit").
    let keys: Vec<String> = [Action::Cancel, Action::Quit]
        .iter()
        .filter_map(|&a| {
            let keys = app.keymap().keys_for(a);
            keys.split(' ')
                .next()
                .filter(|k| !k.is_empty())
                .map(str::to_owned)
        })
        .collect();
    let hint_text = format!("{}: quit", keys.join(" or "));
    f.render_widget(centred(hint_text, t.dim_style()), hint);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_the_progress_line() {
        assert_eq!(size_text(999), "999 B");
        assert_eq!(size_text(23_400), "23.4 kB");
        assert_eq!(size_text(70_100_000), "70.1 MB");
        assert_eq!(size_text(2_500_000_000), "2.5 GB");
        let s = Snapshot {
            stage: Stage::Parsing,
            done: 23_400_000,
            total: 70_100_000,
        };
        assert_eq!(
            progress_text("big.efg", &s),
            "Loading big.efg — 23.4 MB of 70.1 MB (33 %)"
        );
    }
}
