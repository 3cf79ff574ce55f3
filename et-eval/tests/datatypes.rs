//! Algebraic datatypes: declarations (`declare-datatypes`, `declare-datatype`,
//! mutually recursive blocks), constructors, selectors, testers and `match`, the
//! values solvers print for them, quantifiers over them, and witnesses.
//!
//! The model fixtures are real outputs of z3 5.4.1 and cvc5 1.4.2
//! (`--produce-models`), each on the formula named with it preceded by `(set-logic
//! ALL)`, pasted verbatim (after `(get-model)`); edited copies say what was changed.

use et_eval::{
    check_model, evaluate, evaluate_model, find_witness, parse_model, parse_model_for, Assignment,
    Limits, ModelCheck, ModelDialect, QuantifierSearch, Script, Sort, Truth, WitnessBound,
};

const DECLS: &str = "(declare-datatypes ((IntList 0) (Opt 0) (Pair 0)) (((nil) (cons (head Int) (tail IntList))) ((none) (some (val Int))) ((pair (fst Int) (snd Int)))))";

/// Constructors, selectors, a tester and `(as nil IntList)`.
const BASIC: &str = "(declare-datatypes ((IntList 0) (Opt 0) (Pair 0)) (((nil) (cons (head Int) (tail IntList))) ((none) (some (val Int))) ((pair (fst Int) (snd Int)))))
(declare-const l IntList)
(declare-const o Opt)
(declare-const p Pair)
(declare-const e IntList)
(assert ((_ is cons) l))
(assert (= (head l) 3))
(assert (= (tail l) nil))
(assert (= o (some (head l))))
(assert (> (snd p) (fst p)))
(assert (= e (as nil IntList)))
(check-sat)";

const Z3_BASIC: &str = "sat
(
  (define-fun p () Pair
    (pair 0 1))
  (define-fun l () IntList
    (cons 3 nil))
  (define-fun o () Opt
    (some 3))
  (define-fun e () IntList
    nil)
)
";

const CVC5_BASIC: &str = "sat
(
(define-fun l () IntList (cons 3 nil))
(define-fun o () Opt (some 3))
(define-fun p () Pair (pair 0 1))
(define-fun e () IntList nil)
)
";

/// Nested `match`es, cvc4's tester `is-some`, an `ite` over datatype values.
const MATCH: &str = "(declare-datatypes ((IntList 0) (Opt 0) (Pair 0)) (((nil) (cons (head Int) (tail IntList))) ((none) (some (val Int))) ((pair (fst Int) (snd Int)))))
(declare-const l IntList)
(declare-const o Opt)
(declare-const p Pair)
(declare-const n Int)
(assert (= (match l ((nil 0) ((cons h t) (+ h (match t ((nil 0) ((cons h2 t2) h2))))))) 7))
(assert ((_ is cons) (tail l)))
(assert (> (head l) (head (tail l))))
(assert (> (head (tail l)) 0))
(assert (= o (ite (> n 2) (some n) none)))
(assert (= n (fst p)))
(assert (= (snd p) (- (fst p))))
(assert (is-some o))
(check-sat)";

const Z3_MATCH: &str = "sat
(
  (define-fun p () Pair
    (pair 11800 (- 11800)))
  (define-fun l () IntList
    (cons 4 (cons 3 nil)))
  (define-fun o () Opt
    (some 11800))
  (define-fun n () Int
    11800)
)
";

const CVC5_MATCH: &str = "sat
(
(define-fun l () IntList (cons 4 (cons 3 (cons 0 nil))))
(define-fun o () Opt (some 3))
(define-fun p () Pair (pair 3 (- 3)))
(define-fun n () Int 3)
)
";

/// A mutually recursive block, and a selector applied to the wrong constructor:
/// `(val none)` is unspecified, and neither solver prints what it chose.
const SELECTOR: &str = "(declare-datatype Opt ((none) (some (val Int))))
(declare-datatypes ((Tree 0) (Forest 0)) (((leaf (lval Int)) (node (kids Forest))) ((fnil) (fcons (first Tree) (rest Forest)))))
(declare-const o Opt)
(declare-const t Tree)
(declare-const x Int)
(assert (= o none))
(assert (= x (val o)))
(assert (is-node t))
(assert ((_ is fcons) (kids t)))
(assert (= (match (first (kids t)) (((leaf v) v) ((node f) 0))) 5))
(check-sat)";

const Z3_SELECTOR: &str = "sat
(
  (define-fun t () Tree
    (node (fcons (leaf 5) fnil)))
  (define-fun x () Int
    0)
  (define-fun o () Opt
    none)
)
";

const CVC5_SELECTOR: &str = "sat
(
(define-fun o () Opt none)
(define-fun t () Tree (node (fcons (leaf 5) fnil)))
(define-fun x () Int 0)
)
";

/// Quantifiers over finite datatypes (an enumeration, an option of a Boolean).
const FINITE: &str = "(declare-datatype OptB ((noneB) (someB (valB Bool))))
(declare-datatype Color ((red) (green) (blue)))
(declare-const c Color)
(declare-const b OptB)
(assert (forall ((q OptB)) (=> ((_ is someB) q) (or (valB q) (not (valB q))))))
(assert (exists ((k Color)) (and (distinct k c) (distinct k red))))
(assert (distinct c green))
(assert ((_ is someB) b))
(check-sat)";

const Z3_FINITE: &str = "sat
(
  (define-fun b () OptB
    (someB false))
  (define-fun c () Color
    red)
)
";

const CVC5_FINITE: &str = "sat
(
(define-fun c () Color red)
(define-fun b () OptB (someB true))
)
";

fn check(formula: &str, model: &str) -> ModelCheck {
    let script = Script::parse(formula).unwrap_or_else(|e| panic!("{formula}: {e}"));
    check_model(&script, model, ModelDialect::default())
}

fn truth(formula: &str) -> Truth {
    let script = Script::parse(formula).unwrap_or_else(|e| panic!("{formula}: {e}"));
    evaluate(&script, &Assignment::default(), &Limits::default()).truth
}

#[test]
fn real_models_of_datatype_formulas_are_valid() {
    for (formula, solver, model) in [
        (BASIC, "z3", Z3_BASIC),
        (BASIC, "cvc5", CVC5_BASIC),
        (MATCH, "z3", Z3_MATCH),
        (MATCH, "cvc5", CVC5_MATCH),
        (FINITE, "z3", Z3_FINITE),
        (FINITE, "cvc5", CVC5_FINITE),
    ] {
        assert_eq!(
            check(formula, model),
            ModelCheck::Valid,
            "{solver}: {model}"
        );
    }
    // cvc5 qualifies a constructor with its sort where the name alone is ambiguous;
    // the same model written so reads the same (edited: `nil` → `(as nil IntList)`).
    let qualified = CVC5_BASIC.replace("(cons 3 nil)", "(cons 3 (as nil IntList))");
    assert_eq!(check(BASIC, &qualified), ModelCheck::Valid);
    // The finite quantifiers are decided exactly.
    let script = Script::parse(FINITE).unwrap();
    let e = evaluate_model(&script, Z3_FINITE, ModelDialect::default()).unwrap();
    let searches: Vec<QuantifierSearch> = e.quantifiers.iter().map(|n| n.search).collect();
    assert_eq!(
        searches,
        [
            QuantifierSearch::Exhaustive { assignments: 3 },
            QuantifierSearch::Exhaustive { assignments: 3 }
        ]
    );
    assert!(e.quantifiers.iter().all(|n| n.exact()));
}

#[test]
fn corrupted_models_are_invalid_with_the_values() {
    // z3's model with o's field changed from 3 to 4.
    let wrong = Z3_BASIC.replace("(some 3)", "(some 4)");
    assert_eq!(
        check(BASIC, &wrong),
        ModelCheck::Invalid {
            explanation: "(= o (some (head l))) where o = (some 4), (some (head l)) = (some 3)"
                .into()
        }
    );
    // cvc5's list with a tail that is not nil.
    let wrong = CVC5_BASIC.replace("(cons 3 nil)", "(cons 3 (cons 3 nil))");
    match check(BASIC, &wrong) {
        ModelCheck::Invalid { explanation } => assert_eq!(
            explanation,
            "(= (tail l) nil) where (tail l) = (cons 3 nil)"
        ),
        other => panic!("{other}"),
    }
    // The match sums the first two elements: 4 + 4 is not 7.
    let wrong = Z3_MATCH.replace("(cons 4 (cons 3 nil))", "(cons 4 (cons 4 nil))");
    match check(MATCH, &wrong) {
        ModelCheck::Invalid { explanation } => {
            assert!(explanation.starts_with("(= (match l"), "{explanation}")
        }
        other => panic!("{other}"),
    }
    // A value of another datatype, or of the right one with a constructor of another.
    let wrong = CVC5_BASIC.replace(
        "(define-fun o () Opt (some 3))",
        "(define-fun o () IntList nil)",
    );
    assert_eq!(check(BASIC, &wrong).csv(), "invalid");
    let wrong = CVC5_BASIC.replace(
        "(define-fun o () Opt (some 3))",
        "(define-fun o () Opt (cons 3 nil))",
    );
    assert!(matches!(check(BASIC, &wrong), ModelCheck::NoModel { .. }));
    // A finite quantifier's counterexample, exactly: z3's model with c = blue.
    let formula = FINITE.replace(
        "(assert (distinct c green))",
        "(assert (forall ((k Color)) (=> (distinct k red) (distinct k c))))",
    );
    assert_eq!(check(&formula, Z3_FINITE), ModelCheck::Valid);
    let wrong = Z3_FINITE.replace("    red)", "    blue)");
    match check(&formula, &wrong) {
        ModelCheck::Invalid { explanation } => assert_eq!(
            explanation,
            "(forall ((k Color)) (=> (distinct k red) (distinct k c))) where forall k: Color false at k = blue (decided over all 3 values)"
        ),
        other => panic!("{other}"),
    }
}

#[test]
fn a_selector_of_another_constructor_is_undetermined_unless_the_model_defines_it() {
    for (solver, model) in [("z3", Z3_SELECTOR), ("cvc5", CVC5_SELECTOR)] {
        match check(SELECTOR, model) {
            ModelCheck::Undetermined { reason } => assert!(
                reason.contains(
                    "(val none) is unspecified (a selector of 'some' applied to a 'none') and the model does not define 'val'"
                ),
                "{solver}: {reason}"
            ),
            other => panic!("{solver}: {other}"),
        }
    }
    // Edited: z3's model with a definition of the selector added; it gives 0 at
    // none, as x is.
    let defined = format!(
        "{}  (define-fun val ((x!0 Opt)) Int\n    (ite ((_ is some) x!0) (val x!0) 0))\n)\n",
        Z3_SELECTOR.strip_suffix(")\n").unwrap()
    );
    assert_eq!(check(SELECTOR, &defined), ModelCheck::Valid, "{defined}");
    let other = defined.replace("(val x!0) 0)", "(val x!0) 1)");
    match check(SELECTOR, &other) {
        ModelCheck::Invalid { explanation } => {
            assert_eq!(explanation, "(= x (val o)) where x = 0, (val o) = 1")
        }
        other => panic!("{other}"),
    }
    // A selector of the right constructor is its field, whatever the model says.
    let script = Script::parse(&format!(
        "{DECLS}(declare-const o Opt)(assert (= (val o) 3))"
    ))
    .unwrap();
    let model = "sat\n((define-fun o () Opt (some 3)) (define-fun val ((y Opt)) Int 9))";
    assert_eq!(
        check_model(&script, model, ModelDialect::default()),
        ModelCheck::Valid
    );
}

#[test]
fn constructors_selectors_testers_and_match_evaluate() {
    let t = |assertion: &str| truth(&format!("{DECLS}(assert {assertion})"));
    assert_eq!(t("(= (head (cons 1 (cons 2 nil))) 1)"), Truth::True);
    assert_eq!(
        t("(= (tail (cons 1 (cons 2 nil))) (cons 2 nil))"),
        Truth::True
    );
    assert_eq!(t("(= (cons 1 nil) (cons 1 (cons 2 nil)))"), Truth::False);
    assert_eq!(t("(distinct nil (as nil IntList))"), Truth::False);
    assert_eq!(t("((_ is cons) (cons 1 nil))"), Truth::True);
    assert_eq!(t("(is-nil (cons 1 nil))"), Truth::False);
    assert_eq!(
        t("(= (snd (pair 1 2)) (+ (fst (pair 1 2)) 1))"),
        Truth::True
    );
    assert_eq!(
        t("(= (match (cons 5 (cons 6 nil)) ((nil 0) ((cons h t2) h) (_ 1))) 5)"),
        Truth::True
    );
    assert_eq!(
        t("(= (match nil ((nil 0) ((cons h t2) h) (_ 1))) 0)"),
        Truth::True
    );
    // A variable pattern binds the whole value; the first fitting case wins.
    assert_eq!(
        t("(= (match (some 2) ((x (match x ((none 0) ((some v) (* v 10))))) (none 1))) 20)"),
        Truth::True
    );
    // Pattern variables hide constants; match over terms of constants.
    let script = Script::parse(&format!(
        "{DECLS}(declare-const h Int)(declare-const l IntList)(assert (= (match l ((nil h) ((cons h t) (* 2 h)))) 6))"
    ))
    .unwrap();
    let model = "sat\n((define-fun h () Int 100) (define-fun l () IntList (cons 3 nil)))";
    assert_eq!(
        check_model(&script, model, ModelDialect::default()),
        ModelCheck::Valid
    );
    // (head nil) is unspecified: undetermined where it matters, only there.
    assert!(matches!(t("(= (head nil) 3)"), Truth::Undetermined(_)));
    assert_eq!(t("(or (= (head nil) 3) true)"), Truth::True);
    // Real fields take Int arguments as Reals.
    assert_eq!(
        truth("(declare-datatype R ((r (x Real))))(assert (= (x (r 1)) 1.0))"),
        Truth::True
    );
}

#[test]
fn declarations_are_read_checked_and_printed() {
    // The single form, SMT-LIB 2.5's form, and a mutually recursive block.
    let script = Script::parse(
        "(declare-datatypes () ((L nil (cons (hd Int) (tl L)))))
         (declare-datatypes ((Tree 0) (Forest 0)) (((leaf (lval Int)) (node (kids Forest))) ((fnil) (fcons (first Tree) (rest Forest)))))
         (declare-datatype W ((w (wl L) (wt Tree))))
         (declare-const a W)
         (assert (is-cons (wl a)))",
    )
    .unwrap();
    assert!(matches!(script.decls[0].sort, Sort::Datatype(_)));
    let text = script.text();
    assert_eq!(
        text,
        "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L))))) (declare-datatypes ((Tree 0) (Forest 0)) (((leaf (lval Int)) (node (kids Forest))) ((fnil) (fcons (first Tree) (rest Forest))))) (declare-datatypes ((W 0)) (((w (wl L) (wt Tree))))) (declare-const a W) (assert ((_ is cons) (wl a))) (check-sat)"
    );
    assert_eq!(Script::parse(&text).unwrap().text(), text);
    for (bad, why) in [
        ("(declare-datatype T ((c (f T))))", "has no value"),
        (
            "(declare-datatypes ((T 1)) ((par (X) ((c (f X))))))",
            "parametric",
        ),
        ("(declare-datatype T ((c) (c)))", "declared twice"),
        ("(declare-const c Int)(declare-datatype T ((c)))", "declared twice"),
        ("(declare-datatype T ((c)))(declare-const c Int)", "declared twice"),
        ("(declare-datatype Int ((c)))", "declared twice"),
        ("(declare-datatype T ((bvadd)))", "theory's symbol"),
        ("(declare-datatype T ((c)))(assert (= c 1))", "expected"),
        (
            "(declare-datatype T ((c (f Int))))(assert (= (f (f (c 1))) 1))",
            "expected T",
        ),
        ("(declare-datatype T ((c (f Int))))(assert (= (c 1 2) (c 1)))", "takes 1"),
        ("(declare-datatype T ((c (f Int))))(assert (= c c))", "takes 1"),
        (
            "(declare-datatype T ((c (f Int))))(assert (= 1 (match (c 1) (((d x) x)))))",
            "no constructor",
        ),
        (
            "(declare-datatype T ((c (f Int))))(assert (= 1 (match (c 1) (((c x y) x)))))",
            "2 variables for 1 fields",
        ),
        ("(assert (= 1 (match 1 ((x x)))))", "not a datatype"),
        (
            "(declare-datatype T ((c (f Int))))(declare-datatype U ((d)))(assert (= (as d T) (c 1)))",
            "not of T",
        ),
    ] {
        let e = Script::parse(bad).unwrap_err();
        assert!(e.message.contains(why), "{bad}: {e}");
    }
}

#[test]
fn quantifiers_over_infinite_datatypes_are_bounded() {
    let t = |assertion: &str| truth(&format!("{DECLS}(assert {assertion})"));
    // A counterexample among small lists.
    assert_eq!(
        t("(forall ((x IntList)) (=> ((_ is cons) x) ((_ is cons) (tail x))))"),
        Truth::False
    );
    // An instance among small lists (two elements, the second 1).
    assert_eq!(
        t("(exists ((x IntList)) (and ((_ is cons) x) (is-cons (tail x)) (= (head (tail x)) 1)))"),
        Truth::True
    );
    // True on every candidate: undetermined, never true.
    match t("(forall ((x Opt)) (or (= x none) ((_ is some) x)))") {
        Truth::Undetermined(why) => assert!(
            why.contains("forall x: Opt undetermined: no counterexample among"),
            "{why}"
        ),
        other => panic!("{other}"),
    }
    // The model's values and one constructor around them are candidates.
    let script = Script::parse(&format!(
        "{DECLS}(declare-const l IntList)(assert (exists ((q IntList)) (= (tail q) l)))"
    ))
    .unwrap();
    let model = "sat\n((define-fun l () IntList (cons 7 (cons 8 (cons 9 nil)))))";
    assert_eq!(
        check_model(&script, model, ModelDialect::default()),
        ModelCheck::Valid
    );
}

#[test]
fn witnesses_of_datatype_formulas() {
    let script = Script::parse(&format!(
        "{DECLS}(declare-const l IntList)(declare-const o Opt)(assert (= (head (tail l)) 1))(assert (= o (some (head l))))"
    ))
    .unwrap();
    let w = find_witness(&script, &WitnessBound::default()).expect("a small list");
    assert_eq!(
        w.to_smtlib(&script),
        "(define-fun l () IntList (cons 0 (cons 1 nil)))\n(define-fun o () Opt (some 0))\n"
    );
    // What it prints is a model of the formula.
    let model = format!("sat\n({})", w.to_smtlib(&script));
    assert_eq!(
        check_model(&script, &model, ModelDialect::default()),
        ModelCheck::Valid
    );
    // A finite datatype under a forall: exact.
    let script = Script::parse(
        "(declare-datatype Color ((red) (green) (blue)))(declare-const c Color)(assert (forall ((k Color)) (=> (distinct k red) (distinct k c))))",
    )
    .unwrap();
    let w = find_witness(&script, &WitnessBound::default()).expect("c = red");
    assert_eq!(w.values[0].to_string(), "red");
    // Out of reach: a list of three given elements.
    let script = Script::parse(&format!(
        "{DECLS}(declare-const l IntList)(assert (= l (cons 5 (cons 6 (cons 7 nil)))))"
    ))
    .unwrap();
    assert!(find_witness(&script, &WitnessBound::default()).is_none());
}

#[test]
fn models_need_the_formulas_declarations() {
    // Without the formula the model's datatype is an unknown sort.
    assert!(parse_model(Z3_BASIC, ModelDialect::default()).is_err());
    let script = Script::parse(BASIC).unwrap();
    let model = parse_model_for(Z3_BASIC, ModelDialect::default(), &script).unwrap();
    assert_eq!(model.values.len(), 4);
    // A model that declares the datatypes itself reads the same.
    let with_decls = format!("sat\n({DECLS}\n{}", Z3_BASIC.trim_start_matches("sat\n("));
    assert_eq!(check(BASIC, &with_decls), ModelCheck::Valid);
}

/// Mutations of the formulas and models above (and of quantified ones): tokens
/// swapped, replaced by binders, constructors and selectors, removed, or the text cut.
fn mutate(text: &str, rng: &mut rand_chacha::ChaCha8Rng) -> String {
    use rand::Rng;
    const TOKENS: &[&str] = &[
        "forall",
        "exists",
        "match",
        "as",
        "_",
        "is",
        "nil",
        "cons",
        "head",
        "tail",
        "none",
        "some",
        "val",
        "is-cons",
        "IntList",
        "Opt",
        "(",
        ")",
        "x",
        "q",
        "Int",
        "Bool",
        "(_ BitVec 4)",
        "0",
        "#x0",
        "let",
        "!",
        ":named",
        ":pattern",
    ];
    let mut tokens: Vec<String> = text
        .replace('(', " ( ")
        .replace(')', " ) ")
        .split_whitespace()
        .map(String::from)
        .collect();
    for _ in 0..rng.gen_range(1..4) {
        if tokens.is_empty() {
            break;
        }
        let i = rng.gen_range(0..tokens.len());
        match rng.gen_range(0..5) {
            0 => tokens[i] = TOKENS[rng.gen_range(0..TOKENS.len())].into(),
            1 => {
                tokens.remove(i);
            }
            2 => tokens.insert(i, TOKENS[rng.gen_range(0..TOKENS.len())].into()),
            3 => tokens.truncate(i),
            _ => {
                let j = rng.gen_range(0..tokens.len());
                tokens.swap(i, j);
            }
        }
    }
    tokens.join(" ")
}

#[test]
fn mutated_formulas_and_models_never_panic() {
    use rand::{Rng, SeedableRng};
    let quantified = "(declare-const c (_ BitVec 4)) (declare-const l IntList)
        (assert (forall ((x (_ BitVec 4))) (exists ((q Opt)) (=> ((_ is some) q) (bvule (bvand x c) x)))))
        (assert (forall ((x Int) (o Opt)) (let ((y (+ x 1))) (! (> (match o ((none y) ((some v) (* v v)))) (- 1)) :named n))))";
    let cases = [
        (BASIC.to_string(), Z3_BASIC),
        (BASIC.to_string(), CVC5_BASIC),
        (MATCH.to_string(), Z3_MATCH),
        (MATCH.to_string(), CVC5_MATCH),
        (SELECTOR.to_string(), Z3_SELECTOR),
        (FINITE.to_string(), CVC5_FINITE),
        (format!("{DECLS}{quantified}"), Z3_BASIC),
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut evaluated = 0;
    for round in 0..1500 {
        let (formula, model) = &cases[round % cases.len()];
        let formula = if rng.gen_bool(0.6) {
            mutate(formula, &mut rng)
        } else {
            formula.clone()
        };
        let model = if rng.gen_bool(0.5) {
            mutate(model, &mut rng)
        } else {
            model.to_string()
        };
        let Ok(script) = Script::parse(&formula) else {
            continue;
        };
        // Printing reads back.
        let text = script.text();
        assert!(
            Script::parse(&text).is_ok(),
            "{formula}\nprinted as\n{text}"
        );
        let _ = check_model(&script, &model, ModelDialect::default());
        evaluated += 1;
        if round % 10 == 0 {
            let bound = WitnessBound {
                values_per_constant: 3,
                max_assignments: 8,
            };
            if let Some(w) = find_witness(&script, &bound) {
                assert_eq!(w.evaluation.truth, Truth::True);
            }
        }
    }
    assert!(evaluated > 300, "{evaluated} formulas evaluated");
}
