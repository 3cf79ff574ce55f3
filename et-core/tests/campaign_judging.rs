//! Judging without blind spots: a performance verdict where the reference decided
//! nothing but another solver of the pool did (`decided_by`, evidence `pool`), and
//! `undecided.csv`, the formulas that nobody decided and no witness proves sat.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{csv_maps, fake, fake_script, rows, show, solver, Scratch};

/// Runs the 300 first `core` formulas of `pool` into `dir`, with `options`.
fn run_core(s: &Scratch, pool: &Path, options: &[&str], dir: &Path) {
    let mut args = vec![
        "run",
        "-g",
        "core",
        "--n",
        "300",
        "--timeout",
        "30",
        "--pool",
        pool.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ];
    args.extend_from_slice(options);
    let o = s.run(&args);
    assert!(o.status.success(), "{}", show(&o));
}

#[test]
fn the_pool_judges_performance_and_undecided_formulas_are_listed() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let judge = fake("unknown-judge", "always-unknown.sh", &[]);
    let mut slow = fake("unknown", "always-unknown.sh", &[]);
    slow.reference = vec![judge.name.clone()];
    let pool = s.pool_file("pool.toml", &[z3.clone(), slow.clone(), judge.clone()]);

    // (b) z3 decides, the reference of `unknown` never does: the pool judges.
    let with_z3 = s.join("with-z3");
    run_core(&s, &pool, &["--solvers", "unknown,z3-4.16.0"], &with_z3);
    let all = rows(&with_z3);
    let z3_decided: BTreeSet<String> = all
        .iter()
        .filter(|r| r.solver == z3.name && r.status.is_decided())
        .map(|r| r.index.clone())
        .collect();
    let z3_unsat: BTreeSet<String> = all
        .iter()
        .filter(|r| r.solver == z3.name && r.status.label() == "unsat")
        .map(|r| r.index.clone())
        .collect();
    assert!(!z3_decided.is_empty() && !z3_unsat.is_empty());
    let judged: Vec<_> = all.iter().filter(|r| r.solver == slow.name).collect();
    assert_eq!(judged.len(), 300);
    for r in &judged {
        if z3_decided.contains(&r.index) {
            // On a sat formula et's own witness is the stronger evidence; on an unsat
            // one only the pool knows. Either way z3 is who decided it.
            let evidence = if z3_unsat.contains(&r.index) {
                "pool"
            } else {
                "witness"
            };
            assert_eq!(
                (
                    r.verdict.map_or("", |v| v.label()),
                    r.evidence.map_or("", |e| e.label()),
                    r.decided_by.as_str()
                ),
                ("unknown", evidence, z3.name.as_str()),
                "formula {}",
                r.index
            );
            assert!(r.decided_s.is_some_and(|t| t > 0.0), "{r:?}");
            assert_eq!(r.reference, judge.name, "the reference is still named");
        } else {
            assert_eq!(r.verdict, None, "{r:?}");
        }
    }
    // z3 decided everything: nothing is undecided.
    assert!(csv_maps(&with_z3.join("undecided.csv")).is_empty());

    // (c) Without z3 nobody decides: the formulas no witness proves sat are listed,
    // which on `core` (every Boolean assignment is tried) are exactly the unsat ones.
    let without = s.join("without-z3");
    run_core(&s, &pool, &["--solvers", "unknown"], &without);
    let undecided = csv_maps(&without.join("undecided.csv"));
    let listed: BTreeSet<String> = undecided.iter().map(|r| r["index"].clone()).collect();
    assert_eq!(listed, z3_unsat);
    // Each of them with every solver that ran on it.
    for index in &listed {
        let solvers: BTreeSet<&str> = undecided
            .iter()
            .filter(|r| &r["index"] == index)
            .map(|r| r["solver"].as_str())
            .collect();
        assert_eq!(
            solvers,
            BTreeSet::from([judge.name.as_str(), slow.name.as_str()])
        );
    }
    // The others are proven sat by a witness: `unknown` there is still a finding.
    for r in rows(&without) {
        let expected = if listed.contains(&r.index) {
            ("", "")
        } else {
            ("unknown", "witness")
        };
        assert_eq!(
            (
                r.verdict.map_or("", |v| v.label()),
                r.evidence.map_or("", |e| e.label())
            ),
            expected,
            "{r:?}"
        );
        assert_eq!(r.decided_by, "", "nobody decided {}", r.index);
    }
    // et report counts them per grammar, with the smallest.
    let o = s.run(&[
        "report",
        without.to_str().unwrap(),
        "--csv",
        s.join("tables").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let table = csv_maps(&s.join("tables/undecided.csv"));
    assert_eq!(table.len(), 1);
    assert_eq!(table[0]["grammar"], "core");
    assert_eq!(table[0]["formulas"], listed.len().to_string());
    assert_eq!(
        &table[0]["smallest_index"],
        listed.iter().min_by_key(|i| (i.len(), *i)).unwrap()
    );
    // et triage makes them a kind of their own, the smallest retried at a longer
    // limit: the always-unknown solvers stay hopeless.
    let triaged = s.join("triaged");
    let o = s.run(&[
        "triage",
        without.to_str().unwrap(),
        "--out",
        triaged.to_str().unwrap(),
        "--performance-factor",
        "1",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let triage_rows = csv_maps(&triaged.join("undecided.csv"));
    let in_triage: BTreeSet<String> = triage_rows.iter().map(|r| r["index"].clone()).collect();
    assert_eq!(in_triage, listed);
    let retried: Vec<_> = triage_rows
        .iter()
        .filter(|r| !r["retry"].is_empty())
        .collect();
    assert_eq!(retried.len(), listed.len().min(20));
    assert!(
        retried.iter().all(|r| r["retry"] == "hopeless"),
        "{retried:?}"
    );
    let report = std::fs::read_to_string(triaged.join("report.md")).unwrap();
    assert!(report.contains("## Formulas nobody decided"), "{report}");
}

/// A call that reaches the wall-clock limit before its CPU budget was starved, not
/// slow (the machine gave it no CPU): it is made again, and the re-run's answer is
/// the row. The budget is the CPU limit, or without one half the wall-clock limit.
#[test]
fn a_call_starved_of_cpu_is_made_again_not_judged_a_timeout() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    // 20 core formulas, z3 and z3 behind starved-once.sh (its first call stalls) with
    // the time limits given; the rows of the starved solver.
    let run = |name: &str, limits: &[&str]| {
        let stalls = s.join(&format!("{name}-stalls"));
        std::fs::create_dir(&stalls).unwrap();
        let mut extra = vec![stalls.to_str().unwrap()];
        extra.extend(z3.command.iter().map(String::as_str));
        let mut starved = fake("starved", "starved-once.sh", &extra);
        starved.reference = vec![z3.name.clone()];
        let mut options = vec!["--jobs", "2", "-q"];
        options.extend_from_slice(limits);
        let out = s.campaign("core", "20", &[z3.clone(), starved.clone()], name, &options);
        assert!(stalls.join("starved").is_dir(), "the first call stalled");
        let mine: Vec<_> = rows(&out)
            .into_iter()
            .filter(|r| r.solver == starved.name)
            .collect();
        assert_eq!(mine.len(), 20);
        mine
    };
    let timeouts = |rows: &[et_core::campaign::row::RunRow]| {
        rows.iter()
            .filter(|r| r.status.label() == "timeout")
            .count()
    };

    // Without a CPU limit, the budget is half the wall-clock limit.
    let wall_only = run("wall-only", &["--timeout", "3"]);
    assert_eq!(timeouts(&wall_only), 0, "{wall_only:?}");
    assert!(
        wall_only.iter().all(|r| r.verdict.is_none()),
        "{wall_only:?}"
    );
    let with_cpu_limit = run("cpu-limit", &["--timeout", "3", "--cpu-timeout", "2"]);
    assert_eq!(timeouts(&with_cpu_limit), 0, "{with_cpu_limit:?}");
    assert!(
        with_cpu_limit.iter().all(|r| r.verdict.is_none()),
        "{with_cpu_limit:?}"
    );
}

/// A call that never started (`setup_error`) says nothing about a solver or a formula:
/// a formula on which no solver started is not undecided, and triage does not list it.
/// Two solvers that give up on everything and cannot start on formulas applying `and`.
#[test]
fn calls_that_never_started_make_no_formula_undecided() {
    let s = Scratch::new();
    let unknown = fake_script("always-unknown.sh");
    let missing = |name: &str| fake(name, "fault-on.sh", &[&unknown, "and", "not-found"]);
    let pool = s.pool_file("pool.toml", &[missing("gone-a"), missing("gone-b")]);
    let dir = s.join("run");
    run_core(&s, &pool, &["--no-witness"], &dir);
    let all = rows(&dir);
    let never_started: BTreeSet<String> = all
        .iter()
        .filter(|r| r.status.label() == "setup_error")
        .map(|r| r.index.clone())
        .collect();
    assert!(!never_started.is_empty());
    assert!(all
        .iter()
        .filter(|r| r.status.label() == "setup_error")
        .all(|r| r.verdict.is_none()));
    let listed: BTreeSet<String> = csv_maps(&dir.join("undecided.csv"))
        .iter()
        .map(|r| r["index"].clone())
        .collect();
    // Every formula a solver started on and nobody decided is listed; none other.
    let started: BTreeSet<String> = all
        .iter()
        .filter(|r| r.status.label() == "unknown")
        .map(|r| r.index.clone())
        .collect();
    assert!(!started.is_empty());
    assert_eq!(listed, started);
    assert!(listed.is_disjoint(&never_started));
    let triaged = s.join("triaged");
    let o = s.run(&[
        "triage",
        dir.to_str().unwrap(),
        "--out",
        triaged.to_str().unwrap(),
        "--performance-factor",
        "1",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let in_triage: BTreeSet<String> = csv_maps(&triaged.join("undecided.csv"))
        .iter()
        .map(|r| r["index"].clone())
        .collect();
    assert!(in_triage.is_disjoint(&never_started), "{in_triage:?}");
}
