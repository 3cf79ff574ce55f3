//! Real models printed by z3 4.8.5/4.8.7/4.8.12/4.16.0, cvc5 1.0.3/1.4.2, cvc4 1.8 and
//! yices 2.6.5 (both formats), captured by `tests/fixtures/models/capture.sh`: every
//! `sat` model parses, and the formula it answers evaluates true under it — or
//! undetermined where the model holds inexact values (cvc4's witness terms, yices'
//! rounded decimals); z3's `root-obj` and cvc5's algebraic numbers are decided. Each
//! output is read in the dialect its solver's family gives for its release (here,
//! since which solver writes which dialect is et-core's knowledge of families).

use std::path::Path;

use et_core::solvers::family;
use et_eval::{evaluate, parse_model, Limits, ModelDialect, Script, Truth};

#[test]
fn every_captured_model_satisfies_its_formula() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../et-eval/tests/fixtures/models");
    let (mut valid, mut undetermined) = (0, 0);
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    for case in cases {
        let script =
            Script::parse(&std::fs::read_to_string(case.join("formula.smt2")).unwrap()).unwrap();
        let mut outputs: Vec<_> = std::fs::read_dir(&case)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "out"))
            .collect();
        outputs.sort();
        for output in outputs {
            let text = std::fs::read_to_string(&output).unwrap();
            let solver = output.file_stem().unwrap().to_str().unwrap();
            let where_ = format!("{}/{solver}", case.file_name().unwrap().to_str().unwrap());
            // Rejected formulas and non-sat answers have no model to check.
            if text.contains("(error") || !text.starts_with("sat") {
                assert!(
                    parse_model(&text, ModelDialect::default()).is_err(),
                    "{where_}: no model expected"
                );
                continue;
            }
            let mut parts = solver.split('-');
            let (family, version) = (parts.next().unwrap(), parts.next().unwrap());
            let dialect = family::find(family)
                .unwrap_or_else(|| panic!("{where_}: unknown family {family}"))
                .model_dialect(version);
            let model = parse_model(&text, dialect).unwrap_or_else(|e| panic!("{where_}: {e}"));
            let evaluation = evaluate(&script, &model.assignment(&script), &Limits::default());
            match evaluation.truth {
                Truth::True => valid += 1,
                Truth::Undetermined(why) => {
                    assert!(
                        where_.starts_with("reals-algebraic"),
                        "{where_}: undetermined ({why})"
                    );
                    undetermined += 1;
                }
                Truth::False => panic!(
                    "{where_}: the model falsifies the formula: {:?}",
                    evaluation.explanation
                ),
            }
        }
    }
    assert!(valid >= 80, "only {valid} valid models");
    assert_eq!(
        undetermined, 3,
        "inexact algebraic models of cvc4 (1) and yices (2)"
    );
}
