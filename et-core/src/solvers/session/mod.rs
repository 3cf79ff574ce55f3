//! A solver session: one long-lived solver process fed formula after formula, reset in
//! between, under the same supervision as a call ([`super::call`]).
//!
//! On et's smallest formulas a solver spends far longer starting than solving; a
//! session starts it once. [`Session::call`] is the drop-in for
//! [`run_call`](super::call::run_call): it takes the same script and [`Limits`] and
//! reports the same [`CallOutcome`] facts a fresh process gives for that formula:
//!
//! - **stdout** is what the solver printed for this formula: its answer, and the model
//!   if the script asked with `(get-model)` (a solver that ends on an error is asked
//!   only after `sat`, or prints each model by itself where its family can — cvc4 and
//!   cvc5's `--dump-models` —, so its session survives `unsat`; its stdout then lacks
//!   the error a fresh process prints for a model request after `unsat`). A session's
//!   scripts ask for models exactly when its command line does. The end of an answer is recognised by the
//!   line of an `(echo "et-session-N")` sent after the formula's commands (N counts
//!   the session's formulas, so a late echo can never end a later answer), never by a
//!   pause; the echo's line itself is not part of stdout. **stderr** is what arrived on
//!   stderr up to that line.
//! - **wall** runs from the moment the formula is written (for the first formula of a
//!   session, from the exec of the solver, as for a fresh call: a fresh call pays the
//!   start too) to the echo; **cpu** is the process tree's CPU time over that span (the
//!   cgroup's delta where cgroups are used, else the process's); **peak memory** is the
//!   tree's peak during the formula (a v1 cgroup's counter, or the process's high-water
//!   mark, is started afresh before each formula; a v2 cgroup keeps its peak since the
//!   session began, because `memory.peak` cannot be reset before Linux 6.12).
//! - **exit code and signal** are set only when the process ended during the formula;
//!   a session that goes on reports neither.
//! - The **limits** are the call's: the wall and CPU timeouts of the formula, the
//!   memory limit on the session's whole process tree (its own cgroup, or `RLIMIT_AS`
//!   without cgroups; a call with another memory limit gets a new session), capture
//!   bounds, cancel.
//!
//! Faults cost one formula's outcome and a new session, never more: a timeout, memout,
//! crash or exit kills the whole session (its cgroup) and reports that formula the way
//! a fresh call would report it (a solver that ends on an error never prints the echo;
//! its exit is noticed at once); the next formula gets a new process. Output that
//! arrives after an echo (nobody asked for it: the session is out of step) ends the
//! session before the next formula. A session is also restarted after
//! [`DEFAULT_RESTART_AFTER`] formulas (see there why).
//!
//! What a reset does not reset cannot be seen from here: a session may answer a
//! formula differently from a fresh process. That is why the caller confirms every
//! finding in a fresh process; this module reports what it saw.
//!
//! The session process dies with the thread that started it (`PR_SET_PDEATHSIG`, as
//! every call's solver): keep a session on one thread, as a campaign worker does.
//!
//! Families say how they run a session ([`Family::session`]); a family that cannot, or
//! one et does not know, runs fresh ([`Session::for_solver`] gives `None`).
//!
//! [`Family::session`]: super::family::Family::session

mod sentinel;

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::call::{
    hit_address_space_limit, poll_for, usable_cpus, write_pending, BoundedOutput, CallError,
    CallOutcome, Contained, Ended, Limits, Supervisor, CANCEL_POLL,
};
use super::family::{self, Echo, SessionProtocol};
use super::install;
use super::SolverConfig;
use sentinel::Sentinel;

/// Formulas a session answers before it is replaced by a new process. Measured with
/// `scripts/bench-session.sh` (z3 4.16.0 and cvc5 1.4.2 on ints and strings): the peak
/// memory of a formula grows with the formulas a session has answered (caches a reset
/// keeps); restarting every 1,000 formulas keeps that growth small while the start of a
/// new process costs a thousandth of the calls.
pub const DEFAULT_RESTART_AFTER: usize = 1000;

/// How long to keep reading the pipes after the session process ended (as a call).
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// What happened to a session's processes so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionStats {
    /// Processes started.
    pub started: u64,
    /// Formulas answered or ended (calls made).
    pub formulas: u64,
    /// Processes that ended during a formula (exit, crash, timeout, memout, cancel).
    pub ended_in_formula: u64,
    /// Processes ended because they printed output nobody asked for (out of step).
    pub out_of_step: u64,
    /// Processes replaced after [`Session::restart_after`] formulas or for a new
    /// memory limit.
    pub replaced: u64,
}

/// One solver run as a session; see the module documentation.
pub struct Session<'s> {
    supervisor: &'s Supervisor,
    /// The solver's command line with the family's session options.
    command: Vec<String>,
    /// What is written between two formulas (the reset and what it must restore).
    between: String,
    echo: Echo,
    restart_after: usize,
    /// The family's model request.
    model_request: &'static str,
    /// How a script's model request reaches the solver (see [`Session::call`]).
    models: Models,
    live: Option<Live<'s>>,
    /// Numbers the echoes of this session object, across its processes.
    echoes: u64,
    stats: SessionStats,
}

/// The process of a session and what it has done.
struct Live<'s> {
    process: Contained<'s>,
    memory_mb: Option<u64>,
    formulas: usize,
}

/// How a session passes on a script's model request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Models {
    /// With the formula, in one piece (a solver that goes on after an error).
    InScript,
    /// In a second step, only after `sat` (a solver that ends on an error).
    AfterSat,
    /// Not at all: the solver prints each model by itself
    /// ([`SessionProtocol::model_dump`]).
    Dumped,
}

/// What is sent to a session process: a formula (after a reset), or the model request
/// for the formula it just answered `sat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Formula,
    ModelRequest,
}

/// What one formula's exchange observed.
struct Exchange {
    outcome: CallOutcome,
    /// The process is still alive and in step.
    goes_on: bool,
}

impl<'s> Session<'s> {
    /// A session of the solver `command` (as it runs fresh: program, options; models
    /// options included when the scripts ask for models) speaking `protocol`, under
    /// `supervisor`. No process starts until the first [`Session::call`].
    pub fn new(
        supervisor: &'s Supervisor,
        command: &[String],
        protocol: SessionProtocol,
    ) -> Session<'s> {
        Session {
            supervisor,
            command: protocol.command(command),
            between: protocol.between_formulas(command),
            echo: protocol.echo,
            restart_after: DEFAULT_RESTART_AFTER,
            model_request: family::SMTLIB_MODEL_REQUEST,
            models: if protocol.dumps_models(command) {
                Models::Dumped
            } else if protocol.ends_on_error {
                Models::AfterSat
            } else {
                Models::InScript
            },
            live: None,
            echoes: 0,
            stats: SessionStats::default(),
        }
    }

    /// Replaces the process after `formulas` formulas (at least 1).
    pub fn restart_after(mut self, formulas: usize) -> Session<'s> {
        self.restart_after = formulas.max(1);
        self
    }

    /// The command line the session process runs.
    pub fn command(&self) -> &[String] {
        &self.command
    }

    /// What happened so far.
    pub fn stats(&self) -> SessionStats {
        self.stats
    }

    /// Whether a session process is running.
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    /// Ends the session process, if one runs (the next call starts a new one).
    pub fn end(&mut self) {
        // Dropping the process kills its tree and reaps it.
        self.live = None;
    }

    /// Runs `script` (the formula as a fresh call would get it: prelude, formula,
    /// model request) in the session and reports the formula's outcome; see the module
    /// documentation. Blocks until the answer's echo, the process's end or a limit.
    ///
    /// For a solver that ends on an error ([`SessionProtocol::ends_on_error`]: yices,
    /// bitwuzla), a script that ends in the model request is sent in two steps: the
    /// formula, then the request only if the answer was `sat`. A fresh process asked
    /// for a model after `unsat` prints an error; in a session that error would cost a
    /// new process for every `unsat` answer. The two steps share the call's limits (the
    /// second gets what the first left) and are reported as one outcome.
    ///
    /// A solver that prints each model by itself (cvc4, cvc5 with `--dump-models`) gets
    /// the script without its model request, in one step.
    pub fn call(&mut self, script: &str, limits: &Limits) -> Result<CallOutcome, CallError> {
        self.stats.formulas += 1;
        let formula = match self.models {
            Models::InScript => None,
            Models::Dumped | Models::AfterSat => self.without_model_request(script),
        };
        let Some(formula) = formula else {
            return self.send(script, limits, Step::Formula);
        };
        if self.models == Models::Dumped {
            return self.send(formula, limits, Step::Formula);
        }
        let answer = self.send(formula, limits, Step::Formula)?;
        if !self.is_live() || last_line(&answer.stdout) != Some(&b"sat"[..]) {
            return Ok(answer);
        }
        let left = Limits {
            timeout: limits.timeout.saturating_sub(answer.wall),
            cpu_timeout: limits.cpu_timeout.map(|c| c.saturating_sub(answer.cpu)),
            ..limits.clone()
        };
        let request = format!("{}\n", self.model_request);
        let model = self.send(&request, &left, Step::ModelRequest)?;
        Ok(joined(answer, model))
    }

    /// `script` without its last line when that line is the model request.
    fn without_model_request<'a>(&self, script: &'a str) -> Option<&'a str> {
        let body = script.trim_end();
        let cut = body.rfind('\n').map_or(0, |i| i + 1);
        (body[cut..].trim() == self.model_request).then(|| &script[..cut])
    }

    /// Sends `script` to the session process and reads until its echo, the process's
    /// end or a limit. A formula starts a process if none runs, or replaces it when
    /// due; the model request goes to the process that answered the formula.
    fn send(
        &mut self,
        script: &str,
        limits: &Limits,
        step: Step,
    ) -> Result<CallOutcome, CallError> {
        if step == Step::ModelRequest && self.live.is_none() {
            return Ok(CallOutcome::not_started(
                "the session ended before the model request".to_string(),
            ));
        }
        if let (Some(live), Step::Formula) = (&self.live, step) {
            if live.memory_mb != limits.memory_mb || live.formulas >= self.restart_after {
                self.stats.replaced += 1;
                self.end();
            } else if out_of_step(&live.process) {
                self.stats.out_of_step += 1;
                self.end();
            }
        }
        let first = self.live.is_none();
        if first {
            match self
                .supervisor
                .start_contained(&self.command, limits.memory_mb)?
            {
                Ok(process) => {
                    self.stats.started += 1;
                    self.live = Some(Live {
                        process,
                        memory_mb: limits.memory_mb,
                        formulas: 0,
                    });
                }
                Err(why) => return Ok(CallOutcome::not_started(why)),
            }
        }
        self.echoes += 1;
        let echo = format!("et-session-{}", self.echoes);
        let lead = format!("{echo}-lead");
        let between = !first && step == Step::Formula;
        let mut input = String::with_capacity(script.len() + self.between.len() + 80);
        if between {
            // Whatever the solver prints before this echo is late output of the last
            // formula (see `sentinel`).
            input.push_str(&format!("(echo \"{lead}\")\n"));
            input.push_str(&self.between);
        }
        input.push_str(script);
        if !script.ends_with('\n') {
            input.push('\n');
        }
        input.push_str(&format!("(echo \"{echo}\")\n"));
        let live = self.live.as_mut().expect("a live session was just ensured");
        let exchange = exchange(
            &mut live.process,
            input.as_bytes(),
            between.then(|| self.echo.line(&lead)),
            self.echo.line(&echo),
            limits,
            first,
            &self.command[0],
        );
        match exchange {
            Ok(Exchange {
                outcome,
                goes_on: true,
            }) => {
                if step == Step::Formula {
                    live.formulas += 1;
                }
                Ok(outcome)
            }
            Ok(Exchange { outcome, .. }) => {
                if outcome.exit_code.is_some() || outcome.signal.is_some() {
                    self.stats.ended_in_formula += 1;
                } else {
                    self.stats.out_of_step += 1;
                }
                self.end();
                Ok(outcome)
            }
            Err(e) => {
                self.end();
                Err(e)
            }
        }
    }

    /// A session of `solver` running as `command` (its command line, with model options
    /// if the scripts ask for models) under et's supervisor, if the solver's family can
    /// run one; `None` runs it fresh.
    pub fn for_solver(solver: &SolverConfig, command: &[String]) -> Option<Session<'static>> {
        let protocol = install::session_of(solver)?;
        let mut session = Session::new(Supervisor::global(), command, protocol);
        session.model_request = solver.family_info().model_request();
        Some(session)
    }
}

/// Whether anything arrived on the process's stdout or stderr since the last echo, or
/// they were closed: output nobody asked for, so the session is out of step.
fn out_of_step(process: &Contained<'_>) -> bool {
    [process.stdout.as_ref(), process.stderr.as_ref()]
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

/// Reads what `fd` has now (non-blocking) into `buf`: `Some(0)` at end of file, `None`
/// when nothing is there.
fn read_now(fd: &OwnedFd, buf: &mut [u8]) -> std::io::Result<Option<usize>> {
    loop {
        // SAFETY: reading at most `buf.len()` bytes into `buf`.
        let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n >= 0 {
            return Ok(Some(n as usize));
        }
        let e = std::io::Error::last_os_error();
        match e.kind() {
            std::io::ErrorKind::Interrupted => continue,
            std::io::ErrorKind::WouldBlock => return Ok(None),
            _ => return Err(e),
        }
    }
}

/// Writes `input` to the session process and reads until the `echo` line, the end of
/// the process or a limit; `first` when the process was started for this formula.
fn exchange(
    process: &mut Contained<'_>,
    input: &[u8],
    lead: Option<String>,
    echo: String,
    limits: &Limits,
    first: bool,
    program: &str,
) -> Result<Exchange, CallError> {
    let sup = |what: &'static str| {
        let program = program.to_string();
        move |source: std::io::Error| CallError::Supervise {
            program,
            what,
            source,
        }
    };
    process.restart_peak();
    let (start, cpu_before) = if first {
        (process.started, Duration::ZERO)
    } else {
        (Instant::now(), process.cpu_used())
    };
    let deadline = start + limits.timeout;
    let cpus = usable_cpus();
    let mut next_cpu_check = limits.cpu_timeout.map(|cpu| start + cpu / cpus);
    let mut pending = input;
    let mut out = BoundedOutput::new(limits.capture_bytes);
    let mut err = BoundedOutput::new(limits.capture_bytes);
    let mut sentinel = Sentinel::new(lead, echo);
    let mut buf = vec![0u8; 64 * 1024];
    let mut ended: Option<Ended> = None;
    let mut wall = Duration::ZERO;
    let (mut timed_out, mut cancelled, mut oom) = (false, false, false);
    let mut drain_deadline = deadline;

    loop {
        // 1. Has the process ended, or a limit passed?
        if ended.is_none()
            && process.pidfd().is_none()
            && process.exited().map_err(sup("waitid"))?
        {
            wall = start.elapsed();
            ended = Some(process.kill_and_reap().map_err(sup("wait4"))?);
            drain_deadline = Instant::now() + DRAIN_GRACE;
        }
        let now = Instant::now();
        if ended.is_none() && !sentinel.seen() && now >= deadline {
            wall = now - start;
            timed_out = true;
            ended = Some(process.kill_and_reap().map_err(sup("wait4"))?);
            drain_deadline = Instant::now() + DRAIN_GRACE;
        }
        if let (None, false, Some(limit), Some(at)) =
            (&ended, sentinel.seen(), limits.cpu_timeout, next_cpu_check)
        {
            if now >= at {
                let used = process.cpu_used().saturating_sub(cpu_before);
                if used >= limit {
                    wall = now - start;
                    timed_out = true;
                    ended = Some(process.kill_and_reap().map_err(sup("wait4"))?);
                    drain_deadline = Instant::now() + DRAIN_GRACE;
                } else {
                    let wait = ((limit - used) / cpus).max(Duration::from_millis(1));
                    next_cpu_check = Some(now + wait);
                }
            }
        }
        let cancel = limits.cancel.as_ref();
        if ended.is_none() && !sentinel.seen() && cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        {
            wall = now - start;
            cancelled = true;
            ended = Some(process.kill_and_reap().map_err(sup("wait4"))?);
            drain_deadline = Instant::now();
        }
        if sentinel.seen() && ended.is_none() {
            wall = start.elapsed();
            break;
        }
        let open = process.stdout.is_some() || process.stderr.is_some();
        if ended.is_some() && (!open || Instant::now() >= drain_deadline) {
            break;
        }

        // 2. Wait for the next event.
        let unused = libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        };
        let mut fds = [unused; 5];
        let mut slots = [usize::MAX; 5]; // stdout, stderr, stdin, pidfd, oom
        let mut nfds = 0;
        let mut push = |slot: usize, fd: RawFd, events: libc::c_short| {
            slots[slot] = nfds;
            fds[nfds] = libc::pollfd {
                fd,
                events,
                revents: 0,
            };
            nfds += 1;
        };
        if let Some(fd) = &process.stdout {
            push(0, fd.as_raw_fd(), libc::POLLIN);
        }
        if let Some(fd) = &process.stderr {
            push(1, fd.as_raw_fd(), libc::POLLIN);
        }
        if ended.is_none() {
            if let (Some(fd), false) = (&process.stdin, pending.is_empty()) {
                push(2, fd.as_raw_fd(), libc::POLLOUT);
            }
            if let Some(fd) = process.pidfd() {
                push(3, fd, libc::POLLIN);
            }
            if let Some((fd, events)) = process.oom_poll() {
                push(4, fd, events);
            }
        }
        let mut until = if ended.is_some() {
            drain_deadline
        } else {
            deadline
        };
        if ended.is_none() {
            if let Some(at) = next_cpu_check {
                until = until.min(at);
            }
        }
        let mut wait = until.saturating_duration_since(Instant::now());
        if ended.is_none() && process.pidfd().is_none() {
            wait = wait.min(Duration::from_millis(1));
        }
        if ended.is_none() && limits.cancel.is_some() {
            wait = wait.min(CANCEL_POLL);
        }
        if !poll_for(&mut fds[..nfds], wait).map_err(sup("ppoll"))? {
            continue;
        }
        let ready = |slot: usize| slots[slot] != usize::MAX && fds[slots[slot]].revents != 0;

        // 3. Serve what is ready.
        if ready(0) {
            if let Some(fd) = &process.stdout {
                match read_now(fd, &mut buf).map_err(sup("read stdout"))? {
                    Some(0) => process.stdout = None,
                    Some(n) => sentinel.feed(&buf[..n], |b| out.push(b)),
                    None => {}
                }
            }
        }
        if ready(1) {
            if let Some(fd) = &process.stderr {
                match read_now(fd, &mut buf).map_err(sup("read stderr"))? {
                    Some(0) => process.stderr = None,
                    Some(n) => err.push(&buf[..n]),
                    None => {}
                }
            }
        }
        if ready(2) {
            if let Some(fd) = &process.stdin {
                match write_pending(fd.as_raw_fd(), &mut pending) {
                    Ok(_) => {}
                    // The solver closed its stdin or exited: its end is noticed next.
                    Err(e) if e.raw_os_error() == Some(libc::EPIPE) => pending = &[],
                    Err(e) => return Err(sup("write stdin")(e)),
                }
            }
        }
        if ready(4) && ended.is_none() && process.oom_killed() {
            // Reaching the memory limit ends the session, as it ends a call.
            oom = true;
            wall = start.elapsed();
            ended = Some(process.kill_and_reap().map_err(sup("wait4"))?);
            drain_deadline = Instant::now() + DRAIN_GRACE;
        }
        if ready(3) && ended.is_none() {
            wall = start.elapsed();
            ended = Some(process.kill_and_reap().map_err(sup("wait4"))?);
            drain_deadline = Instant::now() + DRAIN_GRACE;
        }
    }

    // The OOM killer may have killed a process of the tree (not the solver) and the
    // echo come anyway: the memory limit was reached during this formula all the same
    // (an OOM kill ends a session, so every one counted happened in this formula).
    if ended.is_none() && process.oom_killed() {
        oom = true;
        ended = Some(process.kill_and_reap().map_err(sup("wait4"))?);
    }
    // stderr written before the echo is in its pipe by now.
    if ended.is_none() {
        if let Some(fd) = &process.stderr {
            while let Some(n) = read_now(fd, &mut buf).map_err(sup("read stderr"))? {
                if n == 0 {
                    process.stderr = None;
                    break;
                }
                err.push(&buf[..n]);
            }
        }
    }
    let rest = sentinel.rest();
    out.push(&rest);
    let (cpu, max_rss_kb) = match (&ended, process.in_cgroup()) {
        // Without a cgroup, a reaped process's counters are its rusage (its whole life).
        (Some(end), false) => (end.cpu.saturating_sub(cpu_before), end.max_rss_kb),
        _ => (
            process.cpu_used().saturating_sub(cpu_before),
            process.peak_memory_kb(),
        ),
    };
    if ended.is_some() && process.in_cgroup() && !timed_out && !cancelled {
        oom = oom || process.oom_killed();
    }
    let (stdout, stdout_truncated) = out.finish();
    let (stderr, stderr_truncated) = err.finish();
    let mut outcome = CallOutcome {
        stdout,
        stderr,
        stdout_truncated,
        stderr_truncated,
        wall,
        cpu,
        max_rss_kb,
        exit_code: ended.and_then(|e| e.exit_code),
        signal: ended.and_then(|e| e.signal),
        timed_out,
        memory_limit_hit: oom,
        cancelled,
        start_error: None,
    };
    if !process.in_cgroup() {
        outcome.memory_limit_hit = hit_address_space_limit(&outcome, limits);
    }
    Ok(Exchange {
        goes_on: ended.is_none() && sentinel.unasked() == 0,
        outcome,
    })
}

/// The last non-empty line of `output`, trimmed.
fn last_line(output: &[u8]) -> Option<&[u8]> {
    output
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .rfind(|l| !l.is_empty())
}

/// One outcome of a formula's answer and its model request's: outputs one after the
/// other, times added, the larger peak, and how the second ended.
fn joined(answer: CallOutcome, model: CallOutcome) -> CallOutcome {
    let mut stdout = answer.stdout;
    stdout.extend_from_slice(&model.stdout);
    let mut stderr = answer.stderr;
    stderr.extend_from_slice(&model.stderr);
    CallOutcome {
        stdout,
        stderr,
        stdout_truncated: answer.stdout_truncated || model.stdout_truncated,
        stderr_truncated: answer.stderr_truncated || model.stderr_truncated,
        wall: answer.wall + model.wall,
        cpu: answer.cpu + model.cpu,
        max_rss_kb: answer.max_rss_kb.max(model.max_rss_kb),
        ..model
    }
}
