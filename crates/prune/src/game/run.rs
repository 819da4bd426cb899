//! Every algorithm on a game searched from its rules (the lazy arena, `Lazy`): which ones apply, and a
//! run's result — the value, the statistics, the nodes generated and the move chosen.
//!
//! A lazy search needs a horizon (`--depth D`), since it cannot look at the game's leaves
//! before it starts: positions D moves from the start are valued by the game's heuristic, and
//! a game without one must be over by then (refused before the search when the game says how
//! long its games last, [`super::Game::longest`], and the horizon falls short of it). A horizon
//! beyond the game's longest is the longest: the search solves the game. What a stored tree's search learns from
//! its leaves — bounds, integer values — a game declares ([`super::Game::meta`]'s bounds,
//! [`super::Game::integral`]), and the lazy tree checks the declarations as it goes.

use std::fmt;
use std::time::Instant;

use super::{Game, GameError, Lazy};

mod lockless;
mod walk;
use crate::search::run::dispatch;
use crate::search::{
    Algorithm, Bound, Counter, Family, Found, Observer, Progress, Stats, Value, sss,
};
use crate::tree::{Kind, NodeId, Nodes};
pub(crate) use walk::Prover;
pub use walk::{Report, parallel, walks};

/// One algorithm's search of a game.
#[derive(Clone, Debug)]
pub struct GameRun {
    /// The algorithm and its parameters.
    pub algorithm: Algorithm,
    /// The root's value, as the search returned it.
    pub value: Value,
    /// Whether the value is exact or a bound.
    pub bound: Bound,
    /// The search's statistics.
    pub stats: Stats,
    /// The positions the search generated. On the lazy tree, the nodes it holds: those the
    /// search entered or evaluated, and their siblings. Walked ([`walks`]), the positions made,
    /// one for each child visited (a position reached twice counts twice).
    pub generated: usize,
    /// The root move the search's value came from (its position and label), when the root is
    /// a decision and a root child returned the root's value exactly.
    pub best: Option<(usize, String)>,
    /// The search alone.
    pub seconds: f64,
}

/// Why a game cannot be searched by an algorithm, or what went wrong in the search.
#[derive(Debug, Clone, PartialEq)]
pub enum GameRunError {
    /// The algorithm does not apply to this game (or to a game searched lazily).
    Refused(String),
    /// The game's rules broke a promise (checked as the nodes were generated).
    Game(GameError),
}

impl fmt::Display for GameRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameRunError::Refused(why) => f.write_str(why),
            GameRunError::Game(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GameRunError {}

impl From<GameError> for GameRunError {
    fn from(e: GameError) -> Self {
        GameRunError::Game(e)
    }
}

/// The horizon of `algo` on a game searched to `depth` moves: `depth`, or the algorithm's own
/// depth limit when that is nearer (a search cut at d sees the game cut at d).
pub fn horizon(algo: &Algorithm, depth: u32) -> u32 {
    algo.improvements()
        .and_then(|w| w.depth)
        .map_or(depth, |d| d.min(depth))
}

/// Runs `algo` on `game` to `depth` moves, with statistics only: depth first over the
/// positions, keeping only the path and the table, for the algorithms [`walks`] names (the
/// module `walk`'s documentation says how it keeps the lazy tree's statistics); on the lazy
/// tree ([`run_lazy`]) for the others.
pub fn run<G: Game>(game: &G, algo: &Algorithm, depth: u32) -> Result<GameRun, GameRunError> {
    serial(game, algo, depth, TABLE_BYTES, 0.0, None)
}

/// [`run`], telling `report` how far the search has got about every `every` seconds: the depth
/// being searched, the nodes so far, and for a walked search with iterative deepening the best
/// move of the last depth finished. For a progress display.
pub fn run_reporting<G: Game>(
    game: &G,
    algo: &Algorithm,
    depth: u32,
    every: f64,
    report: &mut dyn FnMut(&Report),
) -> Result<GameRun, GameRunError> {
    serial(game, algo, depth, TABLE_BYTES, every, Some(report))
}

/// [`run`] on one thread, the walk's table taking at most `table_bytes`, with progress reports
/// to `report` if any (walked, or on the lazy tree).
fn serial<G: Game>(
    game: &G,
    algo: &Algorithm,
    depth: u32,
    table_bytes: u64,
    every: f64,
    mut report: Option<&mut dyn FnMut(&Report)>,
) -> Result<GameRun, GameRunError> {
    let lazy = prepare(game, algo, depth)?;
    let reporter = report
        .as_deref_mut()
        .map(|to| walk::Reporter::new(every, to));
    if let Some(run) = walk::run(game, &lazy, algo, table_bytes, reporter) {
        return Ok(run);
    }
    arena(lazy, algo, report.map(|to| walk::Reporter::new(every, to)))
}

/// The transposition table's size with `--threads`: 2^20 entries of 24 bytes (24 MB). A table
/// the search fills only in part still costs a page fault for each page it touches: 2^22 entries
/// made connect-four depth 12 and chess depth 6 (0.03–0.2 s searches) several times slower on 2
/// threads than on one (docs/PERFORMANCE.md, "Lazy SMP").
pub const SHARED_TABLE_BITS: u32 = 20;

/// The most memory a walked search's own table takes (one thread), unless told: 256 MB. It grows
/// as it fills, so a short search takes little (chess to depth 8 runs in 60 MB in
/// all, connect-four to depth 16 in 215 MB); a long one forgets its shallowest entries past it
/// ([`crate::search::tt::Table::with_memory`]).
pub const TABLE_BYTES: u64 = 256 << 20;

/// What a walked search of a game may use: threads, and its transposition table's memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resources {
    /// Threads: more than one search with Lazy SMP.
    pub threads: usize,
    /// The table's memory in bytes: on one thread the most it grows to ([`TABLE_BYTES`] when
    /// `None`), on more the table they share, allocated whole (the largest power of two of
    /// 24-byte entries that fits; 2^[`SHARED_TABLE_BITS`] when `None`).
    pub table_bytes: Option<u64>,
}

impl From<usize> for Resources {
    /// `threads` threads, the table's memory the default.
    fn from(threads: usize) -> Resources {
        Resources {
            threads,
            table_bytes: None,
        }
    }
}

impl Resources {
    /// The serial table's most memory.
    pub fn serial_bytes(&self) -> u64 {
        self.table_bytes.unwrap_or(TABLE_BYTES)
    }

    /// The shared table's size, as a power of two of its entries.
    fn shared_bits(&self) -> u32 {
        match self.table_bytes {
            Some(bytes) => (bytes / lockless::ENTRY_BYTES).max(2).ilog2(),
            None => SHARED_TABLE_BITS,
        }
    }
}

/// [`run`] (or with `report`, [`run_reporting`]'s progress every `every` seconds) on
/// `threads` threads: Lazy SMP (the module `walk`'s `run_parallel` says how and why its value
/// is the serial search's at fixed depth), the statistics summed over the threads. One thread
/// is the serial search; more are refused for an algorithm that is not [`parallel`].
pub fn run_threads<G: Game + Sync>(
    game: &G,
    algo: &Algorithm,
    depth: u32,
    resources: impl Into<Resources>,
    every: f64,
    report: Option<&mut dyn FnMut(&Report)>,
) -> Result<GameRun, GameRunError> {
    let resources = resources.into();
    let threads = resources.threads;
    if threads <= 1 {
        return serial(game, algo, depth, resources.serial_bytes(), every, report);
    }
    if !parallel(algo) {
        return Err(GameRunError::Refused(threads_refusal(algo)));
    }
    let mut report = report;
    let lazy = prepare(game, algo, depth)?;
    let reporter = report
        .as_deref_mut()
        .map(|to| walk::Reporter::new(every, to));
    let bits = resources.shared_bits();
    if let Some(run) = walk::run_parallel(game, &lazy, algo, threads, bits, reporter) {
        return Ok(run);
    }
    arena(lazy, algo, report.map(|to| walk::Reporter::new(every, to)))
}

/// Why `--threads` does not apply to `algo`.
pub fn threads_refusal(algo: &Algorithm) -> String {
    format!(
        "--threads searches with Lazy SMP, threads sharing a transposition table: it needs alphabeta, negascout or mtdf with --tt (searched depth first), not {}",
        algo.label()
    )
}

/// [`run`] on the lazy tree whatever the algorithm, as a recorded search runs: the same value,
/// statistics and best move as [`run`], with every node generated kept (`generated` counts
/// them).
pub fn run_lazy<G: Game>(game: &G, algo: &Algorithm, depth: u32) -> Result<GameRun, GameRunError> {
    arena(prepare(game, algo, depth)?, algo, None)
}

/// The search of `lazy` (prepared) by `algo`, with statistics only (and progress reports to
/// `reporter`).
fn arena<G: Game>(
    lazy: Lazy<'_, G>,
    algo: &Algorithm,
    reporter: Option<walk::Reporter<'_>>,
) -> Result<GameRun, GameRunError> {
    let reports = walk::Reports::new(reporter, lazy.depth());
    let progress = Progress::publishing(Counter::new(0), reports);
    let mut obs = RootChoice::new(progress, &lazy);
    let (found, seconds) = search(&lazy, algo, &mut obs)?;
    let best = obs.best(&lazy, &found);
    Ok(GameRun {
        algorithm: algo.clone(),
        value: found.value,
        bound: found.bound,
        stats: obs.inner.inner.finish(),
        generated: lazy.len(),
        best,
        seconds,
    })
}

/// The lazy tree `algo` searches `game` on, to `depth` moves, after the checks that need no
/// search.
pub(crate) fn prepare<'g, G: Game>(
    game: &'g G,
    algo: &Algorithm,
    depth: u32,
) -> Result<Lazy<'g, G>, GameRunError> {
    let lazy = Lazy::new(game, horizon(algo, depth))?;
    if let Some(why) = refusal(&lazy, algo) {
        return Err(why);
    }
    Ok(lazy)
}

/// Searches `lazy` with `algo`, reporting to `obs`; the result and the time of the search. A
/// rule the game broke during the search is the result instead.
pub(crate) fn search<G: Game, O: Observer>(
    lazy: &Lazy<'_, G>,
    algo: &Algorithm,
    obs: &mut O,
) -> Result<(Found, f64), GameRunError> {
    lazy.set_max_moves(matches!(algo.base(), Algorithm::Sss).then(|| sss_moves(lazy)));
    lazy.set_no_chance(
        matches!(algo.family(), Family::TwoPlayer | Family::Probabilistic)
            .then(|| no_chance(algo, lazy)),
    );
    let start = Instant::now();
    let found = dispatch(lazy, algo, obs);
    let seconds = start.elapsed().as_secs_f64();
    match lazy.error() {
        Some(e) => Err(e.into()),
        None => Ok((found, seconds)),
    }
}

/// The most moves SSS* lets a position of `lazy`'s game have (more is an error): the game's
/// own bound, else [`sss::LAZY_MOVES`].
fn sss_moves<G: Game>(lazy: &Lazy<'_, G>) -> u32 {
    lazy.most_moves().unwrap_or(sss::LAZY_MOVES)
}

/// Why `algo`, which has no rule for chance nodes, cannot search the game of `lazy` (at its
/// root, or wherever a chance position turns up during the search).
fn no_chance<G: Game>(algo: &Algorithm, lazy: &Lazy<'_, G>) -> String {
    format!(
        "{}: {} has chance positions; try expectiminimax, star1 or star2",
        algo.name(),
        lazy.meta().name
    )
}

/// Why `algo` cannot search the game of `lazy`, when that is known before the search.
pub(crate) fn refusal<G: Game>(lazy: &Lazy<'_, G>, algo: &Algorithm) -> Option<GameRunError> {
    let refuse = |why: String| Some(GameRunError::Refused(why));
    let name = algo.name();
    let players = lazy.players();
    let sss_width = sss::width(sss_moves(lazy));
    if let Some(with) = algo.improvements() {
        if with.aspiration.is_some() && !with.id {
            return refuse(format!(
                "{name}: an aspiration window needs iterative deepening (--id)"
            ));
        }
        if with.tt && lazy.key(lazy.root()).is_none() {
            return refuse(format!(
                "{name} --tt: {} has no position keys",
                lazy.meta().name
            ));
        }
        if with.id && lazy.heuristic(lazy.root()).is_none() && !lazy.is_leaf(lazy.root()) {
            return refuse(format!(
                "{name} --id: {} has no heuristic value for the shallower iterations to stop at",
                lazy.meta().name
            ));
        }
    }
    if let Some(why) = short_of_the_end(lazy) {
        return refuse(why);
    }
    let base = algo.base();
    let chance = lazy.kind(lazy.root()) == Kind::Chance;
    match base.family() {
        Family::TwoPlayer | Family::Chance if players > 2 => refuse(format!(
            "{name} searches two-player games; {} has {players} players (try maxn, maxn-shallow or paranoid)",
            lazy.meta().name
        )),
        Family::Probabilistic => refuse(format!(
            "{name} on a game searched from its rules is not built yet: write the tree out with `prune gen game` and search that"
        )),
        Family::TwoPlayer if chance => refuse(no_chance(algo, lazy)),
        _ => match base {
            Algorithm::Star1 { .. } | Algorithm::Star2 { .. } if !lazy.value_bounds().declared => {
                refuse(format!(
                    "{name} needs bounds on every value (Ballard's L and U); {} declares none",
                    lazy.meta().name
                ))
            }
            Algorithm::Sss if u64::from(lazy.depth()) * u64::from(sss_width) > 64 => {
                let (moves, width) = (sss_moves(lazy), sss_width);
                refuse(format!(
                    "sss on {} searches at most {} plies (it numbers a position's up to {moves} moves in {width} bits, a path in 64)",
                    lazy.meta().name,
                    64 / width,
                ))
            }
            Algorithm::Paranoid { player } if usize::from(*player) >= players => refuse(format!(
                "paranoid: no player {} in a game of {players} players",
                u32::from(*player) + 1
            )),
            Algorithm::Star2 { probes: 0, .. } => refuse("star2 needs at least one probe".into()),
            _ => None,
        },
    }
}

/// Why the horizon of `lazy` cannot be, when its game has no heuristic value to stop at and
/// some of its games last longer ([`Game::longest`]); a game that does not say how long its
/// games last is stopped by the first position it leaves unfinished at the horizon.
pub(crate) fn short_of_the_end<G: Game>(lazy: &Lazy<'_, G>) -> Option<String> {
    let root = lazy.root();
    let longest = lazy.longest()?;
    if lazy.is_leaf(root) || lazy.heuristic(root).is_some() || lazy.depth() >= longest {
        return None;
    }
    Some(format!(
        "{} has no heuristic value to stop at a depth limit, and its games last up to {longest} moves: search it to the end ({longest} moves deep or more; `prune run` without --depth), not {}",
        lazy.meta().name,
        lazy.depth()
    ))
}

/// An observer that passes every event on, and remembers the last exact value each root
/// child returned (values are the root's view, as every observer sees them), to name the move
/// the root's value came from.
pub struct RootChoice<O> {
    /// The observer it passes events to.
    pub inner: O,
    /// The root's children are ids `1..=moves` (the root is expanded first).
    moves: u32,
    /// Each root child's greatest lower bound and least upper bound returned (an exact value
    /// is both) in the current iteration.
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl<O> RootChoice<O> {
    /// Wraps `inner`, for the root of `tree` (expanded now: its children are numbered first).
    pub fn new<T: Nodes>(inner: O, tree: &T) -> Self {
        let root = tree.root();
        let moves = if tree.is_leaf(root) {
            0
        } else {
            tree.child_count(root) as u32
        };
        debug_assert!(moves == 0 || tree.child(root, 0) == NodeId(1));
        RootChoice {
            inner,
            moves,
            lower: vec![f64::NEG_INFINITY; moves as usize],
            upper: vec![f64::INFINITY; moves as usize],
        }
    }

    #[inline]
    fn note(&mut self, node: NodeId, value: f64, bound: Bound) {
        if (1..=self.moves).contains(&node.0) {
            let i = node.0 as usize - 1;
            if bound != Bound::Upper {
                self.lower[i] = self.lower[i].max(value);
            }
            if bound != Bound::Lower {
                self.upper[i] = self.upper[i].min(value);
            }
        }
    }

    /// The first root move proved worth the root's exact value: at a Max root a move whose
    /// lower bound reached it (no move is worth more, so that one is worth exactly that), at a
    /// Min root one whose upper bound did. An exact value is both bounds; MTD(f)'s null
    /// windows return only bounds, in different passes.
    fn best<G: Game>(&self, lazy: &Lazy<'_, G>, found: &Found) -> Option<(usize, String)> {
        let v = found
            .value
            .scalar()
            .filter(|_| found.bound == Bound::Exact)?;
        let i = match lazy.kind(lazy.root()) {
            Kind::Max => self.lower.iter().position(|&x| x == v)?,
            Kind::Min => self.upper.iter().position(|&x| x == v)?,
            _ => return None,
        };
        Some((i, lazy.label(NodeId(1 + i as u32))?))
    }
}

impl<O: Observer> Observer for RootChoice<O> {
    fn enter(&mut self, node: NodeId, alpha: f64, beta: f64) {
        self.inner.enter(node, alpha, beta)
    }
    fn leaf(&mut self, node: NodeId, value: f64) {
        self.note(node, value, Bound::Exact);
        self.inner.leaf(node, value)
    }
    fn fresh_leaf(&mut self, node: NodeId, value: f64) {
        self.note(node, value, Bound::Exact);
        self.inner.fresh_leaf(node, value)
    }
    fn leaf_again(&mut self, node: NodeId, value: f64) {
        self.note(node, value, Bound::Exact);
        self.inner.leaf_again(node, value)
    }
    fn chance_bounds(&mut self, child: NodeId, a: f64, b: f64) {
        self.inner.chance_bounds(child, a, b)
    }
    fn probe(&mut self, child: NodeId) {
        self.inner.probe(child)
    }
    fn research(&mut self, node: NodeId, alpha: f64, beta: f64) {
        self.inner.research(node, alpha, beta)
    }
    fn cutoff(&mut self, node: NodeId, after: u32, skipped: u32, kind: crate::search::Cutoff) {
        self.inner.cutoff(node, after, skipped, kind)
    }
    fn cutoff_ranked(
        &mut self,
        node: NodeId,
        child: u32,
        rank: u32,
        skipped: u32,
        kind: crate::search::Cutoff,
    ) {
        self.inner.cutoff_ranked(node, child, rank, skipped, kind)
    }
    fn exit(&mut self, node: NodeId, value: f64, bound: Bound) {
        self.note(node, value, bound);
        self.inner.exit(node, value, bound)
    }
    fn exit_vector(&mut self, node: NodeId, value: &[f64], bound: Bound) {
        self.inner.exit_vector(node, value, bound)
    }
    fn fallback(&mut self, node: NodeId) {
        self.inner.fallback(node)
    }
    fn tt_probe(&mut self, node: NodeId) {
        self.inner.tt_probe(node)
    }
    fn tt_hit(&mut self, node: NodeId, value: f64, bound: Bound, cut: bool) {
        if cut {
            self.note(node, value, bound);
        }
        self.inner.tt_hit(node, value, bound, cut)
    }
    fn iteration(&mut self, depth: u32) {
        // Only the last iteration's values name the move.
        self.lower.fill(f64::NEG_INFINITY);
        self.upper.fill(f64::INFINITY);
        self.inner.iteration(depth)
    }
    fn aspiration_fail(&mut self, node: NodeId) {
        self.inner.aspiration_fail(node)
    }
}

/// Searches of one game, recorded on one lazy tree, and the searched tree they share.
pub struct Recorded {
    /// Every node any of the searches generated (`Lazy::searched_tree`): the runs' node ids
    /// are its own.
    pub tree: crate::tree::Tree,
    /// Each algorithm's run and trace, or why it could not search the game.
    pub runs: Vec<(Algorithm, Result<RunTrace, String>)>,
}

/// A recorded run and its trace.
pub type RunTrace = (crate::search::Run, crate::trace::Trace);

/// Searches `game` to `depth` with each of `algos` in turn, every event recorded, on one lazy
/// tree: each search generates what it needs and finds what the ones before it generated
/// (nodes have one id however many searches reach them), and the tree they searched together
/// is frozen at the end. An algorithm that cannot search the game gets its reason; a rule the
/// game breaks ends the whole recording.
pub fn record<G: Game>(
    game: &G,
    algos: &[Algorithm],
    depth: u32,
) -> Result<Recorded, GameRunError> {
    record_reporting(game, algos, depth, f64::INFINITY, &mut |_, _| ())
}

/// [`record`], telling `report` how far each search has got (the algorithm, and as
/// [`run_reporting`] tells it) about every `every` seconds. For a progress display.
pub fn record_reporting<G: Game>(
    game: &G,
    algos: &[Algorithm],
    depth: u32,
    every: f64,
    report: &mut dyn FnMut(&Algorithm, &Report),
) -> Result<Recorded, GameRunError> {
    let lazy = Lazy::new(game, depth)?;
    let mut runs = Vec::new();
    for algo in algos {
        if horizon(algo, depth) != depth {
            let why = format!(
                "{}: its own depth limit differs from the game's --depth {depth}",
                algo.label()
            );
            runs.push((algo.clone(), Err(why)));
            continue;
        }
        if let Some(why) = refusal(&lazy, algo) {
            runs.push((algo.clone(), Err(why.to_string())));
            continue;
        }
        let mut tell = |r: &Report| report(algo, r);
        let reporter = walk::Reporter::new(every, &mut tell);
        let progress = Progress::publishing(
            crate::trace::Recorder::new(0),
            walk::Reports::new(Some(reporter), lazy.depth()),
        );
        let mut obs = RootChoice::new(progress, &lazy);
        let (found, seconds) = search(&lazy, algo, &mut obs)?;
        let best = obs.best(&lazy, &found);
        let (trace, stats) = obs.inner.inner.finish();
        let run = crate::search::Run {
            algorithm: algo.clone(),
            best_moves: best.iter().map(|(i, _)| *i).collect(),
            pv: principal(&trace, best.as_ref().map(|(i, _)| *i)),
            value: found.value,
            bound: found.bound,
            stats,
            seconds,
        };
        runs.push((algo.clone(), Ok((run, trace))));
    }
    let names: Vec<String> = runs
        .iter()
        .filter(|(_, r)| r.is_ok())
        .map(|(a, _)| a.label())
        .collect();
    let searches = match names.len() {
        0 => "No search".to_string(),
        1 => format!("The search of {}", names[0]),
        _ => format!("The searches of {}", names.join(", ")),
    };
    let tree = lazy.searched_tree(&searches)?;
    Ok(Recorded { tree, runs })
}

/// The principal variation a recorded search found: from the root its move `best`, then at
/// each node the first child whose last exact value (in the last iteration) is the node's own
/// last exact value, down to a node where none is (a leaf, a node cut off, a chance node's
/// mean). Values are the root's view, as the trace records them.
pub fn principal(trace: &crate::trace::Trace, best: Option<usize>) -> Vec<NodeId> {
    use crate::trace::EventView;
    use std::collections::HashMap;
    let mut exact: HashMap<NodeId, f64> = HashMap::new();
    // A node's children, in the order their exact values came.
    let mut children: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
    let mut stack: Vec<NodeId> = Vec::new();
    for e in trace.events() {
        match e.view() {
            EventView::Iteration { .. } => {
                exact.clear();
                children.clear();
                stack.clear();
            }
            EventView::Enter { node, .. } => stack.push(node),
            EventView::Leaf { node, value } => {
                if let Some(&p) = stack.last() {
                    children.entry(p).or_default().push(node);
                }
                exact.insert(node, value);
            }
            EventView::Exit { node, value, bound } => {
                stack.pop();
                if let Some(&p) = stack.last() {
                    children.entry(p).or_default().push(node);
                }
                if bound == Bound::Exact {
                    exact.insert(node, value);
                } else {
                    exact.remove(&node);
                }
            }
            _ => {}
        }
    }
    let root = NodeId::ROOT;
    let mut pv = vec![root];
    let Some(first) = best else {
        return pv;
    };
    let mut node = NodeId(1 + first as u32);
    loop {
        pv.push(node);
        let Some(&v) = exact.get(&node) else { break };
        let next = children
            .get(&node)
            .and_then(|cs| cs.iter().find(|c| exact.get(c) == Some(&v)).copied());
        match next {
            Some(c) if !pv.contains(&c) => node = c,
            _ => break,
        }
    }
    pv
}

#[cfg(test)]
mod tests;
