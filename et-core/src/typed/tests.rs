//! The runtime pieces the generated code leans on.

use super::*;
use crate::builtins::{self, strings};

#[test]
fn tokens_are_spaced_as_the_printer_spaces_them() {
    let mut out = String::new();
    let mut w = TokenWriter::new(&mut out);
    for t in [
        "(",
        "assert",
        "(",
        "not",
        "a",
        ")",
        ")",
        "(",
        "check-sat",
        ")",
    ] {
        w.token(t).unwrap();
    }
    assert_eq!(out, "(assert (not a)) (check-sat)");
}

#[test]
fn a_rule_enum_enumerates_from_its_own_rule() {
    let mut e = TypedEnumeration::<strings::RegexConst>::new();
    let all: Vec<String> = e
        .iter_from(&BigUint::from(0u32))
        .unwrap()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(all, ["re.none", "re.all", "re.allchar"]);
    assert_eq!(e.total(), Some(BigUint::from(3u32)));
    assert_eq!(
        <strings::RegexConst as Enumerable>::grammar()
            .nonterminals
            .len(),
        builtins::Builtin::find("strings")
            .unwrap()
            .grammar()
            .nonterminals
            .len()
    );
}

#[test]
fn renumber_follows_the_alternatives_from_the_start() {
    let value = strings::BoolTerm::StrInRe(
        strings::StrTerm::A,
        strings::RegexTerm::RegexConst(strings::RegexConst::ReAll),
    );
    let mut term = value.to_term();
    let expected = term.clone();
    let mut scrambled = term.clone();
    scrambled.nt = 0;
    scrambled.children[1].children[0].nt = 0;
    renumber(&mut scrambled, <strings::BoolTerm as Enumerable>::grammar()).unwrap();
    assert_eq!(scrambled, expected);
    renumber(&mut term, <strings::BoolTerm as Enumerable>::grammar()).unwrap();
    assert_eq!(term, expected);
}

#[test]
fn renumber_refuses_a_term_of_another_grammar() {
    let grammar = <strings::BoolTerm as Enumerable>::grammar();
    let mut wrong_alt = strings::BoolTerm::StrInRe(
        strings::StrTerm::A,
        strings::RegexTerm::RegexConst(strings::RegexConst::ReAll),
    )
    .to_term();
    wrong_alt.children[1].alt = 10_000;
    let err = renumber(&mut wrong_alt, grammar).unwrap_err();
    assert!(
        matches!(err, AdtError::NotADerivation { alt: 10_000, .. }),
        "{err}"
    );
    let mut missing_child = strings::BoolTerm::StrInRe(
        strings::StrTerm::A,
        strings::RegexTerm::RegexConst(strings::RegexConst::ReAll),
    )
    .to_term();
    missing_child.children.pop();
    let err = renumber(&mut missing_child, grammar).unwrap_err();
    assert!(
        matches!(err, AdtError::NotADerivation { children: 1, .. }),
        "{err}"
    );
}
