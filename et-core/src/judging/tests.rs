use et_eval::ModelCheck;

use super::*;
use crate::oracle::{Evidence, Verdict};
use Status::*;

fn call(status: Status) -> Judged<'static> {
    Judged {
        status,
        self_check_failed: false,
        model_check: None,
    }
}

fn decided(status: Status) -> Option<Ruling> {
    Some(Ruling {
        status,
        invalid_model: false,
    })
}

fn verdict(call: Judged<'_>, reference: Option<Ruling>, witness: bool) -> Option<Verdict> {
    judge(call, reference.into(), &witness).map(|f| f.verdict)
}

#[test]
fn judging_against_the_reference() {
    assert_eq!(
        verdict(call(Sat), decided(Unsat), false),
        Some(Verdict::Unsound)
    );
    assert_eq!(
        verdict(call(Unsat), decided(Sat), false),
        Some(Verdict::Unsound)
    );
    assert_eq!(verdict(call(Sat), decided(Sat), false), None);
    assert_eq!(verdict(call(Sat), decided(Unknown), false), None);
    assert_eq!(verdict(call(Sat), decided(Timeout), false), None);
    assert_eq!(verdict(call(Sat), None, false), None);
    assert_eq!(verdict(call(Crash), None, false), Some(Verdict::Crash));
    assert_eq!(
        verdict(call(Timeout), decided(Unsat), false),
        Some(Verdict::Timeout)
    );
    assert_eq!(verdict(call(Timeout), decided(Unknown), false), None);
    assert_eq!(
        verdict(call(Unknown), decided(Sat), false),
        Some(Verdict::Unknown)
    );
    assert_eq!(verdict(call(Unknown), None, false), None);
    assert_eq!(verdict(call(Memout), decided(Sat), false), None);
    assert_eq!(verdict(call(Rejected), decided(Sat), false), None);
}

#[test]
fn a_reference_whose_model_is_wrong_decides_nothing() {
    let broken = Some(Ruling {
        status: Sat,
        invalid_model: true,
    });
    assert_eq!(verdict(call(Unsat), broken, false), None);
    assert_eq!(verdict(call(Timeout), broken, false), None);
}

#[test]
fn self_check_and_model_check_give_invalid_model() {
    let failed = Judged {
        self_check_failed: true,
        ..call(Sat)
    };
    for reference in [decided(Sat), decided(Unsat), None] {
        assert_eq!(
            verdict(failed, reference, false),
            Some(Verdict::InvalidModel)
        );
    }
    let invalid = ModelCheck::Invalid {
        explanation: "(> a 0) where a = 0".into(),
    };
    let falsified = Judged {
        model_check: Some(&invalid),
        ..call(Sat)
    };
    let finding = judge(falsified, None.into(), &false).unwrap();
    assert_eq!(
        (finding.verdict, finding.evidence),
        (Verdict::InvalidModel, Some(Evidence::Model))
    );
}

#[test]
fn a_witness_judges_without_a_reference() {
    let finding = judge(call(Unsat), None.into(), &true).unwrap();
    assert_eq!(
        (finding.verdict, finding.evidence),
        (Verdict::Unsound, Some(Evidence::Witness))
    );
    assert_eq!(verdict(call(Unsat), None, false), None);
}

#[test]
fn a_judge_is_usable_by_the_campaigns_rule() {
    let valid = ModelCheck::Valid;
    let invalid = ModelCheck::Invalid {
        explanation: String::new(),
    };
    // A self-check false alarm on a model et found valid does not spoil the answer.
    assert!(as_reference(Sat, true, Some(&valid)).usable());
    assert!(!as_reference(Sat, false, Some(&invalid)).usable());
    assert!(!as_reference(Sat, true, None).usable());
    assert!(as_reference(Unsat, false, None).usable());
    assert!(!as_reference(Unknown, false, None).usable());
}

#[test]
fn the_pool_decider_is_the_fastest_answer_nothing_contradicts() {
    let decision = |solver, status, model_valid, seconds| Decision {
        solver,
        answer: Ruling {
            status,
            invalid_model: false,
        },
        model_valid,
        seconds,
    };
    let sat = decision("slow-sat", Sat, false, 2.0);
    let unsat = decision("fast-unsat", Unsat, false, 0.5);
    let undecided = decision("unknown", Unknown, false, 0.1);
    assert_eq!(
        name_of(pool_decider(&[sat, unsat, undecided], &false)),
        Some("fast-unsat")
    );
    // A witness, or a model et found valid, contradicts the unsat: the sat decides.
    assert_eq!(
        name_of(pool_decider(&[sat, unsat], &true)),
        Some("slow-sat")
    );
    let proven = decision("proven", Sat, true, 3.0);
    assert_eq!(
        name_of(pool_decider(&[unsat, proven], &false)),
        Some("proven")
    );
    // A sat whose model is wrong decided nothing.
    let broken = Decision {
        answer: Ruling {
            status: Sat,
            invalid_model: true,
        },
        ..sat
    };
    assert_eq!(name_of(pool_decider(&[broken, undecided], &false)), None);
}

fn name_of<'a>(d: Option<Decision<'a>>) -> Option<&'a str> {
    d.map(|d| d.solver)
}

#[test]
fn quantified_formulas_are_told_by_their_binders() {
    assert!(quantified("(assert (forall ((x Int)) (> x a)))"));
    assert!(quantified("(assert (and p ( exists((x Int)) (> x a))))"));
    // Names that only start like a binder, and binders inside literals, are not.
    assert!(!quantified(
        "(declare-const forallx Int) (assert (forallx_p a))"
    ));
    assert!(!quantified("(assert (= a \"(forall \"))"));
    assert!(!quantified("(assert (= |(exists (| a))"));
    assert!(unknown_expected("(assert (exists ((x Int)) (p x)))", false));
    assert!(!unknown_expected("(assert (exists ((x Int)) (p x)))", true));
    assert!(!unknown_expected("(assert (p a))", false));
}
