//! The calls filing makes for a root cause: its report's own command on its own file,
//! on the releases the report names; a performance report timed under the long limit
//! and beside the other families' newest releases; and, for a wrong `sat`, a search
//! for a wrong `unsat` on the same terms.
//!
//! *Must not:* show an output a different command printed: every output kept here is
//! that of the command the report gives, on the script the report ships.

use std::path::Path;
use std::time::Duration;

use et_eval::{check_model, ModelCheck, ModelDialect, Script};

use crate::judging::Invocation;
use crate::oracle::Status;
use crate::solvers::{InputMode, Pool, SolverConfig};
use crate::triage::calls::{CallSettings, Caller};
use crate::triage::rank::Kind;
use crate::triage::report::shell_word;

use super::error::FilingError;
use super::join::RootCause;
use super::read::TriageReport;

/// The name of a report's files, without extension: solver, configuration, kind,
/// grammar and the formula's index (unique for a report of a triage).
pub fn file_stem(r: &TriageReport, release: &SolverConfig) -> String {
    let configuration = r
        .solver
        .split_once('+')
        .map_or(String::new(), |(_, c)| format!("-{c}"));
    format!(
        "{}{configuration}-{}-{}-{}",
        release.name,
        r.kind.label().replace('_', "-"),
        r.grammar,
        r.index
    )
}

/// The command line a report gives: the program's file name, its options, the file.
pub fn command_line(solver: &SolverConfig, file: &str) -> String {
    let program = Path::new(solver.program()).file_name().map_or_else(
        || solver.program().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let mut words = vec![shell_word(&program)];
    words.extend(solver.command.iter().skip(1).map(|w| shell_word(w)));
    match solver.input {
        InputMode::File => words.push(shell_word(file)),
        InputMode::Stdin => words.push(format!("< {}", shell_word(file))),
    }
    words.join(" ")
}

/// How filing runs its calls.
#[derive(Debug, Clone)]
pub struct Settings {
    /// CPU limit of a performance report's timing (60 s: long enough that a slow
    /// answer is not taken for a hang).
    pub long_limit: Duration,
    /// CPU limit of every other call.
    pub limit: Duration,
    /// The CPU limit the campaigns ran at: a performance finding whose command answers
    /// within it is not shown again.
    pub run_limit: Duration,
    /// Parallel root causes.
    pub jobs: usize,
    /// A long-standing slowdown is filed only at this many times the best solver's time.
    pub slowdown_to_file: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            long_limit: Duration::from_secs(60),
            limit: Duration::from_secs(10),
            run_limit: Duration::from_secs(2),
            jobs: 2,
            slowdown_to_file: 10.0,
        }
    }
}

/// Whether `solver` is a release as `et solvers install` names it (`FAMILY-VERSION`),
/// not a development build added to the pool under a name of its own
/// (`yices-head-84efa927`).
pub fn is_release(solver: &SolverConfig) -> bool {
    solver.name == format!("{}-{}", solver.family, solver.version)
}

/// One run of a command.
#[derive(Debug, Clone)]
pub struct Run {
    /// The pool name of the release.
    pub solver: String,
    /// `yices 2.6.5`; `yices 2.7.0 (yices-head-84efa927)` for a build that is no
    /// release ([`is_release`]).
    pub release: String,
    /// Whether it is a release (not a development build added to the pool).
    pub is_release: bool,
    /// The command as a report prints it (program name, options, file).
    pub command: String,
    /// What the file was given first for this solver and no other (yices' `(set-logic
    /// ...)`, which the report's file lacks), if anything.
    pub prelude: Option<String>,
    /// The answer.
    pub status: Status,
    /// CPU seconds.
    pub cpu_s: f64,
    /// The CPU limit it ran under.
    pub limit_s: f64,
    /// What it printed on stdout, exactly.
    pub stdout: String,
    /// What it printed on stderr, exactly.
    pub stderr: String,
    /// et's check of the model it printed, when the script asks for one.
    pub model: Option<String>,
}

impl Run {
    /// Whether it answered `sat` or `unsat`.
    pub fn decided(&self) -> bool {
        matches!(self.status, Status::Sat | Status::Unsat)
    }

    /// `sat after 7.75 s of CPU`, `no answer within 60 s of CPU`.
    pub fn describe(&self) -> String {
        match self.status {
            Status::Timeout => format!("no answer within {:.0} s of CPU", self.limit_s),
            s => format!("`{}` after {:.2} s of CPU", s.label(), self.cpu_s),
        }
    }
}

/// What the calls for one root cause showed.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The script the report ships (and every run read).
    pub script: String,
    /// The file name it is given in the report's command.
    pub file: String,
    /// The report's command on the newest release that shows the bug.
    pub newest: Run,
    /// The same command on the other releases the report names (its oldest affected
    /// release, a development head in the pool).
    pub named: Vec<Run>,
    /// The other families' newest releases on the same script (performance).
    pub others: Vec<Run>,
    /// Whether the newest release's run shows the bug the report is about.
    pub shows_bug: bool,
    /// A wrong `unsat` on a variant of a wrong `sat`'s formula: its script and run.
    pub stronger: Option<(String, Run)>,
}

impl Measured {
    /// The fastest other family's release that decided the script.
    pub fn best_other(&self) -> Option<&Run> {
        self.others
            .iter()
            .filter(|r| r.decided())
            .min_by(|a, b| a.cpu_s.total_cmp(&b.cpu_s))
    }
}

/// The script a report ships: the triage's, without a model request unless the bug is
/// in the model, with the request for the reason of an `unknown`.
pub fn script_of(r: &TriageReport) -> String {
    let mut lines: Vec<&str> = r
        .script
        .lines()
        .filter(|l| {
            let l = l.trim();
            l != "(get-model)" && l != crate::judging::REASON_REQUEST
        })
        .collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let mut script = lines.join("\n");
    if r.kind == Kind::InvalidModel {
        script.push_str("\n(get-model)");
    }
    if r.verdict == "unknown" {
        script.push('\n');
        script.push_str(crate::judging::REASON_REQUEST);
    }
    script.push('\n');
    script
}

/// The options of the command a report gives: for a wrong answer or a slowdown the
/// configuration's own (et's self-checks dropped: the bug does not need them), for a
/// model or a crash the triage's command as it was reduced.
fn report_options(r: &TriageReport, solver: &SolverConfig, pool: &Pool) -> Vec<String> {
    match r.kind {
        Kind::Performance | Kind::SolutionSoundness | Kind::RefutationalSoundness => {
            let mut options = default_mode(solver).options().to_vec();
            options.extend(r.configuration_options(pool));
            options
        }
        _ => r.command_options().to_vec(),
    }
}

/// `solver` as et runs its default mode, without its family's answer checks
/// (`--strings-exp` stays: cvc5 needs it for the extended string functions).
fn default_mode(solver: &SolverConfig) -> SolverConfig {
    solver
        .without_answer_checks()
        .unwrap_or_else(|| solver.clone())
}

/// The family's prelude for `logic` (yices knows no theory before `(set-logic
/// ...)`), unless `script` sets a logic already.
fn prelude_for(solver: &SolverConfig, script: &str, logic: Option<&str>) -> Option<String> {
    solver
        .prelude(logic)
        .filter(|_| !script.contains("(set-logic "))
}

/// `solver` with `options` for its command line.
fn with_options(solver: &SolverConfig, options: &[String]) -> SolverConfig {
    let mut s = solver.clone();
    s.command = std::iter::once(solver.program().to_string())
        .chain(options.iter().cloned())
        .collect();
    s
}

fn run(
    caller: &Caller,
    solver: &SolverConfig,
    script: &str,
    file: &str,
    models: bool,
    limit: Duration,
) -> Result<Run, FilingError> {
    let mut invocation = Invocation::exactly(solver, solver.command.clone(), script);
    invocation.models = models;
    let settings = CallSettings {
        timeout: limit * 2 + Duration::from_secs(10),
        cpu_timeout: Some(limit),
        memory_mb: None,
        logic: None,
    };
    let o = caller.exactly(invocation, settings, file)?;
    // A solver names the file as it was given; the report's command gives it from the
    // report's folder, by its name alone.
    let as_given = |text: std::borrow::Cow<'_, str>| without_folders(&text, file);
    Ok(Run {
        solver: solver.name.clone(),
        release: if is_release(solver) {
            format!("{} {}", solver.family, solver.version)
        } else {
            format!("{} {} ({})", solver.family, solver.version, solver.name)
        },
        is_release: is_release(solver),
        command: command_line(solver, file),
        prelude: None,
        status: o.class.status,
        cpu_s: o.outcome.cpu.as_secs_f64(),
        limit_s: limit.as_secs_f64(),
        stdout: as_given(o.outcome.stdout_text()),
        stderr: as_given(o.outcome.stderr_text()),
        model: o.checked_model().map(|c| c.csv().to_string()),
    })
}

/// `text` with every path that ends in `/file` written as `file`.
fn without_folders(text: &str, file: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let suffix = format!("/{file}");
    while let Some(at) = rest.find(&suffix) {
        let start = rest[..at]
            .rfind(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '(')
            .map_or(0, |i| i + 1);
        out.push_str(&rest[..start]);
        out.push_str(file);
        rest = &rest[at + suffix.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether `run` shows the bug `r` is about; a slowdown shows when the run is not
/// decided within `run_limit`, the campaign's limit.
fn shows(r: &TriageReport, run: &Run, run_limit: Duration) -> bool {
    match r.kind {
        Kind::SolutionSoundness => run.status == Status::Sat,
        Kind::RefutationalSoundness => run.status == Status::Unsat,
        Kind::InvalidModel => run.status == Status::Sat && run.model.as_deref() == Some("invalid"),
        Kind::Crash => run.status == Status::Crash,
        Kind::Performance if r.verdict == "unknown" => run.status == Status::Unknown,
        Kind::Performance => !run.decided() || run.cpu_s > run_limit.as_secs_f64(),
        Kind::ValidatorFalseAlarm => true,
    }
}

/// The calls for root cause `cause`, filed as report `r`.
pub fn measure(
    caller: &Caller,
    pool: &Pool,
    r: &TriageReport,
    cause: &RootCause,
    reports: &[TriageReport],
    settings: &Settings,
) -> Result<Measured, FilingError> {
    let _ = (cause, reports);
    let solver = r
        .release_in(pool)
        .expect("checked before measuring: the pool holds every report's release");
    let options = report_options(r, solver, pool);
    let script = script_of(r);
    let file = file_stem(r, solver) + ".smt2";
    let models = r.kind == Kind::InvalidModel;
    let limit = if r.kind == Kind::Performance {
        settings.long_limit
    } else {
        settings.limit
    };
    let newest_solver = with_options(solver, &options);
    let newest = run(caller, &newest_solver, &script, &file, models, limit)?;
    let shows_bug = shows(r, &newest, settings.run_limit);
    let mut named = Vec::new();
    let oldest = format!("{}-{}", r.family, r.first_version);
    let heads = pool
        .solvers
        .iter()
        .filter(|s| s.family == r.family && !is_release(s))
        .map(|s| s.name.clone());
    for name in std::iter::once(oldest).chain(heads) {
        if name == solver.name {
            continue;
        }
        if let Some(other) = pool.get(&name) {
            named.push(run(
                caller,
                &with_options(other, &options),
                &script,
                &file,
                models,
                limit,
            )?);
        }
    }
    let mut others = Vec::new();
    if r.kind == Kind::Performance {
        let plain = script.replace(crate::judging::REASON_REQUEST, "");
        // The newest release of every other family in the pool (a development build
        // is not one), in the pool's order.
        let mut families: Vec<&str> = Vec::new();
        for s in &pool.solvers {
            if s.family != r.family && !families.contains(&s.family.as_str()) {
                families.push(&s.family);
            }
        }
        for family in families {
            let releases = crate::solvers::Pool {
                solvers: pool
                    .solvers
                    .iter()
                    .filter(|s| s.family == family && is_release(s))
                    .cloned()
                    .collect(),
                ..crate::solvers::Pool::default()
            };
            if let Some(other) = releases.newest(family) {
                let other = default_mode(other);
                let prelude = prelude_for(&other, &plain, r.logic.as_deref());
                let script = match &prelude {
                    Some(p) => format!("{p}\n{plain}"),
                    None => plain.clone(),
                };
                let mut judged = run(caller, &other, &script, &file, false, limit)?;
                judged.prelude = prelude;
                others.push(judged);
            }
        }
    }
    let stronger = if r.kind == Kind::SolutionSoundness {
        wrong_unsat_variant(&r.formula())
            .map(|variant| {
                let mut script = format!("{}\n", variant.trim_end());
                if !script.contains("(check-sat)") {
                    script.push_str("(check-sat)\n");
                }
                let script = match r.script.lines().find(|l| l.starts_with("(set-logic ")) {
                    Some(logic) => format!("{logic}\n{script}"),
                    None => script,
                };
                run(
                    caller,
                    &newest_solver,
                    &script,
                    &file,
                    false,
                    settings.limit,
                )
                .map(|run| (script, run))
            })
            .transpose()?
            .filter(|(_, run)| run.status == Status::Unsat)
    } else {
        None
    };
    Ok(Measured {
        script,
        file,
        newest,
        named,
        others,
        shows_bug,
        stronger,
    })
}

/// For a formula whose every constant is pinned (`(assert (= b #x00))`) and that is
/// false under the pins at an equality `(= C T)` with a literal `C`: the formula with
/// `C` replaced by the value `T` takes, which is true under the pins — satisfiable,
/// by et's evaluation. A solver that answered `sat` on the false formula because it
/// computes `T` wrongly answers `unsat` on this one: a wrong `unsat`, which
/// maintainers rank above a wrong `sat`. `None` when the formula is not of that form.
pub fn wrong_unsat_variant(formula: &str) -> Option<String> {
    let script = Script::parse(formula).ok()?;
    let model = pins_as_model(formula)?;
    let ModelCheck::Invalid { explanation } = check_model(&script, &model, ModelDialect::default())
    else {
        return None;
    };
    // `(= C T) where T = V`: the atom, and the value of its term.
    let (atom, values) = explanation.split_once(" where ")?;
    let inner = atom.strip_prefix("(= ")?.strip_suffix(')')?;
    let (constant, term) = inner.split_once(' ')?;
    if constant.starts_with('(') || !formula.contains(atom) {
        return None;
    }
    let value = values
        .split(", ")
        .find_map(|v| v.strip_prefix(term)?.strip_prefix(" = "))?
        .trim();
    let variant = formula.replacen(atom, &format!("(= {value} {term})"), 1);
    let checked = check_model(
        &Script::parse(&variant).ok()?,
        &model,
        ModelDialect::default(),
    );
    (checked == ModelCheck::Valid).then_some(variant)
}

/// The model that gives each constant of `formula` its pinned value, when every
/// declared constant is pinned by an `(assert (= NAME VALUE))`.
fn pins_as_model(formula: &str) -> Option<String> {
    let mut model = String::from("(model\n");
    for decl in formula.split("(declare-const ").skip(1) {
        let (name, rest) = decl.split_once(' ')?;
        let sort = super::join::declared_sorts(&format!("(declare-const {name} {rest}"))
            .into_iter()
            .next()?;
        let pin = format!("(assert (= {name} ");
        let value = formula.split(&pin).nth(1)?;
        let value = value.strip_suffix("))").unwrap_or(value);
        let value = value.split("))").next()?.trim();
        model.push_str(&format!("  (define-fun {name} () {sort} {value})\n"));
    }
    model.push(')');
    Some(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_written_as_the_report_gives_them() {
        assert_eq!(
            without_folders(
                "/tmp/et-1/f-2.d/x.smt2:1.2: No set-logic\n(error \"/a/x.smt2\")",
                "x.smt2"
            ),
            "x.smt2:1.2: No set-logic\n(error \"x.smt2\")"
        );
    }

    #[test]
    fn a_wrong_sat_on_a_pinned_bitvector_formula_has_a_wrong_unsat_variant() {
        let formula = "(declare-const b (_ BitVec 8))\n\
                       (assert (= #xa2 (bvadd #x11 (bvor #x11 b))))\n\
                       (assert (= b #x00))";
        let variant = wrong_unsat_variant(formula).expect("a variant");
        assert!(
            variant.contains("(= #x22 (bvadd #x11 (bvor #x11 b)))"),
            "{variant}"
        );
        assert_eq!(
            wrong_unsat_variant("(declare-const b Int)\n(assert (> b 0))"),
            None
        );
    }
}
