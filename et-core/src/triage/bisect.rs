//! `et bisect`: one formula on every installed version of a family, in release order,
//! and where the behaviour changes. With an expected answer (given, or a reference
//! solver's) each version is judged through [`crate::judging`] as `et run` would judge
//! it (et's model check and the formula's witness included),
//! which turns the changes into first-bad / first-fixed releases.

use crate::judging::reference::Ruling;
use crate::judging::Formula;
use crate::oracle::{Status, Verdict};
use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::calls::{Answer, CallSettings, Caller};

/// What the versions are compared with.
#[derive(Debug, Clone)]
pub enum Expectation {
    /// Nothing: only changes of behaviour are reported.
    None,
    /// The formula is known to be `sat` or `unsat`.
    Answer(Status),
    /// This solver's answer is the expected one.
    Reference(Box<SolverConfig>),
}

/// One version's answer.
#[derive(Debug, Clone)]
pub struct VersionAnswer {
    /// The solver of that version.
    pub solver: SolverConfig,
    /// What it answered.
    pub answer: Answer,
    /// The verdict against the expected answer (correctness and performance).
    pub verdict: Option<Verdict>,
}

impl VersionAnswer {
    /// What is compared between versions: the status, whether the model was invalid,
    /// and whether the solver's own check failed (crash signatures and times are
    /// allowed to differ).
    pub fn behaviour(&self) -> (Status, bool, bool) {
        (
            self.answer.status,
            self.answer.invalid_model,
            self.answer.self_check_failed,
        )
    }

    /// With an expectation: the version shows a verdict.
    pub fn is_bad(&self) -> bool {
        self.verdict.is_some()
    }
}

/// A bisection's result.
#[derive(Debug, Clone)]
pub struct Bisection {
    /// Every installed version, oldest first.
    pub versions: Vec<VersionAnswer>,
    /// The expected status, if known (decided answers only).
    pub expected: Option<Status>,
    /// The reference's own answer, when the expectation is a reference solver.
    pub reference: Option<Answer>,
    /// Whether versions were judged (an expectation was given).
    pub judged: bool,
}

/// A change between two consecutive versions: indices into [`Bisection::versions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The older version.
    pub before: usize,
    /// The next newer version.
    pub after: usize,
}

impl Bisection {
    /// Consecutive versions whose behaviour differs (or, when judged, whose being bad
    /// differs), oldest first.
    pub fn changes(&self) -> Vec<Change> {
        (1..self.versions.len())
            .filter(|&i| {
                let (a, b) = (&self.versions[i - 1], &self.versions[i]);
                if self.judged {
                    a.is_bad() != b.is_bad() || a.behaviour() != b.behaviour()
                } else {
                    a.behaviour() != b.behaviour()
                }
            })
            .map(|i| Change {
                before: i - 1,
                after: i,
            })
            .collect()
    }

    /// The oldest bad version.
    pub fn first_bad(&self) -> Option<&VersionAnswer> {
        self.versions.iter().find(|v| self.judged && v.is_bad())
    }

    /// The newest bad version.
    pub fn last_bad(&self) -> Option<&VersionAnswer> {
        self.versions
            .iter()
            .rev()
            .find(|v| self.judged && v.is_bad())
    }

    /// The first good version after the newest bad one: the release that fixed it
    /// (`None` when the newest version is bad, or none is).
    pub fn first_fixed(&self) -> Option<&VersionAnswer> {
        let last_bad = self
            .versions
            .iter()
            .rposition(|v| self.judged && v.is_bad())?;
        self.versions.get(last_bad + 1)
    }
}

/// Runs `formula` on `versions` (one family, release order) in parallel, judging each
/// against `expectation`; `progress` is told how many versions have answered
/// ([`Caller::map_observed`]).
pub fn bisect(
    caller: &Caller,
    formula: &Formula,
    versions: &[SolverConfig],
    expectation: &Expectation,
    limits: CallSettings<'_>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Bisection, CallError> {
    let reference = match expectation {
        Expectation::Reference(r) => Some(caller.fresh(r, formula.text(), limits)?),
        _ => None,
    };
    let expected = match expectation {
        Expectation::None => None,
        Expectation::Answer(s) => Some(*s),
        Expectation::Reference(_) => reference.as_ref().and_then(Answer::judging_status),
    };
    let judged = !matches!(expectation, Expectation::None);
    let judge = expected.map(|status| Ruling {
        status,
        invalid_model: false,
    });
    let answers = caller.map_observed(
        versions,
        |s| caller.fresh(s, formula.text(), limits),
        progress,
    );
    let mut out = Vec::with_capacity(versions.len());
    for (solver, answer) in versions.iter().zip(answers) {
        let answer = answer?;
        let verdict = if judged {
            answer.finding(judge, formula).map(|f| f.verdict)
        } else {
            None
        };
        out.push(VersionAnswer {
            solver: solver.clone(),
            answer,
            verdict,
        });
    }
    Ok(Bisection {
        versions: out,
        expected,
        reference,
        judged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn version(v: &str, script: &str) -> SolverConfig {
        SolverConfig {
            version: v.into(),
            ..crate::triage::calls::shell(&format!("sh-{v}"), script)
        }
    }

    const LIMITS: CallSettings = CallSettings::with_timeout(Duration::from_secs(60));

    fn pool() -> Vec<SolverConfig> {
        let invalid = "echo sat; echo '(error \"an invalid model was generated\")'; exit 1";
        vec![
            version("1.0", "echo sat"),
            version("1.1", invalid),
            version("1.2", invalid),
            version("2.0", "echo sat"),
        ]
    }

    #[test]
    fn changes_without_an_expectation() {
        let caller = Caller::new(2).unwrap();
        let b = bisect(
            &caller,
            &Formula::new("f", None),
            &pool(),
            &Expectation::None,
            LIMITS,
            &mut |_, _| {},
        )
        .unwrap();
        let changes: Vec<(&str, &str)> = b
            .changes()
            .iter()
            .map(|c| {
                (
                    b.versions[c.before].solver.version.as_str(),
                    b.versions[c.after].solver.version.as_str(),
                )
            })
            .collect();
        assert_eq!(changes, [("1.0", "1.1"), ("1.2", "2.0")]);
        assert!(b.first_bad().is_none() && b.first_fixed().is_none());
    }

    #[test]
    fn first_bad_and_first_fixed_with_an_expected_answer() {
        let caller = Caller::new(2).unwrap();
        let b = bisect(
            &caller,
            &Formula::new("f", None),
            &pool(),
            &Expectation::Answer(Status::Sat),
            LIMITS,
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(b.first_bad().unwrap().solver.version, "1.1");
        assert_eq!(b.last_bad().unwrap().solver.version, "1.2");
        assert_eq!(b.first_fixed().unwrap().solver.version, "2.0");
        assert_eq!(b.versions[1].verdict, Some(Verdict::InvalidModel));
        // A reference that says unsat makes every sat wrong: nothing is fixed.
        let reference = version("ref", "echo unsat");
        let b = bisect(
            &caller,
            &Formula::new("f", None),
            &pool(),
            &Expectation::Reference(Box::new(reference)),
            LIMITS,
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(b.expected, Some(Status::Unsat));
        assert_eq!(b.first_bad().unwrap().solver.version, "1.0");
        assert!(b.first_fixed().is_none());
    }
}
