//! The order in which bug groups are reported, worst first, as solver developers ask
//! for them (the cvc5 project's order for fuzzing reports): refutational soundness
//! (`unsat` on a satisfiable formula), solution soundness (`sat` on an unsatisfiable
//! one), invalid models, crashes, performance, then false alarms of the solver's own
//! model validation (a right answer its checker rejected). Within a kind: for invalid models,
//! those et's own model check refuted before those only the solver's self-check
//! reported, for performance those slow also without the solver's answer checks
//! before those slow only while it checks, and `unknown` that some release answers
//! before `unknown` in every release (a limitation, not a regression), timeouts that
//! some release does not show before timeouts in every release (long-standing); then
//! groups that affect the newest
//! installed release; confirmed before flaky; more formulas first; then the smallest
//! trigger, so the order is total and does not depend on the order of the input. Known
//! upstream issues ([`super::known`]) come after every new group.

use std::cmp::{Ordering, Reverse};
use std::fmt;

use crate::oracle::{Status, Verdict};
use crate::version::compare_versions;

/// What kind of bug a verdict is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `unsat` on a satisfiable formula: a proof of something false.
    RefutationalSoundness,
    /// `sat` on an unsatisfiable formula.
    SolutionSoundness,
    /// A model that does not satisfy the formula.
    InvalidModel,
    /// A crash (signal, assertion, internal error).
    Crash,
    /// A timeout or `unknown` where the reference decided the formula.
    Performance,
    /// The solver's own model check rejected a model that satisfies the formula.
    ValidatorFalseAlarm,
}

impl Kind {
    /// Every kind, worst first.
    pub const ALL: [Kind; 6] = [
        Kind::RefutationalSoundness,
        Kind::SolutionSoundness,
        Kind::InvalidModel,
        Kind::Crash,
        Kind::Performance,
        Kind::ValidatorFalseAlarm,
    ];

    /// The kind of a verdict given the solver's answer.
    pub fn of(verdict: Verdict, status: Status) -> Kind {
        match verdict {
            // A script's answer its fresh self contradicts is a wrong sat or unsat.
            Verdict::Unsound | Verdict::Incremental if status == Status::Unsat => {
                Kind::RefutationalSoundness
            }
            Verdict::Unsound | Verdict::Incremental => Kind::SolutionSoundness,
            Verdict::InvalidModel => Kind::InvalidModel,
            Verdict::Crash => Kind::Crash,
            Verdict::Timeout | Verdict::Unknown => Kind::Performance,
            Verdict::ValidatorFalseAlarm => Kind::ValidatorFalseAlarm,
        }
    }

    /// The label in `groups.csv`.
    pub fn label(self) -> &'static str {
        match self {
            Kind::RefutationalSoundness => "refutational_soundness",
            Kind::SolutionSoundness => "solution_soundness",
            Kind::InvalidModel => "invalid_model",
            Kind::Crash => "crash",
            Kind::Performance => "performance",
            Kind::ValidatorFalseAlarm => "validator_false_alarm",
        }
    }

    /// The kind whose [`Kind::label`] is `label`.
    pub fn from_label(label: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.label() == label)
    }

    /// A heading for reports.
    pub fn title(self) -> &'static str {
        match self {
            Kind::RefutationalSoundness => "refutational soundness",
            Kind::SolutionSoundness => "solution soundness",
            Kind::InvalidModel => "invalid model",
            Kind::Crash => "crash",
            Kind::Performance => "performance",
            Kind::ValidatorFalseAlarm => "validator false alarm",
        }
    }

    /// What the kind means, in one sentence.
    pub fn meaning(self) -> &'static str {
        match self {
            Kind::RefutationalSoundness => "the solver answers `unsat` on a satisfiable formula",
            Kind::SolutionSoundness => "the solver answers `sat` on an unsatisfiable formula",
            Kind::InvalidModel => {
                "the solver answers `sat` with a model that does not satisfy the formula"
            }
            Kind::Crash => "the solver crashes",
            Kind::Performance => {
                "the solver times out or gives up where the reference decides the formula within the run's limits"
            }
            Kind::ValidatorFalseAlarm => {
                "the solver's validator rejects a model that satisfies the formula"
            }
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// What ranking needs to know about a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankKey {
    /// The group is a known upstream issue: after every new one.
    pub known: bool,
    /// The kind of bug.
    pub kind: Kind,
    /// et's own model check refuted a model of the group (invalid models only).
    pub model_checked: bool,
    /// The solver decides in time without its answer checks (performance only).
    pub slow_only_with_checks: bool,
    /// Every installed release gives up (`unknown` only).
    pub gives_up_always: bool,
    /// Every installed release times out (timeouts only): long-standing, after the
    /// regressions.
    pub long_standing: bool,
    /// The newest installed release of the family shows the verdict.
    pub affects_newest: bool,
    /// The newest affected release.
    pub last: String,
    /// At least one trigger reproduced in every attempt.
    pub confirmed: bool,
    /// Distinct formulas in the group.
    pub formulas: usize,
    /// The smallest trigger's size.
    pub size: u32,
    /// The smallest trigger's index (decimal).
    pub index: String,
    /// Family, operators or crash signature: the last tie-breaker.
    pub name: String,
}

/// Decimal strings by value.
pub fn compare_indices(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Worst first (see the module documentation).
pub fn compare(a: &RankKey, b: &RankKey) -> Ordering {
    let checked = |k: &RankKey| Reverse(k.kind == Kind::InvalidModel && k.model_checked);
    a.known
        .cmp(&b.known)
        .then_with(|| a.kind.cmp(&b.kind))
        .then_with(|| checked(a).cmp(&checked(b)))
        .then_with(|| a.slow_only_with_checks.cmp(&b.slow_only_with_checks))
        .then_with(|| a.gives_up_always.cmp(&b.gives_up_always))
        .then_with(|| a.long_standing.cmp(&b.long_standing))
        .then_with(|| Reverse(a.affects_newest).cmp(&Reverse(b.affects_newest)))
        .then_with(|| compare_versions(&b.last, &a.last))
        .then_with(|| Reverse(a.confirmed).cmp(&Reverse(b.confirmed)))
        .then_with(|| Reverse(a.formulas).cmp(&Reverse(b.formulas)))
        .then_with(|| a.size.cmp(&b.size))
        .then_with(|| compare_indices(&a.index, &b.index))
        .then_with(|| a.name.cmp(&b.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(kind: Kind) -> RankKey {
        RankKey {
            known: false,
            kind,
            model_checked: false,
            slow_only_with_checks: false,
            gives_up_always: false,
            long_standing: false,
            affects_newest: false,
            last: "4.8.5".into(),
            confirmed: true,
            formulas: 1,
            size: 6,
            index: "100".into(),
            name: "z3".into(),
        }
    }

    #[test]
    fn kinds_come_in_the_developers_order() {
        assert_eq!(
            Kind::of(Verdict::Unsound, Status::Unsat),
            Kind::RefutationalSoundness
        );
        assert_eq!(
            Kind::of(Verdict::Unsound, Status::Sat),
            Kind::SolutionSoundness
        );
        assert_eq!(
            Kind::of(Verdict::Unknown, Status::Unknown),
            Kind::Performance
        );
        let mut keys: Vec<RankKey> = Kind::ALL.iter().rev().map(|&k| key(k)).collect();
        keys.sort_by(compare);
        let kinds: Vec<Kind> = keys.iter().map(|k| k.kind).collect();
        assert_eq!(kinds, Kind::ALL);
    }

    #[test]
    fn within_a_kind() {
        let newest = RankKey {
            affects_newest: true,
            formulas: 1,
            ..key(Kind::Crash)
        };
        let old_but_many = RankKey {
            formulas: 50,
            ..key(Kind::Crash)
        };
        assert_eq!(compare(&newest, &old_but_many), Ordering::Less);
        let flaky = RankKey {
            confirmed: false,
            formulas: 50,
            ..key(Kind::Crash)
        };
        assert_eq!(compare(&old_but_many, &flaky), Ordering::Less);
        let newer = RankKey {
            last: "4.8.10".into(),
            formulas: 1,
            ..key(Kind::Crash)
        };
        assert_eq!(compare(&newer, &old_but_many), Ordering::Less);
        // et's model check outranks even the newest release, for invalid models only.
        let checked = RankKey {
            model_checked: true,
            ..key(Kind::InvalidModel)
        };
        let self_check_newest = RankKey {
            affects_newest: true,
            ..key(Kind::InvalidModel)
        };
        assert_eq!(compare(&checked, &self_check_newest), Ordering::Less);
        // A solver slow only while it checks its answers comes after one slow without.
        let checks_only_newest = RankKey {
            slow_only_with_checks: true,
            affects_newest: true,
            ..key(Kind::Performance)
        };
        assert_eq!(
            compare(&key(Kind::Performance), &checks_only_newest),
            Ordering::Less
        );
        // So does a solver that has always given up on it.
        let always = RankKey {
            gives_up_always: true,
            affects_newest: true,
            ..key(Kind::Performance)
        };
        assert_eq!(compare(&key(Kind::Performance), &always), Ordering::Less);
        // And one that has always timed out: long-standing, after a regression.
        let long_standing = RankKey {
            long_standing: true,
            affects_newest: true,
            ..key(Kind::Performance)
        };
        assert_eq!(
            compare(&key(Kind::Performance), &long_standing),
            Ordering::Less
        );
        assert_eq!(compare_indices("99", "100"), Ordering::Less);
        assert_eq!(compare_indices("100", "100"), Ordering::Equal);
    }
}
