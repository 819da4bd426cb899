//! Helpers the application's tests share.

// Not every helper is used by every build of the tests (some tests are Unix-only).
#![allow(dead_code)]

use std::process::{Command, Output};

use prune::tree::Tree;

/// The helpers over the library alone (a subtree, a scalar value, the improved searches'
/// names) are the library tests' own, shared rather than copied.
#[path = "../../crates/prune/tests/library/common.rs"]
#[allow(dead_code)]
mod library;
pub use library::{IMPROVED, scalar_value, subtree};

/// Runs this build's `prune` binary with `args`.
pub fn prune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prune"))
        .args(args)
        .output()
        .expect("run prune")
}

/// What a run printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes the uniform tree of 10^6 leaves (branching 10, depth 6; 8 MB of RON, 31 MB of .efg,
/// by `path`'s extension) to `path`: a load or a write long enough to be interrupted or
/// measured.
pub fn write_million_leaves(path: &std::path::Path) {
    let path = path.to_str().expect("a UTF-8 path");
    let o = prune(&["gen", "uniform", "-b", "10", "-d", "6", "-o", path]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The explorer on `tree` in monochrome with the default keys: screens that do not depend on
/// the user's configuration.
pub fn explorer(tree: Tree) -> prune_cli::tui::App {
    use prune_cli::tui::keymap::Keymap;
    use prune_cli::tui::theme::Theme;
    prune_cli::tui::App::new(
        tree,
        "(test)".into(),
        Keymap::default(),
        vec![Theme::monochrome()],
    )
}

/// Runs `algos` on the explorer's tree, as `App::run_now` does (the last one current), each
/// at its end: the views these tests look at show finished searches, and a run opens at step 0.
pub fn run_at_end(app: &mut prune_cli::tui::App, algos: &[prune::search::Algorithm]) {
    for a in algos {
        let mut r = prune_cli::tui::RunView::new(app.tree(), a.clone()).expect("it applies");
        r.step = r.trace.len();
        app.push_run(r);
    }
}

/// A drawn test buffer as text: its rows, trailing blanks cut.
pub fn buffer_text(buf: &ratatui::buffer::Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Types `keys` (names as in a keymap file), letting background work finish after each.
pub fn keys(app: &mut prune_cli::tui::App, keys: &[&str]) {
    for k in keys {
        app.key(prune_cli::tui::keymap::Key::parse(k).unwrap());
        app.wait();
    }
}
