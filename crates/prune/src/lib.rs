//! prune: explore game-tree search.
//!
//! The layout follows the data flow: input [`format`](mod@format)s and [`generate`]ors produce a
//! [`tree::Tree`]; search algorithms run on it and report to an observer; the views (TUI, CLI,
//! exports) and the experiments read what the search produced.
//!
//! - [`tree`] — the validated flat arena, its preorder [`tree::Draft`] form and shape summary;
//!   [`tree::names`], how nodes and moves are named.
//! - [`format`](mod@format) — RON (native), Gambit `.efg` and bracket notation; diagnostics with positions.
//! - [`generate`] — seeded generators: uniform, *-complete, win-loss, chance, n-player, random.
//! - [`memory`] — how much memory prune may still use (available memory, `ulimit -v`, cgroup);
//!   the binary's global allocator (big blocks mapped on their own, the arena's hot columns on
//!   transparent huge pages).
//! - [`search`] — every algorithm, one file each, generic over an [`search::Observer`].
//! - [`text`] — how numbers and counts are written and untrusted text escaped, the same in
//!   every view and format; below the tree, which uses it.
//! - `exact` — simple fractions and their exact sums, for chance nodes; below the tree, which
//!   asks whether its numbers are all simple fractions.
//! - [`trace`] — recorded events, [`trace::Replay`] to any step, JSONL/CSV/DOT export.
//! - [`protocol`] — the trace protocol any engine can write (docs/PROTOCOL.md): prune's runs
//!   written in it, engines' traces read, checked against their algorithm's rules and a tree.
//! - [`draw`] — the tree drawn top-down as in the papers, at any step of a run: text, SVG,
//!   TikZ, DOT.
//! - [`report`] — result tables (typed cells, named columns) as aligned text, CSV and JSON.
//! - [`analyze`] — Knuth–Moore node types and the minimal tree.
//! - `tui` — the explorer (ratatui + crossterm): state, lazy outline, drawing, keymap, themes.
//! - [`examples`] — the built-in example tree.
//! - [`experiment`] — the papers' tables recomputed, in parallel, with the printed figures beside.
//! - `cli` — the command line (clap); the binary `prune` is a thin wrapper around it.

// Every public item of the library says what it is for.
#![warn(missing_docs)]

pub mod analyze;
pub mod draw;
mod exact;
pub mod examples;
pub mod format;
pub mod game;
pub mod generate;
pub mod hash;
pub mod memory;
pub mod protocol;
pub mod report;
pub mod search;
pub mod text;
pub mod trace;
pub mod tree;
