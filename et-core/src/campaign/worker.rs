//! One worker of a campaign: takes a formula, runs every solver under test that still
//! needs it and the references that judge them (unless their answer is cached),
//! classifies and judges each call, saves bug triggers, and hands back the rows.

use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;

use crate::oracle::{self, Status};
use crate::solvers::call::{run_call, CallOutcome, Input, Limits};
use crate::solvers::{InputMode, SolverConfig};

use super::bugs::{BugStore, CallRecord, Trigger};
use super::reference::{first_decided, Reference, ReferenceCache};
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
    /// Statuses of solvers that already have a row (resume of a partly done formula).
    pub done: HashMap<String, Status>,
}

/// What a worker sends back for one formula.
pub(super) struct Finished {
    /// Rows of the solvers under test that could be judged.
    pub rows: Vec<RunRow>,
    /// New reference answers for the cache: (solver, status, wall seconds).
    pub references: Vec<(String, Status, f64)>,
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

/// The calls of one formula and what is known about it so far.
struct FormulaCalls<'w, 'a> {
    worker: &'w Worker<'a>,
    text: String,
    /// The prelude whose framed formula is in `framed_file` now, if any.
    framed: Option<String>,
    made: HashMap<String, Made>,
    /// Statuses by solver name: made here, found in runs.csv, or from the cache.
    known: HashMap<String, Status>,
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
                    if let Some(status) = self.cache.get(&r.name, job.offset) {
                        calls.known.insert(r.name.clone(), status);
                    } else if !calls.call(r)? {
                        break 'run;
                    }
                }
            }
        }
        // Every reference answer made here goes to the cache, under test or not.
        for r in self.references.values().flatten() {
            if let Some(m) = calls.made.get(&r.name) {
                let entry = (r.name.clone(), m.class.status, m.outcome.wall.as_secs_f64());
                if !new_references.contains(&entry) {
                    new_references.push(entry);
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
        self.known.insert(solver.name.clone(), class.status);
        self.made
            .insert(solver.name.clone(), Made { outcome, class });
        Ok(true)
    }

    /// The row of a solver under test, judged against its reference, saving a bug
    /// trigger if it is one; `None` if it was not run or its reference is unknown.
    fn judge(&self, solver: &SolverConfig, job: &Job) -> anyhow::Result<Option<RunRow>> {
        let w = self.worker;
        let Some(m) = self.made.get(&solver.name) else {
            return Ok(None);
        };
        let (reference, reference_status) =
            match first_decided(&w.references[&solver.name], |name| {
                self.known.get(name).copied()
            }) {
                Reference::None => (None, None),
                Reference::Judged(r, status) => (Some(r), Some(status)),
                Reference::Missing(_) => return Ok(None), // interrupted: judge it on resume
            };
        let verdict = oracle::judge(m.class.status, m.class.invalid_model, reference_status);
        if let Some(v) = verdict.filter(|v| v.is_bug()) {
            // The trigger is the script this solver ran, prelude included.
            let formula = match solver.prelude(w.logic) {
                Some(prelude) => format!("{prelude}\n{}", job.text),
                None => job.text.clone(),
            };
            let trigger = Trigger {
                verdict: v,
                index: &job.index,
                formula: &formula,
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
        }))
    }
}

/// Per-worker formula files in a private temporary directory, removed at the end.
pub(super) struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// Creates `$TMPDIR/et-run-<pid>`, after removing those of et processes that no
    /// longer exist (killed with `kill -9`, or a power loss).
    pub fn new() -> anyhow::Result<Scratch> {
        let tmp = std::env::temp_dir();
        if let Ok(entries) = fs::read_dir(&tmp) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(pid) = name
                    .to_str()
                    .and_then(|n| n.strip_prefix("et-run-"))
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
        let dir = tmp.join(format!("et-run-{}", std::process::id()));
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Scratch { dir })
    }

    /// The directory itself.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// The formula file of worker `worker`.
    pub fn file(&self, worker: usize) -> PathBuf {
        self.dir.join(format!("formula-{worker}.smt2"))
    }

    /// The file of worker `worker` for the formula behind a family's prelude.
    pub fn framed_file(&self, worker: usize) -> PathBuf {
        self.dir.join(format!("formula-{worker}-framed.smt2"))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}
