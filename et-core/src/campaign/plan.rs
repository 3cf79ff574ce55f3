//! Which formulas a run covers: a range of global indices, optionally one shard of it.

use std::fmt;
use std::str::FromStr;

use num_bigint::BigUint;

/// `k/K`: shard k (1-based) of K. Shard k takes the formulas whose offset from the start
/// is ≡ k−1 (mod K): interleaving keeps the shards equally hard, since formulas grow
/// with the index, and lets each shard stream its share in one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub k: u64,
    /// Number of shards.
    pub count: u64,
}

/// A `--shard` value that is not `k/K` with 1 ≤ k ≤ K.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a shard: expected k/K with 1 ≤ k ≤ K (for example 3/8)")]
pub struct ShardError(String);

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (k, count) = text.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if k == 0 || count == 0 || k > count {
            return Err(bad());
        }
        Ok(Shard { k, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.count)
    }
}

/// The formulas of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Global index of the first formula of the study.
    pub start: BigUint,
    /// Number of formulas in the study (all shards together).
    pub n: u64,
    /// This run's share, if the study is sharded.
    pub shard: Option<Shard>,
}

impl Plan {
    /// Whether the formula at `offset` from the start belongs to this run.
    pub fn takes(&self, offset: u64) -> bool {
        match self.shard {
            Some(s) => offset % s.count == s.k - 1,
            None => true,
        }
    }

    /// Offsets from the start of the formulas of this run, in order.
    pub fn offsets(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.n).filter(|&o| self.takes(o))
    }

    /// Number of formulas of this run.
    pub fn len(&self) -> u64 {
        match self.shard {
            Some(s) => self.n / s.count + u64::from(self.n % s.count >= s.k),
            None => self.n,
        }
    }

    /// Whether this run has no formulas.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The global index of the formula at `offset`.
    pub fn index(&self, offset: u64) -> BigUint {
        &self.start + offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_range() {
        for n in [0u64, 1, 7, 10, 11] {
            let mut seen = vec![0; n as usize];
            for k in 1..=3 {
                let plan = Plan {
                    start: BigUint::from(5u32),
                    n,
                    shard: Some(Shard { k, count: 3 }),
                };
                let offsets: Vec<u64> = plan.offsets().collect();
                assert_eq!(offsets.len() as u64, plan.len());
                for o in offsets {
                    seen[o as usize] += 1;
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "{n}: {seen:?}");
        }
    }

    #[test]
    fn bad_shards_name_the_value() {
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            let err = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(err.contains(&format!("`{bad}`")), "{err}");
        }
        assert_eq!("2/8".parse::<Shard>().unwrap(), Shard { k: 2, count: 8 });
    }
}
