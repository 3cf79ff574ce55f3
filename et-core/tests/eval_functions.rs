//! Models of formulas with uninterpreted functions (over Int and 8-bit vectors, of
//! one and two parameters, predicates among them): the newest z3 and cvc5 of the test
//! pool answer ten small formulas with `(get-model)`, and et's evaluator reads every
//! model they print and finds it valid.

use std::time::Duration;

use et_core::solvers::call::{run_call, Input, Limits};
use et_core::solvers::testing::test_pool;
use et_eval::{check_model, ModelCheck, ModelDialect, Script};

/// Ten satisfiable formulas: Int and (_ BitVec 8), arity 1 and 2, predicates.
const FORMULAS: [&str; 10] = [
    // Int, arity 1.
    "(declare-fun f (Int) Int)(declare-const a Int)(declare-const b Int)
     (assert (= (f a) (+ b 1)))(assert (= (f b) 7))(assert (distinct a b))",
    // Int, arity 1, nested applications.
    "(declare-fun f (Int) Int)(declare-const a Int)
     (assert (= (f (f a)) (+ a 3)))(assert (> (f a) 10))",
    // Int, arity 2.
    "(declare-fun g (Int Int) Int)(declare-const a Int)(declare-const b Int)
     (assert (> (g a b) (g b a)))(assert (= (g a a) 5))(assert (< a b))",
    // Int, a unary and a binary predicate.
    "(declare-fun p (Int) Bool)(declare-fun r (Int Int) Bool)(declare-const a Int)
     (assert (p a))(assert (not (p (+ a 1))))(assert (r a (+ a 1)))(assert (not (r (+ a 1) a)))",
    // Int, functions and a predicate together.
    "(declare-fun f (Int) Int)(declare-fun g (Int Int) Int)(declare-fun p (Int) Bool)
     (declare-const a Int)(declare-const b Int)
     (assert (= (f a) (+ b 1)))(assert (> (g a b) (f a)))(assert (not (= (g b a) (g a b))))
     (assert (p (g a b)))(assert (not (p b)))",
    // 8-bit vectors, arity 1.
    "(declare-fun f ((_ BitVec 8)) (_ BitVec 8))(declare-const a (_ BitVec 8))
     (assert (= (f a) (bvadd a #x01)))(assert (= (f (f a)) #x07))",
    // 8-bit vectors, arity 1, a function back and forth.
    "(declare-fun f ((_ BitVec 8)) (_ BitVec 8))(declare-const a (_ BitVec 8))
     (assert (= (f (bvadd a #x01)) (bvmul (f a) #x03)))(assert (= (f (f a)) a))
     (assert (not (= (f a) a)))",
    // 8-bit vectors, arity 2.
    "(declare-fun g ((_ BitVec 8) (_ BitVec 8)) (_ BitVec 8))
     (declare-const a (_ BitVec 8))(declare-const b (_ BitVec 8))
     (assert (bvugt (g a b) (g b a)))(assert (= (g a a) #xff))(assert (bvult a b))",
    // 8-bit vectors, predicates.
    "(declare-fun p ((_ BitVec 8)) Bool)(declare-fun r ((_ BitVec 8) (_ BitVec 8)) Bool)
     (declare-const a (_ BitVec 8))
     (assert (p a))(assert (not (p (bvnot a))))(assert (r a (bvnot a)))
     (assert (not (r (bvnot a) a)))",
    // 8-bit vectors, a function to 4-bit vectors and a predicate on its result.
    "(declare-fun h ((_ BitVec 8)) (_ BitVec 4))(declare-fun p ((_ BitVec 4)) Bool)
     (declare-const a (_ BitVec 8))(declare-const b (_ BitVec 8))
     (assert (= (h a) ((_ extract 3 0) b)))(assert (p (h a)))(assert (not (p (h b))))
     (assert (= b #x2c))",
];

#[test]
fn z3_and_cvc5_models_of_uninterpreted_functions_are_valid() {
    let pool = test_pool();
    let z3 = pool
        .get("z3-4.16.0")
        .expect("z3 4.16.0 in the test pool")
        .clone();
    let cvc5 = pool
        .get("cvc5-1.4.2")
        .expect("cvc5 1.4.2 in the test pool")
        .clone();
    let solvers = [
        (z3.clone(), vec![z3.program().to_string(), "-in".into()]),
        (
            cvc5.clone(),
            vec![
                cvc5.program().to_string(),
                "--produce-models".into(),
                "-q".into(),
            ],
        ),
    ];
    let limits = Limits::with_timeout(Duration::from_secs(20));
    for (solver, command) in &solvers {
        let dialect = et_core::solvers::family::find(&solver.family)
            .map_or_else(ModelDialect::default, |f| f.model_dialect(&solver.version));
        for formula in FORMULAS {
            let script = Script::parse(formula).unwrap_or_else(|e| panic!("{formula}: {e}"));
            assert!(!script.functions().is_empty());
            let input = format!("(set-logic ALL)\n{formula}\n(check-sat)\n(get-model)\n");
            let outcome = run_call(command, Input::Stdin(input.as_bytes()), &limits)
                .unwrap_or_else(|e| panic!("{} on {formula}: {e}", solver.name));
            let stdout = outcome.stdout_text();
            assert!(
                stdout.starts_with("sat"),
                "{} on {formula}: {stdout}{}",
                solver.name,
                outcome.stderr_text()
            );
            // The model defines the functions themselves (so their bodies were read).
            let model = et_eval::parse_model(&stdout, dialect).unwrap();
            for f in script.functions() {
                assert!(
                    model.functions.contains_key(&*f.name),
                    "{} on {formula}: no definition of {}:\n{stdout}",
                    solver.name,
                    f.name
                );
            }
            let check = check_model(&script, &stdout, dialect);
            assert_eq!(
                check,
                ModelCheck::Valid,
                "{} on {formula}:\n{stdout}",
                solver.name
            );
        }
    }
}
