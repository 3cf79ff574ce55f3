//! Errors of reports, plots and merges. Each names the offending file (and line) or
//! value, so the one-line message printed by the CLI is enough to fix the input.

use std::io;
use std::path::PathBuf;

use crate::campaign::row::RowError;

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
    /// A path given as a run directory is not one.
    #[error("{}: not a run directory: {reason}", path.display())]
    NotARunDir {
        /// The path as given.
        path: PathBuf,
        /// What is missing.
        reason: String,
    },
    /// A run directory holds its rows twice, plain and compressed.
    #[error(
        "{}: holds both {plain} and {plain}.gz; keep one (they may differ)",
        dir.display()
    )]
    AmbiguousRows {
        /// The run directory.
        dir: PathBuf,
        /// The plain file name (`runs.csv`).
        plain: &'static str,
    },
    /// `run.toml` is not a valid manifest.
    #[error("{}: {error}", path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// The parse error.
        error: Box<toml::de::Error>,
    },
    /// A field of `run.toml` parses but holds an impossible value.
    #[error("{}: `{field}` = `{value}`: {reason}", path.display())]
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// The field.
        field: &'static str,
        /// The value as found.
        value: String,
        /// Why it is rejected.
        reason: &'static str,
    },
    /// A CSV file is not valid CSV.
    #[error("{}:{line}: {error}", path.display())]
    Csv {
        /// The CSV file.
        path: PathBuf,
        /// 1-based line of the record.
        line: u64,
        /// The CSV error.
        error: csv::Error,
    },
    /// A call log could not be read: a row, a header or the file (the reader's errors
    /// name file, line, column and value).
    #[error(transparent)]
    Rows(#[from] RowError),
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
    /// Two directories hold calls of the same solver on the same formulas, which a
    /// merge or a report would count twice.
    #[error("{0}")]
    Overlap(Box<Overlap>),
    /// The merge output already exists; merges never overwrite.
    #[error("{}: already exists (merge never overwrites)", path.display())]
    OutputExists {
        /// The output directory.
        path: PathBuf,
    },
    /// A figure does not fit the requested size.
    #[error("{what}: {reason}")]
    BadSize {
        /// The figure and dimension (`bugs: --height 300`).
        what: String,
        /// What would be needed.
        reason: String,
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

/// Two directories whose rows would count twice together (see [`ReportError::Overlap`]).
#[derive(Debug)]
pub struct Overlap {
    /// `merge`, `report` or `plot`.
    pub action: &'static str,
    /// First directory.
    pub a: PathBuf,
    /// Second directory.
    pub b: PathBuf,
    /// Their grammar.
    pub grammar: String,
    /// Range of `a`.
    pub left: String,
    /// Range of `b`.
    pub right: String,
    /// A solver both ran (the first in `a`'s pool).
    pub solver: String,
}

impl std::fmt::Display for Overlap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot {} {} and {} together: both hold `{}` formulas ({} and {}) run by {}, which would count twice",
            self.action,
            self.a.display(),
            self.b.display(),
            self.grammar,
            self.left,
            self.right,
            self.solver
        )
    }
}

impl ReportError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Self {
        ReportError::Io {
            path: path.into(),
            error: source,
        }
    }

    /// Whether the error is the user's input (exit code 2): a path that is not there
    /// or not a run directory, a malformed manifest or CSV, a bad flag value,
    /// directories that do not belong together, an existing merge output. Failures of
    /// the machine (a write error, a permission problem) are not.
    pub fn is_bad_input(&self) -> bool {
        match self {
            // A missing file, one whose bytes are not what it should hold (not UTF-8
            // text, a corrupt gzip stream), or an output folder named where a file is:
            // the input is at fault, not the machine.
            ReportError::Io { error, .. } => matches!(
                error.kind(),
                io::ErrorKind::NotFound
                    | io::ErrorKind::InvalidData
                    | io::ErrorKind::AlreadyExists
                    | io::ErrorKind::NotADirectory
            ),
            ReportError::Plot { .. } => false,
            ReportError::Rows(e) => e.is_bad_input(),
            ReportError::NotARunDir { .. }
            | ReportError::AmbiguousRows { .. }
            | ReportError::Manifest { .. }
            | ReportError::BadManifest { .. }
            | ReportError::Csv { .. }
            | ReportError::BadTimeout { .. }
            | ReportError::NoInput
            | ReportError::Mismatch { .. }
            | ReportError::Overlap(_)
            | ReportError::OutputExists { .. }
            | ReportError::BadSize { .. } => true,
        }
    }
}
