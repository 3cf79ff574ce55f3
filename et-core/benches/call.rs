//! Per-call overhead of `solvers::call`, measured on `/bin/true` against bare process
//! spawns, so that what remains is et's supervision cost, for both supervisions: the
//! process group (rlimits, pidfd, poll loop, group kill, wait4) and, where the machine
//! offers them, a cgroup of the call's own (on v1 the one the previous call emptied,
//! its counters reset; on v2 a new one: joining it before exec, the OOM notification,
//! reading its totals, emptying or removing it). Each variant is compared with a std
//! spawn of the same argv (GNU `true` given an argument initialises its locale, which
//! costs more than all of et's supervision).
//!
//! Moving a whole process into a cgroup takes a kernel lock whose writer waits for an
//! RCU grace period unless another move happened within the last one, so a call after
//! an idle gap would pay that wait before exec; on v1 the child moves itself as a
//! thread (`tasks`), which skips the lock. The last section measures calls made 50 ms
//! apart to show that case.
//!
//! Run: `cargo bench -p et-core --bench call [-- ITERATIONS]` (default 2000).

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use et_core::solvers::call::{Input, Limits, Supervisor};

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
    let group = Supervisor::process_group();
    let global = Supervisor::global();
    let cgroup = global.supervision().uses_cgroups().then_some(global);
    match cgroup {
        Some(s) => println!("cgroup supervision: {}\n", s.supervision().label()),
        None => println!(
            "no cgroup supervision here ({}): measuring the process group only\n",
            global.fallback_reason().unwrap_or("?")
        ),
    }
    let path = std::env::temp_dir().join(format!("et-bench-call-{}.smt2", std::process::id()));
    std::fs::write(&path, "(check-sat)\n").unwrap();
    let mut variants: Vec<Variant<'_>> = vec![
        (
            "std Command::output + empty pre_exec (fork+exec)",
            Box::new(|| {
                let mut c = Command::new("/bin/true");
                c.stdin(Stdio::null());
                // SAFETY: the empty closure makes no call at all between fork and exec.
                unsafe { c.pre_exec(|| Ok(())) };
                c.output().unwrap();
            }),
        ),
        (
            "std Command::output + pre_exec, file argument",
            Box::new(|| {
                let mut c = Command::new("/bin/true");
                c.arg(&path).stdin(Stdio::null());
                // SAFETY: the empty closure makes no call at all between fork and exec.
                unsafe { c.pre_exec(|| Ok(())) };
                c.output().unwrap();
            }),
        ),
        (
            "process group: formula on stdin",
            Box::new(|| {
                group
                    .run(&command, Input::Stdin(b"(check-sat)\n"), &limits)
                    .unwrap();
            }),
        ),
        (
            "process group: formula as file",
            Box::new(|| {
                group.run(&command, Input::File(&path), &limits).unwrap();
            }),
        ),
        (
            "process group: formula as file, memory limit",
            Box::new(|| {
                group.run(&command, Input::File(&path), &limited).unwrap();
            }),
        ),
    ];
    if let Some(cg) = cgroup {
        variants.push((
            "cgroup: formula as file",
            Box::new(|| {
                cg.run(&command, Input::File(&path), &limits).unwrap();
            }),
        ));
        variants.push((
            "cgroup: formula as file, memory limit",
            Box::new(|| {
                cg.run(&command, Input::File(&path), &limited).unwrap();
            }),
        ));
    }
    let m = measure(iterations, &mut variants);
    drop(variants);
    let (fork_piped, fork_file, group_stdin, group_file) = (m[0], m[1], m[2], m[3]);
    println!(
        "\nmedian overhead over std output() with fork+exec: process group {:+.1} µs (file), {:+.1} µs (stdin)",
        us(group_file) - us(fork_file),
        us(group_stdin) - us(fork_piped)
    );
    if cgroup.is_some() {
        println!(
            "median overhead over std output() with fork+exec: cgroup {:+.1} µs (file), {:+.1} µs over the process group",
            us(m[5]) - us(fork_file),
            us(m[5]) - us(group_file)
        );
    }

    // Timeout precision at the smallest timeout of the ET study (1/64 s): how late
    // does a call return after the deadline, killing a solver that never answers?
    let timeout = Duration::from_secs_f64(1.0 / 64.0);
    let hang = vec!["/bin/sleep".to_string(), "1000".to_string()];
    let rounds = (iterations / 10).max(20);
    let mut supervisors = vec![("process group", &group)];
    if let Some(cg) = cgroup {
        supervisors.push(("cgroup", cg));
    }
    for (label, supervisor) in &supervisors {
        let mut late: Vec<Duration> = (0..rounds)
            .map(|_| {
                let t = Instant::now();
                let o = supervisor
                    .run(&hang, Input::Stdin(b""), &Limits::with_timeout(timeout))
                    .unwrap();
                assert!(o.timed_out);
                t.elapsed().saturating_sub(timeout)
            })
            .collect();
        late.sort();
        println!(
            "{label}: {rounds} hangs at a 1/64 s timeout returned after the deadline by median {:.1} µs, p99 {:.1} µs, max {:.1} µs",
            us(late[rounds / 2]),
            us(late[(rounds - 1) * 99 / 100]),
            us(late[rounds - 1]),
        );
    }

    // Calls after an idle gap (a solver that ran ~50 ms before): a process move into
    // a cgroup would wait for the kernel (an RCU grace period) before exec. That wait
    // is outside the solver's measured wall time, which starts after exec.
    let gap_rounds = (iterations / 20).max(20);
    for (label, supervisor) in &supervisors {
        let mut times: Vec<Duration> = (0..gap_rounds)
            .map(|_| {
                std::thread::sleep(Duration::from_millis(50));
                let t = Instant::now();
                let o = supervisor
                    .run(&command, Input::File(&path), &limits)
                    .unwrap();
                assert_eq!(o.exit_code, Some(0));
                t.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "{label}: {gap_rounds} calls each 50 ms after the last: median {:.1} µs, p90 {:.1} µs, max {:.1} µs",
            us(times[gap_rounds / 2]),
            us(times[(gap_rounds - 1) * 9 / 10]),
            us(times[gap_rounds - 1]),
        );
    }
    std::fs::remove_file(&path).ok();
}
