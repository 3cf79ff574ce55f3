//! `et report`, `et plot`, `et merge` as a user runs them: refusals exit 2 naming the
//! offending directory or value and write nothing; no number flag can panic;
//! incomplete inputs are reported on stderr.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn et(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_et"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit code 2, nothing on stdout, no panic; returns stderr.
fn refused(args: &[&str]) -> String {
    let o = et(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", text(&o.stdout));
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_same_directory_twice_is_refused_by_report_and_plot() {
    let core = fixture("core");
    let err = refused(&["report", path(&core), path(&core)]);
    assert!(
        err.contains(path(&core)) && err.contains("count twice"),
        "{err}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("plots");
    let err = refused(&["plot", path(&core), path(&core), "--out", path(&out)]);
    assert!(err.contains("count twice"), "{err}");
    assert!(!out.exists(), "a refused plot wrote {}", out.display());
}

#[test]
fn overlapping_shards_are_refused_by_report() {
    let (whole, shard) = (fixture("core"), fixture("core-shard-1"));
    let err = refused(&["report", path(&whole), path(&shard)]);
    assert!(
        err.contains(path(&whole)) && err.contains(path(&shard)),
        "{err}"
    );
}

#[test]
fn a_missing_directory_is_bad_input() {
    let err = refused(&["report", "/nonexistent/et-run"]);
    assert!(
        err.contains("/nonexistent/et-run: not a run directory"),
        "{err}"
    );
    refused(&["plot", "/nonexistent/et-run"]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("m");
    refused(&["merge", "/nonexistent/et-run", "--out", path(&out)]);
}

#[test]
fn number_flags_are_parsed_never_panic() {
    let core = fixture("core");
    let core = path(&core);
    for (args, value) in [
        (vec!["report", core, "--timeouts", "nan"], "nan"),
        (vec!["report", core, "--timeouts", "0"], "0"),
        (vec!["report", core, "--timeouts=-1"], "-1"),
        (vec!["report", core, "--timeouts", "1/0"], "1/0"),
        (vec!["report", core, "--timeouts", "1e999"], "1e999"),
        (vec!["report", core, "--timeouts", ","], ","),
        (vec!["report", core, "--window", "0"], "0"),
        (vec!["report", core, "--window=-3"], "-3"),
        (vec!["report", core, "--window", "1e3"], "1e3"),
        (vec!["report", core, "--clock", "sundial"], "sundial"),
        (vec!["plot", core, "--width", "0"], "0"),
        (vec!["plot", core, "--width", "99999999999"], "99999999999"),
        (vec!["plot", core, "--height=-1"], "-1"),
        (vec!["plot", core, "--height", "nan"], "nan"),
        (vec!["plot", core, "--timeouts", "inf"], "inf"),
    ] {
        let err = refused(&args);
        assert!(err.contains(value), "{args:?}: {err}");
    }
}

#[test]
fn plot_takes_width_and_height() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("plots");
    let ints = fixture("ints");
    let o = et(&[
        "plot",
        path(&ints),
        "--out",
        path(&out),
        "--width",
        "900",
        "--height",
        "700",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let svg = fs::read_to_string(out.join("solved.svg")).unwrap();
    assert!(
        svg.contains("width=\"900\"") && svg.contains("height=\"700\""),
        "{}",
        &svg[..200]
    );
    // Too low for its panels: refused with the height needed, nothing written.
    let out = tmp.path().join("low");
    let err = refused(&["plot", path(&ints), "--out", path(&out), "--height", "200"]);
    assert!(
        err.contains("--height 200") && err.contains("at least"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn report_reads_compressed_rows_and_the_cpu_clock() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ints");
    fs::create_dir_all(&dir).unwrap();
    fs::copy(fixture("ints").join("run.toml"), dir.join("run.toml")).unwrap();
    let rows = fs::read(fixture("ints").join("runs.csv")).unwrap();
    let file = fs::File::create(dir.join("runs.csv.gz")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &rows).unwrap();
    gz.finish().unwrap();
    let o = et(&["report", path(&dir), "--clock", "cpu"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("within T seconds of CPU time"), "{out}");
    assert!(out.contains("setup_error"), "{out}");
}

/// A copy of the core-shard-2 fixture killed while writing its fifth row.
fn killed_shard(base: &Path) -> PathBuf {
    let dir = base.join("core-shard-2-killed");
    fs::create_dir_all(&dir).unwrap();
    fs::copy(
        fixture("core-shard-2").join("run.toml"),
        dir.join("run.toml"),
    )
    .unwrap();
    let rows = fs::read_to_string(fixture("core-shard-2").join("runs.csv")).unwrap();
    let mut kept: Vec<&str> = rows.lines().take(6).collect();
    kept[5] = &kept[5][..12];
    fs::write(dir.join("runs.csv"), kept.join("\n")).unwrap();
    dir
}

#[test]
fn incomplete_inputs_are_said_by_report_and_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let killed = killed_shard(tmp.path());
    let o = et(&["report", path(&killed)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("incomplete input"), "{err}");
    assert!(
        err.contains("4 of 9 calls") && err.contains("torn last line"),
        "{err}"
    );
    assert!(text(&o.stdout).contains("INCOMPLETE"));

    let out = tmp.path().join("merged");
    let shard_1 = fixture("core-shard-1");
    let o = et(&["merge", path(&shard_1), path(&killed), "--out", path(&out)]);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("9 of 9 calls (3 formulas [0, 6) shard 1/2), complete"),
        "{err}"
    );
    assert!(
        err.contains("4 of 9 calls") && err.contains("INCOMPLETE"),
        "{err}"
    );
    assert!(err.contains("holds 13 of the 18 calls"), "{err}");
    assert!(out.join("merge.toml").is_file());
}

#[test]
fn merging_two_grammars_names_the_grammar() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("strings-as-shard");
    fs::create_dir_all(&dir).unwrap();
    // The strings study, claiming the same shard as core-shard-1.
    let toml = fs::read_to_string(fixture("core-shard-1").join("run.toml")).unwrap();
    fs::write(
        dir.join("run.toml"),
        toml.replace("grammar = \"core\"", "grammar = \"strings\""),
    )
    .unwrap();
    fs::copy(fixture("strings").join("runs.csv"), dir.join("runs.csv")).unwrap();
    let out = tmp.path().join("merged");
    let shard = fixture("core-shard-1");
    let err = refused(&["merge", path(&shard), path(&dir), "--out", path(&out)]);
    assert!(err.contains("grammar differs (core vs strings)"), "{err}");
    assert!(!out.exists());
}

/// `fixture(name)` copied into `base`, with its files changed by `edit`.
fn copy_of(base: &Path, name: &str, edit: impl Fn(&Path)) -> PathBuf {
    let dir = base.join(name);
    fs::create_dir_all(&dir).unwrap();
    for f in ["run.toml", "runs.csv"] {
        fs::copy(fixture(name).join(f), dir.join(f)).unwrap();
    }
    edit(&dir);
    dir
}

#[test]
fn a_binary_call_log_is_bad_input_for_merge_as_for_report() {
    let tmp = tempfile::tempdir().unwrap();
    let binary = copy_of(tmp.path(), "core", |dir| {
        let bytes: Vec<u8> = (0..3000u32)
            .map(|i| (i * 7919 % 251) as u8 | 0x80)
            .collect();
        fs::write(dir.join("runs.csv"), bytes).unwrap();
    });
    refused(&["report", path(&binary)]);
    let out = tmp.path().join("merged");
    let err = refused(&["merge", path(&binary), "--out", path(&out)]);
    assert!(err.contains("runs.csv"), "{err}");
    assert!(!out.exists());
}

#[test]
fn an_unknown_grammar_in_run_toml_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let edited = copy_of(tmp.path(), "core", |dir| {
        let toml = fs::read_to_string(dir.join("run.toml")).unwrap();
        let toml = toml.replace("grammar = \"core\"", "grammar = \"cor\"");
        assert!(toml.contains("\"cor\""));
        fs::write(dir.join("run.toml"), toml).unwrap();
    });
    let o = et(&["report", path(&edited)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("et: warning:") && err.contains("grammar `cor` is unknown"),
        "{err}"
    );
    // The built-in name is not warned about.
    let o = et(&["report", path(&fixture("core"))]);
    assert!(!text(&o.stderr).contains("unknown"), "{}", text(&o.stderr));
}
