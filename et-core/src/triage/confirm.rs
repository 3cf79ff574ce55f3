//! Confirmation: does a trigger's verdict show again when the formula is run again?
//!
//! - A correctness verdict (`unsound`, `invalid_model`, `crash`) is re-run
//!   [`Settings::attempts`] times, each attempt a fresh process of the solver and of its
//!   reference under the run's limits, judged through [`crate::judging`] as `et run`
//!   judged it (et's model check, the formula's witness, the reference's answer). All attempts reproduce → confirmed; some or none → flaky (kept: a bug that
//!   shows once in a while is still a bug, and a report should say so).
//! - A performance verdict (`timeout`, `unknown`) is re-run once at
//!   [`Settings::performance_factor`] × the run's timeout, after the reference is re-run
//!   at the run's timeout: the finding is kept only while the reference still decides
//!   the formula within the run's timeout (dropped otherwise); the solver still failing
//!   at the longer limit confirms it, deciding there marks it flaky (slow, not stuck).
//!   A confirmed one of a solver that runs with answer checks (cvc5's
//!   `--check-models`, z3's `model_validate=true`: [`Family::answer_checks`]) is
//!   re-run once more without them at the run's limits: a solver that then decides
//!   in time is slow only while it checks its answer, which its report must say.
//!   With [`Settings::performance_formulas`] only the smallest few of each candidate
//!   group are re-run ([`super::group::next_to_confirm`]); the others are
//!   [`Outcome::NotRerun`]: their row, which `et run` already observed in a fresh
//!   process, stands as recorded.
//!
//! [`Family::answer_checks`]: crate::solvers::family::Family::answer_checks

use std::time::Duration;

use crate::judging::reference::Ruling;
use crate::judging::Formula;
use crate::oracle::checks::WitnessFact;
use crate::oracle::{Status, Verdict};
use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::calls::{Answer, CallSettings, Caller};
use super::group::Finding;
use super::triggers::TriggerRow;

/// How triage confirms triggers.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Attempts per correctness trigger (each a fresh solver and reference call).
    pub attempts: u32,
    /// Performance triggers are re-run at this multiple of the run's timeout.
    pub performance_factor: f64,
    /// Performance triggers re-run per candidate group (one solver under test, verdict
    /// and operators): the smallest, as many as it takes for this many to survive
    /// (not be dropped); `None`: every one. Correctness triggers are always re-run.
    pub performance_formulas: Option<usize>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            attempts: 2,
            performance_factor: 4.0,
            performance_formulas: Some(3),
        }
    }
}

/// What confirmation concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The verdict showed in every attempt.
    Confirmed,
    /// The verdict showed in some attempts or none: kept, marked.
    Flaky,
    /// A performance finding whose reference no longer decides the formula in time.
    Dropped,
    /// A performance finding that was not re-run: smaller ones of its candidate group
    /// were ([`Settings::performance_formulas`]); the run's own fresh observation stands.
    NotRerun,
}

impl Outcome {
    /// `confirmed`, `flaky`, `dropped`.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Confirmed => "confirmed",
            Outcome::Flaky => "flaky",
            Outcome::Dropped => "dropped",
            Outcome::NotRerun => "not_rerun",
        }
    }
}

/// The result of confirming one trigger.
#[derive(Debug, Clone)]
pub struct Confirmation {
    /// Confirmed, flaky or dropped.
    pub outcome: Outcome,
    /// Attempts that showed the verdict.
    pub reproduced: u32,
    /// Attempts made.
    pub attempts: u32,
    /// The solver's answer in the first attempt that showed the verdict, else in the
    /// first attempt.
    pub answer: Answer,
    /// The reference's answer in that attempt, if the trigger has a reference.
    pub reference: Option<Answer>,
    /// The timeout the solver was re-run at.
    pub timeout: Duration,
    /// Why a finding is flaky or dropped, in words.
    pub note: Option<String>,
    /// A confirmed performance finding of a solver with answer checks: its answer
    /// without them, at the run's limits.
    pub unchecked: Option<Answer>,
}

impl Confirmation {
    /// A confirmed performance finding whose solver decides the formula within the
    /// run's limits once its answer checks are off: the checks are what is slow.
    pub fn slow_only_with_checks(&self) -> bool {
        self.unchecked
            .as_ref()
            .is_some_and(|a| a.status.is_decided())
    }
}

/// Whether `answer` shows the trigger's verdict, judged as `et run` judges
/// ([`Answer::finding`]: et's model check, the formula's `witness`, the `reference`'s
/// answer): the same verdict, and for `unsound` the same wrong answer (an `unsat` that
/// turns into a wrong `sat` is another bug). A performance trigger's formula is known
/// to be decidable (by the run's reference, a solver of the pool, or et's witness), and
/// what shows it is not deciding: a timeout, an `unknown`, a crash or running out of
/// memory are one failure, whatever judged the trigger's. A release that gives up (or
/// crashes) where the trigger timed out is no good release, and a formula some releases
/// give up on and the rest time out on is a limitation, not a regression between the
/// two. A release that rejects the formula (it cannot read it) shows nothing either way.
pub fn shows(
    trigger: &TriggerRow,
    answer: &Answer,
    reference: Option<Ruling>,
    witness: &dyn WitnessFact,
) -> bool {
    if !trigger.verdict().is_bug() {
        return matches!(
            answer.status,
            Status::Timeout | Status::Unknown | Status::Crash | Status::Memout
        );
    }
    let verdict = answer.finding(reference, witness).map(|f| f.verdict);
    verdict == Some(trigger.verdict())
        && (trigger.verdict() != Verdict::Unsound || answer.status == trigger.row().status)
}

/// The reference answer the run recorded for a trigger, for when its reference solver
/// cannot be run again (not installed here): what the run knew.
pub fn recorded_reference(trigger: &TriggerRow) -> Option<Ruling> {
    trigger.row().reference_status.map(|status| Ruling {
        status,
        invalid_model: false,
    })
}

/// A reported finding asked again on another solver — its release with fewer
/// options: its formula at the limits it was confirmed at, `attempts` times, judged
/// as its confirmation judged.
#[derive(Clone, Copy)]
pub struct Again<'a> {
    /// The triage's caller (its journal, its counts).
    pub caller: &'a Caller,
    /// The finding.
    pub finding: &'a Finding,
    /// Its formula, with et's witness bound (what [`shows`] judges by).
    pub formula: &'a Formula,
    /// The limits it was confirmed at.
    pub limits: CallSettings<'a>,
    /// Runs per solver; every one must show the finding.
    pub attempts: u32,
}

impl Again<'_> {
    /// Whether `solver` shows the finding in every attempt: a crash with the same
    /// signature (another crash is another bug), anything else as [`shows`] judges.
    pub fn shown_by(&self, solver: &SolverConfig) -> Result<bool, CallError> {
        let f = self.finding;
        let judge = match &f.confirmation.reference {
            Some(r) => Some(r.as_reference()),
            None => recorded_reference(&f.trigger),
        };
        let text = self.formula.text();
        self.caller
            .in_every_attempt(solver, text, self.limits, self.attempts, |answer| {
                if f.trigger.verdict() == Verdict::Crash {
                    answer.crash_signature.is_some() && answer.crash_signature == f.crash_signature
                } else {
                    shows(&f.trigger, answer, judge, self.formula)
                }
            })
    }
}

/// Confirms one trigger (see the module documentation). `limits` are the run's.
pub fn confirm(
    caller: &Caller,
    trigger: &TriggerRow,
    formula: &Formula,
    solver: &SolverConfig,
    reference: Option<&SolverConfig>,
    limits: CallSettings<'_>,
    settings: Settings,
) -> Result<Confirmation, CallError> {
    if trigger.verdict().is_bug() {
        confirm_correctness(
            caller, trigger, formula, solver, reference, limits, settings,
        )
    } else {
        confirm_performance(
            caller, trigger, formula, solver, reference, limits, settings,
        )
    }
}

fn confirm_correctness(
    caller: &Caller,
    trigger: &TriggerRow,
    formula: &Formula,
    solver: &SolverConfig,
    reference: Option<&SolverConfig>,
    limits: CallSettings<'_>,
    settings: Settings,
) -> Result<Confirmation, CallError> {
    let attempts = settings.attempts.max(1);
    let mut reproduced = 0;
    let mut kept: Option<(Answer, Option<Answer>, bool)> = None;
    for _ in 0..attempts {
        let answer = caller.fresh(solver, formula.text(), limits)?;
        let reference_answer = match reference {
            Some(r) => Some(caller.fresh(r, formula.text(), limits)?),
            None => None,
        };
        // Without a reference solver, judge against what the run knew.
        let judge = match &reference_answer {
            Some(a) => Some(a.as_reference()),
            None => recorded_reference(trigger),
        };
        let showed = shows(trigger, &answer, judge, formula);
        if showed {
            reproduced += 1;
        }
        // Keep the first attempt that showed the verdict, else the first attempt.
        let replace = match &kept {
            None => true,
            Some((_, _, kept_showed)) => showed && !kept_showed,
        };
        if replace {
            kept = Some((answer, reference_answer, showed));
        }
    }
    let (answer, reference, _) = kept.expect("at least one attempt");
    let (outcome, note) = if reproduced == attempts {
        (Outcome::Confirmed, None)
    } else {
        (
            Outcome::Flaky,
            Some(format!(
                "the verdict showed in {reproduced} of {attempts} re-runs"
            )),
        )
    };
    Ok(Confirmation {
        outcome,
        reproduced,
        attempts,
        answer,
        reference,
        timeout: limits.timeout,
        note,
        unchecked: None,
    })
}

fn confirm_performance(
    caller: &Caller,
    trigger: &TriggerRow,
    formula: &Formula,
    solver: &SolverConfig,
    reference: Option<&SolverConfig>,
    limits: CallSettings<'_>,
    settings: Settings,
) -> Result<Confirmation, CallError> {
    let longer = limits.scaled(settings.performance_factor.max(1.0));
    let reference_answer = match reference {
        Some(r) => Some(caller.fresh(r, formula.text(), limits)?),
        None => None,
    };
    // A witness settles the formula (satisfiable) on its own, as in `et run`: then the
    // finding needs no reference, whatever the reference does now.
    let decided_fast = formula.exists()
        || reference_answer
            .as_ref()
            .is_some_and(|a| a.judging_status().is_some());
    if !decided_fast {
        // The solver is not run: without a fast reference or a witness there is no
        // finding.
        let note = match &reference_answer {
            Some(a) => format!(
                "the reference now answers {} within {} s",
                a.describe(),
                seconds(limits.timeout)
            ),
            None => "no reference solver to compare with".to_string(),
        };
        return Ok(Confirmation {
            outcome: Outcome::Dropped,
            reproduced: 0,
            attempts: 0,
            answer: recorded_answer(trigger),
            reference: reference_answer,
            timeout: longer.timeout,
            note: Some(note),
            unchecked: None,
        });
    }
    let answer = caller.fresh(solver, formula.text(), longer)?;
    let showed = shows(
        trigger,
        &answer,
        reference_answer.as_ref().map(Answer::as_reference),
        formula,
    );
    let note = (!showed).then(|| {
        if answer.status == Status::Starved {
            format!(
                "at {} s it was starved, twice: the wall clock stopped it after {:.2} s of \
                 CPU, so the machine was too busy to judge it",
                seconds(longer.timeout),
                answer.cpu_s
            )
        } else {
            format!(
                "at {} s it answered {} in {:.2} s",
                seconds(longer.timeout),
                answer.describe(),
                answer.time_s
            )
        }
    });
    let unchecked = match solver.without_answer_checks() {
        Some(unchecked) if showed => Some(caller.fresh(&unchecked, formula.text(), limits)?),
        _ => None,
    };
    Ok(Confirmation {
        outcome: if showed {
            Outcome::Confirmed
        } else {
            Outcome::Flaky
        },
        reproduced: u32::from(showed),
        attempts: 1,
        answer,
        reference: reference_answer,
        timeout: longer.timeout,
        note,
        unchecked,
    })
}

/// A performance trigger left as the run recorded it ([`Outcome::NotRerun`]); `limits`
/// are the run's.
pub fn not_rerun(trigger: &TriggerRow, limits: CallSettings<'_>) -> Confirmation {
    Confirmation {
        outcome: Outcome::NotRerun,
        reproduced: 0,
        attempts: 0,
        answer: recorded_answer(trigger),
        reference: None,
        timeout: limits.timeout,
        note: Some(
            "not re-run: smaller formulas of its candidate group were; the run's fresh \
             observation stands"
                .to_string(),
        ),
        unchecked: None,
    }
}

/// What the run recorded of a trigger's call, for a trigger that is not re-run.
fn recorded_answer(trigger: &TriggerRow) -> Answer {
    Answer {
        status: trigger.row().status,
        invalid_model: false,
        self_check_failed: false,
        model_check: None,
        crash_signature: None,
        refused_option: false,
        time_s: trigger.row().time_s,
        cpu_s: trigger.row().cpu_s,
        exit_code: None,
        signal: None,
        excerpt: String::new(),
        model_output: None,
    }
}

/// Seconds for messages: `8`, `0.25`, `0.015625`.
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        let text = format!("{s:.6}");
        text.trim_end_matches('0').to_string()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    use crate::campaign::row::RunRow;
    use crate::oracle::Status;
    use crate::triage::calls::shell;

    /// A formula et-eval does not read: no model check, no witness.
    pub(in crate::triage) fn opaque() -> Formula {
        Formula::new("f", Some(9))
    }

    pub(in crate::triage) fn decided(status: Status) -> Option<Ruling> {
        Some(Ruling {
            status,
            invalid_model: false,
        })
    }

    fn row(status: Status, verdict: Verdict) -> RunRow {
        RunRow {
            grammar: "ints".into(),
            index: "7".into(),
            size: 5,
            solver: "s".into(),
            family: "sh".into(),
            version: "1".into(),
            status,
            verdict: Some(verdict),
            reference: "r".into(),
            reference_status: Some(Status::Sat),
            time_s: 0.5,
            cpu_s: 0.5,
            max_rss_kb: 1000,
            exit_code: Some(0),
            signal: None,
            reference_usable: Some(true),
            evidence: None,
            model_check: String::new(),
            decided_by: String::new(),
            decided_s: None,
            mode: None,
            check_sat: None,
        }
    }

    pub(in crate::triage) fn trigger(status: Status, verdict: Verdict) -> TriggerRow {
        TriggerRow::new(0, 2, row(status, verdict)).expect("a row with a verdict")
    }

    pub(in crate::triage) const LIMITS: CallSettings =
        CallSettings::with_timeout(Duration::from_secs(30));

    #[test]
    fn a_lie_that_repeats_is_confirmed() {
        let caller = Caller::new(1).unwrap();
        let liar = shell("liar", "echo unsat");
        let honest = shell("ref", "echo sat");
        let t = trigger(Status::Unsat, Verdict::Unsound);
        let c = confirm(
            &caller,
            &t,
            &opaque(),
            &liar,
            Some(&honest),
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!(
            (c.outcome, c.reproduced, c.attempts),
            (Outcome::Confirmed, 2, 2)
        );
        assert_eq!(c.reference.unwrap().status, Status::Sat);
        assert_eq!(caller.calls(), 4, "solver and reference, twice");
        // The reference changed its mind: the finding does not show any more.
        let agrees = shell("ref", "echo unsat");
        let c = confirm(
            &caller,
            &t,
            &opaque(),
            &liar,
            Some(&agrees),
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!((c.outcome, c.reproduced), (Outcome::Flaky, 0));
        assert_eq!(c.note.unwrap(), "the verdict showed in 0 of 2 re-runs");
    }

    #[test]
    fn a_reference_with_an_invalid_model_judges_nothing() {
        // As in `et run`: a `sat` whose model the reference's own check rejected decided
        // nothing, so the solver's `unsat` is no longer shown to be unsound.
        let caller = Caller::new(1).unwrap();
        let liar = shell("liar", "echo unsat");
        let broken = shell(
            "ref",
            "echo sat; echo '(error \"an invalid model was generated\")'; exit 1",
        );
        let t = trigger(Status::Unsat, Verdict::Unsound);
        let c = confirm(
            &caller,
            &t,
            &opaque(),
            &liar,
            Some(&broken),
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!((c.outcome, c.reproduced), (Outcome::Flaky, 0));
        assert!(c.reference.unwrap().invalid_model);
    }

    /// A clean answer of `status`, at once.
    fn answered(status: Status) -> Answer {
        Answer {
            status,
            invalid_model: false,
            self_check_failed: false,
            model_check: None,
            crash_signature: None,
            refused_option: false,
            time_s: 0.0,
            cpu_s: 0.0,
            exit_code: Some(0),
            signal: None,
            excerpt: String::new(),
            model_output: None,
        }
    }

    #[test]
    fn a_different_wrong_answer_is_not_the_same_finding() {
        let t = trigger(Status::Unsat, Verdict::Unsound);
        let sat = answered(Status::Sat);
        assert!(!shows(&t, &sat, decided(Status::Unsat), &false));
        let unsat = answered(Status::Unsat);
        assert!(shows(&t, &unsat, decided(Status::Sat), &false));
    }

    /// A release that gives up where the trigger timed out (or the other way round)
    /// fails on the formula as well: it is no good release.
    #[test]
    fn a_timeout_and_an_unknown_are_one_failure_to_decide() {
        let unknown = answered(Status::Unknown);
        let timeout = answered(Status::Timeout);
        let sat = answered(Status::Sat);
        let timed_out = trigger(Status::Timeout, Verdict::Timeout);
        let gave_up = trigger(Status::Unknown, Verdict::Unknown);
        for t in [&timed_out, &gave_up] {
            assert!(shows(t, &unknown, decided(Status::Sat), &false));
            assert!(shows(t, &timeout, decided(Status::Sat), &false));
            assert!(!shows(t, &sat, decided(Status::Sat), &false));
            // A crash does not decide it either; a release that cannot read it says
            // nothing.
            assert!(shows(
                t,
                &answered(Status::Crash),
                decided(Status::Sat),
                &false
            ));
            assert!(!shows(
                t,
                &answered(Status::Rejected),
                decided(Status::Sat),
                &false
            ));
            // Whatever judged the trigger: a timeout with only et's witness (which
            // alone makes no finding in a run) still fails to decide.
            assert!(shows(t, &timeout, None, &true));
        }
        // A failure to decide is no wrong answer.
        let wrong = trigger(Status::Unsat, Verdict::Unsound);
        assert!(!shows(&wrong, &unknown, decided(Status::Sat), &false));
    }

    #[test]
    fn performance_needs_a_fast_reference() {
        let caller = Caller::new(1).unwrap();
        // It computes without end: the CPU limit stops it however loaded the machine.
        let slow = shell("slow", "while :; do :; done");
        let fast = shell("ref", "echo sat");
        let t = trigger(Status::Timeout, Verdict::Timeout);
        // Generous: the reference must answer within it on a loaded machine.
        let limits = CallSettings {
            cpu_timeout: Some(Duration::from_millis(200)),
            ..CallSettings::with_timeout(Duration::from_secs(2))
        };
        let settings = Settings {
            performance_factor: 1.5,
            ..Settings::default()
        };
        let c = confirm(&caller, &t, &opaque(), &slow, Some(&fast), limits, settings).unwrap();
        assert_eq!(c.outcome, Outcome::Confirmed);
        assert_eq!(c.timeout, Duration::from_secs(3));
        assert_eq!(c.answer.status, Status::Timeout);
        let undecided = shell("ref", "echo unknown");
        let c = confirm(
            &caller,
            &t,
            &opaque(),
            &slow,
            Some(&undecided),
            limits,
            settings,
        )
        .unwrap();
        assert_eq!(c.outcome, Outcome::Dropped);
        assert!(c.note.unwrap().contains("now answers unknown"));
    }

    #[test]
    fn a_witness_keeps_a_performance_finding_the_reference_no_longer_decides() {
        let caller = Caller::new(1).unwrap();
        let giveup = shell("giveup", "echo unknown");
        let undecided = shell("ref", "echo unknown");
        let by_witness = RunRow {
            evidence: Some(crate::oracle::Evidence::Witness),
            ..row(Status::Unknown, Verdict::Unknown)
        };
        let t = TriggerRow::new(0, 2, by_witness).unwrap();
        // a = 1 satisfies it: the formula is decided without any solver.
        let sat = Formula::new(
            "(declare-const a Int) (assert (> a 0)) (check-sat)",
            Some(9),
        );
        let c = confirm(
            &caller,
            &t,
            &sat,
            &giveup,
            Some(&undecided),
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!(c.outcome, Outcome::Confirmed, "{c:?}");
        assert_eq!(c.answer.status, Status::Unknown);
        // Without the witness, the reference's `unknown` drops it.
        let c = confirm(
            &caller,
            &t,
            &opaque(),
            &giveup,
            Some(&undecided),
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!(c.outcome, Outcome::Dropped, "{c:?}");
    }

    #[test]
    fn without_a_reference_solver_a_witness_judges_as_in_the_run() {
        let caller = Caller::new(1).unwrap();
        let liar = shell("liar", "echo unsat");
        let unjudged = RunRow {
            reference: String::new(),
            reference_status: None,
            reference_usable: None,
            evidence: Some(crate::oracle::Evidence::Witness),
            ..row(Status::Unsat, Verdict::Unsound)
        };
        let t = TriggerRow::new(0, 2, unjudged).unwrap();
        // a = 1 satisfies it: et's witness convicts the `unsat`, as in the run.
        let sat = "(declare-const a Int) (assert (> a 0)) (check-sat)";
        let c = confirm(
            &caller,
            &t,
            &Formula::new(sat, Some(9)),
            &liar,
            None,
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!((c.outcome, c.reproduced), (Outcome::Confirmed, 2));
        assert!(c.reference.is_none());
        // With the witness search off (as the run may have had it), nothing judges.
        let c = confirm(
            &caller,
            &t,
            &Formula::new(sat, None),
            &liar,
            None,
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!((c.outcome, c.reproduced), (Outcome::Flaky, 0));
    }

    #[test]
    fn without_a_reference_solver_the_recorded_reference_judges() {
        let caller = Caller::new(1).unwrap();
        let liar = shell("liar", "echo unsat");
        let t = trigger(Status::Unsat, Verdict::Unsound);
        assert_eq!(recorded_reference(&t), decided(Status::Sat));
        let c = confirm(
            &caller,
            &t,
            &opaque(),
            &liar,
            None,
            LIMITS,
            Settings::default(),
        )
        .unwrap();
        assert_eq!((c.outcome, c.reproduced), (Outcome::Confirmed, 2));
    }

    #[test]
    fn seconds_print_short() {
        assert_eq!(seconds(Duration::from_secs(8)), "8");
        assert_eq!(seconds(Duration::from_secs_f64(0.25)), "0.25");
        assert_eq!(seconds(Duration::from_secs_f64(1.0 / 64.0)), "0.015625");
    }
}
