//! A crashed solver: no other answer is needed to call it a bug.

use super::facts::{CallFacts, Check, Finding};
use crate::oracle::{Status, Verdict};

/// `crash` for a call classified as a crash; it needs no evidence.
pub struct Crash;

impl Check for Crash {
    fn name(&self) -> &'static str {
        "crash"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        (call.status == Status::Crash).then_some(Finding {
            verdict: Verdict::Crash,
            evidence: None,
        })
    }
}
