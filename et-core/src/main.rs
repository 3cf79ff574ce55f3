//! The `et` command line: a thin shell over `et_core`. Each subcommand lives in its
//! own module under `cli/` with an `Args` struct and a `run` function.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Before parsing: a shell's completion script calls et back with the words typed so
    // far, which are no command line of et's to run.
    if let Some(code) = cli::complete_if_asked() {
        return code;
    }
    // Not `Cli::parse()`: clap would print its own `error:` line and exit; et prints
    // every error itself, in one format.
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(err) => return cli::report_usage_error(&err),
    };
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => cli::report_error(&err),
    }
}
