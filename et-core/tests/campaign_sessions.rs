//! `et run --mode session`: real z3 and cvc5 sessions answer as fresh processes do,
//! every row says how its call was made, every finding is confirmed in a fresh process
//! (so a reset that does not reset costs no wrong verdict and is recorded), and session
//! processes killed from outside cost no row.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use et_core::judging::CallMode;
use et_core::oracle::Status;
use et_core::solvers::SolverConfig;

use common::{csv_maps, fake, manifest, rows, show, solver, Scratch};

const Z3: &str = "z3-4.16.0";
const CVC5: &str = "cvc5-1.4.2";

/// Each (index, solver)'s status in a run directory; every pair exactly once.
fn statuses(dir: &Path) -> BTreeMap<(String, String), Status> {
    let mut out = BTreeMap::new();
    for r in rows(dir) {
        let key = (r.index.clone(), r.solver.clone());
        assert!(out.insert(key, r.status).is_none(), "a second row: {r:?}");
    }
    out
}

/// Asserts that two runs gave the same answers on every call that did not time out.
fn same_answers(a: &Path, b: &Path) {
    let (a, b) = (statuses(a), statuses(b));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (key, status) in &a {
        if *status != Status::Timeout && b[key] != Status::Timeout {
            assert_eq!(*status, b[key], "{key:?}");
        }
    }
}

#[test]
fn real_sessions_answer_as_fresh_processes_and_rows_say_how() {
    let s = Scratch::new();
    let solvers = [solver(Z3), solver(CVC5)];
    for grammar in ["core", "ints"] {
        let fresh = s.campaign(
            grammar,
            "150",
            &solvers,
            &format!("{grammar}-fresh"),
            &["--timeout", "30", "-j", "2", "--mode", "fresh", "-q"],
        );
        let session = s.campaign(
            grammar,
            "150",
            &solvers,
            &format!("{grammar}-session"),
            &["--timeout", "30", "-j", "2", "--mode", "session", "-q"],
        );
        same_answers(&fresh, &session);
        assert!(rows(&fresh).iter().all(|r| r.mode == Some(CallMode::Fresh)));
        let in_session = rows(&session);
        assert!(in_session.iter().any(|r| r.mode == Some(CallMode::Session)));
        // A finding rests on a fresh process.
        for r in in_session.iter().filter(|r| r.verdict.is_some()) {
            assert_eq!(r.mode, Some(CallMode::Fresh), "{r:?}");
        }
        let (text, m) = manifest(&session);
        assert_eq!(m.mode, Some(CallMode::Session), "{text}");
        assert!(m.solvers.iter().all(|s| s.session == Some(true)), "{text}");
    }
}

/// A real z3 whose sessions drop `(reset)`: fresh it is right, in a session it
/// answers each formula on top of the earlier ones.
fn sticky() -> SolverConfig {
    let z3 = solver(Z3);
    let mut sticky = fake("sticky", "session-sticky.sh", &[]);
    sticky.command.extend(z3.command.iter().cloned());
    sticky.family = "z3".into();
    sticky.version = z3.version;
    sticky.models = false;
    sticky
}

#[test]
fn a_reset_that_does_not_reset_costs_no_wrong_row_and_is_recorded() {
    let s = Scratch::new();
    let z3 = solver(Z3);
    let options = |mode| {
        vec![
            "--timeout",
            "30",
            "--mode",
            mode,
            "--reference",
            Z3,
            "--audit",
            "0",
            "-q",
        ]
    };
    let session = s.campaign("ints", "60", &[sticky(), z3.clone()], "session", &{
        let mut o = options("session");
        o.extend(["--solvers", "sticky"]);
        o
    });
    let fresh = s.campaign("ints", "60", &[sticky(), z3], "fresh", &{
        let mut o = options("fresh");
        o.extend(["--solvers", "sticky"]);
        o
    });
    same_answers(&fresh, &session);
    let disagreements = csv_maps(&session.join("session-disagreements.csv"));
    assert!(!disagreements.is_empty());
    assert!(disagreements
        .iter()
        .all(|d| d["solver"] == "sticky" && d["found_by"] == "confirmation"));
    // Every disagreement's row records the fresh answer.
    let by_index: BTreeMap<String, _> = rows(&session)
        .into_iter()
        .map(|r| (r.index.clone(), r))
        .collect();
    for d in &disagreements {
        let row = &by_index[&d["index"]];
        assert_eq!(row.mode, Some(CallMode::Fresh), "{row:?}");
        assert!(d["fresh"].starts_with(row.status.label()), "{d:?} {row:?}");
    }
}

/// Solver processes killed from outside (an operator, the kernel) say nothing about the
/// solver: session processes and fresh ones (a finding's confirmation included) are
/// killed every 400 ms, and the run still gives one row per call, no crash, and the
/// answers of a fresh run on every formula both decided.
#[test]
fn solver_processes_killed_from_outside_cost_no_row_and_no_finding() {
    let s = Scratch::new();
    let solvers = [solver(Z3), solver(CVC5)];
    let pool = s.pool_file("pool.toml", &solvers);
    let out = s.join("killed");
    let args = common::campaign_args(
        "ints",
        "2000",
        &pool,
        &out,
        &["--timeout", "30", "-j", "2", "--mode", "session", "-q"],
    );
    let mut run = s.spawn(&args);
    let pid = run.id().to_string();
    // Kill this run's solver processes (its children whose program is an installed
    // solver: not et's own watchdog) every 400 ms until it ends.
    let mut kills = 0;
    while run.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(400));
        let o = std::process::Command::new("pkill")
            .args(["-KILL", "-P", &pid, "-f", "--", "et-home/solvers/"])
            .output()
            .unwrap();
        kills += u32::from(o.status.success());
    }
    let o = run.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", show(&o));
    assert!(kills > 0, "no solver process was seen");
    let killed = statuses(&out);
    assert_eq!(killed.len(), 4000);
    let crashes: Vec<_> = killed
        .iter()
        .filter(|(_, s)| **s == Status::Crash)
        .collect();
    assert!(crashes.is_empty(), "{crashes:?}");
    let fresh = s.campaign(
        "ints",
        "2000",
        &solvers,
        "fresh",
        &["--timeout", "30", "-j", "2", "--mode", "fresh", "-q"],
    );
    let fresh = statuses(&fresh);
    assert_eq!(
        fresh.keys().collect::<Vec<_>>(),
        killed.keys().collect::<Vec<_>>()
    );
    for (key, status) in &killed {
        if status.is_decided() && fresh[key].is_decided() {
            assert_eq!(*status, fresh[key], "{key:?}");
        }
    }
}
