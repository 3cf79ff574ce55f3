//! et-core stays layered, file by file, `cli/` included: `scripts/import-graph` finds
//! no import running up ARCHITECTURE.md's layers and no circle of files beyond the
//! ones it knows (its KNOWN_CIRCLES ratchet), and lists the arrows between two
//! commands of `cli/`. It fails when a changed copy of the sources has an arrow up or
//! a new circle.

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

/// The first number of the line that starts with `prefix`.
fn figure(stdout: &str, prefix: &str) -> usize {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("a line {prefix:?}: {stdout}"));
    line.split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("a number after {prefix:?}: {stdout}"))
}

/// A room's line: (circles, files in them, circles allowed, files allowed); (0, 0, 0, 0)
/// for a room that the script does not list (no circle, none known).
fn room(stdout: &str, name: &str) -> (usize, usize, usize, usize) {
    let Some(line) = stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("  {name}: ")))
        .filter(|l| l.contains(" circles, "))
    else {
        return (0, 0, 0, 0);
    };
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    // "C circles, F files, E elementary cycles (at most C' circles, F' files)"
    (numbers[0], numbers[1], numbers[3], numbers[4])
}

#[test]
fn the_sources_have_no_import_up_the_layers_and_no_new_circle() {
    let (code, stdout) = import_graph(None);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.starts_with("files: "), "{stdout}");
    assert!(stdout.contains("\narrows up the layers: 0\n"), "{stdout}");
    assert!(!stdout.contains("without a layer"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
    // Files are the nodes, `cli/` and `main.rs` among them: the binary runs the
    // commands, a command reads the library, judging reads the oracle, the oracle
    // reads what a call recorded.
    for arrow in [
        "main -> cli",
        "cli -> cli/run",
        "cli/triage -> triage",
        "judging/check -> oracle/classify",
        "oracle/classify -> solvers/call",
    ] {
        assert!(
            stdout.contains(&format!("\n  {arrow}\n")),
            "{arrow}: {stdout}"
        );
    }
    for said in [
        "\narrows between commands: ",
        "\ncircles (strongly connected components of more than one file): ",
        "\ncircles per room (limits: KNOWN_CIRCLES",
        "\nrooms over the rule of at most 2 circles: ",
        "\ncircles without the arrows between a folder's mod.rs and its own files: ",
    ] {
        assert!(stdout.contains(said), "{said:?}: {stdout}");
    }
}

#[test]
fn an_import_up_the_layers_fails_the_check() {
    let src = copy_of_sources();
    let pool = src.path().join("solvers/pool.rs");
    // Comments, strings and test code are no imports.
    append(
        &pool,
        "\n// use crate::oracle::Status;\nconst _: &str = \"crate::campaign::row\";\n\
         #[cfg(test)]\nfn fixture() -> crate::oracle::Status {\n    crate::oracle::Status::Sat\n}\n",
    );
    assert_eq!(import_graph(Some(src.path())).0, Some(0));
    append(&pool, "\nuse crate::oracle::Status;\n");
    let (code, stdout) = import_graph(Some(src.path()));
    assert_eq!(code, Some(1), "{stdout}");
    for said in [
        "\narrows up the layers: 1\n  solvers/pool (solvers) -> oracle",
        " (oracle): solvers/pool.rs:",
        "FAIL: an arrow runs up the layers",
    ] {
        assert!(stdout.contains(said), "{said:?}: {stdout}");
    }
}

#[test]
fn a_new_circle_of_files_fails_the_check() {
    let (_, before) = import_graph(None);
    let src = copy_of_sources();
    // cluster/, a room that holds no circle and may hold none: the study reads the
    // Slurm calls, and now they read the study back, a circle of two files.
    append(
        &src.path().join("cluster/slurm.rs"),
        "\nfn studied() -> super::study::Study {\n    super::study::Study::default()\n}\n",
    );
    let (code, stdout) = import_graph(Some(src.path()));
    assert_eq!(code, Some(1), "{stdout}");
    assert_eq!(room(&before, "cluster"), (0, 0, 0, 0), "{before}");
    assert_eq!(room(&stdout, "cluster"), (1, 2, 0, 0), "{stdout}");
    assert_eq!(
        figure(
            &stdout,
            "circles (strongly connected components of more than one file): "
        ),
        figure(
            &before,
            "circles (strongly connected components of more than one file): "
        ) + 1,
        "{stdout}"
    );
    for said in [
        "\narrows up the layers: 0\n",
        "\n  in cluster: 2 files, 1 elementary cycles: cluster/slurm, cluster/study\n",
        "FAIL: a new circle in cluster",
    ] {
        assert!(stdout.contains(said), "{said:?}: {stdout}");
    }
}

#[test]
fn a_file_drawn_into_a_known_circle_counts() {
    let (_, before) = import_graph(None);
    let src = copy_of_sources();
    // triage/known, which group reads and which reads no file of group's circle, is
    // tied to that circle once it reads group back.
    append(
        &src.path().join("triage/known.rs"),
        "\nuse super::group::Finding;\n",
    );
    let (code, stdout) = import_graph(Some(src.path()));
    let (circles, files, max_circles, max_files) = room(&before, "triage");
    let after = room(&stdout, "triage");
    assert_eq!(
        after,
        (circles, files + 1, max_circles, max_files),
        "{stdout}"
    );
    // At its limit (as the ratchet leaves it), one more file fails the check.
    let over = files + 1 > max_files;
    assert_eq!(code, Some(if over { 1 } else { 0 }), "{stdout}");
    assert_eq!(
        stdout.contains("FAIL: a new circle in triage"),
        over,
        "{stdout}"
    );
}

#[test]
fn an_arrow_between_two_commands_is_listed_and_not_failed() {
    let (_, before) = import_graph(None);
    let src = copy_of_sources();
    // `et grammars` reading `et merge`'s module: two commands tied to each other
    // instead of to the library or to the command line's shared files.
    append(
        &src.path().join("cli/grammars.rs"),
        "\nuse super::merge::Args as MergeArgs;\n",
    );
    let (code, stdout) = import_graph(Some(src.path()));
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(
        figure(&stdout, "arrows between commands: "),
        figure(&before, "arrows between commands: ") + 1,
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  cli/grammars -> cli/merge: cli/grammars.rs:"),
        "{stdout}"
    );
    // A shared file of the command line is no command: reading it is no such arrow.
    let src = copy_of_sources();
    append(
        &src.path().join("cli/grammars.rs"),
        "\nuse super::output::Output;\n",
    );
    let (_, stdout) = import_graph(Some(src.path()));
    assert_eq!(
        figure(&stdout, "arrows between commands: "),
        figure(&before, "arrows between commands: "),
        "{stdout}"
    );
}
