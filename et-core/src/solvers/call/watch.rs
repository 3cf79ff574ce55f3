//! Watching a running call until it stops and its output is in: one thread
//! multiplexes, with `ppoll`, the stdin pipe (when the formula is passed on stdin), the
//! stdout and stderr pipes, a pidfd of the child and the cgroup's out-of-memory
//! notification, and checks the wall-clock deadline, the CPU time and the cancel flag.
//! A call stops for one [`Stop`] reason; what stops it first is checked in a fixed
//! order (exit seen by `waitid`, wall clock, CPU time, cancel; then, after the poll,
//! memory before exit). Then the pipes are drained for a grace period.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::process::Child;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::capture::{Capture, READ_CHUNK};
use super::cgroup::CallCgroup;
use super::process::{child_exited, pidfd_open, Reaper};
use super::spawn::Running;
use super::{During, Input, Limits, SupervisionFailure, CANCEL_POLL};

/// How long to keep draining the pipes after the solver exited or was killed: only a
/// process that escaped the process group (own `setsid`, without cgroups) can hold them
/// open that long.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Why a call stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// The solver exited (by itself, or killed by something other than et's limits).
    Exited,
    /// The wall-clock limit passed.
    WallTimeout,
    /// The CPU-time limit was used up.
    CpuTimeout,
    /// The call's cgroup reached its memory limit: the kernel's OOM killer acted, and
    /// the rest of the tree would run short of memory.
    MemoryLimit,
    /// The call's cancel flag was set (Ctrl-C of a campaign).
    Cancelled,
}

impl Stop {
    /// Whether et killed the call at one of its time limits.
    pub fn is_timeout(self) -> bool {
        matches!(self, Stop::WallTimeout | Stop::CpuTimeout)
    }

    /// How long the pipes are drained after the stop: not at all after a cancel (the
    /// campaign is going away and the call says nothing about the solver).
    fn drain_grace(self) -> Duration {
        match self {
            Stop::Cancelled => Duration::ZERO,
            _ => DRAIN_GRACE,
        }
    }
}

/// A stopped call: why, its wall time, and the reaped child's wait status and rusage.
pub(super) struct Stopped {
    pub why: Stop,
    pub wall: Duration,
    pub status: libc::c_int,
    pub usage: libc::rusage,
    /// When to stop draining the pipes.
    drain_until: Instant,
}

/// What a watch ends with: the stop, the captured streams, and the reaper (which holds
/// the call's cgroup and its totals).
pub(super) struct Watched<'a> {
    pub stopped: Stopped,
    pub stdout: Capture,
    pub stderr: Capture,
    pub reaper: Reaper<'a>,
}

/// Which of the polled descriptors are ready.
#[derive(Default)]
struct Ready {
    stdout: bool,
    stderr: bool,
    stdin: bool,
    exit: bool,
    memory: bool,
}

/// A running call being watched.
pub(super) struct Watch<'a, 'i, 'l> {
    child: Child,
    reaper: Reaper<'a>,
    start: Instant,
    deadline: Instant,
    limits: &'l Limits,
    /// When the CPU time can first have reached the limit.
    next_cpu_check: Option<Instant>,
    cpus: u32,
    /// The stdin pipe and the bytes still to write, while there are any.
    stdin: Option<(OwnedFd, &'i [u8])>,
    stdout: Capture,
    stderr: Capture,
    /// Readable when the child exits; `None` without `pidfd_open` (1 ms `waitid` slices).
    pidfd: Option<OwnedFd>,
    /// The cgroup's out-of-memory notification and its poll events.
    memory_events: Option<(RawFd, libc::c_short)>,
    buf: Vec<u8>,
    stopped: Option<Stopped>,
}

impl<'a, 'i, 'l> Watch<'a, 'i, 'l> {
    /// Takes the running solver's pipes (non-blocking) and sets the deadlines.
    pub fn new(
        running: Running<'a>,
        input: Input<'i>,
        limits: &'l Limits,
        use_pidfd: bool,
    ) -> Result<Self, SupervisionFailure> {
        let Running {
            mut child,
            start,
            reaper,
        } = running;
        let stdin = match input {
            Input::Stdin(bytes) => child.stdin.take().map(|s| (OwnedFd::from(s), bytes)),
            Input::File(_) => None,
        };
        let stdout = Capture::new(child.stdout.take().map(OwnedFd::from), limits.capture_bytes);
        let stderr = Capture::new(child.stderr.take().map(OwnedFd::from), limits.capture_bytes);
        let cpus = super::usable_cpus();
        let mut watch = Watch {
            deadline: start + limits.timeout,
            next_cpu_check: limits.cpu_timeout.map(|cpu| start + cpu / cpus),
            cpus,
            pidfd: None,
            memory_events: reaper.cgroup.as_ref().and_then(CallCgroup::oom_poll),
            child,
            reaper,
            start,
            limits,
            stdin,
            stdout,
            stderr,
            buf: vec![0u8; READ_CHUNK],
            stopped: None,
        };
        for fd in [watch.stdout.fd.as_ref(), watch.stderr.fd.as_ref()]
            .into_iter()
            .flatten()
        {
            set_nonblocking(fd.as_raw_fd()).during("fcntl")?;
        }
        if let Some((fd, bytes)) = &watch.stdin {
            if bytes.is_empty() {
                watch.stdin = None;
            } else {
                set_nonblocking(fd.as_raw_fd()).during("fcntl")?;
            }
        }
        if use_pidfd {
            watch.pidfd = pidfd_open(watch.reaper.pid);
        }
        Ok(watch)
    }

    /// Serves the pipes until the call stopped and its output is in (or the drain
    /// grace passed).
    pub fn until_stopped(mut self) -> Result<Watched<'a>, SupervisionFailure> {
        loop {
            self.check_stops()?;
            if self.output_is_in() {
                break;
            }
            let Some(ready) = self.wait_for_event()? else {
                continue; // interrupted by a signal: look again
            };
            self.serve(ready)?;
        }
        let Watch {
            child,
            reaper,
            stdin,
            stdout,
            stderr,
            stopped,
            ..
        } = self;
        drop(stdin);
        drop(child);
        Ok(Watched {
            stopped: stopped.expect("the watch ends only after the child was reaped"),
            stdout,
            stderr,
            reaper,
        })
    }

    /// Stops the call for `why`: kills everything and reaps the child.
    fn stop(&mut self, why: Stop, wall: Duration) -> Result<(), SupervisionFailure> {
        let (status, usage) = self.reaper.kill_and_reap().during("wait4")?;
        self.stopped = Some(Stopped {
            why,
            wall,
            status,
            usage,
            drain_until: Instant::now() + why.drain_grace(),
        });
        Ok(())
    }

    fn running(&self) -> bool {
        self.stopped.is_none()
    }

    /// Has the child exited (asked of `waitid` without a pidfd; the pidfd is polled),
    /// or has a limit passed?
    fn check_stops(&mut self) -> Result<(), SupervisionFailure> {
        if self.running()
            && self.pidfd.is_none()
            && child_exited(self.reaper.pid).during("waitid")?
        {
            self.stop(Stop::Exited, self.start.elapsed())?;
        }
        let now = Instant::now();
        if self.running() && now >= self.deadline {
            self.stop(Stop::WallTimeout, now - self.start)?;
        }
        if let (true, Some(limit), Some(at)) =
            (self.running(), self.limits.cpu_timeout, self.next_cpu_check)
        {
            if now >= at {
                let used = self.reaper.cpu_used();
                if used >= limit {
                    self.stop(Stop::CpuTimeout, now - self.start)?;
                } else {
                    // The tree uses at most `cpus` CPU-seconds per second.
                    let wait = ((limit - used) / self.cpus).max(Duration::from_millis(1));
                    self.next_cpu_check = Some(now + wait);
                }
            }
        }
        let cancel = self.limits.cancel.as_ref();
        if self.running() && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stop(Stop::Cancelled, now - self.start)?;
        }
        Ok(())
    }

    /// Whether the call stopped and both pipes are closed, or the drain grace passed
    /// (an escaped process holds the pipes; keep what we have).
    fn output_is_in(&self) -> bool {
        self.stopped.as_ref().is_some_and(|s| {
            (self.stdout.fd.is_none() && self.stderr.fd.is_none())
                || Instant::now() >= s.drain_until
        })
    }

    /// Waits for the next event: a pipe ready, the child's exit, a memory event, or the
    /// next deadline (the drain's once stopped). `None` when a signal interrupted.
    fn wait_for_event(&mut self) -> Result<Option<Ready>, SupervisionFailure> {
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
        if let Some(fd) = &self.stdout.fd {
            push(0, fd.as_raw_fd(), libc::POLLIN);
        }
        if let Some(fd) = &self.stderr.fd {
            push(1, fd.as_raw_fd(), libc::POLLIN);
        }
        if self.running() {
            if let Some((fd, _)) = &self.stdin {
                push(2, fd.as_raw_fd(), libc::POLLOUT);
            }
            if let Some(fd) = &self.pidfd {
                push(3, fd.as_raw_fd(), libc::POLLIN);
            }
            if let Some((fd, events)) = self.memory_events {
                push(4, fd, events);
            }
        }
        let until = match &self.stopped {
            Some(stopped) => stopped.drain_until,
            None => match self.next_cpu_check {
                Some(at) => self.deadline.min(at),
                None => self.deadline,
            },
        };
        let mut wait = until.saturating_duration_since(Instant::now());
        if self.running() && self.pidfd.is_none() {
            wait = wait.min(Duration::from_millis(1));
        }
        if self.running() && self.limits.cancel.is_some() {
            wait = wait.min(CANCEL_POLL);
        }
        if !super::poll_for(&mut fds[..nfds], wait).during("ppoll")? {
            return Ok(None);
        }
        let ready = |slot: usize| slots[slot] != usize::MAX && fds[slots[slot]].revents != 0;
        Ok(Some(Ready {
            stdout: ready(0),
            stderr: ready(1),
            stdin: ready(2),
            exit: ready(3),
            memory: ready(4),
        }))
    }

    /// Reads what the solver wrote, writes what it can take, and stops the call when
    /// memory ran out or the child exited.
    fn serve(&mut self, ready: Ready) -> Result<(), SupervisionFailure> {
        if ready.stdout {
            self.stdout.read_some(&mut self.buf).during("read stdout")?;
        }
        if ready.stderr {
            self.stderr.read_some(&mut self.buf).during("read stderr")?;
        }
        if ready.stdin {
            self.feed_stdin()?;
        }
        if ready.memory && self.running() {
            if let Some((fd, libc::POLLIN)) = self.memory_events {
                // Clear the eventfd's count so it does not stay readable.
                let mut count = 0u64;
                // SAFETY: reading 8 bytes into a u64 (any bytes are a valid u64) from a
                // non-blocking eventfd the cgroup owns for the whole call.
                unsafe { libc::read(fd, (&mut count as *mut u64).cast(), 8) };
            }
            if self
                .reaper
                .cgroup
                .as_ref()
                .is_some_and(CallCgroup::oom_killed)
            {
                // Reaching the memory limit ends the call, whatever the OOM killer
                // chose to kill: the rest of the tree would run short of memory.
                self.stop(Stop::MemoryLimit, self.start.elapsed())?;
            }
        }
        if ready.exit && self.running() {
            self.stop(Stop::Exited, self.start.elapsed())?;
        }
        Ok(())
    }

    /// Writes as much of the formula as the stdin pipe takes; closes it when all is
    /// written or the solver will read no more.
    fn feed_stdin(&mut self) -> Result<(), SupervisionFailure> {
        if let Some((fd, bytes)) = &mut self.stdin {
            match write_some(fd.as_raw_fd(), bytes) {
                Ok(done) if done => self.stdin = None,
                Ok(_) => {}
                // The solver closed its stdin or exited: nothing more to send.
                Err(e) if e.raw_os_error() == Some(libc::EPIPE) => self.stdin = None,
                Err(e) => return Err(e).during("write stdin"),
            }
        }
        Ok(())
    }
}

/// Writes as much of `bytes` as the pipe takes; returns true when all is written.
pub(super) fn write_some(fd: RawFd, bytes: &mut &[u8]) -> io::Result<bool> {
    while !bytes.is_empty() {
        // SAFETY: the pointer and length describe the live slice `bytes`, which write
        // only reads.
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

pub(super) fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl with F_GETFL/F_SETFL takes and returns integers only; `fd` is an
    // open descriptor the caller owns.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
