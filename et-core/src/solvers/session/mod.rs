//! A solver session: one long-lived solver process fed formula after formula, reset in
//! between, watched by the same loop as a call ([`super::call`]): this module only
//! frames its input (the formula, the model request, the echoes, the reset) and its
//! output (split at the echoes), and measures each formula.
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
//!   a session that goes on reports neither. A formula whose echo was read before the
//!   process's end was answered, even when the end is noticed at the same moment: the
//!   process died on what followed (the formula written ahead reports it).
//! - The **limits** are the call's: the wall and CPU timeouts of the formula, the
//!   memory limit on the session's whole process tree (its own cgroup, or `RLIMIT_AS`
//!   without cgroups; a call with another memory limit gets a new session), capture
//!   bounds, cancel.
//!
//! **One formula ahead.** A caller that knows the next formula says so
//! ([`Session::call_then`]): its input is written behind the current formula's, so the
//! solver goes on to it the moment it has answered, instead of waiting for et to read
//! the answer and write again (a solver blocked on its input between formulas pays a
//! sleep and a wake-up per formula, and et's reaction time is added to each one's
//! wall). The formula written ahead is measured from the moment its predecessor's echo
//! is read: its wall and timeout start there, its CPU time is the tree's from the same
//! reading of the counter (so a formula's CPU time may hold the first microseconds of
//! the next, never lose any), and its output is what followed that echo. A formula
//! written ahead that the next call does not ask for, or a process that ends, drops it:
//! the session is ended and the next formula gets a new process. Solvers that end on an
//! error ([`SessionProtocol::ends_on_error`]) are asked for models only after `sat`,
//! so nothing is written ahead to them.
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

use super::call::Span;
use super::call::{
    AfterInput, CallError, CallOutcome, Capture, Contained, Limits, StdoutSink, Supervisor,
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
    /// How formulas are framed in the input.
    framing: Echoes,
    restart_after: usize,
    /// The family's model request.
    model_request: &'static str,
    /// How a script's model request reaches the solver (see [`Session::call`]).
    models: Models,
    live: Option<Live<'s>>,
    stats: SessionStats,
}

/// How formulas are framed in a session's input: the echoes that mark where each
/// answer ends, and what is written between two formulas.
struct Echoes {
    /// The reset and what it must restore.
    between: String,
    echo: Echo,
    /// Numbers the echoes of this session object, across its processes.
    count: u64,
}

impl Echoes {
    /// Appends `script` to `input`, framed: after a lead echo and the reset when it
    /// comes `after_another` formula, followed by its echo. Returns the lead's and the
    /// echo's names.
    fn frame(
        &mut self,
        input: &mut String,
        script: &str,
        after_another: bool,
    ) -> (Option<String>, String) {
        self.count += 1;
        let echo = format!("et-session-{}", self.count);
        let lead = after_another.then(|| format!("{echo}-lead"));
        if let Some(lead) = &lead {
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
        (lead, echo)
    }
}

/// A formula written to the live process ahead of its call.
struct Ahead {
    /// What was written for it (the script as the session sends it, without framing).
    text: String,
    /// Its lead and closing echo names.
    lead: String,
    echo: String,
    /// From when it is measured: the reading taken at its predecessor's echo.
    span: Span,
    /// Stdout that came after its predecessor's echo: the start of its answer.
    carried: Vec<u8>,
}

/// The process of a session and what it has done.
struct Live<'s> {
    process: Contained<'s>,
    memory_mb: Option<u64>,
    formulas: usize,
    /// The next formula, already written (see [`Session::call_then`]).
    ahead: Option<Ahead>,
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
    /// Where the next formula's measure starts: the reading taken at this one's echo.
    next_span: Span,
    /// Stdout that came after the echo (kept only when a formula was written ahead).
    after: Vec<u8>,
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
            framing: Echoes {
                between: protocol.between_formulas(command),
                echo: protocol.echo,
                count: 0,
            },
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

    /// Whether a formula is written ahead ([`Session::call_then`]): the process may be
    /// working on it now, and its wall clock runs.
    pub fn is_ahead(&self) -> bool {
        self.live.as_ref().is_some_and(|l| l.ahead.is_some())
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
        self.call_then(script, None, limits)
    }

    /// [`Session::call`], writing `next` (the script of the formula the next call will
    /// make) behind this one's input, so that the solver goes on to it without waiting;
    /// see the module documentation. A next call that makes another script ends the
    /// session first.
    pub fn call_then(
        &mut self,
        script: &str,
        next: Option<&str>,
        limits: &Limits,
    ) -> Result<CallOutcome, CallError> {
        self.stats.formulas += 1;
        let formula = match self.models {
            Models::InScript => None,
            Models::Dumped | Models::AfterSat => self.without_model_request(script),
        };
        let Some(formula) = formula else {
            return self.send(script, limits, Step::Formula, next);
        };
        if self.models == Models::Dumped {
            let next = next.map(|n| self.without_model_request(n).unwrap_or(n));
            return self.send(formula, limits, Step::Formula, next);
        }
        let answer = self.send(formula, limits, Step::Formula, None)?;
        if !self.is_live() || last_line(&answer.stdout) != Some(&b"sat"[..]) {
            return Ok(answer);
        }
        let left = Limits {
            timeout: limits.timeout.saturating_sub(answer.wall),
            cpu_timeout: limits.cpu_timeout.map(|c| c.saturating_sub(answer.cpu)),
            ..limits.clone()
        };
        let request = format!("{}\n", self.model_request);
        let model = self.send(&request, &left, Step::ModelRequest, None)?;
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
    /// due; the model request goes to the process that answered the formula. `next`,
    /// if given, is written behind `script` when the same process will answer it.
    fn send(
        &mut self,
        script: &str,
        limits: &Limits,
        step: Step,
        next: Option<&str>,
    ) -> Result<CallOutcome, CallError> {
        if step == Step::ModelRequest && self.live.is_none() {
            return Ok(CallOutcome::not_started(
                "the session ended before the model request".to_string(),
            ));
        }
        if let (Some(live), Step::Formula) = (&mut self.live, step) {
            let written = live.ahead.as_ref().map(|a| a.text == script);
            if live.memory_mb != limits.memory_mb
                || live.formulas >= self.restart_after
                || written == Some(false)
            {
                self.stats.replaced += 1;
                self.end();
            } else if written.is_none() && live.process.has_unread_output() {
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
                        ahead: None,
                    });
                }
                Err(why) => return Ok(CallOutcome::not_started(why)),
            }
        }
        let live = self.live.as_mut().expect("a live session was just ensured");
        let mut input = String::new();
        let (lead, echo, span, carried) = match live.ahead.take() {
            Some(ahead) => (
                Some(ahead.lead),
                ahead.echo,
                Some(ahead.span),
                ahead.carried,
            ),
            None => {
                let (lead, echo) =
                    self.framing
                        .frame(&mut input, script, !first && step == Step::Formula);
                (lead, echo, None, Vec::new())
            }
        };
        // The next formula goes behind this one when this process will answer it.
        let ahead = next
            .filter(|_| step == Step::Formula && live.formulas + 1 < self.restart_after)
            .map(|next| {
                let (lead, echo) = self.framing.frame(&mut input, next, true);
                (
                    next.to_string(),
                    lead.expect("a formula after another has a lead"),
                    echo,
                )
            });
        let span = span.unwrap_or_else(|| {
            live.process.restart_peak();
            if first {
                live.process.span_since_exec()
            } else {
                live.process.span_from_now()
            }
        });
        let exchange = exchange(
            &mut live.process,
            Framing {
                input: input.as_bytes(),
                lead: lead.map(|l| self.framing.echo.line(&l)),
                echo: self.framing.echo.line(&echo),
                carried: &carried,
                keep_after: ahead.is_some(),
            },
            span,
            limits,
            &self.command[0],
        );
        match exchange {
            Ok(Exchange {
                outcome,
                goes_on: true,
                next_span,
                after,
            }) => {
                if step == Step::Formula {
                    live.formulas += 1;
                }
                live.ahead = ahead.map(|(text, lead, echo)| Ahead {
                    text,
                    lead,
                    echo,
                    span: next_span,
                    carried: after,
                });
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

/// A formula's stdout, split at its echoes: the bytes between the lead and the closing
/// echo are kept, the answer is complete at the closing echo's line.
struct Framed {
    sentinel: Sentinel,
    out: Capture,
}

impl StdoutSink for Framed {
    fn push(&mut self, bytes: &[u8]) {
        let out = &mut self.out;
        self.sentinel.feed(bytes, |b| out.push(b));
    }

    fn answered(&self) -> bool {
        self.sentinel.seen()
    }
}

/// What one exchange writes and reads: the input, and the echo lines that frame the
/// formula's answer in the output.
struct Framing<'f> {
    input: &'f [u8],
    /// The lead's line (a formula after another), the closing echo's line.
    lead: Option<String>,
    echo: String,
    /// Stdout that arrived before the exchange (after the previous formula's echo).
    carried: &'f [u8],
    /// A formula was written ahead: stdout after the echo is its, kept.
    keep_after: bool,
}

/// Writes the input to the session process and watches it (as a call is watched)
/// until the echo line, the end of the process or a limit, measuring from `span`. The
/// formula's CPU time and peak memory are measured here, from the outside, as what the
/// process used since the formula began.
fn exchange(
    process: &mut Contained<'_>,
    framing: Framing<'_>,
    span: Span,
    limits: &Limits,
    program: &str,
) -> Result<Exchange, CallError> {
    let mut stdout = Framed {
        sentinel: Sentinel::new(framing.lead, framing.echo, framing.keep_after),
        out: Capture::new(limits.capture_bytes),
    };
    stdout.push(framing.carried);
    let mut stderr = Capture::new(limits.capture_bytes);
    let watched = process
        .watch(
            framing.input,
            AfterInput::KeepOpen,
            span,
            limits,
            &mut stdout,
            &mut stderr,
        )
        .map_err(|failure| failure.into_call_error(program))?;
    let Framed {
        mut sentinel,
        mut out,
    } = stdout;
    out.push(&sentinel.rest());
    let next_span = process.span_from_now();
    let (cpu, max_rss_kb) = match (&watched.ended, process.in_cgroup()) {
        // Without a cgroup, a reaped process's counters are its rusage (its whole life).
        (Some(end), false) => (end.cpu.saturating_sub(span.cpu_before), end.max_rss_kb),
        _ => (
            next_span.cpu_before.saturating_sub(span.cpu_before),
            process.peak_memory_kb(),
        ),
    };
    let goes_on = watched.ended.is_none() && sentinel.unasked() == 0;
    if goes_on && framing.keep_after {
        // The formula written ahead is running: its peak is measured from here.
        process.restart_peak();
    }
    Ok(Exchange {
        outcome: watched.outcome(process, (out, stderr), cpu, max_rss_kb, limits),
        goes_on,
        next_span,
        after: sentinel.take_after(),
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
