use num_bigint::BigUint;
use rand::SeedableRng;

use super::*;
use crate::builtins::{self, BUILTINS};
use crate::grammar::Grammar;

fn builtin(name: &str) -> Enumeration {
    Enumeration::new(builtins::load(name).unwrap())
}

fn inline(text: &str) -> Enumeration {
    Enumeration::new(Grammar::from_source("t", "t.pest", text, "start").unwrap())
}

/// DESIGN §4: measured on the published generator.
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
        r#"start = { t ~ t ~ t }
           t = { "x" | "(" ~ "f" ~ t ~ ")" }"#,
    );
    let texts: Vec<String> = (1u32..4)
        .map(|i| {
            let t = e.term(&BigUint::from(i)).unwrap();
            e.text(&t)
        })
        .collect();
    assert_eq!(texts, ["x x (f x)", "x (f x) x", "(f x) x x"]);
}

#[test]
fn finite_language_ends() {
    let mut e = inline(r#"start = { "a" | "(" ~ "b" ~ ")" }"#);
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
    let mut e = inline(r#"start = { "x"* }"#);
    let texts: Vec<String> = (0u32..3)
        .map(|i| {
            let t = e.term(&BigUint::from(i)).unwrap();
            e.text(&t)
        })
        .collect();
    assert_eq!(texts, ["", "x", "x x"]);
    let mut e = inline(r#"start = { "a" ~ ("b" | "c")? }"#);
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
    let mut e = inline(r#"start = { "x" | "(" ~ "f" ~ start ~ ")" }"#);
    let t = e.term(&BigUint::from(3000u32)).unwrap();
    assert_eq!(t.size, 3000);
    assert_eq!(e.rank(&t), BigUint::from(3000u32));
}
