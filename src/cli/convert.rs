//! `prune convert`: between RON, .efg and bracket notation.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, emit, load_file, refuse_output_over_input};
use crate::format::{self, Format};

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Input file (`-`: stdin), then output file (`-` or nothing: stdout). With --expr, only the output.
    #[arg(value_name = "IN OUT", num_args = 0..=2)]
    pub paths: Vec<PathBuf>,
    /// Read a bracket-notation tree instead of an input file.
    #[arg(long, value_name = "TREE")]
    pub expr: Option<String>,
    /// With --expr: an unmarked root is a Min node.
    #[arg(long, requires = "expr")]
    pub min_root: bool,
    /// Input format, whatever the input's extension: ron, efg or bracket.
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<Format>,
    /// Output format, whatever the output's extension (RON by default on stdout).
    #[arg(long, value_name = "FORMAT")]
    pub to: Option<Format>,
}

pub fn run(a: &ConvertArgs) -> Result<(), CliError> {
    let (tree, out) = match (&a.expr, a.paths.as_slice()) {
        (Some(e), []) => (format::parse_expr(e, a.min_root)?, None),
        (Some(e), [out]) => (format::parse_expr(e, a.min_root)?, Some(out)),
        (Some(_), _) => {
            return Err(CliError::Usage(
                "with --expr, give only the output file".into(),
            ));
        }
        (None, [input]) => (load_file(input, a.from)?, None),
        (None, [input, out]) => {
            refuse_output_over_input(Some(input), [Some(out)])?;
            (load_file(input, a.from)?, Some(out))
        }
        (None, _) => {
            return Err(CliError::Usage(
                "give an input file (or --expr TREE) and an output file".into(),
            ));
        }
    };
    let to = Format::for_output(out.map(PathBuf::as_path), a.to).map_err(CliError::Usage)?;
    format::check_text_room(&tree, to).map_err(CliError::Usage)?;
    emit(out, &format::write(&tree, to))
}
