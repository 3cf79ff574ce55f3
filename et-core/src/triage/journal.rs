//! The journal of a triage's solver calls (`et triage --journal FILE`): every call that
//! finished is appended to FILE as it finishes, and a triage given a FILE that already
//! holds calls takes its answers from there instead of running them again — the n-th
//! call of one question (solver, command line, script, limits) gets the n-th answer
//! recorded for it. A triage of a hunt runs for hours and cannot be cut into steps
//! smaller than a grammar; with a journal, one stopped part-way (a session's end, a
//! `kill -9`) goes on where it stopped when run again.
//!
//! What is recorded is what the process did (its output, exit, times), not what et
//! made of it: a replayed call is classified and its model checked again, by the same
//! path as a call just made. A call that was cancelled or could not start says
//! nothing about the solver and is not recorded. The solver's output is kept as UTF-8
//! text (solvers print ASCII; other bytes would read back as U+FFFD).
//!
//! *Must not:* hand back an answer to a question other than the one recorded, or lose
//! a call that finished before the process was stopped (each record is flushed).

use std::collections::{HashMap, VecDeque};
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use crate::judging::Invocation;
use crate::solvers::call::{CallOutcome, Limits};

/// The columns of a journal, in order. The last is a fixed mark: a record cut short
/// by a kill lacks it and is not read.
const COLUMNS: &[&str] = &[
    "solver",
    "command",
    "script",
    "timeout_us",
    "cpu_timeout_us",
    "memory_mb",
    "stdout",
    "stderr",
    "stdout_truncated",
    "stderr_truncated",
    "wall_us",
    "cpu_us",
    "max_rss_kb",
    "exit_code",
    "signal",
    "timed_out",
    "memory_limit_hit",
    "end",
];

/// The mark in the `end` column of a complete record.
const END: &str = ".";

/// Why a journal cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file cannot be opened, read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The journal.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The file is not a journal et wrote (its header differs).
    #[error("{}:1: not a triage journal (its first line is not et's journal header)", path.display())]
    NotAJournal {
        /// The file.
        path: PathBuf,
    },
}

/// One question a call answers: who was asked what, under which limits.
type Question = (String, String, String, u64, Option<u64>, Option<u64>);

/// A call as the journal knows it: the solver's name, its command line, the script it
/// reads.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The solver's name in the pool.
    pub solver: &'a str,
    /// Its command line.
    pub command: &'a [String],
    /// The script it reads (prelude and model request included).
    pub script: &'a str,
}

impl<'a> From<&'a Invocation<'a>> for Call<'a> {
    fn from(invocation: &'a Invocation<'a>) -> Call<'a> {
        Call {
            solver: &invocation.solver.name,
            command: &invocation.command,
            script: &invocation.script,
        }
    }
}

/// A triage's journal: the calls recorded before, to replay, and the file new calls
/// are appended to.
pub struct Journal {
    path: PathBuf,
    recorded: Mutex<HashMap<Question, VecDeque<CallOutcome>>>,
    writer: Mutex<csv::Writer<File>>,
    replayed: AtomicU64,
    read: usize,
}

impl Journal {
    /// Opens (or creates) the journal at `path` and reads the calls it holds; a last
    /// record cut short by a kill is left out (and written again when its call is).
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        let io = |error| JournalError::Io {
            path: path.to_path_buf(),
            error,
        };
        let mut recorded: HashMap<Question, VecDeque<CallOutcome>> = HashMap::new();
        let mut read = 0;
        let mut complete_bytes = 0;
        let exists = path.exists() && std::fs::metadata(path).map_err(io)?.len() > 0;
        if exists {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(true)
                .from_path(path)
                .map_err(|e| io(std::io::Error::other(e)))?;
            let header = reader
                .headers()
                .map_err(|_| JournalError::NotAJournal {
                    path: path.to_path_buf(),
                })?
                .clone();
            if header.iter().ne(COLUMNS.iter().copied()) {
                return Err(JournalError::NotAJournal {
                    path: path.to_path_buf(),
                });
            }
            complete_bytes = reader.position().byte();
            let mut record = csv::StringRecord::new();
            while let Ok(true) = reader.read_record(&mut record) {
                let Some((question, outcome)) = parse(&record) else {
                    break;
                };
                recorded.entry(question).or_default().push_back(outcome);
                read += 1;
                complete_bytes = reader.position().byte();
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        // A torn last record goes, so that what is appended starts on a line of its own.
        if exists {
            file.set_len(complete_bytes).map_err(io)?;
        }
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if !exists {
            writer.write_record(COLUMNS).map_err(|e| io(e.into()))?;
            writer.flush().map_err(io)?;
        }
        Ok(Journal {
            path: path.to_path_buf(),
            recorded: Mutex::new(recorded),
            writer: Mutex::new(writer),
            replayed: AtomicU64::new(0),
            read,
        })
    }

    /// Calls the journal held when it was opened.
    pub fn read(&self) -> usize {
        self.read
    }

    /// Calls answered from the journal so far.
    pub fn replayed(&self) -> u64 {
        self.replayed.load(Ordering::Relaxed)
    }

    /// The next recorded outcome of this call, if the journal has one left.
    pub fn replay(&self, call: Call<'_>, limits: &Limits) -> Option<CallOutcome> {
        let question = question(call, limits);
        let mut recorded = self.recorded.lock().unwrap_or_else(|e| e.into_inner());
        let outcome = recorded.get_mut(&question)?.pop_front()?;
        self.replayed.fetch_add(1, Ordering::Relaxed);
        Some(outcome)
    }

    /// Appends a finished call (not one cancelled, starved or that could not start:
    /// those say nothing about the solver, and a later triage makes them again).
    pub fn record(
        &self,
        call: Call<'_>,
        limits: &Limits,
        outcome: &CallOutcome,
    ) -> Result<(), JournalError> {
        if outcome.cancelled || outcome.starved || outcome.start_error.is_some() {
            return Ok(());
        }
        let (solver, command, script, timeout, cpu_timeout, memory) = question(call, limits);
        let optional = |n: Option<u64>| n.map_or_else(String::new, |n| n.to_string());
        let fields = [
            solver,
            command,
            script,
            timeout.to_string(),
            optional(cpu_timeout),
            optional(memory),
            String::from_utf8_lossy(&outcome.stdout).into_owned(),
            String::from_utf8_lossy(&outcome.stderr).into_owned(),
            outcome.stdout_truncated.to_string(),
            outcome.stderr_truncated.to_string(),
            micros(outcome.wall).to_string(),
            micros(outcome.cpu).to_string(),
            outcome.max_rss_kb.to_string(),
            outcome
                .exit_code
                .map_or_else(String::new, |c| c.to_string()),
            outcome.signal.map_or_else(String::new, |s| s.to_string()),
            outcome.timed_out.to_string(),
            outcome.memory_limit_hit.to_string(),
            END.to_string(),
        ];
        let io = |error| JournalError::Io {
            path: self.path.clone(),
            error,
        };
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        writer.write_record(&fields).map_err(|e| io(e.into()))?;
        writer.flush().map_err(io)
    }
}

/// The question of a call: the solver, its command line, the script it reads, and the
/// limits that can change its answer.
fn question(call: Call<'_>, limits: &Limits) -> Question {
    (
        call.solver.to_string(),
        call.command.join("\u{1f}"),
        call.script.to_string(),
        micros(limits.timeout),
        limits.cpu_timeout.map(micros),
        limits.memory_mb,
    )
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// A complete record: its question and the call's outcome.
fn parse(record: &csv::StringRecord) -> Option<(Question, CallOutcome)> {
    if record.len() != COLUMNS.len() || record.get(COLUMNS.len() - 1)? != END {
        return None;
    }
    let field = |i: usize| record.get(i).unwrap_or_default();
    let number = |i: usize| field(i).parse::<u64>().ok();
    let optional = |i: usize| -> Option<Option<u64>> {
        match field(i) {
            "" => Some(None),
            text => text.parse().ok().map(Some),
        }
    };
    let optional_i32 = |i: usize| -> Option<Option<i32>> {
        match field(i) {
            "" => Some(None),
            text => text.parse().ok().map(Some),
        }
    };
    let flag = |i: usize| field(i).parse::<bool>().ok();
    let question = (
        field(0).to_string(),
        field(1).to_string(),
        field(2).to_string(),
        number(3)?,
        optional(4)?,
        optional(5)?,
    );
    let outcome = CallOutcome {
        stdout: field(6).as_bytes().to_vec(),
        stderr: field(7).as_bytes().to_vec(),
        stdout_truncated: flag(8)?,
        stderr_truncated: flag(9)?,
        wall: Duration::from_micros(number(10)?),
        cpu: Duration::from_micros(number(11)?),
        max_rss_kb: number(12)?,
        exit_code: optional_i32(13)?,
        signal: optional_i32(14)?,
        timed_out: flag(15)?,
        starved: false,
        memory_limit_hit: flag(16)?,
        cancelled: false,
        start_error: None,
    };
    // Starved calls are not journalled, but an older journal holds them as timeouts:
    // the limits of the question tell them apart.
    let limits = Limits {
        cpu_timeout: question.4.map(Duration::from_micros),
        ..Limits::with_timeout(Duration::from_micros(question.3))
    };
    let mut outcome = outcome;
    outcome.starved = limits.starves(outcome.timed_out, outcome.cpu);
    Some((question, outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::SolverConfig;

    #[test]
    fn recorded_calls_are_replayed_in_order_and_a_torn_record_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("calls.csv");
        let solver = SolverConfig::new("z3-9", "z3", "9", vec!["z3".into()]);
        let invocation = Invocation::new(&solver, "(check-sat)", None);
        let invocation = Call::from(&invocation);
        let limits = Limits::with_timeout(Duration::from_secs(2));
        let outcome = |stdout: &str| CallOutcome {
            stdout: stdout.as_bytes().to_vec(),
            wall: Duration::from_millis(12),
            cpu: Duration::from_millis(10),
            exit_code: Some(0),
            ..CallOutcome::default()
        };
        {
            let journal = Journal::open(&path).unwrap();
            journal
                .record(invocation, &limits, &outcome("sat\n"))
                .unwrap();
            journal
                .record(invocation, &limits, &outcome("unsat\n\"quoted\", text\n"))
                .unwrap();
        }
        // A kill in the middle of a third record.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("z3-9,z3,\"(check-sat");
        std::fs::write(&path, text).unwrap();

        let journal = Journal::open(&path).unwrap();
        assert_eq!(journal.read(), 2);
        assert_eq!(journal.replay(invocation, &limits), Some(outcome("sat\n")));
        assert_eq!(
            journal.replay(invocation, &limits),
            Some(outcome("unsat\n\"quoted\", text\n"))
        );
        assert_eq!(journal.replay(invocation, &limits), None);
        // Another limit is another question.
        let longer = Limits::with_timeout(Duration::from_secs(8));
        journal
            .record(invocation, &longer, &outcome("sat\n"))
            .unwrap();
        drop(journal);
        let again = Journal::open(&path).unwrap();
        assert_eq!(again.read(), 3);
        assert_eq!(again.replay(invocation, &limits), Some(outcome("sat\n")));
        assert_eq!(again.replay(invocation, &longer), Some(outcome("sat\n")));
        assert_eq!(again.replayed(), 2);

        // A file that is not a journal is refused, not overwritten.
        let other = dir.path().join("runs.csv");
        std::fs::write(&other, "grammar,index\ncore,0\n").unwrap();
        assert!(matches!(
            Journal::open(&other),
            Err(JournalError::NotAJournal { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(&other).unwrap(),
            "grammar,index\ncore,0\n"
        );
    }
}
