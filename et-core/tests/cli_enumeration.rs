//! The enumeration subcommands as a user runs them.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn et(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_et"))
        .args(args)
        .output()
        .expect("et runs")
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/grammars")
        .join(name)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn enumerate_prints_only_formulas() {
    let o = et(&["enumerate", "--grammar", "core", "--n", "5"]);
    assert!(o.status.success());
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[4],
        "(declare-const a Bool) (declare-const b Bool) (assert (not true)) (check-sat)"
    );
    assert!(stderr(&o).is_empty());
}

#[test]
fn enumerate_start_matches_index() {
    let o = et(&[
        "enumerate",
        "-g",
        "strings",
        "--start",
        "123456789012345678",
        "--n",
        "2",
    ]);
    let i = et(&[
        "index",
        "-g",
        "strings",
        "123456789012345678",
        "123456789012345679",
    ]);
    assert!(o.status.success() && i.status.success());
    assert_eq!(stdout(&o), stdout(&i));
}

#[test]
fn closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_et"))
        .args(["enumerate", "-g", "strings", "--n", "100000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.contains("(assert (= \"\" \"\"))"));
    drop(reader);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}", o.status);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn out_dir_writes_one_file_per_index() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("formulas");
    let o = et(&[
        "enumerate",
        "-g",
        "ints",
        "--start",
        "10",
        "--n",
        "3",
        "--out-dir",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["10.smt2", "11.smt2", "12.smt2"]);
    let text = std::fs::read_to_string(dir.join("11.smt2")).unwrap();
    assert_eq!(text, stdout(&et(&["index", "-g", "ints", "11"])));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The file names in `dir`, sorted.
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn out_dir_refuses_to_replace_formula_files_unless_forced() {
    let s = common::Scratch::new();
    let dir = s.join("f");
    std::fs::create_dir(&dir).unwrap();
    // Formula files of someone else's (indices 3 and 1 of the range), and files et does
    // not write: another name, an index written another way, an index out of range.
    for name in ["3.smt2", "1.smt2", "notes.txt", "02.smt2", "9.smt2"] {
        std::fs::write(dir.join(name), "mine").unwrap();
    }
    let d = dir.to_str().unwrap();
    let before = files_in(&dir);
    let o = s.run(&["enumerate", "-g", "core", "--n", "5", "--out-dir", d]);
    assert_eq!(o.status.code(), Some(2), "{}", common::show(&o));
    let err = stderr(&o);
    // One error line, naming the first file that exists.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("et: error: "), "{err}");
    assert!(
        err.contains(&dir.join("1.smt2").display().to_string()),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    // Nothing written.
    assert_eq!(files_in(&dir), before);
    assert_eq!(std::fs::read_to_string(dir.join("1.smt2")).unwrap(), "mine");
    assert!(o.stdout.is_empty());

    // A range that does not meet them needs no --force.
    let o = s.run(&[
        "enumerate",
        "-g",
        "core",
        "--start",
        "4",
        "--n",
        "2",
        "--out-dir",
        d,
    ]);
    assert!(o.status.success(), "{}", common::show(&o));

    // --force replaces them, and leaves what et does not write alone.
    let o = s.run(&[
        "enumerate",
        "-g",
        "core",
        "--n",
        "5",
        "--out-dir",
        d,
        "--force",
    ]);
    assert!(o.status.success(), "{}", common::show(&o));
    assert_eq!(
        files_in(&dir),
        [
            "0.smt2",
            "02.smt2",
            "1.smt2",
            "2.smt2",
            "3.smt2",
            "4.smt2",
            "5.smt2",
            "9.smt2",
            "notes.txt"
        ]
    );
    for i in ["1", "3"] {
        assert_eq!(
            std::fs::read_to_string(dir.join(format!("{i}.smt2"))).unwrap(),
            stdout(&et(&["index", "-g", "core", i]))
        );
    }
    for name in ["notes.txt", "02.smt2", "9.smt2"] {
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), "mine");
    }
}

#[test]
fn out_dir_says_what_it_wrote() {
    let s = common::Scratch::new();
    let dir = s.join("formulas");
    let d = dir.to_str().unwrap();
    let o = s.run(&[
        "enumerate",
        "-g",
        "ints",
        "--start",
        "10",
        "--n",
        "3",
        "--out-dir",
        d,
    ]);
    assert!(o.status.success(), "{}", common::show(&o));
    assert!(o.stdout.is_empty());
    // One line on stderr: how many files, which, and where.
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    let line = lines[0];
    assert!(line.starts_with("et: "), "{line}");
    for said in ["3 ", "10.smt2", "12.smt2", d] {
        assert!(line.contains(said), "`{said}` not in: {line}");
    }
    assert_eq!(files_in(&dir), ["10.smt2", "11.smt2", "12.smt2"]);

    // Replacing says how many it replaced.
    let o = s.run(&[
        "enumerate",
        "-g",
        "ints",
        "--start",
        "11",
        "--n",
        "1",
        "--out-dir",
        d,
        "--force",
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("1 ") && err.contains("11.smt2") && err.contains("replacing 1"),
        "{err}"
    );

    // --force means nothing without --out-dir: refused.
    let o = s.run(&["enumerate", "-g", "ints", "--n", "1", "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", common::show(&o));
}

#[test]
fn finite_language_end() {
    let tiny = fixture("tiny.pest");
    let o = et(&["enumerate", "-g", &tiny, "--n", "10"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().count(), 3);
    assert!(stderr(&o).contains("has only 3 formulas"), "{}", stderr(&o));
    let o = et(&["index", "-g", &tiny, "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("which has 3 formulas"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn count_agrees_with_index_boundaries() {
    let o = et(&["count", "-g", "core", "--max-size", "7"]);
    let rows: Vec<Vec<String>> = stdout(&o)
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    assert_eq!(rows[0], ["4", "4", "4"]);
    assert_eq!(rows[1], ["5", "148", "152"]);
    for row in &rows[..rows.len() - 1] {
        let cumulative: u64 = row[2].parse().unwrap();
        let o = et(&[
            "index",
            "-g",
            "core",
            "--verbose",
            &(cumulative - 1).to_string(),
            &cumulative.to_string(),
        ]);
        let sizes: Vec<String> = stderr(&o)
            .lines()
            .map(|l| l.rsplit(' ').next().unwrap().to_string())
            .collect();
        let k: u32 = row[0].parse().unwrap();
        assert_eq!(sizes, [k.to_string(), (k + 1).to_string()]);
    }
}

#[test]
fn rank_inverts_enumerate_and_names_the_failing_token() {
    let formulas = stdout(&et(&[
        "enumerate",
        "-g",
        "bitvectors",
        "--start",
        "5000",
        "--n",
        "3",
    ]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_et"))
        .args(["rank", "-g", "bitvectors", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Spacing differs from et's own printing: rank ignores it.
    let spaced = formulas.replace("(_ BitVec 64)", "( _  BitVec 64 )");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(spaced.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let indices: Vec<String> = stdout(&o)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert_eq!(indices, ["5000", "5001", "5002"]);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    std::fs::write(
        &file,
        "(declare-const a Bool) (declare-const b Bool) (assert (nand a b)) (check-sat)\n",
    )
    .unwrap();
    let o = et(&["rank", "-g", "core", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("bad.txt:1:") && err.contains("`nand`"),
        "{err}"
    );
}

#[test]
fn rank_prints_every_result_before_a_bad_line() {
    // 100,000 good lines then a bad one: every good line's index is printed (the
    // buffered output is written out before the error), then the error, exit 2.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("formulas.txt");
    let mut text = stdout(&et(&["enumerate", "-g", "core", "--n", "100000"]));
    text.push_str("(assert (nand a b))\n");
    std::fs::write(&file, text).unwrap();
    let o = et(&["rank", "-g", "core", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 100_000);
    assert_eq!(lines[99_999].split('\t').next(), Some("99999"));
    assert!(
        stderr(&o).contains("formulas.txt:100001:"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn sample_is_reproducible_and_in_part() {
    let run = |seed: &str| {
        et(&[
            "sample",
            "-g",
            "fp",
            "--size",
            "9",
            "--n",
            "20",
            "--seed",
            seed,
            "--verbose",
        ])
    };
    let (a, b, c) = (run("1"), run("1"), run("2"));
    assert_eq!(stdout(&a), stdout(&b));
    assert_ne!(stdout(&a), stdout(&c));
    // Every sampled formula ranks into part 9.
    let mut child = Command::new(env!("CARGO_BIN_EXE_et"))
        .args(["rank", "-g", "fp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&a.stdout).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(stdout(&o).lines().count(), 20);
    assert!(
        stdout(&o).lines().all(|l| l.ends_with("\t9")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn grammar_errors_exit_2_with_location() {
    for (file, needle) in [
        (
            "zero_cost_cycle.pest",
            "zero_cost_cycle.pest:3:1: zero-cost cycle: `a` → `b`",
        ),
        (
            "lookahead.pest",
            "lookahead.pest:1:23: rule `start` uses the lookahead `!`",
        ),
        (
            "undefined.pest",
            "undefined.pest:1:23: rule `start` refers to `term`, which is not defined",
        ),
    ] {
        let o = et(&["enumerate", "-g", &fixture(file), "--n", "1"]);
        assert_eq!(o.status.code(), Some(2), "{file}");
        assert!(stderr(&o).contains(needle), "{file}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    let o = et(&["index", "-g", "no-such-grammar", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown grammar `no-such-grammar`"));
}

#[test]
fn bad_index_names_the_value() {
    let o = et(&["index", "-g", "core", "12x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`12x` is not a non-negative integer"));
}

/// Issue 14 item 12: one numeric grammar for every count and index.
#[test]
fn counts_and_indices_share_one_numeric_grammar() {
    // `--n 10^1` is accepted where `--start 10^1` is, and `k*10^j` works for both.
    let o = et(&[
        "enumerate",
        "-g",
        "core",
        "--start",
        "2*10^1",
        "--n",
        "10^1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 10);
    let first = stdout(&et(&["index", "-g", "core", "20"]));
    assert_eq!(stdout(&o).lines().next(), first.lines().next());
    // An empty request is refused, not answered with nothing and exit 0.
    for args in [
        &["enumerate", "-g", "core", "--n", "0"][..],
        &["sample", "-g", "core", "--size", "5", "--n", "0"][..],
    ] {
        let o = et(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("'0'") && stderr(&o).contains("at least 1"),
            "{}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty());
    }
}

/// Issue 14 item 19: one size bound, the same everywhere, refused at once and named.
#[test]
fn requests_beyond_the_bound_are_refused_at_once_naming_it() {
    for args in [
        &["count", "-g", "strings", "--max-size", "100000"][..],
        &["sample", "-g", "strings", "--size", "4097"][..],
    ] {
        let o = et(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("larger than 4096"), "{}", stderr(&o));
    }
    // An index with more digits than any grammar reaches is refused before it is built.
    let o = et(&["index", "-g", "strings", "10^99999999999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more than 20000 digits"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn grammars_lists_the_builtins() {
    let o = et(&["grammars"]);
    let text = stdout(&o);
    for name in [
        "core",
        "ints",
        "reals",
        "realints",
        "bitvectors",
        "arrays",
        "fp",
        "strings",
    ] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name}");
    }
    assert!(text
        .lines()
        .any(|l| l.starts_with("core") && l.contains(" 4 ")));
    // The grammars of scripts, with their smallest size and logic.
    for (name, logic) in [
        ("scripts-ints", "QF_NIA"),
        ("scripts-reals", "QF_NRA"),
        ("scripts-bitvectors", "QF_BV"),
        ("scripts-strings", "QF_SLIA"),
        ("scripts-arrays", "QF_ABV"),
        ("scripts-fp", "QF_FP"),
        ("scripts-uf-ints", "QF_UFLIA"),
    ] {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name}: {text}"));
        let columns: Vec<&str> = line.split_whitespace().collect();
        let smallest = if name == "scripts-uf-ints" { "9" } else { "6" };
        assert_eq!(columns[1..3], [smallest, logic], "{line}");
    }
}

/// Issue 14 item 19: an index beyond the size bound is refused on the magnitudes, before
/// any exact table is built, and the message names the bound.
#[test]
fn an_index_beyond_the_largest_size_is_refused_naming_it() {
    let o = et(&["index", "-g", "strings", "10^10000"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("beyond size 4096") && err.contains("(10001 digits)"),
        "{err}"
    );
    assert!(o.stdout.is_empty());
}

/// Issue 14 item 19c: deep nesting is a clear error, never a stack overflow (exit 134).
#[test]
fn deep_nesting_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let deep = 30_000;
    let formula = format!(
        "(declare-const a Bool) (declare-const b Bool) (assert {}true{}) (check-sat)\n",
        "(not ".repeat(deep),
        ")".repeat(deep)
    );
    let file = dir.path().join("deep.smt2");
    std::fs::write(&file, formula).unwrap();
    let o = et(&["rank", "-g", "core", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("30001 levels deep"), "{}", stderr(&o));

    let grammar = dir.path().join("deep.pest");
    let nested = 7000;
    std::fs::write(
        &grammar,
        format!(
            "start = {{ {}\"x\"{} }}\n",
            "(".repeat(nested),
            ")".repeat(nested)
        ),
    )
    .unwrap();
    let o = et(&["count", "-g", grammar.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("deep.pest:1:266: brackets are nested more than 256"),
        "{}",
        stderr(&o)
    );

    // A formula just within the depth bound but beyond the size bound: refused by size.
    let wide = 4150;
    let formula = format!(
        "(declare-const a Bool) (declare-const b Bool) (assert {}true{}) (check-sat)\n",
        "(not ".repeat(wide),
        ")".repeat(wide)
    );
    std::fs::write(&file, formula).unwrap();
    let o = et(&["rank", "-g", "core", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("size 4154, beyond 4096"),
        "{}",
        stderr(&o)
    );
}

/// Issue 14 item 19b: a huge repeat count is an error at its position, and a long
/// bounded repetition loads and enumerates.
#[test]
fn repeat_counts_are_bounded_and_long_repeats_load() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.pest");
    std::fs::write(&huge, "start = {\n  \"a\"{99999999999999999999999} }\n").unwrap();
    let o = et(&["count", "-g", huge.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("huge.pest:2:6: rule `start` repeats {99999999999999999999999} times: repeat counts are at most 100000"), "{}", stderr(&o));
    let long = dir.path().join("long.pest");
    std::fs::write(
        &long,
        "start = { \"(\" ~ \"a\"{0,100000} ~ \")\" ~ \"(check-sat)\" }\n",
    )
    .unwrap();
    let o = et(&["index", "-g", long.to_str().unwrap(), "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "(a a a) (check-sat)\n");
}

/// Issue 11 item 2: the extended grammars are built in, and 10^275 of the five-variable
/// ints (the published large-formula experiment's smallest index) is in reach.
#[test]
fn extended_grammars_answer_large_indices() {
    let o = et(&["index", "-g", "ints-5v2a", "10^275", "--verbose"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("(declare-const a Int) (declare-const b Int) (declare-const c Int) (declare-const d Int) (declare-const e Int) (assert"), "{text}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_et"))
        .args(["rank", "-g", "ints-5v2a"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let ranked = child.wait_with_output().unwrap();
    let index = stdout(&ranked);
    assert_eq!(
        index.split('\t').next().unwrap(),
        format!("1{}", "0".repeat(275))
    );
}

/// Issue 14 item 19: random access far out stays exact through the speed work on the
/// cardinality tables. Each fixture holds what `et index` printed at a far index
/// before that work (see the fixtures' README); the calls run two at a time.
#[test]
fn far_indices_print_the_recorded_formulas() {
    use num_bigint::BigUint;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/far-indices");
    let mut cases: Vec<(String, String, String)> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(stem) = name.strip_suffix(".smt2") else {
            continue;
        };
        let (grammar, index) = stem.split_once('@').unwrap();
        let (power, offset) = index.split_once('+').unwrap_or((index, "0"));
        let exponent: u32 = power.strip_prefix("1e").unwrap().parse().unwrap();
        let index = BigUint::from(10u32).pow(exponent) + offset.parse::<BigUint>().unwrap();
        let expected = std::fs::read_to_string(&path).unwrap();
        cases.push((grammar.to_string(), index.to_string(), expected));
    }
    assert!(cases.len() >= 13, "fixtures missing in {}", dir.display());
    for pair in cases.chunks(2) {
        let children: Vec<_> = pair
            .iter()
            .map(|(grammar, index, _)| {
                Command::new(env!("CARGO_BIN_EXE_et"))
                    .args(["index", "--grammar", grammar, index])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("et runs")
            })
            .collect();
        for (child, (grammar, index, expected)) in children.into_iter().zip(pair) {
            let o = child.wait_with_output().unwrap();
            assert!(o.status.success(), "{grammar} {index}: {}", stderr(&o));
            assert!(
                stdout(&o) == *expected,
                "{grammar} at index {}: the formula changed",
                &index[..20]
            );
        }
    }
}
