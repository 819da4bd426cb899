//! A game searched depth first over its positions, keeping only the path: the second way of
//! [`super::run`], taken whenever nothing records the searched tree.
//!
//! The lazy tree ([`super::Lazy`]) keeps every node a search generates, so that a trace, a
//! picture or the explorer can show the tree afterwards; its memory grows with the search. A
//! run that only reports a value, statistics and a move needs none of that: this walk plays
//! each move on a copy of its parent's position (copy-make, [`Game::play`]), classifies the
//! position as the lazy tree would (over, at the horizon, or whose turn), and searches it with
//! the algorithm's own steps — the same children in the same order, the same windows, the same
//! transposition-table policy ([`crate::search::tt`]), killers and history — so that it returns
//! the same value, statistics and best move as the search of the lazy tree. Memory is the path
//! (a position and a move list a ply), the table when the search has one, and, for searches
//! that may evaluate a leaf twice, the set of leaves evaluated (below).
//!
//! Algorithms walked: minimax, alpha-beta (fail-hard and fail-soft), NegaScout and NS^αβ, and
//! alpha-beta, NegaScout and MTD(f) with a transposition table, iterative deepening, aspiration
//! windows, killers and history ([`crate::search::improvements`]) — except the two whose memory
//! is node-keyed by definition: plain MTD(f) (its memory holds a bound pair for every node
//! searched) and iterative deepening without a table (it remembers every node's best move).
//! Those, and every other algorithm, search the lazy tree.
//!
//! **Distinct leaves.** The statistics count the different leaves evaluated
//! (`distinct_leaves`), which the lazy tree tells by node. A search that evaluates no leaf twice
//! needs no memory for it: minimax, alpha-beta, and alpha-beta with any improvement but
//! iterative deepening and aspiration windows. With iterative deepening, a position cut at one
//! iteration's horizon is searched deeper at the next, so only the leaves where the game is over
//! can be evaluated again: the walk remembers those. NegaScout's re-searches, MTD(f)'s passes
//! and aspiration re-searches evaluate any leaf again: the walk remembers every leaf evaluated,
//! by its path (the moves' positions among their siblings, packed 8 bits a move for the first 16
//! moves: exact; beyond, or past 255 moves, a 128-bit hash of the path), 16 bytes a leaf.
//!
//! **Rules broken.** A walk that meets a broken rule (a position that is not over without
//! moves, a value that breaks the game's declarations, a chance position for an algorithm
//! without a rule for one) stops, and the run searches the lazy tree instead, which reports the
//! error as it always has. A walk generates only the children it visits, so it checks the
//! heuristic values it uses, not those of every position it could have reached.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::lockless::{Shared, Tt};
use super::{GameRun, RootChoice};
use crate::game::{Game, Lazy, Outcome, Turn};
use crate::hash::{FastSet, GOLDEN_GAMMA, mix64};
use crate::search::history::History;
use crate::search::killers::Killers;
use crate::search::negamax::{cut_kind, enter, exit, root_bound, sign};
use crate::search::tt::{Entry, Table, answer};
use crate::search::{
    Algorithm, Bound, Cutoff, Found, Improvements, Observer, Publish, Quiet, Stats, aspiration,
    iterative, mtdf,
};
use crate::tree::{Kind, NodeId, Nodes};

/// Whether `algo` is searched by the walk rather than on the lazy tree (when nothing records).
pub fn walks(algo: &Algorithm) -> bool {
    plan(algo).is_some()
}

/// What the walk does for `algo`, if it walks it.
fn plan(algo: &Algorithm) -> Option<Plan<'_>> {
    match algo {
        Algorithm::Minimax => Some(Plan::Plain(Fun::Minimax)),
        Algorithm::AlphaBeta { fail_soft: false } => Some(Plan::Plain(Fun::Hard)),
        Algorithm::AlphaBeta { fail_soft: true } => Some(Plan::Plain(Fun::Soft)),
        Algorithm::NegaScout => Some(Plan::Plain(Fun::Ns { re_self: true })),
        Algorithm::NegaScoutAb => Some(Plan::Plain(Fun::Ns { re_self: false })),
        Algorithm::Improved { base, with } if !with.reorders() => plan(base),
        Algorithm::Improved { base, with } => match **base {
            Algorithm::AlphaBeta { .. } | Algorithm::NegaScout | Algorithm::Mtdf { .. }
                if with.tt || !with.id =>
            {
                Some(Plan::Improved(base, with))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A walked algorithm: a plain search, or the improved one with its base and improvements.
enum Plan<'a> {
    Plain(Fun),
    Improved(&'a Algorithm, &'a Improvements),
}

/// The plain searches' node functions.
#[derive(Copy, Clone, PartialEq)]
enum Fun {
    Minimax,
    /// Knuth & Moore's F2.
    Hard,
    /// Schaeffer's fail-soft alpha-beta.
    Soft,
    /// Reinefeld & Marsland's NegaScout; its re-search a self-call (NS) or F2 (NS^αβ).
    Ns {
        re_self: bool,
    },
}

/// Which leaves the walk remembers, to tell a leaf's first evaluation from the others.
#[derive(Copy, Clone, PartialEq)]
enum Remember {
    /// None: the search evaluates no leaf twice.
    Nothing,
    /// Leaves where the game is over (iterative deepening evaluates them at every iteration).
    Over,
    /// Every leaf.
    All,
}

/// A position's place in the searched tree, as the lazy tree classifies it.
#[derive(Copy, Clone)]
enum Class {
    /// A leaf: the game is over there (`over`), or it is at the horizon (valued by the heuristic).
    Leaf { value: f64, over: bool },
    /// A decision of Max or Min.
    Inner(Kind),
}

/// The id the walk reports a node by: the root and its children have the lazy tree's ids (the
/// root is expanded first, so its children are 1, 2, …: what [`RootChoice`] watches); deeper
/// nodes have none of their own.
const DEEP: NodeId = NodeId(u32::MAX);

#[inline]
fn child_id(ply: u32, i: usize) -> NodeId {
    if ply == 0 { NodeId(1 + i as u32) } else { DEEP }
}

/// The path code of the child `i` of a node at `ply` whose code is `code`: the moves' positions
/// among their siblings plus one, 8 bits each, while they fit (exact); beyond, a hash.
#[inline]
fn step(code: u128, ply: u32, i: usize) -> u128 {
    if ply < 16 && i < 255 {
        code | ((i as u128 + 1) << (8 * ply))
    } else {
        let (hi, lo) = ((code >> 64) as u64, code as u64);
        let x = (i as u64) << 32 | u64::from(ply);
        let lo2 = mix64(lo ^ mix64(x.wrapping_add(GOLDEN_GAMMA)) ^ hi.rotate_left(17));
        let hi2 = mix64(hi ^ mix64(x ^ 0x5851_F42D_4C95_7F2D) ^ lo.rotate_left(29));
        (u128::from(hi2) << 64 | u128::from(lo2)) | 1 << 127
    }
}

/// What a walk tells its caller while it runs ([`super::run_reporting`]): about every 2^16
/// nodes, at most every `every` seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The depth being searched: the iteration's, or the horizon without iterative deepening.
    pub depth: u32,
    /// Nodes visited so far (`stats.nodes`' convention); with Lazy SMP, every thread's (the
    /// helpers' to their last 2^16).
    pub nodes: u64,
    /// Seconds since the search began.
    pub seconds: f64,
    /// The best root move of the last iteration finished (iterative deepening), if any yet.
    pub best: Option<String>,
}

/// A walk's place among Lazy SMP's threads, for the progress count: alone, or the main thread
/// reading what the helpers have visited, or a helper adding to it.
pub(super) enum Pool {
    Alone,
    Main(Arc<AtomicU64>),
    Helper(Arc<AtomicU64>),
}

/// Where a search's progress reports go, and how often.
pub(super) struct Reporter<'r> {
    every: f64,
    to: &'r mut dyn FnMut(&Report),
    /// When the last report went out, in seconds from the start.
    last: f64,
}

impl<'r> Reporter<'r> {
    /// Reports to `to`, at most every `every` seconds.
    pub(super) fn new(every: f64, to: &'r mut dyn FnMut(&Report)) -> Self {
        Reporter {
            every,
            to,
            last: 0.0,
        }
    }

    /// Whether a report `seconds` into the search is due; if so, the next is `every` later.
    pub(super) fn due(&mut self, seconds: f64) -> bool {
        let due = seconds - self.last >= self.every;
        if due {
            self.last = seconds;
        }
        due
    }

    pub(super) fn tell(&mut self, report: &Report) {
        (self.to)(report)
    }
}

/// A search's progress, published every 2^16 visits ([`Publish`]): a walk's, which its
/// [`Tally`] publishes, or a search of the lazy tree's, through [`crate::search::Progress`].
/// Each publication goes to the reporter when one is due: the depth of the iteration (or the
/// horizon), the nodes so far (a Lazy SMP main thread's with its helpers'), and the best root
/// move of the last iteration a walk finished. A helper publishes to its pool's count instead.
pub(super) struct Reports<'r> {
    reporter: Option<Reporter<'r>>,
    start: Instant,
    depth: u32,
    best: Option<String>,
    pool: Pool,
}

impl<'r> Reports<'r> {
    /// Reports to `reporter` (none: publishing does nothing), searching to `depth`.
    pub(super) fn new(reporter: Option<Reporter<'r>>, depth: u32) -> Self {
        Reports {
            reporter,
            start: Instant::now(),
            depth,
            best: None,
            pool: Pool::Alone,
        }
    }

    /// The reports of one of Lazy SMP's threads.
    fn in_pool(mut self, pool: Pool) -> Self {
        self.pool = pool;
        self
    }

    /// Whether a publication does anything: there is a reporter, or a helper's count to add.
    #[inline]
    fn active(&self) -> bool {
        self.reporter.is_some() || matches!(self.pool, Pool::Helper(_))
    }
}

impl Publish for Reports<'_> {
    #[cold]
    fn publish(&mut self, visits: u64) {
        let others = match &self.pool {
            Pool::Alone => 0,
            Pool::Main(helpers) => helpers.load(Ordering::Relaxed),
            Pool::Helper(helpers) => {
                helpers.fetch_add(0x10000, Ordering::Relaxed);
                return;
            }
        };
        let seconds = self.start.elapsed().as_secs_f64();
        let Some(r) = &mut self.reporter else { return };
        if r.due(seconds) {
            r.tell(&Report {
                depth: self.depth,
                nodes: visits + others,
                seconds,
                best: self.best.clone(),
            });
        }
    }

    fn iteration(&mut self, depth: u32) {
        self.depth = depth;
    }
}

/// `moves` by decreasing history score, equal scores keeping their order: [`History::order`]'s
/// stable sort, by insertion (a position's moves are few), without the buffer a stable sort
/// of more than 20 elements allocates.
fn by_history(h: &History, max: bool, moves: &mut [u32]) {
    for i in 1..moves.len() {
        let m = moves[i];
        let score = h.score(max, m);
        let mut j = i;
        while j > 0 && h.score(max, moves[j - 1]) < score {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = m;
    }
}

/// The statistics of a walk, counted as [`crate::search::Counter`] counts them; leaves are
/// reported as fresh or again by the walk, which knows which. Every 2^16 visits it publishes
/// them to its [`Reports`].
pub(super) struct Tally<'r> {
    stats: Stats,
    iterations: Vec<u64>,
    reports: Reports<'r>,
}

impl<'r> Tally<'r> {
    fn new(reports: Reports<'r>) -> Self {
        Tally {
            stats: Stats::default(),
            iterations: Vec::new(),
            reports,
        }
    }

    fn finish(mut self) -> Stats {
        let nodes = self.stats.interior + self.stats.leaves;
        self.stats.nodes = nodes;
        let ends = self.iterations.iter().skip(1).chain([&nodes]);
        self.stats.iteration_nodes = self
            .iterations
            .iter()
            .zip(ends)
            .map(|(s, e)| e - s)
            .collect();
        self.stats
    }

    /// Node visits so far.
    #[inline]
    fn visits(&self) -> u64 {
        self.stats.interior + self.stats.leaves
    }

    /// After a visit: every 2^16 visits, the count published.
    #[inline]
    fn tick(&mut self) {
        if self.visits() & 0xffff == 0 && self.reports.active() {
            self.reports.publish(self.visits());
        }
    }
}

impl Observer for Tally<'_> {
    #[inline]
    fn enter(&mut self, _: NodeId, _: f64, _: f64) {
        self.stats.interior += 1;
        self.tick();
    }
    #[inline]
    fn leaf(&mut self, _: NodeId, _: f64) {
        // The walk reports every leaf as fresh or again.
        self.stats.leaves += 1;
        self.tick();
    }
    #[inline]
    fn fresh_leaf(&mut self, _: NodeId, _: f64) {
        self.stats.leaves += 1;
        self.stats.distinct_leaves += 1;
        self.tick();
    }
    #[inline]
    fn leaf_again(&mut self, _: NodeId, _: f64) {
        self.stats.leaves += 1;
        self.tick();
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
    fn iteration(&mut self, depth: u32) {
        self.iterations.push(self.visits());
        self.reports.iteration(depth);
    }
    fn aspiration_fail(&mut self, _: NodeId) {
        self.stats.aspiration_researches += 1;
    }
}

/// Runs `algo` on the game of `lazy` (prepared: refusals checked, only the root generated) by
/// the walk; `None` when the walk does not search `algo`, or met a broken rule (the lazy tree
/// then searches, and reports it).
pub(super) fn run<G: Game>(
    game: &G,
    lazy: &Lazy<'_, G>,
    algo: &Algorithm,
    table_bytes: u64,
    reporter: Option<Reporter<'_>>,
) -> Option<GameRun> {
    let plan = plan(algo)?;
    let mut obs = RootChoice::new(Tally::new(Reports::new(reporter, lazy.depth())), lazy);
    if lazy.error().is_some() {
        return None;
    }
    let start = Instant::now();
    let mut walk = Walk::new(game, lazy.depth(), &plan, table_bytes);
    let root = game.start();
    let class = walk.classify(&root, 0);
    let found = match plan {
        Plan::Plain(f) => walk.plain(f, &root, class, &mut obs),
        Plan::Improved(base, with) => walk.improved(lazy, base, with, &root, class, &mut obs),
    };
    let seconds = start.elapsed().as_secs_f64();
    if walk.broke {
        return None;
    }
    let best = obs.best(lazy, &found);
    Some(GameRun {
        algorithm: algo.clone(),
        value: found.value,
        bound: found.bound,
        stats: obs.inner.finish(),
        generated: walk.made as usize,
        best,
        seconds,
    })
}

/// One walk's state: the game, its horizon, the buffers of each ply, and the improved search's
/// memories (its table `T`: its own, or the one a parallel walk's threads share).
struct Walk<'g, G: Game, T: Tt = Table> {
    game: &'g G,
    /// The horizon: positions this many moves from the start are leaves unless over.
    depth: u32,
    /// The game declares integer values ([`Game::integral`]).
    integral: bool,
    remember: Remember,
    /// The paths of the leaves remembered.
    seen: FastSet<u128>,
    /// Each ply's move list and search order, reused.
    moves: Vec<Vec<G::Move>>,
    orders: Vec<Vec<u32>>,
    /// A rule was broken: the walk stops and the lazy tree searches instead.
    broke: bool,
    /// Positions made.
    made: u64,
    tt: Option<T>,
    killers: Option<Killers>,
    history: Option<History>,
    scout: bool,
    /// The current iteration's horizon, in plies from the root.
    limit: u32,
    /// Positions valued at the horizon by their heuristic so far (settled table entries that
    /// did count once more), as `search::improved` counts them: an iteration that adds none is
    /// iterative deepening's last.
    horizon: u64,
    /// A Lazy SMP helper's part; the default for the serial walk and the main thread.
    helper: Helper<'g>,
}

/// What makes a Lazy SMP helper thread's walk differ from the main thread's: when to stop,
/// and its perturbation (see [`run_parallel`]).
#[derive(Copy, Clone, Default)]
struct Helper<'s> {
    /// Set when the main thread has its answer: the helper stops, storing nothing more.
    stop: Option<&'s AtomicBool>,
    /// The helper's number, 1 to N − 1 (0: not a helper). Odd helpers search each iteration one
    /// ply deeper; each helper rotates the root moves after the table's and the killers' by its
    /// number.
    index: u32,
}

impl<'g, G: Game> Walk<'g, G> {
    /// A walk on one thread, its table (if it has one) taking at most `table_bytes`.
    fn new(game: &'g G, depth: u32, plan: &Plan<'_>, table_bytes: u64) -> Self {
        let table = || Table::with_memory(table_bytes);
        Walk::with_table(game, depth, plan, table, Helper::default())
    }
}

impl<'g, G: Game, T: Tt> Walk<'g, G, T> {
    fn with_table(
        game: &'g G,
        depth: u32,
        plan: &Plan<'_>,
        table: impl FnOnce() -> T,
        helper: Helper<'g>,
    ) -> Self {
        let (remember, tt, killers, history, scout) = match plan {
            Plan::Plain(Fun::Ns { .. }) => (Remember::All, false, false, false, false),
            Plan::Plain(_) => (Remember::Nothing, false, false, false, false),
            Plan::Improved(base, with) => {
                let scout = matches!(base, Algorithm::NegaScout);
                let remember =
                    if scout || matches!(base, Algorithm::Mtdf { .. }) || with.aspiration.is_some()
                    {
                        Remember::All
                    } else if with.id {
                        Remember::Over
                    } else {
                        Remember::Nothing
                    };
                (remember, with.tt, with.killers, with.history, scout)
            }
        };
        // Grown as plies are reached (`take_moves`): a game searched to its end may not say how
        // long it lasts.
        let plies = depth.saturating_add(2).min(64) as usize;
        Walk {
            game,
            depth,
            // As the lazy tree decides it: a game searched to its end meets only outcomes.
            integral: game.integral()
                || (game.longest().is_some_and(|l| depth >= l) && game.integral_outcomes()),
            remember,
            seen: FastSet::default(),
            moves: (0..plies).map(|_| Vec::new()).collect(),
            orders: (0..plies).map(|_| Vec::new()).collect(),
            broke: false,
            made: 0,
            tt: tt.then(table),
            killers: killers.then(Killers::default),
            history: history.then(History::default),
            scout,
            limit: depth,
            horizon: 0,
            helper,
        }
    }

    /// `position`, `ply` moves from the start, as the lazy tree classifies it.
    #[inline]
    fn classify(&mut self, position: &G::Position, ply: u32) -> Class {
        let broken = Class::Leaf {
            value: 0.0,
            over: true,
        };
        match self.game.outcome(position) {
            Some(Outcome::Value(v)) => {
                self.check(v);
                Class::Leaf {
                    value: v,
                    over: true,
                }
            }
            Some(Outcome::Payoffs(_)) => {
                self.broke = true;
                broken
            }
            None if ply >= self.depth => match self.game.heuristic(position) {
                Some(h) => {
                    self.check(h);
                    Class::Leaf {
                        value: h,
                        over: false,
                    }
                }
                None => {
                    self.broke = true;
                    broken
                }
            },
            None => match self.game.turn(position) {
                Turn::Max => Class::Inner(Kind::Max),
                Turn::Min => Class::Inner(Kind::Min),
                Turn::Chance | Turn::Player(_) => {
                    self.broke = true;
                    broken
                }
            },
        }
    }

    /// A value the game gave keeps its declaration of integer values.
    #[inline]
    fn check(&mut self, v: f64) {
        if self.integral && !crate::exact::is_integer(v) {
            self.broke = true;
        }
    }

    /// The moves at `position` (at `ply`), in the ply's buffer, which the caller gives back.
    #[inline]
    fn take_moves(&mut self, position: &G::Position, ply: u32) -> Vec<G::Move> {
        if self.moves.len() <= ply as usize {
            self.moves.resize_with(ply as usize + 1, Vec::new);
            self.orders.resize_with(ply as usize + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply as usize]);
        moves.clear();
        self.game.moves(position, &mut moves);
        if moves.is_empty() {
            self.broke = true;
        }
        moves
    }

    /// The position after `mv`.
    #[inline]
    fn play(&mut self, position: &G::Position, mv: &G::Move) -> G::Position {
        self.made += 1;
        self.game.play(position, mv)
    }

    /// Reports the evaluation of a leaf (path `code`, reported as `id`) worth `value`: fresh the
    /// first time, again after.
    #[inline]
    fn leaf<O: Observer>(&mut self, obs: &mut O, id: NodeId, code: u128, value: f64, over: bool) {
        let fresh = match self.remember {
            Remember::Nothing => true,
            Remember::Over if !over => true,
            _ => self.seen.insert(code),
        };
        if fresh {
            obs.fresh_leaf(id, value)
        } else {
            obs.leaf_again(id, value)
        }
    }

    /// A plain search from the root (classified as `class`).
    fn plain<O: Observer>(
        &mut self,
        f: Fun,
        root: &G::Position,
        class: Class,
        obs: &mut O,
    ) -> Found {
        let kind = match class {
            Class::Leaf { value, over } => {
                self.leaf(obs, NodeId::ROOT, 0, value, over);
                return Found::exact(value);
            }
            Class::Inner(kind) => kind,
        };
        let (lo, hi) = (f64::NEG_INFINITY, f64::INFINITY);
        if f == Fun::Minimax {
            return Found::exact(self.minimax(root, kind, 0, NodeId::ROOT, 0, obs));
        }
        let v = self.visit(f, root, kind, 0, NodeId::ROOT, 0, lo, hi, obs);
        Found::exact(sign(kind) * v)
    }

    /// Minimax's `visit` of interior node `id` (kind `kind`, at `ply`, path `code`).
    fn minimax<O: Observer>(
        &mut self,
        position: &G::Position,
        kind: Kind,
        ply: u32,
        id: NodeId,
        code: u128,
        obs: &mut O,
    ) -> f64 {
        obs.enter(id, f64::NEG_INFINITY, f64::INFINITY);
        let moves = self.take_moves(position, ply);
        let max = kind == Kind::Max;
        let mut best = if max {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for (i, mv) in moves.iter().enumerate() {
            if self.broke {
                break;
            }
            let c = self.play(position, mv);
            let (cid, ccode) = (child_id(ply, i), step(code, ply, i));
            let v = match self.classify(&c, ply + 1) {
                Class::Leaf { value, over } => {
                    self.leaf(obs, cid, ccode, value, over);
                    value
                }
                Class::Inner(k) => self.minimax(&c, k, ply + 1, cid, ccode, obs),
            };
            best = if max { best.max(v) } else { best.min(v) };
        }
        self.moves[ply as usize] = moves;
        obs.exit(id, best, Bound::Exact);
        best
    }

    /// The negamax searches' child step: child `c` (classified `class`) of a node of sign `s`,
    /// searched by `f` with the window `(alpha, beta)` seen from the parent; its value seen
    /// from the parent.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child<O: Observer>(
        &mut self,
        f: Fun,
        s: f64,
        c: &G::Position,
        class: Class,
        ply: u32,
        id: NodeId,
        code: u128,
        alpha: f64,
        beta: f64,
        obs: &mut O,
    ) -> f64 {
        match class {
            Class::Leaf { value, over } => {
                self.leaf(obs, id, code, value, over);
                s * value
            }
            Class::Inner(k) if sign(k) == s => self.visit(f, c, k, ply, id, code, alpha, beta, obs),
            Class::Inner(k) => -self.visit(f, c, k, ply, id, code, -beta, -alpha, obs),
        }
    }

    /// Interior node `id` searched by `f` (F2, fail-soft alpha-beta or NegaScout) with the
    /// negamax window `(alpha, beta)`.
    #[allow(clippy::too_many_arguments)]
    fn visit<O: Observer>(
        &mut self,
        f: Fun,
        position: &G::Position,
        kind: Kind,
        ply: u32,
        id: NodeId,
        code: u128,
        alpha: f64,
        beta: f64,
        obs: &mut O,
    ) -> f64 {
        let s = sign(kind);
        enter(obs, id, s, alpha, beta);
        let moves = self.take_moves(position, ply);
        let n = moves.len();
        // F2's m, fail-soft's (a, score), NegaScout's (lo, hi).
        let (mut a, mut score, mut hi) = (alpha, f64::NEG_INFINITY, beta);
        for (i, mv) in moves.iter().enumerate() {
            if self.broke {
                break;
            }
            let c = self.play(position, mv);
            let (cid, ccode) = (child_id(ply, i), step(code, ply, i));
            let class = self.classify(&c, ply + 1);
            match f {
                Fun::Hard => {
                    let t = self.child(f, s, &c, class, ply + 1, cid, ccode, a, beta, obs);
                    if t > a {
                        a = t;
                    }
                    if a >= beta {
                        obs.cutoff(id, i as u32, (n - i - 1) as u32, cut_kind(s));
                        break;
                    }
                }
                Fun::Soft => {
                    let t = self.child(f, s, &c, class, ply + 1, cid, ccode, a, beta, obs);
                    if t > score {
                        score = t;
                    }
                    if score > a {
                        a = score;
                    }
                    if score >= beta {
                        obs.cutoff(id, i as u32, (n - i - 1) as u32, cut_kind(s));
                        break;
                    }
                }
                Fun::Ns { re_self } => {
                    let mut t = self.child(f, s, &c, class, ply + 1, cid, ccode, a, hi, obs);
                    if t > a && t < beta && i > 0 {
                        if s > 0.0 {
                            obs.research(cid, t, beta);
                        } else {
                            obs.research(cid, -beta, -t);
                        }
                        let re = if re_self { f } else { Fun::Hard };
                        t = self.child(re, s, &c, class, ply + 1, cid, ccode, t, beta, obs);
                    }
                    a = a.max(t);
                    if a >= beta {
                        obs.cutoff(id, i as u32, (n - i - 1) as u32, cut_kind(s));
                        break;
                    }
                    hi = self.above(a);
                }
                Fun::Minimax => unreachable!("minimax has its own visit"),
            }
        }
        let value = if f == Fun::Soft { score } else { a };
        self.moves[ply as usize] = moves;
        exit(obs, id, s, value, alpha, beta);
        value
    }

    /// The minimal window's upper end above `v` ([`crate::search::negascout::above`]).
    #[inline]
    fn above(&self, v: f64) -> f64 {
        if self.integral {
            crate::search::negascout::above::<true>(v)
        } else {
            v.next_up()
        }
    }

    /// The improved search (`crate::search::improved`) from the root, classified `class`.
    /// After each iteration of iterative deepening, its best move goes to the reports.
    fn improved(
        &mut self,
        lazy: &Lazy<'_, G>,
        base: &Algorithm,
        with: &Improvements,
        root: &G::Position,
        class: Class,
        obs: &mut RootChoice<Tally<'_>>,
    ) -> Found {
        let done = |v: f64, obs: &mut RootChoice<Tally<'_>>| {
            if obs.inner.reports.reporter.is_some() {
                obs.inner.reports.best = obs.best(lazy, &Found::exact(v)).map(|(_, label)| label);
            }
            v
        };
        let kind = match class {
            Class::Leaf { value, over } => {
                self.leaf(obs, NodeId::ROOT, 0, value, over);
                return Found::exact(value);
            }
            Class::Inner(kind) => kind,
        };
        let height = self.depth;
        let inf = f64::INFINITY;
        let v = match base {
            Algorithm::Mtdf { guess } if with.id => {
                iterative::deepen(height, obs, |depth, prev, obs| {
                    let before = self.horizon;
                    let v = mtdf::drive(lazy, prev.or(*guess), obs, |lo, hi, obs| {
                        self.root(root, kind, depth, lo, hi, obs)
                    });
                    (done(v, obs), self.horizon > before)
                })
            }
            Algorithm::Mtdf { guess } => mtdf::drive(lazy, *guess, obs, |lo, hi, obs| {
                self.root(root, kind, height, lo, hi, obs)
            }),
            _ if with.id => iterative::deepen(height, obs, |depth, prev, obs| {
                let before = self.horizon;
                let v = match (prev, with.aspiration) {
                    (Some(prev), Some(w)) => {
                        aspiration::search(lazy.root(), prev, w, obs, |lo, hi, obs| {
                            self.root(root, kind, depth, lo, hi, obs)
                        })
                    }
                    _ => self.root(root, kind, depth, -inf, inf, obs),
                };
                (done(v, obs), self.horizon > before)
            }),
            _ => self.root(root, kind, height, -inf, inf, obs),
        };
        Found::exact(v)
    }

    /// The root searched to `limit` plies with the root-relative window `(lo, hi)`.
    fn root<O: Observer>(
        &mut self,
        root: &G::Position,
        kind: Kind,
        limit: u32,
        lo: f64,
        hi: f64,
        obs: &mut O,
    ) -> f64 {
        // A staggered helper searches one ply deeper than the iteration asks (never past the
        // horizon).
        self.limit = (limit + self.helper.index % 2).min(self.depth);
        let s = sign(kind);
        let (a, b) = if s > 0.0 { (lo, hi) } else { (-hi, -lo) };
        s * self.node(root, kind, 0, NodeId::ROOT, 0, a, b, obs)
    }

    /// The improved search's child step: child `c` at `ply`, classified `class`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn ichild<O: Observer>(
        &mut self,
        s: f64,
        c: &G::Position,
        class: Class,
        ply: u32,
        id: NodeId,
        code: u128,
        alpha: f64,
        beta: f64,
        obs: &mut O,
    ) -> f64 {
        let kind = match class {
            Class::Leaf { value, over } => {
                self.leaf(obs, id, code, value, over);
                return s * value;
            }
            Class::Inner(_) if ply >= self.limit => {
                // At this iteration's horizon: the heuristic (refused before the search when the
                // root has none; NaN, as on the lazy tree, where a position has none).
                self.horizon += 1;
                let h = self.game.heuristic(c);
                if let Some(h) = h {
                    self.check(h);
                }
                let v = h.unwrap_or(f64::NAN);
                self.leaf(obs, id, code, v, false);
                return s * v;
            }
            Class::Inner(kind) => kind,
        };
        if sign(kind) == s {
            self.node(c, kind, ply, id, code, alpha, beta, obs)
        } else {
            -self.node(c, kind, ply, id, code, -beta, -alpha, obs)
        }
    }

    /// The order `crate::search::improved` searches `n` children in: the table's move, the
    /// killers of `ply`, then the rest by history or in order.
    fn order(&self, n: u32, ply: u32, max: bool, first: Option<u32>, out: &mut Vec<u32>) {
        out.clear();
        let front = |m: u32, out: &mut Vec<u32>| {
            if m < n && !out.contains(&m) {
                out.push(m);
            }
        };
        if let Some(m) = first {
            front(m, out);
        }
        if let Some(k) = &self.killers {
            for m in k.of(ply as usize).into_iter().flatten() {
                front(m, out);
            }
        }
        let placed = out.len();
        for m in 0..n {
            if !out[..placed].contains(&m) {
                out.push(m);
            }
        }
        if let Some(h) = &self.history {
            by_history(h, max, &mut out[placed..]);
        }
        if ply == 0 && self.helper.index > 0 && out.len() > placed {
            let rest = &mut out[placed..];
            let by = self.helper.index as usize % rest.len();
            rest.rotate_left(by);
        }
    }

    /// Fail-soft negamax search of interior node `id` (kind `kind`, at `ply`) with the window
    /// `(alpha, beta)`: `crate::search::improved`'s `node`.
    #[allow(clippy::too_many_arguments)]
    fn node<O: Observer>(
        &mut self,
        position: &G::Position,
        kind: Kind,
        ply: u32,
        id: NodeId,
        code: u128,
        alpha: f64,
        beta: f64,
        obs: &mut O,
    ) -> f64 {
        if let Some(stop) = self.helper.stop
            && stop.load(Ordering::Relaxed)
        {
            self.broke = true;
        }
        if self.broke {
            return 0.0;
        }
        let s = sign(kind);
        let draft = self.limit - ply;
        let key = match self.tt {
            Some(_) => self.game.key(position),
            None => None,
        };
        let mut first = None;
        if let (Some(tt), Some(k)) = (&self.tt, key) {
            obs.tt_probe(id);
            if let Some(e) = tt.get(k, draft) {
                let settled = answer(e, alpha, beta).filter(|_| ply > 0);
                obs.tt_hit(id, s * e.value, root_bound(e.bound, s), settled.is_some());
                if let Some(v) = settled {
                    self.horizon += u64::from(e.horizon);
                    return v;
                }
            }
            first = tt.best_move(k, draft);
        }
        let moves = self.take_moves(position, ply);
        if self.broke {
            self.moves[ply as usize] = moves;
            return 0.0;
        }
        let mut order = std::mem::take(&mut self.orders[ply as usize]);
        self.order(moves.len() as u32, ply, s > 0.0, first, &mut order);
        let horizon_before = self.horizon;
        enter(obs, id, s, alpha, beta);
        let n = order.len();
        let (mut score, mut best, mut a) = (f64::NEG_INFINITY, order[0], alpha);
        for (j, &i) in order.iter().enumerate() {
            if self.broke {
                break;
            }
            let c = self.play(position, &moves[i as usize]);
            let (cid, ccode) = (child_id(ply, i as usize), step(code, ply, i as usize));
            let class = self.classify(&c, ply + 1);
            let mut t;
            if j == 0 || !self.scout {
                t = self.ichild(s, &c, class, ply + 1, cid, ccode, a, beta, obs);
            } else {
                let hi = self.above(a);
                t = self.ichild(s, &c, class, ply + 1, cid, ccode, a, hi, obs);
                let terminal = matches!(class, Class::Leaf { .. }) || ply + 1 >= self.limit;
                if t > a && t < beta && !terminal {
                    if s > 0.0 {
                        obs.research(cid, t, beta);
                    } else {
                        obs.research(cid, -beta, -t);
                    }
                    t = self.ichild(s, &c, class, ply + 1, cid, ccode, t, beta, obs);
                }
            }
            if t > score {
                score = t;
                best = i;
            }
            a = a.max(score);
            if score >= beta {
                obs.cutoff_ranked(id, i, j as u32, (n - j - 1) as u32, cut_kind(s));
                if let Some(k) = &mut self.killers {
                    k.cut(ply as usize, i);
                }
                break;
            }
        }
        self.moves[ply as usize] = moves;
        self.orders[ply as usize] = order;
        exit(obs, id, s, score, alpha, beta);
        let bound = Bound::classify(score, alpha, beta);
        if bound != Bound::Upper
            && let Some(h) = &mut self.history
        {
            h.reward(s > 0.0, best, draft);
        }
        // A walk that stopped (a broken rule, or a helper told to) has no value to store: the
        // table may be shared with threads still searching.
        if let (Some(tt), Some(k), false) = (&mut self.tt, key, self.broke) {
            tt.store(
                k,
                draft,
                Entry {
                    value: score,
                    bound,
                    best,
                    horizon: self.horizon > horizon_before,
                },
            );
        }
        score
    }
}

/// Questions about positions' minimax values to one horizon, answered by walked searches that
/// keep one transposition table, killers and history from one question to the next: what the
/// best moves and the principal variation of a two-player game are found by
/// ([`crate::game::best`]). A question after the first finds the positions the others searched
/// in the table (the root's children share most of their subtrees), so the many searches cost
/// little more than one.
pub(crate) struct Prover<'g, G: Game> {
    walk: Walk<'g, G>,
}

impl<'g, G: Game> Prover<'g, G> {
    /// Questions about `game`'s positions searched to `depth` moves from its start, the table
    /// taking at most `table_bytes`.
    pub(crate) fn new(game: &'g G, depth: u32, table_bytes: u64) -> Self {
        const SEARCH: Algorithm = Algorithm::AlphaBeta { fail_soft: true };
        const WITH: Improvements = Improvements {
            depth: None,
            tt: true,
            id: false,
            aspiration: None,
            killers: true,
            history: true,
        };
        // As the lazy tree and the run take it: no deeper than the game lasts.
        let depth = game.longest().map_or(depth, |l| depth.min(l));
        Prover {
            walk: Walk::new(game, depth, &Plan::Improved(&SEARCH, &WITH), table_bytes),
        }
    }

    /// Fail-soft alpha-beta's answer for `position`, `ply` moves from the start, with the
    /// window `(lo, hi)` from Max's side: the value when it lies inside, else a bound beyond
    /// the window's end it passed. `None` when the walk met a broken rule (the game is not one
    /// the walk can search: a chance or n-player position, values against its declaration).
    pub(crate) fn search(
        &mut self,
        position: &G::Position,
        ply: u32,
        lo: f64,
        hi: f64,
    ) -> Option<f64> {
        let w = &mut self.walk;
        let v = match w.classify(position, ply) {
            Class::Leaf { value, .. } => value,
            Class::Inner(kind) => {
                w.limit = w.depth;
                let s = sign(kind);
                let (a, b) = if s > 0.0 { (lo, hi) } else { (-hi, -lo) };
                // Nobody reads these searches' statistics.
                s * w.node(position, kind, ply, DEEP, 0, a, b, &mut Quiet)
            }
        };
        (!w.broke).then_some(v)
    }

    /// Whether the value of `position` (at `ply`) is at least `v`, by a minimal window.
    pub(crate) fn at_least(&mut self, position: &G::Position, ply: u32, v: f64) -> Option<bool> {
        Some(self.search(position, ply, v.next_down(), v)? >= v)
    }

    /// Whether the value of `position` (at `ply`) is at most `v`, by a minimal window.
    pub(crate) fn at_most(&mut self, position: &G::Position, ply: u32, v: f64) -> Option<bool> {
        Some(self.search(position, ply, v, v.next_up())? <= v)
    }
}

/// Whether `--threads N` applies to `algo`: Lazy SMP's threads share only a transposition
/// table, so it runs the walked searches that have one (alpha-beta, NegaScout and MTD(f) with
/// `tt`, and any other improvement).
pub fn parallel(algo: &Algorithm) -> bool {
    matches!(plan(algo), Some(Plan::Improved(_, with)) if with.tt)
}

/// **Lazy SMP** (the Chess Programming Wiki's "Lazy SMP"; Dailey's and Hyatt's descriptions):
/// `threads` threads search the same root, each its own walk of `algo` (a [`parallel`] one),
/// sharing one lock-free transposition table ([`Shared`], `2^bits` entries) and nothing else —
/// each has its own killers, history and path. Helpers differ from the main thread so as not to
/// search in lockstep: odd ones search each iteration one ply deeper (staggered depths), and
/// each rotates the root's later moves by its number. What the helpers store, the main thread
/// finds in the table; its result is the answer, and when it has it the helpers stop.
///
/// **Why the value is the serial search's at fixed depth.** An entry is used for its value only
/// at its own draft ([`crate::search::tt`]), never from a deeper search. The value of a
/// position searched to draft d (its depth-limited minimax value) depends on the position and
/// d alone, not on the path to it, the window, nor the thread; fail-soft alpha-beta stores a
/// value that is that value (exact) or a bound of it on the side the window says. So whichever
/// thread stored an entry, it is a true statement about the d-ply value, and the main thread's
/// search — fail-soft alpha-beta whose every child returns a true bound or value — returns the
/// root's exact value at the fixed depth, as the serial search does. A rule taking a deeper
/// entry's value (draft ≥ remaining, as game programs do) would not: a helper's deeper (say
/// staggered) result would change the fixed-depth value. Only the path differs: the statistics
/// and, among moves tied for the best value, the one reported. Iterative deepening stops early
/// when an iteration values no position by its heuristic (the game is solved); an entry's
/// horizon flag says that of the search that stored it, whichever thread that was.
///
/// The statistics returned are the sum over the threads (`nodes`: every thread's visits), the
/// positions generated too; progress reports count every thread's visits (each helper's to its
/// last multiple of 2^16, added to a shared counter as it passes it). `None` as for [`run`],
/// or when `algo` is not [`parallel`].
pub(super) fn run_parallel<G: Game + Sync>(
    game: &G,
    lazy: &Lazy<'_, G>,
    algo: &Algorithm,
    threads: usize,
    bits: u32,
    reporter: Option<Reporter<'_>>,
) -> Option<GameRun> {
    let Some(Plan::Improved(base, with)) = plan(algo).filter(|_| parallel(algo)) else {
        return None;
    };
    if lazy.error().is_some() {
        return None;
    }
    let depth = lazy.depth();
    let table = Shared::new(bits);
    let stop = AtomicBool::new(false);
    let visits = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let (main, helpers) = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads.max(1))
            .map(|t| {
                let (table, stop, visits) = (&table, &stop, visits.clone());
                s.spawn(move || helper(game, algo, depth, t as u32, table, stop, visits))
            })
            .collect();
        let plan = Plan::Improved(base, with);
        let mut walk = Walk::with_table(game, depth, &plan, || &table, Helper::default());
        let reports = Reports::new(reporter, depth).in_pool(Pool::Main(visits.clone()));
        let tally = Tally::new(reports);
        let mut obs = RootChoice::new(tally, lazy);
        let root = game.start();
        let class = walk.classify(&root, 0);
        let found = walk.improved(lazy, base, with, &root, class, &mut obs);
        stop.store(true, Ordering::Relaxed);
        let helpers: Vec<(Stats, u64)> = handles
            .into_iter()
            .map(|h| h.join().expect("a Lazy SMP helper thread"))
            .collect();
        let best = obs.best(lazy, &found);
        let main = (walk.broke, found, best, obs.inner.finish(), walk.made);
        (main, helpers)
    });
    let seconds = start.elapsed().as_secs_f64();
    let (broke, found, best, mut stats, mut made) = main;
    if broke {
        return None;
    }
    for (s, m) in &helpers {
        stats += s;
        made += m;
    }
    Some(GameRun {
        algorithm: algo.clone(),
        value: found.value,
        bound: found.bound,
        stats,
        generated: made as usize,
        best,
        seconds,
    })
}

/// Helper `index`'s walk of `algo` (on its own lazy root: the lazy tree is one thread's)
/// until it ends or `stop` is set; its statistics and positions made.
fn helper<G: Game + Sync>(
    game: &G,
    algo: &Algorithm,
    depth: u32,
    index: u32,
    table: &Shared,
    stop: &AtomicBool,
    visits: Arc<AtomicU64>,
) -> (Stats, u64) {
    let Ok(lazy) = super::prepare(game, algo, depth) else {
        return (Stats::default(), 0);
    };
    let Some(Plan::Improved(base, with)) = plan(algo) else {
        return (Stats::default(), 0);
    };
    let plan = Plan::Improved(base, with);
    let helper = Helper {
        stop: Some(stop),
        index,
    };
    let mut walk = Walk::with_table(game, depth, &plan, || table, helper);
    let tally = Tally::new(Reports::new(None, depth).in_pool(Pool::Helper(visits)));
    let mut obs = RootChoice::new(tally, &lazy);
    let root = game.start();
    let class = walk.classify(&root, 0);
    walk.improved(&lazy, base, with, &root, class, &mut obs);
    (obs.inner.finish(), walk.made)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The insertion sort orders as `History::order`'s stable sort, ties included.
    #[test]
    fn history_order_by_insertion_is_the_stable_sort() {
        let mut h = History::default();
        let mut x = 7u64;
        for _ in 0..200 {
            x = mix64(x);
            h.reward(x & 1 == 0, (x >> 8) as u32 % 40, (x >> 20) as u32 % 4);
        }
        for max in [false, true] {
            let moves: Vec<u32> = (0..45).rev().collect();
            let (mut a, mut b) = (moves.clone(), moves);
            h.order(max, &mut a);
            by_history(&h, max, &mut b);
            assert_eq!(a, b);
        }
    }

    /// Path codes are exact for the first 16 moves (each below 255) and tell paths apart.
    #[test]
    fn path_codes_tell_paths_apart() {
        let path = |moves: &[usize]| {
            moves
                .iter()
                .enumerate()
                .fold(0u128, |code, (ply, &i)| step(code, ply as u32, i))
        };
        assert_ne!(path(&[0, 1]), path(&[1, 0]));
        assert_ne!(path(&[0]), path(&[0, 0]));
        assert_ne!(path(&[300]), path(&[301]));
        let deep: Vec<usize> = (0..20).collect();
        let mut other = deep.clone();
        other[18] = 5;
        assert_ne!(path(&deep), path(&other));
    }
}
