//! The explorer: a keyboard-driven terminal UI over one tree and any number of runs.
//!
//! [`app`] holds the state and changes it, [`draw`] shows it, [`outline`] is the lazy tree view,
//! [`keymap`] and [`theme`] are the user's to change. This module owns the terminal: raw mode,
//! the alternate screen and mouse capture are undone on every way out — a normal quit, an error,
//! a panic, SIGTERM, SIGHUP or SIGINT.

pub mod app;
pub mod dialogs;
pub mod draw;
pub mod form;
mod generate_form;
pub mod keymap;
pub mod label_search;
pub mod layout;
pub mod outline;
pub mod runs;
mod stepper;
pub mod theme;
pub mod view;
pub mod worker;

use std::io::{self, Stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind, MouseButton, MouseEventKind,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::search::Algorithm;
use crate::tree::Tree;

pub use app::App;
use keymap::{Key, Keymap};

/// What the explorer opens with.
pub struct Options {
    pub tree: Tree,
    /// Where the tree came from, for the title bar.
    pub source: String,
    /// Runs done before the first frame.
    pub runs: Vec<Algorithm>,
}

/// Builds the app as the user configured it: keymap and themes from the config directory,
/// `NO_COLOR` respected. Problems with the user's files become a status message.
pub fn configured_app(opts: Options) -> App {
    let config = theme::config_dir();
    let mut notes = Vec::new();
    let keymap = match config.as_ref().map(|d| d.join("keymap.ron")) {
        Some(p) if p.exists() => match std::fs::read_to_string(&p)
            .map_err(|e| e.to_string())
            .and_then(|t| Keymap::with_overrides(&t))
        {
            Ok(k) => k,
            Err(e) => {
                notes.push(format!("{}: {e}; using the default keys", p.display()));
                Keymap::default()
            }
        },
        _ => Keymap::default(),
    };
    let (mut themes, errors) = theme::available(config.as_deref());
    notes.extend(errors);
    if theme::no_color() {
        themes = vec![theme::Theme::monochrome()];
    }
    let mut app = App::new(opts.tree, opts.source, keymap, themes);
    app.run_all(&opts.runs);
    if !notes.is_empty() {
        app.status = Some((notes.join("; "), true));
    }
    app
}

/// Restores the terminal: leaves raw mode, the alternate screen and mouse capture.
fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

/// Restores the terminal when dropped, whatever ends the explorer.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Runs the explorer until the user quits.
pub fn run(opts: Options) -> io::Result<()> {
    let mut app = configured_app(opts);
    // A panic restores the terminal before its message is printed.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        signal_hook::flag::register(sig, Arc::clone(&stop))?;
    }
    enable_raw_mode()?;
    let _guard = Guard;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    event_loop(&mut terminal, &mut app, &stop)
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    stop: &AtomicBool,
) -> io::Result<()> {
    // Debug builds only: a deliberate panic after the first frame, so the end-to-end tests can
    // check that a panic gives the terminal back.
    let test_panic = cfg!(debug_assertions) && std::env::var_os("PRUNE_TEST_PANIC").is_some();
    let mut frames = 0u64;
    while !app.quit && !stop.load(Ordering::Relaxed) {
        if test_panic && frames == 1 {
            panic!("PRUNE_TEST_PANIC is set: panicking to test terminal restoration");
        }
        frames += 1;
        app.tick(Instant::now());
        terminal.draw(|f| {
            let hit = draw::draw(f, app);
            if hit.height > 0 {
                app.height = usize::from(hit.height);
            }
            app.hit = hit;
        })?;
        let busy = app.playing || app.pending().is_some();
        let wait = if busy {
            Duration::from_millis(30)
        } else {
            Duration::from_millis(250)
        };
        if !event::poll(wait)? {
            continue;
        }
        // Take every event already queued before drawing again: held keys never lag.
        loop {
            handle(app, event::read()?);
            if app.quit || !event::poll(Duration::ZERO)? {
                break;
            }
        }
    }
    Ok(())
}

/// One terminal event.
pub fn handle(app: &mut App, e: Event) {
    match e {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            if let Some(key) = Key::from_event(&k) {
                app.key(key);
            }
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => app.scroll(true),
            MouseEventKind::ScrollUp => app.scroll(false),
            MouseEventKind::Down(MouseButton::Left) => app.click(m.column, m.row),
            _ => {}
        },
        _ => {}
    }
}
