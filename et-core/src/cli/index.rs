//! `et index`: random access by global index.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use super::grammar_arg::{parse_index, GrammarArg};
use super::output::{finished, Output};

/// Print the formula at each global index (any size), one per line.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et index --grammar strings 123456789012345678
  et index --grammar core 0 1 2 --verbose
  et index --grammar fp 10^1000")]
pub struct Args {
    #[command(flatten)]
    grammar: GrammarArg,
    /// Global indices (decimal, any size, or 10^k).
    #[arg(required = true, value_name = "INDEX")]
    indices: Vec<String>,
    /// Also print each formula's size and index on stderr.
    #[arg(long, short = 'v')]
    verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let indices = args
        .indices
        .iter()
        .map(|i| parse_index(i))
        .collect::<Result<Vec<_>, _>>()?;
    let mut enumeration = args.grammar.enumeration()?;
    let mut out = Output::new();
    for index in &indices {
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
