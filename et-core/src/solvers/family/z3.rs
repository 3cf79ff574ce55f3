//! z3 (Microsoft Research). Validates its own models with `model_validate=true`;
//! judged by the newest cvc5 (else cvc4) by default; strings became Unicode in 4.8.11.

use et_eval::string::Dialect as StringDialect;
use et_eval::ModelDialect;

use super::catalog::{
    acts_only_on_by, common_leave_out, Curated, OptionKind, OptionSpec, Tactic, Theory,
    BIT_VECTORS_AND_FLOATS,
};
use super::{Echo, Family, SessionProtocol, WorkCount};
use crate::version::compare_versions;

/// The z3 family.
#[derive(Debug, Clone, Copy)]
pub struct Z3;

/// The first release with Unicode strings (and its `unicode` switch).
const UNICODE_STRINGS: &str = "4.8.11";

/// The first release where the switch is `encoding=unicode|bmp|ascii` instead.
const ENCODING_OPTION: &str = "4.8.13";

impl Family for Z3 {
    fn name(&self) -> &'static str {
        "z3"
    }

    fn self_check_options(&self) -> &'static [&'static str] {
        &["model_validate=true"]
    }

    fn answer_checks(&self) -> &'static [&'static str] {
        self.self_check_options()
    }

    fn work_count(&self) -> Option<WorkCount> {
        // `-st` prints statistics after the answers, among them `:rlimit-count N`, the
        // resource units `rlimit=N` caps (every release since 4.8 prints it).
        Some(WorkCount {
            option: "-st",
            read: rlimit_count,
            limit: "rlimit",
        })
    }

    fn reference_families(&self) -> &'static [&'static str] {
        &["cvc5", "cvc4"]
    }

    fn model_options(&self, _version: &str) -> Option<&'static [&'static str]> {
        // z3's `model=true` is on by default: `(get-model)` just works.
        Some(&[])
    }

    fn model_dialect(&self, version: &str) -> ModelDialect {
        // Releases with 8-bit strings escape characters as `\xNN` in models.
        let legacy = compare_versions(version, UNICODE_STRINGS) == std::cmp::Ordering::Less;
        ModelDialect {
            strings: if legacy {
                StringDialect::Z3Legacy
            } else {
                StringDialect::Smtlib26
            },
            ..ModelDialect::default()
        }
    }

    fn unicode_strings_since(&self) -> Option<&'static str> {
        Some(UNICODE_STRINGS)
    }

    fn ascii_strings_options(&self, version: &str) -> Option<&'static [&'static str]> {
        use std::cmp::Ordering::Less;
        Some(if compare_versions(version, UNICODE_STRINGS) == Less {
            &[] // characters are 8-bit already
        } else if compare_versions(version, ENCODING_OPTION) == Less {
            &["unicode=false"]
        } else {
            &["encoding=ascii"]
        })
    }

    fn session(&self, version: &str) -> Option<SessionProtocol> {
        // Measured: the same answers as fresh processes; options survive `(reset)`;
        // after an error z3 goes on (the rejected assertion left out), as a fresh z3
        // does. 4.16 about 6x faster than fresh, 4.8.x only 1.6-2.4x (`(reset)` itself
        // takes 5-7 ms there), which is still a gain.
        let _ = version;
        Some(SessionProtocol {
            options: &["-in"],
            reset: "(reset)",
            restore: &[],
            echo: Echo::Bare,
            ends_on_error: false,
            model_dump: None,
        })
    }

    fn option_listing(&self, program: &str, version: &str) -> Result<Vec<Vec<String>>, String> {
        // Every parameter with its type, description and default (4.8.5 on).
        let _ = version;
        Ok(vec![vec![program.to_string(), "-pd".to_string()]])
    }

    fn parse_options(&self, listing: &str) -> Result<Vec<OptionSpec>, String> {
        parse_parameters(listing)
    }

    fn tactic_listing(&self, version: &str) -> Option<(&'static [&'static str], &'static str)> {
        // `(help-tactic)` lists the combinators, then every built-in tactic with its
        // parameters, then the probes (4.8.5 on).
        let _ = version;
        Some((&["-in"], "(help-tactic)"))
    }

    fn parse_tactics(&self, listing: &str) -> Vec<Tactic> {
        parse_tactics(listing)
    }

    fn leave_out(&self, option: &OptionSpec) -> Option<String> {
        if let Some(why) = common_leave_out(option) {
            return Some(why);
        }
        let module = option.name.split_once('.').map(|(m, _)| m);
        if let Some((_, why)) = LEFT_OUT_MODULES.iter().find(|(m, _)| Some(*m) == module) {
            return Some(why.to_string());
        }
        if let Some((_, why)) = LEFT_OUT_GLOBALS.iter().find(|(n, _)| *n == option.name) {
            return Some(why.to_string());
        }
        if option.name.starts_with("sat.drat.") {
            return Some("proofs (DRAT)".to_string());
        }
        if BUDGETS.iter().any(|b| {
            option.name == *b
                || option
                    .name
                    .strip_suffix(b)
                    .is_some_and(|rest| rest.ends_with('.'))
        }) {
            return Some(
                "a budget: z3 gives up (`unknown`) once it is spent, by design".to_string(),
            );
        }
        let note = option.note.to_ascii_lowercase();
        NOTE_MARKS
            .iter()
            .find(|(mark, _)| note.contains(mark))
            .map(|(_, why)| why.to_string())
    }

    fn acts_only_on(&self, option: &str) -> &'static [Theory] {
        // `smt.arith.` takes every parameter of that module; `smt.mbqi` takes itself
        // and `smt.mbqi.*`.
        acts_only_on_by(option, ACTS_ONLY_ON, |name, pattern| {
            match pattern.strip_suffix('.') {
                Some(_) => name.starts_with(pattern),
                None => {
                    name == pattern
                        || name
                            .strip_prefix(pattern)
                            .is_some_and(|rest| rest.starts_with('.'))
                }
            }
        })
    }

    fn curated_configurations(&self) -> &'static [Curated] {
        CURATED
    }

    fn option_argument(&self, name: &str, value: &str) -> String {
        format!("{name}={value}")
    }
}

/// The modes ET's campaigns ran z3 in besides its default.
const CURATED: &[Curated] = &[
    Curated {
        name: "newcore",
        options: &[("tactic.default_tactic", "smt"), ("sat.euf", "true")],
        description: "z3's new core (`sat.euf`, which z3's help calls not ready)",
    },
    Curated {
        name: "arith2",
        options: &[("smt.arith.solver", "2")],
        description: "the simplex-based arithmetic solver",
    },
    Curated {
        name: "arith5",
        options: &[("smt.arith.solver", "5")],
        description: "the infinitary LRA arithmetic solver",
    },
    Curated {
        name: "arith6",
        options: &[("smt.arith.solver", "6")],
        description: "the lra arithmetic solver",
    },
    Curated {
        name: "z3str3",
        options: &[("smt.string_solver", "z3str3")],
        description: "the z3str3 string solver",
    },
    Curated {
        name: "cache-all",
        options: &[("rewriter.cache_all", "true")],
        description: "the rewriter caches every term",
    },
    Curated {
        name: "pull-cheap-ite",
        options: &[("rewriter.pull_cheap_ite", "true")],
        description: "the rewriter pulls cheap if-then-else terms up",
    },
    Curated {
        name: "eq2ineq",
        options: &[("rewriter.eq2ineq", "true")],
        description: "the rewriter splits equalities into two inequalities",
    },
    Curated {
        name: "hoist-mul",
        options: &[("rewriter.hoist_mul", "true")],
        description: "the rewriter hoists multiplication over sums",
    },
    Curated {
        name: "no-flat",
        options: &[("rewriter.flat", "false")],
        description: "the rewriter does not flatten associative operators",
    },
];

/// Parameters (a module ending in `.`, else a name and its sub-parameters) that act
/// only on some theories: z3 builds a theory's solver only for formulas that have its
/// terms, and its arithmetic modules (`lp`, `nlsat`, algebraic numbers, real closed
/// fields, polynomial factoring) serve the arithmetic solver alone.
const ACTS_ONLY_ON: &[(&str, &[Theory])] = &[
    ("smt.arith.", &[Theory::Arithmetic]),
    ("lp.", &[Theory::Arithmetic]),
    ("nlsat.", &[Theory::Arithmetic]),
    ("algebraic.", &[Theory::Arithmetic]),
    ("rcf.", &[Theory::Arithmetic]),
    ("factor.", &[Theory::Arithmetic]),
    ("smt.bv.", BIT_VECTORS_AND_FLOATS),
    ("ackermannization.", BIT_VECTORS_AND_FLOATS),
    ("smt.array.", &[Theory::Arrays]),
    ("smt.seq.", &[Theory::Strings]),
    ("smt.string_solver", &[Theory::Strings]),
    ("smt.dt_lazy_splits", &[Theory::Datatypes]),
    ("smt.qi.", &[Theory::Quantifiers]),
    ("smt.q.", &[Theory::Quantifiers]),
    ("smt.mbqi", &[Theory::Quantifiers]),
    ("smt.ematching", &[Theory::Quantifiers]),
    ("smt.macro_finder", &[Theory::Quantifiers]),
    ("smt.quasi_macros", &[Theory::Quantifiers]),
    ("smt.restricted_quasi_macros", &[Theory::Quantifiers]),
    ("smt.pull_nested_quantifiers", &[Theory::Quantifiers]),
    ("smt.distribute_forall", &[Theory::Quantifiers]),
    ("smt.qsat_use_qel", &[Theory::Quantifiers]),
    ("smt.core.extend_patterns", &[Theory::Quantifiers]),
    ("smt.core.extend_nonlocal_patterns", &[Theory::Quantifiers]),
    ("pi.", &[Theory::Quantifiers]),
    ("parser.ignore_bad_patterns", &[Theory::Quantifiers]),
    ("parser.ignore_user_patterns", &[Theory::Quantifiers]),
    ("smt.ho_matching", &[Theory::Extensions]),
    ("smt.ho_matching_bound", &[Theory::Extensions]),
    ("smt.ho_qmatcher", &[Theory::Extensions]),
    ("smt.ff.", &[Theory::Extensions]),
    ("smt.finite_set.", &[Theory::Extensions]),
];

/// Modules whose parameters are kept in the catalog but not enumerated.
const LEFT_OUT_MODULES: &[(&str, &str)] = &[
    ("pp", "output only (pretty printer)"),
    (
        "model_evaluator",
        "output only (how models are evaluated and printed)",
    ),
    ("fp", "other logics (fixed-point engines, Horn clauses)"),
    ("opt", "other logics (optimization objectives)"),
    ("parallel", "threads (nondeterministic)"),
    (
        "model",
        "output only (how models are built and printed: et asks for models and checks them itself)",
    ),
    ("smt_parallel", "experimental (z3's help), threads"),
];

/// Global parameters kept in the catalog but not enumerated.
const LEFT_OUT_GLOBALS: &[(&str, &str)] = &[
    ("model", "models: et asks for them"),
    ("model_validate", "a self-check: the pool entry chooses it"),
    ("unsat_core", "output only (unsat cores)"),
    (
        "encoding",
        "changes the meaning of strings (et's study rules choose it)",
    ),
    (
        "unicode",
        "changes the meaning of strings (et's study rules choose it)",
    ),
    ("ctrl_c", "signals"),
    (
        "smt.array.extensional",
        "changes the meaning of the formula: arrays without extensionality (SMT-LIB's arrays are extensional)",
    ),
    ("solver.axioms2files", "files"),
    ("solver.instantiations2console", "output only"),
    ("solver.lemmas2console", "output only"),
    (
        "parser.error_for_visual_studio",
        "output only (error format)",
    ),
    ("pi.warnings", "output only (warnings)"),
    ("sat.dimacs.core", "output only (DIMACS cores)"),
    ("warning", "output only (warnings)"),
    ("type_check", "input checking"),
    ("well_sorted_check", "input checking"),
    (
        "smtlib2_compliant",
        "output only (SMT-LIB compliance of replies)",
    ),
];

/// Parameters (the last components of their names, in any module) that bound the
/// search: once spent, z3 answers `unknown` — `sat.restart.max=0` gives up on
/// `(xor a b)` with reason "sat.max.restarts", `sat.max_conflicts=0` at once. Their
/// default is unbounded; a small value makes every formula a give-up by design.
const BUDGETS: &[&str] = &[
    "max_conflicts",
    "restart.max",
    "inprocess.max",
    "max_restarts",
    "max_instances",
    "max_iterations",
    "max_steps",
    "max_unfolding",
    "regex_budget",
];

/// Words of a description that keep a parameter out.
const NOTE_MARKS: &[(&str, &str)] = &[
    ("not ready", "not ready (z3's help)"),
    ("preliminary", "preliminary (z3's help)"),
    ("experimental", "experimental (z3's help)"),
    ("debugging", "debugging (z3's help)"),
    ("[internal]", "internal (z3's help)"),
    // Options that leave SMT-LIB's meaning of the formula: a changed answer is what
    // they ask for, not a bug (`rewriter.hi_div0=false` leaves bit-vector division by
    // zero unspecified, `smt.arith.ignore_int` solves integers as reals).
    (
        "hardware interpretation",
        "changes the meaning of the formula: division by zero or unspecified values other than SMT-LIB's (z3's help)",
    ),
    (
        "treat integer variables as real",
        "changes the meaning of the formula: integers solved as reals (z3's help)",
    ),
];

/// Largest value of z3's `unsigned int` parameters.
const UNSIGNED_MAX: &str = "4294967295";

/// Reads `z3 -pd`: `Global parameters` and `[module] NAME, description: ...` headings,
/// then one `    name (type) description (default: value)` line per parameter (a
/// module's parameters are `module.name`).
fn parse_parameters(listing: &str) -> Result<Vec<OptionSpec>, String> {
    let mut module: Option<String> = None;
    let mut options = Vec::new();
    for line in listing.lines() {
        if let Some(rest) = line.strip_prefix("[module] ") {
            let name = rest.split(',').next().unwrap_or(rest).trim();
            module = Some(name.to_string());
            continue;
        }
        if line.starts_with("Global parameters") {
            module = None;
            continue;
        }
        let Some(body) = line.strip_prefix("    ") else {
            continue;
        };
        let Some((name, rest)) = body.split_once(" (") else {
            continue;
        };
        let Some((kind, rest)) = rest.split_once(')') else {
            return Err(format!("no type in `{line}`"));
        };
        let kind = match kind {
            "bool" => OptionKind::Bool,
            "unsigned int" => OptionKind::Uint,
            "int" => OptionKind::Int,
            "double" => OptionKind::Real,
            "string" | "symbol" => OptionKind::Text,
            other => return Err(format!("unknown parameter type `{other}` in `{line}`")),
        };
        let rest = rest.trim();
        // The default is the last `(default: ...)`; a description may hold another.
        let (note, default) = match rest.rfind("(default: ") {
            Some(at) if rest.ends_with(')') => (
                rest[..at].trim(),
                Some(&rest[at + "(default: ".len()..rest.len() - 1]),
            ),
            _ => (rest, None),
        };
        let full = match &module {
            Some(m) => format!("{m}.{name}"),
            None => name.to_string(),
        };
        let mut spec = OptionSpec::new(&full, kind, default);
        if kind == OptionKind::Uint {
            spec.min = Some("0".to_string());
            spec.max = Some(UNSIGNED_MAX.to_string());
        }
        spec.note = note.to_string();
        options.push(spec);
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_with_module_type_and_default() {
        let listing = "Global parameters\n    auto_config (bool) use heuristics (default: true)\n    \
             timeout (unsigned int) (default: infty) timeout in milliseconds. (default: 4294967295)\n\n\
             [module] sat, description: propositional SAT solver\n    \
             euf (bool) enable euf solver (this feature is preliminary and not ready for general consumption) (default: false)\n\
             [module] tactic, description: tactic parameters\n    default_tactic (symbol) overwrite default tactic\n";
        let options = parse_parameters(listing).unwrap();
        let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(
            names,
            ["auto_config", "timeout", "sat.euf", "tactic.default_tactic"]
        );
        assert_eq!(options[1].default.as_deref(), Some("4294967295"));
        assert_eq!(options[1].note, "(default: infty) timeout in milliseconds.");
        assert_eq!(options[3].kind, OptionKind::Text);
        assert_eq!(options[3].default, None);
        assert!(Z3.leave_out(&options[1]).is_some());
        assert!(Z3.leave_out(&options[2]).unwrap().contains("not ready"));
        assert_eq!(Z3.leave_out(&options[0]), None);
    }

    #[test]
    fn budgets_are_left_out_in_any_module_and_only_whole() {
        let why = |name| Z3.leave_out(&OptionSpec::new(name, OptionKind::Uint, Some("4294967295")));
        for budget in [
            "sat.max_conflicts",
            "sat.restart.max",
            "nlsat.max_conflicts",
            "smt.qi.max_instances",
        ] {
            assert!(
                why(budget).is_some_and(|w| w.contains("budget")),
                "{budget}"
            );
        }
        for tuning in [
            "sat.restart.initial",
            "smt.restart.factor",
            "rewriter.max_degree",
            "sat.xmax_conflicts",
        ] {
            assert_eq!(why(tuning), None, "{tuning}");
        }
    }
}

/// The last `:rlimit-count N` of z3's `-st` statistics.
fn rlimit_count(stdout: &str) -> Option<u64> {
    stdout.lines().rev().find_map(|line| {
        let rest = line
            .trim_start_matches([' ', '('])
            .strip_prefix(":rlimit-count")?;
        rest.trim().trim_end_matches(')').trim().parse().ok()
    })
}

#[cfg(test)]
mod work_count_tests {
    #[test]
    fn the_rlimit_count_is_read_from_the_statistics() {
        let stdout = "sat\n(\n  (define-fun x () Int 1)\n)\n(:max-memory 19.06\n :rlimit-count 92\n :time 0.01)\n";
        assert_eq!(super::rlimit_count(stdout), Some(92));
        assert_eq!(super::rlimit_count(" :rlimit-count       58)"), Some(58));
        assert_eq!(super::rlimit_count("sat\n"), None);
    }
}

/// The built-in tactics of `(help-tactic)`: each `- NAME description` line between
/// "builtin tactics:" and "builtin probes:", with the Boolean parameters listed under
/// it (`    NAME (bool) description (default: true)`), but for those that change what
/// is printed. `collect-statistics` prints statistics instead of an answer, which is
/// nothing to judge: left out.
fn parse_tactics(listing: &str) -> Vec<Tactic> {
    let mut out: Vec<Tactic> = Vec::new();
    let mut within = false;
    for line in listing.lines() {
        if line.starts_with("builtin tactics:") {
            within = true;
            continue;
        }
        if line.starts_with("builtin probes:") {
            break;
        }
        if !within {
            continue;
        }
        if let Some(rest) = line.strip_prefix("- ") {
            if let Some(name) = rest.split_whitespace().next() {
                out.push(Tactic {
                    name: name.to_string(),
                    flags: Vec::new(),
                });
            }
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some("(bool)")) = (words.next(), words.next()) else {
            continue;
        };
        let default = if line.trim_end().ends_with("(default: true)") {
            true
        } else if line.trim_end().ends_with("(default: false)") {
            false
        } else {
            continue;
        };
        // Flags that change what is printed, not what is computed: their output is no
        // answer to judge.
        let prints = ["print", "statistics", "trace", "verbose", "proof", "log"]
            .iter()
            .any(|w| name.contains(w));
        if let (Some(tactic), false) = (out.last_mut(), prints) {
            tactic.flags.push((name.to_string(), default));
        }
    }
    out.retain(|t| t.name != "collect-statistics");
    out
}
