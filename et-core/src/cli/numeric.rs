//! One numeric grammar for every count, index and size on the command line (`--n`,
//! `--start`, `et index`, `--size`, `--max-size`, `--seed`), as clap value parsers, so a
//! bad value is refused by clap itself (exit 2, naming the flag and the value):
//!
//! - a decimal integer, `_` allowed between digits: `1000000`, `1_000_000`;
//! - a power `B^E`: `10^6`, `2^64`;
//! - a multiple of a power `K*B^E` or `K·B^E`: `5*10^6`, `3·10^275`.
//!
//! Every value is bounded before it is computed, so `10^99999999` is refused at once
//! instead of being built digit by digit.

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use et_core::enumeration::MAX_SIZE;

/// The most decimal digits an index may have. No grammar reaches this far within
/// [`MAX_SIZE`] (the fastest-growing built-in, fp, has about 3 digits per size unit, so
/// about 12,400 digits at size 4096); the engine then checks the index exactly against
/// the grammar.
pub const MAX_INDEX_DIGITS: u64 = 20_000;

const FORMS: &str = "a non-negative integer: decimal (1_000_000), B^E (10^6) or K*B^E (5*10^6)";

/// Parses a number in any of the forms; `max_digits` bounds it before it is computed.
fn number(text: &str, max_digits: u64) -> Result<BigUint, String> {
    let bad = || format!("`{text}` is not {FORMS}");
    let clean: String = text.trim().replace('_', "");
    if clean.is_empty() {
        return Err(bad());
    }
    let (factor, power) = match clean.split_once(['*', '·']) {
        Some((k, rest)) => (Some(k), rest),
        None => (None, clean.as_str()),
    };
    let decimal = |s: &str| -> Result<BigUint, String> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        if s.trim_start_matches('0').len() as u64 > max_digits {
            return Err(too_large(text, max_digits));
        }
        s.parse::<BigUint>().map_err(|_| bad())
    };
    let value = match power.split_once('^') {
        None => {
            if factor.is_some() {
                return Err(bad()); // `5*7` is not one of the forms
            }
            decimal(power)?
        }
        Some((base, exponent)) => {
            let base = decimal(base)?;
            if exponent.is_empty() || !exponent.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let exponent: u64 = exponent.parse().map_err(|_| too_large(text, max_digits))?;
            // B^E has at least E·(bits(B) − 1)·log10(2) digits: refuse before computing.
            let at_least =
                exponent as f64 * base.bits().saturating_sub(1) as f64 * std::f64::consts::LOG10_2;
            if at_least > max_digits as f64 + 1.0 {
                return Err(too_large(text, max_digits));
            }
            let exponent = u32::try_from(exponent).map_err(|_| too_large(text, max_digits))?;
            let value = if base <= BigUint::from(1u32) {
                if exponent == 0 {
                    BigUint::from(1u32)
                } else {
                    base
                }
            } else {
                base.pow(exponent)
            };
            match factor {
                Some(k) => decimal(k)? * value,
                None => value,
            }
        }
    };
    if value.to_string().len() as u64 > max_digits {
        return Err(too_large(text, max_digits));
    }
    Ok(value)
}

fn too_large(text: &str, max_digits: u64) -> String {
    format!("`{text}` has more than {max_digits} digits, the most et accepts here")
}

/// A global index: `--start`, `et index`.
pub fn index(text: &str) -> Result<BigUint, String> {
    number(text, MAX_INDEX_DIGITS)
}

/// How many formulas: at least 1 (an empty run or listing helps nobody).
pub fn count(text: &str) -> Result<u64, String> {
    let value = number(text, 20)?;
    if value.is_zero() {
        return Err("must be at least 1".to_string());
    }
    value
        .to_u64()
        .ok_or_else(|| format!("`{text}` is larger than {}", u64::MAX))
}

/// Any 64-bit value, zero included (`--seed`).
pub fn unsigned(text: &str) -> Result<u64, String> {
    number(text, 20)?
        .to_u64()
        .ok_or_else(|| format!("`{text}` is larger than {}", u64::MAX))
}

/// A formula size, at most [`MAX_SIZE`], the largest et enumerates.
pub fn size(text: &str) -> Result<u32, String> {
    let value = number(text, 10)?;
    match value.to_u32() {
        Some(size) if size <= MAX_SIZE => Ok(size),
        _ => Err(format!(
            "size {value} is larger than {MAX_SIZE}, the largest size et enumerates"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_grammar_for_every_form() {
        assert_eq!(index("1_000_000").unwrap(), BigUint::from(1_000_000u32));
        assert_eq!(index("10^6").unwrap(), BigUint::from(1_000_000u32));
        assert_eq!(index("5*10^6").unwrap(), BigUint::from(5_000_000u32));
        assert_eq!(index("3·10^2").unwrap(), BigUint::from(300u32));
        assert_eq!(index("2^10").unwrap(), BigUint::from(1024u32));
        assert_eq!(index("0^0").unwrap(), BigUint::from(1u32));
        assert_eq!(count("10^6").unwrap(), 1_000_000);
        assert_eq!(size("2^12").unwrap(), 4096);
        assert_eq!(unsigned("0").unwrap(), 0);
    }

    #[test]
    fn bad_values_are_named() {
        for bad in [
            "", "12x", "-1", "10^", "^3", "1.5", "5*7", "10^-2", "1e6", "10^^2",
        ] {
            let err = index(bad).unwrap_err();
            assert!(err.contains(&format!("`{bad}`")), "{bad}: {err}");
        }
        assert!(count("0").unwrap_err().contains("at least 1"));
        assert!(count("10^20").unwrap_err().contains("larger than"));
        assert!(size("4097").unwrap_err().contains("4096"));
    }

    #[test]
    fn huge_values_are_refused_before_they_are_computed() {
        // 10^(10^12) would take terabytes; the bound is checked on the exponent.
        let err = index("10^1000000000000").unwrap_err();
        assert!(err.contains("more than 20000 digits"), "{err}");
        assert!(index("10^19999").is_ok());
        assert!(index("10^20000").is_err());
        assert!(index(&"9".repeat(20_001)).is_err());
    }
}
