//! Reference answers: which solver judges which, and a cache of the references'
//! answers (`DIR/reference.csv`) so that later runs over the same formulas — a resume,
//! or a study of other versions pointed at the same cache — do not run them again.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use num_bigint::BigUint;
use num_traits::CheckedSub;

use crate::oracle::{self, Status};
use crate::solvers::{Pool, SolverConfig};

use super::plan::Plan;

/// The reference of each solver under test, by name (`None`: nothing to judge
/// against), by the oracle's rule ([`oracle::default_references`]) over the whole pool:
/// a reference may be a solver that is not under test.
pub fn assign(
    pool: &Pool,
    under_test: &[SolverConfig],
    explicit: Option<&str>,
) -> Result<HashMap<String, Option<SolverConfig>>, oracle::UnknownReference> {
    let solvers: Vec<oracle::PoolSolver> = pool
        .solvers
        .iter()
        .map(|s| oracle::PoolSolver {
            name: &s.name,
            family: &s.family,
            version: &s.version,
        })
        .collect();
    let references = oracle::default_references(&solvers, explicit)?;
    Ok(under_test
        .iter()
        .map(|s| {
            let reference = pool
                .solvers
                .iter()
                .position(|p| p.name == s.name)
                .and_then(|i| references[i])
                .map(|r| pool.solvers[r].clone());
            (s.name.clone(), reference)
        })
        .collect())
}

/// One cached reference answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReferenceRow {
    /// Grammar name.
    pub grammar: String,
    /// Global index.
    pub index: String,
    /// Reference solver name.
    pub solver: String,
    /// Its status.
    pub status: String,
    /// Its wall time.
    pub time_s: f64,
    /// The timeout it ran under: an undecided answer only stands for timeouts up to it.
    pub timeout_s: f64,
}

/// The reference cache of a run: the cached answers this run can use, kept compactly
/// (by formula offset and reference), so a shared cache of millions of rows stays
/// cheap to hold.
pub struct ReferenceCache {
    path: PathBuf,
    grammar: String,
    references: Vec<String>,
    known: HashMap<(u64, u16), Status>,
}

impl ReferenceCache {
    /// Reads the cache at `path` (missing is empty), keeping the answers that this run
    /// could use: rows of `grammar` by one of `references`, for a formula of `plan` that
    /// `wanted` accepts (one still to do), that stand at `timeout_s` — a decided answer
    /// always does, an undecided one only if it ran at least that long.
    pub fn load(
        path: &Path,
        grammar: &str,
        references: &[String],
        plan: &Plan,
        timeout_s: f64,
        wanted: impl Fn(u64) -> bool,
    ) -> anyhow::Result<ReferenceCache> {
        let mut known = HashMap::new();
        if path.exists() {
            super::ledger::repair_tail(path)?;
            let mut reader = csv::Reader::from_reader(BufReader::new(File::open(path)?));
            for (i, row) in reader.deserialize::<ReferenceRow>().enumerate() {
                let at = || format!("{}:{}", path.display(), i + 2);
                let row = row.map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
                let Some(reference) = references.iter().position(|r| *r == row.solver) else {
                    continue;
                };
                if row.grammar != grammar {
                    continue;
                }
                let index: BigUint = row.index.parse().map_err(|_| {
                    anyhow::anyhow!("{}: index `{}` is not a number", at(), row.index)
                })?;
                let Some(offset) = index
                    .checked_sub(&plan.start)
                    .and_then(|o| u64::try_from(o).ok())
                    .filter(|&o| o < plan.n && wanted(o))
                else {
                    continue;
                };
                let status: Status = row
                    .status
                    .parse()
                    .map_err(|e| anyhow::anyhow!("{}: {e}", at()))?;
                if status.is_decided() || row.timeout_s >= timeout_s {
                    known.insert((offset, reference as u16), status);
                }
            }
        }
        Ok(ReferenceCache {
            path: path.to_path_buf(),
            grammar: grammar.to_string(),
            references: references.to_vec(),
            known,
        })
    }

    /// The cached answer of `solver` on the formula at `offset`, if one stands.
    pub fn get(&self, solver: &str, offset: u64) -> Option<Status> {
        let reference = self.references.iter().position(|r| r == solver)?;
        self.known.get(&(offset, reference as u16)).copied()
    }

    /// Opens the file for appending, writing the header if it is new.
    pub fn appender(&self) -> anyhow::Result<ReferenceAppender> {
        let fresh = !self.path.exists() || std::fs::metadata(&self.path)?.len() == 0;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        let writer = csv::WriterBuilder::new()
            .has_headers(fresh)
            .from_writer(file);
        Ok(ReferenceAppender {
            writer,
            grammar: self.grammar.clone(),
        })
    }
}

/// Appends new reference answers as they come.
pub struct ReferenceAppender {
    writer: csv::Writer<File>,
    grammar: String,
}

impl ReferenceAppender {
    /// Records one answer and flushes it.
    pub fn record(
        &mut self,
        index: &str,
        solver: &str,
        status: Status,
        time_s: f64,
        timeout_s: f64,
    ) -> anyhow::Result<()> {
        self.writer.serialize(ReferenceRow {
            grammar: self.grammar.clone(),
            index: index.to_string(),
            solver: solver.to_string(),
            status: status.label().to_string(),
            time_s,
            timeout_s,
        })?;
        self.writer.flush()?;
        Ok(())
    }
}

impl Drop for ReferenceAppender {
    fn drop(&mut self) {
        let _ = self.writer.flush();
    }
}
