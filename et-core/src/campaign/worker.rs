//! One worker of a campaign: takes a formula, runs every solver under test that still
//! needs it and the references that judge them (unless their answer is cached),
//! classifies and judges each call, saves bug triggers (and a sample of each kind of
//! rejection), and hands back the rows.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;

use crate::oracle::{self, Status};
use crate::solvers::call::{run_call, CallOutcome, Input, Limits};
use crate::solvers::{InputMode, SolverConfig};

use super::bugs::{BugStore, CallRecord, Sample, Trigger};
use super::reference::{first_decided, Answer, NewAnswer, Reference, ReferenceCache};
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
    /// Answers of solvers that already have a row (resume of a partly done formula).
    pub done: HashMap<String, Answer>,
}

/// What a worker sends back for one formula.
pub(super) struct Finished {
    /// Rows of the solvers under test that could be judged.
    pub rows: Vec<RunRow>,
    /// New reference answers for the cache.
    pub references: Vec<NewAnswer>,
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
}

/// A call made on the current formula.
struct Made {
    outcome: CallOutcome,
    class: oracle::Classification,
}

impl Made {
    fn answer(&self) -> Answer {
        Answer {
            status: self.class.status,
            invalid_model: self.class.invalid_model,
        }
    }
}

/// The calls of one formula and what is known about it so far.
struct FormulaCalls<'w, 'a> {
    worker: &'w Worker<'a>,
    text: String,
    /// The prelude whose framed formula is in `framed_file` now, if any.
    framed: Option<String>,
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
        fs::write(&self.file, &text)
            .with_context(|| format!("cannot write {}", self.file.display()))?;
        let todo: Vec<&SolverConfig> = self
            .under_test
            .iter()
            .filter(|s| !job.done.contains_key(&s.name))
            .collect();
        let mut calls = FormulaCalls {
            worker: self,
            text,
            framed: None,
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
        Ok(Finished {
            rows,
            references: new_references,
            index: job.index.clone(),
            call_seconds: calls.call_seconds,
        })
    }
}

impl FormulaCalls<'_, '_> {
    /// Runs one solver on the formula; false if the run is being cancelled.
    fn call(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
        let w = self.worker;
        if w.cancel.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let prelude = solver.prelude(w.logic);
        let framed_text;
        let (text, file) = match &prelude {
            None => (self.text.as_str(), &w.file),
            Some(prelude) => {
                framed_text = format!("{prelude}\n{}", self.text);
                if self.framed.as_ref() != Some(prelude) {
                    fs::write(&w.framed_file, &framed_text)
                        .with_context(|| format!("cannot write {}", w.framed_file.display()))?;
                    self.framed = Some(prelude.clone());
                }
                (framed_text.as_str(), &w.framed_file)
            }
        };
        let input = match solver.input {
            InputMode::File => Input::File(file),
            InputMode::Stdin => Input::Stdin(text.as_bytes()),
        };
        let outcome = match w.cannot_start.get(&solver.name) {
            Some(why) => CallOutcome::not_started(why.clone()),
            None => run_call(&solver.command, input, w.limits).with_context(|| {
                format!(
                    "cannot run solver {} ({})",
                    solver.name,
                    solver.command.join(" ")
                )
            })?,
        };
        if outcome.cancelled {
            return Ok(false);
        }
        self.call_seconds += outcome.wall.as_secs_f64();
        let class = oracle::classify(&outcome);
        let made = Made { outcome, class };
        self.known.insert(solver.name.clone(), made.answer());
        self.made.insert(solver.name.clone(), made);
        Ok(true)
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
        // Only a clean sat/unsat judges: a reference whose own model check failed has
        // decided nothing (and no later judge decided either).
        let verdict = oracle::judge(
            m.class.status,
            m.class.invalid_model,
            reference_answer.filter(|a| a.usable()).map(|a| a.status),
        );
        // The script this solver ran, prelude included: what a trigger or sample holds.
        let script = match solver.prelude(w.logic) {
            Some(prelude) => format!("{prelude}\n{}", job.text),
            None => job.text.clone(),
        };
        if let Some(v) = verdict.filter(|v| v.is_bug()) {
            let trigger = Trigger {
                verdict: v,
                index: &job.index,
                formula: &script,
                call: CallRecord {
                    solver,
                    status: m.class.status.label(),
                    outcome: Some(&m.outcome),
                },
                reference: reference.map(|r| CallRecord {
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
                formula: &script,
                call: CallRecord {
                    solver,
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
        }))
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
