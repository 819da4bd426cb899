//! The practice panel: the question, the answer being typed, what the last answer got, and
//! the score.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::style::*;
use crate::tui::app::App;

pub(super) fn draw_practice(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let Some(p) = &app.practice else { return };
    let s = &p.session;
    let n = s.questions.len();
    let title = format!(
        " Practice · {} · question {}/{n} · {} ",
        s.algorithm,
        (s.given.len() + 1).min(n),
        s.score()
    );
    let mut lines = Vec::new();
    if let Some((right, text)) = &p.feedback {
        let style = if *right {
            t.fg(t.accent)
        } else {
            t.fg(t.error)
        };
        lines.push(Line::from(Span::styled(text.clone(), style)));
    }
    match s.current() {
        Some(q) => {
            lines.push(Line::from(Span::styled(q.text.clone(), t.fg(t.text))));
            lines.push(Line::from(vec![
                Span::styled("> ", t.fg(t.accent)),
                Span::styled(format!("{}▏", p.input), t.fg(t.text)),
            ]));
            if !q.choices.is_empty() {
                let mut spans = vec![Span::styled("Tab picks: ", t.dim_style())];
                for (i, c) in q.choices.iter().enumerate() {
                    if i > 0 {
                        spans.push(Span::styled(" · ", t.dim_style()));
                    }
                    let style = if p.pick == Some(i) {
                        t.selected_style()
                    } else {
                        t.fg(t.text)
                    };
                    spans.push(Span::styled(c.clone(), style));
                }
                lines.push(Line::from(spans));
            }
        }
        None => lines.push(Line::from(Span::styled(
            format!(
                "Done: {}. Enter or Ctrl-S saves the report (JSON); Esc leaves practice.",
                s.score()
            ),
            t.fg(t.accent),
        ))),
    }
    lines.push(Line::from(Span::styled(
        "numbers: 3 -2.5 1/3 inf; bounds: >=3 <=3; windows: α β; s/p; leaves: #2.1, #3 · Tab picks · Enter answers · Ctrl-S report · Esc leaves",
        t.dim_style(),
    )));
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block(t, title)),
        area,
    );
}
