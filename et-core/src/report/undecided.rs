//! Formulas nobody decided: each run directory's `undecided.csv` (written by `et run`
//! for every formula that no solver of the pool decided and no witness of et's proves
//! sat), counted per grammar with the smallest such formula. A tiny formula that every
//! solver fails on is the strongest performance finding there is.
//!
//! Directories written before et listed them have no `undecided.csv`: they count as
//! having none listed, and the report shows no table for them.

use std::collections::{BTreeMap, BTreeSet};

use crate::campaign::row::{UndecidedRow, UNDECIDED_CSV};

use super::load::{find_csv, open_csv, RunDir};
use super::ReportError;

/// The formulas nobody decided in one grammar, over every input directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecided {
    /// The grammar.
    pub grammar: String,
    /// How many formulas (distinct indices).
    pub formulas: u64,
    /// The smallest of them: its size, then its index (the first in enumeration order).
    pub smallest_size: u32,
    /// The smallest one's global index.
    pub smallest_index: String,
    /// What the solvers answered on the smallest one (`solver status [time]`, by solver).
    pub smallest_answers: String,
}

/// The lines of one grammar's undecided formulas, by (size, index length, index): the
/// first is the smallest formula, the first in enumeration order.
type ByFormula = BTreeMap<(u32, usize, String), Vec<UndecidedRow>>;

/// Per grammar, the formulas of `dirs` that nobody decided; `None` when no directory has
/// an `undecided.csv` (runs made before et wrote it).
pub fn read_undecided(dirs: &[RunDir]) -> Result<Option<Vec<Undecided>>, ReportError> {
    let mut any = false;
    let mut by_grammar: BTreeMap<String, ByFormula> = BTreeMap::new();
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for dir in dirs {
        let Some(path) = find_csv(&dir.path, UNDECIDED_CSV)? else {
            continue;
        };
        any = true;
        let mut reader = csv::Reader::from_reader(open_csv(&path)?);
        for (i, row) in reader.deserialize::<UndecidedRow>().enumerate() {
            let row = row.map_err(|error| ReportError::Csv {
                path: path.clone(),
                line: i as u64 + 2,
                error,
            })?;
            seen.insert((row.grammar.clone(), row.index.clone()));
            // Indices order by length, then digits: the enumeration's order.
            let key = (row.size, row.index.len(), row.index.clone());
            by_grammar
                .entry(row.grammar.clone())
                .or_default()
                .entry(key)
                .or_default()
                .push(row);
        }
    }
    if !any {
        return Ok(None);
    }
    Ok(Some(
        by_grammar
            .into_iter()
            .filter_map(|(grammar, formulas)| {
                let count = seen.iter().filter(|(g, _)| *g == grammar).count() as u64;
                let ((size, _, index), answers) = formulas.into_iter().next()?;
                let answers: Vec<String> = answers
                    .iter()
                    .map(|a| match a.time_s {
                        Some(t) => format!("{} {} {t:.2} s", a.solver, a.status),
                        None => format!("{} {}", a.solver, a.status),
                    })
                    .collect();
                Some(Undecided {
                    grammar,
                    formulas: count,
                    smallest_size: size,
                    smallest_index: index,
                    smallest_answers: answers.join(", "),
                })
            })
            .collect(),
    ))
}
