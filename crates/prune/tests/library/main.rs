//! The library's tests in one binary: every algorithm against its reference and the papers'
//! figures, the loaders and their fast paths, traces and transpositions — through the public
//! API alone, as a library user calls it.

mod common;

mod audit_sss_mtdf;
mod audit_star;
mod differential;
mod example_game;
mod exit_bounds;
mod export;
mod fast_paths;
mod games_from_rules;
mod games_never_panic;
mod improved_traces;
mod loaders;
mod multiplayer_chance;
mod paper_figures;
mod root_exit;
mod search_agree;
mod sss_sentences;
mod transpositions;
mod walk_agree;
