//! The one rounding function: a non-zero value `(−1)^negative × magnitude × 2^exponent` to
//! the binary64 a rounding mode selects, with overflow and gradual underflow.
//!
//! Callers whose exact result is not dyadic (division, square root, conversion of a
//! rational) pass a truncation that keeps at least 55 significant bits with its lowest bit
//! forced to 1 when anything was cut off (a *sticky* bit). Such a value lies strictly
//! between the same two rounding boundaries as the exact one, because every boundary
//! (a representable value or a midpoint) is a multiple of a power of two at least two
//! places above the truncation's lowest bit; so rounding it gives the same result.

use num_bigint::BigUint;

use super::{
    Float64, RoundingMode, EXPONENT_OFFSET, FRACTION_BITS, MAX_FINITE_BIASED_EXPONENT, MIN_EXPONENT,
};

/// The exponent of the leading bit of the largest finite value (2^1023 ≤ MAX < 2^1024).
const MAX_LEADING_EXPONENT: i64 = 1023;

/// Significant bits kept when a big magnitude is narrowed to `u128` (at least 55 are
/// needed, see the module comment; the rest is headroom).
const NARROWED_BITS: u64 = 120;

/// Round a non-zero big magnitude: narrow it to `u128` with a sticky bit, then round.
pub(super) fn round_big(
    negative: bool,
    magnitude: &BigUint,
    exponent: i64,
    rm: RoundingMode,
) -> Float64 {
    let bits = magnitude.bits();
    if bits <= 128 {
        let narrow =
            u128::try_from(magnitude).expect("a magnitude of at most 128 bits fits in u128");
        return round(negative, narrow, exponent, rm);
    }
    let dropped = bits - NARROWED_BITS;
    let sticky = magnitude
        .trailing_zeros()
        .is_some_and(|zeros| zeros < dropped);
    let kept = u128::try_from(magnitude >> dropped).expect("narrowed to 120 bits");
    // An exponent near i64::MAX is not reachable from binary64 operands and rationals
    // small enough to hold in memory; saturating keeps the arithmetic defined anyway.
    round(
        negative,
        kept | u128::from(sticky),
        exponent.saturating_add(dropped as i64),
        rm,
    )
}

/// Round the non-zero value `(−1)^negative × magnitude × 2^exponent` to binary64.
pub(super) fn round(negative: bool, magnitude: u128, exponent: i64, rm: RoundingMode) -> Float64 {
    debug_assert!(
        magnitude != 0,
        "zero results are signed by their operation, not rounded"
    );
    let leading = exponent.saturating_add(127 - i64::from(magnitude.leading_zeros()));
    if leading > MAX_LEADING_EXPONENT {
        return overflow(negative, rm);
    }
    // The weight of the result's last significand bit: 53 bits below the leading one, but
    // never below the subnormals' 2^-1074 (gradual underflow).
    let last = (leading - i64::from(FRACTION_BITS)).max(MIN_EXPONENT);
    let shift = last - exponent;
    let (mut significand, round_bit, sticky) = if shift <= 0 {
        // Exact: the magnitude has at most 53 bits above `last`.
        (magnitude << (-shift) as u32, false, false)
    } else if shift > 128 {
        // Everything is below the round bit: a non-zero value under half the last place.
        (0, false, true)
    } else {
        let shift = shift as u32;
        let kept = magnitude.checked_shr(shift).unwrap_or(0);
        let round_bit = (magnitude >> (shift - 1)) & 1 == 1;
        let below = magnitude & ((1u128 << (shift - 1)) - 1);
        (kept, round_bit, below != 0)
    };
    let inexact = round_bit || sticky;
    let away_from_zero = match rm {
        RoundingMode::Rne => round_bit && (sticky || significand & 1 == 1),
        RoundingMode::Rna => round_bit,
        RoundingMode::Rtp => inexact && !negative,
        RoundingMode::Rtn => inexact && negative,
        RoundingMode::Rtz => false,
    };
    let mut last = last;
    if away_from_zero {
        significand += 1;
        if significand == 1 << (FRACTION_BITS + 1) {
            significand >>= 1;
            last += 1;
        }
    }
    let sign = u64::from(negative) << 63;
    if significand == 0 {
        // Underflow to zero keeps the sign of the exact result.
        return Float64(sign);
    }
    let significand = significand as u64;
    if significand < 1 << FRACTION_BITS {
        // Subnormal (then `last` is 2^-1074 and the biased exponent is 0).
        return Float64(sign | significand);
    }
    let biased = (last + EXPONENT_OFFSET) as u64;
    if biased > MAX_FINITE_BIASED_EXPONENT {
        return overflow(negative, rm);
    }
    Float64(sign | (biased << FRACTION_BITS) | (significand & ((1 << FRACTION_BITS) - 1)))
}

/// The result of a value beyond the largest finite one: ∞ when rounding to nearest or
/// away from zero in the value's direction, the largest finite value otherwise.
fn overflow(negative: bool, rm: RoundingMode) -> Float64 {
    let to_infinity = match rm {
        RoundingMode::Rne | RoundingMode::Rna => true,
        RoundingMode::Rtp => !negative,
        RoundingMode::Rtn => negative,
        RoundingMode::Rtz => false,
    };
    match (to_infinity, negative) {
        (true, _) => Float64::infinity(negative),
        (false, false) => Float64::MAX,
        (false, true) => -Float64::MAX,
    }
}
