//! `et report` on the hand-written fixtures (tests/fixtures/report): every table, every
//! timeout bucket, checked against numbers worked out by hand from the CSV.
//!
//! `core` and `strings` are runs.csv files written before the `evidence`,
//! `model_check` and `reference_usable` columns existed; `ints` has them, a
//! `setup_error` call, a timeout of 2 s and CPU times that differ from wall times.

mod common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use et_core::report::stats::ReportOptions;
use et_core::report::tables::{tables, Table};
use et_core::report::timeouts::{parse_timeouts, Clock};
use et_core::report::{build_report, ReportError, RunDir};

use common::copy_dir;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn open(dirs: &[PathBuf]) -> Vec<RunDir> {
    dirs.iter().map(|d| RunDir::open(d).unwrap()).collect()
}

fn report_tables(dirs: &[&str], options: &ReportOptions) -> Vec<Table> {
    let dirs: Vec<PathBuf> = dirs.iter().map(|d| fixture(d)).collect();
    tables(&build_report(&open(&dirs), options).unwrap())
}

fn rows(table: &Table) -> Vec<String> {
    let mut out = vec![table.header.join(",")];
    out.extend(table.rows.iter().map(|r| r.join(",")));
    out
}

fn table<'a>(tables: &'a [Table], name: &str) -> &'a Table {
    tables.iter().find(|t| t.name == name).unwrap()
}

#[test]
fn bug_triggers_per_solver_grammar_verdict_and_evidence() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    assert_eq!(
        rows(table(&t, "bugs")),
        vec![
            "solver,grammar,calls,unsound,invalid_model,crash,total,by_reference,by_witness,by_model,by_self-check,validator_false_alarm",
            // versions in release order (4.8.9 before 4.8.10), z3 first as in the pool;
            // no evidence column: unsound is the reference's, invalid_model the self-check's
            "z3-4.8.9,core,6,0,0,1,1,0,0,0,0,0",
            "z3-4.8.9,strings,3,1,0,0,1,1,0,0,0,0",
            "z3-4.8.10,core,6,1,1,0,2,1,0,0,1,0",
            "z3-4.8.10,strings,3,0,0,0,0,0,0,0,0,0",
            "cvc5-1.0.0,core,6,0,0,0,0,0,0,0,0,0",
            "cvc5-1.0.0,strings,3,0,0,1,1,0,0,0,0,0",
        ]
    );
    assert_eq!(
        rows(table(&t, "performance")),
        vec![
            "solver,grammar,calls,timeout,unknown,total",
            "z3-4.8.9,core,6,0,0,0",
            "z3-4.8.9,strings,3,1,0,1",
            "z3-4.8.10,core,6,1,0,1",
            "z3-4.8.10,strings,3,0,0,0",
            "cvc5-1.0.0,core,6,0,1,1",
            "cvc5-1.0.0,strings,3,0,0,0",
        ]
    );
}

#[test]
fn the_evidence_column_is_counted_when_present() {
    let t = report_tables(&["ints"], &ReportOptions::default());
    assert_eq!(
        rows(table(&t, "bugs")),
        vec![
            "solver,grammar,calls,unsound,invalid_model,crash,total,by_reference,by_witness,by_model,by_self-check,validator_false_alarm",
            // formula 1 unsound by a witness, 0 invalid by et's model check; 3 failed the
            // solver's own check on a model et found valid: a validator false alarm,
            // counted apart from the total
            "z3-4.8.5,ints,4,1,1,0,2,0,1,1,0,1",
            "z3-4.8.7,ints,4,0,0,0,0,0,0,0,0,0",
            "cvc5-1.4.2,ints,4,1,0,0,1,1,0,0,0,0",
        ]
    );
}

#[test]
fn every_status_is_counted_rejected_and_setup_error_included() {
    let t = report_tables(&["core", "ints"], &ReportOptions::default());
    let statuses = table(&t, "statuses");
    assert_eq!(
        rows(statuses),
        vec![
            "solver,grammar,calls,sat,unsat,unknown,timeout,memout,crash,rejected,setup_error,killed,starved",
            "z3-4.8.5,ints,4,3,1,0,0,0,0,0,0,0,0",
            "z3-4.8.7,ints,4,2,0,0,1,0,0,0,1,0,0",
            "z3-4.8.9,core,6,3,1,0,0,0,1,1,0,0,0",
            "z3-4.8.10,core,6,3,2,0,1,0,0,0,0,0,0",
            "cvc5-1.0.0,core,6,3,2,1,0,0,0,0,0,0,0",
            "cvc5-1.4.2,ints,4,2,1,0,0,0,0,1,0,0,0",
        ]
    );
    assert!(
        statuses
            .notes
            .iter()
            .any(|n| n.contains("setup_error: 1 calls")),
        "{:?}",
        statuses.notes
    );
}

#[test]
fn solved_excludes_bug_verdicts_at_every_default_timeout() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    let solved = table(&t, "solved");
    assert!(
        solved.title.contains("without a bug verdict"),
        "{}",
        solved.title
    );
    assert_eq!(
        rows(solved),
        vec![
            "solver,grammar,calls,clock,<=1/64,<=1/32,<=1/16,<=1/8,<=1/4,<=1/2,<=1,<=2,<=4,<=8",
            // 0.015625 s is exactly 1/64 and counts as solved within 1/64
            "z3-4.8.9,core,6,wall,2,2,2,3,3,4,4,4,4,4",
            // strings 2 is an unsound unsat: decided, not solved
            "z3-4.8.9,strings,3,wall,0,0,0,0,1,1,1,1,1,1",
            // core 2 (unsound) and 4 (invalid model) are not solved
            "z3-4.8.10,core,6,wall,0,1,1,1,1,1,1,1,2,3",
            "z3-4.8.10,strings,3,wall,0,0,0,2,2,2,3,3,3,3",
            "cvc5-1.0.0,core,6,wall,1,1,2,2,2,3,3,5,5,5",
            "cvc5-1.0.0,strings,3,wall,0,0,0,0,0,0,2,2,2,2",
        ]
    );
}

#[test]
fn timeouts_above_the_run_are_not_measured() {
    // ints ran at 2 s: the 4 s and 8 s columns say `-`, not a repeat of the 2 s count.
    let t = report_tables(&["ints"], &ReportOptions::default());
    let solved = table(&t, "solved");
    assert_eq!(
        rows(solved)[1..],
        [
            // formula 3's validator false alarm is a right answer: solved
            "z3-4.8.5,ints,4,wall,1,1,1,1,2,2,2,2,-,-",
            "z3-4.8.7,ints,4,wall,0,1,1,2,2,2,2,2,-,-",
            "cvc5-1.4.2,ints,4,wall,0,0,0,0,0,2,2,2,-,-",
        ]
    );
    assert!(solved.notes[0].contains("above the run's timeout"));
}

#[test]
fn the_cpu_clock_reads_cpu_seconds() {
    let options = ReportOptions {
        clock: Clock::Cpu,
        ..ReportOptions::default()
    };
    let t = report_tables(&["ints"], &options);
    let solved = table(&t, "solved");
    assert!(solved.title.contains("CPU time"), "{}", solved.title);
    assert_eq!(
        rows(solved)[1..],
        [
            "z3-4.8.5,ints,4,cpu,1,1,1,2,2,2,2,2,-,-",
            // cpu 0.01 and 0.05 s where the wall clock said 0.03 and 0.1 s
            "z3-4.8.7,ints,4,cpu,1,1,2,2,2,2,2,2,-,-",
            "cvc5-1.4.2,ints,4,cpu,0,0,0,0,2,2,2,2,-,-",
        ]
    );
    assert_eq!(
        rows(table(&t, "time"))[1..],
        [
            // formula 3, solved by both z3 releases now that its self-check failure is
            // a validator false alarm, is their jointly solved formula
            "z3-4.8.5,ints,4,2,cpu,0.140,14.29,1,0.100",
            "z3-4.8.7,ints,4,2,cpu,1.960,1.02,1,0.050",
            "cvc5-1.4.2,ints,4,2,cpu,0.470,4.26,2,0.450",
        ]
    );
}

#[test]
fn custom_timeouts_accept_fractions_and_decimals() {
    let options = ReportOptions {
        timeouts: parse_timeouts("0.05,1/2,3").unwrap(),
        ..ReportOptions::default()
    };
    let t = report_tables(&["core"], &options);
    assert_eq!(
        rows(table(&t, "solved")),
        vec![
            "solver,grammar,calls,clock,<=0.05,<=1/2,<=3",
            "z3-4.8.9,core,6,wall,2,4,4",
            "z3-4.8.10,core,6,wall,1,1,2",
            "cvc5-1.0.0,core,6,wall,1,3,5",
        ]
    );
}

#[test]
fn time_throughput_and_jointly_solved() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    let time = table(&t, "time");
    assert!(time.title.contains("wall-clock"), "{}", time.title);
    assert_eq!(
        rows(time),
        vec![
            "solver,grammar,calls,solved,clock,time_s,solved_per_s,joint,joint_time_s",
            // z3 joint on core: only formula 0 (4.8.10 timed out on 1, was unsound on 2
            // and gave an invalid model on 4; 4.8.9 crashed on 3 and rejected 5)
            "z3-4.8.9,core,6,4,wall,0.827,4.84,1,0.010",
            "z3-4.8.9,strings,3,1,wall,8.450,0.12,1,0.200",
            "z3-4.8.10,core,6,3,wall,17.090,0.18,1,0.020",
            "z3-4.8.10,strings,3,3,wall,1.225,2.45,1,0.100",
            // a family of one: jointly solved = its own solved formulas
            "cvc5-1.0.0,core,6,5,wall,4.565,1.10,5,3.865",
            "cvc5-1.0.0,strings,3,2,wall,1.650,1.21,2,1.600",
        ]
    );
}

#[test]
fn regressions_between_consecutive_versions() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    let regressions = table(&t, "regressions");
    assert!(regressions.title.contains("without a bug verdict"));
    assert_eq!(
        rows(regressions),
        vec![
            "grammar,from,to,lost_solved,lost_solved_examples,lost_correct,lost_correct_examples",
            // core 1: 4.8.9 unsat, 4.8.10 timeout; core 2 and 4: 4.8.10 unsound / invalid
            // model (lost, and lost correctness)
            "core,z3-4.8.9,z3-4.8.10,3,1 2 4,2,2 4",
            "strings,z3-4.8.9,z3-4.8.10,0,,0,",
        ]
    );
}

#[test]
fn an_invalid_model_or_a_setup_error_is_no_regression() {
    // ints: 4.8.5's invalid model on 0 and 3 is not a solved formula the next version
    // lost; 4.8.7 could not start on 2, which says nothing about the release.
    let t = report_tables(&["ints"], &ReportOptions::default());
    assert_eq!(
        rows(table(&t, "regressions"))[1..],
        ["ints,z3-4.8.5,z3-4.8.7,0,,0,"]
    );
}

#[test]
fn spilling_join_gives_the_same_tables() {
    // A window of one formula forces nearly every formula through the spill files.
    let small = ReportOptions {
        window: 1,
        ..ReportOptions::default()
    };
    let dirs = open(&[fixture("core"), fixture("strings"), fixture("ints")]);
    let spilled = build_report(&dirs, &small).unwrap();
    assert!(spilled.join.spilled_rows > 0);
    let in_memory = build_report(&dirs, &ReportOptions::default()).unwrap();
    assert_eq!(in_memory.join.spilled_rows, 0);
    assert_eq!(tables(&spilled), tables(&in_memory));
}

/// Writes `DIR/runs.csv.gz` from a fixture's runs.csv (and copies its run.toml).
fn gzipped_copy(name: &str, to: &Path) {
    fs::create_dir_all(to).unwrap();
    fs::copy(fixture(name).join("run.toml"), to.join("run.toml")).unwrap();
    let plain = fs::read(fixture(name).join("runs.csv")).unwrap();
    let file = fs::File::create(to.join("runs.csv.gz")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    gz.write_all(&plain).unwrap();
    gz.finish().unwrap();
}

#[test]
fn bad_rows_name_file_line_and_value() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    std::fs::copy(fixture("core/run.toml"), dir.join("run.toml")).unwrap();
    let csv = std::fs::read_to_string(fixture("core/runs.csv")).unwrap();
    let csv = csv.replacen(",unknown,unknown,", ",unknwn,unknown,", 1);
    std::fs::write(dir.join("runs.csv"), csv).unwrap();
    let err = build_report(&[RunDir::open(dir).unwrap()], &ReportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("runs.csv:13:"), "{err}");
    assert!(err.contains("`unknwn`"), "{err}");
}

#[test]
fn compressed_rows_read_like_plain_ones() {
    let tmp = tempfile::tempdir().unwrap();
    gzipped_copy("core", &tmp.path().join("core"));
    let gz = open(&[tmp.path().join("core")]);
    assert!(gz[0].runs.ends_with("runs.csv.gz"));
    let options = ReportOptions::default();
    assert_eq!(
        tables(&build_report(&gz, &options).unwrap())[..6],
        tables(&build_report(&open(&[fixture("core")]), &options).unwrap())[..6]
    );
}

#[test]
fn plain_and_compressed_rows_together_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("core");
    gzipped_copy("core", &dir);
    fs::copy(fixture("core").join("runs.csv"), dir.join("runs.csv")).unwrap();
    let err = RunDir::open(&dir).unwrap_err();
    assert!(matches!(err, ReportError::AmbiguousRows { .. }), "{err}");
    assert!(
        err.to_string().contains("runs.csv and runs.csv.gz"),
        "{err}"
    );
    assert!(err.is_bad_input());
}

#[test]
fn paths_that_are_not_run_directories_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    for (path, reason) in [
        (tmp.path().join("missing"), "no such directory"),
        (tmp.path().to_path_buf(), "no run.toml"),
    ] {
        let err = RunDir::open(&path).unwrap_err();
        assert!(err.to_string().contains(reason), "{err}");
        assert!(
            err.to_string().contains(&path.display().to_string()),
            "{err}"
        );
        assert!(err.is_bad_input());
    }
    fs::copy(
        fixture("core").join("run.toml"),
        tmp.path().join("run.toml"),
    )
    .unwrap();
    let err = RunDir::open(tmp.path()).unwrap_err();
    assert!(
        err.to_string().contains("no runs.csv or runs.csv.gz"),
        "{err}"
    );
}

#[test]
fn a_bad_evidence_label_names_file_line_and_value() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("ints");
    copy_dir(&fixture("ints"), &dir);
    let text = fs::read_to_string(dir.join("runs.csv")).unwrap();
    fs::write(
        dir.join("runs.csv"),
        text.replacen(",witness,", ",hunch,", 1),
    )
    .unwrap();
    let err = build_report(&open(&[dir]), &ReportOptions::default()).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("runs.csv:5: column `evidence`: bad value `hunch`"),
        "{msg}"
    );
    assert!(err.is_bad_input());
}

#[test]
fn the_same_directory_twice_is_refused() {
    let dirs = open(&[fixture("core"), fixture("core")]);
    let err = build_report(&dirs, &ReportOptions::default()).unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("cannot report"), "{msg}");
    assert!(msg.contains("would count twice"), "{msg}");
    assert!(err.is_bad_input());
}

#[test]
fn overlapping_directories_of_one_grammar_are_refused() {
    // The whole core study and one of its shards share formulas and solvers.
    let dirs = open(&[fixture("core"), fixture("core-shard-2")]);
    let err = build_report(&dirs, &ReportOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("core-shard-2"), "{err}");
    assert!(err.contains("([0, 6) and [0, 6) shard 2/2)"), "{err}");
    // Two shards of it do not overlap, and other grammars never do.
    let dirs = open(&[
        fixture("core-shard-1"),
        fixture("core-shard-2"),
        fixture("strings"),
    ]);
    build_report(&dirs, &ReportOptions::default()).unwrap();
}

#[test]
fn the_same_formulas_run_by_other_solvers_complement_each_other() {
    // A cvc5-only study of the formulas of a z3 study: nothing counts twice.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("core-other-pool");
    copy_dir(&fixture("core"), &dir);
    let toml = fs::read_to_string(dir.join("run.toml")).unwrap();
    let renamed = toml
        .replace("z3-4.8", "z3-other-4.8")
        .replace("cvc5-1.0.0", "cvc5-other-1.0.0");
    fs::write(dir.join("run.toml"), renamed).unwrap();
    let csv = fs::read_to_string(dir.join("runs.csv")).unwrap();
    let renamed = csv
        .replace("z3-4.8", "z3-other-4.8")
        .replace("cvc5-1.0.0", "cvc5-other-1.0.0");
    fs::write(dir.join("runs.csv"), renamed).unwrap();
    build_report(&open(&[fixture("core"), dir]), &ReportOptions::default()).unwrap();
}

#[test]
fn inputs_say_how_complete_each_directory_is() {
    let tmp = tempfile::tempdir().unwrap();
    let killed = tmp.path().join("core-killed");
    copy_dir(&fixture("core"), &killed);
    // Keep the header and the first 10 rows: formulas 0 and 1 have all three calls.
    let text = fs::read_to_string(killed.join("runs.csv")).unwrap();
    let kept: Vec<&str> = text.lines().take(11).collect();
    fs::write(killed.join("runs.csv"), kept.join("\n") + "\n").unwrap();
    let report = build_report(
        &open(&[killed.clone(), fixture("strings")]),
        &ReportOptions::default(),
    )
    .unwrap();
    let inputs = table(&tables(&report), "inputs").clone();
    assert_eq!(
        inputs.header.join(","),
        "dir,grammar,range,solvers,timeout_s,formulas,complete,calls,expected_calls,outside,status"
    );
    assert_eq!(
        inputs.rows[0][1..].join(","),
        "core,[0, 6),3,8,6,2,10,18,0,INCOMPLETE"
    );
    assert_eq!(
        inputs.rows[1][1..].join(","),
        "strings,[0, 3),3,8,3,3,9,9,0,complete"
    );
    assert!(!report.inputs[0].is_complete());
    let said = report.inputs[0].describe();
    assert!(said.contains("2 of 6 formulas complete"), "{said}");
    assert!(said.contains("10 of 18 calls"), "{said}");
}

#[test]
fn shards_claim_their_share_of_the_range() {
    let report = build_report(
        &open(&[fixture("core-shard-1"), fixture("core-shard-2")]),
        &ReportOptions::default(),
    )
    .unwrap();
    for input in &report.inputs {
        assert_eq!((input.formulas, input.expected_calls), (3, 9), "{input:?}");
        assert!(input.is_complete(), "{input:?}");
    }
}

#[test]
fn rows_outside_the_claimed_range_are_counted() {
    // A run.toml claiming [4, 10) next to the rows of [0, 6).
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("core");
    copy_dir(&fixture("core"), &dir);
    let toml = fs::read_to_string(dir.join("run.toml")).unwrap();
    fs::write(
        dir.join("run.toml"),
        toml.replace("start = \"0\"", "start = \"4\""),
    )
    .unwrap();
    let report = build_report(&open(&[dir]), &ReportOptions::default()).unwrap();
    let input = &report.inputs[0];
    // Formulas 0-3 are outside (12 rows); 4 and 5 are complete.
    assert_eq!((input.outside, input.complete, input.calls), (12, 2, 18));
    assert!(!input.is_complete());
    assert!(input.describe().contains("12 rows outside its range"));
}

#[test]
fn manifests_no_run_writes_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    for (from, to, said) in [
        ("timeout_s = 8.0", "timeout_s = nan", "`timeout_s` = `NaN`"),
        ("timeout_s = 8.0", "timeout_s = -1.0", "`timeout_s` = `-1`"),
        ("start = \"0\"", "start = \"-5\"", "`start` = `-5`"),
        ("n = 6", "n = 6\nshard = \"4/3\"", "`shard` = `4/3`"),
    ] {
        let dir = tmp.path().join("core");
        let _ = fs::remove_dir_all(&dir);
        copy_dir(&fixture("core"), &dir);
        let toml = fs::read_to_string(dir.join("run.toml")).unwrap();
        fs::write(dir.join("run.toml"), toml.replacen(from, to, 1)).unwrap();
        let err = RunDir::open(&dir).unwrap_err();
        assert!(err.to_string().contains(said), "{err}");
        assert!(err.to_string().contains("run.toml"), "{err}");
        assert!(err.is_bad_input());
    }
    // A pool without solvers.
    let dir = tmp.path().join("empty-pool");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("run.toml"),
        "et_version = \"0.1.0\"\ngrammar = \"core\"\nstart = \"0\"\nn = 3\ntimeout_s = 8.0\nsolvers = []\n",
    )
    .unwrap();
    fs::copy(fixture("core").join("runs.csv"), dir.join("runs.csv")).unwrap();
    let err = RunDir::open(&dir).unwrap_err().to_string();
    assert!(err.contains("`solvers` = `[]`"), "{err}");
}
