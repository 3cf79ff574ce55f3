//! et's own model check: the model the solver printed, evaluated on the formula by
//! et-eval. A model that falsifies the formula is an invalid model whatever the
//! solver's own check said.

use et_eval::ModelCheck as Evaluated;

use super::facts::{CallFacts, Check, Finding};
use crate::oracle::{Evidence, Verdict};

/// `invalid_model` with evidence `model` when the printed model falsifies the formula.
pub struct ModelCheck;

impl Check for ModelCheck {
    fn name(&self) -> &'static str {
        "model"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        matches!(call.model_check, Some(Evaluated::Invalid { .. })).then_some(Finding {
            verdict: Verdict::InvalidModel,
            evidence: Some(Evidence::Model),
        })
    }
}
