//! Boolector: recognised in pools and ET's `solvers.cfg` (et does not install it: PyPI
//! has only bindings and Debian an SMT-LIB 1 release from 2012, so it has no
//! packaging in `crate::solvers::install::packaging`).

use super::catalog::Theory;
use super::Family;

/// The boolector family.
#[derive(Debug, Clone, Copy)]
pub struct Boolector;

impl Family for Boolector {
    fn name(&self) -> &'static str {
        "boolector"
    }

    fn lacks(&self, needs: &[Theory]) -> Option<String> {
        // Bit-vectors, arrays and uninterpreted functions; its quantifier support
        // covers bit-vectors only and is not what its SMT-LIB front end is known for,
        // so et sends it no quantified formula.
        super::missing_theories(needs, &[Theory::BitVectors, Theory::Arrays])
    }
}
