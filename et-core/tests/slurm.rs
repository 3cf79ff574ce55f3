//! `et slurm` on a real Slurm: `scripts/slurm-local.sh` starts a one-node cluster
//! (munged, slurmctld, slurmd; Debian's packages, installed by scripts/setup.sh) in a
//! scratch directory, and the test submits a sharded study of real solvers to it,
//! cancels one task, resubmits it and compares the merged report with an unsharded
//! run. The cluster is stopped and every file removed even when an assertion fails.
//!
//! slurmd runs jobs as root, so this test needs root (CI runs as root); it fails, with
//! the reason, otherwise.

mod common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use et_core::cluster::study::{Study, StudyDir};
use et_core::solvers::testing::test_pool;
use et_core::solvers::SolverConfig;

use common::{rows, write_pool};

/// Generous: the machine may be loaded by other builds; this only stops a hung test.
const PATIENCE: Duration = Duration::from_secs(600);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A running local Slurm; stopped (daemons killed, directory removed) when dropped.
struct LocalSlurm {
    dir: PathBuf,
}

impl LocalSlurm {
    fn start(dir: PathBuf) -> LocalSlurm {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        assert!(
            root,
            "the Slurm test needs root: slurmd runs the jobs as their submitter and \
             scripts/slurm-local.sh starts the daemons (run the tests as root, as CI does)"
        );
        // Stop what a failed start left, even if this function panics below.
        let slurm = LocalSlurm { dir };
        let o = slurm.script("start");
        assert!(
            o.status.success(),
            "scripts/slurm-local.sh start failed (are slurmctld, slurmd, slurm-client and \
             munge installed? scripts/setup.sh installs them):\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        let o = slurm.script("status");
        assert!(o.status.success());
        assert!(String::from_utf8_lossy(&o.stdout).contains("idle"));
        slurm
    }

    fn script(&self, command: &str) -> Output {
        Command::new(repo().join("scripts/slurm-local.sh"))
            .args([command, self.dir.to_str().unwrap()])
            .output()
            .unwrap()
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }

    /// A Slurm client command against this cluster.
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", self.conf());
        c
    }

    /// `et` with this cluster's configuration.
    fn et(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_et"));
        c.env("SLURM_CONF", self.conf());
        c
    }

    /// Every job and task the controller knows, with its state.
    fn jobs(&self) -> Vec<(String, String)> {
        let o = self
            .command("squeue")
            .args(["--noheader", "--array", "--states=all", "--format=%i %T"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .filter_map(|l| {
                let (id, state) = l.trim().split_once(' ')?;
                Some((id.to_string(), state.to_string()))
            })
            .collect()
    }

    fn state(&self, id: &str) -> Option<String> {
        self.jobs()
            .into_iter()
            .find_map(|(i, state)| (i == id).then_some(state))
    }
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        let o = self.script("stop");
        if !o.status.success() {
            eprintln!(
                "scripts/slurm-local.sh stop failed: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

/// A child process killed if the test ends before it does.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn run(mut command: Command) -> Output {
    let o = command.output().unwrap();
    eprintln!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn row_count(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("runs.csv")).map_or(0, |t| t.lines().count().saturating_sub(1))
}

/// Exactly one row per formula of `indices` and solver.
fn assert_one_row_each(dir: &Path, indices: impl Iterator<Item = u64>, solvers: &[&str]) {
    let all = rows(dir);
    let pairs: HashSet<(String, String)> = all
        .iter()
        .map(|r| (r.index.clone(), r.solver.clone()))
        .collect();
    assert_eq!(
        pairs.len(),
        all.len(),
        "duplicate rows in {}",
        dir.display()
    );
    let mut expected = 0;
    for i in indices {
        for s in solvers {
            expected += 1;
            assert!(
                pairs.contains(&(i.to_string(), s.to_string())),
                "no row for formula {i} and {s} in {}",
                dir.display()
            );
        }
    }
    assert_eq!(all.len(), expected, "extra rows in {}", dir.display());
}

/// `et report --csv` of a run directory: table name → rows of the columns that do not
/// depend on timing or on where the directory is (times, throughput and solved counts
/// below the run's timeout differ between runs, and the inputs table names the
/// directory; counts of verdicts, statuses and of what was solved do not).
fn report_counts(mut et: Command, dir: &Path, out: &Path) -> BTreeMap<String, Vec<Vec<String>>> {
    et.args([
        "report",
        dir.to_str().unwrap(),
        "--csv",
        out.to_str().unwrap(),
    ]);
    assert!(run(et).status.success());
    let varying = ["time_s", "solved_per_s", "joint_time_s", "dir"];
    let mut tables = BTreeMap::new();
    for entry in std::fs::read_dir(out).unwrap() {
        let path = entry.unwrap().path();
        let mut reader = csv::Reader::from_path(&path).unwrap();
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let last = header.len() - 1;
        let keep: Vec<usize> = (0..header.len())
            .filter(|&c| !varying.contains(&header[c].as_str()))
            .filter(|&c| !header[c].starts_with("<=") || c == last)
            .collect();
        let mut table = vec![keep.iter().map(|&c| header[c].clone()).collect()];
        for record in reader.records() {
            let record = record.unwrap();
            table.push(keep.iter().map(|&c| record[c].to_string()).collect());
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        tables.insert(name, table);
    }
    tables
}

fn pool_file(dir: &Path, solvers: &[SolverConfig]) -> PathBuf {
    write_pool(&dir.join("pool.toml"), solvers)
}

fn study(dir: &Path) -> Study {
    StudyDir::new(dir).unwrap().load().unwrap()
}

#[test]
fn a_sharded_study_on_slurm_survives_a_cancelled_task() {
    let scratch = tempfile::tempdir().unwrap();
    let base = scratch.path();
    let slurm = LocalSlurm::start(base.join("slurm"));
    let pool = test_pool();
    let solvers = [
        pool.newest("z3").unwrap().clone(),
        pool.newest("cvc5").unwrap().clone(),
    ];
    let names: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
    let pool = pool_file(base, &solvers);
    let pool = pool.to_str().unwrap();
    let et = || slurm.et();

    // Refused before anything is submitted or written: a pool that does not exist, a
    // grammar that does not parse, a solver whose program is missing, bad sbatch values.
    let missing_pool = base.join("no-such-pool.toml");
    let bad_grammar = base.join("bad.pest");
    std::fs::write(&bad_grammar, "start = { \"(\" ~ term \n").unwrap();
    let ghost_pool = base.join("ghost.toml");
    std::fs::write(
        &ghost_pool,
        "[[solver]]\nname = \"z3-ghost\"\nfamily = \"z3\"\nversion = \"9\"\ncommand = [\"/nonexistent/z3\"]\n",
    )
    .unwrap();
    let refused = base.join("refused");
    let refusals: [(&[&str], &str); 5] = [
        (
            &[
                "--grammar",
                "core",
                "--pool",
                missing_pool.to_str().unwrap(),
            ],
            "no-such-pool.toml",
        ),
        (
            &["--grammar", bad_grammar.to_str().unwrap(), "--pool", pool],
            "bad.pest:",
        ),
        (
            &["--grammar", "core", "--pool", ghost_pool.to_str().unwrap()],
            "program /nonexistent/z3 does not exist",
        ),
        (
            &["--grammar", "core", "--pool", pool, "--time", "soon"],
            "--time `soon`",
        ),
        (
            &[
                "--grammar",
                "core",
                "--pool",
                pool,
                "--sbatch-arg=--array=1-9",
            ],
            "--array",
        ),
    ];
    for (args, named) in refusals {
        let mut c = et();
        c.args([
            "slurm",
            "submit",
            "--n",
            "100",
            "--timeout",
            "8",
            "--shards",
            "4",
        ])
        .args(args)
        .args(["--out", refused.to_str().unwrap()]);
        let o = run(c);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(named),
            "{args:?} should name {named}: {stderr}"
        );
        assert!(!refused.exists(), "{args:?} left {}", refused.display());
    }
    // A partition Slurm does not know: refused by `sbatch --test-only`, nothing left.
    let mut c = et();
    c.args([
        "slurm",
        "submit",
        "-g",
        "core",
        "--n",
        "100",
        "--timeout",
        "8",
    ])
    .args(["--shards", "4", "--pool", pool, "--partition", "nowhere"])
    .args(["--out", refused.to_str().unwrap()]);
    let o = run(c);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--test-only"));
    assert!(!refused.exists());
    assert_eq!(slurm.jobs(), vec![], "a refused submission submitted a job");

    // The unsharded study, run directly, in the background meanwhile.
    let whole = base.join("whole");
    let mut unsharded = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_et"))
            .args([
                "run",
                "-g",
                "core",
                "--n",
                "2000",
                "--timeout",
                "8",
                "-j",
                "2",
            ])
            .args(["--pool", pool, "--quiet", "--out", whole.to_str().unwrap()])
            .spawn()
            .unwrap(),
    );

    // The same study on Slurm: 4 shards, one CPU each, so two tasks run at a time.
    let dir = base.join("study");
    let mut c = et();
    c.args([
        "slurm",
        "submit",
        "-g",
        "core",
        "--n",
        "2000",
        "--timeout",
        "8",
    ])
    .args([
        "--shards",
        "4",
        "--pool",
        pool,
        "--time",
        "30",
        "--partition",
        "debug",
    ])
    .args(["--out", dir.to_str().unwrap()]);
    let o = run(c);
    assert!(o.status.success());
    let stdout = String::from_utf8_lossy(&o.stdout);
    let submitted = study(&dir);
    let array = submitted.submissions[0].array_job.unwrap();
    let first_merge = submitted.submissions[0].merge_job.unwrap();
    assert!(stdout.contains(&format!("array job {array}")), "{stdout}");
    assert!(
        stdout.contains(&format!("merge job {first_merge}")),
        "{stdout}"
    );
    let script = std::fs::read_to_string(dir.join("slurm/shards.sh")).unwrap();
    assert!(script.contains(&format!("exec {} run", env!("CARGO_BIN_EXE_et"))));
    assert!(script.contains("--shard \"$k/4\"") && script.contains("--resume"));
    assert!(script.contains(&format!("--pool {}/pool.toml", dir.display())));

    // Cancel shard 1's task while it runs, once it has written some rows.
    let shard1 = dir.join("shards/1");
    let task1 = format!("{array}_1");
    wait_for("shard 1 to write rows", || row_count(&shard1) >= 40);
    assert_eq!(slurm.state(&task1).as_deref(), Some("RUNNING"));
    assert!(slurm
        .command("scancel")
        .arg(&task1)
        .status()
        .unwrap()
        .success());
    wait_for("the cancelled task to end", || {
        slurm.state(&task1).as_deref() == Some("CANCELLED")
    });
    let before = std::fs::read_to_string(shard1.join("runs.csv")).unwrap();
    let kept = before.lines().count() - 1;
    assert!(
        (40..1000).contains(&kept),
        "cancelled after {kept} of 1000 rows"
    );

    // `et slurm status` names the cancelled shard.
    let o = run({
        let mut c = et();
        c.args(["slurm", "status", dir.to_str().unwrap()]);
        c
    });
    assert!(o.status.success());
    let status = String::from_utf8_lossy(&o.stdout);
    let line1 = status
        .lines()
        .find(|l| l.starts_with("1 "))
        .unwrap_or_else(|| panic!("no line for shard 1:\n{status}"));
    assert!(
        line1.contains(&format!("{kept}/1000")) && line1.contains("CANCELLED"),
        "{status}"
    );
    assert!(
        status.contains("unfinished and not running: shard 1 (CANCELLED)"),
        "{status}"
    );

    // Resubmit: only shard 1 runs again (other tasks may still run), with a new merge.
    let o = run({
        let mut c = et();
        c.args(["slurm", "resubmit", dir.to_str().unwrap()])
            .arg("--sbatch-arg=--comment=resubmitted");
        c
    });
    assert!(o.status.success());
    let resubmitted = study(&dir);
    assert_eq!(resubmitted.submissions.len(), 2, "{resubmitted:?}");
    let retry = &resubmitted.submissions[1];
    assert_eq!(retry.shards, vec![1], "only the cancelled shard runs again");
    let retry_array = retry.array_job.unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(&format!("cancelled merge job {first_merge}")),
        "{out}"
    );
    wait_for("the first merge job to be cancelled", || {
        slurm.state(&first_merge.to_string()).as_deref() == Some("CANCELLED")
    });
    let o = slurm
        .command("scontrol")
        .args(["show", "job", &retry_array.to_string()])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("Comment=resubmitted"),
        "--sbatch-arg reached sbatch"
    );

    // The merge runs once every shard is done.
    let merged = dir.join("merged");
    wait_for("the merge job", || merged.join("run.toml").exists());
    let merge_job = retry.merge_job.unwrap().to_string();
    wait_for("the merge job to complete", || {
        slurm.state(&merge_job).as_deref() == Some("COMPLETED")
    });
    assert_one_row_each(&merged, 0..2000, &names);
    // Shard 1 kept its rows and resumed after them.
    let after = std::fs::read_to_string(shard1.join("runs.csv")).unwrap();
    assert!(
        after.starts_with(&before),
        "shard 1 rewrote its earlier rows"
    );
    let logs = dir.join("slurm/logs");
    assert!(logs.join(format!("shard-1-job-{retry_array}.log")).exists());
    for k in 2..=4 {
        assert!(
            !logs
                .join(format!("shard-{k}-job-{retry_array}.log"))
                .exists(),
            "shard {k} ran again"
        );
    }

    // The merged study reports like the unsharded run.
    assert!(unsharded.0.wait().unwrap().success());
    assert_eq!(
        report_counts(et(), &merged, &base.join("tables-merged")),
        report_counts(et(), &whole, &base.join("tables-whole")),
    );

    let o = run({
        let mut c = et();
        c.args(["slurm", "status", dir.to_str().unwrap()]);
        c
    });
    assert!(String::from_utf8_lossy(&o.stdout).contains("finished: 4000 rows merged"));
    let o = run({
        let mut c = et();
        c.args(["slurm", "resubmit", dir.to_str().unwrap()]);
        c
    });
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("nothing to resubmit"));
    assert_eq!(study(&dir).submissions.len(), 2);

    // Written without submitting, then submitted by `resubmit`.
    let later = base.join("later");
    let mut c = et();
    c.args([
        "slurm",
        "submit",
        "-g",
        "core",
        "--n",
        "8",
        "--timeout",
        "8",
    ])
    .args(["--shards", "2", "--pool", pool, "--no-submit"])
    .args(["--out", later.to_str().unwrap()]);
    assert!(run(c).status.success());
    assert_eq!(study(&later).submissions, vec![]);
    let mut c = et();
    c.args(["slurm", "resubmit", later.to_str().unwrap()]);
    assert!(run(c).status.success());
    let submitted = study(&later);
    assert_eq!(submitted.submissions[0].shards, vec![1, 2]);
    wait_for("the second study's merge", || {
        later.join("merged/run.toml").exists()
    });
    assert_one_row_each(&later.join("merged"), 0..8, &names);
}

/// `et` without a cluster: these checks need no Slurm.
fn et_alone(args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_et"));
    c.args(args);
    run(c)
}

#[test]
fn a_study_written_without_submitting_is_complete_and_readable() {
    let scratch = tempfile::tempdir().unwrap();
    let base = scratch.path();
    let pool = test_pool();
    let solvers = [
        pool.newest("z3").unwrap().clone(),
        pool.newest("cvc5").unwrap().clone(),
        pool.get("z3-4.8.7").unwrap().clone(),
    ];
    let pool = pool_file(base, &solvers);
    let grammar = repo().join("grammars/core.pest");
    let dir = base.join("study");
    // Only the old z3 is under test; its reference (the newest cvc5) must exist too.
    let o = et_alone(&[
        "slurm",
        "submit",
        "--grammar",
        grammar.to_str().unwrap(),
        "--n",
        "10",
        "--timeout",
        "1/4",
        "--memory",
        "2048",
        "--cpu-timeout",
        "1/2",
        "--shards",
        "3",
        "--pool",
        pool.to_str().unwrap(),
        "--solvers",
        "z3-4.8.7",
        "--cpus-per-task",
        "2",
        "--partition",
        "short",
        "--sbatch-arg=--comment=a study",
        "--no-submit",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let study = study(&dir);
    assert_eq!(
        (study.grammar.as_str(), study.n, study.shards),
        ("core", 10, 3)
    );
    assert_eq!(study.solvers, vec!["z3-4.8.7"]);
    assert!(study.submissions.is_empty());
    // The pool is copied whole (the tasks judge as `et run` would with it), with
    // absolute paths.
    let copied = et_core::solvers::Pool::load(&dir.join("pool.toml")).unwrap();
    let all: Vec<&str> = solvers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(copied.names(), all);
    assert!(copied
        .solvers
        .iter()
        .all(|s| Path::new(s.program()).is_absolute()));
    // The grammar file is copied: shards read the same grammar even if it is edited.
    let copy = dir.join("grammar/core.pest");
    assert_eq!(
        std::fs::read_to_string(&copy).unwrap(),
        std::fs::read_to_string(&grammar).unwrap()
    );
    let script = std::fs::read_to_string(dir.join("slurm/shards.sh")).unwrap();
    for line in [
        "#SBATCH --array=1-3\n".to_string(),
        "#SBATCH --cpus-per-task=2\n".into(),
        "#SBATCH --partition=short\n".into(),
        "#SBATCH --comment=\"a study\"\n".into(),
        format!("--grammar {}", copy.display()),
        "--timeout 0.25".into(),
        "--memory 2048".into(),
        "--cpu-timeout 0.5".into(),
        "--jobs 2".into(),
        "--solvers z3-4.8.7".into(),
    ] {
        assert!(script.contains(&line), "{line:?} not in\n{script}");
    }
    // bash reads it (the scripts are run by sbatch, never by the test).
    for script in ["slurm/shards.sh", "slurm/merge.sh"] {
        let o = Command::new("bash")
            .args(["-n", dir.join(script).to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }

    // Status: nothing submitted yet, 0 of 4 + 3 + 3 formulas' rows.
    let o = et_alone(&["slurm", "status", dir.to_str().unwrap()]);
    assert!(o.status.success());
    let status = String::from_utf8_lossy(&o.stdout);
    assert!(status.contains("0/4") && status.contains("0/3"), "{status}");
    assert!(status.contains("not submitted"), "{status}");

    // The directory is taken now.
    let o = et_alone(&[
        "slurm",
        "submit",
        "-g",
        "core",
        "--n",
        "10",
        "--timeout",
        "1",
        "--shards",
        "2",
        "--pool",
        pool.to_str().unwrap(),
        "--no-submit",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already exists"));
}

#[test]
fn bad_arguments_are_refused_with_exit_2_and_nothing_written() {
    let scratch = tempfile::tempdir().unwrap();
    let base = scratch.path();
    let pool = test_pool();
    let pool = pool_file(base, &[pool.newest("z3").unwrap().clone()]);
    let out = base.join("study");
    let submit = |extra: &[&str]| {
        let mut args = vec![
            "slurm",
            "submit",
            "--timeout",
            "1",
            "--pool",
            pool.to_str().unwrap(),
            "--no-submit",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend(extra);
        let o = et_alone(&args);
        assert!(!out.exists(), "{extra:?} left {}", out.display());
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    for (extra, named) in [
        (
            &["-g", "core", "--n", "10", "--shards", "0"][..],
            "--shards",
        ),
        (&["-g", "core", "--n", "3", "--shards", "4"], "--shards 4"),
        (
            &["-g", "core", "--n", "10", "--shards", "2", "--shard", "1/2"],
            "--shard",
        ),
        (
            &["-g", "core", "--n", "10", "--shards", "2", "--resume"],
            "et slurm resubmit",
        ),
        (
            &[
                "-g",
                "core",
                "--n",
                "10",
                "--shards",
                "2",
                "--fail-on",
                "crash",
            ],
            "--fail-on",
        ),
        (
            &["-g", "nonsense", "--n", "10", "--shards", "2"],
            "nonsense",
        ),
        (
            &[
                "-g",
                "core",
                "--n",
                "10",
                "--shards",
                "2",
                "--solvers",
                "z3-0.1",
            ],
            "z3-0.1",
        ),
        (
            &[
                "-g",
                "core",
                "--n",
                "10",
                "--shards",
                "2",
                "--reference",
                "yices",
            ],
            "yices",
        ),
        (
            &[
                "-g",
                "core",
                "--n",
                "10",
                "--shards",
                "2",
                "--sbatch-arg",
                "account",
            ],
            "`account`",
        ),
    ] {
        let (code, stderr) = submit(extra);
        assert_eq!(code, Some(2), "{extra:?}: {stderr}");
        assert!(
            stderr.contains(named),
            "{extra:?} should name {named}: {stderr}"
        );
    }
    // Not a study: status and resubmit say so.
    for command in ["status", "resubmit"] {
        let o = et_alone(&["slurm", command, base.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("is not a study"));
    }
}
