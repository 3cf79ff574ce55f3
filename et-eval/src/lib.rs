//! et's own oracle: the value of an SMT-LIB formula under an assignment of its free
//! constants (true, false, or undetermined with a reason, never a guess), the models
//! solvers print, and a bounded search for satisfying assignments.
//!
//! Pure library: no processes, no files. A check gets a formula (text, tokens or a
//! parsed [`Script`]) and a solver's output, and returns a verdict with an explanation.
//!
//! Quantifiers are decided exactly over small finite domains and otherwise by a
//! bounded search that can refute a `forall` or prove an `exists`, never the
//! opposite; each outermost quantifier's verdict says how it was reached
//! ([`QuantifierNote`]). Datatypes ([`datatype`]) are non-parametric ones.

#![warn(missing_docs)]

pub mod algebraic;
pub mod check;
pub mod datatype;
pub mod eval;
pub mod fp;
pub mod interval;
pub mod model;
pub mod regex;
pub mod script;
pub mod sexp;
pub mod sort;
pub mod string;
pub mod term;
pub mod value;
pub mod witness;

pub use check::{check_model, evaluate_model, ModelCheck};
pub use eval::{
    evaluate, value_of, Assignment, Binding, Evaluation, Limits, QuantifierNote, QuantifierSearch,
    Truth,
};
pub use fp::generic::Fp;

/// Runs a step of a recursive walk over terms with enough stack: deep formulas grow
/// the stack on the heap instead of overflowing it.
pub(crate) fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, f)
}
pub use model::{
    parse_model, parse_model_for, without_error_lines, Model, ModelDialect, ModelError,
};
pub use script::{Script, ScriptError};
pub use sort::Sort;
pub use term::QuantKind;
pub use value::Value;
pub use witness::{find_witness, Witness, WitnessBound};
