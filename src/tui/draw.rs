//! Drawing the explorer: a pure function of the [`App`], one file per panel. Only the rows on
//! screen are computed.
//!
//! - [`outline`] — the tree as rows, with a column group per run;
//! - [`diagram`] — the selected subtree drawn top-down, in the outline's place;
//! - [`detail`] — the selected node in each run;
//! - [`stats`] — a row of statistics per run;
//! - [`stepper`] — the current step in words;
//! - [`bars`] — the title and status bars;
//! - [`loading`] — the loading screen, until the file named on the command line arrives;
//! - [`overlays`] — help, picker, forms, message boxes, the search box;
//! - [`legend`] — the marks the screen draws, the help's legend;
//! - [`style`] — what the panels share.

mod bars;
mod detail;
mod diagram;
mod legend;
pub mod loading;
mod outline;
mod overlays;
mod practice;
mod stats;
mod stepper;
mod style;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Direction, Layout, Rect};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::app::{App, Hit, Mode};
use super::layout::COMPACT_WIDTH;

pub use style::glyph;

/// The smallest screen the explorer draws on.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 16;

/// Draws everything; returns where the outline's rows (the diagram's cards) went, for the mouse.
pub fn draw(f: &mut Frame, app: &App) -> Hit {
    let area = f.area();
    let t = app.theme();
    f.render_widget(Block::default().style(t.base()), area);
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
    // The whole screen in the theme's background, so light themes read on dark terminals.
    f.render_widget(Block::default().style(t.base()), area);
    if let Some((path, progress)) = app.first_load() {
        let name = prune::text::terminal_safe(&path.display().to_string()).into_owned();
        loading::draw_loading(f, app, area, &name, &progress);
        overlays(f, app, area, area);
        return Hit::default();
    }
    let compact = area.width < COMPACT_WIDTH;
    // Stats: a window of rows around the current run.
    let most = match area.height {
        0..30 => 3,
        30..40 => 5,
        _ => 8,
    };
    // With no run, a line of hint.
    let stats_h = if app.runs().is_empty() {
        3
    } else {
        app.runs().len().min(most) as u16 + 3
    };
    if app.practice().is_some() {
        // Practising: no Detail, statistics nor narration, which would give the answers away.
        let [title, main, panel, status] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(1),
                Constraint::Min(6),
                Constraint::Length(practice::panel_height(area)),
                Constraint::Length(1),
            ])
            .areas(area);
        bars::draw_title(f, app, title);
        let hit = if app.layout().diagram {
            diagram::draw_diagram(f, app, main)
        } else {
            outline::draw_outline(f, app, main)
        };
        practice::draw_practice(f, app, panel);
        bars::draw_status(f, app, status);
        overlays(f, app, area, main);
        return hit;
    }
    // The step in words, wrapped: up to 2 lines on a small screen, 4 on a tall one.
    let most_lines = if area.height < 30 { 2 } else { 4 };
    let said = stepper::narration(app);
    let stepper_h = stepper::stepper_height(said.as_deref(), area.width, most_lines);
    let [title, main, stats, stepper, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Min(6),
            Constraint::Length(stats_h),
            Constraint::Length(stepper_h),
            Constraint::Length(1),
        ])
        .areas(area);
    bars::draw_title(f, app, title);
    let swap = app.layout().swap_detail;
    let (outline, detail) = if compact {
        // One panel: the outline, or Detail in its place.
        if swap {
            (None, Some(main))
        } else {
            (Some(main), None)
        }
    } else if swap {
        (Some(main), None)
    } else {
        let detail_w = (area.width * 36 / 100).clamp(30, 56);
        let [o, d] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Min(30), Constraint::Length(detail_w)])
            .areas(main);
        (Some(o), Some(d))
    };
    let hit = match outline {
        Some(o) if app.layout().diagram => diagram::draw_diagram(f, app, o),
        Some(o) => outline::draw_outline(f, app, o),
        None => Hit::default(),
    };
    if let Some(d) = detail {
        detail::draw_detail(f, app, d);
    }
    stats::draw_stats(f, app, stats);
    stepper::draw_stepper(f, app, stepper, said);
    bars::draw_status(f, app, status);
    overlays(f, app, area, outline.unwrap_or(main));
    hit
}

/// Whatever is open over the panels.
fn overlays(f: &mut Frame, app: &App, area: Rect, outline: Rect) {
    let t = app.theme();
    match app.mode() {
        Mode::Help => overlays::draw_help(f, app, area),
        Mode::Picker(i) => overlays::draw_picker(f, app, *i, area),
        Mode::Form(form) => overlays::draw_form(f, app, form, area),
        Mode::Popup(p) => overlays::draw_popup(f, t, &p.title, &p.text, p.error, area),
        Mode::Search(q) => overlays::draw_search_box(f, t, q, outline),
        Mode::Normal => {}
    }
}

/// The detail panel's text for the selected node, one string a line before wrapping: what
/// tests read to check every line of every node.
pub fn detail_text(app: &App) -> Vec<String> {
    detail::detail_lines(app)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}
