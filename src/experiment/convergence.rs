//! The minimax convergence theorem (the slides, after Pearl): with i.i.d. leaf values of
//! distribution F on a uniform b-ary tree, Max at the root and an even depth, the root's value
//! concentrates as the depth grows at v* with F(v*) = 1 − ξ_b, ξ_b the root of x^b + x − 1 = 0.
//! The leaves here are uniform on [0, 1], so F(v) = v and v* = 1 − ξ_b (0.382 for b = 2). Each
//! row is `--trials` trees (default 200): the mean and standard deviation of the root value,
//! and the share of roots within 0.05 of v*.

use super::plot::{Plot, measured};
use super::win_loss::xi;
use super::{Cell, Options, Report, Tick, col, nodes_of, per_row, seed, within};
use prune::generate::Values;
use prune::generate::uniform::{self, Order, Uniform};
use prune::search::{self, Algorithm};

const BRANCHING: [u32; 2] = [2, 3];

fn grid(o: &Options) -> Vec<(u32, u32)> {
    let mut rows = Vec::new();
    for b in o.sizes_or(&BRANCHING) {
        for d in (2..=20u32).step_by(2) {
            if u64::from(b).checked_pow(d).is_none_or(|n| n > 300_000) {
                break;
            }
            rows.push((b, d));
        }
    }
    rows
}

/// The work of `convergence`: each tree weighs its nodes (generating it is most of a trial).
pub fn work(o: &Options) -> u64 {
    let trials = u64::from(o.trials_or(200));
    grid(o).iter().map(|&(b, d)| trials * nodes_of(b, d)).sum()
}

/// `convergence` (see the module documentation).
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    if let Some(b) = o.sizes_or(&BRANCHING).iter().find(|&&b| b < 2) {
        return Err(format!("b = {b}: the branching factor must be at least 2"));
    }
    let trials = o.trials_or(200);
    let grid = grid(o);
    let roots = per_row(
        grid.len(),
        |_| trials,
        |row, t| {
            let (b, d) = grid[row];
            let values_spec = Values {
                lo: 0.0,
                hi: 1.0,
                real: true,
            };
            let p = Uniform {
                branching: b,
                depth: d,
                values: values_spec,
                order: Order::Random,
            };
            let tree = uniform::generate(&p, seed(o.seed, row as u64, u64::from(t)))
                .map_err(|e| e.to_string())?;
            // Alpha-beta finds minimax's value; it is the quickest way to it.
            let found = search::search(
                &tree,
                &Algorithm::AlphaBeta { fail_soft: false },
                &mut search::Quiet,
            )
            .map_err(|e| e.to_string())?
            .0;
            tick(nodes_of(b, d));
            Ok(found.value.scalar().expect("a two-player tree"))
        },
        // The root's value is one of the leaves', drawn from 0..=1.
        |_, _, &v| within("the root's value", v, 0.0, 1.0),
    )?;
    let rows: Vec<Vec<Cell>> = grid
        .iter()
        .zip(roots)
        .map(|(&(b, d), values)| {
            let v_star = 1.0 - xi(b);
            let k = f64::from(trials);
            let mean = values.iter().sum::<f64>() / k;
            let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / k).sqrt();
            let near = values
                .iter()
                .filter(|v| (*v - v_star).abs() <= 0.05)
                .count() as f64
                / k;
            vec![
                Cell::Int(i64::from(b)),
                Cell::Int(i64::from(d)),
                Cell::Real(v_star, 4),
                Cell::Real(mean, 4),
                Cell::Real(sd, 4),
                Cell::Real(near, 3),
            ]
        })
        .collect();
    Ok(Report {
        title: format!(
            "Minimax convergence: root value of uniform trees with i.i.d. U(0,1) leaves ({trials} trees a row, seed {})",
            o.seed
        ),
        columns: vec![
            col("b", "b"),
            col("d", "d"),
            col("v_star", "v* = 1 − ξ_b"),
            col("mean", "mean root"),
            col("sd", "sd"),
            col("share_near", "share within 0.05"),
        ],
        rows,
        notes: vec!["As d grows the mean tends to v* and the standard deviation to 0.".into()],
        plot: Some(Plot {
            x: "d",
            series: vec![
                measured("mean", "mean root value"),
                measured("sd", "standard deviation"),
            ],
            series_by: vec!["b"],
            x_label: "depth d (plies)",
            y_label: "root value (a probability)",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}
