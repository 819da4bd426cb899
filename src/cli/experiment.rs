//! `prune experiment`: the papers' tables recomputed (see `docs/EXPERIMENTS.md`).

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{CliError, print};
use crate::experiment::{self, EXPERIMENTS, Options};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Table,
    Csv,
    Json,
}

#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// The experiment to run (see --list).
    #[arg(value_name = "NAME", required_unless_present = "list")]
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
    pub plot: Option<std::path::PathBuf>,
}

/// The most trials a row: beyond this an experiment would run for days and hold gigabytes of
/// per-trial results.
const MAX_TRIALS: u32 = 10_000_000;

pub fn run(a: &ExperimentArgs) -> Result<(), CliError> {
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
        let suggestion = crate::text::closest_name(name, names.iter().copied());
        return Err(CliError::Usage(format!(
            "unknown experiment `{name}`; {}",
            crate::text::did_you_mean(suggestion, "experiments", &names)
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
    // On a terminal only: indicatif draws nothing when stderr is piped.
    let bar = ProgressBar::with_draw_target(Some((info.work)(&opts)), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {pos}/{len} trees, {elapsed} (eta {eta})")
            .expect("a valid template"),
    );
    bar.set_message(info.name);
    let report = (info.run)(&opts, &|n| bar.inc(n)).map_err(CliError::Usage)?;
    bar.finish_and_clear();
    if let Some(path) = &a.plot {
        let spec = report
            .plot
            .as_ref()
            .ok_or_else(|| CliError::Usage(format!("{} has no chart", info.name)))?;
        let svg = experiment::plot::svg(&report, spec).map_err(CliError::Internal)?;
        super::write_output(path, |w| w.write_all(svg.as_bytes()))?;
    }
    print(&match a.format {
        OutputFormat::Table => report.table(),
        OutputFormat::Csv => report.csv(),
        OutputFormat::Json => report.json(),
    })
}
