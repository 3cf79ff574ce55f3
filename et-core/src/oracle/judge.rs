//! Judging a classified call against the reference answer. Which solver is the
//! reference is decided with the pool ([`crate::solvers::reference_rules`]).

use super::checks::{run_checks, CallFacts};
use super::{Status, Verdict};

/// The verdict on one call of the solver under test from its status, its own model
/// check and the reference's status alone (no model of et's and no witness: what
/// triage, bisect and shrink know of a re-run), or `None` when it is fine.
///
/// In order ([`super::checks::CHECKS`]): the solver's own model check failed →
/// `invalid_model` (it is the more specific finding even if the answer is also
/// wrong); `crash`; `sat`/`unsat` contradicting a decided reference → `unsound`;
/// `timeout`/`unknown` where the reference decided the formula → the performance
/// verdicts. An undecided or missing reference gives no soundness or performance
/// verdict; `memout` and `rejected` never give one.
pub fn judge(status: Status, invalid_model: bool, reference: Option<Status>) -> Option<Verdict> {
    run_checks(&CallFacts {
        status,
        self_check_failed: invalid_model,
        model_check: None,
        reference,
        witness: &false,
    })
    .map(|f| f.verdict)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Status::*;

    #[test]
    fn judging() {
        assert_eq!(judge(Sat, false, Some(Unsat)), Some(Verdict::Unsound));
        assert_eq!(judge(Unsat, false, Some(Sat)), Some(Verdict::Unsound));
        assert_eq!(judge(Sat, false, Some(Sat)), None);
        assert_eq!(judge(Sat, false, Some(Unknown)), None);
        assert_eq!(judge(Sat, false, Some(Timeout)), None);
        assert_eq!(judge(Sat, false, None), None);
        assert_eq!(judge(Sat, true, Some(Sat)), Some(Verdict::InvalidModel));
        assert_eq!(judge(Sat, true, Some(Unsat)), Some(Verdict::InvalidModel));
        assert_eq!(judge(Sat, true, None), Some(Verdict::InvalidModel));
        assert_eq!(judge(Crash, false, None), Some(Verdict::Crash));
        assert_eq!(judge(Timeout, false, Some(Unsat)), Some(Verdict::Timeout));
        assert_eq!(judge(Timeout, false, Some(Unknown)), None);
        assert_eq!(judge(Unknown, false, Some(Sat)), Some(Verdict::Unknown));
        assert_eq!(judge(Unknown, false, None), None);
        assert_eq!(judge(Memout, false, Some(Sat)), None);
        assert_eq!(judge(Rejected, false, Some(Sat)), None);
    }
}
