use super::*;
use crate::eval::{evaluate, Limits, Truth};

fn value_of(output: &str, name: &str) -> Binding {
    parse_model(output, ModelDialect::default())
        .unwrap()
        .values
        .remove(name)
        .unwrap()
}

fn shown(output: &str, name: &str) -> String {
    match value_of(output, name) {
        Binding::Value(v) => v.to_string(),
        Binding::Term(t) => format!("term: {t}"),
        Binding::Algebraic(a) => format!("algebraic: {a:?}"),
        Binding::Undetermined(why) => format!("undetermined: {why}"),
    }
}

#[test]
fn reads_numbers_in_every_spelling() {
    let m = "sat\n(model (define-fun a () Int (- 2)) (define-fun b () Real (/ (- 77) 24)) (define-fun c () Real (- (/ 7.0 2.0))) (define-fun d () Real 2) (define-fun e () Real 0.25))";
    assert_eq!(shown(m, "a"), "(- 2)");
    assert_eq!(shown(m, "b"), "(- (/ 77.0 24.0))");
    assert_eq!(shown(m, "c"), "(- (/ 7.0 2.0))");
    assert_eq!(shown(m, "d"), "2.0");
    assert_eq!(shown(m, "e"), "(/ 1.0 4.0)");
}

#[test]
fn reads_bit_vectors_fp_and_strings() {
    let m = "((define-fun a () (_ BitVec 64) (_ bv5 64)) (define-fun b () (_ BitVec 8) #b00000101) (define-fun c () (_ FloatingPoint 11 53) (fp #b1 #b00000000000 #x0000000000001)) (define-fun d () (_ FloatingPoint 11 53) (_ NaN 11 53)) (define-fun e () String \"\\u{e9}\"\"x\"))";
    assert_eq!(shown(m, "a"), "#x0000000000000005");
    assert_eq!(shown(m, "b"), "#x05");
    assert_eq!(
        shown(m, "c"),
        "(fp #b1 #b00000000000 #b0000000000000000000000000000000000000000000000000001)"
    );
    assert_eq!(shown(m, "d"), "(_ NaN 11 53)");
    match value_of(m, "e") {
        Binding::Value(Value::Str(s)) => {
            assert_eq!(s.code_points(), &[0xe9, '"' as u32, 'x' as u32])
        }
        other => panic!("{other:?}"),
    }
    let legacy = ModelDialect {
        strings: Dialect::Z3Legacy,
        ..ModelDialect::default()
    };
    let m = parse_model("(model (define-fun a () String \"\\x41\\\\\"))", legacy).unwrap();
    match &m.values["a"] {
        Binding::Value(Value::Str(s)) => assert_eq!(s.code_points(), &['A' as u32, '\\' as u32]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn reads_arrays_in_every_form() {
    let sort = "(Array (_ BitVec 4) (_ BitVec 4))";
    let expected = "(store ((as const (Array (_ BitVec 4) (_ BitVec 4))) #x0) #x1 #x7)";
    let forms = [
        format!("((define-fun a () {sort} (store ((as const {sort}) #x0) #x1 #x7)))"),
        format!("((define-fun a () {sort} (_ as-array k!0)) (define-fun k!0 ((x!0 (_ BitVec 4))) (_ BitVec 4) (ite (= x!0 #x1) #x7 #x0)))"),
        format!("((define-fun a () {sort} (lambda ((x!1 (_ BitVec 4))) (ite (= #x1 x!1) #x7 #x0))))"),
        "(model (define-fun a ((x!0 (_ BitVec 4))) (_ BitVec 4) (ite (= x!0 #x1) #x7 #x0)))".to_string(),
        format!("sat\n(= a @fun_6)\n(function @fun_6\n (type {sort})\n (= (@fun_6 #b0001) #b0111)\n (default #b0000))"),
    ];
    for f in forms {
        assert_eq!(shown(&f, "a"), expected, "{f}");
    }
}

#[test]
fn algebraic_numbers_are_read_and_rounded_decimals_are_undetermined() {
    let z3 = "((define-fun b () Real (root-obj (+ (^ x 2) (- 2)) 1)))";
    assert!(shown(z3, "b").starts_with("algebraic"));
    let cvc5 = "((define-fun b () Real (_ real_algebraic_number <1*x^2 + -2, (-3/2, -1)>)))";
    assert!(shown(cvc5, "b").starts_with("algebraic"));
    let cvc4 = "(model (define-fun b () Real (witness ((B Real)) (>= B 1.0))))";
    assert!(shown(cvc4, "b").contains("witness"));
    let yices = parse_model(
        "sat\n(= b -1.414214)\n(= c (/ 1 3))",
        ModelDialect {
            approximate_decimals: true,
            ..ModelDialect::default()
        },
    )
    .unwrap();
    assert!(matches!(&yices.values["b"], Binding::Undetermined(w) if w.contains("decimal")));
    assert!(matches!(&yices.values["c"], Binding::Value(Value::Real(_))));
}

#[test]
fn division_by_zero_functions_judge_the_formula() {
    let script = Script::parse(
        "(declare-const a Int)(declare-const b Int)(assert (and (= (div a 0) 3) (= (mod b 0) 2)))",
    )
    .unwrap();
    let good = "(\n(define-fun b () Int (- 2))\n(define-fun a () Int 3)\n(define-fun div0 ((x!0 Int) (x!1 Int)) Int 3)\n(define-fun mod0 ((x!0 Int) (x!1 Int)) Int (ite (and (= x!0 (- 2)) (= x!1 0)) 2 0)))";
    let model = parse_model(good, ModelDialect::default()).unwrap();
    assert_eq!(
        evaluate(&script, &model.assignment(&script), &Limits::default()).truth,
        Truth::True
    );
    let bad = good.replace("(= x!0 (- 2))", "(= x!0 (- 3))");
    let model = parse_model(&bad, ModelDialect::default()).unwrap();
    let e = evaluate(&script, &model.assignment(&script), &Limits::default());
    assert_eq!(e.truth, Truth::False);
    assert_eq!(
        e.explanation.as_deref(),
        Some("(= (mod b 0) 2) where (mod b 0) = 0")
    );
}

#[test]
fn malformed_output_is_an_error() {
    for text in [
        "",
        "unsat",
        "(error \"boom\")",
        "(model (define-fun a))",
        "((define-fun a () Int (+ 1)))",
        "((define-fun a () Foo 1))",
        "((frob))",
        "((define-fun a () Int",
        "sat ((define-fun a () Int \"x\"))",
    ] {
        assert!(
            parse_model(text, ModelDialect::default()).is_err(),
            "{text}"
        );
    }
}

#[test]
fn a_value_that_is_a_division_by_zero_is_the_formulas_own() {
    // cvc5 1.4.2 answers (= a (div 0 0)) with a = (div 0 0).
    let script =
        Script::parse("(declare-const a Int)(declare-const b Int)(assert (= a (div 0 b)))")
            .unwrap();
    let model = parse_model(
        "sat\n(\n(define-fun a () Int (div 0 0))\n(define-fun b () Int 0)\n)",
        ModelDialect::default(),
    )
    .unwrap();
    assert_eq!(
        evaluate(&script, &model.assignment(&script), &Limits::default()).truth,
        Truth::True
    );
    let script =
        Script::parse("(declare-const a Int)(declare-const b Int)(assert (distinct a (div 0 b)))")
            .unwrap();
    assert_eq!(
        evaluate(&script, &model.assignment(&script), &Limits::default()).truth,
        Truth::False
    );
}

#[test]
fn algebraic_numbers_are_decided() {
    let z3 = ModelDialect::default();
    let cvc5 = ModelDialect::default();
    let z3_model = "sat\n(\n  (define-fun x () Real\n    (root-obj (+ (^ x 2) (- 2)) 1))\n)";
    let cvc5_model =
        "sat\n(\n(define-fun x () Real (_ real_algebraic_number <1*x^2 + (-2), (-3/2, -5/4)>))\n)";
    for (formula, expect) in [
        ("(< x 0.0)", Truth::True),
        ("(= (* x x) 2.0)", Truth::True),
        ("(= (* x x x) (* 2.0 x))", Truth::True),
        ("(< (* x x x x) 3.9)", Truth::False),
        ("(is_int x)", Truth::False),
        ("(is_int (* x x))", Truth::True),
        ("(= (to_int x) (- 2))", Truth::True),
        ("(> (+ x 1.5) 0.0)", Truth::True),
        ("(> (+ x 1.41421) 0.0)", Truth::False),
        ("(= (abs x) (- x))", Truth::True),
        ("(= x (- 1.4))", Truth::False),
    ] {
        let script = Script::parse(&format!("(declare-const x Real)(assert {formula})")).unwrap();
        for (model, dialect) in [(z3_model, z3), (cvc5_model, cvc5)] {
            let model = parse_model(model, dialect).unwrap();
            assert_eq!(
                evaluate(&script, &model.assignment(&script), &Limits::default()).truth,
                expect,
                "{formula} under {model:?}"
            );
        }
    }
    // −(root-obj): the positive root.
    let script = Script::parse("(declare-const x Real)(assert (> x 1.41))").unwrap();
    let model = parse_model(
        "((define-fun x () Real (- (root-obj (+ (^ x 2) (- 2)) 1))))",
        z3,
    )
    .unwrap();
    assert_eq!(
        evaluate(&script, &model.assignment(&script), &Limits::default()).truth,
        Truth::True
    );
}

#[test]
fn a_constant_defined_twice_is_refused() {
    let z3 = ModelDialect::default();
    let e = parse_model(
        "sat\n((define-fun a () Int 1)\n (define-fun a () Int 2))",
        z3,
    )
    .unwrap_err();
    assert!(e.message.contains("'a' is defined twice"), "{e}");
    assert_eq!(e.pos.line, 3);
    let yices = ModelDialect {
        approximate_decimals: true,
        ..ModelDialect::default()
    };
    assert!(parse_model("(= a 1)\n(= a 1)", yices).is_err());
}

#[test]
fn values_with_let_are_read() {
    let script = Script::parse(
        "(declare-const x Int)(declare-const y (_ BitVec 8))(assert (and (= x 9) (= y #x0f)))",
    )
    .unwrap();
    let model = parse_model(
        "sat\n((define-fun x () Int (let ((a!1 (+ 1 2))) (* a!1 a!1)))\n (define-fun y () (_ BitVec 8) (let ((b #x0)) (concat b ((_ extract 3 0) #xff)))))",
        ModelDialect::default(),
    )
    .unwrap();
    assert_eq!(
        evaluate(&script, &model.assignment(&script), &Limits::default()).truth,
        Truth::True
    );
}
