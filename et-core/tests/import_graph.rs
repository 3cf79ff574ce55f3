//! et-core's library stays layered: `scripts/import-graph` finds no import running up
//! ARCHITECTURE.md's layers and at most two import cycles inside one folder — and it
//! fails when a changed copy of the sources has either.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs the script over `src` (et-core/src when `None`): its exit status and stdout.
fn import_graph(src: Option<&Path>) -> (Option<i32>, String) {
    let mut command = Command::new("python3");
    command.arg(repo().join("scripts/import-graph"));
    if let Some(src) = src {
        command.arg("--src").arg(src);
    }
    let out = command.output().expect("python3 runs scripts/import-graph");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "the script wrote to stderr: {stderr}");
    (out.status.code(), stdout)
}

/// A copy of et-core/src in a temporary directory, to change.
fn copy_of_sources() -> tempfile::TempDir {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    copy(&repo().join("et-core/src"), dir.path());
    dir
}

fn append(file: &Path, text: &str) {
    let mut content = std::fs::read_to_string(file).unwrap();
    content.push_str(text);
    std::fs::write(file, content).unwrap();
}

#[test]
fn the_library_has_no_import_up_the_layers_and_few_cycles() {
    let (code, stdout) = import_graph(None);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.starts_with("modules: "), "{stdout}");
    assert!(stdout.contains("\narrows up the layers: 0\n"), "{stdout}");
    assert!(!stdout.contains("without a layer"), "{stdout}");
    // The arrows the layering rests on: judging reads the oracle, the oracle reads
    // what a call recorded, installing reads the families.
    for arrow in [
        "judging -> oracle",
        "oracle -> solvers/call",
        "solvers/install -> solvers/family",
    ] {
        assert!(
            stdout.contains(&format!("\n  {arrow}\n")),
            "{arrow}: {stdout}"
        );
    }
}

#[test]
fn an_import_up_the_layers_fails_the_check() {
    let src = copy_of_sources();
    let pool = src.path().join("solvers/pool.rs");
    // Comments and strings are no imports.
    append(
        &pool,
        "\n// use crate::oracle::Status;\nconst _: &str = \"crate::campaign::row\";\n",
    );
    assert_eq!(import_graph(Some(src.path())).0, Some(0));
    append(&pool, "\nuse crate::oracle::Status;\n");
    let (code, stdout) = import_graph(Some(src.path()));
    assert_eq!(code, Some(1), "{stdout}");
    for said in [
        "\narrows up the layers: 1\n  solvers (solvers) -> oracle (oracle): solvers/pool.rs:",
        "FAIL: an arrow runs up the layers",
    ] {
        assert!(stdout.contains(said), "{said:?}: {stdout}");
    }
}

#[test]
fn three_cycles_inside_one_folder_fail_the_check() {
    let src = copy_of_sources();
    // A family reading pools and installs closes three cycles inside solvers/: with
    // the pool (which reads families), with install (which reads families), and
    // through both (install reads pools).
    append(
        &src.path().join("solvers/family/mod.rs"),
        "\nuse super::install::Installer;\nuse super::pool::Pool;\n",
    );
    // The sources as they are may hold a cycle or two already: three more on top.
    let (_, before) = import_graph(None);
    let inside = |stdout: &str| -> usize {
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix("cycles inside one folder: "))
            .unwrap_or_else(|| panic!("a count of cycles inside one folder: {stdout}"));
        line.split(' ').next().unwrap().parse().unwrap()
    };
    let (code, stdout) = import_graph(Some(src.path()));
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(inside(&stdout), inside(&before) + 3, "{stdout}");
    for said in [
        "\narrows up the layers: 0\n",
        "\n  solvers -> solvers/family -> solvers\n",
        "FAIL: more than 2 cycles inside one folder",
    ] {
        assert!(stdout.contains(said), "{said:?}: {stdout}");
    }
}
