//! Checks made before a campaign writes anything: every solver it will run — under
//! test or as a reference — names a program that exists and is executable. A pool
//! with a typo would otherwise start, fail on its first call, and leave a run
//! directory behind that looks like a study.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::solvers::SolverConfig;

use super::error::CampaignError;

/// Checks the program of each solver; the first that cannot run is the error.
pub fn check_programs<'a>(
    solvers: impl IntoIterator<Item = &'a SolverConfig>,
) -> Result<(), CampaignError> {
    for solver in solvers {
        let program = solver.program();
        let problem = |reason: &str| CampaignError::Program {
            solver: solver.name.clone(),
            program: program.to_string(),
            reason: reason.to_string(),
        };
        let path = if program.contains('/') {
            PathBuf::from(program)
        } else {
            find_on_path(program).ok_or_else(|| problem("is not found on PATH"))?
        };
        let metadata = std::fs::metadata(&path).map_err(|e| {
            problem(&match e.kind() {
                std::io::ErrorKind::NotFound => "does not exist".to_string(),
                _ => format!("cannot be read: {e}"),
            })
        })?;
        if !metadata.is_file() {
            return Err(problem("is not a file"));
        }
        if metadata.permissions().mode() & 0o111 == 0 {
            return Err(problem("is not executable (chmod +x it)"));
        }
    }
    Ok(())
}

/// The first executable file called `name` in a directory of `PATH`, as `execvp`
/// would find it.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable_file(candidate))
}

fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solver(program: &str) -> SolverConfig {
        SolverConfig::new("s", "z3", "1", vec![program.into()])
    }

    #[test]
    fn programs_must_exist_and_be_executable() {
        assert!(check_programs(&[solver("/bin/sh"), solver("sh")]).is_ok());
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "").unwrap();
        for (program, reason) in [
            ("/nonexistent/z3", "does not exist"),
            ("et-no-such-program", "is not found on PATH"),
            (plain.to_str().unwrap(), "is not executable"),
            (dir.path().to_str().unwrap(), "is not a file"),
        ] {
            let err = check_programs(&[solver(program)]).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("solver `s`: program {program} {reason}")),
                "{err}"
            );
        }
    }
}
