//! Every trigger file `et run` writes is valid input to the commands that take a
//! formula (`et shrink`, `et bisect`, `et rank`, `et eval`), and a re-run is judged as
//! the campaign judged it: et's model check and witness included, with or without a
//! reference solver.

mod common;

use std::path::{Path, PathBuf};

use common::{fake, show, solver, stdout, Scratch};

/// The trigger files (`.smt2`) under `dir/bugs/<verdict>/`, in name order.
fn triggers(dir: &Path, verdict: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("bugs").join(verdict))
        .unwrap_or_else(|e| panic!("{}: no {verdict} triggers: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt2"))
        .collect();
    files.sort();
    files
}

/// The size `et rank` gives the formula of `file` in `grammar`.
fn size(s: &Scratch, grammar: &str, file: &Path) -> u32 {
    let o = s
        .et()
        .args(["rank", "-g", grammar])
        .arg(file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let line = stdout(&o);
    let (_, size) = line.trim().split_once('\t').expect("index<TAB>size");
    size.parse().unwrap()
}

#[test]
fn a_self_check_trigger_written_with_models_on_is_shrunk() {
    let s = Scratch::new();
    // Strings formula 148: z3 4.8.7's model validation fails on it, on a model et's
    // evaluation finds valid (a validator false alarm).
    let solvers = [solver("z3-4.8.7"), solver("z3-4.16.0")];
    let out = s.campaign(
        "strings",
        "1",
        &solvers,
        "r",
        &["--start", "148", "--timeout", "30", "-q"],
    );
    let pool = s.join("pool.toml");
    let pool = pool.to_str().unwrap();
    let [trigger] = &triggers(&out, "validator_false_alarm")[..] else {
        panic!("one validator-false-alarm trigger expected");
    };
    let script = std::fs::read_to_string(trigger).unwrap();
    assert!(script.trim_end().ends_with("(get-model)"), "{script}");
    assert!(size(&s, "strings", trigger) > 0);
    let o = s
        .et()
        .arg("shrink")
        .arg(trigger)
        .args([
            "-g",
            "strings",
            "--solver",
            "z3-4.8.7",
            "--keep",
            "validator_false_alarm",
        ])
        .args(["--pool", pool, "--timeout", "30", "-j", "2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let shrunk = s.join("shrunk.smt2");
    std::fs::write(&shrunk, stdout(&o)).unwrap();
    assert!(size(&s, "strings", &shrunk) <= size(&s, "strings", trigger));
    // bisect reads the same file.
    let o = s
        .et()
        .arg("bisect")
        .arg(trigger)
        .args([
            "--family",
            "z3",
            "--expect",
            "sat",
            "--pool",
            pool,
            "--timeout",
            "30",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    assert!(stdout(&o).contains("first bad: 4.8.7"), "{}", show(&o));
}

#[test]
fn a_witness_unsound_trigger_of_a_pool_of_one_is_shrunk_and_keeps_a_witness() {
    let s = Scratch::new();
    // A liar alone: nothing but et's witnesses can judge it.
    let liar = fake("liar", "always-unsat.sh", &[]);
    let out = s.campaign("ints", "60", &[liar], "r", &["--timeout", "30", "-q"]);
    let pool = s.join("pool.toml");
    let pool = pool.to_str().unwrap();
    let found = triggers(&out, "unsound");
    let trigger = found
        .iter()
        .max_by_key(|t| size(&s, "ints", t))
        .expect("witness-established unsound triggers");
    let before = size(&s, "ints", trigger);
    let o = s
        .et()
        .arg("shrink")
        .arg(trigger)
        .args(["-g", "ints", "--solver", "liar", "--keep", "unsound"])
        .args(["--pool", pool, "--timeout", "30", "-j", "2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let shrunk = s.join("shrunk.smt2");
    std::fs::write(&shrunk, stdout(&o)).unwrap();
    assert!(size(&s, "ints", &shrunk) <= before);
    // The result still has a witness (et eval --witness exits 0 when it finds one).
    let o = s
        .et()
        .args(["eval", "--witness"])
        .arg(&shrunk)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    // Without the witness search nothing can judge the liar: a clear refusal.
    let o = s
        .et()
        .arg("shrink")
        .arg(trigger)
        .args([
            "-g",
            "ints",
            "--solver",
            "liar",
            "--keep",
            "unsound",
            "--no-witness",
        ])
        .args(["--pool", pool])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        common::stderr(&o).contains("needs a reference solver"),
        "{}",
        show(&o)
    );
}

#[test]
fn a_formula_that_does_not_show_the_verdict_is_refused_quoting_the_calls_that_decided() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    // A judge that answers `unsat` on the first call of a formula with `mod` and z3's
    // answer on the next: the second call answers otherwise than the first.
    let flaky = fake("flaky", "flaky.sh", &[z3.program(), "mod"]);
    let pool = s.pool_file("pool.toml", &[z3.clone(), flaky]);
    let calls = s.join("flaky-calls");
    std::fs::create_dir(&calls).unwrap();
    let formula = s.join("f.smt2");
    // Satisfiable: z3's `sat` and its model (checked valid by et) stand against the
    // judge's `unsat`, so no `unsound` shows.
    std::fs::write(
        &formula,
        "(declare-const a Int) (declare-const b Int) (assert (= (mod a 1) b)) (check-sat)\n",
    )
    .unwrap();
    let o = s
        .et()
        .arg("shrink")
        .arg(&formula)
        .args(["-g", "ints", "--solver", &z3.name, "--keep", "unsound"])
        .args(["--reference", "flaky", "--no-witness", "--timeout", "30"])
        .arg("--pool")
        .arg(&pool)
        .env("ET_TEST_FLAKY_DIR", &calls)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = common::stderr(&o);
    // The judge's answer in the check that decided, not that of a call made after it.
    assert!(
        err.contains("it answers sat; the judge flaky answers unsat"),
        "{}",
        show(&o)
    );
}
