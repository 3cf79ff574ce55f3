//! What can stop a campaign. Refusals (bad input: a solver that cannot start, a
//! changed study on resume, a directory another run holds) are told apart from
//! failures while running (a write error) by [`CampaignError::is_bad_input`], which
//! the CLI turns into exit code 2.

use std::io;
use std::path::PathBuf;

/// Why `et run` refused to start or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// A solver's program cannot be run.
    #[error("solver `{solver}`: program {program} {reason}")]
    Program {
        /// The solver's name.
        solver: String,
        /// The program as configured (and resolved through PATH when found there).
        program: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Solvers that cannot start under the run's limits (`judging::check::start_check`):
    /// none of their calls could get an answer.
    #[error("{}", cannot_start(solvers))]
    CannotStart {
        /// Each solver's name and why it cannot start.
        solvers: Vec<(String, String)>,
    },
    /// `--out` holds a campaign and `--resume` was not given.
    #[error("{} already holds a campaign; pass --resume to continue it, or choose another --out", dir.display())]
    Exists {
        /// The run directory.
        dir: PathBuf,
    },
    /// Another `et run` holds the directory.
    #[error("{} is in use by another et run (pid {pid}); wait for it to end or stop it first", dir.display())]
    Busy {
        /// The run directory.
        dir: PathBuf,
        /// The holder's process id, as it recorded it (`unknown` if unreadable).
        pid: String,
    },
    /// `--resume` on a directory without a campaign, and not enough arguments to start
    /// one.
    #[error("cannot resume {}: it holds no run.toml; give --grammar, --n and --timeout to start a campaign there", dir.display())]
    NothingToResume {
        /// The run directory.
        dir: PathBuf,
    },
    /// `run.toml` of the directory to resume is unreadable or malformed.
    #[error("cannot resume: {}{}: {message}", path.display(), at(*position))]
    BadManifest {
        /// The manifest.
        path: PathBuf,
        /// 1-based line and column of the problem, for a malformed file.
        position: Option<(usize, usize)>,
        /// What is wrong.
        message: String,
    },
    /// `--resume` with a study that differs from the one in the directory.
    #[error("cannot resume {}: it was run with {what} {was}, not {now}; a resumed run must keep everything that decides its results (use another --out for a new study)", dir.display())]
    Changed {
        /// The run directory.
        dir: PathBuf,
        /// What differs (`--memory`, `solver z3-4.8.5's command`, ...).
        what: String,
        /// The recorded value.
        was: String,
        /// The requested value.
        now: String,
    },
    /// `--resume --n N2` on a study of N < N2 formulas that cannot grow.
    #[error("cannot grow {} from --n {was} to {now}: {reason}", dir.display())]
    CannotGrow {
        /// The run directory.
        dir: PathBuf,
        /// The recorded number of formulas.
        was: u64,
        /// The requested number.
        now: u64,
        /// Why not.
        reason: String,
    },
    /// The grammar's formulas are scripts et cannot judge ([`crate::judging::scripts`]).
    #[error("grammar `{grammar}`: {reason}; no run is made, as its answers would be misjudged")]
    Scripts {
        /// The grammar.
        grammar: String,
        /// Why its formulas are scripts.
        reason: String,
    },
    /// `--out` names something that is not a directory.
    #[error("--out {} is not a directory", path.display())]
    NotADirectory {
        /// The path given.
        path: PathBuf,
    },
    /// `runs.csv` (or the reference cache) of the directory to resume is malformed.
    #[error("cannot resume: {0}")]
    Ledger(#[from] super::ledger::LedgerError),
    /// The reference cache is malformed.
    #[error("{}:{line}: not a row of a reference cache: {reason}", path.display())]
    BadCache {
        /// The cache file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// A CSV file to append to has a header this et does not write.
    #[error("{}: {reason}; use another file (or --out) for this run", path.display())]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong with its header.
        reason: String,
    },
    /// A file of the run could not be written or read (disk full, permissions, ...).
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// `cannot write`, `cannot create`, ...
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

/// One line naming every solver that cannot start, and why.
fn cannot_start(solvers: &[(String, String)]) -> String {
    let each: Vec<String> = solvers
        .iter()
        .map(|(name, why)| format!("solver `{name}` cannot start ({why})"))
        .collect();
    format!(
        "{}; refusing to run a campaign whose calls would all be setup errors (raise --memory, or leave the solver out with --solvers)",
        each.join("; ")
    )
}

/// `:line:column`, or nothing.
fn at(position: Option<(usize, usize)>) -> String {
    position.map_or(String::new(), |(line, column)| format!(":{line}:{column}"))
}

impl CampaignError {
    /// Whether this is a refusal of the user's input (exit code 2) rather than a
    /// failure while running (exit code 1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            CampaignError::Io { .. } => false,
            CampaignError::Ledger(e) => matches!(e, super::ledger::LedgerError::Row { .. }),
            _ => true,
        }
    }

    /// An I/O error with what was being done and to which file.
    pub fn io(what: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> Self {
        let path = path.into();
        move |source| CampaignError::Io { what, path, source }
    }
}
