//! Pools against real installs: the test pool answers correctly, ET's solvers.cfg
//! converts, installs are idempotent, unknown and unusable versions fail alone (the
//! other specs are installed), failed downloads leave nothing behind, a listing never
//! installs, and the `et solvers` commands behave.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use et_core::judging::check::{check_solver, KNOWN_SAT};
use et_core::oracle::Status;
use et_core::solvers::call::{Limits, Supervisor};
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
    let mut report = installer
        .install(&[Spec::parse("z3@4.99.1").unwrap()])
        .unwrap();
    let (spec, err) = report.failed.pop().expect("a failure");
    assert_eq!(spec, "z3@4.99.1");
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
    // Known from the version alone: no PyPI lookup (a python that cannot run shows it).
    let mut installer = Installer::new(&home);
    installer.python = home.join("no-python").to_string_lossy().into_owned();
    let report = installer
        .install(&[Spec::parse("cvc5@1.0.8").unwrap()])
        .unwrap();
    assert_eq!(report.failed.len(), 1, "{report:?}");
    let (spec, err) = &report.failed[0];
    assert_eq!(spec, "cvc5@1.0.8");
    assert!(matches!(err, InstallError::Unusable { .. }), "{err}");
    let err = err.to_string();
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

/// Runs `et args` with `ET_HOME` set to `home` (a scratch home, never the test pool's).
fn et_in(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_et"))
        .args(args)
        .env("ET_HOME", home)
        .env("TMPDIR", home)
        .output()
        .unwrap()
}

/// A scratch home where the test pool's `name` counts as installed (a link to its
/// directory, read only): installing it again needs no network.
fn home_with_installed(label: &str, name: &str) -> Scratch {
    let home = scratch(label);
    std::fs::create_dir(home.join("solvers")).unwrap();
    std::os::unix::fs::symlink(
        test_home().join("solvers").join(name),
        home.join("solvers").join(name),
    )
    .unwrap();
    home
}

#[test]
fn cli_install_installs_what_it_can_and_names_what_it_cannot() {
    test_pool();
    let home = home_with_installed("partial", "z3-4.16.0");
    // cvc5 1.0.8 is refused from its version alone; yices 0.0.1 is not on PyPI (or PyPI
    // is out of reach): either way that spec alone fails.
    let out = et_in(
        &home,
        &[
            "solvers",
            "install",
            "z3@4.16.0",
            "cvc5@1.0.8",
            "yices@0.0.1",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    // Results on stdout: the solver and the summary.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0], "z3-4.16.0  already installed");
    assert!(
        lines[1].starts_with("0 installed, 1 already present, 0 skipped, 2 failed (pool: "),
        "{stdout}"
    );
    // Diagnostics on stderr, one `et: error:` line per spec that failed, with why.
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("et: error: cvc5@1.0.8: cvc5-1.0.8 cannot be installed: ")),
        "{stderr}"
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("et: error: yices@0.0.1: ")),
        "{stderr}"
    );
    for line in stderr.lines().filter(|l| !l.starts_with(' ')) {
        assert!(line.starts_with("et: "), "{line}");
    }
    // What could be installed is in the pool; what could not, nowhere.
    let pool = Pool::load(&home.join("pool.toml")).unwrap();
    assert_eq!(pool.names(), ["z3-4.16.0"]);
    assert!(!home.join("solvers/cvc5-1.0.8").exists());

    // A malformed spec refuses the whole command before anything is installed.
    let home = home_with_installed("bad-spec", "z3-4.16.0");
    let out = et_in(&home, &["solvers", "install", "z3@4.16.0", "boolector@3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("et: error: bad solver spec `boolector@3`"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert!(!home.join("pool.toml").exists());
}

/// A folder holding a `python3` for `et solvers install` to find first on PATH, which
/// never reaches PyPI: asked for the versions of `z3-solver`, it answers as pip does
/// (listing `versions`, or failing as without network when there are none), and every
/// other request fails as without network.
fn offline_python(home: &Path, versions: Option<&str>) -> std::path::PathBuf {
    let bin = home.join("offline-bin");
    std::fs::create_dir(&bin).unwrap();
    let listing = match versions {
        Some(v) => format!(
            "*z3-solver==0.0.0.0.0*) echo 'ERROR: Could not find a version that satisfies \
             the requirement z3-solver==0.0.0.0.0 (from versions: {v})' >&2; exit 1;;"
        ),
        None => String::new(),
    };
    let python = bin.join("python3");
    std::fs::write(
        &python,
        format!(
            "#!/bin/sh\ncase \"$*\" in {listing} esac\n\
             echo 'ERROR: no network in this test' >&2\nexit 1\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&python, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    bin
}

/// `et args` with `ET_HOME` (and `TMPDIR`) at `home` and `bin` first on PATH.
fn et_with_path(home: &Path, bin: &Path, args: &[&str]) -> std::process::Output {
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    Command::new(env!("CARGO_BIN_EXE_et"))
        .args(args)
        .env("ET_HOME", home)
        .env("TMPDIR", home)
        .env("PATH", path)
        .output()
        .unwrap()
}

#[test]
fn cli_install_of_a_family_alone_takes_its_newest_release() {
    test_pool();
    // The newest release is installed already, so nothing is downloaded. In the
    // listing's order 4.8.10 comes last, but 4.16.0 is the newest release.
    let home = home_with_installed("newest", "z3-4.16.0");
    let bin = offline_python(&home, Some("4.8.5.0, 4.16.0.0, 4.8.0.0.post1, 4.8.10.0"));
    let out = et_with_path(&home, &bin, &["solvers", "install", "z3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(stdout.lines().next(), Some("z3-4.16.0  already installed"));
    // It says which release it chose.
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("et: z3: ") && l.contains("z3-4.16.0")),
        "{stderr}"
    );
    let pool = Pool::load(&home.join("pool.toml")).unwrap();
    assert_eq!(pool.names(), ["z3-4.16.0"]);

    // With PyPI out of reach the spec fails, named, and nothing is registered.
    let home = scratch("newest-offline");
    let bin = offline_python(&home, None);
    let out = et_with_path(&home, &bin, &["solvers", "install", "z3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("et: error: z3@latest: ")),
        "{stderr}"
    );
    assert!(!home.join("pool.toml").exists());
}

#[test]
fn cli_list_without_a_pool_installs_nothing() {
    let home = scratch("no-pool");
    let out = et_in(&home, &["solvers", "list"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        format!(
            "no pool ({} does not exist); install one with `et solvers install z3@4.x cvc5@latest`\n",
            home.join("pool.toml").display()
        )
    );
    // Nothing was fetched or written.
    let left: Vec<_> = std::fs::read_dir(&*home).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    // A pool named on the command line must exist.
    let missing = home.join("missing.toml");
    let out = et_in(
        &home,
        &["solvers", "list", "--pool", missing.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
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
fn cli_add_takes_a_family_et_does_not_know() {
    // A scratch home: `et solvers add` takes the home's lock, and tests never write to
    // the test pool's home.
    let home = scratch("add-unknown-family");
    // A local build of a family et does not know: z3 4.16.0 behind a wrapper script.
    let z3 = test_pool().get("z3-4.16.0").unwrap().clone();
    let program = home.join("mathsat");
    std::fs::write(
        &program,
        format!("#!/bin/sh\nexec '{}' \"$@\"\n", z3.program()),
    )
    .unwrap();
    std::fs::set_permissions(
        &program,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let program = program.to_str().unwrap();
    let pool = home.join("head.toml");
    let pool_arg = pool.to_str().unwrap();
    let add = |family: &str, pool: &str| {
        et_in(
            &home,
            &[
                "solvers",
                "add",
                program,
                "--family",
                family,
                "--version",
                "5.6.10",
                "--pool",
                pool,
            ],
        )
    };
    let out = add("mathsat", pool_arg);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let added = Pool::load(&pool).unwrap();
    let solver = added
        .get("mathsat-5.6.10")
        .expect("added by FAMILY-VERSION");
    assert_eq!(solver.family, "mathsat");
    assert_eq!(solver.command, [program], "no self-checks et does not know");
    // It runs as a generic SMT-LIB solver: the check of `et solvers check` passes.
    let out = et_in(&home, &["solvers", "check", "--pool", pool_arg]);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // A family that cannot be a name is refused, and nothing is written.
    let other = home.join("other.toml");
    let out = add("math sat", other.to_str().unwrap());
    assert_eq!(out.status.code(), Some(2));
    assert!(!other.exists());
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

/// Writes an executable wrapper at `path` that runs the test pool's z3 4.16.0.
fn z3_wrapper(path: &Path) {
    let z3 = test_pool().get("z3-4.16.0").unwrap().clone();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\nexec '{}' \"$@\"\n", z3.program())).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

/// Copies the directory `from` to `to` (`cp -a`) and removes `from`.
fn move_by_copy(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::remove_dir_all(from).unwrap();
}

#[test]
fn a_copied_pool_directory_runs_its_own_solvers() {
    let dir = scratch("copied-pool");
    let old = dir.join("old");
    z3_wrapper(&old.join("bin/z3"));
    // A relative path with a `/` is relative to the pool file; a bare name is PATH's.
    std::fs::write(
        old.join("pool.toml"),
        "[[solver]]\nname = \"mine\"\nfamily = \"z3\"\nversion = \"4.16.0\"\n\
         command = [\"bin/z3\", \"model_validate=true\"]\n\n\
         [[solver]]\nname = \"dot\"\nfamily = \"z3\"\nversion = \"4.16.0\"\n\
         command = [\"./bin/z3\"]\n\n\
         [[solver]]\nname = \"on-path\"\nfamily = \"z3\"\nversion = \"4.16.0\"\n\
         command = [\"sh\", \"-c\", \"echo sat\", \"sh\"]\n",
    )
    .unwrap();
    let new = dir.join("new");
    move_by_copy(&old, &new);
    let in_copy = new.join("bin/z3");
    let in_copy = in_copy.to_str().unwrap();
    // From anywhere, with the pool named absolutely or relatively to where et runs.
    for (cwd, pool) in [
        (Path::new("/"), new.join("pool.toml")),
        (&*new, "pool.toml".into()),
    ] {
        let run = |args: &[&str]| {
            Command::new(env!("CARGO_BIN_EXE_et"))
                .args(args)
                .env("ET_HOME", &*dir)
                .current_dir(cwd)
                .output()
                .unwrap()
        };
        let pool = pool.to_str().unwrap();
        let out = run(&["solvers", "list", "--pool", pool]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        for name in ["mine", "dot"] {
            let line = text.lines().find(|l| l.starts_with(name)).unwrap();
            assert!(line.contains(in_copy), "{line}");
        }
        let line = text.lines().find(|l| l.starts_with("on-path")).unwrap();
        assert!(line.contains(" sh ") && !line.contains("/sh"), "{line}");
        let out = run(&["solvers", "check", "--pool", pool, "--solvers", "mine,dot"]);
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // What ran is recorded resolved: the loaded pool holds the copy's absolute path.
    let pool = Pool::load(&new.join("pool.toml")).unwrap();
    assert_eq!(pool.get("mine").unwrap().program(), in_copy);
    assert_eq!(pool.get("dot").unwrap().program(), in_copy);
    assert_eq!(pool.get("on-path").unwrap().program(), "sh");
}

#[test]
fn et_writes_programs_under_the_pool_directory_relative_to_it() {
    let dir = scratch("relative-add");
    let home = dir.join("home");
    z3_wrapper(&home.join("builds/z3"));
    z3_wrapper(&dir.join("elsewhere/z3"));
    let add = |home: &Path, program: &Path, name: &str| {
        let out = et_in(
            home,
            &[
                "solvers",
                "add",
                program.to_str().unwrap(),
                "--version",
                "4.16.0",
                "--name",
                name,
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    add(&home, &home.join("builds/z3"), "inside");
    add(&home, &home.join("builds/./z3"), "inside-dot");
    add(&home, &dir.join("elsewhere/z3"), "outside");
    let text = std::fs::read_to_string(home.join("pool.toml")).unwrap();
    assert!(
        text.contains("command = [\"builds/z3\", \"model_validate=true\"]"),
        "{text}"
    );
    assert_eq!(text.matches("\"builds/z3\"").count(), 2, "{text}");
    let outside = dir.join("elsewhere/z3");
    assert!(
        text.contains(&format!("command = [\"{}\"", outside.display())),
        "{text}"
    );
    // A copy of the home runs the copy's build, and the outside one where it is.
    let copy = dir.join("copy");
    move_by_copy(&home, &copy);
    let out = et_in(&copy, &["solvers", "check", "--solvers", "inside,outside"]);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let pool = Pool::load(&copy.join("pool.toml")).unwrap();
    assert_eq!(
        Path::new(pool.get("inside").unwrap().program()),
        copy.join("builds/z3")
    );
    assert_eq!(Path::new(pool.get("outside").unwrap().program()), outside);
    // Installed releases too: `solvers/<name>/bin/<program>`.
    let home = home_with_installed("relative-install", "z3-4.16.0");
    Installer::new(&home)
        .install(&[Spec::parse("z3@4.16.0").unwrap()])
        .unwrap();
    let text = std::fs::read_to_string(home.join("pool.toml")).unwrap();
    assert!(
        text.contains("command = [\"solvers/z3-4.16.0/bin/z3\", \"model_validate=true\"]"),
        "{text}"
    );
}
