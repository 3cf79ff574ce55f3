//! Faults of a session solver cost at most the formula at hand and a new session: a
//! process that dies, stops answering, spins, runs out of memory, is killed from
//! outside, prints garbage or output nobody asked for. A reset that does not reset is
//! reported as seen (the caller's fresh confirmation catches it). The fake solver is
//! `tests/fake-solvers/session-faults.sh`.

mod common;

use std::path::Path;
use std::time::Duration;

use et_core::solvers::call::{run_call, CallOutcome, Input, Limits, Supervisor};
use et_core::solvers::family::{Echo, SessionProtocol};
use et_core::solvers::session::Session;

const SAT: &str = "(declare-const a Bool)\n(assert a)\n(check-sat)\n";
const UNSAT: &str = "(declare-const a Bool)\n(assert false)\n(check-sat)\n";

/// The protocol of the fake: commands on stdin, `(reset)`, echoes bare.
const FAKE: SessionProtocol = SessionProtocol {
    options: &[],
    reset: "(reset)",
    restore: &[],
    echo: Echo::Bare,
    ends_on_error: true,
    model_dump: None,
};

fn command(fault: &str, after: usize, dir: &Path) -> Vec<String> {
    let n = after.to_string();
    common::fake(
        "fake",
        "session-faults.sh",
        &[fault, &n, &dir.display().to_string()],
    )
    .command
}

/// A session of the fake doing `fault` after `after` formulas.
fn session(fault: &str, after: usize, dir: &Path) -> Session<'static> {
    Session::new(Supervisor::global(), &command(fault, after, dir), FAKE)
}

fn limits() -> Limits {
    Limits::with_timeout(Duration::from_secs(60))
}

fn answered(o: &CallOutcome, answer: &str) {
    assert_eq!(o.stdout_text(), format!("{answer}\n"), "{o:?}");
    assert!(
        o.exit_code.is_none() && o.signal.is_none() && !o.timed_out && !o.memory_limit_hit,
        "{o:?}"
    );
}

#[test]
fn answers_come_formula_by_formula_in_one_process() {
    let scratch = common::Scratch::new();
    let mut s = session("none", 0, scratch.path());
    for script in [SAT, UNSAT, SAT, UNSAT] {
        let o = s.call(script, &limits()).unwrap();
        answered(&o, if script == SAT { "sat" } else { "unsat" });
    }
    let stats = s.stats();
    assert_eq!((stats.started, stats.formulas), (1, 4));
    assert!(s.is_live());
    s.end();
    assert!(!s.is_live());
}

#[test]
fn a_solver_that_dies_costs_its_formula_and_a_new_session() {
    let scratch = common::Scratch::new();
    let mut s = session("die", 2, scratch.path());
    let outcomes: Vec<CallOutcome> = (0..5).map(|_| s.call(SAT, &limits()).unwrap()).collect();
    answered(&outcomes[0], "sat");
    answered(&outcomes[1], "sat");
    // The third formula gets what a fresh process that died would give.
    assert_eq!(outcomes[2].exit_code, Some(3), "{:?}", outcomes[2]);
    assert_eq!(outcomes[2].stdout_text(), "");
    assert_eq!(outcomes[2].stderr_text(), "fatal failure\n");
    answered(&outcomes[3], "sat");
    answered(&outcomes[4], "sat");
    let stats = s.stats();
    assert_eq!((stats.started, stats.ended_in_formula), (2, 1), "{stats:?}");
}

#[test]
fn a_solver_that_stops_answering_times_out_and_is_replaced() {
    let scratch = common::Scratch::new();
    let mut s = session("hang", 1, scratch.path());
    answered(&s.call(SAT, &limits()).unwrap(), "sat");
    let o = s
        .call(SAT, &Limits::with_timeout(Duration::from_secs(2)))
        .unwrap();
    assert!(o.timed_out, "{o:?}");
    assert_eq!(o.signal, Some(libc::SIGKILL));
    answered(&s.call(UNSAT, &limits()).unwrap(), "unsat");
    assert_eq!(s.stats().started, 2);
}

#[test]
fn the_cpu_limit_counts_the_formula_alone() {
    let scratch = common::Scratch::new();
    let mut s = session("spin", 1, scratch.path());
    let mut limits = limits();
    limits.cpu_timeout = Some(Duration::from_millis(500));
    answered(&s.call(SAT, &limits).unwrap(), "sat");
    let o = s.call(SAT, &limits).unwrap();
    assert!(o.timed_out, "{o:?}");
    assert!(o.cpu >= Duration::from_millis(500), "{:?}", o.cpu);
    answered(&s.call(SAT, &limits).unwrap(), "sat");
}

#[test]
fn running_out_of_memory_ends_the_session() {
    if !Supervisor::global().supervision().uses_cgroups() {
        eprintln!("no cgroups here: the memory limit is per process (RLIMIT_AS)");
    }
    let scratch = common::Scratch::new();
    let mut s = session("hog", 1, scratch.path());
    let mut limits = limits();
    limits.memory_mb = Some(200);
    answered(&s.call(SAT, &limits).unwrap(), "sat");
    let o = s.call(SAT, &limits).unwrap();
    if Supervisor::global().supervision().uses_cgroups() {
        assert!(o.memory_limit_hit, "{o:?}");
    } else {
        assert!(o.stderr_text().contains("MemoryError"), "{o:?}");
    }
    answered(&s.call(SAT, &limits).unwrap(), "sat");
    // Another memory limit is another session.
    limits.memory_mb = Some(300);
    answered(&s.call(SAT, &limits).unwrap(), "sat");
    assert_eq!(s.stats().started, 3);
    assert_eq!(s.stats().replaced, 1);
}

#[test]
fn a_session_killed_from_outside_costs_at_most_one_formula() {
    let scratch = common::Scratch::new();
    // Between two formulas: the next one finds the process gone and gets a new one.
    let mut s = session("none", 0, scratch.path());
    answered(&s.call(SAT, &limits()).unwrap(), "sat");
    kill(&scratch.join("pid"));
    answered(&s.call(UNSAT, &limits()).unwrap(), "unsat");
    assert_eq!(s.stats().started, 2);

    // During a formula: that formula reports the signal, the next is answered.
    let mut s = session("hang", 1, scratch.path());
    answered(&s.call(SAT, &limits()).unwrap(), "sat");
    let hanging = scratch.join("hanging");
    let pid = scratch.join("pid");
    let killer = std::thread::spawn(move || {
        while !hanging.exists() {
            std::thread::sleep(Duration::from_millis(10));
        }
        kill(&pid);
    });
    let o = s.call(SAT, &limits()).unwrap();
    killer.join().unwrap();
    assert_eq!(o.signal, Some(libc::SIGKILL), "{o:?}");
    assert!(!o.timed_out, "{o:?}");
    answered(&s.call(SAT, &limits()).unwrap(), "sat");
    assert_eq!(s.stats().ended_in_formula, 1);
}

/// SIGKILLs the process whose pid is in `file` and waits until it is gone (a zombie
/// until the session reaps it).
fn kill(file: &Path) {
    let pid: i32 = std::fs::read_to_string(file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // SAFETY: a plain system call on the fake solver's pid.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    let stat = format!("/proc/{pid}/stat");
    while std::fs::read_to_string(&stat).is_ok_and(|s| !s.contains(") Z ")) {
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn garbage_is_the_formulas_output() {
    let scratch = common::Scratch::new();
    let mut s = session("garbage", 1, scratch.path());
    answered(&s.call(SAT, &limits()).unwrap(), "sat");
    let o = s.call(SAT, &limits()).unwrap();
    assert_eq!(o.stdout_text(), "#!@ garbage\n");
    assert_eq!((o.exit_code, o.signal), (None, None));
    assert_eq!(s.stats().started, 1);
}

#[test]
fn output_after_an_echo_puts_the_session_out_of_step() {
    let scratch = common::Scratch::new();
    let mut s = session("extra", 0, scratch.path());
    for _ in 0..3 {
        answered(&s.call(SAT, &limits()).unwrap(), "sat");
    }
    // No answer carried late output, and the first formula's ended its process: it
    // came with the answer, before the next formula or before its lead echo.
    let stats = s.stats();
    assert!(stats.out_of_step >= 1, "{stats:?}");
    assert!(stats.started >= 2, "{stats:?}");
}

#[test]
fn a_reset_that_does_not_reset_is_reported_as_seen() {
    let scratch = common::Scratch::new();
    let mut s = session("sticky", 0, scratch.path());
    answered(&s.call(UNSAT, &limits()).unwrap(), "unsat");
    // The session's wrong answer is what it reports...
    answered(&s.call(SAT, &limits()).unwrap(), "unsat");
    // ... and a fresh process, as the caller's confirmation runs it, disagrees.
    let fresh = run_call(
        &command("sticky", 0, scratch.path()),
        Input::Stdin(SAT.as_bytes()),
        &limits(),
    )
    .unwrap();
    assert_eq!(fresh.stdout_text(), "sat\n");
}

#[test]
fn sessions_are_replaced_after_their_formulas() {
    let scratch = common::Scratch::new();
    let mut s = session("none", 0, scratch.path()).restart_after(2);
    for _ in 0..5 {
        answered(&s.call(SAT, &limits()).unwrap(), "sat");
    }
    assert_eq!((s.stats().started, s.stats().replaced), (3, 2));
}

#[test]
fn a_missing_program_is_a_start_error() {
    let mut s = Session::new(
        Supervisor::global(),
        &["/nonexistent/solver".to_string()],
        FAKE,
    );
    let o = s.call(SAT, &limits()).unwrap();
    assert!(o.start_error.unwrap().contains("/nonexistent/solver"));
}

/// Calls `scripts` one after the other, each with the next written ahead.
fn ahead(s: &mut Session<'_>, scripts: &[&str], limits: &Limits) -> Vec<CallOutcome> {
    (0..scripts.len())
        .map(|i| {
            s.call_then(scripts[i], scripts.get(i + 1).copied(), limits)
                .unwrap()
        })
        .collect()
}

#[test]
fn formulas_written_ahead_are_answered_in_order_by_one_process() {
    let scratch = common::Scratch::new();
    let mut s = session("none", 0, scratch.path());
    let outcomes = ahead(&mut s, &[SAT, UNSAT, UNSAT, SAT], &limits());
    for (o, answer) in outcomes.iter().zip(["sat", "unsat", "unsat", "sat"]) {
        answered(o, answer);
    }
    assert_eq!((s.stats().started, s.stats().replaced), (1, 0));
}

#[test]
fn a_formula_written_ahead_but_not_asked_for_ends_the_session() {
    let scratch = common::Scratch::new();
    let mut s = session("none", 0, scratch.path());
    answered(&s.call_then(SAT, Some(UNSAT), &limits()).unwrap(), "sat");
    // Another formula than the one written ahead: a new process answers it.
    answered(&s.call(SAT, &limits()).unwrap(), "sat");
    assert_eq!((s.stats().started, s.stats().replaced), (2, 1));
}

#[test]
fn faults_with_a_formula_written_ahead_cost_that_formula_alone() {
    let scratch = common::Scratch::new();
    // The process dies on the third formula, with the fourth already written to it.
    let mut s = session("die", 2, scratch.path());
    let outcomes = ahead(&mut s, &[SAT, UNSAT, SAT, UNSAT, SAT], &limits());
    answered(&outcomes[0], "sat");
    answered(&outcomes[1], "unsat");
    assert_eq!(outcomes[2].exit_code, Some(3), "{:?}", outcomes[2]);
    answered(&outcomes[3], "unsat");
    answered(&outcomes[4], "sat");
    assert_eq!((s.stats().started, s.stats().ended_in_formula), (2, 1));

    // A hang times out; the formula behind it is answered by a new process.
    let mut s = session("hang", 1, scratch.path());
    let limits = Limits::with_timeout(Duration::from_secs(2));
    let outcomes = ahead(&mut s, &[SAT, SAT, UNSAT], &limits);
    answered(&outcomes[0], "sat");
    assert!(outcomes[1].timed_out, "{:?}", outcomes[1]);
    answered(&outcomes[2], "unsat");

    // The CPU limit counts the formula alone.
    let mut s = session("spin", 1, scratch.path());
    let mut limits = self::limits();
    limits.cpu_timeout = Some(Duration::from_millis(500));
    let outcomes = ahead(&mut s, &[SAT, SAT, SAT], &limits);
    answered(&outcomes[0], "sat");
    assert!(outcomes[1].timed_out && outcomes[1].cpu >= Duration::from_millis(500));
    answered(&outcomes[2], "sat");
}

#[test]
fn an_answer_complete_before_the_process_ended_is_the_formulas() {
    let scratch = common::Scratch::new();
    // The process answers the second formula and exits at once, the third written to
    // it: the answer is the second's, the end of the process the third's.
    let mut s = session("quit", 1, scratch.path());
    let outcomes = ahead(&mut s, &[SAT, UNSAT, SAT], &limits());
    answered(&outcomes[0], "sat");
    answered(&outcomes[1], "unsat");
    assert_eq!(outcomes[2].exit_code, Some(3), "{:?}", outcomes[2]);
}

#[test]
fn output_nobody_asked_for_is_seen_with_formulas_written_ahead() {
    let scratch = common::Scratch::new();
    let mut s = session("extra", 0, scratch.path());
    for o in ahead(&mut s, &[SAT, UNSAT, SAT], &limits()) {
        assert!(!o.stdout_text().contains("late output"), "{o:?}");
    }
    let stats = s.stats();
    assert!(stats.out_of_step >= 1 && stats.started >= 2, "{stats:?}");
}
