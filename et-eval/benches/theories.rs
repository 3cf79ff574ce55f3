//! Cost of single theory operations (release build, no harness):
//! `cargo bench -p et-eval --bench theories`.
//!
//! The evaluator's budget is about 100 evaluations per formula in 1 ms, so one
//! operation should take well under a microsecond or two. Each line is the mean over a
//! fixed set of random operands (best of five passes, to damp the noise of a shared
//! machine).

use std::hint::black_box;
use std::time::{Duration, Instant};

use et_eval::fp::{Float64, RoundingMode};
use et_eval::regex::Regex;
use et_eval::string::{SmtString, MAX_CODE_POINT};
use et_eval::{evaluate, parse_model, Assignment, Fp, Limits, ModelDialect, Script, Value};
use num_bigint::BigInt;
use num_rational::BigRational;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const OPERANDS: usize = 10_000;

/// Mean time per item of `f` over `items`, best of five passes.
fn per_item<T>(items: &[T], mut f: impl FnMut(&T)) -> Duration {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            for item in items {
                f(item);
            }
            start.elapsed() / items.len() as u32
        })
        .min()
        .expect("five passes")
}

fn report(name: &str, time: Duration) {
    println!("{name:<44} {:>9.1} ns", time.as_secs_f64() * 1e9);
}

/// Witness-search values (small integers, halves, specials) half of the time, random
/// bits otherwise.
fn float(rng: &mut ChaCha8Rng) -> Float64 {
    if rng.gen() {
        let specials = [
            Float64::POS_ZERO,
            Float64::NEG_ZERO,
            Float64::POS_INFINITY,
            Float64::NAN,
            Float64::MAX,
        ];
        if rng.gen_bool(0.3) {
            specials[rng.gen_range(0..specials.len())]
        } else {
            Float64::from_f64(f64::from(rng.gen_range(-8i32..=8)) / 2.0)
        }
    } else {
        Float64::from_bits(rng.gen())
    }
}

fn fp(rng: &mut ChaCha8Rng) {
    let operands: Vec<(Float64, Float64, Float64, RoundingMode)> = (0..OPERANDS)
        .map(|i| (float(rng), float(rng), float(rng), RoundingMode::ALL[i % 5]))
        .collect();
    type Op = fn(Float64, Float64, Float64, RoundingMode) -> Float64;
    let ops: [(&str, Op); 9] = [
        ("fp.add", |x, y, _, rm| x.add(y, rm)),
        ("fp.sub", |x, y, _, rm| x.sub(y, rm)),
        ("fp.mul", |x, y, _, rm| x.mul(y, rm)),
        ("fp.div", |x, y, _, rm| x.div(y, rm)),
        ("fp.fma", |x, y, z, rm| x.fma(y, z, rm)),
        ("fp.sqrt", |x, _, _, rm| x.sqrt(rm)),
        ("fp.rem", |x, y, _, _| x.remainder(y)),
        ("fp.roundToIntegral", |x, _, _, rm| x.round_to_integral(rm)),
        ("fp.lt", |x, y, _, _| Float64::from_bits(u64::from(x.lt(y)))),
    ];
    for (name, op) in ops {
        report(
            name,
            per_item(&operands, |&(x, y, z, rm)| {
                black_box(op(black_box(x), black_box(y), black_box(z), rm));
            }),
        );
    }
}

fn strings(rng: &mut ChaCha8Rng) {
    let alphabet = [0x61u32, 0x62, 0x30, 0xe9];
    let mut string = |max: usize| {
        let len = rng.gen_range(0..=max);
        SmtString::from_code_points((0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]))
            .expect("alphabet")
    };
    let operands: Vec<(SmtString, SmtString, SmtString)> = (0..OPERANDS)
        .map(|_| (string(6), string(2), string(2)))
        .collect();
    let one = BigInt::from(1);
    report(
        "str.++",
        per_item(&operands, |(s, t, _)| {
            black_box(s.concat(t));
        }),
    );
    report(
        "str.substr",
        per_item(&operands, |(s, _, _)| {
            black_box(s.substr(&one, &one));
        }),
    );
    report(
        "str.indexof",
        per_item(&operands, |(s, t, _)| {
            black_box(s.index_of(t, &one));
        }),
    );
    report(
        "str.replace_all",
        per_item(&operands, |(s, t, u)| {
            black_box(s.replace_all(t, u));
        }),
    );
    report(
        "str.to_int",
        per_item(&operands, |(s, _, _)| {
            black_box(s.to_int());
        }),
    );
    let literals: Vec<String> = operands.iter().map(|(s, _, _)| s.to_literal()).collect();
    report(
        "literal parse (SMT-LIB 2.6)",
        per_item(&literals, |text| {
            black_box(
                SmtString::parse_literal(
                    &text[1..text.len() - 1],
                    et_eval::string::Dialect::Smtlib26,
                )
                .ok(),
            );
        }),
    );
}

/// Regexes of the shapes the strings grammar enumerates.
fn regexes(rng: &mut ChaCha8Rng) {
    let a = SmtString::from_text("a").expect("ASCII");
    let empty = SmtString::new();
    let terms = [
        Regex::all_char().star(),
        Regex::literal(&a).complement(),
        Regex::literal(&a).plus().inter(&Regex::all_char().opt()),
        Regex::range(&a, &a).union(&Regex::all_char().concat(&Regex::literal(&a))),
        Regex::all().diff(&Regex::literal(&a).star()),
        Regex::literal(&empty)
            .complement()
            .concat(&Regex::all_char())
            .star(),
    ];
    let alphabet = [0x61u32, 0x62, 0xe9];
    let texts: Vec<(usize, SmtString)> = (0..OPERANDS)
        .map(|i| {
            let len = rng.gen_range(0..=4);
            let text = SmtString::from_code_points((0..len).map(|_| alphabet[rng.gen_range(0..3)]))
                .expect("alphabet");
            (i % terms.len(), text)
        })
        .collect();
    report(
        "str.in_re (grammar-shaped terms, |s| <= 4)",
        per_item(&texts, |(t, text)| {
            black_box(terms[*t].matches(text));
        }),
    );
    let builds: Vec<usize> = (0..1000).collect();
    report(
        "regex construction (re.diff re.all (re.* a))",
        per_item(&builds, |_| {
            black_box(Regex::all().diff(&Regex::literal(&a).star()));
        }),
    );
    report(
        "shortest member (grammar-shaped terms)",
        per_item(&builds, |&i| {
            black_box(terms[i % terms.len()].shortest_member(MAX_CODE_POINT, 10_000));
        }),
    );
}

/// Floating point of other formats (exact rationals, rounded once).
fn generic_fp(rng: &mut ChaCha8Rng) {
    let values: Vec<(Fp, Fp)> = (0..OPERANDS)
        .map(|_| {
            let mut pick = || {
                let n: i64 = rng.gen_range(-1000..1000);
                let d: i64 = rng.gen_range(1..64);
                BigRational::new(BigInt::from(n), BigInt::from(d))
            };
            let (a, b) = (pick(), pick());
            (
                Fp::from_rational(8, 24, &a, RoundingMode::Rne),
                Fp::from_rational(8, 24, &b, RoundingMode::Rne),
            )
        })
        .collect();
    report(
        "Float32 fp.add RNE",
        per_item(&values, |(a, b)| {
            black_box(a.add(b, RoundingMode::Rne));
        }),
    );
    report(
        "Float32 fp.mul RTZ",
        per_item(&values, |(a, b)| {
            black_box(a.mul(b, RoundingMode::Rtz));
        }),
    );
    report(
        "Float32 fp.sqrt RNE",
        per_item(&values, |(a, _)| {
            black_box(a.abs().sqrt(RoundingMode::Rne));
        }),
    );
    report(
        "Float32 -> Float16 to_fp RNE",
        per_item(&values, |(a, _)| {
            black_box(a.convert(5, 11, RoundingMode::Rne));
        }),
    );
    report(
        "Float32 fp.to_real",
        per_item(&values, |(a, _)| {
            black_box(a.to_rational());
        }),
    );
}

/// Whole evaluations of formulas of the new theories (parse once, evaluate each time).
fn formulas() {
    let cases = [
        (
            "bv128 bvmul/bvudiv/extract/concat formula",
            "(declare-const a (_ BitVec 128))(assert (= (concat ((_ extract 63 0) (bvmul a a)) ((_ extract 127 64) (bvudiv a #x00000000000000000000000000000003))) ((_ rotate_left 7) a)))",
            vec![Value::bv(128, 0x1234_5678_9abc_def0)],
        ),
        (
            "bv8 indexed-operator formula",
            "(declare-const a (_ BitVec 8))(assert (= ((_ repeat 8) (bvcomp a #x81)) ((_ rotate_left 3) (concat ((_ extract 3 0) a) ((_ extract 7 4) ((_ sign_extend 4) ((_ extract 3 0) a)))))))",
            vec![Value::bv(8, 0x81)],
        ),
        (
            "Float32 to_fp/fp.to_real formula",
            "(declare-const x Float32)(assert (< (fp.to_real (fp.add RNE x ((_ to_fp 8 24) RNE 0.1))) (fp.to_real ((_ to_fp 8 24) RTZ ((_ to_fp 11 53) RNE 1.5)))))",
            vec![Value::Float(Fp::from_rational(8, 24, &BigRational::new(BigInt::from(3), BigInt::from(4)), RoundingMode::Rne))],
        ),
        (
            "nested division by zero (true, 1 unknown)",
            "(declare-const x Int)(assert (> (div x 0) 0))(assert (= (div (ite (> (div x 0) 0) x 2) 0) 9))",
            vec![Value::Int(BigInt::from(0))],
        ),
        (
            "division by zero, 3 unknowns (false)",
            "(declare-const x Int)(assert (and (= (div (div x 0) 0) 5) (= (div (div 2 0) 0) 6) (= (div x 0) (div 2 0))))",
            vec![Value::Int(BigInt::from(1))],
        ),
    ];
    for (name, text, values) in cases {
        let script = Script::parse(text).expect("bench formula");
        let assignment = Assignment::of_values(values);
        let items: Vec<usize> = (0..1000).collect();
        report(
            name,
            per_item(&items, |_| {
                black_box(evaluate(&script, &assignment, &Limits::default()));
            }),
        );
    }
    // z3's −√2: comparisons and the square, exactly.
    let script = Script::parse(
        "(declare-const x Real)(assert (and (< x 0.0) (= (* x x) 2.0) (< (- 1.5) x)))",
    )
    .expect("bench formula");
    let model = parse_model(
        "((define-fun x () Real (root-obj (+ (^ x 2) (- 2)) 1)))",
        ModelDialect::default(),
    )
    .expect("model");
    let assignment = model.assignment(&script);
    let items: Vec<usize> = (0..1000).collect();
    report(
        "algebraic -sqrt 2: 3 comparisons and a square",
        per_item(&items, |_| {
            black_box(evaluate(&script, &assignment, &Limits::default()));
        }),
    );
}

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    println!("per operation, mean over {OPERANDS} random operands (best of 5 passes)");
    fp(&mut rng);
    generic_fp(&mut rng);
    strings(&mut rng);
    regexes(&mut rng);
    formulas();
}
