//! The arithmetic of the residue tables: sums of products of residues, [`LANES`] primes
//! at a time, on the widest vector registers the processor has.
//!
//! A lane vector holds one residue per prime of a block. Residues are below 2^28, so a
//! product is below 2^56 and a u64 lane holds 255 of them; sums are *folded* (kept
//! congruent, brought below 2^53) every 255 terms and *reduced* (below the prime) only
//! when stored. The kernels are generic over [`Vector`], which the AVX-512 and AVX2
//! implementations back with explicit instructions (the compiler's auto-vectorisation
//! of the same loops came and went with unrelated changes, at up to ten times the cost)
//! and a portable one with plain arrays.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Primes per block.
pub const LANES: usize = 16;

/// Residues modulo the primes of a block.
pub type Lanes = [u32; LANES];

/// Sums of products of residues, one per prime of a block, not yet reduced.
pub type Wide = [u64; LANES];

/// Parts of a product summed together by [`convolve_window`]: each factor read from
/// memory serves this many parts, so the sums run on the multipliers rather than wait
/// for memory.
pub const WINDOW: usize = 4;

/// Products of residues are below 2^56 and a folded sum below 2^53 (see
/// [`Modulus::fold`]): 255 more products still fit a u64 lane.
const TERMS_PER_FOLD: usize = 255;

/// Reduction modulo the primes of a block, without division.
#[derive(Debug, Clone)]
pub struct Modulus {
    primes: Wide,
    /// 2^32 mod p.
    fold: Wide,
    /// 1/p, rounded.
    inverse: [f64; LANES],
}

impl Modulus {
    /// The primes must lie between 2^27 and 2^28.
    pub fn new(primes: &Lanes) -> Modulus {
        assert!(primes.iter().all(|&p| p > 1 << 27 && p < 1 << 28));
        Modulus {
            primes: primes.map(u64::from),
            fold: primes.map(|p| (1u64 << 32) % u64::from(p)),
            inverse: primes.map(|p| 1.0 / f64::from(p)),
        }
    }

    /// Keeps each lane's residue and brings it below 2^53: x = h·2^32 + l becomes
    /// h·(2^32 mod p) + l, three times (below 2^60 + 2^32, then 2^56 + 2^33, then 2^53).
    #[inline(always)]
    fn fold(&self, sum: &mut Wide) {
        for _ in 0..3 {
            for (x, c) in sum.iter_mut().zip(&self.fold) {
                *x = (*x >> 32) * c + (*x & 0xffff_ffff);
            }
        }
    }

    /// Each lane modulo its prime: folded below 2^53 (so exact as a double), the
    /// quotient estimated in floating point is off by at most one (x/p < 2^26, so its
    /// rounding error is below 2^-25), which one correction either way settles.
    #[inline(always)]
    pub fn reduce(&self, mut sum: Wide) -> Lanes {
        self.fold(&mut sum);
        let mut out = [0u32; LANES];
        for l in 0..LANES {
            let (x, p) = (sum[l], self.primes[l]);
            let q = (x as f64 * self.inverse[l]) as u64;
            let r = x.wrapping_sub(q.wrapping_mul(p)) as i64;
            let p = p as i64;
            let r = if r < 0 {
                r + p
            } else if r >= p {
                r - p
            } else {
                r
            };
            out[l] = r as u32;
        }
        out
    }
}

/// A lane vector in registers. Implementations are only used where the processor has
/// their instructions (see [`Residues`](super::residues::Residues)'s dispatch), so the
/// methods are unsafe.
pub trait Vector: Copy {
    /// Zero-extends residues.
    ///
    /// # Safety
    /// The processor must have the implementation's instructions.
    unsafe fn widen(residues: &Lanes) -> Self;
    /// Loads sums.
    ///
    /// # Safety
    /// As for [`Vector::widen`].
    unsafe fn load(sums: &Wide) -> Self;
    /// Stores sums.
    ///
    /// # Safety
    /// As for [`Vector::widen`].
    unsafe fn store(self, sums: &mut Wide);
    /// self + x·y, lane by lane, of the low 32 bits of x and y.
    ///
    /// # Safety
    /// As for [`Vector::widen`].
    unsafe fn mul_add(self, x: Self, y: Self) -> Self;
    /// (self >> 32)·c + (self mod 2^32), lane by lane, c below 2^32.
    ///
    /// # Safety
    /// As for [`Vector::widen`].
    unsafe fn fold(self, c: Self) -> Self;
    /// Each lane modulo its prime ([`Modulus::reduce`]).
    ///
    /// # Safety
    /// As for [`Vector::widen`].
    #[inline(always)]
    unsafe fn reduce(self, modulus: &Modulus) -> Lanes {
        let mut sum = [0u64; LANES];
        // SAFETY: the caller's contract.
        unsafe { self.store(&mut sum) };
        modulus.reduce(sum)
    }
}

/// Plain arrays, for processors without the instructions below.
#[derive(Clone, Copy)]
pub struct Portable(Wide);

impl Vector for Portable {
    #[inline(always)]
    unsafe fn widen(residues: &Lanes) -> Self {
        Portable(residues.map(u64::from))
    }

    #[inline(always)]
    unsafe fn load(sums: &Wide) -> Self {
        Portable(*sums)
    }

    #[inline(always)]
    unsafe fn store(self, sums: &mut Wide) {
        *sums = self.0;
    }

    #[inline(always)]
    unsafe fn mul_add(mut self, x: Self, y: Self) -> Self {
        for l in 0..LANES {
            self.0[l] += (x.0[l] & 0xffff_ffff) * (y.0[l] & 0xffff_ffff);
        }
        self
    }

    #[inline(always)]
    unsafe fn fold(mut self, c: Self) -> Self {
        for l in 0..LANES {
            self.0[l] = (self.0[l] >> 32) * c.0[l] + (self.0[l] & 0xffff_ffff);
        }
        self
    }
}

/// Two AVX-512 registers of eight u64 lanes.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct Avx512([__m512i; 2]);

#[cfg(target_arch = "x86_64")]
impl Vector for Avx512 {
    #[inline(always)]
    unsafe fn widen(residues: &Lanes) -> Self {
        let p = residues.as_ptr() as *const __m256i;
        // SAFETY: `residues` holds 16 u32, two unaligned 256-bit loads; AVX-512F is
        // there (the caller's contract).
        unsafe {
            Avx512([
                _mm512_cvtepu32_epi64(_mm256_loadu_si256(p)),
                _mm512_cvtepu32_epi64(_mm256_loadu_si256(p.add(1))),
            ])
        }
    }

    #[inline(always)]
    unsafe fn load(sums: &Wide) -> Self {
        let p = sums.as_ptr() as *const __m512i;
        // SAFETY: `sums` holds 16 u64, two unaligned 512-bit loads.
        unsafe { Avx512([_mm512_loadu_si512(p), _mm512_loadu_si512(p.add(1))]) }
    }

    #[inline(always)]
    unsafe fn store(self, sums: &mut Wide) {
        let p = sums.as_mut_ptr() as *mut __m512i;
        // SAFETY: as for `load`.
        unsafe {
            _mm512_storeu_si512(p, self.0[0]);
            _mm512_storeu_si512(p.add(1), self.0[1]);
        }
    }

    #[inline(always)]
    unsafe fn mul_add(self, x: Self, y: Self) -> Self {
        // SAFETY: register operations; AVX-512F is there.
        unsafe {
            Avx512([
                _mm512_add_epi64(self.0[0], _mm512_mul_epu32(x.0[0], y.0[0])),
                _mm512_add_epi64(self.0[1], _mm512_mul_epu32(x.0[1], y.0[1])),
            ])
        }
    }

    #[inline(always)]
    unsafe fn fold(self, c: Self) -> Self {
        // SAFETY: register operations; AVX-512F is there.
        unsafe {
            let low = _mm512_set1_epi64(0xffff_ffff);
            let fold = |x: __m512i, c: __m512i| {
                _mm512_add_epi64(
                    _mm512_mul_epu32(_mm512_srli_epi64::<32>(x), c),
                    _mm512_and_si512(x, low),
                )
            };
            Avx512([fold(self.0[0], c.0[0]), fold(self.0[1], c.0[1])])
        }
    }

    /// Folded four times (below 2^50: 2^21 · 2^28 + 2^32), a lane converts to a double
    /// exactly by the 2^52 trick, and the quotient rounded to the nearest integer (by
    /// adding 2^52) is ⌊x/p⌋ or one more (x/p < 2^23, its rounding error below
    /// 2^-29): one correction settles the remainder.
    #[inline(always)]
    unsafe fn reduce(self, modulus: &Modulus) -> Lanes {
        let mut out = [0u32; LANES];
        // SAFETY: register operations, and loads and stores of 8 lanes within the
        // 16-lane arrays; AVX-512F is there.
        unsafe {
            let c = Self::load(&modulus.fold);
            let x = self.fold(c).fold(c).fold(c).fold(c);
            let primes = Self::load(&modulus.primes);
            let magic = _mm512_set1_epi64(0x4330_0000_0000_0000); // 2^52
            let magic_f = _mm512_castsi512_pd(magic);
            for h in 0..2 {
                let f = _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(x.0[h], magic)), magic_f);
                let inverse = _mm512_loadu_pd(modulus.inverse.as_ptr().add(8 * h));
                let t = _mm512_add_pd(_mm512_mul_pd(f, inverse), magic_f);
                let q = _mm512_sub_epi64(_mm512_castpd_si512(t), magic);
                let r = _mm512_sub_epi64(x.0[h], _mm512_mul_epu32(q, primes.0[h]));
                let negative = _mm512_cmplt_epi64_mask(r, _mm512_setzero_si512());
                let r = _mm512_mask_add_epi64(r, negative, r, primes.0[h]);
                _mm256_storeu_si256(
                    out.as_mut_ptr().add(8 * h) as *mut __m256i,
                    _mm512_cvtepi64_epi32(r),
                );
            }
        }
        out
    }
}

/// Four AVX2 registers of four u64 lanes.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct Avx2([__m256i; 4]);

#[cfg(target_arch = "x86_64")]
impl Vector for Avx2 {
    #[inline(always)]
    unsafe fn widen(residues: &Lanes) -> Self {
        let p = residues.as_ptr() as *const __m128i;
        // SAFETY: `residues` holds 16 u32, four unaligned 128-bit loads; AVX2 is there.
        unsafe {
            Avx2(std::array::from_fn(|i| {
                _mm256_cvtepu32_epi64(_mm_loadu_si128(p.add(i)))
            }))
        }
    }

    #[inline(always)]
    unsafe fn load(sums: &Wide) -> Self {
        let p = sums.as_ptr() as *const __m256i;
        // SAFETY: `sums` holds 16 u64, four unaligned 256-bit loads.
        unsafe { Avx2(std::array::from_fn(|i| _mm256_loadu_si256(p.add(i)))) }
    }

    #[inline(always)]
    unsafe fn store(self, sums: &mut Wide) {
        let p = sums.as_mut_ptr() as *mut __m256i;
        // SAFETY: as for `load`.
        unsafe {
            for (i, v) in self.0.into_iter().enumerate() {
                _mm256_storeu_si256(p.add(i), v);
            }
        }
    }

    #[inline(always)]
    unsafe fn mul_add(self, x: Self, y: Self) -> Self {
        // SAFETY: register operations; AVX2 is there.
        unsafe {
            Avx2(std::array::from_fn(|i| {
                _mm256_add_epi64(self.0[i], _mm256_mul_epu32(x.0[i], y.0[i]))
            }))
        }
    }

    #[inline(always)]
    unsafe fn fold(self, c: Self) -> Self {
        // SAFETY: register operations; AVX2 is there.
        unsafe {
            let low = _mm256_set1_epi64x(0xffff_ffff);
            Avx2(std::array::from_fn(|i| {
                _mm256_add_epi64(
                    _mm256_mul_epu32(_mm256_srli_epi64::<32>(self.0[i]), c.0[i]),
                    _mm256_and_si256(self.0[i], low),
                )
            }))
        }
    }
}

/// sum += Σ_i xs[i] · ys[len − 1 − i], lane by lane (xs and ys have the same length):
/// nothing but multiply-adds (no branch, no division; a zero term costs one
/// multiply-add, less than a test). The sum must be folded on entry and is on exit.
///
/// # Safety
/// The processor must have `V`'s instructions.
#[inline(always)]
pub unsafe fn convolve<V: Vector>(sum: &mut Wide, xs: &[Lanes], ys: &[Lanes], modulus: &Modulus) {
    debug_assert_eq!(xs.len(), ys.len());
    // SAFETY: the caller's contract.
    unsafe {
        let c = V::load(&modulus.fold);
        let mut acc = V::load(sum);
        for (xs, ys) in xs.chunks(TERMS_PER_FOLD).zip(ys.rchunks(TERMS_PER_FOLD)) {
            for (x, y) in xs.iter().zip(ys.iter().rev()) {
                acc = acc.mul_add(V::widen(x), V::widen(y));
            }
            acc = acc.fold(c).fold(c).fold(c);
        }
        acc.store(sum);
    }
}

/// sums[j] += Σ_i xs[i] · ys[len − 1 − i + j] for each j < WINDOW, lane by lane (ys has
/// len + WINDOW − 1 entries): the parts w + j of a product, xs the prefix factor and
/// ys the last one. Each x is read once for all j, and the ys a step reads were all
/// but one read by the step before (so they come from the nearest cache; carrying them
/// in registers instead made the compiler lose the 32 × 32-bit multiply). The sums
/// must be folded on entry and are on exit.
///
/// # Safety
/// The processor must have `V`'s instructions.
#[inline(always)]
pub unsafe fn convolve_window<V: Vector>(
    sums: &mut [Wide; WINDOW],
    xs: &[Lanes],
    ys: &[Lanes],
    modulus: &Modulus,
) {
    let len = xs.len();
    assert_eq!(ys.len(), len + WINDOW - 1);
    // SAFETY: the caller's contract; every index below is in bounds (asserted above).
    unsafe {
        let c = V::load(&modulus.fold);
        let mut acc: [V; WINDOW] = std::array::from_fn(|j| V::load(&sums[j]));
        for start in (0..len).step_by(TERMS_PER_FOLD) {
            for i in start..len.min(start + TERMS_PER_FOLD) {
                let x = V::widen(xs.get_unchecked(i));
                let ys = ys.get_unchecked(len - 1 - i..len - 1 - i + WINDOW);
                for (a, y) in acc.iter_mut().zip(ys) {
                    *a = a.mul_add(x, V::widen(y));
                }
            }
            for a in &mut acc {
                *a = a.fold(c).fold(c).fold(c);
            }
        }
        for (a, sum) in acc.into_iter().zip(sums.iter_mut()) {
            a.store(sum);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernels and the reduction of one vector implementation against plain
    /// 128-bit arithmetic, over more terms than one fold holds.
    fn check<V: Vector>(name: &str) {
        let mut basis = super::super::crt::Basis::default();
        basis.grow_to_bits(1.0, LANES);
        let primes: Lanes = basis.primes().try_into().unwrap();
        let modulus = Modulus::new(&primes);
        let residue = |i: usize, l: usize| {
            // The largest residues too, where sums come closest to overflowing.
            let p = u64::from(primes[l]);
            (if i.is_multiple_of(3) {
                p - 1
            } else {
                (i as u64 * 0x9e37_79b9 + l as u64 * 977) % p
            }) as u32
        };
        let len = 700;
        let xs: Vec<Lanes> = (0..len)
            .map(|i| std::array::from_fn(|l| residue(i, l)))
            .collect();
        let ys: Vec<Lanes> = (0..len + WINDOW - 1)
            .map(|i| std::array::from_fn(|l| residue(i * 7, l)))
            .collect();
        let plain = |j: usize| -> Lanes {
            std::array::from_fn(|l| {
                let s: u128 = (0..len)
                    .map(|i| u128::from(xs[i][l]) * u128::from(ys[len - 1 - i + j][l]))
                    .sum();
                (s % u128::from(primes[l])) as u32
            })
        };
        // SAFETY: the callers only pass implementations the processor runs.
        unsafe {
            let mut sum = [0u64; LANES];
            convolve::<V>(&mut sum, &xs, &ys[..len], &modulus);
            assert_eq!(V::load(&sum).reduce(&modulus), plain(0), "{name}: convolve");
            let mut sums = [[0u64; LANES]; WINDOW];
            convolve_window::<V>(&mut sums, &xs, &ys, &modulus);
            for (j, sum) in sums.iter().enumerate() {
                assert_eq!(
                    V::load(sum).reduce(&modulus),
                    plain(j),
                    "{name}: window {j}"
                );
            }
            let top = primes.map(|p| u64::MAX - u64::from(p));
            let want: Lanes = std::array::from_fn(|l| (top[l] % u64::from(primes[l])) as u32);
            assert_eq!(V::load(&top).reduce(&modulus), want, "{name}: reduce");
        }
    }

    #[test]
    fn kernels_agree_with_plain_arithmetic() {
        check::<Portable>("portable");
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                check::<Avx512>("avx512");
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                check::<Avx2>("avx2");
            }
        }
    }
}
