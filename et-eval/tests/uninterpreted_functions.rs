//! Uninterpreted functions: `declare-fun` with parameters in formulas, the
//! `define-fun`s with parameters that solvers print for them, and the verdicts on
//! those models.
//!
//! The model fixtures are real outputs, pasted verbatim (after `(get-model)`):
//! z3 4.16.0, cvc5 1.4.2 (`--produce-models`), yices 2.6.5 (`yices-smt2
//! --smt2-model-format`, after `(set-logic QF_UFLIA)` / `(set-logic QF_UFBV)`) and
//! bitwuzla 0.9.1 (`--produce-models`) on [`INT_FORMULA`] and [`BV_FORMULA`]; z3
//! 4.16.0 on the quantified formulas named at [`Z3_CALLS_F`] and [`Z3_LET`] (whose
//! models call another function and bind with `let`); yices 2.6.5 in its own format
//! (no option) on [`INT_FORMULA`] and [`UNARY_FORMULA`].

use et_eval::{check_model, find_witness, ModelCheck, ModelDialect, Script, WitnessBound};

/// Unary and binary functions and a predicate over Int.
const INT_FORMULA: &str = "(declare-fun f (Int) Int)
(declare-fun g (Int Int) Int)
(declare-fun p (Int) Bool)
(declare-const a Int)
(declare-const b Int)
(assert (= (f a) (+ b 1)))
(assert (= (f b) 7))
(assert (> (g a b) (f a)))
(assert (not (= (g b a) (g a b))))
(assert (p a))
(assert (not (p b)))
(assert (distinct a b))
(check-sat)";

/// The same over 8-bit vectors.
const BV_FORMULA: &str = "(declare-fun f ((_ BitVec 8)) (_ BitVec 8))
(declare-fun g ((_ BitVec 8) (_ BitVec 8)) (_ BitVec 8))
(declare-fun p ((_ BitVec 8)) Bool)
(declare-const a (_ BitVec 8))
(declare-const b (_ BitVec 8))
(assert (= (f a) (bvadd b #x01)))
(assert (= (f b) #x07))
(assert (bvugt (g a b) (f a)))
(assert (not (= (g b a) (g a b))))
(assert (p a))
(assert (not (p b)))
(assert (distinct a b))
(check-sat)";

const Z3_INT: &str = "sat
(
  (define-fun a () Int
    (- 2))
  (define-fun b () Int
    (- 1))
  (define-fun g ((x!0 Int) (x!1 Int)) Int
    (ite (and (= x!0 (- 1)) (= x!1 (- 2))) 2
      1))
  (define-fun f ((x!0 Int)) Int
    (ite (= x!0 (- 1)) 7
      0))
  (define-fun p ((x!0 Int)) Bool
    (ite (= x!0 (- 1)) false
      true))
)
";

const CVC5_INT: &str = "sat
(
(define-fun f ((_arg_1 Int)) Int (ite (= _arg_1 (- 1)) 7 0))
(define-fun g ((_arg_1 Int) (_arg_2 Int)) Int (ite (= _arg_1 (- 1)) (ite (= _arg_2 2) (- 2) 1) 1))
(define-fun p ((_arg_1 Int)) Bool (= _arg_1 2))
(define-fun a () Int 2)
(define-fun b () Int (- 1))
)
";

const YICES_INT: &str = "sat
(model
  (define-fun f ((x!0 Int)) Int (ite (= x!0 (- 579)) (- 2043) (ite (= x!0 (- 2044)) 7 0)))
  (define-fun g ((x!0 Int) (x!1 Int)) Int (ite (and (= x!0 (- 579)) (= x!1 (- 2044))) (- 2042) 0))
  (define-fun p ((x!0 Int)) Bool (ite (= x!0 (- 579)) true false))
  (define-fun a () Int (- 579))
  (define-fun b () Int (- 2044)))
";

const Z3_BV: &str = "sat
(
  (define-fun a () (_ BitVec 8)
    #xea)
  (define-fun b () (_ BitVec 8)
    #x14)
  (define-fun g ((x!0 (_ BitVec 8)) (x!1 (_ BitVec 8))) (_ BitVec 8)
    (ite (and (= x!0 #xea) (= x!1 #x14)) #x16
    (ite (and (= x!0 #x14) (= x!1 #xea)) #xe9
      #x00)))
  (define-fun f ((x!0 (_ BitVec 8))) (_ BitVec 8)
    (ite (= x!0 #xea) #x15
    (ite (= x!0 #x14) #x07
      #x00)))
  (define-fun p ((x!0 (_ BitVec 8))) Bool
    (ite (= x!0 #xea) true
      false))
)
";

const CVC5_BV: &str = "sat
(
(define-fun f ((_arg_1 (_ BitVec 8))) (_ BitVec 8) (ite (= #b11111111 _arg_1) #b00000111 #b00000000))
(define-fun g ((_arg_1 (_ BitVec 8)) (_arg_2 (_ BitVec 8))) (_ BitVec 8) (ite (= #b11111110 _arg_1) (ite (= #b11111111 _arg_2) #b00000001 #b00000000) #b00000000))
(define-fun p ((_arg_1 (_ BitVec 8))) Bool (= #b11111110 _arg_1))
(define-fun a () (_ BitVec 8) #b11111110)
(define-fun b () (_ BitVec 8) #b11111111)
)
";

const YICES_BV: &str = "sat
(model
  (define-fun f ((x!0 (_ BitVec 8))) (_ BitVec 8) (ite (= x!0 #b10000000) #b00000001 (ite (= x!0 #b00000000) #b00000111 #b00000000)))
  (define-fun g ((x!0 (_ BitVec 8)) (x!1 (_ BitVec 8))) (_ BitVec 8) (ite (and (= x!0 #b10000000) (= x!1 #b00000000)) #b10000000 #b00000000))
  (define-fun p ((x!0 (_ BitVec 8))) Bool (ite (= x!0 #b10000000) true false))
  (define-fun a () (_ BitVec 8) #b10000000)
  (define-fun b () (_ BitVec 8) #b00000000))
";

const BITWUZLA_BV: &str = "sat
(
  (define-fun f ((@bzla.var_90 (_ BitVec 8))) (_ BitVec 8) (ite (= @bzla.var_90 #b11111101) #b00000111 (ite (= @bzla.var_90 #b11111111) #b11111110 #b00000000)))
  (define-fun g ((@bzla.var_96 (_ BitVec 8))  (@bzla.var_97 (_ BitVec 8))) (_ BitVec 8) (ite (and (= @bzla.var_96 #b11111111) (= @bzla.var_97 #b11111101)) #b11111111 (ite (and (= @bzla.var_96 #b11111101) (= @bzla.var_97 #b11111111)) #b11111110 #b00000000)))
  (define-fun p ((@bzla.var_108 (_ BitVec 8))) Bool (ite (= @bzla.var_108 #b11111111) true false))
  (define-fun a () (_ BitVec 8) #b11111111)
  (define-fun b () (_ BitVec 8) #b11111101)
)
";

/// yices 2.6.5 in its own format (no `--smt2-model-format`) on [`INT_FORMULA`]: its
/// two-parameter function is not read (et runs yices 2.6 with
/// `--smt2-model-format`).
const YICES_NATIVE_INT: &str = "sat
(= a (- 579))
(= b (- 2044))
(= f @fun_9)
(= g @fun_12)
(= p @fun_16)
(function @fun_9
 (type (Array Int Int))
 (= (@fun_9 (- 579)) (- 2043))
 (= (@fun_9 (- 2044)) 7)
 (default 0))
(function @fun_12
 (type (FunType2 Int Int Int))
 (= (@fun_12 (- 579) (- 2044)) (- 2042))
 (default 0))
(function @fun_16
 (type (Array Int Bool))
 (= (@fun_16 (- 579)) true)
 (default false))
";

/// z3 4.16.0 on `(declare-fun f (Int) Int) (declare-fun p (Int) Bool) (declare-const a
/// Int) (assert (forall ((x Int)) (= (p x) (> (f x) 2)))) (assert (p a)) (assert (not
/// (p (+ a 1))))`: `p`'s body calls `f`, defined before it.
const Z3_CALLS_F: &str = "sat
(
  (define-fun a () Int
    0)
  (define-fun f ((x!0 Int)) Int
    (ite (= x!0 1) 0
      3))
  (define-fun p ((x!0 Int)) Bool
    (ite (= x!0 0) true
    (ite (= x!0 1) false
      (not (<= (f x!0) 2)))))
)
";

/// z3 4.16.0 on `(declare-fun f (Int Int) Int) (declare-const a Int) (assert (forall
/// ((x Int) (y Int)) (= (f x y) (f y x)))) (assert (= (f a 2) 7)) (assert (= (f 3 a)
/// 8))`: a body with `let`.
const Z3_LET: &str = "sat
(
  (define-fun a () Int
    4)
  (define-fun f ((x!0 Int) (x!1 Int)) Int
    (let ((a!1 (ite (and (= x!0 4) (not (= x!1 4)) (= x!1 2)) 7 5)))
    (let ((a!2 (ite (and (not (= x!0 4)) (not (= x!0 2)) (= x!1 4)) 8 a!1)))
    (let ((a!3 (ite (and (not (= x!0 4)) (= x!0 2) (= x!1 4)) 7 a!2)))
      (ite (and (= x!0 4) (not (= x!1 4)) (not (= x!1 2))) 8 a!3)))))
)
";

fn check(formula: &str, model: &str) -> ModelCheck {
    let script = Script::parse(formula).unwrap_or_else(|e| panic!("{formula}: {e}"));
    check_model(&script, model, ModelDialect::default())
}

#[test]
fn every_solvers_model_of_the_int_formula_is_valid() {
    for (solver, model) in [("z3", Z3_INT), ("cvc5", CVC5_INT), ("yices", YICES_INT)] {
        assert_eq!(check(INT_FORMULA, model), ModelCheck::Valid, "{solver}");
    }
}

#[test]
fn every_solvers_model_of_the_bitvector_formula_is_valid() {
    for (solver, model) in [
        ("z3", Z3_BV),
        ("cvc5", CVC5_BV),
        ("yices", YICES_BV),
        ("bitwuzla", BITWUZLA_BV),
    ] {
        assert_eq!(check(BV_FORMULA, model), ModelCheck::Valid, "{solver}");
    }
}

#[test]
fn bodies_that_call_functions_and_bind_with_let_are_read() {
    let calls = "(declare-fun f (Int) Int) (declare-fun p (Int) Bool) (declare-const a Int)
        (assert (p a)) (assert (not (p (+ a 1)))) (assert (p 7)) (assert (> (f 7) 2))";
    assert_eq!(check(calls, Z3_CALLS_F), ModelCheck::Valid);
    let with_let = "(declare-fun f (Int Int) Int) (declare-const a Int)
        (assert (= (f a 2) 7)) (assert (= (f 3 a) 8)) (assert (= (f 2 a) 7))";
    assert_eq!(check(with_let, Z3_LET), ModelCheck::Valid);
}

#[test]
fn a_model_edited_to_be_wrong_is_invalid_with_the_values() {
    // z3's model with f's value at -1 changed from 7 to 6: (= (f b) 7) is false.
    let wrong = Z3_INT.replace("(ite (= x!0 (- 1)) 7", "(ite (= x!0 (- 1)) 6");
    let verdict = check(INT_FORMULA, &wrong);
    assert_eq!(
        verdict,
        ModelCheck::Invalid {
            explanation: "(= (f b) 7) where (f b) = 6".into()
        }
    );
    // cvc5's predicate made true everywhere: (not (p b)) is false.
    let wrong = CVC5_BV.replace(
        "Bool (= #b11111110 _arg_1)",
        "Bool (or (= #b11111110 _arg_1) true)",
    );
    match check(BV_FORMULA, &wrong) {
        ModelCheck::Invalid { explanation } => {
            assert_eq!(explanation, "(not (p b)) where b = #xff, (p b) = true")
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_function_the_model_does_not_define_is_undetermined() {
    let without_g = CVC5_INT.replace(
        "(define-fun g ((_arg_1 Int) (_arg_2 Int)) Int (ite (= _arg_1 (- 1)) (ite (= _arg_2 2) (- 2) 1) 1))\n",
        "",
    );
    match check(INT_FORMULA, &without_g) {
        ModelCheck::Undetermined { reason } => {
            assert!(
                reason.contains("does not define the function 'g'"),
                "{reason}"
            )
        }
        other => panic!("{other}"),
    }
    // Also when the rest of the model is false where g does not matter: no guess.
    let unreadable = Z3_INT.replace("(ite (= x!0 (- 1)) false", "(ite (= x!0 (- 1)) (frob 1)");
    match check(INT_FORMULA, &unreadable) {
        ModelCheck::Undetermined { reason } => {
            assert!(reason.contains("'p' cannot be read"), "{reason}");
            assert!(reason.contains("frob"), "{reason}");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_definition_of_another_signature_is_not_a_model_of_the_formula() {
    let unary_g = CVC5_INT.replace(
        "(define-fun g ((_arg_1 Int) (_arg_2 Int)) Int (ite (= _arg_1 (- 1)) (ite (= _arg_2 2) (- 2) 1) 1))",
        "(define-fun g ((_arg_1 Int)) Int 1)",
    );
    match check(INT_FORMULA, &unary_g) {
        ModelCheck::Invalid { explanation } => assert_eq!(
            explanation,
            "g (the model defines it as a function (Int) Int, the formula declares it a function (Int Int) Int)"
        ),
        other => panic!("{other}"),
    }
    let constant_f = CVC5_INT.replace(
        "(define-fun f ((_arg_1 Int)) Int (ite (= _arg_1 (- 1)) 7 0))",
        "(define-fun f () Int 7)",
    );
    assert_eq!(check(INT_FORMULA, &constant_f).csv(), "invalid");
}

#[test]
fn parameters_shadow_constants_of_the_same_name() {
    // The parameter is named like the formula's constant `a` (= 5): inside the body,
    // `a` is the argument.
    let formula = "(declare-fun f (Int) Int) (declare-const a Int) (declare-const b Int)
        (assert (= (f b) (+ b 1))) (assert (= a 5))";
    let model = "sat\n((define-fun a () Int 5) (define-fun b () Int 2)
        (define-fun f ((a Int)) Int (+ a 1)))";
    assert_eq!(check(formula, model), ModelCheck::Valid);
}

#[test]
fn helper_functions_defined_after_their_callers_are_read() {
    // z3's `f!0` style: f calls a helper the model defines after it.
    let formula = "(declare-fun f ((_ BitVec 8)) (_ BitVec 8)) (declare-const a (_ BitVec 8))
        (assert (= (f a) #x03)) (assert (= (f (bvadd a #x01)) #x00))";
    let model = "sat\n((define-fun a () (_ BitVec 8) #x10)
        (define-fun f ((x!0 (_ BitVec 8))) (_ BitVec 8) (f!0 x!0))
        (define-fun f!0 ((x!0 (_ BitVec 8))) (_ BitVec 8) (ite (= x!0 #x10) #x03 #x00)))";
    assert_eq!(check(formula, model), ModelCheck::Valid);
    // A definition that calls itself forever is undetermined, not a hang.
    let looping = "sat\n((define-fun a () (_ BitVec 8) #x10)
        (define-fun f ((x!0 (_ BitVec 8))) (_ BitVec 8) (f x!0)))";
    assert_eq!(check(formula, looping).csv(), "undetermined");
}

/// yices 2.6.5 in its own format on [`UNARY_FORMULA`] (after `(set-logic
/// QF_UFLIA)`): one-parameter functions are printed like arrays.
const YICES_NATIVE_UNARY: &str = "sat
(= a (- 579))
(= b (- 1))
(= f @fun_7)
(= p @fun_11)
(function @fun_7
 (type (Array Int Int))
 (= (@fun_7 (- 1)) 7)
 (default 0))
(function @fun_11
 (type (Array Int Bool))
 (= (@fun_11 (- 579)) true)
 (default false))
";

/// Only one-parameter functions.
const UNARY_FORMULA: &str = "(declare-fun f (Int) Int)
(declare-fun p (Int) Bool)
(declare-const a Int)
(declare-const b Int)
(assert (= (f a) (+ b 1)))
(assert (= (f b) 7))
(assert (p a))
(assert (not (p b)))
(check-sat)";

#[test]
fn yices_own_format_is_read_for_one_parameter_functions_only() {
    assert_eq!(check(UNARY_FORMULA, YICES_NATIVE_UNARY), ModelCheck::Valid);
    let wrong = YICES_NATIVE_UNARY.replace("(= (@fun_7 (- 1)) 7)", "(= (@fun_7 (- 1)) 8)");
    assert_eq!(check(UNARY_FORMULA, &wrong).csv(), "invalid");
    // Two parameters (`FunType2`): no model read, never a verdict.
    assert!(matches!(
        check(INT_FORMULA, YICES_NATIVE_INT),
        ModelCheck::NoModel { .. }
    ));
}

#[test]
fn formulas_with_functions_get_no_witness() {
    let script = Script::parse(INT_FORMULA).unwrap();
    assert!(find_witness(&script, &WitnessBound::default()).is_none());
    let trivial = Script::parse("(declare-fun p (Int) Bool) (assert (or (p 1) true))").unwrap();
    assert!(find_witness(&trivial, &WitnessBound::default()).is_none());
}
