//! The reports to file, and the README that says what is filed and what is not.
//!
//! A report opens with five lines a maintainer reads first — input, command,
//! expected, actual, releases — then the input, the exact output of the command on
//! the releases it names, the timing (performance), the stronger variant (a wrong
//! `unsat` behind a wrong `sat`), the tracker search, the other reports of the same
//! root cause, and what et's triage found, quoted from its report.
//!
//! *Must not:* leave a half-written directory that looks complete: the reports are
//! written beside the destination and moved into place at the end.

use std::fmt::Write as _;
use std::path::Path;

use crate::triage::known::Searched;
use crate::triage::rank::Kind;
use crate::triage::report::code_block;

use super::decide::Disposition;
use super::measure::{Measured, Run};

use super::error::FilingError;
use super::filed::{Filed, Filing};
use super::read::TriageReport;

fn code(text: &str) -> String {
    crate::triage::report::code(text)
}

/// The formula in one line, long constants and all (for tables).
fn one_line(formula: &str) -> String {
    crate::triage::report::one_command_per_line(formula)
        .lines()
        .filter(|l| l.trim_start().starts_with("(assert"))
        .map(|l| {
            l.trim()
                .strip_prefix("(assert ")
                .and_then(|l| l.strip_suffix(')'))
                .unwrap_or(l)
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ∧ ")
}

fn release_label(run: &Run) -> String {
    run.release.clone()
}

/// `z3 5.4.1: answers after 2.93 s of CPU, 293× cvc5 1.4.2, on `bvurem``: the
/// release, what is wrong as the filing's own runs show it, the operators, the options.
fn title(r: &TriageReport, c: &Filed, m: &Measured) -> String {
    let n = &m.newest;
    let what = match r.kind {
        Kind::SolutionSoundness if m.stronger.is_some() => "wrong `sat`, and wrong `unsat`".into(),
        Kind::SolutionSoundness => "wrong `sat`".into(),
        Kind::RefutationalSoundness => "wrong `unsat`".into(),
        Kind::InvalidModel => "invalid model".into(),
        Kind::Crash => "crash".into(),
        Kind::ValidatorFalseAlarm => "its model check rejects a valid model".into(),
        Kind::Performance if n.status == crate::oracle::Status::Unknown => {
            "gives up (`unknown`)".into()
        }
        Kind::Performance => {
            let slower = r.regression_step().map_or(String::new(), |(before, _)| {
                format!("slower than {before}: ")
            });
            match m.best_other() {
                Some(best) if n.decided() => format!(
                    "{slower}answers after {:.2} s of CPU, {:.0}× {}",
                    n.cpu_s,
                    n.cpu_s / best.cpu_s.max(0.01),
                    release_label(best)
                ),
                _ => format!("{slower}{}", n.describe()),
            }
        }
    };
    let applied = crate::triage::signature::Signature::of(&r.formula());
    let operators = if applied.theory().0.is_empty() {
        applied.describe()
    } else {
        applied.theory().describe()
    };
    let options = if c.settings.is_empty() {
        String::new()
    } else {
        format!(
            " with {}",
            c.settings
                .iter()
                .map(|o| code(o))
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    format!(
        "{}{options}: {what} on {}",
        release_label(n),
        operators
            .split(", ")
            .map(code)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn expected(r: &TriageReport, m: &Measured) -> String {
    match r.kind {
        Kind::SolutionSoundness => {
            "`unsat` (et's evaluation: the formula is false under its one assignment)".into()
        }
        Kind::RefutationalSoundness => {
            "`sat` (et's evaluation finds a satisfying assignment)".into()
        }
        Kind::InvalidModel => {
            "a model that satisfies the formula (et's evaluation finds the printed one false)"
                .into()
        }
        Kind::Crash => "an answer, no crash".into(),
        Kind::Performance => match m.best_other() {
            Some(best) => format!(
                "an answer: {} answers `{}` after {:.2} s of CPU",
                release_label(best),
                best.status.label(),
                best.cpu_s
            ),
            None => "an answer (no other family's newest release decides it within the limit; \
                     an earlier release of this family did)"
                .into(),
        },
        Kind::ValidatorFalseAlarm => "the solver's own model check accepts its model".into(),
    }
}

fn actual(r: &TriageReport, m: &Measured) -> String {
    let n = &m.newest;
    match r.kind {
        Kind::InvalidModel => format!(
            "`sat` with a model et's evaluation finds false ({})",
            release_label(n)
        ),
        Kind::Crash => format!("`{}` ({})", n.status.label(), release_label(n)),
        _ => format!("{} ({})", n.describe(), release_label(n)),
    }
}

fn releases(r: &TriageReport) -> String {
    let range = if r.first_version == r.last_version {
        format!("{} {}", r.family, r.last_version)
    } else {
        format!("{} {}–{}", r.family, r.first_version, r.last_version)
    };
    if r.regression.is_empty() {
        format!("{range} (of the releases et ranged it on)")
    } else {
        format!("{range}; the regression: {}", r.regression)
    }
}

fn output_block(out: &mut String, run: &Run) {
    let _ = writeln!(out, "`$ {}` on {}:\n", run.command, release_label(run));
    let (stdout, stderr) = (run.stdout.trim_end(), run.stderr.trim_end());
    if stdout.is_empty() && stderr.is_empty() {
        let _ = writeln!(out, "(it printed nothing: {})\n", run.describe());
        return;
    }
    if !stdout.is_empty() {
        code_block(out, "", stdout);
    }
    if !stderr.is_empty() {
        let _ = writeln!(out, "On standard error:\n");
        code_block(out, "", stderr);
    }
    if run.status == crate::oracle::Status::Timeout {
        let _ = writeln!(out, "(then {}.)\n", run.describe());
    }
}

fn searched_for<'s>(
    searches: &'s [Searched],
    r: &TriageReport,
    options: &[String],
) -> Option<&'s Searched> {
    searches
        .iter()
        .find(|s| s.matches(&r.family, r.kind, &r.operators, &r.formula(), options))
}

fn report(f: &Filing, c: &Filed, m: &Measured, searches: &[Searched]) -> String {
    let r = &f.reports[c.cause.representative()];
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", title(r, c, m));
    let command = &m.newest.command;
    let _ = writeln!(out, "- **Input:** [`{0}`]({0}) (below)", m.file);
    let _ = writeln!(out, "- **Command:** `{command}`");
    let _ = writeln!(out, "- **Expected:** {}", expected(r, m));
    let _ = writeln!(out, "- **Actual:** {}", actual(r, m));
    let _ = writeln!(out, "- **Releases:** {}\n", releases(r));
    if !c.expert.is_empty() {
        let _ = writeln!(
            out,
            "Needs {}, an *expert* option by the solver's own option information (options \
             for its developers): ranked after every finding of the default mode.\n",
            c.expert
                .iter()
                .map(|o| code(o))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if let Some((script, run)) = &m.stronger {
        let _ = writeln!(
            out,
            "**A wrong `unsat` too.** The same terms with the equation's constant replaced \
             by the value et's evaluation gives its other side: true under the pinned \
             values, so satisfiable; {} answers `unsat`:\n",
            release_label(run)
        );
        code_block(&mut out, "smt2", script.trim_end());
    }
    let _ = writeln!(out, "## Input (`{}`)\n", m.file);
    code_block(&mut out, "smt2", m.script.trim_end());
    let _ = writeln!(out, "## Output\n");
    output_block(&mut out, &m.newest);
    for run in &m.named {
        let same = run.status == m.newest.status;
        let _ = writeln!(
            out,
            "The same command on {}, {}: {}.\n",
            release_label(run),
            if run.is_release {
                "the oldest release the triage found it on"
            } else {
                "a development build"
            },
            if same {
                format!("{} — the same answer", run.describe())
            } else {
                run.describe()
            }
        );
        if !same {
            output_block(&mut out, run);
        }
    }
    if r.kind == Kind::Performance {
        let _ = writeln!(
            out,
            "## Time to answer\n\nEach command once, under {:.0} s of CPU, on {} (CPU seconds \
             as the kernel counts them for the solver's processes):\n",
            m.newest.limit_s, f.cpu_model
        );
        let _ = writeln!(
            out,
            "| release | command | answer | CPU s |\n|---|---|---|---|"
        );
        for run in std::iter::once(&m.newest).chain(&m.others) {
            let _ = writeln!(
                out,
                "| {} | `{}`{} | {} | {} |",
                release_label(run),
                run.command,
                run.prelude.as_ref().map_or(String::new(), |p| format!(
                    " (the file with {} first)",
                    code(p.trim())
                )),
                run.status.label(),
                if run.status == crate::oracle::Status::Timeout {
                    format!("≥ {:.0}", run.limit_s)
                } else {
                    format!("{:.2}", run.cpu_s)
                }
            );
        }
        let _ = writeln!(out);
        if let Some(best) = m
            .best_other()
            .filter(|_| m.newest.decided() || m.newest.status == crate::oracle::Status::Timeout)
        {
            let ratio = m.newest.cpu_s / best.cpu_s.max(0.01);
            let _ = writeln!(
                out,
                "{} takes {}{:.0}× the time of {} (whose time is counted as at least 0.01 s).\n",
                release_label(&m.newest),
                if m.newest.decided() { "" } else { "at least " },
                ratio,
                release_label(best)
            );
        }
    }
    let _ = writeln!(out, "## Searched in the trackers\n");
    match searched_for(searches, r, &c.settings) {
        Some(s) => {
            let _ = writeln!(
                out,
                "{}: {}. Closest: {}. {}\n",
                s.tracker,
                s.queries
                    .iter()
                    .map(|q| code(q))
                    .collect::<Vec<_>>()
                    .join(", "),
                s.closest,
                s.note
            );
        }
        None => {
            let _ = writeln!(
                out,
                "No search of the trackers is recorded for this root cause (et's list of known \
                 issues has no match).\n"
            );
        }
    }
    let others: Vec<usize> = c.cause.members.iter().skip(1).copied().collect();
    if !others.is_empty() {
        let _ = writeln!(
            out,
            "## The same root cause elsewhere\n\n{} more report{} of et's triages, joined \
             because the formulas have the same shape, or apply the same theory operators \
             on the same releases, or slowed down at the same step between releases over the \
             same sorts, or need the same option setting and no theory operator:\n",
            others.len(),
            if others.len() == 1 { "" } else { "s" }
        );
        for i in others {
            let o = &f.reports[i];
            let _ = writeln!(
                out,
                "- {} `{}` ({}, `{}` {}–{}{}): {}",
                o.hunt,
                o.grammar,
                o.file,
                o.solver,
                o.first_version,
                o.last_version,
                if o.regression.is_empty() {
                    String::new()
                } else {
                    format!(", {}", o.regression)
                },
                code(&one_line(&o.formula()))
            );
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "## What et's triage found\n\nFrom `{}` (the run's own calls; its command asked for what \
         the run asked, a model and et's self-checks included):\n",
        r.triage_dir.join("bugs").join(&r.file).display()
    );
    let body = r
        .markdown
        .split_once("\n## Evidence\n")
        .map_or("", |(_, rest)| rest);
    let _ = writeln!(out, "### Evidence");
    for line in body.lines() {
        if line.starts_with("## ") {
            let _ = writeln!(out, "#{line}");
        } else {
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

fn why_not(c: &Filed) -> String {
    match &c.disposition {
        Disposition::File => String::new(),
        Disposition::Known(issue) => issue.clone(),
        Disposition::Degenerate(settings) => format!(
            "{}: a setting of 0 that makes the solver decide nothing",
            settings
                .iter()
                .map(|s| code(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Disposition::Slow { seconds, best } => format!(
            "answers after {seconds:.2} s of CPU, {:.1}× the best solver's {best:.2} s: a \
             long-standing slowdown under the threshold",
            seconds / best.max(0.01)
        ),
        Disposition::Limitation(why) => why.clone(),
        Disposition::Undecided => "no other family's newest release decides it either".into(),
        Disposition::NotShown(answer) => format!(
            "the report's command (the default mode without et's self-checks, and the \
             configuration's own options) gives {answer}: what the triage saw needed more"
        ),
    }
}

fn readme(f: &Filing, written: &[(usize, String)]) -> String {
    let mut out = String::new();
    let hunts: Vec<String> = {
        let mut h: Vec<String> = f.reports.iter().map(|r| r.hunt.clone()).collect();
        h.dedup();
        h.sort();
        h.dedup();
        h
    };
    let _ = writeln!(
        out,
        "# Reports to file\n\nMade by `et file` from the reports of {} triages ({}): {} reports, \
         {} root causes, **{} to file**. Each report's command was run on its own file on the \
         releases it names, on {}; a performance report's under {} s of CPU.\n",
        f.triages,
        hunts.join(", "),
        f.reports.len(),
        f.causes.len(),
        written.len(),
        f.cpu_model,
        f.causes
            .iter()
            .find_map(|c| c.measured.as_ref().filter(|m| !m.others.is_empty()))
            .map_or(60.0, |m| m.newest.limit_s)
    );
    let _ = writeln!(
        out,
        "| # | report | kind | releases | formula | also |\n|---|---|---|---|---|---|"
    );
    for (n, (i, name)) in written.iter().enumerate() {
        let c = &f.causes[*i];
        let r = &f.reports[c.cause.representative()];
        let kind = match (&c.measured, r.kind) {
            (Some(m), Kind::SolutionSoundness) if m.stronger.is_some() => {
                "soundness (wrong `sat` and wrong `unsat`)".to_string()
            }
            (_, Kind::Performance) if r.regression_step().is_some() => {
                "performance regression".to_string()
            }
            (_, Kind::Performance) if r.verdict == "unknown" => "gives up (`unknown`)".to_string(),
            (_, Kind::Performance) => "long-standing slowdown".to_string(),
            (_, k) => k.title().to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | [{}]({}) | {}{} | {} {}–{} | {} | {} |",
            n + 1,
            name,
            name,
            kind,
            if c.expert.is_empty() {
                ""
            } else {
                ", expert option"
            },
            r.family,
            r.first_version,
            r.last_version,
            crate::triage::report::cell(&code(&one_line(&r.formula()))),
            c.cause.members.len() - 1
        );
    }
    let _ = writeln!(out, "\n## Not filed\n");
    let _ = writeln!(out, "| root cause | reports | why not |\n|---|---|---|");
    for c in f
        .causes
        .iter()
        .filter(|c| c.disposition != Disposition::File)
    {
        let r = &f.reports[c.cause.representative()];
        let files: Vec<String> = c
            .cause
            .members
            .iter()
            .map(|&i| format!("{} `{}`", f.reports[i].hunt, f.reports[i].file))
            .collect();
        let _ = writeln!(
            out,
            "| {} {} on {} | {} | {}: {} |",
            r.family,
            r.kind.title(),
            crate::triage::report::cell(&code(&one_line(&r.formula()))),
            files.join(", "),
            c.disposition.label(),
            crate::triage::report::cell(&why_not(c))
        );
    }
    let _ = writeln!(out, "\n## By hunt\n");
    let _ = writeln!(
        out,
        "How many of each hunt's reports remain to file (a root cause counts for every hunt \
         one of its reports came from):\n"
    );
    let _ = writeln!(
        out,
        "| hunt | reports | to file | soundness | invalid model | crash | performance | known | not filed otherwise |\n|---|---|---|---|---|---|---|---|---|"
    );
    for hunt in &hunts {
        let in_hunt = |c: &&Filed| c.cause.members.iter().any(|&i| &f.reports[i].hunt == hunt);
        let filed: Vec<&Filed> = f.causes.iter().filter(in_hunt).collect();
        let count = |p: &dyn Fn(&Filed) -> bool| filed.iter().filter(|c| p(c)).count();
        let kind_of = |c: &Filed| f.reports[c.cause.representative()].kind;
        let to_file = |c: &Filed| c.disposition == Disposition::File;
        let _ = writeln!(
            out,
            "| {hunt} | {} | {} | {} | {} | {} | {} | {} | {} |",
            f.reports.iter().filter(|r| &r.hunt == hunt).count(),
            count(&|c| to_file(c)),
            count(&|c| to_file(c)
                && matches!(
                    kind_of(c),
                    Kind::SolutionSoundness | Kind::RefutationalSoundness
                )),
            count(&|c| to_file(c) && kind_of(c) == Kind::InvalidModel),
            count(&|c| to_file(c) && kind_of(c) == Kind::Crash),
            count(&|c| to_file(c) && kind_of(c) == Kind::Performance),
            count(&|c| matches!(c.disposition, Disposition::Known(_))),
            count(&|c| !to_file(c) && !matches!(c.disposition, Disposition::Known(_))),
        );
    }
    out
}

/// Writes the reports to file and the README into `out`, replacing what an earlier
/// `et file` wrote there.
pub fn write(f: &Filing, out: &Path) -> Result<(), FilingError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| FilingError::Io { path, error }
    };
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    let staging = parent.join(format!(
        ".{}.writing-{}",
        out.file_name()
            .map_or("bugs".into(), |n| n.to_string_lossy()),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(io(&staging))?;
    let searches = crate::triage::known::searches();
    let mut written = Vec::new();
    for (i, c) in f.causes.iter().enumerate() {
        let (Disposition::File, Some(m)) = (&c.disposition, &c.measured) else {
            continue;
        };
        let stem = m.file.trim_end_matches(".smt2");
        let md = format!("{stem}.md");
        std::fs::write(staging.join(&m.file), &m.script).map_err(io(&staging.join(&m.file)))?;
        std::fs::write(staging.join(&md), report(f, c, m, &searches))
            .map_err(io(&staging.join(&md)))?;
        written.push((i, md));
    }
    std::fs::write(staging.join("README.md"), readme(f, &written))
        .map_err(io(&staging.join("README.md")))?;
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(io(out))?;
    }
    std::fs::rename(&staging, out).map_err(io(out))?;
    Ok(())
}
