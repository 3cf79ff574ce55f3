//! A reported finding reduced to et's own options it needs. et gives every call of a
//! family its self-checks (cvc5's `--check-models` `--check-unsat-cores`
//! `--strings-exp` `-q`, z3's `model_validate=true`) and asks for models; a bug rarely
//! needs all of that, and a maintainer reads every option of a report's command as
//! part of the bug. Each is dropped in turn — the model request first, then each
//! self-check in command order — and the drop is kept while the release still shows
//! the finding in every attempt, judged as its confirmation judged it
//! ([`super::confirm::Again`]): a crash with the same signature, a performance
//! finding not decided at the limits it was confirmed at, a wrong answer or model
//! the same. The report's command line then has only what the bug needs.
//!
//! *Must not:* drop an option of a configuration ([`super::option_delta`] decides
//! those) or any option of the pool entry that is not one of its family's
//! self-checks; judge a finding any other way than its confirmation did.

use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::confirm::Again;

/// What is dropped when the model request goes: the family's model options and the
/// script's `(get-model)`.
pub const MODELS: &str = "the model request";

/// What dropping et's options from a finding showed.
#[derive(Debug, Clone)]
pub struct OwnOptions {
    /// What was dropped and the finding still showed: [`MODELS`], then self-check
    /// options, in the order tried.
    pub dropped: Vec<String>,
    /// The solver with what the finding needs: what the report runs.
    pub solver: SolverConfig,
}

/// Drops from `solver` (the release, with the options a configuration's finding
/// needs) what of et's own options the finding `again` asks does not need; `None`
/// for a solver with nothing of et's to drop.
pub fn reduce(again: Again<'_>, solver: &SolverConfig) -> Result<Option<OwnOptions>, CallError> {
    let checks = solver.family_info().self_check_options();
    let mut candidates: Vec<String> = Vec::new();
    if solver.models {
        candidates.push(MODELS.to_string());
    }
    candidates.extend(
        solver
            .options()
            .iter()
            .filter(|o| checks.contains(&o.as_str()))
            .cloned(),
    );
    if candidates.is_empty() {
        return Ok(None);
    }
    let mut current = solver.clone();
    let mut dropped = Vec::new();
    for candidate in &candidates {
        let trial = without(&current, candidate);
        if again.shown_by(&trial)? {
            current = trial;
            dropped.push(candidate.clone());
        }
    }
    Ok(Some(OwnOptions {
        dropped,
        solver: current,
    }))
}

/// `solver` without the model request ([`MODELS`]) or without the option `option`.
fn without(solver: &SolverConfig, option: &str) -> SolverConfig {
    let mut trial = solver.clone();
    if option == MODELS {
        trial.models = false;
    } else if let Some(at) = trial.command[1..].iter().position(|w| w == option) {
        trial.command.remove(at + 1);
    }
    trial
}
