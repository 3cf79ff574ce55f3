//! Bitwuzla (Stanford, JKU Linz): bit-vectors, floating point, arrays and
//! uninterpreted functions (no integers, reals or strings: a formula with them is
//! rejected with an `(error ...)`). Its program takes `-m`/`--produce-models` for
//! models (et's driver over the wheel's Python bindings takes the same command line,
//! `crate::solvers::install::packaging`). Judged like any family without a reference
//! of its own; needs no `(set-logic ...)`.

use super::catalog::{leave_out_by, OptionSpec, Theory};
use super::{Echo, Family, SessionProtocol};

/// The bitwuzla family.
#[derive(Debug, Clone, Copy)]
pub struct Bitwuzla;

impl Family for Bitwuzla {
    fn name(&self) -> &'static str {
        "bitwuzla"
    }

    fn lacks(&self, needs: &[Theory]) -> Option<String> {
        let takes = [
            Theory::BitVectors,
            Theory::Floats,
            Theory::Arrays,
            Theory::Quantifiers,
        ];
        super::missing_theories(needs, &takes)
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

    fn leave_out(&self, option: &OptionSpec) -> Option<String> {
        leave_out_by(option, LEFT_OUT_PREFIXES, |name, prefix| {
            name.starts_with(prefix)
        })
    }
}

/// Bitwuzla options kept in the catalog and not enumerated, by the start of their
/// names, beyond et's common rule.
const LEFT_OUT_PREFIXES: &[(&str, &str)] = &[
    ("produce-", "et decides what the solver produces (models)"),
    (
        "interpolants-",
        "interpolation only (et asks for no interpolants)",
    ),
    ("check-", "a self-check (et checks answers itself)"),
    ("dbg-", "debugging"),
    ("write-", "files"),
    ("time-limit", "a limit"),
    ("nthreads", "threads (nondeterministic)"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::family::catalog::OptionKind;

    #[test]
    fn what_et_decides_and_debugging_are_left_out() {
        let option = |name: &str| OptionSpec::new(name, OptionKind::Bool, Some("false"));
        for left in [
            "produce-models",
            "check-model",
            "dbg-rw-node-thresh",
            "time-limit-per",
            "interpolants-simp",
            "seed",
            "log-level",
        ] {
            assert!(Bitwuzla.leave_out(&option(left)).is_some(), "{left}");
        }
        for kept in [
            "bv-solver",
            "abstraction",
            "pp-elim-bvudiv",
            "rewrite-level",
        ] {
            assert!(Bitwuzla.leave_out(&option(kept)).is_none(), "{kept}");
        }
    }
}
