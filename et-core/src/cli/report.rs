//! `et report`: terminal tables (and CSV files) from run directories.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use et_core::report::render::{write_csv, write_text};
use et_core::report::stats::DEFAULT_WINDOW;
use et_core::report::tables::tables;
use et_core::report::timeouts::{parse_timeouts, Timeout};
use et_core::report::{build_report, Report, ReportOptions, RunDir};

/// Flags of `et report`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  et report results/core
  et report results/core results/strings --timeouts 1/64,1/8,1,8
  et report results/shard-* --csv results/tables

Tables: bug triggers (correctness verdicts), performance verdicts, solved formulas per
timeout (sat/unsat within T, derived from one run at the largest timeout), time and
throughput, regressions between consecutive versions of a family. Memory does not grow
with the number of rows.")]
pub struct Args {
    /// Run directories written by `et run` (each holds runs.csv and run.toml).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Timeouts in seconds for the solved-formulas table; fractions like 1/64 allowed.
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1/64,1/32,1/16,1/8,1/4,1/2,1,2,4,8"
    )]
    pub timeouts: String,
    /// Also write each table as OUTDIR/NAME.csv (bugs, performance, solved, time, regressions).
    #[arg(long, value_name = "OUTDIR")]
    pub csv: Option<PathBuf>,
    /// Formulas the per-formula join keeps in memory before spilling to a temp file.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WINDOW)]
    pub window: usize,
}

/// Opens the directories and aggregates them (shared with `et plot`).
pub fn load(dirs: &[PathBuf], timeouts: Vec<Timeout>, window: usize) -> anyhow::Result<Report> {
    let options = ReportOptions { timeouts, window };
    let dirs = dirs
        .iter()
        .map(RunDir::open)
        .collect::<Result<Vec<_>, _>>()?;
    // Timeouts above the run's own limit cannot add solved formulas; say so once.
    let largest = options.timeouts.last().map_or(0.0, |t| t.seconds);
    for d in &dirs {
        if largest > d.manifest.timeout_s {
            eprintln!(
                "et: note: {} ran with timeout {} s; columns above it repeat that value",
                d.path.display(),
                d.manifest.timeout_s
            );
        }
    }
    Ok(build_report(&dirs, &options)?)
}

/// Runs `et report`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let timeouts = parse_timeouts(&args.timeouts)?;
    let report = load(&args.dirs, timeouts, args.window)?;
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
