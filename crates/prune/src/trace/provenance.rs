//! Why a bound is what it is: the provenance of a node's window, read from the trace alone.
//!
//! A depth-first window search hands each child the window of its parent, narrowed by what the
//! parent's children returned so far: a Max node raises α to its best child's value, a Min node
//! lowers β; a chance node (Star1, Star2) hands each child Ballard's Aᵢ, Bᵢ. So a bound of the
//! window a node was entered with either came down unchanged from its parent — and we ask the
//! parent the same question — or is the value one of the parent's earlier children returned,
//! or a chance node's Aᵢ/Bᵢ, or the search's own choice (the root's window, a null window, a
//! guess). [`window_origin`] follows that chain up to its source; [`Origin::sentence`] says it.

use crate::search::{Algorithm, Bound, Cutoff};
use crate::text::{count, short_number};
use crate::tree::names::{kind_words, node_name};
use crate::tree::{Kind, NodeId, Tree};

use super::{EventView, Replay, Trace};

/// Which end of a window.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The lower end, α: the value the searcher is already sure of.
    Alpha,
    /// The upper end, β: the value the opponent will allow.
    Beta,
}

impl End {
    /// The Greek letter the papers write it with: `α` or `β`.
    pub fn symbol(self) -> &'static str {
        match self {
            End::Alpha => "α",
            End::Beta => "β",
        }
    }
}

/// Where one bound of a window came from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Origin {
    /// The window the search started with at the root (or a pass of MTD(f) at the root).
    Start,
    /// The value `child` returned to `parent` at `step` (1-based), passed down from there.
    Returned {
        /// The child whose value became the bound.
        child: NodeId,
        /// The node it returned to, which narrowed its window with it.
        parent: NodeId,
        /// The step of the return, from 1.
        step: usize,
    },
    /// Ballard's Aᵢ (for α) or Bᵢ (for β) of chance node `chance` for its child `child`,
    /// announced at `step` (1-based); `clipped` when the bound is L or U instead.
    ChanceBound {
        /// The chance node that computed the bound.
        chance: NodeId,
        /// The child it handed the bound to.
        child: NodeId,
        /// The step that announced it, from 1.
        step: usize,
        /// Whether the bound differs from the announced Aᵢ or Bᵢ: L or U was used instead.
        clipped: bool,
    },
    /// Chosen by the algorithm, not returned from below: a null window's other end
    /// (NegaScout, MTD(f)), a re-search's window, a probe's window.
    Chosen,
    /// The root's window when it is searched again after its aspiration window failed: the
    /// failed side open, the other kept.
    AspirationFailed,
}

/// A bound of the window `node` was entered with (at its latest entry among the first `k`
/// steps), and where it came from; `None` when the node has not been entered.
pub fn window_origin(
    tree: &Tree,
    replay: &Replay,
    node: NodeId,
    k: usize,
    end: End,
) -> Option<(f64, Origin)> {
    let trace = replay.trace();
    let (entry, (a, b)) = latest_entry(replay, node, k)?;
    let x = match end {
        End::Alpha => a,
        End::Beta => b,
    };
    Some((x, trace_origin(tree, replay, trace, node, entry, x, end)))
}

/// `node`'s own events among the steps `lo..hi` (0-based), the latest first, and none before
/// the iteration `hi` is in (an earlier iteration is another search). (The index also files a
/// probe under the probed node; that event is the child's, and is left out.)
fn latest<'r>(
    replay: &'r Replay,
    node: NodeId,
    lo: usize,
    hi: usize,
) -> impl Iterator<Item = (usize, EventView)> + 'r {
    let trace = replay.trace();
    let lo = lo.max(replay.segment_start(hi));
    replay
        .steps_of(node)
        .iter()
        .rev()
        .map(|&s| s as usize)
        .filter(move |&s| lo <= s && s < hi)
        .map(|s| (s, trace.event(s)))
        .filter(move |(_, e)| e.node() == node)
        .map(|(s, e)| (s, e.view()))
}

/// What `node` returned (its exits, or its evaluations for a leaf) among the steps `lo..hi`,
/// the latest first.
fn returns<'r>(
    replay: &'r Replay,
    node: NodeId,
    lo: usize,
    hi: usize,
) -> impl Iterator<Item = (usize, f64)> + 'r {
    latest(replay, node, lo, hi).filter_map(|(s, e)| match e {
        EventView::Exit { value, .. } | EventView::Leaf { value, .. } => Some((s, value)),
        _ => None,
    })
}

/// The step index (0-based) and window of `node`'s latest `enter` or `research` before `k`.
fn latest_entry(replay: &Replay, node: NodeId, k: usize) -> Option<(usize, (f64, f64))> {
    latest(replay, node, 0, k).find_map(|(s, e)| match e {
        EventView::Enter { alpha, beta, .. } | EventView::Research { alpha, beta, .. } => {
            Some((s, (alpha, beta)))
        }
        _ => None,
    })
}

fn trace_origin(
    tree: &Tree,
    replay: &Replay,
    trace: &Trace,
    mut node: NodeId,
    mut entry: usize,
    x: f64,
    end: End,
) -> Origin {
    loop {
        if let EventView::Research { aspiration, .. } = trace.event(entry).view() {
            return if aspiration {
                Origin::AspirationFailed
            } else {
                Origin::Chosen
            };
        }
        let Some(parent) = tree.parent(node) else {
            // The root entered again right after its aspiration window failed (and, with a
            // transposition table, its entry looked up).
            let mut before = latest(replay, node, 0, entry).map(|(_, e)| e);
            let again = before.find(|e| !matches!(e, EventView::TableHit { .. }));
            return match again {
                Some(EventView::Research {
                    aspiration: true, ..
                }) => Origin::AspirationFailed,
                _ => Origin::Start,
            };
        };
        let Some((pentry, (pa, pb))) = latest_entry(replay, parent, entry) else {
            return Origin::Chosen;
        };
        if tree.kind(parent) == Kind::Chance {
            // Star1/Star2 announce each child's Aᵢ, Bᵢ just before searching it.
            let announced = latest(replay, node, pentry + 1, entry).find_map(|(s, e)| match e {
                EventView::ChanceBounds { a, b, .. } => Some((s, a, b)),
                _ => None,
            });
            if let Some((s, a, b)) = announced {
                let raw = if end == End::Alpha { a } else { b };
                return Origin::ChanceBound {
                    chance: parent,
                    child: node,
                    step: s + 1,
                    clipped: raw != x,
                };
            }
        }
        let inherited = match end {
            End::Alpha => pa,
            End::Beta => pb,
        };
        if inherited == x {
            (node, entry) = (parent, pentry);
            continue;
        }
        // Narrowed by a child returned before this entry: a Max node raises α, a Min node
        // lowers β (a player's node likewise on its own side, whichever player it is).
        if let Some((child, step)) = returned(tree, replay, parent, pentry, entry, x) {
            return Origin::Returned {
                child,
                parent,
                step,
            };
        }
        return Origin::Chosen;
    }
}

/// The latest child of `parent` that returned `x` between steps `from` and `to` (0-based,
/// exclusive), and the 1-based step of its exit.
fn returned(
    tree: &Tree,
    replay: &Replay,
    parent: NodeId,
    from: usize,
    to: usize,
    x: f64,
) -> Option<(NodeId, usize)> {
    tree.children(parent)
        .filter_map(|c| {
            returns(replay, c, from + 1, to)
                .find(|&(_, v)| v == x)
                .map(|(s, _)| (c, s + 1))
        })
        .max_by_key(|&(_, s)| s)
}

impl Origin {
    /// The bound `x` at `end` and its origin in words: "β = 5: the value of a1, returned to
    /// − node a at step 6".
    pub fn sentence(&self, tree: &Tree, algo: &Algorithm, end: End, x: f64) -> String {
        let head = format!("{} = {}", end.symbol(), short_number(x));
        let kind = |n: NodeId| named(tree, n);
        match *self {
            Origin::Start if x.is_infinite() => {
                format!("{head}: the search starts at the root with the widest window")
            }
            Origin::Start => match (algo.base(), algo.improvements().and_then(|w| w.aspiration)) {
                (Algorithm::Mtdf { .. }, _) => {
                    format!("{head}: MTD(f)'s null window at the root, from its guess")
                }
                // Iterative deepening's later iterations start from (v − W, v + W).
                (_, Some(w)) => {
                    let (v, sign) = match end {
                        End::Alpha => (x + w, '−'),
                        End::Beta => (x - w, '+'),
                    };
                    format!(
                        "{head}: the root's aspiration window, the previous iteration's value {} {sign} {}",
                        short_number(v),
                        short_number(w)
                    )
                }
                _ => format!("{head}: the root's window, the bound of the tree's values"),
            },
            Origin::AspirationFailed if x.is_infinite() => format!(
                "{head}: the aspiration window failed on this side, so the root is searched again with it open"
            ),
            Origin::AspirationFailed => format!(
                "{head}: the side of the aspiration window that held, kept when the root is searched again"
            ),
            // SSS*'s β is a merit: a node's state goes into OPEN with the merit its previous
            // sibling was SOLVED with (under a Min node), and a node's children with its own.
            Origin::Returned { child, step, .. } if algo.base() == &Algorithm::Sss => format!(
                "{head}: the merit {} was SOLVED with at step {step}, passed on in OPEN",
                node_name(tree, child)
            ),
            Origin::Returned {
                child,
                parent,
                step,
            } => format!(
                "{head}: the value of {}, returned to {} at step {step}",
                node_name(tree, child),
                kind(parent)
            ),
            Origin::ChanceBound {
                chance,
                child,
                step,
                clipped,
            } => {
                let (name, lu) = match end {
                    End::Alpha => ("A", "L"),
                    End::Beta => ("B", "U"),
                };
                let i = tree.child_index(child) + 1;
                if clipped {
                    format!(
                        "{head}: {lu}, the tree's bound, clipping {name}{i} of {} (step {step})",
                        kind(chance)
                    )
                } else {
                    format!("{head}: {name}{i} of {} (step {step})", kind(chance))
                }
            }
            Origin::Chosen => format!(
                "{head}: chosen by {} (a null window, a re-search or a probe), not returned from below",
                algo.name()
            ),
        }
    }
}

/// The 1-based step of the cutoff at `node` among the first `k` steps, if one fired (or of the
/// transposition table's answer that spared its search).
pub fn cutoff_step(replay: &Replay, node: NodeId, k: usize) -> Option<usize> {
    latest(replay, node, 0, k)
        .find(|(_, e)| {
            matches!(
                e,
                EventView::Cutoff { .. } | EventView::TableHit { cut: true, .. }
            )
        })
        .map(|(s, _)| s + 1)
}

/// The cutoff event at `node` among the first `k` steps: its 1-based step, the child it came
/// after, the children it skipped and its kind. `None` where none fired, or where the
/// transposition table's answer spared the search instead.
fn cutoff_event(replay: &Replay, node: NodeId, k: usize) -> Option<(usize, u32, u32, Cutoff)> {
    let step = cutoff_step(replay, node, k)?;
    match replay.trace().event(step - 1).view() {
        EventView::Cutoff {
            after,
            skipped,
            kind,
            ..
        } => Some((step, after, skipped, kind)),
        _ => None,
    }
}

/// The comparison a cutoff at `node` made, with both numbers and both nodes, and where the
/// bound it compared with came from: "#2.1 returned 2 ≤ α = 3 of − node #2; α = 3: the value
/// of #1, returned to the root at step 6". `None` when no cutoff fired at `node` in the
/// first `k` steps, or it is not a comparison with the node's own window.
pub fn cutoff_reason(
    tree: &Tree,
    algo: &Algorithm,
    replay: &Replay,
    node: NodeId,
    k: usize,
) -> Option<String> {
    // SSS* solves a node by its child with the highest merit in OPEN: no window is compared.
    if algo.base() == &Algorithm::Sss {
        return None;
    }
    let (step, after, _, kind) = cutoff_event(replay, node, k)?;
    let child = tree.child(node, after as usize);
    let value = child_value(replay, child, step)?;
    let (sign, end) = match kind {
        Cutoff::Alpha => ("≤", End::Alpha),
        Cutoff::Beta => ("≥", End::Beta),
        _ => return None,
    };
    let (x, origin) = window_origin(tree, replay, node, step, end)?;
    Some(format!(
        "{} returned {} {sign} {} = {} of {}; {}",
        node_name(tree, child),
        short_number(value),
        end.symbol(),
        short_number(x),
        named(tree, node),
        origin.sentence(tree, algo, end, x)
    ))
}

/// Which of the root's searches step `s` (0-based) belongs to, counted from 1 — MTD(f)'s
/// null-window passes, a re-search of the root — when the root is entered more than once in
/// the whole trace (within one iteration of iterative deepening); `None` when it is entered
/// once, and a pass would name nothing.
pub fn pass_of(tree: &Tree, replay: &Replay, s: usize) -> Option<usize> {
    let trace = replay.trace();
    let root = tree.root();
    let start = replay.segment_start(s + 1);
    let (mut passes, mut this) = (0, 0);
    // A re-search of the root is followed by its entry: both begin the same pass.
    let mut researched = false;
    for t in replay.steps_of(root).iter().map(|&t| t as usize) {
        if t < start {
            continue;
        }
        let begins = match trace.event(t).view() {
            EventView::Iteration { .. } if t > start => break,
            EventView::Research { node, .. } if node == root => {
                researched = true;
                true
            }
            EventView::Enter { node, .. } if node == root => !std::mem::take(&mut researched),
            _ => false,
        };
        if begins {
            passes += 1;
            if t <= s {
                this = passes;
            }
        }
    }
    (passes > 1).then_some(this)
}

/// " (pass 2)" when the root is searched more than once, for the step (0-based) a line of
/// the detail reports; empty otherwise.
pub fn pass_note(tree: &Tree, replay: &Replay, s: usize) -> String {
    pass_of(tree, replay, s).map_or_else(String::new, |p| format!(" (pass {p})"))
}

/// The step (0-based) of `node`'s latest entry among the first `k` steps: the entry whose
/// window the views show.
pub fn entry_step(replay: &Replay, node: NodeId, k: usize) -> Option<usize> {
    latest_entry(replay, node, k).map(|(s, _)| s)
}

/// The cutoff at `node` among the first `k` steps, in the algorithm's own terms: "beta after
/// child 1, 8 children skipped" for a depth-first search; "solved by child 1 (merit 7), every
/// state under its 8 other children purged from OPEN" for SSS*, which compares nothing with a
/// window. With
/// the pass it fired in when the root is searched more than once. `None`: no cutoff fired.
pub fn cutoff_summary(
    tree: &Tree,
    algo: &Algorithm,
    replay: &Replay,
    node: NodeId,
    k: usize,
) -> Option<String> {
    let (step, after, skipped, kind) = cutoff_event(replay, node, k)?;
    let said = if algo.base() == &Algorithm::Sss {
        // The child's SOLVED state, the highest in OPEN, solves the Max node; every other
        // child went into OPEN when the node was expanded and has a state under it still.
        let child = tree.child(node, after as usize);
        let merit =
            sss_solved(tree, replay, child, step).map_or("?".into(), |(m, _)| short_number(m));
        format!(
            "solved by child {} (merit {merit}){}",
            after + 1,
            sss_purged_children(tree.child_count(node) - 1, "")
        )
    } else if kind == Cutoff::Probe {
        // The probes decide before the regular phase: it is spared for every child.
        format!(
            "probe after probing child {}: the regular search of its {} is spared",
            after + 1,
            count(tree.child_count(node), "child", "children")
        )
    } else if skipped == 0 {
        format!(
            "{} after child {}, its last: nothing left to skip",
            kind.name(),
            after + 1
        )
    } else {
        format!(
            "{} after child {}, {} skipped",
            kind.name(),
            after + 1,
            count(skipped as usize, "child", "children")
        )
    };
    Some(format!("{said}{}", pass_note(tree, replay, step - 1)))
}

/// Why `node`, not reached after `k` steps, is ruled out, as a sentence: "by the beta cutoff
/// at b2", "b2 returned without searching it"; for SSS*, which never cuts a window, what Γ
/// did ([`SssUnreached`]): "in OPEN, purged when + node b2 was solved". `None` when it is not
/// ruled out.
pub fn pruned_summary(
    tree: &Tree,
    algo: &Algorithm,
    replay: &Replay,
    node: NodeId,
    k: usize,
) -> Option<String> {
    let (by, kind) = replay.state(node, k).pruned_by?;
    let at = node_name(tree, by);
    let answered = replay.state(by, k).table.is_some_and(|(_, _, cut)| cut);
    if algo.base() == &Algorithm::Sss {
        return sss_unreached(tree, replay, node, k).map(|u| u.sentence(tree, false));
    }
    Some(match kind {
        Some(c) => format!("by the {} cutoff at {at}", c.name()),
        None if answered => format!("by the transposition table's answer at {at}"),
        None => format!("{at} returned without searching it"),
    })
}

/// SSS*'s purge at a solved Max node with `others` other children, each with a state under
/// it in OPEN (they all went in when it was expanded, and none was solved): ", every state
/// under its 2 other children purged from OPEN" (`verb` "" or " is"); empty when it has none.
pub fn sss_purged_children(others: usize, verb: &str) -> String {
    match others {
        0 => String::new(),
        1 => format!(", every state under its other child{verb} purged from OPEN"),
        n => format!(", every state under its {n} other children{verb} purged from OPEN"),
    }
}

/// Whether SSS* treats `node` as a Max node: a Max node, or player 1's in a two-player tree
/// of payoff vectors (searched as player 1's payoffs, player 1 maximising).
pub fn sss_max(tree: &Tree, node: NodeId) -> bool {
    matches!(tree.kind(node), Kind::Max | Kind::Player(0))
}

/// SSS*: the merit `node` was expanded with among the first `k` steps (its `enter`'s β, the
/// merit of the LIVE state taken); `None` when it was not expanded.
pub fn sss_entry(replay: &Replay, node: NodeId, k: usize) -> Option<f64> {
    latest_entry(replay, node, k).map(|(_, (_, b))| b)
}

/// SSS*: the merit `node`'s LIVE state went into OPEN with, as the first `k` steps show it
/// (Stockman's Γ): the root's +∞; a child of a Max node, or a first child, its parent's merit
/// when the parent was expanded; a later child of a Min node, the merit its previous sibling
/// was SOLVED with. `None` when the steps do not show it.
pub fn sss_live_merit(tree: &Tree, replay: &Replay, node: NodeId, k: usize) -> Option<f64> {
    let Some(p) = tree.parent(node) else {
        return Some(f64::INFINITY);
    };
    let i = tree.child_index(node);
    if sss_max(tree, p) || i == 0 {
        return sss_entry(replay, p, k);
    }
    sss_solved(tree, replay, tree.child(p, i - 1), k).map(|(m, _)| m)
}

/// SSS*: the merit of `node`'s SOLVED state among the first `k` steps, and the step (0-based)
/// that made it: a leaf (or a position valued at the depth limit) min(its LIVE merit, its
/// value) when evaluated; an interior node its exit's value when it exits solved (exact, or a
/// lower bound when the merit did not drop: an upper bound is an abandonment). `None`: not
/// solved.
pub fn sss_solved(tree: &Tree, replay: &Replay, node: NodeId, k: usize) -> Option<(f64, usize)> {
    let (s, e) = latest(replay, node, 0, k).find(|(_, e)| {
        matches!(e, EventView::Leaf { .. })
            || matches!(e, EventView::Exit { bound, .. } if *bound != Bound::Upper)
    })?;
    match e {
        EventView::Leaf { value, .. } => {
            let h = sss_live_merit(tree, replay, node, k)?;
            Some((h.min(value), s))
        }
        EventView::Exit { value, .. } => Some((value, s)),
        _ => None,
    }
}

/// SSS*: the Max node whose solving purged every state under `node`, expanded and then
/// abandoned (its exit an upper bound) among the first `k` steps, and the step (1-based) of
/// that solving: the latest cutoff at an ancestor before the exit.
pub fn sss_abandoned_by(
    tree: &Tree,
    replay: &Replay,
    node: NodeId,
    k: usize,
) -> Option<(NodeId, usize)> {
    let exit = latest(replay, node, 0, k).find_map(|(s, e)| {
        matches!(
            e,
            EventView::Exit {
                bound: Bound::Upper,
                ..
            }
        )
        .then_some(s)
    })?;
    tree.path_to(node)
        .into_iter()
        .filter(|&a| a != node)
        .filter_map(|a| cutoff_step(replay, a, exit).map(|s| (a, s)))
        .max_by_key(|&(_, s)| s)
}

/// Why SSS* never reached a node (neither expanded nor evaluated it), in Stockman's terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SssUnreached {
    /// Its LIVE state went into OPEN (its parent, a Max node, was expanded) and was purged,
    /// untaken, when Max node `by` was solved at `step` (1-based).
    Purged {
        /// The Max node solved.
        by: NodeId,
        /// The step of its solving (the cutoff), from 1.
        step: usize,
    },
    /// Never in OPEN: its parent, a Min node, was abandoned before its turn — every state under
    /// it purged when Max node `by` was solved at `step` (1-based).
    ParentAbandoned {
        /// The parent.
        parent: NodeId,
        /// The Max node solved.
        by: NodeId,
        /// The step of its solving, from 1.
        step: usize,
    },
    /// Never in OPEN: its parent was never expanded.
    ParentUnexpanded {
        /// The parent.
        parent: NodeId,
    },
}

/// Why SSS* has ruled out `node` after `k` steps; `None` when it is not ruled out (reached,
/// or its turn may still come).
pub fn sss_unreached(tree: &Tree, replay: &Replay, node: NodeId, k: usize) -> Option<SssUnreached> {
    replay.state(node, k).pruned_by?;
    let parent = tree.parent(node)?;
    if sss_entry(replay, parent, k).is_none() {
        return Some(SssUnreached::ParentUnexpanded { parent });
    }
    if sss_max(tree, parent) {
        if let Some(step) = cutoff_step(replay, parent, k) {
            return Some(SssUnreached::Purged { by: parent, step });
        }
        let (by, step) = sss_abandoned_by(tree, replay, parent, k)?;
        return Some(SssUnreached::Purged { by, step });
    }
    let (by, step) = sss_abandoned_by(tree, replay, parent, k)?;
    Some(SssUnreached::ParentAbandoned { parent, by, step })
}

impl SssUnreached {
    /// In words: "in OPEN, purged when + node c2 was solved", "never in OPEN: its parent − node
    /// a was abandoned when the root was solved", "never in OPEN: its parent + node a2 was
    /// never expanded"; with the step of the solving when `step` is set.
    pub fn sentence(&self, tree: &Tree, step: bool) -> String {
        let at = |s: usize| {
            if step {
                format!(" at step {s}")
            } else {
                String::new()
            }
        };
        match *self {
            SssUnreached::Purged { by, step } => {
                format!(
                    "in OPEN, purged when {} was solved{}",
                    named(tree, by),
                    at(step)
                )
            }
            SssUnreached::ParentAbandoned { parent, by, step } => format!(
                "never in OPEN: its parent {} was abandoned when {} was solved{}",
                named(tree, parent),
                named(tree, by),
                at(step)
            ),
            SssUnreached::ParentUnexpanded { parent } => format!(
                "never in OPEN: its parent {} was never expanded",
                named(tree, parent)
            ),
        }
    }
}

/// A node with its kind: "− node #2", "the root".
fn named(tree: &Tree, n: NodeId) -> String {
    if n == tree.root() && tree.label(n).is_none() {
        "the root".into()
    } else {
        format!("{} {}", kind_words(tree.kind(n)), node_name(tree, n))
    }
}

/// The value `child` returned at its latest exit (or evaluation) before step `k` (1-based).
fn child_value(replay: &Replay, child: NodeId, k: usize) -> Option<f64> {
    returns(replay, child, 0, k).next().map(|(_, v)| v)
}

/// Ballard's equations for the Aᵢ and Bᵢ child `i` (from 0) of chance node `chance` was
/// searched under, among the first `k` steps, with the numbers filled in: (2a)/(2b) for
/// equally likely children, (22) and its twin otherwise — "A2 = 3·α − V1 − U·1 = 3·5 − 4 −
/// 10·1 = 1 (2a)". Where Star2 probed the node's children, the probed side's bound comes
/// from the probes' values W instead: (7)–(8) in the probing phase ("A2 = 3·α − W1 − U·1"),
/// (6) in the regular phase ("A1 = 3·α − W2 − W3"), weighted as (22) weights them for uneven
/// probabilities. Only the equations that give the number the trace recorded are returned.
pub fn chance_arithmetic(
    tree: &Tree,
    replay: &Replay,
    chance: NodeId,
    i: usize,
    k: usize,
) -> Vec<String> {
    let Some(at) = Announced::find(tree, replay, chance, i, k) else {
        return Vec::new();
    };
    let bounds = tree.value_bounds();
    let (l, u) = (bounds.lo, bounds.hi);
    // Star2: the probes made below this node's children before the announcement.
    let probes = Probes::before(tree, replay, chance, at.step);
    let mut out = Vec::new();
    let uniform = tree.is_uniform(chance);
    let min_children = tree.kind(at.child) == Kind::Min;
    // The side the probes bound: A under − children, B under + children.
    let probed_side = (probes.any() || at.probing).then_some(if min_children { "A" } else { "B" });
    if probed_side.is_some() {
        out.extend(probed_line(tree, chance, i, &at, &probes, min_children));
    }
    for (name, window, far, recorded, eq) in [
        (
            "A",
            (at.alpha, "α"),
            (u, "U"),
            at.a,
            if uniform { "(2a)" } else { "(22)" },
        ),
        (
            "B",
            (at.beta, "β"),
            (l, "L"),
            at.b,
            if uniform { "(2b)" } else { "(22), for B" },
        ),
    ] {
        if !window.0.is_finite() || !recorded.is_finite() || probed_side == Some(name) {
            continue;
        }
        let eq = if at.probing && uniform {
            // Star2Min's probing loop keeps B at (3b) (BX = min(B, U)), whichever child.
            if name == "A" { "(3a)" } else { "(3b)" }
        } else {
            eq
        };
        let equation = if at.probing {
            probing_equation(tree, chance, at.child, window, far, eq)
        } else if uniform {
            uniform_equation(tree.child_count(chance), i, &at.values, window, far, eq)
        } else {
            weighted_equation(tree, chance, i, &at.values, window, far, eq)
        };
        if close(equation.value, recorded) {
            out.push(equation.line(name, i + 1, recorded));
        }
    }
    out
}

/// The latest announcement of the bounds Aᵢ, Bᵢ of a chance node's child, among the first `k`
/// steps, with what the equations for them read.
struct Announced {
    child: NodeId,
    /// The step of the announcement (0-based).
    step: usize,
    a: f64,
    b: f64,
    /// The chance node's window then.
    alpha: f64,
    beta: f64,
    /// Whether the announcement opens a probe (Star2's probing phase: no child has a value
    /// yet), else the child's regular search.
    probing: bool,
    /// The values V of the children before this one.
    values: Vec<f64>,
}

impl Announced {
    /// `None` when child `i` of `chance` was not announced, or (outside the probing phase) a
    /// child before it has no value yet.
    fn find(tree: &Tree, replay: &Replay, chance: NodeId, i: usize, k: usize) -> Option<Self> {
        let child = tree.child(chance, i);
        let (s, a, b) = latest(replay, child, 0, k).find_map(|(s, e)| match e {
            EventView::ChanceBounds { a, b, .. } => Some((s, a, b)),
            _ => None,
        })?;
        let (_, (alpha, beta)) = latest_entry(replay, chance, s)?;
        let probing = s + 1 < replay.trace().len()
            && matches!(replay.trace().event(s + 1).view(),
                EventView::Probe { child: g } if tree.parent(g) == Some(child));
        let mut values = Vec::new();
        for j in 0..i {
            match child_value(replay, tree.child(chance, j), s + 1) {
                Some(v) => values.push(v),
                None if probing => break,
                None => return None,
            }
        }
        Some(Announced {
            child,
            step: s,
            a,
            b,
            alpha,
            beta,
            probing,
            values,
        })
    }
}

/// Whether a recomputed bound is the one the trace recorded.
fn close(x: f64, y: f64) -> bool {
    x == y || (x - y).abs() <= 1e-9 * (1.0 + y.abs())
}

/// The equation of the side Star2's probes bound (A under − children, B under + children),
/// if one gives the number recorded: with only the probes that prove a bound, else with all.
fn probed_line(
    tree: &Tree,
    chance: NodeId,
    i: usize,
    at: &Announced,
    probes: &Probes,
    min_children: bool,
) -> Option<String> {
    let bounds = tree.value_bounds();
    let (w, (f, fname), recorded, name, wname) = if min_children {
        (at.alpha, (bounds.hi, "U"), at.a, "A", "α")
    } else {
        (at.beta, (bounds.lo, "L"), at.b, "B", "β")
    };
    if !(w.is_finite() && recorded.is_finite()) {
        return None;
    }
    [true, false].into_iter().find_map(|proved_only| {
        let eq = probes.equation(ProbeEquation {
            tree,
            chance,
            i,
            values: &at.values,
            probing: at.probing,
            proved_only,
            window: (w, wname),
            far: (f, fname),
        });
        close(eq.value, recorded).then(|| eq.line(name, i + 1, recorded))
    })
}

/// One of Ballard's equations with the numbers filled in.
struct Equation {
    /// The bound it computes.
    value: f64,
    /// Its right side in symbols: "3·α − V1 − U·1".
    symbols: String,
    /// Its right side in numbers: "3·5 − 4 − 10·1".
    numbers: String,
    /// Its number in the paper: "(2a)".
    number: &'static str,
}

impl Equation {
    /// "A2 = 3·α − V1 − U·1 = 3·5 − 4 − 10·1 = 1 (2a)", ending on the number the trace recorded.
    fn line(&self, name: &str, idx: usize, recorded: f64) -> String {
        format!(
            "{name}{idx} = {} = {} = {} {}",
            self.symbols,
            self.numbers,
            short_number(recorded),
            self.number
        )
    }
}

/// The bound of the side the probes do not bound, in Star2's probing phase: (3a)/(3b) for
/// equally likely children, as if nothing but this child were known; weighted otherwise.
fn probing_equation(
    tree: &Tree,
    chance: NodeId,
    child: NodeId,
    (w, wname): (f64, &str),
    (f, fname): (f64, &str),
    number: &'static str,
) -> Equation {
    let n = tree.child_count(chance);
    let num = short_number;
    if tree.is_uniform(chance) {
        Equation {
            value: n as f64 * w - f * (n - 1) as f64,
            symbols: format!("{n}·{wname} − {fname}·{}", n - 1),
            numbers: format!("{n}·{} − {}·{}", term(w), term(f), n - 1),
            number,
        }
    } else {
        let p = tree.prob(child);
        let idx = tree.child_index(child) + 1;
        Equation {
            value: (w - f * (1.0 - p)) / p,
            symbols: format!("({wname} − {fname}·(1 − P{idx})) / P{idx}"),
            numbers: format!("({} − {}·{}) / {}", num(w), term(f), num(1.0 - p), num(p)),
            number,
        }
    }
}

/// (2a)/(2b), equally likely children: `Ai = N·α − V1 − … − Vi−1 − U·(N − i)`.
fn uniform_equation(
    n: usize,
    i: usize,
    values: &[f64],
    (w, wname): (f64, &str),
    (f, fname): (f64, &str),
    number: &'static str,
) -> Equation {
    let idx = i + 1;
    let later = (n - idx) as f64;
    let sum: f64 = values.iter().sum();
    let (vs, vn) = if values.is_empty() {
        ("0".to_owned(), "0".to_owned())
    } else {
        let vs: Vec<String> = (1..=i).map(|j| format!("V{j}")).collect();
        let vn: Vec<String> = values.iter().map(|&v| short_number(v)).collect();
        (vs.join(" − "), vn.join(" − "))
    };
    Equation {
        value: n as f64 * w - sum - f * later,
        symbols: format!("{n}·{wname} − {vs} − {fname}·{}", n - idx),
        numbers: format!("{n}·{} − {vn} − {}·{}", term(w), term(f), n - idx),
        number,
    }
}

/// (22) and its twin for B, uneven probabilities:
/// `Ai = (α − Σ_{j<i} Pj Vj − U·Σ_{j>i} Pj) / Pi`.
fn weighted_equation(
    tree: &Tree,
    chance: NodeId,
    i: usize,
    values: &[f64],
    (w, wname): (f64, &str),
    (f, fname): (f64, &str),
    number: &'static str,
) -> Equation {
    let num = short_number;
    let (idx, n) = (i + 1, tree.child_count(chance));
    let p = |j: usize| tree.prob(tree.child(chance, j));
    let done: f64 = (0..i).map(|j| p(j) * values[j]).sum();
    let rest: f64 = (idx..n).map(p).sum();
    let pv = (0..i)
        .map(|j| format!("{}·{}", num(p(j)), term(values[j])))
        .collect::<Vec<_>>();
    let pvs = if pv.is_empty() {
        "0".to_owned()
    } else {
        pv.join(" − ")
    };
    Equation {
        value: (w - done - f * rest) / p(i),
        symbols: format!("({wname} − Σ P·V − {fname}·Σ P after) / P{idx}"),
        numbers: format!(
            "({} − {pvs} − {}·{}) / {}",
            num(w),
            num(f),
            num(rest),
            num(p(i))
        ),
        number,
    }
}

/// A number as a term of a sum or a factor: negative ones in parentheses.
fn term(x: f64) -> String {
    if x < 0.0 {
        format!("({})", short_number(x))
    } else {
        short_number(x)
    }
}

/// What Star2's probes showed of each child of a chance node before some step: for each child,
/// the values of its probed children, each with whether it proves a bound on the child (a leaf,
/// or a search that did not fail on the far side).
struct Probes {
    seen: Vec<Vec<(f64, bool)>>,
    min: bool,
}

/// The inputs of one of Star2's probe equations.
struct ProbeEquation<'a> {
    tree: &'a Tree,
    chance: NodeId,
    /// The child (from 0) whose bound is computed.
    i: usize,
    /// The values V of the children before `i`.
    values: &'a [f64],
    /// Whether the bound is the probing phase's (else the regular phase's).
    probing: bool,
    /// Count only the probes that prove a bound (the cutoff tests' W), or all of them (the
    /// running sums' W).
    proved_only: bool,
    window: (f64, &'static str),
    far: (f64, &'static str),
}

impl Probes {
    fn before(tree: &Tree, replay: &Replay, chance: NodeId, s: usize) -> Probes {
        let min = tree
            .children(chance)
            .next()
            .is_some_and(|c| tree.kind(c) == Kind::Min);
        let seen = tree
            .children(chance)
            .map(|c| {
                tree.children(c)
                    .filter_map(|g| {
                        let probe = latest(replay, g, 0, s)
                            .filter(|(_, e)| matches!(e, EventView::Probe { .. }))
                            .last()?;
                        // What the probe returned: the first return after it.
                        let (_, value, bound) = latest(replay, g, probe.0, s)
                            .filter_map(|(t, e)| match e {
                                EventView::Leaf { value, .. } => Some((t, value, Bound::Exact)),
                                EventView::Exit { value, bound, .. } => Some((t, value, bound)),
                                _ => None,
                            })
                            .last()?;
                        let failed = if min {
                            bound == Bound::Lower
                        } else {
                            bound == Bound::Upper
                        };
                        Some((value, !failed))
                    })
                    .collect()
            })
            .collect();
        Probes { seen, min }
    }

    fn any(&self) -> bool {
        self.seen.iter().any(|v| !v.is_empty())
    }

    /// Child `j`'s W: the smallest (largest, under + children) probe value, or `None` when it
    /// was not probed (the equations use U, or L, then).
    fn w(&self, j: usize, proved_only: bool) -> Option<f64> {
        let vals = self.seen[j]
            .iter()
            .filter(|(_, proved)| *proved || !proved_only)
            .map(|(v, _)| *v);
        if self.min {
            vals.reduce(f64::min)
        } else {
            vals.reduce(f64::max)
        }
    }

    /// The bound of (6) or (7)–(8) from the probes, as an [`Equation`].
    fn equation(&self, q: ProbeEquation) -> Equation {
        let (tree, i, n) = (q.tree, q.i, q.tree.child_count(q.chance));
        let (w, wname) = q.window;
        let (f, fname) = q.far;
        let num = short_number;
        // The children whose W stands in the sum: in the probing phase those before `i` in
        // the first round, every other one in later rounds; in the regular phase those after.
        let again = !self.seen[i].is_empty();
        let with_w: Vec<usize> = if q.probing && !again {
            (0..i).collect()
        } else if q.probing {
            (0..n).filter(|&j| j != i).collect()
        } else {
            (i + 1..n).collect()
        };
        let at_far: Vec<usize> = if q.probing && !again {
            (i + 1..n).collect()
        } else {
            Vec::new()
        };
        let with_v: Vec<usize> = if q.probing {
            Vec::new()
        } else {
            (0..i).collect()
        };
        let wv = |j: usize| self.w(j, q.proved_only);
        let eq = if q.probing && !again {
            "(7)–(8)"
        } else if self.min {
            "(6)"
        } else {
            "(6), mirrored for + children"
        };
        if tree.is_uniform(q.chance) {
            let nf = n as f64;
            let mut value = nf * w;
            let mut symbols = vec![format!("{n}·{wname}")];
            let mut numbers = vec![format!("{n}·{}", term(w))];
            for &j in &with_v {
                value -= q.values[j];
                symbols.push(format!("V{}", j + 1));
                numbers.push(term(q.values[j]));
            }
            for &j in &with_w {
                let x = wv(j);
                value -= x.unwrap_or(f);
                symbols.push(match x {
                    Some(_) => format!("W{}", j + 1),
                    None => fname.to_owned(),
                });
                numbers.push(term(x.unwrap_or(f)));
            }
            if !at_far.is_empty() {
                value -= f * at_far.len() as f64;
                symbols.push(format!("{fname}·{}", at_far.len()));
                numbers.push(format!("{}·{}", term(f), at_far.len()));
            }
            Equation {
                value,
                symbols: symbols.join(" − "),
                numbers: numbers.join(" − "),
                number: eq,
            }
        } else {
            let p = |j: usize| tree.prob(tree.child(q.chance, j));
            let mut value = w;
            let mut symbols = vec![wname.to_owned()];
            let mut numbers = vec![num(w)];
            for &j in &with_v {
                value -= p(j) * q.values[j];
                symbols.push(format!("P{0}·V{0}", j + 1));
                numbers.push(format!("{}·{}", num(p(j)), term(q.values[j])));
            }
            for &j in with_w.iter().chain(&at_far) {
                let x = if at_far.contains(&j) { None } else { wv(j) };
                value -= p(j) * x.unwrap_or(f);
                symbols.push(match x {
                    Some(_) => format!("P{0}·W{0}", j + 1),
                    None => format!("P{}·{fname}", j + 1),
                });
                numbers.push(format!("{}·{}", num(p(j)), term(x.unwrap_or(f))));
            }
            let pi = p(i);
            Equation {
                value: value / pi,
                symbols: format!("({}) / P{}", symbols.join(" − "), i + 1),
                numbers: format!("({}) / {}", numbers.join(" − "), num(pi)),
                number: if eq == "(7)–(8)" {
                    "(7)–(8), weighted as (22)"
                } else if self.min {
                    "(6), weighted as (22)"
                } else {
                    "(6), mirrored, weighted as (22)"
                },
            }
        }
    }
}

/// The statistics of the first `k` steps: leaf evaluations, interior nodes entered, cutoffs,
/// probes and re-searches so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SoFar {
    /// Leaf evaluations.
    pub leaves: u64,
    /// Entries into interior nodes, each counted.
    pub interior: u64,
    /// Cutoffs of every kind.
    pub cutoffs: u64,
    /// Star2's probes.
    pub probes: u64,
    /// Searches again with a new window (NegaScout, MTD(f), aspiration windows).
    pub researches: u64,
}

/// [`SoFar`] of `trace`'s first `k` steps (all of them when `k` is past the end), counted from
/// the events alone.
pub fn so_far(trace: &Trace, k: usize) -> SoFar {
    let mut s = SoFar::default();
    for e in &trace.events()[..k.min(trace.len())] {
        match e.view() {
            EventView::Leaf { .. } => s.leaves += 1,
            EventView::Enter { .. } => s.interior += 1,
            EventView::Cutoff { .. } => s.cutoffs += 1,
            EventView::Probe { .. } => s.probes += 1,
            EventView::Research { .. } => s.researches += 1,
            _ => {}
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;
    use crate::trace::{StepIndex, record};
    use std::sync::atomic::AtomicU64;

    /// Knuth & Moore's classic tree `((3,12,8),(2,4,6),(14,5,2))` under alpha-beta: the second
    /// Min node is entered with α = 3, the value of the first, and cuts off after its first
    /// leaf, 2 ≤ α = 3.
    #[test]
    fn alpha_comes_from_the_first_min_node() {
        let tree = crate::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
        let algo = Algorithm::AlphaBeta { fail_soft: false };
        let (_, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
        let index = StepIndex::new(&tree, &trace);
        let replay = Replay::with_index(&tree, &trace, &index);
        let end = trace.len();
        let second = tree.child(tree.root(), 1);
        let (x, origin) = window_origin(&tree, &replay, second, end, End::Alpha).unwrap();
        assert_eq!(x, 3.0);
        let first = tree.child(tree.root(), 0);
        let Origin::Returned {
            child,
            parent,
            step,
        } = origin
        else {
            panic!("{origin:?}");
        };
        assert_eq!((child, parent), (first, tree.root()));
        assert!(
            matches!(trace.event(step - 1).view(), EventView::Exit { node, value, .. } if node == first && value == 3.0)
        );
        assert_eq!(
            origin.sentence(&tree, &algo, End::Alpha, x),
            format!("α = 3: the value of #1, returned to the root at step {step}")
        );
        let (b, o) = window_origin(&tree, &replay, second, end, End::Beta).unwrap();
        assert_eq!((b, o), (f64::INFINITY, Origin::Start));
        // A leaf below inherits α from its Min parent, which inherited it from the root.
        let leaf = tree.child(second, 0);
        assert_eq!(window_origin(&tree, &replay, leaf, end, End::Alpha), None);
        let reason = cutoff_reason(&tree, &algo, &replay, second, end).unwrap();
        assert!(
            reason.starts_with("#2.1 returned 2 ≤ α = 3 of − node #2; α = 3: the value of #1"),
            "{reason}"
        );
        assert!(chance_arithmetic(&tree, &replay, second, 0, end).is_empty());
        let so = so_far(&trace, end);
        assert_eq!((so.leaves, so.cutoffs), (7, 2));
        assert_eq!(so_far(&trace, 0), SoFar::default());
    }

    /// Star1 on `+(*(3,5),*(2,6))`: the second chance node is searched with α = 4, the first's
    /// value, and its first child with A1 = 2·4 − 0 − 6·1 = 2 (equation 2a, L..U = 2..6).
    #[test]
    fn ballards_equations_with_the_numbers_filled_in() {
        let tree = crate::format::parse_expr("+(*(3,5),*(2,6))", false).unwrap();
        let algo = Algorithm::Star1 { rightmost: false };
        let (_, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
        let index = StepIndex::new(&tree, &trace);
        let replay = Replay::with_index(&tree, &trace, &index);
        let second = tree.child(tree.root(), 1);
        let eqs = chance_arithmetic(&tree, &replay, second, 0, trace.len());
        assert_eq!(
            eqs,
            vec!["A1 = 2·α − 0 − U·1 = 2·4 − 0 − 6·1 = 2 (2a)".to_owned()],
            "{eqs:?}"
        );
        // Uneven probabilities: equation (22).
        let tree = crate::format::parse_expr("+(*(1/4:3,3/4:5),*(1/4:2,3/4:6))", false).unwrap();
        let (_, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
        let index = StepIndex::new(&tree, &trace);
        let replay = Replay::with_index(&tree, &trace, &index);
        let second = tree.child(tree.root(), 1);
        let eqs = chance_arithmetic(&tree, &replay, second, 0, trace.len());
        // α = 4.5; A1 = (4.5 − 0 − 6·0.75) / 0.25 = 0.
        assert_eq!(eqs.len(), 1, "{eqs:?}");
        assert!(
            eqs[0].starts_with(
                "A1 = (α − Σ P·V − U·Σ P after) / P1 = (4.5 − 0 − 6·0.75) / 0.25 = 0 (22)"
            ),
            "{eqs:?}"
        );
    }

    /// Star2 on three chance nodes of two − nodes each (L..U = 1..9): the third chance node,
    /// entered with α = 4, probes its children under (7)–(8), A1 = 2·4 − 9·1 = −1 and A2 =
    /// 2·4 − W1 = 7, then searches them under (6), A1 = 2·4 − W2 = −1, A2 = 2·4 − V1 = 7.
    /// Every probed and regular bound is written out, and the other end (B) keeps (2b).
    #[test]
    fn star2s_probe_equations_with_the_numbers_filled_in() {
        let tree = crate::format::parse_expr(
            "+(*(-(3,9),-(5,7)),*(-(2,8),-(6,4)),*(-(1,9),-(9,9)))",
            false,
        )
        .unwrap();
        let algo = Algorithm::Star2 {
            probes: 1,
            probe_always: false,
            rightmost: false,
        };
        let (_, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
        let index = StepIndex::new(&tree, &trace);
        let replay = Replay::with_index(&tree, &trace, &index);
        let third = tree.child(tree.root(), 2);
        // Every announcement of a bound for the third chance node's children, in order.
        let mut all = Vec::new();
        for k in 0..trace.len() {
            if let EventView::ChanceBounds { child, .. } = trace.event(k).view()
                && tree.parent(child) == Some(third)
            {
                let i = tree.child_index(child);
                all.push(chance_arithmetic(&tree, &replay, third, i, k + 1));
            }
        }
        let a = |v: &Vec<String>| v.iter().find(|e| e.starts_with('A')).cloned();
        assert_eq!(all.len(), 4, "{all:?}");
        assert_eq!(
            a(&all[0]).as_deref(),
            Some("A1 = 2·α − U·1 = 2·4 − 9·1 = -1 (7)–(8)"),
            "{all:?}"
        );
        assert_eq!(
            a(&all[1]).as_deref(),
            Some("A2 = 2·α − W1 = 2·4 − 1 = 7 (7)–(8)"),
            "{all:?}"
        );
        assert_eq!(
            a(&all[2]).as_deref(),
            Some("A1 = 2·α − W2 = 2·4 − 9 = -1 (6)"),
            "{all:?}"
        );
        assert_eq!(
            a(&all[3]).as_deref(),
            Some("A2 = 2·α − V1 = 2·4 − 1 = 7 (6)"),
            "{all:?}"
        );
        // Under a Min root the second chance node gets β = 8 from the first, and its + children
        // are probed from below: the mirror image, B from the probes, A at −∞ not written.
        let tree =
            crate::format::parse_expr("-(*(+(3,9),+(5,7)),*(+(6,8),+(2,4)))", false).unwrap();
        let (_, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
        let index = StepIndex::new(&tree, &trace);
        let replay = Replay::with_index(&tree, &trace, &index);
        let second = tree.child(tree.root(), 1);
        let mut all = Vec::new();
        for k in 0..trace.len() {
            if let EventView::ChanceBounds { child, .. } = trace.event(k).view()
                && tree.parent(child) == Some(second)
            {
                let i = tree.child_index(child);
                all.push(chance_arithmetic(&tree, &replay, second, i, k + 1));
            }
        }
        assert_eq!(
            all,
            [
                vec!["B1 = 2·β − L·1 = 2·8 − 2·1 = 14 (7)–(8)"],
                vec!["B2 = 2·β − W1 = 2·8 − 6 = 10 (7)–(8)"],
                vec!["B1 = 2·β − W2 = 2·8 − 2 = 14 (6), mirrored for + children"],
                vec!["B2 = 2·β − V1 = 2·8 − 8 = 8 (6), mirrored for + children"],
            ]
        );
    }

    /// On seeded chance trees (equally likely and uneven, with probing once and cyclically),
    /// every bound Star1 and Star2 announce with a finite window end gets its equation, with
    /// the number the trace recorded.
    #[test]
    fn every_announced_bound_has_its_equation() {
        use crate::generate::{Values, chance::ChanceTree};
        let (mut written, mut missing) = (0, Vec::new());
        let mut probed = [0; 2]; // (7)–(8), (6)
        for seed in 0..40u64 {
            let p = ChanceTree {
                branching: 2 + (seed % 2) as u32,
                chance_branching: 2 + (seed % 3) as u32,
                depth: 2,
                values: Values::integers(-6, 6),
                uneven: seed % 4 >= 2,
                irregular: false,
            };
            let tree = crate::generate::chance::generate(&p, seed).unwrap();
            for algo in [
                Algorithm::Star1 { rightmost: false },
                Algorithm::Star2 {
                    probes: 1,
                    probe_always: seed % 2 == 0,
                    rightmost: false,
                },
                Algorithm::Star2 {
                    probes: 2,
                    probe_always: false,
                    rightmost: false,
                },
            ] {
                let (_, trace) = record(&tree, &algo, &AtomicU64::new(0)).unwrap();
                let index = StepIndex::new(&tree, &trace);
                let replay = Replay::with_index(&tree, &trace, &index);
                for k in 0..trace.len() {
                    let EventView::ChanceBounds { child, a, b } = trace.event(k).view() else {
                        continue;
                    };
                    let chance = tree.parent(child).unwrap();
                    let Some((_, (alpha, beta))) = latest_entry(&replay, chance, k) else {
                        continue;
                    };
                    let i = tree.child_index(child);
                    let eqs = chance_arithmetic(&tree, &replay, chance, i, k + 1);
                    for (name, w, x) in [("A", alpha, a), ("B", beta, b)] {
                        if !w.is_finite() || !x.is_finite() {
                            continue;
                        }
                        match eqs.iter().find(|e| e.starts_with(name)) {
                            Some(e) => {
                                written += 1;
                                probed[0] += usize::from(e.contains("(7)–(8)"));
                                probed[1] += usize::from(e.contains("(6)"));
                                assert!(
                                    e.contains(&format!("= {} (", short_number(x))),
                                    "{e} for {x}"
                                );
                            }
                            None => {
                                missing.push(format!("{algo} seed {seed} step {k} {name}{}", i + 1))
                            }
                        }
                    }
                }
            }
        }
        assert!(
            missing.is_empty(),
            "{} written, missing: {missing:?}",
            written
        );
        assert!(written > 200, "{written}");
        assert!(probed[0] > 20 && probed[1] > 20, "{probed:?}");
    }
}
