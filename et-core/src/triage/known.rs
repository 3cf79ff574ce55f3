//! Issues known upstream (or incomplete by design), committed in `known-issues.toml`
//! beside this file and compiled in: a group that matches one is said to be known, ranks
//! after the new ones and gets no report to file. Maintainers have asked fuzzers not to
//! file what they already track.

use serde::Deserialize;

use super::rank::Kind;
use super::signature::Signature;

/// One known issue and what it looks like in et's findings.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownIssue {
    /// Solver family (`z3`, `cvc5`, ...).
    pub family: String,
    /// The kind of finding (a [`Kind`] label), if only one kind matches.
    pub kind: Option<String>,
    /// Operators the formula must apply, all of them.
    #[serde(default)]
    pub operators: Vec<String>,
    /// Text the formula must hold.
    pub contains: Option<String>,
    /// Options the configuration the group was found on must set, all of them
    /// (`sat.euf=true`): an issue of a mode, not of the default one.
    #[serde(default)]
    pub options: Vec<String>,
    /// The issue (tracker and number, or the published list).
    pub issue: String,
    /// Its status when it was read (`open`, `closed`, `by design`, ...).
    pub status: String,
    /// What it is, in a few words.
    pub title: String,
    /// Where and when it was read.
    pub read: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownFile {
    issue: Vec<KnownIssue>,
}

/// The committed list.
pub fn builtin() -> Vec<KnownIssue> {
    // The file is part of the source and tested below: it parses.
    toml::from_str::<KnownFile>(include_str!("known-issues.toml"))
        .map(|f| f.issue)
        .unwrap_or_default()
}

impl KnownIssue {
    /// Whether a group of `family` and `kind` whose smallest formula is `formula` (with
    /// `operators`), found on a configuration setting `configuration` (empty: the
    /// default mode), is this issue.
    pub fn matches(
        &self,
        family: &str,
        kind: Kind,
        operators: &Signature,
        formula: &str,
        configuration: &[String],
    ) -> bool {
        Pattern {
            family: &self.family,
            kind: self.kind.as_deref(),
            operators: &self.operators,
            contains: self.contains.as_deref(),
            options: &self.options,
        }
        .matches(family, kind, operators, formula, configuration)
    }

    /// `cvc5 issue 10520 (open): timeouts on 64-bit bvurem`.
    pub fn describe(&self) -> String {
        format!("{} ({}): {}", self.issue, self.status, self.title)
    }
}

/// What a known issue and a tracker search look like in a finding: its family, and
/// the kind, operators, text and options it must have where they are given.
struct Pattern<'p> {
    family: &'p str,
    kind: Option<&'p str>,
    operators: &'p [String],
    contains: Option<&'p str>,
    options: &'p [String],
}

impl Pattern<'_> {
    fn matches(
        &self,
        family: &str,
        kind: Kind,
        operators: &Signature,
        formula: &str,
        configuration: &[String],
    ) -> bool {
        self.family.eq_ignore_ascii_case(family)
            && self.kind.is_none_or(|k| k == kind.label())
            && self.operators.iter().all(|o| operators.0.contains(o))
            && self.contains.is_none_or(|c| formula.contains(c))
            && self.options.iter().all(|o| configuration.contains(o))
    }
}

/// A search of the trackers made before a root cause was filed
/// (`tracker-searches.toml` beside this file): what was asked, what came closest.
/// It matches a report as a [`KnownIssue`] matches a group.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Searched {
    /// Solver family.
    pub family: String,
    /// The kind of finding, if only one kind matches.
    pub kind: Option<String>,
    /// Operators the formula must apply, all of them.
    #[serde(default)]
    pub operators: Vec<String>,
    /// Text the formula must hold.
    pub contains: Option<String>,
    /// Options the configuration must set, all of them.
    #[serde(default)]
    pub options: Vec<String>,
    /// The queries made.
    pub queries: Vec<String>,
    /// Which tracker, and when.
    pub tracker: String,
    /// The closest thread found (`nothing close` when none came near).
    pub closest: String,
    /// `new`, or `known` when the closest is the same bug (then in the known list).
    pub verdict: String,
    /// How the closest differs.
    pub note: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchesFile {
    searched: Vec<Searched>,
}

/// The committed record of tracker searches.
pub fn searches() -> Vec<Searched> {
    // Part of the source and tested below: it parses.
    toml::from_str::<SearchesFile>(include_str!("tracker-searches.toml"))
        .map(|f| f.searched)
        .unwrap_or_default()
}

impl Searched {
    /// Whether a report of `family` and `kind` on `formula` (with `operators`), of a
    /// configuration setting `configuration`, is what this search was about.
    pub fn matches(
        &self,
        family: &str,
        kind: Kind,
        operators: &Signature,
        formula: &str,
        configuration: &[String],
    ) -> bool {
        Pattern {
            family: &self.family,
            kind: self.kind.as_deref(),
            operators: &self.operators,
            contains: self.contains.as_deref(),
            options: &self.options,
        }
        .matches(family, kind, operators, formula, configuration)
    }
}

/// The first issue of `known` that a group matches.
pub fn find<'k>(
    known: &'k [KnownIssue],
    family: &str,
    kind: Kind,
    operators: &Signature,
    formula: &str,
    configuration: &[String],
) -> Option<&'k KnownIssue> {
    known
        .iter()
        .find(|k| k.matches(family, kind, operators, formula, configuration))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_of_tracker_searches_parses() {
        let searched = searches();
        assert!(searched.len() >= 20, "{searched:?}");
        for s in &searched {
            assert!(matches!(s.verdict.as_str(), "new" | "known"), "{s:?}");
            assert!(!s.queries.is_empty() && !s.closest.is_empty(), "{s:?}");
        }
        let formula = "(declare-const a String) (declare-const b String) \
                       (assert (and (str.<= a b) (str.contains b a))) (check-sat)";
        let known = builtin();
        let hit = find(
            &known,
            "z3",
            Kind::Performance,
            &Signature::of(formula),
            formula,
            &[],
        );
        assert!(hit.is_some_and(|k| k.issue.contains("7164")), "{hit:?}");
    }

    #[test]
    fn the_committed_list_parses_and_matches() {
        let known = builtin();
        assert!(known.len() >= 5, "{known:?}");
        for k in &known {
            assert!(
                k.kind
                    .as_deref()
                    .is_none_or(|l| Kind::ALL.iter().any(|kind| kind.label() == l)),
                "{k:?}"
            );
        }
        let formula = "(declare-const a Int) (declare-const b Int) (assert (= 1 (mod (* a a) a))) (check-sat)";
        let hit = find(
            &known,
            "z3",
            Kind::Performance,
            &Signature::of(formula),
            formula,
            &[],
        )
        .unwrap();
        assert!(hit.issue.contains("7027"), "{hit:?}");
        assert!(find(
            &known,
            "cvc5",
            Kind::Performance,
            &Signature::of(formula),
            formula,
            &[]
        )
        .is_none());
        let bv = "(declare-const a (_ BitVec 64)) (assert (= a (bvurem a a))) (check-sat)";
        let perf = |family, f: &str, configuration: &[String]| {
            find(
                &known,
                family,
                Kind::Performance,
                &Signature::of(f),
                f,
                configuration,
            )
        };
        assert!(perf("cvc5", bv, &[]).is_some());
        let bv8 = "(declare-const a (_ BitVec 8)) (assert (= a (bvurem a a))) (check-sat)";
        assert!(perf("cvc5", bv8, &[]).is_none());
        assert!(find(&known, "cvc5", Kind::Crash, &Signature::of(bv), bv, &[]).is_none());
        // An issue of a mode matches only findings of a configuration that sets its
        // options: z3's new core on `sin`, not z3's default mode.
        let sin = "(assert (= 0.0 (sin 0.0))) (check-sat)";
        let newcore = [
            "tactic.default_tactic=smt".to_string(),
            "sat.euf=true".to_string(),
        ];
        let hit = perf("z3", sin, &newcore).unwrap();
        assert_eq!(hit.options, ["sat.euf=true"]);
        assert!(perf("z3", sin, &[]).is_none());
        let strings = "(declare-const a String) (assert (= a \"\")) (check-sat)";
        assert!(perf("z3", strings, &newcore).is_some());
        assert!(perf("z3", strings, &[]).is_none());
    }
}
