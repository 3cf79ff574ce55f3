//! Watching a contained process ([`Contained`]) until it stops: one thread multiplexes,
//! with `ppoll`, the stdin pipe (while there is input to write), the stdout and stderr
//! pipes, a pidfd of the process and the cgroup's out-of-memory notification, and
//! checks the wall-clock deadline, the CPU time and the cancel flag. A fresh call is
//! watched once, until its process ends; a solver session is watched once per formula,
//! until the end-of-answer mark its [`StdoutSink`] looks for (then the process goes
//! on). A watch stops for one [`Stop`] reason; what stops it first is checked in a fixed
//! order (exit seen by `waitid`, the answer complete, wall clock, CPU time, cancel;
//! then, after the poll, memory before exit). After a stop that ends the process the
//! pipes are drained for a grace period. [`Watched::outcome`] is the one
//! classification of how a watch stopped: timeout, memout, cancel, exit or signal.

use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::capture::{read_some, Capture};
use super::contained::{Contained, Ended, Span};
use super::{
    near_address_space_limit, CallOutcome, During, Limits, SupervisionFailure, CANCEL_POLL,
};

/// How long to keep draining the pipes after the process exited or was killed: only a
/// process that escaped the process group (own `setsid`, without cgroups) can hold them
/// open that long.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// Reads of stdout at most when the process's exit is noticed (64 KiB each; a pipe
/// holds 64 KiB by default).
const EXIT_DRAIN_READS: usize = 16;

/// Why a watch stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The process exited (by itself, or killed by something other than et's limits).
    Exited,
    /// The wall-clock limit passed.
    WallTimeout,
    /// The CPU-time limit was used up.
    CpuTimeout,
    /// The process's cgroup reached its memory limit: the kernel's OOM killer acted,
    /// and the rest of the tree would run short of memory.
    MemoryLimit,
    /// The cancel flag was set (Ctrl-C of a campaign).
    Cancelled,
    /// The answer is complete ([`StdoutSink::answered`]): the process goes on.
    Answered,
}

impl Stop {
    /// Whether et killed the process at one of its time limits.
    pub fn is_timeout(self) -> bool {
        matches!(self, Stop::WallTimeout | Stop::CpuTimeout)
    }

    /// How long the pipes are drained after the stop: not at all after a cancel (the
    /// campaign is going away and the call says nothing about the solver) or an answer
    /// (the process goes on).
    fn drain_grace(self) -> Duration {
        match self {
            Stop::Cancelled | Stop::Answered => Duration::ZERO,
            _ => DRAIN_GRACE,
        }
    }
}

/// Where a watched process's stdout goes, and whether it said all it was asked.
pub(crate) trait StdoutSink {
    /// Takes the next bytes of stdout.
    fn push(&mut self, bytes: &[u8]);
    /// Whether the answer is complete: the watch stops ([`Stop::Answered`]) and the
    /// process goes on. A fresh call's answer is complete only when its process ends.
    fn answered(&self) -> bool;
}

impl StdoutSink for Capture {
    fn push(&mut self, bytes: &[u8]) {
        Capture::push(self, bytes);
    }

    fn answered(&self) -> bool {
        false
    }
}

/// What happens to stdin once the input is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterInput {
    /// It is closed: the process reads to end of file (a fresh call).
    Close,
    /// It stays open for the next input (a session).
    KeepOpen,
}

/// How a watch stopped: why, the wall time of its span, and how the process ended
/// (`None` when it goes on: [`Stop::Answered`]).
#[derive(Debug)]
pub(crate) struct Watched {
    pub why: Stop,
    pub wall: Duration,
    pub ended: Option<Ended>,
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

/// A contained process being watched.
struct Watch<'w, 'a, O> {
    process: &'w mut Contained<'a>,
    span: Span,
    deadline: Instant,
    limits: &'w Limits,
    /// When the CPU time can first have reached the limit.
    next_cpu_check: Option<Instant>,
    cpus: u32,
    /// The bytes still to write to stdin.
    input: &'w [u8],
    after_input: AfterInput,
    stdout: &'w mut O,
    stderr: &'w mut Capture,
    /// Why it stopped, and until when to drain the pipes.
    stopped: Option<(Watched, Instant)>,
}

impl Contained<'_> {
    /// Writes `input` to the process and watches it from `span` on, under `limits`,
    /// until it stops ([`Stop`]) and its output is in: stdout into `stdout`, stderr into
    /// `stderr`. A process stopped at a limit, by a cancel or by its exit is killed and
    /// reaped; one whose answer is complete goes on (unless its cgroup's OOM killer
    /// acted meanwhile, which ends it at the memory limit).
    pub(crate) fn watch<O: StdoutSink>(
        &mut self,
        input: &[u8],
        after_input: AfterInput,
        span: Span,
        limits: &Limits,
        stdout: &mut O,
        stderr: &mut Capture,
    ) -> Result<Watched, SupervisionFailure> {
        let cpus = super::usable_cpus();
        if input.is_empty() && after_input == AfterInput::Close {
            self.stdin = None;
        }
        Watch {
            deadline: span.start + limits.timeout,
            next_cpu_check: limits.cpu_timeout.map(|cpu| span.start + cpu / cpus),
            cpus,
            process: self,
            span,
            limits,
            input,
            after_input,
            stdout,
            stderr,
            stopped: None,
        }
        .until_stopped()
    }
}

impl<O: StdoutSink> Watch<'_, '_, O> {
    /// Serves the pipes until the process stopped and its output is in (or the drain
    /// grace passed).
    fn until_stopped(mut self) -> Result<Watched, SupervisionFailure> {
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
        let (mut watched, _) = self.stopped.take().expect("the watch ends after a stop");
        if watched.why == Stop::Answered {
            self.after_answer(&mut watched)?;
        }
        Ok(watched)
    }

    /// Stops the watch for `why`: kills everything and reaps the process.
    fn stop(&mut self, why: Stop, wall: Duration) -> Result<(), SupervisionFailure> {
        let ended = self.process.kill_and_reap().during("wait4")?;
        let watched = Watched {
            why,
            wall,
            ended: Some(ended),
        };
        self.stopped = Some((watched, Instant::now() + why.drain_grace()));
        Ok(())
    }

    fn running(&self) -> bool {
        self.stopped.is_none()
    }

    /// Whether the input is all written (or can no longer be: stdin is closed).
    fn input_written(&self) -> bool {
        self.input.is_empty() || self.process.stdin.is_none()
    }

    /// Has the process exited (asked of `waitid` without a pidfd; the pidfd is
    /// polled), is the answer complete, or has a limit passed?
    fn check_stops(&mut self) -> Result<(), SupervisionFailure> {
        let start = self.span.start;
        if self.running()
            && self.process.pidfd().is_none()
            && self.process.exited().during("waitid")?
            && self.exit_ends_this_span()?
        {
            self.stop(Stop::Exited, start.elapsed())?;
        }
        // An answer is complete once the input is all written too: a session writes
        // the next formula behind the one it watches, and its answer may already be in.
        if self.running() && self.stdout.answered() && self.input_written() {
            let watched = Watched {
                why: Stop::Answered,
                wall: start.elapsed(),
                ended: None,
            };
            self.stopped = Some((watched, Instant::now() + Stop::Answered.drain_grace()));
            return Ok(());
        }
        let now = Instant::now();
        if self.running() && now >= self.deadline {
            self.stop(Stop::WallTimeout, now - start)?;
        }
        if let (true, Some(limit), Some(at)) =
            (self.running(), self.limits.cpu_timeout, self.next_cpu_check)
        {
            if now >= at {
                let used = self.process.cpu_used().saturating_sub(self.span.cpu_before);
                if used >= limit {
                    self.stop(Stop::CpuTimeout, now - start)?;
                } else {
                    // The tree uses at most `cpus` CPU-seconds per second.
                    let wait = ((limit - used) / self.cpus).max(Duration::from_millis(1));
                    self.next_cpu_check = Some(now + wait);
                }
            }
        }
        let cancel = self.limits.cancel.as_ref();
        if self.running() && cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stop(Stop::Cancelled, now - start)?;
        }
        Ok(())
    }

    /// Whether the watch stopped and both pipes are closed, or the drain grace passed
    /// (an escaped process holds the pipes; keep what we have).
    fn output_is_in(&self) -> bool {
        self.stopped.as_ref().is_some_and(|(_, drain_until)| {
            (self.process.stdout.is_none() && self.process.stderr.is_none())
                || Instant::now() >= *drain_until
        })
    }

    /// Waits for the next event: a pipe ready, the process's exit, a memory event, or
    /// the next deadline (the drain's once stopped). `None` when a signal interrupted.
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
        let process = &*self.process;
        if let Some(fd) = &process.stdout {
            push(0, fd.as_raw_fd(), libc::POLLIN);
        }
        if let Some(fd) = &process.stderr {
            push(1, fd.as_raw_fd(), libc::POLLIN);
        }
        let running = self.stopped.is_none();
        if running {
            if let (Some(fd), false) = (&process.stdin, self.input.is_empty()) {
                push(2, fd.as_raw_fd(), libc::POLLOUT);
            }
            if let Some(fd) = process.pidfd() {
                push(3, fd, libc::POLLIN);
            }
            if let Some((fd, events)) = process.oom_poll() {
                push(4, fd, events);
            }
        }
        let until = match &self.stopped {
            Some((_, drain_until)) => *drain_until,
            None => match self.next_cpu_check {
                Some(at) => self.deadline.min(at),
                None => self.deadline,
            },
        };
        let mut wait = until.saturating_duration_since(Instant::now());
        if running && process.pidfd().is_none() {
            wait = wait.min(Duration::from_millis(1));
        }
        if running && self.limits.cancel.is_some() {
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

    /// Reads what the process wrote, writes what it can take, and stops the watch when
    /// memory ran out or the process exited.
    fn serve(&mut self, ready: Ready) -> Result<(), SupervisionFailure> {
        if ready.stdout {
            self.read_stdout()?;
        }
        let process = &mut *self.process;
        if ready.stderr {
            if let Some(fd) = &process.stderr {
                match read_some(fd, &mut process.buf).during("read stderr")? {
                    Some(0) => process.stderr = None,
                    Some(n) => self.stderr.push(&process.buf[..n]),
                    None => {}
                }
            }
        }
        if ready.stdin {
            self.feed_stdin()?;
        }
        // Reaching the memory limit ends the process, whatever the OOM killer chose to
        // kill: the rest of the tree would run short of memory.
        if ready.memory && self.running() && self.process.oom_killed() {
            self.stop(Stop::MemoryLimit, self.span.start.elapsed())?;
        }
        if ready.exit && self.running() && self.exit_ends_this_span()? {
            self.stop(Stop::Exited, self.span.start.elapsed())?;
        }
        Ok(())
    }

    /// Whether the process's exit, just noticed, ended this span: not when stdout
    /// already read (or still in its pipe) holds the complete answer with the input
    /// all written. Then the process answered and died on what followed (a formula
    /// written ahead), and that formula's watch reports the exit. The answer and the
    /// exit are often noticed in the same poll; deciding by which is served first
    /// would blame the formula answered for the crash of the next one.
    fn exit_ends_this_span(&mut self) -> Result<bool, SupervisionFailure> {
        // The process has exited: its stdout holds at most a pipe's worth. A bound
        // keeps a child that escaped and floods the pipe from holding the watch here.
        for _ in 0..EXIT_DRAIN_READS {
            if !self.read_stdout()? {
                break;
            }
        }
        Ok(!(self.stdout.answered() && self.input_written()))
    }

    /// Reads what stdout holds now (closing it at its end) into the sink; whether
    /// there may be more to read.
    fn read_stdout(&mut self) -> Result<bool, SupervisionFailure> {
        let process = &mut *self.process;
        let Some(fd) = &process.stdout else {
            return Ok(false);
        };
        match read_some(fd, &mut process.buf).during("read stdout")? {
            Some(0) => {
                process.stdout = None;
                Ok(false)
            }
            Some(n) => {
                self.stdout.push(&process.buf[..n]);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Writes as much of the input as the stdin pipe takes; closes it when all is
    /// written ([`AfterInput::Close`]) or the process will read no more.
    fn feed_stdin(&mut self) -> Result<(), SupervisionFailure> {
        let Some(fd) = &self.process.stdin else {
            return Ok(());
        };
        match write_some(fd.as_raw_fd(), &mut self.input) {
            Ok(true) if self.after_input == AfterInput::Close => self.process.stdin = None,
            Ok(_) => {}
            // The process closed its stdin or exited: nothing more to send (its end is
            // noticed next).
            Err(e) if e.raw_os_error() == Some(libc::EPIPE) => {
                self.input = &[];
                if self.after_input == AfterInput::Close {
                    self.process.stdin = None;
                }
            }
            Err(e) => return Err(e).during("write stdin"),
        }
        Ok(())
    }

    /// After the answer: the OOM killer may have killed a process of the tree (not the
    /// solver) and the answer come anyway; the memory limit was reached during the
    /// span all the same (an OOM kill ends the process, so every one counted happened
    /// in this span). Else stderr written before the answer's end is read, which is
    /// in its pipe by now.
    fn after_answer(&mut self, watched: &mut Watched) -> Result<(), SupervisionFailure> {
        let process = &mut *self.process;
        if process.oom_killed() {
            watched.why = Stop::MemoryLimit;
            watched.ended = Some(process.kill_and_reap().during("wait4")?);
            return Ok(());
        }
        while let Some(fd) = &process.stderr {
            match read_some(fd, &mut process.buf).during("read stderr")? {
                Some(0) => process.stderr = None,
                Some(n) => self.stderr.push(&process.buf[..n]),
                None => break,
            }
        }
        Ok(())
    }
}

impl Watched {
    /// The outcome of the watched span, with its output and its CPU time and peak
    /// memory as the caller measured them; how it stopped is classified here, the same
    /// for a fresh call and a session's formula: a timeout, a cancel, the memory limit
    /// (with cgroups: a stop at it, or an OOM kill in the cgroup of a process that
    /// ended neither at a time limit nor by a cancel; without: see
    /// [`near_address_space_limit`]), and the exit code or signal of a process that
    /// ended.
    pub(crate) fn outcome(
        &self,
        process: &Contained<'_>,
        (stdout, stderr): (Capture, Capture),
        cpu: Duration,
        max_rss_kb: u64,
        limits: &Limits,
    ) -> CallOutcome {
        let (stdout, stdout_truncated) = stdout.finish();
        let (stderr, stderr_truncated) = stderr.finish();
        let timed_out = self.why.is_timeout();
        let cancelled = self.why == Stop::Cancelled;
        let mut outcome = CallOutcome {
            stdout,
            stderr,
            stdout_truncated,
            stderr_truncated,
            wall: self.wall,
            cpu,
            max_rss_kb,
            exit_code: self.ended.and_then(|e| e.exit_code),
            signal: self.ended.and_then(|e| e.signal),
            timed_out,
            starved: self.why == Stop::WallTimeout && limits.starves(timed_out, cpu),
            memory_limit_hit: false,
            cancelled,
            start_error: None,
        };
        outcome.memory_limit_hit = if process.in_cgroup() {
            self.why == Stop::MemoryLimit
                || (self.ended.is_some() && !timed_out && !cancelled && process.oom_killed())
        } else {
            near_address_space_limit(&outcome, limits)
        };
        outcome
    }
}

/// Writes as much of `bytes` as the pipe takes; returns true when all is written.
fn write_some(fd: RawFd, bytes: &mut &[u8]) -> io::Result<bool> {
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
