//! Reading run directories for triage: `run.toml` (the run's pool and limits) and the
//! bug triggers of `runs.csv` (or `runs.csv.gz`). The call log is streamed with one
//! reused record buffer and only rows with a verdict are kept, so a directory of 10^7
//! calls costs the time to read it and the memory of its triggers.
//!
//! Columns are looked up by name: files written before `evidence`, `model_check` or
//! `reference_usable` existed read the same way, without them.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use crate::campaign::manifest::RunManifest;
use crate::oracle::{Status, Verdict};
use crate::solvers::{InputMode, Pool, SolverConfig};

use super::TriageError;

/// File name of the call log inside a run directory.
pub const RUNS_CSV: &str = "runs.csv";
/// File name of the manifest inside a run directory.
pub const MANIFEST: &str = "run.toml";

/// A run directory as triage sees it.
#[derive(Debug, Clone)]
pub struct RunDirectory {
    /// The directory as given.
    pub path: PathBuf,
    /// Its `run.toml`.
    pub manifest: RunManifest,
    /// The run's solvers, runnable again (commands from the manifest).
    pub solvers: Vec<SolverConfig>,
}

impl RunDirectory {
    /// Reads `DIR/run.toml`. A solver listed in `pool` under the same name and command
    /// takes its input mode from there (the manifest does not record it).
    pub fn open(path: &Path, pool: Option<&Pool>) -> Result<RunDirectory, TriageError> {
        let manifest_path = path.join(MANIFEST);
        let text = std::fs::read_to_string(&manifest_path)
            .map_err(|error| TriageError::io(&manifest_path, error))?;
        let manifest: RunManifest =
            toml::from_str(&text).map_err(|error| TriageError::Manifest {
                path: manifest_path.clone(),
                error: Box::new(error),
            })?;
        let solvers = manifest
            .solvers
            .iter()
            .map(|s| {
                let input = pool
                    .and_then(|p| p.get(&s.name))
                    .filter(|p| p.command == s.command)
                    .map_or(InputMode::File, |p| p.input);
                SolverConfig {
                    name: s.name.clone(),
                    family: s.family.clone(),
                    version: s.version.clone(),
                    command: s.command.clone(),
                    input,
                }
            })
            .collect();
        Ok(RunDirectory {
            path: path.to_path_buf(),
            manifest,
            solvers,
        })
    }

    /// The run's solver of that name.
    pub fn solver(&self, name: &str) -> Option<&SolverConfig> {
        self.solvers.iter().find(|s| s.name == name)
    }

    /// `DIR/runs.csv`, or `DIR/runs.csv.gz` when only that exists.
    pub fn runs_file(&self) -> Result<PathBuf, TriageError> {
        let plain = self.path.join(RUNS_CSV);
        let gz = self.path.join(format!("{RUNS_CSV}.gz"));
        match (plain.is_file(), gz.is_file()) {
            (true, true) => Err(TriageError::AmbiguousRows {
                dir: self.path.clone(),
            }),
            (true, false) => Ok(plain),
            (false, true) => Ok(gz),
            (false, false) => Err(TriageError::io(
                &plain,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            )),
        }
    }
}

/// One call with a verdict, as `runs.csv` recorded it.
#[derive(Debug, Clone, PartialEq)]
pub struct TriggerRow {
    /// Position of its directory in the triage's list.
    pub dir: usize,
    /// 1-based line in the CSV file.
    pub line: u64,
    /// Grammar name.
    pub grammar: String,
    /// Global index of the formula (decimal).
    pub index: String,
    /// FEAT size of the formula.
    pub size: u32,
    /// Solver under test.
    pub solver: String,
    /// Its family.
    pub family: String,
    /// Its version.
    pub version: String,
    /// What it answered.
    pub status: Status,
    /// The verdict.
    pub verdict: Verdict,
    /// The reference it was judged against (empty if none).
    pub reference: String,
    /// The reference's status, if recorded.
    pub reference_status: Option<Status>,
    /// How the expected answer is known (`reference`, `witness`, `model`,
    /// `self-check`), when the file has the column and the row a value.
    pub evidence: Option<String>,
    /// et's own check of the solver's model (`valid`, `invalid`, `undetermined`), when
    /// recorded.
    pub model_check: Option<String>,
    /// Wall-clock seconds of the call.
    pub time_s: f64,
}

/// Column positions, by name; the optional ones may be absent.
struct Columns {
    grammar: usize,
    index: usize,
    size: usize,
    solver: usize,
    family: usize,
    version: usize,
    status: usize,
    verdict: usize,
    reference: usize,
    reference_status: usize,
    time_s: usize,
    evidence: Option<usize>,
    model_check: Option<usize>,
}

impl Columns {
    fn find(path: &Path, header: &csv::StringRecord) -> Result<Columns, TriageError> {
        let optional = |column: &str| header.iter().position(|h| h == column);
        let pos = |column: &'static str| {
            optional(column).ok_or_else(|| TriageError::MissingColumn {
                path: path.to_path_buf(),
                column,
            })
        };
        Ok(Columns {
            grammar: pos("grammar")?,
            index: pos("index")?,
            size: pos("size")?,
            solver: pos("solver")?,
            family: pos("family")?,
            version: pos("version")?,
            status: pos("status")?,
            verdict: pos("verdict")?,
            reference: pos("reference")?,
            reference_status: pos("reference_status")?,
            time_s: pos("time_s")?,
            evidence: optional("evidence"),
            model_check: optional("model_check"),
        })
    }
}

/// What reading one directory's call log found.
#[derive(Debug, Default)]
pub struct Scan {
    /// Its triggers, in file order, one per (grammar, index, solver).
    pub triggers: Vec<TriggerRow>,
    /// Rows read.
    pub rows: u64,
}

/// Streams `path` (a `runs.csv`, or gzip-compressed if its name ends in `.gz`) and
/// keeps the rows with a verdict. A torn last line (a run killed mid-write) is skipped
/// like `et run --resume` cuts it; any other malformed row is an error naming its line.
pub fn scan(path: &Path, dir: usize) -> Result<Scan, TriageError> {
    let file = File::open(path).map_err(|e| TriageError::io(path, e))?;
    let buffered = BufReader::with_capacity(1 << 20, file);
    let input: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(BufReader::with_capacity(
            1 << 20,
            MultiGzDecoder::new(buffered),
        ))
    } else {
        Box::new(buffered)
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(input);
    let csv_error = |line: u64, error: csv::Error| TriageError::Csv {
        path: path.to_path_buf(),
        line,
        error,
    };
    let header = reader.headers().map_err(|e| csv_error(1, e))?.clone();
    let columns = Columns::find(path, &header)?;
    let mut record = csv::StringRecord::new();
    let mut scan = Scan::default();
    let mut seen: HashSet<(String, String, String)> = HashSet::new();
    // A short record is an error unless it is the last one (a torn final line).
    let mut short: Option<u64> = None;
    loop {
        let line = reader.position().line();
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(csv_error(line, e)),
        }
        let line = record.position().map_or(line, |p| p.line());
        if let Some(torn) = short {
            return Err(TriageError::ShortRow {
                path: path.to_path_buf(),
                line: torn,
                expected: header.len(),
            });
        }
        if record.len() < header.len() {
            short = Some(line);
            continue;
        }
        scan.rows += 1;
        let verdict_text = &record[columns.verdict];
        if verdict_text.is_empty() {
            continue;
        }
        let bad = |column: &'static str, value: &str, reason: String| TriageError::BadValue {
            path: path.to_path_buf(),
            line,
            column,
            value: value.to_string(),
            reason,
        };
        let verdict: Verdict =
            verdict_text
                .parse()
                .map_err(|e: crate::oracle::ParseLabelError| {
                    bad("verdict", verdict_text, e.to_string())
                })?;
        let status_text = &record[columns.status];
        let status: Status = status_text
            .parse()
            .map_err(|e: crate::oracle::ParseLabelError| {
                bad("status", status_text, e.to_string())
            })?;
        let reference_text = &record[columns.reference_status];
        let reference_status = if reference_text.is_empty() {
            None
        } else {
            Some(
                reference_text
                    .parse::<Status>()
                    .map_err(|e| bad("reference_status", reference_text, e.to_string()))?,
            )
        };
        let index = &record[columns.index];
        if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("index", index, "not a decimal number".into()));
        }
        let size_text = &record[columns.size];
        let size: u32 = size_text
            .parse()
            .map_err(|e: std::num::ParseIntError| bad("size", size_text, e.to_string()))?;
        let time_text = &record[columns.time_s];
        let time_s: f64 = time_text
            .parse()
            .map_err(|e: std::num::ParseFloatError| bad("time_s", time_text, e.to_string()))?;
        let optional = |column: Option<usize>| {
            column
                .map(|c| record[c].to_string())
                .filter(|v| !v.is_empty())
        };
        let key = (
            record[columns.grammar].to_string(),
            index.to_string(),
            record[columns.solver].to_string(),
        );
        if !seen.insert(key) {
            continue; // the same call twice (concatenated logs): one trigger
        }
        scan.triggers.push(TriggerRow {
            dir,
            line,
            grammar: record[columns.grammar].to_string(),
            index: index.to_string(),
            size,
            solver: record[columns.solver].to_string(),
            family: record[columns.family].to_string(),
            version: record[columns.version].to_string(),
            status,
            verdict,
            reference: record[columns.reference].to_string(),
            reference_status,
            evidence: optional(columns.evidence),
            model_check: optional(columns.model_check),
            time_s,
        });
    }
    Ok(scan)
}

/// Crash signatures the run recorded, by (solver, index): read from the header of each
/// trigger log under `DIR/bugs/crash/` (`index:`, `signature:` and `== solver:` lines),
/// whatever the files are named. For crashes that do not happen again on re-runs.
pub fn recorded_crash_signatures(dir: &Path) -> HashMap<(String, String), String> {
    let mut out = HashMap::new();
    let Ok(groups) = std::fs::read_dir(dir.join("bugs").join("crash")) else {
        return out;
    };
    for group in groups.flatten() {
        let Ok(files) = std::fs::read_dir(group.path()) else {
            continue;
        };
        for file in files.flatten() {
            let path = file.path();
            if path.extension().and_then(|e| e.to_str()) != Some("log") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let (mut index, mut signature, mut solver) = (None, None, None);
            for line in text.lines() {
                if let Some(v) = line.strip_prefix("index: ") {
                    index.get_or_insert(v.trim());
                } else if let Some(v) = line.strip_prefix("signature: ") {
                    signature.get_or_insert(v.trim());
                } else if let Some(v) = line.strip_prefix("== solver: ") {
                    solver = v.split(" (status").next().map(str::trim);
                    break;
                }
            }
            if let (Some(i), Some(s), Some(n)) = (index, signature, solver) {
                out.insert((n.to_string(), i.to_string()), s.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const HEADER: &str = "grammar,index,size,solver,family,version,status,verdict,reference,\
                          reference_status,time_s,cpu_s,max_rss_kb,exit_code,signal";

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn keeps_only_rows_with_a_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            "{HEADER}\n\
             ints,7,5,z3-4.8.7,z3,4.8.7,sat,invalid_model,cvc5-1.4.2,sat,0.01,0.01,100,1,\n\
             ints,7,5,cvc5-1.4.2,cvc5,1.4.2,sat,,z3-4.16.0,sat,0.01,0.01,100,0,\n\
             ints,8,5,z3-4.8.7,z3,4.8.7,unsat,unsound,cvc5-1.4.2,sat,0.01,0.01,100,0,\n"
        );
        let path = write(dir.path(), "runs.csv", &text);
        let scan = scan(&path, 3).unwrap();
        assert_eq!(scan.rows, 3);
        assert_eq!(scan.triggers.len(), 2);
        let t = &scan.triggers[1];
        assert_eq!((t.dir, t.line, t.index.as_str()), (3, 4, "8"));
        assert_eq!((t.status, t.verdict), (Status::Unsat, Verdict::Unsound));
        assert_eq!(t.reference_status, Some(Status::Sat));
        assert_eq!(
            (t.evidence.as_deref(), t.model_check.as_deref()),
            (None, None)
        );
    }

    #[test]
    fn reads_the_evidence_columns_when_present_and_gzip() {
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            "{HEADER},evidence,model_check,reference_usable\n\
             ints,7,5,z3-4.8.7,z3,4.8.7,sat,invalid_model,cvc5,sat,0.01,0.01,100,1,,model,invalid,yes\n"
        );
        let path = dir.path().join("runs.csv.gz");
        let mut gz = flate2::write::GzEncoder::new(
            File::create(&path).unwrap(),
            flate2::Compression::fast(),
        );
        gz.write_all(text.as_bytes()).unwrap();
        gz.finish().unwrap();
        let scan = scan(&path, 0).unwrap();
        let t = &scan.triggers[0];
        assert_eq!(t.evidence.as_deref(), Some("model"));
        assert_eq!(t.model_check.as_deref(), Some("invalid"));
    }

    #[test]
    fn a_torn_last_line_is_skipped_but_bad_rows_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let torn = format!(
            "{HEADER}\nints,8,5,z3,z3,4.8.7,unsat,unsound,cvc5,sat,0.01,0.01,100,0,\nints,9,5,z3"
        );
        let path = write(dir.path(), "torn.csv", &torn);
        assert_eq!(scan(&path, 0).unwrap().triggers.len(), 1);

        let bad = format!("{HEADER}\nints,8,5,z3,z3,4.8.7,unsat,wrong,cvc5,sat,0.01,0.01,100,0,\n");
        let path = write(dir.path(), "bad.csv", &bad);
        let err = scan(&path, 0).unwrap_err().to_string();
        assert!(
            err.contains("bad.csv:2") && err.contains("`wrong`"),
            "{err}"
        );

        let path = write(dir.path(), "nocol.csv", "grammar,index\nints,1\n");
        let err = scan(&path, 0).unwrap_err().to_string();
        assert!(err.contains("no column `size`"), "{err}");

        let middle = format!(
            "{HEADER}\nints,9,5,z3\nints,8,5,z3,z3,4.8.7,unsat,,cvc5,sat,0.01,0.01,100,0,\n"
        );
        let path = write(dir.path(), "middle.csv", &middle);
        let err = scan(&path, 0).unwrap_err().to_string();
        assert!(
            err.contains("middle.csv:2: the row has fewer than the header's 15 fields"),
            "{err}"
        );
    }
}
