//! Session calls made again in fresh processes: every call with a finding (and its
//! verdict's decider) is confirmed fresh before the row is written — the row records
//! the fresh call —, and the audit re-runs a hashed share of the rest, only to count
//! how often a session answers like a fresh process. A difference beyond time goes to
//! `session-disagreements.csv`.

use crate::judging::{CallMode, Invocation};
use crate::oracle::{Evidence, Status};
use crate::solvers::SolverConfig;

use super::super::row::SessionDisagreement;
use super::batch::stopped_with_the_run;
use super::{FormulaCalls, Worker};

/// What re-running session calls in fresh processes found on one formula.
#[derive(Debug, Default)]
pub(in crate::campaign) struct SessionRechecks {
    /// Calls made in a session.
    pub session_calls: u64,
    /// Of those, the calls of judges that are not under test (a reference the pool's
    /// rules chose, which the user may not have named).
    pub judge_session_calls: u64,
    /// Session calls whose finding (or crash, memout) was re-run fresh.
    pub confirmed: u64,
    /// Session calls re-run fresh for the audit.
    pub audited: u64,
    /// Of those, the ones whose fresh answer was the same beyond time.
    pub audit_agreed: u64,
    /// Every re-run whose fresh answer differed from the session's beyond time.
    pub disagreements: Vec<SessionDisagreement>,
}

impl FormulaCalls<'_, '_> {
    /// Makes `solver`'s row rest on fresh processes wherever it holds a finding: a
    /// session call of it that would carry a verdict, or that crashed, ran out of
    /// memory, was rejected, was killed from outside or was starved, is made again
    /// fresh, and so is the session call of the solver whose answer established the
    /// verdict (its reference, or the pool's decider). Each
    /// round turns one session call into a fresh one, so this ends. False if the run is
    /// being cancelled.
    pub(super) fn settle(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
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
                    Status::Crash
                        | Status::Memout
                        | Status::Rejected
                        | Status::Killed
                        | Status::Starved
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
    pub(super) fn audit(&mut self) -> anyhow::Result<bool> {
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
        let fresh = self.fresh_call(solver, invocation)?;
        if fresh.outcome.cancelled || stopped_with_the_run(&fresh.outcome, &w.cancel) {
            return Ok(false);
        }
        self.call_seconds += fresh.outcome.wall.as_secs_f64();
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
}
