//! What the oracle's checks read of a call ([`CallFacts`]) and what they establish
//! ([`Finding`]): the types every check and the list of checks share, apart from the
//! list, so that a check depends on these and the list on the checks, never round.

use et_eval::ModelCheck;

use crate::oracle::{Evidence, Status, Verdict};

/// What is known about one call when the checks run. Facts that cost work (the
/// witness search) are asked for only by the checks that need them.
pub struct CallFacts<'a> {
    /// The call's classified status.
    pub status: Status,
    /// The solver's own model check failed (the status is then `sat`).
    pub self_check_failed: bool,
    /// et's check of the model the solver printed, if it printed one that was checked
    /// (`sat` with models on).
    pub model_check: Option<&'a ModelCheck>,
    /// The status of the reference that judges this call, if it gave a usable answer
    /// (a clean sat/unsat); `None` without reference or when it decided nothing.
    pub reference: Option<Status>,
    /// Whether another solver of the pool (under test or judge) decided the formula
    /// with an answer nothing contradicts: a `sat` whose model et did not refute, an
    /// `unsat` that no witness and no valid model contradicts.
    pub pool_decided: bool,
    /// Whether et knows a satisfying assignment of the formula (searched on demand).
    pub witness: &'a dyn WitnessFact,
    /// An `unknown` is the theory's incompleteness, not a finding: the formula is
    /// quantified and no other release of the solver's family decided it (first-order
    /// logic with arithmetic has no complete procedure; another family deciding it
    /// says nothing about this one's design).
    pub unknown_expected: bool,
    /// For a script's answer at a check-sat: the same release's clean answer on that
    /// check-sat's assertions alone, in a fresh process; `None` for a formula's call.
    pub alone: Option<Alone>,
}

/// The same release's answer on a script's check-sat alone ([`CallFacts::alone`]): a
/// clean sat/unsat (one whose model et refuted is none), and whether et found its model
/// valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alone {
    /// `sat` or `unsat`.
    pub status: Status,
    /// et evaluated the model it printed and found it satisfies the assertions.
    pub model_valid: bool,
}

/// Whether the formula has a witness, found when first asked (the search costs up to a
/// few hundred microseconds, so only checks that need it ask).
pub trait WitnessFact {
    /// True when et found an assignment that satisfies the formula.
    fn exists(&self) -> bool;
}

/// A fact already known: `true` when a witness exists.
impl WitnessFact for bool {
    fn exists(&self) -> bool {
        *self
    }
}

/// What a check established about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finding {
    /// The verdict.
    pub verdict: Verdict,
    /// What established it (`None` for a crash: the failed process is the evidence).
    pub evidence: Option<Evidence>,
}

/// One check of the oracle.
pub trait Check: Sync {
    /// A short name, for documentation and tests.
    fn name(&self) -> &'static str;
    /// The verdict this check establishes on the call, if any.
    fn check(&self, call: &CallFacts) -> Option<Finding>;
}

/// Whether a `sat` answer is proven right: et evaluated the model the solver printed
/// and it satisfies the formula, or et found a witness of its own.
pub(super) fn sat_is_proven(call: &CallFacts) -> bool {
    matches!(call.model_check, Some(ModelCheck::Valid)) || call.witness.exists()
}
