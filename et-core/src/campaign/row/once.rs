//! Each call counted once. A call log can hold a call twice (a file appended to itself,
//! logs concatenated by hand) or rows of a solver its `run.toml` does not name; every
//! reader that counts calls (reports, merges, triage, `--resume`) keeps the first row
//! of each (formula, solver) and the rows of the run's own solvers, and says how many
//! it left out.
//!
//! Memory is one bit per (formula of the run's range, solver), allocated as far as the
//! rows reach: 10^8 formulas of 5 solvers take 60 MiB. A row outside the range is
//! counted (the report says it is outside) but not looked up.

use std::collections::HashMap;

use num_bigint::BigUint;

use super::RunRow;

/// Whether a row counts as a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// The first row of its call: it counts.
    Call,
    /// A second row of a call already read: left out.
    Duplicate,
    /// A row of a solver the run does not name: left out.
    OtherSolver,
}

/// How many rows a reader left out, and why.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Second rows of a call already read.
    pub duplicates: u64,
    /// Rows of solvers the run's `run.toml` does not name.
    pub other_solvers: u64,
}

impl LeftOut {
    /// Whether any row was left out.
    pub fn any(&self) -> bool {
        self.duplicates > 0 || self.other_solvers > 0
    }

    /// `3 duplicated rows of a call (the first counted) and 2 rows of solvers run.toml
    /// does not name were left out`, or `None` when nothing was.
    pub fn describe(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.duplicates > 0 {
            parts.push(format!(
                "{} duplicated row{} of a call (the first row of each call counts)",
                self.duplicates,
                if self.duplicates == 1 { "" } else { "s" }
            ));
        }
        if self.other_solvers > 0 {
            parts.push(format!(
                "{} row{} of solvers its run.toml does not name",
                self.other_solvers,
                if self.other_solvers == 1 { "" } else { "s" }
            ));
        }
        (!parts.is_empty()).then(|| format!("{} left out", parts.join(" and ")))
    }
}

/// The calls seen so far of one run directory.
#[derive(Debug)]
pub struct CallsOnce {
    start: BigUint,
    /// `start` when it fits, for the common case of small indices.
    small_start: Option<u128>,
    /// Formulas in the range: offsets at or past it are outside.
    formulas: u64,
    solvers: HashMap<String, u64>,
    /// Bit `offset * solvers + solver` is set once that call was read.
    seen: Vec<u64>,
    left_out: LeftOut,
}

impl CallsOnce {
    /// A run over `formulas` formulas from `start`, by `solvers`.
    pub fn new<'a>(
        start: &BigUint,
        formulas: u64,
        solvers: impl IntoIterator<Item = &'a str>,
    ) -> CallsOnce {
        CallsOnce {
            small_start: u128::try_from(start).ok(),
            start: start.clone(),
            formulas,
            solvers: solvers
                .into_iter()
                .enumerate()
                .map(|(i, s)| (s.to_string(), i as u64))
                .collect(),
            seen: Vec::new(),
            left_out: LeftOut::default(),
        }
    }

    /// Whether `row` counts (and records it).
    pub fn admit(&mut self, row: &RunRow) -> Admission {
        let Some(&solver) = self.solvers.get(&row.solver) else {
            self.left_out.other_solvers += 1;
            return Admission::OtherSolver;
        };
        let Some(offset) = self.offset(&row.index) else {
            return Admission::Call;
        };
        let bit = offset * self.solvers.len() as u64 + solver;
        let (word, mask) = ((bit / 64) as usize, 1u64 << (bit % 64));
        if word >= self.seen.len() {
            self.seen.resize(word + 1, 0);
        }
        if self.seen[word] & mask != 0 {
            self.left_out.duplicates += 1;
            return Admission::Duplicate;
        }
        self.seen[word] |= mask;
        Admission::Call
    }

    /// The rows left out so far.
    pub fn left_out(&self) -> LeftOut {
        self.left_out
    }

    /// The index's offset in the range, if it lies in it.
    fn offset(&self, index: &str) -> Option<u64> {
        let offset = match (self.small_start, index.len() <= 38) {
            (Some(start), true) => index.parse::<u128>().ok()?.checked_sub(start)?,
            _ => {
                let index: BigUint = index.parse().ok()?;
                if index < self.start {
                    return None;
                }
                u128::try_from(index - &self.start).ok()?
            }
        };
        u64::try_from(offset).ok().filter(|&o| o < self.formulas)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::full_row;
    use super::*;

    fn row(index: &str, solver: &str) -> RunRow {
        RunRow {
            index: index.into(),
            solver: solver.into(),
            ..full_row()
        }
    }

    #[test]
    fn the_first_row_of_a_call_counts_and_strangers_are_left_out() {
        let mut once = CallsOnce::new(&BigUint::from(100u32), 10, ["a", "b"]);
        assert_eq!(once.admit(&row("100", "a")), Admission::Call);
        assert_eq!(once.admit(&row("100", "b")), Admission::Call);
        assert_eq!(once.admit(&row("109", "a")), Admission::Call);
        assert_eq!(once.admit(&row("100", "a")), Admission::Duplicate);
        assert_eq!(once.admit(&row("101", "c")), Admission::OtherSolver);
        // Outside the range: counted (the report says it is outside), not looked up.
        assert_eq!(once.admit(&row("7", "a")), Admission::Call);
        assert_eq!(once.admit(&row("7", "a")), Admission::Call);
        assert_eq!(
            once.left_out(),
            LeftOut {
                duplicates: 1,
                other_solvers: 1
            }
        );
        assert_eq!(
            once.left_out().describe().unwrap(),
            "1 duplicated row of a call (the first row of each call counts) and 1 row of \
             solvers its run.toml does not name left out"
        );
        // Far indices.
        let far: BigUint = "1".repeat(60).parse().unwrap();
        let mut once = CallsOnce::new(&far, 5, ["a"]);
        let index = (far + 4u32).to_string();
        assert_eq!(once.admit(&row(&index, "a")), Admission::Call);
        assert_eq!(once.admit(&row(&index, "a")), Admission::Duplicate);
    }
}
