//! Judging a formula's calls: each solver's judges asked in order until one decides,
//! the oracle's verdict as things stand ([`judging::judge`] with the reference, the
//! pool's fastest uncontradicted decider and the witness), and the row of each call;
//! the formulas nobody decided.

use et_eval::ModelCheck;

use crate::judging::{self, pool_decider, Deciders, Decision};
use crate::oracle::checks::Finding;
use crate::oracle::Status;
use crate::solvers::SolverConfig;

use super::{FormulaCalls, Job, RunRow, UndecidedRow};
use crate::judging::reference::{first_decided, Reference, Ruling};

impl FormulaCalls<'_, '_> {
    /// The row of a solver under test, judged against its reference, saving a bug
    /// trigger if it is one ([`Self::save_triggers`]); `None` if it was not run or its
    /// reference is unknown.
    pub(super) fn judged_row(
        &self,
        solver: &SolverConfig,
        job: &Job,
    ) -> anyhow::Result<Option<RunRow>> {
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
        self.save_triggers(solver, m, verdict, evidence, reference, reference_status)?;
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
            check_sat: None,
        }))
    }

    /// The verdict on a solver under test as things stand, and who could establish it;
    /// `None` when a judge it needs has not answered (the run was interrupted).
    pub(super) fn assess<'s>(&'s self, solver: &SolverConfig) -> Option<Assessment<'s>> {
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
            unknown_expected: m.class.status == Status::Unknown
                && judging::unknown_expected(&self.text, self.family_decided(solver)),
            alone: None,
            by_design: solver
                .configuration
                .as_ref()
                .is_some_and(|c| c.tactic.is_some()),
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
    pub(super) fn ask_judges(&mut self, solver: &SolverConfig) -> anyhow::Result<bool> {
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

    /// Whether another release of `solver`'s family (under test or judge) decided the
    /// formula with a usable answer.
    fn family_decided(&self, solver: &SolverConfig) -> bool {
        let w = self.worker;
        let family_of = |name: &str| {
            w.under_test
                .iter()
                .chain(w.references.values().flatten())
                .find(|s| s.name == name)
                .map(|s| s.family.as_str())
        };
        self.decisions().iter().any(|d| {
            d.solver != solver.name
                && d.answer.usable()
                && family_of(d.solver) == Some(solver.family.as_str())
        })
    }

    /// The fastest solver of the pool that decided the formula with an answer nothing
    /// contradicts ([`pool_decider`]), if any.
    pub(super) fn pool_decider(&self) -> Option<Decision<'_>> {
        pool_decider(&self.decisions(), self)
    }

    /// Every solver's status and time on a formula that no solver decided and no
    /// witness proves sat; empty when someone decided it, or when no solver ran on it
    /// (calls that never started say nothing about the formula).
    pub(super) fn undecided(&self) -> Vec<UndecidedRow> {
        let decisions = self.decisions();
        if decisions.iter().any(|d| d.answer.usable()) {
            return Vec::new();
        }
        let tried: Vec<&Decision> = decisions
            .iter()
            .filter(|d| d.answer.status.tells_about_solver())
            .collect();
        if tried.is_empty() || rejected_by_everyone(&decisions) || self.witness().is_some() {
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

    /// When every solver that ran on the formula rejected it: the first of them (by
    /// name) and the first error line it printed. Such a formula is outside what the
    /// solvers take — a defect of the grammar (an operator no solver knows, an
    /// ill-sorted term), not an undecided formula or a finding of anyone.
    pub(super) fn rejected_by_all(&self) -> Option<String> {
        // Most formulas have an answer among the calls made here: nothing to gather.
        let answered = |m: &judging::Observation| {
            m.class.status.tells_about_solver() && m.class.status != Status::Rejected
        };
        if self.made.values().any(answered) || !rejected_by_everyone(&self.decisions()) {
            return None;
        }
        let (name, made) = self
            .made
            .iter()
            .filter(|(_, m)| m.class.status == Status::Rejected)
            .min_by(|a, b| a.0.cmp(b.0))?;
        let line = crate::oracle::first_error(&made.outcome)
            .unwrap_or_else(|| "no error line".to_string());
        Some(format!("{name}: {line}"))
    }
}

/// Whether every solver that ran on a formula (some did) rejected it.
fn rejected_by_everyone(decisions: &[Decision<'_>]) -> bool {
    let mut tried = decisions
        .iter()
        .filter(|d| d.answer.status.tells_about_solver())
        .peekable();
    tried.peek().is_some() && tried.all(|d| d.answer.status == Status::Rejected)
}

/// The verdict on a call as things stand, and who could establish it.
pub(super) struct Assessment<'s> {
    /// The call's reference: the first judge that decided, or the first judge.
    pub(super) reference: Option<&'s SolverConfig>,
    /// The reference's answer.
    pub(super) reference_answer: Option<Ruling>,
    /// The fastest solver of the pool whose answer nothing contradicts (asked only for
    /// a timeout or unknown).
    pub(super) pool: Option<Decision<'s>>,
    /// The oracle's verdict and evidence.
    pub(super) finding: Option<Finding>,
}
