//! How far a study is, and what a resubmission must run.
//!
//! A shard's progress comes from its `runs.csv`, never from Slurm: a row is one
//! finished solver call, written whole, so the complete lines after the header are the
//! rows done (a torn last line, left by a killed task, is not counted; `--resume` cuts
//! it). Slurm's answers ([`super::slurm::states`]) only add why a shard stopped.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::slurm::{TaskId, TaskState};
use super::study::{Study, StudyDir};
use super::ClusterError;

/// One shard: rows written and rows expected, with its latest task and what Slurm
/// says about that task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardStatus {
    /// Shard number k (1-based).
    pub shard: u64,
    /// Rows in `shards/k/runs.csv`.
    pub rows: u64,
    /// Rows when finished: formulas of the shard × solvers under test.
    pub expected: u64,
    /// The array task that last ran the shard, if it was ever submitted.
    pub task: Option<TaskId>,
    /// Slurm's state of that task, if squeue or sacct still knows it.
    pub state: Option<TaskState>,
}

impl ShardStatus {
    /// Whether every formula of the shard has a row for every solver.
    pub fn finished(&self) -> bool {
        self.rows >= self.expected
    }

    /// Whether the shard's task is pending or running.
    pub fn active(&self) -> bool {
        self.state.as_ref().is_some_and(TaskState::is_active)
    }

    /// Whether the shard must run again: unfinished, and no task of it is pending or
    /// running.
    pub fn needs_run(&self) -> bool {
        !self.finished() && !self.active()
    }

    /// Whether its task ended other than with exit code 0 (cancelled, failed, timed
    /// out, out of memory, node failure, ...), which stops a merge job waiting for it.
    pub fn task_failed(&self) -> bool {
        self.state
            .as_ref()
            .is_some_and(|s| !s.is_active() && !s.completed())
    }
}

/// Complete lines after the header of a `runs.csv` (0 if it does not exist yet).
pub fn count_rows(path: &Path) -> io::Result<u64> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut buf = vec![0u8; 1 << 16];
    let mut lines = 0u64;
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        lines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
    }
    Ok(lines.saturating_sub(1))
}

/// Every shard's status: rows from `runs.csv`, and the state of its latest task from
/// `states` (see [`super::slurm::states`]; empty when Slurm cannot be asked).
pub fn shard_statuses(
    dir: &StudyDir,
    study: &Study,
    states: &HashMap<TaskId, TaskState>,
) -> Result<Vec<ShardStatus>, ClusterError> {
    (1..=study.shards)
        .map(|k| {
            let runs = dir.shard(k).join("runs.csv");
            let rows = count_rows(&runs).map_err(ClusterError::io("read", &runs))?;
            let task = study.latest_task(k);
            Ok(ShardStatus {
                shard: k,
                rows,
                expected: study.expected_rows(k),
                task,
                state: task.and_then(|t| states.get(&t).cloned()),
            })
        })
        .collect()
}

/// The jobs whose state tells the study's status: the latest task of each shard and
/// the latest merge job.
pub fn jobs_to_ask(study: &Study) -> Vec<u64> {
    let mut jobs: Vec<u64> = (1..=study.shards)
        .filter_map(|k| study.latest_task(k).map(|t| t.job))
        .chain(study.latest_merge())
        .collect();
    jobs.sort_unstable();
    jobs.dedup();
    jobs
}

/// What `et slurm resubmit` does.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resubmission {
    /// Shards to run again, as a new array job.
    pub shards: Vec<u64>,
    /// A pending merge job to cancel: it waits for a task that failed, so it never runs.
    pub cancel_merge: Option<u64>,
    /// Whether to submit a new merge job.
    pub merge: bool,
    /// Tasks still pending or running that the new merge job must wait for too.
    pub wait_for: Vec<TaskId>,
}

impl Resubmission {
    /// Decides from the shards' statuses, the latest merge job and its state, and
    /// whether the merged directory exists.
    ///
    /// Every resubmission of shards replaces the merge job, so the latest merge job
    /// depends exactly on the latest tasks: it can still run unless one of them ended
    /// in failure (or Slurm already says it never will).
    pub fn plan(
        statuses: &[ShardStatus],
        merge: Option<(u64, Option<&TaskState>)>,
        merged: bool,
    ) -> Resubmission {
        if merged {
            return Resubmission::default();
        }
        let shards: Vec<u64> = statuses
            .iter()
            .filter(|s| s.needs_run())
            .map(|s| s.shard)
            .collect();
        let pending_merge = merge.and_then(|(job, state)| {
            state
                .filter(|s| s.is_active())
                .map(|s| (job, s.never_runs()))
        });
        let merge_can_run = pending_merge.is_some_and(|(_, never)| !never)
            && shards.is_empty()
            && !statuses.iter().any(ShardStatus::task_failed);
        if merge_can_run {
            return Resubmission::default();
        }
        Resubmission {
            shards,
            cancel_merge: pending_merge.map(|(job, _)| job),
            merge: true,
            wait_for: statuses
                .iter()
                .filter(|s| s.active())
                .filter_map(|s| s.task)
                .collect(),
        }
    }

    /// Whether there is nothing to do.
    pub fn is_empty(&self) -> bool {
        self.shards.is_empty() && !self.merge
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(state: &str, reason: &str) -> TaskState {
        TaskState {
            state: state.into(),
            reason: reason.into(),
        }
    }

    fn shard(k: u64, rows: u64, state: Option<TaskState>) -> ShardStatus {
        ShardStatus {
            shard: k,
            rows,
            expected: 10,
            task: Some(TaskId {
                job: 12,
                task: Some(k),
            }),
            state,
        }
    }

    #[test]
    fn rows_are_complete_lines_after_the_header() {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("runs.csv");
        assert_eq!(count_rows(&path).unwrap(), 0);
        std::fs::write(&path, "grammar,index\n").unwrap();
        assert_eq!(count_rows(&path).unwrap(), 0);
        std::fs::write(&path, "grammar,index\ncore,0\ncore,1\ncore,").unwrap();
        assert_eq!(count_rows(&path).unwrap(), 2);
    }

    #[test]
    fn a_cancelled_shard_is_resubmitted_and_the_merge_replaced() {
        let statuses = [
            shard(1, 4, Some(state("CANCELLED", "None"))),
            shard(2, 10, Some(state("COMPLETED", "None"))),
            shard(3, 7, Some(state("RUNNING", "None"))),
            shard(4, 0, Some(state("PENDING", "Resources"))),
        ];
        assert!(statuses[0].needs_run() && statuses[0].task_failed());
        let merge = state("PENDING", "Dependency");
        let plan = Resubmission::plan(&statuses, Some((13, Some(&merge))), false);
        assert_eq!(plan.shards, vec![1]);
        assert_eq!(plan.cancel_merge, Some(13));
        assert!(plan.merge);
        let waits: Vec<String> = plan.wait_for.iter().map(|t| t.to_string()).collect();
        assert_eq!(waits, vec!["12_3", "12_4"]);
    }

    #[test]
    fn a_healthy_study_needs_nothing() {
        let statuses = [
            shard(1, 10, Some(state("COMPLETED", "None"))),
            shard(2, 3, Some(state("RUNNING", "None"))),
        ];
        let merge = state("PENDING", "Dependency");
        let plan = Resubmission::plan(&statuses, Some((13, Some(&merge))), false);
        assert!(plan.is_empty(), "{plan:?}");
        // Merged already: nothing, whatever the shards say.
        let plan = Resubmission::plan(&[shard(1, 0, None)], None, true);
        assert!(plan.is_empty());
    }

    #[test]
    fn a_merge_that_can_never_run_is_replaced() {
        // Every shard finished, but one task failed after its last row: the merge job
        // waits forever.
        let statuses = [
            shard(1, 10, Some(state("FAILED", "NonZeroExitCode"))),
            shard(2, 10, Some(state("COMPLETED", "None"))),
        ];
        let merge = state("PENDING", "DependencyNeverSatisfied");
        let plan = Resubmission::plan(&statuses, Some((13, Some(&merge))), false);
        assert!(plan.shards.is_empty());
        assert_eq!(plan.cancel_merge, Some(13));
        assert!(plan.merge && plan.wait_for.is_empty());
        // A merge job that failed (it is no longer pending) is submitted again.
        let failed = state("FAILED", "None");
        let plan = Resubmission::plan(&statuses[1..], Some((13, Some(&failed))), false);
        assert_eq!(plan.cancel_merge, None);
        assert!(plan.merge);
    }

    #[test]
    fn shards_slurm_forgot_are_judged_by_their_rows() {
        // No Slurm record (purged, or never submitted): unfinished shards run again.
        let statuses = [shard(1, 10, None), shard(2, 5, None)];
        let plan = Resubmission::plan(&statuses, None, false);
        assert_eq!(plan.shards, vec![2]);
        assert!(plan.merge && plan.cancel_merge.is_none());
    }
}
