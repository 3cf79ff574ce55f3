//! One run per campaign directory: `et run` holds an exclusive `flock` on `DIR/.lock`
//! for as long as it reads or appends the directory's files, and writes its pid into
//! the lock file so that a refused second run can say who holds it. The kernel
//! releases the lock when the holder exits, however it exits (`kill -9` included), so
//! a stale lock file never blocks a later `--resume`.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::CampaignError;

/// How long a lock whose recorded holder is gone may stay held before it is reported.
const ORPHAN_GRACE: Duration = Duration::from_secs(5);

/// File name of the lock inside a run directory.
pub const LOCK_FILE: &str = ".lock";

/// The lock of one run directory, released when dropped.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

impl DirLock {
    /// Takes the lock of `dir` (which must exist) without waiting; if another process
    /// holds it, fails with [`CampaignError::Busy`] naming that process.
    pub fn take(dir: &Path) -> Result<DirLock, CampaignError> {
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(CampaignError::io("cannot open", &path))?;
        let deadline = Instant::now() + ORPHAN_GRACE;
        // SAFETY: flock on a descriptor we own; released when the file is closed.
        while unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let err = std::io::Error::last_os_error();
            if err.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(CampaignError::Io {
                    what: "cannot lock",
                    path,
                    source: err,
                });
            }
            let pid = holder(&mut file);
            // A holder killed with SIGKILL may have left a child between fork and exec
            // that still shares the lock for a moment: wait for it, briefly.
            if is_running(&pid) || Instant::now() >= deadline {
                return Err(CampaignError::Busy {
                    dir: dir.to_path_buf(),
                    pid,
                });
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let pid = format!("{}\n", std::process::id());
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(pid.as_bytes()))
            .map_err(CampaignError::io("cannot write", &path))?;
        Ok(DirLock { _file: file })
    }

    /// The lock file of `dir`.
    pub fn path(dir: &Path) -> PathBuf {
        dir.join(LOCK_FILE)
    }
}

/// Whether the process `pid` (as the holder recorded it) exists.
fn is_running(pid: &str) -> bool {
    let Ok(pid) = pid.parse::<libc::pid_t>() else {
        return true; // unknown: assume it runs
    };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// The pid the holder wrote; it writes it right after locking, so a reader that comes
/// in between retries briefly before saying `unknown`.
fn holder(file: &mut File) -> String {
    for _ in 0..50 {
        let mut text = String::new();
        if file.seek(SeekFrom::Start(0)).is_ok() && file.read_to_string(&mut text).is_ok() {
            let pid = text.trim();
            if !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) {
                return pid.to_string();
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    "unknown".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_with_the_first_ones_pid() {
        let dir = tempfile::tempdir().unwrap();
        let first = DirLock::take(dir.path()).unwrap();
        // flock locks belong to open file descriptions, so a second open in the same
        // process conflicts like another process would.
        let err = DirLock::take(dir.path()).unwrap_err();
        assert!(
            err.to_string()
                .contains(&format!("pid {}", std::process::id())),
            "{err}"
        );
        assert!(err.is_bad_input());
        drop(first);
        DirLock::take(dir.path()).unwrap();
    }
}
