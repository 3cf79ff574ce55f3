//! Campaigns on scripts (several check-sats, push/pop, check-sat-assuming): each
//! check-sat judged against the same release on its assertions alone, fresh — right
//! answers of a script with a popped scope are no finding, and a solver whose
//! incremental answer its fresh self contradicts is found with no second solver.

mod common;

use common::{fake_release, grammar_fixture, rows, show, solver, stderr, Scratch};
use et_core::oracle::{Evidence, Status, Verdict};

#[test]
fn right_answers_of_scripts_with_a_popped_scope_are_no_finding() {
    let s = Scratch::new();
    for grammar in ["incr2.pest", "incr2a.pest"] {
        let out = s.campaign(
            &grammar_fixture(grammar),
            "4",
            &[solver("z3-4.16.0"), solver("cvc5-1.4.2")],
            grammar,
            &["--timeout", "30", "-q"],
        );
        let judged = rows(&out);
        assert_eq!(judged.len(), 8, "{judged:?}");
        for r in &judged {
            assert_eq!(r.verdict, None, "{r:?}");
            // Every script of the grammar is sat at both check-sats: the row is about
            // the last, judged against the release on it alone.
            assert_eq!((r.status, r.check_sat), (Status::Sat, Some(2)), "{r:?}");
            assert_eq!(r.reference, r.solver, "{r:?}");
            assert_eq!(r.model_check, "valid", "{r:?}");
        }
        let o = s.run(&["triage", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", show(&o));
        assert!(
            !out.join("triage/bugs").exists()
                || std::fs::read_dir(out.join("triage/bugs"))
                    .unwrap()
                    .next()
                    .is_none()
        );
    }
}

#[test]
fn an_incremental_answer_its_fresh_self_contradicts_is_found_with_no_other_solver() {
    let s = Scratch::new();
    let grammar = grammar_fixture("two-checks.pest");
    let z3 = solver("z3-4.16.0");
    let honest = rows(&s.campaign(
        &grammar,
        "225",
        std::slice::from_ref(&z3),
        "z3",
        &["--timeout", "30", "-q"],
    ));
    assert!(honest.iter().all(|r| r.verdict.is_none()), "{honest:?}");
    // z3 itself, but its second answer in a script is always `unsat`.
    let mut command = vec![z3.command[0].clone()];
    command.extend(z3.command[1..].iter().cloned());
    let args: Vec<&str> = command.iter().map(String::as_str).collect();
    let liar = fake_release("liar", "z3", "4.16.0", "second-unsat.sh", &args);
    let out = s.campaign(&grammar, "225", &[liar], "liar", &["--timeout", "30", "-q"]);
    let judged = rows(&out);
    let mut found = 0;
    for r in &judged {
        assert_eq!(r.check_sat, Some(2), "{r:?}");
        assert_eq!(r.status, Status::Unsat, "{r:?}");
        if r.reference_status == Some(Status::Sat) {
            // The fresh call's model, found valid, proves the check-sat's assertions
            // satisfiable: the script's `unsat` is the wrong side.
            assert_eq!(r.verdict, Some(Verdict::Incremental), "{r:?}");
            assert_eq!(r.evidence, Some(Evidence::Model), "{r:?}");
            assert_eq!(r.model_check, "valid", "{r:?}");
            found += 1;
        } else {
            assert_eq!(r.verdict, None, "{r:?}");
        }
    }
    assert!(
        found > 100,
        "{found} incremental findings of {}",
        judged.len()
    );
    // Each trigger keeps the script and the check-sat alone its reference ran on.
    let bugs = out.join("bugs/incremental");
    let alone = std::fs::read_dir(&bugs)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".alone.smt2")
        })
        .count();
    assert_eq!(alone, found);
    // The report counts them in a column of their own (formula runs have none).
    let o = s.run(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", show(&o));
    let tables = common::stdout(&o);
    let mut lines = tables
        .lines()
        .skip_while(|l| !l.starts_with("Bug triggers"));
    let header: Vec<&str> = lines.nth(1).unwrap().split_whitespace().collect();
    let liar: Vec<&str> = lines.nth(1).unwrap().split_whitespace().collect();
    let at = header
        .iter()
        .position(|h| *h == "incremental")
        .expect(&tables);
    assert_eq!(liar[at], found.to_string(), "{tables}");
    // Triage does not take scripts yet: it says so, and writes nothing.
    let o = s.run(&["triage", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(stderr(&o).contains("findings on scripts"), "{}", show(&o));
    assert!(!out.join("triage").exists());
}

#[test]
fn scripts_take_no_other_judge_and_run_fresh() {
    let s = Scratch::new();
    let grammar = grammar_fixture("incr2.pest");
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0"), solver("cvc5-1.4.2")]);
    let out = s.join("refused");
    let o = s.run(&common::campaign_args(
        &grammar,
        "4",
        &pool,
        &out,
        &[
            "--timeout",
            "30",
            "--reference",
            "cvc5-1.4.2",
            "--solvers",
            "z3-4.16.0",
        ],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(stderr(&o).contains("leave out --reference"), "{}", show(&o));
    assert!(!out.exists());
    // yices-smt2 takes scripts only with --incremental, which et gives it.
    let out = s.join("yices");
    let o = s.run(&common::campaign_args(
        &grammar,
        "4",
        &s.pool_file("yices.toml", &[solver("yices-2.6.5")]),
        &out,
        &["--timeout", "30", "--mode", "session"],
    ));
    assert!(o.status.success(), "{}", show(&o));
    assert!(stderr(&o).contains("run fresh"), "{}", show(&o));
    let judged = rows(&out);
    assert_eq!(judged.len(), 4);
    for r in &judged {
        assert_eq!((r.status, r.verdict), (Status::Sat, None), "{r:?}");
        assert_eq!(r.mode, Some(et_core::judging::CallMode::Fresh));
    }
}
