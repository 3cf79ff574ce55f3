//! Boolector: recognised in pools and ET's `solvers.cfg` (PyPI has only bindings and
//! Debian an SMT-LIB 1 release from 2012, so et does not install it).

use super::Family;

/// The boolector family.
#[derive(Debug, Clone, Copy)]
pub struct Boolector;

impl Family for Boolector {
    fn name(&self) -> &'static str {
        "boolector"
    }
}
