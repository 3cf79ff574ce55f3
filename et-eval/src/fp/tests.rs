use super::*;
use num_traits::Signed;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use RoundingMode::{Rna, Rne, Rtn, Rtp, Rtz};

fn f(value: f64) -> Float64 {
    Float64::from_f64(value)
}

/// The next value towards +∞ (for finite values and −∞).
fn next_up(x: Float64) -> Float64 {
    if x == Float64::NEG_ZERO || x == Float64::POS_ZERO {
        return Float64::MIN_POSITIVE_SUBNORMAL;
    }
    if x.is_negative() {
        Float64::from_bits(x.to_bits() - 1)
    } else {
        Float64::from_bits(x.to_bits() + 1)
    }
}

fn rational(x: Float64) -> BigRational {
    x.to_real().expect("finite")
}

/// Operands that exercise every class: zeros, subnormals, the normal range's ends, ones,
/// ties, and random bit patterns.
fn interesting(rng: &mut ChaCha8Rng) -> Float64 {
    const SPECIAL: [u64; 14] = [
        0,
        1,
        2,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x0010_0000_0000_0001,
        0x3ff0_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x3fef_ffff_ffff_ffff,
        0x4000_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x7fe0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
    ];
    let sign = u64::from(rng.gen::<bool>()) << 63;
    match rng.gen_range(0..6) {
        0 => Float64::from_bits(sign | SPECIAL[rng.gen_range(0..SPECIAL.len())]),
        // Small integers and halves: ties and exact results.
        1 => f(f64::from(rng.gen_range(-16i32..=16)) / 2.0),
        // Values near 1 with few significant bits: cancellations and exact sums.
        2 => f(1.0 + f64::from(rng.gen_range(0u32..16)) * 2f64.powi(-52)),
        _ => Float64::from_bits(rng.gen()),
    }
}

#[test]
fn rounding_modes_parse_in_both_spellings() {
    for mode in RoundingMode::ALL {
        assert_eq!(mode.short_name().parse::<RoundingMode>(), Ok(mode));
        assert_eq!(mode.long_name().parse::<RoundingMode>(), Ok(mode));
    }
    assert_eq!("roundTowardZero".parse::<RoundingMode>(), Ok(Rtz));
    let error = "rne".parse::<RoundingMode>().unwrap_err();
    assert!(error.to_string().contains("`rne`"), "{error}");
}

#[test]
fn nan_is_one_value_and_zeros_are_two() {
    let other_nan = Float64::from_bits(0xfff0_0000_0000_0001);
    assert_eq!(other_nan, Float64::NAN);
    assert_eq!(other_nan.to_bits(), 0x7ff8_0000_0000_0000);
    assert_ne!(Float64::POS_ZERO, Float64::NEG_ZERO);
    assert!(Float64::POS_ZERO.fp_eq(Float64::NEG_ZERO));
    assert!(!Float64::NAN.fp_eq(Float64::NAN));
    assert!(
        !Float64::NAN.leq(Float64::NAN) && !Float64::NAN.lt(f(1.0)) && !f(1.0).gt(Float64::NAN)
    );
    assert!(Float64::NEG_ZERO.leq(Float64::POS_ZERO) && Float64::NEG_ZERO.geq(Float64::POS_ZERO));
    assert!(!Float64::NEG_ZERO.lt(Float64::POS_ZERO));
    assert!(Float64::NEG_INFINITY.lt(-Float64::MAX) && Float64::MAX.lt(Float64::POS_INFINITY));
}

#[test]
fn fields_build_the_same_values_as_bits() {
    assert_eq!(Float64::from_fields(0, 0, 0), Ok(Float64::POS_ZERO));
    assert_eq!(Float64::from_fields(1, 0x7ff, 0), Ok(Float64::NEG_INFINITY));
    assert_eq!(
        Float64::from_fields(1, 0x7ff, (1 << 52) - 1),
        Ok(Float64::NAN)
    );
    assert_eq!(Float64::from_fields(0, 1023, 0), Ok(f(1.0)));
    assert_eq!(f(-2.5).to_fields(), (1, 1024, 1 << 50));
    let error = Float64::from_fields(0, 2048, 0).unwrap_err();
    assert_eq!(
        (error.field, error.width, error.value),
        ("exponent", 11, 2048)
    );
    assert!(Float64::from_fields(2, 0, 0).is_err());
    assert!(Float64::from_fields(0, 0, 1 << 52).is_err());
}

#[test]
fn literals_print_in_smtlib_syntax() {
    assert_eq!(Float64::POS_ZERO.to_string(), "(_ +zero 11 53)");
    assert_eq!(Float64::NEG_ZERO.to_string(), "(_ -zero 11 53)");
    assert_eq!(Float64::POS_INFINITY.to_string(), "(_ +oo 11 53)");
    assert_eq!(Float64::NEG_INFINITY.to_string(), "(_ -oo 11 53)");
    assert_eq!(Float64::NAN.to_string(), "(_ NaN 11 53)");
    assert_eq!(
        f(1.0).to_string(),
        format!("(fp #b0 #b01111111111 #b{})", "0".repeat(52))
    );
    assert_eq!(
        Float64::from_bits(0x8000_0000_0000_0001).to_string(),
        format!("(fp #b1 #b00000000000 #b{}1)", "0".repeat(51))
    );
}

#[test]
fn classification_follows_the_bit_patterns() {
    let subnormal = Float64::MIN_POSITIVE_SUBNORMAL;
    let cases = [
        // value, NaN, inf, zero, normal, subnormal, negative, positive
        (
            Float64::NAN,
            [true, false, false, false, false, false, false],
        ),
        (
            Float64::POS_INFINITY,
            [false, true, false, false, false, false, true],
        ),
        (
            Float64::NEG_INFINITY,
            [false, true, false, false, false, true, false],
        ),
        (
            Float64::POS_ZERO,
            [false, false, true, false, false, false, true],
        ),
        (
            Float64::NEG_ZERO,
            [false, false, true, false, false, true, false],
        ),
        (subnormal, [false, false, false, false, true, false, true]),
        (-subnormal, [false, false, false, false, true, true, false]),
        (
            f(f64::MIN_POSITIVE),
            [false, false, false, true, false, false, true],
        ),
        (
            -Float64::MAX,
            [false, false, false, true, false, true, false],
        ),
    ];
    for (value, expected) in cases {
        let got = [
            value.is_nan(),
            value.is_infinite(),
            value.is_zero(),
            value.is_normal(),
            value.is_subnormal(),
            value.is_negative(),
            value.is_positive(),
        ];
        assert_eq!(got, expected, "{value:?}");
    }
}

#[test]
fn abs_and_neg_only_touch_the_sign() {
    assert_eq!(Float64::NEG_ZERO.abs(), Float64::POS_ZERO);
    assert_eq!(-Float64::POS_ZERO, Float64::NEG_ZERO);
    assert_eq!(-Float64::NAN, Float64::NAN);
    assert_eq!(Float64::NAN.abs(), Float64::NAN);
    assert_eq!(-f(1.5), f(-1.5));
    assert_eq!(f(-0.0).abs(), f(0.0));
}

#[test]
fn special_values_follow_ieee() {
    let inf = Float64::POS_INFINITY;
    let ninf = Float64::NEG_INFINITY;
    let (pz, nz) = (Float64::POS_ZERO, Float64::NEG_ZERO);
    for rm in RoundingMode::ALL {
        assert_eq!(inf.add(ninf, rm), Float64::NAN);
        assert_eq!(inf.sub(inf, rm), Float64::NAN);
        assert_eq!(inf.add(f(1.0), rm), inf);
        assert_eq!(inf.mul(pz, rm), Float64::NAN);
        assert_eq!(ninf.mul(f(-2.0), rm), inf);
        assert_eq!(pz.div(nz, rm), Float64::NAN);
        assert_eq!(inf.div(ninf, rm), Float64::NAN);
        assert_eq!(f(1.0).div(nz, rm), ninf);
        assert_eq!(f(-1.0).div(ninf, rm), pz);
        assert_eq!(nz.div(f(3.0), rm), nz);
        assert_eq!(f(-1.0).sqrt(rm), Float64::NAN);
        assert_eq!(ninf.sqrt(rm), Float64::NAN);
        assert_eq!(nz.sqrt(rm), nz);
        assert_eq!(inf.sqrt(rm), inf);
        assert_eq!(inf.fma(pz, f(1.0), rm), Float64::NAN);
        assert_eq!(inf.fma(f(1.0), ninf, rm), Float64::NAN);
        assert_eq!(f(1.0).fma(f(1.0), ninf, rm), ninf);
        assert_eq!(inf.fma(f(-1.0), f(5.0), rm), ninf);
        assert_eq!(Float64::NAN.fma(pz, pz, rm), Float64::NAN);
        assert_eq!(inf.round_to_integral(rm), inf);
        assert_eq!(nz.round_to_integral(rm), nz);
        assert_eq!(Float64::NAN.round_to_integral(rm), Float64::NAN);
    }
}

#[test]
fn signed_zeros_of_sums_depend_on_the_mode() {
    let (pz, nz) = (Float64::POS_ZERO, Float64::NEG_ZERO);
    for rm in RoundingMode::ALL {
        let cancellation = if rm == Rtn { nz } else { pz };
        assert_eq!(pz.add(nz, rm), cancellation, "{rm}");
        assert_eq!(nz.add(pz, rm), cancellation, "{rm}");
        assert_eq!(nz.add(nz, rm), nz, "{rm}");
        assert_eq!(pz.sub(pz, rm), cancellation, "{rm}");
        assert_eq!(nz.sub(pz, rm), nz, "{rm}");
        assert_eq!(f(1.5).sub(f(1.5), rm), cancellation, "{rm}");
        assert_eq!(f(-1.5).add(f(1.5), rm), cancellation, "{rm}");
        // fma: a zero product plus a zero, and an exact cancellation.
        assert_eq!(nz.fma(f(2.0), nz, rm), nz, "{rm}");
        assert_eq!(nz.fma(f(2.0), pz, rm), cancellation, "{rm}");
        assert_eq!(f(2.0).fma(f(3.0), f(-6.0), rm), cancellation, "{rm}");
        // A zero product keeps the addend exactly.
        assert_eq!(pz.fma(f(-7.0), f(0.1), rm), f(0.1), "{rm}");
    }
}

#[test]
fn ties_round_to_even_or_away() {
    let one = f(1.0);
    let tie = f(2f64.powi(-53));
    assert_eq!(one.add(tie, Rne), one);
    assert_eq!(one.add(tie, Rna), f(1.0 + 2f64.powi(-52)));
    assert_eq!(one.add(tie, Rtp), f(1.0 + 2f64.powi(-52)));
    assert_eq!(one.add(tie, Rtn), one);
    assert_eq!(one.add(tie, Rtz), one);
    // An odd significand's tie goes up under RNE too.
    let odd = f(1.0 + 2f64.powi(-52));
    assert_eq!(odd.add(tie, Rne), f(1.0 + 2f64.powi(-51)));
    assert_eq!((-odd).add(-tie, Rna), f(-(1.0 + 2f64.powi(-51))));
    assert_eq!((-one).add(-tie, Rtn), f(-(1.0 + 2f64.powi(-52))));
    assert_eq!((-one).add(-tie, Rtp), -one);
}

#[test]
fn overflow_goes_to_infinity_or_the_largest_value() {
    let max = Float64::MAX;
    assert_eq!(max.mul(f(2.0), Rne), Float64::POS_INFINITY);
    assert_eq!(max.mul(f(2.0), Rna), Float64::POS_INFINITY);
    assert_eq!(max.mul(f(2.0), Rtz), max);
    assert_eq!(max.mul(f(2.0), Rtn), max);
    assert_eq!(max.mul(f(2.0), Rtp), Float64::POS_INFINITY);
    assert_eq!((-max).mul(f(2.0), Rtp), -max);
    assert_eq!((-max).mul(f(2.0), Rtn), Float64::NEG_INFINITY);
    // Just above MAX but below MAX + half an ulp rounds back to MAX to nearest.
    let tiny = f(2f64.powi(969)); // a quarter of MAX's ulp (2^971)
    assert_eq!(max.add(tiny, Rne), max);
    assert_eq!(max.add(tiny, Rtp), Float64::POS_INFINITY);
    // Exactly MAX + half an ulp is a tie: RNE goes to the even "2^1024", i.e. infinity.
    let half_ulp = f(2f64.powi(970));
    assert_eq!(max.add(half_ulp, Rne), Float64::POS_INFINITY);
    assert_eq!(max.add(half_ulp, Rtz), max);
}

#[test]
fn underflow_is_gradual() {
    let min = Float64::MIN_POSITIVE_SUBNORMAL;
    let half = f(0.5);
    assert_eq!(
        min.mul(half, Rne),
        Float64::POS_ZERO,
        "a tie with the even zero"
    );
    assert_eq!(min.mul(half, Rna), min);
    assert_eq!(min.mul(half, Rtp), min);
    assert_eq!(min.mul(half, Rtz), Float64::POS_ZERO);
    assert_eq!(
        (-min).mul(half, Rtz),
        Float64::NEG_ZERO,
        "underflow keeps the sign"
    );
    assert_eq!((-min).mul(half, Rtn), -min);
    let three_min = Float64::from_bits(3);
    assert_eq!(three_min.mul(half, Rne), Float64::from_bits(2));
    assert_eq!(three_min.div(f(2.0), Rna), Float64::from_bits(2));
    assert_eq!(three_min.div(f(2.0), Rtz), min);
    // The largest subnormal rounding up becomes the smallest normal.
    let largest_subnormal = Float64::from_bits(0x000f_ffff_ffff_ffff);
    assert_eq!(
        largest_subnormal.add(min.mul(half, Rtz), Rtp),
        largest_subnormal
    );
    assert_eq!(largest_subnormal.add(min, Rne), f(f64::MIN_POSITIVE));
    // Subnormal arithmetic is exact when it fits.
    assert_eq!(
        largest_subnormal.sub(min, Rne),
        Float64::from_bits(0x000f_ffff_ffff_fffe)
    );
}

#[test]
fn round_to_integral_in_every_mode() {
    let cases: [(f64, [f64; 5]); 9] = [
        // x, [RNE, RNA, RTP, RTN, RTZ]
        (2.5, [2.0, 3.0, 3.0, 2.0, 2.0]),
        (3.5, [4.0, 4.0, 4.0, 3.0, 3.0]),
        (-2.5, [-2.0, -3.0, -2.0, -3.0, -2.0]),
        (0.5, [0.0, 1.0, 1.0, 0.0, 0.0]),
        (-0.5, [-0.0, -1.0, -0.0, -1.0, -0.0]),
        (-0.3, [-0.0, -0.0, -0.0, -1.0, -0.0]),
        (1e-300, [0.0, 0.0, 1.0, 0.0, 0.0]),
        (4503599627370497.0, [4503599627370497.0; 5]),
        (1e300, [1e300; 5]),
    ];
    for (x, expected) in cases {
        for (rm, want) in RoundingMode::ALL.into_iter().zip(expected) {
            assert_eq!(
                f(x).round_to_integral(rm),
                f(want),
                "roundToIntegral {rm} {x}"
            );
        }
    }
    assert_eq!(f(2.5).to_integer(Rne), Some(BigInt::from(2)));
    assert_eq!(f(-2.5).to_integer(Rna), Some(BigInt::from(-3)));
    assert_eq!(Float64::NAN.to_integer(Rne), None);
    assert_eq!(f(1e300).to_integer(Rtz).map(|i| i.bits()), Some(997));
}

#[test]
fn remainder_is_ieee_not_fmod() {
    assert_eq!(f(5.0).remainder(f(3.0)), f(-1.0), "5 - 3*2");
    assert_eq!(f(7.0).remainder(f(2.0)), f(-1.0), "7/2 = 3.5 ties to 4");
    assert_eq!(f(5.0).remainder(f(2.0)), f(1.0), "5/2 = 2.5 ties to 2");
    assert_eq!(f(-5.0).remainder(f(2.0)), f(-1.0));
    assert_eq!(f(4.0).remainder(f(2.0)), f(0.0), "zero takes x's sign");
    assert_eq!(f(-4.0).remainder(f(2.0)), f(-0.0));
    assert_eq!(f(-4.0).remainder(f(-2.0)), f(-0.0));
    assert_eq!(f(1.0).remainder(Float64::POS_INFINITY), f(1.0));
    assert_eq!(Float64::NEG_ZERO.remainder(f(3.0)), Float64::NEG_ZERO);
    assert_eq!(Float64::POS_INFINITY.remainder(f(3.0)), Float64::NAN);
    assert_eq!(f(3.0).remainder(Float64::NEG_ZERO), Float64::NAN);
    // Far-apart exponents: the quotient has hundreds of bits.
    let x = Float64::MAX;
    let y = Float64::MIN_POSITIVE_SUBNORMAL;
    assert_eq!(x.remainder(y), Float64::POS_ZERO);
    let r = f(1e300).remainder(f(0.1));
    let exact =
        rational(f(1e300)) - rational(f(0.1)) * (rational(f(1e300)) / rational(f(0.1))).round();
    // Away from ties, the remainder is x - y * round(x / y).
    assert_eq!(rational(r), exact);
    assert!(rational(r).abs() <= rational(f(0.05)));
}

#[test]
fn min_and_max_leave_opposite_zeros_open() {
    let (pz, nz) = (Float64::POS_ZERO, Float64::NEG_ZERO);
    assert_eq!(pz.min(nz), Extremum::EitherZero);
    assert_eq!(nz.max(pz), Extremum::EitherZero);
    assert_eq!(nz.min(nz), Extremum::Value(nz));
    assert_eq!(Float64::NAN.min(f(1.0)), Extremum::Value(f(1.0)));
    assert_eq!(f(1.0).max(Float64::NAN), Extremum::Value(f(1.0)));
    assert_eq!(
        Float64::NAN.max(Float64::NAN),
        Extremum::Value(Float64::NAN)
    );
    assert_eq!(f(-1.0).min(pz), Extremum::Value(f(-1.0)));
    assert_eq!(
        Float64::NEG_INFINITY.max(f(-1e308)),
        Extremum::Value(f(-1e308))
    );
    assert_eq!(Option::<Float64>::from(f(2.0).max(f(3.0))), Some(f(3.0)));
    assert_eq!(Option::<Float64>::from(pz.max(nz)), None);
}

#[test]
fn conversions_to_and_from_rationals_are_exact() {
    assert_eq!(Float64::POS_INFINITY.to_real(), None);
    assert_eq!(Float64::NAN.to_real(), None);
    assert_eq!(Float64::NEG_ZERO.to_real(), Some(BigRational::zero()));
    assert_eq!(
        f(-0.375).to_real(),
        Some(BigRational::new(BigInt::from(-3), BigInt::from(8)))
    );
    let min = Float64::MIN_POSITIVE_SUBNORMAL.to_real().unwrap();
    assert_eq!(*min.denom(), BigInt::one() << 1074);
    let third = BigRational::new(BigInt::from(1), BigInt::from(3));
    assert_eq!(Float64::from_real(&third, Rne), f(1.0 / 3.0));
    assert_eq!(Float64::from_real(&third, Rtp), next_up(f(1.0 / 3.0)));
    assert_eq!(Float64::from_real(&third, Rtz), f(1.0 / 3.0));
    assert_eq!(
        Float64::from_real(&-third.clone(), Rtn),
        -next_up(f(1.0 / 3.0))
    );
    assert_eq!(
        Float64::from_real(&BigRational::zero(), Rtn),
        Float64::POS_ZERO
    );
    let huge = BigRational::from_integer(BigInt::from(10).pow(400));
    assert_eq!(Float64::from_real(&huge, Rne), Float64::POS_INFINITY);
    assert_eq!(Float64::from_real(&huge, Rtz), Float64::MAX);
    let tiny = BigRational::new(BigInt::one(), BigInt::from(10).pow(400));
    assert_eq!(Float64::from_real(&tiny, Rne), Float64::POS_ZERO);
    assert_eq!(
        Float64::from_real(&tiny, Rtp),
        Float64::MIN_POSITIVE_SUBNORMAL
    );
    assert_eq!(Float64::from_real(&-tiny, Rtz), Float64::NEG_ZERO);
    // 0.1 as SMT-LIB reads the decimal.
    let tenth = BigRational::new(BigInt::one(), BigInt::from(10));
    assert_eq!(Float64::from_real(&tenth, Rne), f(0.1));
}

/// The host's arithmetic is IEEE binary64 with ties to even: for RNE, every operation must
/// agree with it bit for bit.
#[test]
fn nearest_even_agrees_with_the_host() {
    let mut rng = ChaCha8Rng::seed_from_u64(64);
    for _ in 0..20_000 {
        let (x, y, z) = (
            interesting(&mut rng),
            interesting(&mut rng),
            interesting(&mut rng),
        );
        let (a, b, c) = (x.to_f64(), y.to_f64(), z.to_f64());
        assert_eq!(x.add(y, Rne), f(a + b), "{x:?} + {y:?}");
        assert_eq!(x.sub(y, Rne), f(a - b), "{x:?} - {y:?}");
        assert_eq!(x.mul(y, Rne), f(a * b), "{x:?} * {y:?}");
        assert_eq!(x.div(y, Rne), f(a / b), "{x:?} / {y:?}");
        assert_eq!(x.sqrt(Rne), f(a.sqrt()), "sqrt {x:?}");
        assert_eq!(
            x.fma(y, z, Rne),
            f(a.mul_add(b, c)),
            "fma {x:?} {y:?} {z:?}"
        );
        assert_eq!(x.round_to_integral(Rtz), f(a.trunc()), "trunc {x:?}");
        assert_eq!(x.round_to_integral(Rtn), f(a.floor()), "floor {x:?}");
        assert_eq!(x.round_to_integral(Rtp), f(a.ceil()), "ceil {x:?}");
        assert_eq!(x.round_to_integral(Rna), f(a.round()), "round {x:?}");
        assert_eq!(x.lt(y), a < b);
        assert_eq!(x.leq(y), a <= b);
        assert_eq!(x.fp_eq(y), a == b);
    }
}

/// Directed and nearest rounding checked against exact rational arithmetic: the RTN and
/// RTP results bracket the exact value and are adjacent (or equal when exact), and the
/// other modes pick from them by their rule.
#[test]
fn every_mode_brackets_the_exact_result() {
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    let mut checked = 0;
    for round in 0..4_000 {
        let (x, y, z) = (
            interesting(&mut rng),
            interesting(&mut rng),
            interesting(&mut rng),
        );
        let (Some(a), Some(b), Some(c)) = (x.to_real(), y.to_real(), z.to_real()) else {
            continue;
        };
        type Op = fn(Float64, Float64, Float64, RoundingMode) -> Float64;
        let ops: [(&str, Op, Option<BigRational>); 5] = [
            ("add", |x, y, _, rm| x.add(y, rm), Some(&a + &b)),
            ("sub", |x, y, _, rm| x.sub(y, rm), Some(&a - &b)),
            ("mul", |x, y, _, rm| x.mul(y, rm), Some(&a * &b)),
            (
                "div",
                |x, y, _, rm| x.div(y, rm),
                (!b.is_zero()).then(|| &a / &b),
            ),
            ("fma", |x, y, z, rm| x.fma(y, z, rm), Some(&a * &b + &c)),
        ];
        for (name, op, exact) in ops {
            let Some(exact) = exact else { continue };
            let down = op(x, y, z, Rtn);
            let up = op(x, y, z, Rtp);
            let context = format!("round {round}: {name} {x:?} {y:?} {z:?}");
            check_bracket(&exact, down, up, &context);
            let nearest = [op(x, y, z, Rne), op(x, y, z, Rna)];
            check_nearest(&exact, down, up, nearest, op(x, y, z, Rtz), &context);
            // The same value through the rational conversion.
            for rm in RoundingMode::ALL {
                if !exact.is_zero() {
                    assert_eq!(
                        Float64::from_real(&exact, rm),
                        op(x, y, z, rm),
                        "{context} via from_real {rm}"
                    );
                }
            }
            checked += 1;
        }
        // Square roots: down² ≤ x ≤ up², adjacent.
        if a.is_positive() {
            let down = x.sqrt(Rtn);
            let up = x.sqrt(Rtp);
            let (d, u) = (rational(down), rational(up));
            assert!(&d * &d <= a && a <= &u * &u, "sqrt {x:?}");
            assert!(
                down == up || next_up(down) == up,
                "sqrt {x:?}: {down:?} {up:?}"
            );
            assert_eq!(x.sqrt(Rtz), down);
        }
    }
    assert!(checked > 10_000, "only {checked} finite cases");
}

fn check_bracket(exact: &BigRational, down: Float64, up: Float64, context: &str) {
    let below = down.to_real().is_none_or(|d| &d <= exact);
    let above = up.to_real().is_none_or(|u| &u >= exact);
    assert!(below && above, "{context}: {down:?} ≤ exact ≤ {up:?}");
    if down.is_finite() && up.is_finite() {
        let exact_hit = rational(down) == *exact;
        if exact_hit {
            assert!(down.fp_eq(up), "{context}: exact but {down:?} ≠ {up:?}");
        } else {
            assert_eq!(next_up(down), up, "{context}: not adjacent");
        }
    } else {
        // Overflow: the finite side is ±MAX.
        assert!(
            down == Float64::MAX || up == -Float64::MAX || down.fp_eq(up),
            "{context}"
        );
    }
}

fn check_nearest(
    exact: &BigRational,
    down: Float64,
    up: Float64,
    nearest: [Float64; 2],
    toward_zero: Float64,
    context: &str,
) {
    let [even, away] = nearest;
    if exact.is_zero() {
        // The sign of an exact zero is the operation's rule, tested on its own.
        return;
    }
    assert_eq!(
        toward_zero,
        if exact.is_negative() { up } else { down },
        "{context} RTZ"
    );
    if down.fp_eq(up) || !down.is_finite() || !up.is_finite() {
        return;
    }
    let to_down = exact - rational(down);
    let to_up = rational(up) - exact;
    let (expect_even, expect_away) = match to_down.cmp(&to_up) {
        std::cmp::Ordering::Less => (down, down),
        std::cmp::Ordering::Greater => (up, up),
        std::cmp::Ordering::Equal => {
            let even_one = if down.to_bits() & 1 == 0 { down } else { up };
            let away_one = if exact.is_negative() { down } else { up };
            (even_one, away_one)
        }
    };
    // A tie between MAX and "2^1024" goes to infinity, which is not `up` here.
    assert!(
        even.fp_eq(expect_even) || even.is_infinite(),
        "{context} RNE {even:?} vs {expect_even:?}"
    );
    assert!(
        away.fp_eq(expect_away) || away.is_infinite(),
        "{context} RNA {away:?} vs {expect_away:?}"
    );
}

#[test]
fn remainder_matches_its_definition() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..5_000 {
        let (x, y) = (interesting(&mut rng), interesting(&mut rng));
        let r = x.remainder(y);
        let (Some(a), Some(b)) = (x.to_real(), y.to_real()) else {
            continue;
        };
        if b.is_zero() {
            assert_eq!(r, Float64::NAN);
            continue;
        }
        let quotient = &a / &b;
        let floor = quotient.floor();
        let fraction = &quotient - &floor;
        let half = BigRational::new(BigInt::one(), BigInt::from(2));
        let n = match fraction.cmp(&half) {
            std::cmp::Ordering::Less => floor,
            std::cmp::Ordering::Greater => floor + BigRational::one(),
            std::cmp::Ordering::Equal if floor.to_integer().bit(0) => floor + BigRational::one(),
            std::cmp::Ordering::Equal => floor,
        };
        let expected = &a - &b * n;
        assert_eq!(rational(r), expected, "{x:?} rem {y:?}");
        if expected.is_zero() {
            assert_eq!(
                r.is_negative(),
                x.is_negative(),
                "{x:?} rem {y:?}: sign of zero"
            );
        }
    }
}
