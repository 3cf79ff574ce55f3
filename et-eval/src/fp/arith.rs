//! The rounded operations: the special cases each operation's IEEE definition lists, then
//! the exact (or sticky-truncated) result handed to the one rounding function.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

use super::round::{round, round_big};
use super::{Class, Finite, Float64, RoundingMode};

/// Significant bits a truncated quotient or root keeps (at least 55: see `round`).
const GUARDED_BITS: u64 = 55;

/// The zero an exact cancellation gives (`x + (−x)`, `x − x`): +0, except −0 when rounding
/// towards −∞ (IEEE 754-2008 §6.3).
fn cancellation_zero(rm: RoundingMode) -> Float64 {
    Float64::zero(rm == RoundingMode::Rtn)
}

/// The sum of two signed zeros: their sign if they agree, the cancellation zero if not.
fn zero_sum(a_negative: bool, b_negative: bool, rm: RoundingMode) -> Float64 {
    if a_negative == b_negative {
        Float64::zero(a_negative)
    } else {
        cancellation_zero(rm)
    }
}

/// A big signed integer `(−1)^negative × magnitude`.
fn signed(negative: bool, magnitude: BigUint) -> BigInt {
    BigInt::from_biguint(if negative { Sign::Minus } else { Sign::Plus }, magnitude)
}

/// Round an exact non-zero-or-zero sum `value × 2^exponent`; a zero sum is a cancellation.
fn round_sum(value: BigInt, exponent: i64, rm: RoundingMode) -> Float64 {
    if value.is_zero() {
        cancellation_zero(rm)
    } else {
        round_big(value.is_negative(), value.magnitude(), exponent, rm)
    }
}

/// The exact sum of two non-zero finite values, rounded.
fn add_finite(a: Finite, b: Finite, rm: RoundingMode) -> Float64 {
    let exponent = a.exponent.min(b.exponent);
    let (a_shift, b_shift) = (
        (a.exponent - exponent) as u64,
        (b.exponent - exponent) as u64,
    );
    // Fast path: aligned operands of at most 53 + 70 bits add exactly in i128.
    if a_shift <= 70 && b_shift <= 70 {
        let term = |f: Finite, shift: u64| {
            let magnitude = i128::from(f.significand) << shift;
            if f.negative {
                -magnitude
            } else {
                magnitude
            }
        };
        let sum = term(a, a_shift) + term(b, b_shift);
        return match sum {
            0 => cancellation_zero(rm),
            _ => round(sum < 0, sum.unsigned_abs(), exponent, rm),
        };
    }
    let term = |f: Finite, shift: u64| signed(f.negative, BigUint::from(f.significand) << shift);
    round_sum(term(a, a_shift) + term(b, b_shift), exponent, rm)
}

impl Float64 {
    /// `fp.add`.
    pub fn add(self, other: Float64, rm: RoundingMode) -> Float64 {
        match (self.class(), other.class()) {
            (Class::NaN, _) | (_, Class::NaN) => Float64::NAN,
            (Class::Infinite { negative: a }, Class::Infinite { negative: b }) => {
                if a == b {
                    self
                } else {
                    Float64::NAN
                }
            }
            (Class::Infinite { .. }, _) => self,
            (_, Class::Infinite { .. }) => other,
            (Class::Zero { negative: a }, Class::Zero { negative: b }) => zero_sum(a, b, rm),
            (Class::Zero { .. }, _) => other,
            (_, Class::Zero { .. }) => self,
            (Class::Nonzero(a), Class::Nonzero(b)) => add_finite(a, b, rm),
        }
    }

    /// `fp.sub`: `x + (−y)`.
    pub fn sub(self, other: Float64, rm: RoundingMode) -> Float64 {
        self.add(-other, rm)
    }

    /// `fp.mul`.
    pub fn mul(self, other: Float64, rm: RoundingMode) -> Float64 {
        let negative = self.is_negative_sign() != other.is_negative_sign();
        match (self.class(), other.class()) {
            (Class::NaN, _) | (_, Class::NaN) => Float64::NAN,
            (Class::Infinite { .. }, Class::Zero { .. })
            | (Class::Zero { .. }, Class::Infinite { .. }) => Float64::NAN,
            (Class::Infinite { .. }, _) | (_, Class::Infinite { .. }) => {
                Float64::infinity(negative)
            }
            (Class::Zero { .. }, _) | (_, Class::Zero { .. }) => Float64::zero(negative),
            (Class::Nonzero(a), Class::Nonzero(b)) => {
                let product = u128::from(a.significand) * u128::from(b.significand);
                round(negative, product, a.exponent + b.exponent, rm)
            }
        }
    }

    /// `fp.div`.
    pub fn div(self, other: Float64, rm: RoundingMode) -> Float64 {
        let negative = self.is_negative_sign() != other.is_negative_sign();
        match (self.class(), other.class()) {
            (Class::NaN, _) | (_, Class::NaN) => Float64::NAN,
            (Class::Infinite { .. }, Class::Infinite { .. })
            | (Class::Zero { .. }, Class::Zero { .. }) => Float64::NAN,
            (Class::Infinite { .. }, _) | (_, Class::Zero { .. }) => Float64::infinity(negative),
            (_, Class::Infinite { .. }) | (Class::Zero { .. }, _) => Float64::zero(negative),
            (Class::Nonzero(a), Class::Nonzero(b)) => {
                // Normalise both significands to 53 bits, then a 55-bit shift makes the
                // quotient at least 2^54 (55 significant bits) in a 108-bit dividend.
                let (a_significand, a_exponent) = normalised(a);
                let (b_significand, b_exponent) = normalised(b);
                let dividend = u128::from(a_significand) << GUARDED_BITS;
                let divisor = u128::from(b_significand);
                let (quotient, remainder) = (dividend / divisor, dividend % divisor);
                let exponent = a_exponent - b_exponent - GUARDED_BITS as i64;
                let (magnitude, exponent) = with_sticky(quotient, exponent, remainder != 0);
                round(negative, magnitude, exponent, rm)
            }
        }
    }

    /// `fp.fma`: `x × y + z` with a single rounding.
    pub fn fma(self, y: Float64, z: Float64, rm: RoundingMode) -> Float64 {
        let product_negative = self.is_negative_sign() != y.is_negative_sign();
        match (self.class(), y.class(), z.class()) {
            (Class::NaN, _, _) | (_, Class::NaN, _) | (_, _, Class::NaN) => Float64::NAN,
            (Class::Infinite { .. }, Class::Zero { .. }, _)
            | (Class::Zero { .. }, Class::Infinite { .. }, _) => Float64::NAN,
            (Class::Infinite { .. }, _, addend) | (_, Class::Infinite { .. }, addend) => {
                match addend {
                    Class::Infinite { negative } if negative != product_negative => Float64::NAN,
                    _ => Float64::infinity(product_negative),
                }
            }
            (_, _, Class::Infinite { .. }) => z,
            (Class::Zero { .. }, _, Class::Zero { negative })
            | (_, Class::Zero { .. }, Class::Zero { negative }) => {
                zero_sum(product_negative, negative, rm)
            }
            (Class::Zero { .. }, _, _) | (_, Class::Zero { .. }, _) => z,
            (Class::Nonzero(a), Class::Nonzero(b), addend) => {
                let product = BigUint::from(u128::from(a.significand) * u128::from(b.significand));
                let product_exponent = a.exponent + b.exponent;
                match addend {
                    Class::Nonzero(c) => {
                        let exponent = product_exponent.min(c.exponent);
                        let p = signed(
                            product_negative,
                            product << (product_exponent - exponent) as u64,
                        );
                        let c = signed(
                            c.negative,
                            BigUint::from(c.significand) << (c.exponent - exponent) as u64,
                        );
                        round_sum(p + c, exponent, rm)
                    }
                    // A zero addend: the product alone, rounded once.
                    _ => round_big(product_negative, &product, product_exponent, rm),
                }
            }
        }
    }

    /// `fp.sqrt`.
    pub fn sqrt(self, rm: RoundingMode) -> Float64 {
        match self.class() {
            Class::NaN => Float64::NAN,
            // sqrt(−0) = −0, sqrt(+0) = +0.
            Class::Zero { .. } => self,
            Class::Infinite { negative: false } => self,
            Class::Infinite { negative: true } => Float64::NAN,
            Class::Nonzero(f) if f.negative => Float64::NAN,
            Class::Nonzero(f) => {
                // Scale the significand to at least 2 × 55 bits with an even exponent, so
                // the integer square root keeps 55 significant bits.
                let (significand, exponent) = normalised(f);
                let mut shift = 2 * GUARDED_BITS as i64 - 53 + 1;
                if (exponent - shift) % 2 != 0 {
                    shift += 1;
                }
                let radicand = BigUint::from(significand) << shift as u64;
                let root = radicand.sqrt();
                let exact = &root * &root == radicand;
                let root =
                    u128::try_from(&root).expect("the root of a 112-bit radicand fits in u128");
                let (magnitude, exponent) = with_sticky(root, (exponent - shift) / 2, !exact);
                round(false, magnitude, exponent, rm)
            }
        }
    }

    /// `fp.rem`: the IEEE remainder `x − y × n` with `n` the integer nearest `x / y` (ties
    /// to even). It is always exact, so it takes no rounding mode; a zero result has the
    /// sign of `x`.
    pub fn remainder(self, other: Float64) -> Float64 {
        match (self.class(), other.class()) {
            (Class::NaN, _) | (_, Class::NaN) => Float64::NAN,
            (Class::Infinite { .. }, _) | (_, Class::Zero { .. }) => Float64::NAN,
            (Class::Zero { .. }, _) | (_, Class::Infinite { .. }) => self,
            (Class::Nonzero(x), Class::Nonzero(y)) => {
                let exponent = x.exponent.min(y.exponent);
                let x_magnitude = BigUint::from(x.significand) << (x.exponent - exponent) as u64;
                let y_magnitude = BigUint::from(y.significand) << (y.exponent - exponent) as u64;
                let (quotient, rest) = x_magnitude.div_rem(&y_magnitude);
                // n = |x|/|y| rounded to nearest, ties to even; |x| − n|y| is `rest` or
                // `rest − |y|` (negative), both exact.
                let twice_rest = &rest << 1u32;
                let round_up = match twice_rest.cmp(&y_magnitude) {
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Equal => quotient.bit(0),
                };
                let remainder = if round_up {
                    BigInt::from(rest) - BigInt::from(y_magnitude)
                } else {
                    BigInt::from(rest)
                };
                if remainder.is_zero() {
                    return Float64::zero(x.negative);
                }
                // The sign of x carries over: x rem y = sign(x) × (|x| − n|y|).
                let negative = x.negative != remainder.is_negative();
                round_big(negative, remainder.magnitude(), exponent, RoundingMode::Rne)
            }
        }
    }

    /// `fp.roundToIntegral`: the integer the rounding mode selects, as a binary64 (a zero
    /// result keeps the sign of the operand, so `RTP` of −0.5 is −0).
    pub fn round_to_integral(self, rm: RoundingMode) -> Float64 {
        match self.class() {
            Class::NaN => Float64::NAN,
            Class::Infinite { .. } | Class::Zero { .. } => self,
            Class::Nonzero(f) => {
                let integer = round_to_integer(f, rm);
                if integer.is_zero() {
                    Float64::zero(f.negative)
                } else {
                    round_big(f.negative, &integer, 0, RoundingMode::Rne)
                }
            }
        }
    }

    /// The sign bit, also for NaN (which the operations above rule out first).
    fn is_negative_sign(self) -> bool {
        self.0 >> 63 == 1
    }
}

/// A non-zero significand shifted up to exactly 53 bits, with the exponent adjusted.
fn normalised(f: Finite) -> (u64, i64) {
    let shift = f.significand.leading_zeros() as i64 - 11;
    (f.significand << shift, f.exponent - shift)
}

/// A truncated result with its sticky bit: `2q + 1` one place lower if anything was cut
/// off (the truncation has at least 55 bits, so this only sets the sticky information).
fn with_sticky(truncated: u128, exponent: i64, inexact: bool) -> (u128, i64) {
    if inexact {
        ((truncated << 1) | 1, exponent - 1)
    } else {
        (truncated, exponent)
    }
}

/// |f| rounded to an integer in the direction `rm` selects for the signed value.
fn round_to_integer(f: Finite, rm: RoundingMode) -> BigUint {
    if f.exponent >= 0 {
        return BigUint::from(f.significand) << f.exponent as u64;
    }
    let shift = (-f.exponent) as u32;
    let significand = u128::from(f.significand);
    let (truncated, round_bit, sticky) = if shift > 64 {
        // The significand (< 2^53) lies wholly below the round bit.
        (0, false, significand != 0)
    } else {
        (
            significand >> shift,
            (significand >> (shift - 1)) & 1 == 1,
            significand & ((1 << (shift - 1)) - 1) != 0,
        )
    };
    let inexact = round_bit || sticky;
    let up = match rm {
        RoundingMode::Rne => round_bit && (sticky || truncated & 1 == 1),
        RoundingMode::Rna => round_bit,
        RoundingMode::Rtp => inexact && !f.negative,
        RoundingMode::Rtn => inexact && f.negative,
        RoundingMode::Rtz => false,
    };
    BigUint::from(truncated + u128::from(up))
}

/// `to_fp` of an exact rational: a quotient with at least 55 significant bits and a
/// sticky bit, rounded.
pub(super) fn from_rational(value: &BigRational, rm: RoundingMode) -> Float64 {
    if value.is_zero() {
        return Float64::POS_ZERO;
    }
    let negative = value.is_negative();
    let numerator = value.numer().magnitude();
    let denominator = value.denom().magnitude();
    // Shift the numerator so that the quotient has at least 55 bits.
    let shift = (GUARDED_BITS as i64 + denominator.bits() as i64 - numerator.bits() as i64).max(0);
    let (quotient, remainder) = (numerator << shift as u64).div_rem(denominator);
    let (magnitude, exponent) = if remainder.is_zero() {
        (quotient, -shift)
    } else {
        ((quotient << 1u32) | BigUint::from(1u32), -shift - 1)
    };
    round_big(negative, &magnitude, exponent, rm)
}

/// The integer the rounding mode rounds a finite value to; `None` for ±∞ and NaN.
pub(super) fn to_integer(value: Float64, rm: RoundingMode) -> Option<BigInt> {
    match value.class() {
        Class::NaN | Class::Infinite { .. } => None,
        Class::Zero { .. } => Some(BigInt::zero()),
        Class::Nonzero(f) => Some(signed(f.negative, round_to_integer(f, rm))),
    }
}
