//! A reported crash reduced to et's own options it needs. et gives every call of a
//! family its self-checks (cvc5's `--check-models` `--check-unsat-cores`
//! `--strings-exp` `-q`, z3's `model_validate=true`) and asks for models; a crash
//! rarely needs all of that. Each is dropped in turn — the model request first, then
//! each self-check in command order — and the drop is kept while the release still
//! crashes with the same signature in every attempt. The report's command line then
//! has only what the crash needs.
//!
//! *Must not:* drop an option of a configuration ([`super::option_delta`] decides
//! those) or any option of the pool entry that is not one of its family's
//! self-checks; judge a crash by anything but its signature.

use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::calls::{CallSettings, Caller};
use super::group::Finding;
use super::rank::Kind;

/// What is dropped when the model request goes: the family's model options and the
/// script's `(get-model)`.
pub const MODELS: &str = "the model request";

/// What dropping et's options from a crash showed.
#[derive(Debug, Clone)]
pub struct CrashOptions {
    /// What was dropped and the crash still showed: [`MODELS`], then self-check
    /// options, in the order tried.
    pub dropped: Vec<String>,
    /// How many drops were tried.
    pub tried: usize,
    /// The solver with what the crash needs: what the report runs.
    pub solver: SolverConfig,
}

/// Drops from `solver` (the release, with the options a configuration's finding
/// needs) what of et's own options `f`'s crash does not need; `None` for a finding
/// that is not a crash or a solver with nothing of et's to drop. Each try runs the
/// formula `attempts` times at `limits`.
pub fn reduce(
    caller: &Caller,
    f: &Finding,
    solver: &SolverConfig,
    limits: CallSettings<'_>,
    attempts: u32,
) -> Result<Option<CrashOptions>, CallError> {
    if f.kind != Kind::Crash {
        return Ok(None);
    }
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
    let crashes_alike = |s: &SolverConfig| {
        caller.in_every_attempt(s, &f.formula, limits, attempts, |answer| {
            answer.crash_signature.is_some() && answer.crash_signature == f.crash_signature
        })
    };
    let mut current = solver.clone();
    let mut dropped = Vec::new();
    for candidate in &candidates {
        let trial = without(&current, candidate);
        if crashes_alike(&trial)? {
            current = trial;
            dropped.push(candidate.clone());
        }
    }
    Ok(Some(CrashOptions {
        dropped,
        tried: candidates.len(),
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
