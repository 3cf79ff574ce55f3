//! Real solver sessions answer like fresh processes: the first formulas of every
//! built-in grammar, run through one session per solver (reset between formulas,
//! models asked for as a campaign asks) and through a fresh process each, get the same
//! status from the oracle, and the same stdout where the solver is deterministic.

mod common;

use std::path::Path;
use std::time::Duration;

use et_core::builtins::BUILTINS;
use et_core::oracle::classify;
use et_core::solvers::call::{run_call, Input, Limits};
use et_core::solvers::family;
use et_core::solvers::session::{Session, SessionStats};
use et_core::solvers::SolverConfig;

/// Formulas per grammar.
const FORMULAS: usize = 12;

fn limits() -> Limits {
    Limits::with_timeout(Duration::from_secs(60))
}

/// Runs the first formulas of `grammars` on `solver` fresh and in a session (restarted
/// every `restart` formulas) and asserts the same status for each; returns what the
/// session's processes did.
fn agree(solver: &SolverConfig, grammars: &[&str], restart: usize) -> SessionStats {
    let scratch = common::Scratch::new();
    let file = scratch.join("formula.smt2");
    let command = solver
        .command_with_models()
        .unwrap_or_else(|| solver.command.clone());
    let mut session = Session::for_solver(solver, &command)
        .unwrap_or_else(|| panic!("{} runs sessions", solver.name))
        .restart_after(restart);
    let mut compared = 0;
    for grammar in grammars {
        let (formulas, logic) = common::first_formulas(grammar, FORMULAS);
        for formula in &formulas {
            let script = common::script_for(solver, formula, logic.as_deref());
            std::fs::write(&file, &script).unwrap();
            let fresh = run_call(&command, Input::File(&file), &limits()).unwrap();
            let seen = session.call(&script, &limits()).unwrap();
            let (f, s) = (classify(&fresh).status, classify(&seen).status);
            assert_eq!(
                f,
                s,
                "{} on {grammar} formula\n{script}\nfresh: {}{}\nsession: {}{}",
                solver.name,
                fresh.stdout_text(),
                fresh.stderr_text(),
                seen.stdout_text(),
                seen.stderr_text()
            );
            compared += 1;
        }
    }
    assert_eq!(compared, grammars.len() * FORMULAS);
    let stats = session.stats();
    assert!(stats.started >= 1, "{stats:?}");
    eprintln!("{}: {compared} formulas, {stats:?}", solver.name);
    stats
}

/// A session that answered every formula without an error kept its process until a
/// restart was due: an `unsat` answer with models on does not end it (cvc4 and cvc5
/// print each model by themselves, `--dump-models`; bitwuzla and yices are asked only
/// after `sat`: a model request after `unsat` is an error that ends them).
fn kept_its_process(stats: SessionStats, restart: usize) {
    assert_eq!(stats.ended_in_formula, 0, "{stats:?}");
    assert_eq!(stats.out_of_step, 0, "{stats:?}");
    assert_eq!(
        stats.started,
        stats.formulas.div_ceil(restart as u64),
        "{stats:?}"
    );
}

fn et_grammars() -> Vec<&'static str> {
    BUILTINS[..8].iter().map(|b| b.name).collect()
}

#[test]
fn z3_sessions_agree_with_fresh_runs() {
    let stats = agree(&common::solver("z3-4.16.0"), &et_grammars(), 1000);
    kept_its_process(stats, 1000);
}

#[test]
fn an_old_z3_session_agrees_with_fresh_runs() {
    agree(
        &common::solver("z3-4.8.5"),
        &["core", "ints", "strings"],
        1000,
    );
}

#[test]
fn cvc5_runner_sessions_agree_with_fresh_runs() {
    // This build's runner over the test pool's cvc5 1.4.2 libraries (the copy in the
    // pool may be older: a runner that reads all of standard input first cannot run
    // a session). Restarts every 20 formulas, so restarts happen here too.
    let mut solver = common::solver("cvc5-1.4.2");
    let lib = Path::new(solver.program())
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("lib");
    solver.command[0] = env!("CARGO_BIN_EXE_et-cvc5").to_string();
    solver
        .command
        .insert(1, format!("--et-lib-dir={}", lib.display()));
    let stats = agree(&solver, &et_grammars(), 20);
    kept_its_process(stats, 20);
}

#[test]
fn bitwuzla_sessions_agree_with_fresh_runs() {
    // et's driver over the pinned wheel: standard input executed as it arrives,
    // `(reset)` served by a new parser. Its grammars answer without an error, so the
    // process lives until a restart is due; the others (Int, Real, strings) are
    // rejections that end the session, fresh and in a session alike.
    let bitwuzla = common::solver("bitwuzla-0.9.1");
    let stats = agree(&bitwuzla, &["core", "bitvectors", "arrays", "fp"], 1000);
    kept_its_process(stats, 1000);
    let stats = agree(&bitwuzla, &["ints", "strings"], 1000);
    assert_eq!(stats.ended_in_formula, stats.formulas, "{stats:?}");
}

#[test]
fn yices_sessions_agree_with_fresh_runs() {
    // yices has no strings, floating point or arrays of the grammars' kind: it
    // rejects them, fresh and in a session alike (rejections are errors that end the
    // session, so these also test restarts).
    agree(&common::solver("yices-2.6.5"), &et_grammars(), 1000);
}

#[test]
fn debian_cvc4_and_cvc5_sessions_agree_with_fresh_runs() {
    for (package, version) in [("cvc4", "1.8"), ("cvc5", "1.0.3")] {
        let path = format!("/usr/bin/{package}");
        assert!(Path::new(&path).is_file(), "{path}: run scripts/setup.sh");
        let f = family::find(package).unwrap();
        let solver = SolverConfig::installed(f, &format!("{package}-debian"), version, &path);
        agree(&solver, &["core", "ints", "reals", "strings"], 1000);
    }
}
