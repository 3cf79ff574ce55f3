//! Differential test of `et_eval::fp` against z3: random FloatingPoint operations in
//! every rounding mode, each result checked by asking z3 whether the operation on the
//! same operands can differ from it (it must not: unsat).

mod common;

use common::Session;
use et_eval::fp::{Extremum, Float64, RoundingMode};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Operands that reach every rule: special values, subnormals, the ends of the normal
/// range, small integers and halves (ties), values near 1 (cancellation), random bits.
fn operand(rng: &mut ChaCha8Rng) -> Float64 {
    const SPECIAL: [u64; 12] = [
        0,
        1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x3fe0_0000_0000_0000,
        0x4008_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x7fe0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
    ];
    let sign = u64::from(rng.gen::<bool>()) << 63;
    match rng.gen_range(0..8) {
        0 | 1 => Float64::from_bits(sign | SPECIAL[rng.gen_range(0..SPECIAL.len())]),
        2 => Float64::from_f64(f64::from(rng.gen_range(-20i32..=20)) / 2.0),
        3 => Float64::from_f64(1.0 + f64::from(rng.gen_range(0u32..8)) * f64::EPSILON),
        // Subnormals and values near the bottom of the normal range.
        4 => Float64::from_bits(sign | rng.gen_range(0..0x0020_0000_0000_0000u64)),
        // Values with exponents near each other, so sums and quotients are inexact.
        5 => Float64::from_bits(
            sign | (0x3fe0_0000_0000_0000 + rng.gen_range(0..0x0030_0000_0000_0000u64)),
        ),
        _ => Float64::from_bits(rng.gen()),
    }
}

fn real(value: &BigRational) -> String {
    let integer = |i: &BigInt| {
        if i.is_negative() {
            format!("(- {}.0)", -i)
        } else {
            format!("{i}.0")
        }
    };
    format!("(/ {} {})", integer(value.numer()), integer(value.denom()))
}

#[test]
fn fp_operations_agree_with_z3() {
    let mut z3 = Session::z3();
    let mut rng = ChaCha8Rng::seed_from_u64(2008);
    let mut either_zero = 0;
    for round in 0..10_000 {
        let rm = RoundingMode::ALL[round % 5];
        let (x, y, z) = (operand(&mut rng), operand(&mut rng), operand(&mut rng));
        let context = format!("round {round}: x = {x:?}, y = {y:?}, z = {z:?}, {rm}");
        let (term, result) = match rng.gen_range(0..11) {
            0 => (format!("(fp.add {rm} {x} {y})"), x.add(y, rm)),
            1 => (format!("(fp.sub {rm} {x} {y})"), x.sub(y, rm)),
            2 => (format!("(fp.mul {rm} {x} {y})"), x.mul(y, rm)),
            3 => (format!("(fp.div {rm} {x} {y})"), x.div(y, rm)),
            4 => (format!("(fp.fma {rm} {x} {y} {z})"), x.fma(y, z, rm)),
            5 => (format!("(fp.sqrt {rm} {x})"), x.sqrt(rm)),
            6 => (
                format!("(fp.roundToIntegral {rm} {x})"),
                x.round_to_integral(rm),
            ),
            7 => (format!("(fp.rem {x} {y})"), x.remainder(y)),
            8 => (format!("(fp.abs {x})"), x.abs()),
            9 => (format!("(fp.neg {x})"), -x),
            _ => {
                // Opposite zeros, where SMT-LIB leaves the result open, a quarter of the time.
                let (x, y) = match rng.gen_range(0..8) {
                    0 => (Float64::POS_ZERO, Float64::NEG_ZERO),
                    1 => (Float64::NEG_ZERO, Float64::POS_ZERO),
                    _ => (x, y),
                };
                let (name, extremum) = if rng.gen() {
                    ("fp.min", x.min(y))
                } else {
                    ("fp.max", x.max(y))
                };
                let term = format!("({name} {x} {y})");
                match extremum {
                    Extremum::Value(v) => (term, v),
                    Extremum::EitherZero => {
                        either_zero += 1;
                        let claim =
                            format!("(or (= {term} (_ +zero 11 53)) (= {term} (_ -zero 11 53)))");
                        z3.assert_holds(&claim, &context);
                        continue;
                    }
                }
            }
        };
        z3.assert_holds(&format!("(= {term} {result})"), &context);
    }
    assert!(either_zero > 0, "the unspecified zero case was never drawn");
    assert!(z3.checked >= 10_000);
}

#[test]
fn fp_predicates_agree_with_z3() {
    let mut z3 = Session::z3();
    let mut rng = ChaCha8Rng::seed_from_u64(754);
    for round in 0..1_000 {
        let (x, y) = (operand(&mut rng), operand(&mut rng));
        let context = format!("round {round}: x = {x:?}, y = {y:?}");
        let results = [
            ("fp.eq", x.fp_eq(y)),
            ("fp.lt", x.lt(y)),
            ("fp.leq", x.leq(y)),
            ("fp.gt", x.gt(y)),
            ("fp.geq", x.geq(y)),
            ("=", x == y),
        ];
        let classes = [
            ("fp.isNaN", x.is_nan()),
            ("fp.isInfinite", x.is_infinite()),
            ("fp.isZero", x.is_zero()),
            ("fp.isNormal", x.is_normal()),
            ("fp.isSubnormal", x.is_subnormal()),
            ("fp.isNegative", x.is_negative()),
            ("fp.isPositive", x.is_positive()),
        ];
        // One query per round: the conjunction of every predicate's value.
        let mut claim = String::from("(and");
        for (name, value) in results {
            claim.push_str(&format!(" (= ({name} {x} {y}) {value})"));
        }
        for (name, value) in classes {
            claim.push_str(&format!(" (= ({name} {x}) {value})"));
        }
        claim.push(')');
        z3.assert_holds(&claim, &context);
    }
}

#[test]
fn conversions_agree_with_z3() {
    let mut z3 = Session::z3();
    let mut rng = ChaCha8Rng::seed_from_u64(1985);
    for round in 0..1_000 {
        let rm = RoundingMode::ALL[round % 5];
        // A rational with a numerator and denominator of up to ~70 bits and a random
        // power of two, so results land everywhere from subnormal to overflow.
        let numerator = BigInt::from(rng.gen::<i64>()) * BigInt::from(rng.gen_range(1u32..1000));
        let denominator = BigInt::from(rng.gen_range(1u64..u64::MAX));
        let scale = rng.gen_range(-1100i32..1100);
        let mut value = BigRational::new(numerator, denominator);
        let power = BigRational::from_integer(BigInt::from(1) << scale.unsigned_abs());
        value = if scale >= 0 {
            value * power
        } else {
            value / power
        };
        let result = Float64::from_real(&value, rm);
        let context = format!("round {round}: {value} {rm}");
        z3.assert_holds(
            &format!("(= ((_ to_fp 11 53) {rm} {}) {result})", real(&value)),
            &context,
        );
        let x = operand(&mut rng);
        if let Some(exact) = x.to_real() {
            z3.assert_holds(
                &format!("(= (fp.to_real {x}) {})", real(&exact)),
                &format!("to_real {x:?}"),
            );
        }
    }
}
