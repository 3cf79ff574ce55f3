//! `et triage` writes a report to file for each confirmed group that the newest
//! release of its family shows (`triage/bugs/`), reproducible with the solver alone:
//! the script beside the report, run with the report's command line (the solver's
//! own program name, found on PATH, as its developer would run it), gives the wrong
//! answer the report names; the report says what the finding rests on.
//!
//! Two lying solvers next to the pinned z3 4.16.0 on `core`: `always-unsat.sh`
//! (family `liar`: `unsat` on every formula, caught by et's witnesses) and z3 behind
//! `perturb-model.sh` (family `perturbed`: a flipped value in every model, caught by
//! et's model check). Each is the only, so the newest, release of its family.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{csv_maps, fake_release, fake_script, show, solver, Scratch};

/// The best-ranked report of `bugs/` whose name contains `part` (a solver's findings
/// may form several groups, by operators): (markdown, script).
fn report_of(bugs: &Path, part: &str) -> (String, std::path::PathBuf) {
    let mut md: Vec<_> = std::fs::read_dir(bugs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "md")
                && p.file_name().unwrap().to_string_lossy().contains(part)
        })
        .collect();
    assert!(!md.is_empty(), "a report for {part} in {}", bugs.display());
    md.sort_by_key(|p| {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        name.split('-').next().unwrap().parse::<usize>().unwrap()
    });
    let script = md[0].with_extension("smt2");
    assert!(script.is_file(), "{} beside its report", script.display());
    (std::fs::read_to_string(&md[0]).unwrap(), script)
}

/// The text of a report's section `## HEADING`, up to the next section.
fn section<'r>(report: &'r str, heading: &str) -> &'r str {
    let after = report
        .split(&format!("## {heading}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("a section {heading:?} in\n{report}"));
    after.split("\n## ").next().unwrap_or(after)
}

/// The command line of a report's `## Command` section.
fn command_of(report: &str) -> String {
    let after = section(report, "Command");
    let block = after.split("```sh\n").nth(1).expect("a shell block");
    block.lines().next().unwrap().to_string()
}

/// Runs a report's command line in `dir` with `path` first on PATH: what it prints.
fn reproduce(command: &str, dir: &Path, path: &[&Path]) -> String {
    let mut dirs: Vec<String> = path.iter().map(|p| p.display().to_string()).collect();
    dirs.push(std::env::var("PATH").unwrap_or_default());
    let o = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", dirs.join(":"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn confirmed_groups_of_the_newest_release_get_reports_a_solver_alone_reproduces() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let liar = fake_release("liar-1.0", "liar", "1.0", "always-unsat.sh", &[]);
    let mut perturbed = fake_release(
        "perturbed-1.0",
        "perturbed",
        "1.0",
        "perturb-model.sh",
        &[z3.program()],
    );
    perturbed.models = true;
    let run = s.campaign(
        "core",
        "40",
        &[z3.clone(), liar.clone(), perturbed.clone()],
        "run",
        &["--timeout", "60"],
    );
    let o = s.run(&["triage", run.to_str().unwrap(), "--jobs", "2", "-q"]);
    assert!(o.status.success(), "{}", show(&o));
    let triage = run.join("triage");
    let groups = csv_maps(&triage.join("groups.csv"));
    let bugs = triage.join("bugs");
    let reports: Vec<_> = std::fs::read_dir(&bugs)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "md")
        })
        .collect();
    assert_eq!(
        reports.len(),
        groups.len(),
        "every group here is confirmed and of a newest release: {groups:?}"
    );
    // Each report holds its group's formula (groups.csv's, the smallest trigger) and
    // lists the group's other formulas.
    for g in &groups {
        let (report, _) = report_of(&bugs, &format!("{}-", g["rank"]));
        let assertion = g["formula"]
            .split_once("(assert")
            .map(|(_, rest)| rest.trim_end().trim_end_matches("(check-sat)").trim())
            .unwrap();
        assert!(report.contains(assertion), "{assertion} in\n{report}");
        if g["formulas"] != "1" {
            assert!(report.contains("## Other formulas"), "{report}");
        }
    }

    // The liar: a witness makes its `unsat` wrong; the script, run as the report says
    // (the program by its own name), answers `unsat` again.
    let (report, script) = report_of(&bugs, "liar-1.0-refutational-soundness-core");
    assert!(
        report.contains("et found an assignment that satisfies"),
        "{report}"
    );
    // Its smallest formula, `(or true true)`, is reported without the constants the
    // grammar declared: there is no assignment to show, and the report says why.
    assert!(
        report.contains("(assert (or true true)) (check-sat)")
            && report.contains("The formula has no constants: et's evaluation finds it true"),
        "{report}"
    );
    let command = command_of(&report);
    assert!(command.starts_with("always-unsat.sh "), "{command}");
    let scripts = Path::new(&fake_script("always-unsat.sh"))
        .parent()
        .unwrap()
        .to_path_buf();
    let answer = reproduce(&command, &bugs, &[&scripts]);
    assert_eq!(answer.trim(), "unsat");
    // The script is a formula of the grammar: et reads it back.
    let o = s.run(&["rank", "-g", "core", script.to_str().unwrap()]);
    assert!(o.status.success(), "{}", show(&o));

    // The perturbed z3: et's model check refutes its model, without any other solver;
    // the script asks for the model, and running it prints the wrong one again.
    let (report, script) = report_of(&bugs, "perturbed-1.0-invalid-model-core");
    assert!(
        report.contains("does not rest on any other solver"),
        "{report}"
    );
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.trim_end().ends_with("(get-model)"), "{text}");
    let command = command_of(&report);
    assert!(command.starts_with("perturb-model.sh "), "{command}");
    let printed = reproduce(&command, &bugs, &[&scripts]);
    assert!(printed.starts_with("sat"), "{printed}");
    let model = s.join("model.txt");
    std::fs::write(&model, &printed).unwrap();
    let o = s.run(&[
        "eval",
        script.to_str().unwrap(),
        "--model",
        model.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(3),
        "the model falsifies it: {}",
        show(&o)
    );
    // The report holds the evidence itself: the whole model the solver printed, and
    // where et's evaluation found the formula false.
    for line in printed.lines().filter(|l| !l.trim().is_empty()) {
        assert!(
            report.contains(line.trim_end()),
            "the model's line {line:?} in the report:\n{report}"
        );
    }
    let evidence = section(&report, "Evidence");
    assert!(
        evidence.contains("found it false at `"),
        "the false sub-formula named:\n{report}"
    );
    // z3 itself is right: on the formula with the perturbed model pinned it answers
    // `unsat`, so the report calls it a model-printing bug, not a wrong `sat`.
    assert!(
        evidence.contains("answers `unsat`") && evidence.contains("a model-printing bug"),
        "{report}"
    );
}

/// Two releases of one family show the same bug on the same formulas: the report is
/// made for the newest one, the release its developers fix, not for whichever release
/// the triage met first.
#[test]
fn the_report_of_a_bug_two_releases_share_names_the_newest() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let release = |version: &str| {
        let mut r = fake_release(
            &format!("perturbed-{version}"),
            "perturbed",
            version,
            "perturb-model.sh",
            &[z3.program()],
        );
        r.models = true;
        r
    };
    let (old, new) = (release("1.0"), release("2.0"));
    let run = s.campaign(
        "core",
        "12",
        &[z3.clone(), old, new],
        "run",
        &["--timeout", "60"],
    );
    let o = s.run(&["triage", run.to_str().unwrap(), "--jobs", "2", "-q"]);
    assert!(o.status.success(), "{}", show(&o));
    let bugs = run.join("triage").join("bugs");
    let names: Vec<String> = std::fs::read_dir(&bugs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    assert!(!names.is_empty(), "reports in {}", bugs.display());
    for name in &names {
        assert!(name.contains("perturbed-2.0-"), "{name} among {names:?}");
        // The newest release's finding is on the group's smallest formula (the older
        // release's finding of it sorts first): nothing smaller was passed over.
        let report = std::fs::read_to_string(bugs.join(name)).unwrap();
        assert!(report.contains("## Other formulas"), "{report}");
        assert!(
            !report.contains("did not show it on every re-run"),
            "{report}"
        );
    }
}

/// The pool of the performance tests: the reference cvc5 1.4.2, z3 4.16.0, and a z3
/// "99.0" that is 4.16.0 behind a script that shows `fault` (`hang`: never answers,
/// `unknown`: gives up at once) on formulas applying `operator`.
fn z3_faulty_on(operator: &str, fault: &str) -> [et_core::solvers::SolverConfig; 3] {
    let z3 = solver("z3-4.16.0");
    let faulty = fake_release(
        "z3-99.0",
        "z3",
        "99.0",
        "fault-on.sh",
        &[z3.program(), operator, fault],
    );
    [solver("cvc5-1.4.2"), z3, faulty]
}

/// A timeout a newer release brought: z3 "99.0" is z3 4.16.0 behind a script that
/// never answers on formulas applying `not`, judged by cvc5. The report times its
/// formula on both z3 releases, three runs each at 4× the run's limit (two for 99.0,
/// whose two runs stopped at the limit settle its median), names the jump
/// in median CPU seconds from 4.16.0 to 99.0 as the regression and 4.16.0 as the last
/// good release, and gives z3's own work count (`rlimit`) where it decided. The
/// expected answer quotes what the run observed and who observed it.
#[test]
fn a_timeout_report_times_every_release_and_names_the_regression() {
    let s = Scratch::new();
    let run = s.campaign(
        "core",
        "40",
        &z3_faulty_on("not", "hang"),
        "run",
        // The script reads a formula file: one process per formula. The hang computes
        // until the CPU limit stops it, however loaded the machine is.
        &["--timeout", "30", "--cpu-timeout", "1", "--mode", "fresh"],
    );
    // The run's own pool: the releases timed are 4.16.0 and 99.0, whatever else the
    // machine's default et home holds.
    let pool = s.join("pool.toml");
    let o = s.run(&[
        "triage",
        run.to_str().unwrap(),
        "--pool",
        pool.to_str().unwrap(),
        "--jobs",
        "2",
        "-q",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let (report, _) = report_of(&run.join("triage").join("bugs"), "z3-99.0-performance");
    let timings = section(&report, "Affected releases");
    assert!(
        timings.contains("| release | decided | median CPU s | work (`rlimit` units) |"),
        "{report}"
    );
    // 4.16.0 decides in each of its three runs, with a work count; 99.0 is stopped
    // at 4 s each time.
    let newest_good = timings
        .lines()
        .find(|l| l.starts_with("| 4.16.0 | 3 of 3 | "))
        .unwrap_or_else(|| panic!("4.16.0's row in\n{report}"));
    let work = newest_good
        .trim_end_matches(" |")
        .rsplit("| ")
        .next()
        .unwrap();
    assert!(
        work.parse::<u64>().is_ok(),
        "a work count in {newest_good:?}"
    );
    // Two runs stopped at the limit settle the median: no third run.
    assert!(timings.contains("| 99.0 | 0 of 2 | ≥ 4.00 |"), "{report}");
    assert!(
        timings.contains(
            "Regression (a median CPU time, or a count of the solver's own work, 5× or more"
        ),
        "{report}"
    );
    assert!(timings.contains("`4.16.0` → `99.0`"), "{report}");
    assert!(
        report.contains("**Last good release:** `4.16.0`"),
        "{report}"
    );
    // The title names what the timings measured.
    assert!(
        report.starts_with("# z3 99.0, slower than 4.16.0: performance (timeout) on "),
        "{report}"
    );
    // The formula `not` was found on uses one of core's two constants: the report's
    // declares only it, a shrink step, so both formulas' answers are quoted.
    let expected = section(&report, "Expected");
    assert!(
        expected
            .contains("in the run, on the formula as found, the reference `cvc5-1.4.2` answered `"),
        "{report}"
    );
    assert!(
        expected.contains("on the shrunk formula above, `cvc5-1.4.2` answers `"),
        "{report}"
    );
}

/// ET's `realints` grammar applies `sin` to the Int `a`, leaning on z3's implicit
/// Int→Real conversion, which cvc5 refuses. A report on such a formula also gives it
/// with `to_real` written out and says what the solver answers there: here z3 behind
/// a script that answers `unsat` only when the text holds `(sin a)`, so the bug shows
/// on the grammar's form and not on the written-out one.
#[test]
fn a_report_on_a_formula_leaning_on_a_conversion_gives_it_written_out() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let liar = fake_release(
        "liar-1.0",
        "liar",
        "1.0",
        "fault-on.sh",
        &[z3.program(), "sin a)", "unsat"],
    );
    // Formulas 405–416 of realints hold the first `(sin a)`s.
    let run = s.campaign(
        "realints",
        "12",
        &[z3.clone(), liar],
        "run",
        &["--start", "405", "--timeout", "20", "--mode", "fresh"],
    );
    let o = s.run(&["triage", run.to_str().unwrap(), "--jobs", "2", "-q"]);
    assert!(o.status.success(), "{}", show(&o));
    let (report, _) = report_of(
        &run.join("triage").join("bugs"),
        "liar-1.0-refutational-soundness",
    );
    assert!(
        report.contains("leans on the solver's implicit Int→Real conversion"),
        "{report}"
    );
    assert!(report.contains("(sin (to_real a))"), "{report}");
    assert!(
        report.contains("not this bug, which shows only with the implicit conversion"),
        "{report}"
    );
}

/// A run directory made on another machine (the committed hunt): its solvers'
/// programs are not here. Triage re-runs each as the pool's entry of the same name,
/// release and options, says so, and confirms what the run found.
#[test]
fn a_run_from_another_machine_is_triaged_with_the_local_install() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let liar = fake_release("liar-1.0", "liar", "1.0", "always-unsat.sh", &[]);
    // The run sees the liar at a path that is gone by triage time.
    let elsewhere = s.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let moved = elsewhere.join("always-unsat.sh");
    std::os::unix::fs::symlink(liar.program(), &moved).unwrap();
    let mut recorded = liar.clone();
    recorded.command[0] = moved.display().to_string();
    let run = s.campaign(
        "core",
        "12",
        &[z3.clone(), recorded],
        "run",
        &["--timeout", "60"],
    );
    std::fs::remove_dir_all(&elsewhere).unwrap();
    let here = s.pool_file("here.toml", &[z3, liar]);
    let o = s.run(&[
        "triage",
        run.to_str().unwrap(),
        "--pool",
        here.to_str().unwrap(),
        "--jobs",
        "2",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.contains("is not here; re-runs use the pool's"),
        "{said}"
    );
    let groups = csv_maps(&run.join("triage/groups.csv"));
    assert!(
        groups
            .iter()
            .any(|g| g["solver"] == "liar-1.0" && g["status"] == "confirmed"),
        "{groups:?}"
    );
}

/// Two campaigns over the core formulas 199 `(not (xor a b))` and 347
/// `(and true (xor a b))` with a z3 "99.0" that shows `fault` on every formula applying
/// `xor`, triaged together: the one z3 group of the fault's `verdict` (asserted to be
/// one, of both formulas, shrunk to `(xor a b)`), and its report and input script.
fn xor_fault_triaged(s: &Scratch, fault: &str, verdict: &str) -> (String, std::path::PathBuf) {
    let pool = z3_faulty_on("xor", fault);
    let options = |start| {
        vec![
            "--timeout",
            "30",
            "--cpu-timeout",
            "1",
            "--mode",
            "fresh",
            "--start",
            start,
        ]
    };
    let not_xor = s.campaign("core", "1", &pool, "not-xor", &options("199"));
    let and_xor = s.campaign("core", "1", &pool, "and-xor", &options("347"));
    let o = s.run(&[
        "triage",
        not_xor.to_str().unwrap(),
        and_xor.to_str().unwrap(),
        "--pool",
        s.join("pool.toml").to_str().unwrap(),
        "--out",
        s.join("triage").to_str().unwrap(),
        "--jobs",
        "2",
        "-q",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let groups: Vec<_> = csv_maps(&s.join("triage").join("groups.csv"))
        .into_iter()
        .filter(|g| g["family"] == "z3" && g["verdict"] == verdict)
        .collect();
    assert_eq!(groups.len(), 1, "one root cause: {groups:?}");
    assert_eq!(groups[0]["formulas"], "2", "{groups:?}");
    assert_eq!(
        groups[0]["formula"],
        "(declare-const a Bool) (declare-const b Bool) (assert (xor a b)) (check-sat)"
    );
    report_of(&s.join("triage").join("bugs"), "z3-99.0-performance")
}

/// Timeouts are shrunk beyond the grammar before they are reported, and timeouts that
/// shrink to one formula are one root cause. A z3 "99.0" hangs on every formula that
/// applies `xor`; two campaigns found it on `(not (xor a b))` and on
/// `(and true (xor a b))`, whose operators differ (and core formulas have no theory to
/// join them by). Both shrink to `(xor a b)`, each step kept only while 99.0 times out
/// at the limit and at 4× it while cvc5 decides: one group of two formulas, one
/// report, whose input is the shrunk formula and whose evidence gives each formula as
/// found. With et's witness pinned, 99.0 still times out.
#[test]
fn timeouts_that_shrink_to_one_formula_are_one_report() {
    let s = Scratch::new();
    let (report, script) = xor_fault_triaged(&s, "hang", "timeout");
    assert!(
        report.contains("**Minimized:** yes: shrunk beyond the grammar (1 step of ")
            && report.contains("each kept only while the solver timed out at the run's limits"),
        "{report}"
    );
    let input = std::fs::read_to_string(&script).unwrap();
    assert!(input.contains("(assert (xor a b))"), "{input}");
    let evidence = section(&report, "Evidence");
    assert!(
        evidence.contains("(assert (not (xor a b)))")
            || evidence.contains("(assert (and true (xor a b)))"),
        "the formula as found in\n{report}"
    );
    // What held on the re-run is said: cvc5 decided it again.
    assert!(
        report.contains("while the reference decides it within the run's"),
        "{report}"
    );
    let expected = section(&report, "Expected");
    assert!(
        expected.contains("in the run, on the formula as found, the reference `cvc5-1.4.2`")
            && expected.contains("on the shrunk formula above, `cvc5-1.4.2` answers `sat`"),
        "{report}"
    );
    // `(xor a b)` has a witness; pinned, 99.0 still hangs on a formula with nothing
    // left to search.
    let pinned = section(&report, "With et's witness pinned");
    assert!(
        pinned.contains("`z3-99.0` answers `timeout`")
            && pinned.contains("(assert (= a ")
            && pinned.contains("(assert (= b "),
        "{report}"
    );
}

/// An `unknown` a report is about is shrunk like a timeout, each step kept only while
/// the solver still gives up and the reference decides: z3 "99.0" answering `unknown`
/// on every formula that applies `xor` is one report of both formulas, shrunk to
/// `(xor a b)`, and the report says what each step kept.
#[test]
fn unknowns_are_shrunk_beyond_the_grammar_too() {
    let s = Scratch::new();
    let (report, script) = xor_fault_triaged(&s, "unknown", "unknown");
    assert!(
        report.contains("**Minimized:** yes: shrunk beyond the grammar (1 step of ")
            && report.contains("each kept only while the solver answered `unknown`"),
        "{report}"
    );
    let input = std::fs::read_to_string(&script).unwrap();
    assert!(input.contains("(assert (xor a b))"), "{input}");
}

/// The z3 groups of verdict `verdict` after triaging one campaign over core formula 42,
/// `(xor true a)` (which the grammar gives with `b` declared too), with the pool
/// `pool` (whose z3 "99.0" shows a fault on formulas applying `xor`); and the run
/// directory.
fn triage_xor_true_a(
    s: &Scratch,
    pool: [et_core::solvers::SolverConfig; 3],
    verdict: &str,
) -> (Vec<BTreeMap<String, String>>, std::path::PathBuf) {
    let run = s.campaign(
        "core",
        "1",
        &pool,
        "xor-true-a",
        &[
            "--timeout",
            "30",
            "--cpu-timeout",
            "1",
            "--mode",
            "fresh",
            "--start",
            "42",
        ],
    );
    let o = s.run(&[
        "triage",
        run.to_str().unwrap(),
        "--pool",
        s.join("pool.toml").to_str().unwrap(),
        "--jobs",
        "2",
        "-q",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let groups = csv_maps(&run.join("triage/groups.csv"))
        .into_iter()
        .filter(|g| g["family"] == "z3" && g["verdict"] == verdict)
        .collect();
    (groups, run)
}

/// A grammar declares every constant its formulas may use; the formula a timeout was
/// found on may use fewer. The report's formula declares only those, a step kept
/// like any shrink step (z3 "99.0" still hangs on it, cvc5 decides it), even when
/// no rewrite of the assertion keeps the finding: `(xor true a)` without `b`. The
/// hang needs neither the model request nor z3's self-check `model_validate=true`
/// (without each, 99.0 still decides nothing at the longer limit): the report's
/// command and input leave both out, and say so.
#[test]
fn a_reported_timeout_declares_only_the_constants_and_options_it_uses() {
    let s = Scratch::new();
    let mut pool = z3_faulty_on("xor", "hang");
    pool[2].command.push("model_validate=true".into());
    let (groups, run) = triage_xor_true_a(&s, pool, "timeout");
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(
        groups[0]["formula"],
        "(declare-const a Bool) (assert (xor true a)) (check-sat)"
    );
    let (report, script) = report_of(&run.join("triage/bugs"), "z3-99.0-performance");
    assert!(
        report.contains(
            "left out, as the bug does not need them: the model request, `model_validate=true` of the options et gives every call (without each, still not decided at the limits it was confirmed at"
        ),
        "{report}"
    );
    let input = std::fs::read_to_string(&script).unwrap();
    assert!(!input.contains("(get-model)"), "{input}");
    let command = command_of(&report);
    assert!(!command.contains("model_validate"), "{command}");
}

/// A correctness finding is not shrunk (a crash needs no shrink to be believed), but
/// its formula too declares only the constants it uses once the finding is confirmed
/// again without the others: z3 "99.0" (run with z3's self-check
/// `model_validate=true`) failing an assertion on `(xor true a)` is reported without
/// `b`, and the report says what was dropped. The crash needs neither the model
/// request nor the self-check: the report's command and input leave both out, and
/// the command crashes as written.
#[test]
fn a_reported_crash_declares_only_the_constants_and_options_it_uses() {
    let s = Scratch::new();
    let mut pool = z3_faulty_on("xor", "assert");
    pool[2].command.push("model_validate=true".into());
    let (groups, run) = triage_xor_true_a(&s, pool, "crash");
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(
        groups[0]["formula"],
        "(declare-const a Bool) (assert (xor true a)) (check-sat)"
    );
    let (report, script) = report_of(&run.join("triage/bugs"), "z3-99.0-crash");
    assert!(
        report.contains("declaring only the constants and functions it uses (`b` dropped, the finding confirmed again without it)"),
        "{report}"
    );
    let input = std::fs::read_to_string(&script).unwrap();
    assert!(!input.contains("(declare-const b"), "{input}");
    assert!(
        report.contains(
            "left out, as the bug does not need them: the model request, `model_validate=true`"
        ),
        "{report}"
    );
    assert!(!input.contains("(get-model)"), "{input}");
    // Its title names where it crashes.
    let title = report.lines().next().unwrap();
    assert!(
        title.ends_with(": crash at `src/fault/arith.cpp:42`"),
        "{title}"
    );
    let command = command_of(&report);
    assert!(!command.contains("model_validate"), "{command}");
    // The command names the fake by its file name: its folder goes first on PATH.
    let scripts = Path::new(&fake_script("fault-on.sh"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!("{}:{}", scripts.display(), std::env::var("PATH").unwrap());
    let status = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(run.join("triage/bugs"))
        .env("PATH", path)
        .status()
        .unwrap();
    // Killed by SIGABRT: sh reports it as exit 128 + 6, or execs the command and is.
    use std::os::unix::process::ExitStatusExt;
    assert!(
        status.code() == Some(128 + libc::SIGABRT) || status.signal() == Some(libc::SIGABRT),
        "{command}: {status:?}"
    );
}

/// A report's output block is what its command prints on its file. z3 4.16.0's new
/// core (`tactic.default_tactic=smt sat.euf=true`, configuration 0) gives up on the
/// ground Float64 formula 602 of fp-5v2a, which z3 in its default mode and 4.8.10
/// decide. The report's command and script leave out the model request the
/// confirming re-runs made (after `unknown`, z3 answers it with an error): the output
/// under Actual is that of the report's command, run here with the real z3 on the
/// report's script.
#[test]
fn a_reports_output_is_what_its_command_prints_on_its_file() {
    let s = Scratch::new();
    let z3 = solver("z3-4.16.0");
    let pool = s.pool_file("pool.toml", std::slice::from_ref(&z3));
    let run = s.join("run");
    let o = s.run(&[
        "run",
        "-g",
        "fp-5v2a",
        "--start",
        "602",
        "--n",
        "1",
        "--timeout",
        "30",
        "--cpu-timeout",
        "1",
        "--pool",
        pool.to_str().unwrap(),
        "--solvers",
        &z3.name,
        "--configurations",
        "z3-4.16.0:0..1",
        "--out",
        run.to_str().unwrap(),
        "-q",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    // Every installed release is ranged: 4.8.10 decides it, so it is a bug of the newest
    // release to report, not a limitation of the family.
    let installed = et_core::solvers::testing::test_home().join("pool.toml");
    let o = s.run(&[
        "triage",
        run.to_str().unwrap(),
        "--pool",
        installed.to_str().unwrap(),
        "--jobs",
        "2",
        "-q",
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let bugs = run.join("triage/bugs");
    let (report, script) = report_of(&bugs, "z3-4.16.0-newcore-performance-fp-5v2a");
    let input = std::fs::read_to_string(&script).unwrap();
    assert!(!input.contains("(get-model)"), "{input}");
    let actual = section(&report, "Actual");
    let block = actual
        .split("run once more for this report:\n\n```\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .unwrap_or_else(|| panic!("an output block under Actual:\n{report}"));
    let command = command_of(&report);
    assert!(command.starts_with("z3 "), "{command}");
    let bin = Path::new(z3.program()).parent().unwrap();
    let printed = reproduce(&command, &bugs, &[bin]);
    assert_eq!(block, printed.trim_end(), "{report}");
    assert_eq!(block, "unknown", "{report}");
}
