//! What the integration tests share: the `et` binary run in a scratch directory of the
//! test's own, pool files written for one test, fault-injecting fake solvers, and
//! readers of a run directory and of CSV files.
//!
//! Every `et` child gets `TMPDIR` inside the test's scratch directory, so even a run
//! killed with SIGKILL leaves nothing in the machine's /tmp.

#![allow(dead_code)] // each test binary uses its own part of this module

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
}

/// Writes a pool file holding `solvers` at `path`; returns the path.
pub fn write_pool(path: &Path, solvers: &[SolverConfig]) -> PathBuf {
    let text: Vec<String> = solvers.iter().map(SolverConfig::to_toml).collect();
    std::fs::write(path, text.join("\n")).unwrap();
    path.to_path_buf()
}

/// A solver of the pinned test pool, by name (`z3-4.16.0`).
pub fn solver(name: &str) -> SolverConfig {
    match test_pool().get(name) {
        Some(s) => s.clone(),
        None => panic!("the test pool has no {name}; run scripts/setup.sh"),
    }
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
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake-solvers")
        .join(script);
    let mut command = vec![path.display().to_string()];
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
