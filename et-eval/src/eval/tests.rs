use num_bigint::BigInt;
use num_rational::BigRational;

use super::*;
use crate::fp::Float64;
use crate::script::Script;
use crate::string::SmtString;

fn int(n: i64) -> Value {
    Value::Int(BigInt::from(n))
}

fn real(n: i64, d: i64) -> Value {
    Value::Real(BigRational::new(BigInt::from(n), BigInt::from(d)))
}

fn eval_with(decls: &str, assertion: &str, values: Vec<Value>) -> Evaluation {
    let script = Script::parse(&format!("{decls}(assert {assertion})(check-sat)")).unwrap();
    evaluate(&script, &Assignment::of_values(values), &Limits::default())
}

fn truth(decls: &str, assertion: &str, values: Vec<Value>) -> Truth {
    eval_with(decls, assertion, values).truth
}

const INTS: &str = "(declare-const a Int)(declare-const b Int)";
const REALS: &str = "(declare-const a Real)(declare-const b Real)";

#[test]
fn core_and_euclidean_division() {
    let t = |f: &str, a: i64, b: i64| truth(INTS, f, vec![int(a), int(b)]);
    assert_eq!(t("(= (div a b) (- 3))", -7, 3), Truth::True);
    assert_eq!(t("(= (mod a b) 2)", -7, 3), Truth::True);
    assert_eq!(t("(= (div a b) 3)", -7, -3), Truth::True);
    assert_eq!(t("(= (mod a b) 2)", -7, -3), Truth::True);
    assert_eq!(
        t(
            "(and (> a b) (xor (= a 1) (distinct b 0)) (=> (< a 0) false))",
            1,
            0
        ),
        Truth::True
    );
    assert_eq!(
        t("(ite (< a b) (= (abs a) 7) (= (- a) 5))", -7, 0),
        Truth::True
    );
    assert_eq!(t("(< a b 0)", -2, -1), Truth::True);
    assert_eq!(t("(< a b 0)", -2, 1), Truth::False);
}

#[test]
fn division_by_zero_is_existential_and_consistent() {
    let t = |f: &str, a: i64, b: i64| truth(INTS, f, vec![int(a), int(b)]);
    assert_eq!(t("(= (div a 0) 3)", 5, 0), Truth::True);
    assert_eq!(t("(distinct (div a 0) (div a 0))", 5, 0), Truth::False);
    assert_eq!(
        t("(and (< (div a 0) 0) (> (div a 0) 0))", 5, 0),
        Truth::False
    );
    assert_eq!(
        t("(and (< (div a 0) 1) (> (div a 0) 0))", 5, 0),
        Truth::False
    );
    assert_eq!(
        t("(and (= (div a 0) 1) (= (div b 0) 2))", 4, 4),
        Truth::False
    );
    assert_eq!(
        t("(and (= (div a 0) 1) (= (div b 0) 2))", 4, 5),
        Truth::True
    );
    assert_eq!(
        t("(and (= (div a 0) 1) (= (mod a 0) 2))", 4, 5),
        Truth::True
    );
    assert_eq!(t("(= (* (div a 0) (div a 0)) 4)", 1, 1), Truth::True);
    assert_eq!(t("(= (div a (- b b)) (+ (div a 0) 1))", 3, 9), Truth::False);
    // Nested: (div (div a 0) 0) is a function of whatever (div a 0) is.
    assert_eq!(t("(= (div (div a 0) 0) 7)", 3, 0), Truth::True);
    let e = eval_with(INTS, "(= (mod a 0) 3)", vec![int(2), int(0)]);
    assert_eq!(e.choices, vec!["(mod 2 0) = 3".to_string()]);
}

#[test]
fn a_models_interpretation_of_division_by_zero_is_used() {
    let script = Script::parse(&format!("{INTS}(assert (= (div a 0) 4))")).unwrap();
    let params = Script::parse("(declare-const x Int)(declare-const y Int)").unwrap();
    let body = params
        .term(&crate::sexp::read_all("(ite (and (= x 1) (= y 0)) 4 3)").unwrap()[0])
        .unwrap();
    let mut assignment = Assignment::of_values(vec![int(2), int(0)]);
    assignment.interpretations.int_div = Some(Function {
        params: vec![Sort::Int, Sort::Int],
        body,
    });
    let limits = Limits::default();
    assert_eq!(evaluate(&script, &assignment, &limits).truth, Truth::False);
    assignment.values[0] = Binding::Value(int(1));
    assert_eq!(evaluate(&script, &assignment, &limits).truth, Truth::True);
}

#[test]
fn reals_and_transcendentals() {
    let t = |f: &str, a: Value, b: Value| truth(REALS, f, vec![a, b]);
    assert_eq!(
        t("(= (/ a b) (/ 1.0 3.0))", real(1, 2), real(3, 2)),
        Truth::True
    );
    assert_eq!(
        t("(= (/ a 0.0) (/ a 0.0))", real(1, 2), real(0, 1)),
        Truth::True
    );
    assert_eq!(t("(= (/ a b) 7.0)", real(1, 2), real(0, 1)), Truth::True);
    assert_eq!(
        t("(= (sin a) (sin a))", real(1, 1), real(0, 1)),
        Truth::True
    );
    assert_eq!(t("(= (sin a) 0.5)", real(1, 1), real(0, 1)), Truth::False);
    assert_eq!(t("(< (sin a) 0.8415)", real(1, 1), real(0, 1)), Truth::True);
    assert_eq!(t("(> (sin a) 0.8414)", real(1, 1), real(0, 1)), Truth::True);
    assert_eq!(
        t("(= (+ (sin a) (sin (- a))) 0.0)", real(1, 3), real(0, 1)),
        Truth::True
    );
    assert_eq!(
        t("(= (cos a) (cos (- a)))", real(5, 3), real(0, 1)),
        Truth::True
    );
    assert_eq!(
        t("(= (sin a) (cos b))", real(1, 1), real(1, 1)),
        Truth::False
    );
    assert_eq!(t("(= (sin b) 0.0)", real(1, 1), real(0, 1)), Truth::True);
    assert_eq!(t("(< (tan a) 0.0)", real(2, 1), real(0, 1)), Truth::True);
    assert_eq!(
        t("(> (tan a) 1000.0)", real(3141, 2000), real(0, 1)),
        Truth::True
    );
    assert_eq!(
        t("(< (* (sin a) (sin a)) 1.0)", real(1, 1), real(0, 1)),
        Truth::True
    );
    assert_eq!(
        t("(< (sin (sin a)) 0.75)", real(1, 1), real(0, 1)),
        Truth::True
    );
    // sin(1)·sin(1) vs itself: the same sub-term, the same symbol.
    assert_eq!(
        t(
            "(= (* (sin a) (sin a)) (* (sin a) (sin a)))",
            real(1, 1),
            real(0, 1)
        ),
        Truth::True
    );
}

#[test]
fn realints_coerce_and_round() {
    let decls = "(declare-const a Int)(declare-const b Real)";
    let t = |f: &str, a: i64| truth(decls, f, vec![int(a), real(0, 1)]);
    assert_eq!(t("(= (to_int (/ a 2.0)) (- 2))", -3), Truth::True);
    assert_eq!(t("(is_int (/ a 2.0))", -3), Truth::False);
    assert_eq!(t("(is_int a)", -3), Truth::True);
    assert_eq!(t("(< (+ a 0.5) 0.0)", -1), Truth::True);
    assert_eq!(t("(is_int (sin a))", 2), Truth::False);
    assert_eq!(t("(= (to_int (sin a)) 0)", 2), Truth::True);
}

#[test]
fn bit_vectors_follow_smtlib() {
    let decls = "(declare-const a (_ BitVec 64))(declare-const b (_ BitVec 64))";
    let t = |f: &str, a: u64, b: u64| truth(decls, f, vec![Value::bv(64, a), Value::bv(64, b)]);
    assert_eq!(t("(= (bvudiv a b) #xffffffffffffffff)", 5, 0), Truth::True);
    assert_eq!(t("(= (bvurem a b) a)", 5, 0), Truth::True);
    assert_eq!(t("(= (bvneg a) #xffffffffffffffff)", 1, 0), Truth::True);
    assert_eq!(
        t("(= (bv2nat a) 18446744073709551615)", u64::MAX, 0),
        Truth::True
    );
    assert_eq!(t("(= (bvshl a b) #x0000000000000000)", 1, 64), Truth::True);
    assert_eq!(t("(= (bvlshr a b) #x0000000000000001)", 2, 1), Truth::True);
    assert_eq!(t("(bvult a b)", 2, 1), Truth::False);
    assert_eq!(t("(bvslt a b)", u64::MAX, 1), Truth::True);
    let small = "(declare-const a (_ BitVec 4))(declare-const b (_ BitVec 4))";
    let s = |f: &str, a: u64, b: u64| truth(small, f, vec![Value::bv(4, a), Value::bv(4, b)]);
    assert_eq!(s("(= (bvsdiv a b) #xf)", 0b0111, 0), Truth::True);
    assert_eq!(s("(= (bvsdiv a b) #x1)", 0b1001, 0), Truth::True);
    assert_eq!(s("(= (bvsrem a b) #xf)", 0b1001, 0b0011), Truth::True);
    assert_eq!(s("(= (bvsmod a b) #x2)", 0b1001, 0b0011), Truth::True);
    assert_eq!(s("(= (bvashr a b) #xf)", 0b1000, 7), Truth::True);
}

#[test]
fn arrays_store_select_and_extensionality() {
    let decls =
        "(declare-const a (Array (_ BitVec 64) (_ BitVec 64)))(declare-const b (_ BitVec 64))";
    let sort = Sort::array(Sort::BitVec(64), Sort::BitVec(64));
    let zero = crate::value::ArrayValue::constant(sort, Value::bv(64, 0));
    let a = Value::Array(std::sync::Arc::new(
        zero.store(Value::bv(64, 1), Value::bv(64, 7)),
    ));
    let t = |f: &str, b: u64| truth(decls, f, vec![a.clone(), Value::bv(64, b)]);
    assert_eq!(t("(= (select a b) #x0000000000000007)", 1), Truth::True);
    assert_eq!(t("(= (store a b (select a b)) a)", 5), Truth::True);
    assert_eq!(t("(= (store a b #x0000000000000000) a)", 1), Truth::False);
    assert_eq!(
        t("(distinct (store a b #x0000000000000000) a)", 2),
        Truth::False
    );
    assert_eq!(
        t(
            "(= a ((as const (Array (_ BitVec 64) (_ BitVec 64))) #x0000000000000000))",
            2
        ),
        Truth::False
    );
}

#[test]
fn floating_point_min_of_zeros_is_either() {
    let decls =
        "(declare-const a (_ FloatingPoint 11 53))(declare-const b (_ FloatingPoint 11 53))";
    let t = |f: &str| {
        truth(
            decls,
            f,
            vec![Value::Fp(Float64::POS_ZERO), Value::Fp(Float64::NEG_ZERO)],
        )
    };
    assert_eq!(t("(fp.isNegative (fp.min a b))"), Truth::True);
    assert_eq!(t("(fp.isPositive (fp.min a b))"), Truth::True);
    assert_eq!(t("(distinct (fp.min a b) (fp.min a b))"), Truth::False);
    assert_eq!(
        t("(and (fp.isNegative (fp.min a b)) (fp.isPositive (fp.min b a)))"),
        Truth::True
    );
    assert_eq!(t("(fp.isNaN (fp.min a b))"), Truth::False);
    assert_eq!(t("(fp.eq (fp.add RNE a b) a)"), Truth::True);
    assert_eq!(t("(= (fp.add RTN a a) b)"), Truth::False);
}

#[test]
fn strings_and_regular_expressions() {
    let decls = "(declare-const a String)(declare-const b String)";
    let s = |t: &str| Value::Str(SmtString::from_text(t).unwrap());
    let t = |f: &str, a: &str, b: &str| truth(decls, f, vec![s(a), s(b)]);
    assert_eq!(
        t(
            "(str.in_re (str.++ a b) (re.+ (str.to_re \"a\")))",
            "aa",
            "a"
        ),
        Truth::True
    );
    assert_eq!(
        t("(str.in_re a (re.comp (re.* re.allchar)))", "", ""),
        Truth::False
    );
    assert_eq!(t("(= (str.to_int a) (- 1))", "", ""), Truth::True);
    assert_eq!(t("(= (str.indexof a b 1) 2)", "aba", "a"), Truth::True);
    assert_eq!(t("(str.<= a b)", "", ""), Truth::True);
}

#[test]
fn explanations_name_the_false_part() {
    let e = eval_with(
        INTS,
        "(and (> a 0) (not (or (= b 1) (= (div a b) 1))))",
        vec![int(3), int(3)],
    );
    assert_eq!(e.truth, Truth::False);
    assert_eq!(
        e.explanation.as_deref(),
        Some("(not (= (div a b) 1)) where (div a b) = 1")
    );
    let e = eval_with(INTS, "(and (> a 0) (= (+ a b) 1))", vec![int(3), int(3)]);
    assert_eq!(
        e.explanation.as_deref(),
        Some("(= (+ a b) 1) where (+ a b) = 6")
    );
}

#[test]
fn missing_values_and_algebraic_numbers_are_undetermined() {
    let script = Script::parse(&format!("{REALS}(assert (> (* a a) b))")).unwrap();
    let assignment = Assignment {
        values: vec![
            Binding::Undetermined("algebraic number".into()),
            Binding::Value(real(1, 1)),
        ],
        interpretations: Interpretations::default(),
    };
    assert!(
        matches!(evaluate(&script, &assignment, &Limits::default()).truth, Truth::Undetermined(r) if r.contains("algebraic"))
    );
    // A value that does not matter leaves the result determined.
    let script = Script::parse(&format!("{REALS}(assert (or (> b 0.0) (> a 1.0)))")).unwrap();
    assert_eq!(
        evaluate(&script, &assignment, &Limits::default()).truth,
        Truth::True
    );
}

#[test]
fn nested_division_by_zero_is_decided_exactly() {
    let t = |decls: &str, f: &str, a: Value| truth(decls, f, vec![a.clone(), a]);
    // A dividend that holds a division by zero: (div 0 0) = 9 satisfies both.
    let nested = "(and (> (div a 0) 0) (= (div (ite (> (div a 0) 0) a 2) 0) 9))";
    assert_eq!(t(INTS, nested, int(0)), Truth::True);
    let literal = "(and (> (div 1 0) 0) (= (div (ite (> (div 1 0) 0) 1 2) 0) 9))";
    assert_eq!(t(INTS, literal, int(1)), Truth::True);
    let modulo = "(and (> (mod a 0) 0) (= (mod (ite (> (mod a 0) 0) a 2) 0) 9))";
    assert_eq!(t(INTS, modulo, int(0)), Truth::True);
    let reals = "(and (> (/ a 0.0) 0.0) (= (/ (ite (> (/ a 0.0) 0.0) a 2.0) 0.0) 9.0))";
    assert_eq!(t(REALS, reals, real(0, 1)), Truth::True);
    // With a = 2 the ite's branches agree and (div 2 0) ≠ (div 0 0) is allowed...
    assert_eq!(t(INTS, nested, int(2)), Truth::True);
    // ...but not when both must be the same application with different values.
    assert_eq!(
        t(
            INTS,
            "(and (= (div a 0) 1) (= (div (div a 0) 0) 2))",
            int(1)
        ),
        Truth::False
    );
    assert_eq!(
        t(
            INTS,
            "(and (= (div 1 0) 1) (= (div (div 1 0) 0) 2))",
            int(7)
        ),
        Truth::False
    );
    // A square is never negative.
    assert_eq!(
        t(INTS, "(< (* (div a 0) (div a 0)) 0)", int(5)),
        Truth::False
    );
    assert_eq!(
        t(REALS, "(< (* (/ a 0.0) (/ a 0.0)) 0.0)", real(1, 2)),
        Truth::False
    );
    // to_int of an unknown real: (/ p 0.0) = 3.7 would do.
    let e = eval_with(
        REALS,
        "(and (= (to_int (/ a 0.0)) 3) (> (/ a 0.0) 3.5))",
        vec![real(0, 1), real(0, 1)],
    );
    assert_eq!(e.truth, Truth::True);
    assert_eq!(
        t(
            REALS,
            "(and (= (to_int (/ a 0.0)) 3) (> (/ a 0.0) 4.0))",
            real(0, 1)
        ),
        Truth::False
    );
    // An unknown the search cannot follow (into sin) is still tried with small values.
    assert_eq!(t(REALS, "(= 0.0 (sin (/ a 0.0)))", real(1, 1)), Truth::True);
    assert!(matches!(
        t(REALS, "(= 0.5 (sin (/ a 0.0)))", real(1, 1)),
        Truth::Undetermined(_)
    ));
    // (_ char #x41) is the one-character string "A".
    assert_eq!(
        t(
            REALS,
            "(= (str.++ (_ char #x41) (_ char #x62)) \"Ab\")",
            real(1, 1)
        ),
        Truth::True
    );
    // (_ divisible n), also of an unknown.
    assert_eq!(t(INTS, "((_ divisible 3) (+ a 3))", int(6)), Truth::True);
    assert_eq!(t(INTS, "((_ divisible 4) a)", int(6)), Truth::False);
    assert_eq!(
        t(
            INTS,
            "(and ((_ divisible 2) (div a 0)) (= (mod (div a 0) 4) 1))",
            int(6)
        ),
        Truth::False
    );
    assert_eq!(
        t(
            INTS,
            "(and ((_ divisible 2) (div a 0)) (= (mod (div a 0) 4) 2))",
            int(6)
        ),
        Truth::True
    );
    // Integrality: 2·(div a 0) = 1 has no solution; is_int of a quotient.
    assert_eq!(t(INTS, "(= (* 2 (div a 0)) 1)", int(3)), Truth::False);
    assert_eq!(
        t(INTS, "(= (div (div a 0) 2) (div (div a 0) 3))", int(3)),
        Truth::True
    );
    assert_eq!(
        t(
            INTS,
            "(and (= (mod (div a 0) 2) 1) (= (div a 0) (* 2 (div b 0))))",
            int(3)
        ),
        Truth::False
    );
    assert_eq!(
        t(
            REALS,
            "(and (is_int (/ a 0.0)) (< 0.0 (/ a 0.0) 1.0))",
            real(1, 1)
        ),
        Truth::False
    );
    // A divisor that is itself a division by zero.
    assert_eq!(
        t(
            INTS,
            "(and (= (div a 0) 0) (not (= (div 7 (div a 0)) (div 7 0))))",
            int(1)
        ),
        Truth::False
    );
    // Dividends that are equal on one path and not on another.
    let two = |f: &str| truth(INTS, f, vec![int(1), int(2)]);
    assert_eq!(
        two("(and (= (div (div a 0) 0) 5) (= (div (div b 0) 0) 6))"),
        Truth::True
    );
    assert_eq!(
        two("(and (= (div (div a 0) 0) 5) (= (div (div b 0) 0) 6) (= (div a 0) (div b 0)))"),
        Truth::False
    );
    assert_eq!(
        two("(and (= (div (div a 0) 0) 5) (= (div (div b 0) 0) 6) (= (div a 0) (+ (div b 0) 1)))"),
        Truth::True
    );
}

#[test]
fn every_bit_vector_operator_at_any_width() {
    let t = |f: &str| truth("(declare-const a Bool)", f, vec![Value::Bool(true)]);
    for f in [
        "(= ((_ extract 7 4) #xab) #xa)",
        "(= ((_ extract 0 0) #xab) #b1)",
        "(= (concat #xa #b01) #b101001)",
        "(= ((_ zero_extend 4) #xf) #x0f)",
        "(= ((_ sign_extend 4) #xf) #xff)",
        "(= ((_ sign_extend 4) #x7) #x07)",
        "(= ((_ repeat 3) #b10) #b101010)",
        "(= ((_ rotate_left 1) #b1000) #b0001)",
        "(= ((_ rotate_right 1) #b0001) #b1000)",
        "(= ((_ rotate_left 5) #b1000) #b0001)",
        "(= ((_ rotate_left 0) #b1000) #b1000)",
        "(= (bvcomp #x1 #x1) #b1)",
        "(= (bvcomp #x1 #x2) #b0)",
        "(= (bvnand #xc #xa) #x7)",
        "(= (bvnor #xc #xa) #x1)",
        "(= (bvxnor #xc #xa) #x9)",
        "(= ((_ int2bv 4) (- 1)) #xf)",
        "(= (bv2nat ((_ int2bv 8) 300)) 44)",
        "(= (bvadd #xffffffffffffffffffffffffffffffff #x00000000000000000000000000000001) #x00000000000000000000000000000000)",
        "(bvslt ((_ sign_extend 64) #x8000000000000000) #x00000000000000000000000000000000)",
        "(= (bvmul ((_ zero_extend 64) #xffffffffffffffff) ((_ zero_extend 64) #xffffffffffffffff)) #xfffffffffffffffe0000000000000001)",
        "(= (bvudiv #x00000000000000000000000000000007 #x00000000000000000000000000000000) #xffffffffffffffffffffffffffffffff)",
        "(= (bvashr #x80000000000000000000000000000000 #x00000000000000000000000000000080) #xffffffffffffffffffffffffffffffff)",
        "(= (bvsmod (_ bv251 8) (_ bv3 8)) (_ bv1 8))",
        "(= ((_ extract 129 2) ((_ repeat 65) #b11)) ((_ repeat 64) #b11))",
    ] {
        assert_eq!(t(f), Truth::True, "{f}");
    }
    assert_eq!(t("(= ((_ extract 7 4) #xab) #xb)"), Truth::False);
}

#[test]
fn floating_point_of_every_format_and_the_conversions() {
    let t = |decls: &str, f: &str, values: Vec<Value>| truth(decls, f, values);
    let none = |f: &str| t("(declare-const p Bool)", f, vec![Value::Bool(true)]);
    for f in [
        // Float32: 0.1 rounds to 0x3dcccccd; back to real exactly.
        "(= ((_ to_fp 8 24) RNE 0.1) (fp #b0 #x7b #b10011001100110011001101))",
        "(= (fp.to_real ((_ to_fp 8 24) RNE 0.5)) 0.5)",
        "(= (fp.to_real ((_ to_fp 8 24) RTZ (/ 1.0 3.0))) (/ 11184810.0 33554432.0))",
        // Float16 overflow and its largest finite.
        "(fp.isInfinite ((_ to_fp 5 11) RNE 65520.0))",
        "(= (fp.to_real ((_ to_fp 5 11) RTZ 65520.0)) 65504.0)",
        "(fp.isSubnormal ((_ to_fp 5 11) RNE (/ 1.0 16777216.0)))",
        // Between formats, from bits, from signed and unsigned bit-vectors.
        "(= ((_ to_fp 11 53) RNE ((_ to_fp 8 24) RNE 0.1)) ((_ to_fp 11 53) RNE 0.100000001490116119384765625))",
        "(= ((_ to_fp 8 24) #x3f800000) ((_ to_fp 8 24) RNE 1.0))",
        "(= ((_ to_fp 8 24) RNE #xff) ((_ to_fp 8 24) RNE (- 1.0)))",
        "(= ((_ to_fp_unsigned 8 24) RNE #xff) ((_ to_fp 8 24) RNE 255.0))",
        // fp.to_sbv / fp.to_ubv in range.
        "(= ((_ fp.to_sbv 8) RTZ ((_ to_fp 8 24) RNE (- 3.7))) #xfd)",
        "(= ((_ fp.to_sbv 8) RNE ((_ to_fp 8 24) RNE (- 3.5))) #xfc)",
        "(= ((_ fp.to_ubv 4) RTP ((_ to_fp 5 11) RNE 2.25)) #x3)",
        // Arithmetic in Float16 and Float128.
        "(= (fp.add RNE ((_ to_fp 5 11) RNE 1.0) ((_ to_fp 5 11) RNE (/ 1.0 4096.0))) ((_ to_fp 5 11) RNE 1.0))",
        "(fp.lt ((_ to_fp 15 113) RNE 1.0) (fp.add RNE ((_ to_fp 15 113) RNE 1.0) ((_ to_fp 15 113) RNE (/ 1.0 4096.0))))",
        "(= (fp.sqrt RNE ((_ to_fp 8 24) RNE 4.0)) ((_ to_fp 8 24) RNE 2.0))",
        "(fp.isNaN (fp.sqrt RNE ((_ to_fp 8 24) RNE (- 4.0))))",
        "(= (fp.rem ((_ to_fp 8 24) RNE 5.0) ((_ to_fp 8 24) RNE 2.0)) ((_ to_fp 8 24) RNE 1.0))",
        "(fp.isNegative (fp.roundToIntegral RNE ((_ to_fp 8 24) RNE (- 0.3))))",
        "(= (_ +zero 8 24) (fp #b0 #x00 #b00000000000000000000000))",
        "(not (= (_ +zero 8 24) (_ -zero 8 24)))",
        "(fp.eq (_ +zero 8 24) (_ -zero 8 24))",
        "(= (_ NaN 5 11) (fp #b1 #b11111 #b0000000001))",
        // Unspecified: fp.to_real of ∞ is some real, the same each time.
        "(= (fp.to_real (_ +oo 8 24)) 7.5)",
        "(= (fp.to_real (_ +oo 8 24)) (fp.to_real (_ +oo 8 24)))",
        // fp.to_ubv of NaN: some bit-vector, the same each time.
        "(= ((_ fp.to_ubv 8) RNE (_ NaN 8 24)) #x2a)",
        "(= ((_ fp.to_sbv 4) RTZ ((_ to_fp 8 24) RNE 100.0)) #x7)",
        // fp.min of zeros of another format: either.
        "(fp.isNegative (fp.min (_ +zero 8 24) (_ -zero 8 24)))",
    ] {
        assert_eq!(none(f), Truth::True, "{f}");
    }
    for f in [
        "(and (= (fp.to_real (_ +oo 8 24)) 1.0) (= (fp.to_real (_ +oo 8 24)) 2.0))",
        "(distinct ((_ fp.to_ubv 8) RNE (_ NaN 8 24)) ((_ fp.to_ubv 8) RNE (_ NaN 8 24)))",
        "(fp.isNegative ((_ to_fp 8 24) RNE 0.0))",
        "(= ((_ fp.to_sbv 8) RTZ ((_ to_fp 8 24) RNE (- 3.7))) #xfc)",
    ] {
        assert_eq!(none(f), Truth::False, "{f}");
    }
    // Constants of Float32 from a model.
    let x = Value::Float(crate::fp::generic::Fp::from_rational(
        8,
        24,
        &BigRational::new(BigInt::from(3), BigInt::from(2)),
        crate::fp::RoundingMode::Rne,
    ));
    assert_eq!(
        t(
            "(declare-const x Float32)",
            "(= (fp.to_real x) 1.5)",
            vec![x]
        ),
        Truth::True
    );
}

#[test]
fn scripts_with_let_names_definitions_and_scopes() {
    let eval = |text: &str, values: Vec<Value>| {
        let script = Script::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        evaluate(&script, &Assignment::of_values(values), &Limits::default()).truth
    };
    let a = || vec![int(3)];
    let decl = "(declare-const a Int)";
    // let: parallel bindings, shadowing, Int→Real coercion inside.
    assert_eq!(
        eval(
            &format!("{decl}(assert (let ((x (+ a 1)) (a 10)) (= (* x a) 40)))"),
            a()
        ),
        Truth::True
    );
    assert_eq!(
        eval(
            &format!("{decl}(assert (let ((x a)) (let ((x (* x 2))) (= x 6))))"),
            a()
        ),
        Truth::True
    );
    // Named terms are usable afterwards.
    assert_eq!(
        eval(&format!("{decl}(assert (! (> a 2) :named big))(assert (and big (not (! (> a 5) :named huge))))(assert (not huge))"), a()),
        Truth::True
    );
    // define-fun with and without parameters, calling each other.
    let defs = "(define-fun sq ((x Int)) Int (* x x))(define-fun ten () Int 10)(define-fun near ((x Int) (y Real)) Bool (< (abs (- x y)) 1.0))";
    assert_eq!(
        eval(
            &format!("{decl}{defs}(assert (= (sq a) (- ten 1)))(assert (near (sq 1) 1.5))"),
            a()
        ),
        Truth::True
    );
    assert_eq!(
        eval(&format!("{decl}{defs}(assert (= (sq (sq a)) ten))"), a()),
        Truth::False
    );
    // push/pop: the formula is what the first check-sat asks about.
    assert_eq!(
        eval(&format!("{decl}(push 1)(assert (= a 4))(pop 1)(assert (= a 3))(check-sat)(push)(assert false)(check-sat)"), a()),
        Truth::True
    );
    assert_eq!(
        eval(
            &format!("{decl}(push 2)(assert (= a 4))(check-sat)(pop 2)"),
            a()
        ),
        Truth::False
    );
    // check-sat-assuming: the assumptions count for that check.
    assert_eq!(
        eval(
            &format!("{decl}(declare-const p Bool)(check-sat-assuming (p (> a 5)))"),
            vec![int(3), Value::Bool(true)]
        ),
        Truth::False
    );
    assert_eq!(
        eval(
            &format!("{decl}(declare-const p Bool)(check-sat-assuming (p (not (> a 5))))"),
            vec![int(3), Value::Bool(true)]
        ),
        Truth::True
    );
    for bad in [
        "(declare-const a Int)(pop 1)",
        "(declare-const a Int)(define-fun f ((x Int)) Int (+ x y))",
        "(declare-const a Int)(define-fun f ((x Int)) Int x)(assert (= (f a a) 1))",
        "(declare-const a Int)(assert (let ((x)) true))",
    ] {
        assert!(Script::parse(bad).is_err(), "{bad}");
    }
}

/// A model's function: name, parameters (name, sort), result sort, body.
type Def<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str, &'a str);

/// The assignment of the constants `values` with the functions `functions`.
fn with_functions(values: Vec<Value>, functions: &[Def<'_>]) -> Assignment {
    let mut assignment = Assignment::of_values(values);
    for (name, params, sort, body) in functions {
        let decls: Vec<crate::script::Decl> = params
            .iter()
            .map(|(p, s)| crate::script::Decl {
                name: (*p).into(),
                sort: Sort::parse(&crate::sexp::read_all(s).unwrap()[0]).unwrap(),
            })
            .collect();
        let parsed = Script {
            decls: decls.clone(),
            assertions: Vec::new(),
        }
        .term(&crate::sexp::read_all(body).unwrap()[0])
        .unwrap();
        assert_eq!(parsed.sort.to_string(), *sort);
        assignment.interpretations.uninterpreted.insert(
            name.to_string(),
            Ok(Function {
                params: decls.into_iter().map(|d| d.sort).collect(),
                body: parsed,
            }),
        );
    }
    assignment
}

#[test]
fn uninterpreted_functions_take_the_models_definitions() {
    let decls = "(declare-fun f (Int) Int)(declare-fun g (Int Int) Int)(declare-fun p (Int) Bool)(declare-const a Int)";
    let script = Script::parse(&format!(
        "{decls}(assert (= (f a) 4))(assert (= (g a (f a)) 7))(assert (p (g 0 0)))"
    ))
    .unwrap();
    let f: Def = ("f", &[("x", "Int")], "Int", "(* 2 x)");
    let g: Def = (
        "g",
        &[("x", "Int"), ("y", "Int")],
        "Int",
        "(ite (and (= x 2) (= y 4)) 7 (- x y))",
    );
    let p: Def = ("p", &[("x", "Int")], "Bool", "(<= x 0)");
    let full = with_functions(vec![int(2)], &[f, g, p]);
    assert_eq!(
        evaluate(&script, &full, &Limits::default()).truth,
        Truth::True
    );
    // a = 3: (f a) = 6.
    let e = evaluate(
        &script,
        &with_functions(vec![int(3)], &[f, g, p]),
        &Limits::default(),
    );
    assert_eq!(e.truth, Truth::False);
    assert_eq!(
        e.explanation.as_deref(),
        Some("(= (f a) 4) where (f a) = 6")
    );
    // Without p: undetermined, naming it.
    let e = evaluate(
        &script,
        &with_functions(vec![int(2)], &[f, g]),
        &Limits::default(),
    );
    assert!(
        matches!(&e.truth, Truth::Undetermined(r) if r.contains("does not define the function 'p'")),
        "{:?}",
        e.truth
    );
    // Without p but false elsewhere: false (p does not matter then).
    let e = evaluate(
        &script,
        &with_functions(vec![int(3)], &[f, g]),
        &Limits::default(),
    );
    assert_eq!(e.truth, Truth::False);
    // An argument that is an unspecified result: true only with a value chosen for
    // it (and checked), never by a guess.
    let script = Script::parse(&format!("{decls}(assert (p (div a 0)))")).unwrap();
    let e = evaluate(
        &script,
        &with_functions(vec![int(2)], &[p]),
        &Limits::default(),
    );
    assert_eq!(e.truth, Truth::True);
    assert_eq!(e.choices, ["(div 2 0) = 0"]);
    let script = Script::parse(&format!(
        "{decls}(assert (and (p (div a 0)) (not (p (div a 0)))))"
    ))
    .unwrap();
    let e = evaluate(
        &script,
        &with_functions(vec![int(2)], &[p]),
        &Limits::default(),
    );
    assert_ne!(e.truth, Truth::True);
}

#[test]
fn smtlib_2_7_conversion_names() {
    let bvs = "(declare-const x (_ BitVec 8))(declare-const y (_ BitVec 4))";
    let t = |f: &str, x: u64, y: u64| truth(bvs, f, vec![Value::bv(8, x), Value::bv(4, y)]);
    assert_eq!(t("(= (ubv_to_int x) 253)", 0xfd, 0), Truth::True);
    assert_eq!(t("(= (ubv_to_int x) (bv2nat x))", 0xfd, 0), Truth::True);
    assert_eq!(t("(= (sbv_to_int x) (- 3))", 0xfd, 0), Truth::True);
    assert_eq!(t("(= (sbv_to_int x) (- 128))", 0x80, 0), Truth::True);
    assert_eq!(t("(= (sbv_to_int x) 127)", 0x7f, 0), Truth::True);
    assert_eq!(t("(= (sbv_to_int y) 0)", 0, 0), Truth::True);
    // int_to_bv is int2bv: the integer modulo 2^n, also for negative integers
    // (SMT-LIB 2.7; z3 5.4.1 and cvc5 1.4.2 agree: (- 3) is #xd in 4 bits).
    assert_eq!(t("(= ((_ int_to_bv 4) (- 3)) y)", 0, 0xd), Truth::True);
    assert_eq!(t("(= ((_ int2bv 4) (- 19)) y)", 0, 0xd), Truth::True);
    assert_eq!(
        t("(= ((_ int_to_bv 8) (sbv_to_int x)) x)", 0x9c, 0),
        Truth::True
    );
    assert_eq!(t("(= ((_ int_to_bv 4) 16) y)", 0, 0), Truth::True);
    // The names print as the older ones solvers of every version know, except
    // sbv_to_int, which has none.
    let script = Script::parse(&format!(
        "{bvs}(assert (= ((_ int_to_bv 4) (ubv_to_int x)) ((_ int2bv 4) (sbv_to_int x))))"
    ))
    .unwrap();
    assert_eq!(
        script.assertions[0].to_string(),
        "(= ((_ int2bv 4) (bv2nat x)) ((_ int2bv 4) (sbv_to_int x)))"
    );
    assert!(Script::parse("(assert (= (sbv_to_int 1) 1))").is_err());
    // z3 5.4.1's and cvc5 1.4.2's models of the same conversions.
    let script = Script::parse(&format!(
        "{bvs}(assert (= (sbv_to_int x) (- 3)))(assert (= (ubv_to_int x) 253))(assert (= ((_ int_to_bv 4) (- 3)) y))(assert (= ((_ int2bv 4) (- 19)) y))"
    ))
    .unwrap();
    for model in [
        "sat\n(\n  (define-fun y () (_ BitVec 4)\n    #xd)\n  (define-fun x () (_ BitVec 8)\n    #xfd)\n)\n",
        "sat\n(\n(define-fun x () (_ BitVec 8) #b11111101)\n(define-fun y () (_ BitVec 4) #b1101)\n)\n",
    ] {
        assert_eq!(
            crate::check::check_model(&script, model, crate::model::ModelDialect::default()),
            crate::check::ModelCheck::Valid
        );
    }
}
