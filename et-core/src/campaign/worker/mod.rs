//! One worker of a campaign: takes a batch of formulas, runs every solver under test
//! that still needs them and the references that judge them (unless their answer is
//! cached), classifies each call, checks the model it printed (et-eval), asks the
//! oracle's checks in turn ([`crate::oracle::checks`]) for its verdict, saves bug triggers
//! (and a sample of each kind of rejection), and hands back the rows, a formula at a
//! time. One job a file: [`batch`] (the order of a batch's calls, and making them),
//! [`judge`] (the order of judges, and the row of each call), [`sessions`] (the
//! worker's live sessions, at most [`sessions::LIVE_SESSIONS`]), [`settle`] (session calls
//! made again fresh: confirmations and the audit), [`triggers`] (bug triggers and
//! samples); the formula files live in the run's [`Scratch`](super::scratch::Scratch)
//! directory.
//!
//! The formula's parsed form (for the model check and the witness search) is built
//! from the enumeration's tokens when first needed, never re-read from text; the
//! witness search runs only when a check asks for it, once per formula, unless the
//! reference cache already holds its result.

mod batch;
mod judge;
mod scripts;
mod sessions;
mod settle;
mod triggers;

pub use sessions::Sessions;

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use et_eval::{Script, ScriptError};

use crate::grammar::TokenId;
use crate::judging::{search_witness, CallMode, Observation};
use crate::oracle::checks::WitnessFact;
use crate::solvers::call::Limits;
use crate::solvers::SolverConfig;

use super::reference::{NewAnswer, ReferenceCache, WitnessResult};
use super::row::{RunRow, UndecidedRow};
use super::trigger_files::BugStore;
use crate::judging::reference::Ruling;

pub(super) use settle::SessionRechecks;

/// A formula handed to a worker.
pub(super) struct Job {
    /// Offset from the study's start.
    pub offset: u64,
    /// Global index, decimal.
    pub index: String,
    /// FEAT size.
    pub size: u32,
    /// The formula.
    pub text: String,
    /// The formula as the enumeration's tokens (ids into [`Worker::tokens`]): what the
    /// model check and the witness search read, without re-parsing the text.
    pub tokens: Vec<TokenId>,
    /// Answers of solvers that already have a row (resume of a partly done formula).
    pub done: HashMap<String, Ruling>,
}

/// What a worker sends back for one formula.
pub(super) struct Finished {
    /// Rows of the solvers under test that could be judged.
    pub rows: Vec<RunRow>,
    /// Whether, with these rows, every solver under test has a row for the formula
    /// (an interrupted formula has the rows of the calls that finished, or none).
    pub complete: bool,
    /// New reference answers for the cache.
    pub references: Vec<NewAnswer>,
    /// The witness search made on this formula (not taken from the cache), if any.
    pub witness: Option<WitnessResult>,
    /// Global index of the formula.
    pub index: String,
    /// Wall seconds of every call made.
    pub call_seconds: f64,
    /// When no solver of the pool and no witness decided the formula: every solver's
    /// status and time on it (for `undecided.csv`); empty otherwise.
    pub undecided: Vec<UndecidedRow>,
    /// When every solver that ran rejected the formula (a defect of the grammar): the
    /// first of them and its first error line ([`FormulaCalls::rejected_by_all`]).
    pub rejected_by_all: Option<String>,
    /// Session calls re-run fresh on this formula: to confirm a finding, or for the
    /// audit.
    pub rechecks: SessionRechecks,
}

/// What a worker shares with the others.
pub(super) struct Worker<'a> {
    /// Grammar name for the rows.
    pub grammar: &'a str,
    /// The grammar's SMT-LIB logic, for the families that need it stated.
    pub logic: Option<&'a str>,
    /// The solvers under test.
    pub under_test: &'a [SolverConfig],
    /// Each solver's judges, in order (the first that decides is its reference).
    pub references: &'a HashMap<String, Vec<SolverConfig>>,
    /// Cached reference answers.
    pub cache: &'a ReferenceCache,
    /// Per-call limits (with the run's cancel flag).
    pub limits: &'a Limits,
    /// Where bug triggers go.
    pub store: &'a BugStore,
    /// This worker's formula file.
    pub file: PathBuf,
    /// This worker's file for the formula behind a family's prelude.
    pub framed_file: PathBuf,
    /// What `file` and `framed_file` hold now (`None`: nothing written yet), so that a
    /// fresh call rewrites a file only when the batch moved on to another script.
    pub written: RefCell<[Option<String>; 2]>,
    /// Set on Ctrl-C.
    pub cancel: Arc<AtomicBool>,
    /// The grammar's token table, by [`TokenId`].
    pub tokens: &'a [String],
    /// et's witness search, if on: values tried per constant.
    pub witness_values: Option<usize>,
    /// How calls are made: `session` where the solver's family can run one.
    pub mode: CallMode,
    /// The jobs are scripts ([`scripts`]).
    pub scripts: bool,
    /// Formulas a session process answers before it is replaced.
    pub restart_after: usize,
    /// Percent of the session calls that are also run fresh to measure agreement.
    pub audit_percent: f64,
    /// This worker's solver sessions. A session process dies with the thread that
    /// started it, so each worker keeps its own.
    pub sessions: RefCell<Sessions>,
    /// Batches this worker has taken: the solvers take every other batch in reverse
    /// order (see [`batch`]).
    pub batches: Cell<u64>,
}

/// The calls of one formula and what is known about it so far.
struct FormulaCalls<'w, 'a> {
    worker: &'w Worker<'a>,
    job: &'w Job,
    text: String,
    /// The formula parsed from its tokens, when first needed; an error if et-eval does
    /// not know one of its operators (a `.pest` grammar of its own).
    script: OnceCell<Result<Script, ScriptError>>,
    /// The formula's witness (from the cache or searched here), when first asked.
    witness: OnceCell<WitnessResult>,
    /// Whether the witness was searched here (so it goes to the cache).
    searched: std::cell::Cell<bool>,
    made: HashMap<String, Observation>,
    /// Answers by solver name: made here, found in runs.csv, or from the cache.
    known: HashMap<String, Ruling>,
    call_seconds: f64,
    rechecks: SessionRechecks,
}

impl FormulaCalls<'_, '_> {
    /// The formula parsed from the job's tokens (once).
    fn parsed(&self) -> Option<&Script> {
        self.read().ok()
    }

    /// The formula parsed from the job's tokens (once), or why et-eval cannot read it.
    fn read(&self) -> Result<&Script, &ScriptError> {
        self.script
            .get_or_init(|| {
                let tokens = self.job.tokens.iter().map(|&t| &self.worker.tokens[t]);
                Script::from_tokens(tokens)
            })
            .as_ref()
    }

    /// The formula's witness: from the cache, or searched now (once), if the search is
    /// on and et-eval reads the formula.
    pub(super) fn witness(&self) -> Option<&str> {
        self.witness
            .get_or_init(|| {
                let w = self.worker;
                let values = w.witness_values?;
                if let Some(cached) = w.cache.witness(self.job.offset) {
                    return cached.clone();
                }
                let script = self.parsed()?;
                self.searched.set(true);
                search_witness(script, values)
            })
            .as_deref()
    }
}

/// The witness is searched when a check first asks for it.
impl WitnessFact for FormulaCalls<'_, '_> {
    fn exists(&self) -> bool {
        self.witness().is_some()
    }
}
