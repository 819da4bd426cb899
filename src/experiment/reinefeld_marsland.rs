//! Reinefeld & Marsland (1987), "A Quantitative Analysis of Minimal Window Search": the
//! recursive cost model of §2–4, evaluated.
//!
//! An averagely ordered uniform tree of width w and depth d has 1 + g children searched at cut
//! nodes (g extra expansions) and r changes of the principal variation at type-1 nodes; k is the
//! cost of an interior node, e of a leaf. The model gives NegaScout's cost N1_d (re-search by
//! self-call), NS^αβ's N1^αβ_d and alpha-beta's A1_d:
//!
//! ```text
//! N1_d = k + (r+1)N1_{d−1} + (w−r−1)N4_{d−1} + rN5_{d−1}                N1_0 = e
//! N1αβ_d = k + N1αβ_{d−1} + rA1_{d−1} + (w−r−1)N4_{d−1} + rN5_{d−1}      N1αβ_0 = e
//! N4_d = 2k + gN4_{d−1} + wN4_{d−2}      N4_1 = k + (1+g)e      N4_0 = e
//! N5_d = k + wN4_{d−1}                                          N5_0 = e
//! A1_d = k + (r+1)A1_{d−1} + (w−r−1)A2_{d−1}                    A1_0 = e
//! A2_d = 2k + A3_{d−1} + (g−1)A4_{d−1} + wA4_{d−2}   A2_1 = k + (1+g)e   A2_0 = e
//! A3_d = 2k + A3_{d−2} + gA4_{d−2} + (w−1)A2_{d−1}   A3_1 = k + we       A3_0 = e
//! A4_d = 2k + gA4_{d−1} + wA4_{d−2}                   A4_1 = k + (1+g)e   A4_0 = e
//! ```
//!
//! The αβ equations hold for 0 < g < w (A2 has g − 1 narrow-window children). We take k = 0 and
//! e = 1, so costs are leaf counts, comparable with what `prune` counts. NegaScout's
//! "depth-2 improvement" is left out of the main columns, as in the paper's main equations and
//! in our NegaScout; Figure 5's table shows it beside them (the paper's separate equation for
//! 0 < d ≤ 2, [`model_with`]).
//!
//! `reinefeld-marsland` is Figure 5: d = 7, r = 2, the ratios N1/A1 and N1αβ/A1 against g for
//! several w, with the g = 0 check N1 = w^m + w^(m+1) − 1 (d = 2m + 1, r = 0), Knuth and
//! Moore's minimal tree. `reinefeld-marsland-regions` is Figure 6: w = 20, d = 7, for each g the
//! largest r at which NegaScout is still cheaper than alpha-beta.

use super::plot::{self, Plot};
use super::{Cell, Options, Report, Tick, between, col, leaves_of, nodes_of, per_row, seed, stats};
use prune::analyze::minimal_leaves;
use prune::generate::ordered::{self, Ordered};
use prune::search::Algorithm;

/// The model's costs (A1, N1, N1αβ) for a tree of width `w` and depth `d`.
pub fn model(w: f64, d: usize, g: f64, r: f64, k: f64, e: f64) -> (f64, f64, f64) {
    model_with(w, d, g, r, k, e, false)
}

/// [`model`], with NegaScout's "depth-2 improvement" (`depth2`, end of §4): no re-search when
/// the remaining depth is at most 2, so for 0 < d ≤ 2
/// `N1_d = k + N1_{d−1} + (w−r−1)N4_{d−1} + rN5_{d−1}` — the r changes of the principal
/// variation cost only the failing minimal-window search N5 — and, "a similar equation", the
/// same for N1αβ_d (no alpha-beta re-search either).
pub fn model_with(
    w: f64,
    d: usize,
    g: f64,
    r: f64,
    k: f64,
    e: f64,
    depth2: bool,
) -> (f64, f64, f64) {
    let mut n4 = vec![e; d + 1];
    let mut n5 = vec![e; d + 1];
    let mut a2 = vec![e; d + 1];
    let mut a3 = vec![e; d + 1];
    let mut a4 = vec![e; d + 1];
    let mut a1 = vec![e; d + 1];
    let mut n1 = vec![e; d + 1];
    let mut n1ab = vec![e; d + 1];
    for i in 1..=d {
        if i == 1 {
            n4[1] = k + (1.0 + g) * e;
            a2[1] = k + (1.0 + g) * e;
            a3[1] = k + w * e;
            a4[1] = k + (1.0 + g) * e;
        } else {
            n4[i] = 2.0 * k + g * n4[i - 1] + w * n4[i - 2];
            a4[i] = 2.0 * k + g * a4[i - 1] + w * a4[i - 2];
            a2[i] = 2.0 * k + a3[i - 1] + (g - 1.0) * a4[i - 1] + w * a4[i - 2];
            a3[i] = 2.0 * k + a3[i - 2] + g * a4[i - 2] + (w - 1.0) * a2[i - 1];
        }
        n5[i] = k + w * n4[i - 1];
        a1[i] = k + (r + 1.0) * a1[i - 1] + (w - r - 1.0) * a2[i - 1];
        if depth2 && i <= 2 {
            n1[i] = k + n1[i - 1] + (w - r - 1.0) * n4[i - 1] + r * n5[i - 1];
            n1ab[i] = k + n1ab[i - 1] + (w - r - 1.0) * n4[i - 1] + r * n5[i - 1];
        } else {
            n1[i] = k + (r + 1.0) * n1[i - 1] + (w - r - 1.0) * n4[i - 1] + r * n5[i - 1];
            n1ab[i] = k + n1ab[i - 1] + r * a1[i - 1] + (w - r - 1.0) * n4[i - 1] + r * n5[i - 1];
        }
    }
    (a1[d], n1[d], n1ab[d])
}

const WIDTHS: [u32; 4] = [5, 10, 20, 40];
const DEPTH: usize = 7;
const CHANGES: f64 = 2.0;

/// Trees `reinefeld-marsland` searches.
pub fn work(_: &Options) -> u64 {
    1
}

/// `reinefeld-marsland`: the paper's Figure 5.
pub fn figure5(o: &Options, tick: Tick) -> Result<Report, String> {
    let widths = o.sizes_or(&WIDTHS);
    if let Some(w) = widths.iter().find(|&&w| w < 4) {
        return Err(format!(
            "w = {w}: Figure 5 needs r = 2 < w − 1, so w of at least 4"
        ));
    }
    let mut rows = Vec::new();
    for &w in &widths {
        let wf = f64::from(w);
        // The g = 0, r = 0 check against Knuth and Moore's minimal tree.
        let (_, n1_opt, _) = model(wf, DEPTH, 0.0, 0.0, 0.0, 1.0);
        let minimal = minimal_leaves(u64::from(w), DEPTH as u32) as f64;
        for g in 1..w {
            let (a1, n1, n1ab) = model(wf, DEPTH, f64::from(g), CHANGES, 0.0, 1.0);
            let (_, n1d, n1abd) = model_with(wf, DEPTH, f64::from(g), CHANGES, 0.0, 1.0, true);
            rows.push(vec![
                Cell::Int(i64::from(w)),
                Cell::Int(i64::from(g)),
                Cell::Real(a1, 0),
                Cell::Real(n1, 0),
                Cell::Real(n1ab, 0),
                Cell::Real(n1 / a1, 3),
                Cell::Real(n1ab / a1, 3),
                Cell::Real(n1d, 0),
                Cell::Real(n1abd, 0),
                Cell::Real(n1d / a1, 3),
                Cell::Real(n1abd / a1, 3),
                Cell::Real(n1_opt, 0),
                Cell::Real(minimal, 0),
            ]);
        }
    }
    tick(1);
    Ok(Report {
        title: format!("Reinefeld & Marsland 1987, Figure 5: the cost model at d = {DEPTH}, r = 2 (k = 0, e = 1: leaves)"),
        columns: vec![
            col("w", "w"),
            col("g", "g"),
            col("alphabeta", "A1 (αβ)"),
            col("negascout", "N1 (NS)"),
            col("negascout_ab", "N1 (NSαβ)"),
            col("ns_over_ab", "NS/αβ"),
            col("nsab_over_ab", "NSαβ/αβ"),
            col("negascout_d2", "N1 d≤2"),
            col("negascout_ab_d2", "N1αβ d≤2"),
            col("ns_over_ab_d2", "NS/αβ d≤2"),
            col("nsab_over_ab_d2", "NSαβ/αβ d≤2"),
            col("negascout_g0", "N1 at g=r=0"),
            col("minimal", "w^m+w^(m+1)−1"),
        ],
        rows,
        notes: vec![
            "NS/αβ below 1: NegaScout is cheaper. The paper finds both NegaScout variants better than αβ for small g, and NS better than NSαβ while g < 20 % of w.".into(),
            "d≤2: the same with NegaScout's depth-2 improvement (end of §4: no re-search when the remaining depth is at most 2), which the paper's main equations and Figure 5 leave out: N1_d = k + N1_{d−1} + (w−r−1)N4_{d−1} + rN5_{d−1} for 0 < d ≤ 2, and likewise for N1αβ.".into(),
            "N1 at g = r = 0 must equal Knuth and Moore's minimal tree w^m + w^(m+1) − 1 (d = 2m + 1), the paper's consistency check.".into(),
            "`reinefeld-marsland-measured` puts the model beside counts measured on generated trees of the same w, d, g, r.".into(),
        ],
        plot: Some(Plot {
            x: "g",
            series: vec![
                plot::measured("ns_over_ab", "NegaScout / alpha-beta"),
                plot::measured("nsab_over_ab", "NS^αβ / alpha-beta"),
            ],
            series_by: vec!["w"],
            x_label: "g, extra expansions at cut nodes",
            y_label: "cost relative to alpha-beta (ratio)",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}

/// `reinefeld-marsland-regions`: the paper's Figure 6.
pub fn figure6(o: &Options, tick: Tick) -> Result<Report, String> {
    let w = o.sizes_or(&[20])[0];
    if w < 3 {
        return Err(format!("w = {w}: the model needs a width of at least 3"));
    }
    let wf = f64::from(w);
    let mut rows = Vec::new();
    for g in 1..w {
        let better: Vec<u32> = (0..w - 1)
            .filter(|&r| {
                let (a1, n1, _) = model(wf, DEPTH, f64::from(g), f64::from(r), 0.0, 1.0);
                n1 < a1
            })
            .collect();
        let max_r = better.iter().copied().max();
        let (a1, n1, _) = model(wf, DEPTH, f64::from(g), 0.0, 0.0, 1.0);
        rows.push(vec![
            Cell::Int(i64::from(w)),
            Cell::Int(i64::from(g)),
            max_r.map_or(Cell::Text("none".into()), |r| Cell::Int(i64::from(r))),
            max_r.map_or(Cell::None, |r| Cell::Real(f64::from(r) / wf * 100.0, 0)),
            Cell::Real(n1 / a1, 3),
        ]);
    }
    tick(1);
    Ok(Report {
        title: format!("Reinefeld & Marsland 1987, Figure 6: where NegaScout beats alpha-beta, w = {w}, d = {DEPTH} (k = 0, e = 1)"),
        columns: vec![
            col("w", "w"),
            col("g", "g"),
            col("max_r_negascout_better", "largest r with NS < αβ"),
            col("research_rate_percent", "re-search rate %"),
            col("ns_over_ab_r0", "NS/αβ at r=0"),
        ],
        rows,
        notes: vec![
            "Below the line (r up to the printed value) NegaScout is cheaper; above it, alpha-beta. The paper: αβ becomes attractive when the re-search rate exceeds about 15 % or when g > w/2.".into(),
            "The re-search rate is r/w: the share of a type-1 node's children on which the principal variation changes, each costing NegaScout a re-search.".into(),
        ],
        plot: Some(Plot {
            x: "g",
            series: vec![
                plot::measured("max_r_negascout_better", "largest r where NegaScout wins"),
            ],
            series_by: vec![],
            x_label: "g, extra expansions at cut nodes",
            y_label: "re-search rate r (%)",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}

const MEASURED_WIDTHS: [u32; 3] = [5, 8, 12];
const MEASURED_DEPTH: u32 = 5;

fn measured_grid(o: &Options) -> Vec<(u32, u32)> {
    o.sizes_or(&MEASURED_WIDTHS)
        .into_iter()
        .flat_map(|w| (0..w).map(move |g| (w, g)))
        .collect()
}

/// The work of `reinefeld-marsland-measured`: each tree weighs its nodes (w^5 leaves: w = 12
/// weighs 250 times w = 4).
pub fn measured_work(o: &Options) -> u64 {
    let trials = u64::from(o.trials_or(10));
    // Widths the run refuses count nothing (and are not laid out as a w-row grid here).
    o.sizes_or(&MEASURED_WIDTHS)
        .into_iter()
        .filter(|&w| w >= 4 && leaves_of(w, MEASURED_DEPTH) <= 1_000_000)
        .map(|w| u64::from(w) * trials * nodes_of(w, MEASURED_DEPTH))
        .sum()
}

/// The model beside leaf counts measured on trees built to its assumptions
/// (`generate::ordered`): d = 5, r = 2, for every g.
pub fn measured(o: &Options, tick: Tick) -> Result<Report, String> {
    let grid = measured_grid(o);
    if let Some((w, _)) = grid
        .iter()
        .find(|(w, _)| *w < 4 || u64::from(*w).pow(MEASURED_DEPTH) > 1_000_000)
    {
        return Err(format!(
            "w = {w}: needs 4 ≤ w and w^{MEASURED_DEPTH} ≤ 10^6"
        ));
    }
    let trials = o.trials_or(10);
    let per_trial = per_row(
        grid.len(),
        |_| trials,
        |row, t| {
            let (w, g) = grid[row];
            let p = Ordered {
                width: w,
                depth: MEASURED_DEPTH,
                g,
                r: CHANGES as u32,
            };
            let tree = ordered::generate(&p, seed(o.seed, row as u64, u64::from(t)))
                .map_err(|e| e.to_string())?;
            let algos = [
                Algorithm::AlphaBeta { fail_soft: false },
                Algorithm::NegaScout,
                Algorithm::NegaScoutAb,
            ];
            let leaves = algos.map(|a| stats(&tree, &a).leaves);
            tick(nodes_of(w, MEASURED_DEPTH));
            Ok(leaves)
        },
        |row, _, leaves| {
            // Alpha-beta evaluates a leaf once; NegaScout's re-searches at most double a level's.
            // Each finds the root's value, and so evaluates the minimal tree at least.
            let w = grid[row].0;
            let l = leaves_of(w, MEASURED_DEPTH);
            let least = minimal_leaves(u64::from(w), MEASURED_DEPTH);
            let most = [l, l << MEASURED_DEPTH, l << MEASURED_DEPTH];
            for ((name, &x), most) in ["alpha-beta", "NegaScout", "NegaScout-ab"]
                .iter()
                .zip(leaves)
                .zip(most)
            {
                between(&format!("{name}'s leaves"), x, least, most)?;
            }
            Ok(())
        },
    )?;
    let rows: Vec<Vec<Cell>> = grid
        .iter()
        .zip(per_trial)
        .map(|(&(w, g), counts)| {
            let mut sums = [0u64; 3];
            for c in counts {
                for (s, x) in sums.iter_mut().zip(c) {
                    *s += x;
                }
            }
            let k = f64::from(trials);
            let (a1, n1, n1ab) = model(
                f64::from(w),
                MEASURED_DEPTH as usize,
                f64::from(g),
                CHANGES,
                0.0,
                1.0,
            );
            let (ab, ns, nsab) = (sums[0] as f64 / k, sums[1] as f64 / k, sums[2] as f64 / k);
            let model_ab = if g == 0 {
                Cell::None
            } else {
                Cell::Real(a1, 0)
            };
            vec![
                Cell::Int(i64::from(w)),
                Cell::Int(i64::from(g)),
                model_ab,
                Cell::Real(ab, 1),
                Cell::Real(n1, 0),
                Cell::Real(ns, 1),
                Cell::Real(n1ab, 0),
                Cell::Real(nsab, 1),
                if g == 0 {
                    Cell::None
                } else {
                    Cell::Real(n1 / a1, 3)
                },
                Cell::Real(ns / ab, 3),
            ]
        })
        .collect();
    Ok(Report {
        title: format!(
            "Reinefeld & Marsland 1987: the model beside leaves measured on averagely ordered trees, d = {MEASURED_DEPTH}, r = 2 (mean of {trials} trees, seed {})",
            o.seed
        ),
        columns: vec![
            col("w", "w"),
            col("g", "g"),
            col("model_alphabeta", "A1 model"),
            col("alphabeta", "αβ measured"),
            col("model_negascout", "N1 model"),
            col("negascout", "NS measured"),
            col("model_negascout_ab", "N1αβ model"),
            col("negascout_ab", "NSαβ measured"),
            col("model_ns_over_ab", "NS/αβ model"),
            col("ns_over_ab", "NS/αβ measured"),
        ],
        rows,
        notes: vec![
            "Trees from `generate::ordered`: r = 2 principal-variation changes at type-1 nodes, cut nodes refuted by their (g + 1)-th child. Leaves counted as the model counts them (a re-searched leaf twice).".into(),
            "The αβ equations need g ≥ 1 (—). The model is an estimate (fixed change positions, no dependence of αβ's windows on actual values); the measured ratios show where it is near.".into(),
        ],
        plot: Some(Plot {
            x: "g",
            series: vec![
                plot::measured("model_ns_over_ab", "NegaScout / alpha-beta, model"),
                plot::measured("ns_over_ab", "NegaScout / alpha-beta, measured"),
            ],
            series_by: vec!["w"],
            x_label: "g, extra expansions at cut nodes",
            y_label: "NegaScout / alpha-beta (ratio of leaves)",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_zero_gives_the_minimal_tree() {
        for w in [2u32, 3, 5, 20] {
            for d in 1..=8usize {
                let (_, n1, n1ab) = model(f64::from(w), d, 0.0, 0.0, 0.0, 1.0);
                let minimal = minimal_leaves(u64::from(w), d as u32) as f64;
                assert_eq!(n1, minimal, "w = {w}, d = {d}");
                assert_eq!(n1ab, minimal);
            }
        }
    }

    #[test]
    fn negascout_wins_on_well_ordered_wide_trees_and_loses_on_badly_ordered_ones() {
        let (a1, n1, _) = model(20.0, 7, 1.0, 2.0, 0.0, 1.0);
        assert!(n1 < a1);
        let (a1, n1, _) = model(20.0, 7, 15.0, 2.0, 0.0, 1.0);
        assert!(n1 > a1);
    }
}
