//! Bitwuzla (Stanford, JKU Linz): bit-vectors, floating point, arrays and
//! uninterpreted functions (no integers, reals or strings: a formula with them is
//! rejected with an `(error ...)`). Its program takes `-m`/`--produce-models` for
//! models (et's driver over the wheel's Python bindings takes the same command line,
//! `crate::solvers::install::packaging`). Judged like any family without a reference
//! of its own; needs no `(set-logic ...)`.

use super::{Echo, Family, SessionProtocol};

/// The bitwuzla family.
#[derive(Debug, Clone, Copy)]
pub struct Bitwuzla;

impl Family for Bitwuzla {
    fn name(&self) -> &'static str {
        "bitwuzla"
    }

    fn model_options(&self, _version: &str) -> Option<&'static [&'static str]> {
        // Without it, `(get-model)` is an error ("model generation is not enabled").
        Some(&["--produce-models"])
    }

    fn session(&self, version: &str) -> Option<SessionProtocol> {
        // et's driver executes standard input as it arrives and serves `(reset)` with a
        // new parser (bitwuzla 0.9.1's own reset leaves `(get-model)` to crash): one
        // process per session instead of a Python start-up per formula (measured on
        // bitvectors: 0.3 ms a formula against 26 ms fresh). Echoes come back quoted;
        // an error ends the driver, as it ends the program.
        let _ = version;
        Some(SessionProtocol {
            options: &[],
            reset: "(reset)",
            restore: &[],
            echo: Echo::Quoted,
            ends_on_error: true,
            model_dump: None,
        })
    }
}
