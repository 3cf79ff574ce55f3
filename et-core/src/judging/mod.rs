//! The one call-and-judge path: an [`Invocation`] (a solver, the script exactly as it
//! sees it, the command line that runs it) becomes an [`Observation`] (the call's facts,
//! their classification, et's check of the model the solver printed), which the
//! oracle's checks judge with the reference's answer and the formula's witness
//! ([`judge`]). `et run`, triage's confirmation, `et shrink` and `et bisect` all go
//! through it, so a re-run is judged exactly as the campaign judged it.
//!
//! The formula is the script minus what et added around it ([`formula_of`]): a family's
//! prelude and the model request. That is how any trigger file et writes (the script the
//! solver ran) is read back as a formula of its grammar.
//!
//! *Must not:* supervise processes itself (that is [`crate::solvers::call`]), parse
//! solver output (that is [`crate::oracle::classify`] and et-eval), or choose judges
//! (that is [`crate::solvers::reference_rules`]).

mod formula;
mod invocation;
mod observation;

pub use formula::{search_witness, Formula};
pub use invocation::{formula_of, logic_of, Invocation};
pub use observation::{observe, without_error_lines, Observation};

use et_eval::ModelCheck;

use crate::campaign::reference::Answer;
use crate::oracle::checks::{run_checks, CallFacts, Finding, WitnessFact};
use crate::oracle::Status;

/// What the oracle reads of the call under judgement: its status, whether the solver's
/// own model check failed, and et's check of the model it printed (`None` when no model
/// was read).
#[derive(Debug, Clone, Copy)]
pub struct Judged<'a> {
    /// The classified status.
    pub status: Status,
    /// The solver's own model check failed.
    pub self_check_failed: bool,
    /// et's check of the printed model, when one was read.
    pub model_check: Option<&'a ModelCheck>,
}

/// The verdict on a call and what established it, or `None` when the call is fine (or
/// nothing can judge it). `reference` is the answer of the call's reference (the first
/// judge that decided, [`crate::campaign::reference::first_decided`]); only a usable
/// answer (a clean sat/unsat) judges. `witness` is asked only by the checks that need
/// it.
pub fn judge(
    call: Judged<'_>,
    reference: Option<Answer>,
    witness: &dyn WitnessFact,
) -> Option<Finding> {
    run_checks(&CallFacts {
        status: call.status,
        self_check_failed: call.self_check_failed,
        model_check: call.model_check,
        reference: reference.filter(|a| a.usable()).map(|a| a.status),
        witness,
    })
}

/// A model check that read a model: what judging and the CSV take (`None` for "no model
/// in the output", which says nothing about the answer).
pub fn read_model(check: Option<&ModelCheck>) -> Option<&ModelCheck> {
    check.filter(|c| !matches!(c, ModelCheck::NoModel { .. }))
}

/// The answer of a call as a judge of others: a model that et found to falsify the
/// formula decided nothing, and a self-check failure on a model et found valid is a
/// false alarm that does not spoil a clean `sat`.
pub fn as_reference(
    status: Status,
    self_check_failed: bool,
    model_check: Option<&ModelCheck>,
) -> Answer {
    Answer {
        status,
        invalid_model: match model_check {
            Some(ModelCheck::Valid) => false,
            Some(ModelCheck::Invalid { .. }) => true,
            _ => self_check_failed,
        },
    }
}

#[cfg(test)]
mod tests;
