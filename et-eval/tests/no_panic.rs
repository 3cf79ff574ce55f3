//! Random inputs of every shape to every public operation of `fp`, `string` and `regex`:
//! nothing panics, every failure is an error value, and what can be checked cheaply on
//! the way (literals read back, members match) is.

use et_eval::fp::{Extremum, Float64, RoundingMode};
use et_eval::regex::{Member, Regex};
use et_eval::string::{Dialect, SmtString, MAX_CODE_POINT};
use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::Zero;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn float(rng: &mut ChaCha8Rng) -> Float64 {
    Float64::from_bits(if rng.gen_bool(0.3) {
        rng.gen::<u64>() & 0x800f_ffff_ffff_ffff
    } else {
        rng.gen()
    })
}

/// Integers of any size and sign, with the edges of the machine types.
fn integer(rng: &mut ChaCha8Rng) -> BigInt {
    match rng.gen_range(0..5) {
        0 => BigInt::from(rng.gen_range(-3i64..8)),
        1 => BigInt::from(
            *[i64::MIN, i64::MAX, u32::MAX as i64, 0x2ffff, 0x30000]
                .choose(rng)
                .expect("non-empty"),
        ),
        2 => BigInt::from(u64::MAX) + BigInt::from(rng.gen_range(0u8..3)),
        3 => {
            let bytes: Vec<u8> = (0..rng.gen_range(1..40)).map(|_| rng.gen()).collect();
            BigInt::from_bytes_be(if rng.gen() { Sign::Minus } else { Sign::Plus }, &bytes)
        }
        _ => BigInt::from(rng.gen::<i64>()),
    }
}

#[test]
fn fp_operations_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..5_000 {
        let rm = *RoundingMode::ALL.choose(&mut rng).expect("non-empty");
        let (x, y, z) = (float(&mut rng), float(&mut rng), float(&mut rng));
        let results = [
            x.add(y, rm),
            x.sub(y, rm),
            x.mul(y, rm),
            x.div(y, rm),
            x.fma(y, z, rm),
            x.sqrt(rm),
            x.remainder(y),
            x.round_to_integral(rm),
            x.abs(),
            -x,
        ];
        for result in results {
            // Every result is one value: its bits rebuild it, and it prints as SMT-LIB.
            assert_eq!(Float64::from_bits(result.to_bits()), result);
            assert!(result.to_string().starts_with('('));
        }
        for extremum in [x.min(y), x.max(y)] {
            if let Extremum::Value(v) = extremum {
                assert!(v == x || v == y);
            }
        }
        assert_eq!(x.to_real().is_some(), x.is_finite());
        assert_eq!(x.to_integer(rm).is_some(), x.is_finite());
        let (sign, exponent, significand) = (
            rng.gen::<u64>() & 3,
            rng.gen::<u64>() & 0xfff,
            rng.gen::<u64>() >> 11,
        );
        let fields = Float64::from_fields(sign, exponent, significand);
        assert_eq!(
            fields.is_ok(),
            sign < 2 && exponent < 2048 && significand < 1 << 52
        );
        let numerator = integer(&mut rng);
        let denominator = integer(&mut rng);
        if !denominator.is_zero() {
            let value = BigRational::new(numerator, denominator);
            let rounded = Float64::from_real(&value, rm);
            assert!(!rounded.is_nan());
        }
    }
}

/// Characters that matter to some escape rule, plus ones beyond the alphabet.
const LITERAL_PIECES: [&str; 22] = [
    "\"",
    "\"\"",
    "\\",
    "u",
    "{",
    "}",
    "x",
    "0",
    "7",
    "8",
    "2",
    "F",
    "f",
    "g",
    "a",
    "n",
    "é",
    "\u{1f600}",
    "\u{e0001}",
    "\u{10ffff}",
    "\\u{",
    "\\x",
];

#[test]
fn literals_never_panic_and_read_back() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut parsed = 0;
    for _ in 0..5_000 {
        let text: String = (0..rng.gen_range(0..12))
            .map(|_| *LITERAL_PIECES.choose(&mut rng).expect("non-empty"))
            .collect();
        if let Ok(value) = SmtString::parse_literal(&text, Dialect::Smtlib26) {
            parsed += 1;
            let literal = value.to_literal();
            let body = &literal[1..literal.len() - 1];
            assert_eq!(
                SmtString::parse_literal(body, Dialect::Smtlib26).as_ref(),
                Ok(&value),
                "{text:?}"
            );
        }
        if let Ok(value) = SmtString::parse_literal(&text, Dialect::Z3Legacy) {
            assert!(
                value
                    .code_points()
                    .iter()
                    .all(|&c| c <= Dialect::Z3Legacy.max_char()),
                "{text:?}"
            );
        }
    }
    assert!(parsed > 500, "only {parsed} literals parsed");
}

fn string(rng: &mut ChaCha8Rng) -> SmtString {
    const CHARS: [u32; 8] = [0x61, 0x62, 0x30, 0x39, 0xd800, 0x2ffff, 0, 0x5c];
    SmtString::from_code_points(
        (0..rng.gen_range(0..6)).map(|_| *CHARS.choose(rng).expect("non-empty")),
    )
    .expect("alphabet")
}

fn regex(rng: &mut ChaCha8Rng, depth: u32) -> Regex {
    if depth == 0 || rng.gen_bool(0.25) {
        return match rng.gen_range(0..5) {
            0 => Regex::none(),
            1 => Regex::all(),
            2 => Regex::all_char(),
            3 => Regex::range(&string(rng), &string(rng)),
            _ => Regex::literal(&string(rng)),
        };
    }
    let kind = rng.gen_range(0..11);
    let bounds = [0, 1, 2, 1_000_000, u64::MAX];
    let (low, high) = (
        *bounds.choose(rng).expect("non-empty"),
        *bounds.choose(rng).expect("non-empty"),
    );
    let a = regex(rng, depth - 1);
    let b = regex(rng, depth - 1);
    match kind {
        0 => a.concat(&b),
        1 => a.union(&b),
        2 => a.inter(&b),
        3 => a.diff(&b),
        4 => a.complement(),
        5 => a.star(),
        6 => a.plus(),
        7 => a.opt(),
        8 => a.power(low),
        9 => a.repeat(low, high),
        _ => Regex::union_of([a.clone(), b.clone(), a.inter(&b).complement()]),
    }
}

#[test]
fn string_and_regex_operations_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut found = 0;
    for round in 0..3_000 {
        let (s, t, u) = (string(&mut rng), string(&mut rng), string(&mut rng));
        let (i, j) = (integer(&mut rng), integer(&mut rng));
        assert!(s.at(&i).len() <= 1);
        assert!(s.substr(&i, &j).len() <= s.len());
        let index = s.index_of(&t, &i);
        assert!(index >= BigInt::from(-1) && index <= BigInt::from(s.len()));
        assert!(s.replace(&t, &u).len() <= s.len() + u.len());
        let _ = s.replace_all(&t, &u);
        let _ = (
            s.is_prefix_of(&t),
            s.is_suffix_of(&t),
            s.contains(&t),
            s.str_lt(&t),
            s.str_le(&t),
        );
        let _ = (s.to_int(), s.is_digit(), s.to_code());
        assert!(SmtString::from_code(&i).len() <= 1);
        assert_eq!(
            SmtString::from_int(&i).to_int(),
            if i < BigInt::zero() {
                BigInt::from(-1)
            } else {
                i.clone()
            }
        );
        let r = regex(&mut rng, 4);
        let _ = (s.in_re(&r), s.replace_re(&r, &u), s.replace_re_all(&r, &u));
        let _ = r.to_string();
        let chars = r.representative_chars(MAX_CODE_POINT);
        assert!(!chars.is_empty() && chars.iter().all(|&c| c <= MAX_CODE_POINT));
        match r.shortest_member(MAX_CODE_POINT, 2_000) {
            Member::Found(member) => {
                found += 1;
                assert!(member.in_re(&r), "round {round}: {member} not in {r}");
            }
            Member::Empty => assert!(!r.is_nullable(), "round {round}: {r}"),
            Member::GaveUp => {}
        }
    }
    assert!(found > 1_000, "only {found} members found");
}
