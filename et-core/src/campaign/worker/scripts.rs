//! A batch of scripts (`crate::judging::scripts`): each solver under test runs each
//! script in a process of its own (a session resets between formulas, and a script's
//! scopes are its own), without models; then each check-sat it answered is run alone
//! by the same release, fresh and with models, and the script's answer there is judged
//! against it ([`crate::oracle::checks`]' incremental check, et's model check of the
//! fresh call, the witness of the check-sat's assertions). One row per script and
//! solver, about one check-sat ([`RunRow::check_sat`]).

use std::sync::atomic::Ordering;

use anyhow::Context;
use et_eval::ModelCheck;

use crate::judging::scripts::{check_sats, statuses_at_check_sats};
use crate::judging::{self, Deciders, Formula, Invocation, Judged, Observation};
use crate::oracle::checks::{Alone, Finding};
use crate::oracle::{self, Status};
use crate::solvers::SolverConfig;

use super::super::trigger_files::{CallRecord, CheckSatRecord, OwnChecks, Sample, Trigger};
use super::batch::stopped_with_the_run;
use super::{Finished, Job, RunRow, SessionRechecks, Worker};

/// One solver's calls on one script: the script's own call and, per check-sat it
/// reached, its status there and the fresh call of that check-sat alone.
struct ScriptCalls {
    script: Observation,
    statuses: Vec<Status>,
    alone: Vec<Option<Observation>>,
}

impl Worker<'_> {
    /// Runs and judges a batch of scripts; an interrupted call ends the work early, and
    /// the solvers a script could not judge get no row (they run again on resume).
    pub(super) fn scripts(&self, jobs: &[Job]) -> anyhow::Result<Vec<Finished>> {
        let mut finished = Vec::with_capacity(jobs.len());
        for job in jobs {
            let (done, cancelled) = self.script(job)?;
            finished.push(done);
            if cancelled {
                break;
            }
        }
        Ok(finished)
    }

    /// One script: every solver under test that has no row for it yet; whether the run
    /// was cancelled on the way.
    fn script(&self, job: &Job) -> anyhow::Result<(Finished, bool)> {
        let checks = check_sats(&job.text)
            .with_context(|| format!("formula {} of {}: {}", job.index, self.grammar, job.text))?;
        let views: Vec<Formula> = checks
            .iter()
            .map(|c| Formula::new(&c.alone, self.witness_values))
            .collect();
        let todo: Vec<&SolverConfig> = self
            .under_test
            .iter()
            .filter(|s| !job.done.contains_key(&s.name))
            .collect();
        let mut rows = Vec::new();
        let mut call_seconds = 0.0;
        let mut cancelled = false;
        for solver in &todo {
            let Some(calls) = self.script_calls(solver, job, &views, &mut call_seconds)? else {
                cancelled = true;
                break;
            };
            rows.push(self.script_row(solver, job, &views, &calls)?);
        }
        let rejected_by_all = (rows.len() == todo.len() && !rows.is_empty())
            .then(|| rejected_by_all(&rows))
            .flatten();
        Ok((
            Finished {
                complete: rows.len() == todo.len(),
                rows,
                references: Vec::new(),
                witness: None,
                index: job.index.clone(),
                call_seconds,
                undecided: Vec::new(),
                rejected_by_all,
                rechecks: SessionRechecks::default(),
            },
            cancelled,
        ))
    }

    /// `solver` on the script, then on each check-sat it reached alone; `None` when the
    /// run is being cancelled.
    fn script_calls(
        &self,
        solver: &SolverConfig,
        job: &Job,
        views: &[Formula],
        call_seconds: &mut f64,
    ) -> anyhow::Result<Option<ScriptCalls>> {
        let Some(script) = self.made(
            solver,
            Invocation::script(solver, &job.text, self.logic),
            "",
            || views[0].read(),
        )?
        else {
            return Ok(None);
        };
        *call_seconds += script.outcome.wall.as_secs_f64();
        let statuses = statuses_at_check_sats(&script.outcome, views.len());
        let mut alone = Vec::with_capacity(statuses.len());
        for (view, status) in views.iter().zip(&statuses) {
            // An answer, or where the script stopped for lack of time, is judged
            // against the check-sat alone; a crash or a refusal needs no judge.
            let judged = matches!(
                status,
                Status::Sat | Status::Unsat | Status::Unknown | Status::Timeout
            );
            if !judged {
                alone.push(None);
                continue;
            }
            let invocation = Invocation::new(solver, view.text(), self.logic);
            let Some(made) = self.made(solver, invocation, view.text(), || view.read())? else {
                return Ok(None);
            };
            *call_seconds += made.outcome.wall.as_secs_f64();
            alone.push(Some(made));
        }
        Ok(Some(ScriptCalls {
            script,
            statuses,
            alone,
        }))
    }

    /// A fresh call, `None` if the run is being cancelled.
    fn made<'s>(
        &self,
        solver: &SolverConfig,
        invocation: Invocation<'_>,
        bare: &str,
        formula: impl FnOnce() -> Result<&'s et_eval::Script, &'s et_eval::ScriptError>,
    ) -> anyhow::Result<Option<Observation>> {
        if self.cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let made = self.fresh_call(solver, invocation, bare, formula)?;
        if made.outcome.cancelled || stopped_with_the_run(&made.outcome, &self.cancel) {
            return Ok(None);
        }
        Ok(Some(made))
    }

    /// The row of `solver` on a script, about the first check-sat with a finding, else
    /// the first it did not decide, else the last; its bug trigger or rejection sample
    /// saved.
    fn script_row(
        &self,
        solver: &SolverConfig,
        job: &Job,
        views: &[Formula],
        calls: &ScriptCalls,
    ) -> anyhow::Result<RunRow> {
        let findings: Vec<Option<Finding>> = (0..calls.statuses.len())
            .map(|at| self.judge_check_sat(calls, at, &views[at]))
            .collect();
        let at = findings
            .iter()
            .position(Option::is_some)
            .or_else(|| calls.statuses.iter().position(|s| !s.is_decided()))
            .unwrap_or(calls.statuses.len() - 1);
        let finding = findings[at];
        let status = calls.statuses[at];
        let alone = calls.alone[at].as_ref();
        let verdict = finding.map(|f| f.verdict);
        let evidence = finding.and_then(|f| f.evidence);
        let (decided_by, decided_s) = match (verdict, alone) {
            (Some(v), Some(a)) if !v.is_bug() => {
                (solver.name.clone(), Some(a.outcome.wall.as_secs_f64()))
            }
            _ => (String::new(), None),
        };
        self.save_script_triggers(solver, job, calls, at, finding, &views[at])?;
        let m = &calls.script;
        Ok(RunRow {
            grammar: self.grammar.to_string(),
            index: job.index.clone(),
            size: job.size,
            solver: solver.name.clone(),
            family: solver.family.clone(),
            version: solver.version.clone(),
            status,
            verdict,
            reference: alone.map_or(String::new(), |_| solver.name.clone()),
            reference_status: alone.map(|a| a.class.status),
            time_s: m.outcome.wall.as_secs_f64(),
            cpu_s: m.outcome.cpu.as_secs_f64(),
            max_rss_kb: m.outcome.max_rss_kb,
            exit_code: m.outcome.exit_code,
            signal: m.outcome.signal,
            reference_usable: alone.map(|a| a.as_reference().usable()),
            evidence,
            // The script's call prints no model: et's check of the model the release
            // printed for the check-sat alone.
            model_check: alone
                .and_then(Observation::checked_model)
                .map_or(String::new(), |c| c.csv().to_string()),
            decided_by,
            decided_s,
            mode: Some(m.mode),
            check_sat: Some(u32::try_from(at + 1).unwrap_or(u32::MAX)),
        })
    }

    /// The verdict on the script's answer at check-sat `at` ([`judging::judge`]): the
    /// fresh call of the check-sat alone is its reference and its incremental check's
    /// other side. A timeout there is judged only when the fresh calls of the
    /// check-sats up to it took less than half the limit: the script's limit covers
    /// all of them.
    fn judge_check_sat(&self, calls: &ScriptCalls, at: usize, view: &Formula) -> Option<Finding> {
        let status = calls.statuses[at];
        let alone = calls.alone[at].as_ref();
        let ruling = alone.map(Observation::as_reference);
        let limit = self.limits.cpu_timeout.unwrap_or(self.limits.timeout);
        let took: f64 = calls.alone[..=at]
            .iter()
            .flatten()
            .map(|a| a.outcome.wall.as_secs_f64())
            .sum();
        let fair = status != Status::Timeout || took < limit.as_secs_f64() / 2.0;
        let deciders = Deciders {
            reference: ruling.filter(|_| fair),
            pool: false,
            unknown_expected: status == Status::Unknown
                && judging::unknown_expected(view.text(), ruling.is_some_and(|r| r.usable())),
            alone: alone
                .zip(ruling)
                .filter(|(_, r)| r.usable())
                .map(|(a, r)| Alone {
                    status: r.status,
                    model_valid: matches!(a.checked_model(), Some(ModelCheck::Valid)),
                }),
            by_design: false,
        };
        let call = Judged {
            status,
            self_check_failed: false,
            model_check: None,
        };
        judging::judge(call, deciders, view)
    }

    /// The bug trigger of a script's finding (the script as the solver ran it, the
    /// fresh call of the check-sat alone as its reference), or a sample of a rejection.
    fn save_script_triggers(
        &self,
        solver: &SolverConfig,
        job: &Job,
        calls: &ScriptCalls,
        at: usize,
        finding: Option<Finding>,
        view: &Formula,
    ) -> anyhow::Result<()> {
        let m = &calls.script;
        let ran = SolverConfig {
            command: m.command.clone(),
            ..solver.clone()
        };
        let status = calls.statuses[at];
        let call = CallRecord {
            solver: &ran,
            status: status.label(),
            outcome: Some(&m.outcome),
        };
        let script = m.script.trim_end();
        if let Some(f) = finding.filter(|f| f.verdict.is_bug()) {
            let alone = calls.alone[at].as_ref();
            let ran_alone = alone.map(|a| SolverConfig {
                command: a.command.clone(),
                ..solver.clone()
            });
            let trigger = Trigger {
                verdict: f.verdict,
                index: &job.index,
                formula: script,
                call,
                own: OwnChecks {
                    evidence: f.evidence,
                    model_check: alone.and_then(|a| a.checked_model()),
                    witness: view.witness(),
                },
                reference: ran_alone.as_ref().zip(alone).map(|(r, a)| CallRecord {
                    solver: r,
                    status: a.class.status.label(),
                    outcome: Some(&a.outcome),
                }),
                signature: m.class.crash_signature.as_deref(),
                check_sat: alone.map(|a| CheckSatRecord {
                    position: at + 1,
                    alone: &a.script,
                }),
            };
            self.store.save(&trigger).with_context(|| {
                format!(
                    "cannot save the bug trigger of {} on {}",
                    solver.name, job.index
                )
            })?;
        }
        if status == Status::Rejected {
            let error_line = oracle::error_line(&m.outcome);
            let sample = Sample {
                index: &job.index,
                formula: script,
                call,
                error_line: error_line.as_deref(),
            };
            self.store.save_sample(&sample).with_context(|| {
                format!(
                    "cannot save a sample of {}'s output on {}",
                    solver.name, job.index
                )
            })?;
        }
        Ok(())
    }
}

/// When every solver rejected the script: the first of them by name.
fn rejected_by_all(rows: &[RunRow]) -> Option<String> {
    rows.iter()
        .all(|r| r.status == Status::Rejected)
        .then(|| {
            let first = rows.iter().min_by(|a, b| a.solver.cmp(&b.solver))?;
            Some(format!("{}: rejected the script", first.solver))
        })
        .flatten()
}
