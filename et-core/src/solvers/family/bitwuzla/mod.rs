//! Bitwuzla (Stanford, JKU Linz): bit-vectors, floating point, arrays and
//! uninterpreted functions (no integers, reals or strings: a formula with them is
//! rejected with an `(error ...)`). Its PyPI wheels (`bitwuzla`, 0.9.0 on) hold the
//! Python bindings, not the program; their `Parser` reads SMT-LIB and prints answers
//! as the program does, so et installs the wheel's module in `python/` and its own
//! driver, `python_runner.py`, as `bin/bitwuzla` (the command line of the program:
//! `-m`/`--produce-models` for models). Judged like any family without a reference of
//! its own; needs no `(set-logic ...)`.

use std::path::Path;

use super::{Echo, Family, SessionProtocol};
use crate::solvers::install::{
    python_runner_is, refresh_python_runner, wheel_install_dir, InstallError, Installer, WheelFiles,
};

/// The driver installed as `bin/bitwuzla`.
const PYTHON_RUNNER: &str = include_str!("python_runner.py");

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

    fn pypi_package(&self) -> Option<&'static str> {
        Some("bitwuzla")
    }

    fn unpack(&self, wheel: &WheelFiles<'_>) -> Result<(), InstallError> {
        // The compiled module (`bitwuzla.cpython-*.so`) and, should a release vendor
        // libraries the manylinux way, `bitwuzla.libs/`.
        wheel.extract(&["bitwuzla.*.so", "bitwuzla.libs/*"])?;
        let module = std::fs::read_dir(wheel.unpacked())
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".so"));
        if !module {
            return Err(wheel.unusable("holds no bitwuzla.*.so module"));
        }
        wheel.place(wheel.unpacked(), &wheel.stage().join("python"))?;
        wheel.place_python_runner(self.program(), PYTHON_RUNNER)
    }

    fn driver_is_current(&self, program: &Path) -> bool {
        !wheel_install(program) || python_runner_is(program, PYTHON_RUNNER)
    }

    fn refresh(&self, installer: &Installer, program: &Path) -> Result<(), InstallError> {
        let _ = installer;
        if wheel_install(program) {
            refresh_python_runner(program, PYTHON_RUNNER)?;
        }
        Ok(())
    }
}

/// Whether `program` is et's driver in an install from a wheel (the wheel's module
/// in `python/`), not a bitwuzla program of the user's.
fn wheel_install(program: &Path) -> bool {
    wheel_install_dir(program).is_some_and(|dir| dir.join("python").is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::family::{session_of, stale_driver};
    use crate::solvers::SolverConfig;

    #[test]
    fn an_older_driver_runs_fresh_until_refreshed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("python")).unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        std::fs::write(dir.path().join("SOURCE"), "bitwuzla-0.9.1.whl\n").unwrap();
        let program = dir.path().join("bin/bitwuzla");
        std::fs::write(
            &program,
            "#!/usr/bin/python3 -SE\nprint('an older driver')\n",
        )
        .unwrap();
        let solver = SolverConfig::new(
            "bitwuzla-0.9.1",
            "bitwuzla",
            "0.9.1",
            vec![program.display().to_string()],
        );
        assert!(stale_driver(&solver));
        assert!(session_of(&solver).is_none());
        std::fs::write(&program, format!("#!/usr/bin/python3 -SE\n{PYTHON_RUNNER}")).unwrap();
        assert!(!stale_driver(&solver));
        assert!(session_of(&solver).is_some());
    }
}
