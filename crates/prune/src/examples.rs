//! The built-in example tree: what `prune` opens with no file, and what tests and benchmarks
//! can take without going through the command line.

use crate::format;
use crate::tree::{Draft, DraftNode, Meta, Tree};

/// The text of `trees/default.ron`, compiled into the binary.
pub const DEFAULT_TREE: &str = include_str!("../../../trees/default.ron");

/// Where the built-in tree "comes from", for title bars and trace headers.
pub const DEFAULT_SOURCE: &str = "(built-in example)";

/// The built-in example tree.
pub fn default_tree() -> Tree {
    format::ron::parse(DEFAULT_SOURCE, DEFAULT_TREE.into()).expect("the built-in tree is valid")
}

/// What the explorer shows while the file named on the command line loads: a single leaf whose
/// name says so.
pub fn loading_tree(what: &str) -> Tree {
    let mut d = Draft::new(Meta {
        name: format!("loading {what}…"),
        players: 2,
        ..Meta::default()
    });
    d.push(DraftNode::leaf(0.0));
    d.finish().expect("a single leaf is a tree")
}
