//! What opens over the panels: the help, the algorithm picker, forms, message boxes and the
//! search box.

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::cut::width;
use crate::tui::edit::probability_sum;
use crate::tui::keymap::{Action, Context, DIALOG_GROUP};
use prune::search::ALGORITHMS;

use super::style::*;
use crate::tui::app::{App, FieldValue};
use crate::tui::form::Form;
use crate::tui::theme::Theme;

pub(super) fn draw_help(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let mut groups: Vec<(&str, Vec<(String, &str)>)> = app.keymap().help();
    groups.push((DIALOG_GROUP, app.keymap().dialog_help()));
    let entry = |keys: &str, what: &str| {
        Line::from(vec![
            Span::styled(format!("  {keys:<14}"), t.fg(t.accent)),
            Span::styled(what.to_string(), t.fg(t.text)),
        ])
    };
    let group_lines = |g: &[(&str, Vec<(String, &str)>)]| {
        let mut col = Vec::new();
        for (group, entries) in g {
            col.push(Line::from(Span::styled(group.to_string(), t.title_style())));
            col.extend(entries.iter().map(|(k, w)| entry(k, w)));
            col.push(Line::from(""));
        }
        col
    };
    let legend: Vec<Line> = super::legend::lines()
        .map(|l| Line::from(Span::styled(l, t.fg(t.text))))
        .collect();
    let legend: Vec<Line> = std::iter::once(Line::from(Span::styled("Glyphs", t.title_style())))
        .chain(legend)
        .collect();
    // Two columns where there is room for them, one otherwise; scrolled either way.
    let two = area.width >= 100;
    let mut cols: Vec<Vec<Line>> = if two {
        // Split the groups where the taller column is shortest (the legend goes right).
        let len = |g: &[(&str, Vec<(String, &str)>)]| g.iter().map(|(_, e)| e.len() + 2).sum();
        let split = (1..groups.len())
            .min_by_key(|&k| {
                let (l, r): (usize, usize) = (len(&groups[..k]), len(&groups[k..]) + legend.len());
                l.max(r)
            })
            .unwrap_or(0);
        vec![group_lines(&groups[..split]), group_lines(&groups[split..])]
    } else {
        vec![group_lines(&groups)]
    };
    let last = cols.len() - 1;
    cols[last].extend(legend);
    let content = cols.iter().map(Vec::len).max().unwrap_or(0) as u16;
    let r = centered(area, 100, content + 2);
    let page = r.height.saturating_sub(2);
    let max = content.saturating_sub(page);
    app.layout().help_extent.set((max, page));
    let scroll = app.layout().help_scroll.min(max);
    clear(f, t, r);
    let mut title = " Help · q/Esc close".to_owned();
    if max > 0 {
        title.push_str(&format!(" · ↑↓ scroll · {}/{} ", scroll + page, content));
    } else {
        title.push(' ');
    }
    let b = block(t, r, title);
    let inner = b.inner(r);
    f.render_widget(b, r);
    if two {
        let [left, right] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
            .areas(inner);
        let [c0, c1] = [cols.remove(0), cols.remove(0)];
        f.render_widget(
            Paragraph::new(fit_lines(c0, left)).scroll((scroll, 0)),
            left,
        );
        f.render_widget(
            Paragraph::new(fit_lines(c1, right)).scroll((scroll, 0)),
            right,
        );
    } else {
        let lines = fit_lines(cols.remove(0), inner);
        f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
    }
}

/// Help lines cut to their column, each cut ending in `…` rather than at the column's edge.
fn fit_lines<'a>(lines: Vec<Line<'a>>, column: Rect) -> Vec<Line<'a>> {
    let w = usize::from(column.width);
    lines.into_iter().map(|l| fit_line(l, w)).collect()
}

/// The picker: a row per algorithm, its name and what it comes from (or why it cannot search
/// this tree), the description wrapped under itself rather than cut, so that every word of a
/// long source ("Sturtevant & Korf 2000: …") is read on a narrow terminal. The box is as wide
/// as the longest entry allows; when the rows are taller than the screen, the selected one is
/// kept in view.
pub(super) fn draw_picker(f: &mut Frame, app: &App, selected: usize, area: Rect) {
    let t = app.theme();
    let refusals = app.refusals();
    let entries: Vec<(&str, String)> = ALGORITHMS
        .iter()
        .zip(refusals)
        .map(|(info, why)| match why {
            Some(w) => (info.name, w.to_string()),
            None => (info.name, info.source.to_owned()),
        })
        .collect();
    let widest = entries.iter().map(|(_, d)| width(d)).max().unwrap_or(0);
    let outer = u16::try_from(PICKER_NAME + widest + 2).unwrap_or(u16::MAX);
    let w = outer.min(area.width.saturating_sub(2));
    let room = usize::from(w.saturating_sub(2))
        .saturating_sub(PICKER_NAME)
        .max(1);
    let mut lines = Vec::new();
    let mut selected_rows = 0..0;
    for (i, ((name, description), why)) in entries.iter().zip(refusals).enumerate() {
        let sel = i == selected;
        let (name_style, text_style) = match why {
            Some(_) => (
                t.dim_style().add_modifier(Modifier::CROSSED_OUT),
                t.dim_style(),
            ),
            None => (t.fg(t.text).add_modifier(Modifier::BOLD), t.fg(t.text)),
        };
        let first = lines.len();
        for (k, part) in wrap_words(description, room).into_iter().enumerate() {
            let lead = match (k, sel) {
                (0, true) => format!("▶ {name:<w$}", w = PICKER_NAME - 2),
                (0, false) => format!("  {name:<w$}", w = PICKER_NAME - 2),
                _ => " ".repeat(PICKER_NAME),
            };
            let mut line = Line::from(vec![
                Span::styled(lead, name_style),
                Span::styled(part, text_style),
            ]);
            if sel {
                line = line.patch_style(t.selected_style());
            }
            lines.push(line);
        }
        if sel {
            selected_rows = first..lines.len();
        }
    }
    let r = centered(area, w, lines.len() as u16 + 2);
    let shown = usize::from(r.height.saturating_sub(2));
    // The first row shown: the top, unless the selected entry would end below the box.
    let top = selected_rows
        .end
        .saturating_sub(shown)
        .min(selected_rows.start);
    clear(f, t, r);
    f.render_widget(
        Paragraph::new(lines)
            .scroll((u16::try_from(top).unwrap_or(u16::MAX), 0))
            .block(block(
                t,
                r,
                " Run an algorithm · greyed: does not apply here ",
            )),
        r,
    );
}

/// Columns before a picker entry's description: the marker, the name and a space.
const PICKER_NAME: usize = 17;

/// `text` in lines of at most `w` columns, broken between words; a word longer than a line is
/// cut (`cut` marks it).
fn wrap_words(text: &str, w: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && width(&line) + 1 + width(word) > w {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&crate::tui::cut::cut(word, w));
    }
    lines.push(line);
    lines
}

pub(super) fn draw_form(f: &mut Frame, app: &App, form: &Form, area: Rect) {
    let t = app.theme();
    // Under the fields: a chance node's probabilities' sum as typed (with the key that evens
    // them), the focused field's help, and the error of the last Enter.
    let mut notes = Vec::new();
    if let Some(sum) = probability_sum(form) {
        let even = app
            .keymap()
            .hint_in(Context::Input, &[(Action::EvenProbabilities, "even")]);
        let text = [sum, even].into_iter().filter(|s| !s.is_empty());
        notes.push(Line::from(Span::styled(
            format!(" {}", text.collect::<Vec<_>>().join(" · ")),
            t.fg(t.accent),
        )));
    }
    if let Some(help) = form.focused().map(|f| f.help).filter(|h| !h.is_empty()) {
        notes.push(Line::from(Span::styled(format!(" {help}"), t.dim_style())));
    }
    if let Some(e) = &form.error {
        notes.push(Line::from(""));
        notes.push(Line::from(Span::styled(format!(" {e}"), t.fg(t.error))));
    }
    // A form taller than the screen (a chance node of many children) scrolls to its focus.
    let room = usize::from(area.height.saturating_sub(4)).saturating_sub(notes.len());
    let first = form.focus.saturating_sub(room.saturating_sub(1));
    let mut lines = Vec::new();
    for (i, field) in form.fields.iter().enumerate().skip(first).take(room.max(1)) {
        let focus = i == form.focus;
        let mut value = field.shown();
        if focus && matches!(field.value, FieldValue::Text(_)) {
            value.push('▏');
        }
        let mut line = Line::from(vec![
            Span::styled(format!(" {} ", fit(&field.label, 18)), t.dim_style()),
            Span::styled(value, t.fg(t.text)),
        ]);
        if focus {
            line = line.patch_style(t.selected_style());
        }
        lines.push(line);
    }
    if !notes.is_empty() {
        lines.push(Line::from(""));
        lines.extend(notes);
    }
    let r = centered(area, 80, lines.len() as u16 + 2);
    clear(f, t, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(block(t, r, format!(" {} ", form.title)))
            .wrap(Wrap { trim: false }),
        r,
    );
}

pub(super) fn draw_popup(
    f: &mut Frame,
    t: &Theme,
    title: &str,
    text: &str,
    error: bool,
    area: Rect,
) {
    let lines: Vec<Line> = text
        .lines()
        .map(|l| {
            Line::from(Span::styled(
                l.to_owned(),
                t.fg(if error { t.error } else { t.text }),
            ))
        })
        .collect();
    let w = text.lines().map(crate::tui::cut::width).max().unwrap_or(20) as u16 + 4;
    let w = w.max(40).min(area.width.saturating_sub(2));
    // Long lines wrap: the box is as tall as the wrapped text (up to the screen).
    let inner = usize::from(w.saturating_sub(2)).max(1);
    let rows: usize = text
        .lines()
        .map(|l| crate::tui::cut::width(l).div_ceil(inner).max(1))
        .sum();
    let r = centered(area, w, rows as u16 + 2);
    clear(f, t, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(block(t, r, format!(" {title} · any key closes ")))
            .wrap(Wrap { trim: false }),
        r,
    );
}

/// The label search's input line, over the bottom of the outline.
pub(super) fn draw_search_box(f: &mut Frame, t: &Theme, q: &str, outline: Rect) {
    let r = Rect::new(
        outline.x + 1,
        outline.bottom().saturating_sub(2),
        outline.width.saturating_sub(2),
        1,
    );
    clear(f, t, r);
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("/", t.title_style()),
            Span::styled(q.to_owned(), t.fg(t.text)),
            Span::styled("▏", t.fg(t.accent)),
        ])),
        r,
    );
}
