//! cvc4 (Stanford, Iowa), whose last release is 1.8. Same self-checks as cvc5; judged
//! by the newest z3 by default.

use super::{Echo, Family, SessionProtocol};

/// The cvc4 family.
#[derive(Debug, Clone, Copy)]
pub struct Cvc4;

/// The self-checks of cvc4 and cvc5: models and unsat cores, the full string solver
/// (as ET ran them), quietly.
pub const SELF_CHECKS: &[&str] = &[
    "--check-models",
    "--check-unsat-cores",
    "--strings-exp",
    "-q",
];

/// The options of [`SELF_CHECKS`] that check answers (`--strings-exp` changes what
/// the solver does, `-q` what it prints).
pub const ANSWER_CHECKS: &[&str] = &["--check-models", "--check-unsat-cores"];

/// The sessions of cvc4 and cvc5 binaries (and of et's cvc5 C-API runner):
/// `--incremental` makes them read standard input command by command and allows
/// `(reset)`; `--interactive` is not it (after a reset it refuses declarations until a
/// new `(set-logic ...)`). `--lang=smt2` because standard input has no file extension.
/// Measured on cvc4 1.8 and cvc5 1.0.3: same answers as fresh, 4-8x faster; the echo
/// comes back quoted; an error ends the process. `--produce-models` is given again
/// after each reset: a reset that clears options (et-cvc5 copies older than its
/// `(reset)` fix did) would otherwise turn `(get-model)` into an error.
/// `--dump-models` prints the model after each `sat` (and incomplete `unknown`) answer,
/// exactly as `(get-model)` prints it (cvc4 1.8, cvc5 1.0.3, et-cvc5); it survives
/// `(reset)`: a session asking for models gets its answer and model in one exchange.
pub const SESSION: SessionProtocol = SessionProtocol {
    options: &["--incremental", "--lang=smt2"],
    reset: "(reset)",
    restore: &[("--produce-models", "(set-option :produce-models true)")],
    echo: Echo::Quoted,
    ends_on_error: true,
    model_dump: Some(("--produce-models", "--dump-models")),
};

impl Family for Cvc4 {
    fn name(&self) -> &'static str {
        "cvc4"
    }

    fn self_check_options(&self) -> &'static [&'static str] {
        SELF_CHECKS
    }

    fn answer_checks(&self) -> &'static [&'static str] {
        ANSWER_CHECKS
    }

    fn reference_families(&self) -> &'static [&'static str] {
        &["z3"]
    }

    fn model_options(&self, _version: &str) -> Option<&'static [&'static str]> {
        Some(&["--produce-models"])
    }

    fn session(&self, version: &str) -> Option<SessionProtocol> {
        let _ = version;
        Some(SESSION)
    }
}
