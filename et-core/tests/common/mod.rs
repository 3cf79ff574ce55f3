//! What the integration tests share: the `et` binary run in a scratch directory of the
//! test's own, pool files written for one test, fault-injecting fake solvers, and
//! readers of a run directory and of CSV files.
//!
//! Every `et` child gets `TMPDIR` inside the test's scratch directory, so even a run
//! killed with SIGKILL leaves nothing in the machine's /tmp.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use et_core::campaign::manifest::RunManifest;
use et_core::campaign::row::{for_each_row, RowError, RunRow};
use et_core::report::load::{find_csv, RUNS_CSV};
use et_core::solvers::testing::test_pool;
use et_core::solvers::SolverConfig;

/// A scratch directory for one test (removed when dropped) with a `tmp/` that every
/// `et` it starts uses as `TMPDIR`.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A new scratch directory.
    pub fn new() -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix("et-test-")
            .tempdir()
            .expect("a scratch directory");
        std::fs::create_dir(dir.path().join("tmp")).unwrap();
        Scratch { dir }
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `name` inside it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The `et` binary with `TMPDIR` inside the scratch directory.
    pub fn et(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_et"));
        cmd.env("TMPDIR", self.join("tmp"));
        cmd
    }

    /// Runs `et args`, echoing its stderr into the test's output.
    pub fn run(&self, args: &[&str]) -> Output {
        let o = self.et().args(args).output().unwrap();
        eprintln!("{}", String::from_utf8_lossy(&o.stderr));
        o
    }

    /// Starts `et args` in the background with its stdout and stderr captured.
    pub fn spawn(&self, args: &[&str]) -> Child {
        self.et()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Entries left in the `TMPDIR` of the `et` children.
    pub fn tmp_leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.join("tmp"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    /// A pool file of the test's own holding `solvers` (tests never edit the shared
    /// test pool).
    pub fn pool_file(&self, name: &str, solvers: &[SolverConfig]) -> PathBuf {
        write_pool(&self.join(name), solvers)
    }

    /// A campaign of `solvers` (their pool written to `pool.toml`): `et run -g GRAMMAR
    /// --n N` with `options` into the directory `out` of the scratch directory, which
    /// must succeed; that directory.
    pub fn campaign(
        &self,
        grammar: &str,
        n: &str,
        solvers: &[SolverConfig],
        out: &str,
        options: &[&str],
    ) -> PathBuf {
        let pool = self.pool_file("pool.toml", solvers);
        let out = self.join(out);
        let o = self.run(&campaign_args(grammar, n, &pool, &out, options));
        assert!(o.status.success(), "{}", show(&o));
        out
    }

    /// [`Scratch::pool_file`] followed by `rules` (`[[reference]]` tables).
    pub fn pool_file_with_rules(
        &self,
        name: &str,
        solvers: &[SolverConfig],
        rules: &str,
    ) -> PathBuf {
        let path = write_pool(&self.join(name), solvers);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push('\n');
        text.push_str(rules);
        std::fs::write(&path, text).unwrap();
        path
    }
}

/// Writes a pool file holding `solvers` at `path`; returns the path.
pub fn write_pool(path: &Path, solvers: &[SolverConfig]) -> PathBuf {
    let text: Vec<String> = solvers.iter().map(SolverConfig::to_toml).collect();
    std::fs::write(path, text.join("\n")).unwrap();
    path.to_path_buf()
}

/// The arguments of `et run` every campaign test gives (grammar, number of formulas,
/// pool file, output directory), followed by the `options` the test is about.
pub fn campaign_args<'a>(
    grammar: &'a str,
    n: &'a str,
    pool: &'a Path,
    out: &'a Path,
    options: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        "run",
        "-g",
        grammar,
        "--n",
        n,
        "--pool",
        pool.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(options);
    args
}

/// `run.toml` of a run directory, as text and parsed.
pub fn manifest(dir: &Path) -> (String, RunManifest) {
    let text = std::fs::read_to_string(dir.join("run.toml")).unwrap();
    let parsed = toml::from_str(&text).unwrap();
    (text, parsed)
}

/// How many solver answers a reference cache (`reference.csv` or a
/// `--reference-cache` file) holds: its rows other than et's witness searches.
pub fn cached_answers(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().expect("a header line");
    assert!(header.contains("solver"), "not a reference cache: {header}");
    lines.filter(|l| !l.contains(",et-witness-")).count()
}

/// The path of the grammar `tests/fixtures/grammars/NAME`, as an argument.
pub fn grammar_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/grammars")
        .join(name)
        .display()
        .to_string()
}

/// A solver of the pinned test pool, by name (`z3-4.16.0`).
pub fn solver(name: &str) -> SolverConfig {
    match test_pool().get(name) {
        Some(s) => s.clone(),
        None => panic!("the test pool has no {name}; run scripts/setup.sh"),
    }
}

/// The path of the fault-injecting script `tests/fake-solvers/<script>`.
pub fn fake_script(script: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-solvers")
        .join(script)
        .display()
        .to_string()
}

/// Whether process `pid` is gone or a zombie (dead, waiting for a reaper that may be
/// slow: in containers pid 1 does not always reap), now.
pub fn is_dead(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(s) => s
            .rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z')),
    }
}

/// Whether `pid` is dead ([`is_dead`]) within 20 s: SIGKILL is asynchronous, and a
/// loaded machine may take long to schedule the exit path.
pub fn dies_soon(pid: i32) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        if is_dead(pid) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    is_dead(pid)
}

/// A fake solver running `tests/fake-solvers/<script>` with `extra` arguments.
pub fn fake(name: &str, script: &str, extra: &[&str]) -> SolverConfig {
    fake_release(name, "fake", "1.0", script, extra)
}

/// [`fake`] as a release of a family of its own (triage groups by family and version).
pub fn fake_release(
    name: &str,
    family: &str,
    version: &str,
    script: &str,
    extra: &[&str],
) -> SolverConfig {
    let mut command = vec![fake_script(script)];
    command.extend(extra.iter().map(|s| s.to_string()));
    SolverConfig::new(name, family, version, command)
}

/// The rows of `dir/runs.csv` (or `dir/runs.csv.gz`), read by et's own reader.
pub fn rows(dir: &Path) -> Vec<RunRow> {
    let runs = find_csv(dir, RUNS_CSV)
        .unwrap()
        .unwrap_or_else(|| panic!("no call log in {}", dir.display()));
    let mut rows = Vec::new();
    for_each_row(&runs, |row, _line| {
        rows.push(row.clone());
        Ok::<_, RowError>(())
    })
    .unwrap();
    rows
}

/// stderr of an output, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// stdout of an output, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Exit code, stdout and stderr of an output, for assertion messages.
pub fn show(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    )
}

/// The rows of a CSV file as maps from column to value.
pub fn csv_maps(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Copies the directory tree `from` to `to` (a fixture into a scratch directory).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// The first `count` formulas of built-in grammar `name`, as text, and the SMT-LIB
/// logic the grammar declares (what a family's prelude needs).
pub fn first_formulas(name: &str, count: usize) -> (Vec<String>, Option<String>) {
    let grammar = et_core::builtins::load(name).unwrap();
    let logic = et_core::builtins::declared_logic(&grammar)
        .unwrap()
        .map(str::to_string);
    let mut e = et_core::enumeration::Enumeration::new(grammar);
    let mut stream = e.stream_from(&num_bigint::BigUint::from(0u32)).unwrap();
    let mut formulas = Vec::new();
    loop {
        formulas.push(String::from_utf8(stream.current_text().to_vec()).unwrap());
        if formulas.len() == count || !stream.advance() {
            return (formulas, logic);
        }
    }
}

/// The script a campaign gives `solver` for `formula`: the family's prelude, the
/// formula, and with models on, the model request.
pub fn script_for(solver: &SolverConfig, formula: &str, logic: Option<&str>) -> String {
    et_core::judging::Invocation::new(solver, formula, logic).script
}
