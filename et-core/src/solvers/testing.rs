//! The pool every test of et runs against: real solvers, installed on first use into
//! `<workspace>/.cache/et-home` (git-ignored), so `cargo test` passes on a fresh machine
//! with Python, pip and network access, and costs nothing once the cache is filled.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::default_pool_path;
use super::install::{Installer, Spec};
use super::pool::Pool;

/// Specs of the test pool: the default pool (newest z3 4.x, newest cvc5) plus the old z3
/// releases campaign and triage tests compare against (4.8.8 is the first release
/// without 4.8.7's invalid models).
pub const TEST_POOL_SPECS: &[&str] = &["z3@4.x", "cvc5@latest", "z3@4.8.7", "z3@4.8.5", "z3@4.8.8"];

/// The `ET_HOME` of tests: `<workspace root>/.cache/et-home`.
pub fn test_home() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new(env!("CARGO_MANIFEST_DIR")))
        .join(".cache/et-home")
}

/// The test pool, installed if missing; panics with the reason if it cannot be installed
/// (tests cannot run without their solvers).
///
/// Contains `z3-4.8.5`, `z3-4.8.7`, the newest z3 4.x and the newest cvc5 (through the
/// `et-cvc5` runner); use [`Pool::newest`] to pick the latter two.
pub fn test_pool() -> Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| match install_test_pool(&test_home()) {
        Ok(pool) => pool,
        Err(e) => panic!(
            "cannot install the test solver pool into {}: {e}\n(run scripts/setup.sh once)",
            test_home().display()
        ),
    })
    .clone()
}

/// Installs the test pool into `home` unless a previous run completed it; returns it.
pub fn install_test_pool(home: &Path) -> Result<Pool, super::install::InstallError> {
    let marker = home.join("test-pool.ok");
    let pool_file = default_pool_path(home);
    // The marker lists the solvers of a completed install; trust it while they exist, so
    // that tests need no network once the cache is filled.
    if let (Ok(names), Ok(pool)) = (std::fs::read_to_string(&marker), Pool::load(&pool_file)) {
        let names: Vec<&str> = names.lines().filter(|l| !l.is_empty()).collect();
        // An exact release added to the specs since the marker was written is missing.
        let exact_present = TEST_POOL_SPECS
            .iter()
            .filter(|spec| {
                spec.split_once('@').is_some_and(|(_, v)| {
                    v.starts_with(|c: char| c.is_ascii_digit()) && !v.contains('x')
                })
            })
            .all(|spec| names.contains(&spec.replacen('@', "-", 1).as_str()));
        if let (true, Ok(selected)) = (exact_present, pool.select(&names)) {
            if selected
                .solvers
                .iter()
                .all(|s| Path::new(s.program()).is_file())
            {
                // Tests exercise the runner being built, not the copy of an older build.
                let installer = Installer::new(home);
                for s in selected.solvers.iter().filter(|s| s.family == "cvc5") {
                    let program = Path::new(s.program());
                    if program
                        .parent()
                        .and_then(Path::parent)
                        .is_some_and(|d| d.join("lib").is_dir())
                    {
                        installer.refresh_runner(program)?;
                    }
                }
                return Ok(selected);
            }
        }
    }
    let mut installer = Installer::new(home);
    installer.verbose = false;
    let report = installer
        .install(&Spec::parse_all(TEST_POOL_SPECS)?)?
        .into_result()?;
    let mut names: Vec<String> = report
        .installed
        .iter()
        .chain(&report.present)
        .map(|s| s.name.clone())
        .collect();
    names.sort();
    let pool = Pool::load(&pool_file)?.select(&names)?;
    std::fs::write(&marker, names.join("\n") + "\n").map_err(|source| {
        super::install::InstallError::Io {
            what: "cannot write",
            path: marker.clone(),
            source,
        }
    })?;
    Ok(pool)
}
