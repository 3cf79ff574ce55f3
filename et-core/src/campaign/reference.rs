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

use crate::oracle::Status;
use crate::solvers::reference_rules;
use crate::solvers::{Pool, SolverConfig};

use super::plan::Plan;

/// The judges of each solver under test on `grammar`, by name, in order (empty:
/// nothing to judge against), by the pool's reference rules
/// ([`reference_rules::assign`]): a judge may be a solver that is not under test, or a
/// variant of one (an old z3 on strings is judged by a z3 without Unicode).
pub fn assign(
    pool: &Pool,
    under_test: &[SolverConfig],
    grammar: &str,
    explicit: Option<&[String]>,
) -> Result<HashMap<String, Vec<SolverConfig>>, reference_rules::ReferenceError> {
    Ok(
        reference_rules::assign(pool, under_test, grammar, explicit)?
            .into_iter()
            .map(|j| (j.solver, j.judges))
            .collect(),
    )
}

/// Which judge's answer a call is judged by, as far as the answers known so far tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference<'a> {
    /// No judges: the call gets no soundness or performance verdict.
    None,
    /// The first judge that decided the formula, or the first judge when none of
    /// them did (its undecided answer then gives no verdict).
    Judged(&'a SolverConfig, Status),
    /// This judge's answer is needed next (the ones before it did not decide).
    Missing(&'a SolverConfig),
}

/// The published campaign's rule for an ordered list of judges: the first that
/// decides the formula is the reference. `known` gives a judge's answer if there is one.
pub fn first_decided<'a>(
    judges: &'a [SolverConfig],
    known: impl Fn(&str) -> Option<Status>,
) -> Reference<'a> {
    for judge in judges {
        match known(&judge.name) {
            Some(status) if status.is_decided() => return Reference::Judged(judge, status),
            Some(_) => continue,
            None => return Reference::Missing(judge),
        }
    }
    match judges.first() {
        Some(first) => Reference::Judged(first, known(&first.name).unwrap_or(Status::Unknown)),
        None => Reference::None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_judge_that_decides_is_the_reference() {
        let judges: Vec<SolverConfig> = ["trunk", "cvc5", "z3"]
            .iter()
            .map(|n| SolverConfig::new(n, n, "1", vec![n.to_string()]))
            .collect();
        let answers = |list: &'static [(&'static str, Status)]| {
            move |name: &str| list.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
        };
        let name = |r: Reference| match r {
            Reference::Judged(j, s) => format!("{} {}", j.name, s.label()),
            Reference::Missing(j) => format!("need {}", j.name),
            Reference::None => "none".to_string(),
        };
        assert_eq!(name(first_decided(&judges, answers(&[]))), "need trunk");
        assert_eq!(
            name(first_decided(&judges, answers(&[("trunk", Status::Unsat)]))),
            "trunk unsat"
        );
        assert_eq!(
            name(first_decided(
                &judges,
                answers(&[("trunk", Status::Timeout)])
            )),
            "need cvc5"
        );
        assert_eq!(
            name(first_decided(
                &judges,
                answers(&[("trunk", Status::Timeout), ("cvc5", Status::Sat)])
            )),
            "cvc5 sat"
        );
        assert_eq!(
            name(first_decided(
                &judges,
                answers(&[
                    ("trunk", Status::Timeout),
                    ("cvc5", Status::Unknown),
                    ("z3", Status::Crash)
                ])
            )),
            "trunk timeout"
        );
        assert_eq!(name(first_decided(&[], answers(&[]))), "none");
    }
}
