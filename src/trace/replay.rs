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
    Scalar(f64),
    /// An n-player vector: [`Trace::vector`] with this index (a leaf's is its payoff).
    Vector(u32),
    /// An n-player leaf: its payoff vector is in the tree.
    Payoff,
}

/// Everything the explorer shows about one node at one step.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeState {
    pub status: Status,
    /// The window of the node's latest entry (or announced re-search).
    pub window: Option<(f64, f64)>,
    pub value: Option<Shown>,
    pub bound: Bound,
    /// Entries (interior) or evaluations (leaf) so far.
    pub visits: u32,
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
            fallback: false,
            last_step: None,
        }
    }

    /// Applies step `step` (an event touching this node).
    fn apply(&mut self, id: NodeId, step: usize, e: &EventView) {
        self.last_step = Some(step);
        match *e {
            EventView::Enter { alpha, beta, .. } => {
                self.status = Status::Open;
                self.window = Some((alpha, beta));
                self.visits += 1;
            }
            EventView::Leaf { value, .. } => {
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
}

impl StepIndex {
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
        StepIndex { offsets, steps }
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

    pub fn trace(&self) -> &Trace {
        self.trace
    }

    /// The steps that touch `node`, in order.
    pub fn steps_of(&self, node: NodeId) -> &[u32] {
        let ix = &*self.index;
        &ix.steps[ix.offsets[node.index()] as usize..ix.offsets[node.index() + 1] as usize]
    }

    /// `node`'s own events among the first `k` steps, folded.
    fn own(&self, node: NodeId, k: usize) -> NodeState {
        let mine = self.steps_of(node);
        let upto = mine.partition_point(|&s| (s as usize) < k);
        let mut st = NodeState::unreached();
        for &s in &mine[..upto] {
            st.apply(node, s as usize, &self.trace.event(s as usize).view());
        }
        st
    }

    /// The state of `node` after the first `k` steps (`k` = 0: nothing has happened).
    pub fn state(&self, node: NodeId, k: usize) -> NodeState {
        let mut st = self.own(node, k);
        if st.status == Status::NotReached && st.visits == 0 {
            st.pruned_by = self.pruner(node, k);
            if st.pruned_by.is_some() {
                st.status = Status::Pruned;
            }
        }
        st
    }

    /// Why a node not reached after `k` steps is ruled out, if it is: the nearest ancestor that
    /// cut off before the branch to it, or that was finished without reaching it.
    fn pruner(&self, node: NodeId, k: usize) -> Option<(NodeId, Option<Cutoff>)> {
        let mut child = node;
        while let Some(p) = self.tree.parent(child) {
            let ps = self.own(p, k);
            if let Some((after, _, kind)) = ps.cutoff {
                if self.tree.child_index(child) > after as usize {
                    return Some((p, Some(kind)));
                }
            }
            if ps.status == Status::Done && self.own(child, k).visits == 0 {
                return Some((p, None));
            }
            if ps.visits > 0 {
                return None; // reached, still open: the branch may come
            }
            child = p;
        }
        None
    }

    /// Every node's state after the first `k` steps, in one pass.
    pub fn states(&self, k: usize) -> Vec<NodeState> {
        let mut all = vec![NodeState::unreached(); self.tree.len()];
        for (s, e) in self.trace.events()[..k].iter().enumerate() {
            let view = e.view();
            all[e.node().index()].apply(e.node(), s, &view);
            if let EventView::Probe { child } = view {
                if let Some(p) = self.tree.parent(child) {
                    all[p.index()].apply(p, s, &view);
                }
            }
        }
        // Parents come before children in the arena: one sweep settles "pruned".
        for id in self.tree.ids().skip(1) {
            if all[id.index()].visits > 0 {
                continue;
            }
            let p = self.tree.parent(id).expect("not the root");
            let ps = &all[p.index()];
            let by = if ps.status == Status::Pruned {
                ps.pruned_by
            } else if let Some((_, _, kind)) = ps
                .cutoff
                .filter(|c| self.tree.child_index(id) > c.0 as usize)
            {
                Some((p, Some(kind)))
            } else if ps.status == Status::Done {
                Some((p, None))
            } else {
                None
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
