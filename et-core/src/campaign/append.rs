//! Appending CSV records whole: `runs.csv` and `reference.csv` grow while a campaign
//! runs and are read back on resume, so a line must be there entirely or not at all.
//! A batch of records (a formula's rows) is encoded in memory and written with one
//! `write_all`; if that fails (disk full, file too large, I/O error), the file is cut
//! back to its length before the batch and the error is returned, so no torn line is
//! left behind and the caller can stop at once.
//!
//! A file started by an older et may have fewer columns (runs.csv gained columns at
//! its end over time): records are then appended in the file's own layout, so every
//! line keeps the width of its header. A column the file has and this et does not know
//! is refused.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::error::CampaignError;

/// A CSV file opened for appending whole records.
#[derive(Debug)]
pub struct CsvAppender {
    file: File,
    path: PathBuf,
    /// For a file with an older header: for each of its columns, the position of that
    /// column in the records appended.
    layout: Option<Vec<usize>>,
}

impl CsvAppender {
    /// Opens `path` for appending records whose columns are `header`, writing the
    /// header if the file is new or empty.
    pub fn open(path: &Path, header: &[&str]) -> Result<CsvAppender, CampaignError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(CampaignError::io("cannot open", path))?;
        let len = file
            .metadata()
            .map_err(CampaignError::io("cannot read", path))?
            .len();
        let layout = if len == 0 {
            None
        } else {
            layout(path, header)?
        };
        let mut appender = CsvAppender {
            file,
            path: path.to_path_buf(),
            layout,
        };
        if len == 0 {
            let bytes = encode(path, |w| w.write_record(header))?;
            appender.write_whole(&bytes)?;
        }
        Ok(appender)
    }

    /// Whether the file has the column at `position` of the records' header (a file
    /// begun by an older et may lack later columns).
    pub fn has_column(&self, position: usize) -> bool {
        self.layout
            .as_ref()
            .is_none_or(|columns| columns.contains(&position))
    }

    /// Appends `records` (no header) as one write; on failure the file keeps only what
    /// it held before.
    pub fn append<T: Serialize>(&mut self, records: &[T]) -> Result<(), CampaignError> {
        if records.is_empty() {
            return Ok(());
        }
        let path = self.path.clone();
        let mut bytes = encode(&path, |w| records.iter().try_for_each(|r| w.serialize(r)))?;
        if let Some(columns) = &self.layout {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(bytes.as_slice());
            let mut fields = Vec::new();
            for record in reader.records() {
                let record = record
                    .map_err(|e| CampaignError::io("cannot encode a row for", &path)(e.into()))?;
                fields.push(
                    columns
                        .iter()
                        .map(|&i| record.get(i).unwrap_or("").to_string())
                        .collect::<Vec<_>>(),
                );
            }
            bytes = encode(&path, |w| fields.iter().try_for_each(|f| w.write_record(f)))?;
        }
        self.write_whole(&bytes)
    }

    fn write_whole(&mut self, bytes: &[u8]) -> Result<(), CampaignError> {
        // The length right before the write, not one remembered from the last write:
        // a reference cache shared between runs also grows by the other runs' rows.
        let before = self
            .file
            .metadata()
            .map_err(CampaignError::io("cannot read", &self.path))?
            .len();
        match self.file.write_all(bytes).and_then(|()| self.file.flush()) {
            Ok(()) => Ok(()),
            Err(source) => {
                // Best effort: the write error is what the user must see.
                let _ = self.file.set_len(before);
                Err(CampaignError::Io {
                    what: "cannot write to",
                    path: self.path.clone(),
                    source,
                })
            }
        }
    }
}

/// CSV bytes written by `fill`.
fn encode(
    path: &Path,
    fill: impl FnOnce(&mut csv::Writer<Vec<u8>>) -> csv::Result<()>,
) -> Result<Vec<u8>, CampaignError> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    fill(&mut writer).map_err(|e| CampaignError::io("cannot encode a row for", path)(e.into()))?;
    writer
        .into_inner()
        .map_err(|e| CampaignError::io("cannot encode a row for", path)(e.into_error()))
}

/// `None` when the existing file's header is `header`; else, for each of its columns,
/// the position in `header` — or an error if it has a column `header` lacks.
fn layout(path: &Path, header: &[&str]) -> Result<Option<Vec<usize>>, CampaignError> {
    let file = File::open(path).map_err(CampaignError::io("cannot read", path))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(std::io::BufReader::new(file));
    let mut first = csv::StringRecord::new();
    let bad_header = |reason: String| CampaignError::BadHeader {
        path: path.to_path_buf(),
        reason,
    };
    reader
        .read_record(&mut first)
        .map_err(|e| bad_header(e.to_string()))?;
    if first.iter().eq(header.iter().copied()) {
        return Ok(None);
    }
    first
        .iter()
        .map(|column| {
            header.iter().position(|h| *h == column).ok_or_else(|| {
                bad_header(format!(
                    "column `{column}` is not one et writes (expected columns: {})",
                    header.join(",")
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        a: u32,
        b: String,
    }

    #[test]
    fn appends_records_after_one_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv");
        let rows = |n: u32| {
            (0..n)
                .map(|a| Row { a, b: "x,y".into() })
                .collect::<Vec<_>>()
        };
        CsvAppender::open(&path, &["a", "b"])
            .unwrap()
            .append(&rows(2))
            .unwrap();
        CsvAppender::open(&path, &["a", "b"])
            .unwrap()
            .append(&rows(1))
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "a,b\n0,\"x,y\"\n1,\"x,y\"\n0,\"x,y\"\n"
        );
    }

    #[test]
    fn a_file_with_fewer_columns_keeps_its_layout() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv");
        std::fs::write(&path, "a\n7\n").unwrap();
        let mut out = CsvAppender::open(&path, &["a", "b"]).unwrap();
        assert!(out.has_column(0) && !out.has_column(1));
        out.append(&[Row {
            a: 1,
            b: "x".into(),
        }])
        .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\n7\n1\n");
        std::fs::write(&path, "a,zzz\n").unwrap();
        let err = CsvAppender::open(&path, &["a", "b"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("`zzz`"), "{err}");
    }

    #[test]
    fn a_failed_write_is_an_error_naming_the_file() {
        // /dev/full accepts opening and refuses every write with ENOSPC.
        let err = CsvAppender::open(Path::new("/dev/full"), &["a", "b"]).unwrap_err();
        assert!(
            err.to_string().starts_with("cannot write to /dev/full:"),
            "{err}"
        );
        assert!(!err.is_bad_input());
    }
}
