//! What one call showed: its facts, their classification, and et's check of the model
//! the solver printed.

use std::path::Path;

use et_eval::{check_model, ModelCheck, Script, ScriptError};

use crate::oracle::{self, Classification, Status};
use crate::solvers::call::{CallError, CallOutcome, Input, Limits, Supervisor};
use crate::solvers::session::Session;
use crate::solvers::InputMode;

use super::reference::Ruling;
use super::{as_reference, read_model, CallMode, Invocation, Judged};

/// A finished call as the oracle sees it.
#[derive(Debug, Clone)]
pub struct Observation {
    /// The command line it ran.
    pub command: Vec<String>,
    /// The script it read (prelude and model request included).
    pub script: String,
    /// What the supervisor recorded.
    pub outcome: CallOutcome,
    /// The oracle's classification of it.
    pub class: Classification,
    /// et's check of the model it printed (`sat` with models on, when et reads the
    /// formula).
    pub model_check: Option<ModelCheck>,
    /// Whether the call was a fresh process or a formula of a session.
    pub mode: CallMode,
}

impl Observation {
    /// Classifies a finished call of `invocation` and, after `sat` with models on,
    /// checks the printed model against `formula` (asked for only then: parsing costs).
    /// A formula et-eval cannot read for want of an operator gets the check
    /// `unsupported`, naming it; a malformed one none.
    pub(super) fn new<'s>(
        invocation: Invocation<'_>,
        outcome: CallOutcome,
        formula: impl FnOnce() -> Result<&'s Script, &'s ScriptError>,
    ) -> Observation {
        let class = oracle::classify(&outcome);
        let model_check = match (invocation.models, class.status) {
            (true, Status::Sat) => match formula() {
                Ok(formula) => Some(check_model(
                    formula,
                    &outcome.stdout_text(),
                    invocation.solver.model_dialect(),
                )),
                Err(e) => ModelCheck::of_unreadable(e),
            },
            _ => None,
        };
        Observation {
            command: invocation.command,
            script: invocation.script,
            outcome,
            class,
            model_check,
            mode: CallMode::Fresh,
        }
    }

    /// Whether `other`, a call of the same invocation, saw the same thing beyond time:
    /// the same status (a timeout on either side is a matter of time, not of answer),
    /// the same self-check result, the same verdict of et's model check, the same crash.
    pub fn agrees_with(&self, other: &Observation) -> bool {
        if self.class.status == Status::Timeout || other.class.status == Status::Timeout {
            return true;
        }
        let check = |o: &Observation| o.checked_model().map(|c| c.csv().to_string());
        self.class.status == other.class.status
            && self.class.self_check_failed == other.class.self_check_failed
            && check(self) == check(other)
            && self.class.crash_signature == other.class.crash_signature
    }

    /// The answer in a few words, for records of disagreements: `sat`, `sat (model
    /// invalid)`, `crash (SIGSEGV)`.
    pub fn describe(&self) -> String {
        let mut text = self.class.status.label().to_string();
        if self.class.self_check_failed {
            text.push_str(" (self-check failed)");
        }
        if let Some(check) = self.checked_model() {
            text.push_str(&format!(" (model {})", check.csv()));
        }
        if let Some(signature) = &self.class.crash_signature {
            text.push_str(&format!(" ({signature})"));
        }
        text
    }

    /// What the oracle's checks read of this call.
    pub fn judged(&self) -> Judged<'_> {
        Judged {
            status: self.class.status,
            self_check_failed: self.class.self_check_failed,
            model_check: self.checked_model(),
        }
    }

    /// et's check of the model, when a model was read (`None` for models off, no `sat`,
    /// or no model in the output).
    pub fn checked_model(&self) -> Option<&ModelCheck> {
        read_model(self.model_check.as_ref())
    }

    /// This call's answer as a judge of others ([`as_reference`]).
    pub fn as_reference(&self) -> Ruling {
        as_reference(
            self.class.status,
            self.class.self_check_failed,
            self.model_check.as_ref(),
        )
    }
}

/// Where a call is made.
pub enum Place<'p> {
    /// A new process: the solver reads this file, which holds the invocation's script
    /// (or the script on its standard input, as its pool entry says).
    Fresh(&'p Path),
    /// The next formula of a live session, with the script of the one after it (if
    /// any) written ahead.
    Session(&'p mut Session<'static>, Option<&'p str>),
}

/// Makes `invocation` at `place` under `limits` and observes it: the one place a
/// formula's call is made and classified, whoever asks (the campaign's worker,
/// triage's caller, `et solvers check`). A solver that reads a file gets the fresh
/// place's file, which must hold the invocation's script.
pub fn call<'s>(
    invocation: Invocation<'_>,
    place: Place<'_>,
    limits: &Limits,
    formula: impl FnOnce() -> Result<&'s Script, &'s ScriptError>,
) -> Result<Observation, CallError> {
    match place {
        Place::Fresh(file) => observe_with(Supervisor::global(), invocation, file, limits, formula),
        Place::Session(session, next) => {
            let outcome = session.call_then(&invocation.script, next, limits)?;
            let mut observation = Observation::new(invocation, outcome, formula);
            observation.mode = CallMode::Session;
            Ok(observation)
        }
    }
}

/// A call a journal recorded, observed again as a call just made would be: its outcome
/// classified, its model checked by the same code.
pub fn replayed<'s>(
    invocation: Invocation<'_>,
    outcome: CallOutcome,
    formula: impl FnOnce() -> Result<&'s Script, &'s ScriptError>,
) -> Observation {
    Observation::new(invocation, outcome, formula)
}

/// Runs `invocation` under `limits` in a new process and observes it
/// ([`call`] at a fresh place).
pub fn observe<'s>(
    invocation: Invocation<'_>,
    script_file: &Path,
    limits: &Limits,
    formula: impl FnOnce() -> Result<&'s Script, &'s ScriptError>,
) -> Result<Observation, CallError> {
    call(invocation, Place::Fresh(script_file), limits, formula)
}

/// [`observe`] under `supervisor` (a start check may be asked to run without cgroups).
pub fn observe_with<'s>(
    supervisor: &Supervisor,
    invocation: Invocation<'_>,
    script_file: &Path,
    limits: &Limits,
    formula: impl FnOnce() -> Result<&'s Script, &'s ScriptError>,
) -> Result<Observation, CallError> {
    let input = match invocation.solver.input {
        InputMode::File => Input::File(script_file),
        InputMode::Stdin => Input::Stdin(invocation.script.as_bytes()),
    };
    let outcome = supervisor.call(&invocation.command, input, limits)?;
    Ok(Observation::new(invocation, outcome, formula))
}
