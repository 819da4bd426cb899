//! The detail panel: everything known about the selected node, in each run at its step — the
//! node's own facts here, a run's section in [`run`] — or, in its place, the current run's log.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use prune::search::Value;
use prune::text::{count, readable_number, readable_vector, thousands};
use prune::trace::narrate::describe;
use prune::trace::{NodeState, Status};
use prune::tree::names::{kind_glyph, kind_words, node_name};
use prune::tree::{NodeId, Tree};

use super::style::*;
use crate::tui::app::App;
use crate::tui::theme::Theme;

mod run;

pub(super) fn status_words(st: &NodeState, leaf: bool) -> &'static str {
    match st.status {
        Status::NotReached => "not reached",
        Status::Open => "entered, searching",
        Status::Done if leaf => "evaluated",
        Status::Done if st.horizon => "evaluated at the depth limit by its heuristic",
        Status::Done if st.table.is_some_and(|(_, _, cut)| cut) => {
            "answered by the transposition table, not searched"
        }
        Status::Done => "searched",
        Status::Pruned => "pruned",
    }
}

pub(super) fn draw_detail(f: &mut Frame, app: &App, area: Rect) {
    if app.layout().event_log && !app.runs().is_empty() {
        return draw_log(f, app, area);
    }
    let t = app.theme();
    let lines = detail_lines(app);
    let scroll = app
        .layout()
        .detail_scroll
        .min(lines.len().saturating_sub(1) as u16);
    let b = if scroll > 0 {
        block(
            t,
            area,
            format!(" Detail · ↑ {} ", count(scroll.into(), "line", "lines")),
        )
    } else {
        block(t, area, " Detail ")
    };
    f.render_widget(
        Paragraph::new(lines)
            .block(b)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        area,
    );
}

/// The detail panel's lines for the selected node, before wrapping: the node's own facts,
/// then its state in each run, the current run first (so that it is on screen however many
/// runs there are).
pub(super) fn detail_lines(app: &App) -> Vec<Line<'static>> {
    let mut lines = node_lines(app);
    let order = (app.current()..app.runs().len()).chain(0..app.current().min(app.runs().len()));
    for i in order {
        lines.extend(run::RunSection::new(app, i).lines());
    }
    lines
}

/// A row's name in the panel's left column.
fn label(t: &Theme, k: &str) -> Span<'static> {
    Span::styled(format!("{k:<11}"), t.dim_style())
}

/// What the node is, whatever the runs: its name, path, kind, probability, true value and
/// Knuth–Moore type.
fn node_lines(app: &App) -> Vec<Line<'static>> {
    let t = app.theme();
    let tree = app.tree();
    let id = app.selected();
    let full = app.layout().full_precision;
    let mut lines = vec![
        Line::from(Span::styled(
            format!("{} {}", kind_glyph(tree.kind(id)), node_name(tree, id)),
            t.fg(t.text).add_modifier(Modifier::BOLD),
        )),
        Line::from(vec![
            label(t, "path"),
            Span::styled(path_text(tree, id), t.fg(t.text)),
        ]),
    ];
    let mut kind = kind_words(tree.kind(id));
    if !tree.is_leaf(id) {
        kind.push_str(&format!(
            " · {} children · {} below",
            tree.child_count(id),
            thousands(u64::from(app.doc().sizes[id.index()]) - 1)
        ));
    }
    lines.push(Line::from(vec![
        label(t, "kind"),
        Span::styled(kind, t.fg(t.text)),
    ]));
    if under_chance(tree, id) {
        lines.push(Line::from(vec![
            label(t, "prob"),
            Span::styled(readable_number(tree.prob(id), full), t.fg(t.text)),
        ]));
    }
    let reference = if tree.is_multiplayer() {
        "max^n"
    } else if tree.has_chance() {
        "expectiminimax"
    } else {
        "minimax"
    };
    // Below a position a game's search never expanded, the value is the searched tree's: such
    // a leaf counts at its heuristic, where the game would search on.
    let unexpanded = app.doc().unexpanded.get(id.index()).copied().unwrap_or(0);
    let (name, whose) = if unexpanded == 0 {
        ("true value", format!(" ({reference})"))
    } else {
        (
            "tree value",
            format!(
                " ({reference}; {} unexpanded below)",
                thousands(u64::from(unexpanded))
            ),
        )
    };
    lines.push(Line::from(vec![
        label(t, name),
        Span::styled(
            match app.doc().reference.get(id) {
                Value::Scalar(x) => readable_number(x, full),
                Value::Vector(v) => readable_vector(&v, full),
            },
            t.fg(t.accent),
        ),
        Span::styled(whose, t.dim_style()),
    ]));
    if let Some(a) = &app.doc().analysis {
        let ty = a.types[id.index()].map_or("outside the minimal tree", |x| x.name());
        lines.push(Line::from(vec![
            label(t, "KM type"),
            Span::styled(ty.to_owned(), t.fg(t.text)),
        ]));
    }
    lines
}

/// The labels from the root to `id` (child numbers where there is none).
fn path_text(tree: &Tree, id: NodeId) -> String {
    let path: Vec<String> = tree
        .path_to(id)
        .iter()
        .skip(1)
        .map(|&n| {
            tree.label(n)
                .map_or_else(|| format!("{}", tree.child_index(n) + 1), str::to_owned)
        })
        .collect();
    if path.is_empty() {
        "root".into()
    } else {
        format!("root → {}", path.join(" → "))
    }
}

/// The current run's log: the narration of every step so far, one line each, the current
/// step last; Detail's scrolling keys move back through it.
fn draw_log(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let tree = app.tree();
    let r = &app.runs()[app.current()];
    let replay = r.replay(tree);
    let room = usize::from(area.height.saturating_sub(2)).max(1);
    let back = usize::from(app.layout().detail_scroll).min(r.step.saturating_sub(1));
    let last = r.step - back;
    let first = last
        .saturating_sub(room - 1)
        .max(if r.step == 0 { 0 } else { 1 });
    let width = r.step.max(1).to_string().len();
    let lines: Vec<Line> = (first..=last)
        .map(|k| {
            let text = format!(
                "{k:>width$}  {}",
                describe(tree, &r.run, &r.trace, &replay, k)
            );
            let style = if k == r.step {
                t.fg(t.accent).add_modifier(Modifier::BOLD)
            } else {
                t.fg(t.text)
            };
            Line::from(Span::styled(
                fit(&text, usize::from(area.width.saturating_sub(2))),
                style,
            ))
        })
        .collect();
    let title = format!(
        " Log · {} · step {}/{}{} ",
        r.name(),
        r.step,
        r.trace.len(),
        if back > 0 {
            format!(" · ↑ {back} back")
        } else {
            String::new()
        }
    );
    f.render_widget(Paragraph::new(lines).block(block(t, area, title)), area);
}
