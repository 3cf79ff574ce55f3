//! What one call runs: the command line and the script exactly as the solver sees it.

use crate::solvers::SolverConfig;

/// One call to make: the solver, its command line (with the family's model options when
/// et asks for a model) and the script it reads (the family's prelude, the formula, and
/// the model request after `(check-sat)` when models are on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation<'a> {
    /// The solver.
    pub solver: &'a SolverConfig,
    /// Program and options (the formula's path is appended for file input).
    pub command: Vec<String>,
    /// The script, ending in a newline.
    pub script: String,
    /// Whether et asks for a model (and so checks one after `sat`).
    pub models: bool,
}

impl<'a> Invocation<'a> {
    /// The call of `solver` on `formula` (a formula as the enumeration prints it, or as
    /// [`formula_of`] reads it back from a script), a formula of a grammar whose SMT-LIB
    /// logic is `logic`. Everything et adds around the formula is added here, and
    /// [`formula_of`] removes exactly that.
    pub fn new(solver: &'a SolverConfig, formula: &str, logic: Option<&str>) -> Invocation<'a> {
        let with_models = solver.command_with_models();
        let request = with_models
            .as_ref()
            .map(|_| solver.family_info().model_request());
        let mut script = framed(
            solver.prelude(logic).as_deref(),
            &checked_by(solver, formula),
        );
        if let Some(request) = request {
            script.push_str(request);
            script.push('\n');
        }
        Invocation {
            solver,
            models: with_models.is_some(),
            command: with_models.unwrap_or_else(|| solver.command.clone()),
            script,
        }
    }

    /// The call of `solver` on `formula` without a model request, whether or not et
    /// asks the solver for models in a campaign: its plain command line and the family's
    /// prelude before the formula (what `et solvers check` asks first: does it answer
    /// at all).
    pub fn plain(solver: &'a SolverConfig, formula: &str, logic: Option<&str>) -> Invocation<'a> {
        // The family's prelude alone: the model preamble asks for models.
        let prelude = solver.family_info().prelude(logic);
        let script = framed(prelude.as_deref(), &checked_by(solver, formula));
        Invocation {
            solver,
            models: false,
            command: solver.command.clone(),
            script,
        }
    }

    /// The call of `solver` on a script of several check-sats (`crate::judging::scripts`):
    /// its plain command line with the family's incremental options after the program,
    /// the family's prelude, the script, and no model request — a `(get-model)` after
    /// an `unsat` is an error, which ends cvc5. Each answer is judged against the
    /// release's fresh call on its check-sat alone, whose model et checks.
    pub fn script(solver: &'a SolverConfig, script: &str, logic: Option<&str>) -> Invocation<'a> {
        let mut invocation = Invocation::plain(solver, script, logic);
        let options = solver.family_info().incremental_options();
        invocation
            .command
            .splice(1..1, options.iter().map(|o| o.to_string()));
        invocation
    }

    /// The call of `solver` with exactly `command` on exactly `script`: what a bug
    /// report says to run, nothing added (no prelude, no model request).
    pub fn exactly(solver: &'a SolverConfig, command: Vec<String>, script: &str) -> Invocation<'a> {
        let mut script = script.trim_end().to_string();
        script.push('\n');
        Invocation {
            solver,
            models: false,
            command,
            script,
        }
    }

    /// The call of a configuration that answered `unknown` on `formula`, asked again
    /// with the request for the reason ([`REASON_REQUEST`]): a solver may take an
    /// option value at its command line and refuse it only once a formula needs it,
    /// and then says so only as the reason of its `unknown` (z3 4.16.0 on lists
    /// `smt.string_solver=z3str3` in its help, and answers `unknown`, "invalid
    /// parameter for smt.string_solver", on formulas with strings).
    pub fn asking_why(
        solver: &'a SolverConfig,
        formula: &str,
        logic: Option<&str>,
    ) -> Invocation<'a> {
        let mut invocation = Invocation::plain(solver, formula, logic);
        invocation.script.push_str(REASON_REQUEST);
        invocation.script.push('\n');
        invocation
    }
}

/// `prelude` (what et puts before a formula: `(set-logic ...)`, the model option) and
/// `formula`, each on lines of their own, ending in a newline. A formula that starts
/// with `set-option`s keeps them first: SMT-LIB takes some options only before the
/// logic is set (yices refuses `:global-declarations` after `(set-logic ...)`), and an
/// option set before the prelude's is overridden by nothing of et's.
fn framed(prelude: Option<&str>, formula: &str) -> String {
    let formula = formula.trim();
    let mut script = String::with_capacity(formula.len() + 64);
    let Some(prelude) = prelude else {
        script.push_str(formula);
        script.push('\n');
        return script;
    };
    let mut rest = formula;
    while rest.starts_with("(set-option ") {
        let Some(end) = rest.find(')') else { break };
        script.push_str(&rest[..=end]);
        script.push('\n');
        rest = rest[end + 1..].trim_start();
    }
    script.push_str(prelude);
    script.push('\n');
    script.push_str(rest);
    script.push('\n');
    script
}

/// `formula` as `solver` checks it: with a tactic configuration, its last
/// `(check-sat)` becomes `(check-sat-using TACTIC)`, on the same line (which
/// [`formula_of`] turns back, so the script is still a formula of its grammar).
pub fn checked_by(solver: &SolverConfig, formula: &str) -> String {
    let formula = formula.trim_end();
    let tactic = solver
        .configuration
        .as_ref()
        .and_then(|c| c.tactic.as_deref());
    match (tactic, formula.strip_suffix("(check-sat)")) {
        (Some(tactic), Some(rest)) => format!("{}(check-sat-using {tactic})", rest),
        _ => formula.to_string(),
    }
}

/// `line` with a tactic configuration's check at its end ([`checked_by`]) made the
/// plain `(check-sat)` again.
fn unchecked(line: &str) -> std::borrow::Cow<'_, str> {
    const USING: &str = "(check-sat-using ";
    let end = line.trim_end();
    let Some(at) = end.rfind(USING) else {
        return line.into();
    };
    // The check must be one whole command that ends the line.
    let mut depth = 0i32;
    for (i, c) in end[at..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && at + i + 1 != end.len() {
                    return line.into();
                }
            }
            _ => {}
        }
    }
    if depth != 0 {
        return line.into();
    }
    format!("{}(check-sat)", &end[..at]).into()
}

/// The SMT-LIB request for the reason of the last `unknown`.
pub const REASON_REQUEST: &str = "(get-info :reason-unknown)";

/// The commands et adds around a formula, each on a line of its own: a prelude's
/// `(set-logic ...)`, the model option, the model request, and the request for the
/// reason of an `unknown`. Formulas are printed on
/// one line, so a line that is exactly one of these is never part of a formula.
fn added_by_et(line: &str) -> bool {
    let line = line.trim();
    line == "(get-model)"
        || line == REASON_REQUEST
        || line == "(set-option :produce-models true)"
        || (line.starts_with("(set-logic ")
            && line.ends_with(')')
            && line.matches('(').count() == 1
            && line.matches(')').count() == 1)
}

/// The formula of a script et wrote (a trigger file, a sample, the script of a call):
/// the script minus the lines et added around the formula ([`Invocation::new`]). A
/// formula without them comes back unchanged but for surrounding whitespace.
pub fn formula_of(script: &str) -> String {
    let kept: Vec<std::borrow::Cow<'_, str>> = script
        .lines()
        .filter(|l| !added_by_et(l))
        .map(unchecked)
        .collect();
    kept.join("\n").trim().to_string()
}

/// The logic a script et wrote states in a prelude line (a yices trigger's
/// `(set-logic QF_NIA)`), which [`formula_of`] removes: what to give the call again.
pub fn logic_of(script: &str) -> Option<String> {
    script.lines().map(str::trim).find_map(|l| {
        let logic = l.strip_prefix("(set-logic ")?.strip_suffix(')')?.trim();
        added_by_et(l).then(|| logic.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solver(family: &str, models: bool) -> SolverConfig {
        let mut s = SolverConfig::new(family, family, "1", vec![family.into()]);
        s.models = models;
        s
    }

    #[test]
    fn the_script_is_prelude_formula_and_model_request() {
        let f = "(declare-const a Int) (assert (> a 0)) (check-sat)";
        let z3 = solver("z3", true);
        let call = Invocation::new(&z3, f, Some("QF_NIA"));
        assert_eq!(call.script, format!("{f}\n(get-model)\n"));
        assert!(call.models);
        let yices = solver("yices", true);
        let call = Invocation::new(&yices, f, Some("QF_NIA"));
        assert_eq!(
            call.script,
            format!("(set-logic QF_NIA)\n{f}\n(get-model)\n")
        );
        let off = solver("z3", false);
        let call = Invocation::new(&off, f, None);
        assert_eq!(call.script, format!("{f}\n"));
        assert!(!call.models);
        assert_eq!(call.command, off.command);
        // Plain: no model request, the plain command, the family's prelude alone.
        let call = Invocation::plain(&yices, f, Some("QF_NIA"));
        assert_eq!(call.script, format!("(set-logic QF_NIA)\n{f}\n"));
        assert!(!call.models);
        assert_eq!(call.command, yices.command);
    }

    #[test]
    fn the_formula_is_the_script_minus_what_et_added() {
        let f = "(declare-const a String) (assert (not (str.<= \"a\" \"\"))) (check-sat)";
        for family in ["z3", "cvc5", "yices", "cvc4"] {
            for models in [false, true] {
                let s = solver(family, models);
                let call = Invocation::new(&s, f, Some("QF_SLIA"));
                assert_eq!(formula_of(&call.script), f, "{family} models={models}");
            }
        }
        assert_eq!(formula_of(&format!("  {f}  \n")), f);
        // A line with more than a logic is not et's.
        let own = "(set-logic QF_LIA) (declare-const a Int) (check-sat)";
        assert_eq!(formula_of(own), own);
        assert_eq!(logic_of(own), None);
        let yices = solver("yices", true);
        let call = Invocation::new(&yices, f, Some("QF_SLIA"));
        assert_eq!(logic_of(&call.script).as_deref(), Some("QF_SLIA"));
    }
}
