//! How calls are aggregated into tables and figures: the flags `et report` and `et
//! plot` share, so both read the same numbers from the same flags, and the run
//! directories opened and aggregated with them.

use std::path::PathBuf;

use et_core::report::stats::DEFAULT_WINDOW;
use et_core::report::timeouts::{parse_timeouts, Clock, Timeout};
use et_core::report::{build_report, Report, ReportOptions, RunDir};

/// The default `--timeouts`: 1/64 s to 8 s, doubling (the published evolution study).
const DEFAULT_TIMEOUTS: &str = "1/64,1/32,1/16,1/8,1/4,1/2,1,2,4,8";

/// A parsed `--timeouts` list (a newtype, so clap takes it as one value).
#[derive(Debug, Clone)]
pub struct TimeoutGrid(pub Vec<Timeout>);

fn timeout_grid(text: &str) -> Result<TimeoutGrid, String> {
    parse_timeouts(text)
        .map(TimeoutGrid)
        .map_err(|e| e.to_string())
}

/// `--clock`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ClockArg {
    /// Wall-clock seconds (`time_s`).
    Wall,
    /// CPU seconds, user + system (`cpu_s`).
    Cpu,
}

/// How calls are aggregated: shared by `et report` and `et plot`, so both read the
/// same numbers from the same flags.
#[derive(clap::Args)]
pub struct Aggregation {
    /// Timeouts in seconds for "solved within T"; fractions like 1/64 allowed.
    #[arg(long, value_name = "LIST", default_value = DEFAULT_TIMEOUTS, value_parser = timeout_grid)]
    pub timeouts: TimeoutGrid,
    /// Which time of a call counts: `wall` (default: what `et run`'s timeout limits,
    /// so "solved within T" is what a run at timeout T would have answered) or `cpu`
    /// (user + system time: steadier when the machine was loaded). Applies to solved
    /// within T, summed times, jointly solved times and throughput.
    #[arg(long, value_enum, default_value = "wall")]
    pub clock: ClockArg,
    /// Formulas the per-formula join keeps in memory before spilling to a temp file.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_WINDOW as u64,
          value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    pub window: u64,
}

/// Opens the directories and aggregates them; says on stderr which inputs are
/// incomplete.
pub fn load(dirs: &[PathBuf], aggregation: &Aggregation) -> anyhow::Result<Report> {
    let options = ReportOptions {
        timeouts: aggregation.timeouts.0.clone(),
        window: usize::try_from(aggregation.window).unwrap_or(usize::MAX),
        clock: match aggregation.clock {
            ClockArg::Wall => Clock::Wall,
            ClockArg::Cpu => Clock::Cpu,
        },
    };
    let dirs = dirs
        .iter()
        .map(RunDir::open)
        .collect::<Result<Vec<_>, _>>()?;
    for dir in &dirs {
        if let Some(problem) = dir.grammar_problem() {
            eprintln!(
                "et: warning: {}: {problem}; its rows are counted, but `et triage` and \
                 `et run --resume` cannot rebuild its formulas",
                dir.path.join("run.toml").display()
            );
        }
    }
    let report = build_report(&dirs, &options)?;
    for input in report.inputs.iter().filter(|i| !i.is_complete()) {
        eprintln!("et: warning: incomplete input: {}", input.describe());
    }
    for input in &report.inputs {
        if let Some(what) = input.left_out.describe() {
            eprintln!("et: warning: {}: {what}", input.path.display());
        }
    }
    Ok(report)
}
