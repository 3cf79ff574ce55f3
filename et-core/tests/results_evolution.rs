//! The committed evolution study (`results/evolution/`) is what `et report` says it is:
//! its tables and report are reproduced byte for byte from the committed rows, every
//! value its figures show is the tables' number for that solver and grammar, and every
//! cell of the correctness table in its README comes from those tables.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use et_core::report::figures::figures;
use et_core::report::timeouts::{parse_timeouts, Clock};
use et_core::report::{build_report, ReportOptions, RunDir};

/// The grammars of the study, in the order `scripts/evolution.sh` reports them.
const GRAMMARS: [&str; 8] = [
    "core",
    "ints",
    "reals",
    "realints",
    "bitvectors",
    "arrays",
    "strings",
    "fp",
];

/// The run directories, as `scripts/evolution.sh` names them from the study's folder.
fn runs() -> Vec<String> {
    GRAMMARS.iter().map(|g| format!("runs/{g}")).collect()
}

fn study() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../results/evolution")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The timeouts `scripts/evolution.sh` passes: up to the study's CPU-time limit.
fn timeouts() -> String {
    let run = read(&study().join("runs/core/run.toml"));
    let cpu: f64 = run
        .lines()
        .find_map(|l| l.strip_prefix("cpu_timeout_s = "))
        .expect("the study was run with --cpu-timeout")
        .parse()
        .unwrap();
    let mut list = String::from("1/64,1/32,1/16,1/8,1/4,1/2,1,2");
    for t in [4.0, 8.0] {
        if t <= cpu {
            list.push_str(&format!(",{t}"));
        }
    }
    list
}

/// `et report` on the committed rows with `clock`: stdout equals `report`, each CSV of
/// `--csv` equals the committed one in `tables`.
fn reproduces(clock: &str, report: &str, tables: &str) {
    let scratch = tempfile::tempdir().unwrap();
    let fresh = scratch.path().join("tables");
    let out = Command::new(env!("CARGO_BIN_EXE_et"))
        .current_dir(study())
        .arg("report")
        .args(runs())
        .args(["--clock", clock, "--timeouts", &timeouts(), "--csv"])
        .arg(&fresh)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        read(&study().join(report)),
        "{report} differs from `et report --clock {clock}` on the committed rows"
    );
    let committed = study().join(tables);
    let mut names: Vec<_> = fs::read_dir(&committed)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    for name in names {
        assert_eq!(
            read(&fresh.join(&name)),
            read(&committed.join(&name)),
            "{tables}/{name:?} differs from `et report --clock {clock} --csv`"
        );
    }
}

#[test]
fn et_report_reproduces_the_committed_tables() {
    reproduces("cpu", "report.txt", "tables");
    reproduces("wall", "report-wall.txt", "tables-wall");
}

#[test]
fn et_plot_draws_the_five_figures() {
    let scratch = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_et"))
        .current_dir(study())
        .arg("plot")
        .args(runs())
        .args(["--clock", "cpu", "--timeouts", &timeouts(), "--out"])
        .arg(scratch.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for figure in ["bugs", "findings", "solved", "time", "throughput"] {
        let name = format!("{figure}.svg");
        let fresh = read(&scratch.path().join(&name));
        assert!(fresh.starts_with("<svg"), "{name}");
        assert!(
            study().join("figures").join(&name).is_file(),
            "{name} committed"
        );
    }
}

/// The committed table `name` (pinned by [`et_report_reproduces_the_committed_tables`])
/// as (solver, grammar) → column → value.
fn table(name: &str) -> BTreeMap<(String, String), BTreeMap<String, String>> {
    let text = read(&study().join("tables").join(name));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            let row: BTreeMap<String, String> = header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect();
            ((row["solver"].clone(), row["grammar"].clone()), row)
        })
        .collect()
}

/// What the figures show, from the report `et plot` draws them from: every bar and
/// point is the committed tables' number for its solver and grammar (a change of how
/// they are drawn does not matter here; a wrong value does).
#[test]
fn the_figures_show_the_committed_tables() {
    let dirs: Vec<RunDir> = runs()
        .iter()
        .map(|r| RunDir::open(study().join(r)).unwrap())
        .collect();
    let options = ReportOptions {
        timeouts: parse_timeouts(&timeouts()).unwrap(),
        clock: Clock::Cpu,
        ..ReportOptions::default()
    };
    let report = build_report(&dirs, &options).unwrap();
    let figures = figures(&report);
    let names: Vec<&str> = figures.iter().map(|f| f.name).collect();
    assert_eq!(names, ["bugs", "findings", "solved", "time", "throughput"]);
    let (bugs, solved, time) = (table("bugs.csv"), table("solved.csv"), table("time.csv"));
    let performance = table("performance.csv");
    // The committed tables round: counts are exact, times to 3 and rates to 2 decimals.
    let number = |rows: &BTreeMap<(String, String), BTreeMap<String, String>>,
                  key: &(String, String),
                  column: &str| {
        let row = rows.get(key)?;
        let cell = row
            .get(column)
            .unwrap_or_else(|| panic!("no column {column}"));
        Some(cell.parse::<f64>().unwrap())
    };
    let mut grammars = GRAMMARS.map(String::from);
    grammars.sort();
    let mut bars = 0;
    for figure in &figures {
        assert_eq!(
            figure.rows, grammars,
            "{}: one row per grammar",
            figure.name
        );
        for panel in &figure.panels {
            let column = &figure.columns[panel.column];
            for series in &panel.series {
                assert_eq!(series.values.len(), column.categories.len());
                for (category, shown) in column.categories.iter().zip(&series.values) {
                    let solver = &report.solvers[category.solver].name;
                    let key = (solver.clone(), panel.grammar.clone());
                    let (expected, tolerance) = match figure.name {
                        "bugs" => {
                            let column = series.label.replace(' ', "_");
                            (number(&bugs, &key, &column), 0.0)
                        }
                        "findings" => match series.label.as_str() {
                            "validator false alarm" => {
                                (number(&bugs, &key, "validator_false_alarm"), 0.0)
                            }
                            verdict => (number(&performance, &key, verdict), 0.0),
                        },
                        "solved" => {
                            let within = series
                                .label
                                .strip_prefix("solved within ")
                                .and_then(|l| l.strip_suffix(" s"))
                                .expect("a solved-within label");
                            (number(&solved, &key, &format!("<={within}")), 0.0)
                        }
                        "time" => {
                            let joint = number(&time, &key, "joint");
                            let seconds = number(&time, &key, "joint_time_s");
                            (seconds.filter(|_| joint.unwrap_or(0.0) > 0.0), 5e-4)
                        }
                        "throughput" => (number(&time, &key, "solved_per_s"), 5e-3),
                        other => panic!("a figure the test does not know: {other}"),
                    };
                    match (shown, expected) {
                        (Some(shown), Some(expected)) => assert!(
                            (shown - expected).abs() <= tolerance + 1e-9,
                            "{}: {} on {}: drawn {shown}, table {expected} ({})",
                            figure.name,
                            solver,
                            panel.grammar,
                            series.label
                        ),
                        (None, None) => {}
                        _ => panic!(
                            "{}: {} on {}: drawn {shown:?}, table {expected:?} ({})",
                            figure.name, solver, panel.grammar, series.label
                        ),
                    }
                    bars += 1;
                }
            }
        }
    }
    assert!(bars > 1000, "only {bars} values checked");
}

#[test]
fn the_readme_correctness_table_comes_from_the_bug_table() {
    // unsound/invalid model/crash/validator false alarm per (release, grammar), from
    // tables/bugs.csv; the study's self-check triggers (its rows predate et's model check
    // in the campaign) split by model-recheck.csv: a model et found valid is a false
    // alarm of the solver's validator.
    let mut alarms: BTreeMap<(String, String), u64> = BTreeMap::new();
    for line in read(&study().join("model-recheck.csv")).lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[3] == "valid" {
            *alarms
                .entry((f[2].to_string(), f[0].to_string()))
                .or_default() += 1;
        }
    }
    let bugs = read(&study().join("tables/bugs.csv"));
    let header: Vec<&str> = bugs.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (solver, grammar) = (col("solver"), col("grammar"));
    let unsound = col("unsound");
    let invalid = col("invalid_model");
    let crash = col("crash");
    let false_alarm = col("validator_false_alarm");
    let mut expected: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for line in bugs.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let n = |i: usize| f[i].parse::<u64>().unwrap();
        let rechecked = alarms
            .get(&(f[solver].to_string(), f[grammar].to_string()))
            .copied()
            .unwrap_or(0);
        let cell = format!(
            "{}/{}/{}/{}",
            n(unsound),
            n(invalid) - rechecked,
            n(crash),
            n(false_alarm) + rechecked
        );
        if cell != "0/0/0/0" {
            expected
                .entry(f[solver].to_string())
                .or_default()
                .insert(f[grammar].to_string(), cell);
        }
    }
    assert!(
        !expected.is_empty(),
        "the study found no bug trigger at all?"
    );

    let readme = read(&study().join("README.md"));
    let mut lines = readme.lines().skip_while(|l| !l.starts_with("| release |"));
    let columns: Vec<String> = cells(lines.next().expect("README has the correctness table"));
    assert_eq!(columns[1..], GRAMMARS.map(String::from));
    let mut found: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let row = cells(line);
        let entry = found.entry(row[0].clone()).or_default();
        for (g, cell) in GRAMMARS.iter().zip(&row[1..]) {
            if cell != "·" {
                entry.insert(g.to_string(), cell.clone());
            }
        }
    }
    assert_eq!(found, expected);
}

fn cells(line: &str) -> Vec<String> {
    line.trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn the_readme_model_check_table_comes_from_model_recheck_csv() {
    // (release, grammar) -> [triggers, valid, invalid, undetermined]
    let csv = read(&study().join("model-recheck.csv"));
    let mut expected: BTreeMap<(String, String), [u64; 4]> = BTreeMap::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let counts = expected
            .entry((f[2].to_string(), f[0].to_string()))
            .or_default();
        counts[0] += 1;
        match f[3] {
            "valid" => counts[1] += 1,
            "invalid" => counts[2] += 1,
            "undetermined" => counts[3] += 1,
            other => panic!("model-recheck.csv: {other:?} in {line}"),
        }
    }
    assert!(!expected.is_empty());
    let readme = read(&study().join("README.md"));
    let lines = readme
        .lines()
        .skip_while(|l| !l.starts_with("| release | grammar | triggers |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    let mut found = BTreeMap::new();
    for line in lines {
        let row = cells(line);
        let n = |i: usize| row[i].parse::<u64>().unwrap();
        found.insert((row[0].clone(), row[1].clone()), [n(2), n(3), n(4), n(5)]);
    }
    assert_eq!(found, expected);
}
