//! The `prune` binary: parses the command line and reports failures with their exit code.

use std::process::ExitCode;

use clap::Parser;
use prune::cli::{self, Cli};

fn main() -> ExitCode {
    let args = Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprint!("{}", e.render(cli::stderr_color()));
            ExitCode::from(e.exit_code())
        }
    }
}
