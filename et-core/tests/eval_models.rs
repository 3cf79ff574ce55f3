//! No false alarms: on the first 2,000 formulas of every built-in grammar,
//! every `sat` model of the newest z3 and the newest cvc5 of the test pool is judged
//! valid or undetermined by et's evaluator, never invalid. The solvers are called
//! through `run_call` with (get-model) after each (check-sat), 50 formulas per process
//! (push/pop), with short solver time limits and a CPU-time cut per process, so the
//! test stays quick and checks the same formulas however loaded the machine is.

use std::time::Duration;

use num_bigint::BigUint;

use et_core::enumeration::Enumeration;
use et_core::solvers::call::{run_call, Input, Limits};
use et_core::solvers::testing::test_pool;
use et_eval::sexp::{read_all, SexpKind};
use et_eval::{evaluate, parse_model, Limits as EvalLimits, ModelDialect, Script, Truth};

const FORMULAS: usize = 2_000;
const BATCH: usize = 50;
/// CPU milliseconds a batch process may use before it is cut (a solver that ignores its
/// own time limit on one formula).
const BATCH_CPU_MS: u64 = 300;

#[test]
fn models_of_z3_and_cvc5_are_never_judged_invalid() {
    let pool = test_pool();
    let z3 = pool.newest("z3").expect("z3 in the test pool").clone();
    let cvc5 = pool.newest("cvc5").expect("cvc5 in the test pool").clone();
    let solvers = [
        (
            z3.family.clone(),
            z3.version.clone(),
            vec![z3.program().to_string(), "-in".into(), "-t:100".into()],
        ),
        (
            cvc5.family.clone(),
            cvc5.version.clone(),
            vec![
                cvc5.program().to_string(),
                "--incremental".into(),
                "--produce-models".into(),
                "--strings-exp".into(),
                "-q".into(),
                "--tlimit-per=100".into(),
            ],
        ),
    ];
    let mut report = Vec::new();
    for name in [
        "core",
        "ints",
        "reals",
        "realints",
        "bitvectors",
        "arrays",
        "fp",
        "strings",
    ] {
        let mut e = Enumeration::new(et_core::builtins::load(name).unwrap());
        let mut stream = e.stream_from(&BigUint::from(0u32)).unwrap();
        let mut texts = Vec::with_capacity(FORMULAS);
        while texts.len() < FORMULAS {
            texts.push(String::from_utf8(stream.current_text().to_vec()).unwrap());
            if !stream.advance() {
                break;
            }
        }
        // One thread per solver: the time is the solvers'.
        let (first, second) = std::thread::scope(|s| {
            let other = s.spawn(|| check_models(name, &texts, &solvers[1]));
            let first = check_models(name, &texts, &solvers[0]);
            (first, other.join().expect("no invalid model"))
        });
        report.extend([first, second]);
    }
    eprintln!("{}", report.join("\n"));
}

/// Whether the formula puts an Int where a Real is expected (et reads it as `to_real`).
fn needs_coercion(text: &str) -> bool {
    let script = Script::parse(text).unwrap();
    let mut coerced = 0;
    for a in &script.assertions {
        a.for_each(&mut |t| {
            if matches!(
                t.kind,
                et_eval::term::TermKind::App(et_eval::term::Op::ToReal, _)
            ) {
                coerced += 1;
            }
        });
    }
    coerced > text.matches("to_real").count()
}

/// Each formula's answer (and with `models`, what (get-model) printed), `None` where
/// the solver rejected the formula or did not answer in time. Formulas go 50 to a
/// process with push/pop; where a process stops early (an error ends cvc5; a hang is
/// cut after BATCH_CPU_MS of CPU time), the formula it stopped at is skipped and the rest go to a new one.
fn answer_all(
    command: &[String],
    texts: &[&String],
    models: bool,
) -> Vec<Option<(String, Option<String>)>> {
    let mut answers = Vec::with_capacity(texts.len());
    while answers.len() < texts.len() {
        let batch = &texts[answers.len()..texts.len().min(answers.len() + BATCH)];
        let mut input = String::new();
        for text in batch {
            input.push_str("(push 1)\n");
            input.push_str(text);
            input.push_str(if models {
                "\n(get-model)\n(pop 1)\n"
            } else {
                "\n(pop 1)\n"
            });
        }
        let outcome = run_call(
            command,
            Input::Stdin(input.as_bytes()),
            // A CPU-time cut, not a wall-clock one: which formulas get an answer must
            // not depend on how loaded the machine is. The wall limit is only a net.
            &Limits {
                cpu_timeout: Some(Duration::from_millis(BATCH_CPU_MS)),
                ..Limits::with_timeout(Duration::from_secs(30))
            },
        )
        .expect("solver runs");
        let items = read_all(&outcome.stdout_text()).unwrap_or_default();
        let mut k = 0;
        let before = answers.len();
        for _ in batch {
            let Some(answer) = items.get(k).and_then(|s| s.as_symbol()) else {
                break;
            };
            k += 1;
            let mut model = None;
            if models {
                match items.get(k) {
                    Some(s) if matches!(s.kind, SexpKind::List(_)) => {
                        k += 1;
                        model = Some(s.to_string());
                    }
                    _ => break,
                }
            }
            answers.push(Some((answer.to_string(), model)));
        }
        if answers.len() < before + batch.len() {
            answers.push(None);
        }
    }
    answers.truncate(texts.len());
    answers
}

/// Checks every sat model `command` gives on `texts` (grammar `name`); the report line.
fn check_models(
    name: &str,
    texts: &[String],
    (family, version, command): &(String, String, Vec<String>),
) -> String {
    let dialect = et_core::solvers::family::find(family)
        .map_or_else(ModelDialect::default, |f| f.model_dialect(version));
    let (mut valid, mut undetermined, mut answered) = (0, 0, 0);
    let started = std::time::Instant::now();
    // cvc5 from 1.1 on rejects an Int where a Real is expected (published
    // realints formulas): no model to check, and a process per rejection.
    let texts: Vec<&String> = texts
        .iter()
        .filter(|t| *family != "cvc5" || !needs_coercion(t))
        .collect();
    // First the answers, then the models of the sat ones: cvc5 exits at a
    // (get-model) after unsat.
    let answers = answer_all(command, &texts, false);
    answered += answers.iter().filter(|a| a.is_some()).count();
    let sat: Vec<&String> = texts
        .iter()
        .zip(&answers)
        .filter(|(_, a)| matches!(a, Some((answer, _)) if answer == "sat"))
        .map(|(t, _)| *t)
        .collect();
    for (text, answer) in sat.iter().zip(answer_all(command, &sat, true)) {
        let Some((answer, Some(model))) = answer else {
            continue;
        };
        if answer != "sat" || model.starts_with("(error") {
            continue;
        }
        let script = Script::parse(text).unwrap();
        let parsed = parse_model(&model, dialect)
            .unwrap_or_else(|e| panic!("{family} model on {text}: {e}\n{model}"));
        let evaluation = evaluate(&script, &parsed.assignment(&script), &EvalLimits::default());
        match evaluation.truth {
            Truth::True => valid += 1,
            Truth::Undetermined(_) => undetermined += 1,
            Truth::False => panic!(
                "{family} {version}: model judged invalid on {text}: {:?}\n{model}",
                evaluation.explanation
            ),
        }
    }
    eprintln!("{name} {family}: {:.1} s", started.elapsed().as_secs_f64());
    let line = format!("{name:<10} {family:<5} answered {answered:>5}  sat models valid {valid:>5}  undetermined {undetermined:>4}");
    assert!(valid > 0, "{family} gave no checkable model on {name}");
    line
}
