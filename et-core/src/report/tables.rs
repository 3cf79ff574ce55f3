//! The report as tables of text cells: one [`Table`] per question, shared by the
//! terminal renderer and the CSV writer so both always show the same numbers.

use crate::oracle::Verdict;

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
}

/// Seconds with millisecond precision (the resolution that matters at 1/64 s).
fn secs(x: f64) -> String {
    format!("{x:.3}")
}

/// Builds every table of the report, in the order they are printed.
pub fn tables(report: &Report) -> Vec<Table> {
    vec![
        verdict_table(
            report,
            "bugs",
            "Bug triggers per solver and grammar (correctness verdicts)",
            true,
        ),
        verdict_table(
            report,
            "performance",
            "Performance verdicts per solver and grammar (the reference decided, the solver did not)",
            false,
        ),
        solved_table(report),
        time_table(report),
        regression_table(report),
    ]
}

fn verdict_table(report: &Report, name: &'static str, title: &str, bugs: bool) -> Table {
    let verdicts: Vec<Verdict> = Verdict::ALL
        .iter()
        .copied()
        .filter(|v| v.is_bug() == bugs)
        .collect();
    let mut header = vec!["solver".to_string(), "grammar".into(), "calls".into()];
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
        name,
        title: title.to_string(),
        header,
        rows,
    }
}

/// The cells every per-solver-and-grammar table starts with: solver, grammar, calls.
fn leading_cells(report: &Report, c: &SolverGrammar) -> Vec<String> {
    vec![
        report.solvers[c.solver].name.clone(),
        report.grammars[c.grammar].clone(),
        c.formulas.to_string(),
    ]
}

fn solved_table(report: &Report) -> Table {
    let mut header = vec!["solver".to_string(), "grammar".into(), "calls".into()];
    header.extend(report.timeouts.iter().map(|t| format!("<={}", t.label)));
    let rows = report
        .cells
        .iter()
        .map(|c| {
            let mut row = leading_cells(report, c);
            row.extend(c.solved.iter().map(u64::to_string));
            row
        })
        .collect();
    Table {
        name: "solved",
        title: "Solved formulas (sat/unsat within T seconds of wall time)".into(),
        header,
        rows,
    }
}

fn time_table(report: &Report) -> Table {
    let header = [
        "solver",
        "grammar",
        "calls",
        "decided",
        "time_s",
        "decided_per_s",
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
                c.decided.to_string(),
                secs(c.time_s),
                c.throughput().map_or("-".into(), |t| format!("{t:.2}")),
                c.joint_formulas.to_string(),
                secs(c.joint_time_s),
            ]);
            row
        })
        .collect();
    Table {
        name: "time",
        title:
            "Time and throughput (wall time; joint = formulas every solver of the family decided)"
                .into(),
        header,
        rows,
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
        title: "Regressions: formulas a version decided (correctly) that the next version of its family does not".into(),
        header,
        rows,
    }
}
