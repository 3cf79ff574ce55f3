//! A configuration's finding reduced to the options it needs: the smallest set of the
//! configuration's options (fewest first, then in the configuration's order) with
//! which the release still shows the verdict in every attempt, and whether the
//! release in its default mode shows it too. The report's command line then has
//! exactly those options: a maintainer sees which option the bug lives behind.
//!
//! *Must not:* try more than [`MAX_SUBSETS`] sets (a configuration of many options is
//! reported with all of them, and says so), or judge any other way than the finding's
//! confirmation did.

use crate::solvers::call::CallError;
use crate::solvers::options::{configure, option_pairs, Configuration};
use crate::solvers::SolverConfig;

use super::confirm::Again;

/// Sets of options tried per finding, the default mode included.
pub const MAX_SUBSETS: usize = 64;

/// What reducing a configuration's options showed.
#[derive(Debug, Clone)]
pub struct OptionDelta {
    /// The options the finding needs (`name=value`), in the configuration's order;
    /// empty when the default mode shows it.
    pub needed: Vec<String>,
    /// Every option of the configuration.
    pub all: Vec<String>,
    /// The release in its default mode shows the verdict in every attempt.
    pub default_shows: bool,
    /// The solver with exactly the options needed: what the report runs.
    pub solver: SolverConfig,
    /// Every smaller set was tried (false: [`MAX_SUBSETS`] stopped the search, and
    /// `needed` is the smallest set found, possibly all the options).
    pub exhaustive: bool,
}

/// Reduces the options of the finding `again` asks when its solver `configured` is
/// an option configuration of `base` (the same release in its default mode); `None`
/// for a solver that is not a configuration.
pub fn reduce(
    again: Again<'_>,
    configured: &SolverConfig,
    base: &SolverConfig,
) -> Result<Option<OptionDelta>, CallError> {
    let Some(configuration) = &configured.configuration else {
        return Ok(None);
    };
    let all = option_pairs(&configuration.options);
    let with = |subset: &[usize]| {
        configure(
            base,
            &Configuration {
                index: Default::default(),
                suffix: "needed".into(),
                options: subset.iter().map(|&i| all[i].clone()).collect(),
                curated: None,
            },
        )
    };
    let words = |subset: &[usize]| -> Vec<String> {
        subset
            .iter()
            .map(|&i| format!("{}={}", all[i].0, all[i].1))
            .collect()
    };
    let default_shows = again.shown_by(base)?;
    let mut tried = 1;
    let mut exhaustive = true;
    if !default_shows {
        'sizes: for k in 1..all.len() {
            for subset in combinations(all.len(), k) {
                if tried >= MAX_SUBSETS {
                    exhaustive = false;
                    break 'sizes;
                }
                tried += 1;
                let solver = with(&subset);
                if again.shown_by(&solver)? {
                    return Ok(Some(OptionDelta {
                        needed: words(&subset),
                        all: configuration.options.clone(),
                        default_shows,
                        solver,
                        exhaustive,
                    }));
                }
            }
        }
    }
    let (needed, solver) = if default_shows {
        (Vec::new(), base.clone())
    } else {
        let every: Vec<usize> = (0..all.len()).collect();
        (words(&every), configured.clone())
    };
    Ok(Some(OptionDelta {
        needed,
        all: configuration.options.clone(),
        default_shows,
        solver,
        exhaustive,
    }))
}

/// The `k`-element subsets of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(current.clone());
        // The rightmost element that can still move right.
        let Some(i) = (0..k).rev().find(|&i| current[i] < n - k + i) else {
            return out;
        };
        current[i] += 1;
        for j in i + 1..k {
            current[j] = current[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::combinations;

    #[test]
    fn subsets_fewest_first_in_order() {
        assert_eq!(combinations(3, 1), [[0], [1], [2]]);
        assert_eq!(combinations(3, 2), [[0, 1], [0, 2], [1, 2]]);
        assert_eq!(combinations(2, 2), [[0, 1]]);
        assert!(combinations(1, 2).is_empty());
        assert_eq!(combinations(4, 2).len(), 6);
    }
}
