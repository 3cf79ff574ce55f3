//! One solver call, measured and contained the way BenchExec does it: limits are
//! enforced by et from outside (a solver's own time limit cannot be trusted: cvc4 1.8's
//! `--tlimit` is soft), output is captured up to a bound, and wall time, CPU time, peak
//! memory and exit status are recorded.
//!
//! Two supervisions, chosen once per process ([`Supervisor::global`]):
//!
//! - **cgroups** (v2, or the v1 memory, cpuacct and freezer hierarchies), where the
//!   user running et may create them: every call runs in an empty cgroup of its own
//!   that the child joins between fork and exec ([`cgroup`]), so nothing it starts escapes — not a
//!   `setsid` escapee, not a double-forked child. At the end, at the timeout and on
//!   cancel the whole cgroup is frozen and killed; `--memory` is the memory
//!   controller's limit on the whole tree, and reaching it (an OOM kill) ends the call
//!   as a memory-limit hit; CPU time and peak memory are the cgroup's totals. When et
//!   itself dies (even by `kill -9`), a [`watchdog`] process kills and removes its
//!   cgroups, and each new et removes those of dead et processes.
//! - **process group** (the fallback where cgroups are not usable): the child leads a
//!   new process group that is killed as a whole; a process that calls `setsid`
//!   escapes it. `--memory` is `RLIMIT_AS` (address space, per process); CPU time and
//!   peak memory cover the solver and the descendants it waited for.
//!
//! In both:
//! - the child calls `setpgid(0, 0)` before `exec`. Not `setsid`: a new session also
//!   gets a new scheduler autogroup on Linux, which made about 5% of calls wait ~10 ms
//!   to be scheduled on a loaded machine (measured with `benches/call.rs`); a separate
//!   group already keeps terminal signals (Ctrl-C) away from solvers, because only the
//!   terminal's foreground group receives them;
//! - `PR_SET_PDEATHSIG(SIGKILL)` makes the solver die if the thread that started it
//!   dies, and `RLIMIT_CORE` is 0 so crashing solvers do not spend time on core dumps;
//! - one thread multiplexes, with `ppoll`, the stdin pipe (when the formula is passed on
//!   stdin), the stdout and stderr pipes, a pidfd of the child and the cgroup's
//!   out-of-memory notification, so the call wakes up exactly when output arrives, the
//!   child exits, memory runs out or a deadline passes (on kernels without
//!   `pidfd_open` it falls back to 1 ms slices);
//! - the wall clock starts when the child execs the solver, by the child's own
//!   clock reading ([`exec_instant`]): neither et's set-up before it (joining a cgroup
//!   can make the child wait for the kernel) nor the spawning thread's late wake-up
//!   after it changes the solver's time; and `--cpu-timeout` is checked exactly when the solver could first have used it
//!   up: after the remaining CPU time divided by the number of CPUs;
//! - when the child exits, or at a limit, everything left is killed *before* the child
//!   is reaped (the zombie keeps its process group id from being reused), then `wait4`
//!   collects its exit status.
//!
//! A solver that cannot be started (exec fails) is not an error of the call: the
//! outcome says so ([`CallOutcome::start_error`]) and the oracle files it as
//! `setup_error`. This module never interprets output.

mod capture;
mod cgroup;
mod contained;
mod raw;
mod watchdog;

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use capture::{Capture, READ_CHUNK};
use cgroup::{CallCgroup, Cgroups};
pub(crate) use contained::{
    hit_address_space_limit, write_pending, BoundedOutput, Contained, Ended,
};

/// Default cap on the bytes kept from each of stdout and stderr (1 MiB).
pub const DEFAULT_CAPTURE_BYTES: usize = 1 << 20;

/// How long to keep draining the pipes after the solver exited or was killed: only a
/// process that escaped the process group (own `setsid`, without cgroups) can hold them
/// open that long.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// How solver calls are contained; recorded in `run.toml` as [`Supervision::label`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Supervision {
    /// A cgroup v2 per call (memory, cpu and pids controllers).
    CgroupV2,
    /// A cgroup per call in the v1 memory, cpuacct and freezer hierarchies.
    CgroupV1,
    /// A process group per call, `RLIMIT_AS` for memory, rusage for accounting.
    ProcessGroup,
}

impl Supervision {
    /// `cgroup-v2`, `cgroup-v1` or `process-group`.
    pub fn label(self) -> &'static str {
        match self {
            Supervision::CgroupV2 => "cgroup-v2",
            Supervision::CgroupV1 => "cgroup-v1",
            Supervision::ProcessGroup => "process-group",
        }
    }

    /// Whether calls run in cgroups (the whole tree is contained and measured).
    pub fn uses_cgroups(self) -> bool {
        self != Supervision::ProcessGroup
    }
}

/// Runs solver calls under one [`Supervision`].
pub struct Supervisor {
    cgroups: Option<Cgroups>,
    /// Why cgroups are not used, when they are not.
    fallback_reason: Option<String>,
}

impl Supervisor {
    /// The supervisor of this process: cgroups where usable (set up on first use, with
    /// the watchdog), else process groups. Detected once; see [`Self::fallback_reason`].
    pub fn global() -> &'static Supervisor {
        static GLOBAL: OnceLock<Supervisor> = OnceLock::new();
        GLOBAL.get_or_init(|| match Cgroups::new() {
            Ok(cgroups) => Supervisor {
                cgroups: Some(cgroups),
                fallback_reason: None,
            },
            Err(why) => Supervisor {
                cgroups: None,
                fallback_reason: Some(why),
            },
        })
    }

    /// Process-group supervision, whatever the machine offers (benchmarks compare the
    /// two; saved outputs captured under `RLIMIT_AS` are replayed with it).
    pub fn process_group() -> Supervisor {
        Supervisor {
            cgroups: None,
            fallback_reason: None,
        }
    }

    /// The supervision calls get.
    pub fn supervision(&self) -> Supervision {
        match self.cgroups.as_ref().map(Cgroups::version) {
            Some(cgroup::Version::V1) => Supervision::CgroupV1,
            Some(cgroup::Version::V2) => Supervision::CgroupV2,
            None => Supervision::ProcessGroup,
        }
    }

    /// Why cgroups could not be used (for the one note et prints), if it fell back.
    pub fn fallback_reason(&self) -> Option<&str> {
        self.fallback_reason.as_deref()
    }

    /// Runs `command` (program then arguments) on `input` under `limits` and reports
    /// what happened; it blocks the calling thread until the solver and everything it
    /// started are gone. Safe to call from many threads at once.
    ///
    /// The solver is killed if the calling *thread* dies (that is how
    /// `PR_SET_PDEATHSIG` works), which cannot happen while this function runs. Writing
    /// the formula to stdin expects SIGPIPE to be ignored, as Rust programs do by
    /// default, so a solver that exits without reading does not kill et.
    pub fn run(
        &self,
        command: &[String],
        input: Input<'_>,
        limits: &Limits,
    ) -> Result<CallOutcome, CallError> {
        self.supervise(command, input, limits, true)
    }
}

/// Limits et enforces on one call, from outside the solver.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Wall-clock limit; the call is killed when it passes.
    pub timeout: Duration,
    /// CPU-time limit of the whole call (with cgroups: every process of it; without:
    /// the solver and the descendants it waited for); `None` for none.
    pub cpu_timeout: Option<Duration>,
    /// Memory limit in MiB: the cgroup's memory limit, or `RLIMIT_AS` without cgroups;
    /// `None` leaves memory unlimited.
    pub memory_mb: Option<u64>,
    /// Bytes kept from each of stdout and stderr (start and end); the middle of a
    /// longer output is read and discarded, so the solver never blocks on a full pipe.
    pub capture_bytes: usize,
    /// When set (Ctrl-C of a campaign), the call is killed at once and reported as
    /// [`CallOutcome::cancelled`]; checked at least every [`CANCEL_POLL`].
    pub cancel: Option<Arc<AtomicBool>>,
}

/// How often a running call looks at its cancel flag.
pub const CANCEL_POLL: Duration = Duration::from_millis(20);

impl Limits {
    /// Limits with the given timeout, no CPU or memory limit and the default capture cap.
    pub fn with_timeout(timeout: Duration) -> Self {
        Limits {
            timeout,
            cpu_timeout: None,
            memory_mb: None,
            capture_bytes: DEFAULT_CAPTURE_BYTES,
            cancel: None,
        }
    }
}

/// How the formula reaches the solver.
#[derive(Debug, Clone, Copy)]
pub enum Input<'a> {
    /// The path is appended as the last argument of the command line.
    File(&'a Path),
    /// The bytes are written to the solver's stdin, which is then closed.
    Stdin(&'a [u8]),
}

/// Everything observed about one finished call; the oracle classifies it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallOutcome {
    /// Captured stdout: all of it, or when longer than `capture_bytes`, its start and
    /// its last 64 KiB (at most a quarter of the cap) around an `[et: N bytes omitted]`
    /// line.
    pub stdout: Vec<u8>,
    /// Captured stderr, kept the same way as stdout.
    pub stderr: Vec<u8>,
    /// stdout was longer than the cap; its middle was discarded.
    pub stdout_truncated: bool,
    /// stderr was longer than the cap; its middle was discarded.
    pub stderr_truncated: bool,
    /// Wall-clock time from the `exec` of the solver (read by the child just before it)
    /// to the exit (or to the kill).
    pub wall: Duration,
    /// CPU time (user + system): with cgroups, of every process of the call; without,
    /// of the solver and the descendants it waited for.
    pub cpu: Duration,
    /// Peak memory in KiB: with cgroups, the cgroup's peak (resident memory and page
    /// cache of the whole tree); without, the largest resident set of the solver and
    /// its waited-for descendants.
    pub max_rss_kb: u64,
    /// Exit code when the solver exited normally.
    pub exit_code: Option<i32>,
    /// Signal number when the solver was killed by a signal (9 after our kill).
    pub signal: Option<i32>,
    /// et killed the solver at the wall-clock or the CPU-time limit.
    pub timed_out: bool,
    /// The memory limit was reached: with cgroups, the kernel's OOM killer acted in the
    /// call's cgroup (the call is then ended); without, a fatal signal with the peak
    /// resident set within 10% of the address-space limit. Out-of-memory *messages* are
    /// the oracle's business.
    pub memory_limit_hit: bool,
    /// The call was cancelled (its [`Limits::cancel`] flag was set) and killed: it says
    /// nothing about the solver.
    pub cancelled: bool,
    /// The solver could not be started, and why (exec failed, or the call was not made
    /// because the solver cannot start under the run's limits).
    pub start_error: Option<String>,
}

impl CallOutcome {
    /// stdout as text, with invalid UTF-8 replaced (solver output is ASCII in practice).
    pub fn stdout_text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.stdout)
    }

    /// stderr as text, with invalid UTF-8 replaced.
    pub fn stderr_text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.stderr)
    }

    /// The outcome of a call that never started, for the reason given.
    pub fn not_started(reason: impl Into<String>) -> CallOutcome {
        CallOutcome {
            start_error: Some(reason.into()),
            ..CallOutcome::default()
        }
    }
}

/// Why a call could not be supervised (as opposed to a solver that misbehaved or could
/// not start, which is a normal [`CallOutcome`]).
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The command line has no program.
    #[error("empty solver command line")]
    EmptyCommand,
    /// A system call needed to supervise the solver failed.
    #[error("supervising solver `{program}`: {what} failed: {source}")]
    Supervise {
        /// The program being supervised.
        program: String,
        /// The system call that failed.
        what: &'static str,
        /// The operating system's reason.
        source: io::Error,
    },
}

/// Runs a call under [`Supervisor::global`]; see [`Supervisor::run`].
pub fn run_call(
    command: &[String],
    input: Input<'_>,
    limits: &Limits,
) -> Result<CallOutcome, CallError> {
    Supervisor::global().run(command, input, limits)
}

impl Supervisor {
    /// [`Supervisor::run`], with the choice of waiting on a pidfd or (tests of the
    /// fallback for kernels without one) on 1 ms `waitid` slices.
    fn supervise(
        &self,
        command: &[String],
        input: Input<'_>,
        limits: &Limits,
        use_pidfd: bool,
    ) -> Result<CallOutcome, CallError> {
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
            Some(cgroups) => Some(
                CallCgroup::create(cgroups, limits.memory_mb).map_err(sup("creating a cgroup"))?,
            ),
            None => None,
        };
        let mut cmd = Command::new(program);
        cmd.args(&command[1..]);
        match input {
            Input::File(path) => {
                cmd.arg(path);
                cmd.stdin(Stdio::null());
            }
            Input::Stdin(_) => {
                cmd.stdin(Stdio::piped());
            }
        }
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        // Without cgroups, memory is limited per process, as address space.
        let address_space = match cgroup {
            Some(_) => None,
            None => limits
                .memory_mb
                .map(|mb| mb.saturating_mul(1024 * 1024) as libc::rlim_t),
        };
        let join = cgroup
            .as_ref()
            .map(CallCgroup::join_fds)
            .unwrap_or_default();
        let (mut child, start) = match contained::spawn(&mut cmd, join, address_space) {
            Ok(spawned) => spawned,
            Err(contained::SpawnError::Pipe(e)) => return Err(sup("pipe")(e)),
            Err(contained::SpawnError::Exec(e)) => {
                return Ok(CallOutcome::not_started(format!(
                    "cannot start `{program}`: {e}"
                )))
            }
        };
        let deadline = start + limits.timeout;
        let pid = child.id() as libc::pid_t;
        // From here on everything the call started must be killed on every path,
        // including errors.
        let mut reaper = Reaper {
            pid,
            reaped: false,
            cgroup,
        };

        let mut stdin_pipe = match input {
            Input::Stdin(bytes) => child.stdin.take().map(|s| {
                // SAFETY: the descriptor comes from `into_raw_fd` of a pipe we own.
                let fd = unsafe { OwnedFd::from_raw_fd(s.into_raw_fd()) };
                (fd, bytes)
            }),
            Input::File(_) => None,
        };
        let mut out = Capture::new(
            child.stdout.take().map(|s| s.into_raw_fd()),
            limits.capture_bytes,
        );
        let mut err = Capture::new(
            child.stderr.take().map(|s| s.into_raw_fd()),
            limits.capture_bytes,
        );
        for fd in [out.fd.as_ref(), err.fd.as_ref()].into_iter().flatten() {
            set_nonblocking(fd.as_raw_fd()).map_err(sup("fcntl"))?;
        }
        if let Some((fd, bytes)) = &stdin_pipe {
            if bytes.is_empty() {
                stdin_pipe = None;
            } else {
                set_nonblocking(fd.as_raw_fd()).map_err(sup("fcntl"))?;
            }
        }
        let pidfd = if use_pidfd { pidfd_open(pid) } else { None };
        let oom_poll = reaper.cgroup.as_ref().and_then(CallCgroup::oom_poll);
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;

        let mut exit: Option<(libc::c_int, libc::rusage)> = None;
        let mut wall = Duration::ZERO;
        let mut timed_out = false;
        let mut cancelled = false;
        let mut oom = false;
        let mut drain_deadline = deadline;
        let mut next_cpu_check = limits.cpu_timeout.map(|cpu| start + cpu / cpus);
        let mut buf = vec![0u8; READ_CHUNK];

        loop {
            // 1. Has the child exited, or a limit passed? (pidfd and OOM readiness are
            //    checked by the poll below; the fallback asks waitid without reaping.)
            if exit.is_none() && pidfd.is_none() && child_exited(pid).map_err(sup("waitid"))? {
                wall = start.elapsed();
                exit = Some(reaper.kill_and_reap().map_err(sup("wait4"))?);
                drain_deadline = Instant::now() + DRAIN_GRACE;
            }
            let now = Instant::now();
            if exit.is_none() && now >= deadline {
                wall = now - start;
                timed_out = true;
                exit = Some(reaper.kill_and_reap().map_err(sup("wait4"))?);
                drain_deadline = Instant::now() + DRAIN_GRACE;
            }
            if let (None, Some(limit), Some(at)) = (&exit, limits.cpu_timeout, next_cpu_check) {
                if now >= at {
                    let used = reaper.cpu_used();
                    if used >= limit {
                        wall = now - start;
                        timed_out = true;
                        exit = Some(reaper.kill_and_reap().map_err(sup("wait4"))?);
                        drain_deadline = Instant::now() + DRAIN_GRACE;
                    } else {
                        // The tree uses at most `cpus` CPU-seconds per second.
                        let wait = ((limit - used) / cpus).max(Duration::from_millis(1));
                        next_cpu_check = Some(now + wait);
                    }
                }
            }
            let cancel = limits.cancel.as_ref();
            if exit.is_none() && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                wall = now - start;
                cancelled = true;
                exit = Some(reaper.kill_and_reap().map_err(sup("wait4"))?);
                drain_deadline = Instant::now();
            }
            if exit.is_some() && out.fd.is_none() && err.fd.is_none() {
                break;
            }
            if exit.is_some() && Instant::now() >= drain_deadline {
                break; // an escaped process holds the pipes; keep what we have
            }

            // 2. Wait for the next event.
            let unused = libc::pollfd {
                fd: -1,
                events: 0,
                revents: 0,
            };
            let mut fds = [unused; 5];
            let mut nfds = 0;
            let mut slots = [usize::MAX; 5]; // stdout, stderr, stdin, pidfd, oom
            let mut push = |slot: usize, fd: RawFd, events: libc::c_short| {
                slots[slot] = nfds;
                fds[nfds] = libc::pollfd {
                    fd,
                    events,
                    revents: 0,
                };
                nfds += 1;
            };
            if let Some(fd) = &out.fd {
                push(0, fd.as_raw_fd(), libc::POLLIN);
            }
            if let Some(fd) = &err.fd {
                push(1, fd.as_raw_fd(), libc::POLLIN);
            }
            if exit.is_none() {
                if let Some((fd, _)) = &stdin_pipe {
                    push(2, fd.as_raw_fd(), libc::POLLOUT);
                }
                if let Some(fd) = &pidfd {
                    push(3, fd.as_raw_fd(), libc::POLLIN);
                }
                if let Some((fd, events)) = oom_poll {
                    push(4, fd, events);
                }
            }
            let mut until = if exit.is_some() {
                drain_deadline
            } else {
                deadline
            };
            if exit.is_none() {
                if let Some(at) = next_cpu_check {
                    until = until.min(at);
                }
            }
            let mut wait = until.saturating_duration_since(Instant::now());
            if exit.is_none() && pidfd.is_none() {
                wait = wait.min(Duration::from_millis(1));
            }
            if exit.is_none() && limits.cancel.is_some() {
                wait = wait.min(CANCEL_POLL);
            }
            let ts = libc::timespec {
                tv_sec: wait.as_secs() as libc::time_t,
                tv_nsec: wait.subsec_nanos() as libc::c_long,
            };
            // SAFETY: `fds[..nfds]` are initialised pollfd records.
            let n = unsafe {
                libc::ppoll(
                    fds.as_mut_ptr(),
                    nfds as libc::nfds_t,
                    &ts,
                    std::ptr::null(),
                )
            };
            if n < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(sup("ppoll")(e));
            }
            let ready = |slot: usize| slots[slot] != usize::MAX && fds[slots[slot]].revents != 0;

            // 3. Serve what is ready.
            if ready(0) {
                out.read_some(&mut buf).map_err(sup("read stdout"))?;
            }
            if ready(1) {
                err.read_some(&mut buf).map_err(sup("read stderr"))?;
            }
            if ready(2) {
                if let Some((fd, bytes)) = &mut stdin_pipe {
                    match write_some(fd.as_raw_fd(), bytes) {
                        Ok(done) if done => stdin_pipe = None,
                        Ok(_) => {}
                        // The solver closed its stdin or exited: nothing more to send.
                        Err(e) if e.raw_os_error() == Some(libc::EPIPE) => stdin_pipe = None,
                        Err(e) => return Err(sup("write stdin")(e)),
                    }
                }
            }
            if ready(4) && exit.is_none() {
                if let Some((fd, libc::POLLIN)) = oom_poll {
                    // Clear the eventfd's count so it does not stay readable.
                    let mut count = 0u64;
                    // SAFETY: reading 8 bytes into a u64 from an eventfd.
                    unsafe { libc::read(fd, (&mut count as *mut u64).cast(), 8) };
                }
                if reaper.cgroup.as_ref().is_some_and(CallCgroup::oom_killed) {
                    // Reaching the memory limit ends the call, whatever the OOM killer
                    // chose to kill: the rest of the tree would run short of memory.
                    oom = true;
                    wall = start.elapsed();
                    exit = Some(reaper.kill_and_reap().map_err(sup("wait4"))?);
                    drain_deadline = Instant::now() + DRAIN_GRACE;
                }
            }
            if ready(3) && exit.is_none() {
                wall = start.elapsed();
                exit = Some(reaper.kill_and_reap().map_err(sup("wait4"))?);
                drain_deadline = Instant::now() + DRAIN_GRACE;
            }
        }
        drop(stdin_pipe);
        drop(child);

        let (status, usage) = exit.expect("loop ends only after the child was reaped");
        let (stdout, stdout_truncated) = out.finish();
        let (stderr, stderr_truncated) = err.finish();
        let mut outcome = CallOutcome {
            stdout,
            stderr,
            stdout_truncated,
            stderr_truncated,
            wall,
            cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
            max_rss_kb: usage.ru_maxrss.max(0) as u64,
            exit_code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
            timed_out,
            memory_limit_hit: false,
            cancelled,
            start_error: None,
        };
        match &reaper.cgroup {
            Some(cg) => {
                let totals = cg.totals();
                outcome.cpu = totals.cpu;
                if let Some(peak) = totals.peak_memory_kb {
                    outcome.max_rss_kb = peak;
                }
                outcome.memory_limit_hit = oom || (totals.oom_kills > 0 && !timed_out);
            }
            None => outcome.memory_limit_hit = near_address_space_limit(&outcome, limits),
        }
        Ok(outcome)
    }
}

/// Without cgroups, `RLIMIT_AS` makes allocations fail rather than killing, and a
/// solver that does not report it may die of a signal: true when the call was not
/// killed by our limits and died of SIGABRT/SIGSEGV/SIGBUS/SIGKILL with its peak RSS
/// within 10% of the limit (RSS is below the address space, so this only catches
/// solvers that got close).
fn near_address_space_limit(outcome: &CallOutcome, limits: &Limits) -> bool {
    let near = limits
        .memory_mb
        .is_some_and(|mb| outcome.max_rss_kb.saturating_mul(10) >= mb.saturating_mul(1024 * 9));
    let fatal = matches!(
        outcome.signal,
        Some(libc::SIGABRT | libc::SIGSEGV | libc::SIGKILL | libc::SIGBUS)
    );
    !outcome.timed_out && !outcome.cancelled && near && fatal
}

/// Kills what the call started when asked or dropped, unless the child was already
/// reaped (after which its process group id may be reused and must not be signalled).
struct Reaper<'a> {
    pid: libc::pid_t,
    reaped: bool,
    cgroup: Option<CallCgroup<'a>>,
}

impl Reaper<'_> {
    /// SIGKILLs the whole process group (the child is a zombie or alive, so the id is
    /// still ours) and the cgroup, then reaps the child and returns its wait status and
    /// rusage.
    fn kill_and_reap(&mut self) -> io::Result<(libc::c_int, libc::rusage)> {
        // SAFETY: a plain system call; the group id is reserved by our unreaped child.
        unsafe { libc::kill(-self.pid, libc::SIGKILL) };
        if let Some(cg) = &self.cgroup {
            cg.kill_all();
        }
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain data.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: waiting for our own child.
            let r = unsafe { libc::wait4(self.pid, &mut status, 0, &mut usage) };
            if r == self.pid {
                self.reaped = true;
                return Ok((status, usage));
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }

    /// CPU time used so far: the cgroup's, or the child's and its waited-for
    /// descendants' from /proc (clock ticks).
    fn cpu_used(&self) -> Duration {
        match &self.cgroup {
            Some(cg) => cg.cpu_usage(),
            None => proc_cpu_time(self.pid).unwrap_or_default(),
        }
    }
}

impl Drop for Reaper<'_> {
    fn drop(&mut self) {
        if !self.reaped {
            // An error path: do not leave the solver running or as a zombie.
            let _ = self.kill_and_reap();
        }
    }
}

/// utime + stime + cutime + cstime of a live (or zombie) process, from /proc.
fn proc_cpu_time(pid: libc::pid_t) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may contain spaces and parentheses):
    // state is field 3, utime..cstime are fields 14..17.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().unwrap_or(0))
        .sum();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000) / hz,
    ))
}

/// Writes as much of `bytes` as the pipe takes; returns true when all is written.
fn write_some(fd: RawFd, bytes: &mut &[u8]) -> io::Result<bool> {
    while !bytes.is_empty() {
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n < 0 {
            let e = io::Error::last_os_error();
            match e.kind() {
                io::ErrorKind::Interrupted => continue,
                io::ErrorKind::WouldBlock => return Ok(false),
                _ => return Err(e),
            }
        }
        *bytes = &bytes[n as usize..];
    }
    Ok(true)
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A pipe (read end, write end), both closed on exec, on which the child passes the
/// moment it execs the solver.
fn clock_pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2 fills two descriptors or fails.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these new descriptors to us.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// When the child called exec, read from the [`clock_pipe`] once the spawn has
/// returned (our write end closed, so an empty pipe reads as end of file). The
/// spawning thread only learns of the exec when it next runs, which on a busy
/// machine can be a scheduler slice (3 ms) later while the solver already runs:
/// the child's own clock reading keeps that time in the solver's `wall` and inside
/// its timeout.
fn exec_instant(pipe: &OwnedFd) -> Option<Instant> {
    let mut at = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    let size = std::mem::size_of::<libc::timespec>();
    // SAFETY: reading at most `size` bytes into a timespec.
    let n = unsafe {
        libc::read(
            pipe.as_raw_fd(),
            (&mut at as *mut libc::timespec).cast(),
            size,
        )
    };
    if n != size as isize {
        return None;
    }
    let here = Instant::now();
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let nanos = |t: &libc::timespec| t.tv_sec as i128 * 1_000_000_000 + t.tv_nsec as i128;
    let ago = u64::try_from(nanos(&now) - nanos(&at)).ok()?;
    here.checked_sub(Duration::from_nanos(ago))
}

/// A pidfd for `pid` (readable once the process exits), or `None` where the kernel
/// lacks `pidfd_open` (before Linux 5.3, or blocked by a seccomp policy).
fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    #[cfg(target_os = "linux")]
    {
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        if fd >= 0 {
            // SAFETY: the kernel just returned this new descriptor to us.
            return Some(unsafe { OwnedFd::from_raw_fd(fd as RawFd) });
        }
    }
    let _ = pid;
    None
}

/// Whether the child has exited, without reaping it (so its group id stays reserved).
fn child_exited(pid: libc::pid_t) -> io::Result<bool> {
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(unsafe { info.si_pid() } != 0)
}

fn timeval(tv: libc::timeval) -> Duration {
    Duration::new(tv.tv_sec.max(0) as u64, (tv.tv_usec.max(0) as u32) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exec_clock_reading_becomes_the_start() {
        let (read, write) = clock_pipe().unwrap();
        let mut at = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes into the timespec.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut at) };
        let size = std::mem::size_of::<libc::timespec>();
        // SAFETY: writing the timespec's bytes to our own pipe.
        let n = unsafe {
            libc::write(
                write.as_raw_fd(),
                (&at as *const libc::timespec).cast(),
                size,
            )
        };
        assert_eq!(n, size as isize);
        drop(write);
        std::thread::sleep(Duration::from_millis(50));
        let start = exec_instant(&read).expect("a clock reading");
        assert!(start.elapsed() >= Duration::from_millis(50));
        // Nothing more to read: no start, and the caller takes its own clock.
        assert!(exec_instant(&read).is_none());
    }

    fn sh(script: &str) -> Vec<String> {
        vec!["/bin/sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn captures_exit_code_and_both_streams() {
        let o = run_call(
            &sh("echo out; echo err >&2; exit 3"),
            Input::Stdin(b""),
            &Limits::with_timeout(Duration::from_secs(10)),
        )
        .unwrap();
        assert_eq!(o.stdout, b"out\n");
        assert_eq!(o.stderr, b"err\n");
        assert_eq!(o.exit_code, Some(3));
        assert_eq!(o.signal, None);
        assert!(!o.timed_out && !o.memory_limit_hit);
    }

    #[test]
    fn stdin_input_reaches_the_solver() {
        let big = vec![b'x'; 300_000]; // more than a pipe buffer holds
        let o = run_call(
            &sh("wc -c"),
            Input::Stdin(&big),
            &Limits::with_timeout(Duration::from_secs(10)),
        )
        .unwrap();
        assert_eq!(o.stdout_text().trim(), "300000");
    }

    #[test]
    fn file_input_is_the_last_argument() {
        let o = run_call(
            &["/bin/echo".into(), "first".into()],
            Input::File(Path::new("/some/formula.smt2")),
            &Limits::with_timeout(Duration::from_secs(10)),
        )
        .unwrap();
        assert_eq!(o.stdout_text(), "first /some/formula.smt2\n");
    }

    #[test]
    fn empty_command_is_an_error() {
        let err = run_call(
            &[],
            Input::Stdin(b""),
            &Limits::with_timeout(Duration::from_secs(1)),
        );
        assert!(matches!(err, Err(CallError::EmptyCommand)));
    }

    #[test]
    fn missing_program_is_a_start_error() {
        let o = run_call(
            &["/nonexistent/solver".into()],
            Input::Stdin(b""),
            &Limits::with_timeout(Duration::from_secs(1)),
        )
        .unwrap();
        let why = o.start_error.expect("a start error");
        assert!(why.contains("/nonexistent/solver"), "{why}");
        assert_eq!((o.exit_code, o.signal), (None, None));
    }

    #[test]
    fn address_space_limit_without_cgroups() {
        // python allocating 2 GiB under a 200 MiB address-space limit: MemoryError and
        // exit 1, no signal: the call reports what happened; calling it a memout is the
        // oracle's job (its pattern table knows MemoryError).
        let mut limits = Limits::with_timeout(Duration::from_secs(10));
        limits.memory_mb = Some(200);
        let o = Supervisor::process_group()
            .run(
                &[
                    "python3".into(),
                    "-c".into(),
                    "b = bytearray(2 << 30)".into(),
                ],
                Input::Stdin(b""),
                &limits,
            )
            .unwrap();
        assert_eq!(o.exit_code, Some(1));
        assert!(o.stderr_text().contains("MemoryError"), "{o:?}");
        assert!(!o.memory_limit_hit);
    }

    #[test]
    fn cpu_timeout_kills_a_spinning_solver() {
        let mut limits = Limits::with_timeout(Duration::from_secs(60));
        limits.cpu_timeout = Some(Duration::from_millis(300));
        for supervisor in [Supervisor::global(), &Supervisor::process_group()] {
            let o = supervisor
                .run(&sh("while :; do :; done"), Input::Stdin(b""), &limits)
                .unwrap();
            assert!(o.timed_out, "{:?}: {o:?}", supervisor.supervision());
            assert_eq!(o.signal, Some(libc::SIGKILL));
            assert!(o.cpu >= Duration::from_millis(300), "{:?}", o.cpu);
        }
    }

    #[test]
    fn fallback_without_pidfd_behaves_the_same() {
        let limits = Limits::with_timeout(Duration::from_millis(200));
        let sup = Supervisor::global();
        let o = sup
            .supervise(&sh("echo sat; exit 2"), Input::Stdin(b"x"), &limits, false)
            .unwrap();
        assert_eq!((o.stdout_text().as_ref(), o.exit_code), ("sat\n", Some(2)));
        let o = sup
            .supervise(&sh("sleep 100"), Input::Stdin(b""), &limits, false)
            .unwrap();
        assert!(o.timed_out);
        assert_eq!(o.signal, Some(libc::SIGKILL));
        let o = sup
            .supervise(&sh("kill -SEGV $$"), Input::Stdin(b""), &limits, false)
            .unwrap();
        assert_eq!(o.signal, Some(libc::SIGSEGV));
    }

    #[test]
    fn cpu_time_and_rss_are_the_childs() {
        let o = run_call(
            &sh("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done"),
            Input::Stdin(b""),
            &Limits::with_timeout(Duration::from_secs(30)),
        )
        .unwrap();
        assert_eq!(o.stdout_text(), "done\n");
        assert!(o.cpu > Duration::from_millis(20), "{:?}", o.cpu);
        assert!(
            o.cpu <= o.wall + Duration::from_millis(20),
            "{:?} > {:?}",
            o.cpu,
            o.wall
        );
        assert!(o.max_rss_kb > 0);
    }
}
