//! Grammar errors that point at the fix, through the `et` binary: a missing `~` is
//! reported at the second item, an unclosed `{` where it opens, an undefined rule with
//! the defined rule it most likely means. Each is one `et: error: FILE:LINE:COL: ...`
//! line, and et exits 2 before printing anything.

mod common;

use common::{stderr, stdout, Scratch};

const MISSING_TILDE: &str = "//! A missing `~`.
start = { \"(\" \"assert\" ~ b ~ \")\" ~ \"(check-sat)\" }
b = { \"true\" | \"false\" }
";

/// The `{` of `start`, line 11, is never closed; pest notices at the end of the file.
const UNCLOSED_BRACE: &str = "//! An unclosed `{`.
//!
//! Nine lines of documentation and rules come before the rule whose `{` is never
//! closed, so that it is on line 11 and the file ends on line 13.

b = { \"true\" | \"false\" }

c = { \"(\" ~ \"not\" ~ b ~ \")\" }

// The start rule:
start = { \"(\" ~ \"assert\" ~ c ~ \")\" ~ \"(check-sat)\"

";

const MISSPELLED_RULE: &str = "//! A misspelled rule name.
start = { \"(\" ~ \"assert\" ~ \"(\" ~ \"=\" ~ int_trem ~ \"0\" ~ \")\" ~ \")\" ~ \"(check-sat)\" }
int_term = { \"0\" | \"1\" | \"(\" ~ \"+\" ~ int_term ~ int_term ~ \")\" }
";

#[test]
fn grammar_errors_point_at_the_fix() {
    let s = Scratch::new();
    for (name, text, line, column, hint) in [
        (
            "missing_tilde.pest",
            MISSING_TILDE,
            2,
            15,
            "expected `~` between two items of a sequence",
        ),
        (
            "unclosed_brace.pest",
            UNCLOSED_BRACE,
            11,
            9,
            "`{` is never closed",
        ),
        (
            "misspelled_rule.pest",
            MISSPELLED_RULE,
            2,
            40,
            "did you mean `int_term`?",
        ),
    ] {
        let file = s.join(name);
        std::fs::write(&file, text).unwrap();
        let o = s.et().args(["count", "-g"]).arg(&file).output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(stdout(&o), "", "{name}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        let at = format!("et: error: {}:{line}:{column}: ", file.display());
        assert!(err.starts_with(&at), "{name}: expected {at:?} in {err}");
        assert!(err.contains(hint), "{name}: expected {hint:?} in {err}");
    }
}
