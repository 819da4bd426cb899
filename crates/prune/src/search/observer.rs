//! What a search tells the world while it runs.
//!
//! Every algorithm is generic over an [`Observer`]: with [`Counter`] (statistics only) the calls
//! compile to a few increments; with [`crate::trace::Recorder`] every call becomes an event the
//! explorer can replay. Windows and values are always reported from the root's point of view
//! (Max maximises), whatever form — negamax or min/max — the algorithm is written in.

use serde::Serialize;

use crate::tree::NodeId;

/// What a returned value says about the node's true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The value is the node's true value.
    Exact,
    /// The true value is at least this (a fail-high, a cutoff at a Max node).
    Lower,
    /// The true value is at most this (a fail-low, a cutoff at a Min node).
    Upper,
}

impl Bound {
    /// The alpha-beta postcondition: a value returned for the window `(alpha, beta)` is exact
    /// strictly inside it, an upper bound at or below `alpha`, a lower bound at or above `beta`.
    #[inline]
    pub fn classify(v: f64, alpha: f64, beta: f64) -> Bound {
        if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// The bound as a sign before a value: `=`, `≥`, `≤`.
    pub fn symbol(self) -> &'static str {
        match self {
            Bound::Exact => "=",
            Bound::Lower => "≥",
            Bound::Upper => "≤",
        }
    }
}

/// The kinds of cutoff, one counter each in [`Stats`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cutoff {
    /// At a Min node: a child's value is at or below alpha.
    Alpha,
    /// At a Max node: a child's value is at or above beta.
    Beta,
    /// At a chance node (Star1/Star2): `v ≤ A_i`, the *-value is at most alpha.
    StarLower,
    /// At a chance node (Star1/Star2): `v ≥ B_i`, the *-value is at least beta.
    StarUpper,
    /// During Star2's probing phase: a probe alone proves the *-value outside the window.
    Probe,
    /// Ballard §7.2: the root's rightmost * node is proved better than alpha.
    Rightmost,
    /// max^n: a child's component reached the bound from its parent.
    Shallow,
    /// max^n: a child's component reached the largest value any component can have.
    Immediate,
}

impl Cutoff {
    /// Every kind, in the order of the statistics' columns.
    pub const ALL: [Cutoff; 8] = [
        Cutoff::Alpha,
        Cutoff::Beta,
        Cutoff::StarLower,
        Cutoff::StarUpper,
        Cutoff::Probe,
        Cutoff::Rightmost,
        Cutoff::Shallow,
        Cutoff::Immediate,
    ];

    /// The kind's name, as the statistics and the trace write it.
    pub fn name(self) -> &'static str {
        match self {
            Cutoff::Alpha => "alpha",
            Cutoff::Beta => "beta",
            Cutoff::StarLower => "star-lower",
            Cutoff::StarUpper => "star-upper",
            Cutoff::Probe => "probe",
            Cutoff::Rightmost => "rightmost",
            Cutoff::Shallow => "shallow",
            Cutoff::Immediate => "immediate",
        }
    }

    /// The kind's place in [`Cutoff::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Receives a search's events. Every method has an empty default.
///
/// ```
/// use prune::search::{self, Algorithm, Counter, Cutoff, Observer};
/// use prune::tree::NodeId;
///
/// /// Where the cutoffs fire, and the statistics beside.
/// struct Cuts(Vec<(NodeId, u32)>, Counter);
///
/// impl Observer for Cuts {
///     fn enter(&mut self, node: NodeId, alpha: f64, beta: f64) {
///         self.1.enter(node, alpha, beta);
///     }
///     fn leaf(&mut self, node: NodeId, value: f64) {
///         self.1.leaf(node, value);
///     }
///     fn cutoff(&mut self, node: NodeId, after: u32, skipped: u32, kind: Cutoff) {
///         self.0.push((node, skipped));
///         self.1.cutoff(node, after, skipped, kind);
///     }
/// }
///
/// let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false)?;
/// let mut cuts = Cuts(Vec::new(), Counter::new(tree.len()));
/// let algo = Algorithm::AlphaBeta { fail_soft: false };
/// let (found, _seconds) = search::search(&tree, &algo, &mut cuts)?;
/// assert_eq!(found.value.scalar(), Some(3.0));
/// // The second move is cut after its first child, 2, skipping two; the third at its last.
/// let root = tree.root();
/// assert_eq!(cuts.0, [(tree.child(root, 1), 2), (tree.child(root, 2), 0)]);
/// assert_eq!(cuts.1.finish().leaves, 7);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(unused_variables)]
pub trait Observer {
    /// The search enters an interior node with the window `(alpha, beta)`.
    #[inline]
    fn enter(&mut self, node: NodeId, alpha: f64, beta: f64) {}
    /// The search evaluates a leaf; `value` is the value the algorithm uses.
    #[inline]
    fn leaf(&mut self, node: NodeId, value: f64) {}
    /// [`Observer::leaf`] from a search that evaluates every leaf at most once (minimax,
    /// alpha-beta, expectiminimax, SSS*): this leaf has not been reported before in this
    /// search, so an observer counting distinct leaves need not look it up.
    #[inline]
    fn fresh_leaf(&mut self, node: NodeId, value: f64) {
        self.leaf(node, value)
    }
    /// [`Observer::leaf`] of a leaf this search has reported before (MTD(f) knows it from its
    /// memory), so an observer counting distinct leaves need not look it up either.
    #[inline]
    fn leaf_again(&mut self, node: NodeId, value: f64) {
        self.leaf(node, value)
    }
    /// Star1/Star2: before searching `child` of a chance node, its bounds `A_i` and `B_i`
    /// (equations 2–8), before clipping to `L..U`.
    #[inline]
    fn chance_bounds(&mut self, child: NodeId, a: f64, b: f64) {}
    /// Star2 probes `child`'s parent (a child of a chance node) by searching `child`.
    #[inline]
    fn probe(&mut self, child: NodeId) {}
    /// The search will search `node` again with the window `(alpha, beta)`.
    #[inline]
    fn research(&mut self, node: NodeId, alpha: f64, beta: f64) {}
    /// A cutoff test fired at `node` after its child number `after`; `skipped` children are
    /// left unsearched (0 when the test fires at the last child: the value returned is then a
    /// bound, but nothing is pruned).
    #[inline]
    fn cutoff(&mut self, node: NodeId, after: u32, skipped: u32, kind: Cutoff) {}
    /// A cutoff in a search that orders children at search time: `child` (its index among its
    /// siblings) fired it as the `rank`-th child searched (from 0); the `skipped` children not
    /// yet searched are pruned, wherever they stand. In index order this is [`Observer::cutoff`].
    #[inline]
    fn cutoff_ranked(&mut self, node: NodeId, child: u32, rank: u32, skipped: u32, kind: Cutoff) {
        let _ = rank;
        self.cutoff(node, child, skipped, kind);
    }
    /// The search leaves an interior node with this value.
    #[inline]
    fn exit(&mut self, node: NodeId, value: f64, bound: Bound) {}
    /// The search leaves a node of an n-player tree with this payoff vector.
    #[inline]
    fn exit_vector(&mut self, node: NodeId, value: &[f64], bound: Bound) {}
    /// Star2 searches chance node `node` with Star1 (its children are not all of one kind).
    #[inline]
    fn fallback(&mut self, node: NodeId) {}
    /// The search looks `node`'s position up in the transposition table.
    #[inline]
    fn tt_probe(&mut self, node: NodeId) {}
    /// The table holds an entry of the right depth for `node`: its value (root-relative) and
    /// what kind of bound it is; `cut`: it settles the window and the node is not searched (a
    /// TT cutoff: the search goes on as if `node` had returned `value`).
    #[inline]
    fn tt_hit(&mut self, node: NodeId, value: f64, bound: Bound, cut: bool) {}
    /// Iterative deepening begins its iteration to `depth`.
    #[inline]
    fn iteration(&mut self, depth: u32) {}
    /// The aspiration window failed at `node` (the root): it is searched again, wider.
    #[inline]
    fn aspiration_fail(&mut self, node: NodeId) {}
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Counts of what a search did. Field names are the `stats` object of `prune run --json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Leaf evaluations: a leaf probed and later searched again, or searched again by a
    /// re-search, counts each time (Ballard's convention in §6.2.1).
    pub leaves: u64,
    /// Different leaves evaluated (§6.1's convention counts these).
    pub distinct_leaves: u64,
    /// Interior nodes entered, counting repeats.
    pub interior: u64,
    /// Every node visit, leaves included: `interior + leaves`.
    pub nodes: u64,
    /// Cutoff tests that fired, at whichever child (see [`Observer::cutoff`]).
    pub cutoffs: u64,
    /// Children left unsearched by cutoffs (their subtrees are pruned).
    pub pruned_children: u64,
    /// Cutoffs by kind, in the order of [`Cutoff::ALL`].
    #[serde(skip)]
    pub by_kind: [u64; 8],
    /// Nodes probed (Star2).
    pub probes: u64,
    /// Cutoffs during Star2's probing phase (also counted as `probe` cutoffs).
    pub probe_cutoffs: u64,
    /// Re-searches (NegaScout) or additional passes (MTD(f)).
    pub researches: u64,
    /// Chance nodes where Star2 fell back to Star1.
    pub fallbacks: u64,
    /// Transposition-table look-ups (absent from JSON when there were none).
    #[serde(skip_serializing_if = "is_zero")]
    pub tt_probes: u64,
    /// Look-ups that found an entry of the node's draft.
    #[serde(skip_serializing_if = "is_zero")]
    pub tt_hits: u64,
    /// Hits whose value settled the window: the node was not searched.
    #[serde(skip_serializing_if = "is_zero")]
    pub tt_cutoffs: u64,
    /// Root re-searches after an aspiration window failed (also counted in `researches`).
    #[serde(skip_serializing_if = "is_zero")]
    pub aspiration_researches: u64,
    /// Iterative deepening: the nodes (`nodes`' convention) of each iteration, depth 1 first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub iteration_nodes: Vec<u64>,
}

/// Adds another search's counts, field by field (Lazy SMP's threads, summed); the iterations'
/// nodes index by index (a thread's i-th iteration, one ply deeper for a staggered helper).
/// Every field is named, so a new one cannot be left out.
impl std::ops::AddAssign<&Stats> for Stats {
    fn add_assign(&mut self, other: &Stats) {
        let Stats {
            leaves,
            distinct_leaves,
            interior,
            nodes,
            cutoffs,
            pruned_children,
            by_kind,
            probes,
            probe_cutoffs,
            researches,
            fallbacks,
            tt_probes,
            tt_hits,
            tt_cutoffs,
            aspiration_researches,
            iteration_nodes,
        } = other;
        self.leaves += leaves;
        self.distinct_leaves += distinct_leaves;
        self.interior += interior;
        self.nodes += nodes;
        self.cutoffs += cutoffs;
        self.pruned_children += pruned_children;
        for (t, k) in self.by_kind.iter_mut().zip(by_kind) {
            *t += k;
        }
        self.probes += probes;
        self.probe_cutoffs += probe_cutoffs;
        self.researches += researches;
        self.fallbacks += fallbacks;
        self.tt_probes += tt_probes;
        self.tt_hits += tt_hits;
        self.tt_cutoffs += tt_cutoffs;
        self.aspiration_researches += aspiration_researches;
        if self.iteration_nodes.len() < iteration_nodes.len() {
            self.iteration_nodes.resize(iteration_nodes.len(), 0);
        }
        for (t, n) in self.iteration_nodes.iter_mut().zip(iteration_nodes) {
            *t += n;
        }
    }
}

impl Stats {
    /// Cutoffs of `kind` that fired.
    pub fn cutoffs_of(&self, kind: Cutoff) -> u64 {
        self.by_kind[kind.index()]
    }

    /// `(kind, count)` for the kinds that occurred.
    pub fn cutoff_kinds(&self) -> Vec<(Cutoff, u64)> {
        Cutoff::ALL
            .iter()
            .map(|&k| (k, self.cutoffs_of(k)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

/// The statistics-only observer. Distinct leaves are kept in a bitset over the tree's nodes,
/// allocated at the first leaf that may have been seen before: a search that reports only
/// [`Observer::fresh_leaf`] and [`Observer::leaf_again`] (it knows which) never touches it.
#[derive(Clone, Debug)]
pub struct Counter {
    /// The statistics so far.
    pub stats: Stats,
    /// Words of the bitset of leaves evaluated, once allocated.
    words: usize,
    seen: Vec<u64>,
    /// Node visits when each iteration of iterative deepening began.
    iterations: Vec<u64>,
}

impl Counter {
    /// A counter for a tree of `nodes` nodes (the size of its bitset of leaves seen, if needed;
    /// it grows for a node beyond them, as a lazy tree's are).
    pub fn new(nodes: usize) -> Self {
        Counter {
            stats: Stats::default(),
            words: nodes.div_ceil(64),
            seen: Vec::new(),
            iterations: Vec::new(),
        }
    }

    /// The statistics, with the node visits summed.
    pub fn finish(mut self) -> Stats {
        let nodes = self.stats.interior + self.stats.leaves;
        self.stats.nodes = nodes;
        // Each iteration ends where the next begins, the last at the end of the search.
        let ends = self.iterations.iter().skip(1).chain([&nodes]);
        self.stats.iteration_nodes = self
            .iterations
            .iter()
            .zip(ends)
            .map(|(s, e)| e - s)
            .collect();
        self.stats
    }

    /// Marks `node` seen; whether it was not before.
    #[inline]
    fn mark(&mut self, node: NodeId) -> bool {
        let (w, b) = (node.index() / 64, node.index() % 64);
        if w >= self.seen.len() {
            self.allocate(w);
        }
        let word = &mut self.seen[w];
        let new = *word >> b & 1 == 0;
        *word |= 1 << b;
        new
    }

    /// Makes room for word `w`: the whole tree's bitset at once, or (a lazy tree, which grows
    /// while it is searched) doubling.
    #[cold]
    fn allocate(&mut self, w: usize) {
        let len = self.words.max(w + 1).max(2 * self.seen.len());
        self.seen.resize(len, 0);
    }
}

impl Observer for Counter {
    #[inline]
    fn enter(&mut self, _: NodeId, _: f64, _: f64) {
        self.stats.interior += 1;
    }

    #[inline]
    fn leaf(&mut self, node: NodeId, _: f64) {
        self.stats.leaves += 1;
        self.stats.distinct_leaves += u64::from(self.mark(node));
    }

    #[inline]
    fn fresh_leaf(&mut self, node: NodeId, _: f64) {
        self.stats.leaves += 1;
        self.stats.distinct_leaves += 1;
        // The search's promise, checked in debug builds (the tests).
        if cfg!(debug_assertions) {
            assert!(self.mark(node), "leaf {node} reported fresh twice");
        }
    }

    #[inline]
    fn leaf_again(&mut self, node: NodeId, _: f64) {
        self.stats.leaves += 1;
        if cfg!(debug_assertions) {
            assert!(
                !self.mark(node),
                "leaf {node} reported again before it was once"
            );
        }
    }

    #[inline]
    fn probe(&mut self, _: NodeId) {
        self.stats.probes += 1;
    }

    #[inline]
    fn research(&mut self, _: NodeId, _: f64, _: f64) {
        self.stats.researches += 1;
    }

    #[inline]
    fn cutoff(&mut self, _: NodeId, _: u32, skipped: u32, kind: Cutoff) {
        self.stats.cutoffs += 1;
        self.stats.pruned_children += u64::from(skipped);
        self.stats.by_kind[kind.index()] += 1;
        if kind == Cutoff::Probe {
            self.stats.probe_cutoffs += 1;
        }
    }

    #[inline]
    fn fallback(&mut self, _: NodeId) {
        self.stats.fallbacks += 1;
    }

    #[inline]
    fn tt_probe(&mut self, _: NodeId) {
        self.stats.tt_probes += 1;
    }

    #[inline]
    fn tt_hit(&mut self, _: NodeId, _: f64, _: Bound, cut: bool) {
        self.stats.tt_hits += 1;
        self.stats.tt_cutoffs += u64::from(cut);
    }

    fn iteration(&mut self, _: u32) {
        self.iterations
            .push(self.stats.interior + self.stats.leaves);
    }

    fn aspiration_fail(&mut self, _: NodeId) {
        self.stats.aspiration_researches += 1;
    }
}

/// Observes nothing: for references and tests where only the value matters.
pub struct Quiet;

impl Observer for Quiet {}

/// What a search running on one thread shares with a display on another: the nodes visited so
/// far, and a request to stop.
#[derive(Debug, Default)]
pub struct Control {
    /// Nodes visited so far, published every 2^16 visits.
    pub visits: std::sync::atomic::AtomicU64,
    /// Set by the display to stop the search.
    pub cancel: std::sync::atomic::AtomicBool,
}

/// The payload a cancelled search unwinds with (through `std::panic::resume_unwind`, which runs
/// no panic hook): whoever started the search catches it with `catch_unwind`.
#[derive(Debug)]
pub struct Cancelled;

/// Where a [`Progress`] observer tells how far the search has come.
pub trait Publish {
    /// `visits` nodes visited so far (called every 2^16 visits).
    fn publish(&mut self, visits: u64);
    /// An iteration of iterative deepening to `depth` begins.
    fn iteration(&mut self, _depth: u32) {}
}

/// Publishes to a display on another thread: the count in an atomic word, and a request to stop
/// honoured by unwinding with [`Cancelled`].
pub struct ToThread<'a> {
    visits: &'a std::sync::atomic::AtomicU64,
    cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Publish for ToThread<'_> {
    fn publish(&mut self, visits: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.visits.store(visits, Relaxed);
        if self.cancel.is_some_and(|c| c.load(Relaxed)) {
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }
}

/// Passes every event on to `inner` and publishes the number of nodes visited so far every
/// 2^16 visits to `P`: for a progress display on another thread, which may stop the search
/// ([`ToThread`]), or to whatever else reports progress.
pub struct Progress<O, P> {
    /// The observer every event is passed on to.
    pub inner: O,
    visits: u64,
    to: P,
}

impl<'a, O: Observer> Progress<O, ToThread<'a>> {
    /// `inner`, publishing its visits in `shared`.
    pub fn new(inner: O, shared: &'a std::sync::atomic::AtomicU64) -> Self {
        Progress::publishing(
            inner,
            ToThread {
                visits: shared,
                cancel: None,
            },
        )
    }

    /// A progress observer that also stops when `control.cancel` is set.
    pub fn with_control(inner: O, control: &'a Control) -> Self {
        Progress::publishing(
            inner,
            ToThread {
                visits: &control.visits,
                cancel: Some(&control.cancel),
            },
        )
    }
}

impl<O: Observer, P: Publish> Progress<O, P> {
    /// `inner`, publishing its visits to `to`.
    pub fn publishing(inner: O, to: P) -> Self {
        Progress {
            inner,
            visits: 0,
            to,
        }
    }

    #[inline]
    fn tick(&mut self) {
        self.visits += 1;
        if self.visits & 0xffff == 0 {
            self.publish();
        }
    }

    #[cold]
    fn publish(&mut self) {
        self.to.publish(self.visits);
    }
}

impl<O: Observer, P: Publish> Observer for Progress<O, P> {
    #[inline]
    fn enter(&mut self, node: NodeId, alpha: f64, beta: f64) {
        self.tick();
        self.inner.enter(node, alpha, beta);
    }
    #[inline]
    fn leaf(&mut self, node: NodeId, value: f64) {
        self.tick();
        self.inner.leaf(node, value);
    }
    #[inline]
    fn fresh_leaf(&mut self, node: NodeId, value: f64) {
        self.tick();
        self.inner.fresh_leaf(node, value);
    }
    #[inline]
    fn leaf_again(&mut self, node: NodeId, value: f64) {
        self.tick();
        self.inner.leaf_again(node, value);
    }
    #[inline]
    fn chance_bounds(&mut self, child: NodeId, a: f64, b: f64) {
        self.inner.chance_bounds(child, a, b);
    }
    #[inline]
    fn probe(&mut self, child: NodeId) {
        self.inner.probe(child);
    }
    #[inline]
    fn research(&mut self, node: NodeId, alpha: f64, beta: f64) {
        self.inner.research(node, alpha, beta);
    }
    #[inline]
    fn cutoff(&mut self, node: NodeId, after: u32, skipped: u32, kind: Cutoff) {
        self.inner.cutoff(node, after, skipped, kind);
    }
    #[inline]
    fn cutoff_ranked(&mut self, node: NodeId, child: u32, rank: u32, skipped: u32, kind: Cutoff) {
        self.inner.cutoff_ranked(node, child, rank, skipped, kind);
    }
    #[inline]
    fn exit(&mut self, node: NodeId, value: f64, bound: Bound) {
        self.inner.exit(node, value, bound);
    }
    #[inline]
    fn exit_vector(&mut self, node: NodeId, value: &[f64], bound: Bound) {
        self.inner.exit_vector(node, value, bound);
    }
    #[inline]
    fn fallback(&mut self, node: NodeId) {
        self.inner.fallback(node);
    }
    #[inline]
    fn tt_probe(&mut self, node: NodeId) {
        self.inner.tt_probe(node);
    }
    #[inline]
    fn tt_hit(&mut self, node: NodeId, value: f64, bound: Bound, cut: bool) {
        self.inner.tt_hit(node, value, bound, cut);
    }
    #[inline]
    fn iteration(&mut self, depth: u32) {
        self.to.iteration(depth);
        self.inner.iteration(depth);
    }
    #[inline]
    fn aspiration_fail(&mut self, node: NodeId) {
        self.inner.aspiration_fail(node);
    }
}
