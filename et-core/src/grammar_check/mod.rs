//! What will go wrong with a grammar, said before any run (`et grammar check`).
//!
//! What makes every call wrong is refused when a grammar is loaded (et-grammar's
//! validation: formulas that can lack `(check-sat)`, string literals outside printable
//! ASCII), so loading the grammar is the first check. This module adds what is read
//! from the formulas themselves, which can only warn: the first formulas are
//! type-checked by et-eval, and each operator applied is looked up in the declared
//! logic ([`logic`]). Each distinct (operator, problem) is reported once, with the first
//! formula that shows it.

pub mod logic;

use std::collections::BTreeMap;

use num_bigint::BigUint;

use crate::enumeration::Enumeration;
use crate::grammar::{Grammar, Position};
use crate::triage::signature::Signature;
use logic::Logic;

/// How many formulas `et grammar check` type-checks unless told otherwise.
pub const DEFAULT_FORMULAS: u64 = 10_000;

/// What is wrong with an operator's use in the formulas.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Problem {
    /// The declared logic lacks what the operator needs (the sentence part says what).
    OutsideLogic {
        /// The declared logic.
        logic: String,
        /// What it lacks ("integers", "transcendental functions, ...").
        lacks: String,
    },
    /// The operator is a transcendental function, which no standard logic has (et and
    /// some solvers know them all the same).
    Transcendental,
    /// The operator gets an Int where it wants a Real: et and z3 read a `to_real`
    /// around it, SMT-LIB's logics have no such coercion, and a strict solver refuses.
    IntForReal,
    /// et's evaluator cannot read the formula (here: its message), so et cannot check
    /// the models of such formulas (their model check is `unsupported`).
    Unreadable(String),
}

/// One distinct problem and where it first shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The operator (empty for an unreadable formula without one).
    pub operator: String,
    /// What is wrong.
    pub problem: Problem,
    /// The global index of the first formula that shows it.
    pub first: u64,
    /// How many of the checked formulas show it.
    pub formulas: u64,
    /// The rules with an alternative that applies the operator (written `"(" ~ "op"
    /// ~ ...`, or `(_ op ...)` for an indexed one), with their positions, in file order.
    pub rules: Vec<(String, Position)>,
    /// For a malformed or ill-sorted formula, what et-eval said about the first one.
    pub detail: Option<String>,
}

/// The result of checking the first formulas of a grammar.
#[derive(Debug, Clone, Default)]
pub struct FormulaCheck {
    /// How many formulas were checked.
    pub formulas: u64,
    /// The distinct problems, in order of first appearance.
    pub findings: Vec<Finding>,
}

/// Type-checks the first `limit` formulas of `enumeration` (all, if fewer) with
/// et-eval, and looks their operators up in `logic` (when the grammar declares one).
pub fn check_formulas(
    enumeration: &mut Enumeration,
    logic: Option<(&str, Logic)>,
    limit: u64,
) -> FormulaCheck {
    let grammar = enumeration.grammar().clone();
    let mut found: BTreeMap<(String, Problem), Finding> = BTreeMap::new();
    let mut note = |operator: &str, problem: Problem, index: u64, detail: Option<String>| {
        found
            .entry((operator.to_string(), problem.clone()))
            .and_modify(|f| f.formulas += 1)
            .or_insert_with(|| Finding {
                operator: operator.to_string(),
                problem,
                first: index,
                formulas: 1,
                rules: rules_applying(&grammar, operator),
                detail,
            });
    };
    let mut checked = 0;
    let Ok(mut stream) = enumeration.stream_from(&BigUint::from(0u32)) else {
        return FormulaCheck::default();
    };
    let mut tokens: Vec<&str> = Vec::new();
    while checked < limit && stream.current().is_some() {
        let index = checked;
        tokens.clear();
        stream.current_token_ids(&mut |t| tokens.push(grammar.token(t)));
        match et_eval::Script::from_tokens_with_coercions(&tokens) {
            Ok((_, coercions)) => {
                let mut seen: Vec<&str> = Vec::new();
                for c in coercions {
                    if !seen.contains(&c.operator) {
                        seen.push(c.operator);
                        note(c.operator, Problem::IntForReal, index, None);
                    }
                }
            }
            Err(e) => {
                let (operator, message, detail) = match e.unsupported() {
                    Some(what) => (operator_of(what), format!("unsupported {what}"), None),
                    None => (
                        String::new(),
                        "malformed or ill-sorted".to_string(),
                        Some(e.to_string()),
                    ),
                };
                note(&operator, Problem::Unreadable(message), index, detail);
            }
        }
        let text = String::from_utf8_lossy(stream.current_text());
        for op in Signature::of(&text).0 {
            if logic::transcendental(&op) {
                note(&op, Problem::Transcendental, index, None);
            } else if let Some((name, logic)) = &logic {
                if let Some(lacks) = logic.lacks(&op) {
                    let problem = Problem::OutsideLogic {
                        logic: name.to_string(),
                        lacks,
                    };
                    note(&op, problem, index, None);
                }
            }
        }
        checked += 1;
        if !stream.advance() {
            break;
        }
    }
    let mut findings: Vec<Finding> = found.into_values().collect();
    findings.sort_by_key(|f| f.first);
    FormulaCheck {
        formulas: checked,
        findings,
    }
}

/// The operator named in et-eval's "unsupported operator 'x'".
fn operator_of(what: &str) -> String {
    what.strip_prefix("operator ")
        .map(|q| q.trim_matches('\'').to_string())
        .unwrap_or_default()
}

/// The user rules with an alternative that applies `operator`: `"(" ~ "op"`, or a
/// single token `(_ op ...)` for an indexed operator.
fn rules_applying(grammar: &Grammar, operator: &str) -> Vec<(String, Position)> {
    if operator.is_empty() {
        return Vec::new();
    }
    let indexed = format!("(_ {operator} ");
    let mut rules: Vec<(String, Position)> = Vec::new();
    for (id, nt) in grammar.nonterminals.iter().enumerate() {
        let applies = nt.alternatives.iter().any(|alt| {
            grammar
                .operator(alt)
                .is_some_and(|op| op == operator || op.starts_with(&indexed))
        });
        let owner = &grammar.nonterminals[grammar.owner(id)];
        if applies && !rules.iter().any(|(name, _)| *name == owner.name) {
            rules.push((owner.name.clone(), owner.position));
        }
    }
    rules.sort_by_key(|(_, p)| *p);
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins;

    fn check(name: &str, limit: u64) -> FormulaCheck {
        let grammar = builtins::load(name).unwrap();
        let declared = builtins::declared_logic(&grammar)
            .unwrap()
            .unwrap()
            .to_string();
        let logic = Logic::parse(&declared).unwrap();
        let mut e = Enumeration::new(grammar);
        check_formulas(&mut e, Some((&declared, logic)), limit)
    }

    #[test]
    fn realints_applies_sin_to_an_int_outside_its_logic() {
        let c = check("realints", 2_000);
        assert_eq!(c.formulas, 2_000);
        let sin: Vec<&Finding> = c.findings.iter().filter(|f| f.operator == "sin").collect();
        assert!(
            sin.iter().any(|f| f.problem == Problem::IntForReal),
            "{:?}",
            c.findings
        );
        assert!(
            sin.iter().any(|f| f.problem == Problem::Transcendental),
            "{:?}",
            c.findings
        );
        let rules: Vec<&str> = sin[0].rules.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(rules, ["real_term"]);
        let plus = c.findings.iter().find(|f| f.operator == "+").unwrap();
        let rules: Vec<&str> = plus.rules.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(rules, ["int_term", "real_term"]);
        // Each distinct problem once.
        let mut keys: Vec<_> = c
            .findings
            .iter()
            .map(|f| (&f.operator, &f.problem))
            .collect();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }

    #[test]
    fn bitvectors_uses_bv2nat_under_qf_bv() {
        let c = check("bitvectors", 10_000);
        assert!(
            c.findings.iter().any(|f| f.operator == "bv2nat"
                && matches!(&f.problem, Problem::OutsideLogic { lacks, .. } if lacks == "integers")),
            "{:?}",
            c.findings
        );
    }

    #[test]
    fn formulas_et_eval_cannot_read_are_one_finding() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/grammars/uninterpreted_sort.pest");
        let grammar = Grammar::from_file(&path, crate::grammar::DEFAULT_START).unwrap();
        let c = check_formulas(&mut Enumeration::new(grammar), None, 100);
        assert_eq!(c.formulas, 2);
        assert_eq!(c.findings.len(), 1, "{:?}", c.findings);
        let f = &c.findings[0];
        assert_eq!(
            f.problem,
            Problem::Unreadable("unsupported command 'declare-sort'".to_string())
        );
        assert_eq!((f.first, f.formulas, f.detail.as_ref()), (0, 2, None));
    }

    #[test]
    fn core_is_clean() {
        let c = check("core", 10_000);
        assert_eq!(c.formulas, 10_000);
        assert!(c.findings.is_empty(), "{:?}", c.findings);
    }
}
