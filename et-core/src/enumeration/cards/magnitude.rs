//! Approximate cardinalities: a float mantissa with a 64-bit exponent, so parts of any
//! size fit. They decide how many primes an exact value needs (with a wide margin),
//! whether a part is empty (exactly), and where an index lies without exact arithmetic.

use num_bigint::BigUint;

use super::{Node, Shape};

/// A non-negative number `mantissa · 2^exponent`, mantissa in [0.5, 1) or zero.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Magnitude {
    mantissa: f64,
    exponent: i64,
}

/// Relative error is far below 2^-30 after any number of the operations et does; this
/// many bits of slack make every prime count and every comparison safe.
const MARGIN_BITS: f64 = 64.0;

impl Magnitude {
    /// Zero.
    pub const ZERO: Magnitude = Magnitude {
        mantissa: 0.0,
        exponent: 0,
    };

    /// One.
    pub const ONE: Magnitude = Magnitude {
        mantissa: 0.5,
        exponent: 1,
    };

    fn normalised(mantissa: f64, exponent: i64) -> Magnitude {
        if mantissa == 0.0 {
            return Magnitude::ZERO;
        }
        let bits = mantissa.to_bits();
        let shift = ((bits >> 52) & 0x7ff) as i64 - 1022;
        Magnitude {
            mantissa: f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52)),
            exponent: exponent + shift,
        }
    }

    /// The magnitude of an exact number.
    pub fn of(value: &BigUint) -> Magnitude {
        let bits = value.bits();
        if bits == 0 {
            return Magnitude::ZERO;
        }
        let shift = bits.saturating_sub(64);
        let top = (value >> shift).iter_u64_digits().next().unwrap_or(0);
        Magnitude::normalised(top as f64, shift as i64)
    }

    /// Whether the number is zero (exact: magnitudes of sums of products of
    /// non-negative numbers are zero only when the numbers are).
    pub fn is_zero(self) -> bool {
        self.mantissa == 0.0
    }

    /// log2 of the number (−∞ for zero).
    pub fn log2(self) -> f64 {
        if self.is_zero() {
            f64::NEG_INFINITY
        } else {
            self.mantissa.log2() + self.exponent as f64
        }
    }

    /// The product.
    pub fn times(self, other: Magnitude) -> Magnitude {
        if self.is_zero() || other.is_zero() {
            return Magnitude::ZERO;
        }
        Magnitude::normalised(
            self.mantissa * other.mantissa,
            self.exponent + other.exponent,
        )
    }

    /// The sum.
    pub fn plus(self, other: Magnitude) -> Magnitude {
        let (big, small) = if self.exponent >= other.exponent || other.is_zero() {
            (self, other)
        } else {
            (other, self)
        };
        if small.is_zero() {
            return big;
        }
        if big.is_zero() {
            return small;
        }
        let gap = big.exponent - small.exponent;
        if gap > 80 {
            // Below the float's precision; never zero-ness (big is non-zero).
            return big;
        }
        let scaled = small.mantissa * f64::from_bits(((1023 - gap) as u64) << 52);
        Magnitude::normalised(big.mantissa + scaled, big.exponent)
    }

    /// Σ_i xs[i] · ys[len − 1 − i] (xs and ys have the same length): the terms scaled
    /// to the largest one's exponent and added as plain doubles, so a product's part
    /// costs a few float operations per term rather than a normalisation per
    /// operation. Terms more than 2^1000 below the largest are dropped (they change
    /// nothing a double can hold); the sum is zero exactly when every term is.
    pub fn sum_of_products(xs: &[Magnitude], ys: &[Magnitude]) -> Magnitude {
        debug_assert_eq!(xs.len(), ys.len());
        let terms = || xs.iter().zip(ys.iter().rev());
        let top = terms()
            .filter(|(x, y)| !x.is_zero() && !y.is_zero())
            .map(|(x, y)| x.exponent + y.exponent)
            .max();
        let Some(top) = top else {
            return Magnitude::ZERO;
        };
        let total: f64 = terms()
            .map(|(x, y)| {
                // Zero terms have a zero mantissa whatever their exponent; clamping
                // keeps their scale finite.
                let gap = (x.exponent + y.exponent - top).min(0);
                let scale = if gap < -1000 {
                    0.0
                } else {
                    f64::from_bits(((1023 + gap) as u64) << 52)
                };
                x.mantissa * y.mantissa * scale
            })
            .sum();
        Magnitude::normalised(total, top)
    }

    /// Whether the number is certainly below `other` (false when too close to tell).
    pub fn certainly_below(self, other: Magnitude) -> bool {
        if other.is_zero() {
            return false;
        }
        self.is_zero() || self.log2() < other.log2() - 1e-6 * other.log2().abs() - 1.0
    }
}

/// How many bits the product of the primes that rebuild a value of about 2^log2 must
/// have, with the margin above: the product then exceeds every value the magnitude can
/// stand for.
pub fn bits_needed(log2: f64) -> f64 {
    log2.max(0.0) * (1.0 + 1e-6) + MARGIN_BITS
}

/// Magnitudes of every node per size, and the root's cumulative counts.
#[derive(Debug, Clone)]
pub struct Table {
    /// Per node slot, per size.
    values: Vec<Vec<Magnitude>>,
    /// Per node slot, the smallest and the largest size of a non-empty part known.
    support: Vec<Option<(usize, usize)>>,
    /// `cumulative[n]` = magnitude of the root's values of size < n.
    cumulative: Vec<Magnitude>,
    /// The largest log2 of any entry up to each size.
    max_log2: Vec<f64>,
}

impl Table {
    pub fn new(shape: &Shape) -> Table {
        Table {
            values: vec![Vec::new(); shape.nodes()],
            support: vec![None; shape.nodes()],
            cumulative: vec![Magnitude::ZERO],
            max_log2: Vec::new(),
        }
    }

    fn computed(&self) -> usize {
        self.max_log2.len()
    }

    pub fn get(&self, slot: usize, size: usize) -> Magnitude {
        self.values[slot]
            .get(size)
            .copied()
            .unwrap_or(Magnitude::ZERO)
    }

    /// The smallest and the largest size of a non-empty part of a node among the sizes
    /// known, `None` if all are empty.
    pub fn support(&self, slot: usize) -> Option<(usize, usize)> {
        self.support[slot]
    }

    /// The sizes k of the terms prefix(k) × last(n − k) of a product's part n that can
    /// be non-zero, given the supports of its two factors (empty when none can).
    pub fn terms(&self, prefix: usize, last: usize, n: usize) -> std::ops::RangeInclusive<usize> {
        match (self.support[prefix], self.support[last]) {
            (Some((lo_a, hi_a)), Some((lo_b, hi_b))) if n >= lo_b => {
                lo_a.max(n.saturating_sub(hi_b))..=hi_a.min(n - lo_b)
            }
            #[allow(clippy::reversed_empty_ranges)]
            _ => 1..=0,
        }
    }

    pub fn cumulative(&self, size: usize) -> Magnitude {
        self.cumulative[size.min(self.cumulative.len() - 1)]
    }

    /// The largest log2 of any entry of size ≤ `size` (which must be known).
    pub fn max_log2(&self, size: usize) -> f64 {
        self.max_log2[size]
    }

    /// Makes sizes 0..=size known: Θ(size²) float operations per product.
    pub fn ensure(&mut self, shape: &Shape, size: usize) {
        for n in self.computed()..=size {
            let mut largest = self.max_log2.last().copied().unwrap_or(f64::NEG_INFINITY);
            for &node in &shape.order {
                let value = match node {
                    Node::Nt(nt) => {
                        let mut total = Magnitude::ZERO;
                        for alt in &shape.alts[nt] {
                            let Some(m) = n.checked_sub(alt.cost as usize) else {
                                continue;
                            };
                            let body = match alt.body() {
                                Some(body) => self.get(shape.slot(body), m),
                                None if m == 0 => Magnitude::ONE,
                                None => Magnitude::ZERO,
                            };
                            total = total.plus(body);
                        }
                        total
                    }
                    Node::Seq(s) => {
                        let def = shape.seqs[s];
                        let (a, b) = (shape.slot(def.prefix), shape.slot(Node::Nt(def.last)));
                        // Same-size dependencies come first in `order`: both tables
                        // already hold size n.
                        let terms = self.terms(a, b, n);
                        if terms.is_empty() {
                            Magnitude::ZERO
                        } else {
                            let (lo, hi) = (*terms.start(), *terms.end());
                            Magnitude::sum_of_products(
                                &self.values[a][lo..=hi],
                                &self.values[b][n - hi..=n - lo],
                            )
                        }
                    }
                };
                largest = largest.max(value.log2());
                let slot = shape.slot(node);
                self.values[slot].push(value);
                if !value.is_zero() {
                    let first = self.support[slot].map_or(n, |(first, _)| first);
                    self.support[slot] = Some((first, n));
                }
            }
            self.max_log2.push(largest);
            let below = self.cumulative[n];
            self.cumulative.push(below.plus(self.get(shape.root, n)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magnitudes_track_exact_values() {
        let a = BigUint::from(10u32).pow(300);
        let b = BigUint::from(3u32).pow(500) + 7u32;
        let (ma, mb) = (Magnitude::of(&a), Magnitude::of(&b));
        let close = |m: Magnitude, exact: &BigUint| {
            let want = Magnitude::of(exact).log2();
            assert!((m.log2() - want).abs() < 1e-9, "{} vs {want}", m.log2());
        };
        close(ma.times(mb), &(&a * &b));
        close(ma.plus(mb), &(&a + &b));
        let (c, d) = (
            BigUint::from(12345u32),
            BigUint::from(2u32).pow(3000) + 1u32,
        );
        let (mc, md) = (Magnitude::of(&c), Magnitude::of(&d));
        // Pairs are xs[i] with ys[len − 1 − i]; the zero meets the largest number.
        close(
            Magnitude::sum_of_products(&[ma, mc, Magnitude::ZERO], &[md, mb, mc]),
            &(&a * &c + &c * &b),
        );
        assert!(
            Magnitude::sum_of_products(&[ma, Magnitude::ZERO], &[mb, Magnitude::ZERO]).is_zero()
        );
        assert!(Magnitude::sum_of_products(&[], &[]).is_zero());
        close(Magnitude::ONE.plus(Magnitude::ONE), &BigUint::from(2u32));
        assert!(Magnitude::ZERO.plus(Magnitude::ZERO).is_zero());
        assert!(ma.certainly_below(mb) != mb.certainly_below(ma));
        assert!(!ma.certainly_below(ma));
    }
}
