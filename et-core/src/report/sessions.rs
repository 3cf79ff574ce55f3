//! Calls a solver session answered differently from a fresh process: each run
//! directory's `session-disagreements.csv` (written by `et run --mode session` when the
//! fresh confirmation of a finding, or the audit, saw another answer beyond time),
//! counted per solver and grammar with the first example. A disagreement is a finding
//! about the solver's reset (state a session keeps), not about the formula's answer:
//! the row of the call records the fresh answer.
//!
//! Directories written before et had sessions have no such file: no table for them.

use std::collections::BTreeMap;

use crate::campaign::row::{SessionDisagreement, DISAGREEMENTS_CSV};

use super::load::{find_csv, open_csv, RunDir};
use super::ReportError;

/// The disagreements of one solver on one grammar, over every input directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreements {
    /// The solver.
    pub solver: String,
    /// The grammar.
    pub grammar: String,
    /// How many, found by confirming a finding.
    pub by_confirmation: u64,
    /// How many, found by the audit.
    pub by_audit: u64,
    /// The first one (smallest formula): its index, and what the session and the fresh
    /// process answered.
    pub example: String,
}

/// Where a formula comes in enumeration order: size, then index length and digits.
type Order = (u32, usize, String);

/// Per solver and grammar, the session/fresh disagreements of `dirs`; `None` when no
/// directory has a `session-disagreements.csv`.
pub fn read_disagreements(dirs: &[RunDir]) -> Result<Option<Vec<Disagreements>>, ReportError> {
    let mut any = false;
    let mut by_pair: BTreeMap<(String, String), (Disagreements, Order)> = BTreeMap::new();
    for dir in dirs {
        let Some(path) = find_csv(&dir.path, DISAGREEMENTS_CSV)? else {
            continue;
        };
        any = true;
        let mut reader = csv::Reader::from_reader(open_csv(&path)?);
        for (i, row) in reader.deserialize::<SessionDisagreement>().enumerate() {
            let d = row.map_err(|error| ReportError::Csv {
                path: path.clone(),
                line: i as u64 + 2,
                error,
            })?;
            let order = (d.size, d.index.len(), d.index.clone());
            let example = format!("{}: session {}, fresh {}", d.index, d.session, d.fresh);
            let (entry, first) = by_pair
                .entry((d.solver.clone(), d.grammar.clone()))
                .or_insert_with(|| {
                    let empty = Disagreements {
                        solver: d.solver.clone(),
                        grammar: d.grammar.clone(),
                        by_confirmation: 0,
                        by_audit: 0,
                        example: example.clone(),
                    };
                    (empty, order.clone())
                });
            if d.found_by == "audit" {
                entry.by_audit += 1;
            } else {
                entry.by_confirmation += 1;
            }
            if order < *first {
                *first = order;
                entry.example = example;
            }
        }
    }
    Ok(any.then(|| by_pair.into_values().map(|(d, _)| d).collect()))
}
