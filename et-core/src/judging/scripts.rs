//! Scripts: command sequences with several check-sats, `push`/`pop`,
//! `check-sat-assuming` and `reset-assertions`. Each check-sat has its own answer, about
//! the assertions active there (and its assumptions); et judges each against the same
//! release solving those assertions alone, in a fresh process ([`CheckSat::alone`]).
//!
//! z3's `check-sat-using` (a tactic) and `(reset)` (which also drops the logic a
//! family's prelude set) are not judged yet: a grammar with them is refused before
//! anything runs, never judged wrongly.

use crate::oracle::{self, Status};
use crate::solvers::call::CallOutcome;

/// The commands that make a grammar's formulas scripts.
const SCRIPT_COMMANDS: &[&str] = &["push", "pop", "check-sat-assuming", "reset-assertions"];

/// The commands of scripts et does not judge yet.
const UNJUDGED_COMMANDS: &[&str] = &["check-sat-using", "reset"];

/// The check-sat commands, each of which has an answer.
const CHECK_SAT_COMMANDS: &[&str] = &["check-sat", "check-sat-assuming"];

/// Whether the formulas of a grammar with terminals `tokens`, whose smallest formula is
/// `first`, are scripts: it has a scope or assumption command, or its smallest formula
/// checks more than once.
pub fn is_script<S: AsRef<str>>(tokens: &[S], first: &str) -> bool {
    let has = |c: &str| tokens.iter().any(|t| words(t.as_ref()).any(|w| w == c));
    SCRIPT_COMMANDS.iter().any(|c| has(c)) || check_sat_count(first) > 1
}

/// Why formulas of a grammar with terminals `tokens` are scripts et cannot judge yet;
/// `None` when et judges them (formulas, and scripts of the commands above).
pub fn unjudgeable<S: AsRef<str>>(tokens: &[S]) -> Option<String> {
    let used: Vec<&str> = UNJUDGED_COMMANDS
        .iter()
        .copied()
        .filter(|c| tokens.iter().any(|t| words(t.as_ref()).any(|w| w == *c)))
        .collect();
    (!used.is_empty()).then(|| {
        format!(
            "its scripts use {}, which et does not judge yet (it judges `push`, `pop`, \
             `check-sat`, `check-sat-assuming` and `reset-assertions`)",
            used.iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        )
    })
}

/// The words of a terminal, split at parentheses and white space.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c == '(' || c == ')' || c.is_whitespace())
        .filter(|w| !w.is_empty())
}

/// How many check-sat commands `text` has (outside string literals and quoted
/// symbols).
pub fn check_sat_count(text: &str) -> usize {
    commands(text).map_or(0, |cs| {
        cs.iter()
            .filter(|c| CHECK_SAT_COMMANDS.contains(&head(c)))
            .count()
    })
}

/// One check-sat of a script: its position and the formula it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckSat {
    /// 1 for the script's first check-sat.
    pub position: usize,
    /// The assertions active at this check-sat, alone: the options and logic set
    /// before it, the declarations, definitions and assertions of every open level
    /// (what `pop` and `reset-assertions` removed left out), its assumptions asserted,
    /// and one `(check-sat)`. A formula of one check-sat, which et judges as any
    /// formula.
    pub alone: String,
}

/// Why a script's check-sats cannot be told.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// Its parentheses or string literals do not close.
    #[error("the script is not a sequence of commands (unbalanced parentheses or quotes)")]
    Malformed,
    /// A `pop` removes more levels than were pushed.
    #[error("`{command}` pops more levels than the {depth} pushed before it")]
    PopsEmpty {
        /// The command.
        command: String,
        /// The levels open before it.
        depth: usize,
    },
    /// A `push` or `pop` whose level is not a numeral.
    #[error("`{0}`: the level must be a numeral")]
    Level(String),
}

/// The check-sats of `script` in order, each with the formula it is about. The
/// assertion stack follows SMT-LIB 2.6 with `:global-declarations` false: `pop`
/// removes the declarations of the levels it pops as well as their assertions, and
/// `reset-assertions` removes every assertion and declaration (what z3 4.8.5, cvc5 and
/// yices do; z3 4.16.0 keeps the declarations) — unless the script set
/// `:global-declarations` to true, which keeps declarations and definitions through
/// `pop` and `reset-assertions`.
pub fn check_sats(script: &str) -> Result<Vec<CheckSat>, ScriptError> {
    let commands = commands(script).ok_or(ScriptError::Malformed)?;
    // Options and the logic (set before any level is pushed) stay in every formula.
    let mut settings: Vec<&str> = Vec::new();
    let mut levels: Vec<Vec<String>> = vec![Vec::new()];
    // With `:global-declarations true`, declarations and definitions outlive the
    // levels (and `reset-assertions`): they are kept apart, in order.
    let mut global = false;
    let mut globals: Vec<String> = Vec::new();
    let mut found = Vec::new();
    for command in commands {
        match head(command) {
            "set-option" if words(command).eq(["set-option", ":global-declarations", "true"]) => {
                global = true;
                settings.push(command);
            }
            "set-logic" | "set-option" | "set-info" => settings.push(command),
            "push" | "pop" => {
                let level = argument(command)
                    .and_then(|n| n.parse::<usize>().ok())
                    .ok_or_else(|| ScriptError::Level(command.to_string()))?;
                if head(command) == "push" {
                    levels.extend((0..level).map(|_| Vec::new()));
                } else if level >= levels.len() {
                    return Err(ScriptError::PopsEmpty {
                        command: command.to_string(),
                        depth: levels.len() - 1,
                    });
                } else {
                    levels.truncate(levels.len() - level);
                }
            }
            "reset-assertions" => levels = vec![Vec::new()],
            "check-sat" | "check-sat-assuming" => {
                let mut alone: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
                alone.extend(globals.iter().cloned());
                alone.extend(levels.iter().flatten().cloned());
                if head(command) == "check-sat-assuming" {
                    alone.extend(assumptions(command).map(|a| format!("(assert {a})")));
                }
                alone.push("(check-sat)".to_string());
                found.push(CheckSat {
                    position: found.len() + 1,
                    alone: alone.join(" "),
                });
            }
            h if global && (h.starts_with("declare-") || h.starts_with("define-")) => {
                globals.push(command.to_string());
            }
            // Declarations, definitions and assertions belong to the open level.
            h if h.starts_with("declare-") || h.starts_with("define-") || h == "assert" => {
                levels
                    .last_mut()
                    .expect("level 0 is never popped")
                    .push(command.to_string());
            }
            // Requests (get-model, get-value, echo, ...) change nothing.
            _ => {}
        }
    }
    Ok(found)
}

/// The top-level commands of `text`, each as written; `None` if its parentheses or
/// quotes do not close. Comments (`;` to the end of the line) are left out.
fn commands(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'|' => {
                let close = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != close {
                    i += 1;
                }
                if i == bytes.len() {
                    return None;
                }
            }
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    out.push(&text[start..=i]);
                }
            }
            _ => {}
        }
        i += 1;
    }
    (depth == 0).then_some(out)
}

/// The command's name: `assert` of `(assert x)`.
fn head(command: &str) -> &str {
    command[1..]
        .split(|c: char| c == '(' || c == ')' || c.is_whitespace())
        .find(|w| !w.is_empty())
        .unwrap_or("")
}

/// The first argument of a command, when it is an atom (`1` of `(push 1)`).
fn argument(command: &str) -> Option<&str> {
    let rest = command[1..command.len() - 1].trim_start();
    let rest = rest[head(command).len()..].trim();
    (!rest.is_empty() && !rest.contains(['(', ')', ' '])).then_some(rest)
}

/// The literals of `(check-sat-assuming (l1 l2 ...))`, each as written.
fn assumptions(command: &str) -> impl Iterator<Item = String> + '_ {
    let inner = command[1..command.len() - 1].trim_start();
    let list = inner[head(command).len()..].trim();
    let list = list
        .strip_prefix('(')
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or("");
    literals(list).into_iter()
}

/// The terms of a list body: atoms and parenthesized terms, in order.
fn literals(list: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in list.chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                current.push(c);
                if depth == 0 {
                    out.push(std::mem::take(&mut current));
                }
            }
            c if c.is_whitespace() && depth == 0 => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.trim().is_empty() {
        out.push(current);
    }
    out
}

/// A script call's status at each check-sat it reached, from its classification and
/// the answers it printed in order ([`oracle::answers`]):
///
/// * a call the solver rejected (an `(error` anywhere: what follows answers another
///   script than the one written), that never started, or that something outside et
///   stopped, has its status at the first check-sat alone, and no answer is judged;
/// * a call that timed out, ran out of memory or crashed answered the check-sats
///   before the one it stopped at, and has its status there (a crash after the last
///   answer counts at the last check-sat);
/// * a call that ended normally with fewer answers than check-sats crashed at the
///   first check-sat it did not answer (the classification table's rule for a call
///   with no answer).
pub fn statuses_at_check_sats(outcome: &CallOutcome, count: usize) -> Vec<Status> {
    let status = oracle::classify(outcome).status;
    let answers = oracle::answers(&outcome.stdout_text());
    match status {
        Status::Rejected | Status::SetupError | Status::Killed | Status::Starved => {
            vec![status]
        }
        Status::Timeout | Status::Memout | Status::Crash => {
            let mut at: Vec<Status> = answers.into_iter().take(count.saturating_sub(1)).collect();
            at.push(status);
            at
        }
        Status::Sat | Status::Unsat | Status::Unknown => {
            let mut at: Vec<Status> = answers.into_iter().take(count).collect();
            if at.len() < count {
                at.push(Status::Crash);
            }
            at
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_told_from_formulas() {
        let one = "(declare-const x Int) (assert (< x 0)) (check-sat)";
        assert!(!is_script(&["check-sat", "<"], one));
        let two = "(declare-const x Int) (push 1) (assert (< x 0)) (check-sat) (pop 1) (assert (> x 5)) (check-sat)";
        assert!(is_script(&["check-sat", "push", "pop"], two));
        assert!(is_script(&["(push 1)"], two));
        let twice = "(assert true) (check-sat) (assert false) (check-sat)";
        assert!(is_script(&["check-sat"], twice));
        assert_eq!(unjudgeable(&["push", "pop"]), None);
        assert!(unjudgeable(&["check-sat-using", "reset"])
            .unwrap()
            .contains("`check-sat-using` and `reset`"));
        // reset-assertions is judged; `reset` alone is not.
        assert_eq!(unjudgeable(&["(reset-assertions)"]), None);
    }

    #[test]
    fn each_check_sat_is_about_the_assertions_active_there() {
        let script = "(set-logic QF_LIA) (declare-const x Int) (declare-const p Bool) (push 1) \
                      (assert (< x 0)) (check-sat) (pop 1) (assert (> x 5)) (check-sat) \
                      (check-sat-assuming (p (not p))) (push 2) (declare-const y Int) \
                      (assert (= x y)) (pop 1) (check-sat) (reset-assertions) \
                      (declare-const z Int) (check-sat)";
        let found = check_sats(script).unwrap();
        let alone: Vec<&str> = found.iter().map(|c| c.alone.as_str()).collect();
        assert_eq!(
            alone,
            [
                "(set-logic QF_LIA) (declare-const x Int) (declare-const p Bool) (assert (< x 0)) (check-sat)",
                "(set-logic QF_LIA) (declare-const x Int) (declare-const p Bool) (assert (> x 5)) (check-sat)",
                "(set-logic QF_LIA) (declare-const x Int) (declare-const p Bool) (assert (> x 5)) (assert p) (assert (not p)) (check-sat)",
                "(set-logic QF_LIA) (declare-const x Int) (declare-const p Bool) (assert (> x 5)) (check-sat)",
                "(set-logic QF_LIA) (declare-const z Int) (check-sat)",
            ]
        );
        assert_eq!(found[4].position, 5);
        // Global declarations outlive their level and reset-assertions.
        let global = "(set-option :global-declarations true) (declare-const x Int) (push 1) \
                      (declare-const y Int) (assert (< x y)) (pop 1) (reset-assertions) \
                      (assert (= x y)) (check-sat)";
        assert_eq!(
            check_sats(global).unwrap()[0].alone,
            "(set-option :global-declarations true) (declare-const x Int) (declare-const y Int) \
             (assert (= x y)) (check-sat)"
        );
        assert_eq!(check_sat_count(script), 5);
        // A formula is its own single check-sat.
        let formula = "(declare-const a String) (assert (= a \"(pop 1)\")) (check-sat)";
        assert_eq!(check_sats(formula).unwrap()[0].alone, formula);
    }

    fn outcome(stdout: &str, exit: Option<i32>, signal: Option<i32>) -> CallOutcome {
        CallOutcome {
            stdout: stdout.into(),
            exit_code: exit,
            signal,
            ..CallOutcome::default()
        }
    }

    #[test]
    fn a_script_call_has_a_status_at_each_check_sat_it_reached() {
        use Status::*;
        let at = |stdout, exit, signal| statuses_at_check_sats(&outcome(stdout, exit, signal), 3);
        assert_eq!(at("sat\nunsat\nsat\n", Some(0), None), [Sat, Unsat, Sat]);
        // Stopped at the second check-sat: the first answer stands.
        assert_eq!(at("unsat\n", None, Some(11)), [Unsat, Crash]);
        let timed_out = CallOutcome {
            timed_out: true,
            ..outcome("sat\n", None, Some(9))
        };
        assert_eq!(statuses_at_check_sats(&timed_out, 3), [Sat, Timeout]);
        // An answer missing without an error: no answer is a crash there.
        assert_eq!(at("sat\n", Some(0), None), [Sat, Crash]);
        // An error anywhere: what follows answers another script; nothing is judged.
        assert_eq!(
            at(
                "sat\n(error \"line 5: unknown constant x\")\nsat\n",
                Some(1),
                None
            ),
            [Rejected]
        );
    }

    #[test]
    fn a_pop_past_the_first_level_is_an_error() {
        let err = check_sats("(push 1) (pop 2) (check-sat)").unwrap_err();
        assert_eq!(
            err,
            ScriptError::PopsEmpty {
                command: "(pop 2)".into(),
                depth: 1
            }
        );
        assert!(matches!(
            check_sats("(pop x) (check-sat)"),
            Err(ScriptError::Level(_))
        ));
        assert_eq!(
            check_sats("(assert (check-sat)"),
            Err(ScriptError::Malformed)
        );
    }
}
