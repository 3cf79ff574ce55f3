//! et's own oracle inside `et run`, end to end: its model check catches wrong models
//! exactly when they are wrong (decided by asking a real z3 the ground formula), its
//! witnesses convict a solver that answers `unsat` to everything with no reference at
//! all (and the reference cache keeps them). (A self-check's false alarm on a valid
//! model is told apart in campaign_run.rs, on the old z3 releases that raise them.)
//! The wrong answers come from fault-injecting scripts around (or instead of) the
//! pinned z3 of the test pool.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use num_bigint::BigUint;

use common::{fake_release, rows, solver, stderr, Scratch};
use et_core::enumeration::Enumeration;
use et_core::oracle::{Evidence, Status, Verdict};
use et_core::solvers::call::{run_call, Input, Limits};
use et_core::solvers::SolverConfig;
use et_eval::sexp::{read_all, SexpKind};
use et_eval::{find_witness, Script, WitnessBound};

const Z3: &str = "z3-4.16.0";

/// The first `n` formulas of a grammar, by index.
fn formulas(grammar: &str, n: usize) -> Vec<String> {
    let mut e = Enumeration::new(et_core::builtins::load(grammar).unwrap());
    let mut stream = e.stream_from(&BigUint::from(0u32)).unwrap();
    let mut texts = Vec::with_capacity(n);
    while texts.len() < n {
        texts.push(String::from_utf8(stream.current_text().to_vec()).unwrap());
        assert!(stream.advance());
    }
    texts
}

/// What a solver answers on `script` (its first line, and all of stdout), given as the
/// file `file`.
fn answer(command: &[String], file: &Path, script: &str) -> (String, String) {
    std::fs::write(file, script).unwrap();
    let o = run_call(
        command,
        Input::File(file),
        &Limits::with_timeout(Duration::from_secs(120)),
    )
    .unwrap();
    let out = o.stdout_text();
    (
        out.lines().next().unwrap_or("").trim().to_string(),
        out.to_string(),
    )
}

/// The formula with its constants defined by the model's constant `define-fun`s: a
/// ground formula whose satisfiability says whether the model satisfies it.
fn ground(formula: &str, model_output: &str) -> String {
    let items = read_all(model_output).unwrap();
    let model = items
        .iter()
        .find(|s| matches!(s.kind, SexpKind::List(_)))
        .expect("a model");
    let SexpKind::List(defs) = &model.kind else {
        unreachable!()
    };
    let mut text = String::new();
    for def in defs {
        let SexpKind::List(parts) = &def.kind else {
            continue;
        };
        let no_parameters = matches!(&parts[2].kind, SexpKind::List(p) if p.is_empty());
        if no_parameters {
            text.push_str(&format!("{def}\n"));
        }
    }
    // The declarations come first; the definitions above replace them.
    let assertions = &formula[formula.find("(assert").expect("an assertion")..];
    text.push_str(assertions);
    text.push('\n');
    text
}

/// A z3 release that perturbs its models (family z3, so et asks it for models), alone
/// in `pool.toml` and run on the first `n` ints formulas into `run/`; it and `run/`.
fn perturbed_z3_campaign(s: &Scratch, n: usize) -> (SolverConfig, PathBuf) {
    let z3 = solver(Z3);
    let liar = fake_release(
        "z3-perturbed",
        "z3",
        &z3.version,
        "perturb-model.sh",
        &[z3.program()],
    );
    let options = ["--timeout", "120", "--no-witness", "-j", "2"];
    let n = n.to_string();
    let out = s.campaign("ints", &n, std::slice::from_ref(&liar), "run", &options);
    (liar, out)
}

#[test]
fn a_perturbed_model_is_invalid_exactly_when_it_falsifies_the_formula() {
    let z3 = solver(Z3);
    let s = Scratch::new();
    let n = 200;
    let (liar, out) = perturbed_z3_campaign(&s, n);
    let texts = formulas("ints", n);
    let z3_command = vec![z3.program().to_string()];
    let file = s.join("check.smt2");
    let liar_command: Vec<String> = liar.command.clone();
    let (mut invalid, mut valid) = (0, 0);
    for r in rows(&out) {
        assert_eq!(r.reference, "", "a pool of one has no reference");
        if r.status != Status::Sat {
            assert_eq!((r.model_check.as_str(), r.verdict), ("", None));
            continue;
        }
        let formula = &texts[r.index.parse::<usize>().unwrap()];
        // A ground formula knows nothing of the model's division by zero; the model
        // check uses the model's div0/mod0. Formulas with div/mod are checked above
        // only for having a result.
        assert!(
            ["valid", "invalid"].contains(&r.model_check.as_str()),
            "{r:?}"
        );
        if formula.contains("(div ") || formula.contains("(mod ") {
            continue;
        }
        let (_, printed) = answer(&liar_command, &file, &format!("{formula}\n(get-model)\n"));
        let (ground_answer, _) = answer(&z3_command, &file, &ground(formula, &printed));
        let falsified = match ground_answer.as_str() {
            "unsat" => true,
            "sat" => false,
            other => panic!("z3 on the ground formula of {formula}: {other}"),
        };
        let expected = if falsified {
            invalid += 1;
            (
                Some(Verdict::InvalidModel),
                Some(Evidence::Model),
                "invalid",
            )
        } else {
            valid += 1;
            (None, None, "valid")
        };
        assert_eq!(
            (r.verdict, r.evidence, r.model_check.as_str()),
            expected,
            "{formula} with {printed}"
        );
        if falsified {
            let log = std::fs::read_to_string(
                out.join(format!("bugs/invalid_model/z3-perturbed-{}.log", r.index)),
            )
            .unwrap();
            assert!(log.contains("evidence: model"), "{log}");
            assert!(
                log.contains(
                    "model check (et's evaluation of the printed model): invalid: false at"
                ),
                "{log}"
            );
            let trigger = std::fs::read_to_string(
                out.join(format!("bugs/invalid_model/z3-perturbed-{}.smt2", r.index)),
            )
            .unwrap();
            assert_eq!(trigger.trim(), format!("{formula}\n(get-model)"));
        }
    }
    // Both kinds occur, so both directions of "exactly" were tested.
    assert!(
        invalid >= 5 && valid >= 5,
        "{invalid} invalid, {valid} valid"
    );
}

#[test]
fn unsat_to_everything_is_unsound_wherever_a_witness_exists() {
    let s = Scratch::new();
    let liar = fake_release("liar", "liar", "1.0", "always-unsat.sh", &[]);
    let pool = s.pool_file("pool.toml", std::slice::from_ref(&liar));
    let n = 150;
    let run = |out: &Path, cache: Option<&Path>| {
        let mut args = vec![
            "run".to_string(),
            "-g".into(),
            "ints".into(),
            "--n".into(),
            n.to_string(),
            "--pool".into(),
            pool.display().to_string(),
            "--timeout".into(),
            "60".into(),
            "--witness-bound".into(),
            "5".into(),
            "-j".into(),
            "2".into(),
            "--out".into(),
            out.display().to_string(),
        ];
        if let Some(cache) = cache {
            args.extend(["--reference-cache".into(), cache.display().to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = s.run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        rows(out)
    };
    let first = s.join("first");
    let texts = formulas("ints", n);
    let verdicts = |all: Vec<et_core::campaign::row::RunRow>| {
        all.into_iter()
            .map(|r| (r.index.clone(), (r.verdict, r.evidence)))
            .collect::<HashMap<_, _>>()
    };
    let found = verdicts(run(&first, None));
    assert_eq!(found.len(), n);
    let mut convicted = 0;
    for (i, text) in texts.iter().enumerate() {
        let script = Script::parse(text).unwrap();
        let witness = find_witness(&script, &WitnessBound::exhaustive(5, script.decls.len()));
        let expected = if witness.is_some() {
            convicted += 1;
            (Some(Verdict::Unsound), Some(Evidence::Witness))
        } else {
            (None, None)
        };
        assert_eq!(found[&i.to_string()], expected, "{text}");
    }
    assert!(convicted > n / 2 && convicted < n, "{convicted} of {n}");
    let log = std::fs::read_to_string(first.join("bugs/unsound/liar-0.log"))
        .or_else(|_| {
            let any = std::fs::read_dir(first.join("bugs/unsound"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| p.extension().is_some_and(|e| e == "log"))
                .unwrap();
            std::fs::read_to_string(any)
        })
        .unwrap();
    assert!(log.contains("evidence: witness"), "{log}");
    assert!(
        log.contains("witness (et's, satisfies the formula):\n(define-fun a () Int"),
        "{log}"
    );
    // Every search went to the reference cache, found or not.
    let cache = first.join("reference.csv");
    let searches = |path: &Path| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| l.contains(",et-witness-5,"))
            .count()
    };
    assert_eq!(searches(&cache), n);
    // A second study on the same formulas reads them from the cache: no new search,
    // the same verdicts.
    let second = s.join("second");
    assert_eq!(verdicts(run(&second, Some(&cache))), found);
    assert_eq!(searches(&cache), n);
}

#[test]
fn a_wrong_model_only_et_sees_is_confirmed_by_triage() {
    let s = Scratch::new();
    // z3 checks nothing here (no self-check flag in the run): only et's evaluator
    // sees that the perturbed models are wrong.
    let (_, out) = perturbed_z3_campaign(&s, 60);
    let pool = s.join("pool.toml");
    let by_model = rows(&out)
        .iter()
        .filter(|r| r.verdict == Some(Verdict::InvalidModel) && r.evidence == Some(Evidence::Model))
        .count();
    assert!(
        by_model >= 5,
        "wrong models found by et's check: {by_model}"
    );

    let o = s.run(&[
        "triage",
        out.to_str().unwrap(),
        "--pool",
        pool.to_str().unwrap(),
        "-j",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let triggers = common::csv_maps(&out.join("triage/triggers.csv"));
    let invalid: Vec<_> = triggers
        .iter()
        .filter(|t| t["verdict"] == "invalid_model")
        .collect();
    assert_eq!(invalid.len(), by_model, "every trigger was triaged");
    for t in invalid {
        assert_eq!(t["outcome"], "confirmed", "{t:?}");
    }
}
