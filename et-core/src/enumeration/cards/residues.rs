//! Cardinalities modulo primes below 2^28, [`LANES`] primes per block: a product's part
//! n is a sum of n products of machine words per prime, the lanes of a block form the
//! vectors of the inner loop (see [`super::kernel`]), and blocks are computed in
//! parallel. Exact values are rebuilt from as many primes as their magnitude needs (see
//! [`super::crt`]).
//!
//! The parts are computed size after size (a part may need parts of its own size), but
//! most of a product's part n is known long before: its terms prefix(k) × last(n − k)
//! with both factors below n. So sizes go by windows of [`WINDOW`]: when a window
//! opens, the terms of its parts whose factors both lie below it are summed for all of
//! them in one pass (each factor read once for the whole window); the few terms with a
//! factor inside the window are added part by part.

use num_bigint::BigUint;
use rayon::prelude::*;

use super::crt::Basis;
use super::kernel::{self, Lanes, Modulus, Vector, Wide, LANES, WINDOW};
use super::magnitude;
use super::{Node, Shape};

/// Residues of every node per size, for a growing set of primes.
#[derive(Debug, Clone, Default)]
pub struct Residues {
    blocks: Vec<Block>,
    /// All primes in order (block b holds the primes b·LANES..(b+1)·LANES).
    basis: Basis,
    computed: usize,
}

#[derive(Debug, Clone)]
struct Block {
    modulus: Modulus,
    /// Per node slot, per size.
    values: Vec<Vec<Lanes>>,
    /// The root's cumulative counts: `cumulative[n]` = values of size < n.
    cumulative: Vec<Lanes>,
    /// The first size of the current window (a multiple of [`WINDOW`]).
    window: usize,
    /// Per product, its parts window..window+WINDOW summed over the terms whose two
    /// factors are below the window (folded, not yet reduced).
    pending: Vec<[Wide; WINDOW]>,
}

impl Residues {
    /// Sizes 0..computed() are known for every prime.
    pub fn computed(&self) -> usize {
        self.computed
    }

    /// Makes sizes 0..=size known modulo primes whose product has at least `bits` bits.
    pub fn ensure(&mut self, shape: &Shape, mags: &magnitude::Table, size: usize, bits: f64) {
        let old_blocks = self.blocks.len();
        self.basis.grow_to_bits(bits, LANES);
        let primes = self.basis.primes();
        for b in old_blocks..primes.len() / LANES {
            let lanes: Lanes = primes[b * LANES..(b + 1) * LANES]
                .try_into()
                .expect("LANES primes");
            self.blocks.push(Block::new(lanes, shape));
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

    /// The number of primes whose product has at least `bits` bits (all of them if
    /// they fall short).
    fn primes_for(&self, bits: f64) -> usize {
        let all = self.basis.primes().len();
        self.basis.primes_for(bits).unwrap_or(all).min(all)
    }

    /// The exact value of a node's part, below 2^bits, from its residues.
    pub fn reconstruct(&self, slot: usize, size: usize, bits: f64) -> BigUint {
        let primes = self.primes_for(bits);
        self.basis.rebuild(primes, |i| {
            self.blocks[i / LANES].values[slot][size][i % LANES]
        })
    }

    /// The exact cumulative count of the root below `size`, below 2^bits.
    pub fn reconstruct_cumulative(&self, size: usize, bits: f64) -> BigUint {
        let primes = self.primes_for(bits);
        self.basis.rebuild(primes, |i| {
            self.blocks[i / LANES].cumulative[size][i % LANES]
        })
    }
}

impl Block {
    fn new(primes: Lanes, shape: &Shape) -> Block {
        Block {
            modulus: Modulus::new(&primes),
            values: vec![Vec::new(); shape.nodes()],
            cumulative: vec![[0; LANES]],
            window: 0,
            pending: vec![[[0; LANES]; WINDOW]; shape.seqs.len()],
        }
    }

    /// Computes sizes from..=to (sizes below `from` are known), on the widest vectors
    /// the processor has (chosen at run time).
    fn extend(&mut self, shape: &Shape, mags: &magnitude::Table, from: usize, to: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the processor supports AVX-512F (checked just above).
                unsafe { self.extend_avx512(shape, mags, from, to) };
                return;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor supports AVX2 (checked just above).
                unsafe { self.extend_avx2(shape, mags, from, to) };
                return;
            }
        }
        // SAFETY: plain arrays run everywhere.
        unsafe { self.extend_with::<kernel::Portable>(shape, mags, from, to) };
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    /// # Safety
    /// The processor must have AVX-512F.
    unsafe fn extend_avx512(
        &mut self,
        shape: &Shape,
        mags: &magnitude::Table,
        from: usize,
        to: usize,
    ) {
        // SAFETY: AVX-512F is there (this function's contract).
        unsafe { self.extend_with::<kernel::Avx512>(shape, mags, from, to) };
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    /// # Safety
    /// The processor must have AVX2.
    unsafe fn extend_avx2(
        &mut self,
        shape: &Shape,
        mags: &magnitude::Table,
        from: usize,
        to: usize,
    ) {
        // SAFETY: AVX2 is there (this function's contract).
        unsafe { self.extend_with::<kernel::Avx2>(shape, mags, from, to) };
    }

    /// # Safety
    /// The processor must have `V`'s instructions.
    #[inline(always)]
    unsafe fn extend_with<V: Vector>(
        &mut self,
        shape: &Shape,
        mags: &magnitude::Table,
        from: usize,
        to: usize,
    ) {
        for values in &mut self.values {
            values.reserve((to + 1).saturating_sub(values.len()));
        }
        self.cumulative
            .reserve((to + 2).saturating_sub(self.cumulative.len()));
        for n in from..=to {
            if n % WINDOW == 0 {
                // SAFETY: the caller's contract.
                unsafe { self.open_window::<V>(shape, mags, n) };
            }
            for &node in &shape.order {
                let mut acc = [0u64; LANES];
                match node {
                    Node::Nt(nt) => {
                        // Empty parts have zero residues: adding them changes nothing.
                        for alt in &shape.alts[nt] {
                            let Some(m) = n.checked_sub(alt.cost as usize) else {
                                continue;
                            };
                            match alt.body() {
                                Some(body) => {
                                    let v = &self.values[shape.slot(body)][m];
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
                        // The terms with both factors below the window were summed when
                        // it opened; add those with a factor inside it: k < w ≤ n − k,
                        // then w ≤ k.
                        acc = self.pending[s][n - self.window];
                        let def = shape.seqs[s];
                        let (a, b) = (shape.slot(def.prefix), shape.slot(Node::Nt(def.last)));
                        let terms = mags.terms(a, b, n);
                        let (lo, hi, w) = (*terms.start(), *terms.end(), self.window);
                        // SAFETY: the caller's contract.
                        unsafe {
                            if w > 0 {
                                self.convolve::<V>(&mut acc, a, b, n, lo, hi.min(n - w).min(w - 1));
                            }
                            self.convolve::<V>(&mut acc, a, b, n, lo.max(w), hi);
                        }
                    }
                }
                // SAFETY: the caller's contract.
                let value = unsafe { V::load(&acc).reduce(&self.modulus) };
                self.values[shape.slot(node)].push(value);
            }
            let below = self.cumulative[n];
            let part = self.values[shape.slot(Node::Nt(shape.root))][n];
            let mut next = [0u64; LANES];
            for l in 0..LANES {
                next[l] = u64::from(below[l]) + u64::from(part[l]);
            }
            // SAFETY: the caller's contract.
            self.cumulative
                .push(unsafe { V::load(&next).reduce(&self.modulus) });
        }
    }

    /// acc += Σ_{k = lo..=hi} a(k) · b(n − k), lane by lane, for node slots a and b.
    ///
    /// # Safety
    /// The processor must have `V`'s instructions.
    #[inline(always)]
    unsafe fn convolve<V: Vector>(
        &self,
        acc: &mut Wide,
        a: usize,
        b: usize,
        n: usize,
        lo: usize,
        hi: usize,
    ) {
        if lo <= hi {
            let (xs, ys) = (&self.values[a][lo..=hi], &self.values[b][n - hi..=n - lo]);
            // SAFETY: the caller's contract.
            unsafe { kernel::convolve::<V>(acc, xs, ys, &self.modulus) };
        }
    }

    /// Opens the window of sizes w..w+WINDOW (sizes below w are known): for each
    /// product, sums the terms of its parts in the window whose two factors lie below
    /// w.
    ///
    /// # Safety
    /// The processor must have `V`'s instructions.
    #[inline(always)]
    unsafe fn open_window<V: Vector>(&mut self, shape: &Shape, mags: &magnitude::Table, w: usize) {
        self.window = w;
        for (s, def) in shape.seqs.iter().enumerate() {
            let mut sums = [[0u64; LANES]; WINDOW];
            let (a, b) = (shape.slot(def.prefix), shape.slot(Node::Nt(def.last)));
            if let (Some((lo_a, hi_a)), Some((lo_b, hi_b)), true) =
                (mags.support(a), mags.support(b), w > 0)
            {
                // Part w + j: k ≤ w − 1 and w + j − k ≤ w − 1, within both supports.
                let range = |j: usize| -> (isize, isize) {
                    let m = (w + j) as isize;
                    let lo = (lo_a as isize).max(j as isize + 1).max(m - hi_b as isize);
                    let hi = (hi_a as isize).min(w as isize - 1).min(m - lo_b as isize);
                    (lo, hi)
                };
                // The k shared by every part (from the last one's lower bound to the
                // first one's upper bound) are summed for all parts at once, the few
                // others part by part.
                let (common_lo, common_hi) = (range(WINDOW - 1).0, range(0).1);
                let single = |sum: &mut Wide, j: usize, lo: isize, hi: isize| {
                    if lo <= hi {
                        // SAFETY: the caller's contract.
                        unsafe { self.convolve::<V>(sum, a, b, w + j, lo as usize, hi as usize) };
                    }
                };
                if common_lo <= common_hi {
                    let (lo, hi) = (common_lo as usize, common_hi as usize);
                    let (xs, ys) = (
                        &self.values[a][lo..=hi],
                        &self.values[b][w - hi..w + WINDOW - lo],
                    );
                    // SAFETY: the caller's contract.
                    unsafe { kernel::convolve_window::<V>(&mut sums, xs, ys, &self.modulus) };
                    for (j, sum) in sums.iter_mut().enumerate() {
                        let (lo, hi) = range(j);
                        single(sum, j, lo, common_lo - 1);
                        single(sum, j, common_hi + 1, hi);
                    }
                } else {
                    for (j, sum) in sums.iter_mut().enumerate() {
                        let (lo, hi) = range(j);
                        single(sum, j, lo, hi);
                    }
                }
            }
            self.pending[s] = sums;
        }
    }
}
