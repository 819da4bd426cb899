//! The practice panel: the question, the answer being typed, what the last answer got, and
//! the score.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::style::*;
use crate::tui::app::App;
use crate::tui::practice::{WHY_DOWN, WHY_UP};

/// The panel's height: room for a question, its answer line and a few lines of why; more on a
/// tall screen, where the why is often longer than the question.
pub(super) fn panel_height(area: Rect) -> u16 {
    if area.height < 36 { 8 } else { 12 }
}

pub(super) fn draw_practice(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let Some(p) = app.practice() else { return };
    let s = &p.session;
    let n = s.questions.len();
    let title = format!(
        " Practice · {} · question {}/{n} · {} ",
        s.algorithm,
        (s.given.len() + 1).min(n),
        s.score()
    );
    // The question and its answer line always show; what the last answer got takes the rows
    // left and scrolls; the line of how to answer shows when there is room for it.
    let mut ask = Vec::new();
    match s.current() {
        Some(q) => {
            ask.push(Line::from(Span::styled(q.text.clone(), t.fg(t.text))));
            ask.push(Line::from(vec![
                Span::styled("> ", t.fg(t.accent)),
                Span::styled(format!("{}▏", p.input), t.fg(t.text)),
            ]));
            if !q.choices.is_empty() {
                ask.push(choices_line(t, &q.choices, p.pick));
            }
        }
        None => ask.push(Line::from(Span::styled(
            format!(
                "Done: {}. Enter or Ctrl-S saves the report (JSON); Esc leaves practice.",
                s.score()
            ),
            t.fg(t.accent),
        ))),
    }
    let help = Line::from(Span::styled(
        "numbers: 3 -2.5 1/3 inf; bounds: >=3 <=3; windows: α β; s/p; leaves: #2.1, #3 · Tab picks · Enter answers · Ctrl-S report · Esc leaves",
        t.dim_style(),
    ));
    let feedback = p.feedback.as_ref().map(|(right, text)| {
        let style = if *right {
            t.fg(t.accent)
        } else {
            t.fg(t.error)
        };
        Line::from(Span::styled(text.clone(), style))
    });
    let b = block(t, area, title);
    let inner = b.inner(area);
    let rows = |lines: &[Line<'static>]| -> u16 {
        let p = Paragraph::new(lines.to_vec()).wrap(Wrap { trim: false });
        p.line_count(inner.width) as u16
    };
    let ask_h = rows(&ask).min(inner.height);
    let mut left = inner.height - ask_h;
    let why_h = feedback
        .as_ref()
        .map_or(0, |l| rows(std::slice::from_ref(l)));
    let why_rows = why_h.min(left);
    left -= why_rows;
    // Cut to one line (ending in "…") when it does not fit whole.
    let help = if rows(std::slice::from_ref(&help)) <= left {
        help
    } else {
        fit_line(help, usize::from(inner.width))
    };
    let help_rows = left;
    let hidden = why_h - why_rows;
    p.why_extent.set(hidden);
    let scroll = p.why_scroll.min(hidden);
    let b = if hidden > 0 {
        b.title_bottom(Line::from(Span::styled(
            format!(
                " why: {} more · {} {} scroll ",
                hidden - scroll,
                WHY_DOWN.name(),
                WHY_UP.name()
            ),
            t.dim_style(),
        )))
    } else {
        b
    };
    f.render_widget(b, area);
    let [why_area, ask_area, help_area] = Layout::vertical([
        Constraint::Length(why_rows),
        Constraint::Length(ask_h),
        Constraint::Length(help_rows),
    ])
    .areas(inner);
    if let Some(l) = feedback {
        f.render_widget(
            Paragraph::new(l)
                .wrap(Wrap { trim: false })
                .scroll((scroll, 0)),
            why_area,
        );
    }
    f.render_widget(Paragraph::new(ask).wrap(Wrap { trim: false }), ask_area);
    f.render_widget(Paragraph::new(help).wrap(Wrap { trim: false }), help_area);
}

/// "Tab picks: a · b · c", the picked one highlighted.
fn choices_line(
    t: &crate::tui::theme::Theme,
    choices: &[String],
    pick: Option<usize>,
) -> Line<'static> {
    let mut spans = vec![Span::styled("Tab picks: ", t.dim_style())];
    for (i, c) in choices.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", t.dim_style()));
        }
        let style = if pick == Some(i) {
            t.selected_style()
        } else {
            t.fg(t.text)
        };
        spans.push(Span::styled(c.clone(), style));
    }
    Line::from(spans)
}
