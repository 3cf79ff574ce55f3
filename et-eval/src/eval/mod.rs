//! The value of a formula under an assignment of its constants: true, false, or
//! undetermined with the reason — never a guess.
//!
//! Results SMT-LIB leaves unspecified (`(div x 0)`, `(mod x 0)`, `(/ x 0)`, `fp.min`
//! and `fp.max` of +0 and −0) are functions: the same arguments give the same result.
//! A model that prints their interpretation (z3's `div0`, `mod0`, `/0`) is taken at its
//! word; otherwise the formula is true when *some* consistent interpretation makes it
//! true. That is decided by a search over paths: each unknown result is a symbol
//! (applications whose dividends are equal on the path share one, also when a dividend
//! itself holds an unknown), every comparison that depends on symbols splits the path
//! into the cells of linear constraints that are feasible, and a true leaf is
//! certified by an exact solution of its constraints and a second, concrete evaluation.
//! False means every path is false or infeasible (a proof); a path the search cannot
//! follow exactly (a product of unknowns it cannot solve, an unknown flowing into a
//! string or bit-vector operator) leaves the result undetermined, with the reason.
//!
//! Numbers are linear forms over symbols (unspecified results, `sin`/`cos` values,
//! other values known only by enclosures), so `(= (div a 0) (div a 0))` is true and
//! `(= (sin 1.0) 0.5)` is false without approximation; `sin`/`cos`/`tan` are bounded
//! rigorously, and an inequality is decided once the bounds separate.
//!
//! A quantifier is evaluated by instances of its body: all of them when its variables
//! range over finite sorts with at most [`MAX_EXHAUSTIVE`] assignments (exact),
//! otherwise candidates only (small values and the formula's and the model's constants:
//! a `forall` found false or an `exists` found true is proved, anything else is
//! undetermined). [`Evaluation::quantifiers`] says how each outermost quantifier's
//! verdict was reached. A datatype's selector applied to a value of another
//! constructor is unspecified: the model's definition of the selector gives it, else it
//! is undetermined.

mod ctx;
mod domain;
mod linear;
mod quant;
mod strings;

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use crate::script::Script;
use crate::sort::Sort;
use crate::term::{Op, QuantKind, Term, TermKind};
use crate::value::Value;
use ctx::{Ctx, Path};
use domain::{ChoiceKey, Lin, Relaxed, SymKind, Tri};
use linear::{Constraint, Feasibility, Rel};
pub use quant::{candidates, Consts, DEFAULT_INSTANCES, MAX_CANDIDATE_TUPLES, MAX_EXHAUSTIVE};

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
    /// An irrational real algebraic number (z3's `root-obj`, cvc5's
    /// `real_algebraic_number`), exactly.
    Algebraic(crate::algebraic::Algebraic),
    /// A value the evaluator cannot represent exactly (e.g. a rounded decimal), with
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
            interpretations: Interpretations::default(),
        };
        let chosen = HashMap::new();
        let mut ctx = Ctx::new(&assignment, &chosen, PRECISIONS[0]);
        ctx.eval(&self.body).to_value(&self.body.sort)
    }
}

/// The model's interpretations of functions: the division-by-zero functions (z3 prints
/// `div0`, `mod0` and `/0`, each of the dividend and the zero divisor) and the
/// uninterpreted functions (the formula's `declare-fun`s with parameters, and the
/// helpers their definitions call, such as z3's `f!0`).
#[derive(Debug, Clone, Default)]
pub struct Interpretations {
    /// `(div x 0)`.
    pub int_div: Option<Function>,
    /// `(mod x 0)`.
    pub int_mod: Option<Function>,
    /// `(/ x 0)`.
    pub real_div: Option<Function>,
    /// The model's functions with parameters, by name, for
    /// [`TermKind::Call`](crate::term::TermKind::Call): each definition, or why it
    /// could not be read. A function missing here is undetermined where it is applied.
    pub uninterpreted: HashMap<String, Result<Function, String>>,
}

/// Values of a script's constants (indexed like [`Script::decls`]) and what the model
/// says of division by zero and of the uninterpreted functions.
#[derive(Debug, Clone, Default)]
pub struct Assignment {
    /// One binding per declared constant.
    pub values: Vec<Binding>,
    /// Interpretations of the division-by-zero functions and of the uninterpreted
    /// functions, where known.
    pub interpretations: Interpretations,
}

impl Assignment {
    /// An assignment of plain values.
    pub fn of_values(values: Vec<Value>) -> Assignment {
        Assignment {
            values: values.into_iter().map(Binding::Value).collect(),
            interpretations: Interpretations::default(),
        }
    }
}

/// How a quantifier's verdict was searched for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuantifierSearch {
    /// Over every assignment of its variables (finite sorts, at most
    /// [`MAX_EXHAUSTIVE`] assignments): the verdict is exact.
    Exhaustive {
        /// How many assignments the variables have.
        assignments: u64,
    },
    /// Over candidate assignments only (an infinite or too large domain): a `forall`'s
    /// counterexample or an `exists`' instance is a proof, nothing else is.
    Bounded {
        /// How many candidate assignments there were.
        candidates: u64,
    },
}

/// The verdict on one quantifier of the formula (an outermost one: a nested
/// quantifier is part of its outer one's verdict) and how it was reached.
#[derive(Debug, Clone)]
pub struct QuantifierNote {
    /// `forall` or `exists`.
    pub kind: QuantKind,
    /// Its variables and their sorts.
    pub vars: Vec<(Arc<str>, Sort)>,
    /// True, false, or undetermined with the reason.
    pub truth: Truth,
    /// Exhaustive (exact) or bounded.
    pub search: QuantifierSearch,
    /// The variables' values that decided it (a `forall`'s counterexample, an
    /// `exists`' instance); for an undetermined quantifier the first assignment whose
    /// body was undetermined, if any.
    pub instance: Option<Vec<Value>>,
}

impl QuantifierNote {
    /// Whether the verdict is exact: decided over every assignment, or proved by the
    /// counterexample or instance found.
    pub fn exact(&self) -> bool {
        match self.truth {
            Truth::Undetermined(_) => false,
            _ => {
                matches!(self.search, QuantifierSearch::Exhaustive { .. })
                    || self.instance.is_some()
            }
        }
    }
}

impl fmt::Display for QuantifierNote {
    /// `forall x: (_ BitVec 8) false at x = #xff (decided over all 256 values)`,
    /// `forall x: Int undetermined: no counterexample among 7 candidates (bounded
    /// search)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.kind)?;
        for (i, (name, sort)) in self.vars.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name}: {sort}")?;
        }
        if let Truth::Undetermined(why) = &self.truth {
            return write!(f, " undetermined: {why}");
        }
        write!(f, " {}", self.truth)?;
        if let Some(values) = &self.instance {
            let at: Vec<String> = self
                .vars
                .iter()
                .zip(values)
                .map(|((name, _), v)| format!("{name} = {v}"))
                .collect();
            write!(f, " at {}", at.join(", "))?;
        }
        match self.search {
            QuantifierSearch::Exhaustive { assignments } => {
                write!(f, " (decided over all {assignments} values)")
            }
            QuantifierSearch::Bounded { candidates } => {
                let what = match self.kind {
                    QuantKind::Forall => "a counterexample",
                    QuantKind::Exists => "an instance",
                };
                write!(f, " ({what} among {candidates} candidates, bounded search)")
            }
        }
    }
}

/// Bounds on the work of one evaluation.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Cases (paths of decisions) the search over interpretations of unspecified
    /// results may evaluate, per precision level; beyond them the result is
    /// undetermined and says so.
    pub evaluations: usize,
    /// How many of the precisions of transcendental bounds (64, 256, 1024 bits) may be
    /// tried, 1 to 3.
    pub precisions: usize,
    /// Whether a false result gets its explanation (searches that only need the truth
    /// skip it).
    pub explain: bool,
    /// How many quantifier bodies one evaluation may evaluate, nested quantifiers and
    /// every case of the search over unspecified results included; beyond, a
    /// quantifier is undetermined.
    pub instances: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            evaluations: 4096,
            precisions: PRECISIONS.len(),
            explain: true,
            instances: DEFAULT_INSTANCES,
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
    /// The verdicts on the formula's outermost quantifiers and how each was reached
    /// (empty for a formula without quantifiers; filled for true results and when
    /// [`Limits::explain`] is set).
    pub quantifiers: Vec<QuantifierNote>,
}

/// Precisions (bits) of transcendental enclosures, tried in turn while a comparison
/// is undecided for want of precision.
const PRECISIONS: [u64; 3] = [64, 256, 1024];

enum Search {
    True(HashMap<ChoiceKey, Value>),
    False,
    Open {
        reasons: Vec<String>,
        precision_limited: bool,
    },
}

/// The value of `term` under `assignment` when it is determined: exact, and not
/// depending on an unspecified result the assignment leaves open (a division by zero
/// the model does not interpret). `None` otherwise.
pub fn value_of(term: &Term, assignment: &Assignment) -> Option<Value> {
    let none = HashMap::new();
    let mut ctx = Ctx::new(assignment, &none, PRECISIONS[0]);
    crate::deep(|| ctx.eval(term)).to_value(&term.sort)
}

/// Evaluates the conjunction of a script's assertions under `assignment`.
pub fn evaluate(script: &Script, assignment: &Assignment, limits: &Limits) -> Evaluation {
    let mut outcome = Search::Open {
        reasons: Vec::new(),
        precision_limited: false,
    };
    let mut quantified = false;
    let run = Run {
        limits: *limits,
        instances: Cell::new(limits.instances),
    };
    for &prec in PRECISIONS
        .iter()
        .take(limits.precisions.clamp(1, PRECISIONS.len()))
    {
        outcome = search(script, assignment, prec, &run, &mut quantified);
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
    // Notes of a result other than true only for explanations (the witness search
    // asks for none).
    let explained_notes = || {
        if quantified && limits.explain {
            notes(script, assignment, &HashMap::new(), limits)
        } else {
            Vec::new()
        }
    };
    match outcome {
        Search::True(chosen) => {
            let mut choices: Vec<String> = chosen
                .iter()
                .map(|(k, v)| format!("{} = {v}", k.describe()))
                .collect();
            choices.sort();
            let quantifiers = if quantified {
                notes(script, assignment, &chosen, limits)
            } else {
                Vec::new()
            };
            Evaluation {
                truth: Truth::True,
                explanation: None,
                choices,
                quantifiers,
            }
        }
        Search::False => Evaluation {
            truth: Truth::False,
            explanation: if limits.explain {
                explain(script, assignment, limits)
            } else {
                None
            },
            choices: Vec::new(),
            quantifiers: explained_notes(),
        },
        Search::Open { reasons, .. } => Evaluation {
            truth: Truth::Undetermined(if reasons.is_empty() {
                "no reason recorded".into()
            } else {
                reasons.join("; ")
            }),
            explanation: None,
            choices: Vec::new(),
            quantifiers: explained_notes(),
        },
    }
}

/// A plain evaluation's context for `script` (its literals are candidates for
/// quantified variables) within `limits`' budget of quantifier instances.
#[inline]
fn context<'a>(
    script: &'a Script,
    assignment: &'a Assignment,
    chosen: &'a HashMap<ChoiceKey, Value>,
    prec: u64,
    limits: &Limits,
) -> Ctx<'a> {
    let mut ctx = Ctx::new(assignment, chosen, prec);
    ctx.formula = Some(&script.assertions);
    ctx.instances_left = limits.instances;
    ctx
}

/// One evaluation's search: its limits, and what is left of its budget of quantifier
/// instances, shared by every case of the search (each may need the whole formula's
/// quantifiers again: thousands of cases of division by zero times a 16-bit domain
/// would otherwise be billions of instances).
struct Run {
    limits: Limits,
    instances: Cell<usize>,
}

impl Run {
    /// A context of the search, with what is left of the budget.
    fn context<'a>(
        &self,
        script: &'a Script,
        assignment: &'a Assignment,
        chosen: &'a HashMap<ChoiceKey, Value>,
        prec: u64,
    ) -> Ctx<'a> {
        let mut ctx = context(script, assignment, chosen, prec, &self.limits);
        ctx.instances_left = self.instances.get();
        ctx
    }

    /// Takes back what `ctx` left of the budget.
    fn spent(&self, ctx: &Ctx<'_>) {
        self.instances.set(ctx.instances_left);
    }
}

/// The verdicts on the outermost quantifiers, by one plain evaluation of every
/// assertion (with the unspecified results `chosen`), each quantifier once.
fn notes(
    script: &Script,
    assignment: &Assignment,
    chosen: &HashMap<ChoiceKey, Value>,
    limits: &Limits,
) -> Vec<QuantifierNote> {
    let mut ctx = context(script, assignment, chosen, PRECISIONS[0], limits);
    for a in &script.assertions {
        ctx.truth(a);
    }
    let mut unique: Vec<QuantifierNote> = Vec::new();
    for n in ctx.take_notes() {
        let text = n.to_string();
        if !unique.iter().any(|u| u.to_string() == text) {
            unique.push(n);
        }
    }
    unique
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

/// Whether some consistent interpretation of the unspecified results makes the
/// formula true, decided by a depth-first walk over the paths of decisions: every
/// comparison whose truth depends on an unknown result splits the path into the cells
/// its linear constraints admit (equal dividends share one result), so the paths
/// partition every interpretation. A true leaf is certified by solving its constraints
/// and evaluating the formula again with the values found; false when every path is
/// false or infeasible.
fn search(
    script: &Script,
    assignment: &Assignment,
    prec: u64,
    run: &Run,
    quantified: &mut bool,
) -> Search {
    let max_paths = run.limits.evaluations.max(1);
    let none = HashMap::new();
    let mut decisions = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    let mut open = false;
    let mut precision_limited = false;
    let mut paths = 0;
    loop {
        paths += 1;
        if paths > max_paths {
            reasons.push(format!(
                "more than {max_paths} cases of division by zero to tell apart"
            ));
            open = true;
            break;
        }
        let mut ctx = run.context(script, assignment, &none, prec);
        ctx.path = Some(Path::replay(decisions));
        let truth = conjunction(script, &mut ctx);
        run.spent(&ctx);
        *quantified |= ctx.quantified();
        let Some(path) = ctx.path.take() else {
            unreachable!("the path was set above")
        };
        if !path.dead {
            let leaf_open = match truth {
                Tri::T => match certify(script, assignment, prec, run, &ctx, &path) {
                    Certificate::Found(chosen) => return Search::True(chosen),
                    Certificate::Infeasible => false,
                    Certificate::Open(why) => {
                        ctx.reasons.push(why);
                        true
                    }
                },
                Tri::F => path.open,
                Tri::U => true,
            };
            if leaf_open {
                // The search could not follow an unknown (into sin, a string, a
                // bit-vector, ...): concrete values may still certify the formula.
                if let Some(chosen) = sample(script, assignment, prec, run, &ctx, &path) {
                    return Search::True(chosen);
                }
                open = true;
                precision_limited |= ctx.precision_limited;
                for r in ctx.reasons {
                    if !reasons.contains(&r) && reasons.len() < 4 {
                        reasons.push(r);
                    }
                }
            }
        }
        match path.next() {
            Some(next) => decisions = next,
            None => break,
        }
    }
    if open {
        Search::Open {
            reasons,
            precision_limited,
        }
    } else {
        Search::False
    }
}

enum Certificate {
    Found(HashMap<ChoiceKey, Value>),
    Infeasible,
    Open(String),
}

/// Values of the unknowns of a true leaf that satisfy its constraints, checked by
/// evaluating the formula again with them; relaxed dependencies (products, quotients)
/// get their factors fixed to a few candidate values when the first solution breaks
/// them.
fn certify(
    script: &Script,
    assignment: &Assignment,
    prec: u64,
    run: &Run,
    ctx: &Ctx<'_>,
    path: &Path,
) -> Certificate {
    let integer = |s: u32| ctx.is_integer_sym(s);
    let solution = match linear::feasible(&path.constraints, &integer) {
        Feasibility::Feasible(s) => s,
        Feasibility::Infeasible => return Certificate::Infeasible,
        Feasibility::Unknown => {
            return Certificate::Open(
                "the linear constraints on division-by-zero results are too large to solve".into(),
            )
        }
    };
    if let Some(chosen) = verify(script, assignment, prec, run, ctx, path, &solution) {
        return Certificate::Found(chosen);
    }
    // The relaxed unknowns broke their dependency: fix the decision symbols their
    // operands mention to candidates (the solution's value, square roots of a square's
    // value, small integers) and solve again.
    let relaxed = relaxed_unknowns(ctx);
    if relaxed.is_empty() {
        return Certificate::Open(
            "the values found for division by zero do not satisfy the formula".into(),
        );
    }
    let operands = relaxed_operands(&relaxed);
    let candidates: Vec<Vec<BigRational>> = operands
        .iter()
        .map(|&s| operand_candidates(s, integer(s), &solution, &relaxed))
        .collect();
    let mut index = vec![0usize; operands.len()];
    for _ in 0..256 {
        let fixed: HashMap<u32, BigRational> = operands
            .iter()
            .zip(&index)
            .zip(&candidates)
            .map(|((s, &i), c)| (*s, c[i].clone()))
            .collect();
        let mut cs = path.constraints.clone();
        for (s, v) in &fixed {
            cs.push(Constraint {
                lin: Lin::symbol(*s).sub(&Lin::constant(v.clone())),
                rel: Rel::Eq,
            });
        }
        // With the operands fixed, each relaxed value is the operation on numbers
        // (operands that mention other relaxed values are left to the verification).
        for (id, r) in &relaxed {
            if let Some(v) = relaxed_value(r, &fixed) {
                cs.push(Constraint {
                    lin: Lin::symbol(*id).sub(&Lin::constant(v)),
                    rel: Rel::Eq,
                });
            }
        }
        if let Feasibility::Feasible(s) = linear::feasible(&cs, &integer) {
            if let Some(chosen) = verify(script, assignment, prec, run, ctx, path, &s) {
                return Certificate::Found(chosen);
            }
        }
        if !next_combination(&mut index, &candidates) {
            break;
        }
    }
    Certificate::Open(
        "a product or quotient of division-by-zero results: no value tried satisfies it (nonlinear integer constraints are undecidable in general)"
            .into(),
    )
}

/// The unknowns whose dependency on others the search relaxed, with that dependency.
fn relaxed_unknowns(ctx: &Ctx<'_>) -> Vec<(u32, Relaxed)> {
    ctx.syms
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match &s.kind {
            SymKind::Aux {
                relaxed: Some(r), ..
            } => Some((i as u32, r.clone())),
            _ => None,
        })
        .collect()
}

/// The two operands of a relaxed product or quotient.
fn relaxed_factors(r: &Relaxed) -> (&Lin, &Lin) {
    let (Relaxed::Mul(a, b) | Relaxed::RealDiv(a, b) | Relaxed::IntDiv(a, b) | Relaxed::Mod(a, b)) =
        r;
    (a, b)
}

/// The symbols the relaxed unknowns' operands mention, other than relaxed unknowns,
/// in order of first mention.
fn relaxed_operands(relaxed: &[(u32, Relaxed)]) -> Vec<u32> {
    let mut operands: Vec<u32> = Vec::new();
    for (_, r) in relaxed {
        let (a, b) = relaxed_factors(r);
        for (s, _) in a.terms.iter().chain(&b.terms) {
            if !operands.contains(s) && !relaxed.iter().any(|(id, _)| id == s) {
                operands.push(*s);
            }
        }
    }
    operands
}

/// The values tried for operand `s` (an integer symbol when `integer`): the
/// solution's, the square roots of the value of a square of `s`, and small
/// integers, each once.
fn operand_candidates(
    s: u32,
    integer: bool,
    solution: &HashMap<u32, BigRational>,
    relaxed: &[(u32, Relaxed)],
) -> Vec<BigRational> {
    let mut c: Vec<BigRational> = Vec::new();
    if let Some(v) = solution.get(&s) {
        c.push(v.clone());
    }
    for (id, r) in relaxed {
        if let Relaxed::Mul(a, b) = r {
            if a == b && *a == Lin::symbol(s) {
                if let Some(root) = solution.get(id).and_then(rational_sqrt) {
                    c.extend([root.clone(), -root]);
                }
            }
        }
    }
    for n in [0i64, 1, -1, 2, -2, 3, -3] {
        c.push(BigRational::from_integer(BigInt::from(n)));
    }
    let mut unique = Vec::new();
    for v in c {
        if !unique.contains(&v) && (!integer || v.is_integer()) {
            unique.push(v);
        }
    }
    unique
}

/// The value of a relaxed product or quotient once its operands are `fixed`; `None`
/// when an operand mentions another relaxed value, or for a quotient by zero.
fn relaxed_value(r: &Relaxed, fixed: &HashMap<u32, BigRational>) -> Option<BigRational> {
    let (a, b) = relaxed_factors(r);
    let mentions_relaxed = a
        .terms
        .iter()
        .chain(&b.terms)
        .any(|(s, _)| !fixed.contains_key(s));
    if mentions_relaxed {
        return None;
    }
    let (x, y) = (linear::value_of(a, fixed), linear::value_of(b, fixed));
    match r {
        Relaxed::Mul(..) => Some(x * y),
        _ if y.is_zero() => None,
        Relaxed::RealDiv(..) => Some(x / y),
        Relaxed::IntDiv(..) => Some(BigRational::from_integer(num_traits::Euclid::div_euclid(
            &x.to_integer(),
            &y.to_integer(),
        ))),
        Relaxed::Mod(..) => Some(BigRational::from_integer(num_traits::Euclid::rem_euclid(
            &x.to_integer(),
            &y.to_integer(),
        ))),
    }
}

/// Moves `index` to the next combination of candidates (an odometer, first position
/// fastest); `false` once every combination was tried.
fn next_combination(index: &mut [usize], candidates: &[Vec<BigRational>]) -> bool {
    for (i, c) in index.iter_mut().zip(candidates) {
        *i += 1;
        if *i < c.len() {
            return true;
        }
        *i = 0;
    }
    false
}

/// A certificate by trying small values (0, ±1, ±2, ½) for the unknown results of a
/// path the search could not follow exactly; each try is checked by a concrete
/// evaluation, so a success proves the formula true.
fn sample(
    script: &Script,
    assignment: &Assignment,
    prec: u64,
    run: &Run,
    ctx: &Ctx<'_>,
    path: &Path,
) -> Option<HashMap<ChoiceKey, Value>> {
    let choices: Vec<(u32, bool)> = ctx
        .syms
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match &s.kind {
            SymKind::Choice(..) => Some((i as u32, s.kind.is_integer())),
            _ => None,
        })
        .collect();
    if choices.is_empty() || choices.len() > 4 {
        return None;
    }
    let small: Vec<BigRational> = [(0, 1), (1, 1), (-1, 1), (2, 1), (-2, 1), (1, 2)]
        .iter()
        .map(|&(n, d)| BigRational::new(BigInt::from(n), BigInt::from(d)))
        .collect();
    let integer = |s: u32| ctx.is_integer_sym(s);
    let mut index = vec![0usize; choices.len()];
    loop {
        let mut cs = path.constraints.clone();
        let mut skip = false;
        for ((s, is_int), &i) in choices.iter().zip(&index) {
            let v = &small[i];
            if *is_int && !v.is_integer() {
                skip = true;
            }
            cs.push(Constraint {
                lin: Lin::symbol(*s).sub(&Lin::constant(v.clone())),
                rel: Rel::Eq,
            });
        }
        if !skip {
            if let Feasibility::Feasible(solution) = linear::feasible(&cs, &integer) {
                if let Some(chosen) = verify(script, assignment, prec, run, ctx, path, &solution) {
                    return Some(chosen);
                }
            }
        }
        let mut k = 0;
        loop {
            if k == index.len() {
                return None;
            }
            index[k] += 1;
            if index[k] < small.len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}

/// The interpretation a solution gives (each unknown result at its dividend's value),
/// if the formula evaluates to true under it.
fn verify(
    script: &Script,
    assignment: &Assignment,
    prec: u64,
    run: &Run,
    ctx: &Ctx<'_>,
    path: &Path,
    solution: &HashMap<u32, BigRational>,
) -> Option<HashMap<ChoiceKey, Value>> {
    let mut chosen: HashMap<ChoiceKey, Value> = path.fp_zeros.clone();
    for (i, sym) in ctx.syms.iter().enumerate() {
        if let SymKind::Choice(op, dividend) = &sym.kind {
            let key = op.key(&linear::value_of(dividend, solution));
            let v = solution.get(&(i as u32)).cloned().unwrap_or_default();
            let value = if key.is_int() {
                Value::Int(v.to_integer())
            } else {
                Value::Real(v)
            };
            if chosen.insert(key, value).is_some() {
                // Two unknowns at one dividend: the path said they differ.
                return None;
            }
        }
    }
    let mut check = run.context(script, assignment, &chosen, prec);
    let truth = conjunction(script, &mut check);
    run.spent(&check);
    (truth == Tri::T).then_some(chosen)
}

fn rational_sqrt(q: &BigRational) -> Option<BigRational> {
    if q.is_negative() {
        return None;
    }
    let (n, d) = (q.numer().sqrt(), q.denom().sqrt());
    (&n * &n == *q.numer() && &d * &d == *q.denom()).then(|| BigRational::new(n, d))
}

/// The first sub-formula that is false under the assignment (descending through
/// conjunctions and negated disjunctions), with its arguments' values.
fn explain(script: &Script, assignment: &Assignment, limits: &Limits) -> Option<String> {
    let chosen = HashMap::new();
    let mut ctx = context(script, assignment, &chosen, PRECISIONS[0], limits);
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
    // A quantifier: how its verdict was reached (its counterexample or instance).
    if let TermKind::Quantifier(..) = &term.kind {
        ctx.take_notes();
        ctx.truth(term);
        if let Some(note) = ctx.take_notes().last() {
            text.push_str(&format!(" where {note}"));
        }
        return Some(text);
    }
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
    // A predicate's own value, after its arguments': `(p b) = true`.
    if matches!(term.kind, TermKind::Call(..)) {
        if let Some(v) = ctx.eval(term).to_value(&term.sort) {
            values.push(format!("{term} = {v}"));
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
