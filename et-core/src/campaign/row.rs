//! One row of `runs.csv`: one solver call on one formula.

use serde::{Deserialize, Serialize};

/// A completed solver call, as written to `DIR/runs.csv` (column order = field order).
///
/// `verdict` is empty when there is nothing to report; `reference` is empty when the
/// solver has no reference. Files written by older versions of et lack the columns
/// after `signal`; they read with those fields empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// Classified status label (`sat unsat unknown timeout memout crash rejected`).
    pub status: String,
    /// Verdict label (`unsound invalid_model crash timeout unknown`) or empty.
    pub verdict: String,
    /// Name of the reference solver this call was judged against, or empty.
    pub reference: String,
    /// The reference's status on the same formula, or empty.
    pub reference_status: String,
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
    /// `yes` when the reference's answer was a clean sat/unsat that could judge this
    /// call, `no` when it was not (undecided, or a `sat` whose model the reference's own
    /// check rejected: no soundness or performance verdict then), empty when there is
    /// no reference.
    #[serde(default)]
    pub reference_usable: String,
    /// What established the verdict (`reference`, `witness`, `model`, `self-check`;
    /// see [`crate::oracle::checks`]), empty without a verdict and for crashes.
    #[serde(default)]
    pub evidence: String,
    /// et's check of the model the solver printed: `valid`, `invalid`, `undetermined`,
    /// empty when no model was checked (models off, not `sat`, no model printed).
    /// `valid` next to verdict `invalid_model` with evidence `self-check` is a false
    /// alarm of the solver's own check.
    #[serde(default)]
    pub model_check: String,
    /// On a performance verdict (`timeout`, `unknown`): the solver that decided the
    /// formula — the reference (evidence `reference`), or the fastest solver of the pool
    /// whose answer nothing contradicts (evidence `pool`); empty otherwise.
    #[serde(default)]
    pub decided_by: String,
    /// Wall-clock seconds `decided_by` took (empty when its answer came from a cache or
    /// an earlier run).
    #[serde(default)]
    pub decided_s: Option<f64>,
}

/// One line of `undecided.csv`: a solver's answer on a formula that no solver of the
/// pool decided and no witness of et's proves sat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// File name of the formulas nobody decided, inside a run directory.
pub const UNDECIDED_CSV: &str = "undecided.csv";

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
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_matches_fields() {
        let mut w = csv::Writer::from_writer(vec![]);
        w.serialize(RunRow {
            grammar: "core".into(),
            index: "7".into(),
            size: 5,
            solver: "z3-4.13.0".into(),
            family: "z3".into(),
            version: "4.13.0".into(),
            status: "sat".into(),
            verdict: String::new(),
            reference: String::new(),
            reference_status: String::new(),
            time_s: 0.01,
            cpu_s: 0.01,
            max_rss_kb: 1000,
            exit_code: Some(0),
            signal: None,
            reference_usable: String::new(),
            evidence: String::new(),
            model_check: String::new(),
            decided_by: String::new(),
            decided_s: None,
        })
        .unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    }
}
