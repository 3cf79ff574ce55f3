//! `et solvers check`: does each solver of a pool start, answer a known-sat formula `sat`
//! and a known-unsat formula `unsat`, and how long does a trivial call take?
//!
//! This is a smoke test with a plain child process and a coarse timeout; campaign calls
//! (limits, process groups, CPU time) are the job of the solver-call runner.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use super::pool::{InputMode, SolverConfig};

/// A satisfiable formula of [`KNOWN_LOGIC`] every family accepts (behind its prelude).
pub const KNOWN_SAT: &str = "(declare-const a Int)\n(assert (> a 1))\n(check-sat)\n(exit)\n";
/// An unsatisfiable formula of [`KNOWN_LOGIC`] every family accepts.
pub const KNOWN_UNSAT: &str =
    "(declare-const a Int)\n(assert (and (> a 1) (< a 0)))\n(check-sat)\n(exit)\n";
/// The logic of the known formulas, for the families that need it stated (yices).
pub const KNOWN_LOGIC: &str = "QF_LIA";

/// One run of a solver on one formula.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The answer line (`sat`, `unsat`, `unknown`, ...), if any.
    pub answer: Option<String>,
    /// Wall-clock time from spawn to exit.
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

/// Both probes of one solver.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// The solver's name.
    pub name: String,
    /// Its run on [`KNOWN_SAT`].
    pub sat: Probe,
    /// Its run on [`KNOWN_UNSAT`].
    pub unsat: Probe,
}

impl CheckResult {
    /// True when both answers were right.
    pub fn ok(&self) -> bool {
        self.sat.ok() && self.unsat.ok()
    }
}

/// Runs `solver` on the two known formulas, written into `work_dir`.
pub fn check_solver(solver: &SolverConfig, work_dir: &Path, timeout: Duration) -> CheckResult {
    CheckResult {
        name: solver.name.clone(),
        sat: probe(solver, work_dir, "sat", KNOWN_SAT, timeout),
        unsat: probe(solver, work_dir, "unsat", KNOWN_UNSAT, timeout),
    }
}

fn probe(
    solver: &SolverConfig,
    work_dir: &Path,
    expected: &str,
    formula: &str,
    timeout: Duration,
) -> Probe {
    let file = work_dir.join(format!("known-{expected}.smt2"));
    let formula = match solver.prelude(Some(KNOWN_LOGIC)) {
        Some(prelude) => format!("{prelude}\n{formula}"),
        None => formula.to_string(),
    };
    let failed = |problem: String| Probe {
        answer: None,
        wall: Duration::ZERO,
        problem: Some(problem),
    };
    if let Err(e) = std::fs::write(&file, &formula) {
        return failed(format!("cannot write {}: {e}", file.display()));
    }
    let mut cmd = solver.command_for(&file);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.stdin(if solver.input == InputMode::Stdin {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let started = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => return failed(format!("cannot run {}: {e}", solver.program())),
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(formula.as_bytes());
    }
    let (status, stdout, stderr) = match wait_with_timeout(&mut child, timeout) {
        Some(done) => done,
        None => {
            return Probe {
                answer: None,
                wall: started.elapsed(),
                problem: Some(format!(
                    "no answer within {} s (killed)",
                    timeout.as_secs_f64()
                )),
            }
        }
    };
    let wall = started.elapsed();
    let answer = stdout
        .lines()
        .map(str::trim)
        .find(|l| matches!(*l, "sat" | "unsat" | "unknown") || l.starts_with("unknown"))
        .map(str::to_string);
    let first_error = stdout
        .lines()
        .chain(stderr.lines())
        .find(|l| l.contains("error") || l.contains("Error"))
        .map(str::to_string);
    let problem = if !status.success() {
        Some(format!(
            "{status}{}",
            first_error
                .or_else(|| stderr.lines().next().map(str::to_string))
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        ))
    } else if let Some(e) = first_error {
        Some(e)
    } else if answer.as_deref() != Some(expected) {
        Some(format!(
            "expected `{expected}`, got {}",
            answer
                .as_deref()
                .map_or("no answer".to_string(), |a| format!("`{a}`"))
        ))
    } else {
        None
    };
    Probe {
        answer,
        wall,
        problem,
    }
}

/// Waits for `child`, killing it after `timeout`; returns status, stdout and stderr.
fn wait_with_timeout(
    child: &mut Child,
    timeout: Duration,
) -> Option<(std::process::ExitStatus, String, String)> {
    // Drain the pipes on threads so a chatty solver cannot block on a full pipe.
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let out_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_string(&mut s);
        }
        s
    });
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_micros(200)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread.join().unwrap_or_default();
    status.map(|s| (s, stdout, stderr))
}
