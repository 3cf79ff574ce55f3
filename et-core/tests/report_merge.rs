//! `et merge`: two hand-split shards of the core fixture merge into a directory whose
//! report equals the unsharded one; incompatible or overlapping shards are refused
//! naming the real difference; a killed shard merges with its completeness recorded.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use et_core::campaign::manifest::RunManifest;
use et_core::report::load::read_manifest;
use et_core::report::merge::{merge as merge_dirs, Compression, MergeRecord, MergeSummary};
use et_core::report::stats::ReportOptions;
use et_core::report::tables::{tables, Table};
use et_core::report::{build_report, ReportError, RunDir};

use common::copy_dir;

fn merge(dirs: &[PathBuf], out: &Path) -> Result<MergeSummary, ReportError> {
    merge_dirs(dirs, out, Compression::Plain)
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

/// A fresh scratch directory per test, removed when dropped (even on failure).
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
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

/// The report's tables without `inputs` (which names the directories).
fn report_of(dirs: &[PathBuf]) -> Vec<Table> {
    let dirs: Vec<RunDir> = dirs.iter().map(|d| RunDir::open(d).unwrap()).collect();
    let mut t = tables(&build_report(&dirs, &ReportOptions::default()).unwrap());
    t.retain(|t| t.name != "inputs");
    t
}

#[test]
fn merged_shards_report_like_the_unsharded_run() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
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
}

#[test]
fn partial_merge_records_the_shards_it_holds() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
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
    let m = merged_manifest(&base, &[a, b]);
    assert_eq!(m.shard.as_deref(), Some("1,2/3"));
}

/// Runs a merge that must fail; returns its message and checks nothing was written.
fn refused(base: &Path, dirs: &[PathBuf]) -> String {
    let out = base.join("merged");
    let err = merge(dirs, &out).unwrap_err().to_string();
    assert!(!out.exists(), "refused merge wrote {}", out.display());
    err
}

/// core-shard-1 merged with a copy of core-shard-2 whose run.toml says `to` where it
/// said `from`: the merge must be refused. The message, and the copy's path.
fn refused_with_edited_shard_2(from: &str, to: &str) -> (String, PathBuf) {
    let tmp = scratch();
    let b = variant(tmp.path(), "core-shard-2", "b", from, to);
    let err = refused(tmp.path(), &[fixture("core-shard-1"), b.clone()]);
    (err, b)
}

#[test]
fn refuses_different_grammar() {
    let (err, b) = refused_with_edited_shard_2("grammar = \"core\"", "grammar = \"lia\"");
    assert!(err.contains("grammar differs (core vs lia)"), "{err}");
    assert!(
        err.contains("core-shard-1") && err.contains(&b.display().to_string()),
        "{err}"
    );
}

#[test]
fn refuses_different_timeout() {
    let (err, _) = refused_with_edited_shard_2("timeout_s = 8.0", "timeout_s = 4.0");
    assert!(err.contains("timeout_s differs (8 vs 4)"), "{err}");
}

/// A CPU-time limit changes which calls time out: shards with different ones are
/// different studies.
#[test]
fn refuses_different_cpu_timeout() {
    let (err, _) =
        refused_with_edited_shard_2("timeout_s = 8.0", "timeout_s = 8.0\ncpu_timeout_s = 2.0");
    assert!(err.contains("cpu_timeout_s differs ((none) vs 2)"), "{err}");
}

/// et's own oracle defines a study: shards with different witness searches are
/// different studies (shards made before et recorded it merge with any).
#[test]
fn refuses_different_witness_bound() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let with = |name: &str, dir: &str, bound: &str| {
        variant(
            &base,
            name,
            dir,
            "timeout_s = 8.0",
            &format!("timeout_s = 8.0\nwitness_bound = \"{bound}\""),
        )
    };
    let a = with("core-shard-1", "a", "9");
    let b = with("core-shard-2", "b", "off");
    let err = refused(&base, &[a.clone(), b]);
    assert!(err.contains("witness_bound differs (9 vs off)"), "{err}");
    let out = base.join("merged-old");
    merge(&[a, fixture("core-shard-2")], &out).unwrap();
}

/// Shards measured under different supervision (one machine with cgroups, one
/// without) merge, and the merged run.toml names both.
#[test]
fn mixed_supervision_is_recorded() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let b = variant(
        &base,
        "core-shard-2",
        "b",
        "timeout_s = 8.0",
        "timeout_s = 8.0\nsupervision = \"cgroup-v2\"",
    );
    let m = merged_manifest(&base, &[fixture("core-shard-1"), b]);
    assert_eq!(m.supervision.as_deref(), Some("process-group, cgroup-v2"));
}

#[test]
fn refuses_different_pool() {
    let (err, _) = refused_with_edited_shard_2("version = \"4.8.9\"", "version = \"4.8.8\"");
    assert!(err.contains("solver pool differs"), "{err}");
    assert!(err.contains("z3-4.8.9 (z3 4.8.8)"), "{err}");
}

#[test]
fn refuses_overlapping_ranges() {
    // The same shard twice.
    let (err, _) = refused_with_edited_shard_2("shard = \"2/2\"", "shard = \"1/2\"");
    assert!(err.starts_with("cannot merge"), "{err}");
    assert!(err.contains("would count twice"), "{err}");
    assert!(err.contains("[0, 6) shard 1/2"), "{err}");
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    // Plain ranges [0, 6) and [4, 10).
    let c = variant(&base, "core", "c", "start = \"0\"", "start = \"4\"");
    let err = refused(&base, &[fixture("core"), c]);
    assert!(err.contains("([0, 6) and [4, 10))"), "{err}");
    // The same directory twice.
    let err = refused(&base, &[fixture("core-shard-1"), fixture("core-shard-1")]);
    assert!(err.contains("would count twice"), "{err}");
}

#[test]
fn different_grammars_are_named_before_overlapping_ranges() {
    // The same shard of two grammars: the ranges overlap, but the grammar is what
    // differs, and that is what the message says.
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let b = variant(
        &base,
        "core-shard-1",
        "b",
        "grammar = \"core\"",
        "grammar = \"strings\"",
    );
    let err = refused(&base, &[fixture("core-shard-1"), b.clone()]);
    assert!(err.contains("grammar differs (core vs strings)"), "{err}");
    // Also when the differing directory is not the second one.
    let err = refused(
        &base,
        &[fixture("core-shard-1"), fixture("core-shard-1"), b],
    );
    assert!(err.contains("grammar differs"), "{err}");
}

/// Merges `dirs` into `base/merged`; its run.toml.
fn merged_manifest(base: &Path, dirs: &[PathBuf]) -> RunManifest {
    let out = base.join("merged");
    merge(dirs, &out).unwrap();
    read_manifest(&out.join("run.toml")).unwrap()
}

fn record(dir: &Path) -> MergeRecord {
    toml::from_str(&fs::read_to_string(dir.join("merge.toml")).unwrap()).unwrap()
}

#[test]
fn a_killed_shard_merges_with_its_completeness_recorded() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let killed = base.join("shard-2-killed");
    copy_dir(&fixture("core-shard-2"), &killed);
    // Keep the header, 4 of its 9 rows and the start of the fifth (torn).
    let text = fs::read_to_string(killed.join("runs.csv")).unwrap();
    let mut kept: Vec<&str> = text.lines().take(6).collect();
    let torn = &kept[5][..10];
    kept[5] = torn;
    fs::write(killed.join("runs.csv"), kept.join("\n")).unwrap();
    let out = base.join("merged");
    let summary = merge(&[fixture("core-shard-1"), killed.clone()], &out).unwrap();
    let r = &summary.record;
    assert_eq!((r.formulas, r.input_formulas), (6, 6));
    assert_eq!((r.calls, r.expected_calls, r.complete), (9 + 4, 18, false));
    assert_eq!(r.input.len(), 2);
    assert!(r.input[0].is_complete());
    assert_eq!(
        (
            r.input[1].calls,
            r.input[1].expected_calls,
            r.input[1].formulas
        ),
        (4, 9, 3)
    );
    assert_eq!(r.input[1].range, "[0, 6) shard 2/2");
    assert!(!r.input[1].is_complete());
    assert!(r.input[1].torn_last_line && !r.input[0].torn_last_line);
    // The directory says so itself, and its report too.
    assert_eq!(&record(&out), r);
    let merged = RunDir::open(&out).unwrap();
    let report = build_report(&[merged], &ReportOptions::default()).unwrap();
    assert_eq!(report.inputs[0].calls, 13);
    assert!(!report.inputs[0].is_complete());
    // The killed shard itself reports too, its torn line left out and said so.
    let report =
        build_report(&[RunDir::open(&killed).unwrap()], &ReportOptions::default()).unwrap();
    assert_eq!(report.inputs[0].calls, 4);
    assert!(report.inputs[0].torn_last_line);
    assert!(report.inputs[0].describe().contains("torn last line"));
}

#[test]
fn a_gap_between_ranges_is_recorded() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let c = variant(&base, "core", "c", "start = \"0\"", "start = \"10\"");
    let out = base.join("merged");
    let summary = merge(&[fixture("core"), c], &out).unwrap();
    // [0, 16) is claimed, [0, 6) and [10, 16) are held.
    let r = &summary.record;
    assert_eq!((r.formulas, r.input_formulas, r.complete), (16, 12, false));
    assert_eq!((r.calls, r.expected_calls), (36, 48));
}

#[test]
fn compressed_shards_merge_and_can_stay_compressed() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let mut shards = Vec::new();
    for name in ["core-shard-1", "core-shard-2"] {
        let dir = base.join(name);
        copy_dir(&fixture(name), &dir);
        let plain = fs::read(dir.join("runs.csv")).unwrap();
        fs::remove_file(dir.join("runs.csv")).unwrap();
        let file = fs::File::create(dir.join("runs.csv.gz")).unwrap();
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &plain).unwrap();
        gz.finish().unwrap();
        shards.push(dir);
    }
    let plain_out = base.join("plain");
    assert_eq!(merge(&shards, &plain_out).unwrap().rows, 18);
    assert!(plain_out.join("runs.csv").is_file());
    let gz_out = base.join("gz");
    let summary = merge_dirs(&shards, &gz_out, Compression::Gzip).unwrap();
    assert_eq!(summary.rows, 18);
    assert!(gz_out.join("runs.csv.gz").is_file());
    assert!(!gz_out.join("runs.csv").exists());
    assert!(summary.record.complete);
    for out in [plain_out, gz_out] {
        assert_eq!(report_of(&[out]), report_of(&[fixture("core")]));
    }
}

#[test]
fn disjoint_plain_ranges_merge() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let c = variant(&base, "core", "c", "start = \"0\"", "start = \"6\"");
    let m = merged_manifest(&base, &[fixture("core"), c]);
    assert_eq!((m.start.as_str(), m.n, m.shard), ("0", 12, None));
}

#[test]
fn never_overwrites_the_output() {
    let tmp = scratch();
    let base = tmp.path().to_path_buf();
    let out = base.join("merged");
    fs::create_dir_all(&out).unwrap();
    let err = merge(&[fixture("core-shard-1"), fixture("core-shard-2")], &out)
        .unwrap_err()
        .to_string();
    assert!(err.contains("already exists"), "{err}");
}
