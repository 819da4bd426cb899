//! The built-in example tree: what `prune` opens with no file, and what tests and benchmarks
//! can take without going through the command line.

use std::sync::Arc;

use crate::format;
use crate::tree::Tree;

/// The text of `trees/default.ron`, compiled into the binary.
pub const DEFAULT_TREE: &str = include_str!("../trees/default.ron");

/// Where the built-in tree "comes from", for title bars and trace headers.
pub const DEFAULT_SOURCE: &str = "(built-in example)";

/// The built-in example tree.
pub fn default_tree() -> Tree {
    format::ron::parse(DEFAULT_SOURCE, Arc::from(DEFAULT_TREE)).expect("the built-in tree is valid")
}
