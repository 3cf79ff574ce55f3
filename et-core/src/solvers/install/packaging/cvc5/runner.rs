//! The program an installed cvc5 runs as its `bin/cvc5`: cvc5 wheels hold libraries,
//! not a binary, so et places a driver there. Wheels from 1.2.0 on export a C API and get
//! a copy of the `et-cvc5` runner (built with et); 1.0.9–1.1.x wheels get
//! `python_runner.py`, which drives the wheel's Python InputParser.
//!
//! Owns finding the `et-cvc5` build, placing either driver, and refreshing copies in
//! existing installs. *Must not:* download wheels (that is the installer's job).

use std::path::{Path, PathBuf};

use super::super::Packaging;
use crate::solvers::family::Cvc5;
use crate::solvers::install::{io, unique_suffix, InstallError};

/// The driver for cvc5 wheels without a C API, installed as their `bin/cvc5`.
pub(super) const PYTHON_RUNNER: &str = include_str!("python_runner.py");

/// Where the `et-cvc5` runner is: `$ET_CVC5_RUNNER`, or next to the running executable
/// (or one directory up, for test executables in `target/*/deps/`).
pub fn find_cvc5_runner() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ET_CVC5_RUNNER") {
        return Some(PathBuf::from(p));
    }
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    [dir.join("et-cvc5"), dir.parent()?.join("et-cvc5")]
        .into_iter()
        .find(|p| p.is_file())
}

/// The runner to copy into cvc5 installs: `configured` if given, else
/// [`find_cvc5_runner`]; an error if that is not a file.
fn locate(configured: Option<&Path>) -> Result<PathBuf, InstallError> {
    configured
        .map(Path::to_path_buf)
        .or_else(find_cvc5_runner)
        .filter(|p| p.is_file())
        .ok_or_else(|| InstallError::Unusable {
            name: "cvc5".to_string(),
            why: "the `et-cvc5` runner was not found next to this program; build it \
                  (`cargo build --release --bin et-cvc5`) or set ET_CVC5_RUNNER"
                .to_string(),
        })
}

/// Copies the `et-cvc5` runner (see [`locate`]) into `bin` as the cvc5 program.
pub(super) fn place_c_api_runner(
    configured: Option<&Path>,
    bin: &Path,
) -> Result<(), InstallError> {
    let runner = locate(configured)?;
    std::fs::copy(&runner, bin.join(Cvc5.program())).map_err(io("cannot copy", &runner))?;
    Ok(())
}

/// The text the `et-cvc5` runner carries from the build on that executes standard
/// input as it arrives (what sessions need).
const SESSION_MARK: &str = include_str!("session-mark.txt");

/// Whether the runner copy `installed` can run et's sessions: it carries the session
/// mark of this build (any build of the same protocol does, debug or release; an
/// older copy read all of standard input before answering).
pub(super) fn is_current(installed: &Path) -> bool {
    std::fs::read(installed)
        .is_ok_and(|bytes| memchr::memmem::find(&bytes, SESSION_MARK.as_bytes()).is_some())
}

fn same_file_contents(a: &Path, b: &Path) -> bool {
    match (std::fs::read(a), std::fs::read(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Replaces the runner copy `installed` if it differs from the current build (see
/// [`locate`]), so fixes to the runner reach existing installs. Does nothing if no
/// runner is found.
pub(super) fn refresh(configured: Option<&Path>, installed: &Path) -> Result<(), InstallError> {
    let Ok(runner) = locate(configured) else {
        return Ok(());
    };
    if !same_file_contents(&runner, installed) {
        let tmp = installed.with_extension(format!("new.{}", unique_suffix()));
        std::fs::copy(&runner, &tmp).map_err(io("cannot copy", &runner))?;
        std::fs::rename(&tmp, installed).map_err(io("cannot replace", installed))?;
    }
    Ok(())
}
