//! Scratch directories: a private `$TMPDIR/et-run-<pid>-XXXXXX` for a run's (and
//! triage's) formula files, removed when dropped, and those of dead et processes
//! removed by the next.

use std::fs;
use std::path::PathBuf;

/// The scratch directory could not be made: a failure of the machine (a `$TMPDIR`
/// that is missing, full or not writable), not of the user's input.
#[derive(Debug, thiserror::Error)]
#[error("cannot create a scratch directory in {}", dir.display())]
pub struct ScratchError {
    /// Where it was to be made (`$TMPDIR`).
    pub dir: PathBuf,
    /// Why it could not.
    #[source]
    pub source: std::io::Error,
}

/// Per-worker formula files in a private temporary directory
/// (`$TMPDIR/et-run-<pid>-XXXXXX`, a unique name), removed when the run ends, however it
/// ends short of SIGKILL (then by the next run).
pub(super) struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// Creates `$TMPDIR/et-run-<pid>-XXXXXX` (unique even for several campaigns of
    /// one process), after removing those of et processes that no longer exist
    /// (killed with `kill -9`, or a power loss).
    pub fn new() -> Result<Scratch, ScratchError> {
        let dir = scratch_dir().map_err(|source| ScratchError {
            dir: std::env::temp_dir(),
            source,
        })?;
        Ok(Scratch { dir })
    }

    /// The directory itself.
    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// The formula file of worker `worker`.
    pub fn file(&self, worker: usize) -> PathBuf {
        self.dir.path().join(format!("formula-{worker}.smt2"))
    }

    /// The file of worker `worker` for the formula behind a family's prelude.
    pub fn framed_file(&self, worker: usize) -> PathBuf {
        self.dir
            .path()
            .join(format!("formula-{worker}-framed.smt2"))
    }
}

/// A private scratch directory `$TMPDIR/et-run-<pid>-XXXXXX` (unique even for several
/// in one process), removed when dropped, created after removing those of et
/// processes that no longer exist (killed with `kill -9`, or a power loss). Campaigns
/// and triage keep their formula files in one.
pub fn scratch_dir() -> std::io::Result<tempfile::TempDir> {
    let tmp = std::env::temp_dir();
    remove_dead_scratch_dirs(&tmp);
    tempfile::Builder::new()
        .prefix(&format!("et-run-{}-", std::process::id()))
        .tempdir_in(&tmp)
}

/// Removes the scratch directories (`et-run-<pid>-...`) of et processes that no longer
/// exist: a `kill -9` leaves its directory behind, and the next run cleans up.
fn remove_dead_scratch_dirs(tmp: &std::path::Path) {
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("et-run-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        // SAFETY: signal 0 only checks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } < 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}
