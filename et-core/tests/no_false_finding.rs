//! Inputs that once made et report findings that were not there, each from a run
//! through triage: the texts a model holds, a model's wrong interpretation of division
//! by zero, a call the wall clock stopped before it computed, and formulas no solver
//! takes. None may leave a verdict, a report to file or a lost row.

mod common;

use std::path::{Path, PathBuf};

use common::{csv_maps, fake_script, rows, show, solver, Scratch};
use et_core::oracle::Status;
use et_core::solvers::SolverConfig;

/// `et triage RUN` (which must succeed), then the group rows of its `groups.csv`.
fn triage_groups(s: &Scratch, run: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let o = s.run(&["triage", run.to_str().unwrap(), "--jobs", "2", "-q"]);
    assert!(o.status.success(), "{}", show(&o));
    csv_maps(&run.join("triage").join("groups.csv"))
}

/// The reports `et triage` wrote for filing in `run`.
fn reports(run: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(run.join("triage").join("bugs")) {
        Ok(dir) => dir
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// A grammar of the test's own, written to its scratch directory.
fn grammar(s: &Scratch, name: &str, text: &str) -> String {
    let path = s.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// A release of the test pool behind a fault-injecting wrapper `script` (given
/// `before` its real command), under the release's own name, family and version.
fn wrapped(release: &str, script: &str, before: &[&str]) -> SolverConfig {
    let real = solver(release);
    let mut command = vec![fake_script(script)];
    command.extend(before.iter().map(|s| s.to_string()));
    command.extend(real.command.iter().cloned());
    SolverConfig::new(&real.name, &real.family, &real.version, command)
}

/// Strings equal to crash, rejection and self-check messages are values of a model,
/// not messages: every call answers `sat` with a valid model, so there is no finding.
#[test]
fn a_models_text_is_not_a_message() {
    let s = Scratch::new();
    let g = grammar(
        &s,
        "msg.pest",
        "//! msg: a string constant equal to a literal.\n//! logic: QF_S\n\
         start = { \"(declare-const a String)\" ~ \"(\" ~ \"assert\" ~ \"(\" ~ \"=\" ~ \"a\" ~ lit ~ \")\" ~ \")\" ~ \"(check-sat)\" }\n\
         lit = { \"\\\"ok\\\"\" | \"\\\"Segmentation fault\\\"\" | \"\\\"unsupported\\\"\" | \"\\\"an invalid model was generated\\\"\" }\n",
    );
    let pool = [solver("z3-4.16.0"), solver("cvc5-1.4.2")];
    let run = s.campaign(&g, "4", &pool, "run", &["--timeout", "20"]);
    let rows = rows(&run);
    assert_eq!(rows.len(), 8);
    for row in &rows {
        assert_eq!(row.status, Status::Sat, "{row:?}");
        assert_eq!(row.verdict, None, "{row:?}");
    }
    assert!(triage_groups(&s, &run).is_empty());
    assert!(reports(&run).is_empty());
}

/// A model whose constants are right and whose `div0` is wrong is an invalid model,
/// and only that: pinning the constants leaves a formula that some interpretation of
/// division by zero satisfies, so it is no wrong `sat`.
#[test]
fn a_wrong_division_by_zero_is_no_wrong_sat() {
    let s = Scratch::new();
    let pool = [
        wrapped("z3-4.16.0", "wrong-div0.sh", &[]),
        solver("cvc5-1.4.2"),
    ];
    // ints formula 308: (assert (= 1 (div a 0))).
    let run = s.campaign(
        "ints",
        "1",
        &pool,
        "run",
        &["--start", "308", "--timeout", "20", "--mode", "fresh"],
    );
    let z3 = rows(&run)
        .into_iter()
        .find(|r| r.solver == "z3-4.16.0")
        .unwrap();
    assert_eq!(z3.verdict.map(|v| v.label()), Some("invalid_model"));
    let groups = triage_groups(&s, &run);
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0]["kind"], "invalid_model", "{groups:?}");
    assert!(
        !groups[0]["expected_answer"].starts_with("unsat"),
        "{groups:?}"
    );
}

/// A call the wall clock stopped before it used its CPU is starved, on the call and
/// its re-run: never a timeout, nor a triage finding.
#[test]
fn a_starved_call_is_no_timeout() {
    let s = Scratch::new();
    let pool = [
        wrapped("z3-4.16.0", "sleeps-on.sh", &["(xor "]),
        solver("z3-4.8.10"),
        solver("cvc5-1.4.2"),
    ];
    // core formula 51 holds an `xor`.
    let run = s.campaign(
        "core",
        "1",
        &pool,
        "run",
        &["--start", "51", "--timeout", "1", "--mode", "fresh"],
    );
    let rows = rows(&run);
    let z3 = rows.iter().find(|r| r.solver == "z3-4.16.0").unwrap();
    assert_eq!(z3.status, Status::Starved, "{rows:?}");
    assert!(rows.iter().all(|r| r.verdict.is_none()), "{rows:?}");
    assert!(triage_groups(&s, &run).is_empty());
    assert!(reports(&run).is_empty());
}

/// Formulas every solver rejects are the grammar's fault: not undecided, no finding.
#[test]
fn formulas_every_solver_rejects_are_no_findings() {
    let s = Scratch::new();
    let g = grammar(
        &s,
        "foo.pest",
        "//! foo: an operator no solver knows, and a string operator on an Int.\n\
         //! logic: QF_SLIA\n\
         start = { \"(declare-const a Int)\" ~ \"(\" ~ \"assert\" ~ b ~ \")\" ~ \"(check-sat)\" }\n\
         b = { \"(\" ~ \"foo\" ~ \"a\" ~ \")\" | \"(\" ~ \"=\" ~ \"a\" ~ n ~ \")\" }\n\
         n = { \"0\" | \"1\" | \"(\" ~ \"str.len\" ~ \"a\" ~ \")\" }\n",
    );
    let pool = [solver("z3-4.16.0"), solver("cvc5-1.4.2")];
    let run = s.campaign(&g, "4", &pool, "run", &["--timeout", "20"]);
    let rows = rows(&run);
    assert_eq!(rows.len(), 8);
    let rejected = rows.iter().filter(|r| r.status == Status::Rejected).count();
    assert_eq!(rejected, 4, "{rows:?}");
    assert!(rows.iter().all(|r| r.verdict.is_none()), "{rows:?}");
    assert!(csv_maps(&run.join("undecided.csv")).is_empty());
    assert!(triage_groups(&s, &run).is_empty());
    assert!(csv_maps(&run.join("triage").join("undecided.csv")).is_empty());
}

/// A script has an answer per check-sat, each about the assertions active there:
/// judging one answer against every assertion would call right answers wrong. Two
/// check-sats without a scope are judged each against its own assertions (no finding on
/// z3 and cvc5's right answers, `campaign_scripts.rs` has the scopes); a script with a
/// command et does not judge yet (a tactic, `reset`) is refused (exit 2) before
/// anything runs.
#[test]
fn a_script_is_judged_per_check_sat_or_refused_never_misjudged() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0"), solver("cvc5-1.4.2")]);
    let body = "decl = { \"(\" ~ \"declare-const\" ~ \"x\" ~ \"Int\" ~ \")\" }\n\
         check = { \"(\" ~ \"check-sat\" ~ \")\" }\n\
         assert = { \"(\" ~ \"assert\" ~ bool_term ~ \")\" }\n\
         bool_term = { \"(\" ~ \"<\" ~ \"x\" ~ \"0\" ~ \")\" | \"(\" ~ \">\" ~ \"x\" ~ \"5\" ~ \")\" }\n";
    let twice = grammar(
        &s,
        "twice.pest",
        &format!(
            "//! twice: an assertion checked, then another checked.\n//! logic: QF_LIA\n\
             start = {{ decl ~ assert ~ check ~ assert ~ check }}\n{body}"
        ),
    );
    let out = s.join("run-twice");
    let o = s.run(&common::campaign_args(
        &twice,
        "4",
        &pool,
        &out,
        &["--timeout", "20"],
    ));
    assert!(o.status.success(), "{}", show(&o));
    let judged = rows(&out);
    assert_eq!(judged.len(), 8);
    for r in &judged {
        assert_eq!(r.verdict, None, "{r:?}");
        // (< x 0) then (> x 5) is unsat at the second check-sat only; the same twice
        // is sat at both.
        assert_eq!(r.check_sat, Some(2), "{r:?}");
    }
    assert!(judged.iter().any(|r| r.status.label() == "unsat"));
    let tactic = grammar(
        &s,
        "tactic.pest",
        &format!(
            "//! tactic: an assertion checked with a tactic.\n//! logic: QF_LIA\n\
             start = {{ decl ~ assert ~ \"(check-sat-using smt)\" ~ check }}\n{body}"
        ),
    );
    let out = s.join("run-tactic");
    let o = s.run(&common::campaign_args(
        &tactic,
        "4",
        &pool,
        &out,
        &["--timeout", "20"],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("`check-sat-using`") && stderr.contains("misjudged"),
        "{stderr}"
    );
    assert!(!out.join("runs.csv").exists(), "{}", out.display());
}
