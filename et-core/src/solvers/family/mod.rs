//! Solver families: what et knows about how z3, cvc5, cvc4, yices, ... speak and
//! understand, in one file per family, behind the one [`Family`] trait, registered in
//! [`FAMILIES`].
//!
//! A family says how its solvers are recognised (program name), run (self-check
//! options, how to ask for models, what a script needs before the formula, how to get
//! pre-Unicode strings, how to run a session, how to list and set its options) and
//! judged (which families' newest release is their default reference). Everything
//! else in et asks the family instead of matching on its name, so a new family is one
//! new file here and one line in [`FAMILIES`]. How a family's releases are installed
//! (PyPI wheels, et's drivers, Debian packages) is not here: that is
//! [`super::install::packaging`], which imports this module and not the reverse.
//!
//! A pool may name a family et does not know (`family = "mathsat"`); such solvers run
//! with their own command line and get the defaults of [`Family`]'s provided methods
//! ([`SmtLib`]): with `models = true`, models are asked for in the script, as any
//! SMT-LIB solver understands.
//!
//! *Must not:* run solvers or interpret their answers (that is [`super::call`] and
//! [`crate::oracle`]); install them or write pool files (that is [`super::install`]).

mod bitwuzla;
mod boolector;
pub mod catalog;
mod cvc4;
mod cvc5;
mod yices;
mod z3;

use std::fmt;
use std::path::Path;

use et_eval::ModelDialect;

use catalog::{common_leave_out, Curated, OptionSpec};

pub use bitwuzla::Bitwuzla;
pub use boolector::Boolector;
pub use cvc4::Cvc4;
pub use cvc5::Cvc5;
pub use yices::Yices;
pub use z3::Z3;

/// The families whose newest release judges a solver of a family that names none of
/// its own (yices, bitwuzla, families et does not know): ET's choice, z3 first.
pub const OTHER_FAMILY_REFERENCES: &[&str] = &["z3", "cvc5", "cvc4"];

/// SMT-LIB's request for the model after `sat`, which every family et knows uses.
pub const SMTLIB_MODEL_REQUEST: &str = "(get-model)";

/// What et knows about one solver family. Only [`Family::name`] is required; every
/// other method has the answer for a family that needs nothing special.
pub trait Family: Sync {
    /// The family's name in pools, specs, CSVs and run manifests (`z3`, `cvc5`, ...).
    fn name(&self) -> &'static str;

    /// Whether a program file name belongs to this family, to guess the family of a
    /// solver from ET's `solvers.cfg` (`/opt/z3-4.8.5/bin/z3` → z3).
    fn recognises(&self, file_name: &str) -> bool {
        file_name.contains(self.name())
    }

    /// Options an installed solver of this family runs with: its own checks of its
    /// answers (model and unsat-core validation), which turn wrong models into
    /// `invalid_model` verdicts.
    fn self_check_options(&self) -> &'static [&'static str] {
        &[]
    }

    /// Those of [`Family::self_check_options`] that only check the solver's own answer
    /// (its model, its unsat core): without them the answer is the same, only found
    /// faster and unchecked. Triage re-runs a performance finding without them, to
    /// tell a slow solver from a slow check.
    fn answer_checks(&self) -> &'static [&'static str] {
        &[]
    }

    /// How the solver counts its work deterministically, when et can read it (z3's
    /// `rlimit`): the same count on every machine, so a slowdown reproduces without
    /// timing. `None` for a family without one et reads.
    fn work_count(&self) -> Option<WorkCount> {
        None
    }

    /// The families, in order of preference, whose newest release in the pool judges
    /// this family's solvers when nothing else is configured (ET's rule: the other
    /// family).
    fn reference_families(&self) -> &'static [&'static str] {
        OTHER_FAMILY_REFERENCES
    }

    /// The command-line options that make a solver print a model for `(get-model)`
    /// after `sat` (cvc5 and cvc4 refuse `(get-model)` without `--produce-models`), or
    /// `None` when the script asks for models instead ([`Family::model_preamble`]).
    /// `Some` is also what makes a pool entry's `models` default to true: et knows
    /// this family prints models it can read. The options may depend on the release
    /// (`version`); whether there are any (`Some`) does not.
    fn model_options(&self, version: &str) -> Option<&'static [&'static str]> {
        let _ = version;
        None
    }

    /// What a script starts with to make the solver keep models, for a family without
    /// [`Family::model_options`]: SMT-LIB's `(set-option :produce-models true)`, which
    /// every SMT-LIB solver understands (it must come before `(set-logic ...)`).
    /// Families with model options keep their command line and get nothing here.
    fn model_preamble(&self) -> Option<&'static str> {
        match self.model_options("") {
            Some(_) => None,
            None => Some("(set-option :produce-models true)"),
        }
    }

    /// Options that make the solver take a script: several check-sats, `push`/`pop`,
    /// `check-sat-assuming` (yices-smt2 refuses them all without `--incremental`).
    fn incremental_options(&self) -> &'static [&'static str] {
        &[]
    }

    /// The command that asks for the model after `(check-sat)`.
    fn model_request(&self) -> &'static str {
        SMTLIB_MODEL_REQUEST
    }

    /// How release `version` writes values in a model (string escapes, whether
    /// decimals are exact), for et's model check: standard SMT-LIB 2.6 by default.
    fn model_dialect(&self, version: &str) -> ModelDialect {
        let _ = version;
        ModelDialect::default()
    }

    /// The first release whose strings are SMT-LIB 2.6's Unicode strings, for a family
    /// whose earlier releases implemented 8-bit strings (`None`: always Unicode, or no
    /// strings). et's study rule judges those earlier releases on `strings` by the
    /// newest release of the family run without Unicode
    /// ([`crate::solvers::reference_rules::study_rules`]).
    fn unicode_strings_since(&self) -> Option<&'static str> {
        None
    }

    /// Text a script must start with for this family to accept a formula of `logic`
    /// (the grammar's SMT-LIB logic, if it declares one), or `None` if the formula can
    /// be given as it is. yices-smt2 knows no theory until `(set-logic ...)`.
    fn prelude(&self, logic: Option<&str>) -> Option<String> {
        let _ = logic;
        None
    }

    /// The options that make release `version` treat strings as sequences of 8-bit
    /// characters, as solvers did before SMT-LIB 2.6's Unicode strings (`None` if the
    /// family has no such mode). A reference with them judges old releases by the
    /// semantics those releases implemented.
    fn ascii_strings_options(&self, version: &str) -> Option<&'static [&'static str]> {
        let _ = version;
        None
    }

    /// How release `version` runs as a session (one long-lived process fed formula
    /// after formula, reset in between; `solvers::session`), or `None` when it cannot
    /// and runs fresh, one process per formula (the default, and what a family et does
    /// not know gets).
    fn session(&self, version: &str) -> Option<SessionProtocol> {
        let _ = version;
        None
    }

    /// The commands that print the options of release `version` whose program is
    /// `program`, one after the other (their outputs, joined, are read by
    /// [`Family::parse_options`]), or why the family cannot list them. A driver et
    /// installs may list them instead (cvc5's:
    /// [`super::install::packaging::option_listing`]).
    fn option_listing(&self, program: &str, version: &str) -> Result<Vec<Vec<String>>, String> {
        let _ = (program, version);
        Err("et knows no way to list this family's options".to_string())
    }

    /// How to list release `version`'s tactics (the strategies `check-sat-using`
    /// takes): the options after the program and the script it reads on standard input;
    /// `None` for a family without tactics.
    fn tactic_listing(&self, version: &str) -> Option<(&'static [&'static str], &'static str)> {
        let _ = version;
        None
    }

    /// The tactics in the output of [`Family::tactic_listing`], those et can judge:
    /// one whose output is no answer (statistics printed in its place) is left out.
    fn parse_tactics(&self, listing: &str) -> Vec<catalog::Tactic> {
        let _ = listing;
        Vec::new()
    }

    /// The options in the output of [`Family::option_listing`]; by default the output
    /// is in et's catalog line format ([`catalog`]).
    fn parse_options(&self, listing: &str) -> Result<Vec<OptionSpec>, String> {
        catalog::parse_lines(listing).map_err(|e| e.to_string())
    }

    /// Why `option` is kept in the catalog but not enumerated, if it is not: by
    /// default et's common rule (output, tracing, limits, files, proofs, threads and
    /// random seeds, by the words of its name, [`common_leave_out`]).
    fn leave_out(&self, option: &OptionSpec) -> Option<String> {
        common_leave_out(option)
    }

    /// What of `needs` (the theories of a grammar's logic) this family does not take,
    /// in words ("strings and quantifiers"), or `None` when it takes them all. A
    /// formula outside a family's logics is not sent to it: its `(error ...)` or
    /// `unsupported` would say nothing about the solver. Families et does not know
    /// take everything.
    fn lacks(&self, needs: &[catalog::Theory]) -> Option<String> {
        let _ = needs;
        None
    }

    /// The theories option `option` acts on, when it acts only on some
    /// ([`catalog::Theory`]); empty when it may act on any formula, which is what an
    /// option the family's table does not name gets.
    fn acts_only_on(&self, option: &str) -> &'static [catalog::Theory] {
        let _ = option;
        &[]
    }

    /// The modes the published campaigns ran this family in, enumerated before any
    /// other configuration (those whose options a release's catalog lacks are not
    /// offered for it).
    fn curated_configurations(&self) -> &'static [Curated] {
        &[]
    }

    /// The command-line argument that sets option `name` to `value`: `--name=value` by
    /// default.
    fn option_argument(&self, name: &str, value: &str) -> String {
        format!("--{name}={value}")
    }
}

/// What a session of a family's solver needs: how the program reads commands from
/// standard input and answers each as it arrives, how it is reset between formulas,
/// and how the `(echo "...")` that follows each formula comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionProtocol {
    /// Options after the program that make it read standard input command by command
    /// (`-in` for z3).
    pub options: &'static [&'static str],
    /// The command sent between two formulas.
    pub reset: &'static str,
    /// Commands sent after every reset when the command line holds the option paired
    /// with them: what a reset may clear that the formula's answer depends on.
    pub restore: &'static [(&'static str, &'static str)],
    /// How the solver prints `(echo "TEXT")`.
    pub echo: Echo,
    /// Whether an `(error ...)` ends the process. Such a solver is asked for the model
    /// only after a `sat` answer (a fresh process asked after `unsat` prints an error
    /// and the session would end), unless it prints models by itself
    /// ([`SessionProtocol::model_dump`]); one that goes on gets the script in one piece.
    pub ends_on_error: bool,
    /// A model option and the option that, with it, makes the solver print the model
    /// after each `sat` answer by itself (cvc4 and cvc5: `--produce-models`,
    /// `--dump-models`). A session whose command line holds the first runs with the
    /// second and is not sent the model request: one exchange per formula instead of
    /// two, and nothing to refuse after `unsat`.
    pub model_dump: Option<(&'static str, &'static str)>,
}

/// How a solver prints the string of an `(echo "TEXT")`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Echo {
    /// `TEXT` (z3, yices).
    Bare,
    /// `"TEXT"`, as SMT-LIB 2.6 says (cvc4, cvc5).
    Quoted,
}

impl Echo {
    /// The line (without its newline) that `(echo "TEXT")` prints; `text` holds no
    /// quote or backslash.
    pub fn line(self, text: &str) -> String {
        match self {
            Echo::Bare => text.to_string(),
            Echo::Quoted => format!("\"{text}\""),
        }
    }
}

impl SessionProtocol {
    /// What is sent between two formulas to a solver run as `command`: the reset and
    /// the restoring commands whose option `command` holds, one per line.
    pub fn between_formulas(&self, command: &[String]) -> String {
        let mut text = format!("{}\n", self.reset);
        for (option, restore) in self.restore {
            if command.iter().any(|c| c == option) {
                text.push_str(restore);
                text.push('\n');
            }
        }
        text
    }

    /// `command` with the session options after the program, and the model-dump option
    /// when `command` asks for models ([`SessionProtocol::dumps_models`]).
    pub fn command(&self, command: &[String]) -> Vec<String> {
        let mut with = command[..command.len().min(1)].to_vec();
        with.extend(self.options.iter().map(|o| o.to_string()));
        if let Some((_, dump)) = self.model_dump.filter(|_| self.dumps_models(command)) {
            with.push(dump.to_string());
        }
        with.extend(command.iter().skip(1).cloned());
        with
    }

    /// Whether a session of `command` has the solver print each model by itself
    /// (see [`SessionProtocol::model_dump`]).
    pub fn dumps_models(&self, command: &[String]) -> bool {
        self.model_dump
            .is_some_and(|(models, _)| command.iter().any(|c| c == models))
    }
}

/// A solver's deterministic count of the work one call did ([`Family::work_count`]).
#[derive(Debug, Clone, Copy)]
pub struct WorkCount {
    /// The command-line option that makes it print the count (z3: `-st`).
    pub option: &'static str,
    /// Reads the count from what the solver printed on stdout.
    pub read: fn(&str) -> Option<u64>,
    /// The option that caps the count, written `NAME=N` (z3: `rlimit`): how a reader
    /// reproduces a budget.
    pub limit: &'static str,
}

/// The session protocol of release `version` of family `name`; `None` for a family et
/// does not know or one that cannot run a session.
pub fn session_protocol(name: &str, version: &str) -> Option<SessionProtocol> {
    find(name).and_then(|f| f.session(version))
}

impl fmt::Debug for dyn Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for dyn Family {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for dyn Family {}

/// Every family et knows, in the order family guessing consults them (et's packagings,
/// `install::packaging::PACKAGINGS`, follow it). A new family is a new module and one
/// entry here.
pub static FAMILIES: &[&dyn Family] = &[
    &z3::Z3,
    &cvc5::Cvc5,
    &cvc4::Cvc4,
    &yices::Yices,
    &bitwuzla::Bitwuzla,
    &boolector::Boolector,
];

/// The family called `name` (ASCII case-insensitive), if et knows it.
pub fn find(name: &str) -> Option<&'static dyn Family> {
    FAMILIES
        .iter()
        .copied()
        .find(|f| f.name().eq_ignore_ascii_case(name))
}

/// A solver of a family et does not know (`family = "mathsat"`): a generic SMT-LIB
/// solver, with every provided method of [`Family`] (models through the script,
/// [`Family::model_preamble`]). Not in [`FAMILIES`]: nothing finds it by name.
#[derive(Debug, Clone, Copy)]
pub struct SmtLib;

impl Family for SmtLib {
    fn name(&self) -> &'static str {
        "smt-lib"
    }
}

/// What et knows about family `name`: its module, or [`SmtLib`] for a family et does
/// not know.
pub fn find_or_generic(name: &str) -> &'static dyn Family {
    find(name).unwrap_or(&SmtLib)
}

/// The family whose program a path runs (`/opt/yices-2.6.4/bin/yices-smt2` → yices),
/// judged by the file name.
pub fn guess(program: &str) -> Option<&'static dyn Family> {
    let base = Path::new(program)
        .file_name()
        .map_or(program.to_string(), |b| b.to_string_lossy().into_owned());
    FAMILIES.iter().copied().find(|f| f.recognises(&base))
}

/// The families whose newest release judges a solver of family `name` by default.
pub fn reference_families(name: &str) -> &'static [&'static str] {
    find(name).map_or(OTHER_FAMILY_REFERENCES, |f| f.reference_families())
}

/// Whether a pool entry of family `name` asks for models when its `models` field is
/// not given: yes for the families whose model options et knows; an explicit
/// `models = true` works for any family (through [`Family::model_preamble`]).
pub fn models_by_default(name: &str) -> bool {
    find(name).is_some_and(|f| f.model_options("").is_some())
}

/// The theories of `needs` missing from `takes`, in words ("strings and quantifiers"),
/// for [`Family::lacks`]; `None` when `takes` has them all.
pub fn missing_theories(needs: &[catalog::Theory], takes: &[catalog::Theory]) -> Option<String> {
    let missing: Vec<&str> = needs
        .iter()
        .filter(|t| !takes.contains(t))
        .map(|t| t.label())
        .collect();
    match missing.as_slice() {
        [] => None,
        [one] => Some(one.to_string()),
        [init @ .., last] => Some(format!("{} and {last}", init.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found_in_any_case() {
        for (i, f) in FAMILIES.iter().enumerate() {
            assert!(
                FAMILIES[i + 1..].iter().all(|g| g.name() != f.name()),
                "{} twice",
                f.name()
            );
            assert_eq!(find(&f.name().to_uppercase()).unwrap().name(), f.name());
        }
        assert!(find("mathsat").is_none());
    }

    #[test]
    fn programs_are_recognised_from_paths() {
        let guessed = |p: &str| guess(p).map(|f| f.name());
        assert_eq!(guessed("/opt/z3-4.8.5/bin/z3"), Some("z3"));
        assert_eq!(guessed("/usr/bin/cvc4"), Some("cvc4"));
        assert_eq!(guessed("cvc5"), Some("cvc5"));
        assert_eq!(guessed("./yices-2.6.4/bin/yices-smt2"), Some("yices"));
        assert_eq!(guessed("/opt/bitwuzla/bin/bitwuzla"), Some("bitwuzla"));
        assert_eq!(guessed("/usr/bin/boolector"), Some("boolector"));
        assert_eq!(guessed("/opt/mathsat/bin/mathsat"), None);
    }

    #[test]
    fn default_references_are_the_other_family() {
        assert_eq!(reference_families("z3"), ["cvc5", "cvc4"]);
        assert_eq!(reference_families("cvc5"), ["z3"]);
        assert_eq!(reference_families("cvc4"), ["z3"]);
        assert_eq!(reference_families("yices"), OTHER_FAMILY_REFERENCES);
        assert_eq!(reference_families("fake"), OTHER_FAMILY_REFERENCES);
    }

    #[test]
    fn model_defaults_follow_the_family() {
        for name in ["z3", "cvc5", "cvc4", "yices"] {
            assert!(models_by_default(name), "{name}");
        }
        assert!(models_by_default("bitwuzla"));
        assert!(!models_by_default("fake"));
        // Families with model options keep their command line; the others (and those
        // et does not know) ask in the script.
        for f in FAMILIES {
            assert_eq!(
                f.model_preamble().is_some(),
                f.model_options("").is_none(),
                "{}",
                f.name()
            );
        }
        assert_eq!(
            find_or_generic("perturbed").model_preamble(),
            Some("(set-option :produce-models true)")
        );
        assert_eq!(find_or_generic("perturbed").model_request(), "(get-model)");
        assert_eq!(
            find("cvc5").unwrap().model_options("1.4.2"),
            Some(&["--produce-models"][..])
        );
        assert_eq!(find("z3").unwrap().model_options("4.16.0"), Some(&[][..]));
        // yices 2.7 prints SMT-LIB models by default and no longer knows the option.
        let yices = find("yices").unwrap();
        assert_eq!(
            yices.model_options("2.6.5"),
            Some(&["--smt2-model-format"][..])
        );
        assert_eq!(yices.model_options("2.7.0"), Some(&[][..]));
    }

    #[test]
    fn only_yices_needs_a_prelude() {
        for f in FAMILIES {
            let prelude = f.prelude(Some("QF_NIA"));
            if f.name() == "yices" {
                assert_eq!(prelude.as_deref(), Some("(set-logic QF_NIA)"));
                assert_eq!(f.prelude(None).as_deref(), Some("(set-logic ALL)"));
            } else {
                assert_eq!(prelude, None, "{}", f.name());
            }
        }
    }

    #[test]
    fn z3_strings_without_unicode_depend_on_the_release() {
        let z3 = find("z3").unwrap();
        assert_eq!(z3.ascii_strings_options("4.8.10"), Some(&[][..]));
        assert_eq!(
            z3.ascii_strings_options("4.8.11"),
            Some(&["unicode=false"][..])
        );
        assert_eq!(
            z3.ascii_strings_options("4.8.12"),
            Some(&["unicode=false"][..])
        );
        assert_eq!(
            z3.ascii_strings_options("4.8.13"),
            Some(&["encoding=ascii"][..])
        );
        assert_eq!(
            z3.ascii_strings_options("4.16.0"),
            Some(&["encoding=ascii"][..])
        );
        assert_eq!(
            z3.ascii_strings_options("trunk"),
            Some(&["encoding=ascii"][..])
        );
        assert_eq!(find("cvc5").unwrap().ascii_strings_options("1.4.2"), None);
    }

    #[test]
    fn sessions_where_the_family_can_run_one() {
        let z3 = session_protocol("z3", "4.16.0").unwrap();
        assert_eq!(z3.options, ["-in"]);
        assert_eq!(z3.echo.line("s-1"), "s-1");
        let command = vec!["z3".to_string(), "model_validate=true".to_string()];
        assert_eq!(z3.command(&command), ["z3", "-in", "model_validate=true"]);
        assert_eq!(z3.between_formulas(&command), "(reset)\n");
        for cvc in ["cvc4", "cvc5"] {
            let p = session_protocol(cvc, "1.0.3").unwrap();
            assert_eq!(p.echo.line("s-1"), "\"s-1\"");
            let models = vec![cvc.to_string(), "--produce-models".to_string()];
            assert_eq!(
                p.between_formulas(&models),
                "(reset)\n(set-option :produce-models true)\n"
            );
            assert_eq!(p.between_formulas(&models[..1]), "(reset)\n");
            // Asked for models, the session has the solver print each one by itself.
            assert_eq!(
                p.command(&models),
                [
                    cvc,
                    "--incremental",
                    "--lang=smt2",
                    "--dump-models",
                    "--produce-models"
                ]
            );
            assert_eq!(
                p.command(&models[..1]),
                [cvc, "--incremental", "--lang=smt2"]
            );
        }
        // cvc5 1.0.9-1.1.x from wheels run et's Python driver, which reads its whole
        // input first; et's C-API runner (1.2 on) streams.
        assert!(session_protocol("cvc5", "1.1.2").is_none());
        assert!(session_protocol("cvc5", "1.4.2").is_some());
        let yices = session_protocol("yices", "2.6.5").unwrap();
        assert!(
            yices.options.is_empty(),
            "--incremental changes yices' answers"
        );
        let bitwuzla = session_protocol("bitwuzla", "0.9.1").unwrap();
        assert!(bitwuzla.ends_on_error && bitwuzla.echo == Echo::Quoted);
        for none in ["boolector", "mathsat"] {
            assert!(session_protocol(none, "1.0").is_none(), "{none}");
        }
    }
}
