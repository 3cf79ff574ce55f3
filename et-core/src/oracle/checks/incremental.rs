//! A script's answer at a check-sat against the same release's answer on that
//! check-sat's assertions alone, in a fresh process: the oracle that needs no second
//! solver. Where they disagree (one `sat`, the other `unsat`) one of them is wrong;
//! et's evaluation says which where it can: the fresh call's model, found valid, or a
//! witness prove the assertions satisfiable, so the `unsat` side is wrong (evidence
//! `model`, `witness`); otherwise the disagreement itself is the evidence
//! (`reference`: the reference is the release itself).

use super::facts::{CallFacts, Check, Finding};
use crate::oracle::{Evidence, Status, Verdict};

/// `incremental` when a script's decided answer contradicts its fresh self.
pub struct IncrementalCheck;

impl Check for IncrementalCheck {
    fn name(&self) -> &'static str {
        "incremental"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        let alone = call.alone?;
        if !call.status.is_decided() || !alone.status.is_decided() || alone.status == call.status {
            return None;
        }
        let evidence = if alone.status == Status::Sat && alone.model_valid {
            Evidence::Model
        } else if call.witness.exists() {
            Evidence::Witness
        } else {
            Evidence::Reference
        };
        Some(Finding {
            verdict: Verdict::Incremental,
            evidence: Some(evidence),
        })
    }
}
