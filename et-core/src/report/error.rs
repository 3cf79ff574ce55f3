//! Errors of reports, plots and merges. Each names the offending file (and line) or
//! value, so the one-line message printed by the CLI is enough to fix the input.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong while reading run directories or writing outputs.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A file or directory could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error (in the message, not chained, so it prints once).
        error: io::Error,
    },
    /// `run.toml` is not a valid manifest.
    #[error("{}: {error}", path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// The parse error.
        error: Box<toml::de::Error>,
    },
    /// `runs.csv` is not valid CSV.
    #[error("{}:{line}: {error}", path.display())]
    Csv {
        /// The CSV file.
        path: PathBuf,
        /// 1-based line of the record.
        line: u64,
        /// The CSV error.
        error: csv::Error,
    },
    /// The header of `runs.csv` lacks a column the report needs.
    #[error("{}: header has no column `{column}`", path.display())]
    MissingColumn {
        /// The CSV file.
        path: PathBuf,
        /// The missing column.
        column: &'static str,
    },
    /// A field of `runs.csv` does not hold a valid value.
    #[error("{}:{line}: column `{column}`: bad value `{value}`: {reason}", path.display())]
    BadValue {
        /// The CSV file.
        path: PathBuf,
        /// 1-based line of the record.
        line: u64,
        /// The column.
        column: &'static str,
        /// The field as found.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// A `--timeouts` entry is not a positive number or fraction.
    #[error("bad timeout `{value}`: {reason}")]
    BadTimeout {
        /// The entry as given.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// No run directory was given.
    #[error("no run directories given")]
    NoInput,
    /// Two directories are not shards of one study.
    #[error("cannot merge {} and {}: {what} differs ({left} vs {right})", a.display(), b.display())]
    Mismatch {
        /// First directory.
        a: PathBuf,
        /// Second directory.
        b: PathBuf,
        /// What differs (`grammar`, `timeout_s`, `solvers`, ...).
        what: &'static str,
        /// Value in `a`.
        left: String,
        /// Value in `b`.
        right: String,
    },
    /// Two directories cover overlapping formula ranges.
    #[error("cannot merge {} and {}: index ranges overlap ({left} and {right})", a.display(), b.display())]
    Overlap {
        /// First directory.
        a: PathBuf,
        /// Second directory.
        b: PathBuf,
        /// Range of `a`.
        left: String,
        /// Range of `b`.
        right: String,
    },
    /// The merge output already exists; merges never overwrite.
    #[error("{}: already exists (merge never overwrites)", path.display())]
    OutputExists {
        /// The output directory.
        path: PathBuf,
    },
    /// A plot could not be drawn.
    #[error("{}: cannot draw plot: {message}", path.display())]
    Plot {
        /// The plot file.
        path: PathBuf,
        /// The backend's message.
        message: String,
    },
}

impl ReportError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Self {
        ReportError::Io {
            path: path.into(),
            error: source,
        }
    }
}
