//! The one reader of `runs.csv` (and `runs.csv.gz`): the ledger of `--resume`, the CI
//! gate, reports, merges' checks and triage all read rows through [`RowReader`].
//!
//! - Columns are found by name, so files written before a column existed still read:
//!   `reference_usable`, `evidence`, `model_check`, `mode` and `check_sat` are optional (a file without
//!   `evidence` gets what its verdict implies, [`Evidence::implied_by`]); columns et
//!   does not know are ignored. A row written before `validator_false_alarm` existed
//!   (`invalid_model` by the self-check on a model et found valid) reads as one
//!   ([`crate::oracle::Verdict::upgraded`]).
//! - A plain file that does not end with a newline has a torn last line (a run killed
//!   while writing it, or one still being written): it is left out and reported in
//!   [`ReadStats`]. A compressed file was written whole, so it has none.
//! - One record buffer and one [`RunRow`] are reused for the whole file (the row's
//!   strings are refilled in place), so reading 10^8 rows allocates nothing per row.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use flate2::read::MultiGzDecoder;

use crate::oracle::{Evidence, Status};

use super::RunRow;

/// Suffix of a gzip-compressed CSV file (`runs.csv.gz`).
pub const GZ: &str = ".gz";

/// A call log that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RowError {
    /// The file could not be opened or read.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error (in the message, not chained, so it prints once).
        error: io::Error,
    },
    /// The file is not valid CSV (or a record has the wrong number of fields).
    #[error("{}:{line}: {error}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// 1-based line of the record.
        line: u64,
        /// The CSV error (in the message, not chained).
        error: csv::Error,
    },
    /// The header lacks a column every row has.
    #[error("{}: header has no column `{column}`", path.display())]
    MissingColumn {
        /// The file.
        path: PathBuf,
        /// The missing column.
        column: &'static str,
    },
    /// A cell does not hold a valid value.
    #[error("{}:{line}: column `{column}`: bad value `{value}`: {reason}", path.display())]
    BadValue {
        /// The file.
        path: PathBuf,
        /// 1-based line of the record.
        line: u64,
        /// The column.
        column: &'static str,
        /// The cell as found.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
}

impl RowError {
    /// Whether the file is at fault (a missing file, a bad header, row or cell) rather
    /// than the machine (a read error).
    pub fn is_bad_input(&self) -> bool {
        match self {
            RowError::Io { error, .. } => error.kind() == io::ErrorKind::NotFound,
            _ => true,
        }
    }
}

/// What reading a call log found besides its rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// The file did not end with a newline: its last line, torn by a run killed while
    /// writing it (or still being written), was left out.
    pub torn_last_line: bool,
    /// Rows left out because they do not count as calls of the run (a second row of a
    /// call, a row of another solver), by readers that count calls
    /// ([`super::once::CallsOnce`]).
    pub left_out: super::once::LeftOut,
}

/// Opens a CSV file for reading, decompressing it if its name ends in `.gz` (several
/// concatenated gzip members read as one file, as `cat a.gz b.gz` makes them).
pub fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    let buffered = BufReader::with_capacity(1 << 20, File::open(path)?);
    if is_gz(path) {
        Ok(Box::new(BufReader::with_capacity(
            1 << 20,
            MultiGzDecoder::new(buffered),
        )))
    } else {
        Ok(Box::new(buffered))
    }
}

fn is_gz(path: &Path) -> bool {
    path.to_string_lossy().ends_with(GZ)
}

/// Where the torn last line of the (uncompressed) file at `path` starts: the byte after
/// its last newline when it does not end with one, `Some(0)` when a non-empty file has
/// no newline at all (a torn header), `None` when it is empty or ends with a newline.
/// Reads only the file's end, backwards in chunks.
pub fn torn_tail(path: &Path) -> io::Result<Option<u64>> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut end = len;
    let mut chunk = vec![0u8; 1 << 16];
    while end > 0 {
        let from = end.saturating_sub(chunk.len() as u64);
        let buf = &mut chunk[..(end - from) as usize];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(buf)?;
        if end == len && buf.last() == Some(&b'\n') {
            return Ok(None);
        }
        if let Some(i) = buf.iter().rposition(|&b| b == b'\n') {
            return Ok(Some(from + i as u64 + 1));
        }
        end = from;
    }
    Ok((len > 0).then_some(0))
}

/// Positions of the columns in the file's header.
struct Columns {
    grammar: usize,
    index: usize,
    size: usize,
    solver: usize,
    family: usize,
    version: usize,
    status: usize,
    verdict: usize,
    reference: usize,
    reference_status: usize,
    time_s: usize,
    cpu_s: usize,
    max_rss_kb: usize,
    exit_code: usize,
    signal: usize,
    reference_usable: Option<usize>,
    evidence: Option<usize>,
    model_check: Option<usize>,
    decided_by: Option<usize>,
    decided_s: Option<usize>,
    mode: Option<usize>,
    check_sat: Option<usize>,
}

impl Columns {
    /// Finds every column by name; the first missing one (in the order reports have
    /// always checked them) is the error.
    fn find(path: &Path, header: &csv::StringRecord) -> Result<Columns, RowError> {
        let find = |column: &str| header.iter().position(|h| h == column);
        let pos = |column: &'static str| {
            find(column).ok_or_else(|| RowError::MissingColumn {
                path: path.to_path_buf(),
                column,
            })
        };
        let (grammar, index, solver, family, version) = (
            pos("grammar")?,
            pos("index")?,
            pos("solver")?,
            pos("family")?,
            pos("version")?,
        );
        Ok(Columns {
            grammar,
            index,
            solver,
            family,
            version,
            size: pos("size")?,
            status: pos("status")?,
            verdict: pos("verdict")?,
            reference: pos("reference")?,
            reference_status: pos("reference_status")?,
            time_s: pos("time_s")?,
            cpu_s: pos("cpu_s")?,
            max_rss_kb: pos("max_rss_kb")?,
            exit_code: pos("exit_code")?,
            signal: pos("signal")?,
            reference_usable: find("reference_usable"),
            evidence: find("evidence"),
            model_check: find("model_check"),
            decided_by: find("decided_by"),
            decided_s: find("decided_s"),
            mode: find("mode"),
            check_sat: find("check_sat"),
        })
    }
}

/// A streaming reader of a call log: [`RowReader::read_row`] refills one [`RunRow`].
pub struct RowReader {
    path: PathBuf,
    csv: csv::Reader<Box<dyn Read>>,
    columns: Columns,
    record: csv::StringRecord,
    row: RunRow,
    line: u64,
    /// Byte where the torn last line starts (plain files only).
    torn_from: Option<u64>,
    stats: ReadStats,
}

impl RowReader {
    /// Opens `path` (plain or `.gz`) and reads its header.
    pub fn open(path: &Path) -> Result<RowReader, RowError> {
        let io = |error| RowError::Io {
            path: path.to_path_buf(),
            error,
        };
        // A torn header (no newline at all) is not cut: the header check below names
        // what it lacks.
        let torn_from = if is_gz(path) {
            None
        } else {
            torn_tail(path).map_err(io)?.filter(|&at| at > 0)
        };
        let mut csv = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(open(path).map_err(io)?);
        let header = csv.headers().map_err(|error| RowError::Csv {
            path: path.to_path_buf(),
            line: 1,
            error,
        })?;
        let columns = Columns::find(path, header)?;
        Ok(RowReader {
            path: path.to_path_buf(),
            csv,
            columns,
            record: csv::StringRecord::new(),
            row: RunRow {
                grammar: String::new(),
                index: String::new(),
                size: 0,
                solver: String::new(),
                family: String::new(),
                version: String::new(),
                status: Status::Unknown,
                verdict: None,
                reference: String::new(),
                reference_status: None,
                time_s: 0.0,
                cpu_s: 0.0,
                max_rss_kb: 0,
                exit_code: None,
                signal: None,
                reference_usable: None,
                evidence: None,
                model_check: String::new(),
                decided_by: String::new(),
                decided_s: None,
                mode: None,
                check_sat: None,
            },
            line: 1,
            torn_from,
            stats: ReadStats::default(),
        })
    }

    /// Reads the next row into [`RowReader::row`]; `false` at the end of the file or
    /// at its torn last line. A malformed row is an error naming its line (and column).
    pub fn read_row(&mut self) -> Result<bool, RowError> {
        let position = self.csv.position();
        let (line, byte) = (position.line(), position.byte());
        if self.torn_from.is_some_and(|at| byte >= at) {
            self.stats.torn_last_line = true;
            return Ok(false);
        }
        match self.csv.read_record(&mut self.record) {
            Ok(false) => return Ok(false),
            Ok(true) => {}
            Err(error) => {
                return Err(RowError::Csv {
                    path: self.path.clone(),
                    line,
                    error,
                })
            }
        }
        self.line = self.record.position().map_or(line, |p| p.line());
        fill(&mut self.row, &self.record, &self.columns).map_err(|bad| RowError::BadValue {
            path: self.path.clone(),
            line: self.line,
            column: bad.column,
            value: bad.value,
            reason: bad.reason,
        })?;
        Ok(true)
    }

    /// The row last read.
    pub fn row(&self) -> &RunRow {
        &self.row
    }

    /// The 1-based line of the row last read.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// What the reader found so far besides rows (complete once `read_row` said
    /// `false`).
    pub fn stats(&self) -> ReadStats {
        self.stats
    }
}

/// Streams the rows of `path` through `f` (with each row's line), in file order.
pub fn for_each_row<E: From<RowError>>(
    path: &Path,
    mut f: impl FnMut(&RunRow, u64) -> Result<(), E>,
) -> Result<ReadStats, E> {
    let mut reader = RowReader::open(path)?;
    while reader.read_row()? {
        f(reader.row(), reader.line())?;
    }
    Ok(reader.stats())
}

/// A cell that does not hold a valid value (its line and file are added by the caller).
struct Bad {
    column: &'static str,
    value: String,
    reason: String,
}

impl Bad {
    fn new(column: &'static str, value: &str, reason: impl ToString) -> Bad {
        Bad {
            column,
            value: value.to_string(),
            reason: reason.to_string(),
        }
    }
}

fn parse<T: FromStr>(column: &'static str, text: &str) -> Result<T, Bad>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e| Bad::new(column, text, e))
}

/// An empty cell is `None`.
fn optional<T: FromStr>(column: &'static str, text: &str) -> Result<Option<T>, Bad>
where
    T::Err: std::fmt::Display,
{
    match text {
        "" => Ok(None),
        text => parse(column, text).map(Some),
    }
}

fn seconds(column: &'static str, text: &str) -> Result<f64, Bad> {
    let seconds: f64 = parse(column, text)?;
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(Bad::new(column, text, "not a non-negative number"));
    }
    Ok(seconds)
}

/// Replaces the text of `to` keeping its allocation.
fn set(to: &mut String, text: &str) {
    to.clear();
    to.push_str(text);
}

/// Fills `row` from `record`. Cells are checked in the order reports have always
/// checked them, so a row with several bad cells names the same one as before.
fn fill(row: &mut RunRow, record: &csv::StringRecord, c: &Columns) -> Result<(), Bad> {
    let field = |i: usize| record.get(i).unwrap_or("");
    row.status = parse("status", field(c.status))?;
    row.reference_status = optional("reference_status", field(c.reference_status))?;
    row.size = parse("size", field(c.size))?;
    row.verdict = optional("verdict", field(c.verdict))?;
    row.evidence = match c.evidence {
        None => row.verdict.and_then(Evidence::implied_by),
        Some(i) => optional("evidence", field(i))?,
    };
    row.time_s = seconds("time_s", field(c.time_s))?;
    row.cpu_s = seconds("cpu_s", field(c.cpu_s))?;
    let index = field(c.index);
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Bad::new("index", index, "not a decimal number"));
    }
    set(&mut row.index, index);
    row.max_rss_kb = parse("max_rss_kb", field(c.max_rss_kb))?;
    row.exit_code = optional("exit_code", field(c.exit_code))?;
    row.signal = optional("signal", field(c.signal))?;
    row.reference_usable = match c.reference_usable.map_or("", field) {
        "" => None,
        "yes" => Some(true),
        "no" => Some(false),
        other => {
            return Err(Bad::new(
                "reference_usable",
                other,
                "expected `yes`, `no` or nothing",
            ))
        }
    };
    set(&mut row.grammar, field(c.grammar));
    set(&mut row.solver, field(c.solver));
    set(&mut row.family, field(c.family));
    set(&mut row.version, field(c.version));
    set(&mut row.reference, field(c.reference));
    set(&mut row.model_check, c.model_check.map_or("", field));
    set(&mut row.decided_by, c.decided_by.map_or("", field));
    row.decided_s = match c.decided_s.map_or("", field) {
        "" => None,
        text => Some(seconds("decided_s", text)?),
    };
    row.mode = optional("mode", c.mode.map_or("", field))?;
    row.check_sat = optional("check_sat", c.check_sat.map_or("", field))?;
    if let Some(verdict) = row.verdict {
        let (verdict, evidence) = verdict.upgraded(row.evidence, row.model_valid());
        row.verdict = Some(verdict);
        row.evidence = evidence;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::full_row;
    use super::super::COLUMNS;
    use super::*;
    use crate::oracle::Verdict;
    use std::io::Write;

    /// The first 15 columns: the layout of files written before `reference_usable`.
    const OLD: &str = "grammar,index,size,solver,family,version,status,verdict,reference,\
                       reference_status,time_s,cpu_s,max_rss_kb,exit_code,signal";

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        if name.ends_with(GZ) {
            let mut gz = flate2::write::GzEncoder::new(
                File::create(&path).unwrap(),
                flate2::Compression::fast(),
            );
            gz.write_all(text.as_bytes()).unwrap();
            gz.finish().unwrap();
        } else {
            std::fs::write(&path, text).unwrap();
        }
        path
    }

    fn read_all(path: &Path) -> Result<(Vec<(u64, RunRow)>, ReadStats), RowError> {
        let mut rows = Vec::new();
        let stats = for_each_row(path, |row, line| {
            rows.push((line, row.clone()));
            Ok::<_, RowError>(())
        })?;
        Ok((rows, stats))
    }

    /// What et writes for `rows`.
    fn written(rows: &[RunRow]) -> String {
        let mut w = csv::Writer::from_writer(vec![]);
        for row in rows {
            w.serialize(row).unwrap();
        }
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    fn rows_written() -> Vec<RunRow> {
        let second = RunRow {
            index: "123456789012345678901234567890".into(),
            solver: "yices-2.6.5".into(),
            status: Status::Timeout,
            verdict: Some(Verdict::Timeout),
            evidence: None,
            exit_code: None,
            signal: Some(9),
            reference_usable: Some(true),
            model_check: String::new(),
            decided_by: String::new(),
            decided_s: None,
            mode: None,
            ..full_row()
        };
        vec![full_row(), second]
    }

    #[test]
    fn reads_back_what_et_writes_plain_and_gzip() {
        let dir = tempfile::tempdir().unwrap();
        let rows = rows_written();
        let text = written(&rows);
        for name in ["runs.csv", "runs.csv.gz"] {
            let path = write(dir.path(), name, &text);
            let (read, stats) = read_all(&path).unwrap();
            assert_eq!(
                read,
                vec![(2, rows[0].clone()), (3, rows[1].clone())],
                "{name}"
            );
            assert!(!stats.torn_last_line);
        }
    }

    #[test]
    fn a_torn_last_line_is_left_out_and_reported() {
        let dir = tempfile::tempdir().unwrap();
        let text = written(&rows_written());
        let torn = &text[..text.len() - 10];
        let path = write(dir.path(), "runs.csv", torn);
        let (read, stats) = read_all(&path).unwrap();
        assert_eq!(read.len(), 1);
        assert!(stats.torn_last_line);
        let cut = torn.rfind('\n').unwrap() as u64 + 1;
        assert_eq!(torn_tail(&path).unwrap(), Some(cut));
        // Only the last line may be torn: a short row before it is a CSV error.
        let mut lines = text.lines();
        let (header, first) = (lines.next().unwrap(), lines.next().unwrap());
        let middle = format!("{header}\ncore,9,5\n{first}\n");
        let path = write(dir.path(), "middle.csv", &middle);
        let err = read_all(&path).unwrap_err().to_string();
        assert!(
            err.contains("middle.csv:2:") && err.contains("fields"),
            "{err}"
        );
    }

    #[test]
    fn torn_tail_finds_the_cut() {
        let dir = tempfile::tempdir().unwrap();
        for (text, cut) in [
            ("", None),
            ("a,b\n", None),
            ("a,b", Some(0)),
            ("a,b\n1,", Some(4)),
        ] {
            let path = write(dir.path(), "t.csv", text);
            assert_eq!(torn_tail(&path).unwrap(), cut, "{text:?}");
        }
        // A last line longer than the chunk read backwards.
        let long = format!("a\n{}", "x".repeat(200_000));
        let path = write(dir.path(), "t.csv", &long);
        assert_eq!(torn_tail(&path).unwrap(), Some(2));
    }

    #[test]
    fn older_files_read_with_the_later_columns_empty() {
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            "{OLD}\n\
             ints,7,5,z3-4.8.7,z3,4.8.7,sat,invalid_model,cvc5,sat,0.01,0.02,100,1,\n\
             ints,8,5,z3-4.8.7,z3,4.8.7,unsat,unsound,cvc5,sat,0.01,0.02,100,0,\n\
             ints,9,5,z3-4.8.7,z3,4.8.7,crash,crash,cvc5,sat,0.01,0.02,100,,6\n"
        );
        let path = write(dir.path(), "runs.csv.gz", &text);
        let (read, _) = read_all(&path).unwrap();
        let evidence: Vec<_> = read.iter().map(|(_, r)| r.evidence).collect();
        assert_eq!(
            evidence,
            [Some(Evidence::SelfCheck), Some(Evidence::Reference), None]
        );
        let last = &read[2].1;
        assert_eq!((last.exit_code, last.signal), (None, Some(6)));
        assert!(read
            .iter()
            .all(|(_, r)| r.reference_usable.is_none() && r.model_check.is_empty()));

        // Reordered columns, an unknown one, `evidence` present but empty.
        let text = "evidence,extra,".to_string()
            + OLD
            + "\n,x,ints,8,5,z3,z3,4.8.7,unsat,unsound,cvc5,sat,0.01,0.02,100,0,\n";
        let path = write(dir.path(), "reordered.csv", &text);
        let (read, _) = read_all(&path).unwrap();
        assert_eq!(read[0].1.evidence, None);
        assert_eq!(read[0].1.verdict, Some(Verdict::Unsound));
    }

    /// A file written before `validator_false_alarm` existed called a self-check failure
    /// on a model et found valid an invalid model; it reads as the false alarm it was.
    /// A self-check failure et could not evaluate stays an invalid model.
    #[test]
    fn an_old_self_check_failure_on_a_valid_model_reads_as_a_false_alarm() {
        let dir = tempfile::tempdir().unwrap();
        let header = COLUMNS.join(",");
        let text = format!(
            "{header}\n\
             ints,7,5,z3,z3,4.8.5,sat,invalid_model,cvc5,sat,0.01,0.02,100,1,,no,self-check,valid,,,,\n\
             ints,8,5,z3,z3,4.8.5,sat,invalid_model,cvc5,sat,0.01,0.02,100,1,,no,self-check,undetermined,,,,\n\
             ints,9,5,z3,z3,4.8.5,sat,invalid_model,cvc5,sat,0.01,0.02,100,1,,no,model,invalid,,,,\n"
        );
        let path = write(dir.path(), "runs.csv", &text);
        let (read, _) = read_all(&path).unwrap();
        let judged: Vec<_> = read.iter().map(|(_, r)| (r.verdict, r.evidence)).collect();
        assert_eq!(
            judged,
            [
                (Some(Verdict::ValidatorFalseAlarm), Some(Evidence::Model)),
                (Some(Verdict::InvalidModel), Some(Evidence::SelfCheck)),
                (Some(Verdict::InvalidModel), Some(Evidence::Model)),
            ]
        );
        assert!(read[0].1.solved() && !read[1].1.solved());
    }

    #[test]
    fn bad_cells_are_errors_with_line_column_and_value() {
        let dir = tempfile::tempdir().unwrap();
        let good = "ints,7,5,z3,z3,4.8.7,sat,,cvc5,sat,0.01,0.02,100,0,,yes,,valid,,,session,2";
        let header = COLUMNS.join(",");
        for (column, value, reason) in [
            ("status", "sati", "unknown status `sati`"),
            ("verdict", "wrong", "unknown verdict `wrong`"),
            ("reference_status", "maybe", "unknown status"),
            ("size", "-1", "invalid digit"),
            ("time_s", "-0.5", "not a non-negative number"),
            ("cpu_s", "NaN", "not a non-negative number"),
            ("index", "1e3", "not a decimal number"),
            ("max_rss_kb", "lots", "invalid digit"),
            ("exit_code", "x", "invalid digit"),
            ("reference_usable", "maybe", "expected `yes`, `no`"),
            ("evidence", "hunch", "unknown evidence `hunch`"),
            ("decided_s", "soon", "invalid float"),
            ("mode", "eager", "not a mode"),
            ("check_sat", "second", "invalid digit"),
        ] {
            let at = COLUMNS.iter().position(|c| *c == column).unwrap();
            let mut cells: Vec<&str> = good.split(',').collect();
            cells[at] = value;
            let text = format!("{header}\n{good}\n{}\n", cells.join(","));
            let path = write(dir.path(), "bad.csv", &text);
            let err = read_all(&path).unwrap_err();
            assert!(
                matches!(&err, RowError::BadValue { line: 3, column: c, value: v, .. }
                    if *c == column && v == value),
                "{err:?}"
            );
            let message = err.to_string();
            assert!(
                message.contains(&format!(
                    "bad.csv:3: column `{column}`: bad value `{value}`: "
                )) && message.contains(reason),
                "{message}"
            );
        }
        let path = write(dir.path(), "nocol.csv", "grammar,index\nints,1\n");
        let err = read_all(&path).unwrap_err().to_string();
        assert!(
            err.ends_with("nocol.csv: header has no column `solver`"),
            "{err}"
        );
    }

    /// The reused row keeps its buffers: a row no longer than the one before refills
    /// them in place.
    #[test]
    fn the_row_is_refilled_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let mut rows = rows_written();
        rows[1].solver = "z3".into();
        let path = write(dir.path(), "runs.csv", &written(&rows));
        let mut reader = RowReader::open(&path).unwrap();
        assert!(reader.read_row().unwrap());
        let buffer = reader.row().solver.as_ptr();
        assert!(reader.read_row().unwrap());
        assert_eq!(reader.row().solver, "z3");
        assert_eq!(reader.row().solver.as_ptr(), buffer);
        assert!(!reader.read_row().unwrap());
        assert!(!reader.read_row().unwrap(), "the end stays the end");
    }
}
