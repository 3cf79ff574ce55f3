//! Triage, bisect and shrink on real solvers: the self-check failures of z3 4.8.5 and
//! 4.8.7 (validator false alarms, gone in 4.8.8), judged against a current cvc5; a liar
//! that wraps a current z3 for a reduction from index 10^30; and yices 2.6.5's invalid
//! model pinned into a wrong `sat` and shrunk with ground truth.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use num_bigint::BigUint;

use et_core::enumeration::Enumeration;
use et_core::solvers::testing::test_pool;
use et_core::solvers::{Pool, SolverConfig};

use common::{csv_maps, show, write_pool};

fn et() -> Command {
    Command::new(env!("CARGO_BIN_EXE_et"))
}

fn named(pool: &Pool, name: &str) -> SolverConfig {
    pool.get(name)
        .unwrap_or_else(|| panic!("{name} is in the test pool (scripts/setup.sh installs it)"))
        .clone()
}

/// A pool file of the test's own: z3 4.8.5, 4.8.7, 4.8.8, the newest z3 and cvc5.
fn real_pool(dir: &Path) -> (PathBuf, Pool) {
    let pool = test_pool();
    let solvers = vec![
        named(&pool, "z3-4.8.5"),
        named(&pool, "z3-4.8.7"),
        named(&pool, "z3-4.8.8"),
        pool.newest("z3").unwrap().clone(),
        pool.newest("cvc5").unwrap().clone(),
    ];
    let path = write_pool(&dir.join("pool.toml"), &solvers);
    (
        path,
        Pool {
            solvers,
            ..Pool::default()
        },
    )
}

#[test]
fn old_z3_invalid_models_are_a_few_groups_ending_at_4_8_7() {
    let scratch = tempfile::tempdir().unwrap();
    let (pool, _) = real_pool(scratch.path());
    let dir = scratch.path().join("ints");
    let o = et()
        .args(["run", "-g", "ints", "--n", "1000", "--pool"])
        .arg(&pool)
        .args([
            "--solvers",
            "z3-4.8.5,z3-4.8.7",
            "--timeout",
            "10",
            "-j",
            "2",
            "-q",
        ])
        .arg("--out")
        .arg(&dir)
        .env("ET_HOME", scratch.path().join("home"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let invalid_in_run = csv_maps(&dir.join("runs.csv"))
        .iter()
        .filter(|r| ["invalid_model", "validator_false_alarm"].contains(&r["verdict"].as_str()))
        .count();
    assert!(
        invalid_in_run >= 50,
        "the old releases' invalid models: {invalid_in_run}"
    );

    let o = et()
        .arg("triage")
        .arg(&dir)
        .arg("--pool")
        .arg(&pool)
        .args(["-j", "2"])
        .env("ET_HOME", scratch.path().join("home"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let groups = csv_maps(&dir.join("triage/groups.csv"));
    let invalid: Vec<_> = groups
        .iter()
        .filter(|g| ["invalid_model", "validator_false_alarm"].contains(&g["kind"].as_str()))
        .collect();
    let held: usize = invalid
        .iter()
        .map(|g| g["triggers"].parse::<usize>().unwrap())
        .sum();
    assert_eq!(held, invalid_in_run, "every trigger is in a group");
    assert!(
        invalid.len() <= 12,
        "a few groups, not one per trigger: {} groups for {invalid_in_run} triggers\n{}",
        invalid.len(),
        show(&o)
    );
    for g in &invalid {
        assert_eq!(g["family"], "z3");
        assert!(
            ["4.8.5", "4.8.7"].contains(&g["last_version"].as_str()),
            "{g:?}"
        );
        assert_eq!(g["affects_newest"], "false", "{g:?}");
        assert_eq!(g["status"], "confirmed", "{g:?}");
        assert!(!g["affected_versions"].contains("4.8.8"), "{g:?}");
    }
    let ending_at_4_8_7: Vec<_> = invalid
        .iter()
        .filter(|g| g["last_version"] == "4.8.7")
        .collect();
    assert!(
        (1..=6).contains(&ending_at_4_8_7.len()),
        "a few groups end at 4.8.7: {ending_at_4_8_7:?}"
    );
    assert!(
        ending_at_4_8_7
            .iter()
            .any(|g| g["first_version"] == "4.8.5"),
        "some bugs span 4.8.5–4.8.7: {ending_at_4_8_7:?}"
    );
    // Every invalid model of 4.8.7 is in a group that ends at 4.8.7.
    for t in csv_maps(&dir.join("triage/triggers.csv")) {
        if t["solver"] == "z3-4.8.7" && t["verdict"] == "invalid_model" {
            assert_eq!(t["last_version"], "4.8.7", "{t:?}");
        }
    }
    let report = std::fs::read_to_string(dir.join("triage/report.md")).unwrap();
    assert!(report.contains("| 4.8.8 | no |"), "4.8.8 was checked");

    // By default the smallest three performance triggers of each candidate group are
    // re-run and the version range is measured on the smallest three formulas of each;
    // re-running and ranging every trigger (`--confirm all --ranged all`) makes more
    // calls and finds the same range for the triggers measured both times.
    let o = et()
        .arg("triage")
        .arg(&dir)
        .arg("--pool")
        .arg(&pool)
        .args(["-j", "2", "--confirm", "all", "--ranged", "all", "--out"])
        .arg(dir.join("triage-all"))
        .env("ET_HOME", scratch.path().join("home"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let calls = |report: &str| -> u64 {
        let text = report.split(" solver calls in all").next().unwrap();
        text.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let report_all = std::fs::read_to_string(dir.join("triage-all/report.md")).unwrap();
    assert!(
        calls(&report) < calls(&report_all),
        "{report}\n{report_all}"
    );
    let range = |t: &std::collections::BTreeMap<String, String>| {
        (t["first_version"].clone(), t["last_version"].clone())
    };
    let all: std::collections::BTreeMap<_, _> = csv_maps(&dir.join("triage-all/triggers.csv"))
        .into_iter()
        .map(|t| ((t["solver"].clone(), t["index"].clone()), t))
        .collect();
    let sampled = csv_maps(&dir.join("triage/triggers.csv"));
    assert!(sampled.iter().any(|t| t["range_measured"] == "no"));
    for t in &sampled {
        let every = &all[&(t["solver"].clone(), t["index"].clone())];
        assert_eq!(every["range_measured"], "yes", "{every:?}");
        if t["range_measured"] == "yes" {
            assert_eq!(range(t), range(every), "{t:?}");
        }
    }
}

const MOD_BY_ZERO: &str =
    "(declare-const a Int) (declare-const b Int) (assert (= 1 (mod 0 0))) (check-sat)\n";

#[test]
fn bisect_finds_4_8_8_fixed_the_invalid_model_of_4_8_7() {
    let scratch = tempfile::tempdir().unwrap();
    let (pool, _) = real_pool(scratch.path());
    let formula = scratch.path().join("trigger.smt2");
    std::fs::write(&formula, MOD_BY_ZERO).unwrap();
    let bisect = |extra: &[&str]| {
        let o = et()
            .arg("bisect")
            .arg(&formula)
            .args(["--family", "z3", "--pool"])
            .arg(&pool)
            .args(["-j", "2"])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", show(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = bisect(&["--expect", "sat"]);
    assert!(out.contains("\nlast bad: 4.8.7\n"), "{out}");
    assert!(out.contains("\nfirst fixed: 4.8.8\n"), "{out}");
    assert!(
        out.contains("first bad: 4.8.5 (the oldest installed release)"),
        "{out}"
    );
    // Without an expectation: where the answer changes.
    let out = bisect(&[]);
    assert!(
        out.contains("change: 4.8.7 → 4.8.8: sat (validator false alarm) → sat"),
        "{out}"
    );
    assert!(!out.contains("first fixed"), "{out}");
    // With the current cvc5 as the reference: it answers sat, so the same.
    let cvc5 = test_pool().newest("cvc5").unwrap().name.clone();
    let out = bisect(&["--reference", &cvc5]);
    assert!(
        out.contains(&format!("expected: sat (the reference {cvc5} answered it)")),
        "{out}"
    );
    assert!(out.contains("\nfirst fixed: 4.8.8\n"), "{out}");
}

/// `et rank -g GRAMMAR` on formulas, one per line: (index, size) of each, or the error.
fn rank(grammar: &str, formulas: &[&str]) -> Result<Vec<(String, u32)>, String> {
    let mut child = et()
        .args(["rank", "-g", grammar])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for f in formulas {
        writeln!(stdin, "{f}").unwrap();
    }
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    if !o.status.success() {
        return Err(show(&o));
    }
    Ok(String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            let (i, s) = l.split_once('\t').unwrap();
            (i.to_string(), s.parse().unwrap())
        })
        .collect())
}

/// The formulas of the `step N: size S, index I: FORMULA` lines of `et shrink`.
fn steps(stderr: &str) -> Vec<(u32, String, String)> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("et: shrink: step "))
        .map(|l| {
            let (_, rest) = l.split_once(": size ").unwrap();
            let (size, rest) = rest.split_once(", index ").unwrap();
            let (index, formula) = rest.split_once(": ").unwrap();
            (
                size.parse().unwrap(),
                index.to_string(),
                formula.to_string(),
            )
        })
        .collect()
}

/// What a solver prints (stdout, then stderr) on a formula.
fn run_solver(solver: &[String], formula: &str, dir: &Path) -> String {
    let file = dir.join("check.smt2");
    std::fs::write(&file, format!("{formula}\n")).unwrap();
    let o = Command::new(&solver[0])
        .args(&solver[1..])
        .arg(&file)
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn shrink_reduces_a_trigger_past_index_10_30_to_a_small_one_of_the_grammar() {
    let scratch = tempfile::tempdir().unwrap();
    let z3 = test_pool().newest("z3").unwrap().clone();
    // Wrong exactly on the formulas that apply `mod`: it says unsat, z3 knows better.
    let liar = SolverConfig::new(
        "liar-1.0",
        "liar",
        "1.0",
        vec![
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fake-solvers/fault-on.sh")
                .display()
                .to_string(),
            z3.program().to_string(),
            "mod".into(),
            "unsat".into(),
        ],
    );
    let pool = scratch.path().join("pool.toml");
    std::fs::write(&pool, format!("{}\n{}", z3.to_toml(), liar.to_toml())).unwrap();

    // The first formula from index 10^30 on that applies mod (z3 decides it: sat).
    let mut e = Enumeration::new(et_core::builtins::load("ints").unwrap());
    let start = BigUint::from(10u32).pow(30);
    let mut stream = e.stream_from(&start).unwrap();
    let mut offset = 0u32;
    let big = loop {
        let text = String::from_utf8(stream.current_text().to_vec()).unwrap();
        if text.contains("(mod ") {
            break text;
        }
        offset += 1;
        assert!(stream.advance());
    };
    let big_index = (&start + offset).to_string();
    let file = scratch.path().join("big.smt2");
    std::fs::write(&file, &big).unwrap();

    let o = et()
        .arg("shrink")
        .arg(&file)
        .args([
            "-g", "ints", "--solver", "liar-1.0", "--keep", "unsound", "--pool",
        ])
        .arg(&pool)
        .args(["--reference", &z3.name, "-j", "2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(&format!(
            "start: size {}, index {big_index}",
            rank("ints", &[&big]).unwrap()[0].1
        )),
        "{stderr}"
    );
    let result = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let ranked = rank("ints", &[&result]).expect("the result is a formula of ints");
    assert!(ranked[0].1 <= 8, "size {} for {result}", ranked[0].1);
    assert!(result.contains("(mod "), "{result}");
    assert!(
        stderr.contains(&format!("index {}, after", ranked[0].0)),
        "{stderr}"
    );

    // Every accepted step is a formula of the grammar, at the index and size printed,
    // each smaller than the one before.
    let steps = steps(&stderr);
    assert!(!steps.is_empty(), "{stderr}");
    let texts: Vec<&str> = steps.iter().map(|s| s.2.as_str()).collect();
    let ranks = rank("ints", &texts).expect("every step is a formula of ints");
    for ((size, index, _), (r_index, r_size)) in steps.iter().zip(&ranks) {
        assert_eq!((index, size), (r_index, r_size));
    }
    assert!(steps.windows(2).all(|w| w[0].0 > w[1].0), "{steps:?}");
    assert_eq!(steps.last().unwrap().2, result);

    // Re-run by hand: the liar still lies on the result, z3 says sat.
    assert_eq!(
        run_solver(&liar.command, &result, scratch.path()).trim(),
        "unsat"
    );
    assert_eq!(
        run_solver(&z3.command, &result, scratch.path()).trim(),
        "sat"
    );
}

#[test]
fn shrink_reduces_a_real_invalid_model_trigger_of_z3_4_8_7() {
    let scratch = tempfile::tempdir().unwrap();
    let (pool, real) = real_pool(scratch.path());
    let formula = "(declare-const a Int) (declare-const b Int) \
                   (assert (ite (> a 0) (= 1 (mod a 0)) (< (div b 0) (* a a)))) (check-sat)";
    let file = scratch.path().join("trigger.smt2");
    std::fs::write(&file, formula).unwrap();
    let o = et()
        .arg("shrink")
        .arg(&file)
        .args([
            "-g",
            "ints",
            "--solver",
            "z3-4.8.7",
            "--keep",
            "validator_false_alarm",
            "--pool",
        ])
        .arg(&pool)
        .args(["-j", "2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let result = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let ranked = rank("ints", &[&result]).unwrap();
    assert!(ranked[0].1 <= 6, "size {} for {result}", ranked[0].1);
    // Re-run by hand: z3 4.8.7 answers sat and its own model validation fails.
    let z3_4_8_7 = real.get("z3-4.8.7").unwrap();
    let answer = run_solver(&z3_4_8_7.command, &result, scratch.path());
    assert!(answer.starts_with("sat\n"), "{answer}");
    let all = answer;
    assert!(all.contains("an invalid model was generated"), "{all}");
}

/// Arrays formula `index` run with yices 2.6.5 and z3 4.16.0 (its judge), then
/// triaged: the run directory (in `scratch`) and its groups.
fn yices_arrays_triaged(
    scratch: &Path,
    index: &str,
) -> (PathBuf, Vec<std::collections::BTreeMap<String, String>>) {
    let pool = test_pool();
    let solvers = vec![named(&pool, "yices-2.6.5"), named(&pool, "z3-4.16.0")];
    let pool_file = write_pool(&scratch.join("pool.toml"), &solvers);
    let dir = scratch.join("arrays");
    let o = et()
        .args([
            "run", "-g", "arrays", "--start", index, "--n", "1", "--pool",
        ])
        .arg(&pool_file)
        .args(["--timeout", "30", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let o = et()
        .arg("triage")
        .arg(&dir)
        .arg("--pool")
        .arg(&pool_file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let groups = csv_maps(&dir.join("triage/groups.csv"));
    (dir, groups)
}

/// yices 2.6.5's model of arrays formula 56736, `(= a (store a (bvor #x0…0 (bvadd
/// #x1…1 (bvor #x1…1 b))) #x1…1))`, lists one entry of `a` (at #xa2…2) and a default
/// (#xa2…2); the store writes at #x22…2, where the model holds the default. Pinned by
/// its listed entry alone, `a` stays free at #x22…2 and the pinned formula is
/// satisfiable; pinned also at the index the formula writes, it is unsatisfiable (z3
/// says so) and yices still answers `sat`: a wrong `sat`, not a model-printing bug.
#[test]
fn an_array_is_pinned_at_the_indices_the_formula_touches() {
    let scratch = tempfile::tempdir().unwrap();
    let (_, groups) = yices_arrays_triaged(scratch.path(), "56736");
    assert_eq!(groups.len(), 1, "{groups:?}");
    let g = &groups[0];
    assert_eq!(
        (g["kind"].as_str(), g["evidence"].as_str()),
        ("solution_soundness", "pinned-model"),
        "{g:?}"
    );
}

/// An invalid model can hide a wrong `sat`: yices 2.6.5's model of arrays formula 17539
/// does not satisfy it, and with the model's values pinned (b = 0, a[0] = #xa222...) the
/// formula is unsatisfiable (z3 says so; et's evaluation finds it false under the model)
/// while yices still answers `sat`. Shrunk with ground truth, the wrong `sat` needs no
/// array: every step kept yices' `sat`, and the result has one constant, pinned, so et's
/// evaluation alone shows it unsatisfiable. Triage reports it as a wrong `sat`, with
/// evidence `pinned-model`, named by the operators the shrunk formula applies.
#[test]
fn a_pinned_invalid_model_of_yices_is_a_wrong_sat() {
    let scratch = tempfile::tempdir().unwrap();
    let pool = test_pool();
    let (dir, groups) = yices_arrays_triaged(scratch.path(), "17539");
    assert_eq!(groups.len(), 1, "{groups:?}");
    let g = &groups[0];
    assert_eq!(
        (
            g["kind"].as_str(),
            g["evidence"].as_str(),
            g["solver"].as_str()
        ),
        ("solution_soundness", "pinned-model", "yices-2.6.5"),
        "{g:?}"
    );
    // The shrunk formula: no array left, its one constant pinned.
    let formula = &g["formula"];
    assert!(
        !formula.contains("Array") && !formula.contains("select"),
        "{g:?}"
    );
    assert!(
        formula.contains("(assert (= b #x0000000000000000))"),
        "{g:?}"
    );
    assert_eq!(formula.matches("declare-const").count(), 1, "{g:?}");
    // The group is named by what the shrunk formula applies: `store` was the grammar's.
    assert!(
        !g["operators"].contains("store") && g["operators"].contains("bvadd"),
        "{g:?}"
    );
    // et's evaluation: false under its one candidate assignment.
    let script = et_eval::Script::parse(formula).unwrap();
    let b = et_eval::Value::bv(64, 0);
    let truth = et_eval::evaluate(
        &script,
        &et_eval::Assignment::of_values(vec![b]),
        &et_eval::Limits::default(),
    )
    .truth;
    assert!(matches!(truth, et_eval::Truth::False), "{truth:?}");
    let report = std::fs::read_to_string(dir.join("triage/report.md")).unwrap();
    assert!(
        report.contains("et's own evaluation, no other solver"),
        "{report}"
    );
    // The headline counts what to file apart from what not.
    assert!(
        report.contains("**1 group: 1 report to file; not to file: 0 upstream or by design"),
        "{report}"
    );
    // It is what the report's trigger file holds, and yices alone answers `sat` on it.
    let trigger = dir.join("triage/trigger-1.smt2");
    let text = std::fs::read_to_string(&trigger).unwrap();
    assert_eq!(text.trim(), formula.trim());
    let yices = named(&pool, "yices-2.6.5");
    let mut script = tempfile::NamedTempFile::new().unwrap();
    write!(script, "(set-logic QF_ABV)\n{text}").unwrap();
    let o = Command::new(yices.program())
        .arg(script.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "sat",
        "{}",
        show(&o)
    );
}

/// Filing the yices wrong `sat` (`et file`): one report to file, opening with its five
/// lines; its command, run on its file with yices alone, prints exactly the output the
/// report shows; and it leads with a wrong `unsat` on the same terms — the equation's
/// constant replaced by the value et's evaluation gives the other side, true under the
/// pinned value (et's evaluation), on which yices answers `unsat`.
#[test]
fn filing_the_yices_wrong_sat_shows_its_commands_output_and_a_wrong_unsat() {
    let scratch = tempfile::tempdir().unwrap();
    let pool = test_pool();
    let (dir, _) = yices_arrays_triaged(scratch.path(), "17539");
    let out = scratch.path().join("filed");
    let o = et()
        .arg("file")
        .arg(dir.join("triage"))
        .arg("--pool")
        .arg(scratch.path().join("pool.toml"))
        .arg("--out")
        .arg(&out)
        .arg("-q")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("1 to file"),
        "{}",
        show(&o)
    );
    let reports: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md"))
        .collect();
    assert_eq!(reports.len(), 1, "{reports:?}");
    let report = std::fs::read_to_string(&reports[0]).unwrap();
    let header: Vec<&str> = report.lines().skip(2).take(5).collect();
    for (line, field) in header
        .iter()
        .zip(["Input", "Command", "Expected", "Actual", "Releases"])
    {
        assert!(line.starts_with(&format!("- **{field}:**")), "{report}");
    }
    // The command, as the report gives it, on the report's file: yices alone.
    let command = header[1]
        .split('`')
        .nth(1)
        .expect("a command in backquotes")
        .to_string();
    let words: Vec<&str> = command.split(' ').collect();
    assert_eq!(words[0], "yices-smt2", "{command}");
    let yices = named(&pool, "yices-2.6.5");
    let printed = Command::new(yices.program())
        .args(&words[1..])
        .current_dir(&out)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&printed.stdout).trim().to_string();
    assert_eq!(printed, "sat", "{report}");
    let output = report.split("\n## Output\n").nth(1).unwrap();
    let shown = output.split("```").nth(1).unwrap().trim();
    assert_eq!(shown, printed, "{report}");
    // The wrong `unsat`: true under its pinned value by et's evaluation, `unsat` by yices.
    let variant = report
        .split("**A wrong `unsat` too.**")
        .nth(1)
        .and_then(|t| t.split("```smt2\n").nth(1))
        .and_then(|t| t.split("```").next())
        .expect("a wrong-unsat variant")
        .to_string();
    let script = et_eval::Script::parse(&et_core::judging::formula_of(&variant)).unwrap();
    let truth = et_eval::evaluate(
        &script,
        &et_eval::Assignment::of_values(vec![et_eval::Value::bv(64, 0)]),
        &et_eval::Limits::default(),
    )
    .truth;
    assert!(
        matches!(truth, et_eval::Truth::True),
        "{truth:?}\n{variant}"
    );
    let mut file = tempfile::NamedTempFile::new().unwrap();
    write!(file, "{variant}").unwrap();
    let o = Command::new(yices.program())
        .arg(file.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "unsat",
        "{variant}"
    );
}
