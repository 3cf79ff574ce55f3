//! `et enumerate`: formulas in FEAT order, streamed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;
use num_bigint::BigUint;

use super::grammar_arg::{BadInput, GrammarArg, RangeArg};
use super::output::{finished, Closed, Output};

/// Print the formulas at global indices START .. START+N−1, one per line.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et enumerate --grammar core --n 10
  et enumerate --grammar strings --n 1000000 > strings.txt
  et enumerate --grammar ints --start 10^6 --n 5        # 10^k is accepted
  et enumerate --grammar core --n 10^6 > core.txt       # ... for --n too
  et enumerate --grammar strings-5v2a --start 3*10^300 --n 2
  et enumerate --grammar my.pest --n 100 --out-dir formulas/
  et enumerate --grammar core --n 10 --out-dir formulas/ --force   # replace what is there")]
pub struct Args {
    #[command(flatten)]
    grammar: GrammarArg,
    #[command(flatten)]
    range: RangeArg,
    /// Write DIR/<index>.smt2 files instead of printing (refused if one of them
    /// exists, unless --force); a summary goes to stderr.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// With --out-dir: replace formula files that exist.
    #[arg(long, requires = "out_dir")]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let start = args.range.start.clone();
    let mut enumeration = args.grammar.enumeration()?;
    // Asked before the stream borrows the enumeration: where a finite grammar ends.
    let total = enumeration.total();
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
            // The indices that will be written: up to the end of a finite grammar.
            let requested = &start + args.range.n;
            let end = total.map_or(requested.clone(), |t| t.min(requested).max(start.clone()));
            let existing = existing_formulas(dir, &start, &end)?;
            // Files of an earlier enumeration may be another grammar's or another
            // range's: replacing them silently would mix two sets.
            if let (Some(first), false) = (existing.first(), args.force) {
                let more = match existing.len() {
                    1 => String::new(),
                    n => format!(" (and {} more of the {} to write)", n - 1, &end - &start),
                };
                return Err(BadInput(format!(
                    "{} exists{more}; give --force to replace it, or another --out-dir",
                    dir.join(first).display()
                ))
                .into());
            }
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
            say_written(dir, &start, produced, existing.len());
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

/// The names of the formula files `<index>.smt2` in `dir` whose index is in `start ..
/// end`, smallest index first; none if `dir` is not a folder (creating it will say
/// why, if it is a file).
fn existing_formulas(dir: &Path, start: &BigUint, end: &BigUint) -> anyhow::Result<Vec<String>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let entries = fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut found: Vec<(BigUint, String)> = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // Only the names et writes: `007.smt2` is not index 7's file, nor overwritten.
        let Some(index) = name
            .strip_suffix(".smt2")
            .and_then(|i| i.parse::<BigUint>().ok().filter(|n| n.to_string() == i))
        else {
            continue;
        };
        if &index >= start && &index < end {
            found.push((index, name));
        }
    }
    found.sort();
    Ok(found.into_iter().map(|(_, name)| name).collect())
}

/// One line on stderr saying what `--out-dir` holds now: how many files, which, where.
fn say_written(dir: &Path, start: &BigUint, written: u64, replaced: usize) {
    let files = match written {
        0 => return,
        1 => format!("1 formula file ({start}.smt2)"),
        n => format!(
            "{n} formula files ({start}.smt2 ... {}.smt2)",
            start + (n - 1)
        ),
    };
    let replaced = match replaced {
        0 => String::new(),
        n => format!(", replacing {n} that existed"),
    };
    eprintln!("et: wrote {files} to {}{replaced}", dir.display());
}
