//! Exact feasibility of a conjunction of linear constraints over the unknowns of a
//! division-by-zero search: Fourier–Motzkin elimination over the rationals (strict and
//! non-strict bounds tracked), a solution by back-substitution, and branch and bound
//! for unknowns that must be integers.
//!
//! "Infeasible" is a proof (every step is exact); "feasible" comes with a solution that
//! satisfies every constraint exactly; `Unknown` only when the elimination or the
//! branching exceeds its bounds.

use std::collections::{BTreeSet, HashMap};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use super::domain::{Lin, SymId};

/// How a linear form compares with zero in a constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rel {
    /// `lin < 0`.
    Lt,
    /// `lin ≤ 0`.
    Le,
    /// `lin = 0`.
    Eq,
}

/// `lin rel 0`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub lin: Lin,
    pub rel: Rel,
}

/// The outcome of a feasibility question.
#[derive(Debug)]
pub enum Feasibility {
    /// A solution (every unknown of the constraints has a value).
    Feasible(HashMap<SymId, BigRational>),
    /// No solution exists.
    Infeasible,
    /// The bounds of the procedure were exceeded.
    Unknown,
}

/// Most constraints one elimination step may produce.
const MAX_CONSTRAINTS: usize = 4000;
/// Most nodes of one branch-and-bound tree.
const MAX_NODES: usize = 400;

/// Whether the constraints have a solution in which the unknowns `integer` says are
/// integers take integer values.
pub fn feasible(constraints: &[Constraint], integer: &dyn Fn(SymId) -> bool) -> Feasibility {
    let Some((reduced, substitutions)) = integer_equalities(constraints, integer) else {
        return Feasibility::Infeasible;
    };
    let mut nodes = 0;
    match branch_and_bound(reduced, integer, &mut nodes) {
        Feasibility::Feasible(mut values) => {
            for (s, expr) in substitutions.iter().rev() {
                let v = value_of(expr, &values);
                values.insert(*s, v);
            }
            Feasibility::Feasible(values)
        }
        other => other,
    }
}

/// An all-integer form scaled to integer coefficients: (coefficients' gcd, the scaled
/// form), if every unknown in it is an integer.
fn integral_form(lin: &Lin, integer: &dyn Fn(SymId) -> bool) -> Option<(BigInt, Lin)> {
    if !lin.terms.iter().all(|(s, _)| integer(*s)) {
        return None;
    }
    let mut scale = lin.c.denom().clone();
    for (_, k) in &lin.terms {
        scale = num_integer::Integer::lcm(&scale, k.denom());
    }
    let scaled = lin.scale(&BigRational::from_integer(scale));
    let mut g = BigInt::zero();
    for (_, k) in &scaled.terms {
        g = num_integer::Integer::gcd(&g, k.numer());
    }
    Some((g, scaled))
}

/// A system after exact integer equality elimination, with the substitutions made.
type Reduced = (Vec<Constraint>, Vec<(SymId, Lin)>);

/// Integer equalities solved exactly: an equality over integers whose gcd of
/// coefficients does not divide its constant has no integer solution (so
/// `2·q₁ − 4·q₂ = 1` is refuted, which branch and bound would chase forever), and one
/// with a unit coefficient is substituted away (keeping integrality). `None` when
/// infeasible.
fn integer_equalities(
    constraints: &[Constraint],
    integer: &dyn Fn(SymId) -> bool,
) -> Option<Reduced> {
    let mut work = constraints.to_vec();
    let mut substitutions = Vec::new();
    loop {
        let mut unit = None;
        for (i, c) in work.iter().enumerate() {
            if c.rel != Rel::Eq {
                continue;
            }
            if let Some(k) = c.lin.as_const() {
                if !k.is_zero() {
                    return None;
                }
                continue;
            }
            let Some((g, scaled)) = integral_form(&c.lin, integer) else {
                continue;
            };
            if !(scaled.c.numer() % &g).is_zero() {
                return None;
            }
            if unit.is_none() {
                if let Some((s, _)) = scaled.terms.iter().find(|(_, k)| k.abs().is_one()) {
                    unit = Some((i, *s, scaled.clone()));
                }
            }
        }
        let Some((i, s, scaled)) = unit else {
            return Some((work, substitutions));
        };
        work.swap_remove(i);
        let k = coefficient(&scaled, s).unwrap_or_else(BigRational::one);
        let expr = scaled.sub(&Lin::symbol(s).scale(&k)).scale(&(-k.recip()));
        work = work
            .into_iter()
            .map(|c| Constraint {
                lin: substitute(&c.lin, s, &expr),
                rel: c.rel,
            })
            .collect();
        substitutions.push((s, expr));
    }
}

/// Whether the constraints have a solution over the rationals (no integrality).
pub fn rationally_feasible(constraints: &[Constraint]) -> Option<bool> {
    match solve_rational(constraints, &|_| false) {
        Feasibility::Feasible(_) => Some(true),
        Feasibility::Infeasible => Some(false),
        Feasibility::Unknown => None,
    }
}

fn branch_and_bound(
    constraints: Vec<Constraint>,
    integer: &dyn Fn(SymId) -> bool,
    nodes: &mut usize,
) -> Feasibility {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return Feasibility::Unknown;
    }
    let solution = match solve_rational(&constraints, integer) {
        Feasibility::Feasible(s) => s,
        other => return other,
    };
    let fractional = solution
        .iter()
        .filter(|(s, v)| integer(**s) && !v.is_integer())
        .min_by_key(|(s, _)| **s);
    let Some((&s, v)) = fractional else {
        return Feasibility::Feasible(solution);
    };
    let floor = v.floor();
    let mut unknown = false;
    // s ≤ ⌊v⌋, then s ≥ ⌊v⌋ + 1: one of them holds for every integer s.
    for (lin, rel) in [
        (Lin::symbol(s).sub(&Lin::constant(floor.clone())), Rel::Le),
        (
            Lin::constant(floor + BigRational::one()).sub(&Lin::symbol(s)),
            Rel::Le,
        ),
    ] {
        let mut next = constraints.clone();
        next.push(Constraint { lin, rel });
        match branch_and_bound(next, integer, nodes) {
            Feasibility::Feasible(s) => return Feasibility::Feasible(s),
            Feasibility::Infeasible => {}
            Feasibility::Unknown => unknown = true,
        }
    }
    if unknown {
        Feasibility::Unknown
    } else {
        Feasibility::Infeasible
    }
}

/// One eliminated unknown: how to get its value back from the later ones.
enum Step {
    /// `s = expr` (from an equality).
    Substituted(SymId, Lin),
    /// `s` bounded by these constraints (each mentions `s`).
    Bounded(SymId, Vec<Constraint>),
}

fn solve_rational(constraints: &[Constraint], integer: &dyn Fn(SymId) -> bool) -> Feasibility {
    let mut work: Vec<Constraint> = Vec::new();
    for c in constraints {
        match check_constant(c) {
            Some(true) => {}
            Some(false) => return Feasibility::Infeasible,
            None => work.push(c.clone()),
        }
    }
    let mut steps: Vec<Step> = Vec::new();
    // Equalities first: each removes one unknown by substitution.
    while let Some(i) = work.iter().position(|c| c.rel == Rel::Eq) {
        let eq = work.swap_remove(i);
        let (s, k) = eq.lin.terms[0].clone();
        // s = −(lin − k·s)/k
        let rest = eq.lin.sub(&Lin::symbol(s).scale(&k));
        let expr = rest.scale(&(-k.recip()));
        let mut next = Vec::with_capacity(work.len());
        for c in work {
            let lin = substitute(&c.lin, s, &expr);
            let c = Constraint { lin, rel: c.rel };
            match check_constant(&c) {
                Some(true) => {}
                Some(false) => return Feasibility::Infeasible,
                None => next.push(c),
            }
        }
        work = next;
        steps.push(Step::Substituted(s, expr));
    }
    // Fourier–Motzkin on the inequalities.
    loop {
        let vars: BTreeSet<SymId> = work
            .iter()
            .flat_map(|c| c.lin.terms.iter().map(|(s, _)| *s))
            .collect();
        // The unknown whose elimination makes the fewest new constraints.
        let Some(&s) = vars.iter().min_by_key(|s| {
            let (mut lo, mut hi) = (0usize, 0usize);
            for c in &work {
                match coefficient(&c.lin, **s) {
                    Some(k) if k.is_positive() => hi += 1,
                    Some(_) => lo += 1,
                    None => {}
                }
            }
            lo * hi
        }) else {
            break;
        };
        let (with, without): (Vec<Constraint>, Vec<Constraint>) = work
            .into_iter()
            .partition(|c| coefficient(&c.lin, s).is_some());
        let mut next = without;
        let (uppers, lowers): (Vec<&Constraint>, Vec<&Constraint>) = with
            .iter()
            .partition(|c| coefficient(&c.lin, s).is_some_and(|k| k.is_positive()));
        for u in &uppers {
            for l in &lowers {
                let ku = coefficient(&u.lin, s).unwrap_or_else(BigRational::one);
                let kl = -coefficient(&l.lin, s).unwrap_or_else(BigRational::one);
                // ku·s + U ⋈ 0 and −kl·s + L ⋈ 0 give kl·U + ku·L ⋈ 0.
                let lin = u.lin.scale(&kl).add(&l.lin.scale(&ku));
                let rel = if u.rel == Rel::Lt || l.rel == Rel::Lt {
                    Rel::Lt
                } else {
                    Rel::Le
                };
                let c = Constraint { lin, rel };
                match check_constant(&c) {
                    Some(true) => {}
                    Some(false) => return Feasibility::Infeasible,
                    None => next.push(c),
                }
            }
        }
        if next.len() > MAX_CONSTRAINTS {
            return Feasibility::Unknown;
        }
        let mut seen = std::collections::HashSet::new();
        next.retain(|c| seen.insert(c.clone()));
        steps.push(Step::Bounded(s, with));
        work = next;
    }
    // Back-substitution, last eliminated first.
    let mut values: HashMap<SymId, BigRational> = HashMap::new();
    for step in steps.iter().rev() {
        match step {
            Step::Substituted(s, expr) => {
                let v = value_of(expr, &values);
                values.insert(*s, v);
            }
            Step::Bounded(s, cs) => {
                let v = choose(*s, cs, &values, integer(*s));
                values.insert(*s, v);
            }
        }
    }
    // Unknowns that only ever appeared with others already fixed get 0 by value_of;
    // record them so the solution covers every unknown of the input.
    for c in constraints {
        for (s, _) in &c.lin.terms {
            values.entry(*s).or_insert_with(BigRational::zero);
        }
    }
    Feasibility::Feasible(values)
}

fn check_constant(c: &Constraint) -> Option<bool> {
    let k = c.lin.as_const()?;
    Some(match c.rel {
        Rel::Lt => k.is_negative(),
        Rel::Le => !k.is_positive(),
        Rel::Eq => k.is_zero(),
    })
}

fn coefficient(lin: &Lin, s: SymId) -> Option<BigRational> {
    lin.terms
        .iter()
        .find(|(t, _)| *t == s)
        .map(|(_, k)| k.clone())
}

/// `lin` with `s` replaced by `expr`.
pub fn substitute(lin: &Lin, s: SymId, expr: &Lin) -> Lin {
    match coefficient(lin, s) {
        None => lin.clone(),
        Some(k) => lin.sub(&Lin::symbol(s).scale(&k)).add(&expr.scale(&k)),
    }
}

/// The value of `lin` where every unknown has its value in `values` (0 otherwise).
pub fn value_of(lin: &Lin, values: &HashMap<SymId, BigRational>) -> BigRational {
    let mut acc = lin.c.clone();
    for (s, k) in &lin.terms {
        if let Some(v) = values.get(s) {
            acc += k * v;
        }
    }
    acc
}

/// A value of `s` inside the bounds the constraints give once the other unknowns are
/// fixed: 0 when allowed, else a small value next to a bound; an integer when `s` must
/// be one and the bounds hold one.
fn choose(
    s: SymId,
    cs: &[Constraint],
    values: &HashMap<SymId, BigRational>,
    integer: bool,
) -> BigRational {
    // Each constraint is k·s + rest ⋈ 0, so s ⋈ −rest/k (direction by the sign of k).
    let mut lo: Option<(BigRational, bool)> = None; // (bound, strict)
    let mut hi: Option<(BigRational, bool)> = None;
    for c in cs {
        let Some(k) = coefficient(&c.lin, s) else {
            continue;
        };
        let rest = value_of(&c.lin.sub(&Lin::symbol(s).scale(&k)), values);
        let bound = -rest / &k;
        let strict = c.rel == Rel::Lt;
        if k.is_positive() {
            if hi
                .as_ref()
                .is_none_or(|(h, hs)| bound < *h || (bound == *h && strict && !hs))
            {
                hi = Some((bound, strict));
            }
        } else if lo
            .as_ref()
            .is_none_or(|(l, ls)| bound > *l || (bound == *l && strict && !ls))
        {
            lo = Some((bound, strict));
        }
    }
    let admits = |v: &BigRational| {
        lo.as_ref()
            .is_none_or(|(l, strict)| if *strict { v > l } else { v >= l })
            && hi
                .as_ref()
                .is_none_or(|(h, strict)| if *strict { v < h } else { v <= h })
    };
    let zero = BigRational::zero();
    if admits(&zero) {
        return zero;
    }
    let one = BigRational::one();
    if integer {
        let mut candidates = Vec::new();
        if let Some((l, _)) = &lo {
            let f = l.floor();
            candidates.extend([f.clone(), f + &one]);
        }
        if let Some((h, _)) = &hi {
            let c = h.ceil();
            candidates.extend([c.clone(), c - &one]);
        }
        if let Some(v) = candidates.into_iter().find(|v| admits(v)) {
            return v;
        }
    }
    match (&lo, &hi) {
        (Some((l, _)), Some((h, _))) if l == h => l.clone(),
        (Some((l, _)), Some((h, _))) => (l + h) / BigRational::from_integer(BigInt::from(2)),
        (Some((l, _)), None) => l.floor() + &one,
        (None, Some((h, _))) => h.ceil() - &one,
        (None, None) => zero,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64) -> BigRational {
        BigRational::from_integer(BigInt::from(n))
    }

    /// k0·s0 + k1·s1 + c rel 0
    fn c(k0: i64, k1: i64, c: i64, rel: Rel) -> Constraint {
        let lin = Lin::symbol(0)
            .scale(&q(k0))
            .add(&Lin::symbol(1).scale(&q(k1)))
            .add(&Lin::constant(q(c)));
        Constraint { lin, rel }
    }

    fn check(cs: &[Constraint], sol: &HashMap<SymId, BigRational>) -> bool {
        cs.iter().all(|c| {
            let v = value_of(&c.lin, sol);
            match c.rel {
                Rel::Lt => v.is_negative(),
                Rel::Le => !v.is_positive(),
                Rel::Eq => v.is_zero(),
            }
        })
    }

    #[test]
    fn decides_small_systems_exactly() {
        let ints = |_: SymId| true;
        let reals = |_: SymId| false;
        // s0 > 0, s0 < 1: rational yes, integer no.
        let open_unit = [c(-1, 0, 0, Rel::Lt), c(1, 0, -1, Rel::Lt)];
        assert!(matches!(
            feasible(&open_unit, &ints),
            Feasibility::Infeasible
        ));
        match feasible(&open_unit, &reals) {
            Feasibility::Feasible(s) => assert!(check(&open_unit, &s)),
            other => panic!("{other:?}"),
        }
        // 2·s0 = 1 has no integer solution; 2·s0 − 2·s1 = 4, s1 ≥ 3 has s0 = 5;
        // s0 = 2·s1 and s0 − 4·s2 = 1 have none (only after substitution).
        let s2 = |k: i64| Lin::symbol(2).scale(&q(k));
        let odd = [
            c(1, -2, 0, Rel::Eq),
            Constraint {
                lin: Lin::symbol(0).add(&s2(-4)).add(&Lin::constant(q(-1))),
                rel: Rel::Eq,
            },
        ];
        assert!(matches!(feasible(&odd, &ints), Feasibility::Infeasible));
        assert!(matches!(
            feasible(&[c(2, 0, -1, Rel::Eq)], &ints),
            Feasibility::Infeasible
        ));
        let system = [c(2, -2, -4, Rel::Eq), c(0, -1, 3, Rel::Le)];
        match feasible(&system, &ints) {
            Feasibility::Feasible(s) => {
                assert!(check(&system, &s));
                assert!(s.values().all(BigRational::is_integer));
            }
            other => panic!("{other:?}"),
        }
        // s0 ≤ s1 − 1, s1 ≤ s0: infeasible.
        assert!(matches!(
            feasible(&[c(1, -1, 1, Rel::Le), c(-1, 1, 0, Rel::Le)], &reals),
            Feasibility::Infeasible
        ));
        // s0 < s1, s1 ≤ s0 (strictness matters).
        assert!(matches!(
            feasible(&[c(1, -1, 0, Rel::Lt), c(-1, 1, 0, Rel::Le)], &reals),
            Feasibility::Infeasible
        ));
        assert_eq!(
            rationally_feasible(&[c(1, -1, 0, Rel::Le), c(-1, 1, 0, Rel::Le)]),
            Some(true)
        );
    }
}
