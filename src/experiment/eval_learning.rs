//! Evaluation learning, from the lecture slides on alpha-beta analysis, max^n and pathology
//! (their closing part, "Learning Two Player Evaluation": Samuel's checkers player, the chess
//! piece values found by regression): the weights of a linear evaluation of tic-tac-toe
//! positions fitted by least squares to their exact values, and what searching with it buys
//! against the hand-written evaluation prune's game generator stores.
//!
//! The positions are every distinct non-terminal position of the full game tree (`prune gen
//! game tic-tac-toe`), recognised by their position keys (X's cells in bits 0–8, O's in bits
//! 9–17); a position's exact value is the minimax value of any node with its key. The
//! features, all from X's (Max's) point of view:
//!
//! | feature | what it counts |
//! |---|---|
//! | `bias` | 1 |
//! | `x1`, `x2` | lines with one (two) X and no O |
//! | `o1`, `o2` | lines with one (two) O and no X |
//! | `center` | +1 X holds the centre, −1 O does |
//! | `corners` | corners held by X − corners held by O |
//! | `to_move` | +1 X to move, −1 O to move |
//! | `x_wins_next`, `o_wins_next` | X (O) to move with a line of two of theirs and no other mark |
//!
//! Decision quality is measured as the pathology experiment measures it: for every position,
//! a `d`-ply minimax search (terminal positions at their exact value, the frontier valued by
//! the evaluation) chooses among the moves it finds best, tied moves sharing the choice, and a
//! move counts as correct when its exact value is the position's. The share of correct moves
//! is given for the hand-written evaluation, the learned one, and the learned one fitted on the
//! other half of the positions only (by key parity: out of sample).

pub mod slides;

use std::collections::HashMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::plot::{Figure, Group, Mark, Plot, measured};
use super::{Cell, Options, Report, Tick, col, per_row, within};
use prune::game::tic_tac_toe::{TIC_TAC_TOE_LINES, tic_tac_toe_board, tic_tac_toe_heuristic};
use prune::generate::Rng;
use prune::generate::game::{self, GameSpec};
use prune::search::{Algorithm, Reference};
use prune::tree::{Kind, NodeId, Tree};

/// The features' names, in the order of [`features`].
pub const FEATURES: [&str; 10] = [
    "bias",
    "x1",
    "x2",
    "o1",
    "o2",
    "center",
    "corners",
    "to_move",
    "x_wins_next",
    "o_wins_next",
];

const K: usize = FEATURES.len();

/// The features of the position with key `key` (see the module documentation).
pub fn features(key: u64) -> [f64; K] {
    let (x, o) = tic_tac_toe_board(key);
    let count = |mine: u16, theirs: u16, n: u32| {
        TIC_TAC_TOE_LINES
            .iter()
            .filter(|&&l| l & theirs == 0 && (l & mine).count_ones() == n)
            .count() as f64
    };
    let (x1, x2, o1, o2) = (
        count(x, o, 1),
        count(x, o, 2),
        count(o, x, 1),
        count(o, x, 2),
    );
    let centre = 1 << 4;
    let corners = 0b101_000_101;
    let x_to_move = x.count_ones() == o.count_ones();
    let sign = |b: bool| if b { 1.0 } else { 0.0 };
    [
        1.0,
        x1,
        x2,
        o1,
        o2,
        sign(x & centre != 0) - sign(o & centre != 0),
        f64::from((x & corners).count_ones()) - f64::from((o & corners).count_ones()),
        if x_to_move { 1.0 } else { -1.0 },
        sign(x_to_move && x2 > 0.0),
        sign(!x_to_move && o2 > 0.0),
    ]
}

/// The hand-written evaluation the game generator stores at interior positions
/// ([`tic_tac_toe_heuristic`]), of the position with key `key`.
pub fn hand_written(key: u64) -> f64 {
    let (x, o) = tic_tac_toe_board(key);
    tic_tac_toe_heuristic(x, o)
}

/// A linear evaluation: the weights of [`FEATURES`].
#[derive(Clone, Debug, PartialEq)]
pub struct Linear(pub [f64; K]);

impl Linear {
    /// The evaluation of the position of `key`.
    pub fn eval(&self, key: u64) -> f64 {
        features(key).iter().zip(&self.0).map(|(f, w)| f * w).sum()
    }
}

/// The least-squares weights for `rows` → `y` (see [`solve`]); `None` if the normal equations
/// are singular.
pub fn least_squares(rows: &[[f64; K]], y: &[f64]) -> Option<Linear> {
    solve(rows, y).map(Linear)
}

/// The least-squares solution `w` of `rows · w ≈ y`, by the normal equations (a tiny ridge keeps
/// them solvable when a feature is constant on the rows); `None` if they are singular even so.
pub fn solve<const N: usize>(rows: &[[f64; N]], y: &[f64]) -> Option<[f64; N]> {
    let mut a = [[0.0; N]; N];
    let mut b = [0.0; N];
    for (r, &t) in rows.iter().zip(y) {
        for i in 0..N {
            b[i] += r[i] * t;
            for j in 0..N {
                a[i][j] += r[i] * r[j];
            }
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-9;
    }
    // Gaussian elimination with partial pivoting.
    for c in 0..N {
        let p = (c..N).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..N {
            let f = a[r][c] / a[c][c];
            let pivot = a[c];
            for (x, p) in a[r][c..].iter_mut().zip(&pivot[c..]) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    let mut w = [0.0; N];
    for c in (0..N).rev() {
        let s: f64 = (c + 1..N).map(|k| a[c][k] * w[k]).sum();
        w[c] = (b[c] - s) / a[c][c];
    }
    Some(w)
}

/// The share of the variance of `y` the evaluation explains (R²), and its root mean square
/// error.
pub fn fit_quality(eval: &Linear, keys: &[u64], y: &[f64]) -> (f64, f64) {
    let n = y.len() as f64;
    let mean = y.iter().sum::<f64>() / n;
    let (mut sse, mut sst) = (0.0, 0.0);
    for (&k, &t) in keys.iter().zip(y) {
        sse += (eval.eval(k) - t).powi(2);
        sst += (t - mean).powi(2);
    }
    (1.0 - sse / sst, (sse / n).sqrt())
}

/// The full game tree, each node's exact value, and one node for every distinct non-terminal
/// position.
pub struct Positions {
    /// The full game tree.
    pub tree: Tree,
    /// Each node's exact value, by id.
    pub exact: Vec<f64>,
    /// One node per distinct non-terminal position, in id order.
    pub nodes: Vec<NodeId>,
}

impl Positions {
    /// The positions of tic-tac-toe.
    pub fn tic_tac_toe() -> Result<Positions, String> {
        let tree =
            game::generate(&GameSpec::TicTacToe { depth: None }).map_err(|e| e.to_string())?;
        // Every node's exact value: the minimax reference pass.
        let exact = Reference::of(&tree, &Algorithm::Minimax)
            .scalars()
            .expect("a two-player tree has scalar values")
            .to_vec();
        let mut seen = std::collections::HashSet::new();
        let nodes = tree
            .ids()
            .filter(|&id| !tree.is_leaf(id))
            .filter(|&id| seen.insert(tree.key(id).expect("tic-tac-toe has keys")))
            .collect();
        Ok(Positions { tree, exact, nodes })
    }

    fn key(&self, id: NodeId) -> u64 {
        self.tree.key(id).expect("tic-tac-toe has keys")
    }

    /// The share of `nodes` at which a `depth`-ply search with `eval` at its frontier chooses
    /// a correct move (tied best moves share the choice).
    pub fn decision_quality(&self, nodes: &[NodeId], depth: u32, eval: &dyn Fn(u64) -> f64) -> f64 {
        let mut memo = HashMap::new();
        let mut total = 0.0;
        for &n in nodes {
            let max = self.tree.kind(n) == Kind::Max;
            let values: Vec<f64> = self
                .tree
                .children(n)
                .map(|c| self.searched(c, depth - 1, eval, &mut memo))
                .collect();
            let best = values.iter().copied().fold(
                if max {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                |a, v| {
                    if max { a.max(v) } else { a.min(v) }
                },
            );
            let chosen: Vec<NodeId> = self
                .tree
                .children(n)
                .zip(&values)
                .filter(|&(_, &v)| v == best)
                .map(|(c, _)| c)
                .collect();
            let right = chosen
                .iter()
                .filter(|c| self.exact[c.index()] == self.exact[n.index()])
                .count();
            total += right as f64 / chosen.len() as f64;
        }
        total / nodes.len() as f64
    }

    /// Minimax to `depth` plies below `node`: terminal positions at their value, the frontier
    /// by `eval`. Memoised by position and depth (equal keys, equal subtrees).
    fn searched(
        &self,
        node: NodeId,
        depth: u32,
        eval: &dyn Fn(u64) -> f64,
        memo: &mut HashMap<(u64, u32), f64>,
    ) -> f64 {
        if self.tree.is_leaf(node) {
            return self.tree.value(node);
        }
        let key = self.key(node);
        if depth == 0 {
            return eval(key);
        }
        if let Some(&v) = memo.get(&(key, depth)) {
            return v;
        }
        let kids: Vec<NodeId> = self.tree.children(node).collect();
        let vs = kids
            .into_iter()
            .map(|c| self.searched(c, depth - 1, eval, memo));
        let v = if self.tree.kind(node) == Kind::Max {
            vs.fold(f64::NEG_INFINITY, f64::max)
        } else {
            vs.fold(f64::INFINITY, f64::min)
        };
        memo.insert((key, depth), v);
        v
    }
}

/// Random halves for the out-of-sample figures.
pub const HALVES: usize = 20;

/// [`HALVES`] random splits of `n` positions into a training half and a test half, seeded by
/// `seed`.
fn random_halves(n: usize, seed: u64) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut rng = Rng::new(seed);
    (0..HALVES)
        .map(|_| {
            let mut ix: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut ix);
            let test = ix.split_off(n / 2);
            (ix, test)
        })
        .collect()
}

/// The mean and the (sample) standard deviation.
fn mean_and_sd(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let xs: Vec<f64> = xs.collect();
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

/// Chess positions for the slides' method by default, in each of [`CHESS_SEEDS`] sets
/// (`--trials` to choose).
pub const CHESS_POSITIONS: u32 = 1000;

/// Sets of chess positions the slides' method is run on, one a seed from `--seed` on: the
/// spread of the learned values over them says what a single set cannot.
pub const CHESS_SEEDS: u64 = 5;

/// The slides' method on one chess set: its iterations, or why it has none.
type ChessRun = Result<Vec<slides::Iteration<5>>, String>;

/// The slides' method, iterated, on tic-tac-toe and on chess material (`sets`, drawn from
/// `o.seed` on, and `runs`, the method on each): one line per iteration, then each chess set's
/// learned values and their spread.
fn slides_notes(
    p: &Positions,
    o: &Options,
    sets: &[slides::ChessSet],
    runs: &[ChessRun],
) -> Result<Vec<String>, String> {
    let mut notes = vec![format!(
        "The slides' method (no exact values): each position's 2-ply minimax value with the current weights at the frontier, least squares on those, iterated from all weights 1 until no weight moves by more than {} ({} iterations at most).",
        slides::TOLERANCE,
        slides::MAX_ITERATIONS
    )];
    let ttt = slides::tic_tac_toe(p).ok_or("the normal equations are singular")?;
    // The exact values judge each iteration; they are read once.
    let keys: Vec<u64> = p.nodes.iter().map(|&n| p.key(n)).collect();
    let exact: Vec<f64> = p.nodes.iter().map(|&n| p.exact[n.index()]).collect();
    notes.push(format!(
        "Tic-tac-toe, {} positions; weights in the order {}:",
        p.nodes.len(),
        FEATURES.join(", ")
    ));
    for (i, it) in ttt.iter().enumerate() {
        let w: Vec<String> = it.weights.iter().map(|x| format!("{x:+.3}")).collect();
        notes.push(format!(
            "  iteration {i:>2}: {}; R² against the exact values {:.3}; 1-ply correct moves {:.3}{}",
            w.join(" "),
            fit_quality(&Linear(it.weights), &keys, &exact).0,
            p.decision_quality(&p.nodes, 1, &|k| Linear(it.weights).eval(k)),
            change_text(it.change)
        ));
    }
    notes.push(fixed_point_text(&ttt));
    let names: Vec<&str> = slides::PIECES.iter().map(|(_, n)| *n).collect();
    let row = |w: &[f64; 5]| {
        w.iter()
            .map(|x| format!("{x:>5.2}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    notes.push(format!(
        "Chess material, {} sets of {} positions from games of seeded material self-play (seeds {} to {}; --trials to choose how many a set); weights {}, divided by the pawn's. Seed {}'s iterations:",
        sets.len(),
        sets.first().map_or(0, |s| s.features.len()),
        o.seed,
        o.seed + sets.len() as u64 - 1,
        names.join(", "),
        o.seed
    ));
    let mut finals = Vec::with_capacity(sets.len());
    for (i, (set, run)) in sets.iter().zip(runs).enumerate() {
        let seed = o.seed + i as u64;
        let chess = match run {
            Ok(chess) => chess,
            Err(why) => {
                notes.push(format!("  seed {seed}: {why}"));
                continue;
            }
        };
        let last = chess.last().expect("the start");
        if i == 0 {
            for (k, it) in chess.iter().enumerate() {
                notes.push(format!(
                    "  iteration {k:>2}: {}{}",
                    row(&it.weights),
                    change_text(it.change)
                ));
            }
        }
        let r2 = slides::chess_fit_r2(set, &last.weights).ok_or("the chess fit has no solution")?;
        let ordered = last.weights.windows(2).all(|p| p[0] > p[1]);
        notes.push(format!(
            "  seed {seed}: {}; {}; R² {r2:.3}; {}",
            row(&last.weights),
            fixed_point_text(chess).trim_start(),
            if ordered {
                "Q > R > B > N > P"
            } else {
                "not in the order Q > R > B > N > P"
            }
        ));
        finals.push((last.weights, r2, ordered, last.change <= slides::TOLERANCE));
    }
    if finals.is_empty() {
        notes.push("  no seed's set has a least-squares solution".into());
        return Ok(notes);
    }
    let spread: Vec<(f64, f64)> = (0..5)
        .map(|k| mean_and_sd(finals.iter().map(|f| f.0[k])))
        .collect();
    let (r2_mean, r2_sd) = mean_and_sd(finals.iter().map(|f| f.1));
    let median = |k: usize| {
        let mut xs: Vec<f64> = finals.iter().map(|f| f.0[k]).collect();
        xs.sort_by(f64::total_cmp);
        let m = xs.len() / 2;
        if xs.len() % 2 == 1 {
            xs[m]
        } else {
            (xs[m - 1] + xs[m]) / 2.0
        }
    };
    notes.push(format!(
        "  mean ± sd over the {} seeds: {}; R² {r2_mean:.3} ± {r2_sd:.3}",
        finals.len(),
        spread
            .iter()
            .zip(&names)
            .map(|((m, sd), n)| format!("{n} {m:.2} ± {sd:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    notes.push(format!(
        "  median over the {} seeds: {} (an outlying seed moves a mean, not a median)",
        finals.len(),
        (0..5)
            .zip(&names)
            .map(|(k, n)| format!("{n} {:.2}", median(k)))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    notes.push(format!(
        "  the order Q > R > B > N > P holds in {} of {} seeds; a fixed point is reached in {} of {}",
        finals.iter().filter(|f| f.2).count(),
        finals.len(),
        finals.iter().filter(|f| f.3).count(),
        finals.len()
    ));
    notes.push(format!("  the slides' program: {}", row(&slides::SLIDES)));
    notes.push(format!(
        "  classical:           {}",
        row(&slides::CLASSICAL)
    ));
    Ok(notes)
}

/// Whether the outer loop reached a fixed point, and after how many iterations.
fn fixed_point_text<const N: usize>(its: &[slides::Iteration<N>]) -> String {
    let last = its.last().expect("the start");
    if last.change <= slides::TOLERANCE {
        format!("  a fixed point after {} iterations", its.len() - 1)
    } else {
        format!(
            "  no fixed point within {} iterations (the last moved {:.4})",
            slides::MAX_ITERATIONS,
            last.change
        )
    }
}

/// "; moved 0.012" after an iteration's weights (nothing for the start).
fn change_text(change: f64) -> String {
    if change.is_nan() {
        " (start)".into()
    } else {
        format!("; largest move {change:.4}")
    }
}

/// The units of work of a table row (a search depth), each one share of correct moves: the
/// hand-written and the learned evaluation on every position, then the hand-written and the
/// held-out learned one on each random half's test positions.
const UNITS: u32 = 2 + 2 * HALVES as u32;

/// Units of work `eval-learning` counts: `UNITS` a search depth and one a chess candidate
/// (each 1–3 ms: a share of correct moves, a self-play game), then each seed's run of the
/// slides' method at its most ([`loop_work`]), so that the progress bar's estimate covers
/// the serial part after the last candidate too.
pub fn work(o: &Options) -> u64 {
    let count = o.trials_or(CHESS_POSITIONS) as usize;
    o.sizes_or(&DEPTHS).len() as u64 * u64::from(UNITS)
        + CHESS_SEEDS * (slides::candidates_for(count) as u64 + loop_work(count))
}

/// Position-iterations of the chess method that cost about what a candidate does (1.7 µs each
/// against 1.6 ms, measured on this machine's test build).
const POSITION_ITERATIONS_A_UNIT: u64 = 1000;

/// The units of one seed's run of the slides' method on `count` positions at its most
/// ([`slides::MAX_ITERATIONS`]; a run that stops at its fixed point sooner counts them all).
fn loop_work(count: usize) -> u64 {
    (count as u64 * slides::MAX_ITERATIONS as u64).div_ceil(POSITION_ITERATIONS_A_UNIT)
}

/// The search depths of the table: 1 to 6 plies by default (`--sizes` to choose).
const DEPTHS: [u32; 6] = [1, 2, 3, 4, 5, 6];

/// What one unit of work gave, as a shard's part records it.
#[derive(Serialize, Deserialize)]
enum Unit {
    /// A share of correct moves (a table row's unit).
    Share(f64),
    /// A chess candidate of the slides' method, `None` when left out.
    Chess(Option<slides::Drawn>),
}

/// Unit `u` of the table row of depth `d` (see [`UNITS`]).
fn share(
    p: &Positions,
    d: u32,
    u: usize,
    learned: &Linear,
    held_out: &[(Linear, Vec<NodeId>)],
) -> f64 {
    match u {
        0 => p.decision_quality(&p.nodes, d, &hand_written),
        1 => p.decision_quality(&p.nodes, d, &|k| learned.eval(k)),
        u if u < 2 + HALVES => p.decision_quality(&held_out[u - 2].1, d, &hand_written),
        u => {
            let (held, test) = &held_out[u - 2 - HALVES];
            p.decision_quality(test, d, &|k| held.eval(k))
        }
    }
}

/// `eval-learning` (see the module documentation). Its units of work are given out to the
/// shards like trials ([`per_row`]): each share of correct moves of the table (a depth, an
/// evaluation, a half) and each chess candidate's 2-ply expansion. The rest is computed whole,
/// by a shard (what its units need) and by the merge: the positions and their exact values,
/// the least-squares fits, the slides' iterations (each starts from the last one's weights)
/// and the stream of chess candidates (each game takes its random numbers where the last left
/// them).
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    let depths = o.sizes_or(&DEPTHS);
    if let Some(&d) = depths.iter().find(|&&d| d == 0 || d > 9) {
        return Err(format!(
            "search depth {d}: tic-tac-toe positions are searched 1 to 9 plies deep"
        ));
    }
    let p = Positions::tic_tac_toe()?;
    let keys: Vec<u64> = p.nodes.iter().map(|&n| p.key(n)).collect();
    let y: Vec<f64> = p.nodes.iter().map(|&n| p.exact[n.index()]).collect();
    let rows: Vec<[f64; K]> = keys.iter().map(|&k| features(k)).collect();
    let learned = least_squares(&rows, &y).ok_or("the normal equations are singular")?;
    // Out of sample: fitted on a random half of the positions, judged on the other half, over
    // HALVES seeded halves (a split by key parity is not random: the odd keys are the positions
    // with X on corner a1).
    let halves = random_halves(keys.len(), o.seed);
    let mut out_of_sample = Vec::with_capacity(halves.len());
    let mut held_out = Vec::with_capacity(halves.len());
    for (train, test) in &halves {
        let pick_rows: Vec<[f64; K]> = train.iter().map(|&i| rows[i]).collect();
        let pick_y: Vec<f64> = train.iter().map(|&i| y[i]).collect();
        let held = least_squares(&pick_rows, &pick_y).ok_or("the normal equations are singular")?;
        let test_keys: Vec<u64> = test.iter().map(|&i| keys[i]).collect();
        let test_y: Vec<f64> = test.iter().map(|&i| y[i]).collect();
        out_of_sample.push(fit_quality(&held, &test_keys, &test_y));
        held_out.push((
            held,
            test.iter().map(|&i| p.nodes[i]).collect::<Vec<NodeId>>(),
        ));
    }
    let (r2, rmse) = fit_quality(&learned, &keys, &y);
    let (r2_out, r2_spread) = mean_and_sd(out_of_sample.iter().map(|q| q.0));
    let (rmse_out, rmse_spread) = mean_and_sd(out_of_sample.iter().map(|q| q.1));
    let hand_fit = {
        // The hand-written evaluation's own fit, scaled by least squares on it alone.
        let h: Vec<f64> = keys.iter().map(|&k| hand_written(k)).collect();
        let (hh, hy): (f64, f64) = h
            .iter()
            .zip(&y)
            .fold((0.0, 0.0), |(a, b), (h, t)| (a + h * h, b + h * t));
        let s = hy / hh;
        let mean = y.iter().sum::<f64>() / y.len() as f64;
        let sse: f64 = h.iter().zip(&y).map(|(h, t)| (s * h - t).powi(2)).sum();
        let sst: f64 = y.iter().map(|t| (t - mean).powi(2)).sum();
        1.0 - sse / sst
    };
    let count = o.trials_or(CHESS_POSITIONS) as usize;
    let candidates = slides::candidates_for(count);
    let chess = prune::game::chess::Chess::default();
    let mut units = per_row(
        depths.len() + CHESS_SEEDS as usize,
        |row| {
            if row < depths.len() {
                UNITS
            } else {
                candidates as u32
            }
        },
        |row, u| {
            let unit = match depths.get(row) {
                Some(&d) => Unit::Share(share(&p, d, u as usize, &learned, &held_out)),
                None => {
                    let stream = o.seed + (row - depths.len()) as u64;
                    let board = slides::candidate(stream, u64::from(u));
                    Unit::Chess(board.and_then(|b| slides::Drawn::of(&chess, &b)))
                }
            };
            tick(1);
            Ok(unit)
        },
        // A table row's unit is a share, the last row's a chess candidate (checked as it is
        // read: [`slides::Drawn`]).
        |row, _, unit| match (row < depths.len(), unit) {
            (true, Unit::Share(x)) => within("a share of correct moves", *x, 0.0, 1.0),
            (false, Unit::Chess(_)) => Ok(()),
            (true, Unit::Chess(_)) => Err("a chess candidate where a share belongs".into()),
            (false, Unit::Share(_)) => Err("a share where a chess candidate belongs".into()),
        },
    )?;
    let sets = units
        .split_off(depths.len())
        .into_iter()
        .enumerate()
        .map(|(i, drawn)| {
            let drawn = drawn.into_iter().map(|u| match u {
                Unit::Chess(d) => Ok(d),
                Unit::Share(_) => {
                    Err("a part gives a share where a chess candidate belongs".to_string())
                }
            });
            let drawn = drawn.collect::<Result<Vec<_>, _>>()?;
            Ok(slides::ChessSet::gather(drawn, count, o.seed + i as u64))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let table = depths
        .iter()
        .zip(&units)
        .map(|(&d, units)| {
            let shares: Vec<f64> = units
                .iter()
                .map(|u| match u {
                    Unit::Share(x) => Ok(*x),
                    Unit::Chess(_) => Err(format!(
                        "a part gives a chess candidate where a share of depth {d} belongs"
                    )),
                })
                .collect::<Result<_, _>>()?;
            let (hand, learned) = (shares[0], shares[1]);
            let held = &shares[2..];
            Ok(vec![
                Cell::Int(i64::from(d)),
                Cell::Real(hand, 3),
                Cell::Real(learned, 3),
                Cell::Real(mean_and_sd(held[..HALVES].iter().copied()).0, 3),
                Cell::Real(mean_and_sd(held[HALVES..].iter().copied()).0, 3),
            ])
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut notes = vec![
        format!(
            "{} distinct non-terminal positions of the full game tree ({} nodes), each with its exact value (−1, 0, +1 for X).",
            p.nodes.len(),
            p.tree.len()
        ),
        format!(
            "Learned weights (least squares on every position): R² = {r2:.3}, RMSE = {rmse:.3}; fitted on a random half and judged on the other, over {HALVES} seeded halves: R² = {r2_out:.3} ± {r2_spread:.3}, RMSE = {rmse_out:.3} ± {rmse_spread:.3} (mean ± standard deviation). The hand-written evaluation, best scaled, explains R² = {hand_fit:.3}."
        ),
    ];
    for (name, w) in FEATURES.iter().zip(&learned.0) {
        notes.push(format!("  weight {name:<12} {w:+.4}"));
    }
    notes.push(format!("Share of correct moves: a d-ply minimax search chooses among the moves it finds best (tied moves share the choice); a move is correct when its exact value is the position's. The last two columns are means over {HALVES} random halves: judged on one half, the weights fitted on the other."));
    // The seeds' runs are independent: in parallel, each counted when done.
    let runs: Vec<ChessRun> = sets
        .par_iter()
        .map(|set| {
            let run = slides::chess(set);
            tick(loop_work(count));
            run
        })
        .collect();
    notes.extend(slides_notes(&p, o, &sets, &runs)?);
    Ok(Report {
        title: "Evaluation learning: the slides' method on chess material, and on tic-tac-toe a linear evaluation fitted to the exact values against the hand-written one".into(),
        columns: vec![
            col("depth", "search depth"),
            col("hand", "hand-written"),
            col("learned", "learned"),
            col("hand_heldout", "hand-written (held-out halves)"),
            col("learned_heldout", "learned out of sample"),
        ],
        rows: table,
        notes,
        plot: Some(Plot {
            x: "depth",
            series: vec![
                measured("hand", "hand-written weights"),
                measured("learned", "learned weights"),
                measured("learned_heldout", "learned, out of sample"),
            ],
            series_by: vec![],
            x_label: "search depth (plies)",
            y_label: "share of positions where the search picks the right move",
            y_percent_of_x_cubed: false,
            only: None,
            beside: chess_figure(o, &runs),
        }),
    })
}

/// The chart of the chess runs: each piece's value in pawns per iteration, a thin line a seed
/// and a thick one for their mean, the slides' and the classical values marked; `None` when no
/// seed's set has a fit.
fn chess_figure(o: &Options, runs: &[ChessRun]) -> Option<Figure> {
    let fitted: Vec<&Vec<slides::Iteration<5>>> = runs.iter().flatten().collect();
    let longest = fitted.iter().map(|r| r.len()).max()?;
    let pieces = &slides::PIECES[..4];
    let groups = pieces
        .iter()
        .enumerate()
        .map(|(k, (_, name))| Group {
            label: format!("{name} ÷ pawn"),
            runs: fitted
                .iter()
                .map(|r| {
                    (0..)
                        .zip(r.iter())
                        .map(|(i, it)| (i as f64, it.weights[k]))
                        .collect()
                })
                .collect(),
            // A seed that stopped at its fixed point keeps its last value, so the mean runs
            // over every fitted seed at every iteration.
            summary: (0..longest)
                .map(|i| {
                    let at = |r: &&Vec<slides::Iteration<5>>| r[i.min(r.len() - 1)].weights[k];
                    (i as f64, mean_and_sd(fitted.iter().map(at)).0)
                })
                .collect(),
        })
        .collect();
    let initial = |k: usize| ["Q", "R", "B", "N"][k].to_string();
    let mut values: Vec<f64> = slides::SLIDES[..4]
        .iter()
        .chain(&slides::CLASSICAL[..4])
        .copied()
        .collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let marks = values
        .into_iter()
        .map(|y| {
            let of = |table: &[f64; 5], who: &str| {
                let names: Vec<String> = (0..4).filter(|&k| table[k] == y).map(initial).collect();
                (!names.is_empty()).then(|| format!("{who} {}", names.join(", ")))
            };
            let who: Vec<String> = [
                of(&slides::SLIDES, "slides"),
                of(&slides::CLASSICAL, "classical"),
            ]
            .into_iter()
            .flatten()
            .collect();
            Mark {
                y,
                label: format!("{y}: {}", who.join("; ")),
            }
        })
        .collect();
    let seeds = runs.len() as u64;
    Some(Figure {
        title: format!(
            "Chess material, the slides' method: thin lines one seed each ({} of seeds {} to {} fitted), thick their mean",
            fitted.len(),
            o.seed,
            o.seed + seeds - 1
        ),
        table_title:
            "Tic-tac-toe, the reference fit to the exact values: correct moves against search depth"
                .into(),
        x_label: "iteration of the outer loop",
        y_label: "value in pawns",
        groups,
        marks,
        marks_label: "the slides' 8/4/4/3 and the classical 9/5/3/3".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written evaluation is the one the generator stores at every interior node.
    #[test]
    fn the_hand_written_evaluation_is_the_trees() {
        let p = Positions::tic_tac_toe().unwrap();
        for &n in &p.nodes {
            assert_eq!(p.tree.heuristic(n), Some(hand_written(p.key(n))));
        }
        // 5,478 legal positions, of which 958 are terminal (OEIS A008907's total).
        assert_eq!(p.nodes.len(), 5478 - 958);
        assert_eq!(p.exact[p.tree.root().index()], 0.0);
    }

    /// Least squares recovers weights that generated the data exactly.
    #[test]
    fn least_squares_recovers_known_weights() {
        let p = Positions::tic_tac_toe().unwrap();
        let truth = Linear([0.1, 0.3, -0.2, 0.05, 0.7, -0.4, 0.25, 0.15, 0.9, -0.6]);
        let keys: Vec<u64> = p.nodes.iter().map(|&n| p.key(n)).collect();
        let rows: Vec<[f64; K]> = keys.iter().map(|&k| features(k)).collect();
        let y: Vec<f64> = keys.iter().map(|&k| truth.eval(k)).collect();
        let fit = least_squares(&rows, &y).unwrap();
        for (a, b) in fit.0.iter().zip(&truth.0) {
            assert!((a - b).abs() < 1e-6, "{fit:?}");
        }
        assert!((fit_quality(&fit, &keys, &y).0 - 1.0).abs() < 1e-9);
    }

    /// The progress bar's length is what a run ticks, the slides' chess runs included (they
    /// come after the last candidate and took the bar's last second at "eta 0s").
    #[test]
    fn a_run_ticks_the_work_it_announces() {
        let o = Options {
            trials: Some(40),
            sizes: Some(vec![1]),
            ..Default::default()
        };
        let ticked = std::sync::atomic::AtomicU64::new(0);
        let counted = |n| {
            ticked.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        };
        run(&o, &counted).unwrap();
        let ticked = ticked.into_inner();
        assert_eq!(ticked, work(&o));
        let candidates = u64::from(UNITS) + CHESS_SEEDS * slides::candidates_for(40) as u64;
        assert_eq!(ticked - candidates, CHESS_SEEDS * loop_work(40));
        assert_eq!(loop_work(40), 4, "40 positions × 100 iterations");
    }

    /// Random halves split the positions in two disjoint halves that cover them, differently
    /// each time, the same for the same seed.
    #[test]
    fn random_halves_are_halves() {
        let halves = random_halves(101, 9);
        assert_eq!(halves.len(), HALVES);
        for (train, test) in &halves {
            let mut all: Vec<usize> = train.iter().chain(test).copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..101).collect::<Vec<_>>());
            assert_eq!(train.len(), 50);
        }
        assert_ne!(halves[0], halves[1]);
        assert_eq!(random_halves(101, 9), halves);
        assert_eq!(mean_and_sd([1.0, 3.0].into_iter()), (2.0, 2f64.sqrt()));
    }

    /// Searching to the end (9 plies) is always right, whatever the evaluation; one ply with a
    /// useless evaluation is right only by luck; the learned evaluation beats the hand-written
    /// one at one ply.
    #[test]
    fn deeper_search_converges_to_perfect_play() {
        let p = Positions::tic_tac_toe().unwrap();
        assert_eq!(p.decision_quality(&p.nodes, 9, &|_| 0.0), 1.0);
        let r = run(
            &Options {
                sizes: Some(vec![1, 9]),
                ..Default::default()
            },
            &|_| {},
        )
        .unwrap();
        let one = |c: &str| r.get(0, c).clone();
        let (Cell::Real(hand, _), Cell::Real(learned, _)) = (one("hand"), one("learned")) else {
            panic!("{r:?}")
        };
        assert!(learned > hand, "{}", r.table());
        assert_eq!(r.get(1, "hand"), &Cell::Real(1.0, 3));
        assert_eq!(r.get(1, "learned_heldout"), &Cell::Real(1.0, 3));
    }
}
