//! A user's own grammars keep et's oracle: on an 8-bit bit-vector grammar with the
//! indexed operators and a Float32 grammar with to_fp/fp.to_real (fixtures), `et run`
//! with z3 4.16.0 and cvc5 1.4.2 on the first 300 formulas checks at least 98% of each
//! solver's `sat` models (model_check valid or invalid), and no model is judged
//! invalid (both solvers are right on these). What et's evaluator does not know says
//! so: `model_check` is `unsupported`, never empty.

mod common;

use common::{rows, show, solver, Scratch};

fn checked_share(grammar: &str) {
    let scratch = Scratch::new();
    let pool = scratch.pool_file("pool.toml", &[solver("z3-4.16.0"), solver("cvc5-1.4.2")]);
    let grammar = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/grammars")
        .join(grammar);
    let out = scratch.join("run");
    let o = scratch.run(&[
        "run",
        "-g",
        grammar.to_str().unwrap(),
        "--n",
        "300",
        "--pool",
        pool.to_str().unwrap(),
        "--timeout",
        "20",
        "--no-witness",
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let rows = rows(&out);
    for name in ["z3-4.16.0", "cvc5-1.4.2"] {
        let sat: Vec<_> = rows
            .iter()
            .filter(|r| r.solver == name && r.status.label() == "sat")
            .collect();
        let checked = sat
            .iter()
            .filter(|r| r.model_check == "valid" || r.model_check == "invalid")
            .count();
        let invalid: Vec<_> = sat.iter().filter(|r| r.model_check == "invalid").collect();
        eprintln!(
            "{}: {name}: {checked} of {} sat models checked, {} invalid",
            grammar.display(),
            sat.len(),
            invalid.len()
        );
        assert!(sat.len() >= 30, "{name}: only {} sat answers", sat.len());
        assert!(
            checked * 100 >= sat.len() * 98,
            "{name}: {checked} of {} sat models checked; others: {:?}",
            sat.len(),
            sat.iter()
                .filter(|r| r.model_check != "valid" && r.model_check != "invalid")
                .take(5)
                .map(|r| (&r.index, &r.model_check))
                .collect::<Vec<_>>()
        );
        assert!(invalid.is_empty(), "{name}: invalid models {invalid:?}");
    }
    assert!(scratch.tmp_leftovers().is_empty());
}

#[test]
fn eight_bit_vectors_with_indexed_operators_are_checked() {
    checked_share("bv8_indexed.pest");
}

#[test]
fn float32_with_conversions_is_checked() {
    checked_share("float32_conversions.pest");
}

#[test]
fn what_the_evaluator_lacks_is_reported_unsupported() {
    let scratch = Scratch::new();
    let pool = scratch.pool_file("pool.toml", &[solver("z3-4.16.0")]);
    let grammar = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/grammars/uninterpreted_sort.pest");
    let out = scratch.join("run");
    let o = scratch.run(&[
        "run",
        "-g",
        grammar.to_str().unwrap(),
        "--n",
        "2",
        "--pool",
        pool.to_str().unwrap(),
        "--timeout",
        "20",
        "--no-witness",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let rows = rows(&out);
    assert_eq!(rows.len(), 2, "{rows:?}");
    for r in &rows {
        assert_eq!(r.status.label(), "sat", "{r:?}");
        assert_eq!(r.model_check, "unsupported", "{r:?}");
    }
    // The summary and `et report` count them, per solver.
    assert!(
        common::stdout(&o).contains(
            "could not judge (model_check unsupported, undetermined or empty): z3-4.16.0 2"
        ),
        "{}",
        show(&o)
    );
    let tables = scratch.join("tables");
    let o = scratch.run(&[
        "report",
        out.to_str().unwrap(),
        "--csv",
        tables.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", show(&o));
    let unchecked = common::csv_maps(&tables.join("unchecked.csv"));
    assert_eq!(unchecked.len(), 1, "{unchecked:?}");
    assert_eq!(
        (
            unchecked[0]["sat"].as_str(),
            unchecked[0]["unchecked_sat"].as_str()
        ),
        ("2", "2")
    );
}
