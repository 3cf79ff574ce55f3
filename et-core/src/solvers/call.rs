//! One solver call, measured the way BenchExec measures: the solver runs in its own
//! process group under limits that et enforces from outside (a solver's own time
//! limit cannot be trusted: cvc4 1.8's `--tlimit` is soft), its output is captured
//! up to a bound, and wall time, CPU time, peak memory and exit status are recorded.
//!
//! How a call runs (Linux):
//! - the child calls `setpgid(0, 0)` before `exec`, so it leads a new process group
//!   whose id is its pid; every process it forks stays in that group unless it calls
//!   `setsid`/`setpgid` itself (such escapees are out of reach without cgroups). Not
//!   `setsid`: a new session also gets a new scheduler autogroup on Linux, which made
//!   about 5% of calls wait ~10 ms to be scheduled on a loaded machine (measured with
//!   `benches/call.rs`); a separate group already keeps terminal signals (Ctrl-C) away
//!   from solvers, because only the terminal's foreground group receives them;
//! - `PR_SET_PDEATHSIG(SIGKILL)` makes the solver die if the thread that started it
//!   dies (et killed with `kill -9`), so an interrupted campaign leaves no solver behind;
//! - `RLIMIT_AS` caps the address space when a memory limit is given, and
//!   `RLIMIT_CORE` is 0 so crashing solvers do not spend time writing core dumps;
//! - one thread multiplexes, with `ppoll`, the stdin pipe (when the formula is passed
//!   on stdin), the stdout and stderr pipes and a pidfd of the child, so the call
//!   wakes up exactly when output arrives, the child exits, or the deadline passes
//!   (no sleep-polling; on kernels without `pidfd_open` it falls back to 1 ms slices);
//! - when the child exits, or at the deadline, the whole group gets `SIGKILL` *before*
//!   the child is reaped (the zombie keeps the group id from being reused), so forked
//!   helpers never outlive the call; then `wait4` collects the child's rusage.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default cap on the bytes kept from each of stdout and stderr (1 MiB).
pub const DEFAULT_CAPTURE_BYTES: usize = 1 << 20;

/// How long to keep draining the pipes after the solver exited or was killed: only a
/// process that escaped the group (own `setsid`) can hold them open that long.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Size of the buffer each `read` fills; large outputs are consumed in chunks this big.
const READ_CHUNK: usize = 64 * 1024;

/// Messages by which a solver reports that an allocation failed. With a memory limit
/// (`RLIMIT_AS`), that is how hitting the limit usually shows: C++ solvers throw
/// `std::bad_alloc` (and abort if nobody catches it), z3 prints `out of memory`,
/// glibc reports `Cannot allocate memory`. Matched case-insensitively on stderr and
/// stdout. This list lives here and not in the oracle's pattern table because memout is
/// decided with facts only the call has (the limit, the RSS); the oracle reads the flag.
pub const OUT_OF_MEMORY_MARKERS: &[&str] = &[
    "std::bad_alloc",
    "out of memory",
    "cannot allocate memory",
    "failed to allocate",
    "memory exhausted",
];

/// Limits et enforces on one call, from outside the solver.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Wall-clock limit; the process group is killed with SIGKILL when it passes.
    pub timeout: Duration,
    /// Address-space limit in MiB (`RLIMIT_AS`); `None` leaves memory unlimited.
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
    /// Limits with the given timeout, no memory limit and the default capture cap.
    pub fn with_timeout(timeout: Duration) -> Self {
        Limits {
            timeout,
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
    /// Wall-clock time from spawn to exit (or to the kill at the timeout).
    pub wall: Duration,
    /// User + system CPU time of the solver and the descendants it waited for.
    pub cpu: Duration,
    /// Peak resident set size in KiB (largest of the solver and its waited-for descendants).
    pub max_rss_kb: u64,
    /// Exit code when the solver exited normally.
    pub exit_code: Option<i32>,
    /// Signal number when the solver was killed by a signal (9 after our timeout kill).
    pub signal: Option<i32>,
    /// et killed the solver at the wall-clock limit.
    pub timed_out: bool,
    /// The solver ran out of memory (heuristic: see [`detect_memout`]).
    pub memout: bool,
    /// The call was cancelled (its [`Limits::cancel`] flag was set) and killed: it says
    /// nothing about the solver.
    pub cancelled: bool,
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
}

/// Why a call could not be run at all (as opposed to a solver that misbehaved, which is
/// a normal [`CallOutcome`]).
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The command line has no program.
    #[error("empty solver command line")]
    EmptyCommand,
    /// The program could not be started (not found, not executable, ...).
    #[error("cannot start solver `{program}`: {source}")]
    Spawn {
        /// The program that failed to start.
        program: String,
        /// The operating system's reason.
        source: io::Error,
    },
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

/// Runs `command` (program then arguments) on `input` under `limits` and reports what
/// happened; it blocks the calling thread until the solver has exited or been killed,
/// and its process group has been sent SIGKILL. Safe to call from many threads at once.
///
/// `memout` is the heuristic of [`detect_memout`]. The solver is killed if the calling
/// *thread* dies (that is how `PR_SET_PDEATHSIG` works), which cannot happen while this
/// function runs. Writing the formula to stdin expects SIGPIPE to be ignored, as Rust
/// programs do by default, so a solver that exits without reading does not kill et.
pub fn run_call(
    command: &[String],
    input: Input<'_>,
    limits: &Limits,
) -> Result<CallOutcome, CallError> {
    supervise(command, input, limits, true)
}

/// [`run_call`], with the choice of waiting on a pidfd or (tests of the fallback for
/// kernels without one) on 1 ms `waitid` slices.
fn supervise(
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
    let memory_bytes = limits
        .memory_mb
        .map(|mb| mb.saturating_mul(1024 * 1024) as libc::rlim_t);
    // SAFETY: the closure runs between fork and exec and only makes async-signal-safe
    // system calls (setpgid, prctl, setrlimit), allocating nothing.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setpgid(0, 0) < 0 {
                return Err(io::Error::last_os_error());
            }
            #[cfg(target_os = "linux")]
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) < 0 {
                return Err(io::Error::last_os_error());
            }
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // Best effort: failing to disable core dumps is not worth failing the call.
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            if let Some(bytes) = memory_bytes {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }

    let start = Instant::now();
    let deadline = start + limits.timeout;
    let mut child = cmd.spawn().map_err(|source| CallError::Spawn {
        program: program.clone(),
        source,
    })?;
    let pid = child.id() as libc::pid_t;
    // From here on the group must be killed on every path, including errors.
    let mut guard = GroupGuard { pid, reaped: false };

    let mut stdin_pipe = match input {
        Input::Stdin(bytes) => child.stdin.take().map(|s| {
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

    let mut exit: Option<(libc::c_int, libc::rusage)> = None;
    let mut wall = Duration::ZERO;
    let mut timed_out = false;
    let mut cancelled = false;
    let mut drain_deadline = deadline;
    let mut buf = vec![0u8; READ_CHUNK];

    loop {
        // 1. Has the child exited? (pidfd readiness is checked by the poll below; the
        //    fallback asks waitid without reaping.)
        if exit.is_none() && pidfd.is_none() && child_exited(pid).map_err(sup("waitid"))? {
            wall = start.elapsed();
            exit = Some(guard.kill_and_reap().map_err(sup("wait4"))?);
            drain_deadline = Instant::now() + DRAIN_GRACE;
        }
        let now = Instant::now();
        if exit.is_none() && now >= deadline {
            wall = now - start;
            timed_out = true;
            exit = Some(guard.kill_and_reap().map_err(sup("wait4"))?);
            drain_deadline = Instant::now() + DRAIN_GRACE;
        }
        let cancel = limits.cancel.as_ref();
        if exit.is_none() && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            wall = now - start;
            cancelled = true;
            exit = Some(guard.kill_and_reap().map_err(sup("wait4"))?);
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
        let mut fds = [unused; 4];
        let mut nfds = 0;
        let mut slots = [usize::MAX; 4]; // stdout, stderr, stdin, pidfd
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
        }
        let until = if exit.is_some() {
            drain_deadline
        } else {
            deadline
        };
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
        if ready(3) && exit.is_none() {
            wall = start.elapsed();
            exit = Some(guard.kill_and_reap().map_err(sup("wait4"))?);
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
        memout: false,
        cancelled,
    };
    outcome.memout = detect_memout(&outcome, limits.memory_mb);
    Ok(outcome)
}

/// Whether a finished call ran out of memory, given the memory limit it ran under.
///
/// Heuristic, because `RLIMIT_AS` makes allocations fail rather than killing: true when
/// the call was not killed by our timeout and either an allocation-failure message
/// ([`OUT_OF_MEMORY_MARKERS`]) appears in its output (with or without our limit: a
/// solver that ran out of memory did not reject the formula), or, under a limit, it
/// died of SIGABRT/SIGSEGV/SIGBUS/SIGKILL with its peak RSS within 10% of the limit
/// (RSS is below the address space, so this only catches solvers that got close).
pub fn detect_memout(outcome: &CallOutcome, memory_mb: Option<u64>) -> bool {
    if outcome.timed_out {
        return false;
    }
    let says_oom = [&outcome.stderr, &outcome.stdout].iter().any(|bytes| {
        let text = String::from_utf8_lossy(bytes).to_ascii_lowercase();
        OUT_OF_MEMORY_MARKERS.iter().any(|m| text.contains(m))
    });
    let near_limit = memory_mb
        .is_some_and(|mb| outcome.max_rss_kb.saturating_mul(10) >= mb.saturating_mul(1024 * 9));
    let fatal_signal = matches!(
        outcome.signal,
        Some(libc::SIGABRT | libc::SIGSEGV | libc::SIGKILL | libc::SIGBUS)
    );
    says_oom || (fatal_signal && near_limit)
}

/// Kills the solver's process group when dropped, unless the child was already reaped
/// (after which the group id may be reused and must not be signalled).
struct GroupGuard {
    pid: libc::pid_t,
    reaped: bool,
}

impl GroupGuard {
    /// SIGKILLs the whole group (the child is a zombie or alive, so the id is still
    /// ours), then reaps the child and returns its wait status and rusage.
    fn kill_and_reap(&mut self) -> io::Result<(libc::c_int, libc::rusage)> {
        unsafe { libc::kill(-self.pid, libc::SIGKILL) };
        let mut status: libc::c_int = 0;
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
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
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if !self.reaped {
            // An error path: do not leave the solver running or as a zombie.
            let _ = self.kill_and_reap();
        }
    }
}

/// One captured output stream: the pipe while it is open, and the kept bytes. Like
/// BenchExec, an overlong output loses its middle, not its end: the first
/// `cap - tail_cap` bytes and the last `tail_cap` bytes are kept, because a solver's
/// final words (its answer after a long trace, an assertion after a long dump) matter.
struct Capture {
    fd: Option<OwnedFd>,
    head: Vec<u8>,
    head_cap: usize,
    /// Bytes after the head; trimmed to the last `tail_cap` bytes now and then.
    tail: Vec<u8>,
    tail_cap: usize,
    total: u64,
}

impl Capture {
    fn new(fd: Option<RawFd>, cap: usize) -> Self {
        let tail_cap = (cap / 4).min(64 * 1024);
        Capture {
            // SAFETY: the fd comes from `into_raw_fd` of a pipe we own.
            fd: fd.map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
            head: Vec::new(),
            head_cap: cap - tail_cap,
            tail: Vec::new(),
            tail_cap,
            total: 0,
        }
    }

    /// One non-blocking read (one per wake-up, so a flooding stream cannot starve the
    /// other one or the deadline); closes the pipe at end of file.
    fn read_some(&mut self, buf: &mut [u8]) -> io::Result<()> {
        let Some(fd) = &self.fd else { return Ok(()) };
        let n = loop {
            let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            if n >= 0 {
                break n as usize;
            }
            let e = io::Error::last_os_error();
            match e.kind() {
                io::ErrorKind::Interrupted => continue,
                io::ErrorKind::WouldBlock => return Ok(()),
                _ => return Err(e),
            }
        };
        if n == 0 {
            self.fd = None;
            return Ok(());
        }
        self.total += n as u64;
        let chunk = &buf[..n];
        let room = self.head_cap.saturating_sub(self.head.len()).min(n);
        self.head.extend_from_slice(&chunk[..room]);
        self.tail.extend_from_slice(&chunk[room..]);
        if self.tail.len() > 2 * self.tail_cap.max(READ_CHUNK) {
            self.tail.drain(..self.tail.len() - self.tail_cap);
        }
        Ok(())
    }

    /// The kept bytes (with a marker line where the middle was dropped) and whether
    /// anything was dropped.
    fn finish(mut self) -> (Vec<u8>, bool) {
        let kept = (self.head.len() + self.tail.len()) as u64;
        if self.total <= kept && self.tail.len() <= self.tail_cap {
            self.head.append(&mut self.tail);
            return (self.head, false);
        }
        let tail = &self.tail[self.tail.len().saturating_sub(self.tail_cap)..];
        let dropped = self.total - (self.head.len() + tail.len()) as u64;
        self.head
            .extend_from_slice(format!("\n[et: {dropped} bytes omitted]\n").as_bytes());
        self.head.extend_from_slice(tail);
        (self.head, true)
    }
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
        assert!(!o.timed_out && !o.memout);
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
    fn missing_program_is_a_spawn_error() {
        let err = run_call(
            &["/nonexistent/solver".into()],
            Input::Stdin(b""),
            &Limits::with_timeout(Duration::from_secs(1)),
        )
        .unwrap_err();
        assert!(matches!(err, CallError::Spawn { .. }), "{err}");
        assert!(err.to_string().contains("/nonexistent/solver"), "{err}");
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
    fn memory_limit_turns_a_big_allocation_into_memout() {
        // python allocating 2 GiB under a 200 MiB address-space limit: MemoryError.
        let Ok(python) = which("python3") else { return };
        let mut limits = Limits::with_timeout(Duration::from_secs(10));
        limits.memory_mb = Some(200);
        let o = run_call(
            &[python, "-c".into(), "b = bytearray(2 << 30)".into()],
            Input::Stdin(b""),
            &limits,
        )
        .unwrap();
        // Python says "MemoryError", which is not a marker; it exits 1 without a
        // signal and far from the RSS limit, so it is *not* flagged: the heuristic
        // only trusts allocation-failure texts of the solvers it knows.
        assert_eq!(o.exit_code, Some(1));
        assert!(!o.memout);
        let o = run_call(
            &sh("echo \"terminate called after throwing an instance of 'std::bad_alloc'\" >&2; kill -ABRT $$"),
            Input::Stdin(b""),
            &limits,
        )
        .unwrap();
        assert_eq!(o.signal, Some(libc::SIGABRT));
        assert!(o.memout);
    }

    #[test]
    fn fallback_without_pidfd_behaves_the_same() {
        let limits = Limits::with_timeout(Duration::from_millis(200));
        let o = supervise(&sh("echo sat; exit 2"), Input::Stdin(b"x"), &limits, false).unwrap();
        assert_eq!((o.stdout_text().as_ref(), o.exit_code), ("sat\n", Some(2)));
        let o = supervise(&sh("sleep 100"), Input::Stdin(b""), &limits, false).unwrap();
        assert!(o.timed_out);
        assert_eq!(o.signal, Some(libc::SIGKILL));
        let o = supervise(&sh("kill -SEGV $$"), Input::Stdin(b""), &limits, false).unwrap();
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

    fn which(name: &str) -> Result<String, ()> {
        std::env::var("PATH")
            .unwrap_or_default()
            .split(':')
            .map(|d| format!("{d}/{name}"))
            .find(|p| Path::new(p).exists())
            .ok_or(())
    }
}
