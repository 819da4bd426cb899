//! A search's every step, recorded.
//!
//! The [`Recorder`] observer turns each observer call into a 24-byte [`Event`] (and keeps the
//! statistics as [`Counter`] does); [`record`] runs an algorithm with it; [`replay`] answers
//! "what did node n look like after k steps" for one node in a few binary searches, or for
//! every node in one pass; [`narrate`] says each step in words; [`export`] writes traces as
//! JSON Lines, statistics as CSV (the columns defined once in [`columns`]) and searched trees
//! as Graphviz DOT.

pub mod columns;
pub mod export;
pub mod narrate;
pub mod practice;
pub mod provenance;
pub mod replay;

use std::sync::atomic::AtomicU64;

use crate::search::{
    self, Algorithm, Bound, Control, Counter, Cutoff, Observer, Progress, References, Refusal, Run,
    Stats, ToThread,
};
use crate::tree::{NodeId, Tree};

pub use replay::{NodeState, Replay, Shown, Status, StepIndex};

/// What an event is: the tag of [`Event`] (see [`EventView`] for each).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// An interior node entered with a window.
    Enter,
    /// A leaf evaluated.
    Leaf,
    /// A chance child's bounds `A_i`, `B_i` (Star1, Star2).
    ChanceBounds,
    /// A probe (Star2).
    Probe,
    /// A node about to be searched again.
    Research,
    /// A cutoff.
    Cutoff,
    /// A node left with a value.
    Exit,
    /// An n-player node left with a vector.
    ExitVector,
    /// Star2's fallback to Star1.
    Fallback,
    /// An iteration of iterative deepening begins.
    Iteration,
    /// A transposition-table entry found.
    TableHit,
}

/// One step in 24 bytes: the kind, a tag (a cutoff's kind, a value's bound), the node, and two
/// numbers whose meaning depends on the kind; pairs of integers are stored in a number's bits.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Event {
    kind: EventKind,
    tag: u8,
    node: u32,
    a: f64,
    b: f64,
}

const _: () = assert!(std::mem::size_of::<Event>() == 24);

/// An event unpacked. Windows and values are from the root's point of view (Max maximises).
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // each variant's doc names its fields
pub enum EventView {
    /// The search enters interior node `node` with the window `(alpha, beta)`.
    Enter { node: NodeId, alpha: f64, beta: f64 },
    /// The search evaluates leaf `node` (`value` is NaN for an n-player leaf: see its payoff).
    Leaf { node: NodeId, value: f64 },
    /// Star1/Star2: `child` of a chance node is about to be searched; `a`, `b` are its bounds
    /// `A_i`, `B_i` (equations 2–8) before clipping to `L..U`.
    ChanceBounds { child: NodeId, a: f64, b: f64 },
    /// Star2 probes `child`'s parent (a child of a chance node) by searching `child`.
    Probe { child: NodeId },
    /// `node` is about to be searched again, with the window `(alpha, beta)`; `aspiration`: the
    /// root's aspiration window failed ([`crate::search::Observer::aspiration_fail`]).
    Research {
        node: NodeId,
        alpha: f64,
        beta: f64,
        aspiration: bool,
    },
    /// A cutoff test fired at `node` after child `after` (its index among its siblings, from
    /// 0), the `rank`-th child searched (from 0: equal to `after` but in searches that order
    /// children at search time); the `skipped` children not yet searched are pruned.
    Cutoff {
        node: NodeId,
        after: u32,
        rank: u32,
        skipped: u32,
        kind: Cutoff,
    },
    /// The search leaves `node` with `value`, exact or a bound.
    Exit {
        node: NodeId,
        value: f64,
        bound: Bound,
    },
    /// The search leaves `node` of an n-player tree with a vector ([`Trace::vector`]).
    ExitVector {
        node: NodeId,
        index: u32,
        bound: Bound,
    },
    /// Star2 searches chance node `node` with Star1 (its children are not all + or all −).
    Fallback { node: NodeId },
    /// Iterative deepening begins its iteration to `depth` plies (at the root): the trace from
    /// here to the next `Iteration` is one segment, a whole search to that depth.
    Iteration { depth: u32 },
    /// The transposition table holds an entry of `node`'s draft: `value` (root-relative) of
    /// kind `bound`. `cut`: it settles the window, and `node` is not searched but returns
    /// `value`; otherwise `node` is searched next (its entry's best move first).
    TableHit {
        node: NodeId,
        value: f64,
        bound: Bound,
        cut: bool,
    },
}

impl EventView {
    /// The event's name in the JSON Lines trace (docs/TRACE.md).
    pub fn name(&self) -> &'static str {
        match self {
            EventView::Enter { .. } => "enter",
            EventView::Leaf { .. } => "leaf",
            EventView::ChanceBounds { .. } => "chance_bounds",
            EventView::Probe { .. } => "probe",
            EventView::Research { .. } => "research",
            EventView::Cutoff { .. } => "cutoff",
            EventView::Exit { .. } | EventView::ExitVector { .. } => "exit",
            EventView::Fallback { .. } => "fallback",
            EventView::Iteration { .. } => "iteration",
            EventView::TableHit { .. } => "tt_hit",
        }
    }

    /// The node the event concerns: for `ChanceBounds` and `Probe`, the child searched.
    pub fn node(&self) -> NodeId {
        match *self {
            EventView::Enter { node, .. }
            | EventView::Leaf { node, .. }
            | EventView::Research { node, .. }
            | EventView::Cutoff { node, .. }
            | EventView::Exit { node, .. }
            | EventView::ExitVector { node, .. }
            | EventView::Fallback { node }
            | EventView::TableHit { node, .. } => node,
            EventView::Iteration { .. } => NodeId::ROOT,
            EventView::ChanceBounds { child, .. } | EventView::Probe { child } => child,
        }
    }
}

fn bound_tag(b: Bound) -> u8 {
    match b {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    }
}

fn tag_bound(t: u8) -> Bound {
    match t {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    }
}

/// A `Research` event's tag: the root's aspiration window failed.
const ASPIRATION: u8 = 1;
/// A `TableHit` event's tag bit (beside the bound's): the entry settled the window.
const CUT: u8 = 4;

fn pack(x: u32, y: u32) -> f64 {
    f64::from_bits(u64::from(x) | (u64::from(y) << 32))
}

fn unpack(f: f64) -> (u32, u32) {
    let b = f.to_bits();
    (b as u32, (b >> 32) as u32)
}

impl Event {
    fn new(kind: EventKind, tag: u8, node: NodeId, a: f64, b: f64) -> Self {
        Event {
            kind,
            tag,
            node: node.0,
            a,
            b,
        }
    }

    /// What the event is.
    pub fn kind(&self) -> EventKind {
        self.kind
    }

    /// The node the event is about (for `ChanceBounds` and `Probe`, the child searched).
    pub fn node(&self) -> NodeId {
        NodeId(self.node)
    }

    /// The event unpacked.
    pub fn view(&self) -> EventView {
        let node = NodeId(self.node);
        match self.kind {
            EventKind::Enter => EventView::Enter {
                node,
                alpha: self.a,
                beta: self.b,
            },
            EventKind::Leaf => EventView::Leaf {
                node,
                value: self.a,
            },
            EventKind::ChanceBounds => EventView::ChanceBounds {
                child: node,
                a: self.a,
                b: self.b,
            },
            EventKind::Probe => EventView::Probe { child: node },
            EventKind::Research => EventView::Research {
                node,
                alpha: self.a,
                beta: self.b,
                aspiration: self.tag == ASPIRATION,
            },
            EventKind::Cutoff => {
                let (after, skipped) = unpack(self.a);
                EventView::Cutoff {
                    node,
                    after,
                    rank: self.b as u32,
                    skipped,
                    kind: Cutoff::ALL[usize::from(self.tag)],
                }
            }
            EventKind::Exit => EventView::Exit {
                node,
                value: self.a,
                bound: tag_bound(self.tag),
            },
            EventKind::ExitVector => EventView::ExitVector {
                node,
                index: unpack(self.a).0,
                bound: tag_bound(self.tag),
            },
            EventKind::Fallback => EventView::Fallback { node },
            EventKind::Iteration => EventView::Iteration {
                depth: self.a as u32,
            },
            EventKind::TableHit => EventView::TableHit {
                node,
                value: self.a,
                bound: tag_bound(self.tag & 3),
                cut: self.tag & CUT != 0,
            },
        }
    }
}

/// Runs `algo` on `tree` recording every event; the number of nodes visited so far is
/// published in `visits` as the search goes (for a progress display).
///
/// ```
/// use std::sync::atomic::AtomicU64;
///
/// use prune::search::Algorithm;
/// use prune::trace::{self, Replay, Status};
///
/// let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false)?;
/// let (run, trace) = trace::record(&tree, &Algorithm::Minimax, &AtomicU64::new(0))?;
/// assert_eq!(run.value.scalar(), Some(3.0));
/// // Replay to any step: at the end, every node is done (minimax prunes nothing).
/// let replay = Replay::new(&tree, &trace);
/// let last = replay.state(tree.root(), trace.len());
/// assert_eq!(last.status, Status::Done);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record(tree: &Tree, algo: &Algorithm, visits: &AtomicU64) -> Result<(Run, Trace), Refusal> {
    record_in(&References::new(tree), algo, visits)
}

/// [`record`] on the tree of `refs`, whose reference values give the best moves.
pub fn record_in(
    refs: &References<'_>,
    algo: &Algorithm,
    visits: &AtomicU64,
) -> Result<(Run, Trace), Refusal> {
    let tree = refs.tree();
    finish_recording(refs, algo, Progress::new(Recorder::new(tree.len()), visits))
}

/// [`record`], stopping (by unwinding with [`search::Cancelled`]) when `control.cancel` is set.
pub fn record_with(
    tree: &Tree,
    algo: &Algorithm,
    control: &Control,
) -> Result<(Run, Trace), Refusal> {
    finish_recording(
        &References::new(tree),
        algo,
        Progress::with_control(Recorder::new(tree.len()), control),
    )
}

fn finish_recording(
    refs: &References<'_>,
    algo: &Algorithm,
    mut obs: Progress<Recorder, ToThread<'_>>,
) -> Result<(Run, Trace), Refusal> {
    let (found, seconds) = search::search(refs.tree(), algo, &mut obs)?;
    let (trace, stats) = obs.inner.finish();
    Ok((
        search::finish_with(refs, algo, found, stats, seconds),
        trace,
    ))
}

/// A recorded search: its events in order, and the payoff vectors of n-player exits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    events: Vec<Event>,
    vectors: Vec<f64>,
    /// Components of each stored vector.
    width: usize,
}

impl Trace {
    /// This trace, recorded on `old`, told on `new`, a copy of `old` with its children
    /// reordered (`map[old id]` is the node's id in `new`, see [`Tree::reordered_map`]): the
    /// same events, in the same order, on the same nodes under their new ids. A cutoff names
    /// the child that fired it by its new position; the children it skipped are those not
    /// reached, wherever they now stand.
    pub fn remapped(&self, old: &Tree, new: &Tree, map: &[NodeId]) -> Trace {
        let events = self
            .events
            .iter()
            .map(|e| {
                let mut e = *e;
                if e.kind == EventKind::Cutoff {
                    let (after, skipped) = unpack(e.a);
                    let fired = old.child(NodeId(e.node), after as usize);
                    e.a = pack(new.child_index(map[fired.index()]) as u32, skipped);
                }
                e.node = map[e.node as usize].0;
                e
            })
            .collect();
        Trace {
            events,
            vectors: self.vectors.clone(),
            width: self.width,
        }
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The event at `step` (from 0).
    pub fn event(&self, step: usize) -> &Event {
        &self.events[step]
    }

    /// Every event, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The payoff vector stored by an `ExitVector` event.
    pub fn vector(&self, index: u32) -> &[f64] {
        let at = index as usize * self.width;
        &self.vectors[at..at + self.width]
    }
}

/// The observer that records everything (and counts, like [`Counter`]).
pub struct Recorder {
    trace: Trace,
    counter: Counter,
    /// The aspiration window just failed: the next `Research` event says so.
    aspiration: bool,
}

impl Recorder {
    /// A recorder for a tree of `nodes` nodes.
    pub fn new(nodes: usize) -> Self {
        Recorder {
            trace: Trace::default(),
            counter: Counter::new(nodes),
            aspiration: false,
        }
    }

    /// The trace and the statistics of the search recorded.
    pub fn finish(self) -> (Trace, Stats) {
        (self.trace, self.counter.finish())
    }

    #[inline]
    fn push(&mut self, e: Event) {
        self.trace.events.push(e);
    }
}

impl Observer for Recorder {
    #[inline]
    fn enter(&mut self, node: NodeId, alpha: f64, beta: f64) {
        self.counter.enter(node, alpha, beta);
        self.push(Event::new(EventKind::Enter, 0, node, alpha, beta));
    }

    #[inline]
    fn leaf(&mut self, node: NodeId, value: f64) {
        self.counter.leaf(node, value);
        self.push(Event::new(EventKind::Leaf, 0, node, value, 0.0));
    }

    #[inline]
    fn fresh_leaf(&mut self, node: NodeId, value: f64) {
        self.counter.fresh_leaf(node, value);
        self.push(Event::new(EventKind::Leaf, 0, node, value, 0.0));
    }

    #[inline]
    fn leaf_again(&mut self, node: NodeId, value: f64) {
        self.counter.leaf_again(node, value);
        self.push(Event::new(EventKind::Leaf, 0, node, value, 0.0));
    }

    #[inline]
    fn chance_bounds(&mut self, child: NodeId, a: f64, b: f64) {
        self.push(Event::new(EventKind::ChanceBounds, 0, child, a, b));
    }

    #[inline]
    fn probe(&mut self, child: NodeId) {
        self.counter.probe(child);
        self.push(Event::new(EventKind::Probe, 0, child, 0.0, 0.0));
    }

    #[inline]
    fn research(&mut self, node: NodeId, alpha: f64, beta: f64) {
        self.counter.research(node, alpha, beta);
        let tag = if std::mem::take(&mut self.aspiration) {
            ASPIRATION
        } else {
            0
        };
        self.push(Event::new(EventKind::Research, tag, node, alpha, beta));
    }

    #[inline]
    fn cutoff(&mut self, node: NodeId, after: u32, skipped: u32, kind: Cutoff) {
        self.cutoff_ranked(node, after, after, skipped, kind);
    }

    #[inline]
    fn cutoff_ranked(&mut self, node: NodeId, child: u32, rank: u32, skipped: u32, kind: Cutoff) {
        self.counter.cutoff(node, child, skipped, kind);
        self.push(Event::new(
            EventKind::Cutoff,
            kind.index() as u8,
            node,
            pack(child, skipped),
            f64::from(rank),
        ));
    }

    #[inline]
    fn exit(&mut self, node: NodeId, value: f64, bound: Bound) {
        self.push(Event::new(
            EventKind::Exit,
            bound_tag(bound),
            node,
            value,
            0.0,
        ));
    }

    fn exit_vector(&mut self, node: NodeId, value: &[f64], bound: Bound) {
        self.trace.width = value.len();
        let index = (self.trace.vectors.len() / value.len().max(1)) as u32;
        self.trace.vectors.extend_from_slice(value);
        self.push(Event::new(
            EventKind::ExitVector,
            bound_tag(bound),
            node,
            pack(index, 0),
            0.0,
        ));
    }

    #[inline]
    fn fallback(&mut self, node: NodeId) {
        self.counter.fallback(node);
        self.push(Event::new(EventKind::Fallback, 0, node, 0.0, 0.0));
    }

    #[inline]
    fn tt_probe(&mut self, node: NodeId) {
        self.counter.tt_probe(node);
    }

    #[inline]
    fn tt_hit(&mut self, node: NodeId, value: f64, bound: Bound, cut: bool) {
        self.counter.tt_hit(node, value, bound, cut);
        let tag = bound_tag(bound) | if cut { CUT } else { 0 };
        self.push(Event::new(EventKind::TableHit, tag, node, value, 0.0));
    }

    fn iteration(&mut self, depth: u32) {
        self.counter.iteration(depth);
        let e = Event::new(EventKind::Iteration, 0, NodeId::ROOT, f64::from(depth), 0.0);
        self.push(e);
    }

    fn aspiration_fail(&mut self, node: NodeId) {
        self.counter.aspiration_fail(node);
        self.aspiration = true;
    }
}
