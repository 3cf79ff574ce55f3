//! Judging a classified call against the reference answer, and the default choice of
//! reference solver (DESIGN §6).

use super::{Status, Verdict};

/// The verdict on one call of the solver under test, or `None` when it is fine.
///
/// In order: the solver's own model check failed → `invalid_model` (it is the more
/// specific finding even if the answer is also wrong); `crash`; `sat`/`unsat`
/// contradicting a decided reference → `unsound`; `timeout`/`unknown` where the
/// reference decided the formula → the performance verdicts. An undecided or missing
/// reference gives no soundness or performance verdict; `memout` and `rejected` never
/// give one.
pub fn judge(status: Status, invalid_model: bool, reference: Option<Status>) -> Option<Verdict> {
    if invalid_model {
        return Some(Verdict::InvalidModel);
    }
    if status == Status::Crash {
        return Some(Verdict::Crash);
    }
    let reference = reference.filter(|r| r.is_decided())?;
    match status {
        Status::Sat | Status::Unsat if status != reference => Some(Verdict::Unsound),
        Status::Timeout => Some(Verdict::Timeout),
        Status::Unknown => Some(Verdict::Unknown),
        _ => None,
    }
}

/// A solver of the pool as the reference rule sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSolver<'a> {
    /// Unique name in the pool (as in the CSV `solver` column).
    pub name: &'a str,
    /// Family: `z3`, `cvc5`, `cvc4`, `yices`, ...
    pub family: &'a str,
    /// Release version, e.g. `4.8.10`.
    pub version: &'a str,
}

/// The `--reference` override names no solver of the pool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("reference solver `{name}` is not in the pool (pool: {available})")]
pub struct UnknownReference {
    /// The name asked for.
    pub name: String,
    /// The names in the pool, comma-separated.
    pub available: String,
}

/// For each solver of `pool` (same order), the index in `pool` of the solver it is
/// checked against, or `None` when it has no reference.
///
/// With `override_name`, every other solver is checked against that one (and it has no
/// reference itself). Otherwise ET's rule: the newest release of the *other* family —
/// z3 is checked against the newest cvc5, or the newest cvc4 when the pool has no cvc5;
/// cvc5 and cvc4 against the newest z3; any other family against the newest z3, else
/// cvc5, else cvc4. "Newest" is [`crate::version::newest`]: release order, releases
/// before unnumbered builds, ties to the name that sorts last, so the choice never
/// depends on pool order.
pub fn default_references(
    pool: &[PoolSolver<'_>],
    override_name: Option<&str>,
) -> Result<Vec<Option<usize>>, UnknownReference> {
    if let Some(name) = override_name {
        let Some(r) = pool.iter().position(|s| s.name == name) else {
            return Err(UnknownReference {
                name: name.to_string(),
                available: pool.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
            });
        };
        return Ok((0..pool.len()).map(|i| (i != r).then_some(r)).collect());
    }
    let newest = |family: &str| {
        crate::version::newest(
            (0..pool.len()).filter(|&i| pool[i].family.eq_ignore_ascii_case(family)),
            |&i| pool[i].version,
            |&a, &b| pool[a].name.cmp(pool[b].name),
        )
    };
    Ok(pool
        .iter()
        .map(|s| {
            let preference: &[&str] = match s.family.to_ascii_lowercase().as_str() {
                "z3" => &["cvc5", "cvc4"],
                "cvc5" | "cvc4" => &["z3"],
                _ => &["z3", "cvc5", "cvc4"],
            };
            preference.iter().find_map(|f| newest(f))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Status::*;

    #[test]
    fn judging() {
        assert_eq!(judge(Sat, false, Some(Unsat)), Some(Verdict::Unsound));
        assert_eq!(judge(Unsat, false, Some(Sat)), Some(Verdict::Unsound));
        assert_eq!(judge(Sat, false, Some(Sat)), None);
        assert_eq!(judge(Sat, false, Some(Unknown)), None);
        assert_eq!(judge(Sat, false, Some(Timeout)), None);
        assert_eq!(judge(Sat, false, None), None);
        assert_eq!(judge(Sat, true, Some(Sat)), Some(Verdict::InvalidModel));
        assert_eq!(judge(Sat, true, Some(Unsat)), Some(Verdict::InvalidModel));
        assert_eq!(judge(Sat, true, None), Some(Verdict::InvalidModel));
        assert_eq!(judge(Crash, false, None), Some(Verdict::Crash));
        assert_eq!(judge(Timeout, false, Some(Unsat)), Some(Verdict::Timeout));
        assert_eq!(judge(Timeout, false, Some(Unknown)), None);
        assert_eq!(judge(Unknown, false, Some(Sat)), Some(Verdict::Unknown));
        assert_eq!(judge(Unknown, false, None), None);
        assert_eq!(judge(Memout, false, Some(Sat)), None);
        assert_eq!(judge(Rejected, false, Some(Sat)), None);
    }

    fn s<'a>(name: &'a str, family: &'a str, version: &'a str) -> PoolSolver<'a> {
        PoolSolver {
            name,
            family,
            version,
        }
    }

    #[test]
    fn default_reference_is_newest_of_the_other_family() {
        let pool = [
            s("z3-4.8.9", "z3", "4.8.9"),
            s("z3-4.8.10", "z3", "4.8.10"),
            s("cvc4-1.8", "cvc4", "1.8"),
            s("cvc5-1.0.3", "cvc5", "1.0.3"),
            s("cvc5-1.0.10", "cvc5", "1.0.10"),
            s("yices-2.6", "yices", "2.6.4"),
        ];
        let refs = default_references(&pool, None).unwrap();
        let names: Vec<_> = refs.iter().map(|r| r.map(|i| pool[i].name)).collect();
        assert_eq!(
            names,
            [
                Some("cvc5-1.0.10"),
                Some("cvc5-1.0.10"),
                Some("z3-4.8.10"),
                Some("z3-4.8.10"),
                Some("z3-4.8.10"),
                Some("z3-4.8.10"),
            ]
        );
    }

    #[test]
    fn z3_falls_back_to_cvc4_and_lone_families_have_none() {
        let pool = [s("z3", "z3", "4.8.12"), s("cvc4", "cvc4", "1.8")];
        assert_eq!(default_references(&pool, None).unwrap(), [Some(1), Some(0)]);
        let pool = [s("a", "z3", "4.8.12"), s("b", "z3", "4.8.5")];
        assert_eq!(default_references(&pool, None).unwrap(), [None, None]);
    }

    #[test]
    fn override_wins() {
        let pool = [
            s("z3-old", "z3", "4.8.5"),
            s("z3-new", "z3", "4.8.12"),
            s("cvc5", "cvc5", "1.0.3"),
        ];
        let refs = default_references(&pool, Some("z3-old")).unwrap();
        assert_eq!(refs, [None, Some(0), Some(0)]);
        let err = default_references(&pool, Some("boolector")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "reference solver `boolector` is not in the pool (pool: z3-old, z3-new, cvc5)"
        );
    }
}
