//! One worker of a campaign: takes a formula, runs every solver under test that still
//! needs it and the references that judge them (unless their answer is cached),
//! classifies each call, checks the model it printed (et-eval), asks the oracle's
//! checks in turn ([`oracle::checks`]) for its verdict, saves bug triggers (and a sample
//! of each kind of rejection), and hands back the rows.
//!
//! The formula's parsed form (for the model check and the witness search) is built
//! from the enumeration's tokens when first needed, never re-read from text; the
//! witness search runs only when a check asks for it, once per formula, unless the
//! reference cache already holds its result.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;

use et_eval::{
    check_model, check_witness, ModelCheck, ModelDialect, Script, ScriptError, WitnessBound,
};

use crate::grammar::TokenId;
use crate::oracle::checks::{run_checks, CallFacts, WitnessFact};
use crate::oracle::{self, Status};
use crate::solvers::call::{run_call, CallOutcome, Input, Limits};
use crate::solvers::{InputMode, SolverConfig};

use super::bugs::{BugStore, CallRecord, OwnChecks, Sample, Trigger};
use super::reference::{
    first_decided, Answer, NewAnswer, Reference, ReferenceCache, WitnessResult,
};
use super::row::RunRow;

/// A formula handed to a worker.
pub(super) struct Job {
    /// Offset from the study's start.
    pub offset: u64,
    /// Global index, decimal.
    pub index: String,
    /// FEAT size.
    pub size: u32,
    /// The formula.
    pub text: String,
    /// The formula as the enumeration's tokens (ids into [`Worker::tokens`]): what the
    /// model check and the witness search read, without re-parsing the text.
    pub tokens: Vec<TokenId>,
    /// Answers of solvers that already have a row (resume of a partly done formula).
    pub done: HashMap<String, Answer>,
}

/// What a worker sends back for one formula.
pub(super) struct Finished {
    /// Rows of the solvers under test that could be judged.
    pub rows: Vec<RunRow>,
    /// New reference answers for the cache.
    pub references: Vec<NewAnswer>,
    /// The witness search made on this formula (not taken from the cache), if any.
    pub witness: Option<WitnessResult>,
    /// Global index of the formula.
    pub index: String,
    /// Wall seconds of every call made.
    pub call_seconds: f64,
}

/// What a worker shares with the others.
pub(super) struct Worker<'a> {
    /// Grammar name for the rows.
    pub grammar: &'a str,
    /// The grammar's SMT-LIB logic, for the families that need it stated.
    pub logic: Option<&'a str>,
    /// The solvers under test.
    pub under_test: &'a [SolverConfig],
    /// Each solver's judges, in order (the first that decides is its reference).
    pub references: &'a HashMap<String, Vec<SolverConfig>>,
    /// Cached reference answers.
    pub cache: &'a ReferenceCache,
    /// Per-call limits (with the run's cancel flag).
    pub limits: &'a Limits,
    /// Solvers that cannot start under the limits, with the reason: not run, their
    /// calls are setup errors.
    pub cannot_start: &'a HashMap<String, String>,
    /// Where bug triggers go.
    pub store: &'a BugStore,
    /// This worker's formula file.
    pub file: PathBuf,
    /// This worker's file for the formula behind a family's prelude.
    pub framed_file: PathBuf,
    /// Set on Ctrl-C.
    pub cancel: Arc<AtomicBool>,
    /// The grammar's token table, by [`TokenId`].
    pub tokens: &'a [String],
    /// et's witness search, if on: values tried per constant.
    pub witness_values: Option<usize>,
}

/// A call made on the current formula.
struct Made {
    outcome: CallOutcome,
    class: oracle::Classification,
    /// The command line it ran (with the family's model options when et asked for a
    /// model).
    command: Vec<String>,
    /// The script it was given (prelude and model request included).
    script: String,
    /// et's check of the model it printed (`sat` with models on).
    model_check: Option<ModelCheck>,
}

impl Made {
    /// The answer as a judge of others: a model that et found to falsify the formula
    /// decided nothing, and a self-check failure on a model et found valid is a false
    /// alarm that does not spoil a clean `sat`.
    fn answer(&self) -> Answer {
        Answer {
            status: self.class.status,
            invalid_model: match &self.model_check {
                Some(ModelCheck::Valid) => false,
                Some(ModelCheck::Invalid { .. }) => true,
                _ => self.class.invalid_model,
            },
        }
    }

    /// The model check for the row and the checks: `None` when no model was read.
    fn checked_model(&self) -> Option<&ModelCheck> {
        self.model_check
            .as_ref()
            .filter(|c| !matches!(c, ModelCheck::NoModel { .. }))
    }
}

/// The calls of one formula and what is known about it so far.
struct FormulaCalls<'w, 'a> {
    worker: &'w Worker<'a>,
    job: &'w Job,
    text: String,
    /// The script in `framed_file` now (a formula behind a prelude or with a model
    /// request), if any.
    framed: Option<String>,
    /// The formula parsed from its tokens, when first needed; an error if et-eval does
    /// not know one of its operators (a `.pest` grammar of its own).
    script: OnceCell<Result<Script, ScriptError>>,
    /// The formula's witness (from the cache or searched here), when first asked.
    witness: OnceCell<WitnessResult>,
    /// Whether the witness was searched here (so it goes to the cache).
    searched: std::cell::Cell<bool>,
    made: HashMap<String, Made>,
    /// Answers by solver name: made here, found in runs.csv, or from the cache.
    known: HashMap<String, Answer>,
    call_seconds: f64,
}

impl Worker<'_> {
    /// Runs and judges one formula. An interrupted call ends the formula early: the
    /// solvers it could not judge get no row and run again on resume.
    pub fn formula(&self, job: &Job) -> anyhow::Result<Finished> {
        let text = format!("{}\n", job.text);
        replace_file(&self.file, &text)
            .with_context(|| format!("cannot write {}", self.file.display()))?;
        let todo: Vec<&SolverConfig> = self
            .under_test
            .iter()
            .filter(|s| !job.done.contains_key(&s.name))
            .collect();
        let mut calls = FormulaCalls {
            worker: self,
            job,
            text,
            framed: None,
            script: OnceCell::new(),
            witness: OnceCell::new(),
            searched: std::cell::Cell::new(false),
            made: HashMap::new(),
            known: job.done.clone(),
            call_seconds: 0.0,
        };
        let mut new_references = Vec::new();
        'run: {
            for solver in &todo {
                if !calls.call(solver)? {
                    break 'run;
                }
            }
            for solver in &todo {
                // Judges answer in order until one decides the formula.
                let judges = &self.references[&solver.name];
                while let Reference::Missing(r) =
                    first_decided(judges, |name| calls.known.get(name).copied())
                {
                    if let Some(answer) = self.cache.get(&r.name, job.offset) {
                        calls.known.insert(r.name.clone(), answer);
                    } else if !calls.call(r)? {
                        break 'run;
                    }
                }
            }
        }
        // Every reference answer made here goes to the cache, under test or not.
        for r in self.references.values().flatten() {
            if let Some(m) = calls.made.get(&r.name) {
                if !new_references.iter().any(|(name, _, _)| *name == r.name) {
                    new_references.push((r.name.clone(), m.answer(), m.outcome.wall.as_secs_f64()));
                }
            }
        }
        let mut rows = Vec::new();
        for solver in todo {
            if let Some(row) = calls.judge(solver, job)? {
                rows.push(row);
            }
        }
        let witness = calls
            .searched
            .get()
            .then(|| calls.witness.get().cloned())
            .flatten();
        Ok(Finished {
            rows,
            references: new_references,
            witness,
            index: job.index.clone(),
            call_seconds: calls.call_seconds,
        })
    }
}

impl FormulaCalls<'_, '_> {
    /// Runs one solver on the formula; false if the run is being cancelled. With
    /// models on, the solver runs with its family's model options and the script asks
    /// for the model after `(check-sat)`; a `sat` model is checked by et-eval.
    fn call(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
        let w = self.worker;
        if w.cancel.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let with_models = solver.command_with_models();
        let request = with_models
            .as_ref()
            .and_then(|_| solver.family_info())
            .map(|f| f.model_request());
        let script = match (solver.prelude(w.logic), request) {
            (None, None) => self.text.clone(),
            (prelude, request) => {
                let mut script = String::new();
                if let Some(prelude) = prelude {
                    script.push_str(&prelude);
                    script.push('\n');
                }
                script.push_str(&self.text);
                if let Some(request) = request {
                    script.push_str(request);
                    script.push('\n');
                }
                script
            }
        };
        let file = if script == self.text {
            &w.file
        } else {
            if self.framed.as_ref() != Some(&script) {
                replace_file(&w.framed_file, &script)
                    .with_context(|| format!("cannot write {}", w.framed_file.display()))?;
                self.framed = Some(script.clone());
            }
            &w.framed_file
        };
        let input = match solver.input {
            InputMode::File => Input::File(file),
            InputMode::Stdin => Input::Stdin(script.as_bytes()),
        };
        let command = with_models.unwrap_or_else(|| solver.command.clone());
        let outcome = match w.cannot_start.get(&solver.name) {
            Some(why) => CallOutcome::not_started(why.clone()),
            None => run_call(&command, input, w.limits).with_context(|| {
                format!("cannot run solver {} ({})", solver.name, command.join(" "))
            })?,
        };
        if outcome.cancelled || stopped_with_the_run(&outcome, &w.cancel) {
            return Ok(false);
        }
        self.call_seconds += outcome.wall.as_secs_f64();
        let class = oracle::classify(&outcome);
        let model_check = match (request, class.status) {
            (Some(_), Status::Sat) => match self.read() {
                Ok(formula) => {
                    let dialect = ModelDialect::for_solver(&solver.family, &solver.version);
                    Some(check_model(
                        formula,
                        &without_error_lines(&outcome.stdout_text()),
                        dialect,
                    ))
                }
                // An operator et-eval lacks: the row says `unsupported`, the bug log
                // names it.
                Err(e) => ModelCheck::of_unreadable(e),
            },
            _ => None,
        };
        let made = Made {
            outcome,
            class,
            command,
            script,
            model_check,
        };
        self.known.insert(solver.name.clone(), made.answer());
        self.made.insert(solver.name.clone(), made);
        Ok(true)
    }

    /// The formula parsed from the job's tokens (once).
    fn parsed(&self) -> Option<&Script> {
        self.read().ok()
    }

    /// The formula parsed from the job's tokens (once), or why et-eval cannot read it.
    fn read(&self) -> Result<&Script, &ScriptError> {
        self.script
            .get_or_init(|| {
                let tokens = self.job.tokens.iter().map(|&t| &self.worker.tokens[t]);
                Script::from_tokens(tokens)
            })
            .as_ref()
    }

    /// The formula's witness: from the cache, or searched now (once), if the search is
    /// on and et-eval reads the formula.
    fn witness(&self) -> Option<&str> {
        self.witness
            .get_or_init(|| {
                let w = self.worker;
                let values = w.witness_values?;
                if let Some(cached) = w.cache.witness(self.job.offset) {
                    return cached.clone();
                }
                let script = self.parsed()?;
                self.searched.set(true);
                let bound = WitnessBound::exhaustive(values, script.decls.len());
                check_witness(script, &bound).map(|found| one_line_witness(&found, script))
            })
            .as_deref()
    }

    /// The row of a solver under test, judged against its reference, saving a bug
    /// trigger if it is one; `None` if it was not run or its reference is unknown.
    fn judge(&self, solver: &SolverConfig, job: &Job) -> anyhow::Result<Option<RunRow>> {
        let w = self.worker;
        let Some(m) = self.made.get(&solver.name) else {
            return Ok(None);
        };
        let (reference, reference_answer) =
            match first_decided(&w.references[&solver.name], |name| {
                self.known.get(name).copied()
            }) {
                Reference::None => (None, None),
                Reference::Judged(r, answer) => (Some(r), Some(answer)),
                Reference::Missing(_) => return Ok(None), // interrupted: judge it on resume
            };
        let reference_status = reference_answer.map(|a| a.status);
        // Only a clean sat/unsat judges: a reference whose model was found invalid has
        // decided nothing (and no later judge decided either).
        let finding = run_checks(&CallFacts {
            status: m.class.status,
            self_check_failed: m.class.invalid_model,
            model_check: m.checked_model(),
            reference: reference_answer.filter(|a| a.usable()).map(|a| a.status),
            witness: self,
        });
        let verdict = finding.map(|f| f.verdict);
        let evidence = finding.and_then(|f| f.evidence);
        // The script this solver ran, prelude and model request included: what a
        // trigger or sample holds, and the command that ran it.
        let script = m.script.trim_end();
        let ran = SolverConfig {
            command: m.command.clone(),
            ..solver.clone()
        };
        if let Some(v) = verdict.filter(|v| v.is_bug()) {
            let ran_reference = reference.map(|r| match self.made.get(&r.name) {
                Some(made) => SolverConfig {
                    command: made.command.clone(),
                    ..r.clone()
                },
                None => r.clone(),
            });
            let trigger = Trigger {
                verdict: v,
                index: &job.index,
                formula: script,
                call: CallRecord {
                    solver: &ran,
                    status: m.class.status.label(),
                    outcome: Some(&m.outcome),
                },
                own: OwnChecks {
                    evidence,
                    model_check: m.model_check.as_ref(),
                    witness: self.witness(),
                },
                reference: ran_reference.as_ref().map(|r| CallRecord {
                    solver: r,
                    status: reference_status.map_or("", Status::label),
                    outcome: self.made.get(&r.name).map(|m| &m.outcome),
                }),
                signature: m.class.crash_signature.as_deref(),
            };
            w.store.save(&trigger).with_context(|| {
                format!(
                    "cannot save the bug trigger of {} on {}",
                    solver.name, job.index
                )
            })?;
        }
        if m.class.status == Status::Rejected {
            let error_line = oracle::error_line(&m.outcome);
            let sample = Sample {
                index: &job.index,
                formula: script,
                call: CallRecord {
                    solver: &ran,
                    status: m.class.status.label(),
                    outcome: Some(&m.outcome),
                },
                error_line: error_line.as_deref(),
            };
            w.store.save_sample(&sample).with_context(|| {
                format!(
                    "cannot save a sample of {}'s output on {}",
                    solver.name, job.index
                )
            })?;
        }
        Ok(Some(RunRow {
            grammar: w.grammar.to_string(),
            index: job.index.clone(),
            size: job.size,
            solver: solver.name.clone(),
            family: solver.family.clone(),
            version: solver.version.clone(),
            status: m.class.status.label().to_string(),
            verdict: verdict.map_or(String::new(), |v| v.label().to_string()),
            reference: reference.map_or(String::new(), |r| r.name.clone()),
            reference_status: reference_status.map_or(String::new(), |s| s.label().to_string()),
            time_s: m.outcome.wall.as_secs_f64(),
            cpu_s: m.outcome.cpu.as_secs_f64(),
            max_rss_kb: m.outcome.max_rss_kb,
            exit_code: m.outcome.exit_code,
            signal: m.outcome.signal,
            reference_usable: match reference_answer {
                None => String::new(),
                Some(a) if a.usable() => "yes".to_string(),
                Some(_) => "no".to_string(),
            },
            evidence: evidence.map_or(String::new(), |e| e.label().to_string()),
            model_check: m
                .checked_model()
                .map_or(String::new(), |c| c.csv().to_string()),
        }))
    }
}

/// A `sat` call's output without its one-line `(error ...)` responses: on a call
/// classified `sat` they can only be the solver's own model check failing (z3 prints it
/// between `sat` and the model), which leaves the printed model readable and worth
/// checking: that is how a false alarm of the self-check shows.
pub fn without_error_lines(stdout: &str) -> String {
    stdout
        .lines()
        .filter(|l| {
            let l = l.trim();
            !(l.starts_with("(error") && l.ends_with(')'))
        })
        .flat_map(|l| [l, "\n"])
        .collect()
}

/// A witness as one line of `define-fun`s (and the division-by-zero choices it relies
/// on, as a trailing comment): one line, so that `reference.csv` keeps one record per
/// line and a torn last line is cut cleanly.
fn one_line_witness(found: &et_eval::Witness, script: &Script) -> String {
    let mut text = found.to_smtlib(script).trim_end().replace('\n', " ");
    if !found.evaluation.choices.is_empty() {
        let choices: Vec<String> = found
            .evaluation
            .choices
            .iter()
            .map(|c| c.to_string())
            .collect();
        text.push_str(&format!(" ; with {}", choices.join(", ")));
    }
    text
}

/// The witness is searched when a check first asks for it.
impl WitnessFact for FormulaCalls<'_, '_> {
    fn exists(&self) -> bool {
        self.witness().is_some()
    }
}

/// Per-worker formula files in a private temporary directory
/// (`$TMPDIR/et-run-<pid>-XXXXXX`, a unique name), removed when the run ends, however it
/// ends short of SIGKILL (then by the next run).
pub(super) struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// Creates `$TMPDIR/et-run-<pid>-XXXXXX` (unique even for several campaigns of
    /// one process), after removing those of et processes that no longer exist
    /// (killed with `kill -9`, or a power loss).
    pub fn new() -> anyhow::Result<Scratch> {
        let dir = scratch_dir().with_context(|| {
            format!(
                "cannot create a scratch directory in {}",
                std::env::temp_dir().display()
            )
        })?;
        Ok(Scratch { dir })
    }

    /// The directory itself.
    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// The formula file of worker `worker`.
    pub fn file(&self, worker: usize) -> PathBuf {
        self.dir.path().join(format!("formula-{worker}.smt2"))
    }

    /// The file of worker `worker` for the formula behind a family's prelude.
    pub fn framed_file(&self, worker: usize) -> PathBuf {
        self.dir
            .path()
            .join(format!("formula-{worker}-framed.smt2"))
    }
}

/// Gives a worker's formula file new contents by removing it and creating it again.
/// Not `fs::write`: truncating a file that holds data makes ext4 (`auto_da_alloc`)
/// write it to disk when it is closed, 1.6–2 ms per formula on the development
/// machine, a sixth of a typical call; a new file stays in the page cache.
fn replace_file(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    fs::write(path, text)
}

/// A private scratch directory `$TMPDIR/et-run-<pid>-XXXXXX` (unique even for several
/// in one process), removed when dropped, created after removing those of et
/// processes that no longer exist (killed with `kill -9`, or a power loss). Campaigns
/// and triage keep their formula files in one.
pub fn scratch_dir() -> std::io::Result<tempfile::TempDir> {
    let tmp = std::env::temp_dir();
    remove_dead_scratch_dirs(&tmp);
    tempfile::Builder::new()
        .prefix(&format!("et-run-{}-", std::process::id()))
        .tempdir_in(&tmp)
}

/// Removes the scratch directories (`et-run-<pid>-...`) of et processes that no longer
/// exist: a `kill -9` leaves its directory behind, and the next run cleans up.
fn remove_dead_scratch_dirs(tmp: &std::path::Path) {
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("et-run-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        // SAFETY: signal 0 only checks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } < 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a solver that died of SIGTERM, SIGINT or SIGHUP was stopped together with the
/// run. et itself only ever kills with SIGKILL; a cluster's `scancel` or a terminal's
/// Ctrl-C signals every process of the job at once, so the solver can die a moment
/// before et's own handler sets the cancel flag. Such a call is not the solver's crash:
/// if the run turns out to be cancelled (the flag is waited for up to a second), the call
/// is dropped and made again on resume. A solver killed that way while the run goes on
/// is recorded as what it is.
fn stopped_with_the_run(outcome: &CallOutcome, cancel: &AtomicBool) -> bool {
    if !matches!(
        outcome.signal,
        Some(libc::SIGTERM | libc::SIGINT | libc::SIGHUP)
    ) {
        return false;
    }
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        if cancel.load(Ordering::Relaxed) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
