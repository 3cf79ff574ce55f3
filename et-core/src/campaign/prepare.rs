//! From what was asked to the [`Campaign`] to run: [`prepare`] completes a request
//! from the run.toml it resumes, loads the grammar and the pool, picks the option
//! configurations, and makes every check a campaign makes before it writes anything
//! (time limits, range, grammar, logic, pool, judges). `et run` and `et slurm submit`
//! both call it. It prints nothing: what it has to say goes to [`Hooks::note`] as a
//! [`Note`], and what it refuses comes back as a [`PrepareError`].

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use num_bigint::BigUint;
use num_traits::CheckedSub;

use crate::builtins::{BadLogic, Builtin};
use crate::enumeration::{Enumeration, IndexError};
use crate::grammar::GrammarError;
use crate::judging::{check, CallMode};
use crate::solvers::family::catalog::Theory;
use crate::solvers::install::{self, DefaultPoolNotes, InstallError};
use crate::solvers::options::{self, OptionsError};
use crate::solvers::pool::check_name;
use crate::solvers::reference_rules::ReferenceError;
use crate::solvers::session::DEFAULT_RESTART_AFTER;
use crate::solvers::{self, Pool, PoolError, SolverConfig};

use super::error::CampaignError;
use super::manifest::{InapplicableConfiguration, OutsideLogic, RefusedConfiguration, RunManifest};
use super::plan::{Plan, Shard, ShardError};
use super::runner::{read_manifest, Campaign};

/// Shortest and longest time limit of a call, seconds: below a millisecond no solver
/// starts; above a week a study never ends.
pub const TIME_LIMIT_RANGE: (f64, f64) = (0.001, 7.0 * 24.0 * 3600.0);

/// Values per constant of the witness search when a request names none.
pub const DEFAULT_WITNESS_BOUND: usize = 9;

/// Percent of session calls re-run fresh when a request names none.
pub const DEFAULT_AUDIT_PERCENT: f64 = 1.0;

/// A time limit of a call of `seconds`, if it lies within [`TIME_LIMIT_RANGE`]; else why
/// not (NaN, infinity, zero, negative and absurdly large values are refused).
pub fn time_limit(seconds: f64) -> Result<Duration, String> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err("must be a positive number of seconds".into());
    }
    let (low, high) = TIME_LIMIT_RANGE;
    if !(low..=high).contains(&seconds) {
        return Err(format!("must be between {low} and {high} seconds"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// What a campaign was asked to be: `et run`'s flags. `None` (and `false`, and an empty
/// list) is "not said": a resumed run takes the value from its run.toml, a new one its
/// default.
#[derive(Debug, Clone)]
pub struct Request {
    /// A built-in grammar's name or the path of a `.pest` file; required for a new run.
    pub grammar: Option<String>,
    /// Global index of the first formula [default: 0].
    pub start: Option<BigUint>,
    /// How many formulas (of the whole study, before sharding); required for a new run.
    pub n: Option<u64>,
    /// Run only this shard of the formulas.
    pub shard: Option<Shard>,
    /// The pool file [default: the pool of `$ET_HOME`, installed when there is none].
    pub pool: Option<PathBuf>,
    /// The solvers under test: comma-separated names or families of the pool, or a pool
    /// file of their own (`.toml`, or ET's `solvers.cfg`) [default: the whole pool].
    pub solvers: Option<String>,
    /// Option configurations to run, each `SOLVER:WHICH` (`curated`, `single`,
    /// `single:N`, `A..B`).
    pub configurations: Vec<String>,
    /// The judges of every solver: comma-separated names or families, in order.
    pub reference: Option<String>,
    /// Wall-clock limit per call; required for a new run.
    pub timeout: Option<Duration>,
    /// CPU-time limit per call.
    pub cpu_timeout: Option<Duration>,
    /// Memory limit per call, MiB.
    pub memory_mb: Option<u64>,
    /// Worker threads [default: the number of cores].
    pub jobs: Option<usize>,
    /// The run directory [default: `results/<grammar>-<start>-<n>[-shard-k-of-K]`].
    pub out: Option<PathBuf>,
    /// Continue the run in `out`, completing the request from its run.toml.
    pub resume: bool,
    /// The reference answers cache [default: the run directory's own].
    pub reference_cache: Option<PathBuf>,
    /// Values per constant of the witness search (1 to 64) [default: the resumed run's,
    /// else [`DEFAULT_WITNESS_BOUND`]].
    pub witness_bound: Option<usize>,
    /// No witness search (unless `witness_bound` is given).
    pub no_witness: bool,
    /// Never ask solvers for models.
    pub no_models: bool,
    /// How solvers are called [default: the resumed run's, else sessions].
    pub mode: Option<CallMode>,
    /// Formulas a session process answers before it is replaced.
    pub restart_after: usize,
    /// Percent of the session calls also made in a fresh process.
    pub audit_percent: f64,
}

impl Default for Request {
    fn default() -> Request {
        Request {
            grammar: None,
            start: None,
            n: None,
            shard: None,
            pool: None,
            solvers: None,
            configurations: Vec::new(),
            reference: None,
            timeout: None,
            cpu_timeout: None,
            memory_mb: None,
            jobs: None,
            out: None,
            resume: false,
            reference_cache: None,
            witness_bound: None,
            no_witness: false,
            no_models: false,
            mode: None,
            restart_after: DEFAULT_RESTART_AFTER,
            audit_percent: DEFAULT_AUDIT_PERCENT,
        }
    }
}

/// What [`prepare`] needs from its caller: where to tell what it does, and a rule of a
/// layer above the campaign's.
pub struct Hooks<'a> {
    /// Told while the default pool is installed, when there is no pool yet.
    pub pool_notes: &'a DefaultPoolNotes,
    /// Whether the SMT-LIB logic named so (`QF_BV`, `ALL`) has a theory; `None` for a
    /// logic it does not know (then no configuration is left out for its theories).
    /// `grammar_check::logic::Logic` knows them.
    pub logic_has: fn(&str, Theory) -> Option<bool>,
    /// Told each [`Note`] as it comes.
    pub note: &'a mut dyn FnMut(Note),
}

/// Something [`prepare`] tells along the way (the CLI prints each as `et: NOTE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// A warning about the grammar, found while loading it.
    GrammarWarning(String),
    /// The grammar has fewer formulas than asked for: the run takes those it has.
    Shortened {
        /// The grammar's name.
        grammar: String,
        /// How many formulas it has.
        total: BigUint,
        /// How many the run takes.
        n: u64,
        /// From which index.
        start: BigUint,
    },
    /// Configurations of a solver that act only on theories the grammar's logic lacks:
    /// not run, listed in run.toml.
    Inapplicable {
        /// The pool solver they configure.
        of: String,
        /// How many.
        count: usize,
    },
    /// A solver whose family does not take the grammar's logic: not run, never a
    /// judge, listed in run.toml.
    OutsideLogic {
        /// The solver's name.
        name: String,
        /// The grammar's logic.
        logic: String,
        /// What of it the family does not take.
        lacks: String,
    },
    /// `--mode session` on a grammar of scripts: they run fresh.
    ScriptsRunFresh,
    /// A configuration its solver refuses at the start check: not run, listed in
    /// run.toml.
    Refused {
        /// The configuration's name.
        name: String,
        /// What the solver said.
        why: String,
    },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::GrammarWarning(w) => write!(f, "warning: {w}"),
            Note::Shortened {
                grammar,
                total,
                n,
                start,
            } => write!(
                f,
                "grammar `{grammar}` has {total} formulas; running the {n} from index {start} on"
            ),
            Note::Inapplicable { of, count } => write!(
                f,
                "{count} configuration{} of {of} act only on theories the grammar's logic lacks; not run (run.toml lists them)",
                if *count == 1 { "" } else { "s" }
            ),
            Note::OutsideLogic { name, logic, lacks } => write!(
                f,
                "{name} does not take {logic} ({lacks}); not run and no judge (run.toml lists it)"
            ),
            Note::ScriptsRunFresh => write!(
                f,
                "the grammar makes scripts, which run fresh (a session resets between formulas); --mode session does not apply"
            ),
            Note::Refused { name, why } => write!(f, "{name} refuses its options ({why}); not run"),
        }
    }
}

/// Why [`prepare`] made no campaign. Its own refusals ([`PrepareError::is_refusal`])
/// are bad input; the others pass on an error of another part of et (shown as that
/// error, and judged by it: [`PrepareError::passed_on`]) or of the system (its source).
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// A setting a new run needs that the request lacks.
    #[error("{flag} is required")]
    Required {
        /// `--grammar`, `--n` or `--timeout`.
        flag: &'static str,
    },
    /// `--resume` with neither a run directory nor the whole study.
    #[error("--resume without --grammar, --n and --timeout needs --out DIR, the run to continue")]
    ResumeWithoutOut,
    /// `--reference` on a grammar of scripts, whose check-sats are judged by their
    /// own release alone.
    #[error("--reference {reference}: grammar `{grammar}` makes scripts, and each check-sat of a script is judged against the same release on its assertions alone (no other judge); leave out --reference")]
    ReferenceOnScripts {
        /// The grammar.
        grammar: String,
        /// The judges asked for.
        reference: String,
    },
    /// The run.toml resumed names a grammar that is not built in, and no file.
    #[error("cannot resume: run.toml names grammar `{grammar}`, which is not built in and has no recorded file; give --grammar FILE")]
    UnknownGrammar {
        /// The grammar it names.
        grammar: String,
    },
    /// The run.toml resumed has a start that is no index.
    #[error("cannot resume: run.toml's start: `{text}` is not a non-negative decimal integer")]
    RecordedStart {
        /// Its start.
        text: String,
    },
    /// The run.toml resumed has a time limit et does not run with.
    #[error("cannot resume: run.toml: bad timeout `{value}`: {reason}")]
    RecordedTimeout {
        /// The limit, seconds.
        value: f64,
        /// What is wrong with it.
        reason: String,
    },
    /// The run.toml resumed has a witness bound et does not search with.
    #[error("cannot resume: run.toml's witness_bound is `{text}`, not 1 to 64 or \"off\"")]
    RecordedWitnessBound {
        /// Its witness bound.
        text: String,
    },
    /// `--reference` names no judge.
    #[error("--reference needs a solver name or family")]
    EmptyReference,
    /// `--pool` and `--solvers` both name a pool file.
    #[error("--pool {} and --solvers {solvers} both name a pool file; give one of them (with --pool, --solvers lists names from it)", pool.display())]
    TwoPoolFiles {
        /// `--pool`.
        pool: PathBuf,
        /// `--solvers`.
        solvers: String,
    },
    /// `--solvers` names a pool file that is not there.
    #[error("--solvers {solvers}: no such pool file")]
    NoPoolFile {
        /// `--solvers`.
        solvers: String,
    },
    /// A `--configurations` entry that is not `SOLVER:WHICH`.
    #[error("--configurations {spec}: expected SOLVER:WHICH (curated, single, single:N, A..B, tactics, tactics:N or tactics:A..B)")]
    ConfigurationSyntax {
        /// The entry.
        spec: String,
    },
    /// A `--configurations` entry whose WHICH is no selection.
    #[error("--configurations {spec}: {reason}")]
    BadSelection {
        /// The entry.
        spec: String,
        /// What is wrong with its selection.
        reason: String,
    },
    /// A `--configurations` entry of a solver that is itself a configuration.
    #[error("--configurations {spec}: {solver} is itself a configuration")]
    ConfigurationOfConfiguration {
        /// The entry.
        spec: String,
        /// Its solver.
        solver: String,
    },
    /// A configuration whose name is no solver name.
    #[error("{0}")]
    BadName(String),
    /// Every configuration asked for is refused or inapplicable: nothing to run.
    #[error("--configurations: every configuration asked for is refused by its solver or acts only on theories the grammar's logic lacks")]
    NothingToRun,
    /// No solver under test takes the grammar's logic.
    #[error("no solver under test takes the grammar's logic: left out {}", left_out.join(", "))]
    NoSolverTakesLogic {
        /// The solvers left out.
        left_out: Vec<String>,
    },
    /// A file or directory of the system could not be read or made.
    #[error("{what}{}", path.as_ref().map_or(String::new(), |p| format!(" {}", p.display())))]
    Io {
        /// `cannot read`, `cannot resolve`, `cannot make a scratch directory`.
        what: &'static str,
        /// The file, if the error is about one.
        path: Option<PathBuf>,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A run directory or its run.toml that cannot be resumed, and the like.
    #[error(transparent)]
    Campaign(#[from] CampaignError),
    /// The grammar.
    #[error(transparent)]
    Grammar(#[from] GrammarError),
    /// The logic the grammar declares.
    #[error(transparent)]
    Logic(#[from] BadLogic),
    /// The start index.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// The shard recorded in run.toml.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// The pool.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// Installing the default pool.
    #[error(transparent)]
    Install(#[from] InstallError),
    /// A solver's option catalog, or the configurations asked of it.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// The judges.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
}

impl PrepareError {
    /// Whether [`prepare`] refused the request itself: bad input (the CLI's exit 2).
    /// Otherwise the error is another's, which says whose fault it is: the one it
    /// passes on ([`PrepareError::passed_on`]), or its source (an OS error).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, PrepareError::Io { .. }) && self.passed_on().is_none()
    }

    /// The error of another part of et that this one passes on unchanged (it shows as
    /// that error, and is not in its chain of sources).
    pub fn passed_on(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PrepareError::Campaign(e) => Some(e),
            PrepareError::Grammar(e) => Some(e),
            PrepareError::Logic(e) => Some(e),
            PrepareError::Index(e) => Some(e),
            PrepareError::Shard(e) => Some(e),
            PrepareError::Pool(e) => Some(e),
            PrepareError::Install(e) => Some(e),
            PrepareError::Options(e) => Some(e),
            PrepareError::Reference(e) => Some(e),
            _ => None,
        }
    }
}

/// The campaign `request` describes (with `resume`, completed from the run.toml being
/// resumed), and the enumeration of its grammar, after every check a campaign makes
/// before it writes anything: time limits, range, grammar, logic, pool and judges.
pub fn prepare(
    request: &Request,
    hooks: &mut Hooks<'_>,
) -> Result<(Campaign, Enumeration), PrepareError> {
    let recorded = recorded_study(request)?;
    let study = Study::new(request, recorded.as_ref().map(|(m, _)| m))?;
    let (mut enumeration, grammar_file) = load_grammar(&study.grammar, hooks)?;
    let grammar = enumeration.grammar().name.clone();
    let jobs = request.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let n = fit_range(&mut enumeration, &study.start, study.n, hooks)?;
    let reference = judges_asked(study.reference.as_deref())?;
    let first = enumeration.first_text().unwrap_or_default();
    let scripts = crate::judging::scripts::is_script(&enumeration.grammar().tokens, &first);
    if let (true, Some(asked)) = (scripts, &reference) {
        return Err(PrepareError::ReferenceOnScripts {
            grammar,
            reference: asked.join(","),
        });
    }
    // The logic a family's prelude states (yices), checked before anything is written.
    crate::builtins::declared_logic(enumeration.grammar())?;
    let solvers = choose_solvers(request, recorded.as_ref(), &enumeration, hooks)?;
    let plan = Plan {
        start: study.start,
        n,
        shard: study.shard,
    };
    let out = request
        .out
        .clone()
        .unwrap_or_else(|| default_out(&grammar, &plan));
    let campaign = Campaign {
        grammar,
        grammar_file,
        plan,
        pool: solvers.pool,
        under_test: solvers.under_test,
        reference,
        timeout: study.timeout,
        cpu_timeout: study.cpu_timeout,
        memory_mb: study.memory_mb,
        jobs,
        out,
        resume: request.resume,
        reference_cache: request.reference_cache.clone(),
        witness_bound: study.witness_bound,
        // A resumed run keeps the mode it was made in (runs before sessions: fresh).
        // Scripts run fresh: a session resets between formulas, and a script's scopes
        // and answers are its own.
        mode: match (request.mode, &recorded) {
            _ if scripts => CallMode::Fresh,
            (Some(mode), _) => mode,
            (None, Some((m, _))) => m.mode.unwrap_or_default(),
            (None, None) => CallMode::Session,
        },
        scripts,
        restart_after: request.restart_after,
        audit_percent: request.audit_percent,
        refused: solvers.refused,
        inapplicable: solvers.inapplicable,
        outside_logic: solvers.outside_logic,
    };
    if scripts && request.mode == Some(CallMode::Session) {
        (hooks.note)(Note::ScriptsRunFresh);
    }
    // Judges named in --reference or the pool's rules exist, before anything is written.
    campaign.judges()?;
    Ok((campaign, enumeration))
}

/// `results/<grammar>-<start>-<n>[-shard-k-of-K]`.
fn default_out(grammar: &str, plan: &Plan) -> PathBuf {
    let shard = plan
        .shard
        .map_or(String::new(), |s| format!("-shard-{}-of-{}", s.k, s.count));
    PathBuf::from("results").join(format!("{grammar}-{}-{}{shard}", plan.start, plan.n))
}

/// `n` formulas from `start`, or as many as a finite grammar has from there (said); an
/// error if `start` lies beyond an infinite grammar's reach.
fn fit_range(
    enumeration: &mut Enumeration,
    start: &BigUint,
    n: u64,
    hooks: &mut Hooks<'_>,
) -> Result<u64, PrepareError> {
    let Some(total) = enumeration.total() else {
        enumeration.locate(start)?;
        return Ok(n);
    };
    let available = total.checked_sub(start).unwrap_or_default();
    if BigUint::from(n) <= available {
        return Ok(n);
    }
    let n = u64::try_from(&available).unwrap_or(u64::MAX);
    (hooks.note)(Note::Shortened {
        grammar: enumeration.grammar().name.clone(),
        total,
        n,
        start: start.clone(),
    });
    Ok(n)
}

/// `--reference` as a list of judges, if given; an error if it names none.
fn judges_asked(reference: Option<&str>) -> Result<Option<Vec<String>>, PrepareError> {
    let Some(reference) = reference else {
        return Ok(None);
    };
    let judges: Vec<String> = reference
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect();
    if judges.is_empty() {
        return Err(PrepareError::EmptyReference);
    }
    Ok(Some(judges))
}

/// The grammar to enumerate (its warnings told), and the absolute path of its `.pest`
/// file if it is not a built-in.
fn load_grammar(
    spec: &str,
    hooks: &mut Hooks<'_>,
) -> Result<(Enumeration, Option<String>), PrepareError> {
    let grammar = crate::builtins::load(spec)?;
    for w in &grammar.warnings {
        (hooks.note)(Note::GrammarWarning(w.to_string()));
    }
    let file = match Builtin::find(spec) {
        Some(_) => None,
        None => Some(
            std::fs::canonicalize(spec)
                .map_err(|source| PrepareError::Io {
                    what: "cannot resolve",
                    path: Some(PathBuf::from(spec)),
                    source,
                })?
                .to_string_lossy()
                .into_owned(),
        ),
    };
    Ok((Enumeration::new(grammar), file))
}

/// With `resume` and a run directory, the study recorded in its run.toml and the
/// path of that file; an error if there is none and the request does not describe a
/// study either.
fn recorded_study(request: &Request) -> Result<Option<(RunManifest, PathBuf)>, PrepareError> {
    if !request.resume {
        return Ok(None);
    }
    if let Some(out) = &request.out {
        let path = out.join("run.toml");
        if path.is_file() {
            return Ok(Some((read_manifest(&path)?, path)));
        }
    }
    if request.grammar.is_some() && request.n.is_some() && request.timeout.is_some() {
        return Ok(None); // a fresh start: a resume of a run that never began
    }
    Err(match &request.out {
        Some(out) => CampaignError::NothingToResume { dir: out.clone() }.into(),
        None => PrepareError::ResumeWithoutOut,
    })
}

/// The study to run: each value from the request, else from the run.toml being
/// resumed, else its default.
struct Study {
    /// A built-in name or a `.pest` path.
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
    fn new(request: &Request, previous: Option<&RunManifest>) -> Result<Study, PrepareError> {
        let required = |flag| PrepareError::Required { flag };
        let grammar = match (&request.grammar, previous) {
            (Some(g), _) => g.clone(),
            (None, Some(m)) => recorded_grammar(m)?,
            (None, None) => return Err(required("--grammar")),
        };
        let start = match (&request.start, previous) {
            (Some(s), _) => s.clone(),
            (None, Some(m)) => {
                m.start
                    .trim()
                    .parse::<BigUint>()
                    .map_err(|_| PrepareError::RecordedStart {
                        text: m.start.clone(),
                    })?
            }
            (None, None) => BigUint::default(),
        };
        let n = match (request.n, previous) {
            (Some(n), _) => n,
            (None, Some(m)) => m.n,
            (None, None) => return Err(required("--n")),
        };
        let shard = match (request.shard, previous) {
            (Some(s), _) => Some(s),
            (None, Some(m)) => m.shard.as_deref().map(str::parse).transpose()?,
            (None, None) => None,
        };
        let timeout = match (request.timeout, previous) {
            (Some(t), _) => t,
            (None, Some(m)) => recorded_seconds(m.timeout_s)?,
            (None, None) => return Err(required("--timeout")),
        };
        let cpu_timeout = match (request.cpu_timeout, previous) {
            (Some(t), _) => Some(t),
            (None, Some(m)) => m.cpu_timeout_s.map(recorded_seconds).transpose()?,
            (None, None) => None,
        };
        let witness_bound = match (request.witness_bound, request.no_witness, previous) {
            (Some(n), _, _) => Some(n),
            (None, true, _) => None,
            (None, false, Some(m)) => recorded_witness_bound(m)?,
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
            memory_mb: request.memory_mb.or(previous.and_then(|m| m.memory_mb)),
            reference: request
                .reference
                .clone()
                .or(previous.and_then(|m| m.reference.clone())),
        })
    }
}

/// The grammar of a recorded study: its file, else its built-in name.
fn recorded_grammar(m: &RunManifest) -> Result<String, PrepareError> {
    match (&m.grammar_file, Builtin::find(&m.grammar)) {
        (Some(file), _) => Ok(file.clone()),
        (None, Some(_)) => Ok(m.grammar.clone()),
        (None, None) => Err(PrepareError::UnknownGrammar {
            grammar: m.grammar.clone(),
        }),
    }
}

/// The witness bound of a recorded study (runs before the bound was recorded: the
/// default).
fn recorded_witness_bound(m: &RunManifest) -> Result<Option<usize>, PrepareError> {
    match m.witness_bound.as_deref() {
        None => Ok(Some(DEFAULT_WITNESS_BOUND)),
        Some("off") => Ok(None),
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=64).contains(n))
            .map(Some)
            .ok_or_else(|| PrepareError::RecordedWitnessBound {
                text: text.to_string(),
            }),
    }
}

/// A time limit recorded in run.toml, checked as a requested one is.
fn recorded_seconds(value: f64) -> Result<Duration, PrepareError> {
    time_limit(value).map_err(|reason| PrepareError::RecordedTimeout { value, reason })
}

/// The solvers of a campaign: the pool, those under test, and the configurations asked
/// for that are not run.
struct Solvers {
    pool: Pool,
    under_test: Vec<SolverConfig>,
    refused: Vec<RefusedConfiguration>,
    inapplicable: Vec<InapplicableConfiguration>,
    outside_logic: Vec<OutsideLogic>,
}

/// The pool and the solvers under test: the request's, else the recorded study's; with
/// the configurations asked for added (those their solver refuses, or that act only on
/// theories the grammar's logic lacks, left out and told), and without models if asked.
fn choose_solvers(
    request: &Request,
    recorded: Option<&(RunManifest, PathBuf)>,
    enumeration: &Enumeration,
    hooks: &mut Hooks<'_>,
) -> Result<Solvers, PrepareError> {
    let asked =
        request.pool.is_some() || request.solvers.is_some() || !request.configurations.is_empty();
    let (pool, under_test) = match (recorded, asked) {
        (Some((m, path)), false) => recorded_pool(m, path)?,
        _ => load_pool(request, hooks.pool_notes)?,
    };
    let mut solvers = Solvers {
        pool,
        under_test,
        refused: match (recorded, request.configurations.is_empty()) {
            (Some((m, _)), true) => m.refused_configurations.clone(),
            _ => Vec::new(),
        },
        inapplicable: match recorded {
            Some((m, _)) => m.inapplicable_configurations.clone(),
            None => Vec::new(),
        },
        outside_logic: match recorded {
            Some((m, _)) => m.outside_logic.clone(),
            None => Vec::new(),
        },
    };
    if !request.configurations.is_empty() {
        add_configurations(
            request,
            recorded.is_some(),
            enumeration,
            &mut solvers,
            hooks,
        )?;
    }
    // Also on resume: solvers asked for again are left out by the same rule, so a
    // resumed run compares the solvers it runs, not those it was asked for.
    if let Some(logic) = crate::builtins::declared_logic(enumeration.grammar())? {
        leave_out_outside_logic(&mut solvers, logic, hooks);
    }
    if solvers.under_test.is_empty() {
        return Err(PrepareError::NoSolverTakesLogic {
            left_out: solvers
                .outside_logic
                .iter()
                .map(|o| o.name.clone())
                .collect(),
        });
    }
    if request.no_models {
        for s in solvers
            .pool
            .solvers
            .iter_mut()
            .chain(&mut solvers.under_test)
        {
            s.models = false;
        }
    }
    Ok(solvers)
}

/// Adds the configurations of `request` to the pool and the solvers under test (only
/// they are under test when the request names no solvers), except those that act only
/// on theories the grammar's logic lacks and those their solver refuses: these are
/// told and recorded.
fn add_configurations(
    request: &Request,
    resumed: bool,
    enumeration: &Enumeration,
    solvers: &mut Solvers,
    hooks: &mut Hooks<'_>,
) -> Result<(), PrepareError> {
    let mut configured = configurations(&solvers.pool, &request.configurations)?;
    // A configuration that acts only on theories the grammar's logic lacks is not run.
    // A resumed run leaves out what it left out when it started, whatever the rule
    // says now: the solvers under test stay those it began with.
    if resumed {
        let inapplicable = &solvers.inapplicable;
        configured.retain(|s| !inapplicable.iter().any(|c| c.name == s.name));
    } else if let Some(logic) = crate::builtins::declared_logic(enumeration.grammar())? {
        solvers.inapplicable = leave_out_inapplicable(&mut configured, logic, hooks.logic_has);
    }
    for (of, count) in counts_by_solver(&solvers.inapplicable) {
        (hooks.note)(Note::Inapplicable {
            of: of.to_string(),
            count,
        });
    }
    if request.solvers.is_none() {
        solvers.under_test.clear();
    }
    let scratch = tempfile::tempdir().map_err(|source| PrepareError::Io {
        what: "cannot make a scratch directory",
        path: None,
        source,
    })?;
    let refusals = check::refusals(&configured, scratch.path());
    for solver in configured {
        if let Some((_, why)) = refusals.iter().find(|(n, _)| *n == solver.name) {
            (hooks.note)(Note::Refused {
                name: solver.name.clone(),
                why: why.clone(),
            });
            let c = solver
                .configuration
                .clone()
                .unwrap_or_else(|| unreachable!());
            solvers.refused.push(RefusedConfiguration {
                name: solver.name,
                configuration_of: c.of,
                options: c.options,
                reason: why.clone(),
            });
            continue;
        }
        if solvers.pool.get(&solver.name).is_none() {
            solvers.pool.solvers.push(solver.clone());
        }
        if !solvers.under_test.iter().any(|s| s.name == solver.name) {
            solvers.under_test.push(solver);
        }
    }
    if solvers.under_test.is_empty() {
        return Err(PrepareError::NothingToRun);
    }
    Ok(())
}

/// Takes out of the pool and the solvers under test those whose family does not take
/// the theories of the logic named `logic` ([`crate::solvers::family::Family::lacks`]),
/// and tells each. A logic the rule does not know leaves everything in.
fn leave_out_outside_logic(solvers: &mut Solvers, logic: &str, hooks: &mut Hooks<'_>) {
    let needs: Vec<Theory> = Theory::ALL
        .into_iter()
        .filter(|t| (hooks.logic_has)(logic, *t) == Some(true))
        .collect();
    if (hooks.logic_has)(logic, Theory::Arithmetic).is_none() {
        return;
    }
    let mut out: Vec<OutsideLogic> = Vec::new();
    let keep = |s: &SolverConfig, out: &mut Vec<OutsideLogic>| match s.family_info().lacks(&needs) {
        None => true,
        Some(lacks) => {
            if !out.iter().any(|o| o.name == s.name) {
                out.push(OutsideLogic {
                    name: s.name.clone(),
                    lacks,
                });
            }
            false
        }
    };
    solvers.under_test.retain(|s| keep(s, &mut out));
    solvers.pool.solvers.retain(|s| keep(s, &mut out));
    for o in out {
        if solvers.outside_logic.iter().any(|r| r.name == o.name) {
            continue; // recorded when the run began, and told then
        }
        (hooks.note)(Note::OutsideLogic {
            name: o.name.clone(),
            logic: logic.to_string(),
            lacks: o.lacks.clone(),
        });
        solvers.outside_logic.push(o);
    }
}

/// Takes out of `configured` the configurations whose options all act only on
/// theories the logic named `logic` lacks, and returns them.
fn leave_out_inapplicable(
    configured: &mut Vec<SolverConfig>,
    logic: &str,
    logic_has: fn(&str, Theory) -> Option<bool>,
) -> Vec<InapplicableConfiguration> {
    let mut out = Vec::new();
    // A logic the rule does not know leaves everything in.
    if logic_has(logic, Theory::Arithmetic).is_none() {
        return out;
    }
    configured.retain(|s| {
        // A tactic acts on whatever the formula holds.
        let Some(c) = s.configuration.as_ref().filter(|c| c.tactic.is_none()) else {
            return true;
        };
        match options::acts_only_on(s.family_info(), &c.options) {
            Some(theories) if !theories.iter().any(|t| logic_has(logic, *t) == Some(true)) => {
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
fn configurations(pool: &Pool, specs: &[String]) -> Result<Vec<SolverConfig>, PrepareError> {
    let cache = options::cache_dir(&solvers::et_home());
    let mut out: Vec<SolverConfig> = Vec::new();
    for spec in specs.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let Some((name, which)) = spec.split_once(':') else {
            return Err(PrepareError::ConfigurationSyntax { spec: spec.into() });
        };
        let selection: options::Selection =
            which.parse().map_err(|reason| PrepareError::BadSelection {
                spec: spec.into(),
                reason,
            })?;
        let base = pool.select(&[name])?.solvers.remove(0);
        if base.configuration.is_some() {
            return Err(PrepareError::ConfigurationOfConfiguration {
                spec: spec.into(),
                solver: name.into(),
            });
        }
        if let options::Selection::Tactics { .. } = selection {
            let space = options::tactics::TacticSpace::new(options::tactics::tactics_of(&base)?);
            let picked = space.indices(&selection);
            if picked.is_empty() {
                return Err(PrepareError::BadSelection {
                    spec: spec.into(),
                    reason: format!("{} has {} tactic expressions", base.name, space.len()),
                });
            }
            for i in picked {
                let tactic = space.get(i).expect("an index of the space");
                let solver = options::tactics::configure(&base, i, &tactic);
                if !out.iter().any(|s| s.name == solver.name) {
                    out.push(solver);
                }
            }
            continue;
        }
        let catalog = options::catalog_of(&base, &cache)?;
        let curated = base.family_info().curated_configurations();
        for c in options::select(&catalog, curated, &selection)? {
            let solver = options::configure(&base, &c);
            check_name(&solver.name).map_err(PrepareError::BadName)?;
            if !out.iter().any(|s| s.name == solver.name) {
                out.push(solver);
            }
        }
    }
    Ok(out)
}

/// The pool and the solvers under test of the request: a pool file of `solvers` (not
/// together with `pool`), else `pool` or the default pool (installed, told to `notes`,
/// when there is none yet) and the solvers it names of it. A pool without solvers is
/// refused.
fn load_pool(
    request: &Request,
    notes: &DefaultPoolNotes,
) -> Result<(Pool, Vec<SolverConfig>), PrepareError> {
    if let Some(pool) = own_pool_file(request)? {
        let all = pool.solvers.clone();
        return Ok((pool, all));
    }
    // A malformed pool file is bad input, not an installation failure.
    let pool = install::load_pool_or_install_default(request.pool.as_deref(), notes).map_err(
        |e| match e {
            InstallError::Pool(e) => PrepareError::Pool(e),
            other => PrepareError::Install(other),
        },
    )?;
    let path = pool
        .source
        .clone()
        .unwrap_or_else(|| solvers::default_pool_path(&solvers::et_home()));
    let pool = with_solvers(pool, &path)?;
    let under_test = match &request.solvers {
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

/// The pool file `solvers` names, if it names one rather than solvers of the pool.
fn own_pool_file(request: &Request) -> Result<Option<Pool>, PrepareError> {
    let Some(spec) = &request.solvers else {
        return Ok(None);
    };
    // Solver names hold no `/` and do not end in a pool file's extension.
    let path = Path::new(spec);
    if !(path.is_file() || spec.contains('/') || spec.ends_with(".toml") || spec.ends_with(".cfg"))
    {
        return Ok(None);
    }
    if let Some(pool) = &request.pool {
        return Err(PrepareError::TwoPoolFiles {
            pool: pool.clone(),
            solvers: spec.clone(),
        });
    }
    if !path.is_file() {
        return Err(PrepareError::NoPoolFile {
            solvers: spec.clone(),
        });
    }
    let pool = if path.extension().is_some_and(|e| e == "toml") {
        Pool::load(path)?
    } else {
        let text = std::fs::read_to_string(path).map_err(|source| PrepareError::Io {
            what: "cannot read",
            path: Some(path.to_path_buf()),
            source,
        })?;
        Pool::from_solvers_cfg(&text, path)?
    };
    Ok(Some(with_solvers(pool, path)?))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_lie_within_their_range() {
        assert_eq!(time_limit(8.0).unwrap(), Duration::from_secs(8));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e300, 1e-9] {
            assert!(time_limit(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_resume_needs_a_directory_or_a_whole_study() {
        let request = Request {
            resume: true,
            ..Request::default()
        };
        let err = recorded_study(&request).unwrap_err();
        assert!(matches!(err, PrepareError::ResumeWithoutOut), "{err}");
        assert!(err.is_refusal());
        let request = Request {
            out: Some(PathBuf::from("/nonexistent/et-run")),
            ..request
        };
        let err = recorded_study(&request).unwrap_err();
        assert!(
            err.passed_on().is_some_and(|e| e.is::<CampaignError>()),
            "{err}"
        );
    }

    #[test]
    fn notes_read_as_before() {
        let note = Note::Inapplicable {
            of: "z3-4.16.0".into(),
            count: 1,
        };
        assert_eq!(
            note.to_string(),
            "1 configuration of z3-4.16.0 act only on theories the grammar's logic lacks; not run (run.toml lists them)"
        );
    }
}
