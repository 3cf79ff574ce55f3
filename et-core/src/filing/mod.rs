//! From triaged reports to the reports a maintainer files (`et file`): the last stage
//! of the pipeline, after [`crate::triage`].
//!
//! A triage writes one report per root cause of one run (a grammar, a unit). Filing
//! reads the reports of several triages — every grammar of a hunt, several hunts — and
//! keeps what a maintainer would take at once:
//!
//! 1. [`read`]: each triage's reports to file, from its `groups.csv` and `bugs/`.
//! 2. [`join`]: one root cause, one report, across grammars, units and hunts.
//! 3. [`decide`]: what is not filed, and why — known upstream or by design (et's list,
//!    read in the trackers), a setting that makes the solver decide nothing
//!    (`restart-int-base=0`), a long-standing slowdown under 10× the best solver;
//!    expert options marked and ranked last.
//! 4. [`measure`]: each report's own command run on its own file on the releases it
//!    names (the output shown is that command's), a performance report timed under a
//!    long limit against the other families' newest releases, the reason of an
//!    `unknown`, and a stronger variant of a wrong `sat` (a wrong `unsat`).
//! 5. [`write`](mod@write): the reports, each opening with input, command, expected, actual and
//!    releases, and a README that says what to file and what not, by hunt.
//!
//! *Must not:* change what a triage found (filing reads its files, never its runs), or
//! show an output its command did not print.

pub mod decide;
pub mod error;
pub mod filed;
pub mod join;
pub mod measure;
pub mod read;
pub mod write;

use std::path::{Path, PathBuf};

use crate::solvers::Pool;
use crate::triage::calls::Caller;
use crate::triage::journal::Journal;

pub use decide::Disposition;
pub use error::FilingError;
pub use filed::{Filed, Filing};
pub use join::RootCause;
pub use measure::Settings;
pub use read::TriageReport;

/// Reads the reports of the triage directories `dirs`, joins, decides and measures
/// them with the solvers of `pool`, and writes the reports to file into `out`.
pub fn file(
    dirs: &[PathBuf],
    pool: &Pool,
    out: &Path,
    journal: Option<&Path>,
    settings: &Settings,
    progress: &mut dyn FnMut(&str),
) -> Result<Filing, FilingError> {
    if dirs.is_empty() {
        return Err(FilingError::NoInput);
    }
    let mut reports = Vec::new();
    for dir in dirs {
        reports.extend(read::reports_of(dir)?);
    }
    progress(&format!(
        "{} reports read from {} triage directories",
        reports.len(),
        dirs.len()
    ));
    let options = |r: &TriageReport| r.configuration_options(pool);
    let causes = join::join(&reports, options);
    progress(&format!("{} root causes", causes.len()));
    let mut caller = Caller::new(settings.jobs).map_err(|error| FilingError::Io {
        path: std::env::temp_dir(),
        error,
    })?;
    if let Some(path) = journal {
        caller = caller.with_journal(Journal::open(path)?);
    }
    let known = crate::triage::known::builtin();
    let decided: Vec<(RootCause, Disposition, Vec<String>)> = causes
        .into_iter()
        .map(|cause| {
            let (disposition, expert) = decide::before_measuring(&reports, &cause, &known, pool);
            (cause, disposition, expert)
        })
        .collect();
    // Root causes that are one known issue are one: the issue says what they share.
    let mut merged: Vec<(RootCause, Disposition, Vec<String>)> = Vec::new();
    for (cause, disposition, expert) in decided {
        let same = merged.iter_mut().find(|(_, d, _)| {
            matches!((d, &disposition), (Disposition::Known(a), Disposition::Known(b)) if a == b)
        });
        match same {
            Some((into, _, _)) => into.members.extend(cause.members),
            None => merged.push((cause, disposition, expert)),
        }
    }
    let mut decided = merged;
    let settings_of = |cause: &RootCause| decide::settings(&reports[cause.representative()], pool);
    for (cause, disposition, _) in &decided {
        if matches!(disposition, Disposition::File) {
            let r = &reports[cause.representative()];
            if r.release_in(pool).is_none() {
                return Err(FilingError::NotInstalled {
                    solver: r.base_solver().to_string(),
                    file: r
                        .triage_dir
                        .join("bugs")
                        .join(&r.file)
                        .display()
                        .to_string(),
                    spec: r.base_solver().replacen('-', "@", 1),
                });
            }
        }
    }
    let to_measure: Vec<usize> = (0..decided.len())
        .filter(|&i| matches!(decided[i].1, Disposition::File))
        .collect();
    progress(&format!(
        "running the command of each of {} root causes on the releases it names \
         (performance: up to {} s of CPU each)",
        to_measure.len(),
        settings.long_limit.as_secs()
    ));
    let measured = caller.map(&to_measure, |&i| {
        let r = &reports[decided[i].0.representative()];
        measure::measure(&caller, pool, r, &decided[i].0, &reports, settings)
    });
    let mut measurements = std::collections::HashMap::new();
    for (i, m) in to_measure.into_iter().zip(measured) {
        let m = m?;
        let r = &reports[decided[i].0.representative()];
        decided[i].1 = decide::after_measuring(r, &m, settings);
        measurements.insert(i, m);
    }
    let mut causes: Vec<Filed> = decided
        .into_iter()
        .enumerate()
        .map(|(i, (cause, disposition, expert))| Filed {
            settings: settings_of(&cause),
            cause,
            disposition,
            measured: measurements.remove(&i),
            expert,
        })
        .collect();
    causes.sort_by_key(|c| decide::rank_key(&reports, &c.cause, &c.disposition, &c.expert));
    let filing = Filing {
        reports,
        causes,
        cpu_model: cpu_model(),
        triages: dirs.len(),
    };
    write::write(&filing, out)?;
    Ok(filing)
}

/// The processor's model name, as `/proc/cpuinfo` gives it.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).trim().to_string())
        })
        .unwrap_or_else(|| "an unknown CPU".to_string())
}
