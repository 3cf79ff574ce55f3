//! What an earlier run in the same directory already finished, read back from
//! `runs.csv` for `--resume`: complete formulas are skipped, partly done ones only run
//! their missing solvers. Also repairs the file's end, since a power loss can leave half
//! a row.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use num_bigint::BigUint;
use num_traits::CheckedSub;

use crate::oracle::Status;

use super::row::RunRow;

/// Rows already in `runs.csv`, by formula.
#[derive(Debug, Default)]
pub struct Ledger {
    /// Formulas (offset from the study's start) that have a row for every solver.
    complete: HashSet<u64>,
    /// Formulas with rows for some solvers only: solver name → status.
    partial: HashMap<u64, HashMap<String, Status>>,
    /// Number of rows read.
    pub rows: u64,
}

/// `runs.csv` could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// I/O failure.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// A row that is not a row of et.
    #[error("{path}:{line}: not a row of et's runs.csv: {reason}")]
    Row {
        /// The file.
        path: String,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        reason: String,
    },
}

impl Ledger {
    /// Reads `runs.csv` (cutting off an unterminated last line) for a study starting at
    /// `start`, run with the solvers `solvers`.
    pub fn load(path: &Path, start: &BigUint, solvers: &[String]) -> Result<Ledger, LedgerError> {
        let io = |source| LedgerError::Io {
            path: path.display().to_string(),
            source,
        };
        repair_tail(path).map_err(io)?;
        let file = File::open(path).map_err(io)?;
        let mut reader = csv::Reader::from_reader(BufReader::new(file));
        let mut by_formula: HashMap<u64, HashMap<String, Status>> = HashMap::new();
        let mut ledger = Ledger::default();
        for (i, record) in reader.deserialize::<RunRow>().enumerate() {
            let line = i as u64 + 2;
            let bad = |reason: String| LedgerError::Row {
                path: path.display().to_string(),
                line,
                reason,
            };
            let row = record.map_err(|e| bad(e.to_string()))?;
            let index: BigUint = row
                .index
                .parse()
                .map_err(|_| bad(format!("index `{}` is not a number", row.index)))?;
            let offset = index
                .checked_sub(start)
                .and_then(|o| u64::try_from(o).ok())
                .ok_or_else(|| bad(format!("index {index} is outside this study")))?;
            let status: Status = row
                .status
                .parse()
                .map_err(|e: crate::oracle::ParseLabelError| bad(e.to_string()))?;
            by_formula
                .entry(offset)
                .or_default()
                .insert(row.solver, status);
            ledger.rows += 1;
        }
        for (offset, done) in by_formula {
            if solvers.iter().all(|s| done.contains_key(s)) {
                ledger.complete.insert(offset);
            } else {
                ledger.partial.insert(offset, done);
            }
        }
        Ok(ledger)
    }

    /// Whether every solver already has a row for the formula.
    pub fn is_complete(&self, offset: u64) -> bool {
        self.complete.contains(&offset)
    }

    /// The solvers that already have a row for the formula, with their statuses.
    pub fn done(&self, offset: u64) -> Option<&HashMap<String, Status>> {
        self.partial.get(&offset)
    }

    /// Number of complete formulas.
    pub fn complete_count(&self) -> u64 {
        self.complete.len() as u64
    }
}

/// Cuts an unterminated last line: rows are written whole, so only a crash of the
/// machine mid-write can leave one, and that row will be run again.
pub fn repair_tail(path: &Path) -> std::io::Result<()> {
    let mut file = OpenOptions::new().read(true).write(true).open(path)?;
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    file.seek(SeekFrom::Start(len - 1))?;
    file.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(());
    }
    // Find the last newline, scanning back in chunks.
    let mut end = len;
    let mut keep = 0;
    let mut chunk = vec![0u8; 64 * 1024];
    while end > 0 {
        let from = end.saturating_sub(chunk.len() as u64);
        let buf = &mut chunk[..(end - from) as usize];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(buf)?;
        if let Some(p) = buf.iter().rposition(|&b| b == b'\n') {
            keep = from + p as u64 + 1;
            break;
        }
        end = from;
    }
    file.set_len(keep)
}

/// Counts data rows of a CSV file (for tests and summaries).
pub fn count_rows(path: &Path) -> std::io::Result<u64> {
    let reader = BufReader::new(File::open(path)?);
    Ok(reader.lines().count().saturating_sub(1) as u64)
}
