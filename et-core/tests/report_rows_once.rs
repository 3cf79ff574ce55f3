//! Each call counted once: a `runs.csv` holding a call twice (ten of its rows appended
//! to it again) and rows of a solver its `run.toml` does not name. `et report`, `et
//! merge`, `et triage` and `et run --resume` keep the first row of each call, leave
//! the others out, and say so on stderr with their count; exit codes are unchanged.

mod common;

use std::io::Write;

use common::{csv_maps, show, solver, stderr, Scratch};

#[test]
fn duplicated_rows_and_strangers_are_counted_once_and_said() {
    let s = Scratch::new();
    let solvers = [solver("z3-4.16.0"), solver("cvc5-1.4.2")];
    let dir = s.campaign("core", "25", &solvers, "run", &["--timeout", "30", "-q"]);
    let runs = dir.join("runs.csv");
    let text = std::fs::read_to_string(&runs).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 51, "a header and 50 calls");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&runs)
        .unwrap();
    for line in &lines[1..11] {
        writeln!(file, "{line}").unwrap();
    }
    // Three rows of a solver the run does not name.
    for line in &lines[1..4] {
        let mut cells: Vec<&str> = line.split(',').collect();
        cells[3] = "z3-9.9.9"; // the `solver` column
        writeln!(file, "{}", cells.join(",")).unwrap();
    }
    drop(file);
    let said = |o: &std::process::Output| {
        let err = stderr(o);
        assert!(
            err.contains("et: warning:") && err.contains("10 duplicated rows"),
            "{}",
            show(o)
        );
        assert!(
            err.contains("3 rows of solvers its run.toml does not name"),
            "{}",
            show(o)
        );
    };

    let tables = s.join("tables");
    let o = s.run(&[
        "report",
        dir.to_str().unwrap(),
        "--csv",
        tables.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    said(&o);
    let statuses = csv_maps(&tables.join("statuses.csv"));
    assert_eq!(statuses.len(), 2, "{statuses:?}");
    assert!(statuses.iter().all(|r| r["calls"] == "25"), "{statuses:?}");

    let o = s.run(&[
        "triage",
        dir.to_str().unwrap(),
        "--out",
        s.join("triage").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    said(&o);

    let merged = s.join("merged");
    let o = s.run(&[
        "merge",
        dir.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    said(&o);
    let record = std::fs::read_to_string(merged.join("merge.toml")).unwrap();
    assert!(record.contains("calls = 50"), "{record}");

    let o = s.run(&["run", "--resume", "--out", dir.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{}", show(&o));
    said(&o);
}
