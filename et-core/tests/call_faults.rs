//! Fault injection: fake solvers (tests/fake-solvers/) that hang, crash, flood their
//! output, or leave processes behind, run through `solvers::call` and the oracle, under
//! whichever supervision the machine gives (tests/call_cgroups.rs has the faults only
//! cgroups contain).

mod common;

use common::{dies_soon, fake_script};

use std::path::PathBuf;
use std::time::Duration;

use et_core::judging::reference::Ruling;
use et_core::judging::{self, Judged};
use et_core::oracle::{classify, Status, Verdict};
use et_core::solvers::call::{
    run_call, CallOutcome, Input, Limits, Supervisor, DEFAULT_CAPTURE_BYTES,
};

/// The verdict et gives a classified call against a reference that decided `reference`
/// (no model read, no witness).
fn judge(status: Status, self_check_failed: bool, reference: Option<Status>) -> Option<Verdict> {
    let call = Judged {
        status,
        self_check_failed,
        model_check: None,
    };
    let reference = reference.map(|status| Ruling {
        status,
        invalid_model: false,
    });
    judging::judge(call, reference.into(), &false).map(|f| f.verdict)
}

const FORMULA: &[u8] = b"(declare-const a Bool) (declare-const b Bool) (assert a) (check-sat)\n";

fn run(args: &[String], timeout: Duration) -> CallOutcome {
    run_call(args, Input::Stdin(FORMULA), &Limits::with_timeout(timeout)).unwrap()
}

/// A scratch file path in a private directory, removed when the directory is dropped.
fn scratch(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(tag);
    (dir, path)
}

/// A solver that computes without answering times out at its CPU limit, however
/// loaded the machine (the wall-clock limit is far above it).
#[test]
fn hang_is_killed_at_the_timeout() {
    let limits = Limits {
        cpu_timeout: Some(Duration::from_millis(300)),
        ..Limits::with_timeout(Duration::from_secs(120))
    };
    let o = run_call(
        &[fake_script("spin-forever.sh")],
        Input::Stdin(FORMULA),
        &limits,
    )
    .unwrap();
    assert!(o.timed_out);
    assert!(!o.starved);
    assert_eq!(o.signal, Some(libc_sigkill()));
    assert!(o.cpu >= Duration::from_millis(300), "{:?}", o.cpu);
    assert_eq!(classify(&o).status, Status::Timeout);
    assert_eq!(
        judge(Status::Timeout, false, Some(Status::Sat)),
        Some(Verdict::Timeout)
    );
}

/// A solver that waits without computing until the wall-clock limit is starved, on the
/// call and on its re-run: never a timeout.
#[test]
fn a_wait_without_computing_is_starved() {
    let timeout = Duration::from_millis(300);
    let o = run(&[fake_script("sleep-forever.sh")], timeout);
    assert!(o.timed_out && o.starved, "{o:?}");
    assert_eq!(o.signal, Some(libc_sigkill()));
    assert!(o.wall >= timeout, "{:?}", o.wall);
    assert_eq!(classify(&o).status, Status::Starved);
    assert!(!Status::Starved.tells_about_solver());
}

#[test]
fn segfault_is_a_crash() {
    let o = run(&[fake_script("segfault.sh")], Duration::from_secs(10));
    assert_eq!(o.signal, Some(11));
    assert_eq!(o.exit_code, None);
    let c = classify(&o);
    assert_eq!(c.status, Status::Crash);
    assert_eq!(c.crash_signature.as_deref(), Some("SIGSEGV"));
    assert_eq!(
        judge(c.status, c.self_check_failed, Some(Status::Sat)),
        Some(Verdict::Crash)
    );
}

/// Runs in a child process of its own (see the next test), so that its peak memory
/// is that of one flooding call and nothing else.
#[test]
#[ignore = "run by huge_output_is_capped_and_memory_stays_small in a child process"]
fn huge_output_call() {
    let o = run(&[fake_script("huge-output.sh")], Duration::from_secs(120));
    assert_eq!(o.exit_code, Some(0));
    assert!(o.stdout_truncated && o.stderr_truncated);
    let marker_room = 64; // the "[et: N bytes omitted]" line
    assert!(o.stdout.len() <= DEFAULT_CAPTURE_BYTES + marker_room);
    assert!(o.stderr.len() <= DEFAULT_CAPTURE_BYTES + marker_room);
    assert!(o.stdout.len() >= DEFAULT_CAPTURE_BYTES);
    assert!(o.stdout_text().contains("bytes omitted]"));
    // The answer printed after the flood survives in the kept tail.
    assert!(o.stdout.ends_with(b"\nsat\n"));
    assert_eq!(classify(&o).status, Status::Sat);
}

#[test]
fn huge_output_is_capped_and_memory_stays_small() {
    // This test binary, running only `huge_output_call`, in a process of its own: its
    // peak resident memory is what one call that receives 110 MiB of output costs
    // (the test harness's own is a few MiB). Measured by wait4 of that child.
    let me = std::env::current_exe()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let child = vec![
        me,
        "huge_output_call".into(),
        "--exact".into(),
        "--ignored".into(),
        "--test-threads=1".into(),
    ];
    let o = Supervisor::process_group()
        .run(
            &child,
            Input::Stdin(b""),
            &Limits::with_timeout(Duration::from_secs(300)),
        )
        .unwrap();
    assert_eq!(o.exit_code, Some(0), "{}", o.stdout_text());
    assert!(
        o.stdout_text().contains("1 passed"),
        "the child ran no test: {}",
        o.stdout_text()
    );
    eprintln!(
        "peak of one flooding call in its own process: {} KiB",
        o.max_rss_kb
    );
    // Keeping the output would cost 110 MiB.
    assert!(
        o.max_rss_kb < 40 * 1024,
        "a flooding call peaked at {} KiB",
        o.max_rss_kb
    );
}

#[test]
fn error_then_sat_is_rejected() {
    let o = run(&[fake_script("error-then-sat.sh")], Duration::from_secs(10));
    assert_eq!(o.exit_code, Some(1));
    let c = classify(&o);
    assert_eq!(c.status, Status::Rejected);
    assert_eq!(
        judge(c.status, c.self_check_failed, Some(Status::Unsat)),
        None
    );
}

#[test]
fn sat_then_invalid_model_error_is_an_invalid_model() {
    let o = run(&[fake_script("invalid-model.sh")], Duration::from_secs(10));
    assert_eq!(o.exit_code, Some(1));
    let c = classify(&o);
    assert_eq!((c.status, c.self_check_failed), (Status::Sat, true));
    assert_eq!(
        judge(c.status, c.self_check_failed, Some(Status::Sat)),
        Some(Verdict::InvalidModel)
    );
}

/// `orphan.sh` answers sat and leaves a child behind (holding the pipes with
/// `keep-pipes`); the call is sat and the orphan is killed with it.
fn assert_orphan_is_killed(tag: &str, mode: &[&str]) {
    let (_dir, pidfile) = scratch(tag);
    let mut command = vec![
        fake_script("orphan.sh"),
        pidfile.to_string_lossy().into_owned(),
    ];
    command.extend(mode.iter().map(|m| m.to_string()));
    let o = run(&command, Duration::from_secs(10));
    assert_eq!(classify(&o).status, Status::Sat);
    let pid = take_pid(&pidfile);
    assert!(dies_soon(pid), "orphan {pid} still alive");
}

#[test]
fn detached_orphan_is_killed() {
    assert_orphan_is_killed("orphan-detached", &[]);
}

#[test]
fn orphan_holding_the_pipes_is_killed() {
    assert_orphan_is_killed("orphan-pipes", &["keep-pipes"]);
}

#[test]
fn many_calls_in_parallel_do_not_mix_up_children() {
    let handles: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let script = format!("read x; echo {i}; exit {i}");
                let o = run_call(
                    &["/bin/sh".into(), "-c".into(), script],
                    Input::Stdin(b"line\n"),
                    &Limits::with_timeout(Duration::from_secs(10)),
                )
                .unwrap();
                (i, o)
            })
        })
        .collect();
    for h in handles {
        let (i, o) = h.join().unwrap();
        assert_eq!(o.exit_code, Some(i));
        assert_eq!(o.stdout_text().trim(), i.to_string());
    }
}

fn libc_sigkill() -> i32 {
    9
}

/// The pid the orphan script wrote, removing its file.
fn take_pid(pidfile: &std::path::Path) -> i32 {
    let pid = std::fs::read_to_string(pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    std::fs::remove_file(pidfile).ok();
    pid
}
