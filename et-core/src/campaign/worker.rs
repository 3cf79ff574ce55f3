//! One worker of a campaign: takes a batch of formulas, runs every solver under test
//! that still needs them and the references that judge them (unless their answer is
//! cached), classifies each call, checks the model it printed (et-eval), asks the
//! oracle's checks in turn ([`oracle::checks`]) for its verdict, saves bug triggers
//! (and a sample of each kind of rejection), and hands back the rows, a formula at a
//! time.
//!
//! The solvers under test take the batch one after the other (all of it for the first
//! solver, then for the next), not formula by formula: a solver session that answers
//! formula after formula keeps its caches warm, where alternating with another solver
//! evicts them. Measured on ints with cvc5 1.4.2 and z3 4.16.0 sessions driven alone
//! (2,000 formulas, models asked for): alternating per formula cost cvc5 6.1–7.0 s and
//! z3 4.0–4.2 s of CPU, in runs of 16 formulas 4.9–5.2 s and 3.1–3.3 s.
//!
//! The formula's parsed form (for the model check and the witness search) is built
//! from the enumeration's tokens when first needed, never re-read from text; the
//! witness search runs only when a check asks for it, once per formula, unless the
//! reference cache already holds its result.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;

use et_eval::{ModelCheck, Script, ScriptError};

use crate::grammar::TokenId;
use crate::judging::reference::{first_decided, Answer, Reference};
use crate::judging::{
    self, pool_decider, search_witness, CallMode, Deciders, Decision, Invocation, Observation,
};
use crate::oracle::checks::{Finding, WitnessFact};
use crate::oracle::{self, Evidence, Status};
use crate::solvers::call::{run_call, CallOutcome, Input, Limits};
use crate::solvers::session::Session;
use crate::solvers::{InputMode, SolverConfig};

use super::bugs::{BugStore, CallRecord, OwnChecks, Sample, Trigger};
use super::reference::{NewAnswer, ReferenceCache, WitnessResult};
use super::row::{RunRow, SessionDisagreement, UndecidedRow};

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
    /// Whether, with these rows, every solver under test has a row for the formula
    /// (an interrupted formula has the rows of the calls that finished, or none).
    pub complete: bool,
    /// New reference answers for the cache.
    pub references: Vec<NewAnswer>,
    /// The witness search made on this formula (not taken from the cache), if any.
    pub witness: Option<WitnessResult>,
    /// Global index of the formula.
    pub index: String,
    /// Wall seconds of every call made.
    pub call_seconds: f64,
    /// When no solver of the pool and no witness decided the formula: every solver's
    /// status and time on it (for `undecided.csv`); empty otherwise.
    pub undecided: Vec<UndecidedRow>,
    /// Session calls re-run fresh on this formula: to confirm a finding, or for the
    /// audit.
    pub rechecks: SessionRechecks,
}

/// What re-running session calls in fresh processes found on one formula.
#[derive(Debug, Default)]
pub(super) struct SessionRechecks {
    /// Calls made in a session.
    pub session_calls: u64,
    /// Session calls whose finding (or crash, memout) was re-run fresh.
    pub confirmed: u64,
    /// Session calls re-run fresh for the audit.
    pub audited: u64,
    /// Of those, the ones whose fresh answer was the same beyond time.
    pub audit_agreed: u64,
    /// Every re-run whose fresh answer differed from the session's beyond time.
    pub disagreements: Vec<SessionDisagreement>,
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
    /// Where bug triggers go.
    pub store: &'a BugStore,
    /// This worker's formula file.
    pub file: PathBuf,
    /// This worker's file for the formula behind a family's prelude.
    pub framed_file: PathBuf,
    /// What `file` and `framed_file` hold now (`None`: nothing written yet), so that a
    /// fresh call rewrites a file only when the batch moved on to another script.
    pub written: RefCell<[Option<String>; 2]>,
    /// Set on Ctrl-C.
    pub cancel: Arc<AtomicBool>,
    /// The grammar's token table, by [`TokenId`].
    pub tokens: &'a [String],
    /// et's witness search, if on: values tried per constant.
    pub witness_values: Option<usize>,
    /// How calls are made: `session` where the solver's family can run one.
    pub mode: CallMode,
    /// Formulas a session process answers before it is replaced.
    pub restart_after: usize,
    /// Percent of the session calls that are also run fresh to measure agreement.
    pub audit_percent: f64,
    /// This worker's solver sessions by solver name (`None`: the family cannot run
    /// one). A session process dies with the thread that started it, so each worker
    /// keeps its own.
    pub sessions: RefCell<HashMap<String, Option<Session<'static>>>>,
}

/// The calls of one formula and what is known about it so far.
struct FormulaCalls<'w, 'a> {
    worker: &'w Worker<'a>,
    job: &'w Job,
    text: String,
    /// The formula parsed from its tokens, when first needed; an error if et-eval does
    /// not know one of its operators (a `.pest` grammar of its own).
    script: OnceCell<Result<Script, ScriptError>>,
    /// The formula's witness (from the cache or searched here), when first asked.
    witness: OnceCell<WitnessResult>,
    /// Whether the witness was searched here (so it goes to the cache).
    searched: std::cell::Cell<bool>,
    made: HashMap<String, Observation>,
    /// Answers by solver name: made here, found in runs.csv, or from the cache.
    known: HashMap<String, Answer>,
    call_seconds: f64,
    rechecks: SessionRechecks,
}

impl Worker<'_> {
    /// Runs and judges a batch of formulas: each solver under test on every formula of
    /// the batch in turn (see the module documentation), then each formula's judges,
    /// fresh confirmations, audit and rows. An interrupted call ends the work early:
    /// the solvers a formula could not judge get no row and run again on resume.
    pub fn formulas(&self, jobs: &[Job]) -> anyhow::Result<Vec<Finished>> {
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
        'run: for solver in self.under_test {
            for calls in &mut batch {
                if !calls.job.done.contains_key(&solver.name) && !calls.call(solver)? {
                    running = false;
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
            if let Some(row) = self.judge(solver, job)? {
                rows.push(row);
            }
        }
        // A formula judged whole that nobody decided is a finding of its own.
        let undecided = if rows.len() == todo.len() && !todo.is_empty() {
            self.undecided()
        } else {
            Vec::new()
        };
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
            rechecks: self.rechecks,
        })
    }

    /// Runs one solver on the formula; false if the run is being cancelled. The call
    /// is made and observed through [`judging`], the path triage re-runs it by: with
    /// models on, the solver runs with its family's model options, the script asks for
    /// the model after `(check-sat)`, and a `sat` model is checked by et-eval.
    fn call(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
        let w = self.worker;
        if w.cancel.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let invocation = Invocation::new(solver, &self.job.text, w.logic);
        let mut mode = CallMode::Fresh;
        let outcome = match w.in_session(solver, &invocation)? {
            Some(outcome) => {
                mode = CallMode::Session;
                outcome
            }
            None => self.fresh_call(solver, &invocation)?,
        };
        if outcome.cancelled || stopped_with_the_run(&outcome, &w.cancel) {
            return Ok(false);
        }
        self.call_seconds += outcome.wall.as_secs_f64();
        self.rechecks.session_calls += u64::from(mode == CallMode::Session);
        let mut observation = Observation::new(invocation, outcome, || self.read());
        observation.mode = mode;
        self.known
            .insert(solver.name.clone(), observation.as_reference());
        self.made.insert(solver.name.clone(), observation);
        Ok(true)
    }

    /// Makes `invocation` in a process of its own: the worker's formula file when the
    /// script is the bare formula, else its framed file (each rewritten only when it
    /// holds another script), or standard input.
    fn fresh_call(
        &mut self,
        solver: &SolverConfig,
        invocation: &Invocation<'_>,
    ) -> anyhow::Result<CallOutcome> {
        let w = self.worker;
        // The bare formula goes to the formula file, a framed script to the other.
        let slot = usize::from(invocation.script != self.text);
        let file = [&w.file, &w.framed_file][slot];
        let mut written = w.written.borrow_mut();
        if written[slot].as_ref() != Some(&invocation.script) {
            replace_file(file, &invocation.script)
                .with_context(|| format!("cannot write {}", file.display()))?;
            written[slot] = Some(invocation.script.clone());
        }
        drop(written);
        let input = match solver.input {
            InputMode::File => Input::File(file),
            InputMode::Stdin => Input::Stdin(invocation.script.as_bytes()),
        };
        run_call(&invocation.command, input, w.limits).with_context(|| {
            format!(
                "cannot run solver {} ({})",
                solver.name,
                invocation.command.join(" ")
            )
        })
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
                search_witness(script, values)
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
        // Interrupted before a judge answered: judge it on resume.
        let Some(Assessment {
            reference,
            reference_answer,
            pool,
            finding,
        }) = self.assess(solver)
        else {
            return Ok(None);
        };
        let reference_status = reference_answer.map(|a| a.status);
        let verdict = finding.map(|f| f.verdict);
        let evidence = finding.and_then(|f| f.evidence);
        // Who decided the formula, on every performance verdict (whatever its evidence):
        // the reference if it decided, else the fastest solver of the pool that did.
        let (decided_by, decided_s) = match (verdict, reference, reference_answer, pool) {
            (Some(v), _, _, _) if v.is_bug() => (String::new(), None),
            (None, ..) => (String::new(), None),
            (Some(_), Some(r), Some(answer), _) if answer.usable() => (
                r.name.clone(),
                self.made.get(&r.name).map(|m| m.outcome.wall.as_secs_f64()),
            ),
            (Some(_), _, _, Some(d)) => (
                d.solver.to_string(),
                d.seconds.is_finite().then_some(d.seconds),
            ),
            _ => (String::new(), None),
        };
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
            status: m.class.status,
            verdict,
            reference: reference.map_or(String::new(), |r| r.name.clone()),
            reference_status,
            time_s: m.outcome.wall.as_secs_f64(),
            cpu_s: m.outcome.cpu.as_secs_f64(),
            max_rss_kb: m.outcome.max_rss_kb,
            exit_code: m.outcome.exit_code,
            signal: m.outcome.signal,
            reference_usable: reference_answer.map(|a| a.usable()),
            evidence,
            model_check: m
                .checked_model()
                .map_or(String::new(), |c| c.csv().to_string()),
            decided_by,
            decided_s,
            mode: Some(m.mode),
        }))
    }

    /// The verdict on a solver under test as things stand, and who could establish it;
    /// `None` when a judge it needs has not answered (the run was interrupted).
    fn assess<'s>(&'s self, solver: &SolverConfig) -> Option<Assessment<'s>> {
        let w = self.worker;
        let m = self.made.get(&solver.name)?;
        let (reference, reference_answer) =
            match first_decided(&w.references[&solver.name], |name| {
                self.known.get(name).copied()
            }) {
                Reference::None => (None, None),
                Reference::Judged(r, answer) => (Some(r), Some(answer)),
                Reference::Missing(_) => return None,
            };
        // A performance verdict needs someone who decided: the reference, or when it did
        // not, the fastest solver of the pool whose answer nothing contradicts.
        let performance = matches!(m.class.status, Status::Timeout | Status::Unknown);
        let pool = if performance {
            self.pool_decider()
        } else {
            None
        };
        // Only a clean sat/unsat judges: a reference whose model was found invalid has
        // decided nothing (and no later judge decided either).
        let deciders = Deciders {
            reference: reference_answer,
            pool: pool.is_some(),
        };
        let finding = judging::judge(m.judged(), deciders, self);
        Some(Assessment {
            reference,
            reference_answer,
            pool,
            finding,
        })
    }

    /// Asks `solver`'s judges in order until one decides the formula (from the cache
    /// when it has their answer); false if the run is being cancelled.
    fn ask_judges(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
        let w = self.worker;
        let judges = &w.references[&solver.name];
        while let Reference::Missing(r) =
            first_decided(judges, |name| self.known.get(name).copied())
        {
            if let Some(answer) = w.cache.get(&r.name, self.job.offset) {
                self.known.insert(r.name.clone(), answer);
            } else if !self.call(r)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Makes `solver`'s row rest on fresh processes wherever it holds a finding: a
    /// session call of it that would carry a verdict, or that crashed, ran out of
    /// memory, was rejected or was killed from outside, is made again fresh, and so is the session call of the solver whose
    /// answer established the verdict (its reference, or the pool's decider). Each
    /// round turns one session call into a fresh one, so this ends. False if the run is
    /// being cancelled.
    fn settle(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
        loop {
            if !self.ask_judges(solver)? {
                return Ok(false);
            }
            let Some(assessment) = self.assess(solver) else {
                return Ok(true);
            };
            let in_session = |name: &str| {
                self.made
                    .get(name)
                    .is_some_and(|m| m.mode == CallMode::Session)
            };
            let status = self.made[&solver.name].class.status;
            // A rejection is confirmed too: a session that kept a declaration across a
            // reset rejects what a fresh process answers.
            let own = assessment.finding.is_some()
                || matches!(
                    status,
                    Status::Crash | Status::Memout | Status::Rejected | Status::Killed
                );
            let decider = match assessment.finding.and_then(|f| f.evidence) {
                Some(Evidence::Reference) => assessment.reference.map(|r| r.name.clone()),
                Some(Evidence::Pool) => assessment.pool.map(|d| d.solver.to_string()),
                _ => None,
            };
            let again = if own && in_session(&solver.name) {
                Some(solver.name.clone())
            } else {
                decider.filter(|d| in_session(d))
            };
            let Some(name) = again else {
                return Ok(true);
            };
            let config = self.worker.config_of(&name).clone();
            if !self.recheck(&config, Recheck::Confirmation)? {
                return Ok(false);
            }
        }
    }

    /// The audit: a share of this formula's remaining session calls (chosen by formula
    /// and solver, so the same calls are audited however the run is split) is made
    /// again fresh and compared; the rows keep the session calls. False if the run is
    /// being cancelled.
    fn audit(&mut self) -> anyhow::Result<bool> {
        let w = self.worker;
        if w.audit_percent <= 0.0 {
            return Ok(true);
        }
        let mut chosen: Vec<String> = self
            .made
            .iter()
            .filter(|(name, m)| {
                m.mode == CallMode::Session && audited(&self.job.index, name, w.audit_percent)
            })
            .map(|(name, _)| name.clone())
            .collect();
        chosen.sort();
        for name in chosen {
            let config = w.config_of(&name).clone();
            if !self.recheck(&config, Recheck::Audit)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Runs `solver` on the formula again in a fresh process and compares it with its
    /// session call: a confirmation replaces the session call (the row records the
    /// fresh one), an audit only counts. A difference beyond time is recorded. False if
    /// the run is being cancelled.
    fn recheck(&mut self, solver: &SolverConfig, why: Recheck) -> anyhow::Result<bool> {
        if !self.made.contains_key(&solver.name) {
            return Ok(true);
        }
        let w = self.worker;
        let invocation = Invocation::new(solver, &self.job.text, w.logic);
        let outcome = self.fresh_call(solver, &invocation)?;
        if outcome.cancelled || stopped_with_the_run(&outcome, &w.cancel) {
            return Ok(false);
        }
        self.call_seconds += outcome.wall.as_secs_f64();
        let fresh = Observation::new(invocation, outcome, || self.read());
        let session = &self.made[&solver.name];
        let agrees = session.agrees_with(&fresh);
        if !agrees {
            self.rechecks.disagreements.push(SessionDisagreement {
                grammar: w.grammar.to_string(),
                index: self.job.index.clone(),
                size: self.job.size,
                solver: solver.name.clone(),
                found_by: why.label().to_string(),
                session: session.describe(),
                fresh: fresh.describe(),
            });
        }
        match why {
            Recheck::Audit => {
                self.rechecks.audited += 1;
                self.rechecks.audit_agreed += u64::from(agrees);
            }
            Recheck::Confirmation => {
                self.rechecks.confirmed += 1;
                self.known.insert(solver.name.clone(), fresh.as_reference());
                self.made.insert(solver.name.clone(), fresh);
            }
        }
        Ok(true)
    }

    /// What every solver of the pool that answered on this formula decided, as
    /// candidates: the calls made here, and the answers known from earlier (a resumed
    /// formula's rows, cached references) without a time.
    fn decisions(&self) -> Vec<Decision<'_>> {
        let made = self.made.iter().map(|(name, m)| Decision {
            solver: name,
            answer: m.as_reference(),
            model_valid: matches!(m.model_check, Some(ModelCheck::Valid)),
            seconds: m.outcome.wall.as_secs_f64(),
        });
        let known = self
            .known
            .iter()
            .filter(|(name, _)| !self.made.contains_key(*name))
            .map(|(name, answer)| Decision {
                solver: name,
                answer: *answer,
                model_valid: false,
                seconds: f64::INFINITY,
            });
        made.chain(known).collect()
    }

    /// The fastest solver of the pool that decided the formula with an answer nothing
    /// contradicts ([`pool_decider`]), if any.
    fn pool_decider(&self) -> Option<Decision<'_>> {
        pool_decider(&self.decisions(), self)
    }

    /// Every solver's status and time on a formula that no solver decided and no
    /// witness proves sat; empty when someone decided it, or when no solver ran on it
    /// (calls that never started say nothing about the formula).
    fn undecided(&self) -> Vec<UndecidedRow> {
        let decisions = self.decisions();
        if decisions.iter().any(|d| d.answer.usable()) {
            return Vec::new();
        }
        let tried: Vec<&Decision> = decisions
            .iter()
            .filter(|d| d.answer.status.tells_about_solver())
            .collect();
        if tried.is_empty() || self.witness().is_some() {
            return Vec::new();
        }
        let job = self.job;
        let mut rows: Vec<UndecidedRow> = tried
            .iter()
            .map(|d| UndecidedRow {
                grammar: self.worker.grammar.to_string(),
                index: job.index.clone(),
                size: job.size,
                solver: d.solver.to_string(),
                status: d.answer.status.label().to_string(),
                time_s: d.seconds.is_finite().then_some(d.seconds),
            })
            .collect();
        rows.sort_by(|a, b| a.solver.cmp(&b.solver));
        rows
    }
}

/// The verdict on a call as things stand, and who could establish it.
struct Assessment<'s> {
    /// The call's reference: the first judge that decided, or the first judge.
    reference: Option<&'s SolverConfig>,
    /// The reference's answer.
    reference_answer: Option<Answer>,
    /// The fastest solver of the pool whose answer nothing contradicts (asked only for
    /// a timeout or unknown).
    pool: Option<Decision<'s>>,
    /// The oracle's verdict and evidence.
    finding: Option<Finding>,
}

/// Why a session call is made again fresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Recheck {
    /// It (or the decider of its verdict) holds a finding: the fresh call replaces it.
    Confirmation,
    /// The audit's sample: the fresh call is only compared.
    Audit,
}

impl Recheck {
    /// `confirmation` or `audit`, for `session-disagreements.csv`.
    fn label(self) -> &'static str {
        match self {
            Recheck::Confirmation => "confirmation",
            Recheck::Audit => "audit",
        }
    }
}

/// Whether the audit re-runs `solver`'s session call on formula `index`: a hash of
/// both below `percent` of its range, so the choice depends on nothing else.
fn audited(index: &str, solver: &str, percent: f64) -> bool {
    use std::hash::{Hash, Hasher};
    // FNV-1a: stable across runs and platforms, unlike the standard library's hasher.
    struct Fnv(u64);
    impl Hasher for Fnv {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    index.hash(&mut h);
    solver.hash(&mut h);
    ((h.finish() % 1_000_000) as f64) < percent * 10_000.0
}

impl Worker<'_> {
    /// The solver under test or judge called `name`.
    fn config_of(&self, name: &str) -> &SolverConfig {
        self.under_test
            .iter()
            .chain(self.references.values().flatten())
            .find(|s| s.name == name)
            .expect("only solvers of the run are called")
    }

    /// Runs `invocation` as a formula of `solver`'s session in this worker, starting
    /// the session if needed; `None` when calls are fresh, or the solver's family
    /// cannot run a session (it then runs fresh).
    fn in_session(
        &self,
        solver: &SolverConfig,
        invocation: &Invocation<'_>,
    ) -> anyhow::Result<Option<CallOutcome>> {
        if self.mode != CallMode::Session {
            return Ok(None);
        }
        let mut sessions = self.sessions.borrow_mut();
        let session = sessions.entry(solver.name.clone()).or_insert_with(|| {
            Session::for_solver(solver, &invocation.command)
                .map(|s| s.restart_after(self.restart_after))
        });
        let Some(session) = session else {
            return Ok(None);
        };
        let outcome = session
            .call(&invocation.script, self.limits)
            .with_context(|| {
                format!(
                    "cannot run solver {} in a session ({})",
                    solver.name,
                    session.command().join(" ")
                )
            })?;
        Ok(Some(outcome))
    }
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
