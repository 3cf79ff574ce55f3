//! The built-in grammars live in the binary (issue 3): `et` finds them from any
//! directory, and a `.pest` file given by path still goes through the interpreted path.

use std::path::Path;
use std::process::Command;

fn et_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_et"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("et runs")
}

#[test]
fn builtins_need_no_grammars_directory() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-grammars-here");
    std::fs::create_dir_all(&dir).unwrap();
    assert!(!dir.join("grammars").exists());
    let o = et_in(&dir, &["enumerate", "--grammar", "strings", "--n", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let first = out.lines().next().unwrap();
    assert_eq!(
        first,
        r#"(declare-const a String) (declare-const b String) (assert (= "" "")) (check-sat)"#
    );
    assert_eq!(out.lines().count(), 3);
    let o = et_in(&dir, &["grammars"]);
    assert!(o.status.success());
    let listing = String::from_utf8(o.stdout).unwrap();
    // A header, ET's eight grammars, their eight five-variable, two-assert extensions,
    // the thirteen past ET's and theirs, and the seven of scripts.
    assert_eq!(listing.lines().count(), 50, "{listing}");
    assert!(listing.lines().any(|l| l.starts_with("ints-5v2a ")
        && l.contains("`ints` extended to 5 variables and up to 2 asserts")));
    assert!(listing
        .lines()
        .any(|l| l.starts_with("scripts-ints ") && l.contains("scopes, check-sat-assuming")));
}

#[test]
fn a_grammar_file_is_still_interpreted_with_the_compile_time_sentence() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui");
    let o = et_in(
        &ui,
        &["enumerate", "--grammar", "zero_cost_cycle.pest", "--n", "1"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    // The same sentence `#[derive(Grammar)]` reports (tests/ui/zero_cost_cycle.stderr).
    let expected = std::fs::read_to_string(ui.join("zero_cost_cycle.stderr")).unwrap();
    let sentence = expected
        .lines()
        .next()
        .unwrap()
        .strip_prefix("error: ui/")
        .unwrap();
    assert!(err.contains(sentence), "{err}");
}
