//! `prune convert`: between RON, .efg and bracket notation.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, TreeInput, TreeSource, emit, refuse_output_over_input};
use prune::format::{self, Format};

#[derive(Debug, Args)]
// A game's flags are parsed (to refuse them with the way to its tree) but not offered.
#[command(mut_args(super::hide_game_flags))]
pub struct ConvertArgs {
    /// Input file (`-`: stdin), then output file (`-` or nothing: stdout). With --expr or
    /// --gen, only the output.
    #[arg(value_name = "IN OUT", num_args = 0..=2)]
    pub paths: Vec<PathBuf>,
    /// The other commands' ways to name a tree; the input file is the first of `paths`, which
    /// the output may follow.
    #[command(flatten)]
    pub input: TreeInput,
    /// Output format, whatever the output's extension (RON by default on stdout).
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<Format>,
}

pub fn run(a: &ConvertArgs) -> Result<(), CliError> {
    let (file, out) = paths(a)?;
    let source = TreeSource {
        file: file.cloned(),
        input: a.input.clone(),
    };
    let tree = source.load()?;
    let to = Format::for_output(out.map(PathBuf::as_path), a.to).map_err(CliError::Usage)?;
    format::check_text_room(&tree, to).map_err(CliError::Usage)?;
    emit(out, &format::write(&tree, to))
}

/// The input file and the output file among the positional arguments: both, or only the output
/// when --expr or --gen names the tree. An output that is the input is refused before reading.
fn paths(a: &ConvertArgs) -> Result<(Option<&PathBuf>, Option<&PathBuf>), CliError> {
    let named = a.input.expr.is_some() || a.input.generated.is_some();
    match (named, a.paths.as_slice()) {
        (true, []) => Ok((None, None)),
        (true, [out]) => Ok((None, Some(out))),
        (true, _) => {
            let option = if a.input.expr.is_some() {
                "--expr"
            } else {
                "--gen"
            };
            Err(CliError::Usage(format!(
                "with {option}, give only the output file"
            )))
        }
        (false, [input]) => Ok((Some(input), None)),
        (false, [input, out]) => {
            refuse_output_over_input(Some(input.as_path()), [Some(out)])?;
            Ok((Some(input), Some(out)))
        }
        (false, _) => Err(CliError::Usage(
            "give an input file (or --expr TREE) and an output file".into(),
        )),
    }
}
