//! The report as tables of text cells: one [`Table`] per question, shared by the
//! terminal renderer and the CSV writer so both always show the same numbers.

use crate::oracle::{Evidence, Status, Verdict};

use super::stats::{Report, SolverGrammar};

/// A titled table of text cells; `name` is the CSV file stem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// File stem for `--csv` (`bugs` → `bugs.csv`).
    pub name: &'static str,
    /// Heading printed above the terminal table.
    pub title: String,
    /// Column names.
    pub header: Vec<String>,
    /// Rows of cells, as long as the header.
    pub rows: Vec<Vec<String>>,
    /// Lines printed under the terminal table (what a `-` means, ...); not in the CSV.
    pub notes: Vec<String>,
}

/// Seconds with millisecond precision (the resolution that matters at 1/64 s).
fn secs(x: f64) -> String {
    format!("{x:.3}")
}

/// Builds every table of the report, in the order they are printed.
pub fn tables(report: &Report) -> Vec<Table> {
    let mut tables = vec![
        bugs_table(report),
        performance_table(report),
        solved_table(report),
        status_table(report),
        time_table(report),
        regression_table(report),
    ];
    tables.extend(unchecked_table(report));
    tables.extend(undecided_table(report));
    tables.extend(disagreements_table(report));
    tables.push(inputs_table(report));
    tables
}

/// Per solver and grammar asked for models, the sat answers et could not judge by
/// their model; no table when no run recorded asking for models.
fn unchecked_table(report: &Report) -> Option<Table> {
    let cells: Vec<&SolverGrammar> = report
        .cells
        .iter()
        .filter(|c| c.unchecked_sat.is_some())
        .collect();
    if cells.is_empty() {
        return None;
    }
    let mut header = leading_header();
    header.extend(["sat".to_string(), "unchecked_sat".to_string()]);
    let rows = cells
        .iter()
        .map(|c| {
            let mut row = leading_cells(report, c);
            row.push(c.status(Status::Sat).to_string());
            row.push(c.unchecked_sat.unwrap_or(0).to_string());
            row
        })
        .collect();
    Some(Table {
        name: "unchecked",
        title: "sat answers whose model et could not judge (solvers asked for models)".into(),
        header,
        rows,
        notes: vec![
            "unchecked: `model_check` unsupported (an operator et's evaluator lacks), \
             undetermined, or empty (no model printed)"
                .into(),
        ],
    })
}

/// Per solver and grammar, the calls a session answered unlike a fresh process; no
/// table when no input ran sessions.
fn disagreements_table(report: &Report) -> Option<Table> {
    let disagreements = report.disagreements.as_ref()?;
    let header = ["solver", "grammar", "by_confirmation", "by_audit", "first"]
        .map(String::from)
        .to_vec();
    let rows = disagreements
        .iter()
        .map(|d| {
            vec![
                d.solver.clone(),
                d.grammar.clone(),
                d.by_confirmation.to_string(),
                d.by_audit.to_string(),
                d.example.clone(),
            ]
        })
        .collect();
    Some(Table {
        name: "session-disagreements",
        title: "Calls a solver session answered unlike a fresh process (the rows record the fresh answer)"
            .into(),
        header,
        rows,
        notes: vec![
            "`session-disagreements.csv` in each run directory lists them all".into(),
        ],
    })
}

/// Per grammar, the formulas nobody decided and the smallest of them; no table when no
/// input lists them (runs made before et wrote `undecided.csv`).
fn undecided_table(report: &Report) -> Option<Table> {
    let undecided = report.undecided.as_ref()?;
    let header = [
        "grammar",
        "formulas",
        "smallest_size",
        "smallest_index",
        "answers",
    ]
    .map(String::from)
    .to_vec();
    let rows = undecided
        .iter()
        .map(|u| {
            vec![
                u.grammar.clone(),
                u.formulas.to_string(),
                u.smallest_size.to_string(),
                u.smallest_index.clone(),
                u.smallest_answers.clone(),
            ]
        })
        .collect();
    Some(Table {
        name: "undecided",
        title: "Formulas no solver of the pool decided and no witness proves sat".into(),
        header,
        rows,
        notes: vec![
            "`et index -g GRAMMAR INDEX` prints a formula; `undecided.csv` in each run \
             directory lists them all"
                .into(),
        ],
    })
}

/// The cells every per-solver-and-grammar table starts with: solver, grammar, calls.
fn leading_cells(report: &Report, c: &SolverGrammar) -> Vec<String> {
    vec![
        report.solvers[c.solver].name.clone(),
        report.grammars[c.grammar].clone(),
        c.calls.to_string(),
    ]
}

fn leading_header() -> Vec<String> {
    vec!["solver".to_string(), "grammar".into(), "calls".into()]
}

fn bugs_table(report: &Report) -> Table {
    // `incremental` is a verdict on scripts: its column is there when a run has one, so
    // the tables of formula runs read as they always have.
    let scripts = report
        .cells
        .iter()
        .any(|c| c.verdict(Verdict::Incremental) > 0);
    let verdicts: Vec<Verdict> = Verdict::ALL
        .iter()
        .copied()
        .filter(|v| v.spoils_answer() && (*v != Verdict::Incremental || scripts))
        .collect();
    let mut header = leading_header();
    header.extend(verdicts.iter().map(|v| v.label().to_string()));
    header.push("total".into());
    let evidence: Vec<Evidence> = Evidence::ALL
        .iter()
        .copied()
        .filter(|e| e.judges_correctness())
        .collect();
    header.extend(evidence.iter().map(|e| format!("by_{}", e.label())));
    let false_alarm = Verdict::ValidatorFalseAlarm;
    header.push(false_alarm.label().into());
    let rows = report
        .cells
        .iter()
        .map(|c| {
            let mut row = leading_cells(report, c);
            row.extend(verdicts.iter().map(|v| c.verdict(*v).to_string()));
            row.push(c.bugs().to_string());
            row.extend(evidence.iter().map(|e| c.by_evidence(*e).to_string()));
            row.push(c.verdict(false_alarm).to_string());
            row
        })
        .collect();
    Table {
        name: "bugs",
        title: "Bug triggers per solver and grammar (correctness verdicts), and what established them"
            .into(),
        header,
        rows,
        notes: vec![
            "by_reference: the reference solver's answer contradicts; by_witness: et found a satisfying assignment;".into(),
            "by_model: et's check of the solver's model failed; by_self-check: the solver's own model check failed;".into(),
            "a crash needs no evidence; runs without an evidence column: unsound = reference, invalid_model = self-check;".into(),
            "validator_false_alarm: the solver's own model check rejected a model et found valid (its answer is right; not in total)".into(),
        ],
    }
}

fn performance_table(report: &Report) -> Table {
    let verdicts: Vec<Verdict> = Verdict::ALL
        .iter()
        .copied()
        .filter(|v| !v.is_bug())
        .collect();
    let mut header = leading_header();
    header.extend(verdicts.iter().map(|v| v.label().to_string()));
    header.push("total".into());
    let rows = report
        .cells
        .iter()
        .map(|c| {
            let mut row = leading_cells(report, c);
            row.extend(verdicts.iter().map(|v| c.verdict(*v).to_string()));
            row.push(
                verdicts
                    .iter()
                    .map(|v| c.verdict(*v))
                    .sum::<u64>()
                    .to_string(),
            );
            row
        })
        .collect();
    Table {
        name: "performance",
        title: "Performance verdicts per solver and grammar (the reference decided, or et has a witness, and the solver did not)"
            .into(),
        header,
        rows,
        notes: Vec::new(),
    }
}

fn solved_table(report: &Report) -> Table {
    let mut header = leading_header();
    header.push("clock".into());
    header.extend(report.timeouts.iter().map(|t| format!("<={}", t.label)));
    let mut unmeasured = false;
    let rows = report
        .cells
        .iter()
        .map(|c| {
            let mut row = leading_cells(report, c);
            row.push(report.clock.label().into());
            row.extend(report.timeouts.iter().zip(&c.solved_within).map(|(t, n)| {
                if c.measured(t) {
                    n.to_string()
                } else {
                    unmeasured = true;
                    "-".into()
                }
            }));
            row
        })
        .collect();
    let mut notes = Vec::new();
    if unmeasured {
        notes.push("-: T is above the run's timeout, so it was not measured".into());
    }
    Table {
        name: "solved",
        title: format!(
            "Solved formulas: sat/unsat without a bug verdict, within T seconds of {}",
            report.clock.describe()
        ),
        header,
        rows,
        notes,
    }
}

fn status_table(report: &Report) -> Table {
    let mut header = leading_header();
    header.extend(Status::ALL.iter().map(|s| s.label().to_string()));
    let rows = report
        .cells
        .iter()
        .map(|c| {
            let mut row = leading_cells(report, c);
            row.extend(Status::ALL.iter().map(|s| c.status(*s).to_string()));
            row
        })
        .collect();
    let setup_errors: u64 = report
        .cells
        .iter()
        .map(|c| c.status(Status::SetupError))
        .sum();
    let mut notes = Vec::new();
    if setup_errors > 0 {
        notes.push(format!(
            "setup_error: {setup_errors} calls could not start the solver (missing program, loader \
             error, memory limit too low to load it); they say nothing about the solver"
        ));
    }
    Table {
        name: "statuses",
        title: "Statuses per solver and grammar (every call, whatever its verdict)".into(),
        header,
        rows,
        notes,
    }
}

fn time_table(report: &Report) -> Table {
    let header = [
        "solver",
        "grammar",
        "calls",
        "solved",
        "clock",
        "time_s",
        "solved_per_s",
        "joint",
        "joint_time_s",
    ]
    .map(String::from)
    .to_vec();
    let rows = report
        .cells
        .iter()
        .map(|c| {
            let mut row = leading_cells(report, c);
            row.extend([
                c.solved.to_string(),
                report.clock.label().into(),
                secs(c.seconds),
                c.throughput().map_or("-".into(), |t| format!("{t:.2}")),
                c.joint_formulas.to_string(),
                secs(c.joint_seconds),
            ]);
            row
        })
        .collect();
    Table {
        name: "time",
        title: format!(
            "Time and throughput ({}; solved = sat/unsat without a bug verdict; joint = formulas every solver of the family solved)",
            report.clock.describe()
        ),
        header,
        rows,
        notes: Vec::new(),
    }
}

fn regression_table(report: &Report) -> Table {
    let header = [
        "grammar",
        "from",
        "to",
        "lost_solved",
        "lost_solved_examples",
        "lost_correct",
        "lost_correct_examples",
    ]
    .map(String::from)
    .to_vec();
    let rows = report
        .regressions
        .iter()
        .map(|r| {
            vec![
                report.grammars[r.grammar].clone(),
                report.solvers[r.from].name.clone(),
                report.solvers[r.to].name.clone(),
                r.lost_solved.to_string(),
                r.lost_solved_examples.join(" "),
                r.lost_correct.to_string(),
                r.lost_correct_examples.join(" "),
            ]
        })
        .collect();
    Table {
        name: "regressions",
        title: "Regressions: formulas a version solved (sat/unsat without a bug verdict) that the next version of its family does not".into(),
        header,
        rows,
        notes: vec![
            "lost_correct: of the lost formulas, those where the newer version got a correctness verdict; \
             formulas where either version could not start (setup_error) are left out"
                .into(),
        ],
    }
}

fn inputs_table(report: &Report) -> Table {
    let header = [
        "dir",
        "grammar",
        "range",
        "solvers",
        "timeout_s",
        "formulas",
        "complete",
        "calls",
        "expected_calls",
        "outside",
        "status",
    ]
    .map(String::from)
    .to_vec();
    let rows = report
        .inputs
        .iter()
        .map(|i| {
            vec![
                i.path.display().to_string(),
                i.grammar.clone(),
                i.coverage.clone(),
                i.solvers.to_string(),
                i.timeout_s.clone(),
                i.formulas.to_string(),
                i.complete.to_string(),
                i.calls.to_string(),
                i.expected_calls.to_string(),
                i.outside.to_string(),
                match (i.is_complete(), i.torn_last_line) {
                    (true, _) => "complete".into(),
                    (false, false) => "INCOMPLETE".into(),
                    (false, true) => "INCOMPLETE (torn last line left out)".into(),
                },
            ]
        })
        .collect();
    Table {
        name: "inputs",
        title: "Inputs: rows present against the formulas × solvers each run.toml claims (outside: rows of indices outside its range)".into(),
        header,
        rows,
        notes: Vec::new(),
    }
}
