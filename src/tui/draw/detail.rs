//! The detail panel: everything known about the selected node, in each run at its step.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::search::{Bound, Value};
use crate::text::{count, readable_number, readable_vector, thousands};
use crate::trace::narrate::{clip_note, describe, probe_sums, settled};
use crate::trace::provenance::{self, End};
use crate::trace::{NodeState, Status};
use crate::tree::Kind;
use crate::tree::names::{kind_glyph, kind_words, node_name};

use super::style::*;
use crate::tui::app::App;

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
    if app.layout.event_log && !app.runs.is_empty() {
        return draw_log(f, app, area);
    }
    let t = app.theme();
    let lines = detail_lines(app);
    let scroll = app
        .layout
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

/// The detail panel's lines for the selected node, before wrapping.
pub(super) fn detail_lines(app: &App) -> Vec<Line<'static>> {
    let t = app.theme();
    let tree = &*app.tree;
    let id = app.outline.selected;
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
            Span::styled(
                readable_number(tree.prob(id), app.layout.full_precision),
                t.fg(t.text),
            ),
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
        Span::styled(
            match app.reference.get(id) {
                Value::Scalar(x) => readable_number(x, app.layout.full_precision),
                Value::Vector(v) => readable_vector(&v, app.layout.full_precision),
            },
            t.fg(t.accent),
        ),
        Span::styled(format!(" ({reference})"), t.dim_style()),
    ]));
    if let Some(a) = &app.analysis {
        let ty = a.types[id.index()].map_or("outside the minimal tree", |x| x.name());
        lines.push(Line::from(vec![
            label("KM type"),
            Span::styled(ty.to_owned(), t.fg(t.text)),
        ]));
    }
    // The current run first, so that it is on screen however many runs there are.
    let order = (app.current..app.runs.len()).chain(0..app.current.min(app.runs.len()));
    for i in order {
        let r = &app.runs[i];
        lines.push(Line::from(""));
        let head = format!(
            "{}{} · step {}/{}",
            if i == app.current { "▶ " } else { "" },
            r.name(),
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
        let st = settled(tree, &r.run, &r.trace, id, r.step, replay.state(id, r.step));
        let short = |x| readable_number(x, app.layout.full_precision);
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
        let so = provenance::so_far(&r.trace, r.step);
        let all = &r.run.stats;
        // Before the end, the statistics so far beside the totals.
        if r.step < r.trace.len() {
            lines.push(Line::from(vec![
                label("so far"),
                Span::styled(
                    format!(
                        "{}/{} leaves · {}/{} interior · {}/{} cutoffs",
                        thousands(so.leaves),
                        thousands(all.leaves),
                        thousands(so.interior),
                        thousands(all.interior),
                        thousands(so.cutoffs),
                        thousands(all.cutoffs)
                    ),
                    t.fg(t.text),
                ),
            ]));
        }
        if let Some((a, b)) = st.window {
            lines.push(Line::from(vec![
                label("window"),
                Span::styled(
                    format!(
                        "α {} .. β {}{}",
                        short(a),
                        short(b),
                        provenance::entry_step(&replay, id, r.step)
                            .map(|s| provenance::pass_note(tree, &replay, s))
                            .unwrap_or_default()
                    ),
                    t.fg(t.text),
                ),
            ]));
            // Where each bound came from.
            for end in [End::Alpha, End::Beta] {
                // An infinite bound at the root says nothing a student needs told.
                if let Some((x, origin)) = provenance::window_origin(tree, &replay, id, r.step, end)
                    .filter(|&(x, o)| !(o == provenance::Origin::Start && x.is_infinite()))
                {
                    lines.push(Line::from(Span::styled(
                        format!("  {}", origin.sentence(tree, &r.algo, end, x)),
                        t.dim_style(),
                    )));
                }
            }
        }
        if let Some((a, b)) = st.chance_bounds {
            lines.push(Line::from(vec![
                label("A, B"),
                Span::styled(
                    format!("A {} .. B {}{}", short(a), short(b), clip_note(tree, a, b)),
                    t.fg(t.text),
                ),
            ]));
        }
        if let Some(v) = st.value.filter(|_| st.status == Status::Done) {
            let what = match st.bound {
                Bound::Exact => "exact",
                Bound::Lower => "lower bound",
                Bound::Upper => "upper bound",
            };
            let mark = if tree.is_leaf(id) {
                ""
            } else {
                st.bound.symbol()
            };
            // Every digit only when asked for (full precision), as everywhere else.
            lines.push(Line::from(vec![
                label("value"),
                Span::styled(
                    format!("{mark}{}", shown_text(app, &r.trace, id, v)),
                    t.fg(t.accent),
                ),
                Span::styled(format!(" ({what})"), t.fg(t.text)),
            ]));
        }
        if let Some((value, bound, cut)) = st.table {
            let said = if cut {
                "settled the window: the node was not searched"
            } else {
                "did not settle the window: its best move was searched first"
            };
            lines.push(Line::from(vec![
                label("table"),
                Span::styled(
                    format!("entry {}{} {said}", bound.symbol(), short(value)),
                    t.fg(t.text),
                ),
            ]));
        }
        if let Some(said) = provenance::cutoff_summary(tree, &r.algo, &replay, id, r.step) {
            lines.push(Line::from(vec![
                label("cutoff"),
                Span::styled(said, t.fg(t.cutoff)),
            ]));
            if let Some(why) = provenance::cutoff_reason(tree, &r.algo, &replay, id, r.step) {
                lines.push(Line::from(Span::styled(format!("  {why}"), t.dim_style())));
            }
        }
        if let Some(said) = provenance::pruned_summary(tree, &r.algo, &replay, id, r.step) {
            let jump = st
                .pruned_by
                .and_then(|(by, _)| provenance::cutoff_step(&replay, by, r.step))
                .map(|s| {
                    format!(
                        " (step {s}; {} goes there)",
                        first_key(app, crate::tui::keymap::Action::JumpToPruner)
                    )
                })
                .unwrap_or_default();
            lines.push(Line::from(vec![
                label("pruned"),
                Span::styled(format!("{said}{jump}"), t.fg(t.pruned)),
            ]));
        }
        // Star1/Star2: the A_i and B_i each child of a chance node was searched under, and
        // Star2's probes: the bound each child's probes give, and their weighted mean.
        if tree.kind(id) == Kind::Chance {
            let probes = probe_sums(tree, &replay, id, r.step);
            for (k, c) in tree.children(id).enumerate() {
                let cs = replay.state(c, r.step);
                let probe = probes.as_ref().and_then(|p| {
                    let (x, probed) = p.bounds[k];
                    probed.then(|| format!("  probe {}{}", if p.min { "≤" } else { "≥" }, short(x)))
                });
                let v = cs
                    .value
                    .filter(|_| cs.status == Status::Done)
                    .map(|v| shown_text(app, &r.trace, c, v));
                let text = match (cs.chance_bounds, v, probe) {
                    (Some((a, b)), v, p) => format!(
                        "  A{0} {1}  B{0} {2}{3}  → {4}{5}",
                        k + 1,
                        short(a),
                        short(b),
                        clip_note(tree, a, b),
                        v.unwrap_or_else(|| "not yet".into()),
                        p.unwrap_or_default()
                    ),
                    (None, _, Some(p)) => format!("  child {}:{p}", k + 1),
                    (None, _, None) => continue,
                };
                lines.push(Line::from(Span::styled(text, t.dim_style())));
                // Ballard's equations with the numbers filled in.
                for eq in provenance::chance_arithmetic(tree, &replay, id, k, r.step) {
                    lines.push(Line::from(Span::styled(format!("    {eq}"), t.dim_style())));
                }
            }
            if let Some(p) = probes {
                lines.push(Line::from(Span::styled(
                    format!(
                        "  probes' mean {}{} (unprobed children at {})",
                        if p.min { "≤" } else { "≥" },
                        short(p.mean),
                        if p.min { "U" } else { "L" }
                    ),
                    t.fg(t.probed),
                )));
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
                            "  {} expected; searched {searched} of {}",
                            ty.name(),
                            count(tree.child_count(id), "child", "children")
                        ),
                        t.dim_style(),
                    )));
                }
            }
        }
    }
    lines
}

/// The current run's log: the narration of every step so far, one line each, the current
/// step last; Detail's scrolling keys move back through it.
fn draw_log(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let tree = &*app.tree;
    let r = &app.runs[app.current];
    let replay = r.replay(tree);
    let room = usize::from(area.height.saturating_sub(2)).max(1);
    let back = usize::from(app.layout.detail_scroll).min(r.step.saturating_sub(1));
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
