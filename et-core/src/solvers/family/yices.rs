//! yices 2 (SRI), whose SMT-LIB 2 program is `yices-smt2`. yices-smt2 knows no theory until `(set-logic ...)`, so every script gets the grammar's logic
//! first; `ALL` when the grammar declares none, which in yices covers everything but
//! nonlinear arithmetic (that needs a `QF_N*` logic, i.e. MCSat).

use et_eval::ModelDialect;

use super::catalog::{leave_out_by, Curated, OptionKind, OptionSpec, Theory};
use super::{Echo, Family, SessionProtocol};

/// The yices family.
#[derive(Debug, Clone, Copy)]
pub struct Yices;

impl Family for Yices {
    fn name(&self) -> &'static str {
        "yices"
    }

    fn model_options(&self, version: &str) -> Option<&'static [&'static str]> {
        // Models as `define-fun`s like the other families, not yices' `(= a 2)`: an
        // option up to 2.6, the default from 2.7 on (whose yices-smt2 refuses the
        // option: measured on the development head, 2.7.0).
        if crate::version::at_least(version, "2.7.0") {
            Some(&[])
        } else {
            Some(&["--smt2-model-format"])
        }
    }

    fn model_dialect(&self, version: &str) -> ModelDialect {
        let _ = version;
        // yices prints rounded decimals for algebraic numbers, not exact values.
        ModelDialect {
            approximate_decimals: true,
            ..ModelDialect::default()
        }
    }

    fn lacks(&self, needs: &[Theory]) -> Option<String> {
        // yices-smt2 takes quantifiers only in its exists-forall mode (`--mode=ef`,
        // two-level exists-forall formulas, which et's calls do not use), and has no
        // strings, floating point or datatypes; its logics never mix bit-vectors with
        // arithmetic (no conversion between them).
        let takes = [Theory::Arithmetic, Theory::BitVectors, Theory::Arrays];
        if let Some(missing) = super::missing_theories(needs, &takes) {
            return Some(missing);
        }
        (needs.contains(&Theory::Arithmetic) && needs.contains(&Theory::BitVectors))
            .then(|| "bit-vectors mixed with arithmetic".to_string())
    }

    fn incremental_options(&self) -> &'static [&'static str] {
        // Without it: "push is not allowed in non-incremental mode", "multiple calls
        // to (check-sat) are not allowed" (yices-smt2 2.6.5).
        &["--incremental"]
    }

    fn prelude(&self, logic: Option<&str>) -> Option<String> {
        Some(format!("(set-logic {})", logic.unwrap_or("ALL")))
    }

    fn session(&self, version: &str) -> Option<SessionProtocol> {
        // Plain yices-smt2 reads standard input command by command and accepts
        // `(reset)` with the same answers as fresh (ints ~20x faster, bitvectors
        // 1.2x). Not `--incremental`: it changes answers (non-linear terms and
        // division by zero become errors). Each script brings its own
        // `(set-logic ...)` (the prelude), which a reset requires again; the echo
        // comes back bare; an error ends the process with exit 0.
        let _ = version;
        Some(SessionProtocol {
            options: &[],
            reset: "(reset)",
            restore: &[],
            echo: Echo::Bare,
            ends_on_error: true,
            model_dump: None,
        })
    }

    fn option_listing(&self, program: &str, version: &str) -> Result<Vec<Vec<String>>, String> {
        // yices-smt2 lists its options in three help texts: the main one, MCSat's
        // and the exists-forall solver's (2.6.x on).
        let _ = version;
        Ok(["--help", "--mcsat-help", "--ef-help"]
            .iter()
            .map(|help| vec![program.to_string(), help.to_string()])
            .collect())
    }

    fn parse_options(&self, listing: &str) -> Result<Vec<OptionSpec>, String> {
        Ok(parse_help(listing))
    }

    fn leave_out(&self, option: &OptionSpec) -> Option<String> {
        leave_out_by(option, LEFT_OUT_PREFIXES, |name, prefix| {
            name.starts_with(prefix)
        })
    }

    fn curated_configurations(&self) -> &'static [Curated] {
        &[Curated {
            name: "mcsat",
            options: &[("mcsat", "true")],
            description: "the MCSat solver (yices' solver for nonlinear arithmetic) on every logic",
        }]
    }

    fn option_argument(&self, name: &str, value: &str) -> String {
        // A yices flag takes no value: given, it switches the option away from its
        // default, which is the only value a configuration sets.
        if value == "true" || value == "false" {
            format!("--{name}")
        } else {
            format!("--{name}={value}")
        }
    }
}

/// yices-smt2 options kept in the catalog and not enumerated, by the start of their
/// names, beyond et's common rule.
const LEFT_OUT_PREFIXES: &[(&str, &str)] = &[
    (
        "incremental",
        "changes which formulas yices accepts (non-linear terms and division by zero become errors), not how it solves them",
    ),
    ("interactive", "input mode"),
    ("smt2-model-format", "output only (model format)"),
    ("bvconst-in-decimal", "output only (model format)"),
    ("dimacs", "exports the problem to a file instead of solving it"),
    ("nthreads", "threads (nondeterministic)"),
    (
        "ematch",
        "exists-forall solving only (et's grammars are quantifier-free)",
    ),
    (
        "mbqi-",
        "exists-forall solving only (et's grammars are quantifier-free)",
    ),
];

/// The options in yices-smt2's help texts: lines `--name` (a flag) or `--name=<arg>`
/// followed by a description that may say `(default = X)` or `(default: X)`,
/// `(can be a, b, or c)` or `(between MIN-MAX)`. `--version` and the help options are
/// not options of a call.
fn parse_help(listing: &str) -> Vec<OptionSpec> {
    let mut options: Vec<OptionSpec> = Vec::new();
    for line in listing.lines() {
        let Some(rest) = line.trim_start().strip_prefix("--") else {
            continue;
        };
        let end = rest
            .find(|c: char| c == '=' || c == ',' || c.is_whitespace())
            .unwrap_or(rest.len());
        let (name, rest) = rest.split_at(end);
        if name.is_empty()
            || matches!(name, "version" | "help" | "mcsat-help" | "ef-help")
            || options.iter().any(|o| o.name == name)
        {
            continue;
        }
        let argument = rest
            .strip_prefix("=<")
            .and_then(|r| r.split_once('>'))
            .map(|(arg, _)| arg);
        let note = rest
            .split_once("  ")
            .map_or("", |(_, description)| description)
            .trim();
        let default = between(note, "(default = ", ")")
            .or_else(|| between(note, "(default: ", ")"))
            .map(|d| d.split_whitespace().next().unwrap_or(d).to_string());
        let values: Vec<String> = between(note, "(can be ", ")")
            .map(|list| {
                list.split([',', ' '])
                    .map(str::trim)
                    .filter(|w| !w.is_empty() && *w != "or")
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let range = between(note, "(between ", ")").and_then(|r| r.split_once('-'));
        let number = |d: &str| d.parse::<f64>().is_ok();
        let kind = match argument {
            None => OptionKind::Bool,
            Some(_) if !values.is_empty() => OptionKind::Enum,
            Some(arg) if arg.contains("file") => OptionKind::Text,
            Some(_) => {
                let shown = [default.as_deref(), range.map(|r| r.1)];
                if shown.iter().flatten().any(|v| v.contains('.')) {
                    OptionKind::Real
                } else {
                    OptionKind::Int
                }
            }
        };
        let default = match kind {
            OptionKind::Bool => Some(default.unwrap_or_else(|| "false".to_string())),
            OptionKind::Int | OptionKind::Real => default.filter(|d| number(d)),
            _ => default,
        };
        let mut option = OptionSpec::new(name, kind, default.as_deref());
        option.values = values;
        if let Some((min, max)) = range {
            option.min = Some(min.to_string());
            option.max = Some(max.to_string());
        }
        option.note = note.to_string();
        options.push(option);
    }
    options
}

/// The text of `text` between the first `open` and the next `close`.
fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)?;
    Some(&text[start..start + end])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of yices-smt2 2.6.5's three help texts.
    const HELP: &str = "Option summary:
    --version, -V             Show version and exit
    --verbosity=<level>       Set verbosity level (default = 0)
             -v <level>
    --timeout=<timeout>       Set a timeout in seconds (default = no timeout)
    --incremental             Enable support for push/pop
    --delegate=<satsolver>    Use an external SAT solver (can be cadical, cryptominisat, kissat, or y2sat)
    --dimacs=<filename>       Bitblast and export to a file (in DIMACS format)
    --mcsat                   Use the MCSat solver
    --nthreads=<number of threads>  Specify the number of threads (default = 0 = main thread only)
MCSat options:
    --mcsat-nra-bound-min=<B> Set initial lower bound
    --ematch                        Toggle enabling/disabling ematching (default: true)
    --ematch-cnstr-mode=<M>         Set the ematching constraint mode (can be epsilongreedy, random, all) (default: epsilongreedy)
    --ematch-cnstr-alpha=<M>        Set the learning rate for ematch constraint learner (between 0-1) (default: 0.20)
    --mbqi-max-iter=<M>             Set the max number of mbqi iterations (default: 10000)
";

    #[test]
    fn the_help_texts_give_types_defaults_and_values() {
        let options = parse_help(HELP);
        let get = |n: &str| options.iter().find(|o| o.name == n).unwrap();
        assert!(options.iter().all(|o| o.name != "version"));
        assert_eq!(get("verbosity").kind, OptionKind::Int);
        assert_eq!(get("verbosity").default.as_deref(), Some("0"));
        assert_eq!(get("timeout").default, None);
        let delegate = get("delegate");
        assert_eq!(delegate.kind, OptionKind::Enum);
        assert_eq!(
            delegate.values,
            ["cadical", "cryptominisat", "kissat", "y2sat"]
        );
        assert_eq!(get("dimacs").kind, OptionKind::Text);
        assert_eq!(get("mcsat").kind, OptionKind::Bool);
        assert_eq!(get("mcsat").default.as_deref(), Some("false"));
        assert_eq!(get("nthreads").default.as_deref(), Some("0"));
        assert_eq!(get("mcsat-nra-bound-min").kind, OptionKind::Int);
        assert_eq!(get("ematch").default.as_deref(), Some("true"));
        assert_eq!(
            get("ematch-cnstr-mode").default.as_deref(),
            Some("epsilongreedy")
        );
        let alpha = get("ematch-cnstr-alpha");
        assert_eq!(alpha.kind, OptionKind::Real);
        assert_eq!(
            (alpha.min.as_deref(), alpha.max.as_deref()),
            (Some("0"), Some("1"))
        );
        assert_eq!(get("mbqi-max-iter").default.as_deref(), Some("10000"));
    }

    #[test]
    fn flags_are_given_bare_and_quantifier_options_left_out() {
        let options = parse_help(HELP);
        let get = |n: &str| options.iter().find(|o| o.name == n).unwrap();
        assert_eq!(Yices.option_argument("mcsat", "true"), "--mcsat");
        assert_eq!(
            Yices.option_argument("delegate", "kissat"),
            "--delegate=kissat"
        );
        assert!(Yices.leave_out(get("mcsat")).is_none());
        assert!(Yices.leave_out(get("delegate")).is_none());
        for left in [
            "ematch",
            "mbqi-max-iter",
            "incremental",
            "nthreads",
            "timeout",
            "verbosity",
        ] {
            assert!(Yices.leave_out(get(left)).is_some(), "{left}");
        }
    }
}
