//! The title bar (the tree and where it came from) and the status bar (work in progress,
//! messages, and the hints of the keys in force).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use prune::text::thousands;

use crate::tui::app::{App, Mode};
use crate::tui::keymap::{Action, Context};
use crate::tui::layout::COMPACT_WIDTH;

use super::style::fit_line;

/// The most of the title bar the tree's source takes.
const SOURCE_WIDTH: usize = 48;

pub(super) fn draw_title(f: &mut Frame, app: &App, area: Rect) {
    let t = app.theme();
    let tree = app.tree();
    let leaves = tree.leaf_count();
    let line = Line::from(vec![
        Span::styled(" prune ", t.title_style().add_modifier(Modifier::REVERSED)),
        Span::styled(
            format!("  {}", tree.meta().name),
            t.fg(t.text).add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            format!(
                "  {}{} · {} nodes, {} leaves, depth {}{}",
                // A long --expr or prune gen line leaves room for the tree's size.
                crate::tui::cut::cut(app.source(), SOURCE_WIDTH),
                if app.unsaved() {
                    " (unsaved changes)"
                } else {
                    ""
                },
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
    f.render_widget(
        Paragraph::new(fit_line(line, usize::from(area.width))),
        area,
    );
}

pub(super) const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

pub(super) fn draw_status(f: &mut Frame, app: &App, area: Rect) {
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
    } else if let Some((msg, error)) = app.status() {
        Line::from(Span::styled(
            format!(" {msg}"),
            if error { t.fg(t.error) } else { t.fg(t.accent) },
        ))
    } else {
        let hint = match app.mode() {
            // Practice takes the keys itself (see tui/practice.rs): typing goes to the answer.
            // On the diagram, the leaves are marked with its cursor (see App::practice_key).
            Mode::Normal
                if app.layout().diagram
                    && app.practice().is_some_and(|p| p.leaves_asked().is_some()) =>
            {
                "type or Tab-pick the answer · Enter answer · ← → choose a leaf · Space mark it · Ctrl-S save report · Esc leave practice".to_owned()
            }
            Mode::Normal if app.practice().is_some() => {
                "type or Tab-pick the answer · Enter answer · ↑ ↓ look around · Space mark leaf · Ctrl-S save report · Esc leave practice".to_owned()
            }
            Mode::Normal if area.width < COMPACT_WIDTH => app.keymap().hint(&[
                (Action::Help, "help"),
                (Action::AddRun, "run"),
                (Action::StepForward, "step"),
                (Action::StepBack, "back"),
                (Action::NextRun, "next run"),
                (Action::ToggleDetail, "detail"),
                (Action::Quit, "quit"),
            ]),
            Mode::Normal => app.keymap().hint(&[
                (Action::Help, "help"),
                (Action::AddRun, "run"),
                (Action::StepForward, "step"),
                (Action::StepBack, "back"),
                (Action::NextCutoff, "cutoff"),
                (Action::PlayPause, "play"),
                (Action::VisitedOnly, "visited"),
                (Action::FoldPruned, "fold"),
                (Action::Diagram, "diagram"),
                (Action::Export, "export"),
                (Action::Quit, "quit"),
            ]),
            // Hints of the keys in force in lists and forms, from the keymap.
            Mode::Search(_) => format!(
                "type part of a label · {}",
                app.keymap().hint_in(
                    Context::Input,
                    &[(Action::Confirm, "search"), (Action::Cancel, "cancel")]
                )
            ),
            Mode::Picker(_) => app.keymap().hint_in(
                Context::List,
                &[
                    (Action::Up, "up"),
                    (Action::Down, "down"),
                    (Action::Confirm, "run"),
                    (Action::Cancel, "cancel"),
                ],
            ),
            Mode::Form(form) => {
                let mut keys = vec![
                    (Action::NextField, "next field"),
                    (Action::NextChoice, "change"),
                ];
                if form.prob_fields().next().is_some() {
                    keys.push((Action::EvenProbabilities, "even probabilities"));
                }
                keys.extend([(Action::Confirm, "confirm"), (Action::Cancel, "cancel")]);
                format!(
                    "type to edit · {}",
                    app.keymap().hint_in(Context::Input, &keys)
                )
            }
            Mode::Help => "↑↓ PgUp PgDn Home End scroll · q Esc ? Enter close".into(),
            Mode::Popup(_) => "any key closes".into(),
        };
        Line::from(Span::styled(format!(" {hint}"), t.dim_style()))
    };
    f.render_widget(
        Paragraph::new(fit_line(line, usize::from(area.width))),
        area,
    );
}
