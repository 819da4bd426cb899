//! The outline panel: the tree as collapsible rows, with one column group per run.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use prune::text::{nodes, readable_number, readable_vector};
use prune::trace::narrate::{probe_bound, settled};
use prune::trace::{Replay, Status};
use prune::tree::NodeId;
use prune::tree::names::kind_glyph;

use super::legend::{FOLD_CLOSED, FOLD_OPEN, PV, SELECTED};
use super::style::*;
use crate::tui::app::{App, Hit, RunView};
use crate::tui::cut::width as width_of;
use crate::tui::outline::Filter;
use crate::tui::view::View;

/// One run's cell in a row, before it is cut to its column.
pub(super) struct CellText {
    pub glyph: &'static str,
    pub glyph_style: Style,
    pub window: String,
    pub value: String,
}

impl CellText {
    /// What is compared to highlight differences between runs.
    fn key(&self) -> (&str, &str, &str) {
        (self.glyph, &self.window, &self.value)
    }
}

pub(super) fn cell_text(app: &App, r: &RunView, replay: &Replay, id: NodeId) -> CellText {
    let t = app.theme();
    let full = app.layout().full_precision;
    let st = settled(
        app.tree(),
        &r.run,
        &r.trace,
        id,
        r.step,
        replay.state(id, r.step),
    );
    // Below a chance node, Star1/Star2's A..B (equations 2–8); elsewhere the window α..β.
    let window = match (st.status, st.chance_bounds.or(st.window)) {
        (Status::Pruned | Status::NotReached, _) | (_, None) => String::new(),
        (_, Some((a, b))) => format!("{}..{}", readable_number(a, full), readable_number(b, full)),
    };
    let value = match st.value {
        Some(v) if st.status == Status::Done => {
            let m = if app.tree().is_leaf(id) {
                ""
            } else {
                st.bound.symbol()
            };
            format!("{m}{}", shown_text(app, &r.trace, id, v))
        }
        // Probed by Star2 but not searched yet: the bound its probes give.
        _ if st.probed && st.status != Status::Pruned => {
            probe_bound(app.tree(), replay, id, r.step).map_or(String::new(), |(x, min)| {
                format!(
                    "{}{}",
                    if min { "≤" } else { "≥" },
                    readable_number(x, full)
                )
            })
        }
        _ => String::new(),
    };
    CellText {
        glyph: glyph(&st),
        glyph_style: glyph_style(t, &st),
        window,
        value,
    }
}

/// A run's column group: which run, and the widths of its window and value.
#[derive(Clone, Copy)]
struct RunCol {
    run: usize,
    window: usize,
    value: usize,
}

impl RunCol {
    /// Status glyph, space, window, space, value, space.
    fn width(&self) -> usize {
        2 + self.window + 1 + self.value + 1
    }
}

/// Widths cells may take, whatever their content: beyond these they end in "…" (Detail shows
/// them whole).
const MAX_WINDOW: usize = 19;
const MAX_VALUE: usize = 14;
/// The tree column keeps at least this much of the outline.
const MIN_TREE: usize = 22;

/// Sizes run `i`'s column to the content of `rows`, and no narrower than its name allows.
fn run_col(app: &App, i: usize, rows: &[NodeId], short: bool) -> RunCol {
    let r = &app.runs()[i];
    let replay = r.replay(app.tree());
    let (mut window, mut value) = (0, 1);
    for &id in rows {
        let c = cell_text(app, r, &replay, id);
        window = window.max(width_of(&c.window));
        value = value.max(width_of(&c.value));
    }
    let mut col = RunCol {
        run: i,
        window: window.min(MAX_WINDOW),
        value: value.min(MAX_VALUE),
    };
    // The header's "▶ name" wants up to MAX_HEADER columns: the window takes the slack.
    let name = (width_of(&header_name(r, short)) + 3).min(MAX_HEADER);
    col.window += name.saturating_sub(col.width());
    col
}

/// The widest a run's header makes its column.
const MAX_HEADER: usize = 14;

/// What a run's header says after its algorithm: where a kept run is from (`before
/// reorder`), or the engine an imported run is from.
fn header_origin(r: &RunView) -> Option<&str> {
    r.kept.as_deref().or(r.engine.as_deref())
}

/// Whether the run headers use the algorithms' short forms: when one of them does not fit
/// whole. One form for every column, so that the same algorithm reads the same in each
/// (`αβ` beside `αβ (before reorder)`, never `alphabeta` beside `αβ …`).
fn short_headers(app: &App) -> bool {
    app.runs()
        .iter()
        .any(|r| width_of(&header_name(r, false)) + 3 > MAX_HEADER)
}

/// A run's name in its column's header: its algorithm — whole, or when `short` in the short
/// form that keeps its parameters (`αβ:fail-soft` for `alphabeta --fail-soft`,
/// `star2:probes=2`) — then where a kept run is from or which engine an imported run is from.
fn header_name(r: &RunView, short: bool) -> String {
    let label = r.algo.label();
    let mut name = if short {
        let mut parts = label.split(" --");
        let algo = match parts.next().unwrap_or_default() {
            "alphabeta" => "αβ",
            other => other,
        };
        let mut name = algo.to_owned();
        for p in parts {
            name.push(':');
            name.push_str(&p.replacen(' ', "=", 1));
        }
        name
    } else {
        label
    };
    if let Some(from) = header_origin(r) {
        name.push_str(&format!(" ({from})"));
    }
    name
}

/// The headers of the columns shown, each cut to its column: where two would read the same
/// once cut, they keep their ends instead, where such names differ.
fn headers(app: &App, cols: &[RunCol]) -> Vec<String> {
    let short = short_headers(app);
    let names: Vec<String> = cols
        .iter()
        .map(|c| header_name(&app.runs()[c.run], short))
        .collect();
    let room = |c: &RunCol| c.width().saturating_sub(2);
    let cut: Vec<String> = names
        .iter()
        .zip(cols)
        .map(|(n, c)| crate::tui::cut::cut(n, room(c)).into_owned())
        .collect();
    cut.iter()
        .enumerate()
        .map(|(i, h)| {
            let clash = cut
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && o == h && names[j] != names[i]);
            if clash {
                crate::tui::cut::cut_left(&names[i], room(&cols[i])).into_owned()
            } else {
                h.clone()
            }
        })
        .collect()
}

/// The run columns on screen: a window of runs that includes the current one, as wide as
/// `room` allows; it moves from where it was only as far as it must.
fn run_window(app: &App, rows: &[NodeId], room: usize) -> Vec<RunCol> {
    let n = app.runs().len();
    if n == 0 {
        return Vec::new();
    }
    let current = app.current().min(n - 1);
    if app.practice().is_some() {
        // Practising: the other runs would give the answers away.
        return vec![run_col(app, current, rows, short_headers(app))];
    }
    let short = short_headers(app);
    let mut memo: Vec<Option<RunCol>> = vec![None; n];
    let mut col = |i: usize| *memo[i].get_or_insert_with(|| run_col(app, i, rows, short));
    let mut first = app.layout().run_offset.get().min(current);
    let mut shown = loop {
        let mut cols: Vec<RunCol> = Vec::new();
        let mut used = 0;
        for i in first..n {
            let c = col(i);
            if !cols.is_empty() && used + c.width() > room {
                break;
            }
            used += c.width();
            cols.push(c);
        }
        if first + cols.len() > current {
            break cols;
        }
        first += 1;
    };
    // Room to spare at the right: bring runs in from the left.
    let mut used: usize = shown.iter().map(RunCol::width).sum();
    while first > 0 && used + col(first - 1).width() <= room {
        first -= 1;
        used += col(first).width();
        shown.insert(0, col(first));
    }
    app.layout().run_offset.set(first);
    shown
}

pub(super) fn draw_outline(f: &mut Frame, app: &App, area: Rect) -> Hit {
    let t = app.theme();
    let tree = app.tree();
    let view = app.view();
    let full = app.layout().full_precision;
    let mut flags = Vec::new();
    if app.filters().visited_only {
        flags.push("visited only");
    }
    if app.filters().fold_pruned {
        flags.push("pruned folded");
    }
    if app.filters().differences && app.runs().len() > 1 {
        flags.push("differences");
    }
    let title = if flags.is_empty() {
        " Outline ".to_owned()
    } else {
        format!(" Outline · {} ", flags.join(" · "))
    };
    let b = block(t, area, title);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let body = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    let rows = app.outline().rows(tree, &view, body.height as usize);
    let width = inner.width as usize;
    let cols = run_window(app, &rows, width.saturating_sub(MIN_TREE.min(width / 2)));
    let mut tree_w = width.saturating_sub(cols.iter().map(RunCol::width).sum());
    if tree_w < MIN_TREE.min(width / 2) {
        // One run wider than the room: its window gives way.
        tree_w = MIN_TREE.min(width / 2);
    }
    let cols: Vec<RunCol> = cols
        .into_iter()
        .map(|mut c| {
            let over = (tree_w + c.width()).saturating_sub(width);
            c.window = c.window.saturating_sub(over);
            c
        })
        .collect();
    let replays: Vec<Replay> = cols
        .iter()
        .map(|c| app.runs()[c.run].replay(tree))
        .collect();
    // Practising: the principal variation would give the answers away.
    let pv: Vec<NodeId> = app
        .current_run()
        .filter(|_| app.practice().is_none())
        .map(|r| r.run.pv.clone())
        .unwrap_or_default();
    let mut hit = Hit {
        x: body.x,
        y: body.y,
        width: body.width,
        height: body.height,
        rows: Vec::with_capacity(rows.len()),
        cards: Vec::new(),
    };
    // The tree part of each row, then the column as wide as they need, within the room left.
    let mut parts = Vec::with_capacity(rows.len());
    for &id in &rows {
        let depth = app.outline().depth(id);
        let (prefix, marker_col) = guides(app, &view, id, depth, tree_w / 2);
        hit.rows.push((id, body.x + marker_col as u16));
        let mut spans = vec![Span::styled(prefix, t.fg(t.border))];
        let folded = view.folded(id);
        let open = app.outline().is_open(tree, &view, id);
        let has_children = tree.child_count(id) > 0;
        let marker = if folded || !has_children {
            " "
        } else if open {
            FOLD_OPEN
        } else {
            FOLD_CLOSED
        };
        spans.push(Span::styled(marker, t.fg(t.accent)));
        // The principal variation: a star as well as a colour, for NO_COLOR and colour blindness.
        if pv.contains(&id) {
            spans.push(Span::styled(
                format!("{}{PV}", kind_glyph(tree.kind(id))),
                t.pv_style(),
            ));
        } else {
            spans.push(Span::styled(
                kind_glyph(tree.kind(id)),
                t.fg(t.text).add_modifier(Modifier::BOLD),
            ));
        }
        if let Some(l) = tree.label(id) {
            spans.push(Span::styled(format!(" {l}"), t.fg(t.text)));
        }
        if under_chance(tree, id) {
            spans.push(Span::styled(
                format!(" p={}", readable_number(tree.prob(id), full)),
                t.dim_style(),
            ));
        }
        if folded {
            spans.push(Span::styled(
                format!(" ✂ {}", nodes(app.doc().sizes[id.index()])),
                t.fg(t.pruned),
            ));
        } else if tree.is_leaf(id) {
            let v = if tree.is_multiplayer() {
                readable_vector(tree.payoff(id), full)
            } else {
                readable_number(tree.value(id), full)
            };
            spans.push(Span::styled(format!(" {v}"), t.fg(t.accent)));
        } else if !open {
            spans.push(Span::styled(
                format!(" ({})", nodes(app.doc().sizes[id.index()])),
                t.dim_style(),
            ));
        }
        parts.push(spans);
    }
    let widest = parts
        .iter()
        .map(|p| p.iter().map(|s| width_of(&s.content)).sum::<usize>())
        .max()
        .unwrap_or(0);
    let tree_w = tree_w.min((widest + 2).max(MIN_TREE));
    // Header: what is hidden to either side, then one column group per run.
    let before = cols.first().map_or(0, |c| c.run);
    let after = app.runs().len() - cols.last().map_or(0, |c| c.run + 1);
    let mut hidden = Vec::new();
    if before > 0 {
        hidden.push(format!("◂ {before} more"));
    }
    if after > 0 {
        hidden.push(format!("{after} more ▸"));
    }
    let mut header = vec![Span::styled(
        fit(&hidden.join(" · "), tree_w),
        t.dim_style(),
    )];
    for (c, h) in cols.iter().zip(headers(app, &cols)) {
        let i = c.run;
        let name = format!("{} {h}", if i == app.current() { SELECTED } else { " " });
        let style = if i == app.current() {
            t.title_style()
        } else {
            t.dim_style()
        };
        header.push(Span::styled(fit(&name, c.width()), style));
    }
    f.render_widget(
        Paragraph::new(Line::from(header)),
        Rect { height: 1, ..inner },
    );
    let mut lines = Vec::with_capacity(rows.len());
    for (mut spans, &id) in parts.into_iter().zip(&rows) {
        // Pad or cut the tree part to its column.
        let used: usize = spans.iter().map(|s| width_of(&s.content)).sum();
        if used > tree_w {
            spans = fit_line(Line::from(spans), tree_w).spans;
        } else {
            spans.push(Span::raw(" ".repeat(tree_w - used)));
        }
        let cells: Vec<CellText> = cols
            .iter()
            .zip(&replays)
            .map(|(c, replay)| cell_text(app, &app.runs()[c.run], replay, id))
            .collect();
        let differ = app.filters().differences
            && cells.len() > 1
            && cells.iter().any(|c| c.key() != cells[0].key());
        for (c, col) in cells.iter().zip(&cols) {
            let window = if col.window > 0 {
                format!("{} ", fit(&c.window, col.window))
            } else {
                String::new()
            };
            let group = [
                Span::styled(c.glyph, c.glyph_style),
                Span::raw(" "),
                Span::styled(window, t.dim_style()),
                Span::styled(fit(&c.value, col.value), t.fg(t.text)),
                Span::raw(" "),
            ];
            for s in group {
                spans.push(if differ {
                    s.patch_style(t.difference_style())
                } else {
                    s
                });
            }
        }
        let used: usize = spans.iter().map(|s| width_of(&s.content)).sum();
        spans.push(Span::raw(" ".repeat(width.saturating_sub(used))));
        let mut line = Line::from(spans);
        if id == app.selected() {
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
    let tree = app.tree();
    if depth == 0 {
        return (String::new(), 0);
    }
    // Elided levels leave the row's depth in their place: "…17 └─".
    let mark = format!("…{depth} ");
    let levels = if depth * 2 <= max {
        depth
    } else {
        (max.saturating_sub(width_of(&mark)) / 2).max(1)
    };
    let shown = depth.min(levels);
    // Ancestors from the row's parent upwards, as many as are shown.
    let mut parts: Vec<&str> = Vec::with_capacity(shown);
    let last = app.outline().next_sibling(tree, view, id).is_none();
    parts.push(if last { "└─" } else { "├─" });
    let mut cur = id;
    for _ in 1..shown {
        let Some(p) = tree.parent(cur) else { break };
        parts.push(if app.outline().next_sibling(tree, view, p).is_some() {
            "│ "
        } else {
            "  "
        });
        cur = p;
    }
    parts.reverse();
    let mut s = String::new();
    if depth > shown {
        s.push_str(&mark);
    }
    for p in parts {
        s.push_str(p);
    }
    let col = width_of(&s);
    (s, col)
}
