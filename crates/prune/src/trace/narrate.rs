//! Each step of a recorded search in words: the sentences the explorer's stepper shows and the
//! CLI may print. They are knowledge of the trace, not of the screen, so they live here and are
//! tested here.

use crate::search::{Algorithm, Bound, Cutoff, Run, Value};
use crate::text::{count, ordinal, short_number, vector_text};
use crate::tree::names::{kind_words, node_name};
use crate::tree::{NodeId, Tree};

use super::{EventView, NodeState, Replay, Shown, Status, Trace, provenance};

/// Where Ballard's Aᵢ or Bᵢ lies beyond the leaves' bounds L..U, the child is searched with the
/// bound clipped to them (`lower_end`, `upper_end`): ", B clipped to U 10", so that no reader
/// takes B 35 for the window searched. Empty when both lie within.
pub fn clip_note(tree: &Tree, a: f64, b: f64) -> String {
    let vb = tree.value_bounds();
    let mut parts = Vec::new();
    if a < vb.lo {
        parts.push(format!("A clipped to L {}", short_number(vb.lo)));
    }
    if b > vb.hi {
        parts.push(format!("B clipped to U {}", short_number(vb.hi)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(", {}", parts.join(" and "))
    }
}

/// The window `node` was last entered or re-searched with before step `s` (0-based).
fn last_window(trace: &Trace, replay: &Replay, node: NodeId, s: usize) -> Option<(f64, f64)> {
    replay
        .steps_of(node)
        .iter()
        .map(|&t| t as usize)
        .take_while(|&t| t < s)
        .filter_map(|t| match trace.event(t).view() {
            EventView::Enter { alpha, beta, .. } | EventView::Research { alpha, beta, .. } => {
                Some((alpha, beta))
            }
            _ => None,
        })
        .last()
}

/// A node's state as the views show it: after the last step the root carries the run's own
/// result. A driver may conclude more than its last pass said — MTD(f)'s last null-window pass
/// returns a bound, but once its bounds meet the value is exact — so the root's last `exit`
/// can be a bound while the run's result is exact.
pub fn settled(
    tree: &Tree,
    run: &Run,
    trace: &Trace,
    id: NodeId,
    k: usize,
    mut st: NodeState,
) -> NodeState {
    if id == tree.root() && k == trace.len() && st.status == Status::Done {
        st.bound = run.bound;
    }
    st
}

/// Star2's probes at a chance node after step `k`: for each child, the bound its probes give
/// (the smallest probe value under a − child, the largest under a + child; the tree's bound U or
/// L where the child was not probed) and whether it was probed; and the probability-weighted
/// sum of those bounds, which a probe cutoff compares with α or β (Ballard §5, (5)–(8)).
pub struct ProbeSums {
    /// For each child in order, its bound and whether it was probed.
    pub bounds: Vec<(f64, bool)>,
    /// Σ p_i · bound_i: an upper bound of the *-value under − children, a lower one under +.
    pub mean: f64,
    /// Whether the children are − nodes (the probes give upper bounds).
    pub min: bool,
}

/// The bound the probes of `node` (a child of a chance node) give after step `k`, and whether it
/// is an upper bound: the smallest of its probed children's values at a − node, the largest at
/// a + node. `None` when it was not probed.
pub fn probe_bound(tree: &Tree, replay: &Replay, node: NodeId, k: usize) -> Option<(f64, bool)> {
    let min = tree.kind(node) == crate::tree::Kind::Min;
    tree.children(node)
        .filter_map(|c| {
            let st = replay.state(c, k);
            match (st.probe_target, st.value) {
                (true, Some(Shown::Scalar(v))) => Some(v),
                _ => None,
            }
        })
        .reduce(|a, b| if min { a.min(b) } else { a.max(b) })
        .map(|x| (x, min))
}

/// The probe bounds of chance node `node` after step `k` (`None`: nothing was probed there).
pub fn probe_sums(tree: &Tree, replay: &Replay, node: NodeId, k: usize) -> Option<ProbeSums> {
    let first = tree.children(node).next()?;
    let min = tree.kind(first) == crate::tree::Kind::Min;
    let range = tree.value_bounds();
    let mut any = false;
    let mut bounds = Vec::new();
    let mut mean = 0.0;
    let uniform = tree.is_uniform(node);
    let n = tree.child_count(node) as f64;
    for s in tree.children(node) {
        let probe = probe_bound(tree, replay, s, k);
        any |= probe.is_some();
        let probed = probe.is_some();
        let b = match (probe, min) {
            (Some((x, _)), _) => x,
            (None, true) => range.hi,
            (None, false) => range.lo,
        };
        mean += if uniform { b / n } else { tree.prob(s) * b };
        bounds.push((b, probed));
    }
    any.then_some(ProbeSums { bounds, mean, min })
}

/// A value as shown in a sentence: a number, a stored vector, or a leaf's payoff.
pub fn value_text(tree: &Tree, trace: &Trace, id: NodeId, v: Shown) -> String {
    match v {
        Shown::Scalar(x) => short_number(x),
        Shown::Vector(i) => vector_text(trace.vector(i)),
        Shown::Payoff => vector_text(tree.payoff(id)),
    }
}

/// The event of step `k` (1-based: the event just applied) in words.
pub fn describe(tree: &Tree, run: &Run, trace: &Trace, replay: &Replay, k: usize) -> String {
    if k == 0 {
        return format!(
            "before the search: {} starts at the root",
            run.algorithm.label()
        );
    }
    let e = trace.event(k - 1).view();
    let said = if run.algorithm.base() == &Algorithm::Sss {
        describe_sss(tree, replay, k, &e)
    } else {
        describe_event(tree, &run.algorithm, trace, replay, k, &e)
    };
    match e {
        EventView::Exit { node, bound, .. }
            if node == tree.root() && k == trace.len() && bound != run.bound =>
        {
            let what = bound_words(run.bound);
            let value = match &run.value {
                Value::Scalar(x) => short_number(*x),
                Value::Vector(v) => vector_text(v),
            };
            format!(
                "{said}; the search ends with {} {value} ({what})",
                run.algorithm.name(),
            )
        }
        _ => said,
    }
}

/// One event in the words of a depth-first window search.
fn describe_event(
    tree: &Tree,
    algo: &Algorithm,
    trace: &Trace,
    replay: &Replay,
    k: usize,
    e: &EventView,
) -> String {
    let at = Step {
        tree,
        algo,
        trace,
        replay,
        k,
    };
    let name = |id: NodeId| at.name(id);
    match *e {
        EventView::Enter { node, alpha, beta } => format!(
            "enter {} with window α {} .. β {}",
            name(node),
            short_number(alpha),
            short_number(beta)
        ),
        EventView::Leaf { node, value } => at.leaf(node, value),
        EventView::ChanceBounds { child, a, b } => at.chance_bounds(child, a, b),
        EventView::Probe { child } => {
            let p = tree.parent(child).expect("a probed node's child");
            format!(
                "probe {}: search its child {} for a bound",
                name(p),
                tree.child_index(child) + 1
            )
        }
        EventView::Research {
            node,
            alpha,
            beta,
            aspiration,
        } => at.research(node, (alpha, beta), aspiration),
        EventView::Iteration { depth } => iteration_text(tree, replay, k, depth),
        EventView::TableHit {
            node,
            value,
            bound,
            cut,
        } => at.table_hit(node, value, bound, cut),
        EventView::Cutoff {
            node,
            after,
            rank,
            skipped,
            kind,
        } => at.cutoff(node, after, rank, skipped, kind),
        EventView::Exit { node, value, bound } => format!(
            "{} returns {} ({})",
            name(node),
            short_number(value),
            bound_words(bound)
        ),
        EventView::ExitVector { node, index, .. } => format!(
            "{} returns {}",
            name(node),
            vector_text(trace.vector(index))
        ),
        EventView::Fallback { node } => format!(
            "{}: its children are not all of one kind, so Star1 searches it",
            name(node)
        ),
    }
}

/// Step `k` of a run's trace, as [`describe_event`] puts its events in words, one method per
/// kind of event that takes more than a line.
struct Step<'a> {
    tree: &'a Tree,
    algo: &'a Algorithm,
    trace: &'a Trace,
    replay: &'a Replay<'a>,
    k: usize,
}

impl Step<'_> {
    /// "Max node #1.2".
    fn name(&self, id: NodeId) -> String {
        format!(
            "{} {}",
            kind_words(self.tree.kind(id)),
            node_name(self.tree, id)
        )
    }

    fn leaf(&self, node: NodeId, value: f64) -> String {
        let tree = self.tree;
        let v = if value.is_nan() {
            vector_text(tree.payoff(node))
        } else {
            short_number(value)
        };
        if tree.is_leaf(node) {
            format!("evaluate leaf {} = {v}", node_name(tree, node))
        } else {
            // A depth-limited search stops at an interior node: its heuristic is its value.
            format!(
                "evaluate {} at the depth limit by its heuristic = {v}",
                self.name(node)
            )
        }
    }

    fn chance_bounds(&self, child: NodeId, a: f64, b: f64) -> String {
        let tree = self.tree;
        let p = tree.parent(child).expect("a chance node's child");
        format!(
            "at {}: search child {} with A {} .. B {} (equations 2–8){}",
            self.name(p),
            tree.child_index(child) + 1,
            short_number(a),
            short_number(b),
            clip_note(tree, a, b)
        )
    }

    fn research(&self, node: NodeId, (alpha, beta): (f64, f64), aspiration: bool) -> String {
        let name = self.name(node);
        let window = format!("α {} .. β {}", short_number(alpha), short_number(beta));
        if aspiration {
            format!("the aspiration window failed: re-search {name} with the wider window {window}")
        } else if matches!(self.algo.base(), Algorithm::Mtdf { .. }) {
            format!(
                "next pass: search {name} again with the null window {window}, moved to the bound the last pass returned"
            )
        } else if last_window(self.trace, self.replay, node, self.k - 1)
            .is_some_and(|(a, b)| beta - alpha > b - a)
        {
            format!("re-search {name} with the wider window {window}")
        } else {
            // NegaScout's test can fail just below β: the re-search window is as narrow.
            format!("re-search {name} with the window {window}")
        }
    }

    fn table_hit(&self, node: NodeId, value: f64, bound: Bound, cut: bool) -> String {
        let entry = format!("{}{}", bound.symbol(), short_number(value));
        if cut {
            format!(
                "the transposition table answers {}: entry {entry} ({}) settles the window; not searched",
                self.name(node),
                bound_words(bound)
            )
        } else {
            format!(
                "the transposition table holds {}: entry {entry} ({}) does not settle the window; search it, its best move first",
                self.name(node),
                bound_words(bound)
            )
        }
    }

    fn cutoff(&self, node: NodeId, after: u32, rank: u32, skipped: u32, kind: Cutoff) -> String {
        let tree = self.tree;
        let why = self.cutoff_why(node, after, kind);
        let skip = match skipped {
            // A probe cutoff spares the regular search of every child, probed or not.
            _ if kind == Cutoff::Probe => format!(
                "; the regular search of its {} is spared",
                count(tree.child_count(node), "child", "children")
            ),
            0 => String::new(),
            n => format!(", {} skipped", count(n as usize, "child", "children")),
        };
        let order = if rank == after {
            String::new()
        } else {
            format!(", the {} searched", ordinal(rank as usize + 1))
        };
        format!(
            "cutoff at {} after child {}{order} ({}): {why}{skip}",
            self.name(node),
            after + 1,
            kind.name()
        )
    }

    /// Why `node` was cut off after its child `after`, by the test of `kind`.
    fn cutoff_why(&self, node: NodeId, after: u32, kind: Cutoff) -> String {
        let (tree, k) = (self.tree, self.k);
        let st = self.replay.state(node, k);
        let child = tree.child(node, after as usize);
        let cs = self.replay.state(child, k);
        let v = cs
            .value
            .map_or("?".into(), |v| value_text(tree, self.trace, child, v));
        let (a, b) = st.window.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        let child_name = node_name(tree, child);
        let scalar = match cs.value {
            Some(Shown::Scalar(x)) => Some(x),
            _ => None,
        };
        // Fail-hard alpha-beta cuts when its best so far, max(α, children), reaches β: with
        // an empty window (α ≥ β, which Ballard's clamping can make) that is before any
        // child reaches β.
        let empty = || {
            format!(
                "the window α {} .. β {} is empty, so the first child settles it",
                short_number(a),
                short_number(b)
            )
        };
        match kind {
            Cutoff::Alpha if scalar.is_some_and(|x| x > a) && a >= b => empty(),
            Cutoff::Beta if scalar.is_some_and(|x| x < b) && a >= b => empty(),
            Cutoff::Alpha => {
                format!("value {v} of child {} ≤ α {}", child_name, short_number(a))
            }
            Cutoff::Beta => {
                format!("value {v} of child {} ≥ β {}", child_name, short_number(b))
            }
            Cutoff::StarLower => {
                let ai = cs
                    .chance_bounds
                    .map_or("A".into(), |(x, _)| short_number(x));
                format!(
                    "value {v} of child {child_name} ≤ A {ai}: the *-value is at most α {}",
                    short_number(a)
                )
            }
            Cutoff::StarUpper => {
                let bi = cs
                    .chance_bounds
                    .map_or("B".into(), |(_, y)| short_number(y));
                format!(
                    "value {v} of child {child_name} ≥ B {bi}: the *-value is at least β {}",
                    short_number(b)
                )
            }
            Cutoff::Probe => self.probe_cut_why(node, (a, b)),
            Cutoff::Rightmost => "the root's last move is proved better than α (§7.2)".into(),
            Cutoff::Shallow => "the mover's share reached the bound left by the parent".into(),
            Cutoff::Immediate => "the mover reached the largest possible payoff".into(),
        }
    }

    /// Why the probes cut `node`, searched with the window (a, b), off: their bounds' mean.
    fn probe_cut_why(&self, node: NodeId, (a, b): (f64, f64)) -> String {
        let Some(p) = probe_sums(self.tree, self.replay, node, self.k) else {
            return format!(
                "the probes prove the *-value outside α {} .. β {}",
                short_number(a),
                short_number(b)
            );
        };
        let parts: Vec<String> = p
            .bounds
            .iter()
            .map(|&(x, probed)| {
                let x = short_number(x);
                if probed {
                    x
                } else {
                    format!("{x} (not probed)")
                }
            })
            .collect();
        if p.min {
            format!(
                "the probes bound its children by at most {}; their mean {} ≤ α {}, so the *-value is at most α",
                parts.join(", "),
                short_number(p.mean),
                short_number(a)
            )
        } else {
            format!(
                "the probes bound its children by at least {}; their mean {} ≥ β {}, so the *-value is at least β",
                parts.join(", "),
                short_number(p.mean),
                short_number(b)
            )
        }
    }
}

/// "exact", "a lower bound", "an upper bound".
fn bound_words(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "exact",
        Bound::Lower => "a lower bound",
        Bound::Upper => "an upper bound",
    }
}

/// The start of an iteration of iterative deepening (the event of step `k`), in words.
fn iteration_text(tree: &Tree, replay: &Replay, k: usize, depth: u32) -> String {
    let (i, _, n) = replay.iteration(k).unwrap_or((1, depth, 1));
    let to = if depth as usize >= tree.height() {
        format!("to depth {depth}, the leaves")
    } else {
        format!("to depth {depth}: positions there are valued by their heuristic")
    };
    format!("iteration {i} of {n} begins: search {to}")
}

/// SSS* in its own terms, Stockman's Γ: it is best-first, not a depth-first window search. An
/// interior node's `enter` is its LIVE state taken from OPEN and expanded (the window carries
/// the merit as its upper end): a Max node puts all its children into OPEN, a Min node its
/// first. A leaf's evaluation puts its state back SOLVED with merit min(merit, value). A Max
/// node is solved by the first child whose SOLVED state is taken, and every state under its
/// other children is purged; a Min node by its last child.
fn describe_sss(tree: &Tree, replay: &Replay, k: usize, e: &EventView) -> String {
    let name = |id: NodeId| format!("{} {}", kind_words(tree.kind(id)), node_name(tree, id));
    match *e {
        EventView::Enter { node, beta, .. } => {
            let n = tree.child_count(node);
            let into = match n {
                1 => "its child goes".to_owned(),
                n if provenance::sss_max(tree, node) => format!("its {n} children go"),
                _ => "its first child goes".to_owned(),
            };
            format!(
                "{} is taken from OPEN (merit {}) and expanded: {into} into OPEN",
                name(node),
                short_number(beta)
            )
        }
        EventView::Leaf { node, value } => {
            let h = provenance::sss_live_merit(tree, replay, node, k);
            format!(
                "{} {} = {} is evaluated{}: its state is SOLVED with merit {}",
                if tree.is_leaf(node) {
                    "leaf"
                } else {
                    "position"
                },
                node_name(tree, node),
                short_number(value),
                if tree.is_leaf(node) {
                    ""
                } else {
                    " by its heuristic at the depth limit"
                },
                match h {
                    Some(h) => format!(
                        "min({}, {}) = {}",
                        short_number(h),
                        short_number(value),
                        short_number(h.min(value))
                    ),
                    None => format!("min(merit, {})", short_number(value)),
                }
            )
        }
        EventView::Cutoff { node, after, .. } => {
            let child = tree.child(node, after as usize);
            let merit = provenance::sss_solved(tree, replay, child, k)
                .map_or("?".into(), |(m, _)| short_number(m));
            format!(
                "{} is SOLVED by child {} (merit {merit}, the highest in OPEN){}",
                name(node),
                after + 1,
                provenance::sss_purged_children(tree.child_count(node) - 1, " is")
                    .replacen(',', ":", 1)
            )
        }
        EventView::Exit { node, value, bound } => match bound {
            Bound::Exact => format!(
                "{} is SOLVED: its value is {}",
                name(node),
                short_number(value)
            ),
            Bound::Lower => format!(
                "{} is SOLVED at its merit {}: its value is at least that",
                name(node),
                short_number(value)
            ),
            // Expanded but never solved: its state was purged when an ancestor was solved.
            Bound::Upper if value == f64::INFINITY => {
                format!("{} is abandoned: nothing was proved about it", name(node))
            }
            Bound::Upper => format!(
                "{} is abandoned: its value is at most {}",
                name(node),
                short_number(value)
            ),
        },
        EventView::Research { node, .. } => format!("{} is searched again", name(node)),
        EventView::Iteration { depth } => iteration_text(tree, replay, k, depth),
        _ => e.name().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;

    use super::*;
    use crate::search::Algorithm;
    use crate::trace::{StepIndex, record};

    fn classic() -> Tree {
        crate::tree::samples::classic()
    }

    fn sentences(tree: &Tree, algo: Algorithm) -> Vec<String> {
        let (run, trace) = record(tree, &algo, &AtomicU64::new(0)).unwrap();
        let index = StepIndex::new(tree, &trace);
        let replay = Replay::with_index(tree, &trace, &index);
        (0..=trace.len())
            .map(|k| describe(tree, &run, &trace, &replay, k))
            .collect()
    }

    #[test]
    fn alphabeta_on_the_classic_tree() {
        let s = sentences(&classic(), Algorithm::AlphaBeta { fail_soft: false });
        assert_eq!(s[0], "before the search: alphabeta starts at the root");
        assert_eq!(s[1], "enter + node the root with window α −∞ .. β +∞");
        assert_eq!(s[2], "enter − node a with window α −∞ .. β +∞");
        assert_eq!(s[3], "evaluate leaf #1.1 = 3");
        let deep = crate::generate::game::generate(&crate::generate::game::GameSpec::TicTacToe {
            depth: Some(2),
        })
        .unwrap();
        let cut = Algorithm::parse("alphabeta:depth=1", &crate::search::Params::default()).unwrap();
        let d = sentences(&deep, cut);
        assert_eq!(
            d[2],
            "evaluate − node X a1 at the depth limit by its heuristic = 0.3"
        );
        assert_eq!(d[11], "+ node the root returns 0.4 (exact)");
        assert!(
            s.contains(
                &"cutoff at − node b after child 1 (alpha): value 2 of child #2.1 ≤ α 3, 2 children skipped"
                    .to_owned()
            ),
            "{s:#?}"
        );
        assert_eq!(s.last().unwrap(), "+ node the root returns 3 (exact)");
    }

    /// Issue: the last step of MTD(f) printed the run's value with every digit of its `f64`
    /// ("2.5555555555555554"); sentences round as the rest of the narration does.
    #[test]
    fn the_runs_value_is_rounded_as_every_number_in_a_sentence() {
        let t = crate::format::parse_expr("((2.5555555555555554,5),(1,2))", false).unwrap();
        let s = sentences(&t, Algorithm::Mtdf { guess: None });
        let last = s.last().unwrap();
        assert!(last.contains("the search ends with mtdf 2.556"), "{last}");
        assert!(s.iter().all(|x| !x.contains("2.5555")), "{s:#?}");
    }

    #[test]
    fn bounds_are_named_in_words() {
        let s = sentences(&classic(), Algorithm::AlphaBeta { fail_soft: false });
        assert!(
            s.contains(&"− node b returns 2 (an upper bound)".to_owned()),
            "{s:#?}"
        );
    }

    #[test]
    fn the_last_step_states_the_runs_result() {
        let t = classic();
        for algo in [Algorithm::Mtdf { guess: None }, Algorithm::Sss] {
            let (run, trace) = record(&t, &algo, &AtomicU64::new(0)).unwrap();
            let index = StepIndex::new(&t, &trace);
            let replay = Replay::with_index(&t, &trace, &index);
            let last = describe(&t, &run, &trace, &replay, trace.len());
            assert!(
                last.ends_with("(exact)") || last.contains("is SOLVED: its value is"),
                "{algo}: the run is exact, and the last sentence must say so: {last}"
            );
            let st = settled(
                &t,
                &run,
                &trace,
                t.root(),
                trace.len(),
                replay.state(t.root(), trace.len()),
            );
            assert_eq!(st.bound, run.bound);
        }
    }

    #[test]
    fn a_probe_cutoff_shows_the_probe_bounds_and_their_mean() {
        // A + node over two * nodes of − nodes. The first * node is worth 5 = α for the
        // second, whose first probe bounds its first child by 1: with U = 9 for the other,
        // the mean (1 + 9) / 2 = 5 ≤ α already.
        let mut d = crate::tree::Draft::new(crate::tree::Meta {
            name: "probe".into(),
            players: 2,
            bounds: Some(crate::tree::Bounds { lo: 0.0, hi: 9.0 }),
            ..crate::tree::Meta::default()
        });
        use crate::tree::{DraftNode, Kind};
        d.push(DraftNode::interior(Kind::Max, 2));
        for leaves in [[[5.0, 6.0], [5.0, 7.0]], [[1.0, 8.0], [2.0, 9.0]]] {
            d.push(DraftNode::interior(Kind::Chance, 2));
            for pair in leaves {
                d.push(DraftNode::interior(Kind::Min, 2));
                for v in pair {
                    d.push(DraftNode::leaf(v));
                }
            }
        }
        let t = d.finish().unwrap();
        let algo = Algorithm::Star2 {
            probes: 1,
            probe_always: false,
            rightmost: false,
        };
        let (run, trace) = record(&t, &algo, &AtomicU64::new(0)).unwrap();
        let index = StepIndex::new(&t, &trace);
        let replay = Replay::with_index(&t, &trace, &index);
        let probe_cut = (1..=trace.len())
            .map(|k| describe(&t, &run, &trace, &replay, k))
            .find(|s| s.contains("(probe)"))
            .expect("a probe cutoff");
        assert!(
            probe_cut.contains("at most 1, 9 (not probed); their mean 5 ≤ α 5")
                && probe_cut.contains("regular search of its 2 children is spared"),
            "{probe_cut}"
        );
    }
}
