//! `et run`: the differential campaign.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use num_traits::CheckedSub;

use et_core::campaign::plan::{Plan, Shard};
use et_core::campaign::progress::Progress;
use et_core::campaign::runner::Campaign;
use et_core::enumeration::Enumeration;
use et_core::oracle::Verdict;
use et_core::solvers::{self, Pool};

use super::grammar_arg::{BadInput, GrammarArg, RangeArg};

/// Stream the N smallest formulas of a grammar to a pool of solvers, cross-check the
/// answers and log every call to DIR/runs.csv.
///
/// Each solver is judged against a reference: by default the pool's [[reference]]
/// rules, then et's study rule (z3 <= 4.8.10 on strings is judged by the newest z3
/// without Unicode strings), then ET's rule (the newest release of the other family).
/// Correctness bugs are saved under DIR/bugs/. Ctrl-C stops cleanly (exit 130);
/// --resume continues exactly where a run stopped, even after `kill -9`. With
/// --fail-on, a completed run that found one of those verdicts exits 3 (for CI).
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et run --grammar core --n 400 --timeout 8 --out results/core-400
  et run --grammar strings --n 100000 --solvers z3-4.13.0,cvc5-1.2.0 --timeout 8
  et run --grammar strings --n 100000 --solvers pool.toml --timeout 1/4 --jobs 8
  et run --grammar ints --n 1000000 --shard $SLURM_ARRAY_TASK_ID/16 --timeout 8 --out results/ints-$SLURM_ARRAY_TASK_ID
  et run --grammar core --n 400 --timeout 8 --out results/core-400 --resume
  et run --grammar strings --n 2000 --timeout 1 --solvers z3-trunk --reference z3-4.13.0 \\
      --reference-cache ~/.cache/et/strings-refs.csv --fail-on unsound,invalid_model,crash --out ci/strings
  et run --grammar ints --n 5000 --timeout 2 --solvers z3-trunk --reference z3-4.13.0,cvc5 --out ci/ints
  et run --grammar ints --n 10000 --timeout 8 --cpu-timeout 4 --memory 2048 --out results/ints

Each solver call runs in a cgroup of its own where the machine allows it (run.toml
records `supervision`): the timeout kills the solver's whole process tree, --memory
limits the tree's memory, and CPU time and peak memory are the tree's totals. Where
cgroups are not usable, et says so once and uses a process group per call.")]
pub struct Args {
    #[command(flatten)]
    pub(super) grammar: GrammarArg,
    #[command(flatten)]
    pub(super) range: RangeArg,
    /// Run only shard k of K (k in 1..=K): the formulas whose offset is ≡ k−1 mod K.
    #[arg(long, value_name = "k/K")]
    pub(super) shard: Option<Shard>,
    /// Pool file (default: $ET_HOME/pool.toml, installed on first use).
    #[arg(long, value_name = "FILE")]
    pub(super) pool: Option<PathBuf>,
    /// Solvers under test: comma-separated names from the pool, or a pool file
    /// (.toml, or ET's solvers.cfg). Default: the whole pool.
    #[arg(long, value_name = "NAMES|FILE")]
    pub(super) solvers: Option<String>,
    /// Judge every solver against these instead of the pool's rules: comma-separated
    /// solver names or families (a family means its newest release), in order; the
    /// first that decides a formula (sat/unsat) is the reference on it.
    #[arg(long, value_name = "NAME,...")]
    pub(super) reference: Option<String>,
    /// Wall-clock limit per call in seconds (decimal or a fraction like 1/64).
    #[arg(long, value_name = "SECS")]
    pub(super) timeout: String,
    /// CPU-time limit per call in seconds, beside the wall-clock --timeout (all
    /// processes of the call, with cgroups); exceeding it is `timeout`.
    #[arg(long, value_name = "SECS", value_parser = seconds)]
    pub(super) cpu_timeout: Option<Duration>,
    /// Memory limit per call in MiB: the memory of the solver's whole process tree
    /// (cgroups), else each process's address space.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) memory: Option<u64>,
    /// Parallel workers (default: number of cores).
    #[arg(long, short = 'j')]
    pub(super) jobs: Option<usize>,
    /// Output directory (default: results/<grammar>-<start>-<n>[-shard-k-of-K]).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Continue the interrupted run in --out.
    #[arg(long)]
    pub(super) resume: bool,
    /// Reference answers cache shared between runs (default: DIR/reference.csv).
    #[arg(long, value_name = "FILE")]
    pub(super) reference_cache: Option<PathBuf>,
    /// Exit with 3 when the completed run holds a call with one of these verdicts
    /// (comma-separated: unsound, invalid_model, crash, timeout, unknown); for CI.
    #[arg(long, value_name = "VERDICTS", value_delimiter = ',', value_parser = parse_verdict)]
    pub(super) fail_on: Vec<Verdict>,
    /// No progress display and no summary table.
    #[arg(long, short = 'q')]
    pub(super) quiet: bool,
}

fn parse_verdict(text: &str) -> Result<Verdict, String> {
    text.trim().parse().map_err(|_| {
        format!("`{text}` is not a verdict (unsound, invalid_model, crash, timeout, unknown)")
    })
}

/// Set by SIGINT/SIGTERM; the campaign polls it and kills in-flight calls.
static CANCEL: OnceLock<Arc<AtomicBool>> = OnceLock::new();

extern "C" fn on_signal(_: libc::c_int) {
    if let Some(flag) = CANCEL.get() {
        flag.store(true, Ordering::SeqCst);
    }
}

fn install_signal_handlers() -> Arc<AtomicBool> {
    let flag = CANCEL
        .get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone();
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to an atomic that is initialised first.
        unsafe {
            libc::signal(signal, on_signal as *const () as libc::sighandler_t);
        }
    }
    flag
}

/// Parses `8`, `0.25` or `1/64` seconds, as `et report --timeouts` does.
fn parse_seconds(text: &str) -> Result<Duration, BadInput> {
    seconds(text).map_err(BadInput)
}

/// A clap value parser for a positive number of seconds (`8`, `0.25`, `1/64`), with the
/// grammar of `et report --timeouts`; NaN, infinity, zero, negative and absurdly large
/// values are refused with the reason.
pub(super) fn seconds(text: &str) -> Result<Duration, String> {
    let t = et_core::report::timeouts::parse_timeout(text).map_err(|e| e.to_string())?;
    Duration::try_from_secs_f64(t.seconds)
        .map_err(|_| format!("`{text}` seconds is too large a time limit"))
}

fn load_pool(args: &Args) -> anyhow::Result<(Pool, Vec<solvers::SolverConfig>)> {
    // `--solvers pool.toml` names a pool file of its own.
    if let Some(spec) = &args.solvers {
        let path = Path::new(spec);
        if path.is_file() {
            let pool = if path.extension().is_some_and(|e| e == "toml") {
                Pool::load(path)?
            } else {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                Pool::from_solvers_cfg(&text, path)?
            };
            let all = pool.solvers.clone();
            return Ok((pool, all));
        }
    }
    // A malformed pool file is bad input (exit 2), not an installation failure.
    let pool =
        solvers::load_pool_or_install_default(args.pool.as_deref()).map_err(|e| match e {
            solvers::install::InstallError::Pool(e) => anyhow::Error::from(e),
            other => other.into(),
        })?;
    let under_test = match &args.solvers {
        Some(names) => {
            let names: Vec<&str> = names
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .collect();
            pool.select(&names)?.solvers
        }
        None => pool.solvers.clone(),
    };
    Ok((pool, under_test))
}

/// The campaign the arguments describe, with every check `et run` makes before it
/// writes anything (timeout, range, grammar, logic, pool, judges); `et slurm submit`
/// makes the same checks.
pub(super) fn prepare(args: &Args) -> anyhow::Result<(Campaign, Enumeration)> {
    let timeout = parse_seconds(&args.timeout)?;
    let start = args.range.start.clone();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return Err(BadInput("--jobs must be at least 1".into()).into());
    }
    let mut enumeration = args.grammar.enumeration()?;
    let grammar = enumeration.grammar().name.clone();
    let mut n = args.range.n;
    if let Some(total) = enumeration.total() {
        let available = total.checked_sub(&start).unwrap_or_default();
        if BigUint::from(n) > available {
            n = u64::try_from(&available).unwrap_or(u64::MAX);
            eprintln!("et: grammar `{grammar}` has {total} formulas; running the {n} from index {start} on");
        }
    } else {
        enumeration.locate(&start)?;
    }
    if let Some(reference) = &args.reference {
        // Checked against the pool below, once it is loaded.
        if reference.split(',').all(|name| name.trim().is_empty()) {
            return Err(BadInput("--reference needs a solver name or family".into()).into());
        }
    }
    // The logic a family's prelude states (yices), checked before anything is written.
    et_core::builtins::declared_logic(enumeration.grammar())
        .map_err(|e| BadInput(e.to_string()))?;
    let (pool, under_test) = load_pool(args)?;
    let plan = Plan {
        start,
        n,
        shard: args.shard,
    };
    let out = args.out.clone().unwrap_or_else(|| {
        let shard = plan
            .shard
            .map_or(String::new(), |s| format!("-shard-{}-of-{}", s.k, s.count));
        PathBuf::from("results").join(format!("{grammar}-{}-{n}{shard}", plan.start))
    });
    let campaign = Campaign {
        grammar,
        plan,
        pool,
        under_test,
        reference: args.reference.clone(),
        timeout,
        cpu_timeout: args.cpu_timeout,
        memory_mb: args.memory,
        jobs,
        out,
        resume: args.resume,
        reference_cache: args.reference_cache.clone(),
    };
    // Judges named in --reference or the pool's rules exist, before anything is written.
    campaign.judges().map_err(|e| BadInput(e.to_string()))?;
    Ok((campaign, enumeration))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (campaign, enumeration) = prepare(&args)?;
    let out = campaign.out.clone();
    super::solvers::note_supervision();
    let cancel = install_signal_handlers();
    let mut progress = Progress::for_stderr(args.quiet);
    let summary = campaign.run(enumeration, cancel, &mut progress)?;
    if summary.interrupted {
        return Ok(ExitCode::from(130));
    }
    if !args.quiet {
        eprintln!("et: results in {}", out.display());
    }
    if !args.fail_on.is_empty() {
        let counts = et_core::campaign::gate::count_verdicts(&out.join("runs.csv"), &args.fail_on)?;
        let found: Vec<String> = counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| format!("{n} {}", v.label()))
            .collect();
        if !found.is_empty() {
            eprintln!(
                "et: --fail-on: {} in {} (triggers under {}/bugs/)",
                found.join(", "),
                out.join("runs.csv").display(),
                out.display()
            );
            return Ok(ExitCode::from(super::EXIT_VERDICT_FOUND));
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_parse_as_decimals_and_fractions() {
        assert_eq!(parse_seconds("8").unwrap(), Duration::from_secs(8));
        assert_eq!(
            parse_seconds("1/64").unwrap(),
            Duration::from_secs_f64(1.0 / 64.0)
        );
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("fast")
            .unwrap_err()
            .to_string()
            .contains("`fast`"));
    }
}
