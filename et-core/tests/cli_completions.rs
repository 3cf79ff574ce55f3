//! Shell completion that completes: `--grammar` offers the built-in grammars and `.pest`
//! files, `--solvers`, `--solver` and `--reference` the pool's solvers. Asked the way
//! clap_complete's dynamic mode asks (the script `et completions bash` prints calls et
//! back with `COMPLETE=bash`, the index of the word being completed, and the words), and
//! through bash itself reading that script.

mod common;

use std::path::Path;

use common::{show, solver, stdout, Scratch};
use et_core::builtins::BUILTINS;

/// What et offers for the last word of `line` (which starts with `et`), asked as bash's
/// script asks, in the scratch directory, with `ET_HOME` at `home`.
fn offered(s: &Scratch, home: &Path, line: &[&str]) -> Vec<String> {
    let o = s
        .et()
        .current_dir(s.path())
        .env("ET_HOME", home)
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", (line.len() - 1).to_string())
        .env("_CLAP_IFS", "\n")
        .arg("--")
        .args(line)
        .output()
        .unwrap();
    assert!(o.status.success(), "{line:?}: {}", show(&o));
    stdout(&o).lines().map(String::from).collect()
}

/// [`offered`] without the flags: where a positional argument is completed, the flags
/// of the subcommand are offered beside its values.
fn values_offered(s: &Scratch, home: &Path, line: &[&str]) -> Vec<String> {
    let mut values = offered(s, home, line);
    values.retain(|v| !v.starts_with('-'));
    values
}

fn builtin_names() -> Vec<String> {
    BUILTINS.iter().map(|b| b.name.to_string()).collect()
}

#[test]
fn grammar_flags_offer_the_builtin_grammars_and_pest_files() {
    let s = Scratch::new();
    std::fs::write(s.join("mine.pest"), "").unwrap();
    std::fs::write(s.join("notes.txt"), "").unwrap();
    std::fs::create_dir(s.join("grammars")).unwrap();
    std::fs::write(s.join("grammars/other.pest"), "").unwrap();
    let home = s.join("home");
    let mut expected = builtin_names();
    expected.push("mine.pest".to_string());
    // Every subcommand that takes a grammar, by its long or short flag, or as `et
    // grammar check`'s argument.
    for line in [
        &["et", "run", "--grammar", ""][..],
        &["et", "run", "-g", ""],
        &["et", "enumerate", "--grammar", ""],
        &["et", "index", "-g", ""],
        &["et", "count", "--grammar", ""],
        &["et", "sample", "--grammar", ""],
        &["et", "rank", "-g", ""],
        &["et", "shrink", "bug.smt2", "--grammar", ""],
        &["et", "slurm", "submit", "--grammar", ""],
        &["et", "grammar", "check", ""],
    ] {
        assert_eq!(values_offered(&s, &home, line), expected, "{line:?}");
    }
    // A begun word narrows them; a begun path offers the `.pest` files it leads to.
    assert_eq!(
        offered(&s, &home, &["et", "run", "--grammar", "str"]),
        [
            "strings",
            "strings-5v2a",
            "strings-ints",
            "strings-ints-5v2a"
        ]
    );
    assert_eq!(
        offered(&s, &home, &["et", "enumerate", "-g", "scripts-"]),
        [
            "scripts-ints",
            "scripts-reals",
            "scripts-bitvectors",
            "scripts-strings",
            "scripts-arrays",
            "scripts-fp",
            "scripts-uf-ints"
        ]
    );
    assert_eq!(
        offered(&s, &home, &["et", "enumerate", "-g", "gram"]),
        ["grammars/"]
    );
    assert_eq!(
        offered(&s, &home, &["et", "enumerate", "-g", "grammars/"]),
        ["grammars/other.pest"]
    );
    // `et triage --grammar` takes files only.
    assert_eq!(
        offered(&s, &home, &["et", "triage", "run", "--grammar", ""]),
        ["mine.pest", "grammars/", "tmp/"]
    );
}

#[test]
fn solver_flags_offer_the_pools_solvers() {
    let s = Scratch::new();
    // The default pool, `$ET_HOME/pool.toml`.
    let home = s.join("home");
    std::fs::create_dir(&home).unwrap();
    let names = ["z3-4.8.5", "z3-4.16.0", "cvc5-1.4.2"];
    common::write_pool(&home.join("pool.toml"), &names.map(solver));
    for line in [
        &["et", "run", "--solvers", ""][..],
        &["et", "run", "--reference", ""],
        &["et", "solvers", "check", "--solvers", ""],
        &["et", "bisect", "bug.smt2", "--reference", ""],
        &["et", "shrink", "bug.smt2", "--solver", ""],
        &["et", "eval", "bug.smt2", "--solver", ""],
    ] {
        assert_eq!(offered(&s, &home, line), names, "{line:?}");
    }
    assert_eq!(
        offered(&s, &home, &["et", "run", "--solvers", "z3"]),
        ["z3-4.8.5", "z3-4.16.0"]
    );
    // After a comma, the next name: the names given are not offered again.
    for line in [
        &["et", "run", "--solvers", "z3-4.8.5,"][..],
        &["et", "solvers", "check", "--solvers", "z3-4.8.5,"],
    ] {
        assert_eq!(
            offered(&s, &home, line),
            ["z3-4.8.5,z3-4.16.0", "z3-4.8.5,cvc5-1.4.2"],
            "{line:?}"
        );
    }

    // The pool the line names with `--pool` wins over the default one.
    let other = s.pool_file("other.toml", &[solver("yices-2.6.5")]);
    let other = other.to_str().unwrap();
    for line in [
        &["et", "run", "--pool", other, "--solvers", ""][..],
        &["et", "run", &format!("--pool={other}"), "--reference", ""],
        &["et", "options", "list", "--pool", other, ""],
    ] {
        assert_eq!(values_offered(&s, &home, line), ["yices-2.6.5"], "{line:?}");
    }

    // No pool: nothing offered, and completing installs nothing.
    let empty = s.join("empty-home");
    std::fs::create_dir(&empty).unwrap();
    assert!(offered(&s, &empty, &["et", "run", "--solvers", ""]).is_empty());
    assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);
}

#[test]
fn the_bash_script_completes_through_bash() {
    let s = Scratch::new();
    let home = s.join("home");
    std::fs::create_dir(&home).unwrap();
    common::write_pool(&home.join("pool.toml"), &[solver("z3-4.16.0")]);
    let o = s.run(&["completions", "bash"]);
    assert!(o.status.success(), "{}", show(&o));
    let script = s.join("et.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    // bash reads the script, then completes a line as at a TAB: the function the
    // script registered for `et` is called with the words, and leaves its candidates
    // in COMPREPLY.
    let complete = |words: &[&str]| -> Vec<String> {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let program = format!(
            "source '{}' || exit 1\n\
             function=$(complete -p et | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')\n\
             [ -n \"$function\" ] || exit 1\n\
             COMP_WORDS=({})\n\
             COMP_CWORD={}\n\
             COMP_TYPE=9\n\
             \"$function\" et \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
             printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
            script.display(),
            quoted.join(" "),
            words.len() - 1
        );
        let o = std::process::Command::new("bash")
            .arg("-c")
            .arg(program)
            .current_dir(s.path())
            .env("ET_HOME", &home)
            .env("TMPDIR", s.join("tmp"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{words:?}: {}", show(&o));
        stdout(&o)
            .lines()
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect()
    };
    assert_eq!(complete(&["et", "run", "--grammar", ""]), builtin_names());
    assert_eq!(complete(&["et", "run", "--solvers", "z"]), ["z3-4.16.0"]);
    // Subcommands and flags complete as before.
    assert!(complete(&["et", ""]).contains(&"enumerate".to_string()));
    assert_eq!(complete(&["et", "run", "--time"]), ["--timeout"]);
}

#[test]
fn install_offers_the_families_it_installs() {
    let s = Scratch::new();
    let home = s.join("home");
    assert_eq!(
        values_offered(&s, &home, &["et", "solvers", "install", ""]),
        ["z3", "cvc5", "yices", "bitwuzla", "debian"]
    );
    assert_eq!(
        offered(&s, &home, &["et", "solvers", "install", "z3@"]),
        ["z3@latest", "z3@all"]
    );
    // Nothing was asked of PyPI, nor installed.
    assert!(!home.exists());
}
