//! What a call leaves for triage: the bug trigger of a bug verdict (et's evidence,
//! model check and witness in its log, the reference's call beside it) and a sample of
//! each rejection, saved through the run's [`BugStore`](super::super::trigger_files::BugStore).

use anyhow::Context;

use crate::judging::Observation;
use crate::oracle::{self, Evidence, Status, Verdict};
use crate::solvers::SolverConfig;

use super::super::trigger_files::{CallRecord, OwnChecks, Sample, Trigger};
use super::FormulaCalls;

impl FormulaCalls<'_, '_> {
    /// Saves what `solver`'s call `m` leaves behind for triage: its bug trigger on a
    /// bug verdict (with et's evidence, model check and witness, and its reference's
    /// call), a sample of its output when it was rejected.
    pub(super) fn save_triggers(
        &self,
        solver: &SolverConfig,
        m: &Observation,
        verdict: Option<Verdict>,
        evidence: Option<Evidence>,
        reference: Option<&SolverConfig>,
        reference_status: Option<Status>,
    ) -> anyhow::Result<()> {
        let w = self.worker;
        // The script this solver ran, prelude and model request included: what a
        // trigger or sample holds, and the command that ran it.
        let script = m.script.trim_end();
        let ran = SolverConfig {
            command: m.command.clone(),
            ..solver.clone()
        };
        let call = CallRecord {
            solver: &ran,
            status: m.class.status.label(),
            outcome: Some(&m.outcome),
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
                index: &self.job.index,
                formula: script,
                call,
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
                check_sat: None,
            };
            w.store.save(&trigger).with_context(|| {
                format!(
                    "cannot save the bug trigger of {} on {}",
                    solver.name, self.job.index
                )
            })?;
        }
        if m.class.status == Status::Rejected {
            let error_line = oracle::error_line(&m.outcome);
            let sample = Sample {
                index: &self.job.index,
                formula: script,
                call,
                error_line: error_line.as_deref(),
            };
            w.store.save_sample(&sample).with_context(|| {
                format!(
                    "cannot save a sample of {}'s output on {}",
                    solver.name, self.job.index
                )
            })?;
        }
        Ok(())
    }
}
