//! What an earlier run in the same directory already finished, read back from
//! `runs.csv` for `--resume` through the one reader of the call log
//! ([`super::row::read`]): complete formulas are skipped, partly done ones only run
//! their missing solvers. Also repairs the file's end before et appends to it, since a
//! power loss can leave half a row.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader};
use std::path::Path;

use num_bigint::BigUint;
use num_traits::CheckedSub;

use crate::judging::reference::Ruling;
use crate::oracle::{Status, Verdict};

use super::row::once::{Admission, CallsOnce, LeftOut};
use super::row::read::torn_tail;
use super::row::{RowError, RowReader};

/// Rows already in `runs.csv`, by formula. Memory is one bit per formula of the study
/// plus the few formulas that are partly done, so resuming a run of 10^8 formulas
/// costs megabytes, not gigabytes.
#[derive(Debug, Default)]
pub struct Ledger {
    /// Bit `offset` is set when the formula at that offset from the study's start has a
    /// row for every solver.
    complete: Vec<u64>,
    complete_count: u64,
    /// Formulas with rows for some solvers only: solver name → its answer (which may
    /// judge the others, when that solver is their reference).
    partial: HashMap<u64, HashMap<String, Ruling>>,
    /// Number of rows read.
    pub rows: u64,
    /// Rows that are not calls of the run (a call's second row, another solver's),
    /// left out.
    pub left_out: LeftOut,
    /// Bytes of an unterminated last line cut off the file before reading (a run
    /// killed while it wrote a row): that formula's call is made again.
    pub torn_bytes: Option<u64>,
    /// Per solver (in the order given to [`Ledger::load`]), the statuses of its calls
    /// already in the file: what the end-of-run summary folds in.
    pub earlier_statuses: Vec<[u64; Status::COUNT]>,
    /// Per solver, the verdicts of its calls already in the file.
    pub earlier_verdicts: Vec<[u64; Verdict::COUNT]>,
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
    /// A row that is not a row of et (or a header without et's columns, line 1).
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

impl LedgerError {
    /// The reader's error, with what it says about the file as the reason.
    fn read(e: RowError) -> LedgerError {
        let row = |path: std::path::PathBuf, line, reason| LedgerError::Row {
            path: path.display().to_string(),
            line,
            reason,
        };
        match e {
            RowError::Io { path, error } => LedgerError::Io {
                path: path.display().to_string(),
                source: error,
            },
            RowError::Csv { path, line, error } => row(path, line, error.to_string()),
            RowError::MissingColumn { path, column } => {
                row(path, 1, format!("header has no column `{column}`"))
            }
            RowError::BadValue {
                path,
                line,
                column,
                value,
                reason,
            } => row(
                path,
                line,
                format!("column `{column}`: bad value `{value}`: {reason}"),
            ),
        }
    }
}

impl Ledger {
    /// Reads `runs.csv` (cutting off an unterminated last line) for a study starting at
    /// `start`, run with the solvers `solvers`.
    pub fn load(path: &Path, start: &BigUint, solvers: &[String]) -> Result<Ledger, LedgerError> {
        let torn_bytes = repair_tail(path).map_err(|source| LedgerError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let mut reader = RowReader::open(path).map_err(LedgerError::read)?;
        let column: HashMap<&str, usize> = solvers
            .iter()
            .enumerate()
            .map(|(i, s)| (s.as_str(), i))
            .collect();
        // Rows outside the study are errors below, so the range is not bounded here.
        let mut calls = CallsOnce::new(start, u64::MAX, solvers.iter().map(String::as_str));
        // A formula's rows are written together, so formulas seen but not yet complete
        // stay few while reading; what is left at the end was cut off mid-formula.
        let mut pending: HashMap<u64, Vec<Option<Ruling>>> = HashMap::new();
        let mut ledger = Ledger {
            torn_bytes,
            earlier_statuses: vec![[0; Status::COUNT]; solvers.len()],
            earlier_verdicts: vec![[0; Verdict::COUNT]; solvers.len()],
            ..Ledger::default()
        };
        while reader.read_row().map_err(LedgerError::read)? {
            let (row, line) = (reader.row(), reader.line());
            let bad = |reason: String| LedgerError::Row {
                path: path.display().to_string(),
                line,
                reason,
            };
            ledger.rows += 1;
            // The first row of a call counts; a second one, or another solver's, not.
            if calls.admit(row) != Admission::Call {
                continue;
            }
            let Some(&solver) = column.get(row.solver.as_str()) else {
                continue; // not a solver of this run (admit counted it)
            };
            ledger.earlier_statuses[solver][row.status as usize] += 1;
            if let Some(v) = row.verdict {
                ledger.earlier_verdicts[solver][v as usize] += 1;
            }
            let index: BigUint = row
                .index
                .parse()
                .map_err(|_| bad(format!("index `{}` is not a number", row.index)))?;
            let offset = index
                .checked_sub(start)
                .and_then(|o| u64::try_from(o).ok())
                .ok_or_else(|| bad(format!("index {index} is outside this study")))?;
            // As a judge, an invalid model decided nothing; a validator false alarm (a
            // valid model the solver's own check rejected) is a clean `sat`.
            let invalid_model = row.verdict == Some(Verdict::InvalidModel);
            if ledger.is_complete(offset) {
                continue;
            }
            let done = pending
                .entry(offset)
                .or_insert_with(|| vec![None; solvers.len()]);
            done[solver] = Some(Ruling {
                status: row.status,
                invalid_model,
            });
            if done.iter().all(Option::is_some) {
                pending.remove(&offset);
                ledger.mark_complete(offset);
            }
        }
        ledger.partial = pending
            .into_iter()
            .map(|(offset, done)| {
                let known = solvers
                    .iter()
                    .zip(done)
                    .filter_map(|(name, status)| Some((name.clone(), status?)))
                    .collect();
                (offset, known)
            })
            .collect();
        ledger.left_out = calls.left_out();
        Ok(ledger)
    }

    /// Whether every solver already has a row for the formula.
    pub fn is_complete(&self, offset: u64) -> bool {
        let word = (offset / 64) as usize;
        self.complete
            .get(word)
            .is_some_and(|w| w & (1 << (offset % 64)) != 0)
    }

    fn mark_complete(&mut self, offset: u64) {
        let word = (offset / 64) as usize;
        if self.complete.len() <= word {
            self.complete.resize(word + 1, 0);
        }
        self.complete[word] |= 1 << (offset % 64);
        self.complete_count += 1;
    }

    /// The solvers that already have a row for the formula, with their answers.
    pub fn done(&self, offset: u64) -> Option<&HashMap<String, Ruling>> {
        self.partial.get(&offset)
    }

    /// Number of complete formulas.
    pub fn complete_count(&self) -> u64 {
        self.complete_count
    }
}

/// Cuts an unterminated last line (where the reader's [`torn_tail`] finds it; a file
/// without any newline holds only a torn header and is emptied): rows are written whole,
/// so only a crash of the machine mid-write can leave one, and that row will be run
/// again. This is a write, before et appends to the file; readers only leave the line
/// out. Returns how many bytes were cut, if any.
pub fn repair_tail(path: &Path) -> std::io::Result<Option<u64>> {
    match torn_tail(path)? {
        Some(keep) => {
            let file = OpenOptions::new().write(true).open(path)?;
            let len = file.metadata()?.len();
            file.set_len(keep)?;
            Ok(Some(len.saturating_sub(keep)))
        }
        None => Ok(None),
    }
}

/// Counts data rows of a CSV file (for tests and summaries).
pub fn count_rows(path: &Path) -> std::io::Result<u64> {
    let reader = BufReader::new(File::open(path)?);
    Ok(reader.lines().count().saturating_sub(1) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Status;

    fn row(index: u32, solver: &str, status: &str) -> String {
        format!("g,{index},5,{solver},f,1,{status},,,,0.1,0.1,100,0,,,,,,,,\n")
    }

    #[test]
    fn reads_complete_partial_and_torn_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let mut text = super::super::row::COLUMNS.join(",") + "\n";
        text += &row(100, "x", "sat");
        text += &row(101, "y", "unsat");
        text += &row(100, "y", "sat");
        text += &row(101, "other", "sat");
        text += "g,102,5,x,f,1,sa"; // torn by a crash mid-write
        std::fs::write(&path, &text).unwrap();
        let solvers = ["x".to_string(), "y".to_string()];
        let ledger = Ledger::load(&path, &BigUint::from(100u32), &solvers).unwrap();
        assert!(ledger.is_complete(0));
        assert!(!ledger.is_complete(1) && !ledger.is_complete(2));
        assert_eq!(ledger.complete_count(), 1);
        let partial = ledger.done(1).unwrap();
        assert_eq!(partial.len(), 1);
        assert_eq!(partial["y"].status, Status::Unsat);
        assert!(ledger.done(2).is_none(), "the torn row is dropped");
        let repaired = std::fs::read_to_string(&path).unwrap();
        assert!(
            repaired.ends_with('\n') && !repaired.contains(",102,"),
            "{repaired}"
        );
        assert_eq!(ledger.rows, 4);
    }

    /// A study begun by an older et has fewer columns; its rows (and invalid models,
    /// which cannot judge) read all the same.
    #[test]
    fn reads_files_without_the_newer_columns() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let old = &super::super::row::COLUMNS[..15];
        assert_eq!(old.last(), Some(&"signal"));
        let text = old.join(",")
            + "\n"
            + "g,0,5,x,f,1,sat,invalid_model,,,0.1,0.1,100,1,\n"
            + "g,1,5,x,f,1,unsat,,,,0.1,0.1,100,0,\n";
        std::fs::write(&path, text).unwrap();
        let solvers = ["x".to_string(), "y".to_string()];
        let ledger = Ledger::load(&path, &BigUint::from(0u32), &solvers).unwrap();
        assert_eq!(ledger.rows, 2);
        let first = ledger.done(0).unwrap()["x"];
        assert!(first.invalid_model && !first.usable());
        assert!(ledger.done(1).unwrap()["x"].usable());
    }

    #[test]
    fn rows_outside_the_study_are_errors_with_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let text = super::super::row::COLUMNS.join(",") + "\n" + &row(3, "x", "sat");
        std::fs::write(&path, text).unwrap();
        let err = Ledger::load(&path, &BigUint::from(10u32), &["x".into()]).unwrap_err();
        assert!(
            err.to_string()
                .contains("runs.csv:2: not a row of et's runs.csv: index 3 is outside this study"),
            "{err}"
        );
        // A cell the reader refuses: the same kind of error, naming column and value.
        let text = super::super::row::COLUMNS.join(",") + "\n" + &row(10, "x", "sa");
        std::fs::write(&path, text).unwrap();
        let err = Ledger::load(&path, &BigUint::from(10u32), &["x".into()]).unwrap_err();
        assert!(matches!(err, LedgerError::Row { line: 2, .. }), "{err:?}");
        assert!(
            err.to_string().contains(
                "runs.csv:2: not a row of et's runs.csv: column `status`: bad value `sa`"
            ),
            "{err}"
        );
    }
}
