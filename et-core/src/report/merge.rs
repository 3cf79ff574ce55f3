//! `et merge`: joins the run directories of one sharded study into one directory.
//!
//! Shards must agree on everything that changes results (grammar, pool, timeout,
//! memory limit, reference override) and cover disjoint formula ranges; anything else
//! is refused with both directories and the differing value named — the settings
//! first, so two different grammars are reported as such and not as overlapping
//! ranges. The output is built under a temporary name next to `--out` and renamed at
//! the end, so a directory with the final name is always complete. It holds a
//! `merge.toml` that records its inputs and how complete each was: an input killed
//! mid-run merges, but never silently.

use std::fs;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};

use crate::campaign::manifest::RunManifest;

use super::coverage::{check_all_disjoint, Coverage};
use super::load::{find_csv, open_csv, RunDir, BUGS_DIR, GZ, MANIFEST, RUNS_CSV};
use super::ReportError;
use crate::campaign::row::{DISAGREEMENTS_CSV, UNDECIDED_CSV};

/// CSV files of a run directory that are concatenated (header kept once).
const CSV_FILES: &[&str] = &[RUNS_CSV, "reference.csv", UNDECIDED_CSV, DISAGREEMENTS_CSV];

/// File name of the merge record inside a merged directory.
pub const MERGE_RECORD: &str = "merge.toml";

/// How a merge writes its CSV files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compression {
    /// `runs.csv`, `reference.csv`, `undecided.csv`, `session-disagreements.csv`.
    #[default]
    Plain,
    /// `runs.csv.gz`, `reference.csv.gz` (what `et report` and `et plot` read as well;
    /// `et run --resume` does not).
    Gzip,
}

/// One input of a merge and how complete it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedInput {
    /// The directory as given.
    pub path: String,
    /// The range (and shards) its `run.toml` claims.
    pub range: String,
    /// Formulas it claims.
    pub formulas: u64,
    /// Calls it held: its rows, each call once, of the solvers its `run.toml` names.
    pub calls: u64,
    /// Rows a complete run holds: formulas × solvers.
    pub expected_calls: u64,
    /// Its call log ended in a torn line (a run killed while writing it), which was
    /// not merged.
    pub torn_last_line: bool,
    /// Second rows of a call it held (copied, counted once by every reader).
    #[serde(default)]
    pub duplicate_rows: u64,
    /// Rows of solvers its `run.toml` does not name (copied, counted by no reader).
    #[serde(default)]
    pub other_solver_rows: u64,
}

impl MergedInput {
    /// Whether every claimed call has a row.
    pub fn is_complete(&self) -> bool {
        self.calls >= self.expected_calls
    }
}

/// `merge.toml`: what a merged directory holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergeRecord {
    /// Version of et that merged.
    pub et_version: String,
    /// Formulas the merged `run.toml` claims (its range, or its shards of it).
    pub formulas: u64,
    /// Formulas the inputs claim together: fewer than `formulas` when their ranges
    /// leave a gap inside the merged range.
    pub input_formulas: u64,
    /// Rows (calls) held.
    pub calls: u64,
    /// Rows a complete study over the merged range holds.
    pub expected_calls: u64,
    /// Every formula of the merged range has a row for every solver.
    pub complete: bool,
    /// The inputs, in the order given.
    pub input: Vec<MergedInput>,
}

/// What a merge wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeSummary {
    /// Data rows in the merged `runs.csv`.
    pub rows: u64,
    /// Files copied under `bugs/`.
    pub bug_files: u64,
    /// Bug files renamed because two shards used the same name for different content.
    pub renamed: u64,
    /// The manifest written to the merged directory.
    pub manifest: RunManifest,
    /// The record written to `merge.toml`.
    pub record: MergeRecord,
}

fn solvers_text(m: &RunManifest) -> String {
    m.solvers
        .iter()
        .map(|s| format!("{} ({} {})", s.name, s.family, s.version))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks that the directories are shards of one study, naming the first difference:
/// every setting of every directory is compared before any range, so the message is
/// about what really differs.
///
/// Solver command lines are not compared: shards often run on machines with
/// different install paths; name, family and version identify a solver. Nor is the
/// supervision (cgroups or process groups), which depends on the machine: the merged
/// `run.toml` names every one its rows were measured under.
pub fn check_shards(dirs: &[RunDir]) -> Result<(), ReportError> {
    let Some(first) = dirs.first() else {
        return Err(ReportError::NoInput);
    };
    for other in &dirs[1..] {
        let (ma, mb) = (&first.manifest, &other.manifest);
        let mismatch = |what: &'static str, left: String, right: String| ReportError::Mismatch {
            a: first.path.clone(),
            b: other.path.clone(),
            what,
            left,
            right,
        };
        if ma.grammar != mb.grammar {
            return Err(mismatch("grammar", ma.grammar.clone(), mb.grammar.clone()));
        }
        if solvers_text(ma) != solvers_text(mb) {
            return Err(mismatch("solver pool", solvers_text(ma), solvers_text(mb)));
        }
        if ma.timeout_s != mb.timeout_s {
            return Err(mismatch(
                "timeout_s",
                ma.timeout_s.to_string(),
                mb.timeout_s.to_string(),
            ));
        }
        if ma.cpu_timeout_s != mb.cpu_timeout_s {
            let shown = |t: Option<f64>| t.map_or("(none)".to_string(), |t| t.to_string());
            return Err(mismatch(
                "cpu_timeout_s",
                shown(ma.cpu_timeout_s),
                shown(mb.cpu_timeout_s),
            ));
        }
        if ma.memory_mb != mb.memory_mb {
            return Err(mismatch(
                "memory_mb",
                format!("{:?}", ma.memory_mb),
                format!("{:?}", mb.memory_mb),
            ));
        }
        if ma.reference != mb.reference {
            return Err(mismatch(
                "reference",
                format!("{:?}", ma.reference),
                format!("{:?}", mb.reference),
            ));
        }
        // et's own oracle defines a study too (shards made before et recorded it match
        // any setting).
        if let (Some(a), Some(b)) = (&ma.witness_bound, &mb.witness_bound) {
            if a != b {
                return Err(mismatch("witness_bound", a.clone(), b.clone()));
            }
        }
        let models = |m: &RunManifest| {
            let each: Vec<String> = m
                .solvers
                .iter()
                .filter_map(|s| {
                    Some(format!(
                        "{} {}",
                        s.name,
                        if s.models? { "on" } else { "off" }
                    ))
                })
                .collect();
            each.join(", ")
        };
        let models_recorded = |m: &RunManifest| m.solvers.iter().all(|s| s.models.is_some());
        if models_recorded(ma) && models_recorded(mb) && models(ma) != models(mb) {
            return Err(mismatch("models", models(ma), models(mb)));
        }
        let recorded = |m: &RunManifest| m.solvers.iter().all(|s| s.references.is_some());
        if recorded(ma) && recorded(mb) && ma.references_text() != mb.references_text() {
            return Err(mismatch(
                "references",
                ma.references_text(),
                mb.references_text(),
            ));
        }
    }
    for d in dirs {
        Coverage::of(d)?;
    }
    check_all_disjoint(dirs, "merge")
}

/// The manifest of the merged directory: the union of the ranges; `shard` is dropped
/// when all shards of a study are present and lists the shard numbers otherwise.
pub fn merged_manifest(dirs: &[RunDir]) -> Result<RunManifest, ReportError> {
    let mut m = dirs[0].manifest.clone();
    let covs: Vec<Coverage> = dirs.iter().map(Coverage::of).collect::<Result<_, _>>()?;
    let start = covs
        .iter()
        .map(|c| c.start.clone())
        .min()
        .unwrap_or_default();
    let end = covs.iter().map(|c| c.end.clone()).max().unwrap_or_default();
    m.start = start.to_string();
    m.n = u64::try_from(&end - &start).unwrap_or(u64::MAX);
    let shards: Option<Vec<(Vec<u64>, u64)>> = covs.iter().map(|c| c.shard.clone()).collect();
    m.shard = shards.and_then(|shards| {
        let total = shards[0].1;
        let mut ks: Vec<u64> = shards.into_iter().flat_map(|(k, _)| k).collect();
        ks.sort_unstable();
        ks.dedup();
        (ks.len() as u64 != total).then(|| {
            let ks: Vec<String> = ks.iter().map(u64::to_string).collect();
            format!("{}/{total}", ks.join(","))
        })
    });
    // Shards may run on machines with and without cgroups: the merged directory names
    // every supervision its rows were measured under.
    let mut supervisions: Vec<&str> = Vec::new();
    for d in dirs {
        let used = d.manifest.supervision_used();
        if !supervisions.contains(&used) {
            supervisions.push(used);
        }
    }
    if supervisions.len() > 1 {
        m.supervision = Some(supervisions.join(", "));
    }
    Ok(m)
}

/// Merges the shard directories into `out`, which must not exist yet.
pub fn merge(
    paths: &[PathBuf],
    out: &Path,
    compression: Compression,
) -> Result<MergeSummary, ReportError> {
    let dirs = paths
        .iter()
        .map(RunDir::open)
        .collect::<Result<Vec<_>, _>>()?;
    check_shards(&dirs)?;
    if out.exists() {
        return Err(ReportError::OutputExists {
            path: out.to_path_buf(),
        });
    }
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "merged".into());
    let tmp = out.with_file_name(format!(".{name}.merging-{}", std::process::id()));
    let result = write_merged(&dirs, &tmp, compression).and_then(|summary| {
        fs::rename(&tmp, out).map_err(|e| ReportError::io(out, e))?;
        Ok(summary)
    });
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

fn write_merged(
    dirs: &[RunDir],
    tmp: &Path,
    compression: Compression,
) -> Result<MergeSummary, ReportError> {
    fs::create_dir_all(tmp).map_err(|e| ReportError::io(tmp, e))?;
    let mut per_input = vec![Concatenated::default(); dirs.len()];
    for file in CSV_FILES {
        let counts = concat_csv(dirs, file, tmp, compression)?;
        if *file == RUNS_CSV {
            per_input = counts;
        }
    }
    let (mut bug_files, mut renamed) = (0, 0);
    for (i, d) in dirs.iter().enumerate() {
        let src = d.path.join(BUGS_DIR);
        if src.is_dir() {
            copy_tree(
                &src,
                &tmp.join(BUGS_DIR),
                i + 1,
                &mut bug_files,
                &mut renamed,
            )?;
        }
    }
    let manifest = merged_manifest(dirs)?;
    let record = merge_record(dirs, &per_input, &manifest, &tmp.join(MANIFEST))?;
    for (name, text) in [
        (MANIFEST, toml::to_string(&manifest).expect("manifest serialises")),
        (
            MERGE_RECORD,
            format!(
                "# Written by `et merge`: the inputs of this directory and how complete each was.\n{}",
                toml::to_string(&record).expect("merge record serialises")
            ),
        ),
    ] {
        let path = tmp.join(name);
        fs::write(&path, text).map_err(|e| ReportError::io(&path, e))?;
    }
    Ok(MergeSummary {
        rows: per_input.iter().map(|c| c.rows).sum(),
        bug_files,
        renamed,
        manifest,
        record,
    })
}

/// Counts that TOML can hold (its integers are signed 64-bit).
fn toml_count(n: u128) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX).min(i64::MAX as u64)
}

/// What the merged directory holds: each input's rows against its claim, and the
/// merged claim against what the inputs cover.
fn merge_record(
    dirs: &[RunDir],
    copied: &[Concatenated],
    merged: &RunManifest,
    merged_path: &Path,
) -> Result<MergeRecord, ReportError> {
    let solvers = merged.solvers.len() as u128;
    let mut input = Vec::new();
    for (d, c) in dirs.iter().zip(copied) {
        let cov = Coverage::of(d)?;
        let formulas = cov.formulas();
        // Rows are copied as bytes; this pass counts the calls among them (each once, of
        // the run's own solvers), as every reader of the merged directory will.
        let left_out = d.for_each_row(|_, _| Ok(()))?.left_out;
        input.push(MergedInput {
            path: d.path.display().to_string(),
            range: cov.describe(),
            formulas,
            calls: c.rows - left_out.duplicates - left_out.other_solvers,
            expected_calls: toml_count(u128::from(formulas) * solvers),
            torn_last_line: c.torn_last_line,
            duplicate_rows: left_out.duplicates,
            other_solver_rows: left_out.other_solvers,
        });
    }
    let formulas = Coverage::of_manifest(merged, merged_path)?.formulas();
    let input_formulas = input.iter().map(|i| i.formulas).sum();
    let held: u64 = copied.iter().map(|c| c.rows).sum();
    let expected_calls = toml_count(u128::from(formulas) * solvers);
    Ok(MergeRecord {
        et_version: env!("CARGO_PKG_VERSION").to_string(),
        formulas,
        input_formulas,
        calls: held,
        expected_calls,
        complete: held >= expected_calls && input_formulas >= formulas,
        input,
    })
}

/// A CSV file being written, plain or gzip-compressed.
enum CsvOut {
    Plain(BufWriter<fs::File>),
    Gzip(GzEncoder<BufWriter<fs::File>>),
}

impl CsvOut {
    fn create(path: &Path, compression: Compression) -> Result<Self, ReportError> {
        let file = fs::File::create(path).map_err(|e| ReportError::io(path, e))?;
        let w = BufWriter::with_capacity(1 << 20, file);
        Ok(match compression {
            Compression::Plain => CsvOut::Plain(w),
            Compression::Gzip => CsvOut::Gzip(GzEncoder::new(w, flate2::Compression::default())),
        })
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            CsvOut::Plain(w) => w,
            CsvOut::Gzip(w) => w,
        }
    }

    /// Flushes everything, the gzip trailer included.
    fn finish(self) -> std::io::Result<()> {
        match self {
            CsvOut::Plain(mut w) => w.flush(),
            CsvOut::Gzip(w) => w.finish()?.flush(),
        }
    }
}

/// What was copied from one input file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Concatenated {
    /// Whole data rows copied.
    rows: u64,
    /// The file ended in a line without its newline, which was left out.
    torn_last_line: bool,
}

/// Concatenates `file` (or `file.gz`) of every directory that has it into `dir`,
/// keeping one header; the headers must be equal. Copies bytes, not records, because
/// shards of a large study hold billions of rows; only whole lines are copied, so the
/// torn last line of a killed run is left out (and reported) rather than glued onto
/// the next input's first row.
fn concat_csv(
    dirs: &[RunDir],
    file: &'static str,
    dir: &Path,
    compression: Compression,
) -> Result<Vec<Concatenated>, ReportError> {
    let dest = match compression {
        Compression::Plain => dir.join(file),
        Compression::Gzip => dir.join(format!("{file}{GZ}")),
    };
    let mut writer: Option<(CsvOut, String, &Path)> = None;
    let mut copied = vec![Concatenated::default(); dirs.len()];
    for (i, d) in dirs.iter().enumerate() {
        let Some(src) = find_csv(&d.path, file)? else {
            continue;
        };
        let mut reader = BufReader::with_capacity(1 << 20, open_csv(&src)?);
        let mut header = String::new();
        reader
            .read_line(&mut header)
            .map_err(|e| ReportError::io(&src, e))?;
        let header = header.trim_end_matches(['\r', '\n']).to_string();
        if !header.starts_with("grammar,") {
            return Err(ReportError::NotARunDir {
                path: d.path.clone(),
                reason: format!("{} does not start with et's CSV header", src.display()),
            });
        }
        let (w, first_header, first_dir) = match &mut writer {
            Some(w) => w,
            None => {
                let mut out = CsvOut::create(&dest, compression)?;
                writeln!(out.writer(), "{header}").map_err(|e| ReportError::io(&dest, e))?;
                writer.insert((out, header.clone(), &d.path))
            }
        };
        if header != *first_header {
            return Err(ReportError::Mismatch {
                a: first_dir.to_path_buf(),
                b: d.path.clone(),
                what: "CSV header",
                left: first_header.clone(),
                right: header,
            });
        }
        let mut buf = vec![0u8; 1 << 20];
        // Bytes after the last newline seen: written once their line is complete.
        let mut partial: Vec<u8> = Vec::new();
        loop {
            let n = reader
                .read(&mut buf)
                .map_err(|e| ReportError::io(&src, e))?;
            if n == 0 {
                break;
            }
            let chunk = &buf[..n];
            let Some(last_newline) = chunk.iter().rposition(|b| *b == b'\n') else {
                partial.extend_from_slice(chunk);
                continue;
            };
            copied[i].rows += chunk.iter().filter(|b| **b == b'\n').count() as u64;
            let out = w.writer();
            out.write_all(&partial)
                .and_then(|()| out.write_all(&chunk[..=last_newline]))
                .map_err(|e| ReportError::io(&dest, e))?;
            partial.clear();
            partial.extend_from_slice(&chunk[last_newline + 1..]);
        }
        copied[i].torn_last_line = !partial.is_empty();
    }
    if let Some((w, _, _)) = writer {
        w.finish().map_err(|e| ReportError::io(&dest, e))?;
    }
    Ok(copied)
}

/// Copies a directory tree; a name already taken by different content gets `~shardN`.
fn copy_tree(
    src: &Path,
    dest: &Path,
    shard: usize,
    copied: &mut u64,
    renamed: &mut u64,
) -> Result<(), ReportError> {
    fs::create_dir_all(dest).map_err(|e| ReportError::io(dest, e))?;
    let entries = fs::read_dir(src).map_err(|e| ReportError::io(src, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| ReportError::io(src, e))?;
        let from = entry.path();
        let mut to = dest.join(entry.file_name());
        let kind = entry.file_type().map_err(|e| ReportError::io(&from, e))?;
        if kind.is_dir() {
            copy_tree(&from, &to, shard, copied, renamed)?;
            continue;
        }
        if to.exists() {
            let same = fs::read(&from).ok() == fs::read(&to).ok();
            if same {
                continue;
            }
            let stem = to
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let ext = to
                .extension()
                .map(|e| format!(".{}", e.to_string_lossy()))
                .unwrap_or_default();
            to = dest.join(format!("{stem}~shard{shard}{ext}"));
            *renamed += 1;
        }
        fs::copy(&from, &to).map_err(|e| ReportError::io(&from, e))?;
        *copied += 1;
    }
    Ok(())
}
