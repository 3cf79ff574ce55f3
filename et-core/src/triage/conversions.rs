//! Formulas that lean on an implicit Int→Real conversion. ET's mixed grammars apply
//! Real operators to Int terms (`(sin a)` with `a` an Int); z3 converts silently,
//! while SMT-LIB's mixed logics have no such conversion and cvc5 refuses the formula.
//! A report about such a formula also gives it with the conversions written out
//! (`to_real`), a form every solver reads, and says what the solver answers on that
//! form: whether the bug needs the implicit conversion or not.
//!
//! *Must not:* change the formula a finding is about (everything else in its report
//! was measured on it), or claim an answer it did not observe.

use crate::judging::Formula;
use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::calls::{Answer, CallSettings, Caller};
use super::confirm::{recorded_reference, shows};
use super::group::Finding;

/// A formula with its implicit conversions written out, and the solver's answer on it.
#[derive(Debug, Clone)]
pub struct Converted {
    /// The formula with `to_real` where the original relies on a conversion.
    pub text: String,
    /// The operators that took a converted argument, each once, in order.
    pub operators: Vec<&'static str>,
    /// What the solver answered on it.
    pub answer: Answer,
    /// The answer shows the finding's verdict, judged as the original was.
    pub shows: bool,
}

/// `formula` with its implicit Int→Real conversions written out, and the operators
/// that needed them; `None` when it relies on none (or et cannot read it).
pub fn written_out(formula: &str) -> Option<(String, Vec<&'static str>)> {
    let (script, coercions) = et_eval::Script::parse_with_coercions(formula).ok()?;
    if coercions.is_empty() {
        return None;
    }
    let mut operators: Vec<&'static str> = Vec::new();
    for c in coercions {
        if !operators.contains(&c.operator) {
            operators.push(c.operator);
        }
    }
    Some((script.text(), operators))
}

/// Runs `solver` once on `f`'s formula with its conversions written out, at `limits`
/// (those `f` was confirmed at), and judges the answer as `f`'s was; `None` when the
/// formula relies on no conversion. `witness_values` is the run's witness bound.
pub fn check(
    caller: &Caller,
    f: &Finding,
    solver: &SolverConfig,
    limits: CallSettings<'_>,
    witness_values: Option<usize>,
) -> Result<Option<Converted>, CallError> {
    let Some((text, operators)) = written_out(&f.formula) else {
        return Ok(None);
    };
    let answer = caller.fresh(solver, &text, limits)?;
    let judge = match &f.confirmation.reference {
        Some(r) => Some(r.as_reference()),
        None => recorded_reference(&f.trigger),
    };
    let formula = Formula::new(&text, witness_values);
    let shows = match f.pinned_wrong_sat() {
        // A wrong `sat` on a pinned formula: the formula is unsatisfiable, so `sat` is
        // the bug.
        Some(_) => answer.status == crate::oracle::Status::Sat,
        None => shows(&f.trigger, &answer, judge, &formula),
    };
    Ok(Some(Converted {
        text,
        operators,
        answer,
        shows,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_formulas_that_rely_on_a_conversion_are_written_out() {
        let (text, operators) = written_out(
            "(declare-const a Int) (declare-const b Real) (assert (< (tan a) (+ b 1))) (check-sat)",
        )
        .expect("tan and + take an Int");
        assert_eq!(
            text,
            "(declare-const a Int) (declare-const b Real) (assert (< (tan (to_real a)) (+ b 1.0))) (check-sat)"
        );
        assert_eq!(operators, ["tan"]);
        assert_eq!(
            written_out("(declare-const a Int) (assert (< a 1)) (check-sat)"),
            None
        );
    }
}
