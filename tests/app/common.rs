//! Helpers the application's tests share.

// Not every helper is used by every build of the tests (some tests are Unix-only).
#![allow(dead_code)]

use std::process::{Command, Output};

use prune::search::{self, Algorithm, Counter, Value};
use prune::tree::{Draft, NodeId, Tree};

/// The subtree of `t` below `root`, keys and heuristic values kept.
pub fn subtree(t: &Tree, root: NodeId) -> Tree {
    let mut d = Draft::new(t.meta().clone());
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let mut node = t.draft_node(n);
        node.children = t.child_count(n) as u32;
        d.push(node);
        stack.extend(t.children(n).rev());
    }
    d.finish().expect("a subtree of a valid tree is valid")
}

/// The root value `algo` finds on `tree`, a number (panics on a refusal or a payoff vector).
pub fn scalar_value(tree: &Tree, algo: &Algorithm) -> f64 {
    let mut counter = Counter::new(tree.len());
    let (found, _) =
        search::search(tree, algo, &mut counter).unwrap_or_else(|e| panic!("{algo}: {e}"));
    match found.value {
        Value::Scalar(v) => v,
        v => panic!("{algo}: not a scalar: {v}"),
    }
}

/// Every improvement alone and in combination, on alpha-beta, NegaScout and MTD(f) — all of
/// them order children at search time — `W` standing for the game's aspiration half-width.
pub const IMPROVED: &[&str] = &[
    "alphabeta:tt",
    "alphabeta:fail-soft:tt",
    "alphabeta:killers",
    "alphabeta:history",
    "alphabeta:tt:killers:history",
    "alphabeta:id",
    "alphabeta:id:aspiration=W",
    "alphabeta:tt:id",
    "alphabeta:tt:id:aspiration=W:killers:history",
    "negascout:tt",
    "negascout:killers:history",
    "negascout:id:aspiration=W",
    "negascout:tt:id:aspiration=W:killers:history",
    "mtdf:tt",
    "mtdf:id",
    "mtdf:tt:id",
];

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
