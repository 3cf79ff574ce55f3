//! The checks a campaign runs on a solver's answer: the model check (is the model the
//! solver printed a model of the formula?) and the witness check (is the formula
//! satisfiable by a small assignment?). Each takes the formula as a parsed
//! [`Script`] and returns a verdict with its explanation, ready for a CSV cell and a
//! bug log.

use std::fmt;

use crate::eval::{evaluate, Evaluation, Limits, Truth};
use crate::model::{parse_model_for, without_error_lines, ModelDialect, ModelError};
use crate::script::{Script, ScriptError};

/// The result of checking a solver's model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelCheck {
    /// The model satisfies the formula.
    Valid,
    /// The model falsifies the formula: the first false sub-formula, with values.
    Invalid {
        /// The explanation, e.g. `(= (div a b) 1) where (div a b) = 0`.
        explanation: String,
    },
    /// The evaluator could not decide (algebraic numbers, bounds that do not separate,
    /// ...).
    Undetermined {
        /// Why.
        reason: String,
    },
    /// et-eval cannot read the formula: it uses an operator, sort or command outside
    /// what et-eval supports, so no model of it is checked.
    Unsupported {
        /// What is not supported, e.g. `operator 'fp.to_ubv'`.
        feature: String,
    },
    /// The output holds no model that could be read (no `(get-model)` answer, an error,
    /// malformed text).
    NoModel {
        /// Why.
        reason: String,
    },
}

impl ModelCheck {
    /// The check of a model of a formula et-eval could not read: `Unsupported` when
    /// the reason is a feature et-eval lacks, `None` when the formula is malformed.
    pub fn of_unreadable(error: &ScriptError) -> Option<ModelCheck> {
        error.unsupported().map(|feature| ModelCheck::Unsupported {
            feature: feature.to_string(),
        })
    }

    /// The `model_check` CSV cell: `valid`, `invalid`, `undetermined`, `unsupported`,
    /// or empty when no model was checked.
    pub fn csv(&self) -> &'static str {
        match self {
            ModelCheck::Valid => "valid",
            ModelCheck::Invalid { .. } => "invalid",
            ModelCheck::Undetermined { .. } => "undetermined",
            ModelCheck::Unsupported { .. } => "unsupported",
            ModelCheck::NoModel { .. } => "",
        }
    }
}

impl fmt::Display for ModelCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelCheck::Valid => f.write_str("valid"),
            ModelCheck::Invalid { explanation } => write!(f, "invalid: false at {explanation}"),
            ModelCheck::Undetermined { reason } => write!(f, "undetermined: {reason}"),
            ModelCheck::Unsupported { feature } => {
                write!(f, "unsupported: et's evaluator does not know the {feature}")
            }
            ModelCheck::NoModel { reason } => write!(f, "no model: {reason}"),
        }
    }
}

/// Checks the model in a solver's standard output (the `sat` line, then what
/// `(get-model)` printed) against the formula.
pub fn check_model(script: &Script, stdout: &str, dialect: ModelDialect) -> ModelCheck {
    let evaluation = match evaluate_model(script, stdout, dialect) {
        Ok(evaluation) => evaluation,
        Err(e) => {
            return ModelCheck::NoModel {
                reason: e.to_string(),
            }
        }
    };
    match evaluation.truth {
        Truth::True => ModelCheck::Valid,
        Truth::False => ModelCheck::Invalid {
            explanation: evaluation
                .explanation
                .unwrap_or_else(|| "the formula".into()),
        },
        Truth::Undetermined(reason) => ModelCheck::Undetermined { reason },
    }
}

/// The formula evaluated under the model a solver printed: its output read as the
/// campaign reads it (its `(error ...)` lines left out, [`without_error_lines`]), then
/// the model parsed in `dialect`. A model that defines a declared constant with another
/// sort falsifies the formula at that constant. What `check_model` and `et eval
/// --model` both rest on, so they cannot disagree.
pub fn evaluate_model(
    script: &Script,
    output: &str,
    dialect: ModelDialect,
) -> Result<Evaluation, ModelError> {
    let model = parse_model_for(&without_error_lines(output), dialect, script)?;
    if let Some(wrong) = model.wrong_sort(script) {
        return Ok(Evaluation {
            truth: Truth::False,
            explanation: Some(wrong),
            choices: Vec::new(),
            quantifiers: Vec::new(),
        });
    }
    Ok(evaluate(
        script,
        &model.assignment(script),
        &Limits::default(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::{find_witness, WitnessBound};

    #[test]
    fn verdicts_and_csv_cells() {
        let script =
            Script::parse("(declare-const a Int)(declare-const b Int)(assert (> a b))").unwrap();
        let z3 = ModelDialect::default();
        let good = check_model(
            &script,
            "sat\n((define-fun a () Int 1) (define-fun b () Int 0))",
            z3,
        );
        assert_eq!((good.csv(), good.to_string().as_str()), ("valid", "valid"));
        let bad = check_model(
            &script,
            "sat\n((define-fun a () Int 0) (define-fun b () Int 0))",
            z3,
        );
        assert_eq!(bad.csv(), "invalid");
        assert_eq!(
            bad.to_string(),
            "invalid: false at (> a b) where a = 0, b = 0"
        );
        let open = check_model(&script, "sat\n((define-fun a () Int 0))", z3);
        assert_eq!(open.csv(), "undetermined");
        // A value of another sort than declared is a wrong model, not an open one.
        for wrong in ["true", "\"a\""] {
            let sort = if wrong == "true" { "Bool" } else { "String" };
            let output = format!("sat\n((define-fun a () {sort} {wrong}) (define-fun b () Int 0))");
            let check = check_model(&script, &output, z3);
            assert_eq!(check.csv(), "invalid", "{output}: {check}");
            assert!(check.to_string().contains("declares it Int"), "{check}");
        }
        // z3's failed self-check between the answer and the model is not the model.
        let flagged = "sat\n(error \"line 1 column 80: an invalid model was generated\")\n\
                       ((define-fun a () Int 1) (define-fun b () Int 0))";
        assert_eq!(check_model(&script, flagged, z3), ModelCheck::Valid);
        let none = check_model(&script, "unsat\n(error \"model is not available\")", z3);
        assert_eq!(none.csv(), "");
        assert!(find_witness(&script, &WitnessBound::default()).is_some());
        let unknown_op =
            Script::parse("(declare-const a Int)(assert (> (frobnicate a) 0))").unwrap_err();
        let unsupported = ModelCheck::of_unreadable(&unknown_op).unwrap();
        assert_eq!(unsupported.csv(), "unsupported");
        assert!(
            unsupported.to_string().contains("'frobnicate'"),
            "{unsupported}"
        );
        let malformed = Script::parse("(declare-const a Int)(assert (> a").unwrap_err();
        assert_eq!(ModelCheck::of_unreadable(&malformed), None);
    }
}
