//! Shrinking with ground truth: a wrong `sat` found by pinning a model
//! ([`super::pin`]) made as small as SMT-LIB allows, beyond the grammar. Each step
//! rewrites the formula — drops an assertion, replaces a term by one of its arguments
//! of the same sort, or by its value under the model (a constant by its value, so its
//! pin goes too) — and is kept only while both facts still hold: the solver answers
//! `sat`, and the formula is unsatisfiable. The second is et's own evaluation when every
//! constant left is pinned whole (the formula's one candidate assignment is the model,
//! under which it must be false), else the judge's `unsat`, as when it was pinned. No
//! step rests on the solver under test being right about anything.
//!
//! *Must not:* keep a step that either fact does not back; leave the formula's sorts
//! (every replacement has the sort of what it replaces).

use std::sync::Arc;

use et_eval::term::{Op, Term, TermKind};
use et_eval::{evaluate, Assignment, Limits, Script, Sort, Truth, Value};

use crate::oracle::Status;
use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::calls::{CallSettings, Caller};
use super::pin::{Pins, UnsatBy};
use super::rewrite::{self, used};

/// How many candidate formulas one shrink may try (each costs a solver call or two).
pub const MAX_CANDIDATES: usize = 400;

/// A shrunk wrong `sat`.
#[derive(Debug, Clone, PartialEq)]
pub struct Shrunk {
    /// The smallest formula found: declarations, assertions, pins, `(check-sat)`.
    pub text: String,
    /// Steps kept.
    pub steps: usize,
    /// Candidates tried.
    pub tried: usize,
    /// Every constant left is pinned whole: et's evaluation alone shows the formula
    /// unsatisfiable, no other solver needed.
    pub whole: bool,
    /// Where et's evaluation finds it false under the model.
    pub false_at: String,
}

/// The pieces of a pinned formula: its constants, the assertions that are not pins,
/// and the model's value of each constant (`None` for one not pinned whole).
struct Pieces {
    script: Script,
    /// Assertions that are not pins.
    body: Vec<Term>,
    /// The model's assignment (as pinning read it).
    assignment: Assignment,
    /// The pin text of each constant (`(assert (= x v))` lines), by declaration.
    pins: Vec<String>,
    /// Whether each constant is pinned whole.
    whole: Vec<bool>,
    function_pins: Vec<(Arc<str>, String)>,
}

/// Shrinks the wrong `sat` of `solver` on a pinned formula (its formula and `pins`, as
/// [`super::pin`] made it), keeping both facts at every step. `unsat_by` says how the
/// pinned formula was shown unsatisfiable (and so how each step is); `judge` is that
/// solver. `None` when no step was kept.
pub fn shrink(
    caller: &Caller,
    pins: Pins,
    solver: &SolverConfig,
    judge: Option<&SolverConfig>,
    unsat_by: &UnsatBy,
    limits: CallSettings<'_>,
) -> Result<Option<Shrunk>, CallError> {
    let mut pieces = Pieces {
        body: pins.script.assertions.clone(),
        script: pins.script,
        assignment: pins.assignment,
        pins: pins.pins,
        whole: pins.whole,
        function_pins: pins.function_pins,
    };
    let judge = match unsat_by {
        UnsatBy::Evaluation => None,
        UnsatBy::Solver(_) => match judge {
            Some(j) => Some(j),
            None => return Ok(None),
        },
    };
    let mut tried = 0;
    let mut steps = 0;
    'improve: loop {
        for candidate in pieces.candidates() {
            if tried >= MAX_CANDIDATES {
                break 'improve;
            }
            tried += 1;
            if pieces.holds(caller, &candidate, solver, judge, limits)? {
                pieces.body = candidate;
                steps += 1;
                continue 'improve;
            }
        }
        break;
    }
    let whole = pieces.refuted_by_evaluation(&pieces.body);
    let false_at = evaluate(
        &Script {
            decls: pieces.script.decls.clone(),
            assertions: pieces.body.clone(),
        },
        &pieces.assignment,
        &Limits::default(),
    )
    .explanation
    .unwrap_or_default();
    Ok((steps > 0).then(|| Shrunk {
        text: pieces.text(&pieces.body),
        steps,
        tried,
        whole,
        false_at,
    }))
}

impl Pieces {
    /// Every one-step rewrite of the body ([`rewrite::one_step`]), a term also
    /// replaced by its value under the model (not an array value: not every solver
    /// reads one) or by an array-free form of it.
    fn candidates(&self) -> Vec<Vec<Term>> {
        rewrite::one_step(&self.body, |sub| {
            let mut out = Vec::new();
            if !matches!(sub.kind, TermKind::Lit(_)) && !matches!(sub.sort, Sort::Array(..)) {
                if let Some(value) = self.value_of(sub) {
                    out.push(Term {
                        sort: sub.sort.clone(),
                        kind: TermKind::Lit(value),
                    });
                }
            }
            out.extend(array_free(sub));
            out
        })
    }

    /// The value of `term` under the model, when et decides it.
    fn value_of(&self, term: &Term) -> Option<Value> {
        et_eval::value_of(term, &self.assignment)
    }

    /// Both facts on `body`: the solver answers `sat`, and the formula is
    /// unsatisfiable (et's evaluation when every constant used is pinned whole, else
    /// the judge's `unsat`).
    fn holds(
        &self,
        caller: &Caller,
        body: &[Term],
        solver: &SolverConfig,
        judge: Option<&SolverConfig>,
        limits: CallSettings<'_>,
    ) -> Result<bool, CallError> {
        let whole = self.refuted_by_evaluation(body);
        let truth = evaluate(
            &Script {
                decls: self.script.decls.clone(),
                assertions: body.to_vec(),
            },
            &self.assignment,
            &Limits::default(),
        )
        .truth;
        if !matches!(truth, Truth::False) {
            return Ok(false); // the model no longer refutes it
        }
        let text = self.text(body);
        if caller.fresh(solver, &text, limits)?.status != Status::Sat {
            return Ok(false);
        }
        if whole {
            return Ok(true);
        }
        match judge {
            Some(judge) => {
                Ok(caller.fresh(judge, &text, limits)?.judging_status() == Some(Status::Unsat))
            }
            None => Ok(false),
        }
    }

    /// Whether et's evaluation alone shows `body` with its pins unsatisfiable: every
    /// constant it uses is pinned whole, and no interpretation of its partial operators
    /// satisfies it under those values ([`super::pin::refuted_by_every_interpretation`]).
    fn refuted_by_evaluation(&self, body: &[Term]) -> bool {
        let script = self.script_of(body);
        script.functions().is_empty()
            && used(body).iter().all(|&i| self.whole[i])
            && super::pin::refuted_by_every_interpretation(
                &Script {
                    decls: self.script.decls.clone(),
                    assertions: body.to_vec(),
                },
                &self.assignment,
            )
    }

    /// The script of `body`: the constants it uses (by name: the terms keep their
    /// original numbering, which only evaluation reads) and `body`.
    fn script_of(&self, body: &[Term]) -> Script {
        Script {
            decls: used(body)
                .into_iter()
                .map(|i| self.script.decls[i].clone())
                .collect(),
            assertions: body.to_vec(),
        }
    }

    /// The formula of `body`: the datatypes, constants and functions it uses, its
    /// assertions, the pins of its constants and functions, `(check-sat)`.
    fn text(&self, body: &[Term]) -> String {
        let script = self.script_of(body);
        let declared = script.text();
        let mut text = declared
            .strip_suffix("(check-sat)")
            .unwrap_or(&declared)
            .trim_end()
            .to_string();
        text.push('\n');
        for i in used(body) {
            text.push_str(&self.pins[i]);
        }
        let functions = script.functions();
        for (name, line) in &self.function_pins {
            if functions.iter().any(|f| f.name == *name) {
                text.push_str(line);
            }
        }
        text.push_str("(check-sat)");
        text
    }
}

/// The array rewrites that let a term lose an array: `(= x (store x i v))` (either
/// side) says `(= (select x i) v)`, and `(select (store x i v) i)` is `v`.
fn array_free(term: &Term) -> Vec<Term> {
    let TermKind::App(op, args) = &term.kind else {
        return Vec::new();
    };
    let store_parts = |t: &Term| match &t.kind {
        TermKind::App(Op::Store, a) if a.len() == 3 => {
            Some((a[0].clone(), a[1].clone(), a[2].clone()))
        }
        _ => None,
    };
    let same = |a: &Term, b: &Term| a.to_string() == b.to_string();
    let mut out = Vec::new();
    match (op, args.as_slice()) {
        (Op::Eq, [x, y]) => {
            for (array, stored) in [(x, y), (y, x)] {
                if let Some((base, index, value)) = store_parts(stored) {
                    if same(array, &base) {
                        let select = Term {
                            sort: value.sort.clone(),
                            kind: TermKind::App(Op::Select, vec![base, index]),
                        };
                        out.push(Term {
                            sort: Sort::Bool,
                            kind: TermKind::App(Op::Eq, vec![select, value]),
                        });
                    }
                }
            }
        }
        (Op::Select, [array, index]) => {
            if let Some((_, stored_at, value)) = store_parts(array) {
                if same(&stored_at, index) {
                    out.push(value);
                }
            }
        }
        _ => {}
    }
    out
}
