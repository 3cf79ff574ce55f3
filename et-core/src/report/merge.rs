//! `et merge`: joins the run directories of one sharded study into one directory.
//!
//! Shards must agree on everything that changes results (grammar, pool, timeout,
//! memory limit, reference override) and cover disjoint formula ranges; anything else
//! is refused with both directories and the differing value named. The output is
//! built under a temporary name next to `--out` and renamed at the end, so a directory
//! with the final name is always complete.

use std::fs;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use num_bigint::BigUint;

use crate::campaign::manifest::RunManifest;

use super::load::{RunDir, BUGS_DIR, MANIFEST, RUNS_CSV};
use super::ReportError;

/// CSV files of a run directory that are concatenated (header kept once).
const CSV_FILES: &[&str] = &[RUNS_CSV, "reference.csv"];

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
}

/// The formula range a directory covers, with its shard if any.
#[derive(Debug, Clone)]
struct Coverage {
    start: BigUint,
    end: BigUint,
    /// Shard numbers and shard count (`3/8` → `[3], 8`; merged shards `1,2/8`).
    shard: Option<(Vec<u64>, u64)>,
}

impl Coverage {
    fn of(m: &RunManifest) -> Self {
        let start: BigUint = m.start.parse().unwrap_or_default();
        let end = &start + BigUint::from(m.n);
        Coverage {
            start,
            end,
            shard: m.shard.as_deref().and_then(parse_shard),
        }
    }

    fn describe(&self, m: &RunManifest) -> String {
        match &m.shard {
            Some(s) => format!("[{}, {}) shard {s}", self.start, self.end),
            None => format!("[{}, {})", self.start, self.end),
        }
    }
}

/// Parses `k/K` (or `k1,k2/K` as written by a partial merge).
fn parse_shard(text: &str) -> Option<(Vec<u64>, u64)> {
    let (ks, total) = text.split_once('/')?;
    let total = total.trim().parse().ok()?;
    let ks = ks
        .split(',')
        .map(|k| k.trim().parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    Some((ks, total))
}

fn solvers_text(m: &RunManifest) -> String {
    m.solvers
        .iter()
        .map(|s| format!("{} ({} {})", s.name, s.family, s.version))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks that the directories are shards of one study, naming the first difference.
///
/// Solver command lines are not compared: shards often run on machines with
/// different install paths; name, family and version identify a solver.
pub fn check_shards(dirs: &[RunDir]) -> Result<(), ReportError> {
    let Some(first) = dirs.first() else {
        return Err(ReportError::NoInput);
    };
    for (i, a) in dirs.iter().enumerate() {
        let (ma, mb) = (&first.manifest, &a.manifest);
        let mismatch = |what: &'static str, left: String, right: String| ReportError::Mismatch {
            a: first.path.clone(),
            b: a.path.clone(),
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
        let recorded = |m: &RunManifest| m.solvers.iter().all(|s| s.references.is_some());
        if recorded(ma) && recorded(mb) && ma.references_text() != mb.references_text() {
            return Err(mismatch(
                "references",
                ma.references_text(),
                mb.references_text(),
            ));
        }
        for b in &dirs[i + 1..] {
            check_disjoint(a, b)?;
        }
    }
    Ok(())
}

fn check_disjoint(a: &RunDir, b: &RunDir) -> Result<(), ReportError> {
    let (ca, cb) = (Coverage::of(&a.manifest), Coverage::of(&b.manifest));
    let same_dir = fs::canonicalize(&a.path).ok() == fs::canonicalize(&b.path).ok();
    let ranges_meet = ca.start < cb.end && cb.start < ca.end;
    let distinct_shards = match (&ca.shard, &cb.shard) {
        (Some((ka, na)), Some((kb, nb))) => {
            ca.start == cb.start
                && ca.end == cb.end
                && na == nb
                && !ka.iter().any(|k| kb.contains(k))
        }
        _ => false,
    };
    if same_dir || (ranges_meet && !distinct_shards) {
        return Err(ReportError::Overlap {
            a: a.path.clone(),
            b: b.path.clone(),
            left: ca.describe(&a.manifest),
            right: cb.describe(&b.manifest),
        });
    }
    Ok(())
}

/// The manifest of the merged directory: the union of the ranges; `shard` is dropped
/// when all shards of a study are present and lists the shard numbers otherwise.
pub fn merged_manifest(dirs: &[RunDir]) -> RunManifest {
    let mut m = dirs[0].manifest.clone();
    let covs: Vec<Coverage> = dirs.iter().map(|d| Coverage::of(&d.manifest)).collect();
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
    m
}

/// Merges the shard directories into `out`, which must not exist yet.
pub fn merge(paths: &[PathBuf], out: &Path) -> Result<MergeSummary, ReportError> {
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
    let result = write_merged(&dirs, &tmp).and_then(|summary| {
        fs::rename(&tmp, out).map_err(|e| ReportError::io(out, e))?;
        Ok(summary)
    });
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

fn write_merged(dirs: &[RunDir], tmp: &Path) -> Result<MergeSummary, ReportError> {
    fs::create_dir_all(tmp).map_err(|e| ReportError::io(tmp, e))?;
    let mut rows = 0;
    for file in CSV_FILES {
        let n = concat_csv(dirs, file, &tmp.join(file))?;
        if *file == RUNS_CSV {
            rows = n;
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
    let manifest = merged_manifest(dirs);
    let text = toml::to_string(&manifest).expect("manifest serialises");
    let path = tmp.join(MANIFEST);
    fs::write(&path, text).map_err(|e| ReportError::io(&path, e))?;
    Ok(MergeSummary {
        rows,
        bug_files,
        renamed,
        manifest,
    })
}

/// Concatenates `file` of every directory that has it, keeping one header; the
/// headers must be equal. Returns the number of data rows. Copies bytes, not records,
/// because shards of a large study hold billions of rows.
fn concat_csv(dirs: &[RunDir], file: &str, dest: &Path) -> Result<u64, ReportError> {
    let mut writer: Option<(BufWriter<fs::File>, String, &Path)> = None;
    let mut rows = 0;
    for d in dirs {
        let src = d.path.join(file);
        if !src.exists() {
            continue;
        }
        let f = fs::File::open(&src).map_err(|e| ReportError::io(&src, e))?;
        let mut reader = BufReader::with_capacity(1 << 20, f);
        let mut header = String::new();
        reader
            .read_line(&mut header)
            .map_err(|e| ReportError::io(&src, e))?;
        let header = header.trim_end_matches(['\r', '\n']).to_string();
        let (w, first_header, first_dir) = match &mut writer {
            Some(w) => w,
            None => {
                let out = fs::File::create(dest).map_err(|e| ReportError::io(dest, e))?;
                let mut w = BufWriter::with_capacity(1 << 20, out);
                writeln!(w, "{header}").map_err(|e| ReportError::io(dest, e))?;
                writer.insert((w, header.clone(), &d.path))
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
        let mut last = b'\n';
        loop {
            let n = reader
                .read(&mut buf)
                .map_err(|e| ReportError::io(&src, e))?;
            if n == 0 {
                break;
            }
            rows += buf[..n].iter().filter(|b| **b == b'\n').count() as u64;
            last = buf[n - 1];
            w.write_all(&buf[..n])
                .map_err(|e| ReportError::io(dest, e))?;
        }
        // An unterminated last line would glue onto the next shard's first row.
        if last != b'\n' {
            w.write_all(b"\n").map_err(|e| ReportError::io(dest, e))?;
            rows += 1;
        }
    }
    if let Some((mut w, _, _)) = writer {
        w.flush().map_err(|e| ReportError::io(dest, e))?;
    }
    Ok(rows)
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
