//! Bitwuzla: recognised in pools and ET's `solvers.cfg` (its PyPI wheels hold Python
//! bindings, not a program, so et does not install it). Judged like any family
//! without a reference of its own.

use super::Family;

/// The bitwuzla family.
#[derive(Debug, Clone, Copy)]
pub struct Bitwuzla;

impl Family for Bitwuzla {
    fn name(&self) -> &'static str {
        "bitwuzla"
    }
}
