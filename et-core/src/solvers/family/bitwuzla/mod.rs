//! Bitwuzla (Stanford, JKU Linz): bit-vectors, floating point, arrays and
//! uninterpreted functions (no integers, reals or strings: a formula with them is
//! rejected with an `(error ...)`). Its PyPI wheels (`bitwuzla`, 0.9.0 on) hold the
//! Python bindings, not the program; their `Parser` reads SMT-LIB and prints answers
//! as the program does, so et installs the wheel's module in `python/` and its own
//! driver, `python_runner.py`, as `bin/bitwuzla` (the command line of the program:
//! `-m`/`--produce-models` for models). Judged like any family without a reference of
//! its own; needs no `(set-logic ...)`.

use std::path::Path;

use super::Family;
use crate::solvers::install::{refresh_python_runner, InstallError, Installer, WheelFiles};

/// The driver installed as `bin/bitwuzla`.
const PYTHON_RUNNER: &str = include_str!("python_runner.py");

/// The bitwuzla family.
#[derive(Debug, Clone, Copy)]
pub struct Bitwuzla;

impl Family for Bitwuzla {
    fn name(&self) -> &'static str {
        "bitwuzla"
    }

    fn model_options(&self) -> Option<&'static [&'static str]> {
        // Without it, `(get-model)` is an error ("model generation is not enabled").
        Some(&["--produce-models"])
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

    fn refresh(&self, installer: &Installer, program: &Path) -> Result<(), InstallError> {
        let _ = installer;
        // Only et's installs (the wheel's module beside `bin/`) run et's driver.
        let wheel_install = program
            .parent()
            .and_then(Path::parent)
            .is_some_and(|dir| dir.join("python").is_dir());
        if wheel_install {
            refresh_python_runner(program, PYTHON_RUNNER)?;
        }
        Ok(())
    }
}
