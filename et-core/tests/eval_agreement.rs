//! et's evaluator agrees with z3 on ground formulas: for 5,000 (formula, assignment)
//! pairs per built-in grammar (formulas among the first 20,000, values drawn with a
//! fixed seed), the evaluator's true/false equals the sat/unsat of the newest z3 of the
//! test pool on the formula with the constants pinned to the values (division by zero
//! included: z3 treats it as an uninterpreted function too), except where the
//! evaluator says undetermined. The undetermined share outside sin/cos/tan must stay
//! at most 1%. Reading a formula from the enumeration's tokens gives the same script as
//! reading its text.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;

use et_core::enumeration::Enumeration;
use et_core::solvers::testing::test_pool;
use et_eval::fp::Float64;
use et_eval::string::SmtString;
use et_eval::value::ArrayValue;
use et_eval::{evaluate, Assignment, Limits, Script, Sort, Truth, Value};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const FORMULAS: usize = 20_000;
const PAIRS: usize = 5_000;

fn random_value(sort: &Sort, rng: &mut ChaCha8Rng) -> Value {
    match sort {
        Sort::Bool => Value::Bool(rng.gen()),
        Sort::Int => Value::Int(BigInt::from(if rng.gen_bool(0.8) {
            rng.gen_range(-4..=4)
        } else {
            rng.gen_range(-1000..=1000)
        })),
        Sort::Real => {
            let n: i64 = rng.gen_range(-8..=8);
            let d: i64 = [1, 1, 2, 3, 4][rng.gen_range(0..5)];
            Value::Real(BigRational::new(BigInt::from(n), BigInt::from(d)))
        }
        Sort::BitVec(w) => {
            let corner = [
                0u64,
                1,
                u64::MAX,
                2,
                1 << 63,
                0x1111111111111111,
                0xeeeeeeeeeeeeeeee,
            ];
            Value::bv(
                *w,
                if rng.gen_bool(0.6) {
                    corner[rng.gen_range(0..corner.len())]
                } else {
                    rng.gen()
                },
            )
        }
        Sort::Float64 => {
            let special = [
                Float64::POS_ZERO,
                Float64::NEG_ZERO,
                Float64::POS_INFINITY,
                Float64::NEG_INFINITY,
                Float64::NAN,
                Float64::from_f64(1.0),
                Float64::from_f64(-2.5),
                Float64::MIN_POSITIVE_SUBNORMAL,
                Float64::MAX,
            ];
            Value::Fp(if rng.gen_bool(0.6) {
                special[rng.gen_range(0..special.len())]
            } else {
                Float64::from_bits(rng.gen())
            })
        }
        Sort::String => {
            let alphabet = ['a' as u32, 'b' as u32, '0' as u32, 0xe9];
            let len = rng.gen_range(0..=3);
            Value::Str(
                SmtString::from_code_points(
                    (0..len).map(|_| alphabet[rng.gen_range(0..alphabet.len())]),
                )
                .unwrap(),
            )
        }
        Sort::Array(parts) => {
            let mut a = ArrayValue::constant(sort.clone(), random_value(&parts.1, rng));
            for _ in 0..rng.gen_range(0..=2) {
                a = a.store(random_value(&parts.0, rng), random_value(&parts.1, rng));
            }
            Value::Array(Arc::new(a))
        }
        Sort::RoundingMode | Sort::RegLan | Sort::Float(..) | Sort::Datatype(_) => {
            unreachable!("no constants of this sort in the grammars")
        }
    }
}

struct Z3 {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Z3 {
    fn start() -> Z3 {
        let pool = test_pool();
        let z3 = pool.newest("z3").expect("the test pool has z3");
        let mut child = Command::new(z3.program())
            .args(["-in", "-t:2000"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start z3");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Z3 {
            child,
            stdin,
            stdout,
        }
    }

    /// sat/unsat/unknown of the script with every constant pinned.
    fn check(&mut self, formula: &str, script: &Script, values: &[Value]) -> String {
        let mut query = String::from("(push 1)\n");
        for command in formula.split("(check-sat)") {
            query.push_str(command);
        }
        for (d, v) in script.decls.iter().zip(values) {
            query.push_str(&format!("\n(assert (= {} {v}))", d.name));
        }
        query.push_str("\n(check-sat)\n(pop 1)\n");
        self.stdin.write_all(query.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line.trim().to_string()
    }
}

impl Drop for Z3 {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn evaluator_agrees_with_z3_on_ground_formulas() {
    let mut z3 = Z3::start();
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (g, name) in [
        "core",
        "ints",
        "reals",
        "realints",
        "bitvectors",
        "arrays",
        "fp",
        "strings",
    ]
    .iter()
    .enumerate()
    {
        let mut e = Enumeration::new(et_core::builtins::load(name).unwrap());
        let mut stream = e.stream_from(&BigUint::from(0u32)).unwrap();
        let mut texts = Vec::with_capacity(FORMULAS);
        while texts.len() < FORMULAS {
            texts.push(String::from_utf8(stream.current_text().to_vec()).unwrap());
            // The enumeration's tokens read into the same script as its text.
            let mut tokens = Vec::new();
            let term = stream.current().unwrap();
            stream
                .enumeration()
                .for_each_token(term, &mut |t| tokens.push(t));
            let from_tokens = Script::from_tokens(tokens).unwrap();
            let from_text = Script::parse(texts.last().unwrap()).unwrap();
            assert_eq!(
                from_tokens.assertions[0].to_string(),
                from_text.assertions[0].to_string()
            );
            assert_eq!(from_tokens.decls, from_text.decls);
            // Shrinking beyond the grammar prints formulas back (`Script::text`): what
            // it prints reads into the same script.
            let printed = from_text.text();
            let again = Script::parse(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
            assert_eq!(again.text(), printed);
            if !stream.advance() {
                break;
            }
        }
        let scripts: Vec<Script> = texts
            .iter()
            .map(|t| Script::parse(t).unwrap_or_else(|err| panic!("{name}: {t}: {err}")))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(9 + g as u64);
        let (mut agree, mut unknown, mut undetermined, mut undetermined_trig) = (0, 0, 0, 0);
        for _ in 0..PAIRS {
            let i = rng.gen_range(0..scripts.len());
            let script = &scripts[i];
            let values: Vec<Value> = script
                .decls
                .iter()
                .map(|d| random_value(&d.sort, &mut rng))
                .collect();
            let truth = evaluate(
                script,
                &Assignment::of_values(values.clone()),
                &Limits::default(),
            )
            .truth;
            if let Truth::Undetermined(_) = truth {
                if ["(sin ", "(cos ", "(tan "]
                    .iter()
                    .any(|f| texts[i].contains(f))
                {
                    undetermined_trig += 1;
                } else {
                    undetermined += 1;
                    if undetermined <= 3 {
                        eprintln!(
                            "{name}: undetermined: {} under {values:?}: {truth}",
                            texts[i]
                        );
                    }
                }
                continue;
            }
            let answer = z3.check(&texts[i], script, &values);
            match (answer.as_str(), &truth) {
                ("sat", Truth::True) | ("unsat", Truth::False) => agree += 1,
                ("unknown", _) | ("timeout", _) => unknown += 1,
                _ => failures.push(format!(
                    "{name} #{i}: {} under {} : evaluator {truth}, z3 {answer}",
                    texts[i],
                    values
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
        let share = undetermined as f64 / PAIRS as f64;
        report.push(format!("{name:<10} agree {agree:>5}  z3 unknown {unknown:>4}  undetermined {undetermined:>4} ({:.2}%)  with sin/cos/tan {undetermined_trig:>4}", 100.0 * share));
        assert!(
            share <= 0.01,
            "{name}: {undetermined} of {PAIRS} pairs undetermined outside transcendental functions"
        );
    }
    eprintln!("{}", report.join("\n"));
    assert!(
        failures.is_empty(),
        "{} disagreements, e.g.:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Random formulas full of nested divisions by zero (dividends that hold divisions by
/// zero, divisors that may be zero, squares, floors), over pinned constants.
struct DivisionByZeroFormulas {
    rng: ChaCha8Rng,
}

impl DivisionByZeroFormulas {
    fn int(&mut self, depth: u32) -> String {
        let r = self.rng.gen_range(0..if depth == 0 { 3 } else { 12 });
        let d = depth.saturating_sub(1);
        match r {
            0 => "x".into(),
            1 => "y".into(),
            2 => match self.rng.gen_range(-2..=3) {
                n if n < 0 => format!("(- {})", -n),
                n => n.to_string(),
            },
            3 | 4 => format!("(div {} 0)", self.int(d)),
            5 => format!("(mod {} 0)", self.int(d)),
            6 => format!("(div {} {})", self.int(d), self.int(d)),
            7 => format!("(+ {} {})", self.int(d), self.int(d)),
            8 => {
                let t = self.int(d);
                format!("(* {t} {t})")
            }
            9 => format!("(ite {} {} {})", self.boolean(d), self.int(d), self.int(d)),
            10 => format!("(to_int (/ {} 0.0))", self.real(d)),
            _ => format!("(- {} {})", self.int(d), self.int(d)),
        }
    }

    fn real(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        match self.rng.gen_range(0..if depth == 0 { 2 } else { 7 }) {
            0 => "p".into(),
            1 => ["0.0", "1.0", "0.5", "(- 2.0)"][self.rng.gen_range(0..4)].into(),
            2 | 3 => format!("(/ {} 0.0)", self.real(d)),
            4 => format!("(/ {} {})", self.real(d), self.real(d)),
            5 => format!("(to_real {})", self.int(d)),
            _ => format!("(+ {} {})", self.real(d), self.real(d)),
        }
    }

    fn boolean(&mut self, depth: u32) -> String {
        let d = depth.saturating_sub(1);
        match self.rng.gen_range(0..7) {
            0 => format!("(< {} {})", self.int(d), self.int(d)),
            1 | 2 => format!("(= {} {})", self.int(d), self.int(d)),
            3 => format!("(> {} {})", self.real(d), self.real(d)),
            4 => format!("(is_int {})", self.real(d)),
            5 if depth > 0 => format!("(not {})", self.boolean(d)),
            _ => format!("(distinct {} {})", self.int(d), self.int(d)),
        }
    }
}

#[test]
fn division_by_zero_is_decided_like_z3() {
    const FORMULAS: usize = 1_500;
    let mut z3 = Z3::start();
    let mut gen = DivisionByZeroFormulas {
        rng: ChaCha8Rng::seed_from_u64(23),
    };
    let (mut agree, mut unknown, mut undetermined, mut trues) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut open = Vec::new();
    for _ in 0..FORMULAS {
        let assertions: Vec<String> = (0..gen.rng.gen_range(1..=3))
            .map(|_| gen.boolean(3))
            .collect();
        let text = format!(
            "(declare-const x Int)(declare-const y Int)(declare-const p Real)\n{}\n(check-sat)",
            assertions
                .iter()
                .map(|a| format!("(assert {a})"))
                .collect::<String>()
        );
        let script = Script::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let values = vec![
            Value::Int(BigInt::from(gen.rng.gen_range(-2..=2))),
            Value::Int(BigInt::from(gen.rng.gen_range(-2..=2))),
            Value::Real(BigRational::from_integer(BigInt::from(
                gen.rng.gen_range(-1..=1),
            ))),
        ];
        let truth = evaluate(
            &script,
            &Assignment::of_values(values.clone()),
            &Limits::default(),
        )
        .truth;
        if let Truth::Undetermined(why) = &truth {
            undetermined += 1;
            open.push(format!("{text} under {values:?}: {why}"));
            continue;
        }
        let answer = z3.check(&text, &script, &values);
        match (answer.as_str(), &truth) {
            ("sat", Truth::True) => {
                agree += 1;
                trues += 1
            }
            ("unsat", Truth::False) => agree += 1,
            ("unknown", _) | ("timeout", _) => unknown += 1,
            _ => failures.push(format!(
                "{text} under {values:?}: evaluator {truth}, z3 {answer}"
            )),
        }
    }
    eprintln!(
        "division by zero: agree {agree} (true {trues}), z3 unknown {unknown}, undetermined {undetermined}"
    );
    for o in open.iter().take(5) {
        eprintln!("undetermined: {o}");
    }
    assert!(
        failures.is_empty(),
        "{} disagreements, e.g.:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    // Both answers are common, and the search decides nearly everything.
    assert!(
        trues > FORMULAS / 10 && agree - trues > FORMULAS / 10,
        "{trues} of {agree}"
    );
    assert!(
        undetermined <= FORMULAS / 50,
        "{undetermined} of {FORMULAS} undetermined"
    );
}
