//! et-eval benchmarks (release build, no harness): `cargo bench --bench eval`.
//!
//! Over the first N formulas of every built-in grammar (N = 100,000, or the first
//! argument; other arguments pick grammars), per formula on average:
//! - *model check*: read the formula (from the enumeration's text) and evaluate it
//!   under a model (a fixed small assignment, as a solver's model would give);
//! - *witness search*: the default bounded search (parse included).

use std::hint::black_box;
use std::time::Instant;

use num_bigint::BigUint;

use et_core::builtins;
use et_core::enumeration::Enumeration;
use et_eval::{evaluate, find_witness, Assignment, Limits, Script, WitnessBound};

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100_000);
    println!(
        "{:<10} {:>9} {:>14} {:>16} {:>10}",
        "grammar", "formulas", "model check", "witness search", "witnesses"
    );
    let picked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a.parse::<usize>().is_err() && !a.starts_with('-'))
        .collect();
    for name in [
        "core",
        "ints",
        "reals",
        "realints",
        "bitvectors",
        "arrays",
        "fp",
        "strings",
    ] {
        if !picked.is_empty() && !picked.iter().any(|p| p == name) {
            continue;
        }
        let mut e = Enumeration::new(builtins::load(name).expect("built-in grammar"));
        let mut stream = e.stream_from(&BigUint::from(0u32)).expect("index 0");
        let mut texts = Vec::with_capacity(n);
        while texts.len() < n {
            texts.push(String::from_utf8(stream.current_text().to_vec()).expect("UTF-8"));
            if !stream.advance() {
                break;
            }
        }
        // The model: the second value of each sort's witness list (e.g. Int 1, Real 1).
        let first = Script::parse(&texts[0]).expect("readable formula");
        let model: Vec<et_eval::Value> = first
            .decls
            .iter()
            .map(|d| {
                let probe = Script {
                    decls: vec![d.clone()],
                    assertions: Vec::new(),
                };
                find_witness(
                    &probe,
                    &WitnessBound {
                        values_per_constant: 2,
                        max_assignments: 1,
                    },
                )
                .map(|w| w.values[0].clone())
                .expect("a value of every sort")
            })
            .collect();
        let assignment = Assignment::of_values(model);
        let limits = Limits::default();
        let t = Instant::now();
        for text in &texts {
            let script = Script::parse(text).expect("readable formula");
            black_box(evaluate(&script, &assignment, &limits));
        }
        let check = t.elapsed() / texts.len() as u32;
        let t = Instant::now();
        let mut found = 0;
        for text in &texts {
            let script = Script::parse(text).expect("readable formula");
            found += usize::from(find_witness(&script, &WitnessBound::default()).is_some());
        }
        let witness = t.elapsed() / texts.len() as u32;
        println!(
            "{name:<10} {:>9} {:>11.1} µs {:>13.1} µs {:>9.1}%",
            texts.len(),
            check.as_secs_f64() * 1e6,
            witness.as_secs_f64() * 1e6,
            100.0 * found as f64 / texts.len() as f64
        );
    }
}
