//! z3's tactics as configurations: the tactic list read from the release, tactic
//! expressions run as solvers of their own (each formula checked with
//! `(check-sat-using EXPRESSION)`) and judged against the release's default
//! `check-sat`, correctness verdicts only; a real wrong `unsat` of a tactic found and
//! reported with its tactic.

mod common;

use common::{manifest, rows, show, solver, stderr, stdout, Scratch};
use et_core::oracle::{Evidence, Status, Verdict};

/// `et options tactics z3-4.16.0` lines: (index, name, expression).
fn expressions(s: &Scratch, start: &str, n: &str) -> Vec<(String, String, String)> {
    let o = s.run(&[
        "options",
        "tactics",
        "z3-4.16.0",
        "--start",
        start,
        "--n",
        n,
    ]);
    assert!(o.status.success(), "{}", show(&o));
    stdout(&o)
        .lines()
        .skip(1)
        .map(|l| {
            let mut cells = l.splitn(3, '\t').map(str::to_string);
            (
                cells.next().unwrap(),
                cells.next().unwrap(),
                cells.next().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_tactic_list_is_read_from_the_release() {
    let s = Scratch::new();
    let o = s.run(&["options", "tactics", "z3-4.16.0", "--n", "1"]);
    assert!(o.status.success(), "{}", show(&o));
    let said = stderr(&o);
    let tactics: usize = said
        .split("over its ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{said}"));
    assert!(tactics >= 100, "{said}");
    // Block 1 is each tactic then smt, in the release's order.
    let first = expressions(&s, "0", &tactics.to_string());
    assert_eq!(first.len(), tactics);
    assert!(first
        .iter()
        .all(|(_, _, e)| e.starts_with("(then ") && e.ends_with(" smt)")));
    assert!(first.iter().any(|(_, _, e)| e == "(then qfidl smt)"));
    // A family without tactics is told so (exit 2).
    let o = s.run(&["options", "tactics", "cvc5-1.4.2"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(stderr(&o).contains("no tactics"), "{}", show(&o));
}

#[test]
fn tactic_expressions_run_as_configurations_in_sessions_with_correctness_verdicts_only() {
    let s = Scratch::new();
    let out = s.campaign(
        "ints",
        "100",
        &[solver("z3-4.16.0")],
        "tactics",
        &[
            "--timeout",
            "30",
            "--configurations",
            "z3-4.16.0:tactics:20",
            "-q",
        ],
    );
    let listed = expressions(&s, "0", "20");
    let (_, m) = manifest(&out);
    for (index, name, expression) in &listed {
        let recorded = m
            .solvers
            .iter()
            .find(|r| &r.name == name)
            .unwrap_or_else(|| panic!("{name} (tactic {index}) not in run.toml"));
        assert_eq!(recorded.tactic.as_deref(), Some(expression.as_str()));
        assert_eq!(recorded.configuration_of.as_deref(), Some("z3-4.16.0"));
        assert_eq!(recorded.references.as_deref().unwrap()[0], "z3-4.16.0");
    }
    let judged = rows(&out);
    for (_, name, _) in &listed {
        let of: Vec<_> = judged.iter().filter(|r| &r.solver == name).collect();
        assert_eq!(of.len(), 100, "{name}");
        for r in of {
            // A tactic may give up or run long by design: no performance verdict.
            assert!(
                !matches!(r.verdict, Some(Verdict::Unknown | Verdict::Timeout)),
                "{r:?}"
            );
        }
    }
    assert!(judged
        .iter()
        .any(|r| r.mode == Some(et_core::judging::CallMode::Session)));
}

#[test]
fn a_tactic_s_wrong_unsat_is_found_and_reported_with_its_tactic() {
    let s = Scratch::new();
    // 0 / b > 0 is satisfiable: b = 0 and (/ 0 0) positive, division by zero being
    // any value. z3 4.13.0 to 5.4.1 answer `unsat` under the qfidl tactic.
    let grammar = s.join("divzero.pest");
    std::fs::write(
        &grammar,
        "//! divzero: zero divided by a real, compared with zero.\n//! logic: QF_LRA\n\
         start = { \"(declare-const b Real)\" ~ \"(assert\" ~ atom ~ \")\" ~ \"(check-sat)\" }\n\
         atom = { \"(\" ~ rel ~ \"(/ 0.0 b)\" ~ \"0.0\" ~ \")\" }\n\
         rel = { \">\" | \"<\" | \"=\" }\n",
    )
    .unwrap();
    let qfidl = expressions(&s, "0", "1000")
        .into_iter()
        .find(|(_, _, e)| e == "(then qfidl smt)")
        .expect("z3 4.16.0 has qfidl");
    let range = format!(
        "z3-4.16.0:tactics:{}..{}",
        qfidl.0,
        qfidl.0.parse::<u64>().unwrap() + 1
    );
    let out = s.campaign(
        grammar.to_str().unwrap(),
        "3",
        &[solver("z3-4.16.0"), solver("z3-4.8.10")],
        "divzero",
        &[
            "--timeout",
            "30",
            "--solvers",
            "z3-4.16.0",
            "--configurations",
            &range,
            "-q",
        ],
    );
    let unsound: Vec<_> = rows(&out)
        .into_iter()
        .filter(|r| r.solver == qfidl.1 && r.verdict.is_some())
        .collect();
    assert!(!unsound.is_empty());
    for r in &unsound {
        assert_eq!(r.verdict, Some(Verdict::Unsound), "{r:?}");
        assert_eq!(r.status, Status::Unsat, "{r:?}");
        assert_eq!(r.evidence, Some(Evidence::Witness), "{r:?}");
    }
    // The trigger is a formula of the grammar (its check is the tactic's).
    let trigger = out.join(format!(
        "bugs/unsound/{}-{}.smt2",
        qfidl.1, unsound[0].index
    ));
    let text = std::fs::read_to_string(&trigger).unwrap();
    assert!(
        text.contains("(check-sat-using (then qfidl smt))"),
        "{text}"
    );
    let o = s.run(&[
        "rank",
        "-g",
        grammar.to_str().unwrap(),
        trigger.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(
        stdout(&o).split('\t').next(),
        Some(unsound[0].index.as_str())
    );
    // Triage confirms it and its report names the tactic and shows the script run.
    let o = s.run(&["triage", out.to_str().unwrap(), "--jobs", "2"]);
    assert!(o.status.success(), "{}", show(&o));
    let report = std::fs::read_dir(out.join("triage/bugs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "md"))
        .expect("a report to file");
    let report = std::fs::read_to_string(report).unwrap();
    assert!(
        report.contains("checked with `(check-sat-using (then qfidl smt))`"),
        "{report}"
    );
    assert!(
        report.contains("\n(check-sat-using (then qfidl smt))\n"),
        "{report}"
    );
}
