//! Shrinking a performance finding (a timeout, or an `unknown` where the reference
//! decides) beyond the grammar. The formula a reported finding is about is rewritten
//! one step at a time ([`super::rewrite`]: drop an assertion, replace a term by an
//! argument of its sort), and a step is kept only while the finding still holds by
//! triage's own rule for performance findings ([`super::confirm`]): the solver times
//! out (or gives up with `unknown`: the same verdict as found) at the run's limits, and
//! again at the performance factor × them, while the reference (or et's witness)
//! decides the formula within the run's limits. That is the timing guard: every kept
//! step of a timeout is one of at least factor × the limit against a decision within
//! the limit. A step must also keep whether the solver is slow only while it checks
//! its answer.
//!
//! Timeouts found on different formulas often shrink to one: z3 timing out on
//! `(= (* a (sin b)) 1.0)` and on `(< (sin (+ a b)) 0.5)` is one slowness on `sin`.
//! [`super::group`] joins groups whose shrunk formulas coincide up to names and
//! constants, or compute the same thing on the same releases.
//!
//! *Must not:* keep a step that the confirmation rule does not back, or hand back a
//! formula whose confirmation it did not make (the report quotes it).

use std::collections::HashSet;

use et_eval::term::Term;
use et_eval::Script;

use crate::judging::Formula;
use crate::oracle::Status;
use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::calls::{CallSettings, Caller};
use super::confirm::{self, Confirmation, Outcome, Settings};
use super::rewrite::{self, used};
use super::signature::Signature;
use super::triggers::TriggerRow;

/// How many candidate formulas one shrink may try. A candidate the solver still
/// times out on costs the run's limit, then the factor × it; one it decides costs
/// what deciding took.
pub const MAX_CANDIDATES: usize = 120;

/// What shrinking a performance finding did.
#[derive(Debug, Clone, PartialEq)]
pub struct ShrunkPerformance {
    /// What every kept step showed: `timeout` or `unknown`.
    pub status: Status,
    /// The formula as found (the grammar's).
    pub original: String,
    /// Steps kept (0: no rewrite still showed the timeout).
    pub steps: usize,
    /// Candidates tried (each distinct formula once).
    pub tried: usize,
    /// The operators the shrunk formula applies: what its root cause is compared by.
    pub operators: Signature,
}

/// The shrunk formula and its confirmation (the last kept step's).
#[derive(Debug, Clone)]
pub struct Kept {
    /// The smallest formula found, on one line.
    pub text: String,
    /// Its confirmation: the solver's and the reference's answers on it.
    pub confirmation: Confirmation,
}

/// The finding a shrink keeps showing: its trigger (a `timeout` or an `unknown`), the
/// solver and reference that confirmed it, and how.
pub struct Undecided<'a> {
    /// The trigger (its verdict is what each step must show).
    pub trigger: &'a TriggerRow,
    /// The solver under test.
    pub solver: &'a SolverConfig,
    /// The reference that must decide each step within the run's limits.
    pub reference: Option<&'a SolverConfig>,
    /// The run's limits.
    pub limits: CallSettings<'a>,
    /// How triage confirms (the performance factor).
    pub settings: Settings,
    /// The run's witness bound (values per constant), if it searched witnesses.
    pub witness_values: Option<usize>,
    /// The finding's own confirmation: a step keeps whether the solver is slow only
    /// while it checks its answer.
    pub confirmed: &'a Confirmation,
}

/// Shrinks the timeout or `unknown` of `goal` on `formula`. The kept formula, when a step was
/// kept, comes with the confirmation of its last step.
pub fn shrink(
    caller: &Caller,
    formula: &str,
    goal: &Undecided<'_>,
) -> Result<(ShrunkPerformance, Option<Kept>), CallError> {
    let mut shrunk = ShrunkPerformance {
        status: goal.trigger.row().status,
        original: formula.to_string(),
        steps: 0,
        tried: 0,
        operators: Signature::of(formula),
    };
    let Ok(script) = Script::parse(formula) else {
        return Ok((shrunk, None));
    };
    let mut body = script.assertions.clone();
    let mut kept: Option<Kept> = None;
    let mut seen: HashSet<String> = HashSet::new();
    // A grammar declares every constant its formulas may use (`-5v2a` five of them);
    // the formula as found may use fewer. Declaring only those is a step like any
    // other, kept only while the finding holds; every rewrite below does it too.
    if used(&body).len() < script.decls.len() {
        let bare = text(&script, &body);
        seen.insert(bare.clone());
        shrunk.tried += 1;
        if let Some(confirmation) = goal.holds(caller, &bare)? {
            shrunk.steps += 1;
            kept = Some(Kept {
                text: bare,
                confirmation,
            });
        }
    }
    'improve: loop {
        for candidate in rewrite::one_step(&body, |_| Vec::new()) {
            let text = text(&script, &candidate);
            if !seen.insert(text.clone()) {
                continue;
            }
            if shrunk.tried >= MAX_CANDIDATES {
                break 'improve;
            }
            shrunk.tried += 1;
            if let Some(confirmation) = goal.holds(caller, &text)? {
                body = candidate;
                shrunk.steps += 1;
                kept = Some(Kept { text, confirmation });
                continue 'improve;
            }
        }
        break;
    }
    if let Some(k) = &kept {
        shrunk.operators = Signature::of(&k.text);
    }
    Ok((shrunk, kept))
}

impl Undecided<'_> {
    /// The confirmation of `text` when it shows the finding: first the solver alone
    /// at the run's limits (most rewrites make the formula easy, and this says so
    /// cheaply), then triage's confirmation of a performance finding.
    fn holds(&self, caller: &Caller, text: &str) -> Result<Option<Confirmation>, CallError> {
        if caller.fresh(self.solver, text, self.limits)?.status != self.trigger.row().status {
            return Ok(None);
        }
        let c = confirm::confirm(
            caller,
            self.trigger,
            &Formula::new(text, self.witness_values),
            self.solver,
            self.reference,
            self.limits,
            self.settings,
        )?;
        let same_nature = c.slow_only_with_checks() == self.confirmed.slow_only_with_checks();
        Ok((c.outcome == Outcome::Confirmed && same_nature).then_some(c))
    }
}

/// The formula of `body`: the constants it uses, its assertions, `(check-sat)`.
fn text(script: &Script, body: &[Term]) -> String {
    Script {
        decls: used(body)
            .into_iter()
            .map(|i| script.decls[i].clone())
            .collect(),
        assertions: body.to_vec(),
    }
    .text()
}
