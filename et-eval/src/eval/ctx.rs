//! One evaluation of a formula under an assignment and a fixed set of choices for the
//! unspecified results: the term walk, with every operator's semantics.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{Euclid, One, Signed, Zero};

use super::domain::{ChoiceKey, DivOp, Lin, Relaxed, Sym, SymId, SymKind, Tri, V};
use super::linear::{self, Constraint, Rel};
use super::quant::{Consts, DEFAULT_INSTANCES};
use super::strings;
use super::{Assignment, Binding, Interpretations, QuantifierNote};
use crate::algebraic::{Algebraic, Poly};
use crate::fp::generic::{Fp, GenericExtremum};
use crate::fp::{Extremum, Float64};
use crate::interval::{self, Interval};
use crate::sort::Sort;
use crate::term::{Op, Term, TermKind};
use crate::value::{bv_mask_big, ArrayValue, Value};

/// Key of a symbol, so equal sub-terms get the same symbol.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum SymKey {
    Choice(ChoiceKey),
    Trig(Op, BigRational),
    Opaque(Op, Vec<Lin>),
    Binding(usize),
    AlgPower(usize, u32),
}

/// One path of the search over interpretations of unspecified results: the decisions
/// taken so far (replayed in order on every evaluation of the path) and the linear
/// constraints they put on the unknowns.
#[derive(Debug, Default)]
pub struct Path {
    /// (option taken, options available), in the order the evaluation met them.
    pub decisions: Vec<(usize, usize)>,
    pos: usize,
    /// What the decisions say of the unknowns.
    pub constraints: Vec<Constraint>,
    /// The constraints have no solution: nothing on this path counts.
    pub dead: bool,
    /// Something on the path was not followed exactly (the reasons say what): a
    /// false result here proves nothing.
    pub open: bool,
    /// `fp.min`/`fp.max` of two zeros, as chosen on this path.
    pub fp_zeros: HashMap<ChoiceKey, Value>,
}

impl Path {
    /// A path that replays `decisions` and then takes the first option of every new one.
    pub fn replay(decisions: Vec<(usize, usize)>) -> Path {
        Path {
            decisions,
            ..Path::default()
        }
    }

    /// The decisions of the next path in depth-first order, if any is left.
    pub fn next(mut self) -> Option<Vec<(usize, usize)>> {
        self.decisions.truncate(self.pos);
        while let Some((taken, count)) = self.decisions.pop() {
            if taken + 1 < count {
                self.decisions.push((taken + 1, count));
                return Some(self.decisions);
            }
        }
        None
    }
}

/// The state of one evaluation.
pub struct Ctx<'a> {
    /// The constants' bindings (a function body's: its arguments).
    pub(super) values: &'a [Binding],
    /// The model's interpretations of functions.
    pub(super) functions: &'a Interpretations,
    /// How many applications of uninterpreted functions enclose this evaluation.
    depth: usize,
    /// Values of unspecified results (a certificate being checked).
    chosen: &'a HashMap<ChoiceKey, Value>,
    /// Precision of transcendental enclosures, in bits.
    prec: u64,
    pub syms: Vec<Sym>,
    keys: HashMap<SymKey, SymId>,
    /// The search's path; `None` for a plain evaluation (unspecified results are then
    /// `chosen`'s, the model's, or unknown).
    pub path: Option<Path>,
    /// A comparison was undecided only for want of precision.
    pub precision_limited: bool,
    /// Why something was undetermined (first reasons only).
    pub reasons: Vec<String>,
    /// The assertions of the formula being evaluated, when known: their literals are
    /// candidates for quantified variables.
    pub formula: Option<&'a [Term]>,
    /// How many more quantifier bodies this evaluation may evaluate.
    pub instances_left: usize,
    /// What quantifiers and `match` need, made at the first of them: a formula
    /// without them never allocates it (and the context stays small: it is made for
    /// every evaluation).
    pub(super) quant: Option<Box<Binders>>,
}

/// The state of quantifiers and `match` in one evaluation.
#[derive(Default)]
pub(super) struct Binders {
    /// The values of the variables quantifiers and `match` patterns bind, by level.
    pub env: Vec<V>,
    /// The candidates' constants of the formula and the assignment, gathered at the
    /// first quantifier.
    pub consts: Option<Rc<Consts>>,
    /// A quantifier was evaluated.
    pub quantified: bool,
    /// How many quantifiers are being evaluated around the current term.
    pub nesting: u32,
    /// The verdict of the last nested quantifier that was undetermined, for its outer
    /// quantifier's note.
    pub inner: Option<String>,
    /// The outermost quantifiers' verdicts, in order of evaluation.
    pub notes: Vec<QuantifierNote>,
}

pub(super) const MAX_REASONS: usize = 4;

/// How deeply the model's functions may call each other (a definition that calls
/// itself would otherwise never end).
const MAX_CALL_DEPTH: usize = 64;

/// Most unknown results of one division operator at different dividends in one case
/// of the search: each one's comparisons are decided against all the path's
/// constraints, so the cost grows with their square. A formula has a few; a
/// quantifier's instances may bring one each, and the search would not end.
const MAX_CHOICES: usize = 64;

/// The widest unspecified bit-vector result (`fp.to_ubv` out of range) whose values
/// the search tries one by one.
const MAX_PICKED_BV_WIDTH: u32 = 8;

impl<'a> Ctx<'a> {
    pub fn new(
        assignment: &'a Assignment,
        chosen: &'a HashMap<ChoiceKey, Value>,
        prec: u64,
    ) -> Ctx<'a> {
        Ctx::new_with(
            &assignment.values,
            &assignment.interpretations,
            chosen,
            prec,
        )
    }

    /// A plain evaluation of a function body: `values` are its arguments.
    fn new_with(
        values: &'a [Binding],
        functions: &'a Interpretations,
        chosen: &'a HashMap<ChoiceKey, Value>,
        prec: u64,
    ) -> Ctx<'a> {
        Ctx {
            values,
            functions,
            depth: 0,
            chosen,
            prec,
            syms: Vec::new(),
            keys: HashMap::new(),
            path: None,
            precision_limited: false,
            reasons: Vec::new(),
            formula: None,
            instances_left: DEFAULT_INSTANCES,
            quant: None,
        }
    }

    /// The state of quantifiers and `match`, made on first use.
    pub(super) fn binders(&mut self) -> &mut Binders {
        self.quant.get_or_insert_with(Box::default)
    }

    /// Whether a quantifier was evaluated.
    pub fn quantified(&self) -> bool {
        self.quant.as_ref().is_some_and(|q| q.quantified)
    }

    /// The outermost quantifiers' verdicts so far, taken out.
    pub fn take_notes(&mut self) -> Vec<QuantifierNote> {
        self.quant
            .as_mut()
            .map(|q| std::mem::take(&mut q.notes))
            .unwrap_or_default()
    }

    pub(super) fn reason(&mut self, why: impl Into<String>) {
        let why = why.into();
        if self.reasons.len() < MAX_REASONS && !self.reasons.contains(&why) {
            self.reasons.push(why);
        }
    }

    /// Marks the path as not followed exactly, with the reason.
    pub(super) fn open(&mut self, why: impl Into<String>) {
        if let Some(path) = &mut self.path {
            path.open = true;
        }
        self.reason(why);
    }

    fn symbol(&mut self, key: SymKey, make: impl FnOnce(&mut Self) -> Sym) -> SymId {
        if let Some(&id) = self.keys.get(&key) {
            return id;
        }
        let sym = make(self);
        let id = self.push_sym(sym);
        self.keys.insert(key, id);
        id
    }

    fn push_sym(&mut self, sym: Sym) -> SymId {
        let id = self.syms.len() as SymId;
        self.syms.push(sym);
        id
    }

    fn is_decision(&self, s: SymId) -> bool {
        self.syms[s as usize].kind.is_decision()
    }

    /// Whether the search decides the symbol's value and it is an integer.
    pub fn is_integer_sym(&self, s: SymId) -> bool {
        self.syms[s as usize].kind.is_integer()
    }

    /// (mentions a decision symbol, mentions a fixed symbol)
    fn mentions(&self, lin: &Lin) -> (bool, bool) {
        let decision = lin.terms.iter().any(|(s, _)| self.is_decision(*s));
        let fixed = lin.terms.iter().any(|(s, _)| !self.is_decision(*s));
        (decision, fixed)
    }

    /// Whether the form's value is an integer whatever the unknowns are.
    fn integral(&self, lin: &Lin) -> bool {
        lin.c.is_integer()
            && lin
                .terms
                .iter()
                .all(|(s, k)| k.is_integer() && self.is_integer_sym(*s))
    }

    fn opaque(&mut self, op: Op, args: &[&Lin], interval: Interval) -> Lin {
        for a in args {
            self.taint(a, op.name());
        }
        let key = SymKey::Opaque(op, args.iter().map(|a| (*a).clone()).collect());
        Lin::symbol(self.symbol(key, |_| Sym {
            kind: SymKind::Opaque,
            interval,
        }))
    }

    /// A division-by-zero result (a decided unknown) used where the search cannot
    /// follow it: the path is open.
    fn taint(&mut self, lin: &Lin, op: &str) {
        if self.mentions(lin).0 {
            self.open(format!(
                "a division-by-zero result flows into '{op}', which the search does not follow"
            ));
        }
    }

    pub(super) fn taint_value(&mut self, v: &V, op: &str) {
        if let V::Num(l) = v {
            self.taint(l, op);
        }
    }

    /// An enclosure of a linear form.
    pub fn interval(&self, lin: &Lin) -> Interval {
        let mut acc = Interval::point(lin.c.clone());
        for (s, k) in &lin.terms {
            acc = acc.add(&self.syms[*s as usize].interval.scale(k));
        }
        acc
    }

    /// Takes a decision among `options` on the path (replaying a recorded one first).
    fn decide(&mut self, options: usize) -> usize {
        let Some(path) = &mut self.path else {
            return 0;
        };
        if path.dead {
            return 0;
        }
        if let Some(&(taken, _)) = path.decisions.get(path.pos) {
            path.pos += 1;
            return taken;
        }
        path.decisions.push((0, options));
        path.pos += 1;
        0
    }

    /// Adds constraints the path's decisions imply by construction.
    fn constrain(&mut self, cs: impl IntoIterator<Item = Constraint>) {
        if let Some(path) = &mut self.path {
            path.constraints.extend(cs);
        }
    }

    /// Decides on the path whether the sign of `d` (a form over decision symbols only)
    /// is in `want`: the cells of the answer that the path's constraints admit are the
    /// options.
    fn sign_query(&mut self, d: &Lin, want: &[Ordering]) -> Tri {
        let le = |l: &Lin| Constraint {
            lin: l.clone(),
            rel: Rel::Le,
        };
        let lt = |l: &Lin| Constraint {
            lin: l.clone(),
            rel: Rel::Lt,
        };
        let neg = d.neg();
        let cells: Vec<(Constraint, bool)> = match want {
            [Ordering::Less] => vec![(lt(d), true), (le(&neg), false)],
            [Ordering::Less, Ordering::Equal] => vec![(le(d), true), (lt(&neg), false)],
            [Ordering::Greater] => vec![(lt(&neg), true), (le(d), false)],
            [Ordering::Greater, Ordering::Equal] => vec![(le(&neg), true), (lt(d), false)],
            _ => vec![
                (
                    Constraint {
                        lin: d.clone(),
                        rel: Rel::Eq,
                    },
                    true,
                ),
                (lt(d), false),
                (lt(&neg), false),
            ],
        };
        let Some(path) = &mut self.path else {
            return Tri::U;
        };
        if path.dead {
            return Tri::U;
        }
        let mut admitted = Vec::new();
        // Constraints on other unknowns than d's do not restrict d's cells (the path
        // itself is feasible): every cell of a non-constant form is then possible.
        let relevant: Vec<Constraint> = path
            .constraints
            .iter()
            .filter(|c| {
                c.lin
                    .terms
                    .iter()
                    .any(|(s, _)| d.terms.iter().any(|(t, _)| t == s))
            })
            .cloned()
            .collect();
        for (cell, truth) in cells {
            if relevant.is_empty() {
                admitted.push((cell, truth));
                continue;
            }
            // Unknowns linked to d through other constraints matter too: check
            // against the whole path then.
            let mut cs = path.constraints.clone();
            cs.push(cell.clone());
            // An unknown answer keeps the cell: exploring it is never unsound.
            if linear::rationally_feasible(&cs) != Some(false) {
                admitted.push((cell, truth));
            }
        }
        match admitted.len() {
            0 => {
                path.dead = true;
                Tri::U
            }
            // The other cells are excluded: the answer follows from the path.
            1 => Tri::from(admitted[0].1),
            n => {
                let i = self.decide(n);
                let (cell, truth) = admitted.swap_remove(i.min(n - 1));
                self.constrain([cell]);
                Tri::from(truth)
            }
        }
    }

    /// The result of a division by zero at `dividend`: a certificate's value, the
    /// model's interpretation, or (searching) an unknown shared by every application
    /// whose dividend is equal on the path.
    fn division_by_zero(&mut self, op: DivOp, dividend: &Lin) -> Lin {
        let function = match op {
            DivOp::Int => self.functions.int_div.as_ref(),
            DivOp::Mod => self.functions.int_mod.as_ref(),
            DivOp::Real => self.functions.real_div.as_ref(),
            DivOp::FpToReal(..) => None,
        };
        let name = match op {
            DivOp::Int => "div",
            DivOp::Mod => "mod",
            DivOp::Real => "/",
            DivOp::FpToReal(..) => "fp.to_real",
        };
        if let Some(c) = dividend.as_const() {
            let key = op.key(c);
            if let Some(v) = self.chosen.get(&key) {
                if let V::Num(l) = V::from_value(v) {
                    return l;
                }
            }
            if let Some(function) = function {
                let (x, zero) = if op == DivOp::Real {
                    (Value::Real(c.clone()), Value::Real(BigRational::zero()))
                } else {
                    (Value::Int(c.to_integer()), Value::Int(BigInt::zero()))
                };
                // z3's functions take the dividend and the zero divisor; a one-parameter
                // definition takes the dividend alone.
                let args = [x, zero];
                let args = &args[..function.params.len().min(2)];
                if let Some(V::Num(l)) = function.apply(args).map(|v| V::from_value(&v)) {
                    return l;
                }
                self.open(format!(
                    "the model's definition of {} cannot be evaluated",
                    key.describe()
                ));
                return self.fresh_opaque();
            }
            if self.path.is_none() {
                let id = self.symbol(SymKey::Choice(key), |_| Sym {
                    kind: SymKind::Opaque,
                    interval: Interval::whole(),
                });
                return Lin::symbol(id);
            }
        } else if function.is_some() || self.path.is_none() || self.mentions(dividend).1 {
            self.open(format!(
                "({name} x 0) where x is not determined by the model"
            ));
            return self.fresh_opaque();
        }
        let existing: Vec<(SymId, Lin)> = self
            .syms
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match &s.kind {
                SymKind::Choice(o, d) if *o == op => Some((i as SymId, d.clone())),
                _ => None,
            })
            .collect();
        let count = existing.len();
        for (id, d) in existing {
            let diff = dividend.sub(&d);
            let same = match diff.as_const() {
                Some(k) => k.is_zero(),
                None => self.sign_query(&diff, &[Ordering::Equal]) == Tri::T,
            };
            if same {
                return Lin::symbol(id);
            }
        }
        // Inside a quantifier every instance may bring a new dividend: deciding each
        // would multiply the cases of the search by the domain's size. There the
        // result is a fixed unknown (the same for the same dividend), which decides
        // nothing but what holds whatever it is.
        let in_quantifier = self.quant.as_ref().is_some_and(|q| q.nesting > 0);
        if in_quantifier || count >= MAX_CHOICES {
            self.reason(if in_quantifier {
                format!("({name} x 0) inside a quantifier is not searched over (the model does not define it)")
            } else {
                format!("more than {MAX_CHOICES} different ({name} x 0) to tell apart")
            });
            return match dividend.as_const() {
                Some(c) => {
                    let key = op.key(c);
                    Lin::symbol(self.symbol(SymKey::Choice(key), |_| Sym {
                        kind: SymKind::Opaque,
                        interval: Interval::whole(),
                    }))
                }
                None => self.fresh_opaque(),
            };
        }
        Lin::symbol(self.push_sym(Sym {
            kind: SymKind::Choice(op, dividend.clone()),
            interval: Interval::whole(),
        }))
    }

    /// The algebraic number bound to constant `var`.
    fn algebraic(&self, var: usize) -> Option<&'a Algebraic> {
        match self.values.get(var) {
            Some(Binding::Algebraic(a)) => Some(a),
            _ => None,
        }
    }

    /// α^k for the algebraic number α of constant `var`, as a form over the symbols
    /// α, α², …, α^(d−1) (d the degree of α's polynomial p: higher powers reduce
    /// modulo p, since p(α) = 0).
    fn alg_power(&mut self, var: usize, k: u32) -> Lin {
        let Some(alpha) = self.algebraic(var) else {
            return self.fresh_opaque();
        };
        let d = alpha.poly.degree() as u32;
        if k < d {
            if k == 0 {
                return Lin::constant(BigRational::one());
            }
            let prec = self.prec;
            let id = self.symbol(SymKey::AlgPower(var, k), |_| {
                let mut a = alpha.clone();
                a.refine(prec);
                let (lo, hi) = a.bounds();
                let base = Interval::new(lo, hi);
                let mut interval = base.clone();
                for _ in 1..k {
                    interval = interval.mul(&base);
                }
                Sym {
                    kind: SymKind::AlgPower { var, power: k },
                    interval,
                }
            });
            return Lin::symbol(id);
        }
        let mut x = vec![BigRational::zero(); k as usize + 1];
        x[k as usize] = BigRational::one();
        let reduced = Poly(x).rem(&alpha.poly);
        self.alg_poly_lin(var, &reduced)
    }

    fn alg_poly_lin(&mut self, var: usize, p: &Poly) -> Lin {
        let mut acc = Lin::constant(p.0.first().cloned().unwrap_or_default());
        for (k, c) in p.0.iter().enumerate().skip(1) {
            if !c.is_zero() {
                acc = acc.add(&self.alg_power(var, k as u32).scale(c));
            }
        }
        acc
    }

    /// The form as a polynomial in one algebraic number α, if its symbols are all
    /// powers of the same α: (α's constant, the polynomial e with the form = e(α)).
    fn as_alg_poly(&self, lin: &Lin) -> Option<(usize, Poly)> {
        let mut var = None;
        let mut coefs = vec![lin.c.clone()];
        for (s, k) in &lin.terms {
            let SymKind::AlgPower { var: v, power } = self.syms[*s as usize].kind else {
                return None;
            };
            if var.is_some_and(|w| w != v) {
                return None;
            }
            var = Some(v);
            let power = power as usize;
            if coefs.len() <= power {
                coefs.resize(power + 1, BigRational::zero());
            }
            coefs[power] += k;
        }
        Some((var?, Poly(coefs).normalized()))
    }

    /// The sign of a form in one algebraic number, exactly.
    fn alg_sign(&mut self, lin: &Lin) -> Option<Ordering> {
        let (var, e) = self.as_alg_poly(lin)?;
        let alpha = self.algebraic(var)?;
        let sign = alpha.sign_of(&e);
        if sign.is_none() {
            self.reason("an algebraic number needs more bisections than allowed");
        }
        sign
    }

    /// A fixed but unknown number.
    fn fresh_opaque(&mut self) -> Lin {
        Lin::symbol(self.push_sym(Sym {
            kind: SymKind::Opaque,
            interval: Interval::whole(),
        }))
    }

    /// A decided unknown tied to others by `relaxed` (or by constraints the caller
    /// adds), shared by equal applications.
    fn aux(&mut self, key: SymKey, integer: bool, relaxed: Option<Relaxed>) -> (SymId, bool) {
        if let Some(&id) = self.keys.get(&key) {
            return (id, false);
        }
        let id = self.symbol(key, |_| Sym {
            kind: SymKind::Aux { integer, relaxed },
            interval: Interval::whole(),
        });
        (id, true)
    }

    /// `fp.min`/`fp.max` of two zeros: a certificate's choice, or a decision.
    fn fp_zero(&mut self, key: ChoiceKey) -> V {
        self.pick(key, (11, 53), 2)
    }

    /// An unspecified result among `count` values (the zeros of a format, or the
    /// bit-vectors of a width): a certificate's choice, the path's, or a decision.
    fn pick(&mut self, key: ChoiceKey, format: (u32, u32), count: usize) -> V {
        if let Some(v) = self.chosen.get(&key) {
            return V::from_value(v);
        }
        if let Some(v) = self.path.as_ref().and_then(|p| p.fp_zeros.get(&key)) {
            return V::from_value(v);
        }
        if self.path.is_none() {
            return V::Unknown;
        }
        // Not searched over inside a quantifier, like division by zero there.
        if self.quant.as_ref().is_some_and(|q| q.nesting > 0) {
            self.reason(format!(
                "{} inside a quantifier is not searched over",
                key.describe()
            ));
            return V::Unknown;
        }
        let taken = self.decide(count);
        let v = match &key {
            ChoiceKey::FpToBv(_, w, ..) => Value::bv(*w, taken as u64),
            _ => Value::float(Fp::zero(format.0, format.1, taken == 1)),
        };
        if let Some(path) = &mut self.path {
            path.fp_zeros.insert(key, v.clone());
        }
        V::from_value(&v)
    }

    pub fn eval(&mut self, term: &Term) -> V {
        crate::deep(|| self.eval_inner(term))
    }

    fn eval_inner(&mut self, term: &Term) -> V {
        match &term.kind {
            TermKind::Lit(v) => V::from_value(v),
            TermKind::ReConst(c) => V::Re(strings::re_const(*c)),
            TermKind::Var(i, name) => match self.values.get(*i) {
                Some(Binding::Value(v)) => V::from_value(v),
                // Closed by construction: no recursion through constants.
                Some(Binding::Term(t)) if !has_var(t) => self.eval(t),
                Some(Binding::Term(_)) => {
                    self.reason(format!("{name}: a value that mentions constants"));
                    unknown_of(&term.sort)
                }
                Some(Binding::Algebraic(_)) => V::Num(self.alg_power(*i, 1)),
                Some(Binding::Undetermined(why)) => {
                    let why = format!("{name}: {why}");
                    self.reason(why);
                    if term.sort.is_numeric() {
                        let id = self.symbol(SymKey::Binding(*i), |_| Sym {
                            kind: SymKind::Opaque,
                            interval: Interval::whole(),
                        });
                        V::Num(Lin::symbol(id))
                    } else if term.sort == Sort::Bool {
                        V::Bool(Tri::U)
                    } else {
                        V::Unknown
                    }
                }
                None => {
                    self.reason(format!("no value for '{name}'"));
                    if term.sort == Sort::Bool {
                        V::Bool(Tri::U)
                    } else {
                        V::Unknown
                    }
                }
            },
            TermKind::App(op, args) => self.app(*op, args, &term.sort),
            TermKind::Call(f, args) => self.call(&f.name, args, &term.sort),
            TermKind::Bound(..)
            | TermKind::Quantifier(..)
            | TermKind::Datatype(..)
            | TermKind::Match(..) => self.binding_term(term),
        }
    }

    /// An uninterpreted function applied to `args`: the model's definition evaluated
    /// with its parameters bound to the arguments' values. Undetermined (with the
    /// reason) when the model does not define the function, its definition cannot be
    /// read or evaluated, or an argument is not determined.
    fn call(&mut self, name: &str, args: &[Term], sort: &Sort) -> V {
        let function = match self.functions.uninterpreted.get(name) {
            Some(Ok(f)) => f,
            Some(Err(why)) => {
                self.reason(format!(
                    "the model's definition of the function '{name}' cannot be read: {why}"
                ));
                return unknown_of(sort);
            }
            None => {
                self.reason(format!("the model does not define the function '{name}'"));
                return unknown_of(sort);
            }
        };
        if function.params.len() != args.len() {
            self.reason(format!(
                "the model defines '{name}' with {} parameters, applied to {} arguments",
                function.params.len(),
                args.len()
            ));
            return unknown_of(sort);
        }
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            let v = self.eval(a);
            match v.to_value(&a.sort) {
                Some(x) => values.push(Binding::Value(x)),
                None => {
                    self.taint_value(&v, name);
                    self.reason(format!("the argument {a} of '{name}' is not determined"));
                    return unknown_of(sort);
                }
            }
        }
        if self.depth >= MAX_CALL_DEPTH {
            self.open(format!(
                "the model's functions call each other more than {MAX_CALL_DEPTH} deep (at '{name}')"
            ));
            return unknown_of(sort);
        }
        let mut inner = Ctx::new_with(&values, self.functions, self.chosen, self.prec);
        inner.depth = self.depth + 1;
        let result = inner.eval(&function.body).to_value(&function.body.sort);
        for r in std::mem::take(&mut inner.reasons) {
            self.reason(r);
        }
        self.precision_limited |= inner.precision_limited;
        match result {
            Some(Value::Int(n)) if *sort == Sort::Real => {
                V::Num(Lin::constant(BigRational::from_integer(n)))
            }
            Some(v) if v.sort() == *sort => V::from_value(&v),
            Some(v) => {
                self.reason(format!(
                    "the model's definition of '{name}' gives a {} where {sort} was declared",
                    v.sort()
                ));
                unknown_of(sort)
            }
            None => {
                let shown: Vec<String> = values
                    .iter()
                    .map(|b| match b {
                        Binding::Value(v) => v.to_string(),
                        _ => "?".into(),
                    })
                    .collect();
                self.reason(format!(
                    "the model's definition of '{name}' is not determined at ({name} {})",
                    shown.join(" ")
                ));
                unknown_of(sort)
            }
        }
    }

    pub fn truth(&mut self, term: &Term) -> Tri {
        match self.eval(term) {
            V::Bool(t) => t,
            _ => Tri::U,
        }
    }

    fn num(&mut self, term: &Term) -> Option<Lin> {
        match self.eval(term) {
            V::Num(l) => Some(l),
            _ => None,
        }
    }

    /// An operator applied to its arguments: dispatched by theory.
    #[inline]
    fn app(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        use Op::*;
        match op {
            Not | And | Or | Xor | Implies => self.connective(op, args),
            Eq | Distinct => self.equality(op, args),
            Ite => self.ite(args),
            Lt | Le | Gt | Ge => self.comparison(op, args),
            Add | Sub | Mul | RealDiv | IntDiv | Mod | Abs | ToReal | ToInt | IsInt | Sin | Cos
            | Tan | Bv2Nat | Sbv2Int | Divisible(_) => self.arith(op, args, sort),
            Int2Bv(w) => self.int2bv(w, args),
            BvNot | BvNeg | BvAnd | BvOr | BvXor | BvAdd | BvSub | BvMul | BvUdiv | BvUrem
            | BvSdiv | BvSrem | BvSmod | BvShl | BvLshr | BvAshr | BvUlt | BvUle | BvUgt
            | BvUge | BvSlt | BvSle | BvSgt | BvSge | BvNand | BvNor | BvXnor | BvComp | Concat
            | Extract(..) | ZeroExtend(_) | SignExtend(_) | Repeat(_) | RotateLeft(_)
            | RotateRight(_) => self.bitvector(op, args, sort),
            Select | Store | ConstArray => self.array(op, args, sort),
            FpToReal | FpFromFields | ToFp(..) | ToFpUnsigned(..) | FpToUbv(_) | FpToSbv(_) => {
                self.float(op, args, sort)
            }
            FpAbs | FpNeg | FpAdd | FpSub | FpMul | FpDiv | FpFma | FpSqrt | FpRem
            | FpRoundToIntegral | FpMin | FpMax | FpLeq | FpLt | FpGeq | FpGt | FpEq | FpIsNaN
            | FpIsZero | FpIsInfinite | FpIsNormal | FpIsSubnormal | FpIsNegative
            | FpIsPositive => self.fp(op, args, sort),
            // Strings and regular expressions; also `real.pi` (cvc5 writes it in model
            // values), which nothing here evaluates: it is unknown.
            _ => self.string(op, args, sort),
        }
    }

    /// `not`, `and`, `or`, `xor` and `=>` in three-valued logic: `and` and `or` stop
    /// at the first argument that decides them.
    #[inline]
    fn connective(&mut self, op: Op, args: &[Term]) -> V {
        match op {
            Op::Not => V::Bool(self.truth(&args[0]).not()),
            Op::And | Op::Or => {
                let (stop, init) = if op == Op::And {
                    (Tri::F, Tri::T)
                } else {
                    (Tri::T, Tri::F)
                };
                let mut acc = init;
                for a in args {
                    let t = self.truth(a);
                    if t == stop {
                        return V::Bool(stop);
                    }
                    if t == Tri::U {
                        acc = Tri::U;
                    }
                }
                V::Bool(acc)
            }
            Op::Xor => {
                let mut acc = Tri::F;
                for a in args {
                    acc = acc.xor(self.truth(a));
                }
                V::Bool(acc)
            }
            Op::Implies => {
                // Right-associative: a => (b => c).
                let mut acc = self.truth(&args[args.len() - 1]);
                for a in args[..args.len() - 1].iter().rev() {
                    acc = self.truth(a).not().or(acc);
                }
                V::Bool(acc)
            }
            _ => unreachable!("not a connective: {op:?}"),
        }
    }

    /// `=` (chained) and `distinct` (pairwise), on values of any sort.
    #[inline]
    fn equality(&mut self, op: Op, args: &[Term]) -> V {
        let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
        let mut acc = Tri::T;
        if op == Op::Eq {
            for w in vals.windows(2) {
                acc = acc.and(self.equal(&w[0], &w[1]));
                if acc == Tri::F {
                    break;
                }
            }
        } else {
            for i in 0..vals.len() {
                for j in i + 1..vals.len() {
                    acc = acc.and(self.equal(&vals[i], &vals[j]).not());
                }
            }
        }
        V::Bool(acc)
    }

    /// `ite`: the branch the condition picks; under an unknown condition, the value
    /// both branches share, else an unknown number between them.
    #[inline]
    fn ite(&mut self, args: &[Term]) -> V {
        match self.truth(&args[0]) {
            Tri::T => self.eval(&args[1]),
            Tri::F => self.eval(&args[2]),
            Tri::U => {
                let (a, b) = (self.eval(&args[1]), self.eval(&args[2]));
                if self.equal(&a, &b) == Tri::T {
                    return a;
                }
                match (&a, &b) {
                    (V::Bool(_), _) => V::Bool(Tri::U),
                    (V::Num(x), V::Num(y)) => {
                        let hull = self.interval(x).hull(&self.interval(y));
                        V::Num(self.opaque(Op::Ite, &[x, y], hull))
                    }
                    _ => {
                        self.taint_value(&a, "ite");
                        self.taint_value(&b, "ite");
                        V::Unknown
                    }
                }
            }
        }
    }

    /// The chained numeric comparisons `<`, `<=`, `>`, `>=`.
    #[inline]
    fn comparison(&mut self, op: Op, args: &[Term]) -> V {
        let want: &[Ordering] = match op {
            Op::Lt => &[Ordering::Less],
            Op::Le => &[Ordering::Less, Ordering::Equal],
            Op::Gt => &[Ordering::Greater],
            _ => &[Ordering::Greater, Ordering::Equal],
        };
        let vals: Vec<Option<Lin>> = args.iter().map(|a| self.num(a)).collect();
        let mut acc = Tri::T;
        for w in vals.windows(2) {
            let t = match (&w[0], &w[1]) {
                (Some(a), Some(b)) => {
                    let d = a.sub(b);
                    self.compare(&d, want)
                }
                _ => Tri::U,
            };
            acc = acc.and(t);
            if acc == Tri::F {
                break;
            }
        }
        V::Bool(acc)
    }

    /// `(_ int2bv w)`: the integer modulo 2^w.
    #[inline]
    fn int2bv(&mut self, w: u32, args: &[Term]) -> V {
        match self.eval(&args[0]) {
            V::Num(l) => match l.as_const() {
                Some(n) => {
                    let m = BigInt::one() << w as usize;
                    let r = num_integer::Integer::mod_floor(&n.to_integer(), &m);
                    V::Bv(r.to_biguint().unwrap_or_default())
                }
                None => {
                    self.taint(&l, "int2bv");
                    V::Unknown
                }
            },
            _ => V::Unknown,
        }
    }

    /// A bit-vector operator: on known bits only (an unknown argument gives an unknown
    /// result).
    #[inline]
    fn bitvector(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        let width = match &args[0].sort {
            Sort::BitVec(w) => *w,
            _ => return V::Unknown,
        };
        let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
        let mut bits = Vec::with_capacity(vals.len());
        for v in vals {
            match v {
                V::Bv(b) => bits.push(b),
                _ => {
                    return if *sort == Sort::Bool {
                        V::Bool(Tri::U)
                    } else {
                        V::Unknown
                    }
                }
            }
        }
        let widths: Vec<u32> = args
            .iter()
            .map(|a| match a.sort {
                Sort::BitVec(w) => w,
                _ => 0,
            })
            .collect();
        bv_op(op, width, &widths, &bits)
    }

    /// `select`, `store` and constant arrays, on known indices and elements.
    #[inline]
    fn array(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        match op {
            Op::Select => {
                let arr = self.eval(&args[0]);
                let idx = self.eval(&args[1]);
                match (arr, idx.to_value(&args[1].sort)) {
                    (V::Array(a), Some(i)) => V::from_value(a.select(&i)),
                    (_, _) => {
                        self.taint_value(&idx, "select");
                        unknown_of(sort)
                    }
                }
            }
            Op::Store => {
                let arr = self.eval(&args[0]);
                let idx = self.eval(&args[1]);
                let val = self.eval(&args[2]);
                match (
                    arr,
                    idx.to_value(&args[1].sort),
                    val.to_value(&args[2].sort),
                ) {
                    (V::Array(a), Some(i), Some(v)) => V::Array(Arc::new(a.store(i, v))),
                    _ => {
                        self.taint_value(&idx, "store");
                        self.taint_value(&val, "store");
                        V::Unknown
                    }
                }
            }
            Op::ConstArray => {
                let v = self.eval(&args[0]);
                match v.to_value(&args[0].sort) {
                    Some(v) => V::Array(Arc::new(ArrayValue::constant(sort.clone(), v))),
                    None => {
                        self.taint_value(&v, "const");
                        V::Unknown
                    }
                }
            }
            _ => unreachable!("not an array operator: {op:?}"),
        }
    }

    /// Strings and regular expressions ([`strings::apply`]); an operator it does not
    /// know, or an unknown argument, gives an unknown of `sort`.
    #[inline]
    fn string(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
        match strings::apply(op, &vals) {
            Some(v) => v,
            None => {
                for v in &vals {
                    self.taint_value(v, op.name());
                }
                unknown_of(sort)
            }
        }
    }

    /// `=` on two values.
    pub fn equal(&mut self, a: &V, b: &V) -> Tri {
        match (a, b) {
            (V::Bool(x), V::Bool(y)) => match (x, y) {
                (Tri::U, _) | (_, Tri::U) => Tri::U,
                _ => Tri::from(x == y),
            },
            (V::Num(x), V::Num(y)) => self.compare(&x.sub(y), &[Ordering::Equal]),
            (V::Bv(x), V::Bv(y)) => Tri::from(x == y),
            (V::Fp(x), V::Fp(y)) => Tri::from(x == y),
            (V::Float(x), V::Float(y)) => Tri::from(x == y),
            (V::Rm(x), V::Rm(y)) => Tri::from(x == y),
            (V::Str(x), V::Str(y)) => Tri::from(x == y),
            (V::Array(x), V::Array(y)) => Tri::from(x.extensional_eq(y)),
            (V::Data(x), V::Data(y)) => Tri::from(x.smt_eq(y)),
            _ => {
                self.taint_value(a, "=");
                self.taint_value(b, "=");
                Tri::U
            }
        }
    }

    /// Whether the sign of `d` is one of `want`.
    fn compare(&mut self, d: &Lin, want: &[Ordering]) -> Tri {
        if let Some(c) = d.as_const() {
            return Tri::from(want.contains(&c.cmp(&BigRational::zero())));
        }
        if self.mentions(d).0 && !self.mentions(d).1 {
            return self.sign_query(d, want);
        }
        if self.as_alg_poly(d).is_some() {
            return match self.alg_sign(d) {
                Some(sign) => Tri::from(want.contains(&sign)),
                None => Tri::U,
            };
        }
        let all_trig = d
            .terms
            .iter()
            .all(|(s, _)| matches!(self.syms[*s as usize].kind, SymKind::Trig));
        let interval = self.interval(d);
        if let Some(sign) = interval.sign() {
            return Tri::from(want.contains(&sign));
        }
        // A rational combination of sin/cos at distinct positive rationals and 1 is
        // zero only if every coefficient is (Lindemann–Weierstrass): d ≠ 0.
        if all_trig {
            if want == [Ordering::Equal] {
                return Tri::F;
            }
            if !want.contains(&Ordering::Less) || !want.contains(&Ordering::Greater) {
                self.precision_limited = true;
                self.reason("a comparison of transcendental values needs more precision");
            }
            return Tri::U;
        }
        let (decision, fixed) = self.mentions(d);
        if !decision {
            self.precision_limited = true;
            self.reason("a comparison of values known only by bounds could not be decided");
            return Tri::U;
        }
        if fixed {
            self.open("a comparison of division-by-zero results with values known only by bounds");
            return Tri::U;
        }
        self.sign_query(d, want)
    }

    fn arith(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        use Op::*;
        if matches!(op, Bv2Nat | Sbv2Int) {
            return match (self.eval(&args[0]), &args[0].sort) {
                (V::Bv(b), Sort::BitVec(w)) if op == Sbv2Int => V::Num(Lin::int(signed(&b, *w))),
                (V::Bv(b), _) => V::Num(Lin::int(BigInt::from(b))),
                _ => V::Unknown,
            };
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            match self.eval(a) {
                V::Num(l) => vals.push(l),
                other => {
                    self.taint_value(&other, op.name());
                    return if *sort == Sort::Bool {
                        V::Bool(Tri::U)
                    } else {
                        V::Unknown
                    };
                }
            }
        }
        let lin = match op {
            Add => vals[1..].iter().fold(vals[0].clone(), |acc, v| acc.add(v)),
            Sub if vals.len() == 1 => vals[0].neg(),
            Sub => vals[1..].iter().fold(vals[0].clone(), |acc, v| acc.sub(v)),
            Mul => {
                let mut acc = vals[0].clone();
                let integer = *sort == Sort::Int;
                for v in &vals[1..] {
                    acc = self.mul(&acc, v, integer);
                }
                acc
            }
            RealDiv => {
                let mut acc = vals[0].clone();
                for v in &vals[1..] {
                    acc = self.real_div(&acc, v);
                }
                acc
            }
            IntDiv => {
                let mut acc = vals[0].clone();
                for v in &vals[1..] {
                    acc = self.int_div(IntDiv, &acc, v);
                }
                acc
            }
            Mod => self.int_div(Mod, &vals[0], &vals[1]),
            Abs => match vals[0].as_const() {
                Some(c) => Lin::constant(c.abs()),
                None if self.mentions(&vals[0]) == (true, false) => {
                    if self.sign_query(&vals[0], &[Ordering::Less]) == Tri::T {
                        vals[0].neg()
                    } else {
                        vals[0].clone()
                    }
                }
                None => match self.alg_sign(&vals[0]).or(self.interval(&vals[0]).sign()) {
                    Some(Ordering::Less) => vals[0].neg(),
                    Some(_) => vals[0].clone(),
                    None => {
                        let i = self.interval(&vals[0]).abs();
                        self.opaque(Abs, &[&vals[0]], i)
                    }
                },
            },
            ToReal => vals[0].clone(),
            ToInt => self.floor(&vals[0]),
            IsInt => return V::Bool(self.is_int(&vals[0])),
            Divisible(n) => {
                // n divides x iff x mod n = 0 (exact for unknowns too: mod by a
                // constant is a linear fact).
                let n = Lin::int(BigInt::from(n));
                let r = self.int_div(Mod, &vals[0], &n);
                return V::Bool(self.compare(&r, &[Ordering::Equal]));
            }
            Sin | Cos | Tan => return self.trig(op, &vals[0]),
            _ => unreachable!("not arithmetic: {op:?}"),
        };
        V::Num(lin)
    }

    fn mul(&mut self, a: &Lin, b: &Lin, integer: bool) -> Lin {
        if let (None, None, Some((v, pa)), Some((w, pb))) = (
            a.as_const(),
            b.as_const(),
            self.as_alg_poly(a),
            self.as_alg_poly(b),
        ) {
            if v == w {
                if let Some(alpha) = self.algebraic(v) {
                    let product = pa.mul(&pb).rem(&alpha.poly);
                    return self.alg_poly_lin(v, &product);
                }
            }
        }
        match (a.as_const(), b.as_const()) {
            (Some(k), _) => b.scale(k),
            (_, Some(k)) => a.scale(k),
            _ => match (self.mentions(a), self.mentions(b)) {
                ((true, false), (true, false)) | ((true, false), (false, false)) => {
                    self.relaxed(Relaxed::Mul(a.clone(), b.clone()), integer)
                }
                ((false, false), (true, false)) => {
                    self.relaxed(Relaxed::Mul(a.clone(), b.clone()), integer)
                }
                _ => {
                    let i = self.interval(a).mul(&self.interval(b));
                    self.opaque(Op::Mul, &[a, b], i)
                }
            },
        }
    }

    /// A relaxed unknown for a dependency that is not linear (the search checks it
    /// when it certifies a solution); a product of a form with itself is not negative.
    fn relaxed(&mut self, relaxed: Relaxed, integer: bool) -> Lin {
        let square = matches!(&relaxed, Relaxed::Mul(a, b) if a == b);
        let key = match &relaxed {
            Relaxed::Mul(a, b) => SymKey::Opaque(Op::Mul, vec![a.clone(), b.clone()]),
            Relaxed::RealDiv(a, b) => SymKey::Opaque(Op::RealDiv, vec![a.clone(), b.clone()]),
            Relaxed::IntDiv(a, b) => SymKey::Opaque(Op::IntDiv, vec![a.clone(), b.clone()]),
            Relaxed::Mod(a, b) => SymKey::Opaque(Op::Mod, vec![a.clone(), b.clone()]),
        };
        let (id, new) = self.aux(key, integer, Some(relaxed));
        if new && square {
            self.constrain([Constraint {
                lin: Lin::symbol(id).neg(),
                rel: Rel::Le,
            }]);
        }
        Lin::symbol(id)
    }

    fn real_div(&mut self, a: &Lin, b: &Lin) -> Lin {
        match b.as_const() {
            Some(k) if k.is_zero() => self.division_by_zero(DivOp::Real, a),
            Some(k) => a.scale(&k.recip()),
            None if self.mentions(b) == (true, false) && !self.mentions(a).1 => {
                if self.sign_query(b, &[Ordering::Equal]) == Tri::T {
                    self.division_by_zero(DivOp::Real, a)
                } else {
                    self.relaxed(Relaxed::RealDiv(a.clone(), b.clone()), false)
                }
            }
            None => {
                let i = self.interval(b);
                match self.interval(a).div(&i) {
                    Some(q) => self.opaque(Op::RealDiv, &[a, b], q),
                    None => self.opaque(Op::RealDiv, &[a, b], Interval::whole()),
                }
            }
        }
    }

    fn int_div(&mut self, op: Op, a: &Lin, b: &Lin) -> Lin {
        let div_op = if op == Op::IntDiv {
            DivOp::Int
        } else {
            DivOp::Mod
        };
        match (a.as_const(), b.as_const()) {
            (_, Some(y)) if y.is_zero() => self.division_by_zero(div_op, a),
            (Some(x), Some(y)) => {
                let (x, y) = (x.to_integer(), y.to_integer());
                Lin::int(if op == Op::IntDiv {
                    x.div_euclid(&y)
                } else {
                    x.rem_euclid(&y)
                })
            }
            (None, Some(y)) if self.mentions(a) == (true, false) => {
                // a = y·q + r with 0 ≤ r ≤ |y| − 1: q and r are exact linear facts.
                let (q, new) = self.aux(
                    SymKey::Opaque(Op::IntDiv, vec![a.clone(), b.clone()]),
                    true,
                    None,
                );
                let r = a.sub(&Lin::symbol(q).scale(y));
                if new {
                    let top = Lin::constant(y.abs() - BigRational::one());
                    self.constrain([
                        Constraint {
                            lin: r.neg(),
                            rel: Rel::Le,
                        },
                        Constraint {
                            lin: r.sub(&top),
                            rel: Rel::Le,
                        },
                    ]);
                }
                if op == Op::IntDiv {
                    Lin::symbol(q)
                } else {
                    r
                }
            }
            (None, Some(y)) => {
                let y = y.to_integer();
                let ia = self.interval(a);
                if op == Op::Mod {
                    let top = BigRational::from_integer(y.abs() - 1);
                    return self.opaque(op, &[a, b], Interval::new(BigRational::zero(), top));
                }
                // Euclidean division by a positive y is floor(a/y); by a negative one,
                // −floor(a/−y).
                let yq = BigRational::from_integer(y.abs());
                let mut q = ia.scale(&yq.recip()).floor();
                if y.is_negative() {
                    q = q.neg();
                }
                if let (Some(lo), Some(hi)) = (&q.lo, &q.hi) {
                    if lo == hi {
                        return Lin::constant(lo.clone());
                    }
                }
                self.opaque(op, &[a, b], q)
            }
            _ if self.mentions(b) == (true, false) && !self.mentions(a).1 => {
                if self.sign_query(b, &[Ordering::Equal]) == Tri::T {
                    self.division_by_zero(div_op, a)
                } else if op == Op::IntDiv {
                    self.relaxed(Relaxed::IntDiv(a.clone(), b.clone()), true)
                } else {
                    self.relaxed(Relaxed::Mod(a.clone(), b.clone()), true)
                }
            }
            _ => self.opaque(op, &[a, b], Interval::whole()),
        }
    }

    fn floor(&mut self, a: &Lin) -> Lin {
        if let Some(c) = a.as_const() {
            return Lin::constant(c.floor());
        }
        if self.integral(a) {
            return a.clone();
        }
        if self.mentions(a) == (true, false) {
            // q ≤ a < q + 1.
            let (q, new) = self.aux(SymKey::Opaque(Op::ToInt, vec![a.clone()]), true, None);
            if new {
                let d = a.sub(&Lin::symbol(q));
                self.constrain([
                    Constraint {
                        lin: d.neg(),
                        rel: Rel::Le,
                    },
                    Constraint {
                        lin: d.sub(&Lin::constant(BigRational::one())),
                        rel: Rel::Lt,
                    },
                ]);
            }
            return Lin::symbol(q);
        }
        if self.as_alg_poly(a).is_some() {
            if let Some(n) = self.alg_floor(a) {
                return Lin::constant(n);
            }
        }
        let i = self.interval(a).floor();
        if let (Some(lo), Some(hi)) = (&i.lo, &i.hi) {
            if lo == hi {
                return Lin::constant(lo.clone());
            }
        }
        self.opaque(Op::ToInt, &[a], i)
    }

    /// ⌊e(α)⌋ exactly: the integer n with e(α) − n ≥ 0 > e(α) − n − 1, searched from
    /// the enclosure's lower end.
    fn alg_floor(&mut self, a: &Lin) -> Option<BigRational> {
        let i = self.interval(a);
        let (lo, hi) = (i.lo?.floor(), i.hi?.floor());
        let mut n = lo;
        while n <= hi {
            let above = self.alg_sign(&a.sub(&Lin::constant(n.clone())))?;
            let below = self.alg_sign(&a.sub(&Lin::constant(&n + BigRational::one())))?;
            if above != Ordering::Less && below == Ordering::Less {
                return Some(n);
            }
            n += BigRational::one();
        }
        None
    }

    fn is_int(&mut self, a: &Lin) -> Tri {
        if let Some(c) = a.as_const() {
            return Tri::from(c.is_integer());
        }
        if self.integral(a) {
            return Tri::T;
        }
        if self.mentions(a) == (true, false) {
            let q = self.floor(a);
            return self.sign_query(&a.sub(&q), &[Ordering::Equal]);
        }
        if self.as_alg_poly(a).is_some() {
            if let Some(n) = self.alg_floor(a) {
                return Tri::from(
                    self.alg_sign(&a.sub(&Lin::constant(n))) == Some(Ordering::Equal),
                );
            }
        }
        // A non-trivial combination of sin/cos values is transcendental, never an integer.
        if a.terms
            .iter()
            .all(|(s, _)| matches!(self.syms[*s as usize].kind, SymKind::Trig))
        {
            return Tri::F;
        }
        let i = self.interval(a);
        if let (Some(lo), Some(hi)) = (&i.lo, &i.hi) {
            if lo.floor() == hi.floor() && !lo.is_integer() {
                return Tri::F;
            }
        }
        self.taint(a, "is_int");
        Tri::U
    }

    fn trig(&mut self, op: Op, x: &Lin) -> V {
        let prec = self.prec;
        if let Some(q) = x.as_const() {
            if q.is_zero() {
                return V::Num(Lin::constant(if op == Op::Cos {
                    BigRational::one()
                } else {
                    BigRational::zero()
                }));
            }
            // sin(−q) = −sin(q), cos(−q) = cos(q), tan(−q) = −tan(q): one symbol per |q|.
            let (arg, sign) = if q.is_negative() && op != Op::Cos {
                (-q, -BigRational::one())
            } else {
                (q.abs(), BigRational::one())
            };
            let point = Interval::point(arg.clone());
            let interval = match op {
                Op::Sin => Some(interval::sin(&point, prec)),
                Op::Cos => Some(interval::cos(&point, prec)),
                _ => interval::tan(&point, prec),
            };
            let Some(interval) = interval else {
                self.precision_limited = true;
                self.reason("tan too close to a pole for the precision");
                return V::Num(self.opaque(op, &[x], Interval::whole()));
            };
            let kind = if op == Op::Tan {
                SymKind::Opaque
            } else {
                SymKind::Trig
            };
            let id = self.symbol(SymKey::Trig(op, arg), |_| Sym { kind, interval });
            return V::Num(Lin::symbol(id).scale(&sign));
        }
        let ix = self.interval(x);
        let interval = match op {
            Op::Sin => interval::sin(&ix, prec),
            Op::Cos => interval::cos(&ix, prec),
            _ => match interval::tan(&ix, prec) {
                Some(i) => i,
                None => {
                    self.reason("tan of a value that may be a pole");
                    Interval::whole()
                }
            },
        };
        V::Num(self.opaque(op, &[x], interval))
    }

    /// Floating-point operators on any format (binary64 values are converted), and
    /// the conversions `to_fp`, `to_fp_unsigned`, `fp.to_ubv`, `fp.to_sbv`,
    /// `fp.to_real`, `fp`. Results SMT-LIB leaves unspecified (`fp.to_real` of ±∞ and
    /// NaN, `fp.to_ubv`/`fp.to_sbv` out of range) are chosen like division by zero.
    fn float(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        use Op::*;
        let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
        let mut xs: Vec<Fp> = Vec::new();
        let mut rm = None;
        let mut num = None;
        let mut bvs: Vec<(BigUint, u32)> = Vec::new();
        for (v, a) in vals.iter().zip(args) {
            match v {
                V::Fp(x) => xs.push(Fp::from_float64(*x)),
                V::Float(x) => xs.push(x.clone()),
                V::Rm(r) => rm = Some(*r),
                V::Num(l) => match l.as_const() {
                    Some(q) => num = Some(q.clone()),
                    None => {
                        self.taint(l, op.name());
                        return unknown_of(sort);
                    }
                },
                V::Bv(b) => match a.sort {
                    Sort::BitVec(w) => bvs.push((b.clone(), w)),
                    _ => return unknown_of(sort),
                },
                _ => return unknown_of(sort),
            }
        }
        let rm = rm.unwrap_or(crate::fp::RoundingMode::Rne);
        let format = sort.fp_format();
        let wrap = |x: Fp| V::from_value(&Value::float(x));
        let chain =
            |f: fn(&Fp, &Fp) -> bool| V::Bool(Tri::from(xs.windows(2).all(|w| f(&w[0], &w[1]))));
        match op {
            ToFp(eb, sb) | ToFpUnsigned(eb, sb) => {
                if let Some(q) = num {
                    return wrap(Fp::from_rational(eb, sb, &q, rm));
                }
                if let Some(x) = xs.first() {
                    return wrap(x.convert(eb, sb, rm));
                }
                let Some((b, w)) = bvs.first() else {
                    return V::Unknown;
                };
                if args.len() == 1 {
                    return wrap(Fp::from_bits(eb, sb, b.clone()));
                }
                let mut n = BigInt::from(b.clone());
                if op != ToFpUnsigned(eb, sb) && b.bit(u64::from(*w) - 1) {
                    n -= BigInt::one() << *w as usize;
                }
                wrap(Fp::from_rational(eb, sb, &BigRational::from_integer(n), rm))
            }
            FpFromFields => match bvs.as_slice() {
                [(s, 1), (e, eb), (m, mb)] => wrap(Fp::from_fields(*eb, mb + 1, s, e, m)),
                _ => V::Unknown,
            },
            FpToReal => {
                let x = &xs[0];
                match x.to_rational() {
                    Some(q) => V::Num(Lin::constant(q)),
                    None => {
                        let code = if x.is_nan() {
                            0
                        } else if x.is_negative() {
                            -1
                        } else {
                            1
                        };
                        let dividend = Lin::constant(BigRational::from_integer(BigInt::from(code)));
                        V::Num(self.division_by_zero(DivOp::FpToReal(x.eb, x.sb), &dividend))
                    }
                }
            }
            FpToUbv(w) | FpToSbv(w) => {
                let signed = matches!(op, FpToSbv(_));
                let x = &xs[0];
                if let Some(n) = x.to_integer(rm) {
                    let (lo, hi) = if signed {
                        (
                            -(BigInt::one() << (w - 1) as usize),
                            BigInt::one() << (w - 1) as usize,
                        )
                    } else {
                        (BigInt::zero(), BigInt::one() << w as usize)
                    };
                    if n >= lo && n < hi {
                        let m = BigInt::one() << w as usize;
                        let bits = num_integer::Integer::mod_floor(&n, &m);
                        return V::Bv(bits.to_biguint().unwrap_or_default());
                    }
                }
                // Out of range: unspecified, the same for the same (rm, x).
                let key = ChoiceKey::FpToBv(signed, w, rm, x.clone());
                if w <= MAX_PICKED_BV_WIDTH {
                    self.pick(key, (0, 0), 1usize << w)
                } else if let Some(v) = self.chosen.get(&key) {
                    V::from_value(v)
                } else {
                    self.open(format!(
                        "{} is unspecified and wider than {MAX_PICKED_BV_WIDTH} bits, too many values to try",
                        key.describe()
                    ));
                    V::Unknown
                }
            }
            FpAbs => wrap(xs[0].abs()),
            FpNeg => wrap(xs[0].neg()),
            FpAdd => wrap(xs[0].add(&xs[1], rm)),
            FpSub => wrap(xs[0].sub(&xs[1], rm)),
            FpMul => wrap(xs[0].mul(&xs[1], rm)),
            FpDiv => wrap(xs[0].div(&xs[1], rm)),
            FpFma => wrap(xs[0].fma(&xs[1], &xs[2], rm)),
            FpSqrt => wrap(xs[0].sqrt(rm)),
            FpRem => wrap(xs[0].rem(&xs[1])),
            FpRoundToIntegral => wrap(xs[0].round_to_integral(rm)),
            FpMin | FpMax => match xs[0].extremum(&xs[1], op == FpMax) {
                GenericExtremum::Value(x) => wrap(x),
                GenericExtremum::EitherZero => {
                    let key = ChoiceKey::FloatExtremum(op == FpMax, xs[0].clone(), xs[1].clone());
                    self.pick(key, format.unwrap_or((11, 53)), 2)
                }
            },
            FpLeq => chain(Fp::leq),
            FpLt => chain(Fp::lt),
            FpGeq => chain(|a, b| b.leq(a)),
            FpGt => chain(|a, b| b.lt(a)),
            FpEq => chain(Fp::fp_eq),
            FpIsNaN => V::Bool(Tri::from(xs[0].is_nan())),
            FpIsZero => V::Bool(Tri::from(xs[0].is_zero())),
            FpIsInfinite => V::Bool(Tri::from(xs[0].is_infinite())),
            FpIsNormal => V::Bool(Tri::from(xs[0].is_normal())),
            FpIsSubnormal => V::Bool(Tri::from(xs[0].is_subnormal())),
            FpIsNegative => V::Bool(Tri::from(xs[0].is_negative())),
            FpIsPositive => V::Bool(Tri::from(xs[0].is_positive())),
            _ => unreachable!("not floating point: {op:?}"),
        }
    }

    fn fp(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        use Op::*;
        if args.iter().any(|a| matches!(a.sort, Sort::Float(..))) {
            return self.float(op, args, sort);
        }
        let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
        let mut xs: Vec<Float64> = Vec::new();
        let mut rm = None;
        for v in &vals {
            match v {
                V::Fp(x) => xs.push(*x),
                V::Rm(r) => rm = Some(*r),
                _ => {
                    return if *sort == Sort::Bool {
                        V::Bool(Tri::U)
                    } else {
                        V::Unknown
                    }
                }
            }
        }
        let rm = rm.unwrap_or(crate::fp::RoundingMode::Rne);
        let chain = |f: fn(Float64, Float64) -> bool| {
            let mut ok = true;
            for w in xs.windows(2) {
                ok &= f(w[0], w[1]);
            }
            V::Bool(Tri::from(ok))
        };
        match op {
            FpAbs => V::Fp(xs[0].abs()),
            FpNeg => V::Fp(-xs[0]),
            FpAdd => V::Fp(xs[0].add(xs[1], rm)),
            FpSub => V::Fp(xs[0].sub(xs[1], rm)),
            FpMul => V::Fp(xs[0].mul(xs[1], rm)),
            FpDiv => V::Fp(xs[0].div(xs[1], rm)),
            FpFma => V::Fp(xs[0].fma(xs[1], xs[2], rm)),
            FpSqrt => V::Fp(xs[0].sqrt(rm)),
            FpRem => V::Fp(xs[0].remainder(xs[1])),
            FpRoundToIntegral => V::Fp(xs[0].round_to_integral(rm)),
            FpMin | FpMax => {
                let r = if op == FpMin {
                    xs[0].min(xs[1])
                } else {
                    xs[0].max(xs[1])
                };
                match r {
                    Extremum::Value(x) => V::Fp(x),
                    Extremum::EitherZero => {
                        let (a, b) = (xs[0].to_bits(), xs[1].to_bits());
                        let key = if op == FpMin {
                            ChoiceKey::FpMin(a, b)
                        } else {
                            ChoiceKey::FpMax(a, b)
                        };
                        self.fp_zero(key)
                    }
                }
            }
            FpLeq => chain(Float64::leq),
            FpLt => chain(Float64::lt),
            FpGeq => chain(Float64::geq),
            FpGt => chain(Float64::gt),
            FpEq => chain(Float64::fp_eq),
            FpIsNaN => V::Bool(Tri::from(xs[0].is_nan())),
            FpIsZero => V::Bool(Tri::from(xs[0].is_zero())),
            FpIsInfinite => V::Bool(Tri::from(xs[0].is_infinite())),
            FpIsNormal => V::Bool(Tri::from(xs[0].is_normal())),
            FpIsSubnormal => V::Bool(Tri::from(xs[0].is_subnormal())),
            FpIsNegative => V::Bool(Tri::from(xs[0].is_negative())),
            FpIsPositive => V::Bool(Tri::from(xs[0].is_positive())),
            _ => unreachable!("not floating point: {op:?}"),
        }
    }
}

fn has_var(t: &Term) -> bool {
    let mut found = false;
    t.for_each_var(&mut |_| found = true);
    found
}

pub(super) fn unknown_of(sort: &Sort) -> V {
    if *sort == Sort::Bool {
        V::Bool(Tri::U)
    } else {
        V::Unknown
    }
}

/// The two's-complement value of a `width`-bit vector.
fn signed(bits: &BigUint, width: u32) -> BigInt {
    if bits.bit(u64::from(width) - 1) {
        BigInt::from(bits.clone()) - (BigInt::one() << width as usize)
    } else {
        BigInt::from(bits.clone())
    }
}

/// The bit-vector operators, SMT-LIB semantics (division by zero included): `width`
/// is the first argument's, `widths` every argument's.
fn bv_op(op: Op, width: u32, widths: &[u32], b: &[BigUint]) -> V {
    use Op::*;
    let mask = bv_mask_big(width);
    let modulus = &mask + BigUint::one();
    let fold = |f: fn(&BigUint, &BigUint) -> BigUint| {
        V::Bv(
            b[1..]
                .iter()
                .fold(b[0].clone(), |acc, x| f(&acc, x) % &modulus),
        )
    };
    let udiv = |x: &BigUint, y: &BigUint| {
        if y.is_zero() {
            mask.clone()
        } else {
            x / y
        }
    };
    let urem = |x: &BigUint, y: &BigUint| if y.is_zero() { x.clone() } else { x % y };
    let neg = |x: &BigUint| (&modulus - x) % &modulus;
    let msb = |x: &BigUint| x.bit(u64::from(width) - 1);
    let cmp = |r: bool| V::Bool(Tri::from(r));
    let shift = |x: &BigUint| -> Option<usize> {
        (x < &BigUint::from(width)).then(|| x.iter_u64_digits().next().unwrap_or(0) as usize)
    };
    match op {
        BvNot => V::Bv(&mask ^ &b[0]),
        BvNeg => V::Bv(neg(&b[0])),
        BvAnd => fold(|x, y| x & y),
        BvOr => fold(|x, y| x | y),
        BvXor => fold(|x, y| x ^ y),
        BvNand => V::Bv(&mask ^ (&b[0] & &b[1])),
        BvNor => V::Bv(&mask ^ (&b[0] | &b[1])),
        BvXnor => V::Bv(&mask ^ (&b[0] ^ &b[1])),
        BvComp => V::Bv(BigUint::from(u8::from(b[0] == b[1]))),
        BvAdd => fold(|x, y| x + y),
        BvSub => V::Bv((&b[0] + &modulus - &b[1]) % &modulus),
        BvMul => fold(|x, y| x * y),
        BvUdiv => V::Bv(udiv(&b[0], &b[1])),
        BvUrem => V::Bv(urem(&b[0], &b[1])),
        BvSdiv => {
            let (s, t) = (&b[0], &b[1]);
            V::Bv(match (msb(s), msb(t)) {
                (false, false) => udiv(s, t),
                (true, false) => neg(&udiv(&neg(s), t)),
                (false, true) => neg(&udiv(s, &neg(t))),
                (true, true) => udiv(&neg(s), &neg(t)),
            })
        }
        BvSrem => {
            let (s, t) = (&b[0], &b[1]);
            V::Bv(match (msb(s), msb(t)) {
                (false, false) => urem(s, t),
                (true, false) => neg(&urem(&neg(s), t)),
                (false, true) => urem(s, &neg(t)),
                (true, true) => neg(&urem(&neg(s), &neg(t))),
            })
        }
        BvSmod => {
            let (s, t) = (&b[0], &b[1]);
            let abs_s = if msb(s) { neg(s) } else { s.clone() };
            let abs_t = if msb(t) { neg(t) } else { t.clone() };
            let u = urem(&abs_s, &abs_t);
            V::Bv(if u.is_zero() {
                u
            } else {
                match (msb(s), msb(t)) {
                    (false, false) => u,
                    (true, false) => (neg(&u) + t) % &modulus,
                    (false, true) => (u + t) % &modulus,
                    (true, true) => neg(&u),
                }
            })
        }
        BvShl => V::Bv(match shift(&b[1]) {
            Some(k) => (&b[0] << k) % &modulus,
            None => BigUint::zero(),
        }),
        BvLshr => V::Bv(match shift(&b[1]) {
            Some(k) => &b[0] >> k,
            None => BigUint::zero(),
        }),
        BvAshr => {
            let k = shift(&b[1]).unwrap_or(width as usize);
            let r = signed(&b[0], width) >> k;
            V::Bv(
                num_integer::Integer::mod_floor(&r, &BigInt::from(modulus.clone()))
                    .to_biguint()
                    .unwrap_or_default(),
            )
        }
        BvUlt => cmp(b[0] < b[1]),
        BvUle => cmp(b[0] <= b[1]),
        BvUgt => cmp(b[0] > b[1]),
        BvUge => cmp(b[0] >= b[1]),
        BvSlt => cmp(signed(&b[0], width) < signed(&b[1], width)),
        BvSle => cmp(signed(&b[0], width) <= signed(&b[1], width)),
        BvSgt => cmp(signed(&b[0], width) > signed(&b[1], width)),
        BvSge => cmp(signed(&b[0], width) >= signed(&b[1], width)),
        Concat => {
            let mut acc = BigUint::zero();
            for (x, w) in b.iter().zip(widths) {
                acc = (acc << *w as usize) | x;
            }
            V::Bv(acc)
        }
        Extract(i, j) => V::Bv((&b[0] >> j as usize) & bv_mask_big(i - j + 1)),
        ZeroExtend(_) => V::Bv(b[0].clone()),
        SignExtend(k) => V::Bv(if msb(&b[0]) {
            &b[0] | (bv_mask_big(width + k) ^ &mask)
        } else {
            b[0].clone()
        }),
        Repeat(k) => {
            let mut acc = BigUint::zero();
            for _ in 0..k {
                acc = (acc << width as usize) | &b[0];
            }
            V::Bv(acc)
        }
        RotateLeft(k) | RotateRight(k) => {
            let k = (k % width) as usize;
            let k = if matches!(op, RotateRight(_)) {
                (width as usize - k) % width as usize
            } else {
                k
            };
            let x = &b[0];
            V::Bv(((x << k) | (x >> (width as usize - k))) & &mask)
        }
        _ => unreachable!("not a bit-vector operator: {op:?}"),
    }
}
