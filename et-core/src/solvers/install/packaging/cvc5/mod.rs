//! cvc5: PyPI `cvc5` wheels from 1.0.9 on and Debian's `cvc5`. The wheels ship
//! libcvc5, not a program: et puts a driver in `bin/cvc5` ([`runner`]), and that
//! driver is also what lists a release's options.

mod runner;

use std::path::Path;

use super::Packaging;
use crate::solvers::family::{Cvc5, Family};
use crate::solvers::install::{
    python_runner_is, refresh_python_runner, wheel_install_dir, InstallError, Installer, WheelFiles,
};
use crate::version::{at_least, leading_numbers};

pub use runner::find_cvc5_runner;

impl Packaging for Cvc5 {
    fn family(&self) -> &'static dyn Family {
        &Cvc5
    }

    fn pypi_package(&self) -> Option<&'static str> {
        Some("cvc5")
    }

    fn wheel_release(&self, pip_version: &str) -> Option<String> {
        (leading_numbers(pip_version).len() == 3).then(|| pip_version.to_string())
    }

    fn unusable(&self, version: &str) -> Option<String> {
        (!at_least(version, Cvc5::OLDEST_USABLE)).then(|| {
            "cvc5 wheels before 1.0.9 cannot read SMT-LIB through their API (no input parser)"
                .to_string()
        })
    }

    fn unpack(&self, wheel: &WheelFiles<'_>) -> Result<(), InstallError> {
        if !Cvc5::has_c_api(wheel.version()) {
            // No C API: unpack the Python package and drive its InputParser.
            wheel.extract(&["cvc5/*", "cvc5.libs/*"])?;
            wheel.place(wheel.unpacked(), &wheel.stage().join("python"))?;
            return wheel.place_python_runner(self.program(), runner::PYTHON_RUNNER);
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
        if python_install(program) {
            return python_runner_is(program, runner::PYTHON_RUNNER);
        }
        !c_api_install(program) || runner::is_current(program)
    }

    fn driver(&self, program: &Path) -> Option<&'static str> {
        if c_api_install(program) {
            Some("et's runner over the C API of the wheel's libcvc5 (cvc5's own program reads the same command line)")
        } else if python_install(program) {
            Some("et's driver over the Python API of the wheel's cvc5 module (cvc5's own program reads the same command line)")
        } else {
            None
        }
    }

    fn refresh(&self, installer: &Installer, program: &Path) -> Result<(), InstallError> {
        if c_api_install(program) {
            runner::refresh(installer.cvc5_runner.as_deref(), program)?;
        } else if python_install(program) {
            refresh_python_runner(program, runner::PYTHON_RUNNER)?;
        }
        Ok(())
    }

    fn debian_package(&self) -> Option<&'static str> {
        Some("cvc5")
    }

    fn option_listing(
        &self,
        program: &Path,
        version: &str,
    ) -> Option<Result<Vec<Vec<String>>, String>> {
        Some(listing(program, version).map(|command| vec![command]))
    }
}

/// The command that lists the options of the cvc5 `program` of release `version`: et's
/// C-API driver does (`--et-list-options`); this build's driver is run over the
/// install's libraries, so an older copy in the install does too. Any other cvc5
/// program cannot.
fn listing(program: &Path, version: &str) -> Result<Vec<String>, String> {
    if python_install(program) {
        // Releases before 1.2.0: et's Python driver reads the Python API.
        return Ok(vec![
            program.display().to_string(),
            "--et-list-options".to_string(),
        ]);
    }
    if !c_api_install(program) {
        let _ = version;
        return Err(
            "only et's drivers list cvc5's options (this program is not one of them)".to_string(),
        );
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

/// Whether `program` is et's Python driver: an install et made from a wheel before
/// 1.2.0, with the wheel's package in `python/`.
fn python_install(program: &Path) -> bool {
    wheel_install_dir(program).is_some_and(|dir| dir.join("python").is_dir())
}

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

    /// A report says what et ran: its runner and the wheel, or cvc5's own program.
    #[test]
    fn a_runner_is_named_with_its_wheel_and_a_program_of_the_users_is_not() {
        use crate::solvers::SolverConfig;
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("lib")).unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        let wheel = "cvc5-1.4.2-cp311-cp311-manylinux2014_x86_64.whl";
        std::fs::write(dir.path().join("SOURCE"), format!("{wheel}\nby et\n")).unwrap();
        let program = dir.path().join("bin/cvc5");
        std::fs::write(&program, b"\x7fELF et-cvc5").unwrap();
        let solver = SolverConfig::new(
            "cvc5-1.4.2",
            "cvc5",
            "1.4.2",
            vec![program.display().to_string()],
        );
        let said = crate::solvers::install::driver_of(&solver).unwrap();
        assert!(said.contains("C API") && said.contains(wheel), "{said}");
        std::fs::remove_file(dir.path().join("SOURCE")).unwrap();
        assert_eq!(crate::solvers::install::driver_of(&solver), None);
    }

    #[test]
    fn releases_before_1_0_9_are_unusable() {
        assert_eq!(Cvc5.wheel_release("1.4.2").as_deref(), Some("1.4.2"));
        assert!(Cvc5.unusable("1.0.8").is_some());
        assert!(Cvc5.unusable("1.0.9").is_none());
    }
}
