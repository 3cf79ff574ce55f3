//! `et triage --journal FILE` records every solver call as it finishes and answers the
//! calls FILE already holds from it: a triage stopped part-way goes on where it
//! stopped. A lying solver (`always-unsat.sh`, family `liar`: `unsat` on everything,
//! caught by et's witnesses) beside z3 4.16.0 on `core` gives the triage something to
//! re-run.

mod common;

use std::path::Path;

use common::{csv_maps, fake_release, show, solver, Scratch};

/// Runs `et triage RUN --out OUT --journal JOURNAL`, which must succeed; its stderr.
fn triage(s: &Scratch, run: &Path, out: &str, journal: &Path) -> String {
    let o = s.run(&[
        "triage",
        run.to_str().unwrap(),
        "--out",
        s.join(out).to_str().unwrap(),
        "--journal",
        journal.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The number before `what` in the triage's last step line (`... (N solver calls, M
/// more answered from the journal)`).
fn count_before(stderr: &str, what: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.contains("groups from"))
        .unwrap_or_else(|| panic!("a summary line in\n{stderr}"));
    let before = line.split(what).next().unwrap();
    before
        .rsplit(|c: char| !c.is_ascii_digit())
        .find(|w| !w.is_empty())
        .unwrap_or_else(|| panic!("a count before {what:?} in {line:?}"))
        .parse()
        .unwrap()
}

#[test]
fn a_triage_run_again_with_its_journal_makes_no_call_twice() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let liar = fake_release("liar-1.0", "liar", "1.0", "always-unsat.sh", &[]);
    let run = s.campaign("core", "40", &[z3, liar], "run", &["--timeout", "60"]);
    let journal = s.join("calls.csv");

    let first = triage(&s, &run, "first", &journal);
    let made = count_before(&first, " solver calls");
    assert!(made > 0, "{first}");

    // Run again in full: every call is answered from the journal, and the triage is
    // the same, file for file, but for the report saying where its calls came from.
    let again = triage(&s, &run, "again", &journal);
    assert_eq!(count_before(&again, " solver calls"), 0, "{again}");
    assert_eq!(count_before(&again, " more answered"), made, "{again}");
    let read = |dir: &str, file: &str| std::fs::read_to_string(s.join(dir).join(file)).unwrap();
    for file in ["groups.csv", "triggers.csv"] {
        assert_eq!(read("first", file), read("again", file), "{file}");
    }
    let replayed = format!(
        "{made} solver calls in all ({made} of them answered from the journal of an earlier run"
    );
    let report = read("again", "report.md");
    assert!(report.contains(&replayed), "{report}");
    let without_note = report.replacen(
        &format!(
            " ({made} of them answered from the journal of an earlier run, which made them \
             with the same solvers, formulas and limits)"
        ),
        "",
        1,
    );
    assert_eq!(read("first", "report.md"), without_note);

    // Killed part-way: the journal ends in the middle of a record. What it holds is
    // answered from it, the rest made again, and the groups are the same.
    let text = std::fs::read(&journal).unwrap();
    std::fs::write(&journal, &text[..text.len() / 2]).unwrap();
    let resumed = triage(&s, &run, "resumed", &journal);
    let replayed = count_before(&resumed, " more answered");
    let remade = count_before(&resumed, " solver calls");
    assert!(replayed > 0 && remade > 0, "{resumed}");
    assert_eq!(replayed + remade, made, "{resumed}");
    let groups = |dir: &str| -> Vec<(String, String, String)> {
        csv_maps(&s.join(dir).join("groups.csv"))
            .into_iter()
            .map(|g| (g["family"].clone(), g["kind"].clone(), g["formula"].clone()))
            .collect()
    };
    assert_eq!(groups("first"), groups("resumed"));
}

#[test]
fn a_file_that_is_not_a_journal_is_refused_and_left_alone() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let run = s.campaign("core", "5", &[z3], "run", &["--timeout", "60"]);
    let not_a_journal = run.join("runs.csv");
    let before = std::fs::read(&not_a_journal).unwrap();
    let o = s.run(&[
        "triage",
        run.to_str().unwrap(),
        "--journal",
        not_a_journal.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not a triage journal"),
        "{}",
        show(&o)
    );
    assert_eq!(std::fs::read(&not_a_journal).unwrap(), before);
}
