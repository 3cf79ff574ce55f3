//! `et options`: a solver release's option catalog, and the configurations et
//! enumerates from it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args as ClapArgs, Subcommand};
use et_core::solvers::options::tactics::{self, TacticSpace};
use et_core::solvers::options::{self, catalog_of, Catalog, Space, MAX_OPTIONS};
use et_core::solvers::{self, Pool, SolverConfig};
use num_bigint::BigUint;

use super::inputs::load_pool;
use super::numeric;
use super::output::{finished, Closed, Output};

/// Flags of `et options`.
#[derive(ClapArgs)]
#[command(
    about = "A solver release's options, and the configurations et enumerates from them",
    long_about = "Reads the options of a pool solver from the solver itself (z3: `z3 -pd`; cvc5 \
1.2 and later: et's C-API driver, `--et-list-options`, which also reads each option's category: \
common, regular, expert or undocumented; any solver: a pool entry's `catalog` file in \
et's catalog line format), caches them under $ET_HOME/cache/options/, and enumerates \
configurations: the family's curated modes first, then every single option set to another \
value, then pairs, and so on; and z3's tactic expressions (`check-sat-using`) over the tactics \
the release lists. `et run --configurations` runs them.",
    after_help = "Examples:
  et options list z3-4.16.0
  et options list cvc5-1.4.2 --enumerated
  et options enumerate z3-4.16.0 --max 2 --n 100
  et options enumerate z3-4.16.0 --start 1000 --n 5 --max 2
  et options tactics z3-4.16.0 --n 20"
)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand)]
enum Sub {
    /// Every option of a solver: name, type, default, allowed values, whether et
    /// enumerates it or why it leaves it out, and the solver's category for it (cvc5:
    /// common, regular, expert or undocumented; `-` when the solver gives none).
    #[command(after_help = "Examples:
  et options list z3-4.16.0
  et options list cvc5-1.4.2 --enumerated
  et options list z3-4.8.5 --pool my-pool.toml")]
    List {
        /// A solver of the pool (`z3-4.16.0`).
        solver: String,
        /// Only the options et enumerates.
        #[arg(long)]
        enumerated: bool,
        /// The pool file (default: $ET_HOME/pool.toml).
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
    },
    /// Configurations of a solver in enumeration order, with their index, name and
    /// options: curated modes first, then fewest options first.
    #[command(after_help = "Examples:
  et options enumerate z3-4.16.0 --max 2 --n 100
  et options enumerate z3-4.16.0 --start 40 --n 10
  et options enumerate cvc5-1.4.2 --max 1 --n 1000000 | wc -l")]
    Enumerate {
        /// A solver of the pool (`z3-4.16.0`).
        solver: String,
        /// Most options a configuration sets (1 to 8).
        #[arg(long, default_value_t = 1, value_parser = max_options)]
        max: usize,
        /// How many configurations to print.
        #[arg(long, default_value = "100", value_parser = numeric::count)]
        n: u64,
        /// Index of the first configuration.
        #[arg(long, default_value = "0", value_parser = numeric::index)]
        start: BigUint,
        /// The pool file (default: $ET_HOME/pool.toml).
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
    },
    /// Tactic expressions of a release (z3: read from `(help-tactic)`) in enumeration
    /// order, with their index, configuration name and expression: each tactic then
    /// smt, the same under or-else/try-for, under par-or, each tactic with one Boolean
    /// parameter flipped, then pairs. `et run --configurations SOLVER:tactics:N` runs
    /// the first N, each formula checked with `(check-sat-using EXPRESSION)`.
    #[command(after_help = "Examples:
  et options tactics z3-4.16.0 --n 20
  et options tactics z3-4.16.0 --start 500 --n 5
  et options tactics z3-4.16.0 --n 1000000 | wc -l")]
    Tactics {
        /// A solver of the pool (`z3-4.16.0`).
        solver: String,
        /// How many expressions to print.
        #[arg(long, default_value = "100", value_parser = numeric::count)]
        n: u64,
        /// Index of the first expression.
        #[arg(long, default_value = "0", value_parser = numeric::index)]
        start: BigUint,
        /// The pool file (default: $ET_HOME/pool.toml).
        #[arg(long, value_name = "FILE")]
        pool: Option<PathBuf>,
    },
}

fn max_options(text: &str) -> Result<usize, String> {
    let n = numeric::count(text)?;
    usize::try_from(n)
        .ok()
        .filter(|n| (1..=MAX_OPTIONS).contains(n))
        .ok_or_else(|| format!("`{text}`: between 1 and {MAX_OPTIONS} options"))
}

/// Runs `et options`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::List {
            solver,
            enumerated,
            pool,
        } => {
            let catalog = catalog(&solver, pool)?;
            let kept = catalog.enumerated().count();
            let result = list(&catalog, enumerated);
            eprintln!(
                "et: {} has {} options; {kept} enumerated, {} left out",
                catalog.solver,
                catalog.options.len(),
                catalog.options.len() - kept
            );
            finished(result)
        }
        Sub::Enumerate {
            solver,
            max,
            n,
            start,
            pool,
        } => {
            let base = base_solver(&solver, pool)?;
            let catalog = catalog_of(&base, &cache())?;
            let curated = base.family_info().curated_configurations();
            let space = Space::new(&catalog, curated, max);
            let result = enumerate(&space, &base.name, &start, n);
            eprintln!(
                "et: {} configurations of {} with at most {max} option{} ({} curated, {} options enumerated)",
                space.len(),
                base.name,
                if max == 1 { "" } else { "s" },
                space.curated().len(),
                space.option_count()
            );
            finished(result)
        }
        Sub::Tactics {
            solver,
            n,
            start,
            pool,
        } => {
            let base = base_solver(&solver, pool)?;
            let space = TacticSpace::new(tactics::tactics_of(&base)?);
            let start = u64::try_from(&start).unwrap_or(u64::MAX);
            let result = tactic_expressions(&space, &base, start, n);
            eprintln!(
                "et: {} tactic expressions of {} over its {} tactics",
                space.len(),
                base.name,
                space.singles()
            );
            finished(result)
        }
    }
}

/// `n` tactic expressions of `space` from `start`: index, configuration name,
/// expression.
fn tactic_expressions(
    space: &TacticSpace,
    base: &SolverConfig,
    start: u64,
    n: u64,
) -> Result<(), Closed> {
    let mut out = Output::new();
    line(&mut out, "index	name	tactic")?;
    for i in start..start.saturating_add(n) {
        let Some(tactic) = space.get(i) else {
            break;
        };
        let name = tactics::configure(base, i, &tactic).name;
        line(&mut out, &format!("{i}\t{name}\t{tactic}"))?;
    }
    out.flush()
}

/// Writes one line to `out`.
fn line(out: &mut Output, text: &str) -> Result<(), Closed> {
    out.buf().extend_from_slice(text.as_bytes());
    out.end_line()
}

/// The catalog as a table: name, type, default, values, whether et enumerates it
/// (with the values it takes) or why not, and the solver's category for it (`-`: none
/// given; cvc5's `expert` options are for developers, findings that need them rank
/// far below default-mode ones). The category comes last, so the other columns keep
/// their places.
fn list(catalog: &Catalog, only_enumerated: bool) -> Result<(), Closed> {
    let mut out = Output::new();
    line(
        &mut out,
        "name\ttype\tdefault\tvalues\tenumerated\tcategory",
    )?;
    for (o, why) in &catalog.options {
        if only_enumerated && why.is_some() {
            continue;
        }
        let text = o.to_line();
        let fields: Vec<&str> = text.split('\t').collect();
        let status = match why {
            None => format!("yes: {}", options::space::values(o).join(" ")),
            Some(why) => format!("no: {why}"),
        };
        let category = o.category.map_or("-", |c| c.label());
        line(
            &mut out,
            &format!(
                "{}\t{}\t{}\t{}\t{status}\t{category}",
                fields[0], fields[1], fields[2], fields[3]
            ),
        )?;
    }
    out.flush()
}

/// `n` configurations of `space` from `start`: index, name, options.
fn enumerate(space: &Space, solver: &str, start: &BigUint, n: u64) -> Result<(), Closed> {
    let mut out = Output::new();
    line(&mut out, "index\tname\toptions")?;
    for i in 0..n {
        let Some(c) = space.get(&(start + i)) else {
            break;
        };
        let text = format!(
            "{}\t{}\t{}",
            c.index,
            c.name_for(solver),
            c.option_words().join(" ")
        );
        line(&mut out, &text)?;
    }
    out.flush()
}

/// Where catalogs are cached: `$ET_HOME/cache/options/`.
fn cache() -> PathBuf {
    options::cache_dir(&solvers::et_home())
}

fn base_solver(name: &str, pool: Option<PathBuf>) -> anyhow::Result<SolverConfig> {
    let pool: Pool = load_pool(pool.as_deref())?;
    Ok(pool.select(&[name])?.solvers.remove(0))
}

fn catalog(name: &str, pool: Option<PathBuf>) -> anyhow::Result<Catalog> {
    let base = base_solver(name, pool)?;
    Ok(catalog_of(&base, &cache())?)
}
