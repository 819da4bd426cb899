//! The `prune` application: the command line, the explorer and the papers' experiments, built on
//! the [`prune`] library. Not an API: a library for use outside this crate is `prune` itself;
//! this crate is a library only so that its tests and benches can reach the command line and
//! the explorer.

#![allow(rustdoc::private_intra_doc_links)]

pub mod cli;
pub mod experiment;
pub mod tui;
