//! A trace against a tree: its paths resolved to nodes, its leaves and players checked, and
//! its search lined up against prune's textbook run of the claimed algorithm on the same tree.
//!
//! The tree is one source of the game the engine searched; a lazily expanded game will be
//! another, so everything here asks the tree only for a node's children, kind and value.

use std::collections::HashSet;

use super::check::{Departure, num};
use super::{Claim, Event, Move, Side, Trace, Values, path_text, write};
use crate::search::{Refusal, Run};
use crate::tree::{Kind, NodeId, Tree};

/// The node a path names in `tree`: a label names the child with that label, a position the
/// child there. `None` when a move is not in the tree.
pub fn resolve(tree: &Tree, path: &[Move]) -> Option<NodeId> {
    let mut node = tree.root();
    for m in path {
        node = match m {
            Move::Index(i) => {
                let i = *i as usize;
                (i < tree.child_count(node) && !tree.is_leaf(node)).then(|| tree.child(node, i))?
            }
            Move::Label(l) => tree
                .children(node)
                .find(|&c| tree.label(c) == Some(l.as_str()))?,
        };
    }
    Some(node)
}

/// An open node, as the tree sees it.
struct Open {
    side: Side,
    node: NodeId,
    enter_line: usize,
    /// Its children searched (entered, evaluated or answered by the table) in this visit.
    searched: HashSet<NodeId>,
    cut: bool,
}

/// The first event that disagrees with the tree: a move it does not have, a player it does
/// not put there, a leaf of another value, an interior node evaluated as a leaf or a leaf
/// entered, a node left before all its children are searched with no cutoff to say why.
pub fn against_tree(tree: &Tree, trace: &Trace) -> Option<Departure> {
    let values = trace.header.values;
    let mut open: Vec<Open> = Vec::new();
    for line in &trace.lines {
        let Some(path) = line.event.path() else {
            continue;
        };
        let n = line.number;
        let Some(node) = resolve(tree, path) else {
            let known = (0..path.len())
                .rev()
                .find(|&k| resolve(tree, &path[..k]).is_some())
                .unwrap_or(0);
            return Some(Departure {
                path: path.clone(),
                did: format!(
                    "names the move {} below {}",
                    path[known],
                    path_text(&path[..known])
                ),
                requires: "a move of the tree: a child's label, or its position from 0".into(),
                lines: vec![n],
            });
        };
        if let (Some(o), Event::Enter { .. } | Event::Leaf { .. } | Event::TtHit { .. }) =
            (open.last_mut(), &line.event)
        {
            o.searched.insert(node);
        }
        match &line.event {
            Event::Enter { player, .. } => {
                let side = player.unwrap_or(open.last().map_or(Side::Max, |o| o.side.other()));
                let kind = tree.kind(node);
                let want = match kind {
                    Kind::Max => Side::Max,
                    Kind::Min => Side::Min,
                    _ => {
                        return Some(Departure {
                            path: path.clone(),
                            did: format!("enters {}", path_text(path)),
                            requires: format!(
                                "a Max or Min node to enter; the tree has a {} node there",
                                kind.name()
                            ),
                            lines: vec![n],
                        });
                    }
                };
                if side != want {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!("has {} to move at {}", side.name(), path_text(path)),
                        requires: format!(
                            "{} to move, as in the tree (say it with \"player\" when the sides do not alternate)",
                            want.name()
                        ),
                        lines: vec![n],
                    });
                }
                open.push(Open {
                    side,
                    node,
                    enter_line: n,
                    searched: HashSet::new(),
                    cut: false,
                });
            }
            Event::Cutoff { .. } => {
                if let Some(o) = open.last_mut() {
                    o.cut = true;
                }
            }
            Event::Exit { .. } => {
                let o = open.pop()?;
                let all = tree.child_count(o.node);
                // MTD(f)'s memory answers children without an event (check.rs judges those).
                let silent = trace.header.claim == Claim::Mtdf;
                if !o.cut && !silent && o.node == node && o.searched.len() < all {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!(
                            "leaves {} after searching {} of its {all} children, with no cutoff",
                            path_text(path),
                            o.searched.len()
                        ),
                        requires: "every child searched, unless a cutoff event says why the others are not".into(),
                        lines: vec![o.enter_line, n],
                    });
                }
            }
            Event::Leaf { value, .. } => {
                let leaf_side = open.last().map_or(Side::Max, |o| o.side.other());
                let truth = if tree.is_leaf(node) {
                    tree.value(node)
                } else if let Some(h) = tree.heuristic(node) {
                    h
                } else {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!("evaluates {} as a leaf", path_text(path)),
                        requires:
                            "an interior node without a heuristic value is entered and searched"
                                .into(),
                        lines: vec![n],
                    });
                };
                let want = match values {
                    Values::Minimax => truth,
                    Values::Negamax => leaf_side.sign() * truth,
                };
                if *value != want {
                    return Some(Departure {
                        path: path.clone(),
                        did: format!("evaluates {} as {}", path_text(path), num(*value)),
                        requires: format!(
                            "the tree's value, {}{}",
                            num(want),
                            if values == Values::Negamax {
                                " from the side to move there"
                            } else {
                                ""
                            }
                        ),
                        lines: vec![n],
                    });
                }
            }
            _ => {}
        }
    }
    None
}

/// Where the engine's search and the textbook's first part, and both root values.
#[derive(Clone, Debug)]
pub struct Textbook {
    /// prune's run of the claimed algorithm on the tree.
    pub run: Run,
    /// The first place the two searches differ, if any.
    pub difference: Option<Departure>,
    /// Nodes the textbook search visits (enters or evaluates), counting repeats.
    pub visits: usize,
}

/// Runs the claimed algorithm on `tree` and lines its visits (enters, leaves, table hits) up
/// with the engine's, in order. The textbook search has no table: a node the engine's table
/// answered stands for the textbook's visits of its whole subtree (a sound entry returns what
/// searching it would have told the parent, so the searches go on alike); a hit whose node
/// is entered next is no visit of its own.
pub fn textbook(tree: &Tree, trace: &Trace) -> Result<Textbook, Refusal> {
    let algo = trace.header.claim.algorithm();
    let (run, recorded) = crate::trace::record(tree, &algo, &std::sync::atomic::AtomicU64::new(0))?;
    let theirs: Vec<NodeId> = write::events(tree, &recorded)
        .iter()
        .filter(|e| is_visit(e))
        .filter_map(|e| e.path().and_then(|p| resolve(tree, p)))
        .collect();
    let mut ours: Vec<(NodeId, usize)> = Vec::new();
    let mut answered: HashSet<usize> = HashSet::new();
    for (i, l) in trace.lines.iter().enumerate() {
        let Some(node) = l
            .event
            .path()
            .filter(|_| is_visit(&l.event))
            .and_then(|p| resolve(tree, p))
        else {
            continue;
        };
        if let Event::TtHit { path, .. } = &l.event {
            let entered = trace.lines.get(i + 1).is_some_and(
                |next| matches!(&next.event, Event::Enter { path: p, .. } if p == path),
            );
            if entered {
                continue;
            }
            answered.insert(ours.len());
        }
        ours.push((node, l.number));
    }
    let difference = first_difference(tree, &ours, &answered, &theirs, algo.name());
    Ok(Textbook {
        run,
        difference,
        visits: theirs.len(),
    })
}

fn is_visit(e: &Event) -> bool {
    matches!(
        e,
        Event::Enter { .. } | Event::Leaf { .. } | Event::TtHit { .. }
    )
}

/// The first visit where the engine's sequence and the textbook's part, explained by what the
/// textbook search does there.
fn first_difference(
    tree: &Tree,
    ours: &[(NodeId, usize)],
    answered: &HashSet<usize>,
    theirs: &[NodeId],
    algo: &str,
) -> Option<Departure> {
    let (mut i, mut j) = (0, 0);
    while let (Some(&(a, _)), Some(&b)) = (ours.get(i), theirs.get(j)) {
        if a != b {
            break;
        }
        j += 1;
        if answered.contains(&i) {
            while theirs.get(j).is_some_and(|&d| below(tree, d, a)) {
                j += 1;
            }
        }
        i += 1;
    }
    if i == ours.len() && j == theirs.len() {
        return None;
    }
    let theirs_set: HashSet<NodeId> = theirs.iter().copied().collect();
    let ours_set: HashSet<NodeId> = ours.iter().map(|&(n, _)| n).collect();
    let path = |n: NodeId| write::path_of(tree, n);
    let last_line = ours.get(i).or(ours.last()).map(|&(_, l)| l);
    match (ours.get(i), theirs.get(j)) {
        (Some(&(ours_node, line)), _) if !theirs_set.contains(&ours_node) => {
            // The nearest ancestor the textbook search reached decides: it cut there.
            let mut c = ours_node;
            while let Some(p) = tree.parent(c) {
                if theirs_set.contains(&p) {
                    break;
                }
                c = p;
            }
            let cut_at = tree
                .parent(c)
                .map_or(String::from("the root"), |p| path_text(&path(p)));
            Some(Departure {
                path: path(ours_node),
                did: format!("searches {}", path_text(&path(ours_node))),
                requires: format!(
                    "textbook {algo} on this tree never reaches it: it cuts off at {cut_at} before {}",
                    path_text(&path(c))
                ),
                lines: vec![line],
            })
        }
        (_, Some(&their_node)) if !ours_set.contains(&their_node) => Some(Departure {
            path: path(their_node),
            did: format!("never searches {}", path_text(&path(their_node))),
            requires: format!(
                "textbook {algo} on this tree searches it (visit {} of {})",
                j + 1,
                theirs.len()
            ),
            lines: last_line.into_iter().collect(),
        }),
        (Some(&(ours_node, line)), Some(&their_node)) => Some(Departure {
            path: path(ours_node),
            did: format!(
                "searches {} at visit {}",
                path_text(&path(ours_node)),
                i + 1
            ),
            requires: format!(
                "textbook {algo} on this tree searches {} there (the same nodes, in another order)",
                path_text(&path(their_node))
            ),
            lines: vec![line],
        }),
        (Some(&(ours_node, line)), None) => Some(Departure {
            path: path(ours_node),
            did: format!(
                "searches {} again after the textbook search has ended",
                path_text(&path(ours_node))
            ),
            requires: format!("textbook {algo} on this tree makes {} visits", theirs.len()),
            lines: vec![line],
        }),
        (None, Some(&their_node)) => Some(Departure {
            path: path(their_node),
            did: format!("stops after {} visits", ours.len()),
            requires: format!(
                "textbook {algo} on this tree goes on to search {}",
                path_text(&path(their_node))
            ),
            lines: last_line.into_iter().collect(),
        }),
        (None, None) => None,
    }
}

/// Whether `n` is a proper descendant of `x`.
fn below(tree: &Tree, mut n: NodeId, x: NodeId) -> bool {
    while let Some(p) = tree.parent(n) {
        if p == x {
            return true;
        }
        n = p;
    }
    false
}
