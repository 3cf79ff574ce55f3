//! cvc5 (Stanford, Iowa): PyPI `cvc5` wheels and Debian's `cvc5`. The wheels ship
//! libcvc5, not a program: et puts a driver in `bin/cvc5` ([`runner`]). Same
//! self-checks as cvc4; judged by the newest z3 by default; `(get-model)` needs
//! `--produce-models`.

mod runner;

use std::path::Path;

use super::cvc4::{SELF_CHECKS, SESSION};
use super::{Family, SessionProtocol};
use crate::solvers::install::{InstallError, Installer, WheelFiles};
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

    fn reference_families(&self) -> &'static [&'static str] {
        &["z3"]
    }

    fn model_options(&self) -> Option<&'static [&'static str]> {
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

    fn refresh(&self, installer: &Installer, program: &Path) -> Result<(), InstallError> {
        // Only installs with the C-API runner have `lib/` (and a copy of et's program).
        let c_api = program
            .parent()
            .and_then(Path::parent)
            .is_some_and(|dir| dir.join("lib").is_dir());
        if c_api {
            runner::refresh(installer.cvc5_runner.as_deref(), program)?;
        }
        Ok(())
    }

    fn debian_package(&self) -> Option<&'static str> {
        Some("cvc5")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_before_1_0_9_are_unusable() {
        assert_eq!(Cvc5.wheel_release("1.4.2").as_deref(), Some("1.4.2"));
        assert!(Cvc5.unusable("1.0.8").is_some());
        assert!(Cvc5.unusable("1.0.9").is_none());
    }
}
