//! The `prune` binary: parses the command line and reports failures with their exit code.

use std::process::ExitCode;

use clap::Parser;
use prune::memory::HugePages;
use prune_cli::cli::{self, Cli};

/// Big blocks mapped on their own (the arena's hot columns on huge pages), and exit code 2 with a message when memory runs out: the binary's
/// choice, declared here so that the library binds no other program to it.
#[global_allocator]
static ALLOCATOR: HugePages = HugePages;

fn main() -> ExitCode {
    let args = Cli::try_parse().unwrap_or_else(|e| cli::refuse_command_line(e));
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprint!("{}", e.render(cli::stderr_color()));
            ExitCode::from(e.exit_code())
        }
    }
}
