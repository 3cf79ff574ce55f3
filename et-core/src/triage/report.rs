//! The output of `et triage`: `DIR/triage/` with
//! - `report.md`: a summary table, then one section per bug group, worst first, each
//!   ready to paste into an issue tracker (smallest trigger inline, the exact command
//!   line, the wrong and the expected answer and how the expected one is known, the
//!   affected versions, a few other triggers and a count);
//! - `groups.csv`: the same, one row per group;
//! - `triggers.csv`: every trigger with its confirmation, version range and group;
//! - `trigger-<rank>.smt2`: each group's smallest trigger, the file the command line
//!   in the report runs;
//! - `bugs/`: a report to file for each confirmed group that affects the newest
//!   installed release ([`super::bug_reports`]).
//!
//! The folder is built under a temporary name beside its destination and renamed into
//! place when complete, so a `triage/` folder is never half-written.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::campaign::manifest::ManifestSolver;
use crate::oracle::{Evidence, Status, Verdict};
use crate::solvers::{InputMode, SolverConfig};

use super::calls::Answer;
use super::confirm::Outcome;
use super::group::{Finding, Group};
use super::rank::Kind;
use super::triggers::RunDirectory;
use super::{Triage, TriageError};

/// How many other triggers a group's section lists before giving a count.
pub const OTHER_TRIGGERS_SHOWN: usize = 5;

/// The file name of a group's smallest trigger.
pub fn trigger_file(group: &Group) -> String {
    format!("trigger-{}.smt2", group.rank)
}

/// Writes `triage` into `out` (created, or replaced as a whole); returns the files.
pub fn write(triage: &Triage, out: &Path) -> Result<Vec<PathBuf>, TriageError> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| TriageError::io(&parent, e))?;
    let staging = tempfile::Builder::new()
        .prefix(".triage-partial-")
        .tempdir_in(&parent)
        .map_err(|e| TriageError::io(&parent, e))?;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("report.md".into(), markdown(triage).into_bytes()),
        ("groups.csv".into(), groups_csv(triage)?),
        ("triggers.csv".into(), triggers_csv(triage)?),
        ("undecided.csv".into(), undecided_csv(triage)?),
    ];
    for g in &triage.groups {
        let smallest = g.smallest(&triage.findings);
        files.push((
            trigger_file(g),
            format!("{}\n", smallest.formula).into_bytes(),
        ));
    }
    files.extend(super::bug_reports::files(triage));
    files.push((
        "limitations.md".into(),
        super::bug_reports::limitations(triage).into_bytes(),
    ));
    std::fs::create_dir_all(staging.path().join(super::bug_reports::FOLDER))
        .map_err(|e| TriageError::io(staging.path(), e))?;
    for (name, bytes) in &files {
        let path = staging.path().join(name);
        std::fs::write(&path, bytes).map_err(|e| TriageError::io(&path, e))?;
    }
    // Swap the finished folder in; an older triage is moved aside first and removed.
    let old = if out.exists() {
        let aside = tempfile::Builder::new()
            .prefix(".triage-old-")
            .tempdir_in(&parent)
            .map_err(|e| TriageError::io(&parent, e))?;
        let target = aside.path().join("triage");
        std::fs::rename(out, &target).map_err(|e| TriageError::io(out, e))?;
        Some(aside)
    } else {
        None
    };
    let staged = staging.keep();
    std::fs::rename(&staged, out).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staged);
        TriageError::io(out, e)
    })?;
    drop(old); // removes the previous triage
    Ok(files.into_iter().map(|(name, _)| out.join(name)).collect())
}

/// A code span that survives backticks in `text`.
pub fn code(text: &str) -> String {
    let longest = longest_backtick_run(text);
    let fence = "`".repeat(longest + 1);
    if longest > 0 || text.starts_with(' ') || text.ends_with(' ') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// A fenced code block that survives backtick runs in `text`.
pub fn code_block(out: &mut String, info: &str, text: &str) {
    let fence = "`".repeat((longest_backtick_run(text) + 1).max(3));
    let _ = writeln!(out, "{fence}{info}");
    for line in text.lines() {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "{fence}\n");
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Table cells: a pipe would end the cell.
pub fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The formula with one top-level command per line (string literals and quoted
/// symbols are kept whole).
pub fn one_command_per_line(formula: &str) -> String {
    crate::enumeration::declarations::commands(formula).join("\n")
}

/// The command line that runs `solver` on `file` (in the triage folder).
pub fn command_line(solver: &SolverConfig, file: &str) -> String {
    let mut words: Vec<String> = solver.command.iter().map(|w| shell_word(w)).collect();
    match solver.input {
        InputMode::File => words.push(shell_word(file)),
        InputMode::Stdin => words.push(format!("< {}", shell_word(file))),
    }
    words.join(" ")
}

/// `word` as a shell reads it back: quoted when it holds anything but plain characters.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// What the output of `f`'s confirming re-run is said to be under the command above
/// it: that command on the trigger file (the bare formula) is not what the re-run
/// made when `et run`'s call adds a model request or a prelude, and then the label
/// says what the re-run had beside them (its first lines, not all of its output).
fn rerun_label(triage: &Triage, f: &Finding) -> String {
    let Some(solver) = solver_of(triage, f) else {
        return "First lines of the re-run's output".to_string();
    };
    let logic = triage
        .logics
        .get(&f.trigger.row().grammar)
        .and_then(Option::as_deref);
    let mut added = Vec::new();
    if solver.command_with_models().is_some() {
        added.push("the model request".to_string());
    }
    if let Some(prelude) = solver.prelude(logic) {
        added.push(format!("the prelude {}", code(&prelude)));
    }
    if added.is_empty() {
        "First lines of the re-run's output (the command above on the trigger file)".to_string()
    } else {
        format!(
            "First lines of the re-run's output, made as `et run` calls the solver: with {}, \
             which the command and file above leave out",
            added.join(" and ")
        )
    }
}

pub(super) fn solver_of<'t>(triage: &'t Triage, f: &Finding) -> Option<&'t SolverConfig> {
    triage.dirs[f.trigger.dir].solver(&f.trigger.row().solver)
}

/// The group's title: `z3 4.8.5–4.8.7: invalid model (`=`, `mod`)`. A timed
/// regression names the releases it measured: `z3 5.4.0–5.4.1, slower than 5.3.3: ...`
/// (a range at the run's limit moves with formulas near it; the timings do not); a
/// configuration's finding the options it needs: `z3 5.3.3–5.4.1 with `sat.euf=true`: ...`.
pub(super) fn title(triage: &Triage, g: &Group) -> String {
    let reported = &triage.findings[g.reported_member(&triage.findings)];
    let timed = reported.timings.as_ref().and_then(|t| {
        let r = t.newest_regression()?;
        let newest = &t.releases.last()?.version;
        Some(if *newest == r.after.0 {
            format!("{newest}, slower than {}", r.before.0)
        } else {
            format!("{}–{newest}, slower than {}", r.after.0, r.before.0)
        })
    });
    // The report's own formula's range, which its release table shows.
    let range = timed.unwrap_or_else(|| {
        reported
            .range
            .as_ref()
            .map_or_else(String::new, |r| r.describe_short())
    });
    let what = match &g.key.crash_signature {
        Some(signature) => code(signature),
        None => g
            .key
            .operators
            .0
            .iter()
            .map(|o| code(o))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let verdict = match g.key.verdict {
        Verdict::Timeout => " (timeout)",
        Verdict::Unknown => " (unknown)",
        _ => "",
    };
    let what = if what.is_empty() {
        "no operators".to_string()
    } else {
        what
    };
    let fixed = fixed_in(triage, g).map_or_else(String::new, |v| format!(", fixed in {v}"));
    // A configuration's finding is the options' bug: they are named where the default
    // mode does not show it.
    let options = reported
        .options
        .as_ref()
        .filter(|d| !d.needed.is_empty())
        .map_or_else(String::new, |d| {
            let words: Vec<String> = d.needed.iter().map(|w| code(w)).collect();
            format!(" with {}", words.join(" "))
        });
    // A crash is named by where it happens, or by its signal or error line.
    let on = match &g.key.crash_signature {
        Some(signature) if crate::oracle::is_source_location(signature) => format!(" at {what}"),
        Some(_) => format!(" ({what})"),
        None => format!(" on {what}"),
    };
    format!(
        "{} {range}{options}: {}{verdict}{on}{fixed}",
        g.key.family,
        g.key.kind.title()
    )
}

/// For a performance group: the release of the same family that decided its smallest
/// formula, when it is newer than the release that failed (a regression that was
/// fixed).
fn fixed_in<'t>(triage: &'t Triage, g: &Group) -> Option<&'t str> {
    let row = triage.findings[g.members[0]].trigger.row();
    if row.decided_by.is_empty() || row.verdict.is_some_and(Verdict::is_bug) {
        return None;
    }
    let decider = triage.dirs[triage.findings[g.members[0]].trigger.dir].solver(&row.decided_by)?;
    let newer = crate::version::compare_versions(&decider.version, &row.version)
        == std::cmp::Ordering::Greater;
    (decider.family.eq_ignore_ascii_case(&row.family) && newer).then_some(&decider.version)
}

/// The wrong answer in words.
/// Where et's evaluation of the re-run's model found the formula false (the first
/// false sub-formula, with values), when it did.
pub(super) fn model_false_at(f: &Finding) -> Option<&str> {
    match &f.answer().model_check {
        Some(et_eval::ModelCheck::Invalid { explanation }) => Some(explanation),
        _ => None,
    }
}

/// The run's limits for `f`, times `factor`: `2 s of CPU time (10 s wall-clock)`, or
/// `10 s` for a run without a CPU limit (the wall clock is then the limit).
pub(super) fn limits_text(triage: &Triage, f: &Finding, factor: f64) -> String {
    let m = &triage.dirs[f.trigger.dir].manifest;
    let wall = trimmed(m.timeout_s * factor);
    match m.cpu_timeout_s {
        Some(cpu) => format!(
            "{} s of CPU time ({wall} s wall-clock)",
            trimmed(cpu * factor)
        ),
        None => format!("{wall} s"),
    }
}

pub(super) fn wrong_answer(triage: &Triage, f: &Finding) -> String {
    let a = f.answer();
    if let Some(p) = f.pinned_wrong_sat() {
        return format!(
            "{} on the formula above, which is unsatisfiable ({}): the formula et's \
             campaign found with the values of the solver's own model pinned{}",
            code(&a.status.to_string()),
            pinned_unsat_by(p),
            match &p.shrunk {
                Some(s) => format!(
                    ", then shrunk with ground truth ({} step{} of {} tried, each kept only \
                     while the solver answered `sat` and the formula stayed unsatisfiable)",
                    s.steps,
                    plural(s.steps),
                    s.tried
                ),
                None => String::new(),
            }
        );
    }
    match f.kind {
        Kind::RefutationalSoundness | Kind::SolutionSoundness => code(&a.status.to_string()),
        Kind::InvalidModel => format!(
            "{} with a model that does not satisfy the formula",
            code("sat")
        ),
        Kind::Crash => format!(
            "a crash: {}",
            code(f.crash_signature.as_deref().unwrap_or("(no signature)"))
        ),
        Kind::ValidatorFalseAlarm => format!(
            "{} with a model that satisfies the formula, which its own model validation rejects",
            code("sat")
        ),
        Kind::Performance => {
            let status = a.status.to_string();
            if f.confirmation.outcome == Outcome::Confirmed {
                format!(
                    "{}, also when re-run with {} ({}× the run's limits)",
                    code(&status),
                    limits_text(triage, f, triage.settings.performance_factor),
                    trimmed(triage.settings.performance_factor)
                )
            } else if f.confirmation.attempts == 0 {
                format!("{} (as the run observed it; not re-run)", code(&status))
            } else {
                format!(
                    "{} (the verdict showed in {} of {} re-runs)",
                    code(&status),
                    f.confirmation.reproduced,
                    f.confirmation.attempts
                )
            }
        }
    }
}

/// A version range as a table: each installed release, oldest first, whether it shows
/// the finding and what it answered.
pub(super) fn range_table(out: &mut String, family: &str, range: &super::range::ReleaseTable) {
    let _ = writeln!(out, "| release | shows it | answer |\n|---|---|---|");
    for v in &range.versions {
        let shows = match v.affected {
            Some(true) => "yes",
            Some(false) => "no",
            None if v.refused_option => "refuses the option",
            None => "could not run",
        };
        let _ = writeln!(
            out,
            "| {} | {shows} | {} |",
            release_label(family, &v.version, &v.solver),
            cell(&v.answer)
        );
    }
    let _ = writeln!(out);
}

/// A release in a table: its version, and the pool's name for it when that is not
/// `FAMILY-VERSION` — a local build such as a development head (`et solvers add
/// --name yices-head-84efa927`) says which build it is.
pub(super) fn release_label(family: &str, version: &str, solver: &str) -> String {
    if solver.eq_ignore_ascii_case(&format!("{family}-{version}")) {
        cell(version)
    } else {
        format!("{} (`{solver}`)", cell(version))
    }
}

/// How a timeout or `unknown` was shrunk beyond the grammar, in words (lower case).
pub(super) fn shrunk_performance_text(
    triage: &Triage,
    s: &super::minimize_performance::ShrunkPerformance,
) -> String {
    let failed = if s.status == Status::Unknown {
        "answered `unknown`"
    } else {
        "timed out"
    };
    format!(
        "shrunk beyond the grammar ({} step{} of {} tried, each kept only while the solver \
         {failed} at the run's limits and at {}× them, and the reference or et's witness \
         decided the formula within the run's limits)",
        s.steps,
        plural(s.steps),
        s.tried,
        trimmed(triage.settings.performance_factor.max(1.0))
    )
}

/// What the solver answered with et's witness pinned, and what that says, in words.
pub(super) fn witness_pinned_text(
    triage: &Triage,
    f: &Finding,
    p: &super::pin::PinnedWitness,
) -> String {
    let factor = if f.kind == Kind::Performance {
        triage.settings.performance_factor.max(1.0)
    } else {
        1.0
    };
    let means = match p.answer.status {
        Status::Sat => "it decides the formula once the values are given: what it fails at is \
                        finding them"
            .to_string(),
        Status::Unsat => "a wrong `unsat`: the pinned formula is satisfiable by et's \
                          evaluation alone"
            .to_string(),
        Status::Timeout | Status::Unknown => "it cannot decide a formula with nothing left \
                                              to search, so the trouble is not the search for \
                                              values"
            .to_string(),
        other => format!("it ends with {}", code(&other.to_string())),
    };
    format!(
        "with each constant asserted equal to its value in et's witness (the formula's one \
         candidate assignment, under which et's evaluation finds it true: satisfiable with \
         no solver needed), `{}` answers {} ({:.2} s; limit {}): {means}",
        f.trigger.row().solver,
        code(&p.answer.describe()),
        p.answer.time_s,
        limits_text(triage, f, factor)
    )
}

/// `text` with its first letter in upper case.
pub(super) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

pub(super) fn trimmed(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The expected answer and how it is known.
/// Why a pinned formula is unsatisfiable, in words.
pub(super) fn pinned_unsat_by(p: &super::pin::Pinned) -> String {
    match &p.reported_unsat_by() {
        super::pin::UnsatBy::Evaluation => {
            "every constant is pinned, and et's evaluation finds the formula false under \
             those values: its one candidate assignment"
                .into()
        }
        super::pin::UnsatBy::Solver(name) => format!(
            "the array entries the model does not list stay free; et's evaluation finds the \
             formula false under the model, and {} answers `unsat` on the pinned formula",
            code(name)
        ),
    }
}

/// What the run observed of the formula's other answers, and what the re-run for this
/// report saw, each named by the solver that gave it: `in the run, the reference
/// `cvc5-1.4.2` answered `timeout` and `z3-5.3.3` decided it in 0.12 s; re-run,
/// `z3-5.3.3` answers `sat` (0.11 s)`. `None` when no other solver was involved.
pub(super) fn observed(f: &Finding) -> Option<String> {
    let row = f.trigger.row();
    let mut seen: Vec<String> = Vec::new();
    let time = row
        .decided_s
        .map_or_else(String::new, |s| format!(" in {s:.2} s"));
    if !row.reference.is_empty() {
        let answered = row
            .reference_status
            .map_or_else(|| "nothing".to_string(), |s| s.to_string());
        let decided_it = if row.decided_by == row.reference {
            time.clone()
        } else {
            String::new()
        };
        seen.push(format!(
            "the reference {} answered {}{decided_it}",
            code(&row.reference),
            code(&answered)
        ));
    }
    if !row.decided_by.is_empty() && row.decided_by != row.reference {
        seen.push(format!("{} decided it{time}", code(&row.decided_by)));
    }
    // The run saw the formula as found; a shrunk finding's re-run is of the formula
    // the report shows.
    let (in_the_run, re_run) = if f.shrunk_performance().is_some() {
        (
            "in the run, on the formula as found,",
            "on the shrunk formula above,",
        )
    } else {
        ("in the run,", "re-run for this report,")
    };
    let mut text = if seen.is_empty() {
        String::new()
    } else {
        format!("{in_the_run} {}", seen.join(" and "))
    };
    if let Some(r) = &f.confirmation.reference {
        if !text.is_empty() {
            text.push_str("; ");
        }
        text.push_str(&format!(
            "{re_run} {} answers {} ({:.2} s)",
            code(f.trigger.judge_name()),
            code(&r.describe()),
            r.time_s
        ));
    }
    (!text.is_empty()).then_some(text)
}

pub(super) fn expected_answer(f: &Finding) -> (String, String) {
    if let Some(p) = f.pinned_wrong_sat() {
        let known = match &p.reported_unsat_by() {
            super::pin::UnsatBy::Evaluation => format!(
                "et's own evaluation, no other solver: the formula has one candidate \
                 assignment (its pinned values), and it is false under it at {}",
                code(p.reported_false_at())
            ),
            super::pin::UnsatBy::Solver(name) => format!(
                "{} answers `unsat` on it; et's evaluation finds it false under the model at {}",
                code(name),
                code(p.reported_false_at())
            ),
        };
        return (code("unsat").to_string(), known);
    }
    let reference_says = |none: &str| observed(f).unwrap_or_else(|| none.to_string());
    let known_by = |default: &str| match f.trigger.row().evidence {
        Some(Evidence::Witness) => {
            "a witness: et found an assignment that satisfies the formula".to_string()
        }
        Some(Evidence::Model) => {
            "et's own model check: it evaluated the formula under the model".into()
        }
        Some(Evidence::SelfCheck) => "the solver's own self-check".into(),
        Some(Evidence::Reference) => "the reference solver's answer".into(),
        Some(Evidence::Pool) => {
            "another solver of the pool, which decided the formula (the reference did not)".into()
        }
        None => default.to_string(),
    };
    match f.kind {
        Kind::RefutationalSoundness | Kind::SolutionSoundness => {
            let expected = if f.kind == Kind::RefutationalSoundness {
                "sat"
            } else {
                "unsat"
            };
            (
                format!(
                    "{}: {}",
                    code(expected),
                    reference_says("no reference answer")
                ),
                known_by("the reference solver's answer"),
            )
        }
        Kind::InvalidModel => {
            (
                format!(
                    "a model that satisfies the formula; {}",
                    reference_says("no reference was run")
                ),
                if f.model_checked() {
                    known_by("et's own model check")
                } else {
                    known_by("the solver's own model validation (self-check) rejected the model it printed")
                },
            )
        }
        Kind::Crash => (
            format!("an answer; {}", reference_says("no reference was run")),
            "the crash itself".to_string(),
        ),
        Kind::ValidatorFalseAlarm => (
            "the solver's validator accepts the model: it satisfies the formula".to_string(),
            "et's own model check: it evaluated the formula under the model the solver printed, and the formula is true".into(),
        ),
        Kind::Performance => (
            format!(
                "an answer within the run's timeout; {}",
                reference_says("no reference")
            ),
            known_by("the reference solver decided it within the run's timeout"),
        ),
    }
}

/// How a group's members fared when re-run, in words.
fn confirmation_counts(g: &Group) -> String {
    let mut text = if g.flaky == 0 {
        "all confirmed".to_string()
    } else if g.confirmed == 0 {
        "**flaky**: none reproduced in every re-run".to_string()
    } else {
        format!("{} confirmed, {} flaky", g.confirmed, g.flaky)
    };
    if g.not_rerun > 0 {
        if g.flaky == 0 {
            text = format!("{} confirmed", g.confirmed);
        }
        text.push_str(&format!(
            ", {} not re-run (as the run observed them)",
            g.not_rerun
        ));
    }
    text
}

pub(super) fn confirmation_text(triage: &Triage, f: &Finding) -> String {
    let c = &f.confirmation;
    match (c.outcome, f.trigger.verdict().is_bug()) {
        (Outcome::Confirmed, true) => format!(
            "confirmed: the verdict showed in {} of {} re-runs (fresh processes, the run's limits)",
            c.reproduced, c.attempts
        ),
        (Outcome::Confirmed, false) => format!(
            "confirmed: still {} with {}, while {}{}",
            f.answer().status,
            limits_text(triage, f, triage.settings.performance_factor),
            // What held on the re-run: the reference deciding within the run's limits,
            // else et's witness (confirmation needs one of them), whatever the run's
            // row was judged by.
            match &c.reference {
                Some(r) if r.judging_status().is_some() => format!(
                    "the reference decides it within the run's {}",
                    limits_text(triage, f, 1.0)
                ),
                Some(r) => format!(
                    "et's witness shows the formula satisfiable (the reference, re-run at \
                     the run's limits, answered {} this time)",
                    r.describe()
                ),
                None => "et's witness shows the formula satisfiable".to_string(),
            },
            unchecked_text(triage, f).map_or_else(String::new, |t| format!("; {t}"))
        ),
        (Outcome::NotRerun, _) => format!(
            "not re-run (smaller formulas of its candidate group were): the run's call, \
             in a fresh process, answered {} in {:.2} s",
            f.trigger.row().status,
            f.trigger.row().time_s
        ),
        (_, _) => format!(
            "**flaky**: {}",
            c.note.as_deref().unwrap_or("did not reproduce")
        ),
    }
}

/// What the re-run of a confirmed performance finding without the solver's answer
/// checks showed, in words; `None` when there was none.
fn unchecked_text(triage: &Triage, f: &Finding) -> Option<String> {
    let answer = f.confirmation.unchecked.as_ref()?;
    let checks: Vec<String> = solver_of(triage, f)
        .map(|s| s.answer_checks().into_iter().map(code).collect())
        .unwrap_or_default();
    let without = format!("without its answer checks ({})", checks.join(" "));
    let limits = limits_text(triage, f, 1.0);
    Some(if answer.status.is_decided() {
        format!(
            "{without} it answers {} in {:.2} s, within the run's {limits}: it is slow only \
             while it checks its answer",
            code(&answer.describe()),
            answer.time_s
        )
    } else if answer.status == Status::Timeout {
        format!(
            "{without} it still times out at the run's {limits}: the checks are not what is slow"
        )
    } else {
        format!(
            "{without} it still answers {} ({:.2} s): the checks are not the cause",
            code(&answer.describe()),
            answer.time_s
        )
    })
}

/// `unsat in 1.23 s`: a re-run's answer and time for the CSV, empty when there was none.
fn answer_in(answer: Option<&Answer>) -> String {
    answer.map_or_else(String::new, |a| {
        format!("{} in {:.2} s", a.describe(), a.time_s)
    })
}

fn describe_dir(out: &mut String, d: &RunDirectory) {
    let m = &d.manifest;
    let solvers = solvers_of_run(&m.solvers);
    let _ = writeln!(
        out,
        "- {}: grammar {}, {} formulas from index {}{}, timeout {} s{}, solvers {}",
        code(&d.path.display().to_string()),
        code(&m.grammar),
        m.n,
        m.start,
        m.shard
            .as_ref()
            .map_or_else(String::new, |s| format!(" (shard {s})")),
        trimmed(m.timeout_s),
        m.memory_mb
            .map_or_else(String::new, |mb| format!(", memory {mb} MiB")),
        solvers
    );
}

/// The solvers of a run, in words: every name, unless it ran more option
/// configurations than a reader can take in a line (a single-option run has hundreds):
/// then the other solvers by name and the configurations counted per solver they
/// configure, their names and options being in the run's `run.toml`.
fn solvers_of_run(solvers: &[ManifestSolver]) -> String {
    const NAMED: usize = 12;
    let configurations = solvers
        .iter()
        .filter(|s| s.configuration_of.is_some())
        .count();
    if configurations <= NAMED {
        return solvers
            .iter()
            .map(|s| code(&s.name))
            .collect::<Vec<_>>()
            .join(", ");
    }
    let mut per_base: Vec<(&str, usize)> = Vec::new();
    for s in solvers {
        if let Some(base) = &s.configuration_of {
            match per_base.iter_mut().find(|(of, _)| of == base) {
                Some((_, n)) => *n += 1,
                None => per_base.push((base, 1)),
            }
        }
    }
    let named: Vec<String> = solvers
        .iter()
        .filter(|s| s.configuration_of.is_none())
        .map(|s| code(&s.name))
        .collect();
    let counted: Vec<String> = per_base
        .iter()
        .map(|(of, n)| format!("{n} of {}", code(of)))
        .collect();
    format!(
        "{}{}{configurations} option configurations ({}; each named, with its options, in the run's `run.toml`)",
        named.join(", "),
        if named.is_empty() { "" } else { " and " },
        counted.join(", ")
    )
}

/// `report.md`.
pub fn markdown(triage: &Triage) -> String {
    let mut out = String::new();
    let findings = &triage.findings;
    let _ = writeln!(
        out,
        "# et triage: {} bug group{} from {} trigger{}\n",
        triage.groups.len(),
        plural(triage.groups.len()),
        findings.len(),
        plural(findings.len())
    );
    let _ = writeln!(out, "**{}.**\n", super::bug_reports::headline(triage));
    let _ = writeln!(out, "Run directories:\n");
    for d in &triage.dirs {
        describe_dir(&mut out, d);
    }
    let _ = writeln!(out);
    how_triaged(&mut out, triage);
    summary_table(&mut out, triage);
    notes(&mut out, triage);
    for g in &triage.groups {
        section(&mut out, triage, g);
    }
    undecided_section(&mut out, triage);
    out
}

/// How many confirmed correctness triggers were re-run without the declarations they
/// do not use, and kept so, in words ("" for none).
fn trimmed_text(findings: &[Finding]) -> String {
    let tried = findings.iter().filter(|f| f.trimmed.is_some()).count();
    if tried == 0 {
        return String::new();
    }
    let kept = findings.iter().filter(|f| f.trimmed().is_some()).count();
    format!(
        ", and so again on its formula without the declarations of the constants it does \
         not use when it had any ({tried} confirmed triggers; {kept} confirmed so, ranged \
         and reported without them)"
    )
}

/// How the triggers were re-run, ranged and grouped: one paragraph.
fn how_triaged(out: &mut String, triage: &Triage) {
    let findings = &triage.findings;
    let _ = writeln!(
        out,
        "Every correctness trigger was re-run {} times (solver and reference, fresh \
         processes, the run's limits){}; {} once at {}× the run's \
         timeout, kept only while the reference still decides the formula within the \
         run's timeout. Version ranges: {} run on each installed release of its family \
         (the runs' solvers{}){}. Groups share family, kind, version range and operators \
         (crashes: the crash signature); groups that share a formula, or whose formulas \
         shrunk beyond the grammar (wrong `sat`s with ground truth; each reported timeout \
         or `unknown`, a step kept only while it still fails so at that longer limit and \
         the reference decides within the run's) coincide up to names and constants, are one root cause, \
         and so are groups whose (shrunk) formulas apply the same operators beside the \
         Boolean skeleton and the comparisons, on the same releases; {} solver calls in \
         all{}.\n",
        triage.settings.attempts,
        trimmed_text(findings),
        match triage.settings.performance_formulas {
            None => "every performance trigger".to_string(),
            Some(n) => format!(
                "performance triggers — the {n} smallest of each candidate group (one \
                 solver, verdict and operators) that the reference still decides, the \
                 others ({not_rerun}) standing as the run observed them, in a fresh \
                 process (`not_rerun` in `triggers.csv`) —",
                not_rerun = findings
                    .iter()
                    .filter(|f| f.confirmation.outcome == Outcome::NotRerun)
                    .count()
            ),
        },
        trimmed(triage.settings.performance_factor),
        match triage.ranged {
            None => "every trigger was".to_string(),
            Some(1) => "the triggers of the smallest formula of each candidate group (one \
                        solver, kind, verdict and operator or crash signature) were"
                .to_string(),
            Some(n) => format!(
                "the triggers of the {n} smallest formulas of each candidate group (one \
                 solver, kind, verdict and operator or crash signature) were"
            ),
        },
        triage
            .pool_file
            .as_ref()
            .map_or_else(String::new, |p| format!(
                " and the pool {}",
                code(&p.display().to_string())
            )),
        if triage.ranged.is_some() {
            "; the others share the range of their candidate group's smallest, and \
             `triggers.csv` says which (`range_measured`)"
        } else {
            ""
        },
        triage.calls,
        if triage.replayed > 0 {
            format!(
                " ({} of them answered from the journal of an earlier run, which made them \
                 with the same solvers, formulas and limits)",
                triage.replayed
            )
        } else {
            String::new()
        }
    );
}

/// The groups, one row each, worst first.
fn summary_table(out: &mut String, triage: &Triage) {
    let findings = &triage.findings;
    if triage.groups.is_empty() {
        let _ = writeln!(
            out,
            "No bug groups: the runs hold no trigger that was kept.\n"
        );
    } else {
        let _ = writeln!(
            out,
            "| rank | kind | family | versions | operators or crash | triggers | formulas | status |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|");
        for g in &triage.groups {
            let smallest = g.smallest(findings);
            let range = smallest
                .range
                .as_ref()
                .map_or_else(String::new, |r| r.describe());
            let what = match &g.key.crash_signature {
                Some(s) => code(s),
                None => code(&g.key.operators.describe()),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                g.rank,
                g.key.kind.title(),
                cell(&g.key.family),
                cell(&range),
                cell(&what),
                g.members.len(),
                g.formulas,
                match &g.known {
                    Some(k) => format!("{}; known: {}", g.outcome().label(), cell(&k.issue)),
                    None => g.outcome().label().to_string(),
                }
            );
        }
        let _ = writeln!(out);
    }
}

/// What the summary says of the groups as a whole: the reports to file, the dropped
/// triggers, and the groups that rank low and why.
fn notes(out: &mut String, triage: &Triage) {
    let dropped = triage
        .findings
        .iter()
        .filter(|f| f.confirmation.outcome == Outcome::Dropped)
        .count();
    let to_file: Vec<String> = super::bug_reports::reported(triage)
        .map(|g| g.rank.to_string())
        .collect();
    if !to_file.is_empty() {
        let _ = writeln!(
            out,
            "Reports to file (confirmed, and shown by the newest installed release of the \
             family), one per group in `{}/`, each reproducible with the solver alone: \
             rank{} {}.\n",
            super::bug_reports::FOLDER,
            if to_file.len() == 1 { "" } else { "s" },
            to_file.join(", ")
        );
    }
    let left: usize = triage.left_to_default_modes.values().sum();
    if left > 0 {
        let each: Vec<String> = triage
            .left_to_default_modes
            .iter()
            .map(|(solver, n)| format!("{} {n}", code(solver)))
            .collect();
        let _ = writeln!(
            out,
            "Left to the default mode: {left} trigger{} of option configurations whose \
             default mode (the same release without the options) shows the same verdict \
             on the same formula in the same run — its finding, seen again, which its own \
             trigger stands for (they are in no group and not in `triggers.csv`): {}.\n",
            plural(left),
            each.join(", ")
        );
    }
    if dropped > 0 {
        let _ = writeln!(
            out,
            "Dropped: {dropped} performance trigger{} whose reference no longer decides the \
             formula within the run's timeout (listed in `triggers.csv`).\n",
            plural(dropped)
        );
    }
    let ranks = |pick: fn(&Group) -> bool| -> Option<(&str, String)> {
        let ranks: Vec<String> = triage
            .groups
            .iter()
            .filter(|g| pick(g))
            .map(|g| g.rank.to_string())
            .collect();
        (!ranks.is_empty()).then(|| (plural(ranks.len()), ranks.join(", ")))
    };
    if let Some((s, ranks)) = ranks(|g| g.slow_only_with_checks) {
        let _ = writeln!(
            out,
            "Slow only while checking: the solver of performance group{s} {ranks} decides \
             the formula within the run's limits once its answer checks (model and \
             unsat-core validation) are off; such groups rank after the other performance \
             groups.\n"
        );
    }
    if let Some((s, ranks)) = ranks(|g| g.gives_up_always) {
        let _ = writeln!(
            out,
            "Given up in every release: every installed release that ran the smallest \
             formula of group{s} {ranks} fails to decide it (answers `unknown`, or some \
             run out of time where the others give up) — a limitation the family has \
             always had rather than a regression; such groups rank after the other \
             performance groups.\n"
        );
    }
    if let Some((s, ranks)) = ranks(|g| g.long_standing) {
        let _ = writeln!(
            out,
            "Long-standing: every installed release that ran the smallest formula of \
             group{s} {ranks} fails to decide it (times out, or some give up with `unknown` \
             where the others time out) — a failure the family has always had rather than a \
             regression; such groups rank after the regressions.\n"
        );
    }
}

/// Formulas nobody decided: a performance finding of every solver that ran on them,
/// the smallest first, with what the retry at the longer limit found.
fn undecided_section(out: &mut String, triage: &Triage) {
    if triage.undecided.is_empty() {
        return;
    }
    let retried = triage
        .undecided
        .iter()
        .filter(|u| u.retry.is_some())
        .count();
    let _ = writeln!(
        out,
        "## Formulas nobody decided\n\n{} formula{} that no solver of the pool decided and \
         no witness of et's proves sat (the runs' `undecided.csv`): a performance finding \
         of every solver that ran on {}. The {retried} smallest (up to {} per grammar) \
         were tried again by each of those solvers at {}× the run's timeout: *slow* when \
         one decided it then, *hopeless* when none did, *starved* when none did and \
         some solver got no CPU to compute with (stopped by the wall clock, twice, \
         before it used its CPU budget).\n",
        triage.undecided.len(),
        plural(triage.undecided.len()),
        if triage.undecided.len() == 1 {
            "it"
        } else {
            "them"
        },
        super::undecided::RETRIED_PER_GRAMMAR,
        trimmed(triage.settings.performance_factor),
    );
    let _ = writeln!(
        out,
        "| grammar | index | size | formula | in the run | retried |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for u in triage.undecided.iter().filter(|u| u.retry.is_some()) {
        let answers: Vec<String> = u.answers.iter().map(|(s, a)| format!("{s} {a}")).collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            u.grammar,
            u.index,
            u.size,
            code(&u.formula),
            answers.join(", "),
            retry_text(u.retry.as_ref())
        );
    }
    let _ = writeln!(out);
}

/// What a retry found, in words: `slow: z3-4.16.0 sat in 3.20 s`, `hopeless`.
fn retry_text(retry: Option<&super::undecided::Retry>) -> String {
    use super::undecided::Retry;
    match retry {
        Some(Retry::Slow {
            solver,
            status,
            seconds,
        }) => format!("slow: {solver} {status} in {seconds:.2} s"),
        Some(Retry::Hopeless) => "hopeless".to_string(),
        Some(Retry::Starved) => "starved (the machine was too busy to tell)".to_string(),
        None => String::new(),
    }
}

/// The columns of the triage's `undecided.csv`.
const UNDECIDED_COLUMNS: &[&str] = &["grammar", "index", "size", "answers", "retry", "formula"];

/// Every formula nobody decided, with what its retry found (empty when not retried).
fn undecided_csv(triage: &Triage) -> Result<Vec<u8>, TriageError> {
    let rows = triage.undecided.iter().map(|u| {
        let answers: Vec<String> = u.answers.iter().map(|(s, a)| format!("{s} {a}")).collect();
        vec![
            u.grammar.clone(),
            u.index.clone(),
            u.size.to_string(),
            answers.join("; "),
            retry_text(u.retry.as_ref()),
            u.formula.clone(),
        ]
    });
    csv_bytes(UNDECIDED_COLUMNS, rows)
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn section(out: &mut String, triage: &Triage, g: &Group) {
    let findings = &triage.findings;
    let f = g.smallest(findings);
    let t = &f.trigger;
    let _ = writeln!(out, "## {}. {}\n", g.rank, title(triage, g));
    if let Some(k) = &g.known {
        let _ = writeln!(
            out,
            "**Known:** {} — read in {}. Not a report to file.\n",
            k.describe(),
            k.read
        );
    }
    let _ = writeln!(
        out,
        "{} {}: {}. {} trigger{} ({} formula{}); {}.\n",
        code(&g.key.family),
        f.range.as_ref().map_or_else(String::new, |r| r.describe()),
        g.key.kind.meaning(),
        g.members.len(),
        plural(g.members.len()),
        g.formulas,
        plural(g.formulas),
        confirmation_counts(g)
    );
    let _ = writeln!(
        out,
        "**Smallest trigger** (grammar {}, index {}, size {}, found on {}):\n",
        code(&t.row().grammar),
        t.row().index,
        t.row().size,
        code(&t.row().solver)
    );
    if let Some(shrunk) = f.shrunk_performance() {
        let _ = writeln!(
            out,
            "{}:\n",
            capitalized(&shrunk_performance_text(triage, shrunk))
        );
    }
    if let Some(t) = f.trimmed() {
        let _ = writeln!(
            out,
            "Declaring only the constants and functions it uses ({}):\n",
            t.describe()
        );
    }
    code_block(out, "smt2", &one_command_per_line(&f.formula));
    if let Some(shrunk) = f.shrunk_performance() {
        let _ = writeln!(out, "As found:\n");
        code_block(out, "smt2", &one_command_per_line(&shrunk.original));
    }
    if let Some(solver) = solver_of(triage, f) {
        let _ = writeln!(
            out,
            "**Command** ({} {}, run in the `triage` folder):\n",
            cell(&solver.family),
            cell(&solver.version)
        );
        code_block(out, "sh", &command_line(solver, &trigger_file(g)));
    }
    // A performance finding's answer is not wrong: it is slow, or gives up.
    let label = if f.kind == Kind::Performance {
        "Answer"
    } else {
        "Wrong answer"
    };
    let _ = writeln!(out, "**{label}:** {}.\n", wrong_answer(triage, f));
    if !f.answer().excerpt.is_empty() {
        let _ = writeln!(out, "{}:\n", rerun_label(triage, f));
        code_block(out, "", &f.answer().excerpt);
    }
    if let Some(p) = f.pinned_wrong_sat() {
        let _ = writeln!(
            out,
            "**Found as an invalid model:** on the formula et's campaign found (below), the \
             solver answers `sat` with a model under which et's evaluation finds it false at \
             {}; pinned to that model's values, it still answers `sat`.\n",
            code(&p.formula.false_at)
        );
        code_block(out, "smt2", &one_command_per_line(&p.original));
        if p.shrunk.is_some() {
            let _ = writeln!(out, "The pinned formula, before shrinking:\n");
            code_block(out, "smt2", &p.formula.text);
        }
    } else if let Some(false_at) = model_false_at(f) {
        let _ = writeln!(
            out,
            "**et's model check:** the formula is false under this model at {}.\n",
            code(false_at)
        );
    }
    if let Some(p) = f.pinned.as_ref().filter(|p| !p.wrong_sat()) {
        let _ = writeln!(
            out,
            "**Pinned:** with the model's values pinned, the solver answers {}: its answer \
             holds, the model it prints is what is wrong.\n",
            code(&p.answer.describe())
        );
    }
    let (expected, known) = expected_answer(f);
    let _ = writeln!(out, "**Expected answer:** {expected}.\n");
    let _ = writeln!(out, "**How the expected answer is known:** {known}.\n");
    let _ = writeln!(out, "**Confirmation:** {}.\n", confirmation_text(triage, f));
    if let Some(p) = &f.witness_pinned {
        let _ = writeln!(
            out,
            "**With et's witness pinned:** {}.\n",
            witness_pinned_text(triage, f, p)
        );
    }
    if let Some(range) = &f.range {
        let _ = writeln!(
            out,
            "**Affected versions:** {} (of the installed {} releases, oldest first):\n",
            range.describe(),
            code(&g.key.family)
        );
        range_table(out, &g.key.family, range);
    }
    if let Some((count, list)) = other_triggers(findings, g, f) {
        let _ = writeln!(
            out,
            "**Other triggers** ({count} more formula{}; every trigger is in `triggers.csv`):\n\n{list}",
            plural(count),
        );
    }
}

/// The group's formulas other than `shown`'s, smallest first, as a Markdown list: the
/// first [`OTHER_TRIGGERS_SHOWN`] with the solvers each triggered (flaky ones marked),
/// then how many more; with their count, or `None` when there is no other.
pub(super) fn other_triggers(
    findings: &[Finding],
    g: &Group,
    shown: &Finding,
) -> Option<(usize, String)> {
    let others = other_formulas(findings, g, shown);
    if others.is_empty() {
        return None;
    }
    let mut list = String::new();
    let assertions = |formula: &str| {
        let from = formula.find("(assert").map_or(formula, |i| &formula[i..]);
        code(from.strip_suffix("(check-sat)").unwrap_or(from).trim())
    };
    for (o, solvers) in others.iter().take(OTHER_TRIGGERS_SHOWN) {
        // The grammar's formula at that index; a shrunk finding also says what it
        // shrank to.
        let text = match o.shrunk_performance() {
            Some(s) => format!(
                "{}, shrunk to {}",
                assertions(&s.original),
                assertions(&o.formula)
            ),
            None => assertions(&o.formula),
        };
        let solvers: Vec<String> = solvers.iter().map(|s| code(s)).collect();
        let _ = writeln!(
            list,
            "- {} index {} on {}: {text}",
            code(&o.trigger.row().grammar),
            o.trigger.row().index,
            solvers.join(", "),
        );
    }
    if others.len() > OTHER_TRIGGERS_SHOWN {
        let _ = writeln!(list, "- and {} more", others.len() - OTHER_TRIGGERS_SHOWN);
    }
    Some((others.len(), list))
}

/// Whether two findings are on the same formula (grammar and index), whichever solvers
/// they were found on.
pub(super) fn same_formula(a: &Finding, b: &Finding) -> bool {
    let (a, b) = (a.trigger.row(), b.trigger.row());
    (&a.grammar, &a.index) == (&b.grammar, &b.index)
}

/// The group's formulas other than `shown`'s, smallest first, each with the solvers it
/// triggered (flaky ones marked).
fn other_formulas<'f>(
    findings: &'f [Finding],
    g: &Group,
    shown: &Finding,
) -> Vec<(&'f Finding, Vec<String>)> {
    let mut out: Vec<(&Finding, Vec<String>)> = Vec::new();
    let mut position: HashMap<(&str, &str), usize> = HashMap::new();
    for &i in &g.members {
        let f = &findings[i];
        let t = &f.trigger;
        if same_formula(f, shown) {
            continue;
        }
        let name = if f.confirmation.outcome == Outcome::Flaky {
            format!("{} (flaky)", t.row().solver)
        } else {
            t.row().solver.clone()
        };
        match position.get(&(t.row().grammar.as_str(), t.row().index.as_str())) {
            Some(&k) => out[k].1.push(name),
            None => {
                position.insert(
                    (t.row().grammar.as_str(), t.row().index.as_str()),
                    out.len(),
                );
                out.push((f, vec![name]));
            }
        }
    }
    out
}

/// The columns of `groups.csv`.
pub const GROUP_COLUMNS: &[&str] = &[
    "rank",
    "kind",
    "verdict",
    "family",
    "first_version",
    "last_version",
    "affected_versions",
    "affects_newest",
    "operators",
    "crash_signature",
    "triggers",
    "formulas",
    "confirmed",
    "flaky",
    "not_rerun",
    "status",
    "grammar",
    "index",
    "size",
    "solver",
    "formula",
    "wrong_answer",
    "expected_answer",
    "evidence",
    "command",
    "other_indices",
    "known",
    "root_cause",
    "regression",
    "newest_answer",
    "reported",
];

/// The timings of a group's reported formula, if it was timed.
fn timings_of<'f>(findings: &'f [Finding], g: &Group) -> Option<&'f super::timing::Timings> {
    g.members.iter().find_map(|&i| findings[i].timings.as_ref())
}

/// What kind of root cause a group is, in the words a hunt's table uses: soundness,
/// invalid model (or model printing, when the solver does not call the pinned formula
/// `sat`), crash, validator false alarm, and for performance: a regression (a timed
/// 5× jump), long-standing, a limitation (`unknown` in every release), or plain.
pub fn root_cause(findings: &[Finding], g: &Group) -> &'static str {
    match g.key.kind {
        Kind::RefutationalSoundness | Kind::SolutionSoundness => "soundness",
        Kind::InvalidModel => {
            let printing = g
                .members
                .iter()
                .any(|&i| findings[i].pinned.as_ref().is_some_and(|p| !p.wrong_sat()));
            if printing {
                "model printing"
            } else {
                "invalid model"
            }
        }
        Kind::Crash => "crash",
        Kind::ValidatorFalseAlarm => "validator false alarm",
        Kind::Performance if g.gives_up_always => "limitation",
        Kind::Performance if g.long_standing => "long-standing performance",
        Kind::Performance => match timings_of(findings, g) {
            Some(t) if t.newest_regression().is_some() => "performance regression",
            Some(_) => "performance, no 5x jump",
            None => "performance",
        },
    }
}

fn csv_bytes(
    header: &[&str],
    rows: impl Iterator<Item = Vec<String>>,
) -> Result<Vec<u8>, TriageError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let to_io = |e: csv::Error| TriageError::io(Path::new("groups.csv"), std::io::Error::other(e));
    w.write_record(header).map_err(to_io)?;
    for row in rows {
        w.write_record(&row).map_err(to_io)?;
    }
    w.into_inner().map_err(|e| {
        TriageError::io(
            Path::new("groups.csv"),
            std::io::Error::other(e.to_string()),
        )
    })
}

/// The evidence label of a finding: the `evidence` column (or, for runs without it,
/// what the verdict implies), else what the finding rests on.
pub fn evidence(f: &Finding) -> String {
    if f.pinned_wrong_sat().is_some() {
        return "pinned-model".into();
    }
    if let Some(e) = f.trigger.row().evidence {
        return e.label().to_string();
    }
    match f.kind {
        Kind::RefutationalSoundness | Kind::SolutionSoundness | Kind::Performance => {
            "reference".into()
        }
        Kind::InvalidModel => "self-check".into(),
        Kind::ValidatorFalseAlarm => "model".into(),
        Kind::Crash => String::new(),
    }
}

fn groups_csv(triage: &Triage) -> Result<Vec<u8>, TriageError> {
    let findings = &triage.findings;
    let rows = triage.groups.iter().map(|g| {
        let f = g.smallest(findings);
        let range = f.range.as_ref();
        let affected: Vec<&str> = range.map_or_else(Vec::new, |r| r.affected().collect());
        let others: Vec<String> = other_formulas(findings, g, f)
            .iter()
            .take(OTHER_TRIGGERS_SHOWN)
            .map(|(o, _)| o.trigger.row().index.clone())
            .collect();
        let expected = expected_answer(f).0.replace('`', "");
        vec![
            g.rank.to_string(),
            g.key.kind.label().to_string(),
            g.key.verdict.label().to_string(),
            g.key.family.clone(),
            g.key.first.clone(),
            g.key.last.clone(),
            affected.join(" "),
            g.affects_newest.to_string(),
            g.key.operators.to_string(),
            g.key.crash_signature.clone().unwrap_or_default(),
            g.members.len().to_string(),
            g.formulas.to_string(),
            g.confirmed.to_string(),
            g.flaky.to_string(),
            g.not_rerun.to_string(),
            g.outcome().label().to_string(),
            f.trigger.row().grammar.clone(),
            f.trigger.row().index.clone(),
            f.trigger.row().size.to_string(),
            f.trigger.row().solver.clone(),
            f.formula.clone(),
            f.answer().describe(),
            expected,
            evidence(f),
            solver_of(triage, f).map_or_else(String::new, |s| command_line(s, &trigger_file(g))),
            others.join(" "),
            g.known.as_ref().map_or_else(String::new, |k| k.describe()),
            root_cause(findings, g).to_string(),
            timings_of(findings, g)
                .and_then(|t| {
                    let unit = t.work.map_or("work", |w| w.limit);
                    t.newest_regression().map(|r| r.describe(unit))
                })
                .unwrap_or_default(),
            range
                .and_then(|r| r.versions.last())
                .map_or_else(String::new, |v| format!("{}: {}", v.solver, v.answer)),
            super::bug_reports::is_reported(g).to_string(),
        ]
    });
    csv_bytes(GROUP_COLUMNS, rows)
}

/// The columns of `triggers.csv`.
pub const TRIGGER_COLUMNS: &[&str] = &[
    "group",
    "outcome",
    "reproduced",
    "attempts",
    "dir",
    "grammar",
    "index",
    "size",
    "solver",
    "family",
    "version",
    "verdict",
    "kind",
    "operators",
    "crash_signature",
    "first_version",
    "last_version",
    "range_measured",
    "answer",
    "judge",
    "judge_answer",
    "note",
    "unchecked_answer",
];

fn triggers_csv(triage: &Triage) -> Result<Vec<u8>, TriageError> {
    let rows = triage.findings.iter().enumerate().map(|(i, f)| {
        let t = &f.trigger;
        let c = &f.confirmation;
        let range = f.range.as_ref();
        vec![
            triage
                .group_of(i)
                .map_or_else(String::new, |g| g.rank.to_string()),
            c.outcome.label().to_string(),
            c.reproduced.to_string(),
            c.attempts.to_string(),
            triage.dirs[t.dir].path.display().to_string(),
            t.row().grammar.clone(),
            t.row().index.clone(),
            t.row().size.to_string(),
            t.row().solver.clone(),
            t.row().family.clone(),
            t.row().version.clone(),
            t.verdict().label().to_string(),
            f.kind.label().to_string(),
            f.operators.to_string(),
            f.crash_signature.clone().unwrap_or_default(),
            range
                .and_then(|r| r.first())
                .unwrap_or_default()
                .to_string(),
            range.and_then(|r| r.last()).unwrap_or_default().to_string(),
            match (range, f.range_measured) {
                (None, _) => "",
                (Some(_), true) => "yes",
                (Some(_), false) => "no",
            }
            .to_string(),
            f.answer().describe(),
            t.judge_name().to_string(),
            c.reference
                .as_ref()
                .map_or_else(String::new, |r| r.describe()),
            c.note.clone().unwrap_or_default(),
            answer_in(c.unchecked.as_ref()),
        ]
    });
    csv_bytes(TRIGGER_COLUMNS, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_one_per_line() {
        let f = "(declare-const a String) (declare-const b String) \
                 (assert (= a \"x) (y\")) (check-sat)";
        assert_eq!(
            one_command_per_line(f),
            "(declare-const a String)\n(declare-const b String)\n\
             (assert (= a \"x) (y\"))\n(check-sat)"
        );
    }

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code("mod"), "`mod`");
        assert_eq!(code("a`b"), "`` a`b ``");
        let mut out = String::new();
        code_block(&mut out, "sh", "x ``` y");
        assert!(
            out.starts_with("````sh\n") && out.ends_with("````\n\n"),
            "{out}"
        );
    }

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let s = SolverConfig::new(
            "z3",
            "z3",
            "4.8.7",
            vec!["/opt/z3 4/bin/z3".into(), "model_validate=true".into()],
        );
        assert_eq!(
            command_line(&s, "trigger-1.smt2"),
            "'/opt/z3 4/bin/z3' model_validate=true trigger-1.smt2"
        );
        let stdin = SolverConfig {
            input: InputMode::Stdin,
            command: vec!["z3".into(), "-in".into()],
            ..s
        };
        assert_eq!(command_line(&stdin, "t.smt2"), "z3 -in < t.smt2");
    }
}
