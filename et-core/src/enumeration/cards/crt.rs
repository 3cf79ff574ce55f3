//! The primes of the residue tables, and the way back from residues to a number:
//! Garner's mixed-radix form of the Chinese remainder theorem.
//!
//! A number below p0·…·p(k−1) is d0 + d1·p0 + d2·p0·p1 + … with digits di < pi. Digit
//! i follows from the residue modulo pi and the digits before it: a dot product with a
//! precomputed row, Θ(k²) word operations in all, on vector registers. The digits are
//! then summed by halves, value(lo..hi) = value(lo..mid) + p_lo·…·p_(mid−1) ·
//! value(mid..hi), with the products of aligned runs of 2^t primes kept, so that the
//! work is a few big multiplications (which num-bigint does by Karatsuba and Toom-3)
//! instead of k steps of multiplying a growing number by a word.

use num_bigint::BigUint;
use num_traits::Zero;

/// Products of residues are below 2^56: 255 of them fit a u64.
const TERMS_PER_REDUCTION: usize = 255;

/// Runs of at most this many digits are summed word by word.
const LEAF_DIGITS: usize = 16;

/// The primes, largest first from 2^28 down, with what rebuilding needs.
#[derive(Debug, Clone, Default)]
pub struct Basis {
    primes: Vec<u32>,
    reducers: Vec<Barrett>,
    /// Garner's table for prime i: `radix[i][j]` = p0·…·p(j−1) mod pi for j < i, and
    /// `radix_inverse[i]` = (p0·…·p(i−1))⁻¹ mod pi.
    radix: Vec<Vec<u32>>,
    radix_inverse: Vec<u32>,
    /// `runs[t][i]` = the product of primes i·2^t..(i+1)·2^t.
    runs: Vec<Vec<BigUint>>,
    /// `bits[k]` = log2 of the product of the first k primes.
    bits: Vec<f64>,
}

impl Basis {
    /// The primes so far.
    pub fn primes(&self) -> &[u32] {
        &self.primes
    }

    /// The fewest primes whose product has at least `bits` bits, if there are enough.
    pub fn primes_for(&self, bits: f64) -> Option<usize> {
        let k = self.bits.partition_point(|&b| b < bits);
        (k < self.bits.len()).then_some(k.max(1))
    }

    /// Adds primes until their product has at least `bits` bits and their number is a
    /// multiple of `multiple`.
    pub fn grow_to_bits(&mut self, bits: f64, multiple: usize) {
        let before = self.primes.len();
        while self.bits.last().copied().unwrap_or(0.0) < bits
            || self.primes.is_empty()
            || !self.primes.len().is_multiple_of(multiple)
        {
            self.push_prime();
        }
        if self.primes.len() > before {
            self.build_runs();
        }
    }

    /// Adds primes until there are `count`.
    #[cfg(test)]
    pub fn grow(&mut self, count: usize) {
        while self.primes.len() < count {
            self.push_prime();
        }
        self.build_runs();
    }

    /// Adds the next prime below the last one, with its row of Garner's table.
    fn push_prime(&mut self) {
        if self.bits.is_empty() {
            self.bits.push(0.0);
        }
        let p = next_prime_below(*self.primes.last().unwrap_or(&(1 << 28)));
        let reducer = Barrett::new(p);
        let mut row = Vec::with_capacity(self.primes.len());
        let mut product = 1u64;
        for &q in &self.primes {
            row.push(product as u32);
            product = reducer.reduce(product * u64::from(q));
        }
        self.radix_inverse.push(inverse(product as u32, p));
        self.radix.push(row);
        self.reducers.push(reducer);
        self.primes.push(p);
        let bits = self.bits.last().copied().unwrap_or(0.0);
        self.bits.push(bits + f64::from(p).log2());
    }

    /// The products of aligned runs of 2^t primes, bottom up.
    fn build_runs(&mut self) {
        let mut level: Vec<BigUint> = self.primes.iter().map(|&p| BigUint::from(p)).collect();
        let mut runs = Vec::new();
        while level.len() > 1 {
            let next = level
                .chunks_exact(2)
                .map(|pair| &pair[0] * &pair[1])
                .collect();
            runs.push(std::mem::replace(&mut level, next));
        }
        runs.push(level);
        self.runs = runs;
    }

    /// The number below p0·…·p(k−1) whose residue modulo pi is `residue(i)`, for the
    /// first k primes (k at most the number of primes).
    pub fn rebuild(&self, k: usize, residue: impl Fn(usize) -> u32) -> BigUint {
        let digits = self.digits(k, &residue);
        self.sum(&digits, 0)
    }

    /// The mixed-radix digits, with the widest vectors the processor has (the same
    /// code compiled for AVX-512 or AVX2, chosen at run time).
    fn digits(&self, k: usize, residue: &impl Fn(usize) -> u32) -> Vec<u32> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the processor supports AVX-512F (checked just above).
                return unsafe { self.digits_avx512(k, residue) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor supports AVX2 (checked just above).
                return unsafe { self.digits_avx2(k, residue) };
            }
        }
        self.digits_portable(k, residue)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    /// # Safety
    /// The processor must have AVX-512F.
    unsafe fn digits_avx512(&self, k: usize, residue: &impl Fn(usize) -> u32) -> Vec<u32> {
        self.digits_portable(k, residue)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    /// # Safety
    /// The processor must have AVX2.
    unsafe fn digits_avx2(&self, k: usize, residue: &impl Fn(usize) -> u32) -> Vec<u32> {
        self.digits_portable(k, residue)
    }

    #[inline(always)]
    fn digits_portable(&self, k: usize, residue: &impl Fn(usize) -> u32) -> Vec<u32> {
        let mut digits: Vec<u32> = Vec::with_capacity(k);
        for i in 0..k {
            // Digit i is (r_i − Σ_j d_j·p0…p(j−1)) / (p0…p(i−1)) mod p_i.
            let reducer = self.reducers[i];
            let mut sum = 0u64;
            for (chunk, radix) in digits
                .chunks(TERMS_PER_REDUCTION)
                .zip(self.radix[i].chunks(TERMS_PER_REDUCTION))
            {
                let partial: u64 = chunk
                    .iter()
                    .zip(radix)
                    .map(|(&d, &r)| u64::from(d) * u64::from(r))
                    .sum();
                sum = reducer.reduce(sum + reducer.reduce(partial));
            }
            let difference = u64::from(residue(i)) + reducer.p - sum;
            let d = reducer.reduce(difference * u64::from(self.radix_inverse[i]));
            digits.push(d as u32);
        }
        digits
    }

    /// Σ_i digits[i] · p_lo·…·p_(lo+i−1): by halves, the lower half a run of 2^t
    /// primes starting at a multiple of 2^t (so its product is kept).
    fn sum(&self, digits: &[u32], lo: usize) -> BigUint {
        let n = digits.len();
        if n <= LEAF_DIGITS {
            // Horner's rule, two digits per step (both factors stay below 2^64).
            let p = |i: usize| u64::from(self.primes[lo + i]);
            let d = |i: usize| u64::from(digits[i]);
            let mut i = n;
            let mut value = BigUint::zero();
            if n % 2 == 1 {
                i -= 1;
                value = BigUint::from(digits[i]);
            }
            while i >= 2 {
                value *= p(i - 1) * p(i - 2);
                value += d(i - 1) * p(i - 2) + d(i - 2);
                i -= 2;
            }
            return value;
        }
        let t = (n - 1).ilog2() as usize;
        let half = 1 << t;
        let low = self.sum(&digits[..half], lo);
        let high = self.sum(&digits[half..], lo + half);
        if high.is_zero() {
            return low;
        }
        low + &self.runs[t][lo >> t] * high
    }
}

/// Reduction modulo a prime p < 2^32 without division: q = ⌊x·m / 2^64⌋ with
/// m = ⌊(2^64 − 1)/p⌋ is ⌊x/p⌋ or one less, so one subtraction corrects it.
#[derive(Debug, Clone, Copy)]
struct Barrett {
    p: u64,
    m: u64,
}

impl Barrett {
    fn new(p: u32) -> Barrett {
        Barrett {
            p: u64::from(p),
            m: u64::MAX / u64::from(p),
        }
    }

    #[inline(always)]
    fn reduce(self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.m)) >> 64) as u64;
        let r = x - q * self.p;
        if r >= self.p {
            r - self.p
        } else {
            r
        }
    }
}

/// a⁻¹ mod p (p prime, a not a multiple of p).
fn inverse(a: u32, p: u32) -> u32 {
    let (mut r0, mut r1) = (i64::from(p), i64::from(a));
    let (mut t0, mut t1) = (0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    t0.rem_euclid(i64::from(p)) as u32
}

/// The largest prime below `n` (n ≤ 2^28, so above 2^27 for the thousands et uses).
fn next_prime_below(n: u32) -> u32 {
    (2..n)
        .rev()
        .find(|&c| is_prime(c))
        .expect("primes below 2^28")
}

/// Deterministic Miller–Rabin for 32-bit numbers (bases 2, 7, 61).
fn is_prime(n: u32) -> bool {
    if n < 2 || n.is_multiple_of(2) {
        return n == 2;
    }
    let n64 = u64::from(n);
    let (mut d, mut s) = (n64 - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    let pow = |mut b: u64, mut e: u64| {
        let mut r = 1u64;
        b %= n64;
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % n64;
            }
            b = b * b % n64;
            e >>= 1;
        }
        r
    };
    'bases: for a in [2u64, 7, 61] {
        if a % n64 == 0 {
            continue;
        }
        let mut x = pow(a, d);
        if x == 1 || x == n64 - 1 {
            continue;
        }
        for _ in 1..s {
            x = x * x % n64;
            if x == n64 - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primes_and_inverses() {
        let primes: Vec<u32> = (0..5)
            .scan(1 << 28, |n, _| {
                *n = next_prime_below(*n);
                Some(*n)
            })
            .collect();
        assert_eq!(primes[0], 268_435_399); // the largest prime below 2^28
        assert!(primes.iter().all(|&p| is_prime(p) && p > 1 << 27));
        assert!(!is_prime(91) && is_prime(61) && !is_prime(1) && !is_prime(1 << 27));
        for &p in &primes {
            let a = 123_456_789 % p;
            assert_eq!(u64::from(a) * u64::from(inverse(a, p)) % u64::from(p), 1);
        }
    }

    #[test]
    fn barrett_reduction_is_exact() {
        for p in [268_435_399u32, 134_217_757, 3, 65_521] {
            let reducer = Barrett::new(p);
            for x in [
                0u64,
                1,
                u64::from(p) - 1,
                u64::from(p),
                u64::MAX,
                u64::MAX - 1,
                1 << 63,
            ]
            .into_iter()
            .chain((0..1000u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
            {
                assert_eq!(reducer.reduce(x), x % u64::from(p), "{x} mod {p}");
            }
        }
    }

    #[test]
    fn rebuilt_numbers_equal_the_originals() {
        let mut basis = Basis::default();
        basis.grow(100);
        for value in [
            BigUint::zero(),
            BigUint::from(12345u32),
            BigUint::from(3u32).pow(1500),
            BigUint::from(7u32).pow(900) - 1u32,
        ] {
            for k in [basis.primes().len(), 17, 64, 65] {
                let bound: BigUint = basis.primes()[..k]
                    .iter()
                    .map(|&p| BigUint::from(p))
                    .product();
                if value >= bound {
                    continue;
                }
                let residues: Vec<u32> = basis.primes()[..k]
                    .iter()
                    .map(|&p| u32::try_from(&value % p).unwrap())
                    .collect();
                assert_eq!(basis.rebuild(k, |i| residues[i]), value, "k = {k}");
            }
        }
    }
}
