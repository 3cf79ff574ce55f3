//! The `et` command line: a thin shell over `et_core`. Each subcommand lives in its
//! own module under `cli/` with an `Args` struct and a `run` function.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    quiet_on_a_closed_stdout();
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

/// `et grammars | head -1`: once the reader of et's standard output has gone, a print
/// fails, and Rust's print macros panic on it. That is no error of et's, and no
/// backtrace is due: et stops at once, as a Unix tool killed by SIGPIPE would, with
/// that status (141). SIGPIPE itself stays ignored: et writes scripts to solvers'
/// standard input, and a solver that exits early must not kill et.
fn quiet_on_a_closed_stdout() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(128 + libc::SIGPIPE);
        }
        default_hook(info);
    }));
}
