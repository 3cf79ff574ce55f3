//! cvc5 (Stanford, Iowa): PyPI `cvc5` wheels and Debian's `cvc5`. The wheels ship
//! libcvc5, not a program: et puts a driver in `bin/cvc5` ([`runner`]). Same
//! self-checks as cvc4; judged by the newest z3 by default; `(get-model)` needs
//! `--produce-models`.

mod runner;

use std::path::Path;

use super::cvc4::{ANSWER_CHECKS, SELF_CHECKS, SESSION};
use super::{Family, SessionProtocol};
use crate::solvers::install::{wheel_install_dir, InstallError, Installer, WheelFiles};
use crate::solvers::options::catalog::OptionSpec;
use crate::solvers::options::{common_leave_out, Curated};
use crate::version::{at_least, leading_numbers};

pub use runner::find_cvc5_runner;

/// The cvc5 family.
#[derive(Debug, Clone, Copy)]
pub struct Cvc5;

/// Oldest wheel whose API can read SMT-LIB (an input parser).
const OLDEST_USABLE: &str = "1.0.9";

impl Family for Cvc5 {
    fn name(&self) -> &'static str {
        "cvc5"
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
        // Releases 1.0.9-1.1.x installed from wheels run et's Python driver, which
        // reads all of its input before answering: no session. Older releases are
        // binaries (Debian's 1.0.3), newer ones binaries or et's C-API runner, which
        // executes standard input as it arrives.
        let python_driver = !runner::has_c_api(version) && at_least(version, OLDEST_USABLE);
        (!python_driver).then_some(SESSION)
    }

    fn pypi_package(&self) -> Option<&'static str> {
        Some("cvc5")
    }

    fn wheel_release(&self, pip_version: &str) -> Option<String> {
        (leading_numbers(pip_version).len() == 3).then(|| pip_version.to_string())
    }

    fn unusable(&self, version: &str) -> Option<String> {
        (!at_least(version, OLDEST_USABLE)).then(|| {
            "cvc5 wheels before 1.0.9 cannot read SMT-LIB through their API (no input parser)"
                .to_string()
        })
    }

    fn unpack(&self, wheel: &WheelFiles<'_>) -> Result<(), InstallError> {
        if !runner::has_c_api(wheel.version()) {
            // No C API: unpack the Python package and drive its InputParser.
            wheel.extract(&["cvc5/*", "cvc5.libs/*"])?;
            wheel.place(wheel.unpacked(), &wheel.stage().join("python"))?;
            return runner::place_python_runner(&wheel.installer().python, &wheel.bin());
        }
        wheel.extract(&["cvc5.libs/*"])?;
        let libs = wheel.unpacked().join("cvc5.libs");
        if !libs.is_dir() {
            return Err(wheel.unusable("holds no cvc5.libs/"));
        }
        wheel.place(&libs, &wheel.stage().join("lib"))?;
        runner::place_c_api_runner(wheel.installer().cvc5_runner.as_deref(), &wheel.bin())
    }

    fn driver_is_current(&self, program: &Path) -> bool {
        !c_api_install(program) || runner::is_current(program)
    }

    fn refresh(&self, installer: &Installer, program: &Path) -> Result<(), InstallError> {
        if c_api_install(program) {
            runner::refresh(installer.cvc5_runner.as_deref(), program)?;
        }
        Ok(())
    }

    fn debian_package(&self) -> Option<&'static str> {
        Some("cvc5")
    }

    fn option_listing(&self, program: &str, version: &str) -> Result<Vec<String>, String> {
        // et's C-API driver lists them (`--et-list-options`); this build's driver is
        // run over the install's libraries, so an older copy in the install does too.
        let program = Path::new(program);
        if !c_api_install(program) {
            return Err(if runner::has_c_api(version) {
                "only et's C-API driver lists cvc5's options (this program is not one)"
            } else {
                "releases before 1.2.0 have no C API; et's Python driver does not list options"
            }
            .to_string());
        }
        let lib = wheel_install_dir(program)
            .map(|dir| dir.join("lib"))
            .ok_or("no lib/ beside the program")?;
        let driver = find_cvc5_runner().unwrap_or_else(|| program.to_path_buf());
        Ok(vec![
            driver.display().to_string(),
            format!("--et-lib-dir={}", lib.display()),
            "--et-list-options".to_string(),
        ])
    }

    fn leave_out(&self, option: &OptionSpec) -> Option<String> {
        if let Some(why) = common_leave_out(option) {
            return Some(why);
        }
        let name = option.name.as_str();
        LEFT_OUT_PREFIXES
            .iter()
            .find(|(p, _)| {
                let p = p.trim_end_matches('-');
                name == p
                    || name
                        .strip_prefix(p)
                        .is_some_and(|rest| rest.starts_with('-'))
            })
            .map(|(_, why)| why.to_string())
    }

    fn curated_configurations(&self) -> &'static [Curated] {
        CURATED
    }
}

/// The modes ET's campaigns ran cvc5 in besides its default.
const CURATED: &[Curated] = &[
    Curated {
        name: "eager-len-re",
        options: &[("strings-eager-len-re", "true")],
        description: "strings: eager length lemmas for regular expressions",
    },
    Curated {
        name: "lazy-pp",
        options: &[("strings-lazy-pp", "false")],
        description: "strings: eager instead of lazy preprocessing",
    },
    Curated {
        name: "nl-cov",
        options: &[("nl-cov", "true")],
        description: "nonlinear arithmetic: cylindrical algebraic coverings",
    },
    Curated {
        name: "nl-tplanes",
        options: &[("nl-ext-tplanes", "true")],
        description: "nonlinear arithmetic: tangent planes",
    },
];

/// Options (by name or prefix) kept in the catalog but not enumerated.
const LEFT_OUT_PREFIXES: &[(&str, &str)] = &[
    ("check-", "a self-check: the pool entry chooses them"),
    ("produce-", "output only (what the solver keeps to print)"),
    ("lang", "input language"),
    ("input-language", "input language"),
    ("output-lang", "output only"),
    ("incremental", "how input is read (et's sessions choose it)"),
    ("interactive", "how input is read"),
    ("parse-only", "does not solve"),
    ("preprocess-only", "does not solve"),
    ("filename", "files"),
    ("help", "output only"),
    ("version", "output only"),
    ("show-", "output only"),
    ("copyright", "output only"),
    ("err", "output only (a stream)"),
    ("in", "input stream"),
    ("out", "output only (a stream)"),
    ("diagnostic-output-channel", "output only (a stream)"),
    ("regular-output-channel", "output only (a stream)"),
    ("quiet", "output only"),
    ("cumulative-time", "a limit"),
    ("hard-limit", "a limit"),
    ("reproducible-resource-limits", "a limit"),
    ("early-exit", "process exit"),
    ("sygus", "other logics (SyGuS)"),
    ("abduct", "other problems (abduction)"),
    ("interpol", "other problems (interpolation)"),
    ("sep-", "other logics (separation logic)"),
    ("bags-", "other logics (bags)"),
    ("ff-", "other logics (finite fields)"),
    ("oracles", "other logics (oracles)"),
    ("global-declarations", "how input is read"),
    ("strict-parsing", "how input is read"),
    ("semantic-checks", "input checking"),
    ("type-checking", "input checking"),
    ("safe-mode", "restricts other options"),
    (
        "strings-exp",
        "the pool entry chooses it (extended string functions)",
    ),
];

/// Whether `program` is a copy of et's C-API runner: an install et made from a wheel
/// with the libraries in `lib/` (the Python driver's installs have `python/`).
fn c_api_install(program: &Path) -> bool {
    wheel_install_dir(program).is_some_and(|dir| dir.join("lib").is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runner_copy_without_the_session_mark_runs_fresh() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("lib")).unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        std::fs::write(dir.path().join("SOURCE"), "cvc5-1.4.2.whl\n").unwrap();
        let program = dir.path().join("bin/cvc5");
        std::fs::write(&program, b"\x7fELF an older et-cvc5").unwrap();
        assert!(!Cvc5.driver_is_current(&program));
        let mark = include_str!("session-mark.txt");
        std::fs::write(&program, format!("\x7fELF ... {mark} ...")).unwrap();
        assert!(Cvc5.driver_is_current(&program));
        // A cvc5 of the user's or the system's (not an install et made: `/usr/bin/cvc5`
        // has a `lib/` beside its `bin/` too) is not et's driver.
        std::fs::remove_file(dir.path().join("SOURCE")).unwrap();
        std::fs::write(&program, b"\x7fELF cvc5").unwrap();
        assert!(Cvc5.driver_is_current(&program));
    }

    #[test]
    fn releases_before_1_0_9_are_unusable() {
        assert_eq!(Cvc5.wheel_release("1.4.2").as_deref(), Some("1.4.2"));
        assert!(Cvc5.unusable("1.0.8").is_some());
        assert!(Cvc5.unusable("1.0.9").is_none());
    }
}
