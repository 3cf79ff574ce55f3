//! yices 2 (SRI), whose SMT-LIB 2 program is `yices-smt2`. yices-smt2 knows no theory until `(set-logic ...)`, so every script gets the grammar's logic
//! first; `ALL` when the grammar declares none, which in yices covers everything but
//! nonlinear arithmetic (that needs a `QF_N*` logic, i.e. MCSat).

use et_eval::ModelDialect;

use super::{Echo, Family, SessionProtocol};

/// The yices family.
#[derive(Debug, Clone, Copy)]
pub struct Yices;

impl Family for Yices {
    fn name(&self) -> &'static str {
        "yices"
    }

    fn model_options(&self, version: &str) -> Option<&'static [&'static str]> {
        // Models as `define-fun`s like the other families, not yices' `(= a 2)`: an
        // option up to 2.6, the default from 2.7 on (whose yices-smt2 refuses the
        // option: measured on the development head, 2.7.0).
        if crate::version::at_least(version, "2.7.0") {
            Some(&[])
        } else {
            Some(&["--smt2-model-format"])
        }
    }

    fn model_dialect(&self, version: &str) -> ModelDialect {
        let _ = version;
        // yices prints rounded decimals for algebraic numbers, not exact values.
        ModelDialect {
            approximate_decimals: true,
            ..ModelDialect::default()
        }
    }

    fn prelude(&self, logic: Option<&str>) -> Option<String> {
        Some(format!("(set-logic {})", logic.unwrap_or("ALL")))
    }

    fn session(&self, version: &str) -> Option<SessionProtocol> {
        // Plain yices-smt2 reads standard input command by command and accepts
        // `(reset)` with the same answers as fresh (ints ~20x faster, bitvectors
        // 1.2x). Not `--incremental`: it changes answers (non-linear terms and
        // division by zero become errors). Each script brings its own
        // `(set-logic ...)` (the prelude), which a reset requires again; the echo
        // comes back bare; an error ends the process with exit 0.
        let _ = version;
        Some(SessionProtocol {
            options: &[],
            reset: "(reset)",
            restore: &[],
            echo: Echo::Bare,
            ends_on_error: true,
            model_dump: None,
        })
    }
}
