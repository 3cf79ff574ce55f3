//! The `et run` loop. One producer thread streams the formulas of the plan; J workers
//! ([`super::worker`]) each take a formula and return its judged rows; the calling
//! thread appends the rows to `runs.csv` as formulas complete and reports progress.
//!
//! The unit of work is a formula, not a call, so a call's reference answer is at hand
//! when it is judged and no cross-worker bookkeeping is needed.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::enumeration::Enumeration;
use crate::judging::{check, CallMode};
use crate::solvers::call::{Limits, Supervisor};
use crate::solvers::reference_rules;
use crate::solvers::{Pool, SolverConfig};

use super::append::CsvAppender;
use super::error::CampaignError;
use super::ledger::Ledger;
use super::lock::DirLock;
use super::manifest::{
    first_difference, InapplicableConfiguration, ManifestSolver, OutsideLogic,
    RefusedConfiguration, RunManifest,
};
use super::plan::Plan;
use super::preflight::check_programs;
use super::progress::Observer;
use super::reference::{self, ReferenceCache};
use super::row::{
    COLUMNS, DISAGREEMENTS_CSV, DISAGREEMENT_COLUMNS, UNDECIDED_COLUMNS, UNDECIDED_CSV,
};
use super::scratch::Scratch;
use super::summary::Summary;
use super::trigger_files::BugStore;
use super::worker::{Finished, Job, Sessions, Worker};

/// Everything `et run` was asked to do.
pub struct Campaign {
    /// Grammar name written into rows.
    pub grammar: String,
    /// The `.pest` file of a grammar given as a path (recorded for `--resume`).
    pub grammar_file: Option<String>,
    /// The formulas.
    pub plan: Plan,
    /// The whole pool (references may come from outside the selection).
    pub pool: Pool,
    /// The solvers under test, in pool order.
    pub under_test: Vec<SolverConfig>,
    /// `--reference`, if given: the judges (solver names or families) of every solver,
    /// in order, the first that decides a formula being its reference.
    pub reference: Option<Vec<String>>,
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
    /// et's witness search: values tried per constant, `None` when off.
    pub witness_bound: Option<usize>,
    /// How calls are made: `session` (a long-lived process per worker and solver, where
    /// the family can run one; every finding confirmed fresh) or `fresh`.
    pub mode: CallMode,
    /// Formulas a session process answers before it is replaced.
    pub restart_after: usize,
    /// Percent of the session calls also made fresh, to measure agreement.
    pub audit_percent: f64,
    /// Option configurations the solver refused at the start check: recorded in
    /// run.toml, not run.
    pub refused: Vec<RefusedConfiguration>,
    /// Option configurations left out because they act only on theories the
    /// grammar's logic lacks: recorded in run.toml, not run.
    pub inapplicable: Vec<InapplicableConfiguration>,
    /// Solvers left out because their family does not take the grammar's logic:
    /// recorded in run.toml, not run.
    pub outside_logic: Vec<OutsideLogic>,
    /// The grammar makes scripts (`crate::judging::scripts`): each solver judges
    /// itself, every check-sat against its assertions alone, fresh.
    pub scripts: bool,
}

/// Each solver under test's judges, in order, by name.
type Judges = HashMap<String, Vec<SolverConfig>>;

impl Campaign {
    /// Whether `solver` runs in sessions in this campaign: `--mode session` and its
    /// family can run one (else it runs fresh).
    pub fn runs_in_session(&self, solver: &SolverConfig) -> bool {
        self.mode == CallMode::Session && crate::solvers::install::session_of(solver).is_some()
    }

    /// The judges of each solver under test (see [`reference_rules::judges_by_solver`]).
    pub fn judges(&self) -> Result<Judges, reference_rules::ReferenceError> {
        // A script's answers are judged by the same release on each check-sat alone.
        if self.scripts {
            return Ok(self
                .under_test
                .iter()
                .map(|s| (s.name.clone(), vec![s.clone()]))
                .collect());
        }
        reference_rules::judges_by_solver(
            &self.pool,
            &self.under_test,
            &self.grammar,
            self.reference.as_deref(),
        )
    }

    /// The solvers under test that no other solver judges: no `--reference`, pool
    /// rule, study rule or release of another family gave them a judge. Only et's
    /// own evaluation checks their answers (their models, and the witness search); the
    /// other solvers of the run, if any, judge only their timeouts and `unknown`s.
    pub fn judged_by_et_alone<'s>(&'s self, judges: &Judges) -> Vec<&'s SolverConfig> {
        self.under_test
            .iter()
            .filter(|s| judges.get(&s.name).is_none_or(Vec::is_empty))
            .collect()
    }

    /// The warning of a solver [`Campaign::judged_by_et_alone`]: why it has no judge,
    /// whether another solver runs beside it, and what et's evaluation can still find.
    fn unjudged_warning(&self, solver: &SolverConfig, judges: &Judges) -> String {
        let others = self
            .under_test
            .iter()
            .chain(judges.values().flatten())
            .any(|s| s.name != solver.name);
        let beside = if others {
            "; the other solvers of the run judge only its timeouts and `unknown`s"
        } else {
            ", and no other solver runs beside it"
        };
        let models = solver.command_with_models().is_some();
        let witness = self.witness_bound.is_some();
        let checks = match (models, witness) {
            (true, true) => {
                "Only et's own evaluation checks its answers: a wrong `sat` \
                             shows only where et finds its model false, a wrong `unsat` \
                             only where et's witness search finds a model"
            }
            (true, false) => {
                "Only et's model check looks at its answers: a wrong `sat` \
                              shows only where et finds its model false, a wrong `unsat` \
                              never (the witness search is off)"
            }
            (false, true) => {
                "Only et's witness search looks at its answers: a wrong \
                              `unsat` shows only where it finds a model, a wrong `sat` never \
                              (models are off)"
            }
            (false, false) => {
                "Nothing checks its answers (models and the witness search \
                               are off): no wrong answer of it can show"
            }
        };
        format!(
            "{} has no reference solver (no --reference, pool rule or release of another \
             family judges it){beside}. {checks}. Give --reference NAME, or add a solver of \
             another family to the pool.",
            solver.name
        )
    }

    /// The manifest this campaign writes to `out/run.toml`, with the judges each solver
    /// gets (`references`) and the judges that are not under test (`reference_solvers`,
    /// in the order they first judge).
    pub fn manifest(&self, judges: &Judges) -> RunManifest {
        let mut reference_solvers: Vec<ManifestSolver> = Vec::new();
        for s in &self.under_test {
            for j in &judges[&s.name] {
                let listed = reference_solvers.iter().any(|r| r.name == j.name);
                if !listed && !self.under_test.iter().any(|u| u.name == j.name) {
                    reference_solvers.push(ManifestSolver::new(j, None));
                }
            }
        }
        RunManifest {
            et_version: env!("CARGO_PKG_VERSION").to_string(),
            grammar: self.grammar.clone(),
            grammar_file: self.grammar_file.clone(),
            start: self.plan.start.to_string(),
            n: self.plan.n,
            shard: self.plan.shard.map(|s| s.to_string()),
            timeout_s: self.timeout.as_secs_f64(),
            cpu_timeout_s: self.cpu_timeout.map(|t| t.as_secs_f64()),
            supervision: Some(Supervisor::global().supervision().label().to_string()),
            memory_mb: self.memory_mb,
            reference: self.reference.as_ref().map(|l| l.join(",")),
            witness_bound: Some(
                self.witness_bound
                    .map_or("off".to_string(), |v| v.to_string()),
            ),
            mode: Some(self.mode),
            solvers: self
                .under_test
                .iter()
                .map(|s| {
                    let names = judges[&s.name].iter().map(|j| j.name.clone()).collect();
                    let mut record = ManifestSolver::new(s, Some(names));
                    record.session = Some(self.runs_in_session(s));
                    record
                })
                .collect(),
            reference_solvers,
            refused_configurations: self.refused.clone(),
            inapplicable_configurations: self.inapplicable.clone(),
            outside_logic: self.outside_logic.clone(),
        }
    }

    /// Runs the campaign; returns when every formula is done or `cancel` is set (then
    /// in-flight calls are killed and their formulas left for `--resume`).
    ///
    /// Nothing is written before the study is known to be runnable: the start index
    /// exists, every solver and reference can start, and `out` is free (or, with
    /// `--resume`, holds this very study and no other run holds it). Any error while
    /// running — a failed write of `runs.csv`, `reference.csv` or a bug trigger — stops
    /// dispatching at once and kills the calls in flight.
    pub fn run(
        &self,
        mut enumeration: Enumeration,
        cancel: Arc<AtomicBool>,
        progress: &mut dyn Observer,
    ) -> anyhow::Result<Summary> {
        let startable = self.check_start(&mut enumeration, &cancel)?;
        let mut dir = self.open_dir(&startable.references, progress)?;
        // Said at the start (once the run could start: a refused run has one thing to
        // say), where it can still change the user's mind, and again in the summary: a
        // run without a judge finds far less than one with a judge.
        let unjudged = self.judged_by_et_alone(&startable.references);
        for solver in &unjudged {
            progress.warning(&self.unjudged_warning(solver, &startable.references));
        }
        let mut summary = Summary::new(&self.under_test, dir.ledger.complete_count());
        summary.planned = self.plan.len();
        summary.fold_earlier(&dir.ledger.earlier_statuses, &dir.ledger.earlier_verdicts);
        summary.judged_by_et_alone = unjudged.iter().map(|s| s.name.clone()).collect();
        progress.start(self.plan.len(), dir.ledger.complete_count());
        let started = Instant::now();
        let outcome = self.dispatch(
            enumeration,
            &startable,
            &mut dir,
            &cancel,
            &mut summary,
            progress,
        );
        let failed = outcome.is_err();
        summary.finish(
            started.elapsed(),
            self.jobs,
            cancel.load(Ordering::Relaxed) && !failed,
        );
        progress.finish();
        outcome?;
        Ok(summary)
    }

    /// The start check, before anything is written: the plan's first formula exists,
    /// every solver under test and every judge is installed and can start under the
    /// run's limits.
    fn check_start(
        &self,
        enumeration: &mut Enumeration,
        cancel: &Arc<AtomicBool>,
    ) -> anyhow::Result<Startable> {
        if self.plan.n > 0 {
            // Before anything is written: the producer has no one to report this to.
            enumeration.locate(&self.plan.start)?;
        }
        if let Some(reason) = crate::judging::scripts::unjudgeable(&enumeration.grammar().tokens) {
            return Err(CampaignError::Scripts {
                grammar: enumeration.grammar().name.clone(),
                reason,
            }
            .into());
        }
        let references = self.judges()?;
        check_programs(self.under_test.iter().chain(references.values().flatten()))?;
        let logic = crate::builtins::declared_logic(enumeration.grammar())?.map(str::to_string);
        let limits = Limits {
            timeout: self.timeout,
            cpu_timeout: self.cpu_timeout,
            memory_mb: self.memory_mb,
            cancel: Some(cancel.clone()),
            ..Limits::with_timeout(self.timeout)
        };
        let scratch = Scratch::new()?;
        // A solver that cannot even start under the run's limits is refused before the
        // directory exists: every one of its calls would be a setup error.
        let mut involved: Vec<&SolverConfig> = self.under_test.iter().collect();
        for r in references.values().flatten() {
            if !involved.iter().any(|s| s.name == r.name) {
                involved.push(r);
            }
        }
        let cannot_start =
            check::cannot_start(Supervisor::global(), &involved, &limits, scratch.dir());
        if !cannot_start.is_empty() {
            return Err(CampaignError::CannotStart {
                solvers: cannot_start,
            }
            .into());
        }
        Ok(Startable {
            references,
            logic,
            limits,
            scratch,
        })
    }

    /// Creates or resumes the run directory ([`Campaign::prepare_dir`]) and opens its
    /// files, a failure leaving nothing behind; warns of what the run cuts from or
    /// leaves out of a resumed directory, and notes a study that grows.
    fn open_dir(&self, references: &Judges, progress: &mut dyn Observer) -> anyhow::Result<RunDir> {
        let manifest = self.manifest(references);
        let runs_path = self.out.join("runs.csv");
        let names: Vec<String> = self.under_test.iter().map(|s| s.name.clone()).collect();
        let (lock, ledger, mut created) = self.prepare_dir(&manifest, &names)?;
        // Until the first formula is dispatched, a failure leaves nothing behind.
        let (cache, appenders) = created.undo_on_error(|| self.start(&ledger, references))?;
        created.keep();
        if let Some(bytes) = ledger.torn_bytes {
            progress.warning(&format!(
                "{}: cut a torn last line ({bytes} bytes: a row being written when the run \
                 was killed); its call is made again",
                runs_path.display()
            ));
        }
        if let Some(what) = ledger.left_out.describe() {
            progress.warning(&format!("{}: {what}", runs_path.display()));
        }
        if let Some(was) = created.grown_from {
            progress.note(&format!(
                "{}: the study grows from {was} to {} formulas (run.toml now says n = {})",
                self.out.display(),
                self.plan.n,
                self.plan.n
            ));
        }
        Ok(RunDir {
            ledger,
            cache,
            appenders,
            _lock: lock,
        })
    }

    /// The producer thread streams the plan's formulas to `self.jobs` workers; this
    /// thread writes what they send back. Returns when every formula is done, or the
    /// workers stop on `cancel`, or on the first failure (a worker's or a write's).
    fn dispatch(
        &self,
        enumeration: Enumeration,
        startable: &Startable,
        dir: &mut RunDir,
        cancel: &Arc<AtomicBool>,
        summary: &mut Summary,
        progress: &mut dyn Observer,
    ) -> anyhow::Result<()> {
        let (job_tx, job_rx) = crossbeam_channel::bounded::<Vec<Job>>(self.jobs * 2);
        let batch = batch_size(self.mode, self.plan.len(), self.jobs);
        let (done_tx, done_rx) = mpsc::channel::<anyhow::Result<Finished>>();
        let store = BugStore::new(&self.out);
        // The workers read the formula's tokens from this table (the producer owns the
        // enumeration).
        let tokens = enumeration.grammar().tokens.clone();
        let RunDir {
            ledger,
            cache,
            appenders,
            ..
        } = dir;
        let (ledger, cache, store, tokens) = (&*ledger, &*cache, &store, &tokens[..]);

        thread::scope(|scope| {
            let producer_cancel = cancel.clone();
            let plan = &self.plan;
            scope
                .spawn(move || produce(enumeration, plan, ledger, batch, job_tx, &producer_cancel));
            for index in 0..self.jobs {
                let job_rx = job_rx.clone();
                let done_tx = done_tx.clone();
                let cancel = cancel.clone();
                scope.spawn(move || {
                    let w = self.worker(index, startable, cache, store, tokens, cancel);
                    serve(&w, &job_rx, &done_tx);
                });
            }
            // Only workers hold the channels now: when they all stop, the producer's
            // send fails instead of blocking on a full queue, and our receive ends.
            drop(job_rx);
            drop(done_tx);
            self.collect(&done_rx, appenders, cancel, summary, progress)
        })
    }

    /// Worker number `index`, with its own formula files.
    fn worker<'a>(
        &'a self,
        index: usize,
        startable: &'a Startable,
        cache: &'a ReferenceCache,
        store: &'a BugStore,
        tokens: &'a [String],
        cancel: Arc<AtomicBool>,
    ) -> Worker<'a> {
        Worker {
            grammar: &self.grammar,
            logic: startable.logic.as_deref(),
            under_test: &self.under_test,
            references: &startable.references,
            cache,
            limits: &startable.limits,
            store,
            file: startable.scratch.file(index),
            framed_file: startable.scratch.framed_file(index),
            cancel,
            tokens,
            witness_values: self.witness_bound,
            mode: self.mode,
            scripts: self.scripts,
            restart_after: self.restart_after,
            audit_percent: self.audit_percent,
            sessions: RefCell::new(Sessions::default()),
            batches: Cell::new(0),
            written: RefCell::new([None, None]),
        }
    }

    /// The writer: takes the workers' formulas as they complete, writes each and
    /// counts it in `summary`, until every worker has stopped. A worker's failure or a
    /// failed write sets `cancel` and ends the run with it.
    fn collect(
        &self,
        done: &mpsc::Receiver<anyhow::Result<Finished>>,
        appenders: &mut Appenders,
        cancel: &AtomicBool,
        summary: &mut Summary,
        progress: &mut dyn Observer,
    ) -> anyhow::Result<()> {
        let timeout_s = self.timeout.as_secs_f64();
        loop {
            let finished = match done.recv_timeout(Duration::from_millis(200)) {
                Ok(Ok(finished)) => finished,
                Ok(Err(e)) => {
                    cancel.store(true, Ordering::SeqCst);
                    return Err(e);
                }
                Err(RecvTimeoutError::Timeout) => {
                    progress.tick(summary);
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(()),
            };
            if let Err(e) = appenders.write(&finished, timeout_s) {
                // Stop at once: every further call would be lost.
                cancel.store(true, Ordering::SeqCst);
                return Err(e.into());
            }
            summary.add(&finished.rows, finished.call_seconds, finished.complete);
            summary.undecided += u64::from(!finished.undecided.is_empty());
            if let Some(line) = &finished.rejected_by_all {
                summary.rejected_by_all += 1;
                // The smallest such formula (formulas finish out of order).
                let key = |index: &str| (index.len(), index.to_string());
                if summary
                    .first_rejected_by_all
                    .as_ref()
                    .is_none_or(|(first, _)| key(&finished.index) < key(first))
                {
                    summary.first_rejected_by_all = Some((finished.index.clone(), line.clone()));
                }
            }
            summary.add_rechecks(&finished.rechecks);
            if finished.complete {
                progress.formula_done(summary);
            }
        }
    }

    /// Opens what the run reads and appends to: the reference cache and the CSV files
    /// of the run directory.
    fn start(
        &self,
        ledger: &Ledger,
        judges: &Judges,
    ) -> Result<(ReferenceCache, Appenders), CampaignError> {
        let cache_path = self
            .reference_cache
            .clone()
            .unwrap_or_else(|| self.out.join("reference.csv"));
        let mut reference_names: Vec<String> =
            judges.values().flatten().map(|r| r.name.clone()).collect();
        reference_names.sort();
        reference_names.dedup();
        let searcher = self.witness_bound.map(reference::witness_searcher);
        let cache = ReferenceCache::load(
            &cache_path,
            &self.grammar,
            &reference_names,
            searcher.as_deref(),
            &self.plan,
            self.timeout.as_secs_f64(),
            |offset| self.plan.takes(offset) && !ledger.is_complete(offset),
        )?;
        let appenders = Appenders {
            references: cache.appender()?,
            runs: CsvAppender::open(&self.out.join("runs.csv"), COLUMNS)?,
            undecided: CsvAppender::open(&self.out.join(UNDECIDED_CSV), UNDECIDED_COLUMNS)?,
            disagreements: CsvAppender::open(
                &self.out.join(DISAGREEMENTS_CSV),
                DISAGREEMENT_COLUMNS,
            )?,
        };
        Ok((cache, appenders))
    }

    /// Creates `out` with its manifest, or checks that a resumed directory holds the
    /// same study (or the same study with more formulas: then, after every check, its
    /// `run.toml` is rewritten with the new N); takes the directory's lock either way
    /// and returns it with what is already done and what this run created.
    fn prepare_dir(
        &self,
        manifest: &RunManifest,
        names: &[String],
    ) -> Result<(DirLock, Ledger, Created), CampaignError> {
        let manifest_path = self.out.join("run.toml");
        let runs_path = self.out.join("runs.csv");
        let holds_campaign = || manifest_path.exists() || runs_path.exists();
        if self.out.exists() && !self.out.is_dir() {
            return Err(CampaignError::NotADirectory {
                path: self.out.clone(),
            });
        }
        if holds_campaign() && !self.resume {
            return Err(CampaignError::Exists {
                dir: self.out.clone(),
            });
        }
        let mut created = Created {
            dir: self.out.clone(),
            made_dir: !self.out.exists(),
            files: Vec::new(),
            armed: true,
            grown_from: None,
        };
        fs::create_dir_all(&self.out).map_err(CampaignError::io("cannot create", &self.out))?;
        let lock = match DirLock::take(&self.out) {
            Ok(lock) => lock,
            Err(e) => {
                if created.made_dir {
                    let _ = fs::remove_dir(&self.out);
                }
                return Err(e);
            }
        };
        if !holds_campaign() {
            // Everything a new run puts in the directory, removed again should it fail
            // before its first formula.
            created.files = [
                "run.toml",
                "runs.csv",
                "reference.csv",
                UNDECIDED_CSV,
                DISAGREEMENTS_CSV,
                super::lock::LOCK_FILE,
            ]
            .iter()
            .map(|name| self.out.join(name))
            .filter(|p| !p.exists() || p.ends_with(super::lock::LOCK_FILE))
            .collect();
            let written = toml::to_string(manifest)
                .map_err(|e| CampaignError::BadManifest {
                    path: manifest_path.clone(),
                    position: None,
                    message: e.to_string(),
                })
                .and_then(|text| {
                    crate::atomic_file::write(&manifest_path, text.as_bytes())
                        .map_err(CampaignError::io("cannot write", &manifest_path))
                });
            return match written {
                Ok(()) => Ok((lock, Ledger::default(), created)),
                Err(e) => {
                    created.undo();
                    Err(e)
                }
            };
        }
        created.armed = false; // a resumed directory is never removed
        if !self.resume {
            // Another run created it between our two looks and has finished since.
            return Err(CampaignError::Exists {
                dir: self.out.clone(),
            });
        }
        let old = read_manifest(&manifest_path)?;
        let grows = old.n < manifest.n;
        let same_n = RunManifest {
            n: old.n,
            ..manifest.clone()
        };
        let compared = if grows { &same_n } else { manifest };
        if let Some((what, was, now)) = first_difference(&old, compared) {
            return Err(CampaignError::Changed {
                dir: self.out.clone(),
                what,
                was,
                now,
            });
        }
        if grows {
            if let Some(shard) = &old.shard {
                return Err(CampaignError::CannotGrow {
                    dir: self.out.clone(),
                    was: old.n,
                    now: manifest.n,
                    reason: format!(
                        "it is shard {shard} of a study, whose other shards would not grow \
                         with it (their formulas interleave); run the extra formulas as a \
                         study of their own (--start {}) and report or merge both",
                        NextStart(&old)
                    ),
                });
            }
        }
        let ledger = if runs_path.exists() {
            Ledger::load(&runs_path, &self.plan.start, names)?
        } else {
            Ledger::default()
        };
        if grows {
            // Only now, after every check: the study is the old one with more formulas.
            let text = toml::to_string(&RunManifest {
                n: manifest.n,
                ..old.clone()
            })
            .map_err(|e| CampaignError::BadManifest {
                path: manifest_path.clone(),
                position: None,
                message: e.to_string(),
            })?;
            crate::atomic_file::write(&manifest_path, text.as_bytes())
                .map_err(CampaignError::io("cannot write", &manifest_path))?;
            created.grown_from = Some(old.n);
        }
        Ok((lock, ledger, created))
    }
}

/// What a campaign that passed the start check runs with: each solver's judges, the
/// grammar's SMT-LIB logic, the per-call limits (with the run's cancel flag) and the
/// workers' scratch directory.
struct Startable {
    references: Judges,
    logic: Option<String>,
    limits: Limits,
    scratch: Scratch,
}

/// The run directory while the run holds it: what is already done, the reference
/// cache, the files the run appends to, and its lock.
struct RunDir {
    ledger: Ledger,
    cache: ReferenceCache,
    appenders: Appenders,
    /// Last, so that it is released after the files are closed (fields drop in order).
    _lock: DirLock,
}

/// The appenders of `reference.csv` (or the `--reference-cache` file), `runs.csv`,
/// `undecided.csv` and `session-disagreements.csv`.
struct Appenders {
    references: reference::ReferenceAppender,
    runs: CsvAppender,
    undecided: CsvAppender,
    disagreements: CsvAppender,
}

impl Appenders {
    /// Writes what a worker sent back for one formula: its rows in one write, then its
    /// reference answers and, if nobody decided it, its line in `undecided.csv`.
    fn write(&mut self, finished: &Finished, timeout_s: f64) -> Result<(), CampaignError> {
        self.runs.append(&finished.rows)?;
        self.references.record(
            &finished.index,
            &finished.references,
            finished.witness.as_ref(),
            timeout_s,
        )?;
        self.undecided.append(&finished.undecided)?;
        self.disagreements.append(&finished.rechecks.disagreements)
    }
}

/// A worker's loop: takes batches of formulas until the queue closes or the run is
/// cancelled, and sends back each formula's result; a failure is sent back and ends
/// the worker, as does a writer that stopped listening.
fn serve(
    worker: &Worker<'_>,
    jobs: &crossbeam_channel::Receiver<Vec<Job>>,
    done: &mpsc::Sender<anyhow::Result<Finished>>,
) {
    for batch in jobs {
        if worker.cancel.load(Ordering::Relaxed) {
            break;
        }
        match worker.formulas(&batch) {
            Ok(finished) => {
                for f in finished {
                    if done.send(Ok(f)).is_err() {
                        return;
                    }
                }
            }
            Err(e) => {
                let _ = done.send(Err(e));
                return;
            }
        }
    }
}

/// The index after a study's last formula (`start + n`), as text.
struct NextStart<'a>(&'a RunManifest);

impl std::fmt::Display for NextStart<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.start.parse::<num_bigint::BigUint>() {
            Ok(start) => write!(f, "{}", start + self.0.n),
            Err(_) => write!(f, "{} + {}", self.0.start, self.0.n),
        }
    }
}

/// What a new run created in its directory, removed again when it fails before its
/// first formula (a start-up failure leaves nothing, so the same command can be given
/// again); nothing of a resumed directory is ever removed.
struct Created {
    dir: PathBuf,
    /// The directory did not exist before.
    made_dir: bool,
    /// Files this run would create (they did not exist before).
    files: Vec<PathBuf>,
    /// Whether a failure now removes them.
    armed: bool,
    /// A resumed study grown from this many formulas.
    grown_from: Option<u64>,
}

impl Created {
    /// Runs `step`; if it fails, removes what this run created.
    fn undo_on_error<T, E>(&mut self, step: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let result = step();
        if result.is_err() {
            self.undo();
        }
        result
    }

    /// The run has started: what it created stays.
    fn keep(&mut self) {
        self.armed = false;
    }

    /// Removes the files this run created, and the directory if it made it.
    fn undo(&mut self) {
        if !self.armed {
            return;
        }
        for file in &self.files {
            let _ = fs::remove_file(file);
        }
        if self.made_dir {
            let _ = fs::remove_dir(&self.dir);
        }
        self.armed = false;
    }
}

/// Reads `run.toml` of a run directory.
pub fn read_manifest(path: &std::path::Path) -> Result<RunManifest, CampaignError> {
    let bad = |position, message: String| CampaignError::BadManifest {
        path: path.to_path_buf(),
        position,
        message,
    };
    let text = fs::read_to_string(path).map_err(|e| bad(None, e.to_string()))?;
    toml::from_str(&text).map_err(|e| {
        let position = e.span().map(|s| line_column(&text, s.start));
        bad(position, e.message().trim().to_string())
    })
}

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |nl| nl + 1) + 1;
    (line, column)
}

/// Formulas per batch a worker takes (see [`super::worker`]: a solver session answers
/// a batch's formulas one after the other, with warm caches, and the solver that ends
/// one batch begins the next). Batches of 32 (a solver's runs 64 formulas long, the
/// order turned) took z3 4.16.0's CPU time in a core session run from 4.1–4.9 s (runs
/// of 16) to 3.5–4.0 s, against 2.9–3.6 s in one batch; runs of 128 and 250 gained
/// nothing more beyond the host's noise. A run has at least 8 batches per worker, so
/// that a short run still keeps every worker busy to its end; fresh calls start a
/// process each, so they gain nothing and go one formula at a time.
fn batch_size(mode: CallMode, formulas: u64, jobs: usize) -> usize {
    const MOST: u64 = 32;
    match mode {
        CallMode::Fresh => 1,
        CallMode::Session => (formulas / (jobs as u64 * 8)).clamp(1, MOST) as usize,
    }
}

/// Streams the plan's formulas into the job queue in batches of `batch`, skipping
/// finished ones.
fn produce(
    mut enumeration: Enumeration,
    plan: &Plan,
    ledger: &Ledger,
    batch: usize,
    jobs: crossbeam_channel::Sender<Vec<Job>>,
    cancel: &AtomicBool,
) {
    if plan.n == 0 {
        return;
    }
    let Ok(mut stream) = enumeration.stream_from(&plan.start) else {
        return; // checked by Campaign::run before starting
    };
    let mut next = Vec::with_capacity(batch);
    for offset in 0..plan.n {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        if plan.takes(offset) && !ledger.is_complete(offset) {
            let Some(term) = stream.current() else { break };
            let mut tokens = Vec::with_capacity(64);
            stream.current_token_ids(&mut |t| tokens.push(t));
            next.push(Job {
                offset,
                index: plan.index(offset).to_string(),
                size: term.size,
                text: String::from_utf8_lossy(stream.current_text()).into_owned(),
                tokens,
                done: ledger.done(offset).cloned().unwrap_or_default(),
            });
            if next.len() == batch && jobs.send(std::mem::take(&mut next)).is_err() {
                return;
            }
        }
        if !stream.advance() {
            break;
        }
    }
    if !next.is_empty() {
        let _ = jobs.send(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_of_thirty_two_and_never_fewer_than_eight_per_worker() {
        assert_eq!(batch_size(CallMode::Session, 100_000, 2), 32);
        assert_eq!(batch_size(CallMode::Session, 400, 2), 25);
        assert_eq!(batch_size(CallMode::Session, 160, 2), 10);
        assert_eq!(batch_size(CallMode::Session, 10, 2), 1);
        assert_eq!(batch_size(CallMode::Session, 0, 2), 1);
        assert_eq!(batch_size(CallMode::Fresh, 100_000, 2), 1);
    }
}
