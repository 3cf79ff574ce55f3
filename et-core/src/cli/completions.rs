//! `et completions SHELL` and `et man`: shell completion scripts and the man page,
//! generated from the clap definition of [`super::Cli`] (so they always list the
//! subcommands and flags `et` takes).

use std::io::Write;
use std::process::ExitCode;

use clap::{Args as ClapArgs, CommandFactory, ValueEnum};

use super::Cli;

/// Print a shell completion script for et on stdout.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et completions bash > ~/.local/share/bash-completion/completions/et
  et completions zsh > ~/.zfunc/_et        # with fpath+=(~/.zfunc) in ~/.zshrc
  et completions fish > ~/.config/fish/completions/et.fish
  source <(et completions bash)            # this bash session only")]
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

/// Runs `et completions`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let shell = match args.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "et", &mut script);
    write_out(&script)
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
