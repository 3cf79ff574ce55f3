//! `et triage`: from the bug triggers of run directories to ranked, confirmed bug
//! groups in DIR/triage/. Also the helpers `et bisect` and `et shrink` share with it:
//! the pool of installed solvers, formula files and seconds.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args as ClapArgs;

use et_core::solvers::{self, Pool};
use et_core::triage::{self, confirm::Settings, report, Options, TriageError};

use super::grammar_arg::BadInput;

/// Confirm, group and rank the bug triggers of run directories, and write a report
/// ready to paste into an issue tracker (DIR/triage/report.md, groups.csv,
/// triggers.csv, one trigger-N.smt2 per group).
///
/// Every correctness trigger is re-run --attempts times (solver and reference, fresh
/// processes, the run's timeout and memory limit); one that does not always reproduce
/// is marked flaky, not dropped. Performance triggers are re-run once at
/// --performance-factor × the run's timeout and kept only while the reference still
/// decides the formula within the run's timeout.
///
/// Each trigger is also run on every installed version of its family, in release
/// order, to find the first and last affected release. Installed versions are the
/// solvers of the run (run.toml) and of the pool file: --pool FILE, else
/// $ET_HOME/pool.toml when it exists (a solver of the run wins over a pool entry of the
/// same version). The same formula on the same solver runs once per triage.
///
/// Triggers of one solver family, kind, version range and operator signature (the set
/// of operators the formula applies; crashes: the crash signature) form one group.
/// Groups are ranked: refutational soundness (unsat on a sat formula), solution
/// soundness (sat on an unsat formula), invalid model (et's own model check before
/// self-check only), crash, performance; within a kind, groups that affect the newest
/// installed release first.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et triage results/ints
  et triage results/ints results/strings --out results/triage
  et triage results/core --attempts 3 --jobs 8
  et triage results/mine --grammar grammars/mine.pest --pool pool.toml

Several directories (several grammars, or the shards of one study) give one report;
the default --out is the first directory's triage/. The folder is replaced as a whole
when the new one is complete.")]
pub struct Args {
    /// Run directories written by `et run` (run.toml and runs.csv or runs.csv.gz).
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Output folder (default: the first DIR's triage/).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Installed solvers besides the runs' own: references not under test, and more
    /// versions of each family (default: $ET_HOME/pool.toml, if it exists).
    #[arg(long, value_name = "FILE")]
    pool: Option<PathBuf>,
    /// A grammar file for runs whose grammar is not built in (matched by file stem);
    /// repeat for several.
    #[arg(long, short = 'g', value_name = "FILE")]
    grammar: Vec<PathBuf>,
    /// Re-runs of each correctness trigger.
    #[arg(long, default_value_t = 2, value_name = "N")]
    attempts: u32,
    /// Performance triggers are re-run at this multiple of the run's timeout.
    #[arg(long, default_value_t = 4.0, value_name = "X")]
    performance_factor: f64,
    /// Solver calls at a time (default: number of cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// `--jobs`, defaulting to the number of cores; 0 is refused.
pub(super) fn jobs(jobs: Option<usize>) -> Result<usize, BadInput> {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(BadInput("--jobs must be at least 1".into()));
    }
    Ok(jobs)
}

/// A pool file: TOML, or ET's solvers.cfg when the name ends in `.cfg`.
pub(super) fn load_pool_file(path: &Path) -> anyhow::Result<Pool> {
    if path.extension().is_some_and(|e| e == "cfg") {
        let text = std::fs::read_to_string(path)
            .map_err(|e| BadInput(format!("cannot read {}: {e}", path.display())))?;
        return Ok(Pool::from_solvers_cfg(&text, path)?);
    }
    if !path.is_file() {
        return Err(BadInput(format!("pool file {} does not exist", path.display())).into());
    }
    Ok(Pool::load(path)?)
}

/// `--pool FILE`, else `$ET_HOME/pool.toml` when it exists, else nothing.
pub(super) fn installed_pool(pool: Option<&Path>) -> anyhow::Result<Option<Pool>> {
    if let Some(path) = pool {
        return load_pool_file(path).map(Some);
    }
    let default = solvers::default_pool_path(&solvers::et_home());
    if default.is_file() {
        return Ok(Some(Pool::load(&default)?));
    }
    Ok(None)
}

/// The text of a formula file, or of standard input for `-`.
pub(super) fn read_formula(path: &Path) -> anyhow::Result<String> {
    let text = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        text
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| BadInput(format!("cannot read formula {}: {e}", path.display())))?
    };
    if text.trim().is_empty() {
        return Err(BadInput(format!("formula {} is empty", path.display())).into());
    }
    Ok(text)
}

/// Seconds as `8`, `0.25` or `1/64`.
pub(super) fn parse_seconds(text: &str) -> Result<Duration, BadInput> {
    et_core::report::timeouts::parse_timeout(text)
        .map(|t| Duration::from_secs_f64(t.seconds))
        .map_err(|e| BadInput(e.to_string()))
}

/// A triage error as the CLI reports it: bad input exits 2.
fn cli_error(e: TriageError) -> anyhow::Error {
    if e.is_bad_input() {
        BadInput(e.to_string()).into()
    } else {
        e.into()
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let jobs = jobs(args.jobs)?;
    if args.attempts == 0 {
        return Err(BadInput("--attempts must be at least 1".into()).into());
    }
    if !(args.performance_factor.is_finite() && args.performance_factor >= 1.0) {
        return Err(BadInput(format!(
            "--performance-factor `{}` must be a number of at least 1",
            args.performance_factor
        ))
        .into());
    }
    for dir in &args.dirs {
        if !dir.is_dir() {
            return Err(BadInput(format!("{} is not a directory", dir.display())).into());
        }
    }
    let grammars = args
        .grammar
        .iter()
        .map(|p| et_core::builtins::load(&p.display().to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let pool = installed_pool(args.pool.as_deref())?;
    let options = Options {
        dirs: args.dirs.clone(),
        grammars,
        pool,
        settings: Settings {
            attempts: args.attempts,
            performance_factor: args.performance_factor,
        },
        jobs,
    };
    let quiet = args.quiet;
    let mut progress = |line: &str| {
        if !quiet {
            eprintln!("et: triage: {line}");
        }
    };
    let result = triage::triage(&options, &mut progress).map_err(cli_error)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.dirs[0].join("triage"));
    report::write(&result, &out)
        .map_err(cli_error)
        .with_context(|| format!("cannot write {}", out.display()))?;
    for g in &result.groups {
        let smallest = g.smallest(&result.findings);
        println!(
            "{:>3}. {:<22} {:<8} {:<16} {:<28} {:>5} trigger{} ({})",
            g.rank,
            g.key.kind.title(),
            g.key.family,
            smallest
                .range
                .as_ref()
                .map_or_else(String::new, |r| r.describe()),
            g.key.what(),
            g.members.len(),
            if g.members.len() == 1 { " " } else { "s" },
            g.outcome().label()
        );
    }
    if !quiet {
        eprintln!("et: triage: report in {}", out.join("report.md").display());
    }
    Ok(ExitCode::SUCCESS)
}
