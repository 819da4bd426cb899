//! The `prune` application: the command line, the explorer and the papers' experiments, built on
//! the [`prune`] library. Not an API: a library for use outside this crate is `prune` itself;
//! this crate is a library only so that its tests and benches can reach the command line and
//! the explorer.

#![allow(rustdoc::private_intra_doc_links)]

/// The command line (clap); the binary `prune` is a thin wrapper around it. Its documentation is
/// `prune --help`, not an API (a doc comment on a clap field is help text).
#[allow(rustdoc::broken_intra_doc_links)]
pub mod cli;
pub mod experiment;
/// The explorer (ratatui + crossterm): state, lazy outline, drawing, keymap, themes. Its design
/// notes may link to its private parts.
#[allow(rustdoc::broken_intra_doc_links)]
pub mod tui;
