//! Campaigns on the grammars past ET's: quantified formulas judged by et's evaluation
//! alone (a lying model refuted, a lying `unsat` caught by a witness, an undetermined
//! check making no verdict), an `unknown` on a quantified formula a finding only where
//! another release of the family decided it, and families left out of logics they do
//! not take.

mod common;

use std::collections::BTreeSet;

use common::{fake, fake_release, manifest, rows, show, solver, stderr, Scratch};
use et_core::campaign::row::RunRow;
use et_core::oracle::{Evidence, Verdict};

/// The indices of `rows` of `solver` with status `status`.
fn indices(rows: &[RunRow], solver: &str, status: &str) -> BTreeSet<String> {
    rows.iter()
        .filter(|r| r.solver == solver && r.status.label() == status)
        .map(|r| r.index.clone())
        .collect()
}

/// z3 4.16.0's answers on the first `n` formulas of `grammar`, by index.
fn z3_answers(s: &Scratch, grammar: &str, n: &str) -> Vec<RunRow> {
    let out = s.campaign(
        grammar,
        n,
        &[solver("z3-4.16.0")],
        &format!("z3-{grammar}"),
        &["--timeout", "30", "-q"],
    );
    rows(&out)
}

#[test]
fn a_lying_model_of_a_quantified_formula_is_refuted_by_evaluating_the_quantifier() {
    let s = Scratch::new();
    let z3 = z3_answers(&s, "quantifiers-bitvectors", "60");
    let unsat = indices(&z3, "z3-4.16.0", "unsat");
    assert!(!unsat.is_empty());
    let mut liar = fake("liar", "sat-model.sh", &["(_ BitVec 8)", "#x00"]);
    liar.models = true;
    let out = s.campaign(
        "quantifiers-bitvectors",
        "60",
        &[liar],
        "liar",
        &["--timeout", "30", "-q"],
    );
    let judged = rows(&out);
    let refuted: BTreeSet<String> = judged
        .iter()
        .filter(|r| r.verdict == Some(Verdict::InvalidModel))
        .inspect(|r| assert_eq!(r.evidence, Some(Evidence::Model), "{r:?}"))
        .map(|r| r.index.clone())
        .collect();
    // Every formula z3 proves unsat has no model at all: the model is refuted there,
    // with no other solver in the pool, by et's exact evaluation over 8-bit vectors.
    assert!(unsat.is_subset(&refuted), "{unsat:?} ⊄ {refuted:?}");
    // And a model et found valid is never called invalid.
    for r in &judged {
        if r.model_check == "valid" {
            assert_eq!(r.verdict, None, "{r:?}");
        }
    }
}

#[test]
fn a_lying_unsat_on_a_quantified_formula_is_caught_by_a_witness() {
    let s = Scratch::new();
    let z3 = z3_answers(&s, "quantifiers-bitvectors", "60");
    let sat = indices(&z3, "z3-4.16.0", "sat");
    let liar = fake("liar", "always-unsat.sh", &[]);
    let out = s.campaign(
        "quantifiers-bitvectors",
        "60",
        &[liar],
        "liar",
        &["--timeout", "30", "-q"],
    );
    let unsound: BTreeSet<String> = rows(&out)
        .iter()
        .filter(|r| r.verdict == Some(Verdict::Unsound))
        .inspect(|r| assert_eq!(r.evidence, Some(Evidence::Witness), "{r:?}"))
        .map(|r| r.index.clone())
        .collect();
    // Caught with no other solver in the pool, and never where the formula is unsat.
    assert!(!unsound.is_empty());
    assert!(unsound.is_subset(&sat), "{unsound:?} ⊄ {sat:?}");
}

#[test]
fn an_undetermined_check_over_integers_makes_no_verdict() {
    let s = Scratch::new();
    let mut liar = fake("liar", "sat-model.sh", &["Int", "0"]);
    liar.models = true;
    // A quantifier over Int is decided false only by a counterexample et finds, and
    // never true: where no counterexample is found, the check says undetermined.
    let out = s.campaign(
        "quantifiers-ints",
        "40",
        &[liar],
        "liar",
        &["--timeout", "30", "-q"],
    );
    let judged = rows(&out);
    assert!(judged.iter().any(|r| r.model_check == "undetermined"));
    for r in &judged {
        if r.model_check == "undetermined" {
            assert_eq!(r.verdict, None, "{r:?}");
        }
    }
}

#[test]
fn unknown_on_a_quantified_formula_is_a_finding_only_where_the_family_decided_it() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    // A release of z3 that gives up on everything: another z3 decided the formulas.
    let mut gives_up = fake_release("z3-9.9.9", "z3", "9.9.9", "always-unknown.sh", &[]);
    gives_up.reference = vec![z3.name.clone()];
    let out = s.campaign(
        "quantifiers-bitvectors",
        "30",
        &[z3.clone(), gives_up.clone()],
        "same-family",
        &["--timeout", "30", "-q", "--solvers", "z3-9.9.9"],
    );
    let same = rows(&out);
    assert!(
        same.iter().any(|r| r.verdict == Some(Verdict::Unknown)),
        "{same:?}"
    );
    // Another family giving up where only z3 decided: incompleteness, no finding.
    let mut other = fake_release("other-1.0", "other", "1.0", "always-unknown.sh", &[]);
    other.reference = vec![z3.name.clone()];
    let out = s.campaign(
        "quantifiers-bitvectors",
        "30",
        &[z3.clone(), other],
        "other-family",
        &["--timeout", "30", "-q", "--solvers", "other-1.0"],
    );
    let others = rows(&out);
    assert_eq!(others.len(), 30);
    for r in &others {
        assert_eq!(r.status.label(), "unknown");
        assert_eq!(r.verdict, None, "{r:?}");
    }
    // The same pool on quantifier-free formulas: `unknown` is a finding as ever.
    let mut other = fake_release("other-1.0", "other", "1.0", "always-unknown.sh", &[]);
    other.reference = vec![z3.name.clone()];
    let out = s.campaign(
        "core",
        "10",
        &[z3, other],
        "quantifier-free",
        &["--timeout", "30", "-q", "--solvers", "other-1.0"],
    );
    assert!(rows(&out)
        .iter()
        .all(|r| r.verdict == Some(Verdict::Unknown)));
}

#[test]
fn a_family_is_not_sent_a_logic_it_does_not_take() {
    let s = Scratch::new();
    let yices = solver("yices-2.6.5");
    let z3 = solver("z3-4.16.0");
    let pool = s.pool_file("pool.toml", &[yices.clone(), z3.clone()]);
    let out = s.join("strings");
    let o = s.run(&common::campaign_args(
        "strings",
        "3",
        &pool,
        &out,
        &["--timeout", "30", "-q"],
    ));
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        stderr(&o).contains("yices-2.6.5 does not take QF_SLIA (strings)"),
        "{}",
        show(&o)
    );
    let (_, m) = manifest(&out);
    assert_eq!(m.outside_logic.len(), 1);
    assert_eq!(m.outside_logic[0].name, yices.name);
    assert!(rows(&out).iter().all(|r| r.solver == z3.name));
    // Resumed with the same request, yices is left out again and the run goes on.
    let o = s.run(&common::campaign_args(
        "strings",
        "3",
        &pool,
        &out,
        &["--timeout", "30", "-q", "--resume"],
    ));
    assert!(o.status.success(), "{}", show(&o));
    assert_eq!(rows(&out).len(), 3);
    assert_eq!(manifest(&out).1.outside_logic.len(), 1);
    // yices alone on quantifiers: nothing to run, a refusal.
    let pool = s.pool_file("yices.toml", &[yices]);
    let o = s.run(&common::campaign_args(
        "quantifiers-ints",
        "3",
        &pool,
        &s.join("none"),
        &["--timeout", "30", "-q"],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        stderr(&o).contains("no solver under test takes"),
        "{}",
        show(&o)
    );
    assert!(!s.join("none").join("runs.csv").exists());
}
