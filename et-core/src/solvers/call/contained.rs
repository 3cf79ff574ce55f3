//! A process contained the way a call's solver is (its own cgroup or process group,
//! the memory limit, death with et), with its standard streams piped (non-blocking):
//! what [`watch`](super::watch) drives. A fresh call starts one for its input and
//! watches it until it ends; a solver session (`solvers::session`) starts one with its
//! standard input open, watches it once per formula and measures each from the outside
//! with the counters here. Both start it through [`Supervisor::contain`]: one way to
//! start a contained process.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use super::capture::READ_CHUNK;
use super::cgroup::CallCgroup;
use super::process::{child_exited, pidfd_open, timeval, Reaper};
use super::spawn::{self, Running, Started};
use super::watch::set_nonblocking;
use super::{CallError, During, Input, Limits, SupervisionFailure, Supervisor};

/// A running process contained like a call's solver, with its standard input, output
/// and error piped (non-blocking). Dropping it kills everything it started and reaps
/// it.
pub(crate) struct Contained<'a> {
    /// When the process exec'd (by its own clock reading).
    pub started: Instant,
    pub(super) reaper: Reaper<'a>,
    pidfd: Option<OwnedFd>,
    /// The pipes, taken from the child: stdin (`None` once closed, or when the input
    /// is a file), stdout, stderr (`None` once at end of file).
    pub(super) stdin: Option<OwnedFd>,
    pub(super) stdout: Option<OwnedFd>,
    pub(super) stderr: Option<OwnedFd>,
    /// The buffer the pipes are read into (one per process, not per watch).
    pub(super) buf: Vec<u8>,
}

impl Supervisor {
    /// Starts `command` on `input` contained (in a new cgroup with `limits`' memory as
    /// the limit of its whole tree, or alone in a process group under `RLIMIT_AS`
    /// without cgroups), its pipes non-blocking; `use_pidfd` false waits for its exit
    /// on 1 ms `waitid` slices (tests of the fallback for kernels without pidfds).
    /// `Ok(Err(why))` when the program cannot be started (a start error, as
    /// [`super::CallOutcome::start_error`]).
    pub(super) fn contain(
        &self,
        command: &[String],
        input: Input<'_>,
        limits: &Limits,
        use_pidfd: bool,
    ) -> Result<Result<Contained<'_>, String>, SupervisionFailure> {
        let cgroup = match &self.cgroups {
            Some(cgroups) => {
                Some(CallCgroup::create(cgroups, limits.memory_mb).during("creating a cgroup")?)
            }
            None => None,
        };
        let Running {
            mut child,
            start,
            reaper,
        } = match spawn::start(command, input, limits, cgroup)? {
            Started::Running(running) => running,
            Started::NotStarted(why) => return Ok(Err(why)),
        };
        let pid = reaper.pid;
        let pipe = |fd: Option<OwnedFd>| -> Result<Option<OwnedFd>, SupervisionFailure> {
            if let Some(fd) = &fd {
                set_nonblocking(fd.as_raw_fd()).during("fcntl")?;
            }
            Ok(fd)
        };
        // From here on, dropping `reaper` (inside `Contained` or not) kills the tree.
        let stdin = pipe(child.stdin.take().map(OwnedFd::from))?;
        let stdout = pipe(child.stdout.take().map(OwnedFd::from))?;
        let stderr = pipe(child.stderr.take().map(OwnedFd::from))?;
        Ok(Ok(Contained {
            pidfd: if use_pidfd { pidfd_open(pid) } else { None },
            started: start,
            reaper,
            stdin,
            stdout,
            stderr,
            buf: vec![0u8; READ_CHUNK],
        }))
    }

    /// Starts `command` contained for a caller that feeds it over time (a session):
    /// its standard input stays open, `memory_mb` limits its whole tree.
    pub(crate) fn start_contained(
        &self,
        command: &[String],
        memory_mb: Option<u64>,
    ) -> Result<Result<Contained<'_>, String>, CallError> {
        let program = command.first().ok_or(CallError::EmptyCommand)?;
        let memory = Limits {
            memory_mb,
            ..Limits::with_timeout(Duration::MAX)
        };
        self.contain(command, Input::Stdin(&[]), &memory, true)
            .map_err(|failure| failure.into_call_error(program))
    }
}

/// Where a span of a contained process's life is measured from ([`Contained::watch`]):
/// when it started and the CPU time the process had used before.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    pub start: Instant,
    pub cpu_before: Duration,
}

impl Contained<'_> {
    /// The span from the exec of the process (a fresh call, a session's first formula).
    pub fn span_since_exec(&self) -> Span {
        Span {
            start: self.started,
            cpu_before: Duration::ZERO,
        }
    }

    /// The span from now (a session's later formulas).
    pub fn span_from_now(&self) -> Span {
        Span {
            start: Instant::now(),
            cpu_before: self.cpu_used(),
        }
    }

    /// A descriptor that becomes readable when the process exits (`None` on kernels
    /// without pidfds: ask [`Self::exited`]).
    pub(super) fn pidfd(&self) -> Option<RawFd> {
        self.pidfd.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// Whether the process has exited (without reaping it).
    pub(super) fn exited(&self) -> io::Result<bool> {
        child_exited(self.reaper.pid)
    }

    /// The out-of-memory notification to poll and its events, with cgroups.
    pub(super) fn oom_poll(&self) -> Option<(RawFd, libc::c_short)> {
        self.reaper.cgroup.as_ref().and_then(CallCgroup::oom_poll)
    }

    /// Whether the cgroup's OOM killer acted since the process started (after
    /// [`Self::oom_poll`] fired, an eventfd's count is cleared so it does not stay
    /// readable); false without cgroups.
    pub(super) fn oom_killed(&self) -> bool {
        if let Some((fd, libc::POLLIN)) = self.oom_poll() {
            let mut count = 0u64;
            // SAFETY: reading 8 bytes into a u64 (any bytes are a valid u64) from a
            // non-blocking eventfd the cgroup owns while the process lives.
            unsafe { libc::read(fd, (&mut count as *mut u64).cast(), 8) };
        }
        self.reaper
            .cgroup
            .as_ref()
            .is_some_and(CallCgroup::oom_killed)
    }

    /// The process's cgroup, with cgroups.
    pub(super) fn cgroup(&self) -> Option<&CallCgroup<'_>> {
        self.reaper.cgroup.as_ref()
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

    /// Whether anything arrived on stdout or stderr that nobody read yet, or either
    /// was closed (asked between two watches of a session: output nobody asked for).
    pub fn has_unread_output(&self) -> bool {
        [self.stdout.as_ref(), self.stderr.as_ref()]
            .into_iter()
            .any(|fd| match fd {
                None => true,
                Some(fd) => {
                    let mut pfd = libc::pollfd {
                        fd: fd.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    // SAFETY: one initialised pollfd, no waiting.
                    let n = unsafe { libc::poll(&mut pfd, 1, 0) };
                    n != 0
                }
            })
    }

    /// Kills everything the process started (after it exited, or to end it) and
    /// reaps it: how it ended.
    pub(super) fn kill_and_reap(&mut self) -> io::Result<Ended> {
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
