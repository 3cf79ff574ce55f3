//! Differential judging (the published ET's oracle): the answer of the reference, the
//! first of the solver's judges that gave a clean sat/unsat (which judges a solver has
//! is the pool's business: [`crate::solvers::reference_rules`]).
//!
//! A `sat` that et proved right (its model satisfies the formula, or et has a witness)
//! is not unsound against an `unsat` reference: the reference is the one that is wrong.

use super::facts::{sat_is_proven, CallFacts, Check, Finding};
use crate::oracle::{Evidence, Status, Verdict};

/// `unsound` against a contradicting reference, `timeout`/`unknown` where it decided.
pub struct ReferenceCheck;

impl Check for ReferenceCheck {
    fn name(&self) -> &'static str {
        "reference"
    }

    fn check(&self, call: &CallFacts) -> Option<Finding> {
        let reference = call.reference.filter(|r| r.is_decided())?;
        let verdict = match call.status {
            Status::Sat if reference == Status::Unsat && !sat_is_proven(call) => Verdict::Unsound,
            Status::Unsat if reference == Status::Sat => Verdict::Unsound,
            Status::Timeout => Verdict::Timeout,
            Status::Unknown if !call.unknown_expected => Verdict::Unknown,
            _ => return None,
        };
        Some(Finding {
            verdict,
            evidence: Some(Evidence::Reference),
        })
    }
}
