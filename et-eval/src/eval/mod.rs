//! The value of a formula under an assignment of its constants: true, false, or
//! undetermined with the reason — never a guess.
//!
//! Results SMT-LIB leaves unspecified (`(div x 0)`, `(mod x 0)`, `(/ x 0)`, `fp.min`
//! and `fp.max` of +0 and −0) are functions: the same arguments give the same result.
//! A model that prints their interpretation (z3's `div0`, `mod0`, `/0`) is taken at its
//! word; otherwise the formula is true when *some* consistent interpretation makes it
//! true. That is decided exactly by a search over each unspecified result's critical
//! values (where a comparison linear in it changes value): a success is a certificate,
//! and trying every cell of the critical values proves falsity; anything else is
//! undetermined.
//!
//! Numbers are linear forms over symbols (unspecified results, `sin`/`cos` values,
//! other values known only by enclosures), so `(= (div a 0) (div a 0))` is true and
//! `(= (sin 1.0) 0.5)` is false without approximation; `sin`/`cos`/`tan` are bounded
//! rigorously, and an inequality is decided once the bounds separate.

mod ctx;
mod domain;
mod strings;

use std::collections::HashMap;
use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::One;

use crate::fp::Float64;
use crate::script::Script;
use crate::sort::Sort;
use crate::term::{Op, Term, TermKind};
use crate::value::Value;
use ctx::Ctx;
use domain::{ChoiceKey, SymKind, Tri};

/// The truth of a formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Truth {
    /// True under the assignment.
    True,
    /// False under the assignment.
    False,
    /// Could not be decided; the reason says why.
    Undetermined(String),
}

impl fmt::Display for Truth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Truth::True => f.write_str("true"),
            Truth::False => f.write_str("false"),
            Truth::Undetermined(why) => write!(f, "undetermined ({why})"),
        }
    }
}

/// What a constant is bound to.
#[derive(Debug, Clone)]
pub enum Binding {
    /// A value.
    Value(Value),
    /// A closed term that is not a value, e.g. cvc5's `(div 0 0)`: it is evaluated with
    /// the formula, so its unspecified results are the formula's own.
    Term(Term),
    /// A value the evaluator cannot represent exactly (e.g. an algebraic number), with
    /// the reason.
    Undetermined(String),
}

/// A function a model defines, with its parameters' sorts; `Var(i)` in the body is the
/// i-th parameter.
#[derive(Debug, Clone)]
pub struct Function {
    /// The parameters' sorts.
    pub params: Vec<Sort>,
    /// The body.
    pub body: Term,
}

impl Function {
    /// The function's value at `args`, if the body evaluates to a value.
    pub fn apply(&self, args: &[Value]) -> Option<Value> {
        if args.len() != self.params.len() {
            return None;
        }
        let assignment = Assignment {
            values: args.iter().cloned().map(Binding::Value).collect(),
            division_by_zero: DivisionByZero::default(),
        };
        let chosen = HashMap::new();
        let mut ctx = Ctx::new(&assignment, &chosen, PRECISIONS[0]);
        let v = ctx.eval(&self.body);
        if !ctx.choices.is_empty() {
            return None;
        }
        v.to_value(&self.body.sort)
    }
}

/// The model's interpretations of the division-by-zero functions (z3 prints `div0`,
/// `mod0` and `/0`, each of the dividend and the zero divisor).
#[derive(Debug, Clone, Default)]
pub struct DivisionByZero {
    /// `(div x 0)`.
    pub int_div: Option<Function>,
    /// `(mod x 0)`.
    pub int_mod: Option<Function>,
    /// `(/ x 0)`.
    pub real_div: Option<Function>,
}

/// Values of a script's constants (indexed like [`Script::decls`]) and what the model
/// says of division by zero.
#[derive(Debug, Clone, Default)]
pub struct Assignment {
    /// One binding per declared constant.
    pub values: Vec<Binding>,
    /// Interpretations of the division-by-zero functions, where known.
    pub division_by_zero: DivisionByZero,
}

impl Assignment {
    /// An assignment of plain values.
    pub fn of_values(values: Vec<Value>) -> Assignment {
        Assignment {
            values: values.into_iter().map(Binding::Value).collect(),
            division_by_zero: DivisionByZero::default(),
        }
    }
}

/// Bounds on the work of one evaluation.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Evaluations of the formula while searching interpretations of unspecified
    /// results (per precision level).
    pub evaluations: usize,
    /// How many of the precisions of transcendental bounds (64, 256, 1024 bits) may be
    /// tried, 1 to 3.
    pub precisions: usize,
    /// Whether a false result gets its explanation (searches that only need the truth
    /// skip it).
    pub explain: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            evaluations: 256,
            precisions: PRECISIONS.len(),
            explain: true,
        }
    }
}

/// The result of evaluating a formula.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// True, false or undetermined.
    pub truth: Truth,
    /// For false: the first sub-formula that evaluated false, with the values of its
    /// arguments.
    pub explanation: Option<String>,
    /// For true: the values chosen for unspecified results (e.g. `(div 3 0) = 1`).
    pub choices: Vec<String>,
}

/// Precisions (bits) of transcendental enclosures, tried in turn while a comparison
/// is undecided for want of precision.
const PRECISIONS: [u64; 3] = [64, 256, 1024];

/// Most candidate values tried for one unspecified result.
const MAX_CANDIDATES: usize = 24;

enum Search {
    True(HashMap<ChoiceKey, Value>),
    False,
    Open {
        reasons: Vec<String>,
        precision_limited: bool,
    },
}

/// Evaluates the conjunction of a script's assertions under `assignment`.
pub fn evaluate(script: &Script, assignment: &Assignment, limits: &Limits) -> Evaluation {
    let mut outcome = Search::Open {
        reasons: Vec::new(),
        precision_limited: false,
    };
    for &prec in PRECISIONS
        .iter()
        .take(limits.precisions.clamp(1, PRECISIONS.len()))
    {
        let mut budget = limits.evaluations;
        let mut chosen = HashMap::new();
        outcome = search(script, assignment, &mut chosen, prec, &mut budget);
        if !matches!(
            outcome,
            Search::Open {
                precision_limited: true,
                ..
            }
        ) {
            break;
        }
    }
    match outcome {
        Search::True(chosen) => {
            let mut choices: Vec<String> = chosen
                .iter()
                .map(|(k, v)| format!("{} = {v}", k.describe()))
                .collect();
            choices.sort();
            Evaluation {
                truth: Truth::True,
                explanation: None,
                choices,
            }
        }
        Search::False => Evaluation {
            truth: Truth::False,
            explanation: if limits.explain {
                explain(script, assignment)
            } else {
                None
            },
            choices: Vec::new(),
        },
        Search::Open { reasons, .. } => Evaluation {
            truth: Truth::Undetermined(if reasons.is_empty() {
                "no reason recorded".into()
            } else {
                reasons.join("; ")
            }),
            explanation: None,
            choices: Vec::new(),
        },
    }
}

fn conjunction(script: &Script, ctx: &mut Ctx<'_>) -> Tri {
    let mut acc = Tri::T;
    for a in &script.assertions {
        acc = acc.and(ctx.truth(a));
        if acc == Tri::F {
            break;
        }
    }
    acc
}

fn search(
    script: &Script,
    assignment: &Assignment,
    chosen: &mut HashMap<ChoiceKey, Value>,
    prec: u64,
    budget: &mut usize,
) -> Search {
    if *budget == 0 {
        return Search::Open {
            reasons: vec!["too many interpretations of division by zero to try".into()],
            precision_limited: false,
        };
    }
    *budget -= 1;
    let (key, candidates, exhaustive) = {
        let mut ctx = Ctx::new(assignment, chosen, prec);
        match conjunction(script, &mut ctx) {
            Tri::T => return Search::True(chosen.clone()),
            Tri::F => return Search::False,
            Tri::U => {}
        }
        let Some(&sym) = ctx.choices.first() else {
            return Search::Open {
                reasons: ctx.reasons,
                precision_limited: ctx.precision_limited,
            };
        };
        let SymKind::Choice(key) = &ctx.syms[sym as usize].kind else {
            unreachable!("choices hold choice symbols")
        };
        let dirty = ctx.dirty.contains(&sym);
        let points = ctx.critical.get(&sym).cloned().unwrap_or_default();
        let (candidates, exhaustive) = candidates(key, &points, dirty);
        (key.clone(), candidates, exhaustive)
    };
    let mut open = None;
    for c in candidates {
        chosen.insert(key.clone(), c);
        let r = search(script, assignment, chosen, prec, budget);
        chosen.remove(&key);
        match r {
            Search::True(found) => return Search::True(found),
            Search::False => {}
            open_result => {
                if open.is_none() {
                    open = Some(open_result);
                }
            }
        }
    }
    match open {
        None if exhaustive => Search::False,
        None => Search::Open {
            reasons: vec![format!("no value tried for {} makes the formula true, but the values tried do not cover every case", key.describe())],
            precision_limited: false,
        },
        Some(open) => open,
    }
}

/// Values to try for an unspecified result, and whether they cover every case.
fn candidates(key: &ChoiceKey, points: &[BigRational], dirty: bool) -> (Vec<Value>, bool) {
    match key {
        ChoiceKey::FpMin(..) | ChoiceKey::FpMax(..) => (
            vec![Value::Fp(Float64::POS_ZERO), Value::Fp(Float64::NEG_ZERO)],
            true,
        ),
        _ => {
            let is_int = key.is_int();
            let mut values: Vec<BigRational> = Vec::new();
            let mut sorted: Vec<BigRational> = points.to_vec();
            sorted.sort();
            sorted.dedup();
            let one = BigRational::one();
            if is_int {
                // Every integer cell between critical points has a member next to one.
                for p in &sorted {
                    let (f, c) = (p.floor(), p.ceil());
                    values.extend([f.clone() - &one, f, c.clone(), c + &one]);
                }
            } else {
                for (i, p) in sorted.iter().enumerate() {
                    values.push(p.clone());
                    if let Some(next) = sorted.get(i + 1) {
                        values.push((p + next) / BigRational::from_integer(BigInt::from(2)));
                    }
                }
                if let (Some(first), Some(last)) = (sorted.first(), sorted.last()) {
                    values.push(first - &one);
                    values.push(last + &one);
                }
            }
            if values.is_empty() || dirty {
                for n in [0, 1, -1, 2, -2] {
                    values.push(BigRational::from_integer(BigInt::from(n)));
                }
                if !is_int {
                    values.push(BigRational::new(BigInt::one(), BigInt::from(2)));
                }
            }
            let mut unique: Vec<BigRational> = Vec::new();
            for v in values {
                if !unique.contains(&v) {
                    unique.push(v);
                }
            }
            let exhaustive = !dirty && unique.len() <= MAX_CANDIDATES;
            unique.truncate(MAX_CANDIDATES);
            let values = unique
                .into_iter()
                .map(|q| {
                    if is_int {
                        Value::Int(q.to_integer())
                    } else {
                        Value::Real(q)
                    }
                })
                .collect();
            (values, exhaustive)
        }
    }
}

/// The first sub-formula that is false under the assignment (descending through
/// conjunctions and negated disjunctions), with its arguments' values.
fn explain(script: &Script, assignment: &Assignment) -> Option<String> {
    let chosen = HashMap::new();
    let mut ctx = Ctx::new(assignment, &chosen, PRECISIONS[0]);
    let mut term = script.assertions.iter().find(|a| ctx.truth(a) == Tri::F)?;
    let mut negated = false;
    loop {
        let next = match &term.kind {
            TermKind::App(Op::And, args) if !negated => {
                args.iter().find(|a| ctx.truth(a) == Tri::F)
            }
            TermKind::App(Op::Or, args) if negated => args.iter().find(|a| ctx.truth(a) == Tri::T),
            TermKind::App(Op::Not, args) => {
                negated = !negated;
                Some(&args[0])
            }
            _ => None,
        };
        match next {
            Some(t) => term = t,
            None => break,
        }
    }
    let mut text = if negated {
        format!("(not {term})")
    } else {
        term.to_string()
    };
    let mut values = Vec::new();
    for a in term.args() {
        if matches!(a.kind, TermKind::Lit(_)) {
            continue;
        }
        let v = ctx.eval(a);
        let shown = match v.to_value(&a.sort) {
            Some(v) => v.to_string(),
            None => match &v {
                domain::V::Num(l) => {
                    let i = ctx.interval(l);
                    match (i.lo, i.hi) {
                        (Some(lo), Some(hi)) => {
                            format!("in [{}, {}]", Value::Real(lo), Value::Real(hi))
                        }
                        _ => "undetermined".into(),
                    }
                }
                _ => "undetermined".into(),
            },
        };
        let entry = format!("{a} = {shown}");
        if !values.contains(&entry) {
            values.push(entry);
        }
    }
    if !values.is_empty() {
        text.push_str(" where ");
        text.push_str(&values.join(", "));
    }
    Some(text)
}

#[cfg(test)]
mod tests;
