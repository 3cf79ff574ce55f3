//! et's witness: an assignment of small values that satisfies the formula, so the
//! formula is sat by construction. `unsat` is then unsound, and `unknown` is the
//! `unknown` verdict (the solver is incomplete on a formula a bounded search decides),
//! both with evidence `witness`, with or without a reference. Timeouts are left to the
//! reference: how long a solver may take is the reference's and the limit's business.

use super::facts::{CallFacts, Check, Finding};
use crate::oracle::{Evidence, Status, Verdict};

/// `unsound` for `unsat`, `unknown` for `unknown`, on a formula with a witness.
pub struct WitnessCheck;

impl Check for WitnessCheck {
    fn name(&self) -> &'static str {
        "witness"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        let verdict = match call.status {
            Status::Unsat => Verdict::Unsound,
            Status::Unknown if !call.unknown_expected => Verdict::Unknown,
            _ => return None,
        };
        call.witness.exists().then_some(Finding {
            verdict,
            evidence: Some(Evidence::Witness),
        })
    }
}
