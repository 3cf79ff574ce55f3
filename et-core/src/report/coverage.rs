//! Which formulas a run directory claims to hold, from its `run.toml`: the index range
//! `[start, start + n)`, optionally only some shards of it. Reports and merges use it
//! to refuse directories that would count a formula twice, and to say how complete a
//! directory is (rows present against the formulas claimed × the pool).

use std::path::Path;

use num_bigint::BigUint;

use crate::campaign::manifest::RunManifest;

use super::error::Overlap;
use super::load::{RunDir, MANIFEST};
use super::ReportError;

/// The formulas a run directory claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// First global index of the range.
    pub start: BigUint,
    /// One past the last index of the range.
    pub end: BigUint,
    /// `n` of the manifest: formulas in the range.
    pub n: u64,
    /// Shard numbers held and shard count (`3/8` → `[3], 8`; a partial merge `1,2/8`).
    pub shard: Option<(Vec<u64>, u64)>,
}

impl Coverage {
    /// The coverage `dir`'s manifest claims; a `start` or `shard` that does not parse
    /// is an error naming the manifest.
    pub fn of(dir: &RunDir) -> Result<Self, ReportError> {
        Self::of_manifest(&dir.manifest, &dir.path.join(MANIFEST))
    }

    /// The coverage a manifest claims (`path` names it in errors).
    pub fn of_manifest(m: &RunManifest, path: &Path) -> Result<Self, ReportError> {
        let bad =
            |field: &'static str, value: &str, reason: &'static str| ReportError::BadManifest {
                path: path.to_path_buf(),
                field,
                value: value.to_string(),
                reason,
            };
        let start: BigUint = (!m.start.is_empty() && m.start.bytes().all(|b| b.is_ascii_digit()))
            .then(|| m.start.parse().ok())
            .flatten()
            .ok_or_else(|| bad("start", &m.start, "not a decimal index"))?;
        let shard = match &m.shard {
            None => None,
            Some(text) => Some(
                parse_shard(text)
                    .ok_or_else(|| bad("shard", text, "expected k/K or k1,k2,.../K"))?,
            ),
        };
        Ok(Coverage {
            end: &start + BigUint::from(m.n),
            start,
            n: m.n,
            shard,
        })
    }

    /// `[start, end)`, with the shards if any: `[0, 600) shard 1/2`.
    pub fn describe(&self) -> String {
        match &self.shard {
            Some((ks, total)) => {
                let ks: Vec<String> = ks.iter().map(u64::to_string).collect();
                format!(
                    "[{}, {}) shard {}/{total}",
                    self.start,
                    self.end,
                    ks.join(",")
                )
            }
            None => format!("[{}, {})", self.start, self.end),
        }
    }

    /// How many formulas the directory claims: the whole range, or the formulas of its
    /// shards (shard k of K takes the offsets ≡ k−1 mod K).
    pub fn formulas(&self) -> u64 {
        match &self.shard {
            None => self.n,
            Some((ks, total)) => ks
                .iter()
                .map(|&k| self.n / total + u64::from(self.n % total >= k))
                .sum(),
        }
    }

    /// Whether some formula is claimed by both.
    pub fn overlaps(&self, other: &Coverage) -> bool {
        let ranges_meet = self.start < other.end && other.start < self.end;
        if !ranges_meet {
            return false;
        }
        // Shards of the very same range with the same count interleave without meeting
        // when their shard numbers differ; anything else that meets overlaps.
        match (&self.shard, &other.shard) {
            (Some((ka, na)), Some((kb, nb)))
                if self.start == other.start && self.end == other.end && na == nb =>
            {
                ka.iter().any(|k| kb.contains(k))
            }
            _ => true,
        }
    }
}

/// Parses `k/K` (or `k1,k2/K` as written by a partial merge), 1 ≤ k ≤ K.
pub fn parse_shard(text: &str) -> Option<(Vec<u64>, u64)> {
    let (ks, total) = text.split_once('/')?;
    let total: u64 = total.trim().parse().ok()?;
    let mut ks = ks
        .split(',')
        .map(|k| k.trim().parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    if total == 0 || ks.iter().any(|&k| k == 0 || k > total) {
        return None;
    }
    ks.sort_unstable();
    ks.dedup();
    Some((ks, total))
}

/// Refuses two directories whose rows would count twice together: the same directory,
/// or the same grammar over overlapping formulas with a solver in common. `action`
/// (`merge`, `report`, `plot`) goes into the message.
pub fn check_disjoint(a: &RunDir, b: &RunDir, action: &'static str) -> Result<(), ReportError> {
    let (ma, mb) = (&a.manifest, &b.manifest);
    let same_dir = std::fs::canonicalize(&a.path).ok() == std::fs::canonicalize(&b.path).ok();
    if ma.grammar != mb.grammar && !same_dir {
        return Ok(());
    }
    let (ca, cb) = (Coverage::of(a)?, Coverage::of(b)?);
    let shared = ma
        .solvers
        .iter()
        .find(|s| mb.solvers.iter().any(|t| t.name == s.name));
    if same_dir || (ca.overlaps(&cb) && shared.is_some()) {
        return Err(ReportError::Overlap(Box::new(Overlap {
            action,
            a: a.path.clone(),
            b: b.path.clone(),
            grammar: ma.grammar.clone(),
            left: ca.describe(),
            right: cb.describe(),
            solver: shared.map_or_else(|| "the same solvers".into(), |s| s.name.clone()),
        })));
    }
    Ok(())
}

/// [`check_disjoint`] for every pair of `dirs`.
pub fn check_all_disjoint(dirs: &[RunDir], action: &'static str) -> Result<(), ReportError> {
    for (i, a) in dirs.iter().enumerate() {
        for b in &dirs[i + 1..] {
            check_disjoint(a, b, action)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cov(start: u64, n: u64, shard: Option<&str>) -> Coverage {
        Coverage {
            start: start.into(),
            end: (start + n).into(),
            n,
            shard: shard.map(|s| parse_shard(s).unwrap()),
        }
    }

    #[test]
    fn shard_sizes_add_up_to_the_range() {
        for n in [0, 1, 5, 6, 7, 600] {
            let total: u64 = (1..=4)
                .map(|k| cov(0, n, Some(&format!("{k}/4"))).formulas())
                .sum();
            assert_eq!(total, n);
        }
        assert_eq!(cov(0, 7, Some("1,3/4")).formulas(), 2 + 2);
        assert_eq!(cov(10, 7, None).formulas(), 7);
    }

    #[test]
    fn overlap_of_ranges_and_shards() {
        assert!(cov(0, 6, None).overlaps(&cov(4, 6, None)));
        assert!(!cov(0, 6, None).overlaps(&cov(6, 6, None)));
        assert!(!cov(0, 6, Some("1/2")).overlaps(&cov(0, 6, Some("2/2"))));
        assert!(cov(0, 6, Some("1/2")).overlaps(&cov(0, 6, Some("1,2/2"))));
        // Different shard counts interleave differently: they share formulas.
        assert!(cov(0, 6, Some("1/2")).overlaps(&cov(0, 6, Some("2/3"))));
        assert!(cov(0, 6, Some("1/2")).overlaps(&cov(0, 6, None)));
    }

    #[test]
    fn bad_shards_do_not_parse() {
        for bad in ["0/2", "3/2", "1/0", "x/2", "1", "1,,2/3"] {
            assert_eq!(parse_shard(bad), None, "{bad}");
        }
        assert_eq!(parse_shard("2,1,2/3"), Some((vec![1, 2], 3)));
    }
}
