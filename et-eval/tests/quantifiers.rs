//! Quantifiers: exact verdicts over small finite domains, bounded search (a
//! counterexample or an instance proves, nothing else does) over infinite ones,
//! scoping of bound variables, the verdicts' notes, model checks and witnesses.
//!
//! The model fixtures are real outputs of z3 5.4.1 and cvc5 1.4.2 (`--produce-models`)
//! on the formulas named with them, pasted verbatim (after `(get-model)`).

use et_eval::{
    check_model, evaluate, find_witness, Assignment, Evaluation, Limits, ModelCheck, ModelDialect,
    QuantKind, QuantifierSearch, Script, Truth, Value, WitnessBound,
};
use num_bigint::BigInt;

fn eval(text: &str, values: Vec<Value>) -> Evaluation {
    let script = Script::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    evaluate(&script, &Assignment::of_values(values), &Limits::default())
}

fn int(n: i64) -> Value {
    Value::Int(BigInt::from(n))
}

fn undetermined(e: &Evaluation) -> &str {
    match &e.truth {
        Truth::Undetermined(why) => why,
        other => panic!("expected undetermined, got {other}"),
    }
}

#[test]
fn a_forall_over_bytes_is_decided_exactly() {
    let e = eval(
        "(assert (forall ((x (_ BitVec 8))) (bvult x #xff)))",
        vec![],
    );
    assert_eq!(e.truth, Truth::False);
    let [note] = e.quantifiers.as_slice() else {
        panic!("{:?}", e.quantifiers)
    };
    assert_eq!(note.kind, QuantKind::Forall);
    assert_eq!(
        note.search,
        QuantifierSearch::Exhaustive { assignments: 256 }
    );
    assert!(note.exact());
    assert_eq!(
        note.instance.as_ref().unwrap()[0].to_string(),
        "#xff",
        "the counterexample"
    );
    assert_eq!(
        note.to_string(),
        "forall x: (_ BitVec 8) false at x = #xff (decided over all 256 values)"
    );
    assert_eq!(
        e.explanation.unwrap(),
        "(forall ((x (_ BitVec 8))) (bvult x #xff)) where forall x: (_ BitVec 8) false at x = #xff (decided over all 256 values)"
    );

    let e = eval(
        "(assert (forall ((x (_ BitVec 8))) (bvule x #xff)))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True);
    assert_eq!(
        e.quantifiers[0].to_string(),
        "forall x: (_ BitVec 8) true (decided over all 256 values)"
    );
    assert!(e.quantifiers[0].exact());
}

#[test]
fn an_exists_over_two_nibbles_finds_its_instance() {
    let e = eval(
        "(assert (exists ((x (_ BitVec 4)) (y (_ BitVec 4))) (= (bvmul x y) #x6)))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True);
    let note = &e.quantifiers[0];
    assert_eq!(
        note.search,
        QuantifierSearch::Exhaustive { assignments: 256 }
    );
    let at = note.instance.as_ref().unwrap();
    let (x, y) = (at[0].to_string(), at[1].to_string());
    let n = |s: &str| u32::from_str_radix(&s[2..], 16).unwrap();
    assert_eq!(n(&x) * n(&y) % 16, 6, "{note}");
    // None: false, exactly.
    let e = eval(
        "(assert (exists ((x (_ BitVec 4)) (y (_ BitVec 4))) (= (bvmul x (bvmul y #x2)) #x3)))",
        vec![],
    );
    assert_eq!(e.truth, Truth::False);
    // Booleans and mixed finite sorts.
    assert_eq!(
        eval(
            "(assert (forall ((p Bool) (q Bool)) (= (and p q) (not (or (not p) (not q))))))",
            vec![]
        )
        .truth,
        Truth::True
    );
    assert_eq!(
        eval(
            "(assert (forall ((p Bool) (x (_ BitVec 3))) (=> p (bvule x #b110))))",
            vec![]
        )
        .truth,
        Truth::False
    );
}

#[test]
fn over_the_integers_only_a_counterexample_decides_a_forall() {
    let e = eval("(assert (forall ((x Int)) (> (* x x) 0)))", vec![]);
    assert_eq!(e.truth, Truth::False);
    let note = &e.quantifiers[0];
    assert_eq!(note.instance.as_ref().unwrap()[0].to_string(), "0");
    assert!(matches!(note.search, QuantifierSearch::Bounded { .. }));
    assert!(note.exact(), "a counterexample is a proof");
    assert!(
        e.explanation.as_deref().unwrap().contains("false at x = 0"),
        "{e:?}"
    );

    // True everywhere it looks, and still never true.
    let e = eval("(assert (forall ((x Int)) (>= (* x x) 0)))", vec![]);
    let why = undetermined(&e);
    assert!(
        why.contains("forall x: Int undetermined: no counterexample among")
            && why.contains("candidates (bounded search)"),
        "{why}"
    );
    assert!(!e.quantifiers[0].exact());
    // Reals too.
    let e = eval(
        "(assert (forall ((x Real)) (distinct (* 2.0 x) 1.0)))",
        vec![],
    );
    assert_eq!(e.truth, Truth::False, "x = 1/2 is a candidate");
    assert!(matches!(
        eval("(assert (forall ((x Real)) (>= (* x x) 0.0)))", vec![]).truth,
        Truth::Undetermined(_)
    ));
}

#[test]
fn an_exists_over_the_integers_is_true_on_an_instance_and_never_false() {
    let text = "(declare-const a Int)(assert (exists ((x Int)) (= (* 2 x) a)))";
    let e = eval(text, vec![int(7)]);
    let why = undetermined(&e);
    assert!(
        why.contains("exists x: Int undetermined: no instance among"),
        "{why}"
    );
    let e = eval(text, vec![int(6)]);
    assert_eq!(e.truth, Truth::True);
    assert_eq!(
        e.quantifiers[0].instance.as_ref().unwrap()[0].to_string(),
        "3"
    );
    // The model's values and their neighbours are candidates: a = 1000 gives 999.
    let e = eval(
        "(declare-const a Int)(assert (exists ((x Int)) (= (+ x 1) a)))",
        vec![int(1000)],
    );
    assert_eq!(e.truth, Truth::True);
    // The formula's constants too.
    let e = eval(
        "(assert (exists ((x Int)) (and (> x 40) (< x 42))))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True, "{e:?}");
    // Strings over the formula's characters.
    let e = eval(
        "(assert (exists ((s String)) (= (str.++ s s) \"xyxy\")))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True, "{e:?}");
    // Wide bit-vectors: corner values.
    let e = eval(
        "(assert (exists ((x (_ BitVec 64))) (bvslt x #x0000000000000000)))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True);
    assert!(matches!(
        e.quantifiers[0].search,
        QuantifierSearch::Bounded { .. }
    ));
    let e = eval(
        "(assert (forall ((x (_ BitVec 64))) (bvule x #xffffffffffffffff)))",
        vec![],
    );
    assert!(
        matches!(e.truth, Truth::Undetermined(_)),
        "64 bits are not enumerated"
    );
}

#[test]
fn nested_quantifiers_are_not_proved_by_bounded_search() {
    let e = eval(
        "(assert (forall ((a Int)) (exists ((b Int)) (= (* 2 b) a))))",
        vec![],
    );
    assert_ne!(e.truth, Truth::True);
    assert!(matches!(e.truth, Truth::Undetermined(_)), "{:?}", e.truth);
    // Finite nesting is exact: every byte has a successor, not every byte a half.
    let e = eval(
        "(assert (forall ((a (_ BitVec 8))) (exists ((b (_ BitVec 8))) (= (bvadd b #x01) a))))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True);
    let e = eval(
        "(assert (forall ((a (_ BitVec 8))) (exists ((b (_ BitVec 8))) (= (bvmul b #x02) a))))",
        vec![],
    );
    assert_eq!(e.truth, Truth::False);
    assert_eq!(
        e.quantifiers[0].instance.as_ref().unwrap()[0].to_string(),
        "#x01"
    );
    // An inner exists over Int that finds its instance for every candidate: still
    // undetermined (the outer domain is infinite).
    let e = eval(
        "(assert (forall ((a Int)) (exists ((b Int)) (= b a))))",
        vec![],
    );
    assert!(matches!(e.truth, Truth::Undetermined(_)));
    // An inner exists over Int that has no instance for some outer byte: undetermined,
    // never false.
    let e = eval(
        "(assert (exists ((a (_ BitVec 2))) (forall ((x Int)) (> x (bv2nat a)))))",
        vec![],
    );
    assert_eq!(e.truth, Truth::False, "each forall has a counterexample");
}

#[test]
fn bound_variables_hide_constants_of_the_same_name() {
    // Inside the forall x is the bound variable, outside the constant (= 5).
    let text = "(declare-const x Int)(assert (= x 5))(assert (forall ((x Bool)) (or x (not x))))";
    assert_eq!(eval(text, vec![int(5)]).truth, Truth::True);
    let text = "(declare-const x (_ BitVec 2))(assert (exists ((x (_ BitVec 2))) (= x #b11)))";
    assert_eq!(
        eval(text, vec![Value::bv(2, 0)]).truth,
        Truth::True,
        "the bound x, not the constant #b00"
    );
    // Shadowing between quantifiers.
    let text = "(assert (forall ((x (_ BitVec 2))) (exists ((x (_ BitVec 2))) (= x #b11))))";
    assert_eq!(eval(text, vec![]).truth, Truth::True);
    // let inside and around a quantifier.
    let text = "(declare-const a Int)(assert (let ((y (+ a 1))) (exists ((x Int)) (let ((z (* x 2))) (= z y)))))";
    assert_eq!(eval(text, vec![int(3)]).truth, Truth::True);
    // A term let-bound outside a quantifier and used inside a deeper one keeps its
    // meaning: y is the outer b, not the inner c.
    let text = "(assert (forall ((b (_ BitVec 2))) (let ((y b)) (exists ((c (_ BitVec 2))) (and (= c (bvnot y)) (distinct c y))))))";
    assert_eq!(eval(text, vec![]).truth, Truth::True);
    // Definitions with quantifiers inside, applied inside quantifiers: each binder
    // gets its own level.
    let text =
        "(define-fun even ((a (_ BitVec 4))) Bool (exists ((x (_ BitVec 4))) (= (bvmul #x2 x) a)))
        (assert (forall ((y (_ BitVec 4))) (= (even y) (= ((_ extract 0 0) y) #b0))))";
    assert_eq!(eval(text, vec![]).truth, Truth::True);
    let text = "(define-fun even ((a Int)) Bool (exists ((x Int)) (= (* 2 x) a)))
        (assert (even 6)) (assert (not (even 7)))";
    assert!(matches!(eval(text, vec![]).truth, Truth::Undetermined(_)));
    // Annotations inside quantifiers are stripped.
    let text = "(declare-fun f (Int) Int)(assert (forall ((x (_ BitVec 2))) (! (bvule x #b11) :pattern ((bvnot x)) :named ax)))";
    assert_eq!(eval(text, vec![]).truth, Truth::True);
    // Scripts print and read back.
    let script = Script::parse(
        "(declare-const a Int)(assert (forall ((x Int) (y (_ BitVec 4))) (exists ((z Bool)) (=> z (> x a)))))",
    )
    .unwrap();
    assert_eq!(
        script.text(),
        "(declare-const a Int) (assert (forall ((x Int) (y (_ BitVec 4))) (exists ((z Bool)) (=> z (> x a))))) (check-sat)"
    );
    assert_eq!(Script::parse(&script.text()).unwrap().text(), script.text());
}

#[test]
fn printing_never_lets_a_binder_capture_a_substituted_name() {
    // `let` substitutes the constant x under a binder of another x: the binder is
    // renamed when printed, so the text means what the term does.
    let script = Script::parse(
        "(declare-const x Int)(assert (let ((y x)) (forall ((x Int)) (> (* x x) y))))",
    )
    .unwrap();
    assert_eq!(
        script.assertions[0].to_string(),
        "(forall ((x!0 Int)) (> (* x!0 x!0) x))"
    );
    let again = Script::parse(&script.text()).unwrap();
    for value in [-1, 0] {
        let a = evaluate(
            &script,
            &Assignment::of_values(vec![int(value)]),
            &Limits::default(),
        );
        let b = evaluate(
            &again,
            &Assignment::of_values(vec![int(value)]),
            &Limits::default(),
        );
        assert_eq!(
            std::mem::discriminant(&a.truth),
            std::mem::discriminant(&b.truth),
            "x = {value}"
        );
    }
    // Likewise an outer bound variable under an inner binder of its name.
    let script = Script::parse(
        "(assert (forall ((x (_ BitVec 2))) (let ((y x)) (exists ((x (_ BitVec 2))) (distinct x y)))))",
    )
    .unwrap();
    assert_eq!(
        script.assertions[0].to_string(),
        "(forall ((x (_ BitVec 2))) (exists ((x!1 (_ BitVec 2))) (distinct x!1 x)))"
    );
    assert_eq!(eval(&script.text(), vec![]).truth, Truth::True);
    // Plain shadowing prints as written.
    let text = "(assert (forall ((x (_ BitVec 2))) (exists ((x (_ BitVec 2))) (= x #b11))))";
    assert_eq!(
        Script::parse(text).unwrap().assertions[0].to_string(),
        "(forall ((x (_ BitVec 2))) (exists ((x (_ BitVec 2))) (= x #b11)))"
    );
}

#[test]
fn malformed_quantifiers_are_errors() {
    for bad in [
        "(assert (forall () true))",
        "(assert (forall ((x Int)) x))",
        "(assert (forall ((x Int) (x Int)) true))",
        "(assert (forall ((x Frob)) true))",
        "(assert (exists ((x Int))))",
        "(assert (forall ((x RegLan)) true))",
        "(assert (and (forall ((x Int)) (> x 0)) (> x 0)))",
    ] {
        assert!(Script::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_instance_budget_keeps_nested_domains_bounded() {
    // 2^16 outer values times 2^16 inner ones: stopped, undetermined, with the reason.
    let e = eval(
        "(assert (forall ((a (_ BitVec 16))) (exists ((b (_ BitVec 16))) (= (bvadd a b) #x0000))))",
        vec![],
    );
    let why = undetermined(&e);
    assert!(why.contains("budget"), "{why}");
}

#[test]
fn division_by_zero_under_a_quantifier_stays_within_the_budget() {
    // Every instance has its own unspecified (div n 0): the cases of the search
    // multiply, the instances they evaluate are bounded all together.
    let start = std::time::Instant::now();
    let e = eval(
        "(assert (exists ((x (_ BitVec 10))) (and (> (div (bv2nat x) 0) 1) (< (div (bv2nat x) 0) 0))))",
        vec![],
    );
    assert_ne!(e.truth, Truth::True);
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    // Inside a quantifier an unspecified result is a fixed unknown, not searched
    // over: what depends on its value is undetermined ...
    let e = eval(
        "(assert (exists ((x (_ BitVec 2))) (and (= (div (bv2nat x) 0) 7) (= x #b11))))",
        vec![],
    );
    match &e.truth {
        Truth::Undetermined(why) => assert!(why.contains("inside a quantifier"), "{why}"),
        other => panic!("{other}"),
    }
    // ... what does not is decided, and one chosen outside is the same inside.
    let e = eval(
        "(assert (forall ((x (_ BitVec 2))) (or (= x #b00) (distinct (div (bv2nat x) 0) (+ (div (bv2nat x) 0) 1)))))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True);
    let e = eval(
        "(assert (= (div 3 0) 7)) (assert (exists ((x (_ BitVec 2))) (= (div (bv2nat x) 0) 7)))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True);
    assert_eq!(e.choices, ["(div 3 0) = 7"]);
    let e = eval(
        "(assert (forall ((x (_ BitVec 2))) (= (div (bv2nat x) 0) (div (bv2nat x) 0))))",
        vec![],
    );
    assert_eq!(e.truth, Truth::True);
}

/// `(declare-const c (_ BitVec 8)) (declare-const n Int) (assert (forall ((x (_ BitVec
/// 8))) (bvule (bvand x c) x))) (assert (> n 2)) (assert (exists ((k Int)) (= (* 2 k) n)))`.
const FORMULA: &str = "(declare-const c (_ BitVec 8)) (declare-const n Int)
(assert (forall ((x (_ BitVec 8))) (bvule (bvand x c) x)))
(assert (> n 2))
(assert (exists ((k Int)) (= (* 2 k) n)))";

/// z3 5.4.1 on [`FORMULA`] (with `(set-logic ALL)`).
const Z3: &str = "sat
(
  (define-fun c () (_ BitVec 8)
    #x00)
  (define-fun n () Int
    4)
)
";

/// cvc5 1.4.2 `--produce-models` on [`FORMULA`] (with `(set-logic ALL)`).
const CVC5: &str = "sat
(
(define-fun c () (_ BitVec 8) #b11111111)
(define-fun n () Int 4)
)
";

#[test]
fn real_models_of_a_quantified_formula_are_valid() {
    let script = Script::parse(FORMULA).unwrap();
    for (solver, model) in [("z3", Z3), ("cvc5", CVC5)] {
        assert_eq!(
            check_model(&script, model, ModelDialect::default()),
            ModelCheck::Valid,
            "{solver}"
        );
    }
    // n odd: the exists has no instance among the candidates, undetermined, never
    // invalid.
    let odd = Z3.replace("    4)", "    5)");
    match check_model(&script, &odd, ModelDialect::default()) {
        ModelCheck::Undetermined { reason } => {
            assert!(reason.contains("exists k: Int undetermined"), "{reason}")
        }
        other => panic!("{other}"),
    }
    // A formula a byte falsifies under the model is invalid, with the counterexample.
    let falsified = Script::parse(
        "(declare-const c (_ BitVec 8)) (declare-const n Int)
         (assert (forall ((x (_ BitVec 8))) (bvule x (bvor x c)))) (assert (forall ((x (_ BitVec 8))) (bvuge c x)))",
    )
    .unwrap();
    match check_model(&falsified, Z3, ModelDialect::default()) {
        ModelCheck::Invalid { explanation } => assert!(
            explanation
                .contains("forall x: (_ BitVec 8) false at x = #x01 (decided over all 256 values)"),
            "{explanation}"
        ),
        other => panic!("{other}"),
    }
}

#[test]
fn witnesses_need_an_exact_verdict() {
    // A free nibble under a forall over nibbles: c = #x0 makes it true, exactly.
    let script = Script::parse(
        "(declare-const c (_ BitVec 4)) (assert (forall ((x (_ BitVec 4))) (= (bvand x c) #x0)))",
    )
    .unwrap();
    let w = find_witness(&script, &WitnessBound::default()).expect("a witness");
    assert_eq!(w.values[0].to_string(), "#x0");
    assert_eq!(w.evaluation.truth, Truth::True);
    assert!(w.evaluation.quantifiers[0].exact());
    // A bounded forall over Int is never true: no witness, whatever a is.
    let script =
        Script::parse("(declare-const a Int) (assert (forall ((x Int)) (>= (* x x) a)))").unwrap();
    assert!(find_witness(&script, &WitnessBound::default()).is_none());
    // An exists over Int with an instance among the candidates is a proof.
    let script = Script::parse(
        "(declare-const a Int) (assert (> a 2)) (assert (exists ((x Int)) (= (* x x) a)))",
    )
    .unwrap();
    let w = find_witness(&script, &WitnessBound::default()).expect("a = 4, x = 2");
    assert_eq!(w.values[0].to_string(), "4");
}
