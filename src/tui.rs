//! The explorer: a keyboard-driven terminal UI over one tree and any number of runs.
//!
//! [`app`] holds the state and changes it, [`draw`] shows it, [`outline`] is the lazy tree view,
//! [`keymap`] and [`theme`] are the user's to change, [`cut`] shortens text for every panel. This module owns the terminal: raw mode,
//! the alternate screen and mouse capture are undone on every way out — a normal quit, an error,
//! a panic, SIGTERM, SIGHUP or SIGINT, memory running out, a mapped input file written or
//! shortened under it (SIGIO, SIGBUS) and an abort (SIGABRT) — and the process ends within a fraction of a second when
//! its terminal goes away.

pub mod app;
pub mod config;
pub mod cut;
pub mod dialogs;
pub mod doc;
pub mod draw;
pub mod edit;
pub mod form;
mod generate_form;
pub mod jobs;
pub mod keymap;
pub mod label_search;
pub mod layout;
pub mod mode;
pub mod outline;
pub mod practice;
pub mod runs;
pub mod scene;
pub mod stepper;
pub mod theme;
pub mod view;
pub mod worker;
pub mod zoom;

use std::io::{self, Stdout};
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

use prune::search::Algorithm;
use prune::tree::Tree;

pub use app::App;
use keymap::{Key, Keymap};
pub use runs::RunView;

/// What the explorer opens with.
pub struct Options {
    pub tree: Tree,
    /// Where the tree came from, for the title bar.
    pub source: String,
    /// Runs started with the first frame.
    pub runs: Vec<Algorithm>,
    /// A file to load in the background, shown with its progress from the first frame; `tree`
    /// stands in until it arrives. If it cannot be loaded the explorer ends with its report.
    pub load: Option<std::path::PathBuf>,
    /// Practice on the last of `runs` as soon as it is searched.
    pub practice: bool,
    /// Runs already recorded on `tree` (a game's searches from its rules), shown from the
    /// first frame.
    pub recorded: Vec<RunView>,
    /// A message on the status bar from the first frame, and whether it reports a problem
    /// (an imported trace's departure).
    pub status: Option<(String, bool)>,
}

/// The user's keymap and themes from the config directory, and every problem found in them
/// (file, line and column, and a hint), the keymap's and the themes' alike.
fn user_config() -> (Keymap, Vec<theme::Theme>, Vec<String>) {
    let config = theme::config_dir();
    let mut problems = Vec::new();
    let keymap = match config.as_ref().map(|d| d.join("keymap.ron")) {
        Some(p) if p.exists() => match std::fs::read_to_string(&p)
            .map_err(|e| e.to_string())
            .and_then(|t| Keymap::with_overrides(&t))
        {
            Ok(k) => k,
            Err(e) => {
                problems.push(format!(
                    "{}: {e}\n  hint: key names as in docs/EXPLORER.md, actions as in `?`; the default keys are used",
                    p.display()
                ));
                Keymap::default()
            }
        },
        _ => Keymap::default(),
    };
    let (themes, errors) = theme::available(config.as_deref());
    problems.extend(errors.into_iter().map(|e| {
        format!("{e}\n  hint: start from a built-in theme in themes/; this one is left out")
    }));
    (keymap, themes, problems)
}

/// Every problem in the user's keymap and themes (`prune tui --check-config`).
pub fn config_problems() -> Vec<String> {
    user_config().2
}

/// Builds the app as the user configured it: keymap and themes from the config directory,
/// `NO_COLOR` respected. Problems with the user's files open a message box that lists them all.
pub fn configured_app(opts: Options) -> App {
    let (keymap, mut themes, problems) = user_config();
    if theme::no_color() {
        themes = vec![theme::Theme::monochrome()];
    }
    let mut app = App::new(opts.tree, opts.source, keymap, themes);
    for run in opts.recorded {
        app.push_run(run);
    }
    if let Some((message, error)) = opts.status {
        app.say(message, error);
    }
    app.jobs.practice_pending = opts.practice;
    match opts.load {
        Some(path) => app.load_first(path, opts.runs),
        None => app.run_all(&opts.runs),
    }
    if !problems.is_empty() {
        app.mode = app::Mode::Popup(app::Popup {
            title: "configuration".into(),
            text: problems.join("\n\n"),
            error: true,
        });
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
        #[cfg(unix)]
        last_words::disarm();
        restore();
    }
}

/// The terminal given back where [`restore`] cannot run: in a signal handler (SIGIO or SIGBUS
/// when another program writes or shortens a mapped input file, SIGABRT) and where memory has
/// run out. crossterm's own
/// restore takes locks and allocates; this one only makes system calls on what was saved
/// before the explorer took the terminal over: the modes to set again and the bytes that leave
/// the alternate screen, stop mouse capture and show the cursor.
#[cfg(unix)]
mod last_words {
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, Ordering};

    use crossterm::event::DisableMouseCapture;
    use crossterm::terminal::LeaveAlternateScreen;
    use rustix::termios::{OptionalActions, Termios, tcgetattr, tcsetattr};

    /// The terminal's modes before raw mode, and the bytes that undo the rest.
    static SAVED: OnceLock<(Option<Termios>, Vec<u8>)> = OnceLock::new();
    /// Whether the explorer holds the terminal now.
    static ARMED: AtomicBool = AtomicBool::new(false);

    /// Saves what giving the terminal back takes, and registers it for memory running out, a
    /// shortened mapped file and an abort. Called before raw mode is entered.
    pub(super) fn arm() {
        SAVED.get_or_init(|| {
            let mut bytes = Vec::new();
            let _ = crossterm::queue!(
                bytes,
                DisableMouseCapture,
                LeaveAlternateScreen,
                crossterm::cursor::Show
            );
            (tcgetattr(std::io::stdin()).ok(), bytes)
        });
        ARMED.store(true, Ordering::Release);
        prune::format::before_a_fatal_end(Some(give_back));
        static ABORT: std::sync::Once = std::sync::Once::new();
        ABORT.call_once(|| {
            // SAFETY: `on_abort` is async-signal-safe: an atomic, data saved before, system
            // calls, and signal-hook's emulation of the default action (which it says is).
            let _ =
                unsafe { signal_hook::low_level::register(signal_hook::consts::SIGABRT, on_abort) };
        });
    }

    /// SIGABRT, from `abort` (a failed allocation outside prune's allocator, a panic while
    /// panicking) or from another process: the terminal back, then the abort's own end.
    fn on_abort() {
        give_back();
        let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGABRT);
    }

    /// The explorer has given the terminal back itself: nothing more to do at a fatal end.
    pub(super) fn disarm() {
        ARMED.store(false, Ordering::Release);
        prune::format::before_a_fatal_end(None);
    }

    /// Gives the terminal back, once, if the explorer holds it.
    fn give_back() {
        if !ARMED.swap(false, Ordering::AcqRel) {
            return;
        }
        let Some((modes, bytes)) = SAVED.get() else {
            return;
        };
        // SAFETY: the process's standard streams, open for its whole life.
        let (stdin, stdout) = unsafe {
            (
                rustix::fd::BorrowedFd::borrow_raw(0),
                rustix::fd::BorrowedFd::borrow_raw(1),
            )
        };
        if let Some(modes) = modes {
            let _ = tcsetattr(stdin, OptionalActions::Now, modes);
        }
        let mut rest: &[u8] = bytes;
        while !rest.is_empty() {
            match rustix::io::write(stdout, rest) {
                Ok(0) | Err(_) => break,
                Ok(n) => rest = &rest[n..],
            }
        }
    }
}

/// Runs the explorer until the user quits. When the file it was asked to open cannot be
/// loaded, it ends at once and returns the loader's report.
pub fn run(opts: Options) -> io::Result<Option<String>> {
    let mut app = configured_app(opts);
    // A panic restores the terminal before its message is printed.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    watch_for_the_end()?;
    #[cfg(unix)]
    last_words::arm();
    enable_raw_mode()?;
    let _guard = Guard;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    event_loop(&mut terminal, &mut app)?;
    Ok(app.jobs.fatal.take())
}

/// Gives the terminal back and ends the process with `code`, whatever the main thread is doing
/// (drawing, waiting for a key, or stuck reading a terminal that is gone).
fn leave(code: i32) -> ! {
    restore();
    prune::format::remove_temporaries_and_exit(code)
}

/// Ends the explorer from other threads: SIGTERM, SIGINT and SIGHUP end it with the
/// conventional status 128 + the signal's number, and so does the terminal going away (a closed
/// window, a dropped ssh connection, a killed tmux session: the terminal hangs up, status 129).
/// Neither waits for the main loop, which a dead terminal can keep spinning.
fn watch_for_the_end() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])?;
    std::thread::Builder::new()
        .name("prune-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                leave(128 + sig);
            }
        })?;
    #[cfg(unix)]
    std::thread::Builder::new()
        .name("prune-hangup".into())
        .spawn(|| {
            loop {
                if terminal_hung_up() {
                    leave(128 + SIGHUP);
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })?;
    Ok(())
}

/// Whether the terminal on standard input has hung up (or its descriptor is no longer valid).
/// Polling for no event at all reports exactly these conditions, never pending keys.
#[cfg(unix)]
fn terminal_hung_up() -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec};
    let stdin = io::stdin();
    let mut fds = [PollFd::new(&stdin, PollFlags::empty())];
    let zero = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    match rustix::event::poll(&mut fds, Some(&zero)) {
        Ok(_) => fds[0]
            .revents()
            .intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL),
        Err(_) => true,
    }
}

/// Draws and updates until the user quits: each pass a tick, a frame (whose layout goes back to
/// the app), and every terminal event already queued, all through [`App::update`].
fn event_loop(terminal: &mut Terminal<CrosstermBackend<Stdout>>, app: &mut App) -> io::Result<()> {
    // Debug builds only: a deliberate panic after the first frame, so the end-to-end tests can
    // check that a panic gives the terminal back.
    // Likewise memory running out (a real failed allocation, too big for any machine).
    let test_panic = cfg!(debug_assertions) && std::env::var_os("PRUNE_TEST_PANIC").is_some();
    let test_out_of_memory =
        cfg!(debug_assertions) && std::env::var_os("PRUNE_TEST_OUT_OF_MEMORY").is_some();
    let mut frames = 0u64;
    while !app.quitting() {
        if test_panic && frames == 1 {
            panic!("PRUNE_TEST_PANIC is set: panicking to test terminal restoration");
        }
        if test_out_of_memory && frames == 1 {
            std::hint::black_box(Vec::<u8>::with_capacity(1 << 60));
        }
        frames += 1;
        app.update(app::Event::Tick(Instant::now()));
        terminal.draw(|f| {
            let hit = draw::draw(f, app);
            app.update(app::Event::Drawn(hit));
        })?;
        let busy = app.player().playing() || app.pending().is_some();
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
            if app.quitting() || !event::poll(Duration::ZERO)? {
                break;
            }
        }
    }
    Ok(())
}

/// One terminal event, as the app's [`app::Event`]; `None` for what the explorer ignores.
fn event_of(e: Event) -> Option<app::Event> {
    match e {
        Event::Key(k) if k.kind != KeyEventKind::Release => {
            Key::from_event(&k).map(app::Event::Key)
        }
        Event::Mouse(m) => match m.kind {
            MouseEventKind::ScrollDown => Some(app::Event::Scroll { down: true }),
            MouseEventKind::ScrollUp => Some(app::Event::Scroll { down: false }),
            MouseEventKind::Down(MouseButton::Left) => Some(app::Event::Click(m.column, m.row)),
            _ => None,
        },
        _ => None,
    }
}

/// One terminal event.
pub fn handle(app: &mut App, e: Event) {
    if let Some(e) = event_of(e) {
        app.update(e);
    }
}
