//! Tactics as a dimension of configurations: a release's tactics read from the solver
//! itself ([`Family::tactic_listing`], z3's `(help-tactic)`), and the tactic
//! expressions enumerated from them, each a configuration whose formulas end in
//! `(check-sat-using EXPRESSION)` instead of `(check-sat)`, judged against the same
//! release's default `check-sat`.
//!
//! Every expression ends in `smt`, so that a tactic that only preprocesses still leads
//! to an answer. In order, each block over the tactics `T`, `U` in listing order:
//!
//! 1. `(then T smt)`;
//! 2. `(or-else (try-for (then T smt) 1000) smt)`;
//! 3. `(par-or (then T smt) smt)`;
//! 4. `(then (using-params T :P V) smt)` for each Boolean parameter `P` of `T`, `V` the
//!    other value than its default;
//! 5. `(then T U smt)`.
//!
//! A tactic may give up (`unknown`) or run long by design: a tactic configuration has
//! correctness verdicts only ([`crate::judging::Deciders::by_design`]); a tactic the
//! release refuses is recorded, never a finding.

use super::{OptionsError, Selection};
use crate::solvers::call::{run_call, Input, Limits};
use crate::solvers::family::catalog::Tactic;
use crate::solvers::pool::{Configured, SolverConfig};

/// How long listing a release's tactics may take.
const LISTING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// How much of the listing is read: z3 5.4.1's `(help-tactic)` is 1.3 MB (each tactic
/// with its parameters), more than a formula call keeps.
const LISTING_BYTES: usize = 16 << 20;

/// The tactics of `solver`'s release, read from the program.
pub fn tactics_of(solver: &SolverConfig) -> Result<Vec<Tactic>, OptionsError> {
    let family = solver.family_info();
    let Some((options, script)) = family.tactic_listing(&solver.version) else {
        return Err(OptionsError::NoTactics {
            solver: solver.name.clone(),
            family: solver.family.clone(),
        });
    };
    let mut command = vec![solver.program().to_string()];
    command.extend(options.iter().map(|o| o.to_string()));
    let failed = |why: String| OptionsError::Listing {
        solver: solver.name.clone(),
        command: format!("{} <<< '{script}'", command.join(" ")),
        why,
    };
    let limits = Limits {
        capture_bytes: LISTING_BYTES,
        ..Limits::with_timeout(LISTING_TIMEOUT)
    };
    let outcome = run_call(&command, Input::Stdin(script.as_bytes()), &limits)
        .map_err(|e| failed(e.to_string()))?;
    // A cut listing would lose its last tactics without a word.
    if outcome.stdout_truncated {
        return Err(failed(format!(
            "its listing is longer than {} MiB",
            LISTING_BYTES >> 20
        )));
    }
    let tactics = family.parse_tactics(&outcome.stdout_text());
    if tactics.is_empty() {
        return Err(failed(format!(
            "no tactics in its output (exit {:?})",
            outcome.exit_code
        )));
    }
    Ok(tactics)
}

/// The tactic expressions of a release, by index (see the module documentation).
pub struct TacticSpace {
    tactics: Vec<Tactic>,
    /// Each (tactic, parameter, other value) of block 4, in order.
    flips: Vec<(usize, String, bool)>,
}

impl TacticSpace {
    /// The expressions over `tactics`.
    pub fn new(tactics: Vec<Tactic>) -> TacticSpace {
        let flips = tactics
            .iter()
            .enumerate()
            .flat_map(|(i, t)| t.flags.iter().map(move |(p, d)| (i, p.clone(), !d)))
            .collect();
        TacticSpace { tactics, flips }
    }

    /// How many single tactics there are (block 1's size).
    pub fn singles(&self) -> u64 {
        self.tactics.len() as u64
    }

    /// How many expressions there are.
    pub fn len(&self) -> u64 {
        let n = self.singles();
        3 * n + self.flips.len() as u64 + n * n
    }

    /// Whether there is none (a release without tactics).
    pub fn is_empty(&self) -> bool {
        self.tactics.is_empty()
    }

    /// The expression of index `index`, if there is one.
    pub fn get(&self, index: u64) -> Option<String> {
        let n = self.singles();
        let name = |i: u64| self.tactics[i as usize].name.as_str();
        let mut at = index;
        for block in 0..3 {
            if at < n {
                let t = name(at);
                return Some(match block {
                    0 => format!("(then {t} smt)"),
                    1 => format!("(or-else (try-for (then {t} smt) 1000) smt)"),
                    _ => format!("(par-or (then {t} smt) smt)"),
                });
            }
            at -= n;
        }
        let flips = self.flips.len() as u64;
        if at < flips {
            let (t, param, value) = &self.flips[at as usize];
            return Some(format!(
                "(then (using-params {} :{param} {value}) smt)",
                self.tactics[*t].name
            ));
        }
        at -= flips;
        (at < n * n).then(|| format!("(then {} {} smt)", name(at / n), name(at % n)))
    }

    /// The indices `selection` picks: `tactics` block 1, `tactics:N` the first N,
    /// `tactics:A..B` that range (cut at the end of the space).
    pub fn indices(&self, selection: &Selection) -> std::ops::Range<u64> {
        match selection {
            Selection::Tactics { start, end } => {
                let end = end.unwrap_or(self.singles()).min(self.len());
                (*start).min(end)..end
            }
            _ => 0..0,
        }
    }
}

/// `base` checking its formulas with tactic expression `tactic`, the `index`-th of its
/// release: named `<base>+t<index>`, its command unchanged.
pub fn configure(base: &SolverConfig, index: u64, tactic: &str) -> SolverConfig {
    let mut solver = base.clone();
    solver.name = format!("{}+t{index}", base.name);
    solver.reference = Vec::new();
    solver.configuration = Some(Configured {
        of: base.name.clone(),
        options: Vec::new(),
        tactic: Some(tactic.to_string()),
    });
    solver
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tactic(name: &str, flags: &[(&str, bool)]) -> Tactic {
        Tactic {
            name: name.into(),
            flags: flags.iter().map(|(p, d)| (p.to_string(), *d)).collect(),
        }
    }

    #[test]
    fn expressions_come_block_by_block() {
        let space = TacticSpace::new(vec![
            tactic("simplify", &[("arith_lhs", false)]),
            tactic("nla2bv", &[]),
        ]);
        let all: Vec<String> = (0..space.len()).filter_map(|i| space.get(i)).collect();
        assert_eq!(
            all,
            [
                "(then simplify smt)",
                "(then nla2bv smt)",
                "(or-else (try-for (then simplify smt) 1000) smt)",
                "(or-else (try-for (then nla2bv smt) 1000) smt)",
                "(par-or (then simplify smt) smt)",
                "(par-or (then nla2bv smt) smt)",
                "(then (using-params simplify :arith_lhs true) smt)",
                "(then simplify simplify smt)",
                "(then simplify nla2bv smt)",
                "(then nla2bv simplify smt)",
                "(then nla2bv nla2bv smt)",
            ]
        );
        assert_eq!(space.get(space.len()), None);
        let first = Selection::Tactics {
            start: 0,
            end: None,
        };
        assert_eq!(space.indices(&first), 0..2);
        let far = Selection::Tactics {
            start: 9,
            end: Some(100),
        };
        assert_eq!(space.indices(&far), 9..11);
    }
}
