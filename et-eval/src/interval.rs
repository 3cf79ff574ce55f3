//! Rigorous enclosures of real numbers: intervals with exact rational endpoints, and
//! `sin`, `cos`, `tan` and π bounded from both sides.
//!
//! Transcendental values are computed in fixed point (big integers scaled by `2^w`)
//! with every rounding error counted, so the true value always lies inside the
//! interval returned; a comparison is decided only when intervals separate.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// A closed interval of reals; `None` endpoints are infinite.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Interval {
    /// Lower bound (`None`: −∞).
    pub lo: Option<BigRational>,
    /// Upper bound (`None`: +∞).
    pub hi: Option<BigRational>,
}

impl Interval {
    /// The single point `q`.
    pub fn point(q: BigRational) -> Interval {
        Interval {
            lo: Some(q.clone()),
            hi: Some(q),
        }
    }

    /// All reals.
    pub fn whole() -> Interval {
        Interval { lo: None, hi: None }
    }

    /// `[lo, hi]`.
    pub fn new(lo: BigRational, hi: BigRational) -> Interval {
        Interval {
            lo: Some(lo),
            hi: Some(hi),
        }
    }

    /// Whether both ends are finite.
    pub fn is_bounded(&self) -> bool {
        self.lo.is_some() && self.hi.is_some()
    }

    /// The sign every point of the interval has: `Less` (all < 0), `Greater` (all > 0),
    /// `Equal` (the interval is the point 0), or `None` when it contains 0 and more.
    pub fn sign(&self) -> Option<Ordering> {
        let zero = BigRational::zero();
        if self.hi.as_ref().is_some_and(|h| *h < zero) {
            return Some(Ordering::Less);
        }
        if self.lo.as_ref().is_some_and(|l| *l > zero) {
            return Some(Ordering::Greater);
        }
        if self.lo.as_ref() == Some(&zero) && self.hi.as_ref() == Some(&zero) {
            return Some(Ordering::Equal);
        }
        None
    }

    /// Whether 0 may lie in the interval.
    pub fn contains_zero(&self) -> bool {
        !matches!(self.sign(), Some(Ordering::Less | Ordering::Greater))
    }

    /// `self + other`.
    pub fn add(&self, other: &Interval) -> Interval {
        Interval {
            lo: both(&self.lo, &other.lo, |a, b| a + b),
            hi: both(&self.hi, &other.hi, |a, b| a + b),
        }
    }

    /// `-self`.
    pub fn neg(&self) -> Interval {
        Interval {
            lo: self.hi.as_ref().map(|h| -h),
            hi: self.lo.as_ref().map(|l| -l),
        }
    }

    /// `k · self`.
    pub fn scale(&self, k: &BigRational) -> Interval {
        if k.is_zero() {
            return Interval::point(BigRational::zero());
        }
        let scaled = Interval {
            lo: self.lo.as_ref().map(|l| l * k.abs()),
            hi: self.hi.as_ref().map(|h| h * k.abs()),
        };
        if k.is_negative() {
            scaled.neg()
        } else {
            scaled
        }
    }

    /// `self · other`.
    pub fn mul(&self, other: &Interval) -> Interval {
        if self.sign() == Some(Ordering::Equal) || other.sign() == Some(Ordering::Equal) {
            return Interval::point(BigRational::zero());
        }
        if !self.is_bounded() || !other.is_bounded() {
            return Interval::whole();
        }
        let (a, b) = (self.lo.as_ref().unwrap(), self.hi.as_ref().unwrap());
        let (c, d) = (other.lo.as_ref().unwrap(), other.hi.as_ref().unwrap());
        let products = [a * c, a * d, b * c, b * d];
        let lo = products.iter().min().unwrap().clone();
        let hi = products.iter().max().unwrap().clone();
        Interval::new(lo, hi)
    }

    /// `self / other`, `None` when `other` may contain 0.
    pub fn div(&self, other: &Interval) -> Option<Interval> {
        if other.contains_zero() || !other.is_bounded() {
            return None;
        }
        let (c, d) = (other.lo.as_ref().unwrap(), other.hi.as_ref().unwrap());
        Some(self.mul(&Interval::new(d.recip(), c.recip())))
    }

    /// The smallest interval holding both.
    pub fn hull(&self, other: &Interval) -> Interval {
        Interval {
            lo: both(&self.lo, &other.lo, |a, b| a.min(b)),
            hi: both(&self.hi, &other.hi, |a, b| a.max(b)),
        }
    }

    /// Whether the two intervals may share a point.
    pub fn meets(&self, other: &Interval) -> bool {
        let below = |hi: &Option<BigRational>, lo: &Option<BigRational>| matches!((hi, lo), (Some(h), Some(l)) if h < l);
        !below(&self.hi, &other.lo) && !below(&other.hi, &self.lo)
    }

    /// `floor` of every point: an interval of integers.
    pub fn floor(&self) -> Interval {
        Interval {
            lo: self.lo.as_ref().map(|l| l.floor()),
            hi: self.hi.as_ref().map(|h| h.floor()),
        }
    }

    /// `|x|` of every point.
    pub fn abs(&self) -> Interval {
        match self.sign() {
            Some(Ordering::Less) => self.neg(),
            Some(_) => self.clone(),
            None => Interval {
                lo: Some(BigRational::zero()),
                hi: both(&self.hi, &self.lo.as_ref().map(|l| -l), |a, b| a.max(b)),
            },
        }
    }
}

fn both(
    a: &Option<BigRational>,
    b: &Option<BigRational>,
    f: impl Fn(BigRational, BigRational) -> BigRational,
) -> Option<BigRational> {
    match (a, b) {
        (Some(a), Some(b)) => Some(f(a.clone(), b.clone())),
        _ => None,
    }
}

/// Guard bits added to every fixed-point computation.
const GUARD: u64 = 32;

/// Most cached sin/cos enclosures per thread (the cache is emptied when full).
const TRIG_CACHE_SIZE: usize = 4096;

thread_local! {
    static TRIG_CACHE: RefCell<HashMap<(bool, BigRational, u64), Interval>> = RefCell::new(HashMap::new());
    static PI_CACHE: RefCell<HashMap<u64, (BigInt, BigInt)>> = RefCell::new(HashMap::new());
}

/// `(lo, hi)` with `lo ≤ π·2^w ≤ hi`, by Machin's formula π = 16·atan(1/5) − 4·atan(1/239).
fn pi_fixed(w: u64) -> (BigInt, BigInt) {
    // Computed at a multiple of 256 bits and cut down, so that the few widths asked
    // for share one cached value.
    let cached = w.div_ceil(256) * 256;
    let (lo, hi) = pi_fixed_exact(cached);
    let shift = cached - w;
    (lo >> shift, (hi >> shift) + 1)
}

fn pi_fixed_exact(w: u64) -> (BigInt, BigInt) {
    if let Some(hit) = PI_CACHE.with(|c| c.borrow().get(&w).cloned()) {
        return hit;
    }
    let scale = w + GUARD;
    let (a, ea) = atan_inverse(5, scale);
    let (b, eb) = atan_inverse(239, scale);
    let lo: BigInt = (BigInt::from(16) * (&a - ea) - BigInt::from(4) * (&b + eb)) >> GUARD;
    let hi: BigInt = ((BigInt::from(16) * (&a + ea) - BigInt::from(4) * (&b - eb)) >> GUARD) + 1;
    PI_CACHE.with(|c| c.borrow_mut().insert(w, (lo.clone(), hi.clone())));
    (lo, hi)
}

/// `atan(1/n)·2^w` as a value and an error bound in units of `2^-w`.
fn atan_inverse(n: u64, w: u64) -> (BigInt, u64) {
    let one = BigInt::one() << w;
    let n2 = BigInt::from(n * n);
    let mut power = one / n; // 2^w / n^(2k+1), truncated
    let mut sum = BigInt::zero();
    let mut k = 0u64;
    while !power.is_zero() {
        let term = &power / (2 * k + 1);
        if k.is_multiple_of(2) {
            sum += term;
        } else {
            sum -= term;
        }
        power /= &n2;
        k += 1;
    }
    // Two truncations per term, plus the omitted tail (below one unit).
    (sum, 2 * k + 2)
}

/// `sin(y)` and `cos(y)` for a fixed-point `y = Y·2^-w` with `|y| ≤ 1`, each as
/// `(value, error bound)` in units of `2^-w`.
fn sin_cos_fixed(y: &BigInt, w: u64) -> ((BigInt, u64), (BigInt, u64)) {
    let y2 = (y * y) >> w;
    let series = |first: BigInt, start: u64| {
        // Terms first, first·(−y²)/((start+1)(start+2)), ...: alternating, decreasing.
        let mut term = first;
        let mut sum = term.clone();
        let mut k = start;
        let mut n = 1u64;
        while !term.is_zero() {
            term = ((&term * &y2) >> w) / ((k + 1) * (k + 2));
            term = -term;
            sum += &term;
            k += 2;
            n += 1;
        }
        (sum, 4 * n + 8)
    };
    (series(y.clone(), 1), series(BigInt::one() << w, 0))
}

fn fixed_to_interval(value: &BigInt, error: u64, w: u64) -> Interval {
    let denom = BigInt::one() << w;
    Interval::new(
        BigRational::new(value - error, denom.clone()),
        BigRational::new(value + error, denom),
    )
}

/// Arguments beyond 2^this get the trivial enclosure [−1, 1] (argument reduction would
/// need that many more bits of π).
const MAX_MAGNITUDE_BITS: u64 = 4096;

/// Which of sin and cos.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trig {
    Sin,
    Cos,
}

/// `sin(x)` or `cos(x)` for an exact rational `x`, to about `prec` bits.
fn trig_point(f: Trig, x: &BigRational, prec: u64) -> Interval {
    // Searches evaluate the same few points again and again.
    let key = (f == Trig::Sin, x.clone(), prec);
    if let Some(hit) = TRIG_CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return hit;
    }
    let result = trig_point_uncached(f, x, prec);
    TRIG_CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= TRIG_CACHE_SIZE {
            c.clear();
        }
        c.insert(key, result.clone());
    });
    result
}

fn trig_point_uncached(f: Trig, x: &BigRational, prec: u64) -> Interval {
    if x.is_zero() {
        return Interval::point(if f == Trig::Sin {
            BigRational::zero()
        } else {
            BigRational::one()
        });
    }
    let magnitude = x.abs().ceil().to_integer().bits();
    if magnitude > MAX_MAGNITUDE_BITS {
        return Interval::new(-BigRational::one(), BigRational::one());
    }
    let w = prec + GUARD + 2 * magnitude + 8;
    // X ∈ [x_lo, x_hi], in units of 2^-w.
    let scaled = x * BigRational::from_integer(BigInt::one() << w);
    let (x_lo, x_hi) = (scaled.floor().to_integer(), scaled.ceil().to_integer());
    let (pi_lo, pi_hi) = pi_fixed(w);
    let (h_lo, h_hi) = (&pi_lo >> 1u32, (&pi_hi >> 1u32) + 1);
    // k = round(x / (π/2)).
    let k = Integer::div_floor(&((&x_lo << 1u32) + &h_lo), &(&h_lo << 1u32));
    let (y_lo, y_hi) = if k.is_negative() {
        (&x_lo - &k * &h_lo, &x_hi - &k * &h_hi)
    } else {
        (&x_lo - &k * &h_hi, &x_hi - &k * &h_lo)
    };
    let quadrant = Integer::mod_floor(&k, &BigInt::from(4))
        .to_u32_digits()
        .1
        .first()
        .copied()
        .unwrap_or(0);
    // |y| ≤ π/4 + ε < 1: sin is increasing there, cos is largest at 0.
    let ((s_lo, es_lo), (c_lo, ec_lo)) = sin_cos_fixed(&y_lo, w);
    let ((s_hi, es_hi), (c_hi, ec_hi)) = sin_cos_fixed(&y_hi, w);
    let sin_y = fixed_to_interval(&s_lo, es_lo, w).hull(&fixed_to_interval(&s_hi, es_hi, w));
    let mut cos_y = fixed_to_interval(&c_lo, ec_lo, w).hull(&fixed_to_interval(&c_hi, ec_hi, w));
    if !y_lo.is_positive() && !y_hi.is_negative() {
        cos_y.hi = Some(BigRational::one());
    }
    let result = match (f, quadrant) {
        (Trig::Sin, 0) | (Trig::Cos, 3) => sin_y,
        (Trig::Sin, 1) | (Trig::Cos, 0) => cos_y,
        (Trig::Sin, 2) | (Trig::Cos, 1) => sin_y.neg(),
        _ => cos_y.neg(),
    };
    clamp_unit(round_out(result, prec + 8))
}

/// Keeps endpoints short: rounds outwards to multiples of `2^-bits`.
fn round_out(i: Interval, bits: u64) -> Interval {
    let unit = BigRational::from_integer(BigInt::one() << bits);
    Interval {
        lo: i.lo.map(|l| (l * &unit).floor() / &unit),
        hi: i.hi.map(|h| (h * &unit).ceil() / &unit),
    }
}

fn clamp_unit(i: Interval) -> Interval {
    let one = BigRational::one();
    Interval {
        lo: i.lo.map(|l| l.max(-one.clone())),
        hi: i.hi.map(|h| h.min(one.clone())),
    }
}

/// An enclosure of π.
pub fn pi(prec: u64) -> Interval {
    let (lo, hi) = pi_fixed(prec);
    let denom = BigInt::one() << prec;
    Interval::new(
        BigRational::new(lo, denom.clone()),
        BigRational::new(hi, denom),
    )
}

/// Does some point `(k + offset)·π` (offset ½ or 0, integer k) possibly lie in `x`?
/// Returns the parities of the k that may (bit 0: some even k, bit 1: some odd k).
fn special_points(x: &Interval, half: bool, prec: u64) -> u8 {
    let (Some(a), Some(b)) = (&x.lo, &x.hi) else {
        return 3;
    };
    let pi = pi(prec + 16);
    let offset = if half {
        BigRational::new(BigInt::one(), BigInt::from(2))
    } else {
        BigRational::zero()
    };
    let three = BigRational::from_integer(BigInt::from(3));
    let k_from: BigInt = (a / &three).floor().to_integer() - 2;
    let k_to: BigInt = (b / &three).ceil().to_integer() + 2;
    let mut parities = 0u8;
    let mut k = k_from;
    while k <= k_to {
        let m = BigRational::from_integer(k.clone()) + &offset;
        if x.meets(&pi.scale(&m)) {
            parities |= if k.is_even() { 1 } else { 2 };
        }
        k += 1;
    }
    parities
}

/// The widest argument interval evaluated point-wise (wider ones give [−1, 1]).
fn too_wide(x: &Interval) -> bool {
    match (&x.lo, &x.hi) {
        (Some(a), Some(b)) => b - a > BigRational::from_integer(BigInt::from(7)),
        _ => true,
    }
}

/// An enclosure of `sin(x)` for every `x` in the interval.
pub fn sin(x: &Interval, prec: u64) -> Interval {
    trig(Trig::Sin, x, prec)
}

/// An enclosure of `cos(x)` for every `x` in the interval.
pub fn cos(x: &Interval, prec: u64) -> Interval {
    trig(Trig::Cos, x, prec)
}

fn trig(f: Trig, x: &Interval, prec: u64) -> Interval {
    let unit = Interval::new(-BigRational::one(), BigRational::one());
    if too_wide(x) {
        return unit;
    }
    let (a, b) = (x.lo.as_ref().unwrap(), x.hi.as_ref().unwrap());
    if a == b {
        return trig_point(f, a, prec);
    }
    let mut result = trig_point(f, a, prec).hull(&trig_point(f, b, prec));
    // Extremes inside: sin has ±1 at (k+½)π, cos at kπ; +1 for even k, −1 for odd k.
    let parities = special_points(x, f == Trig::Sin, prec);
    if parities & 1 != 0 {
        result.hi = Some(BigRational::one());
    }
    if parities & 2 != 0 {
        result.lo = Some(-BigRational::one());
    }
    result
}

/// An enclosure of `tan(x)` for every `x` in the interval, or `None` when a pole
/// (`(k+½)π`) may lie in it or `cos` cannot be kept away from 0 at this precision.
pub fn tan(x: &Interval, prec: u64) -> Option<Interval> {
    if too_wide(x) || special_points(x, true, prec) != 0 {
        return None;
    }
    let (a, b) = (x.lo.as_ref().unwrap(), x.hi.as_ref().unwrap());
    let at = |p: &BigRational| trig_point(Trig::Sin, p, prec).div(&trig_point(Trig::Cos, p, prec));
    if a == b {
        return at(a);
    }
    // Increasing between poles.
    let (lo, hi) = (at(a)?, at(b)?);
    Some(Interval {
        lo: lo.lo,
        hi: hi.hi,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn contains(i: &Interval, v: f64) -> bool {
        let v = BigRational::from_float(v).unwrap();
        // f64 results are within 1e-15 relative; widen by that.
        let slack = BigRational::from_float(1e-14).unwrap();
        i.lo.as_ref().is_none_or(|l| *l <= &v + &slack)
            && i.hi.as_ref().is_none_or(|h| *h >= &v - &slack)
    }

    fn width(i: &Interval) -> f64 {
        let w = i.hi.clone().unwrap() - i.lo.clone().unwrap();
        w.numer().to_string().parse::<f64>().unwrap()
            / w.denom().to_string().parse::<f64>().unwrap()
    }

    #[test]
    fn pi_is_enclosed_tightly() {
        let p = pi(200);
        assert!(contains(&p, std::f64::consts::PI));
        assert!(width(&p) < 1e-55);
    }

    #[test]
    fn sin_cos_tan_enclose_f64() {
        for (n, d) in [
            (1, 1),
            (-1, 1),
            (3, 1),
            (22, 7),
            (355, 113),
            (1000, 1),
            (-7, 3),
            (1, 1000),
            (100001, 4),
        ] {
            let x = q(n, d);
            let xf = n as f64 / d as f64;
            for prec in [64, 256] {
                let s = sin(&Interval::point(x.clone()), prec);
                let c = cos(&Interval::point(x.clone()), prec);
                assert!(contains(&s, xf.sin()), "sin {xf} {s:?}");
                assert!(contains(&c, xf.cos()), "cos {xf}");
                assert!(
                    width(&s) < 1e-15 && width(&c) < 1e-15,
                    "width {xf} {}",
                    width(&s)
                );
                let t = tan(&Interval::point(x.clone()), prec).unwrap();
                assert!(contains(&t, xf.tan()), "tan {xf}");
            }
        }
        assert_eq!(sin(&Interval::point(q(0, 1)), 64), Interval::point(q(0, 1)));
        assert_eq!(cos(&Interval::point(q(0, 1)), 64), Interval::point(q(1, 1)));
    }

    #[test]
    fn intervals_cover_extremes_and_poles() {
        // [1, 2] contains π/2: sin reaches 1 there.
        let s = sin(&Interval::new(q(1, 1), q(2, 1)), 64);
        assert_eq!(s.hi, Some(q(1, 1)));
        assert!(s.lo.unwrap() > q(8, 10));
        // [3, 4] contains π: cos reaches −1.
        assert_eq!(cos(&Interval::new(q(3, 1), q(4, 1)), 64).lo, Some(q(-1, 1)));
        assert!(tan(&Interval::new(q(1, 1), q(2, 1)), 64).is_none());
        assert!(tan(&Interval::new(q(-1, 1), q(1, 1)), 64).is_some());
        assert_eq!(
            sin(&Interval::whole(), 64),
            Interval::new(q(-1, 1), q(1, 1))
        );
    }
}
