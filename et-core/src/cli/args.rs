//! Value parsers and flag groups several commands share: time limits, verdicts,
//! `--jobs`, and how `et bisect` and `et shrink` call solvers.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args as ClapArgs;

use et_core::campaign::prepare::{time_limit, DEFAULT_WITNESS_BOUND};
use et_core::oracle::Verdict;
use et_core::solvers::Pool;
use et_core::triage::calls::CallSettings;

use super::grammar_arg::BadInput;
use super::inputs::installed_pool;

/// Most parallel workers `--jobs` accepts: each is a thread with a solver process, so
/// more than this is a typo, not a machine.
pub const MAX_JOBS: u64 = 1024;

/// A clap value parser for a time limit (`--timeout`, `--cpu-timeout`, and those of
/// `et solvers check`): `8`, `0.25` or `1/64` seconds, as `et report --timeouts` reads
/// them, within the campaign's range of time limits; NaN, infinity, zero, negative and
/// absurdly large values are refused naming the value.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let seconds = et_core::report::timeouts::parse_timeout(text)
        .map_err(|e| e.to_string())?
        .seconds;
    time_limit(seconds).map_err(|why| format!("bad timeout `{text}`: {why}"))
}

/// A clap value parser for a verdict label (`--fail-on`, `et shrink --keep`).
pub fn parse_verdict(text: &str) -> Result<Verdict, String> {
    text.trim().parse().map_err(|_| {
        let labels: Vec<&str> = Verdict::ALL.iter().map(|v| v.label()).collect();
        format!("`{text}` is not a verdict ({})", labels.join(", "))
    })
}

/// `--jobs` (clap checked its range), defaulting to the number of cores.
pub fn jobs(jobs: Option<u64>) -> usize {
    jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    )
}

/// How `et bisect` and `et shrink` run solvers: the pool they come from and the limits
/// of each call.
#[derive(ClapArgs)]
pub struct CallArgs {
    /// Pool file (default: $ET_HOME/pool.toml).
    #[arg(long, value_name = "FILE")]
    pool: Option<PathBuf>,
    /// Wall-clock limit per call in seconds (decimal or a fraction like 1/64; from
    /// 0.001 to 604800).
    #[arg(long, default_value = "10", value_name = "SECS", value_parser = seconds)]
    timeout: Duration,
    /// Memory limit per call in MiB: the solver's process tree (cgroups), else its
    /// address space.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    memory: Option<u64>,
    /// Solver calls at a time, 1 to 1024 (default: number of cores).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u64).range(1..=MAX_JOBS))]
    jobs: Option<u64>,
    /// et's witness search, as in `et run`: values tried per declared constant, 1 to 64
    /// [default: 9]. A witness proves the formula sat: `unsat` on it is unsound with no
    /// reference needed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=64), conflicts_with = "no_witness")]
    witness_bound: Option<u64>,
    /// No witness search: verdicts on `unsat` and `unknown` rest on references alone.
    #[arg(long)]
    no_witness: bool,
}

impl CallArgs {
    /// The limits of each call, of a formula of a grammar that declares `logic`.
    pub fn settings<'a>(&self, logic: Option<&'a str>) -> CallSettings<'a> {
        CallSettings {
            memory_mb: self.memory,
            logic,
            ..CallSettings::with_timeout(self.timeout)
        }
    }

    /// Values per constant of the witness search, `None` when it is off.
    pub fn witness_values(&self) -> Option<usize> {
        (!self.no_witness).then(|| {
            self.witness_bound
                .map_or(DEFAULT_WITNESS_BOUND, |n| n as usize)
        })
    }

    /// Calls at a time.
    pub fn jobs(&self) -> usize {
        jobs(self.jobs)
    }

    /// The pool: `--pool FILE`, else `$ET_HOME/pool.toml`, which must exist.
    pub fn pool(&self) -> anyhow::Result<Pool> {
        installed_pool(self.pool.as_deref())?.ok_or_else(|| {
            BadInput(
                "no solver pool: $ET_HOME/pool.toml does not exist (install solvers with \
                 `et solvers install`, or give --pool FILE)"
                    .into(),
            )
            .into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_parse_as_decimals_and_fractions_within_bounds() {
        assert_eq!(seconds("8").unwrap(), Duration::from_secs(8));
        assert_eq!(
            seconds("1/64").unwrap(),
            Duration::from_secs_f64(1.0 / 64.0)
        );
        for bad in ["0", "-1", "nan", "inf", "1e300", "1e-9", "fast", "1/0"] {
            let err = seconds(bad).unwrap_err();
            assert!(err.contains(&format!("`{bad}`")), "{bad}: {err}");
        }
    }
}
