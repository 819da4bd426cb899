//! Knuth & Moore (1975): leaves evaluated by alpha-beta and its successors on uniform trees of
//! branching b and depth d, perfectly ordered, randomly ordered and worst ordered, beside the
//! minimal tree b^⌈d/2⌉ + b^⌊d/2⌋ − 1 (§6) — which every algorithm must examine — and the whole
//! tree b^d. Random rows are means over `--trials` trees (default 20); best and worst orders are
//! one tree each (every tree of that order gives the same counts).

use super::plot::{Plot, measured};
use super::{
    Cell, Options, Report, Tick, between, col, exactly, leaves_of, nodes_of, per_row, seed, stats,
};
use prune::analyze::minimal_leaves;
use prune::generate::Values;
use prune::generate::uniform::{self, Order, Uniform};
use prune::search::Algorithm;

const BRANCHING: [u32; 4] = [2, 3, 4, 8];
const MAX_LEAVES: u64 = 300_000;

fn algorithms() -> [Algorithm; 4] {
    [
        Algorithm::AlphaBeta { fail_soft: false },
        Algorithm::NegaScout,
        Algorithm::Sss,
        Algorithm::Mtdf { guess: None },
    ]
}

/// The (b, d, order) rows: depths 2 to 8 while b^d stays small.
fn grid(o: &Options) -> Vec<(u32, u32, Order)> {
    let mut rows = Vec::new();
    for b in o.sizes_or(&BRANCHING) {
        for d in 2..=8u32 {
            if u64::from(b).checked_pow(d).is_none_or(|n| n > MAX_LEAVES) {
                break;
            }
            for order in [Order::Best, Order::Random, Order::Worst] {
                rows.push((b, d, order));
            }
        }
    }
    rows
}

fn trials(o: &Options, order: Order) -> u32 {
    if order == Order::Random {
        o.trials_or(20)
    } else {
        1
    }
}

/// Alpha-beta's effective branching factor as d grows: b^{1/2} perfectly ordered (the minimal
/// tree), b worst ordered, and Pearl's ξ_b/(1 − ξ_b) in random order with continuous values.
pub fn limit_ebf(b: u32, order: Order) -> f64 {
    match order {
        Order::Best => f64::from(b).sqrt(),
        Order::Worst => f64::from(b),
        Order::Random => {
            let x = super::win_loss::xi(b);
            x / (1.0 - x)
        }
    }
}

/// The work of `knuth-moore`: each tree weighs its nodes (generating it and searching it four
/// times both grow with them; b^d ranges over five orders of magnitude).
pub fn work(o: &Options) -> u64 {
    grid(o)
        .iter()
        .map(|&(b, d, ord)| u64::from(trials(o, ord)) * nodes_of(b, d))
        .sum()
}

/// `knuth-moore` (see the module documentation).
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    if let Some(b) = o.sizes_or(&BRANCHING).iter().find(|&&b| b < 2) {
        return Err(format!("b = {b}: the branching factor must be at least 2"));
    }
    let rows = grid(o);
    let per_trial = per_row(
        rows.len(),
        |row| trials(o, rows[row].2),
        |row, t| {
            let (b, d, order) = rows[row];
            // Real values: distinct leaves, as the worst order needs.
            let values = Values {
                lo: 0.0,
                hi: 1.0,
                real: true,
            };
            let p = Uniform {
                branching: b,
                depth: d,
                values,
                order,
            };
            let tree = uniform::generate(&p, seed(o.seed, row as u64, u64::from(t)))
                .map_err(|e| e.to_string())?;
            let leaves = algorithms().map(|a| stats(&tree, &a).leaves);
            tick(nodes_of(b, d));
            Ok(leaves)
        },
        |row, _, leaves| {
            // Alpha-beta and SSS* evaluate a leaf once; NegaScout's re-searches at most double
            // a level's; each of MTD(f)'s null-window passes evaluates a leaf at most once, and
            // it makes at most one pass a distinct leaf value, and two more. Each finds the
            // root's exact value, so each evaluates the minimal tree at least (Knuth & Moore
            // §6: a Max and a Min strategy, one leaf in common); alpha-beta exactly that on a
            // perfectly ordered tree, and every leaf on a worst-ordered one (distinct values).
            let (b, d, order) = rows[row];
            let l = leaves_of(b, d);
            let least = minimal_leaves(u64::from(b), d);
            let most = [l, l.saturating_mul(1 << d), l, l.saturating_mul(l + 2)];
            for ((a, &x), most) in algorithms().iter().zip(leaves).zip(most) {
                between(&format!("{a}'s leaves"), x, least, most)?;
            }
            match order {
                Order::Best => exactly("alpha-beta's leaves", leaves[0], least),
                Order::Worst => exactly("alpha-beta's leaves", leaves[0], l),
                Order::Random => Ok(()),
            }
        },
    )?;
    let computed: Vec<Vec<Cell>> = rows
        .iter()
        .zip(per_trial)
        .map(|(&(b, d, order), leaves)| {
            let k = trials(o, order);
            let mut sums = [0u64; 4];
            for l in leaves {
                for (s, x) in sums.iter_mut().zip(l) {
                    *s += x;
                }
            }
            let order_name = match order {
                Order::Best => "best",
                Order::Random => "random",
                Order::Worst => "worst",
            };
            let mean = |x: u64| Cell::Real(x as f64 / f64::from(k), 1);
            let minimal = minimal_leaves(u64::from(b), d);
            let mut cells = vec![
                Cell::Int(i64::from(b)),
                Cell::Int(i64::from(d)),
                Cell::Text(order_name.into()),
                Cell::Int(u64::from(b).pow(d) as i64),
                Cell::Int(minimal as i64),
            ];
            cells.extend(sums.iter().map(|&s| mean(s)));
            cells.push(Cell::Real(
                sums[0] as f64 / f64::from(k) / minimal as f64,
                3,
            ));
            let ab = sums[0] as f64 / f64::from(k);
            cells.push(Cell::Real(ab.powf(1.0 / f64::from(d)), 3));
            cells.push(Cell::Real(limit_ebf(b, order), 3));
            cells
        })
        .collect();
    Ok(Report {
        title: format!("Knuth & Moore 1975: leaves evaluated on uniform trees (random rows: mean of {} trees, seed {})", o.trials_or(20), o.seed),
        columns: vec![
            col("b", "b"),
            col("d", "d"),
            col("order", "order"),
            col("leaves", "b^d"),
            col("minimal", "minimal"),
            col("alphabeta", "alphabeta"),
            col("negascout", "negascout"),
            col("sss", "SSS*"),
            col("mtdf", "MTD(f)"),
            col("alphabeta_over_minimal", "αβ/minimal"),
            col("alphabeta_ebf", "αβ EBF"),
            col("limit_ebf", "d→∞"),
        ],
        rows: computed,
        notes: vec![
            "minimal = b^⌈d/2⌉ + b^⌊d/2⌋ − 1 (Knuth & Moore §6): alpha-beta's count on perfectly ordered trees, and a lower bound for every algorithm.".into(),
            "Leaf evaluations: NegaScout re-searches and MTD(f)'s later passes count again (leaves answered from MTD(f)'s memory do not).".into(),
            "NegaScout follows Reinefeld & Marsland's Figure 2, which re-searches a failing-high leaf too; with real values (no ties) random and worst orders make it re-search often.".into(),
            "MTD(f) starts from the middle of the value range, so even on a perfectly ordered tree it needs a second pass.".into(),
            "αβ EBF = alpha-beta's leaves^(1/d). d→∞: its limit as d grows — b^{1/2} in the best order (Knuth & Moore), b in the worst, and Pearl's ξ_b/(1 − ξ_b) ≈ b^{3/4} in random order with continuous leaf values (ξ_b the root of x^b + x − 1 = 0; the slides, after Pearl). The measured EBF approaches it from above as d grows.".into(),
        ],
        plot: Some(Plot {
            x: "d",
            series: vec![
                measured("minimal", "minimal tree"),
                measured("alphabeta", "alpha-beta"),
                measured("negascout", "NegaScout"),
                measured("sss", "SSS*"),
                measured("mtdf", "MTD(f)"),
            ],
            series_by: vec!["b"],
            x_label: "depth d (plies)",
            y_label: "mean leaves evaluated, random order",
            y_percent_of_x_cubed: false,
            only: Some(("order", "random")),
            beside: None,
        }),
    })
}
