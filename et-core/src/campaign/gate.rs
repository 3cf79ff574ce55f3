//! The CI gate of `et run --fail-on`: how many calls of a run directory got each of the
//! verdicts a pipeline fails on. It reads the whole `runs.csv` (through the one reader
//! of the call log, [`super::row::read`]), so a run resumed after an interruption is
//! judged by all its rows, not only by those of the last invocation.

use std::path::Path;

use crate::oracle::Verdict;

use super::row::{for_each_row, RowError};

/// For each verdict of `wanted` (same order), the number of rows of `runs_csv` (plain or
/// `.gz`; a missing file has none) that have it. A torn last line is not counted.
pub fn count_verdicts(
    runs_csv: &Path,
    wanted: &[Verdict],
) -> Result<Vec<(Verdict, u64)>, RowError> {
    let mut counts: Vec<(Verdict, u64)> = wanted.iter().map(|v| (*v, 0)).collect();
    if !runs_csv.exists() {
        return Ok(counts);
    }
    for_each_row(runs_csv, |row, _line| {
        if let Some(count) = counts.iter_mut().find(|(v, _)| Some(*v) == row.verdict) {
            count.1 += 1;
        }
        Ok::<_, RowError>(())
    })?;
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_wanted_verdicts_plain_gzip_and_torn() {
        let dir = tempfile::tempdir().unwrap();
        let header = super::super::row::COLUMNS[..15].join(",");
        let row = |i: u32, status: &str, verdict: &str| {
            format!("core,{i},5,x,z3,1,{status},{verdict},y,sat,0.1,0.1,100,0,\n")
        };
        let text = header
            + "\n"
            + &row(0, "unsat", "unsound")
            + &row(1, "sat", "")
            + &row(2, "crash", "crash")
            + &row(3, "unsat", "unsound")
            + &row(4, "timeout", "timeout");
        let wanted = [Verdict::Unsound, Verdict::InvalidModel, Verdict::Timeout];
        let expected = [
            (Verdict::Unsound, 2),
            (Verdict::InvalidModel, 0),
            (Verdict::Timeout, 1),
        ];
        let plain = dir.path().join("runs.csv");
        // A torn row after them is not counted.
        std::fs::write(&plain, text.clone() + "core,5,5,x,z3,1,unsat,unsou").unwrap();
        assert_eq!(count_verdicts(&plain, &wanted).unwrap(), expected);
        let gz = dir.path().join("runs.csv.gz");
        let mut encoder = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::fast(),
        );
        std::io::Write::write_all(&mut encoder, text.as_bytes()).unwrap();
        encoder.finish().unwrap();
        assert_eq!(count_verdicts(&gz, &wanted).unwrap(), expected);
        let missing = count_verdicts(&dir.path().join("none.csv"), &[Verdict::Crash]).unwrap();
        assert_eq!(missing, [(Verdict::Crash, 0)]);
    }
}
