//! The declarations of a formula's text: which constants and functions it declares
//! and uses, a formula with the declarations it does not use dropped (as triage reports a finding:
//! a grammar declares every constant its formulas may use, `-5v2a` five of them), and
//! such a formula with the grammar's declarations put back, so that et reads it as the
//! grammar's formula again (`et rank`, `et shrink`).
//!
//! Read from the text alone: a declared name is used when it occurs as a symbol in a
//! command other than its declaration. That needs no evaluator, so it works on every
//! theory; a name it cannot tell apart (one a `let` binds too) counts as used.

use std::collections::HashSet;

use super::parse::atoms;

/// The top-level commands of a formula, in order (string literals and quoted symbols
/// are kept whole; text outside parentheses is dropped).
pub fn commands(formula: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut in_symbol = false;
    for (i, c) in formula.char_indices() {
        match c {
            '"' if !in_symbol => in_string = !in_string,
            '|' if !in_string => in_symbol = !in_symbol,
            '(' if !in_string && !in_symbol => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            ')' if !in_string && !in_symbol && depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(&formula[start..=i]);
                }
            }
            _ => {}
        }
    }
    out
}

/// `formula` without the declarations of the constants it does not use, and those
/// constants' names in order; `None` when it uses every constant it declares.
pub fn without_unused(formula: &str) -> Option<(String, Vec<String>)> {
    let commands = commands(formula);
    let used: HashSet<&str> = commands
        .iter()
        .filter(|c| declared(c).is_none())
        .flat_map(|c| symbols(c))
        .collect();
    let mut dropped = Vec::new();
    let kept: Vec<&str> = commands
        .into_iter()
        .filter(|c| match declared(c) {
            Some(name) if !used.contains(name) => {
                dropped.push(name.to_string());
                false
            }
            _ => true,
        })
        .collect();
    (!dropped.is_empty()).then(|| (kept.join(" "), dropped))
}

/// `formula` with the declarations of `declaring` (a formula of the grammar) that it
/// lacks put back, all of them first in `declaring`'s order: the formula
/// [`without_unused`] trimmed, as the grammar gives it. `None` when it lacks none, or
/// declares something `declaring` does not (then it is not such a formula).
pub fn restored(formula: &str, declaring: &str) -> Option<String> {
    let all: Vec<&str> = commands(declaring)
        .into_iter()
        .filter(|c| declared(c).is_some())
        .collect();
    let (own, rest): (Vec<&str>, Vec<&str>) = commands(formula)
        .into_iter()
        .partition(|c| declared(c).is_some());
    let same = |a: &str, b: &str| atoms(a) == atoms(b);
    if own.len() >= all.len() || !own.iter().all(|c| all.iter().any(|d| same(c, d))) {
        return None;
    }
    Some(all.into_iter().chain(rest).collect::<Vec<_>>().join(" "))
}

/// The name a `declare-const` (or nullary `declare-fun`) command declares.
fn declared(command: &str) -> Option<&str> {
    let atoms = atoms(command);
    match atoms.as_slice() {
        ["(", "declare-const", name, ..] => Some(name),
        // A constant `(declare-fun x () Int)`, or an uninterpreted function: a formula
        // that applies no `f` needs no declaration of it either.
        ["(", "declare-fun", name, ..] => Some(name),
        _ => None,
    }
}

/// The symbols of `command`: its atoms but parentheses and string literals.
fn symbols(command: &str) -> impl Iterator<Item = &str> {
    atoms(command)
        .into_iter()
        .filter(|a| *a != "(" && *a != ")" && !a.starts_with('"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unused_functions_are_dropped_too() {
        let found =
            "(declare-const a Int) (declare-fun f (Int) Int) (declare-fun g (Int Int) Int) \
                     (declare-fun p (Int) Bool) (assert (p (g 0 0))) (check-sat)";
        let (text, dropped) = without_unused(found).expect("a and f unused");
        assert_eq!(dropped, ["a", "f"]);
        assert_eq!(
            text,
            "(declare-fun g (Int Int) Int) (declare-fun p (Int) Bool) (assert (p (g 0 0))) (check-sat)"
        );
        assert_eq!(restored(&text, found).as_deref(), Some(found));
    }

    #[test]
    fn unused_declarations_are_dropped_and_named() {
        let found = "(declare-const a Int) (declare-const b Real) (declare-const c (_ BitVec 8)) \
                     (declare-const d (Array Int Int)) (assert (< 0.0 (tan a))) (check-sat)";
        let (text, dropped) = without_unused(found).expect("three constants unused");
        assert_eq!(
            text,
            "(declare-const a Int) (assert (< 0.0 (tan a))) (check-sat)"
        );
        assert_eq!(dropped, ["b", "c", "d"]);
        assert_eq!(restored(&text, found).as_deref(), Some(found));
    }

    #[test]
    fn a_formula_that_uses_every_constant_is_left_alone() {
        let formula = "(declare-const a Int) (assert (= a a)) (check-sat)";
        assert_eq!(without_unused(formula), None);
        assert_eq!(restored(formula, formula), None);
    }

    #[test]
    fn names_inside_string_literals_and_longer_symbols_are_not_uses() {
        let found = "(declare-const a String) (declare-const b String) \
                     (assert (str.in_re a (str.to_re \"b (b\"))) (assert (= ab a)) (check-sat)";
        let (_, dropped) = without_unused(found).expect("b unused");
        assert_eq!(dropped, ["b"]);
    }

    #[test]
    fn quoted_symbols_and_nullary_functions_are_constants_too() {
        let found = "(declare-fun |x y| () Int) (declare-fun f (Int) Int) (declare-fun z () Int) \
                     (assert (= (f z) 0)) (check-sat)";
        let (text, dropped) = without_unused(found).expect("|x y| unused");
        assert_eq!(dropped, ["|x y|"]);
        assert!(text.starts_with("(declare-fun f (Int) Int) (declare-fun z () Int)"));
    }

    #[test]
    fn a_formula_declaring_what_the_grammar_does_not_is_not_restored() {
        let grammar = "(declare-const a Int) (declare-const b Int) (assert true) (check-sat)";
        let other = "(declare-const c Int) (assert (= c 0)) (check-sat)";
        assert_eq!(restored(other, grammar), None);
        assert_eq!(
            restored("(assert true)\n(check-sat)", grammar).as_deref(),
            Some(grammar)
        );
    }
}
