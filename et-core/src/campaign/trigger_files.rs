//! The bug store: every correctness trigger as a runnable `.smt2` plus a `.log`, under
//! `DIR/bugs/<verdict>/<solver>-<index>.smt2`. Crashes are grouped by signature
//! (`DIR/bugs/crash/<signature>/...`) so a thousand triggers of one assertion read as
//! one bug. Files appear complete or not at all (written, then renamed).
//!
//! The same store keeps *samples*: for calls that are not bugs but that a reader may
//! want to audit — `rejected` calls — one `.smt2` and `.log` per (solver, status, first
//! error line), under `DIR/samples/<status>/<solver>/`, so a classification can be
//! checked without running anything again.
//!
//! File names stay short whatever the index: an index longer than
//! [`MAX_INDEX_IN_NAME`] digits is named by its first digits, its length and a hash
//! (the full index is in the `.log` and in `runs.csv`).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use et_eval::ModelCheck;

use crate::atomic_file;
use crate::oracle::{Evidence, Verdict};
use crate::solvers::call::CallOutcome;
use crate::solvers::SolverConfig;

/// Indices up to this many digits appear whole in file names.
pub const MAX_INDEX_IN_NAME: usize = 40;

/// Where a run's bug triggers and samples go.
pub struct BugStore {
    root: PathBuf,
    samples: PathBuf,
    /// Sample files this run already holds (or wrote), so a repeated rejection costs
    /// no file system access.
    sampled: Mutex<HashSet<PathBuf>>,
}

/// One solver call's side of a trigger's log.
#[derive(Clone, Copy)]
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
    /// What et's own checks found.
    pub own: OwnChecks<'a>,
    /// The reference it was judged against, if any.
    pub reference: Option<CallRecord<'a>>,
    /// Crash signature (assertion location, or signal and first error line).
    pub signature: Option<&'a str>,
    /// Of a script's finding: the check-sat it is about, whose assertions alone the
    /// reference's call ran on.
    pub check_sat: Option<CheckSatRecord<'a>>,
}

/// The check-sat of a script a trigger is about.
pub struct CheckSatRecord<'a> {
    /// 1 for the script's first check-sat.
    pub position: usize,
    /// The script the reference (the same release) ran: the check-sat's assertions
    /// alone, as it saw them.
    pub alone: &'a str,
}

/// What et's own oracle knows of a trigger: what established the verdict, et's check
/// of the model the solver printed, and a witness of the formula.
#[derive(Default)]
pub struct OwnChecks<'a> {
    /// What established the verdict (`None` for a crash).
    pub evidence: Option<Evidence>,
    /// et's evaluation of the solver's model, with the first false sub-formula.
    pub model_check: Option<&'a ModelCheck>,
    /// A satisfying assignment et found, as `define-fun`s.
    pub witness: Option<&'a str>,
}

/// A call kept as a sample of its kind.
pub struct Sample<'a> {
    /// Global index of the formula.
    pub index: &'a str,
    /// The formula text.
    pub formula: &'a str,
    /// The call (its status names the sample's group).
    pub call: CallRecord<'a>,
    /// The first error line of its output (digits masked), which tells samples of one
    /// solver and status apart; `None` when the output has none.
    pub error_line: Option<&'a str>,
}

impl BugStore {
    /// A store under `DIR/bugs` (and `DIR/samples`).
    pub fn new(run_dir: &Path) -> BugStore {
        BugStore {
            root: run_dir.join("bugs"),
            samples: run_dir.join("samples"),
            sampled: Mutex::new(HashSet::new()),
        }
    }

    /// Saves a trigger; returns the `.smt2` path. Any number of workers may save
    /// triggers of one new crash signature at once.
    pub fn save(&self, trigger: &Trigger) -> std::io::Result<PathBuf> {
        let mut dir = self.root.join(trigger.verdict.label());
        if let (Verdict::Crash, Some(signature)) = (trigger.verdict, trigger.signature) {
            dir = dir.join(slug(signature));
            fs::create_dir_all(&dir)?;
            // The first writer's copy stays; the text is the same for all.
            atomic_file::write_new(
                &dir.join("signature.txt"),
                format!("{signature}\n").as_bytes(),
            )?;
        }
        fs::create_dir_all(&dir)?;
        let stem = format!(
            "{}-{}",
            trigger.call.solver.name,
            index_in_name(trigger.index)
        );
        let smt2 = dir.join(format!("{stem}.smt2"));
        atomic_file::write(&smt2, format!("{}\n", trigger.formula).as_bytes())?;
        // A script's reference ran on its check-sat alone, kept beside it.
        let alone = match &trigger.check_sat {
            Some(c) => {
                let path = dir.join(format!("{stem}.alone.smt2"));
                atomic_file::write(&path, format!("{}\n", c.alone.trim_end()).as_bytes())?;
                path
            }
            None => smt2.clone(),
        };
        atomic_file::write(
            &dir.join(format!("{stem}.log")),
            log(trigger, &smt2, &alone).as_bytes(),
        )?;
        Ok(smt2)
    }

    /// Saves `sample` unless its group (solver, status, error line) already has one;
    /// returns the `.smt2` path when this call wrote it.
    pub fn save_sample(&self, sample: &Sample) -> std::io::Result<Option<PathBuf>> {
        let dir = self
            .samples
            .join(sample.call.status)
            .join(&sample.call.solver.name);
        let stem = slug(sample.error_line.unwrap_or("no error line"));
        let log_path = dir.join(format!("{stem}.log"));
        {
            let mut sampled = self.sampled.lock().unwrap_or_else(|e| e.into_inner());
            if !sampled.insert(log_path.clone()) {
                return Ok(None);
            }
        }
        if log_path.exists() {
            return Ok(None); // kept by an earlier run in this directory
        }
        fs::create_dir_all(&dir)?;
        let smt2 = dir.join(format!("{stem}.smt2"));
        atomic_file::write(&smt2, format!("{}\n", sample.formula).as_bytes())?;
        let mut text = String::new();
        let _ = writeln!(text, "status: {}", sample.call.status);
        let _ = writeln!(text, "index: {}", sample.index);
        let _ = writeln!(
            text,
            "first error line: {}",
            sample.error_line.unwrap_or("(none)")
        );
        let _ = writeln!(text, "formula: {}", sample.formula);
        let _ = writeln!(
            text,
            "(one sample per solver, status and first error line; the other calls like it \
             are rows of runs.csv)"
        );
        describe(&mut text, "solver", &sample.call, &smt2);
        atomic_file::write_new(&log_path, text.as_bytes())?;
        Ok(Some(smt2))
    }
}

/// The index as it appears in a file name: whole up to [`MAX_INDEX_IN_NAME`] digits,
/// else `<first 12 digits>-<digit count>d-<hash>`.
pub fn index_in_name(index: &str) -> Cow<'_, str> {
    if index.len() <= MAX_INDEX_IN_NAME {
        return Cow::Borrowed(index);
    }
    let head: String = index.chars().take(12).collect();
    Cow::Owned(format!(
        "{head}-{}d-{:016x}",
        index.chars().count(),
        fnv1a(index)
    ))
}

/// FNV-1a: stable across runs and machines, unlike std's hasher.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

/// A file or directory name for a text (a crash signature, an error line): readable,
/// filesystem-safe, short, and unique by a hash.
fn slug(text: &str) -> String {
    let readable: String = text
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
    format!(
        "{}-{:08x}",
        readable.trim_matches(|c| c == '_' || c == '.'),
        fnv1a(text) as u32
    )
}

/// A trigger's log: the verdict and what established it, then the solver's call on
/// `smt2` and the reference's on `reference_file` (the same file but for a script's
/// finding, whose reference ran on the check-sat alone).
fn log(t: &Trigger, smt2: &Path, reference_file: &Path) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "verdict: {}", t.verdict);
    let _ = writeln!(out, "index: {}", t.index);
    if let Some(sig) = t.signature {
        let _ = writeln!(out, "signature: {sig}");
    }
    if let Some(e) = t.own.evidence {
        let _ = writeln!(out, "evidence: {e}");
    }
    let _ = writeln!(out, "formula: {}", t.formula);
    if let Some(c) = &t.check_sat {
        let _ = writeln!(
            out,
            "check-sat: {} (the script's answer there, judged against the same release on \
             that check-sat's assertions alone, {})",
            c.position,
            reference_file
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        );
    }
    if let Some(check) = t.own.model_check {
        let _ = writeln!(
            out,
            "model check (et's evaluation of the printed model): {check}"
        );
        if t.verdict == Verdict::ValidatorFalseAlarm {
            out.push_str(
                "validator false alarm: the solver's own model check failed, but the \
                 model it printed satisfies the formula\n",
            );
        }
    }
    if let Some(w) = t.own.witness {
        let _ = writeln!(out, "witness (et's, satisfies the formula):\n{w}");
    }
    describe(&mut out, "solver", &t.call, smt2);
    match &t.reference {
        Some(r) => describe(&mut out, "reference", r, reference_file),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn solver(name: &str) -> SolverConfig {
        SolverConfig::new(name, "z3", "1", vec!["/bin/z3".into()])
    }

    /// Workers that find the same new crash at once both save their trigger.
    #[test]
    fn racing_saves_of_one_new_signature_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        for round in 0..10 {
            let store = BugStore::new(&dir.path().join(format!("run-{round}")));
            let barrier = std::sync::Barrier::new(6);
            std::thread::scope(|s| {
                for w in 0..6 {
                    let (store, barrier) = (&store, &barrier);
                    s.spawn(move || {
                        let solver = solver("z3");
                        let index = w.to_string();
                        let trigger = Trigger {
                            verdict: Verdict::Crash,
                            index: &index,
                            formula: "(check-sat)",
                            call: CallRecord {
                                solver: &solver,
                                status: "crash",
                                outcome: None,
                            },
                            own: OwnChecks::default(),
                            reference: None,
                            signature: Some("SIGSEGV: about to crash"),
                            check_sat: None,
                        };
                        barrier.wait();
                        store
                            .save(&trigger)
                            .unwrap_or_else(|e| panic!("round {round}, worker {w}: {e}"));
                    });
                }
            });
        }
    }

    #[test]
    fn file_names_stay_short_for_any_index() {
        let dir = tempfile::tempdir().unwrap();
        let store = BugStore::new(dir.path());
        let solver = solver("z3-4.8.5");
        let index = format!("1{}", "0".repeat(400));
        let trigger = Trigger {
            verdict: Verdict::InvalidModel,
            index: &index,
            formula: "(check-sat)",
            call: CallRecord {
                solver: &solver,
                status: "sat",
                outcome: None,
            },
            own: OwnChecks::default(),
            reference: None,
            signature: None,
            check_sat: None,
        };
        let path = store.save(&trigger).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.len() < 100 && name.starts_with("z3-4.8.5-1000"),
            "{name}"
        );
        let log = std::fs::read_to_string(path.with_extension("log")).unwrap();
        assert!(log.contains(&format!("index: {index}\n")), "{log}");
        // Short indices keep their plain names.
        let trigger = Trigger {
            index: "12345",
            ..trigger
        };
        let path = store.save(&trigger).unwrap();
        assert_eq!(path.file_name().unwrap(), "z3-4.8.5-12345.smt2");
    }
}
