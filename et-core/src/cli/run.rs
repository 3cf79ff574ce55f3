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
use et_core::solvers::{self, Pool};

use super::grammar_arg::{BadInput, GrammarArg, RangeArg};

/// Stream the N smallest formulas of a grammar to a pool of solvers, cross-check the
/// answers and log every call to DIR/runs.csv.
///
/// Each solver is judged against a reference (default: the newest release of the other
/// family in the pool, as in ET). Correctness bugs are saved under DIR/bugs/. Ctrl-C
/// stops cleanly (exit 130); --resume continues exactly where a run stopped, even after
/// `kill -9`.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et run --grammar core --n 400 --timeout 8 --out results/core-400
  et run --grammar strings --n 100000 --solvers z3-4.13.0,cvc5-1.2.0 --timeout 8
  et run --grammar strings --n 100000 --solvers pool.toml --timeout 1/4 --jobs 8
  et run --grammar ints --n 1000000 --shard $SLURM_ARRAY_TASK_ID/16 --timeout 8 --out results/ints-$SLURM_ARRAY_TASK_ID
  et run --grammar core --n 400 --timeout 8 --out results/core-400 --resume")]
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
    /// Judge every solver against this one instead of the default rule.
    #[arg(long, value_name = "NAME")]
    pub(super) reference: Option<String>,
    /// Wall-clock limit per call in seconds (decimal or a fraction like 1/64).
    #[arg(long, value_name = "SECS")]
    pub(super) timeout: String,
    /// Memory limit per call in MiB (address space).
    #[arg(long, value_name = "MB")]
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
    /// No progress display and no summary table.
    #[arg(long, short = 'q')]
    pub(super) quiet: bool,
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
pub(super) fn parse_seconds(text: &str) -> Result<Duration, BadInput> {
    et_core::report::timeouts::parse_timeout(text)
        .map(|t| Duration::from_secs_f64(t.seconds))
        .map_err(|e| BadInput(e.to_string()))
}

pub(super) fn load_pool(args: &Args) -> anyhow::Result<(Pool, Vec<solvers::SolverConfig>)> {
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let timeout = parse_seconds(&args.timeout)?;
    let start = args.range.start()?;
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
        if reference.is_empty() {
            return Err(BadInput("--reference needs a solver name".into()).into());
        }
    }
    let (pool, under_test) = load_pool(&args)?;
    if let Some(reference) = &args.reference {
        if pool.get(reference).is_none() {
            return Err(BadInput(format!(
                "--reference `{reference}` is not in the pool (solvers: {})",
                pool.names().join(", ")
            ))
            .into());
        }
    }
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
        memory_mb: args.memory,
        jobs,
        out: out.clone(),
        resume: args.resume,
        reference_cache: args.reference_cache.clone(),
    };
    let cancel = install_signal_handlers();
    let mut progress = Progress::for_stderr(args.quiet);
    let summary = campaign.run(enumeration, cancel, &mut progress)?;
    if summary.interrupted {
        return Ok(ExitCode::from(130));
    }
    if !args.quiet {
        eprintln!("et: results in {}", out.display());
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
