//! Per-call overhead of `solvers::call::run_call`, measured on `/bin/true` against bare
//! process spawns, so that what remains is et's supervision cost (process group,
//! rlimits, pidfd, poll loop, group kill, wait4). Each run_call variant is compared
//! with a std spawn of the same argv (GNU `true` given an argument initialises its
//! locale, which costs more than all of et's supervision).
//!
//! Run: `cargo bench -p et-core --bench call [-- ITERATIONS]` (default 2000).

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use et_core::solvers::call::{run_call, Input, Limits};

/// Runs every variant once per round, `iterations` rounds, so that a change in machine
/// load hits all variants alike; prints mean, median, p99 and min of each, and returns
/// the medians.
/// A labelled way of running `/bin/true` once.
type Variant<'a> = (&'a str, Box<dyn FnMut() + 'a>);

fn measure(iterations: usize, variants: &mut [Variant<'_>]) -> Vec<Duration> {
    for _ in 0..iterations / 10 {
        for (_, f) in variants.iter_mut() {
            f(); // warm-up
        }
    }
    let mut times = vec![Vec::with_capacity(iterations); variants.len()];
    for _ in 0..iterations {
        for (i, (_, f)) in variants.iter_mut().enumerate() {
            let t = Instant::now();
            f();
            times[i].push(t.elapsed());
        }
    }
    let mut medians = Vec::new();
    for ((label, _), times) in variants.iter().zip(&mut times) {
        times.sort();
        let mean = times.iter().sum::<Duration>() / iterations as u32;
        let pct = |p: f64| times[((iterations as f64 - 1.0) * p) as usize];
        println!(
            "{label:<50} mean {:>7.1} µs  median {:>7.1} µs  p99 {:>8.1} µs  min {:>7.1} µs",
            us(mean),
            us(pct(0.5)),
            us(pct(0.99)),
            us(times[0]),
        );
        let slow = times
            .iter()
            .filter(|t| **t > Duration::from_millis(8))
            .count();
        println!("{:<50} {slow} calls over 8 ms", "");
        medians.push(pct(0.5));
    }
    medians
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let iterations: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(2000);
    println!("{iterations} calls each, /bin/true\n");

    let command = vec!["/bin/true".to_string()];
    let limits = Limits::with_timeout(Duration::from_secs(10));
    let limited = Limits {
        memory_mb: Some(4096),
        ..limits.clone()
    };
    let path = std::env::temp_dir().join(format!("et-bench-call-{}.smt2", std::process::id()));
    std::fs::write(&path, "(check-sat)\n").unwrap();
    let m = measure(
        iterations,
        &mut [
            (
                "std Command::status (posix_spawn)",
                Box::new(|| {
                    Command::new("/bin/true").status().unwrap();
                }),
            ),
            (
                "std Command::output (pipes, posix_spawn)",
                Box::new(|| {
                    Command::new("/bin/true").output().unwrap();
                }),
            ),
            (
                "std Command::output + empty pre_exec (fork+exec)",
                Box::new(|| {
                    let mut c = Command::new("/bin/true");
                    c.stdin(Stdio::null());
                    unsafe { c.pre_exec(|| Ok(())) };
                    c.output().unwrap();
                }),
            ),
            (
                "std Command::output + pre_exec, file argument",
                Box::new(|| {
                    let mut c = Command::new("/bin/true");
                    c.arg(&path).stdin(Stdio::null());
                    unsafe { c.pre_exec(|| Ok(())) };
                    c.output().unwrap();
                }),
            ),
            (
                "run_call, formula on stdin",
                Box::new(|| {
                    run_call(&command, Input::Stdin(b"(check-sat)\n"), &limits).unwrap();
                }),
            ),
            (
                "run_call, formula as file",
                Box::new(|| {
                    run_call(&command, Input::File(&path), &limits).unwrap();
                }),
            ),
            (
                "run_call, formula as file, memory limit",
                Box::new(|| {
                    run_call(&command, Input::File(&path), &limited).unwrap();
                }),
            ),
        ],
    );
    let (spawn_piped, fork_piped, fork_file) = (m[1], m[2], m[3]);
    let (call_stdin, call_file) = (m[4], m[5]);
    std::fs::remove_file(&path).ok();

    // Timeout precision at the smallest timeout of the ET study (1/64 s): how late
    // does run_call return after the deadline, killing a solver that never answers?
    let timeout = Duration::from_secs_f64(1.0 / 64.0);
    let hang = vec!["/bin/sleep".to_string(), "1000".to_string()];
    let rounds = (iterations / 10).max(20);
    let mut late: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            let o = run_call(&hang, Input::Stdin(b""), &Limits::with_timeout(timeout)).unwrap();
            assert!(o.timed_out);
            t.elapsed().saturating_sub(timeout)
        })
        .collect();
    late.sort();
    println!(
        "\n{rounds} hangs at a 1/64 s timeout: returned after the deadline by median {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        us(late[rounds / 2]),
        us(late[(rounds - 1) * 99 / 100]),
        us(late[rounds - 1]),
    );

    println!(
        "\nmedian overhead of run_call (file) over std output() with fork+exec: {:+.1} µs",
        us(call_file) - us(fork_file)
    );
    println!(
        "median overhead of run_call (stdin) over std output() with posix_spawn: {:+.1} µs",
        us(call_stdin) - us(spawn_piped)
    );
    println!(
        "median overhead of run_call (stdin) over std output() with fork+exec: {:+.1} µs",
        us(call_stdin) - us(fork_piped)
    );
}
