//! Triage: from a campaign's bug triggers to a short list of bug reports, worst first
//! (`et triage`), plus the two tools a developer uses on one trigger: `et bisect`
//! (which releases of a family show it) and `et shrink` (a smaller formula of the same
//! grammar that still shows it).
//!
//! `et triage DIR...` runs, in order:
//! 1. [`triggers`]: read each directory's `run.toml` and stream its `runs.csv`, keeping
//!    the rows with a verdict;
//! 2. the formula of each trigger, from its grammar and index (the enumeration is the
//!    source of truth: performance findings have no saved file);
//! 3. [`confirm`]: re-run every correctness trigger, fresh processes, the run's limits,
//!    and the smallest performance triggers of each candidate group at a longer limit
//!    ([`group::next_to_confirm`]; all with `--confirm all`);
//! 4. [`range`]: run it on every installed version of its family — the triggers of the
//!    few smallest formulas of each candidate group ([`group::range_samples`]); the
//!    others take the range of their candidate group's smallest;
//! 5. [`group`]: one bug per family, kind, version range and operator
//!    [`signature`] (crash signature for crashes), ranked by [`rank`];
//! 6. [`report`]: `triage/report.md`, `groups.csv`, `triggers.csv` and the smallest
//!    trigger of each group, and [`bug_reports`]: one file per confirmed group that
//!    affects the newest installed release, to paste into the solver's tracker; all
//!    written into a staging directory that is renamed into place when complete.
//!
//! Every call goes through [`calls`], which uses the campaign's supervised call and the
//! oracle's classification and judgement: triage reads answers exactly as `et run` did.
//!
//! *Must not:* parse solver output (that is the oracle), or write into a run directory
//! anything but its `triage/` folder.

pub mod bisect;
pub mod bug_reports;
pub mod calls;
pub mod confirm;
pub mod conversions;
pub mod group;
pub mod journal;
pub mod known;
pub mod minimize;
pub mod minimize_performance;
pub mod option_delta;
pub mod own_options;
pub mod pin;
pub mod range;
pub mod rank;
pub mod report;
pub mod rewrite;
pub mod shrink;
pub mod signature;
pub mod timing;
pub mod triggers;
pub mod trim;
pub mod undecided;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use num_bigint::BigUint;

use crate::enumeration::{Enumeration, IndexError};
use crate::grammar::{Grammar, GrammarError};
use crate::report::ReportError;
use crate::solvers::call::CallError;
use crate::solvers::options::configure_like;
use crate::solvers::{Pool, SolverConfig};

use crate::judging::Formula;
use calls::{CallSettings, Caller};
use confirm::{Confirmation, Settings};
use group::{Finding, Group};
use rank::Kind;
use signature::Signature;
use triggers::{RunDirectory, TriggerRow};

/// Everything that can stop a triage, naming the file, line or value at fault.
#[derive(Debug, thiserror::Error)]
pub enum TriageError {
    /// A file or directory could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A run directory or its call log cannot be read (named with file and line).
    #[error(transparent)]
    Report(#[from] ReportError),
    /// No run directory was given.
    #[error("no run directories given")]
    NoInput,
    /// Findings on scripts, which triage does not confirm, shrink or report yet.
    #[error("{}: {count} finding{} on scripts (the check_sat column of runs.csv); triage confirms, shrinks and reports formulas of one check-sat, not scripts yet. Each trigger under bugs/ holds the script and its log the call of its check-sat alone", dir.display(), if *count == 1 { "" } else { "s" })]
    Scripts {
        /// The run directory.
        dir: PathBuf,
        /// Its findings on scripts.
        count: usize,
    },
    /// A run's grammar is neither built in nor given as a file.
    #[error("{}: grammar `{grammar}` is not built in; pass its file with --grammar FILE", dir.display())]
    UnknownGrammar {
        /// The run directory.
        dir: PathBuf,
        /// The grammar name in its rows.
        grammar: String,
    },
    /// A grammar file given on the command line or recorded by the run is invalid.
    #[error(transparent)]
    Grammar(#[from] GrammarError),
    /// The journal of solver calls cannot be used.
    #[error(transparent)]
    Journal(#[from] journal::JournalError),
    /// A grammar's `logic:` line names no SMT-LIB logic.
    #[error(transparent)]
    Logic(#[from] crate::builtins::BadLogic),
    /// An index in `runs.csv` is past the end of its grammar.
    #[error("{}:{line}: {error}", path.display())]
    Index {
        /// The CSV file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// Why the index has no formula.
        error: IndexError,
    },
    /// The formula at a row's index does not have the row's size: the grammar given is
    /// not the one the run used.
    #[error("{}:{line}: index {index} of grammar `{grammar}` has size {actual}, but the row says {recorded}: is this the grammar the run used?", path.display())]
    SizeMismatch {
        /// The CSV file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// Grammar name.
        grammar: String,
        /// The index.
        index: String,
        /// Size in the row.
        recorded: u32,
        /// Size of the formula at that index.
        actual: u32,
    },
    /// A solver named in `runs.csv` is in neither `run.toml` nor the pool.
    #[error("{}: {role} `{name}` is not in its run.toml nor in the pool{}", dir.display(), pool_hint(pool))]
    UnknownSolver {
        /// The run directory.
        dir: PathBuf,
        /// `solver` or `reference`.
        role: &'static str,
        /// The name in `runs.csv`.
        name: String,
        /// The pool file searched, if any.
        pool: Option<PathBuf>,
    },
    /// A solver could not be run at all.
    #[error("cannot run {solver}: {error}")]
    Call {
        /// The solver's name.
        solver: String,
        /// Why.
        error: CallError,
    },
}

fn pool_hint(pool: &Option<PathBuf>) -> String {
    match pool {
        Some(p) => format!(" {}", p.display()),
        None => " (no pool file; give one with --pool FILE)".to_string(),
    }
}

impl TriageError {
    fn io(path: &Path, error: std::io::Error) -> TriageError {
        TriageError::Io {
            path: path.to_path_buf(),
            error,
        }
    }

    /// The user's input is at fault (a missing or malformed file, an unknown name, a
    /// solver that cannot start), as opposed to a failure while working (a full disk).
    pub fn is_bad_input(&self) -> bool {
        match self {
            TriageError::Io { error, .. } => error.kind() == std::io::ErrorKind::NotFound,
            TriageError::Call { error, .. } => !matches!(error, CallError::Supervise { .. }),
            TriageError::Report(e) => e.is_bad_input(),
            TriageError::Journal(journal::JournalError::Io { error, .. }) => {
                error.kind() == std::io::ErrorKind::NotFound
            }
            TriageError::Journal(journal::JournalError::NotAJournal { .. })
            | TriageError::NoInput
            | TriageError::Scripts { .. }
            | TriageError::UnknownGrammar { .. }
            | TriageError::Grammar(_)
            | TriageError::Logic(_)
            | TriageError::Index { .. }
            | TriageError::SizeMismatch { .. }
            | TriageError::UnknownSolver { .. } => true,
        }
    }
}

/// What a triage tells its caller while it works (the library prints nothing): a line
/// per step, warnings, and how far the current step is. A closure `FnMut(&str)` is one:
/// it gets the lines, and the warnings as `warning: ...` lines.
pub trait Progress {
    /// A step begins, or something to say between steps: one line.
    fn step(&mut self, text: &str);
    /// Something the user should know that does not stop the triage.
    fn warning(&mut self, text: &str);
    /// Within the current step: `done` of `total` items (triggers, solver calls,
    /// formulas) are done. Called on the thread that called [`triage`], first with
    /// `done = 0`, last with `done = total`, and a few times a second in between.
    fn advance(&mut self, done: u64, total: u64);
}

impl<F: FnMut(&str)> Progress for F {
    fn step(&mut self, text: &str) {
        self(text);
    }

    fn warning(&mut self, text: &str) {
        self(&format!("warning: {text}"));
    }

    fn advance(&mut self, _done: u64, _total: u64) {}
}

/// What to triage and how.
#[derive(Debug, Clone)]
pub struct Options {
    /// Run directories (one study, or one per grammar).
    pub dirs: Vec<PathBuf>,
    /// Grammars that are not built in, by name (a `.pest` file's stem).
    pub grammars: Vec<Grammar>,
    /// Installed solvers besides each run's own: references that were not under test,
    /// and more versions of a family for version ranges.
    pub pool: Option<Pool>,
    /// How triggers are confirmed.
    pub settings: Settings,
    /// Version ranges are measured on the triggers of this many smallest formulas of
    /// each candidate group; the others take the group's smallest's (`None`: every
    /// trigger is ranged). See [`group::range_samples`].
    pub ranged: Option<usize>,
    /// Solver calls at a time.
    pub jobs: usize,
    /// The journal of solver calls ([`journal`]), if any.
    pub journal: Option<PathBuf>,
}

/// The result of a triage, ready to be written.
#[derive(Debug)]
pub struct Triage {
    /// The run directories.
    pub dirs: Vec<RunDirectory>,
    /// Every trigger, confirmed, ranged and with its group.
    pub findings: Vec<Finding>,
    /// The bugs, worst first.
    pub groups: Vec<Group>,
    /// Rows read from the call logs.
    pub rows: u64,
    /// By option configuration: its triggers its default mode shows too (the same
    /// verdict on the same formula in the same run), left to the default mode's.
    pub left_to_default_modes: BTreeMap<String, usize>,
    /// Solver calls asked (made, or answered from the journal).
    pub calls: u64,
    /// Of those, the calls answered from the journal (made by an earlier run).
    pub replayed: u64,
    /// How triggers were confirmed.
    pub settings: Settings,
    /// Formulas per candidate group whose triggers were ranged (`None`: all).
    pub ranged: Option<usize>,
    /// The pool file that added installed versions, if any.
    pub pool_file: Option<PathBuf>,
    /// Seconds spent reading the call logs (everything but the re-runs is cheap).
    pub read_seconds: f64,
    /// The formulas nobody decided in the runs (`undecided.csv`), smallest first per
    /// grammar, the smallest tried again at the longer limit.
    pub undecided: Vec<undecided::Undecided>,
    /// By grammar name: the SMT-LIB logic its `logic:` line declares, if any (what a
    /// solver that needs a logic is given).
    pub logics: HashMap<String, Option<String>>,
}

impl Triage {
    /// The group a finding belongs to (its rank), if it was not dropped.
    pub fn group_of(&self, finding: usize) -> Option<&Group> {
        self.groups.iter().find(|g| g.members.contains(&finding))
    }
}

/// Triages `options.dirs`; `progress` receives one line per step and, within the
/// steps that run solvers, how many of their items are done.
pub fn triage(options: &Options, progress: &mut dyn Progress) -> Result<Triage, TriageError> {
    let started = Instant::now();
    let Input {
        dirs,
        rows,
        formulas_run,
        left_to_default_modes,
        triggers: trigger_rows,
        formulas,
        logics,
    } = read_input(options, progress)?;
    let read_seconds = started.elapsed().as_secs_f64();
    if let Some(first) = trigger_rows.iter().find(|t| t.row().check_sat.is_some()) {
        return Err(TriageError::Scripts {
            dir: dirs[first.dir].path.clone(),
            count: trigger_rows
                .iter()
                .filter(|t| t.dir == first.dir && t.row().check_sat.is_some())
                .count(),
        });
    }
    progress.step(&format!(
        "{} trigger{} in {rows} rows of {} director{} (read in {read_seconds:.2} s)",
        trigger_rows.len(),
        report::plural(trigger_rows.len()),
        dirs.len(),
        if dirs.len() == 1 { "y" } else { "ies" }
    ));

    let resolved = resolve_solvers(&dirs, &trigger_rows, options)?;
    let mut caller =
        Caller::new(options.jobs).map_err(|e| TriageError::io(&std::env::temp_dir(), e))?;
    if let Some(path) = &options.journal {
        let journal = journal::Journal::open(path)?;
        progress.step(&format!(
            "journal {}: {} calls recorded; a call asked again is answered from it",
            path.display(),
            journal.read()
        ));
        caller = caller.with_journal(journal);
    }
    let work = Triaging {
        dirs: &dirs,
        rows: &trigger_rows,
        formulas: &formulas,
        logics: &logics,
        caller: &caller,
    };
    let mut findings = work.confirmed_findings(&resolved, options.settings, progress)?;
    mark_failing_on_every_formula(&mut findings, &formulas_run);
    work.trim_declarations(&mut findings, &resolved, options.settings, progress)?;
    work.pin_models(&mut findings, &resolved, progress)?;
    // Ranges are measured on what each finding reports: a pinned formula where pinning
    // found a wrong `sat`.
    let mut reported: Vec<String> = findings.iter().map(|f| f.formula.clone()).collect();
    let installed = installed_solvers(&dirs, options.pool.as_ref());
    let families = Triaging {
        formulas: &reported,
        ..work
    }
    .range_findings(
        &mut findings,
        &resolved,
        &installed,
        options.ranged,
        progress,
    );
    let mut groups = group::group(&findings);
    // Every timeout or `unknown` a report will be about is shrunk; one that shrank is ranged again
    // on its shrunk formula, and the groups formed again, which may give a group a
    // reported finding not yet tried.
    loop {
        let shrinking = Triaging {
            formulas: &reported,
            ..work
        };
        let Some(shrunk) = shrinking.shrink_reported_performance(
            &mut findings,
            &groups,
            &resolved,
            options.settings,
            progress,
        )?
        else {
            break;
        };
        reported = findings.iter().map(|f| f.formula.clone()).collect();
        let mut ranged_by = vec![None; findings.len()];
        for i in shrunk {
            ranged_by[i] = Some(i);
        }
        Triaging {
            formulas: &reported,
            ..work
        }
        .measure_ranges(&mut findings, &ranged_by, &resolved, &installed, progress);
        groups = group::group(&findings);
    }
    let work = Triaging {
        formulas: &reported,
        ..work
    };
    let factor = options.settings.performance_factor.max(1.0);
    work.time_reported_timeouts(
        &mut findings,
        &groups,
        &resolved,
        &families,
        factor,
        progress,
    );
    // Timed, groups that regressed at the same release are one root cause.
    groups = group::group(&findings);
    work.pin_witnesses(&mut findings, &groups, &resolved, factor, progress)?;
    work.reduce_options(&mut findings, &groups, &resolved, options, progress)?;
    work.reduce_own_options(&mut findings, &groups, &resolved, options, progress)?;
    work.write_out_conversions(&mut findings, &groups, &resolved, factor, progress)?;
    // Last: every step that decides a report's command or formula is done.
    work.run_report_commands(&mut findings, &groups, &resolved, factor, progress)?;
    let undecided = retry_undecided(&caller, &dirs, options, progress)?;
    progress.step(&format!(
        "{} group{} from {} trigger{} ({} solver calls{})",
        groups.len(),
        report::plural(groups.len()),
        findings.len(),
        report::plural(findings.len()),
        caller.calls(),
        caller.journal().map_or_else(String::new, |j| format!(
            ", {} more answered from the journal",
            j.replayed()
        ))
    ));
    Ok(Triage {
        dirs,
        findings,
        groups,
        rows,
        left_to_default_modes,
        // Every call the triage asked, made now or answered from the journal: the
        // same report whether it ran in one go or was stopped and run again.
        calls: caller.calls() + caller.journal().map_or(0, |j| j.replayed()),
        replayed: caller.journal().map_or(0, |j| j.replayed()),
        settings: options.settings,
        ranged: options.ranged,
        pool_file: options.pool.as_ref().and_then(|p| p.source.clone()),
        read_seconds,
        undecided,
        logics,
    })
}

/// Marks the performance findings of each solver that failed so (a timeout, an
/// `unknown`) on every formula its run ran (`formulas_run`, by directory): a mode that
/// decides nothing, which grouping makes one root cause ([`group`]).
fn mark_failing_on_every_formula(findings: &mut [Finding], formulas_run: &[usize]) {
    let mut failed: HashMap<(usize, &str), HashSet<&str>> = HashMap::new();
    for f in findings.iter() {
        if f.kind == Kind::Performance {
            let row = f.trigger.row();
            failed
                .entry((f.trigger.dir, row.solver.as_str()))
                .or_default()
                .insert(row.index.as_str());
        }
    }
    let everywhere: HashSet<(usize, String)> = failed
        .into_iter()
        .filter(|((dir, _), formulas)| formulas.len() == formulas_run[*dir])
        .map(|((dir, solver), _)| (dir, solver.to_string()))
        .collect();
    for f in findings.iter_mut() {
        f.fails_on_every_formula = f.kind == Kind::Performance
            && everywhere.contains(&(f.trigger.dir, f.trigger.row().solver.clone()));
    }
}

/// The findings reports will be about ([`bug_reports::reported_members`]) for which
/// `pick` gives something, in index order, and what it gave each.
fn reported_with<T>(
    findings: &[Finding],
    groups: &[Group],
    mut pick: impl FnMut(usize) -> Option<T>,
) -> (Vec<usize>, HashMap<usize, T>) {
    let picked: HashMap<usize, T> = bug_reports::reported_members(findings, groups)
        .filter_map(|i| Some((i, pick(i)?)))
        .collect();
    let mut members: Vec<usize> = picked.keys().copied().collect();
    members.sort_unstable();
    (members, picked)
}

/// What triage reads before it runs anything: the run directories, their triggers
/// and the formula of each.
struct Input {
    dirs: Vec<RunDirectory>,
    /// Rows read, triggers or not.
    rows: u64,
    /// By configuration: its triggers left to its default mode
    /// ([`triggers::leave_to_default_modes`]).
    left_to_default_modes: BTreeMap<String, usize>,
    /// By directory: how many formulas its run ran.
    formulas_run: Vec<usize>,
    triggers: Vec<TriggerRow>,
    /// The formula of each trigger.
    formulas: Vec<String>,
    /// The logic each grammar declares, by grammar name.
    logics: HashMap<String, Option<String>>,
}

/// Opens the run directories of `options` (saying which solvers are re-run from
/// another place) and reads their triggers and formulas.
fn read_input(options: &Options, progress: &mut dyn Progress) -> Result<Input, TriageError> {
    if options.dirs.is_empty() {
        return Err(TriageError::NoInput);
    }
    let dirs = options
        .dirs
        .iter()
        .map(|d| RunDirectory::open(d, options.pool.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    for dir in &dirs {
        for line in &dir.relocated {
            progress.warning(&format!("{}: {line}", dir.path.display()));
        }
    }
    let mut rows = 0;
    let mut triggers: Vec<TriggerRow> = Vec::new();
    let mut formulas_run = Vec::with_capacity(dirs.len());
    for (i, dir) in dirs.iter().enumerate() {
        let scan = triggers::scan(&dir.runs, i, &mut triggers::calls_of(dir)?)?;
        rows += scan.rows;
        formulas_run.push(scan.formulas);
        triggers.extend(scan.triggers);
        if let Some(what) = scan.left_out.describe() {
            progress.warning(&format!("{}: {what}", dir.path.display()));
        }
    }
    let left_to_default_modes = triggers::leave_to_default_modes(&mut triggers, &dirs);
    let left: usize = left_to_default_modes.values().sum();
    if left > 0 {
        progress.step(&format!(
            "{left} triggers of option configurations left to their default mode, which shows the same verdict on the same formula in the same run"
        ));
    }
    let Formulas { texts, logics } = formulas(&dirs, &triggers, &options.grammars)?;
    Ok(Input {
        dirs,
        rows,
        formulas_run,
        left_to_default_modes,
        triggers,
        formulas: texts,
        logics,
    })
}

/// The formulas nobody decided in the runs, the smallest of each grammar tried again
/// at the performance factor ([`undecided`]).
fn retry_undecided(
    caller: &Caller,
    dirs: &[RunDirectory],
    options: &Options,
    progress: &mut dyn Progress,
) -> Result<Vec<undecided::Undecided>, TriageError> {
    let mut undecided =
        undecided::read(dirs, &|dir, name| grammar_of(dir, name, &options.grammars))?;
    if undecided.is_empty() {
        return Ok(undecided);
    }
    let factor = options.settings.performance_factor.max(1.0);
    progress.step(&format!(
        "{} formula{} nobody decided; the smallest {} of each grammar tried again at {}× the timeout",
        undecided.len(),
        report::plural(undecided.len()),
        undecided::RETRIED_PER_GRAMMAR,
        factor
    ));
    let seconds = |s: f64| Duration::from_secs_f64(s.max(1e-3));
    undecided::retry(
        caller,
        dirs,
        &mut undecided,
        &|u| {
            let m = &dirs[u.dir].manifest;
            CallSettings {
                timeout: seconds(m.timeout_s),
                cpu_timeout: m.cpu_timeout_s.map(seconds),
                memory_mb: m.memory_mb,
                logic: u.logic.as_deref(),
            }
            .scaled(factor)
        },
        &mut |done, total| progress.advance(done, total),
    )?;
    Ok(undecided)
}

/// The triggers being triaged and what re-runs them.
struct Triaging<'a> {
    dirs: &'a [RunDirectory],
    rows: &'a [TriggerRow],
    formulas: &'a [String],
    /// The logic each grammar declares, by grammar name.
    logics: &'a HashMap<String, Option<String>>,
    caller: &'a Caller,
}

impl Triaging<'_> {
    /// Every trigger re-run ([`Triaging::confirm_all`]) into a finding: its kind,
    /// operators, formula and crash signature, not yet pinned, ranged or grouped.
    fn confirmed_findings(
        &self,
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        settings: Settings,
        progress: &mut dyn Progress,
    ) -> Result<Vec<Finding>, TriageError> {
        let operators: Vec<Signature> = self.formulas.iter().map(|f| Signature::of(f)).collect();
        progress.step(&format!(
            "confirming {} trigger{} ({} attempts each for correctness; performance once at {}× the timeout, {})",
            self.rows.len(),
            report::plural(self.rows.len()),
            settings.attempts,
            settings.performance_factor,
            match settings.performance_formulas {
                None => "every one".to_string(),
                Some(n) => format!("the {n} smallest surviving of each candidate group"),
            }
        ));
        let confirmations = self.confirm_all(resolved, settings, &operators, progress)?;
        let not_rerun = confirmations
            .iter()
            .filter(|c| c.outcome == confirm::Outcome::NotRerun)
            .count();
        if not_rerun > 0 {
            progress.step(&format!(
                "{not_rerun} performance triggers not re-run (their rows stand as the run observed them)"
            ));
        }
        let crash_signatures = self.crash_signatures(&confirmations);
        Ok(self
            .rows
            .iter()
            .zip(confirmations)
            .enumerate()
            .map(|(i, (t, c))| {
                Finding::confirmed(
                    t.clone(),
                    self.formulas[i].clone(),
                    operators[i].clone(),
                    c,
                    crash_signatures[i].clone(),
                    resolved[i]
                        .0
                        .configuration
                        .as_ref()
                        .map_or_else(Vec::new, configuration_words),
                )
            })
            .collect())
    }

    /// The version range of every finding: measured on the samples
    /// [`group::range_samples`] picks (`ranged` per candidate group), borrowed from its
    /// sample by every other finding. Returns the installed releases by [`lineage`].
    fn range_findings(
        &self,
        findings: &mut [Finding],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        installed: &[SolverConfig],
        ranged: Option<usize>,
        progress: &mut dyn Progress,
    ) -> HashMap<String, Vec<SolverConfig>> {
        let ranged_by = group::range_samples(findings, ranged);
        let families = self.measure_ranges(findings, &ranged_by, resolved, installed, progress);
        for i in 0..findings.len() {
            if let Some(j) = ranged_by[i].filter(|&j| j != i) {
                findings[i].range = findings[j].range.clone();
            }
        }
        families
    }

    /// Measures the version range of each finding `i` with `ranged_by[i] == Some(i)`
    /// on its formula. Returns the installed releases by [`lineage`].
    fn measure_ranges(
        &self,
        findings: &mut [Finding],
        ranged_by: &[Option<usize>],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        installed: &[SolverConfig],
        progress: &mut dyn Progress,
    ) -> HashMap<String, Vec<SolverConfig>> {
        let families = self.run_ranges(installed, resolved, ranged_by, progress);
        for i in 0..findings.len() {
            if ranged_by[i] == Some(i) {
                let family = &families[&lineage(&resolved[i].0)];
                findings[i].range = Some(self.range_of(i, &findings[i].confirmation, family));
                findings[i].range_measured = true;
            }
        }
        families
    }

    /// Shrinks beyond the grammar each confirmed timeout or `unknown` a report will be
    /// about that was not tried yet ([`minimize_performance`]); where a step is kept, the finding's
    /// formula and confirmation become the shrunk formula's. `None` when there was
    /// none to try; else the findings whose formula changed.
    fn shrink_reported_performance(
        &self,
        findings: &mut [Finding],
        groups: &[Group],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        settings: Settings,
        progress: &mut dyn Progress,
    ) -> Result<Option<Vec<usize>>, TriageError> {
        let to_shrink: Vec<usize> = bug_reports::reported_members(findings, groups)
            .filter(|&i| {
                let f = &findings[i];
                matches!(
                    f.trigger.verdict(),
                    crate::oracle::Verdict::Timeout | crate::oracle::Verdict::Unknown
                ) && f.confirmation.outcome == confirm::Outcome::Confirmed
                    && f.shrunk_performance.is_none()
            })
            .collect();
        if to_shrink.is_empty() {
            return Ok(None);
        }
        progress.step(&format!(
            "shrinking {} reported timeouts and unknowns beyond the grammar (a step kept only while the solver still fails at {}× the limits and the reference decides within them)",
            to_shrink.len(),
            settings.performance_factor.max(1.0)
        ));
        let results = self.each(&to_shrink, resolved, progress, |i| {
            let f = &findings[i];
            let (solver, reference) = &resolved[i];
            let goal = minimize_performance::Undecided {
                trigger: &f.trigger,
                solver,
                reference: reference.as_ref(),
                limits: self.limits(i),
                settings,
                witness_values: self.witness_values(i),
                confirmed: &f.confirmation,
            };
            minimize_performance::shrink(self.caller, &f.formula, &goal)
        })?;
        let mut changed = Vec::new();
        for (i, (shrunk, kept)) in to_shrink.into_iter().zip(results) {
            if let Some(kept) = kept {
                findings[i].formula = kept.text;
                findings[i].confirmation = kept.confirmation;
                changed.push(i);
            }
            findings[i].shrunk_performance = Some(shrunk);
        }
        progress.step(&format!(
            "{} of them shrunk; their ranges measured again on the shrunk formulas",
            changed.len()
        ));
        Ok(Some(changed))
    }

    /// The run's limits for trigger `i`, and its grammar's logic.
    fn limits(&self, i: usize) -> CallSettings<'_> {
        let t = &self.rows[i];
        let manifest = &self.dirs[t.dir].manifest;
        let seconds = |s: f64| Duration::from_secs_f64(s.max(1e-3));
        CallSettings {
            timeout: seconds(manifest.timeout_s),
            cpu_timeout: manifest.cpu_timeout_s.map(seconds),
            memory_mb: manifest.memory_mb,
            logic: self.logics.get(&t.row().grammar).and_then(Option::as_deref),
        }
    }

    /// Trigger `i`'s formula as its run judged it: with the run's witness search
    /// (values per constant from `run.toml`; none when the run recorded none or `off`).
    fn formula(&self, i: usize) -> Formula {
        Formula::new(&self.formulas[i], self.witness_values(i))
    }

    /// The values per constant trigger `i`'s run searched witnesses over (none when
    /// it recorded none, or `off`).
    fn witness_values(&self, i: usize) -> Option<usize> {
        self.dirs[self.rows[i].dir]
            .manifest
            .witness_bound
            .as_deref()
            .and_then(|b| b.parse::<usize>().ok())
    }

    /// Drops from each confirmed correctness finding's formula the declarations it
    /// does not use ([`trim`]), kept only when the finding is confirmed again on the
    /// trimmed formula (a crash with the same signature). Pinning, ranges and reports
    /// then work on what was kept.
    fn trim_declarations(
        &self,
        findings: &mut [Finding],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        settings: Settings,
        progress: &mut dyn Progress,
    ) -> Result<(), TriageError> {
        let mut to_trim = Vec::new();
        let mut texts = HashMap::new();
        for (i, f) in findings.iter().enumerate() {
            if f.kind == Kind::Performance || f.confirmation.outcome != confirm::Outcome::Confirmed
            {
                continue;
            }
            if let Some(trimmed) = crate::enumeration::declarations::without_unused(&f.formula) {
                to_trim.push(i);
                texts.insert(i, trimmed);
            }
        }
        if to_trim.is_empty() {
            return Ok(());
        }
        progress.step(&format!(
            "declaring only the constants they use in the formulas of {} confirmed findings (each confirmed again on the trimmed formula)",
            to_trim.len()
        ));
        let confirmations = self.each(&to_trim, resolved, progress, |i| {
            let (solver, reference) = &resolved[i];
            confirm::confirm(
                self.caller,
                &findings[i].trigger,
                &Formula::new(&texts[&i].0, self.witness_values(i)),
                solver,
                reference.as_ref(),
                self.limits(i),
                settings,
            )
        })?;
        let mut kept = 0;
        for (i, c) in to_trim.into_iter().zip(confirmations) {
            let f = &mut findings[i];
            let same_crash = f.kind != Kind::Crash
                || (c.answer.status == crate::oracle::Status::Crash
                    && c.answer.crash_signature == f.crash_signature);
            let keep = c.outcome == confirm::Outcome::Confirmed && same_crash;
            let (text, dropped) = texts.remove(&i).expect("a text per finding tried");
            f.trimmed = Some(trim::Trimmed {
                original: f.formula.clone(),
                dropped,
                kept: keep,
            });
            if keep {
                kept += 1;
                f.formula = text;
                f.confirmation = c;
            }
        }
        progress.step(&format!(
            "{kept} of them confirmed on the trimmed formula (the rest keep the formula as found)"
        ));
        Ok(())
    }

    /// Pins the models of the confirmed invalid models et's own check refuted
    /// ([`pin`]): a solver that answers `sat` on the pinned formula too makes its
    /// finding a wrong `sat`, reported on the pinned formula.
    fn pin_models(
        &self,
        findings: &mut [Finding],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        progress: &mut dyn Progress,
    ) -> Result<(), TriageError> {
        let to_pin: Vec<usize> = (0..findings.len())
            .filter(|&i| {
                let f = &findings[i];
                f.kind == Kind::InvalidModel
                    && f.model_checked()
                    && f.confirmation.outcome == confirm::Outcome::Confirmed
            })
            .collect();
        if to_pin.is_empty() {
            return Ok(());
        }
        progress.step(&format!(
            "pinning the models of {} invalid-model triggers (the formula with each constant equal to its model value, asked again)",
            to_pin.len()
        ));
        let pinned = self.each(&to_pin, resolved, progress, |i| {
            let (solver, judge) = &resolved[i];
            let f = &findings[i];
            pin::pin(
                self.caller,
                &f.formula,
                &f.confirmation.answer,
                solver,
                judge.as_ref(),
                self.limits(i),
            )
        })?;
        let mut wrong = 0;
        for (i, p) in to_pin.into_iter().zip(pinned) {
            let Some(p) = p else {
                continue;
            };
            if p.wrong_sat() {
                wrong += 1;
                findings[i].kind = Kind::SolutionSoundness;
                findings[i].formula = p.reported().to_string();
            }
            findings[i].pinned = Some(p);
        }
        if wrong > 0 {
            progress.step(&format!(
                "{wrong} of them answer `sat` on their pinned formula too: wrong `sat` answers"
            ));
        }
        Ok(())
    }

    /// Times the formula of each timeout a report will be about on the releases of its
    /// family from the last good one on ([`timing::window`]), at `factor` × the run's
    /// limits.
    fn time_reported_timeouts(
        &self,
        findings: &mut [Finding],
        groups: &[Group],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        families: &HashMap<String, Vec<SolverConfig>>,
        factor: f64,
        progress: &mut dyn Progress,
    ) {
        let to_time: Vec<usize> = bug_reports::reported_members(findings, groups)
            .filter(|&i| findings[i].trigger.verdict() == crate::oracle::Verdict::Timeout)
            .collect();
        if to_time.is_empty() {
            return;
        }
        progress.step(&format!(
            "timing the formulas of {} reported timeouts: {} runs at {}× the limits on each release from the last good one on",
            to_time.len(),
            timing::ROUNDS,
            factor
        ));
        let total = to_time.len() as u64;
        for (done, i) in to_time.into_iter().enumerate() {
            progress.advance(done as u64, total);
            let family = lineage(&resolved[i].0);
            let (Some(versions), Some(range)) = (families.get(&family), &findings[i].range) else {
                continue;
            };
            let Some(window) = timing::window(range, versions) else {
                continue;
            };
            let work = window[0].family_info().work_count();
            findings[i].timings = Some(timing::time(
                self.caller,
                &window,
                &self.formulas[i],
                self.limits(i).scaled(factor),
                work,
            ));
        }
        progress.advance(total, total);
    }

    /// For each performance finding a report will be about whose formula has a
    /// witness: the solver asked once more, at the limits it was confirmed at, with
    /// the witness pinned ([`pin::pin_witness`]).
    fn pin_witnesses(
        &self,
        findings: &mut [Finding],
        groups: &[Group],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        factor: f64,
        progress: &mut dyn Progress,
    ) -> Result<(), TriageError> {
        let to_pin = reported_with(findings, groups, |i| {
            if findings[i].kind != Kind::Performance {
                return None;
            }
            let formula = Formula::new(&findings[i].formula, self.witness_values(i));
            Some(formula.witness()?.to_string())
        });
        let what = |n| {
            format!(
            "{n} reported performance findings have a witness: each asked again with the witness pinned"
        )
        };
        let pinned = self.each_reported(to_pin, what, resolved, progress, |i, witness| {
            let f = &findings[i];
            pin::pin_witness(
                self.caller,
                &f.formula,
                witness,
                &resolved[i].0,
                self.confirmed_limits(i, f, factor),
            )
        })?;
        for (i, p) in pinned {
            findings[i].witness_pinned = p;
        }
        Ok(())
    }

    /// For each finding a report will be about whose solver is an option
    /// configuration: the smallest set of its options that still shows it, and whether
    /// the default mode does ([`option_delta`]).
    fn reduce_options(
        &self,
        findings: &mut [Finding],
        groups: &[Group],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        options: &Options,
        progress: &mut dyn Progress,
    ) -> Result<(), TriageError> {
        let base_of = |i: usize| {
            let of = &resolved[i].0.configuration.as_ref()?.of;
            self.dirs[self.rows[i].dir]
                .solver(of)
                .or_else(|| options.pool.as_ref().and_then(|p| p.get(of)))
                .cloned()
        };
        let to_reduce = reported_with(findings, groups, base_of);
        let what = |n| {
            format!(
            "reducing the options of {n} reported configuration findings (fewest options first, the default mode included)"
        )
        };
        let reduced = self.each_reported(to_reduce, what, resolved, progress, |i, base| {
            let formula = Formula::new(&findings[i].formula, self.witness_values(i));
            let again = self.again(i, &findings[i], &formula, options);
            option_delta::reduce(again, &resolved[i].0, base)
        })?;
        for (i, delta) in reduced {
            findings[i].options = delta;
        }
        Ok(())
    }

    /// For each finding a report will be about: et's own options (self-checks, the
    /// model request) it does not need, dropped ([`own_options`]), from the options a
    /// configuration's finding needs.
    fn reduce_own_options(
        &self,
        findings: &mut [Finding],
        groups: &[Group],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        options: &Options,
        progress: &mut dyn Progress,
    ) -> Result<(), TriageError> {
        let to_reduce = reported_with(findings, groups, |i| {
            Some(
                findings[i]
                    .options
                    .as_ref()
                    .map_or_else(|| resolved[i].0.clone(), |d| d.solver.clone()),
            )
        });
        let what = |n| {
            format!(
                "dropping from {n} reported findings the options of et's they do not need (the model request, then each self-check; kept out while the finding shows as confirmed)"
            )
        };
        let reduced = self.each_reported(to_reduce, what, resolved, progress, |i, solver| {
            let formula = Formula::new(&findings[i].formula, self.witness_values(i));
            let again = self.again(i, &findings[i], &formula, options);
            own_options::reduce(again, solver)
        })?;
        for (i, trimmed) in reduced {
            findings[i].own_options = trimmed;
        }
        Ok(())
    }

    /// For each formula a report will be about that leans on an implicit Int→Real
    /// conversion: the solver's answer on it with the conversions written out
    /// ([`conversions`]), at the limits the finding was confirmed at.
    fn write_out_conversions(
        &self,
        findings: &mut [Finding],
        groups: &[Group],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        factor: f64,
        progress: &mut dyn Progress,
    ) -> Result<(), TriageError> {
        let to_check = reported_with(findings, groups, |i| {
            conversions::written_out(&findings[i].formula)
        });
        let what = |n| {
            format!(
            "{n} reported formulas lean on an implicit Int→Real conversion: each run again with `to_real` written out"
        )
        };
        let checked = self.each_reported(to_check, what, resolved, progress, |i, _| {
            let f = &findings[i];
            let limits = self.confirmed_limits(i, f, factor);
            conversions::check(
                self.caller,
                f,
                &resolved[i].0,
                limits,
                self.witness_values(i),
            )
        })?;
        for (i, converted) in checked {
            findings[i].converted = converted;
        }
        Ok(())
    }

    /// For each finding a report will be about: the report's command run once more on
    /// the report's script, at the limits the finding was confirmed at — the output
    /// the report shows ([`Finding::printed`]). No earlier call ran exactly that: the
    /// confirmations asked for models and ran the self-checks that reducing the
    /// options may have left out of the report's command.
    fn run_report_commands(
        &self,
        findings: &mut [Finding],
        groups: &[Group],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        factor: f64,
        progress: &mut dyn Progress,
    ) -> Result<(), TriageError> {
        let to_run = reported_with(findings, groups, |i| {
            let f = &findings[i];
            let found_on = self.dirs[f.trigger.dir].solver(&f.trigger.row().solver);
            bug_reports::report_solver(f, found_on).cloned()
        });
        let what = |n| {
            format!(
                "running the command of each of the {n} reports on its script, for the output it shows"
            )
        };
        let printed = self.each_reported(to_run, what, resolved, progress, |i, solver| {
            let f = &findings[i];
            self.caller
                .printed(solver, &f.formula, self.confirmed_limits(i, f, factor))
        })?;
        for (i, p) in printed {
            findings[i].printed = Some(p);
        }
        Ok(())
    }

    /// Finding `i` (`f`, its formula `formula`) to ask again on other solvers: at the
    /// limits it was confirmed at, as many times as a confirmation runs — once for a
    /// performance finding, whose attempt runs to the longer limit.
    fn again<'a>(
        &'a self,
        i: usize,
        f: &'a Finding,
        formula: &'a Formula,
        options: &Options,
    ) -> confirm::Again<'a> {
        let factor = options.settings.performance_factor.max(1.0);
        confirm::Again {
            caller: self.caller,
            finding: f,
            formula,
            limits: self.confirmed_limits(i, f, factor),
            attempts: if f.kind == Kind::Performance {
                1
            } else {
                options.settings.attempts
            },
        }
    }

    /// The limits finding `i` was confirmed at: the run's, or `factor` × the run's for
    /// a performance finding.
    fn confirmed_limits(&self, i: usize, f: &Finding, factor: f64) -> CallSettings<'_> {
        if f.kind == Kind::Performance {
            self.limits(i).scaled(factor)
        } else {
            self.limits(i)
        }
    }

    /// [`Triaging::each`] as a step of its own, announced by `what(n)`, on the `n`
    /// findings a report will be about that [`reported_with`] picked: `step` gets each
    /// one's pick; the results come back beside their findings, in finding order.
    /// Nothing, and no step, when none was picked.
    fn each_reported<T: Sync, R: Send>(
        &self,
        (members, picked): (Vec<usize>, HashMap<usize, T>),
        what: impl FnOnce(usize) -> String,
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        progress: &mut dyn Progress,
        step: impl Fn(usize, &T) -> Result<R, CallError> + Sync + Send,
    ) -> Result<Vec<(usize, R)>, TriageError> {
        if members.is_empty() {
            return Ok(Vec::new());
        }
        progress.step(&what(members.len()));
        let results = self.each(&members, resolved, progress, |i| step(i, &picked[&i]))?;
        Ok(members.into_iter().zip(results).collect())
    }

    /// `step` on each of the findings `members`, `jobs` at a time, telling `progress`
    /// how many are done; a call that could not be made is an error naming the
    /// finding's solver.
    fn each<R: Send>(
        &self,
        members: &[usize],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        progress: &mut dyn Progress,
        step: impl Fn(usize) -> Result<R, CallError> + Sync + Send,
    ) -> Result<Vec<R>, TriageError> {
        self.caller
            .map_observed(
                members,
                |&i| {
                    step(i).map_err(|error| TriageError::Call {
                        solver: resolved[i].0.name.clone(),
                        error,
                    })
                },
                &mut |done, total| progress.advance(done, total),
            )
            .into_iter()
            .collect()
    }

    /// Confirms the triggers, `jobs` calls at a time: every correctness trigger, and
    /// the performance triggers [`group::next_to_confirm`] picks, in rounds until each
    /// candidate group has its survivors (every one, for `performance_formulas: None`);
    /// the rest are [`confirm::not_rerun`]. `operators[i]` are trigger `i`'s.
    fn confirm_all(
        &self,
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        settings: Settings,
        operators: &[Signature],
        progress: &mut dyn Progress,
    ) -> Result<Vec<Confirmation>, TriageError> {
        let mut done: Vec<Option<Confirmation>> = vec![None; self.rows.len()];
        let mut next: Vec<usize> = (0..self.rows.len())
            .filter(|&i| self.rows[i].verdict().is_bug() || settings.performance_formulas.is_none())
            .collect();
        let candidates = match settings.performance_formulas {
            Some(_) => group::performance_candidates(self.rows, operators),
            None => Vec::new(),
        };
        loop {
            if let Some(wanted) = settings.performance_formulas {
                let outcomes: Vec<_> = done.iter().map(|c| c.as_ref().map(|c| c.outcome)).collect();
                for members in &candidates {
                    next.extend(group::next_to_confirm(members, &outcomes, wanted));
                }
            }
            if next.is_empty() {
                break;
            }
            // Each round counts from what the rounds before it confirmed.
            let before = done.iter().filter(|c| c.is_some()).count() as u64;
            let results = self.caller.map_observed(
                &next,
                |&i| {
                    let (solver, reference) = &resolved[i];
                    confirm::confirm(
                        self.caller,
                        &self.rows[i],
                        &self.formula(i),
                        solver,
                        reference.as_ref(),
                        self.limits(i),
                        settings,
                    )
                    .map_err(|error| TriageError::Call {
                        solver: solver.name.clone(),
                        error,
                    })
                },
                &mut |d, t| progress.advance(before + d, before + t),
            );
            for (i, result) in next.drain(..).zip(results) {
                done[i] = Some(result?);
            }
        }
        Ok(done
            .into_iter()
            .enumerate()
            .map(|(i, c)| c.unwrap_or_else(|| confirm::not_rerun(&self.rows[i], self.limits(i))))
            .collect())
    }

    /// Each crash trigger's signature: from the re-run, else from the run's own log
    /// (a crash that did not happen again).
    fn crash_signatures(&self, confirmations: &[Confirmation]) -> Vec<Option<String>> {
        let mut recorded: HashMap<usize, HashMap<(String, String), String>> = HashMap::new();
        self.rows
            .iter()
            .zip(confirmations)
            .map(|(t, c)| {
                if t.verdict() != crate::oracle::Verdict::Crash {
                    return None;
                }
                if c.answer.status == crate::oracle::Status::Crash {
                    if let Some(signature) = &c.answer.crash_signature {
                        return Some(signature.clone());
                    }
                }
                recorded
                    .entry(t.dir)
                    .or_insert_with(|| triggers::recorded_crash_signatures(&self.dirs[t.dir].path))
                    .get(&(t.row().solver.clone(), t.row().index.clone()))
                    .cloned()
            })
            .collect()
    }

    /// Runs the formula of every trigger whose range is measured (`ranged_by[i] ==
    /// Some(i)`, [`group::range_samples`]) on the other installed versions of its
    /// family, in the configuration its solver is in, each (formula, solver) once;
    /// returns those versions by [`lineage`] of each trigger that was not dropped.
    fn run_ranges(
        &self,
        installed: &[SolverConfig],
        resolved: &[(SolverConfig, Option<SolverConfig>)],
        ranged_by: &[Option<usize>],
        progress: &mut dyn Progress,
    ) -> HashMap<String, Vec<SolverConfig>> {
        let mut families: HashMap<String, Vec<SolverConfig>> = HashMap::new();
        let mut tasks: Vec<(usize, SolverConfig)> = Vec::new();
        // A formula is known by the first trigger that has it.
        let mut first_with: HashMap<&str, usize> = HashMap::new();
        let mut planned: HashSet<(usize, String)> = HashSet::new();
        for (i, t) in self.rows.iter().enumerate() {
            if ranged_by[i] != Some(i) {
                continue;
            }
            let solver = &resolved[i].0;
            let versions = families.entry(lineage(solver)).or_insert_with(|| {
                range::family_versions(installed, &t.row().family)
                    .iter()
                    .map(|release| configure_like(release, solver))
                    .collect()
            });
            for s in versions.iter().filter(|s| s.version != t.row().version) {
                let formula = *first_with.entry(&self.formulas[i]).or_insert(i);
                if planned.insert((formula, s.name.clone())) {
                    tasks.push((i, s.clone()));
                }
            }
        }
        progress.step(&format!(
            "version ranges: {} more calls over {} famil{}",
            tasks.len(),
            families.len(),
            if families.len() == 1 { "y" } else { "ies" }
        ));
        // Errors (a version that cannot start) are recorded by `range_of`.
        self.caller.map_observed(
            &tasks,
            |(i, solver)| {
                let _ = self
                    .caller
                    .cached(solver, &self.formulas[*i], self.limits(*i));
            },
            &mut |done, total| progress.advance(done, total),
        );
        families
    }

    /// Trigger `i`'s version range, from the answers `run_ranges` cached.
    fn range_of(
        &self,
        i: usize,
        c: &Confirmation,
        versions: &[SolverConfig],
    ) -> range::ReleaseTable {
        let t = &self.rows[i];
        let reference = match &c.reference {
            Some(a) => Some(a.as_reference()),
            None => confirm::recorded_reference(t),
        };
        let own_answer = if c.reproduced > 0 {
            c.answer.describe()
        } else {
            format!("{} (in the run; not on re-runs)", t.row().status)
        };
        range::version_range(
            self.caller,
            t,
            &self.formula(i),
            versions,
            reference,
            self.limits(i),
            &own_answer,
        )
    }
}

/// What tells a configuration's findings apart (groups, known issues): its options,
/// `name=value`, and a tactic configuration's `tactic=EXPRESSION`.
fn configuration_words(c: &crate::solvers::pool::Configured) -> Vec<String> {
    let mut words = c.options.clone();
    words.extend(c.tactic.iter().map(|t| format!("tactic={t}")));
    words
}

/// The releases a finding is ranged and timed on, by name: its family's (`z3`), or,
/// for an option configuration, the family's in that configuration
/// (`z3+tactic.default_tactic=smt sat.euf=true`: a bug of z3's new core is ranged
/// with the new core on every release, [`configure_like`]).
fn lineage(solver: &SolverConfig) -> String {
    let family = solver.family.to_ascii_lowercase();
    match &solver.configuration {
        Some(c) => match &c.tactic {
            Some(tactic) => format!("{family}+{} {tactic}", c.options.join(" ")),
            None => format!("{family}+{}", c.options.join(" ")),
        },
        None => family,
    }
}

/// The formulas of the triggers, and the logic each grammar declares.
struct Formulas {
    /// The formula text of every trigger, in trigger order.
    texts: Vec<String>,
    /// By grammar name: the SMT-LIB logic its `logic:` line declares, if any.
    logics: HashMap<String, Option<String>>,
}

/// The grammar a trigger of `dir` names: a `--grammar` file of that name, a built-in,
/// or the grammar file the run recorded.
fn grammar_of(dir: &RunDirectory, name: &str, given: &[Grammar]) -> Result<Grammar, TriageError> {
    if let Some(g) = given.iter().find(|g| g.name == name) {
        return Ok(g.clone());
    }
    if let Some(builtin) = crate::builtins::Builtin::find(name) {
        return Ok(builtin.grammar());
    }
    match &dir.manifest.grammar_file {
        Some(file) if dir.manifest.grammar == name => Ok(crate::builtins::load(file)?),
        _ => Err(TriageError::UnknownGrammar {
            dir: dir.path.clone(),
            grammar: name.to_string(),
        }),
    }
}

/// The formula text of every trigger, from its grammar and index.
fn formulas(
    dirs: &[RunDirectory],
    rows: &[TriggerRow],
    grammars: &[Grammar],
) -> Result<Formulas, TriageError> {
    let mut enumerations: HashMap<String, Enumeration> = HashMap::new();
    let mut logics = HashMap::new();
    let mut texts = Vec::with_capacity(rows.len());
    for t in rows {
        let dir = &dirs[t.dir];
        let path = || dir.runs.clone();
        if !enumerations.contains_key(&t.row().grammar) {
            let grammar = grammar_of(dir, &t.row().grammar, grammars)?;
            let logic = crate::builtins::declared_logic(&grammar)?.map(str::to_string);
            logics.insert(t.row().grammar.clone(), logic);
            enumerations.insert(t.row().grammar.clone(), Enumeration::new(grammar));
        }
        let enumeration = enumerations
            .get_mut(&t.row().grammar)
            .expect("inserted above");
        let index: BigUint = t
            .row()
            .index
            .parse()
            .expect("the reader checked the digits");
        let term = enumeration
            .term(&index)
            .map_err(|error| TriageError::Index {
                path: path(),
                line: t.line,
                error,
            })?;
        if term.size != t.row().size {
            return Err(TriageError::SizeMismatch {
                path: path(),
                line: t.line,
                grammar: t.row().grammar.clone(),
                index: t.row().index.clone(),
                recorded: t.row().size,
                actual: term.size,
            });
        }
        texts.push(enumeration.text(&term));
    }
    Ok(Formulas { texts, logics })
}

/// Every solver triage may run: each run's own (first, in directory order), then the
/// pool's.
fn installed_solvers(dirs: &[RunDirectory], pool: Option<&Pool>) -> Vec<SolverConfig> {
    let mut out: Vec<SolverConfig> = Vec::new();
    let pool_solvers = pool.map_or(&[][..], |p| &p.solvers[..]);
    for s in dirs
        .iter()
        .flat_map(|d| d.solvers.iter())
        .chain(pool_solvers)
    {
        if !out.iter().any(|o| o.name == s.name) {
            out.push(s.clone());
        }
    }
    out
}

/// Each trigger's solver and reference, looked up in its run's solvers, then the pool.
fn resolve_solvers(
    dirs: &[RunDirectory],
    rows: &[TriggerRow],
    options: &Options,
) -> Result<Vec<(SolverConfig, Option<SolverConfig>)>, TriageError> {
    let find = |t: &TriggerRow, name: &str, role: &'static str| {
        dirs[t.dir]
            .solver(name)
            .or_else(|| options.pool.as_ref().and_then(|p| p.get(name)))
            .cloned()
            .ok_or_else(|| TriageError::UnknownSolver {
                dir: dirs[t.dir].path.clone(),
                role,
                name: name.to_string(),
                pool: options.pool.as_ref().and_then(|p| p.source.clone()),
            })
    };
    rows.iter()
        .map(|t| {
            let solver = find(t, &t.row().solver, "solver")?;
            // A performance finding the pool established is confirmed against the
            // solver that decided it, the way its reference would be.
            let judge = t.judge_name();
            let reference = if judge.is_empty() {
                None
            } else {
                Some(find(t, judge, "reference")?)
            };
            Ok((solver, reference))
        })
        .collect()
}
