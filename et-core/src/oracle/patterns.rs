//! The one table of output patterns the oracle recognises.
//!
//! Every message the classification looks for is a row here: the text, what it means,
//! which solver printed it, and the fixture under `et-core/tests/fixtures/outputs/`
//! holding a real output with it (the fixture test walks this table, so a pattern
//! cannot be added without evidence or an explicit "no fixture" entry). Patterns are
//! matched as case-insensitive substrings of stdout and stderr together. Answer lines
//! (`sat`, `unsat`, `unknown`, z3's `timeout`) are not patterns: they are whole lines,
//! parsed by [`super::classify`] last.

/// What a matched pattern says about the call; the variants follow the order in which
/// [`super::classify`] consults them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// The solver could not start (the dynamic loader failed): `setup_error` (step 1).
    SetupError,
    /// An allocation failed: `memout` (step 3).
    OutOfMemory,
    /// The solver's own model check failed: verdict `invalid_model` (step 4).
    InvalidModel,
    /// The solver does not support a feature of the formula: `rejected` (step 5).
    Unsupported,
    /// The solver refuses an option value of its command line, which it took at the
    /// start and checks only once a formula needs it: `rejected` (step 5). Looked
    /// for in the answer to `(get-info :reason-unknown)` that et asks a configuration
    /// after `unknown` (see [`crate::judging::Invocation::asking_why`]).
    RefusedOption,
    /// Assertion failure, internal error, sanitizer report: `crash` (step 6).
    Crash,
    /// The solver's answer to et's own `(get-model)` after `unsat`, `unknown` or a
    /// timeout: there is no model to give. Not the solver rejecting the formula, so
    /// step 7 skips the lines that carry it.
    ModelUnavailable,
    /// Any other error message: `rejected` (step 7).
    Error,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct Pattern {
    /// Text matched case-insensitively anywhere in stdout or stderr.
    pub text: &'static str,
    /// What a match means.
    pub meaning: Meaning,
    /// Which solver prints it, and when.
    pub seen_in: &'static str,
    /// Fixture directory with a real output containing it; empty when none could be
    /// produced with the solvers installable here (the unit tests then use a snippet).
    pub fixture: &'static str,
}

const fn p(
    text: &'static str,
    meaning: Meaning,
    seen_in: &'static str,
    fixture: &'static str,
) -> Pattern {
    Pattern {
        text,
        meaning,
        seen_in,
        fixture,
    }
}

use Meaning::*;

/// All patterns, grouped by meaning in classification order.
pub const PATTERNS: &[Pattern] = &[
    // 1. The solver never ran: the dynamic loader could not map a library (under an
    //    address-space limit) or find one. ld.so then exits 127; a Python runner raises
    //    ImportError with the same text and exits 1.
    p(
        "error while loading shared libraries",
        SetupError,
        "ld.so, for any dynamically linked solver (cvc5/cvc4 under a low RLIMIT_AS)",
        "cvc5-1.0.3-loader-failure",
    ),
    p(
        "failed to map segment from shared object",
        SetupError,
        "ld.so and Python's ImportError (cvc5 1.0.9-1.1.x runner) under a low RLIMIT_AS",
        "cvc5-1.0.3-loader-failure",
    ),
    // 3. Allocation failures: the solver ran out of memory (usually et's limit; without
    //    cgroups the limit is RLIMIT_AS, so allocations fail instead of the kernel
    //    killing the process). A solver out of memory did not reject the formula, and
    //    its abort is not a crash.
    p(
        "std::bad_alloc",
        OutOfMemory,
        "C++ solvers (cvc5 prints `(error \"std::bad_alloc\")`; uncaught, it aborts)",
        "cvc5-1.0.3-bad-alloc",
    ),
    p(
        "OutOfMemoryException",
        OutOfMemory,
        "cvc4/cvc5's SAT solvers (Minisat::OutOfMemoryException), uncaught: SIGABRT",
        "cvc4-1.8-out-of-memory",
    ),
    p(
        "out of memory",
        OutOfMemory,
        "z3: `(error \"out of memory\")`, exit 101",
        "z3-4.8.12-out-of-memory",
    ),
    p(
        "MemoryError",
        OutOfMemory,
        "Python (the cvc5 1.0.9-1.1.x runner, Python-based solvers)",
        "",
    ),
    p(
        "cannot allocate memory",
        OutOfMemory,
        "glibc's strerror(ENOMEM), e.g. a failed mmap or fork reported by the solver",
        "",
    ),
    p(
        "failed to allocate",
        OutOfMemory,
        "solvers reporting a failed allocation in their own words",
        "",
    ),
    p(
        "memory exhausted",
        OutOfMemory,
        "bison-generated parsers (and GNU tools) out of memory",
        "",
    ),
    // 4. Self-check failures. They come with `sat`, an `(error` and exit 1 (z3) or with
    //    "Fatal failure"/SIGABRT (cvc4/cvc5), so they must be looked at first.
    p(
        "an invalid model was generated",
        InvalidModel,
        "z3 with model_validate=true (e.g. PyPI 4.8.5 on ints, 4.8.7 on strings)",
        "z3-4.8.7-invalid-model",
    ),
    p(
        "ERRORS SATISFYING ASSERTIONS WITH MODEL",
        InvalidModel,
        "cvc4 and cvc5 with --check-models (SmtEngine/SolverEngine::checkModel)",
        "cvc4-1.8-check-models-failure",
    ),
    p(
        "has an asserted fact that the model doesn't satisfy",
        InvalidModel,
        "cvc4 and cvc5 with --check-models (checkTheoryAssertionsWithModel)",
        "",
    ),
    // 5. Unsupported features: the formula is outside what this build handles. Debian's
    //    cvc4 1.8 aborts with SIGABRT and "Fatal failure" on floating point, which would
    //    otherwise look like a crash.
    p(
        "Unimplemented",
        Unsupported,
        "cvc4 1.8 (Debian, no SymFPU) on floating point: \"Unimplemented code encountered\"",
        "cvc4-1.8-fp-unimplemented",
    ),
    p(
        "not yet implemented",
        Unsupported,
        "cvc4/cvc5 on unsupported operators",
        "",
    ),
    p(
        "NOT IMPLEMENTED YET",
        Unsupported,
        "z3 reaching NOT_IMPLEMENTED_YET (printed with ASSERTION VIOLATION)",
        "",
    ),
    p(
        "dependent on SymFPU",
        Unsupported,
        "cvc4 1.8 (Debian, no SymFPU) on floating point",
        "cvc4-1.8-fp-unimplemented",
    ),
    p(
        "unsupported",
        Unsupported,
        "z3/cvc5 on unsupported commands, logics or operators",
        "",
    ),
    p(
        "Cannot run check-model on a model with approximate values",
        Unsupported,
        "cvc4 1.8 --check-models on nonlinear/transcendental models",
        "cvc4-1.8-approximate-model",
    ),
    // 5. Option values refused once a formula needs them (the answer to
    //    `(get-info :reason-unknown)` after `unknown`): the configuration, not the
    //    formula, is what the solver does not take.
    p(
        "invalid parameter for",
        RefusedOption,
        "z3 4.16.0-5.4.1 with `smt.string_solver=z3str3`, which their help still lists, on strings or integer division",
        "",
    ),
    p(
        "invalid value for",
        RefusedOption,
        "z3 5.4.1 with `sat.lookahead.delta_fraction` 2 or 10 (\"invalid value for delta fraction. It should be a number in the interval 0 to 1\"), which its catalog types as any double",
        "",
    ),
    //    And options a release does not have at all, which it refuses at the start: a
    //    configuration ranged over older releases meets them.
    p(
        "unknown parameter '",
        RefusedOption,
        "z3 releases without a parameter of the configuration: \"ERROR: unknown parameter 'euf' at module 'sat'\" (4.8.6), exit 110",
        "",
    ),
    p(
        "error in option parsing",
        RefusedOption,
        "cvc5 and et's cvc5 runner on an option or value the release does not know: \"Error in option parsing: can't understand option ...\"",
        "",
    ),
    p(
        "illegal arithmetic solver used with",
        RefusedOption,
        "z3 5.4.1 with `smt.arith.solver` 0, 1 or 60 on strings (\"... used with string solver\")",
        "",
    ),
    // 6. Crashes reported in text (a signal is a crash without any text).
    p(
        "Fatal failure",
        Crash,
        "cvc4/cvc5 failed internal checks (e.g. --check-unsat-cores)",
        "cvc4-1.8-fp-unimplemented",
    ),
    p(
        "Internal error",
        Crash,
        "cvc4/cvc5 internal errors",
        "cvc4-1.8-check-models-failure",
    ),
    p(
        "ASSERTION VIOLATION",
        Crash,
        "z3 debug builds and z3 UNREACHABLE/NOT_IMPLEMENTED_YET in releases",
        "",
    ),
    p("Assertion failure", Crash, "cvc4/cvc5 Assert()", ""),
    p("Check failure", Crash, "cvc4/cvc5 AlwaysAssert()", ""),
    p(
        "Assertion `",
        Crash,
        "C assert() in glibc: \"file:line: func: Assertion `cond' failed.\"",
        "",
    ),
    p("AddressSanitizer", Crash, "ASan builds", ""),
    p("LeakSanitizer", Crash, "ASan/LSan builds", ""),
    p(
        "runtime error:",
        Crash,
        "UBSan builds (\"file:line:col: runtime error: ...\")",
        "",
    ),
    p(
        "Segmentation fault",
        Crash,
        "solvers that catch SIGSEGV and print it",
        "",
    ),
    // 7. Answers to et's `(get-model)` when there is no model (after unsat, or an
    //    answer without one): the error lines that carry them are not rejections.
    p(
        "model is not available",
        ModelUnavailable,
        "z3 (all releases): `(error \"line N column M: model is not available\")`, exit 1",
        "z3-4.8.12-get-model-after-unsat",
    ),
    p(
        "cannot get model unless",
        ModelUnavailable,
        "cvc5 (\"...after a SAT or UNKNOWN response.\", then it stops) and cvc4 (\"...immediately preceded by SAT/NOT_ENTAILED or UNKNOWN response.\")",
        "cvc5-1.0.3-get-model-after-unsat",
    ),
    p(
        "the context is unsatisfiable",
        ModelUnavailable,
        "yices-smt2 2.6.5 after unsat (exit 0); yices is not a Debian package, so the \
         unit tests carry its output",
        "",
    ),
    // 7. Any other error: parse, type and option errors. z3 4.8.5–4.8.8 print it, drop
    //    the assert and still answer `sat` with exit 1: the answer does not count.
    p(
        "(error",
        Error,
        "z3/cvc4/cvc5 SMT-LIB error responses",
        "z3-4.8.5-unknown-function",
    ),
];

/// The rows of `meaning` that occur in `lowercase_text` (already lowercased).
pub(crate) fn matches(
    lowercase_text: &str,
    meaning: Meaning,
) -> impl Iterator<Item = &'static Pattern> + '_ {
    PATTERNS.iter().filter(move |p| {
        p.meaning == meaning && lowercase_text.contains(&p.text.to_ascii_lowercase())
    })
}
