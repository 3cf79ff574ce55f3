//! Reading run directories for triage: `run.toml` (the run's solvers and limits, through
//! the report's [`crate::report::load`]) and the bug triggers of its call log, through
//! the one reader of `runs.csv` and `runs.csv.gz` ([`crate::campaign::row::read`]): the
//! log is streamed into one reused row and only rows with a verdict are kept, so a
//! directory of 10^7 calls costs the time to read it and the memory of its triggers.
//! Files with or without the later columns (`evidence`, `model_check`,
//! `reference_usable`) read alike, and a torn last line is left out.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::campaign::manifest::{ManifestSolver, RunManifest};
use crate::campaign::row::once::{Admission, CallsOnce, LeftOut};
use crate::campaign::row::{for_each_row, RunRow};
use crate::oracle::{Evidence, Verdict};
use crate::report::coverage::Coverage;
use crate::report::load::RunDir;
use crate::report::load::MANIFEST;
use crate::report::ReportError;
use crate::solvers::{InputMode, Pool, SolverConfig};

use super::TriageError;

/// A run directory as triage sees it.
#[derive(Debug, Clone)]
pub struct RunDirectory {
    /// The directory as given.
    pub path: PathBuf,
    /// Its `run.toml`.
    pub manifest: RunManifest,
    /// Its call log: `runs.csv`, or `runs.csv.gz` when only that is present.
    pub runs: PathBuf,
    /// The run's solvers under test, runnable again (commands from the manifest).
    pub solvers: Vec<SolverConfig>,
    /// The judges that were not under test, as the run ran them (a derived judge such
    /// as z3 without Unicode strings keeps its options). They judge this run's
    /// triggers; they are not versions of their family for version ranges.
    pub judges: Vec<SolverConfig>,
    /// Solvers whose recorded program is not on this machine, re-run as the pool's
    /// entry of the same name, release and options instead (a run directory made on
    /// another machine): one line each, for the triage's warnings.
    pub relocated: Vec<String>,
}

/// The pool's entry for a run's solver whose program is not on this machine: the same
/// name, family, release and options, installed elsewhere. `None` when the recorded
/// program is here (or is a bare name a `PATH` lookup finds), or the pool has no such
/// entry.
fn installed_elsewhere<'p>(
    recorded: &SolverConfig,
    pool: Option<&'p Pool>,
) -> Option<&'p SolverConfig> {
    let program = Path::new(recorded.program());
    if !program.is_absolute() || program.exists() {
        return None;
    }
    pool?.get(&recorded.name).filter(|p| {
        p.family.eq_ignore_ascii_case(&recorded.family)
            && p.version == recorded.version
            && p.options() == recorded.options()
            && Path::new(p.program()).exists()
    })
}

impl RunDirectory {
    /// Reads `DIR/run.toml` and finds the call log. A solver the manifest records
    /// with file input (which is also what manifests written before et recorded the
    /// input mode say) takes the input mode of a solver `pool` lists under the same
    /// name and command.
    pub fn open(path: &Path, pool: Option<&Pool>) -> Result<RunDirectory, TriageError> {
        let RunDir {
            path,
            manifest,
            runs,
        } = RunDir::open(path)?;
        let mut relocated = Vec::new();
        let mut runnable = |recorded: &[ManifestSolver]| -> Vec<SolverConfig> {
            recorded
                .iter()
                .map(|s| {
                    let mut config = s.config();
                    if let Some(here) = installed_elsewhere(&config, pool) {
                        relocated.push(format!(
                            "`{}`: `{}` is not here; re-runs use the pool's `{}`",
                            s.name,
                            config.program(),
                            here.program()
                        ));
                        return here.clone();
                    }
                    let listed = pool
                        .and_then(|p| p.get(&s.name))
                        .filter(|p| p.command == s.command);
                    if let (InputMode::File, Some(listed)) = (config.input, listed) {
                        config.input = listed.input;
                    }
                    config
                })
                .collect()
        };
        let solvers = runnable(&manifest.solvers);
        let judges = runnable(&manifest.reference_solvers);
        Ok(RunDirectory {
            path,
            manifest,
            runs,
            solvers,
            judges,
            relocated,
        })
    }

    /// The run's solver or judge of that name.
    pub fn solver(&self, name: &str) -> Option<&SolverConfig> {
        self.solvers
            .iter()
            .chain(&self.judges)
            .find(|s| s.name == name)
    }
}

/// One call with a verdict, as `runs.csv` recorded it, and where triage found it.
#[derive(Debug, Clone, PartialEq)]
pub struct TriggerRow {
    /// Position of its directory in the triage's list.
    pub dir: usize,
    /// 1-based line in the CSV file.
    pub line: u64,
    /// The row; its verdict is always there (see [`TriggerRow::new`]).
    row: RunRow,
}

impl TriggerRow {
    /// The trigger of a row, if the row has a verdict.
    pub fn new(dir: usize, line: u64, row: RunRow) -> Option<TriggerRow> {
        row.verdict?;
        Some(TriggerRow { dir, line, row })
    }

    /// The row as `runs.csv` recorded it.
    pub fn row(&self) -> &RunRow {
        &self.row
    }

    /// The verdict.
    pub fn verdict(&self) -> Verdict {
        // `new` keeps only rows with a verdict and the row is not handed out mutably.
        self.row
            .verdict
            .expect("a trigger row always has a verdict")
    }

    /// The solver whose answer judged this call, empty when none did: the one of the
    /// pool that decided a performance finding the reference did not, else the
    /// reference. Confirmation re-runs this solver.
    pub fn judge_name(&self) -> &str {
        match self.row.evidence {
            Some(Evidence::Pool) if !self.row.decided_by.is_empty() => &self.row.decided_by,
            _ => &self.row.reference,
        }
    }
}

/// What reading one directory's call log found.
#[derive(Debug, Default)]
pub struct Scan {
    /// Its triggers, in file order, one per call (its first row).
    pub triggers: Vec<TriggerRow>,
    /// Rows read.
    pub rows: u64,
    /// Rows that are not calls of the run, left out.
    pub left_out: LeftOut,
    /// The formulas of the run (distinct indices of its calls).
    pub formulas: usize,
}

/// Streams the call log `path` of directory number `dir` and keeps the rows with a
/// verdict, each call once and only of the run's solvers (`calls`); a malformed row is
/// an error naming its line.
pub fn scan(path: &Path, dir: usize, calls: &mut CallsOnce) -> Result<Scan, TriageError> {
    let mut scan = Scan::default();
    let mut formulas: HashSet<String> = HashSet::new();
    for_each_row(path, |row, line| {
        scan.rows += 1;
        if calls.admit(row) != Admission::Call {
            return Ok(());
        }
        if !formulas.contains(&row.index) {
            formulas.insert(row.index.clone());
        }
        if row.verdict.is_none() {
            return Ok(());
        }
        scan.triggers
            .extend(TriggerRow::new(dir, line, row.clone()));
        Ok::<_, ReportError>(())
    })?;
    scan.left_out = calls.left_out();
    scan.formulas = formulas.len();
    Ok(scan)
}

/// Leaves out of `triggers` each trigger of an option configuration whose default
/// mode (the pool solver it configures, run in the same directory) shows the same
/// verdict on the same formula: the default mode's finding seen again, which its own
/// trigger stands for (one root cause, one report; and a single-option run of some
/// 700 configurations would otherwise confirm and range the default mode's findings
/// once per configuration). Returns how many each configuration had, by name.
pub fn leave_to_default_modes(
    triggers: &mut Vec<TriggerRow>,
    dirs: &[RunDirectory],
) -> BTreeMap<String, usize> {
    // (directory, configuration) -> the pool solver it configures, read once.
    let bases: HashMap<(usize, &str), &str> =
        dirs.iter()
            .enumerate()
            .flat_map(|(d, dir)| {
                dir.manifest.solvers.iter().filter_map(move |s| {
                    Some(((d, s.name.as_str()), s.configuration_of.as_deref()?))
                })
            })
            .collect();
    let base_of = |t: &TriggerRow| bases.get(&(t.dir, t.row.solver.as_str())).copied();
    let shown: HashSet<(usize, &str, &str, Option<Verdict>)> = triggers
        .iter()
        .map(|t| {
            (
                t.dir,
                t.row.solver.as_str(),
                t.row.index.as_str(),
                t.row.verdict,
            )
        })
        .collect();
    let shared: Vec<bool> = triggers
        .iter()
        .map(|t| {
            base_of(t).is_some_and(|base| {
                shown.contains(&(t.dir, base, t.row.index.as_str(), t.row.verdict))
            })
        })
        .collect();
    let mut left = BTreeMap::new();
    let mut keep = shared.iter();
    triggers.retain(|t| {
        let shared = *keep.next().expect("a mark per trigger");
        if shared {
            *left.entry(t.row.solver.clone()).or_default() += 1;
        }
        !shared
    });
    left
}

/// The calls of a run directory, each to be counted once
/// ([`crate::campaign::row::once`]).
pub fn calls_of(dir: &RunDirectory) -> Result<CallsOnce, TriageError> {
    let coverage = Coverage::of_manifest(&dir.manifest, &dir.path.join(MANIFEST))?;
    Ok(CallsOnce::new(
        &coverage.start,
        coverage.n,
        dir.manifest.solvers.iter().map(|s| s.name.as_str()),
    ))
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
    use crate::oracle::{Evidence, Status};
    use std::io::Write;

    const HEADER: &str = "grammar,index,size,solver,family,version,status,verdict,reference,\
                          reference_status,time_s,cpu_s,max_rss_kb,exit_code,signal";

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Every call of the tests' files: solvers z3-4.8.7, cvc5-1.4.2 and z3.
    fn calls() -> CallsOnce {
        CallsOnce::new(&0u32.into(), 100, ["z3-4.8.7", "cvc5-1.4.2", "z3"])
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
        let scan = scan(&path, 3, &mut calls()).unwrap();
        assert_eq!(scan.rows, 3);
        assert_eq!(scan.triggers.len(), 2);
        let t = &scan.triggers[1];
        assert_eq!((t.dir, t.line, t.row().index.as_str()), (3, 4, "8"));
        assert_eq!(
            (t.row().status, t.verdict()),
            (Status::Unsat, Verdict::Unsound)
        );
        assert_eq!(t.row().reference_status, Some(Status::Sat));
        // A file without the evidence columns: the evidence the verdict implies.
        assert_eq!(
            (t.row().evidence, t.row().model_check.as_str()),
            (Some(Evidence::Reference), "")
        );
        assert_eq!(scan.triggers[0].row().evidence, Some(Evidence::SelfCheck));
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
            std::fs::File::create(&path).unwrap(),
            flate2::Compression::fast(),
        );
        gz.write_all(text.as_bytes()).unwrap();
        gz.finish().unwrap();
        let scan = scan(&path, 0, &mut calls()).unwrap();
        let t = &scan.triggers[0];
        assert_eq!(t.row().evidence, Some(Evidence::Model));
        assert_eq!(t.row().model_check, "invalid");
        assert_eq!(t.row().reference_usable, Some(true));
    }

    #[test]
    fn the_layout_et_run_writes_reads() {
        // `reference_usable` right after `signal`, without the evidence columns.
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            "{HEADER},reference_usable\n\
             ints,8,5,z3-4.8.7,z3,4.8.7,unsat,unsound,cvc5,sat,0.01,0.01,100,0,,yes\n"
        );
        let path = write(dir.path(), "runs.csv", &text);
        let scan = scan(&path, 0, &mut calls()).unwrap();
        assert_eq!(scan.triggers[0].verdict(), Verdict::Unsound);
    }

    #[test]
    fn a_torn_last_line_is_skipped_but_bad_rows_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let torn = format!(
            "{HEADER}\nints,8,5,z3,z3,4.8.7,unsat,unsound,cvc5,sat,0.01,0.01,100,0,\nints,9,5,z3"
        );
        let path = write(dir.path(), "torn.csv", &torn);
        assert_eq!(scan(&path, 0, &mut calls()).unwrap().triggers.len(), 1);

        let bad = format!("{HEADER}\nints,8,5,z3,z3,4.8.7,unsat,wrong,cvc5,sat,0.01,0.01,100,0,\n");
        let path = write(dir.path(), "bad.csv", &bad);
        let err = scan(&path, 0, &mut calls()).unwrap_err().to_string();
        assert!(
            err.contains("bad.csv:2") && err.contains("`wrong`"),
            "{err}"
        );

        let path = write(dir.path(), "nocol.csv", "grammar,index\nints,1\n");
        let err = scan(&path, 0, &mut calls()).unwrap_err().to_string();
        assert!(err.contains("no column `solver`"), "{err}");

        // Only the last line may be torn: a short row before it is an error.
        let middle = format!(
            "{HEADER}\nints,9,5,z3\nints,8,5,z3,z3,4.8.7,unsat,,cvc5,sat,0.01,0.01,100,0,\n"
        );
        let path = write(dir.path(), "middle.csv", &middle);
        let err = scan(&path, 0, &mut calls()).unwrap_err().to_string();
        assert!(err.contains("middle.csv:2:"), "{err}");
        assert!(err.contains("fields"), "{err}");
    }
}
