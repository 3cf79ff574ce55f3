//! One root cause, one report: the reports of several triages (grammars, units,
//! hunts) joined where they show the same bug.
//!
//! Two reports of one family and one class of bug (soundness, invalid model, crash,
//! performance) are one root cause when
//! - their formulas have the same shape (the same formula up to names and constants);
//! - they apply the same theory operators (beside the Boolean skeleton and the
//!   comparisons), on the same configuration, and the same releases show them first
//!   and last: the range and the operators;
//! - they are timed regressions at the same step between releases over the same
//!   bit-blasted sorts (a slowdown of one release's floating-point code shows on
//!   `fp.fma`, `fp.mul` and `fp.sqrt` alike, and in a configuration as in the default
//!   mode);
//! - neither applies a theory operator and both need the same option setting: the
//!   setting is the cause, whatever the grammar (cvc5's `restart-int-base=0` times out
//!   on every logic).
//!
//! *Must not:* join across families or classes, or join by one report's options alone
//! when its formula applies theory operators.

use std::collections::BTreeSet;

use crate::triage::rank::Kind;

use super::read::TriageReport;

/// The reports of one root cause: indices into the reports, the one to file first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootCause {
    /// Indices into the reports read, the one to file first.
    pub members: Vec<usize>,
}

impl RootCause {
    /// The report the root cause is filed as.
    pub fn representative(&self) -> usize {
        self.members[0]
    }
}

/// The class of a kind for joining: wrong `sat` and wrong `unsat` are one.
fn class(kind: Kind) -> u8 {
    match kind {
        Kind::RefutationalSoundness | Kind::SolutionSoundness => 0,
        Kind::InvalidModel => 1,
        Kind::Crash => 2,
        Kind::Performance => 3,
        Kind::ValidatorFalseAlarm => 4,
    }
}

/// The sorts a formula declares its constants of (`(_ FloatingPoint 11 53)`, `Int`).
pub fn declared_sorts(formula: &str) -> BTreeSet<String> {
    let mut sorts = BTreeSet::new();
    for decl in formula.split("(declare-const ").skip(1) {
        // `NAME SORT)`: the sort runs to the parenthesis that closes the command.
        let Some((_, rest)) = decl.split_once(' ') else {
            continue;
        };
        let mut depth = 0i32;
        let mut sort = String::new();
        for c in rest.chars() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => break,
                ')' => depth -= 1,
                _ => {}
            }
            sort.push(c);
        }
        sorts.insert(sort.trim().to_string());
    }
    sorts
}

fn same_root_cause(
    a: &TriageReport,
    b: &TriageReport,
    options: impl Fn(&TriageReport) -> Vec<String>,
) -> bool {
    if a.family != b.family || class(a.kind) != class(b.kind) {
        return false;
    }
    let (fa, fb) = (a.formula(), b.formula());
    let (oa, ob) = (options(a), options(b));
    if oa == ob && crate::triage::group::shape(&fa) == crate::triage::group::shape(&fb) {
        return true;
    }
    let (ta, tb) = (a.operators.theory(), b.operators.theory());
    if oa == ob
        && !ta.0.is_empty()
        && ta == tb
        && a.first_version == b.first_version
        && a.last_version == b.last_version
    {
        return true;
    }
    // A configuration's regression at the default mode's step is the default mode's
    // (z3's `rewriter.flat=false` slows down where the default does); two different
    // configurations are not joined by their step alone.
    // Only over bit-blasted sorts: a slowdown of the bit-blaster or the SAT solver shows
    // on every operator over them; two string regressions at one step may be two bugs.
    let comparable = oa == ob || oa.is_empty() || ob.is_empty();
    let sorts = declared_sorts(&fa);
    let blasted = !sorts.is_empty()
        && sorts
            .iter()
            .all(|s| s.starts_with("(_ FloatingPoint") || s.starts_with("(_ BitVec"));
    if let (Some(sa), Some(sb)) = (a.regression_step(), b.regression_step()) {
        if comparable && blasted && sa == sb && sorts == declared_sorts(&fb) {
            return true;
        }
    }
    ta.0.is_empty() && tb.0.is_empty() && !oa.is_empty() && oa == ob
}

/// The root causes of `reports`, each with the report to file first: one of the
/// default mode before one that needs options, the worse kind first, then the
/// smaller script, then the order given. `options` tells the options a report's
/// configuration needs (empty: the default mode).
pub fn join(
    reports: &[TriageReport],
    options: impl Fn(&TriageReport) -> Vec<String>,
) -> Vec<RootCause> {
    let n = reports.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            if same_root_cause(&reports[i], &reports[j], &options) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                if a != b {
                    parent[b.max(a)] = a.min(b);
                }
            }
        }
    }
    let mut causes: Vec<RootCause> = Vec::new();
    let mut of_root = std::collections::HashMap::new();
    for i in 0..n {
        let r = root(&mut parent, i);
        let at = *of_root.entry(r).or_insert_with(|| {
            causes.push(RootCause {
                members: Vec::new(),
            });
            causes.len() - 1
        });
        causes[at].members.push(i);
    }
    for cause in &mut causes {
        cause.members.sort_by_key(|&i| {
            let r = &reports[i];
            (!options(r).is_empty(), r.kind, r.script.len(), i)
        });
    }
    causes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_are_read_from_the_declarations() {
        let f = "(declare-const a (_ FloatingPoint 11 53)) (declare-const b Int) (assert true)";
        let sorts: Vec<_> = declared_sorts(f).into_iter().collect();
        assert_eq!(sorts, ["(_ FloatingPoint 11 53)", "Int"]);
    }
}
