use num_bigint::BigUint;
use rand::SeedableRng;

use super::*;
use crate::builtins::{self, BUILTINS};
use crate::grammar::{Alternative, Grammar, Item};

fn builtin(name: &str) -> Enumeration {
    Enumeration::new(builtins::load(name).unwrap())
}

fn inline(text: &str) -> Enumeration {
    Enumeration::new(Grammar::from_source("t", "t.pest", text, "start").unwrap())
}

/// Part sizes of the eight grammars as measured on the published ET generator.
const VECTORS: &[(&str, &[(u32, u64)])] = &[
    ("core", &[(4, 4), (5, 148), (6, 13172), (7, 1544676)]),
    ("ints", &[(5, 80), (6, 3600), (7, 222160)]),
    ("reals", &[(5, 80), (6, 3280), (7, 182480)]),
    ("realints", &[(5, 68), (6, 2158), (7, 98540)]),
    ("bitvectors", &[(5, 56), (6, 3352), (7, 291064)]),
    ("arrays", &[(5, 2), (6, 36), (7, 738), (8, 16200)]),
    ("fp", &[(5, 112), (6, 41216), (7, 21762048)]),
    ("strings", &[(5, 112), (6, 9224), (7, 1282080)]),
];

#[test]
fn part_cardinalities_match_the_published_generator() {
    for (name, parts) in VECTORS {
        let mut e = builtin(name);
        let first = parts[0].0;
        for size in 0..first {
            assert_eq!(
                e.part_cardinality(size),
                BigUint::from(0u32),
                "{name} size {size}"
            );
        }
        for &(size, card) in *parts {
            assert_eq!(
                e.part_cardinality(size),
                BigUint::from(card),
                "{name} size {size}"
            );
        }
    }
}

#[test]
fn first_formulas() {
    let mut core = builtin("core");
    let texts: Vec<String> = (0u32..5)
        .map(|i| {
            let t = core.term(&BigUint::from(i)).unwrap();
            core.text(&t)
        })
        .collect();
    let decls = "(declare-const a Bool) (declare-const b Bool)";
    assert_eq!(texts[0], format!("{decls} (assert true) (check-sat)"));
    assert_eq!(texts[1], format!("{decls} (assert false) (check-sat)"));
    assert_eq!(texts[2], format!("{decls} (assert a) (check-sat)"));
    assert_eq!(texts[3], format!("{decls} (assert b) (check-sat)"));
    assert_eq!(texts[4], format!("{decls} (assert (not true)) (check-sat)"));
    let mut strings = builtin("strings");
    let t = strings.term(&BigUint::from(0u32)).unwrap();
    assert_eq!(
        strings.text(&t),
        "(declare-const a String) (declare-const b String) (assert (= \"\" \"\")) (check-sat)"
    );
}

#[test]
fn stream_equals_index_and_rank_inverts_for_every_builtin() {
    for b in BUILTINS {
        let mut e = builtin(b.name);
        let mut streamed = Vec::new();
        {
            let mut s = e.stream_from(&BigUint::from(0u32)).unwrap();
            for _ in 0..3000 {
                let text = String::from_utf8(s.current_text().to_vec()).unwrap();
                assert_eq!(
                    text,
                    s.enumeration().text(s.current().unwrap()),
                    "incremental print"
                );
                streamed.push(s.current().unwrap().clone());
                assert!(s.advance());
            }
        }
        for (i, t) in streamed.iter().enumerate() {
            let i = BigUint::from(i);
            assert_eq!(&e.term(&i).unwrap(), t, "{} index {i}", b.name);
            assert_eq!(e.rank(t), i, "{} rank", b.name);
        }
    }
}

#[test]
fn random_large_indices_round_trip() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for b in BUILTINS {
        let mut e = builtin(b.name);
        let bound = BigUint::from(10u32).pow(300);
        for _ in 0..20 {
            let i = rng.gen_biguint_below(&bound);
            let t = e.term(&i).unwrap();
            assert_eq!(e.rank(&t), i);
            let parsed = FormulaParser::new(e.grammar()).parse(&e.text(&t)).unwrap();
            assert_eq!(e.rank(&parsed), i, "{}", b.name);
        }
    }
}

/// A formula triage reported declares only the constants it uses; read with the
/// grammar's declarations put back, it is the grammar's formula again, with its index.
#[test]
fn a_formula_without_its_unused_declarations_reads_as_the_grammars() {
    let mut e = builtin("ints-5v2a");
    let i = BigUint::from(123_456u32);
    let t = e.term(&i).unwrap();
    let found = e.text(&t);
    let (trimmed, dropped) = super::declarations::without_unused(&found).expect("unused constants");
    assert!(!dropped.is_empty());
    let grammar = e.grammar().clone();
    assert!(FormulaParser::new(&grammar).parse(&trimmed).is_err());
    let parsed = FormulaParser::new(&grammar)
        .declaring(e.first_text())
        .parse(&trimmed)
        .unwrap();
    assert_eq!(e.rank(&parsed), i);
}

#[test]
fn stream_crosses_part_boundaries_in_order() {
    let mut e = builtin("core");
    let last_of_5 = e.count_below(6) - 1u32;
    let mut s = e.stream_from(&last_of_5).unwrap();
    assert_eq!(s.current().unwrap().size, 5);
    assert!(s.advance());
    assert_eq!(s.current().unwrap().size, 6);
}

#[test]
fn products_are_left_nested() {
    // Three children of sizes summing to 1: the last child's size is the outermost
    // split, so (x, x, f x) comes before (x, f x, x), which comes before (f x, x, x).
    let mut e = inline(
        r#"start = { t ~ t ~ t ~ "(check-sat)" }
           t = { "x" | "(" ~ "f" ~ t ~ ")" }"#,
    );
    let texts: Vec<String> = (1u32..4)
        .map(|i| {
            let t = e.term(&BigUint::from(i)).unwrap();
            e.text(&t)
        })
        .collect();
    assert_eq!(
        texts,
        [
            "x x (f x) (check-sat)",
            "x (f x) x (check-sat)",
            "(f x) x x (check-sat)"
        ]
    );
}

#[test]
fn finite_language_ends() {
    let mut e = inline(r#"start = { t ~ "(check-sat)" } t = { "a" | "(" ~ "b" ~ ")" }"#);
    assert_eq!(e.total(), Some(BigUint::from(2u32)));
    let err = e.term(&BigUint::from(2u32)).unwrap_err();
    assert!(err.to_string().contains("2 formulas"), "{err}");
    let mut s = e.stream_from(&BigUint::from(1u32)).unwrap();
    assert!(!s.advance());
    assert!(s.current().is_none());
}

#[test]
fn sugar_follows_the_documented_cost_model() {
    // `e*` = S where S = ε | e S (pays): lists of x by length.
    let mut e = inline(r#"start = { "x"* ~ "(check-sat)" }"#);
    let texts: Vec<String> = (0u32..3)
        .map(|i| {
            let t = e.term(&BigUint::from(i)).unwrap();
            e.text(&t)
        })
        .collect();
    assert_eq!(texts, ["(check-sat)", "x (check-sat)", "x x (check-sat)"]);
    let mut e = inline(r#"start = { "a" ~ ("b" | "c")? ~ "(check-sat)" }"#);
    assert_eq!(e.total(), Some(BigUint::from(3u32)));
}

#[test]
fn sampling_stays_in_part_and_is_reproducible() {
    let mut e = builtin("strings");
    let draw = |e: &mut Enumeration, seed| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (0..50)
            .map(|_| e.sample(9, &mut rng).unwrap())
            .collect::<Vec<_>>()
    };
    let a = draw(&mut e, 1);
    assert!(a.iter().all(|t| t.size == 9));
    assert_eq!(a, draw(&mut e, 1));
    assert_ne!(a, draw(&mut e, 2));
}

#[test]
fn deep_terms_decode_without_recursion() {
    // A unary chain: index n is a term of depth n.
    let mut e = inline(r#"start = { t ~ "(check-sat)" } t = { "x" | "(" ~ "f" ~ t ~ ")" }"#);
    let t = e.term(&BigUint::from(3000u32)).unwrap();
    assert_eq!(t.size, 3000);
    assert_eq!(e.rank(&t), BigUint::from(3000u32));
}

/// Issue 11 item 2: ET's extensions to five variables and up to two asserts, one per
/// theory, with their first part sizes pinned (size 8 of `core-5v2a`: 595 formulas with
/// one assert of size 1, plus 7 × 7 with two asserts of size 0).
const EXTENDED: &[(&str, &[(u32, u64)])] = &[
    ("core-5v2a", &[(7, 7), (8, 644), (9, 138040)]),
    ("ints-5v2a", &[(8, 245), (9, 18375), (10, 2019290)]),
    ("reals-5v2a", &[(8, 245), (9, 15925), (10, 1567755)]),
    ("realints-5v2a", &[(8, 206), (9, 11176), (10, 972462)]),
    ("bitvectors-5v2a", &[(8, 155), (9, 17263), (10, 2603195)]),
    ("arrays-5v2a", &[(8, 2), (9, 144), (10, 6628)]),
    ("fp-5v2a", &[(8, 343), (9, 286748), (10, 366581593)]),
    ("strings-5v2a", &[(8, 322), (9, 69602), (10, 26373187)]),
];

/// Issue 56: the grammars past ET's (quantifiers, uninterpreted functions, mixed
/// theories, datatypes) and their extensions, with their first three part sizes pinned
/// from the smallest formula's size on.
const PAST_ET: &[(&str, &[(u32, u64)])] = &[
    ("uf-ints", &[(8, 68), (9, 1916), (10, 112284)]),
    ("uf-ints-5v2a", &[(11, 203), (12, 9380), (13, 1248667)]),
    ("uf-bitvectors", &[(8, 68), (9, 3632), (10, 277204)]),
    (
        "uf-bitvectors-5v2a",
        &[(11, 203), (12, 18158), (13, 2667749)],
    ),
    ("quantifiers-ints", &[(7, 388), (8, 13042), (9, 576286)]),
    (
        "quantifiers-ints-5v2a",
        &[(10, 904), (11, 41146), (12, 2677894)],
    ),
    ("quantifiers-reals", &[(7, 388), (8, 12288), (9, 531096)]),
    (
        "quantifiers-reals-5v2a",
        &[(10, 904), (11, 39372), (12, 2529468)],
    ),
    (
        "quantifiers-bitvectors",
        &[(6, 366), (7, 34998), (8, 4136964)],
    ),
    (
        "quantifiers-bitvectors-5v2a",
        &[(9, 870), (10, 124458), (11, 22269732)],
    ),
    ("quantifiers-bv64", &[(6, 366), (7, 34998), (8, 4136964)]),
    (
        "quantifiers-bv64-5v2a",
        &[(9, 870), (10, 124458), (11, 22269732)],
    ),
    ("quantifiers-bv1", &[(6, 366), (7, 34998), (8, 4136964)]),
    (
        "quantifiers-bv1-5v2a",
        &[(9, 870), (10, 124458), (11, 22269732)],
    ),
    ("quantifiers-strings", &[(6, 610), (7, 47790), (8, 6383630)]),
    (
        "quantifiers-strings-5v2a",
        &[(9, 1450), (10, 243930), (11, 70410110)],
    ),
    ("bv-ints", &[(5, 75), (6, 2931), (7, 140373)]),
    ("bv-ints-5v2a", &[(8, 174), (9, 10194), (10, 802278)]),
    ("strings-ints", &[(5, 92), (6, 2809), (7, 183398)]),
    ("strings-ints-5v2a", &[(8, 212), (9, 7828), (10, 905001)]),
    ("fp-reals", &[(5, 38), (6, 1092), (7, 48206)]),
    ("fp-reals-5v2a", &[(8, 86), (9, 6522), (10, 743886)]),
    ("arrays-uf", &[(7, 19), (8, 337), (9, 7123)]),
    ("arrays-uf-5v2a", &[(10, 73), (11, 2185), (12, 92309)]),
    ("datatypes", &[(5, 26), (6, 615), (7, 22744)]),
    ("datatypes-5v2a", &[(8, 80), (9, 3984), (10, 286967)]),
];

#[test]
fn grammars_past_ets_have_their_pinned_part_sizes() {
    for (name, parts) in PAST_ET {
        let mut e = builtin(name);
        assert_eq!(e.smallest_size(), parts[0].0, "{name}");
        for &(size, card) in *parts {
            assert_eq!(
                e.part_cardinality(size),
                BigUint::from(card),
                "{name} size {size}"
            );
        }
    }
    // Every built-in past ET's is pinned here (the scripts' in `SCRIPTS`).
    let past: Vec<&str> = crate::builtins::BUILTINS
        .iter()
        .map(|b| b.name)
        .skip_while(|n| *n != "uf-ints")
        .filter(|n| !n.starts_with("scripts-"))
        .collect();
    let pinned: Vec<&str> = PAST_ET.iter().map(|(n, _)| *n).collect();
    let mut sorted = pinned.clone();
    sorted.sort();
    let mut listed = past.clone();
    listed.sort();
    assert_eq!(listed, sorted);
}

/// The grammars of scripts (several check-sats, balanced scopes, check-sat-assuming,
/// reset-assertions), with the smallest part and the three around the 10^5th script
/// pinned: sizes smallest + 7, + 8, + 9.
const SCRIPTS: &[(&str, &[(u32, u64)])] = &[
    (
        "scripts-ints",
        &[(6, 1), (13, 30270), (14, 141173), (15, 659929)],
    ),
    (
        "scripts-reals",
        &[(6, 1), (13, 28291), (14, 131496), (15, 613569)],
    ),
    (
        "scripts-bitvectors",
        &[(6, 1), (13, 30270), (14, 141173), (15, 659929)],
    ),
    (
        "scripts-strings",
        &[(6, 1), (13, 15574), (14, 60046), (15, 232354)],
    ),
    (
        "scripts-arrays",
        &[(6, 1), (13, 13643), (14, 58347), (15, 267270)],
    ),
    (
        "scripts-fp",
        &[(6, 1), (13, 41415), (14, 223532), (15, 1210049)],
    ),
    (
        "scripts-uf-ints",
        &[(9, 1), (16, 44342), (17, 215475), (18, 1051023)],
    ),
];

#[test]
fn script_grammars_have_their_pinned_part_sizes() {
    for (name, parts) in SCRIPTS {
        let mut e = builtin(name);
        assert_eq!(e.smallest_size(), parts[0].0, "{name}");
        for &(size, card) in *parts {
            assert_eq!(
                e.part_cardinality(size),
                BigUint::from(card),
                "{name} size {size}"
            );
        }
        // The smallest script: the declarations, then two check-sats.
        let first = e.term(&BigUint::from(0u32)).unwrap();
        let text = e.text(&first);
        assert!(
            text.ends_with(") (check-sat) (check-sat)"),
            "{name}: {text}"
        );
        // Scripts with two scopes come among the first 10^4.
        let two = (0u32..10_000)
            .map(|i| {
                let t = e.term(&BigUint::from(i)).unwrap();
                e.text(&t)
            })
            .find(|t| t.matches("(push 1)").count() == 2);
        assert!(two.is_some(), "{name}");
    }
    // Every built-in of scripts is pinned here.
    let scripts: Vec<&str> = crate::builtins::BUILTINS
        .iter()
        .map(|b| b.name)
        .filter(|n| n.starts_with("scripts-"))
        .collect();
    let pinned: Vec<&str> = SCRIPTS.iter().map(|(n, _)| *n).collect();
    assert_eq!(scripts, pinned);
}

#[test]
fn extended_grammars_have_their_pinned_part_sizes() {
    for (name, parts) in EXTENDED {
        let mut e = builtin(name);
        assert_eq!(e.smallest_size(), parts[0].0, "{name}");
        for &(size, card) in *parts {
            assert_eq!(
                e.part_cardinality(size),
                BigUint::from(card),
                "{name} size {size}"
            );
        }
        let first = e.term(&BigUint::from(0u32)).unwrap();
        let text = e.text(&first);
        for v in ["a", "b", "c", "d", "e"] {
            assert!(
                text.contains(&format!("(declare-const {v} ")),
                "{name}: {text}"
            );
        }
    }
    // The base grammar's formulas, redeclared, come first; two asserts come later.
    let mut e = builtin("ints-5v2a");
    let first = e.term(&BigUint::from(0u32)).unwrap();
    let s = e.text(&first);
    assert!(s.ends_with("(assert (= 0 0)) (check-sat)"), "{s}");
    let two = (0u32..20_000)
        .map(|i| {
            let t = e.term(&BigUint::from(i)).unwrap();
            e.text(&t)
        })
        .find(|t| t.matches("(assert").count() == 2);
    assert!(two.is_some());
}

/// Issue 14 item 19b: `e{m,n}` stored in linear space enumerates exactly as the
/// documented `ε | e | e e | …` written out.
#[test]
fn long_bounded_repeats_keep_the_documented_order_and_costs() {
    let text = r#"start = { t{0,70} ~ "(check-sat)" }
                  t = { "x" | "(" ~ "f" ~ t ~ ")" | "y" ~ u }
                  u = { "z" | "(" ~ "g" ~ t ~ ")" }"#;
    let chunked = Grammar::from_source("t", "t.pest", text, "start").unwrap();
    // The same grammar with the repetition written out as alternatives e^0 … e^70.
    let base = Grammar::from_source(
        "t",
        "t.pest",
        r#"start = { t ~ "(check-sat)" }
           t = { "x" | "(" ~ "f" ~ t ~ ")" | "y" ~ u }
           u = { "z" | "(" ~ "g" ~ t ~ ")" }"#,
        "start",
    )
    .unwrap();
    let t = base.nonterminal("t").unwrap();
    let check_sat = base.tokens.iter().position(|t| t == "(check-sat)").unwrap();
    let mut nonterminals = base.nonterminals.clone();
    let written: Vec<Alternative> = (0..=70)
        .map(|j| Alternative {
            cost: 0, // `t` has no "(" of its own and is not the rule written in
            items: std::iter::repeat_n(Item::Child(t), j)
                .chain([Item::Token(check_sat)])
                .collect(),
        })
        .collect();
    nonterminals[base.start].alternatives = written;
    let written =
        Grammar::from_nonterminals("t", "t.pest", base.tokens.clone(), nonterminals, "start")
            .unwrap();
    let (mut a, mut b) = (Enumeration::new(chunked), Enumeration::new(written));
    for size in 0..12 {
        assert_eq!(
            a.part_cardinality(size),
            b.part_cardinality(size),
            "size {size}"
        );
    }
    let zero = BigUint::from(0u32);
    let (mut sa, mut sb) = (a.stream_from(&zero).unwrap(), b.stream_from(&zero).unwrap());
    for n in 0..20_000 {
        assert_eq!(sa.current_text(), sb.current_text(), "formula {n}");
        assert!(sa.advance() && sb.advance());
    }
    let i = BigUint::from(10u32).pow(40);
    let (ta, tb) = (a.term(&i).unwrap(), b.term(&i).unwrap());
    assert_eq!(a.text(&ta), b.text(&tb));
    assert_eq!(a.rank(&ta), i);
}

/// The exact values the residue tables rebuild equal the plain big-integer
/// convolutions, at every size and node up to 200 (where values reach 10^450).
#[test]
fn rebuilt_cardinalities_equal_plain_big_integer_sums() {
    use num_traits::Zero;
    for name in ["strings", "fp", "arrays"] {
        let mut e = builtin(name);
        let max = 200u32;
        e.ensure(max);
        let cards = e.cards();
        let nts = cards.alts.len();
        let mut nt: Vec<Vec<BigUint>> = vec![Vec::new(); nts];
        let mut seq: Vec<Vec<BigUint>> = vec![Vec::new(); cards.seqs.len()];
        let get = |nt: &Vec<Vec<BigUint>>, seq: &Vec<Vec<BigUint>>, node: Node, k: usize| match node
        {
            Node::Nt(i) => nt[i].get(k).cloned().unwrap_or_default(),
            Node::Seq(s) => seq[s].get(k).cloned().unwrap_or_default(),
        };
        for n in 0..=max as usize {
            // Plain fixpoint per size: iterate until same-size values settle.
            let mut settled = false;
            while !settled {
                let before = (nt.clone(), seq.clone());
                for (s, def) in cards.seqs.iter().enumerate() {
                    let v: BigUint = (0..=n)
                        .map(|k| {
                            get(&nt, &seq, def.prefix, k)
                                * get(&nt, &seq, Node::Nt(def.last), n - k)
                        })
                        .sum();
                    if seq[s].len() == n {
                        seq[s].push(v)
                    } else {
                        seq[s][n] = v
                    }
                }
                for (i, alts) in cards.alts.iter().enumerate() {
                    let mut v = BigUint::zero();
                    for alt in alts {
                        if let Some(m) = n.checked_sub(alt.cost as usize) {
                            v += match alt.body() {
                                Some(body) => get(&nt, &seq, body, m),
                                None => BigUint::from(u32::from(m == 0)),
                            };
                        }
                    }
                    if nt[i].len() == n {
                        nt[i].push(v)
                    } else {
                        nt[i][n] = v
                    }
                }
                settled = before == (nt.clone(), seq.clone());
            }
            for (i, plain) in nt.iter().enumerate() {
                assert_eq!(
                    cards.card(Node::Nt(i), n as u32),
                    &plain[n],
                    "{name} nt {i} size {n}"
                );
            }
            for (s, plain) in seq.iter().enumerate() {
                assert_eq!(
                    cards.card(Node::Seq(s), n as u32),
                    &plain[n],
                    "{name} seq {s} size {n}"
                );
            }
        }
    }
}

/// The terms of any rule (what `et shrink` replaces subterms with): offsets below the
/// rule's part cardinality decode to distinct terms of that rule and size, the start
/// rule's agree with the formulas of a part, and sizes the residue tables rebuild (far
/// beyond u64) decode as well.
#[test]
fn every_rule_decodes_its_own_parts() {
    use num_traits::ToPrimitive;
    let mut e = builtin("ints");
    let rules = e.grammar().nonterminals.len();
    for nt in 0..rules {
        for size in 0..=7u32 {
            let card = e.rule_part_cardinality(nt, size);
            let count = card.to_usize().unwrap().min(300);
            let mut seen: Vec<Term> = Vec::with_capacity(count);
            for offset in 0..count {
                let t = e.rule_term(nt, size, BigUint::from(offset));
                assert_eq!((t.nt, t.size), (nt, size), "rule {nt}, size {size}");
                assert!(
                    !seen.contains(&t),
                    "rule {nt}, size {size}: offset {offset} repeats"
                );
                seen.push(t);
            }
        }
    }
    let start = e.grammar().start;
    for size in [5u32, 6, 150] {
        let card = e.rule_part_cardinality(start, size);
        assert_eq!(card, e.part_cardinality(size));
        let last = card - 1u32;
        assert_eq!(
            e.rule_term(start, size, last.clone()),
            e.term_in_part(size, last)
        );
    }
}
