//! prune: game-tree search, step by step — the library under the `prune` explorer.
//!
//! What a game programmer does first, in three steps: implement [`game::Game`] for a game,
//! search it with any algorithm by name ([`run`]), and record a search as a trace that prune
//! checks against the algorithm's rules ([`protocol`]).
//!
//! # 1. A game of your own
//!
//! A game is a start position, the moves at each position and what a finished game is worth.
//! Nim with one heap, in which a move takes one or two objects and taking the last one wins:
//!
//! ```
//! use prune::game::{Game, Outcome, Turn};
//!
//! /// (objects left, whether Max is to move)
//! struct TakeOneOrTwo(u32);
//!
//! impl Game for TakeOneOrTwo {
//!     type Position = (u32, bool);
//!     type Move = u32;
//!
//!     fn name(&self) -> String {
//!         format!("take one or two from {}", self.0)
//!     }
//!     fn start(&self) -> (u32, bool) {
//!         (self.0, true)
//!     }
//!     fn outcome(&self, &(left, max): &(u32, bool)) -> Option<Outcome> {
//!         // The player who just moved took the last object.
//!         (left == 0).then(|| Outcome::Value(if max { -1.0 } else { 1.0 }))
//!     }
//!     fn turn(&self, &(_, max): &(u32, bool)) -> Turn {
//!         if max { Turn::Max } else { Turn::Min }
//!     }
//!     fn moves(&self, &(left, _): &(u32, bool), moves: &mut Vec<u32>) {
//!         moves.extend((1..=2).filter(|&k| k <= left));
//!     }
//!     fn play(&self, &(left, max): &(u32, bool), &k: &u32) -> (u32, bool) {
//!         (left - k, !max)
//!     }
//!     fn label(&self, _: &(u32, bool), k: &u32) -> String {
//!         format!("take {k}")
//!     }
//!     // Optional: a key for each position lets a transposition table recognise it.
//!     fn key(&self, &(left, max): &(u32, bool)) -> Option<u64> {
//!         Some(u64::from(left) << 1 | u64::from(max))
//!     }
//! }
//!
//! // Search it, from its rules, with any algorithm named as on the command line.
//! let answer = prune::run(&prune::Rules::new(&TakeOneOrTwo(7), 7), "negascout:tt")?;
//! assert_eq!(answer.value.scalar(), Some(1.0)); // 7 is no multiple of 3: Max wins
//! assert_eq!(answer.best.len(), 1); // the only winning move: take 1, leaving 6
//! assert_eq!(answer.best[0].label, "take 1");
//! assert_eq!(answer.pv[2].label, "take 2"); // Min took one (both lose), Max leaves 3
//!
//! // Or write its tree out once and search that: every algorithm, trace and picture works on it.
//! let tree = prune::game::tree(&TakeOneOrTwo(6), None)?;
//! assert_eq!(prune::run(&tree, "alphabeta")?.value.scalar(), Some(-1.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # 2. Search a stored tree
//!
//! Trees come from files ([`format::load`]), bracket expressions ([`format::parse_expr`]),
//! generators ([`generate`]) or games ([`game::tree`]); [`run`] takes any of them:
//!
//! ```
//! let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false)?;
//! let answer = prune::run(&tree, "alphabeta")?;
//! assert_eq!(answer.value.scalar(), Some(3.0));
//! // Alpha-beta skips 4 and 6 below the second move, 5 and 2 below the third.
//! assert_eq!((answer.stats.leaves, answer.stats.cutoffs), (7, 2));
//! // A misspelt algorithm is an error that says what was meant.
//! assert!(prune::run(&tree, "alphabta").unwrap_err().to_string().contains("alphabeta"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! For more than statistics — a full trace, any step replayed, the principal variation —
//! [`search::search`] takes an [`search::Observer`] and [`trace::record`] records.
//!
//! # 3. Check an engine's search
//!
//! An engine in any language writes one JSON line per event as it searches (docs/PROTOCOL.md);
//! [`protocol::check`] walks the lines by the claimed algorithm's rules and reports the first
//! departure. Here an alpha-beta that forgot to cut off after `a2`'s first leaf:
//!
//! ```
//! use std::sync::Arc;
//! use prune::protocol::{check::check, read::parse};
//!
//! let lines = [
//!     r#"{"protocol":"prune-trace","version":1,"engine":"mine","algorithm":"alphabeta-fail-hard","values":"minimax"}"#,
//!     r#"{"event":"enter","path":[],"alpha":null,"beta":null,"player":"max"}"#,
//!     r#"{"event":"enter","path":["a"],"alpha":null,"beta":null,"player":"min"}"#,
//!     r#"{"event":"leaf","path":["a",0],"value":5}"#,
//!     r#"{"event":"exit","path":["a"],"value":5,"bound":"exact"}"#,
//!     r#"{"event":"enter","path":["b"],"alpha":5,"beta":null,"player":"min"}"#,
//!     r#"{"event":"leaf","path":["b",0],"value":2}"#,
//!     r#"{"event":"leaf","path":["b",1],"value":9}"#,
//! ];
//! let text: Arc<str> = lines.join("\n").into();
//! let report = check(&parse("engine.jsonl", &text)?);
//! let departure = report.departure.expect("b's second leaf is searched after 2 ≤ α = 5");
//! assert_eq!(prune::protocol::path_text(&departure.path), "b");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The modules
//!
//! The layout follows the data flow: input [`format`](mod@format)s, [`generate`]ors and [`game`]s produce a
//! [`tree::Tree`]; search algorithms run on it and report to an observer; the views (pictures,
//! traces, tables) read what the search produced.
//!
//! - [`tree`] — the validated flat arena, its preorder [`tree::Draft`] form and shape summary;
//!   [`tree::names`], how nodes and moves are named.
//! - [`format`](mod@format) — RON (native), Gambit `.efg` and bracket notation; diagnostics with positions.
//! - [`game`] — games from their rules: the [`game::Game`] trait, the built-in games, a game's
//!   tree written out or searched lazily; [`run`] and [`Rules`], the one front door for searching
//!   a tree or a game by an algorithm's name.
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
//! - [`examples`] — the built-in example tree.
//!
//! The explorer, the command line and the experiments are the application beside this library
//! (the crate `prune-cli`, binary `prune`); nothing of them is here.

// Every public item of the library says what it is for.
#![warn(missing_docs)]

pub mod analyze;
pub mod draw;
mod entry;
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

pub use entry::{Move, Rules, RunError, Searched, Subject, run};
