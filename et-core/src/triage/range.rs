//! Version ranges: which installed releases of a solver family show a trigger's
//! verdict. The trigger is run on every installed version of its family in release
//! order ([`crate::version`]); the range is the first and the last release that shows
//! the verdict, and a group of triggers shares one range. Calls go through
//! [`Caller::cached`], so a formula is run once per solver however many triggers (of
//! several versions under test) share it.

use crate::judging::reference::Ruling;
use crate::judging::Formula;
use crate::solvers::SolverConfig;
use crate::version::compare_versions;

use super::calls::{CallSettings, Caller};
use super::confirm::shows;
use super::triggers::TriggerRow;

/// The installed solvers of `family` (case-insensitive), one per version, in release
/// order, each in its default mode (an option configuration is no release). When two
/// solvers share a version the first in `solvers` wins, so a caller lists the run's
/// own solvers before other pools.
pub fn family_versions(solvers: &[SolverConfig], family: &str) -> Vec<SolverConfig> {
    let mut out: Vec<SolverConfig> = Vec::new();
    for s in solvers {
        if s.family.eq_ignore_ascii_case(family)
            && s.configuration.is_none()
            && !out.iter().any(|o| o.version == s.version)
        {
            out.push(s.clone());
        }
    }
    out.sort_by(|a, b| compare_versions(&a.version, &b.version));
    out
}

/// One installed version and whether the trigger's verdict showed on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionResult {
    /// The version.
    pub version: String,
    /// The solver's name.
    pub solver: String,
    /// `Some(true)`: the verdict showed; `Some(false)`: it did not; `None`: the solver
    /// could not be run (its program is missing, say), or it refused an option of the
    /// configuration (`refused_option`).
    pub affected: Option<bool>,
    /// The release refused an option of the configuration under test (an older
    /// release without it, say): it neither shows the finding nor is free of it.
    pub refused_option: bool,
    /// What it answered, in a few words (empty when it could not run).
    pub answer: String,
    /// It answered `sat` or `unsat` (whatever the verdict is about).
    pub decided: bool,
}

/// The installed versions of a family, in release order, for one trigger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseTable {
    /// Every installed version, oldest first.
    pub versions: Vec<VersionResult>,
}

impl ReleaseTable {
    /// The affected versions, oldest first.
    pub fn affected(&self) -> impl Iterator<Item = &str> {
        self.versions
            .iter()
            .filter(|v| v.affected == Some(true))
            .map(|v| v.version.as_str())
    }

    /// The oldest affected version.
    pub fn first(&self) -> Option<&str> {
        self.affected().next()
    }

    /// The newest affected version.
    pub fn last(&self) -> Option<&str> {
        self.affected().last()
    }

    /// The newest installed version.
    pub fn newest(&self) -> Option<&str> {
        self.versions.last().map(|v| v.version.as_str())
    }

    /// The newest installed version shows the verdict.
    pub fn affects_newest(&self) -> bool {
        self.versions
            .last()
            .is_some_and(|v| v.affected == Some(true))
    }

    /// The affected releases as runs of consecutive installed releases, oldest first:
    /// (first, last) of each. A release that could not run neither breaks a run nor
    /// starts one. Performance findings near the limit come and go between releases;
    /// a bug that was fixed and came back is two runs.
    pub fn runs(&self) -> Vec<(&str, &str)> {
        let mut runs: Vec<(&str, &str)> = Vec::new();
        let mut open = false;
        for v in &self.versions {
            match v.affected {
                Some(true) if open => runs.last_mut().expect("an open run").1 = &v.version,
                Some(true) => {
                    runs.push((&v.version, &v.version));
                    open = true;
                }
                Some(false) => open = false,
                None => {}
            }
        }
        runs
    }

    /// `4.8.5–4.8.7`, one version alone, or several runs (`4.8.9–4.8.10, 5.3.0–5.4.1`).
    pub fn describe(&self) -> String {
        let runs = self.runs();
        if runs.is_empty() {
            return "(none)".to_string();
        }
        runs.iter()
            .map(|&run| run_text(run))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The affected releases by what they answered, in runs of consecutive installed
    /// releases: `4.8.5–5.3.2: unknown; 5.3.3–5.4.1: timeout`. A performance finding's
    /// releases may fail in two ways (give up, run out of time), and a line saying
    /// every release times out must not hide those that gave up.
    pub fn answers(&self) -> String {
        let mut runs: Vec<(&str, (&str, &str))> = Vec::new();
        let mut open = false;
        for v in &self.versions {
            match v.affected {
                Some(true) => match runs.last_mut() {
                    Some((answer, run)) if open && *answer == v.answer => run.1 = &v.version,
                    _ => {
                        runs.push((&v.answer, (&v.version, &v.version)));
                        open = true;
                    }
                },
                Some(false) => open = false,
                None => {}
            }
        }
        runs.iter()
            .map(|&(answer, run)| format!("{}: {answer}", run_text(run)))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Every affected release answered `answer`.
    pub fn all_answered(&self, answer: &str) -> bool {
        self.versions
            .iter()
            .filter(|v| v.affected == Some(true))
            .all(|v| v.answer == answer)
    }

    /// For a title: the newest run, and how many affected releases came before it
    /// (`5.3.0–5.4.1 and 9 earlier releases`).
    pub fn describe_short(&self) -> String {
        let runs = self.runs();
        let Some(&(a, b)) = runs.last() else {
            return "(none)".to_string();
        };
        let newest = run_text((a, b));
        let first_of_newest = self
            .versions
            .iter()
            .position(|v| v.version == a)
            .unwrap_or(0);
        let earlier = self.versions[..first_of_newest]
            .iter()
            .filter(|v| v.affected == Some(true))
            .count();
        match earlier {
            0 => newest,
            1 => format!("{newest} and 1 earlier release"),
            n => format!("{newest} and {n} earlier releases"),
        }
    }

    /// The newest release before `version` that decided the formula (`sat` or
    /// `unsat`): where a timeout's slowdown can be measured from. A release that gave
    /// up (`unknown`) did not show a timeout, and was not good either.
    pub fn last_decided_before(&self, version: &str) -> Option<&str> {
        let at = self.versions.iter().position(|v| v.version == version)?;
        self.versions[..at]
            .iter()
            .rev()
            .find(|v| v.decided)
            .map(|v| v.version.as_str())
    }

    /// Every installed release that ran shows it, the newest included: nothing to
    /// bisect, a trait of the family rather than a regression.
    pub fn always_shown(&self) -> bool {
        matches!(self.newest_since(), Some((_, None)))
    }

    /// When the newest installed release shows it: where that started — the first
    /// release of the newest run, and the release before it that did not show it (none
    /// when the run starts at the oldest installed release).
    pub fn newest_since(&self) -> Option<(&str, Option<&str>)> {
        if !self.affects_newest() {
            return None;
        }
        let (start, _) = *self.runs().last()?;
        let at = self.versions.iter().position(|v| v.version == start)?;
        let before = self.versions[..at]
            .iter()
            .rev()
            .find(|v| v.affected == Some(false))
            .map(|v| v.version.as_str());
        Some((start, before))
    }
}

/// `4.8.5–4.8.7`, or one version alone.
fn run_text((first, last): (&str, &str)) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

/// Runs the trigger's formula on every solver of `versions` (the trigger's family in
/// release order) and records which show its verdict against `reference`. The
/// trigger's own version counts as affected without a call: it is where the verdict
/// was found (whether it reproduces is confirmation's business); `own_answer` is what
/// it answered there.
pub fn version_range(
    caller: &Caller,
    trigger: &TriggerRow,
    formula: &Formula,
    versions: &[SolverConfig],
    reference: Option<Ruling>,
    limits: CallSettings,
    own_answer: &str,
) -> ReleaseTable {
    let versions = versions
        .iter()
        .map(|solver| {
            if solver.version == trigger.row().version {
                return VersionResult {
                    version: solver.version.clone(),
                    solver: solver.name.clone(),
                    affected: Some(true),
                    answer: own_answer.to_string(),
                    decided: trigger.row().status.is_decided(),
                    refused_option: false,
                };
            }
            match caller.cached(solver, formula.text(), limits) {
                // A version that could not start (or was killed from outside) says
                // nothing about the bug.
                // A release that refuses an option of the configuration (it has not
                // got it yet) is not a release that crashes on the formula.
                Ok(answer) => VersionResult {
                    version: solver.version.clone(),
                    solver: solver.name.clone(),
                    affected: (answer.status.tells_about_solver() && !answer.refused_option)
                        .then(|| shows(trigger, &answer, reference, formula)),
                    answer: answer.describe(),
                    decided: answer.status.is_decided(),
                    refused_option: answer.refused_option,
                },
                Err(_) => VersionResult {
                    version: solver.version.clone(),
                    solver: solver.name.clone(),
                    affected: None,
                    answer: String::new(),
                    decided: false,
                    refused_option: false,
                },
            }
        })
        .collect();
    ReleaseTable { versions }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{Status, Verdict};
    use crate::triage::calls::shell;
    use crate::triage::confirm::tests::{decided, opaque, trigger, LIMITS};

    fn solver(name: &str, family: &str, version: &str) -> SolverConfig {
        SolverConfig::new(name, family, version, vec!["/bin/true".into()])
    }

    #[test]
    fn versions_of_a_family_in_release_order_first_entry_wins() {
        let solvers = [
            solver("run-z3-4.8.10", "z3", "4.8.10"),
            solver("z3-4.8.9", "z3", "4.8.9"),
            solver("cvc5", "cvc5", "1.0.0"),
            solver("home-z3-4.8.10", "Z3", "4.8.10"),
            solver("z3-4.16.0", "z3", "4.16.0"),
        ];
        let names: Vec<String> = family_versions(&solvers, "z3")
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["z3-4.8.9", "run-z3-4.8.10", "z3-4.16.0"]);
    }

    /// A version's result, with nothing answered.
    fn v(version: &str, affected: Option<bool>) -> VersionResult {
        VersionResult {
            version: version.into(),
            solver: version.into(),
            affected,
            answer: String::new(),
            decided: false,
            refused_option: false,
        }
    }

    #[test]
    fn first_last_and_newest() {
        let range = ReleaseTable {
            versions: vec![
                v("4.8.5", Some(true)),
                v("4.8.7", Some(true)),
                v("4.8.8", None),
                v("4.16.0", Some(false)),
            ],
        };
        assert_eq!(
            (range.first(), range.last()),
            (Some("4.8.5"), Some("4.8.7"))
        );
        assert_eq!(range.describe(), "4.8.5–4.8.7");
        assert!(!range.affects_newest());
        assert_eq!(range.newest(), Some("4.16.0"));
        assert_eq!(range.newest_since(), None);
    }

    #[test]
    fn answers_are_told_in_runs() {
        let answered = |version: &str, answer: &str| VersionResult {
            answer: answer.into(),
            ..v(version, Some(true))
        };
        let r = ReleaseTable {
            versions: vec![
                answered("5.3.1", "unknown"),
                answered("5.3.2", "unknown"),
                answered("5.3.3", "timeout"),
                v("5.4.0", None),
                answered("5.4.1", "timeout"),
            ],
        };
        assert_eq!(r.answers(), "5.3.1–5.3.2: unknown; 5.3.3–5.4.1: timeout");
        assert!(!r.all_answered("timeout"));
        let timeouts = ReleaseTable {
            versions: r.versions[2..].to_vec(),
        };
        assert!(timeouts.all_answered("timeout"));
    }

    #[test]
    fn a_bug_that_came_back_is_two_runs() {
        let range = ReleaseTable {
            versions: vec![
                v("4.8.9", Some(true)),
                v("4.8.10", Some(true)),
                v("4.8.11", Some(false)),
                v("4.15.3", Some(true)),
                v("5.1.0", Some(false)),
                v("5.2.0", None),
                v("5.3.0", Some(true)),
                v("5.3.1", None),
                v("5.4.1", Some(true)),
            ],
        };
        assert_eq!(
            range.runs(),
            [
                ("4.8.9", "4.8.10"),
                ("4.15.3", "4.15.3"),
                ("5.3.0", "5.4.1")
            ]
        );
        assert_eq!(range.describe(), "4.8.9–4.8.10, 4.15.3, 5.3.0–5.4.1");
        assert_eq!(range.describe_short(), "5.3.0–5.4.1 and 3 earlier releases");
        assert_eq!(range.newest_since(), Some(("5.3.0", Some("5.1.0"))));
        let from_the_oldest = ReleaseTable {
            versions: vec![v("1.0", Some(true)), v("2.0", Some(true))],
        };
        assert_eq!(from_the_oldest.describe_short(), "1.0–2.0");
        assert_eq!(from_the_oldest.newest_since(), Some(("1.0", None)));
    }

    /// A configuration ranged over older releases meets one without its option: that
    /// release refuses it at the start (z3 exits 110 with "unknown parameter"), which
    /// is not the finding (a performance finding counts crashes), nor its absence.
    #[test]
    fn a_release_without_the_option_neither_shows_the_finding_nor_clears_it() {
        let caller = Caller::new(1).unwrap();
        let release = |version: &str, script: &str| SolverConfig {
            version: version.into(),
            ..shell(&format!("sh-{version}"), script)
        };
        let versions = [
            release(
                "0",
                "echo \"ERROR: unknown parameter 'euf' at module 'sat'\" >&2; exit 110",
            ),
            release("0.5", "echo sat"),
            release("1", "echo timeout"),
            release("2", "kill -SEGV $$"),
        ];
        let t = trigger(Status::Timeout, Verdict::Timeout);
        let range = version_range(
            &caller,
            &t,
            &opaque(),
            &versions,
            decided(Status::Sat),
            LIMITS,
            "timeout",
        );
        let seen: Vec<_> = range
            .versions
            .iter()
            .map(|v| (v.affected, v.refused_option))
            .collect();
        assert_eq!(
            seen,
            [
                (None, true),
                (Some(false), false),
                (Some(true), false),
                (Some(true), false)
            ]
        );
        assert_eq!(range.describe(), "1–2");
        assert_eq!(range.newest_since(), Some(("1", Some("0.5"))));
    }
}
