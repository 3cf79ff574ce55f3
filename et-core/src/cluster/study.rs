//! The study directory that `et slurm submit` writes and `et slurm status`/`resubmit`
//! read, and `slurm/study.toml`, its description:
//!
//! ```text
//! DIR/slurm/study.toml     the study (grammar, range, shards, solvers) and every submission
//! DIR/slurm/shards.sh      the array job script: task k runs `et run --shard k/K`
//! DIR/slurm/merge.sh       the merge job script: `et merge` of all shards
//! DIR/slurm/logs/          one log per task and submission
//! DIR/pool.toml            the solvers, with absolute program paths
//! DIR/grammar/NAME.pest    a grammar given as a file, copied
//! DIR/shards/k/            shard k's run directory (runs.csv, run.toml, bugs/)
//! DIR/merged/              the merged study, once every shard has finished
//! ```

use std::path::{Path, PathBuf};

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

use crate::campaign::error::CampaignError;
use crate::campaign::lock::DirLock;
use crate::campaign::plan::{Plan, Shard};
use crate::campaign::preflight::{check_programs, find_on_path};
use crate::solvers::Pool;

use super::slurm::TaskId;
use super::ClusterError;

/// The paths of a study directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudyDir {
    root: PathBuf,
}

impl StudyDir {
    /// The study rooted at `root`, made absolute (job scripts run elsewhere).
    pub fn new(root: &Path) -> Result<StudyDir, ClusterError> {
        let root = std::path::absolute(root).map_err(ClusterError::io("resolve", root))?;
        Ok(StudyDir { root })
    }

    /// The study directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `slurm/`: what only Slurm needs (study file, job scripts, logs).
    pub fn slurm_dir(&self) -> PathBuf {
        self.root.join("slurm")
    }

    /// `slurm/study.toml`.
    pub fn study_file(&self) -> PathBuf {
        self.slurm_dir().join("study.toml")
    }

    /// `slurm/shards.sh`, the array job script.
    pub fn shard_script(&self) -> PathBuf {
        self.slurm_dir().join("shards.sh")
    }

    /// `slurm/merge.sh`, the merge job script.
    pub fn merge_script(&self) -> PathBuf {
        self.slurm_dir().join("merge.sh")
    }

    /// `slurm/logs/`, where the jobs' output goes.
    pub fn logs(&self) -> PathBuf {
        self.slurm_dir().join("logs")
    }

    /// `pool.toml`: the pool the jobs run with.
    pub fn pool_file(&self) -> PathBuf {
        self.root.join("pool.toml")
    }

    /// `grammar/`: a grammar given as a file is copied here.
    pub fn grammar_dir(&self) -> PathBuf {
        self.root.join("grammar")
    }

    /// `shards/`: one run directory per shard.
    pub fn shards_dir(&self) -> PathBuf {
        self.root.join("shards")
    }

    /// `shards/k`: the run directory of shard `k`.
    pub fn shard(&self, k: u64) -> PathBuf {
        self.shards_dir().join(k.to_string())
    }

    /// `merged/`: the output of the merge job.
    pub fn merged(&self) -> PathBuf {
        self.root.join("merged")
    }

    /// Reads `slurm/study.toml`.
    pub fn load(&self) -> Result<Study, ClusterError> {
        let path = self.study_file();
        if !path.is_file() {
            return Err(ClusterError::NotAStudy {
                dir: self.root.clone(),
                file: path,
            });
        }
        let text = std::fs::read_to_string(&path).map_err(ClusterError::io("read", &path))?;
        let study: Study = toml::from_str(&text).map_err(|e| {
            let at = e.span().map_or(String::new(), |span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("{line}:{column}: ")
            });
            ClusterError::StudyFile {
                path: path.clone(),
                message: format!("{at}{}", e.message().trim()),
            }
        })?;
        study.start().map_err(|message| ClusterError::StudyFile {
            path: path.clone(),
            message,
        })?;
        if study.shards == 0 {
            return Err(ClusterError::StudyFile {
                path,
                message: "shards must be at least 1".into(),
            });
        }
        Ok(study)
    }

    /// Writes `slurm/study.toml` (atomically: readers see the old or the new file).
    pub fn save(&self, study: &Study) -> Result<(), ClusterError> {
        let path = self.study_file();
        let text = toml::to_string(study).map_err(|e| ClusterError::StudyFile {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let text = format!(
            "# Written by `et slurm submit` and `et slurm resubmit`; read by `et slurm status`.\n{text}"
        );
        crate::atomic_file::write(&path, text.as_bytes()).map_err(ClusterError::io("write", &path))
    }

    /// Takes the study's lock (`et run`'s lock of a directory, on `slurm/`), so two
    /// `et slurm` commands never submit the same shard twice (two `et run` on one shard
    /// directory would interleave their rows). Fails at once, naming the study and the
    /// holder's pid, if another command holds it.
    pub fn lock(&self) -> Result<DirLock, ClusterError> {
        DirLock::take(&self.slurm_dir()).map_err(|e| match e {
            CampaignError::Busy { pid, .. } => ClusterError::Busy {
                dir: self.root.clone(),
                pid,
            },
            CampaignError::Io { path, source, .. } => ClusterError::Io {
                what: "lock",
                path,
                source,
            },
            // `take` fails in no other way.
            other => ClusterError::Io {
                what: "lock",
                path: self.slurm_dir(),
                source: std::io::Error::other(other.to_string()),
            },
        })
    }
}

/// A study: what every shard runs, and the jobs submitted for it so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Study {
    /// The `et` binary the jobs run (absolute; on a filesystem the nodes share).
    pub et: PathBuf,
    /// Grammar name, as in the rows of `runs.csv`.
    pub grammar: String,
    /// First global index of the study (decimal).
    pub start: String,
    /// Number of formulas of the whole study.
    pub n: u64,
    /// Number of shards (array tasks).
    pub shards: u64,
    /// The solvers under test: each formula gets one row per solver.
    pub solvers: Vec<String>,
    /// Submissions, oldest first.
    #[serde(default, rename = "submission", skip_serializing_if = "Vec::is_empty")]
    pub submissions: Vec<Submission>,
}

/// One `sbatch` round: an array job for some shards and/or a merge job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Submission {
    /// The array job, if shards were submitted.
    pub array_job: Option<u64>,
    /// The shards it runs (task k runs shard k).
    #[serde(default)]
    pub shards: Vec<u64>,
    /// The merge job, if one was submitted.
    pub merge_job: Option<u64>,
}

impl Study {
    /// The first index, parsed.
    pub fn start(&self) -> Result<BigUint, String> {
        self.start
            .parse()
            .map_err(|_| format!("start `{}` is not a non-negative integer", self.start))
    }

    /// The formulas of shard `k`.
    pub fn plan(&self, k: u64) -> Plan {
        Plan {
            start: self.start().unwrap_or_default(),
            n: self.n,
            shard: Some(Shard {
                k,
                count: self.shards,
            }),
        }
    }

    /// Rows shard `k` has when it is finished: one per formula and solver.
    pub fn expected_rows(&self, k: u64) -> u64 {
        self.plan(k).len() * self.solvers.len() as u64
    }

    /// The array task that last ran (or runs) shard `k`.
    pub fn latest_task(&self, k: u64) -> Option<TaskId> {
        self.submissions.iter().rev().find_map(|s| {
            let job = s.array_job?;
            s.shards
                .contains(&k)
                .then_some(TaskId { job, task: Some(k) })
        })
    }

    /// The most recent merge job.
    pub fn latest_merge(&self) -> Option<u64> {
        self.submissions.iter().rev().find_map(|s| s.merge_job)
    }

    /// Every job submitted for the study.
    pub fn jobs(&self) -> Vec<u64> {
        self.submissions
            .iter()
            .flat_map(|s| s.array_job.into_iter().chain(s.merge_job))
            .collect()
    }
}

/// `pool` as compute nodes must see it: every program an absolute path (a relative
/// path is taken from the current directory, as the pool file already anchored it; a
/// bare name is looked up in PATH now, since PATH on a node may differ). The solvers
/// `needed` (those under test and their judges) must pass `et run`'s own check of
/// their programs; others, and the pool's reference rules, are kept as they are, so
/// the tasks judge exactly as `et run` would with the original pool.
pub fn portable_pool(pool: &Pool, needed: &[&str]) -> Result<Pool, CampaignError> {
    check_programs(
        pool.solvers
            .iter()
            .filter(|s| needed.contains(&s.name.as_str())),
    )?;
    let mut portable = pool.clone();
    portable.source = None;
    for solver in &mut portable.solvers {
        let program = solver.program();
        let resolved = if program.contains('/') {
            std::path::absolute(program).ok()
        } else {
            find_on_path(program)
        };
        if let Some(path) = resolved.filter(|path| path.is_file()) {
            solver.command[0] = path.to_string_lossy().into_owned();
        }
    }
    Ok(portable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::SolverConfig;

    fn study() -> Study {
        Study {
            et: "/opt/et/bin/et".into(),
            grammar: "core".into(),
            start: "10".into(),
            n: 10,
            shards: 4,
            solvers: vec!["z3-4.16.0".into(), "cvc5-1.4.2".into()],
            submissions: vec![
                Submission {
                    array_job: Some(12),
                    shards: vec![1, 2, 3, 4],
                    merge_job: Some(13),
                },
                Submission {
                    array_job: Some(20),
                    shards: vec![3],
                    merge_job: Some(21),
                },
            ],
        }
    }

    #[test]
    fn study_file_round_trips_and_is_checked() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = StudyDir::new(scratch.path()).unwrap();
        std::fs::create_dir_all(dir.slurm_dir()).unwrap();
        assert!(matches!(dir.load(), Err(ClusterError::NotAStudy { .. })));
        dir.save(&study()).unwrap();
        assert_eq!(dir.load().unwrap(), study());
        let text = std::fs::read_to_string(dir.study_file()).unwrap();
        std::fs::write(dir.study_file(), text.replace("n = 10", "n = \"ten\"")).unwrap();
        let err = dir.load().unwrap_err().to_string();
        assert!(err.contains("study.toml:") && err.contains(':'), "{err}");
        assert!(err.contains("invalid type"), "{err}");
    }

    #[test]
    fn one_command_at_a_time_changes_a_study() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = StudyDir::new(scratch.path()).unwrap();
        std::fs::create_dir_all(dir.slurm_dir()).unwrap();
        let held = dir.lock().unwrap();
        let err = dir.lock().unwrap_err();
        assert!(matches!(err, ClusterError::Busy { .. }), "{err}");
        assert!(
            err.to_string().contains(&std::process::id().to_string()),
            "{err}"
        );
        drop(held);
        assert!(dir.lock().is_ok());
    }

    #[test]
    fn shards_expect_one_row_per_formula_and_solver() {
        let s = study();
        // 10 formulas over 4 shards: 3, 3, 2, 2.
        let rows: Vec<u64> = (1..=4).map(|k| s.expected_rows(k)).collect();
        assert_eq!(rows, vec![6, 6, 4, 4]);
    }

    #[test]
    fn the_latest_submission_of_a_shard_is_its_task() {
        let s = study();
        assert_eq!(
            s.latest_task(3),
            Some(TaskId {
                job: 20,
                task: Some(3)
            })
        );
        assert_eq!(
            s.latest_task(1),
            Some(TaskId {
                job: 12,
                task: Some(1)
            })
        );
        assert_eq!(s.latest_merge(), Some(21));
        assert_eq!(s.jobs(), vec![12, 13, 20, 21]);
    }

    #[test]
    fn pools_get_absolute_existing_programs() {
        let solver = |name: &str, program: &str| {
            SolverConfig::new(name, "z3", "1", vec![program.into(), "-q".into()])
        };
        let pool = |program| Pool {
            solvers: vec![solver("s", program), solver("unused", "/nonexistent/other")],
            ..Pool::default()
        };
        let found = portable_pool(&pool("sh"), &["s"]).unwrap();
        assert!(Path::new(found.solvers[0].program()).is_absolute());
        assert_eq!(found.solvers[0].options(), ["-q"]);
        // A solver the study does not run is copied as it is, even if it is missing.
        assert_eq!(found.solvers[1].program(), "/nonexistent/other");
        let err = portable_pool(&pool("/nonexistent/z3"), &["s"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "solver `s`: program /nonexistent/z3 does not exist"
        );
        let err = portable_pool(&pool("no-such-solver-here"), &["s"]).unwrap_err();
        assert!(err.to_string().contains("is not found on PATH"), "{err}");
        assert!(portable_pool(&pool("/nonexistent/z3"), &["other"]).is_ok());
    }
}
