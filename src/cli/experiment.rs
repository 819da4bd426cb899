//! `prune experiment`: the papers' tables recomputed (see `docs/EXPERIMENTS.md`), on one
//! machine or spread over many (`--shard K/N`, then `prune experiment merge`).

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{CliError, emit, print};
use crate::experiment::shard::{self, Shard, Split};
use crate::experiment::{self, EXPERIMENTS, Options, Report};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Table,
    Csv,
    Json,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    pub command: Option<ExperimentCommand>,
    /// The experiment to run (see --list).
    #[arg(
        value_name = "NAME",
        required_unless_present = "list",
        value_parser = super::Offered::any(super::experiment_names),
        hide_possible_values = true
    )]
    pub name: Option<String>,
    /// List the experiments.
    #[arg(long)]
    pub list: bool,
    /// Random trees per row (each experiment has its own default).
    #[arg(long, value_name = "N")]
    pub trials: Option<u32>,
    /// Seed of the random trees: the same seed gives the same numbers on any number of cores.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The sizes of the rows: N for Ballard's trees, b for uniform and win-loss trees.
    #[arg(long, value_name = "N,…", value_delimiter = ',')]
    pub sizes: Option<Vec<u32>>,
    /// Output: an aligned table (with the paper's figures beside ours), CSV, or a JSON array of
    /// row objects.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Also draw the experiment's chart as SVG into this file.
    #[arg(long, value_name = "OUT.svg")]
    pub plot: Option<PathBuf>,
    /// Run only shard K of N: every Nth trial from the Kth (the seeds of the unsharded run),
    /// written as a part for `prune experiment merge` instead of a table. The closed-form models
    /// are computed by the merge (docs/EXPERIMENTS.md).
    #[arg(long, value_name = "K/N", conflicts_with_all = ["list", "plot", "format"])]
    pub shard: Option<Shard>,
    /// With --shard: write the part into this file (standard output without it, or with `-`).
    #[arg(short, long, value_name = "FILE", requires = "shard")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// Put together the parts that `--shard K/N` wrote: the unsharded run's table, CSV, JSON
    /// and chart, byte for byte. Every shard from 1 to N must be there once, all of one
    /// experiment run with the same options.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The parts, in any order.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,
    /// Output, as for a run: an aligned table, CSV, or a JSON array of row objects.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Also draw the experiment's chart as SVG into this file.
    #[arg(long, value_name = "OUT.svg")]
    pub plot: Option<PathBuf>,
}

/// The most trials a row: beyond this an experiment would run for days and hold gigabytes of
/// per-trial results.
const MAX_TRIALS: u32 = 10_000_000;

pub fn run(a: &ExperimentArgs) -> Result<(), CliError> {
    if let Some(ExperimentCommand::Merge(m)) = &a.command {
        return merge(m);
    }
    if a.list {
        let width = EXPERIMENTS.iter().map(|e| e.name.len()).max().unwrap_or(0);
        let mut s = String::new();
        for e in EXPERIMENTS {
            s.push_str(&format!("{:<width$}  {}\n", e.name, e.about));
        }
        return print(&s);
    }
    let name = a.name.as_deref().unwrap_or_default();
    let Some(info) = experiment::find(name) else {
        let names: Vec<&str> = EXPERIMENTS.iter().map(|e| e.name).collect();
        let suggestion = prune::text::closest_name(name, names.iter().copied());
        return Err(CliError::Usage(format!(
            "unknown experiment `{name}`; {}",
            prune::text::did_you_mean(suggestion, "experiments", &names)
        )));
    };
    if a.trials == Some(0) {
        return Err(CliError::Usage("--trials must be at least 1".into()));
    }
    // Checked before any work: the trial lists of a row are held in memory.
    if let Some(t) = a.trials.filter(|&t| t > MAX_TRIALS) {
        return Err(CliError::Usage(format!(
            "--trials {t} is more than an experiment runs ({MAX_TRIALS} trees a row at most)"
        )));
    }
    let opts = Options {
        trials: a.trials,
        seed: a.seed,
        sizes: a.sizes.clone(),
    };
    if let Some(part) = a.shard {
        // A shard runs about its share of the units; one of a model the merge computes runs
        // none.
        let work = match info.split {
            Split::Trials => (info.work)(&opts).div_ceil(u64::from(part.n)),
            Split::ByMerge => 0,
        };
        let bar = progress(info.name, work);
        let json = shard::shard(info, &opts, part, &|n| bar.inc(n)).map_err(CliError::Usage)?;
        bar.finish_and_clear();
        return emit(a.output.as_ref(), &json);
    }
    let bar = progress(info.name, (info.work)(&opts));
    let report = (info.run)(&opts, &|n| bar.inc(n)).map_err(CliError::Usage)?;
    bar.finish_and_clear();
    output(&report, info.name, a.format, a.plot.as_ref())
}

/// `prune experiment merge`.
fn merge(m: &MergeArgs) -> Result<(), CliError> {
    super::refuse_output_over_input(m.parts.iter().map(PathBuf::as_path), [m.plot.as_ref()])?;
    let parts = shard::read(&m.parts).map_err(CliError::Usage)?;
    let info = parts.info;
    // The trials were run by the shards; only an experiment computed whole is work here.
    let work = match info.split {
        Split::Trials => 0,
        Split::ByMerge => (info.work)(&parts.options),
    };
    let bar = progress(info.name, work);
    let report = shard::merge(&parts, &|n| bar.inc(n)).map_err(CliError::Usage)?;
    bar.finish_and_clear();
    output(&report, info.name, m.format, m.plot.as_ref())
}

/// A progress bar of `len` units of work (an experiment's own, weighed by their cost: not
/// trees), drawn on a terminal only (indicatif draws nothing when stderr is piped), and not at
/// all when there is nothing to count.
fn progress(name: &'static str, len: u64) -> ProgressBar {
    if len == 0 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {percent:>3}%, {elapsed} (eta {eta})")
            .expect("a valid template"),
    );
    bar.set_message(name);
    bar
}

/// Prints `report` in `format`, and draws its chart into `plot` if asked.
fn output(
    report: &Report,
    name: &str,
    format: OutputFormat,
    plot: Option<&PathBuf>,
) -> Result<(), CliError> {
    if let Some(path) = plot {
        let spec = report
            .plot
            .as_ref()
            .ok_or_else(|| CliError::Usage(format!("{name} has no chart")))?;
        let svg = experiment::plot::svg(report, spec).map_err(CliError::Internal)?;
        super::write_output(path, |w| w.write_all(svg.as_bytes()))?;
    }
    print(&match format {
        OutputFormat::Table => report.table(),
        OutputFormat::Csv => report.csv(),
        OutputFormat::Json => report.json(),
    })
}
