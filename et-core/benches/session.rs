//! Calls per second of one process per formula (`run_call`, the formula in a file, as
//! `et run` does today) against one session per solver (`Session::call`), on the first
//! formulas of core, ints and strings, with the newest z3 and cvc5 of the test pool
//! (cvc5 through this build's `et-cvc5` runner over the pool's libraries), models asked
//! for as a campaign asks. Also prints how the peak memory of a formula grows with the
//! formulas a session has answered (no restart during the measurement), which is what
//! `DEFAULT_RESTART_AFTER` is chosen by, and how many answers (oracle status) differ.
//!
//! Then the floor no driver can go below: the solvers alone, no et between the
//! formulas, two at a time as `et run --jobs 2` runs them. Each of two threads takes
//! every other formula and pipes them, as one batch, to one process of z3 and then one
//! of cvc5 (the session command; the family's reset between formulas; the model request
//! only where the answer was `sat`, as a session asks) and waits for it to end. The
//! wall time until both threads are done is what the solvers themselves need for the
//! formulas on this machine; `et run --mode session` can approach it, not beat it. A
//! formula a solver timed out on is counted at the limit (10 s) instead of batched.
//!
//! Run: `scripts/bench-session.sh [FORMULAS]` or
//! `cargo bench -p et-core --bench session [-- FORMULAS]` (default 300).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use et_core::enumeration::Enumeration;
use et_core::oracle::{classify, Status};
use et_core::solvers::call::{run_call, Input, Limits};
use et_core::solvers::install::{find_cvc5_runner, session_of};
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
    let mut statuses: HashMap<(String, &str), Vec<Status>> = HashMap::new();
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
            for s in &scripts {
                let o = session.call(s, &limits).unwrap();
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
            statuses.insert((solver.name.clone(), grammar), seen);
        }
    }
    println!();
    println!("the solvers alone, 2 at a time (each of two threads: every other formula, z3 then cvc5, one batch each)");
    println!("{:<8} {:>10} {:>16}", "grammar", "wall_s", "ms per formula");
    for grammar in ["core", "ints", "strings"] {
        let (texts, logic) = formulas(grammar, count);
        // A formula a solver timed out on in the session pass is left out of its
        // batch (the batch has no limit) and counted at the limit.
        let timed_out = |solver: &SolverConfig, i: usize| {
            statuses[&(solver.name.clone(), grammar)][i] == Status::Timeout
        };
        let halves: Vec<(Vec<Batch>, Duration)> = (0..2)
            .map(|half| {
                let mut limit_time = Duration::ZERO;
                let batches = [&z3, &cvc5]
                    .into_iter()
                    .map(|solver| {
                        let seen = &statuses[&(solver.name.clone(), grammar)];
                        let (picked, slow): (Vec<usize>, Vec<usize>) = (half..texts.len())
                            .step_by(2)
                            .partition(|&i| !timed_out(solver, i));
                        limit_time += limits.timeout * slow.len() as u32;
                        batch(solver, &texts, logic.as_deref(), seen, &picked)
                    })
                    .collect();
                (batches, limit_time)
            })
            .collect();
        let wall = std::thread::scope(|scope| {
            let threads: Vec<_> = halves
                .iter()
                .map(|(batches, limit_time)| {
                    scope.spawn(move || {
                        let t = Instant::now();
                        for (command, input) in batches {
                            run_batch(command, input);
                        }
                        t.elapsed() + *limit_time
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().unwrap())
                .max()
                .unwrap()
        })
        .as_secs_f64();
        println!(
            "{:<8} {:>10.2} {:>16.3}",
            grammar,
            wall,
            1000.0 * wall / texts.len() as f64
        );
    }
    println!("load average after: {}", load());
}

/// A command line and the input piped to it.
type Batch = (Vec<String>, String);

/// The session command of `solver` (models asked for) and the input a session would
/// send it for the formulas `picked`, without et's echo lines: the family's reset
/// between formulas, and for a solver that ends on an error the model request only
/// where `seen` (its answers in the session pass) says `sat` — none at all where the
/// solver prints each model by itself.
fn batch(
    solver: &SolverConfig,
    texts: &[String],
    logic: Option<&str>,
    seen: &[Status],
    picked: &[usize],
) -> Batch {
    let command = solver
        .command_with_models()
        .unwrap_or_else(|| solver.command.clone());
    let protocol = session_of(solver).expect("the family runs sessions");
    let request = solver.family_info().model_request();
    let mut input = String::new();
    for (k, &i) in picked.iter().enumerate() {
        if k > 0 {
            input.push_str(&protocol.between_formulas(&command));
        }
        let s = script(solver, &texts[i], logic);
        let body = s.trim_end();
        let last = body.rsplit('\n').next().unwrap_or_default().trim();
        let asked_apart = protocol.ends_on_error && seen[i] != Status::Sat;
        if last == request && (protocol.dumps_models(&command) || asked_apart) {
            input.push_str(&body[..body.len() - last.len()]);
        } else {
            input.push_str(body);
        }
        input.push('\n');
    }
    (protocol.command(&command), input)
}

/// Runs `command` on `input` to its end (stdout read and dropped meanwhile).
fn run_batch(command: &[String], input: &str) {
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the solver starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut sink = Vec::new();
        stdout.read_to_end(&mut sink).unwrap();
    });
    let mut stdin = child.stdin.take().unwrap();
    // A solver that stops reading early (it ended) closes the pipe: not this bench's
    // concern, the session pass above has compared the answers.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    reader.join().unwrap();
    child.wait().unwrap();
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}
