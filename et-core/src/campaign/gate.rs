//! The CI gate of `et run --fail-on`: how many calls of a run directory got each of the
//! verdicts a pipeline fails on. It reads the whole `runs.csv`, so a run resumed after
//! an interruption is judged by all its rows, not only by those of the last invocation.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use anyhow::Context;

use crate::oracle::Verdict;

/// For each verdict of `wanted` (same order), the number of rows of `runs_csv` that
/// have it. Columns are found by name, so files with more or fewer columns than this
/// version writes are read alike.
pub fn count_verdicts(runs_csv: &Path, wanted: &[Verdict]) -> anyhow::Result<Vec<(Verdict, u64)>> {
    let mut counts: Vec<(Verdict, u64)> = wanted.iter().map(|v| (*v, 0)).collect();
    if !runs_csv.exists() {
        return Ok(counts);
    }
    let file =
        File::open(runs_csv).with_context(|| format!("cannot read {}", runs_csv.display()))?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(BufReader::new(file));
    let column = reader
        .headers()
        .with_context(|| format!("cannot read {}", runs_csv.display()))?
        .iter()
        .position(|h| h == "verdict")
        .with_context(|| format!("{} has no `verdict` column", runs_csv.display()))?;
    let mut record = csv::StringRecord::new();
    while reader
        .read_record(&mut record)
        .with_context(|| format!("cannot read {}", runs_csv.display()))?
    {
        let Some(label) = record.get(column).filter(|l| !l.is_empty()) else {
            continue;
        };
        if let Some(count) = counts.iter_mut().find(|(v, _)| v.label() == label) {
            count.1 += 1;
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_wanted_verdicts_by_column_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        std::fs::write(
            &path,
            "grammar,index,verdict,extra\ncore,0,unsound,x\ncore,1,,x\ncore,2,crash,x\n\
             core,3,unsound,x\ncore,4,timeout\n",
        )
        .unwrap();
        let counts = count_verdicts(
            &path,
            &[Verdict::Unsound, Verdict::InvalidModel, Verdict::Timeout],
        )
        .unwrap();
        assert_eq!(
            counts,
            [
                (Verdict::Unsound, 2),
                (Verdict::InvalidModel, 0),
                (Verdict::Timeout, 1)
            ]
        );
        let missing = count_verdicts(&dir.path().join("none.csv"), &[Verdict::Crash]).unwrap();
        assert_eq!(missing, [(Verdict::Crash, 0)]);
    }
}
