//! `#[derive(Enumerable)]` on a small Boolean/integer term type: part cardinalities
//! counted by hand, order, printing, rank, and agreement with the engine's own text.

use num_bigint::BigUint;
use rand::SeedableRng;

use et_core::typed::{Enumerable, TypedEnumeration};

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Int {
    #[enumerable(print = "0")]
    Zero,
    #[enumerable(print = "1")]
    One,
    #[enumerable(print = "-")]
    Neg(Box<Int>),
    #[enumerable(print = "+")]
    Add(Box<Int>, Box<Int>),
}

#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Bool {
    #[enumerable(print = "true")]
    True,
    #[enumerable(print = "not")]
    Not(Box<Bool>),
    #[enumerable(print = "and")]
    And { left: Box<Bool>, right: Box<Bool> },
    #[enumerable(print = "<=")]
    Le(Int, Int),
}

/// A free wrapper: costs nothing, so its parts are `Bool`'s.
#[derive(Enumerable, Debug, Clone, PartialEq)]
#[enumerable(cost = 0, print = "assert")]
struct Assert(Bool);

/// A constructor that pays 2.
#[derive(Enumerable, Debug, Clone, PartialEq)]
enum Heavy {
    #[enumerable(cost = 2)]
    Leaf,
    Pair(Box<Heavy>, Box<Heavy>),
}

fn cards<T: Enumerable>(sizes: u32) -> Vec<u64> {
    let mut e = TypedEnumeration::<T>::new();
    (0..sizes)
        .map(|n| u64::try_from(e.part_cardinality(n)).unwrap())
        .collect()
}

#[test]
fn part_cardinalities_are_the_hand_computed_ones() {
    // Int: I1 = 2 (0, 1); In = I(n-1) (neg) + sum over k of Ik·I(n-1-k) (add).
    // I2 = 2 + 0, I3 = 2 + 2·2 = 6, I4 = 6 + (2·2 + 2·2) = 14, I5 = 14 + (2·6 + 2·2 + 6·2) = 42.
    assert_eq!(cards::<Int>(6), [0, 2, 2, 6, 14, 42]);
    // Bool: B1 = 1 (true); Bn = B(n-1) (not) + sum Bk·B(n-1-k) (and) + sum Ik·I(n-1-k) (<=).
    // B2 = 1, B3 = 1 + 1 + 4 = 6, B4 = 6 + 2 + 8 = 16, B5 = 16 + (6 + 1 + 6) + (12 + 4 + 12) = 57.
    assert_eq!(cards::<Bool>(6), [0, 1, 1, 6, 16, 57]);
    // The wrapper is free.
    assert_eq!(cards::<Assert>(6), [0, 1, 1, 6, 16, 57]);
    // Heavy: leaf at size 2; pairs of total size n-1: H5 = H2·H2 = 1, H8 = 2·(H2·H5) = 2.
    assert_eq!(cards::<Heavy>(9), [0, 0, 1, 0, 0, 1, 0, 0, 2]);
}

#[test]
fn values_come_in_feat_order_and_print_as_asked() {
    let mut e = TypedEnumeration::<Assert>::new();
    let texts: Vec<String> = e
        .iter_from(&BigUint::from(0u32))
        .unwrap()
        .take(8)
        .map(|v| v.to_string())
        .collect();
    assert_eq!(
        texts,
        [
            "(assert true)",
            "(assert (not true))",
            "(assert (not (not true)))",
            "(assert (and true true))",
            "(assert (<= 0 0))",
            "(assert (<= 0 1))",
            "(assert (<= 1 0))",
            "(assert (<= 1 1))",
        ]
    );
    let v = e.get(&BigUint::from(3u32)).unwrap();
    assert_eq!(
        v,
        Assert(Bool::And {
            left: Box::new(Bool::True),
            right: Box::new(Bool::True)
        })
    );
}

#[test]
fn index_rank_and_engine_text_agree() {
    let mut e = TypedEnumeration::<Bool>::new();
    let below = e.count_below(9);
    let values: Vec<Bool> = e
        .iter_from(&BigUint::from(0u32))
        .unwrap()
        .take(usize::try_from(&below).unwrap())
        .collect();
    for (i, value) in values.iter().enumerate() {
        let index = BigUint::from(i);
        assert_eq!(&e.get(&index).unwrap(), value);
        assert_eq!(e.rank(value), index);
        let engine = e.engine();
        let term = engine.term(&index).unwrap();
        assert_eq!(engine.text(&term), value.to_string());
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..100 {
        let v = e.sample(40, &mut rng).unwrap();
        assert_eq!(v.to_term().size, 40);
        let rank = e.rank(&v);
        assert_eq!(e.get(&rank).unwrap(), v);
    }
}

#[test]
fn the_int_inside_a_bool_is_numbered_by_the_bool() {
    // `Int` is rule 0 of its own grammar and rule 1 of `Bool`'s.
    let le = Bool::Le(Int::One, Int::Neg(Box::new(Int::Zero)));
    let term = le.to_term();
    assert_eq!(term.children[1].nt, 1);
    assert_eq!(Int::One.to_term().nt, 0);
    assert_eq!(Bool::from_term(&term), le);
}

#[derive(Enumerable, Debug)]
enum Loop {
    Stop,
    #[enumerable(cost = 0)]
    Again(Box<Loop>),
}

#[test]
#[should_panic(expected = "zero-cost cycle")]
fn a_free_recursive_constructor_is_refused() {
    TypedEnumeration::<Loop>::new();
}

#[test]
fn a_free_recursive_constructor_is_a_typed_error() {
    let err = et_core::typed::grammar_of::<Loop>().unwrap_err();
    assert!(
        matches!(
            err,
            et_core::typed::AdtError::NotEnumerable {
                type_name: "Loop",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("zero-cost cycle"), "{err}");
}
