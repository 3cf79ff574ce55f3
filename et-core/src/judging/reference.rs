//! A reference's answer and the rule that picks it: of a solver's ordered judges
//! (who they are is the pool's rules, [`crate::solvers::reference_rules`]), the first
//! that decides the formula is its reference ([`first_decided`]); deciding means a
//! clean `sat` or `unsat` ([`Ruling::usable`]). The campaign and triage judge with it;
//! the campaign's cache of answers is its own (`campaign::reference`).

use crate::oracle::Status;
use crate::solvers::SolverConfig;

/// A judge's answer on a formula, as far as judging others needs it
/// ([`super::as_reference`] makes one of a call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ruling {
    /// Its classified status.
    pub status: Status,
    /// The model it printed is wrong (the status is then `sat`): et's check found it
    /// false, or, where et's check decided nothing, the solver's own check failed.
    /// This is the one meaning of `invalid_model` in et.
    pub invalid_model: bool,
}

impl Ruling {
    /// Whether the answer can judge other solvers: a clean `sat` or `unsat`. An answer
    /// whose model the solver's own check rejected has decided nothing.
    pub fn usable(self) -> bool {
        self.status.is_decided() && !self.invalid_model
    }
}

/// Which judge's answer a call is judged by, as far as the answers known so far tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reference<'a> {
    /// No judges: the call gets no soundness or performance verdict.
    None,
    /// The first judge whose answer is usable (a clean sat/unsat), or the first judge
    /// when none of them had one (its answer then gives no verdict).
    Judged(&'a SolverConfig, Ruling),
    /// This judge's answer is needed next (the ones before it did not decide).
    Missing(&'a SolverConfig),
}

/// The published campaign's rule for an ordered list of judges: the first that
/// decides the formula is the reference. Deciding means a usable answer
/// ([`Ruling::usable`]): a `sat` whose model the judge's own check rejected decided
/// nothing, so the next judge is asked. `known` gives a judge's answer if there is one.
pub fn first_decided<'a>(
    judges: &'a [SolverConfig],
    known: impl Fn(&str) -> Option<Ruling>,
) -> Reference<'a> {
    for judge in judges {
        match known(&judge.name) {
            Some(answer) if answer.usable() => return Reference::Judged(judge, answer),
            Some(_) => continue,
            None => return Reference::Missing(judge),
        }
    }
    match judges.first() {
        Some(first) => Reference::Judged(
            first,
            known(&first.name).unwrap_or(Ruling {
                status: Status::Unknown,
                invalid_model: false,
            }),
        ),
        None => Reference::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_judge_that_decides_is_the_reference() {
        let judges: Vec<SolverConfig> = ["trunk", "cvc5", "z3"]
            .iter()
            .map(|n| SolverConfig::new(n, n, "1", vec![n.to_string()]))
            .collect();
        let plain = |status| Ruling {
            status,
            invalid_model: false,
        };
        let answers = |list: &'static [(&'static str, Status)]| {
            move |name: &str| {
                list.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, s)| plain(*s))
            }
        };
        let name = |r: Reference| match r {
            Reference::Judged(j, a) => format!("{} {}", j.name, a.status.label()),
            Reference::Missing(j) => format!("need {}", j.name),
            Reference::None => "none".to_string(),
        };
        assert_eq!(name(first_decided(&judges, answers(&[]))), "need trunk");
        assert_eq!(
            name(first_decided(&judges, answers(&[("trunk", Status::Unsat)]))),
            "trunk unsat"
        );
        assert_eq!(
            name(first_decided(
                &judges,
                answers(&[("trunk", Status::Timeout)])
            )),
            "need cvc5"
        );
        assert_eq!(
            name(first_decided(
                &judges,
                answers(&[("trunk", Status::Timeout), ("cvc5", Status::Sat)])
            )),
            "cvc5 sat"
        );
        assert_eq!(
            name(first_decided(
                &judges,
                answers(&[
                    ("trunk", Status::Timeout),
                    ("cvc5", Status::Unknown),
                    ("z3", Status::Crash)
                ])
            )),
            "trunk timeout"
        );
        assert_eq!(name(first_decided(&[], answers(&[]))), "none");
    }

    /// A judge whose `sat` came with a model its own check rejected decided nothing:
    /// the next judge is asked, and when none decides, the call gets no verdict.
    #[test]
    fn an_invalid_model_does_not_decide() {
        let judges: Vec<SolverConfig> = ["trunk", "cvc5"]
            .iter()
            .map(|n| SolverConfig::new(n, n, "1", vec![n.to_string()]))
            .collect();
        let invalid = Ruling {
            status: Status::Sat,
            invalid_model: true,
        };
        let unsat = Ruling {
            status: Status::Unsat,
            invalid_model: false,
        };
        let only_trunk = |name: &str| (name == "trunk").then_some(invalid);
        assert_eq!(
            first_decided(&judges, only_trunk),
            Reference::Missing(&judges[1])
        );
        let both = |name: &str| Some(if name == "trunk" { invalid } else { unsat });
        assert_eq!(
            first_decided(&judges, both),
            Reference::Judged(&judges[1], unsat)
        );
        let neither = |_: &str| Some(invalid);
        let Reference::Judged(first, answer) = first_decided(&judges, neither) else {
            panic!("the first judge is the reference when none decides");
        };
        assert_eq!((first.name.as_str(), answer.usable()), ("trunk", false));
    }
}
