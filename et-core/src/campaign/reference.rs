//! The reference cache: the references' answers (`DIR/reference.csv`), so that later
//! runs over the same formulas — a resume, or a study of other versions pointed at the
//! same cache — do not run them again. Who judges whom is the pool's rules
//! ([`crate::solvers::reference_rules`]); which judge's answer counts, and the answer
//! itself, are judging's ([`crate::judging::reference`]).
//!
//! The cache also keeps et's witness searches, as rows of a pseudo-solver named for
//! the search's bound ([`witness_searcher`], e.g. `et-witness-9`): status `sat` with
//! the witness in the `witness` column, or `unknown` when the search found none.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use num_bigint::BigUint;
use num_traits::CheckedSub;

use crate::judging::reference::Ruling;
use crate::oracle::Status;

use super::append::CsvAppender;
use super::error::CampaignError;
use super::plan::Plan;

/// Columns of the reference cache.
pub const CACHE_COLUMNS: &[&str] = &[
    "grammar",
    "index",
    "solver",
    "status",
    "time_s",
    "timeout_s",
    "usable",
    "witness",
];

/// Position of `usable` in [`CACHE_COLUMNS`].
const USABLE_COLUMN: usize = 6;

/// Position of `witness` in [`CACHE_COLUMNS`].
const WITNESS_COLUMN: usize = 7;

/// The name under which the cache keeps witness searches with `values` values per
/// constant: a search with another bound is another searcher.
pub fn witness_searcher(values: usize) -> String {
    format!("et-witness-{values}")
}

/// The result of a witness search: the witness as `define-fun`s, or `None` when the
/// search found none.
pub type WitnessResult = Option<String>;

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
    /// `yes` when the answer is a clean sat/unsat that can judge, `no` otherwise (an
    /// invalid model, or undecided). Caches written before et recorded it lack the
    /// column; their sat/unsat answers count as usable.
    #[serde(default)]
    pub usable: Option<String>,
    /// On a witness search's row ([`witness_searcher`]): the witness found, as
    /// `define-fun`s on one line; empty otherwise. Absent in caches written before et searched.
    #[serde(default)]
    pub witness: Option<String>,
}

/// The reference cache of a run: the cached answers this run can use, kept compactly
/// (by formula offset and reference), so a shared cache of millions of rows stays
/// cheap to hold.
pub struct ReferenceCache {
    path: PathBuf,
    grammar: String,
    references: Vec<String>,
    known: HashMap<(u64, u16), Ruling>,
    /// The witness searcher of this run, if it searches.
    searcher: Option<String>,
    /// Cached witness searches by formula offset.
    witnesses: HashMap<u64, WitnessResult>,
}

impl ReferenceCache {
    /// Reads the cache at `path` (missing is empty), keeping the answers that this run
    /// could use: rows of `grammar` by one of `references`, for a formula of `plan` that
    /// `wanted` accepts (one still to do), that stand at `timeout_s` — a decided answer
    /// always does, an undecided one only if it ran at least that long — and the
    /// witness searches of `searcher` (see [`witness_searcher`]) on those formulas.
    pub fn load(
        path: &Path,
        grammar: &str,
        references: &[String],
        searcher: Option<&str>,
        plan: &Plan,
        timeout_s: f64,
        wanted: impl Fn(u64) -> bool,
    ) -> Result<ReferenceCache, CampaignError> {
        let mut known = HashMap::new();
        let mut witnesses = HashMap::new();
        if path.exists() {
            if !path.is_file() {
                return Err(CampaignError::BadCache {
                    path: path.to_path_buf(),
                    line: 1,
                    reason: "not a regular file".to_string(),
                });
            }
            super::ledger::repair_tail(path).map_err(CampaignError::io("cannot repair", path))?;
            let file = File::open(path).map_err(CampaignError::io("cannot read", path))?;
            let mut reader = csv::Reader::from_reader(BufReader::new(file));
            for (i, row) in reader.deserialize::<ReferenceRow>().enumerate() {
                let bad = |reason: String| CampaignError::BadCache {
                    path: path.to_path_buf(),
                    line: i as u64 + 2,
                    reason,
                };
                let row = row.map_err(|e| bad(e.to_string()))?;
                let reference = references.iter().position(|r| *r == row.solver);
                let is_searcher = searcher == Some(row.solver.as_str());
                if row.grammar != grammar || (reference.is_none() && !is_searcher) {
                    continue;
                }
                let index: BigUint = row
                    .index
                    .parse()
                    .map_err(|_| bad(format!("index `{}` is not a number", row.index)))?;
                let Some(offset) = index
                    .checked_sub(&plan.start)
                    .and_then(|o| u64::try_from(o).ok())
                    .filter(|&o| o < plan.n && wanted(o))
                else {
                    continue;
                };
                let status: Status = row.status.parse().map_err(|e| bad(format!("{e}")))?;
                let Some(reference) = reference else {
                    let found = match status {
                        Status::Sat => Some(row.witness.unwrap_or_default()),
                        Status::Unknown => None,
                        other => {
                            return Err(bad(format!(
                                "a witness search's status is `{other}`, not sat or unknown"
                            )))
                        }
                    };
                    witnesses.insert(offset, found);
                    continue;
                };
                let invalid_model = match row.usable.as_deref() {
                    None | Some("") => false,
                    Some("yes") => false,
                    // A sat that cannot judge is an invalid model; an undecided answer
                    // is unusable by its status alone.
                    Some("no") => status.is_decided(),
                    Some(other) => return Err(bad(format!("usable is `{other}`, not yes or no"))),
                };
                if status.is_decided() || row.timeout_s >= timeout_s {
                    known.insert(
                        (offset, reference as u16),
                        Ruling {
                            status,
                            invalid_model,
                        },
                    );
                }
            }
        }
        Ok(ReferenceCache {
            path: path.to_path_buf(),
            grammar: grammar.to_string(),
            references: references.to_vec(),
            known,
            searcher: searcher.map(str::to_string),
            witnesses,
        })
    }

    /// The cached witness search on the formula at `offset`, if there is one.
    pub fn witness(&self, offset: u64) -> Option<&WitnessResult> {
        self.witnesses.get(&offset)
    }

    /// The cached answer of `solver` on the formula at `offset`, if one stands.
    pub fn get(&self, solver: &str, offset: u64) -> Option<Ruling> {
        let reference = self.references.iter().position(|r| r == solver)?;
        self.known.get(&(offset, reference as u16)).copied()
    }

    /// Opens the file for appending, writing the header if it is new.
    pub fn appender(&self) -> Result<ReferenceAppender, CampaignError> {
        Ok(ReferenceAppender {
            out: CsvAppender::open(&self.path, CACHE_COLUMNS)?,
            grammar: self.grammar.clone(),
            searcher: self.searcher.clone(),
        })
    }
}

/// A new reference answer to cache: solver, answer, wall seconds.
pub type NewAnswer = (String, Ruling, f64);

/// Appends new reference answers as they come, whole.
pub struct ReferenceAppender {
    out: CsvAppender,
    grammar: String,
    searcher: Option<String>,
}

impl ReferenceAppender {
    /// Records the new answers on one formula, and the witness search made on it if
    /// any, in one write.
    pub fn record(
        &mut self,
        index: &str,
        answers: &[NewAnswer],
        witness: Option<&WitnessResult>,
        timeout_s: f64,
    ) -> Result<(), CampaignError> {
        // A cache begun by an older et has no `usable` column: an answer that cannot
        // judge is left out of it rather than read back later as a decided one.
        let records_usability = self.out.has_column(USABLE_COLUMN);
        let mut rows: Vec<ReferenceRow> = answers
            .iter()
            .filter(|(_, answer, _)| records_usability || !answer.invalid_model)
            .map(|(solver, answer, time_s)| ReferenceRow {
                grammar: self.grammar.clone(),
                index: index.to_string(),
                solver: solver.clone(),
                status: answer.status.label().to_string(),
                time_s: *time_s,
                timeout_s,
                usable: Some(if answer.usable() { "yes" } else { "no" }.to_string()),
                witness: None,
            })
            .collect();
        // A cache begun before et searched has no `witness` column to hold one.
        if let (Some(searcher), Some(found), true) =
            (&self.searcher, witness, self.out.has_column(WITNESS_COLUMN))
        {
            rows.push(ReferenceRow {
                grammar: self.grammar.clone(),
                index: index.to_string(),
                solver: searcher.clone(),
                status: if found.is_some() { "sat" } else { "unknown" }.to_string(),
                time_s: 0.0,
                timeout_s,
                usable: Some(if found.is_some() { "yes" } else { "no" }.to_string()),
                witness: found.clone(),
            });
        }
        self.out.append(&rows)
    }
}
