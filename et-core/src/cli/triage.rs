//! `et triage`: from the bug triggers of run directories to ranked, confirmed bug
//! groups in DIR/triage/.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;

use et_core::triage::{self, confirm::Settings, report, Options};

use super::args::{jobs, MAX_JOBS};
use super::grammar_arg::BadInput;
use super::inputs::installed_pool;
use super::notes::note_supervision;

/// Confirm, group and rank the bug triggers of run directories, and write a report
/// ready to paste into an issue tracker (DIR/triage/report.md, groups.csv,
/// triggers.csv, one trigger-N.smt2 per group).
///
/// Every correctness trigger is re-run --attempts times (solver and reference, fresh
/// processes, the run's timeout and memory limit); one that does not always reproduce
/// is marked flaky, not dropped. Performance triggers are re-run once at
/// --performance-factor × the run's timeout and kept only while the reference still
/// decides the formula within the run's timeout or et's witness shows it satisfiable:
/// of each candidate group (see below)
/// the --confirm smallest that survive; the others keep the run's own observation,
/// which was made in a fresh process (outcome `not_rerun`). A confirmed one is run once
/// more without the solver's answer checks (--check-models, --check-unsat-cores,
/// model_validate=true): triggers.csv's unchecked_answer says whether it then decides
/// in time, and groups slow only while checking rank after the others.
///
/// Triggers are also run on every installed version of their family, in release
/// order, to find the first and last affected release: of each candidate group
/// (triggers of one solver, kind, verdict and operator signature, or crash signature)
/// those of the --ranged smallest formulas; the others take the range of the group's
/// smallest. Installed versions are the solvers of the run (run.toml) and of the pool
/// file: --pool FILE, else $ET_HOME/pool.toml when it exists (a solver of the run wins
/// over a pool entry of the same version). The same formula on the same solver runs
/// once per triage.
///
/// Triggers of one solver family, kind, version range and operator signature (the set
/// of operators the formula applies; crashes: the crash signature) form one group.
/// Groups are ranked: refutational soundness (unsat on a sat formula), solution
/// soundness (sat on an unsat formula), invalid model (et's own model check before
/// self-check only), crash, performance, validator false alarm (a valid model the
/// solver's own check rejected); within a kind, groups that affect the newest
/// installed release first.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et triage results/ints
  et triage results/ints results/strings --out results/triage
  et triage results/core --attempts 3 --jobs 8
  et triage results/ints --ranged all
  et triage results/ints --confirm all --performance-factor 2
  et triage results/mine --grammar my.pest --pool pool.toml
  et triage results/ints --journal ints-calls.csv   # run again after a kill: goes on

Several directories (several grammars, or the shards of one study) give one report;
the default --out is the first directory's triage/. The folder is replaced as a whole
when the new one is complete. A confirmed timeout or unknown is run once more without
the solver's answer checks (--check-models, --check-unsat-cores, model_validate=true):
triggers.csv's unchecked_answer says what it answered then. The timeout a report is
about is shrunk beyond the grammar (each step confirmed at --performance-factor × the
limits against the reference), and groups whose shrunk formulas coincide are one
report; a reported timeout or unknown with a witness is asked again with the witness
pinned.")]
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
    /// Re-runs of each correctness trigger, 1 to 100.
    #[arg(long, default_value_t = 2, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=100))]
    attempts: u32,
    /// Performance triggers are re-run at this multiple of the run's timeout (1 to
    /// 1000).
    #[arg(long, default_value = "4", value_name = "X", value_parser = factor)]
    performance_factor: f64,
    /// Performance triggers (timeouts, unknowns) re-run per candidate group (one
    /// solver, verdict and operators): the N smallest that are not dropped (1 to
    /// 1000000), or every one (`all`); the others keep the run's own fresh
    /// observation. Correctness triggers are always re-run.
    #[arg(long, default_value = "3", value_name = "N|all", value_parser = how_many)]
    confirm: HowMany,
    /// Version ranges are measured on the re-run triggers of the N smallest formulas of
    /// each candidate group (1 to 1000000), or of every formula (`all`; with `--confirm
    /// all`, every trigger).
    #[arg(long, default_value = "3", value_name = "N|all", value_parser = how_many)]
    ranged: HowMany,
    /// Solver calls at a time, 1 to 1024 (default: number of cores).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u64).range(1..=MAX_JOBS))]
    jobs: Option<u64>,
    /// Record every solver call in FILE as it finishes, and answer the calls FILE
    /// already holds from it: a triage stopped part-way (a kill, a session's end) goes
    /// on where it stopped when run again with the same FILE.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// `--confirm`, `--ranged`: a number of formulas per candidate group, or `None` for all.
#[derive(Clone, Copy)]
struct HowMany(Option<usize>);

/// A clap value parser for `--confirm` and `--ranged`: `all`, or a number from 1 to
/// 1000000.
fn how_many(text: &str) -> Result<HowMany, String> {
    match text.trim() {
        "all" => Ok(HowMany(None)),
        t => match t.parse::<usize>() {
            Ok(n) if (1..=1_000_000).contains(&n) => Ok(HowMany(Some(n))),
            _ => Err(format!(
                "`{text}` is not `all` or a number from 1 to 1000000"
            )),
        },
    }
}

/// A clap value parser for `--performance-factor`: a number from 1 to 1000 (NaN,
/// infinity and smaller factors are refused naming the value).
fn factor(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if (1.0..=1000.0).contains(&x) => Ok(x),
        _ => Err(format!("`{text}` is not a number from 1 to 1000")),
    }
}

/// Checks that the report folder `out` can be written: its parent (where the folder is
/// staged and renamed into place) is a directory et can create files in, or can be
/// created; an `out` that exists must be a directory. Nothing is left behind.
fn writable_out(out: &Path) -> anyhow::Result<()> {
    let bad = |why: String| BadInput(format!("--out {}: {why}", out.display()));
    if out.exists() && !out.is_dir() {
        return Err(bad("not a directory".into()).into());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // The nearest ancestor that exists is where et would create what is missing.
    let mut existing = parent.as_path();
    while !existing.exists() {
        existing = match existing.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
    }
    if !existing.is_dir() {
        return Err(bad(format!("{} is not a directory", existing.display())).into());
    }
    tempfile::Builder::new()
        .prefix(".et-triage-check-")
        .tempfile_in(existing)
        .map(drop)
        .map_err(|e| bad(format!("cannot write in {}: {e}", existing.display())).into())
}

/// Runs `et triage`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let jobs = jobs(args.jobs);
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
            performance_formulas: args.confirm.0,
        },
        ranged: args.ranged.0,
        jobs,
        journal: args.journal.clone(),
    };
    let quiet = args.quiet;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.dirs[0].join("triage"));
    // Before any re-run: a report that cannot be written is known now, not after them.
    writable_out(&out)?;
    note_supervision();
    let mut progress = super::progress::Steps::for_stderr("triage", quiet);
    let result = triage::triage(&options, &mut progress)?;
    report::write(&result, &out).with_context(|| format!("cannot write {}", out.display()))?;
    println!("{}", et_core::triage::bug_reports::headline(&result));
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
        // Where a user goes next: the reports to file, one per root cause.
        let bugs = out.join("bugs");
        let to_file = std::fs::read_dir(&bugs).map_or(0, |entries| {
            entries
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
                .count()
        });
        match to_file {
            0 => eprintln!("et: triage: nothing to file"),
            1 => eprintln!("et: triage: 1 report to file: {}/", bugs.display()),
            n => eprintln!(
                "et: triage: {n} reports to file, one per root cause: {}/",
                bugs.display()
            ),
        }
    }
    Ok(ExitCode::SUCCESS)
}
