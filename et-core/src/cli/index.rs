//! `et index`: random access by global index.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use num_bigint::BigUint;

use super::grammar_arg::GrammarArg;
use super::numeric;
use super::output::{finished, Output};

/// Print the formula at each global index (any size), one per line.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et index --grammar strings 123456789012345678
  et index --grammar core 0 1 2 --verbose
  et index --grammar fp 10^1000
  et index --grammar ints-5v2a 3*10^275 --verbose")]
pub struct Args {
    #[command(flatten)]
    grammar: GrammarArg,
    /// Global indices: decimal (any size), 10^k or k*10^j.
    #[arg(required = true, value_name = "INDEX", value_parser = numeric::index)]
    indices: Vec<BigUint>,
    /// Also print each formula's size and index on stderr.
    #[arg(long, short = 'v')]
    verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut enumeration = args.grammar.enumeration()?;
    let mut out = Output::new();
    for index in &args.indices {
        let term = enumeration.term(index)?;
        if args.verbose {
            eprintln!("index {index} size {}", term.size);
        }
        enumeration.printer().print(&term, out.buf());
        if let Err(closed) = out.end_line() {
            return finished(Err(closed));
        }
    }
    finished(out.flush())
}
