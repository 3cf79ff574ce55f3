//! A false alarm of the solver's own model validation (z3 `model_validate=true`,
//! cvc4/cvc5 `--check-models`): the solver rejected its model, and et's evaluation
//! finds that the model satisfies the formula. The answer is right; the solver's
//! checker is wrong, a different and much less severe finding than an invalid model.
//! Where et's evaluation did not decide the model, the self-check stands alone
//! ([`super::self_check`]).

use et_eval::ModelCheck as Evaluated;

use super::facts::{CallFacts, Check, Finding};
use crate::oracle::{Evidence, Verdict};

/// `validator_false_alarm` with evidence `model` when the solver's own check failed on a
/// model et found valid.
pub struct ValidatorCheck;

impl Check for ValidatorCheck {
    fn name(&self) -> &'static str {
        "validator"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        (call.self_check_failed && matches!(call.model_check, Some(Evaluated::Valid))).then_some(
            Finding {
                verdict: Verdict::ValidatorFalseAlarm,
                evidence: Some(Evidence::Model),
            },
        )
    }
}
