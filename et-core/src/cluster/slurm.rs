//! The Slurm commands et uses, and what their answers mean: `sbatch` submits (and with
//! `--test-only` validates without submitting), `squeue --states=all` tells the state
//! of jobs the controller still knows (pending, running, and those that ended within
//! the last `MinJobAge`, 300 s by default), `sacct` those the accounting database
//! recorded (where a cluster has one), `scancel` cancels.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::ClusterError;
use crate::campaign::preflight::find_on_path;

/// A job, or one task of an array job (`12` or `12_3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId {
    /// The job id (of the array, for a task).
    pub job: u64,
    /// The array task id.
    pub task: Option<u64>,
}

impl TaskId {
    /// A job that is not an array.
    pub fn job(job: u64) -> TaskId {
        TaskId { job, task: None }
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.task {
            Some(task) => write!(f, "{}_{task}", self.job),
            None => write!(f, "{}", self.job),
        }
    }
}

/// What Slurm says about a job or task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskState {
    /// Slurm's state name (`PENDING`, `RUNNING`, `COMPLETED`, `CANCELLED`, `FAILED`,
    /// `TIMEOUT`, `OUT_OF_MEMORY`, `NODE_FAIL`, `PREEMPTED`, ...).
    pub state: String,
    /// Why a job is pending (`Dependency`, `DependencyNeverSatisfied`, `Resources`,
    /// ...), from squeue; empty when there is none.
    pub reason: String,
}

/// States in which a job may still run or is running: its shard must not be
/// submitted again.
const ACTIVE: &[&str] = &[
    "PENDING",
    "CONFIGURING",
    "RUNNING",
    "COMPLETING",
    "SUSPENDED",
    "STOPPED",
    "REQUEUED",
    "REQUEUE_FED",
    "REQUEUE_HOLD",
    "RESIZING",
    "SIGNALING",
    "STAGE_OUT",
    "RESV_DEL_HOLD",
];

impl TaskState {
    /// Whether the job may still run or is running.
    pub fn is_active(&self) -> bool {
        ACTIVE.contains(&self.state.as_str())
    }

    /// Whether the job ended with exit code 0.
    pub fn completed(&self) -> bool {
        self.state == "COMPLETED"
    }

    /// Whether a pending job waits for a dependency that can no longer be met (a job it
    /// depends on failed or was cancelled).
    pub fn never_runs(&self) -> bool {
        self.reason == "DependencyNeverSatisfied"
    }
}

impl fmt::Display for TaskState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.reason.is_empty() || self.reason == "None" {
            write!(f, "{}", self.state)
        } else {
            write!(f, "{} ({})", self.state, self.reason)
        }
    }
}

/// `program` from PATH, or an error saying that Slurm's commands are missing.
pub fn require(program: &'static str) -> Result<PathBuf, ClusterError> {
    find_on_path(program).ok_or(ClusterError::NoSlurm(program))
}

/// Runs a Slurm command; its stdout if it succeeds.
fn run(program: &'static str, args: &[String]) -> Result<String, ClusterError> {
    let path = require(program)?;
    let command_line = || {
        std::iter::once(program.to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let output = Command::new(&path)
        .args(args)
        .output()
        .map_err(|e| ClusterError::Slurm {
            command: command_line(),
            message: e.to_string(),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
        return Err(ClusterError::Slurm {
            command: command_line(),
            message: if stderr.is_empty() {
                format!("exit status {}", output.status)
            } else {
                stderr
            },
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn sbatch_args(script: &Path, options: &[String], first: &str) -> Vec<String> {
    std::iter::once(first.to_string())
        .chain(options.iter().cloned())
        .chain(std::iter::once(script.display().to_string()))
        .collect()
}

/// Submits `script` with extra `sbatch` options; the job id.
pub fn submit(script: &Path, options: &[String]) -> Result<u64, ClusterError> {
    let args = sbatch_args(script, options, "--parsable");
    let out = run("sbatch", &args)?;
    // `--parsable` prints `jobid` or `jobid;cluster`.
    let id = out.trim().split(';').next().unwrap_or("");
    id.parse().map_err(|_| ClusterError::Slurm {
        command: format!("sbatch {}", args.join(" ")),
        message: format!("expected a job id, got `{}`", out.trim()),
    })
}

/// Asks Slurm whether it would accept `script` with `options`, submitting nothing
/// (`sbatch --test-only`): a partition, account or time limit it refuses is found
/// before any job exists.
pub fn check_submission(script: &Path, options: &[String]) -> Result<(), ClusterError> {
    run("sbatch", &sbatch_args(script, options, "--test-only")).map(|_| ())
}

/// Cancels a job or task.
pub fn cancel(task: TaskId) -> Result<(), ClusterError> {
    run("scancel", &[task.to_string()]).map(|_| ())
}

/// The state of `jobs` and of each task of those that are arrays, from squeue (what
/// the controller knows now) and, for what squeue no longer knows, from sacct where
/// the cluster keeps accounting. An error only if squeue cannot answer; a job neither
/// knows is missing from the map.
pub fn states(jobs: &[u64]) -> Result<HashMap<TaskId, TaskState>, ClusterError> {
    let mut states = HashMap::new();
    // One job per call: squeue refuses a whole list if the controller has forgotten
    // any job in it.
    for job in jobs {
        let answer = run(
            "squeue",
            &[
                "--noheader".into(),
                "--array".into(),
                "--states=all".into(),
                format!("--jobs={job}"),
                "--format=%F|%K|%T|%r".into(),
            ],
        );
        match answer {
            Ok(text) => states.extend(parse_squeue(&text)),
            Err(ClusterError::Slurm { message, .. }) if message.contains("Invalid job id") => {}
            Err(e) => return Err(e),
        }
    }
    if jobs.is_empty() {
        return Ok(states);
    }
    let list = jobs
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    // Without accounting (`AccountingStorageType=none`) sacct fails: nothing to add.
    let sacct = run(
        "sacct",
        &[
            "--noheader".into(),
            "--parsable2".into(),
            "--allocations".into(),
            format!("--jobs={list}"),
            "--format=JobID,State".into(),
        ],
    );
    if let Ok(text) = sacct {
        for (task, state) in parse_sacct(&text) {
            states.entry(task).or_insert(state);
        }
    }
    Ok(states)
}

/// Parses `squeue --array --format=%F|%K|%T|%r` lines: array job id, task id (`N/A`
/// for a job that is not an array), state, reason.
pub fn parse_squeue(text: &str) -> HashMap<TaskId, TaskState> {
    let mut states = HashMap::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.trim().split('|').collect();
        let [job, task, state, reason] = fields[..] else {
            continue;
        };
        let Ok(job) = job.parse() else { continue };
        let task = task.parse().ok();
        states.insert(
            TaskId { job, task },
            TaskState {
                state: state.to_string(),
                reason: reason.to_string(),
            },
        );
    }
    states
}

/// Parses `sacct --parsable2 --format=JobID,State` lines (`12_3|CANCELLED by 0`).
/// Pending array ranges (`12_[4-8]`) and job steps are skipped: squeue knows pending
/// jobs, and steps are not tasks.
pub fn parse_sacct(text: &str) -> HashMap<TaskId, TaskState> {
    let mut states = HashMap::new();
    for line in text.lines() {
        let Some((id, state)) = line.trim().split_once('|') else {
            continue;
        };
        let (job, task) = match id.split_once('_') {
            Some((job, task)) => (job, Some(task)),
            None => (id, None),
        };
        let Ok(job) = job.parse() else { continue };
        let task = match task.map(str::parse) {
            Some(Ok(task)) => Some(task),
            Some(Err(_)) => continue,
            None => None,
        };
        let state = state.split_whitespace().next().unwrap_or("").to_string();
        states.insert(
            TaskId { job, task },
            TaskState {
                state,
                reason: String::new(),
            },
        );
    }
    states
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(job: u64, task: u64) -> TaskId {
        TaskId {
            job,
            task: Some(task),
        }
    }

    #[test]
    fn squeue_lines_give_tasks_and_jobs() {
        // As printed by Slurm 22.05 for an array with a cancelled task and a merge job
        // waiting for it.
        let text = "8|1|CANCELLED|None\n8|2|RUNNING|None\n9|N/A|PENDING|Dependency\ngarbage\n";
        let states = parse_squeue(text);
        assert_eq!(states.len(), 3, "{states:?}");
        assert_eq!(states[&task(8, 1)].state, "CANCELLED");
        assert!(!states[&task(8, 1)].is_active());
        assert!(states[&task(8, 2)].is_active());
        let merge = &states[&TaskId::job(9)];
        assert!(merge.is_active() && !merge.never_runs());
        assert_eq!(merge.to_string(), "PENDING (Dependency)");
        assert_eq!(states[&task(8, 2)].to_string(), "RUNNING");
    }

    #[test]
    fn sacct_lines_skip_ranges_and_steps() {
        let text = "12_1|COMPLETED\n12_2|CANCELLED by 0\n12_[3-4]|PENDING\n12_1.batch|COMPLETED\n13|TIMEOUT\n";
        let states = parse_sacct(text);
        assert_eq!(states.len(), 3, "{states:?}");
        assert!(states[&task(12, 1)].completed());
        assert_eq!(states[&task(12, 2)].state, "CANCELLED");
        assert_eq!(states[&TaskId::job(13)].state, "TIMEOUT");
    }

    #[test]
    fn task_ids_print_as_slurm_writes_them() {
        assert_eq!(task(12, 3).to_string(), "12_3");
        assert_eq!(TaskId::job(13).to_string(), "13");
    }
}
