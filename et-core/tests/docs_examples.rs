//! Every example the README, the user guide (`docs/*.md`) and each `--help` show runs
//! as shown on the test pool, and exits 0 (or the code its comment names: `# ... exit
//! 3`).
//!
//! What is an example, read from the files and help texts themselves:
//!
//! * In markdown, a fenced ```` ```sh ```` block whose line before is `<!-- example -->`.
//!   Every command of it runs, in order, in one scratch directory of its own: a chain
//!   (a run, then its triage) works as a reader would type it. A ```` ```sh ```` block
//!   that is not run says why on its line before: `<!-- not run: REASON -->` (a
//!   campaign of hours, a Slurm cluster). A block with neither fails this test, so a
//!   new block is a choice.
//! * In `--help`, the `Examples:` section of `et` and of every subcommand, each text's
//!   examples in order in a scratch directory of its own.
//!
//! A command runs with `bash -o pipefail -c`, `et` (this build) first on `PATH`, `z3` and
//! `cvc5` the test pool's newest, `HOME` a scratch home, and `ET_HOME` a scratch home
//! whose pool file is the test pool's: what et writes into its home (option catalogs,
//! `et solvers add`) stays in the scratch directory, and the test pool is only read.
//! Commands that reach beyond the machine are never run: [`OUTSIDE`] says which and why.
//!
//! The files examples name as the reader's own — `bug.smt2` (a trigger file et wrote),
//! `my.pest`, pool files, run directories such as `results/core` — are the [`World`]'s:
//! made once by et itself on the test pool, and copied into each scratch directory
//! whose examples name them and do not make them.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{copy_dir, show, write_pool, Scratch};
use et_core::solvers::testing::test_pool;

/// Commands the tests cannot run, by what they contain, and why.
const OUTSIDE: &[(&str, &str)] = &[
    (
        "et solvers install",
        "downloads releases from PyPI into $ET_HOME (tests/solvers_pool.rs installs into \
         scratch homes)",
    ),
    ("et solvers versions", "asks PyPI"),
    (
        "et slurm ",
        "needs a Slurm cluster (tests/slurm.rs runs `et slurm` on a local one)",
    ),
];

/// The markdown files whose `sh` blocks are examples or say why not.
fn markdown_files() -> Vec<PathBuf> {
    let root = repo();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// One place that shows examples: a marked block of a markdown file, or a `--help`.
#[derive(Debug)]
struct Source {
    /// `README.md:84`, `et solvers add --help`.
    name: String,
    /// Its commands, in order, continuation lines joined.
    commands: Vec<String>,
}

/// What the markdown files hold: the marked blocks, and the `sh` blocks that are
/// neither marked nor say why they are not run.
struct Markdown {
    examples: Vec<Source>,
    unmarked: Vec<String>,
}

fn read_markdown() -> Markdown {
    let mut examples = Vec::new();
    let mut unmarked = Vec::new();
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file.strip_prefix(repo()).unwrap().display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let Some(lang) = lines[i].strip_prefix("```") else {
                i += 1;
                continue;
            };
            let start = i;
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].starts_with("```"))
                .unwrap_or_else(|| panic!("{shown}:{}: a fence that is not closed", i + 1));
            i = end + 1;
            if !matches!(lang.trim(), "sh" | "bash" | "shell") {
                continue;
            }
            let before = if start > 0 {
                lines[start - 1].trim()
            } else {
                ""
            };
            let place = format!("{shown}:{}", start + 1);
            if before == "<!-- example -->" {
                examples.push(Source {
                    name: place,
                    commands: commands(&lines[start + 1..end]),
                });
            } else if !(before.starts_with("<!-- not run: ") && before.ends_with("-->")) {
                unmarked.push(place);
            }
        }
    }
    Markdown { examples, unmarked }
}

/// The commands of example lines: `\`-continued lines joined, blank lines and whole-line
/// comments left out.
fn commands(lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in lines {
        let line = line.trim();
        if current.is_empty() && (line.is_empty() || line.starts_with('#')) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head.trim_end());
                current.push(' ');
            }
            None => {
                current.push_str(line);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    assert!(
        current.is_empty(),
        "a continuation line ends the block: {current}"
    );
    out
}

/// `et ARGS`, in no particular directory, for its help texts.
fn et_output(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_et"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The examples of `et --help` and of every subcommand's `--help`, found through the
/// `Commands:` sections.
fn help_sources() -> Vec<Source> {
    let mut sources = Vec::new();
    let mut queue: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = queue.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let o = et_output(&args);
        assert!(o.status.success(), "et {args:?}: {}", show(&o));
        let help = String::from_utf8(o.stdout).unwrap();
        // A subcommand's line is indented by two; a description wrapped to the
        // terminal's width goes on under it, indented further.
        let subcommands = section(&help, "Commands:")
            .into_iter()
            .filter(|l| !l[2..].starts_with(' '));
        for sub in subcommands {
            let name = sub.split_whitespace().next().unwrap().to_string();
            if name != "help" {
                let mut deeper = path.clone();
                deeper.push(name);
                queue.push(deeper);
            }
        }
        let examples = section(&help, "Examples:");
        let lines: Vec<&str> = examples.iter().map(String::as_str).collect();
        sources.push(Source {
            name: format!(
                "et {}--help",
                path.iter().map(|p| format!("{p} ")).collect::<String>()
            ),
            commands: commands(&lines),
        });
    }
    sources.sort_by(|a, b| a.name.cmp(&b.name));
    sources
}

/// The indented lines under a heading line of a help text, up to the next blank line.
fn section(help: &str, heading: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim_end() != heading)
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::to_string)
        .collect()
}

/// Why a command is not run, if it reaches beyond the machine.
fn outside(command: &str) -> Option<&'static str> {
    OUTSIDE
        .iter()
        .find(|(what, _)| command.contains(what))
        .map(|(_, why)| *why)
}

/// The exit code a command's comment documents (`# ... exit 3`), else 0.
fn expected_code(command: &str) -> i32 {
    let Some((_, comment)) = command.rsplit_once(" # ") else {
        return 0;
    };
    let words: Vec<&str> = comment.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "exit")
        .and_then(|w| {
            w[1].trim_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// Whether `text` names `word` as a path: not as part of a longer name (`pool.toml` is
/// not named by `my-pool.toml`, `results/core` not by `results/core-400`); a word that
/// ends in `-` or `/` names whatever follows it (`results/core-shard-*`).
fn names(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    let open_end = word.ends_with(['-', '/']);
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(part) && (open_end || !after.is_some_and(part))
    })
}

/// Whether one of `commands` makes `path` itself (`--out results/core`, `> bug.smt2`).
fn makes(commands: &[String], path: &str) -> bool {
    commands.iter().any(|c| {
        let words: Vec<&str> = c.split_whitespace().collect();
        words.windows(2).any(|w| {
            matches!(w[0], "--out" | "--out-dir" | ">") && w[1].trim_end_matches('/') == path
        })
    })
}

/// The directories of one scratch area: where commands run, `HOME`, `ET_HOME`.
struct Place {
    work: PathBuf,
    home: PathBuf,
    et_home: PathBuf,
}

impl Place {
    /// A new place `name` inside the scratch directory: a home with the folders the
    /// examples write into (completion and man page folders, `~/.cache/et`), a reader's
    /// own solver files (`~/et/solvers.cfg`) and local builds (`~/src/...`), and an
    /// `ET_HOME` whose pool file is the test pool's.
    fn new(s: &Scratch, name: &str) -> Place {
        let root = s.join(name);
        let place = Place {
            work: root.join("work"),
            home: root.join("home"),
            et_home: root.join("et-home"),
        };
        for dir in [
            ".local/share/bash-completion/completions",
            ".local/share/man/man1",
            ".zfunc",
            ".config/fish/completions",
            ".cache/et",
        ] {
            std::fs::create_dir_all(place.home.join(dir)).unwrap();
        }
        std::fs::create_dir_all(&place.work).unwrap();
        std::fs::create_dir_all(&place.et_home).unwrap();
        write_pool(&place.et_home.join("pool.toml"), &test_pool().solvers);
        std::fs::create_dir_all(place.home.join("et")).unwrap();
        std::fs::write(place.home.join("et/solvers.cfg"), solvers_cfg()).unwrap();
        // Local builds, as `et solvers add` examples name them: the test pool's programs.
        for (build, solver) in [
            (
                "src/yices2/build/x86_64-pc-linux-gnu-release/bin/yices_smt2",
                "yices-2.6.5",
            ),
            ("src/z3/build/z3", "z3-4.16.0"),
            ("src/mathsat/bin/mathsat", "z3-4.16.0"),
        ] {
            wrapper(&place.home.join(build), solver);
        }
        place
    }

    /// Runs `command` here (see the module's comment); its output.
    fn run(&self, s: &Scratch, command: &str) -> Output {
        let path = format!(
            "{}:{}:{}",
            Path::new(env!("CARGO_BIN_EXE_et"))
                .parent()
                .unwrap()
                .display(),
            s.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("bash")
            .args(["-o", "pipefail", "-c", command])
            .current_dir(&self.work)
            .env("PATH", path)
            .env("HOME", &self.home)
            .env("ET_HOME", &self.et_home)
            .env("TMPDIR", s.join("tmp"))
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .stdin(Stdio::null())
            // Some examples print 10^6 formulas: nothing reads them.
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap()
    }
}

/// An executable script at `path` that runs the test pool's `solver` with its arguments.
fn wrapper(path: &Path, solver: &str) {
    let program = common::solver(solver).program().to_string();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\nexec '{program}' \"$@\"\n")).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

/// ET's `solvers.cfg` of three solvers of the test pool (one per line: program, options).
fn solvers_cfg() -> String {
    ["z3-4.8.5", "z3-4.16.0", "cvc5-1.4.2"]
        .iter()
        .map(|name| common::solver(name).command.join(" ") + "\n")
        .collect()
}

/// A file or directory examples name as the reader's own.
struct Item {
    /// Its path in a scratch directory's work folder.
    path: &'static str,
    /// What names it in an example (see [`names`]).
    named_by: &'static str,
}

/// Everything the [`World`] can provide, in the order it is made (later ones may use
/// earlier ones).
const ITEMS: &[Item] = &[
    Item {
        path: "my.pest",
        named_by: "my.pest",
    },
    Item {
        path: "grammars",
        named_by: "grammars/",
    },
    Item {
        path: "formulas.txt",
        named_by: "formulas.txt",
    },
    Item {
        path: "pool.toml",
        named_by: "pool.toml",
    },
    Item {
        path: "my-pool.toml",
        named_by: "my-pool.toml",
    },
    Item {
        path: "mysolver.toml",
        named_by: "mysolver.toml",
    },
    Item {
        path: "solvers.cfg",
        named_by: "solvers.cfg",
    },
    Item {
        path: "bug.smt2",
        named_by: "bug.smt2",
    },
    Item {
        path: "results/core",
        named_by: "results/core",
    },
    Item {
        path: "results/core-shard-1",
        named_by: "results/core-shard-",
    },
    Item {
        path: "results/core-shard-2",
        named_by: "results/core-shard-",
    },
    Item {
        path: "results/ints",
        named_by: "results/ints",
    },
    Item {
        path: "results/strings",
        named_by: "results/strings",
    },
    Item {
        path: "results/mine",
        named_by: "results/mine",
    },
    Item {
        path: "results/evolution/runs",
        named_by: "results/evolution/",
    },
];

/// The reader's own files, made on first need by et itself on the test pool.
struct World {
    place: Place,
    made: Vec<&'static str>,
}

impl World {
    fn new(s: &Scratch) -> World {
        World {
            place: Place::new(s, "world"),
            made: Vec::new(),
        }
    }

    /// Runs `command` to make the world; it must succeed.
    fn make(&self, s: &Scratch, command: &str) {
        let o = self.place.run(s, command);
        assert!(
            o.status.success(),
            "making the examples' files: `{command}`: {}",
            show(&o)
        );
    }

    /// Makes `item` (and what it is made from) unless it is there.
    fn provide(&mut self, s: &Scratch, item: &'static str) -> PathBuf {
        let at = self.place.work.join(item);
        if self.made.contains(&item) {
            return at;
        }
        let solver = |name: &str| common::solver(name);
        let work = &self.place.work;
        match item {
            // The grammar of the guide's first example (docs/grammars.md).
            "my.pest" => std::fs::write(
                &at,
                "//! mylogic: one line describing the grammar.\n//! logic: QF_LIA\n\
                 start     = { decl ~ assert ~ check_sat }\n\
                 decl      = { \"(\" ~ \"declare-const\" ~ \"x\" ~ \"Int\" ~ \")\" }\n\
                 assert    = { \"(\" ~ \"assert\" ~ bool_term ~ \")\" }\n\
                 check_sat = { \"(\" ~ \"check-sat\" ~ \")\" }\n\
                 bool_term = { \"true\" | \"(\" ~ \"not\" ~ bool_term ~ \")\" | \"(\" ~ \"<\" ~ int_term ~ int_term ~ \")\" }\n\
                 int_term  = { \"0\" | \"x\" | \"(\" ~ \"+\" ~ int_term ~ int_term ~ \")\" }\n",
            )
            .unwrap(),
            // The repository's grammars, as in a clone.
            "grammars" => copy_dir(&repo().join("grammars"), &at),
            "formulas.txt" => self.make(s, "et enumerate --grammar core --n 10 > formulas.txt"),
            "pool.toml" => {
                write_pool(&at, &[solver("z3-4.16.0"), solver("cvc5-1.4.2")]);
            }
            "my-pool.toml" => {
                write_pool(&at, &test_pool().solvers);
            }
            "mysolver.toml" => {
                write_pool(&at, &[solver("z3-4.16.0")]);
            }
            "solvers.cfg" => std::fs::write(&at, solvers_cfg()).unwrap(),
            // A trigger file as triage writes it (the formula alone, no `(get-model)`):
            // a formula on which z3 4.8.7's own model check fails though its model
            // satisfies it (a validator false alarm), as `et shrink`'s examples need.
            "bug.smt2" => {
                self.make(
                    s,
                    "et run --grammar ints --start 1864902387054 --n 1 --solvers z3-4.8.7 \
                     --timeout 8 -q --out found && et triage found -q",
                );
                std::fs::copy(work.join("found/triage/trigger-1.smt2"), &at).unwrap();
            }
            "results/core" => {
                self.make(s, "et run --grammar core --n 400 --timeout 8 -q --out results/core")
            }
            "results/core-shard-1" | "results/core-shard-2" => {
                let k = &item[item.len() - 1..];
                self.make(
                    s,
                    &format!(
                        "et run --grammar core --n 400 --timeout 8 -q --shard {k}/2 \
                         --solvers z3-4.16.0,cvc5-1.4.2 --out {item}"
                    ),
                )
            }
            "results/ints" => {
                self.make(s, "et run --grammar ints --n 300 --timeout 8 -q --out results/ints")
            }
            "results/strings" => self.make(
                s,
                "et run --grammar strings --n 200 --timeout 8 -q \
                 --solvers z3-4.16.0,cvc5-1.4.2 --out results/strings",
            ),
            "results/mine" => {
                self.provide(s, "my.pest");
                self.provide(s, "pool.toml");
                self.make(
                    s,
                    "et run --grammar my.pest --n 100 --timeout 8 -q --pool pool.toml \
                     --out results/mine",
                )
            }
            // The committed study, as in a clone.
            "results/evolution/runs" => copy_dir(&repo().join("results/evolution/runs"), &at),
            other => panic!("the world has no {other}"),
        }
        self.made.push(item);
        at
    }
}

/// Runs `source`'s examples in a scratch place of their own; the failures.
fn run_source(s: &Scratch, world: &mut World, index: usize, source: &Source) -> Vec<String> {
    let place = Place::new(s, &format!("example-{index}"));
    let text = source.commands.join("\n");
    for item in ITEMS {
        if names(&text, item.named_by) && !makes(&source.commands, item.path) {
            let from = world.provide(s, item.path);
            let to = place.work.join(item.path);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            if from.is_dir() {
                copy_dir(&from, &to);
            } else {
                std::fs::copy(&from, &to).unwrap();
            }
        }
    }
    let mut failures = Vec::new();
    for command in &source.commands {
        if let Some(why) = outside(command) {
            eprintln!("{}: not run: `{command}`: {why}", source.name);
            continue;
        }
        eprintln!("{}: `{command}`", source.name);
        let o = place.run(s, command);
        let expected = expected_code(command);
        if o.status.code() != Some(expected) {
            let err = String::from_utf8_lossy(&o.stderr);
            let tail: Vec<&str> = err.lines().rev().take(15).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failures.push(format!(
                "{}: `{command}` exited {:?}, not {expected}:\n{}",
                source.name,
                o.status.code(),
                tail.join("\n")
            ));
        }
    }
    failures
}

#[test]
fn every_sh_block_of_the_docs_is_an_example_or_says_why_not() {
    let markdown = read_markdown();
    assert!(
        markdown.unmarked.is_empty(),
        "```sh blocks with neither `<!-- example -->` nor `<!-- not run: REASON -->` on the \
         line before: {:?}",
        markdown.unmarked
    );
    // The quick tour is an example, and the guide's chapters have theirs.
    let readme: Vec<&Source> = markdown
        .examples
        .iter()
        .filter(|e| e.name.starts_with("README.md"))
        .collect();
    // The quick tour, its first finding (a run, then its triage) among them.
    assert!(
        readme.iter().any(|r| {
            r.commands.iter().any(|c| c.starts_with("et run "))
                && r.commands.iter().any(|c| c.starts_with("et triage "))
        }),
        "the quick tour: {:?}",
        markdown.examples
    );
    for chapter in ["eval.md", "triage.md", "pools.md", "reports.md"] {
        assert!(
            markdown.examples.iter().any(|e| e.name.contains(chapter)),
            "docs/{chapter} has no example"
        );
    }
}

#[test]
fn every_help_has_examples_and_they_show_each_command() {
    let sources = help_sources();
    // `et`, its 20 subcommands (`help` aside) and the subcommands of `grammar`,
    // `solvers`, `options` and `slurm`.
    assert!(
        sources.len() >= 30,
        "{:?}",
        sources.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for source in &sources {
        assert!(
            !source.commands.is_empty(),
            "{} has no examples",
            source.name
        );
        for command in &source.commands {
            let kind = command
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ");
            *kinds.entry(kind).or_default() += 1;
        }
    }
    for kind in [
        "et run",
        "et triage",
        "et eval",
        "et shrink",
        "et bisect",
        "et report",
    ] {
        assert!(
            kinds.contains_key(kind),
            "no `{kind}` example in any --help: {kinds:?}"
        );
    }
}

#[test]
fn every_example_runs_as_shown() {
    let s = Scratch::new();
    // `z3` and `cvc5` of the examples (`z3 -model bug.smt2 > z3.out`).
    wrapper(&s.join("bin/z3"), "z3-4.16.0");
    wrapper(&s.join("bin/cvc5"), "cvc5-1.4.2");
    let mut world = World::new(&s);
    let mut sources = read_markdown().examples;
    sources.extend(help_sources());
    let mut failures = Vec::new();
    for (i, source) in sources.iter().enumerate() {
        failures.extend(run_source(&s, &mut world, i, source));
    }
    assert!(
        failures.is_empty(),
        "{} examples failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_marks_are_read_as_documented() {
    let lines = [
        "# a comment line",
        "et run --grammar core \\",
        "    --n 4   # two lines",
        "",
        "et report results/core",
    ];
    assert_eq!(
        commands(&lines),
        [
            "et run --grammar core --n 4   # two lines",
            "et report results/core"
        ]
    );
    assert_eq!(
        expected_code("et run -g core --fail-on unsound   # exit 3: found"),
        3
    );
    assert_eq!(expected_code("et eval bug.smt2 --witness"), 0);
    assert!(names("et run --solvers pool.toml", "pool.toml"));
    assert!(!names("et check --pool my-pool.toml", "pool.toml"));
    assert!(!names("et run --out results/core-400", "results/core"));
    assert!(names("et plot results/core", "results/core"));
    assert!(names(
        "et report results/core-shard-*",
        "results/core-shard-"
    ));
    assert!(makes(
        &["et run -g core --out results/core/".into()],
        "results/core"
    ));
    assert!(makes(&["et index -g ints 7 > bug.smt2".into()], "bug.smt2"));
    assert!(!makes(&["et triage results/core".into()], "results/core"));
    assert!(outside("ET_HOME=/scratch/et et solvers install cvc5@latest").is_some());
    assert!(outside("et solvers list").is_none());
}
