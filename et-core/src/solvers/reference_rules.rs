//! Who judges whom: the reference of every solver under test, for one grammar.
//!
//! A solver is judged by an ordered list of *judges*; the first that decides a formula
//! (sat or unsat) is its reference on that formula (the published campaign's trunk
//! rule, where one judge is the usual case). The list comes from the first of:
//!
//! 1. `et run --reference A,B`: the same list for every solver (a judge never judges
//!    itself);
//! 2. the solver's own `reference = [...]` in the pool file;
//! 3. the pool's `[[reference]]` rules, in file order: the first whose conditions the
//!    solver meets (family, names, version range, grammar);
//! 4. et's study rules ([`study_rules`]): z3 releases up to 4.8.10 implement strings
//!    as 8-bit characters, so on `strings` they are judged by the newest z3 run without
//!    Unicode (`unicode=false`, or `encoding=ascii` from 4.8.13 on), as the published
//!    study did, not by a solver whose Unicode semantics would make every difference
//!    look like unsoundness;
//! 5. ET's rule: the newest release of the other family
//!    ([`crate::solvers::family::Family::reference_families`]).
//!
//! An option configuration (a solver with [`SolverConfig::configuration`]) has its
//! release in default mode put first in its list, whichever rule gave the rest (a
//! same-release differential), and is never a family's newest release itself.
//!
//! A judge is named by a solver name or by a family (its newest release in the pool,
//! other than the solver being judged). A rule with `unicode = false` runs its judges
//! with their family's 8-bit strings options
//! ([`crate::solvers::family::Family::ascii_strings_options`]): a *derived* solver
//! named `<judge>-ascii` when options are needed.
//!
//! *Must not:* run solvers or read answers; the campaign walks the lists.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use super::family;
use super::pool::{Pool, SolverConfig};
use crate::version::compare_versions;

/// Which solvers a rule applies to: all conditions given must hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleSolvers {
    /// The solver's family (`z3`), if the rule names one.
    pub family: Option<String>,
    /// Solver names; empty for any.
    pub names: Vec<String>,
    /// The solver's version range, if any.
    pub versions: Option<VersionRange>,
    /// Grammar names (built-in name or `.pest` stem); empty for any.
    pub grammars: Vec<String>,
}

/// One `[[reference]]` rule of a pool file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceRule {
    /// The solvers it judges.
    pub solvers: RuleSolvers,
    /// Its judges, in order: solver names or families.
    pub judges: Vec<String>,
    /// `false`: run the judges with their family's 8-bit strings options.
    pub unicode: bool,
    /// Where it was written, `pool.toml:12`, for errors.
    pub origin: String,
}

impl RuleSolvers {
    fn matches(&self, solver: &SolverConfig, grammar: &str) -> bool {
        self.family
            .as_ref()
            .is_none_or(|f| f.eq_ignore_ascii_case(&solver.family))
            && (self.names.is_empty() || self.names.contains(&solver.name))
            && self
                .versions
                .as_ref()
                .is_none_or(|v| v.contains(&solver.version))
            && (self.grammars.is_empty() || self.grammars.iter().any(|g| g == grammar))
    }
}

impl ReferenceRule {
    /// The rule as a `[[reference]]` block of a pool file.
    pub fn to_toml(&self) -> String {
        let q = |s: &str| toml::Value::String(s.to_string()).to_string();
        let list = |v: &[String]| v.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ");
        let mut out = String::from("[[reference]]\n");
        if let Some(f) = &self.solvers.family {
            out.push_str(&format!("family = {}\n", q(f)));
        }
        if !self.solvers.names.is_empty() {
            out.push_str(&format!("solvers = [{}]\n", list(&self.solvers.names)));
        }
        if let Some(v) = &self.solvers.versions {
            out.push_str(&format!("versions = {}\n", q(&v.to_string())));
        }
        if !self.solvers.grammars.is_empty() {
            out.push_str(&format!("grammars = [{}]\n", list(&self.solvers.grammars)));
        }
        out.push_str(&format!("judges = [{}]\n", list(&self.judges)));
        if !self.unicode {
            out.push_str("unicode = false\n");
        }
        out
    }
}

/// et's rules for studies, consulted after the pool's own: a release of a family whose
/// strings were 8-bit before some release ([`Family::unicode_strings_since`]: z3 up to
/// 4.8.10) is judged on `strings` by the newest release of its family run without
/// Unicode strings.
///
/// [`Family::unicode_strings_since`]: super::family::Family::unicode_strings_since
pub fn study_rules() -> Vec<ReferenceRule> {
    super::family::FAMILIES
        .iter()
        .filter_map(|family| {
            let since = family.unicode_strings_since()?;
            Some(ReferenceRule {
                solvers: RuleSolvers {
                    family: Some(family.name().to_string()),
                    names: Vec::new(),
                    versions: Some(format!("< {since}").parse().expect("a valid range")),
                    grammars: vec!["strings".to_string()],
                },
                judges: vec![family.name().to_string()],
                unicode: false,
                origin: format!(
                    "et's study rule for {} before {since} on strings",
                    family.name()
                ),
            })
        })
        .collect()
}

/// A version range: comma-separated bounds `OP VERSION` (`<`, `<=`, `>`, `>=`, `=`;
/// a bare version means `=`), compared in release order
/// ([`crate::version::compare_versions`]): `<= 4.8.10`, `>= 4.8.11, < 4.13`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRange {
    bounds: Vec<(Op, String)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "=",
        }
    }

    fn holds(self, order: Ordering) -> bool {
        match self {
            Op::Lt => order == Ordering::Less,
            Op::Le => order != Ordering::Greater,
            Op::Gt => order == Ordering::Greater,
            Op::Ge => order != Ordering::Less,
            Op::Eq => order == Ordering::Equal,
        }
    }
}

/// A version range that does not parse, naming the offending bound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad version range `{text}`: {why} (expected bounds like `<= 4.8.10` or `>= 4.8.11, < 4.13`)"
)]
pub struct BadVersionRange {
    /// The range as written.
    pub text: String,
    /// What is wrong.
    pub why: String,
}

impl FromStr for VersionRange {
    type Err = BadVersionRange;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |why: String| BadVersionRange {
            text: text.to_string(),
            why,
        };
        let mut bounds = Vec::new();
        for part in text.split(',') {
            let part = part.trim();
            let (op, rest) = [
                ("<=", Op::Le),
                (">=", Op::Ge),
                ("==", Op::Eq),
                ("<", Op::Lt),
                (">", Op::Gt),
                ("=", Op::Eq),
            ]
            .iter()
            .find_map(|(sym, op)| part.strip_prefix(sym).map(|rest| (*op, rest)))
            .unwrap_or((Op::Eq, part));
            let version = rest.trim();
            if version.is_empty() {
                return Err(bad(format!("`{part}` has no version")));
            }
            if version.contains(|c: char| c.is_whitespace() || "<>=".contains(c)) {
                return Err(bad(format!("`{part}` is not one bound")));
            }
            bounds.push((op, version.to_string()));
        }
        Ok(VersionRange { bounds })
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .bounds
            .iter()
            .map(|(op, v)| format!("{} {v}", op.symbol()))
            .collect();
        f.write_str(&parts.join(", "))
    }
}

impl VersionRange {
    /// Whether `version` lies in the range.
    pub fn contains(&self, version: &str) -> bool {
        self.bounds
            .iter()
            .all(|(op, bound)| op.holds(compare_versions(version, bound)))
    }
}

/// A judge that cannot be found or run as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    /// A judge names neither a solver nor a family of the pool.
    #[error("{origin}: reference `{judge}` is neither a solver nor a family of the pool (solvers: {available})")]
    Unknown {
        /// Where the judge was named (`--reference`, a pool file line, ...).
        origin: String,
        /// The judge as written.
        judge: String,
        /// The pool's solver names, comma-separated.
        available: String,
    },
    /// `unicode = false` for a judge whose family has no 8-bit strings mode.
    #[error("{origin}: `unicode = false` but et knows no way to run {judge} ({family}) without Unicode strings")]
    NoAsciiMode {
        /// Where the rule was written.
        origin: String,
        /// The judge's solver name.
        judge: String,
        /// Its family.
        family: String,
    },
    /// A derived judge's name is taken by a pool solver.
    #[error("{origin}: the 8-bit strings variant of {judge} would be named `{name}`, which the pool already uses for another solver")]
    NameTaken {
        /// Where the rule was written.
        origin: String,
        /// The judge it derives from.
        judge: String,
        /// The name it would get.
        name: String,
    },
}

/// Which rule gave a solver its judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `--reference`.
    Override,
    /// The solver's pool entry.
    Entry,
    /// A rule: the pool's or et's, by its origin.
    Rule(String),
    /// ET's rule: the newest release of the other family.
    OtherFamily,
    /// Nothing could judge it.
    None,
}

/// The judges of one solver under test.
#[derive(Debug, Clone)]
pub struct Judges {
    /// The solver under test's name.
    pub solver: String,
    /// Its judges in order (possibly derived solvers that are not in the pool).
    pub judges: Vec<SolverConfig>,
    /// Where they came from.
    pub source: Source,
}

/// The judges of each solver of `under_test` (same order) on `grammar`, by the order
/// of precedence of the module documentation. `explicit` is `--reference`'s list.
pub fn assign(
    pool: &Pool,
    under_test: &[SolverConfig],
    grammar: &str,
    explicit: Option<&[String]>,
) -> Result<Vec<Judges>, ReferenceError> {
    let study = study_rules();
    let mut out = Vec::new();
    for solver in under_test {
        let resolver = Resolver { pool, solver };
        let (judges, source) = if let Some(list) = explicit {
            (resolver.list(list, "--reference")?, Source::Override)
        } else if !solver.reference.is_empty() {
            let origin = format!("the pool entry of {}", solver.name);
            (resolver.list(&solver.reference, &origin)?, Source::Entry)
        } else {
            resolver.by_rules(&pool.rules, &study, grammar)?
        };
        let judges = match &solver.configuration {
            Some(c) => resolver.default_mode_first(&c.of, judges)?,
            None => judges,
        };
        out.push(Judges {
            solver: solver.name.clone(),
            judges,
            source,
        });
    }
    Ok(out)
}

/// The judges of each solver under test on `grammar`, by name, in order (empty:
/// nothing to judge against), by [`assign`]: a judge may be a solver that is not under
/// test, or a variant of one (an old z3 on strings is judged by a z3 without Unicode).
pub fn judges_by_solver(
    pool: &Pool,
    under_test: &[SolverConfig],
    grammar: &str,
    explicit: Option<&[String]>,
) -> Result<HashMap<String, Vec<SolverConfig>>, ReferenceError> {
    Ok(assign(pool, under_test, grammar, explicit)?
        .into_iter()
        .map(|j| (j.solver, j.judges))
        .collect())
}

struct Resolver<'a> {
    pool: &'a Pool,
    solver: &'a SolverConfig,
}

impl Resolver<'_> {
    /// The first rule (pool's, then et's) that applies and yields a judge, else ET's
    /// other-family rule. Et's own rules only apply when the pool has their judges.
    fn by_rules(
        &self,
        pool_rules: &[ReferenceRule],
        study_rules: &[ReferenceRule],
        grammar: &str,
    ) -> Result<(Vec<SolverConfig>, Source), ReferenceError> {
        for (rule, strict) in pool_rules
            .iter()
            .map(|r| (r, true))
            .chain(study_rules.iter().map(|r| (r, false)))
        {
            if !rule.solvers.matches(self.solver, grammar) {
                continue;
            }
            let judges = match self.list(&rule.judges, &rule.origin) {
                Ok(judges) => judges,
                Err(ReferenceError::Unknown { .. }) if !strict => continue,
                Err(e) => return Err(e),
            };
            let judges = if rule.unicode {
                judges
            } else {
                judges
                    .iter()
                    .map(|j| self.without_unicode(j, &rule.origin))
                    .collect::<Result<_, _>>()?
            };
            if !judges.is_empty() {
                return Ok((judges, Source::Rule(rule.origin.clone())));
            }
        }
        let other = family::reference_families(&self.solver.family)
            .iter()
            .find_map(|f| self.newest_of(f));
        Ok(match other {
            Some(judge) => (vec![judge.clone()], Source::OtherFamily),
            None => (Vec::new(), Source::None),
        })
    }

    /// The judges a list names, in order, without the solver itself and duplicates.
    /// A name that is neither a solver nor a family of the pool is an error.
    fn list(&self, names: &[String], origin: &str) -> Result<Vec<SolverConfig>, ReferenceError> {
        let mut judges: Vec<SolverConfig> = Vec::new();
        for name in names {
            let judge = match self.pool.get(name) {
                Some(exact) => Some(exact),
                None if self.is_family(name) => self.newest_of(name),
                None => {
                    return Err(ReferenceError::Unknown {
                        origin: origin.to_string(),
                        judge: name.clone(),
                        available: self.pool.names().join(", "),
                    })
                }
            };
            if let Some(j) = judge.filter(|j| j.name != self.solver.name) {
                if !judges.iter().any(|k| k.name == j.name) {
                    judges.push(j.clone());
                }
            }
        }
        Ok(judges)
    }

    /// `judges` with `base`, the release a configuration configures, first: an
    /// option configuration is judged first by its release in default mode.
    fn default_mode_first(
        &self,
        base: &str,
        judges: Vec<SolverConfig>,
    ) -> Result<Vec<SolverConfig>, ReferenceError> {
        let base = self.pool.get(base).ok_or_else(|| ReferenceError::Unknown {
            origin: format!("the configuration {}", self.solver.name),
            judge: base.to_string(),
            available: self.pool.names().join(", "),
        })?;
        let mut first = vec![base.clone()];
        first.extend(judges.into_iter().filter(|j| j.name != base.name));
        Ok(first)
    }

    fn is_family(&self, name: &str) -> bool {
        self.pool
            .solvers
            .iter()
            .any(|s| s.family.eq_ignore_ascii_case(name))
    }

    /// The newest release of `family` in the pool other than the solver judged.
    fn newest_of(&self, family: &str) -> Option<&SolverConfig> {
        crate::version::newest(
            self.pool.solvers.iter().filter(|s| {
                s.family.eq_ignore_ascii_case(family)
                    && s.name != self.solver.name
                    && s.configuration.is_none()
            }),
            |s| s.version.as_str(),
            |a, b| a.name.cmp(&b.name),
        )
    }

    /// `judge` run with its family's 8-bit strings options: itself when it needs none,
    /// else a derived solver `<name>-ascii`.
    fn without_unicode(
        &self,
        judge: &SolverConfig,
        origin: &str,
    ) -> Result<SolverConfig, ReferenceError> {
        let options = judge
            .family_info()
            .ascii_strings_options(&judge.version)
            .ok_or_else(|| ReferenceError::NoAsciiMode {
                origin: origin.to_string(),
                judge: judge.name.clone(),
                family: judge.family.clone(),
            })?;
        if options.is_empty() {
            return Ok(judge.clone());
        }
        let name = format!("{}-ascii", judge.name);
        if self.pool.get(&name).is_some() {
            return Err(ReferenceError::NameTaken {
                origin: origin.to_string(),
                judge: judge.name.clone(),
                name,
            });
        }
        let mut derived = judge.clone();
        derived.name = name;
        derived
            .command
            .extend(options.iter().map(|o| o.to_string()));
        derived.reference = Vec::new();
        Ok(derived)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn solver(name: &str, family: &str, version: &str) -> SolverConfig {
        SolverConfig::new(name, family, version, vec![format!("/opt/{name}")])
    }

    fn pool(solvers: &[(&str, &str, &str)]) -> Pool {
        Pool {
            solvers: solvers.iter().map(|(n, f, v)| solver(n, f, v)).collect(),
            ..Pool::default()
        }
    }

    fn names(judges: &[Judges]) -> Vec<Vec<&str>> {
        judges
            .iter()
            .map(|j| j.judges.iter().map(|s| s.name.as_str()).collect())
            .collect()
    }

    #[test]
    fn version_ranges_parse_and_compare_in_release_order() {
        let r: VersionRange = "<= 4.8.10".parse().unwrap();
        assert!(r.contains("4.8.9") && r.contains("4.8.10") && !r.contains("4.8.11"));
        assert!(!r.contains("trunk"), "unnumbered builds are newest");
        let r: VersionRange = ">=4.8.11, <4.13".parse().unwrap();
        assert!(r.contains("4.8.11") && r.contains("4.12.6") && !r.contains("4.13.0"));
        assert_eq!(r.to_string(), ">= 4.8.11, < 4.13");
        let r: VersionRange = "4.8.7".parse().unwrap();
        assert!(r.contains("4.8.7") && !r.contains("4.8.8"));
        let err = "<= ".parse::<VersionRange>().unwrap_err().to_string();
        assert!(err.contains("`<=` has no version"), "{err}");
        let err = "< 4.8 4.9".parse::<VersionRange>().unwrap_err().to_string();
        assert!(err.contains("`< 4.8 4.9` is not one bound"), "{err}");
    }

    #[test]
    fn et_rule_is_the_newest_of_the_other_family() {
        let p = pool(&[
            ("z3-4.8.9", "z3", "4.8.9"),
            ("z3-4.8.10", "z3", "4.8.10"),
            ("cvc4-1.8", "cvc4", "1.8"),
            ("cvc5-1.0.3", "cvc5", "1.0.3"),
            ("cvc5-1.0.10", "cvc5", "1.0.10"),
            ("yices-2.6", "yices", "2.6.4"),
        ]);
        let judges = assign(&p, &p.solvers, "core", None).unwrap();
        assert_eq!(
            names(&judges),
            [
                ["cvc5-1.0.10"],
                ["cvc5-1.0.10"],
                ["z3-4.8.10"],
                ["z3-4.8.10"],
                ["z3-4.8.10"],
                ["z3-4.8.10"],
            ]
        );
        assert!(judges.iter().all(|j| j.source == Source::OtherFamily));
        // z3 falls back to cvc4; a lone family has no judge.
        let p = pool(&[("z3", "z3", "4.8.12"), ("cvc4", "cvc4", "1.8")]);
        assert_eq!(
            names(&assign(&p, &p.solvers, "core", None).unwrap()),
            [["cvc4"], ["z3"]]
        );
        let p = pool(&[("a", "z3", "4.8.12"), ("b", "z3", "4.8.5")]);
        let judges = assign(&p, &p.solvers, "core", None).unwrap();
        assert!(judges
            .iter()
            .all(|j| j.judges.is_empty() && j.source == Source::None));
    }

    #[test]
    fn override_is_an_ordered_list_that_never_judges_itself() {
        let p = pool(&[
            ("z3-old", "z3", "4.8.5"),
            ("z3-new", "z3", "4.8.12"),
            ("cvc5", "cvc5", "1.0.3"),
        ]);
        let list = ["z3-old".to_string(), "cvc5".to_string()];
        let judges = assign(&p, &p.solvers, "core", Some(&list)).unwrap();
        assert_eq!(
            names(&judges),
            [vec!["cvc5"], vec!["z3-old", "cvc5"], vec!["z3-old"]]
        );
        let err = assign(&p, &p.solvers, "core", Some(&["boolector".to_string()]))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "--reference: reference `boolector` is neither a solver nor a family of the pool \
             (solvers: z3-old, z3-new, cvc5)"
        );
        // A family name means its newest release other than the judged solver.
        let judges = assign(&p, &p.solvers, "core", Some(&["z3".to_string()])).unwrap();
        assert_eq!(names(&judges), [["z3-new"], ["z3-old"], ["z3-new"]]);
    }

    #[test]
    fn study_rule_judges_old_z3_on_strings_without_unicode() {
        let p = pool(&[
            ("z3-4.8.7", "z3", "4.8.7"),
            ("z3-4.8.12", "z3", "4.8.12"),
            ("z3-4.16.0", "z3", "4.16.0"),
            ("cvc5-1.4.2", "cvc5", "1.4.2"),
        ]);
        let judges = assign(&p, &p.solvers, "strings", None).unwrap();
        assert_eq!(
            names(&judges),
            [
                ["z3-4.16.0-ascii"],
                ["cvc5-1.4.2"],
                ["cvc5-1.4.2"],
                ["z3-4.16.0"]
            ]
        );
        assert_eq!(
            judges[0].judges[0].command,
            ["/opt/z3-4.16.0", "encoding=ascii"]
        );
        assert!(matches!(judges[0].source, Source::Rule(ref o) if o.contains("study")));
        // Other grammars keep ET's rule.
        let judges = assign(&p, &p.solvers, "ints", None).unwrap();
        assert_eq!(names(&judges)[0], ["cvc5-1.4.2"]);
        // With only z3 4.8.11/4.8.12 newer, the switch is `unicode=false`.
        let p = pool(&[("z3-4.8.7", "z3", "4.8.7"), ("z3-4.8.12", "z3", "4.8.12")]);
        let judges = assign(&p, &p.solvers[..1], "strings", None).unwrap();
        assert_eq!(
            judges[0].judges[0].command,
            ["/opt/z3-4.8.12", "unicode=false"]
        );
        // An older z3 is 8-bit already: it judges as it is.
        let p = pool(&[("z3-4.8.7", "z3", "4.8.7"), ("z3-4.8.10", "z3", "4.8.10")]);
        let judges = assign(&p, &p.solvers[..1], "strings", None).unwrap();
        assert_eq!(names(&judges), [["z3-4.8.10"]]);
    }

    #[test]
    fn pool_rules_come_first_and_entries_before_them() {
        let text = r#"
[[solver]]
name = "z3-trunk"
family = "z3"
version = "trunk"
command = ["/opt/z3"]

[[solver]]
name = "z3-4.8.7"
family = "z3"
version = "4.8.7"
command = ["/opt/z3-4.8.7"]

[[solver]]
name = "cvc5-1.4.2"
family = "cvc5"
version = "1.4.2"
command = ["/opt/cvc5"]
reference = "z3-4.8.7"

[[reference]]
solvers = ["z3-trunk"]
judges = ["cvc5", "z3-4.8.7"]

[[reference]]
family = "z3"
grammars = ["strings"]
judges = "cvc5-1.4.2"
"#;
        let p = Pool::from_toml(text, Path::new("p.toml")).unwrap();
        let judges = assign(&p, &p.solvers, "strings", None).unwrap();
        assert_eq!(
            names(&judges),
            [
                vec!["cvc5-1.4.2", "z3-4.8.7"],
                vec!["cvc5-1.4.2"],
                vec!["z3-4.8.7"]
            ]
        );
        assert_eq!(judges[0].source, Source::Rule("p.toml:23".into()));
        assert_eq!(judges[2].source, Source::Entry);
        // The pool's rules round-trip through to_toml.
        let again = Pool::from_toml(&p.to_toml(), Path::new("p.toml")).unwrap();
        assert_eq!(again.solvers, p.solvers);
        assert_eq!(again.rules.len(), 2);
        assert_eq!(again.rules[1].judges, ["cvc5-1.4.2"]);
    }

    #[test]
    fn bad_rules_are_reported_where_they_are_written() {
        let text =
            "[[solver]]\nname = \"cvc5\"\nfamily = \"cvc5\"\nversion = \"1\"\ncommand = [\"c\"]\n\
                    [[reference]]\njudges = [\"z3\"]\n";
        let p = Pool::from_toml(text, Path::new("p.toml")).unwrap();
        let err = assign(&p, &p.solvers, "core", None)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("p.toml:7: reference `z3` is neither"),
            "{err}"
        );
        let text = "[[reference]]\nversions = \"<< 4\"\njudges = [\"z3\"]\n";
        let err = Pool::from_toml(text, Path::new("p.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("p.toml:2:12: bad version range `<< 4`"),
            "{err}"
        );
        let text = "[[reference]]\njudges = []\n";
        let err = Pool::from_toml(text, Path::new("p.toml"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("p.toml:2:10: judges must name"), "{err}");
        let text = "[[solver]]\nname = \"a\"\nfamily = \"cvc5\"\nversion = \"1\"\ncommand = [\"c\"]\n\
                    [[solver]]\nname = \"b\"\nfamily = \"z3\"\nversion = \"4.8.5\"\ncommand = [\"z\"]\n\
                    [[reference]]\nfamily = \"z3\"\njudges = [\"cvc5\"]\nunicode = false\n";
        let p = Pool::from_toml(text, Path::new("p.toml")).unwrap();
        let err = assign(&p, &p.solvers, "strings", None)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "p.toml:13: `unicode = false` but et knows no way to run a (cvc5) without Unicode strings"
        );
    }
}
