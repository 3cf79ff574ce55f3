//! Pool files: the TOML pool (`$ET_HOME/pool.toml`, written by `et solvers install`,
//! editable by hand) and the published ET's `solvers.cfg` (one solver per line).
//!
//! ```toml
//! [[solver]]
//! name = "z3-4.13.0"          # unique
//! family = "z3"
//! version = "4.13.0"
//! command = ["solvers/z3-4.13.0/bin/z3", "model_validate=true"]   # formula path appended
//! # input = "stdin"            # pass the formula on standard input instead
//! # models = true             # default: true for families whose model options et knows
//! # reference = ["cvc5-1.4.2"] # who judges this solver (names or families, in order)
//!
//! [[reference]]               # rules: who judges whom (see `super::reference_rules`)
//! family = "z3"
//! versions = "<= 4.8.10"
//! grammars = ["strings"]
//! judges = ["z3"]
//! unicode = false
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::family::{self, Family};
use super::reference_rules::{ReferenceRule, RuleSolvers, VersionRange};

/// How a solver receives the formula.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputMode {
    /// The formula's file path is appended to the command line.
    #[default]
    File,
    /// The formula is written to the solver's standard input.
    Stdin,
}

/// One solver of a pool: what to run and how to name it in results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolverConfig {
    /// Unique name used in results and `--solvers`, e.g. `z3-4.13.0`.
    pub name: String,
    /// Solver family (`z3`, `cvc5`, `cvc4`, `yices`, ...): what et knows about running
    /// and judging it ([`super::family`]).
    pub family: String,
    /// Release, e.g. `4.13.0`; orders versions in evolution plots.
    pub version: String,
    /// Program and options; the formula's path is appended when `input` is `File`.
    pub command: Vec<String>,
    /// How the formula is passed.
    pub input: InputMode,
    /// Whether et asks this solver for models (with its family's model options or
    /// model preamble, and `(get-model)`), for checking them itself. Defaults to
    /// whether et knows the family's model options ([`family::models_by_default`]);
    /// `true` works for every family, those et does not know included.
    pub models: bool,
    /// The solvers that judge this one, in order (names or families of the pool; the
    /// first that decides a formula is its reference); empty for the pool's rules.
    pub reference: Vec<String>,
    /// A file giving its option catalog in et's catalog line format (the pool entry's
    /// `catalog`), for a solver whose family cannot list its options.
    pub catalog: Option<PathBuf>,
    /// For an option configuration of a pool solver: which solver and what options
    /// ([`super::options`]); its first judge is that solver in its default mode.
    pub configuration: Option<Configured>,
}

/// What makes a solver an option configuration of another: the solver it configures
/// and the options set, as `name=value`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Configured {
    /// The pool solver in its default mode (`z3-4.16.0`).
    pub of: String,
    /// The options set, `name=value`, in order.
    pub options: Vec<String>,
    /// For a tactic configuration (z3): the tactic expression its formulas are checked
    /// with, `(check-sat-using TACTIC)` in place of `(check-sat)`
    /// ([`super::options::tactics`]).
    pub tactic: Option<String>,
}

impl Configured {
    /// The configuration of `of` setting `options`, with no tactic.
    pub fn options(of: &str, options: Vec<String>) -> Configured {
        Configured {
            of: of.to_string(),
            options,
            tactic: None,
        }
    }
}

impl SolverConfig {
    /// A solver with the defaults of its family: formula path appended, models as the
    /// family allows, judged by the pool's rules.
    pub fn new(name: &str, family: &str, version: &str, command: Vec<String>) -> SolverConfig {
        SolverConfig {
            name: name.to_string(),
            family: family.to_string(),
            version: version.to_string(),
            command,
            input: InputMode::File,
            models: family::models_by_default(family),
            reference: Vec::new(),
            catalog: None,
            configuration: None,
        }
    }

    /// An installed solver: `program` with its family's self-check options.
    pub fn installed(
        family: &dyn Family,
        name: &str,
        version: &str,
        program: &str,
    ) -> SolverConfig {
        let command = std::iter::once(program)
            .chain(family.self_check_options().iter().copied())
            .map(str::to_string)
            .collect();
        SolverConfig::new(name, family.name(), version, command)
    }

    /// What et knows about this solver's family: its module, or for a family et does
    /// not know the generic SMT-LIB solver ([`family::SmtLib`]): every family answers
    /// [`Family`]'s questions, if only with the provided defaults.
    pub fn family_info(&self) -> &'static dyn Family {
        family::find_or_generic(&self.family)
    }

    /// The text a script for this solver starts with before a formula of `logic` (the
    /// grammar's SMT-LIB logic), if any: with models on, the family's model preamble
    /// (`(set-option :produce-models true)` for families that switch models on in the
    /// script), then the family's own prelude (yices needs `(set-logic ...)`).
    pub fn prelude(&self, logic: Option<&str>) -> Option<String> {
        let family = family::find_or_generic(&self.family);
        let models = self.models.then(|| family.model_preamble()).flatten();
        match (models, family.prelude(logic)) {
            (None, prelude) => prelude,
            (Some(models), None) => Some(models.to_string()),
            (Some(models), Some(prelude)) => Some(format!("{models}\n{prelude}")),
        }
    }

    /// The command line that makes this solver print a model for `(get-model)`: its
    /// command with the family's model options after the program (unchanged for a
    /// family that asks in the script, [`SolverConfig::prelude`]); `None` when models
    /// are off for it.
    pub fn command_with_models(&self) -> Option<Vec<String>> {
        if !self.models {
            return None;
        }
        let options = family::find_or_generic(&self.family)
            .model_options(&self.version)
            .unwrap_or_default();
        let mut command = vec![self.command[0].clone()];
        command.extend(options.iter().map(|o| o.to_string()));
        command.extend(self.command[1..].iter().cloned());
        Some(command)
    }

    /// The options of this solver's command that are its family's answer checks
    /// ([`Family::answer_checks`]), in command order.
    pub fn answer_checks(&self) -> Vec<&str> {
        let checks = self.family_info().answer_checks();
        self.options()
            .iter()
            .map(String::as_str)
            .filter(|o| checks.contains(o))
            .collect()
    }

    /// This solver without its family's answer checks ([`Family::answer_checks`]), the
    /// rest of its command as it is; `None` when its command holds none of them.
    pub fn without_answer_checks(&self) -> Option<SolverConfig> {
        let checks = self.answer_checks();
        if checks.is_empty() {
            return None;
        }
        let command = std::iter::once(self.program())
            .chain(
                self.options()
                    .iter()
                    .map(String::as_str)
                    .filter(|o| !checks.contains(o)),
            )
            .map(str::to_string)
            .collect();
        Some(SolverConfig {
            command,
            ..self.clone()
        })
    }

    /// This solver with `option` added after its other options (the same name).
    pub fn with_option(&self, option: &str) -> SolverConfig {
        let mut command = self.command.clone();
        command.push(option.to_string());
        SolverConfig {
            command,
            ..self.clone()
        }
    }

    /// How this solver writes values in a model, for et's model check: its family's
    /// dialect for its release, standard SMT-LIB for a family et does not know.
    pub fn model_dialect(&self) -> et_eval::ModelDialect {
        self.family_info().model_dialect(&self.version)
    }

    /// The program to run (first word of the command).
    pub fn program(&self) -> &str {
        &self.command[0]
    }

    /// Options after the program, without the formula.
    pub fn options(&self) -> &[String] {
        &self.command[1..]
    }

    /// The full argument vector (program first) to solve the formula at `formula`.
    pub fn argv(&self, formula: &Path) -> Vec<OsString> {
        let mut argv: Vec<OsString> = self.command.iter().map(OsString::from).collect();
        if self.input == InputMode::File {
            argv.push(formula.as_os_str().to_owned());
        }
        argv
    }

    /// A [`std::process::Command`] for the formula at `formula`; with [`InputMode::Stdin`]
    /// the caller pipes the formula in.
    pub fn command_for(&self, formula: &Path) -> std::process::Command {
        let argv = self.argv(formula);
        let mut cmd = std::process::Command::new(&argv[0]);
        cmd.args(&argv[1..]);
        cmd
    }

    /// This solver as the pool file `pool_file` records it: its program (and catalog)
    /// relative to the file's directory when they lie under it, so that the directory
    /// can be copied or moved with its solvers; a bare command name stays as it is.
    /// Reading the file ([`Pool::load`]) resolves them back.
    pub fn relative_to(&self, pool_file: &Path) -> SolverConfig {
        let mut out = self.clone();
        out.command[0] = relative_to_pool(&self.command[0], pool_file);
        out.catalog = self
            .catalog
            .as_ref()
            .map(|c| PathBuf::from(relative_to_pool(&c.to_string_lossy(), pool_file)));
        out
    }

    /// This solver as one `[[solver]]` block of a pool file.
    pub fn to_toml(&self) -> String {
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        let command: Vec<String> = self.command.iter().map(|s| q(s)).collect();
        let mut out = format!(
            "[[solver]]\nname = {}\nfamily = {}\nversion = {}\ncommand = [{}]\n",
            q(&self.name),
            q(&self.family),
            q(&self.version),
            command.join(", ")
        );
        if self.input == InputMode::Stdin {
            out.push_str("input = \"stdin\"\n");
        }
        if self.models != family::models_by_default(&self.family) {
            out.push_str(&format!("models = {}\n", self.models));
        }
        if !self.reference.is_empty() {
            let names: Vec<String> = self.reference.iter().map(|s| q(s)).collect();
            out.push_str(&format!("reference = [{}]\n", names.join(", ")));
        }
        if let Some(catalog) = &self.catalog {
            out.push_str(&format!(
                "catalog = {}\n",
                q(&catalog.display().to_string())
            ));
        }
        if let Some(c) = &self.configuration {
            let options: Vec<String> = c.options.iter().map(|s| q(s)).collect();
            out.push_str(&format!(
                "configuration_of = {}\noptions = [{}]\n",
                q(&c.of),
                options.join(", ")
            ));
            if let Some(tactic) = &c.tactic {
                out.push_str(&format!("tactic = {}\n", q(tactic)));
            }
        }
        out
    }
}

/// Errors reading or selecting from a pool; each names the file and line or the value.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// The pool file cannot be read.
    #[error("cannot read solver pool {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The pool file is malformed at a position.
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// The pool file holds no solvers: there is nothing to run or check.
    #[error("the solver pool {path} holds no solvers; add some with `et solvers install` (e.g. `et solvers install z3@4.x cvc5@latest`)")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// `--solvers` named a solver the pool does not have.
    #[error("no solver `{name}` in the pool {origin}; it has: {available}")]
    UnknownSolver {
        /// The requested name.
        name: String,
        /// Where the pool came from.
        origin: String,
        /// The names it does have, comma-separated.
        available: String,
    },
}

/// A list of solver configurations, in file order, and the rules of who judges whom.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pool {
    /// The solvers, in file order.
    pub solvers: Vec<SolverConfig>,
    /// The `[[reference]]` rules, in file order (the first that applies wins).
    pub rules: Vec<ReferenceRule>,
    /// The file it was read from, if any.
    pub source: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolFile {
    #[serde(default)]
    solver: Vec<RawSolver>,
    #[serde(default)]
    reference: Vec<RawRule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSolver {
    name: Spanned<String>,
    family: Spanned<String>,
    version: String,
    command: Spanned<Vec<String>>,
    #[serde(default)]
    input: InputMode,
    models: Option<bool>,
    reference: Option<Spanned<OneOrMany>>,
    catalog: Option<String>,
    configuration_of: Option<String>,
    #[serde(default)]
    options: Vec<String>,
    tactic: Option<String>,
}

/// `"name"` or `["name", ...]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    family: Option<String>,
    solvers: Option<OneOrMany>,
    versions: Option<Spanned<String>>,
    grammars: Option<OneOrMany>,
    judges: Spanned<OneOrMany>,
    #[serde(default = "yes")]
    unicode: bool,
}

fn yes() -> bool {
    true
}

/// Longest solver name, in bytes: names become parts of file names (bug triggers,
/// samples), which most filesystems limit to 255 bytes.
pub const MAX_NAME_LEN: usize = 100;

/// Checks that `name` can name a solver: it is written into CSV rows, listed in
/// `--solvers` (comma-separated) and used as part of file names under a run directory,
/// so it must be non-empty, at most [`MAX_NAME_LEN`] bytes, and hold no whitespace,
/// comma, control character (NUL, newline, ...), path separator or `..`. Returns the
/// reason otherwise.
pub fn check_name(name: &str) -> Result<(), String> {
    let shown = name.escape_debug();
    let problem = if name.is_empty() {
        "is empty".to_string()
    } else if name.len() > MAX_NAME_LEN {
        format!("is {} bytes long (at most {MAX_NAME_LEN})", name.len())
    } else if let Some(c) = name.chars().find(|c| c.is_control()) {
        format!("contains the control character U+{:04X}", u32::from(c))
    } else if name.contains(char::is_whitespace) {
        "contains whitespace".to_string()
    } else if name.contains(',') {
        "contains a comma (--solvers separates names with commas)".to_string()
    } else if name.contains(['/', '\\']) {
        "contains a path separator".to_string()
    } else if name == "." || name.contains("..") {
        "is `.` or contains `..`".to_string()
    } else {
        return Ok(());
    };
    Err(format!(
        "solver name `{shown}` {problem}; names are part of file names under the run \
         directory, so they may hold no whitespace, commas, control characters, `/`, `\\` \
         or `..`"
    ))
}

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before.len(), |nl| before.len() - nl - 1)
        + 1;
    (line, column)
}

fn syntax(path: &Path, text: &str, offset: usize, message: impl Into<String>) -> PoolError {
    let (line, column) = line_column(text, offset);
    PoolError::Syntax {
        path: path.to_path_buf(),
        line,
        column,
        message: message.into(),
    }
}

/// Makes a relative program path (one with a `/`) relative to the pool file's directory,
/// so a pool can be moved together with its solvers; bare names are looked up in PATH.
/// The result is absolute, so what ran (`run.toml`) does not depend on the directory et
/// was started in.
fn resolve_program(program: &str, origin: &Path) -> String {
    let p = Path::new(program);
    if p.is_absolute() || !program.contains('/') {
        return program.to_string();
    }
    let dir = origin.parent().unwrap_or(Path::new(""));
    absolute(&dir.join(p)).to_string_lossy().into_owned()
}

/// `path` made absolute against the current directory, its `.` components dropped;
/// lexically only: `..` and symbolic links are kept.
pub(crate) fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .components()
        .collect()
}

/// How the pool file `pool_file` names `path`: relative to the file's directory when
/// `path` lies under it (always with a `/`, `./z3`, so that it is not taken for a
/// command looked up in PATH), absolute otherwise. The inverse of [`resolve_program`].
fn relative_to_pool(path: &str, pool_file: &Path) -> String {
    if !path.contains('/') {
        return path.to_string();
    }
    let dir = absolute(pool_file.parent().unwrap_or(Path::new("")));
    let abs = absolute(Path::new(path));
    match abs.strip_prefix(&dir) {
        Ok(rel) if !rel.as_os_str().is_empty() => {
            let rel = rel.to_string_lossy();
            if rel.contains('/') {
                rel.into_owned()
            } else {
                format!("./{rel}")
            }
        }
        _ => abs.to_string_lossy().into_owned(),
    }
}

impl Pool {
    /// Reads a pool file: ET's `solvers.cfg` if the name ends in `.cfg`, TOML otherwise.
    pub fn load(path: &Path) -> Result<Pool, PoolError> {
        let text = std::fs::read_to_string(path).map_err(|source| PoolError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if path.extension().is_some_and(|e| e == "cfg") {
            Pool::from_solvers_cfg(&text, path)
        } else {
            Pool::from_toml(&text, path)
        }
    }

    /// Parses a TOML pool; `origin` names the file in errors and anchors relative paths.
    pub fn from_toml(text: &str, origin: &Path) -> Result<Pool, PoolError> {
        let file: PoolFile = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            syntax(origin, text, offset, e.message().trim().to_string())
        })?;
        let mut solvers: Vec<SolverConfig> = Vec::new();
        for raw in file.solver {
            let name = raw.name.get_ref().clone();
            if let Err(why) = check_name(&name) {
                return Err(syntax(origin, text, raw.name.span().start, why));
            }
            if solvers.iter().any(|s| s.name == name) {
                return Err(syntax(
                    origin,
                    text,
                    raw.name.span().start,
                    format!("solver name `{name}` appears twice; names must be unique"),
                ));
            }
            if raw.family.get_ref().trim().is_empty() {
                return Err(syntax(
                    origin,
                    text,
                    raw.family.span().start,
                    "family must not be empty",
                ));
            }
            let mut command = raw.command.get_ref().clone();
            if command.first().filter(|p| !p.trim().is_empty()).is_none() {
                return Err(syntax(
                    origin,
                    text,
                    raw.command.span().start,
                    format!("solver `{name}` has an empty command"),
                ));
            }
            command[0] = resolve_program(&command[0], origin);
            let reference = match raw.reference {
                Some(r) => {
                    let at = r.span().start;
                    let names = clean_names(r.into_inner().into_vec());
                    if names.is_empty() {
                        return Err(syntax(
                            origin,
                            text,
                            at,
                            "reference must name a solver or family",
                        ));
                    }
                    names
                }
                None => Vec::new(),
            };
            let family = raw.family.into_inner();
            solvers.push(SolverConfig {
                name,
                models: raw
                    .models
                    .unwrap_or_else(|| family::models_by_default(&family)),
                family,
                version: raw.version,
                command,
                input: raw.input,
                reference,
                catalog: raw.catalog.map(|c| {
                    // Relative to the pool file, as programs with a `/` are.
                    absolute(&origin.parent().unwrap_or(Path::new("")).join(c))
                }),
                configuration: raw.configuration_of.map(|of| Configured {
                    of,
                    options: raw.options,
                    tactic: raw.tactic,
                }),
            });
        }
        let mut rules = Vec::new();
        for raw in file.reference {
            let at = raw.judges.span().start;
            let judges = clean_names(raw.judges.into_inner().into_vec());
            if judges.is_empty() {
                return Err(syntax(
                    origin,
                    text,
                    at,
                    "judges must name at least one solver or family",
                ));
            }
            let versions = match raw.versions {
                Some(v) => {
                    let at = v.span().start;
                    Some(
                        v.into_inner()
                            .parse::<VersionRange>()
                            .map_err(|e| syntax(origin, text, at, e.to_string()))?,
                    )
                }
                None => None,
            };
            let (line, _) = line_column(text, at);
            rules.push(ReferenceRule {
                solvers: RuleSolvers {
                    family: raw.family,
                    names: raw.solvers.map(OneOrMany::into_vec).unwrap_or_default(),
                    versions,
                    grammars: raw.grammars.map(OneOrMany::into_vec).unwrap_or_default(),
                },
                judges,
                unicode: raw.unicode,
                origin: format!("{}:{line}", origin.display()),
            });
        }
        Ok(Pool {
            solvers,
            rules,
            source: Some(origin.to_path_buf()),
        })
    }

    /// Parses ET's `solvers.cfg`: one solver per line, the command then its options;
    /// blank lines and `#` comments are skipped. Family and version are guessed from the
    /// program path (`/opt/z3-4.8.5/bin/z3` → z3, 4.8.5).
    pub fn from_solvers_cfg(text: &str, origin: &Path) -> Result<Pool, PoolError> {
        let mut solvers: Vec<SolverConfig> = Vec::new();
        let mut offset = 0;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            let line_start = offset;
            offset += line.len();
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let words = split_words(line)
                .map_err(|col| syntax(origin, text, line_start + col, "unterminated quote"))?;
            let mut command = words;
            command[0] = resolve_program(&command[0], origin);
            let program = command[0].clone();
            let family = family::guess(&program).map_or_else(
                || {
                    Path::new(&program)
                        .file_name()
                        .map_or(program.clone(), |b| b.to_string_lossy().into_owned())
                },
                |f| f.name().to_string(),
            );
            let version = guess_version(&program).unwrap_or_else(|| "unknown".to_string());
            let mut name = if version == "unknown" {
                format!("{family}-line{}", index + 1)
            } else {
                format!("{family}-{version}")
            };
            if solvers.iter().any(|s| s.name == name) {
                name = format!("{name}-line{}", index + 1);
            }
            if let Err(why) = check_name(&name) {
                return Err(syntax(origin, text, line_start, why));
            }
            solvers.push(SolverConfig::new(&name, &family, &version, command));
        }
        Ok(Pool {
            solvers,
            rules: Vec::new(),
            source: Some(origin.to_path_buf()),
        })
    }

    /// The sub-pool of the given names, in the order given. A family name (`z3`) selects
    /// every solver of that family.
    pub fn select<S: AsRef<str>>(&self, names: &[S]) -> Result<Pool, PoolError> {
        let mut chosen: Vec<SolverConfig> = Vec::new();
        for name in names {
            let name = name.as_ref().trim();
            // An exact name wins; otherwise the name is taken as a family.
            let matches: Vec<&SolverConfig> = match self.get(name) {
                Some(exact) => vec![exact],
                None => self.solvers.iter().filter(|s| s.family == name).collect(),
            };
            if matches.is_empty() {
                return Err(PoolError::UnknownSolver {
                    name: name.to_string(),
                    origin: self.source.as_ref().map_or_else(
                        || "(built in memory)".to_string(),
                        |p| p.display().to_string(),
                    ),
                    available: self.names().join(", "),
                });
            }
            for s in matches {
                if !chosen.iter().any(|c| c.name == s.name) {
                    chosen.push(s.clone());
                }
            }
        }
        Ok(Pool {
            solvers: chosen,
            rules: self.rules.clone(),
            source: self.source.clone(),
        })
    }

    /// The solver called `name`.
    pub fn get(&self, name: &str) -> Option<&SolverConfig> {
        self.solvers.iter().find(|s| s.name == name)
    }

    /// The solver of `family` with the highest version, e.g. the reference z3.
    pub fn newest(&self, family: &str) -> Option<&SolverConfig> {
        crate::version::newest(
            self.solvers
                .iter()
                .filter(|s| s.family == family && s.configuration.is_none()),
            |s| s.version.as_str(),
            |a, b| a.name.cmp(&b.name),
        )
    }

    /// Names of all solvers, in pool order.
    pub fn names(&self) -> Vec<&str> {
        self.solvers.iter().map(|s| s.name.as_str()).collect()
    }

    /// The whole pool as a TOML pool file.
    pub fn to_toml(&self) -> String {
        self.solvers
            .iter()
            .map(SolverConfig::to_toml)
            .chain(self.rules.iter().map(ReferenceRule::to_toml))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Names trimmed, empty ones dropped.
fn clean_names(names: Vec<String>) -> Vec<String> {
    names
        .into_iter()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

/// Splits a `solvers.cfg` line into words; single and double quotes group words.
/// On an unterminated quote, returns the byte column of the quote.
fn split_words(line: &str) -> Result<Vec<String>, usize> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quote: Option<(char, usize)> = None;
    for (i, ch) in line.char_indices() {
        match quote {
            Some((q, _)) if ch == q => quote = None,
            Some(_) => current.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some((ch, i));
                in_word = true;
            }
            None if ch.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            None => {
                current.push(ch);
                in_word = true;
            }
        }
    }
    if let Some((_, at)) = quote {
        return Err(at);
    }
    if in_word {
        words.push(current);
    }
    Ok(words)
}

/// The first dotted number (`4.8.5`) in a program path, if any.
fn guess_version(program: &str) -> Option<String> {
    let bytes = program.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            let mut dots = 0;
            while i < bytes.len()
                && (bytes[i].is_ascii_digit()
                    || (bytes[i] == b'.' && i + 1 < bytes.len() && bytes[i + 1].is_ascii_digit()))
            {
                dots += usize::from(bytes[i] == b'.');
                i += 1;
            }
            if dots >= 1 {
                return Some(program[start..i].to_string());
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_checks_come_off_and_nothing_else() {
        let cvc5 = SolverConfig::installed(
            family::find("cvc5").unwrap(),
            "cvc5-1.4.2",
            "1.4.2",
            "/opt/cvc5",
        );
        let unchecked = cvc5.without_answer_checks().unwrap();
        assert_eq!(unchecked.command, ["/opt/cvc5", "--strings-exp", "-q"]);
        assert_eq!(unchecked.name, cvc5.name);
        let z3 = SolverConfig::installed(family::find("z3").unwrap(), "z3", "4.16.0", "/opt/z3");
        assert_eq!(z3.without_answer_checks().unwrap().command, ["/opt/z3"]);
        // Nothing to take off: a solver without them, a family that names none.
        assert!(unchecked.without_answer_checks().is_none());
        let yices = SolverConfig::installed(family::find("yices").unwrap(), "y", "2.6.5", "/y");
        assert!(yices.without_answer_checks().is_none());
    }

    #[test]
    fn models_work_for_a_family_et_does_not_know() {
        let text = "[[solver]]\nname = \"w\"\nfamily = \"perturbed\"\nversion = \"1\"\n\
                    command = [\"/opt/w\", \"-q\"]\nmodels = true\n";
        let pool = Pool::from_toml(text, Path::new("pool.toml")).unwrap();
        let w = &pool.solvers[0];
        assert!(w.models);
        // The command is kept; the script asks for models.
        assert_eq!(w.command_with_models().unwrap(), ["/opt/w", "-q"]);
        assert_eq!(
            w.prelude(Some("QF_LIA")).as_deref(),
            Some("(set-option :produce-models true)")
        );
        assert_eq!(w.family_info().model_request(), "(get-model)");
        assert!(w.to_toml().contains("models = true"));
        // Off by default for a family et does not know, and then nothing is added.
        let mut off = w.clone();
        off.models = false;
        assert_eq!(off.command_with_models(), None);
        assert_eq!(off.prelude(Some("QF_LIA")), None);
        // A family with model options keeps its command line and gets no preamble;
        // yices' prelude stays (after the preamble, were there one).
        let cvc5 = SolverConfig::new("c", "cvc5", "1.4.2", vec!["/opt/cvc5".into()]);
        assert_eq!(
            cvc5.command_with_models().unwrap(),
            ["/opt/cvc5", "--produce-models"]
        );
        assert_eq!(cvc5.prelude(None), None);
        let yices = SolverConfig::new("y", "yices", "2.6.5", vec!["/opt/yices".into()]);
        assert_eq!(
            yices.prelude(Some("QF_UF")).as_deref(),
            Some("(set-logic QF_UF)")
        );
    }

    #[test]
    fn programs_are_written_relative_to_the_pool_file_and_read_back_absolute() {
        let file = Path::new("/home/me/et/pool.toml");
        let z3 = SolverConfig::installed(
            family::find("z3").unwrap(),
            "z3-4.16.0",
            "4.16.0",
            "/home/me/et/solvers/z3-4.16.0/bin/z3",
        );
        let written = z3.relative_to(file);
        assert_eq!(
            written.command,
            ["solvers/z3-4.16.0/bin/z3", "model_validate=true"]
        );
        let read = Pool::from_toml(&written.to_toml(), file).unwrap();
        assert_eq!(read.solvers[0], z3);
        // Beside the pool file: still a path, not a name looked up in PATH.
        let mut beside = z3.clone();
        beside.command[0] = "/home/me/et/./z3".into();
        beside.catalog = Some("/home/me/et/z3.catalog".into());
        let written = beside.relative_to(file);
        assert_eq!(written.program(), "./z3");
        assert_eq!(written.catalog.as_deref(), Some(Path::new("./z3.catalog")));
        let read = Pool::from_toml(&written.to_toml(), file).unwrap();
        assert_eq!(read.solvers[0].program(), "/home/me/et/z3");
        assert_eq!(
            read.solvers[0].catalog.as_deref(),
            Some(Path::new("/home/me/et/z3.catalog"))
        );
        // Elsewhere, or a bare name: as they are.
        for program in ["/opt/z3/bin/z3", "/home/me/etc/z3", "z3"] {
            let mut other = z3.clone();
            other.command[0] = program.into();
            assert_eq!(other.relative_to(file).program(), program);
            let read = Pool::from_toml(&other.relative_to(file).to_toml(), file).unwrap();
            assert_eq!(read.solvers[0].program(), program);
        }
        // A pool named relatively resolves against the current directory.
        let read = Pool::from_toml(&z3.relative_to(file).to_toml(), Path::new("p.toml")).unwrap();
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(
            Path::new(read.solvers[0].program()),
            cwd.join("solvers/z3-4.16.0/bin/z3")
        );
    }

    #[test]
    fn toml_round_trip() {
        let text = r#"
[[solver]]
name = "z3-4.13.0"
family = "z3"
version = "4.13.0"
command = ["/opt/z3", "model_validate=true"]

[[solver]]
name = "cvc5-1.4.2"
family = "cvc5"
version = "1.4.2"
command = ["/opt/cvc5", "-q"]
input = "stdin"
"#;
        let pool = Pool::from_toml(text, Path::new("p.toml")).unwrap();
        assert_eq!(pool.names(), ["z3-4.13.0", "cvc5-1.4.2"]);
        assert_eq!(pool.solvers[1].input, InputMode::Stdin);
        let again = Pool::from_toml(&pool.to_toml(), Path::new("p.toml")).unwrap();
        assert_eq!(again.solvers, pool.solvers);
    }

    #[test]
    fn duplicate_name_is_reported_at_its_line() {
        let text = "[[solver]]\nname = \"a\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = [\"z3\"]\n\
                    [[solver]]\nname = \"a\"\nfamily = \"z3\"\nversion = \"2\"\ncommand = [\"z3\"]\n";
        let err = Pool::from_toml(text, Path::new("p.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("p.toml:7:8: solver name `a` appears twice"),
            "{err}"
        );
    }

    #[test]
    fn malformed_toml_has_line_and_column() {
        let text = "[[solver]]\nname = \"a\"\nfamily = \"z3\"\nversion = 1.0\ncommand = [\"z3\"]\n";
        let err = Pool::from_toml(text, Path::new("p.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("p.toml:4:11:"), "{err}");
        let err = Pool::from_toml(
            "[[solver]]\nname = \"a\"\ncolour = 1\n",
            Path::new("p.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("p.toml:3:1:") && err.contains("colour"),
            "{err}"
        );
    }

    #[test]
    fn empty_command_is_rejected() {
        let text = "[[solver]]\nname = \"a\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = []\n";
        let err = Pool::from_toml(text, Path::new("p.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("p.toml:5:11: solver `a` has an empty command"),
            "{err}"
        );
    }

    #[test]
    fn solvers_cfg_guesses_family_and_version() {
        let text = "# ET pool\n/opt/z3-4.8.5/bin/z3 model_validate=true\n\n\
                    /opt/cvc5-1.0.3/bin/cvc5 --check-models -q\n/usr/bin/cvc4 --strings-exp\n\
                    ./yices-2.6.4/bin/yices-smt2 '--logic=QF_LIA'\n";
        let pool = Pool::from_solvers_cfg(text, Path::new("/etc/et/solvers.cfg")).unwrap();
        assert_eq!(
            pool.names(),
            ["z3-4.8.5", "cvc5-1.0.3", "cvc4-line5", "yices-2.6.4"]
        );
        assert_eq!(
            pool.solvers[0].command,
            ["/opt/z3-4.8.5/bin/z3", "model_validate=true"]
        );
        assert_eq!(pool.solvers[2].version, "unknown");
        assert_eq!(
            pool.solvers[3].program(),
            "/etc/et/yices-2.6.4/bin/yices-smt2"
        );
        assert_eq!(pool.solvers[3].options(), ["--logic=QF_LIA"]);
        let err = Pool::from_solvers_cfg("z3\nz3 'oops\n", Path::new("s.cfg")).unwrap_err();
        assert_eq!(err.to_string(), "s.cfg:2:4: unterminated quote");
    }

    #[test]
    fn select_by_name_and_family() {
        let text = "/a/z3-4.8.5/z3\n/a/z3-4.13.0/z3\n/a/cvc5-1.4.2/cvc5\n";
        let pool = Pool::from_solvers_cfg(text, Path::new("s.cfg")).unwrap();
        assert_eq!(
            pool.select(&["cvc5-1.4.2", "z3"]).unwrap().names(),
            ["cvc5-1.4.2", "z3-4.8.5", "z3-4.13.0"]
        );
        let err = pool.select(&["z3-9"]).unwrap_err().to_string();
        assert!(
            err.contains("z3-9") && err.contains("z3-4.8.5, z3-4.13.0, cvc5-1.4.2"),
            "{err}"
        );
    }

    #[test]
    fn names_that_are_unsafe_in_file_names_are_refused_at_their_position() {
        for name in [
            "../../x",
            "a/b",
            "a\\\\b",
            "..",
            ".",
            "z3\\u0000",
            "z3\\nz3",
            "z3\\u001b[0m",
            "z3\\r",
        ] {
            let text = format!(
                "[[solver]]\nname = \"{name}\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = [\"z3\"]\n"
            );
            let err = Pool::from_toml(&text, Path::new("p.toml"))
                .map(|p| p.names().join(","))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("p.toml:2:8: solver name"), "{name}: {err}");
        }
        let long = "x".repeat(200);
        let text = format!(
            "[[solver]]\nname = \"{long}\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = [\"z3\"]\n"
        );
        assert!(Pool::from_toml(&text, Path::new("p.toml")).is_err());
        for ok in ["z3-4.8.5", "cvc5_1.4.2+debug", "my.z3"] {
            let text = format!(
                "[[solver]]\nname = \"{ok}\"\nfamily = \"z3\"\nversion = \"1\"\ncommand = [\"z3\"]\n"
            );
            assert!(Pool::from_toml(&text, Path::new("p.toml")).is_ok(), "{ok}");
        }
        // Names guessed from a solvers.cfg path are checked too.
        for line in ["/opt/bin/my\u{7}solver", "/opt/.."] {
            let err = Pool::from_solvers_cfg(&format!("z3\n{line}\n"), Path::new("s.cfg"))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("s.cfg:2:1: solver name"), "{err}");
        }
    }
}
