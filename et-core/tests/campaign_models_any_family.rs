//! `models = true` for a family et does not know: et asks for the model in the script
//! (SMT-LIB's `(set-option :produce-models true)` before the formula, `(get-model)`
//! after it), reads it as standard SMT-LIB and flags the wrong ones; `run.toml`
//! records it; `et solvers check` says when a solver rejects the request. The solver
//! is the pinned z3 4.16.0 behind `shift-ints.sh`, which moves every integer of the
//! model it prints by +1, registered as family `perturbed`.

mod common;

use std::time::Duration;

use common::{fake_release, rows, show, solver, stderr, stdout, Scratch};
use et_core::campaign::manifest::RunManifest;
use et_core::solvers::call::{run_call, Input, Limits};
use et_core::solvers::SolverConfig;
use et_eval::{check_model, ModelDialect, Script};

const Z3: &str = "z3-4.16.0";

/// z3 4.16.0 behind `shift-ints.sh`, of family `perturbed`, with `models = true`.
fn shifted_z3() -> SolverConfig {
    let z3 = solver(Z3);
    let mut shifted = fake_release(
        "shifted-z3",
        "perturbed",
        &z3.version,
        "shift-ints.sh",
        &[z3.program()],
    );
    shifted.models = true;
    shifted
}

/// The formulas `et enumerate` prints for the first `n` indices of `grammar`.
fn formulas(s: &Scratch, grammar: &str, n: usize) -> Vec<String> {
    let o = s.run(&["enumerate", "-g", grammar, "--n", &n.to_string()]);
    assert!(o.status.success(), "{}", show(&o));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), n);
    lines
}

#[test]
fn an_unknown_family_with_models_is_asked_for_them_and_wrong_ones_are_flagged() {
    let s = Scratch::new();
    let shifted = shifted_z3();
    let pool = s.pool_file("pool.toml", std::slice::from_ref(&shifted));
    let out = s.join("run");
    let n = 400;
    let o = s.run(&[
        "run",
        "-g",
        "ints",
        "--n",
        &n.to_string(),
        "--pool",
        pool.to_str().unwrap(),
        "--timeout",
        "120",
        "--no-witness",
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    // run.toml records that et asked it for models.
    let manifest: RunManifest =
        toml::from_str(&std::fs::read_to_string(out.join("run.toml")).unwrap()).unwrap();
    let recorded = manifest
        .solvers
        .iter()
        .find(|m| m.name == shifted.name)
        .unwrap();
    assert_eq!(recorded.models, Some(true), "{recorded:?}");

    // What the model check must say on each sat formula: et-eval on the output of the
    // same solver asked for its model the way a campaign asks (the family's prelude
    // and model request, through the pool entry).
    let texts = formulas(&s, "ints", n);
    let file = s.join("again.smt2");
    let limits = Limits::with_timeout(Duration::from_secs(120));
    let request = shifted.family_info().model_request();
    let prelude = shifted.prelude(None).expect("a model preamble");
    let (mut invalid, mut valid) = (0, 0);
    let all = rows(&out);
    assert_eq!(all.len(), n);
    for r in &all {
        if r.status.label() != "sat" {
            assert_eq!(
                (r.model_check.as_str(), r.verdict.map_or("", |v| v.label())),
                ("", ""),
                "{r:?}"
            );
            continue;
        }
        let formula = &texts[r.index.parse::<usize>().unwrap()];
        let script = format!("{prelude}\n{formula}\n{request}\n");
        std::fs::write(&file, &script).unwrap();
        let command = shifted.command_with_models().unwrap();
        let again = run_call(&command, Input::File(&file), &limits).unwrap();
        let printed = again.stdout_text();
        assert!(
            printed.contains("define-fun"),
            "no model for {script}: {printed}"
        );
        let check = check_model(
            &Script::parse(formula).unwrap(),
            &printed,
            ModelDialect::default(),
        );
        assert_eq!(r.model_check, check.csv(), "{formula}: {check}");
        if check.csv() == "invalid" {
            invalid += 1;
            assert_eq!(
                (
                    r.verdict.map_or("", |v| v.label()),
                    r.evidence.map_or("", |e| e.label())
                ),
                ("invalid_model", "model"),
                "{r:?}"
            );
            let log = std::fs::read_to_string(out.join(format!(
                "bugs/invalid_model/{}-{}.log",
                shifted.name, r.index
            )))
            .unwrap();
            assert!(log.contains("evidence: model"), "{log}");
        } else {
            valid += 1;
            assert_eq!(r.verdict, None, "{r:?}");
        }
    }
    // Both kinds occur, so both directions were tested.
    assert!(
        invalid >= 20 && valid >= 5,
        "{invalid} invalid, {valid} valid"
    );
}

#[test]
fn solvers_check_asks_for_a_model_and_names_a_solver_that_rejects_it() {
    let s = Scratch::new();
    let z3 = solver(Z3);
    let shifted = shifted_z3();
    let mut rejecting = fake_release(
        "no-models",
        "perturbed",
        &z3.version,
        "rejects-models.sh",
        &[z3.program()],
    );
    rejecting.models = true;
    let mut unasked = rejecting.clone();
    unasked.name = "no-models-unasked".to_string();
    unasked.models = false;
    let pool = s.pool_file("pool.toml", &[shifted, rejecting, unasked]);
    let o = s.run(&[
        "solvers",
        "check",
        "--timeout",
        "60",
        "--pool",
        pool.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    let out = stdout(&o);
    let line = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}: {out}"))
            .to_string()
    };
    // The known-sat formula is Boolean: shifting integers leaves its model valid.
    let ok = line("shifted-z3");
    assert!(ok.contains(" model ") && !ok.contains("FAIL"), "{ok}");
    // The solver answers sat and unsat right, but not the model request.
    let rejected = line("no-models");
    assert!(
        !rejected.contains("FAIL (expected")
            && rejected
                .contains("FAIL (asked for a model with `(set-option :produce-models true)`"),
        "{rejected}"
    );
    // Models off: nothing asked, nothing failed.
    let unasked = line("no-models-unasked");
    assert!(
        unasked.contains("(models off)") && !unasked.contains("FAIL"),
        "{unasked}"
    );
}
