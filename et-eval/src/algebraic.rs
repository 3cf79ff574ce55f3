//! Real algebraic numbers, exactly: a square-free polynomial with rational
//! coefficients and an open interval with rational ends that holds exactly one of its
//! roots. Comparisons with rationals are decided by the polynomial's sign (Sturm
//! sequences count roots), and the interval is refined by bisection until they are.
//!
//! This is what z3 prints as `(root-obj p k)` (the k-th smallest real root of p) and
//! cvc5 as `(_ real_algebraic_number <p, (lo, hi)>)`.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// A polynomial in one variable: coefficients from the constant term up, no trailing
/// zeros (the zero polynomial is empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Poly(pub Vec<BigRational>);

impl Poly {
    /// Removes trailing zero coefficients.
    pub fn normalized(mut self) -> Poly {
        while self.0.last().is_some_and(Zero::is_zero) {
            self.0.pop();
        }
        self
    }

    /// The degree (0 for constants, including zero).
    pub fn degree(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    /// Whether it is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The value at `x`.
    pub fn eval(&self, x: &BigRational) -> BigRational {
        let mut acc = BigRational::zero();
        for c in self.0.iter().rev() {
            acc = acc * x + c;
        }
        acc
    }

    /// The sign of the value at `x`.
    pub fn sign_at(&self, x: &BigRational) -> Ordering {
        self.eval(x).cmp(&BigRational::zero())
    }

    fn derivative(&self) -> Poly {
        Poly(
            self.0
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, c)| c * BigRational::from_integer(BigInt::from(i)))
                .collect(),
        )
        .normalized()
    }

    /// `self · other`.
    pub fn mul(&self, other: &Poly) -> Poly {
        if self.is_zero() || other.is_zero() {
            return Poly(Vec::new());
        }
        let mut out = vec![BigRational::zero(); self.0.len() + other.0.len() - 1];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in other.0.iter().enumerate() {
                out[i + j] += a * b;
            }
        }
        Poly(out).normalized()
    }

    /// `self + other`.
    pub fn add(&self, other: &Poly) -> Poly {
        let n = self.0.len().max(other.0.len());
        Poly(
            (0..n)
                .map(|i| {
                    self.0.get(i).cloned().unwrap_or_default()
                        + other.0.get(i).cloned().unwrap_or_default()
                })
                .collect(),
        )
        .normalized()
    }

    /// The remainder of `self` divided by `d` (non-zero).
    pub fn rem(&self, d: &Poly) -> Poly {
        let mut r = self.0.clone();
        let lead = d.0.last().cloned().unwrap_or_else(BigRational::one);
        while r.len() >= d.0.len() && !r.is_empty() {
            let shift = r.len() - d.0.len();
            let k = r.last().cloned().unwrap_or_default() / &lead;
            for (i, c) in d.0.iter().enumerate() {
                r[shift + i] -= &k * c;
            }
            r.pop();
            while r.last().is_some_and(Zero::is_zero) {
                r.pop();
            }
        }
        Poly(r).normalized()
    }

    fn quot(&self, d: &Poly) -> Poly {
        let mut r = self.0.clone();
        let lead = d.0.last().cloned().unwrap_or_else(BigRational::one);
        let mut q = vec![BigRational::zero(); (r.len() + 1).saturating_sub(d.0.len())];
        while r.len() >= d.0.len() && !r.is_empty() {
            let shift = r.len() - d.0.len();
            let k = r.last().cloned().unwrap_or_default() / &lead;
            for (i, c) in d.0.iter().enumerate() {
                r[shift + i] -= &k * c;
            }
            q[shift] = k;
            r.pop();
        }
        Poly(q).normalized()
    }

    /// The greatest common divisor (monic).
    pub fn gcd(&self, other: &Poly) -> Poly {
        let (mut a, mut b) = (self.clone(), other.clone());
        while !b.is_zero() {
            let r = a.rem(&b);
            a = b;
            b = r;
        }
        match a.0.last().cloned() {
            Some(lead) => Poly(a.0.iter().map(|c| c / &lead).collect()),
            None => a,
        }
    }

    /// The square-free part.
    pub fn square_free(&self) -> Poly {
        let g = self.gcd(&self.derivative());
        if g.degree() == 0 {
            self.clone()
        } else {
            self.quot(&g)
        }
    }

    /// The Sturm sequence of a square-free polynomial.
    fn sturm(&self) -> Vec<Poly> {
        let mut seq = vec![self.clone(), self.derivative()];
        loop {
            let n = seq.len();
            if seq[n - 1].is_zero() {
                seq.pop();
                break;
            }
            let r = seq[n - 2].rem(&seq[n - 1]);
            if r.is_zero() {
                break;
            }
            seq.push(Poly(r.0.iter().map(|c| -c).collect()));
        }
        seq
    }
}

/// Sign changes of the Sturm sequence at `x`.
fn variations(seq: &[Poly], x: &BigRational) -> usize {
    let signs: Vec<Ordering> = seq
        .iter()
        .map(|p| p.sign_at(x))
        .filter(|s| *s != Ordering::Equal)
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// Roots of a square-free polynomial in the half-open interval (a, b].
fn count_roots(seq: &[Poly], a: &BigRational, b: &BigRational) -> usize {
    variations(seq, a).saturating_sub(variations(seq, b))
}

/// A real number: rational, or an algebraic irrational.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Real {
    /// A rational.
    Rational(BigRational),
    /// An irrational root of a polynomial.
    Algebraic(Algebraic),
}

/// The unique root of `poly` in the open interval (`lo`, `hi`); `poly` is square-free
/// with no rational root in the interval.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Algebraic {
    /// The defining polynomial (square-free).
    pub poly: Poly,
    /// Lower end (not a root).
    pub lo: BigRational,
    /// Upper end (not a root).
    pub hi: BigRational,
}

/// Most bisections of one isolating interval.
const MAX_BISECTIONS: usize = 4000;

fn half(a: &BigRational, b: &BigRational) -> BigRational {
    (a + b) / BigRational::from_integer(BigInt::from(2))
}

/// A bound on the absolute value of every root (Cauchy).
fn root_bound(p: &Poly) -> BigRational {
    let lead = p.0.last().cloned().unwrap_or_else(BigRational::one).abs();
    let max =
        p.0.iter()
            .take(p.0.len().saturating_sub(1))
            .map(|c| c.abs() / &lead)
            .max()
            .unwrap_or_default();
    max + BigRational::one()
}

/// The root in (lo, hi] (exactly one of the square-free `poly`'s there) as a number.
fn make(poly: Poly, lo: BigRational, hi: BigRational) -> Option<Real> {
    if poly.sign_at(&hi) == Ordering::Equal {
        return Some(Real::Rational(hi));
    }
    if poly.degree() == 1 {
        return Some(Real::Rational(-&poly.0[0] / &poly.0[1]));
    }
    // lo is no root (the root is in (lo, hi]), nor is hi now: an open isolating
    // interval. A rational root inside is still handled exactly (comparisons evaluate
    // the polynomial at the rational).
    Some(Real::Algebraic(Algebraic { poly, lo, hi }))
}

impl Real {
    /// The `index`-th smallest real root (from 1) of `poly`, z3's `root-obj`.
    pub fn root(poly: &Poly, index: usize) -> Option<Real> {
        let p = poly.clone().normalized().square_free();
        if p.degree() == 0 || index == 0 {
            return None;
        }
        let seq = p.sturm();
        let bound = root_bound(&p);
        let (mut lo, mut hi) = (-bound.clone(), bound);
        if count_roots(&seq, &lo, &hi) < index {
            return None;
        }
        // Narrow (lo, hi] to hold exactly the index-th root.
        let mut below = 0; // roots ≤ lo
        for _ in 0..MAX_BISECTIONS {
            if count_roots(&seq, &lo, &hi) == 1 && below + 1 == index {
                return make(p, lo, hi);
            }
            let m = half(&lo, &hi);
            let left = count_roots(&seq, &lo, &m);
            if below + left >= index {
                hi = m;
            } else {
                below += left;
                lo = m;
            }
        }
        None
    }

    /// The root of `poly` in the open interval (`lo`, `hi`), cvc5's
    /// `real_algebraic_number`; `None` unless exactly one root lies there.
    pub fn in_interval(poly: &Poly, mut lo: BigRational, hi: BigRational) -> Option<Real> {
        let p = poly.clone().normalized().square_free();
        if p.degree() == 0 || lo >= hi {
            return None;
        }
        let seq = p.sturm();
        let at_hi = usize::from(p.sign_at(&hi) == Ordering::Equal);
        if count_roots(&seq, &lo, &hi) - at_hi != 1 {
            return None;
        }
        // Exclude a root at hi by moving hi inwards below it, keeping the inner root.
        let mut hi = hi;
        while p.sign_at(&hi) == Ordering::Equal {
            let m = half(&lo, &hi);
            if count_roots(&seq, &lo, &m) == 1 {
                hi = m;
            } else {
                // The inner root is in (m, hi): hi itself is the other root.
                lo = m;
                hi = half(&lo, &hi);
                if count_roots(&seq, &lo, &hi) != 1 {
                    return None;
                }
            }
        }
        while p.sign_at(&lo) == Ordering::Equal && p.sign_at(&hi) != Ordering::Equal {
            let m = half(&lo, &hi);
            if count_roots(&seq, &lo, &m) == 0 {
                lo = m;
            } else {
                hi = m;
            }
        }
        make(p, lo, hi)
    }
}

impl Algebraic {
    /// Halves the isolating interval.
    pub fn bisect(&mut self) {
        let m = half(&self.lo, &self.hi);
        match self.poly.sign_at(&m) {
            // Irrational by construction: m is never the root, but stay safe.
            Ordering::Equal => {
                self.lo = m.clone();
                self.hi = m;
            }
            s if s == self.poly.sign_at(&self.lo) => self.lo = m,
            _ => self.hi = m,
        }
    }

    /// Refines the interval to width at most 2^−bits.
    pub fn refine(&mut self, bits: u64) {
        let width = BigRational::new(BigInt::one(), BigInt::one() << bits.min(100_000) as usize);
        let mut steps = 0;
        while &self.hi - &self.lo > width && steps < MAX_BISECTIONS {
            self.bisect();
            steps += 1;
        }
    }

    /// How the number compares with the rational `q`.
    pub fn cmp_rational(&self, q: &BigRational) -> Ordering {
        if self.lo == self.hi {
            // A bisection hit the root: it is lo.
            return self.lo.cmp(q);
        }
        if *q <= self.lo {
            return Ordering::Greater;
        }
        if *q >= self.hi {
            return Ordering::Less;
        }
        // lo < q < hi: q is the root if p(q) = 0, else the root is on the side where
        // the sign changes.
        match self.poly.sign_at(q) {
            Ordering::Equal => Ordering::Equal,
            // No sign change on (lo, q): the root is above q.
            s if s == self.poly.sign_at(&self.lo) => Ordering::Greater,
            _ => Ordering::Less,
        }
    }

    /// The sign of `e(α)` for a polynomial `e`, exactly: zero iff α is a root of
    /// gcd(e, p); otherwise the interval is refined until `e` keeps one sign on it.
    pub fn sign_of(&self, e: &Poly) -> Option<Ordering> {
        let e = e.clone().normalized();
        if self.lo == self.hi {
            return Some(e.sign_at(&self.lo));
        }
        if e.degree() == 0 {
            return Some(
                e.0.first()
                    .map_or(Ordering::Equal, |c| c.cmp(&BigRational::zero())),
            );
        }
        let g = self.poly.gcd(&e);
        if g.degree() > 0 {
            // g divides the square-free p, so it has at most α as root in (lo, hi).
            let (a, b) = (g.sign_at(&self.lo), g.sign_at(&self.hi));
            if a != b && a != Ordering::Equal && b != Ordering::Equal {
                return Some(Ordering::Equal);
            }
        }
        let mut alpha = self.clone();
        let seq = e.square_free().sturm();
        for _ in 0..MAX_BISECTIONS {
            if alpha.lo == alpha.hi {
                return Some(e.sign_at(&alpha.lo));
            }
            // No root of e in [lo, hi]: e has one sign there, its sign at lo.
            let s = e.sign_at(&alpha.lo);
            if s != Ordering::Equal
                && e.sign_at(&alpha.hi) != Ordering::Equal
                && count_roots(&seq, &alpha.lo, &alpha.hi) == 0
            {
                return Some(s);
            }
            alpha.bisect();
        }
        None
    }

    /// A rational enclosure `[lo, hi]`.
    pub fn bounds(&self) -> (BigRational, BigRational) {
        (self.lo.clone(), self.hi.clone())
    }
}

/// Reads z3's polynomial `(+ (^ x 2) (- 2))` in the variable `var`.
pub fn poly_from_z3(sexp: &crate::sexp::Sexp) -> Option<Poly> {
    use crate::sexp::SexpKind;
    let number = |s: &crate::sexp::Sexp| -> Option<BigRational> {
        match &s.kind {
            SexpKind::Numeral(n) => Some(BigRational::from_integer(n.parse().ok()?)),
            SexpKind::Decimal(d) => crate::script::parse_decimal(d),
            _ => None,
        }
    };
    if let Some(q) = number(sexp) {
        return Some(Poly(vec![q]).normalized());
    }
    match &sexp.kind {
        SexpKind::Symbol(_) => Some(Poly(vec![BigRational::zero(), BigRational::one()])),
        SexpKind::List(items) => {
            let head = items.first()?.as_symbol()?;
            let args = &items[1..];
            match head {
                "+" => args
                    .iter()
                    .try_fold(Poly(Vec::new()), |acc, a| Some(acc.add(&poly_from_z3(a)?))),
                "*" => args
                    .iter()
                    .try_fold(Poly(vec![BigRational::one()]), |acc, a| {
                        Some(acc.mul(&poly_from_z3(a)?))
                    }),
                "-" if args.len() == 1 => {
                    let p = poly_from_z3(&args[0])?;
                    Some(Poly(p.0.iter().map(|c| -c).collect()))
                }
                "-" => {
                    let first = poly_from_z3(args.first()?)?;
                    args[1..].iter().try_fold(first, |acc, a| {
                        let p = poly_from_z3(a)?;
                        Some(acc.add(&Poly(p.0.iter().map(|c| -c).collect())))
                    })
                }
                "/" if args.len() == 2 => {
                    let (n, d) = (number(&args[0])?, number(&args[1])?);
                    (!d.is_zero()).then(|| Poly(vec![n / d]).normalized())
                }
                "^" if args.len() == 2 => {
                    let base = poly_from_z3(&args[0])?;
                    let SexpKind::Numeral(k) = &args[1].kind else {
                        return None;
                    };
                    let k: u32 = k.parse().ok().filter(|k| *k <= 64)?;
                    let mut acc = Poly(vec![BigRational::one()]);
                    for _ in 0..k {
                        acc = acc.mul(&base);
                    }
                    Some(acc)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn rational_text(text: &str) -> Option<BigRational> {
    let t = text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim()),
        None => (false, t),
    };
    let q = match t.split_once('/') {
        Some((n, d)) => {
            let d: BigInt = d.trim().parse().ok()?;
            if d.is_zero() {
                return None;
            }
            BigRational::new(n.trim().parse().ok()?, d)
        }
        None => crate::script::parse_decimal(t)?,
    };
    Some(if neg { -q } else { q })
}

/// Reads cvc5's `<1*x^2 + (-2), (-3/2, -5/4)>` (the text between the angle brackets
/// included): the polynomial and the isolating interval.
pub fn from_cvc5(text: &str) -> Option<Real> {
    let inner = text.trim().strip_prefix('<')?.strip_suffix('>')?;
    let (poly_text, interval) = inner.rsplit_once(", (")?;
    let (lo, hi) = interval.strip_suffix(')')?.split_once(',')?;
    let (lo, hi) = (rational_text(lo)?, rational_text(hi)?);
    let mut poly = Poly(Vec::new());
    for term in poly_text.split(" + ") {
        let term = term.trim();
        let (coef, power) = match term.split_once('x') {
            None => (rational_text(term)?, 0usize),
            Some((c, p)) => {
                let c = c.trim().trim_end_matches('*');
                let coef = if c.is_empty() {
                    BigRational::one()
                } else if c == "-" {
                    -BigRational::one()
                } else {
                    rational_text(c)?
                };
                let power = match p.trim().strip_prefix('^') {
                    Some(k) => k.trim().parse().ok().filter(|k: &usize| *k <= 64)?,
                    None if p.trim().is_empty() => 1,
                    None => return None,
                };
                (coef, power)
            }
        };
        let mut coefs = vec![BigRational::zero(); power + 1];
        coefs[power] = coef;
        poly = poly.add(&Poly(coefs));
    }
    Real::in_interval(&poly, lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sexp::read_all;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn roots_compare_exactly() {
        let p = poly_from_z3(&read_all("(+ (^ x 2) (- 2))").unwrap()[0]).unwrap();
        let Some(Real::Algebraic(minus_sqrt2)) = Real::root(&p, 1) else {
            panic!("-√2 is irrational")
        };
        assert_eq!(minus_sqrt2.cmp_rational(&q(0, 1)), Ordering::Less);
        assert_eq!(minus_sqrt2.cmp_rational(&q(-141, 100)), Ordering::Less);
        assert_eq!(minus_sqrt2.cmp_rational(&q(-142, 100)), Ordering::Greater);
        // α² − 2 = 0, α² − 3 < 0, α + 1 < 0.
        let x2 = Poly(vec![q(0, 1), q(0, 1), q(1, 1)]);
        assert_eq!(
            minus_sqrt2.sign_of(&x2.add(&Poly(vec![q(-2, 1)]))),
            Some(Ordering::Equal)
        );
        assert_eq!(
            minus_sqrt2.sign_of(&x2.add(&Poly(vec![q(-3, 1)]))),
            Some(Ordering::Less)
        );
        assert_eq!(
            minus_sqrt2.sign_of(&Poly(vec![q(1, 1), q(1, 1)])),
            Some(Ordering::Less)
        );
        // Rational roots compare exactly: (x − 1)(x + 2) has roots −2 and 1.
        let r = Poly(vec![q(-2, 1), q(1, 1), q(1, 1)]);
        let cmp = |k: usize, x: BigRational| match Real::root(&r, k) {
            Some(Real::Rational(v)) => v.cmp(&x),
            Some(Real::Algebraic(a)) => a.cmp_rational(&x),
            None => panic!("no root {k}"),
        };
        assert_eq!(cmp(1, q(-2, 1)), Ordering::Equal);
        assert_eq!(cmp(2, q(1, 1)), Ordering::Equal);
        assert_eq!(cmp(2, q(3, 2)), Ordering::Less);
        assert_eq!(Real::root(&r, 3), None);
        let Some(Real::Algebraic(c)) = from_cvc5("<1*x^2 + (-2), (-3/2, -5/4)>") else {
            panic!("cvc5's −√2")
        };
        assert_eq!(c.cmp_rational(&q(-1414, 1000)), Ordering::Less);
        assert_eq!(c.cmp_rational(&q(-1415, 1000)), Ordering::Greater);
        assert_eq!(from_cvc5("<1*x^2 + (-2), (0, 1)>"), None);
    }
}
