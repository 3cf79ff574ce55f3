//! Debian's solver packages (`z3`, `cvc4`, `cvc5`): installed with apt-get when missing,
//! and described as pool entries named `<family>-<version>-debian` that run
//! `/usr/bin/<package>`.
//!
//! *Must not:* write the pool file or touch `<home>`; the installer registers what this
//! returns.

use std::process::Command;

use super::super::pool::{InputMode, SolverConfig};
use super::super::self_check_options;
use super::command::run;
use super::InstallError;

/// The Debian packages `et solvers install debian` provides.
const PACKAGES: [&str; 3] = ["z3", "cvc4", "cvc5"];

/// Installs Debian's z3, cvc4 and cvc5 with apt-get (as root) if missing and returns
/// their configs, named `<family>-<version>-debian`.
pub(super) fn install() -> Result<Vec<SolverConfig>, InstallError> {
    let installed = |pkg: &str| {
        Command::new("dpkg-query")
            .args(["-W", "-f=${Status}", pkg])
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
    };
    let missing: Vec<&str> = PACKAGES.iter().copied().filter(|p| !installed(p)).collect();
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
    for pkg in PACKAGES {
        let raw = run(Command::new("dpkg-query").args(["-W", "-f=${Version}", pkg]))?;
        // 4.8.12-3.1 → 4.8.12; drop an epoch (`1:`) and the Debian revision.
        let upstream = raw.trim().rsplit(':').next().unwrap_or("");
        let version = upstream.split('-').next().unwrap_or(upstream).to_string();
        let program = format!("/usr/bin/{pkg}");
        configs.push(SolverConfig {
            name: format!("{pkg}-{version}-debian"),
            family: pkg.to_string(),
            version,
            command: std::iter::once(program)
                .chain(self_check_options(pkg).iter().map(|s| s.to_string()))
                .collect(),
            input: InputMode::File,
        });
    }
    Ok(configs)
}
