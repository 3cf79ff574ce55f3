//! Classification of one finished call: from what the process printed and how it
//! ended to a [`Status`], an invalid-model flag and, for crashes, a signature that
//! groups duplicate crash triggers.

use super::messages;
use super::patterns::{self, Meaning};
use super::Status;
use crate::solvers::call::CallOutcome;

/// What one call came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    /// The status written to the CSV.
    pub status: Status,
    /// The solver's own model check failed (status is then `sat`).
    pub self_check_failed: bool,
    /// For crashes: the assertion location, or signal and first error line.
    pub crash_signature: Option<String>,
}

impl Classification {
    fn plain(status: Status) -> Self {
        Classification {
            status,
            self_check_failed: false,
            crash_signature: None,
        }
    }
}

/// Exit code of a program that could not be started: the shell's "command not found",
/// and the dynamic loader's failure to load a library.
const EXIT_CANNOT_START: i32 = 127;

/// Classifies a call, consulting the signals in this order because they overlap (a
/// loader failure under a low memory limit is not a memout; an uncaught `bad_alloc`
/// aborts, which is not a crash; a z3 invalid model prints `sat`, then an `(error`, and
/// exits 1; Debian cvc4 aborts with "Fatal failure" on floating point, which it merely
/// does not support):
///
/// 1. the solver never ran → `setup_error`: it could not be executed
///    ([`CallOutcome::start_error`]), a loader-failure pattern, or exit code 127 with no
///    answer;
/// 2. killed by our wall-clock or CPU limit → `timeout`, or `starved` when the wall
///    clock stopped it before it used its CPU budget ([`CallOutcome::starved`]);
/// 3. the memory limit was reached ([`CallOutcome::memory_limit_hit`]) or an
///    allocation-failure pattern → `memout`;
/// 4. killed by a SIGKILL et did not send ([`CallOutcome::killed_from_outside`]) →
///    `killed`: an operator or the kernel ended it, which says nothing about the
///    solver;
/// 5. a self-check failure pattern → `sat` with `self_check_failed`;
/// 6. an unsupported-feature pattern or an option value refused → `rejected`, even if
///    the process aborted;
/// 7. a signal or a crash pattern → `crash`;
/// 8. any other `(error` → `rejected`, whatever answer follows; lines that answer et's own
///    `(get-model)` with "no model" (after `unsat`, say) are not looked at here: the
///    solver did accept the formula;
/// 9. the first answer line on stdout: `sat`, `unsat`, `unknown`, `unknown (REASON)`;
///    z3's `timeout` (its own `-T:` limit, exit 0) → `timeout`, because the solver gave
///    up for lack of time exactly as if we had killed it, and per-timeout tables then
///    treat both alike;
///
/// and with no recognisable answer at all (empty or garbled output) → `crash`: a solver
/// that neither answers nor reports an error has malfunctioned, and a broken command
/// line shows up at once instead of hiding among rejected formulas.
pub fn classify(outcome: &CallOutcome) -> Classification {
    if outcome.start_error.is_some() {
        return Classification::plain(Status::SetupError);
    }
    let stdout = outcome.stdout_text();
    let lower = said(outcome).to_ascii_lowercase();
    let has = |meaning| {
        let found = patterns::matches(&lower, meaning).next().is_some();
        found
    };
    let answer = answer(&stdout);
    if has(Meaning::SetupError)
        || (outcome.exit_code == Some(EXIT_CANNOT_START) && answer.is_none())
    {
        return Classification::plain(Status::SetupError);
    }
    if outcome.timed_out {
        return Classification::plain(if outcome.starved {
            Status::Starved
        } else {
            Status::Timeout
        });
    }
    if outcome.memory_limit_hit || has(Meaning::OutOfMemory) {
        return Classification::plain(Status::Memout);
    }
    if outcome.killed_from_outside() {
        return Classification::plain(Status::Killed);
    }
    if has(Meaning::InvalidModel) {
        return Classification {
            status: Status::Sat,
            self_check_failed: true,
            crash_signature: None,
        };
    }
    if has(Meaning::Unsupported) || has(Meaning::RefusedOption) {
        return Classification::plain(Status::Rejected);
    }
    if outcome.signal.is_some() || has(Meaning::Crash) {
        return crash(outcome);
    }
    if has_error_besides_model_request(&lower) {
        return Classification::plain(Status::Rejected);
    }
    match answer {
        Some(status) => Classification::plain(status),
        None => crash(outcome),
    }
}

/// Whether the solver says it refuses an option value of its command line (a
/// [`Meaning::RefusedOption`] pattern): the call is `rejected` for its configuration,
/// not for its formula.
pub fn refuses_option(outcome: &CallOutcome) -> bool {
    let lower = said(outcome).to_ascii_lowercase();
    let found = patterns::matches(&lower, Meaning::RefusedOption)
        .next()
        .is_some();
    found
}

/// Whether an error pattern occurs on a line that is not the solver's "no model"
/// answer to et's `(get-model)`.
fn has_error_besides_model_request(lower: &str) -> bool {
    lower.lines().any(|line| {
        patterns::matches(line, Meaning::Error).next().is_some()
            && patterns::matches(line, Meaning::ModelUnavailable)
                .next()
                .is_none()
    })
}

/// What the solver says in `outcome`, stdout first ([`messages::said`]): the only text
/// patterns are matched in, so that a model's strings and the names a formula picks
/// never change a status.
fn said(outcome: &CallOutcome) -> String {
    messages::said(&outcome.stdout_text(), &outcome.stderr_text())
}

/// [`said`] with stderr first: where a crash's own words come first.
fn said_stderr_first(outcome: &CallOutcome) -> String {
    format!(
        "{}\n{}",
        outcome.stderr_text(),
        messages::said(&outcome.stdout_text(), "")
    )
}

/// The first answer line of stdout, if any.
fn answer(stdout: &str) -> Option<Status> {
    stdout.lines().find_map(answer_line)
}

/// Every answer line of stdout, in order: a script's answers, one per check-sat it
/// answered (`crate::judging::scripts` tells which check-sat each is about).
pub fn answers(stdout: &str) -> Vec<Status> {
    stdout.lines().filter_map(answer_line).collect()
}

/// The answer a line of stdout gives, if it is one; a `;` comment after the answer is
/// not part of it.
fn answer_line(line: &str) -> Option<Status> {
    match line.split(';').next().unwrap_or("").trim() {
        "sat" => Some(Status::Sat),
        "unsat" => Some(Status::Unsat),
        "unknown" => Some(Status::Unknown),
        "timeout" => Some(Status::Timeout),
        l if l.starts_with("unknown (") && l.ends_with(')') => Some(Status::Unknown),
        _ => None,
    }
}

fn crash(outcome: &CallOutcome) -> Classification {
    Classification {
        status: Status::Crash,
        self_check_failed: false,
        crash_signature: Some(crash_signature(outcome)),
    }
}

/// The signature that groups duplicate crashes: the source location of the failed
/// assertion when the message names one (normalised from the last `src/` on, so that
/// builds in different directories agree), else the signal name and the first error
/// line, else the exit code. Digit runs in the error line become `N`, because they are
/// mostly positions in the formula, which differ between triggers of one bug.
pub fn crash_signature(outcome: &CallOutcome) -> String {
    let text = said_stderr_first(outcome);
    if let Some(location) = source_location(&text) {
        return location;
    }
    let line = first_error_line(&text).map(|l| mask_digits(l.trim()));
    match (outcome.signal, line) {
        (Some(sig), Some(line)) => format!("{}: {line}", signal_name(sig)),
        (Some(sig), None) => signal_name(sig),
        (None, Some(line)) => line,
        (None, None) => format!(
            "no answer (exit {})",
            outcome
                .exit_code
                .map_or_else(|| "?".to_string(), |c| c.to_string())
        ),
    }
}

/// The first line of a call's output (stdout, then stderr) that names a crash pattern
/// or mentions an error, with digit runs masked as `N` as in [`crash_signature`]: what
/// tells kinds of rejections apart (the campaign keeps one sample of each).
pub fn error_line(outcome: &CallOutcome) -> Option<String> {
    first_error(outcome).map(|l| mask_digits(&l))
}

/// The first line of what the solver said (stdout without its data, then stderr) that
/// names a crash pattern or mentions an error, as printed: why it refused a formula,
/// in its own words.
pub fn first_error(outcome: &CallOutcome) -> Option<String> {
    let text = said(outcome);
    first_error_line(&text).map(|l| l.trim().to_string())
}

/// A `path/file.ext:line` in the text (cvc4/cvc5 "Fatal failure ... at F:L", C
/// `assert`, sanitizer frames), or z3's `File: F` / `Line: L` pair.
fn source_location(text: &str) -> Option<String> {
    let mut file = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(f) = line.strip_prefix("File: ") {
            file = Some(f.trim());
        } else if let (Some(f), Some(l)) = (file, line.strip_prefix("Line: ")) {
            if l.trim().chars().all(|c| c.is_ascii_digit()) {
                return Some(format!("{}:{}", normalise_path(f), l.trim()));
            }
        }
    }
    text.split(|c: char| c.is_whitespace() || "()\"'`,;".contains(c))
        .find_map(|token| {
            let mut parts = token.split(':');
            let path = parts.next()?;
            let line = parts.next()?;
            names_a_source_line(path, line).then(|| format!("{}:{line}", normalise_path(path)))
        })
}

/// The extensions of the source files a failed assertion names.
const SOURCE_EXTENSIONS: &[&str] = &[".cpp", ".cc", ".cxx", ".c", ".hpp", ".hh", ".h"];

/// Whether `path:line` names a line of a source file.
fn names_a_source_line(path: &str, line: &str) -> bool {
    SOURCE_EXTENSIONS.iter().any(|e| path.ends_with(e))
        && !line.is_empty()
        && line.chars().all(|c| c.is_ascii_digit())
}

/// Whether a [`crash_signature`] is the source location of a failed assertion (not a
/// signal or an error line): it says where the solver failed, whatever led there.
pub fn is_source_location(signature: &str) -> bool {
    !signature.contains(char::is_whitespace)
        && signature
            .rsplit_once(':')
            .is_some_and(|(path, line)| names_a_source_line(path, line))
}

fn normalise_path(path: &str) -> &str {
    match path.rfind("src/") {
        Some(i) => &path[i..],
        None => path.rsplit('/').next().unwrap_or(path),
    }
}

/// The first line naming a crash pattern, else the first mentioning an error.
fn first_error_line(text: &str) -> Option<&str> {
    let crashy = |l: &str| {
        let l = l.to_ascii_lowercase();
        let found = patterns::matches(&l, Meaning::Crash).next().is_some();
        found
    };
    text.lines()
        .find(|l| crashy(l))
        .or_else(|| {
            text.lines()
                .find(|l| l.to_ascii_lowercase().contains("error"))
        })
        .map(|l| truncate(l, 200))
}

/// At most `max` bytes of `s`, cut at a character boundary.
fn truncate(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn mask_digits(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_digits = false;
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

/// `SIGSEGV` for 11 and so on; `signal N` for the uncommon ones.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(stdout: &str, stderr: &str, exit: Option<i32>, signal: Option<i32>) -> CallOutcome {
        CallOutcome {
            stdout: stdout.into(),
            stderr: stderr.into(),
            exit_code: exit,
            signal,
            ..CallOutcome::default()
        }
    }

    fn status(o: &CallOutcome) -> Status {
        classify(o).status
    }

    #[test]
    fn answers() {
        assert_eq!(status(&out("sat\n", "", Some(0), None)), Status::Sat);
        assert_eq!(status(&out("unsat\n", "", Some(0), None)), Status::Unsat);
        assert_eq!(
            status(&out("unknown\n", "", Some(0), None)),
            Status::Unknown
        );
        // cvc5 1.2+ (not installable here as a binary: the snippet is its documented form).
        assert_eq!(
            status(&out("unknown (INCOMPLETE)\n", "", Some(0), None)),
            Status::Unknown
        );
        assert_eq!(
            status(&out("timeout\n", "", Some(0), None)),
            Status::Timeout
        );
    }

    /// A comment after the answer is not part of it.
    #[test]
    fn an_answer_with_a_comment_is_an_answer() {
        assert_eq!(
            status(&out("sat ; checked\n", "", Some(0), None)),
            Status::Sat
        );
    }

    /// The text of a model (string values, constant names) is data, never a message.
    #[test]
    fn a_models_text_is_not_a_message() {
        for value in [
            "\"Segmentation fault\"",
            "\"unsupported\"",
            "\"an invalid model was generated\"",
            "\"std::bad_alloc\"",
            "\"(error \"\"x\"\")\"",
        ] {
            let stdout = format!("sat\n(\n  (define-fun a () String {value})\n)\n");
            let c = classify(&out(&stdout, "", Some(0), None));
            assert_eq!(c.status, Status::Sat, "{value}");
            assert!(!c.self_check_failed, "{value}");
        }
        let named =
            "sat\n((define-fun |Segmentation fault| () Int 0) (define-fun unsupported () Int 1))\n";
        assert_eq!(status(&out(named, "", Some(0), None)), Status::Sat);
    }

    /// The wall clock stopped a call that had used little CPU: starved, not a timeout.
    #[test]
    fn a_starved_call_is_not_a_timeout() {
        let mut o = out("", "", None, Some(9));
        o.timed_out = true;
        o.starved = true;
        assert_eq!(status(&o), Status::Starved);
    }

    #[test]
    fn our_limits_come_first() {
        let mut o = out("sat\n", "", None, Some(9));
        o.timed_out = true;
        assert_eq!(status(&o), Status::Timeout);
        let mut o = out("", "", None, Some(9));
        o.memory_limit_hit = true;
        assert_eq!(status(&o), Status::Memout);
        // A timeout that also ran short of memory is a timeout.
        o.timed_out = true;
        assert_eq!(status(&o), Status::Timeout);
    }

    #[test]
    fn a_solver_that_never_ran_is_a_setup_error() {
        let o = CallOutcome::not_started("cannot start `/x/z3`: No such file or directory");
        assert_eq!(status(&o), Status::SetupError);
        // The shell's "not found" (a wrapper script whose solver is missing).
        let o = out("", "sh: 1: /opt/z3/bin/z3: not found\n", Some(127), None);
        assert_eq!(status(&o), Status::SetupError);
        // An answer before exit 127 is an answer, not a start failure.
        assert_eq!(status(&out("sat\n", "", Some(127), None)), Status::Sat);
        // A loader failure under a memory limit is a setup error, not a memout.
        let mut o = out(
            "",
            "z3: error while loading shared libraries: libz3.so: failed to map segment from shared object\n",
            Some(127),
            None,
        );
        o.memory_limit_hit = true;
        assert_eq!(status(&o), Status::SetupError);
    }

    /// The error that answers et's own `(get-model)` after `unsat` leaves the answer
    /// alone; any other error beside it is still a rejection (real outputs of
    /// yices-smt2 2.6.5, z3 4.8.12 and cvc5 1.0.3; the fixtures hold more).
    #[test]
    fn no_model_after_unsat_is_not_a_rejection() {
        for stdout in [
            "unsat\n(error \"the context is unsatisfiable\")\n",
            "unsat\n(error \"line 4 column 10: model is not available\")\n",
            "unsat\n(error \"Cannot get model unless after a SAT or UNKNOWN response.\")\n",
        ] {
            assert_eq!(
                status(&out(stdout, "", Some(1), None)),
                Status::Unsat,
                "{stdout}"
            );
            let rejected = format!("(error \"line 1 column 5: unknown constant x\")\n{stdout}");
            assert_eq!(status(&out(&rejected, "", Some(1), None)), Status::Rejected);
        }
    }

    /// A SIGKILL et did not send is not a crash; one et sent at a limit or for the
    /// memory limit is what that limit says; other signals stay crashes.
    #[test]
    fn a_kill_from_outside_is_not_a_crash() {
        let killed = out("", "", None, Some(libc::SIGKILL));
        assert_eq!(status(&killed), Status::Killed);
        let mut o = killed.clone();
        o.memory_limit_hit = true;
        assert_eq!(status(&o), Status::Memout);
        let mut o = killed.clone();
        o.timed_out = true;
        assert_eq!(status(&o), Status::Timeout);
        for signal in [libc::SIGSEGV, libc::SIGABRT] {
            assert_eq!(status(&out("", "", None, Some(signal))), Status::Crash);
        }
    }

    #[test]
    fn no_answer_is_a_crash_with_the_exit_code() {
        let c = classify(&out("", "", Some(0), None));
        assert_eq!(c.status, Status::Crash);
        assert_eq!(c.crash_signature.as_deref(), Some("no answer (exit 0)"));
        assert_eq!(status(&out("hello\n", "", Some(0), None)), Status::Crash);
    }

    /// Patterns for which no real output could be produced with the solvers installable
    /// here; each snippet follows the solver's message format.
    #[test]
    fn patterns_without_fixture() {
        let cases: &[(&str, Status, bool)] = &[
            (
                "Fatal failure within void cvc5::internal::TheoryEngine::checkTheoryAssertionsWithModel(bool) at src/theory/theory_engine.cpp:1\nInternal error detected THEORY_ARRAYS has an asserted fact that the model doesn't satisfy.",
                Status::Sat,
                true,
            ),
            ("(error \"operator not yet implemented\")", Status::Rejected, false),
            ("ASSERTION VIOLATION\nFile: ../src/x.cpp\nLine: 1\nNOT IMPLEMENTED YET!", Status::Rejected, false),
            ("(error \"unsupported logic\")\nsat", Status::Rejected, false),
            ("ASSERTION VIOLATION\nFile: ../src/smt/smt_context.cpp\nLine: 12\nUNEXPECTED CODE WAS REACHED.", Status::Crash, false),
            ("Assertion failure at src/x.cpp:3", Status::Crash, false),
            ("Check failure\n tm->getValue(x) == rep", Status::Crash, false),
            ("z3: ../src/x.cpp:4: void f(): Assertion `a' failed.", Status::Crash, false),
            ("==1==ERROR: AddressSanitizer: heap-use-after-free", Status::Crash, false),
            ("==1==ERROR: LeakSanitizer: detected memory leaks", Status::Crash, false),
            ("../src/x.cpp:5:7: runtime error: signed integer overflow", Status::Crash, false),
            ("Segmentation fault\n", Status::Crash, false),
            // Python's MemoryError (the cvc5 1.0.9-1.1.x runner under RLIMIT_AS).
            ("Traceback (most recent call last):\n  File \"cvc5\", line 9\nMemoryError\n", Status::Memout, false),
            ("z3: cannot allocate memory\n", Status::Memout, false),
            ("fatal: failed to allocate 1048576 bytes\n", Status::Memout, false),
            ("parse error: memory exhausted\n", Status::Memout, false),
            // z3's answers to (get-info :reason-unknown) when it refuses an option value.
            ("(:reason-unknown \"invalid parameter for smt.string_solver, valid options are 'seq', 'auto'\")", Status::Rejected, false),
            ("(:reason-unknown \"illegal arithmetic solver used with string solver\")", Status::Rejected, false),
            ("(:reason-unknown \"invalid value for delta fraction. It should be a number in the interval 0 to 1\")", Status::Rejected, false),
            // A release without an option of the configuration (z3 4.8.6, cvc5).
            ("ERROR: unknown parameter 'euf' at module 'sat'\nLegal parameters are:\n", Status::Rejected, false),
            ("(error \"Error in option parsing: can't understand option `--nope': Unrecognized option: nope.\")", Status::Rejected, false),
            // yices-smt2 2.6.5's answer to (get-model) after unsat: not a rejection.
            ("(error \"the context is unsatisfiable\")\n", Status::Sat, false),
        ];
        for (stderr, want, invalid) in cases {
            let c = classify(&out("sat\n", stderr, Some(1), None));
            assert_eq!(
                (c.status, c.self_check_failed),
                (*want, *invalid),
                "{stderr}"
            );
        }
        let snippets = cases
            .iter()
            .map(|c| c.0.to_ascii_lowercase())
            .collect::<Vec<_>>();
        for p in patterns::PATTERNS.iter().filter(|p| p.fixture.is_empty()) {
            let t = p.text.to_ascii_lowercase();
            assert!(
                snippets.iter().any(|s| s.contains(&t)),
                "no test for `{}`",
                p.text
            );
        }
    }

    #[test]
    fn signatures() {
        let sig = |stderr: &str, signal| {
            classify(&out("", stderr, None, signal))
                .crash_signature
                .unwrap()
        };
        assert_eq!(
            sig(
                "ASSERTION VIOLATION\nFile: ../src/smt/smt_context.cpp\nLine: 12\n",
                None
            ),
            "src/smt/smt_context.cpp:12"
        );
        assert_eq!(
            sig(
                "Fatal failure within void f() at /home/u/cvc5/src/smt/check_models.cpp:207\n",
                Some(6)
            ),
            "src/smt/check_models.cpp:207"
        );
        assert_eq!(
            sig(
                "z3: ../src/util/vector.h:44: void f(): Assertion `a' failed.",
                Some(6)
            ),
            "src/util/vector.h:44"
        );
        assert_eq!(sig("", Some(11)), "SIGSEGV");
        assert_eq!(
            sig("warning\nerror at line 17 column 3\n", Some(6)),
            "SIGABRT: error at line N column N"
        );
    }
}
