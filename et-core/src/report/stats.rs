//! Streaming statistics over run directories: one pass over each `runs.csv`, counters
//! per (solver, grammar), and the per-formula join (see [`super::join`]) for jointly
//! solved times and regressions. Nothing here grows with the number of rows.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use crate::oracle::Verdict;

use super::join::{FormulaJoin, JoinStats, Outcome};
use super::load::RunDir;
use super::timeouts::{default_timeouts, Timeout};
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
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            timeouts: default_timeouts(),
            window: DEFAULT_WINDOW,
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
    pub formulas: u64,
    /// Calls answered sat or unsat (at any time).
    pub decided: u64,
    /// Sum of wall time over all calls, seconds.
    pub time_s: f64,
    /// Calls per verdict, indexed like [`Verdict::ALL`].
    pub verdicts: Vec<u64>,
    /// Calls solved within each timeout of [`Report::timeouts`].
    pub solved: Vec<u64>,
    /// Formulas every solver of this solver's family (in the run's pool) decided.
    pub joint_formulas: u64,
    /// This solver's wall time on those formulas, seconds.
    pub joint_time_s: f64,
}

impl SolverGrammar {
    /// Calls with verdict `v`.
    pub fn verdict(&self, v: Verdict) -> u64 {
        Verdict::ALL
            .iter()
            .position(|x| *x == v)
            .map_or(0, |i| self.verdicts[i])
    }

    /// Calls with a correctness verdict (unsound, invalid model, crash).
    pub fn bugs(&self) -> u64 {
        Verdict::ALL
            .iter()
            .filter(|v| v.is_bug())
            .map(|v| self.verdict(*v))
            .sum()
    }

    /// Decided formulas per second of solver wall time, if any time was spent.
    pub fn throughput(&self) -> Option<f64> {
        (self.time_s > 0.0).then(|| self.decided as f64 / self.time_s)
    }
}

/// Formulas one version handled that the next version of its family does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regression {
    /// Position in [`Report::grammars`].
    pub grammar: usize,
    /// The older version (position in [`Report::solvers`]).
    pub from: usize,
    /// The next version of the same family.
    pub to: usize,
    /// Formulas both ran where `from` decided and `to` did not.
    pub lost_solved: u64,
    /// The smallest such indices (at most [`MAX_EXAMPLES`]).
    pub lost_solved_examples: Vec<String>,
    /// Formulas `from` decided without a bug verdict and `to` got a bug verdict on.
    pub lost_correct: u64,
    /// The smallest such indices (at most [`MAX_EXAMPLES`]).
    pub lost_correct_examples: Vec<String>,
}

/// The aggregated answers of `et report`, ready for tables and plots.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The `solved within T` grid.
    pub timeouts: Vec<Timeout>,
    /// Solvers by family (first seen first), then release order.
    pub solvers: Vec<SolverInfo>,
    /// Grammar names, sorted.
    pub grammars: Vec<String>,
    /// One entry per (solver, grammar) with rows, in solver then grammar order.
    pub cells: Vec<SolverGrammar>,
    /// Consecutive version pairs, by grammar then solver order.
    pub regressions: Vec<Regression>,
    /// Rows read.
    pub rows: u64,
    /// What the per-formula join did.
    pub join: JoinStats,
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
#[derive(Default)]
struct Cell {
    formulas: u64,
    decided: u64,
    time_us: u64,
    verdicts: [u64; 5],
    first_within: Vec<u64>,
    joint_formulas: u64,
    joint_time_us: u64,
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
        self.cells.entry((solver, grammar)).or_insert_with(|| Cell {
            first_within: vec![0; n_timeouts],
            ..Cell::default()
        })
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
                .map(|s| find(*s).filter(|o| o.decided).copied())
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
                let r = self
                    .regressions
                    .entry((grammar, pair[0], pair[1]))
                    .or_default();
                if a.decided && !b.decided {
                    r.lost_solved += 1;
                    keep_example(&mut r.lost_solved_examples, index);
                }
                if a.decided && !a.bug && b.bug {
                    r.lost_correct += 1;
                    keep_example(&mut r.lost_correct_examples, index);
                }
            }
        }
    }
}

/// Reads every run directory once and aggregates the report.
pub fn build_report(dirs: &[RunDir], options: &ReportOptions) -> Result<Report, ReportError> {
    if dirs.is_empty() {
        return Err(ReportError::NoInput);
    }
    let timeouts = &options.timeouts;
    let nt = timeouts.len();
    let mut reg = Registry::default();
    let mut tallies = Tallies::default();
    let mut join_stats = JoinStats::default();
    let mut rows = 0u64;
    for dir in dirs {
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
        let mut sink =
            |g: u32, index: &str, outs: &[Outcome]| tallies.formula(g, index, outs, &families, nt);
        // Split borrows: the sink owns `tallies` mutably, so counters go via a second map.
        let mut counts: HashMap<(u32, u32), Cell> = HashMap::new();
        dir.for_each_call(|call| {
            rows += 1;
            let sid = reg.solver(call.solver, call.family, call.version);
            let gid = reg.grammar(call.grammar);
            let cell = counts.entry((sid, gid)).or_insert_with(|| Cell {
                first_within: vec![0; nt],
                ..Cell::default()
            });
            let decided = call.status.is_decided();
            cell.formulas += 1;
            let time_us = to_us(call.time_s);
            cell.time_us += time_us;
            if decided {
                cell.decided += 1;
                let i = timeouts.partition_point(|t| t.seconds < call.time_s);
                if i < nt {
                    cell.first_within[i] += 1;
                }
            }
            if let Some(v) = call.verdict {
                let vi = Verdict::ALL
                    .iter()
                    .position(|x| *x == v)
                    .expect("known verdict");
                cell.verdicts[vi] += 1;
            }
            let outcome = Outcome {
                solver: sid,
                decided,
                bug: call.verdict.is_some_and(Verdict::is_bug),
                time_us,
            };
            join.push(
                gid,
                call.index,
                outcome,
                pool_set.contains(&sid),
                &mut join_stats,
                &mut sink,
            )
        })?;
        join.finish(&mut join_stats, &mut sink)?;
        for ((sid, gid), c) in counts {
            let cell = tallies.cell(sid, gid, nt);
            cell.formulas += c.formulas;
            cell.decided += c.decided;
            cell.time_us += c.time_us;
            for (a, b) in cell.verdicts.iter_mut().zip(c.verdicts) {
                *a += b;
            }
            for (a, b) in cell.first_within.iter_mut().zip(c.first_within) {
                *a += b;
            }
        }
    }
    Ok(finish(reg, tallies, timeouts.clone(), rows, join_stats))
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
        .map(|((sid, gid), c)| {
            let mut solved = c.first_within;
            for i in 1..solved.len() {
                solved[i] += solved[i - 1];
            }
            SolverGrammar {
                solver: solver_pos[sid as usize],
                grammar: grammar_pos[gid as usize],
                formulas: c.formulas,
                decided: c.decided,
                time_s: c.time_us as f64 / 1e6,
                verdicts: c.verdicts.to_vec(),
                solved,
                joint_formulas: c.joint_formulas,
                joint_time_s: c.joint_time_us as f64 / 1e6,
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
        solvers: order.iter().map(|&id| reg.solvers[id].clone()).collect(),
        grammars: grammar_order
            .iter()
            .map(|&id| reg.grammars[id].clone())
            .collect(),
        cells,
        regressions,
        rows,
        join,
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
}
