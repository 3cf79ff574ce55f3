//! `et report`: terminal tables (and CSV files) from run directories.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use et_core::report::render::{write_csv, write_text};
use et_core::report::tables::tables;

use super::aggregation::{load, Aggregation};

/// Flags of `et report`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  et report results/core
  et report results/core results/strings --timeouts 1/64,1/8,1,8
  et report results/core-shard-* --csv results/tables
  et report results/evolution/runs/* --clock cpu

Tables: bug triggers (correctness verdicts, and what established them), performance
verdicts, solved formulas per timeout (sat/unsat without a bug verdict within T,
derived from one run at the largest timeout; `-` above the run's timeout), every
status, time and throughput, regressions between consecutive versions of a family,
and how complete each input is (rows present against the range × pool its run.toml
claims). Reads runs.csv or runs.csv.gz. Directories whose rows would count twice (the
same directory twice, overlapping ranges of one grammar run by a common solver) are
refused. Memory does not grow with the number of rows.")]
pub struct Args {
    /// Run directories written by `et run` or `et merge` (each holds run.toml and
    /// runs.csv or runs.csv.gz).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    #[command(flatten)]
    pub aggregation: Aggregation,
    /// Also write each table as OUTDIR/NAME.csv (bugs, performance, solved, statuses,
    /// time, regressions, inputs).
    #[arg(long, value_name = "OUTDIR")]
    pub csv: Option<PathBuf>,
}

/// Runs `et report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = load(&args.dirs, &args.aggregation)?;
    let tables = tables(&report);
    if let Some(dir) = &args.csv {
        write_csv(dir, &tables)
            .with_context(|| format!("writing CSV tables to {}", dir.display()))?;
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let written = write_text(&mut out, &tables).and_then(|()| {
        writeln!(
            out,
            "\n{} rows; {} formulas joined in memory, {} rows spilled to disk",
            report.rows, report.join.joined_in_window, report.join.spilled_rows
        )?;
        out.flush()
    });
    match written {
        // A closed pipe (`et report ... | head`) is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => {
            other.context("writing to stdout")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
