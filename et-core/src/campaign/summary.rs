//! Counts of a run for the end-of-run table: statuses and verdicts per solver, and the
//! driver's overhead.

use std::fmt::Write as _;
use std::time::Duration;

use crate::oracle::{Status, Verdict};
use crate::solvers::SolverConfig;

use super::row::RunRow;

/// What a run did, per solver.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Solver names in pool order.
    pub solvers: Vec<String>,
    /// `[solver][status]` counts.
    pub statuses: Vec<[u64; Status::COUNT]>,
    /// `[solver][verdict]` counts.
    pub verdicts: Vec<[u64; Verdict::COUNT]>,
    /// Formulas this run completed: with it, every solver under test has a row.
    pub formulas: u64,
    /// Formulas of an interrupted run that got the rows of some of their calls only
    /// (a resume makes the others).
    pub partial: u64,
    /// Formulas already finished by an earlier run (resume); the table counts their
    /// calls too ([`Summary::fold_earlier`]).
    pub resumed: u64,
    /// Formulas the run's plan holds (with those done earlier).
    pub planned: u64,
    /// Sum of the wall times of every call of this run.
    pub call_seconds: f64,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Worker count.
    pub jobs: usize,
    /// Cores of the machine the run had (`available_parallelism`).
    pub cores: usize,
    /// Whether the run was interrupted.
    pub interrupted: bool,
    /// Solvers under test without a judge: only et's own evaluation checked their
    /// answers ([`super::runner::Campaign::judged_by_et_alone`]).
    pub judged_by_et_alone: Vec<String>,
    /// Formulas of this run that no solver of the pool decided and no witness proves
    /// sat (listed in `undecided.csv`).
    pub undecided: u64,
    /// Formulas of this run that every solver rejected: a defect of the grammar, not a
    /// finding.
    pub rejected_by_all: u64,
    /// The smallest formula every solver rejected: its index, and a solver's error line.
    pub first_rejected_by_all: Option<(String, String)>,
    /// Per solver (pool order): `sat` answers of a solver asked for models whose model
    /// et did not judge valid or invalid (`model_check` `unsupported`, `undetermined`,
    /// or empty: no model printed, or a formula et cannot read); `None` for a solver
    /// not asked for models.
    pub unchecked_sat: Vec<Option<u64>>,
    /// Calls made in solver sessions.
    pub session_calls: u64,
    /// Of those, the calls of judges not under test.
    pub judge_session_calls: u64,
    /// Session calls with a finding (or a crash, memout, rejection, kill or
    /// starvation), made again fresh.
    pub confirmed_fresh: u64,
    /// Session calls the audit made again fresh.
    pub audited: u64,
    /// Of those, the ones whose fresh answer was the same beyond time.
    pub audit_agreed: u64,
    /// Re-runs whose fresh answer differed from the session's beyond time
    /// (`session-disagreements.csv`).
    pub disagreements: u64,
}

impl Summary {
    /// An empty summary for these solvers.
    pub fn new(solvers: &[SolverConfig], resumed: u64) -> Summary {
        Summary {
            solvers: solvers.iter().map(|s| s.name.clone()).collect(),
            statuses: vec![[0; Status::COUNT]; solvers.len()],
            verdicts: vec![[0; Verdict::COUNT]; solvers.len()],
            unchecked_sat: solvers
                .iter()
                .map(|s| s.command_with_models().map(|_| 0))
                .collect(),
            formulas: 0,
            partial: 0,
            resumed,
            planned: 0,
            call_seconds: 0.0,
            elapsed: Duration::ZERO,
            jobs: 1,
            cores: 1,
            interrupted: false,
            judged_by_et_alone: Vec::new(),
            undecided: 0,
            rejected_by_all: 0,
            first_rejected_by_all: None,
            session_calls: 0,
            judge_session_calls: 0,
            confirmed_fresh: 0,
            audited: 0,
            audit_agreed: 0,
            disagreements: 0,
        }
    }

    /// Counts the rows of one formula written to `runs.csv`: `complete` when every
    /// solver under test now has its row (else, an interrupted formula, only its calls
    /// count, and the formula only if it got a row).
    pub fn add(&mut self, rows: &[RunRow], call_seconds: f64, complete: bool) {
        if complete {
            self.formulas += 1;
        } else if !rows.is_empty() {
            self.partial += 1;
        }
        self.call_seconds += call_seconds;
        for row in rows {
            let Some(i) = self.solvers.iter().position(|s| *s == row.solver) else {
                continue;
            };
            self.statuses[i][row.status as usize] += 1;
            if let Some(v) = row.verdict {
                self.verdicts[i][v as usize] += 1;
            }
            let judged = matches!(row.model_check.as_str(), "valid" | "invalid");
            if let (Status::Sat, false, Some(n)) = (row.status, judged, &mut self.unchecked_sat[i])
            {
                *n += 1;
            }
        }
    }

    /// Folds in the calls an earlier run of the campaign made (`--resume`), per solver
    /// in this summary's order: the table then covers the whole campaign, however
    /// many times it was resumed.
    pub fn fold_earlier(
        &mut self,
        statuses: &[[u64; Status::COUNT]],
        verdicts: &[[u64; Verdict::COUNT]],
    ) {
        for (mine, earlier) in self.statuses.iter_mut().zip(statuses) {
            for (a, b) in mine.iter_mut().zip(earlier) {
                *a += b;
            }
        }
        for (mine, earlier) in self.verdicts.iter_mut().zip(verdicts) {
            for (a, b) in mine.iter_mut().zip(earlier) {
                *a += b;
            }
        }
    }

    /// Whether the run had nothing to do: every formula of its plan already had its
    /// rows, and it made no call.
    pub fn nothing_to_do(&self) -> bool {
        self.planned > 0 && self.resumed == self.planned && self.formulas == 0 && self.partial == 0
    }

    /// Counts what re-running one formula's session calls fresh found.
    pub(super) fn add_rechecks(&mut self, rechecks: &super::worker::SessionRechecks) {
        self.session_calls += rechecks.session_calls;
        self.judge_session_calls += rechecks.judge_session_calls;
        self.confirmed_fresh += rechecks.confirmed;
        self.audited += rechecks.audited;
        self.audit_agreed += rechecks.audit_agreed;
        self.disagreements += rechecks.disagreements.len() as u64;
    }

    /// Records how the run ended.
    pub fn finish(&mut self, elapsed: Duration, jobs: usize, interrupted: bool) {
        self.elapsed = elapsed;
        self.jobs = jobs;
        self.cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.interrupted = interrupted;
    }

    /// Calls made in this run (rows written).
    pub fn calls(&self) -> u64 {
        self.statuses.iter().flatten().sum()
    }

    /// Total count of a status over all solvers.
    pub fn status_total(&self, status: Status) -> u64 {
        self.statuses.iter().map(|s| s[status as usize]).sum()
    }

    /// Total count of a verdict over all solvers.
    pub fn verdict_total(&self, verdict: Verdict) -> u64 {
        self.verdicts.iter().map(|v| v[verdict as usize]).sum()
    }

    /// Driver overhead: wall time ÷ (sum of call wall times ÷ J). 1.0 means the
    /// solvers' own time is all the run cost. Only measured when each job can have a
    /// core (J ≤ cores): with more jobs than cores, calls wait for a core and their
    /// wall times count that wait, so the ratio measures the machine, not et.
    ///
    /// It is at least 1: each of the J workers makes one call at a time (a session's
    /// formula written ahead is measured from its predecessor's answer, and the worker
    /// makes no other call before reading it), so their calls fit in J × the wall
    /// time. Calls whose times add up to more ([`Summary::calls_overlapped`]) were
    /// measured over each other, and the ratio would say that et cost less than
    /// nothing: it is not given.
    pub fn overhead(&self) -> Option<f64> {
        (self.call_seconds > 0.0 && self.jobs <= self.cores && !self.calls_overlapped())
            .then(|| self.elapsed.as_secs_f64() / (self.call_seconds / self.jobs as f64))
    }

    /// Whether the calls' wall times add up to more than the jobs had: J × the run's
    /// wall time.
    pub fn calls_overlapped(&self) -> bool {
        self.call_seconds > self.elapsed.as_secs_f64() * self.jobs as f64
    }

    /// The end-of-run table, made to fit 100 columns: the answers (`sat`, `unsat`,
    /// `unknown`, `timeout`) and the correctness verdicts (`!unsound`,
    /// `!invalid_model`) always, every other status or verdict only when some solver
    /// has it; under it, a line saying what each shown column counts.
    pub fn table(&self) -> String {
        let width = self
            .solvers
            .iter()
            .map(String::len)
            .max()
            .unwrap_or(6)
            .max(6);
        let always_status = [Status::Sat, Status::Unsat, Status::Unknown, Status::Timeout];
        let always_verdict = [Verdict::Unsound, Verdict::InvalidModel];
        let statuses: Vec<Status> = Status::ALL
            .iter()
            .copied()
            .filter(|s| always_status.contains(s) || self.status_total(*s) > 0)
            .collect();
        let verdicts: Vec<Verdict> = Verdict::ALL
            .iter()
            .copied()
            .filter(|v| always_verdict.contains(v) || self.verdict_total(*v) > 0)
            .collect();
        let columns: Vec<(String, Vec<u64>)> = statuses
            .iter()
            .map(|&s| {
                let counts = self.statuses.iter().map(|c| c[s as usize]).collect();
                (s.label().to_string(), counts)
            })
            .chain(verdicts.iter().map(|&v| {
                let counts = self.verdicts.iter().map(|c| c[v as usize]).collect();
                (format!("!{}", v.label()), counts)
            }))
            .collect();
        let mut out = String::new();
        let _ = write!(out, "{:<width$}", "solver");
        let column_width = |(label, counts): &(String, Vec<u64>)| {
            let digits = counts
                .iter()
                .map(|n| n.to_string().len())
                .max()
                .unwrap_or(1);
            label.len().max(digits)
        };
        for column in &columns {
            let _ = write!(out, " {:>w$}", column.0, w = column_width(column));
        }
        out.push('\n');
        for (i, name) in self.solvers.iter().enumerate() {
            let _ = write!(out, "{name:<width$}");
            for column in &columns {
                let _ = write!(out, " {:>w$}", column.1[i], w = column_width(column));
            }
            out.push('\n');
        }
        // `sat` and `unsat` share their line.
        let _ = writeln!(
            out,
            "  {:<22} {}",
            "sat, unsat",
            status_meaning(Status::Sat)
        );
        for &s in statuses.iter().filter(|s| !s.is_decided()) {
            let _ = writeln!(out, "  {:<22} {}", s.label(), status_meaning(s));
        }
        for &v in &verdicts {
            let _ = writeln!(
                out,
                "  {:<22} {}",
                format!("!{}", v.label()),
                verdict_meaning(v)
            );
        }
        let _ = write!(
            out,
            "{} in {:.1} s ({} done earlier",
            count(self.formulas, "formula", "formulas"),
            self.elapsed.as_secs_f64(),
            self.resumed,
        );
        if self.resumed > 0 {
            out.push_str(", counted in the table too");
        }
        if self.partial > 0 {
            let _ = write!(
                out,
                "; {} more with some of their rows, the rest on --resume",
                self.partial
            );
        }
        let _ = write!(out, "); solver time {:.1} s", self.call_seconds);
        match self.overhead() {
            Some(o) => {
                let _ = write!(
                    out,
                    "; driver overhead {o:.3} (wall time ÷ the solvers' time per job, \
                     solver time ÷ {} jobs: 1.000 means et itself cost nothing)",
                    self.jobs
                );
            }
            None if self.jobs > self.cores => {
                let _ = write!(
                    out,
                    "; no driver overhead: {} jobs on {} cores share the cores, so the \
                     solvers' time says nothing about et's own",
                    self.jobs, self.cores
                );
            }
            None if self.calls_overlapped() => {
                let _ = write!(
                    out,
                    "; no driver overhead: the calls' times add up to more than {} jobs \
                     had in {:.1} s, so calls were measured over each other",
                    self.jobs,
                    self.elapsed.as_secs_f64()
                );
            }
            None => {}
        }
        if self.undecided > 0 {
            let _ = write!(
                out,
                "\n{} formulas no solver of the pool decided (nor et's witness search): \
                 undecided.csv",
                self.undecided
            );
        }
        if let Some((index, line)) = &self.first_rejected_by_all {
            let _ = write!(
                out,
                "\n{} every solver rejected: the grammar's fault, not a finding (the \
                 smallest, formula {index}: {line})",
                count(self.rejected_by_all, "formula", "formulas")
            );
        }
        if !self.judged_by_et_alone.is_empty() {
            let _ = write!(
                out,
                "\n{} had no reference solver: nothing but et's own evaluation checked {} \
                 answers",
                self.judged_by_et_alone.join(", "),
                if self.judged_by_et_alone.len() == 1 {
                    "its"
                } else {
                    "their"
                }
            );
        }
        let unchecked: Vec<String> = self
            .solvers
            .iter()
            .zip(&self.unchecked_sat)
            .filter_map(|(name, n)| n.filter(|&n| n > 0).map(|n| format!("{name} {n}")))
            .collect();
        if !unchecked.is_empty() {
            let _ = write!(
                out,
                "\nsat answers whose model et could not judge (model_check unsupported, \
                 undetermined or empty): {}",
                unchecked.join(", ")
            );
        }
        if self.session_calls > 0 {
            let judges = match self.judge_session_calls {
                0 => String::new(),
                n => format!(
                    " ({n} of them by judges not under test: references the pool's rules \
                     chose)"
                ),
            };
            let _ = write!(
                out,
                "\n{} calls in solver sessions{judges}; {} made again in fresh processes (a finding, a \
                 crash, memout, rejection, kill or starvation rests on a fresh process); \
                 audit: {} of {} re-run fresh agreed; {} session/fresh disagreements \
                 (session-disagreements.csv)",
                self.session_calls,
                self.confirmed_fresh,
                self.audit_agreed,
                self.audited,
                self.disagreements
            );
        }
        let setup_errors = self.status_total(Status::SetupError);
        if setup_errors > 0 {
            let _ = write!(
                out,
                "\n{setup_errors} calls could not start (setup_error): the solver could not be \
                 executed, its libraries did not load, or the memory limit is too low to load \
                 it. That is a problem of the pool or the limits, not a bug of the solver: \
                 these calls are never bug triggers."
            );
        }
        let killed = self.status_total(Status::Killed);
        if killed > 0 {
            let _ = write!(
                out,
                "\n{killed} calls were killed from outside (killed): a SIGKILL that et did not \
                 send ended them on every re-run (an operator, or the kernel's OOM killer acting \
                 outside et's memory limit). They say nothing about the solver: never bug \
                 triggers."
            );
        }
        let starved = self.status_total(Status::Starved);
        if starved > 0 {
            let _ = write!(
                out,
                "\n{starved} calls were starved (starved): the wall-clock limit stopped them, \
                 also on their re-run, before they had used their CPU budget, so they waited \
                 instead of computing. The machine was too busy to judge them: never \
                 timeouts or bug triggers. Run again with fewer --jobs or on a quieter \
                 machine."
            );
        }
        out
    }
}

/// What a status column of the table counts, in a line.
fn status_meaning(status: Status) -> &'static str {
    match status {
        Status::Sat | Status::Unsat => "calls that answered so",
        Status::Unknown => "calls that gave up (`unknown`)",
        Status::Timeout => "calls stopped at the time limit while computing",
        Status::Memout => "calls that ran out of memory",
        Status::Crash => "calls that crashed (signal, failed assertion, garbled output)",
        Status::Rejected => "calls whose formula or option the solver refused",
        Status::SetupError => "calls that could not start (never a finding)",
        Status::Killed => "calls killed from outside et on every try (never a finding)",
        Status::Starved => "calls the wall clock stopped before they computed (never a finding)",
    }
}

/// What a verdict column of the table counts, in a line.
fn verdict_meaning(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Unsound => "findings: a sat/unsat the reference or et's witness contradicts",
        Verdict::InvalidModel => "findings: a model that does not satisfy the formula",
        Verdict::Crash => "findings: a crash",
        Verdict::Timeout => "findings: a timeout on a formula another solver decided",
        Verdict::Unknown => "findings: an unknown on a formula another solver decided",
        Verdict::ValidatorFalseAlarm => {
            "the solver's own model check rejected a model et found valid"
        }
        Verdict::Incremental => {
            "findings: a script's answer at a check-sat its release contradicts alone"
        }
    }
}

/// `n` and the noun in its number: "1 formula", "3 formulas".
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of `jobs` jobs whose calls took `call_seconds` in all, in 4 s of wall
    /// time.
    fn run_of(jobs: usize, call_seconds: f64) -> Summary {
        let solver = SolverConfig::new("z3", "z3", "1", vec!["/bin/true".into()]);
        let mut summary = Summary::new(&[solver], 0);
        summary.add(&[], call_seconds, true);
        summary.add(&[], 0.0, false); // interrupted with no row: not a formula
        summary.finish(Duration::from_secs(4), jobs, true);
        summary
    }

    #[test]
    fn driver_overhead_only_when_each_job_has_a_core() {
        let one = run_of(1, 2.0);
        assert_eq!(one.formulas, 1, "only formulas with their rows count");
        assert_eq!(one.partial, 0);
        assert_eq!(one.overhead(), Some(2.0));
        assert!(
            one.table().contains("driver overhead 2.000"),
            "{}",
            one.table()
        );
        let many = run_of(1024, 2.0);
        assert!(many.cores < 1024);
        assert_eq!(many.overhead(), None);
        let table = many.table();
        assert!(!table.contains("driver overhead 1"), "{table}");
        assert!(
            table.contains("no driver overhead: 1024 jobs on"),
            "{table}"
        );
    }

    /// The table fits 100 columns, shows a status or verdict beyond the answers and
    /// the correctness verdicts only when some solver has it, and says what each shown
    /// column counts in a line under it.
    #[test]
    fn the_table_fits_a_terminal_and_explains_its_columns() {
        let names = ["cvc5-1.4.2", "z3-4.16.0", "yices-2.6.5"];
        let solvers: Vec<SolverConfig> = names
            .iter()
            .map(|n| SolverConfig::new(n, "z3", "1", vec!["/bin/true".into()]))
            .collect();
        let mut summary = Summary::new(&solvers, 0);
        summary.statuses[0][Status::Sat as usize] = 123_456;
        summary.statuses[1][Status::Crash as usize] = 2;
        summary.verdicts[1][Verdict::Crash as usize] = 2;
        summary.finish(Duration::from_secs(4), 2, false);
        let table = summary.table();
        let lines: Vec<&str> = table.lines().collect();
        let header: Vec<&str> = lines[0].split_whitespace().collect();
        assert_eq!(
            header,
            [
                "solver",
                "sat",
                "unsat",
                "unknown",
                "timeout",
                "crash",
                "!unsound",
                "!invalid_model",
                "!crash"
            ]
        );
        for line in &lines[..1 + names.len()] {
            assert!(line.chars().count() <= 100, "{line}");
        }
        // One line of meaning per column (sat and unsat share theirs).
        for column in &header[3..] {
            assert!(
                lines[1 + names.len()..]
                    .iter()
                    .any(|l| l.trim_start().starts_with(&format!("{column} "))),
                "no line says what {column} counts:\n{table}"
            );
        }
    }

    #[test]
    fn driver_overhead_is_never_under_one() {
        // Calls that took all of one job's time: et cost nothing.
        assert_eq!(run_of(1, 4.0).overhead(), Some(1.0));
        // 6 s of calls in 4 s of one job: they were measured over each other (a
        // session's formula written ahead timed across another call of the worker).
        // 4 ÷ 6 would say et cost less than nothing.
        let overlapped = run_of(1, 6.0);
        assert!(overlapped.calls_overlapped());
        assert_eq!(overlapped.overhead(), None);
        let table = overlapped.table();
        assert!(!table.contains("driver overhead 0."), "{table}");
        assert!(
            table.contains("no driver overhead: the calls' times add up to more than 1 jobs"),
            "{table}"
        );
    }
}
