//! The promise of the README's two commands: CI runs exactly them, the setup command
//! works as written (no `sudo` in front: a fresh root machine has none; the script asks
//! for it itself when not root), the test command shows every failure, and the test
//! pool is pinned to exact versions, all present.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use et_core::solvers::testing::{test_pool, TEST_POOL_SPECS};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap()
}

/// The commands of the README's "The two commands" block, without their comments.
fn readme_commands() -> Vec<String> {
    let readme = read("README.md");
    let section = readme
        .split("## The two commands")
        .nth(1)
        .expect("README has a section `The two commands`");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sh block in it");
    block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn ci_runs_exactly_the_readme_commands() {
    let commands = readme_commands();
    assert_eq!(commands, ["scripts/setup.sh", "scripts/test.sh"]);
    let ci: Vec<String> = read(".ci/run")
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("scripts/"))
        .map(String::from)
        .collect();
    assert_eq!(ci, commands, ".ci/run runs the README's commands verbatim");
    for script in ["scripts/setup.sh", "scripts/test.sh", ".ci/run"] {
        let mode = std::fs::metadata(repo().join(script))
            .unwrap()
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "{script} is executable");
    }
}

#[test]
fn setup_asks_for_sudo_only_when_not_root() {
    let setup = read("scripts/setup.sh");
    assert!(setup.contains("id -u"), "setup.sh decides on root itself");
    assert!(
        setup.contains("command -v sudo"),
        "and says what to do when neither root nor sudo is there"
    );
}

#[test]
fn the_test_command_reports_every_failure() {
    let test = read("scripts/test.sh");
    assert!(
        test.contains("cargo test --workspace --no-fail-fast"),
        "{test}"
    );
}

#[test]
fn the_test_pool_is_pinned_and_installed() {
    for spec in TEST_POOL_SPECS {
        let (_, version) = spec.split_once('@').unwrap();
        assert!(
            version.split('.').count() == 3 && version.split('.').all(|p| p.parse::<u32>().is_ok()),
            "{spec} is an exact release"
        );
    }
    let pool = test_pool();
    let mut names = pool.names();
    names.sort();
    assert_eq!(
        names,
        [
            "bitwuzla-0.9.1",
            "cvc5-1.4.2",
            "yices-2.6.5",
            "z3-4.16.0",
            "z3-4.8.10",
            "z3-4.8.5",
            "z3-4.8.7",
            "z3-4.8.8"
        ]
    );
}
