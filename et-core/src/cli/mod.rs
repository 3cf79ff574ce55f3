//! Subcommands of `et`. Each module owns one subcommand: its flags, help text with
//! examples, and the glue from flags to the library. No logic lives here that a
//! library user would also need.

mod count;
mod enumerate;
mod eval;
mod grammar_arg;
mod grammars;
mod index;
mod output;
mod rank;
mod sample;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod merge;
mod plot;
mod report;
mod run;

pub use grammar_arg::BadInput;
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
  et count --grammar core --max-size 8
  et rank --grammar core formulas.txt
  et solvers install z3@4.13.0 cvc5@1.4.2
  et run --grammar core --n 400 --timeout 8 --out results/core
  et report results/core
  et eval bug.smt2 --model z3.out
  et plot results/core --out plots"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Grammars(grammars::Args),
    Enumerate(enumerate::Args),
    Index(index::Args),
    Count(count::Args),
    Sample(sample::Args),
    Rank(rank::Args),
    Run(run::Args),
    /// Evaluate a formula under a solver's model, or search for a witness.
    Eval(eval::Args),
    /// Tables of bug triggers, solved formulas, time and regressions from run directories.
    Report(report::Args),
    /// Evolution figures (SVG/PNG) from run directories.
    Plot(plot::Args),
    /// Join the shard directories of one study into one run directory.
    Merge(merge::Args),
    /// Install solver releases side by side, list and check solver pools.
    Solvers(solvers::Args),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Grammars(args) => grammars::run(args),
        Command::Enumerate(args) => enumerate::run(args),
        Command::Index(args) => index::run(args),
        Command::Count(args) => count::run(args),
        Command::Sample(args) => sample::run(args),
        Command::Rank(args) => rank::run(args),
        Command::Run(args) => run::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Report(args) => report::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Solvers(args) => solvers::run(args),
    }
}

/// Prints an error chain as one `et: ...` line per cause and picks the exit code:
/// 2 for bad input (grammar, pool file, argument values), 1 otherwise.
pub fn report_error(err: &anyhow::Error) -> ExitCode {
    eprintln!("et: {err}");
    for cause in err.chain().skip(1) {
        eprintln!("  caused by: {cause}");
    }
    if err.chain().any(|c| {
        c.is::<BadInput>()
            || c.is::<et_core::grammar::GrammarError>()
            || c.is::<et_core::solvers::PoolError>()
            || c.is::<et_core::campaign::plan::ShardError>()
            || c.is::<et_core::enumeration::IndexError>()
    }) {
        ExitCode::from(EXIT_BAD_INPUT)
    } else {
        ExitCode::FAILURE
    }
}
