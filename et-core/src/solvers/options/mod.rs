//! Option configurations: a solver release's options read from the solver itself
//! ([`Catalog`], in the terms of [`catalog`]), which of them et enumerates (the
//! family's rules, [`Family::leave_out`]), and the configurations built from them
//! ([`space`]): the default mode plus a set of `option=value` pairs, each run as a
//! solver of its own.
//!
//! A catalog comes from the pool entry's `catalog` file if it names one, else from the
//! program through its family's listing ([`Family::option_listing`], or the listing of
//! a driver et installed, [`packaging::option_listing`]; parsed by
//! [`Family::parse_options`]), cached under `$ET_HOME/cache/options/` per solver and
//! checked against the program's size and modification time and the version of the
//! catalog line format ([`catalog::LINE_FORMAT`]: a listing cached before the format
//! gained cvc5's option categories is listed again).
//!
//! *Must not:* know any family's options (that is [`super::family`]); judge answers.

pub mod space;
pub mod tactics;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::call::{run_call, Input, Limits};
use super::family::catalog::{self, Curated, OptionCategory, OptionSpec, Theory};
use super::family::Family;
use super::install::packaging;
use super::pool::{Configured, Pool, SolverConfig};

pub use space::{Configuration, Space};

/// How long listing a solver's options may take.
const LISTING_TIMEOUT: Duration = Duration::from_secs(60);

/// The options of one solver release, with et's decision on each.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// The solver (pool name) it was read from.
    pub solver: String,
    /// Its family.
    pub family: String,
    /// Its release.
    pub version: String,
    /// Each option, with the reason it is left out of enumeration (`None`: enumerated).
    pub options: Vec<(OptionSpec, Option<String>)>,
}

impl Catalog {
    /// A catalog of `options`, each left out for the reason `leave_out` gives, or
    /// because it has no value other than its default.
    pub fn new(
        solver: &str,
        family: &str,
        version: &str,
        options: Vec<OptionSpec>,
        leave_out: impl Fn(&OptionSpec) -> Option<String>,
    ) -> Catalog {
        let options = options
            .into_iter()
            .map(|o| {
                let reason = leave_out(&o).or_else(|| match o.kind {
                    catalog::OptionKind::Text => {
                        Some("free text: no values to enumerate".to_string())
                    }
                    _ if space::values(&o).is_empty() => {
                        Some("no value other than the default".to_string())
                    }
                    _ => None,
                });
                (o, reason)
            })
            .collect();
        Catalog {
            solver: solver.to_string(),
            family: family.to_string(),
            version: version.to_string(),
            options,
        }
    }

    /// The option called `name`.
    pub fn get(&self, name: &str) -> Option<&OptionSpec> {
        self.options.iter().map(|(o, _)| o).find(|o| o.name == name)
    }

    /// The options et enumerates, in catalog order.
    pub fn enumerated(&self) -> impl Iterator<Item = &OptionSpec> {
        self.options
            .iter()
            .filter(|(_, why)| why.is_none())
            .map(|(o, _)| o)
    }

    /// The category the solver gives the option called `name`, if it gives one
    /// ([`catalog::category_of`]).
    pub fn category(&self, name: &str) -> Option<OptionCategory> {
        catalog::category_of(self.options.iter().map(|(o, _)| o), name)
    }
}

/// The category of option `option` of the pool's solver `solver` (by name: a base
/// solver, `cvc5-1.4.2`), from its catalog ([`catalog_of`], cached in
/// `$ET_HOME/cache/options/`). `None` when the pool has no such solver, its catalog
/// cannot be read, it has no such option, or the solver gives no categories (only
/// cvc5 from 1.2.0 on does). What triage asks to tell a finding that needs an expert
/// option (one cvc5's maintainers rank far below default-mode ones) from the rest:
/// `category_of(..).is_some_and(OptionCategory::is_expert)`.
pub fn category_of(pool: &Pool, solver: &str, option: &str) -> Option<OptionCategory> {
    let solver = pool.get(solver)?;
    let catalog = catalog_of(solver, &cache_dir(&super::et_home())).ok()?;
    catalog.category(option)
}

/// Why et cannot give a solver's option catalog.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    /// The family has no way to list its options and the pool entry names no file.
    #[error("et cannot list the options of {solver} (family {family}): {why}; a pool entry's `catalog = \"FILE\"` can give them in et's catalog line format")]
    NoListing {
        /// The solver.
        solver: String,
        /// Its family.
        family: String,
        /// What the family says.
        why: String,
    },
    /// The family has no tactics et knows to list (only z3's `check-sat-using`).
    #[error(
        "{solver} (family {family}) has no tactics et knows to list; tactic expressions are z3's"
    )]
    NoTactics {
        /// The solver.
        solver: String,
        /// Its family.
        family: String,
    },
    /// The listing could not be run or gave nothing.
    #[error("cannot list the options of {solver} with `{command}`: {why}")]
    Listing {
        /// The solver.
        solver: String,
        /// The command run.
        command: String,
        /// What went wrong.
        why: String,
    },
    /// A catalog file cannot be read.
    #[error("cannot read option catalog {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A catalog file or a listing in the line format is malformed.
    #[error("option catalog {origin}: {source}")]
    Format {
        /// Where it came from.
        origin: String,
        /// The bad line.
        source: catalog::LineError,
    },
    /// A configuration's option is not in the catalog or its value not allowed.
    #[error("{solver}: {message}")]
    BadOption {
        /// The solver.
        solver: String,
        /// What is wrong.
        message: String,
    },
}

/// Where catalogs are cached: `<home>/cache/options/`.
pub fn cache_dir(home: &Path) -> PathBuf {
    home.join("cache").join("options")
}

/// The option catalog of `solver`: its pool entry's `catalog` file, else its cached
/// listing (in `cache`), else the listing of its program, then cached.
pub fn catalog_of(solver: &SolverConfig, cache: &Path) -> Result<Catalog, OptionsError> {
    let family = solver.family_info();
    let specs = match &solver.catalog {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|source| OptionsError::Io {
                path: path.clone(),
                source,
            })?;
            catalog::parse_lines(&text).map_err(|source| OptionsError::Format {
                origin: path.display().to_string(),
                source,
            })?
        }
        None => listed(solver, family, cache)?,
    };
    Ok(Catalog::new(
        &solver.name,
        &solver.family,
        &solver.version,
        specs,
        |o| family.leave_out(o),
    ))
}

/// The first line of a cached listing: the program it came from, its size and time,
/// and the catalog line format's version (a listing cached by an older et, before the
/// format gained categories, does not match and is listed again).
fn stamp(program: &str) -> Option<String> {
    let meta = std::fs::metadata(program).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    Some(format!(
        "options of {program} ({} bytes, modified {modified}; catalog format {})",
        meta.len(),
        catalog::LINE_FORMAT
    ))
}

fn listed(
    solver: &SolverConfig,
    family: &dyn Family,
    cache: &Path,
) -> Result<Vec<OptionSpec>, OptionsError> {
    let program = solver.program();
    let commands = packaging::option_listing(family, program, &solver.version).map_err(|why| {
        OptionsError::NoListing {
            solver: solver.name.clone(),
            family: solver.family.clone(),
            why,
        }
    })?;
    let file = cache.join(format!("{}.tsv", solver.name));
    let header = stamp(program);
    if let (Some(header), Ok(text)) = (&header, std::fs::read_to_string(&file)) {
        if text.lines().next() == Some(&format!("# {header}")) {
            if let Ok(specs) = catalog::parse_lines(&text) {
                return Ok(specs);
            }
        }
    }
    let shown: Vec<String> = commands.iter().map(|c| c.join(" ")).collect();
    let failed = |why: String| OptionsError::Listing {
        solver: solver.name.clone(),
        command: shown.join("; "),
        why,
    };
    let mut stdout = String::new();
    let mut first_stderr = String::new();
    let mut exit_code = None;
    for command in &commands {
        let outcome = run_call(
            command,
            Input::Stdin(b""),
            &Limits::with_timeout(LISTING_TIMEOUT),
        )
        .map_err(|e| failed(e.to_string()))?;
        stdout.push_str(&outcome.stdout_text());
        stdout.push('\n');
        let stderr = outcome.stderr_text();
        if first_stderr.is_empty() {
            first_stderr = stderr.lines().next().unwrap_or("").to_string();
        }
        exit_code = exit_code.or(outcome.exit_code.filter(|&c| c != 0));
    }
    let specs = family
        .parse_options(&stdout)
        .map_err(|e| failed(format!("{e}; stderr: {first_stderr}")))?;
    if specs.is_empty() {
        return Err(failed(format!(
            "no options in its output (exit {exit_code:?}, stderr: {first_stderr})"
        )));
    }
    if let Some(header) = header {
        // A cache that cannot be written is only slower next time.
        let _ = std::fs::create_dir_all(cache).and_then(|_| {
            crate::atomic_file::write(&file, catalog::to_lines(&header, &specs).as_bytes())
        });
    }
    Ok(specs)
}

/// `base` run in `configuration`: named `<base>+<suffix>`, its command the base's with
/// the family's argument for each option appended, and its options recorded.
pub fn configure(base: &SolverConfig, configuration: &Configuration) -> SolverConfig {
    let family = base.family_info();
    let mut solver = base.clone();
    solver.name = configuration.name_for(&base.name);
    solver.command.extend(
        configuration
            .options
            .iter()
            .map(|(n, v)| family.option_argument(n, v)),
    );
    solver.reference = Vec::new();
    solver.configuration = Some(Configured::options(
        &base.name,
        configuration.option_words(),
    ));
    solver
}

/// Release `base` in the configuration that `like` (an option configuration of
/// another release of the family) is in: the same options and name suffix
/// (`z3-5.3.3+newcore` from `z3-5.3.3` like `z3-5.4.1+newcore`). `base` itself when
/// `like` is no configuration. What a configuration's finding is ranged and timed on
/// across releases.
pub fn configure_like(base: &SolverConfig, like: &SolverConfig) -> SolverConfig {
    let Some(configured) = &like.configuration else {
        return base.clone();
    };
    let suffix = like
        .name
        .strip_prefix(configured.of.as_str())
        .and_then(|rest| rest.strip_prefix('+'))
        .unwrap_or("configured");
    let options = option_pairs(&configured.options);
    let mut solver = configure(
        base,
        &Configuration {
            index: Default::default(),
            suffix: suffix.to_string(),
            options,
            curated: None,
        },
    );
    if let Some(c) = &mut solver.configuration {
        c.tactic.clone_from(&configured.tactic);
    }
    solver
}

/// `name=value` words (as run.toml records a configuration's options) as pairs; a
/// word without `=` is a name with an empty value.
pub fn option_pairs(words: &[String]) -> Vec<(String, String)> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((n, v)) => (n.to_string(), v.to_string()),
            None => (w.clone(), String::new()),
        })
        .collect()
}

/// The theories a configuration of a solver of `family` setting `options` (`name=value`
/// words) acts on, when each of them acts only on some ([`Family::acts_only_on`]):
/// their union. `None` when one of them may act on any formula.
pub fn acts_only_on(family: &dyn Family, options: &[String]) -> Option<BTreeSet<Theory>> {
    let mut theories = BTreeSet::new();
    for (name, _) in option_pairs(options) {
        let some = family.acts_only_on(&name);
        if some.is_empty() {
            return None;
        }
        theories.extend(some.iter().copied());
    }
    Some(theories)
}

/// Most options one enumerated configuration sets (`et options enumerate --max`, the
/// space `--configurations` draws from).
pub const MAX_OPTIONS: usize = 8;

/// Which configurations of a solver a campaign runs (`--configurations SOLVER:WHICH`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// `curated`: the family's curated modes the release has.
    Curated,
    /// `single` or `single:N`: the configurations of one option, all or the first N.
    Single(Option<u64>),
    /// `A..B`: the configurations of indices A (included) to B (excluded), as
    /// `et options enumerate` numbers them.
    Range(BigUint, BigUint),
    /// `tactics`, `tactics:N`, `tactics:A..B`: tactic expressions ([`tactics`]), the
    /// single tactics (`end` none), the first N, or a range of `et options tactics`.
    Tactics {
        /// The first index.
        start: u64,
        /// The end (excluded), or none for the single tactics.
        end: Option<u64>,
    },
}

impl std::str::FromStr for Selection {
    type Err = String;

    fn from_str(text: &str) -> Result<Selection, String> {
        let number = |t: &str| {
            t.parse::<BigUint>()
                .map_err(|_| format!("`{t}` is not a configuration index"))
        };
        if text == "tactics" {
            return Ok(Selection::Tactics {
                start: 0,
                end: None,
            });
        }
        if let Some(which) = text.strip_prefix("tactics:") {
            let index = |t: &str| {
                t.parse::<u64>()
                    .map_err(|_| format!("`{t}` is not a tactic expression's index"))
            };
            return match which.split_once("..") {
                Some((a, b)) if index(a)? < index(b)? => Ok(Selection::Tactics {
                    start: index(a)?,
                    end: Some(index(b)?),
                }),
                Some(_) => Err(format!("`{text}`: an empty range")),
                None => match index(which)? {
                    0 => Err(format!("`{text}`: the count must be a positive number")),
                    n => Ok(Selection::Tactics {
                        start: 0,
                        end: Some(n),
                    }),
                },
            };
        }
        if text == "curated" {
            Ok(Selection::Curated)
        } else if text == "single" {
            Ok(Selection::Single(None))
        } else if let Some(n) = text.strip_prefix("single:") {
            n.parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .map(|n| Selection::Single(Some(n)))
                .ok_or_else(|| format!("`single:{n}`: the count must be a positive number"))
        } else if let Some((a, b)) = text.split_once("..") {
            let (a, b) = (number(a)?, number(b)?);
            if a >= b {
                return Err(format!("`{text}`: an empty range"));
            }
            Ok(Selection::Range(a, b))
        } else {
            Err(format!(
                "`{text}` is not `curated`, `single`, `single:N`, a range `A..B`, `tactics`, \
                 `tactics:N` or `tactics:A..B`"
            ))
        }
    }
}

/// The configurations of `catalog` that `selection` picks, in enumeration order.
pub fn select(
    catalog: &Catalog,
    curated: &[Curated],
    selection: &Selection,
) -> Result<Vec<Configuration>, OptionsError> {
    let bad = |message: String| OptionsError::BadOption {
        solver: catalog.solver.clone(),
        message,
    };
    let out: Vec<Configuration> = match selection {
        Selection::Curated => Space::new(catalog, curated, 0).curated().to_vec(),
        Selection::Single(count) => {
            let space = Space::new(catalog, curated, 1);
            let first = BigUint::from(space.curated().len());
            let n = space.of_size(1);
            let n = count.map_or(n.clone(), |c| n.min(BigUint::from(c)));
            let n = n.to_u64().unwrap_or(u64::MAX);
            (0..n).filter_map(|i| space.get(&(&first + i))).collect()
        }
        Selection::Range(a, b) => {
            let space = Space::new(catalog, curated, MAX_OPTIONS);
            let width = (b - a)
                .to_u64()
                .filter(|w| *w <= 100_000)
                .ok_or_else(|| bad(format!("{a}..{b} holds more than 100000 configurations")))?;
            (0..width).map_while(|i| space.get(&(a + i))).collect()
        }
        Selection::Tactics { .. } => {
            return Err(bad(
                "tactic expressions are no option configurations (`tactics::TacticSpace`)"
                    .to_string(),
            ))
        }
    };
    if out.is_empty() {
        return Err(bad(format!(
            "no configuration in {selection:?} (the release's catalog offers none there)"
        )));
    }
    Ok(out)
}

impl OptionsError {
    /// Whether the error is the user's input (exit 2): a solver whose options et cannot
    /// list, a malformed catalog, an empty selection, a catalog file not there.
    pub fn is_bad_input(&self) -> bool {
        match self {
            OptionsError::NoListing { .. }
            | OptionsError::NoTactics { .. }
            | OptionsError::Format { .. }
            | OptionsError::BadOption { .. } => true,
            OptionsError::Io { source, .. } => source.kind() == std::io::ErrorKind::NotFound,
            OptionsError::Listing { .. } => false,
        }
    }
}
