//! Grouping triggers into bugs. Two triggers are one bug when they have the same
//! solver family, the same kind of verdict, the same version range (first and last
//! affected release), and the same operator signature — or, for crashes, the same
//! crash signature, which names the failing assertion or signal and says more than the
//! operators do. Each group names its smallest trigger (by size, then index).

use std::collections::{BTreeMap, HashSet};

use crate::oracle::{Evidence, Verdict};

use super::calls::Answer;
use super::confirm::{Confirmation, Outcome};
use super::range::VersionRange;
use super::rank::{self, compare_indices, Kind, RankKey};
use super::signature::Signature;
use super::triggers::TriggerRow;

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
    pub range: Option<VersionRange>,
    /// The range was measured on this trigger; false when it is the range of the
    /// smallest trigger of its candidate group ([`range_samples`]).
    pub range_measured: bool,
}

impl Finding {
    /// The answer of the solver when the verdict showed (or the first re-run).
    pub fn answer(&self) -> &Answer {
        &self.confirmation.answer
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

    fn with_range(finding: &Finding, first: &str, last: &str) -> GroupKey {
        let crash = finding.kind == Kind::Crash;
        GroupKey {
            kind: finding.kind,
            verdict: finding.trigger.verdict(),
            family: finding.trigger.row().family.to_ascii_lowercase(),
            first: first.to_string(),
            last: last.to_string(),
            operators: if crash {
                Signature::default()
            } else {
                finding.operators.clone()
            },
            crash_signature: if crash {
                Some(
                    finding
                        .crash_signature
                        .clone()
                        .unwrap_or_else(|| "(unknown)".into()),
                )
            } else {
                None
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
    /// Some member's model was refuted by et's own model check.
    pub model_checked: bool,
    /// The newest installed release shows the verdict.
    pub affects_newest: bool,
}

impl Group {
    /// The smallest trigger.
    pub fn smallest<'f>(&self, findings: &'f [Finding]) -> &'f Finding {
        &findings[self.members[0]]
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

fn by_size_then_index(a: &Finding, b: &Finding) -> std::cmp::Ordering {
    a.trigger
        .row()
        .size
        .cmp(&b.trigger.row().size)
        .then_with(|| compare_indices(&a.trigger.row().index, &b.trigger.row().index))
        .then_with(|| a.trigger.row().grammar.cmp(&b.trigger.row().grammar))
        .then_with(|| a.trigger.row().solver.cmp(&b.trigger.row().solver))
}

/// Which findings have their version range measured: for each finding that was not
/// dropped, the finding whose range it takes — itself when the triggers of its
/// candidate group ([`GroupKey::candidate`], and the same solver under test, so that
/// a range taken over always holds the trigger's own release) with the `formulas`
/// smallest formulas (all, for `None`) include it, else the group's smallest trigger.
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
        for &i in members.iter() {
            let row = findings[i].trigger.row();
            let formula = (row.grammar.as_str(), row.index.as_str());
            let measured = sampled.contains(&formula)
                || formulas.is_none_or(|n| sampled.len() < n) && sampled.insert(formula);
            ranged_by[i] = Some(if measured { i } else { members[0] });
        }
    }
    ranged_by
}

/// Groups the findings that were not dropped and ranks the groups worst first.
pub fn group(findings: &[Finding]) -> Vec<Group> {
    let mut by_key: BTreeMap<GroupKey, Vec<usize>> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if f.confirmation.outcome == Outcome::Dropped {
            continue;
        }
        if let Some(key) = GroupKey::of(f) {
            by_key.entry(key).or_default().push(i);
        }
    }
    let mut groups: Vec<Group> = by_key
        .into_iter()
        .map(|(key, mut members)| {
            members.sort_by(|&a, &b| by_size_then_index(&findings[a], &findings[b]));
            let formulas: HashSet<(&str, &str)> = members
                .iter()
                .map(|&i| {
                    let t = &findings[i].trigger;
                    (t.row().grammar.as_str(), t.row().index.as_str())
                })
                .collect();
            let confirmed = members
                .iter()
                .filter(|&&i| findings[i].confirmation.outcome == Outcome::Confirmed)
                .count();
            let affects_newest = members.iter().any(|&i| {
                findings[i]
                    .range
                    .as_ref()
                    .is_some_and(VersionRange::affects_newest)
            });
            Group {
                rank: 0,
                formulas: formulas.len(),
                confirmed,
                flaky: members.len() - confirmed,
                model_checked: members.iter().any(|&i| findings[i].model_checked()),
                affects_newest,
                key,
                members,
            }
        })
        .collect();
    let rank_key = |g: &Group| {
        let smallest = &g.smallest(findings).trigger;
        RankKey {
            kind: g.key.kind,
            model_checked: g.model_checked,
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
