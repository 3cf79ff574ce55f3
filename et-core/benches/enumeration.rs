//! Enumeration benchmarks (release build, no harness): `cargo bench --bench enumeration`.
//!
//! Prints one line per figure. The figures the README quotes come from here and from
//! `scripts/bench-enumerate.sh` (whole-binary streaming and peak memory).

use std::hint::black_box;
use std::time::{Duration, Instant};

use num_bigint::{BigUint, RandBigInt};
use rand::SeedableRng;

use et_core::builtins::{self, Builtin};
use et_core::enumeration::Enumeration;
use et_core::typed::TypedEnumeration;

/// A built-in grammar as the binary has it: compiled by `#[derive(Grammar)]`.
fn enumeration(name: &str) -> Enumeration {
    Enumeration::new(builtins::load(name).expect("built-in grammar"))
}

/// The same grammar read from its `.pest` text at run time, as `--grammar x.pest` is.
fn interpreted(name: &str) -> Enumeration {
    let builtin = Builtin::find(name).expect("built-in grammar");
    Enumeration::new(builtin.interpreted().expect("valid grammar"))
}

/// Best of `runs` timings of `f`.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed()
        })
        .min()
        .expect("runs > 0")
}

fn stream(e: &mut Enumeration, n: usize) -> Duration {
    best(1, || {
        let mut s = e.stream_from(&BigUint::from(0u32)).unwrap();
        let mut buf = Vec::with_capacity(1 << 17);
        let mut bytes = 0;
        for _ in 0..n {
            s.print_current(&mut buf);
            buf.push(b'\n');
            if buf.len() > 1 << 16 {
                bytes += buf.len();
                buf.clear();
            }
            s.advance();
        }
        bytes + buf.len()
    })
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks figures by substring.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));

    for grammar in ["strings", "core", "fp"] {
        // Compiled (the built-in as the binary has it) and interpreted (the same
        // `.pest` text read at run time): same engine, so they should tie.
        // Runs alternate between the two so that load from other processes hits both.
        let mut paths = vec![
            ("compiled", enumeration(grammar), Duration::MAX),
            ("interpreted", interpreted(grammar), Duration::MAX),
        ];
        paths.retain(|(path, _, _)| wanted(&format!("stream_1e6_{grammar}_{path}")));
        for _ in 0..7 {
            for (_, e, t) in paths.iter_mut() {
                *t = (*t).min(stream(e, 1_000_000));
            }
        }
        for (path, _, t) in &paths {
            println!(
                "{:<36} {:>10.3} s  ({:.0} ns/formula, best of 7)",
                format!("stream_1e6_{grammar}_{path}"),
                t.as_secs_f64(),
                t.as_nanos() as f64 / 1e6
            );
        }
    }

    if wanted("typed_1e6_strings") {
        // The generated types: each formula converted to a `strings::Start` value and
        // printed through `Display` (not what `et enumerate` does; for library users).
        let mut e = TypedEnumeration::<builtins::strings::Start>::new();
        let t = best(3, || {
            let mut out = String::with_capacity(1 << 17);
            let mut bytes = 0;
            for v in e.iter_from(&BigUint::from(0u32)).unwrap().take(1_000_000) {
                use std::fmt::Write;
                writeln!(out, "{v}").unwrap();
                if out.len() > 1 << 16 {
                    bytes += out.len();
                    out.clear();
                }
            }
            bytes + out.len()
        });
        println!(
            "{:<36} {:>10.3} s  ({:.0} ns/formula)",
            "typed_1e6_strings",
            t.as_secs_f64(),
            t.as_nanos() as f64 / 1e6
        );
    }

    if wanted("index_1e1000") {
        let mut e = enumeration("strings");
        let base = BigUint::from(10u32).pow(1000);
        let cold = best(1, || e.term(&base).unwrap());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let indices: Vec<BigUint> = (0..200)
            .map(|_| &base + rng.gen_biguint_below(&base))
            .collect();
        let t = Instant::now();
        for i in &indices {
            black_box(e.term(i).unwrap());
        }
        let warm = t.elapsed() / indices.len() as u32;
        println!("index_1e1000_strings_cold     {:>10.3} ms  (first call: cardinalities up to size ~470)", cold.as_secs_f64() * 1e3);
        println!("index_1e1000_strings_warm     {:>10.3} ms  per index (mean of 200 random indices in [10^1000, 2·10^1000))", warm.as_secs_f64() * 1e3);
    }

    if wanted("rank_1e300") {
        let mut e = enumeration("strings");
        let i = BigUint::from(10u32).pow(300);
        let term = e.term(&i).unwrap();
        let t = best(20, || e.rank(&term));
        println!(
            "rank_1e300_strings            {:>10.3} ms",
            t.as_secs_f64() * 1e3
        );
    }
}
