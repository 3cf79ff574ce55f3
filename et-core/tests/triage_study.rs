//! `et triage` on a study with a fault-injecting pool: solvers that wrap the real z3 and
//! are wrong exactly on the formulas that apply a chosen operator, crash two ways, are
//! wrong only on odd attempts, return invalid models or hang. The triage must find
//! exactly the groups those faults imply, in the documented order, with their version
//! ranges and flaky marks, write a report that is well-formed Markdown, and run each
//! formula on each solver once. The study is run as two shards, triaged together.
//!
//! Also: bad input (missing directories, unknown grammars, malformed rows) exits 2 with
//! the offending file and line, and leaves nothing behind.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use et_core::enumeration::{declarations, Enumeration, FormulaParser};
use et_core::grammar::Grammar;
use et_core::solvers::testing::test_pool;
use et_core::solvers::SolverConfig;

use common::{csv_maps, fake_release, show, write_pool};
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

fn et() -> Command {
    Command::new(env!("CARGO_BIN_EXE_et"))
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn study_grammar() -> PathBuf {
    manifest_dir().join("tests/fixtures/grammars/triage-study.pest")
}

/// What report.md holds, as a Markdown parser reads it.
#[derive(Default, Debug)]
struct Structure {
    h1: Vec<String>,
    h2: Vec<String>,
    /// (info string, content) of fenced code blocks.
    blocks: Vec<(String, String)>,
    /// Rows (header included) of each table.
    tables: Vec<usize>,
    html: usize,
}

fn structure(markdown: &str) -> Structure {
    let mut s = Structure::default();
    let mut heading: Option<(HeadingLevel, String)> = None;
    let mut block: Option<(String, String)> = None;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level, String::new())),
            Event::End(TagEnd::Heading(_)) => {
                let (level, text) = heading.take().unwrap();
                match level {
                    HeadingLevel::H1 => s.h1.push(text),
                    HeadingLevel::H2 => s.h2.push(text),
                    _ => {}
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                block = Some((info.to_string(), String::new()))
            }
            Event::End(TagEnd::CodeBlock) => s.blocks.push(block.take().unwrap()),
            Event::Start(Tag::Table(_)) => s.tables.push(0),
            Event::Start(Tag::TableHead) | Event::Start(Tag::TableRow) => {
                *s.tables.last_mut().unwrap() += 1
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text)) = heading.as_mut() {
                    text.push_str(&t);
                } else if let Some((_, text)) = block.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::Html(_) | Event::InlineHtml(_) => s.html += 1,
            _ => {}
        }
    }
    s
}

/// The expected groups, worst first: (kind, family, first, last, operators or crash
/// signature, triggers, status). Derived from the faults (see each solver below) and
/// the truth of the 88 formulas of triage-study.pest (z3 decides them all):
/// - liar 1.0/2.0 answer unsat on formulas with `mod` (12 `=` ones and all 16 `distinct`
///   ones are sat) and sat on `distinct` formulas without `mod` (unsat: 2 plain, 2 with
///   `abs`, 6 with `*`); liar 3.0 keeps only the `distinct` lie.
/// - flaky answers unsat on odd calls on formulas with `abs` (sat: 8 `=`, 6 `distinct`);
///   in the run each formula is on its 1st call, so all 14 lie, and then reproduce once
///   in 2 re-runs: flaky. A family of one version: its newest is affected.
/// - badmodel returns an invalid model on all 32 formulas with `mod`.
/// - crasher aborts at src/fault/arith.cpp:42 on the 16 `abs` formulas, SIGSEGV on the
///   32 with `*` (more formulas: ranked first).
/// - slow hangs on the 2 formulas containing `(distinct (* 1 1) `.
///
/// Groups of one family, kind and range whose formulas apply the same operators beside
/// `=` and `distinct` are one root cause: flaky's `= abs` and `abs distinct` formulas,
/// liar's `= mod` and `distinct mod`, badmodel's. liar's `distinct` lies stay three
/// groups: `*`, `abs`, and nothing beside the comparison.
const EXPECTED: &[(&str, &str, &str, &str, &str, usize, &str)] = &[
    (
        "refutational_soundness",
        "flaky",
        "1.0",
        "1.0",
        "abs",
        14,
        "flaky",
    ),
    (
        "refutational_soundness",
        "liar",
        "1.0",
        "2.0",
        "mod",
        28,
        "confirmed",
    ),
    (
        "solution_soundness",
        "liar",
        "1.0",
        "3.0",
        "* distinct",
        6,
        "confirmed",
    ),
    (
        "solution_soundness",
        "liar",
        "1.0",
        "3.0",
        "distinct",
        2,
        "confirmed",
    ),
    (
        "solution_soundness",
        "liar",
        "1.0",
        "3.0",
        "abs distinct",
        2,
        "confirmed",
    ),
    (
        "invalid_model",
        "badmodel",
        "1.0",
        "1.0",
        "mod",
        32,
        "confirmed",
    ),
    ("crash", "crasher", "1.0", "1.0", "SIGSEGV", 32, "confirmed"),
    (
        "crash",
        "crasher",
        "1.0",
        "1.0",
        "src/fault/arith.cpp:42",
        16,
        "confirmed",
    ),
    (
        "performance",
        "slow",
        "1.0",
        "1.0",
        "* distinct",
        2,
        "confirmed",
    ),
];

#[test]
fn a_fault_injecting_study_triages_into_the_expected_groups() {
    let z3 = test_pool().newest("z3").unwrap().clone();
    let real = z3.program().to_string();
    let scratch = tempfile::tempdir().unwrap();
    let flaky_state = scratch.path().join("flaky-state");
    std::fs::create_dir(&flaky_state).unwrap();
    let home = scratch.path().join("home"); // an empty ET_HOME: only --pool counts
    let solvers = [
        z3.clone(),
        fake_release(
            "liar-1.0",
            "liar",
            "1.0",
            "fault-on.sh",
            &[&real, "mod", "unsat", "distinct", "sat"],
        ),
        fake_release(
            "liar-2.0",
            "liar",
            "2.0",
            "fault-on.sh",
            &[&real, "mod", "unsat", "distinct", "sat"],
        ),
        fake_release(
            "liar-3.0",
            "liar",
            "3.0",
            "fault-on.sh",
            &[&real, "distinct", "sat"],
        ),
        fake_release(
            "crasher-1.0",
            "crasher",
            "1.0",
            "fault-on.sh",
            &[&real, "abs", "assert", "*", "segfault"],
        ),
        fake_release("flaky-1.0", "flaky", "1.0", "flaky.sh", &[&real, "abs"]),
        fake_release(
            "badmodel-1.0",
            "badmodel",
            "1.0",
            "fault-on.sh",
            &[&real, "mod", "invalid-model"],
        ),
        fake_release(
            "slow-1.0",
            "slow",
            "1.0",
            "fault-on.sh",
            &[&real, "distinct (* 1 1)", "hang"],
        ),
    ];
    let pool = write_pool(&scratch.path().join("pool.toml"), &solvers);
    let grammar = study_grammar();
    let with_env = |mut c: Command| {
        c.env("ET_HOME", &home)
            .env("ET_TEST_FLAKY_DIR", &flaky_state);
        c
    };

    // The study as two shards: one triage reads both directories into one report.
    let shards = [
        scratch.path().join("shard-1"),
        scratch.path().join("shard-2"),
    ];
    for (k, shard) in shards.iter().enumerate() {
        let mut run = with_env(et());
        run.args(["run", "--grammar"])
            .arg(&grammar)
            .args(["--n", "88", "--shard", &format!("{}/2", k + 1), "--pool"])
            .arg(&pool)
            .args([
                "--solvers",
                "liar-2.0,crasher-1.0,flaky-1.0,badmodel-1.0,slow-1.0",
                "--reference",
                &z3.name,
                // Generous: z3 answers these in milliseconds even on a loaded machine;
                // only the hanging solver uses it up, and its loop reaches the CPU
                // limit however loaded the machine is.
                "--timeout",
                "30",
                "--cpu-timeout",
                "1",
                "-j",
                "2",
                "-q",
                "--out",
            ])
            .arg(shard);
        let o = run.output().unwrap();
        assert!(o.status.success(), "{}", show(&o));
    }
    let run_dir = &shards[0];

    let mut triage = with_env(et());
    triage
        .arg("triage")
        .args(&shards)
        .arg("--pool")
        .arg(&pool)
        .arg("--grammar")
        .arg(&grammar)
        // Every trigger re-run and ranged: the groups and call counts below are exact
        // (`triage_real.rs` and the test below check the defaults, the smallest
        // formulas of each candidate group).
        .args([
            "--performance-factor",
            "1.5",
            "--confirm",
            "all",
            "--ranged",
            "all",
        ])
        .args(["-j", "2"]);
    let o = triage.output().unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let out = run_dir.join("triage");

    // The groups, their order, ranges and marks.
    let groups = csv_maps(&out.join("groups.csv"));
    let got: Vec<(String, String, String, String, String, usize, String)> = groups
        .iter()
        .map(|g| {
            let what = if g["kind"] == "crash" {
                g["crash_signature"].clone()
            } else {
                g["operators"].clone()
            };
            (
                g["kind"].clone(),
                g["family"].clone(),
                g["first_version"].clone(),
                g["last_version"].clone(),
                what,
                g["triggers"].parse().unwrap(),
                g["status"].clone(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String, String, String, usize, String)> = EXPECTED
        .iter()
        .map(|&(k, f, a, b, w, n, s)| {
            (
                k.into(),
                f.into(),
                a.into(),
                b.into(),
                w.into(),
                n,
                s.into(),
            )
        })
        .collect();
    assert_eq!(got, expected, "{}", show(&o));
    for (i, g) in groups.iter().enumerate() {
        assert_eq!(g["rank"], (i + 1).to_string());
    }
    let liar_newest: Vec<&str> = groups
        .iter()
        .filter(|g| g["family"] == "liar")
        .map(|g| g["affects_newest"].as_str())
        .collect();
    assert_eq!(liar_newest, ["false", "true", "true", "true"]);

    // Every trigger: flaky ones reproduced once in two attempts, the others always.
    let triggers = csv_maps(&out.join("triggers.csv"));
    let total: usize = EXPECTED.iter().map(|e| e.5).sum();
    assert_eq!(triggers.len(), total);
    for t in &triggers {
        let (outcome, reproduced, attempts) = match t["solver"].as_str() {
            "flaky-1.0" => ("flaky", "1", "2"),
            "slow-1.0" => ("confirmed", "1", "1"),
            _ => ("confirmed", "2", "2"),
        };
        assert_eq!(
            (
                t["outcome"].as_str(),
                t["reproduced"].as_str(),
                t["attempts"].as_str()
            ),
            (outcome, reproduced, attempts),
            "{t:?}"
        );
        assert!(!t["group"].is_empty(), "{t:?}");
    }

    // Each formula ran once per solver: correctness triggers × 2 attempts × (solver +
    // reference), and again so on the formula without the declarations it does not
    // use for each confirmed one that has some; the 2 performance triggers ×
    // (reference + solver at 1.5× the timeout), and the 38 liar formulas on liar 1.0
    // and 3.0 for the version ranges; then the reported timeout, `(distinct (* 1 1)
    // a)`: shrinking first declares only `a` (kept: slow 1.0 at the limit, then at 1.5×
    // it and the reference, 3 calls), then asks slow 1.0 its one rewrite, `(distinct 1
    // a)`, once (answered: no step kept), and it is asked again with et's witness
    // pinned; last, each report's command is run once more on its script, for the
    // output the report shows.
    let g = Grammar::from_file(&grammar, "start").unwrap();
    let mut enumeration = Enumeration::new(g.clone());
    let trimmed = triggers
        .iter()
        .filter(|t| t["outcome"] == "confirmed" && t["kind"] != "performance")
        .filter(|t| {
            let term = enumeration.term(&t["index"].parse().unwrap()).unwrap();
            declarations::without_unused(&enumeration.text(&term)).is_some()
        })
        .count();
    assert!(trimmed > 0, "the study's formulas declare `a` and `b`");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    let reports = std::fs::read_dir(out.join("bugs"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "md")
        })
        .count();
    assert!(reports > 0, "the study's groups get reports");
    let calls = (total - 2) * 4 + trimmed * 4 + 2 * 2 + 38 * 2 + 3 + 1 + 1 + reports;
    assert!(
        report.contains(&format!("{calls} solver calls in all")),
        "{report}"
    );

    // The report is Markdown with one section per group, worst first.
    let s = structure(&report);
    assert_eq!(
        s.h1,
        [format!("et triage: 9 bug groups from {total} triggers")]
    );
    assert_eq!(s.h2.len(), 9);
    for (i, (h, e)) in s.h2.iter().zip(EXPECTED).enumerate() {
        assert!(h.starts_with(&format!("{}. {} ", i + 1, e.1)), "{h}");
    }
    assert_eq!(s.html, 0, "no raw HTML: everything is escaped or in code");
    assert_eq!(s.tables[0], 10, "the summary table: a header and 9 groups");
    let smt2: Vec<&String> = s
        .blocks
        .iter()
        .filter(|b| b.0 == "smt2")
        .map(|b| &b.1)
        .collect();
    // One block per group, and the slow group's timeout, shrunk beyond the grammar
    // (to `a` alone declared), shows the formula as found too.
    assert_eq!(smt2.len(), 10);
    for group in &groups {
        // The group's smallest trigger as found, a formula of the grammar, is there.
        let found = smt2.iter().any(|formula| {
            // A trimmed formula reads as the grammar's, its declarations put back.
            FormulaParser::new(&g)
                .declaring(enumeration.first_text())
                .parse(formula)
                .is_ok_and(|term| enumeration.rank(&term).to_string() == group["index"])
        });
        assert!(found, "index {} in\n{report}", group["index"]);
    }
    // A timeout is not a wrong answer: the slow group's answer is said as what it is.
    assert!(
        report.contains("**Answer:** `timeout`, also when re-run"),
        "{report}"
    );
    assert!(!report.contains("**Wrong answer:** `timeout`"), "{report}");
    let commands: Vec<&String> = s
        .blocks
        .iter()
        .filter(|b| b.0 == "sh")
        .map(|b| &b.1)
        .collect();
    assert_eq!(commands.len(), 9);
    for (i, c) in commands.iter().enumerate() {
        assert!(
            c.trim_end().ends_with(&format!("trigger-{}.smt2", i + 1)),
            "{c}"
        );
        assert!(out.join(format!("trigger-{}.smt2", i + 1)).is_file());
    }
    // The command line of a group runs as written, in the triage folder, and lies.
    let liar = with_env(Command::new("sh"))
        .arg("-c")
        .arg(commands[1].trim())
        .current_dir(&out)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&liar.stdout).trim(),
        "unsat",
        "{}",
        show(&liar)
    );

    // A second triage replaces the folder as a whole and leaves no staging folder.
    std::fs::write(out.join("stale.txt"), "from before").unwrap();
    let o = triage.output().unwrap();
    assert!(o.status.success(), "{}", show(&o));
    assert!(!out.join("stale.txt").exists());
    let leftovers: Vec<String> = std::fs::read_dir(run_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".triage"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert_eq!(csv_maps(&out.join("groups.csv")).len(), 9);
}

const HEADER: &str = "grammar,index,size,solver,family,version,status,verdict,reference,\
                      reference_status,time_s,cpu_s,max_rss_kb,exit_code,signal";

/// A run directory with a hand-written manifest and call log.
fn run_dir(root: &Path, grammar: &str, rows: &str) -> PathBuf {
    let dir = root.join(format!("run-{grammar}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("run.toml"),
        format!(
            "et_version = \"0.1.0\"\ngrammar = \"{grammar}\"\nstart = \"0\"\nn = 10\n\
             timeout_s = 1.0\n\n[[solvers]]\nname = \"s\"\nfamily = \"z3\"\nversion = \"1\"\n\
             command = [\"/bin/true\"]\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("runs.csv"), format!("{HEADER}\n{rows}")).unwrap();
    dir
}

fn triage_exit(args: &[&std::ffi::OsStr], home: &Path) -> (Option<i32>, String) {
    let o = et()
        .arg("triage")
        .args(args)
        .env("ET_HOME", home)
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn bad_input_exits_2_naming_the_file_and_writes_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let home = scratch.path().join("home");
    let missing = scratch.path().join("missing");
    let (code, err) = triage_exit(&[missing.as_os_str()], &home);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("missing"), "{err}");

    // A user grammar needs its file.
    let dir = run_dir(
        scratch.path(),
        "mine",
        "mine,3,5,s,z3,1,unsat,unsound,,sat,0.1,0.1,10,0,\n",
    );
    let (code, err) = triage_exit(&[dir.as_os_str()], &home);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("grammar `mine` is not built in") && err.contains("--grammar"),
        "{err}"
    );
    assert!(!dir.join("triage").exists());
    // ... unless its run.toml records the file (as `et run` does for a .pest path).
    let file = scratch.path().join("mine.pest");
    std::fs::copy(manifest_dir().join("../grammars/ints.pest"), &file).unwrap();
    let manifest = std::fs::read_to_string(dir.join("run.toml")).unwrap();
    std::fs::write(
        dir.join("run.toml"),
        manifest.replacen(
            "start = ",
            &format!("grammar_file = {:?}\nstart = ", file.display().to_string()),
            1,
        ),
    )
    .unwrap();
    let (code, err) = triage_exit(&[dir.as_os_str()], &home);
    assert_eq!(code, Some(0), "{err}");
    assert!(dir.join("triage/report.md").is_file());

    // Flag values are refused by their parsers, naming the value.
    for (flag, value) in [
        ("--attempts", "0"),
        ("--performance-factor", "nan"),
        ("--performance-factor", "0.5"),
        ("--jobs", "0"),
    ] {
        let args = [dir.as_os_str(), flag.as_ref(), value.as_ref()];
        let (code, err) = triage_exit(&args, &home);
        assert_eq!(code, Some(2), "{flag} {value}: {err}");
        assert!(err.contains(&format!("'{value}'")), "{flag} {value}: {err}");
    }

    // A malformed row is named by file and line.
    let dir = run_dir(
        scratch.path(),
        "ints",
        "ints,3,5,s,z3,1,unsat,,,sat,0.1,0.1,10,0,\nints,4,5,s,z3,1,unsat,wrong,,sat,0.1,0.1,10,0,\n",
    );
    let (code, err) = triage_exit(&[dir.as_os_str()], &home);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("runs.csv:3") && err.contains("`wrong`"),
        "{err}"
    );

    // An index whose formula does not have the row's size: the wrong grammar.
    let dir = run_dir(
        scratch.path(),
        "core",
        "core,3,9,s,z3,1,unsat,unsound,,sat,0.1,0.1,10,0,\n",
    );
    let (code, err) = triage_exit(&[dir.as_os_str()], &home);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("runs.csv:2") && err.contains("has size 4"),
        "{err}"
    );

    // A reference that is in neither run.toml nor a pool.
    let dir = run_dir(
        scratch.path(),
        "strings",
        "strings,0,5,s,z3,1,unsat,unsound,cvc5-9,sat,0.1,0.1,10,0,\n",
    );
    let (code, err) = triage_exit(&[dir.as_os_str()], &home);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("reference `cvc5-9`") && err.contains("--pool"),
        "{err}"
    );
    assert!(!dir.join("triage").exists());
}

#[test]
fn bisect_and_shrink_refuse_bad_input_with_exit_2() {
    let scratch = tempfile::tempdir().unwrap();
    let home = scratch.path().join("home");
    let formula = scratch.path().join("f.smt2");
    std::fs::write(
        &formula,
        "(declare-const a Int) (declare-const b Int) (assert (= a b)) (check-sat)\n",
    )
    .unwrap();
    let not_ints = scratch.path().join("g.smt2");
    std::fs::write(&not_ints, "(assert (frobnicate a))\n").unwrap();
    let cases: Vec<(Vec<&std::ffi::OsStr>, &str)> = vec![
        (
            vec![
                "bisect".as_ref(),
                formula.as_os_str(),
                "--family".as_ref(),
                "z3".as_ref(),
            ],
            "no solver pool",
        ),
        (
            vec![
                "bisect".as_ref(),
                "missing.smt2".as_ref(),
                "--family".as_ref(),
                "z3".as_ref(),
            ],
            "missing.smt2",
        ),
        (
            vec![
                "shrink".as_ref(),
                not_ints.as_os_str(),
                "-g".as_ref(),
                "ints".as_ref(),
                "--solver".as_ref(),
                "z3".as_ref(),
                "--keep".as_ref(),
                "unsound".as_ref(),
            ],
            "not a formula of grammar `ints`",
        ),
        (
            vec![
                "shrink".as_ref(),
                formula.as_os_str(),
                "-g".as_ref(),
                "ints".as_ref(),
                "--solver".as_ref(),
                "z3".as_ref(),
                "--keep".as_ref(),
                "wrong".as_ref(),
            ],
            "`wrong` is not a verdict",
        ),
    ];
    for (args, message) in cases {
        let o = et().args(&args).env("ET_HOME", &home).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", show(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(message),
            "{}",
            show(&o)
        );
    }
}

#[test]
fn a_run_without_triggers_gives_an_empty_report() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = run_dir(
        scratch.path(),
        "core",
        "core,3,4,s,z3,1,sat,,,sat,0.1,0.1,10,0,\n",
    );
    let o = et()
        .arg("triage")
        .arg(&dir)
        .env("ET_HOME", scratch.path().join("home"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", show(&o));
    let report = std::fs::read_to_string(dir.join("triage/report.md")).unwrap();
    let s = structure(&report);
    assert_eq!(s.h1, ["et triage: 0 bug groups from 0 triggers"]);
    assert!(s.h2.is_empty());
    assert_eq!(csv_maps(&dir.join("triage/groups.csv")).len(), 0);
}

#[test]
fn performance_triggers_are_re_run_on_the_smallest_of_each_candidate_group() {
    let z3 = test_pool().newest("z3").unwrap().clone();
    // Gives up on every formula that applies abs: many `unknown` triggers, several of
    // one operator signature.
    let giveup = fake_release(
        "giveup-1.0",
        "giveup",
        "1.0",
        "fault-on.sh",
        &[z3.program(), "abs", "unknown"],
    );
    let study = PerformanceStudy::run(&[z3.clone(), giveup], &z3.name, 88, &["--timeout", "10"]);
    let unknowns = study.verdicts("unknown");
    assert!(unknowns >= 10, "giveup's unknowns: {unknowns}");

    let triage = |confirm: &str, out: &str| study.triage(out, &["--confirm", confirm]);
    let (groups_one, triggers_one, report_one) = triage("1", "one");
    let (groups_all, triggers_all, report_all) = triage("all", "all");

    // The same groups either way; re-running the smallest of each is enough to form them.
    let shape =
        |groups: &[std::collections::BTreeMap<String, String>]| -> Vec<(String, String, String)> {
            groups
                .iter()
                .map(|g| {
                    (
                        g["operators"].clone(),
                        g["triggers"].clone(),
                        g["status"].clone(),
                    )
                })
                .collect()
        };
    assert_eq!(shape(&groups_one), shape(&groups_all));
    assert!(
        groups_one.iter().any(|g| g["triggers"] != "1"),
        "some candidate group has several triggers: {groups_one:?}"
    );
    // With --confirm 1 exactly one trigger of each candidate group (one operator
    // signature) is re-run (the reference decides every formula, so none is dropped),
    // its smallest; the others are listed, in their group, as not re-run. A group is a
    // root cause that may join candidate groups of the same operators beside the
    // comparisons.
    let number = |t: &std::collections::BTreeMap<String, String>, column: &str| -> usize {
        t[column].parse().unwrap()
    };
    let mut smallest_of_candidate = std::collections::BTreeMap::new();
    for t in &triggers_one {
        let at = (t["group"].clone(), t["operators"].clone());
        let this = (number(t, "size"), number(t, "index"));
        let smallest = smallest_of_candidate.entry(at).or_insert(this);
        *smallest = (*smallest).min(this);
    }
    for g in &groups_one {
        let candidates = smallest_of_candidate
            .keys()
            .filter(|(group, _)| group == &g["rank"])
            .count();
        assert_eq!(number(g, "confirmed"), candidates, "{g:?}");
        assert_eq!(
            number(g, "not_rerun"),
            number(g, "triggers") - candidates,
            "{g:?}"
        );
    }
    for g in &groups_all {
        assert_eq!(g["confirmed"], g["triggers"], "{g:?}");
        assert_eq!(g["not_rerun"], "0", "{g:?}");
    }
    assert_eq!(triggers_one.len(), unknowns);
    for t in &triggers_one {
        assert!(!t["group"].is_empty(), "{t:?}");
        let smallest = smallest_of_candidate[&(t["group"].clone(), t["operators"].clone())];
        let expected = if (number(t, "size"), number(t, "index")) == smallest {
            "confirmed"
        } else {
            "not_rerun"
        };
        assert_eq!(t["outcome"], expected, "{t:?}");
    }
    assert!(triggers_all.iter().all(|t| t["outcome"] == "confirmed"));
    // giveup's family has no answer checks: nothing to re-run without them.
    assert!(triggers_all
        .iter()
        .all(|t| t["unchecked_answer"].is_empty()));
    // giveup's only release gives up on them: a limitation, said once in the summary.
    let ranks: Vec<&str> = groups_all.iter().map(|g| g["rank"].as_str()).collect();
    assert!(
        report_all.contains(&format!(
            "Given up in every release: every installed release that ran the smallest \
             formula of group{} {} fails to decide it (answers `unknown`",
            if ranks.len() == 1 { "" } else { "s" },
            ranks.join(", ")
        )),
        "{report_all}"
    );
    // A limitation is listed once per family and operators, never a report to file.
    let out = study.dir.join("all");
    let limitations = std::fs::read_to_string(out.join("limitations.md")).unwrap();
    let rows: Vec<&str> = limitations
        .lines()
        .filter(|l| l.starts_with("| giveup |"))
        .collect();
    assert_eq!(rows.len(), groups_all.len(), "{limitations}");
    assert!(rows.iter().all(|r| r.contains("abs")), "{limitations}");
    let reports = std::fs::read_dir(out.join("bugs")).unwrap().count();
    assert_eq!(reports, 0, "no report for a limitation");
    // Each re-run is the reference's call and the solver's (giveup has one release,
    // so nothing is ranged).
    for (report, rerun) in [
        (&report_one, smallest_of_candidate.len()),
        (&report_all, unknowns),
    ] {
        assert!(
            report.contains(&format!("{} solver calls in all", 2 * rerun)),
            "{report}"
        );
    }
}

#[test]
fn a_performance_finding_is_re_run_without_the_solvers_answer_checks() {
    let pool = test_pool();
    let z3 = pool.newest("z3").unwrap().clone();
    let cvc5 = pool.newest("cvc5").unwrap().clone();
    // A z3 that never answers a formula applying abs while it validates its models,
    // and is the real z3 otherwise: slow only while it checks its answer.
    let slow = fake_release(
        "slowcheck-1.0",
        "z3",
        "1.0",
        "slow-check.sh",
        &[z3.program(), "abs", "model_validate=true"],
    );
    let study = PerformanceStudy::run(
        &[cvc5.clone(), slow],
        &cvc5.name,
        40,
        // The loop reaches the CPU limit however loaded the machine is.
        &["--mode", "fresh", "--timeout", "30", "--cpu-timeout", "1"],
    );
    assert!(study.verdicts("timeout") >= 1, "no timeout verdict");
    let (_, triggers, report) =
        study.triage("triage", &["--confirm", "1", "--performance-factor", "1.5"]);
    let out = study.dir.join("triage");
    // The smallest trigger was confirmed (still no answer at 1.5x the timeout), then
    // answered at once without model_validate=true.
    let confirmed: Vec<_> = triggers
        .iter()
        .filter(|t| t["outcome"] == "confirmed")
        .collect();
    assert_eq!(confirmed.len(), 1, "{triggers:?}");
    let unchecked = &confirmed[0]["unchecked_answer"];
    assert!(
        unchecked.starts_with("sat in ") || unchecked.starts_with("unsat in "),
        "{confirmed:?}"
    );
    assert!(triggers
        .iter()
        .filter(|t| t["outcome"] != "confirmed")
        .all(|t| t["unchecked_answer"].is_empty()));
    assert!(
        report.contains("Slow only while checking: the solver of performance group 1 "),
        "{report}"
    );
    assert!(
        report.contains("without its answer checks (`model_validate=true`) it answers"),
        "{report}"
    );
    // The report to file says it too.
    let bugs: Vec<_> = std::fs::read_dir(out.join("bugs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert_eq!(bugs.len(), 1);
    assert!(
        bugs[0].contains("it is slow only while it checks its answer"),
        "{}",
        bugs[0]
    );
    // The check is what is slow: the report's command keeps it.
    assert!(
        !bugs[0].contains("`model_validate=true` of the options et gives every call"),
        "{}",
        bugs[0]
    );
}

/// A run of the study grammar whose first solver of the pool is the reference and the
/// second the solver under test (a fault solver whose findings are performance ones),
/// in a scratch directory of its own.
struct PerformanceStudy {
    _scratch: tempfile::TempDir,
    home: PathBuf,
    pool: PathBuf,
    dir: PathBuf,
}

/// What a triage wrote: groups.csv, triggers.csv, report.md.
type Triaged = (
    Vec<std::collections::BTreeMap<String, String>>,
    Vec<std::collections::BTreeMap<String, String>>,
    String,
);

impl PerformanceStudy {
    /// `et run` of the first `n` formulas with `args` (limits, mode) added.
    fn run(solvers: &[SolverConfig], reference: &str, n: usize, args: &[&str]) -> Self {
        let scratch = tempfile::tempdir().unwrap();
        let home = scratch.path().join("home");
        let pool = write_pool(&scratch.path().join("pool.toml"), solvers);
        let dir = scratch.path().join("run");
        let o = et()
            .args(["run", "--grammar"])
            .arg(study_grammar())
            .args(["--n", &n.to_string(), "--pool"])
            .arg(&pool)
            .args(["--solvers", &solvers[1].name, "--reference", reference])
            .args(args)
            .args(["-j", "2", "-q", "--out"])
            .arg(&dir)
            .env("ET_HOME", &home)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", show(&o));
        PerformanceStudy {
            _scratch: scratch,
            home,
            pool,
            dir,
        }
    }

    /// Rows of runs.csv with this verdict.
    fn verdicts(&self, verdict: &str) -> usize {
        csv_maps(&self.dir.join("runs.csv"))
            .iter()
            .filter(|r| r["verdict"] == verdict)
            .count()
    }

    /// `et triage` of the run into `out` (inside the run directory) with `args` added.
    fn triage(&self, out: &str, args: &[&str]) -> Triaged {
        let out = self.dir.join(out);
        let o = et()
            .arg("triage")
            .arg(&self.dir)
            .arg("--pool")
            .arg(&self.pool)
            .arg("--grammar")
            .arg(study_grammar())
            .args(args)
            .args(["-j", "2", "--out"])
            .arg(&out)
            .env("ET_HOME", &self.home)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", show(&o));
        (
            csv_maps(&out.join("groups.csv")),
            csv_maps(&out.join("triggers.csv")),
            std::fs::read_to_string(out.join("report.md")).unwrap(),
        )
    }
}
