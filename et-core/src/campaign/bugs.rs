//! The bug store: every correctness trigger as a runnable `.smt2` plus a `.log`, under
//! `DIR/bugs/<verdict>/<solver>-<index>.smt2`. Crashes are grouped by signature
//! (`DIR/bugs/crash/<signature>/...`) so a thousand triggers of one assertion read as
//! one bug. Files appear complete or not at all (written, then renamed).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::atomic_file;
use crate::oracle::Verdict;
use crate::solvers::call::CallOutcome;
use crate::solvers::SolverConfig;

/// Where a run's bug triggers go.
pub struct BugStore {
    root: PathBuf,
}

/// One solver call's side of a trigger's log.
pub struct CallRecord<'a> {
    /// The solver.
    pub solver: &'a SolverConfig,
    /// Its classified status label.
    pub status: &'a str,
    /// What happened, if it ran in this run (a cached reference did not).
    pub outcome: Option<&'a CallOutcome>,
}

/// A bug trigger to save.
pub struct Trigger<'a> {
    /// The correctness verdict.
    pub verdict: Verdict,
    /// Global index of the formula.
    pub index: &'a str,
    /// The formula text.
    pub formula: &'a str,
    /// The solver under test.
    pub call: CallRecord<'a>,
    /// The reference it was judged against, if any.
    pub reference: Option<CallRecord<'a>>,
    /// Crash signature (assertion location, or signal and first error line).
    pub signature: Option<&'a str>,
}

impl BugStore {
    /// A store under `DIR/bugs`.
    pub fn new(run_dir: &Path) -> BugStore {
        BugStore {
            root: run_dir.join("bugs"),
        }
    }

    /// Saves a trigger; returns the `.smt2` path.
    pub fn save(&self, trigger: &Trigger) -> std::io::Result<PathBuf> {
        let mut dir = self.root.join(trigger.verdict.label());
        if let (Verdict::Crash, Some(signature)) = (trigger.verdict, trigger.signature) {
            dir = dir.join(slug(signature));
            fs::create_dir_all(&dir)?;
            let sig = dir.join("signature.txt");
            if !sig.exists() {
                atomic_file::write(&sig, format!("{signature}\n").as_bytes())?;
            }
        }
        fs::create_dir_all(&dir)?;
        let stem = format!("{}-{}", trigger.call.solver.name, trigger.index);
        let smt2 = dir.join(format!("{stem}.smt2"));
        atomic_file::write(&smt2, format!("{}\n", trigger.formula).as_bytes())?;
        atomic_file::write(
            &dir.join(format!("{stem}.log")),
            log(trigger, &smt2).as_bytes(),
        )?;
        Ok(smt2)
    }
}

/// A directory name for a signature: readable, filesystem-safe, and unique by a hash.
fn slug(signature: &str) -> String {
    let readable: String = signature
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    // FNV-1a: stable across runs and machines, unlike std's hasher.
    let hash = signature.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    });
    format!("{}-{:08x}", readable.trim_matches('_'), hash as u32)
}

fn log(t: &Trigger, smt2: &Path) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "verdict: {}", t.verdict);
    let _ = writeln!(out, "index: {}", t.index);
    if let Some(sig) = t.signature {
        let _ = writeln!(out, "signature: {sig}");
    }
    let _ = writeln!(out, "formula: {}", t.formula);
    describe(&mut out, "solver", &t.call, smt2);
    match &t.reference {
        Some(r) => describe(&mut out, "reference", r, smt2),
        None => out.push_str("\n== reference: none\n"),
    }
    out
}

fn describe(out: &mut String, role: &str, record: &CallRecord, smt2: &Path) {
    let argv: Vec<String> = record
        .solver
        .argv(smt2)
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let _ = writeln!(
        out,
        "\n== {role}: {} (status {})",
        record.solver.name, record.status
    );
    let _ = writeln!(out, "command: {}", argv.join(" "));
    match record.outcome {
        None => out.push_str("(answer from the reference cache; not run again)\n"),
        Some(o) => {
            let _ = writeln!(
                out,
                "exit code: {}  signal: {}  wall: {:.3} s  cpu: {:.3} s  max rss: {} KiB",
                o.exit_code.map_or("-".into(), |c| c.to_string()),
                o.signal.map_or("-".into(), |s| s.to_string()),
                o.wall.as_secs_f64(),
                o.cpu.as_secs_f64(),
                o.max_rss_kb
            );
            let _ = writeln!(
                out,
                "-- stdout{}:",
                if o.stdout_truncated {
                    " (truncated)"
                } else {
                    ""
                }
            );
            out.push_str(&o.stdout_text());
            let _ = writeln!(
                out,
                "-- stderr{}:",
                if o.stderr_truncated {
                    " (truncated)"
                } else {
                    ""
                }
            );
            out.push_str(&o.stderr_text());
        }
    }
}
