//! `et triage` tells how far it is within each step (the library through its
//! `Progress`, the CLI draws it) and checks its `--out` before any re-run.

mod common;

use common::{fake_release, show, solver, stderr, Scratch};
use et_core::triage::{self, confirm::Settings, Options, Progress};

const Z3: &str = "z3-4.16.0";

/// What a triage told its caller.
#[derive(Default)]
struct Told {
    steps: Vec<String>,
    /// Each step's counters in order, after the step line they follow.
    counts: Vec<Vec<(u64, u64)>>,
}

impl Progress for Told {
    fn step(&mut self, text: &str) {
        self.steps.push(text.to_string());
        self.counts.push(Vec::new());
    }

    fn warning(&mut self, text: &str) {
        panic!("unexpected warning: {text}");
    }

    fn advance(&mut self, done: u64, total: u64) {
        self.counts
            .last_mut()
            .expect("after a step line")
            .push((done, total));
    }
}

#[test]
fn each_step_that_runs_solvers_counts_its_items_to_the_end() {
    let s = Scratch::new();
    let z3 = solver(Z3);
    let real = z3.program().to_string();
    let liar = |version: &str| {
        fake_release(
            &format!("liar-{version}"),
            "liar",
            version,
            "fault-on.sh",
            &[&real, "not", "unsat"],
        )
    };
    let pool = s.pool_file("pool.toml", &[z3.clone(), liar("1.0"), liar("2.0")]);
    let out = s.join("run");
    let o = s.run(&common::campaign_args(
        "core",
        "60",
        &pool,
        &out,
        &[
            "--solvers",
            "liar-2.0",
            "--reference",
            Z3,
            "--timeout",
            "10",
            "-j",
            "2",
            "-q",
        ],
    ));
    assert!(o.status.success(), "{}", show(&o));
    let options = Options {
        dirs: vec![out.clone()],
        grammars: Vec::new(),
        pool: Some(et_core::solvers::Pool::load(&pool).unwrap()),
        settings: Settings {
            attempts: 1,
            performance_factor: 4.0,
            performance_formulas: Some(3),
        },
        ranged: Some(3),
        jobs: 2,
        journal: None,
    };
    let mut told = Told::default();
    let result = triage::triage(&options, &mut told).unwrap();
    assert!(!result.findings.is_empty(), "the liar lies on `not`");
    let step = |start: &str| {
        let i = told
            .steps
            .iter()
            .position(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no step `{start}`: {:?}", told.steps));
        &told.counts[i]
    };
    // Confirmation counts every trigger it re-runs, ending at all of them.
    let confirming = step("confirming");
    let triggers = result.findings.len() as u64;
    assert_eq!(confirming.first(), Some(&(0, triggers)));
    assert_eq!(confirming.last(), Some(&(triggers, triggers)));
    assert!(confirming.windows(2).all(|w| w[0].0 <= w[1].0));
    // Version ranges count their calls (one other liar release per ranged formula).
    let ranges = step("version ranges");
    let (done, total) = *ranges.last().unwrap();
    assert!(total > 0 && done == total, "{ranges:?}");
    assert_eq!(ranges.first(), Some(&(0, total)));

    // The CLI checks --out first: a report folder that cannot be made is refused at
    // once (exit 2, naming it), before the re-runs.
    let file = s.join("a-file");
    std::fs::write(&file, "").unwrap();
    let unwritable = file.join("triage");
    let o = s
        .et()
        .env("ET_HOME", s.join("home"))
        .args(["triage", out.to_str().unwrap(), "--out"])
        .arg(&unwritable)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    let err = stderr(&o);
    assert!(err.contains(unwritable.to_str().unwrap()), "{err}");
    assert!(
        !err.contains("confirming"),
        "refused before the re-runs: {err}"
    );
}
