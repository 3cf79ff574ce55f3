//! `et file`: the reports a maintainer files, from the reports of several triages.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args as ClapArgs;

use et_core::filing::{self, Disposition, Settings};
use et_core::solvers::{self, Pool};

use super::grammar_arg::BadInput;

/// One report per root cause, across triages: joined, checked against et's list of
/// known issues and the record of tracker searches, each report's command run on its
/// own file on the releases it names, performance reports timed under a long limit
/// beside the other families' newest releases.
///
/// Not filed, and said why in the README: a known issue or one incomplete by design, a
/// setting of 0 that makes the solver decide nothing (one line to its developers), a
/// long-standing slowdown under 10× the best solver, a finding the report's command no
/// longer shows. Findings that need an expert option (cvc5's option categories) are
/// filed last.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et triage results/ints -q && et file results/ints/triage --out bugs
  et triage results/core -q && et file results/ints/triage results/core/triage \\
      --out bugs --journal file-calls.csv

Each TRIAGE is a directory `et triage` wrote (groups.csv and bugs/). The output folder
gets one .md and one .smt2 per report to file and a README.md with the table of what is
filed and what is not, by hunt; it is replaced as a whole when the new one is complete.
Every release a report is about must be in the pool (`et solvers install`).")]
pub struct Args {
    /// Triage directories written by `et triage`.
    #[arg(required = true, value_name = "TRIAGE")]
    dirs: Vec<PathBuf>,
    /// Output folder.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Pool file (default: $ET_HOME/pool.toml).
    #[arg(long, value_name = "FILE")]
    pool: Option<PathBuf>,
    /// CPU seconds a performance report's command gets (1 to 3600).
    #[arg(long, default_value_t = 60, value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    long_limit: u64,
    /// The CPU seconds the campaigns ran at (1 to 3600): a performance finding answered
    /// within them is not shown again.
    #[arg(long, default_value_t = 2, value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    run_limit: u64,
    /// Root causes measured at a time (1 to 64).
    #[arg(long, short = 'j', default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// Record every solver call in FILE, and answer the calls FILE holds from it: a
    /// filing stopped part-way goes on where it stopped.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    for dir in &args.dirs {
        if !dir.join("groups.csv").is_file() {
            return Err(BadInput(format!(
                "{} is not a triage directory (no groups.csv)",
                dir.display()
            ))
            .into());
        }
    }
    let pool_path = args
        .pool
        .clone()
        .unwrap_or_else(|| solvers::default_pool_path(&solvers::et_home()));
    if !pool_path.is_file() {
        return Err(BadInput(format!("pool file {} does not exist", pool_path.display())).into());
    }
    let pool = Pool::load(&pool_path)?;
    let settings = Settings {
        long_limit: Duration::from_secs(args.long_limit),
        run_limit: Duration::from_secs(args.run_limit),
        jobs: args.jobs as usize,
        ..Settings::default()
    };
    let quiet = args.quiet;
    let mut progress = |line: &str| {
        if !quiet {
            eprintln!("et: {line}");
        }
    };
    let filing = filing::file(
        &args.dirs,
        &pool,
        &args.out,
        args.journal.as_deref(),
        &settings,
        &mut progress,
    )?;
    let to_file = filing.to_file().count();
    let known = filing
        .causes
        .iter()
        .filter(|c| matches!(c.disposition, Disposition::Known(_)))
        .count();
    println!(
        "{} reports, {} root causes: {to_file} to file, {known} known upstream or by design, \
         {} not filed for other reasons; see {}",
        filing.reports.len(),
        filing.causes.len(),
        filing.causes.len() - to_file - known,
        args.out.join("README.md").display()
    );
    Ok(ExitCode::SUCCESS)
}
