//! The flags of a campaign, shared by `et run` and `et slurm submit` (which hides
//! those it sets itself), what they ask of the library
//! ([`et_core::campaign::prepare`]), and the `et run` command line that makes a
//! campaign again (what each Slurm shard runs).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args as ClapArgs;
use num_bigint::BigUint;

use et_core::campaign::plan::Shard;
use et_core::campaign::prepare::{self, Hooks, Note, PrepareError, Request, DEFAULT_AUDIT_PERCENT};
use et_core::campaign::runner::Campaign;
use et_core::enumeration::Enumeration;
use et_core::grammar_check::logic::Logic;
use et_core::judging::CallMode;
use et_core::oracle::Verdict;
use et_core::solvers::family::catalog::Theory;
use et_core::solvers::session::DEFAULT_RESTART_AFTER;

use super::args::{parse_verdict, seconds, MAX_JOBS};
use super::notes::DEFAULT_POOL_NOTES;
use super::numeric;

/// The flags of a campaign: the study (grammar, range, solvers, limits, judges), where
/// it is written, and how `et run` reports on it.
#[derive(ClapArgs)]
pub struct CampaignArgs {
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
    pub shard: Option<Shard>,
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
    /// options enumerate`), `SOLVER:tactics`, `SOLVER:tactics:N` or
    /// `SOLVER:tactics:A..B` (z3's tactic expressions, `et options tactics`: each
    /// formula checked with `(check-sat-using EXPRESSION)`, correctness verdicts only,
    /// since a tactic may give up or run long by design). Repeatable or comma-separated. Without --solvers only the
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
    pub jobs: Option<u64>,
    /// Output directory (default: results/<grammar>-<start>-<n>[-shard-k-of-K]).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue the run in --out: arguments not given are taken from its run.toml;
    /// those given must match it.
    #[arg(long)]
    pub resume: bool,
    /// Reference answers cache shared between runs (default: DIR/reference.csv).
    #[arg(long, value_name = "FILE")]
    reference_cache: Option<PathBuf>,
    /// Exit with 3 when the completed run holds a call with one of these verdicts
    /// (comma-separated: unsound, invalid_model, crash, timeout, unknown,
    /// validator_false_alarm); for CI.
    #[arg(long, value_name = "VERDICTS", value_delimiter = ',', value_parser = parse_verdict)]
    pub fail_on: Vec<Verdict>,
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
    pub quiet: bool,
}

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

impl CampaignArgs {
    /// What the flags ask of the library.
    pub fn request(&self) -> Request {
        Request {
            grammar: self.grammar.clone(),
            start: self.start.clone(),
            n: self.n,
            shard: self.shard,
            pool: self.pool.clone(),
            solvers: self.solvers.clone(),
            configurations: self.configurations.clone(),
            reference: self.reference.clone(),
            timeout: self.timeout,
            cpu_timeout: self.cpu_timeout,
            memory_mb: self.memory,
            jobs: self.jobs.map(|j| j as usize),
            out: self.out.clone(),
            resume: self.resume,
            reference_cache: self.reference_cache.clone(),
            witness_bound: self.witness_bound.map(|n| n as usize),
            no_witness: self.no_witness,
            no_models: self.no_models,
            mode: self.mode,
            restart_after: self.restart_after as usize,
            audit_percent: self.audit,
        }
    }
}

/// The campaign the flags describe, checked by the library before anything is written
/// ([`prepare::prepare`]); its notes, and those of installing a default pool, go to
/// stderr as they come.
pub fn prepare(args: &CampaignArgs) -> Result<(Campaign, Enumeration), PrepareError> {
    let mut say = |note: Note| eprintln!("et: {note}");
    let mut hooks = Hooks {
        pool_notes: &DEFAULT_POOL_NOTES,
        logic_has,
        note: &mut say,
    };
    prepare::prepare(&args.request(), &mut hooks)
}

/// Whether the SMT-LIB logic `name` has `theory`; `None` for a logic et does not know.
fn logic_has(name: &str, theory: Theory) -> Option<bool> {
    Logic::parse(name).map(|logic| logic.has(theory))
}

/// Where a campaign's command line points: its grammar (a built-in's name or a file),
/// its pool file and its reference cache (`None`: the run directory's own).
pub struct Places {
    /// `--grammar`.
    pub grammar: String,
    /// `--pool`.
    pub pool: PathBuf,
    /// `--reference-cache`.
    pub reference_cache: Option<PathBuf>,
}

/// The `et run` arguments that make `campaign` again, pointing at `places` (what each
/// Slurm shard runs; `--out`, `--shard` and `--resume` are the caller's). Written here,
/// beside [`CampaignArgs`] and [`CampaignArgs::request`], so that a new setting is added
/// to both: the test `command_lines_make_the_same_campaign` parses them back.
pub fn command_line(campaign: &Campaign, places: &Places, quiet: bool) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `et run`'s arguments alone, for parsing a command line back.
    #[derive(Parser)]
    struct Run {
        #[command(flatten)]
        args: CampaignArgs,
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
}
