//! The one error type of installing, [`InstallError`], and the helper that names the
//! file behind an I/O error.
//!
//! *Must not:* decide anything; other modules build these errors, this one only says
//! how they read.

use std::path::{Path, PathBuf};

use super::super::pool::PoolError;

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
    /// A local build that cannot be added to a pool as given.
    #[error("cannot add {program}: {why}")]
    BadLocal {
        /// The program given.
        program: String,
        /// Why.
        why: String,
    },
    /// Some specs or solvers could not be installed (the others were), each named with
    /// its error.
    #[error("could not install {}", .0.iter().map(|(n, e)| format!("{n} ({e})")).collect::<Vec<_>>().join("; "))]
    Failed(Vec<(String, InstallError)>),
}

/// Turns an I/O error into [`InstallError::Io`] saying `what` was done to `path`.
pub(crate) fn io<'a>(
    what: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> InstallError + 'a {
    move |source| InstallError::Io {
        what,
        path: path.to_path_buf(),
        source,
    }
}
