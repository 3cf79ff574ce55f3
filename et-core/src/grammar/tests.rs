//! One test per kind of grammar error (DESIGN §3): each names the rule(s) and the
//! line and column.

use super::*;

fn errors(text: &str) -> Vec<Diagnostic> {
    match Grammar::from_source("t", "t.pest", text, DEFAULT_START) {
        Ok(_) => panic!("grammar was accepted"),
        Err(e) => e.diagnostics().to_vec(),
    }
}

fn single(text: &str) -> Diagnostic {
    let all = errors(text);
    assert_eq!(all.len(), 1, "{all:?}");
    all.into_iter().next().unwrap()
}

fn at(d: &Diagnostic, line: usize, column: usize) {
    assert_eq!(d.position, Position { line, column }, "{d}");
    assert!(
        d.to_string()
            .starts_with(&format!("t.pest:{line}:{column}: ")),
        "{d}"
    );
}

#[test]
fn syntax_error() {
    let d = single("start = { \"a\" ~ }\n");
    at(&d, 1, 17);
    assert!(d.message.starts_with("syntax error"), "{d}");
}

#[test]
fn undefined_rule() {
    let d = single("start = { \"a\" | thing }\n");
    at(&d, 1, 17);
    assert!(d.message.contains("`start` refers to `thing`"), "{d}");
}

#[test]
fn no_start_rule() {
    let d = single("begin = { \"a\" }\n");
    at(&d, 1, 1);
    assert!(
        d.message.contains("no rule `start`") && d.message.contains("begin"),
        "{d}"
    );
}

#[test]
fn empty_language() {
    let all = errors("start = { \"x\" ~ loop_ }\nloop_ = { \"(\" ~ loop_ ~ \")\" }\n");
    assert_eq!(all.len(), 2, "{all:?}");
    at(&all[0], 1, 1);
    assert!(
        all[0].message.contains(
            "`start` derives no finite formula (empty language): every alternative needs `loop_`"
        ),
        "{}",
        all[0]
    );
    at(&all[1], 2, 1);
    assert!(
        all[1].message.contains("`loop_` derives no finite formula"),
        "{}",
        all[1]
    );
}

#[test]
fn zero_cost_cycle() {
    let d = single("start = { a }\na = { \"x\" | b }\nb = { \"y\" ~ a }\n");
    at(&d, 2, 1);
    assert!(d.message.contains("zero-cost cycle: `a` → `b`"), "{d}");
}

#[test]
fn lookahead() {
    let d = single("start = {\n  \"a\" ~ &\"b\" ~ \"b\" }\n");
    at(&d, 2, 9);
    assert!(d.message.contains("`start` uses the lookahead `&`"), "{d}");
}

#[test]
fn stack_operations() {
    let d = single("start = { PUSH(\"a\") ~ \"b\" }\n");
    at(&d, 1, 11);
    assert!(
        d.message
            .contains("`start` uses the stack operation `PUSH`"),
        "{d}"
    );
    let d = single("start = { \"a\" ~ POP }\n");
    assert!(d.message.contains("built-in rule `POP`"), "{d}");
}

#[test]
fn all_problems_are_reported_together() {
    let all = errors("start = { x | y }\nstart = { \"a\" }\n");
    let text: Vec<String> = all.iter().map(ToString::to_string).collect();
    assert_eq!(all.len(), 3, "{text:?}");
    assert!(
        text[0].contains("2:1: rule `start` is defined twice"),
        "{text:?}"
    );
}

#[test]
fn unreachable_rule_is_a_warning() {
    let g = Grammar::from_source(
        "t",
        "t.pest",
        "start = { \"a\" }\nspare = { \"b\" }\n",
        "start",
    )
    .unwrap();
    assert_eq!(g.warnings.len(), 1);
    assert!(g.warnings[0]
        .to_string()
        .contains("t.pest:2:1: rule `spare` is unreachable"));
}

#[test]
fn cost_model() {
    let g = Grammar::from_source(
        "t",
        "t.pest",
        r#"start = { "(_ BitVec 64)" | "(" ~ "f" ~ ")" | "g" ~ start | "h" }"#,
        "start",
    )
    .unwrap();
    let costs: Vec<u32> = g.nonterminals[g.start]
        .alternatives
        .iter()
        .map(|a| a.cost)
        .collect();
    // A literal that merely contains a parenthesis does not pay; "(" and a direct
    // self-reference do.
    assert_eq!(costs, [0, 1, 1, 0]);
}
