//! A bounded, deterministic search for an assignment that makes a formula true.
//!
//! Each constant gets a short list of small values of its sort (integers −4..4, a few
//! rationals, bit-vector corner cases, short strings over the formula's own
//! characters, floating-point specials, constant arrays with at most one store,
//! datatype values nesting constructors at most two deep), with the formula's own
//! literals mixed in; assignments are tried smallest first (by the largest position in
//! any list). A witness is returned only when evaluation says *true*, so a witness is
//! a proof of satisfiability: a quantifier counts only when its verdict is exact (a
//! finite domain walked, or an `exists`' instance found), never a bounded search's
//! undetermined one. Formulas with uninterpreted functions get no witness (the search
//! assigns constants only).

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;

use crate::datatype;
use crate::eval::{evaluate, Assignment, Evaluation, Limits, Truth};
use crate::fp::generic::Fp;
use crate::fp::{Float64, RoundingMode};
use crate::script::Script;
use crate::sort::Sort;
use crate::string::SmtString;
use crate::term::TermKind;
use crate::value::{bv_mask_big, ArrayValue, Value};

/// How far the search goes.
#[derive(Debug, Clone, Copy)]
pub struct WitnessBound {
    /// Values tried per constant (the first ones of its sort's list).
    pub values_per_constant: usize,
    /// Most assignments evaluated in all.
    pub max_assignments: usize,
}

impl Default for WitnessBound {
    fn default() -> Self {
        WitnessBound {
            values_per_constant: 9,
            max_assignments: 200,
        }
    }
}

impl WitnessBound {
    /// Every combination of the first `values` values of each constant's sort (up to
    /// eight constants' worth: `values^min(constants, 8)` assignments): the search of
    /// `et eval --witness --bound N` and `et run --witness-bound N`.
    pub fn exhaustive(values: usize, constants: usize) -> WitnessBound {
        WitnessBound {
            values_per_constant: values,
            max_assignments: values.saturating_pow(constants.min(8) as u32).max(1),
        }
    }
}

/// A satisfying assignment and its evaluation (always [`Truth::True`]).
#[derive(Debug, Clone)]
pub struct Witness {
    /// One value per declared constant.
    pub values: Vec<Value>,
    /// The evaluation that made it a witness (with any division-by-zero choices).
    pub evaluation: Evaluation,
}

impl Witness {
    /// The witness as SMT-LIB `define-fun`s, one per constant.
    pub fn to_smtlib(&self, script: &Script) -> String {
        script
            .decls
            .iter()
            .zip(&self.values)
            .map(|(d, v)| format!("(define-fun {} () {} {v})\n", d.name, d.sort))
            .collect()
    }
}

/// Searches for a witness within `bound`. A formula that applies an uninterpreted
/// function gets none: a witness gives values to constants only, and the search
/// does not choose interpretations of functions.
pub fn find_witness(script: &Script, bound: &WitnessBound) -> Option<Witness> {
    if !script.functions().is_empty() {
        return None;
    }
    let literals = Literals::of(script);
    let lists: Vec<Vec<Value>> = script
        .decls
        .iter()
        .map(|d| {
            let mut list = candidates(&d.sort, &literals);
            list.truncate(bound.values_per_constant.max(1));
            list
        })
        .collect();
    if lists.iter().any(Vec::is_empty) {
        return None;
    }
    // A candidate that needs more than the first precision is skipped: another one
    // is likelier to be quick than this one to be decided. Likewise one whose
    // quantifiers need more than a few thousand instances (12-bit domains): the
    // search evaluates up to `max_assignments` candidates.
    let limits = Limits {
        evaluations: 32,
        precisions: 1,
        explain: false,
        instances: WITNESS_INSTANCES,
    };
    let mut tried = 0;
    let widest = lists.iter().map(Vec::len).max().unwrap_or(0);
    // Rank r: every assignment whose largest position is r, so small values go first.
    for r in 0..widest.max(1) {
        let mut positions = vec![0usize; lists.len()];
        loop {
            if positions.contains(&r) || lists.is_empty() {
                if tried >= bound.max_assignments {
                    return None;
                }
                tried += 1;
                let values: Vec<Value> = positions
                    .iter()
                    .zip(&lists)
                    .map(|(&p, l)| l[p].clone())
                    .collect();
                let evaluation = evaluate(script, &Assignment::of_values(values.clone()), &limits);
                if evaluation.truth == Truth::True {
                    return Some(Witness { values, evaluation });
                }
            }
            if lists.is_empty() || !advance(&mut positions, &lists, r) {
                break;
            }
        }
    }
    None
}

/// How many quantifier bodies the evaluation of one candidate assignment may evaluate.
const WITNESS_INSTANCES: usize = 1 << 12;

/// The next tuple of positions with every position ≤ r (odometer, last fastest).
fn advance(positions: &mut [usize], lists: &[Vec<Value>], r: usize) -> bool {
    for i in (0..positions.len()).rev() {
        let top = r.min(lists[i].len() - 1);
        if positions[i] < top {
            positions[i] += 1;
            return true;
        }
        positions[i] = 0;
    }
    false
}

/// Literals of the formula, to try near them.
#[derive(Default)]
struct Literals {
    ints: Vec<BigInt>,
    reals: Vec<BigRational>,
    bvs: Vec<(u32, BigUint)>,
    chars: Vec<u32>,
    floats: Vec<Float64>,
    generic_floats: Vec<Fp>,
}

impl Literals {
    fn of(script: &Script) -> Literals {
        let mut l = Literals::default();
        for a in &script.assertions {
            a.for_each(&mut |t| {
                if let TermKind::Lit(v) = &t.kind {
                    match v {
                        Value::Int(n) => l.ints.push(n.clone()),
                        Value::Real(q) => l.reals.push(q.clone()),
                        Value::BitVec { width, bits } => l.bvs.push((*width, bits.clone())),
                        Value::Str(s) => l.chars.extend(s.code_points()),
                        Value::Fp(x) => l.floats.push(*x),
                        Value::Float(x) => l.generic_floats.push(x.clone()),
                        _ => {}
                    }
                }
            });
        }
        l
    }
}

fn push_unique(list: &mut Vec<Value>, v: Value) {
    if !list
        .iter()
        .any(|x| x.smt_eq(&v) && x.sort() == v.sort() && x.to_string() == v.to_string())
    {
        list.push(v);
    }
}

/// Small values of a sort, most interesting first.
fn candidates(sort: &Sort, lits: &Literals) -> Vec<Value> {
    match sort {
        Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Sort::Int => int_candidates(lits),
        Sort::Real => real_candidates(lits),
        Sort::BitVec(w) => bitvector_candidates(*w, lits),
        Sort::Float64 => float64_candidates(lits),
        Sort::Float(eb, sb) => float_candidates(*eb, *sb, lits),
        Sort::RoundingMode => RoundingMode::ALL.map(Value::Rm).to_vec(),
        Sort::String => string_candidates(lits),
        Sort::Array(parts) => array_candidates(sort, &parts.0, &parts.1, lits),
        Sort::Datatype(d) => datatype::small_values(d, 2, 3, 32, &|s| candidates(s, lits)),
        Sort::RegLan => Vec::new(),
    }
}

/// −4..4, then one past each integer literal.
fn int_candidates(lits: &Literals) -> Vec<Value> {
    let mut list = Vec::new();
    for n in [0, 1, -1, 2, -2, 3, -3, 4, -4] {
        push_unique(&mut list, Value::Int(BigInt::from(n)));
    }
    for n in &lits.ints {
        push_unique(&mut list, Value::Int(n + 1));
    }
    list
}

fn rational(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Small integers, halves and a third, then each real literal plus a half.
fn real_candidates(lits: &Literals) -> Vec<Value> {
    let mut list = Vec::new();
    for (n, d) in [
        (0, 1),
        (1, 1),
        (-1, 1),
        (1, 2),
        (-1, 2),
        (2, 1),
        (-2, 1),
        (1, 3),
        (3, 2),
        (-3, 2),
    ] {
        push_unique(&mut list, Value::Real(rational(n, d)));
    }
    for r in &lits.reals {
        push_unique(&mut list, Value::Real(r + rational(1, 2)));
    }
    list
}

/// Corner cases of width `w` (zero, one, all ones, the sign bit, ...), then the
/// literals of that width and their neighbours.
fn bitvector_candidates(w: u32, lits: &Literals) -> Vec<Value> {
    let mut list = Vec::new();
    let mask = bv_mask_big(w);
    let modulus = &mask + BigUint::from(1u8);
    let sign = BigUint::from(1u8) << (w - 1) as usize;
    let small = |n: u8| BigUint::from(n);
    for bits in [
        small(0),
        small(1),
        mask.clone(),
        small(2),
        sign.clone(),
        &sign + &mask,
        &mask + &mask,
        small(3),
    ] {
        push_unique(&mut list, Value::bv_big(w, bits));
    }
    for (lw, bits) in &lits.bvs {
        if *lw == w {
            for b in [bits.clone(), bits + small(1), bits + &mask, &mask ^ bits] {
                push_unique(&mut list, Value::bv_big(w, b % &modulus));
            }
        }
    }
    list
}

/// The zeros, ±1, the infinities, NaN and the extremes, then the literals.
fn float64_candidates(lits: &Literals) -> Vec<Value> {
    let mut list = Vec::new();
    for x in [
        Float64::POS_ZERO,
        Float64::NEG_ZERO,
        Float64::from_f64(1.0),
        Float64::from_f64(-1.0),
        Float64::POS_INFINITY,
        Float64::NEG_INFINITY,
        Float64::NAN,
        Float64::MIN_POSITIVE_SUBNORMAL,
        Float64::MAX,
        Float64::from_f64(0.5),
        Float64::from_f64(2.0),
        -Float64::MIN_POSITIVE_SUBNORMAL,
        -Float64::MAX,
    ] {
        push_unique(&mut list, Value::Fp(x));
    }
    for x in &lits.floats {
        push_unique(&mut list, Value::Fp(*x));
    }
    list
}

/// As [`float64_candidates`], in the format (`eb`, `sb`).
fn float_candidates(eb: u32, sb: u32, lits: &Literals) -> Vec<Value> {
    let mut list = Vec::new();
    let number = |v: BigRational| Value::Float(Fp::from_rational(eb, sb, &v, RoundingMode::Rne));
    let tiny = Fp::from_bits(eb, sb, BigUint::from(1u8));
    for v in [
        Value::Float(Fp::zero(eb, sb, false)),
        Value::Float(Fp::zero(eb, sb, true)),
        number(rational(1, 1)),
        number(rational(-1, 1)),
        Value::Float(Fp::infinity(eb, sb, false)),
        Value::Float(Fp::infinity(eb, sb, true)),
        Value::Float(Fp::nan(eb, sb)),
        Value::Float(tiny.clone()),
        Value::Float(Fp::max_finite(eb, sb, false)),
        number(rational(1, 2)),
        number(rational(2, 1)),
        Value::Float(tiny.neg()),
        Value::Float(Fp::max_finite(eb, sb, true)),
    ] {
        push_unique(&mut list, v);
    }
    for x in &lits.generic_floats {
        if (x.eb, x.sb) == (eb, sb) {
            push_unique(&mut list, Value::Float(x.clone()));
        }
    }
    list
}

/// The empty string, then strings of one and two characters over the formula's own
/// characters and `a`, `0`.
fn string_candidates(lits: &Literals) -> Vec<Value> {
    let mut list = Vec::new();
    let mut chars: Vec<u32> = lits.chars.clone();
    for c in ['a' as u32, '0' as u32] {
        if !chars.contains(&c) {
            chars.push(c);
        }
    }
    chars.dedup();
    let s = |cs: &[u32]| {
        Value::Str(SmtString::from_code_points(cs.iter().copied()).expect("alphabet characters"))
    };
    push_unique(&mut list, s(&[]));
    for &c in &chars {
        push_unique(&mut list, s(&[c]));
    }
    for &c in &chars {
        for &d in &chars {
            push_unique(&mut list, s(&[c, d]));
        }
    }
    list
}

/// Constant arrays of the first elements, then the first of them with one store.
fn array_candidates(sort: &Sort, index: &Sort, element: &Sort, lits: &Literals) -> Vec<Value> {
    let mut list = Vec::new();
    let elements = candidates(element, lits);
    let indices = candidates(index, lits);
    for e in elements.iter().take(3) {
        push_unique(
            &mut list,
            Value::Array(Arc::new(ArrayValue::constant(sort.clone(), e.clone()))),
        );
    }
    if let (Some(base), Some(i)) = (elements.first(), indices.first()) {
        let constant = ArrayValue::constant(sort.clone(), base.clone());
        for e in elements.iter().skip(1).take(3) {
            list.push(Value::Array(Arc::new(constant.store(i.clone(), e.clone()))));
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    fn witness(text: &str) -> Option<String> {
        let script = Script::parse(text).unwrap();
        find_witness(&script, &WitnessBound::default()).map(|w| w.to_smtlib(&script))
    }

    #[test]
    fn finds_witnesses_of_every_format_and_width() {
        for f in [
            "(declare-const x Float32)(assert (fp.isNaN x))",
            "(declare-const x (_ FloatingPoint 5 11))(assert (fp.isSubnormal x))",
            "(declare-const x Float128)(assert (fp.lt x (fp.neg x)))",
            "(declare-const b (_ BitVec 100))(assert (= ((_ extract 99 98) b) #b10))",
            "(declare-const a (_ BitVec 8))(assert (= ((_ rotate_left 1) a) #x01))",
        ] {
            assert!(witness(f).is_some(), "{f}");
        }
    }

    #[test]
    fn finds_small_witnesses() {
        assert_eq!(
            witness(
                "(declare-const a Int)(declare-const b Int)(assert (and (> a b) (= (mod a 3) 2)))"
            )
            .unwrap(),
            "(define-fun a () Int 2)\n(define-fun b () Int 0)\n"
        );
        assert!(witness("(declare-const a Real)(assert (= (* 2.0 a) 1.0))")
            .unwrap()
            .contains("(/ 1.0 2.0)"));
        assert!(
            witness("(declare-const a (_ BitVec 64))(assert (bvult #x1111111111111111 a))")
                .is_some()
        );
        assert!(
            witness("(declare-const a String)(assert (str.in_re a (re.+ (str.to_re \"x\"))))")
                .unwrap()
                .contains("\"x\"")
        );
        assert!(
            witness("(declare-const a (_ FloatingPoint 11 53))(assert (fp.isNaN a))").is_some()
        );
        assert!(witness("(declare-const a (Array (_ BitVec 64) (_ BitVec 64)))(declare-const b (_ BitVec 64))(assert (distinct (select a b) (select a #x0000000000000001)))").is_some());
        // Division by zero: any value of (div a 0) may be chosen.
        assert!(witness("(declare-const a Int)(assert (= (div a 0) 17))").is_some());
    }

    #[test]
    fn no_witness_for_unsatisfiable_or_out_of_bound() {
        assert!(witness("(declare-const a Int)(assert (and (> a 0) (< a 0)))").is_none());
        assert!(witness("(declare-const a Int)(assert (= a 1000))").is_none());
        let script =
            Script::parse("(declare-const a Int)(declare-const b Int)(assert false)").unwrap();
        let bound = WitnessBound {
            values_per_constant: 3,
            max_assignments: 5,
        };
        assert!(find_witness(&script, &bound).is_none());
    }
}
