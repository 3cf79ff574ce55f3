//! Solvers that cannot start are setup errors, never bug triggers: real z3 and cvc5
//! under a memory limit too low to load them (both supervisions), a campaign refused
//! under that limit, the start check's own runs kept under limits (a fake solver that
//! allocates without end), and `et solvers check` (one supervisor, one classification
//! table, and clap-checked numbers).

mod common;

use common::fake_script;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use et_core::judging::check::{
    cannot_start, probe, start_check, EXPLAIN_MEMORY_MB, KNOWN_SAT, START_CHECK_TIMEOUT,
};
use et_core::oracle::{classify, Status};
use et_core::solvers::call::{Input, Limits, Supervisor};
use et_core::solvers::testing::{test_home, test_pool};
use et_core::solvers::SolverConfig;

fn newest(family: &str) -> SolverConfig {
    test_pool()
        .newest(family)
        .unwrap_or_else(|| panic!("the test pool has no {family}"))
        .clone()
}

/// 1 MiB: below what any of the solvers needs to load.
const TOO_LOW_MB: u64 = 1;

#[test]
fn real_z3_and_cvc5_cannot_start_under_too_low_a_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let (z3, cvc5) = (newest("z3"), newest("cvc5"));
    let limits = Limits {
        memory_mb: Some(TOO_LOW_MB),
        ..Limits::with_timeout(Duration::from_secs(30))
    };
    for supervisor in [Supervisor::global(), &Supervisor::process_group()] {
        let mode = supervisor.supervision().label();
        // A single call is a memout, a loader failure or a segfault, depending on the
        // solver and the supervision: never a verdict on the solver's soundness...
        for solver in [&z3, &cvc5] {
            let p = probe(
                supervisor,
                solver,
                dir.path(),
                Status::Sat,
                KNOWN_SAT,
                &limits,
            );
            assert!(!p.ok(), "{mode}: {} answered under 1 MiB", solver.name);
        }
        // ... and the start check names both, with the reason.
        let found = cannot_start(supervisor, &[&z3, &cvc5], &limits, dir.path());
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [z3.name.as_str(), cvc5.name.as_str()],
            "{mode}: {found:?}"
        );
        for (_, why) in &found {
            assert!(
                why.contains(&format!("under {EXPLAIN_MEMORY_MB} MiB it answers sat")),
                "{why}"
            );
        }
        // A sufficient limit passes the start check.
        let enough = Limits {
            memory_mb: Some(2048),
            ..limits.clone()
        };
        assert_eq!(
            cannot_start(supervisor, &[&z3, &cvc5], &enough, dir.path()),
            Vec::<(String, String)>::new(),
            "{mode}"
        );
    }
}

#[test]
fn a_solver_that_cannot_be_executed_is_a_setup_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.smt2");
    std::fs::write(&file, KNOWN_SAT).unwrap();
    let not_executable = dir.path().join("solver");
    std::fs::write(&not_executable, "not a program").unwrap();
    for command in [
        vec![dir.path().join("missing").to_string_lossy().into_owned()],
        vec![not_executable.to_string_lossy().into_owned()],
        // A wrapper whose real solver is missing: the shell exits 127.
        vec![
            "/bin/sh".into(),
            "-c".into(),
            "exec /nonexistent/z3 \"$0\"".into(),
        ],
    ] {
        let o = Supervisor::global()
            .run(
                &command,
                Input::File(&file),
                &Limits::with_timeout(Duration::from_secs(30)),
            )
            .unwrap();
        assert_eq!(
            classify(&o).status,
            Status::SetupError,
            "{command:?}: {o:?}"
        );
    }
}

fn et(args: &[&str], tmp: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_et"))
        .args(args)
        .env("TMPDIR", tmp)
        .env("ET_HOME", tmp.join("home"))
        .output()
        .unwrap()
}

#[test]
fn a_campaign_refuses_solvers_that_cannot_start_under_its_memory_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let pool = test_home().join("pool.toml");
    let (z3, cvc5) = (newest("z3"), newest("cvc5"));
    let solvers = format!("{},{}", z3.name, cvc5.name);
    let out_dir = tmp.path().join("out");
    let out = et(
        &[
            "run",
            "--grammar",
            "core",
            "--n",
            "5",
            "--timeout",
            "10",
            "--memory",
            &TOO_LOW_MB.to_string(),
            "--pool",
            pool.to_str().unwrap(),
            "--solvers",
            &solvers,
            "--out",
            out_dir.to_str().unwrap(),
        ],
        tmp.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // Refused before anything is written: no run directory, no rows, no triggers.
    assert!(!out_dir.exists(), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let error = stderr
        .lines()
        .find(|l| l.starts_with("et: error:"))
        .unwrap_or_else(|| panic!("no error line: {stderr}"));
    for name in [&z3.name, &cvc5.name] {
        assert!(
            error.contains(&format!(
                "solver `{name}` cannot start (under --memory 1 MiB"
            )),
            "{error}"
        );
    }
    // The campaign's scratch directory is gone too.
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn the_start_check_runs_a_solver_that_allocates_without_end_under_limits() {
    let dir = tempfile::tempdir().unwrap();
    let grower = SolverConfig::new("grower", "fake", "1", vec![fake_script("memory-grower.sh")]);
    // A campaign's limits: 300 MiB, and a timeout long enough that an unlimited run
    // would have grown to gigabytes.
    let limits = Limits {
        memory_mb: Some(300),
        ..Limits::with_timeout(Duration::from_secs(60))
    };
    let mib = |kb: u64| kb / 1024;
    for supervisor in [Supervisor::global(), &Supervisor::process_group()] {
        let mode = supervisor.supervision().label();
        let checks = start_check(supervisor, &[&grower], &limits, dir.path());
        assert_eq!(checks.len(), 1, "{mode}");
        let check = &checks[0];
        // The first run is under the campaign's memory limit, and its peak within it
        // (the kernel's accounting may pass the limit by a little before the kill).
        let limited = &check.limited;
        assert_eq!(limited.limits.memory_mb, Some(300), "{mode}");
        assert!(!limited.ok(), "{mode}: {limited:?}");
        assert!(mib(limited.max_rss_kb) <= 330, "{mode}: {limited:?}");
        // The run that explains the failure has a cap and a short time limit of its
        // own, and stays within them.
        let explained = check
            .explained
            .as_ref()
            .unwrap_or_else(|| panic!("{mode}: no explaining run: {check:?}"));
        assert_eq!(
            explained.limits.memory_mb,
            Some(EXPLAIN_MEMORY_MB),
            "{mode}"
        );
        assert_eq!(explained.limits.timeout, START_CHECK_TIMEOUT, "{mode}");
        assert_eq!(
            explained.limits.cpu_timeout,
            Some(START_CHECK_TIMEOUT),
            "{mode}"
        );
        assert!(!explained.ok(), "{mode}: {explained:?}");
        assert!(
            mib(explained.max_rss_kb) <= EXPLAIN_MEMORY_MB * 11 / 10,
            "{mode}: {explained:?}"
        );
        // It fails without the campaign's limit too, and not for want of starting: it
        // is run, and its calls say what it does.
        assert_eq!(check.cannot_start, None, "{mode}: {check:?}");
    }
}

/// A pool file of fake solvers in `dir`.
fn fake_pool(dir: &Path, solvers: &[(&str, Vec<String>)]) -> PathBuf {
    let mut text = String::new();
    for (name, command) in solvers {
        let command: Vec<String> = command.iter().map(|a| format!("{a:?}")).collect();
        text.push_str(&format!(
            "[[solver]]\nname = \"{name}\"\nfamily = \"fake\"\nversion = \"1\"\ncommand = [{}]\n\n",
            command.join(", ")
        ));
    }
    let path = dir.join("pool.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn solvers_check_refuses_bad_numbers_without_panicking() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        &["solvers", "check", "--timeout=nan"][..],
        &["solvers", "check", "--timeout=-1"],
        &["solvers", "check", "--timeout=0"],
        &["solvers", "check", "--timeout=inf"],
        &["solvers", "check", "--timeout=1e300"],
        &["solvers", "check", "--timeout=1/0"],
        &["solvers", "check", "--cpu-timeout=nan"],
        &["solvers", "check", "--memory=0"],
        &["solvers", "check", "--memory=-5"],
        &["solvers", "install", "z3@4.8.5", "--jobs=0"],
        &[
            "run",
            "-g",
            "core",
            "--n",
            "1",
            "--timeout",
            "1",
            "--cpu-timeout=nan",
        ],
        &[
            "run",
            "-g",
            "core",
            "--n",
            "1",
            "--timeout",
            "1",
            "--memory=0",
        ],
    ] {
        let out = et(args, tmp.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let bad = args.last().unwrap().split('=').nth(1).unwrap();
        assert!(
            stderr.contains(bad),
            "{args:?} does not name `{bad}`: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn solvers_check_kills_a_grandchild_holding_stdout_and_classifies_like_a_run() {
    let tmp = tempfile::tempdir().unwrap();
    let pidfile = tmp.path().join("orphan.pid");
    let pool = fake_pool(
        tmp.path(),
        &[
            (
                "orphan",
                vec![
                    fake_script("orphan.sh"),
                    pidfile.to_string_lossy().into_owned(),
                    "keep-pipes".into(),
                ],
            ),
            ("invalid", vec![fake_script("invalid-model.sh")]),
            (
                "missing",
                vec![
                    "/bin/sh".into(),
                    "-c".into(),
                    "exec /nonexistent/z3 \"$0\"".into(),
                ],
            ),
        ],
    );
    let out = et(
        &[
            "solvers",
            "check",
            "--timeout",
            "60",
            "--pool",
            pool.to_str().unwrap(),
        ],
        tmp.path(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no line for {name}: {stdout}"))
            .to_string()
    };
    // orphan.sh answers sat to everything: right on the sat formula, wrong on unsat.
    let orphan = line("orphan");
    assert!(
        orphan.contains("sat ") && orphan.contains("FAIL (expected `unsat`, got `sat`)"),
        "{orphan}"
    );
    let pid: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let gone = (0..2000).any(|_| {
        let dead = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |s| {
            s.rsplit(')')
                .next()
                .is_some_and(|r| r.trim_start().starts_with('Z'))
        });
        if !dead {
            std::thread::sleep(Duration::from_millis(10));
        }
        dead
    });
    assert!(gone, "the grandchild {pid} outlived the check");
    assert!(line("invalid").contains("FAIL (invalid model:"), "{stdout}");
    assert!(line("missing").contains("FAIL (setup_error:"), "{stdout}");
}

#[test]
fn solvers_check_reports_a_memory_limit_too_low_to_start() {
    let tmp = tempfile::tempdir().unwrap();
    let pool = test_home().join("pool.toml");
    let (z3, cvc5) = (newest("z3"), newest("cvc5"));
    let solvers = format!("{},{}", z3.name, cvc5.name);
    let out = et(
        &[
            "solvers",
            "check",
            "--memory",
            &TOO_LOW_MB.to_string(),
            "--pool",
            pool.to_str().unwrap(),
            "--solvers",
            &solvers,
        ],
        tmp.path(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    for name in [&z3.name, &cvc5.name] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(name.as_str()))
            .unwrap();
        assert!(
            line.contains("FAIL (setup_error: under --memory 1 MiB"),
            "{line}"
        );
    }
    // And with enough memory both pass.
    let out = et(
        &[
            "solvers",
            "check",
            "--memory",
            "2048",
            "--pool",
            pool.to_str().unwrap(),
            "--solvers",
            &solvers,
        ],
        tmp.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
