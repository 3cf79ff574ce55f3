//! A grammar that would make every call wrong is refused when it is loaded — formulas
//! that can lack `(check-sat)` (et's own `(get-model)` would fail), string literals
//! outside printable ASCII (solvers read them differently) — by `et grammar check` and
//! by `et run` before it writes anything; `et grammar check` also warns, from the
//! formulas, about operators outside the declared logic and Ints used as Reals.

mod common;

use common::{solver, stderr, stdout, Scratch};

const NO_CHECK_SAT: &str = "//! nocheck: asserts, never checks.
//! logic: QF_LIA
start = { decl ~ assert }
decl = { \"(\" ~ \"declare-const\" ~ \"a\" ~ \"Int\" ~ \")\" }
assert = { \"(\" ~ \"assert\" ~ \"(\" ~ \">\" ~ \"a\" ~ \"0\" ~ \")\" ~ \")\" }
";

const ACCENT: &str = "//! accent: a string literal with a character outside ASCII.
//! logic: QF_SLIA
start = { decl ~ assert ~ \"(check-sat)\" }
decl = { \"(declare-const s String)\" }
assert = { \"(assert (= s \" ~ \"\\\"é\\\"\" ~ \"))\" }
";

/// Every line of a refusal starts `et: error:`, and nothing panicked.
fn errors_only(err: &str) {
    assert!(!err.contains("panicked"), "{err}");
    for line in err.lines() {
        assert!(line.starts_with("et: error: "), "{err}");
    }
}

#[test]
fn check_refuses_formulas_without_check_sat_at_the_rule() {
    let s = Scratch::new();
    let file = s.join("nocheck.pest");
    std::fs::write(&file, NO_CHECK_SAT).unwrap();
    let o = s
        .et()
        .args(["grammar", "check"])
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    errors_only(&err);
    assert!(
        err.contains(&format!(
            "{}:3:1: formulas of rule `start` can lack a `check-sat` command, e.g. \
             `(declare-const a Int) (assert (> a 0))`",
            file.display()
        )),
        "{err}"
    );
    assert_eq!(stdout(&o), "");
}

#[test]
fn check_refuses_non_ascii_string_literals_with_the_escape() {
    let s = Scratch::new();
    let file = s.join("accent.pest");
    std::fs::write(&file, ACCENT).unwrap();
    let o = s
        .et()
        .args(["grammar", "check"])
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    errors_only(&err);
    assert!(
        err.contains(&format!(
            "{}:5:30: rule `assert` has a string literal holding characters outside \
             printable ASCII",
            file.display()
        )) && err.contains("write `\\u{e9}` for `é`"),
        "{err}"
    );
}

#[test]
fn run_refuses_both_grammars_before_creating_its_directory() {
    let s = Scratch::new();
    let pool = s.pool_file("pool.toml", &[solver("z3-4.16.0")]);
    for (name, text, needle) in [
        (
            "nocheck.pest",
            NO_CHECK_SAT,
            "nocheck.pest:3:1: formulas of rule `start` can lack",
        ),
        ("accent.pest", ACCENT, "accent.pest:5:30: rule `assert`"),
    ] {
        let file = s.join(name);
        std::fs::write(&file, text).unwrap();
        let out = s.join("never");
        let o = s
            .et()
            .args(["run", "--n", "3", "--timeout", "5", "--grammar"])
            .arg(&file)
            .arg("--pool")
            .arg(&pool)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(needle), "{name}: {err}");
        errors_only(&err);
        assert!(!out.exists(), "{name}: nothing written");
    }
}

#[test]
fn check_warns_about_realints_by_design_and_succeeds() {
    let s = Scratch::new();
    let o = s
        .et()
        .args(["grammar", "check", "realints"])
        .output()
        .unwrap();
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "grammar\trealints\t<builtin:realints>");
    assert_eq!(lines[1], "logic\tQF_NIRA");
    assert_eq!(lines[2], "size\tformulas\tcumulative");
    // The published part sizes, up to the size where the count passes 10^4.
    assert_eq!(
        lines[3..6],
        ["5\t68\t68", "6\t2158\t2226", "7\t98540\t100766"]
    );
    assert!(lines[6].starts_with("checked\t10000 formulas\t"), "{out}");
    for line in err.lines() {
        assert!(line.starts_with("et: warning: <builtin:realints>"), "{err}");
    }
    let sin: Vec<&str> = err.lines().filter(|l| l.contains("`sin`")).collect();
    assert_eq!(sin.len(), 2, "{err}");
    assert!(
        sin.iter().any(|l| l.starts_with(
            "et: warning: <builtin:realints>:47:1: rule `real_term`: operator `sin` is \
             transcendental"
        )),
        "{err}"
    );
    assert!(
        sin.iter()
            .any(|l| l.contains("operator `sin` gets an Int where it wants a Real")),
        "{err}"
    );
    // The formula a warning names is the first that shows it.
    let first: String = sin[0]
        .split("first in formula ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string();
    let formula = stdout(
        &s.et()
            .args(["index", "-g", "realints", &first])
            .output()
            .unwrap(),
    );
    assert!(formula.contains("(sin "), "{formula}");
}

#[test]
fn check_warns_about_operators_outside_a_files_logic() {
    let s = Scratch::new();
    let file = s.join("lia.pest");
    std::fs::write(
        &file,
        "//! lia: claims linear integers, divides reals.
//! logic: QF_LIA
start = { decl ~ assert ~ \"(check-sat)\" }
decl = { \"(declare-const x Real)\" }
assert = { \"(\" ~ \"assert\" ~ bool_term ~ \")\" }
bool_term = { \"(\" ~ \"<\" ~ real_term ~ real_term ~ \")\" }
real_term = { \"x\" | \"1.0\" | \"(\" ~ \"/\" ~ real_term ~ real_term ~ \")\" }
",
    )
    .unwrap();
    let o = s
        .et()
        .args(["grammar", "check", "--formulas", "100"])
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        stdout(&o).contains("checked\t100 formulas\t"),
        "{}",
        stdout(&o)
    );
    assert!(
        err.contains(&format!(
            "et: warning: {}:7:1: rule `real_term`: operator `/` needs reals, which logic \
             QF_LIA does not have; first in formula ",
            file.display()
        )),
        "{err}"
    );
}

#[test]
fn eval_refuses_a_non_ascii_string_literal_with_its_position() {
    let s = Scratch::new();
    let file = s.join("f.smt2");
    std::fs::write(
        &file,
        "(declare-const s String)\n(assert (= s \"café\"))\n(check-sat)\n",
    )
    .unwrap();
    let o = s
        .et()
        .args(["eval", "--witness"])
        .arg(&file)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{}:2:18: string literal holds 'é'",
            file.display()
        )) && err.contains("write \\u{e9}"),
        "{err}"
    );
}
