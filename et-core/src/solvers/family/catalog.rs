//! An option catalog: the options of one solver release with their types, defaults
//! and allowed values, and et's *catalog line format*, the one text form of a catalog
//! (what `et-cvc5 --et-list-options` prints, what a pool entry's `catalog` file holds
//! and what et caches):
//!
//! ```text
//! # comment
//! NAME<TAB>TYPE<TAB>DEFAULT<TAB>VALUES<TAB>NOTE[<TAB>CATEGORY]
//! ```
//!
//! `TYPE` is `bool`, `int`, `uint`, `real`, `enum` or `text`; `DEFAULT` is `-` when the
//! solver names none; `VALUES` is an enumeration's values separated by `|`, a number's
//! range `MIN..MAX` (either side may be empty), or `-`; `NOTE` is the solver's own
//! description (possibly empty), which the family's rules read (`not ready`,
//! `experimental`); `CATEGORY`, optional (a line of five fields has none, as every
//! line before it existed did), is how the solver ranks the option for its users
//! ([`OptionCategory`]: `common`, `regular`, `expert`, `undocumented`, or
//! `common-or-undocumented`); only cvc5 says, through et's C-API driver.
//!
//! With the family's curated modes ([`Curated`]) and et's common rule for options
//! left out of enumeration ([`common_leave_out`]), these are the terms a family
//! describes its options in; `crate::solvers::options` reads catalogs and builds
//! configurations from them.

use std::fmt;

/// The version of the catalog line format: 2 since a line may have a sixth field, the
/// option's category. A cached listing records the version it was written in, and
/// one of an older version is listed again (so an existing `$ET_HOME` gets cvc5's
/// categories from the driver without reinstalling).
pub const LINE_FORMAT: u32 = 2;

/// The type of an option's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool,
    /// A signed integer.
    Int,
    /// An unsigned integer.
    Uint,
    /// A floating-point number.
    Real,
    /// One of a fixed list of words.
    Enum,
    /// Free text (a file name, a tactic): nothing et can enumerate.
    Text,
}

impl OptionKind {
    /// Its word in the catalog line format.
    pub fn label(self) -> &'static str {
        match self {
            OptionKind::Bool => "bool",
            OptionKind::Int => "int",
            OptionKind::Uint => "uint",
            OptionKind::Real => "real",
            OptionKind::Enum => "enum",
            OptionKind::Text => "text",
        }
    }

    fn parse(word: &str) -> Option<OptionKind> {
        [
            OptionKind::Bool,
            OptionKind::Int,
            OptionKind::Uint,
            OptionKind::Real,
            OptionKind::Enum,
            OptionKind::Text,
        ]
        .into_iter()
        .find(|k| k.label() == word)
    }
}

impl fmt::Display for OptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// How a solver ranks one of its options for its users: cvc5's option *category* (the
/// `category` of each option in its options files, `Cvc5OptionCategory` in its API),
/// which et's cvc5 driver reads from the library. Other solvers say nothing (`None` in
/// [`OptionSpec::category`]).
///
/// What it means to a maintainer: *common* and *regular* options are the ones cvc5
/// documents for its users (`cvc5 --help`), so a wrong answer under them is a bug any
/// user can meet; *expert* options are for developers, documented only with a warning
/// to use them with care, and cvc5's maintainers rank a finding that needs one far
/// below one in the default mode or under regular options (say so when reporting, or
/// reduce the finding to a configuration without it first); *undocumented* options
/// are internal, not meant to be set by users at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OptionCategory {
    /// Among the most common options: shown first by `cvc5 --help` and in the
    /// documentation.
    Common,
    /// A documented option for users (most options).
    Regular,
    /// For experts and developers only: documented with a warning; findings that need
    /// one rank far below default-mode ones.
    Expert,
    /// Not documented at all: internal to the solver.
    Undocumented,
    /// Common or undocumented: cvc5 1.2.0 to 1.3.0, whose C API says only whether an
    /// option is expert or regular, cannot tell which.
    CommonOrUndocumented,
}

impl OptionCategory {
    /// Every category, in the order above.
    pub const ALL: [OptionCategory; 5] = [
        OptionCategory::Common,
        OptionCategory::Regular,
        OptionCategory::Expert,
        OptionCategory::Undocumented,
        OptionCategory::CommonOrUndocumented,
    ];

    /// Its word in the catalog line format (cvc5's own name for the four it has).
    pub fn label(self) -> &'static str {
        match self {
            OptionCategory::Common => "common",
            OptionCategory::Regular => "regular",
            OptionCategory::Expert => "expert",
            OptionCategory::Undocumented => "undocumented",
            OptionCategory::CommonOrUndocumented => "common-or-undocumented",
        }
    }

    /// Whether the option is for experts (developers) only.
    pub fn is_expert(self) -> bool {
        self == OptionCategory::Expert
    }

    /// The category whose label is `word`.
    pub fn parse(word: &str) -> Option<OptionCategory> {
        OptionCategory::ALL.into_iter().find(|c| c.label() == word)
    }
}

impl fmt::Display for OptionCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The category of the option called `option` in `catalog` (any options: what
/// [`parse_lines`] read, or an `options::Catalog`'s `options.iter().map(|(o, _)| o)`;
/// for a pool's solver by name, `crate::solvers::options::category_of`), if the
/// catalog has the option and the solver gave it one. Whether a finding needs an
/// expert option: `category_of(..).is_some_and(OptionCategory::is_expert)`.
pub fn category_of<'a>(
    catalog: impl IntoIterator<Item = &'a OptionSpec>,
    option: &str,
) -> Option<OptionCategory> {
    catalog
        .into_iter()
        .find(|o| o.name == option)
        .and_then(|o| o.category)
}

/// One option of a solver release, as the solver describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name as the solver's command line takes it (`smt.arith.solver`, `nl-cov`).
    pub name: String,
    /// The type of its value.
    pub kind: OptionKind,
    /// Its default value, if the solver names one.
    pub default: Option<String>,
    /// An enumeration's values, in the solver's order.
    pub values: Vec<String>,
    /// A number's smallest allowed value, if bounded.
    pub min: Option<String>,
    /// A number's largest allowed value, if bounded.
    pub max: Option<String>,
    /// The solver's description of it (may be empty).
    pub note: String,
    /// How the solver ranks it for its users, if it says (cvc5 only).
    pub category: Option<OptionCategory>,
}

impl OptionSpec {
    /// An option of `kind` with a default and nothing else known.
    pub fn new(name: &str, kind: OptionKind, default: Option<&str>) -> OptionSpec {
        OptionSpec {
            name: name.to_string(),
            kind,
            default: default.map(str::to_string),
            values: Vec::new(),
            min: None,
            max: None,
            note: String::new(),
            category: None,
        }
    }

    /// The option as one line of the catalog line format (no newline): five fields,
    /// six with a category.
    pub fn to_line(&self) -> String {
        let values = if !self.values.is_empty() {
            self.values.join("|")
        } else if self.min.is_some() || self.max.is_some() {
            format!(
                "{}..{}",
                self.min.as_deref().unwrap_or(""),
                self.max.as_deref().unwrap_or("")
            )
        } else {
            "-".to_string()
        };
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        let mut line = format!(
            "{}\t{}\t{}\t{}\t{}",
            clean(&self.name),
            self.kind,
            clean(self.default.as_deref().unwrap_or("-")),
            clean(&values),
            clean(&self.note)
        );
        if let Some(category) = self.category {
            line.push('\t');
            line.push_str(category.label());
        }
        line
    }

    /// Whether `value` is one this option allows, as far as the catalog tells.
    pub fn allows(&self, value: &str) -> bool {
        match self.kind {
            OptionKind::Bool => value == "true" || value == "false",
            OptionKind::Enum => self.values.iter().any(|v| v == value),
            OptionKind::Int | OptionKind::Uint => value.parse::<i128>().is_ok_and(|v| {
                let bound = |b: &Option<String>| b.as_deref().and_then(|b| b.parse::<i128>().ok());
                (self.kind == OptionKind::Int || v >= 0)
                    && bound(&self.min).is_none_or(|m| v >= m)
                    && bound(&self.max).is_none_or(|m| v <= m)
            }),
            OptionKind::Real => value.parse::<f64>().is_ok_and(|v| {
                let bound = |b: &Option<String>| b.as_deref().and_then(|b| b.parse::<f64>().ok());
                v.is_finite()
                    && bound(&self.min).is_none_or(|m| v >= m)
                    && bound(&self.max).is_none_or(|m| v <= m)
            }),
            OptionKind::Text => true,
        }
    }
}

/// A line of a catalog that is not in the catalog line format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// Reads text in the catalog line format (blank lines and `#` comments skipped); a
/// line of five fields has no category, and so has one whose sixth field is empty or
/// `-`.
pub fn parse_lines(text: &str) -> Result<Vec<OptionSpec>, LineError> {
    let mut options = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |message: String| LineError {
            line: i + 1,
            message,
        };
        let fields: Vec<&str> = line.splitn(6, '\t').collect();
        if fields.len() < 4 {
            return Err(error(format!(
                "expected NAME, TYPE, DEFAULT, VALUES and NOTE separated by tabs, got `{line}`"
            )));
        }
        let kind = OptionKind::parse(fields[1]).ok_or_else(|| {
            error(format!(
                "unknown type `{}` (bool, int, uint, real, enum or text)",
                fields[1]
            ))
        })?;
        if fields[0].is_empty() || fields[0].contains(char::is_whitespace) {
            return Err(error(format!("bad option name `{}`", fields[0])));
        }
        let mut spec = OptionSpec::new(fields[0], kind, Some(fields[2]).filter(|d| *d != "-"));
        let values = fields[3];
        if values != "-" {
            match values.split_once("..").filter(|_| kind != OptionKind::Enum) {
                Some((min, max)) => {
                    spec.min = Some(min.to_string()).filter(|m| !m.is_empty());
                    spec.max = Some(max.to_string()).filter(|m| !m.is_empty());
                }
                None => spec.values = values.split('|').map(str::to_string).collect(),
            }
        }
        if kind == OptionKind::Enum && spec.values.is_empty() {
            return Err(error(format!(
                "enumeration `{}` lists no values",
                fields[0]
            )));
        }
        spec.note = fields.get(4).unwrap_or(&"").to_string();
        spec.category = match fields.get(5).map(|c| c.trim()) {
            None | Some("" | "-") => None,
            Some(word) => Some(OptionCategory::parse(word).ok_or_else(|| {
                error(format!(
                    "unknown category `{word}` (common, regular, expert, undocumented \
                     or common-or-undocumented)"
                ))
            })?),
        };
        options.push(spec);
    }
    Ok(options)
}

/// `options` in the catalog line format, one line each, after a `#` header line.
pub fn to_lines(header: &str, options: &[OptionSpec]) -> String {
    let mut text = format!("# {header}\n");
    for o in options {
        text.push_str(&o.to_line());
        text.push('\n');
    }
    text
}

/// A theory an option acts on. A configuration whose options all act only on theories
/// a grammar's logic lacks computes what the default mode does on its formulas (z3's
/// `smt.arith.*` on bit-vector formulas, cvc5's `strings-*` on integers): a campaign
/// leaves it out for that grammar and says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theory {
    /// Integers and reals (linear, non-linear, transcendental).
    Arithmetic,
    /// Bit-vectors.
    BitVectors,
    /// Floating point.
    Floats,
    /// Arrays.
    Arrays,
    /// Strings, sequences and regular expressions.
    Strings,
    /// Algebraic datatypes.
    Datatypes,
    /// Quantifiers (instantiation, model-based quantifier solving, macros).
    Quantifiers,
    /// Theories no standard logic names, only `ALL`: finite fields, sets, higher-order
    /// functions, syntax-guided synthesis.
    Extensions,
}

impl Theory {
    /// Every theory, in declaration order.
    pub const ALL: [Theory; 8] = [
        Theory::Arithmetic,
        Theory::BitVectors,
        Theory::Floats,
        Theory::Arrays,
        Theory::Strings,
        Theory::Datatypes,
        Theory::Quantifiers,
        Theory::Extensions,
    ];

    /// The theory in a few words.
    pub fn label(self) -> &'static str {
        match self {
            Theory::Arithmetic => "arithmetic",
            Theory::BitVectors => "bit-vectors",
            Theory::Floats => "floating point",
            Theory::Arrays => "arrays",
            Theory::Strings => "strings",
            Theory::Datatypes => "datatypes",
            Theory::Quantifiers => "quantifiers",
            Theory::Extensions => "theories beyond the standard logics",
        }
    }
}

/// Bit-vector options act on floating point too: z3 and cvc5 both solve it by
/// reducing it to bit-vectors.
pub const BIT_VECTORS_AND_FLOATS: &[Theory] = &[Theory::BitVectors, Theory::Floats];

/// The theories the first entry of a family's `table` of (name pattern, theories)
/// that `option` `matches` acts only on; empty (any formula) when none matches.
pub fn acts_only_on_by(
    option: &str,
    table: &'static [(&'static str, &'static [Theory])],
    matches: impl Fn(&str, &str) -> bool,
) -> &'static [Theory] {
    table
        .iter()
        .find(|(pattern, _)| matches(option, pattern))
        .map_or(&[], |(_, theories)| theories)
}

/// A curated mode of a family: options the published campaigns ran, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Curated {
    /// Its short name, the configuration's suffix (`newcore`).
    pub name: &'static str,
    /// Its options and values.
    pub options: &'static [(&'static str, &'static str)],
    /// What it is, for `et options enumerate`.
    pub description: &'static str,
}

/// Words in option and file names that mark options which only change output,
/// tracing, limits or files, or randomness: the rule every family starts from.
const OUTPUT_WORDS: &[(&str, &str)] = &[
    ("dump", "output only (dumps)"),
    ("trace", "tracing"),
    ("verbose", "output only (verbosity)"),
    ("verbosity", "output only (verbosity)"),
    ("stats", "output only (statistics)"),
    ("statistics", "output only (statistics)"),
    ("print", "output only (printing)"),
    ("output", "output only"),
    ("debug", "debugging"),
    ("log", "output only (logging)"),
    ("file", "files"),
    ("timeout", "a limit"),
    ("tlimit", "a limit"),
    ("rlimit", "a limit"),
    ("memory", "a limit (memory)"),
    ("max_memory", "a limit (memory)"),
    ("seed", "random seed"),
    ("proof", "proofs"),
    ("proofs", "proofs"),
    ("threads", "threads (nondeterministic)"),
];

/// Why `option` is left out: by et's common rule ([`common_leave_out`]), else by the
/// first entry of a family's `table` of (name pattern, reason) whose pattern the name
/// `matches`.
pub fn leave_out_by(
    option: &OptionSpec,
    table: &[(&str, &str)],
    matches: impl Fn(&str, &str) -> bool,
) -> Option<String> {
    common_leave_out(option).or_else(|| {
        table
            .iter()
            .find(|(pattern, _)| matches(&option.name, pattern))
            .map(|(_, why)| why.to_string())
    })
}

/// Why an option is left out by et's common rule: one of the words of its name
/// (split at `.`, `_` and `-`) marks output, tracing, limits, files, proofs, threads
/// or random seeds. Families add their own rules ([`super::Family::leave_out`]).
pub fn common_leave_out(option: &OptionSpec) -> Option<String> {
    let words: Vec<&str> = option.name.split(['.', '_', '-']).collect();
    OUTPUT_WORDS
        .iter()
        .find(|(w, _)| words.contains(w))
        .map(|(_, why)| why.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_what_they_wrote() {
        let mut e = OptionSpec::new("decision", OptionKind::Enum, Some("internal"));
        e.values = vec!["internal".into(), "justification".into()];
        let mut r = OptionSpec::new("random-freq", OptionKind::Real, Some("0"));
        r.min = Some("0".into());
        r.max = Some("1".into());
        r.note = "frequency\tof random decisions".into();
        let t = OptionSpec::new("default_tactic", OptionKind::Text, None);
        let text = to_lines("test", &[e.clone(), r.clone(), t.clone()]);
        let back = parse_lines(&text).unwrap();
        r.note = "frequency of random decisions".into();
        assert_eq!(back, [e, r, t]);
    }

    #[test]
    fn a_sixth_field_is_the_category_and_five_fields_have_none() {
        let mut expert = OptionSpec::new("bv-rw-extend-eq", OptionKind::Bool, Some("false"));
        expert.category = Some(OptionCategory::Expert);
        let line = expert.to_line();
        assert_eq!(line, "bv-rw-extend-eq\tbool\tfalse\t-\t\texpert");
        let mut text = to_lines("cvc5 1.4.2 options", &[expert.clone()]);
        // Lines of five fields (every catalog written before categories), and an empty
        // or `-` sixth field, have none.
        text.push_str("produce-models\tbool\tfalse\t-\t\n");
        text.push_str("check-models\tbool\tfalse\t-\t\t-\n");
        text.push_str("nl-cov\tbool\tfalse\t-\t\t\n");
        text.push_str("stats\tbool\tfalse\t-\n");
        let back = parse_lines(&text).unwrap();
        assert_eq!(back[0], expert);
        assert!(back[1..].iter().all(|o| o.category.is_none()), "{back:?}");
        for c in OptionCategory::ALL {
            let line = format!("o\tbool\tfalse\t-\tnote\t{c}");
            let o = &parse_lines(&line).unwrap()[0];
            assert_eq!((o.category, o.note.as_str()), (Some(c), "note"));
            assert_eq!(o.to_line(), line);
        }
        let err = parse_lines("o\tbool\tfalse\t-\t\tsenior\n").unwrap_err();
        assert!(err.message.contains("senior"), "{err}");
        assert_eq!(
            category_of(&back, "bv-rw-extend-eq"),
            Some(OptionCategory::Expert)
        );
        assert!(category_of(&back, "bv-rw-extend-eq").is_some_and(OptionCategory::is_expert));
        assert_eq!(category_of(&back, "produce-models"), None);
        assert_eq!(category_of(&back, "no-such-option"), None);
    }

    #[test]
    fn bad_lines_name_their_line() {
        let err = parse_lines("# x\na\tbool\n").unwrap_err();
        assert_eq!(err.line, 2);
        let err = parse_lines("a\tcolour\tred\t-\t\n").unwrap_err();
        assert!(err.message.contains("colour"), "{err}");
        assert!(parse_lines("a\tenum\tx\t-\t\n").is_err());
    }

    #[test]
    fn allowed_values_follow_type_and_range() {
        let mut u = OptionSpec::new("n", OptionKind::Uint, Some("4"));
        u.max = Some("4294967295".into());
        assert!(u.allows("0") && u.allows("4294967295"));
        assert!(!u.allows("-1") && !u.allows("42949672950") && !u.allows("x"));
        let b = OptionSpec::new("b", OptionKind::Bool, Some("true"));
        assert!(b.allows("false") && !b.allows("0"));
    }

    #[test]
    fn common_rule_leaves_out_output_limits_and_seeds() {
        let out = |name| common_leave_out(&OptionSpec::new(name, OptionKind::Bool, None));
        assert!(out("dump_models").is_some());
        assert!(out("trace_file_name").is_some());
        assert!(out("sat.random_seed").is_some());
        assert!(out("tlimit-per").is_some());
        assert_eq!(out("smt.arith.solver"), None);
        assert_eq!(out("nl-cov"), None);
    }
}

/// One tactic of a solver (z3's `check-sat-using`), as its listing gives it: its name
/// and its Boolean parameters with their defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tactic {
    /// The tactic's name (`nla2bv`).
    pub name: String,
    /// Its Boolean parameters, each with its default.
    pub flags: Vec<(String, bool)>,
}
