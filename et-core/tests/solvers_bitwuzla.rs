//! bitwuzla 0.9.1 of the test pool: the PyPI wheel's Python module behind et's runner
//! (`bin/bitwuzla`). It behaves like a solver program where et can see it (answers,
//! models for `--produce-models`, `(error ...)` and exit 1 on errors, output kept
//! when it crashes), passes `et solvers check`, and beside z3 decides the bitvectors
//! and fp formulas, rejecting (not crashing on) the ones with integers.

mod common;

use std::time::Duration;

use common::{rows, show, solver, stderr, stdout, Scratch};
use et_core::oracle::{classify, Status};
use et_core::solvers::call::{run_call, CallOutcome, Input, Limits};

const BITWUZLA: &str = "bitwuzla-0.9.1";
const Z3: &str = "z3-4.16.0";

/// bitwuzla run with `options` on `script` (written into the scratch directory).
fn bitwuzla(s: &Scratch, options: &[&str], script: &str) -> CallOutcome {
    let file = s.join("formula.smt2");
    std::fs::write(&file, script).unwrap();
    let mut command = solver(BITWUZLA).command;
    command.extend(options.iter().map(|o| o.to_string()));
    run_call(
        &command,
        Input::File(&file),
        &Limits::with_timeout(Duration::from_secs(60)),
    )
    .unwrap()
}

const BV: &str = "(declare-const a (_ BitVec 4))\n(assert (bvult #x7 a))\n(check-sat)\n";

#[test]
fn the_runner_answers_and_fails_like_a_solver_program() {
    let s = Scratch::new();
    // Models only with --produce-models, in SMT-LIB's define-fun form.
    let with_model = bitwuzla(&s, &["--produce-models"], &format!("{BV}(get-model)\n"));
    assert_eq!(classify(&with_model).status, Status::Sat);
    let text = with_model.stdout_text();
    assert!(text.contains("(define-fun a () (_ BitVec 4) #b1"), "{text}");
    let without = bitwuzla(&s, &[], &format!("{BV}(get-model)\n"));
    assert_eq!(classify(&without).status, Status::Rejected);
    assert_eq!(without.exit_code, Some(1));
    assert!(
        without.stdout_text().contains("formula.smt2:4:"),
        "the error names the place: {}",
        without.stdout_text()
    );
    // Integers are not bitwuzla's: rejected, with an error line and exit 1, not a crash.
    let ints = bitwuzla(
        &s,
        &[],
        "(declare-const a Int)\n(assert (> a 0))\n(check-sat)\n",
    );
    assert_eq!(classify(&ints).status, Status::Rejected, "{ints:?}");
    assert_eq!(ints.exit_code, Some(1));
    assert!(ints.stdout_text().starts_with("(error \""), "{ints:?}");
    // An option bitwuzla does not know is an error, as in the program.
    let option = bitwuzla(&s, &["--no-such-option"], BV);
    assert_eq!(classify(&option).status, Status::Rejected);
    assert!(
        option.stdout_text().contains("--no-such-option"),
        "{option:?}"
    );
    // bitwuzla 0.9.1 dies of SIGSEGV on (get-model) after (reset): the answer printed
    // before is not lost in a buffer (the runner flushes after each command).
    let crash = bitwuzla(&s, &["-m"], &format!("{BV}(reset)\n(get-model)\n"));
    assert_eq!(crash.signal, Some(11), "{crash:?}");
    assert_eq!(classify(&crash).status, Status::Crash);
    assert_eq!(crash.stdout_text().lines().next(), Some("sat"), "{crash:?}");
}

#[test]
fn solvers_check_passes_with_a_model() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver(BITWUZLA)]);
    let o = s.run(&[
        "solvers",
        "check",
        "--timeout",
        "60",
        "--pool",
        pool.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let line = stdout(&o);
    assert!(
        line.starts_with(BITWUZLA) && line.contains(" model ") && !line.contains("FAIL"),
        "{line}"
    );
}

/// Whether an ET bitvectors formula uses its integer terms (`bv2nat`, `0`, `1`).
fn has_ints(formula: &str) -> bool {
    formula
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .any(|token| matches!(token, "bv2nat" | "0" | "1"))
}

#[test]
fn beside_z3_it_decides_bitvectors_and_fp_and_rejects_integers() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver(Z3), solver(BITWUZLA)]);
    let n = 200;
    for (grammar, least, with_ints) in [("bitvectors", 180, 16), ("fp", 190, 0)] {
        let out = s.join(grammar);
        let o = s.run(&[
            "run",
            "-g",
            grammar,
            "--n",
            &n.to_string(),
            "--pool",
            pool.to_str().unwrap(),
            "--timeout",
            "60",
            "-j",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let listed = s.run(&["enumerate", "-g", grammar, "--n", &n.to_string()]);
        let texts: Vec<String> = stdout(&listed).lines().map(str::to_string).collect();
        assert_eq!(texts.len(), n);
        let mine: Vec<_> = rows(&out)
            .into_iter()
            .filter(|r| r.solver == BITWUZLA)
            .collect();
        assert_eq!(mine.len(), n);
        let mut decided = 0;
        for r in &mine {
            let formula = &texts[r.index.parse::<usize>().unwrap()];
            // Rejected exactly where the formula has integers; never a crash.
            assert_eq!(
                r.status.label() == "rejected",
                has_ints(formula),
                "{formula}: {r:?}"
            );
            assert_ne!(r.status.label(), "crash", "{formula}: {r:?}");
            // It agrees with z3, and its models (asked for by default) are valid.
            assert_eq!(r.verdict, None, "{formula}: {r:?}");
            if r.status.label() == "sat" {
                assert_eq!(r.model_check, "valid", "{formula}: {r:?}");
            }
            decided += usize::from(r.status.label() == "sat" || r.status.label() == "unsat");
        }
        assert!(decided >= least, "{grammar}: {decided} of {n} decided");
        let rejected = mine
            .iter()
            .filter(|r| r.status.label() == "rejected")
            .count();
        assert_eq!(rejected, with_ints, "{grammar}");
    }
}
