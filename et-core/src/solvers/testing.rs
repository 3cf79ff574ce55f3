//! The solvers every test of et runs against: real releases pinned to exact versions
//! (so a new upstream release cannot change a test's outcome), installed by
//! `scripts/setup.sh` (`et solvers install --test-pool`) into
//! `<workspace>/.cache/et-home` (git-ignored).
//!
//! Tests only read that directory: they never install, and never edit its pool files.
//! A solver that is missing fails the test that needs it, with the reason and the
//! command that installs it; nothing is skipped.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use super::default_pool_path;
use super::pool::{Pool, SolverConfig};

/// The test pool, in `<home>/pool.toml`: old z3 releases with known bugs (4.8.5, 4.8.7,
/// 4.8.8), z3 4.8.10 (the last with 8-bit strings and SMT-LIB 2.6 names), a current z3
/// and a current cvc5 (through the `et-cvc5` runner), yices (whose scripts need a
/// `(set-logic ...)` prelude), and bitwuzla (et's runner over its Python bindings:
/// Booleans, bit-vectors, floating point, arrays; no integers).
pub const TEST_POOL_SPECS: &[&str] = &[
    "z3@4.8.5",
    "z3@4.8.7",
    "z3@4.8.8",
    "z3@4.8.10",
    "z3@4.16.0",
    "cvc5@1.4.2",
    "yices@2.6.5",
    "bitwuzla@0.9.1",
];

/// Solvers some tests need that should not be in the pool `et run` uses by default:
/// cvc5 1.1.2 behind the (slow) Python runner. Registered in [`EXTRA_POOL_FILE`].
pub const TEST_EXTRA_SPECS: &[&str] = &["cvc5@1.1.2"];

/// The pool file of [`TEST_EXTRA_SPECS`], beside `pool.toml`.
pub const EXTRA_POOL_FILE: &str = "extra-pool.toml";

/// The `ET_HOME` of tests: `<workspace root>/.cache/et-home`.
pub fn test_home() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new(env!("CARGO_MANIFEST_DIR")))
        .join(".cache/et-home")
}

/// `z3@4.8.5` → `z3-4.8.5`: the name an installed exact release gets.
pub(crate) fn spec_name(spec: &str) -> String {
    spec.replacen('@', "-", 1)
}

/// The test pool (exactly [`TEST_POOL_SPECS`], in that order); panics with what is
/// missing and how to install it.
pub fn test_pool() -> Pool {
    static POOL: OnceLock<Result<Pool, String>> = OnceLock::new();
    match POOL.get_or_init(|| read_installed(&default_pool_path(&test_home()), TEST_POOL_SPECS)) {
        Ok(pool) => pool.clone(),
        Err(why) => panic!("{why}"),
    }
}

/// A solver of [`TEST_EXTRA_SPECS`] by name (`cvc5-1.1.2`); panics with what is
/// missing and how to install it.
pub fn test_extra(name: &str) -> SolverConfig {
    static POOL: OnceLock<Result<Pool, String>> = OnceLock::new();
    let pool =
        POOL.get_or_init(|| read_installed(&test_home().join(EXTRA_POOL_FILE), TEST_EXTRA_SPECS));
    match pool {
        Ok(pool) => match pool.get(name) {
            Some(s) => s.clone(),
            None => panic!("{name} is not one of the extra test solvers {TEST_EXTRA_SPECS:?}"),
        },
        Err(why) => panic!("{why}"),
    }
}

/// The solvers of `specs` from the pool file `file`, each with a program that exists.
fn read_installed(file: &Path, specs: &[&str]) -> Result<Pool, String> {
    let fix = "install the test solvers with scripts/setup.sh";
    let pool =
        Pool::load(file).map_err(|e| format!("the test solvers are not installed: {e}; {fix}"))?;
    let names: Vec<String> = specs.iter().map(|s| spec_name(s)).collect();
    let missing: Vec<&str> = names
        .iter()
        .filter(|n| pool.get(n).is_none())
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the test solvers {} are missing from {}; {fix}",
            missing.join(", "),
            file.display()
        ));
    }
    let selected = pool.select(&names).map_err(|e| e.to_string())?;
    for s in &selected.solvers {
        if !Path::new(s.program()).is_file() {
            return Err(format!(
                "test solver {}: {} does not exist; {fix}",
                s.name,
                s.program()
            ));
        }
    }
    Ok(selected)
}
