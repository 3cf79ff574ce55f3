//! Reading run directories: `run.toml` into a [`RunManifest`] and `runs.csv` (or
//! `runs.csv.gz`) as a stream of borrowed [`CallView`]s, one record buffer reused for
//! the whole file so reading 10^8 rows allocates nothing per row.
//!
//! This is the one reader of the call log in et: reports, plots, merges and triage
//! all see rows through it.
//!
//! Columns are looked up by name, so files written before a column existed still read:
//! `evidence` (what established a verdict) and `model_check` (et's check of a model)
//! are optional, and so are any columns this module does not use (`reference_usable`,
//! ...).

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::campaign::manifest::RunManifest;
use crate::oracle::{Evidence, Status, Verdict};

use super::timeouts::Clock;
use super::ReportError;

/// File name of the call log inside a run directory.
pub const RUNS_CSV: &str = "runs.csv";
/// File name of the manifest inside a run directory.
pub const MANIFEST: &str = "run.toml";
/// Folder of saved bug triggers inside a run directory.
pub const BUGS_DIR: &str = "bugs";
/// Suffix of a gzip-compressed CSV file (`runs.csv.gz`).
pub const GZ: &str = ".gz";

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
    /// only read by [`RunDir::for_each_call`]. A path that is not a directory, or lacks
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

    /// Calls `f` on every row of the call log, in file order, with times read from
    /// `clock`.
    pub fn for_each_call(
        &self,
        clock: Clock,
        f: impl FnMut(&CallView<'_>) -> Result<(), ReportError>,
    ) -> Result<ReadStats, ReportError> {
        for_each_call(&self.runs, clock, f)
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

/// Opens a CSV file for reading, decompressing it if its name ends in `.gz` (several
/// concatenated gzip members read as one file, as `cat a.gz b.gz` makes them).
pub fn open_csv(path: &Path) -> Result<Box<dyn Read>, ReportError> {
    let file = File::open(path).map_err(|e| ReportError::io(path, e))?;
    let buffered = BufReader::with_capacity(1 << 20, file);
    if path.to_string_lossy().ends_with(GZ) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 20,
            MultiGzDecoder::new(buffered),
        )))
    } else {
        Ok(Box::new(buffered))
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
    /// FEAT size of the formula.
    pub size: u32,
    /// Classified status.
    pub status: Status,
    /// Verdict, if any.
    pub verdict: Option<Verdict>,
    /// The solver the call was judged against (empty if none).
    pub reference: &'a str,
    /// The reference's status on the formula, if recorded.
    pub reference_status: Option<Status>,
    /// What established the verdict: the `evidence` column, or for files without it
    /// [`Evidence::implied_by`] the verdict.
    pub evidence: Option<Evidence>,
    /// et's own check of the solver's model (`valid`, `invalid`, `undetermined`), when
    /// the file has the column and the row a value.
    pub model_check: Option<&'a str>,
    /// Seconds of the call on the reader's clock (`time_s` or `cpu_s`).
    pub seconds: f64,
}

impl CallView<'_> {
    /// sat or unsat without a correctness verdict: a correct-looking answer. An
    /// invalid model or an unsound answer is decided but not solved.
    pub fn solved(&self) -> bool {
        self.status.is_decided() && !self.verdict.is_some_and(Verdict::is_bug)
    }
}

/// Column positions, looked up by name so extra or reordered columns still read.
struct Columns {
    grammar: usize,
    index: usize,
    solver: usize,
    family: usize,
    version: usize,
    size: usize,
    status: usize,
    verdict: usize,
    reference: usize,
    reference_status: usize,
    seconds: usize,
    evidence: Option<usize>,
    model_check: Option<usize>,
}

impl Columns {
    fn find(path: &Path, header: &csv::StringRecord, clock: Clock) -> Result<Self, ReportError> {
        let find = |column: &str| header.iter().position(|h| h == column);
        let pos = |column: &'static str| {
            find(column).ok_or_else(|| ReportError::MissingColumn {
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
            size: pos("size")?,
            status: pos("status")?,
            verdict: pos("verdict")?,
            reference: pos("reference")?,
            reference_status: pos("reference_status")?,
            seconds: pos(clock.column())?,
            evidence: find("evidence"),
            model_check: find("model_check"),
        })
    }
}

/// What reading a call log found besides its rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// The file did not end with a newline: its last line, torn by a run killed while
    /// writing it (or still being written), was left out.
    pub torn_last_line: bool,
}

/// Where the torn last line of a plain file starts (the byte after its last newline),
/// or `None` when the file ends with a newline, is empty, or is compressed (a
/// compressed log was written whole).
fn torn_tail_start(path: &Path) -> Result<Option<u64>, ReportError> {
    if path.to_string_lossy().ends_with(GZ) {
        return Ok(None);
    }
    let io = |e| ReportError::io(path, e);
    let mut file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut start = len;
    let mut chunk = vec![0u8; 1 << 16];
    while start > 0 {
        let from = start.saturating_sub(chunk.len() as u64);
        let n = (start - from) as usize;
        file.seek(SeekFrom::Start(from)).map_err(io)?;
        file.read_exact(&mut chunk[..n]).map_err(io)?;
        if start == len && chunk[n - 1] == b'\n' {
            return Ok(None);
        }
        if let Some(i) = chunk[..n].iter().rposition(|b| *b == b'\n') {
            return Ok(Some(from + i as u64 + 1));
        }
        start = from;
    }
    // No newline at all: only a (torn) header; the CSV reader reports what is missing.
    Ok(None)
}

/// Streams the rows of a `runs.csv` (or `runs.csv.gz`) file through `f`. A torn last
/// line (no newline at the end) is left out and reported in [`ReadStats`].
pub fn for_each_call(
    path: &Path,
    clock: Clock,
    mut f: impl FnMut(&CallView<'_>) -> Result<(), ReportError>,
) -> Result<ReadStats, ReportError> {
    let torn_from = torn_tail_start(path)?;
    let mut stats = ReadStats::default();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(open_csv(path)?);
    let csv_err = |line: u64, source: csv::Error| ReportError::Csv {
        path: path.to_path_buf(),
        line,
        error: source,
    };
    let header = reader.headers().map_err(|e| csv_err(1, e))?.clone();
    let cols = Columns::find(path, &header, clock)?;
    let mut record = csv::StringRecord::new();
    loop {
        let line = reader.position().line();
        let byte = reader.position().byte();
        if torn_from.is_some_and(|t| byte >= t) {
            stats.torn_last_line = true;
            return Ok(stats);
        }
        match reader.read_record(&mut record) {
            Ok(false) => return Ok(stats),
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
        let reference_text = field(cols.reference_status);
        let reference_status = match reference_text {
            "" => None,
            text => Some(
                text.parse::<Status>()
                    .map_err(|e| bad("reference_status", text, e.to_string()))?,
            ),
        };
        let size_text = field(cols.size);
        let size: u32 = size_text
            .parse()
            .map_err(|e: std::num::ParseIntError| bad("size", size_text, e.to_string()))?;
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
        let evidence = match cols.evidence {
            None => verdict.and_then(Evidence::implied_by),
            Some(i) => match field(i) {
                "" => None,
                text => Some(
                    text.parse::<Evidence>()
                        .map_err(|e| bad("evidence", text, e.to_string()))?,
                ),
            },
        };
        let column = clock.column();
        let time_text = field(cols.seconds);
        let seconds: f64 = time_text
            .parse()
            .map_err(|e: std::num::ParseFloatError| bad(column, time_text, e.to_string()))?;
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(bad(column, time_text, "not a non-negative number".into()));
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
            size,
            status,
            verdict,
            reference: field(cols.reference),
            reference_status,
            evidence,
            model_check: cols.model_check.map(field).filter(|v| !v.is_empty()),
            seconds,
        })?;
    }
}
