//! cvc5 (Stanford, Iowa). Same self-checks as cvc4; judged by the newest z3 by
//! default; `(get-model)` needs `--produce-models`. Its wheels ship libcvc5, not a
//! program: et installs a driver of its own as `bin/cvc5`
//! (`crate::solvers::install::packaging::cvc5`), which also lists the options.

use super::catalog::{
    acts_only_on_by, leave_out_by, Curated, OptionSpec, Theory, BIT_VECTORS_AND_FLOATS,
};
use super::cvc4::{ANSWER_CHECKS, SELF_CHECKS, SESSION};
use super::{Family, SessionProtocol};
use crate::version::at_least;

/// The cvc5 family.
#[derive(Debug, Clone, Copy)]
pub struct Cvc5;

impl Cvc5 {
    /// Oldest release whose API can read SMT-LIB (an input parser): the oldest wheel
    /// et can drive.
    pub const OLDEST_USABLE: &'static str = "1.0.9";

    /// Oldest release whose libraries export the C API that et's `et-cvc5` runner
    /// drives; the wheels before it get et's Python driver.
    pub const C_API: &'static str = "1.2.0";

    /// Whether release `version` exports the C API (and so gets the `et-cvc5` runner).
    pub fn has_c_api(version: &str) -> bool {
        at_least(version, Cvc5::C_API)
    }
}

impl Family for Cvc5 {
    fn name(&self) -> &'static str {
        "cvc5"
    }

    fn self_check_options(&self) -> &'static [&'static str] {
        SELF_CHECKS
    }

    fn answer_checks(&self) -> &'static [&'static str] {
        ANSWER_CHECKS
    }

    fn reference_families(&self) -> &'static [&'static str] {
        &["z3"]
    }

    fn model_options(&self, _version: &str) -> Option<&'static [&'static str]> {
        Some(&["--produce-models"])
    }

    fn session(&self, version: &str) -> Option<SessionProtocol> {
        // Releases 1.0.9-1.1.x installed from wheels run et's Python driver, which
        // reads all of its input before answering: no session. Older releases are
        // binaries (Debian's 1.0.3), newer ones binaries or et's C-API runner, which
        // executes standard input as it arrives.
        let python_driver = !Cvc5::has_c_api(version) && at_least(version, Cvc5::OLDEST_USABLE);
        (!python_driver).then_some(SESSION)
    }

    fn leave_out(&self, option: &OptionSpec) -> Option<String> {
        leave_out_by(option, LEFT_OUT_PREFIXES, prefix_matches).or_else(|| {
            // `arrays-exp`, `fp-exp`, `sets-exp`, ...: switches for extensions of a
            // theory beyond its standard (cvc5's documentation calls most of them
            // experimental), as `strings-exp`, which the pool entry chooses.
            option.name.ends_with("-exp").then(|| {
                "a theory extension switch (`-exp`): beyond the standard theory".to_string()
            })
        })
    }

    fn acts_only_on(&self, option: &str) -> &'static [Theory] {
        acts_only_on_by(option, ACTS_ONLY_ON, prefix_matches)
    }

    fn curated_configurations(&self) -> &'static [Curated] {
        CURATED
    }
}

/// The modes ET's campaigns ran cvc5 in besides its default.
const CURATED: &[Curated] = &[
    Curated {
        name: "eager-len-re",
        options: &[("strings-eager-len-re", "true")],
        description: "strings: eager length lemmas for regular expressions",
    },
    Curated {
        name: "lazy-pp",
        options: &[("strings-lazy-pp", "false")],
        description: "strings: eager instead of lazy preprocessing",
    },
    Curated {
        name: "nl-cov",
        options: &[("nl-cov", "true")],
        description: "nonlinear arithmetic: cylindrical algebraic coverings",
    },
    Curated {
        name: "nl-tplanes",
        options: &[("nl-ext-tplanes", "true")],
        description: "nonlinear arithmetic: tangent planes",
    },
];

/// Whether option `name` is `prefix` or begins with it and a dash: a prefix `sygus-`
/// takes `sygus` and `sygus-...`, not `sygusx`.
fn prefix_matches(name: &str, prefix: &str) -> bool {
    let prefix = prefix.trim_end_matches('-');
    name == prefix
        || name
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('-'))
}

/// Options (by name or prefix) that act only on some theories: the options of one
/// theory solver, named after it, and those of arithmetic's simplex and its
/// non-linear extension, its quantifier instantiation and its datatypes.
const ACTS_ONLY_ON: &[(&str, &[Theory])] = &[
    ("arith-", &[Theory::Arithmetic]),
    ("nl-", &[Theory::Arithmetic]),
    ("dio-", &[Theory::Arithmetic]),
    ("miplib-trick", &[Theory::Arithmetic]),
    ("cut-all-bounded", &[Theory::Arithmetic]),
    ("maxCutsInContext", &[Theory::Arithmetic]),
    ("new-prop", &[Theory::Arithmetic]),
    ("pb-rewrites", &[Theory::Arithmetic]),
    ("pivot-threshold", &[Theory::Arithmetic]),
    ("prop-row-length", &[Theory::Arithmetic]),
    ("replay-", &[Theory::Arithmetic]),
    ("lemmas-on-replay-failure", &[Theory::Arithmetic]),
    ("restrict-pivots", &[Theory::Arithmetic]),
    ("revert-arith-models-on-unsat", &[Theory::Arithmetic]),
    (
        "standard-effort-variable-order-pivots",
        &[Theory::Arithmetic],
    ),
    ("heuristic-pivots", &[Theory::Arithmetic]),
    ("error-selection-rule", &[Theory::Arithmetic]),
    ("fc-penalties", &[Theory::Arithmetic]),
    ("simplex-check-period", &[Theory::Arithmetic]),
    ("unate-lemmas", &[Theory::Arithmetic]),
    ("use-approx", &[Theory::Arithmetic]),
    ("approx-branch-depth", &[Theory::Arithmetic]),
    ("use-fcsimplex", &[Theory::Arithmetic]),
    ("use-soi", &[Theory::Arithmetic]),
    ("solve-real-as-int", &[Theory::Arithmetic]),
    ("solve-int-as-bv", &[Theory::Arithmetic]),
    ("bv-", BIT_VECTORS_AND_FLOATS),
    ("bitblast", BIT_VECTORS_AND_FLOATS),
    ("bitwise-eq", BIT_VECTORS_AND_FLOATS),
    ("bvand-integer-granularity", BIT_VECTORS_AND_FLOATS),
    ("solve-bv-as-int", BIT_VECTORS_AND_FLOATS),
    ("fp-", &[Theory::Floats]),
    ("arrays-", &[Theory::Arrays]),
    ("strings-", &[Theory::Strings]),
    ("re-elim", &[Theory::Strings]),
    ("re-first-class", &[Theory::Strings]),
    ("re-inter-mode", &[Theory::Strings]),
    ("seq-array", &[Theory::Strings]),
    ("dt-", &[Theory::Datatypes]),
    ("datatypes-exp", &[Theory::Datatypes]),
    ("cdt-bisimilar", &[Theory::Datatypes]),
    ("cbqi", &[Theory::Quantifiers]),
    ("cegqi", &[Theory::Quantifiers]),
    ("sub-cbqi", &[Theory::Quantifiers]),
    ("mbqi", &[Theory::Quantifiers]),
    ("inst-", &[Theory::Quantifiers]),
    ("enum-inst", &[Theory::Quantifiers]),
    ("pool-inst", &[Theory::Quantifiers]),
    ("e-matching", &[Theory::Quantifiers]),
    ("literal-matching", &[Theory::Quantifiers]),
    ("trigger-", &[Theory::Quantifiers]),
    ("multi-trigger", &[Theory::Quantifiers]),
    ("partial-triggers", &[Theory::Quantifiers]),
    ("purify-triggers", &[Theory::Quantifiers]),
    ("relational-triggers", &[Theory::Quantifiers]),
    ("relevant-triggers", &[Theory::Quantifiers]),
    ("cons-exp-triggers", &[Theory::Quantifiers]),
    ("increment-triggers", &[Theory::Quantifiers]),
    ("user-pat", &[Theory::Quantifiers]),
    ("user-pool", &[Theory::Quantifiers]),
    ("quant-", &[Theory::Quantifiers]),
    ("full-saturate-quant", &[Theory::Quantifiers]),
    ("elim-taut-quant", &[Theory::Quantifiers]),
    ("ext-rewrite-quant", &[Theory::Quantifiers]),
    ("cond-var-split-quant", &[Theory::Quantifiers]),
    ("ite-dtt-split-quant", &[Theory::Quantifiers]),
    ("ite-lift-quant", &[Theory::Quantifiers]),
    ("macros-quant", &[Theory::Quantifiers]),
    ("miniscope-quant", &[Theory::Quantifiers]),
    ("pre-skolem-quant", &[Theory::Quantifiers]),
    ("prenex-quant", &[Theory::Quantifiers]),
    ("var-elim-quant", &[Theory::Quantifiers]),
    ("var-ent-eq-elim-quant", &[Theory::Quantifiers]),
    ("var-ineq-elim-quant", &[Theory::Quantifiers]),
    ("register-quant-body-terms", &[Theory::Quantifiers]),
    ("conjecture-gen", &[Theory::Quantifiers]),
    ("fmf-", &[Theory::Quantifiers]),
    ("int-wf-ind", &[Theory::Quantifiers]),
    ("term-db-mode", &[Theory::Quantifiers]),
    ("sets-", &[Theory::Extensions]),
    ("rels-exp", &[Theory::Extensions]),
    ("ho-", &[Theory::Extensions]),
    ("uf-ho", &[Theory::Extensions]),
    ("flatten-ho-chains", &[Theory::Extensions]),
    ("full-sygus-verify", &[Theory::Extensions]),
];

/// Options (by name or prefix) kept in the catalog but not enumerated.
const LEFT_OUT_PREFIXES: &[(&str, &str)] = &[
    ("check-", "a self-check: the pool entry chooses them"),
    ("produce-", "output only (what the solver keeps to print)"),
    ("lang", "input language"),
    ("input-language", "input language"),
    ("output-lang", "output only"),
    ("incremental", "how input is read (et's sessions choose it)"),
    ("interactive", "how input is read"),
    ("parse-only", "does not solve"),
    ("preprocess-only", "does not solve"),
    ("filename", "files"),
    ("help", "output only"),
    ("version", "output only"),
    ("show-", "output only"),
    ("copyright", "output only"),
    ("err", "output only (a stream)"),
    ("in", "input stream"),
    ("out", "output only (a stream)"),
    ("diagnostic-output-channel", "output only (a stream)"),
    ("regular-output-channel", "output only (a stream)"),
    ("quiet", "output only"),
    ("cumulative-time", "a limit"),
    ("hard-limit", "a limit"),
    ("reproducible-resource-limits", "a limit"),
    ("reproducible-resource-limit", "a limit"),
    // Budgets: once spent, cvc5 answers `unknown` by design.
    (
        "inst-max-rounds",
        "a budget (rounds of quantifier instantiation)",
    ),
    (
        "strings-model-max-len",
        "a budget: cvc5 gives up on a model with a longer string",
    ),
    ("early-exit", "process exit"),
    ("segv-spin", "debugging (spins instead of crashing)"),
    ("portfolio-", "threads and processes (a portfolio)"),
    ("partition", "other problems (partitioning into cubes)"),
    (
        "compute-partitions",
        "other problems (partitioning into cubes)",
    ),
    (
        "checks-before-partition",
        "other problems (partitioning into cubes)",
    ),
    (
        "checks-between-partitions",
        "other problems (partitioning into cubes)",
    ),
    (
        "random-partitioning",
        "other problems (partitioning into cubes)",
    ),
    (
        "append-learned-literals-to-cubes",
        "other problems (partitioning into cubes)",
    ),
    ("sygus", "other logics (SyGuS)"),
    ("abduct", "other problems (abduction)"),
    ("interpol", "other problems (interpolation)"),
    ("sep-", "other logics (separation logic)"),
    ("bags-", "other logics (bags)"),
    ("ff-", "other logics (finite fields)"),
    ("oracles", "other logics (oracles)"),
    ("global-declarations", "how input is read"),
    ("strict-parsing", "how input is read"),
    ("semantic-checks", "input checking"),
    ("type-checking", "input checking"),
    ("safe-mode", "restricts other options"),
    (
        "strings-exp",
        "the pool entry chooses it (extended string functions)",
    ),
];
