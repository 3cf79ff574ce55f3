//! Does a solver start and answer? `et solvers check` runs each solver of a pool on a
//! known-sat and a known-unsat formula, and a solver et asks for models on the
//! known-sat formula with the model request a campaign makes ([`probe_model`]);
//! campaigns with a memory limit first check that each solver can start under it
//! ([`start_check`]).
//!
//! Option configurations a solver refuses at the start are found the same way
//! ([`refusals`]).
//!
//! Calls are made and read by [`super::observe_with`], the one call-and-judge path of
//! campaigns and triage (the one supervisor, the one classification table, et-eval's
//! model check), on the campaign's own [`Invocation`] for the model probe: a check
//! answers exactly as a campaign would.

use std::path::Path;
use std::time::Duration;

use et_eval::{ModelCheck, Script};

use super::{observe_with, Invocation, Observation};
use crate::oracle::Status;
use crate::solvers::call::{CallOutcome, Limits, Supervisor};
use crate::solvers::family;
use crate::solvers::{InputMode, SolverConfig};

/// A satisfiable formula of [`KNOWN_LOGIC`] every family accepts (behind its prelude):
/// Booleans only, since bitwuzla has no integers.
pub const KNOWN_SAT: &str =
    "(declare-const a Bool)\n(declare-const b Bool)\n(assert (and a (not b)))\n(check-sat)\n";
/// An unsatisfiable formula of [`KNOWN_LOGIC`] every family accepts.
pub const KNOWN_UNSAT: &str = "(declare-const a Bool)\n(declare-const b Bool)\n\
                               (assert (and (or a b) (not a) (not b)))\n(check-sat)\n";
/// The logic of the known formulas, for the families that need it stated (yices).
pub const KNOWN_LOGIC: &str = "QF_UF";

/// The least wall-clock time the start check of a campaign gives a trivial formula,
/// whatever the campaign's own timeout (which may be 1/64 s: less than some solvers
/// need to start at all).
pub const START_CHECK_TIMEOUT: Duration = Duration::from_secs(10);

/// The memory cap of the start check's second run, the one that tells a solver that
/// cannot start under the campaign's memory limit from one that fails the trivial
/// formula anyway ([`start_check`]), unless twice the campaign's limit is more. A
/// trivial formula needs far less; a solver that needs more fails that run too.
pub const EXPLAIN_MEMORY_MB: u64 = 1024;

/// One run of a solver on one formula.
#[derive(Debug, Clone)]
pub struct Probe {
    /// How the oracle classified the call.
    pub status: Status,
    /// Wall-clock time of the call.
    pub wall: Duration,
    /// Peak memory of the call in KiB, as [`CallOutcome::max_rss_kb`] measured it (0 when
    /// it never started).
    pub max_rss_kb: u64,
    /// The limits the call ran under (without the cancel flag).
    pub limits: Limits,
    /// What went wrong, if the run was not a clean expected answer.
    pub problem: Option<String>,
}

impl Probe {
    /// The probe of a call that ran: its status, time and peak, under `limits`.
    fn new(
        status: Status,
        outcome: &CallOutcome,
        limits: &Limits,
        problem: Option<String>,
    ) -> Probe {
        Probe {
            status,
            wall: outcome.wall,
            max_rss_kb: outcome.max_rss_kb,
            limits: Limits {
                cancel: None,
                ..limits.clone()
            },
            problem,
        }
    }

    /// The probe of a call that could not be made, for `problem`.
    fn not_started(problem: String, limits: &Limits) -> Probe {
        Probe::new(
            Status::SetupError,
            &CallOutcome::default(),
            limits,
            Some(problem),
        )
    }

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

/// Runs `solver` on [`KNOWN_SAT`] the way a campaign asks it for a model: the
/// campaign's [`Invocation`] (its command with the family's model options; the
/// family's model preamble, `(set-option :produce-models true)` for a family et does
/// not know, and the model request after `(check-sat)`), observed as a campaign
/// observes a call ([`observe_with`]: the classification table, et's check of the
/// printed model). The answer must be `sat` with a model et reads and finds valid.
/// `None` when models are off for the solver.
pub fn probe_model(
    supervisor: &Supervisor,
    solver: &SolverConfig,
    work_dir: &Path,
    limits: &Limits,
) -> Option<Probe> {
    solver.command_with_models()?;
    let family = family::find_or_generic(&solver.family);
    let request = family.model_request();
    let how = match (
        family.model_options(&solver.version),
        family.model_preamble(),
    ) {
        (Some(options), _) if !options.is_empty() => {
            format!("`{}` and `{request}`", options.join(" "))
        }
        (_, Some(preamble)) => format!("`{preamble}` and `{request}`"),
        _ => format!("`{request}`"),
    };
    let invocation = Invocation::new(solver, KNOWN_SAT, Some(KNOWN_LOGIC));
    let file = work_dir.join(format!("known-model-{}.smt2", file_safe(&solver.name)));
    let observation = match call(supervisor, invocation, &file, limits, KNOWN_SAT) {
        Ok(observation) => observation,
        Err(problem) => return Some(Probe::not_started(problem, limits)),
    };
    let (class, outcome) = (&observation.class, &observation.outcome);
    let problem = if class.self_check_failed {
        Some(format!("invalid model: {}", first_line(outcome)))
    } else if class.status != Status::Sat {
        let detail = describe(
            Status::Sat,
            class.status,
            outcome,
            limits,
            class.crash_signature.clone(),
        );
        Some(format!("asked for a model with {how}: {detail}"))
    } else {
        match observation.model_check.as_ref() {
            Some(ModelCheck::Valid) => None,
            Some(ModelCheck::NoModel { reason }) => Some(format!(
                "asked for a model with {how}, got none et can read: {reason}"
            )),
            Some(other) => Some(format!("asked for a model with {how}: model {other}")),
            None => Some(format!("asked for a model with {how}: no model checked")),
        }
    };
    Some(Probe::new(class.status, outcome, limits, problem))
}

/// Makes the call of `invocation` through the one call-and-judge path
/// ([`observe_with`]), its script written to `file` (removed afterwards) for a solver
/// that reads a file; a printed model is checked against `formula`. An error says why
/// it could not run.
fn call(
    supervisor: &Supervisor,
    invocation: Invocation<'_>,
    file: &Path,
    limits: &Limits,
    formula: &str,
) -> Result<Observation, String> {
    let written = invocation.solver.input == InputMode::File;
    if written {
        std::fs::write(file, &invocation.script)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    let formula = Script::parse(formula);
    let observation = observe_with(supervisor, invocation, file, limits, || formula.as_ref());
    if written {
        let _ = std::fs::remove_file(file);
    }
    observation.map_err(|e| e.to_string())
}

/// Runs `solver` on `formula` with its plain command and the family's prelude
/// ([`Invocation::plain`]) and compares the classified answer with `expected`.
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
    let invocation = Invocation::plain(solver, formula, Some(KNOWN_LOGIC));
    let observation = match call(supervisor, invocation, &file, limits, formula) {
        Ok(observation) => observation,
        Err(problem) => return Probe::not_started(problem, limits),
    };
    let (class, outcome) = (&observation.class, &observation.outcome);
    let problem = if class.self_check_failed {
        Some(format!("invalid model: {}", first_line(outcome)))
    } else if class.status == expected {
        None
    } else {
        Some(describe(
            expected,
            class.status,
            outcome,
            limits,
            class.crash_signature.clone(),
        ))
    };
    Probe::new(class.status, outcome, limits, problem)
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
        Status::Starved => format!(
            "stopped at {} s wall-clock having used {:.2} s of CPU, twice: the machine \
             was too busy to judge it",
            limits.timeout.as_secs_f64(),
            outcome.cpu.as_secs_f64()
        ),
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

/// What the start check found for one solver ([`start_check`]).
#[derive(Debug, Clone)]
pub struct StartCheck {
    /// The solver's name.
    pub name: String,
    /// Its run on [`KNOWN_SAT`] under the campaign's limits.
    pub limited: Probe,
    /// When that run failed: the run that explains the failure, on the same formula
    /// with a short time limit and a memory cap of its own ([`explain_limits`]).
    pub explained: Option<Probe>,
    /// Why the solver cannot start under the campaign's limits, if it cannot.
    pub cannot_start: Option<String>,
}

/// The limits of the start check's first run: the campaign's, with at least
/// [`START_CHECK_TIMEOUT`] of wall-clock (and CPU, when limited) time, so that a
/// solver's start-up fits whatever the campaign's own timeouts.
pub fn start_limits(limits: &Limits) -> Limits {
    Limits {
        timeout: limits.timeout.max(START_CHECK_TIMEOUT),
        cpu_timeout: limits.cpu_timeout.map(|t| t.max(START_CHECK_TIMEOUT)),
        cancel: None,
        ..limits.clone()
    }
}

/// The limits of the run that explains a failed start: [`START_CHECK_TIMEOUT`] of
/// wall-clock and CPU time, whatever the campaign's timeout, and a memory cap of
/// [`EXPLAIN_MEMORY_MB`] or twice the campaign's memory limit, whichever is more; never
/// unlimited, so a solver that allocates without end is stopped here too.
pub fn explain_limits(limits: &Limits) -> Limits {
    let memory = limits.memory_mb.map_or(EXPLAIN_MEMORY_MB, |mb| {
        mb.saturating_mul(2).max(EXPLAIN_MEMORY_MB)
    });
    Limits {
        timeout: START_CHECK_TIMEOUT,
        cpu_timeout: Some(START_CHECK_TIMEOUT),
        memory_mb: Some(memory),
        cancel: None,
        ..limits.clone()
    }
}

/// Checks in parallel that each solver can start under the memory limit of `limits`,
/// on [`KNOWN_SAT`] (files in `work_dir`); one [`StartCheck`] per solver, in order.
/// Without a memory limit nothing is run and the result is empty: a solver that cannot
/// be executed is then a `setup_error` call by call.
///
/// A solver cannot start when it fails the trivial formula under the campaign's limits
/// ([`start_limits`]) — loader failure, out of memory, or any other failure — but
/// answers it under [`explain_limits`]: no formula of a campaign can then get a
/// meaningful answer under that limit. A solver failing that second run too cannot
/// start only if its first failure is itself a setup error (its calls would all be
/// setup errors); otherwise it is run, and its calls say what it does.
pub fn start_check(
    supervisor: &Supervisor,
    solvers: &[&SolverConfig],
    limits: &Limits,
    work_dir: &Path,
) -> Vec<StartCheck> {
    let Some(mb) = limits.memory_mb else {
        return Vec::new();
    };
    let (limited_limits, explain_limits) = (start_limits(limits), explain_limits(limits));
    std::thread::scope(|scope| {
        let handles: Vec<_> = solvers
            .iter()
            .map(|solver| {
                let (limited_limits, explain_limits) = (&limited_limits, &explain_limits);
                scope.spawn(move || {
                    let run = |limits| {
                        probe(supervisor, solver, work_dir, Status::Sat, KNOWN_SAT, limits)
                    };
                    let limited = run(limited_limits);
                    let mut check = StartCheck {
                        name: solver.name.clone(),
                        limited,
                        explained: None,
                        cannot_start: None,
                    };
                    let Some(problem) = check.limited.problem.clone() else {
                        return check;
                    };
                    let explained = run(explain_limits);
                    check.cannot_start = if explained.ok() {
                        Some(format!(
                            "under --memory {mb} MiB a trivial formula gives {problem}; \
                             under {} MiB it answers sat",
                            explain_limits.memory_mb.unwrap_or_default()
                        ))
                    } else if check.limited.status == Status::SetupError {
                        Some(problem)
                    } else {
                        None
                    };
                    check.explained = Some(explained);
                    check
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a start check thread panicked"))
            .collect()
    })
}

/// The solvers that cannot start under the memory limit of `limits`, each with the
/// reason: the [`start_check`]s that found one.
pub fn cannot_start(
    supervisor: &Supervisor,
    solvers: &[&SolverConfig],
    limits: &Limits,
    work_dir: &Path,
) -> Vec<(String, String)> {
    start_check(supervisor, solvers, limits, work_dir)
        .into_iter()
        .filter_map(|c| c.cannot_start.map(|why| (c.name, why)))
        .collect()
}

/// The configurations among `solvers` that their solver refuses at the start, each
/// with what it did: run on the start check's trivial formula ([`KNOWN_SAT`],
/// files in `work_dir`) for at most [`START_CHECK_TIMEOUT`], one that is
/// rejected, cannot start or crashes before answering it did not take its options.
/// Such a configuration is recorded and not run: never a finding. Solvers that are not
/// configurations are not probed.
pub fn refusals(solvers: &[SolverConfig], work_dir: &Path) -> Vec<(String, String)> {
    let supervisor = Supervisor::global();
    let limits = Limits::with_timeout(START_CHECK_TIMEOUT);
    let configured: Vec<&SolverConfig> = solvers
        .iter()
        .filter(|s| s.configuration.is_some())
        .collect();
    let width = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut refused = Vec::new();
    for chunk in configured.chunks(width) {
        let probes: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|s| {
                    let limits = &limits;
                    scope.spawn(move || {
                        probe(supervisor, s, work_dir, Status::Sat, KNOWN_SAT, limits)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a start probe panicked"))
                .collect()
        });
        for (s, p) in chunk.iter().zip(probes) {
            if matches!(
                p.status,
                Status::Rejected | Status::SetupError | Status::Crash
            ) {
                let why = p.problem.unwrap_or_else(|| p.status.to_string());
                refused.push((s.name.clone(), why));
            }
        }
    }
    refused
}
