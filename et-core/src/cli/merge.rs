//! `et merge`: joins the shard directories of one study.

use std::path::PathBuf;
use std::process::ExitCode;

use et_core::report::merge::{merge, Compression};

/// Flags of `et merge`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  et merge results/core-shard-1 results/core-shard-2 --out results/core
  et merge results/core-shard-* --out results/core-gz --gzip

Shards must have the same grammar, solver pool (name, family, version), timeout,
memory limit and reference, and disjoint index ranges; otherwise nothing is written
and the message names both directories and the first differing setting (settings are
compared before ranges). runs.csv (and reference.csv) are concatenated, plain or .gz
inputs alike; bugs/ is copied; run.toml describes the union; merge.toml records each
input and how complete it was (rows present against its range × pool). An incomplete
input (a shard killed mid-run) is merged with a warning. The output is written under a
temporary name and renamed when complete.")]
pub struct Args {
    /// Run directories to merge.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The merged run directory (must not exist).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Write runs.csv.gz and reference.csv.gz (for a study to commit; `et report` and
    /// `et plot` read them, `et run --resume` does not).
    #[arg(long)]
    pub gzip: bool,
}

/// Runs `et merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let compression = if args.gzip {
        Compression::Gzip
    } else {
        Compression::Plain
    };
    let summary = merge(&args.dirs, &args.out, compression)?;
    let record = &summary.record;
    for input in &record.input {
        let state = if input.is_complete() {
            "complete"
        } else {
            "INCOMPLETE"
        };
        let torn = if input.torn_last_line {
            "; its torn last line was left out"
        } else {
            ""
        };
        eprintln!(
            "et: {}: {} of {} calls ({} formulas {}), {state}{torn}",
            input.path, input.calls, input.expected_calls, input.formulas, input.range
        );
        let left_out = et_core::campaign::row::once::LeftOut {
            duplicates: input.duplicate_rows,
            other_solvers: input.other_solver_rows,
        };
        if let Some(what) = left_out.describe() {
            eprintln!("et: warning: {}: {what} (copied as they are)", input.path);
        }
    }
    if record.input_formulas < record.formulas {
        eprintln!(
            "et: warning: the merged range claims {} formulas, the inputs cover {}: a gap between their ranges",
            record.formulas, record.input_formulas
        );
    }
    if !record.complete {
        eprintln!(
            "et: warning: {} holds {} of the {} calls its run.toml claims (see merge.toml)",
            args.out.display(),
            record.calls,
            record.expected_calls
        );
    }
    eprintln!(
        "et: merged {} dirs into {}: {} rows, {} bug files ({} renamed on name clashes)",
        args.dirs.len(),
        args.out.display(),
        summary.rows,
        summary.bug_files,
        summary.renamed
    );
    Ok(ExitCode::SUCCESS)
}
