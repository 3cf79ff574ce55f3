//! `et enumerate`: formulas in FEAT order, streamed.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;
use num_bigint::BigUint;

use super::grammar_arg::{GrammarArg, RangeArg};
use super::output::{finished, Closed, Output};

/// Print the formulas at global indices START .. START+N−1, one per line.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et enumerate --grammar core --n 10
  et enumerate --grammar strings --n 1000000 > strings.txt
  et enumerate --grammar ints --start 10^6 --n 5        # 10^k is accepted
  et enumerate --grammar core --n 10^6 > core.txt       # ... for --n too
  et enumerate --grammar strings-5v2a --start 3*10^300 --n 2
  et enumerate --grammar my.pest --n 100 --out-dir formulas/")]
pub struct Args {
    #[command(flatten)]
    grammar: GrammarArg,
    #[command(flatten)]
    range: RangeArg,
    /// Write DIR/<index>.smt2 files instead of printing.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = args.range.start.clone();
    let mut enumeration = args.grammar.enumeration()?;
    let mut stream = enumeration.stream_from(&start)?;
    let mut produced = 0u64;
    match &args.out_dir {
        None => {
            let mut out = Output::new();
            let result = (|| -> Result<(), Closed> {
                while produced < args.range.n && stream.print_current(out.buf()) {
                    out.end_line()?;
                    produced += 1;
                    stream.advance();
                }
                out.flush()
            })();
            if result.is_err() {
                return finished(result);
            }
        }
        Some(dir) => {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let mut index = start.clone();
            let mut text = Vec::new();
            while produced < args.range.n && stream.print_current(&mut text) {
                text.push(b'\n');
                let path = dir.join(format!("{index}.smt2"));
                // A file that exists is complete, even if et is interrupted.
                et_core::atomic_file::write(&path, &text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                text.clear();
                index += 1u32;
                produced += 1;
                stream.advance();
            }
        }
    }
    if produced < args.range.n {
        let total = &start + BigUint::from(produced);
        eprintln!(
            "et: grammar `{}` has only {total} formulas; stopped after {produced}",
            args.grammar.grammar
        );
    }
    Ok(ExitCode::SUCCESS)
}
