//! Containment and accounting that only a cgroup per call gives: escapees and daemons
//! die at the timeout, the memory limit covers the whole process tree, CPU time of
//! orphans is charged, and `kill -9` of `et run` leaves no solver behind (its watchdog
//! kills them; a later et removes what a dead et left if the watchdog died too).
//!
//! Where the kernel offers no cgroups these tests are skipped, saying why. Where it
//! does (the machines scripts/setup.sh prepares: root, cgroup v1 or v2 with the memory
//! controller), et must use them, so a fallback there is a failure.

mod common;

use common::{dies_soon, fake_script, is_dead};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use et_core::oracle::{classify, Status};
use et_core::solvers::call::{CallOutcome, Input, Limits, Supervision, Supervisor};

const FORMULA: &[u8] = b"(declare-const a Bool) (assert a) (check-sat)\n";

/// Runs the fake solver `script` on [`FORMULA`] under `supervisor`.
fn call(supervisor: &Supervisor, script: &str, limits: &Limits) -> CallOutcome {
    let command = [fake_script(script)];
    supervisor
        .run(&command, Input::Stdin(FORMULA), limits)
        .unwrap()
}

/// Whether calls run in cgroups here; false (with the reason printed) only where the
/// kernel offers none to this user.
fn cgroups_in_use() -> bool {
    let supervisor = Supervisor::global();
    if supervisor.supervision().uses_cgroups() {
        return true;
    }
    let why = supervisor.fallback_reason().unwrap_or("unknown");
    let offered = std::fs::read_to_string("/proc/self/cgroup")
        .map(|c| c.contains("memory"))
        .unwrap_or(false)
        || std::fs::read_to_string("/sys/fs/cgroup/cgroup.controllers")
            .map(|c| c.contains("memory"))
            .unwrap_or(false);
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    assert!(
        !(offered && root),
        "the kernel offers a memory cgroup and we are root, yet et fell back: {why}"
    );
    eprintln!("skipping: no usable cgroups here ({why})");
    false
}

/// Pids in the `<prefix>-<pid>.pid` files of `dir`.
fn pids(dir: &Path, prefix: &str) -> Vec<i32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(prefix) && name.ends_with(".pid") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            out.push(text.trim().parse().unwrap());
        }
    }
    out
}

/// Waits (generously) until `dir` holds at least `n` pid files starting with `prefix`.
fn wait_for_pids(dir: &Path, prefix: &str, n: usize) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = pids(dir, prefix);
        if found.len() >= n || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn setsid_escapee_and_daemon_die_at_the_timeout() {
    if !cgroups_in_use() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let arg = dir.path().to_string_lossy().into_owned();
    let limits = Limits::with_timeout(Duration::from_secs(3));
    for script in ["setsid-escapee.sh", "daemon.sh"] {
        let o = Supervisor::global()
            .run(
                &[fake_script(script), arg.clone()],
                Input::Stdin(FORMULA),
                &limits,
            )
            .unwrap();
        assert!(o.timed_out, "{script}: {o:?}");
        // They wait without computing.
        assert_eq!(classify(&o).status, Status::Starved);
    }
    let escapees = pids(dir.path(), "escapee-");
    let daemons = pids(dir.path(), "daemon-");
    assert_eq!((escapees.len(), daemons.len()), (1, 1), "pid files missing");
    for pid in escapees.into_iter().chain(daemons) {
        assert!(dies_soon(pid), "process {pid} outlived its call");
    }
}

#[test]
fn four_children_of_250_mb_under_300_mib_are_a_memout() {
    if !cgroups_in_use() {
        return;
    }
    let limits = Limits {
        memory_mb: Some(300),
        ..Limits::with_timeout(Duration::from_secs(120))
    };
    let o = call(Supervisor::global(), "memory-hog.sh", &limits);
    assert!(o.memory_limit_hit, "{o:?}");
    assert_eq!(classify(&o).status, Status::Memout);
    // The peak is the tree's, and the limit held it.
    assert!(o.max_rss_kb > 250 * 1024, "peak {} KiB", o.max_rss_kb);
    assert!(o.max_rss_kb <= 301 * 1024, "peak {} KiB", o.max_rss_kb);
    // Without cgroups (RLIMIT_AS per process), each 250 MB child fits under 300 MiB:
    // the tree's gigabyte goes unnoticed. That is what cgroups fix.
    let o = call(&Supervisor::process_group(), "memory-hog.sh", &limits);
    assert_eq!(classify(&o).status, Status::Sat, "{o:?}");
}

#[test]
fn cpu_time_of_an_orphan_is_charged_to_the_call() {
    if !cgroups_in_use() {
        return;
    }
    let limits = Limits::with_timeout(Duration::from_secs(120));
    let o = call(Supervisor::global(), "cpu-after-exit.sh", &limits);
    assert_eq!(classify(&o).status, Status::Sat, "{o:?}");
    assert!(o.cpu >= Duration::from_millis(1400), "cpu {:?}", o.cpu);
    // A process group's rusage misses it: the spinner's parent never waited for it.
    let o = call(&Supervisor::process_group(), "cpu-after-exit.sh", &limits);
    assert!(o.cpu < Duration::from_millis(1400), "cpu {:?}", o.cpu);
}

#[test]
fn cpu_timeout_counts_the_whole_tree() {
    if !cgroups_in_use() {
        return;
    }
    // The spinning grandchild alone exceeds 0.5 s of CPU: the call is a timeout.
    let limits = Limits {
        cpu_timeout: Some(Duration::from_millis(500)),
        ..Limits::with_timeout(Duration::from_secs(120))
    };
    let o = call(Supervisor::global(), "cpu-after-exit.sh", &limits);
    assert!(o.timed_out, "{o:?}");
    assert_eq!(classify(&o).status, Status::Timeout);
    assert!(o.cpu >= Duration::from_millis(500), "cpu {:?}", o.cpu);
}

/// Directories named `name` anywhere under /sys/fs/cgroup.
fn cgroup_dirs_named(name: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, name: &str, depth: u32, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if !kind.is_dir() {
                continue;
            }
            if entry.file_name() == name {
                out.push(entry.path());
            } else if depth > 0 {
                walk(&entry.path(), name, depth - 1, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new("/sys/fs/cgroup"), name, 8, &mut out);
    out
}

/// Writes a pool of one fake solver that starts a setsid escapee and hangs.
fn escapee_pool(dir: &Path, pids: &Path) -> PathBuf {
    let pool = dir.join("pool.toml");
    std::fs::write(
        &pool,
        format!(
            "[[solver]]\nname = \"escapee\"\nfamily = \"fake\"\nversion = \"1\"\ncommand = [{:?}, {:?}]\n",
            fake_script("setsid-escapee.sh"),
            pids.to_string_lossy()
        ),
    )
    .unwrap();
    pool
}

/// Starts `et run` on the escapee pool and waits until both workers' solvers and
/// escapees are running; returns et and their pids.
fn start_campaign(tmp: &Path, pool: &Path, pids_dir: &Path) -> (std::process::Child, Vec<i32>) {
    let et = Command::new(env!("CARGO_BIN_EXE_et"))
        .args(["run", "--grammar", "core", "--n", "4", "--timeout", "1000"])
        .args(["--jobs", "2", "--quiet", "--solvers"])
        .arg(pool)
        .arg("--out")
        .arg(tmp.join("out"))
        .env("TMPDIR", tmp)
        .env("ET_HOME", tmp.join("home"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let solvers = wait_for_pids(pids_dir, "solver-", 2);
    let escapees = wait_for_pids(pids_dir, "escapee-", 2);
    assert_eq!(
        (solvers.len(), escapees.len()),
        (2, 2),
        "the campaign did not start"
    );
    (et, solvers.into_iter().chain(escapees).collect())
}

#[test]
fn kill_9_of_et_run_leaves_no_solver_behind() {
    if !cgroups_in_use() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let pids_dir = tmp.path().join("pids");
    std::fs::create_dir(&pids_dir).unwrap();
    let pool = escapee_pool(tmp.path(), &pids_dir);
    let (mut et, solver_pids) = start_campaign(tmp.path(), &pool, &pids_dir);
    let et_pid = et.id();
    et.kill().unwrap(); // SIGKILL
    et.wait().unwrap();
    for pid in solver_pids {
        assert!(
            dies_soon(pid),
            "solver process {pid} outlived `kill -9` of et"
        );
    }
    // The watchdog also removes et's cgroups.
    let name = format!("et-{et_pid}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !cgroup_dirs_named(&name).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(cgroup_dirs_named(&name), Vec::<PathBuf>::new());
}

/// The watchdog of a process: its child named `et-watchdog`.
fn watchdog_of(pid: u32) -> Option<i32> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        let comm = stat.split(['(', ')']).nth(1).unwrap_or("");
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().nth(1));
        if comm == "et-watchdog" && ppid == Some(&pid.to_string()) {
            return Some(child);
        }
    }
    None
}

#[test]
fn the_next_et_reaps_what_a_dead_et_and_its_watchdog_left() {
    if !cgroups_in_use() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let pids_dir = tmp.path().join("pids");
    std::fs::create_dir(&pids_dir).unwrap();
    let pool = escapee_pool(tmp.path(), &pids_dir);
    let (mut et, solver_pids) = start_campaign(tmp.path(), &pool, &pids_dir);
    let et_pid = et.id();
    let watchdog = watchdog_of(et_pid).expect("et runs a watchdog");
    // Kill the watchdog first, then et: nothing is left to clean up after et.
    // SAFETY: a plain kill of a process we found as et's child.
    unsafe { libc::kill(watchdog, libc::SIGKILL) };
    assert!(dies_soon(watchdog));
    et.kill().unwrap();
    et.wait().unwrap();
    let escapees = pids(&pids_dir, "escapee-");
    std::thread::sleep(Duration::from_millis(200));
    let alive = escapees.iter().filter(|p| !is_dead(**p)).count();
    assert!(
        alive > 0,
        "the escapees died without their watchdog: nothing to reap"
    );
    assert!(!cgroup_dirs_named(&format!("et-{et_pid}")).is_empty());
    // The scratch directory of the dead run is there too.
    assert_eq!(scratch_dirs_of(tmp.path(), et_pid).len(), 1);
    // A new campaign (in the same cgroups and TMPDIR) reaps both before it starts.
    let out = Command::new(env!("CARGO_BIN_EXE_et"))
        .args([
            "run",
            "--grammar",
            "core",
            "--n",
            "1",
            "--timeout",
            "1",
            "--quiet",
        ])
        .arg("--solvers")
        .arg(&pool)
        .arg("--out")
        .arg(tmp.path().join("second"))
        .env("TMPDIR", tmp.path())
        .env("ET_HOME", tmp.path().join("home"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    for pid in solver_pids {
        assert!(dies_soon(pid), "process {pid} was not reaped");
    }
    assert_eq!(
        cgroup_dirs_named(&format!("et-{et_pid}")),
        Vec::<PathBuf>::new()
    );
    assert_eq!(scratch_dirs_of(tmp.path(), et_pid), Vec::<String>::new());
}

/// The scratch directories (`et-run-<pid>-XXXXXX`) of the et with `pid` in `tmp`.
fn scratch_dirs_of(tmp: &Path, pid: u32) -> Vec<String> {
    let prefix = format!("et-run-{pid}-");
    std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&prefix))
        .collect()
}

#[test]
fn supervision_is_recorded_in_run_toml() {
    let tmp = tempfile::tempdir().unwrap();
    let pids_dir = tmp.path().join("pids");
    std::fs::create_dir(&pids_dir).unwrap();
    let pool = escapee_pool(tmp.path(), &pids_dir);
    let out = Command::new(env!("CARGO_BIN_EXE_et"))
        .args([
            "run",
            "--grammar",
            "core",
            "--n",
            "1",
            "--timeout",
            "1",
            "--quiet",
        ])
        .args(["--cpu-timeout", "1/2", "--solvers"])
        .arg(&pool)
        .arg("--out")
        .arg(tmp.path().join("out"))
        .env("TMPDIR", tmp.path())
        .env("ET_HOME", tmp.path().join("home"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let manifest = std::fs::read_to_string(tmp.path().join("out/run.toml")).unwrap();
    let expected = Supervisor::global().supervision().label();
    assert!(
        manifest.contains(&format!("supervision = \"{expected}\"")),
        "{manifest}"
    );
    assert!(manifest.contains("cpu_timeout_s = 0.5"), "{manifest}");
    if expected == Supervision::ProcessGroup.label() {
        // The fallback is announced once.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.matches("cgroups are not usable").count(),
            1,
            "{stderr}"
        );
    }
}

/// The memory cgroup a call ran in (v1: the `memory` hierarchy's line; v2: the one
/// line), from /proc/self/cgroup as its shell printed it first.
fn memory_cgroup_of(stdout: &str) -> String {
    let line = |wanted: &dyn Fn(&str) -> bool| stdout.lines().find(|l| wanted(l));
    line(&|l| {
        l.split(':')
            .nth(1)
            .is_some_and(|c| c.split(',').any(|c| c == "memory"))
    })
    .or_else(|| line(&|l| l.starts_with("0::")))
    .unwrap_or_else(|| panic!("no cgroup line in {stdout:?}"))
    .to_string()
}

#[test]
fn a_cgroup_serves_the_next_call_with_its_counters_started_afresh() {
    if !cgroups_in_use() {
        return;
    }
    // A limit no other test uses, so that these calls pass the cgroup to each other.
    let limits = Limits {
        memory_mb: Some(299),
        ..Limits::with_timeout(Duration::from_secs(120))
    };
    let in_cgroup = |then: &str| {
        let o = Supervisor::global()
            .run(
                &[
                    "/bin/sh".to_string(),
                    "-c".to_string(),
                    format!("grep -E '(memory|^0::)' /proc/self/cgroup; {then}"),
                ],
                Input::Stdin(FORMULA),
                &limits,
            )
            .unwrap();
        let cgroup = memory_cgroup_of(&o.stdout_text());
        (o, cgroup)
    };
    let (spin, first) = in_cgroup(&format!("exec {}", fake_script("cpu-after-exit.sh")));
    assert!(spin.cpu >= Duration::from_millis(1400), "{spin:?}");
    let (hog, _) = in_cgroup(&format!("exec {}", fake_script("memory-hog.sh")));
    assert!(hog.memory_limit_hit, "{hog:?}");
    let (small, last) = in_cgroup("cat > /dev/null; echo sat");
    assert_eq!(classify(&small).status, Status::Sat, "{small:?}");
    assert!(!small.memory_limit_hit, "{small:?}");
    assert!(small.cpu < Duration::from_millis(1000), "{small:?}");
    assert!(small.max_rss_kb < 100 * 1024, "{small:?}");
    if Supervisor::global().supervision() == Supervision::CgroupV1 {
        assert_eq!(first, last, "v1 call cgroups are reused");
    } else {
        assert_ne!(first, last, "v2 call cgroups serve one call");
    }
}
