//! Reference answers: which solver judges which, and a cache of the references'
//! answers (`DIR/reference.csv`) so that later runs over the same formulas — a resume,
//! or a study of other versions pointed at the same cache — do not run them again.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::oracle::{self, Status};
use crate::solvers::{Pool, SolverConfig};

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

/// The reference cache file of a run.
pub struct ReferenceCache {
    path: PathBuf,
    grammar: String,
    known: HashMap<(String, String), (Status, f64)>,
}

impl ReferenceCache {
    /// Reads the cache at `path` (missing is empty), keeping the rows of `grammar`.
    pub fn load(path: &Path, grammar: &str) -> anyhow::Result<ReferenceCache> {
        let mut known = HashMap::new();
        if path.exists() {
            super::ledger::repair_tail(path)?;
            let mut reader = csv::Reader::from_reader(BufReader::new(File::open(path)?));
            for (i, row) in reader.deserialize::<ReferenceRow>().enumerate() {
                let row = row.map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 2))?;
                if row.grammar != grammar {
                    continue;
                }
                let status: Status = row
                    .status
                    .parse()
                    .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 2))?;
                known.insert((row.solver, row.index), (status, row.timeout_s));
            }
        }
        Ok(ReferenceCache {
            path: path.to_path_buf(),
            grammar: grammar.to_string(),
            known,
        })
    }

    /// The cached answer of `solver` on `index`, if it stands at `timeout_s`: a decided
    /// answer always does, an undecided one only if it ran at least that long.
    pub fn get(&self, solver: &str, index: &str, timeout_s: f64) -> Option<Status> {
        let (status, ran) = self.known.get(&(solver.to_string(), index.to_string()))?;
        (status.is_decided() || *ran >= timeout_s).then_some(*status)
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
