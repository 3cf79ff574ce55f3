//! cvc4 (Stanford, Iowa): only Debian's 1.8 binary (no wheels with a program). Same
//! self-checks as cvc5; judged by the newest z3 by default.

use super::Family;

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

impl Family for Cvc4 {
    fn name(&self) -> &'static str {
        "cvc4"
    }

    fn self_check_options(&self) -> &'static [&'static str] {
        SELF_CHECKS
    }

    fn reference_families(&self) -> &'static [&'static str] {
        &["z3"]
    }

    fn model_options(&self) -> Option<&'static [&'static str]> {
        Some(&["--produce-models"])
    }

    fn debian_package(&self) -> Option<&'static str> {
        Some("cvc4")
    }
}
