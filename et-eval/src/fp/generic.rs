//! IEEE 754 binary floating point of any format `(_ FloatingPoint eb sb)` (Float16,
//! Float32, Float128, ...), exactly: every operation computes the exact rational result
//! and rounds it once (square roots by an integer square root with enough bits that
//! no rounding boundary lies between the bounds). Binary64 has its own faster
//! implementation ([`super::Float64`]); both agree on every operation.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::{Float64, RoundingMode};

/// The widest exponent field supported (exponents are held in an `i64`).
pub const MAX_EXPONENT_BITS: u32 = 30;
/// The widest significand supported (with the hidden bit).
pub const MAX_SIGNIFICAND_BITS: u32 = 1 << 16;

/// A floating-point value of format (eb, sb): its IEEE bits, every NaN normalised to one
/// (SMT-LIB has a single NaN), so derived equality is SMT-LIB's `=`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fp {
    /// Exponent bits.
    pub eb: u32,
    /// Significand bits, the hidden bit included.
    pub sb: u32,
    bits: BigUint,
}

/// What `fp.min`/`fp.max` return (as for binary64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenericExtremum {
    /// The result.
    Value(Fp),
    /// +0 or −0, unspecified which.
    EitherZero,
}

fn pow2(k: i64) -> BigRational {
    if k >= 0 {
        BigRational::from_integer(BigInt::one() << k as usize)
    } else {
        BigRational::new(BigInt::one(), BigInt::one() << (-k) as usize)
    }
}

fn mask(bits: u32) -> BigUint {
    (BigUint::one() << bits as usize) - BigUint::one()
}

/// ⌊log2 q⌋ for q > 0.
fn floor_log2(q: &BigRational) -> i64 {
    let e = q.numer().bits() as i64 - q.denom().bits() as i64;
    // 2^(e−1) < q < 2^(e+1): one comparison settles it.
    if *q >= pow2(e) {
        e
    } else {
        e - 1
    }
}

/// The integer `rm` rounds `m` ≥ 0 to, for a number of sign `negative`.
fn round_integer(m: &BigRational, negative: bool, rm: RoundingMode) -> BigInt {
    let floor = m.floor().to_integer();
    let frac = m - BigRational::from_integer(floor.clone());
    if frac.is_zero() {
        return floor;
    }
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    let up = match rm {
        RoundingMode::Rne => frac > half || (frac == half && floor.is_odd()),
        RoundingMode::Rna => frac >= half,
        RoundingMode::Rtp => !negative,
        RoundingMode::Rtn => negative,
        RoundingMode::Rtz => false,
    };
    if up {
        floor + 1
    } else {
        floor
    }
}

impl Fp {
    fn check(eb: u32, sb: u32) -> bool {
        (2..=MAX_EXPONENT_BITS).contains(&eb) && (2..=MAX_SIGNIFICAND_BITS).contains(&sb)
    }

    /// Whether (eb, sb) is a supported format.
    pub fn format_supported(eb: u32, sb: u32) -> bool {
        Fp::check(eb, sb)
    }

    fn bias(&self) -> i64 {
        (1i64 << (self.eb - 1)) - 1
    }

    fn max_exp_field(&self) -> u64 {
        (1u64 << self.eb) - 1
    }

    /// The value of IEEE bits `bits` (1 + eb + sb − 1 of them).
    pub fn from_bits(eb: u32, sb: u32, bits: BigUint) -> Fp {
        let mut x = Fp {
            eb,
            sb,
            bits: bits & mask(eb + sb),
        };
        if x.is_nan() {
            x = Fp::nan(eb, sb);
        }
        x
    }

    /// The IEEE bits.
    pub fn bits(&self) -> &BigUint {
        &self.bits
    }

    /// From its three fields.
    pub fn from_fields(eb: u32, sb: u32, sign: &BigUint, exp: &BigUint, frac: &BigUint) -> Fp {
        let bits = (sign << (eb + sb - 1) as usize) | (exp << (sb - 1) as usize) | frac;
        Fp::from_bits(eb, sb, bits)
    }

    /// NaN.
    pub fn nan(eb: u32, sb: u32) -> Fp {
        let exp = mask(eb) << (sb - 1) as usize;
        Fp {
            eb,
            sb,
            bits: exp | (BigUint::one() << (sb - 2) as usize),
        }
    }

    /// ±∞.
    pub fn infinity(eb: u32, sb: u32, negative: bool) -> Fp {
        let sign = BigUint::from(u8::from(negative)) << (eb + sb - 1) as usize;
        Fp {
            eb,
            sb,
            bits: sign | (mask(eb) << (sb - 1) as usize),
        }
    }

    /// ±0.
    pub fn zero(eb: u32, sb: u32, negative: bool) -> Fp {
        Fp {
            eb,
            sb,
            bits: BigUint::from(u8::from(negative)) << (eb + sb - 1) as usize,
        }
    }

    /// The largest finite magnitude, with a sign.
    pub fn max_finite(eb: u32, sb: u32, negative: bool) -> Fp {
        let sign = BigUint::from(u8::from(negative)) << (eb + sb - 1) as usize;
        let exp = (mask(eb) - BigUint::one()) << (sb - 1) as usize;
        Fp {
            eb,
            sb,
            bits: sign | exp | mask(sb - 1),
        }
    }

    /// From a binary64.
    pub fn from_float64(x: Float64) -> Fp {
        Fp::from_bits(11, 53, BigUint::from(x.to_bits()))
    }

    /// As a binary64, if of that format.
    pub fn to_float64(&self) -> Option<Float64> {
        (self.eb == 11 && self.sb == 53)
            .then(|| Float64::from_bits(self.bits.iter_u64_digits().next().unwrap_or(0)))
    }

    fn sign_bit(&self) -> bool {
        self.bits.bit(u64::from(self.eb + self.sb - 1))
    }

    fn exp_field(&self) -> u64 {
        let e = (&self.bits >> (self.sb - 1) as usize) & mask(self.eb);
        e.iter_u64_digits().next().unwrap_or(0)
    }

    fn frac(&self) -> BigUint {
        &self.bits & mask(self.sb - 1)
    }

    /// `fp.isNaN`.
    pub fn is_nan(&self) -> bool {
        self.exp_field() == self.max_exp_field() && !self.frac().is_zero()
    }

    /// `fp.isInfinite`.
    pub fn is_infinite(&self) -> bool {
        self.exp_field() == self.max_exp_field() && self.frac().is_zero()
    }

    /// `fp.isZero`.
    pub fn is_zero(&self) -> bool {
        self.exp_field() == 0 && self.frac().is_zero()
    }

    /// `fp.isSubnormal`.
    pub fn is_subnormal(&self) -> bool {
        self.exp_field() == 0 && !self.frac().is_zero()
    }

    /// `fp.isNormal`.
    pub fn is_normal(&self) -> bool {
        let e = self.exp_field();
        e != 0 && e != self.max_exp_field()
    }

    /// `fp.isNegative`.
    pub fn is_negative(&self) -> bool {
        !self.is_nan() && self.sign_bit()
    }

    /// `fp.isPositive`.
    pub fn is_positive(&self) -> bool {
        !self.is_nan() && !self.sign_bit()
    }

    /// `fp.abs`.
    pub fn abs(&self) -> Fp {
        if self.is_nan() {
            return self.clone();
        }
        Fp::from_bits(self.eb, self.sb, &self.bits & mask(self.eb + self.sb - 1))
    }

    /// `fp.neg`.
    pub fn neg(&self) -> Fp {
        if self.is_nan() {
            return self.clone();
        }
        let top = BigUint::one() << (self.eb + self.sb - 1) as usize;
        Fp::from_bits(self.eb, self.sb, &self.bits ^ top)
    }

    /// The exact value of a finite number (`None` for ±∞ and NaN).
    pub fn to_rational(&self) -> Option<BigRational> {
        if self.is_nan() || self.is_infinite() {
            return None;
        }
        let e = self.exp_field();
        let emin = 1 - self.bias();
        let (significand, exponent) = if e == 0 {
            (self.frac(), emin)
        } else {
            (
                self.frac() | (BigUint::one() << (self.sb - 1) as usize),
                e as i64 - self.bias(),
            )
        };
        let mut q = BigRational::from_integer(BigInt::from(significand))
            * pow2(exponent - i64::from(self.sb - 1));
        if self.sign_bit() {
            q = -q;
        }
        Some(q)
    }

    /// The number `rm` selects for the exact `q` (zero gives +0).
    pub fn from_rational(eb: u32, sb: u32, q: &BigRational, rm: RoundingMode) -> Fp {
        if q.is_zero() {
            return Fp::zero(eb, sb, false);
        }
        Fp::round(eb, sb, q.is_negative(), &q.abs(), rm)
    }

    /// Rounds the magnitude `q` > 0 of a number of sign `negative`.
    fn round(eb: u32, sb: u32, negative: bool, q: &BigRational, rm: RoundingMode) -> Fp {
        let proto = Fp::zero(eb, sb, false);
        let bias = proto.bias();
        let emin = 1 - bias;
        let mut e = floor_log2(q).max(emin);
        let mut n = round_integer(&(q * pow2(i64::from(sb - 1) - e)), negative, rm);
        if n.bits() > u64::from(sb) {
            // Rounded up to 2^sb: one more binade.
            n >>= 1;
            e += 1;
        }
        if n.is_zero() {
            return Fp::zero(eb, sb, negative);
        }
        if e > bias {
            let to_infinity = match rm {
                RoundingMode::Rne | RoundingMode::Rna => true,
                RoundingMode::Rtz => false,
                RoundingMode::Rtp => !negative,
                RoundingMode::Rtn => negative,
            };
            return if to_infinity {
                Fp::infinity(eb, sb, negative)
            } else {
                Fp::max_finite(eb, sb, negative)
            };
        }
        let n = n.to_biguint().unwrap_or_default();
        let hidden = BigUint::one() << (sb - 1) as usize;
        let (exp, frac) = if n < hidden {
            (BigUint::zero(), n)
        } else {
            (BigUint::from((e + bias) as u64), n - hidden)
        };
        Fp::from_fields(eb, sb, &BigUint::from(u8::from(negative)), &exp, &frac)
    }

    /// Sum of exact values with IEEE's zero signs: an exact zero sum of non-zero
    /// operands (or of zeros of different signs) is +0, −0 under RTN.
    fn round_sum(&self, q: BigRational, both_negative_zero: bool, rm: RoundingMode) -> Fp {
        if q.is_zero() {
            return Fp::zero(
                self.eb,
                self.sb,
                both_negative_zero || rm == RoundingMode::Rtn,
            );
        }
        Fp::round(self.eb, self.sb, q.is_negative(), &q.abs(), rm)
    }

    /// `fp.add`.
    pub fn add(&self, y: &Fp, rm: RoundingMode) -> Fp {
        let (eb, sb) = (self.eb, self.sb);
        if self.is_nan() || y.is_nan() {
            return Fp::nan(eb, sb);
        }
        match (self.is_infinite(), y.is_infinite()) {
            (true, true) if self.sign_bit() != y.sign_bit() => return Fp::nan(eb, sb),
            (true, _) => return self.clone(),
            (_, true) => return y.clone(),
            _ => {}
        }
        let (a, b) = (self.to_rational(), y.to_rational());
        let (Some(a), Some(b)) = (a, b) else {
            return Fp::nan(eb, sb);
        };
        if self.is_zero() && y.is_zero() {
            let negative = if self.sign_bit() == y.sign_bit() {
                self.sign_bit()
            } else {
                rm == RoundingMode::Rtn
            };
            return Fp::zero(eb, sb, negative);
        }
        self.round_sum(a + b, false, rm)
    }

    /// `fp.sub`.
    pub fn sub(&self, y: &Fp, rm: RoundingMode) -> Fp {
        self.add(&y.neg(), rm)
    }

    /// `fp.mul`.
    pub fn mul(&self, y: &Fp, rm: RoundingMode) -> Fp {
        let (eb, sb) = (self.eb, self.sb);
        let negative = self.sign_bit() != y.sign_bit();
        if self.is_nan() || y.is_nan() {
            return Fp::nan(eb, sb);
        }
        if (self.is_infinite() && y.is_zero()) || (self.is_zero() && y.is_infinite()) {
            return Fp::nan(eb, sb);
        }
        if self.is_infinite() || y.is_infinite() {
            return Fp::infinity(eb, sb, negative);
        }
        if self.is_zero() || y.is_zero() {
            return Fp::zero(eb, sb, negative);
        }
        let (Some(a), Some(b)) = (self.to_rational(), y.to_rational()) else {
            return Fp::nan(eb, sb);
        };
        Fp::round(eb, sb, negative, &(a * b).abs(), rm)
    }

    /// `fp.div`.
    pub fn div(&self, y: &Fp, rm: RoundingMode) -> Fp {
        let (eb, sb) = (self.eb, self.sb);
        let negative = self.sign_bit() != y.sign_bit();
        if self.is_nan() || y.is_nan() {
            return Fp::nan(eb, sb);
        }
        if (self.is_infinite() && y.is_infinite()) || (self.is_zero() && y.is_zero()) {
            return Fp::nan(eb, sb);
        }
        if self.is_infinite() || y.is_zero() {
            return Fp::infinity(eb, sb, negative);
        }
        if y.is_infinite() || self.is_zero() {
            return Fp::zero(eb, sb, negative);
        }
        let (Some(a), Some(b)) = (self.to_rational(), y.to_rational()) else {
            return Fp::nan(eb, sb);
        };
        Fp::round(eb, sb, negative, &(a / b).abs(), rm)
    }

    /// `fp.fma`: x·y + z rounded once.
    pub fn fma(&self, y: &Fp, z: &Fp, rm: RoundingMode) -> Fp {
        let (eb, sb) = (self.eb, self.sb);
        if self.is_nan() || y.is_nan() || z.is_nan() {
            return Fp::nan(eb, sb);
        }
        let product_negative = self.sign_bit() != y.sign_bit();
        if (self.is_infinite() && y.is_zero()) || (self.is_zero() && y.is_infinite()) {
            return Fp::nan(eb, sb);
        }
        if self.is_infinite() || y.is_infinite() {
            if z.is_infinite() && z.sign_bit() != product_negative {
                return Fp::nan(eb, sb);
            }
            return Fp::infinity(eb, sb, product_negative);
        }
        if z.is_infinite() {
            return z.clone();
        }
        let (Some(a), Some(b), Some(c)) = (self.to_rational(), y.to_rational(), z.to_rational())
        else {
            return Fp::nan(eb, sb);
        };
        let product = a * b;
        if product.is_zero() && z.is_zero() {
            let negative = if product_negative == z.sign_bit() {
                product_negative
            } else {
                rm == RoundingMode::Rtn
            };
            return Fp::zero(eb, sb, negative);
        }
        self.round_sum(product + c, false, rm)
    }

    /// `fp.sqrt`.
    pub fn sqrt(&self, rm: RoundingMode) -> Fp {
        let (eb, sb) = (self.eb, self.sb);
        if self.is_nan() || (self.sign_bit() && !self.is_zero()) {
            return Fp::nan(eb, sb);
        }
        if self.is_zero() || self.is_infinite() {
            return self.clone();
        }
        let Some(q) = self.to_rational() else {
            return Fp::nan(eb, sb);
        };
        // √(n/d) = √(n·d)/d. With N = n·d·4^k, s = ⌊√N⌋: the root lies in
        // [s, s+1)/(d·2^k), and for k ≥ bias + sb every rounding boundary (a multiple
        // of half an ulp, at least 2^(1−bias−sb)) is an integer in those units, so
        // rounding (s + ½) (or s when exact) gives the root's rounding.
        let k = (self.bias() + i64::from(sb) + 2) as usize;
        let n = q.numer() * q.denom();
        let big = n.to_biguint().unwrap_or_default() << (2 * k);
        let s = big.sqrt();
        let exact = &s * &s == big;
        let scale = BigRational::from_integer(q.denom() << k);
        let approx = if exact {
            BigRational::from_integer(BigInt::from(s)) / scale
        } else {
            (BigRational::from_integer(BigInt::from(s)) + BigRational::new(1.into(), 2.into()))
                / scale
        };
        Fp::round(eb, sb, false, &approx, rm)
    }

    /// `fp.rem`: x − y·n with n the integer nearest x/y (ties to even); exact.
    pub fn rem(&self, y: &Fp) -> Fp {
        let (eb, sb) = (self.eb, self.sb);
        if self.is_nan() || y.is_nan() || self.is_infinite() || y.is_zero() {
            return Fp::nan(eb, sb);
        }
        if y.is_infinite() || self.is_zero() {
            return self.clone();
        }
        let (Some(a), Some(b)) = (self.to_rational(), y.to_rational()) else {
            return Fp::nan(eb, sb);
        };
        let quotient = &a / &b;
        let n = round_integer(&quotient.abs(), false, RoundingMode::Rne)
            * if quotient.is_negative() { -1 } else { 1 };
        let r = a - b * BigRational::from_integer(n);
        if r.is_zero() {
            return Fp::zero(eb, sb, self.sign_bit());
        }
        Fp::from_rational(eb, sb, &r, RoundingMode::Rne)
    }

    /// `fp.roundToIntegral`.
    pub fn round_to_integral(&self, rm: RoundingMode) -> Fp {
        if self.is_nan() || self.is_infinite() || self.is_zero() {
            return self.clone();
        }
        let Some(n) = self.to_integer(rm) else {
            return self.clone();
        };
        if n.is_zero() {
            return Fp::zero(self.eb, self.sb, self.sign_bit());
        }
        Fp::from_rational(
            self.eb,
            self.sb,
            &BigRational::from_integer(n),
            RoundingMode::Rne,
        )
    }

    /// The integer `rm` rounds a finite value to.
    pub fn to_integer(&self, rm: RoundingMode) -> Option<BigInt> {
        let q = self.to_rational()?;
        let n = round_integer(&q.abs(), q.is_negative(), rm);
        Some(if q.is_negative() { -n } else { n })
    }

    /// IEEE comparison (`None` when a NaN is involved).
    fn compare(&self, y: &Fp) -> Option<Ordering> {
        if self.is_nan() || y.is_nan() {
            return None;
        }
        let value = |x: &Fp| -> (i8, Option<BigRational>) {
            if x.is_infinite() {
                (if x.sign_bit() { -1 } else { 1 }, None)
            } else {
                (0, x.to_rational())
            }
        };
        let (a, b) = (value(self), value(y));
        Some(match a.0.cmp(&b.0) {
            Ordering::Equal if a.0 == 0 => a.1.cmp(&b.1),
            o => o,
        })
    }

    /// `fp.eq`.
    pub fn fp_eq(&self, y: &Fp) -> bool {
        self.compare(y) == Some(Ordering::Equal)
    }

    /// `fp.lt`.
    pub fn lt(&self, y: &Fp) -> bool {
        self.compare(y) == Some(Ordering::Less)
    }

    /// `fp.leq`.
    pub fn leq(&self, y: &Fp) -> bool {
        matches!(self.compare(y), Some(Ordering::Less | Ordering::Equal))
    }

    /// `fp.min` / `fp.max`.
    pub fn extremum(&self, y: &Fp, max: bool) -> GenericExtremum {
        if self.is_nan() {
            return GenericExtremum::Value(y.clone());
        }
        if y.is_nan() {
            return GenericExtremum::Value(self.clone());
        }
        if self.is_zero() && y.is_zero() && self.sign_bit() != y.sign_bit() {
            return GenericExtremum::EitherZero;
        }
        let first = match self.compare(y) {
            Some(Ordering::Less) => !max,
            Some(Ordering::Greater) => max,
            _ => true,
        };
        GenericExtremum::Value(if first { self.clone() } else { y.clone() })
    }

    /// Converts to another format (`to_fp` of a floating-point value).
    pub fn convert(&self, eb: u32, sb: u32, rm: RoundingMode) -> Fp {
        if self.is_nan() {
            return Fp::nan(eb, sb);
        }
        if self.is_infinite() {
            return Fp::infinity(eb, sb, self.sign_bit());
        }
        if self.is_zero() {
            return Fp::zero(eb, sb, self.sign_bit());
        }
        match self.to_rational() {
            Some(q) => Fp::from_rational(eb, sb, &q, rm),
            None => Fp::nan(eb, sb),
        }
    }
}

impl fmt::Display for Fp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (eb, sb) = (self.eb, self.sb);
        if self.is_nan() {
            return write!(f, "(_ NaN {eb} {sb})");
        }
        if self.is_infinite() {
            let s = if self.sign_bit() { "-" } else { "+" };
            return write!(f, "(_ {s}oo {eb} {sb})");
        }
        if self.is_zero() {
            let s = if self.sign_bit() { "-" } else { "+" };
            return write!(f, "(_ {s}zero {eb} {sb})");
        }
        let exp = BigUint::from(self.exp_field());
        write!(
            f,
            "(fp #b{} #b{:0>ew$} #b{:0>sw$})",
            u8::from(self.sign_bit()),
            exp.to_str_radix(2),
            self.frac().to_str_radix(2),
            ew = eb as usize,
            sw = (sb - 1) as usize
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generic implementation agrees with binary64 (hardware f64 for the basic
    /// operations, which IEEE requires to be correctly rounded).
    #[test]
    fn agrees_with_binary64() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            0.1,
            3.0,
            1e308,
            -1e-310,
            5e-324,
            2.0f64.sqrt(),
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            123456.789,
        ];
        let g = |x: f64| Fp::from_float64(Float64::from_f64(x));
        for &a in &values {
            for &b in &values {
                let rm = RoundingMode::Rne;
                for (name, got, want) in [
                    ("add", g(a).add(&g(b), rm), g(a + b)),
                    ("sub", g(a).sub(&g(b), rm), g(a - b)),
                    ("mul", g(a).mul(&g(b), rm), g(a * b)),
                    ("div", g(a).div(&g(b), rm), g(a / b)),
                    ("fma", g(a).fma(&g(b), &g(1.0), rm), g(a.mul_add(b, 1.0))),
                ] {
                    assert_eq!(got, want, "{name} {a} {b}");
                }
                assert_eq!(g(a).lt(&g(b)), a < b, "lt {a} {b}");
                assert_eq!(g(a).fp_eq(&g(b)), a == b, "eq {a} {b}");
            }
            assert_eq!(g(a).sqrt(RoundingMode::Rne), g(a.sqrt()), "sqrt {a}");
            assert_eq!(
                g(a).round_to_integral(RoundingMode::Rtz),
                g(a.trunc()),
                "trunc {a}"
            );
        }
    }

    #[test]
    fn small_formats_round_and_overflow() {
        // Float16: 65504 is the largest finite; 65520 rounds to ∞ under RNE.
        let h = |q: i64, rm| Fp::from_rational(5, 11, &BigRational::from_integer(q.into()), rm);
        assert_eq!(h(65504, RoundingMode::Rne), Fp::max_finite(5, 11, false));
        assert_eq!(h(65520, RoundingMode::Rne), Fp::infinity(5, 11, false));
        assert_eq!(h(65520, RoundingMode::Rtz), Fp::max_finite(5, 11, false));
        assert_eq!(h(-70000, RoundingMode::Rtp), Fp::max_finite(5, 11, true));
        // Float32's 1/3.
        let third = Fp::from_rational(
            8,
            24,
            &BigRational::new(1.into(), 3.into()),
            RoundingMode::Rne,
        );
        assert_eq!(
            third.to_string(),
            "(fp #b0 #b01111101 #b01010101010101010101011)"
        );
        assert_eq!(
            Fp::from_rational(
                8,
                24,
                &BigRational::new(1.into(), 3.into()),
                RoundingMode::Rtz
            )
            .to_string(),
            "(fp #b0 #b01111101 #b01010101010101010101010)"
        );
        // The smallest Float16 subnormal is 2^−24; half of it ties to even (zero).
        let tiny = Fp::from_rational(5, 11, &pow2(-24), RoundingMode::Rne);
        assert!(tiny.is_subnormal());
        assert!(Fp::from_rational(5, 11, &pow2(-25), RoundingMode::Rne).is_zero());
        assert!(!Fp::from_rational(5, 11, &pow2(-25), RoundingMode::Rtp).is_zero());
    }
}
