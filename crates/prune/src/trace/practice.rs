//! Practice: a recorded run turned into the questions a student answers as the search proceeds.
//!
//! Before the search (for the algorithms that prune, on trees of at most [`LEAVES_ASKED`]
//! leaves): "which leaves are never evaluated?". At each `enter` of an interior node (for the
//! algorithms that pass windows down): "what window does X get?"; at each `exit`: "what does X
//! return?" (with its bound mark when the value is only a bound); after each child that has a
//! next sibling: "is the next child of X searched or pruned?", answered by the trace's cutoff
//! events. Every question knows its answer, checks a typed one (`3`, `-2.5`, `1/3`, `inf`,
//! `>=3`, `-inf 5`, `3,-3`, `s`/`p`, `#2.2, #3.1`), offers a few answers to pick from (the right
//! one among the mistakes a student makes: a child's value, the wrong bound, a window left
//! unchanged), and says why the answer is what it is with the sentences of
//! [`super::provenance`]. Nothing here draws: the explorer and the tests use it alike.
//!
//! SSS* is asked in Stockman's terms: a window is (−∞, the merit of the node's state in
//! OPEN), a value is a SOLVED merit or an abandoned node's bound, and "is the next child
//! searched?" is asked after a child is SOLVED while the sibling's turn is still to come (a Max
//! node's children wait in OPEN together, and a later one may be taken first).

use crate::search::{Algorithm, Bound, Run};
use crate::text::{number_text, ordinal, short_number};
use crate::tree::names::{kind_words, node_name};
use crate::tree::{Kind, NodeId, Tree};

use super::provenance::{
    End, cutoff_reason, cutoff_step, sss_abandoned_by, sss_entry, sss_live_merit, sss_max,
    sss_solved, sss_unreached, window_origin,
};
use super::replay::Shown;
use super::{EventView, Replay, Trace, narrate};

/// What a question asks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// The window (α, β) a node is entered with.
    Window,
    /// The value a node returns, with its bound.
    Value,
    /// Whether the next child of a node is searched (true) or pruned.
    NextChild,
    /// Which leaves the whole search never evaluates (asked before it starts).
    Unevaluated,
}

impl Ask {
    /// The kind of question as the practice log names it.
    pub fn name(self) -> &'static str {
        match self {
            Ask::Window => "window",
            Ask::Value => "value",
            Ask::NextChild => "next-child",
            Ask::Unevaluated => "unevaluated-leaves",
        }
    }
}

/// The correct answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The window the node is entered with.
    Window(f64, f64),
    /// The value the node returns, and whether it is exact or a bound.
    Value(f64, Bound),
    /// An n-player node's vector, and whether it is exact or a bound.
    Vector(Vec<f64>, Bound),
    /// Searched (true) or pruned (false).
    Searched(bool),
    /// The names of the leaves never evaluated (`never`), among the names of all the tree's
    /// leaves (`leaves`, to tell a misspelt name from a wrong one).
    Leaves {
        /// The leaves never evaluated.
        never: Vec<String>,
        /// Every leaf's name.
        leaves: Vec<String>,
    },
}

/// The largest tree (in leaves) whose unevaluated leaves are asked for: a student lists them by
/// hand.
pub const LEAVES_ASKED: usize = 64;

/// One question, asked when the run stands after `step` steps (the explorer shows that state).
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// Steps applied when the question is asked: its answer is the event after them.
    pub step: usize,
    /// The node asked about.
    pub node: NodeId,
    /// What is asked.
    pub ask: Ask,
    /// The right answer.
    pub answer: Answer,
    /// The question in words.
    pub text: String,
    /// Why the answer is what it is: the provenance of the bounds, the cutoff's comparison.
    pub why: String,
    /// Answers to pick from, as they would be typed (exactly one of them is right); empty when
    /// the answer is typed or marked on the outline (the unevaluated leaves).
    pub choices: Vec<String>,
}

/// Whether `algo` hands its children a window worth asking about: the full-width searches
/// (minimax, expectiminimax, max^n, the product and k rules) enter every node with −∞..∞.
pub fn asks_windows(algo: &Algorithm) -> bool {
    !matches!(
        algo,
        Algorithm::Minimax
            | Algorithm::Expectiminimax
            | Algorithm::Maxn
            | Algorithm::Product
            | Algorithm::KRule { .. }
    )
}

/// The questions of `run`'s trace, in the order the search reaches them.
pub fn questions(tree: &Tree, run: &Run, trace: &Trace, replay: &Replay) -> Vec<Question> {
    let algo = &run.algorithm;
    let windows = asks_windows(algo);
    let mut out = Vec::new();
    if windows && tree.leaf_count() <= LEAVES_ASKED {
        out.push(unevaluated(tree, run, trace, replay));
    }
    let sss = algo.base() == &Algorithm::Sss;
    for s in 0..trace.len() {
        match trace.event(s).view() {
            EventView::Enter { node, alpha, beta } if windows => out.push(Question {
                step: s,
                node,
                ask: Ask::Window,
                answer: Answer::Window(alpha, beta),
                text: format!("What window (α β) does {} get?", named(tree, node)),
                why: if sss {
                    sss_window_why(tree, replay, node, s + 1)
                } else {
                    window_why(tree, algo, replay, node, s + 1)
                },
                choices: window_choices(tree, replay, node, s, (alpha, beta)),
            }),
            EventView::Exit { node, value, bound } => {
                out.push(Question {
                    step: s,
                    node,
                    ask: Ask::Value,
                    answer: Answer::Value(value, bound),
                    text: format!("What does {} return?", named(tree, node)),
                    why: if sss {
                        sss_value_why(tree, replay, node, s, value, bound)
                    } else {
                        value_why(tree, run, trace, replay, node, s)
                    },
                    choices: value_choices(tree, replay, node, s, (value, bound), windows),
                });
                if !sss {
                    next_child(tree, run, trace, replay, node, s, &mut out);
                } else if bound != Bound::Upper {
                    // An abandoned node's siblings wait on no solving of it.
                    sss_next_child(tree, trace, replay, node, s, &mut out);
                }
            }
            EventView::ExitVector { node, index, bound } => {
                let vector = trace.vector(index).to_vec();
                out.push(Question {
                    step: s,
                    node,
                    ask: Ask::Value,
                    choices: vector_choices(tree, trace, replay, node, s, (&vector, bound)),
                    answer: Answer::Vector(vector, bound),
                    text: format!("What vector does {} return?", named(tree, node)),
                    why: value_why(tree, run, trace, replay, node, s),
                });
                next_child(tree, run, trace, replay, node, s, &mut out);
            }
            EventView::Leaf { node, .. } if sss => {
                sss_next_child(tree, trace, replay, node, s, &mut out)
            }
            EventView::Leaf { node, .. } => next_child(tree, run, trace, replay, node, s, &mut out),
            _ => {}
        }
    }
    out
}

/// `child`'s parent and its next sibling, when it has one.
fn next_sibling(tree: &Tree, child: NodeId) -> Option<(NodeId, NodeId)> {
    let parent = tree.parent(child)?;
    let i = tree.child_index(child);
    (i + 1 < tree.child_count(parent)).then(|| (parent, tree.child(parent, i + 1)))
}

/// After `child` returned at step `s`: is its next sibling searched, or does a cutoff at its
/// parent prune it? Asked only when there is a next sibling and the parent is still open.
fn next_child(
    tree: &Tree,
    run: &Run,
    trace: &Trace,
    replay: &Replay,
    child: NodeId,
    s: usize,
    out: &mut Vec<Question>,
) {
    let Some((parent, next)) = next_sibling(tree, child) else {
        return;
    };
    // The first later event at the parent (its cutoff or its exit) or at the next sibling.
    let mut verdict = None;
    for t in s + 1..trace.len() {
        let e = trace.event(t).view();
        let n = e.node();
        if n == next {
            verdict = Some((true, t));
            break;
        }
        if n == parent {
            match e {
                EventView::Cutoff { .. }
                | EventView::Exit { .. }
                | EventView::ExitVector { .. } => {
                    verdict = Some((false, t));
                    break;
                }
                _ => {}
            }
        }
    }
    let Some((searched, t)) = verdict else {
        return;
    };
    let nth = ordinal(tree.child_index(next) + 1);
    let algo = &run.algorithm;
    let why = if searched {
        let mut w = format!(
            "searched: no cutoff fired at {} after {}",
            named(tree, parent),
            node_name(tree, child)
        );
        let win = window_why(tree, algo, replay, parent, s + 1);
        if !win.is_empty() {
            w.push_str(&format!("; its window: {win}"));
        }
        w
    } else {
        let reason = cutoff_reason(tree, algo, replay, parent, t + 1)
            .unwrap_or_else(|| narrate::describe(tree, run, trace, replay, t + 1));
        format!("pruned: {reason}")
    };
    out.push(Question {
        step: s + 1,
        node: parent,
        ask: Ask::NextChild,
        answer: Answer::Searched(searched),
        text: format!(
            "Is the {nth} child of {} searched or pruned? (s/p)",
            named(tree, parent)
        ),
        why,
        choices: vec!["searched".into(), "pruned".into()],
    });
}

/// "Which leaves are never evaluated?", asked before the search starts: the leaves without a
/// `leaf` event, each with the cutoff (or finished ancestor) that rules it out.
fn unevaluated(tree: &Tree, run: &Run, trace: &Trace, replay: &Replay) -> Question {
    let end = trace.len();
    let mut evaluated = vec![false; tree.len()];
    for e in trace.events() {
        if let EventView::Leaf { node, .. } = e.view() {
            evaluated[node.index()] = true;
        }
    }
    let leaves: Vec<NodeId> = tree.preorder().filter(|&n| tree.is_leaf(n)).collect();
    let never: Vec<NodeId> = leaves
        .iter()
        .copied()
        .filter(|n| !evaluated[n.index()])
        .collect();
    // Group the unevaluated leaves by the node whose cutoff (or end) ruled them out.
    let mut groups: Vec<(Option<NodeId>, Vec<String>)> = Vec::new();
    for &n in &never {
        let by = replay.state(n, end).pruned_by.map(|(p, _)| p);
        match groups.iter_mut().find(|g| g.0 == by) {
            Some(g) => g.1.push(node_name(tree, n)),
            None => groups.push((by, vec![node_name(tree, n)])),
        }
    }
    let sss = run.algorithm.base() == &Algorithm::Sss;
    // SSS* cuts no window: each leaf is grouped by what Γ did to it (and its parent).
    let mut said: Vec<(String, Vec<String>)> = Vec::new();
    if sss {
        for &n in &never {
            let why = sss_unreached(tree, replay, n, end)
                .map_or_else(|| "never reached".into(), |u| u.sentence(tree, true));
            match said.iter_mut().find(|g| g.0 == why) {
                Some(g) => g.1.push(node_name(tree, n)),
                None => said.push((why, vec![node_name(tree, n)])),
            }
        }
    }
    let why = if never.is_empty() {
        format!(
            "{} evaluates every leaf of this tree",
            run.algorithm.label()
        )
    } else if sss {
        let parts: Vec<String> = said
            .iter()
            .map(|(why, names)| format!("{}: {why}", names.join(", ")))
            .collect();
        parts.join("; ")
    } else {
        let parts: Vec<String> = groups
            .iter()
            .map(|(by, names)| {
                let names = names.join(", ");
                match by {
                    Some(p) => match super::provenance::cutoff_step(replay, *p, end) {
                        Some(step) => {
                            let reason = cutoff_reason(tree, &run.algorithm, replay, *p, end)
                                .unwrap_or_else(|| {
                                    narrate::describe(tree, run, trace, replay, step)
                                });
                            format!(
                                "{names}: cut off at {} at step {step} ({reason})",
                                named(tree, *p)
                            )
                        }
                        None => format!("{names}: {} finished without them", named(tree, *p)),
                    },
                    None => format!("{names}: never reached"),
                }
            })
            .collect();
        parts.join("; ")
    };
    Question {
        step: 0,
        node: tree.root(),
        ask: Ask::Unevaluated,
        answer: Answer::Leaves {
            never: never.iter().map(|&n| node_name(tree, n)).collect(),
            leaves: leaves.iter().map(|&n| node_name(tree, n)).collect(),
        },
        text: format!(
            "Before it starts: which leaves will {} never evaluate? (names, by commas; Space marks the selected leaf; `none`)",
            run.algorithm.label()
        ),
        why,
        choices: Vec::new(),
    }
}

/// The order choices are listed in: by value, then ≤ before = before ≥.
fn bound_rank(b: Bound) -> u8 {
    match b {
        Bound::Upper => 0,
        Bound::Exact => 1,
        Bound::Lower => 2,
    }
}

/// The right value and up to three wrong ones a student gives: a child's value (the rule
/// misapplied), the same number with the other bound marks (for the searches that return
/// bounds), an end of the node's window; then neighbouring numbers if that is not enough.
fn value_choices(
    tree: &Tree,
    replay: &Replay,
    node: NodeId,
    s: usize,
    right: (f64, Bound),
    bounds: bool,
) -> Vec<String> {
    let mut wrong: Vec<(f64, Bound)> = Vec::new();
    let add = |c: (f64, Bound), wrong: &mut Vec<(f64, Bound)>| {
        let is_right = same(c.0, right.0) && c.1 == right.1;
        if !(c.0.is_nan() || is_right || wrong.contains(&c)) {
            wrong.push(c);
        }
    };
    if bounds {
        for b in [Bound::Exact, Bound::Lower, Bound::Upper] {
            add((right.0, b), &mut wrong);
        }
    }
    for c in tree.children(node) {
        if let Some(Shown::Scalar(v)) = replay.state(c, s).value {
            add((v, Bound::Exact), &mut wrong);
        }
    }
    let st = replay.state(node, s);
    if let Some((a, b)) = st.window {
        for x in [a, b] {
            if x.is_finite() {
                add((x, Bound::Exact), &mut wrong);
            }
        }
    }
    let mut step = 1.0;
    while wrong.len() < 3 && right.0.is_finite() && step <= 3.0 {
        add((right.0 + step, Bound::Exact), &mut wrong);
        add((right.0 - step, Bound::Exact), &mut wrong);
        step += 1.0;
    }
    // Keep the wrong answers nearest the right one: the plausible mistakes.
    wrong.sort_by(|x, y| {
        let d = |c: &(f64, Bound)| (c.0 - right.0).abs();
        d(x).total_cmp(&d(y))
            .then(bound_rank(x.1).cmp(&bound_rank(y.1)))
    });
    wrong.truncate(3);
    wrong.push(right);
    wrong.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then(bound_rank(x.1).cmp(&bound_rank(y.1)))
    });
    wrong
        .into_iter()
        .map(|(v, b)| Answer::Value(v, b).text())
        .collect()
}

/// The right window and the usual mistakes: the parent's window passed down as it was, the
/// full window, each end left unchanged, the range of the leaf values.
fn window_choices(
    tree: &Tree,
    replay: &Replay,
    node: NodeId,
    s: usize,
    right: (f64, f64),
) -> Vec<String> {
    let (a, b) = right;
    let (inf, ninf) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut all = vec![right];
    // The range of the leaf values is a window students give the root.
    let vb = tree.value_bounds();
    let mut candidates = vec![
        (ninf, inf),
        (a, inf),
        (ninf, b),
        (vb.lo, vb.hi),
        (vb.lo, inf),
        (ninf, vb.hi),
    ];
    if let Some(p) = tree.parent(node)
        && let Some(w) = replay.state(p, s).window
    {
        candidates.insert(0, w);
    }
    for c in candidates {
        if all.len() < 4 && c.0 < c.1 && !all.iter().any(|w| same(w.0, c.0) && same(w.1, c.1)) {
            all.push(c);
        }
    }
    all.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.total_cmp(&y.1)));
    all.into_iter()
        .map(|(x, y)| Answer::Window(x, y).text())
        .collect()
}

/// The right vector and the vectors of the node's children so far (the wrong child chosen),
/// then the right one with another bound mark, at most four in all.
fn vector_choices(
    tree: &Tree,
    trace: &Trace,
    replay: &Replay,
    node: NodeId,
    s: usize,
    right: (&[f64], Bound),
) -> Vec<String> {
    let text = |v: &[f64], b: Bound| Answer::Vector(v.to_vec(), b).text();
    let mut all = vec![text(right.0, right.1)];
    let mut add = |t: String| {
        if all.len() < 4 && !all.contains(&t) {
            all.push(t);
        }
    };
    for c in tree.children(node) {
        match replay.state(c, s).value {
            Some(Shown::Vector(i)) => add(text(trace.vector(i), Bound::Exact)),
            Some(Shown::Payoff) => add(text(tree.payoff(c), Bound::Exact)),
            _ => {}
        }
    }
    let other = if right.1 == Bound::Exact {
        Bound::Lower
    } else {
        Bound::Exact
    };
    add(text(right.0, other));
    all.sort();
    all
}

/// A node with its kind: "− node #2", "the root".
fn named(tree: &Tree, n: NodeId) -> String {
    if n == tree.root() && tree.label(n).is_none() {
        "the root".into()
    } else {
        format!("{} {}", kind_words(tree.kind(n)), node_name(tree, n))
    }
}

/// SSS*'s window of `node`, expanded by step `k`: α is −∞ at every node, β the merit of its
/// LIVE state, and where Γ got that merit from (the root's +∞, its parent's merit when
/// expanded, or its previous sibling's SOLVED merit).
fn sss_window_why(tree: &Tree, replay: &Replay, node: NodeId, k: usize) -> String {
    let h = sss_live_merit(tree, replay, node, k).unwrap_or(f64::NAN);
    let from = match tree.parent(node) {
        None => "the root's state starts OPEN with it".to_owned(),
        Some(p) if sss_max(tree, p) || tree.child_index(node) == 0 => {
            format!("{} was expanded with it", named(tree, p))
        }
        Some(p) => {
            let prev = tree.child(p, tree.child_index(node) - 1);
            let step = sss_solved(tree, replay, prev, k).map_or(0, |(_, s)| s + 1);
            format!(
                "its previous sibling {} was SOLVED with it at step {step}",
                node_name(tree, prev)
            )
        }
    };
    format!(
        "α = −∞: SSS* gives no node a lower bound; β = {}: the merit of its state in OPEN: {from}",
        short_number(h)
    )
}

/// SSS*: why `node` exits at step `s` with `value` (`bound`): solved by a child (a Max node)
/// or by its last child (a Min node), exact when the merit fell below the one it was expanded
/// with; or abandoned when a Max node above it was solved.
fn sss_value_why(
    tree: &Tree,
    replay: &Replay,
    node: NodeId,
    s: usize,
    value: f64,
    bound: Bound,
) -> String {
    let head = named(tree, node);
    let entry = sss_entry(replay, node, s).unwrap_or(f64::NAN);
    let v = short_number(value);
    if bound == Bound::Upper {
        let Some((by, step)) = sss_abandoned_by(tree, replay, node, s + 1) else {
            return format!("{head}: abandoned");
        };
        let after = step.saturating_sub(1);
        let child = match replay.trace().event(after).view() {
            EventView::Cutoff { after, .. } => Some(tree.child(by, after as usize)),
            _ => None,
        };
        let m = child.and_then(|c| sss_solved(tree, replay, c, step));
        let m = m.map_or("?".into(), |(m, _)| short_number(m));
        return if value.is_infinite() {
            format!(
                "{head}: abandoned when {} was solved with merit {m} at step {step}, not below its merit {} when expanded: nothing is proved",
                named(tree, by),
                short_number(entry)
            )
        } else {
            format!(
                "{head}: abandoned when {} was solved with merit {m} at step {step}: every state in OPEN had merit at most {v}",
                named(tree, by)
            )
        };
    }
    let how = if sss_max(tree, node) {
        let i = match cutoff_step(replay, node, s).map(|c| replay.trace().event(c - 1).view()) {
            Some(EventView::Cutoff { after, .. }) => after as usize,
            _ => 0,
        };
        format!(
            "SOLVED by child {}, {}, whose SOLVED state had merit {v}",
            i + 1,
            node_name(tree, tree.child(node, i))
        )
    } else {
        let last = tree.child(node, tree.child_count(node) - 1);
        format!(
            "SOLVED when its last child {} was SOLVED with merit {v}",
            node_name(tree, last)
        )
    };
    let what = if bound == Bound::Exact {
        format!(
            "below its merit {} when expanded, so its value is exactly {v}",
            short_number(entry)
        )
    } else {
        format!("its merit when expanded, so its value is at least {v}")
    };
    format!("{head}: {how}; {what}")
}

/// SSS*: after `child` was SOLVED (exited, or evaluated) at step `s`, is its next sibling ever
/// reached? Asked only while it has not been (a Max node's children wait in OPEN together, and
/// a later one may be taken first). Searched: the sibling was in OPEN since the Max parent was
/// expanded, or went in when `child`'s SOLVED state was taken (a Min parent); pruned: what Γ
/// did to it instead ([`super::provenance::SssUnreached`]).
fn sss_next_child(
    tree: &Tree,
    trace: &Trace,
    replay: &Replay,
    child: NodeId,
    s: usize,
    out: &mut Vec<Question>,
) {
    let Some((parent, next)) = next_sibling(tree, child) else {
        return;
    };
    let end = trace.len();
    if replay.state(next, s + 1).reached() {
        return;
    }
    let searched = replay.state(next, end).reached();
    let why = if searched {
        if sss_max(tree, parent) {
            format!(
                "searched: in OPEN since {} was expanded (merit {}), it was taken before the states under it were purged",
                named(tree, parent),
                sss_entry(replay, parent, end).map_or("?".into(), short_number)
            )
        } else {
            format!(
                "searched: {} was SOLVED with merit {}, so its next sibling went into OPEN with it",
                node_name(tree, child),
                sss_solved(tree, replay, child, end).map_or("?".into(), |(m, _)| short_number(m))
            )
        }
    } else {
        let Some(u) = sss_unreached(tree, replay, next, end) else {
            return;
        };
        format!("pruned: {}", u.sentence(tree, true))
    };
    out.push(Question {
        step: s + 1,
        node: parent,
        ask: Ask::NextChild,
        answer: Answer::Searched(searched),
        text: format!(
            "Is the {} child of {} searched or pruned? (s/p)",
            ordinal(tree.child_index(next) + 1),
            named(tree, parent)
        ),
        why,
        choices: vec!["searched".into(), "pruned".into()],
    });
}

/// Both ends of the window `node` was entered with by step `k`, each with its origin.
fn window_why(tree: &Tree, algo: &Algorithm, replay: &Replay, node: NodeId, k: usize) -> String {
    [End::Alpha, End::Beta]
        .into_iter()
        .filter_map(|end| {
            window_origin(tree, replay, node, k, end).map(|(x, o)| o.sentence(tree, algo, end, x))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why `node` returns what it returns at step `s`: the rule that decided it (the best child,
/// or the bound of its window fail-hard alpha-beta returns when no child passes it), what its
/// children returned, and the cutoff that stopped it, if one did.
fn value_why(
    tree: &Tree,
    run: &Run,
    trace: &Trace,
    replay: &Replay,
    node: NodeId,
    s: usize,
) -> String {
    let children: Vec<String> = tree
        .children(node)
        .map(|c| {
            let st = replay.state(c, s);
            match st.value {
                Some(v) => format!(
                    "{} {}{}",
                    node_name(tree, c),
                    mark(st.bound),
                    narrate::value_text(tree, trace, c, v)
                ),
                None => format!("{} not searched", node_name(tree, c)),
            }
        })
        .collect();
    let rule = match trace.event(s).view() {
        EventView::Exit { value, .. } => value_rule(tree, run, replay, node, s, value),
        _ => "the child's vector best for the player to move".into(),
    };
    let mut w = format!("{}: {rule}; {}", named(tree, node), children.join(", "));
    if let Some(step) = super::provenance::cutoff_step(replay, node, s) {
        let reason = cutoff_reason(tree, &run.algorithm, replay, node, s)
            .unwrap_or_else(|| narrate::describe(tree, run, trace, replay, step));
        w.push_str(&format!("; cutoff at step {step}: {reason}"));
    }
    w
}

/// What decided the value `v` that `node` returns at step `s`, naming the number that did:
/// its best child's value ("the largest of its children's values: 3, from #1"); or, when no
/// child's value passes the window, the window's bound that a fail-hard search returns
/// instead ("α = 5, the floor of its window: …"); a chance node's weighted sum. What fits
/// none of these (a re-search's, a table's or SSS*'s bound) is said to be the search's own.
fn value_rule(tree: &Tree, run: &Run, replay: &Replay, node: NodeId, s: usize, v: f64) -> String {
    let scalar = |c: NodeId| match replay.state(c, s).value {
        Some(Shown::Scalar(x)) => Some(x),
        _ => None,
    };
    let values: Vec<(NodeId, f64)> = tree
        .children(node)
        .filter_map(|c| scalar(c).map(|x| (c, x)))
        .collect();
    let window = replay.state(node, s).window;
    let best = |max: bool| {
        values.iter().copied().reduce(|a, b| {
            if (max && b.1 > a.1) || (!max && b.1 < a.1) {
                b
            } else {
                a
            }
        })
    };
    let bound_rule = |max: bool, (c, x): (NodeId, f64)| {
        let (largest, floor, end, passes) = if max {
            ("largest", "floor", "α", "larger")
        } else {
            ("smallest", "ceiling", "β", "smaller")
        };
        let bound = window.map(|(a, b)| if max { a } else { b });
        if same(v, x) {
            format!(
                "the {largest} of its children's values: {}, from {}",
                short_number(x),
                node_name(tree, c)
            )
        } else if let Some(w) = bound.filter(|&w| same(v, w) && (if max { x <= w } else { x >= w }))
        {
            format!(
                "{end} = {}, the {floor} of its window: no child's value is {passes}, and a fail-hard search returns {end}",
                short_number(w)
            )
        } else {
            own_rule(run, v)
        }
    };
    match tree.kind(node) {
        Kind::Max => best(true).map_or_else(|| own_rule(run, v), |b| bound_rule(true, b)),
        Kind::Min => best(false).map_or_else(|| own_rule(run, v), |b| bound_rule(false, b)),
        Kind::Chance => {
            let exact = tree.children(node).all(|c| {
                let st = replay.state(c, s);
                st.bound == Bound::Exact && matches!(st.value, Some(Shown::Scalar(_)))
            });
            let sum: f64 = values.iter().map(|&(c, x)| tree.prob(c) * x).sum();
            if exact && same(sum, v) {
                format!(
                    "the probability-weighted sum of its children's values: {}",
                    short_number(v)
                )
            } else {
                format!(
                    "{}, a bound of the probability-weighted sum of its children's values from those searched (Ballard's Aᵢ, Bᵢ)",
                    short_number(v)
                )
            }
        }
        _ => own_rule(run, v),
    }
}

/// A value no child's value and no window bound gives alone: the search's own bound.
fn own_rule(run: &Run, v: f64) -> String {
    format!(
        "{}, the bound {} keeps for it (its children's values below do not give it alone)",
        short_number(v),
        run.algorithm.name()
    )
}

/// A number as a student types it: `3`, `-2.5`, `1/3`, `inf`, `-inf`, `∞`, `-∞`.
pub fn parse_number(s: &str) -> Option<f64> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-').or_else(|| s.strip_prefix('−')) {
        Some(rest) => (true, rest.trim()),
        None => (false, s.strip_prefix('+').unwrap_or(s).trim()),
    };
    let x = if matches!(body, "inf" | "infinity" | "∞") {
        f64::INFINITY
    } else if let Some((p, q)) = body.split_once('/') {
        let (p, q): (f64, f64) = (p.trim().parse().ok()?, q.trim().parse().ok()?);
        if q == 0.0 {
            return None;
        }
        p / q
    } else {
        let x: f64 = body.parse().ok()?;
        if !x.is_finite() {
            return None;
        }
        x
    };
    Some(if neg { -x } else { x })
}

/// A value with an optional bound mark in front: `3`, `=3`, `>=3`, `≥3`, `<=3`, `≤3`.
fn parse_marked(s: &str) -> (Bound, &str) {
    let s = s.trim();
    for (mark, b) in [
        (">=", Bound::Lower),
        ("≥", Bound::Lower),
        ("<=", Bound::Upper),
        ("≤", Bound::Upper),
        ("=", Bound::Exact),
    ] {
        if let Some(rest) = s.strip_prefix(mark) {
            return (b, rest);
        }
    }
    (Bound::Exact, s)
}

/// Numbers separated by commas, spaces or `..`, in optional brackets.
fn parse_list(s: &str) -> Option<Vec<f64>> {
    let s = s
        .trim()
        .trim_start_matches(['(', '[', '<'])
        .trim_end_matches([')', ']', '>']);
    let s = s.replace("..", " ");
    let parts: Vec<&str> = s
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    parts.into_iter().map(parse_number).collect()
}

fn same(x: f64, y: f64) -> bool {
    x == y
        || x.is_finite() && y.is_finite() && (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
}

/// A number as a student types it: `inf`, `-inf`, every digit otherwise.
fn typed(x: f64) -> String {
    if x.is_infinite() {
        (if x > 0.0 { "inf" } else { "-inf" }).into()
    } else {
        number_text(x)
    }
}

fn mark(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "",
        Bound::Lower => "≥",
        Bound::Upper => "≤",
    }
}

impl Answer {
    /// The answer as a student would type it.
    pub fn text(&self) -> String {
        match self {
            Answer::Window(a, b) => format!("{} {}", typed(*a), typed(*b)),
            Answer::Value(v, b) => format!("{}{}", mark(*b), typed(*v)),
            Answer::Vector(v, b) => format!(
                "{}{}",
                mark(*b),
                v.iter().map(|&x| typed(x)).collect::<Vec<_>>().join(",")
            ),
            Answer::Searched(true) => "searched".into(),
            Answer::Searched(false) => "pruned".into(),
            Answer::Leaves { never, .. } if never.is_empty() => "none".into(),
            Answer::Leaves { never, .. } => never.join(", "),
        }
    }

    /// Whether `typed` is this answer; `Err` with a hint when it cannot be read at all.
    pub fn check(&self, typed: &str) -> Result<bool, String> {
        let typed = typed.trim();
        match self {
            Answer::Window(a, b) => {
                let v = parse_list(typed)
                    .filter(|v| v.len() == 2)
                    .ok_or("type α and β, e.g. `-inf 3` or `2,inf`")?;
                Ok(same(v[0], *a) && same(v[1], *b))
            }
            Answer::Value(x, bound) => {
                let (b, rest) = parse_marked(typed);
                let v = parse_number(rest).ok_or(
                    "type a number (`3`, `-2.5`, `1/3`, `inf`), with ≥ or ≤ (`>=3`) for a bound",
                )?;
                Ok(b == *bound && same(v, *x))
            }
            Answer::Vector(x, bound) => {
                let (b, rest) = parse_marked(typed);
                let v = parse_list(rest).ok_or(
                    "type the vector's numbers, e.g. `3,-3`, with >= in front for a bound",
                )?;
                Ok(b == *bound && v.len() == x.len() && v.iter().zip(x).all(|(p, q)| same(*p, *q)))
            }
            Answer::Searched(s) => {
                let t = typed.to_lowercase();
                let said = match t.as_str() {
                    "s" | "searched" | "search" | "y" | "yes" => true,
                    "p" | "pruned" | "prune" | "n" | "no" | "cut" => false,
                    _ => return Err("type s (searched) or p (pruned)".into()),
                };
                Ok(said == *s)
            }
            Answer::Leaves { never, leaves } => {
                let mut said = leaf_names(typed, leaves)?;
                said.sort();
                said.dedup();
                let mut right = never.clone();
                right.sort();
                right.dedup();
                Ok(said == right)
            }
        }
    }
}

/// The leaf names in `typed` (`none` for none), each one of `leaves`, written as shown
/// (`#2.1`, a label) or without its `#`, separated by commas or spaces. Names are matched
/// longest first, so a label with a comma or a space in it reads as itself.
pub fn leaf_names(typed: &str, leaves: &[String]) -> Result<Vec<String>, String> {
    if matches!(typed.to_lowercase().as_str(), "none" | "-" | "nothing") {
        return Ok(Vec::new());
    }
    let separator = |c: char| c == ',' || c.is_whitespace();
    let mut out = Vec::new();
    let mut rest = typed.trim_start_matches(separator);
    while !rest.is_empty() {
        // The longest name (or name without its `#`) that `rest` starts with, ending at a
        // separator or the end.
        let found = leaves
            .iter()
            .flat_map(|l| [(l, l.as_str()), (l, l.strip_prefix('#').unwrap_or(l))])
            .filter(|(_, spelt)| {
                !spelt.is_empty()
                    && rest.starts_with(spelt)
                    && rest[spelt.len()..].chars().next().is_none_or(separator)
            })
            .max_by_key(|(_, spelt)| spelt.len());
        match found {
            Some((name, spelt)) => {
                out.push(name.clone());
                rest = rest[spelt.len()..].trim_start_matches(separator);
            }
            None => {
                let token: String = rest.chars().take_while(|&c| !separator(c)).collect();
                return Err(format!(
                    "no leaf is called `{token}`: type leaf names as Detail shows them, by commas, or `none`"
                ));
            }
        }
    }
    if out.is_empty() {
        return Err("type the leaves' names, by commas, or `none`".into());
    }
    Ok(out)
}

/// A practice session: the questions, the answers given so far, the score.
#[derive(Clone, Debug)]
pub struct Session {
    /// The algorithm practised, as named on the command line.
    pub algorithm: String,
    /// The tree's name.
    pub tree: String,
    /// The questions, in the order asked.
    pub questions: Vec<Question>,
    /// For each question answered, in order: what was typed and whether it was right.
    pub given: Vec<(String, bool)>,
}

impl Session {
    /// The questions of `run` on `tree`, from its trace.
    pub fn new(tree: &Tree, run: &Run, trace: &Trace, replay: &Replay) -> Session {
        Session {
            algorithm: run.algorithm.label(),
            tree: tree.meta().name.clone(),
            questions: questions(tree, run, trace, replay),
            given: Vec::new(),
        }
    }

    /// The question to answer next, if any is left.
    pub fn current(&self) -> Option<&Question> {
        self.questions.get(self.given.len())
    }

    /// Answers the current question; `Ok(right)`, or `Err` with a hint when `typed` cannot be
    /// read (nothing is recorded then).
    pub fn answer(&mut self, typed: &str) -> Result<bool, String> {
        let q = self.current().ok_or("no question left")?;
        let right = q.answer.check(typed)?;
        self.given.push((typed.trim().to_owned(), right));
        Ok(right)
    }

    /// Questions answered right.
    pub fn right(&self) -> usize {
        self.given.iter().filter(|g| g.1).count()
    }

    /// Whether every question was answered.
    pub fn done(&self) -> bool {
        self.given.len() >= self.questions.len()
    }

    /// "7/9 correct".
    pub fn score(&self) -> String {
        format!("{}/{} correct", self.right(), self.given.len())
    }

    /// The report in JSON: where the tree came from (`source`), the questions answered, what
    /// was typed, the correct answers, why, and the score. A question's `step` counts from 1, as
    /// the Step bar and the explanations do: the step whose event answers it, before which it
    /// is asked (the leaves question, about the whole search, is asked before step 1).
    pub fn report(&self, source: &str) -> serde_json::Value {
        let items: Vec<serde_json::Value> = self
            .questions
            .iter()
            .zip(&self.given)
            .map(|(q, (typed, right))| {
                serde_json::json!({
                    "step": q.step + 1,
                    "node": q.node.0,
                    "ask": q.ask.name(),
                    "question": q.text,
                    "answer": typed,
                    "correct_answer": q.answer.text(),
                    "right": right,
                    "why": q.why,
                })
            })
            .collect();
        serde_json::json!({
            "prune_practice": 1,
            "algorithm": self.algorithm,
            "tree": self.tree,
            "source": source,
            "questions": self.questions.len(),
            "answered": self.given.len(),
            "right": self.right(),
            "score": self.score(),
            "items": items,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::trace::{StepIndex, record};
    use std::sync::atomic::AtomicU64;

    fn session(tree: &Tree, algo: Algorithm) -> (Run, Trace) {
        record(tree, &algo, &AtomicU64::new(0)).unwrap()
    }

    /// Each question's answer, checked against the trace independently: a window question's
    /// event is that node's enter, a value question's its exit, a next-child question's answer
    /// is whether a cutoff at the node fired before its next child was reached.
    fn agree(tree: &Tree, algo: Algorithm) -> usize {
        let (run, trace) = session(tree, algo.clone());
        let index = StepIndex::new(tree, &trace);
        let replay = Replay::with_index(tree, &trace, &index);
        let qs = questions(tree, &run, &trace, &replay);
        let mut steps = qs.iter().map(|q| q.step);
        let mut last = 0;
        assert!(
            steps.all(|s| std::mem::replace(&mut last, s) <= s),
            "in order"
        );
        let exits = trace
            .events()
            .iter()
            .filter(|e| {
                matches!(
                    e.view(),
                    EventView::Exit { .. } | EventView::ExitVector { .. }
                )
            })
            .count();
        assert_eq!(qs.iter().filter(|q| q.ask == Ask::Value).count(), exits);
        for q in &qs {
            // Exactly one of the choices offered is right, and each can be read.
            if q.ask != Ask::Unevaluated {
                let right: Vec<bool> = q
                    .choices
                    .iter()
                    .map(|c| q.answer.check(c).unwrap())
                    .collect();
                assert!(q.choices.len() >= 2, "{}: {:?}", q.text, q.choices);
                assert_eq!(
                    right.iter().filter(|&&r| r).count(),
                    1,
                    "{}: {:?}",
                    q.text,
                    q.choices
                );
            }
            if let Answer::Leaves { never, leaves } = &q.answer {
                // Independently: the leaves with no `leaf` event, by name.
                let evaluated: std::collections::HashSet<NodeId> = trace
                    .events()
                    .iter()
                    .filter(|e| matches!(e.view(), EventView::Leaf { .. }))
                    .map(|e| e.node())
                    .collect();
                let expect: Vec<String> = tree
                    .ids()
                    .filter(|&n| tree.is_leaf(n) && !evaluated.contains(&n))
                    .map(|n| node_name(tree, n))
                    .collect();
                let (mut a, mut b) = (never.clone(), expect.clone());
                a.sort();
                b.sort();
                assert_eq!(a, b);
                assert_eq!(leaves.len(), tree.leaf_count());
                assert_eq!(q.step, 0);
                assert!(q.answer.check(&q.answer.text()).unwrap());
                // One leaf more or less is wrong.
                if let Some(extra) = leaves.iter().find(|l| !never.contains(l)) {
                    let mut more = never.clone();
                    more.push(extra.clone());
                    assert!(!q.answer.check(&more.join(", ")).unwrap());
                }
                if never.len() > 1 {
                    assert!(!q.answer.check(&never[1..].join(",")).unwrap());
                }
                continue;
            }
            match (&q.answer, trace.event(q.step).view()) {
                (Answer::Window(a, b), EventView::Enter { node, alpha, beta }) => {
                    assert_eq!((node, *a, *b), (q.node, alpha, beta));
                    assert!(q.answer.check(&q.answer.text()).unwrap());
                }
                (Answer::Value(v, b), EventView::Exit { node, value, bound }) => {
                    assert_eq!((node, *v, *b), (q.node, value, bound));
                    assert!(q.answer.check(&q.answer.text()).unwrap());
                    let wrong = format!("{}", v + 1.0);
                    assert!(!q.answer.check(&wrong).unwrap());
                }
                (Answer::Vector(v, _), EventView::ExitVector { node, index, .. }) => {
                    assert_eq!((node, v.as_slice()), (q.node, trace.vector(index)));
                    assert!(q.answer.check(&q.answer.text()).unwrap());
                }
                (Answer::Searched(searched), _) => {
                    // The state after the question's step: the child just finished is done.
                    let st = replay.state(q.node, trace.len());
                    let finished = (0..tree.child_count(q.node))
                        .map(|i| tree.child(q.node, i))
                        .filter(|&c| replay.state(c, q.step).status == crate::trace::Status::Done)
                        .count();
                    let cut_here = st.cutoff.is_some_and(|(after, _, _)| {
                        after as usize + 1 == finished
                            && crate::trace::provenance::cutoff_step(&replay, q.node, trace.len())
                                .is_some_and(|c| c > q.step)
                    });
                    let next = tree.child(q.node, finished);
                    let reached = replay.state(next, trace.len()).visits > 0;
                    assert_eq!(*searched, reached, "{}: {}", q.text, q.why);
                    assert_eq!(!*searched, cut_here, "{}: {}", q.text, q.why);
                    assert!(q.answer.check(if *searched { "s" } else { "p" }).unwrap());
                    assert!(!q.answer.check(if *searched { "p" } else { "s" }).unwrap());
                    if !searched {
                        assert!(q.why.starts_with("pruned: "), "{}", q.why);
                    }
                }
                (a, e) => panic!("{a:?} asked at {e:?}"),
            }
        }
        qs.len()
    }

    #[test]
    fn answers_agree_with_the_trace_on_seeded_trees() {
        let mut asked = 0;
        for seed in 0..25u64 {
            let p = generate::random::RandomShape {
                min_branching: 1,
                max_branching: 2 + (seed % 3) as u32,
                depth: 2 + (seed % 4) as u32,
                leaf_probability: 0.2,
                values: generate::Values::integers(-9, 9),
                mixed: seed % 2 == 0,
            };
            let tree = generate::random::generate(&p, seed).unwrap();
            for algo in [
                Algorithm::Minimax,
                Algorithm::AlphaBeta { fail_soft: false },
                Algorithm::AlphaBeta { fail_soft: true },
            ] {
                asked += agree(&tree, algo);
            }
            let c = generate::chance::ChanceTree {
                branching: 2 + (seed % 2) as u32,
                chance_branching: 2 + (seed % 3) as u32,
                depth: 1 + (seed % 3) as u32,
                values: generate::Values::integers(-5, 5),
                uneven: seed % 2 == 1,
                irregular: seed % 3 == 0,
            };
            let tree = generate::chance::generate(&c, seed).unwrap();
            for algo in [
                Algorithm::Expectiminimax,
                Algorithm::Star1 { rightmost: false },
            ] {
                asked += agree(&tree, algo);
            }
        }
        for file in [
            "maxn-shallow-pruning.ron",
            "maxn-example.ron",
            "four-players.ron",
        ] {
            let path = format!("{}/../../trees/{file}", env!("CARGO_MANIFEST_DIR"));
            let tree = crate::format::load(std::path::Path::new(&path), None).unwrap();
            asked += agree(&tree, Algorithm::MaxnShallow);
        }
        assert!(asked > 500, "{asked}");
    }

    /// Knuth & Moore's tree under alpha-beta: the second Min node gets α = 3 from the first,
    /// its second child is pruned, and it returns ≤2 (fail-hard: 3, an upper bound).
    #[test]
    fn the_classic_tree() {
        let tree = crate::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false).unwrap();
        let (run, trace) = session(&tree, Algorithm::AlphaBeta { fail_soft: true });
        let index = StepIndex::new(&tree, &trace);
        let replay = Replay::with_index(&tree, &trace, &index);
        let mut s = Session::new(&tree, &run, &trace, &replay);
        let second = tree.child(tree.root(), 1);
        let w = s
            .questions
            .iter()
            .find(|q| q.node == second && q.ask == Ask::Window)
            .unwrap();
        assert_eq!(w.answer, Answer::Window(3.0, f64::INFINITY));
        assert!(w.answer.check("3 inf").unwrap());
        assert!(w.answer.check("3, ∞").unwrap());
        assert!(!w.answer.check("-inf inf").unwrap());
        assert!(w.answer.check("3").is_err());
        assert!(
            w.why
                .contains("α = 3: the value of #1, returned to the root"),
            "{}",
            w.why
        );
        let cut = s
            .questions
            .iter()
            .find(|q| q.node == second && q.ask == Ask::NextChild)
            .unwrap();
        assert_eq!(cut.answer, Answer::Searched(false));
        assert!(cut.why.contains("#2.1 returned 2 ≤ α = 3"), "{}", cut.why);
        let v = s
            .questions
            .iter()
            .find(|q| q.node == second && q.ask == Ask::Value)
            .unwrap();
        assert_eq!(v.answer, Answer::Value(2.0, Bound::Upper));
        assert!(v.answer.check("<=2").unwrap() && v.answer.check("≤ 2").unwrap());
        assert!(!v.answer.check("2").unwrap());
        // Before the search: the second Min node's last two leaves are never evaluated.
        let leaves = &s.questions[0];
        assert_eq!(leaves.ask, Ask::Unevaluated);
        assert_eq!(leaves.answer.text(), "#2.2, #2.3");
        assert!(leaves.answer.check("#2.3,#2.2").unwrap());
        assert!(leaves.answer.check("2.2 2.3").unwrap());
        assert!(!leaves.answer.check("#2.2").unwrap());
        assert!(!leaves.answer.check("none").unwrap());
        assert!(leaves.answer.check("#9.9").is_err());
        assert!(
            leaves
                .why
                .contains("#2.2, #2.3: cut off at − node #2 at step"),
            "{}",
            leaves.why
        );
        assert_eq!(
            s.questions[1].choices,
            ["-inf 14", "-inf inf", "2 14", "2 inf"],
            "the root's window among the usual mistakes"
        );
        assert_eq!(v.choices, ["≤2", "2", "≥2", "3"]);
        // A session: two right, one wrong, one unreadable (not counted).
        let first = s.current().unwrap().answer.text();
        assert!(s.answer(&first).unwrap());
        assert!(s.answer("what").is_err());
        let second = s.current().unwrap().answer.text();
        assert!(s.answer(&second).unwrap());
        let wrong = match s.current().unwrap().answer {
            Answer::Searched(true) => "p",
            Answer::Searched(false) => "s",
            Answer::Window(..) => "12345 0",
            _ => "12345",
        };
        assert!(!s.answer(wrong).unwrap());
        assert_eq!(s.score(), "2/3 correct");
        let r = s.report("--expr '((3,12,8),(2,4,6))'");
        assert_eq!(r["source"], "--expr '((3,12,8),(2,4,6))'");
        assert_eq!(r["right"], 2);
        // Steps count from 1, as the Step bar and the explanations count them.
        for (i, q) in s.questions.iter().take(3).enumerate() {
            assert_eq!(r["items"][i]["step"], q.step + 1);
        }
        assert_eq!(r["items"].as_array().unwrap().len(), 3);
        assert_eq!(r["items"][2]["right"], false);
    }

    /// Leaf names are read longest first: labels with commas and spaces, `#` optional.
    #[test]
    fn leaf_names_as_typed() {
        let leaves: Vec<String> = ["a,b", "a", "X c2", "#2.1", "#2.10"]
            .map(String::from)
            .to_vec();
        let read = |t: &str| leaf_names(t, &leaves);
        assert_eq!(read("a,b, a").unwrap(), ["a,b", "a"]);
        assert_eq!(read("a, a,b").unwrap(), ["a", "a,b"]);
        assert_eq!(read("X c2 2.10,#2.1").unwrap(), ["X c2", "#2.10", "#2.1"]);
        assert_eq!(read("none").unwrap(), Vec::<String>::new());
        assert!(read("X").unwrap_err().contains("`X`"));
        assert!(read(" , ").is_err());
    }

    #[test]
    fn numbers_as_typed() {
        assert_eq!(parse_number("3"), Some(3.0));
        assert_eq!(parse_number("-2.5"), Some(-2.5));
        assert_eq!(parse_number("1/3"), Some(1.0 / 3.0));
        assert_eq!(parse_number("-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_number("∞"), Some(f64::INFINITY));
        assert_eq!(parse_number("1/0"), None);
        assert_eq!(parse_number("nan"), None);
        assert_eq!(parse_number("x"), None);
        assert!(same(0.1 + 0.2, 0.3));
    }
}
