//! Pools against real installs: the test pool answers correctly, ET's solvers.cfg
//! converts, installs are idempotent, unknown and unusable versions are refused, failed
//! downloads leave nothing behind, and the `et solvers` commands behave.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use et_core::oracle::Status;
use et_core::solvers::call::{Limits, Supervisor};
use et_core::solvers::check::{check_solver, KNOWN_SAT};
use et_core::solvers::install::{InstallError, Installer, Spec};
use et_core::solvers::testing::{test_home, test_pool};
use et_core::solvers::{Pool, SolverConfig};
use et_core::version::{compare_versions, leading_numbers};

/// A private directory for one test (`tempfile`), removed when the test ends.
struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

fn scratch(label: &str) -> Scratch {
    Scratch(
        tempfile::Builder::new()
            .prefix(&format!("et-test-{label}-"))
            .tempdir()
            .unwrap(),
    )
}

/// Runs `solver` on `formula` and returns its first output line and exit success.
fn solve(solver: &SolverConfig, dir: &Path, formula: &str) -> (String, String) {
    let file = dir.join(format!("{}.smt2", solver.name));
    std::fs::write(&file, formula).unwrap();
    let out = solver.command_for(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        stdout.lines().next().unwrap_or("").to_string(),
        format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)),
    )
}

const FORMULAS: &[(&str, &str)] = &[
    ("sat", "(declare-const a Bool) (declare-const b Bool) (assert (xor a b)) (check-sat)"),
    ("unsat", "(declare-const a Bool) (assert (and a (not a))) (check-sat)"),
    ("sat", "(declare-const a Int) (declare-const b Int) (assert (= (* a b) 6)) (assert (> a b 1)) (check-sat)"),
    ("unsat", "(declare-const a Int) (assert (= (mod a 2) 3)) (check-sat)"),
    ("unsat", "(declare-const a (_ BitVec 64)) (assert (bvult a #x0000000000000000)) (check-sat)"),
    ("sat", "(declare-const a String) (declare-const b String) (assert (= (str.++ a \"a\") (str.++ \"a\" b))) (assert (distinct a b)) (check-sat)"),
    ("unsat", "(declare-const a String) (assert (= (str.len a) 3)) (assert (= (str.++ a a) \"ab\")) (check-sat)"),
];

#[test]
fn test_pool_has_old_and_new_z3_and_cvc5() {
    let pool = test_pool();
    for name in ["z3-4.8.5", "z3-4.8.7"] {
        assert!(
            pool.get(name).is_some(),
            "{name} missing from {:?}",
            pool.names()
        );
    }
    let z3 = pool.newest("z3").unwrap();
    assert!(
        compare_versions(&z3.version, "4.8.7").is_gt(),
        "newest z3 is {}",
        z3.version
    );
    assert!(
        leading_numbers(&z3.version)[0] == 4,
        "default z3 is a 4.x: {}",
        z3.version
    );
    let cvc5 = pool.newest("cvc5").unwrap();
    assert!(
        compare_versions(&cvc5.version, "1.2.0").is_ge(),
        "{}",
        cvc5.version
    );
    assert!(cvc5.options().iter().any(|o| o == "--check-models"));
    assert!(z3.options().iter().any(|o| o == "model_validate=true"));
}

#[test]
fn real_solvers_answer_sat_and_unsat_correctly() {
    let pool = test_pool();
    let dir = scratch("answers");
    let solvers = [
        pool.get("z3-4.8.5").unwrap(),
        pool.newest("z3").unwrap(),
        pool.newest("cvc5").unwrap(),
    ];
    for solver in solvers {
        for (expected, formula) in FORMULAS {
            let (answer, all) = solve(solver, &dir, formula);
            assert_eq!(answer, *expected, "{} on {formula}:\n{all}", solver.name);
        }
    }
}

#[test]
fn check_passes_on_every_test_pool_solver() {
    let pool = test_pool();
    let dir = scratch("check");
    for solver in &pool.solvers {
        let result = check_solver(
            Supervisor::global(),
            solver,
            &dir,
            &Limits::with_timeout(Duration::from_secs(30)),
        );
        assert!(result.ok(), "{result:?}");
        assert_eq!(result.sat.status, Status::Sat);
        assert_eq!(result.unsat.status, Status::Unsat);
    }
}

#[test]
fn stdin_input_mode_feeds_the_formula() {
    let pool = test_pool();
    let dir = scratch("stdin");
    let mut z3 = pool.newest("z3").unwrap().clone();
    z3.command.push("-in".into());
    z3.input = et_core::solvers::InputMode::Stdin;
    let result = check_solver(
        Supervisor::global(),
        &z3,
        &dir,
        &Limits::with_timeout(Duration::from_secs(30)),
    );
    assert!(result.ok(), "{result:?}");
}

#[test]
fn check_reports_a_missing_program() {
    let dir = scratch("missing");
    let solver = SolverConfig::new("ghost", "z3", "0", vec!["/nonexistent/z3".into()]);
    let result = check_solver(
        Supervisor::global(),
        &solver,
        &dir,
        &Limits::with_timeout(Duration::from_secs(5)),
    );
    assert!(!result.ok());
    assert!(result.sat.problem.unwrap().contains("/nonexistent/z3"));
}

#[test]
fn solvers_cfg_converts_into_a_working_pool() {
    let pool = test_pool();
    let dir = scratch("cfg");
    let z3 = pool.get("z3-4.8.7").unwrap();
    let cvc5 = pool.newest("cvc5").unwrap();
    let cfg = format!(
        "# pool of the published ET\n{}\n\n{} --strings-exp -q\n",
        z3.command.join(" "),
        cvc5.program()
    );
    let path = dir.join("solvers.cfg");
    std::fs::write(&path, cfg).unwrap();
    let converted = Pool::load(&path).unwrap();
    assert_eq!(
        converted.names(),
        ["z3-4.8.7", format!("cvc5-{}", cvc5.version).as_str()]
    );
    assert_eq!(converted.solvers[0].family, "z3");
    assert_eq!(converted.solvers[1].options(), ["--strings-exp", "-q"]);
    for solver in &converted.solvers {
        let result = check_solver(
            Supervisor::global(),
            solver,
            &dir,
            &Limits::with_timeout(Duration::from_secs(30)),
        );
        assert!(result.ok(), "{result:?}");
    }
    // `et solvers convert` writes the same pool as TOML.
    let out = Command::new(env!("CARGO_BIN_EXE_et"))
        .args(["solvers", "convert"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let toml = Pool::from_toml(&String::from_utf8(out.stdout).unwrap(), &path).unwrap();
    assert_eq!(toml.solvers, converted.solvers);
}

#[test]
fn reinstalling_is_a_no_op() {
    let pool = test_pool();
    let home = test_home();
    let pool_file = home.join("pool.toml");
    let before = std::fs::read(&pool_file).unwrap();
    let installer = Installer::new(&home);
    let report = installer
        .install(&Spec::parse_all(&["z3@4.8.5", "z3@4.8.5.0"]).unwrap())
        .unwrap();
    assert!(report.installed.is_empty(), "{report:?}");
    assert_eq!(report.present.len(), 1);
    assert_eq!(&report.present[0], pool.get("z3-4.8.5").unwrap());
    assert_eq!(std::fs::read(&pool_file).unwrap(), before);
}

#[test]
fn unknown_version_lists_available_ones() {
    let home = scratch("unknown");
    let installer = Installer::new(&home);
    let err = installer
        .install(&[Spec::parse("z3@4.99.1").unwrap()])
        .unwrap_err();
    assert!(matches!(err, InstallError::UnknownVersion { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.starts_with(
            "z3 4.99.1 is not available from PyPI `z3-solver`; available: 4.8.5, 4.8.6,"
        ),
        "{msg}"
    );
    assert!(msg.contains("4.13.0"), "{msg}");
}

#[test]
fn cvc5_without_an_smtlib_api_is_refused_with_the_reason() {
    let home = scratch("refused");
    let installer = Installer::new(&home);
    let err = installer
        .install(&[Spec::parse("cvc5@1.0.8").unwrap()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("cvc5-1.0.8 cannot be installed") && err.contains("SMT-LIB"),
        "{err}"
    );
}

/// A python3 stand-in that answers pip's version listing but fails every real download,
/// to inject a failed download.
#[test]
fn a_failed_download_leaves_nothing_behind() {
    let home = scratch("failed");
    let fake = home.join("python-fails-downloads");
    std::fs::write(
        &fake,
        "#!/bin/sh\ncase \"$*\" in *==0.0.0.0.0*) exec python3 \"$@\";; esac\n\
         echo 'ERROR: connection reset' >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let mut installer = Installer::new(&home);
    installer.python = fake.to_string_lossy().into_owned();
    let report = installer
        .install(&[Spec::parse("z3@4.8.6").unwrap()])
        .unwrap();
    assert_eq!(report.failed.len(), 1);
    let err = report.into_result().unwrap_err().to_string();
    assert!(
        err.contains("z3-4.8.6") && err.contains("connection reset"),
        "{err}"
    );
    assert!(!home.join("solvers/z3-4.8.6").exists());
    assert_eq!(std::fs::read_dir(home.join("tmp")).unwrap().count(), 0);
    assert!(!home.join("pool.toml").exists());
}

fn et(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_et"))
        .args(args)
        .env("ET_HOME", test_home())
        .output()
        .unwrap()
}

#[test]
fn cli_list_and_check_on_the_test_pool() {
    test_pool();
    let pool_file = test_home().join("pool.toml");
    let pool_arg = pool_file.to_str().unwrap();
    let out = et(&["solvers", "list", "--pool", pool_arg]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("NAME"), "{text}");
    assert!(
        text.contains("z3-4.8.5") && text.contains("model_validate=true"),
        "{text}"
    );
    let out = et(&[
        "solvers",
        "check",
        "--pool",
        pool_arg,
        "--solvers",
        "z3-4.8.5,cvc5",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("z3-4.8.5") && text.contains("cvc5-"),
        "{text}"
    );
    let out = et(&["solvers", "check", "--pool", pool_arg, "--solvers", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no solver `nope`"));
}

#[test]
fn cli_check_fails_on_a_wrong_solver() {
    let dir = scratch("wrong");
    // A "solver" that always says sat: check must notice the wrong unsat answer.
    let pool = dir.join("pool.toml");
    std::fs::write(
        &pool,
        "[[solver]]\nname = \"liar\"\nfamily = \"z3\"\nversion = \"0\"\n\
         command = [\"/bin/sh\", \"-c\", \"echo sat\", \"sh\"]\n",
    )
    .unwrap();
    let out = et(&["solvers", "check", "--pool", pool.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("expected `unsat`, got `sat`"));
    let _ = KNOWN_SAT;
}

#[test]
fn cli_reports_malformed_pool_with_position() {
    let dir = scratch("malformed");
    let pool = dir.join("pool.toml");
    std::fs::write(
        &pool,
        "[[solver]]\nname = \"x\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = \"z3\"\n",
    )
    .unwrap();
    let out = et(&["solvers", "list", "--pool", pool.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:5:11:", pool.display())), "{err}");
}

#[test]
fn help_has_examples() {
    for args in [
        &["solvers", "--help"][..],
        &["solvers", "install", "--help"],
        &["solvers", "list", "--help"],
        &["solvers", "check", "--help"],
    ] {
        let out = et(args);
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("Examples:"),
            "{args:?}"
        );
    }
}
