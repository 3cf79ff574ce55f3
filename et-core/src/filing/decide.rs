//! What a maintainer takes: which root causes are filed, which are not and why, and
//! the order to file them in.
//!
//! Not filed: an issue known upstream or by design (et's list, `known-issues.toml`,
//! read in the trackers); a finding that needs an option set to 0 where 0 makes the
//! solver decide nothing (`restart-int-base=0`: one line to the developers, not a
//! report); a long-standing slowdown under 10× the best solver's time; a performance
//! finding no solver decides within the long limit. Filed last: findings that need an
//! expert option (cvc5's option categories: options for its developers, whose
//! findings its maintainers rank far below the default mode's).

use crate::solvers::Pool;
use crate::triage::known::KnownIssue;
use crate::triage::rank::Kind;

use super::join::RootCause;
use super::measure::Measured;
use super::measure::Settings;
use super::read::TriageReport;

/// What becomes of a root cause.
#[derive(Debug, Clone, PartialEq)]
pub enum Disposition {
    /// A report to file.
    File,
    /// Known upstream or by design: the issue, as et's list describes it.
    Known(String),
    /// Needs a setting of 0 that makes the solver decide nothing: the settings.
    Degenerate(Vec<String>),
    /// No release of the family decides it and some say so (`unknown`): incomplete by
    /// design (z3 on `sin`), et's limitation rule. The answers of the release table.
    Limitation(String),
    /// A long-standing slowdown under the filing threshold: the newest release's CPU
    /// seconds and the best other solver's.
    Slow {
        /// The newest release's time.
        seconds: f64,
        /// The best other solver's time.
        best: f64,
    },
    /// No other solver decides it within the long limit: nothing shows it decidable.
    Undecided,
    /// The report's command no longer shows the bug here: what it answered.
    NotShown(String),
}

impl Disposition {
    /// A short label for tables.
    pub fn label(&self) -> &'static str {
        match self {
            Disposition::File => "to file",
            Disposition::Known(_) => "known",
            Disposition::Degenerate(_) => "degenerate setting",
            Disposition::Limitation(_) => "limitation",
            Disposition::Slow { .. } => "slow, under the threshold",
            Disposition::Undecided => "undecided by every solver",
            Disposition::NotShown(_) => "not shown again",
        }
    }
}

/// The settings `r`'s configuration adds to the default mode, as `name=value`
/// (`--restart-int-base=0` → `restart-int-base=0`).
pub fn settings(r: &TriageReport, pool: &Pool) -> Vec<String> {
    r.configuration_options(pool)
        .iter()
        .map(|o| setting(o))
        .collect()
}

/// `--restart-int-base=0` → `restart-int-base=0`.
fn setting(option: &str) -> String {
    option.trim_start_matches('-').to_string()
}

/// Whether a setting is a numeric option set to 0.
fn is_zero(setting: &str) -> bool {
    setting
        .split_once('=')
        .is_some_and(|(_, v)| v.trim() == "0" || v.trim() == "0.0")
}

/// Whether `option` of solver `name` is an expert option by the solver's own option
/// information (its catalog).
fn is_expert(pool: &Pool, name: &str, option: &str) -> bool {
    crate::solvers::options::category_of(pool, name, option).is_some_and(|c| c.is_expert())
}

/// What is decided before any call: known, degenerate, or to be measured (`File`), and
/// the expert options the root cause needs.
pub fn before_measuring(
    reports: &[TriageReport],
    cause: &RootCause,
    known: &[KnownIssue],
    pool: &Pool,
) -> (Disposition, Vec<String>) {
    let r = &reports[cause.representative()];
    let options = settings(r, pool);
    let expert = options
        .iter()
        .filter(|o| {
            let name = o.split('=').next().unwrap_or(o);
            is_expert(pool, r.base_solver(), name)
        })
        .cloned()
        .collect();
    for &i in &cause.members {
        let m = &reports[i];
        let m_options = settings(m, pool);
        if let Some(k) = crate::triage::known::find(
            known,
            &m.family,
            m.kind,
            &m.operators,
            &m.formula(),
            &m_options,
        ) {
            return (Disposition::Known(k.describe()), expert);
        }
    }
    if r.kind == Kind::Performance && r.regression_step().is_none() {
        let answers = r.release_answers();
        let decided = |a: &String| a.starts_with("sat") || a.starts_with("unsat");
        if !answers.is_empty()
            && !answers.iter().any(decided)
            && answers.iter().any(|a| a == "unknown")
        {
            let gives_up = answers.iter().filter(|a| *a == "unknown").count();
            return (
                Disposition::Limitation(format!(
                    "no installed release decides it; {gives_up} of {} give up (`unknown`)",
                    answers.len()
                )),
                expert,
            );
        }
    }
    let zero: Vec<String> = options.iter().filter(|o| is_zero(o)).cloned().collect();
    if !zero.is_empty() {
        return (Disposition::Degenerate(zero), expert);
    }
    (Disposition::File, expert)
}

/// What is decided once the report's command ran: a performance report whose newest
/// release answers within the long limit is filed only as a regression or at
/// [`Settings::slowdown_to_file`] × the best solver's time.
pub fn after_measuring(r: &TriageReport, m: &Measured, settings: &Settings) -> Disposition {
    if !m.shows_bug {
        return Disposition::NotShown(m.newest.describe());
    }
    if r.kind != Kind::Performance || r.verdict == "unknown" {
        return Disposition::File;
    }
    let regression = r.regression_step().is_some();
    let Some(best) = m.best_other() else {
        return if regression {
            Disposition::File
        } else {
            Disposition::Undecided
        };
    };
    let seconds = m.newest.cpu_s;
    if !regression
        && m.newest.decided()
        && seconds < settings.slowdown_to_file * best.cpu_s.max(0.01)
    {
        return Disposition::Slow {
            seconds,
            best: best.cpu_s,
        };
    }
    Disposition::File
}

/// The order of root causes: to file first — the default mode before expert options,
/// wrong answers before models, crashes and slowness, regressions before long-standing
/// slowness — then the others by what they are.
pub fn rank_key(
    reports: &[TriageReport],
    cause: &RootCause,
    disposition: &Disposition,
    expert: &[String],
) -> (u8, bool, Kind, bool, usize) {
    let r = &reports[cause.representative()];
    let disposition = match disposition {
        Disposition::File => 0,
        Disposition::Known(_) => 1,
        Disposition::Degenerate(_) => 2,
        Disposition::Limitation(_) => 3,
        Disposition::Slow { .. } => 4,
        Disposition::Undecided => 5,
        Disposition::NotShown(_) => 6,
    };
    (
        disposition,
        !expert.is_empty(),
        r.kind,
        r.regression_step().is_none(),
        cause.representative(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_settings_are_degenerate() {
        assert!(is_zero("restart-int-base=0"));
        assert!(is_zero("smt.seq.min_unfolding=0"));
        assert!(!is_zero("bv-rw-extend-eq=true"));
        assert!(!is_zero("sat.euf=true"));
        assert!(!is_zero("x=10"));
    }
}
