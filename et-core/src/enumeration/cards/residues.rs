//! Cardinalities modulo primes below 2^28, [`LANES`] primes per block: a product's part
//! n is a sum of n products of machine words per prime, the lanes of a block form the
//! inner loop (which the compiler vectorises), and blocks are computed in parallel.
//! Exact values are rebuilt from as many primes as their magnitude needs (Garner's
//! mixed-radix form of the Chinese remainder theorem).

use num_bigint::BigUint;
use rayon::prelude::*;

use super::magnitude;
use super::{Node, Shape};

/// Primes per block.
pub const LANES: usize = 16;

type Lanes = [u32; LANES];

/// Residues of every node per size, for a growing set of primes.
#[derive(Debug, Clone, Default)]
pub struct Residues {
    blocks: Vec<Block>,
    /// All primes in order (block b holds primes[b·LANES..(b+1)·LANES]).
    primes: Vec<u32>,
    /// Garner's table for prime i: `radix[i][j]` = p0·…·p(j−1) mod pi for j ≤ i, and
    /// `radix_inverse[i]` = (p0·…·p(i−1))⁻¹ mod pi.
    radix: Vec<Vec<u32>>,
    radix_inverse: Vec<u32>,
    computed: usize,
}

#[derive(Debug, Clone)]
struct Block {
    primes: Lanes,
    /// Per node slot, per size.
    values: Vec<Vec<Lanes>>,
    /// The root's cumulative counts: `cumulative[n]` = values of size < n.
    cumulative: Vec<Lanes>,
}

impl Residues {
    /// Sizes 0..computed() are known for every prime.
    pub fn computed(&self) -> usize {
        self.computed
    }

    /// Makes sizes 0..=size known modulo at least `primes` primes.
    pub fn ensure(&mut self, shape: &Shape, mags: &magnitude::Table, size: usize, primes: usize) {
        let old_blocks = self.blocks.len();
        while self.primes.len() < primes.max(1) {
            let mut lanes = [0u32; LANES];
            for lane in &mut lanes {
                *lane = next_prime_below(*self.primes.last().unwrap_or(&(1 << 28)));
                let p = u64::from(*lane);
                let mut row = Vec::with_capacity(self.primes.len() + 1);
                let mut product = 1u64;
                for &q in &self.primes {
                    row.push(product as u32);
                    product = product * (u64::from(q) % p) % p;
                }
                row.push(product as u32);
                self.radix_inverse.push(inverse(product as u32, *lane));
                self.radix.push(row);
                self.primes.push(*lane);
            }
            self.blocks.push(Block {
                primes: lanes,
                values: vec![Vec::new(); shape.nodes()],
                cumulative: vec![[0; LANES]],
            });
        }
        let computed = self.computed;
        self.blocks
            .par_iter_mut()
            .enumerate()
            .for_each(|(b, block)| {
                let from = if b < old_blocks { computed } else { 0 };
                block.extend(shape, mags, from, size);
            });
        self.computed = self.computed.max(size + 1);
    }

    fn residue(&self, i: usize, get: impl Fn(&Block) -> Lanes) -> u32 {
        get(&self.blocks[i / LANES])[i % LANES]
    }

    /// The exact value of a node's part from its first `primes` residues.
    pub fn reconstruct(&self, slot: usize, size: usize, primes: usize) -> BigUint {
        self.garner(primes, |i| self.residue(i, |b| b.values[slot][size]))
    }

    /// The exact cumulative count of the root below `size`.
    pub fn reconstruct_cumulative(&self, size: usize, primes: usize) -> BigUint {
        self.garner(primes, |i| self.residue(i, |b| b.cumulative[size]))
    }

    fn garner(&self, primes: usize, residue: impl Fn(usize) -> u32) -> BigUint {
        let k = primes.min(self.primes.len());
        // Mixed-radix digits: value = d0 + d1·p0 + d2·p0·p1 + …; digit i is
        // (r_i − Σ_j d_j·p0…p(j−1)) / (p0…p(i−1)) mod p_i, the sum a dot product
        // reduced every 255 terms (each below 2^56).
        let mut digits: Vec<u32> = Vec::with_capacity(k);
        for i in 0..k {
            let p = u64::from(self.primes[i]);
            let row = &self.radix[i];
            let mut sum = 0u64;
            for (chunk, radix) in digits.chunks(255).zip(row.chunks(255)) {
                let partial: u64 = chunk
                    .iter()
                    .zip(radix)
                    .map(|(&d, &r)| u64::from(d) * u64::from(r))
                    .sum();
                sum = (sum + partial % p) % p;
            }
            let r = u64::from(residue(i));
            let d = (r + p - sum) % p * u64::from(self.radix_inverse[i]) % p;
            digits.push(d as u32);
        }
        let mut value = BigUint::from(0u32);
        for i in (0..k).rev() {
            value *= self.primes[i];
            value += digits[i];
        }
        value
    }
}

impl Block {
    /// Computes sizes from..=to (sizes below `from` are known), with AVX2 where the
    /// processor has it (the same code, compiled for wider vectors: twice as fast).
    fn extend(&mut self, shape: &Shape, mags: &magnitude::Table, from: usize, to: usize) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe { self.extend_avx2(shape, mags, from, to) };
            return;
        }
        self.extend_portable(shape, mags, from, to);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn extend_avx2(
        &mut self,
        shape: &Shape,
        mags: &magnitude::Table,
        from: usize,
        to: usize,
    ) {
        self.extend_portable(shape, mags, from, to);
    }

    #[inline(always)]
    fn extend_portable(&mut self, shape: &Shape, mags: &magnitude::Table, from: usize, to: usize) {
        let primes = self.primes.map(u64::from);
        for n in from..=to {
            for &node in &shape.order {
                let mut acc = [0u64; LANES];
                match node {
                    Node::Nt(nt) => {
                        for alt in &shape.alts[nt] {
                            let Some(m) = n.checked_sub(alt.cost as usize) else {
                                continue;
                            };
                            match alt.body() {
                                Some(body) => {
                                    let slot = shape.slot(body);
                                    if !mags.nonzero(slot)[m] {
                                        continue;
                                    }
                                    let v = &self.values[slot][m];
                                    for l in 0..LANES {
                                        acc[l] += u64::from(v[l]);
                                    }
                                }
                                None if m == 0 => {
                                    for a in &mut acc {
                                        *a += 1;
                                    }
                                }
                                None => {}
                            }
                        }
                    }
                    Node::Seq(s) => {
                        let def = shape.seqs[s];
                        let (a, b) = (shape.slot(def.prefix), shape.slot(Node::Nt(def.last)));
                        let (prefix, last) = (&self.values[a][..=n], &self.values[b][..=n]);
                        let (nz_a, nz_b) = (mags.nonzero(a), mags.nonzero(b));
                        // Products are below 2^56: 255 of them fit a u64 lane.
                        for start in (0..=n).step_by(255) {
                            for k in start..(start + 255).min(n + 1) {
                                if nz_a[k] && nz_b[n - k] {
                                    mac(&mut acc, &prefix[k], &last[n - k]);
                                }
                            }
                            for l in 0..LANES {
                                acc[l] %= primes[l];
                            }
                        }
                    }
                }
                let mut value = [0u32; LANES];
                for l in 0..LANES {
                    value[l] = (acc[l] % primes[l]) as u32;
                }
                self.values[shape.slot(node)].push(value);
            }
            let below = self.cumulative[n];
            let part = self.values[shape.slot(Node::Nt(shape.root))][n];
            let mut next = [0u32; LANES];
            for l in 0..LANES {
                next[l] = ((u64::from(below[l]) + u64::from(part[l])) % primes[l]) as u32;
            }
            self.cumulative.push(next);
        }
    }
}

/// acc += x · y, lane by lane.
#[inline(always)]
fn mac(acc: &mut [u64; LANES], x: &Lanes, y: &Lanes) {
    for l in 0..LANES {
        acc[l] += u64::from(x[l]) * u64::from(y[l]);
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
}
