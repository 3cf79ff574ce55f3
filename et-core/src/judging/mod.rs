//! The one call-and-judge path: an [`Invocation`] (a solver, the script exactly as it
//! sees it, the command line that runs it) becomes an [`Observation`] (the call's facts,
//! their classification, et's check of the model the solver printed), which the
//! oracle's checks judge with the reference's answer and the formula's witness
//! ([`judge`]). `et run`, triage's confirmation, `et shrink` and `et bisect` all go
//! through it, so a re-run is judged exactly as the campaign judged it.
//!
//! The formula is the script minus what et added around it ([`formula_of`]): a family's
//! prelude and the model request. That is how any trigger file et writes (the script the
//! solver ran) is read back as a formula of its grammar.
//!
//! *Must not:* supervise processes itself (that is [`crate::solvers::call`]), parse
//! solver output (that is [`crate::oracle::classify`] and et-eval), or choose judges
//! (that is [`crate::solvers::reference_rules`]).

pub mod check;
mod formula;
mod invocation;
mod observation;
pub mod reference;
pub mod scripts;

pub use formula::{search_witness, Formula};
pub use invocation::{checked_by, formula_of, logic_of, Invocation, REASON_REQUEST};
pub use observation::{call, observe, observe_with, replayed, Observation, Place};

use et_eval::ModelCheck;

use crate::oracle::checks::{run_checks, Alone, CallFacts, Finding, WitnessFact};
use crate::oracle::Status;
use reference::Ruling;

/// How a call is made: a new process for the one formula (`fresh`), or one formula of
/// a long-lived solver process fed formula after formula (`session`,
/// [`crate::solvers::session`]). A session's findings are confirmed fresh: a fresh
/// call is how a user reproduces one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CallMode {
    /// One process per formula.
    #[default]
    Fresh,
    /// A formula of a solver session.
    Session,
}

impl CallMode {
    /// `fresh` or `session`: the CSV cell and the `--mode` value.
    pub fn label(self) -> &'static str {
        match self {
            CallMode::Fresh => "fresh",
            CallMode::Session => "session",
        }
    }
}

impl std::str::FromStr for CallMode {
    type Err = String;

    fn from_str(text: &str) -> Result<CallMode, String> {
        match text.trim() {
            "fresh" => Ok(CallMode::Fresh),
            "session" => Ok(CallMode::Session),
            other => Err(format!("`{other}` is not a mode (session, fresh)")),
        }
    }
}

/// What the oracle reads of the call under judgement: its status, whether the solver's
/// own model check failed, and et's check of the model it printed (`None` when no model
/// was read).
#[derive(Debug, Clone, Copy)]
pub struct Judged<'a> {
    /// The classified status.
    pub status: Status,
    /// The solver's own model check failed.
    pub self_check_failed: bool,
    /// et's check of the printed model, when one was read.
    pub model_check: Option<&'a ModelCheck>,
}

/// Who else decided the formula: the call's reference, and the rest of the pool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Deciders {
    /// The answer of the call's reference (the first judge that decided,
    /// [`reference::first_decided`]); only a usable answer (a clean
    /// sat/unsat) judges.
    pub reference: Option<Ruling>,
    /// Another solver of the pool (under test or judge) decided the formula with an
    /// answer nothing contradicts ([`pool_decider`]).
    pub pool: bool,
    /// The formula is quantified and no other release of the solver's family decided
    /// it: an `unknown` is no finding ([`unknown_expected`]).
    pub unknown_expected: bool,
    /// For a script's answer at a check-sat: the same release on that check-sat's
    /// assertions alone, in a fresh process ([`CallFacts::alone`]).
    pub alone: Option<Alone>,
    /// The call's configuration may give up or run long by design (a tactic): its
    /// `unknown`s and timeouts are no findings.
    pub by_design: bool,
}

impl From<Option<Ruling>> for Deciders {
    /// A reference's answer, and nothing known of the rest of the pool.
    fn from(reference: Option<Ruling>) -> Deciders {
        Deciders {
            reference,
            pool: false,
            unknown_expected: false,
            alone: None,
            by_design: false,
        }
    }
}

/// The verdict on a call and what established it, or `None` when the call is fine (or
/// nothing can judge it): the oracle's checks in order ([`crate::oracle::checks`]) with
/// what the `deciders` answered and the formula's `witness` (asked for only by the
/// checks that need it).
pub fn judge(call: Judged<'_>, deciders: Deciders, witness: &dyn WitnessFact) -> Option<Finding> {
    if deciders.by_design && matches!(call.status, Status::Unknown | Status::Timeout) {
        return None;
    }
    run_checks(&CallFacts {
        status: call.status,
        self_check_failed: call.self_check_failed,
        model_check: call.model_check,
        reference: deciders.reference.filter(|a| a.usable()).map(|a| a.status),
        pool_decided: deciders.pool,
        witness,
        unknown_expected: deciders.unknown_expected,
        alone: deciders.alone,
    })
}

/// Whether an `unknown` of a solver of `family` on `formula` is the theory's
/// incompleteness rather than a finding: the formula has a quantifier and no other
/// release of the family decided it (`family_decided`). Quantified arithmetic has no
/// complete procedure, and each family gives up where its design does; only a release
/// of the same family deciding the formula shows this one could have.
pub fn unknown_expected(formula: &str, family_decided: bool) -> bool {
    !family_decided && quantified(formula)
}

/// Whether `formula` has a quantifier: a `(forall` or `(exists` outside string
/// literals and quoted symbols.
pub fn quantified(formula: &str) -> bool {
    let bytes = formula.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            // A string literal ("" inside is an escaped quote) or a |quoted symbol|.
            b'"' | b'|' => {
                let close = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != close {
                    i += 1;
                }
            }
            b'(' => {
                let head = formula[i + 1..].trim_start();
                for binder in ["forall", "exists"] {
                    if let Some(rest) = head.strip_prefix(binder) {
                        if rest.starts_with(|c: char| c.is_whitespace() || c == '(') {
                            return true;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// One solver's decision of a formula, as a candidate decider of the pool.
#[derive(Debug, Clone, Copy)]
pub struct Decision<'a> {
    /// The solver's name.
    pub solver: &'a str,
    /// Its answer as a judge ([`as_reference`]).
    pub answer: Ruling,
    /// et found the model it printed valid.
    pub model_valid: bool,
    /// Seconds it took.
    pub seconds: f64,
}

/// The fastest solver of `decisions` that decided the formula with an answer nothing
/// contradicts: a `sat` whose model et did not refute (and its own check did not
/// reject, unless et found the model valid), or an `unsat` that no witness and no
/// model et found valid contradicts. The witness is asked for only when an `unsat` is
/// a candidate.
pub fn pool_decider<'a>(
    decisions: &[Decision<'a>],
    witness: &dyn WitnessFact,
) -> Option<Decision<'a>> {
    let sat_proven = || decisions.iter().any(|d| d.model_valid) || witness.exists();
    decisions
        .iter()
        .filter(|d| d.answer.usable())
        .filter(|d| d.answer.status == Status::Sat || !sat_proven())
        .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
        .copied()
}

/// A model check that read a model: what judging and the CSV take (`None` for "no model
/// in the output", which says nothing about the answer).
pub fn read_model(check: Option<&ModelCheck>) -> Option<&ModelCheck> {
    check.filter(|c| !matches!(c, ModelCheck::NoModel { .. }))
}

/// The answer of a call as a judge of others: a model that et found to falsify the
/// formula decided nothing, and a self-check failure on a model et found valid is a
/// false alarm that does not spoil a clean `sat`.
pub fn as_reference(
    status: Status,
    self_check_failed: bool,
    model_check: Option<&ModelCheck>,
) -> Ruling {
    Ruling {
        status,
        invalid_model: match model_check {
            Some(ModelCheck::Valid) => false,
            Some(ModelCheck::Invalid { .. }) => true,
            _ => self_check_failed,
        },
    }
}

#[cfg(test)]
mod tests;
