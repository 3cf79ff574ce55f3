//! Fault injection: fake solvers (tests/fake-solvers/) that hang, crash, flood their
//! output, or leave processes behind, run through `solvers::call` and the oracle.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use et_core::oracle::{classify, judge, Status, Verdict};
use et_core::solvers::call::{run_call, CallOutcome, Input, Limits, DEFAULT_CAPTURE_BYTES};

const FORMULA: &[u8] = b"(declare-const a Bool) (declare-const b Bool) (assert a) (check-sat)\n";

fn fake(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-solvers")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn run(args: &[String], timeout: Duration) -> CallOutcome {
    run_call(args, Input::Stdin(FORMULA), &Limits::with_timeout(timeout)).unwrap()
}

/// A scratch file path unique to this test process and `tag`.
fn scratch(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("et-call-faults-{}-{tag}", std::process::id()))
}

/// Whether `pid` is gone or a zombie (dead, waiting for a reaper that may be slow: in
/// containers pid 1 does not always reap). SIGKILL is asynchronous, so allow it a moment.
fn dies_soon(pid: i32) -> bool {
    let stat = format!("/proc/{pid}/stat");
    for _ in 0..200 {
        match std::fs::read_to_string(&stat) {
            Err(_) => return true,
            Ok(s)
                if s.rsplit(')')
                    .next()
                    .is_some_and(|r| r.trim_start().starts_with('Z')) =>
            {
                return true
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    false
}

#[test]
fn hang_is_killed_at_the_timeout() {
    let timeout = Duration::from_millis(300);
    let started = Instant::now();
    let o = run(&[fake("sleep-forever.sh")], timeout);
    let took = started.elapsed();
    assert!(o.timed_out);
    assert_eq!(o.signal, Some(libc_sigkill()));
    assert!(o.wall >= timeout, "{:?}", o.wall);
    // Generous slack for a loaded machine; without the group kill, the shell's child
    // would hold the pipes and the call would only end after the drain grace (500 ms).
    assert!(took < timeout + Duration::from_millis(400), "took {took:?}");
    assert_eq!(classify(&o).status, Status::Timeout);
    assert_eq!(
        judge(Status::Timeout, false, Some(Status::Sat)),
        Some(Verdict::Timeout)
    );
}

#[test]
fn segfault_is_a_crash() {
    let o = run(&[fake("segfault.sh")], Duration::from_secs(10));
    assert_eq!(o.signal, Some(11));
    assert_eq!(o.exit_code, None);
    let c = classify(&o);
    assert_eq!(c.status, Status::Crash);
    assert_eq!(c.crash_signature.as_deref(), Some("SIGSEGV"));
    assert_eq!(
        judge(c.status, c.invalid_model, Some(Status::Sat)),
        Some(Verdict::Crash)
    );
}

#[test]
fn huge_output_is_capped_and_memory_stays_small() {
    let before = peak_rss_kb();
    let o = run(&[fake("huge-output.sh")], Duration::from_secs(60));
    let after = peak_rss_kb();
    assert_eq!(o.exit_code, Some(0));
    assert!(o.stdout_truncated && o.stderr_truncated);
    let marker_room = 64; // the "[et: N bytes omitted]" line
    assert!(o.stdout.len() <= DEFAULT_CAPTURE_BYTES + marker_room);
    assert!(o.stderr.len() <= DEFAULT_CAPTURE_BYTES + marker_room);
    assert!(o.stdout.len() >= DEFAULT_CAPTURE_BYTES);
    assert!(o.stdout_text().contains("bytes omitted]"));
    // 110 MiB went through the pipes; keeping it would raise our peak by that much.
    // (Peak RSS of the whole test process: other tests running alongside are small.)
    assert!(
        after - before < 32 * 1024,
        "peak RSS grew by {} KiB",
        after - before
    );
    // The answer printed after the flood survives in the kept tail.
    assert!(o.stdout.ends_with(b"\nsat\n"));
    assert_eq!(classify(&o).status, Status::Sat);
}

#[test]
fn error_then_sat_is_rejected() {
    let o = run(&[fake("error-then-sat.sh")], Duration::from_secs(10));
    assert_eq!(o.exit_code, Some(1));
    let c = classify(&o);
    assert_eq!(c.status, Status::Rejected);
    assert_eq!(judge(c.status, c.invalid_model, Some(Status::Unsat)), None);
}

#[test]
fn sat_then_invalid_model_error_is_an_invalid_model() {
    let o = run(&[fake("invalid-model.sh")], Duration::from_secs(10));
    assert_eq!(o.exit_code, Some(1));
    let c = classify(&o);
    assert_eq!((c.status, c.invalid_model), (Status::Sat, true));
    assert_eq!(
        judge(c.status, c.invalid_model, Some(Status::Sat)),
        Some(Verdict::InvalidModel)
    );
}

#[test]
fn detached_orphan_is_killed() {
    let pidfile = scratch("orphan-detached");
    let o = run(
        &[fake("orphan.sh"), pidfile.to_string_lossy().into_owned()],
        Duration::from_secs(10),
    );
    assert_eq!(classify(&o).status, Status::Sat);
    let pid = take_pid(&pidfile);
    assert!(dies_soon(pid), "orphan {pid} still alive");
}

#[test]
fn orphan_holding_the_pipes_is_killed_without_waiting() {
    let pidfile = scratch("orphan-pipes");
    let started = Instant::now();
    let o = run(
        &[
            fake("orphan.sh"),
            pidfile.to_string_lossy().into_owned(),
            "keep-pipes".into(),
        ],
        Duration::from_secs(10),
    );
    let took = started.elapsed();
    assert_eq!(classify(&o).status, Status::Sat);
    let pid = take_pid(&pidfile);
    assert!(dies_soon(pid), "orphan {pid} still alive");
    // The group kill closes the orphan's pipe ends at once: no drain grace spent.
    assert!(took < Duration::from_millis(450), "took {took:?}");
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

fn peak_rss_kb() -> i64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
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
