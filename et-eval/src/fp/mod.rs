//! IEEE 754-2008 binary64 as SMT-LIB's `(_ FloatingPoint 11 53)`: values, rounding modes,
//! and every operation of the FloatingPoint theory, exactly, in all five rounding modes.
//!
//! How it is computed: each operation forms its exact result as a sign, an integer
//! magnitude and a power of two (a dyadic rational; for `fp.div` and `fp.sqrt`, whose exact
//! results are not dyadic, a truncation with enough extra bits and a sticky bit that keeps
//! it on the same side of every rounding boundary), and one function, [`round`], turns
//! any such value into the binary64 the rounding mode selects, with the IEEE rules for
//! overflow and gradual underflow. The special cases (NaN, infinities, signed zeros) are
//! decided before that, per operation, as the standard lists them. Arithmetic is on `u128`
//! where the exact value fits and on big integers where it does not (sums of operands
//! whose exponents are far apart, `fp.fma`, `fp.rem`, conversions from rationals).
//!
//! SMT-LIB has exactly one NaN, so every constructor normalises NaN to one bit pattern:
//! derived equality on [`Float64`] is SMT-LIB's `=` (NaN = NaN, +0 ≠ −0), while
//! [`Float64::fp_eq`] is IEEE equality (`fp.eq`: NaN ≠ NaN, +0 = −0).

mod arith;
pub mod generic;
mod round;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use thiserror::Error;

/// The five rounding modes of SMT-LIB's FloatingPoint theory (IEEE 754-2008's
/// rounding-direction attributes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoundingMode {
    /// `RNE` / `roundNearestTiesToEven`: to nearest, ties to the even significand.
    Rne,
    /// `RNA` / `roundNearestTiesToAway`: to nearest, ties away from zero.
    Rna,
    /// `RTP` / `roundTowardPositive`: towards +∞.
    Rtp,
    /// `RTN` / `roundTowardNegative`: towards −∞.
    Rtn,
    /// `RTZ` / `roundTowardZero`: towards zero (truncation).
    Rtz,
}

impl RoundingMode {
    /// All five modes, in SMT-LIB's order of listing.
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::Rne,
        RoundingMode::Rna,
        RoundingMode::Rtp,
        RoundingMode::Rtn,
        RoundingMode::Rtz,
    ];

    /// The short SMT-LIB name (`RNE`, `RNA`, `RTP`, `RTN`, `RTZ`).
    pub fn short_name(self) -> &'static str {
        match self {
            RoundingMode::Rne => "RNE",
            RoundingMode::Rna => "RNA",
            RoundingMode::Rtp => "RTP",
            RoundingMode::Rtn => "RTN",
            RoundingMode::Rtz => "RTZ",
        }
    }

    /// The long SMT-LIB name (`roundNearestTiesToEven`, ...).
    pub fn long_name(self) -> &'static str {
        match self {
            RoundingMode::Rne => "roundNearestTiesToEven",
            RoundingMode::Rna => "roundNearestTiesToAway",
            RoundingMode::Rtp => "roundTowardPositive",
            RoundingMode::Rtn => "roundTowardNegative",
            RoundingMode::Rtz => "roundTowardZero",
        }
    }
}

impl fmt::Display for RoundingMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short_name())
    }
}

/// A name that is neither spelling of an SMT-LIB rounding mode.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown rounding mode `{0}` (expected RNE, RNA, RTP, RTN, RTZ or their long names)")]
pub struct UnknownRoundingMode(pub String);

impl FromStr for RoundingMode {
    type Err = UnknownRoundingMode;

    /// Both SMT-LIB spellings: `RNE` and `roundNearestTiesToEven`, and so on.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        RoundingMode::ALL
            .into_iter()
            .find(|mode| mode.short_name() == name || mode.long_name() == name)
            .ok_or_else(|| UnknownRoundingMode(name.to_string()))
    }
}

/// A field of an `(fp sign exponent significand)` triple that does not fit its width
/// (1, 11 and 52 bits).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the {field} field of an (fp ...) literal of sort (_ FloatingPoint 11 53) has {width} bits, but its value is {value}")]
pub struct FieldTooWide {
    /// `sign`, `exponent` or `significand`.
    pub field: &'static str,
    /// The field's width in bits.
    pub width: u32,
    /// The value given.
    pub value: u64,
}

/// What `fp.min`/`fp.max` return: a value, or "+0 or −0" when the operands are zeros
/// of opposite signs, where SMT-LIB leaves the result unspecified (a solver may choose
/// either, and even choose differently for different arguments).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Extremum {
    /// The result is this value.
    Value(Float64),
    /// The result is +0 or −0; which one is unspecified.
    EitherZero,
}

/// A binary64 value of sort `(_ FloatingPoint 11 53)`, as its 64 bits, with every NaN
/// normalised to one (SMT-LIB has a single NaN). Derived equality and hashing are
/// SMT-LIB's `=`: structural, NaN equals NaN, +0 and −0 differ.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Float64(u64);

const SIGN_BIT: u64 = 1 << 63;
const EXPONENT_MASK: u64 = 0x7ff << FRACTION_BITS;
const FRACTION_MASK: u64 = (1 << FRACTION_BITS) - 1;
/// Stored significand bits (the leading bit of a normal number is implicit).
const FRACTION_BITS: u32 = 52;
/// The largest biased exponent of a finite number (2047 is ∞ and NaN).
const MAX_FINITE_BIASED_EXPONENT: u64 = 2046;
/// The binary64 value is `significand × 2^(biased exponent − EXPONENT_OFFSET)` for a
/// normal number (significand with its leading 1): bias 1023 plus the 52 fraction bits.
const EXPONENT_OFFSET: i64 = 1075;
/// The weight of the least significant bit of a subnormal: 2^−1074.
const MIN_EXPONENT: i64 = -1074;
/// The canonical NaN: the quiet NaN with no payload and a clear sign bit.
const CANONICAL_NAN: u64 = 0x7ff8_0000_0000_0000;

/// A finite binary64 value taken apart: `(−1)^negative × significand × 2^exponent`,
/// significand < 2^53 (zero only for the zeros).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Finite {
    pub negative: bool,
    pub significand: u64,
    pub exponent: i64,
}

/// A value sorted into the cases the operations' special rules distinguish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    NaN,
    Infinite {
        negative: bool,
    },
    Zero {
        negative: bool,
    },
    /// Finite and non-zero (normal or subnormal).
    Nonzero(Finite),
}

impl Float64 {
    /// +0, SMT-LIB's `(_ +zero 11 53)`.
    pub const POS_ZERO: Float64 = Float64(0);
    /// −0, SMT-LIB's `(_ -zero 11 53)`.
    pub const NEG_ZERO: Float64 = Float64(SIGN_BIT);
    /// +∞, SMT-LIB's `(_ +oo 11 53)`.
    pub const POS_INFINITY: Float64 = Float64(EXPONENT_MASK);
    /// −∞, SMT-LIB's `(_ -oo 11 53)`.
    pub const NEG_INFINITY: Float64 = Float64(SIGN_BIT | EXPONENT_MASK);
    /// The NaN, SMT-LIB's `(_ NaN 11 53)`.
    pub const NAN: Float64 = Float64(CANONICAL_NAN);
    /// The largest finite value, (2 − 2^−52) × 2^1023.
    pub const MAX: Float64 = Float64((MAX_FINITE_BIASED_EXPONENT << FRACTION_BITS) | FRACTION_MASK);
    /// The smallest positive (subnormal) value, 2^−1074.
    pub const MIN_POSITIVE_SUBNORMAL: Float64 = Float64(1);

    /// The value with these 64 bits (IEEE interchange format: sign, 11 exponent bits, 52
    /// fraction bits), as `((_ to_fp 11 53) #x...)` reads a bit-vector. Every NaN pattern
    /// becomes the one NaN.
    pub fn from_bits(bits: u64) -> Float64 {
        if bits & EXPONENT_MASK == EXPONENT_MASK && bits & FRACTION_MASK != 0 {
            Float64::NAN
        } else {
            Float64(bits)
        }
    }

    /// The 64 bits of the value (the NaN's are `0x7ff8000000000000`).
    pub fn to_bits(self) -> u64 {
        self.0
    }

    /// The value of SMT-LIB's `(fp sign exponent significand)` with the three bit-vector
    /// fields given as integers (widths 1, 11 and 52).
    pub fn from_fields(
        sign: u64,
        exponent: u64,
        significand: u64,
    ) -> Result<Float64, FieldTooWide> {
        let check = |field, width: u32, value: u64| {
            if value >> width == 0 {
                Ok(value)
            } else {
                Err(FieldTooWide {
                    field,
                    width,
                    value,
                })
            }
        };
        let sign = check("sign", 1, sign)?;
        let exponent = check("exponent", 11, exponent)?;
        let significand = check("significand", FRACTION_BITS, significand)?;
        Ok(Float64::from_bits(
            (sign << 63) | (exponent << FRACTION_BITS) | significand,
        ))
    }

    /// The three fields of the `(fp sign exponent significand)` form of this value.
    pub fn to_fields(self) -> (u64, u64, u64) {
        (
            self.0 >> 63,
            (self.0 & EXPONENT_MASK) >> FRACTION_BITS,
            self.0 & FRACTION_MASK,
        )
    }

    /// The host's `f64` with the same bits (any NaN becomes the one NaN).
    pub fn from_f64(value: f64) -> Float64 {
        Float64::from_bits(value.to_bits())
    }

    /// The host's `f64` with the same bits.
    pub fn to_f64(self) -> f64 {
        f64::from_bits(self.0)
    }

    fn sign_bit(self) -> bool {
        self.0 & SIGN_BIT != 0
    }

    fn biased_exponent(self) -> u64 {
        (self.0 & EXPONENT_MASK) >> FRACTION_BITS
    }

    pub(crate) fn class(self) -> Class {
        let negative = self.sign_bit();
        let biased = self.biased_exponent();
        let fraction = self.0 & FRACTION_MASK;
        match (biased, fraction) {
            (0x7ff, 0) => Class::Infinite { negative },
            (0x7ff, _) => Class::NaN,
            (0, 0) => Class::Zero { negative },
            (0, _) => Class::Nonzero(Finite {
                negative,
                significand: fraction,
                exponent: MIN_EXPONENT,
            }),
            _ => Class::Nonzero(Finite {
                negative,
                significand: fraction | (1 << FRACTION_BITS),
                exponent: biased as i64 - EXPONENT_OFFSET,
            }),
        }
    }

    pub(crate) fn zero(negative: bool) -> Float64 {
        if negative {
            Float64::NEG_ZERO
        } else {
            Float64::POS_ZERO
        }
    }

    pub(crate) fn infinity(negative: bool) -> Float64 {
        if negative {
            Float64::NEG_INFINITY
        } else {
            Float64::POS_INFINITY
        }
    }

    /// `fp.isNaN`.
    pub fn is_nan(self) -> bool {
        self.0 == CANONICAL_NAN
    }

    /// `fp.isInfinite`.
    pub fn is_infinite(self) -> bool {
        self.0 & !SIGN_BIT == EXPONENT_MASK
    }

    /// `fp.isZero` (true for both zeros).
    pub fn is_zero(self) -> bool {
        self.0 & !SIGN_BIT == 0
    }

    /// `fp.isNormal`: finite, non-zero, with a non-zero biased exponent.
    pub fn is_normal(self) -> bool {
        (1..=MAX_FINITE_BIASED_EXPONENT).contains(&self.biased_exponent())
    }

    /// `fp.isSubnormal`: non-zero with a zero biased exponent.
    pub fn is_subnormal(self) -> bool {
        self.biased_exponent() == 0 && self.0 & FRACTION_MASK != 0
    }

    /// `fp.isNegative`: the sign is set and the value is not NaN (−0 is negative).
    pub fn is_negative(self) -> bool {
        self.sign_bit() && !self.is_nan()
    }

    /// `fp.isPositive`: the sign is clear and the value is not NaN (+0 is positive).
    pub fn is_positive(self) -> bool {
        !self.sign_bit() && !self.is_nan()
    }

    /// Finite (neither infinite nor NaN).
    pub fn is_finite(self) -> bool {
        self.biased_exponent() != 0x7ff
    }

    /// `fp.abs`: the sign cleared (NaN stays NaN).
    pub fn abs(self) -> Float64 {
        Float64::from_bits(self.0 & !SIGN_BIT)
    }

    /// A key whose integer order is the numeric order of non-NaN values, with −0 and +0
    /// equal.
    fn order_key(self) -> i64 {
        let magnitude = (self.0 & !SIGN_BIT) as i64;
        if self.sign_bit() {
            -magnitude
        } else {
            magnitude
        }
    }

    /// `fp.eq`: IEEE equality (false if either is NaN; +0 equals −0).
    pub fn fp_eq(self, other: Float64) -> bool {
        !self.is_nan() && !other.is_nan() && self.order_key() == other.order_key()
    }

    /// `fp.lt` (false if either is NaN).
    pub fn lt(self, other: Float64) -> bool {
        !self.is_nan() && !other.is_nan() && self.order_key() < other.order_key()
    }

    /// `fp.leq` (false if either is NaN).
    pub fn leq(self, other: Float64) -> bool {
        !self.is_nan() && !other.is_nan() && self.order_key() <= other.order_key()
    }

    /// `fp.gt` (false if either is NaN).
    pub fn gt(self, other: Float64) -> bool {
        other.lt(self)
    }

    /// `fp.geq` (false if either is NaN).
    pub fn geq(self, other: Float64) -> bool {
        other.leq(self)
    }

    /// `fp.min`: the smaller operand; the other one if one is NaN; unspecified
    /// ([`Extremum::EitherZero`]) for +0 and −0.
    pub fn min(self, other: Float64) -> Extremum {
        self.extremum(other, |a, b| a.lt(b))
    }

    /// `fp.max`: the larger operand; the other one if one is NaN; unspecified
    /// ([`Extremum::EitherZero`]) for +0 and −0.
    pub fn max(self, other: Float64) -> Extremum {
        self.extremum(other, |a, b| a.gt(b))
    }

    fn extremum(self, other: Float64, first_wins: impl Fn(Float64, Float64) -> bool) -> Extremum {
        if self.is_nan() {
            Extremum::Value(other)
        } else if other.is_nan() {
            Extremum::Value(self)
        } else if self.is_zero() && other.is_zero() && self != other {
            Extremum::EitherZero
        } else if first_wins(self, other) {
            Extremum::Value(self)
        } else {
            Extremum::Value(other)
        }
    }

    /// `fp.to_real`: the exact rational value; `None` for ±∞ and NaN, where SMT-LIB leaves
    /// the result unspecified.
    pub fn to_real(self) -> Option<BigRational> {
        match self.class() {
            Class::NaN | Class::Infinite { .. } => None,
            Class::Zero { .. } => Some(BigRational::zero()),
            Class::Nonzero(Finite {
                negative,
                significand,
                exponent,
            }) => {
                let mut numerator = BigInt::from(significand);
                if negative {
                    numerator = -numerator;
                }
                let value = if exponent >= 0 {
                    BigRational::from_integer(numerator << exponent as usize)
                } else {
                    BigRational::new(numerator, BigInt::one() << (-exponent) as usize)
                };
                Some(value)
            }
        }
    }

    /// `((_ to_fp 11 53) rm r)` for a Real `r`: the binary64 the rounding mode selects for
    /// the exact rational (zero gives +0).
    pub fn from_real(value: &BigRational, rm: RoundingMode) -> Float64 {
        arith::from_rational(value, rm)
    }

    /// The integer `rm` rounds the value to (what `fp.to_sbv`/`fp.to_ubv` compute before
    /// the range check); `None` for ±∞ and NaN.
    pub fn to_integer(self, rm: RoundingMode) -> Option<BigInt> {
        arith::to_integer(self, rm)
    }
}

impl From<Extremum> for Option<Float64> {
    /// The value, or `None` when the result is "either zero".
    fn from(extremum: Extremum) -> Self {
        match extremum {
            Extremum::Value(value) => Some(value),
            Extremum::EitherZero => None,
        }
    }
}

impl std::ops::Neg for Float64 {
    type Output = Float64;

    /// `fp.neg`: the sign flipped (NaN stays NaN).
    fn neg(self) -> Float64 {
        Float64::from_bits(self.0 ^ SIGN_BIT)
    }
}

impl fmt::Display for Float64 {
    /// The SMT-LIB literal: `(_ +zero 11 53)`, `(_ -zero 11 53)`, `(_ +oo 11 53)`,
    /// `(_ -oo 11 53)`, `(_ NaN 11 53)`, or `(fp #b. #b... #b...)` for the others.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.class() {
            Class::NaN => f.write_str("(_ NaN 11 53)"),
            Class::Infinite { negative } => {
                write!(f, "(_ {}oo 11 53)", if negative { '-' } else { '+' })
            }
            Class::Zero { negative } => {
                write!(f, "(_ {}zero 11 53)", if negative { '-' } else { '+' })
            }
            Class::Nonzero(_) => {
                let (sign, exponent, significand) = self.to_fields();
                write!(
                    f,
                    "(fp #b{sign:01b} #b{exponent:011b} #b{significand:052b})"
                )
            }
        }
    }
}

impl fmt::Debug for Float64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Float64({:e} = {:#018x})", self.to_f64(), self.0)
    }
}
