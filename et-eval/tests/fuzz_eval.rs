//! Fuzzing the model parser and the evaluator: mutated real solver outputs and mutated
//! formulas (operators swapped, literals replaced, text cut) never panic; every failure
//! is an error or an undetermined result.

use std::path::Path;

use et_eval::{evaluate, find_witness, parse_model, Limits, ModelDialect, Script, WitnessBound};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const OPS: &[&str] = &[
    "not",
    "and",
    "or",
    "xor",
    "=",
    "distinct",
    "ite",
    "-",
    "+",
    "*",
    "/",
    "div",
    "mod",
    "abs",
    "<",
    ">=",
    "to_real",
    "to_int",
    "is_int",
    "sin",
    "cos",
    "tan",
    "bvudiv",
    "bvurem",
    "bvshl",
    "bvneg",
    "bv2nat",
    "select",
    "store",
    "fp.add",
    "fp.min",
    "fp.max",
    "fp.rem",
    "fp.isNaN",
    "str.++",
    "str.at",
    "str.substr",
    "str.indexof",
    "str.in_re",
    "re.comp",
    "re.range",
    "re.*",
    "str.to_int",
];
const ATOMS: &[&str] = &[
    "0",
    "1",
    "(- 7)",
    "0.0",
    "2.5",
    "(/ 1.0 3.0)",
    "#x0000000000000000",
    "#xffffffffffffffff",
    "\"\"",
    "\"a\"",
    "RNE",
    "(_ NaN 11 53)",
    "(_ -zero 11 53)",
    "a",
    "b",
    "true",
    "re.all",
    "(_ bv5 64)",
    "99999999999999999999999",
];

fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut tokens: Vec<String> = text
        .replace('(', " ( ")
        .replace(')', " ) ")
        .split_whitespace()
        .map(String::from)
        .collect();
    for _ in 0..rng.gen_range(1..4) {
        if tokens.is_empty() {
            break;
        }
        let i = rng.gen_range(0..tokens.len());
        match rng.gen_range(0..6) {
            0 => tokens[i] = OPS[rng.gen_range(0..OPS.len())].into(),
            1 => tokens[i] = ATOMS[rng.gen_range(0..ATOMS.len())].into(),
            2 => {
                tokens.remove(i);
            }
            3 => tokens.insert(
                i,
                ["(", ")", "|x|", "#b", "\"\\u{", ";"][rng.gen_range(0..6)].into(),
            ),
            4 => tokens.truncate(i),
            _ => {
                let j = rng.gen_range(0..tokens.len());
                tokens.swap(i, j);
            }
        }
    }
    tokens.join(" ")
}

#[test]
fn mutated_models_and_formulas_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/models");
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut cases = Vec::new();
    for case in std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
    {
        let formula = std::fs::read_to_string(case.join("formula.smt2")).unwrap();
        for out in std::fs::read_dir(&case)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "out"))
        {
            cases.push((formula.clone(), std::fs::read_to_string(out).unwrap()));
        }
    }
    cases.sort();
    let (mut parsed_models, mut parsed_formulas) = (0, 0);
    for round in 0..3000 {
        let (formula, output) = &cases[round % cases.len()];
        let formula_text = if rng.gen_bool(0.5) {
            mutate(formula, &mut rng)
        } else {
            formula.clone()
        };
        let output_text = if rng.gen_bool(0.7) {
            mutate(output, &mut rng)
        } else {
            output.clone()
        };
        let dialect = if rng.gen_bool(0.5) {
            ModelDialect::default()
        } else {
            // The other readings a solver's output may need: z3's legacy string
            // escapes, yices' approximate decimals.
            ModelDialect {
                strings: if round % 2 == 0 {
                    et_eval::string::Dialect::Z3Legacy
                } else {
                    et_eval::string::Dialect::Smtlib26
                },
                approximate_decimals: round % 3 == 0,
            }
        };
        let model = parse_model(&output_text, dialect);
        parsed_models += usize::from(model.is_ok());
        let Ok(script) = Script::parse(&formula_text) else {
            continue;
        };
        parsed_formulas += 1;
        if let Ok(model) = model {
            let _ = evaluate(&script, &model.assignment(&script), &Limits::default());
        }
        if round % 10 == 0 {
            let bound = WitnessBound {
                values_per_constant: 4,
                max_assignments: 16,
            };
            if let Some(w) = find_witness(&script, &bound) {
                assert_eq!(w.evaluation.truth, et_eval::Truth::True);
            }
        }
    }
    // The mutations leave enough intact to reach the evaluator.
    assert!(
        parsed_models > 300 && parsed_formulas > 1000,
        "{parsed_models} models, {parsed_formulas} formulas parsed"
    );
}
