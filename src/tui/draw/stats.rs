//! The statistics panel: one row per run.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Modifier;
use ratatui::text::Span;
use ratatui::widgets::{Cell, Paragraph, Row, Table};

use prune::trace::columns::{PANEL, Scope, StatColumn};

use super::legend::SELECTED;
use super::style::*;
use crate::tui::app::App;
use crate::tui::cut::width;
use crate::tui::keymap::Action;

pub(super) fn draw_stats(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let b = block(t, area, " Stats ");
    if app.runs().is_empty() {
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
    let scope = Scope {
        tree: app.tree(),
        minimal_leaves: app.doc().analysis.as_ref().map(|a| a.minimal_leaves),
    };
    // A window of rows around the current run.
    let n = app.runs().len();
    let room = usize::from(area.height.saturating_sub(3)).max(1);
    let first = app
        .current()
        .saturating_sub(room / 2)
        .min(n.saturating_sub(room));
    let last = (first + room).min(n);
    // Every cell's text, for every run (the column widths stay put as the window scrolls).
    let texts: Vec<Vec<String>> = app
        .runs()
        .iter()
        .map(|r| {
            PANEL
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    if k == 0 {
                        r.name()
                    } else {
                        cell_text(c, &scope, &r.run)
                    }
                })
                .collect()
        })
        .collect();
    let widths = column_widths(&texts, usize::from(area.width.saturating_sub(2)));
    let shown = widths.len();
    let columns = &PANEL[..shown];
    let mut notes = Vec::new();
    if first > 0 {
        notes.push(format!("↑ {first} more"));
    }
    if last < n {
        notes.push(format!("↓ {} more", n - last));
    }
    if shown < PANEL.len() {
        let cut = PANEL.len() - shown;
        notes.push(format!(
            "{cut} column{} cut",
            if cut == 1 { "" } else { "s" }
        ));
    }
    let b = if notes.is_empty() {
        b
    } else {
        block(t, area, format!(" Stats · {} ", notes.join(" · ")))
    };
    let header = Row::new(columns.iter().map(|c| c.heading())).style(t.dim_style());
    let rows: Vec<Row> = (first..last)
        .map(|i| {
            let style = if i == app.current() {
                t.fg(t.text).add_modifier(Modifier::BOLD)
            } else {
                t.fg(t.text)
            };
            // The run's name says when it is kept from before a reorder. A table clips a
            // cell silently ("β12" for 1,234 cutoffs): one too narrow is cut visibly.
            let marker = if i == app.current() { SELECTED } else { " " };
            let cells = texts[i]
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(k, (text, &w))| {
                    if k == 0 {
                        Cell::from(fit(&format!("{marker} {text}"), w))
                    } else {
                        Cell::from(fit(text, w))
                    }
                });
            Row::new(cells).style(style)
        })
        .collect();
    let constraints = widths.iter().map(|&w| Constraint::Length(w as u16));
    f.render_widget(Table::new(rows, constraints).header(header).block(b), area);
}

/// A statistic as the panel shows it: counts with thousands separators, as Detail and the
/// outline write them (`2,486`, `2,486 (α1,200 β1,286)`); the value as the outline writes it.
fn cell_text(c: &StatColumn, scope: &Scope, run: &prune::search::Run) -> String {
    let text = c.of(scope, run).text();
    if c.name() == "value" {
        text
    } else {
        group_digits(&text)
    }
}

/// `text` with every whole number of four digits or more grouped in thousands; the digits
/// after a decimal point stay as they are.
fn group_digits(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut digits = String::new();
    let mut after_point = false;
    let flush = |out: &mut String, digits: &mut String, fraction: bool| {
        if !fraction && digits.len() > 3 {
            if let Ok(n) = digits.parse::<u64>() {
                out.push_str(&prune::text::thousands(n));
                digits.clear();
                return;
            }
        }
        out.push_str(digits);
        digits.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        let fraction = after_point;
        after_point = ch == '.' && !digits.is_empty();
        flush(&mut out, &mut digits, fraction);
        out.push(ch);
    }
    flush(&mut out, &mut digits, after_point);
    out
}

/// The widths of the columns shown, from the left: each as wide as its heading and its
/// cells (`texts[run][column]`; the name's also holds the current run's marker) while
/// they fit in `room`. Where they do not, a column wider than its hint ([`StatColumn::width`],
/// the name's [`MAX_NAME`]) is narrowed to it first (its cells then end in "…"), and columns
/// are left out from the right only when none is; the room left then widens the narrowed
/// ones again.
fn column_widths(texts: &[Vec<String>], room: usize) -> Vec<usize> {
    let natural = |k: usize| {
        let cells = texts.iter().map(|row| width(&row[k])).max().unwrap_or(0);
        if k == 0 {
            (cells + 2).max(MIN_NAME)
        } else {
            cells.max(width(PANEL[k].heading()))
        }
    };
    let hint = |k: usize| {
        if k == 0 {
            MAX_NAME
        } else {
            usize::from(PANEL[k].width)
        }
    };
    let mut widths: Vec<usize> = (0..PANEL.len()).map(natural).collect();
    loop {
        let total = widths.iter().sum::<usize>() + widths.len() - 1;
        if total <= room {
            // The room left widens the columns narrowed, from the left.
            let mut slack = room - total;
            for (k, w) in widths.iter_mut().enumerate() {
                let more = natural(k).saturating_sub(*w).min(slack);
                *w += more;
                slack -= more;
            }
            return widths;
        }
        let over = (0..widths.len())
            .filter(|&k| widths[k] > hint(k))
            .max_by_key(|&k| widths[k] - hint(k));
        match over {
            Some(k) => widths[k] = hint(k),
            None if widths.len() > 1 => {
                widths.pop();
            }
            None => {
                widths[0] = room;
                return widths;
            }
        }
    }
}

/// The name column's width, at least and where the room runs short.
const MIN_NAME: usize = 10;
const MAX_NAME: usize = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_grouped_and_fractions_are_not() {
        assert_eq!(group_digits("2486"), "2,486");
        assert_eq!(group_digits("2486 (α1200 β1286)"), "2,486 (α1,200 β1,286)");
        assert_eq!(group_digits("123"), "123");
        assert_eq!(group_digits("1234.5678"), "1,234.5678");
        assert_eq!(group_digits("66.7%"), "66.7%");
        assert_eq!(group_digits("0.12345"), "0.12345");
        assert_eq!(group_digits("12 (3 cut)"), "12 (3 cut)");
        assert_eq!(group_digits("—"), "—");
    }

    fn row(name: &str, cells: &[&str]) -> Vec<String> {
        std::iter::once(name.to_owned())
            .chain(cells.iter().map(|c| (*c).to_owned()))
            .collect()
    }

    #[test]
    fn columns_take_their_content_when_there_is_room() {
        let cells = [
            "7",
            "12,345",
            "12,345",
            "23,456",
            "2,486 (α1,200 β1,286)",
            "0",
            "0",
            "2.289",
            "100.0%",
            "1.71",
        ];
        let texts = vec![row("alphabeta", &cells)];
        let wide = column_widths(&texts, 198);
        assert_eq!(wide.len(), PANEL.len(), "every column at 200 columns");
        assert_eq!(wide[5], 21, "the cutoffs whole: {wide:?}");
        assert_eq!(wide[0], 11);
        // At 80 columns: the cutoffs narrowed to their hint before any column is left out.
        let narrow = column_widths(&texts, 78);
        assert_eq!(narrow.len(), 8, "{narrow:?}");
        assert_eq!(narrow.iter().sum::<usize>() + narrow.len() - 1, 78);
        assert!(
            narrow[5] > usize::from(PANEL[5].width),
            "the room left: {narrow:?}"
        );
        // Narrower still: the cutoffs at their hint, what else fits whole.
        let narrower = column_widths(&texts, 58);
        assert!(narrower.iter().sum::<usize>() + narrower.len() - 1 <= 58);
        assert!(narrower[5] < 21, "{narrower:?}");
        assert!(narrower[..5].iter().zip(&wide).all(|(a, b)| a == b));
    }
}
