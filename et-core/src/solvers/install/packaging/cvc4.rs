//! cvc4: only Debian's 1.8 binary (no wheels with a program).

use super::Packaging;
use crate::solvers::family::{Cvc4, Family};

impl Packaging for Cvc4 {
    fn family(&self) -> &'static dyn Family {
        &Cvc4
    }

    fn debian_package(&self) -> Option<&'static str> {
        Some("cvc4")
    }
}
