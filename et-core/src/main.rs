//! The `et` command line: a thin shell over `et_core`. Each subcommand lives in its
//! own module under `cli/` with an `Args` struct and a `run` function.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => cli::report_error(&err),
    }
}
