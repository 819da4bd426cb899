//! The outline panel: the tree as collapsible rows, with one column group per run.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::text::{kind_glyph, nodes, short_number as num, vector_text};
use crate::trace::narrate::{settled, value_text};
use crate::trace::{Replay, Status};
use crate::tree::NodeId;

use super::RUN_COL;
use super::style::*;
use crate::tui::app::{App, Hit, RunView};
use crate::tui::outline::Filter;
use crate::tui::view::View;

pub(super) fn run_cell(
    app: &App,
    r: &RunView,
    replay: &Replay,
    id: NodeId,
) -> (Vec<Span<'static>>, String) {
    let t = app.theme();
    let st = settled(
        &app.tree,
        &r.run,
        &r.trace,
        id,
        r.step,
        replay.state(id, r.step),
    );
    // Below a chance node, Star1/Star2's A..B (equations 2–8); elsewhere the window α..β.
    let window = match (st.status, st.chance_bounds.or(st.window)) {
        (Status::Pruned | Status::NotReached, _) | (_, None) => String::new(),
        (_, Some((a, b))) => format!("{}..{}", num(a), num(b)),
    };
    let value = match st.value {
        Some(v) if st.status == Status::Done => {
            let m = if app.tree.is_leaf(id) {
                ""
            } else {
                st.bound.symbol()
            };
            format!("{m}{}", value_text(&app.tree, &r.trace, id, v))
        }
        _ => String::new(),
    };
    let key = format!("{:?}{window}{value}", st.status);
    let spans = vec![
        Span::styled(glyph(&st), glyph_style(t, &st)),
        Span::raw(" "),
        Span::styled(fit(&window, 9), t.dim_style()),
        Span::raw(" "),
        Span::styled(format!("{:>7}", fit(&value, 7)), t.fg(t.text)),
        Span::raw(" "),
    ];
    (spans, key)
}

pub(super) fn draw_outline(f: &mut Frame, app: &App, area: Rect) -> Hit {
    let t = app.theme();
    let tree = &*app.tree;
    let view = app.view();
    let mut flags = Vec::new();
    if app.visited_only {
        flags.push("visited only");
    }
    if app.fold_pruned {
        flags.push("pruned folded");
    }
    if app.differences && app.runs.len() > 1 {
        flags.push("differences");
    }
    let title = if flags.is_empty() {
        " Outline ".to_owned()
    } else {
        format!(" Outline · {} ", flags.join(" · "))
    };
    let b = block(t, title);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let runs_fit = (inner.width.saturating_sub(24) / RUN_COL) as usize;
    let shown_runs: Vec<(usize, &RunView)> = app.runs.iter().enumerate().take(runs_fit).collect();
    let tree_w = inner
        .width
        .saturating_sub(RUN_COL * shown_runs.len() as u16) as usize;
    // Header: one column group per run.
    let mut header = vec![Span::styled(fit("", tree_w), t.dim_style())];
    for &(i, r) in &shown_runs {
        let name = format!(
            "{} {}",
            if i == app.current { "▶" } else { " " },
            r.algo.label()
        );
        let style = if i == app.current {
            t.title_style()
        } else {
            t.dim_style()
        };
        header.push(Span::styled(fit(&name, RUN_COL as usize), style));
    }
    if shown_runs.len() < app.runs.len() {
        header.push(Span::styled(
            format!("+{} more", app.runs.len() - shown_runs.len()),
            t.dim_style(),
        ));
    }
    f.render_widget(
        Paragraph::new(Line::from(header)),
        Rect { height: 1, ..inner },
    );
    let body = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    let rows = app.outline.rows(tree, &view, body.height as usize);
    let replays: Vec<Replay> = shown_runs.iter().map(|(_, r)| r.replay(tree)).collect();
    let pv: Vec<NodeId> = app
        .current_run()
        .map(|r| r.run.pv.clone())
        .unwrap_or_default();
    let mut hit = Hit {
        x: body.x,
        y: body.y,
        width: body.width,
        height: body.height,
        rows: Vec::with_capacity(rows.len()),
    };
    let mut lines = Vec::with_capacity(rows.len());
    for &id in &rows {
        let depth = app.outline.depth(id);
        let (prefix, marker_col) = guides(app, &view, id, depth, tree_w / 2);
        hit.rows.push((id, body.x + marker_col as u16));
        let mut spans = vec![Span::styled(prefix, t.fg(t.border))];
        let folded = view.folded(id);
        let open = app.outline.is_open(tree, &view, id);
        let has_children = tree.child_count(id) > 0;
        let marker = if folded || !has_children {
            " "
        } else if open {
            "▾"
        } else {
            "▸"
        };
        spans.push(Span::styled(marker, t.fg(t.accent)));
        let kind_style = if pv.contains(&id) {
            t.pv_style()
        } else {
            t.fg(t.text).add_modifier(Modifier::BOLD)
        };
        spans.push(Span::styled(kind_glyph(tree.kind(id)), kind_style));
        if let Some(l) = tree.label(id) {
            spans.push(Span::styled(format!(" {l}"), t.fg(t.text)));
        }
        if under_chance(tree, id) {
            spans.push(Span::styled(
                format!(" p={}", num(tree.prob(id))),
                t.dim_style(),
            ));
        }
        if folded {
            spans.push(Span::styled(
                format!(" ✂ {}", nodes(app.sizes[id.index()])),
                t.fg(t.pruned),
            ));
        } else if tree.is_leaf(id) {
            let v = if tree.is_multiplayer() {
                vector_text(tree.payoff(id))
            } else {
                num(tree.value(id))
            };
            spans.push(Span::styled(format!(" {v}"), t.fg(t.accent)));
        } else if !open {
            spans.push(Span::styled(
                format!(" ({})", nodes(app.sizes[id.index()])),
                t.dim_style(),
            ));
        }
        // Pad or cut the tree part to its column.
        let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        if used > tree_w {
            let mut cut = Vec::new();
            let mut room = tree_w.saturating_sub(1);
            for s in spans {
                let n = s.content.chars().count();
                if n <= room {
                    room -= n;
                    cut.push(s);
                } else {
                    let part: String = s.content.chars().take(room).collect();
                    cut.push(Span::styled(part, s.style));
                    break;
                }
            }
            cut.push(Span::styled("…", t.dim_style()));
            spans = cut;
        } else {
            spans.push(Span::raw(" ".repeat(tree_w - used)));
        }
        let mut keys = Vec::new();
        let mut cells = Vec::new();
        for (k, &(_, r)) in shown_runs.iter().enumerate() {
            let (c, key) = run_cell(app, r, &replays[k], id);
            keys.push(key);
            cells.push(c);
        }
        let differ = app.differences && keys.len() > 1 && keys.iter().any(|k| *k != keys[0]);
        for c in cells {
            for s in c {
                spans.push(if differ {
                    s.patch_style(t.difference_style())
                } else {
                    s
                });
            }
        }
        let mut line = Line::from(spans);
        if id == app.outline.selected {
            line = line.patch_style(t.selected_style());
        }
        lines.push(line);
    }
    f.render_widget(Paragraph::new(lines), body);
    hit
}

/// Indentation guides for a row, and the column of its fold marker. Deep rows keep only the
/// last levels that fit in `max` columns.
pub(super) fn guides(
    app: &App,
    view: &View,
    id: NodeId,
    depth: usize,
    max: usize,
) -> (String, usize) {
    let tree = &*app.tree;
    if depth == 0 {
        return (String::new(), 0);
    }
    let levels = (max / 2).max(1);
    let shown = depth.min(levels);
    // Ancestors from the row's parent upwards, as many as are shown.
    let mut parts: Vec<&str> = Vec::with_capacity(shown);
    let last = app.outline.next_sibling(tree, view, id).is_none();
    parts.push(if last { "└─" } else { "├─" });
    let mut cur = id;
    for _ in 1..shown {
        let Some(p) = tree.parent(cur) else { break };
        parts.push(if app.outline.next_sibling(tree, view, p).is_some() {
            "│ "
        } else {
            "  "
        });
        cur = p;
    }
    parts.reverse();
    let mut s = String::new();
    if depth > shown {
        s.push('…');
        parts[0] = if parts[0] == "│ " { "│" } else { " " };
    }
    for p in parts {
        s.push_str(p);
    }
    let col = s.chars().count();
    (s, col)
}
