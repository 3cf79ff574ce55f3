//! Compiled and interpreted enumeration of every built-in grammar agree (issue 3): the
//! engine on the grammar `#[derive(Grammar)]` compiled into the binary and the engine on
//! the same `.pest` text read at run time give the same formulas, index for index, and
//! the generated types convert, print and rank exactly as the engine does.

use std::fmt::Display;

use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;

use et_core::builtins::{self, Builtin, BUILTINS};
use et_core::enumeration::Enumeration;
use et_core::typed::{DerivedGrammar, Enumerable, TypedEnumeration};

const STREAMED: usize = 100_000;
/// Streamed formulas that also go through the generated types (slower in debug builds).
const TYPED: usize = 10_000;
const RANDOM: usize = 1_000;

fn both(b: &Builtin) -> (Enumeration, Enumeration) {
    (
        Enumeration::new(b.grammar()),
        Enumeration::new(b.interpreted().unwrap()),
    )
}

#[test]
fn compiled_grammars_are_the_interpreted_ones() {
    for b in BUILTINS {
        let (compiled, interpreted) = (b.grammar(), b.interpreted().unwrap());
        assert_eq!(compiled.tokens, interpreted.tokens, "{}", b.name);
        assert_eq!(compiled.start, interpreted.start, "{}", b.name);
        assert_eq!(compiled.doc, interpreted.doc, "{}", b.name);
        assert_eq!(compiled.nonterminals.len(), interpreted.nonterminals.len());
        for (c, i) in compiled.nonterminals.iter().zip(&interpreted.nonterminals) {
            assert_eq!(
                (&c.name, c.position, c.generated_in, &c.alternatives),
                (&i.name, i.position, i.generated_in, &i.alternatives),
                "{}",
                b.name
            );
        }
    }
}

#[test]
fn first_100000_formulas_agree() {
    for b in BUILTINS {
        let (mut compiled, mut interpreted) = both(b);
        let zero = BigUint::from(0u32);
        let mut c = compiled.stream_from(&zero).unwrap();
        let mut i = interpreted.stream_from(&zero).unwrap();
        for n in 0..STREAMED {
            assert_eq!(c.current_text(), i.current_text(), "{} formula {n}", b.name);
            assert!(c.advance() && i.advance(), "{} ends early", b.name);
        }
    }
}

/// Index → value → text and value → rank through the generated types of one grammar,
/// against the interpreted engine.
fn typed_agrees<G: DerivedGrammar>(name: &str)
where
    G::Start: Display,
{
    let b = Builtin::find(name).unwrap();
    let mut interpreted = Enumeration::new(b.interpreted().unwrap());
    let mut typed = TypedEnumeration::<G::Start>::new();

    let zero = BigUint::from(0u32);
    let values = typed.iter_from(&zero).unwrap().take(TYPED);
    let mut texts = interpreted.stream_from(&zero).unwrap();
    for (n, value) in values.enumerate() {
        assert_eq!(
            value.to_string().as_bytes(),
            texts.current_text(),
            "{name} formula {n}"
        );
        texts.advance();
    }

    let bound = BigUint::from(10u32).pow(300);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..RANDOM {
        let index = rng.gen_biguint_below(&bound);
        let value = typed.get(&index).unwrap();
        let term = interpreted.term(&index).unwrap();
        assert_eq!(value.to_string(), interpreted.text(&term), "{name} {index}");
        assert_eq!(value.to_term(), term, "{name} {index}");
        assert_eq!(typed.rank(&value), index, "{name} rank of {index}");
    }
}

#[test]
fn typed_values_agree_at_the_start_and_at_1000_random_indices_up_to_1e300() {
    typed_agrees::<builtins::Core>("core");
    typed_agrees::<builtins::Ints>("ints");
    typed_agrees::<builtins::Reals>("reals");
    typed_agrees::<builtins::Realints>("realints");
    typed_agrees::<builtins::Bitvectors>("bitvectors");
    typed_agrees::<builtins::Arrays>("arrays");
    typed_agrees::<builtins::Fp>("fp");
    typed_agrees::<builtins::Strings>("strings");
}

#[test]
fn random_indices_up_to_1e300_agree() {
    let bound = BigUint::from(10u32).pow(300);
    for b in BUILTINS {
        let (mut compiled, mut interpreted) = both(b);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
        for _ in 0..RANDOM {
            let index = rng.gen_biguint_below(&bound);
            let c = compiled.term(&index).unwrap();
            let i = interpreted.term(&index).unwrap();
            assert_eq!(
                compiled.text(&c),
                interpreted.text(&i),
                "{} {index}",
                b.name
            );
            assert_eq!(c, i, "{} {index}", b.name);
        }
    }
}

#[test]
fn variant_names_read_as_operators() {
    use et_core::builtins::{fp, ints, realints, strings};
    let not = strings::BoolTerm::Not(Box::new(strings::BoolTerm::EqStr(
        strings::StrTerm::StrEmpty,
        strings::StrTerm::A,
    )));
    assert_eq!(not.to_string(), r#"(not (= "" a))"#);
    let replace = strings::StrTerm::StrReplaceAll(
        Box::new(strings::StrTerm::StrA),
        Box::new(strings::StrTerm::B),
        Box::new(strings::StrTerm::StrConcat(
            Box::new(strings::StrTerm::A),
            Box::new(strings::StrTerm::A),
        )),
    );
    assert_eq!(
        replace.to_string(),
        r#"(str.replace_all "a" b (str.++ a a))"#
    );
    let star = strings::RegexTerm::ReStar(strings::RegexConst::ReAllchar);
    assert_eq!(star.to_string(), "(re.* re.allchar)");
    let round = fp::FpTerm::FpRoundToIntegral(fp::Rm::RNE, Box::new(fp::FpTerm::A));
    assert_eq!(round.to_string(), "(fp.roundToIntegral RNE a)");
    let le = realints::BoolTerm::LeInt(realints::IntTerm::Lit0, realints::IntTerm::Lit1);
    assert_eq!(le.to_string(), "(<= 0 1)");
    let neg = ints::IntTerm::Neg(Box::new(ints::IntTerm::Sub(
        Box::new(ints::IntTerm::A),
        Box::new(ints::IntTerm::B),
    )));
    assert_eq!(neg.to_string(), "(- (- a b))");
}
