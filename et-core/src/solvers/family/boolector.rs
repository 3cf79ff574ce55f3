//! Boolector: recognised in pools and ET's `solvers.cfg` (et does not install it: PyPI
//! has only bindings and Debian an SMT-LIB 1 release from 2012, so it has no
//! packaging in `crate::solvers::install::packaging`).

use super::Family;

/// The boolector family.
#[derive(Debug, Clone, Copy)]
pub struct Boolector;

impl Family for Boolector {
    fn name(&self) -> &'static str {
        "boolector"
    }
}
