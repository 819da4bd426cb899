//! `prune tui --import ENGINE.jsonl --tree FILE` (or `--game NAME --depth D`, the game
//! written out from its rules as `check-trace --game` does): an engine's trace opened in the
//! explorer beside prune's own run of the search it claims (and any `--run`), at the first
//! departure `prune check-trace` finds, which the status bar says.
//!
//! The file is read and judged before the explorer's terminal check, so a bad file is
//! reported (exit 2, with its line and column) whether or not prune talks to a terminal.
//! prune's runs are searched before the first frame, not in the background, so that the
//! engine's run, pushed last, is the one on screen when the explorer opens.

use std::path::Path;

use super::check_trace::{judge, read_trace};
use super::{CliError, STDIN, on_terminal};
use crate::tui::RunView;
use prune::protocol::import;
use prune::search::Algorithm;
use prune::tree::Tree;

/// Opens `trace` on `(tree, source)`, the tree the engine searched and its name.
pub fn explore(
    trace: &Path,
    (tree, source): (Tree, String),
    specs: &[String],
) -> Result<(), CliError> {
    let name = if trace.as_os_str() == "-" {
        STDIN.to_owned()
    } else {
        trace.display().to_string()
    };
    let protocol = read_trace(&name, trace)?;
    let claimed = protocol.header.claim.algorithm();
    let mut algos = vec![claimed.clone()];
    for spec in specs {
        let algo = Algorithm::parse(spec, &Default::default()).map_err(CliError::usage)?;
        if let Some(why) = algo.refusal(&tree) {
            return Err(CliError::Usage(format!("cannot run {algo}: {why}")));
        }
        if !algos.contains(&algo) {
            algos.push(algo);
        }
    }
    let verdict = judge(protocol, Some(&tree))?;
    if !on_terminal() {
        return Err(CliError::Usage(
            "the explorer needs a terminal (stdin and stdout); for scripts use `prune check-trace`"
                .into(),
        ));
    }
    let mut recorded = algos
        .into_iter()
        .map(|a| RunView::new(&tree, a))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    let engine = import::import(&tree, &verdict.trace);
    let departure = verdict
        .departure
        .as_ref()
        .map(|d| (d.at(), import::sentence(d)));
    recorded.push(RunView::imported(
        &tree,
        engine,
        &verdict.trace.header,
        departure,
    ));
    let status = verdict
        .departure
        .as_ref()
        .map(|d| (import::sentence(d), true));
    super::explore_recorded(tree, source, recorded, status)
}
