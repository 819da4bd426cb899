//! Replaying a trace: the state of any node after the first `k` steps.
//!
//! [`Replay::new`] indexes, once, the steps that touch each node (a counting sort of the
//! events by node: two arrays, no per-node allocation). [`Replay::state`] then folds one node's
//! own events up to step `k` — a binary search and a handful of events — and derives "pruned"
//! from its ancestors: a node not reached is pruned when an ancestor's cutoff fired before the
//! branch leading to it, or an ancestor was finished without reaching it. Going to any step,
//! forwards or backwards, costs the same: nothing is replayed but the rows on screen.
//! [`Replay::states`] computes every node at once, in one pass over the events and one over
//! the tree, for exports.
//!
//! **Iterative deepening.** A trace with `Iteration` events is cut into segments, one whole
//! search to one depth each; a node's state after `k` steps is what the segment containing step
//! `k` did to it (earlier iterations are earlier searches: their values are not this one's).
//! Nodes at the iteration's horizon are evaluated by their heuristic; what lies below them is
//! not reached, not pruned. A node answered by the transposition table (a `TableHit` that cuts)
//! is done without being entered, and its subtree is pruned by it.

use std::borrow::Cow;

use crate::search::{Bound, Cutoff};
use crate::tree::{NodeId, Tree};

use super::{EventView, Trace};

/// Where a node stands after some steps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not yet reached (and nothing rules it out yet).
    NotReached,
    /// Entered and not yet left: on the search's path.
    Open,
    /// Left with a value (a leaf: evaluated).
    Done,
    /// Never reached: a cutoff above it (or a finished ancestor) rules it out.
    Pruned,
}

/// A value as the trace holds it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Shown {
    /// A two-player or chance node's value.
    Scalar(f64),
    /// An n-player vector: [`Trace::vector`] with this index (a leaf's is its payoff).
    Vector(u32),
    /// An n-player leaf: its payoff vector is in the tree.
    Payoff,
}

/// Everything the explorer shows about one node at one step.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeState {
    /// Where the node is in the search.
    pub status: Status,
    /// The window of the node's latest entry (or announced re-search).
    pub window: Option<(f64, f64)>,
    /// The node's value so far, once it has one.
    pub value: Option<Shown>,
    /// Whether the value is exact or a bound.
    pub bound: Bound,
    /// Entries (interior) or evaluations (leaf) so far.
    pub visits: u32,
    /// Times the node was searched again.
    pub researches: u32,
    /// Star2 probed this node (searched one of its children as a probe).
    pub probed: bool,
    /// This node was searched as a probe of its parent.
    pub probe_target: bool,
    /// The cutoff that fired at this node: after which child, how many skipped, what kind.
    pub cutoff: Option<(u32, u32, Cutoff)>,
    /// For a pruned node: the ancestor whose cutoff pruned it, and the kind when known.
    pub pruned_by: Option<(NodeId, Option<Cutoff>)>,
    /// Star1/Star2: the bounds `A_i`, `B_i` this node was last searched under (unclipped).
    pub chance_bounds: Option<(f64, f64)>,
    /// An interior node evaluated by its heuristic at the search's depth limit: its children
    /// are beyond the horizon.
    pub horizon: bool,
    /// The transposition table's entry found for this node's latest visit: its value
    /// (root-relative), its kind of bound, and whether it settled the window (the node was then
    /// not searched: its value is the entry's).
    pub table: Option<(f64, Bound, bool)>,
    /// Star2 searched this chance node with Star1.
    pub fallback: bool,
    /// The latest step that touched the node.
    pub last_step: Option<usize>,
}

impl NodeState {
    fn unreached() -> Self {
        NodeState {
            status: Status::NotReached,
            window: None,
            value: None,
            bound: Bound::Exact,
            visits: 0,
            researches: 0,
            probed: false,
            probe_target: false,
            cutoff: None,
            pruned_by: None,
            chance_bounds: None,
            horizon: false,
            table: None,
            fallback: false,
            last_step: None,
        }
    }

    /// Whether the search reached the node: entered, evaluated or answered by the table.
    pub fn reached(&self) -> bool {
        matches!(self.status, Status::Open | Status::Done) || self.visits > 0
    }

    /// Whether nothing has touched the node: not reached, and not probed either.
    pub fn untouched(&self) -> bool {
        !self.reached() && !self.probed
    }

    /// Applies step `step` (an event touching this node; `leaf`: the node is a leaf).
    fn apply(&mut self, id: NodeId, leaf: bool, step: usize, e: &EventView) {
        let previous = self.last_step.replace(step);
        match *e {
            EventView::Enter { alpha, beta, .. } => {
                self.status = Status::Open;
                self.window = Some((alpha, beta));
                self.visits += 1;
                self.horizon = false;
                // A table entry belongs to the visit it opened (found just before entering).
                if self.table.is_some() && previous != step.checked_sub(1) {
                    self.table = None;
                }
            }
            EventView::TableHit {
                value, bound, cut, ..
            } => {
                self.table = Some((value, bound, cut));
                if cut {
                    self.status = Status::Done;
                    self.value = Some(Shown::Scalar(value));
                    self.bound = bound;
                    self.horizon = false;
                }
            }
            EventView::Iteration { .. } => {}
            EventView::Leaf { value, .. } => {
                self.horizon = !leaf;
                self.status = Status::Done;
                self.value = Some(if value.is_nan() {
                    Shown::Payoff
                } else {
                    Shown::Scalar(value)
                });
                self.visits += 1;
            }
            EventView::ChanceBounds { a, b, .. } => self.chance_bounds = Some((a, b)),
            EventView::Probe { child } => {
                if child == id {
                    self.probe_target = true;
                } else {
                    self.probed = true;
                }
            }
            EventView::Research { alpha, beta, .. } => {
                self.researches += 1;
                self.window = Some((alpha, beta));
            }
            EventView::Cutoff {
                after,
                skipped,
                kind,
                ..
            } => self.cutoff = Some((after, skipped, kind)),
            EventView::Exit { value, bound, .. } => {
                self.status = Status::Done;
                self.value = Some(Shown::Scalar(value));
                self.bound = bound;
            }
            EventView::ExitVector { index, bound, .. } => {
                self.status = Status::Done;
                self.value = Some(Shown::Vector(index));
                self.bound = bound;
            }
            EventView::Fallback { .. } => self.fallback = true,
        }
    }
}

/// The steps that touch each node: a counting sort of a trace's events by node. Built once per
/// trace; the explorer keeps it beside the trace and views both through [`Replay::with_index`].
#[derive(Clone, Debug)]
pub struct StepIndex {
    /// `steps[offsets[n]..offsets[n + 1]]`: the steps touching node `n`, in order.
    offsets: Vec<u32>,
    steps: Vec<u32>,
    /// The steps of the `Iteration` events, in order: where iterative deepening's segments
    /// begin.
    iterations: Vec<u32>,
}

impl StepIndex {
    /// The index of `trace`'s steps by node.
    pub fn new(tree: &Tree, trace: &Trace) -> Self {
        let n = tree.len();
        let touched = |e: &super::Event| -> [Option<NodeId>; 2] {
            let node = e.node();
            match e.kind() {
                // A probe touches the probed node (the parent) as well as the child searched.
                super::EventKind::Probe => [Some(node), tree.parent(node)],
                _ => [Some(node), None],
            }
        };
        let mut offsets = vec![0u32; n + 1];
        for e in trace.events() {
            for id in touched(e).into_iter().flatten() {
                offsets[id.index() + 1] += 1;
            }
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut steps = vec![0u32; offsets[n] as usize];
        for (k, e) in trace.events().iter().enumerate() {
            for id in touched(e).into_iter().flatten() {
                steps[fill[id.index()] as usize] = k as u32;
                fill[id.index()] += 1;
            }
        }
        let iterations = trace
            .events()
            .iter()
            .enumerate()
            .filter(|(_, e)| e.kind() == super::EventKind::Iteration)
            .map(|(k, _)| k as u32)
            .collect();
        StepIndex {
            offsets,
            steps,
            iterations,
        }
    }

    /// The first step of the segment that step `k` (the `k`-th event, from 1) belongs to: the
    /// latest `Iteration` event among the first `k`, or 0.
    pub fn segment_start(&self, k: usize) -> usize {
        let i = self.iterations.partition_point(|&s| (s as usize) < k);
        i.checked_sub(1).map_or(0, |i| self.iterations[i] as usize)
    }

    /// The steps where iterative deepening's iterations begin (empty for other searches).
    pub fn iterations(&self) -> &[u32] {
        &self.iterations
    }
}

/// A trace indexed by node; see the module documentation.
pub struct Replay<'a> {
    tree: &'a Tree,
    trace: &'a Trace,
    index: Cow<'a, StepIndex>,
}

impl<'a> Replay<'a> {
    /// Indexes `trace` (a pass over its events) and replays it.
    pub fn new(tree: &'a Tree, trace: &'a Trace) -> Self {
        let index = Cow::Owned(StepIndex::new(tree, trace));
        Replay { tree, trace, index }
    }

    /// Replays `trace` through an index built before: costs nothing.
    pub fn with_index(tree: &'a Tree, trace: &'a Trace, index: &'a StepIndex) -> Self {
        let index = Cow::Borrowed(index);
        Replay { tree, trace, index }
    }

    /// The trace replayed.
    pub fn trace(&self) -> &Trace {
        self.trace
    }

    /// The steps that touch `node`, in order.
    pub fn steps_of(&self, node: NodeId) -> &[u32] {
        let ix = &*self.index;
        &ix.steps[ix.offsets[node.index()] as usize..ix.offsets[node.index() + 1] as usize]
    }

    /// The first step of the iteration that the first `k` steps end in (0 without iterative
    /// deepening): states after `k` steps fold the events from there.
    pub fn segment_start(&self, k: usize) -> usize {
        self.index.segment_start(k)
    }

    /// The iteration the first `k` steps end in: its number (from 1), its depth and how many
    /// there are. `None` without iterative deepening, or before the first one begins.
    pub fn iteration(&self, k: usize) -> Option<(usize, u32, usize)> {
        let starts = self.index.iterations();
        let i = starts.partition_point(|&s| (s as usize) < k);
        let at = starts.get(i.checked_sub(1)?)?;
        match self.trace.event(*at as usize).view() {
            EventView::Iteration { depth } => Some((i, depth, starts.len())),
            _ => None,
        }
    }

    /// `node`'s own events among the first `k` steps, folded (from the start of their segment).
    fn own(&self, node: NodeId, k: usize) -> NodeState {
        let mine = self.steps_of(node);
        let start = self.segment_start(k);
        let from = mine.partition_point(|&s| (s as usize) < start);
        let upto = mine.partition_point(|&s| (s as usize) < k);
        let mut st = NodeState::unreached();
        let leaf = self.tree.is_leaf(node);
        for &s in &mine[from..upto.max(from)] {
            st.apply(node, leaf, s as usize, &self.trace.event(s as usize).view());
        }
        st
    }

    /// The state of `node` after the first `k` steps (`k` = 0: nothing has happened).
    pub fn state(&self, node: NodeId, k: usize) -> NodeState {
        let mut st = self.own(node, k);
        if !st.reached() {
            st.pruned_by = self.pruner(node, k);
            if st.pruned_by.is_some() {
                st.status = Status::Pruned;
            }
        }
        st
    }

    /// Why a node not reached after `k` steps is ruled out, if it is: the nearest ancestor that
    /// cut off before the branch to it, or that was finished without reaching it (answered by
    /// the table, too). Nothing below a node evaluated at the horizon is ruled out.
    fn pruner(&self, node: NodeId, k: usize) -> Option<(NodeId, Option<Cutoff>)> {
        let mut child = node;
        let mut cs = self.own(node, k);
        while let Some(p) = self.tree.parent(child) {
            let ps = self.own(p, k);
            if let Some(by) = ruled_out(&ps, p, self.tree.child_index(child), &cs) {
                return by;
            }
            child = p;
            cs = ps;
        }
        None
    }

    /// Every node's state after the first `k` steps, in one pass.
    pub fn states(&self, k: usize) -> Vec<NodeState> {
        let mut all = vec![NodeState::unreached(); self.tree.len()];
        let start = self.segment_start(k);
        for (s, e) in self.trace.events()[..k].iter().enumerate().skip(start) {
            let view = e.view();
            let node = e.node();
            all[node.index()].apply(node, self.tree.is_leaf(node), s, &view);
            if let EventView::Probe { child } = view {
                if let Some(p) = self.tree.parent(child) {
                    all[p.index()].apply(p, false, s, &view);
                }
            }
        }
        // Parents come before children in the arena: one sweep settles "pruned".
        for id in self.tree.ids().skip(1) {
            if all[id.index()].reached() {
                continue;
            }
            let p = self.tree.parent(id).expect("not the root");
            let ps = &all[p.index()];
            let by = if ps.status == Status::Pruned {
                ps.pruned_by
            } else {
                ruled_out(ps, p, self.tree.child_index(id), &all[id.index()]).flatten()
            };
            if by.is_some() {
                let st = &mut all[id.index()];
                st.status = Status::Pruned;
                st.pruned_by = by;
            }
        }
        all
    }
}

/// Whether child number `index` of `p` (state `ps`), untouched with state `cs`, is ruled out
/// by `p`: `Some(Some(by))` pruned, `Some(None)` not (and neither is anything below it: `p` is
/// reached, or at the horizon), `None` when `p` says nothing (ask its parent).
///
/// A cutoff prunes the children after the one that fired it; in a search that orders children
/// at search time (the transposition table's move, killers, history), also those before it that
/// were never searched — in index order they all were, or were probed (Star2), which a probe
/// cutoff does not prune. A node finished, or answered by the table, without reaching a child
/// has pruned it; a node evaluated at the horizon has not.
#[allow(clippy::option_option)]
fn ruled_out(
    ps: &NodeState,
    p: NodeId,
    index: usize,
    cs: &NodeState,
) -> Option<Option<(NodeId, Option<Cutoff>)>> {
    if ps.horizon {
        return Some(None);
    }
    if let Some((after, _, kind)) = ps.cutoff {
        let after = after as usize;
        if index > after || (index < after && cs.untouched()) {
            return Some(Some((p, Some(kind))));
        }
    }
    if ps.status == Status::Done && cs.visits == 0 {
        return Some(Some((p, None)));
    }
    if ps.visits > 0 {
        return Some(None); // reached, still open: the branch may come
    }
    None
}
