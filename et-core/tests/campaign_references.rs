//! Who judges whom in `et run`, end to end with real solvers: a faithful reference for
//! old z3 strings (8-bit characters, as the published study judged them), et's study
//! rule on `strings`, yices behind its `(set-logic ...)` prelude, the CI gate
//! `--fail-on` with a cached reference, and the reference choice recorded in `run.toml`
//! so that `--resume` and `et merge` refuse a change.

mod common;

use std::path::Path;

use common::{
    cached_answers, campaign_args, fake_release, grammar_fixture, manifest, rows, stderr, Scratch,
};
use et_core::campaign::row::RunRow;
use et_core::oracle::{Status, Verdict};
use et_core::solvers::testing::test_pool;

/// The published study judged z3 up to 4.8.10 against z3 run with `unicode=false`:
/// formulas that ask for a character above \u{ff} are unsat in their 8-bit alphabet
/// and sat in Unicode. Judged by a z3 without Unicode, z3 4.8.10 shows no unsound
/// verdict on them; judged by a Unicode z3, every one of them is "unsound".
#[test]
fn old_z3_strings_are_judged_by_a_reference_with_their_alphabet() {
    let pool = test_pool();
    let old = pool.get("z3-4.8.10").unwrap().clone();
    let new = pool.newest("z3").unwrap().clone();
    let s = Scratch::new();
    let rule = "[[reference]]\nfamily = \"z3\"\nversions = \"<= 4.8.10\"\n\
                grammars = [\"unicode_strings\"]\njudges = [\"z3\"]\nunicode = false\n";
    let file = s.pool_file_with_rules("pool.toml", &[old.clone(), new.clone()], rule);
    let grammar = grammar_fixture("unicode_strings.pest");
    let study = |out: &Path, extra: &[&str]| {
        let options = [
            &["--solvers", &old.name, "--timeout", "20", "-j", "2"],
            extra,
        ]
        .concat();
        let o = s.run(&campaign_args(&grammar, "7", &file, out, &options));
        assert!(o.status.success());
        let mut rows = rows(out);
        rows.sort_by_key(|r| r.index.parse::<u32>().unwrap());
        rows
    };
    let ascii_name = format!("{}-ascii", new.name);

    let ascii = s.join("ascii");
    let faithful = study(&ascii, &[]);
    assert_eq!(faithful.len(), 7);
    for r in &faithful {
        assert_eq!(r.reference, ascii_name, "{r:?}");
        assert_eq!(Some(r.status), r.reference_status, "{r:?}");
        assert!(r.status.is_decided(), "{r:?}");
        assert_eq!(r.verdict, None, "{r:?}");
    }
    let unsat: Vec<Status> = faithful.iter().map(|r| r.status).collect();
    assert_eq!(
        unsat.iter().filter(|s| **s == Status::Unsat).count(),
        6,
        "{unsat:?}"
    );
    // The variant is recorded with the options that made it 8-bit.
    let (_, m) = manifest(&ascii);
    assert_eq!(m.solvers[0].references, Some(vec![ascii_name.clone()]));
    assert_eq!(m.reference_solvers.len(), 1);
    assert_eq!(m.reference_solvers[0].name, ascii_name);
    assert_eq!(
        m.reference_solvers[0].command.last().map(String::as_str),
        Some("encoding=ascii")
    );
    // `--resume --out DIR` alone rebuilds the study from run.toml, the derived judge
    // and the grammar file included: the same study, so nothing is refused or redone.
    let (before, toml_before) = (
        std::fs::read(ascii.join("runs.csv")).unwrap(),
        std::fs::read(ascii.join("run.toml")).unwrap(),
    );
    let o = s.run(&["run", "--resume", "--out", ascii.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(std::fs::read(ascii.join("runs.csv")).unwrap(), before);
    assert_eq!(std::fs::read(ascii.join("run.toml")).unwrap(), toml_before);

    let unicode = study(&s.join("unicode"), &["--reference", &new.name]);
    let unsound: Vec<&RunRow> = unicode
        .iter()
        .filter(|r| r.verdict == Some(Verdict::Unsound))
        .collect();
    assert_eq!(unsound.len(), 5, "{unicode:?}");
    for r in &unsound {
        assert_eq!(
            (r.status, r.reference_status),
            (Status::Unsat, Some(Status::Sat))
        );
    }
    // The same five: the alphabet formulas, not the controls.
    let faithful_alphabet: Vec<&str> = faithful
        .iter()
        .filter(|r| r.status == Status::Unsat && r.index != "6")
        .map(|r| r.index.as_str())
        .collect();
    let unsound_indices: Vec<&str> = unsound.iter().map(|r| r.index.as_str()).collect();
    assert_eq!(unsound_indices, faithful_alphabet);
}

/// et's study rule needs no configuration: on the built-in `strings`, z3 4.8.10 is
/// judged by the newest z3 without Unicode, cvc5 still by the newest z3.
#[test]
fn the_study_rule_applies_to_old_z3_on_strings() {
    let pool = test_pool();
    let old = pool.get("z3-4.8.10").unwrap().clone();
    let new = pool.newest("z3").unwrap().clone();
    let cvc5 = pool.newest("cvc5").unwrap().clone();
    let s = Scratch::new();
    let solvers = [old.clone(), new.clone(), cvc5.clone()];
    let under_test = format!("{},{}", old.name, cvc5.name);
    let options = ["--solvers", &under_test, "--timeout", "20"];
    let out = s.campaign("strings", "10", &solvers, "strings", &options);
    let all = rows(&out);
    assert_eq!(all.len(), 20);
    for r in &all {
        let expected = if r.solver == old.name {
            format!("{}-ascii", new.name)
        } else {
            new.name.clone()
        };
        assert_eq!(r.reference, expected, "{r:?}");
        assert!(r.reference_status.is_some(), "{r:?}");
    }
    // Its answers are cached under the variant's name.
    let cache = std::fs::read_to_string(out.join("reference.csv")).unwrap();
    assert!(cache.contains(&format!(",{}-ascii,", new.name)), "{cache}");
}

/// yices answers et's formulas (which never set a logic) because its family prefixes
/// the grammar's logic, and a bug trigger is the script yices ran, prelude included.
#[test]
fn yices_is_tested_behind_its_prelude() {
    let pool = test_pool();
    let yices = pool.get("yices-2.6.5").unwrap().clone();
    let z3 = pool.newest("z3").unwrap().clone();
    let mut liar = fake_release(
        "yices-liar",
        "yices",
        "1.0",
        "opposite.sh",
        &[yices.program()],
    );
    // The family's model options go after the program, which is the wrapper here.
    liar.models = false;
    let s = Scratch::new();
    let solvers = [yices.clone(), z3.clone(), liar.clone()];
    let under_test = format!("{},{}", yices.name, liar.name);
    let options = ["--solvers", &under_test, "--timeout", "20", "-j", "2"];
    let out = s.campaign("ints", "40", &solvers, "ints", &options);
    let all = rows(&out);
    assert_eq!(all.len(), 80);
    for r in all.iter().filter(|r| r.solver == yices.name) {
        assert!(r.status.is_decided(), "{r:?}");
        assert_eq!((r.reference.as_str(), r.verdict), (z3.name.as_str(), None));
    }
    let lies: Vec<&RunRow> = all.iter().filter(|r| r.solver == liar.name).collect();
    assert!(
        lies.iter().all(|r| r.verdict == Some(Verdict::Unsound)),
        "{lies:?}"
    );
    let trigger = out.join(format!("bugs/unsound/{}-0.smt2", liar.name));
    let script = std::fs::read_to_string(&trigger).unwrap();
    assert!(
        script.starts_with("(set-logic QF_NIA)\n(declare-const a Int)"),
        "{script}"
    );
}

/// The monitoring use: a solver under test against a cached reference, exit 3 when a
/// verdict of `--fail-on` appears, 0 otherwise; the reference runs once for both.
#[test]
fn fail_on_gates_ci_with_a_cached_reference() {
    let pool = test_pool();
    let z3 = pool.newest("z3").unwrap().clone();
    let cvc5 = pool.newest("cvc5").unwrap().clone();
    let liar = common::fake("liar", "opposite.sh", &[cvc5.program()]);
    let s = Scratch::new();
    let file = s.pool_file("pool.toml", &[z3.clone(), cvc5.clone(), liar.clone()]);
    let cache = s.join("reference-cache.csv");
    let gate = |solver: &str, out: &str, fail_on: &str| {
        s.run(&campaign_args(
            "core",
            "20",
            &file,
            &s.join(out),
            &[
                "--solvers",
                solver,
                "--reference",
                &z3.name,
                "--reference-cache",
                cache.to_str().unwrap(),
                "--timeout",
                "20",
                "-q",
                "--fail-on",
                fail_on,
            ],
        ))
    };
    // Reference answers (the cache also holds et's witness searches).
    let cached = || cached_answers(&cache);

    let honest = gate(&cvc5.name, "honest", "unsound,invalid_model");
    assert_eq!(honest.status.code(), Some(0));
    assert_eq!(cached(), 20);

    let lying = gate(&liar.name, "lying", "unsound,invalid_model");
    assert_eq!(lying.status.code(), Some(3));
    let err = stderr(&lying);
    assert!(err.contains("--fail-on: 20 unsound"), "{err}");
    assert_eq!(cached(), 20, "the reference was not run again");

    // Only the verdicts asked for fail the gate.
    let other = gate(&liar.name, "lying-crash-gate", "crash");
    assert_eq!(other.status.code(), Some(0));

    let bad = gate(&liar.name, "never", "unsond");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("`unsond` is not a verdict"));
    assert!(!s.join("never").exists());
}

/// Who judged whom is part of a study: a resume with other references, or a merge of
/// shards judged differently, is refused naming the references.
#[test]
fn resume_and_merge_refuse_changed_references() {
    let pool = test_pool();
    let z3 = pool.newest("z3").unwrap().clone();
    let old = pool.get("z3-4.8.5").unwrap().clone();
    let cvc5 = pool.newest("cvc5").unwrap().clone();
    let s = Scratch::new();
    let solvers = [z3.clone(), old.clone(), cvc5.clone()];
    let plain = s.pool_file("plain.toml", &solvers);
    let rule = format!("[[reference]]\njudges = [\"{}\"]\n", old.name);
    let ruled = s.pool_file_with_rules("ruled.toml", &solvers, &rule);
    let run = |pool: &Path, out: &Path, extra: &[&str]| {
        let options = [&["--solvers", &z3.name, "--timeout", "20", "-q"], extra].concat();
        s.run(&campaign_args("core", "6", pool, out, &options))
    };
    let study = s.join("study");
    assert!(run(&plain, &study, &[]).status.success());
    assert_eq!(
        manifest(&study).1.solvers[0].references,
        Some(vec![cvc5.name.clone()])
    );
    let again = run(&ruled, &study, &["--resume"]);
    assert!(!again.status.success());
    let err = stderr(&again);
    assert!(
        err.contains("references") && err.contains(&old.name),
        "{err}"
    );

    let (one, two) = (s.join("one"), s.join("two"));
    assert!(run(&plain, &one, &["--shard", "1/2"]).status.success());
    assert!(run(&ruled, &two, &["--shard", "2/2"]).status.success());
    let merged = s.join("merged");
    let o = s.run(&[
        "merge",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("references"), "{}", stderr(&o));
    assert!(!merged.exists());
}

/// Judges that do not exist, and a grammar logic that is not a logic, are refused with
/// exit 2 before the run directory is created.
#[test]
fn bad_references_and_logics_are_refused_before_anything_is_written() {
    let pool = test_pool();
    let z3 = pool.newest("z3").unwrap().clone();
    let s = Scratch::new();
    let bad_rule = s.pool_file_with_rules(
        "bad-rule.toml",
        std::slice::from_ref(&z3),
        "[[reference]]\nfamily = \"z3\"\njudges = [\"cvc9\"]\n",
    );
    let plain = s.pool_file("plain.toml", std::slice::from_ref(&z3));
    let grammar = s.join("badlogic.pest");
    std::fs::write(
        &grammar,
        "//! badlogic: a logic with a space\n//! logic: QF LIA\nstart = { \"(check-sat)\" }\n",
    )
    .unwrap();
    let out = s.join("never");
    let cases: [(&[&str], String); 4] = [
        (
            &["-g", "core", "--pool", bad_rule.to_str().unwrap()],
            format!("{}:", bad_rule.display()) + "9: reference `cvc9`",
        ),
        (
            &[
                "-g",
                "core",
                "--pool",
                plain.to_str().unwrap(),
                "--reference",
                "nosuch",
            ],
            "--reference: reference `nosuch` is neither a solver nor a family".to_string(),
        ),
        (
            &[
                "-g",
                "core",
                "--pool",
                plain.to_str().unwrap(),
                "--reference",
                " , ",
            ],
            "--reference needs a solver name".to_string(),
        ),
        (
            &[
                "-g",
                grammar.to_str().unwrap(),
                "--pool",
                plain.to_str().unwrap(),
            ],
            "`//! logic: QF LIA` must name one SMT-LIB logic".to_string(),
        ),
    ];
    for (extra, needle) in cases {
        let mut args = vec![
            "run",
            "--n",
            "3",
            "--timeout",
            "5",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&o).contains(&needle), "{extra:?}: {}", stderr(&o));
        assert!(!out.exists(), "nothing written for {extra:?}");
    }
}
