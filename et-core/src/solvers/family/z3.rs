//! z3 (Microsoft Research): PyPI `z3-solver` wheels from 4.8.5 on (a standalone `z3`
//! binary), Debian's `z3`. Validates its own models with `model_validate=true`; judged
//! by the newest cvc5 (else cvc4) by default; strings became Unicode in 4.8.11.

use et_eval::string::Dialect as StringDialect;
use et_eval::ModelDialect;

use super::{Echo, Family, SessionProtocol};
use crate::version::{at_least, compare_versions, leading_numbers};

/// The z3 family.
#[derive(Debug, Clone, Copy)]
pub struct Z3;

/// Oldest z3-solver wheel whose `z3` binary runs here (older wheels have no binary).
const OLDEST_WHEEL: &str = "4.8.5";

/// The first release with Unicode strings (and its `unicode` switch).
const UNICODE_STRINGS: &str = "4.8.11";

/// The first release where the switch is `encoding=unicode|bmp|ascii` instead.
const ENCODING_OPTION: &str = "4.8.13";

impl Family for Z3 {
    fn name(&self) -> &'static str {
        "z3"
    }

    fn self_check_options(&self) -> &'static [&'static str] {
        &["model_validate=true"]
    }

    fn answer_checks(&self) -> &'static [&'static str] {
        self.self_check_options()
    }

    fn reference_families(&self) -> &'static [&'static str] {
        &["cvc5", "cvc4"]
    }

    fn model_options(&self) -> Option<&'static [&'static str]> {
        // z3's `model=true` is on by default: `(get-model)` just works.
        Some(&[])
    }

    fn model_dialect(&self, version: &str) -> ModelDialect {
        // Releases with 8-bit strings escape characters as `\xNN` in models.
        let legacy = compare_versions(version, UNICODE_STRINGS) == std::cmp::Ordering::Less;
        ModelDialect {
            strings: if legacy {
                StringDialect::Z3Legacy
            } else {
                StringDialect::Smtlib26
            },
            ..ModelDialect::default()
        }
    }

    fn unicode_strings_since(&self) -> Option<&'static str> {
        Some(UNICODE_STRINGS)
    }

    fn ascii_strings_options(&self, version: &str) -> Option<&'static [&'static str]> {
        use std::cmp::Ordering::Less;
        Some(if compare_versions(version, UNICODE_STRINGS) == Less {
            &[] // characters are 8-bit already
        } else if compare_versions(version, ENCODING_OPTION) == Less {
            &["unicode=false"]
        } else {
            &["encoding=ascii"]
        })
    }

    fn session(&self, version: &str) -> Option<SessionProtocol> {
        // Measured: the same answers as fresh processes; options survive `(reset)`;
        // after an error z3 goes on (the rejected assertion left out), as a fresh z3
        // does. 4.16 about 6x faster than fresh, 4.8.x only 1.6-2.4x (`(reset)` itself
        // takes 5-7 ms there), which is still a gain.
        let _ = version;
        Some(SessionProtocol {
            options: &["-in"],
            reset: "(reset)",
            restore: &[],
            echo: Echo::Bare,
            ends_on_error: false,
            model_dump: None,
        })
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
