//! Differential test of `et_eval::string` and `et_eval::regex` against z3 (and cvc5 for
//! `str.replace_re`/`str.replace_re_all`, which z3 leaves unevaluated): random string
//! operations over a small alphabet with non-ASCII code points (a surrogate, an emoji,
//! the last code point, the quote and the backslash), random regular-expression
//! memberships, and the emptiness and minimality of shortest members.

mod common;

use common::{Answer, Session};
use et_eval::regex::{Member, Regex};
use et_eval::string::{SmtString, MAX_CODE_POINT};
use num_bigint::BigInt;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// 'a', 'b', '0', '1', '"', '\', 'é', a surrogate, an emoji, the last code point.
const ALPHABET: [u32; 10] = [
    0x61,
    0x62,
    0x30,
    0x31,
    0x22,
    0x5c,
    0xe9,
    0xd800,
    0x1f600,
    MAX_CODE_POINT,
];

fn random_string(rng: &mut ChaCha8Rng, max_len: usize) -> SmtString {
    let len = rng.gen_range(0..=max_len);
    SmtString::from_code_points((0..len).map(|_| *ALPHABET.choose(rng).expect("non-empty")))
        .expect("in the alphabet")
}

fn one_char(rng: &mut ChaCha8Rng) -> SmtString {
    SmtString::from_code_points([*ALPHABET.choose(rng).expect("non-empty")])
        .expect("in the alphabet")
}

/// Mostly a substring of `of`, so searches find something; sometimes any string.
fn pattern(rng: &mut ChaCha8Rng, of: &SmtString) -> SmtString {
    if rng.gen_bool(0.7) && !of.is_empty() {
        let start = rng.gen_range(0..of.len());
        let end = rng.gen_range(start..=of.len());
        SmtString::from_code_points(of.code_points()[start..end].iter().copied())
            .expect("in the alphabet")
    } else {
        random_string(rng, 2)
    }
}

fn int(value: &BigInt) -> String {
    if value.sign() == num_bigint::Sign::Minus {
        format!("(- {})", -value)
    } else {
        value.to_string()
    }
}

#[test]
fn string_operations_agree_with_z3() {
    let mut z3 = Session::z3();
    let mut cvc5 = Session::cvc5();
    let mut rng = ChaCha8Rng::seed_from_u64(2020);
    for round in 0..3_000 {
        let s = random_string(&mut rng, 5);
        let t = pattern(&mut rng, &s);
        let u = random_string(&mut rng, 2);
        let i = BigInt::from(rng.gen_range(-2i64..=7));
        let j = BigInt::from(rng.gen_range(-2i64..=7));
        let context = format!("round {round}: s = {s}, t = {t}, u = {u}, i = {i}, j = {j}");
        let claim = match rng.gen_range(0..20) {
            0 => format!("(= (str.++ {s} {t}) {})", s.concat(&t)),
            1 => format!("(= (str.len {s}) {})", s.len()),
            2 => format!("(= (str.at {s} {}) {})", int(&i), s.at(&i)),
            3 => format!(
                "(= (str.substr {s} {} {}) {})",
                int(&i),
                int(&j),
                s.substr(&i, &j)
            ),
            4 => format!("(= (str.prefixof {t} {s}) {})", t.is_prefix_of(&s)),
            5 => format!("(= (str.suffixof {t} {s}) {})", t.is_suffix_of(&s)),
            6 => format!("(= (str.contains {s} {t}) {})", s.contains(&t)),
            7 => format!(
                "(= (str.indexof {s} {t} {}) {})",
                int(&i),
                int(&s.index_of(&t, &i))
            ),
            8 => format!("(= (str.replace {s} {t} {u}) {})", s.replace(&t, &u)),
            9 => format!(
                "(= (str.replace_all {s} {t} {u}) {})",
                s.replace_all(&t, &u)
            ),
            10 => format!("(= (str.< {s} {t}) {})", s.str_lt(&t)),
            11 => format!("(= (str.<= {t} {s}) {})", t.str_le(&s)),
            12 => {
                // Digits only, often: str.to_int's interesting case.
                let digits: SmtString =
                    SmtString::from_text(&rng.gen_range(0..1000).to_string()).expect("ASCII");
                let text = if rng.gen() { digits } else { s.clone() };
                format!("(= (str.to_int {text}) {})", int(&text.to_int()))
            }
            13 => {
                let n = BigInt::from(rng.gen_range(-5i64..=1200));
                format!("(= (str.from_int {}) {})", int(&n), SmtString::from_int(&n))
            }
            14 => format!("(= (str.is_digit {t}) {})", t.is_digit()),
            15 => format!("(= (str.to_code {t}) {})", int(&t.to_code())),
            16 => {
                let codes = [
                    -1i64, 0, 48, 97, 0xd800, 0x1f600, 0x2ffff, 0x30000, 0x10ffff,
                ];
                let code = BigInt::from(*codes.choose(&mut rng).expect("non-empty"));
                format!(
                    "(= (str.from_code {}) {})",
                    int(&code),
                    SmtString::from_code(&code)
                )
            }
            17 => {
                let (r, text) = random_regex(&mut rng, 2, true);
                let claim = format!(
                    "(= (str.replace_re {s} {text} {u}) {})",
                    s.replace_re(&r, &u)
                );
                cvc5.assert_holds(&claim, &context);
                continue;
            }
            18 => {
                let (r, text) = random_regex(&mut rng, 2, true);
                let claim = format!(
                    "(= (str.replace_re_all {s} {text} {u}) {})",
                    s.replace_re_all(&r, &u)
                );
                cvc5.assert_holds(&claim, &context);
                continue;
            }
            _ => format!(
                "(= (str.++ {s} (str.++ {t} {u})) {})",
                s.concat(&t).concat(&u)
            ),
        };
        z3.assert_holds(&claim, &context);
    }
    assert!(cvc5.checked > 200 && z3.checked > 2_000);
}

/// A random regular expression over the test alphabet, as a term built by `Regex`'s
/// constructors and as SMT-LIB text written independently of them. cvc5 1.0.3 rejects
/// `re.range` bounds that are not single characters (SMT-LIB makes them the empty
/// language), hence `ranges_of_one_char`.
fn random_regex(rng: &mut ChaCha8Rng, depth: u32, ranges_of_one_char: bool) -> (Regex, String) {
    if depth == 0 || rng.gen_bool(0.3) {
        return match rng.gen_range(0..6) {
            0 => (Regex::none(), "re.none".into()),
            1 => (Regex::all(), "re.all".into()),
            2 => (Regex::all_char(), "re.allchar".into()),
            3 => {
                let bound = |rng: &mut ChaCha8Rng| {
                    if ranges_of_one_char {
                        one_char(rng)
                    } else {
                        random_string(rng, 1)
                    }
                };
                let (low, high) = (bound(rng), bound(rng));
                (
                    Regex::range(&low, &high),
                    format!("(re.range {low} {high})"),
                )
            }
            _ => {
                let text = random_string(rng, 2);
                (Regex::literal(&text), format!("(str.to_re {text})"))
            }
        };
    }
    let kind = rng.gen_range(0..10);
    let low = rng.gen_range(0..3u64);
    let high = low + rng.gen_range(0..2u64);
    let (a, a_text) = random_regex(rng, depth - 1, ranges_of_one_char);
    let (b, b_text) = random_regex(rng, depth - 1, ranges_of_one_char);
    match kind {
        0 => (a.concat(&b), format!("(re.++ {a_text} {b_text})")),
        1 => (a.union(&b), format!("(re.union {a_text} {b_text})")),
        2 => (a.inter(&b), format!("(re.inter {a_text} {b_text})")),
        3 => (a.diff(&b), format!("(re.diff {a_text} {b_text})")),
        4 => (a.complement(), format!("(re.comp {a_text})")),
        5 => (a.star(), format!("(re.* {a_text})")),
        6 => (a.plus(), format!("(re.+ {a_text})")),
        7 => (a.opt(), format!("(re.opt {a_text})")),
        8 => (a.power(low), format!("((_ re.^ {low}) {a_text})")),
        _ => (
            a.repeat(low, high),
            format!("((_ re.loop {low} {high}) {a_text})"),
        ),
    }
}

#[test]
fn regex_membership_agrees_with_z3() {
    let mut z3 = Session::z3();
    let mut rng = ChaCha8Rng::seed_from_u64(1956);
    let mut members = 0;
    for round in 0..600 {
        let (r, text) = random_regex(&mut rng, 3, false);
        // Four strings per term, one of them a shortest member when there is one, in one
        // query.
        let mut strings: Vec<SmtString> = (0..3).map(|_| random_string(&mut rng, 4)).collect();
        if let Member::Found(member) = r.shortest_member(MAX_CODE_POINT, 100_000) {
            strings.push(member);
        }
        let mut claim = String::from("(and");
        for w in &strings {
            let inside = r.matches(w);
            members += usize::from(inside);
            claim.push_str(&format!(" (= (str.in_re {w} {text}) {inside})"));
        }
        claim.push(')');
        z3.assert_holds(&claim, &format!("round {round}: {text}"));
    }
    assert!(
        members > 300,
        "only {members} members: the test would not see false negatives"
    );
}

/// `Empty` must mean empty and `Found` must be shortest: z3 finds no string in an empty
/// language and no shorter member.
#[test]
fn shortest_members_agree_with_z3() {
    let mut z3 = Session::z3();
    let mut rng = ChaCha8Rng::seed_from_u64(1959);
    let (mut empty, mut found, mut unknown) = (0, 0, 0);
    for round in 0..300 {
        let (r, text) = random_regex(&mut rng, 3, false);
        let query = match r.shortest_member(MAX_CODE_POINT, 100_000) {
            Member::Found(member) if member.is_empty() => continue,
            Member::Found(member) => {
                found += 1;
                format!("(declare-const x String)\n(assert (str.in_re x {text}))\n(assert (< (str.len x) {}))", member.len())
            }
            Member::Empty => {
                empty += 1;
                format!("(declare-const x String)\n(assert (str.in_re x {text}))")
            }
            Member::GaveUp => panic!("round {round}: gave up on {text}"),
        };
        match z3.check(&query) {
            Answer::Unsat => {}
            Answer::Unknown => unknown += 1,
            Answer::Sat => {
                panic!("round {round}: z3 finds a string our search says cannot exist:\n{query}")
            }
        }
    }
    assert!(empty > 10 && found > 50, "empty {empty}, found {found}");
    assert!(
        unknown * 10 <= empty + found,
        "z3 left {unknown} of {} open",
        empty + found
    );
}
