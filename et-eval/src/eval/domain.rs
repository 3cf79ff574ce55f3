//! The values the evaluator computes with: three-valued Booleans, numbers as linear
//! forms over symbols (so unknown division-by-zero results and transcendental values
//! can be compared exactly where mathematics allows), and concrete values of the other
//! sorts.

use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

use crate::datatype::DatatypeValue;
use crate::fp::{Float64, RoundingMode};
use crate::interval::Interval;
use crate::regex::Regex;
use crate::string::SmtString;
use crate::value::{ArrayValue, Value};

/// A three-valued truth: Kleene logic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tri {
    /// True.
    T,
    /// False.
    F,
    /// Not determined (depends on an open choice or an undecidable comparison).
    U,
}

impl Tri {
    pub fn from(b: bool) -> Tri {
        if b {
            Tri::T
        } else {
            Tri::F
        }
    }

    pub fn not(self) -> Tri {
        match self {
            Tri::T => Tri::F,
            Tri::F => Tri::T,
            Tri::U => Tri::U,
        }
    }

    pub fn and(self, other: Tri) -> Tri {
        match (self, other) {
            (Tri::F, _) | (_, Tri::F) => Tri::F,
            (Tri::T, Tri::T) => Tri::T,
            _ => Tri::U,
        }
    }

    pub fn or(self, other: Tri) -> Tri {
        self.not().and(other.not()).not()
    }

    pub fn xor(self, other: Tri) -> Tri {
        match (self, other) {
            (Tri::U, _) | (_, Tri::U) => Tri::U,
            (a, b) => Tri::from(a != b),
        }
    }
}

/// A symbol's number in the evaluation's symbol table.
pub type SymId = u32;

/// `c + Σ kᵢ·sᵢ`: a number as a linear form over symbols, terms sorted by symbol and
/// with non-zero coefficients. A constant has no terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lin {
    pub c: BigRational,
    pub terms: Vec<(SymId, BigRational)>,
}

impl Lin {
    pub fn constant(c: BigRational) -> Lin {
        Lin {
            c,
            terms: Vec::new(),
        }
    }

    pub fn int(n: BigInt) -> Lin {
        Lin::constant(BigRational::from_integer(n))
    }

    pub fn symbol(s: SymId) -> Lin {
        Lin {
            c: BigRational::zero(),
            terms: vec![(s, BigRational::one())],
        }
    }

    /// The value, if the form is a constant.
    pub fn as_const(&self) -> Option<&BigRational> {
        self.terms.is_empty().then_some(&self.c)
    }

    pub fn add(&self, other: &Lin) -> Lin {
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            match (self.terms.get(i), other.terms.get(j)) {
                (Some(a), Some(b)) if a.0 == b.0 => {
                    let k = &a.1 + &b.1;
                    if !k.is_zero() {
                        terms.push((a.0, k));
                    }
                    i += 1;
                    j += 1;
                }
                (Some(a), Some(b)) if a.0 < b.0 => {
                    terms.push(a.clone());
                    i += 1;
                }
                (Some(_), Some(b)) => {
                    terms.push(b.clone());
                    j += 1;
                }
                (Some(a), None) => {
                    terms.push(a.clone());
                    i += 1;
                }
                (None, Some(b)) => {
                    terms.push(b.clone());
                    j += 1;
                }
                (None, None) => unreachable!(),
            }
        }
        Lin {
            c: &self.c + &other.c,
            terms,
        }
    }

    pub fn scale(&self, k: &BigRational) -> Lin {
        if k.is_zero() {
            return Lin::constant(BigRational::zero());
        }
        Lin {
            c: &self.c * k,
            terms: self.terms.iter().map(|(s, a)| (*s, a * k)).collect(),
        }
    }

    pub fn neg(&self) -> Lin {
        self.scale(&-BigRational::one())
    }

    pub fn sub(&self, other: &Lin) -> Lin {
        self.add(&other.neg())
    }
}

/// A value during evaluation.
#[derive(Debug, Clone)]
pub enum V {
    Bool(Tri),
    /// Int or Real (the term's sort tells which).
    Num(Lin),
    Bv(BigUint),
    Fp(Float64),
    /// A floating-point number of a format other than binary64.
    Float(crate::fp::generic::Fp),
    Rm(RoundingMode),
    Str(SmtString),
    Re(Regex),
    Array(Arc<ArrayValue>),
    /// A datatype's value.
    Data(Arc<DatatypeValue>),
    /// A value of another sort that is not determined.
    Unknown,
}

impl V {
    /// The concrete value, if determined.
    pub fn to_value(&self, sort: &crate::sort::Sort) -> Option<Value> {
        use crate::sort::Sort;
        Some(match (self, sort) {
            (V::Bool(Tri::T), _) => Value::Bool(true),
            (V::Bool(Tri::F), _) => Value::Bool(false),
            (V::Num(l), Sort::Int) => Value::Int(l.as_const()?.to_integer()),
            (V::Num(l), _) => Value::Real(l.as_const()?.clone()),
            (V::Bv(b), Sort::BitVec(w)) => Value::bv_big(*w, b.clone()),
            (V::Fp(x), _) => Value::Fp(*x),
            (V::Float(x), _) => Value::Float(x.clone()),
            (V::Rm(r), _) => Value::Rm(*r),
            (V::Str(s), _) => Value::Str(s.clone()),
            (V::Array(a), _) => Value::Array(a.clone()),
            (V::Data(d), _) => Value::Datatype(d.clone()),
            _ => return None,
        })
    }

    pub fn from_value(value: &Value) -> V {
        match value {
            Value::Bool(b) => V::Bool(Tri::from(*b)),
            Value::Int(n) => V::Num(Lin::int(n.clone())),
            Value::Real(q) => V::Num(Lin::constant(q.clone())),
            Value::BitVec { bits, .. } => V::Bv(bits.clone()),
            Value::Fp(x) => V::Fp(*x),
            Value::Float(x) => V::Float(x.clone()),
            Value::Rm(r) => V::Rm(*r),
            Value::Str(s) => V::Str(s.clone()),
            Value::Array(a) => V::Array(a.clone()),
            Value::Datatype(d) => V::Data(d.clone()),
        }
    }
}

/// What a division-by-zero (or other unspecified) result is a function of.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ChoiceKey {
    /// `(div n 0)`.
    IntDiv(BigInt),
    /// `(mod n 0)`.
    IntMod(BigInt),
    /// `(/ x 0)`.
    RealDiv(BigRational),
    /// `fp.min` of +0 and −0, in this argument order (bits).
    FpMin(u64, u64),
    /// `fp.max` likewise.
    FpMax(u64, u64),
    /// `fp.min` (false) or `fp.max` (true) of +0 and −0 of another format.
    FloatExtremum(bool, crate::fp::generic::Fp, crate::fp::generic::Fp),
    /// `fp.to_real` of NaN (code 0), +∞ (1) or −∞ (−1) of format (eb, sb).
    FpToReal(u32, u32, i8),
    /// `fp.to_sbv` (true) / `fp.to_ubv` (false) of width w, under a rounding mode, of a
    /// value out of range (NaN, ±∞ or too large).
    FpToBv(bool, u32, RoundingMode, crate::fp::generic::Fp),
}

impl ChoiceKey {
    /// Whether the value is an integer.
    pub fn is_int(&self) -> bool {
        matches!(self, ChoiceKey::IntDiv(_) | ChoiceKey::IntMod(_))
    }

    /// The application as SMT-LIB text.
    pub fn describe(&self) -> String {
        use crate::value::{fmt_int, fmt_real};
        struct I<'a>(&'a BigInt);
        impl std::fmt::Display for I<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                fmt_int(self.0, f)
            }
        }
        struct R<'a>(&'a BigRational);
        impl std::fmt::Display for R<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                fmt_real(self.0, f)
            }
        }
        match self {
            ChoiceKey::IntDiv(n) => format!("(div {} 0)", I(n)),
            ChoiceKey::IntMod(n) => format!("(mod {} 0)", I(n)),
            ChoiceKey::RealDiv(q) => format!("(/ {} 0.0)", R(q)),
            ChoiceKey::FpMin(a, b) => format!(
                "(fp.min {} {})",
                Float64::from_bits(*a),
                Float64::from_bits(*b)
            ),
            ChoiceKey::FpMax(a, b) => format!(
                "(fp.max {} {})",
                Float64::from_bits(*a),
                Float64::from_bits(*b)
            ),
            ChoiceKey::FloatExtremum(max, a, b) => {
                format!("(fp.{} {a} {b})", if *max { "max" } else { "min" })
            }
            ChoiceKey::FpToReal(eb, sb, code) => format!(
                "(fp.to_real (_ {} {eb} {sb}))",
                match code {
                    0 => "NaN",
                    1 => "+oo",
                    _ => "-oo",
                }
            ),
            ChoiceKey::FpToBv(signed, w, rm, x) => format!(
                "((_ fp.to_{}bv {w}) {rm} {x})",
                if *signed { "s" } else { "u" }
            ),
        }
    }
}

/// The division operators whose result at a zero divisor is unspecified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DivOp {
    /// `div`.
    Int,
    /// `mod`.
    Mod,
    /// `/`.
    Real,
    /// `fp.to_real` of a non-finite value of format (eb, sb): the "dividend" is the
    /// value's code (0 NaN, 1 +∞, −1 −∞).
    FpToReal(u32, u32),
}

impl DivOp {
    /// The concrete key of the application at a known dividend.
    pub fn key(self, dividend: &BigRational) -> ChoiceKey {
        match self {
            DivOp::Int => ChoiceKey::IntDiv(dividend.to_integer()),
            DivOp::Mod => ChoiceKey::IntMod(dividend.to_integer()),
            DivOp::Real => ChoiceKey::RealDiv(dividend.clone()),
            DivOp::FpToReal(eb, sb) => {
                ChoiceKey::FpToReal(eb, sb, dividend.to_integer().try_into().unwrap_or(0))
            }
        }
    }
}

/// How a relaxed unknown depends on others (the search treats it as free and checks
/// the dependency when it certifies a solution).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Relaxed {
    /// `a · b`.
    Mul(Lin, Lin),
    /// `a / b` (b ≠ 0 on the path).
    RealDiv(Lin, Lin),
    /// `div a b` (b ≠ 0 on the path).
    IntDiv(Lin, Lin),
    /// `mod a b` (b ≠ 0 on the path).
    Mod(Lin, Lin),
}

/// What a symbol stands for.
#[derive(Debug, Clone)]
pub enum SymKind {
    /// An unspecified result (division by zero at this dividend) the search decides.
    Choice(DivOp, Lin),
    /// An unknown the search decides, tied to the choices by the path's constraints
    /// (a floor quotient: exact), or by a dependency it checks at the end (relaxed).
    Aux {
        /// Whether its value is an integer.
        integer: bool,
        /// The dependency that linear constraints do not express.
        relaxed: Option<Relaxed>,
    },
    /// `sin`/`cos` of a positive rational: values that are rationally independent of
    /// each other and of 1 (Lindemann–Weierstrass), which makes linear comparisons exact.
    Trig,
    /// The k-th power of the algebraic number bound to a constant (the constant's
    /// number): forms over the powers of one such number are decided exactly.
    AlgPower {
        /// The constant.
        var: usize,
        /// The power, 1 to the degree of its polynomial − 1.
        power: u32,
    },
    /// Any other number known only by an enclosure.
    Opaque,
}

impl SymKind {
    /// Whether the search decides the symbol's value (as opposed to a fixed value known
    /// by an enclosure).
    pub fn is_decision(&self) -> bool {
        matches!(self, SymKind::Choice(..) | SymKind::Aux { .. })
    }

    /// Whether a decision symbol's value is an integer.
    pub fn is_integer(&self) -> bool {
        match self {
            SymKind::Choice(op, _) => matches!(op, DivOp::Int | DivOp::Mod),
            SymKind::Aux { integer, .. } => *integer,
            _ => false,
        }
    }
}

/// A symbol of the evaluation.
#[derive(Debug, Clone)]
pub struct Sym {
    pub kind: SymKind,
    /// An enclosure of its value (all reals for a decision symbol).
    pub interval: Interval,
}
