//! A process contained the way a call's solver is (its own cgroup or process group,
//! the memory limit, death with et), started for a caller that talks to it over time
//! instead of handing it one input: a solver session (`solvers::session`) feeds it
//! formula after formula and measures each from the outside with the counters here.
//! It starts through [`spawn::start`], as [`Supervisor::run`] starts its solver: one
//! way to start a contained process.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use super::capture::Capture;
use super::cgroup::CallCgroup;
use super::process::{child_exited, pidfd_open, timeval, Reaper};
use super::spawn::{self, Running, Started};
use super::watch::{set_nonblocking, write_some};
use super::{near_address_space_limit, CallError, CallOutcome, Input, Limits, Supervisor};

/// A running process contained like a call's solver, with its standard input, output
/// and error piped (non-blocking) for the caller. Dropping it kills everything it
/// started and reaps it.
pub(crate) struct Contained<'a> {
    /// When the process exec'd (by its own clock reading).
    pub started: Instant,
    reaper: Reaper<'a>,
    pidfd: Option<OwnedFd>,
    /// The pipes, taken from the child: stdin, stdout, stderr.
    pub stdin: Option<OwnedFd>,
    pub stdout: Option<OwnedFd>,
    pub stderr: Option<OwnedFd>,
}

impl Supervisor {
    /// Starts `command` contained as [`Supervisor::run`] would (its own cgroup with
    /// `memory_mb` as the limit of its whole tree, or `RLIMIT_AS` without cgroups),
    /// with all three standard streams piped. `Ok(Err(why))` when the program cannot
    /// be started (a start error, as [`CallOutcome::start_error`]).
    pub(crate) fn start_contained(
        &self,
        command: &[String],
        memory_mb: Option<u64>,
    ) -> Result<Result<Contained<'_>, String>, CallError> {
        let program = command.first().ok_or(CallError::EmptyCommand)?;
        let sup = |what: &'static str| {
            let program = program.clone();
            move |source: io::Error| CallError::Supervise {
                program,
                what,
                source,
            }
        };
        let cgroup = match &self.cgroups {
            Some(cgroups) => {
                Some(CallCgroup::create(cgroups, memory_mb).map_err(sup("creating a cgroup"))?)
            }
            None => None,
        };
        // The session's standard input stays open: the caller writes formula after
        // formula into it.
        let memory = Limits {
            memory_mb,
            ..Limits::with_timeout(Duration::MAX)
        };
        let Running {
            mut child,
            start: started,
            reaper,
        } = match spawn::start(command, Input::Stdin(&[]), &memory, cgroup) {
            Ok(Started::Running(running)) => running,
            Ok(Started::NotStarted(why)) => return Ok(Err(why)),
            Err(failure) => return Err(failure.into_call_error(program)),
        };
        let pid = reaper.pid;
        let pipe = |fd: Option<OwnedFd>| -> Result<Option<OwnedFd>, CallError> {
            if let Some(fd) = &fd {
                set_nonblocking(fd.as_raw_fd()).map_err(sup("fcntl"))?;
            }
            Ok(fd)
        };
        let stdin = pipe(child.stdin.take().map(OwnedFd::from))?;
        let stdout = pipe(child.stdout.take().map(OwnedFd::from))?;
        let stderr = pipe(child.stderr.take().map(OwnedFd::from))?;
        Ok(Ok(Contained {
            pidfd: pidfd_open(pid),
            started,
            reaper,
            stdin,
            stdout,
            stderr,
        }))
    }
}

impl Contained<'_> {
    /// A descriptor that becomes readable when the process exits (`None` on kernels
    /// without pidfds: ask [`Self::exited`]).
    pub fn pidfd(&self) -> Option<RawFd> {
        self.pidfd.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// Whether the process has exited (without reaping it).
    pub fn exited(&self) -> io::Result<bool> {
        child_exited(self.reaper.pid)
    }

    /// The out-of-memory notification to poll and its events, with cgroups.
    pub fn oom_poll(&self) -> Option<(RawFd, libc::c_short)> {
        self.reaper.cgroup.as_ref().and_then(CallCgroup::oom_poll)
    }

    /// After [`Self::oom_poll`] fired: whether the cgroup's OOM killer acted since the
    /// process started (an eventfd's count is cleared so it does not stay readable).
    pub fn oom_killed(&self) -> bool {
        if let Some((fd, libc::POLLIN)) = self.oom_poll() {
            let mut count = 0u64;
            // SAFETY: reading 8 bytes into a u64 from a non-blocking eventfd.
            unsafe { libc::read(fd, (&mut count as *mut u64).cast(), 8) };
        }
        self.reaper
            .cgroup
            .as_ref()
            .is_some_and(CallCgroup::oom_killed)
    }

    /// CPU time used since the start: the cgroup's (every process of the tree), else
    /// the process's and its waited-for descendants'.
    pub fn cpu_used(&self) -> Duration {
        self.reaper.cpu_used()
    }

    /// Starts the peak-memory measure afresh from what is in use now: the v1 cgroup's
    /// counter, else the process's high-water mark (`/proc/PID/clear_refs`). A v2
    /// cgroup keeps its peak since the start (see `CallCgroup::restart_peak`).
    pub fn restart_peak(&self) {
        match &self.reaper.cgroup {
            // Best effort: a counter that cannot be reset reports a higher peak.
            Some(cg) => drop(cg.restart_peak()),
            None => drop(std::fs::write(
                format!("/proc/{}/clear_refs", self.reaper.pid),
                "5",
            )),
        }
    }

    /// Peak memory in KiB since the last [`Self::restart_peak`]: the cgroup's (less
    /// what it held when created), else the process's resident high-water mark.
    pub fn peak_memory_kb(&self) -> u64 {
        let cgroup_peak = self
            .reaper
            .cgroup
            .as_ref()
            .and_then(CallCgroup::peak_memory_kb);
        cgroup_peak.unwrap_or_else(|| {
            std::fs::read_to_string(format!("/proc/{}/status", self.reaper.pid))
                .ok()
                .and_then(|status| {
                    status.lines().find_map(|l| {
                        l.strip_prefix("VmHWM:")?
                            .trim()
                            .trim_end_matches("kB")
                            .trim()
                            .parse()
                            .ok()
                    })
                })
                .unwrap_or(0)
        })
    }

    /// Whether the process tree runs in a cgroup.
    pub fn in_cgroup(&self) -> bool {
        self.reaper.cgroup.is_some()
    }

    /// Kills everything the process started (after it exited, or to end it) and
    /// reaps it: how it ended.
    pub fn kill_and_reap(&mut self) -> io::Result<Ended> {
        self.stdin = None;
        let (status, usage) = self.reaper.kill_and_reap()?;
        Ok(Ended {
            exit_code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
            max_rss_kb: usage.ru_maxrss.max(0) as u64,
            cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
        })
    }
}

/// How a contained process ended.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ended {
    /// Exit code when it exited normally.
    pub exit_code: Option<i32>,
    /// Signal number when it was killed by a signal.
    pub signal: Option<i32>,
    /// Its largest resident set (and its waited-for descendants'), in KiB.
    pub max_rss_kb: u64,
    /// Its CPU time (and its waited-for descendants'), over its whole life.
    pub cpu: Duration,
}

/// Writes as much of `bytes` to the non-blocking `fd` as it takes, advancing `bytes`;
/// true when all is written.
pub(crate) fn write_pending(fd: RawFd, bytes: &mut &[u8]) -> io::Result<bool> {
    write_some(fd, bytes)
}

/// Without cgroups: whether a process that died under `limits` ran into its address
/// space limit (see [`Supervisor::run`]).
pub(crate) fn hit_address_space_limit(outcome: &CallOutcome, limits: &Limits) -> bool {
    near_address_space_limit(outcome, limits)
}

/// A bounded copy of one output stream, kept as a call keeps its solver's stdout and
/// stderr (start and end of an overlong output), for output read by the caller.
pub(crate) struct BoundedOutput(Capture);

impl BoundedOutput {
    /// An empty copy keeping at most `cap` bytes.
    pub fn new(cap: usize) -> BoundedOutput {
        BoundedOutput(Capture::new(None, cap))
    }

    /// Appends the next bytes of the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        self.0.push(bytes);
    }

    /// The kept bytes and whether the middle was dropped.
    pub fn finish(self) -> (Vec<u8>, bool) {
        self.0.finish()
    }
}
