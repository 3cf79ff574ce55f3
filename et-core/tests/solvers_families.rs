//! What the family modules claim about real solvers, checked on real solvers: how to
//! ask each family for a model, yices' `(set-logic ...)` prelude, and the z3 options
//! that give pre-Unicode (8-bit) strings in each z3 release. The Debian solvers are
//! installed by `scripts/setup.sh`; the others are the test pool.

use std::path::Path;
use std::process::Command;

use et_core::solvers::family;
use et_core::solvers::testing::test_pool;
use et_core::solvers::SolverConfig;

/// Runs `command` on `script` (written into `dir`) and returns stdout and stderr.
fn run(command: &[String], dir: &Path, script: &str) -> (String, String) {
    let file = dir.join("script.smt2");
    std::fs::write(&file, script).unwrap();
    let out = Command::new(&command[0])
        .args(&command[1..])
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", command[0]));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The Debian solvers (`scripts/setup.sh` installs them), with their families'
/// self-check options as `et solvers install debian` writes them.
fn debian(package: &str, version: &str) -> SolverConfig {
    let path = format!("/usr/bin/{package}");
    assert!(
        Path::new(&path).is_file(),
        "{path} is missing: run scripts/setup.sh"
    );
    let f = family::find(package).unwrap();
    SolverConfig::installed(f, &format!("{package}-debian"), version, &path)
}

/// Every family with a model option gives a model on `(get-model)` after `sat`, in
/// SMT-LIB `define-fun` form, with exactly the command line the family prescribes.
#[test]
fn every_family_prints_a_model_when_asked_its_way() {
    let pool = test_pool();
    let dir = tempfile::tempdir().unwrap();
    let solvers = [
        pool.newest("z3").unwrap().clone(),
        pool.get("z3-4.8.5").unwrap().clone(),
        pool.newest("cvc5").unwrap().clone(),
        pool.get("yices-2.6.5").unwrap().clone(),
        debian("cvc4", "1.8"),
        debian("cvc5", "1.0.3"),
        debian("z3", "4.8.12"),
    ];
    let formula = "(declare-const a Int)\n(assert (> a 41))\n(check-sat)\n";
    for solver in &solvers {
        assert!(solver.models, "{} asks for models by default", solver.name);
        let command = solver.command_with_models().unwrap();
        let request = solver.family_info().model_request();
        let prelude = solver.prelude(Some("QF_LIA")).unwrap_or_default();
        let script = format!("{prelude}\n{formula}{request}\n");
        let (stdout, stderr) = run(&command, dir.path(), &script);
        assert!(
            stdout.starts_with("sat\n") && stdout.contains("(define-fun a () Int"),
            "{}: {command:?}\n{stdout}{stderr}",
            solver.name
        );
        assert!(!stdout.contains("(error"), "{}: {stdout}", solver.name);
    }
    // Why the options exist: cvc5 without them (or --check-models, which implies them)
    // refuses the request.
    let cvc5 = pool.newest("cvc5").unwrap();
    let plain = [cvc5.program().to_string(), "-q".to_string()];
    let (stdout, _) = run(&plain, dir.path(), &format!("{formula}(get-model)\n"));
    assert!(stdout.contains("(error"), "{stdout}");
    // A pool entry can turn models off.
    let mut off = cvc5.clone();
    off.models = false;
    assert_eq!(off.command_with_models(), None);
}

/// yices-smt2 knows no sort until a logic is set: et's formulas, which never set one,
/// are rejected without the family's prelude and answered with it.
#[test]
fn yices_answers_et_formulas_behind_its_prelude() {
    let pool = test_pool();
    let yices = pool.get("yices-2.6.5").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let formula = "(declare-const a Int) (declare-const b Int) (assert (= (* a b) 6)) \
                   (assert (> a b 1)) (check-sat)\n";
    let (stdout, _) = run(&yices.command, dir.path(), formula);
    assert!(stdout.contains("undefined sort"), "{stdout}");
    let prelude = yices.prelude(Some("QF_NIA")).unwrap();
    let (stdout, stderr) = run(&yices.command, dir.path(), &format!("{prelude}\n{formula}"));
    assert_eq!(stdout, "sat\n", "{prelude}: {stderr}");
    // A grammar without a logic gets ALL, which in yices is everything but nonlinear
    // arithmetic: better than nothing, which is why the built-ins declare theirs.
    let prelude = yices.prelude(None).unwrap();
    let (stdout, _) = run(&yices.command, dir.path(), &format!("{prelude}\n{formula}"));
    assert!(
        stdout.contains("non-linear arithmetic is not allowed"),
        "{stdout}"
    );
    let linear = "(declare-const a Int) (assert (> a 1)) (check-sat)\n";
    let (stdout, _) = run(&yices.command, dir.path(), &format!("{prelude}\n{linear}"));
    assert_eq!(stdout, "sat\n");
    // Other families get the formula as it is.
    assert_eq!(pool.newest("z3").unwrap().prelude(Some("QF_NIA")), None);
}

/// The first five formulas of `unicode_strings.pest` ask for a character above
/// \u{ff}: unsat over 8-bit characters, sat over Unicode.
fn alphabet_formulas() -> Vec<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/grammars/unicode_strings.pest");
    let grammar = et_core::builtins::load(path.to_str().unwrap()).unwrap();
    let mut e = et_core::enumeration::Enumeration::new(grammar);
    (0u32..7)
        .map(|i| {
            let term = e.term(&i.into()).unwrap();
            e.text(&term)
        })
        .filter(|f| f.contains("\\u{0}") || f.contains("(str.len a) 1"))
        .collect()
}

/// Each z3 release gets the switch to 8-bit strings it understands: none before
/// 4.8.11 (8-bit already), `unicode=false` in 4.8.11–4.8.12, `encoding=ascii` after.
#[test]
fn z3_ascii_options_give_8_bit_strings_in_each_release() {
    let pool = test_pool();
    let dir = tempfile::tempdir().unwrap();
    let formulas = alphabet_formulas();
    assert_eq!(formulas.len(), 5, "{formulas:?}");
    let z3s = [
        pool.get("z3-4.8.10").unwrap().clone(),
        debian("z3", "4.8.12"),
        pool.newest("z3").unwrap().clone(),
    ];
    for z3 in &z3s {
        let options = z3.family_info().ascii_strings_options(&z3.version).unwrap();
        let mut ascii = z3.command.clone();
        ascii.extend(options.iter().map(|o| o.to_string()));
        let unicode = z3.version != "4.8.10";
        for formula in &formulas {
            let (stdout, stderr) = run(&ascii, dir.path(), formula);
            assert_eq!(
                stdout, "unsat\n",
                "{} {options:?} on {formula}: {stderr}",
                z3.name
            );
            let (stdout, _) = run(&z3.command, dir.path(), formula);
            let expected = if unicode { "sat\n" } else { "unsat\n" };
            assert_eq!(stdout, expected, "{} on {formula}", z3.name);
        }
    }
}
