//! The statistics panel: one row per run.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Modifier;
use ratatui::text::Span;
use ratatui::widgets::{Cell, Paragraph, Row, Table};

use prune::trace::columns::{PANEL, Scope};

use super::legend::SELECTED;
use super::style::*;
use crate::tui::app::App;
use crate::tui::keymap::Action;

pub(super) fn draw_stats(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let b = block(t, area, " Stats ");
    if app.runs().is_empty() {
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
        tree: app.tree(),
        minimal_leaves: app.doc().analysis.as_ref().map(|a| a.minimal_leaves),
    };
    // A window of rows around the current run.
    let n = app.runs().len();
    let room = usize::from(area.height.saturating_sub(3)).max(1);
    let first = app
        .current()
        .saturating_sub(room / 2)
        .min(n.saturating_sub(room));
    let last = (first + room).min(n);
    // The columns that fit beside the run's name, from the left.
    let name_w = app
        .runs()
        .iter()
        .map(|r| crate::tui::cut::width(&r.name()) + 2)
        .max()
        .unwrap_or(10)
        .clamp(10, 24) as u16;
    let mut width = name_w;
    let mut shown = 1;
    for c in &PANEL[1..] {
        if width + 1 + c.width > area.width.saturating_sub(2) {
            break;
        }
        width += 1 + c.width;
        shown += 1;
    }
    let columns = &PANEL[..shown];
    let mut notes = Vec::new();
    if first > 0 {
        notes.push(format!("↑ {first} more"));
    }
    if last < n {
        notes.push(format!("↓ {} more", n - last));
    }
    if shown < PANEL.len() {
        let cut = PANEL.len() - shown;
        notes.push(format!(
            "{cut} column{} cut",
            if cut == 1 { "" } else { "s" }
        ));
    }
    let b = if notes.is_empty() {
        b
    } else {
        block(t, area, format!(" Stats · {} ", notes.join(" · ")))
    };
    let header = Row::new(columns.iter().map(|c| c.heading())).style(t.dim_style());
    let rows: Vec<Row> = app.runs()[first..last]
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let i = first + k;
            let style = if i == app.current() {
                t.fg(t.text).add_modifier(Modifier::BOLD)
            } else {
                t.fg(t.text)
            };
            let cells = columns.iter().enumerate().map(|(k, c)| {
                if k == 0 {
                    // The run's name, which says when it is kept from before a reorder.
                    let text = r.name();
                    let marker = if i == app.current() { SELECTED } else { " " };
                    Cell::from(fit(&format!("{marker} {text}"), usize::from(name_w)))
                } else {
                    // A table clips a cell silently: "β12" for 1234 cutoffs. Cut it visibly.
                    Cell::from(fit(&c.of(&scope, &r.run).text(), usize::from(c.width)))
                }
            });
            Row::new(cells).style(style)
        })
        .collect();
    let widths = columns.iter().map(|c| match c.width {
        0 => Constraint::Length(name_w),
        w => Constraint::Length(w),
    });
    f.render_widget(Table::new(rows, widths).header(header).block(b), area);
}
