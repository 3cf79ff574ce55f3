//! Formulas nobody decided, as triage's kind of their own: a performance finding of
//! every solver that ran on them. Each run directory's `undecided.csv` (what `et run`
//! lists: no solver of the pool decided the formula and no witness of et's proves it
//! sat) is read; the smallest formulas of each grammar are tried once more, by every
//! solver that ran on them, at the confirmation's longer limit, which separates the
//! slow (someone decides it given more time: who, and how fast) from the hopeless.

use std::collections::BTreeMap;

use num_bigint::BigUint;

use crate::campaign::row::{UndecidedRow, UNDECIDED_CSV};
use crate::enumeration::Enumeration;
use crate::grammar::Grammar;
use crate::oracle::Status;
use crate::report::load::{find_csv, open_csv};
use crate::solvers::call::CallError;

use super::calls::{CallSettings, Caller};
use super::triggers::RunDirectory;
use super::TriageError;

/// Undecided formulas of a grammar tried again at the longer limit (the smallest
/// first); the others are counted and listed in the run's `undecided.csv`.
pub const RETRIED_PER_GRAMMAR: usize = 20;

/// One formula nobody decided in a run.
#[derive(Debug, Clone)]
pub struct Undecided {
    /// Position of its directory in the triage's list.
    pub dir: usize,
    /// Grammar name.
    pub grammar: String,
    /// Global index of the formula.
    pub index: String,
    /// FEAT size of the formula.
    pub size: u32,
    /// The formula.
    pub formula: String,
    /// The SMT-LIB logic its grammar declares, if any (yices' prelude states it).
    pub logic: Option<String>,
    /// Every solver that ran on it, with its status in the run.
    pub answers: Vec<(String, String)>,
    /// What the retry at the longer limit found; `None` when it was not retried.
    pub retry: Option<Retry>,
}

/// What trying an undecided formula again at the longer limit found.
#[derive(Debug, Clone, PartialEq)]
pub enum Retry {
    /// A solver decided it: the fastest, its answer and its time.
    Slow {
        /// The solver.
        solver: String,
        /// Its answer (sat or unsat).
        status: Status,
        /// Its wall-clock seconds.
        seconds: f64,
    },
    /// Nobody decided it within the longer limit.
    Hopeless,
    /// Nobody decided it, and some solver was starved (the wall clock stopped it,
    /// twice, before it used its CPU budget): the machine was too busy to tell.
    Starved,
}

/// A formula of `undecided.csv` in enumeration order: grammar, size, index length and
/// digits.
type FormulaKey = (String, u32, usize, String);

/// Reads the undecided formulas of `dirs`, smallest first per grammar, with their text
/// (from `grammar_of`, the grammar a run names).
pub fn read(
    dirs: &[RunDirectory],
    grammar_of: &dyn Fn(&RunDirectory, &str) -> Result<Grammar, TriageError>,
) -> Result<Vec<Undecided>, TriageError> {
    let mut out: Vec<Undecided> = Vec::new();
    let mut enumerations: BTreeMap<(usize, String), Enumeration> = BTreeMap::new();
    let mut logics: BTreeMap<(usize, String), Option<String>> = BTreeMap::new();
    for (d, dir) in dirs.iter().enumerate() {
        let Some(path) = find_csv(&dir.path, UNDECIDED_CSV)? else {
            continue;
        };
        let mut by_formula: BTreeMap<FormulaKey, Vec<(String, String)>> = BTreeMap::new();
        let mut reader = csv::Reader::from_reader(open_csv(&path)?);
        for (i, row) in reader.deserialize::<UndecidedRow>().enumerate() {
            let row = row.map_err(|error| crate::report::ReportError::Csv {
                path: path.clone(),
                line: i as u64 + 2,
                error,
            })?;
            // A call that never started says nothing (files from before et left such
            // calls out have them).
            let never_started = row
                .status
                .parse::<Status>()
                .is_ok_and(|s| !s.tells_about_solver());
            let answers = by_formula
                .entry((row.grammar, row.size, row.index.len(), row.index))
                .or_default();
            if !never_started {
                answers.push((row.solver, row.status));
            }
        }
        for ((grammar, size, _, index), answers) in by_formula {
            // Rejected by every solver (a file from before et told such formulas
            // apart): the grammar's fault, not a formula anyone failed to decide.
            let rejected = Status::Rejected.label();
            if answers.iter().all(|(_, status)| status == rejected) {
                continue;
            }
            let key = (d, grammar.clone());
            if !enumerations.contains_key(&key) {
                let g = grammar_of(dir, &grammar)?;
                let logic = crate::builtins::declared_logic(&g)?.map(str::to_string);
                logics.insert(key.clone(), logic);
                enumerations.insert(key.clone(), Enumeration::new(g));
            }
            let enumeration = enumerations.get_mut(&key).expect("inserted above");
            let at: BigUint = index.parse().map_err(|_| {
                TriageError::io(
                    &path,
                    std::io::Error::other(format!("index `{index}` is not a number")),
                )
            })?;
            let term = enumeration.term(&at).map_err(|error| TriageError::Index {
                path: path.clone(),
                line: 0,
                error,
            })?;
            out.push(Undecided {
                dir: d,
                grammar,
                index,
                size,
                formula: enumeration.text(&term),
                logic: logics[&key].clone(),
                answers,
                retry: None,
            });
        }
    }
    Ok(out)
}

/// Tries the [`RETRIED_PER_GRAMMAR`] smallest formulas of each grammar again: every
/// solver that ran on one, at `limits` (the run's, scaled by the confirmation's
/// factor), through `caller` (the one call-and-judge path).
pub fn retry(
    caller: &Caller,
    dirs: &[RunDirectory],
    undecided: &mut [Undecided],
    limits: &(dyn for<'u> Fn(&'u Undecided) -> CallSettings<'u> + Sync),
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(), TriageError> {
    let mut per_grammar: BTreeMap<&str, usize> = BTreeMap::new();
    let chosen: Vec<usize> = (0..undecided.len())
        .filter(|&i| {
            let n = per_grammar.entry(&undecided[i].grammar).or_default();
            *n += 1;
            *n <= RETRIED_PER_GRAMMAR
        })
        .collect();
    let results = caller.map_observed(
        &chosen,
        |&i| -> Result<Retry, (String, CallError)> {
            let u = &undecided[i];
            let mut best: Option<Retry> = None;
            let mut starved = false;
            for (name, _) in &u.answers {
                let Some(solver) = dirs[u.dir].solver(name) else {
                    continue; // a judge et cannot run again here: nothing to learn
                };
                let answer = caller
                    .fresh(solver, &u.formula, limits(u))
                    .map_err(|e| (name.clone(), e))?;
                if answer.judging_status().is_none() {
                    starved |= answer.status == Status::Starved;
                    continue;
                }
                let faster = match &best {
                    Some(Retry::Slow { seconds, .. }) => answer.time_s < *seconds,
                    _ => true,
                };
                if faster {
                    best = Some(Retry::Slow {
                        solver: name.clone(),
                        status: answer.status,
                        seconds: answer.time_s,
                    });
                }
            }
            Ok(best.unwrap_or(if starved {
                Retry::Starved
            } else {
                Retry::Hopeless
            }))
        },
        progress,
    );
    for (i, result) in chosen.into_iter().zip(results) {
        undecided[i].retry =
            Some(result.map_err(|(solver, error)| TriageError::Call { solver, error })?);
    }
    Ok(())
}
