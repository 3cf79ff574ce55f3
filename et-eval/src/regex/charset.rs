//! Sets of characters as sorted code-point ranges: what `re.allchar`, `re.range` and
//! one-character literals denote, kept as ranges so that the full alphabet costs one
//! entry.

use std::fmt;

use crate::string::{SmtString, MAX_CODE_POINT};

/// A set of code points within 0..=0x2FFFF, as sorted, disjoint, non-adjacent inclusive
/// ranges (so equal sets have equal representations).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    /// No characters.
    pub fn empty() -> CharSet {
        CharSet { ranges: Vec::new() }
    }

    /// The whole alphabet 0..=0x2FFFF (`re.allchar`).
    pub fn full() -> CharSet {
        CharSet {
            ranges: vec![(0, MAX_CODE_POINT)],
        }
    }

    /// One character (clipped to the alphabet: beyond it, the empty set).
    pub fn single(c: u32) -> CharSet {
        CharSet::range(c, c)
    }

    /// The characters `low..=high` that lie in the alphabet; empty if `low > high`.
    pub fn range(low: u32, high: u32) -> CharSet {
        let high = high.min(MAX_CODE_POINT);
        if low > high {
            CharSet::empty()
        } else {
            CharSet {
                ranges: vec![(low, high)],
            }
        }
    }

    /// The inclusive ranges, sorted and disjoint.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Whether the set has no characters.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether the set is the whole alphabet.
    pub fn is_full(&self) -> bool {
        self.ranges == [(0, MAX_CODE_POINT)]
    }

    /// The only character, if the set has exactly one.
    pub fn as_single(&self) -> Option<u32> {
        match self.ranges[..] {
            [(low, high)] if low == high => Some(low),
            _ => None,
        }
    }

    /// Whether `c` is in the set.
    pub fn contains(&self, c: u32) -> bool {
        let after = self.ranges.partition_point(|&(low, _)| low <= c);
        after > 0 && self.ranges[after - 1].1 >= c
    }

    /// The characters in either set.
    pub fn union(&self, other: &CharSet) -> CharSet {
        let mut all: Vec<(u32, u32)> = self.ranges.iter().chain(&other.ranges).copied().collect();
        all.sort_unstable();
        let mut ranges: Vec<(u32, u32)> = Vec::with_capacity(all.len());
        for (low, high) in all {
            match ranges.last_mut() {
                // Overlapping or adjacent: merge.
                Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
                _ => ranges.push((low, high)),
            }
        }
        CharSet { ranges }
    }

    /// The characters in both sets.
    pub fn intersection(&self, other: &CharSet) -> CharSet {
        let mut ranges = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.ranges.len() && j < other.ranges.len() {
            let (a_low, a_high) = self.ranges[i];
            let (b_low, b_high) = other.ranges[j];
            let (low, high) = (a_low.max(b_low), a_high.min(b_high));
            if low <= high {
                ranges.push((low, high));
            }
            if a_high < b_high {
                i += 1;
            } else {
                j += 1;
            }
        }
        CharSet { ranges }
    }

    /// The alphabet's characters not in the set.
    pub fn complement(&self) -> CharSet {
        let mut ranges = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(low, high) in &self.ranges {
            if low > next {
                ranges.push((next, low - 1));
            }
            next = high + 1;
        }
        if next <= MAX_CODE_POINT {
            ranges.push((next, MAX_CODE_POINT));
        }
        CharSet { ranges }
    }
}

impl fmt::Display for CharSet {
    /// As an SMT-LIB regular expression over single characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = |(low, high): (u32, u32)| {
            let text = |c: u32| {
                SmtString::from_code_points([c])
                    .map(|s| s.to_literal())
                    .unwrap_or_default()
            };
            if low == high {
                format!("(str.to_re {})", text(low))
            } else {
                format!("(re.range {} {})", text(low), text(high))
            }
        };
        if self.is_full() {
            return f.write_str("re.allchar");
        }
        match self.ranges[..] {
            [] => f.write_str("re.none"),
            [range] => f.write_str(&one(range)),
            _ => {
                f.write_str("(re.union")?;
                for &range in &self.ranges {
                    write!(f, " {}", one(range))?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Debug for CharSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CharSet({self})")
    }
}
