//! Editing the tree: one change to one node — its label, kind, value (or payoff vector), the
//! probabilities of the chance node's children it is edited with, a new leaf child, a deleted
//! subtree — applied by rebuilding the tree through
//! [`Draft`] in preorder, so the loader's own validation decides whether the result is a tree.
//! A refused edit comes back with the loader's message and the tree is left as it was.
//!
//! Nodes are named across trees by their *path* (child positions from the root): ids are
//! breadth-first and change with every insertion or deletion, paths only where the edit was.
//!
//! This file is the tree mutation; `form` is the edit form and `history` undo and redo. What
//! the edit keys do to the tree on screen is [`super::doc`]'s.

mod form;
mod history;

use prune::tree::{Draft, DraftNode, Kind, NodeId, Tree};

pub use form::{edit_form, edit_of, probability_sum};
pub use history::{History, Replacing, UNDO_DEPTH, Version, compared};

/// One change to the node at `path`.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// New fields for the node: `None` keeps what is there.
    Set {
        label: Option<String>,
        kind: Option<Kind>,
        /// A two-player leaf's value, or an n-player leaf's payoff vector.
        value: Option<Vec<f64>>,
        /// The probability of each child of the node's [`chance_family`], in child order: all
        /// `None` makes them equally likely; the loader refuses a mix, or a sum other than 1.
        probs: Option<Vec<Option<f64>>>,
    },
    /// A new leaf (value 0, or a vector of zeros) after the node's last child.
    AddChild,
    /// The node and everything under it.
    Delete,
}

/// The chance node whose children's probabilities are edited with `id`: `id` itself when it is
/// a chance node with children, else its parent when that is one.
pub fn chance_family(tree: &Tree, id: NodeId) -> Option<NodeId> {
    if tree.kind(id) == Kind::Chance && tree.child_count(id) > 0 {
        return Some(id);
    }
    tree.parent(id).filter(|&p| tree.kind(p) == Kind::Chance)
}

/// Child positions from the root to `id`.
pub fn path_of(tree: &Tree, id: NodeId) -> Vec<usize> {
    tree.path_to(id)
        .iter()
        .skip(1)
        .map(|&n| tree.child_index(n))
        .collect()
}

/// The node at `path`, or the deepest ancestor of it that exists.
pub fn node_at(tree: &Tree, path: &[usize]) -> NodeId {
    let mut id = tree.root();
    for &i in path {
        if i >= tree.child_count(id) {
            break;
        }
        id = tree.child(id, i);
    }
    id
}

/// `tree` with `edit` applied to `target`, validated as the loader validates a file; the error
/// is the loader's message (and hint).
pub fn apply(tree: &Tree, target: NodeId, edit: &Edit) -> Result<Tree, String> {
    if *edit == Edit::Delete && target == tree.root() {
        return Err("the root cannot be deleted".into());
    }
    if *edit == Edit::AddChild && tree.is_leaf(target) {
        return Err("a leaf has no children: change its kind first (E)".into());
    }
    let parent = tree.parent(target);
    // New probabilities for the children of the chance node `f`.
    let new_probs = match (edit, chance_family(tree, target)) {
        (
            Edit::Set {
                probs: Some(ps), ..
            },
            Some(f),
        ) => Some((f, ps)),
        _ => None,
    };
    if let Some((f, ps)) = new_probs
        && ps.len() != tree.child_count(f)
    {
        return Err(format!(
            "{} probabilities for {} children",
            ps.len(),
            tree.child_count(f)
        ));
    }
    let mut draft = Draft::with_capacity(tree.meta().clone(), tree.len() + 1);
    let mut skip_until: Option<usize> = None;
    let sizes = tree.subtree_sizes();
    for (rank, id) in tree.preorder().enumerate() {
        if let Some(end) = skip_until {
            if rank < end {
                continue;
            }
            skip_until = None;
        }
        let mut node = tree.draft_node(id);
        node.children = tree.child_count(id) as u32;
        if Some(id) == parent && *edit == Edit::Delete {
            node.children -= 1;
        }
        if let Some((f, ps)) = new_probs
            && tree.parent(id) == Some(f)
        {
            node.prob = ps[tree.child_index(id)];
        }
        if parent.is_some() && tree.parent(id) == parent && id != target {
            // A sibling of a deleted child of a chance node: the rest are rescaled to sum to 1.
            if let (Edit::Delete, Some(p)) = (edit, node.prob) {
                let gone = tree.prob(target);
                node.prob = Some(p / (1.0 - gone));
            }
        }
        if id == target {
            match edit {
                Edit::Delete => {
                    skip_until = Some(rank + sizes[id.index()] as usize);
                    continue;
                }
                Edit::AddChild => {
                    // Under a chance node the children become equally likely again.
                    draft.push(DraftNode {
                        children: node.children + 1,
                        ..node
                    });
                    push_subtrees(&mut draft, tree, id, false);
                    let mut leaf = if tree.is_multiplayer() {
                        DraftNode::payoff(vec![0.0; tree.players()])
                    } else {
                        DraftNode::leaf(0.0)
                    };
                    leaf.prob = None;
                    draft.push(leaf);
                    skip_until = Some(rank + sizes[id.index()] as usize);
                    continue;
                }
                Edit::Set {
                    label, kind, value, ..
                } => {
                    if let Some(l) = label {
                        node.label = (!l.is_empty()).then(|| l.clone());
                    }
                    if let Some(v) = value {
                        if tree.is_multiplayer() {
                            node.payoff = v.clone();
                        } else {
                            node.value = v.first().copied().unwrap_or(0.0);
                            if v.len() != 1 {
                                return Err(format!(
                                    "a leaf of a two-player tree has one value, not {}",
                                    v.len()
                                ));
                            }
                        }
                    }
                    match kind {
                        Some(k) if *k != node.kind => {
                            let was_chance = node.kind == Kind::Chance;
                            node.kind = *k;
                            if *k == Kind::Leaf {
                                // The subtree goes: the node becomes a leaf worth 0, and a
                                // leaf has no heuristic value.
                                node.children = 0;
                                node.heuristic = None;
                                if tree.is_multiplayer() {
                                    node.payoff = vec![0.0; tree.players()];
                                }
                                draft.push(node);
                                skip_until = Some(rank + sizes[id.index()] as usize);
                                continue;
                            }
                            if tree.is_leaf(id) {
                                // A leaf made interior keeps its value in one leaf child.
                                let child = tree.draft_node(id);
                                node.children = 1;
                                node.payoff = Vec::new();
                                node.value = 0.0;
                                draft.push(node);
                                draft.push(DraftNode {
                                    prob: None,
                                    label: None,
                                    ..child
                                });
                                continue;
                            }
                            if was_chance {
                                // The children of a node no longer chance carry no probability.
                                draft.push(node);
                                push_subtrees(&mut draft, tree, id, false);
                                skip_until = Some(rank + sizes[id.index()] as usize);
                                continue;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        draft.push(node);
    }
    draft.finish().map_err(|e| match e.hint {
        Some(h) => format!("{}\n  hint: {h}", e.message),
        None => e.message,
    })
}

/// The subtrees under `id` in preorder; with `keep_probs` false, its children's probabilities
/// are dropped (equally likely, or none under a node that is no longer chance).
fn push_subtrees(draft: &mut Draft, tree: &Tree, id: NodeId, keep_probs: bool) {
    let mut stack: Vec<NodeId> = tree.children(id).rev().collect();
    while let Some(n) = stack.pop() {
        let mut node = tree.draft_node(n);
        node.children = tree.child_count(n) as u32;
        if tree.parent(n) == Some(id) && !keep_probs {
            node.prob = None;
        }
        draft.push(node);
        stack.extend(tree.children(n).rev());
    }
}

/// A number as the tree files write it: a decimal, or a fraction such as `1/3`.
pub fn parse_number(s: &str, what: &str) -> Result<f64, String> {
    let s = s.trim();
    let bad = || format!("{what}: `{s}` is not a number (write 3, -1.5 or 1/3)");
    let v = match s.split_once('/') {
        Some((a, b)) => {
            let a: f64 = a.trim().parse().map_err(|_| bad())?;
            let b: f64 = b.trim().parse().map_err(|_| bad())?;
            a / b
        }
        None => s.parse().map_err(|_| bad())?,
    };
    if v.is_finite() { Ok(v) } else { Err(bad()) }
}

/// A value or a payoff vector: numbers separated by commas or spaces, brackets optional.
pub fn parse_values(s: &str) -> Result<Vec<f64>, String> {
    let inner = s.trim().trim_start_matches('[').trim_end_matches(']');
    let v: Vec<f64> = inner
        .split([',', ' '])
        .filter(|t| !t.trim().is_empty())
        .map(|t| parse_number(t, "value"))
        .collect::<Result<_, _>>()?;
    if v.is_empty() {
        return Err("value: type a number".into());
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::form::FieldId;
    use prune::examples::default_tree;
    use prune::format::{Format, write};

    fn first_leaf(t: &Tree) -> NodeId {
        t.preorder().find(|&n| t.is_leaf(n)).unwrap()
    }

    #[test]
    fn a_leaf_value_changes_and_nothing_else() {
        let t = default_tree();
        let leaf = first_leaf(&t);
        let e = Edit::Set {
            label: None,
            kind: None,
            value: Some(vec![7.0]),
            probs: None,
        };
        let u = apply(&t, leaf, &e).unwrap();
        assert_eq!(u.len(), t.len());
        let path = path_of(&t, leaf);
        assert_eq!(u.value(node_at(&u, &path)), 7.0);
        // The file's declared bounds hold for edits as for the loader.
        let out = Edit::Set {
            label: None,
            kind: None,
            value: Some(vec![42.0]),
            probs: None,
        };
        let err = apply(&t, leaf, &out).unwrap_err();
        assert!(err.contains("outside the declared bounds"), "{err}");
        let back = Edit::Set {
            value: Some(vec![t.value(leaf)]),
            label: None,
            kind: None,
            probs: None,
        };
        let v = apply(&u, node_at(&u, &path), &back).unwrap();
        assert_eq!(write(&v, Format::Ron), write(&t, Format::Ron));
    }

    #[test]
    fn edits_keep_position_keys_and_heuristic_values() {
        use prune::generate::{Spec, game::GameSpec};
        let t = Spec::Game(GameSpec::TicTacToe { depth: Some(3) })
            .build(1)
            .unwrap();
        let a1 = t.child(t.root(), 0);
        let relabel = Edit::Set {
            label: Some("corner".into()),
            kind: None,
            value: None,
            probs: None,
        };
        let u = apply(&t, a1, &relabel).unwrap();
        assert_eq!(u.label(a1), Some("corner"));
        for id in t.ids() {
            assert_eq!((u.key(id), u.heuristic(id)), (t.key(id), t.heuristic(id)));
        }
        // An interior node made a leaf loses its heuristic (a leaf's value is its own) and keeps
        // its key; deleting a child keeps every other node's.
        let to_leaf = Edit::Set {
            label: None,
            kind: Some(Kind::Leaf),
            value: None,
            probs: None,
        };
        let v = apply(&t, a1, &to_leaf).unwrap();
        let leaf = v.child(v.root(), 0);
        assert!(v.is_leaf(leaf));
        assert_eq!((v.key(leaf), v.heuristic(leaf)), (t.key(a1), None));
        let w = apply(&t, t.child(t.root(), 8), &Edit::Delete).unwrap();
        assert_eq!(w.key(w.child(w.root(), 7)), t.key(t.child(t.root(), 7)));
        assert_eq!(w.heuristic(w.root()), t.heuristic(t.root()));
    }

    #[test]
    fn add_and_delete_children() {
        let t = default_tree();
        let root = t.root();
        let n = t.child_count(root);
        let u = apply(&t, root, &Edit::AddChild).unwrap();
        assert_eq!(u.child_count(u.root()), n + 1);
        assert_eq!(u.len(), t.len() + 1);
        let added = u.child(u.root(), n);
        assert!(u.is_leaf(added));
        let v = apply(&u, added, &Edit::Delete).unwrap();
        assert_eq!(write(&v, Format::Ron), write(&t, Format::Ron));
        assert!(apply(&t, root, &Edit::Delete).is_err());
        let c = t.child(root, 0);
        let w = apply(&t, c, &Edit::Delete).unwrap();
        assert_eq!(w.len(), t.len() - t.subtree_sizes()[c.index()] as usize);
    }

    #[test]
    fn kinds_change_and_bad_probabilities_are_refused_with_the_loaders_message() {
        let t = default_tree();
        let root = t.root();
        let chance = Edit::Set {
            label: Some("dice".into()),
            kind: Some(Kind::Chance),
            value: None,
            probs: None,
        };
        let u = apply(&t, root, &chance).unwrap();
        assert_eq!(u.kind(u.root()), Kind::Chance);
        assert_eq!(u.label(u.root()), Some("dice"));
        let c = u.child(u.root(), 0);
        let probs = |ps: &[Option<f64>]| Edit::Set {
            label: None,
            kind: None,
            value: None,
            probs: Some(ps.to_vec()),
        };
        let err = apply(&u, c, &probs(&[Some(0.5), None, None])).unwrap_err();
        assert!(
            err.contains("have a probability and this one has none"),
            "{err}"
        );
        let err = apply(&u, c, &probs(&[Some(0.5), Some(0.25), Some(0.5)])).unwrap_err();
        assert!(err.contains("sum to 1.25, not 1"), "{err}");
        // From the chance node or from any child, the same three probabilities.
        let halves = [Some(0.5), Some(0.25), Some(0.25)];
        let from_child = apply(&u, u.child(u.root(), 2), &probs(&halves)).unwrap();
        let from_node = apply(&u, u.root(), &probs(&halves)).unwrap();
        assert_eq!(
            write(&from_child, Format::Ron),
            write(&from_node, Format::Ron)
        );
        assert_eq!(from_node.prob(from_node.child(from_node.root(), 0)), 0.5);
        assert!(apply(&u, c, &probs(&[Some(1.0)])).is_err());
        // Back to max: the probabilities go with the chance node.
        let max = Edit::Set {
            label: None,
            kind: Some(Kind::Max),
            value: None,
            probs: None,
        };
        assert!(apply(&u, u.root(), &max).is_ok());
        let leaf = first_leaf(&t);
        let interior = Edit::Set {
            label: None,
            kind: Some(Kind::Min),
            value: None,
            probs: None,
        };
        let w = apply(&t, leaf, &interior).unwrap();
        let l = node_at(&w, &path_of(&t, leaf));
        assert_eq!(w.kind(l), Kind::Min);
        assert_eq!(w.value(w.child(l, 0)), t.value(leaf));
    }

    #[test]
    fn a_payoff_vector_of_the_wrong_length_is_refused() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("trees/four-players.ron");
        let t = prune::format::load(&path, None).unwrap();
        let leaf = first_leaf(&t);
        let short = Edit::Set {
            label: None,
            kind: None,
            value: Some(vec![1.0, 2.0]),
            probs: None,
        };
        let err = apply(&t, leaf, &short).unwrap_err();
        assert!(err.contains("payoff"), "{err}");
        // Four payoffs, and summing to the declared 12.
        let right = Edit::Set {
            label: None,
            kind: None,
            value: Some(vec![3.0; 4]),
            probs: None,
        };
        let u = apply(&t, leaf, &right).unwrap();
        assert_eq!(u.payoff(node_at(&u, &path_of(&t, leaf))), vec![3.0; 4]);
        let form = edit_form(&t, t.root());
        assert_eq!(form.choice(FieldId::Kind), Ok("player 1"));
    }

    #[test]
    fn numbers_and_vectors() {
        assert_eq!(parse_number(" 1/4 ", "p"), Ok(0.25));
        assert!(parse_number("x", "p").unwrap_err().contains("not a number"));
        assert_eq!(parse_values("[1, 2 3]"), Ok(vec![1.0, 2.0, 3.0]));
        assert!(parse_values("").is_err());
    }
}
