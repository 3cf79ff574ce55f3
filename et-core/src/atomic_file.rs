//! Files that appear complete or not at all: written under a temporary name in the
//! same directory, then renamed (atomic on POSIX filesystems). Every file another step
//! or a user reads — manifests, bug triggers, report tables, plots, `--out-dir`
//! formulas — is written this way, so an interrupted et never leaves a truncated file
//! under its final name.

use std::io;
use std::path::Path;

/// Writes `bytes` to `path` atomically.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "path has no file name"))?;
    let mut partial_name = std::ffi::OsString::from(".");
    partial_name.push(name);
    partial_name.push(format!(".partial-{}", std::process::id()));
    let partial = path.with_file_name(partial_name);
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&partial);
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_and_leaves_no_partial_file() {
        let dir = std::env::temp_dir().join(format!("et-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        super::write(&path, b"one").unwrap();
        super::write(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
