//! The `et-cvc5` runner over a real cvc5 wheel behaves like the cvc5 binary: answers,
//! `(error ...)` with exit 1, `--tlimit`, options, standard input.

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use et_core::solvers::testing::{test_extra, test_pool};

/// The `et-cvc5` runner of this build over the libraries of the test pool's cvc5 wheel
/// (the copy installed in the test pool may be from an older build), and the wheel's
/// version.
fn cvc5() -> (Command, String) {
    let pool = test_pool();
    let solver = pool
        .get("cvc5-1.4.2")
        .expect("the test pool has cvc5 1.4.2");
    let lib = PathBuf::from(solver.program())
        .parent()
        .and_then(|bin| bin.parent())
        .expect("<solver>/bin/cvc5")
        .join("lib");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_et-cvc5"));
    cmd.arg(format!("--et-lib-dir={}", lib.display()));
    (cmd, solver.version.clone())
}

fn run(args: &[&str], formula: &str) -> Output {
    let file = formula_file(formula);
    cvc5().0.args(args).arg(file.path()).output().unwrap()
}

/// A temporary file holding `formula`, removed when dropped.
fn formula_file(formula: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(".smt2").tempfile().unwrap();
    file.write_all(formula.as_bytes()).unwrap();
    file.flush().unwrap();
    file
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const SELF_CHECKS: &[&str] = &[
    "--check-models",
    "--check-unsat-cores",
    "--strings-exp",
    "-q",
];

#[test]
fn answers_with_self_checks() {
    let out = run(
        SELF_CHECKS,
        "(declare-const a String) (assert (str.in_re a (re.+ (str.to_re \"ab\")))) (check-sat)",
    );
    assert_eq!(stdout(&out), "sat\n");
    assert!(out.status.success());
    let out = run(
        SELF_CHECKS,
        "(declare-const a Int) (assert (> a a)) (check-sat)",
    );
    assert_eq!(stdout(&out), "unsat\n");
    assert!(out.status.success());
}

#[test]
fn parse_errors_print_error_and_exit_1() {
    let out = run(
        &["-q"],
        "(declare-const a Int) (assert (+ a true)) (check-sat)",
    );
    let text = stdout(&out);
    assert!(text.starts_with("(error \"Parse Error: "), "{text}");
    assert_eq!(out.status.code(), Some(1));
    // Output before the error is kept, as the binary does.
    let out = run(&["-q"], "(declare-const a Int) (check-sat) (check-sat");
    let text = stdout(&out);
    assert!(text.starts_with("sat\n(error \""), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn command_errors_print_error_and_stop() {
    let out = run(
        &["-q"],
        "(declare-const a Int) (check-sat) (get-unsat-core) (check-sat)",
    );
    let text = stdout(&out);
    assert!(text.starts_with("sat\n(error \""), "{text}");
    assert_eq!(text.lines().filter(|l| *l == "sat").count(), 1, "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn options_are_passed_to_cvc5() {
    let formula = "(declare-const a Int) (assert (= a 7)) (check-sat) (get-value (a))";
    let out = run(&["--produce-models", "-q"], formula);
    assert_eq!(stdout(&out), "sat\n((a 7))\n");
    let out = run(&["--produce-models=false", "-q"], formula);
    assert!(stdout(&out).starts_with("sat\n(error"), "{}", stdout(&out));
    let out = run(&["--no-such-option", "-q"], formula);
    assert_eq!(out.status.code(), Some(1));
    let all = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert!(all.contains("no-such-option"), "{all}");
}

#[test]
fn dump_models_prints_what_get_model_prints_as_the_binary_does() {
    // Two formulas with one model each (a session's shape: a reset in between), the
    // second asked again after it turned unsat; then an incomplete `unknown`.
    let checks = [
        "(set-logic QF_LIA) (declare-fun a () Int) (assert (= a 4)) (check-sat)",
        "(reset) (set-logic QF_LIA) (declare-fun b () Int) (assert (< 1 b 3)) (check-sat)",
        "(assert (> b 3)) (check-sat)",
    ];
    let asked = checks.join(" (get-model)\n");
    let options = ["--incremental", "--lang=smt2", "--produce-models", "-q"];
    let with_get_model = run(&options, &asked);
    let dump = [&options[..], &["--dump-models"]].concat();
    let dumped = run(&dump, &checks.join("\n"));
    assert_eq!(stdout(&dumped), stdout(&with_get_model));
    assert!(dumped.status.success());
    let expected =
        "sat\n(\n(define-fun a () Int 4)\n)\nsat\n(\n(define-fun b () Int 2)\n)\nunsat\n";
    assert_eq!(stdout(&dumped), expected);
    // cvc5's own driver (Debian's binary, installed by the setup) prints the same.
    let mut binary = Command::new("cvc5");
    let file = formula_file(&checks.join("\n"));
    let out = binary.args(&dump).arg(file.path()).output().unwrap();
    assert_eq!(stdout(&out), expected);
    // Without a complete answer the model is printed too (the binary's rule).
    let incomplete =
        "(set-logic QF_NRA) (declare-fun x () Real) (assert (> (* x x x) 2.0)) (check-sat)";
    let no_nl = ["--nl-ext=none", "--nl-cov=false"];
    let dumped = run(&[&dump[..], &no_nl].concat(), incomplete);
    let asked = run(
        &[&options[..], &no_nl].concat(),
        &format!("{incomplete} (get-model)"),
    );
    assert!(
        stdout(&dumped).starts_with("unknown"),
        "{}",
        stdout(&dumped)
    );
    assert!(
        stdout(&dumped).contains("(define-fun x () Real"),
        "{}",
        stdout(&dumped)
    );
    assert_eq!(stdout(&dumped), stdout(&asked));
    let out = run(&["--dump-models=maybe"], incomplete);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("maybe"), "{}", stdout(&out));
}

#[test]
fn tlimit_interrupts_like_the_binary() {
    let hard = "(set-logic ALL) (declare-const x Int) (declare-const y Int) (declare-const z Int) \
        (assert (and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z)))) (check-sat)";
    let out = run(&["--tlimit=200", "-q"], hard);
    assert_eq!(out.status.signal(), Some(libc_sigabrt()), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cvc5 interrupted by timeout."));
    assert_eq!(stdout(&out), "");
}

fn libc_sigabrt() -> i32 {
    6
}

#[test]
fn reads_standard_input_and_reports_missing_files() {
    let mut child = cvc5()
        .0
        .arg("-q")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"(declare-const a Bool) (assert (not a)) (check-sat)")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(stdout(&out), "sat\n");
    let out = cvc5().0.arg("/nonexistent.smt2").output().unwrap();
    assert_eq!(
        stdout(&out),
        "(error \"Couldn't open file: /nonexistent.smt2\")\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn version_is_the_wheels() {
    let (mut cvc5, version) = cvc5();
    let out = cvc5.arg("--version").output().unwrap();
    assert!(
        stdout(&out).contains(&format!("cvc5 version {version}")),
        "{}",
        stdout(&out)
    );
}

/// cvc5 1.0.9–1.1.x have no C API; their wheel's Python InputParser drives them instead.
#[test]
fn python_runner_for_cvc5_1_1_behaves_the_same() {
    let solver = test_extra("cvc5-1.1.2");
    assert_eq!(solver.options(), SELF_CHECKS);
    let cases = [
        (
            "(declare-const a String) (assert (= (str.++ a \"b\") \"ab\")) (check-sat)",
            "sat\n",
            Some(0),
        ),
        (
            "(declare-const a Int) (assert (> a a)) (check-sat)",
            "unsat\n",
            Some(0),
        ),
        (
            "(declare-const a Int) (assert (+ a true)) (check-sat)",
            "(error \"Parse Error: ",
            Some(1),
        ),
    ];
    for (formula, expected, code) in cases {
        let file = formula_file(formula);
        let out = solver.command_for(file.path()).output().unwrap();
        assert!(stdout(&out).starts_with(expected), "{formula}: {out:?}");
        assert_eq!(out.status.code(), code, "{formula}: {out:?}");
    }
    let hard = formula_file(
        "(set-logic ALL) (declare-const x Int) (declare-const y Int) (declare-const z Int) \
         (assert (and (> x 0) (> y 0) (> z 0) (= (+ (* x x x) (* y y y)) (* z z z)))) (check-sat)",
    );
    let out = Command::new(solver.program())
        .args(["--tlimit=300", "-q"])
        .arg(hard.path())
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), Some(libc_sigabrt()), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cvc5 interrupted by timeout."));
}
