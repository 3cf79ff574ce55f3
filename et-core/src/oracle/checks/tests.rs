use std::cell::Cell;

use et_eval::ModelCheck;

use super::*;
use crate::oracle::{Evidence, Status, Verdict};
use Status::*;

/// A witness fact that counts how often it was asked.
struct Counted(bool, Cell<u32>);

impl WitnessFact for Counted {
    fn exists(&self) -> bool {
        self.1.set(self.1.get() + 1);
        self.0
    }
}

fn facts<'a>(
    status: Status,
    model_check: Option<&'a ModelCheck>,
    reference: Option<Status>,
    witness: &'a dyn WitnessFact,
) -> CallFacts<'a> {
    CallFacts {
        status,
        self_check_failed: false,
        model_check,
        reference,
        pool_decided: false,
        witness,
        unknown_expected: false,
        alone: None,
    }
}

fn found(verdict: Verdict, evidence: Evidence) -> Option<Finding> {
    Some(Finding {
        verdict,
        evidence: Some(evidence),
    })
}

#[test]
fn an_invalid_model_is_found_by_the_model_check_first() {
    let invalid = ModelCheck::Invalid {
        explanation: "(> a b) where a = 0, b = 0".into(),
    };
    let mut call = facts(Sat, Some(&invalid), Some(Sat), &false);
    assert_eq!(
        run_checks(&call),
        found(Verdict::InvalidModel, Evidence::Model)
    );
    // The solver's own check agreeing changes nothing: et's evaluation is the evidence.
    call.self_check_failed = true;
    assert_eq!(
        run_checks(&call),
        found(Verdict::InvalidModel, Evidence::Model)
    );
}

#[test]
fn a_self_check_failure_on_a_valid_model_is_a_validator_false_alarm() {
    let mut call = facts(Sat, Some(&ModelCheck::Valid), Some(Sat), &false);
    call.self_check_failed = true;
    assert_eq!(
        run_checks(&call),
        found(Verdict::ValidatorFalseAlarm, Evidence::Model)
    );
    // Where et's evaluation decided nothing, the solver's word stands alone.
    let undetermined = ModelCheck::Undetermined {
        reason: "sin of a symbol".into(),
    };
    for model_check in [None, Some(&undetermined)] {
        call.model_check = model_check;
        assert_eq!(
            run_checks(&call),
            found(Verdict::InvalidModel, Evidence::SelfCheck)
        );
    }
}

#[test]
fn a_witness_convicts_unsat_without_any_reference() {
    assert_eq!(
        run_checks(&facts(Unsat, None, None, &true)),
        found(Verdict::Unsound, Evidence::Witness)
    );
    assert_eq!(
        run_checks(&facts(Unknown, None, None, &true)),
        found(Verdict::Unknown, Evidence::Witness)
    );
    // A witness outranks a reference that agrees with the wrong answer.
    assert_eq!(
        run_checks(&facts(Unsat, None, Some(Unsat), &true)),
        found(Verdict::Unsound, Evidence::Witness)
    );
    assert_eq!(run_checks(&facts(Unsat, None, None, &false)), None);
    assert_eq!(run_checks(&facts(Timeout, None, None, &true)), None);
    assert_eq!(run_checks(&facts(Sat, None, None, &true)), None);
}

#[test]
fn a_proven_sat_is_not_unsound_against_an_unsat_reference() {
    assert_eq!(
        run_checks(&facts(Sat, Some(&ModelCheck::Valid), Some(Unsat), &false)),
        None
    );
    assert_eq!(run_checks(&facts(Sat, None, Some(Unsat), &true)), None);
    let undetermined = ModelCheck::Undetermined {
        reason: "algebraic number".into(),
    };
    assert_eq!(
        run_checks(&facts(Sat, Some(&undetermined), Some(Unsat), &false)),
        found(Verdict::Unsound, Evidence::Reference)
    );
}

#[test]
fn the_witness_is_searched_only_when_a_check_needs_it() {
    let w = Counted(true, Cell::new(0));
    for status in [Sat, Timeout, Memout, Rejected, Crash, SetupError] {
        run_checks(&facts(status, None, None, &w));
    }
    run_checks(&facts(Sat, None, Some(Sat), &w));
    assert_eq!(w.1.get(), 0);
    run_checks(&facts(Unsat, None, None, &w));
    assert_eq!(w.1.get(), 1);
}

#[test]
fn the_pool_judges_performance_only_where_the_reference_did_not() {
    let mut call = facts(Timeout, None, Some(Unknown), &false);
    assert_eq!(run_checks(&call), None);
    call.pool_decided = true;
    assert_eq!(run_checks(&call), found(Verdict::Timeout, Evidence::Pool));
    call.status = Unknown;
    assert_eq!(run_checks(&call), found(Verdict::Unknown, Evidence::Pool));
    // A reference that decided is the evidence, the pool's decision is not needed.
    call.reference = Some(Sat);
    assert_eq!(
        run_checks(&call),
        found(Verdict::Unknown, Evidence::Reference)
    );
    // The pool never judges correctness.
    for status in [Sat, Unsat, Crash, Memout, Rejected] {
        let mut call = facts(status, None, None, &false);
        call.pool_decided = true;
        assert_ne!(
            run_checks(&call).and_then(|f| f.evidence),
            Some(Evidence::Pool)
        );
    }
}

#[test]
fn every_check_is_listed_once() {
    let mut names: Vec<&str> = CHECKS.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "model",
            "validator",
            "self-check",
            "crash",
            "incremental",
            "witness",
            "reference",
            "pool"
        ]
    );
    names.dedup();
    assert_eq!(names.len(), CHECKS.len());
}

#[test]
fn an_expected_unknown_is_no_finding_whoever_decided() {
    // A quantified formula no release of the family decided: the witness, a reference
    // of another family and the pool all decided it, and `unknown` is still no finding.
    let mut call = facts(Unknown, None, Some(Sat), &true);
    call.pool_decided = true;
    call.unknown_expected = true;
    assert_eq!(run_checks(&call), None);
    // A wrong answer is judged as ever.
    call.status = Unsat;
    assert_eq!(
        run_checks(&call),
        found(Verdict::Unsound, Evidence::Witness)
    );
}

#[test]
fn a_script_answer_its_fresh_self_contradicts_is_incremental() {
    let alone = |status, model_valid| {
        Some(Alone {
            status,
            model_valid,
        })
    };
    // The fresh model proves the assertions sat: the script's unsat is wrong.
    let mut call = facts(Unsat, None, Some(Sat), &false);
    call.alone = alone(Sat, true);
    assert_eq!(
        run_checks(&call),
        found(Verdict::Incremental, Evidence::Model)
    );
    // No valid model, but a witness: the unsat side is wrong.
    call.alone = alone(Sat, false);
    call.witness = &true;
    assert_eq!(
        run_checks(&call),
        found(Verdict::Incremental, Evidence::Witness)
    );
    // The script says sat, its fresh self unsat, and a witness backs the script.
    let mut call = facts(Sat, None, Some(Unsat), &true);
    call.alone = alone(Unsat, false);
    assert_eq!(
        run_checks(&call),
        found(Verdict::Incremental, Evidence::Witness)
    );
    // Nothing decides between them: the disagreement is the evidence.
    call.witness = &false;
    assert_eq!(
        run_checks(&call),
        found(Verdict::Incremental, Evidence::Reference)
    );
    // The same answer, or an undecided side: no incremental finding.
    let mut call = facts(Sat, None, Some(Sat), &false);
    call.alone = alone(Sat, true);
    assert_eq!(run_checks(&call), None);
    let mut call = facts(Unknown, None, None, &false);
    call.alone = alone(Sat, true);
    assert_ne!(
        run_checks(&call).map(|f| f.verdict),
        Some(Verdict::Incremental)
    );
    // Both wrong alike: the witness finds the release unsound, not incremental.
    let mut call = facts(Unsat, None, Some(Unsat), &true);
    call.alone = alone(Unsat, false);
    assert_eq!(
        run_checks(&call),
        found(Verdict::Unsound, Evidence::Witness)
    );
}
