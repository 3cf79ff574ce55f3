//! What to install: version requirements and the specs users write (`z3@4.13.0`,
//! `cvc5@all`, `debian`). Which releases of a family are usable is its packaging's
//! knowledge ([`super::packaging`]).
//!
//! Pure data and parsing. *Must not:* run commands, touch files or reach PyPI; turning
//! a requirement into concrete releases is the installer's job.

use super::packaging::{self, Packaging};
use super::InstallError;

/// Which versions a spec asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionReq {
    /// One release, e.g. `4.13.0`.
    Exact(String),
    /// The newest usable release whose version starts with this prefix (`4.x` → `4.`).
    NewestWith(String),
    /// The newest usable release (`FAMILY@latest`, or the family alone).
    Latest,
    /// Every usable release.
    All,
}

/// One thing to install: `z3@4.13.0`, `z3@all`, `z3@4.x`, `cvc5@latest` (or `cvc5`
/// alone), `yices@2.6.5`, `bitwuzla@0.9.1`, or `debian` (the Debian packages of the
/// families that have one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// Releases of a family installed from PyPI wheels.
    Pypi(&'static dyn Packaging, VersionReq),
    /// The families' Debian packages (z3, cvc5, cvc4) through apt-get.
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
        // A family alone asks for its newest release, as `pip install z3-solver` and
        // `cargo install` do.
        let (family, version) = text.split_once('@').unwrap_or((text, "latest"));
        let family = packaging::find(family)
            .filter(|p| p.pypi_package().is_some())
            .ok_or_else(|| {
                // Without an `@` the word may be no family at all (`z3-4.13.0`).
                let form = if text.contains('@') {
                    ""
                } else {
                    "expected FAMILY, FAMILY@VERSION (z3@4.13.0, cvc5@all, ...) or `debian`; "
                };
                bad(&format!(
                    "{form}the family must be {}",
                    packaging::installable_names()
                ))
            })?;
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

impl std::fmt::Display for VersionReq {
    /// The version part of a spec, as written: `4.13.0`, `4.x`, `latest`, `all`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VersionReq::Exact(v) => f.write_str(v),
            VersionReq::NewestWith(prefix) => write!(f, "{prefix}x"),
            VersionReq::Latest => f.write_str("latest"),
            VersionReq::All => f.write_str("all"),
        }
    }
}

impl std::fmt::Display for Spec {
    /// The spec as written: `z3@4.13.0`, `cvc5@all`, `debian`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Pypi(family, req) => write!(f, "{}@{req}", family.family().name()),
            Spec::Debian => f.write_str("debian"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let z3 = packaging::find("z3").unwrap();
        assert_eq!(
            Spec::parse("z3@4.13.0").unwrap(),
            Spec::Pypi(z3, VersionReq::Exact("4.13.0".into()))
        );
        assert_eq!(
            Spec::parse("z3@4.x").unwrap(),
            Spec::Pypi(z3, VersionReq::NewestWith("4.".into()))
        );
        assert_eq!(
            Spec::parse("cvc5@all").unwrap(),
            Spec::Pypi(packaging::find("cvc5").unwrap(), VersionReq::All)
        );
        assert_eq!(
            Spec::parse("bitwuzla@0.9.1").unwrap(),
            Spec::Pypi(
                packaging::find("bitwuzla").unwrap(),
                VersionReq::Exact("0.9.1".into())
            )
        );
        assert_eq!(Spec::parse("debian").unwrap(), Spec::Debian);
        let err = Spec::parse("boolector@3").unwrap_err().to_string();
        assert!(
            err.contains("`boolector@3`") && err.contains("z3, cvc5, yices or bitwuzla"),
            "{err}"
        );
        assert!(Spec::parse("cvc4@1.8").is_err(), "cvc4 has no wheels");
        for text in ["z3@4.13.0", "z3@4.x", "cvc5@latest", "yices@all", "debian"] {
            assert_eq!(Spec::parse(text).unwrap().to_string(), text);
        }
        // A family alone is its newest release; it reads back as the spec it means.
        assert_eq!(
            Spec::parse("z3").unwrap(),
            Spec::Pypi(z3, VersionReq::Latest)
        );
        assert_eq!(Spec::parse("cvc5").unwrap().to_string(), "cvc5@latest");
        let err = Spec::parse("z3-4.13.0").unwrap_err().to_string();
        assert!(
            err.contains("FAMILY@VERSION") && err.contains("the family must be"),
            "{err}"
        );
        assert!(Spec::parse("z3@").is_err());
    }
}
