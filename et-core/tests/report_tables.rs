//! `et report` on the hand-written fixture (tests/fixtures/report): every table, every
//! timeout bucket, checked against numbers worked out by hand from the CSV.

use std::path::PathBuf;

use et_core::report::stats::ReportOptions;
use et_core::report::tables::{tables, Table};
use et_core::report::timeouts::parse_timeouts;
use et_core::report::{build_report, RunDir};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/report")
        .join(name)
}

fn report_tables(dirs: &[&str], options: &ReportOptions) -> Vec<Table> {
    let dirs: Vec<RunDir> = dirs
        .iter()
        .map(|d| RunDir::open(fixture(d)).unwrap())
        .collect();
    tables(&build_report(&dirs, options).unwrap())
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
fn bug_triggers_per_solver_grammar_verdict() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    assert_eq!(
        rows(table(&t, "bugs")),
        vec![
            "solver,grammar,calls,unsound,invalid_model,crash,total",
            // versions in release order (4.8.9 before 4.8.10), z3 first as in the pool
            "z3-4.8.9,core,6,0,0,1,1",
            "z3-4.8.9,strings,3,1,0,0,1",
            "z3-4.8.10,core,6,1,1,0,2",
            "z3-4.8.10,strings,3,0,0,0,0",
            "cvc5-1.0.0,core,6,0,0,0,0",
            "cvc5-1.0.0,strings,3,0,0,1,1",
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
fn solved_within_every_default_timeout() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    assert_eq!(
        rows(table(&t, "solved")),
        vec![
            "solver,grammar,calls,<=1/64,<=1/32,<=1/16,<=1/8,<=1/4,<=1/2,<=1,<=2,<=4,<=8",
            // 0.015625 s is exactly 1/64 and counts as solved within 1/64
            "z3-4.8.9,core,6,2,2,2,3,3,4,4,4,4,4",
            "z3-4.8.9,strings,3,0,0,0,0,2,2,2,2,2,2",
            "z3-4.8.10,core,6,0,2,3,3,3,3,3,3,4,5",
            "z3-4.8.10,strings,3,0,0,0,2,2,2,3,3,3,3",
            "cvc5-1.0.0,core,6,1,1,2,2,2,3,3,5,5,5",
            "cvc5-1.0.0,strings,3,0,0,0,0,0,0,2,2,2,2",
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
            "solver,grammar,calls,<=0.05,<=1/2,<=3",
            "z3-4.8.9,core,6,2,4,4",
            "z3-4.8.10,core,6,3,3,4",
            "cvc5-1.0.0,core,6,1,3,5",
        ]
    );
}

#[test]
fn time_throughput_and_jointly_solved() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    assert_eq!(
        rows(table(&t, "time")),
        vec![
            "solver,grammar,calls,decided,time_s,decided_per_s,joint,joint_time_s",
            // z3 joint on core: formulas 0, 2, 4 (4.8.10 timed out on 1, 4.8.9 crashed on 3)
            "z3-4.8.9,core,6,4,0.827,4.84,3,0.526",
            "z3-4.8.9,strings,3,2,8.450,0.24,2,0.450",
            "z3-4.8.10,core,6,5,17.090,0.29,3,0.090",
            "z3-4.8.10,strings,3,3,1.225,2.45,2,0.225",
            // a family of one: jointly solved = its own decided formulas
            "cvc5-1.0.0,core,6,5,4.565,1.10,5,3.865",
            "cvc5-1.0.0,strings,3,2,1.650,1.21,2,1.600",
        ]
    );
}

#[test]
fn regressions_between_consecutive_versions() {
    let t = report_tables(&["core", "strings"], &ReportOptions::default());
    assert_eq!(
        rows(table(&t, "regressions")),
        vec![
            "grammar,from,to,lost_solved,lost_solved_examples,lost_correct,lost_correct_examples",
            // core 1: 4.8.9 unsat, 4.8.10 timeout; core 2 and 4: 4.8.10 unsound / invalid model
            "core,z3-4.8.9,z3-4.8.10,1,1,2,2 4",
            "strings,z3-4.8.9,z3-4.8.10,0,,0,",
        ]
    );
}

#[test]
fn spilling_join_gives_the_same_tables() {
    // A window of one formula forces nearly every formula through the spill files.
    let small = ReportOptions {
        window: 1,
        ..ReportOptions::default()
    };
    let dirs: Vec<RunDir> = ["core", "strings"]
        .iter()
        .map(|d| RunDir::open(fixture(d)).unwrap())
        .collect();
    let spilled = build_report(&dirs, &small).unwrap();
    assert!(spilled.join.spilled_rows > 0);
    let in_memory = build_report(&dirs, &ReportOptions::default()).unwrap();
    assert_eq!(in_memory.join.spilled_rows, 0);
    assert_eq!(tables(&spilled), tables(&in_memory));
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
