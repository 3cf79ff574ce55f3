//! Model pinning: an invalid model can hide a wrong `sat`. The *pinned formula* is the
//! formula plus, for each declared constant, an assertion that it equals its value in
//! the model the solver printed (an array by the entries its model lists). The model
//! falsifies the formula, so the pinned formula is unsatisfiable when every constant is
//! pinned whole: its one candidate assignment is the model, and et's evaluation finds it
//! false — no solver needed. Where an array's other entries stay free, another solver's
//! `unsat` on the pinned formula is the evidence instead. A solver that still answers
//! `sat` on it gives a wrong `sat` (solution soundness), a far stronger report than an
//! invalid model; one that answers `unsat` only prints its model wrong.

use et_eval::{
    evaluate, parse_model, without_error_lines, Binding, Limits, ModelDialect, Script, Truth, Value,
};

use crate::oracle::Status;
use crate::solvers::SolverConfig;

use super::calls::{Answer, CallSettings, Caller};

/// A formula with a model's values pinned.
#[derive(Debug, Clone, PartialEq)]
pub struct PinnedFormula {
    /// The formula, then one `(assert (= x v))` per pinned value, then `(check-sat)`.
    pub text: String,
    /// Every declared constant is pinned whole (no array entry left free).
    pub whole: bool,
    /// Where et's evaluation finds the pinned formula false under the model.
    pub false_at: String,
}

/// Why a pinned formula is unsatisfiable.
#[derive(Debug, Clone, PartialEq)]
pub enum UnsatBy {
    /// et's evaluation: every constant is pinned whole, and under those values (the
    /// model) the formula is false.
    Evaluation,
    /// A solver of the run answered `unsat` on it (an array pinned by some entries
    /// only leaves the others free).
    Solver(String),
}

/// What pinning showed about an invalid model.
#[derive(Debug, Clone, PartialEq)]
pub struct Pinned {
    /// The formula the invalid model was printed for.
    pub original: String,
    /// The pinned formula.
    pub formula: PinnedFormula,
    /// Why it is unsatisfiable.
    pub unsat_by: UnsatBy,
    /// The solver's answer on it.
    pub answer: Answer,
}

impl Pinned {
    /// The solver answers `sat` on an unsatisfiable formula: a wrong `sat`.
    pub fn wrong_sat(&self) -> bool {
        self.answer.status == Status::Sat
    }
}

/// The pinned formula of `formula` (one line of SMT-LIB commands ending in
/// `(check-sat)`) under the model in `output` (a solver's answer, read as a campaign
/// reads it), when the model gives a value to some constant and et's evaluation finds
/// the formula false under it.
pub fn pinned_formula(formula: &str, output: &str, dialect: ModelDialect) -> Option<PinnedFormula> {
    let script = Script::parse(formula).ok()?;
    let model = parse_model(&without_error_lines(output), dialect).ok()?;
    if model.wrong_sort(&script).is_some() {
        return None; // nothing to pin: the model is not one of this formula
    }
    let assignment = model.assignment(&script);
    let mut pins = String::new();
    let mut whole = true;
    for (decl, binding) in script.decls.iter().zip(&assignment.values) {
        match binding {
            Binding::Value(Value::Array(array)) => {
                whole = false;
                for (index, value) in &array.entries {
                    pins.push_str(&format!(
                        "(assert (= (select {} {index}) {value}))\n",
                        decl.name
                    ));
                }
            }
            Binding::Value(value) => {
                pins.push_str(&format!("(assert (= {} {value}))\n", decl.name));
            }
            _ => whole = false,
        }
    }
    if pins.is_empty() {
        return None;
    }
    let evaluation = evaluate(&script, &assignment, &Limits::default());
    let Truth::False = evaluation.truth else {
        return None;
    };
    let cut = formula.rfind("(check-sat)")?;
    let text = format!("{}\n{pins}{}", formula[..cut].trim_end(), &formula[cut..]);
    Some(PinnedFormula {
        text,
        whole,
        false_at: evaluation.explanation.unwrap_or_default(),
    })
}

/// Pins the invalid model of `answer` (the solver's re-run of `formula`) and asks the
/// solver again, and — when an array is pinned by some entries only — `judge` whether
/// the pinned formula is unsatisfiable. `None` when nothing could be pinned or nothing
/// shows the pinned formula unsatisfiable.
pub fn pin(
    caller: &Caller,
    formula: &str,
    answer: &Answer,
    solver: &SolverConfig,
    judge: Option<&SolverConfig>,
    limits: CallSettings<'_>,
) -> Result<Option<Pinned>, crate::solvers::call::CallError> {
    let Some(output) = &answer.model_output else {
        return Ok(None);
    };
    let Some(pinned) = pinned_formula(formula, output, solver.model_dialect()) else {
        return Ok(None);
    };
    let unsat_by = if pinned.whole {
        UnsatBy::Evaluation
    } else {
        let Some(judge) = judge else {
            return Ok(None);
        };
        let verdict = caller.fresh(judge, &pinned.text, limits)?;
        if verdict.judging_status() != Some(Status::Unsat) {
            return Ok(None);
        }
        UnsatBy::Solver(judge.name.clone())
    };
    let answer = caller.fresh(solver, &pinned.text, limits)?;
    Ok(Some(Pinned {
        original: formula.to_string(),
        formula: pinned,
        unsat_by,
        answer,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_are_pinned_whole_and_arrays_by_their_entries() {
        let formula = "(declare-const a Int) (declare-const b Int) (assert (> a b)) (check-sat)";
        let pinned = pinned_formula(
            formula,
            "sat\n((define-fun a () Int 0) (define-fun b () Int 3))",
            ModelDialect::default(),
        )
        .unwrap();
        assert_eq!(
            pinned.text,
            "(declare-const a Int) (declare-const b Int) (assert (> a b))\n\
             (assert (= a 0))\n(assert (= b 3))\n(check-sat)"
        );
        assert!(pinned.whole);
        assert!(pinned.false_at.contains("(> a b)"), "{}", pinned.false_at);
        // A valid model has nothing to pin.
        let valid = "sat\n((define-fun a () Int 4) (define-fun b () Int 3))";
        assert_eq!(
            pinned_formula(formula, valid, ModelDialect::default()),
            None
        );

        // yices prints an array as a function; its listed entries are pinned.
        let formula =
            "(declare-const a (Array (_ BitVec 8) (_ BitVec 8))) (declare-const b (_ BitVec 8)) \
                       (assert (= a (store a #x00 (bvadd #x11 b)))) (check-sat)";
        let output = "sat\n(model\n(define-fun a ((x!0 (_ BitVec 8))) (_ BitVec 8) \
                      (ite (= x!0 #x00) #xa2 #x00))\n(define-fun b () (_ BitVec 8) #x00))";
        let pinned = pinned_formula(formula, output, ModelDialect::default()).unwrap();
        assert!(!pinned.whole);
        assert!(
            pinned.text.contains("(assert (= (select a #x00) #xa2))")
                && pinned.text.contains("(assert (= b #x00))"),
            "{}",
            pinned.text
        );
    }
}
