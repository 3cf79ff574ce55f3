//! A study on a cluster: one `et run` study split into K shards that run as the tasks
//! of a Slurm job array, joined by a merge job that waits for the whole array.
//!
//! - [`study`]: the study directory (its layout, `slurm/study.toml` with the jobs
//!   submitted so far, the pool copied so that it resolves on compute nodes).
//! - [`script`]: the job scripts written into the study directory, readable and
//!   resubmittable by hand.
//! - [`slurm`]: the Slurm commands (`sbatch`, `squeue`, `sacct`, `scancel`) and what
//!   their answers mean.
//! - [`progress`]: how far each shard is, read from its `runs.csv` (not from Slurm),
//!   and which shards a resubmission must run again.
//!
//! This module never runs solvers or reads rows beyond counting them: the shards are
//! `et run` processes, the merge is `et merge`.

pub mod progress;
pub mod script;
pub mod slurm;
pub mod study;

use std::path::PathBuf;

/// What can go wrong preparing, submitting or inspecting a study on a cluster. Each
/// message names the offending value or file.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A file or directory could not be read or written.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// What was attempted (`read`, `write`, `create`, ...).
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The directory holds no study written by `et slurm submit`.
    #[error("{} is not a study of `et slurm submit` (no {})", dir.display(), file.display())]
    NotAStudy {
        /// The directory.
        dir: PathBuf,
        /// The study file it lacks.
        file: PathBuf,
    },
    /// The directory already holds something; a new study needs a fresh one.
    #[error("{} already exists; choose another --out, or use `et slurm status`/`et slurm resubmit` on it", .0.display())]
    StudyExists(PathBuf),
    /// `slurm/study.toml` is malformed.
    #[error("{}: {message}", path.display())]
    StudyFile {
        /// The study file.
        path: PathBuf,
        /// What is wrong, with line and column.
        message: String,
    },
    /// Another `et slurm` command is changing the study right now.
    #[error("another `et slurm` command (pid {pid}) is updating {}; try again when it has finished", dir.display())]
    Busy {
        /// The study directory.
        dir: PathBuf,
        /// The holder's process id, as it recorded it.
        pid: String,
    },
    /// A Slurm command (`sbatch`, ...) is not on PATH.
    #[error(
        "`{0}` is not on PATH: `et slurm` needs the Slurm client commands (run it on a login node)"
    )]
    NoSlurm(&'static str),
    /// A value for sbatch is not usable.
    #[error("{0}")]
    BadOption(String),
    /// A Slurm command failed or answered something unexpected.
    #[error("`{command}` failed: {message}")]
    Slurm {
        /// The command line.
        command: String,
        /// Its error output, or what was unexpected.
        message: String,
    },
}

impl ClusterError {
    /// Whether the error is bad input (a value the user gave, a directory that is not a
    /// study), as opposed to a failure of the system or of Slurm.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            ClusterError::NotAStudy { .. }
                | ClusterError::StudyExists(_)
                | ClusterError::StudyFile { .. }
                | ClusterError::NoSlurm(_)
                | ClusterError::BadOption(_)
        )
    }

    pub(crate) fn io(
        what: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> ClusterError {
        let path = path.into();
        move |source| ClusterError::Io { what, path, source }
    }
}
