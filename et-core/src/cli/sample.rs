//! `et sample`: uniform random formulas of one size.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use rand::SeedableRng;

use super::grammar_arg::{BadInput, GrammarArg};
use super::numeric;
use super::output::{finished, Output};

/// Print N formulas drawn uniformly (with replacement) from the formulas of one size.
/// The same seed gives the same formulas on every machine (ChaCha8).
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et sample --grammar strings --size 12 --n 5
  et sample --grammar fp --size 40 --n 100 --seed 7 --verbose")]
pub struct Args {
    #[command(flatten)]
    grammar: GrammarArg,
    /// The size to sample from (at most 4096, the largest size et enumerates).
    #[arg(long, value_parser = numeric::size)]
    size: u32,
    /// How many formulas, at least 1.
    #[arg(long, short = 'n', default_value = "1", value_parser = numeric::count)]
    n: u64,
    /// Random seed.
    #[arg(long, default_value = "0", value_parser = numeric::unsigned)]
    seed: u64,
    /// Also print each formula's global index on stderr.
    #[arg(long, short = 'v')]
    verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut e = args.grammar.enumeration()?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let mut out = Output::new();
    for _ in 0..args.n {
        let Some(term) = e.sample(args.size, &mut rng) else {
            return Err(BadInput(format!(
                "grammar `{}` has no formulas of size {} (see `et count`)",
                args.grammar.grammar, args.size
            ))
            .into());
        };
        if args.verbose {
            eprintln!("index {}", e.rank(&term));
        }
        e.printer().print(&term, out.buf());
        if let Err(closed) = out.end_line() {
            return finished(Err(closed));
        }
    }
    finished(out.flush())
}
