//! The statistics panel: one row per run.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Modifier;
use ratatui::text::Span;
use ratatui::widgets::{Cell, Paragraph, Row, Table};

use crate::trace::columns::{PANEL, Scope};

use super::style::*;
use crate::tui::app::App;
use crate::tui::keymap::Action;

pub(super) fn draw_stats(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let b = block(t, " Stats ");
    if app.runs.is_empty() {
        let hint = format!(
            "No run yet. Press {} to run an algorithm on this tree.",
            first_key(app, Action::AddRun)
        );
        f.render_widget(
            Paragraph::new(Span::styled(hint, t.dim_style())).block(b),
            area,
        );
        return;
    }
    let scope = Scope {
        tree: &app.tree,
        minimal_leaves: app.analysis.as_ref().map(|a| a.minimal_leaves),
    };
    let header = Row::new(PANEL.iter().map(|c| c.heading())).style(t.dim_style());
    let rows: Vec<Row> = app
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let style = if i == app.current {
                t.fg(t.text).add_modifier(Modifier::BOLD)
            } else {
                t.fg(t.text)
            };
            let cells = PANEL.iter().enumerate().map(|(k, c)| {
                let text = c.of(&scope, &r.run).text();
                if k == 0 {
                    let marker = if i == app.current { "▶ " } else { "  " };
                    Cell::from(format!("{marker}{text}"))
                } else {
                    Cell::from(text)
                }
            });
            Row::new(cells).style(style)
        })
        .collect();
    let widths = PANEL.iter().map(|c| match c.width {
        0 => Constraint::Fill(1),
        w => Constraint::Length(w),
    });
    f.render_widget(Table::new(rows, widths).header(header).block(b), area);
}
