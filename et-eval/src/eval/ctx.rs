//! One evaluation of a formula under an assignment and a fixed set of choices for the
//! unspecified results: the term walk, with every operator's semantics.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Euclid, One, Signed, Zero};

use super::domain::{ChoiceKey, Lin, Sym, SymId, SymKind, Tri, V};
use super::strings;
use super::{Assignment, Binding, Function};
use crate::fp::{Extremum, Float64};
use crate::interval::{self, Interval};
use crate::sort::Sort;
use crate::term::{Op, Term, TermKind};
use crate::value::{bv_mask, ArrayValue, Value};

/// Key of a symbol, so equal sub-terms get the same symbol.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum SymKey {
    Choice(ChoiceKey),
    Trig(Op, BigRational),
    Opaque(Op, Vec<Lin>),
    Binding(usize),
}

/// The state of one evaluation.
pub struct Ctx<'a> {
    assignment: &'a Assignment,
    /// Values chosen for unspecified results (by the search).
    chosen: &'a HashMap<ChoiceKey, Value>,
    /// Precision of transcendental enclosures, in bits.
    prec: u64,
    pub syms: Vec<Sym>,
    keys: HashMap<SymKey, SymId>,
    /// Choice symbols in the order first met.
    pub choices: Vec<SymId>,
    /// Choice symbols used other than in a comparison linear in that symbol alone:
    /// trying their critical points is not exhaustive.
    pub dirty: Vec<SymId>,
    /// Critical points of clean choice symbols (where a comparison changes value).
    pub critical: HashMap<SymId, Vec<BigRational>>,
    /// A comparison was undecided only for want of precision.
    pub precision_limited: bool,
    /// Why something was undetermined (first reasons only).
    pub reasons: Vec<String>,
}

const MAX_REASONS: usize = 4;

impl<'a> Ctx<'a> {
    pub fn new(
        assignment: &'a Assignment,
        chosen: &'a HashMap<ChoiceKey, Value>,
        prec: u64,
    ) -> Ctx<'a> {
        Ctx {
            assignment,
            chosen,
            prec,
            syms: Vec::new(),
            keys: HashMap::new(),
            choices: Vec::new(),
            dirty: Vec::new(),
            critical: HashMap::new(),
            precision_limited: false,
            reasons: Vec::new(),
        }
    }

    fn reason(&mut self, why: impl Into<String>) {
        let why = why.into();
        if self.reasons.len() < MAX_REASONS && !self.reasons.contains(&why) {
            self.reasons.push(why);
        }
    }

    fn symbol(&mut self, key: SymKey, make: impl FnOnce(&mut Self) -> Sym) -> SymId {
        if let Some(&id) = self.keys.get(&key) {
            return id;
        }
        let sym = make(self);
        let id = self.syms.len() as SymId;
        if matches!(sym.kind, SymKind::Choice(_)) {
            self.choices.push(id);
        }
        self.syms.push(sym);
        self.keys.insert(key, id);
        id
    }

    fn opaque(&mut self, op: Op, args: &[&Lin], interval: Interval) -> Lin {
        for a in args {
            self.taint(a);
        }
        let key = SymKey::Opaque(op, args.iter().map(|a| (*a).clone()).collect());
        Lin::symbol(self.symbol(key, |_| Sym {
            kind: SymKind::Opaque,
            interval,
        }))
    }

    /// Marks the choice symbols of `lin` as used in a way their critical points do not
    /// cover.
    fn taint(&mut self, lin: &Lin) {
        for (s, _) in &lin.terms {
            if matches!(self.syms[*s as usize].kind, SymKind::Choice(_)) && !self.dirty.contains(s)
            {
                self.dirty.push(*s);
            }
        }
    }

    fn taint_value(&mut self, v: &V) {
        if let V::Num(l) = v {
            self.taint(l);
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

    /// The result of an unspecified application: the search's choice, the model's
    /// interpretation, or a fresh choice symbol.
    fn choice(&mut self, key: ChoiceKey) -> V {
        if let Some(v) = self.chosen.get(&key) {
            return V::from_value(v);
        }
        let (function, args): (Option<&Function>, Vec<Value>) = match &key {
            ChoiceKey::IntDiv(n) => (
                self.assignment.division_by_zero.int_div.as_ref(),
                vec![Value::Int(n.clone()), Value::Int(BigInt::zero())],
            ),
            ChoiceKey::IntMod(n) => (
                self.assignment.division_by_zero.int_mod.as_ref(),
                vec![Value::Int(n.clone()), Value::Int(BigInt::zero())],
            ),
            ChoiceKey::RealDiv(q) => (
                self.assignment.division_by_zero.real_div.as_ref(),
                vec![Value::Real(q.clone()), Value::Real(BigRational::zero())],
            ),
            _ => (None, Vec::new()),
        };
        if let Some(function) = function {
            // z3's functions take the dividend and the zero divisor; a one-parameter
            // definition takes the dividend alone.
            let args = &args[..function.params.len().min(args.len())];
            match function.apply(args) {
                Some(v) => return V::from_value(&v),
                None => {
                    self.reason(format!(
                        "the model's definition of {} cannot be evaluated",
                        key.describe()
                    ));
                    return V::Unknown;
                }
            }
        }
        if matches!(key, ChoiceKey::FpMin(..) | ChoiceKey::FpMax(..)) {
            // Not a number: the search tries both zeros.
            self.symbol(SymKey::Choice(key.clone()), |_| Sym {
                kind: SymKind::Choice(key.clone()),
                interval: Interval::whole(),
            });
            return V::Unknown;
        }
        let id = self.symbol(SymKey::Choice(key.clone()), |_| Sym {
            kind: SymKind::Choice(key.clone()),
            interval: Interval::whole(),
        });
        V::Num(Lin::symbol(id))
    }

    pub fn eval(&mut self, term: &Term) -> V {
        match &term.kind {
            TermKind::Lit(v) => V::from_value(v),
            TermKind::ReConst(c) => V::Re(strings::re_const(*c)),
            TermKind::Var(i, name) => match self.assignment.values.get(*i) {
                Some(Binding::Value(v)) => V::from_value(v),
                // Closed by construction: no recursion through constants.
                Some(Binding::Term(t)) if !has_var(t) => self.eval(t),
                Some(Binding::Term(_)) => {
                    self.reason(format!("{name}: a value that mentions constants"));
                    unknown_of(&term.sort)
                }
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

    fn app(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        use Op::*;
        match op {
            Not => V::Bool(self.truth(&args[0]).not()),
            And | Or => {
                let (stop, init) = if op == And {
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
            Xor => {
                let mut acc = Tri::F;
                for a in args {
                    acc = acc.xor(self.truth(a));
                }
                V::Bool(acc)
            }
            Implies => {
                // Right-associative: a => (b => c).
                let mut acc = self.truth(&args[args.len() - 1]);
                for a in args[..args.len() - 1].iter().rev() {
                    acc = self.truth(a).not().or(acc);
                }
                V::Bool(acc)
            }
            Eq => {
                let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
                let mut acc = Tri::T;
                for w in vals.windows(2) {
                    acc = acc.and(self.equal(&w[0], &w[1]));
                    if acc == Tri::F {
                        break;
                    }
                }
                V::Bool(acc)
            }
            Distinct => {
                let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
                let mut acc = Tri::T;
                for i in 0..vals.len() {
                    for j in i + 1..vals.len() {
                        acc = acc.and(self.equal(&vals[i], &vals[j]).not());
                    }
                }
                V::Bool(acc)
            }
            Ite => match self.truth(&args[0]) {
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
                            V::Num(self.opaque(Ite, &[x, y], hull))
                        }
                        _ => {
                            self.taint_value(&a);
                            self.taint_value(&b);
                            V::Unknown
                        }
                    }
                }
            },
            Lt | Le | Gt | Ge => {
                let vals: Vec<Option<Lin>> = args.iter().map(|a| self.num(a)).collect();
                let mut acc = Tri::T;
                for w in vals.windows(2) {
                    let t = match (&w[0], &w[1]) {
                        (Some(a), Some(b)) => {
                            let d = a.sub(b);
                            let want: &[Ordering] = match op {
                                Lt => &[Ordering::Less],
                                Le => &[Ordering::Less, Ordering::Equal],
                                Gt => &[Ordering::Greater],
                                _ => &[Ordering::Greater, Ordering::Equal],
                            };
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
            Add | Sub | Mul | RealDiv | IntDiv | Mod | Abs | ToReal | ToInt | IsInt | Sin | Cos
            | Tan | Bv2Nat => self.arith(op, args, sort),
            BvNot | BvNeg | BvAnd | BvOr | BvXor | BvAdd | BvSub | BvMul | BvUdiv | BvUrem
            | BvSdiv | BvSrem | BvSmod | BvShl | BvLshr | BvAshr | BvUlt | BvUle | BvUgt
            | BvUge | BvSlt | BvSle | BvSgt | BvSge => {
                let width = match &args[0].sort {
                    Sort::BitVec(w) => *w,
                    _ => return V::Unknown,
                };
                let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
                let mut bits = Vec::with_capacity(vals.len());
                for v in &vals {
                    match v {
                        V::Bv(b) => bits.push(*b),
                        _ => {
                            return if *sort == Sort::Bool {
                                V::Bool(Tri::U)
                            } else {
                                V::Unknown
                            }
                        }
                    }
                }
                bv_op(op, width, &bits)
            }
            Select => {
                let arr = self.eval(&args[0]);
                let idx = self.eval(&args[1]);
                match (arr, idx.to_value(&args[1].sort)) {
                    (V::Array(a), Some(i)) => V::from_value(a.select(&i)),
                    (_, _) => {
                        self.taint_value(&idx);
                        unknown_of(sort)
                    }
                }
            }
            Store => {
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
                        self.taint_value(&idx);
                        self.taint_value(&val);
                        V::Unknown
                    }
                }
            }
            ConstArray => {
                let v = self.eval(&args[0]);
                match v.to_value(&args[0].sort) {
                    Some(v) => V::Array(Arc::new(ArrayValue::constant(sort.clone(), v))),
                    None => {
                        self.taint_value(&v);
                        V::Unknown
                    }
                }
            }
            FpAbs | FpNeg | FpAdd | FpSub | FpMul | FpDiv | FpFma | FpSqrt | FpRem
            | FpRoundToIntegral | FpMin | FpMax | FpLeq | FpLt | FpGeq | FpGt | FpEq | FpIsNaN
            | FpIsZero | FpIsInfinite | FpIsNormal | FpIsSubnormal | FpIsNegative
            | FpIsPositive => self.fp(op, args, sort),
            _ => {
                let vals: Vec<V> = args.iter().map(|a| self.eval(a)).collect();
                match strings::apply(op, &vals) {
                    Some(v) => v,
                    None => {
                        for v in &vals {
                            self.taint_value(v);
                        }
                        unknown_of(sort)
                    }
                }
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
            (V::Rm(x), V::Rm(y)) => Tri::from(x == y),
            (V::Str(x), V::Str(y)) => Tri::from(x == y),
            (V::Array(x), V::Array(y)) => Tri::from(x.extensional_eq(y)),
            _ => {
                self.taint_value(a);
                self.taint_value(b);
                Tri::U
            }
        }
    }

    /// Whether the sign of `d` is one of `want`.
    fn compare(&mut self, d: &Lin, want: &[Ordering]) -> Tri {
        if let Some(c) = d.as_const() {
            return Tri::from(want.contains(&c.cmp(&BigRational::zero())));
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
        let choices: Vec<SymId> = d
            .terms
            .iter()
            .map(|(s, _)| *s)
            .filter(|s| matches!(self.syms[*s as usize].kind, SymKind::Choice(_)))
            .collect();
        if choices.is_empty() {
            self.precision_limited = true;
            self.reason("a comparison of values known only by bounds could not be decided");
            return Tri::U;
        }
        if let [(s, k)] = d.terms.as_slice() {
            // k·s + c vs 0: the comparison changes at s = −c/k.
            let point = -&d.c / k;
            self.critical.entry(*s).or_default().push(point);
        } else {
            self.taint(d);
        }
        Tri::U
    }

    fn arith(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        use Op::*;
        if op == Bv2Nat {
            return match self.eval(&args[0]) {
                V::Bv(b) => V::Num(Lin::int(BigInt::from(b))),
                _ => V::Unknown,
            };
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            match self.eval(a) {
                V::Num(l) => vals.push(l),
                other => {
                    self.taint_value(&other);
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
                for v in &vals[1..] {
                    acc = self.mul(&acc, v);
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
                None => match self.interval(&vals[0]).sign() {
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
            Sin | Cos | Tan => return self.trig(op, &vals[0]),
            _ => unreachable!("not arithmetic: {op:?}"),
        };
        V::Num(lin)
    }

    fn mul(&mut self, a: &Lin, b: &Lin) -> Lin {
        match (a.as_const(), b.as_const()) {
            (Some(k), _) => b.scale(k),
            (_, Some(k)) => a.scale(k),
            _ => {
                let i = self.interval(a).mul(&self.interval(b));
                self.opaque(Op::Mul, &[a, b], i)
            }
        }
    }

    fn real_div(&mut self, a: &Lin, b: &Lin) -> Lin {
        match b.as_const() {
            Some(k) if k.is_zero() => match a.as_const() {
                Some(x) => self.num_choice(ChoiceKey::RealDiv(x.clone())),
                None => self.opaque(Op::RealDiv, &[a, b], Interval::whole()),
            },
            Some(k) => a.scale(&k.recip()),
            None => {
                let i = self.interval(b);
                match self.interval(a).div(&i) {
                    Some(q) => self.opaque(Op::RealDiv, &[a, b], q),
                    None => self.opaque(Op::RealDiv, &[a, b], Interval::whole()),
                }
            }
        }
    }

    fn num_choice(&mut self, key: ChoiceKey) -> Lin {
        match self.choice(key) {
            V::Num(l) => l,
            _ => {
                // The model's definition could not be evaluated: a value known to be
                // fixed but not which.
                let id = self.syms.len() as SymId;
                self.syms.push(Sym {
                    kind: SymKind::Opaque,
                    interval: Interval::whole(),
                });
                Lin::symbol(id)
            }
        }
    }

    fn int_div(&mut self, op: Op, a: &Lin, b: &Lin) -> Lin {
        match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) => {
                let (x, y) = (x.to_integer(), y.to_integer());
                if y.is_zero() {
                    let key = if op == Op::IntDiv {
                        ChoiceKey::IntDiv(x)
                    } else {
                        ChoiceKey::IntMod(x)
                    };
                    return self.num_choice(key);
                }
                Lin::int(if op == Op::IntDiv {
                    x.div_euclid(&y)
                } else {
                    x.rem_euclid(&y)
                })
            }
            (None, Some(y)) if !y.is_zero() => {
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
                        self.taint(a);
                        return Lin::constant(lo.clone());
                    }
                }
                self.opaque(op, &[a, b], q)
            }
            _ => self.opaque(op, &[a, b], Interval::whole()),
        }
    }

    fn floor(&mut self, a: &Lin) -> Lin {
        if let Some(c) = a.as_const() {
            return Lin::constant(c.floor());
        }
        let i = self.interval(a).floor();
        if let (Some(lo), Some(hi)) = (&i.lo, &i.hi) {
            if lo == hi {
                self.taint(a);
                return Lin::constant(lo.clone());
            }
        }
        self.opaque(Op::ToInt, &[a], i)
    }

    fn is_int(&mut self, a: &Lin) -> Tri {
        if let Some(c) = a.as_const() {
            return Tri::from(c.is_integer());
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
        self.taint(a);
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

    fn fp(&mut self, op: Op, args: &[Term], sort: &Sort) -> V {
        use Op::*;
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
                        self.choice(key)
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

fn unknown_of(sort: &Sort) -> V {
    if *sort == Sort::Bool {
        V::Bool(Tri::U)
    } else {
        V::Unknown
    }
}

/// Sign-extends a `width`-bit value to i64... as i128 for safe arithmetic.
fn signed(bits: u64, width: u32) -> i128 {
    let shift = 128 - width;
    ((bits as i128) << shift) >> shift
}

/// The bit-vector operators, SMT-LIB semantics (division by zero included).
fn bv_op(op: Op, width: u32, b: &[u64]) -> V {
    use Op::*;
    let mask = bv_mask(width);
    let fold = |f: fn(u64, u64) -> u64| V::Bv(b[1..].iter().fold(b[0], |acc, x| f(acc, *x)) & mask);
    let udiv = |x: u64, y: u64| x.checked_div(y).unwrap_or(mask);
    let urem = |x: u64, y: u64| if y == 0 { x } else { x % y };
    let neg = |x: u64| x.wrapping_neg() & mask;
    let msb = |x: u64| (x >> (width - 1)) & 1 == 1;
    let cmp = |r: bool| V::Bool(Tri::from(r));
    match op {
        BvNot => V::Bv(!b[0] & mask),
        BvNeg => V::Bv(neg(b[0])),
        BvAnd => fold(|x, y| x & y),
        BvOr => fold(|x, y| x | y),
        BvXor => fold(|x, y| x ^ y),
        BvAdd => fold(u64::wrapping_add),
        BvSub => V::Bv(b[0].wrapping_sub(b[1]) & mask),
        BvMul => fold(u64::wrapping_mul),
        BvUdiv => V::Bv(udiv(b[0], b[1])),
        BvUrem => V::Bv(urem(b[0], b[1])),
        BvSdiv => {
            let (s, t) = (b[0], b[1]);
            V::Bv(match (msb(s), msb(t)) {
                (false, false) => udiv(s, t),
                (true, false) => neg(udiv(neg(s), t)),
                (false, true) => neg(udiv(s, neg(t))),
                (true, true) => udiv(neg(s), neg(t)),
            })
        }
        BvSrem => {
            let (s, t) = (b[0], b[1]);
            V::Bv(match (msb(s), msb(t)) {
                (false, false) => urem(s, t),
                (true, false) => neg(urem(neg(s), t)),
                (false, true) => urem(s, neg(t)),
                (true, true) => neg(urem(neg(s), neg(t))),
            })
        }
        BvSmod => {
            let (s, t) = (b[0], b[1]);
            let abs_s = if msb(s) { neg(s) } else { s };
            let abs_t = if msb(t) { neg(t) } else { t };
            let u = urem(abs_s, abs_t);
            V::Bv(if u == 0 {
                u
            } else {
                match (msb(s), msb(t)) {
                    (false, false) => u,
                    (true, false) => (neg(u).wrapping_add(t)) & mask,
                    (false, true) => (u.wrapping_add(t)) & mask,
                    (true, true) => neg(u),
                }
            })
        }
        BvShl => V::Bv(if b[1] >= width as u64 {
            0
        } else {
            (b[0] << b[1]) & mask
        }),
        BvLshr => V::Bv(if b[1] >= width as u64 {
            0
        } else {
            b[0] >> b[1]
        }),
        BvAshr => {
            let s = signed(b[0], width);
            let shift = b[1].min(width as u64 - 1) as u32;
            let r = if b[1] >= width as u64 {
                if s < 0 {
                    -1
                } else {
                    0
                }
            } else {
                s >> shift
            };
            V::Bv((r as u64) & mask)
        }
        BvUlt => cmp(b[0] < b[1]),
        BvUle => cmp(b[0] <= b[1]),
        BvUgt => cmp(b[0] > b[1]),
        BvUge => cmp(b[0] >= b[1]),
        BvSlt => cmp(signed(b[0], width) < signed(b[1], width)),
        BvSle => cmp(signed(b[0], width) <= signed(b[1], width)),
        BvSgt => cmp(signed(b[0], width) > signed(b[1], width)),
        BvSge => cmp(signed(b[0], width) >= signed(b[1], width)),
        _ => unreachable!("not a bit-vector operator: {op:?}"),
    }
}
