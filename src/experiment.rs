//! Experiments: the papers' tables recomputed, with the printed figure beside ours.
//!
//! Each experiment is a function from [`Options`] to a [`Report`]: named columns and rows of
//! cells, printed as an aligned table, CSV or JSON. Rows are computed in parallel (rayon); every
//! random tree's seed is derived from the user's seed, the row and the trial — never from the
//! thread that happens to run it — so a seed gives the same numbers on any number of cores.

pub mod ballard;
pub mod convergence;
pub mod eval_learning;
pub mod improvements;
pub mod knuth_moore;
pub mod maxn;
pub mod pathology;
pub mod plot;
pub mod reinefeld_marsland;
pub mod shard;
pub mod win_loss;

use std::fmt::Write as _;

use rayon::prelude::*;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use prune::generate::rng;
use prune::report::Table;
use prune::search::{self, Algorithm, Counter, Stats};
use prune::tree::Tree;

/// What the user asked for: every option that decides an experiment's numbers (a shard's part
/// records them, and the merge refuses parts whose options differ).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Random trees per row (each experiment has its default).
    pub trials: Option<u32>,
    /// The seed of the first tree; the others' are derived from it ([`seed`]).
    pub seed: u64,
    /// The sizes of the rows (N for Ballard, b for the uniform trees).
    pub sizes: Option<Vec<u32>>,
}

impl Options {
    /// The trials asked for, else `default`; at least one.
    pub fn trials_or(&self, default: u32) -> u32 {
        self.trials.unwrap_or(default).max(1)
    }

    /// The sizes asked for, else `default`.
    pub fn sizes_or(&self, default: &[u32]) -> Vec<u32> {
        self.sizes.clone().unwrap_or_else(|| default.to_vec())
    }
}

pub use prune::report::{Cell, Column, col};

/// What an experiment computed.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The table's title.
    pub title: String,
    /// The table's columns.
    pub columns: Vec<Column>,
    /// The table's rows, a cell a column.
    pub rows: Vec<Vec<Cell>>,
    /// Lines printed under the table: sources, conventions, checks.
    pub notes: Vec<String>,
    /// What `--plot` draws.
    pub plot: Option<plot::Plot>,
}

impl Report {
    /// The columns and rows alone, as the core table type.
    pub fn to_table(&self) -> Table {
        Table {
            columns: self.columns.clone(),
            rows: self.rows.clone(),
        }
    }

    /// The cell of `row` in the column named `name`.
    pub fn get(&self, row: usize, name: &str) -> &Cell {
        &self.rows[row][prune::report::column_index(&self.columns, name)]
    }

    /// The title, the aligned table, then the notes.
    pub fn table(&self) -> String {
        let mut s = format!("{}\n\n{}", self.title, self.to_table().text());
        if !self.notes.is_empty() {
            s.push('\n');
            for n in &self.notes {
                let _ = writeln!(s, "{n}");
            }
        }
        s
    }

    /// The table as CSV.
    pub fn csv(&self) -> String {
        self.to_table().csv()
    }

    /// The table as JSON.
    pub fn json(&self) -> String {
        self.to_table().json()
    }
}

/// Progress: called with the work just finished, in the experiment's units ([`Info::work`]).
pub type Tick<'a> = &'a (dyn Fn(u64) + Sync);

/// One experiment of `prune experiment --list`.
pub struct Info {
    /// The name `prune experiment NAME` takes.
    pub name: &'static str,
    /// What it reproduces, in one line.
    pub about: &'static str,
    /// The work the experiment will tick with these options (for the progress bar's length
    /// and estimate): units proportional to their cost, a tree weighed by its nodes where
    /// trees differ in size, so that the estimate holds through the run.
    pub work: fn(&Options) -> u64,
    /// Runs it.
    pub run: fn(&Options, Tick) -> Result<Report, String>,
    /// How `--shard` spreads it (docs/EXPERIMENTS.md lists which are which).
    pub split: shard::Split,
}

/// Every experiment, in the order of `prune experiment --list`.
pub const EXPERIMENTS: &[Info] = &[
    Info {
        name: "ballard-best",
        about: "Ballard 1982, Tables I and II: Star1 and Star2 on best-ordered *-complete 2-ply trees, with Results 1 and 2",
        work: ballard::best_work,
        run: ballard::best,
        split: shard::Split::Trials,
    },
    Info {
        name: "ballard-average",
        about: "Ballard 1982, Tables III and IV and §6.2.1.3: Star1 and Star2 (1 and 2 probes) on random *-complete 2-ply trees, with the H(N) check",
        work: ballard::average_work,
        run: ballard::average,
        split: shard::Split::Trials,
    },
    Info {
        name: "ballard-variants",
        about: "Ballard 1982, §7.4: the best or third-best * node searched first, with 2-node cycling, on the random trees of ballard-average",
        work: ballard::variants_work,
        run: ballard::variants,
        split: shard::Split::Trials,
    },
    Info {
        name: "knuth-moore",
        about: "Knuth & Moore 1975: alpha-beta, NegaScout, SSS*, MTD(f) leaves on uniform trees, best/random/worst order, beside the minimal tree",
        work: knuth_moore::work,
        run: knuth_moore::run,
        split: shard::Split::Trials,
    },
    Info {
        name: "reinefeld-marsland",
        about: "Reinefeld & Marsland 1987, Figure 5: the cost model of NegaScout, NS^αβ and alpha-beta against g (d = 7, r = 2, several w)",
        work: reinefeld_marsland::work,
        run: reinefeld_marsland::figure5,
        split: shard::Split::ByMerge,
    },
    Info {
        name: "reinefeld-marsland-regions",
        about: "Reinefeld & Marsland 1987, Figure 6: where NegaScout beats alpha-beta in the g/r plane (w = 20, d = 7)",
        work: reinefeld_marsland::work,
        run: reinefeld_marsland::figure6,
        split: shard::Split::ByMerge,
    },
    Info {
        name: "reinefeld-marsland-measured",
        about: "Reinefeld & Marsland 1987: the cost model beside alpha-beta, NegaScout and NS^αβ leaves on trees generated with the same w, d, g, r",
        work: reinefeld_marsland::measured_work,
        run: reinefeld_marsland::measured,
        split: shard::Split::Trials,
    },
    Info {
        name: "win-loss",
        about: "Pearl's WIN-LOSS trees: P(root is a forced win) against P0, the crossover ξ_b, and alpha-beta's effective branching factor",
        work: win_loss::work,
        run: win_loss::run,
        split: shard::Split::Trials,
    },
    Info {
        name: "win-loss-map",
        about: "Pearl's WIN-LOSS trees: the iteration f(x) = 1 − (1 − x^b)^b and its fixed point ξ_b, on a grid of x",
        work: win_loss::map_work,
        run: win_loss::map,
        split: shard::Split::ByMerge,
    },
    Info {
        name: "convergence",
        about: "The minimax convergence theorem: the root value of trees with i.i.d. leaves concentrating at v* with F(v*) = 1 − ξ_b",
        work: convergence::work,
        run: convergence::run,
        split: shard::Split::Trials,
    },
    Info {
        name: "pathology",
        about: "Pearl's board-splitting game: share of correct first moves against search depth for minimax, product propagation and the k-rule (Nau; Tzeng & Purdom §6)",
        work: pathology::work,
        run: pathology::run,
        split: shard::Split::Trials,
    },
    Info {
        name: "pathology-games",
        about: "Nau's experiment: minimax and product propagation play the board-splitting game against each other, win rates with confidence intervals",
        work: pathology::games_work,
        run: pathology::games,
        split: shard::Split::Trials,
    },
    Info {
        name: "improvements",
        about: "Alpha-beta's enhancements (transposition table, iterative deepening, killers, history, aspiration; NegaScout, MTD(f)) alone and together, as Schaeffer 1989 measured them: nodes visited on tic-tac-toe and connect-four",
        work: improvements::work,
        run: improvements::run,
        split: shard::Split::Trials,
    },
    Info {
        name: "eval-learning",
        about: "The slides on alpha-beta analysis, max^n and pathology, \"Learning Two Player Evaluation\": the slides' method (2-ply backed-up values, least squares, iterated to a fixed point) on tic-tac-toe and on chess material beside the slides' 8/4/4/3/1; and a reference fit to tic-tac-toe's exact values, its share of correct moves against search depth beside the hand-written evaluation",
        work: eval_learning::work,
        run: eval_learning::run,
        split: shard::Split::Trials,
    },
    Info {
        name: "maxn",
        about: "max^n with and without shallow pruning on 3-player constant-sum trees, against Korf's best case (1 + √(4b − 3))/2",
        work: maxn::work,
        run: maxn::run,
        split: shard::Split::Trials,
    },
];

/// The experiment named `name`.
pub fn find(name: &str) -> Option<&'static Info> {
    EXPERIMENTS.iter().find(|e| e.name == name)
}

/// A stats-only search (no reference pass: experiments need counts, not best moves).
pub fn stats(tree: &Tree, algo: &Algorithm) -> Stats {
    let mut counter = Counter::new(tree.len());
    search::search(tree, algo, &mut counter).expect("the experiment chose an applicable tree");
    counter.finish()
}

/// Runs `trial(row, t)` for each of the `trials(row)` trials of every row, in parallel over all
/// the (row, trial) pairs (so a big row does not leave a core idle), and returns each row's
/// results in trial order: with seeds from [`seed`] and sums folded in that order, the numbers
/// are the same on any number of cores. Under `--shard` it runs only the shard's slice of the
/// pairs, and in a merge it reads them from the parts ([`shard`]): an experiment calls it once.
///
/// `possible(row, t, result)` says whether a result read from a part is one `trial` can give
/// for trial `t` of that row (a count no larger than the tree allows, a fraction in 0..=1…): a part is a file,
/// and a number edited into it would otherwise pass into the table as if computed.
pub fn per_row<T: Send + Serialize + DeserializeOwned>(
    rows: usize,
    trials: impl Fn(usize) -> u32,
    trial: impl Fn(usize, u32) -> Result<T, String> + Sync,
    possible: impl Fn(usize, u32, &T) -> Result<(), String>,
) -> Result<Vec<Vec<T>>, String> {
    let tasks: Vec<(usize, u32)> = (0..rows)
        .flat_map(|row| (0..trials(row)).map(move |t| (row, t)))
        .collect();
    let done: Vec<T> = shard::trials(
        &tasks,
        |tasks| {
            tasks
                .par_iter()
                .map(|&(row, t)| trial(row, t))
                .collect::<Result<_, _>>()
        },
        &possible,
    )?;
    let mut out: Vec<Vec<T>> = (0..rows).map(|_| Vec::new()).collect();
    for (&(row, _), x) in tasks.iter().zip(done) {
        out[row].push(x);
    }
    Ok(out)
}

/// `x`, a count named `what`, is at most `most`.
pub fn at_most(what: &str, x: u64, most: u64) -> Result<(), String> {
    if x <= most {
        Ok(())
    } else {
        Err(format!(
            "{what} {x}, more than the {most} this row can count"
        ))
    }
}

/// `x`, a count named `what`, is in `least..=most`.
pub fn between(what: &str, x: u64, least: u64, most: u64) -> Result<(), String> {
    if x < least {
        Err(format!(
            "{what} {x}, fewer than the {least} this row must count"
        ))
    } else {
        at_most(what, x, most)
    }
}

/// `x`, a count named `what`, is exactly `want`.
pub fn exactly(what: &str, x: u64, want: u64) -> Result<(), String> {
    if x == want {
        Ok(())
    } else {
        Err(format!("{what} {x}, where this row always counts {want}"))
    }
}

/// `x`, a number named `what`, is in `lo..=hi` (and so finite).
pub fn within(what: &str, x: f64, lo: f64, hi: f64) -> Result<(), String> {
    if (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(format!("{what} {x}, outside {lo}..={hi}"))
    }
}

/// The leaves of a uniform tree of branching `b` and depth `d` (saturating: a bound).
pub fn leaves_of(b: u32, d: u32) -> u64 {
    u64::from(b).saturating_pow(d)
}

/// The nodes of a uniform tree of branching `b` and depth `d` (saturating: a bound).
pub fn nodes_of(b: u32, d: u32) -> u64 {
    (0..=d).fold(0u64, |n, k| n.saturating_add(leaves_of(b, k)))
}

/// A seed for trial `trial` of row `row`, from the user's seed (SplitMix64 mixing).
pub fn seed(base: u64, row: u64, trial: u64) -> u64 {
    rng::mix64(
        base.wrapping_add(row.wrapping_mul(rng::GOLDEN_GAMMA))
            .wrapping_add(trial.wrapping_mul(0xD1B5_4A32_D192_ED03)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_is_its_table_between_title_and_notes() {
        let r = Report {
            title: "t".into(),
            columns: vec![col("n", "N"), col("x", "x"), col("paper", "paper")],
            rows: vec![
                vec![Cell::Int(2), Cell::Real(0.5, 2), Cell::None],
                vec![Cell::Int(10), Cell::Real(1.25, 2), Cell::Int(3)],
            ],
            notes: vec!["note".into()],
            plot: None,
        };
        assert_eq!(
            r.table(),
            "t\n\n N     x  paper\n 2  0.50      —\n10  1.25      3\n\nnote\n"
        );
        assert_eq!(r.csv(), r.to_table().csv());
    }

    /// What `name` ticks with options `o`, each tick's amount, sorted.
    fn ticks(name: &str, o: &Options) -> Vec<u64> {
        let info = find(name).expect("an experiment");
        let ticked = std::sync::Mutex::new(Vec::new());
        (info.run)(o, &|n| ticked.lock().unwrap().push(n)).expect("runs");
        let mut ticked = ticked.into_inner().unwrap();
        ticked.sort_unstable();
        ticked
    }

    /// The experiments whose trees differ in size tick each tree by its nodes (its cost grows
    /// with them, over orders of magnitude), and announce what they tick: the progress bar's
    /// estimate then holds through the run, instead of reading `eta 0s` while the biggest trees
    /// are still to come. Each case: its options, and its trees as (trees, branching, depth).
    #[test]
    fn experiments_tick_each_tree_by_its_nodes_and_announce_it() {
        let opts = |trials, sizes: &[u32]| Options {
            trials: Some(trials),
            seed: 3,
            sizes: Some(sizes.to_vec()),
        };
        // A uniform tree's nodes, 1 + b + … + b^d, counted here apart from `nodes_of`.
        let nodes = |b: u64, d: u32| (b.pow(d + 1) - 1) / (b - 1);
        let star = |n: u64| 1 + n + n * n + n * n * n;
        let uniform = |cases: &[(u64, u64, u32)]| -> Vec<u64> {
            cases
                .iter()
                .flat_map(|&(k, b, d)| std::iter::repeat_n(nodes(b, d), k as usize))
                .collect()
        };
        let cases: Vec<(&str, Options, Vec<u64>)> = vec![
            (
                "knuth-moore",
                opts(2, &[2]),
                // Best and worst order one tree, random order `--trials`.
                uniform(&(2..=8).map(|d| (4, 2, d)).collect::<Vec<_>>()),
            ),
            (
                "maxn",
                opts(2, &[2]),
                uniform(&(2..=9).map(|d| (2, 2, d)).collect::<Vec<_>>()),
            ),
            (
                "convergence",
                opts(2, &[3]),
                uniform(&[(2, 3, 2), (2, 3, 4), (2, 3, 6), (2, 3, 8), (2, 3, 10)]),
            ),
            // Ten values of P0 a depth.
            (
                "win-loss",
                opts(2, &[3]),
                uniform(&[(20, 3, 4), (20, 3, 8)]),
            ),
            // A row a g in 0..w.
            (
                "reinefeld-marsland-measured",
                opts(1, &[4]),
                uniform(&[(4, 4, 5)]),
            ),
            ("ballard-best", opts(5, &[2, 4]), vec![star(2), star(4)]),
            (
                "ballard-average",
                opts(3, &[2, 4]),
                [star(2); 3].into_iter().chain([star(4); 3]).collect(),
            ),
            (
                "ballard-variants",
                opts(2, &[2, 4]),
                [star(2); 2].into_iter().chain([star(4); 2]).collect(),
            ),
        ];
        for (name, o, mut want) in cases {
            want.sort_unstable();
            let ticked = ticks(name, &o);
            assert_eq!(ticked, want, "{name}: a tick a tree, its nodes");
            let work = (find(name).unwrap().work)(&o);
            assert_eq!(
                ticked.iter().sum::<u64>(),
                work,
                "{name}: ticked all it announced"
            );
        }
    }

    #[test]
    fn seeds_differ_by_row_and_trial() {
        assert_ne!(seed(1, 0, 1), seed(1, 1, 0));
        assert_eq!(seed(7, 3, 4), seed(7, 3, 4));
        // Pinned: experiment outputs are quoted with exact numbers for a seed.
        assert_eq!(seed(1, 2, 3), 0xB346_A278_EF57_AB8D);
    }
}
