//! The statistics panel: one row per run.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Modifier;
use ratatui::text::Span;
use ratatui::widgets::{Cell, Paragraph, Row, Table};

use crate::search::{Bound, Cutoff, Ratios, Value};
use crate::text::{short_number as num, thousands};

use super::style::*;
use crate::tui::app::App;
use crate::tui::keymap::Action;

pub(super) fn cutoff_summary(s: &crate::search::Stats) -> String {
    let short = |k: Cutoff| match k {
        Cutoff::Alpha => "α",
        Cutoff::Beta => "β",
        Cutoff::StarLower => "*≤",
        Cutoff::StarUpper => "*≥",
        Cutoff::Probe => "probe",
        Cutoff::Rightmost => "right",
        Cutoff::Shallow => "shallow",
        Cutoff::Immediate => "imm",
    };
    let parts: Vec<String> = s
        .cutoff_kinds()
        .iter()
        .map(|&(k, n)| format!("{}{n}", short(k)))
        .collect();
    if parts.is_empty() {
        "0".into()
    } else {
        format!("{} ({})", s.cutoffs, parts.join(" "))
    }
}

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
    let minimal = app.analysis.as_ref().map(|a| a.minimal_leaves);
    let header = Row::new([
        "run",
        "value",
        "leaves",
        "distinct",
        "nodes",
        "cutoffs",
        "probes",
        "re-search",
        "EBF",
        "share",
        "×min",
    ])
    .style(t.dim_style());
    let rows: Vec<Row> = app
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let s = &r.run.stats;
            let ratios = Ratios::of(&app.tree, s);
            let value = match &r.run.value {
                Value::Scalar(v) => format!(
                    "{}{}",
                    if r.run.bound == Bound::Exact {
                        ""
                    } else {
                        mark(r.run.bound)
                    },
                    num(*v)
                ),
                v => v.to_string(),
            };
            let style = if i == app.current {
                t.fg(t.text).add_modifier(Modifier::BOLD)
            } else {
                t.fg(t.text)
            };
            Row::new(vec![
                Cell::from(format!(
                    "{}{}",
                    if i == app.current { "▶ " } else { "  " },
                    r.algo.label()
                )),
                Cell::from(value),
                Cell::from(thousands(s.leaves)),
                Cell::from(thousands(s.distinct_leaves)),
                Cell::from(thousands(s.nodes)),
                Cell::from(cutoff_summary(s)),
                Cell::from(if s.probes > 0 {
                    format!("{} ({} cut)", s.probes, s.probe_cutoffs)
                } else {
                    "0".into()
                }),
                Cell::from(s.researches.to_string()),
                Cell::from(format!("{:.3}", ratios.effective_branching)),
                Cell::from(format!("{:.1}%", ratios.share_of_exhaustive * 100.0)),
                Cell::from(minimal.filter(|&m| m > 0).map_or("—".into(), |m| {
                    format!("{:.2}", s.leaves as f64 / m as f64)
                })),
            ])
            .style(style)
        })
        .collect();
    let widths = [
        Constraint::Fill(1),
        Constraint::Length(9),
        Constraint::Length(9),
        Constraint::Length(9),
        Constraint::Length(9),
        Constraint::Length(16),
        Constraint::Length(11),
        Constraint::Length(9),
        Constraint::Length(6),
        Constraint::Length(7),
        Constraint::Length(5),
    ];
    f.render_widget(Table::new(rows, widths).header(header).block(b), area);
}
