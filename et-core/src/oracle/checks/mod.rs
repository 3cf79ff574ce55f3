//! The oracle's checks, one module each, run in turn on every call of a solver under
//! test; the first that finds something gives the call its verdict and the evidence
//! behind it. A new kind of evidence is a new module here and one line in [`CHECKS`],
//! not an edit of the campaign's worker.
//!
//! The order of [`CHECKS`] is the order of trust: et's own evaluation of the model the
//! solver printed ([`model`]; [`validator`] when it clears a model the solver's own
//! check rejected) before the solver's own model check ([`self_check`]); a
//! crash ([`crash`]) needs no evidence; a script's answer its fresh self contradicts
//! ([`incremental`]) before a witness et found itself ([`witness`]) before
//! another solver's answer ([`reference`]); the pool's decisions ([`pool`]) last, for
//! performance verdicts only where the reference decided nothing.

mod crash;
mod facts;
mod incremental;
mod model;
mod pool;
mod reference;
mod self_check;
mod validator;
mod witness;

pub use facts::{Alone, CallFacts, Check, Finding, WitnessFact};

/// Every check, in the order they are asked (see the module documentation).
pub static CHECKS: &[&dyn Check] = &[
    &model::ModelCheck,
    &validator::ValidatorCheck,
    &self_check::SelfCheck,
    &crash::Crash,
    &incremental::IncrementalCheck,
    &witness::WitnessCheck,
    &reference::ReferenceCheck,
    &pool::PoolCheck,
];

/// The verdict of the first check that finds one, or `None` when the call is fine (or
/// nothing can judge it).
pub fn run_checks(call: &CallFacts) -> Option<Finding> {
    CHECKS.iter().find_map(|c| c.check(call))
}

#[cfg(test)]
mod tests;
