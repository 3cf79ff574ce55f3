//! `et run` end to end with real solvers (the pinned test pool), fault-injecting fakes,
//! real bug triggers of old z3 releases, interruption and resume, and shards.
//!
//! Fault tests are about what a call is classified as, never about speed: their
//! timeouts leave a loaded machine ample room, and no test asserts how long anything
//! took.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Output};
use std::time::{Duration, Instant};

use common::{
    cached_answers, campaign_args, fake, manifest, rows, show, solver, stderr, stdout, Scratch,
};
use et_core::campaign::row::RunRow;
use et_core::enumeration::{Enumeration, FormulaParser};
use et_core::oracle::{Evidence, Status, Verdict};
use et_core::solvers::SolverConfig;

const Z3: &str = "z3-4.16.0";
const CVC5: &str = "cvc5-1.4.2";

fn index_of(grammar: &str, formula: &str) -> String {
    let mut e = Enumeration::new(et_core::builtins::load(grammar).unwrap());
    let g = e.grammar().clone();
    let term = FormulaParser::new(&g).parse(formula).unwrap();
    e.rank(&term).to_string()
}

/// The rows of `dir/runs.csv` of the solver `name`.
fn rows_of(dir: &Path, name: &str) -> Vec<RunRow> {
    rows(dir).into_iter().filter(|r| r.solver == name).collect()
}

#[test]
fn core_and_strings_on_current_releases() {
    let (z3, cvc5) = (solver(Z3), solver(CVC5));
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[z3.clone(), cvc5.clone()]);
    let core = s.join("core");
    let o = s.run(&campaign_args(
        "core",
        "60",
        &pool,
        &core,
        &["--timeout", "10", "-j", "2"],
    ));
    assert!(o.status.success());
    // Results on stdout, notes on stderr.
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(
        out.contains(Z3) && out.contains(CVC5) && out.contains("!unsound"),
        "the summary table is on stdout: {out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with("60 formulas in")),
        "{out}"
    );
    assert!(!err.contains("!unsound"), "and not on stderr: {err}");
    assert!(err.contains("results in"), "{err}");
    let core_rows = rows(&core);
    assert_eq!(core_rows.len(), 120);
    let pairs: HashSet<(String, String)> = core_rows
        .iter()
        .map(|r| (r.index.clone(), r.solver.clone()))
        .collect();
    assert_eq!(pairs.len(), 120, "no duplicates");
    for r in &core_rows {
        assert!(r.status.is_decided(), "{r:?}");
        assert_eq!(r.verdict, None, "current releases agree on core: {r:?}");
        let expected_reference = if r.solver == z3.name {
            &cvc5.name
        } else {
            &z3.name
        };
        assert_eq!(&r.reference, expected_reference);
        assert_eq!(r.reference_usable, Some(true), "{r:?}");
        assert!(r.time_s > 0.0 && r.max_rss_kb > 0);
    }
    // The reference answers are cached.
    assert_eq!(cached_answers(&core.join("reference.csv")), 120);
    // run.toml says what the study was, limits and references included.
    let (text, m) = manifest(&core);
    assert!(
        text.contains("memory_mb = \"unlimited\"") && text.contains("reference = \"default rule\""),
        "{text}"
    );
    assert_eq!((m.memory_mb, m.reference), (None, None));
    assert_eq!(m.solvers[0].references, Some(vec![CVC5.to_string()]));
    assert_eq!(m.solvers[1].references, Some(vec![Z3.to_string()]));
    // et's own scratch files are gone.
    assert_eq!(s.tmp_leftovers(), Vec::<String>::new());

    let strings = s.join("strings");
    let o = s.run(&campaign_args(
        "strings",
        "30",
        &pool,
        &strings,
        &["--start", "1000", "--timeout", "10", "--memory", "4096"],
    ));
    assert!(o.status.success());
    let string_rows = rows(&strings);
    assert_eq!(string_rows.len(), 60);
    assert!(
        string_rows
            .iter()
            .all(|r| [Status::Sat, Status::Unsat, Status::Unknown].contains(&r.status)),
        "{string_rows:?}"
    );
    assert!(string_rows
        .iter()
        .all(|r| r.verdict != Some(Verdict::Unsound)));
    let indices: HashSet<&str> = string_rows.iter().map(|r| r.index.as_str()).collect();
    assert!(indices.contains("1000") && indices.contains("1029") && !indices.contains("1030"));
    let (text, m) = manifest(&strings);
    assert!(text.contains("memory_mb = 4096"), "{text}");
    assert_eq!(m.memory_mb, Some(4096));
}

/// Faults other than a hang, at a timeout no loaded machine comes near: the point is
/// what each call is classified as.
#[test]
fn faults_become_the_right_statuses_and_verdicts() {
    let z3 = solver(Z3);
    let s = Scratch::new();
    let solvers = vec![
        z3.clone(),
        fake("opposite", "opposite.sh", &[z3.program()]),
        fake("segv", "segfault.sh", &[]),
        fake("flood", "huge-output.sh", &[]),
        fake("error-sat", "error-then-sat.sh", &[]),
        fake("bad-model", "invalid-model.sh", &[]),
    ];
    let options = ["--reference", &z3.name, "--timeout", "120", "-j", "2"];
    let out = s.campaign("core", "6", &solvers, "run", &options);
    assert_eq!(rows(&out).len(), 6 * solvers.len());
    let of = |name: &str| rows_of(&out, name);
    for r in of("opposite") {
        assert_eq!(
            (r.status, r.verdict),
            (
                if r.reference_status == Some(Status::Sat) {
                    Status::Unsat
                } else {
                    Status::Sat
                },
                Some(Verdict::Unsound)
            ),
            "{r:?}"
        );
    }
    for r in of("segv") {
        assert_eq!(
            (r.status, r.verdict, r.signal),
            (Status::Crash, Some(Verdict::Crash), Some(11))
        );
    }
    for r in of("flood") {
        assert_eq!(r.status, Status::Sat, "{r:?}");
    }
    for r in of("error-sat") {
        assert_eq!((r.status, r.verdict), (Status::Rejected, None));
    }
    for r in of("bad-model") {
        assert_eq!(
            (r.status, r.verdict),
            (Status::Sat, Some(Verdict::InvalidModel))
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
    // One sample of a rejected call's output per (solver, status, first error line):
    // six identical rejections keep one.
    let samples = out.join("samples/rejected/error-sat");
    let logs: Vec<_> = std::fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let sample = std::fs::read_to_string(&logs[0]).unwrap();
    assert!(
        sample.contains("unknown function/constant str.is_digit")
            && sample.contains("exit code: 1"),
        "{sample}"
    );
    assert!(logs[0].with_extension("smt2").is_file());
    assert!(!out.join("samples/rejected/opposite").exists());
    assert_eq!(s.tmp_leftovers(), Vec::<String>::new());
}

/// A solver that never answers is killed at the timeout, with its whole process group.
#[test]
fn a_hanging_solver_times_out() {
    let z3 = solver(Z3);
    let s = Scratch::new();
    let solvers = [z3.clone(), fake("hang", "spin-forever.sh", &[])];
    // The CPU limit stops the loop however loaded the machine is.
    let options = [
        "--reference",
        &z3.name,
        "--timeout",
        "120",
        "--cpu-timeout",
        "1",
        "-j",
        "2",
    ];
    let out = s.campaign("core", "2", &solvers, "run", &options);
    let hang = rows_of(&out, "hang");
    assert_eq!(hang.len(), 2);
    for r in hang {
        // A z3 that ran out of time on a tiny formula would make this verdict-less;
        // the status alone is what matters here.
        assert_eq!((r.status, r.signal), (Status::Timeout, Some(9)), "{r:?}");
        assert!(r.cpu_s >= 1.0, "{r:?}");
    }
}

/// A 4-formula core campaign of `under_test` judged by `judges`, in a pool of z3,
/// `other` and `bad-model` (a solver whose every model is invalid); its directory.
fn judged_with_bad_model(
    s: &Scratch,
    other: SolverConfig,
    under_test: &str,
    judges: &str,
    timeout: &str,
) -> PathBuf {
    let solvers = [
        solver(Z3),
        other,
        fake("bad-model", "invalid-model.sh", &[]),
    ];
    let options = [
        "--solvers",
        under_test,
        "--reference",
        judges,
        "--timeout",
        timeout,
        "-j",
        "2",
    ];
    s.campaign("core", "4", &solvers, "run", &options)
}

/// A reference whose own model check failed has not decided the formula: nothing is
/// judged against it, and the CSV says so.
#[test]
fn a_reference_with_an_invalid_model_judges_nothing() {
    let s = Scratch::new();
    let hang = fake("hang", "sleep-forever.sh", &[]);
    let out = judged_with_bad_model(&s, hang, &format!("{Z3},hang"), "bad-model", "3");
    let all = rows(&out);
    assert_eq!(all.len(), 8);
    assert!(all.iter().any(|r| r.status == Status::Unsat), "{all:?}");
    for r in &all {
        assert_eq!(
            (r.reference.as_str(), r.reference_status, r.reference_usable,),
            ("bad-model", Some(Status::Sat), Some(false)),
            "{r:?}"
        );
        // The reference judges nothing; where z3 decided, the pool does judge the
        // hanging solver's timeout (and names z3).
        match (r.solver.as_str(), r.verdict) {
            ("hang", Some(Verdict::Timeout)) => {
                assert_eq!(r.evidence, Some(Evidence::Pool), "{r:?}");
                assert_eq!(r.decided_by, Z3, "{r:?}");
            }
            (_, verdict) => assert_eq!(verdict, None, "{r:?}"),
        }
    }
    let cache = std::fs::read_to_string(out.join("reference.csv")).unwrap();
    assert!(
        cache.lines().next().unwrap().ends_with(",usable,witness"),
        "{cache}"
    );
    // Every answer, and every witness search (none found: the calls are sat), is
    // unusable.
    assert!(
        cache.lines().skip(1).all(|l| l.ends_with(",no,")),
        "{cache}"
    );
}

/// An ordered list of judges passes over one whose answer is not usable: a `sat` with
/// an invalid model decided nothing, so the next judge is asked and is the reference.
#[test]
fn the_next_judge_decides_when_the_first_has_an_invalid_model() {
    let (z3, cvc5) = (solver(Z3), solver(CVC5));
    let s = Scratch::new();
    let judges = format!("bad-model,{}", z3.name);
    let out = judged_with_bad_model(&s, cvc5.clone(), &cvc5.name, &judges, "10");
    let all = rows(&out);
    assert_eq!(all.len(), 4);
    for r in &all {
        assert_eq!(
            (r.reference.as_str(), r.reference_usable),
            (z3.name.as_str(), Some(true)),
            "{r:?}"
        );
        assert!(r.reference_status.is_some_and(Status::is_decided), "{r:?}");
        assert_eq!(
            (Some(r.status), r.verdict),
            (r.reference_status, None),
            "{r:?}"
        );
    }
    // Both judges' answers are cached, each saying whether it could judge.
    let cache = std::fs::read_to_string(out.join("reference.csv")).unwrap();
    let usable = |solver: &str, flag: &str| {
        cache
            .lines()
            .filter(|l| l.contains(&format!(",{solver},")) && l.ends_with(&format!("{flag},")))
            .count()
    };
    assert_eq!(
        (usable("bad-model", ",no"), usable(&z3.name, ",yes")),
        (4, 4),
        "{cache}"
    );
    let (_, m) = manifest(&out);
    assert_eq!(
        m.solvers[0].references,
        Some(vec!["bad-model".to_string(), z3.name.clone()])
    );
}

/// False alarms of old z3 releases' model validation (4.8.7 on strings, 4.8.5 on ints):
/// the solver rejects a model that satisfies the formula. A verdict of its own, not an
/// invalid model: `--fail-on invalid_model` passes, triage ranks it apart.
#[test]
fn old_z3_validator_false_alarms_are_not_invalid_models() {
    let cvc5 = solver(CVC5);
    let s = Scratch::new();
    for (version, grammar, assertion, sort) in [
        ("4.8.7", "strings", "(assert (str.<= \"\" \"\"))", "String"),
        ("4.8.5", "ints", "(assert (= 0 (div a b)))", "Int"),
    ] {
        let z3 = solver(&format!("z3-{version}"));
        let file = s.pool_file(&format!("{version}.toml"), &[z3.clone(), cvc5.clone()]);
        let formula =
            format!("(declare-const a {sort}) (declare-const b {sort}) {assertion} (check-sat)");
        let index = index_of(grammar, &formula);
        let out = s.join(&z3.name);
        let o = s.run(&campaign_args(
            grammar,
            "1",
            &file,
            &out,
            &[
                "--start",
                &index,
                "--solvers",
                &z3.name,
                "--timeout",
                "10",
                "--fail-on",
                "invalid_model,unsound",
            ],
        ));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let all = rows(&out);
        assert_eq!(all.len(), 1);
        // The solver's own check fails, but et's evaluation of the model it printed
        // finds it valid: a false alarm of the validator, reported as such.
        assert_eq!(
            (
                all[0].status,
                all[0].verdict,
                all[0].evidence,
                all[0].model_check.as_str()
            ),
            (
                Status::Sat,
                Some(Verdict::ValidatorFalseAlarm),
                Some(Evidence::Model),
                "valid"
            ),
            "{:?}",
            all[0]
        );
        let log = out.join(format!(
            "bugs/validator_false_alarm/{}-{index}.log",
            z3.name
        ));
        let log = std::fs::read_to_string(log).unwrap();
        assert!(log.contains("validator false alarm"), "{log}");
        assert_eq!(all[0].reference, cvc5.name);
        let trigger = out.join(format!(
            "bugs/validator_false_alarm/{}-{index}.smt2",
            z3.name
        ));
        // The script as the solver ran it: et asked for the model after check-sat.
        assert_eq!(
            std::fs::read_to_string(trigger).unwrap().trim(),
            format!("{formula}\n(get-model)")
        );
        // The CI gate fails on the false alarm when asked for it by name.
        let gate = s.run(&[
            "run",
            "--resume",
            "--out",
            out.to_str().unwrap(),
            "--fail-on",
            "validator_false_alarm",
        ]);
        assert_eq!(gate.status.code(), Some(3), "{gate:?}");
        // Triage re-runs it and tells it apart from an invalid model.
        let triage = s.run(&["triage", out.to_str().unwrap()]);
        assert!(triage.status.success(), "{triage:?}");
        let report = std::fs::read_to_string(out.join("triage/report.md")).unwrap();
        assert!(
            report.contains("the solver's validator rejects a model that satisfies the formula"),
            "{report}"
        );
        assert!(!report.contains("does not satisfy the formula"), "{report}");
    }
}

/// Bug files at indices of hundreds of digits get short names; the full index stays in
/// the log and the CSV.
#[test]
fn triggers_at_huge_indices_have_short_file_names() {
    let s = Scratch::new();
    let solvers = [fake("bad-model", "invalid-model.sh", &[])];
    let options = ["--start", "10^400", "--timeout", "60"];
    let out = s.campaign("strings", "3", &solvers, "run", &options);
    let all = rows(&out);
    assert_eq!(all.len(), 3);
    let dir = out.join("bugs/invalid_model");
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.len() < 100, "{name}");
        if name.ends_with(".log") {
            logs.push(std::fs::read_to_string(&path).unwrap());
        }
    }
    assert_eq!(logs.len(), 3);
    for r in &all {
        assert_eq!(r.index.len(), 401);
        assert!(
            logs.iter()
                .any(|l| l.contains(&format!("index: {}\n", r.index))),
            "the log holds the full index {}",
            r.index
        );
    }
}

fn wait_for_rows(dir: &Path, at_least: usize, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(600);
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

/// A 150-formula core campaign on z3 and cvc5, started in the background and stopped by
/// `stop` once it has written `at_least` rows; then resumed to the end with `resume`
/// (the full arguments, or `--resume --out DIR` alone).
fn interrupt_and_resume(
    at_least: usize,
    stop: impl FnOnce(Child) -> Output,
    short_resume: bool,
) -> (Output, Output, usize) {
    let s = Scratch::new();
    let file = s.pool_file("pool.toml", &[solver(Z3), solver(CVC5)]);
    let out = s.join("run");
    let args = campaign_args("core", "150", &file, &out, &["--timeout", "10", "-j", "2"]);
    let mut child = s.spawn(&args);
    wait_for_rows(&out, at_least, &mut child);
    let stopped = stop(child);
    let kept = rows(&out).len();
    assert!(
        (at_least..300).contains(&kept),
        "stopped before the end with its rows: {kept}"
    );
    let mut solvers_of: std::collections::HashMap<String, usize> = Default::default();
    for r in rows(&out) {
        *solvers_of.entry(r.index).or_default() += 1;
    }
    let complete = solvers_of.values().filter(|&&n| n == 2).count();
    // Without --resume the directory is refused.
    let o = s.run(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--resume"));
    let resume: Vec<&str> = if short_resume {
        vec!["run", "--resume", "--out", out.to_str().unwrap()]
    } else {
        let mut full = args.clone();
        full.push("--resume");
        full
    };
    let resumed = s.run(&resume);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_complete(&out, 150, &[Z3, CVC5]);
    // Resuming a complete run does nothing.
    let again = s.run(&resume);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_complete(&out, 150, &[Z3, CVC5]);
    (stopped, resumed, complete)
}

#[test]
fn kill_9_then_resume_loses_and_repeats_nothing() {
    interrupt_and_resume(
        60,
        |mut child| {
            child.kill().unwrap(); // SIGKILL
            child.wait_with_output().unwrap()
        },
        false,
    );
}

#[test]
fn ctrl_c_keeps_finished_rows_and_exits_130() {
    let (o, resumed, complete) = interrupt_and_resume(
        40,
        |child| {
            // SAFETY: kill takes integers only; the child is ours and not yet reaped.
            unsafe {
                libc::kill(child.id() as i32, libc::SIGINT);
            }
            child.wait_with_output().unwrap()
        },
        true,
    );
    assert_eq!(o.status.code(), Some(130));
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    assert!(stdout(&o).contains(Z3), "summary printed: {}", stdout(&o));
    // The summary counts the formulas whose rows are all in runs.csv, no more.
    assert!(
        stdout(&o).contains(&format!("\n{complete} formulas in ")),
        "{complete} complete formulas in runs.csv: {}",
        stdout(&o)
    );
    assert!(
        stdout(&resumed).contains("done earlier"),
        "{}",
        stdout(&resumed)
    );
}

/// `scancel` (or Ctrl-C in a terminal) signals et and its solver at once; the solver may
/// die of the signal before et's handler runs. That call is not a crash of the solver:
/// nothing is recorded for it, and a resume makes it again.
#[test]
fn a_solver_signalled_together_with_et_is_not_a_crash() {
    let s = Scratch::new();
    let pidfile = s.join("solver.pid");
    let solvers = vec![fake(
        "stopped",
        "pid-then-hang.sh",
        &[pidfile.to_str().unwrap()],
    )];
    let pool = s.pool_file("pool.toml", &solvers);
    let out = s.join("run");
    let child = s.spawn(&campaign_args(
        "core",
        "3",
        &pool,
        &out,
        &["--timeout", "600", "-j", "1", "--no-models", "--no-witness"],
    ));
    let mut waited = 0;
    let solver_pid = loop {
        if let Ok(text) = std::fs::read_to_string(&pidfile) {
            break text.trim().parse::<i32>().unwrap();
        }
        assert!(waited < 6000, "the solver never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
        waited += 1;
    };
    // The solver first, et a moment later: the worker sees a solver dead of SIGTERM
    // before the run knows it is being stopped.
    // SAFETY: kill takes integers only; the solver is running (the loop above saw it).
    unsafe {
        libc::kill(solver_pid, libc::SIGTERM);
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    // SAFETY: kill takes integers only; the child is ours and not yet reaped.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let recorded = rows(&out);
    assert!(
        recorded.iter().all(|r| r.status != Status::Crash),
        "{:?}",
        recorded.iter().map(|r| &r.status).collect::<Vec<_>>()
    );
    assert!(recorded.is_empty(), "the interrupted call is not recorded");
}

#[test]
fn shards_merge_into_the_unsharded_report() {
    let solvers = [solver("z3-4.8.7"), solver(Z3), solver(CVC5)];
    let s = Scratch::new();
    let file = s.pool_file("pool.toml", &solvers);
    let names: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
    let report = |dirs: &[&Path]| -> String {
        let mut args = vec!["report".to_string()];
        args.extend(dirs.iter().map(|d| d.display().to_string()));
        let o = s.et().args(&args).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    for grammar in ["core", "strings"] {
        let whole = s.join(&format!("{grammar}-whole"));
        let study = |out: &Path, options: &[&str]| {
            let options = [&["--timeout", "10"], options].concat();
            s.run(&campaign_args(grammar, "24", &file, out, &options))
        };
        assert!(study(&whole, &[]).status.success());
        let mut shards = Vec::new();
        for k in 1..=2 {
            let d = s.join(&format!("{grammar}-shard-{k}"));
            let shard = format!("{k}/2");
            assert!(study(&d, &["--shard", &shard]).status.success());
            assert_eq!(rows(&d).len(), 12 * solvers.len());
            shards.push(d);
        }
        let merged = s.join(&format!("{grammar}-merged"));
        let o = s.run(&[
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
    let (old, new, cvc5) = (solver("z3-4.8.7"), solver(Z3), solver(CVC5));
    let s = Scratch::new();
    let file = s.pool_file("pool.toml", &[old.clone(), new.clone(), cvc5.clone()]);
    let cache = s.join("answers.csv");
    let study = |solver: &str, out: &str| {
        s.run(&campaign_args(
            "core",
            "20",
            &file,
            &s.join(out),
            &[
                "--solvers",
                solver,
                "--timeout",
                "10",
                "--reference-cache",
                cache.to_str().unwrap(),
            ],
        ))
    };
    assert!(study(&new.name, "first").status.success());
    // cvc5 judged z3 without being under test: its 20 answers are in the cache.
    assert_eq!(cached_answers(&cache), 20);
    assert!(rows(&s.join("first"))
        .iter()
        .all(|r| r.reference == cvc5.name && r.reference_status.is_some()));
    // run.toml records the reference that ran without being under test.
    let (_, m) = manifest(&s.join("first"));
    assert_eq!(m.reference_solvers.len(), 1);
    assert_eq!(m.reference_solvers[0].name, cvc5.name);
    // A second study of another version reuses them: cvc5 is not run again.
    assert!(study(&old.name, "second").status.success());
    assert_eq!(cached_answers(&cache), 20);
    let second = rows(&s.join("second"));
    assert_eq!(second.len(), 20);
    assert!(second
        .iter()
        .all(|r| r.reference == cvc5.name && r.reference_status.is_some_and(Status::is_decided)));
}

#[test]
fn resume_with_a_larger_n_grows_a_finished_campaign() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver(Z3), solver(CVC5)]);
    let out = s.join("run");
    let options = ["--timeout", "10", "-j", "2", "-q"];
    let o = s.run(&campaign_args("core", "30", &pool, &out, &options));
    assert!(o.status.success(), "{}", show(&o));
    let first = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    // A shrink is refused; a grow appends exactly the next formulas.
    let o = s.run(&[
        "run",
        "--resume",
        "--n",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(stderr(&o).contains("--n 30, not 20"), "{}", stderr(&o));
    let o = s.run(&[
        "run",
        "--resume",
        "--n",
        "50",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(manifest(&out).1.n, 50);
    // The summary covers the whole campaign: z3's row counts 50 calls, not 20.
    let z3_row = stdout(&o)
        .lines()
        .find(|l| l.starts_with(&format!("{Z3} ")))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("z3's row in {}", show(&o)));
    let counted: u64 = z3_row
        .split_whitespace()
        .skip(1)
        .take(4) // sat unsat unknown timeout
        .map(|n| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(counted, 50, "{z3_row}");
    // Resumed again with nothing left: no table of zeros, and it says so.
    let o = s.run(&["run", "--resume", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(stdout(&o).is_empty(), "{}", show(&o));
    assert!(stderr(&o).contains("nothing to do"), "{}", show(&o));
    let grown = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert!(
        grown.starts_with(&first),
        "the first rows stay as they were"
    );
    let added: Vec<RunRow> = rows(&out).into_iter().skip(60).collect();
    let indices: HashSet<String> = added.iter().map(|r| r.index.clone()).collect();
    let expected: HashSet<String> = (30..50).map(|i| i.to_string()).collect();
    assert_eq!(indices, expected, "rows for indices 30..50 only");
    assert_complete(&out, 50, &[Z3, CVC5]);
    // Any other change is still refused, and leaves run.toml as it was.
    let o = s.run(&[
        "run",
        "--resume",
        "--n",
        "60",
        "--timeout",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert_eq!(manifest(&out).1.n, 50);
    // A shard does not grow alone.
    let shard = s.join("shard");
    let mut sharded = options.to_vec();
    sharded.extend(["--shard", "1/2"]);
    let o = s.run(&campaign_args("core", "10", &pool, &shard, &sharded));
    assert!(o.status.success(), "{}", show(&o));
    let o = s.run(&[
        "run",
        "--resume",
        "--n",
        "20",
        "--out",
        shard.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(stderr(&o).contains("shard 1/2"), "{}", stderr(&o));
    assert_eq!(manifest(&shard).1.n, 10);
}

#[test]
fn a_start_up_failure_leaves_nothing_behind() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver(Z3)]);
    let out = s.join("run");
    // The reference cache cannot be created: the run fails before its first formula.
    let cache = s.join("missing/cache.csv");
    let mut options = vec!["--timeout", "10", "-q", "--reference-cache"];
    options.push(cache.to_str().unwrap());
    let args = campaign_args("core", "5", &pool, &out, &options);
    let o = s.run(&args);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(!out.exists(), "the run directory is removed");
    // A scratch directory that cannot be made: refused before anything is created.
    let o = s
        .et()
        .env("TMPDIR", s.join("nonexistent"))
        .args(campaign_args(
            "core",
            "5",
            &pool,
            &out,
            &["--timeout", "10"],
        ))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(!out.exists());
    // So the same command, once the cause is gone, starts the campaign.
    std::fs::create_dir(s.join("missing")).unwrap();
    let o = s.run(&args);
    assert!(o.status.success(), "{}", show(&o));
    assert_complete(&out, 5, &[Z3]);
    // --out naming a file is bad input.
    let file = s.join("a-file");
    std::fs::write(&file, "").unwrap();
    let o = s.run(&campaign_args(
        "core",
        "5",
        &pool,
        &file,
        &["--timeout", "10"],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(stderr(&o).contains("is not a directory"), "{}", stderr(&o));
}

#[test]
fn a_resume_says_it_cut_a_torn_last_line() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver(Z3)]);
    let out = s.join("run");
    let o = s.run(&campaign_args(
        "core",
        "10",
        &pool,
        &out,
        &["--timeout", "10", "-q"],
    ));
    assert!(o.status.success(), "{}", show(&o));
    // The last row half written, as by a kill -9 mid-write.
    let text = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let cut = text.trim_end_matches('\n').rfind('\n').unwrap() + 20;
    std::fs::write(out.join("runs.csv"), &text[..cut]).unwrap();
    let o = s.run(&["run", "--resume", "--out", out.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        stderr(&o).contains("et: warning:") && stderr(&o).contains("torn last line"),
        "{}",
        stderr(&o)
    );
    assert_complete(&out, 10, &[Z3]);
}

/// What the README says of `exit_code` and `signal`: one is set for a fresh call; a
/// session call that answered left its process running, so neither is.
#[test]
fn exit_code_and_signal_say_how_a_process_ended() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver(Z3)]);
    let out = s.join("run");
    let o = s.run(&campaign_args(
        "core",
        "40",
        &pool,
        &out,
        &["--timeout", "10", "-q", "--audit", "50"],
    ));
    assert!(o.status.success(), "{}", show(&o));
    let all = rows(&out);
    let (mut fresh, mut session) = (0, 0);
    for r in &all {
        match r.mode {
            Some(et_core::judging::CallMode::Session) => {
                session += 1;
                assert_eq!((r.exit_code, r.signal), (None, None), "{r:?}");
            }
            _ => {
                fresh += 1;
                assert!(r.exit_code.is_some() != r.signal.is_some(), "{r:?}");
            }
        }
    }
    assert!(session > 0, "z3 runs in sessions");
    assert_eq!(fresh + session, 40);
}
