//! Search pathology in Pearl's board-splitting game (Nau; Tzeng & Purdom 1982, §6).
//!
//! A board of b^d leaves, each a win for Max (V) with probability P0 (default ξ_b, where the root
//! is as likely won as lost): `gen win-loss --board`. The players search k plies from the root
//! and judge the frontier by the number of V cells left under a node, turned — as Tzeng & Purdom
//! do — into the conditional probability that the node is a forced win given that count (exact,
//! computed below). The frontier values are backed up three ways: minimax, product propagation
//! (rules 6.3/6.4) and the k-rule (7.1, `k = 2`). A first move is correct when it keeps a won
//! position won; we count, over boards whose root is won and that have a losing move too, the
//! expected share of correct choices (tied best moves share the choice). Minimax's share falling
//! as k grows is the pathology; product propagation is the back-up that assumes independence.
//! At a uniform depth minimax's choice depends only on the order of the frontier values, so two
//! more minimax columns change the evaluator rather than the back-up: the fraction of V cells
//! (strictly increasing in the count: the curve of every such evaluator) and that fraction plus
//! noise, which is not monotone in the count. `pathology-games` plays the two back-ups against
//! each other with the exact estimate and with the raw fraction, which Tzeng & Purdom (§7) say
//! must first be turned into a probability.
//!
//! The conditional probability: among the N = b^h leaves under a node of height h, m are V,
//! every arrangement equally likely. A Max node is won unless no child is; a Min node when every
//! child is. Splitting m among the children one at a time is hypergeometric:
//! `R_j(m) = Σ_{m1} C(N', m1) C((j−1)N', m − m1) / C(jN', m) · q(m1) · R_{j−1}(m − m1)`
//! with q the child's probability of being won (Min) or lost (Max), N' = b^(h−1).

use super::plot::{Plot, measured};
use super::win_loss::xi;
use super::{Cell, Options, Report, Tick, at_most, col, per_row, seed, within};
use prune::generate::winloss::{self, WinLoss};
use prune::tree::{Kind, NodeId, Tree};

const K: f64 = 2.0;

/// `ln(n!)` for n = 0..=max.
fn ln_factorials(max: usize) -> Vec<f64> {
    let mut f = vec![0.0; max + 1];
    for n in 1..=max {
        f[n] = f[n - 1] + (n as f64).ln();
    }
    f
}

/// `q[h][m]`: the probability that a node of height h (in a tree of depth d, Max at the root)
/// with m V leaves among its b^h is a forced win for Max.
pub fn win_given_count(b: u32, d: u32) -> Vec<Vec<f64>> {
    let b = b as usize;
    let total = b.pow(d);
    let lf = ln_factorials(total);
    let ln_c = |n: usize, k: usize| lf[n] - lf[k] - lf[n - k];
    let mut q: Vec<Vec<f64>> = vec![vec![0.0, 1.0]];
    for h in 1..=d as usize {
        let child = &q[h - 1];
        let n1 = b.pow(h as u32 - 1);
        let max_node = (d as usize - h) % 2 == 0;
        // Per child: the probability of the event each child must meet (Max: lost; Min: won).
        let each: Vec<f64> = child
            .iter()
            .map(|&p| if max_node { 1.0 - p } else { p })
            .collect();
        let mut r = each.clone();
        for j in 2..=b {
            let n_rest = (j - 1) * n1;
            let n_all = j * n1;
            let mut next = vec![0.0; n_all + 1];
            for (m, slot) in next.iter_mut().enumerate() {
                let mut sum = 0.0;
                let lo = m.saturating_sub(n_rest);
                for m1 in lo..=m.min(n1) {
                    let w = (ln_c(n1, m1) + ln_c(n_rest, m - m1) - ln_c(n_all, m)).exp();
                    sum += w * each[m1] * r[m - m1];
                }
                *slot = sum;
            }
            r = next;
        }
        q.push(if max_node {
            r.iter().map(|x| 1.0 - x).collect()
        } else {
            r
        });
    }
    q
}

/// Backs frontier values at `depth` up to the root's children: minimax, product, k-rule.
fn backed(
    tree: &Tree,
    depths: &[u32],
    frontier: u32,
    leaf_value: &[f64],
    rule: Backup,
) -> Vec<f64> {
    let mut v = vec![0.0; tree.len()];
    for id in tree.ids().collect::<Vec<_>>().into_iter().rev() {
        let i = id.index();
        if depths[i] > frontier {
            continue;
        }
        if depths[i] == frontier || tree.is_leaf(id) {
            v[i] = leaf_value[i];
            continue;
        }
        let kids = tree.children(id).map(|c| v[c.index()]);
        let max = tree.kind(id) == Kind::Max;
        v[i] = match (rule, max) {
            (Backup::Minimax, true) => kids.fold(f64::NEG_INFINITY, f64::max),
            (Backup::Minimax, false) => kids.fold(f64::INFINITY, f64::min),
            (Backup::Product, true) => 1.0 - kids.map(|p| 1.0 - p).product::<f64>(),
            (Backup::Product, false) => kids.product(),
            (Backup::KRule, true) => 1.0 - k_rule(kids.map(|p| 1.0 - p)),
            (Backup::KRule, false) => k_rule(kids),
        };
    }
    v
}

/// Equation (7.1) for a MIN node: exp(−(Σ (−ln p)^k)^(1/k)).
fn k_rule(ps: impl Iterator<Item = f64>) -> f64 {
    let s: f64 = ps.map(|p| (-p.max(1e-300).ln()).powf(K)).sum();
    (-s.powf(1.0 / K)).exp()
}

#[derive(Copy, Clone)]
enum Backup {
    Minimax,
    Product,
    KRule,
}

/// Half-width of the noise added to the fraction of V cells for the noisy evaluator.
const NOISE: f64 = 0.1;

/// The expected share of correct choices at the root for each frontier depth 1..=d, or `None`
/// when the board is not informative (root lost, or every move wins): minimax, product and the
/// k-rule on the exact estimate, then minimax on the fraction of V cells and on that fraction
/// plus uniform noise in ±[`NOISE`] (drawn from `noise_seed`, one draw per node).
fn board_scores(tree: &Tree, q: &[Vec<f64>], d: u32, noise_seed: u64) -> Option<Vec<[f64; 5]>> {
    let n = tree.len();
    let mut depths = vec![0u32; n];
    for id in tree.ids().skip(1) {
        depths[id.index()] = depths[tree.parent(id).expect("not the root").index()] + 1;
    }
    // V leaves under every node, and the true value.
    let mut wins = vec![0usize; n];
    let mut truth = vec![false; n];
    for id in tree.ids().collect::<Vec<_>>().into_iter().rev() {
        let i = id.index();
        if tree.is_leaf(id) {
            wins[i] = usize::from(tree.value(id) == 1.0);
            truth[i] = wins[i] == 1;
        } else {
            wins[i] = tree.children(id).map(|c| wins[c.index()]).sum();
            truth[i] = if tree.kind(id) == Kind::Max {
                tree.children(id).any(|c| truth[c.index()])
            } else {
                tree.children(id).all(|c| truth[c.index()])
            };
        }
    }
    let root = tree.root();
    let moves: Vec<NodeId> = tree.children(root).collect();
    let good = moves.iter().filter(|c| truth[c.index()]).count();
    if !truth[root.index()] || good == moves.len() {
        return None;
    }
    let estimate: Vec<f64> = (0..n)
        .map(|i| q[(d - depths[i]) as usize][wins[i]])
        .collect();
    let b = f64::from(tree.max_branching());
    let fraction: Vec<f64> = (0..n)
        .map(|i| wins[i] as f64 / b.powi((d - depths[i]) as i32))
        .collect();
    let mut rng = prune::generate::rng::Rng::new(noise_seed);
    let noisy: Vec<f64> = fraction
        .iter()
        .map(|f| f + rng.real(-NOISE, NOISE))
        .collect();
    let mut out = Vec::with_capacity(d as usize);
    for k in 1..=d {
        let mut row = [0.0; 5];
        for (slot, (rule, values)) in row.iter_mut().zip([
            (Backup::Minimax, &estimate),
            (Backup::Product, &estimate),
            (Backup::KRule, &estimate),
            (Backup::Minimax, &fraction),
            (Backup::Minimax, &noisy),
        ]) {
            let v = backed(tree, &depths, k, values, rule);
            let best = moves
                .iter()
                .map(|c| v[c.index()])
                .fold(f64::NEG_INFINITY, f64::max);
            let tied: Vec<&NodeId> = moves
                .iter()
                .filter(|c| v[c.index()] >= best - 1e-12)
                .collect();
            *slot = tied.iter().filter(|c| truth[c.index()]).count() as f64 / tied.len() as f64;
        }
        out.push(row);
    }
    Some(out)
}

fn shape(o: &Options) -> Result<(u32, u32), String> {
    let sizes = o.sizes_or(&[2, 10]);
    match sizes[..] {
        [b, d]
            if b >= 2
                && d >= 2
                && d % 2 == 0
                && u64::from(b).checked_pow(d).is_some_and(|n| n <= 20_000) =>
        {
            Ok((b, d))
        }
        _ => Err(
            "--sizes B,D: a branching factor of at least 2 and an even depth, with B^D ≤ 20,000"
                .into(),
        ),
    }
}

/// Trees `pathology` searches.
pub fn work(o: &Options) -> u64 {
    u64::from(o.trials_or(5000))
}

/// Board `t` of row `row`: a win-loss tree with leaves WIN with probability `p0`.
fn board(o: &Options, b: u32, d: u32, p0: f64, row: usize, t: u32) -> Result<Tree, String> {
    let p = WinLoss {
        branching: b,
        depth: d,
        p0,
        board: false,
    };
    winloss::generate(&p, seed(o.seed, row as u64, u64::from(t))).map_err(|e| e.to_string())
}

/// `pathology` (see the module documentation).
pub fn run(o: &Options, tick: Tick) -> Result<Report, String> {
    let (b, d) = shape(o)?;
    let p0 = xi(b);
    let trials = o.trials_or(5000);
    let q = win_given_count(b, d);
    let per_board = per_row(
        1,
        |_| trials,
        |row, t| {
            let tree = board(o, b, d, p0, row, t)?;
            tick(1);
            let noise_seed = seed(o.seed ^ 0x006E_6F69_7365, row as u64, u64::from(t));
            Ok(board_scores(&tree, &q, d, noise_seed))
        },
        // A board left out, or a share of correct moves for each look-ahead 1..=d: of the
        // tied best moves (b at most), those that win, so k/m with m ≤ b; searched to the
        // cells themselves (look-ahead d) every rule is right.
        |_, _, scores| match scores {
            None => Ok(()),
            Some(s) if s.len() != d as usize => Err(format!("{} look-aheads, not {d}", s.len())),
            Some(s) => {
                for &x in s.iter().flatten() {
                    within("a share of correct moves", x, 0.0, 1.0)?;
                    if !(1..=b).any(|m| {
                        let k = x * f64::from(m);
                        (k - k.round()).abs() < 1e-9
                    }) {
                        return Err(format!(
                            "a share of correct moves {x}, not a share of {b} moves or fewer"
                        ));
                    }
                }
                match s.last() {
                    Some(last) if last.iter().any(|&x| x != 1.0) => Err(format!(
                        "shares {last:?} at look-ahead {d}, where every rule chooses right"
                    )),
                    _ => Ok(()),
                }
            }
        },
    )?;
    let boards: Vec<Vec<[f64; 5]>> = per_board.into_iter().flatten().flatten().collect();
    if boards.is_empty() {
        return Err("no informative board among the trials: use more --trials".into());
    }
    let used = boards.len() as f64;
    let rows = (0..d as usize)
        .map(|k| {
            let mean = |r: usize| boards.iter().map(|s| s[k][r]).sum::<f64>() / used;
            vec![
                Cell::Int(k as i64 + 1),
                Cell::Real(mean(0), 3),
                Cell::Real(mean(1), 3),
                Cell::Real(mean(2), 3),
                Cell::Real(mean(3), 3),
                Cell::Real(mean(4), 3),
            ]
        })
        .collect();
    Ok(Report {
        title: format!(
            "Board splitting, b = {b}, d = {d}, P0 = ξ_{b} = {p0:.4}: share of correct first moves against search depth ({} informative boards of {trials}, seed {})",
            boards.len(),
            o.seed
        ),
        columns: vec![
            col("depth", "search depth"),
            col("minimax", "minimax"),
            col("product", "product"),
            col("krule", "k-rule (k=2)"),
            col("minimax_fraction", "minimax, fraction"),
            col("minimax_noisy", "minimax, noisy"),
        ],
        rows,
        notes: vec![
            "Frontier nodes are valued by the exact probability of a forced win given their number of V cells; depth d searches to the cells themselves, where every rule is right.".into(),
            "At a uniform depth minimax's choice depends only on the order of the frontier values: every strictly increasing function of the count gives the \"minimax, fraction\" column (the fraction of V cells); the exact probability, flat at 0 and 1 for the lowest and highest counts, only adds ties. \"minimax, noisy\": the fraction plus uniform noise in ±0.1, drawn once per node, an evaluator not monotone in the count.".into(),
            "Boards counted: root won and at least one losing first move. Tied best moves share the choice.".into(),
        ],
        plot: Some(Plot {
            x: "depth",
            series: vec![
                measured("minimax", "minimax"),
                measured("product", "product propagation"),
                measured("krule", "k-rule (k = 2)"),
                measured("minimax_fraction", "minimax, fraction"),
                measured("minimax_noisy", "minimax, noisy"),
            ],
            series_by: vec![],
            x_label: "search depth (plies)",
            y_label: "share of correct first moves",
            y_percent_of_x_cubed: false,
            only: None,
            beside: None,
        }),
    })
}

/// The value of `node` by a `plies`-ply search with back-up `rule`, frontier nodes valued by
/// `estimate` (the probability that Max wins).
fn searched(tree: &Tree, node: NodeId, plies: u32, rule: Backup, estimate: &[f64]) -> f64 {
    if plies == 0 || tree.is_leaf(node) {
        return estimate[node.index()];
    }
    let kids = tree
        .children(node)
        .map(|c| searched(tree, c, plies - 1, rule, estimate));
    match (rule, tree.kind(node) == Kind::Max) {
        (Backup::Minimax, true) => kids.fold(f64::NEG_INFINITY, f64::max),
        (Backup::Minimax, false) => kids.fold(f64::INFINITY, f64::min),
        (Backup::Product, true) => 1.0 - kids.map(|p| 1.0 - p).product::<f64>(),
        (Backup::Product, false) => kids.product(),
        (Backup::KRule, true) => 1.0 - k_rule(kids.map(|p| 1.0 - p)),
        (Backup::KRule, false) => k_rule(kids),
    }
}

/// One game on `tree`: Max moves with `max_rule`, Min with `min_rule`, each searching `plies`
/// plies below each child it may move to (`plies + 1`, the search depth, below the position it
/// moves from); whether Max wins.
/// Ties go to the first of the best moves.
fn play(tree: &Tree, plies: u32, max_rule: Backup, min_rule: Backup, estimate: &[f64]) -> bool {
    let mut node = tree.root();
    while !tree.is_leaf(node) {
        let max = tree.kind(node) == Kind::Max;
        let rule = if max { max_rule } else { min_rule };
        let mut best: Option<(NodeId, f64)> = None;
        for c in tree.children(node) {
            let v = searched(tree, c, plies, rule, estimate);
            let better = match best {
                None => true,
                Some((_, b)) => (max && v > b) || (!max && v < b),
            };
            if better {
                best = Some((c, v));
            }
        }
        node = best.expect("an interior node has children").0;
    }
    tree.value(node) == 1.0
}

/// Games `pathology-games` plays.
pub fn games_work(o: &Options) -> u64 {
    u64::from(o.trials_or(5000))
}

/// The frontier estimates of the game-playing experiment: the probability that Max wins.
#[derive(Copy, Clone)]
enum Evaluator {
    /// The exact probability of a forced win given the count of V cells below the node.
    Exact,
    /// The raw fraction of V cells below the node, used as a probability as it stands: what
    /// Tzeng & Purdom (§6, after Theorem 4; §7) warn against ("we should transform the evaluated
    /// values to the conditional probabilities of a win before using the back-up rules").
    Fraction,
}

/// Every node's estimate under `evaluator`, from its height and its count of V cells.
fn estimates(tree: &Tree, b: u32, q: &[Vec<f64>], evaluator: Evaluator) -> Vec<f64> {
    let n = tree.len();
    let mut height = vec![0u32; n];
    let mut wins = vec![0usize; n];
    for id in tree.ids().collect::<Vec<_>>().into_iter().rev() {
        let i = id.index();
        if tree.is_leaf(id) {
            wins[i] = usize::from(tree.value(id) == 1.0);
        } else {
            let c = tree.child(id, 0).index();
            height[i] = height[c] + 1;
            wins[i] = tree.children(id).map(|c| wins[c.index()]).sum();
        }
    }
    (0..n)
        .map(|i| match evaluator {
            Evaluator::Exact => q[height[i] as usize][wins[i]],
            Evaluator::Fraction => wins[i] as f64 / f64::from(b).powi(height[i] as i32),
        })
        .collect()
}

/// One board's games, by look-ahead: product propagation's wins out of two, same winner.
type Games = Vec<(u32, bool)>;

/// For each look-ahead 0..d−1 below the moves: product propagation's wins out of the board's
/// two games (one as Max, one as Min), and whether both games went to the same side.
fn matches(tree: &Tree, d: u32, estimate: &[f64]) -> Games {
    (0..d - 1)
        .map(|plies| {
            let a = play(tree, plies, Backup::Minimax, Backup::Product, estimate);
            let z = play(tree, plies, Backup::Product, Backup::Minimax, estimate);
            (u32::from(!a) + u32::from(z), a == z)
        })
        .collect()
}

/// One evaluator's cells for one search depth: product propagation's share of the games, its
/// 95 % normal interval (± 1.96 standard errors of the per-board share: a board's two games
/// are not independent, so the board is the unit), the share of boards the first mover
/// decides, and of the others the share product propagation sweeps.
fn summary(boards: &[&[(u32, bool)]], k: usize) -> Vec<Cell> {
    let n = boards.len() as f64;
    let shares: Vec<f64> = boards.iter().map(|s| f64::from(s[k].0) / 2.0).collect();
    let mean = shares.iter().sum::<f64>() / n;
    let var = shares.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt();
    let same = boards.iter().filter(|s| s[k].1).count() as f64 / n;
    let split: Vec<&&[(u32, bool)]> = boards.iter().filter(|s| !s[k].1).collect();
    let decisive = split.len() as f64;
    let product_both = split.iter().filter(|s| s[k].0 == 2).count() as f64;
    vec![
        Cell::Real(mean, 3),
        Cell::Real(mean - 1.96 * se, 3),
        Cell::Real(mean + 1.96 * se, 3),
        Cell::Real(same, 3),
        if decisive > 0.0 {
            Cell::Real(product_both / decisive, 3)
        } else {
            Cell::None
        },
    ]
}

/// Nau's game-playing experiment: minimax and product propagation, with the same frontier
/// estimate and the same search depth, play each board twice, each taking the first move (Max)
/// once — once with the exact probability of a win given the count as the estimate, once with
/// the raw fraction of V cells. For each depth and estimate: product propagation's share of the
/// games with its 95 % interval, and the share of boards the first mover decides regardless.
pub fn games(o: &Options, tick: Tick) -> Result<Report, String> {
    let (b, d) = shape(o)?;
    let p0 = xi(b);
    let trials = o.trials_or(5000);
    let q = win_given_count(b, d);
    let per_board = per_row(
        1,
        |_| trials,
        |row, t| {
            let tree = board(o, b, d, p0, row, t)?;
            let exact = matches(&tree, d, &estimates(&tree, b, &q, Evaluator::Exact));
            let raw = matches(&tree, d, &estimates(&tree, b, &q, Evaluator::Fraction));
            tick(1);
            Ok((exact, raw))
        },
        // For each look-ahead 0..d−1: product propagation's wins (of two games) and a flag.
        |_, _, (exact, raw)| {
            for games in [exact, raw] {
                if games.len() != d as usize - 1 {
                    return Err(format!("{} look-aheads, not {}", games.len(), d - 1));
                }
                // Two games, one as each side: the same winner both times is one win each.
                for &(wins, same) in games {
                    at_most("wins of two games", u64::from(wins), 2)?;
                    if same != (wins == 1) {
                        return Err(format!(
                            "{wins} wins of two games, said to have {} winner",
                            if same { "the same" } else { "another" }
                        ));
                    }
                }
            }
            Ok(())
        },
    )?;
    let boards: Vec<(Games, Games)> = per_board.into_iter().flatten().collect();
    let exact: Vec<&[(u32, bool)]> = boards.iter().map(|s| &s.0[..]).collect();
    let raw: Vec<&[(u32, bool)]> = boards.iter().map(|s| &s.1[..]).collect();
    let rows = (0..d as usize - 1)
        .map(|k| {
            let mut row = vec![Cell::Int(k as i64 + 1)];
            row.extend(summary(&exact, k));
            row.extend(summary(&raw, k));
            row
        })
        .collect();
    Ok(Report {
        title: format!(
            "Board splitting, b = {b}, d = {d}, P0 = ξ_{b} = {p0:.4}: product propagation against minimax, {trials} boards, each played twice, with two frontier estimates (seed {})",
            o.seed
        ),
        columns: vec![
            col("depth", "search depth"),
            col("product_share", "product wins"),
            col("ci_low", "95 % low"),
            col("ci_high", "95 % high"),
            col("same_winner", "first mover decides"),
            col("product_sweeps", "product 2 of 2"),
            col("raw_product_share", "raw: product wins"),
            col("raw_ci_low", "95 % low"),
            col("raw_ci_high", "95 % high"),
            col("raw_same_winner", "first mover decides"),
            col("raw_product_sweeps", "product 2 of 2"),
        ],
        rows,
        notes: vec![
            "Each player searches to the given depth below the position it moves from and values the frontier by an estimate of the probability that Max wins; minimax and product propagation differ only in the back-up. Ties go to the first best move.".into(),
            "First five columns: the estimate is the exact probability of a forced win given the node's number of V cells. raw: the fraction of V cells below the node, used as a probability without the conversion Tzeng & Purdom require (§6 after Theorem 4, §7).".into(),
            "product wins: product propagation's share of the 2 × boards games (0.5: as good as minimax); 95 % low/high: a normal interval, ± 1.96 standard errors of the per-board share (a board's two games are not independent).".into(),
            "first mover decides: boards where the side moving first (Max) wins or loses both games whoever plays it; product 2 of 2: of the other boards, the share where product propagation wins both (the rest minimax wins both).".into(),
            "Tzeng & Purdom (§1, §7) on Nau's measurements: product propagation made winning moves more often, but \"when the product propagation program played against the minimax program, there was no statistically significant difference in how often each program won\" (no figures given).".into(),
        ],
        plot: Some(Plot {
            x: "depth",
            series: vec![
                // The 95 % intervals are error bars on their share, not lines of their own.
                measured("product_share", "product wins (95 % interval)").with_interval("ci_low", "ci_high"),
                measured("raw_product_share", "raw: product wins (95 % interval)")
                    .with_interval("raw_ci_low", "raw_ci_high"),
            ],
            series_by: vec![],
            x_label: "search depth (plies)",
            y_label: "product propagation's share of the games",
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
    fn conditional_probabilities_are_exact_on_small_trees() {
        // b = 2, d = 2: Max over two Min nodes of two leaves each.
        let q = win_given_count(2, 2);
        // Height 1 (Min): won only when both leaves are V.
        assert_eq!(q[1], vec![0.0, 0.0, 1.0]);
        // Height 2 (Max) with 2 V among 4: a Min child holds both in 2 of the C(4,2) = 6 ways.
        assert!((q[2][2] - 2.0 / 6.0).abs() < 1e-12);
        assert!((q[2][3] - 1.0).abs() < 1e-12, "{:?}", q[2]);
        assert!(
            q[2][1].abs() < 1e-12 && (q[2][4] - 1.0).abs() < 1e-12,
            "{:?}",
            q[2]
        );
        // Monotone in the count, as a heuristic must be.
        let q = win_given_count(3, 4);
        assert!(q[4].windows(2).all(|w| w[0] <= w[1] + 1e-12));
    }

    /// The raw estimate is the fraction of V cells below a node, counted here by hand on a
    /// board of 2^2 cells; the exact one agrees with it on the cells themselves.
    #[test]
    fn the_raw_estimate_is_the_fraction_of_v_cells() {
        let tree = prune::format::parse_expr("((1, 0), (1, 1))", false).unwrap();
        let q = win_given_count(2, 2);
        let raw = estimates(&tree, 2, &q, Evaluator::Fraction);
        let exact = estimates(&tree, 2, &q, Evaluator::Exact);
        let root = tree.root();
        let (a, z) = (tree.child(root, 0), tree.child(root, 1));
        assert_eq!(raw[root.index()], 0.75);
        assert_eq!((raw[a.index()], raw[z.index()]), (0.5, 1.0));
        assert_eq!((exact[a.index()], exact[z.index()]), (0.0, 1.0));
        assert_eq!(exact[root.index()], q[2][3]);
        for id in tree.ids().filter(|&i| tree.is_leaf(i)) {
            assert_eq!(raw[id.index()], exact[id.index()]);
        }
    }

    /// The interval is the mean of the per-board shares ± 1.96 of their standard error:
    /// shares 1, 1/2, 1/2, 0 have mean 1/2, sample variance 1/6, standard error √(1/24).
    #[test]
    fn the_interval_is_normal_on_the_per_board_share() {
        let boards: Vec<Vec<(u32, bool)>> = vec![
            vec![(2, false)],
            vec![(1, true)],
            vec![(1, true)],
            vec![(0, false)],
        ];
        let refs: Vec<&[(u32, bool)]> = boards.iter().map(|b| &b[..]).collect();
        let cells = summary(&refs, 0);
        let num = |c: &Cell| match c {
            Cell::Real(x, _) => *x,
            c => panic!("{c:?}"),
        };
        let half = 1.96 * (1.0f64 / 24.0).sqrt();
        assert!((num(&cells[0]) - 0.5).abs() < 1e-12);
        assert!((num(&cells[1]) - (0.5 - half)).abs() < 1e-12);
        assert!((num(&cells[2]) - (0.5 + half)).abs() < 1e-12);
        assert_eq!(
            num(&cells[3]),
            0.5,
            "two boards of four went to the first mover"
        );
        assert_eq!(num(&cells[4]), 0.5, "product swept one of the other two");
    }
}
