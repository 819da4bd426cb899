//! The diagram view: the selected node's subtree drawn top-down as in the papers
//! ([`crate::draw`]'s text picture), for the current run at its step, in the outline's place.
//! It is as deep as the panel is tall and never wider than the panel: what does not fit is
//! elided with its size. With differences on and two runs or more, the next run's diagram is
//! drawn below the current one's, for comparison.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::draw::{self, At, Options, Picture, text};
use crate::text::node_name;
use crate::tui::app::App;
use crate::tui::keymap::Action;
use crate::tui::theme::Theme;

use super::style::{block, first_key};

/// The deepest picture of `root`'s subtree that fits `w`×`h`.
pub fn fitted(app: &App, at: Option<&At>, w: usize, h: usize) -> Picture {
    let tree = &*app.tree;
    let root = app.outline.selected;
    let mut opts = Options {
        root,
        depth: Some(0),
        width: w.max(1),
    };
    let mut best = draw::picture(tree, &app.sizes, at, &opts);
    let height = app.tree.height() - tree.depth_of(root);
    for d in 1..=height.min(draw::MOST_LEVELS) {
        opts.depth = Some(d);
        let pic = draw::picture(tree, &app.sizes, at, &opts);
        if pic.height() > h {
            break;
        }
        best = pic;
    }
    best
}

pub(super) fn draw_diagram(f: &mut Frame, app: &App, area: Rect) {
    let n = app.runs.len();
    let runs: Vec<Option<usize>> = match n {
        0 => vec![None],
        _ if app.differences && n > 1 => {
            let c = app.current.min(n - 1);
            vec![Some(c), Some((c + 1) % n)]
        }
        _ => vec![Some(app.current.min(n - 1))],
    };
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints(vec![Constraint::Ratio(1, runs.len() as u32); runs.len()])
        .split(area);
    for (run, &r) in runs.iter().zip(parts.iter()) {
        draw_one(f, app, *run, r);
    }
}

fn draw_one(f: &mut Frame, app: &App, run: Option<usize>, area: Rect) {
    let t = app.theme();
    let tree = &*app.tree;
    let root = app.outline.selected;
    let at = run.map(|i| {
        let r = &app.runs[i];
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
    let b = block(t, title);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let pic = fitted(
        app,
        at.as_ref(),
        usize::from(inner.width),
        usize::from(inner.height),
    );
    let lines: Vec<Line> = text::lines(&pic)
        .into_iter()
        .map(|l| styled(t, &l))
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
        '·' | '…' | '┆' => t.dim_style(),
        '─' | '│' | '┌' | '┐' | '└' | '┘' | '┬' | '┴' | '┼' | '├' | '┤' => {
            t.fg(t.border)
        }
        _ => t.fg(t.text),
    }
}

/// A line of the picture as spans of one style each.
fn styled(t: &Theme, line: &str) -> Line<'static> {
    let mut spans: Vec<Span> = Vec::new();
    let mut run = String::new();
    let mut style = None;
    for c in line.chars() {
        let s = char_style(t, c);
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
