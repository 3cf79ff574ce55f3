//! `et merge`: two hand-split shards of the core fixture merge into a directory whose
//! report equals the unsharded one; incompatible or overlapping shards are refused.

use std::fs;
use std::path::{Path, PathBuf};

use et_core::report::load::read_manifest;
use et_core::report::merge::merge;
use et_core::report::stats::ReportOptions;
use et_core::report::tables::{tables, Table};
use et_core::report::{build_report, RunDir};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

/// A scratch directory of the test's own (`tempfile`), removed when dropped, even when
/// the test fails.
struct Scratch {
    _root: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// A fresh scratch directory per test (tests run in parallel).
fn scratch(test: &str) -> Scratch {
    let root = tempfile::Builder::new()
        .prefix(&format!("et-merge-{test}-"))
        .tempdir()
        .unwrap();
    let path = root.path().to_path_buf();
    Scratch { _root: root, path }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Copies a fixture dir and rewrites one line of its run.toml.
fn variant(base: &Path, fixture_name: &str, name: &str, from: &str, to: &str) -> PathBuf {
    let dir = base.join(name);
    copy_dir(&fixture(fixture_name), &dir);
    let toml = fs::read_to_string(dir.join("run.toml")).unwrap();
    assert!(toml.contains(from), "{from} not in run.toml");
    fs::write(dir.join("run.toml"), toml.replacen(from, to, 1)).unwrap();
    dir
}

fn report_of(dirs: &[PathBuf]) -> Vec<Table> {
    let dirs: Vec<RunDir> = dirs.iter().map(|d| RunDir::open(d).unwrap()).collect();
    tables(&build_report(&dirs, &ReportOptions::default()).unwrap())
}

#[test]
fn merged_shards_report_like_the_unsharded_run() {
    let base = scratch("equal");
    let out = base.join("merged");
    let summary = merge(&[fixture("core-shard-1"), fixture("core-shard-2")], &out).unwrap();
    assert_eq!(summary.rows, 18);
    assert_eq!(summary.bug_files, 3);
    assert_eq!(
        report_of(std::slice::from_ref(&out)),
        report_of(&[fixture("core")])
    );
    // Reporting the shards directly gives the same numbers as well.
    assert_eq!(
        report_of(&[fixture("core-shard-1"), fixture("core-shard-2")]),
        report_of(&[fixture("core")])
    );
    // All shards present: the merged manifest is the unsharded study.
    let merged = read_manifest(&out.join("run.toml")).unwrap();
    let full = read_manifest(&fixture("core/run.toml")).unwrap();
    assert_eq!(merged, full);
    for bug in [
        "unsound/z3-4.8.10/core-2.smt2",
        "crash/z3-4.8.9/core-3.smt2",
        "invalid_model/z3-4.8.10/core-4.smt2",
    ] {
        assert!(out.join("bugs").join(bug).is_file(), "{bug} not copied");
    }
    // Nothing half-written is left next to the output.
    let leftovers: Vec<_> = fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "merged")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn partial_merge_records_the_shards_it_holds() {
    let base = scratch("partial");
    let a = variant(
        &base,
        "core-shard-1",
        "a",
        "shard = \"1/2\"",
        "shard = \"1/3\"",
    );
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "shard = \"2/2\"",
        "shard = \"2/3\"",
    );
    let out = base.join("merged");
    merge(&[a, b], &out).unwrap();
    let m = read_manifest(&out.join("run.toml")).unwrap();
    assert_eq!(m.shard.as_deref(), Some("1,2/3"));
    fs::remove_dir_all(&base).unwrap();
}

/// Runs a merge that must fail; returns its message and checks nothing was written.
fn refused(base: &Path, dirs: &[PathBuf]) -> String {
    let out = base.join("merged");
    let err = merge(dirs, &out).unwrap_err().to_string();
    assert!(!out.exists(), "refused merge wrote {}", out.display());
    err
}

#[test]
fn refuses_different_grammar() {
    let base = scratch("grammar");
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "grammar = \"core\"",
        "grammar = \"lia\"",
    );
    let err = refused(&base, &[fixture("core-shard-1"), b.clone()]);
    assert!(err.contains("grammar differs (core vs lia)"), "{err}");
    assert!(
        err.contains("core-shard-1") && err.contains(&b.display().to_string()),
        "{err}"
    );
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn refuses_different_timeout() {
    let base = scratch("timeout");
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "timeout_s = 8.0",
        "timeout_s = 4.0",
    );
    let err = refused(&base, &[fixture("core-shard-1"), b]);
    assert!(err.contains("timeout_s differs (8 vs 4)"), "{err}");
    fs::remove_dir_all(&base).unwrap();
}

/// A CPU-time limit changes which calls time out: shards with different ones are
/// different studies.
#[test]
fn refuses_different_cpu_timeout() {
    let base = scratch("cpu-timeout");
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "timeout_s = 8.0",
        "timeout_s = 8.0\ncpu_timeout_s = 2.0",
    );
    let err = refused(&base, &[fixture("core-shard-1"), b]);
    assert!(err.contains("cpu_timeout_s differs ((none) vs 2)"), "{err}");
}

/// Shards measured under different supervision (one machine with cgroups, one
/// without) merge, and the merged run.toml names both.
#[test]
fn mixed_supervision_is_recorded() {
    let base = scratch("supervision");
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "timeout_s = 8.0",
        "timeout_s = 8.0\nsupervision = \"cgroup-v2\"",
    );
    let out = base.join("merged");
    merge(&[fixture("core-shard-1"), b], &out).unwrap();
    let m = read_manifest(&out.join("run.toml")).unwrap();
    assert_eq!(m.supervision.as_deref(), Some("process-group, cgroup-v2"));
}

#[test]
fn refuses_different_pool() {
    let base = scratch("pool");
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "version = \"4.8.9\"",
        "version = \"4.8.8\"",
    );
    let err = refused(&base, &[fixture("core-shard-1"), b]);
    assert!(err.contains("solver pool differs"), "{err}");
    assert!(err.contains("z3-4.8.9 (z3 4.8.8)"), "{err}");
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn refuses_overlapping_ranges() {
    let base = scratch("overlap");
    // The same shard twice.
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "shard = \"2/2\"",
        "shard = \"1/2\"",
    );
    let err = refused(&base, &[fixture("core-shard-1"), b]);
    assert!(err.contains("index ranges overlap"), "{err}");
    assert!(err.contains("[0, 6) shard 1/2"), "{err}");
    // Plain ranges [0, 6) and [4, 10).
    let c = variant(&base, "core", "c", "start = \"0\"", "start = \"4\"");
    let err = refused(&base, &[fixture("core"), c]);
    assert!(err.contains("([0, 6) and [4, 10))"), "{err}");
    // The same directory twice.
    let err = refused(&base, &[fixture("core-shard-1"), fixture("core-shard-1")]);
    assert!(err.contains("overlap"), "{err}");
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn disjoint_plain_ranges_merge() {
    let base = scratch("ranges");
    let c = variant(&base, "core", "c", "start = \"0\"", "start = \"6\"");
    let out = base.join("merged");
    merge(&[fixture("core"), c], &out).unwrap();
    let m = read_manifest(&out.join("run.toml")).unwrap();
    assert_eq!((m.start.as_str(), m.n, m.shard), ("0", 12, None));
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn never_overwrites_the_output() {
    let base = scratch("exists");
    let out = base.join("merged");
    fs::create_dir_all(&out).unwrap();
    let err = merge(&[fixture("core-shard-1"), fixture("core-shard-2")], &out)
        .unwrap_err()
        .to_string();
    assert!(err.contains("already exists"), "{err}");
    fs::remove_dir_all(&base).unwrap();
}
