//! Concrete values of the supported sorts: what a model assigns to a constant and what
//! the witness search tries.

use std::fmt;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::datatype::DatatypeValue;
use crate::fp::generic::Fp;
use crate::fp::{Float64, RoundingMode};
use crate::sort::Sort;
use crate::string::SmtString;

/// A value of one of the supported sorts (regular languages are not values a constant
/// can hold in et's formulas, so they have none here).
#[derive(Debug, Clone)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// An integer.
    Int(BigInt),
    /// A real, exactly.
    Real(BigRational),
    /// A bit-vector of `width` bits (its value below 2^width).
    BitVec {
        /// Number of bits.
        width: u32,
        /// The bits, as an unsigned number.
        bits: BigUint,
    },
    /// A binary64 floating-point number.
    Fp(Float64),
    /// A floating-point number of another format.
    Float(Fp),
    /// A rounding mode.
    Rm(RoundingMode),
    /// A Unicode string.
    Str(SmtString),
    /// An array with finitely many stored entries over a default.
    Array(Arc<ArrayValue>),
    /// A value of a datatype: a constructor applied to its fields' values.
    Datatype(Arc<DatatypeValue>),
}

/// An array value: `default` everywhere except at the `entries`' indices.
/// Invariant: indices are pairwise different and no entry's value equals the default.
#[derive(Debug, Clone)]
pub struct ArrayValue {
    /// The array's sort.
    pub sort: Sort,
    /// The value at every index without an entry.
    pub default: Value,
    /// Index-value pairs, in the order they were stored.
    pub entries: Vec<(Value, Value)>,
}

/// The mask of a bit-vector width.
pub fn bv_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The mask of a bit-vector width, 2^width − 1.
pub fn bv_mask_big(width: u32) -> BigUint {
    (BigUint::one() << width as usize) - BigUint::one()
}

impl Value {
    /// A floating-point value: binary64 as [`Value::Fp`], other formats as
    /// [`Value::Float`].
    pub fn float(x: Fp) -> Value {
        match x.to_float64() {
            Some(f) => Value::Fp(f),
            None => Value::Float(x),
        }
    }

    /// The value's sort.
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Int(_) => Sort::Int,
            Value::Real(_) => Sort::Real,
            Value::BitVec { width, .. } => Sort::BitVec(*width),
            Value::Fp(_) => Sort::Float64,
            Value::Float(x) => Sort::Float(x.eb, x.sb),
            Value::Rm(_) => Sort::RoundingMode,
            Value::Str(_) => Sort::String,
            Value::Array(a) => a.sort.clone(),
            Value::Datatype(d) => Sort::Datatype(d.sort.clone()),
        }
    }

    /// A bit-vector value, truncated to `width` bits.
    pub fn bv(width: u32, bits: u64) -> Value {
        Value::bv_big(width, BigUint::from(bits))
    }

    /// A bit-vector value, truncated to `width` bits.
    pub fn bv_big(width: u32, bits: BigUint) -> Value {
        Value::BitVec {
            width,
            bits: bits & bv_mask_big(width),
        }
    }

    /// SMT-LIB equality (`=`): structural for floating point (NaN = NaN, +0 ≠ −0)
    /// and datatypes, extensional for arrays.
    pub fn smt_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Real(a), Value::Real(b)) => a == b,
            (Value::Int(a), Value::Real(b)) | (Value::Real(b), Value::Int(a)) => {
                b.is_integer() && b.numer() == a
            }
            (
                Value::BitVec {
                    width: w1,
                    bits: b1,
                },
                Value::BitVec {
                    width: w2,
                    bits: b2,
                },
            ) => w1 == w2 && b1 == b2,
            (Value::Fp(a), Value::Fp(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::Rm(a), Value::Rm(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a.extensional_eq(b),
            (Value::Datatype(a), Value::Datatype(b)) => a.smt_eq(b),
            _ => false,
        }
    }
}

/// How many values a sort has, when that is a small number (`None`: too many to
/// matter for covering an array's domain with entries).
fn small_domain_size(sort: &Sort) -> Option<u64> {
    match sort {
        Sort::Bool => Some(2),
        Sort::BitVec(w) if *w < 32 => Some(1u64 << w),
        Sort::RoundingMode => Some(5),
        Sort::Datatype(d) => d.domain_size(),
        _ => None,
    }
}

impl ArrayValue {
    /// The constant array `((as const sort) default)`.
    pub fn constant(sort: Sort, default: Value) -> ArrayValue {
        ArrayValue {
            sort,
            default,
            entries: Vec::new(),
        }
    }

    /// The value at `index`.
    pub fn select(&self, index: &Value) -> &Value {
        self.entries
            .iter()
            .find(|(i, _)| i.smt_eq(index))
            .map(|(_, v)| v)
            .unwrap_or(&self.default)
    }

    /// The array with `value` stored at `index`.
    pub fn store(&self, index: Value, value: Value) -> ArrayValue {
        let mut entries: Vec<(Value, Value)> = self
            .entries
            .iter()
            .filter(|(i, _)| !i.smt_eq(&index))
            .cloned()
            .collect();
        if !value.smt_eq(&self.default) {
            entries.push((index, value));
        }
        ArrayValue {
            sort: self.sort.clone(),
            default: self.default.clone(),
            entries,
        }
    }

    /// Extensional equality: equal at every index of the (possibly finite) domain.
    pub fn extensional_eq(&self, other: &ArrayValue) -> bool {
        let indices = self.entries.iter().chain(&other.entries).map(|(i, _)| i);
        let mut seen: Vec<&Value> = Vec::new();
        for i in indices {
            if seen.iter().any(|s| s.smt_eq(i)) {
                continue;
            }
            if !self.select(i).smt_eq(other.select(i)) {
                return false;
            }
            seen.push(i);
        }
        if self.default.smt_eq(&other.default) {
            return true;
        }
        // The defaults differ: the arrays differ unless the entries cover every index.
        let index_sort = self
            .sort
            .array_parts()
            .map(|(i, _)| i.clone())
            .unwrap_or(Sort::Int);
        match small_domain_size(&index_sort) {
            Some(size) => (seen.len() as u64) >= size,
            None => false,
        }
    }
}

/// Writes a rational as an SMT-LIB Real term: `2.0`, `(- 2.0)`, `(/ 1.0 3.0)`,
/// `(- (/ 1.0 3.0))`.
pub fn fmt_real(q: &BigRational, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let abs = q.abs();
    let body = if abs.denom().is_one() {
        format!("{}.0", abs.numer())
    } else {
        format!("(/ {}.0 {}.0)", abs.numer(), abs.denom())
    };
    if q.is_negative() {
        write!(f, "(- {body})")
    } else {
        f.write_str(&body)
    }
}

/// Writes an integer as an SMT-LIB Int term: `3`, `(- 3)`.
pub fn fmt_int(n: &BigInt, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if n.is_negative() {
        write!(f, "(- {})", -n)
    } else {
        write!(f, "{n}")
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(n) => fmt_int(n, f),
            Value::Real(q) => fmt_real(q, f),
            Value::BitVec { width, bits } => {
                if width % 4 == 0 {
                    write!(
                        f,
                        "#x{:0>w$}",
                        bits.to_str_radix(16),
                        w = (*width / 4) as usize
                    )
                } else {
                    write!(f, "#b{:0>w$}", bits.to_str_radix(2), w = *width as usize)
                }
            }
            Value::Fp(x) => write!(f, "{x}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Rm(rm) => write!(f, "{rm}"),
            Value::Str(s) => write!(f, "{s}"),
            Value::Array(a) => {
                let mut text = format!("((as const {}) {})", a.sort, a.default);
                for (i, v) in &a.entries {
                    text = format!("(store {text} {i} {v})");
                }
                f.write_str(&text)
            }
            Value::Datatype(d) => write!(f, "{d}"),
        }
    }
}

/// Zero of a numeric sort as a rational (for tests and defaults).
pub fn rational_zero() -> BigRational {
    BigRational::zero()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_smtlib() {
        assert_eq!(Value::Int(BigInt::from(-3)).to_string(), "(- 3)");
        assert_eq!(
            Value::Real(BigRational::new(BigInt::from(-1), BigInt::from(3))).to_string(),
            "(- (/ 1.0 3.0))"
        );
        assert_eq!(
            Value::Real(BigRational::from_integer(BigInt::from(2))).to_string(),
            "2.0"
        );
        assert_eq!(Value::bv(64, 255).to_string(), "#x00000000000000ff");
        assert_eq!(Value::bv(3, 255).to_string(), "#b111");
    }

    #[test]
    fn arrays_are_extensional() {
        let sort = Sort::array(Sort::BitVec(1), Sort::BitVec(1));
        let zero = ArrayValue::constant(sort.clone(), Value::bv(1, 0));
        let one = ArrayValue::constant(sort, Value::bv(1, 1));
        assert!(!zero.extensional_eq(&one));
        // Storing 1 at both indices of a 1-bit domain makes the all-zero array all-one.
        let covered = zero
            .store(Value::bv(1, 0), Value::bv(1, 1))
            .store(Value::bv(1, 1), Value::bv(1, 1));
        assert!(covered.extensional_eq(&one));
        let back = covered
            .store(Value::bv(1, 0), Value::bv(1, 0))
            .store(Value::bv(1, 1), Value::bv(1, 0));
        assert!(back.entries.is_empty() && back.extensional_eq(&zero));
        let big = Sort::array(Sort::BitVec(64), Sort::BitVec(64));
        let a = ArrayValue::constant(big.clone(), Value::bv(64, 0))
            .store(Value::bv(64, 5), Value::bv(64, 0));
        assert!(a.entries.is_empty());
        assert!(a.extensional_eq(&ArrayValue::constant(big, Value::bv(64, 0))));
    }
}
