//! `et run`: the differential campaign.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use num_traits::CheckedSub;

use et_core::builtins::Builtin;
use et_core::campaign::manifest::RunManifest;
use et_core::campaign::manifest::{InapplicableConfiguration, RefusedConfiguration};
use et_core::campaign::plan::{Plan, Shard};
use et_core::campaign::runner::{read_manifest, Campaign};
use et_core::campaign::CampaignError;
use et_core::enumeration::Enumeration;
use et_core::grammar_check::logic::Logic;
use et_core::judging::{check, CallMode};
use et_core::oracle::Verdict;
use et_core::solvers::session::DEFAULT_RESTART_AFTER;
use et_core::solvers::{self, options, pool::check_name, Pool, PoolError, SolverConfig};

use super::grammar_arg::BadInput;
use super::numeric;

/// Most parallel workers `--jobs` accepts: each is a thread with a solver process, so
/// more than this is a typo, not a machine.
pub(super) const MAX_JOBS: u64 = 1024;

/// Shortest and longest `--timeout`, seconds: below a millisecond no solver starts;
/// above a week a study never ends.
const TIMEOUT_RANGE: (f64, f64) = (0.001, 7.0 * 24.0 * 3600.0);

/// Stream the N smallest formulas of a grammar to a pool of solvers, cross-check the
/// answers and log every call to DIR/runs.csv.
///
/// Each solver is judged against a reference: by default the pool's [[reference]]
/// rules, then et's study rule (z3 <= 4.8.10 on strings is judged by the newest z3
/// without Unicode strings), then ET's rule (the newest release of the other family).
/// et also judges by itself: it asks each solver for its model after `sat` (pool entry
/// `models`, on by default for z3/cvc5/cvc4/yices) and evaluates the formula under it,
/// and it searches small values for a witness of the formula (a witness makes `unsat`
/// unsound, reference or not). The `evidence` column says which check established a
/// verdict: model, self-check, witness or reference.
/// Correctness bugs are saved under DIR/bugs/. Ctrl-C stops cleanly (exit 130);
/// --resume continues exactly where a run stopped, even after `kill -9`, and refuses
/// any change to the study but a larger --n (which grows it). With --fail-on, a
/// completed run that found one of those
/// verdicts exits 3 (for CI).
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et run --grammar core --n 400 --timeout 8 --out results/core-400
  et run --grammar strings --n 1000 --solvers z3-4.16.0,cvc5-1.4.2 --timeout 8
  et run --grammar strings --n 500 --solvers pool.toml --timeout 1/4 --jobs 8
  et run --grammar ints --n 1600 --shard 3/16 --timeout 8 --out results/ints-3   # task 3 of 16
  et run --grammar core --n 400 --timeout 8 --out results/core-400 --resume
  et run --resume --out results/core-400          # the rest of the study from its run.toml
  et run --grammar strings --n 500 --timeout 1 --solvers z3-4.16.0 --reference cvc5-1.4.2 \\
      --reference-cache ~/.cache/et/strings-refs.csv --fail-on unsound,invalid_model,crash \\
      --out ci/strings
  et run -g ints --n 500 --timeout 2 --solvers z3-4.16.0 --reference z3-4.8.10,cvc5 --out ci/ints
  et run --grammar ints --n 200 --timeout 8 --cpu-timeout 4 --memory 2048 --out results/ints
  et run -g ints --n 500 --timeout 2 --solvers mysolver.toml --out ci/alone   # no reference needed
  et run -g ints --n 200 --timeout 8 --configurations z3-4.16.0:curated --out results/ints-modes
  et run --grammar strings --n 10 --timeout 2 --configurations cvc5-1.4.2:single:20,z3-4.16.0:9..40
  et run --grammar reals --n 100 --timeout 8 --witness-bound 20 --out results/reals
  et run -g fp --n 100 --timeout 8 --no-models --no-witness --out results/fp   # ET's oracle alone

Each solver call runs in a cgroup of its own where the machine allows it (run.toml
records `supervision`): the timeout kills the solver's whole process tree, --memory
limits the tree's memory, and CPU time and peak memory are the tree's totals. Where
cgroups are not usable, et says so once and uses a process group per call.

The summary table goes to stdout, progress and notes to stderr. Exit codes: 0 done,
1 failure while running (e.g. a full disk), 2 bad input or a refusal (nothing is
written), 3 a completed run found a verdict named by --fail-on, 130 interrupted
(continue with --resume).")]
pub struct Args {
    /// A built-in grammar — core ints reals realints bitvectors arrays fp strings, and
    /// each extended to five variables and up to two asserts as NAME-5v2a (core-5v2a
    /// ... strings-5v2a); see `et grammars` — or the path of a `.pest` file. Required for a new run; a resumed run
    /// takes it from its run.toml.
    #[arg(
        long,
        short = 'g',
        value_name = "NAME|FILE",
        required_unless_present = "resume"
    )]
    grammar: Option<String>,
    /// How many formulas, at least 1 (of the whole study, before sharding). Decimal,
    /// 10^k or k*10^j. Required for a new run; with --resume, a larger N grows the
    /// study (an unsharded one) by the next formulas.
    #[arg(
        long,
        short = 'n',
        value_parser = numeric::count,
        required_unless_present = "resume",
        allow_negative_numbers = true
    )]
    n: Option<u64>,
    /// Global index of the first formula. Decimal (any size), 10^k or k*10^j
    /// [default: 0].
    #[arg(long, value_name = "INDEX", value_parser = numeric::index, allow_negative_numbers = true)]
    start: Option<BigUint>,
    /// Run only shard k of K (k in 1..=K): the formulas whose offset is ≡ k−1 mod K.
    #[arg(long, value_name = "k/K")]
    pub(super) shard: Option<Shard>,
    /// Pool file (default: $ET_HOME/pool.toml, installed on first use).
    #[arg(long, value_name = "FILE")]
    pool: Option<PathBuf>,
    /// Solvers under test: comma-separated names (or families) from the pool, or a pool
    /// file of its own (.toml, or ET's solvers.cfg; not together with --pool).
    /// Default: the whole pool.
    #[arg(long, value_name = "NAMES|FILE")]
    solvers: Option<String>,
    /// Option configurations of pool solvers, each run as a solver of its own
    /// (`SOLVER+NAME`), judged first by SOLVER in its default mode: `SOLVER:curated`
    /// (its family's curated modes), `SOLVER:single` or `SOLVER:single:N` (every, or
    /// the first N, single-option configurations), `SOLVER:A..B` (indices of `et
    /// options enumerate`). Repeatable or comma-separated. Without --solvers only the
    /// configurations are under test. A configuration the solver refuses at the start
    /// is recorded in run.toml and not run; one it refuses only once a formula needs it
    /// (the reason of its `unknown`) is `rejected` on that formula, never a finding. A
    /// configuration whose options all act only on theories the grammar's logic lacks
    /// (z3's `smt.arith.*` on QF_BV) computes what the default mode does: recorded in
    /// run.toml and not run.
    #[arg(long, value_name = "SOLVER:WHICH", value_delimiter = ',')]
    configurations: Vec<String>,
    /// Judge every solver against these instead of the pool's rules: comma-separated
    /// solver names or families (a family means its newest release), in order; the
    /// first that decides a formula (sat/unsat) is the reference on it.
    #[arg(long, value_name = "NAME,...")]
    reference: Option<String>,
    /// Wall-clock limit per call in seconds (decimal or a fraction like 1/64; from
    /// 0.001 to 604800). Required for a new run; a resumed run takes it from its
    /// run.toml.
    #[arg(
        long,
        value_name = "SECS",
        value_parser = seconds,
        required_unless_present = "resume",
        allow_negative_numbers = true
    )]
    timeout: Option<Duration>,
    /// CPU-time limit per call in seconds, beside the wall-clock --timeout (all
    /// processes of the call, with cgroups); exceeding it is `timeout`.
    #[arg(long, value_name = "SECS", value_parser = seconds, allow_negative_numbers = true)]
    cpu_timeout: Option<Duration>,
    /// Memory limit per call in MiB: the memory of the solver's whole process tree
    /// (cgroups), else each process's address space [default: none].
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    memory: Option<u64>,
    /// Parallel workers, 1 to 1024 (default: number of cores).
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u64).range(1..=MAX_JOBS), allow_negative_numbers = true)]
    pub(super) jobs: Option<u64>,
    /// Output directory (default: results/<grammar>-<start>-<n>[-shard-k-of-K]).
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Continue the run in --out: arguments not given are taken from its run.toml;
    /// those given must match it.
    #[arg(long)]
    pub(super) resume: bool,
    /// Reference answers cache shared between runs (default: DIR/reference.csv).
    #[arg(long, value_name = "FILE")]
    reference_cache: Option<PathBuf>,
    /// Exit with 3 when the completed run holds a call with one of these verdicts
    /// (comma-separated: unsound, invalid_model, crash, timeout, unknown,
    /// validator_false_alarm); for CI.
    #[arg(long, value_name = "VERDICTS", value_delimiter = ',', value_parser = parse_verdict)]
    pub(super) fail_on: Vec<Verdict>,
    /// et's witness search: values tried per declared constant (every combination of
    /// the first N values of each sort, for up to eight constants), 1 to 64
    /// [default: 9]. A witness proves the formula sat: `unsat` on it is unsound, with no
    /// reference needed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=64), allow_negative_numbers = true, conflicts_with = "no_witness")]
    witness_bound: Option<u64>,
    /// No witness search: verdicts on `unsat` and `unknown` rest on references alone.
    #[arg(long)]
    no_witness: bool,
    /// Never ask solvers for models (not even those whose pool entry has `models =
    /// true`): no model check by et, only the solvers' own.
    #[arg(long)]
    no_models: bool,
    /// How solvers are called: `session` keeps one solver process per worker and
    /// solver, fed formula after formula with the family's reset in between (z3, cvc5,
    /// cvc4, yices; other families run fresh), and confirms every call with a finding
    /// in a fresh process; `fresh` starts a process per call, as the published ET did
    /// [default: session; a resumed run keeps its own].
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    mode: Option<CallMode>,
    /// Formulas a session process answers before it is replaced by a new one (so that
    /// what a reset keeps cannot pile up), at least 1.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_RESTART_AFTER as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    restart_after: u64,
    /// Percent of the session calls also made in a fresh process, to measure how often
    /// a session answers like a fresh process (0 to 100; the summary shows it).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_AUDIT_PERCENT, value_parser = audit_percent)]
    audit: f64,
    /// No progress display and no summary table.
    #[arg(long, short = 'q')]
    pub(super) quiet: bool,
}

/// Percent of session calls re-run fresh when `--audit` is not given.
const DEFAULT_AUDIT_PERCENT: f64 = 1.0;

/// A clap value parser for `--mode`.
fn parse_mode(text: &str) -> Result<CallMode, String> {
    text.parse()
}

/// A clap value parser for `--audit`: a percentage.
fn audit_percent(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("`{text}` is not a percentage from 0 to 100")),
    }
}

/// Values per constant of the witness search when `--witness-bound` is not given.
pub(super) const DEFAULT_WITNESS_BOUND: usize = 9;

/// A clap value parser for a verdict label (`--fail-on`, `et shrink --keep`).
pub(super) fn parse_verdict(text: &str) -> Result<Verdict, String> {
    text.trim().parse().map_err(|_| {
        let labels: Vec<&str> = Verdict::ALL.iter().map(|v| v.label()).collect();
        format!("`{text}` is not a verdict ({})", labels.join(", "))
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

/// A clap value parser for a time limit (`--timeout`, `--cpu-timeout`, and those of
/// `et solvers check`): `8`, `0.25` or `1/64` seconds, as `et report --timeouts` reads
/// them, within [`TIMEOUT_RANGE`]; NaN, infinity, zero, negative and absurdly large
/// values are refused naming the value.
pub(super) fn seconds(text: &str) -> Result<Duration, String> {
    let seconds = et_core::report::timeouts::parse_timeout(text)
        .map_err(|e| e.to_string())?
        .seconds;
    let (low, high) = TIMEOUT_RANGE;
    if !(low..=high).contains(&seconds) {
        return Err(format!(
            "bad timeout `{text}`: must be between {low} and {high} seconds"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// The pool and the solvers under test from `--pool`/`--solvers`; conflicting or
/// missing inputs are errors, never ignored.
fn load_pool(args: &Args) -> anyhow::Result<(Pool, Vec<SolverConfig>)> {
    if let Some(spec) = &args.solvers {
        // Solver names hold no `/` and do not end in a pool file's extension.
        let path = Path::new(spec);
        if path.is_file() || spec.contains('/') || spec.ends_with(".toml") || spec.ends_with(".cfg")
        {
            if let Some(pool) = &args.pool {
                return Err(BadInput(format!(
                    "--pool {} and --solvers {spec} both name a pool file; give one of them \
                     (with --pool, --solvers lists names from it)",
                    pool.display()
                ))
                .into());
            }
            if !path.is_file() {
                return Err(BadInput(format!("--solvers {spec}: no such pool file")).into());
            }
            let pool = if path.extension().is_some_and(|e| e == "toml") {
                Pool::load(path)?
            } else {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                Pool::from_solvers_cfg(&text, path)?
            };
            let pool = with_solvers(pool, path)?;
            let all = pool.solvers.clone();
            return Ok((pool, all));
        }
    }
    // A malformed pool file is bad input (exit 2), not an installation failure.
    let pool = super::solvers::load_pool(args.pool.as_deref()).map_err(|e| match e {
        solvers::install::InstallError::Pool(e) => anyhow::Error::from(e),
        other => other.into(),
    })?;
    let path = pool
        .source
        .clone()
        .unwrap_or_else(|| solvers::default_pool_path(&solvers::et_home()));
    let pool = with_solvers(pool, &path)?;
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

/// `pool`, read from `path`, if it holds a solver: a campaign over an empty pool
/// would make no call.
fn with_solvers(pool: Pool, path: &Path) -> Result<Pool, PoolError> {
    if pool.solvers.is_empty() {
        return Err(PoolError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(pool)
}

/// Takes out of `configured` the configurations whose options all act only on
/// theories `logic` lacks, and returns them.
fn leave_out_inapplicable(
    configured: &mut Vec<SolverConfig>,
    logic: &Logic,
) -> Vec<InapplicableConfiguration> {
    let mut out = Vec::new();
    configured.retain(|s| {
        let Some(c) = &s.configuration else {
            return true;
        };
        match options::acts_only_on(s.family_info(), &c.options) {
            Some(theories) if !theories.iter().any(|t| logic.has(*t)) => {
                out.push(InapplicableConfiguration {
                    name: s.name.clone(),
                    configuration_of: c.of.clone(),
                    options: c.options.clone(),
                    acts_only_on: theories.iter().map(|t| t.label().to_string()).collect(),
                });
                false
            }
            _ => true,
        }
    });
    out
}

/// How many of `inapplicable` each pool solver has.
fn counts_by_solver(inapplicable: &[InapplicableConfiguration]) -> Vec<(&str, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for c in inapplicable {
        let of = c.configuration_of.as_str();
        match counts.iter_mut().find(|(o, _)| *o == of) {
            Some((_, n)) => *n += 1,
            None => counts.push((of, 1)),
        }
    }
    counts
}

/// The configurations `specs` ask for (`SOLVER:WHICH` each), of solvers of `pool`.
fn configurations(pool: &Pool, specs: &[String]) -> anyhow::Result<Vec<SolverConfig>> {
    let mut out: Vec<SolverConfig> = Vec::new();
    for spec in specs.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let Some((name, which)) = spec.split_once(':') else {
            return Err(BadInput(format!(
                "--configurations {spec}: expected SOLVER:WHICH (curated, single, single:N or A..B)"
            ))
            .into());
        };
        let selection: options::Selection = which
            .parse()
            .map_err(|why| BadInput(format!("--configurations {spec}: {why}")))?;
        let base = pool.select(&[name])?.solvers.remove(0);
        if base.configuration.is_some() {
            return Err(BadInput(format!(
                "--configurations {spec}: {name} is itself a configuration"
            ))
            .into());
        }
        let catalog = options::catalog_of(&base, &super::options::cache())?;
        let curated = base.family_info().curated_configurations();
        for c in options::select(&catalog, curated, &selection)? {
            let solver = options::configure(&base, &c);
            check_name(&solver.name).map_err(BadInput)?;
            if !out.iter().any(|s| s.name == solver.name) {
                out.push(solver);
            }
        }
    }
    Ok(out)
}

/// The pool of a recorded study: its solvers under test and its reference-only ones.
fn recorded_pool(
    previous: &RunManifest,
    path: &Path,
) -> Result<(Pool, Vec<SolverConfig>), CampaignError> {
    let under_test: Vec<SolverConfig> = previous.solvers.iter().map(|s| s.config()).collect();
    let mut solvers = under_test.clone();
    solvers.extend(previous.reference_solvers.iter().map(|s| s.config()));
    for s in &solvers {
        check_name(&s.name).map_err(|message| CampaignError::BadManifest {
            path: path.to_path_buf(),
            position: None,
            message,
        })?;
    }
    // Each solver under test keeps the judges it had (its recorded `references`), so
    // the pool's rules, which run.toml does not hold, are not needed.
    let pool = Pool {
        solvers,
        rules: Vec::new(),
        source: Some(path.to_path_buf()),
    };
    Ok((pool, under_test))
}

/// The grammar to enumerate, and the absolute path of its `.pest` file if it is not
/// a built-in.
fn load_grammar(spec: &str) -> anyhow::Result<(Enumeration, Option<String>)> {
    let grammar = et_core::builtins::load(spec)?;
    for w in &grammar.warnings {
        eprintln!("et: warning: {w}");
    }
    let file = match Builtin::find(spec) {
        Some(_) => None,
        None => Some(
            std::fs::canonicalize(spec)
                .with_context(|| format!("cannot resolve {spec}"))?
                .to_string_lossy()
                .into_owned(),
        ),
    };
    Ok((Enumeration::new(grammar), file))
}

/// The study to run: each value from the command line, else from the run.toml being
/// resumed, else its default.
struct Study {
    /// `--grammar`: a built-in name or a `.pest` path.
    grammar: String,
    start: BigUint,
    n: u64,
    shard: Option<Shard>,
    timeout: Duration,
    cpu_timeout: Option<Duration>,
    memory_mb: Option<u64>,
    reference: Option<String>,
    /// Values per constant of the witness search, `None` when off.
    witness_bound: Option<usize>,
}

impl Study {
    fn new(args: &Args, previous: Option<&RunManifest>) -> anyhow::Result<Study> {
        let required = |flag: &str| BadInput(format!("{flag} is required"));
        let grammar = match (&args.grammar, previous) {
            (Some(g), _) => g.clone(),
            (None, Some(m)) => match (&m.grammar_file, Builtin::find(&m.grammar)) {
                (Some(file), _) => file.clone(),
                (None, Some(_)) => m.grammar.clone(),
                (None, None) => {
                    return Err(BadInput(format!(
                        "cannot resume: run.toml names grammar `{}`, which is not built in and \
                         has no recorded file; give --grammar FILE",
                        m.grammar
                    ))
                    .into())
                }
            },
            (None, None) => return Err(required("--grammar").into()),
        };
        let start = match (&args.start, previous) {
            (Some(s), _) => s.clone(),
            (None, Some(m)) => numeric::index(&m.start)
                .map_err(|e| BadInput(format!("cannot resume: run.toml's start: {e}")))?,
            (None, None) => BigUint::default(),
        };
        let n = match (args.n, previous) {
            (Some(n), _) => n,
            (None, Some(m)) => m.n,
            (None, None) => return Err(required("--n").into()),
        };
        let shard = match (args.shard, previous) {
            (Some(s), _) => Some(s),
            (None, Some(m)) => m.shard.as_deref().map(str::parse).transpose()?,
            (None, None) => None,
        };
        let timeout = match (args.timeout, previous) {
            (Some(t), _) => t,
            (None, Some(m)) => recorded_seconds(m.timeout_s)?,
            (None, None) => return Err(required("--timeout").into()),
        };
        let cpu_timeout = match (args.cpu_timeout, previous) {
            (Some(t), _) => Some(t),
            (None, Some(m)) => m.cpu_timeout_s.map(recorded_seconds).transpose()?,
            (None, None) => None,
        };
        let witness_bound = match (args.witness_bound, args.no_witness, previous) {
            (Some(n), _, _) => Some(n as usize),
            (None, true, _) => None,
            (None, false, Some(m)) => match m.witness_bound.as_deref() {
                None => Some(DEFAULT_WITNESS_BOUND),
                Some("off") => None,
                Some(text) => Some(
                    text.parse::<usize>()
                        .ok()
                        .filter(|n| (1..=64).contains(n))
                        .ok_or_else(|| {
                            BadInput(format!(
                                "cannot resume: run.toml's witness_bound is `{text}`, not \
                                 1 to 64 or \"off\""
                            ))
                        })?,
                ),
            },
            (None, false, None) => Some(DEFAULT_WITNESS_BOUND),
        };
        Ok(Study {
            grammar,
            start,
            n,
            shard,
            timeout,
            cpu_timeout,
            witness_bound,
            memory_mb: args.memory.or(previous.and_then(|m| m.memory_mb)),
            reference: args
                .reference
                .clone()
                .or(previous.and_then(|m| m.reference.clone())),
        })
    }
}

/// A time limit recorded in run.toml, checked as on the command line.
fn recorded_seconds(value: f64) -> Result<Duration, BadInput> {
    seconds(&value.to_string()).map_err(|e| BadInput(format!("cannot resume: run.toml: {e}")))
}

/// With `--resume --out DIR`, the study recorded in `DIR/run.toml` and its path; an
/// error if there is none and the command line does not describe one either.
fn recorded_study(args: &Args) -> anyhow::Result<Option<(RunManifest, PathBuf)>> {
    if !args.resume {
        return Ok(None);
    }
    if let Some(out) = &args.out {
        let path = out.join("run.toml");
        if path.is_file() {
            return Ok(Some((read_manifest(&path)?, path)));
        }
    }
    if args.grammar.is_some() && args.n.is_some() && args.timeout.is_some() {
        return Ok(None); // a fresh start: --resume of a run that never began
    }
    Err(match &args.out {
        Some(out) => CampaignError::NothingToResume { dir: out.clone() }.into(),
        None => BadInput(
            "--resume without --grammar, --n and --timeout needs --out DIR, the run to continue"
                .into(),
        )
        .into(),
    })
}

/// The campaign the arguments describe (with `--resume`, completed from the run.toml
/// being resumed), after every check `et run` makes before it writes anything: time
/// limits, range, grammar, logic, pool and judges. `et slurm submit` makes the same
/// checks with it before it submits a study.
pub(super) fn prepare(args: &Args) -> anyhow::Result<(Campaign, Enumeration)> {
    let recorded = recorded_study(args)?;
    let Study {
        grammar: grammar_spec,
        start,
        mut n,
        shard,
        timeout,
        cpu_timeout,
        memory_mb,
        reference,
        witness_bound,
    } = Study::new(args, recorded.as_ref().map(|(m, _)| m))?;
    let (mut enumeration, grammar_file) = load_grammar(&grammar_spec)?;
    let grammar = enumeration.grammar().name.clone();
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    if let Some(total) = enumeration.total() {
        let available = total.checked_sub(&start).unwrap_or_default();
        if BigUint::from(n) > available {
            n = u64::try_from(&available).unwrap_or(u64::MAX);
            eprintln!("et: grammar `{grammar}` has {total} formulas; running the {n} from index {start} on");
        }
    } else {
        enumeration.locate(&start)?;
    }
    let reference: Option<Vec<String>> = reference.map(|r| {
        r.split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(str::to_string)
            .collect()
    });
    if reference.as_ref().is_some_and(Vec::is_empty) {
        return Err(BadInput("--reference needs a solver name or family".into()).into());
    }
    // The logic a family's prelude states (yices), checked before anything is written.
    et_core::builtins::declared_logic(enumeration.grammar())?;
    let asked = args.pool.is_some() || args.solvers.is_some() || !args.configurations.is_empty();
    let (mut pool, mut under_test) = match (&recorded, asked) {
        (Some((m, path)), false) => recorded_pool(m, path)?,
        _ => load_pool(args)?,
    };
    let mut refused = match (&recorded, args.configurations.is_empty()) {
        (Some((m, _)), true) => m.refused_configurations.clone(),
        _ => Vec::new(),
    };
    let mut inapplicable = match &recorded {
        Some((m, _)) => m.inapplicable_configurations.clone(),
        None => Vec::new(),
    };
    if !args.configurations.is_empty() {
        let mut configured = configurations(&pool, &args.configurations)?;
        // A configuration that acts only on theories the grammar's logic lacks is not
        // run. A resumed run leaves out what it left out when it started, whatever
        // the rule says now: the solvers under test stay those it began with.
        match &recorded {
            Some(_) => configured.retain(|s| !inapplicable.iter().any(|c| c.name == s.name)),
            None => {
                let logic = et_core::builtins::declared_logic(enumeration.grammar())?
                    .and_then(Logic::parse);
                if let Some(logic) = logic {
                    inapplicable = leave_out_inapplicable(&mut configured, &logic);
                }
            }
        }
        for (of, count) in counts_by_solver(&inapplicable) {
            eprintln!(
                "et: {count} configuration{} of {of} act only on theories the grammar's logic lacks; not run (run.toml lists them)",
                if count == 1 { "" } else { "s" }
            );
        }
        if args.solvers.is_none() {
            under_test.clear();
        }
        let scratch = tempfile::tempdir().context("cannot make a scratch directory")?;
        let refusals = check::refusals(&configured, scratch.path());
        for solver in configured {
            if let Some((_, why)) = refusals.iter().find(|(n, _)| *n == solver.name) {
                eprintln!("et: {} refuses its options ({why}); not run", solver.name);
                let c = solver
                    .configuration
                    .clone()
                    .unwrap_or_else(|| unreachable!());
                refused.push(RefusedConfiguration {
                    name: solver.name,
                    configuration_of: c.of,
                    options: c.options,
                    reason: why.clone(),
                });
                continue;
            }
            if pool.get(&solver.name).is_none() {
                pool.solvers.push(solver.clone());
            }
            if !under_test.iter().any(|s| s.name == solver.name) {
                under_test.push(solver);
            }
        }
        if under_test.is_empty() {
            return Err(BadInput(
                "--configurations: every configuration asked for is refused by its solver or acts only on theories the grammar's logic lacks".into(),
            )
            .into());
        }
    }
    if args.no_models {
        for s in pool.solvers.iter_mut().chain(&mut under_test) {
            s.models = false;
        }
    }
    let plan = Plan { start, n, shard };
    let out = args.out.clone().unwrap_or_else(|| {
        let shard = plan
            .shard
            .map_or(String::new(), |s| format!("-shard-{}-of-{}", s.k, s.count));
        PathBuf::from("results").join(format!("{grammar}-{}-{n}{shard}", plan.start))
    });
    let campaign = Campaign {
        grammar,
        grammar_file,
        plan,
        pool,
        under_test,
        reference,
        timeout,
        cpu_timeout,
        memory_mb,
        jobs,
        out,
        resume: args.resume,
        reference_cache: args.reference_cache.clone(),
        witness_bound,
        // A resumed run keeps the mode it was made in (runs before sessions: fresh).
        mode: match (args.mode, &recorded) {
            (Some(mode), _) => mode,
            (None, Some((m, _))) => m.mode.unwrap_or_default(),
            (None, None) => CallMode::Session,
        },
        restart_after: args.restart_after as usize,
        audit_percent: args.audit,
        refused,
        inapplicable,
    };
    // Judges named in --reference or the pool's rules exist, before anything is written.
    campaign.judges()?;
    Ok((campaign, enumeration))
}

/// Where a campaign's command line points: its grammar (a built-in's name or a file),
/// its pool file and its reference cache (`None`: the run directory's own).
pub(super) struct Places {
    /// `--grammar`.
    pub grammar: String,
    /// `--pool`.
    pub pool: PathBuf,
    /// `--reference-cache`.
    pub reference_cache: Option<PathBuf>,
}

/// The `et run` arguments that make `campaign` again, pointing at `places` (what each
/// Slurm shard runs; `--out`, `--shard` and `--resume` are the caller's). Written here,
/// beside [`Args`] and [`prepare`], so that a new setting is added to both: the test
/// `command_lines_make_the_same_campaign` parses them back.
pub(super) fn command_line(campaign: &Campaign, places: &Places, quiet: bool) -> Vec<String> {
    // Display of an f64 is the shortest text that parses back to the same value.
    let seconds = |limit: Duration| limit.as_secs_f64().to_string();
    let names: Vec<&str> = campaign
        .under_test
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    let mut args: Vec<String> = vec![
        "--grammar".into(),
        places.grammar.clone(),
        "--start".into(),
        campaign.plan.start.to_string(),
        "--n".into(),
        campaign.plan.n.to_string(),
        "--timeout".into(),
        seconds(campaign.timeout),
    ];
    if let Some(cpu_timeout) = campaign.cpu_timeout {
        args.extend(["--cpu-timeout".into(), seconds(cpu_timeout)]);
    }
    if let Some(memory) = campaign.memory_mb {
        args.extend(["--memory".into(), memory.to_string()]);
    }
    args.extend(["--jobs".into(), campaign.jobs.to_string()]);
    args.extend(["--pool".into(), places.pool.display().to_string()]);
    args.extend(["--solvers".into(), names.join(",")]);
    if let Some(reference) = &campaign.reference {
        args.extend(["--reference".into(), reference.join(",")]);
    }
    if let Some(cache) = &places.reference_cache {
        args.extend(["--reference-cache".into(), cache.display().to_string()]);
    }
    match campaign.witness_bound {
        Some(values) => args.extend(["--witness-bound".into(), values.to_string()]),
        None => args.push("--no-witness".into()),
    }
    // Models are the pool's `models` (which `--no-models` turned off in it).
    args.extend(["--mode".into(), campaign.mode.label().into()]);
    args.extend(["--restart-after".into(), campaign.restart_after.to_string()]);
    args.extend(["--audit".into(), campaign.audit_percent.to_string()]);
    if quiet {
        args.push("--quiet".into());
    }
    args
}

/// Runs `et run`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (campaign, enumeration) = prepare(&args)?;
    let out = campaign.out.clone();
    super::solvers::note_supervision();
    if campaign.mode == CallMode::Session {
        // Said, not dropped silently: run.toml records `session = false` for them.
        let judges = campaign.judges()?;
        let mut called: Vec<&et_core::solvers::SolverConfig> = campaign
            .under_test
            .iter()
            .chain(judges.values().flatten())
            .collect();
        called.sort_by(|a, b| a.name.cmp(&b.name));
        called.dedup_by(|a, b| a.name == b.name);
        for s in called
            .into_iter()
            .filter(|s| et_core::solvers::install::stale_driver(s))
        {
            eprintln!(
                "et: warning: {} runs fresh: its program {} is et's driver from an older et, \
                 which cannot run a session; `et solvers install {}@{}` refreshes it",
                s.name,
                s.program(),
                s.family,
                s.version
            );
        }
    }
    let cancel = install_signal_handlers();
    let mut progress = super::progress::Progress::for_stderr(args.quiet);
    let summary = campaign.run(enumeration, cancel, &mut progress)?;
    if summary.nothing_to_do() {
        eprintln!(
            "et: nothing to do: all {} formulas of {} have their rows (`et report {}` \
             gives its tables)",
            summary.planned,
            out.display(),
            out.display()
        );
    } else if !args.quiet {
        // Results on stdout; a reader that went away (`| head`) is not an error.
        let _ = writeln!(std::io::stdout().lock(), "{}", summary.table());
    }
    if summary.interrupted {
        eprintln!(
            "et: interrupted: finished rows are kept in {}; continue with `et run --resume --out {}`",
            out.display(),
            out.display()
        );
        return Ok(ExitCode::from(super::EXIT_INTERRUPTED));
    }
    if !args.quiet && !summary.nothing_to_do() {
        eprintln!("et: results in {}", out.display());
        // What a user does next, with the directory just written.
        eprintln!(
            "et: next: `et report {dir}` for tables, `et triage {dir}` to confirm the \
             findings and write the reports to file",
            dir = out.display()
        );
    }
    if !args.fail_on.is_empty() {
        let counts = et_core::campaign::gate::count_verdicts(&out.join("runs.csv"), &args.fail_on)?;
        let found: Vec<String> = counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| format!("{n} {}", v.label()))
            .collect();
        if !found.is_empty() {
            // Only correctness verdicts save a trigger file under bugs/; a timeout or
            // unknown is a row of runs.csv, which triage confirms.
            let saved = counts.iter().any(|(v, n)| *n > 0 && v.is_bug());
            let where_ = if saved {
                format!(
                    "triggers of correctness verdicts under {}/bugs/",
                    out.display()
                )
            } else {
                format!("`et triage {}` confirms them", out.display())
            };
            eprintln!(
                "et: --fail-on: {} in {} ({where_})",
                found.join(", "),
                out.join("runs.csv").display(),
            );
            return Ok(ExitCode::from(super::EXIT_VERDICT_FOUND));
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `et run`'s arguments alone, for parsing a command line back.
    #[derive(Parser)]
    struct Run {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn command_lines_make_the_same_campaign() {
        let dir = tempfile::tempdir().unwrap();
        let pool = dir.path().join("pool.toml");
        std::fs::write(
            &pool,
            "[[solver]]\nname = \"a\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = [\"/bin/true\"]\n\n\
             [[solver]]\nname = \"b\"\nfamily = \"cvc5\"\nversion = \"1\"\ncommand = [\"/bin/true\"]\n",
        )
        .unwrap();
        let out = dir.path().join("out");
        let given = [
            "run",
            "-g",
            "ints",
            "--start",
            "10^3",
            "--n",
            "77",
            "--timeout",
            "1/64",
            "--cpu-timeout",
            "2.5",
            "--memory",
            "300",
            "-j",
            "3",
            "--pool",
            pool.to_str().unwrap(),
            "--solvers",
            "a",
            "--reference",
            "b, a",
            "--witness-bound",
            "5",
            "--mode",
            "fresh",
            "--restart-after",
            "40",
            "--audit",
            "2.5",
            "--out",
            out.to_str().unwrap(),
        ];
        let (campaign, _) = prepare(&Run::try_parse_from(given).unwrap().args).unwrap();
        let places = Places {
            grammar: "ints".into(),
            pool: pool.clone(),
            reference_cache: Some(dir.path().join("cache.csv")),
        };
        let mut again = vec!["run".to_string()];
        again.extend(command_line(&campaign, &places, true));
        again.extend(["--out".into(), out.display().to_string()]);
        let parsed = Run::try_parse_from(&again).unwrap().args;
        assert!(parsed.quiet);
        let (twin, _) = prepare(&parsed).unwrap();
        assert_eq!(twin.grammar, campaign.grammar);
        assert_eq!((&twin.plan.start, twin.plan.n), (&campaign.plan.start, 77));
        assert_eq!(
            (twin.timeout, twin.cpu_timeout, twin.memory_mb, twin.jobs),
            (
                campaign.timeout,
                campaign.cpu_timeout,
                campaign.memory_mb,
                3
            )
        );
        assert_eq!(twin.reference, Some(vec!["b".to_string(), "a".to_string()]));
        assert_eq!(twin.reference, campaign.reference);
        assert_eq!(twin.witness_bound, Some(5));
        assert_eq!(twin.under_test, campaign.under_test);
        assert_eq!(twin.reference_cache, places.reference_cache);
        assert_eq!(
            (twin.mode, twin.restart_after, twin.audit_percent),
            (CallMode::Fresh, 40, 2.5)
        );
    }

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
