//! The `et` command line: a thin shell over `et_core`. Each subcommand lives in its
//! own module under `cli/` with an `Args` struct and a `run` function.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
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
