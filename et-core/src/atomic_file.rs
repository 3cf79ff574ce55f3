//! Files that appear complete or not at all: written under a temporary name in the
//! same directory, then renamed (atomic on POSIX filesystems). Every file another step
//! or a user reads — manifests, bug triggers, report tables, plots, `--out-dir`
//! formulas — is written this way, so an interrupted et never leaves a truncated file
//! under its final name.
//!
//! Temporary names come from `tempfile` (random, created with `O_EXCL`), so any number
//! of threads and processes may write the same path at once: each writer has its own
//! temporary file, and the last rename wins.

use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Writes `bytes` to `path` atomically, replacing whatever is there.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let partial = staged(path, bytes)?;
    partial.persist(path).map(drop).map_err(|e| e.error)
}

/// Writes `bytes` to `path` atomically unless `path` exists; returns whether this call
/// created it. A file that appears meanwhile (another writer won the race) is not an
/// error: it was written by the same rule and is kept.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<bool> {
    if path.exists() {
        return Ok(false);
    }
    let partial = staged(path, bytes)?;
    match partial.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e.error),
    }
}

/// A temporary file beside `path` (hidden, named after it) holding `bytes`; removed
/// when dropped unless persisted.
fn staged(path: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".partial-");
    // tempfile's default mode is 0600; the final file gets what `fs::write` would
    // give it (0666 less the umask), since others read run directories and reports.
    let mut file = tempfile::Builder::new()
        .prefix(&prefix)
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.flush()?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::sync::Barrier;

    #[test]
    fn writes_and_leaves_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        super::write(&path, b"one").unwrap();
        super::write(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // Readable by others as a plain write would make it (umask permitting).
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, b"x").unwrap();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), mode(&plain));
    }

    /// Two workers of one process saving the same new file at the same moment (a crash
    /// signature both found) must both succeed.
    #[test]
    fn concurrent_writers_of_one_path_all_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("signature.txt");
        for round in 0..20 {
            let _ = std::fs::remove_file(&path);
            let barrier = Barrier::new(8);
            std::thread::scope(|s| {
                for w in 0..8 {
                    let (path, barrier) = (&path, &barrier);
                    s.spawn(move || {
                        barrier.wait();
                        let text = format!("writer {w}");
                        super::write(path, text.as_bytes())
                            .unwrap_or_else(|e| panic!("round {round}, writer {w}: {e}"));
                        super::write_new(path, text.as_bytes())
                            .unwrap_or_else(|e| panic!("round {round}, writer {w}: {e}"));
                    });
                }
            });
            assert!(std::fs::read_to_string(&path)
                .unwrap()
                .starts_with("writer "));
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        }
    }

    #[test]
    fn write_new_keeps_the_first_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        assert!(super::write_new(&path, b"first").unwrap());
        assert!(!super::write_new(&path, b"second").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
