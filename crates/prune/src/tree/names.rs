//! How a node and its kind are named in messages, sentences and on screen, the same in every
//! view: a node by its label or its path of child numbers, a move by its label or its number.
//! These read the tree, so they live under it; numbers and escaping are in [`crate::text`],
//! which the tree itself uses.

use super::{Kind, NodeId, Tree};
use crate::text::terminal_safe;

/// A node's kind as one glyph: `+ − *`, the player's number, `□` for a leaf.
pub fn kind_glyph(k: Kind) -> String {
    match k {
        Kind::Max => "+".into(),
        Kind::Min => "−".into(),
        Kind::Chance => "*".into(),
        Kind::Player(p) => format!("{}", p + 1),
        Kind::Leaf => "□".into(),
    }
}

/// A node's kind in words: "+ node", "player 2 node", "leaf".
pub fn kind_words(k: Kind) -> String {
    match k {
        Kind::Max => "+ node".into(),
        Kind::Min => "− node".into(),
        Kind::Chance => "* node".into(),
        Kind::Player(p) => format!("player {} node", p + 1),
        Kind::Leaf => "leaf".into(),
    }
}

/// A node's name, the same on every screen and in every sentence: its label; else "the root";
/// else `#` and the path of child numbers from the root, counted from 1 as people count
/// (`#3.1` is the first child of the root's third child).
///
/// ```
/// use prune::tree::names::{move_name, node_name};
///
/// let tree = prune::format::parse_expr("(a=(1,2),(3,4))", false)?;
/// let (a, b) = (tree.child(tree.root(), 0), tree.child(tree.root(), 1));
/// assert_eq!(node_name(&tree, tree.root()), "the root");
/// assert_eq!(node_name(&tree, a), "a");
/// assert_eq!(node_name(&tree, tree.child(b, 1)), "#2.2");
/// assert_eq!(move_name(&tree, b), "#2");
/// # Ok::<(), prune::format::LoadError>(())
/// ```
pub fn node_name(tree: &Tree, id: NodeId) -> String {
    match tree.label(id) {
        Some(l) => terminal_safe(l).into_owned(),
        None if id == tree.root() => "the root".into(),
        None => format!("#{}", node_path(tree, id)),
    }
}

/// A node named by its place alone ("the root", `#3.1`), for messages that must tell nodes
/// apart whatever their labels, which need not be unique.
pub fn node_at(tree: &Tree, id: NodeId) -> String {
    if id == tree.root() {
        "the root".into()
    } else {
        format!("#{}", node_path(tree, id))
    }
}

/// The 1-based child numbers from the root down to `id`, joined by dots (`3.1`); empty for the
/// root.
pub fn node_path(tree: &Tree, id: NodeId) -> String {
    let mut steps = Vec::new();
    let mut node = id;
    while let Some(p) = tree.parent(node) {
        steps.push(tree.child_index(node) + 1);
        node = p;
    }
    let parts: Vec<String> = steps.iter().rev().map(usize::to_string).collect();
    parts.join(".")
}

/// A move's name: the child's label, or `#i` for child i counted from 1.
pub fn move_name(tree: &Tree, node: NodeId) -> String {
    match tree.label(node) {
        Some(l) => terminal_safe(l).into_owned(),
        None => format!("#{}", tree.child_index(node) + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Draft, DraftNode, Meta};

    #[test]
    fn labels_are_named_safely() {
        let mut d = Draft::new(Meta::default());
        d.push(DraftNode::interior(Kind::Max, 1));
        d.push(DraftNode::leaf(1.0).with_label("a\u{1b}[2Jb"));
        let t = d.finish().unwrap();
        let leaf = t.child(t.root(), 0);
        assert_eq!(node_name(&t, leaf), "a\\u{1b}[2Jb");
        assert_eq!(move_name(&t, leaf), "a\\u{1b}[2Jb");
    }

    #[test]
    fn unlabelled_nodes_are_named_by_their_path() {
        let t = crate::tree::samples::classic();
        let b = t.child(t.root(), 1);
        let leaf = t.child(b, 2);
        assert_eq!(node_name(&t, t.root()), "the root");
        assert_eq!(node_name(&t, b), "b");
        assert_eq!(node_path(&t, leaf), "2.3");
        assert_eq!(node_name(&t, leaf), "#2.3");
        assert_eq!(move_name(&t, leaf), "#3");
    }
}
