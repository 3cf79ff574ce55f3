//! Streaming statistics over run directories: one pass over each call log, counters
//! per (solver, grammar), and the per-formula join (see [`super::join`]) for jointly
//! solved times, regressions and how complete each directory is. Nothing here grows
//! with the number of rows.
//!
//! One notion of *solved* runs through everything: a call is solved when it answered
//! sat or unsat without a correctness verdict (an invalid model or an unsound answer is
//! decided, not solved). Times come from one clock ([`Clock`]), chosen per report.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use crate::oracle::{Evidence, Status, Verdict};

use super::coverage::{check_all_disjoint, Coverage};
use super::join::{FormulaJoin, JoinStats, Outcome};
use super::load::RunDir;
use super::timeouts::{default_timeouts, Clock, Timeout};
use super::ReportError;
use crate::version::compare_versions;

/// How many example indices a regression keeps (the smallest ones: smallest formulas).
pub const MAX_EXAMPLES: usize = 5;

/// Default window of the per-formula join, in formulas.
pub const DEFAULT_WINDOW: usize = 1 << 18;

/// Settings of [`build_report`].
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// The `solved within T` grid, ascending.
    pub timeouts: Vec<Timeout>,
    /// Formulas the join window holds before spilling to disk.
    pub window: usize,
    /// Which measured time the report uses.
    pub clock: Clock,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            timeouts: default_timeouts(),
            window: DEFAULT_WINDOW,
            clock: Clock::default(),
        }
    }
}

/// A solver as it appears in the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolverInfo {
    /// Unique name (`z3-4.13.0`).
    pub name: String,
    /// Family (`z3`).
    pub family: String,
    /// Version (`4.13.0`).
    pub version: String,
}

/// Everything counted for one solver on one grammar.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SolverGrammar {
    /// Position in [`Report::solvers`].
    pub solver: usize,
    /// Position in [`Report::grammars`].
    pub grammar: usize,
    /// Calls (rows) of this solver on this grammar.
    pub calls: u64,
    /// Calls per status, indexed like [`Status::ALL`].
    pub statuses: Vec<u64>,
    /// Calls answered sat or unsat without a correctness verdict.
    pub solved: u64,
    /// Sum of the calls' times on the report's clock, seconds.
    pub seconds: f64,
    /// Calls per verdict, indexed like [`Verdict::ALL`].
    pub verdicts: Vec<u64>,
    /// Correctness verdicts per evidence, indexed like [`Evidence::ALL`].
    pub evidence: Vec<u64>,
    /// Calls solved within each timeout of [`Report::timeouts`].
    pub solved_within: Vec<u64>,
    /// The smallest time limit on the report's clock of the runs that contributed calls
    /// ([`Clock::run_limit`]): "solved within T" is only measured for T up to it.
    pub run_timeout_s: f64,
    /// Formulas every solver of this solver's family (in the run's pool) solved.
    pub joint_formulas: u64,
    /// This solver's time on those formulas, seconds.
    pub joint_seconds: f64,
    /// `sat` answers whose model et did not judge valid or invalid (`model_check`
    /// `unsupported`, `undetermined` or empty), counted where the run recorded that it
    /// asked this solver for models; `None` where no run did (models off, or runs made
    /// before et checked models).
    pub unchecked_sat: Option<u64>,
}

impl SolverGrammar {
    /// Calls with verdict `v`.
    pub fn verdict(&self, v: Verdict) -> u64 {
        self.verdicts[v as usize]
    }

    /// Calls with status `s`.
    pub fn status(&self, s: Status) -> u64 {
        self.statuses[s as usize]
    }

    /// Correctness verdicts established by `e`.
    pub fn by_evidence(&self, e: Evidence) -> u64 {
        self.evidence[e as usize]
    }

    /// Calls with a correctness verdict on the answer (unsound, invalid model, crash);
    /// validator false alarms are counted apart.
    pub fn bugs(&self) -> u64 {
        Verdict::ALL
            .iter()
            .filter(|v| v.spoils_answer())
            .map(|v| self.verdict(*v))
            .sum()
    }

    /// Solved formulas per second of the solver's time, if any time was spent.
    pub fn throughput(&self) -> Option<f64> {
        (self.seconds > 0.0).then(|| self.solved as f64 / self.seconds)
    }

    /// Whether "solved within `t`" was measured: `t` is at most the run's timeout.
    pub fn measured(&self, t: &Timeout) -> bool {
        within_timeout(t.seconds, self.run_timeout_s)
    }
}

/// `t ≤ timeout`, tolerating the rounding of a timeout that went through a `Duration`.
pub fn within_timeout(t: f64, timeout: f64) -> bool {
    t <= timeout * (1.0 + 1e-9)
}

/// Formulas one version solved that the next version of its family does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regression {
    /// Position in [`Report::grammars`].
    pub grammar: usize,
    /// The older version (position in [`Report::solvers`]).
    pub from: usize,
    /// The next version of the same family.
    pub to: usize,
    /// Formulas both ran where `from` solved and `to` did not (any other outcome).
    pub lost_solved: u64,
    /// The smallest such indices (at most [`MAX_EXAMPLES`]).
    pub lost_solved_examples: Vec<String>,
    /// Of those, formulas on which `to` got a correctness verdict.
    pub lost_correct: u64,
    /// The smallest such indices (at most [`MAX_EXAMPLES`]).
    pub lost_correct_examples: Vec<String>,
}

/// How complete one input directory is: rows present against what its `run.toml`
/// claims (the formulas of its range and shards × its pool).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputSummary {
    /// The directory as given.
    pub path: PathBuf,
    /// Its grammar.
    pub grammar: String,
    /// The range (and shards) it claims, as `[start, end) shard k/K`.
    pub coverage: String,
    /// Solvers in its pool.
    pub solvers: usize,
    /// Its per-call timeout, seconds, and its CPU-time limit if it had one (`10 (cpu 2)`).
    pub timeout_s: String,
    /// Formulas it claims.
    pub formulas: u64,
    /// Formulas with a row for every solver of the pool.
    pub complete: u64,
    /// Rows (calls) present.
    pub calls: u64,
    /// Rows a complete run has: formulas × solvers.
    pub expected_calls: u128,
    /// The call log ended in a torn line (a run killed while writing), left out.
    pub torn_last_line: bool,
    /// Rows that are not calls of the run (a call's second row, another solver's),
    /// left out.
    pub left_out: crate::campaign::row::once::LeftOut,
    /// Rows whose index lies outside the claimed range (a `runs.csv` that does not
    /// belong to its `run.toml`); counted in the tables, never as complete formulas.
    pub outside: u64,
}

impl InputSummary {
    /// Every claimed formula has a row for every solver, and no row is outside.
    pub fn is_complete(&self) -> bool {
        self.complete >= self.formulas && self.outside == 0
    }

    /// One sentence: `DIR: 407 of 600 formulas complete (core [0, 600)), 814 of 1200
    /// calls`, and the torn line if there was one.
    pub fn describe(&self) -> String {
        let torn = if self.torn_last_line {
            "; its torn last line was left out"
        } else {
            ""
        };
        let outside = if self.outside > 0 {
            format!("; {} rows outside its range", self.outside)
        } else {
            String::new()
        };
        format!(
            "{}: {} of {} formulas complete ({} {}), {} of {} calls{torn}{outside}",
            self.path.display(),
            self.complete,
            self.formulas,
            self.grammar,
            self.coverage,
            self.calls,
            self.expected_calls
        )
    }
}

/// The aggregated answers of `et report`, ready for tables and plots.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The `solved within T` grid.
    pub timeouts: Vec<Timeout>,
    /// The clock every time in the report was read from.
    pub clock: Clock,
    /// Solvers by family (first seen first), then release order.
    pub solvers: Vec<SolverInfo>,
    /// Grammar names, sorted.
    pub grammars: Vec<String>,
    /// One entry per (solver, grammar) with rows, in solver then grammar order.
    pub cells: Vec<SolverGrammar>,
    /// Consecutive version pairs, by grammar then solver order.
    pub regressions: Vec<Regression>,
    /// The input directories, in the order given, with how complete each is.
    pub inputs: Vec<InputSummary>,
    /// Rows read.
    pub rows: u64,
    /// What the per-formula join did.
    pub join: JoinStats,
    /// Per grammar, the formulas nobody decided (`None`: no input lists them, runs made
    /// before et did).
    pub undecided: Option<Vec<super::undecided::Undecided>>,
    /// Per solver and grammar, the calls a session answered unlike a fresh process
    /// (`None`: no input ran sessions).
    pub disagreements: Option<Vec<super::sessions::Disagreements>>,
}

impl Report {
    /// The counters of `solver` on `grammar`, if it ran there.
    pub fn cell(&self, solver: usize, grammar: usize) -> Option<&SolverGrammar> {
        self.cells
            .iter()
            .find(|c| c.solver == solver && c.grammar == grammar)
    }

    /// Family names in report order.
    pub fn families(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.solvers {
            if !out.contains(&s.family.as_str()) {
                out.push(&s.family);
            }
        }
        out
    }
}

/// Counters while reading; ids are positions in first-seen order.
struct Cell {
    calls: u64,
    statuses: [u64; Status::COUNT],
    solved: u64,
    time_us: u64,
    verdicts: [u64; Verdict::COUNT],
    evidence: [u64; Evidence::COUNT],
    first_within: Vec<u64>,
    run_timeout_s: f64,
    joint_formulas: u64,
    joint_time_us: u64,
    unchecked_sat: Option<u64>,
}

impl Cell {
    fn new(n_timeouts: usize) -> Self {
        Cell {
            calls: 0,
            statuses: [0; Status::COUNT],
            solved: 0,
            time_us: 0,
            verdicts: [0; Verdict::COUNT],
            evidence: [0; Evidence::COUNT],
            first_within: vec![0; n_timeouts],
            run_timeout_s: f64::INFINITY,
            joint_formulas: 0,
            joint_time_us: 0,
            unchecked_sat: None,
        }
    }

    fn add(&mut self, other: Cell) {
        self.calls += other.calls;
        self.solved += other.solved;
        self.time_us += other.time_us;
        let sums = [
            (&mut self.statuses[..], &other.statuses[..]),
            (&mut self.verdicts[..], &other.verdicts[..]),
            (&mut self.evidence[..], &other.evidence[..]),
            (&mut self.first_within[..], &other.first_within[..]),
        ];
        for (mine, theirs) in sums {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.run_timeout_s = self.run_timeout_s.min(other.run_timeout_s);
        self.unchecked_sat = match (self.unchecked_sat, other.unchecked_sat) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
    }
}

#[derive(Default)]
struct RegressionCounts {
    lost_solved: u64,
    lost_solved_examples: Vec<String>,
    lost_correct: u64,
    lost_correct_examples: Vec<String>,
}

#[derive(Default)]
struct Registry {
    solvers: Vec<SolverInfo>,
    solver_ids: HashMap<String, u32>,
    grammars: Vec<String>,
    grammar_ids: HashMap<String, u32>,
}

impl Registry {
    fn solver(&mut self, name: &str, family: &str, version: &str) -> u32 {
        if let Some(id) = self.solver_ids.get(name) {
            return *id;
        }
        let id = self.solvers.len() as u32;
        self.solvers.push(SolverInfo {
            name: name.into(),
            family: family.into(),
            version: version.into(),
        });
        self.solver_ids.insert(name.into(), id);
        id
    }

    fn grammar(&mut self, name: &str) -> u32 {
        if let Some(id) = self.grammar_ids.get(name) {
            return *id;
        }
        let id = self.grammars.len() as u32;
        self.grammars.push(name.into());
        self.grammar_ids.insert(name.into(), id);
        id
    }
}

#[derive(Default)]
struct Tallies {
    cells: HashMap<(u32, u32), Cell>,
    regressions: HashMap<(u32, u32, u32), RegressionCounts>,
}

fn to_us(seconds: f64) -> u64 {
    (seconds * 1e6).round() as u64
}

/// Orders decimal index strings by value.
fn compare_index(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Keeps the `MAX_EXAMPLES` smallest distinct indices, so examples do not depend on
/// row order or sharding.
fn keep_example(examples: &mut Vec<String>, index: &str) {
    let pos = match examples.binary_search_by(|e| compare_index(e, index)) {
        Ok(_) => return,
        Err(pos) => pos,
    };
    if pos < MAX_EXAMPLES {
        examples.insert(pos, index.to_string());
        examples.truncate(MAX_EXAMPLES);
    }
}

impl Tallies {
    fn cell(&mut self, solver: u32, grammar: u32, n_timeouts: usize) -> &mut Cell {
        self.cells
            .entry((solver, grammar))
            .or_insert_with(|| Cell::new(n_timeouts))
    }

    /// Handles one joined formula: jointly-solved times and version-to-version losses.
    fn formula(
        &mut self,
        grammar: u32,
        index: &str,
        outs: &[Outcome],
        families: &[Vec<u32>],
        nt: usize,
    ) {
        let find = |s: u32| outs.iter().find(|o| o.solver == s);
        for members in families {
            let joint: Option<Vec<Outcome>> = members
                .iter()
                .map(|s| find(*s).filter(|o| o.solved).copied())
                .collect();
            for o in joint.into_iter().flatten() {
                let cell = self.cell(o.solver, grammar, nt);
                cell.joint_formulas += 1;
                cell.joint_time_us += o.time_us;
            }
            for pair in members.windows(2) {
                let (Some(a), Some(b)) = (find(pair[0]), find(pair[1])) else {
                    continue;
                };
                // A solver that could not start says nothing about its release.
                if !(a.ran && b.ran) {
                    continue;
                }
                let r = self
                    .regressions
                    .entry((grammar, pair[0], pair[1]))
                    .or_default();
                if a.solved && !b.solved {
                    r.lost_solved += 1;
                    keep_example(&mut r.lost_solved_examples, index);
                    if b.bug {
                        r.lost_correct += 1;
                        keep_example(&mut r.lost_correct_examples, index);
                    }
                }
            }
        }
    }
}

/// Reads every run directory once and aggregates the report. Directories that would
/// count a call twice (the same directory twice, or one grammar's overlapping ranges
/// run by a common solver) are refused before anything is read.
pub fn build_report(dirs: &[RunDir], options: &ReportOptions) -> Result<Report, ReportError> {
    if dirs.is_empty() {
        return Err(ReportError::NoInput);
    }
    check_all_disjoint(dirs, "report")?;
    let timeouts = &options.timeouts;
    let nt = timeouts.len();
    let mut reg = Registry::default();
    let mut tallies = Tallies::default();
    let mut join_stats = JoinStats::default();
    let mut rows = 0u64;
    let mut inputs = Vec::new();
    for dir in dirs {
        let coverage = Coverage::of(dir)?;
        // The pool decides when a formula is complete and which versions are adjacent.
        let pool: Vec<u32> = dir
            .manifest
            .solvers
            .iter()
            .map(|s| reg.solver(&s.name, &s.family, &s.version))
            .collect();
        let pool_set: HashSet<u32> = pool.iter().copied().collect();
        let families = family_groups(&pool, &reg.solvers);
        let mut join = FormulaJoin::new(pool_set.len(), options.window);
        let (first, end) = (coverage.start.to_string(), coverage.end.to_string());
        let in_range = |index: &str| {
            compare_index(&first, index).is_le() && compare_index(index, &end).is_lt()
        };
        let mut complete = 0u64;
        let mut sink = |g: u32, index: &str, outs: &[Outcome]| {
            let in_pool = outs.iter().filter(|o| pool_set.contains(&o.solver)).count();
            if in_pool == pool_set.len() && in_range(index) {
                complete += 1;
            }
            tallies.formula(g, index, outs, &families, nt)
        };
        // Split borrows: the sink owns `tallies` mutably, so counters go via a second map.
        let mut counts: HashMap<(u32, u32), Cell> = HashMap::new();
        let (mut dir_rows, mut outside) = (0u64, 0u64);
        // The solvers this run asked for models (its manifest says so; runs made before
        // et checked models say nothing).
        let models_on = |name: &str| {
            dir.manifest
                .solvers
                .iter()
                .any(|s| s.name == name && s.models == Some(true))
        };
        let read = dir.for_each_row(|call, _line| {
            dir_rows += 1;
            outside += u64::from(!in_range(&call.index));
            let sid = reg.solver(&call.solver, &call.family, &call.version);
            let gid = reg.grammar(&call.grammar);
            let cell = counts.entry((sid, gid)).or_insert_with(|| Cell::new(nt));
            cell.calls += 1;
            cell.statuses[call.status as usize] += 1;
            if models_on(&call.solver) {
                let unchecked = call.status == Status::Sat
                    && !matches!(call.model_check.as_str(), "valid" | "invalid");
                *cell.unchecked_sat.get_or_insert(0) += u64::from(unchecked);
            }
            let seconds = options.clock.seconds(call);
            let time_us = to_us(seconds);
            cell.time_us += time_us;
            let solved = call.solved();
            if solved {
                cell.solved += 1;
                let i = timeouts.partition_point(|t| t.seconds < seconds);
                if i < nt {
                    cell.first_within[i] += 1;
                }
            }
            if let Some(v) = call.verdict {
                cell.verdicts[v as usize] += 1;
                if let (true, Some(e)) = (v.spoils_answer(), call.evidence) {
                    cell.evidence[e as usize] += 1;
                }
            }
            let outcome = Outcome {
                solver: sid,
                solved,
                bug: call.verdict.is_some_and(Verdict::spoils_answer),
                ran: call.status.tells_about_solver(),
                time_us,
            };
            join.push(
                gid,
                &call.index,
                outcome,
                pool_set.contains(&sid),
                &mut join_stats,
                &mut sink,
            )
        })?;
        join.finish(&mut join_stats, &mut sink)?;
        rows += dir_rows;
        for ((sid, gid), mut c) in counts {
            c.run_timeout_s = options
                .clock
                .run_limit(dir.manifest.timeout_s, dir.manifest.cpu_timeout_s);
            tallies.cell(sid, gid, nt).add(c);
        }
        let formulas = coverage.formulas();
        inputs.push(InputSummary {
            path: dir.path.clone(),
            grammar: dir.manifest.grammar.clone(),
            coverage: coverage.describe(),
            solvers: pool_set.len(),
            timeout_s: match dir.manifest.cpu_timeout_s {
                Some(cpu) => format!(
                    "{} (cpu {})",
                    super::timeouts::seconds_label(dir.manifest.timeout_s),
                    super::timeouts::seconds_label(cpu)
                ),
                None => super::timeouts::seconds_label(dir.manifest.timeout_s),
            },
            formulas,
            complete,
            calls: dir_rows,
            expected_calls: u128::from(formulas) * pool_set.len() as u128,
            torn_last_line: read.torn_last_line,
            left_out: read.left_out,
            outside,
        });
    }
    let mut report = finish(
        reg,
        tallies,
        timeouts.clone(),
        options.clock,
        inputs,
        rows,
        join_stats,
    );
    report.undecided = super::undecided::read_undecided(dirs)?;
    report.disagreements = super::sessions::read_disagreements(dirs)?;
    Ok(report)
}

/// Pool members grouped by family, each group in release order.
fn family_groups(pool: &[u32], solvers: &[SolverInfo]) -> Vec<Vec<u32>> {
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for &id in pool {
        let family = &solvers[id as usize].family;
        match groups
            .iter_mut()
            .find(|g| &solvers[g[0] as usize].family == family)
        {
            Some(g) if !g.contains(&id) => g.push(id),
            Some(_) => {}
            None => groups.push(vec![id]),
        }
    }
    for g in &mut groups {
        g.sort_by(|a, b| solver_order(&solvers[*a as usize], &solvers[*b as usize]));
    }
    groups
}

fn solver_order(a: &SolverInfo, b: &SolverInfo) -> Ordering {
    compare_versions(&a.version, &b.version).then_with(|| a.name.cmp(&b.name))
}

/// Sorts everything into report order and turns micro-seconds back into seconds.
fn finish(
    reg: Registry,
    tallies: Tallies,
    timeouts: Vec<Timeout>,
    clock: Clock,
    inputs: Vec<InputSummary>,
    rows: u64,
    join: JoinStats,
) -> Report {
    let mut family_rank: HashMap<&str, usize> = HashMap::new();
    for s in &reg.solvers {
        let next = family_rank.len();
        family_rank.entry(&s.family).or_insert(next);
    }
    let mut order: Vec<usize> = (0..reg.solvers.len()).collect();
    order.sort_by(|&a, &b| {
        let (sa, sb) = (&reg.solvers[a], &reg.solvers[b]);
        family_rank[sa.family.as_str()]
            .cmp(&family_rank[sb.family.as_str()])
            .then_with(|| solver_order(sa, sb))
    });
    let mut solver_pos = vec![0; order.len()];
    for (pos, &id) in order.iter().enumerate() {
        solver_pos[id] = pos;
    }
    let mut grammar_order: Vec<usize> = (0..reg.grammars.len()).collect();
    grammar_order.sort_by(|&a, &b| reg.grammars[a].cmp(&reg.grammars[b]));
    let mut grammar_pos = vec![0; grammar_order.len()];
    for (pos, &id) in grammar_order.iter().enumerate() {
        grammar_pos[id] = pos;
    }

    let mut cells: Vec<SolverGrammar> = tallies
        .cells
        .into_iter()
        .filter(|(_, c)| c.calls > 0)
        .map(|((sid, gid), c)| {
            let mut solved_within = c.first_within;
            for i in 1..solved_within.len() {
                solved_within[i] += solved_within[i - 1];
            }
            SolverGrammar {
                solver: solver_pos[sid as usize],
                grammar: grammar_pos[gid as usize],
                calls: c.calls,
                statuses: c.statuses.to_vec(),
                solved: c.solved,
                seconds: c.time_us as f64 / 1e6,
                verdicts: c.verdicts.to_vec(),
                evidence: c.evidence.to_vec(),
                solved_within,
                run_timeout_s: c.run_timeout_s,
                joint_formulas: c.joint_formulas,
                joint_seconds: c.joint_time_us as f64 / 1e6,
                unchecked_sat: c.unchecked_sat,
            }
        })
        .collect();
    cells.sort_by_key(|c| (c.solver, c.grammar));

    let mut regressions: Vec<Regression> = tallies
        .regressions
        .into_iter()
        .map(|((gid, from, to), r)| Regression {
            grammar: grammar_pos[gid as usize],
            from: solver_pos[from as usize],
            to: solver_pos[to as usize],
            lost_solved: r.lost_solved,
            lost_solved_examples: r.lost_solved_examples,
            lost_correct: r.lost_correct,
            lost_correct_examples: r.lost_correct_examples,
        })
        .collect();
    regressions.sort_by_key(|r| (r.grammar, r.from, r.to));

    Report {
        timeouts,
        clock,
        solvers: order.iter().map(|&id| reg.solvers[id].clone()).collect(),
        grammars: grammar_order
            .iter()
            .map(|&id| reg.grammars[id].clone())
            .collect(),
        cells,
        regressions,
        inputs,
        rows,
        join,
        undecided: None,
        disagreements: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_the_smallest_indices() {
        let mut ex = Vec::new();
        for i in ["100", "7", "30", "9", "8", "2", "7", "1000"] {
            keep_example(&mut ex, i);
        }
        assert_eq!(ex, vec!["2", "7", "8", "9", "30"]);
    }

    #[test]
    fn timeouts_compare_with_rounding_slack() {
        assert!(within_timeout(2.0, 2.0));
        assert!(within_timeout(
            0.1,
            std::time::Duration::from_secs_f64(0.1).as_secs_f64()
        ));
        assert!(!within_timeout(4.0, 2.0));
    }
}
