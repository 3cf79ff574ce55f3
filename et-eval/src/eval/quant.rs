//! Quantifiers, the variables they and `match` patterns bind, and datatypes' operations
//! in the evaluator.
//!
//! Bound variables live on an environment stack of the evaluation ([`Ctx::env`]),
//! indexed by level; a binder saves whatever sits at and above its level (a term `let`
//! substituted deeper than where it was read) and restores it afterwards. A formula
//! without quantifiers or `match` never touches the stack.
//!
//! A quantifier whose variables all range over finite sorts with at most
//! [`MAX_EXHAUSTIVE`] assignments in all is decided exactly by enumerating them.
//! Otherwise only candidates are tried (small values, the formula's and the model's
//! constants and their neighbours, at most [`MAX_CANDIDATE_TUPLES`] assignments): a
//! `forall` false on one is false, an `exists` true on one is true, and anything else is
//! undetermined — a bounded search never proves a `forall` true or an `exists` false.

use std::rc::Rc;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::ctx::{unknown_of, Ctx, MAX_REASONS};
use super::domain::{Tri, V};
use super::{Binding, QuantifierNote, QuantifierSearch, Truth};
use crate::datatype::{self, DatatypeSort, DatatypeValue};
use crate::fp::generic::Fp;
use crate::fp::{Float64, RoundingMode};
use crate::sort::Sort;
use crate::string::SmtString;
use crate::term::{DtOp, MatchCase, Pattern, QuantKind, Quantifier, Term, TermKind};
use crate::value::{bv_mask_big, ArrayValue, Value};

/// Most assignments of a quantifier's variables enumerated to decide it exactly: every
/// 16-bit vector, two bytes, or a handful of Booleans and small datatypes is a walk of
/// at most 65 536 bodies, milliseconds; beyond, the domain is searched like an
/// infinite one.
pub const MAX_EXHAUSTIVE: u64 = 1 << 16;

/// Most candidate assignments tried for a quantifier over an infinite (or too large)
/// domain: all pairs of ~140 candidates, or triples of ~27. A bounded search proves
/// only a counterexample (`forall`) or an instance (`exists`), and the candidates
/// are ordered most likely first, so more would cost time for few more verdicts.
pub const MAX_CANDIDATE_TUPLES: usize = 20_000;

/// How many quantifier bodies one evaluation may evaluate in all, nested quantifiers
/// included (two nested 16-bit quantifiers would otherwise be 2^32 bodies): beyond it
/// the quantifier is undetermined and says so.
pub const DEFAULT_INSTANCES: usize = 1 << 18;

/// How many constants of each kind the candidates take from the formula and the
/// model (each gives its neighbours too).
const MAX_CONSTS: usize = 16;

/// How many characters strings are built from (with those of the formula first).
const MAX_CHARS: usize = 6;

/// The constants of the formula and the assignment that candidates are built around.
#[derive(Debug, Clone, Default)]
pub struct Consts {
    ints: Vec<BigInt>,
    reals: Vec<BigRational>,
    bvs: Vec<(u32, BigUint)>,
    strings: Vec<SmtString>,
    chars: Vec<u32>,
    /// Values of other sorts (datatypes with their fields' values, floats, arrays).
    others: Vec<Value>,
}

fn push_capped<T: PartialEq>(list: &mut Vec<T>, x: T) {
    if list.len() < MAX_CONSTS && !list.contains(&x) {
        list.push(x);
    }
}

impl Consts {
    /// Adds a value (a datatype's with its fields').
    pub fn add(&mut self, v: &Value) {
        match v {
            Value::Int(n) => push_capped(&mut self.ints, n.clone()),
            Value::Real(q) => push_capped(&mut self.reals, q.clone()),
            Value::BitVec { width, bits } => push_capped(&mut self.bvs, (*width, bits.clone())),
            Value::Str(s) => {
                for &c in s.code_points() {
                    if self.chars.len() < MAX_CHARS && !self.chars.contains(&c) {
                        self.chars.push(c);
                    }
                }
                push_capped(&mut self.strings, s.clone());
            }
            Value::Datatype(d) => {
                if self.others.len() < 4 * MAX_CONSTS
                    && !self
                        .others
                        .iter()
                        .any(|o| o.smt_eq(v) && o.sort() == v.sort())
                {
                    self.others.push(v.clone());
                }
                for f in &d.fields {
                    self.add(f);
                }
            }
            Value::Fp(_) | Value::Float(_) | Value::Array(_) => {
                if self.others.len() < 4 * MAX_CONSTS {
                    self.others.push(v.clone());
                }
            }
            Value::Bool(_) | Value::Rm(_) => {}
        }
    }

    /// Adds the literals of `term`.
    pub fn add_literals(&mut self, term: &Term) {
        term.for_each(&mut |t| {
            if let TermKind::Lit(v) = &t.kind {
                self.add(v);
            }
        });
    }

    /// Adds a value of the evaluation whose sort is not at hand (an outer bound
    /// variable's): numbers, strings and datatypes.
    fn add_v(&mut self, v: &V) {
        match v {
            V::Num(l) => {
                if let Some(q) = l.as_const() {
                    if q.is_integer() {
                        push_capped(&mut self.ints, q.to_integer());
                    }
                    push_capped(&mut self.reals, q.clone());
                }
            }
            V::Str(s) => self.add(&Value::Str(s.clone())),
            V::Data(d) => self.add(&Value::Datatype(d.clone())),
            _ => {}
        }
    }
}

fn push_unique(list: &mut Vec<Value>, v: Value) {
    if !list.iter().any(|x| x.smt_eq(&v) && x.sort() == v.sort()) {
        list.push(v);
    }
}

fn rational(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Candidate values of a sort for a bounded search, most likely first.
pub fn candidates(sort: &Sort, consts: &Consts) -> Vec<Value> {
    let mut list = Vec::new();
    match sort {
        Sort::Bool => return vec![Value::Bool(false), Value::Bool(true)],
        Sort::Int => int_candidates(&mut list, consts),
        Sort::Real => real_candidates(&mut list, consts),
        Sort::BitVec(w) => {
            if let Some(all) = datatype::all_values(sort, 256) {
                return all;
            }
            bv_candidates(&mut list, *w, consts);
        }
        Sort::String => string_candidates(&mut list, consts),
        Sort::RoundingMode => return RoundingMode::ALL.map(Value::Rm).to_vec(),
        Sort::Float64 => float64_candidates(&mut list),
        Sort::Float(eb, sb) => float_candidates(&mut list, *eb, *sb),
        Sort::Array(parts) => array_candidates(&mut list, sort, &parts.1, consts),
        Sort::Datatype(d) => datatype_candidates(&mut list, d, consts),
        Sort::RegLan => return Vec::new(),
    }
    // The formula's and the model's values of the sort (datatypes, floats, arrays).
    for v in &consts.others {
        if v.sort() == *sort {
            push_unique(&mut list, v.clone());
        }
    }
    list
}

/// Adds the Int candidates: small integers, then the constants and their neighbours.
fn int_candidates(list: &mut Vec<Value>, consts: &Consts) {
    for n in [0, 1, -1, 2, -2, 3, -3] {
        push_unique(list, Value::Int(BigInt::from(n)));
    }
    for c in &consts.ints {
        for d in [0, -1, 1] {
            push_unique(list, Value::Int(c + d));
        }
    }
}

/// Adds the Real candidates: small fractions, then each real or integer constant, its
/// neighbours and its half.
fn real_candidates(list: &mut Vec<Value>, consts: &Consts) {
    for (n, d) in [
        (0, 1),
        (1, 1),
        (-1, 1),
        (1, 2),
        (-1, 2),
        (2, 1),
        (-2, 1),
        (3, 1),
        (-3, 1),
    ] {
        push_unique(list, Value::Real(rational(n, d)));
    }
    let ints = consts
        .ints
        .iter()
        .map(|n| BigRational::from_integer(n.clone()));
    for c in consts.reals.iter().cloned().chain(ints) {
        let one = BigRational::one();
        for v in [
            c.clone(),
            &c - &one,
            &c + &one,
            &c / BigRational::from_integer(BigInt::from(2)),
        ] {
            push_unique(list, Value::Real(v));
        }
    }
}

/// Adds the candidates of a bit-vector sort of width `w` too wide to enumerate: the
/// edge values (zero, one, all ones, the sign bit, the largest positive, two), then the
/// constants of that width with their successors and predecessors.
fn bv_candidates(list: &mut Vec<Value>, w: u32, consts: &Consts) {
    let mask = bv_mask_big(w);
    let sign = BigUint::one() << (w - 1) as usize;
    for bits in [
        BigUint::zero(),
        BigUint::one(),
        mask.clone(),
        sign.clone(),
        &sign - BigUint::one(),
        BigUint::from(2u8),
    ] {
        push_unique(list, Value::bv_big(w, bits));
    }
    for (cw, c) in &consts.bvs {
        if *cw == w {
            for bits in [c.clone(), c + BigUint::one(), c + &mask] {
                push_unique(list, Value::bv_big(w, bits));
            }
        }
    }
}

/// Adds the String candidates: the strings of at most two of the formula's characters
/// (`a` if it has none), then the string constants.
fn string_candidates(list: &mut Vec<Value>, consts: &Consts) {
    let mut chars = consts.chars.clone();
    if chars.is_empty() {
        chars.push('a' as u32);
    }
    let s = |cs: &[u32]| SmtString::from_code_points(cs.iter().copied()).ok();
    let mut strings: Vec<Option<SmtString>> = vec![s(&[])];
    strings.extend(chars.iter().map(|&c| s(&[c])));
    for &c in &chars {
        for &d in &chars {
            strings.push(s(&[c, d]));
        }
    }
    for x in strings.into_iter().flatten() {
        push_unique(list, Value::Str(x));
    }
    for x in &consts.strings {
        push_unique(list, Value::Str(x.clone()));
    }
}

/// Adds the Float64 candidates: the zeros, ±1, the infinities and NaN.
fn float64_candidates(list: &mut Vec<Value>) {
    for x in [
        Float64::POS_ZERO,
        Float64::NEG_ZERO,
        Float64::from_f64(1.0),
        Float64::from_f64(-1.0),
        Float64::POS_INFINITY,
        Float64::NEG_INFINITY,
        Float64::NAN,
    ] {
        push_unique(list, Value::Fp(x));
    }
}

/// Adds the candidates of the float sort with `eb` exponent and `sb` significand bits:
/// the zeros, ±1, the infinities and NaN.
fn float_candidates(list: &mut Vec<Value>, eb: u32, sb: u32) {
    let one = |neg: bool| {
        let x = Fp::from_rational(eb, sb, &rational(1, 1), RoundingMode::Rne);
        if neg {
            x.neg()
        } else {
            x
        }
    };
    for x in [
        Fp::zero(eb, sb, false),
        Fp::zero(eb, sb, true),
        one(false),
        one(true),
        Fp::infinity(eb, sb, false),
        Fp::infinity(eb, sb, true),
        Fp::nan(eb, sb),
    ] {
        push_unique(list, Value::Float(x));
    }
}

/// Adds the candidates of the array sort `sort`: the constant arrays of the first three
/// candidates of its `element` sort.
fn array_candidates(list: &mut Vec<Value>, sort: &Sort, element: &Sort, consts: &Consts) {
    for e in candidates(element, consts).into_iter().take(3) {
        push_unique(
            list,
            Value::Array(Arc::new(ArrayValue::constant(sort.clone(), e))),
        );
    }
}

/// Adds the candidates of datatype `d`: its small values, then its values around the
/// formula's and the model's values.
fn datatype_candidates(list: &mut Vec<Value>, d: &DatatypeSort, consts: &Consts) {
    // `base` is asked for other sorts only: no recursion through datatypes.
    let base = |s: &Sort| candidates(s, consts);
    for v in datatype::small_values(d, 2, 4, 64, &base) {
        push_unique(list, v);
    }
    for v in &consts.others {
        wrap_in_constructors(list, d, v, consts, &base);
    }
}

/// Adds the values of datatype `d` that are one constructor around `v` (a list one
/// longer than the model's): `v` in a field of its sort, the other fields at their first
/// candidates (`base` gives those of sorts other than datatypes).
fn wrap_in_constructors(
    list: &mut Vec<Value>,
    d: &DatatypeSort,
    v: &Value,
    consts: &Consts,
    base: &dyn Fn(&Sort) -> Vec<Value>,
) {
    for (c, _) in d.constructors().iter().enumerate() {
        let sorts = d.field_sorts(c);
        for (k, _) in sorts.iter().enumerate().filter(|(_, s)| **s == v.sort()) {
            let fields: Option<Vec<Value>> = sorts
                .iter()
                .enumerate()
                .map(|(i, s)| match s {
                    _ if i == k => Some(v.clone()),
                    Sort::Datatype(f) => datatype::small_values(f, 2, 1, 1, base).pop(),
                    other => candidates(other, consts).into_iter().next(),
                })
                .collect();
            if let Some(fields) = fields {
                push_unique(list, d.value(c, fields));
            }
        }
    }
}

/// The values a bound variable ranges over in one evaluation of a quantifier.
enum Dom {
    /// Every bit-vector of the width.
    Bits(u32),
    /// These values.
    List(Vec<V>),
}

impl Dom {
    fn len(&self) -> u64 {
        match self {
            Dom::Bits(w) => 1u64 << w,
            Dom::List(l) => l.len() as u64,
        }
    }

    fn get(&self, i: u64) -> V {
        match self {
            Dom::Bits(_) => V::Bv(BigUint::from(i)),
            Dom::List(l) => l[i as usize].clone(),
        }
    }
}

/// Every value of each sort, when all are finite and the assignments number at most
/// [`MAX_EXHAUSTIVE`]; with that number.
fn exhaustive_domains(sorts: &[&Sort]) -> Option<(Vec<Dom>, u64)> {
    let mut total: u64 = 1;
    for s in sorts {
        total = total.checked_mul(datatype::domain_size(s)?)?;
        if total > MAX_EXHAUSTIVE {
            return None;
        }
    }
    let doms = sorts
        .iter()
        .map(|s| match s {
            Sort::BitVec(w) => Some(Dom::Bits(*w)),
            _ => datatype::all_values(s, MAX_EXHAUSTIVE)
                .map(|all| Dom::List(all.iter().map(V::from_value).collect())),
        })
        .collect::<Option<Vec<Dom>>>()?;
    Some((doms, total))
}

/// What trying a quantifier's assignments found.
#[derive(Default)]
struct Outcome {
    /// The assignment that decided it (a forall's false one, an exists' true one).
    decided: Option<Vec<V>>,
    /// The first assignment whose body was undetermined, and why.
    first_open: Option<(Vec<V>, String)>,
    /// How many assignments were evaluated.
    tried: u64,
    /// The evaluation's budget of instances ran out first.
    out_of_budget: bool,
}

impl Ctx<'_> {
    /// Bound variables, quantifiers, datatypes' operations and `match`: one call out
    /// of the evaluator's hot loop, which stays as small as without them.
    #[cold]
    #[inline(never)]
    pub(super) fn binding_term(&mut self, term: &Term) -> V {
        match &term.kind {
            TermKind::Bound(level, name) => self.bound(*level, name, &term.sort),
            TermKind::Quantifier(q, body) => match body.first() {
                Some(body) => self.quantifier(q, body),
                None => V::Bool(Tri::U),
            },
            TermKind::Datatype(op, args) => self.datatype(*op, args, &term.sort),
            TermKind::Match(cases, args) => self.match_term(cases, args, &term.sort),
            _ => self.eval(term),
        }
    }

    /// The value of a bound variable: the environment's at its level.
    fn bound(&mut self, level: u32, name: &str, sort: &Sort) -> V {
        match self.quant.as_ref().and_then(|q| q.env.get(level as usize)) {
            Some(V::Unknown) | None => {
                self.reason(format!(
                    "the variable '{name}' is used outside the quantifier or match that binds it"
                ));
                unknown_of(sort)
            }
            Some(v) => v.clone(),
        }
    }

    /// Makes room for variables bound at `level`: what sits at and above it (bound
    /// around a term that `let` substituted deeper) is saved, and missing levels
    /// below are filled with unknowns. Returns what [`Ctx::leave`] restores.
    fn enter(&mut self, level: usize) -> (usize, Vec<V>) {
        let env = &mut self.binders().env;
        let orig = env.len();
        let saved = if orig > level {
            env.split_off(level)
        } else {
            Vec::new()
        };
        while env.len() < level {
            env.push(V::Unknown);
        }
        (orig, saved)
    }

    /// Restores the environment [`Ctx::enter`] saved.
    fn leave(&mut self, level: usize, (orig, saved): (usize, Vec<V>)) {
        let env = &mut self.binders().env;
        env.truncate(level.min(orig));
        env.extend(saved);
    }

    /// The constants candidates are built around: the formula's literals (or the
    /// body's, when the formula is unknown) and the assignment's values, gathered
    /// once; the values of the variables bound around this quantifier.
    fn consts(&mut self, body: &Term) -> Rc<Consts> {
        let base = match &self.binders().consts {
            Some(c) => c.clone(),
            None => {
                let mut c = Consts::default();
                match self.formula {
                    Some(assertions) => assertions.iter().for_each(|a| c.add_literals(a)),
                    None => c.add_literals(body),
                }
                for b in self.values {
                    if let Binding::Value(v) = b {
                        c.add(v);
                    }
                }
                let c = Rc::new(c);
                self.binders().consts = Some(c.clone());
                c
            }
        };
        let env = &self.binders().env;
        if env.is_empty() {
            return base;
        }
        let mut with_env = (*base).clone();
        for v in env {
            with_env.add_v(v);
        }
        Rc::new(with_env)
    }

    /// `forall` or `exists`: exactly over a small finite domain, else by bounded
    /// search (see the module's documentation).
    fn quantifier(&mut self, q: &Quantifier, body: &Term) -> V {
        self.binders().quantified = true;
        let level = q.level as usize;
        let sorts: Vec<&Sort> = q.vars.iter().map(|(_, s)| s).collect();
        let (doms, total, exhaustive) = match exhaustive_domains(&sorts) {
            Some((doms, total)) => (doms, total, true),
            None => {
                let consts = self.consts(body);
                let mut lists: Vec<Vec<Value>> =
                    sorts.iter().map(|s| candidates(s, &consts)).collect();
                // Shortens the longest lists (their last, least likely candidates go)
                // until the assignments fit the bound.
                while !matches!(
                    lists.iter().try_fold(1usize, |acc, l| acc.checked_mul(l.len())),
                    Some(n) if n <= MAX_CANDIDATE_TUPLES
                ) {
                    let Some(longest) = lists.iter_mut().max_by_key(|l| l.len()) else {
                        break;
                    };
                    let cut = (longest.len() / 8).max(1);
                    longest.truncate(longest.len() - cut);
                }
                let total = lists.iter().map(|l| l.len() as u64).product();
                let doms = lists
                    .into_iter()
                    .map(|l| Dom::List(l.iter().map(V::from_value).collect()))
                    .collect();
                (doms, total, false)
            }
        };
        let saved = self.enter(level);
        self.binders().nesting += 1;
        // The instances' reasons are the note's business (its first undetermined
        // instance says why): a reason of an instance that did not matter would
        // mislead.
        let reasons = std::mem::take(&mut self.reasons);
        let outcome = self.instances(q.kind, &doms, level, body);
        self.reasons = reasons;
        self.binders().nesting -= 1;
        self.leave(level, saved);
        let note = note(q, &sorts, outcome, total, exhaustive);
        let truth = match &note.truth {
            Truth::True => Tri::T,
            Truth::False => Tri::F,
            Truth::Undetermined(_) => Tri::U,
        };
        if self.binders().nesting == 0 {
            if truth == Tri::U {
                // Its verdict is the reason (the note holds the first undetermined
                // instance's own): room is made for it among the first reasons.
                let why = note.to_string();
                if self.reasons.len() >= MAX_REASONS {
                    self.reasons.pop();
                }
                self.reason(why);
            }
            self.binders().notes.push(note);
        } else if truth == Tri::U {
            self.binders().inner = Some(note.to_string());
        }
        V::Bool(truth)
    }

    /// Evaluates the body under the assignments of `doms` (the last variable fastest)
    /// until one decides the quantifier or all are tried.
    fn instances(&mut self, kind: QuantKind, doms: &[Dom], level: usize, body: &Term) -> Outcome {
        let stop = match kind {
            QuantKind::Forall => Tri::F,
            QuantKind::Exists => Tri::T,
        };
        let mut out = Outcome::default();
        if doms.iter().any(|d| d.len() == 0) {
            return out;
        }
        let mut index = vec![0u64; doms.len()];
        loop {
            if self.instances_left == 0 {
                out.out_of_budget = true;
                return out;
            }
            self.instances_left -= 1;
            let env = &mut self.binders().env;
            env.truncate(level);
            for (d, &i) in doms.iter().zip(&index) {
                env.push(d.get(i));
            }
            self.reasons.clear();
            self.binders().inner = None;
            let t = self.truth(body);
            out.tried += 1;
            if t == stop {
                out.decided = Some(self.binders().env[level..].to_vec());
                return out;
            }
            if t == Tri::U && out.first_open.is_none() {
                let why = self
                    .binders()
                    .inner
                    .take()
                    .or_else(|| self.reasons.first().cloned())
                    .unwrap_or_else(|| "not determined".into());
                out.first_open = Some((self.binders().env[level..].to_vec(), why));
            }
            let mut k = doms.len();
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                index[k] += 1;
                if index[k] < doms[k].len() {
                    break;
                }
                index[k] = 0;
            }
        }
    }

    /// A constructor, selector or tester applied. A selector applied to a value of
    /// another constructor is unspecified: the model's definition of the selector
    /// gives it when the model has one, otherwise it is undetermined.
    fn datatype(&mut self, op: DtOp, args: &[Term], sort: &Sort) -> V {
        match op {
            DtOp::Construct(c) => {
                let Some(dt) = sort.datatype() else {
                    return V::Unknown;
                };
                let mut fields = Vec::with_capacity(args.len());
                for a in args {
                    let v = self.eval(a);
                    match v.to_value(&a.sort) {
                        Some(x) => fields.push(x),
                        None => {
                            self.taint_value(&v, "a constructor");
                            return V::Unknown;
                        }
                    }
                }
                V::Data(Arc::new(DatatypeValue {
                    sort: dt.clone(),
                    constructor: c,
                    fields,
                }))
            }
            DtOp::Test(c) => match self.eval(&args[0]) {
                V::Data(d) => V::Bool(Tri::from(d.constructor == c)),
                other => {
                    self.taint_value(&other, "a tester");
                    V::Bool(Tri::U)
                }
            },
            DtOp::Select(c, k) => match self.eval(&args[0]) {
                V::Data(d) if d.constructor == c => match d.fields.get(k) {
                    Some(v) => V::from_value(v),
                    None => unknown_of(sort),
                },
                V::Data(d) => self.wrong_selector(c, k, &d, sort),
                other => {
                    self.taint_value(&other, "a selector");
                    unknown_of(sort)
                }
            },
        }
    }

    /// Selector `k` of constructor `c` applied to `d`, built by another constructor.
    fn wrong_selector(&mut self, c: usize, k: usize, d: &Arc<DatatypeValue>, sort: &Sort) -> V {
        let ctors = d.sort.constructors();
        let (Some(ctor), Some(other)) = (ctors.get(c), ctors.get(d.constructor)) else {
            return unknown_of(sort);
        };
        let Some(field) = ctor.fields.get(k) else {
            return unknown_of(sort);
        };
        let name = &field.name;
        let arg = Value::Datatype(d.clone());
        if let Some(Ok(f)) = self.functions.uninterpreted.get(&**name) {
            if f.params == [arg.sort()] {
                match f.apply(std::slice::from_ref(&arg)) {
                    Some(Value::Int(n)) if *sort == Sort::Real => {
                        return V::from_value(&Value::Real(BigRational::from_integer(n)))
                    }
                    Some(v) if v.sort() == *sort => return V::from_value(&v),
                    _ => {}
                }
                self.reason(format!(
                    "the model's definition of the selector '{name}' is not determined at ({name} {arg})"
                ));
                return unknown_of(sort);
            }
        }
        self.reason(format!(
            "({name} {arg}) is unspecified (a selector of '{}' applied to a '{}') and the model does not define '{name}'",
            ctor.name, other.name
        ));
        unknown_of(sort)
    }

    /// `match`: the body of the first case whose pattern fits the scrutinee, with the
    /// pattern's variables bound to the fields (or to the scrutinee).
    fn match_term(&mut self, cases: &[MatchCase], args: &[Term], sort: &Sort) -> V {
        let Some((scrutinee, bodies)) = args.split_first() else {
            return unknown_of(sort);
        };
        let d = match self.eval(scrutinee) {
            V::Data(d) => d,
            other => {
                self.taint_value(&other, "match");
                return unknown_of(sort);
            }
        };
        for (case, body) in cases.iter().zip(bodies) {
            let values: Vec<V> = match &case.pattern {
                Pattern::Constructor(c, _) if *c == d.constructor => {
                    d.fields.iter().map(V::from_value).collect()
                }
                Pattern::Constructor(..) => continue,
                Pattern::Var(_) => vec![V::Data(d.clone())],
            };
            let level = case.level as usize;
            let saved = self.enter(level);
            self.binders().env.extend(values);
            let v = self.eval(body);
            self.leave(level, saved);
            return v;
        }
        self.reason(format!(
            "no case of the match fits {}",
            Value::Datatype(d.clone())
        ));
        unknown_of(sort)
    }
}

/// `x = 1, y = #x0f`.
fn show(vars: &[(Arc<str>, Sort)], values: &[Value]) -> String {
    vars.iter()
        .zip(values)
        .map(|((name, _), v)| format!("{name} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The concrete values of an assignment of the variables of `sorts`.
fn concrete(values: &[V], sorts: &[&Sort]) -> Option<Vec<Value>> {
    values
        .iter()
        .zip(sorts)
        .map(|(v, s)| v.to_value(s))
        .collect()
}

/// The verdict of a quantifier from what its assignments gave.
fn note(
    q: &Quantifier,
    sorts: &[&Sort],
    outcome: Outcome,
    total: u64,
    exhaustive: bool,
) -> QuantifierNote {
    let search = if exhaustive {
        QuantifierSearch::Exhaustive { assignments: total }
    } else {
        QuantifierSearch::Bounded { candidates: total }
    };
    let decided = match q.kind {
        QuantKind::Forall => Truth::False,
        QuantKind::Exists => Truth::True,
    };
    if let Some(instance) = outcome.decided {
        return QuantifierNote {
            kind: q.kind,
            vars: q.vars.clone(),
            truth: decided,
            search,
            instance: concrete(&instance, sorts),
        };
    }
    let none_found = match q.kind {
        QuantKind::Forall => "no counterexample",
        QuantKind::Exists => "no instance",
    };
    let open = outcome.first_open.as_ref().map(|(values, why)| {
        let at = concrete(values, sorts).map_or_else(String::new, |v| show(&q.vars, &v));
        format!("undetermined at {at}: {why}")
    });
    let truth = if outcome.out_of_budget {
        let mut why = format!(
            "stopped after {} of {total} assignments: the evaluation's budget of quantifier instances ran out",
            outcome.tried
        );
        if let Some(open) = open {
            why.push_str("; ");
            why.push_str(&open);
        }
        Truth::Undetermined(why)
    } else if exhaustive {
        match open {
            None => match q.kind {
                QuantKind::Forall => Truth::True,
                QuantKind::Exists => Truth::False,
            },
            Some(open) => {
                Truth::Undetermined(format!("{none_found} among all {total} values, {open}"))
            }
        }
    } else {
        let mut why = if total == 0 {
            "no candidate values for the variables' sorts (bounded search)".to_string()
        } else {
            format!("{none_found} among {total} candidates (bounded search)")
        };
        if let Some(open) = open {
            why.push_str("; ");
            why.push_str(&open);
        }
        Truth::Undetermined(why)
    };
    QuantifierNote {
        kind: q.kind,
        vars: q.vars.clone(),
        truth,
        search,
        instance: outcome
            .first_open
            .and_then(|(values, _)| concrete(&values, sorts)),
    }
}
