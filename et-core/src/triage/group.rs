//! Grouping triggers into bugs. Two triggers are one bug when they have the same
//! solver family, the same kind of verdict, the same version range (first and last
//! affected release), the same configuration (the options of the mode they were found
//! on), and the same operator signature — or, for crashes, the same crash signature,
//! which names the failing assertion or signal and says more than the operators do
//! (a failed assertion's source line joins configurations too). Groups are then joined
//! into root causes: those that share a formula (or a shrunk formula's shape) — across
//! configurations only on the same releases —, and, within one configuration, those
//! whose formulas compute the same thing on the same releases, whatever compares it.
//! Each group names its smallest trigger (by size, then index).

use std::collections::{BTreeMap, HashMap, HashSet};

use et_eval::sexp::{Sexp, SexpKind};

use crate::oracle::{is_source_location, Evidence, Verdict};

use super::calls::Answer;
use super::confirm::{Confirmation, Outcome};
use super::range::ReleaseTable;
use super::rank::{self, compare_indices, Kind, RankKey};
use super::signature::Signature;
use super::triggers::TriggerRow;
use crate::version::compare_versions;

/// One trigger after confirmation and version ranging.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The row of `runs.csv`.
    pub trigger: TriggerRow,
    /// The formula text (one line).
    pub formula: String,
    /// Operators applied in the formula.
    pub operators: Signature,
    /// The kind of bug.
    pub kind: Kind,
    /// What re-running it showed.
    pub confirmation: Confirmation,
    /// For crashes: the signature of the crash (from the re-run, or the run's log when
    /// it did not crash again).
    pub crash_signature: Option<String>,
    /// Installed versions of the family that show it; `None` when dropped.
    pub range: Option<ReleaseTable>,
    /// The range was measured on this trigger; false when it is the range of the
    /// smallest trigger of its candidate group ([`range_samples`]).
    pub range_measured: bool,
    /// For an invalid model et refuted: what the solver answered on the formula with
    /// the model's values pinned ([`super::pin`]). When that is a wrong `sat`, the
    /// finding is one (kind solution soundness) and `formula` is the pinned formula.
    pub pinned: Option<super::pin::Pinned>,
    /// For the timeout a report is about: its formula timed on every installed release
    /// ([`super::timing`]).
    pub timings: Option<super::timing::Timings>,
    /// For the formula a report is about, when it leans on an implicit Int→Real
    /// conversion: the solver's answer with the conversions written out.
    pub converted: Option<super::conversions::Converted>,
    /// For a finding of an option configuration a report is about: the options it
    /// needs ([`super::option_delta`]).
    pub options: Option<super::option_delta::OptionDelta>,
    /// For a finding a report is about: et's own options it does not need, dropped
    /// ([`super::own_options`]); its solver is what the report runs.
    pub own_options: Option<super::own_options::OwnOptions>,
    /// For a finding a report is about: what the report's command printed on the
    /// report's file, run once more for the report ([`super::bug_reports`] shows it;
    /// the confirming re-runs may have had options and a model request the report's
    /// command leaves out).
    pub printed: Option<super::calls::Printed>,
    /// The options of the configuration it was found on (`name=value`), empty for a
    /// default mode: what a known issue of a mode is matched by.
    pub configuration: Vec<String>,
    /// For the timeout a report is about: what shrinking it beyond the grammar did
    /// ([`super::minimize_performance`]). When a step was kept, `formula` is the shrunk
    /// formula, and the confirmation and range are measured on it.
    pub shrunk_performance: Option<super::minimize_performance::ShrunkPerformance>,
    /// For the performance finding a report is about, when et has a witness of its
    /// formula: the solver's answer with the witness pinned ([`super::pin`]).
    pub witness_pinned: Option<super::pin::PinnedWitness>,
    /// For a correctness finding whose formula declares constants it does not use:
    /// what dropping those declarations did ([`super::trim`]). When kept, `formula` is
    /// the trimmed formula and the confirmation was made on it.
    pub trimmed: Option<super::trim::Trimmed>,
    /// A performance finding of a solver that failed so on every formula its run ran
    /// (a mode that decides nothing): all its groups on the same releases are one root
    /// cause.
    pub fails_on_every_formula: bool,
}

impl Finding {
    /// The finding of `trigger` on `formula` (whose operators are `operators`) after
    /// its confirmation: its kind from the row, not yet pinned, ranged, timed, written
    /// out or reduced.
    pub fn confirmed(
        trigger: TriggerRow,
        formula: String,
        operators: Signature,
        confirmation: Confirmation,
        crash_signature: Option<String>,
        configuration: Vec<String>,
    ) -> Finding {
        Finding {
            kind: Kind::of(trigger.verdict(), trigger.row().status),
            trigger,
            formula,
            operators,
            confirmation,
            crash_signature,
            range: None,
            range_measured: false,
            pinned: None,
            timings: None,
            converted: None,
            options: None,
            own_options: None,
            printed: None,
            configuration,
            shrunk_performance: None,
            witness_pinned: None,
            trimmed: None,
            fails_on_every_formula: false,
        }
    }

    /// The answer of the solver when the verdict showed (or the first re-run); for a
    /// wrong `sat` found by pinning a model, its answer on the pinned formula.
    pub fn answer(&self) -> &Answer {
        match self.pinned_wrong_sat() {
            Some(p) => &p.answer,
            None => &self.confirmation.answer,
        }
    }

    /// What pinning found, when it is a wrong `sat` (the finding reports it).
    pub fn pinned_wrong_sat(&self) -> Option<&super::pin::Pinned> {
        self.pinned.as_ref().filter(|p| p.wrong_sat())
    }

    /// A timeout or `unknown` shrunk beyond the grammar by at least one step: `formula` is not the
    /// grammar's.
    pub fn shrunk_performance(&self) -> Option<&super::minimize_performance::ShrunkPerformance> {
        self.shrunk_performance.as_ref().filter(|s| s.steps > 0)
    }

    /// Its unused declarations were dropped ([`super::trim`]): `formula` is not the
    /// grammar's text.
    pub fn trimmed(&self) -> Option<&super::trim::Trimmed> {
        self.trimmed.as_ref().filter(|t| t.kept)
    }

    /// The formulas this finding is compared by when groups are joined: its formula,
    /// or — shrunk beyond the grammar — the shrunk formula's [`shape`], and for a
    /// shrunk timeout or `unknown`, or a formula whose unused declarations were
    /// dropped, also the formula as found (its other triggers have that text).
    fn compared(&self) -> Vec<std::borrow::Cow<'_, str>> {
        if self.pinned_wrong_sat().is_some_and(|p| p.shrunk.is_some()) {
            return vec![shape(&self.formula).into()];
        }
        match (&self.shrunk_performance, self.trimmed()) {
            (Some(s), _) if s.steps > 0 => {
                vec![shape(&self.formula).into(), s.original.as_str().into()]
            }
            (Some(_), _) => vec![shape(&self.formula).into(), self.formula.as_str().into()],
            (None, Some(t)) => vec![self.formula.as_str().into(), t.original.as_str().into()],
            (None, None) => vec![self.formula.as_str().into()],
        }
    }

    /// et's own model check (not only the solver's) found the model invalid.
    pub fn model_checked(&self) -> bool {
        self.trigger.row().model_check == "invalid"
            || self.trigger.row().evidence == Some(Evidence::Model)
    }
}

/// What makes two findings one bug.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupKey {
    /// The kind of bug.
    pub kind: Kind,
    /// The verdict (`timeout` and `unknown` are both performance, kept apart).
    pub verdict: Verdict,
    /// Solver family, lower case.
    pub family: String,
    /// Oldest affected installed release.
    pub first: String,
    /// Newest affected installed release.
    pub last: String,
    /// Operators of the formulas (empty for crashes).
    pub operators: Signature,
    /// Crash signature (crashes only).
    pub crash_signature: Option<String>,
    /// The options of the configuration the findings were found on (`name=value`),
    /// empty for a default mode: two modes fail for their own reasons (a hang of one
    /// option and timeouts of another on the same formulas are two bugs), unless they
    /// fail on the same formula on the same releases ([`one_group_per_formula`]).
    /// Empty for a crash whose signature names a source location: a failed assertion
    /// at one line is one bug whatever options reach it.
    pub configuration: Vec<String>,
}

impl GroupKey {
    /// The key of a finding that was not dropped.
    pub fn of(finding: &Finding) -> Option<GroupKey> {
        let range = finding.range.as_ref()?;
        Some(GroupKey::with_range(
            finding,
            range.first().unwrap_or_default(),
            range.last().unwrap_or_default(),
        ))
    }

    /// The key a finding that was not dropped will have, its version range left out:
    /// findings with one candidate key are one bug unless their ranges differ.
    pub fn candidate(finding: &Finding) -> Option<GroupKey> {
        (finding.confirmation.outcome != Outcome::Dropped)
            .then(|| GroupKey::with_range(finding, "", ""))
    }

    /// The candidate key of a performance trigger, known before it is re-run (it has
    /// no crash signature): what [`next_to_confirm`] samples by.
    pub fn performance_candidate(trigger: &TriggerRow, operators: &Signature) -> GroupKey {
        GroupKey::from_parts(trigger, operators, None, &[], "", "")
    }

    fn with_range(finding: &Finding, first: &str, last: &str) -> GroupKey {
        GroupKey {
            // Pinning can make an invalid model a wrong `sat`.
            kind: finding.kind,
            ..GroupKey::from_parts(
                &finding.trigger,
                &finding.operators,
                finding.crash_signature.as_deref(),
                &finding.configuration,
                first,
                last,
            )
        }
    }

    fn from_parts(
        trigger: &TriggerRow,
        operators: &Signature,
        crash_signature: Option<&str>,
        configuration: &[String],
        first: &str,
        last: &str,
    ) -> GroupKey {
        let kind = Kind::of(trigger.verdict(), trigger.row().status);
        let crash = kind == Kind::Crash;
        let located = crash && crash_signature.is_some_and(is_source_location);
        GroupKey {
            kind,
            verdict: trigger.verdict(),
            family: trigger.row().family.to_ascii_lowercase(),
            first: first.to_string(),
            last: last.to_string(),
            operators: if crash {
                Signature::default()
            } else {
                operators.clone()
            },
            crash_signature: crash.then(|| crash_signature.unwrap_or("(unknown)").to_string()),
            configuration: if located {
                Vec::new()
            } else {
                configuration.to_vec()
            },
        }
    }

    /// Operators, or the crash signature: what tells the group from its neighbours.
    pub fn what(&self) -> String {
        match &self.crash_signature {
            Some(signature) => signature.clone(),
            None => self.operators.describe(),
        }
    }
}

/// A bug: findings with one [`GroupKey`].
#[derive(Debug, Clone)]
pub struct Group {
    /// 1-based position in the ranking.
    pub rank: usize,
    /// What the findings share.
    pub key: GroupKey,
    /// Indices into the findings, smallest trigger first (size, index, solver).
    pub members: Vec<usize>,
    /// Distinct formulas among the members.
    pub formulas: usize,
    /// Members confirmed in every attempt.
    pub confirmed: usize,
    /// Members that did not always reproduce.
    pub flaky: usize,
    /// Performance members that were not re-run (smaller ones of their candidate group
    /// were; [`super::confirm::Settings::performance_formulas`]).
    pub not_rerun: usize,
    /// Some member's model was refuted by et's own model check.
    pub model_checked: bool,
    /// The newest installed release shows the verdict.
    pub affects_newest: bool,
    /// A performance group whose members re-run without the solver's answer checks
    /// all decided in time ([`Confirmation::slow_only_with_checks`]).
    pub slow_only_with_checks: bool,
    /// An `unknown` group whose reported formula ([`Group::reported_member`]) no
    /// installed release that ran it decides ([`ReleaseTable::always_shown`]): a
    /// limitation the family has always had, not a regression.
    pub gives_up_always: bool,
    /// A timeout group whose reported formula no installed release that ran it
    /// decides: long-standing slowness, ranked after the regressions.
    pub long_standing: bool,
    /// The upstream issue its smallest formula matches, if it is known
    /// ([`super::known`]).
    pub known: Option<super::known::KnownIssue>,
}

impl Group {
    /// The smallest trigger.
    pub fn smallest<'f>(&self, findings: &'f [Finding]) -> &'f Finding {
        &findings[self.members[0]]
    }

    /// The member a report on this group is about ([`reported_member`]).
    pub fn reported_member(&self, findings: &[Finding]) -> usize {
        reported_member(findings, &self.members)
    }

    /// `confirmed` if some member reproduced in every attempt, else `flaky`.
    pub fn outcome(&self) -> Outcome {
        if self.confirmed > 0 {
            Outcome::Confirmed
        } else {
            Outcome::Flaky
        }
    }
}

/// The member of `members` (smallest first) a report is about: the smallest that
/// reproduced in every attempt (the smallest member may be a flaky one) and whose
/// release table is its own (its range was measured); of the triggers of that formula,
/// the one found on the newest installed release of the family, when it was found
/// there too: the release a developer fixes. The smallest member when none qualifies.
pub fn reported_member(findings: &[Finding], members: &[usize]) -> usize {
    let confirmed = || {
        members.iter().copied().filter(|&i| {
            let f = &findings[i];
            f.confirmation.outcome == Outcome::Confirmed && f.range_measured
        })
    };
    let Some(smallest) = confirmed().next() else {
        return members[0];
    };
    let first = &findings[smallest];
    let newest = first.range.as_ref().and_then(|r| r.newest());
    let same_formula = |&i: &usize| {
        let (a, b) = (findings[i].trigger.row(), first.trigger.row());
        a.grammar == b.grammar && a.index == b.index
    };
    confirmed()
        .filter(same_formula)
        .find(|&i| Some(findings[i].trigger.row().version.as_str()) == newest)
        .unwrap_or(smallest)
}

/// Joins the groups of one family, kind and verdict (and crash signature) that share a
/// formula — the same formula text found on two releases whose ranges came out
/// differently, or under two grammars that print it alike (`reals` and `realints`): a
/// formula belongs to one group. The joined group's range runs from the oldest first
/// affected release to the newest last one. Formulas shrunk beyond the grammar (a
/// wrong `sat` with ground truth, [`super::minimize`]; a timeout, whether a step was
/// kept or none could be, [`super::minimize_performance`]) are compared by [`shape`]: two
/// findings whose shrunk reproducers differ only in names and constants of the same
/// shape are one root cause.
///
/// Groups of two configurations that share a formula are joined only when they were
/// found on the same releases and neither is of a mode failing on every formula its
/// run ran: z3's `smt.arith.solver=2` and `=5` giving up on the same formula on the
/// same releases are one root cause, while a mode that decides nothing shares its
/// formulas with every other mode's findings and says nothing about them.
fn one_group_per_formula(
    findings: &[Finding],
    by_key: BTreeMap<GroupKey, Vec<usize>>,
) -> Vec<(GroupKey, Vec<usize>)> {
    let groups: Vec<(GroupKey, Vec<usize>)> = by_key.into_iter().collect();
    let compared: Vec<Vec<std::borrow::Cow<str>>> =
        findings.iter().map(Finding::compared).collect();
    let mut classes = Classes::new(groups.len());
    type At<'a> = (
        &'a str,
        Kind,
        Verdict,
        Option<&'a str>,
        FoundIn<'a>,
        &'a str,
    );
    let mut first_with: HashMap<At, usize> = HashMap::new();
    for (g, (key, members)) in groups.iter().enumerate() {
        let anywhere =
            !key.first.is_empty() && !members.iter().any(|&i| findings[i].fails_on_every_formula);
        let mut found_in = vec![FoundIn::Configuration(&key.configuration)];
        if anywhere {
            found_in.push(FoundIn::Releases(&key.first, &key.last));
        }
        for &i in members {
            for text in &compared[i] {
                for found in &found_in {
                    let at = (
                        key.family.as_str(),
                        key.kind,
                        key.verdict,
                        key.crash_signature.as_deref(),
                        *found,
                        text.as_ref(),
                    );
                    classes.join_first(&mut first_with, at, g);
                }
            }
        }
    }
    classes.merge(findings, groups)
}

/// Where groups that share a formula were found, to be one root cause
/// ([`one_group_per_formula`]): in one configuration, or on the same releases (first
/// and last affected) in any.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum FoundIn<'a> {
    Configuration(&'a [String]),
    Releases(&'a str, &'a str),
}

/// Joins the groups of one family, kind and verdict whose formulas compute the same
/// thing ([`Signature::theory`]: the same operators once the Boolean skeleton and the
/// relations are left out) and whose own version ranges, each measured on the group's
/// own formula, are the same: `(< 0.0 (sin 1.0))` and `(not (>= 0.0 (sin 1.0)))`
/// timing out on the same releases are one root cause, reported once with every formula.
/// A group whose reported timeout or `unknown` was shrunk is compared by the shrunk formula's
/// operators.
/// The theory decides, the coinciding ranges only support it: groups with the same
/// range and different theories stay apart, and so do groups whose formulas are all
/// skeleton (the core theory: nothing but Booleans to tell bugs apart by). Once
/// reported timeouts are timed ([`super::timing`]), groups of one theory whose timings
/// show the same regression (the same last good release and the release after it) are
/// joined as well, whatever their ranges at the run's limit.
///
/// A group whose theory holds that of a smaller one, on the same releases (or with the
/// same timed regression), is that group's root cause when the smaller one is the only
/// way to read it: `(= 0.0 (* a (sin 1.0)))` and `(= 0.0 (/ 0.0 (sin 1.0)))` timing out
/// where `(< 0.0 (sin 1.0))` does are the `sin` bug with arithmetic around it. A group
/// that holds two smaller theories neither of which holds the other (`*` alone and
/// `sin` alone) could be either bug and stays apart ([`Classes::join_found_together`]).
fn one_group_per_root_cause(
    findings: &[Finding],
    groups: Vec<(GroupKey, Vec<usize>)>,
) -> Vec<(GroupKey, Vec<usize>)> {
    // The groups found together, with their theories: of one family, kind, verdict and
    // configuration, on the same releases or slowing down at the same timed regression.
    type Together<'k> =
        BTreeMap<(&'k str, Kind, Verdict, &'k [String], Found), Vec<(usize, Signature)>>;
    let mut found_together: Together = BTreeMap::new();
    for (g, (key, members)) in groups.iter().enumerate() {
        // A group whose reported timeout or `unknown` was shrunk computes what the
        // shrunk formula computes: its operators, not those the grammar's formulas
        // happened to add.
        let theory = theory_of(findings, key, members);
        if key.crash_signature.is_some() || key.first.is_empty() || theory.0.is_empty() {
            continue;
        }
        let found = |how| {
            let configuration = key.configuration.as_slice();
            (
                key.family.as_str(),
                key.kind,
                key.verdict,
                configuration,
                how,
            )
        };
        let on_releases = Found::Releases(key.first.clone(), key.last.clone());
        found_together
            .entry(found(on_releases))
            .or_default()
            .push((g, theory.clone()));
        // Ranges measured by one run at the run's limit move with formulas near it;
        // a timed regression is measured at 4× it. Groups of one theory that regressed
        // at the same release (the same jump in their timings) are one root cause too.
        if let Some(r) = members
            .iter()
            .find_map(|&i| findings[i].timings.as_ref()?.newest_regression())
        {
            found_together
                .entry(found(Found::Regression(r.before.0, r.after.0)))
                .or_default()
                .push((g, theory));
        }
    }
    let mut classes = Classes::new(groups.len());
    for together in found_together.values() {
        classes.join_found_together(together);
    }
    classes.join_failing_everywhere(findings, &groups);
    classes.merge(findings, groups)
}

/// How groups were found together ([`one_group_per_root_cause`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Found {
    /// On the same releases: the first and the last affected one.
    Releases(String, String),
    /// Slowing down at the same timed regression: the last good release and the next.
    Regression(String, String),
}

/// The operators a group's theory is compared by: a shrunk formula's where its
/// reported timeout or `unknown` was shrunk, else the group's.
fn theory_of(findings: &[Finding], key: &GroupKey, members: &[usize]) -> Signature {
    members
        .iter()
        .find_map(|&i| findings[i].shrunk_performance())
        .map_or_else(|| key.operators.theory(), |s| s.operators.theory())
}

/// Classes of groups to join: a union-find over group positions.
struct Classes {
    parent: Vec<usize>,
}

impl Classes {
    fn new(groups: usize) -> Classes {
        Classes {
            parent: (0..groups).collect(),
        }
    }

    fn root(&mut self, mut g: usize) -> usize {
        while self.parent[g] != g {
            self.parent[g] = self.parent[self.parent[g]];
            g = self.parent[g];
        }
        g
    }

    /// Puts group `g` in the class of the first group seen `at`, or makes it that one.
    fn join_first<K: std::hash::Hash + Eq>(
        &mut self,
        first_with: &mut HashMap<K, usize>,
        at: K,
        g: usize,
    ) {
        match first_with.entry(at) {
            std::collections::hash_map::Entry::Occupied(other) => {
                let (a, b) = (self.root(g), self.root(*other.get()));
                self.parent[a] = b;
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(g);
            }
        }
    }

    /// Joins groups found together (see [`Found`]; each with its theory): those of one
    /// theory, and each group to the groups whose theory its own strictly holds when
    /// the smallest of those are one theory, the one way to read it (two smallest
    /// theories would be two ways, and it is joined to neither).
    fn join_found_together(&mut self, found_together: &[(usize, Signature)]) {
        let mut first_of: HashMap<&Signature, usize> = HashMap::new();
        for (g, theory) in found_together {
            self.join_first(&mut first_of, theory, *g);
        }
        let holds = |big: &Signature, small: &Signature| {
            small.0.len() < big.0.len() && small.0.is_subset(&big.0)
        };
        for (g, theory) in found_together {
            let below: Vec<&(usize, Signature)> = found_together
                .iter()
                .filter(|(_, t)| holds(theory, t))
                .collect();
            let smallest: Vec<&(usize, Signature)> = below
                .iter()
                .copied()
                .filter(|(_, t)| !below.iter().any(|(_, u)| holds(t, u)))
                .collect();
            let Some((first, one)) = smallest.first() else {
                continue;
            };
            if smallest.iter().all(|(_, t)| t == one) {
                let (a, b) = (self.root(*g), self.root(*first));
                self.parent[a] = b;
            }
        }
    }

    /// A mode that fails on every formula its run ran fails on anything: cvc5 with
    /// `--restart-int-base=0` times out on `(assert true)`, `(= a a)`, `(< a b)`, ...
    /// Each performance group of such a mode (one family, verdict and configuration)
    /// found on the same releases as one of its groups is that one root cause.
    fn join_failing_everywhere(&mut self, findings: &[Finding], groups: &[(GroupKey, Vec<usize>)]) {
        type Mode<'a> = (&'a str, Verdict, &'a str, &'a str, &'a [String]);
        fn mode_of(key: &GroupKey) -> Option<Mode<'_>> {
            if key.kind != Kind::Performance || key.first.is_empty() {
                return None;
            }
            Some((
                key.family.as_str(),
                key.verdict,
                key.first.as_str(),
                key.last.as_str(),
                key.configuration.as_slice(),
            ))
        }
        let mut failing_everywhere: HashMap<Mode, usize> = HashMap::new();
        for (g, (key, members)) in groups.iter().enumerate() {
            if let Some(mode) = mode_of(key) {
                if members.iter().any(|&i| findings[i].fails_on_every_formula) {
                    failing_everywhere.entry(mode).or_insert(g);
                }
            }
        }
        for (g, (key, _)) in groups.iter().enumerate() {
            if let Some(&t) = mode_of(key).and_then(|m| failing_everywhere.get(&m)) {
                let (a, b) = (self.root(g), self.root(t));
                self.parent[a] = b;
            }
        }
    }

    /// One group per class: members smallest first; the range from the oldest first
    /// affected release to the newest last one; the operators every part applies.
    fn merge(
        mut self,
        findings: &[Finding],
        groups: Vec<(GroupKey, Vec<usize>)>,
    ) -> Vec<(GroupKey, Vec<usize>)> {
        let mut joined: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for g in 0..groups.len() {
            let r = self.root(g);
            joined.entry(r).or_default().push(g);
        }
        if joined.len() == groups.len() {
            return groups;
        }
        let mut out = Vec::with_capacity(joined.len());
        for parts in joined.into_values() {
            let mut members: Vec<usize> = parts
                .iter()
                .flat_map(|&g| groups[g].1.iter().copied())
                .collect();
            members.sort_by(|&a, &b| by_size_then_index(&findings[a], &findings[b]));
            members.dedup();
            let holder = parts
                .iter()
                .copied()
                .find(|&g| groups[g].1.contains(&members[0]))
                .unwrap_or(parts[0]);
            let mut key = groups[holder].0.clone();
            for &g in &parts {
                let other = &groups[g].0;
                if g == holder {
                    continue;
                }
                if !other.first.is_empty()
                    && (key.first.is_empty() || compare_versions(&other.first, &key.first).is_lt())
                {
                    key.first = other.first.clone();
                }
                if compare_versions(&other.last, &key.last).is_gt() {
                    key.last = other.last.clone();
                }
                key.operators.0.retain(|op| other.operators.0.contains(op));
            }
            out.push((key, members));
        }
        out
    }
}

/// A formula up to renaming and constants of the same shape: its declared names
/// numbered in order of first use (`c0`, `c1`, ...), numerals `N`, decimals `D`,
/// bit-vector literals by base and width (`#x16`, `#b3`), string literals `S`. The
/// formula is read by et-eval's S-expression reader; text it cannot read is its own
/// shape.
pub fn shape(formula: &str) -> String {
    let Ok(commands) = et_eval::sexp::read_all(formula) else {
        return formula.to_string();
    };
    // A declared name follows `declare-const` / `declare-fun`.
    let declared_name = |command: &Sexp| match &command.kind {
        SexpKind::List(items) => match items.as_slice() {
            [head, name, ..]
                if matches!(head.as_symbol(), Some("declare-const" | "declare-fun")) =>
            {
                name.as_symbol().map(str::to_string)
            }
            _ => None,
        },
        _ => None,
    };
    let mut shaper = Shaper {
        declared: commands.iter().filter_map(declared_name).collect(),
        ..Shaper::default()
    };
    // The assertions first, so that names are numbered by first use; then the
    // declarations of the names used, in that order (one never used is left out).
    for command in commands.iter().filter(|c| declared_name(c).is_none()) {
        shaper.shape(command, false);
    }
    let body = std::mem::take(&mut shaper.out);
    for name in shaper.seen.clone() {
        if let Some(declaration) = commands
            .iter()
            .find(|c| declared_name(c).as_deref() == Some(name.as_str()))
        {
            shaper.shape(declaration, false);
        }
    }
    shaper.out.extend(body);
    shaper.out.join(" ")
}

/// The state of [`shape`]: the declared names, those seen so far, the tokens out.
#[derive(Default)]
struct Shaper {
    declared: Vec<String>,
    seen: Vec<String>,
    out: Vec<String>,
}

impl Shaper {
    /// Shapes `sexp`; inside `(_ BitVec 64)` or `(_ extract 7 0)` (`indexed`) numerals
    /// are part of a sort or an operator, not constants.
    fn shape(&mut self, sexp: &Sexp, indexed: bool) {
        let token = match &sexp.kind {
            SexpKind::List(items) => {
                self.out.push("(".to_string());
                let indexed = items.first().and_then(Sexp::as_symbol) == Some("_");
                for item in items {
                    self.shape(item, indexed);
                }
                self.out.push(")".to_string());
                return;
            }
            SexpKind::Symbol(name) if self.declared.contains(name) => {
                let n = self.seen.iter().position(|x| x == name).unwrap_or_else(|| {
                    self.seen.push(name.clone());
                    self.seen.len() - 1
                });
                format!("c{n}")
            }
            SexpKind::Symbol(name) => name.clone(),
            SexpKind::Keyword(word) => format!(":{word}"),
            SexpKind::Numeral(digits) if indexed => digits.clone(),
            SexpKind::Numeral(_) => "N".to_string(),
            SexpKind::Decimal(_) => "D".to_string(),
            SexpKind::Hex(digits) => format!("#x{}", digits.len() * 4),
            SexpKind::Binary(digits) => format!("#b{}", digits.len()),
            SexpKind::Str(_) => "S".to_string(),
        };
        self.out.push(token);
    }
}

fn by_size_then_index(a: &Finding, b: &Finding) -> std::cmp::Ordering {
    smallest_first(&a.trigger, &b.trigger)
}

/// Triggers by formula size, then index, grammar and solver: "smallest" everywhere in
/// triage.
fn smallest_first(a: &TriggerRow, b: &TriggerRow) -> std::cmp::Ordering {
    a.row()
        .size
        .cmp(&b.row().size)
        .then_with(|| compare_indices(&a.row().index, &b.row().index))
        .then_with(|| a.row().grammar.cmp(&b.row().grammar))
        .then_with(|| a.row().solver.cmp(&b.row().solver))
}

/// The performance triggers by candidate group ([`GroupKey::performance_candidate`]
/// and the solver under test), smallest first: the groups [`next_to_confirm`] samples.
/// `operators[i]` are trigger `i`'s.
pub fn performance_candidates(triggers: &[TriggerRow], operators: &[Signature]) -> Vec<Vec<usize>> {
    let mut by_key: BTreeMap<(GroupKey, &str), Vec<usize>> = BTreeMap::new();
    for (i, t) in triggers.iter().enumerate() {
        if !t.verdict().is_bug() {
            let key = GroupKey::performance_candidate(t, &operators[i]);
            by_key
                .entry((key, t.row().solver.as_str()))
                .or_default()
                .push(i);
        }
    }
    by_key
        .into_values()
        .map(|mut members| {
            members.sort_by(|&a, &b| smallest_first(&triggers[a], &triggers[b]));
            members
        })
        .collect()
}

/// The triggers of one performance candidate group (`members`, smallest first) to
/// re-run next, given what is re-run so far (`outcomes[i]`, `None` for not yet): the
/// smallest not yet re-run, as many as it still takes for `wanted` members to have
/// survived (not been dropped). Empty when enough survived or none are left.
///
/// Re-running every timeout of a hunt at four times its limit takes hours and says,
/// for most of them, what the smallest few of their group already say; a member
/// dropped (its reference no longer decides it in time) is replaced by the next.
pub fn next_to_confirm(
    members: &[usize],
    outcomes: &[Option<Outcome>],
    wanted: usize,
) -> Vec<usize> {
    let survived = members
        .iter()
        .filter(|&&i| outcomes[i].is_some_and(|o| o != Outcome::Dropped))
        .count();
    members
        .iter()
        .copied()
        .filter(|&i| outcomes[i].is_none())
        .take(wanted.saturating_sub(survived))
        .collect()
}

/// Which findings have their version range measured: for each finding that was not
/// dropped, the finding whose range it takes — itself when the re-run triggers of its
/// candidate group ([`GroupKey::candidate`], and the same solver under test, so that
/// a range taken over always holds the trigger's own release) up to its `formulas`-th
/// smallest confirmed formula (all, for `None`) include it, else the group's smallest
/// measured trigger. A trigger that was not re-run ([`Outcome::NotRerun`]) is never measured:
/// its group's re-run triggers are smaller ([`next_to_confirm`]).
///
/// Ranging runs a trigger on every installed release of its family, a performance
/// trigger up to the run's time limit on each: for a hunt's hundreds of timeouts that
/// is many hours of calls, most of which say what the smallest few of their candidate
/// group already say.
pub fn range_samples(findings: &[Finding], formulas: Option<usize>) -> Vec<Option<usize>> {
    let mut by_key: BTreeMap<(GroupKey, &str), Vec<usize>> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if let Some(key) = GroupKey::candidate(f) {
            let solver = f.trigger.row().solver.as_str();
            by_key.entry((key, solver)).or_default().push(i);
        }
    }
    let mut ranged_by = vec![None; findings.len()];
    for members in by_key.values_mut() {
        members.sort_by(|&a, &b| by_size_then_index(&findings[a], &findings[b]));
        let mut sampled: HashSet<(&str, &str)> = HashSet::new();
        // Formulas count towards `formulas` only once confirmed: a bug report is
        // about its group's smallest confirmed formula, and its release table must be
        // that formula's own, however many flaky ones come before it.
        let mut confirmed: HashSet<(&str, &str)> = HashSet::new();
        let mut smallest_measured = None;
        for &i in members.iter() {
            let row = findings[i].trigger.row();
            let formula = (row.grammar.as_str(), row.index.as_str());
            let outcome = findings[i].confirmation.outcome;
            let measured = outcome != Outcome::NotRerun
                && (sampled.contains(&formula) || formulas.is_none_or(|n| confirmed.len() < n));
            if measured {
                sampled.insert(formula);
                if outcome == Outcome::Confirmed {
                    confirmed.insert(formula);
                }
                smallest_measured.get_or_insert(i);
            }
            ranged_by[i] = if measured { Some(i) } else { smallest_measured };
        }
    }
    ranged_by
}

/// Groups the findings that were not dropped and ranks the groups worst first.
pub fn group(findings: &[Finding]) -> Vec<Group> {
    let known = super::known::builtin();
    let mut by_key: BTreeMap<GroupKey, Vec<usize>> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if f.confirmation.outcome == Outcome::Dropped {
            continue;
        }
        if let Some(key) = GroupKey::of(f) {
            by_key.entry(key).or_default().push(i);
        }
    }
    let joined = one_group_per_formula(findings, by_key);
    let mut groups: Vec<Group> = one_group_per_root_cause(findings, joined)
        .into_iter()
        .map(|(mut key, mut members)| {
            members.sort_by(|&a, &b| by_size_then_index(&findings[a], &findings[b]));
            // The operators a group is named by are those its report's formula applies
            // too: a shrunk formula (a timeout's, an `unknown`'s, a pinned wrong
            // `sat`'s) lost the ones the grammar added.
            for &i in &members {
                let f = &findings[i];
                let shrunk = match f.shrunk_performance() {
                    Some(s) => Some(s.operators.clone()),
                    None => f
                        .pinned_wrong_sat()
                        .filter(|p| p.shrunk.is_some())
                        .map(|_| Signature::of(&f.formula)),
                };
                if let Some(ops) = shrunk {
                    key.operators.0.retain(|op| ops.0.contains(op));
                }
            }
            let formulas: HashSet<(&str, &str)> = members
                .iter()
                .map(|&i| {
                    let t = &findings[i].trigger;
                    (t.row().grammar.as_str(), t.row().index.as_str())
                })
                .collect();
            let count = |outcome: Outcome| {
                members
                    .iter()
                    .filter(|&&i| findings[i].confirmation.outcome == outcome)
                    .count()
            };
            let affects_newest = members.iter().any(|&i| {
                findings[i]
                    .range
                    .as_ref()
                    .is_some_and(ReleaseTable::affects_newest)
            });
            let unchecked: Vec<&Confirmation> = members
                .iter()
                .map(|&i| &findings[i].confirmation)
                .filter(|c| c.unchecked.is_some())
                .collect();
            let slow_only_with_checks =
                !unchecked.is_empty() && unchecked.iter().all(|c| c.slow_only_with_checks());
            // Judged on the formula a report would be about, whose release table the
            // report shows: the group's smallest may be a flaky formula ranged alike
            // or not at all.
            let reported = &findings[reported_member(findings, &members)];
            let always_shown = reported
                .range
                .as_ref()
                .is_some_and(ReleaseTable::always_shown);
            let gives_up_always = key.verdict == Verdict::Unknown && always_shown;
            let long_standing = key.verdict == Verdict::Timeout && always_shown;
            let smallest = &findings[members[0]];
            let known = super::known::find(
                &known,
                &key.family,
                key.kind,
                &smallest.operators,
                &smallest.formula,
                &smallest.configuration,
            )
            .cloned();
            Group {
                rank: 0,
                known,
                formulas: formulas.len(),
                confirmed: count(Outcome::Confirmed),
                flaky: count(Outcome::Flaky),
                not_rerun: count(Outcome::NotRerun),
                model_checked: members.iter().any(|&i| findings[i].model_checked()),
                affects_newest,
                slow_only_with_checks,
                gives_up_always,
                long_standing,
                key,
                members,
            }
        })
        .collect();
    let rank_key = |g: &Group| {
        let smallest = &g.smallest(findings).trigger;
        RankKey {
            known: g.known.is_some(),
            kind: g.key.kind,
            model_checked: g.model_checked,
            slow_only_with_checks: g.slow_only_with_checks,
            gives_up_always: g.gives_up_always,
            long_standing: g.long_standing,
            affects_newest: g.affects_newest,
            last: g.key.last.clone(),
            confirmed: g.confirmed > 0,
            formulas: g.formulas,
            size: smallest.row().size,
            index: smallest.row().index.clone(),
            name: format!("{} {}", g.key.family, g.key.what()),
        }
    };
    groups.sort_by(|a, b| rank::compare(&rank_key(a), &rank_key(b)));
    for (i, g) in groups.iter_mut().enumerate() {
        g.rank = i + 1;
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A timeout of `solver` on `formula` (grammar `grammar`, index `index`).
    fn finding(grammar: &str, index: &str, solver: &str, formula: &str) -> Finding {
        use crate::oracle::Status;
        finding_of(Status::Timeout, grammar, index, solver, formula)
    }

    /// A finding of `status` (a timeout, or a crash) of `solver` on `formula`.
    fn finding_of(
        status: crate::oracle::Status,
        grammar: &str,
        index: &str,
        solver: &str,
        formula: &str,
    ) -> Finding {
        use crate::campaign::row::RunRow;
        use crate::oracle::Status;
        let verdict = if status == Status::Crash {
            Verdict::Crash
        } else {
            Verdict::Timeout
        };
        let row = RunRow {
            grammar: grammar.into(),
            index: index.into(),
            size: 6,
            solver: solver.into(),
            family: "z3".into(),
            version: solver.trim_start_matches("z3-").into(),
            status,
            verdict: Some(verdict),
            reference: "cvc5".into(),
            reference_status: Some(Status::Sat),
            time_s: 2.0,
            cpu_s: 2.0,
            max_rss_kb: 1,
            exit_code: None,
            signal: Some(9),
            reference_usable: Some(true),
            evidence: Some(Evidence::Reference),
            model_check: String::new(),
            decided_by: String::new(),
            decided_s: None,
            mode: None,
            check_sat: None,
        };
        let trigger = TriggerRow::new(0, 2, row).unwrap();
        let limits =
            super::super::calls::CallSettings::with_timeout(std::time::Duration::from_secs(2));
        let confirmation = super::super::confirm::not_rerun(&trigger, limits);
        Finding::confirmed(
            trigger,
            formula.into(),
            Signature::of(formula),
            confirmation,
            None,
            Vec::new(),
        )
    }

    fn key(first: &str, last: &str, formula: &str) -> GroupKey {
        GroupKey {
            kind: Kind::Performance,
            verdict: Verdict::Timeout,
            family: "z3".into(),
            first: first.into(),
            last: last.into(),
            operators: Signature::of(formula),
            crash_signature: None,
            configuration: Vec::new(),
        }
    }

    /// The same formula under two grammars (reals, realints), or on two releases whose
    /// ranges differ, is one group whose range covers both; other formulas stay apart.
    #[test]
    fn shapes_ignore_names_and_constants_of_the_same_shape() {
        let a = "(declare-const b (_ BitVec 64)) (assert (= #xa222222222222222 (bvadd b #x1111111111111111))) (assert (= b #x0000000000000000)) (check-sat)";
        let b = "(declare-const x (_ BitVec 64)) (assert (= #x0000000000000001 (bvadd x #x0000000000000002))) (assert (= x #x0000000000000005)) (check-sat)";
        assert_eq!(shape(a), shape(b));
        // Names are numbered by first use, and a constant never used does not count.
        let renamed = "(declare-const b String) (declare-const a String) (assert (str.contains (str.replace a \"a\" a) b)) (check-sat)";
        let unused = "(declare-const x String) (declare-const y String) (declare-const z String) (assert (str.contains (str.replace y \"b\" y) x)) (check-sat)";
        assert_eq!(shape(renamed), shape(unused));
        // Another width, another operator: another shape.
        let narrower = "(declare-const b (_ BitVec 8)) (assert (= #xa2 (bvadd b #x11))) (assert (= b #x00)) (check-sat)";
        assert!(
            shape(narrower).contains("( _ BitVec 8 )"),
            "{}",
            shape(narrower)
        );
        assert_ne!(shape(a), shape(narrower));
        let other_op = a.replace("bvadd", "bvmul");
        assert_ne!(shape(a), shape(&other_op));
        assert_eq!(
            shape("(declare-const s String) (assert (= s \"a\"\"b\")) (assert (< 1.5 12))"),
            "( declare-const c0 String ) ( assert ( = c0 S ) ) ( assert ( < D N ) )"
        );
    }

    /// A group's smallest formula may be flaky, with a range of its own; whether the
    /// group is long-standing is told by the formula its report is about (the smallest
    /// confirmed one), whose release table the report shows.
    #[test]
    fn long_standing_is_judged_on_the_reported_formula() {
        use super::super::range::{ReleaseTable, VersionResult};
        let ranged = |affected: &[bool]| ReleaseTable {
            versions: ["4.8.5", "5.0.0", "5.4.1"]
                .iter()
                .zip(affected)
                .map(|(v, &a)| VersionResult {
                    version: (*v).into(),
                    solver: format!("z3-{v}"),
                    affected: Some(a),
                    answer: if a { "timeout" } else { "sat" }.into(),
                    decided: !a,
                    refused_option: false,
                })
                .collect(),
        };
        let mut flaky = finding(
            "reals",
            "1",
            "z3-5.4.1",
            "(declare-const a Real) (assert (< 0.0 (sin 1.0))) (check-sat)",
        );
        flaky.confirmation.outcome = Outcome::Flaky;
        flaky.range = Some(ranged(&[true, false, true]));
        flaky.range_measured = true;
        let mut confirmed = finding(
            "reals",
            "2",
            "z3-5.4.1",
            "(declare-const a Real) (assert (< 1.0 (sin 1.0))) (check-sat)",
        );
        confirmed.confirmation.outcome = Outcome::Confirmed;
        confirmed.range = Some(ranged(&[true, true, true]));
        confirmed.range_measured = true;
        let findings = vec![flaky, confirmed];
        let groups = group(&findings);
        assert_eq!(groups.len(), 1, "{groups:?}");
        assert_eq!(groups[0].members, [0, 1]);
        assert_eq!(groups[0].reported_member(&findings), 1);
        assert!(groups[0].long_standing);
    }

    #[test]
    fn a_formula_belongs_to_one_group() {
        let sin = "(declare-const a Real) (assert (< 0.0 (sin 1.0))) (check-sat)";
        let other = "(declare-const a Real) (assert (< a (cos 1.0))) (check-sat)";
        let findings = vec![
            finding("reals", "10", "z3-5.4.1", sin),
            finding("realints", "12", "z3-5.3.3", sin),
            finding("reals", "20", "z3-5.4.1", other),
        ];
        let mut by_key = BTreeMap::new();
        by_key.insert(key("5.3.3", "5.4.1", sin), vec![0]);
        by_key.insert(key("5.4.0", "5.4.1", sin), vec![1]);
        by_key.insert(key("5.4.1", "5.4.1", other), vec![2]);
        let groups = one_group_per_formula(&findings, by_key);
        assert_eq!(groups.len(), 2, "{groups:?}");
        let joined = groups.iter().find(|(_, m)| m.len() == 2).unwrap();
        assert_eq!(
            (joined.0.first.as_str(), joined.0.last.as_str()),
            ("5.3.3", "5.4.1")
        );
        let mut members = joined.1.clone();
        members.sort();
        assert_eq!(members, [0, 1]);
    }

    #[test]
    fn groups_computing_the_same_on_the_same_releases_are_one_root_cause() {
        let less = "(declare-const a Real) (assert (< 0.0 (sin 1.0))) (check-sat)";
        let not_at_least = "(declare-const a Real) (assert (not (>= 0.0 (sin 1.0)))) (check-sat)";
        let cos = "(declare-const a Real) (assert (< a (cos 1.0))) (check-sat)";
        let older = "(declare-const a Real) (assert (> a (sin a))) (check-sat)";
        let findings: Vec<Finding> = [less, not_at_least, cos, older]
            .iter()
            .enumerate()
            .map(|(i, f)| finding("reals", &i.to_string(), "z3-5.4.1", f))
            .collect();
        let groups = vec![
            (key("5.3.3", "5.4.1", less), vec![0]),
            (key("5.3.3", "5.4.1", not_at_least), vec![1]),
            (key("5.3.3", "5.4.1", cos), vec![2]),
            (key("4.8.5", "5.4.1", older), vec![3]),
        ];
        let joined = one_group_per_root_cause(&findings, groups);
        assert_eq!(joined.len(), 3, "{joined:?}");
        let sin = joined.iter().find(|(_, m)| m.len() == 2).unwrap();
        let mut members = sin.1.clone();
        members.sort();
        assert_eq!(members, [0, 1]);
        // The operators every formula of the root cause applies.
        assert_eq!(sin.0.operators.to_string(), "sin");
        // Another range or another theory: another root cause.
        assert!(joined
            .iter()
            .any(|(k, m)| m == &[2] && k.operators.to_string() == "< cos"));
        assert!(joined.iter().any(|(k, m)| m == &[3] && k.first == "4.8.5"));
    }

    /// A group whose operators hold those of one smaller group on the same releases is
    /// that group's root cause; one that holds two smaller ones (`+` and `sin`) could be
    /// either and stays apart, and so does one found on other releases.
    #[test]
    fn a_group_holding_one_smaller_groups_theory_is_its_root_cause() {
        let formulas = [
            (
                "5.3.3",
                "(declare-const a Real) (assert (< 0.0 (sin 1.0))) (check-sat)",
            ),
            (
                "5.3.3",
                "(declare-const a Real) (assert (= 0.0 (* a (sin 1.0)))) (check-sat)",
            ),
            (
                "5.3.3",
                "(declare-const a Real) (assert (= 0.0 (/ 0.0 (sin 1.0)))) (check-sat)",
            ),
            (
                "5.3.3",
                "(declare-const a Real) (assert (= 1.0 (+ a a))) (check-sat)",
            ),
            (
                "5.3.3",
                "(declare-const a Real) (assert (= 0.0 (sin (+ 1.0 a)))) (check-sat)",
            ),
            (
                "5.3.3",
                "(declare-const a Real) (assert (< a (cos 1.0))) (check-sat)",
            ),
            (
                "4.8.5",
                "(declare-const a Real) (assert (= 1.0 (* a (sin a)))) (check-sat)",
            ),
        ];
        let findings: Vec<Finding> = formulas
            .iter()
            .enumerate()
            .map(|(i, (_, f))| finding("reals", &i.to_string(), "z3-5.4.1", f))
            .collect();
        let groups = formulas
            .iter()
            .enumerate()
            .map(|(i, (first, f))| (key(first, "5.4.1", f), vec![i]))
            .collect();
        let joined = one_group_per_root_cause(&findings, groups);
        let mut classes: Vec<Vec<usize>> = joined
            .into_iter()
            .map(|(_, mut m)| {
                m.sort();
                m
            })
            .collect();
        classes.sort();
        assert_eq!(classes, [vec![0, 1, 2], vec![3], vec![4], vec![5], vec![6]]);
    }

    /// `finding` timed on z3 `before` (0.5 s) and `after` (stopped at the 8 s limit).
    fn regressed(index: &str, formula: &str, before: &str, after: &str) -> Finding {
        use super::super::timing::{ReleaseTiming, Run, Timings};
        use crate::oracle::Status;
        let mut f = finding("fp", index, "z3-5.4.1", formula);
        let release = |version: &str, status, cpu_s| ReleaseTiming {
            extended_s: None,
            starved: 0,
            version: version.into(),
            solver: format!("z3-{version}"),
            runs: vec![Run { status, cpu_s }; 2],
            work: None,
        };
        f.timings = Some(Timings {
            releases: vec![
                release(before, Status::Sat, 0.5),
                release(after, Status::Timeout, 8.0),
            ],
            limit_s: 8.0,
            work: None,
        });
        f
    }

    /// Timed groups of one theory that regressed at the same release are one root
    /// cause whatever their ranges at the run's limit; another jump, or another
    /// theory, stays apart.
    #[test]
    fn groups_that_regressed_at_the_same_release_are_one_root_cause() {
        let fma = "(declare-const a Float64) (assert (fp.lt a (fp.fma RNE a a a))) (check-sat)";
        let fma_eq = "(declare-const a Float64) (assert (= a (fp.fma RNE a a a))) (check-sat)";
        let fma_older =
            "(declare-const a Float64) (assert (fp.leq a (fp.fma RNE a a a))) (check-sat)";
        let mul = "(declare-const a Float64) (assert (fp.lt a (fp.mul RNE a a))) (check-sat)";
        let findings = vec![
            regressed("1", fma, "5.3.3", "5.4.0"),
            regressed("2", fma_eq, "5.3.3", "5.4.0"),
            regressed("3", fma_older, "4.16.0", "5.0.0"),
            regressed("4", mul, "5.3.3", "5.4.0"),
        ];
        let groups = vec![
            (key("4.8.5", "5.4.1", fma), vec![0]),
            (key("4.8.7", "5.4.1", fma_eq), vec![1]),
            (key("4.8.6", "5.4.1", fma_older), vec![2]),
            (key("4.8.5", "5.4.1", mul), vec![3]),
        ];
        let joined = one_group_per_root_cause(&findings, groups);
        assert_eq!(joined.len(), 3, "{joined:?}");
        let fma = joined.iter().find(|(_, m)| m.len() == 2).unwrap();
        let mut members = fma.1.clone();
        members.sort();
        assert_eq!(members, [0, 1]);
        assert_eq!(
            (fma.0.first.as_str(), fma.0.last.as_str()),
            ("4.8.5", "5.4.1")
        );
    }

    /// `finding` whose timeout was shrunk to `shrunk` (the formula it reports).
    fn shrunk(grammar: &str, index: &str, found: &str, shrunk: &str) -> Finding {
        let mut f = finding(grammar, index, "z3-5.4.1", shrunk);
        f.operators = Signature::of(found);
        f.shrunk_performance = Some(super::super::minimize_performance::ShrunkPerformance {
            status: crate::oracle::Status::Timeout,
            original: found.into(),
            steps: 1,
            tried: 4,
            operators: Signature::of(shrunk),
        });
        f
    }

    /// Timeouts found on formulas whose operators differ are one root cause when their
    /// shrunk formulas coincide up to names and constants (whatever their ranges), or
    /// compute the same on the same releases; a shrunk formula that computes something
    /// else stays apart.
    #[test]
    fn shrunk_performances_are_joined_by_what_they_shrank_to() {
        let times = "(declare-const a Real) (declare-const b Real) (assert (= (* a (sin b)) 1.0)) (check-sat)";
        let plus = "(declare-const a Real) (declare-const b Real) (assert (< (sin (+ a b)) 0.5)) (check-sat)";
        let divided = "(declare-const a Real) (declare-const b Real) (assert (= (sin (/ a b)) 2.0)) (check-sat)";
        let findings = vec![
            shrunk(
                "reals",
                "1",
                times,
                "(declare-const b Real) (assert (= (sin b) 1.0)) (check-sat)",
            ),
            shrunk(
                "reals",
                "2",
                plus,
                "(declare-const a Real) (assert (< (sin a) 0.5)) (check-sat)",
            ),
            shrunk(
                "reals",
                "3",
                divided,
                "(declare-const a Real) (assert (= (sin a) 2.0)) (check-sat)",
            ),
        ];
        let mut by_key = BTreeMap::new();
        by_key.insert(key("5.3.3", "5.4.1", times), vec![0]);
        by_key.insert(key("5.3.3", "5.4.1", plus), vec![1]);
        by_key.insert(key("5.4.0", "5.4.1", divided), vec![2]);
        // 1 and 3 shrank to one shape, on different ranges.
        let by_formula = one_group_per_formula(&findings, by_key);
        assert_eq!(by_formula.len(), 2, "{by_formula:?}");
        // 2 computes what 1 computes (`sin`) on the same releases.
        let joined = one_group_per_root_cause(&findings, by_formula);
        assert_eq!(joined.len(), 1, "{joined:?}");
        assert_eq!(
            (joined[0].0.first.as_str(), joined[0].0.last.as_str()),
            ("5.3.3", "5.4.1")
        );
    }

    /// A mode that times out on every formula its run ran times out on anything: its
    /// timeouts, found on the same releases, are one root cause whatever their
    /// operators; the same timeouts of another configuration, or on other releases,
    /// are not.
    #[test]
    fn a_mode_failing_on_every_formula_is_one_root_cause() {
        let trivial = "(assert true) (check-sat)";
        let ints = "(declare-const a Int) (assert (< (div a 2) a)) (check-sat)";
        let reals = "(declare-const x Real) (assert (= (* x x) 2.0)) (check-sat)";
        let abs = "(declare-const a Int) (assert (< (abs a) 0)) (check-sat)";
        let of = |formula: &str, index: &str, options: &[&str]| {
            let mut f = finding("ints", index, "z3-5.4.1", formula);
            f.configuration = options.iter().map(|o| o.to_string()).collect();
            f.fails_on_every_formula = options == ["restart=0"];
            f
        };
        let findings = vec![
            of(trivial, "1", &["restart=0"]),
            of(ints, "2", &["restart=0"]),
            of(reals, "3", &["restart=0"]),
            of(abs, "4", &["other=1"]),
        ];
        let keyed = |i: usize, first: &str| {
            let mut key = key(first, "5.4.1", &findings[i].formula);
            key.configuration = findings[i].configuration.clone();
            (key, vec![i])
        };
        let by_key = vec![
            keyed(0, "4.8.5"),
            keyed(1, "4.8.5"),
            keyed(2, "5.0.0"),
            keyed(3, "4.8.5"),
        ];
        let joined = one_group_per_root_cause(&findings, by_key);
        let with_trivial = joined.iter().find(|(_, m)| m.contains(&0)).unwrap();
        assert_eq!(with_trivial.1, [0, 1], "{joined:?}");
        assert_eq!(joined.len(), 3, "{joined:?}");
    }

    /// Two configurations failing on formulas of one theory, on the same releases,
    /// fail for their own reasons; so does a mode failing on every formula and
    /// another failing on one of them. Two modes failing on the same formula on the
    /// same releases are one root cause. A crash at one source line is one bug
    /// whatever options reach it; a bare signal says nothing of where, and stays with
    /// its configuration.
    #[test]
    fn configurations_are_root_causes_of_their_own_unless_a_crash_names_its_line() {
        use crate::oracle::Status;
        let f = "(declare-const a (_ BitVec 8)) (assert (= (bvudiv a a) #x01)) (check-sat)";
        let g = "(declare-const a (_ BitVec 8)) (assert (bvult (bvudiv a #x02) a)) (check-sat)";
        let configured = |status, index: &str, formula: &str, option: &str| {
            let mut found = finding_of(status, "bitvectors", index, "cvc5-1.4.2", formula);
            found.configuration = vec![option.to_string()];
            found
        };
        let mut findings = vec![
            configured(Status::Timeout, "1", f, "solve-bv-as-int=sum"),
            configured(Status::Timeout, "2", g, "restart-int-base=0"),
            configured(Status::Timeout, "1", f, "restart-int-base=0"),
            configured(Status::Timeout, "1", f, "solve-bv-as-int=iand"),
        ];
        findings[1].fails_on_every_formula = true;
        findings[2].fails_on_every_formula = true;
        let keyed: Vec<(GroupKey, Vec<usize>)> = (0..findings.len())
            .map(|i| {
                let mut key = key("1.0.9", "1.4.2", &findings[i].formula);
                key.configuration = findings[i].configuration.clone();
                (key, vec![i])
            })
            .collect();
        let joined = one_group_per_root_cause(
            &findings,
            one_group_per_formula(&findings, keyed.into_iter().collect()),
        );
        let mut parts: Vec<Vec<usize>> = joined
            .into_iter()
            .map(|(_, mut members)| {
                members.sort();
                members
            })
            .collect();
        parts.sort();
        // The two solve-bv-as-int modes fail on one formula on the same releases: one
        // root cause. The mode that fails everywhere shares that formula and stays
        // apart.
        assert_eq!(parts, [vec![0, 3], vec![1, 2]]);

        let crash = |index, option: &str, signature: &str| {
            let mut found = configured(Status::Crash, index, f, option);
            found.crash_signature = Some(signature.to_string());
            GroupKey::candidate(&found).unwrap()
        };
        let located = "src/theory/bv/theory_bv_rewrite_rules.h:482";
        assert_eq!(crash("1", "a=1", located), crash("2", "b=1", located));
        assert_ne!(crash("1", "a=1", "SIGSEGV"), crash("2", "b=1", "SIGSEGV"));
        assert_eq!(crash("1", "a=1", "SIGSEGV"), crash("2", "a=1", "SIGSEGV"));
    }

    #[test]
    fn a_dropped_sample_is_replaced_by_the_next_smallest() {
        let members = [4, 0, 2, 1, 3];
        let nothing = [None; 5];
        assert_eq!(next_to_confirm(&members, &nothing, 2), [4, 0]);
        // 4 was dropped, 0 survived: one more, the next smallest.
        let mut outcomes = nothing;
        outcomes[4] = Some(Outcome::Dropped);
        outcomes[0] = Some(Outcome::Flaky);
        assert_eq!(next_to_confirm(&members, &outcomes, 2), [2]);
        outcomes[2] = Some(Outcome::Confirmed);
        assert!(next_to_confirm(&members, &outcomes, 2).is_empty());
        // Every one dropped: all are tried, then nothing is left.
        let all_dropped = [Some(Outcome::Dropped); 5];
        assert!(next_to_confirm(&members, &all_dropped, 2).is_empty());
    }
}
