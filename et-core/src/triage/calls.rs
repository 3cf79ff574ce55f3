//! Running a formula on a solver again, the way `et run` does: through
//! [`crate::judging`], the one call-and-judge path (the same script, command line,
//! classification and model check), so triage, bisect and shrink read and judge answers
//! exactly as the campaign did. There is no second answer parser and no second judge.
//!
//! A [`Caller`] owns a private scratch directory for formula files (removed on drop),
//! the per-call limits, a cache and a thread pool. [`Caller::fresh`] always starts a
//! new process (confirmation attempts must be independent); [`Caller::cached`] runs a
//! (solver, formula, timeout) once per caller and reuses the answer (version ranges and
//! bisection ask the same question many times).
//!
//! A formula may be given as any script et wrote (a trigger file ends in the model
//! request, a yices trigger starts with its prelude): the formula is the script minus
//! those ([`formula_of`]), and the call adds them again as `et run` does.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use et_eval::{ModelCheck, Script};

use crate::judging::reference::Ruling;
use crate::judging::{self, formula_of, observe, Deciders, Invocation, Judged, Observation};
use crate::oracle::checks::{Finding, WitnessFact};
use crate::oracle::{refuses_option, Status};
use crate::solvers::call::{CallError, CallOutcome, Limits};
use crate::solvers::SolverConfig;

/// Lines of output kept in an [`Answer`] for reports.
const EXCERPT_LINES: usize = 6;
/// Lines kept of a `sat` answer's output: its model is the evidence of an invalid-model
/// report, and the models of et's small formulas fit (a longer one is cut, and says so).
const MODEL_EXCERPT_LINES: usize = 80;
/// Characters kept of one output line in an excerpt.
const EXCERPT_LINE_CHARS: usize = 200;

/// What one call answered, as the oracle classified it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The classified status.
    pub status: Status,
    /// The model is wrong: et's check of the model it printed found the formula false,
    /// or the solver's own check failed where et's check decided nothing (the rule of
    /// [`judging::as_reference`]). A self-check failure on a model et found valid is a
    /// validator false alarm, not an invalid model.
    pub invalid_model: bool,
    /// The solver's own model check failed.
    pub self_check_failed: bool,
    /// et's check of the printed model, when the solver was asked for one and
    /// answered `sat`.
    pub model_check: Option<ModelCheck>,
    /// For crashes, the signature that groups duplicates.
    pub crash_signature: Option<String>,
    /// The solver refused an option of its command line (`unknown parameter`, an
    /// option value it does not take): a release without the option of a
    /// configuration, which says nothing about a finding.
    pub refused_option: bool,
    /// Wall-clock seconds.
    pub time_s: f64,
    /// CPU seconds (user + system) of the solver's process tree.
    pub cpu_s: f64,
    /// Exit code, if the solver exited.
    pub exit_code: Option<i32>,
    /// Signal number, if it was killed.
    pub signal: Option<i32>,
    /// The first lines of stdout then stderr (for reports: what the solver printed).
    pub excerpt: String,
    /// After `sat`, the whole of stdout: the model, to pin ([`super::pin`]).
    pub model_output: Option<String>,
}

impl Answer {
    /// The answer of an observed call.
    pub fn from_observation(observation: Observation) -> Answer {
        let outcome = &observation.outcome;
        let invalid_model = judging::as_reference(
            observation.class.status,
            observation.class.self_check_failed,
            judging::read_model(observation.model_check.as_ref()),
        )
        .invalid_model;
        Answer {
            status: observation.class.status,
            invalid_model,
            self_check_failed: observation.class.self_check_failed,
            time_s: outcome.wall.as_secs_f64(),
            cpu_s: outcome.cpu.as_secs_f64(),
            exit_code: outcome.exit_code,
            signal: outcome.signal,
            excerpt: excerpt(
                outcome,
                if observation.class.status == Status::Sat {
                    MODEL_EXCERPT_LINES
                } else {
                    EXCERPT_LINES
                },
            ),
            crash_signature: observation.class.crash_signature,
            refused_option: refuses_option(outcome),
            model_output: (observation.class.status == Status::Sat)
                .then(|| outcome.stdout_text().into_owned()),
            model_check: observation.model_check,
        }
    }

    /// What the oracle's checks read of this call.
    pub fn judged(&self) -> Judged<'_> {
        Judged {
            status: self.status,
            self_check_failed: self.self_check_failed,
            model_check: judging::read_model(self.model_check.as_ref()),
        }
    }

    /// The verdict on this call, judged as `et run` judges it
    /// ([`judging::judge`]): against `deciders` (a judge's answer, or an expected
    /// answer given by the user; whether another solver decided the formula) and the
    /// formula's witness.
    pub fn finding(
        &self,
        deciders: impl Into<Deciders>,
        witness: &dyn WitnessFact,
    ) -> Option<Finding> {
        judging::judge(self.judged(), deciders.into(), witness)
    }

    /// This answer as a judge of others (the campaign's rule: a `sat` whose model is
    /// wrong decided nothing; a self-check failure on a model et found valid is a
    /// false alarm that does not spoil it).
    pub fn as_reference(&self) -> Ruling {
        judging::as_reference(
            self.status,
            self.self_check_failed,
            self.model_check.as_ref(),
        )
    }

    /// The status this answer judges others by, as a reference: a clean sat/unsat,
    /// else `None` ([`Answer::as_reference`]).
    pub fn judging_status(&self) -> Option<Status> {
        self.as_reference().usable().then_some(self.status)
    }

    /// `sat`, `sat (invalid model)`, `crash (SIGSEGV)`, ...: the answer in a few words.
    pub fn describe(&self) -> String {
        if self.invalid_model {
            return format!("{} (invalid model)", self.status);
        }
        if self.self_check_failed {
            return format!("{} (validator false alarm)", self.status);
        }
        match &self.crash_signature {
            Some(signature) => format!("{} ({signature})", self.status),
            None => self.status.to_string(),
        }
    }
}

/// The first `lines` non-empty lines of stdout then stderr, each cut at
/// [`EXCERPT_LINE_CHARS`]; a last line says how many more there were.
fn excerpt(outcome: &CallOutcome, lines: usize) -> String {
    let stdout = outcome.stdout_text();
    let stderr = outcome.stderr_text();
    let all: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect();
    let mut kept: Vec<String> = all
        .iter()
        .take(lines)
        .map(|l| l.chars().take(EXCERPT_LINE_CHARS).collect::<String>())
        .collect();
    if all.len() > lines {
        kept.push(format!("... ({} more lines)", all.len() - lines));
    }
    kept.join("\n")
}

/// What a solver printed when called, as its user sees it: the command line and the
/// script it ran, and its standard output and error as they came (a report's output
/// block is this, of exactly its command and file).
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    /// The command line (the formula file's path is given after it).
    pub command: Vec<String>,
    /// The script the solver read.
    pub script: String,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// One of them was longer than et keeps of a call, and is cut.
    pub truncated: bool,
    /// The call's status, as the oracle classified it.
    pub status: Status,
}

/// How the calls of one formula are made: the run's limits, and the SMT-LIB logic
/// its grammar declares (told to the families whose scripts need a `(set-logic ...)`
/// prelude, as `et run` tells them).
#[derive(Debug, Clone, Copy)]
pub struct CallSettings<'a> {
    /// Wall-clock limit of a call (et kills everything the call started).
    pub timeout: Duration,
    /// CPU-time limit of a call, if the run had one.
    pub cpu_timeout: Option<Duration>,
    /// Memory limit in MiB, if any (the solver's process tree with cgroups, else its
    /// address space).
    pub memory_mb: Option<u64>,
    /// The logic of the formula's grammar, if it declares one.
    pub logic: Option<&'a str>,
}

impl CallSettings<'_> {
    /// Calls limited by `timeout` only, of a formula whose grammar declares no logic.
    pub const fn with_timeout(timeout: Duration) -> CallSettings<'static> {
        CallSettings {
            timeout,
            cpu_timeout: None,
            memory_mb: None,
            logic: None,
        }
    }

    /// The same settings with both time limits multiplied by `factor`.
    pub fn scaled(self, factor: f64) -> Self {
        CallSettings {
            timeout: self.timeout.mul_f64(factor),
            cpu_timeout: self.cpu_timeout.map(|t| t.mul_f64(factor)),
            ..self
        }
    }
}

/// A cached answer's question: solver, the settings that can change its answer
/// (wall and CPU limits in microseconds, memory, logic) and the formula.
type CacheKey = (
    String,
    u128,
    Option<u128>,
    Option<u64>,
    Option<String>,
    Arc<str>,
);

/// Makes solver calls for triage, bisection and shrinking.
pub struct Caller {
    scratch: tempfile::TempDir,
    next_file: AtomicU64,
    calls: AtomicU64,
    cache: Mutex<HashMap<CacheKey, Answer>>,
    pool: rayon::ThreadPool,
    journal: Option<super::journal::Journal>,
}

impl Caller {
    /// A caller with its own scratch directory under `$TMPDIR` (named and cleaned up
    /// after a `kill -9` as a campaign's is) and `jobs` threads.
    pub fn new(jobs: usize) -> std::io::Result<Caller> {
        let scratch = crate::campaign::scratch_dir()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .thread_name(|i| format!("et-call-{i}"))
            .build()
            .map_err(std::io::Error::other)?;
        Ok(Caller {
            scratch,
            next_file: AtomicU64::new(0),
            calls: AtomicU64::new(0),
            cache: Mutex::new(HashMap::new()),
            pool,
            journal: None,
        })
    }

    /// This caller with `journal`: each call is answered from it when it holds one
    /// recorded for the same question, else made and appended to it.
    pub fn with_journal(self, journal: super::journal::Journal) -> Caller {
        Caller {
            journal: Some(journal),
            ..self
        }
    }

    /// The journal, if the caller has one.
    pub fn journal(&self) -> Option<&super::journal::Journal> {
        self.journal.as_ref()
    }

    /// Number of solver processes started so far (calls answered from the journal
    /// are not counted).
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// Runs `f` on every item with at most `jobs` calls at a time; results in item order.
    pub fn map<T: Sync, R: Send>(&self, items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
        use rayon::prelude::*;
        self.pool.install(|| items.par_iter().map(f).collect())
    }

    /// [`Caller::map`], telling `progress` how many items are done of how many: first
    /// `(0, total)`, then as items finish (at most a few times a second, on the calling
    /// thread, whose job is only to wait and tell), last `(total, total)`.
    pub fn map_observed<T: Sync, R: Send>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> R + Sync + Send,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Vec<R> {
        let total = items.len() as u64;
        let done = AtomicU64::new(0);
        let waiting = std::thread::current();
        progress(0, total);
        let results = std::thread::scope(|scope| {
            let work = scope.spawn(|| {
                self.map(items, |item| {
                    let result = f(item);
                    done.fetch_add(1, Ordering::Relaxed);
                    waiting.unpark();
                    result
                })
            });
            let mut told = 0;
            while !work.is_finished() {
                std::thread::park_timeout(Duration::from_millis(500));
                let now = done.load(Ordering::Relaxed);
                if now != told && now < total {
                    told = now;
                    progress(now, total);
                    // Not more often than this, however fast items finish.
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
            work.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        progress(total, total);
        results
    }

    /// Runs `solver` on `formula` in a new process, whatever ran before: the script
    /// `et run` would give it (the family's prelude, the model request with models on;
    /// `formula` may be any script et wrote, [`formula_of`]), observed and its model
    /// checked as `et run` does ([`judging::observe`]).
    pub fn fresh(
        &self,
        solver: &SolverConfig,
        formula: &str,
        limits: CallSettings<'_>,
    ) -> Result<Answer, CallError> {
        self.observe_fresh(solver, formula, limits)
            .map(Answer::from_observation)
    }

    /// Whether `solver` on `formula` gives an answer `shows` accepts in each of
    /// `attempts` fresh calls (at least one); stops at the first that does not.
    pub fn in_every_attempt(
        &self,
        solver: &SolverConfig,
        formula: &str,
        limits: CallSettings<'_>,
        attempts: u32,
        shows: impl Fn(&Answer) -> bool,
    ) -> Result<bool, CallError> {
        for _ in 0..attempts.max(1) {
            if !shows(&self.fresh(solver, formula, limits)?) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// [`Caller::fresh`], with all the solver printed on stdout (its statistics, say).
    pub fn fresh_with_output(
        &self,
        solver: &SolverConfig,
        formula: &str,
        limits: CallSettings<'_>,
    ) -> Result<(Answer, String), CallError> {
        let observation = self.observe_fresh(solver, formula, limits)?;
        let stdout = observation.outcome.stdout_text().into_owned();
        Ok((Answer::from_observation(observation), stdout))
    }

    /// [`Caller::fresh`], for what `solver` printed ([`Printed`]): the command line and
    /// script [`Invocation::new`] gives it, run once in a new process.
    pub fn printed(
        &self,
        solver: &SolverConfig,
        formula: &str,
        limits: CallSettings<'_>,
    ) -> Result<Printed, CallError> {
        let observation = self.observe_fresh(solver, formula, limits)?;
        let outcome = &observation.outcome;
        Ok(Printed {
            stdout: outcome.stdout_text().into_owned(),
            stderr: outcome.stderr_text().into_owned(),
            truncated: outcome.stdout_truncated || outcome.stderr_truncated,
            status: observation.class.status,
            command: observation.command,
            script: observation.script,
        })
    }

    fn observe_fresh(
        &self,
        solver: &SolverConfig,
        formula: &str,
        limits: CallSettings<'_>,
    ) -> Result<Observation, CallError> {
        let formula = formula_of(formula);
        let invocation = Invocation::new(solver, &formula, limits.logic);
        self.observe(invocation, &formula, limits, None)
    }

    /// Runs `invocation` as it is, in a new process: the exact command line and script
    /// a bug report gives ([`Invocation::exactly`]), on a file called `file_name` (a
    /// solver may print the path it was given), journaled like every other call.
    pub fn exactly(
        &self,
        invocation: Invocation<'_>,
        limits: CallSettings<'_>,
        file_name: &str,
    ) -> Result<Observation, CallError> {
        let formula = formula_of(&invocation.script);
        self.observe(invocation, &formula, limits, Some(file_name))
    }

    /// [`judging::observe`] of `invocation`, whose formula is `formula`, from the
    /// journal when it holds the call, else made (and journaled).
    fn observe(
        &self,
        invocation: Invocation<'_>,
        formula: &str,
        limits: CallSettings<'_>,
        file_name: Option<&str>,
    ) -> Result<Observation, CallError> {
        let solver = invocation.solver;
        let limits_of_call = Limits {
            cpu_timeout: limits.cpu_timeout,
            memory_mb: limits.memory_mb,
            ..Limits::with_timeout(limits.timeout)
        };
        let script = std::cell::OnceCell::new();
        let parsed = || script.get_or_init(|| Script::parse(formula)).as_ref();
        if let Some(outcome) = self
            .journal
            .as_ref()
            .and_then(|j| j.replay((&invocation).into(), &limits_of_call))
        {
            return Ok(crate::judging::replayed(invocation, outcome, parsed));
        }
        self.calls.fetch_add(1, Ordering::Relaxed);
        let written = |what| {
            move |source| CallError::Supervise {
                program: solver.program().to_string(),
                what,
                source,
            }
        };
        let path = match file_name {
            Some(name) => {
                // A folder of its own, so that the file has the name asked for.
                let folder = self.file_path().with_extension("d");
                std::fs::create_dir_all(&folder).map_err(written("making the formula's folder"))?;
                folder.join(name)
            }
            None => self.file_path(),
        };
        std::fs::write(&path, &invocation.script).map_err(written("writing the formula file"))?;
        let observation = observe(invocation, &path, &limits_of_call, parsed);
        let _ = std::fs::remove_file(&path);
        if file_name.is_some() {
            let _ = path.parent().map(std::fs::remove_dir);
        }
        let observation = observation?;
        if let Some(journal) = &self.journal {
            journal
                .record(
                    super::journal::Call {
                        solver: &solver.name,
                        command: &observation.command,
                        script: &observation.script,
                    },
                    &limits_of_call,
                    &observation.outcome,
                )
                .map_err(|e| CallError::Supervise {
                    program: solver.program().to_string(),
                    what: "writing the triage journal",
                    source: std::io::Error::other(e.to_string()),
                })?;
        }
        Ok(observation)
    }

    /// The answer of `solver` on `formula` under `limits`, running it only the first
    /// time this caller is asked (two threads asking at once may both run it).
    pub fn cached(
        &self,
        solver: &SolverConfig,
        formula: &str,
        limits: CallSettings<'_>,
    ) -> Result<Answer, CallError> {
        let key: CacheKey = (
            solver.name.clone(),
            limits.timeout.as_micros(),
            limits.cpu_timeout.map(|t| t.as_micros()),
            limits.memory_mb,
            limits.logic.map(str::to_string),
            Arc::from(formula),
        );
        if let Some(answer) = self.lock().get(&key) {
            return Ok(answer.clone());
        }
        let answer = self.fresh(solver, formula, limits)?;
        self.lock().insert(key, answer.clone());
        Ok(answer)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<CacheKey, Answer>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn file_path(&self) -> PathBuf {
        let n = self.next_file.fetch_add(1, Ordering::Relaxed);
        self.scratch.path().join(format!("formula-{n}.smt2"))
    }
}

/// A "solver" of family `sh` that runs a shell script on the formula file (`$1`): the
/// stand-in of triage's unit tests, which check what triage makes of answers.
#[cfg(test)]
pub(crate) fn shell(name: &str, script: &str) -> SolverConfig {
    SolverConfig::new(
        name,
        "sh",
        "1",
        vec!["/bin/sh".into(), "-c".into(), script.into(), "sh".into()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: CallSettings = CallSettings::with_timeout(Duration::from_secs(60));

    #[test]
    fn answers_are_classified_and_cached() {
        let caller = Caller::new(2).unwrap();
        // Prints the formula file's first word: a solver whose answer is its input.
        let echo = shell("echo", "read -r word < \"$1\"; echo \"$word\"");
        let a = caller.cached(&echo, "unsat", LIMITS).unwrap();
        assert_eq!(a.status, Status::Unsat);
        assert_eq!(a.describe(), "unsat");
        assert_eq!(caller.calls(), 1);
        let again = caller.cached(&echo, "unsat", LIMITS).unwrap();
        assert_eq!(again.status, Status::Unsat);
        assert_eq!(caller.calls(), 1, "the second ask is served from the cache");
        assert_eq!(
            caller.fresh(&echo, "sat", LIMITS).unwrap().status,
            Status::Sat
        );
        assert_eq!(caller.calls(), 2);
        // Formula files do not accumulate.
        assert_eq!(std::fs::read_dir(caller.scratch.path()).unwrap().count(), 0);
    }

    #[test]
    fn invalid_models_and_crashes_are_described() {
        let caller = Caller::new(1).unwrap();
        let bad = shell(
            "bad",
            "echo sat; echo '(error \"an invalid model was generated\")'; exit 1",
        );
        let a = caller.fresh(&bad, "x", LIMITS).unwrap();
        assert!(a.invalid_model);
        assert_eq!(a.describe(), "sat (invalid model)");
        let segv = shell("segv", "kill -SEGV $$");
        let a = caller.fresh(&segv, "x", LIMITS).unwrap();
        assert_eq!(a.status, Status::Crash);
        assert_eq!(a.describe(), "crash (SIGSEGV)");
    }

    #[test]
    fn a_family_with_a_prelude_gets_the_formula_behind_it() {
        let caller = Caller::new(1).unwrap();
        // A "yices" that answers sat when its script starts with the grammar's logic.
        let mut yices = shell(
            "yices",
            "if head -n 1 \"$1\" | grep -qx '(set-logic QF_LIA)'; then echo sat; else echo unknown; fi",
        );
        yices.family = "yices".into();
        let settings = CallSettings {
            logic: Some("QF_LIA"),
            ..LIMITS
        };
        assert_eq!(
            caller.fresh(&yices, "x", settings).unwrap().status,
            Status::Sat
        );
        // A saved trigger's prelude is et's addition: the call states the logic it is
        // given, once, as `et run` would.
        let saved = "(set-logic QF_NIA)\nx\n(get-model)";
        assert_eq!(
            caller.fresh(&yices, saved, settings).unwrap().status,
            Status::Sat
        );
        // Other families never get one.
        let plain = shell(
            "z3",
            "if grep -q set-logic \"$1\"; then echo sat; else echo unsat; fi",
        );
        assert_eq!(
            caller.fresh(&plain, "x", settings).unwrap().status,
            Status::Unsat
        );
    }

    #[test]
    fn map_observed_counts_every_item_on_the_calling_thread() {
        let caller = Caller::new(2).unwrap();
        let items: Vec<u64> = (0..40).collect();
        let me = std::thread::current().id();
        let mut seen: Vec<(u64, u64)> = Vec::new();
        let out = caller.map_observed(
            &items,
            |i| {
                std::thread::sleep(Duration::from_millis(5));
                i + 1
            },
            &mut |done, total| {
                assert_eq!(std::thread::current().id(), me);
                seen.push((done, total));
            },
        );
        assert_eq!(out, (1..=40).collect::<Vec<_>>());
        assert_eq!(seen.first(), Some(&(0, 40)));
        assert_eq!(seen.last(), Some(&(40, 40)));
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
        let mut none = Vec::new();
        caller.map_observed(&[] as &[u8], |_| (), &mut |d, t| none.push((d, t)));
        assert_eq!(none, [(0, 0), (0, 0)]);
    }

    #[test]
    fn map_keeps_item_order() {
        let caller = Caller::new(2).unwrap();
        let items: Vec<u32> = (0..50).collect();
        assert_eq!(
            caller.map(&items, |i| i * 2),
            (0..50).map(|i| i * 2).collect::<Vec<_>>()
        );
    }
}
