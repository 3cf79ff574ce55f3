//! The solver's own model validation (z3 `model_validate=true`, cvc4/cvc5
//! `--check-models`). Its failure is reported even when et's model check finds the
//! model valid: the row then says `model_check=valid` next to evidence `self-check`,
//! which marks a false alarm of the self-check (old z3 releases raise them).

use super::{CallFacts, Check, Finding};
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
