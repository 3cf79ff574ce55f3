//! A batch of formulas: the solvers under test take it one after the other (all of it
//! for the first solver, then for the next), not formula by formula: a solver session
//! that answers formula after formula keeps its caches warm, where alternating with
//! another solver evicts them. Measured on ints with cvc5 1.4.2 and z3 4.16.0 sessions
//! driven alone (2,000 formulas, models asked for): alternating per formula cost cvc5
//! 6.1–7.0 s and z3 4.0–4.2 s of CPU, in runs of 16 formulas 4.9–5.2 s and 3.1–3.3 s.
//! Every other batch takes the solvers in reverse order ([`in_turn`]), so that the
//! solver that ended a batch begins the next one (measured with the batch size, in
//! `runner::batch_size`).
//! Then each formula is judged ([`FormulaCalls::finish`]). Calls are made here: in the
//! worker's session of the solver, or fresh. A session gets the next formula of its run
//! written ahead, so that the solver never waits for et between two formulas
//! ([`Session::call_then`]).

use std::cell::OnceCell;
use std::collections::HashMap;
use std::fs;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;

use et_eval::{Script, ScriptError};

use crate::judging::{self, CallMode, Invocation, Observation, Place};
use crate::oracle::{refuses_option, Status};
use crate::solvers::call::CallOutcome;
use crate::solvers::session::Session;
use crate::solvers::SolverConfig;

use super::{Finished, FormulaCalls, Job, SessionRechecks, Worker};

impl Worker<'_> {
    /// Runs and judges a batch of formulas: each solver under test on every formula of
    /// the batch in turn (see the module documentation), then each formula's judges,
    /// fresh confirmations, audit and rows. An interrupted call ends the work early:
    /// the solvers a formula could not judge get no row and run again on resume.
    pub fn formulas(&self, jobs: &[Job]) -> anyhow::Result<Vec<Finished>> {
        if self.scripts {
            return self.scripts(jobs);
        }
        let mut batch: Vec<FormulaCalls> = jobs
            .iter()
            .map(|job| FormulaCalls {
                worker: self,
                job,
                text: format!("{}\n", job.text),
                script: OnceCell::new(),
                witness: OnceCell::new(),
                searched: std::cell::Cell::new(false),
                made: HashMap::new(),
                known: job.done.clone(),
                call_seconds: 0.0,
                rechecks: SessionRechecks::default(),
            })
            .collect();
        let mut running = true;
        let taken = self.batches.get();
        self.batches.set(taken + 1);
        'run: for solver in in_turn(self.under_test, taken) {
            let due: Vec<&Job> = jobs
                .iter()
                .filter(|job| !job.done.contains_key(&solver.name))
                .collect();
            let mut next = due.iter().skip(1);
            for calls in &mut batch {
                if calls.job.done.contains_key(&solver.name) {
                    continue;
                }
                if !calls.answer(solver, next.next().copied())? {
                    running = false;
                    forget_unasked(&mut batch, solver);
                    break 'run;
                }
            }
            // A configuration's `unknown`s are asked for their reason only now, once
            // nothing is written ahead to its session: a fresh call made while the
            // session works on the next formula would count in that formula's time
            // (its wall clock runs from its predecessor's answer), and make a worker's
            // calls overlap.
            for at in 0..batch.len() {
                if !batch[at].ask_why(solver)? {
                    running = false;
                    forget_unasked(&mut batch[at..], solver);
                    break 'run;
                }
            }
        }
        batch
            .into_iter()
            .map(|calls| calls.finish(running))
            .collect()
    }
}

/// Drops `solver`'s calls of `batch` that wait to be asked for their reason
/// ([`FormulaCalls::ask_why`]) when the run is cancelled: unasked, an `unknown` may be
/// a refused option, not a finding, so the call gets no row and is made again on
/// resume.
fn forget_unasked(batch: &mut [FormulaCalls<'_, '_>], solver: &SolverConfig) {
    for calls in batch {
        if calls.asks_why(solver) {
            calls.made.remove(&solver.name);
            calls.known.remove(&solver.name);
        }
    }
}

/// The order in which the solvers take a worker's `taken`-th batch (counted from 0):
/// every other batch in reverse, so that the solver that ended one batch begins the
/// next and goes on with warm caches — a solver's runs are two batches long.
fn in_turn<T>(solvers: &[T], taken: u64) -> Vec<&T> {
    if taken.is_multiple_of(2) {
        solvers.iter().collect()
    } else {
        solvers.iter().rev().collect()
    }
}

/// What asking a configuration's `unknown` for its reason found.
enum Refusal {
    /// The solver refuses an option value of the configuration on this formula.
    Refused(Box<Observation>),
    /// It gave another reason, or none.
    None,
    /// The run is being cancelled.
    Cancelled,
}

impl FormulaCalls<'_, '_> {
    /// Judges the formula once every solver under test has answered (`running`; false
    /// when the run was interrupted, and the formula gets the rows it can): its judges,
    /// the fresh confirmations, the audit, then the rows.
    fn finish(mut self, running: bool) -> anyhow::Result<Finished> {
        let w = self.worker;
        let job = self.job;
        let todo: Vec<&SolverConfig> = w
            .under_test
            .iter()
            .filter(|s| !job.done.contains_key(&s.name))
            .collect();
        let mut new_references = Vec::new();
        'run: {
            if !running {
                break 'run;
            }
            for solver in &todo {
                if !self.ask_judges(solver)? {
                    break 'run;
                }
            }
            // A session's finding is what a user reproduces in a fresh process: every
            // call that would carry a verdict (and its evidence's decider) is made
            // again fresh, and the fresh call is what the row records.
            for solver in &todo {
                if !self.settle(solver)? {
                    break 'run;
                }
            }
            if !self.audit()? {
                break 'run;
            }
        }
        // Every reference answer made here goes to the cache, under test or not.
        for r in w.references.values().flatten() {
            if let Some(m) = self.made.get(&r.name) {
                if !new_references.iter().any(|(name, _, _)| *name == r.name) {
                    new_references.push((
                        r.name.clone(),
                        m.as_reference(),
                        m.outcome.wall.as_secs_f64(),
                    ));
                }
            }
        }
        let mut rows = Vec::new();
        for solver in &todo {
            if let Some(row) = self.judged_row(solver, job)? {
                rows.push(row);
            }
        }
        // A formula judged whole that nobody decided is a finding of its own.
        let whole = rows.len() == todo.len() && !todo.is_empty();
        let undecided = if whole { self.undecided() } else { Vec::new() };
        let rejected_by_all = if whole { self.rejected_by_all() } else { None };
        let witness = self
            .searched
            .get()
            .then(|| self.witness.get().cloned())
            .flatten();
        Ok(Finished {
            complete: rows.len() == todo.len(),
            rows,
            references: new_references,
            witness,
            index: job.index.clone(),
            call_seconds: self.call_seconds,
            undecided,
            rejected_by_all,
            rechecks: self.rechecks,
        })
    }

    /// Runs one solver on the formula, with nothing written ahead, and asks a
    /// configuration's `unknown` for its reason at once ([`Self::answer`], then
    /// [`Self::ask_why`]); false if the run is being cancelled.
    pub(super) fn call(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
        Ok(self.answer(solver, None)? && self.ask_why(solver)?)
    }

    /// Runs one solver on the formula (`then` is the formula it runs on next, if any);
    /// false if the run is being cancelled. The call
    /// is made and observed through [`crate::judging`], the path triage re-runs it by: with
    /// models on, the solver runs with its family's model options, the script asks for
    /// the model after `(check-sat)`, and a `sat` model is checked by et-eval. A
    /// configuration's `unknown` is yet to be asked for its reason ([`Self::ask_why`]).
    fn answer(&mut self, solver: &SolverConfig, then: Option<&Job>) -> anyhow::Result<bool> {
        let w = self.worker;
        if w.cancel.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let invocation = Invocation::new(solver, &self.job.text, w.logic);
        let next = then.map(|job| Invocation::new(solver, &job.text, w.logic).script);
        let observation = if w.runs_in_session(solver, &invocation) {
            w.session_call(solver, invocation, next.as_deref(), || self.read())?
        } else {
            self.fresh_call(solver, invocation)?
        };
        let outcome = &observation.outcome;
        if outcome.cancelled || stopped_with_the_run(outcome, &w.cancel) {
            return Ok(false);
        }
        self.call_seconds += outcome.wall.as_secs_f64();
        let mode = observation.mode;
        self.rechecks.session_calls += u64::from(mode == CallMode::Session);
        let judge_only = !w.under_test.iter().any(|s| s.name == solver.name);
        self.rechecks.judge_session_calls += u64::from(mode == CallMode::Session && judge_only);
        self.known
            .insert(solver.name.clone(), observation.as_reference());
        self.made.insert(solver.name.clone(), observation);
        Ok(true)
    }

    /// Whether `solver`'s call here is a configuration's `unknown`, which
    /// [`Self::ask_why`] asks for its reason (once: [`Worker::formulas`] asks each call
    /// after its solver's pass, a judge's call is asked at once).
    fn asks_why(&self, solver: &SolverConfig) -> bool {
        solver.configuration.is_some()
            && self
                .made
                .get(&solver.name)
                .is_some_and(|m| m.class.status == Status::Unknown)
    }

    /// Asks a configuration's `unknown` on the formula for its reason ([`Self::refusal`]):
    /// when the solver refuses an option value, the `rejected` call replaces it. Nothing
    /// for any other call. False if the run is being cancelled.
    pub(super) fn ask_why(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
        if !self.asks_why(solver) {
            return Ok(true);
        }
        match self.refusal(solver)? {
            Refusal::Cancelled => return Ok(false),
            Refusal::Refused(rejected) => {
                self.known
                    .insert(solver.name.clone(), rejected.as_reference());
                self.made.insert(solver.name.clone(), *rejected);
            }
            Refusal::None => {}
        }
        Ok(true)
    }

    /// A configuration's `unknown` asked again in a fresh process, with the request
    /// for its reason ([`Invocation::asking_why`]): when the solver says it refuses an
    /// option value of the configuration, the configuration was refused on this
    /// formula, which is no finding; that call, `rejected` and saying why, is what the
    /// row records.
    fn refusal(&mut self, solver: &SolverConfig) -> anyhow::Result<Refusal> {
        let w = self.worker;
        let invocation = Invocation::asking_why(solver, &self.job.text, w.logic);
        let asked = self.fresh_call(solver, invocation)?;
        let outcome = &asked.outcome;
        if outcome.cancelled || stopped_with_the_run(outcome, &w.cancel) {
            return Ok(Refusal::Cancelled);
        }
        self.call_seconds += outcome.wall.as_secs_f64();
        if !refuses_option(outcome) {
            return Ok(Refusal::None);
        }
        Ok(Refusal::Refused(Box::new(asked)))
    }

    /// Makes `invocation` in a process of its own, observed, the model checked
    /// against this formula ([`Worker::fresh_call`]).
    pub(super) fn fresh_call(
        &self,
        solver: &SolverConfig,
        invocation: Invocation<'_>,
    ) -> anyhow::Result<Observation> {
        self.worker
            .fresh_call(solver, invocation, &self.text, || self.read())
    }
}

impl Worker<'_> {
    /// Makes `invocation` in a process of its own ([`judging::call`]), observed, a
    /// model checked against `formula`: the worker's formula file when the script is
    /// the bare formula (`bare`), else its framed file (each rewritten only when it
    /// holds another script), or standard input.
    pub(super) fn fresh_call<'s>(
        &self,
        solver: &SolverConfig,
        invocation: Invocation<'_>,
        bare: &str,
        formula: impl FnOnce() -> Result<&'s Script, &'s ScriptError>,
    ) -> anyhow::Result<Observation> {
        // A worker's calls never overlap: a session's formula written ahead is
        // measured from its predecessor's answer, so a call made before it is read
        // would count in its time, and the run's solver time would exceed its wall
        // time per job.
        debug_assert!(
            self.sessions.borrow().ahead().next().is_none(),
            "a fresh call of {} while a session has a formula written ahead",
            solver.name
        );
        // The bare formula goes to the formula file, a framed script to the other.
        let slot = usize::from(invocation.script != bare);
        let file = [&self.file, &self.framed_file][slot];
        let mut written = self.written.borrow_mut();
        if written[slot].as_ref() != Some(&invocation.script) {
            replace_file(file, &invocation.script)
                .with_context(|| format!("cannot write {}", file.display()))?;
            written[slot] = Some(invocation.script.clone());
        }
        drop(written);
        let command = invocation.command.join(" ");
        judging::call(invocation, Place::Fresh(file), self.limits, formula)
            .with_context(|| format!("cannot run solver {} ({command})", solver.name))
    }
}

impl Worker<'_> {
    /// Whether `solver` runs `invocation` in a session of this worker, starting the
    /// session if needed: false when calls are fresh, or the solver's family cannot
    /// run a session (it then runs fresh).
    fn runs_in_session(&self, solver: &SolverConfig, invocation: &Invocation<'_>) -> bool {
        if self.mode != CallMode::Session {
            return false;
        }
        let mut sessions = self.sessions.borrow_mut();
        // As in a fresh call: no other session's formula written ahead is running.
        debug_assert!(
            sessions.ahead().all(|name| name == solver.name),
            "a session call of {} while another session has a formula written ahead",
            solver.name
        );
        sessions
            .of(&solver.name, || {
                Session::for_solver(solver, &invocation.command)
                    .map(|s| s.restart_after(self.restart_after))
            })
            .is_some()
    }

    /// Makes `invocation` as the next formula of `solver`'s session
    /// ([`Self::runs_in_session`] said there is one), with `next` (the script of its
    /// next call) written ahead, observed ([`judging::call`]).
    fn session_call<'s>(
        &self,
        solver: &SolverConfig,
        invocation: Invocation<'_>,
        next: Option<&str>,
        formula: impl FnOnce() -> Result<&'s Script, &'s ScriptError>,
    ) -> anyhow::Result<Observation> {
        let mut sessions = self.sessions.borrow_mut();
        let session = sessions
            .of(&solver.name, || None)
            .expect("runs_in_session started the session");
        let command = session.command().join(" ");
        judging::call(
            invocation,
            Place::Session(session, next),
            self.limits,
            formula,
        )
        .with_context(|| format!("cannot run solver {} in a session ({command})", solver.name))
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

/// Whether a solver that died of SIGTERM, SIGINT or SIGHUP was stopped together with the
/// run. et itself only ever kills with SIGKILL; a cluster's `scancel` or a terminal's
/// Ctrl-C signals every process of the job at once, so the solver can die a moment
/// before et's own handler sets the cancel flag. Such a call is not the solver's crash:
/// if the run turns out to be cancelled (the flag is waited for up to a second), the call
/// is dropped and made again on resume. A solver killed that way while the run goes on
/// is recorded as what it is.
pub(super) fn stopped_with_the_run(outcome: &CallOutcome, cancel: &AtomicBool) -> bool {
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

#[cfg(test)]
mod tests {
    use super::in_turn;

    #[test]
    fn the_solver_that_ends_a_batch_begins_the_next() {
        let solvers = ["z3", "cvc5", "yices"];
        let runs: Vec<Vec<&&str>> = (0..3).map(|taken| in_turn(&solvers, taken)).collect();
        assert_eq!(runs[0], [&"z3", &"cvc5", &"yices"]);
        assert_eq!(runs[1], [&"yices", &"cvc5", &"z3"]);
        assert_eq!(runs[2], runs[0]);
        for pair in runs.windows(2) {
            assert_eq!(pair[0].last(), pair[1].first());
        }
    }
}
