//! Editing the tree: one change to one node — its label, kind, value (or payoff vector), the
//! probabilities of the chance node's children it is edited with, a new leaf child, a deleted
//! subtree — applied by rebuilding the tree through
//! [`Draft`] in preorder, so the loader's own validation decides whether the result is a tree.
//! A refused edit comes back with the loader's message and the tree is left as it was.
//!
//! Nodes are named across trees by their *path* (child positions from the root): ids are
//! breadth-first and change with every insertion or deletion, paths only where the edit was.

use crate::tree::{Draft, DraftNode, Kind, NodeId, Tree};

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
    use crate::examples::default_tree;
    use crate::format::{Format, write};

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
        use crate::generate::{Spec, game::GameSpec};
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
        let t = crate::format::load(&path, None).unwrap();
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

    /// The example: `*(1/4:(1,2), 3/4:(3,4))` made 1/2:1/2 in the form, reached from
    /// the chance node and from a child, with the sum shown as it is typed.
    #[test]
    fn a_chance_nodes_probabilities_are_edited_together() {
        let t = crate::format::parse_expr("*(1/4:(1,2), 3/4:(3,4))", false).unwrap();
        for id in [t.root(), t.child(t.root(), 1)] {
            let mut form = edit_form(&t, id);
            let labels: Vec<&str> = form.prob_fields().map(|f| f.label.as_ref()).collect();
            assert_eq!(labels.len(), 2, "{labels:?}");
            assert_eq!(probability_sum(&form).as_deref(), Some("sum 1"));
            set_text(&mut form, FieldId::ChildProb(0), "1/2");
            assert_eq!(probability_sum(&form).as_deref(), Some("sum 1.25, not 1"));
            set_text(&mut form, FieldId::ChildProb(1), "0.5");
            assert_eq!(probability_sum(&form).as_deref(), Some("sum 1"));
            let u = apply(&t, id, &edit_of(&form).unwrap()).unwrap();
            let want = crate::format::parse_expr("*(1/2:(1,2), 1/2:(3,4))", false).unwrap();
            assert_eq!(write(&u, Format::Bracket), write(&want, Format::Bracket));
        }
        let child = edit_form(&t, t.child(t.root(), 0));
        assert_eq!(child.prob_fields().next().unwrap().label, "p #1 (this)");
    }

    fn set_text(form: &mut Form, id: FieldId, text: &str) {
        let f = form.fields.iter_mut().find(|f| f.id == id).unwrap();
        f.value = super::super::form::FieldValue::Text(text.into());
    }

    #[test]
    fn numbers_and_vectors() {
        assert_eq!(parse_number(" 1/4 ", "p"), Ok(0.25));
        assert!(parse_number("x", "p").unwrap_err().contains("not a number"));
        assert_eq!(parse_values("[1, 2 3]"), Ok(vec![1.0, 2.0, 3.0]));
        assert!(parse_values("").is_err());
    }
}

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::search::Algorithm;
use crate::text::number_text;

use super::app::App;
use super::form::{Field, FieldId, Form, Purpose};

/// How many earlier trees undo keeps.
pub const UNDO_DEPTH: usize = 100;

/// A tree as it was: what undo and redo go back to.
#[derive(Clone)]
pub struct Version {
    pub tree: Arc<Tree>,
    pub source: String,
    pub file: Option<PathBuf>,
}

/// What a replacement of the tree does to the history.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum History {
    /// The first tree: nothing to go back to.
    Keep,
    /// A change: the old tree can be undone to, redo is forgotten.
    Change,
    Undo,
    Redo,
}

/// A tree on its way in (its runs are being searched again): what to do when it arrives.
pub struct Replacing {
    pub file: Option<PathBuf>,
    /// The node to select, by path; `None` selects the root.
    pub select: Option<Vec<usize>>,
    pub history: History,
    pub message: Option<String>,
    /// The leaves each run (by label) evaluated on the tree before, to compare with after
    /// (a reorder says what it changed).
    pub before: Vec<(String, u64)>,
    /// The new tree differs from what its file (or generator) gave: edits, undo, reorder.
    pub changed: bool,
    /// Runs of the tree before, told on the new one (a reorder), shown after the new runs.
    pub kept: Vec<super::runs::RunView>,
}

/// The message after a replacement: `message`, then each run's leaves now and before.
pub fn compared(message: &str, before: &[(String, u64)], runs: &[super::runs::RunView]) -> String {
    let changes: Vec<String> = runs
        .iter()
        .filter_map(|r| {
            if r.kept.is_some() {
                return None;
            }
            let label = r.algo.label();
            let (_, was) = before.iter().find(|(l, _)| *l == label)?;
            Some(format!("{label} {} leaves, was {was}", r.run.stats.leaves))
        })
        .collect();
    if changes.is_empty() {
        message.to_owned()
    } else {
        format!("{message}: {}", changes.join("; "))
    }
}

const TWO_PLAYER_KINDS: [&str; 4] = ["max", "min", "chance", "leaf"];
const PLAYER_KINDS: [&str; 18] = [
    "player 1",
    "player 2",
    "player 3",
    "player 4",
    "player 5",
    "player 6",
    "player 7",
    "player 8",
    "player 9",
    "player 10",
    "player 11",
    "player 12",
    "player 13",
    "player 14",
    "player 15",
    "player 16",
    "chance",
    "leaf",
];

fn kind_choices(tree: &Tree) -> Vec<&'static str> {
    if tree.is_multiplayer() {
        let n = tree.players().min(16);
        let mut v = PLAYER_KINDS[..n].to_vec();
        v.extend(["chance", "leaf"]);
        v
    } else {
        TWO_PLAYER_KINDS.to_vec()
    }
}

fn kind_of(choice: &str) -> Option<Kind> {
    Some(match choice {
        "max" => Kind::Max,
        "min" => Kind::Min,
        "chance" => Kind::Chance,
        "leaf" => Kind::Leaf,
        p => Kind::Player(
            p.strip_prefix("player ")?
                .parse::<u8>()
                .ok()?
                .checked_sub(1)?,
        ),
    })
}

/// The edit form of node `id`: its label and kind, a leaf's value (or payoff vector), and the
/// probabilities of its chance family's children, all together (they must sum to 1, so one
/// alone could never change).
pub fn edit_form(tree: &Tree, id: NodeId) -> Form {
    let choices = kind_choices(tree);
    let name = tree.kind(id).name();
    let at = choices.iter().position(|c| *c == name).unwrap_or(0);
    let mut fields = vec![
        Field::text(FieldId::Label, "label", tree.label(id).unwrap_or("")),
        Field::choice(FieldId::Kind, "kind", &choices, at)
            .with_help("a leaf made interior keeps its value in one child; an interior node made a leaf loses its subtree"),
    ];
    if tree.is_leaf(id) {
        let value = if tree.is_multiplayer() {
            let v: Vec<String> = tree.payoff(id).iter().map(|&x| number_text(x)).collect();
            v.join(", ")
        } else {
            number_text(tree.value(id))
        };
        let help = if tree.is_multiplayer() {
            "one payoff a player, separated by commas"
        } else {
            "a number: 3, -1.5 or 1/3"
        };
        fields.push(Field::text(FieldId::Value, "value", value).with_help(help));
    }
    if let Some(f) = chance_family(tree, id) {
        fields.extend(prob_fields(tree, f, id));
    }
    Form::new(
        format!("Edit {} ({name})", crate::tree::names::node_name(tree, id)),
        Purpose::Edit(path_of(tree, id)),
        fields,
    )
}

/// A field for the probability of each child of chance node `family`, `id`'s marked; empty
/// when the children are equally likely.
fn prob_fields(tree: &Tree, family: NodeId, id: NodeId) -> Vec<Field> {
    let uniform = tree.is_uniform(family);
    tree.children(family)
        .map(|c| {
            let this = if c == id { " (this)" } else { "" };
            let label = format!("p {}{this}", crate::tree::names::node_name(tree, c));
            let p = if uniform {
                String::new()
            } else {
                number_text(tree.prob(c))
            };
            let at = tree.child_index(c);
            Field::text(FieldId::ChildProb(at), label, p)
                .with_help("a fraction or a decimal (1/4, 0.25); all empty: equally likely")
        })
        .collect()
}

/// What the probability fields of `form` sum to, as the form shows it while they are typed;
/// `None` when it has none.
pub fn probability_sum(form: &Form) -> Option<String> {
    let texts: Vec<(&str, &str)> = form
        .prob_fields()
        .map(|f| (f.label.as_ref(), form.text(f.id).unwrap_or("")))
        .collect();
    if texts.is_empty() {
        return None;
    }
    if texts.iter().all(|(_, t)| t.is_empty()) {
        return Some("all empty: equally likely".into());
    }
    let mut sum = 0.0;
    for (label, text) in &texts {
        match parse_number(text, label) {
            Ok(p) => sum += p,
            Err(_) if text.is_empty() => return Some(format!("sum: {label} is empty")),
            Err(_) => return Some(format!("sum: {label} is not a number")),
        }
    }
    Some(if (sum - 1.0).abs() <= crate::tree::PROB_TOLERANCE {
        "sum 1".to_owned()
    } else {
        format!("sum {}, not 1", number_text(sum))
    })
}

/// The edit a submitted edit form asks for.
pub fn edit_of(form: &Form) -> Result<Edit, String> {
    let missing = |e: super::form::MissingField| e.to_string();
    let label = Some(form.text(FieldId::Label).map_err(missing)?.to_owned());
    let kind = kind_of(form.choice(FieldId::Kind).map_err(missing)?);
    let value = match form.text(FieldId::Value) {
        Ok(t) => Some(parse_values(t)?),
        Err(_) => None,
    };
    let probs = form
        .prob_fields()
        .map(|f| {
            let t = form.text(f.id).unwrap_or("");
            (!t.is_empty())
                .then(|| parse_number(t, &f.label))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Edit::Set {
        label,
        kind,
        value,
        probs: (!probs.is_empty()).then_some(probs),
    })
}

impl App {
    /// The algorithms of the runs on screen.
    /// The algorithms of the runs searched on this tree (not those kept from before a reorder).
    fn algos(&self) -> Vec<Algorithm> {
        self.runs
            .iter()
            .filter(|r| r.kept.is_none())
            .map(|r| r.algo.clone())
            .collect()
    }

    /// Replaces the tree by `tree` once the runs in `wanted` that apply to it are searched
    /// again on it (in the background); says which do not apply.
    pub(super) fn rerun_on(
        &mut self,
        tree: Arc<Tree>,
        source: String,
        wanted: Vec<Algorithm>,
        replacing: Replacing,
    ) {
        if self.worker.is_busy() {
            self.status = Some(("busy: wait for the work in progress".into(), true));
            return;
        }
        let (algos, dropped): (Vec<Algorithm>, Vec<Algorithm>) =
            wanted.into_iter().partition(|a| a.refusal(&tree).is_none());
        if !dropped.is_empty() {
            let why: Vec<String> = dropped
                .iter()
                .filter_map(|a| a.refusal(&tree).map(|r| format!("{a}: {r}")))
                .collect();
            self.status = Some((format!("dropped {}", why.join("; ")), true));
        }
        self.replacing = Some(replacing);
        self.start_runs(tree, algos, Some(source));
    }

    /// Applies `edit` to the selected node: the new tree replaces this one when its runs are
    /// searched again; a refused edit changes nothing and says why.
    pub(super) fn edit(&mut self, target: NodeId, edit: &Edit) -> Result<(), String> {
        let tree = apply(&self.tree, target, edit)?;
        let path = path_of(&self.tree, target);
        let (select, message) = match edit {
            Edit::Delete => (
                path[..path.len().saturating_sub(1)].to_vec(),
                format!(
                    "deleted {} node{}",
                    self.sizes[target.index()],
                    if self.sizes[target.index()] == 1 {
                        ""
                    } else {
                        "s"
                    }
                ),
            ),
            Edit::AddChild => {
                let mut p = path.clone();
                p.push(self.tree.child_count(target));
                (p, "added a leaf".to_owned())
            }
            Edit::Set { .. } => (
                path,
                format!(
                    "edited {}",
                    crate::tree::names::node_name(&self.tree, target)
                ),
            ),
        };
        let replacing = Replacing {
            file: self.file.clone(),
            select: Some(select),
            history: History::Change,
            message: Some(message),
            before: Vec::new(),
            changed: true,
            kept: Vec::new(),
        };
        let algos = self.algos();
        self.rerun_on(Arc::new(tree), self.source.clone(), algos, replacing);
        Ok(())
    }

    pub(super) fn edit_action(&mut self, action: super::keymap::Action) {
        use super::keymap::Action;
        let sel = self.outline.selected;
        match action {
            Action::EditNode => self.mode = super::app::Mode::Form(edit_form(&self.tree, sel)),
            Action::AddChild | Action::DeleteNode => {
                let e = if action == Action::AddChild {
                    Edit::AddChild
                } else {
                    Edit::Delete
                };
                if let Err(why) = self.edit(sel, &e) {
                    self.status = Some((why, true));
                }
            }
            Action::Undo | Action::Redo => self.undo_redo(action == Action::Undo),
            Action::Save => match self.file.clone() {
                Some(f) => {
                    if let Err(e) = self.save_to(&f) {
                        self.status = Some((e, true));
                    }
                }
                None => self.mode = super::app::Mode::Form(self.save_form()),
            },
            Action::SaveAs => self.mode = super::app::Mode::Form(self.save_form()),
            _ => {}
        }
    }

    fn undo_redo(&mut self, undo: bool) {
        let stack = if undo { &self.undo } else { &self.redo };
        let Some(v) = stack.last().cloned() else {
            let what = if undo { "undo" } else { "redo" };
            self.status = Some((format!("nothing to {what}"), false));
            return;
        };
        let select = path_of(&self.tree, self.outline.selected);
        let replacing = Replacing {
            file: v.file,
            select: Some(select),
            history: if undo { History::Undo } else { History::Redo },
            message: Some(if undo { "undone" } else { "redone" }.to_owned()),
            before: Vec::new(),
            changed: true,
            kept: Vec::new(),
        };
        let algos = self.algos();
        self.rerun_on(v.tree, v.source, algos, replacing);
    }

    /// The tree now on screen, for the history.
    pub(super) fn version(&self) -> Version {
        Version {
            tree: Arc::clone(&self.tree),
            source: self.source.clone(),
            file: self.file.clone(),
        }
    }

    /// Records the tree being replaced in the history, as `how` asks.
    pub(super) fn record(&mut self, how: History) {
        let now = self.version();
        match how {
            History::Keep => {}
            History::Change => {
                self.undo.push(now);
                self.redo.clear();
            }
            History::Undo => {
                self.undo.pop();
                self.redo.push(now);
            }
            History::Redo => {
                self.redo.pop();
                self.undo.push(now);
            }
        }
        if self.undo.len() > UNDO_DEPTH {
            self.undo.remove(0);
        }
    }

    pub(super) fn save_form(&self) -> Form {
        let path = match &self.file {
            Some(f) => f.display().to_string(),
            None => format!("{}.ron", super::dialogs::file_stem(&self.tree.meta().name)),
        };
        Form::new(
            "Save the tree (RON, or .efg / .txt by extension)",
            Purpose::Save,
            vec![Field::text(FieldId::SavePath, "file", path)],
        )
    }

    /// Carries out the save form: a file other than the tree's own is not overwritten without
    /// a second Enter.
    pub(super) fn submit_save(&mut self, form: &Form) -> Result<(), String> {
        let path = form.text(FieldId::SavePath).map_err(|e| e.to_string())?;
        if path.is_empty() {
            return Err("type the path to save the tree to".into());
        }
        let path = PathBuf::from(path);
        if self.file.as_ref() != Some(&path) {
            self.confirm_overwrite(&[path.display().to_string()])?;
        }
        self.save_to(&path)
    }

    /// The format a save to `path` writes: the one its extension names; for the file the tree
    /// came from, the one its text is in (as the loader read it); RON on a stream.
    fn save_format(&self, path: &Path) -> Result<crate::format::Format, String> {
        use crate::format::Format;
        if let Some(format) = Format::from_path(path) {
            return Ok(format);
        }
        if self.file.as_deref() == Some(path) {
            let mut head = Vec::new();
            let read = std::fs::File::open(path).and_then(|f| {
                std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head)
            });
            if read.is_ok() {
                return Ok(Format::sniff(&String::from_utf8_lossy(&head)));
            }
        }
        match crate::format::save::output_file(Some(path)) {
            None => Ok(Format::Ron),
            Some(file) => Err(format!(
                "{}: {}; name it .ron, .efg, .txt, .tree or .bracket",
                crate::text::terminal_safe(&file.display().to_string()),
                crate::format::unnamed_format(file)
            )),
        }
    }

    /// Writes the tree to `path` the way the command line writes (atomically; devices in
    /// place), in the format its extension names. The file the tree was read from keeps the
    /// format it was read in whatever its name; any other name that names no format is refused
    /// rather than guessed, as the command line refuses it.
    pub(super) fn save_to(&mut self, path: &Path) -> Result<(), String> {
        if path.as_os_str() == "-" {
            return Err("the explorer is drawing on standard output: give a file name".into());
        }
        let format = self.save_format(path)?;
        crate::format::check_text_room(&self.tree, format)?;
        crate::format::save(&self.tree, path, Some(format))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.file = Some(path.to_path_buf());
        self.source = path.display().to_string();
        self.unsaved = false;
        self.status = Some((
            format!("saved {} nodes to {}", self.tree.len(), path.display()),
            false,
        ));
        Ok(())
    }
}
