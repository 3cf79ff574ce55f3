//! The solver's own model validation (z3 `model_validate=true`, cvc4/cvc5
//! `--check-models`), where et's evaluation did not decide the model (undetermined,
//! unsupported, or no model read): the solver's word stands alone. A failure on a model
//! et found valid is a false alarm ([`super::validator`], asked first).

use super::facts::{CallFacts, Check, Finding};
use crate::oracle::{Evidence, Verdict};

/// `invalid_model` with evidence `self-check` when the solver's own check failed.
pub struct SelfCheck;

impl Check for SelfCheck {
    fn name(&self) -> &'static str {
        "self-check"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        call.self_check_failed.then_some(Finding {
            verdict: Verdict::InvalidModel,
            evidence: Some(Evidence::SelfCheck),
        })
    }
}
