//! One test per kind of grammar error (syntax, undefined rule, no start, empty language,
//! zero-cost cycle, lookahead, stack operation, bounds, formulas without `check-sat`,
//! string literals outside printable ASCII, scripts that pop an empty assertion stack):
//! each names the rule(s) and the line and column.

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
fn syntax_error_names_the_sequence_operator_as_written() {
    // pest_meta calls `~` `&` in its list of what it expected.
    let d = single("start = { \"a\" ; }\n");
    at(&d, 1, 15);
    assert!(
        d.message.contains("`~`") && !d.message.contains("`&`"),
        "{d}"
    );
}

#[test]
fn missing_sequence_operator_is_reported_at_the_second_item() {
    let d = single("start = { \"(\" \"assert\" ~ b ~ \")\" }\nb = { \"true\" }\n");
    at(&d, 1, 15);
    assert!(d.message.contains("expected `~` between two items"), "{d}");
    assert!(d.message.contains("`|` between alternatives"), "{d}");
    // In a group, before a rule name, after a comment.
    let d = single("start = {\n  (\"a\" | \"b\" /* c */ b) }\nb = { \"x\" }\n");
    at(&d, 2, 22);
    assert!(d.message.contains("expected `~`"), "{d}");
}

#[test]
fn unclosed_brace_is_reported_where_it_opens() {
    let mut text = "//! A grammar.\n".repeat(10);
    text.push_str("start = { \"(\" ~ b ~ \")\"\n\n");
    let d = single(&text);
    at(&d, 11, 9);
    assert!(d.message.contains("`{` is never closed"), "{d}");
    assert!(
        d.message
            .contains("expected `}` before the end of the file"),
        "{d}"
    );
    // The rule after it is where pest notices.
    let d = single("start = { b ~ \"x\"\n/// b\nb = { \"y\" }\n");
    at(&d, 1, 9);
    assert!(
        d.message.contains("`{` is never closed")
            && d.message.contains("before the next rule, at 3:1"),
        "{d}"
    );
    // The innermost bracket open, not counting those in literals and comments.
    let d = single("b = { \"{\" }\nstart = { b ~ (\"(\" ~ b /* ) */ // )\n");
    at(&d, 2, 15);
    assert!(
        d.message.contains("`(` is never closed: expected `)`"),
        "{d}"
    );
}

#[test]
fn undefined_rule() {
    let d = single("start = { \"a\" | thing }\n");
    at(&d, 1, 17);
    assert!(d.message.contains("`start` refers to `thing`"), "{d}");
    assert!(!d.message.contains("did you mean"), "{d}");
}

#[test]
fn undefined_rule_suggests_the_closest_defined_rule() {
    let text = "start = { \"(\" ~ \"assert\" ~ int_trem ~ \")\" ~ \"(check-sat)\" }\n\
                int_term = { \"1\" | (\"(\" ~ \"-\" ~ int_term ~ \")\")* }\n";
    let d = single(text);
    at(&d, 1, 28);
    assert!(d.message.contains("did you mean `int_term`?"), "{d}");
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
        "start = { \"(check-sat)\" }\nspare = { \"b\" }\n",
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
        r#"start = { t ~ "(check-sat)" }
t = { "(_ BitVec 64)" | "(" ~ "f" ~ ")" | "g" ~ t | "h" }"#,
        "start",
    )
    .unwrap();
    let costs: Vec<u32> = g.nonterminals[g.nonterminal("t").unwrap()]
        .alternatives
        .iter()
        .map(|a| a.cost)
        .collect();
    // A literal that merely contains a parenthesis does not pay; "(" and a direct
    // self-reference do.
    assert_eq!(costs, [0, 1, 1, 0]);
}

#[test]
fn repeat_counts_are_bounded_with_position() {
    let d = single("start = {\n  \"a\"{99999999999999999999999} }\n");
    at(&d, 2, 6);
    assert!(
        d.message
            .contains("repeats {99999999999999999999999} times")
            && d.message.contains(&MAX_REPEAT.to_string()),
        "{d}"
    );
    let d = single("start = { \"a\"{3,100001} }\n");
    assert!(d.message.contains("at most 100000"), "{d}");
}

#[test]
fn a_long_bounded_repeat_is_stored_in_linear_space() {
    let text = "start = { \"a\"{0,100000} ~ \"(check-sat)\" }";
    let g = Grammar::from_source("t", "t.pest", text, "start").unwrap();
    let items: usize = g
        .nonterminals
        .iter()
        .flat_map(|n| &n.alternatives)
        .map(|a| a.items.len())
        .sum();
    // Written out, `ε | a | a a | …` would hold 5·10^9 items.
    assert!(items < 40 * 100_000, "{items} items");
    let repeat = g.nonterminals[g.start].alternatives[0].items[0];
    let Item::Child(repeat) = repeat else {
        panic!("start is the repetition")
    };
    assert_eq!(g.nonterminals[repeat].alternatives.len(), 100_001);
}

#[test]
fn deep_nesting_is_refused_with_position() {
    let depth = 7000;
    let text = format!(
        "start = {{ {}\"x\"{} }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let d = single(&text);
    // The bracket that goes one level past the bound (the rule's `{` is level 1).
    at(&d, 1, 10 + MAX_NESTING);
    assert!(d.message.contains("nested more than 256 levels"), "{d}");
    // Brackets inside strings and comments do not count.
    let quoted = format!(
        "// {}\nstart = {{ \"{}\" ~ \"(check-sat)\" }}\n",
        "(".repeat(400),
        "[".repeat(400)
    );
    assert!(Grammar::from_source("t", "t.pest", &quoted, "start").is_ok());
}

#[test]
fn extension_adds_variables_and_asserts() {
    let base = r#"start = { decl_a ~ decl_b ~ assert ~ check_sat }
decl_a = { "(" ~ "declare-const" ~ "a" ~ "Int" ~ ")" }
decl_b = { "(" ~ "declare-const" ~ "b" ~ "Int" ~ ")" }
assert = { "(" ~ "assert" ~ t ~ ")" }
check_sat = { "(" ~ "check-sat" ~ ")" }
t = { "a" | "b" | "(" ~ "f" ~ t ~ ")" }
"#;
    let extension = Extension {
        vars: 4,
        asserts: 3,
    };
    let g = Grammar::from_source_extended("t", "t.pest", base, "start", Some(extension)).unwrap();
    let names: Vec<&str> = g
        .nonterminals
        .iter()
        .filter(|n| n.generated_in.is_none())
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "start",
            "decl_a",
            "decl_b",
            "decl_c",
            "decl_d",
            "assert",
            "check_sat",
            "t"
        ]
    );
    let t = g.nonterminal("t").unwrap();
    let constants: Vec<&str> = g.nonterminals[t]
        .alternatives
        .iter()
        .filter(|a| a.items.len() == 1)
        .map(|a| match a.items[0] {
            Item::Token(tok) => g.token(tok),
            Item::Child(_) => "?",
        })
        .collect();
    assert_eq!(constants, ["a", "b", "c", "d"]);
    // start: five declarations' worth of children, one assert, then up to two more.
    let start = &g.nonterminals[g.start].alternatives[0];
    assert_eq!(start.arity(), 4 + 1 + 1 + 1);
    let bad =
        Grammar::from_source_extended("t", "t.pest", "start = { \"x\" }", "start", Some(extension))
            .unwrap_err();
    assert!(bad.to_string().contains("needs ET's shape"), "{bad}");
}

const DECLS: &str = r#"decl = { "(" ~ "declare-const" ~ "a" ~ "Int" ~ ")" }
assert = { "(" ~ "assert" ~ "(" ~ ">" ~ "a" ~ "0" ~ ")" ~ ")" }
check_sat = { "(" ~ "check-sat" ~ ")" }
"#;

#[test]
fn formulas_without_check_sat_are_refused_at_the_start_rule() {
    let d = single(&format!("start = {{ decl ~ assert }}\n{DECLS}"));
    at(&d, 1, 1);
    assert!(
        d.message.starts_with(
            "formulas of rule `start` can lack a `check-sat` command, e.g. \
             `(declare-const a Int) (assert (> a 0))`: et appends `(get-model)`"
        ),
        "{d}"
    );
}

#[test]
fn formulas_without_check_sat_name_the_choice_that_leaves_it_out() {
    // An optional part: the position of its `?`.
    let d = single(&format!(
        "start = {{ decl ~ assert ~ check_sat? }}\n{DECLS}"
    ));
    at(&d, 1, 36);
    assert!(
        d.message
            .contains("through the group or repetition here in rule `start`, e.g. `(declare-const"),
        "{d}"
    );
    // A `*` may repeat zero times; a `+` may not.
    let d = single(&format!(
        "start = {{ decl ~ (assert ~ check_sat)* }}\n{DECLS}"
    ));
    at(&d, 1, 38);
    let plus = format!("start = {{ decl ~ (assert ~ check_sat)+ }}\n{DECLS}");
    assert!(Grammar::from_source("t", "t.pest", &plus, DEFAULT_START).is_ok());
    let bounded = format!("start = {{ decl ~ (assert ~ check_sat){{1,3}} }}\n{DECLS}");
    assert!(Grammar::from_source("t", "t.pest", &bounded, DEFAULT_START).is_ok());
    let d = single(&format!(
        "start = {{ decl ~ (assert ~ check_sat){{0,3}} }}\n{DECLS}"
    ));
    at(&d, 1, 38);
    // An alternative of another rule: that rule's position and the alternative's number.
    let d = single(&format!(
        "start = {{ decl ~ last }}\nlast = {{ check_sat | assert | \"(check-sat-assuming (true))\" }}\n{DECLS}"
    ));
    at(&d, 2, 1);
    assert!(
        d.message
            .contains("through alternative 2 of rule `last`, e.g. `(declare-const a Int) (assert"),
        "{d}"
    );
}

#[test]
fn check_sat_counts_as_a_command_only() {
    // `check-sat-assuming` is a check; `check-sat` inside a string literal or a comment
    // is not.
    let ok = format!("start = {{ decl ~ \"(check-sat-assuming ((> a 0)))\" }}\n{DECLS}");
    assert!(Grammar::from_source("t", "t.pest", &ok, DEFAULT_START).is_ok());
    let d = single(&format!(
        "start = {{ decl ~ \"(echo \\\"check-sat\\\")\" }}\n{DECLS}"
    ));
    at(&d, 1, 1);
    // Only derivations that finish count: a recursion that never ends without the
    // command does not leave it out.
    let ok = format!(
        "start = {{ decl ~ tail }}\ntail = {{ check_sat | \"(\" ~ \"wrap\" ~ tail ~ \")\" }}\n{DECLS}"
    );
    assert!(Grammar::from_source("t", "t.pest", &ok, DEFAULT_START).is_ok());
}

#[test]
fn string_literals_outside_printable_ascii_are_refused_with_the_escape() {
    let text = format!(
        "start = {{ decl ~ lit ~ check_sat }}\nlit = {{ \"(assert (= s \\\"é\\\"))\" |\n  \"(assert (= s \\\"a\\\"\\\"中\\\"))\" | \"(assert (= s \\\"\\\\u{{e9}}\\\"))\" }}\n{DECLS}"
    );
    let all = errors(&text);
    assert_eq!(all.len(), 2, "{all:?}");
    at(&all[0], 2, 9);
    assert!(
        all[0].message.starts_with(
            "rule `lit` has a string literal holding characters outside printable ASCII"
        ) && all[0].message.ends_with("write `\\u{e9}` for `é`"),
        "{}",
        all[0]
    );
    at(&all[1], 3, 3);
    assert!(
        all[1].message.ends_with("write `\\u{4e2d}` for `中`"),
        "{}",
        all[1]
    );
    // Outside string literals (a quoted symbol) other characters are not refused.
    let ok = format!("start = {{ \"(declare-const |é| Int)\" ~ check_sat }}\n{DECLS}");
    assert!(Grammar::from_source("t", "t.pest", &ok, DEFAULT_START).is_ok());
}

#[test]
fn literal_and_check_sat_problems_are_reported_together() {
    let all = errors("start = { \"(assert (= s \\\"é\\\"))\" }\n");
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(all[0].message.contains("`\\u{e9}` for `é`"), "{}", all[0]);
    assert!(
        all[1].message.contains("can lack a `check-sat`"),
        "{}",
        all[1]
    );
}

fn accepted(text: &str) -> Grammar {
    match Grammar::from_source("t", "t.pest", text, DEFAULT_START) {
        Ok(g) => g,
        Err(e) => panic!("refused: {e}"),
    }
}

/// A script grammar of the built-in shape: declarations at level 0, then commands with
/// nested scopes (split tokens), `check-sat-assuming` and `reset-assertions` at level 0.
const SCRIPT: &str = r#"start = { decl ~ commands ~ check }
decl = { "(" ~ "declare-const" ~ "p" ~ "Bool" ~ ")" }
commands = { command* }
command = { assert | check | scope | reset }
inner = { (assert | check | scope)* }
scope = { "(" ~ "push" ~ "1" ~ ")" ~ inner ~ "(" ~ "pop" ~ "1" ~ ")" }
reset = { "(" ~ "reset-assertions" ~ ")" }
assert = { "(" ~ "assert" ~ "p" ~ ")" }
check = { "(" ~ "check-sat" ~ ")" | "(" ~ "check-sat-assuming" ~ "(" ~ "p" ~ ")" ~ ")" }
"#;

#[test]
fn balanced_scripts_are_accepted() {
    accepted(SCRIPT);
    // One terminal per command; a push of two popped in two; a reset at level 2 then
    // levels pushed again.
    accepted(r#"start = { "(push 2)" ~ "(pop 1)" ~ "(check-sat)" ~ "(pop 1)" ~ "(check-sat)" }"#);
    accepted(
        r#"start = { "(push 1) (push 1)" ~ "(reset-assertions)" ~ "(push 1)" ~ "(pop 1)" ~ "(check-sat)" }"#,
    );
    // A recursion that pushes before it pops; a pop that only follows its own push.
    accepted(
        r#"start = { nest ~ "(check-sat)" }
nest = { "(push 1)" ~ nest ~ "(pop 1)" | "(push 1)" ~ "(pop 1)" }"#,
    );
    accepted(r#"start = { ("(push 1)" ~ "(check-sat)" ~ "(pop 1)")+ }"#);
    accepted(r#"start = { "(push 3)" ~ "(pop 1)"{0,3} ~ "(check-sat)" }"#);
    // A long repetition (chunk rules nested 300 deep) is one pass, not one per chunk.
    accepted(r#"start = { "(push 10000)" ~ "(pop 1)"{0,10000} ~ "(check-sat)" }"#);
    let d = single(r#"start = { "(push 9999)" ~ "(pop 1)"{0,10000} ~ "(check-sat)" }"#);
    assert!(
        d.message
            .contains("e.g. `(push 9999) (pop 1) (pop 1) (pop 1) (pop 1) (pop 1)"),
        "{d}"
    );
    assert!(
        d.message
            .contains(" … (pop 1) (pop 1) (pop 1) (pop 1) (check-sat)`"),
        "{d}"
    );
}

#[test]
fn a_pop_of_an_empty_stack_is_refused_at_the_pop() {
    let d = single(r#"start = { "(pop 1)" ~ "(check-sat)" }"#);
    at(&d, 1, 11);
    assert_eq!(
        d.message,
        "scripts of rule `start` can pop more levels than they pushed: the `pop` here in rule \
         `start` takes the assertion stack to level -1 in e.g. `(pop 1) (check-sat)`, which a \
         solver answers with an error; pop only levels pushed before it, e.g. with a rule \
         `scope = { \"(\" ~ \"push\" ~ \"1\" ~ \")\" ~ body ~ \"(\" ~ \"pop\" ~ \"1\" ~ \")\" }`"
    );
    // Through rules: the pop in the rule it is written in, with a script reaching it.
    let d = single(
        "start = { \"(push 1)\" ~ body ~ \"(check-sat)\" }\n\
         body = { \"(check-sat)\" | \"(pop 1)\" ~ \"(pop 1)\" }",
    );
    at(&d, 2, 38);
    assert!(
        d.message.contains(
            "the `pop` here in rule `body` takes the assertion stack to level -1 in e.g. \
             `(push 1) (pop 1) (pop 1) (check-sat)`"
        ),
        "{d}"
    );
    // A bounded repetition pops as often as it may: three levels are not four.
    let d = single(r#"start = { "(push 3)" ~ "(pop 1)"{0,4} ~ "(check-sat)" }"#);
    at(&d, 1, 24);
    assert!(d.message.contains("level -1"), "{d}");
    // A reset forgets the levels pushed before it.
    let d = single(r#"start = { "(push 1)" ~ "(reset-assertions)" ~ "(pop 1)" ~ "(check-sat)" }"#);
    at(&d, 1, 47);
    assert!(
        d.message
            .contains("e.g. `(push 1) (reset-assertions) (pop 1) (check-sat)`"),
        "{d}"
    );
    let d = single(r#"start = { "(push 1)" ~ "(reset)" ~ "(pop 1)" ~ "(check-sat)" }"#);
    at(&d, 1, 36);
    // A reset inside a scope empties the stack under the scope's pop; nested k deep,
    // the pops after it go k levels below 0.
    let d = single(&SCRIPT.replace(
        "inner = { (assert | check | scope)* }",
        "inner = { (assert | check | scope | reset)* }",
    ));
    at(&d, 5, 1);
    assert!(
        d.message
            .contains("without bound: rule `inner` can be derived again inside itself"),
        "{d}"
    );
    let d = single(
        "start = { scope ~ \"(check-sat)\" }\n\
         scope = { \"(push 1)\" ~ \"(reset-assertions)\" ~ \"(pop 1)\" }",
    );
    at(&d, 2, 47);
    assert!(
        d.message
            .contains("e.g. `(push 1) (reset-assertions) (pop 1) (check-sat)`"),
        "{d}"
    );
}

#[test]
fn pops_without_bound_are_refused_at_the_rule_or_repetition() {
    let d = single(
        "start = { \"(push 1)\" ~ x ~ \"(check-sat)\" }\n\
         x = { \"(pop 1)\" ~ x | \"(check-sat)\" }",
    );
    at(&d, 2, 1);
    assert!(
        d.message.starts_with(
            "scripts of rule `start` can pop more levels than they pushed, without bound: \
             rule `x` can be derived again inside itself, taking the assertion stack lower \
             each time (more `pop` levels than `push` levels, or a reset under a `pop`)"
        ),
        "{d}"
    );
    // Pushes without bound do not make up for pops without bound.
    let d = single(r#"start = { "(push 1)"* ~ "(pop 1)"* ~ "(check-sat)" }"#);
    at(&d, 1, 34);
    assert!(
        d.message
            .contains("the group or repetition here in rule `start` can be repeated"),
        "{d}"
    );
    // More pops than pushes around a recursion, through two rules.
    let d = single(
        "start = { x ~ \"(check-sat)\" }\n\
         x = { \"(\" ~ \"push\" ~ \"1\" ~ \")\" ~ y ~ \"(\" ~ \"pop\" ~ \"2\" ~ \")\" | \"(check-sat)\" }\n\
         y = { x | \"(push 1)\" ~ x }",
    );
    at(&d, 2, 1);
    assert!(d.message.contains("without bound"), "{d}");
}

#[test]
fn a_level_that_is_not_a_numeral_is_refused() {
    let all = errors(
        "start = { \"(pop)\" ~ \"(check-sat)\" ~ \"(push x)\" }\n\
         other = { \"(\" ~ \"pop\" ~ level ~ \")\" | \"(\" ~ \"push\" }\n\
         level = { \"1\" }",
    );
    let found: Vec<(Position, &str)> = all
        .iter()
        .map(|d| (d.position, d.message.as_str()))
        .collect();
    assert_eq!(found.len(), 4, "{all:?}");
    at(&all[0], 1, 11);
    assert!(
        all[0].message.starts_with(
            "rule `start` has a `pop` whose level is not a numeral written in the grammar: \
             the level must be a numeral in the same terminal (`\"(pop 1)\"`) or the next \
             terminal of the same sequence (`\"(\" ~ \"pop\" ~ \"1\" ~ \")\"`)"
        ),
        "{}",
        all[0]
    );
    at(&all[1], 1, 37);
    assert!(all[1].message.starts_with("rule `start` has a `push`"));
    at(&all[2], 2, 17);
    assert!(all[2].message.starts_with("rule `other` has a `pop`"));
    at(&all[3], 2, 45);
    assert!(all[3].message.starts_with("rule `other` has a `push`"));
    // A numeral with a leading zero is no numeral.
    let d = single(r#"start = { "(push 01)" ~ "(check-sat)" }"#);
    at(&d, 1, 11);
}

#[test]
fn split_push_and_pop_tokens_take_the_next_terminal_as_level() {
    let push = r#""(" ~ "push" ~ "1" ~ ")""#;
    let pop = |n: u32| format!(r#""(" ~ "pop" ~ "{n}" ~ ")""#);
    let check = r#""(" ~ "check-sat" ~ ")""#;
    accepted(&format!(
        "start = {{ {push} ~ {check} ~ {} ~ {check} }}",
        pop(1)
    ));
    let d = single(&format!(
        "start = {{ {push} ~ {check} ~ {} ~ {check} }}",
        pop(2)
    ));
    at(&d, 1, 70);
    assert!(
        d.message.contains(
            "takes the assertion stack to level -1 in e.g. `(push 1) (check-sat) (pop 2) \
             (check-sat)`"
        ),
        "{d}"
    );
    // A terminal that opens the command and the level after it.
    accepted(r#"start = { "(push" ~ "2" ~ ")" ~ "(pop" ~ "2)" ~ "(check-sat)" }"#);
    let d = single(r#"start = { "(push" ~ "1" ~ ")" ~ "(pop" ~ "2)" ~ "(check-sat)" }"#);
    at(&d, 1, 33);
}
