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
//!   clock reading ([`spawn::exec_instant`]): neither et's set-up before it (joining a cgroup
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
//!
//! A call goes through named steps: a cgroup for it ([`cgroup`]), the solver started
//! inside it ([`spawn`]) as a [`Contained`] process ([`contained`]), watched until it
//! stops for one [`watch::Stop`] reason ([`watch`], reading through [`capture`],
//! killing and reaping through [`process`]), and the outcome measured
//! ([`CallOutcome`]). A solver session (`solvers::session`) takes the same steps with
//! one process for many formulas: [`Contained::watch`] is the one supervision loop of
//! both, and [`watch::Watched::outcome`] the one classification of how it stopped.

mod capture;
mod cgroup;
mod contained;
mod process;
mod raw;
mod spawn;
mod watch;
mod watchdog;

use std::io;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use cgroup::Cgroups;
use watch::Watched;

pub(crate) use capture::Capture;
pub(crate) use contained::{Contained, Span};
pub(crate) use watch::{AfterInput, StdoutSink};

/// Default cap on the bytes kept from each of stdout and stderr (1 MiB).
pub const DEFAULT_CAPTURE_BYTES: usize = 1 << 20;

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

/// Waits up to `wait` for an event on `fds` (`ppoll`); `Ok(false)` when a signal
/// interrupted the wait (the caller looks at its state again).
pub(crate) fn poll_for(fds: &mut [libc::pollfd], wait: Duration) -> std::io::Result<bool> {
    let ts = libc::timespec {
        tv_sec: wait.as_secs() as libc::time_t,
        tv_nsec: wait.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `fds` is a live slice of initialised pollfd records, `ts` a valid
    // timespec, and a null signal mask means "keep the current one".
    let n = unsafe {
        libc::ppoll(
            fds.as_mut_ptr(),
            fds.len() as libc::nfds_t,
            &ts,
            std::ptr::null(),
        )
    };
    if n >= 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    if e.kind() == std::io::ErrorKind::Interrupted {
        Ok(false)
    } else {
        Err(e)
    }
}

/// The CPUs this process may run on, asked once: a call's tree cannot use CPU time
/// faster than that, so a CPU limit is first checked after `limit / cpus` of wall
/// time. (Asking costs several file reads under cgroups: too much for every call.)
pub(crate) fn usable_cpus() -> u32 {
    static CPUS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()) as u32)
}

/// The share of the wall-clock limit a call without a smaller CPU-time limit must have
/// computed for, when that limit stops it, to count as a timeout ([`Limits::starves`]).
/// A solver that computes alone on its CPU uses nearly all of it; one that got less than
/// half was kept from computing.
pub const STARVED_SHARE: f64 = 0.5;

impl Limits {
    /// The CPU time a call stopped by one of these limits has used when it timed out by
    /// computing: the CPU-time limit when it is the smaller one (the wall-clock limit is
    /// then a safety net above it), else [`STARVED_SHARE`] of the wall-clock limit.
    pub fn cpu_budget(&self) -> Duration {
        match self.cpu_timeout {
            Some(cpu) if cpu < self.timeout => cpu,
            _ => self.timeout.mul_f64(STARVED_SHARE),
        }
    }

    /// Whether a call that `timed_out` after `cpu` of CPU time was starved: stopped by
    /// the wall clock with less CPU than [`Limits::cpu_budget`].
    pub fn starves(&self, timed_out: bool, cpu: Duration) -> bool {
        timed_out && cpu < self.cpu_budget()
    }

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
    /// It was killed at the wall-clock limit having used less CPU than it may
    /// ([`Limits::starves`]): it waited rather than computed. On a machine loaded by
    /// other work that is waiting for a CPU, which says nothing about the solver: such a
    /// call is made once more ([`Supervisor::call`]), and one starved again is
    /// classified `starved`, never `timeout`.
    pub starved: bool,
    /// The memory limit was reached: with cgroups, the kernel's OOM killer acted in the
    /// call's cgroup (the call is then ended); without, a fatal signal with the peak
    /// resident set within 10% of the address-space limit. Out-of-memory *messages* are
    /// the oracle's business.
    pub memory_limit_hit: bool,
    /// The call was cancelled (its [`Limits::cancel`] flag was set) and killed: it says
    /// nothing about the solver.
    pub cancelled: bool,
    /// The solver could not be started, and why (exec failed, or a session had no
    /// process to make the call in).
    pub start_error: Option<String>,
}

impl CallOutcome {
    /// Killed by a SIGKILL that et did not send: not at a limit, not cancelled, not
    /// et's memory limit (an operator's `kill -9`, the kernel's OOM killer acting for
    /// the whole machine). It says nothing about the solver; [`run_call`] makes such a
    /// call again.
    pub fn killed_from_outside(&self) -> bool {
        self.signal == Some(libc::SIGKILL)
            && !self.timed_out
            && !self.memory_limit_hit
            && !self.cancelled
            && self.start_error.is_none()
    }

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

/// Runs a call under [`Supervisor::global`]: [`Supervisor::call`].
pub fn run_call(
    command: &[String],
    input: Input<'_>,
    limits: &Limits,
) -> Result<CallOutcome, CallError> {
    Supervisor::global().call(command, input, limits)
}

impl Supervisor {
    /// Makes a call: [`Supervisor::run`], made again where its outcome says nothing
    /// about the solver.
    ///
    /// A starved call ([`CallOutcome::starved`]: stopped by the wall clock before it
    /// used its CPU budget) is made once more, and the second outcome is the call's:
    /// the solver was waiting rather than computing — on a machine loaded by other work,
    /// waiting for a CPU, which says nothing about the solver and must not become a
    /// `timeout` finding. One starved again stays starved (classified `starved`: the
    /// machine was too busy to judge it, or the solver waits without computing), never
    /// a timeout.
    ///
    /// A call killed from outside ([`CallOutcome::killed_from_outside`]) is made again, up
    /// to [`OUTSIDE_KILL_RETRIES`] times: the kill says nothing about the solver. One that
    /// is killed every time keeps that outcome (classified `killed`, never a finding).
    pub fn call(
        &self,
        command: &[String],
        input: Input<'_>,
        limits: &Limits,
    ) -> Result<CallOutcome, CallError> {
        let mut outcome = self.run(command, input, limits)?;
        let mut retries = 0;
        while outcome.killed_from_outside() && retries < OUTSIDE_KILL_RETRIES {
            retries += 1;
            outcome = self.run(command, input, limits)?;
        }
        if outcome.starved {
            return self.run(command, input, limits);
        }
        Ok(outcome)
    }
}

/// How many times [`run_call`] makes a call again that something outside et killed.
pub const OUTSIDE_KILL_RETRIES: u32 = 3;

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
        self.contain_and_watch(command, input, limits, use_pidfd)
            .map_err(|failure| failure.into_call_error(program))
    }

    /// The steps of a call: the solver started contained (in a cgroup of its own when
    /// cgroups are used), watched until it stops, and the outcome measured.
    fn contain_and_watch(
        &self,
        command: &[String],
        input: Input<'_>,
        limits: &Limits,
        use_pidfd: bool,
    ) -> Result<CallOutcome, SupervisionFailure> {
        let mut process = match self.contain(command, input, limits, use_pidfd)? {
            Ok(process) => process,
            Err(why) => return Ok(CallOutcome::not_started(why)),
        };
        let bytes = match input {
            Input::Stdin(bytes) => bytes,
            Input::File(_) => &[],
        };
        let span = process.span_since_exec();
        let mut stdout = Capture::new(limits.capture_bytes);
        let mut stderr = Capture::new(limits.capture_bytes);
        let watched = process.watch(
            bytes,
            AfterInput::Close,
            span,
            limits,
            &mut stdout,
            &mut stderr,
        )?;
        Ok(measure(watched, &process, (stdout, stderr), limits))
    }
}

/// A system call that failed while supervising a call: what it was, and why.
pub(crate) struct SupervisionFailure {
    what: &'static str,
    source: io::Error,
}

impl SupervisionFailure {
    /// The call's error, naming the program it was supervising.
    pub(crate) fn into_call_error(self, program: &str) -> CallError {
        CallError::Supervise {
            program: program.to_string(),
            what: self.what,
            source: self.source,
        }
    }
}

/// Names the system call of an [`io::Result`]'s error.
trait During<T> {
    fn during(self, what: &'static str) -> Result<T, SupervisionFailure>;
}

impl<T> During<T> for io::Result<T> {
    fn during(self, what: &'static str) -> Result<T, SupervisionFailure> {
        self.map_err(|source| SupervisionFailure { what, source })
    }
}

/// The outcome of a call whose process ended: its captured output, its wall time, and
/// its CPU time and peak memory over its whole life (the cgroup's, never less than the
/// reaped child's largest resident set; else the reaped child's rusage).
fn measure(
    watched: Watched,
    process: &Contained<'_>,
    output: (Capture, Capture),
    limits: &Limits,
) -> CallOutcome {
    let ended = watched
        .ended
        .expect("a call's watch ends only after its process ended");
    let (cpu, max_rss_kb) = match process.cgroup() {
        // The tree's peak, and never less than the solver's own largest resident set:
        // a reused v1 cgroup's peak is counted from the memory it still held when the
        // call began, and what the kernel uncharges of that during the call could
        // hide a small solver's memory.
        Some(cg) => (
            cg.cpu_usage(),
            cg.peak_memory_kb()
                .map_or(ended.max_rss_kb, |peak| peak.max(ended.max_rss_kb)),
        ),
        None => (ended.cpu, ended.max_rss_kb),
    };
    watched.outcome(process, output, cpu, max_rss_kb, limits)
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
