//! Reading run directories: `run.toml` into a [`RunManifest`] and `runs.csv` as a
//! stream of borrowed [`CallView`]s, one record buffer reused for the whole file so
//! reading 10^8 rows allocates nothing per row.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use crate::campaign::manifest::RunManifest;
use crate::oracle::{Status, Verdict};

use super::ReportError;

/// File name of the call log inside a run directory.
pub const RUNS_CSV: &str = "runs.csv";
/// File name of the manifest inside a run directory.
pub const MANIFEST: &str = "run.toml";
/// Folder of saved bug triggers inside a run directory.
pub const BUGS_DIR: &str = "bugs";

/// A run directory with its manifest read.
#[derive(Debug, Clone)]
pub struct RunDir {
    /// The directory as given.
    pub path: PathBuf,
    /// Its `run.toml`.
    pub manifest: RunManifest,
}

impl RunDir {
    /// Reads `DIR/run.toml`; `runs.csv` is only opened when rows are read.
    pub fn open(path: impl Into<PathBuf>) -> Result<Self, ReportError> {
        let path = path.into();
        let manifest = read_manifest(&path.join(MANIFEST))?;
        Ok(RunDir { path, manifest })
    }

    /// Path of `DIR/runs.csv`.
    pub fn runs_csv(&self) -> PathBuf {
        self.path.join(RUNS_CSV)
    }

    /// Calls `f` on every row of `runs.csv`, in file order.
    pub fn for_each_call(
        &self,
        f: impl FnMut(&CallView<'_>) -> Result<(), ReportError>,
    ) -> Result<(), ReportError> {
        for_each_call(&self.runs_csv(), f)
    }
}

/// Reads and parses a `run.toml`.
pub fn read_manifest(path: &Path) -> Result<RunManifest, ReportError> {
    let text = std::fs::read_to_string(path).map_err(|e| ReportError::io(path, e))?;
    toml::from_str(&text).map_err(|e| ReportError::Manifest {
        path: path.to_path_buf(),
        error: Box::new(e),
    })
}

/// The fields of one `runs.csv` row that reports use, borrowed from the record.
#[derive(Debug, Clone, Copy)]
pub struct CallView<'a> {
    /// 1-based line in the file, for error messages.
    pub line: u64,
    /// Grammar name.
    pub grammar: &'a str,
    /// Formula index (decimal).
    pub index: &'a str,
    /// Solver name.
    pub solver: &'a str,
    /// Solver family.
    pub family: &'a str,
    /// Solver version.
    pub version: &'a str,
    /// Classified status.
    pub status: Status,
    /// Verdict, if any.
    pub verdict: Option<Verdict>,
    /// Wall-clock seconds.
    pub time_s: f64,
}

/// Column positions, looked up by name so extra or reordered columns still read.
struct Columns {
    grammar: usize,
    index: usize,
    solver: usize,
    family: usize,
    version: usize,
    status: usize,
    verdict: usize,
    time_s: usize,
}

impl Columns {
    fn find(path: &Path, header: &csv::StringRecord) -> Result<Self, ReportError> {
        let pos = |column: &'static str| {
            header
                .iter()
                .position(|h| h == column)
                .ok_or_else(|| ReportError::MissingColumn {
                    path: path.to_path_buf(),
                    column,
                })
        };
        Ok(Columns {
            grammar: pos("grammar")?,
            index: pos("index")?,
            solver: pos("solver")?,
            family: pos("family")?,
            version: pos("version")?,
            status: pos("status")?,
            verdict: pos("verdict")?,
            time_s: pos("time_s")?,
        })
    }
}

/// Streams the rows of a `runs.csv` file through `f`.
pub fn for_each_call(
    path: &Path,
    mut f: impl FnMut(&CallView<'_>) -> Result<(), ReportError>,
) -> Result<(), ReportError> {
    let file = File::open(path).map_err(|e| ReportError::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(BufReader::with_capacity(1 << 20, file));
    let csv_err = |line: u64, source: csv::Error| ReportError::Csv {
        path: path.to_path_buf(),
        line,
        error: source,
    };
    let header = reader.headers().map_err(|e| csv_err(1, e))?.clone();
    let cols = Columns::find(path, &header)?;
    let mut record = csv::StringRecord::new();
    loop {
        let line = reader.position().line();
        match reader.read_record(&mut record) {
            Ok(false) => return Ok(()),
            Ok(true) => {}
            Err(e) => return Err(csv_err(line, e)),
        }
        let line = record.position().map_or(line, |p| p.line());
        let field = |i: usize| record.get(i).unwrap_or("");
        let bad = |column: &'static str, value: &str, reason: String| ReportError::BadValue {
            path: path.to_path_buf(),
            line,
            column,
            value: value.to_string(),
            reason,
        };
        let status_text = field(cols.status);
        let status: Status = status_text
            .parse()
            .map_err(|e: crate::oracle::ParseLabelError| {
                bad("status", status_text, e.to_string())
            })?;
        let verdict_text = field(cols.verdict);
        let verdict = if verdict_text.is_empty() {
            None
        } else {
            Some(
                verdict_text
                    .parse::<Verdict>()
                    .map_err(|e| bad("verdict", verdict_text, e.to_string()))?,
            )
        };
        let time_text = field(cols.time_s);
        let time_s: f64 = time_text
            .parse()
            .map_err(|e: std::num::ParseFloatError| bad("time_s", time_text, e.to_string()))?;
        if !(time_s.is_finite() && time_s >= 0.0) {
            return Err(bad("time_s", time_text, "not a non-negative number".into()));
        }
        let index = field(cols.index);
        if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("index", index, "not a decimal number".into()));
        }
        f(&CallView {
            line,
            grammar: field(cols.grammar),
            index,
            solver: field(cols.solver),
            family: field(cols.family),
            version: field(cols.version),
            status,
            verdict,
            time_s,
        })?;
    }
}
