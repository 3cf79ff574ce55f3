//! Calls per second of one process per formula (`run_call`, the formula in a file, as
//! `et run` does today) against one session per solver (`Session::call`), on the first
//! formulas of core, ints and strings, with the newest z3 and cvc5 of the test pool
//! (cvc5 through this build's `et-cvc5` runner over the pool's libraries), models asked
//! for as a campaign asks. Also prints how the peak memory of a formula grows with the
//! formulas a session has answered (no restart during the measurement), which is what
//! `DEFAULT_RESTART_AFTER` is chosen by, and how many answers (oracle status) differ.
//!
//! The session pass writes each formula ahead of its call, as a campaign's worker does
//! ([`Session::call_then`]). What the solvers alone need for the same formulas, and a
//! whole campaign's distance to it, is `scripts/bench-floor.sh`'s to measure.
//!
//! Run: `scripts/bench-session.sh [FORMULAS]` or
//! `cargo bench -p et-core --bench session [-- FORMULAS]` (default 300).

use std::path::Path;
use std::time::{Duration, Instant};

use et_core::enumeration::Enumeration;
use et_core::oracle::classify;
use et_core::solvers::call::{run_call, Input, Limits};
use et_core::solvers::install::find_cvc5_runner;
use et_core::solvers::session::Session;
use et_core::solvers::testing::test_pool;
use et_core::solvers::SolverConfig;

fn formulas(grammar: &str, count: usize) -> (Vec<String>, Option<String>) {
    let g = et_core::builtins::load(grammar).unwrap();
    let logic = et_core::builtins::declared_logic(&g)
        .unwrap()
        .map(str::to_string);
    let mut e = Enumeration::new(g);
    let mut stream = e.stream_from(&0u32.into()).unwrap();
    let mut out = Vec::new();
    loop {
        out.push(String::from_utf8(stream.current_text().to_vec()).unwrap());
        if out.len() == count || !stream.advance() {
            return (out, logic);
        }
    }
}

/// The script `et run` gives `solver` for `formula` (prelude, formula, model request).
fn script(solver: &SolverConfig, formula: &str, logic: Option<&str>) -> String {
    et_core::judging::Invocation::new(solver, formula, logic).script
}

fn main() {
    let count: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(300);
    let pool = test_pool();
    let z3 = pool.newest("z3").expect("a z3 in the test pool").clone();
    let mut cvc5 = pool
        .newest("cvc5")
        .expect("a cvc5 in the test pool")
        .clone();
    // The pool's copy of the runner may predate its streaming mode: use this build's.
    let runner = find_cvc5_runner().expect("build et-cvc5 (cargo build --release)");
    let lib = Path::new(cvc5.program())
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("lib");
    cvc5.command[0] = runner.display().to_string();
    cvc5.command
        .insert(1, format!("--et-lib-dir={}", lib.display()));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("formula.smt2");
    let limits = Limits::with_timeout(Duration::from_secs(10));
    println!("{count} formulas per row; load average before: {}", load());
    println!(
        "{:<12} {:<8} {:>11} {:>11} {:>8} {:>9} {:>22}",
        "solver", "grammar", "fresh/s", "session/s", "speed-up", "differ", "peak KiB 1st/mid/last"
    );
    for solver in [&z3, &cvc5] {
        let command = solver
            .command_with_models()
            .unwrap_or_else(|| solver.command.clone());
        for grammar in ["core", "ints", "strings"] {
            let (texts, logic) = formulas(grammar, count);
            let scripts: Vec<String> = texts
                .iter()
                .map(|t| script(solver, t, logic.as_deref()))
                .collect();
            let t = Instant::now();
            let mut fresh = Vec::new();
            for s in &scripts {
                std::fs::write(&file, s).unwrap();
                fresh.push(
                    classify(&run_call(&command, Input::File(&file), &limits).unwrap()).status,
                );
            }
            let fresh_time = t.elapsed();
            let mut session = Session::for_solver(solver, &command)
                .expect("the family runs sessions")
                .restart_after(usize::MAX);
            let t = Instant::now();
            let mut seen = Vec::new();
            let mut peaks = Vec::new();
            for (i, s) in scripts.iter().enumerate() {
                let next = scripts.get(i + 1).map(String::as_str);
                let o = session.call_then(s, next, &limits).unwrap();
                peaks.push(o.max_rss_kb);
                seen.push(classify(&o).status);
            }
            let session_time = t.elapsed();
            let differ = fresh.iter().zip(&seen).filter(|(a, b)| a != b).count();
            let rate = |d: Duration| scripts.len() as f64 / d.as_secs_f64();
            println!(
                "{:<12} {:<8} {:>11.1} {:>11.1} {:>7.1}x {:>9} {:>22}",
                solver.name,
                grammar,
                rate(fresh_time),
                rate(session_time),
                fresh_time.as_secs_f64() / session_time.as_secs_f64(),
                differ,
                format!(
                    "{}/{}/{}",
                    peaks[0],
                    peaks[peaks.len() / 2],
                    peaks[peaks.len() - 1]
                ),
            );
            eprintln!("  {:?}", session.stats());
        }
    }
    println!("load average after: {}", load());
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}
