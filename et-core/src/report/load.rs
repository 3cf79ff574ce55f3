//! Reading run directories: `run.toml` into a [`RunManifest`], and where the call log
//! is (`runs.csv` or `runs.csv.gz`). The rows themselves are read by the one reader of
//! the call log, [`crate::campaign::row::read`], which reports, plots, merges and
//! triage all go through.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::campaign::manifest::RunManifest;
use crate::campaign::row::once::{Admission, CallsOnce};
use crate::campaign::row::{self, ReadStats, RunRow};

use super::ReportError;

/// File name of the call log inside a run directory.
pub const RUNS_CSV: &str = "runs.csv";
/// File name of the manifest inside a run directory.
pub const MANIFEST: &str = "run.toml";
/// Folder of saved bug triggers inside a run directory.
pub const BUGS_DIR: &str = "bugs";
/// Suffix of a gzip-compressed CSV file (`runs.csv.gz`).
pub const GZ: &str = row::read::GZ;

/// A run directory with its manifest read and its call log found.
#[derive(Debug, Clone)]
pub struct RunDir {
    /// The directory as given.
    pub path: PathBuf,
    /// Its `run.toml`.
    pub manifest: RunManifest,
    /// Its call log: `runs.csv`, or `runs.csv.gz` when only that is present.
    pub runs: PathBuf,
}

impl RunDir {
    /// Reads `DIR/run.toml` and finds `DIR/runs.csv` or `DIR/runs.csv.gz`; the rows are
    /// only read by [`RunDir::for_each_row`]. A path that is not a directory, or lacks
    /// either file, is refused naming what is missing.
    pub fn open(path: impl Into<PathBuf>) -> Result<Self, ReportError> {
        let path = path.into();
        let not_run_dir = |reason: String| ReportError::NotARunDir {
            path: path.clone(),
            reason,
        };
        if !path.is_dir() {
            return Err(not_run_dir(if path.exists() {
                "not a directory".into()
            } else {
                "no such directory".into()
            }));
        }
        let manifest_path = path.join(MANIFEST);
        if !manifest_path.is_file() {
            return Err(not_run_dir(format!("no {MANIFEST}")));
        }
        let manifest = read_manifest(&manifest_path)?;
        check_manifest(&manifest, &manifest_path)?;
        let runs = find_csv(&path, RUNS_CSV)?
            .ok_or_else(|| not_run_dir(format!("no {RUNS_CSV} or {RUNS_CSV}{GZ}")))?;
        Ok(RunDir {
            path,
            manifest,
            runs,
        })
    }

    /// What is wrong with the grammar `run.toml` names, if anything: neither a built-in
    /// grammar nor a grammar file that exists (`grammar_file`; a merged study's
    /// built-in grammar needs none). A report does not need the grammar — it counts
    /// rows — but triage and `et run --resume` rebuild the formulas from it.
    pub fn grammar_problem(&self) -> Option<String> {
        let name = &self.manifest.grammar;
        if crate::builtins::Builtin::find(name).is_some() {
            return None;
        }
        Some(match &self.manifest.grammar_file {
            None => format!(
                "grammar `{name}` is unknown: not a built-in grammar (see `et grammars`), \
                 and run.toml names no grammar_file"
            ),
            Some(file) if !Path::new(file).is_file() => format!(
                "grammar `{name}` is unknown: not a built-in grammar, and its grammar_file \
                 {file} does not exist"
            ),
            Some(_) => return None,
        })
    }

    /// Calls `f` on every call of the call log with its line, in file order, each call
    /// once (its first row) and only the calls of the solvers `run.toml` names; a torn
    /// last line and the rows left out are reported in the [`ReadStats`].
    pub fn for_each_row(
        &self,
        mut f: impl FnMut(&RunRow, u64) -> Result<(), ReportError>,
    ) -> Result<ReadStats, ReportError> {
        let coverage = super::coverage::Coverage::of(self)?;
        let mut once = CallsOnce::new(
            &coverage.start,
            coverage.n,
            self.manifest.solvers.iter().map(|s| s.name.as_str()),
        );
        let mut stats = row::for_each_row(&self.runs, |row, line| match once.admit(row) {
            Admission::Call => f(row, line),
            Admission::Duplicate | Admission::OtherSolver => Ok(()),
        })?;
        stats.left_out = once.left_out();
        Ok(stats)
    }
}

/// `DIR/NAME` or, if only that exists, `DIR/NAME.gz`; `None` if neither. Both present
/// is refused: they may differ, and picking one silently would hide that.
pub fn find_csv(dir: &Path, name: &'static str) -> Result<Option<PathBuf>, ReportError> {
    let plain = dir.join(name);
    let gz = dir.join(format!("{name}{GZ}"));
    match (plain.is_file(), gz.is_file()) {
        (true, true) => Err(ReportError::AmbiguousRows {
            dir: dir.to_path_buf(),
            plain: name,
        }),
        (true, false) => Ok(Some(plain)),
        (false, true) => Ok(Some(gz)),
        (false, false) => Ok(None),
    }
}

/// Opens a CSV file for reading, decompressing it if its name ends in `.gz` (see
/// [`row::read::open`]).
pub fn open_csv(path: &Path) -> Result<Box<dyn Read>, ReportError> {
    row::read::open(path).map_err(|e| ReportError::io(path, e))
}

/// Reads and parses a `run.toml`.
pub fn read_manifest(path: &Path) -> Result<RunManifest, ReportError> {
    let text = std::fs::read_to_string(path).map_err(|e| ReportError::io(path, e))?;
    toml::from_str(&text).map_err(|e| ReportError::Manifest {
        path: path.to_path_buf(),
        error: Box::new(e),
    })
}

/// Refuses a manifest no run writes: no solvers, a timeout that is not a positive
/// number, a range or shard that does not parse.
fn check_manifest(m: &RunManifest, path: &Path) -> Result<(), ReportError> {
    let bad = |field: &'static str, value: String, reason: &'static str| {
        Err(ReportError::BadManifest {
            path: path.to_path_buf(),
            field,
            value,
            reason,
        })
    };
    if m.solvers.is_empty() {
        return bad("solvers", "[]".into(), "a run has at least one solver");
    }
    if !(m.timeout_s.is_finite() && m.timeout_s > 0.0) {
        return bad(
            "timeout_s",
            m.timeout_s.to_string(),
            "not a positive number of seconds",
        );
    }
    super::coverage::Coverage::of_manifest(m, path).map(|_| ())
}
