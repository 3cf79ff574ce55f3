//! What et can judge: a formula with one `check-sat`. A script — several check-sats,
//! `push`/`pop`, `check-sat-assuming`, a reset, z3's `check-sat-using` — has an answer
//! per check-sat, each about the assertions active there; et's judging reads one answer
//! and checks one model against every assertion, so a script would be misjudged (two
//! correct `sat`s of a script with a popped scope read as an invalid model, and triage
//! filing a wrong `sat`). Such a grammar is refused before anything runs, never judged
//! wrongly.

/// The commands that make a grammar's formulas scripts.
const SCRIPT_COMMANDS: &[&str] = &[
    "push",
    "pop",
    "check-sat-assuming",
    "check-sat-using",
    "reset",
    "reset-assertions",
];

/// Why formulas of a grammar with terminals `tokens`, whose smallest formula is
/// `first`, are scripts et cannot judge; `None` when they are formulas with one
/// `check-sat`.
pub fn unjudgeable<S: AsRef<str>>(tokens: &[S], first: &str) -> Option<String> {
    let used: Vec<&str> = SCRIPT_COMMANDS
        .iter()
        .copied()
        .filter(|c| tokens.iter().any(|t| t.as_ref() == *c))
        .collect();
    if !used.is_empty() {
        return Some(format!(
            "its formulas are scripts (it has the command{} {}); et judges a formula with \
             one check-sat",
            if used.len() == 1 { "" } else { "s" },
            used.iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let check_sats = first
        .split(|c: char| c == '(' || c == ')' || c.is_whitespace())
        .filter(|w| *w == "check-sat")
        .count();
    (check_sats > 1).then(|| {
        format!(
            "its smallest formula has {check_sats} check-sats; et judges a formula with one \
             check-sat"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_told_from_formulas() {
        let one = "(declare-const x Int) (assert (< x 0)) (check-sat)";
        assert_eq!(unjudgeable(&["check-sat", "<"], one), None);
        let two = "(declare-const x Int) (push 1) (assert (< x 0)) (check-sat) (pop 1) (assert (> x 5)) (check-sat)";
        assert!(unjudgeable(&["check-sat", "push", "pop"], two)
            .unwrap()
            .contains("`push`, `pop`"));
        let twice = "(assert true) (check-sat) (assert false) (check-sat)";
        assert!(unjudgeable(&["check-sat"], twice)
            .unwrap()
            .contains("2 check-sats"));
    }
}
