//! What every panel shares: borders, centring, cutting text to a column, the status glyphs
//! and their styles.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear};

use prune::text::{readable_number, readable_vector};
use prune::trace::{NodeState, Shown, Status, Trace};
use prune::tree::{Kind, NodeId, Tree};

use crate::tui::app::App;
use crate::tui::keymap::Action;
use crate::tui::theme::Theme;

/// A bordered panel for `area`, its title cut to fit between the corners (ending in `…`, never
/// inside a number) rather than clipped at the border.
pub(super) fn block<'a>(t: &Theme, area: Rect, title: impl Into<Line<'a>>) -> Block<'a> {
    let title = fit_line(title.into(), usize::from(area.width.saturating_sub(2)));
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(t.fg(t.border))
        .title(title)
        .title_style(t.title_style())
}

/// Empties `r` for an overlay, in the theme's background.
pub(super) fn clear(f: &mut Frame, t: &Theme, r: Rect) {
    f.render_widget(Clear, r);
    f.render_widget(Block::default().style(t.base()), r);
}

pub(super) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width.saturating_sub(2));
    let h = h.min(area.height.saturating_sub(2));
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// `s` cut to `w` columns (ending in "…", never inside a number) and padded to `w`.
pub(super) fn fit(s: &str, w: usize) -> String {
    crate::tui::cut::pad(s, w)
}

/// The status glyph of a node in a run: distinct shapes, so colour is never needed.
pub fn glyph(st: &NodeState) -> &'static str {
    prune::draw::status_glyph(st)
}

pub(super) fn glyph_style(t: &Theme, st: &NodeState) -> Style {
    match st.status {
        Status::Pruned => t.fg(t.pruned),
        _ if st.researches > 0 => t.fg(t.researched),
        _ if st.probed || st.probe_target => t.fg(t.probed),
        Status::Done => t.fg(t.visited),
        Status::Open => t.fg(t.open).add_modifier(Modifier::BOLD),
        Status::NotReached => t.dim_style(),
    }
}

/// A value as the explorer shows it: [`readable_number`]s, or every digit with the
/// full-precision setting.
pub(super) fn shown_text(app: &App, trace: &Trace, id: NodeId, v: Shown) -> String {
    value_in(app.tree(), trace, id, v, app.layout().full_precision)
}

/// A value readably, or with every digit.
pub(super) fn value_in(tree: &Tree, trace: &Trace, id: NodeId, v: Shown, full: bool) -> String {
    match v {
        Shown::Scalar(x) => readable_number(x, full),
        Shown::Vector(i) => readable_vector(trace.vector(i), full),
        Shown::Payoff => readable_vector(tree.payoff(id), full),
    }
}

pub(super) fn under_chance(tree: &Tree, id: NodeId) -> bool {
    tree.parent(id)
        .is_some_and(|p| tree.kind(p) == Kind::Chance)
}

pub(super) fn first_key(app: &App, a: Action) -> String {
    app.keymap()
        .keys_for(a)
        .split(' ')
        .next()
        .unwrap_or("?")
        .to_owned()
}

/// `line` cut to `width` columns, ending with "…" when something was cut (never inside a
/// number): a title or a message never stops mid-word without saying so.
pub(super) fn fit_line<'a>(line: Line<'a>, width: usize) -> Line<'a> {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let Some(mut keep) = crate::tui::cut::cut_at(&text, width) else {
        return line;
    };
    let mut spans = Vec::new();
    let mut last_style = Style::default();
    for s in line.spans {
        last_style = s.style;
        let n = s.content.len();
        if n <= keep {
            keep -= n;
            spans.push(s);
        } else {
            spans.push(Span::styled(s.content[..keep].to_owned(), s.style));
            break;
        }
    }
    if width > 0 {
        spans.push(Span::styled(
            crate::tui::cut::ELLIPSIS.to_string(),
            last_style,
        ));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_ends_with_an_ellipsis() {
        let line = Line::from(vec![Span::raw("prune "), Span::raw("depth 3")]);
        let cut = fit_line(line.clone(), 10);
        let text: String = cut.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "prune dep…");
        assert_eq!(
            fit_line(line, 13).spans.len(),
            2,
            "a line that fits is kept"
        );
    }

    #[test]
    fn a_cut_title_ends_in_an_ellipsis_keeps_its_styles_and_never_splits_a_number() {
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let line = Line::from(vec![
            Span::raw(" Step 12"),
            Span::styled("34/5000 · alphabeta ", bold),
        ]);
        let text = |l: &Line| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        };
        assert_eq!(
            text(&fit_line(line.clone(), 80)),
            text(&line),
            "fits: whole"
        );
        // Ten columns would end inside 1234: the number goes whole.
        let cut = fit_line(line.clone(), 10);
        assert_eq!(text(&cut), " Step …");
        let cut = fit_line(line.clone(), 17);
        assert_eq!(text(&cut), " Step 1234/5000 …");
        assert_eq!(
            cut.spans[1].style, bold,
            "the kept part of a span keeps its style"
        );
        assert!(crate::tui::cut::width(&text(&cut)) <= 17);
        assert_eq!(text(&fit_line(line, 0)), "");
    }
}
