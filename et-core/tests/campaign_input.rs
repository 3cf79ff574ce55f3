//! `et run` refuses what it cannot do right, before or while doing it: bad numbers,
//! conflicting inputs, an empty pool, solvers that cannot start, a changed study on `--resume`, a
//! directory another run holds, unsafe solver names — exit 2 with the offending value
//! and nothing written — and a write error stops the campaign at once (exit 1) with no
//! torn line left.

mod common;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{fake, rows, solver, stderr, Scratch};
use et_core::solvers::SolverConfig;

const Z3: &str = "z3-4.16.0";
const CVC5: &str = "cvc5-1.4.2";

/// Runs `et run -g core --n 3 --out DIR ARGS` and checks that it is refused with exit
/// 2, a message holding `needle`, no panic, and no `DIR`.
fn refused(s: &Scratch, args: &[&str], needle: &str) {
    let out = s.join("never");
    let mut all = vec![
        "run",
        "-g",
        "core",
        "--n",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let o = s.et().args(&all).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!out.exists(), "nothing written for {args:?}");
}

#[test]
fn bad_numbers_and_files_are_refused_with_exit_2_and_no_output_dir() {
    let s = Scratch::new();
    let bad_pool = s.join("bad.toml");
    std::fs::write(&bad_pool, "[[solver]]\nname = \"x\"\nfamily = 3\n").unwrap();
    let pool = s.pool_file("pool.toml", &[solver(Z3)]);
    let pool = pool.to_str().unwrap();
    refused(
        &s,
        &["--pool", bad_pool.to_str().unwrap(), "--timeout", "1"],
        "bad.toml:3:10:",
    );
    for (timeout, needle) in [
        ("0", "`0`"),
        ("-1", "`-1`"),
        ("nan", "`nan`"),
        ("inf", "`inf`"),
        ("1e300", "`1e300`"),
        ("1e-9", "`1e-9`"),
        ("1/0", "`1/0`"),
        ("fast", "`fast`"),
    ] {
        refused(&s, &["--pool", pool, "--timeout", timeout], needle);
    }
    for memory in ["0", "-5", "lots", "1.5", "99999999999999999999999"] {
        refused(
            &s,
            &["--pool", pool, "--timeout", "1", "--memory", memory],
            memory,
        );
    }
    for jobs in ["0", "-1", "100000", "two"] {
        refused(
            &s,
            &["--pool", pool, "--timeout", "1", "--jobs", jobs],
            jobs,
        );
    }
    refused(
        &s,
        &["--pool", pool, "--shard", "3/2", "--timeout", "1"],
        "`3/2` is not a shard",
    );
    refused(
        &s,
        &["--pool", pool, "--start", "1e9", "--timeout", "1"],
        "`1e9` is not a non-negative integer",
    );
    // `--n` takes the numeric grammar of every count (optional as it is with --resume):
    // zero and values beyond 64 bits are refused, `10^2` is a count.
    let out = s.join("never");
    for (n, needle) in [
        ("0", "must be at least 1"),
        ("10^20", "`10^20` is larger than"),
    ] {
        let o = s
            .et()
            .args([
                "run",
                "-g",
                "core",
                "--pool",
                pool,
                "--timeout",
                "1",
                "--n",
                n,
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{n}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{n}: {}", stderr(&o));
        assert!(!out.exists());
    }
    assert_eq!(s.tmp_leftovers(), Vec::<String>::new());
}

#[test]
fn conflicting_or_missing_pools_are_refused() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver(Z3)]);
    let other = s.pool_file("other.toml", &[solver(CVC5)]);
    let (pool, other) = (pool.to_str().unwrap(), other.to_str().unwrap());
    refused(
        &s,
        &["--pool", pool, "--solvers", other, "--timeout", "1"],
        "--pool",
    );
    refused(
        &s,
        &["--pool", "/nonexistent/pool.toml", "--timeout", "1"],
        "/nonexistent/pool.toml",
    );
    refused(
        &s,
        &[
            "--pool",
            "/nonexistent/pool.toml",
            "--solvers",
            other,
            "--timeout",
            "1",
        ],
        "--pool",
    );
    refused(
        &s,
        &["--solvers", "/nonexistent/pool.toml", "--timeout", "1"],
        "/nonexistent/pool.toml",
    );
    refused(
        &s,
        &["--pool", pool, "--solvers", "z3-9.9.9", "--timeout", "1"],
        "z3-9.9.9",
    );
}

#[test]
fn solvers_that_cannot_start_are_refused_before_anything_is_written() {
    let s = Scratch::new();
    let z3 = solver(Z3);
    let ghost = SolverConfig::new("ghost", "z3", "0", vec!["/nonexistent/bin/z3".into()]);
    let pool = s.pool_file("ghost.toml", &[z3.clone(), ghost.clone()]);
    refused(
        &s,
        &["--pool", pool.to_str().unwrap(), "--timeout", "1"],
        "/nonexistent/bin/z3",
    );
    refused(
        &s,
        &["--pool", pool.to_str().unwrap(), "--timeout", "1"],
        "ghost",
    );
    let text_file = s.join("not-a-program");
    std::fs::write(&text_file, "sat\n").unwrap();
    let mut plain = ghost.clone();
    plain.name = "plain".into();
    plain.command = vec![text_file.display().to_string()];
    let pool = s.pool_file("plain.toml", &[z3.clone(), plain]);
    refused(
        &s,
        &["--pool", pool.to_str().unwrap(), "--timeout", "1"],
        "not executable",
    );
    let mut unknown = ghost.clone();
    unknown.name = "unknown".into();
    unknown.command = vec!["et-no-such-solver-on-path".into()];
    let pool = s.pool_file("path.toml", &[z3.clone(), unknown]);
    refused(
        &s,
        &["--pool", pool.to_str().unwrap(), "--timeout", "1"],
        "et-no-such-solver-on-path",
    );
    // A reference that is not under test is checked too.
    let mut ghost_cvc5 = ghost;
    ghost_cvc5.family = "cvc5".into();
    let pool = s.pool_file("reference.toml", &[z3.clone(), ghost_cvc5]);
    refused(
        &s,
        &[
            "--pool",
            pool.to_str().unwrap(),
            "--solvers",
            &z3.name,
            "--timeout",
            "1",
        ],
        "/nonexistent/bin/z3",
    );
}

#[test]
fn an_empty_pool_file_is_refused_naming_it() {
    let s = Scratch::new();
    let empty = s.pool_file("empty.toml", &[]);
    let empty = empty.to_str().unwrap();
    for args in [
        &["--pool", empty, "--timeout", "1"][..],
        &["--solvers", empty, "--timeout", "1"],
    ] {
        refused(
            &s,
            args,
            &format!("et: error: the solver pool {empty} holds no solvers"),
        );
    }
    // `et solvers check` refuses it the same way.
    let o = s
        .et()
        .args(["solvers", "check", "--pool", empty])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(empty), "{}", stderr(&o));
}

#[test]
fn unsafe_solver_names_are_refused_at_their_position() {
    let s = Scratch::new();
    for (name, shown) in [
        ("../../x", "../../x"),
        ("a/b", "a/b"),
        ("z3\\u0000", "z3"),
        ("z3\\nz3", "z3"),
        ("..", ".."),
    ] {
        let pool = s.join("names.toml");
        std::fs::write(
            &pool,
            format!(
                "[[solver]]\nname = \"{name}\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = [\"{}\"]\n",
                solver(Z3).program()
            ),
        )
        .unwrap();
        refused(
            &s,
            &["--pool", pool.to_str().unwrap(), "--timeout", "1"],
            &format!("{}:2:8:", pool.display()),
        );
        refused(
            &s,
            &["--pool", pool.to_str().unwrap(), "--timeout", "1"],
            shown,
        );
    }
}

/// A small finished study to resume: z3 and cvc5 on 3 core formulas.
fn finished_study(s: &Scratch) -> (Vec<String>, std::path::PathBuf) {
    let pool = s.pool_file("pool.toml", &[solver(Z3), solver(CVC5)]);
    let out = s.join("study");
    let args: Vec<String> = [
        "run",
        "-g",
        "core",
        "--n",
        "3",
        "--pool",
        pool.to_str().unwrap(),
        "--timeout",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(s.run(&refs).status.success());
    (args, out)
}

#[test]
fn resume_refuses_any_change_that_alters_results() {
    let s = Scratch::new();
    let (args, out) = finished_study(&s);
    let before = std::fs::read(out.join("runs.csv")).unwrap();
    let mut z3_other_options = solver(Z3);
    z3_other_options.command.push("smt.arith.solver=2".into());
    let changed_pool = s.pool_file("changed.toml", &[z3_other_options, solver(CVC5)]);
    let bigger_pool = s.pool_file(
        "bigger.toml",
        &[solver(Z3), solver(CVC5), solver("z3-4.8.7")],
    );
    let judge_list = format!("{CVC5},{Z3}");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--memory", "2000"], "2000"),
        (vec!["--timeout", "5"], "5"),
        (vec!["--cpu-timeout", "2"], "--cpu-timeout"),
        (vec!["--reference", CVC5], CVC5),
        (vec!["--reference", &judge_list], "--reference"),
        // A smaller N (a larger one grows the study: campaign_run.rs).
        (vec!["--n", "2"], "--n"),
        (vec!["--start", "1"], "start"),
        (vec!["-g", "ints"], "ints"),
        (vec!["--shard", "1/2"], "1/2"),
        (
            vec!["--pool", changed_pool.to_str().unwrap()],
            "smt.arith.solver=2",
        ),
        (vec!["--pool", bigger_pool.to_str().unwrap()], "z3-4.8.7"),
    ];
    for (change, needle) in cases {
        let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
        match all.iter().position(|a| *a == change[0]) {
            Some(at) => all[at + 1] = change[1],
            None => all.extend_from_slice(&change),
        }
        all.push("--resume");
        let o = s.et().args(&all).output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{change:?}: {err}");
        assert!(
            err.contains("cannot resume") && err.contains(needle),
            "{change:?}: {err}"
        );
        assert_eq!(
            std::fs::read(out.join("runs.csv")).unwrap(),
            before,
            "{change:?}"
        );
    }
    // Times measured with and without cgroups are not comparable: a study recorded
    // under another supervision is not continued on this machine either.
    let manifest = std::fs::read_to_string(out.join("run.toml")).unwrap();
    let supervision = manifest
        .lines()
        .find(|l| l.starts_with("supervision = "))
        .expect("run.toml records the supervision")
        .to_string();
    let other = if supervision.contains("process-group") {
        "supervision = \"cgroup-v2\""
    } else {
        "supervision = \"process-group\""
    };
    std::fs::write(out.join("run.toml"), manifest.replace(&supervision, other)).unwrap();
    let o = s.run(&["run", "--resume", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("supervision"), "{}", stderr(&o));
    std::fs::write(out.join("run.toml"), &manifest).unwrap();
    // The same study resumes, with or without its arguments.
    let mut same: Vec<&str> = args.iter().map(String::as_str).collect();
    same.extend(["--resume", "--jobs", "1"]);
    assert!(s.run(&same).status.success());
    assert!(s
        .run(&["run", "--resume", "--out", out.to_str().unwrap()])
        .status
        .success());
    assert_eq!(std::fs::read(out.join("runs.csv")).unwrap(), before);
    // Without --resume an existing campaign is refused; so is resuming nothing.
    let o = s
        .et()
        .args(args.iter().map(String::as_str))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("already holds a campaign"),
        "{}",
        stderr(&o)
    );
    let empty = s.join("empty");
    let o = s.run(&["run", "--resume", "--out", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("run.toml"), "{}", stderr(&o));
    assert!(!empty.exists());
}

#[test]
fn a_directory_held_by_a_run_is_refused_naming_its_pid() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[fake("hang", "sleep-forever.sh", &[])]);
    let out = s.join("held");
    let args = [
        "run",
        "-g",
        "core",
        "--n",
        "1",
        "--pool",
        pool.to_str().unwrap(),
        "--timeout",
        "300",
        "-j",
        "1",
        "--out",
        out.to_str().unwrap(),
    ];
    let mut first = s
        .et()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !out.join("run.toml").exists() {
        assert!(first.try_wait().unwrap().is_none(), "the first run ended");
        assert!(Instant::now() < deadline, "the first run never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut resume = args.to_vec();
    resume.push("--resume");
    let o = s.run(&resume);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("pid {}", first.id())), "{err}");
    let o = s.run(&["run", "--resume", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // SAFETY: kill takes integers only; the child is ours and not yet reaped.
    unsafe {
        libc::kill(first.id() as i32, libc::SIGINT);
    }
    let o = first.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(rows(&out).is_empty(), "the refused runs appended nothing");
}

/// `et` with a file-size limit: writing past `bytes` fails with EFBIG (SIGXFSZ is
/// ignored so that the write returns an error instead of killing et), as on a full disk.
fn et_with_file_limit(s: &Scratch, bytes: u64, args: &[&str]) -> Output {
    let mut cmd: Command = s.et();
    cmd.args(args);
    // SAFETY: between fork and exec the closure calls only signal and setrlimit, which
    // are async-signal-safe, on integers captured before the fork; it allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    eprintln!("{}", stderr(&o));
    o
}

/// Formulas a worker takes at a time in session mode (`et run` batches them: README,
/// "Sessions"). A write error stops the campaign within the work in flight: the rest
/// of the batch whose row could not be written, and the batch each worker is on.
const SESSION_BATCH: usize = 16;
/// Calls that may be made after a write error with two workers, one call a formula.
const IN_FLIGHT: usize = 3 * SESSION_BATCH;

fn calls_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

/// Every line of a CSV file is whole: it ends in a newline and every row has as many
/// fields as the header.
fn assert_whole_lines(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.ends_with('\n'), "torn last line in {}", path.display());
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let width = reader.headers().unwrap().len();
    for record in reader.records() {
        assert_eq!(record.unwrap().len(), width, "{}", path.display());
    }
}

#[test]
fn a_write_error_on_runs_csv_stops_the_campaign_at_once() {
    let s = Scratch::new();
    let calls = s.join("calls");
    std::fs::create_dir(&calls).unwrap();
    let z3 = solver(Z3);
    let mut counted = fake("counted", "counting.sh", &[calls.to_str().unwrap()]);
    counted.command.extend(z3.command.iter().cloned());
    counted.family = "z3".into();
    let pool = s.pool_file("pool.toml", &[counted]);
    let out = s.join("run");
    let o = et_with_file_limit(
        &s,
        8 * 1024,
        &[
            "run",
            "-g",
            "core",
            "--n",
            "1000",
            "--pool",
            pool.to_str().unwrap(),
            "--timeout",
            "30",
            "-j",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("runs.csv"), "{}", stderr(&o));
    assert_whole_lines(&out.join("runs.csv"));
    let written = rows(&out).len();
    let made = calls_in(&calls);
    assert!(written > 10, "{written} rows");
    assert!(
        made <= written + IN_FLIGHT,
        "dispatching went on after the error: {made} calls for {written} rows"
    );
}

#[test]
fn a_write_error_on_reference_csv_stops_the_campaign_at_once() {
    let s = Scratch::new();
    let calls = s.join("calls");
    std::fs::create_dir(&calls).unwrap();
    let z3 = solver(Z3);
    let mut counted = fake("counted", "counting.sh", &[calls.to_str().unwrap()]);
    counted.command.extend(z3.command.iter().cloned());
    counted.family = "z3".into();
    let pool = s.pool_file("pool.toml", &[counted, solver(CVC5)]);
    // A shared cache already close to the limit: the first new answer does not fit.
    let limit = 64 * 1024u64;
    let cache = s.join("answers.csv");
    let mut text = String::from("grammar,index,solver,status,time_s,timeout_s\n");
    while (text.len() as u64) < limit - 20 {
        text.push_str("other,1,x,sat,0.1,1\n");
    }
    std::fs::write(&cache, &text).unwrap();
    let out = s.join("run");
    let o = et_with_file_limit(
        &s,
        limit,
        &[
            "run",
            "-g",
            "core",
            "--n",
            "300",
            "--pool",
            pool.to_str().unwrap(),
            "--solvers",
            "counted",
            "--reference-cache",
            cache.to_str().unwrap(),
            "--timeout",
            "30",
            "-j",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("answers.csv"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&cache).unwrap(),
        text,
        "no torn line"
    );
    assert_whole_lines(&out.join("runs.csv"));
    let made = calls_in(&calls);
    assert!(
        made <= IN_FLIGHT,
        "dispatching went on after the error: {made} calls"
    );
}

#[test]
fn refusals_of_other_commands_exit_2() {
    let s = Scratch::new();
    for args in [
        &["report", "/nonexistent/run"][..],
        &["plot", "/nonexistent/run"],
        &["report", "--timeouts", "nan", "/nonexistent/run"],
    ] {
        let o = s.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("/nonexistent/run") || stderr(&o).contains("nan"));
    }
}
