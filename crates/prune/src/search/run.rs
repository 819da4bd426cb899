//! A run: an algorithm searched on a tree, with what the views need around it — the
//! statistics, the time of the search alone, the tied best moves and the principal variation
//! (from the family's [`Reference`](super::Reference) values, so every algorithm of a family reports the same
//! ones) — and a thread with a big enough stack for deep trees.

use std::borrow::Cow;
use std::time::Instant;

use serde::Serialize;

use super::{
    Algorithm, Bound, Counter, Family, Found, Observer, References, Refusal, Stats, Value,
    alphabeta, expectiminimax, improved, maxn, minimax, mtdf, negascout, paranoid, product,
    shallow, sss, star1, star2,
};
use crate::tree::{Kind, NodeId, Nodes, Tree};

/// Everything one run of one algorithm produced, but its trace.
#[derive(Clone, Debug)]
pub struct Run {
    /// The algorithm and its parameters.
    pub algorithm: Algorithm,
    /// The root's value, as the search returned it.
    pub value: Value,
    /// Whether the value is exact or a bound.
    pub bound: Bound,
    /// Root moves (child positions, from 0) whose value equals the best, by the family's
    /// reference values; empty when the root is a leaf or a chance node.
    pub best_moves: Vec<usize>,
    /// The principal variation: from the root, the first best child each time, by the family's
    /// reference values, down to a leaf or a chance node.
    pub pv: Vec<NodeId>,
    /// The search's statistics.
    pub stats: Stats,
    /// The search alone, not loading nor the reference values.
    pub seconds: f64,
}

/// Runs `algo` on `tree` with statistics only.
///
/// ```
/// use prune::search::{self, Algorithm};
///
/// let tree = prune::format::parse_expr("((3,12,8),(2,4,6),(14,5,2))", false)?;
/// let run = search::run(&tree, &Algorithm::AlphaBeta { fail_soft: true })?;
/// assert_eq!(run.value.scalar(), Some(3.0));
/// assert_eq!(run.best_moves, [0]);
/// // Alpha-beta skips 4 and 6 below the second move.
/// assert_eq!((run.stats.leaves, run.stats.cutoffs), (7, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(tree: &Tree, algo: &Algorithm) -> Result<Run, Refusal> {
    run_with(&References::new(tree), algo)
}

/// [`run`] on the tree of `refs`, taking the best moves from its reference values (computed
/// once for all the runs on the tree).
pub fn run_with(refs: &References<'_>, algo: &Algorithm) -> Result<Run, Refusal> {
    let tree = refs.tree();
    let mut counter = Counter::new(tree.len());
    let (found, seconds) = search(tree, algo, &mut counter)?;
    Ok(finish_with(refs, algo, found, counter.finish(), seconds))
}

/// Runs `algo` reporting to `obs`; returns the result and the time of the search.
pub fn search<O: Observer + Send>(
    tree: &Tree,
    algo: &Algorithm,
    obs: &mut O,
) -> Result<(Found, f64), Refusal> {
    if let Some(why) = algo.refusal(tree) {
        return Err(why);
    }
    let tree = &*searched(tree, algo);
    // Like the reference values, a property of the tree: not part of the search's time.
    if tree.has_chance() {
        tree.simple_fractions();
    }
    with_stack(tree, || {
        let start = Instant::now();
        let found = dispatch(tree, algo, obs);
        (found, start.elapsed().as_secs_f64())
    })
}

/// Adds the reference-based best moves and principal variation.
pub fn finish(tree: &Tree, algo: &Algorithm, found: Found, stats: Stats, seconds: f64) -> Run {
    finish_with(&References::new(tree), algo, found, stats, seconds)
}

/// [`finish`] with the reference values of `refs`.
pub fn finish_with(
    refs: &References<'_>,
    algo: &Algorithm,
    found: Found,
    stats: Stats,
    seconds: f64,
) -> Run {
    let (best_moves, pv) = principal(refs, algo);
    Run {
        algorithm: algo.clone(),
        value: found.value,
        bound: found.bound,
        best_moves,
        pv,
        stats,
        seconds,
    }
}

/// The tree `algo` searches: `tree` itself, or, for a two-player algorithm on a constant-sum
/// two-player tree written with payoff vectors, that tree as Max against Min
/// ([`Tree::two_player_view`]: same nodes, same ids, so traces and views apply to `tree`).
///
/// With a depth limit, that tree cut at the limit ([`Tree::to_depth`]: same ids down to it), so
/// the search and its reference values see the same horizon. An algorithm refused for a missing
/// heuristic value never searches; its reference values are then the uncut tree's.
pub fn searched<'t>(tree: &'t Tree, algo: &Algorithm) -> Cow<'t, Tree> {
    let two = match algo.family() {
        Family::MultiPlayer => Cow::Borrowed(tree),
        _ => Cow::Borrowed(tree.two_player_view().unwrap_or(tree)),
    };
    match algo.improvements().and_then(|w| w.depth) {
        Some(d) if (d as usize) < two.height() => two.to_depth(d as usize).map_or(two, Cow::Owned),
        _ => two,
    }
}

/// What [`searched`] assumed of `tree`, in one sentence, when it searches a view of it.
pub fn assumption(tree: &Tree, algo: &Algorithm) -> Option<String> {
    if algo.family() == Family::MultiPlayer || !tree.is_multiplayer() {
        return None;
    }
    let c = tree.constant_sum().ok()?;
    Some(format!(
        "a two-player game whose payoffs sum to {} at every leaf, searched as Max (player 1) against Min (player 2); values are player 1's payoffs",
        crate::text::number_text(c)
    ))
}

/// The search `algo` names, on any tree a search can read.
pub(crate) fn dispatch<T: Nodes, O: Observer>(tree: &T, algo: &Algorithm, obs: &mut O) -> Found {
    match algo {
        Algorithm::Minimax => minimax::search(tree, obs),
        Algorithm::AlphaBeta { fail_soft } => alphabeta::search(tree, *fail_soft, obs),
        Algorithm::NegaScout => negascout::search(tree, negascout::ReSearch::SelfCall, obs),
        Algorithm::NegaScoutAb => negascout::search(tree, negascout::ReSearch::AlphaBeta, obs),
        Algorithm::Sss => sss::search(tree, obs),
        Algorithm::Mtdf { guess } => mtdf::search(tree, *guess, obs),
        Algorithm::Expectiminimax => expectiminimax::search(tree, obs),
        Algorithm::Star1 { rightmost } => star1::search(tree, *rightmost, obs),
        Algorithm::Star2 {
            probes,
            probe_always,
            rightmost,
        } => star2::search(tree, *probes, *probe_always, *rightmost, obs),
        Algorithm::Product => product::search(tree, 1.0, obs),
        Algorithm::KRule { k } => product::search(tree, *k, obs),
        Algorithm::Maxn => maxn::search(tree, obs),
        Algorithm::MaxnShallow => shallow::search(tree, obs),
        Algorithm::Paranoid { player } => paranoid::search(tree, *player, obs),
        Algorithm::Improved { base, with }
            if with.tt && matches!(**base, Algorithm::Expectiminimax) =>
        {
            expectiminimax::search_with_table(tree, obs)
        }
        Algorithm::Improved { base, with } if with.reorders() => {
            improved::search(tree, base, with, obs)
        }
        Algorithm::Improved { base, .. } => dispatch(tree, base, obs),
    }
}

/// Runs `f` on a thread whose stack fits the tree's height when the tree is deep: every
/// algorithm recurses once or twice per level, like the papers' pseudocode. When the system
/// refuses a stack that large (an address-space limit, a 10^7-level chain), the tree is
/// refused with the reason — never a panic.
pub fn with_stack<T: Send>(tree: &Tree, f: impl FnOnce() -> T + Send) -> Result<T, Refusal> {
    const INLINE_HEIGHT: usize = 2_000;
    if tree.height() < INLINE_HEIGHT {
        return Ok(f());
    }
    let bytes = tree
        .height()
        .checked_mul(4096)
        .and_then(|b| b.checked_add(64 << 20))
        .ok_or(Refusal::TooDeep {
            height: tree.height(),
            stack: usize::MAX,
            why: "the size overflows".into(),
        })?;
    std::thread::scope(|s| {
        let thread = std::thread::Builder::new()
            .name("prune-search".into())
            .stack_size(bytes)
            .spawn_scoped(s, f)
            .map_err(|e| Refusal::TooDeep {
                height: tree.height(),
                stack: bytes,
                why: e.to_string(),
            })?;
        Ok(thread
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e)))
    })
}

/// How good a child's reference value is for the player to move at its parent.
fn score(tree: &Tree, algo: &Algorithm, parent: NodeId, v: &Value) -> f64 {
    let mover = super::players::mover(tree, parent);
    match (v, algo) {
        // The paranoid player maximises its reduction's value, the coalition minimises it.
        (Value::Scalar(x), Algorithm::Paranoid { player }) => {
            if mover == Some(usize::from(*player)) {
                *x
            } else {
                -x
            }
        }
        // Min, or player 2 of a two-player game written with payoff vectors.
        (Value::Scalar(x), _) if mover == Some(1) => -x,
        (Value::Scalar(x), _) => *x,
        // max^n: the mover's own component (any component at a chance node: it does not choose).
        (Value::Vector(x), _) => x[mover.unwrap_or(0)],
    }
}

/// The tied best root moves and the principal variation.
fn principal(refs: &References<'_>, algo: &Algorithm) -> (Vec<usize>, Vec<NodeId>) {
    // The reference values are the searched tree's: to the depth limit, if any.
    let view = searched(refs.tree(), algo);
    let tree = &*view;
    let reference = refs.of(algo);
    let best_children = |node: NodeId| -> Vec<usize> {
        let scores: Vec<f64> = tree
            .children(node)
            .map(|c| score(tree, algo, node, &reference.get(c)))
            .collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (0..scores.len()).filter(|&i| scores[i] == top).collect()
    };
    let decides = |n: NodeId| !tree.is_leaf(n) && tree.kind(n) != Kind::Chance;
    let root = tree.root();
    let best_moves = if decides(root) {
        best_children(root)
    } else {
        Vec::new()
    };
    let mut pv = vec![root];
    let mut node = root;
    while decides(node) {
        let i = if node == root {
            best_moves[0]
        } else {
            best_children(node)[0]
        };
        node = tree.child(node, i);
        pv.push(node);
    }
    (best_moves, pv)
}

/// Facts about the tree that turn counts into ratios.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Ratios {
    /// `leaves^(1/height)`: the branching factor of a uniform tree of the same height with as
    /// many leaves as the search evaluated.
    pub effective_branching: f64,
    /// Leaf evaluations over the tree's leaves (an exhaustive search evaluates each once).
    pub share_of_exhaustive: f64,
}

impl Ratios {
    /// The ratios of `stats` on `tree`.
    pub fn of(tree: &Tree, stats: &Stats) -> Ratios {
        let h = tree.height().max(1) as f64;
        Ratios {
            effective_branching: (stats.leaves as f64).powf(1.0 / h),
            share_of_exhaustive: stats.leaves as f64 / tree.leaf_count() as f64,
        }
    }
}
