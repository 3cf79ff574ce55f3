//! `et count`: part cardinalities.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use num_traits::Zero;

use super::grammar_arg::GrammarArg;
use super::numeric;
use super::output::{finished, Output};

/// Print, per size, the number of formulas of that size and of all sizes up to it.
///
/// The cumulative count at size k is the global index of the first formula of size
/// k+1.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et count --grammar core
  et count --grammar strings --max-size 30")]
pub struct Args {
    #[command(flatten)]
    grammar: GrammarArg,
    /// Largest size to list, at most 4096 (default: the smallest size with formulas
    /// + 10, or the largest size of a finite grammar).
    #[arg(long, value_parser = numeric::size)]
    max_size: Option<u32>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut e = args.grammar.enumeration()?;
    let max = args
        .max_size
        .unwrap_or_else(|| e.max_size().unwrap_or_else(|| e.smallest_size() + 10));
    let mut out = Output::new();
    out.buf()
        .extend_from_slice(b"size\tcardinality\tcumulative\n");
    for size in 0..=max {
        let card = e.part_cardinality(size);
        if card.is_zero() && e.count_below(size).is_zero() {
            continue; // leading empty parts
        }
        let cumulative = e.count_below(size + 1);
        let line = format!("{size}\t{card}\t{cumulative}");
        out.buf().extend_from_slice(line.as_bytes());
        if let Err(closed) = out.end_line() {
            return finished(Err(closed));
        }
    }
    finished(out.flush())
}
