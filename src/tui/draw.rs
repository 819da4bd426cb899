//! Drawing the explorer: a pure function of the [`App`]. Only the rows on screen are computed.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Cell, Clear, Paragraph, Row, Table, Wrap};

use crate::format::number_text;
use crate::search::{ALGORITHMS, Bound, Cutoff, Ratios, Value};
use crate::trace::{EventView, NodeState, Replay, Shown, Status, Trace};
use crate::tree::{Kind, NodeId, Tree};

use super::app::{App, FieldValue, Hit, Mode, RunView, View};
use super::keymap::Action;
use super::outline::Filter;
use super::theme::Theme;

/// The smallest screen the explorer draws on.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;

/// Width of one run's column group: status glyph, window, value.
const RUN_COL: u16 = 20;

/// Draws everything; returns where the outline rows went, for the mouse.
pub fn draw(f: &mut Frame, app: &App) -> Hit {
    let area = f.area();
    let t = app.theme();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "The terminal is {}×{}; prune needs at least {MIN_WIDTH}×{MIN_HEIGHT}.\nEnlarge the window, or press q to quit.",
            area.width, area.height
        );
        let p = Paragraph::new(msg)
            .style(t.fg(t.text))
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true });
        let y = area.height / 2;
        let r = Rect::new(
            area.x,
            area.y + y.saturating_sub(1),
            area.width,
            area.height - y.saturating_sub(1),
        );
        f.render_widget(p, r);
        return Hit::default();
    }
    let stats_h = (app.runs.len() as u16 + 3).clamp(3, 8);
    let [title, main, stats, stepper, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Min(6),
            Constraint::Length(stats_h),
            Constraint::Length(3),
            Constraint::Length(1),
        ])
        .areas(area);
    draw_title(f, app, title);
    let detail_w = (area.width * 36 / 100).clamp(30, 56);
    let [outline, detail] = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Min(30), Constraint::Length(detail_w)])
        .areas(main);
    let hit = draw_outline(f, app, outline);
    draw_detail(f, app, detail);
    draw_stats(f, app, stats);
    draw_stepper(f, app, stepper);
    draw_status(f, app, status);
    match &app.mode {
        Mode::Help => draw_help(f, app, area),
        Mode::Picker(i) => draw_picker(f, app, *i, area),
        Mode::Form(form) => draw_form(f, app, form, area),
        Mode::Popup(p) => draw_popup(f, t, &p.title, &p.text, p.error, area),
        Mode::Search(q) => {
            let r = Rect::new(
                outline.x + 1,
                outline.bottom().saturating_sub(2),
                outline.width.saturating_sub(2),
                1,
            );
            f.render_widget(Clear, r);
            f.render_widget(
                Paragraph::new(Line::from(vec![
                    Span::styled("/", t.title_style()),
                    Span::styled(q.clone(), t.fg(t.text)),
                    Span::styled("▏", t.fg(t.accent)),
                ])),
                r,
            );
        }
        Mode::Normal => {}
    }
    hit
}

fn block<'a>(t: &Theme, title: impl Into<Line<'a>>) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(t.fg(t.border))
        .title(title)
        .title_style(t.title_style())
}

fn draw_title(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let tree = &app.tree;
    let leaves = tree.leaf_count();
    let line = Line::from(vec![
        Span::styled(" prune ", t.title_style().add_modifier(Modifier::REVERSED)),
        Span::styled(
            format!("  {}", tree.meta().name),
            t.fg(t.text).add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            format!(
                "  {} · {} nodes, {} leaves, depth {}{}",
                app.source,
                thousands(tree.len() as u64),
                thousands(leaves as u64),
                tree.height(),
                if tree.is_multiplayer() {
                    format!(", {} players", tree.players())
                } else {
                    String::new()
                }
            ),
            t.dim_style(),
        ),
    ]);
    f.render_widget(Paragraph::new(line), area);
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "1 node", "1,234 nodes".
fn nodes(n: u32) -> String {
    if n == 1 {
        "1 node".into()
    } else {
        format!("{} nodes", thousands(u64::from(n)))
    }
}

fn num(x: f64) -> String {
    if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        let s = number_text(x);
        // Long reals are cut for the columns; the detail panel shows them whole.
        if s.len() > 7 && x.fract() != 0.0 {
            let short = format!("{x:.3}");
            short.trim_end_matches('0').to_owned()
        } else {
            s
        }
    }
}

fn value_text(tree: &Tree, trace: &Trace, id: NodeId, v: Shown) -> String {
    match v {
        Shown::Scalar(x) => num(x),
        Shown::Vector(i) => vector_text(trace.vector(i)),
        Shown::Payoff => vector_text(tree.payoff(id)),
    }
}

fn vector_text(v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|&x| num(x)).collect();
    format!("({})", parts.join(","))
}

fn mark(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "=",
        Bound::Lower => "≥",
        Bound::Upper => "≤",
    }
}

/// The status glyph of a node in a run: distinct shapes, so colour is never needed.
pub fn glyph(st: &NodeState) -> &'static str {
    match st.status {
        Status::Pruned => "✂",
        _ if st.researches > 0 => "↻",
        _ if st.probed || st.probe_target => "◆",
        Status::Done => "●",
        Status::Open => "▸",
        Status::NotReached => "·",
    }
}

fn glyph_style(t: &Theme, st: &NodeState) -> Style {
    match st.status {
        Status::Pruned => t.fg(t.pruned),
        _ if st.researches > 0 => t.fg(t.researched),
        _ if st.probed || st.probe_target => t.fg(t.probed),
        Status::Done => t.fg(t.visited),
        Status::Open => t.fg(t.open).add_modifier(Modifier::BOLD),
        Status::NotReached => t.dim_style(),
    }
}

fn kind_glyph(k: Kind) -> String {
    match k {
        Kind::Max => "+".into(),
        Kind::Min => "−".into(),
        Kind::Chance => "*".into(),
        Kind::Player(p) => format!("{}", p + 1),
        Kind::Leaf => "□".into(),
    }
}

fn kind_words(k: Kind) -> String {
    match k {
        Kind::Max => "+ node".into(),
        Kind::Min => "− node".into(),
        Kind::Chance => "* node".into(),
        Kind::Player(p) => format!("player {} node", p + 1),
        Kind::Leaf => "leaf".into(),
    }
}

fn under_chance(tree: &Tree, id: NodeId) -> bool {
    tree.parent(id)
        .is_some_and(|p| tree.kind(p) == Kind::Chance)
}

/// A node's name in sentences: its label, or its number.
pub fn node_name(tree: &Tree, id: NodeId) -> String {
    match tree.label(id) {
        Some(l) => l.to_owned(),
        None if id == tree.root() => "the root".into(),
        None => format!("#{}", id.0),
    }
}

fn run_cell(app: &App, r: &RunView, replay: &Replay, id: NodeId) -> (Vec<Span<'static>>, String) {
    let t = app.theme();
    let st = replay.state(id, r.step);
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
                mark(st.bound)
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

/// Cuts `s` to `w` characters (with an ellipsis), padding to `w`.
fn fit(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n <= w {
        format!("{s:<w$}")
    } else {
        let mut out: String = s.chars().take(w.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

fn draw_outline(f: &mut Frame, app: &App, area: Rect) -> Hit {
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
fn guides(app: &App, view: &View, id: NodeId, depth: usize, max: usize) -> (String, usize) {
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

fn status_words(st: &NodeState, leaf: bool) -> &'static str {
    match st.status {
        Status::NotReached => "not reached",
        Status::Open => "entered, searching",
        Status::Done if leaf => "evaluated",
        Status::Done => "searched",
        Status::Pruned => "pruned",
    }
}

fn draw_detail(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let tree = &*app.tree;
    let id = app.outline.selected;
    let b = block(t, " Detail ");
    let mut lines: Vec<Line> = Vec::new();
    let label = |k: &str| Span::styled(format!("{k:<11}"), t.dim_style());
    lines.push(Line::from(Span::styled(
        format!("{} {}", kind_glyph(tree.kind(id)), node_name(tree, id)),
        t.fg(t.text).add_modifier(Modifier::BOLD),
    )));
    let path: Vec<String> = tree
        .path_to(id)
        .iter()
        .skip(1)
        .map(|&n| {
            tree.label(n)
                .map_or_else(|| format!("{}", tree.child_index(n) + 1), str::to_owned)
        })
        .collect();
    lines.push(Line::from(vec![
        label("path"),
        Span::styled(
            if path.is_empty() {
                "root".into()
            } else {
                format!("root → {}", path.join(" → "))
            },
            t.fg(t.text),
        ),
    ]));
    let mut kind = kind_words(tree.kind(id));
    if !tree.is_leaf(id) {
        kind.push_str(&format!(
            " · {} children · {} below",
            tree.child_count(id),
            thousands(u64::from(app.sizes[id.index()]) - 1)
        ));
    }
    lines.push(Line::from(vec![
        label("kind"),
        Span::styled(kind, t.fg(t.text)),
    ]));
    if under_chance(tree, id) {
        lines.push(Line::from(vec![
            label("prob"),
            Span::styled(number_text(tree.prob(id)), t.fg(t.text)),
        ]));
    }
    let reference = if tree.is_multiplayer() {
        "max^n"
    } else if tree.has_chance() {
        "expectiminimax"
    } else {
        "minimax"
    };
    lines.push(Line::from(vec![
        label("true value"),
        Span::styled(app.reference.get(id).to_string(), t.fg(t.accent)),
        Span::styled(format!(" ({reference})"), t.dim_style()),
    ]));
    if let Some(a) = &app.analysis {
        let ty = a.types[id.index()].map_or("outside the minimal tree", |x| x.name());
        lines.push(Line::from(vec![
            label("KM type"),
            Span::styled(ty.to_owned(), t.fg(t.text)),
        ]));
    }
    for (i, r) in app.runs.iter().enumerate() {
        lines.push(Line::from(""));
        let head = format!(
            "{}{} · step {}/{}",
            if i == app.current { "▶ " } else { "" },
            r.algo.label(),
            r.step,
            r.trace.len()
        );
        lines.push(Line::from(Span::styled(
            head,
            if i == app.current {
                t.title_style()
            } else {
                t.fg(t.text).add_modifier(Modifier::BOLD)
            },
        )));
        let replay = r.replay(tree);
        let st = replay.state(id, r.step);
        let mut s = vec![
            Span::styled(glyph(&st), glyph_style(t, &st)),
            Span::raw(" "),
            Span::styled(status_words(&st, tree.is_leaf(id)), t.fg(t.text)),
        ];
        if st.visits > 1 {
            s.push(Span::styled(
                format!(", {} visits", st.visits),
                t.fg(t.researched),
            ));
        }
        if st.researches > 0 {
            s.push(Span::styled(
                format!(", re-searched {}×", st.researches),
                t.fg(t.researched),
            ));
        }
        if st.probed {
            s.push(Span::styled(", probed", t.fg(t.probed)));
        }
        if st.probe_target {
            s.push(Span::styled(", a probe's target", t.fg(t.probed)));
        }
        if st.fallback {
            s.push(Span::styled(", Star1 here (irregular)", t.fg(t.probed)));
        }
        lines.push(Line::from(s));
        if let Some((a, b)) = st.window {
            lines.push(Line::from(vec![
                label("window"),
                Span::styled(format!("α {} .. β {}", num(a), num(b)), t.fg(t.text)),
            ]));
        }
        if let Some((a, b)) = st.chance_bounds {
            lines.push(Line::from(vec![
                label("A, B"),
                Span::styled(format!("A {} .. B {}", num(a), num(b)), t.fg(t.text)),
            ]));
        }
        if let Some(v) = st.value.filter(|_| st.status == Status::Done) {
            let what = match st.bound {
                Bound::Exact => "exact",
                Bound::Lower => "lower bound",
                Bound::Upper => "upper bound",
            };
            lines.push(Line::from(vec![
                label("value"),
                Span::styled(
                    format!(
                        "{}{} ({what})",
                        if tree.is_leaf(id) { "" } else { mark(st.bound) },
                        value_text(tree, &r.trace, id, v)
                    ),
                    t.fg(t.accent),
                ),
            ]));
        }
        if let Some((after, skipped, kind)) = st.cutoff {
            lines.push(Line::from(vec![
                label("cutoff"),
                Span::styled(
                    format!(
                        "{} after child {}, {} skipped",
                        kind.name(),
                        after + 1,
                        skipped
                    ),
                    t.fg(t.cutoff),
                ),
            ]));
        }
        if let Some((by, kind)) = st.pruned_by {
            let how = kind.map_or("finished without it".to_owned(), |k| {
                format!("{} cutoff", k.name())
            });
            lines.push(Line::from(vec![
                label("pruned"),
                Span::styled(
                    format!("by {how} at {}", node_name(tree, by)),
                    t.fg(t.pruned),
                ),
            ]));
        }
        // Star1/Star2: the A_i and B_i each child of a chance node was searched under.
        if tree.kind(id) == Kind::Chance {
            for (k, c) in tree.children(id).enumerate() {
                let cs = replay.state(c, r.step);
                if let Some((a, b)) = cs.chance_bounds {
                    let v = cs
                        .value
                        .filter(|_| cs.status == Status::Done)
                        .map_or("…".into(), |v| value_text(tree, &r.trace, c, v));
                    lines.push(Line::from(Span::styled(
                        format!("  A{0} {1}  B{0} {2}  → {3}", k + 1, num(a), num(b), v),
                        t.dim_style(),
                    )));
                }
            }
        }
        if let Some(a) = &app.analysis {
            if let Some(ty) = a.types[id.index()] {
                if !tree.is_leaf(id) && st.status == Status::Done && r.step == r.trace.len() {
                    let searched = tree
                        .children(id)
                        .filter(|&c| replay.state(c, r.step).visits > 0)
                        .count();
                    lines.push(Line::from(Span::styled(
                        format!(
                            "  {} expected; searched {searched} of {} children",
                            ty.name(),
                            tree.child_count(id)
                        ),
                        t.dim_style(),
                    )));
                }
            }
        }
    }
    f.render_widget(
        Paragraph::new(lines).block(b).wrap(Wrap { trim: false }),
        area,
    );
}

fn cutoff_summary(s: &crate::search::Stats) -> String {
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

fn draw_stats(f: &mut Frame, app: &App, area: Rect) {
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

fn first_key(app: &App, a: Action) -> String {
    app.keymap
        .keys_for(a)
        .split(' ')
        .next()
        .unwrap_or("?")
        .to_owned()
}

/// The event of step `k` (1-based: the event just applied) in words.
pub fn describe(tree: &Tree, r: &RunView, k: usize) -> String {
    if k == 0 {
        return format!("before the search: {} starts at the root", r.algo.label());
    }
    let replay = r.replay(tree);
    let e = r.trace.event(k - 1).view();
    let name = |id: NodeId| format!("{} {}", kind_words(tree.kind(id)), node_name(tree, id));
    match e {
        EventView::Enter { node, alpha, beta } => format!(
            "enter {} with window α {} .. β {}",
            name(node),
            num(alpha),
            num(beta)
        ),
        EventView::Leaf { node, value } => {
            let v = if value.is_nan() {
                vector_text(tree.payoff(node))
            } else {
                num(value)
            };
            format!("evaluate leaf {} = {v}", node_name(tree, node))
        }
        EventView::ChanceBounds { child, a, b } => {
            let p = tree.parent(child).expect("a chance node's child");
            format!(
                "at {}: search child {} with A {} .. B {} (equations 2–8)",
                name(p),
                tree.child_index(child) + 1,
                num(a),
                num(b)
            )
        }
        EventView::Probe { child } => {
            let p = tree.parent(child).expect("a probed node's child");
            format!(
                "probe {}: search its child {} for a bound",
                name(p),
                tree.child_index(child) + 1
            )
        }
        EventView::Research { node, alpha, beta } => {
            format!(
                "re-search {} with the wider window α {} .. β {}",
                name(node),
                num(alpha),
                num(beta)
            )
        }
        EventView::Cutoff {
            node,
            after,
            skipped,
            kind,
        } => {
            let st = replay.state(node, k);
            let child = tree.child(node, after as usize);
            let cs = replay.state(child, k);
            let v = cs
                .value
                .map_or("?".into(), |v| value_text(tree, &r.trace, child, v));
            let (a, b) = st.window.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
            let why = match kind {
                Cutoff::Alpha => format!("child {v} ≤ α {}", num(a)),
                Cutoff::Beta => format!("child {v} ≥ β {}", num(b)),
                Cutoff::StarLower => {
                    let ai = cs.chance_bounds.map_or("A".into(), |(x, _)| num(x));
                    format!("child {v} ≤ A {ai}: the *-value is at most α {}", num(a))
                }
                Cutoff::StarUpper => {
                    let bi = cs.chance_bounds.map_or("B".into(), |(_, y)| num(y));
                    format!("child {v} ≥ B {bi}: the *-value is at least β {}", num(b))
                }
                Cutoff::Probe => format!(
                    "the probes prove the *-value outside α {} .. β {}",
                    num(a),
                    num(b)
                ),
                Cutoff::Rightmost => "the root's last move is proved better than α (§7.2)".into(),
                Cutoff::Shallow => "the mover's share reached the bound left by the parent".into(),
                Cutoff::Immediate => "the mover reached the largest possible payoff".into(),
            };
            let skip = match skipped {
                0 => String::new(),
                1 => ", 1 child skipped".into(),
                n => format!(", {n} children skipped"),
            };
            format!(
                "cutoff at {} after child {} ({}): {why}{skip}",
                name(node),
                after + 1,
                kind.name()
            )
        }
        EventView::Exit { node, value, bound } => {
            let what = match bound {
                Bound::Exact => "exact",
                Bound::Lower => "a lower bound",
                Bound::Upper => "an upper bound",
            };
            format!("{} returns {} ({what})", name(node), num(value))
        }
        EventView::ExitVector { node, index, .. } => format!(
            "{} returns {}",
            name(node),
            vector_text(r.trace.vector(index))
        ),
        EventView::Fallback { node } => format!(
            "{}: its children are not all of one kind, so Star1 searches it",
            name(node)
        ),
    }
}

fn draw_stepper(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let Some(r) = app.current_run() else {
        let b = block(t, " Step ");
        f.render_widget(
            Paragraph::new(Span::styled(
                "Run an algorithm to step through its search.",
                t.dim_style(),
            ))
            .block(b),
            area,
        );
        return;
    };
    let play = if app.playing {
        format!(" ▶ playing {}/s ", app.speed)
    } else {
        String::new()
    };
    let b = block(
        t,
        format!(
            " Step {}/{} · {}{play} ",
            r.step,
            r.trace.len(),
            r.algo.label()
        ),
    );
    let text = describe(&app.tree, r, r.step);
    let style = match r.step.checked_sub(1).map(|s| r.trace.event(s).view()) {
        Some(EventView::Cutoff { .. }) => t.fg(t.cutoff),
        Some(EventView::Probe { .. }) => t.fg(t.probed),
        Some(EventView::Research { .. }) => t.fg(t.researched),
        _ => t.fg(t.text),
    };
    f.render_widget(Paragraph::new(Span::styled(text, style)).block(b), area);
}

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

fn draw_status(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let line = if let Some((what, elapsed, visits)) = app.pending() {
        let frame = SPINNER[(elapsed.as_millis() / 100) as usize % SPINNER.len()];
        let progress = if visits > 0 {
            format!(", {} node visits", thousands(visits))
        } else {
            String::new()
        };
        Line::from(Span::styled(
            format!(" {frame} {what} … {:.1} s{progress}", elapsed.as_secs_f64()),
            t.fg(t.open),
        ))
    } else if let Some((msg, error)) = &app.status {
        Line::from(Span::styled(
            format!(" {msg}"),
            if *error {
                t.fg(t.error)
            } else {
                t.fg(t.accent)
            },
        ))
    } else {
        let hint = match &app.mode {
            Mode::Normal => app.keymap.hint(&[
                (Action::Help, "help"),
                (Action::AddRun, "run"),
                (Action::StepForward, "step"),
                (Action::StepBack, "back"),
                (Action::NextCutoff, "cutoff"),
                (Action::PlayPause, "play"),
                (Action::VisitedOnly, "visited"),
                (Action::FoldPruned, "fold"),
                (Action::Export, "export"),
                (Action::Quit, "quit"),
            ]),
            Mode::Search(_) => "type part of a label · Enter search · Esc cancel".into(),
            Mode::Picker(_) => "↑↓ choose · Enter run · Esc cancel".into(),
            Mode::Form(_) => {
                "Tab/↑↓ field · ←→ change · type to edit · Enter confirm · Esc cancel".into()
            }
            Mode::Help | Mode::Popup(_) => "any key closes".into(),
        };
        Line::from(Span::styled(format!(" {hint}"), t.dim_style()))
    };
    f.render_widget(Paragraph::new(line), area);
}

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width.saturating_sub(2));
    let h = h.min(area.height.saturating_sub(2));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

fn draw_help(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let help = app.keymap.help();
    let mut cols: Vec<Vec<Line>> = vec![Vec::new(), Vec::new()];
    for (i, (group, entries)) in help.iter().enumerate() {
        let col = &mut cols[usize::from(i >= 2)];
        col.push(Line::from(Span::styled(group.to_string(), t.title_style())));
        for (keys, what) in entries {
            col.push(Line::from(vec![
                Span::styled(format!("  {keys:<14}"), t.fg(t.accent)),
                Span::styled(what.to_string(), t.fg(t.text)),
            ]));
        }
        col.push(Line::from(""));
    }
    let legend = vec![
        Line::from(Span::styled("Glyphs", t.title_style())),
        Line::from(Span::styled(
            "  · not reached  ▸ entered  ● searched  ✂ pruned  ◆ probed  ↻ re-searched",
            t.fg(t.text),
        )),
        Line::from(Span::styled(
            "  = exact  ≥ lower bound  ≤ upper bound   + Max  − Min  * chance  □ leaf",
            t.fg(t.text),
        )),
    ];
    cols[1].extend(legend);
    let h = cols.iter().map(Vec::len).max().unwrap_or(0) as u16 + 2;
    let r = centered(area, 100, h);
    f.render_widget(Clear, r);
    let b = block(t, " Help · any key closes ");
    let inner = b.inner(r);
    f.render_widget(b, r);
    let [left, right] = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
        .areas(inner);
    let [c0, c1] = [cols.remove(0), cols.remove(0)];
    f.render_widget(Paragraph::new(c0), left);
    f.render_widget(Paragraph::new(c1).wrap(Wrap { trim: false }), right);
}

fn draw_picker(f: &mut Frame, app: &App, selected: usize, area: Rect) {
    let t = app.theme();
    let refusals = app.refusals();
    let mut lines = Vec::new();
    for (i, (info, why)) in ALGORITHMS.iter().zip(refusals).enumerate() {
        let sel = i == selected;
        let style = match (why, sel) {
            (Some(_), _) => t.dim_style().add_modifier(Modifier::CROSSED_OUT),
            (None, _) => t.fg(t.text).add_modifier(Modifier::BOLD),
        };
        let mut spans = vec![Span::styled(
            format!("{} {:<15}", if sel { "▶" } else { " " }, info.name),
            style,
        )];
        match why {
            Some(w) => spans.push(Span::styled(w.clone(), t.dim_style())),
            None => spans.push(Span::styled(info.source.to_owned(), t.fg(t.text))),
        }
        let mut line = Line::from(spans);
        if sel {
            line = line.patch_style(t.selected_style());
        }
        lines.push(line);
    }
    let r = centered(area, 110, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(block(t, " Run an algorithm · greyed: does not apply here ")),
        r,
    );
}

fn draw_form(f: &mut Frame, app: &App, form: &super::app::Form, area: Rect) {
    let t = app.theme();
    let mut lines = Vec::new();
    for (i, field) in form.fields.iter().enumerate() {
        let focus = i == form.focus;
        let mut value = field.shown();
        if focus && matches!(field.value, FieldValue::Text(_)) {
            value.push('▏');
        }
        let mut line = Line::from(vec![
            Span::styled(format!(" {:<18}", field.label), t.dim_style()),
            Span::styled(value, t.fg(t.text)),
        ]);
        if focus {
            line = line.patch_style(t.selected_style());
        }
        lines.push(line);
    }
    if let Some(e) = &form.error {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(format!(" {e}"), t.fg(t.error))));
    }
    let r = centered(area, 80, lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(block(t, format!(" {} ", form.title)))
            .wrap(Wrap { trim: false }),
        r,
    );
}

fn draw_popup(f: &mut Frame, t: &Theme, title: &str, text: &str, error: bool, area: Rect) {
    let lines: Vec<Line> = text
        .lines()
        .map(|l| {
            Line::from(Span::styled(
                l.to_owned(),
                t.fg(if error { t.error } else { t.text }),
            ))
        })
        .collect();
    let w = text.lines().map(|l| l.chars().count()).max().unwrap_or(20) as u16 + 4;
    let r = centered(area, w.max(40), lines.len() as u16 + 2);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(block(t, format!(" {title} · any key closes ")))
            .wrap(Wrap { trim: false }),
        r,
    );
}
