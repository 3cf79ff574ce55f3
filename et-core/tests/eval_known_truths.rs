//! `et eval` answers right on formula/model pairs of known truth over the theories a
//! user's grammar may reach (issue 23, checks a and c): Float32, Float16,
//! fp.to_real, to_fp, fp.to_sbv, extract, concat with sign/zero_extend, rotate_left,
//! repeat with bvcomp, str.to_code/str.from_code; nested division by zero with cvc5's
//! model; z3's algebraic -sqrt 2; a model defining a constant twice (exit 2); a model
//! giving a constant a value of another sort than declared (exit 3: a wrong model).

mod common;

use common::{show, Scratch};

/// (declarations and assertions, model as z3/cvc5 print it, expected exit code)
const PAIRS: &[(&str, &str, i32)] = &[
    (
        "(declare-const x Float32)(assert (fp.eq (fp.add RNE x x) ((_ to_fp 8 24) RNE 2.0)))",
        "(define-fun x () Float32 (fp #b0 #x7f #b00000000000000000000000))",
        0,
    ),
    (
        "(declare-const h (_ FloatingPoint 5 11))(assert (fp.isSubnormal h))",
        "(define-fun h () (_ FloatingPoint 5 11) (fp #b0 #b00000 #b0000000001))",
        0,
    ),
    (
        "(declare-const h (_ FloatingPoint 5 11))(assert (fp.isSubnormal h))",
        "(define-fun h () (_ FloatingPoint 5 11) (fp #b0 #b00001 #b0000000001))",
        3,
    ),
    (
        "(declare-const x Float32)(assert (= (fp.to_real x) 0.5))",
        "(define-fun x () (_ FloatingPoint 8 24) (fp #b0 #b01111110 #b00000000000000000000000))",
        0,
    ),
    (
        "(declare-const x Float32)(declare-const r Real)(assert (= ((_ to_fp 8 24) RNE r) x))",
        "(define-fun x () Float32 (fp #b0 #x7b #b10011001100110011001101))(define-fun r () Real (/ 1.0 10.0))",
        0,
    ),
    (
        "(declare-const x Float32)(assert (= ((_ fp.to_sbv 8) RTZ x) #xfd))",
        "(define-fun x () Float32 (fp #b1 #x80 #b11011001100110011001101))",
        0,
    ),
    (
        "(declare-const a (_ BitVec 8))(assert (= ((_ extract 7 4) a) #xa))",
        "(define-fun a () (_ BitVec 8) #xab)",
        0,
    ),
    (
        "(declare-const a (_ BitVec 4))(assert (= (concat ((_ sign_extend 4) a) ((_ zero_extend 4) a)) #xff0f))",
        "(define-fun a () (_ BitVec 4) #b1111)",
        0,
    ),
    (
        "(declare-const a (_ BitVec 8))(assert (= ((_ rotate_left 1) a) #x57))",
        "(define-fun a () (_ BitVec 8) #xab)",
        0,
    ),
    (
        "(declare-const a (_ BitVec 8))(declare-const b (_ BitVec 8))(assert (= ((_ repeat 4) (bvcomp a b)) #xf))",
        "(define-fun a () (_ BitVec 8) #xab)(define-fun b () (_ BitVec 8) #xac)",
        3,
    ),
    (
        "(declare-const s String)(declare-const t String)(assert (and (= (str.to_code s) 97) (= (str.from_code 98) t)))",
        "(define-fun s () String \"a\")(define-fun t () String \"b\")",
        0,
    ),
    // Check c.
    (
        "(declare-const x Int)(assert (> (div x 0) 0))(assert (= (div (ite (> (div x 0) 0) x 2) 0) 9))",
        "(define-fun x () Int 0)",
        0,
    ),
    (
        "(declare-const x Int)(assert (< (* (div x 0) (div x 0)) 0))",
        "(define-fun x () Int 0)",
        3,
    ),
    (
        "(declare-const x Real)(assert (< x 0.0))",
        "(define-fun x () Real (root-obj (+ (^ x 2) (- 2)) 1))",
        0,
    ),
    (
        "(declare-const x Int)(assert (> x 0))",
        "(define-fun x () Int 1)(define-fun x () Int 2)",
        2,
    ),
    (
        "(declare-const x Int)(assert (> x 0))",
        "(define-fun x () Bool true)",
        3,
    ),
    (
        "(declare-const x Int)(assert (> x 0))",
        "(define-fun x () String \"a\")",
        3,
    ),
];

#[test]
fn et_eval_answers_right_on_known_pairs() {
    let scratch = Scratch::new();
    for (i, (formula, model, want)) in PAIRS.iter().enumerate() {
        let f = scratch.join(&format!("f{i}.smt2"));
        let m = scratch.join(&format!("m{i}.out"));
        std::fs::write(&f, format!("{formula}\n(check-sat)\n")).unwrap();
        std::fs::write(&m, format!("sat\n({model})\n")).unwrap();
        let o = scratch.run(&["eval", f.to_str().unwrap(), "--model", m.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(*want),
            "{formula} under {model}: {}",
            show(&o)
        );
    }
    assert!(scratch.tmp_leftovers().is_empty());
}

/// `et eval --model` reads a solver's output as a campaign does (the same reader): z3's
/// failed self-check between `sat` and a valid model leaves the model to judge (true,
/// exit 0), and a campaign's model check says `valid` on the same output.
#[test]
fn et_eval_reads_solver_output_as_a_campaign_does() {
    let scratch = Scratch::new();
    let formula =
        "(declare-const a Int)\n(declare-const b Int)\n(assert (= 0 (div a b)))\n(check-sat)\n";
    let output = "sat\n(error \"line 1 column 80: an invalid model was generated\")\n\
                  (model\n  (define-fun b () Int 0)\n  (define-fun a () Int 0)\n)\n";
    let f = scratch.join("f.smt2");
    let m = scratch.join("z3.out");
    std::fs::write(&f, formula).unwrap();
    std::fs::write(&m, output).unwrap();
    let o = scratch.run(&["eval", f.to_str().unwrap(), "--model", m.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let script = et_eval::Script::parse(formula).unwrap();
    let campaign = et_eval::check_model(&script, output, et_eval::ModelDialect::default());
    assert_eq!(campaign, et_eval::ModelCheck::Valid);
}
