//! The families' Debian packages (`z3`, `cvc5`, `cvc4`): installed with apt-get when
//! missing, and described as pool entries named `<family>-<version>-debian` that run
//! `/usr/bin/<package>`.
//!
//! *Must not:* write the pool file or touch `<home>`; the installer registers what this
//! returns.

use std::process::Command;

use super::super::pool::SolverConfig;
use super::command::run;
use super::packaging::{Packaging, PACKAGINGS};
use super::InstallError;

/// Installs the Debian package of every family that has one with apt-get (as root) if
/// missing and returns their configs, named `<family>-<version>-debian`.
pub(super) fn install() -> Result<Vec<SolverConfig>, InstallError> {
    let packages: Vec<(&dyn Packaging, &str)> = PACKAGINGS
        .iter()
        .filter_map(|p| Some((*p, p.debian_package()?)))
        .collect();
    let installed = |pkg: &str| {
        Command::new("dpkg-query")
            .args(["-W", "-f=${Status}", pkg])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
    };
    let missing: Vec<&str> = packages
        .iter()
        .map(|(_, pkg)| *pkg)
        .filter(|p| !installed(p))
        .collect();
    if !missing.is_empty() {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err(InstallError::Command {
                command: format!("apt-get install -y {}", missing.join(" ")),
                detail: "installing Debian packages needs root; run it with sudo, then \
                         `et solvers install debian` again"
                    .to_string(),
            });
        }
        let mut apt = Command::new("apt-get");
        apt.args(["install", "-y", "--no-install-recommends"])
            .args(&missing);
        apt.env("DEBIAN_FRONTEND", "noninteractive");
        if run(&mut apt).is_err() {
            run(Command::new("apt-get").arg("update"))?;
            run(&mut apt)?;
        }
    }
    let mut configs = Vec::new();
    for (family, pkg) in packages {
        let raw = run(Command::new("dpkg-query").args(["-W", "-f=${Version}", pkg]))?;
        // 4.8.12-3.1 → 4.8.12; drop an epoch (`1:`) and the Debian revision.
        let upstream = raw.trim().rsplit(':').next().unwrap_or("");
        let version = upstream.split('-').next().unwrap_or(upstream).to_string();
        configs.push(SolverConfig::installed(
            family.family(),
            &format!("{pkg}-{version}-debian"),
            &version,
            &format!("/usr/bin/{pkg}"),
        ));
    }
    Ok(configs)
}
