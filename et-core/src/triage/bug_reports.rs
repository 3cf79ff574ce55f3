//! Bug reports to file: `triage/bugs/<rank>-<name>.md`, one per confirmed group that
//! affects the newest installed release of its family, each with the script it runs
//! (`<rank>-<name>.smt2`) beside it.
//!
//! A report is written for a solver developer who has never heard of et: it must be
//! reproducible with the solver alone. So the script is the one the solver read when
//! the verdict showed (the family's prelude, the formula, the model request when et
//! asked for a model; the report also shows the formula one command per line), the command line names the solver's
//! program as its developers call it (`z3`, `cvc5`; et's installs drive wheels through
//! a runner of the same name) with the options et gave it, and the report says what
//! the finding rests on — plainly so when that is only the solver's own checker or one
//! other solver's answer.
//!
//! *Must not:* run solvers (everything comes from the triage), or decide which groups
//! are bugs (that is [`super::group`] and [`super::confirm`]).

use std::fmt::Write as _;
use std::path::Path;

use crate::judging::{Formula, Invocation};
use crate::oracle::Evidence;
use crate::solvers::SolverConfig;

use super::confirm::Outcome;
use super::group::{Finding, Group};
use super::range::ReleaseTable;
use super::rank::Kind;
use super::report::{
    code, code_block, confirmation_text, expected_answer, limits_text, model_false_at,
    one_command_per_line, shell_word, solver_of, title, wrong_answer,
};
use super::timing;
use super::Triage;

/// The folder of the reports inside `triage/`.
pub const FOLDER: &str = "bugs";

/// The groups that get a report: confirmed (some member reproduced in every
/// attempt), shown by the newest installed release of the family, not known upstream,
/// and not a limitation (an `unknown` every installed release gives, listed in
/// `limitations.md` instead).
pub fn reported(triage: &Triage) -> impl Iterator<Item = &Group> {
    triage.groups.iter().filter(|g| is_reported(g))
}

/// Whether a group gets a report ([`reported`]).
pub fn is_reported(g: &Group) -> bool {
    g.outcome() == Outcome::Confirmed && g.affects_newest && g.known.is_none() && !g.gives_up_always
}

/// The triage in one line, what to file first: `5 groups: 1 report to file; 2 known
/// upstream, 1 limitation, 1 fixed in the newest release, 0 flaky`. A group counts
/// once, under the first of: to file, known, limitation, fixed, flaky. Validator false
/// alarms among the reports to file are said apart: a bug of the solver's own check,
/// not of its answer.
pub fn headline(triage: &Triage) -> String {
    let groups = &triage.groups;
    let to_file: Vec<&Group> = reported(triage).collect();
    let alarms = to_file
        .iter()
        .filter(|g| g.key.kind == Kind::ValidatorFalseAlarm)
        .count();
    let rest = groups.iter().filter(|g| !is_reported(g));
    let (mut known, mut limitation, mut fixed, mut flaky) = (0, 0, 0, 0);
    for g in rest {
        if g.known.is_some() {
            known += 1;
        } else if g.gives_up_always {
            limitation += 1;
        } else if g.outcome() != Outcome::Confirmed {
            flaky += 1;
        } else {
            fixed += 1;
        }
    }
    let n = to_file.len();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    format!(
        "{}: {}{}; not to file: {} upstream or by design, {}, {} fixed in the newest release, {} (not on every re-run)",
        plural(groups.len(), "group", "groups"),
        plural(n, "report to file", "reports to file"),
        if alarms > 0 {
            format!(" ({alarms} of them a validator false alarm: the solver's own check, not its answer)")
        } else {
            String::new()
        },
        known,
        plural(limitation, "limitation", "limitations"),
        fixed,
        plural(flaky, "flaky", "flaky"),
    )
}

/// `limitations.md`: the `unknown`s every installed release of a family gives, once per
/// family and operators — what a solver does not decide by design or has never
/// decided, not a bug to file.
pub fn limitations(triage: &Triage) -> String {
    let mut out = String::from(
        "# Limitations\n\nFormulas no installed release of a family decides (each answers `unknown`, \
         or some run out of time where the others give up), where another solver or et's witness \
         decides them: incompleteness the family has always had, listed once per family and \
         operators, not reports to file. `releases` says what each release answered.\n\n\
         | family | operators | releases | groups | smallest formula | known |\n|---|---|---|---|---|---|\n",
    );
    let mut rows = 0;
    for g in triage.groups.iter().filter(|g| g.gives_up_always) {
        let f = g.smallest(&triage.findings);
        let releases = f
            .range
            .as_ref()
            .map_or_else(String::new, ReleaseTable::answers);
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | `{}` | {} |\n",
            g.key.family,
            f.operators,
            releases,
            g.rank,
            f.formula.replace('|', "\\|"),
            g.known.as_ref().map_or_else(String::new, |k| k.describe())
        ));
        rows += 1;
    }
    if rows == 0 {
        out.push_str("| (none) | | | | | |\n");
    }
    out
}

/// The reports, as (path inside `triage/`, contents): a `.md` and a `.smt2` per
/// reported group.
pub fn files(triage: &Triage) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for g in reported(triage) {
        let f = confirmed_smallest(triage, g);
        let Some(solver) = report_solver(f, solver_of(triage, f)) else {
            continue;
        };
        let stem = format!("{}-{}", g.rank, short_name(g, f));
        let script = script(triage, solver, f);
        let md = report(triage, g, f, solver, &format!("{stem}.smt2"), &script);
        files.push((format!("{FOLDER}/{stem}.md"), md.into_bytes()));
        files.push((format!("{FOLDER}/{stem}.smt2"), script.into_bytes()));
    }
    files
}

/// The solver whose command a report about `f` gives, `f` having been found on
/// `found_on` (as its run directory names it): a configuration's finding runs with
/// exactly the options it needs, and without et's own options it does not need.
pub(super) fn report_solver<'a>(
    f: &'a Finding,
    found_on: Option<&'a SolverConfig>,
) -> Option<&'a SolverConfig> {
    f.own_options
        .as_ref()
        .map(|c| &c.solver)
        .or_else(|| f.options.as_ref().map(|d| &d.solver))
        .or(found_on)
}

/// The group's smallest member that reproduced in every attempt (the smallest member
/// may be a flaky one); of the triggers of that formula, the one found on the newest
/// installed release of the family, when it was found there too: the release a
/// developer fixes.
fn confirmed_smallest<'t>(triage: &'t Triage, g: &Group) -> &'t Finding {
    &triage.findings[g.reported_member(&triage.findings)]
}

/// The findings the reports are about: [`Group::reported_member`] of each [`is_reported`]
/// group.
pub fn reported_members<'a>(
    findings: &'a [Finding],
    groups: &'a [Group],
) -> impl Iterator<Item = usize> + 'a {
    groups
        .iter()
        .filter(|g| is_reported(g))
        .map(|g| g.reported_member(findings))
}

/// `z3-5.4.1-invalid-model-strings`: the release, the kind, the grammar.
fn short_name(g: &Group, f: &Finding) -> String {
    let row = f.trigger.row();
    let name = format!(
        "{}-{}-{}",
        row.solver,
        g.key.kind.label().replace('_', "-"),
        row.grammar
    );
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// The script the solver read: prelude, the formula (on one line, as et prints
/// formulas: so the file is also a trigger file every et command reads), the model
/// request when et asked for a model.
fn script(triage: &Triage, solver: &SolverConfig, f: &Finding) -> String {
    let logic = triage
        .logics
        .get(&f.trigger.row().grammar)
        .and_then(Option::as_deref);
    Invocation::new(solver, &f.formula, logic).script
}

/// The command line with the program's own name instead of where et installed it.
fn plain_command(solver: &SolverConfig, file: &str) -> String {
    let program = Path::new(solver.program()).file_name().map_or_else(
        || solver.program().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let mut words = vec![shell_word(&program)];
    words.extend(
        solver
            .command_with_models()
            .unwrap_or_else(|| solver.command.clone())
            .iter()
            .skip(1)
            .map(|w| shell_word(w)),
    );
    match solver.input {
        crate::solvers::InputMode::File => words.push(shell_word(file)),
        crate::solvers::InputMode::Stdin => words.push(format!("< {}", shell_word(file))),
    }
    words.join(" ")
}

/// What the solvers' issue templates ask for, in one list: version, theory, options,
/// the last good release, whether the input is minimized, and the search for
/// duplicates et made (its list of known issues).
fn template_fields(
    out: &mut String,
    triage: &Triage,
    g: &Group,
    f: &Finding,
    solver: &SolverConfig,
) {
    let row = f.trigger.row();
    let logic = triage
        .logics
        .get(&row.grammar)
        .and_then(Option::as_deref)
        .map_or_else(|| "none declared".to_string(), |l| format!("`{l}`"));
    let options: Vec<String> = solver
        .command_with_models()
        .unwrap_or_else(|| solver.command.clone())
        .iter()
        .skip(1)
        .map(|w| format!("`{w}`"))
        .collect();
    let tactic = solver
        .configuration
        .as_ref()
        .and_then(|c| c.tactic.as_deref());
    let options = match &f.options {
        d if tactic.is_some() => format!(
            "{} — checked with `(check-sat-using {})` (the configuration `{}`); the same \
             release's default `(check-sat)` {}",
            if options.is_empty() {
                "none".to_string()
            } else {
                options.join(" ")
            },
            tactic.unwrap_or_default(),
            row.solver,
            if d.as_ref().is_some_and(|d| d.default_shows) {
                "shows it too"
            } else {
                "does not (it is the reference)"
            }
        ),
        Some(d) if d.default_shows => format!(
            "{} — the default mode shows it too (found on the configuration `{}`: {})",
            options.join(" "),
            row.solver,
            d.all.join(" ")
        ),
        Some(d) => format!(
            "{} — of the configuration `{}` ({}), the bug needs {} (the default mode does not show it{})",
            options.join(" "),
            row.solver,
            d.all.join(" "),
            d.needed
                .iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(" and "),
            if d.exhaustive {
                "; every smaller set of these options was tried"
            } else {
                "; not every smaller set was tried"
            }
        ),
        None if options.is_empty() => "none".to_string(),
        None => format!(
            "{} (what et gives every call: answer checks and models; the default mode otherwise)",
            options.join(" ")
        ),
    };
    let options = match f.own_options.as_ref().filter(|c| !c.dropped.is_empty()) {
        Some(c) => {
            let dropped: Vec<String> = c
                .dropped
                .iter()
                .map(|d| match d.as_str() {
                    super::own_options::MODELS => d.clone(),
                    _ => format!("`{d}`"),
                })
                .collect();
            let still = match f.kind {
                Kind::Crash => "the same crash in every re-run".to_string(),
                Kind::Performance => {
                    "still not decided at the limits it was confirmed at".to_string()
                }
                _ => "the same finding in every re-run".to_string(),
            };
            format!(
                "{options}; left out, as the bug does not need them: {} of the options et gives every call (without each, {still}; the releases below ran with them)",
                dropped.join(", ")
            )
        }
        None => options,
    };
    let last_good = match (&f.timings, f.range.as_ref().and_then(|r| r.newest_since())) {
        (Some(t), _) => match t.newest_regression() {
            Some(r) => format!(
                "`{}` ({}: see the timings below)",
                r.before.0,
                r.describe(t.work.map_or("work", |w| w.limit))
            ),
            None => format!(
                "none: no installed release is {}× slower on this formula than a release before it that decided it (timings below)",
                timing::REGRESSION_FACTOR
            ),
        },
        // A timeout's last good release decided the formula; one that gave up was not
        // good (`timing::window`).
        (None, Some((first, Some(_))))
            if f.trigger.verdict() == crate::oracle::Verdict::Timeout
                && f
                    .range
                    .as_ref()
                    .is_some_and(|r| r.last_decided_before(first).is_none()) =>
        {
            format!("none: no installed release before `{first}` decided it")
        }
        (None, Some((first, Some(good)))) => format!("`{good}` (the release before `{first}`)"),
        (None, Some((_, None))) => "none of the installed releases".to_string(),
        (None, None) => "not ranged".to_string(),
    };
    let which = match g.formulas {
        1 => "the one formula of this group".to_string(),
        n => format!("the smallest of the {n} formulas of this group"),
    };
    let from_grammar = format!(
        "{which}, found by enumerating the `{}` grammar smallest first",
        row.grammar
    );
    let minimized = match (
        f.pinned.as_ref().and_then(|p| p.shrunk.as_ref()),
        &f.shrunk_performance,
    ) {
        (Some(s), _) => format!(
            "yes: shrunk with ground truth beyond the grammar ({} step{} of {} tried, each \
             kept only while the solver kept its answer and et's checks kept the verdict)",
            s.steps,
            super::report::plural(s.steps),
            s.tried
        ),
        (None, Some(s)) if s.steps > 0 => format!(
            "yes: {}; the formula as found is under Evidence",
            super::report::shrunk_performance_text(triage, s)
        ),
        (None, Some(s)) => format!(
            "{from_grammar}; no rewrite of it beyond the grammar (an assertion dropped, a \
             term replaced by an argument of its sort) still {}",
            if s.status == crate::oracle::Status::Unknown {
                "gives `unknown`"
            } else {
                "times out"
            }
        ),
        (None, None) => match f.trimmed() {
            Some(t) => format!(
                "{from_grammar}, declaring only the constants and functions it uses ({}); not shrunk further",
                t.describe()
            ),
            None => format!("{from_grammar}; not shrunk further"),
        },
    };
    let _ = writeln!(
        out,
        "- **Version:** {} {}\n- **Theory:** the `{}` grammar; logic {logic}\n\
         - **Options:** {options}\n- **Last good release:** {last_good}\n\
         - **Minimized:** {minimized}\n\
         - **Known upstream:** no match in et's list of known issues (read in the solvers' \
         trackers)\n",
        solver.family, solver.version, row.grammar
    );
}

/// One report; see the module documentation.
fn report(
    triage: &Triage,
    g: &Group,
    f: &Finding,
    solver: &SolverConfig,
    file: &str,
    script: &str,
) -> String {
    let row = f.trigger.row();
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", title(triage, g));
    let _ = writeln!(
        out,
        "{} {}: {}. Found by enumerating the smallest formulas of the `{}` grammar \
         (formula {} of size {}){}; re-run in fresh processes: {}.\n",
        solver.family,
        solver.version,
        g.key.kind.meaning(),
        row.grammar,
        row.index,
        row.size,
        if f.shrunk_performance().is_some() {
            ", then shrunk beyond the grammar (the input below)"
        } else {
            ""
        },
        confirmation_text(triage, f)
    );
    let range = f.range.as_ref();
    if g.long_standing {
        let _ = match range.filter(|r| !r.all_answered("timeout")) {
            Some(r) => writeln!(
                out,
                "No installed {} release that ran this formula decides it at the run's limits \
                 ({}): a failure the solver has long had, not a regression.\n",
                solver.family,
                r.answers()
            ),
            None => writeln!(
                out,
                "Every installed {} release that ran this formula times out on it at the run's \
                 limits: slowness the solver has long had, not a regression.\n",
                solver.family
            ),
        };
    }
    if g.gives_up_always {
        let _ = match range.filter(|r| !r.all_answered("unknown")) {
            Some(r) => writeln!(
                out,
                "No installed {} release that ran this formula decides it ({}): a limitation \
                 the solver has always had (perhaps by design), not a regression.\n",
                solver.family,
                r.answers()
            ),
            None => writeln!(
                out,
                "Every installed {} release that ran this formula gives up on it: a limitation \
                 the solver has always had (perhaps by design), not a regression.\n",
                solver.family
            ),
        };
    }
    template_fields(&mut out, triage, g, f, solver);
    let _ = writeln!(out, "## Input (`{file}`)\n");
    code_block(&mut out, "smt2", script.trim_end());
    let _ = writeln!(out, "The formula, one command per line:\n");
    code_block(
        &mut out,
        "smt2",
        &one_command_per_line(&crate::judging::checked_by(solver, &f.formula)),
    );
    if let Some(c) = &f.converted {
        converted_section(&mut out, triage, f, c);
    }
    let _ = writeln!(out, "## Command\n");
    code_block(&mut out, "sh", &plain_command(solver, file));
    let driver =
        crate::solvers::install::driver_of(solver).map_or_else(String::new, |d| format!(", {d}"));
    let _ = writeln!(
        out,
        "(`{}` {}; et ran it as `{}`{driver}.)\n",
        solver.family,
        solver.version,
        solver.program()
    );
    let (expected, known) = expected_answer(f);
    let _ = writeln!(out, "## Expected\n\n{expected}.\n");
    let _ = writeln!(out, "## Actual\n\n{}.\n", wrong_answer(triage, f));
    printed_output(&mut out, f, solver, script);
    let _ = writeln!(out, "## Evidence\n\n{}\n", rests_on(triage, f));
    let _ = writeln!(out, "How the expected answer is known: {known}.\n");
    if let Some(p) = f.pinned.as_ref().filter(|p| !p.wrong_sat()) {
        pinned_not_sat(&mut out, f, p);
    }
    match witness(triage, f) {
        Some(witness) if witness.trim().is_empty() => {
            let _ = writeln!(
                out,
                "The formula has no constants: et's evaluation finds it true as it stands.\n"
            );
        }
        Some(witness) => {
            let _ = writeln!(out, "A satisfying assignment (found and checked by et):\n");
            code_block(&mut out, "smt2", &witness);
        }
        None => {}
    }
    if let Some(p) = &f.witness_pinned {
        let _ = writeln!(
            out,
            "## With et's witness pinned\n\n{}. The pinned formula:\n",
            super::report::capitalized(&super::report::witness_pinned_text(triage, f, p))
        );
        code_block(&mut out, "smt2", &p.text);
    }
    if let Some(t) = &f.timings {
        timings_section(&mut out, triage, f, t);
    } else if let Some(range) = &f.range {
        let since = match range.newest_since() {
            Some((first, Some(good))) => format!(
                "; the newest release shows it since {} ({}, the release before, does not)",
                code(first),
                code(good)
            ),
            Some((first, None)) => format!(
                "; every installed release that ran shows it, from the oldest, {}, on",
                code(first)
            ),
            None => String::new(),
        };
        let measured_on = if f.range_measured {
            String::new()
        } else {
            " (measured on a smaller formula of this group: this one was not run on every \
             release)"
                .to_string()
        };
        let _ = writeln!(
            out,
            "## Affected releases\n\n{} of the installed `{}` releases show it{since}{measured_on}.\n",
            range.describe(),
            g.key.family,
        );
        super::report::range_table(&mut out, &g.key.family, range);
    }
    if let Some((count, list)) = super::report::other_triggers(&triage.findings, g, f) {
        // Another solver's finding on the same formula may sort first: what matters
        // is whether the formula shown is the group's smallest.
        let smallest = g.smallest(&triage.findings);
        let note = if super::report::same_formula(smallest, f) {
            ""
        } else {
            " The group's smallest formula, first below, did not show it on every re-run: \
             this report is about the smallest that did."
        };
        let _ = writeln!(
            out,
            "## Other formulas\n\n{count} more formula{} of the same root cause show{} it \
             (joined by et because, shrunk, they are the same formula up to names and \
             constants, or they apply the same operators beside the Boolean skeleton and the \
             comparisons on the same releases, or slowed down at the same release, or the \
             mode fails on every formula its run ran, on the same releases; a formula \
             failing alike in two configurations on the same releases joins them) (the \
             solvers they were found on; *flaky*: not on every re-run).{note}\n\n{list}",
            super::report::plural(count),
            if count == 1 { "s" } else { "" }
        );
    }
    out
}

/// Lines of a solver's output a report shows at most (et's small formulas print far
/// fewer, models included).
const PRINTED_LINES: usize = 200;

/// What the report's command prints on the report's file: the output of exactly that
/// command on exactly that script, run once more for the report
/// ([`Finding::printed`]), never that of a confirming re-run, which may have asked for
/// a model or checks the command leaves out. Nothing when no such run was made.
fn printed_output(out: &mut String, f: &Finding, solver: &SolverConfig, script: &str) {
    let command = solver
        .command_with_models()
        .unwrap_or_else(|| solver.command.clone());
    let Some(p) = f
        .printed
        .as_ref()
        .filter(|p| p.script == script && p.command == command)
    else {
        return;
    };
    let (stdout, stderr) = (p.stdout.trim_end(), p.stderr.trim_end());
    if stdout.is_empty() && stderr.is_empty() {
        let stopped = if p.status == crate::oracle::Status::Timeout {
            " before et stopped it at the limits the finding was confirmed at"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "The command above, run once more for this report, printed nothing{stopped}.\n"
        );
        return;
    }
    let _ = writeln!(
        out,
        "What the command above printed, run once more for this report{}:\n",
        if p.truncated {
            " (cut: it printed more than et keeps of a call)"
        } else {
            ""
        }
    );
    if !stdout.is_empty() {
        code_block(out, "", &at_most_lines(stdout, PRINTED_LINES));
    }
    if !stderr.is_empty() {
        let _ = writeln!(out, "On standard error:\n");
        code_block(out, "", &at_most_lines(stderr, PRINTED_LINES));
    }
    let confirmed = f.answer().status;
    if p.status != confirmed {
        let _ = writeln!(
            out,
            "This run answered {}; the re-runs that confirmed the finding answered {}.\n",
            code(&p.status.to_string()),
            code(&confirmed.to_string())
        );
    }
}

/// `text` with at most `lines` lines; a last line says how many more there were.
fn at_most_lines(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    if all.len() <= lines {
        return text.to_string();
    }
    let mut kept = all[..lines].join("\n");
    kept.push_str(&format!("\n... ({} more lines)", all.len() - lines));
    kept
}

/// An invalid model whose pinned formula the solver does not call `sat`: the model it
/// prints is wrong, while its `sat` on the formula stands (the formula is satisfiable
/// by the reference's or a witness's account): a model-printing bug.
fn pinned_not_sat(out: &mut String, f: &Finding, p: &super::pin::Pinned) {
    let _ = writeln!(
        out,
        "With the printed model's values asserted on top of the formula (each constant \
         pinned to its value; {}), `{}` answers {} ({:.2} s), not `sat`: it does not claim \
         that wrong assignment satisfies the formula. Its `sat` stands, and what is wrong is \
         the model it prints — a model-printing bug, not (on this evidence) a wrong `sat`. \
         The pinned formula:\n",
        super::report::pinned_unsat_by(p),
        f.trigger.row().solver,
        code(&p.answer.describe()),
        p.answer.time_s
    );
    code_block(out, "smt2", &one_command_per_line(&p.formula.text));
}

/// The report's own formula timed on every installed release ([`timing`]): the rate,
/// the median CPU seconds and, where the family counts its work, the count; then the
/// regression, if a release is [`timing::REGRESSION_FACTOR`]× slower than the one
/// before it.
fn timings_section(out: &mut String, triage: &Triage, f: &Finding, t: &timing::Timings) {
    let factor = triage.settings.performance_factor.max(1.0);
    let _ = writeln!(
        out,
        "## Affected releases\n\nThis formula, run {} times on each installed `{}` release \
         from the last good one on, with {} ({}× the run's limits): how many runs decided it \
         and the median CPU seconds (≥: the runs were stopped at the limit, so it needed at \
         least that long; a run that answered `unknown` counts its own time). A release \
         whose first {} runs were all stopped at the limit was not run again: the median \
         is at least the limit whatever another run does.\n",
        timing::ROUNDS,
        f.trigger.row().family,
        limits_text(triage, f, factor),
        super::report::trimmed(factor),
        timing::ROUNDS - 1,
    );
    let work = t.work.map(|w| w.limit);
    match work {
        Some(limit) => {
            let _ = writeln!(
                out,
                "| release | decided | median CPU s | work (`{limit}` units) |\n|---|---|---|---|"
            );
        }
        None => {
            let _ = writeln!(out, "| release | decided | median CPU s |\n|---|---|---|");
        }
    }
    for r in &t.releases {
        let median = r
            .median()
            .map_or_else(|| "could not run".to_string(), |m| m.to_string());
        let median = match r.extended_s {
            Some(s) => format!("{median} (runs at {s:.2} s)"),
            None => median,
        };
        // A run that gave up (`unknown`) answered in its own time: said, so that a
        // quick median with nothing decided reads as what it is.
        let gave_up = r
            .runs
            .iter()
            .filter(|run| run.status == crate::oracle::Status::Unknown)
            .count();
        let decided = match (r.runs.len(), gave_up) {
            (0, _) => String::new(),
            (n, 0) => format!("{} of {n}", r.decided()),
            (n, u) => format!("{} of {n} ({u} `unknown`)", r.decided()),
        };
        let release = super::report::release_label(&f.trigger.row().family, &r.version, &r.solver);
        let _ = match work {
            Some(_) => writeln!(
                out,
                "| {release} | {decided} | {median} | {} |",
                r.work.map_or_else(String::new, |n| n.to_string())
            ),
            None => writeln!(out, "| {release} | {decided} | {median} |"),
        };
    }
    let _ = writeln!(out);
    if t.releases.iter().any(|r| r.extended_s.is_some()) {
        let _ = writeln!(
            out,
            "A release stopped at the limit right after one that decided in more than a \
             fifth of it was run again at just over {}× that one's median (`runs at`): at \
             the limit alone the jump could not show as {}× however slow it is.\n",
            timing::REGRESSION_FACTOR,
            timing::REGRESSION_FACTOR
        );
    }
    match t.regressions().as_slice() {
        [] => {
            let _ = writeln!(
                out,
                "No release is {}× slower than the one before it: the table shows no regression \
                 (the run's limit is crossed, not a jump in time).\n",
                timing::REGRESSION_FACTOR
            );
        }
        regressions => {
            let unit = t.work.map_or("work", |w| w.limit);
            let jumps: Vec<String> = regressions.iter().map(|r| r.describe(unit)).collect();
            let _ = writeln!(
                out,
                "Regression{} (a median CPU time, or a count of the solver's own work, {}× or \
                 more that of the release before): {}.\n",
                super::report::plural(jumps.len()),
                timing::REGRESSION_FACTOR,
                jumps.join("; ")
            );
        }
    }
    // The title counts every release that showed it at the run's limits; where those
    // are not one run of releases, the history the timings start after is said here.
    if let Some(range) = f
        .range
        .as_ref()
        .filter(|r| f.range_measured && r.runs().len() > 1)
    {
        let _ = writeln!(
            out,
            "At the run's limits ({}, one run on every installed release) the releases that \
             show it are {}: the timings above start from the last good release before the \
             newest of those runs.\n",
            limits_text(triage, f, 1.0),
            range.describe()
        );
    }
    if let Some(w) = t.work {
        let _ = writeln!(
            out,
            "The work column is the solver's own deterministic count (`{}` prints it); it is \
             the same on any machine: `{}=N` stops the solver after N units, so a release \
             that needs more than another can be shown without timing.\n",
            w.option, w.limit
        );
    }
}

/// The formula with its implicit Int→Real conversions written out, and what the
/// solver answered on it ([`super::conversions`]).
fn converted_section(
    out: &mut String,
    triage: &Triage,
    f: &Finding,
    c: &super::conversions::Converted,
) {
    let operators: Vec<String> = c.operators.iter().map(|o| code(o)).collect();
    let _ = writeln!(
        out,
        "This formula gives an Int where {} expect{} a Real: it leans on the solver's \
         implicit Int→Real conversion, which SMT-LIB's mixed Int/Real logics do not have \
         (solvers differ on such input: cvc5 refuses an Int argument to `sin`, and reads \
         an Int compared with a Real). The same formula with the conversions written out \
         (`to_real`), which every solver reads (printed from et's own reading of it, so \
         numbers in Real places are written as decimals):\n",
        operators.join(", "),
        if operators.len() == 1 { "s" } else { "" }
    );
    code_block(out, "smt2", &one_command_per_line(&c.text));
    let factor = if f.kind == Kind::Performance {
        triage.settings.performance_factor.max(1.0)
    } else {
        1.0
    };
    let _ = writeln!(
        out,
        "On it, `{}` answers {} ({:.2} s; limit {}): {}.\n",
        f.trigger.row().solver,
        code(&c.answer.describe()),
        c.answer.time_s,
        limits_text(triage, f, factor),
        if c.shows {
            "the same bug, so it does not need the implicit conversion"
        } else {
            "not this bug, which shows only with the implicit conversion"
        }
    );
}

/// What the finding rests on, said plainly: how strong the evidence is.
fn rests_on(triage: &Triage, f: &Finding) -> String {
    let row = f.trigger.row();
    let reference = || {
        if row.reference.is_empty() {
            "no other solver".to_string()
        } else {
            format!(
                "`{}` (answered `{}`)",
                row.reference,
                row.reference_status
                    .map_or_else(|| "nothing".to_string(), |s| s.to_string())
            )
        }
    };
    if f.kind == Kind::Crash {
        return "The crash is the evidence: no other solver is needed.".into();
    }
    if f.kind == Kind::Performance {
        let decider = if row.decided_by.is_empty() {
            row.reference.clone()
        } else {
            row.decided_by.clone()
        };
        let time = row
            .decided_s
            .map_or_else(String::new, |s| format!(" in {s:.3} s"));
        let limit = limits_text(triage, f, 1.0);
        if let Some(shrunk) = f.shrunk_performance() {
            return format!(
                "The formula above was {} from the one et's campaign found (grammar `{}`, \
                 index {}, below). On the formula above: {}; `{}` ran out of its {} \
                 when re-run. In the run, on the formula as found, {} and `{}` took \
                 {:.3} s ({:.3} s of CPU time; limit: {limit}). Times are wall-clock on \
                 the machine et ran on unless they say CPU.\n\nFound as:\n\n```smt2\n{}\n```",
                super::report::shrunk_performance_text(triage, shrunk),
                row.grammar,
                row.index,
                match &f.confirmation.reference {
                    Some(r) if r.judging_status().is_some() => format!(
                        "`{}` answers {} in {:.3} s",
                        f.trigger.judge_name(),
                        code(&r.describe()),
                        r.time_s
                    ),
                    _ => "et's witness shows it satisfiable".to_string(),
                },
                row.solver,
                limits_text(triage, f, triage.settings.performance_factor.max(1.0)),
                if row.evidence == Some(Evidence::Witness) {
                    "et found an assignment that satisfies it".to_string()
                } else {
                    format!("`{decider}` decided it{time}")
                },
                row.solver,
                row.time_s,
                row.cpu_s,
                super::report::one_command_per_line(&shrunk.original)
            );
        }
        let decided = if row.evidence == Some(Evidence::Witness) {
            let reference_decided = row.reference_status.is_some_and(|s| s.is_decided());
            let by = if !row.decided_by.is_empty() || reference_decided {
                format!("; `{decider}` decided it too{time}")
            } else {
                "; no solver of the run decided it".to_string()
            };
            format!("et found an assignment that satisfies this formula (below){by}")
        } else {
            format!("`{decider}` decided this formula{time}")
        };
        return format!(
            "{decided}; `{}` took {:.3} s ({:.3} s of CPU time) in the run (limit: {limit}) \
             and {:.3} s when re-run. Times are wall-clock on the machine et ran on unless \
             they say CPU.",
            row.solver,
            row.time_s,
            row.cpu_s,
            f.answer().time_s
        );
    }
    if let Some(p) = f.pinned_wrong_sat() {
        return format!(
            "The formula above comes from the one et's campaign found (grammar `{}`, index \
             {}, below{}) with each constant pinned to its value in the model `{}` printed for \
             it; that model does not satisfy the formula (et's evaluation: false at {}){}. \
             The formula above is unsatisfiable: {}. `{}` answers `sat` on it.\n\n\
             Found as:\n\n```smt2\n{}\n```",
            row.grammar,
            row.index,
            if f.trimmed().is_some() {
                ", declaring only the constants and functions it uses"
            } else {
                ""
            },
            row.solver,
            code(&p.formula.false_at),
            match &p.shrunk {
                Some(s) => format!(
                    ", then shrunk with ground truth ({} step{}, each kept only while `{}` \
                     answered `sat` and the formula stayed unsatisfiable)",
                    s.steps,
                    super::report::plural(s.steps),
                    row.solver
                ),
                None => String::new(),
            },
            super::report::pinned_unsat_by(p),
            row.solver,
            super::report::one_command_per_line(&p.original)
        );
    }
    match row.evidence {
        Some(Evidence::Model) if f.kind == Kind::ValidatorFalseAlarm => {
            "It does not rest on any other solver: et evaluated the formula under the model \
             the solver printed (shown above) and found it true, so the model is right and the \
             solver's own model validation is what fails."
                .into()
        }
        Some(Evidence::Model) => format!(
            "It does not rest on any other solver: et evaluated the formula under the model \
             the solver printed (shown above) and found it false{}.",
            model_false_at(f).map_or_else(String::new, |at| format!(" at {}", code(at)))
        ),
        Some(Evidence::Witness) => {
            "It does not rest on any other solver: et found an assignment that satisfies the \
             formula (below), so `unsat` is wrong."
                .into()
        }
        Some(Evidence::SelfCheck) => format!(
            "This rests only on the solver's own checker (its model validation failed); et \
             could not judge the model itself{}.",
            if row.model_check.is_empty() {
                String::new()
            } else {
                format!(" (et's model check: `{}`)", row.model_check)
            }
        ),
        Some(Evidence::Reference) => format!(
            "This rests on one other solver's answer: {}; et found no witness and no model \
             that would decide it on its own.",
            reference()
        ),
        Some(Evidence::Pool) => format!(
            "This rests on the answer of `{}`, another solver of the pool (the reference, {}, \
             did not decide it).",
            row.decided_by,
            reference()
        ),
        None => format!("This rests on the reference's answer: {}.", reference()),
    }
}

/// For an unsound `unsat` established by a witness: the witness, searched again with
/// the run's bound.
fn witness(triage: &Triage, f: &Finding) -> Option<String> {
    if f.trigger.row().evidence != Some(Evidence::Witness) {
        return None;
    }
    let values = triage.dirs[f.trigger.dir]
        .manifest
        .witness_bound
        .as_deref()
        .and_then(|b| b.parse::<usize>().ok());
    Formula::new(&f.formula, values)
        .witness()
        .map(|w| w.replace(") (", ")\n("))
}
