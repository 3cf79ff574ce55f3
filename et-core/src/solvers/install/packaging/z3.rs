//! z3: PyPI `z3-solver` wheels from 4.8.5 on (a standalone `z3` binary), Debian's `z3`.

use super::Packaging;
use crate::solvers::family::{Family, Z3};
use crate::version::{at_least, leading_numbers};

/// Oldest z3-solver wheel whose `z3` binary runs here (older wheels have no binary).
const OLDEST_WHEEL: &str = "4.8.5";

impl Packaging for Z3 {
    fn family(&self) -> &'static dyn Family {
        &Z3
    }

    fn pypi_package(&self) -> Option<&'static str> {
        Some("z3-solver")
    }

    fn wheel_release(&self, pip_version: &str) -> Option<String> {
        // z3-solver versions are X.Y.Z.W; W is a packaging counter, always 0 so far.
        let key = leading_numbers(pip_version);
        let plain = pip_version.split('.').all(|p| p.parse::<u64>().is_ok());
        if !plain || key.len() != 4 {
            return None;
        }
        let release = format!("{}.{}.{}", key[0], key[1], key[2]);
        at_least(&release, OLDEST_WHEEL).then(|| {
            if key[3] == 0 {
                release
            } else {
                pip_version.to_string()
            }
        })
    }

    fn debian_package(&self) -> Option<&'static str> {
        Some("z3")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pypi_versions_map_to_et_versions() {
        assert_eq!(Z3.wheel_release("4.13.0.0").as_deref(), Some("4.13.0"));
        assert_eq!(Z3.wheel_release("4.8.5.0").as_deref(), Some("4.8.5"));
        assert_eq!(Z3.wheel_release("4.8.0.0.post1"), None);
        assert_eq!(Z3.wheel_release("4.5.1.0"), None);
    }
}
