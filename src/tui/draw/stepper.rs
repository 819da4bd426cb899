//! The stepper panel: where the current run is, and its step in words.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Paragraph, Wrap};

use prune::trace::EventView;

use super::style::*;
use crate::tui::app::App;

/// The current run's step in words, once a frame: [`stepper_height`] sizes the panel by it and
/// [`draw_stepper`] draws it.
pub(super) fn narration(app: &App) -> Option<String> {
    app.scene
        .current_run()
        .map(|r| r.describe(app.tree(), r.step))
}

/// Rows the stepper takes at `width` columns: `text` wrapped, at most `most` lines of it, and
/// the border.
pub(super) fn stepper_height(text: Option<&str>, width: u16, most: u16) -> u16 {
    let lines = text.map_or(1, |t| {
        let p = Paragraph::new(t).wrap(Wrap { trim: true });
        p.line_count(width.saturating_sub(2)).max(1) as u16
    });
    lines.min(most.max(1)) + 2
}

pub(super) fn draw_stepper(f: &mut Frame, app: &App, area: Rect, text: Option<String>) {
    let t = app.theme();
    let (Some(r), Some(text)) = (app.current_run(), text) else {
        let b = block(t, area, " Step ");
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
    let play = if app.player().playing() {
        format!(" ▶ playing {}/s ", app.player().speed())
    } else {
        String::new()
    };
    // Iterative deepening: which iteration (segment of the trace) this step is in.
    let iteration = r
        .replay(app.tree())
        .iteration(r.step)
        .map(|(i, depth, n)| format!(" · iteration {i}/{n}, depth {depth}"))
        .unwrap_or_default();
    let b = block(
        t,
        area,
        format!(
            " Step {}/{} · {}{iteration}{play} ",
            r.step,
            r.trace.len(),
            r.name()
        ),
    );
    let style = match r.step.checked_sub(1).map(|s| r.trace.event(s).view()) {
        Some(EventView::Cutoff { .. }) => t.fg(t.cutoff),
        Some(EventView::Probe { .. }) => t.fg(t.probed),
        Some(EventView::Research { .. } | EventView::Iteration { .. }) => t.fg(t.researched),
        Some(EventView::TableHit { cut: true, .. }) => t.fg(t.cutoff),
        _ => t.fg(t.text),
    };
    let p = Paragraph::new(Span::styled(text, style)).wrap(Wrap { trim: true });
    f.render_widget(p.block(b), area);
}
