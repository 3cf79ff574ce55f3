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

/// What `scripts/setup.sh`'s package step does when packages are missing, run in a
/// scratch directory with a PATH of stand-ins only: `dpkg-query` says nothing is
/// installed, `id -u` answers `uid`, `sudo` is there or not, and `apt-get` and `sudo`
/// only log their command lines (with `DEBIAN_FRONTEND`), so nothing is installed.
/// There is no `cargo` on that PATH, so the script stops right after the package step.
/// Returns the exit code, the log (one line per command run) and stderr.
fn setup_package_step(uid: u32, with_sudo: bool) -> (Option<i32>, Vec<String>, String) {
    let scratch = tempfile::tempdir().unwrap();
    let bin = scratch.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = scratch.path().join("commands.log");
    let stand_in = |name: &str, body: &str| {
        let path = bin.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    stand_in("dpkg-query", "exit 1");
    stand_in("id", &format!("[ \"$1\" = -u ] && echo {uid}"));
    stand_in(
        "apt-get",
        "echo \"apt-get $* DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-}\" >> \"$LOG\"",
    );
    if with_sudo {
        stand_in("sudo", "echo \"sudo $1\" >> \"$LOG\"; exec \"$@\"");
    }
    // The real tools the script needs besides its stand-ins.
    for tool in ["dirname", "grep", "env"] {
        let real = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("no {tool} in /usr/bin or /bin"));
        std::os::unix::fs::symlink(real, bin.join(tool)).unwrap();
    }
    let out = std::process::Command::new("/bin/bash")
        .arg(repo().join("scripts/setup.sh"))
        .env_clear()
        .env("PATH", &bin)
        .env("LOG", &log)
        .env("ET_HOME", scratch.path().join("et-home"))
        .output()
        .unwrap();
    let commands = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), commands, stderr)
}

#[test]
fn setup_as_root_installs_packages_without_sudo() {
    let (code, commands, stderr) = setup_package_step(0, false);
    assert_eq!(commands.len(), 2, "{commands:?}\n{stderr}");
    assert!(commands[0].starts_with("apt-get update"), "{commands:?}");
    assert!(
        commands[1].starts_with("apt-get install -y -qq --no-install-recommends python3 ")
            && commands[1].ends_with("DEBIAN_FRONTEND=noninteractive"),
        "{commands:?}"
    );
    // Then the next step: no cargo on this PATH.
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("cargo not found"), "{stderr}");
}

#[test]
fn setup_as_a_user_installs_packages_through_sudo() {
    let (_, commands, stderr) = setup_package_step(1000, true);
    assert_eq!(
        commands
            .iter()
            .map(|c| c.split(' ').next().unwrap())
            .collect::<Vec<_>>(),
        ["sudo", "apt-get", "sudo", "apt-get"],
        "{commands:?}\n{stderr}"
    );
    assert!(commands[3].starts_with("apt-get install"), "{commands:?}");
}

#[test]
fn setup_as_a_user_without_sudo_says_what_to_do_and_installs_nothing() {
    let (code, commands, stderr) = setup_package_step(1000, false);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(commands.is_empty(), "{commands:?}");
    assert!(
        stderr.contains("run this script as root, or install sudo"),
        "{stderr}"
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
