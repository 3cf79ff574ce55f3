//! Does a solver start and answer? `et solvers check` runs each solver of a pool on a
//! known-sat and a known-unsat formula, and a solver et asks for models on the
//! known-sat formula with the model request a campaign makes ([`probe_model`]);
//! campaigns with a memory limit first check that each solver can start under it
//! ([`cannot_start`]).
//!
//! Calls go through [`super::call`] (the one supervisor: limits, whole-tree kill) and
//! their outputs through [`crate::oracle::classify`] (the one classification table), so
//! a check answers exactly as a campaign would; the model is read and checked by
//! et-eval, as a campaign checks it.

use std::path::Path;
use std::time::Duration;

use et_eval::{check_model, ModelCheck, Script};

use super::call::{CallOutcome, Input, Limits, Supervisor};
use super::family;
use super::pool::{InputMode, SolverConfig};
use crate::oracle::{classify, Status};

/// A satisfiable formula of [`KNOWN_LOGIC`] every family accepts (behind its prelude):
/// Booleans only, since bitwuzla has no integers.
pub const KNOWN_SAT: &str =
    "(declare-const a Bool)\n(declare-const b Bool)\n(assert (and a (not b)))\n(check-sat)\n(exit)\n";
/// An unsatisfiable formula of [`KNOWN_LOGIC`] every family accepts.
pub const KNOWN_UNSAT: &str = "(declare-const a Bool)\n(declare-const b Bool)\n\
                               (assert (and (or a b) (not a) (not b)))\n(check-sat)\n(exit)\n";
/// The logic of the known formulas, for the families that need it stated (yices).
pub const KNOWN_LOGIC: &str = "QF_UF";

/// The least wall-clock time the start check of a campaign gives a trivial formula,
/// whatever the campaign's own timeout (which may be 1/64 s: less than some solvers
/// need to start at all).
pub const START_CHECK_TIMEOUT: Duration = Duration::from_secs(10);

/// One run of a solver on one formula.
#[derive(Debug, Clone)]
pub struct Probe {
    /// How the oracle classified the call.
    pub status: Status,
    /// Wall-clock time of the call.
    pub wall: Duration,
    /// What went wrong, if the run was not a clean expected answer.
    pub problem: Option<String>,
}

impl Probe {
    /// True when the solver gave the expected answer cleanly.
    pub fn ok(&self) -> bool {
        self.problem.is_none()
    }
}

/// The probes of one solver.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// The solver's name.
    pub name: String,
    /// Its run on [`KNOWN_SAT`].
    pub sat: Probe,
    /// Its run on [`KNOWN_UNSAT`].
    pub unsat: Probe,
    /// Its run on [`KNOWN_SAT`] asked for a model as a campaign asks ([`probe_model`]);
    /// `None` when et does not ask it for models.
    pub model: Option<Probe>,
}

impl CheckResult {
    /// True when every answer was right (and the model, if asked for, valid).
    pub fn ok(&self) -> bool {
        self.sat.ok() && self.unsat.ok() && self.model.as_ref().is_none_or(Probe::ok)
    }
}

/// Runs `solver` on the two known formulas under `limits`, writing them into
/// `work_dir` for solvers that read a file.
pub fn check_solver(
    supervisor: &Supervisor,
    solver: &SolverConfig,
    work_dir: &Path,
    limits: &Limits,
) -> CheckResult {
    CheckResult {
        name: solver.name.clone(),
        sat: probe(supervisor, solver, work_dir, Status::Sat, KNOWN_SAT, limits),
        unsat: probe(
            supervisor,
            solver,
            work_dir,
            Status::Unsat,
            KNOWN_UNSAT,
            limits,
        ),
        model: probe_model(supervisor, solver, work_dir, limits),
    }
}

/// Runs `solver` on [`KNOWN_SAT`] the way a campaign asks it for a model (its command
/// with the family's model options; the script behind the family's model preamble,
/// `(set-option :produce-models true)` for a family et does not know, with
/// `(get-model)` after `(check-sat)`) and checks that the answer is `sat` with a model
/// et reads and finds valid. `None` when models are off for the solver.
pub fn probe_model(
    supervisor: &Supervisor,
    solver: &SolverConfig,
    work_dir: &Path,
    limits: &Limits,
) -> Option<Probe> {
    let command = solver.command_with_models()?;
    let family = family::find_or_generic(&solver.family);
    let request = family.model_request();
    let body = KNOWN_SAT.strip_suffix("(exit)\n").unwrap_or(KNOWN_SAT);
    let mut text = solver
        .prelude(Some(KNOWN_LOGIC))
        .map_or(String::new(), |p| p + "\n");
    text.push_str(&format!("{body}{request}\n(exit)\n"));
    let how = match (family.model_options(), family.model_preamble()) {
        (Some(options), _) if !options.is_empty() => {
            format!("`{}` and `{request}`", options.join(" "))
        }
        (_, Some(preamble)) => format!("`{preamble}` and `{request}`"),
        _ => format!("`{request}`"),
    };
    let file = work_dir.join(format!("known-model-{}.smt2", file_safe(&solver.name)));
    let outcome = match run_script(supervisor, &command, solver.input, &file, &text, limits) {
        Ok(outcome) => outcome,
        Err(problem) => {
            return Some(Probe {
                status: Status::SetupError,
                wall: Duration::ZERO,
                problem: Some(problem),
            })
        }
    };
    let class = classify(&outcome);
    let problem = if class.self_check_failed {
        Some(format!("invalid model: {}", first_line(&outcome)))
    } else if class.status != Status::Sat {
        let detail = describe(
            Status::Sat,
            class.status,
            &outcome,
            limits,
            class.crash_signature,
        );
        Some(format!("asked for a model with {how}: {detail}"))
    } else {
        let script = Script::parse(KNOWN_SAT).expect("the known-sat formula is well-formed");
        let dialect = solver.model_dialect();
        match check_model(&script, &outcome.stdout_text(), dialect) {
            ModelCheck::Valid => None,
            ModelCheck::NoModel { reason } => Some(format!(
                "asked for a model with {how}, got none et can read: {reason}"
            )),
            other => Some(format!("asked for a model with {how}: model {other}")),
        }
    };
    Some(Probe {
        status: class.status,
        wall: outcome.wall,
        problem,
    })
}

/// Runs `command` on the script `text`: on standard input, or written to `file` (removed
/// afterwards) whose path is appended. An error says why it could not run.
fn run_script(
    supervisor: &Supervisor,
    command: &[String],
    input: InputMode,
    file: &Path,
    text: &str,
    limits: &Limits,
) -> Result<CallOutcome, String> {
    let outcome = match input {
        InputMode::Stdin => supervisor.run(command, Input::Stdin(text.as_bytes()), limits),
        InputMode::File => {
            std::fs::write(file, text)
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            let outcome = supervisor.run(command, Input::File(file), limits);
            let _ = std::fs::remove_file(file);
            outcome
        }
    };
    outcome.map_err(|e| e.to_string())
}

/// Runs `solver` on `formula` and compares the classified answer with `expected`.
pub fn probe(
    supervisor: &Supervisor,
    solver: &SolverConfig,
    work_dir: &Path,
    expected: Status,
    formula: &str,
    limits: &Limits,
) -> Probe {
    let file = work_dir.join(format!(
        "known-{}-{}.smt2",
        expected,
        file_safe(&solver.name)
    ));
    // The plain command, so the family's prelude alone (not the model preamble).
    let formula = match family::find_or_generic(&solver.family).prelude(Some(KNOWN_LOGIC)) {
        Some(prelude) => format!("{prelude}\n{formula}"),
        None => formula.to_string(),
    };
    let outcome = match run_script(
        supervisor,
        &solver.command,
        solver.input,
        &file,
        &formula,
        limits,
    ) {
        Ok(outcome) => outcome,
        Err(problem) => {
            return Probe {
                status: Status::SetupError,
                wall: Duration::ZERO,
                problem: Some(problem),
            }
        }
    };
    let class = classify(&outcome);
    let problem = if class.self_check_failed {
        Some(format!("invalid model: {}", first_line(&outcome)))
    } else if class.status == expected {
        None
    } else {
        Some(describe(
            expected,
            class.status,
            &outcome,
            limits,
            class.crash_signature,
        ))
    };
    Probe {
        status: class.status,
        wall: outcome.wall,
        problem,
    }
}

/// What a wrong or failed answer was, in one line.
fn describe(
    expected: Status,
    status: Status,
    outcome: &CallOutcome,
    limits: &Limits,
    signature: Option<String>,
) -> String {
    let detail = match status {
        Status::Sat | Status::Unsat | Status::Unknown => {
            return format!("expected `{expected}`, got `{status}`");
        }
        Status::Timeout => match limits.cpu_timeout {
            Some(cpu) => format!(
                "no answer within {} s wall-clock or {} s CPU (killed)",
                limits.timeout.as_secs_f64(),
                cpu.as_secs_f64()
            ),
            None => format!(
                "no answer within {} s (killed)",
                limits.timeout.as_secs_f64()
            ),
        },
        Status::SetupError => outcome
            .start_error
            .clone()
            .unwrap_or_else(|| first_line(outcome)),
        Status::Crash => signature.unwrap_or_else(|| first_line(outcome)),
        Status::Killed => "a SIGKILL that et did not send, on every re-run".to_string(),
        Status::Memout | Status::Rejected => first_line(outcome),
    };
    if detail.is_empty() {
        status.to_string()
    } else {
        format!("{status}: {detail}")
    }
}

/// The first line of stderr or stdout that mentions an error, else the first non-empty
/// one, else how the process ended.
fn first_line(outcome: &CallOutcome) -> String {
    let stderr = outcome.stderr_text();
    let stdout = outcome.stdout_text();
    let lines = || stderr.lines().chain(stdout.lines()).map(str::trim);
    let line = lines()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| lines().find(|l| !l.is_empty()));
    match (line, outcome.exit_code, outcome.signal) {
        (Some(line), _, _) => line.chars().take(200).collect(),
        (None, Some(code), _) => format!("exit code {code}, no output"),
        (None, None, Some(signal)) => format!(
            "killed by {}, no output",
            crate::oracle::signal_name(signal)
        ),
        (None, None, None) => String::new(),
    }
}

/// Solver names may contain anything a file name should not.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The solvers that cannot start under the memory limit of `limits`, each with the
/// reason, checked in parallel on [`KNOWN_SAT`] (files in `work_dir`).
///
/// A solver cannot start when it fails the trivial formula under the limit — loader
/// failure, out of memory, or any other failure — but answers it without the limit:
/// no formula of a campaign can then get a meaningful answer under that limit, so its
/// calls are `setup_error`, not crashes or memouts of the solver. A solver failing even
/// without the limit is reported only if that failure is itself a setup error. Without
/// a memory limit nothing is checked: a solver that cannot be executed is a
/// `setup_error` call by call.
pub fn cannot_start(
    supervisor: &Supervisor,
    solvers: &[&SolverConfig],
    limits: &Limits,
    work_dir: &Path,
) -> Vec<(String, String)> {
    let Some(mb) = limits.memory_mb else {
        return Vec::new();
    };
    let probe_limits = Limits {
        timeout: limits.timeout.max(START_CHECK_TIMEOUT),
        cpu_timeout: None,
        cancel: None,
        ..limits.clone()
    };
    let unlimited = Limits {
        memory_mb: None,
        ..probe_limits.clone()
    };
    let verdicts: Vec<Option<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = solvers
            .iter()
            .map(|solver| {
                let (probe_limits, unlimited) = (&probe_limits, &unlimited);
                scope.spawn(move || {
                    let run = |limits| {
                        probe(supervisor, solver, work_dir, Status::Sat, KNOWN_SAT, limits)
                    };
                    let limited = run(probe_limits);
                    let problem = limited.problem?;
                    let free = run(unlimited);
                    if free.ok() {
                        Some(format!(
                            "under --memory {mb} MiB a trivial formula gives {problem}; \
                             without the limit it answers sat"
                        ))
                    } else if limited.status == Status::SetupError {
                        Some(problem)
                    } else {
                        None
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    solvers
        .iter()
        .zip(verdicts)
        .filter_map(|(s, why)| why.map(|why| (s.name.clone(), why)))
        .collect()
}
