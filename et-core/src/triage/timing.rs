//! Performance evidence that holds: a reported timeout's own formula re-run
//! [`ROUNDS`] times at the longer limit on the releases of its family from the last
//! good one on ([`window`]), the
//! median CPU seconds of each release, and the regressions among them — a jump of
//! [`REGRESSION_FACTOR`]× or more in that median between consecutive releases. Crossing
//! the run's limit is not a regression: a release at 1.9 s and the next at 2.1 s
//! straddle a 2 s limit, while 1.3 s then 11.6 s is a 9× regression below and above it
//! alike. Where the family counts its work deterministically (z3's `rlimit`), each
//! release that decides is run once more to read that count, which reproduces on any
//! machine; a jump of [`REGRESSION_FACTOR`]× in it is a regression too, where the CPU
//! seconds grew less (z3 4.8.8 → 4.8.9: 4.8× the CPU, 13.6× the work).
//!
//! *Must not:* judge answers (a timing is about time; whether an answer is right is
//! confirmation's business), or run anything but the report's own formula.

use crate::oracle::Status;
use crate::solvers::family::WorkCount;
use crate::solvers::SolverConfig;

use super::calls::{Answer, CallSettings, Caller};
use super::range::ReleaseTable;

/// Runs per release.
pub const ROUNDS: usize = 3;
/// A median this many times the previous release's is a regression.
pub const REGRESSION_FACTOR: f64 = 5.0;
/// CPU seconds below this are the process's start-up, not the solving: a jump is
/// measured from at least this much.
pub const NOISE_FLOOR_S: f64 = 0.05;

/// One run of a release.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// What it answered.
    pub status: Status,
    /// CPU seconds (user + system) of its process tree.
    pub cpu_s: f64,
}

/// CPU seconds, exact or a lower bound (a run stopped at the limit took at least the
/// limit).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seconds {
    /// The seconds.
    pub value: f64,
    /// Stopped at the limit: at least `value`.
    pub at_least: bool,
}

impl std::fmt::Display for Seconds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at_least {
            write!(f, "≥ {:.2}", self.value)
        } else {
            write!(f, "{:.2}", self.value)
        }
    }
}

/// One release's runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ReleaseTiming {
    /// The release.
    pub version: String,
    /// The solver's name.
    pub solver: String,
    /// Its runs; empty when it could not be run.
    pub runs: Vec<Run>,
    /// Runs the wall clock stopped before they used their CPU budget, on the run and
    /// its re-run (status `starved`): not timings, left out of `runs`.
    pub starved: usize,
    /// Its deterministic work count on the formula, read from one more run, when the
    /// family has one and the release decided the formula.
    pub work: Option<u64>,
    /// The CPU (or wall-clock) seconds its runs were limited to, when longer than the
    /// others': a release run again so that a 5× jump can show ([`to_extend`]).
    pub extended_s: Option<f64>,
}

impl ReleaseTiming {
    /// Its first [`ROUNDS`]` - 1` runs were all stopped at the limit: the median of
    /// [`ROUNDS`] is at least the limit, whatever one more run would do.
    pub fn settled(&self) -> bool {
        self.runs.len() == ROUNDS - 1 && self.runs.iter().all(|r| r.status == Status::Timeout)
    }

    /// Whether this release, with its `median`, can be the "before" of a jump: its
    /// median is exact (not a lower bound) and it decided the formula in most runs.
    fn good(&self, median: Seconds) -> bool {
        !median.at_least && 2 * self.decided() > self.runs.len()
    }

    /// Runs that answered `sat` or `unsat`.
    pub fn decided(&self) -> usize {
        self.runs.iter().filter(|r| r.status.is_decided()).count()
    }

    /// The median CPU seconds, a run stopped at the limit (a timeout) counting as at
    /// least the CPU time it used — never the wall-clock time: a run the wall clock
    /// stopped used less CPU than that, and is known to need only more than what it
    /// used (a starved run, stopped before it used its CPU budget, is no run at all);
    /// a run that answered, `unknown` included, counts its own CPU time: a release
    /// that gives up at once did not time out. `None` without runs.
    pub fn median(&self) -> Option<Seconds> {
        let mut seconds: Vec<Seconds> = self
            .runs
            .iter()
            .map(|r| {
                if r.status != Status::Timeout {
                    Seconds {
                        value: r.cpu_s,
                        at_least: false,
                    }
                } else {
                    Seconds {
                        value: r.cpu_s,
                        at_least: true,
                    }
                }
            })
            .collect();
        seconds.sort_by(|a, b| a.value.total_cmp(&b.value));
        seconds.get(seconds.len().checked_sub(1)? / 2).copied()
    }
}

/// A jump between two consecutive releases that ran: in median CPU seconds, or in the
/// solver's deterministic work count where both decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Regression {
    /// The release before, and its median.
    pub before: (String, Seconds),
    /// The release that regressed, and its median.
    pub after: (String, Seconds),
    /// How many times slower (at least, when `after` is a lower bound); for a jump in
    /// work, how many times the work.
    pub factor: f64,
    /// The work counts before and after, when the jump is in work: the CPU time grew
    /// less than [`REGRESSION_FACTOR`]× (the machine's noise, a faster machine), the
    /// count the solver reproduces on any machine did not.
    pub work: Option<(u64, u64)>,
}

impl Regression {
    /// In a line: "`5.3.3` → `5.4.0`: 1.28 s → 11.60 s of CPU, 9.1×", or, for a jump
    /// in work, "`4.8.8` → `4.8.9`: 954006 → 13004652 `rlimit` units, 13.6× (1.15 s →
    /// 5.55 s of CPU)".
    pub fn describe(&self, unit: &str) -> String {
        let cpu = format!("{} s → {} s of CPU", self.before.1, self.after.1);
        let at_least = if self.after.1.at_least && self.work.is_none() {
            "at least "
        } else {
            ""
        };
        match self.work {
            Some((a, b)) => format!(
                "`{}` → `{}`: {a} → {b} `{unit}` units, {:.1}× ({cpu})",
                self.before.0, self.after.0, self.factor
            ),
            None => format!(
                "`{}` → `{}`: {cpu}, {at_least}{:.1}×",
                self.before.0, self.after.0, self.factor
            ),
        }
    }
}

/// A formula's timings on every installed release of its family.
#[derive(Debug, Clone)]
pub struct Timings {
    /// Release order, oldest first.
    pub releases: Vec<ReleaseTiming>,
    /// The limit each run had: CPU seconds when the run limited CPU, else wall-clock.
    pub limit_s: f64,
    /// The family's deterministic work count, if it has one.
    pub work: Option<WorkCount>,
}

impl Timings {
    /// The jumps of [`REGRESSION_FACTOR`]× or more between consecutive releases that
    /// ran, oldest first: in median CPU seconds, or else in the work count of two
    /// releases that both decided and were counted. A release whose median is itself a
    /// lower bound cannot be the "before" of a jump in time: how much slower the next
    /// is, is unknown. Nor can a release that did not decide the formula in most of its
    /// runs: one that gives up at once (`unknown`) was not good, and the next release
    /// timing out where it gave up is no slowdown of a formula that was solved.
    pub fn regressions(&self) -> Vec<Regression> {
        consecutive(&self.releases)
            .into_iter()
            .filter_map(|((a, ma), (b, mb))| {
                let (a, b) = (&self.releases[a], &self.releases[b]);
                let regression = |factor: f64, work: Option<(u64, u64)>| Regression {
                    before: (a.version.clone(), ma),
                    after: (b.version.clone(), mb),
                    factor,
                    work,
                };
                let time = a.good(ma).then(|| mb.value / ma.value.max(NOISE_FLOOR_S));
                if let Some(factor) = time.filter(|&f| f >= REGRESSION_FACTOR) {
                    return Some(regression(factor, None));
                }
                let (Some(wa), Some(wb)) = (a.work, b.work) else {
                    return None;
                };
                let factor = wb as f64 / wa.max(1) as f64;
                (factor >= REGRESSION_FACTOR).then(|| regression(factor, Some((wa, wb))))
            })
            .collect()
    }

    /// The newest regression, if any.
    pub fn newest_regression(&self) -> Option<Regression> {
        self.regressions().pop()
    }
}

/// The releases a timeout's formula is timed on: from the last release that decided it
/// before the newest run of affected releases (where the regression must be) through
/// the newest installed one, oldest first; `None` when there is no such release (every
/// release from the oldest on times out or gives up: nothing to bracket). A release
/// that answered `unknown` did not time out, but it was not good either. Timing every
/// release of a family with fifty of them would cost minutes of CPU per report for
/// releases the range already shows alike.
pub fn window(range: &ReleaseTable, versions: &[SolverConfig]) -> Option<Vec<SolverConfig>> {
    let (start, _) = range.newest_since()?;
    let good = range.last_decided_before(start)?;
    let from = versions.iter().position(|s| s.version == good)?;
    Some(versions[from..].to_vec())
}

/// Times `formula` on every solver of `versions` (a family's releases, oldest first):
/// [`ROUNDS`] fresh runs each at `limits`, all at once on the caller's threads — but a
/// release whose first [`ROUNDS`]` - 1` runs were all stopped at the limit is not run
/// again: the median is at least the limit whatever one more run does, and on a long
/// window of releases that time out the last round would be a third of the cost.
/// Then each release that [`to_extend`] names is run again at its longer limit (its
/// runs at the limit replaced), and, where the family counts its work, one more run
/// of each release that decided.
pub fn time(
    caller: &Caller,
    versions: &[SolverConfig],
    formula: &str,
    limits: CallSettings<'_>,
    work: Option<WorkCount>,
) -> Timings {
    let mut releases: Vec<ReleaseTiming> = versions
        .iter()
        .map(|s| ReleaseTiming {
            version: s.version.clone(),
            solver: s.name.clone(),
            runs: Vec::new(),
            work: None,
            extended_s: None,
            starved: 0,
        })
        .collect();
    let run = |tasks: &[usize], releases: &mut [ReleaseTiming], limits: CallSettings<'_>| {
        let answers: Vec<Option<Answer>> =
            caller.map(tasks, |&v| caller.fresh(&versions[v], formula, limits).ok());
        for (&v, answer) in tasks.iter().zip(answers) {
            // A release that could not start, was killed from outside or was starved
            // has no timing.
            if answer.as_ref().is_some_and(|a| a.status == Status::Starved) {
                releases[v].starved += 1;
            }
            if let Some(a) = answer.filter(|a| a.status.tells_about_solver()) {
                releases[v].runs.push(Run {
                    status: a.status,
                    cpu_s: a.cpu_s,
                });
            }
        }
    };
    let first: Vec<usize> = (0..versions.len())
        .flat_map(|v| std::iter::repeat_n(v, ROUNDS - 1))
        .collect();
    run(&first, &mut releases, limits);
    let last: Vec<usize> = (0..versions.len())
        .filter(|&v| !releases[v].settled())
        .collect();
    run(&last, &mut releases, limits);
    let limit_s = limits.cpu_timeout.unwrap_or(limits.timeout).as_secs_f64();
    for (v, extended_s) in to_extend(&releases, limit_s) {
        let longer = limits.scaled(extended_s / limit_s);
        releases[v].runs.clear();
        releases[v].starved = 0;
        releases[v].extended_s = Some(extended_s);
        let again = vec![v; ROUNDS - 1];
        run(&again, &mut releases, longer);
        if !releases[v].settled() {
            run(&[v], &mut releases, longer);
        }
    }
    if let Some(count) = work {
        let deciding: Vec<usize> = (0..versions.len())
            .filter(|&v| releases[v].decided() > 0)
            .collect();
        let counts: Vec<Option<u64>> = caller.map(&deciding, |&v| {
            let counting = versions[v].with_option(count.option);
            let (answer, stdout) = caller.fresh_with_output(&counting, formula, limits).ok()?;
            answer
                .status
                .is_decided()
                .then(|| (count.read)(&stdout))
                .flatten()
        });
        for (v, n) in deciding.into_iter().zip(counts) {
            releases[v].work = n;
        }
    }
    Timings {
        releases,
        limit_s,
        work,
    }
}

/// The releases to run again at a longer limit, and that limit: each release stopped at
/// the limit right after one that decided the formula in a median of more than a fifth
/// of it. At the limit such a pair cannot show a [`REGRESSION_FACTOR`]× jump however
/// slow the later release is (1.9 s, then ≥ 8 s, is "at least 4.2×"), so the later one
/// is run at just over [`REGRESSION_FACTOR`]× the earlier one's median: stopped there
/// too, it is a regression; deciding, it gives its own time.
pub fn to_extend(releases: &[ReleaseTiming], limit_s: f64) -> Vec<(usize, f64)> {
    consecutive(releases)
        .into_iter()
        .filter_map(|((a, ma), (b, mb))| {
            let needed = REGRESSION_FACTOR * ma.value.max(NOISE_FLOOR_S);
            (releases[a].good(ma) && mb.at_least && mb.value < needed)
                .then(|| (b, (needed * 1.05).max(limit_s)))
        })
        .collect()
}

/// Each pair of consecutive releases that ran (a release without runs is skipped),
/// by position, with their medians.
fn consecutive(releases: &[ReleaseTiming]) -> Vec<((usize, Seconds), (usize, Seconds))> {
    let ran: Vec<(usize, Seconds)> = releases
        .iter()
        .enumerate()
        .filter_map(|(v, r)| Some((v, r.median()?)))
        .collect();
    ran.windows(2).map(|pair| (pair[0], pair[1])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(version: &str, runs: &[(Status, f64)]) -> ReleaseTiming {
        ReleaseTiming {
            version: version.into(),
            solver: version.into(),
            runs: runs
                .iter()
                .map(|&(status, cpu_s)| Run { status, cpu_s })
                .collect(),
            work: None,
            extended_s: None,
            starved: 0,
        }
    }

    const SAT: Status = Status::Sat;
    const TIMEOUT: Status = Status::Timeout;

    #[test]
    fn a_median_of_runs_stopped_at_the_limit_is_a_lower_bound() {
        let fast = release("1", &[(SAT, 1.3), (SAT, 1.2), (SAT, 1.5)]);
        assert_eq!(
            fast.median(),
            Some(Seconds {
                value: 1.3,
                at_least: false
            })
        );
        // One run stopped: the median is the larger exact one.
        let once = release("2", &[(SAT, 6.0), (TIMEOUT, 8.1), (SAT, 7.0)]);
        assert_eq!(
            once.median().map(|m| (m.value, m.at_least)),
            Some((7.0, false))
        );
        // Two stopped: at least the CPU time the median one used.
        let twice = release("3", &[(TIMEOUT, 7.9), (TIMEOUT, 8.2), (SAT, 7.0)]);
        assert_eq!(
            twice.median().map(|m| (m.value, m.at_least)),
            Some((7.9, true))
        );
        // A run the wall clock stopped after 3.1 s of CPU is known to need more than
        // 3.1 s, not the 8 s of the wall-clock limit.
        let walled = release("3b", &[(TIMEOUT, 3.1), (TIMEOUT, 3.2)]);
        assert_eq!(
            walled.median().map(|m| (m.value, m.at_least)),
            Some((3.1, true))
        );
        assert_eq!(release("4", &[]).median(), None);
        // Two runs of three stopped at the limit settle the median: no third run.
        let stopped = release("6", &[(TIMEOUT, 8.0), (TIMEOUT, 8.1)]);
        assert!(stopped.settled());
        assert_eq!(
            stopped.median().map(|m| (m.value, m.at_least)),
            Some((8.0, true))
        );
        assert!(!release("7", &[(TIMEOUT, 8.0), (SAT, 7.5)]).settled());
        // An `unknown` at once is an answer in its own time, not a run at the limit.
        let gives_up = release("5.3.2", &[(Status::Unknown, 0.02); 3]);
        assert_eq!(
            gives_up.median().map(|m| (m.value, m.at_least)),
            Some((0.02, false))
        );
    }

    #[test]
    fn the_window_runs_from_the_last_good_release() {
        use crate::triage::range::VersionResult;
        let versions: Vec<SolverConfig> = ["4.8.5", "5.3.2", "5.3.3", "5.4.0", "5.4.1"]
            .iter()
            .map(|v| SolverConfig::new(&format!("z3-{v}"), "z3", v, vec!["/bin/true".into()]))
            .collect();
        // Unaffected releases decided the formula, unless `gave_up` says otherwise.
        let with = |affected: [bool; 5], gave_up: [bool; 5]| ReleaseTable {
            versions: versions
                .iter()
                .zip(affected.into_iter().zip(gave_up))
                .map(|(s, (a, g))| VersionResult {
                    version: s.version.clone(),
                    solver: s.name.clone(),
                    affected: Some(a),
                    answer: String::new(),
                    decided: !a && !g,
                    refused_option: false,
                })
                .collect(),
        };
        let range = |affected: [bool; 5]| with(affected, [false; 5]);
        let timed = window(&range([true, false, false, true, true]), &versions).unwrap();
        let names: Vec<&str> = timed.iter().map(|s| s.version.as_str()).collect();
        assert_eq!(names, ["5.3.3", "5.4.0", "5.4.1"]);
        // Every release from the oldest on: long-standing, not timed.
        assert!(window(&range([true; 5]), &versions).is_none());
        // 5.3.2 gave up (`unknown`): the window starts at 4.8.5, which decided.
        let gave_up = with(
            [false, false, true, true, true],
            [false, true, false, false, false],
        );
        let timed = window(&gave_up, &versions).unwrap();
        assert_eq!(timed[0].version, "4.8.5");
        // No release decided it: nothing to bracket.
        let never = with(
            [false, false, true, true, true],
            [true, true, false, false, false],
        );
        assert!(window(&never, &versions).is_none());
    }

    #[test]
    fn a_regression_is_a_jump_not_a_crossing_of_the_limit() {
        let timings = Timings {
            releases: vec![
                release("5.3.2", &[(SAT, 1.9), (SAT, 1.9), (SAT, 1.9)]),
                // Crosses a 2 s limit, 1.1×: no regression.
                release("5.3.3", &[(SAT, 2.1), (SAT, 2.1), (SAT, 2.2)]),
                // Could not run: skipped, not a break.
                release("5.3.4", &[]),
                // ≥ 8 s against 2.1 s: at least 3.8×, not enough.
                release("5.4.0", &[(TIMEOUT, 8.0), (TIMEOUT, 8.0), (TIMEOUT, 8.0)]),
                // After a lower bound nothing can be said.
                release("5.4.1", &[(SAT, 0.01), (SAT, 0.01), (SAT, 0.01)]),
                release("5.5.0", &[(SAT, 0.2), (SAT, 0.3), (SAT, 0.2)]),
            ],
            limit_s: 8.0,
            work: None,
        };
        // 0.01 → 0.2: measured from the noise floor, 4×: none either.
        assert!(timings.regressions().is_empty());
        // Giving up at once, then timing out, is not a slowdown of a solved formula.
        let timings = Timings {
            releases: vec![
                release("5.3.2", &[(Status::Unknown, 0.36); 3]),
                release("5.3.3", &[(TIMEOUT, 8.0), (TIMEOUT, 8.0), (TIMEOUT, 8.0)]),
            ],
            limit_s: 8.0,
            work: None,
        };
        assert!(timings.regressions().is_empty());
        let timings = Timings {
            releases: vec![
                release("5.3.3", &[(SAT, 1.28), (SAT, 1.3), (SAT, 1.2)]),
                release("5.4.0", &[(SAT, 11.6), (TIMEOUT, 32.0), (SAT, 11.0)]),
            ],
            limit_s: 32.0,
            work: None,
        };
        let r = timings.newest_regression().expect("a 9x jump");
        assert_eq!(
            (r.before.0.as_str(), r.after.0.as_str()),
            ("5.3.3", "5.4.0")
        );
        assert!((r.factor - 11.6 / 1.28).abs() < 1e-9);
        assert!(!r.after.1.at_least);
        assert_eq!(
            r.describe("rlimit"),
            "`5.3.3` → `5.4.0`: 1.28 s → 11.60 s of CPU, 9.1×"
        );
    }

    /// 1.9 s, then stopped at 8 s: at least 4.2×, which the 8 s limit cannot tell from
    /// a 5× jump; the later release is run again at just over 5 × 1.9 s. Stopped there
    /// too, it is a regression of at least 5×; a pair the limit already tells apart,
    /// or one after a release that was stopped itself, is left alone.
    #[test]
    fn a_limit_too_short_for_a_5x_jump_is_extended_for_that_release() {
        let timed = vec![
            release("5.3.2", &[(SAT, 2.0), (SAT, 2.1), (SAT, 2.0)]),
            release("5.3.3", &[(SAT, 1.9), (SAT, 1.8), (SAT, 2.0)]),
            release("5.4.0", &[(TIMEOUT, 8.0), (TIMEOUT, 8.0)]),
            release("5.4.1", &[(TIMEOUT, 8.0), (TIMEOUT, 8.0)]),
        ];
        let extend = to_extend(&timed, 8.0);
        assert_eq!(extend.len(), 1, "{extend:?}");
        assert_eq!(extend[0].0, 2);
        assert!((extend[0].1 - 5.0 * 1.9 * 1.05).abs() < 1e-9);
        // Run again there and stopped again: a regression, at least 5×.
        let mut releases = timed;
        releases[2] = ReleaseTiming {
            extended_s: Some(extend[0].1),
            ..release("5.4.0", &[(TIMEOUT, 9.98), (TIMEOUT, 9.99)])
        };
        let timings = Timings {
            releases,
            limit_s: 8.0,
            work: None,
        };
        let r = timings.newest_regression().expect("at least 5x");
        assert_eq!(
            (r.before.0.as_str(), r.after.0.as_str()),
            ("5.3.3", "5.4.0")
        );
        assert!(r.after.1.at_least && r.factor >= REGRESSION_FACTOR, "{r:?}");
        // A fast release before a stopped one: the limit tells already.
        let told = vec![
            release("4.16.0", &[(SAT, 0.8), (SAT, 0.8), (SAT, 0.8)]),
            release("5.0.0", &[(TIMEOUT, 8.0), (TIMEOUT, 8.0)]),
        ];
        assert!(to_extend(&told, 8.0).is_empty());
    }

    #[test]
    fn a_jump_in_work_is_a_regression_where_time_grew_less() {
        let counted = |version: &str, cpu: f64, work: u64| ReleaseTiming {
            work: Some(work),
            ..release(version, &[(SAT, cpu), (SAT, cpu), (SAT, cpu)])
        };
        let timings = Timings {
            releases: vec![
                counted("4.8.8", 1.15, 954_006),
                counted("4.8.9", 5.55, 13_004_652),
                counted("4.8.10", 6.12, 13_004_653),
            ],
            limit_s: 8.0,
            work: None,
        };
        let r = timings.newest_regression().expect("13.6x the work");
        assert_eq!(r.work, Some((954_006, 13_004_652)));
        assert_eq!(
            r.describe("rlimit"),
            "`4.8.8` → `4.8.9`: 954006 → 13004652 `rlimit` units, 13.6× (1.15 s → 5.55 s of CPU)"
        );
        // Without counts, 4.8× the CPU is no regression.
        let uncounted = Timings {
            releases: timings
                .releases
                .iter()
                .map(|r| ReleaseTiming {
                    work: None,
                    ..r.clone()
                })
                .collect(),
            ..timings
        };
        assert!(uncounted.regressions().is_empty());
    }
}
