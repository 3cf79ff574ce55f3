//! Registering installed solvers: appending their entries to the pool file, under the
//! home lock, unless a solver of that name is already there.
//!
//! Programs under the pool file's directory (the solvers of `$ET_HOME`) are written
//! relative to it ([`SolverConfig::relative_to`]), so a copied or moved `$ET_HOME` runs
//! its own solvers.
//!
//! *Must not:* rewrite or reorder existing entries; the pool file is only ever appended
//! to, so users may edit it freely.

use std::io::Write;
use std::path::Path;

use super::super::pool::{Pool, SolverConfig};
use super::error::io;
use super::fs::HomeLock;
use super::InstallError;
use crate::version::compare_versions;

/// The comment heading a pool file that `et solvers install` creates.
const HEADER: &str = "# Solver pool of et: one [[solver]] per configuration; the formula's path is\n\
                      # appended to `command` (or given on stdin with `input = \"stdin\"`).\n\
                      # Written by `et solvers install`; edit freely, entries are only ever appended.\n";

/// Appends the solvers not yet named in `pool_file` to it, under the lock of `home`.
pub(super) fn register(
    home: &Path,
    pool_file: &Path,
    solvers: &[&SolverConfig],
) -> Result<(), InstallError> {
    if solvers.is_empty() {
        return Ok(());
    }
    let _lock = HomeLock::take(home)?;
    let existing = if pool_file.exists() {
        Pool::load(pool_file)?
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
    sorted.sort_by(|a, b| {
        a.family
            .cmp(&b.family)
            .then_with(|| compare_versions(&a.version, &b.version))
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut text = String::new();
    if !pool_file.exists() {
        text.push_str(HEADER);
    }
    for s in sorted {
        text.push('\n');
        text.push_str(&s.relative_to(pool_file).to_toml());
    }
    if let Some(parent) = pool_file.parent() {
        std::fs::create_dir_all(parent).map_err(io("cannot create", parent))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(pool_file)
        .map_err(io("cannot open", pool_file))?;
    file.write_all(text.as_bytes())
        .map_err(io("cannot write", pool_file))?;
    Ok(())
}
