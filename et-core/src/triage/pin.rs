//! Model pinning: an invalid model can hide a wrong `sat`. The *pinned formula* is the
//! formula plus, for each declared constant, an assertion that it equals its value in
//! the model the solver printed (an array by the entries its model lists and by its
//! value at each index the formula reads or writes it at under the model). The model
//! falsifies the formula, so the pinned formula is unsatisfiable when every constant is
//! pinned whole: its one candidate assignment is the model, and et's evaluation finds it
//! false — no solver needed. Where an array's other entries stay free, another solver's
//! `unsat` on the pinned formula is the evidence instead. A solver that still answers
//! `sat` on it gives a wrong `sat` (solution soundness), a far stronger report than an
//! invalid model; one that answers `unsat` only prints its model wrong.

use std::sync::Arc;

use et_eval::term::{Op, Term, TermKind};
use et_eval::{
    evaluate, parse_model_for, value_of, without_error_lines, Assignment, Binding, Limits,
    ModelDialect, Script, Truth, Value,
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
    /// For a wrong `sat`: the pinned formula shrunk with ground truth
    /// ([`super::minimize`]), when a step could be kept.
    pub shrunk: Option<super::minimize::Shrunk>,
}

impl Pinned {
    /// Why the formula a report shows is unsatisfiable: et's evaluation once shrinking
    /// left only constants pinned whole.
    pub fn reported_unsat_by(&self) -> UnsatBy {
        match &self.shrunk {
            Some(s) if s.whole => UnsatBy::Evaluation,
            _ => self.unsat_by.clone(),
        }
    }

    /// Where et's evaluation finds the reported formula false under the model.
    pub fn reported_false_at(&self) -> &str {
        self.shrunk
            .as_ref()
            .map_or(&self.formula.false_at, |s| &s.false_at)
    }

    /// What a report shows: the shrunk formula, else the pinned one.
    pub fn reported(&self) -> &str {
        self.shrunk.as_ref().map_or(&self.formula.text, |s| &s.text)
    }

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
    pins(formula, output, dialect)?.formula(formula)
}

/// A formula and the pins of a model: what pinning and shrinking share.
pub struct Pins {
    /// The formula, read by et-eval.
    pub script: Script,
    /// The model's values of its constants.
    pub assignment: Assignment,
    /// Each constant's pins (`(assert (= x v))` lines; empty for one the model leaves
    /// open), by declaration.
    pub pins: Vec<String>,
    /// Whether each constant is pinned whole (not an array with unlisted entries).
    pub whole: Vec<bool>,
    /// The uninterpreted functions' pins, entry by entry: the function's name and one
    /// `(assert (= (f v ...) w))` line for each point the formula applies it at under
    /// the model. Never whole: the function's other entries stay free.
    pub function_pins: Vec<(Arc<str>, String)>,
}

impl Pins {
    /// `formula` (the text these pins were read from) with the pins before its
    /// `(check-sat)`, when some constant is pinned and et's evaluation finds the
    /// formula false under the model.
    pub fn formula(&self, formula: &str) -> Option<PinnedFormula> {
        let pins: String = self.pins.concat()
            + &self
                .function_pins
                .iter()
                .map(|(_, line)| line.as_str())
                .collect::<String>();
        if pins.is_empty() {
            return None;
        }
        let evaluation = evaluate(&self.script, &self.assignment, &Limits::default());
        let Truth::False = evaluation.truth else {
            return None;
        };
        let cut = formula.rfind("(check-sat)")?;
        let text = format!("{}\n{pins}{}", formula[..cut].trim_end(), &formula[cut..]);
        Some(PinnedFormula {
            text,
            whole: self.function_pins.is_empty()
                && self.whole.iter().all(|&w| w)
                && refuted_by_every_interpretation(&self.script, &self.assignment),
            false_at: evaluation.explanation.unwrap_or_default(),
        })
    }
}

/// Whether `script` is false under the values of `assignment`'s constants whatever
/// the division-by-zero functions are: the model's interpretation of them (z3's `div0`,
/// `mod0`, `/0`) is part of what it claims, and may be exactly what is wrong with it,
/// so pinning the constants alone makes a formula unsatisfiable only when no
/// interpretation of its partial operators satisfies it. (et's evaluation searches
/// those interpretations when the assignment names none.)
pub fn refuted_by_every_interpretation(script: &Script, assignment: &Assignment) -> bool {
    let constants_only = Assignment {
        values: assignment.values.clone(),
        interpretations: Default::default(),
    };
    matches!(
        evaluate(script, &constants_only, &Limits::default()).truth,
        Truth::False
    )
}

/// The pins of the model in `output` on `formula`, when the model is one of the
/// formula's (its constants of their declared sorts).
pub fn pins(formula: &str, output: &str, dialect: ModelDialect) -> Option<Pins> {
    let script = Script::parse(formula).ok()?;
    let model = parse_model_for(&without_error_lines(output), dialect, &script).ok()?;
    if model.wrong_sort(&script).is_some() {
        return None; // nothing to pin: the model is not one of this formula
    }
    let assignment = model.assignment(&script);
    let touched = touched_indices(&script, &assignment);
    let mut pins = Vec::new();
    let mut whole = Vec::new();
    for ((decl, binding), touched) in script.decls.iter().zip(&assignment.values).zip(touched) {
        let (text, is_whole) = match binding {
            // An array by the entries its model lists, and by its value at each index
            // the formula reads or writes it at under the model (its default there,
            // unless listed): what the formula's truth under the model rests on. Not
            // `((as const ...) v)`, which not every solver reads (yices does not).
            Binding::Value(Value::Array(array)) => {
                let mut at: Vec<&Value> = array.entries.iter().map(|(i, _)| i).collect();
                for index in &touched {
                    if !at.iter().any(|i| i.smt_eq(index)) {
                        at.push(index);
                    }
                }
                let text = at
                    .into_iter()
                    .map(|index| {
                        format!(
                            "(assert (= (select {} {index}) {}))\n",
                            decl.name,
                            array.select(index)
                        )
                    })
                    .collect();
                (text, false)
            }
            Binding::Value(value) => (format!("(assert (= {} {value}))\n", decl.name), true),
            _ => (String::new(), false),
        };
        pins.push(text);
        whole.push(is_whole);
    }
    // Uninterpreted functions entry by entry: the model's value at each point the
    // formula applies one at under the model (outside binders, where the arguments have
    // values). They come after the constants' pins and are never whole: the function's
    // other entries stay free, so another solver's `unsat` shows the pinned formula
    // unsatisfiable.
    let function_pins = function_entries(&script, &assignment);
    Some(Pins {
        script,
        assignment,
        pins,
        whole,
        function_pins,
    })
}

/// The function's name and one `(assert (= (f v1 ... vn) v))` line per distinct point at which the script's
/// assertions apply an uninterpreted function under `assignment`, with the model's
/// value there; applications whose arguments or value et does not determine (under a
/// quantifier, or a function the model leaves open) are left out.
fn function_entries(script: &Script, assignment: &Assignment) -> Vec<(Arc<str>, String)> {
    fn walk(term: &Term, assignment: &Assignment, out: &mut Vec<(Arc<str>, String)>) {
        let args = match &term.kind {
            TermKind::Call(decl, args) => {
                let values: Option<Vec<Value>> =
                    args.iter().map(|a| value_of(a, assignment)).collect();
                if let (Some(values), Some(value)) = (values, value_of(term, assignment)) {
                    let point: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                    let line =
                        format!("(assert (= ({} {}) {value}))\n", decl.name, point.join(" "));
                    if !out.iter().any(|(_, l)| *l == line) {
                        out.push((decl.name.clone(), line));
                    }
                }
                args
            }
            TermKind::App(_, args)
            | TermKind::Quantifier(_, args)
            | TermKind::Datatype(_, args)
            | TermKind::Match(_, args) => args,
            _ => return,
        };
        for a in args {
            walk(a, assignment, out);
        }
    }
    let mut out = Vec::new();
    for assertion in &script.assertions {
        walk(assertion, assignment, &mut out);
    }
    out
}

/// For each declared constant, the values (under `assignment`) of the indices the
/// script's `select`s and `store`s read or write it at — through stores on top of
/// it: in `(select (store a i v) j)` both `i` and `j` are indices of `a`.
fn touched_indices(script: &Script, assignment: &Assignment) -> Vec<Vec<Value>> {
    fn walk(term: &Term, assignment: &Assignment, out: &mut [Vec<Value>]) {
        let TermKind::App(op, args) = &term.kind else {
            return;
        };
        if matches!(op, Op::Select | Op::Store) && args.len() >= 2 {
            let mut base = &args[0];
            while let TermKind::App(Op::Store, inner) = &base.kind {
                base = &inner[0];
            }
            if let TermKind::Var(k, _) = base.kind {
                if let Some(index) = value_of(&args[1], assignment) {
                    if !out[k].iter().any(|i| i.smt_eq(&index)) {
                        out[k].push(index);
                    }
                }
            }
        }
        for a in args {
            walk(a, assignment, out);
        }
    }
    let mut out = vec![Vec::new(); script.decls.len()];
    for assertion in &script.assertions {
        walk(assertion, assignment, &mut out);
    }
    out
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
    // The formula and the model are read once: for the pinned formula, then for
    // shrinking.
    let Some(pins) = pins(formula, output, solver.model_dialect()) else {
        return Ok(None);
    };
    let Some(pinned) = pins.formula(formula) else {
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
    let mut answer = caller.fresh(solver, &pinned.text, limits)?;
    let mut shrunk = None;
    if answer.status == Status::Sat {
        shrunk = super::minimize::shrink(caller, pins, solver, judge, &unsat_by, limits)?;
        if let Some(s) = &shrunk {
            // The answer a report shows is the one on the formula it shows (a shrunk
            // formula that does not show it again is not reported).
            let again = caller.fresh(solver, &s.text, limits)?;
            if again.status == Status::Sat {
                answer = again;
            } else {
                shrunk = None;
            }
        }
    }
    Ok(Some(Pinned {
        original: formula.to_string(),
        formula: pinned,
        unsat_by,
        answer,
        shrunk,
    }))
}

/// A performance finding's formula with et's witness pinned: each constant asserted
/// equal to its value in the witness. et's evaluation finds the formula true under
/// those values, and they are its one candidate assignment, so the pinned formula is
/// satisfiable by et's evaluation alone. A solver that still times out or gives up on
/// it cannot decide a formula with nothing left to search: a stronger report than the
/// timeout; one that decides it fails at finding the values.
#[derive(Debug, Clone)]
pub struct PinnedWitness {
    /// The formula, then one `(assert (= x v))` per constant, then `(check-sat)`.
    pub text: String,
    /// The solver's answer on it, at the limits the finding was confirmed at.
    pub answer: Answer,
}

/// `formula` with the values of `witness` (et's witness: one line of `define-fun`s)
/// pinned before its `(check-sat)`, when they pin every constant whole and et's
/// evaluation finds the formula true under them. A witness that relies on a choice
/// for division by zero (its trailing `; with …` comment) is not pinned: the formula
/// would be true only under that choice.
pub fn witness_pinned(formula: &str, witness: &str) -> Option<String> {
    if witness.contains(';') {
        return None;
    }
    let pins = pins(
        formula,
        &format!("sat\n({witness})"),
        ModelDialect::default(),
    )?;
    if !pins.whole.iter().all(|&w| w) {
        return None;
    }
    let evaluation = evaluate(&pins.script, &pins.assignment, &Limits::default());
    let Truth::True = evaluation.truth else {
        return None;
    };
    let cut = formula.rfind("(check-sat)")?;
    Some(format!(
        "{}\n{}{}",
        formula[..cut].trim_end(),
        pins.pins.concat(),
        &formula[cut..]
    ))
}

/// Pins et's witness of `formula` ([`witness_pinned`]) and asks `solver` once at
/// `limits`; `None` when there is no witness to pin.
pub fn pin_witness(
    caller: &Caller,
    formula: &str,
    witness: &str,
    solver: &SolverConfig,
    limits: CallSettings<'_>,
) -> Result<Option<PinnedWitness>, crate::solvers::call::CallError> {
    let Some(text) = witness_pinned(formula, witness) else {
        return Ok(None);
    };
    let answer = caller.fresh(solver, &text, limits)?;
    Ok(Some(PinnedWitness { text, answer }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_witness_is_pinned_whole_and_true() {
        let formula = "(declare-const a Int) (declare-const b Int) (assert (> a b)) (check-sat)";
        let pinned =
            witness_pinned(formula, "(define-fun a () Int 1) (define-fun b () Int 0)").unwrap();
        assert_eq!(
            pinned,
            "(declare-const a Int) (declare-const b Int) (assert (> a b))\n\
             (assert (= a 1))\n(assert (= b 0))\n(check-sat)"
        );
        // Values that do not satisfy it, or a division-by-zero choice, pin nothing.
        assert_eq!(
            witness_pinned(formula, "(define-fun a () Int 0) (define-fun b () Int 1)"),
            None
        );
        assert_eq!(
            witness_pinned(
                formula,
                "(define-fun a () Int 1) (define-fun b () Int 0) ; with (div 1 0) = 0"
            ),
            None
        );
    }

    #[test]
    fn functions_are_pinned_entry_by_entry_at_the_points_the_formula_applies_them() {
        let formula = "(declare-const a Int) (declare-fun f (Int) Int) \
                       (assert (> (f (f a)) (f 0))) (check-sat)";
        // z3's style: the function as an ite chain over its parameter.
        let output = "sat\n((define-fun a () Int 1) \
                      (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 5 (ite (= x!0 5) 2 7))))";
        let pinned = pinned_formula(formula, output, ModelDialect::default()).unwrap();
        // f is applied at a = 1, at f(1) = 5 and at 0: three entries, the function's
        // others free, so the pinned formula is not whole.
        for entry in [
            "(assert (= (f 1) 5))",
            "(assert (= (f 5) 2))",
            "(assert (= (f 0) 7))",
        ] {
            assert!(pinned.text.contains(entry), "{entry}: {}", pinned.text);
        }
        assert!(pinned.text.contains("(assert (= a 1))"), "{}", pinned.text);
        assert!(!pinned.whole);
    }

    #[test]
    fn scalars_are_pinned_whole_and_arrays_by_their_entries_and_touched_indices() {
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

        // And by its value at each index the formula touches under the model: the
        // store writes at b + #x11 = #x11, where the model's `a` holds its default.
        // Without that pin, a[#x11] stays free and the pinned formula satisfiable.
        let formula =
            "(declare-const a (Array (_ BitVec 8) (_ BitVec 8))) (declare-const b (_ BitVec 8)) \
             (assert (= a (store a (bvadd #x11 b) #x11))) (check-sat)";
        let output = "sat\n(model\n(define-fun a ((x!0 (_ BitVec 8))) (_ BitVec 8) \
                      (ite (= x!0 #xa2) #x11 #xa2))\n(define-fun b () (_ BitVec 8) #x00))";
        let pinned = pinned_formula(formula, output, ModelDialect::default()).unwrap();
        assert!(
            pinned.text.contains("(assert (= (select a #xa2) #x11))")
                && pinned.text.contains("(assert (= (select a #x11) #xa2))"),
            "{}",
            pinned.text
        );
    }
}
