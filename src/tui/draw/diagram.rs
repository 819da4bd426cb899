//! The diagram view: the selected node's subtree drawn top-down as in the papers
//! ([`crate::draw`]'s text picture), for the current run at its step, in the outline's place.
//! It is as deep as the panel is tall and never wider than the panel: what does not fit is
//! elided with its size. With differences on and two runs or more, the next run's diagram is
//! drawn below the current one's, and the cards that differ between the two (status, value or
//! window) are highlighted in both.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::draw::{self, At, Options, Picture, text};
use crate::tree::names::node_name;
use crate::tui::app::App;
use crate::tui::keymap::Action;
use crate::tui::theme::Theme;

use super::style::{block, first_key};

/// The deepest picture of `root`'s subtree that fits `w`×`h`.
pub fn fitted(app: &App, at: Option<&At>, w: usize, h: usize) -> Picture {
    let tree = &*app.scene.doc.tree;
    let root = app.scene.outline.selected;
    let mut opts = Options {
        root,
        depth: Some(0),
        width: w.max(1),
    };
    let mut best = draw::picture(tree, &app.scene.doc.sizes, at, &opts);
    let height = app.scene.doc.tree.height() - tree.depth_of(root);
    for d in 1..=height.min(draw::MOST_LEVELS) {
        opts.depth = Some(d);
        let pic = draw::picture(tree, &app.scene.doc.sizes, at, &opts);
        if pic.height() > h {
            break;
        }
        best = pic;
    }
    best
}

pub(super) fn draw_diagram(f: &mut Frame, app: &App, area: Rect) {
    let n = app.scene.runs.len();
    let runs: Vec<Option<usize>> = match n {
        0 => vec![None],
        _ if app.scene.filter.differences && n > 1 => {
            let c = app.scene.current.min(n - 1);
            vec![Some(c), Some((c + 1) % n)]
        }
        _ => vec![Some(app.scene.current.min(n - 1))],
    };
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints(vec![Constraint::Ratio(1, runs.len() as u32); runs.len()])
        .split(area);
    for (i, (run, &r)) in runs.iter().zip(parts.iter()).enumerate() {
        let other = runs
            .get(1 - i.min(1))
            .copied()
            .flatten()
            .filter(|_| runs.len() > 1);
        draw_one(f, app, *run, other, r);
    }
}

/// Draws `run`'s diagram in `area`; with `other`, the cards that differ from that run's are
/// highlighted.
fn draw_one(f: &mut Frame, app: &App, run: Option<usize>, other: Option<usize>, area: Rect) {
    let t = app.theme();
    let tree = &*app.scene.doc.tree;
    let root = app.scene.outline.selected;
    let at = run.map(|i| {
        let r = &app.scene.runs[i];
        At::with_index(tree, &r.run, &r.trace, &r.index, r.step)
    });
    let what = match &at {
        Some(a) => format!(
            "{}, step {}/{}",
            a.run.algorithm.label(),
            a.step,
            a.trace.len()
        ),
        None => "no run".into(),
    };
    let title = format!(
        " Diagram · {} · {what} · {} outline ",
        node_name(tree, root),
        first_key(app, Action::Diagram)
    );
    let inner = block(t, area, "").inner(area);
    let pic = fitted(
        app,
        at.as_ref(),
        usize::from(inner.width),
        usize::from(inner.height),
    );
    // The legend of the principal variation's mark, in the title: the panel's rows are the
    // picture's.
    let title = if pic.has_pv_edge() {
        let long = format!("{title}· {} {} ", text::PV_EDGE, draw::PV_LEGEND);
        if long.width() + 2 <= usize::from(area.width) {
            long
        } else {
            format!("{title}· {} PV ", text::PV_EDGE)
        }
    } else {
        title
    };
    f.render_widget(block(t, area, title), area);
    let other_at = other.map(|i| {
        let r = &app.scene.runs[i];
        At::with_index(tree, &r.run, &r.trace, &r.index, r.step)
    });
    // Cells of the cards that differ from the other run's: (row, first column, columns).
    let mut marked: Vec<(usize, usize, usize)> = Vec::new();
    if let Some(o) = &other_at {
        for p in &pic.placed {
            let Some(id) = p.card.node else { continue };
            let theirs = draw::card(tree, Some(o), id);
            let mine = draw::card(tree, at.as_ref(), id);
            if (theirs.glyph, &theirs.lines) != (mine.glyph, &mine.lines) {
                let top = pic.top(p.depth);
                for row in top..top + p.card.height() {
                    marked.push((row, p.left, p.card.width()));
                }
            }
        }
    }
    let lines: Vec<Line> = text::lines(&pic)
        .into_iter()
        .enumerate()
        .map(|(row, l)| {
            let spans: Vec<(usize, usize)> = marked
                .iter()
                .filter(|m| m.0 == row)
                .map(|m| (m.1, m.2))
                .collect();
            styled(t, &l, &spans)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

/// The style of a character of the picture: status glyphs in their colours, lines in the
/// border's.
fn char_style(t: &Theme, c: char) -> Style {
    match c {
        '✂' => t.fg(t.pruned),
        '●' => t.fg(t.visited),
        '▸' => t.fg(t.open).add_modifier(Modifier::BOLD),
        '◆' => t.fg(t.probed),
        '↻' => t.fg(t.researched),
        '▶' => t.fg(t.accent).add_modifier(Modifier::BOLD),
        '┃' => t.pv_style(),
        '·' | '…' | '┆' => t.dim_style(),
        '─' | '│' | '┌' | '┐' | '└' | '┘' | '┬' | '┴' | '┼' | '├' | '┤' => {
            t.fg(t.border)
        }
        _ => t.fg(t.text),
    }
}

/// A line of the picture as spans of one style each; the columns in `differ` (first column,
/// count) in the theme's difference style.
fn styled(t: &Theme, line: &str, differ: &[(usize, usize)]) -> Line<'static> {
    let mut spans: Vec<Span> = Vec::new();
    let mut run = String::new();
    let mut style = None;
    let mut col = 0;
    for c in line.chars() {
        let mut s = char_style(t, c);
        if differ.iter().any(|&(x, w)| (x..x + w).contains(&col)) {
            s = s.patch(t.difference_style());
        }
        col += c.width().unwrap_or(0);
        if style.is_some_and(|st| st != s) {
            spans.push(Span::styled(
                std::mem::take(&mut run),
                style.unwrap_or_default(),
            ));
        }
        style = Some(s);
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(run, style.unwrap_or_default()));
    }
    Line::from(spans)
}
