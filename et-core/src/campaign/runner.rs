//! The `et run` loop. One producer thread streams the formulas of the plan; J workers
//! ([`super::worker`]) each take a formula and return its judged rows; the calling
//! thread appends the rows to `runs.csv` as formulas complete and reports progress.
//!
//! The unit of work is a formula, not a call, so a call's reference answer is at hand
//! when it is judged and no cross-worker bookkeeping is needed.

use std::collections::HashMap;
use std::fs::{self, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use crate::enumeration::Enumeration;
use crate::solvers::call::{Limits, Supervisor};
use crate::solvers::check;
use crate::solvers::{Pool, SolverConfig};

use super::bugs::BugStore;
use super::ledger::Ledger;
use super::manifest::{ManifestSolver, RunManifest};
use super::plan::Plan;
use super::progress::Progress;
use super::reference::{self, ReferenceCache};
use super::summary::Summary;
use super::worker::{Finished, Job, Scratch, Worker};

/// Everything `et run` was asked to do.
pub struct Campaign {
    /// Grammar name written into rows.
    pub grammar: String,
    /// The formulas.
    pub plan: Plan,
    /// The whole pool (references may come from outside the selection).
    pub pool: Pool,
    /// The solvers under test, in pool order.
    pub under_test: Vec<SolverConfig>,
    /// `--reference`, if given: comma-separated judges (solver names or families) for
    /// every solver, the first that decides a formula being its reference.
    pub reference: Option<String>,
    /// Wall-clock limit per call.
    pub timeout: Duration,
    /// CPU-time limit per call.
    pub cpu_timeout: Option<Duration>,
    /// Memory limit per call, MiB.
    pub memory_mb: Option<u64>,
    /// Worker threads.
    pub jobs: usize,
    /// Output directory.
    pub out: PathBuf,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// Reference cache file (default `out/reference.csv`).
    pub reference_cache: Option<PathBuf>,
}

impl Campaign {
    /// The `--reference` list, if given.
    pub fn reference_list(&self) -> Option<Vec<String>> {
        self.reference.as_ref().map(|r| {
            r.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
    }

    /// The judges of each solver under test (see [`reference::assign`]).
    pub fn judges(
        &self,
    ) -> Result<HashMap<String, Vec<SolverConfig>>, crate::solvers::reference_rules::ReferenceError>
    {
        reference::assign(
            &self.pool,
            &self.under_test,
            &self.grammar,
            self.reference_list().as_deref(),
        )
    }

    /// The manifest this campaign writes to `out/run.toml`, with the judges each solver
    /// gets (`references`) and the judges that are not under test (`reference_solvers`).
    pub fn manifest(&self, judges: &HashMap<String, Vec<SolverConfig>>) -> RunManifest {
        let entry = |s: &SolverConfig| ManifestSolver {
            name: s.name.clone(),
            family: s.family.clone(),
            version: s.version.clone(),
            command: s.command.clone(),
            references: None,
        };
        let mut reference_solvers: Vec<ManifestSolver> = Vec::new();
        for s in &self.under_test {
            for j in &judges[&s.name] {
                let listed = reference_solvers.iter().any(|r| r.name == j.name);
                if !listed && !self.under_test.iter().any(|u| u.name == j.name) {
                    reference_solvers.push(entry(j));
                }
            }
        }
        RunManifest {
            et_version: env!("CARGO_PKG_VERSION").to_string(),
            grammar: self.grammar.clone(),
            start: self.plan.start.to_string(),
            n: self.plan.n,
            shard: self.plan.shard.map(|s| s.to_string()),
            timeout_s: self.timeout.as_secs_f64(),
            cpu_timeout_s: self.cpu_timeout.map(|t| t.as_secs_f64()),
            supervision: Some(Supervisor::global().supervision().label().to_string()),
            memory_mb: self.memory_mb,
            reference: self.reference.clone(),
            solvers: self
                .under_test
                .iter()
                .map(|s| ManifestSolver {
                    references: Some(judges[&s.name].iter().map(|j| j.name.clone()).collect()),
                    ..entry(s)
                })
                .collect(),
            reference_solvers,
        }
    }

    /// Runs the campaign; returns when every formula is done or `cancel` is set (then
    /// in-flight calls are killed and their formulas left for `--resume`).
    pub fn run(
        &self,
        mut enumeration: Enumeration,
        cancel: Arc<AtomicBool>,
        progress: &mut Progress,
    ) -> anyhow::Result<Summary> {
        if self.plan.n > 0 {
            // Before anything is written: the producer has no one to report this to.
            enumeration.locate(&self.plan.start)?;
        }
        let runs_path = self.out.join("runs.csv");
        let names: Vec<String> = self.under_test.iter().map(|s| s.name.clone()).collect();
        let references = self.judges()?;
        let ledger = self.prepare_dir(&runs_path, &names, &references)?;
        let logic = crate::builtins::declared_logic(enumeration.grammar())?.map(str::to_string);
        let cache_path = self
            .reference_cache
            .clone()
            .unwrap_or_else(|| self.out.join("reference.csv"));
        let mut reference_names: Vec<String> = references
            .values()
            .flatten()
            .map(|r| r.name.clone())
            .collect();
        reference_names.sort();
        reference_names.dedup();
        let cache = ReferenceCache::load(
            &cache_path,
            &self.grammar,
            &reference_names,
            &self.plan,
            self.timeout.as_secs_f64(),
            |offset| self.plan.takes(offset) && !ledger.is_complete(offset),
        )
        .with_context(|| format!("cannot read the reference cache {}", cache_path.display()))?;
        let mut cache_out = cache.appender()?;
        let fresh = !runs_path.exists() || fs::metadata(&runs_path)?.len() == 0;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&runs_path)
            .with_context(|| format!("cannot open {}", runs_path.display()))?;
        // Large enough that a formula's rows, even for a pool of dozens of versions, leave
        // in the one write of the flush below.
        let mut rows_out = csv::WriterBuilder::new()
            .has_headers(fresh)
            .buffer_capacity(1 << 20)
            .from_writer(file);

        let scratch = Scratch::new()?;
        let total = self.plan.len();
        let mut summary = Summary::new(&self.under_test, ledger.complete_count());
        progress.start(total, ledger.complete_count());
        let started = Instant::now();

        let (job_tx, job_rx) = crossbeam_channel::bounded::<Job>(self.jobs * 2);
        let (done_tx, done_rx) = mpsc::channel::<anyhow::Result<Finished>>();
        let limits = Limits {
            timeout: self.timeout,
            cpu_timeout: self.cpu_timeout,
            memory_mb: self.memory_mb,
            cancel: Some(cancel.clone()),
            ..Limits::with_timeout(self.timeout)
        };
        // A solver that cannot even start under the memory limit is not run: its calls
        // are setup errors, not crashes or memouts of the solver.
        let mut involved: Vec<&SolverConfig> = self.under_test.iter().collect();
        for r in references.values().flatten() {
            if !involved.iter().any(|s| s.name == r.name) {
                involved.push(r);
            }
        }
        let cannot_start: HashMap<String, String> =
            check::cannot_start(Supervisor::global(), &involved, &limits, scratch.dir())
                .into_iter()
                .collect();
        for (name, why) in &cannot_start {
            eprintln!("et: {name} cannot start ({why}); its calls are recorded as setup_error");
        }
        let cannot_start = &cannot_start;
        let store = BugStore::new(&self.out);
        let cache = &cache;
        let references = &references;
        let ledger = &ledger;
        let limits = &limits;
        let store = &store;

        let outcome: anyhow::Result<()> = thread::scope(|scope| {
            let producer_cancel = cancel.clone();
            let plan = &self.plan;
            scope.spawn(move || produce(enumeration, plan, ledger, job_tx, &producer_cancel));
            for worker in 0..self.jobs {
                let job_rx = job_rx.clone();
                let done_tx = done_tx.clone();
                let cancel = cancel.clone();
                let file = scratch.file(worker);
                let framed_file = scratch.framed_file(worker);
                let logic = logic.as_deref();
                scope.spawn(move || {
                    let w = Worker {
                        grammar: &self.grammar,
                        logic,
                        under_test: &self.under_test,
                        references,
                        cache,
                        limits,
                        cannot_start,
                        store,
                        file,
                        framed_file,
                        cancel,
                    };
                    for job in job_rx {
                        if w.cancel.load(Ordering::Relaxed) {
                            break;
                        }
                        let result = w.formula(&job);
                        let stop = result.is_err();
                        if done_tx.send(result).is_err() || stop {
                            break;
                        }
                    }
                });
            }
            // Only workers hold the channels now: when they all stop, the producer's
            // send fails instead of blocking on a full queue, and our receive ends.
            drop(job_rx);
            drop(done_tx);
            loop {
                match done_rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(Ok(finished)) => {
                        for row in &finished.rows {
                            rows_out.serialize(row)?;
                        }
                        // One flush per formula: its rows reach the file together.
                        rows_out.flush()?;
                        for (solver, status, secs) in &finished.references {
                            cache_out.record(
                                &finished.index,
                                solver,
                                *status,
                                *secs,
                                self.timeout.as_secs_f64(),
                            )?;
                        }
                        summary.add(&finished.rows, finished.call_seconds);
                        progress.formula_done(&summary);
                    }
                    Ok(Err(e)) => {
                        cancel.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                    Err(RecvTimeoutError::Timeout) => progress.tick(&summary),
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                }
            }
        });
        summary.finish(started.elapsed(), self.jobs, cancel.load(Ordering::Relaxed));
        progress.finish(&summary);
        outcome?;
        Ok(summary)
    }

    /// Creates `out` with its manifest, or checks that a resumed directory holds the
    /// same study; returns what is already done.
    fn prepare_dir(
        &self,
        runs_path: &Path,
        names: &[String],
        judges: &HashMap<String, Vec<SolverConfig>>,
    ) -> anyhow::Result<Ledger> {
        let manifest_path = self.out.join("run.toml");
        let manifest = self.manifest(judges);
        if manifest_path.exists() || runs_path.exists() {
            if !self.resume {
                bail!(
                    "{} already holds a campaign; pass --resume to continue it, or choose another --out",
                    self.out.display()
                );
            }
            let text = fs::read_to_string(&manifest_path).with_context(|| {
                format!("cannot resume: cannot read {}", manifest_path.display())
            })?;
            let old: RunManifest = toml::from_str(&text).with_context(|| {
                format!(
                    "cannot resume: {} is not a run manifest",
                    manifest_path.display()
                )
            })?;
            check_same_study(&old, &manifest, &manifest_path)?;
            if !runs_path.exists() {
                return Ok(Ledger::default());
            }
            return Ok(Ledger::load(runs_path, &self.plan.start, names)?);
        }
        fs::create_dir_all(&self.out)
            .with_context(|| format!("cannot create {}", self.out.display()))?;
        crate::atomic_file::write(&manifest_path, toml::to_string(&manifest)?.as_bytes())
            .with_context(|| format!("cannot write {}", manifest_path.display()))?;
        Ok(Ledger::default())
    }
}

fn check_same_study(old: &RunManifest, new: &RunManifest, path: &Path) -> anyhow::Result<()> {
    let differ = |what: &str, a: String, b: String| -> anyhow::Result<()> {
        if a != b {
            bail!(
                "cannot resume: {} was run with {what} {a}, not {b}",
                path.display()
            );
        }
        Ok(())
    };
    differ("grammar", old.grammar.clone(), new.grammar.clone())?;
    differ("start", old.start.clone(), new.start.clone())?;
    differ("--n", old.n.to_string(), new.n.to_string())?;
    differ(
        "--shard",
        format!("{:?}", old.shard),
        format!("{:?}", new.shard),
    )?;
    differ(
        "--timeout",
        old.timeout_s.to_string(),
        new.timeout_s.to_string(),
    )?;
    let names = |m: &RunManifest| {
        m.solvers
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
            .join(",")
    };
    differ("solvers", names(old), names(new))?;
    // Directories written before references were recorded hold none to compare.
    if old.solvers.iter().all(|s| s.references.is_some()) {
        differ("references", old.references_text(), new.references_text())?;
    }
    Ok(())
}

/// Streams the plan's formulas into the job queue, skipping finished ones.
fn produce(
    mut enumeration: Enumeration,
    plan: &Plan,
    ledger: &Ledger,
    jobs: crossbeam_channel::Sender<Job>,
    cancel: &AtomicBool,
) {
    if plan.n == 0 {
        return;
    }
    let Ok(mut stream) = enumeration.stream_from(&plan.start) else {
        return; // checked by Campaign::run before starting
    };
    for offset in 0..plan.n {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        if plan.takes(offset) && !ledger.is_complete(offset) {
            let Some(term) = stream.current() else { return };
            let job = Job {
                offset,
                index: plan.index(offset).to_string(),
                size: term.size,
                text: String::from_utf8_lossy(stream.current_text()).into_owned(),
                done: ledger.done(offset).cloned().unwrap_or_default(),
            };
            if jobs.send(job).is_err() {
                return;
            }
        }
        if !stream.advance() {
            return;
        }
    }
}
