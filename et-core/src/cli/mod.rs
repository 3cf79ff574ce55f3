//! Subcommands of `et`. Each module owns one subcommand: its flags, help text with
//! examples, and the glue from flags to the library. No logic lives here that a
//! library user would also need.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod solvers;

/// Exit code for bad input (grammar, config, arguments).
pub const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "et",
    version,
    about = "Test SMT solvers on the smallest formulas of a theory grammar",
    long_about = "et enumerates the N smallest formulas of an SMT theory grammar (FEAT order), \
runs them through a pool of solver versions, cross-checks the answers and logs \
correctness and performance to CSV.",
    after_help = "Examples:
  et grammars
  et enumerate --grammar strings --n 1000000 > /dev/null
  et index --grammar strings 123456789012345678
  et count --grammar core --max-size 8"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Install solver releases side by side, list and check solver pools.
    Solvers(solvers::Args),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solvers(args) => solvers::run(args),
    }
}

/// Prints an error chain as one `et: ...` line per cause and picks the exit code.
pub fn report_error(err: &anyhow::Error) -> ExitCode {
    eprintln!("et: {err}");
    for cause in err.chain().skip(1) {
        eprintln!("  caused by: {cause}");
    }
    ExitCode::FAILURE
}
