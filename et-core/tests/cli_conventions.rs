//! What every `et` command shares as a user meets it: shell completions and the man
//! page generated from the command line's definition, one message per cause, and the
//! exit codes of bad input.

mod common;

use common::{show, stderr, stdout, Scratch};

const SUBCOMMANDS: [&str; 18] = [
    "grammars",
    "enumerate",
    "index",
    "count",
    "sample",
    "rank",
    "run",
    "eval",
    "report",
    "plot",
    "merge",
    "solvers",
    "slurm",
    "triage",
    "bisect",
    "shrink",
    "completions",
    "man",
];

#[test]
fn completions_list_the_subcommands() {
    let s = Scratch::new();
    // What a shell's script asks et, after `COMPLETE=SHELL`, and et's candidates (the
    // value of each line: zsh adds `:help`, fish a tab and the help).
    let ask = |shell: &str, words: &[&str]| -> Vec<String> {
        let o = s
            .et()
            .env("COMPLETE", shell)
            .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
            .arg("--")
            .args(words)
            .output()
            .unwrap();
        assert!(o.status.success(), "{shell} {words:?}: {}", show(&o));
        stdout(&o)
            .lines()
            .map(|l| l.split([':', '\t']).next().unwrap().to_string())
            .collect()
    };
    for shell in ["bash", "zsh", "fish"] {
        let o = s.run(&["completions", shell]);
        assert!(o.status.success(), "{}", show(&o));
        assert!(!o.stdout.is_empty(), "{shell}: no script");
        let offered = ask(shell, &["et", ""]);
        for sub in SUBCOMMANDS {
            assert!(offered.iter().any(|o| o == sub), "{shell}: no `{sub}`");
        }
        // Flags of a subcommand complete too.
        assert!(
            ask(shell, &["et", "run", "--time"]).contains(&"--timeout".to_string()),
            "{shell}"
        );
    }
    // bash reads the script: it registers a completion function for et
    // (tests/cli_completions.rs completes through it).
    let o = s.run(&["completions", "bash"]);
    let file = s.join("et.bash");
    std::fs::write(&file, &o.stdout).unwrap();
    let check = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p et", file.display()))
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", show(&check));
    assert!(stdout(&check).contains(" -F "), "{}", show(&check));
    // An unknown shell is bad input.
    let o = s.run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn man_is_roff_with_a_section_per_subcommand() {
    let s = Scratch::new();
    let o = s.run(&["man"]);
    assert!(o.status.success(), "{}", show(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH et 1"), "a roff title line");
    assert!(page.contains(".SH NAME"));
    for sub in SUBCOMMANDS {
        let title = format!(".SH \"ET {}\"", sub.to_uppercase());
        assert!(page.contains(&title), "no section {title}");
    }
    // Nested subcommands and the flags and examples of each.
    assert!(page.contains(".SH \"ET SOLVERS INSTALL\""));
    assert!(page.contains("\\-\\-timeout"));
    assert!(page.contains("Examples:"));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn an_output_folder_named_where_a_file_is_is_bad_input() {
    let s = Scratch::new();
    let file = s.join("a-file");
    std::fs::write(&file, "").unwrap();
    let report =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report/core");
    let (file, report) = (file.to_str().unwrap(), report.to_str().unwrap());
    let inside = format!("{file}/x");
    for args in [
        vec!["enumerate", "-g", "core", "--n", "2", "--out-dir", file],
        vec!["enumerate", "-g", "core", "--n", "2", "--out-dir", &inside],
        vec!["plot", report, "--out", file],
        vec!["report", report, "--csv", file],
        vec!["merge", report, "--out", file],
        vec!["triage", report, "--out", file],
    ] {
        let o = s.run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", show(&o));
        let err = stderr(&o);
        assert!(err.starts_with("et: error: "), "{args:?}: {err}");
        assert!(err.contains("a-file"), "{args:?}: {err}");
    }
}

#[test]
fn argument_errors_start_like_every_error_of_et() {
    let s = Scratch::new();
    for args in [
        &["eval", "--bogus"][..],
        &["index", "-g", "core"],
        &["index", "-g", "core", "10^99999999"],
        &["enumerate", "-g", "core", "--n", "0"],
        &["no-such-command"],
    ] {
        let o = s.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", show(&o));
        let err = stderr(&o);
        assert!(err.starts_with("et: error: "), "{args:?}: {err}");
        assert!(
            err.lines().all(|l| !l.starts_with("error:")),
            "{args:?}: {err}"
        );
    }
    // Help and the version are no errors.
    for args in [&["--version"][..], &["eval", "--help"], &["help", "run"]] {
        let o = s.run(args);
        assert!(o.status.success(), "{args:?}: {}", show(&o));
        assert!(!stdout(&o).is_empty() && stderr(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn a_file_that_is_not_there_is_bad_input() {
    let s = Scratch::new();
    let formula = s.join("f.smt2");
    std::fs::write(&formula, "(declare-const a Bool) (assert a) (check-sat)\n").unwrap();
    let missing = s.join("missing");
    let (formula, missing) = (formula.to_str().unwrap(), missing.to_str().unwrap());
    for args in [
        &["eval", missing, "--witness"][..],
        &["eval", missing, "--model", formula],
        &["eval", formula, "--model", missing],
        &["rank", "-g", "core", missing],
        &["solvers", "convert", missing],
    ] {
        let o = s.run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", show(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with("et: error: ") && err.contains(missing),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn each_cause_of_an_error_is_said_once() {
    let s = Scratch::new();
    let file = s.join("a-file");
    std::fs::write(&file, "").unwrap();
    let inside = format!("{}/x", file.display());
    let said_once = |o: &std::process::Output| {
        let err = stderr(o);
        let lines: Vec<&str> = err.lines().collect();
        assert!(!lines.is_empty());
        for (i, line) in lines.iter().enumerate() {
            let text = line.trim_start().trim_start_matches("caused by: ");
            assert!(
                lines[..i].iter().all(|l| !l.contains(text)),
                "`{text}` said twice: {err}"
            );
        }
    };
    said_once(&s.run(&["enumerate", "-g", "core", "--n", "2", "--out-dir", &inside]));
    // A campaign's I/O error quotes its OS error, which is also its source.
    let pool = s.pool_file("pool.toml", &[common::solver("z3-4.16.0")]);
    let cache = s.join("missing/cache.csv");
    let cache = cache.to_str().unwrap();
    let o = s.run(&common::campaign_args(
        "core",
        "2",
        &pool,
        &s.join("run"),
        &["--timeout", "5", "-q", "--reference-cache", cache],
    ));
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    said_once(&o);
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn help_says_what_a_new_run_needs_and_every_grammar() {
    let s = Scratch::new();
    let o = s.run(&["run", "-h"]);
    let help = stdout(&o);
    let usage = help.lines().find(|l| l.starts_with("Usage:")).unwrap();
    for flag in ["--grammar", "--n", "--timeout"] {
        assert!(usage.contains(flag), "{usage}");
    }
    assert!(help.contains("et run --resume --out <DIR>"), "{help}");
    // --grammar names the extensions `et grammars` lists, in every command that takes it.
    let listed = stdout(&s.run(&["grammars"]));
    for command in ["run", "enumerate", "index", "count", "sample", "rank"] {
        let help = stdout(&s.run(&[command, "-h"]));
        assert!(help.contains("NAME-5v2a"), "{command}: {help}");
        assert!(listed.contains("strings-5v2a") && help.contains("strings-5v2a"));
    }
    for sub in SUBCOMMANDS {
        let o = s.run(&[sub, "--help"]);
        assert!(
            stdout(&o).contains("Examples:"),
            "et {sub} --help has no examples"
        );
    }
}

/// Help fits the terminal it is shown in: under an 80-column terminal no line of a
/// subcommand's help is wider (but the usage line, which clap keeps whole).
#[test]
fn help_wraps_to_the_terminal() {
    let s = Scratch::new();
    for sub in [
        &[][..],
        &["run"],
        &["triage"],
        &["report"],
        &["plot"],
        &["solvers", "install"],
        &["shrink"],
        &["eval"],
    ] {
        let mut args: Vec<&str> = sub.to_vec();
        args.push("--help");
        let o = s.et().env("COLUMNS", "80").args(&args).output().unwrap();
        assert!(o.status.success(), "{}", show(&o));
        // clap writes the usage line whole (one command line to copy).
        for line in stdout(&o).lines().filter(|l| !l.starts_with("Usage:")) {
            assert!(line.chars().count() <= 80, "et {args:?}: {line}");
        }
    }
}

/// A run and a triage say what comes next: the commands that follow, and where the
/// reports to file are. A run of one formula says "1 formula", and a judge the user did
/// not name is counted apart in the session line.
#[test]
fn a_run_and_a_triage_say_what_comes_next() {
    let s = Scratch::new();
    let pool = s.pool_file(
        "pool.toml",
        &[common::solver("z3-4.16.0"), common::solver("cvc5-1.4.2")],
    );
    let out = s.join("run");
    let o = s.run(&common::campaign_args(
        "core",
        "1",
        &pool,
        &out,
        &["--timeout", "20", "--solvers", "z3-4.16.0"],
    ));
    assert!(o.status.success(), "{}", show(&o));
    let dir = out.display().to_string();
    assert!(
        stderr(&o).contains(&format!("et triage {dir}")),
        "{}",
        show(&o)
    );
    assert!(
        stderr(&o).contains(&format!("et report {dir}")),
        "{}",
        show(&o)
    );
    assert!(stdout(&o).contains("\n1 formula in "), "{}", show(&o));
    // cvc5 judged z3 without being named under test.
    assert!(
        stdout(&o).contains("2 calls in solver sessions (1 of them by judges not under test"),
        "{}",
        show(&o)
    );
    let o = s.run(&["triage", &dir, "--jobs", "2"]);
    assert!(o.status.success(), "{}", show(&o));
    let last = stderr(&o).lines().last().unwrap_or_default().to_string();
    assert_eq!(last, "et: triage: nothing to file", "{}", show(&o));
}

/// `et grammars | true`: the reader goes away before et prints. That is no error of
/// et's and no panic: et stops as a Unix tool killed by SIGPIPE does (141), quietly —
/// or exits 0 when its output went into the pipe before the reader left.
#[test]
fn a_reader_that_goes_away_is_no_panic() {
    for _ in 0..10 {
        let o = std::process::Command::new("bash")
            .args([
                "-c",
                "\"$0\" grammars | true; echo \"${PIPESTATUS[0]}\" >&2",
            ])
            .arg(env!("CARGO_BIN_EXE_et"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        let status = stderr.lines().last().unwrap_or("").trim().to_string();
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(status == "141" || status == "0", "{stderr}");
    }
}
