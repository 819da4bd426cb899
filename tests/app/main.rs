//! The application's tests in one binary (one link instead of two dozen): the command line run as
//! a user runs it, the explorer on `TestBackend`, the experiments, the games and the trace
//! protocol end to end. The real terminal (`tests/pty.rs`) and the peak-memory measure
//! (`tests/load_memory.rs`, its own allocator) are binaries of their own.

mod common;

mod chess;
mod cli;
mod compare;
mod deep;
#[cfg(unix)]
mod documented;
mod draw;
mod engine_example;
mod engine_variants;
mod experiments;
mod files;
mod first_minutes;
mod game_options;
mod games;
mod gen_spec;
mod huge;
mod improvements;
mod lazy_games;
mod malformed;
mod narration;
mod out_of_memory;
mod output_escaping;
mod plots;
mod protocol;
#[cfg(unix)]
mod pty_session;
mod shard;
mod tui;
mod tui_diagram;
