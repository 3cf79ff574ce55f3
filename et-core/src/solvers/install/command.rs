//! Running the external programs installing relies on (pip, python3, apt-get,
//! dpkg-query) and turning their failures into [`InstallError::Command`].
//!
//! *Must not:* know which program is run or why.

use std::process::Command;

use super::InstallError;

/// Runs a command, returning stdout, or an error with the tail of stderr.
pub(crate) fn run(cmd: &mut Command) -> Result<String, InstallError> {
    let shown = format!("{cmd:?}").replace('"', "");
    let out = cmd.output().map_err(|e| InstallError::Command {
        command: shown.clone(),
        detail: e.to_string(),
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        return Err(InstallError::Command {
            command: shown,
            detail: format!(
                "{}: {}",
                out.status,
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            ),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
