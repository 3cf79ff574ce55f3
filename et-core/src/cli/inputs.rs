//! Inputs several commands read: solver pools (the default one installed when there is
//! none yet) and formula files.

use std::io::Read;
use std::path::Path;

use anyhow::Context;

use et_core::solvers::install::{self, InstallError};
use et_core::solvers::{self, Pool};

use super::grammar_arg::BadInput;
use super::notes::DEFAULT_POOL_NOTES;

/// The pool of `--pool`, or the default pool, installed first (saying so on stderr)
/// when there is none yet.
pub fn load_pool(pool: Option<&Path>) -> Result<Pool, InstallError> {
    install::load_pool_or_install_default(pool, &DEFAULT_POOL_NOTES)
}

/// A pool file: TOML, or ET's solvers.cfg when the name ends in `.cfg`.
pub fn load_pool_file(path: &Path) -> anyhow::Result<Pool> {
    if path.extension().is_some_and(|e| e == "cfg") {
        let text = std::fs::read_to_string(path)
            .map_err(|e| BadInput(format!("cannot read {}: {e}", path.display())))?;
        return Ok(Pool::from_solvers_cfg(&text, path)?);
    }
    if !path.is_file() {
        return Err(BadInput(format!("pool file {} does not exist", path.display())).into());
    }
    Ok(Pool::load(path)?)
}

/// `--pool FILE`, else `$ET_HOME/pool.toml` when it exists, else nothing (never
/// installs).
pub fn installed_pool(pool: Option<&Path>) -> anyhow::Result<Option<Pool>> {
    if let Some(path) = pool {
        return load_pool_file(path).map(Some);
    }
    let default = solvers::default_pool_path(&solvers::et_home());
    if default.is_file() {
        return Ok(Some(Pool::load(&default)?));
    }
    Ok(None)
}

/// A formula read from a file: the formula, and the logic a prelude et wrote in front
/// of it stated (a yices trigger's), if any.
pub struct FormulaFile {
    /// The formula without what et added around it.
    pub formula: String,
    /// The logic of et's prelude line, if the file had one.
    pub logic: Option<String>,
}

/// The text of a formula file, or of standard input for `-`.
pub fn read_formula(path: &Path) -> anyhow::Result<FormulaFile> {
    let text = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        text
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| BadInput(format!("cannot read formula {}: {e}", path.display())))?
    };
    // A trigger file holds the script its solver ran: the formula is that script minus
    // what et added (the model request, a prelude).
    let formula = et_core::judging::formula_of(&text);
    if formula.is_empty() {
        return Err(BadInput(format!("formula {} is empty", path.display())).into());
    }
    Ok(FormulaFile {
        logic: et_core::judging::logic_of(&text),
        formula,
    })
}
