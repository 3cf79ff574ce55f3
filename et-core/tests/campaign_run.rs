//! `et run` end to end with real solvers (the test pool), fault-injecting fakes, real
//! bug triggers of old z3 releases, interruption and resume, and shards.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use et_core::campaign::row::RunRow;
use et_core::enumeration::{Enumeration, FormulaParser};
use et_core::solvers::testing::test_pool;
use et_core::solvers::{Pool, SolverConfig};

fn et() -> Command {
    Command::new(env!("CARGO_BIN_EXE_et"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("et-campaign-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A pool file of its own for a test (the shared test pool file may be appended to by
/// other tests while this one reads it).
fn pool_file(dir: &Path, solvers: &[SolverConfig]) -> PathBuf {
    let path = dir.join("pool.toml");
    let text: Vec<String> = solvers.iter().map(SolverConfig::to_toml).collect();
    std::fs::write(&path, text.join("\n")).unwrap();
    path
}

fn newest(pool: &Pool, family: &str) -> SolverConfig {
    pool.newest(family).unwrap().clone()
}

fn fake(name: &str, script: &str, extra: &[&str]) -> SolverConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-solvers")
        .join(script);
    let mut command = vec![path.display().to_string()];
    command.extend(extra.iter().map(|s| s.to_string()));
    SolverConfig::new(name, "fake", "1.0", command)
}

fn run(args: &[&str]) -> Output {
    let o = et().args(args).output().unwrap();
    eprintln!("{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn rows(dir: &Path) -> Vec<RunRow> {
    let mut reader = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    reader.deserialize().map(Result::unwrap).collect()
}

fn index_of(grammar: &str, formula: &str) -> String {
    let mut e = Enumeration::new(et_core::builtins::load(grammar).unwrap());
    let g = e.grammar().clone();
    let term = FormulaParser::new(&g).parse(formula).unwrap();
    e.rank(&term).to_string()
}

#[test]
fn core_and_strings_on_current_releases() {
    let pool = test_pool();
    let (z3, cvc5) = (newest(&pool, "z3"), newest(&pool, "cvc5"));
    let dir = scratch("current");
    let pool = pool_file(&dir, &[z3.clone(), cvc5.clone()]);
    let core = dir.join("core");
    let o = run(&[
        "run",
        "-g",
        "core",
        "--n",
        "60",
        "--pool",
        pool.to_str().unwrap(),
        "--timeout",
        "10",
        "-j",
        "2",
        "--out",
        core.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let core_rows = rows(&core);
    assert_eq!(core_rows.len(), 120);
    let pairs: HashSet<(String, String)> = core_rows
        .iter()
        .map(|r| (r.index.clone(), r.solver.clone()))
        .collect();
    assert_eq!(pairs.len(), 120, "no duplicates");
    for r in &core_rows {
        assert!(r.status == "sat" || r.status == "unsat", "{r:?}");
        assert_eq!(r.verdict, "", "current releases agree on core: {r:?}");
        let expected_reference = if r.solver == z3.name {
            &cvc5.name
        } else {
            &z3.name
        };
        assert_eq!(&r.reference, expected_reference);
        assert!(r.time_s > 0.0 && r.time_s < 10.0 && r.max_rss_kb > 0);
    }
    // The reference answers are cached.
    let cached = std::fs::read_to_string(core.join("reference.csv")).unwrap();
    assert_eq!(cached.lines().count(), 1 + 120);

    let strings = dir.join("strings");
    let o = run(&[
        "run",
        "-g",
        "strings",
        "--start",
        "1000",
        "--n",
        "30",
        "--pool",
        pool.to_str().unwrap(),
        "--timeout",
        "10",
        "--out",
        strings.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let string_rows = rows(&strings);
    assert_eq!(string_rows.len(), 60);
    assert!(
        string_rows
            .iter()
            .all(|r| ["sat", "unsat", "unknown"].contains(&r.status.as_str())),
        "{string_rows:?}"
    );
    assert!(string_rows.iter().all(|r| r.verdict != "unsound"));
    let indices: HashSet<&str> = string_rows.iter().map(|r| r.index.as_str()).collect();
    assert!(indices.contains("1000") && indices.contains("1029") && !indices.contains("1030"));
}

#[test]
fn faults_become_the_right_statuses_and_verdicts() {
    let pool = test_pool();
    let z3 = newest(&pool, "z3");
    let dir = scratch("faults");
    let solvers = vec![
        z3.clone(),
        fake("opposite", "opposite.sh", &[z3.program()]),
        fake("hang", "sleep-forever.sh", &[]),
        fake("segv", "segfault.sh", &[]),
        fake("flood", "huge-output.sh", &[]),
        fake("error-sat", "error-then-sat.sh", &[]),
        fake("bad-model", "invalid-model.sh", &[]),
    ];
    let pool = pool_file(&dir, &solvers);
    let out = dir.join("run");
    let started = Instant::now();
    let o = run(&[
        "run",
        "-g",
        "core",
        "--n",
        "6",
        "--pool",
        pool.to_str().unwrap(),
        "--reference",
        &z3.name,
        "--timeout",
        "1",
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    // 6 formulas × one hanging solver at 1 s over 2 workers: about 3 s, not forever.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let all = rows(&out);
    assert_eq!(all.len(), 6 * solvers.len());
    let of = |name: &str| {
        all.iter()
            .filter(move |r| r.solver == name)
            .collect::<Vec<_>>()
    };
    for r in of("opposite") {
        assert_eq!(
            (r.status.as_str(), r.verdict.as_str()),
            (
                if r.reference_status == "sat" {
                    "unsat"
                } else {
                    "sat"
                },
                "unsound"
            ),
            "{r:?}"
        );
    }
    for r in of("hang") {
        assert_eq!(
            (r.status.as_str(), r.verdict.as_str()),
            ("timeout", "timeout")
        );
        assert!(r.time_s >= 1.0 && r.time_s < 3.0, "{r:?}");
    }
    for r in of("segv") {
        assert_eq!(
            (r.status.as_str(), r.verdict.as_str(), r.signal),
            ("crash", "crash", Some(11))
        );
    }
    for r in of("flood") {
        assert_eq!(r.status, "sat", "{r:?}");
    }
    for r in of("error-sat") {
        assert_eq!((r.status.as_str(), r.verdict.as_str()), ("rejected", ""));
    }
    for r in of("bad-model") {
        assert_eq!(
            (r.status.as_str(), r.verdict.as_str()),
            ("sat", "invalid_model")
        );
    }
    // Triggers are saved with a log holding both command lines; crashes by signature.
    let log = std::fs::read_to_string(out.join("bugs/unsound/opposite-0.log")).unwrap();
    assert!(
        log.contains("== solver: opposite") && log.contains(&format!("== reference: {}", z3.name)),
        "{log}"
    );
    assert!(out.join("bugs/unsound/opposite-0.smt2").is_file());
    assert!(out.join("bugs/invalid_model/bad-model-5.smt2").is_file());
    let crash_groups: Vec<_> = std::fs::read_dir(out.join("bugs/crash")).unwrap().collect();
    assert_eq!(crash_groups.len(), 1, "one signature, one group");
}

/// Real bugs of old z3 releases (invalid models of 4.8.7 on strings and 4.8.5 on ints),
/// found again by a campaign.
#[test]
fn old_z3_invalid_models_are_found() {
    let pool = test_pool();
    let cvc5 = newest(&pool, "cvc5");
    let dir = scratch("regressions");
    for (version, grammar, assertion, sort) in [
        ("4.8.7", "strings", "(assert (str.<= \"\" \"\"))", "String"),
        ("4.8.5", "ints", "(assert (= 0 (div a b)))", "Int"),
    ] {
        let z3 = pool.get(&format!("z3-{version}")).unwrap().clone();
        let file = pool_file(&dir, &[z3.clone(), cvc5.clone()]);
        let formula =
            format!("(declare-const a {sort}) (declare-const b {sort}) {assertion} (check-sat)");
        let index = index_of(grammar, &formula);
        let out = dir.join(&z3.name);
        let o = run(&[
            "run",
            "-g",
            grammar,
            "--start",
            &index,
            "--n",
            "1",
            "--pool",
            file.to_str().unwrap(),
            "--solvers",
            &z3.name,
            "--timeout",
            "10",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success());
        let all = rows(&out);
        assert_eq!(all.len(), 1);
        assert_eq!(
            (all[0].status.as_str(), all[0].verdict.as_str()),
            ("sat", "invalid_model"),
            "{:?}",
            all[0]
        );
        assert_eq!(all[0].reference, cvc5.name);
        let trigger = out.join(format!("bugs/invalid_model/{}-{index}.smt2", z3.name));
        assert_eq!(std::fs::read_to_string(trigger).unwrap().trim(), formula);
    }
}

fn wait_for_rows(dir: &Path, at_least: usize, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let n = std::fs::read_to_string(dir.join("runs.csv"))
            .map_or(0, |t| t.lines().count().saturating_sub(1));
        if n >= at_least {
            return;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "run ended before it could be interrupted"
        );
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn assert_complete(dir: &Path, n: usize, solvers: &[&str]) {
    let all = rows(dir);
    let pairs: HashSet<(String, String)> = all
        .iter()
        .map(|r| (r.index.clone(), r.solver.clone()))
        .collect();
    assert_eq!(pairs.len(), all.len(), "duplicate rows");
    assert_eq!(all.len(), n * solvers.len(), "missing rows");
    for i in 0..n {
        for s in solvers {
            assert!(
                pairs.contains(&(i.to_string(), s.to_string())),
                "missing {i} {s}"
            );
        }
    }
}

/// A 150-formula core campaign on the newest z3 and cvc5, started in the background and
/// stopped by `stop` once it has written `at_least` rows; then resumed to the end.
fn interrupt_and_resume(
    name: &str,
    at_least: usize,
    stop: impl FnOnce(Child) -> Output,
) -> (Output, usize) {
    let pool = test_pool();
    let (z3, cvc5) = (newest(&pool, "z3"), newest(&pool, "cvc5"));
    let dir = scratch(name);
    let file = pool_file(&dir, &[z3.clone(), cvc5.clone()]);
    let out = dir.join("run");
    let args = [
        "run",
        "-g",
        "core",
        "--n",
        "150",
        "--pool",
        file.to_str().unwrap(),
        "--timeout",
        "10",
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    let mut child = et().args(args).stderr(Stdio::piped()).spawn().unwrap();
    wait_for_rows(&out, at_least, &mut child);
    let stopped = stop(child);
    let kept = rows(&out).len();
    assert!(
        (at_least..300).contains(&kept),
        "stopped before the end with its rows: {kept}"
    );
    // Without --resume the directory is refused.
    let o = run(&args);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    assert!(run(&resumed).status.success());
    assert_complete(&out, 150, &[&z3.name, &cvc5.name]);
    // Resuming a complete run does nothing.
    assert!(run(&resumed).status.success());
    assert_complete(&out, 150, &[&z3.name, &cvc5.name]);
    (stopped, kept)
}

#[test]
fn kill_9_then_resume_loses_and_repeats_nothing() {
    interrupt_and_resume("kill9", 60, |mut child| {
        child.kill().unwrap(); // SIGKILL
        child.wait_with_output().unwrap()
    });
}

#[test]
fn ctrl_c_keeps_finished_rows_and_exits_130() {
    let (o, _) = interrupt_and_resume("sigint", 40, |child| {
        unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        }
        child.wait_with_output().unwrap()
    });
    assert_eq!(o.status.code(), Some(130));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("interrupted") && err.contains("z3"),
        "summary printed: {err}"
    );
}

#[test]
fn shards_merge_into_the_unsharded_report() {
    let pool = test_pool();
    let solvers = [
        pool.get("z3-4.8.7").unwrap().clone(),
        newest(&pool, "z3"),
        newest(&pool, "cvc5"),
    ];
    let dir = scratch("shards");
    let file = pool_file(&dir, &solvers);
    let names: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
    let report = |dirs: &[&Path]| -> String {
        let mut args = vec!["report".to_string()];
        args.extend(dirs.iter().map(|d| d.display().to_string()));
        let o = et().args(&args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    for grammar in ["core", "strings"] {
        let whole = dir.join(format!("{grammar}-whole"));
        let base = [
            "run",
            "-g",
            grammar,
            "--n",
            "24",
            "--pool",
            file.to_str().unwrap(),
            "--timeout",
            "10",
        ];
        assert!(
            run(&[&base[..], &["--out", whole.to_str().unwrap()]].concat())
                .status
                .success()
        );
        let mut shards = Vec::new();
        for k in 1..=2 {
            let d = dir.join(format!("{grammar}-shard-{k}"));
            let shard = format!("{k}/2");
            assert!(run(&[
                &base[..],
                &["--shard", &shard, "--out", d.to_str().unwrap()]
            ]
            .concat())
            .status
            .success());
            assert_eq!(rows(&d).len(), 12 * solvers.len());
            shards.push(d);
        }
        let merged = dir.join(format!("{grammar}-merged"));
        let o = run(&[
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ]);
        assert!(o.status.success());
        assert_complete(&merged, 24, &names);
        // Timings differ between runs, so the small-timeout columns may too; the
        // verdict tables and what was solved within the run's timeout must not.
        let (a, b) = (report(&[&whole]), report(&[&merged]));
        assert!(a.contains("z3-4.8.7") && a.contains(grammar), "{a}");
        let blocks = |r: &str| r.split("\n\n").map(String::from).collect::<Vec<_>>();
        let (a, b) = (blocks(&a), blocks(&b));
        assert_eq!(a[0], b[0], "bug triggers");
        assert_eq!(a[1], b[1], "performance verdicts");
        let solved_at_timeout = |block: &str| {
            block
                .lines()
                .skip(3)
                .map(|l| {
                    let cells: Vec<&str> = l.split_whitespace().collect();
                    format!(
                        "{} {} {} {}",
                        cells[0],
                        cells[1],
                        cells[2],
                        cells[cells.len() - 1]
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            solved_at_timeout(&a[2]),
            solved_at_timeout(&b[2]),
            "solved within the timeout"
        );
    }
}

#[test]
fn reference_answers_are_cached_and_reused() {
    let pool = test_pool();
    let (old, new, cvc5) = (
        pool.get("z3-4.8.7").unwrap().clone(),
        newest(&pool, "z3"),
        newest(&pool, "cvc5"),
    );
    let dir = scratch("refcache");
    let file = pool_file(&dir, &[old.clone(), new.clone(), cvc5.clone()]);
    let cache = dir.join("answers.csv");
    let study = |solver: &str, out: &str| {
        run(&[
            "run",
            "-g",
            "core",
            "--n",
            "20",
            "--pool",
            file.to_str().unwrap(),
            "--solvers",
            solver,
            "--timeout",
            "10",
            "--reference-cache",
            cache.to_str().unwrap(),
            "--out",
            dir.join(out).to_str().unwrap(),
        ])
    };
    assert!(study(&new.name, "first").status.success());
    // cvc5 judged z3 without being under test: its 20 answers are in the cache.
    let rows_in = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count() - 1;
    assert_eq!(rows_in(&cache), 20);
    assert!(rows(&dir.join("first"))
        .iter()
        .all(|r| r.reference == cvc5.name && !r.reference_status.is_empty()));
    // A second study of another version reuses them: cvc5 is not run again.
    assert!(study(&old.name, "second").status.success());
    assert_eq!(rows_in(&cache), 20);
    let second = rows(&dir.join("second"));
    assert_eq!(second.len(), 20);
    assert!(second.iter().all(|r| r.reference == cvc5.name
        && (r.reference_status == "sat" || r.reference_status == "unsat")));
}

#[test]
fn bad_input_is_refused_with_exit_2_and_no_output_dir() {
    let dir = scratch("badinput");
    let bad_pool = dir.join("bad.toml");
    std::fs::write(&bad_pool, "[[solver]]\nname = \"x\"\nfamily = 3\n").unwrap();
    let out = dir.join("never");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--pool", bad_pool.to_str().unwrap(), "--timeout", "1"],
            "bad.toml:3:10:",
        ),
        (&["--timeout", "0"], "bad timeout `0`"),
        (
            &["--shard", "3/2", "--timeout", "1"],
            "`3/2` is not a shard",
        ),
        (
            &["--start", "1e9", "--timeout", "1"],
            "`1e9` is not an index",
        ),
    ];
    for (extra, needle) in cases {
        let mut args = vec![
            "run",
            "-g",
            "core",
            "--n",
            "3",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = et().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(needle),
            "{extra:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!out.exists(), "nothing written for {extra:?}");
    }
}
