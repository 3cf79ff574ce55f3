//! Why filing failed.

use std::path::PathBuf;

/// Why filing failed.
#[derive(Debug, thiserror::Error)]
pub enum FilingError {
    /// A file or directory could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A triage's file is not what `et triage` writes.
    #[error("{}:{line}: {what}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
    /// No triage directory was given, or none holds a report to file.
    #[error("no triage directories given")]
    NoInput,
    /// A report's release is not in the pool: its command cannot be run.
    #[error(
        "the pool has no `{solver}`, which {file} is about; install it \
         (`et solvers install {spec}`) or pass --pool"
    )]
    NotInstalled {
        /// The pool name.
        solver: String,
        /// The report.
        file: String,
        /// What to install.
        spec: String,
    },
    /// The journal of calls cannot be used.
    #[error(transparent)]
    Journal(#[from] crate::triage::journal::JournalError),
    /// A call could not be made.
    #[error(transparent)]
    Call(#[from] crate::solvers::call::CallError),
}

impl FilingError {
    /// Whether the error is the input's fault (exit 2), not the machine's.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            FilingError::Malformed { .. } | FilingError::NoInput | FilingError::NotInstalled { .. }
        )
    }
}
