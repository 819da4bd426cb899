//! Pearl's WIN-LOSS trees (the slides, "WIN-LOSS Trees"): a uniform tree of branching b and even
//! depth d, Max at the root, each leaf a WIN for Max with probability P0. The probability that
//! the root is a forced win follows exactly from the leaves up — a Min node wins when every child
//! does (x ↦ x^b), a Max node when one does (x ↦ 1 − (1 − x)^b) — and two levels together iterate
//! f(x) = 1 − (1 − x^b)^b, whose fixed point is ξ_b, the root of x^b + x − 1 = 0 (0.618 for
//! b = 2). As d grows the root is a win when P0 > ξ_b and a loss when P0 < ξ_b. Beside the exact
//! probability we print the share of `--trials` generated trees (default 200) that minimax finds
//! won, and alpha-beta's effective branching factor leaves^(1/d) beside its limit as d grows
//! (Pearl, on the slides' "Average-case time complexity" pages): ξ_b/(1 − ξ_b) ≈ b^{3/4} when
//! P0 = ξ_b, b^{1/2} otherwise.

use super::plot::{Plot, measured};
use super::{Cell, Options, Report, Tick, between, col, leaves_of, nodes_of, per_row, seed, stats};
use prune::generate::winloss::{self, WinLoss};
use prune::search::{self, Algorithm};

const BRANCHING: [u32; 2] = [2, 3];
const DEPTHS: [u32; 3] = [4, 8, 12];

/// ξ_b: the root of x^b + x − 1 = 0 in (0, 1), by bisection.
pub fn xi(b: u32) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if mid.powi(b as i32) + mid - 1.0 > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Pearl's asymptotic effective branching factor of alpha-beta on b-ary WIN-LOSS trees whose
/// leaves win with probability `p0`: ξ_b/(1 − ξ_b) at P0 = ξ_b (the "extremely rare case" of the
/// slides), b^{1/2} for every other P0 (one child at the levels where the value is certain, b at
/// the others).
pub fn pearl_ebf(b: u32, p0: f64) -> f64 {
    let x = xi(b);
    if (p0 - x).abs() < 1e-9 {
        x / (1.0 - x)
    } else {
        f64::from(b).sqrt()
    }
}

/// The exact probability that the root of a b-ary WIN-LOSS tree of depth d is a win for Max.
pub fn win_probability(b: u32, d: u32, p0: f64) -> f64 {
    let mut x = p0;
    for level in (0..d).rev() {
        x = if level % 2 == 0 {
            1.0 - (1.0 - x).powi(b as i32)
        } else {
            x.powi(b as i32)
        };
    }
    x
}

fn grid(o: &Options) -> Vec<(u32, u32, f64)> {
    let mut rows = Vec::new();
    for b in o.sizes_or(&BRANCHING) {
        for d in DEPTHS {
            if u64::from(b).checked_pow(d).is_none_or(|n| n > 10_000) {
                continue;
            }
            let mut ps: Vec<f64> = (1..=9).map(|k| f64::from(k) / 10.0).collect();
            ps.push(xi(b));
            ps.sort_by(f64::total_cmp);
            rows.extend(ps.into_iter().map(|p| (b, d, p)));
        }
    }
    rows
}

/// The work of `win-loss`: each tree weighs its nodes (generated, then searched by minimax
/// whole).
pub fn work(o: &Options) -> u64 {
    let trials = u64::from(o.trials_or(200));
    grid(o)
        .iter()
        .map(|&(b, d, _)| trials * nodes_of(b, d))
        .sum()
}

/// `win-loss` (see the module documentation).
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    if let Some(b) = o.sizes_or(&BRANCHING).iter().find(|&&b| b < 2) {
        return Err(format!("b = {b}: the branching factor must be at least 2"));
    }
    let trials = o.trials_or(200);
    let grid = grid(o);
    let per_trial = per_row(
        grid.len(),
        |_| trials,
        |row, t| {
            let (b, d, p0) = grid[row];
            let p = WinLoss {
                branching: b,
                depth: d,
                p0,
                board: false,
            };
            let tree = winloss::generate(&p, seed(o.seed, row as u64, u64::from(t)))
                .map_err(|e| e.to_string())?;
            let v = search::search(&tree, &Algorithm::Minimax, &mut search::Quiet)
                .map_err(|e| e.to_string())?
                .0;
            let won = v.value.scalar() == Some(1.0);
            let leaves = stats(&tree, &Algorithm::AlphaBeta { fail_soft: false }).leaves;
            tick(nodes_of(b, d));
            Ok((won, leaves))
        },
        // Proving a win takes a Max strategy (b leaves at each of the d/2 Min levels), a loss
        // a Min strategy (b at each Max level): b^(d/2) leaves at least, b^d at most.
        |row, _, &(_, leaves)| {
            let (b, d, _) = grid[row];
            between(
                "alpha-beta's leaves",
                leaves,
                leaves_of(b, d / 2),
                leaves_of(b, d),
            )
        },
    )?;
    let rows: Vec<Vec<Cell>> = grid
        .iter()
        .zip(per_trial)
        .map(|(&(b, d, p0), results)| {
            let (mut wins, mut leaves) = (0u32, 0u64);
            for (won, l) in results {
                wins += u32::from(won);
                leaves += l;
            }
            let mean_leaves = leaves as f64 / f64::from(trials);
            vec![
                Cell::Int(i64::from(b)),
                Cell::Int(i64::from(d)),
                Cell::Real(p0, 3),
                Cell::Real(win_probability(b, d, p0), 3),
                Cell::Real(f64::from(wins) / f64::from(trials), 3),
                Cell::Real(mean_leaves, 1),
                Cell::Real(mean_leaves.powf(1.0 / f64::from(d)), 3),
                Cell::Real(pearl_ebf(b, p0), 3),
            ]
        })
        .collect();
    let xis: Vec<String> = o
        .sizes_or(&BRANCHING)
        .iter()
        .map(|&b| format!("ξ_{b} = {:.4}", xi(b)))
        .collect();
    Ok(Report {
        title: format!("Pearl's WIN-LOSS trees: P(root is a forced win) against P0 ({trials} trees a row, seed {})", o.seed),
        columns: vec![
            col("b", "b"),
            col("d", "d"),
            col("p0", "P0"),
            col("win_probability", "P(win) exact"),
            col("win_share", "share won"),
            col("alphabeta_leaves", "αβ leaves"),
            col("alphabeta_ebf", "αβ EBF"),
            col("pearl_ebf", "Pearl d→∞"),
        ],
        rows,
        notes: vec![
            format!("Crossover: {} (roots of x^b + x − 1 = 0; the rows at P0 = ξ_b stay near their start as d grows).", xis.join(", ")),
            "P(win) exact iterates x^b at Min levels and 1 − (1 − x)^b at Max levels from P0 at the leaves.".into(),
            "Pearl d→∞: alpha-beta's effective branching factor as d grows (the slides, after Pearl): ξ_b/(1 − ξ_b) ≈ b^{3/4} at P0 = ξ_b, b^{1/2} at every other P0; the measured EBF approaches it slowly, from above, since leaves^(1/d) carries the constant factor.".into(),
        ],
        plot: Some(Plot {
            x: "p0",
            series: vec![measured("win_probability", "P(win), exact"), measured("win_share", "share won")],
            series_by: vec!["b", "d"],
            x_label: "P0, probability that a leaf is a win",
            y_label: "probability the root is a forced win",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}

/// One step of the two-level iteration: f(x) = 1 − (1 − x^b)^b.
pub fn f(b: u32, x: f64) -> f64 {
    1.0 - (1.0 - x.powi(b as i32)).powi(b as i32)
}

/// Trees `win-loss-map` searches.
pub fn map_work(_: &Options) -> u64 {
    1
}

/// The iteration f(x) = 1 − (1 − x^b)^b on a grid of x, with f applied 1, 2 and 4 times: the
/// curves cross the diagonal at ξ_b and sharpen into a step there.
pub fn map(o: &Options, tick: Tick) -> Result<Report, String> {
    let bs = o.sizes_or(&BRANCHING);
    if let Some(b) = bs.iter().find(|&&b| b < 2) {
        return Err(format!("b = {b}: the branching factor must be at least 2"));
    }
    let mut rows = Vec::new();
    for &b in &bs {
        for i in 0..=50 {
            let x = f64::from(i) / 50.0;
            let f1 = f(b, x);
            let f2 = f(b, f1);
            let f4 = f(b, f(b, f2));
            rows.push(vec![
                Cell::Int(i64::from(b)),
                Cell::Real(x, 2),
                Cell::Real(f1, 4),
                Cell::Real(f2, 4),
                Cell::Real(f4, 4),
            ]);
        }
    }
    tick(1);
    let xis: Vec<String> = bs
        .iter()
        .map(|&b| format!("ξ_{b} = {:.4}", xi(b)))
        .collect();
    Ok(Report {
        title:
            "Pearl's WIN-LOSS trees: the iteration f(x) = 1 − (1 − x^b)^b (two levels of the tree)"
                .into(),
        columns: vec![
            col("b", "b"),
            col("x", "x"),
            col("f", "f(x)"),
            col("f2", "f(f(x))"),
            col("f4", "f⁴(x)"),
        ],
        rows,
        notes: vec![format!(
            "Fixed points: {}. Below ξ_b the iterates fall to 0 (the root is lost), above it they rise to 1.",
            xis.join(", ")
        )],
        plot: Some(Plot {
            x: "x",
            series: vec![
                measured("f", "f(x), one iteration"),
                measured("f2", "f²(x), two iterations"),
                measured("f4", "f⁴(x), four iterations"),
            ],
            series_by: vec!["b"],
            x_label: "x (probability of a win two levels down)",
            y_label: "probability of a win at the root",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}
