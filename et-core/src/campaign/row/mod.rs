//! One row of `runs.csv`: one solver call on one formula. [`RunRow`] is the row as et
//! writes it (serialized by [`super::append`], column order = [`COLUMNS`]) and as every
//! part of et reads it back ([`read`]: the ledger of `--resume`, the CI gate, reports
//! and triage).

pub mod once;
pub mod read;

use serde::Serialize;

use crate::oracle::{Evidence, Status, Verdict};

pub use read::{for_each_row, ReadStats, RowError, RowReader};

/// A completed solver call, as written to `DIR/runs.csv` (column order = field order).
///
/// Files written by older versions of et lack the columns after `signal`; they read
/// with those fields empty, and `evidence` as what the verdict implies
/// ([`Evidence::implied_by`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunRow {
    /// Grammar name (built-in name or the file stem of a `.pest` path).
    pub grammar: String,
    /// Global enumeration index of the formula (decimal, arbitrary precision).
    pub index: String,
    /// FEAT size of the formula.
    pub size: u32,
    /// Unique solver name from the pool (`z3-4.13.0`).
    pub solver: String,
    /// Solver family (`z3`, `cvc5`, `cvc4`, `yices`, ...).
    pub family: String,
    /// Solver version as given in the pool.
    pub version: String,
    /// Classified status.
    pub status: Status,
    /// The verdict, if there is something to report.
    pub verdict: Option<Verdict>,
    /// Name of the reference solver this call was judged against, or empty.
    pub reference: String,
    /// The reference's status on the same formula, if it has one.
    pub reference_status: Option<Status>,
    /// Wall-clock seconds of the call.
    pub time_s: f64,
    /// User + system CPU seconds of the call (children included).
    pub cpu_s: f64,
    /// Peak resident set size in KiB.
    pub max_rss_kb: u64,
    /// Exit code, empty if killed by a signal.
    pub exit_code: Option<i32>,
    /// Terminating signal number, empty if it exited.
    pub signal: Option<i32>,
    /// `yes` (`Some(true)`) when the reference's answer was a clean sat/unsat that could
    /// judge this call, `no` when it was not (undecided, or a `sat` whose model the
    /// reference's own check rejected: no soundness or performance verdict then), empty
    /// when there is no reference.
    #[serde(serialize_with = "yes_no")]
    pub reference_usable: Option<bool>,
    /// What established the verdict (see [`crate::oracle::checks`]); none without a
    /// verdict and for crashes.
    pub evidence: Option<Evidence>,
    /// et's check of the model the solver printed, as et-eval's `ModelCheck::csv`
    /// writes it (`valid`, `invalid`, `undetermined`, ...), empty when no model was
    /// checked (models off, not `sat`, no model printed). Kept as text so a value a
    /// newer et-eval adds reads without a change here. `valid` next to verdict
    /// `invalid_model` with evidence `self-check` is a false alarm of the solver's own
    /// check.
    pub model_check: String,
    /// On a performance verdict (`timeout`, `unknown`): the solver that decided the
    /// formula — the reference if it did, else the fastest solver of the pool whose
    /// answer nothing contradicts; empty otherwise.
    pub decided_by: String,
    /// Wall-clock seconds `decided_by` took (none when its answer came from a cache or
    /// an earlier run).
    pub decided_s: Option<f64>,
    /// How the recorded call was made: `session` (a formula of a long-lived solver
    /// process) or `fresh` (a process of its own; every call with a finding is); none
    /// in files written before et had sessions (all fresh).
    pub mode: Option<crate::judging::CallMode>,
    /// Of a script's call (several check-sats): the check-sat the row is about, 1 for
    /// the first — the first whose answer has a verdict, else the first it did not
    /// decide (its status is the call's there), else the last. The status, verdict,
    /// evidence, reference and model_check columns are that check-sat's: the
    /// reference is the same release on the check-sat's assertions alone, fresh, and
    /// model_check et's check of the model it printed there (the script's own call
    /// prints none). Empty for a formula.
    pub check_sat: Option<u32>,
}

impl RunRow {
    /// sat or unsat without a verdict that spoils the answer: a correct-looking answer.
    /// An invalid model or an unsound answer is decided but not solved; a validator
    /// false alarm (a right `sat` whose valid model the solver's checker rejected) is
    /// solved.
    pub fn solved(&self) -> bool {
        self.status.is_decided() && !self.verdict.is_some_and(Verdict::spoils_answer)
    }

    /// The `model_check` cell that says et found the model valid.
    pub fn model_valid(&self) -> bool {
        self.model_check == MODEL_VALID
    }
}

/// The `model_check` cell of a model et found valid.
pub const MODEL_VALID: &str = "valid";

/// The `reference_usable` cell: `yes`, `no`, or empty.
fn yes_no<S: serde::Serializer>(usable: &Option<bool>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match usable {
        Some(true) => "yes",
        Some(false) => "no",
        None => "",
    })
}

/// The header of `runs.csv`, in column order.
pub const COLUMNS: &[&str] = &[
    "grammar",
    "index",
    "size",
    "solver",
    "family",
    "version",
    "status",
    "verdict",
    "reference",
    "reference_status",
    "time_s",
    "cpu_s",
    "max_rss_kb",
    "exit_code",
    "signal",
    "reference_usable",
    "evidence",
    "model_check",
    "decided_by",
    "decided_s",
    "mode",
    "check_sat",
];

/// One line of `undecided.csv`: a solver's answer on a formula that no solver of the
/// pool decided and no witness of et's proves sat.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct UndecidedRow {
    /// Grammar name.
    pub grammar: String,
    /// Global index of the formula.
    pub index: String,
    /// FEAT size of the formula.
    pub size: u32,
    /// A solver that ran on it (under test or judge).
    pub solver: String,
    /// Its status.
    pub status: String,
    /// Its wall-clock seconds (empty when its answer came from a cache or an earlier
    /// run).
    pub time_s: Option<f64>,
}

/// The header of `undecided.csv`, in column order.
pub const UNDECIDED_COLUMNS: &[&str] = &["grammar", "index", "size", "solver", "status", "time_s"];

/// One line of `session-disagreements.csv`: a call a solver session answered
/// differently from a fresh process of the same solver on the same script (beyond
/// time) — a reset that does not reset, state a session keeps.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct SessionDisagreement {
    /// Grammar name.
    pub grammar: String,
    /// Global index of the formula.
    pub index: String,
    /// FEAT size of the formula.
    pub size: u32,
    /// The solver.
    pub solver: String,
    /// Why the fresh call was made: `confirmation` (of a finding) or `audit`.
    pub found_by: String,
    /// What the session answered (status, self-check, model check, crash signature).
    pub session: String,
    /// What the fresh process answered.
    pub fresh: String,
}

/// The header of `session-disagreements.csv`, in column order.
pub const DISAGREEMENT_COLUMNS: &[&str] = &[
    "grammar", "index", "size", "solver", "found_by", "session", "fresh",
];

/// File name of the session/fresh disagreements, inside a run directory.
pub const DISAGREEMENTS_CSV: &str = "session-disagreements.csv";

/// File name of the formulas nobody decided, inside a run directory.
pub const UNDECIDED_CSV: &str = "undecided.csv";

#[cfg(test)]
mod tests {
    use super::*;

    /// A row with every optional cell filled.
    pub(crate) fn full_row() -> RunRow {
        RunRow {
            grammar: "core".into(),
            index: "7".into(),
            size: 5,
            solver: "z3-4.8.7".into(),
            family: "z3".into(),
            version: "4.8.7".into(),
            status: Status::Sat,
            verdict: Some(Verdict::InvalidModel),
            reference: "cvc5-1.4.2".into(),
            reference_status: Some(Status::Sat),
            time_s: 0.01,
            cpu_s: 0.25,
            max_rss_kb: 1000,
            exit_code: Some(0),
            signal: None,
            reference_usable: Some(false),
            evidence: Some(Evidence::Model),
            model_check: "invalid".into(),
            decided_by: String::new(),
            decided_s: None,
            mode: None,
            check_sat: None,
        }
    }

    fn csv_text(rows: &[RunRow]) -> String {
        let mut w = csv::Writer::from_writer(vec![]);
        for row in rows {
            w.serialize(row).unwrap();
        }
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn header_matches_fields() {
        let text = csv_text(&[full_row()]);
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    }

    /// The bytes et wrote when these cells were strings.
    #[test]
    fn cells_are_written_as_labels() {
        let empty = RunRow {
            status: Status::SetupError,
            verdict: None,
            reference: String::new(),
            reference_status: None,
            exit_code: None,
            signal: Some(9),
            reference_usable: None,
            evidence: None,
            model_check: String::new(),
            decided_by: String::new(),
            decided_s: None,
            mode: None,
            ..full_row()
        };
        let usable = RunRow {
            reference_usable: Some(true),
            decided_by: "z3-4.16.0".into(),
            decided_s: Some(0.5),
            mode: Some(crate::judging::CallMode::Session),
            ..full_row()
        };
        let text = csv_text(&[full_row(), empty, usable]);
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                "core,7,5,z3-4.8.7,z3,4.8.7,sat,invalid_model,cvc5-1.4.2,sat,0.01,0.25,1000,0,,no,model,invalid,,,,",
                "core,7,5,z3-4.8.7,z3,4.8.7,setup_error,,,,0.01,0.25,1000,,9,,,,,,,",
                "core,7,5,z3-4.8.7,z3,4.8.7,sat,invalid_model,cvc5-1.4.2,sat,0.01,0.25,1000,0,,yes,model,invalid,z3-4.16.0,0.5,session,",
            ]
        );
    }

    #[test]
    fn solved_means_decided_without_a_bug() {
        assert!(!full_row().solved(), "an invalid model is not solved");
        let timeout = RunRow {
            verdict: Some(Verdict::Timeout),
            status: Status::Timeout,
            ..full_row()
        };
        assert!(!timeout.solved());
        let fine = RunRow {
            verdict: None,
            ..full_row()
        };
        assert!(fine.solved());
    }
}
