//! `et merge`: joins the shard directories of one study.

use std::path::PathBuf;
use std::process::ExitCode;

use et_core::report::merge::merge;

/// Flags of `et merge`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  et merge results/core-shard-1 results/core-shard-2 --out results/core
  et merge results/strings-* --out results/strings

Shards must have the same grammar, solver pool (name, family, version), timeout,
memory limit and reference, and disjoint index ranges; otherwise nothing is written
and the message names both directories and the differing value. runs.csv (and
reference.csv) are concatenated, bugs/ is copied, and run.toml describes the union.
The output is written under a temporary name and renamed when complete.")]
pub struct Args {
    /// Run directories to merge.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// The merged run directory (must not exist).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

/// Runs `et merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Refusals are bad input (exit 2): decided with every other exit code in cli/mod.rs.
    let summary = merge(&args.dirs, &args.out)?;
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
