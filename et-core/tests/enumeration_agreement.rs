//! The enumeration contract on every built-in grammar (issue 2): streaming and random
//! access agree, rank inverts index, and part boundaries line up.

use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;

use et_core::builtins::{self, BUILTINS};
use et_core::enumeration::{Enumeration, FormulaParser};

fn enumeration(name: &str) -> Enumeration {
    Enumeration::new(builtins::load(name).unwrap())
}

#[test]
fn index_equals_stream_for_the_first_20000() {
    for b in BUILTINS {
        let mut e = enumeration(b.name);
        let mut streamed: Vec<(et_core::enumeration::Term, Vec<u8>)> = Vec::with_capacity(20_000);
        {
            let mut s = e.stream_from(&BigUint::from(0u32)).unwrap();
            for _ in 0..20_000 {
                streamed.push((s.current().unwrap().clone(), s.current_text().to_vec()));
                assert!(s.advance());
            }
        }
        for (i, (term, text)) in streamed.iter().enumerate() {
            let index = BigUint::from(i);
            let decoded = e.term(&index).unwrap();
            assert_eq!(&decoded, term, "{} index {i}", b.name);
            assert_eq!(
                e.text(&decoded).as_bytes(),
                &text[..],
                "{} index {i}",
                b.name
            );
            assert_eq!(e.rank(term), index, "{} rank of {i}", b.name);
        }
    }
}

#[test]
fn index_equals_stream_at_1000_random_indices_up_to_1e300() {
    let bound = BigUint::from(10u32).pow(300);
    for b in BUILTINS {
        let mut e = enumeration(b.name);
        let grammar = e.grammar().clone();
        let parser = FormulaParser::new(&grammar);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2024);
        for round in 0..1000 {
            let i = rng.gen_biguint_below(&bound);
            let next = e.term(&(&i + 1u32)).unwrap();
            let next_text = e.text(&next);
            let mut s = e.stream_from(&i).unwrap();
            let here = s.current().unwrap().clone();
            assert!(s.advance());
            // The streamed successor of index i is index i + 1.
            assert_eq!(s.current().unwrap(), &next, "{} index {i} + 1", b.name);
            assert_eq!(s.current_text(), next_text.as_bytes());
            // rank(index(i)) == i, also through the text.
            let text = e.text(&here);
            assert_eq!(e.rank(&here), i, "{}", b.name);
            if round % 10 == 0 {
                assert_eq!(e.rank(&parser.parse(&text).unwrap()), i, "{}", b.name);
            }
        }
    }
}

#[test]
fn cumulative_counts_are_part_boundaries() {
    for b in BUILTINS {
        let mut e = enumeration(b.name);
        let first = e.smallest_size();
        for size in first..first + 6 {
            let first_of_next = e.count_below(size + 1);
            let last = e.term(&(&first_of_next - 1u32)).unwrap();
            let next = e.term(&first_of_next).unwrap();
            assert_eq!(last.size, size, "{}", b.name);
            assert_eq!(next.size, size + 1, "{}", b.name);
        }
    }
}

#[test]
fn index_1e1000_decodes_and_ranks() {
    for b in BUILTINS {
        let mut e = enumeration(b.name);
        let i = BigUint::from(10u32).pow(1000);
        let t = e.term(&i).unwrap();
        assert_eq!(e.rank(&t), i, "{}", b.name);
    }
}
