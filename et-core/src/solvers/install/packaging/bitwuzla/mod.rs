//! Bitwuzla: its PyPI wheels (`bitwuzla`, 0.9.0 on) hold the Python bindings, not the
//! program; their `Parser` reads SMT-LIB and prints answers as the program does, so et
//! installs the wheel's module in `python/` and its own driver, `python_runner.py`, as
//! `bin/bitwuzla` (the command line of the program: `-m`/`--produce-models` for
//! models).

use std::path::Path;

use super::Packaging;
use crate::solvers::family::{Bitwuzla, Family};
use crate::solvers::install::{
    python_runner_is, refresh_python_runner, wheel_install_dir, InstallError, Installer, WheelFiles,
};

/// The driver installed as `bin/bitwuzla`.
const PYTHON_RUNNER: &str = include_str!("python_runner.py");

impl Packaging for Bitwuzla {
    fn family(&self) -> &'static dyn Family {
        &Bitwuzla
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

    fn driver(&self, program: &Path) -> Option<&'static str> {
        wheel_install(program).then_some(
            "et's driver over the Python bindings of the wheel's bitwuzla module (bitwuzla's own program reads the same input)",
        )
    }

    fn refresh(&self, installer: &Installer, program: &Path) -> Result<(), InstallError> {
        let _ = installer;
        if wheel_install(program) {
            refresh_python_runner(program, PYTHON_RUNNER)?;
        }
        Ok(())
    }

    fn option_listing(
        &self,
        program: &Path,
        version: &str,
    ) -> Option<Result<Vec<Vec<String>>, String>> {
        let _ = version;
        // The wheel's Python API knows every option; et's driver prints them.
        Some(if wheel_install(program) {
            Ok(vec![vec![
                program.display().to_string(),
                "--et-list-options".to_string(),
            ]])
        } else {
            Err("only et's driver over the wheel lists bitwuzla's options (this program is not one)".to_string())
        })
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
    use crate::solvers::install::packaging::{session_of, stale_driver};
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
