//! max^n with and without immediate and shallow pruning (the slides; Korf 1991) on n-player
//! constant-sum trees (`gen multiplayer`): leaves and nodes against depth, the effective
//! branching factor leaves^(1/d), and Korf's best case for shallow pruning, an effective
//! branching factor of (1 + √(4b − 3))/2. Means over `--trials` trees (default 50); both
//! searches return the same vector on every tree (checked as the rows are computed). The
//! slides' example where deep pruning would give a wrong answer is `trees/maxn-deep-pruning-failure.ron`,
//! checked in the test suite.

use super::plot::{Plot, measured};
use super::{
    Cell, Options, Report, Tick, between, col, exactly, leaves_of, nodes_of, per_row, seed, stats,
};
use prune::generate::multiplayer::{self, Multiplayer};
use prune::search::{self, Algorithm};

const BRANCHING: [u32; 2] = [3, 5];
const PLAYERS: u32 = 3;
const SUM: u32 = 10;

fn grid(o: &Options) -> Vec<(u32, u32)> {
    let mut rows = Vec::new();
    for b in o.sizes_or(&BRANCHING) {
        for d in 2..=9u32 {
            if u64::from(b).checked_pow(d).is_none_or(|n| n > 200_000) {
                break;
            }
            rows.push((b, d));
        }
    }
    rows
}

/// The work of `maxn`: each tree weighs its nodes (max^n visits them all).
pub fn work(o: &Options) -> u64 {
    let trials = u64::from(o.trials_or(50));
    grid(o).iter().map(|&(b, d)| trials * nodes_of(b, d)).sum()
}

/// `maxn` (see the module documentation).
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    if let Some(b) = o.sizes_or(&BRANCHING).iter().find(|&&b| b < 2) {
        return Err(format!("b = {b}: the branching factor must be at least 2"));
    }
    let trials = o.trials_or(50);
    let grid = grid(o);
    let per_trial = per_row(
        grid.len(),
        |_| trials,
        |row, t| {
            let (b, d) = grid[row];
            let p = Multiplayer {
                players: PLAYERS,
                branching: b,
                depth: d,
                sum: SUM,
            };
            let tree = multiplayer::generate(&p, seed(o.seed, row as u64, u64::from(t)))
                .map_err(|e| e.to_string())?;
            let plain = stats(&tree, &Algorithm::Maxn);
            let shallow = stats(&tree, &Algorithm::MaxnShallow);
            let a = search::run(&tree, &Algorithm::Maxn)
                .map_err(|e| e.to_string())?
                .value;
            let b2 = search::search(&tree, &Algorithm::MaxnShallow, &mut search::Quiet)
                .map_err(|e| e.to_string())?
                .0
                .value;
            if a != b2 {
                return Err(format!(
                    "shallow pruning disagrees with max^n on tree {t} of row {row}"
                ));
            }
            tick(nodes_of(b, d));
            Ok([plain.leaves, plain.nodes, shallow.leaves, shallow.nodes])
        },
        |row, _, counts| {
            // max^n visits every node once; shallow pruning visits a node at most once, a leaf
            // at least and the path to it, and no more than max^n.
            let (b, d) = grid[row];
            let [leaves, nodes, shallow_leaves, shallow_nodes] = *counts;
            exactly("max^n's leaves", leaves, leaves_of(b, d))?;
            exactly("max^n's nodes", nodes, nodes_of(b, d))?;
            between("shallow's leaves", shallow_leaves, 1, leaves)?;
            between(
                "shallow's nodes",
                shallow_nodes,
                shallow_leaves.saturating_add(u64::from(d)),
                nodes,
            )
        },
    )?;
    let rows: Vec<Vec<Cell>> = grid
        .iter()
        .zip(per_trial)
        .map(|(&(b, d), counts)| {
            let mut sums = [0u64; 4];
            for c in counts {
                for (s, x) in sums.iter_mut().zip(c) {
                    *s += x;
                }
            }
            let k = f64::from(trials);
            let ebf = |leaves: u64| (leaves as f64 / k).powf(1.0 / f64::from(d));
            vec![
                Cell::Int(i64::from(b)),
                Cell::Int(i64::from(d)),
                Cell::Real(sums[0] as f64 / k, 1),
                Cell::Real(sums[1] as f64 / k, 1),
                Cell::Real(sums[2] as f64 / k, 1),
                Cell::Real(sums[3] as f64 / k, 1),
                Cell::Real(100.0 * sums[2] as f64 / sums[0] as f64, 1),
                Cell::Real(ebf(sums[0]), 3),
                Cell::Real(ebf(sums[2]), 3),
                Cell::Real((1.0 + (4.0 * f64::from(b) - 3.0).sqrt()) / 2.0, 3),
            ]
        })
        .collect();
    Ok(Report {
        title: format!(
            "max^n with and without shallow pruning: {PLAYERS} players, payoffs summing to {SUM}, mean of {trials} trees a row (seed {})",
            o.seed
        ),
        columns: vec![
            col("b", "b"),
            col("d", "d"),
            col("maxn_leaves", "max^n leaves"),
            col("maxn_nodes", "nodes"),
            col("shallow_leaves", "shallow leaves"),
            col("shallow_nodes", "nodes"),
            col("shallow_percent", "% of max^n"),
            col("maxn_ebf", "EBF max^n"),
            col("shallow_ebf", "EBF shallow"),
            col("korf_best_ebf", "Korf best"),
        ],
        rows,
        notes: vec![
            "Korf best = (1 + √(4b − 3))/2: shallow pruning's effective branching factor on the best-ordered trees; random trees stay close to b.".into(),
            "Leaves are random compositions of the sum into non-negative parts, so the immediate-pruning bound (the whole sum) is rarely reached.".into(),
        ],
        plot: Some(Plot {
            x: "d",
            series: vec![
                measured("maxn_ebf", "max^n"),
                measured("shallow_ebf", "shallow pruning"),
                measured("korf_best_ebf", "Korf's best case"),
            ],
            series_by: vec!["b"],
            x_label: "depth d (plies)",
            y_label: "effective branching factor (leaves^(1/d))",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}
