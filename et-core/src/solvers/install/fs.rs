//! The file-system ground rules of installing: private temporary directories under
//! `<home>/tmp/` that vanish on every path out, the exclusive lock on `<home>/.lock`,
//! unique names for files about to be renamed into place, and moving and finding files.
//!
//! *Must not:* know about solver families, wheels or pool entries.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::io;
use super::InstallError;

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// `<pid>.<n>`, different for every call in this process and from other processes, for
/// temporary names next to their final place.
pub(crate) fn unique_suffix() -> String {
    let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{}.{n}", std::process::id())
}

/// A private temporary directory, removed when dropped (also on error paths).
pub(super) struct TempDir(PathBuf);

impl TempDir {
    /// Creates `<home>/tmp/<label>.<pid>.<n>`.
    pub(super) fn new(home: &Path, label: &str) -> Result<TempDir, InstallError> {
        let dir = home
            .join("tmp")
            .join(format!("{label}.{}", unique_suffix()));
        std::fs::create_dir_all(&dir).map_err(io("cannot create", &dir))?;
        Ok(TempDir(dir))
    }

    /// The directory.
    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An exclusive lock on `<home>/.lock`, held while the pool file is read and appended,
/// so concurrent installs neither lose nor duplicate entries.
pub(super) struct HomeLock {
    _file: std::fs::File,
}

impl HomeLock {
    /// Waits for and takes the lock of `home` (creating `home` if needed).
    pub(super) fn take(home: &Path) -> Result<HomeLock, InstallError> {
        use std::os::fd::AsRawFd;
        std::fs::create_dir_all(home).map_err(io("cannot create", home))?;
        let path = home.join(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io("cannot open", &path))?;
        // SAFETY: flock on a descriptor we own; released when the file is closed.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return Err(InstallError::Io {
                what: "cannot lock",
                path,
                source: std::io::Error::last_os_error(),
            });
        }
        Ok(HomeLock { _file: file })
    }
}

/// The first file called `name` anywhere under `dir`.
pub(super) fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

/// Renames `from` to `to` (a file or a directory).
pub(super) fn move_file(from: &Path, to: &Path) -> Result<(), InstallError> {
    std::fs::rename(from, to).map_err(io("cannot move", from))
}
