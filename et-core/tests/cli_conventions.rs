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
    for shell in ["bash", "zsh", "fish"] {
        let o = s.run(&["completions", shell]);
        assert!(o.status.success(), "{}", show(&o));
        let script = stdout(&o);
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell}: no `{sub}`");
        }
    }
    // bash reads the script: it defines et's completion function and registers it.
    let o = s.run(&["completions", "bash"]);
    let file = s.join("et.bash");
    std::fs::write(&file, &o.stdout).unwrap();
    let check = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {} && complete -p et && declare -F _et",
            file.display()
        ))
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", show(&check));
    assert!(stdout(&check).contains("_et"), "{}", show(&check));
    // Flags of a subcommand complete too.
    assert!(stdout(&o).contains("--timeout"));
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
