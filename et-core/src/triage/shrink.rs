//! `et shrink`: grammar-aware reduction of a trigger. The formula is parsed into a
//! derivation of its grammar; then, visiting subterms from the root down, each is
//! replaced by a smaller term of the *same rule* — the rule's smallest terms first, in
//! the enumerator's order, together with the subterm's own same-rule descendants
//! (hoisting), all by ascending size — as long as the verdict still shows. Every
//! candidate is a derivation of the grammar, so every step, and the result, is a
//! formula of the grammar with an index (`et rank` accepts it).
//!
//! Passes repeat until one changes nothing (or the check budget is spent). Candidates
//! are checked `jobs` at a time and the first that keeps the verdict *in candidate
//! order* wins, so the result does not depend on the number of jobs. A check runs the
//! solver (and, for verdicts that need one, the reference) through the oracle, exactly
//! as `et run` would judge the formula; the final formula is run again in fresh
//! processes to confirm it.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::enumeration::{Enumeration, Term};
use crate::judging::Formula;
use crate::oracle::{Status, Verdict};
use crate::solvers::call::CallError;
use crate::solvers::SolverConfig;

use super::calls::{Answer, CallSettings, Caller};

/// Enumerated candidates of one size tried at a node (the rule's first ones).
pub const ENUMERATED_PER_SIZE: usize = 8;
/// Enumerated candidates tried at a node in all.
pub const ENUMERATED_PER_NODE: usize = 32;

/// What must keep showing.
#[derive(Debug, Clone)]
pub struct Goal<'a> {
    /// The solver under test.
    pub solver: SolverConfig,
    /// The judges, in order (needed for `unsound`, `timeout`, `unknown`): as in
    /// `et run`, the first whose answer is a clean sat/unsat is the reference.
    pub references: Vec<SolverConfig>,
    /// The verdict to keep.
    pub verdict: Verdict,
    /// For `unsound`: the wrong answer to keep (`unsat` must stay `unsat`), taken from
    /// the input formula.
    pub status: Option<Status>,
    /// For `crash`: the crash signature to keep, taken from the input formula.
    pub crash_signature: Option<String>,
    /// Limits of each call, and the grammar's logic.
    pub limits: CallSettings<'a>,
    /// et's witness search on every candidate, as in `et run`: values per constant
    /// (`None`: off). A witness establishes `unsound` (and `unknown`) without any
    /// reference, as it did in the campaign.
    pub witness_values: Option<usize>,
}

/// Verdicts that are judged against an expected answer: a reference's, or for
/// `unsound` and `unknown` also et's witness.
pub fn needs_reference(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::Unsound | Verdict::Timeout | Verdict::Unknown
    )
}

/// Whether et's witness alone can establish `verdict` (a witness proves `sat`: it
/// convicts an `unsat` and judges an `unknown`).
pub fn witness_can_judge(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Unsound | Verdict::Unknown)
}

/// One check of a formula against a [`Goal`]: whether the verdict showed, and the
/// answers it was decided on — what an error or a note quotes, so that it names the
/// calls that decided, not earlier ones (a flaky solver or judge answers otherwise
/// when asked again).
#[derive(Debug, Clone)]
pub struct Check {
    /// The verdict showed.
    pub shows: bool,
    /// The solver's answer.
    pub answer: Answer,
    /// The judges asked, in order, with their answers: none when the solver's answer
    /// alone decided, or the verdict needs no judge; the last is the reference when it
    /// decided.
    pub judges: Vec<(String, Answer)>,
}

impl Check {
    /// `it answers sat; the judge cvc5-1.4.2 answers unsat`: the answers of this check.
    pub fn describe(&self) -> String {
        let mut text = format!("it answers {}", self.answer.describe());
        for (name, answer) in &self.judges {
            text += &format!("; the judge {name} answers {}", answer.describe());
        }
        text
    }
}

impl Goal<'_> {
    /// Whether `formula` shows the goal's verdict; `fresh` starts new processes
    /// instead of reusing earlier answers.
    pub fn shows(&self, caller: &Caller, formula: &str, fresh: bool) -> Result<bool, CallError> {
        self.check(caller, formula, fresh).map(|c| c.shows)
    }

    /// [`Goal::shows`], with the answers that decided it.
    pub fn check(&self, caller: &Caller, formula: &str, fresh: bool) -> Result<Check, CallError> {
        let formula = Formula::new(formula, self.witness_values);
        let run = |s: &SolverConfig| {
            if fresh {
                caller.fresh(s, formula.text(), self.limits)
            } else {
                caller.cached(s, formula.text(), self.limits)
            }
        };
        let answer = run(&self.solver)?;
        let mut judges = Vec::new();
        if !self.solver_side_holds(&answer) {
            // No need to ask the reference.
            return Ok(Check {
                shows: false,
                answer,
                judges,
            });
        }
        let mut reference = None;
        if needs_reference(self.verdict) {
            for judge in &self.references {
                let judged = run(judge)?;
                let ruling = judged.as_reference();
                judges.push((judge.name.clone(), judged));
                if ruling.usable() {
                    reference = Some(ruling);
                    break;
                }
            }
        }
        let verdict = answer.finding(reference, &formula).map(|f| f.verdict);
        Ok(Check {
            shows: verdict == Some(self.verdict),
            answer,
            judges,
        })
    }

    /// What the solver's answer alone must be for the verdict to be possible.
    fn solver_side_holds(&self, answer: &Answer) -> bool {
        match self.verdict {
            Verdict::Unsound => {
                answer.status.is_decided()
                    && !answer.invalid_model
                    && match self.status {
                        Some(wrong) => wrong == answer.status,
                        None => true,
                    }
            }
            Verdict::InvalidModel => answer.invalid_model,
            Verdict::ValidatorFalseAlarm => answer.self_check_failed && !answer.invalid_model,
            Verdict::Crash => {
                answer.status == Status::Crash
                    && (self.crash_signature.is_none()
                        || self.crash_signature == answer.crash_signature)
            }
            Verdict::Timeout => answer.status == Status::Timeout,
            Verdict::Unknown => answer.status == Status::Unknown,
            // A script's verdict: shrinking takes formulas of one check-sat.
            Verdict::Incremental => false,
        }
    }
}

/// One accepted reduction.
#[derive(Debug, Clone)]
pub struct Step {
    /// FEAT size of the formula after the step.
    pub size: u32,
    /// Its global index.
    pub index: BigUint,
    /// Its text.
    pub text: String,
}

/// Budget of a reduction.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Candidate checks at most (each one or two solver calls).
    pub max_checks: u64,
    /// Candidates checked at a time.
    pub jobs: usize,
}

/// The result of a reduction.
#[derive(Debug, Clone)]
pub struct Shrunk {
    /// The smallest formula found that shows the verdict.
    pub term: Term,
    /// Its text.
    pub text: String,
    /// Its global index.
    pub index: BigUint,
    /// Every accepted step, in order.
    pub steps: Vec<Step>,
    /// Candidate checks made.
    pub checks: u64,
    /// The budget ran out before a pass changed nothing.
    pub exhausted: bool,
}

/// The subterm at `path` (child positions from the root).
fn at<'t>(term: &'t Term, path: &[usize]) -> &'t Term {
    path.iter().fold(term, |t, &i| &t.children[i])
}

/// `term` with the subterm at `path` replaced, sizes updated along the path.
fn replaced(term: &Term, path: &[usize], new: Term, costs: &[Vec<u32>]) -> Term {
    let mut out = term.clone();
    // Walk down with raw indices, then fix sizes bottom-up.
    {
        let mut node = &mut out;
        for &i in path {
            node = &mut node.children[i];
        }
        *node = new;
    }
    for depth in (0..path.len()).rev() {
        let node = path[..depth]
            .iter()
            .fold(&mut out, |t, &i| &mut t.children[i]);
        node.size =
            costs[node.nt][node.alt as usize] + node.children.iter().map(|c| c.size).sum::<u32>();
    }
    out
}

/// The next subterm in pre-order after `path`, in `term`.
fn next_path(term: &Term, mut path: Vec<usize>) -> Option<Vec<usize>> {
    if !at(term, &path).children.is_empty() {
        path.push(0);
        return Some(path);
    }
    while let Some(last) = path.pop() {
        if last + 1 < at(term, &path).children.len() {
            path.push(last + 1);
            return Some(path);
        }
    }
    None
}

/// Smaller terms of the rule of `node`, ascending size: at each size the node's own
/// same-rule descendants first, then the rule's first terms in enumeration order.
fn candidates(enumeration: &mut Enumeration, node: &Term) -> Vec<Term> {
    let mut descendants: Vec<&Term> = Vec::new();
    let mut stack: Vec<&Term> = node.children.iter().collect();
    while let Some(t) = stack.pop() {
        if t.nt == node.nt {
            descendants.push(t);
        }
        stack.extend(t.children.iter());
    }
    descendants.sort_by_key(|t| t.size);
    let mut out: Vec<Term> = Vec::new();
    let mut enumerated = 0;
    for size in 0..node.size {
        for d in descendants.iter().filter(|d| d.size == size) {
            if !out.contains(d) {
                out.push((*d).clone());
            }
        }
        if enumerated >= ENUMERATED_PER_NODE {
            continue;
        }
        let card = enumeration.rule_part_cardinality(node.nt, size);
        let take = card
            .to_usize()
            .unwrap_or(usize::MAX)
            .min(ENUMERATED_PER_SIZE)
            .min(ENUMERATED_PER_NODE - enumerated);
        for offset in 0..take {
            let t = enumeration.rule_term(node.nt, size, BigUint::from(offset));
            if !out.contains(&t) {
                out.push(t);
            }
            enumerated += 1;
        }
    }
    out
}

/// Reduces `start` (a derivation of the enumeration's start rule that shows the goal)
/// while the goal keeps showing. `on_step` sees every accepted step.
pub fn shrink(
    enumeration: &mut Enumeration,
    start: Term,
    goal: &Goal<'_>,
    caller: &Caller,
    budget: Budget,
    on_step: &mut dyn FnMut(&Step),
) -> Result<Shrunk, CallError> {
    let costs: Vec<Vec<u32>> = enumeration
        .grammar()
        .nonterminals
        .iter()
        .map(|nt| nt.alternatives.iter().map(|a| a.cost).collect())
        .collect();
    let mut current = start;
    let mut steps = Vec::new();
    let mut checks = 0u64;
    let mut exhausted = false;
    let jobs = budget.jobs.max(1);
    'passes: loop {
        let mut changed = false;
        let mut path = Some(Vec::new());
        while let Some(p) = path {
            let node = at(&current, &p).clone();
            let options = candidates(enumeration, &node);
            let mut accepted = None;
            for batch in options.chunks(jobs) {
                if checks >= budget.max_checks {
                    exhausted = true;
                    break 'passes;
                }
                let trees: Vec<Term> = batch
                    .iter()
                    .map(|c| replaced(&current, &p, c.clone(), &costs))
                    .collect();
                let texts: Vec<String> = trees.iter().map(|t| enumeration.text(t)).collect();
                checks += texts.len() as u64;
                let results = caller.map(&texts, |text| goal.shows(caller, text, false));
                if let Some(k) = first_true(results)? {
                    accepted = Some((trees[k].clone(), texts[k].clone()));
                    break;
                }
            }
            if let Some((tree, text)) = accepted {
                current = tree;
                let step = Step {
                    size: current.size,
                    index: enumeration.rank(&current),
                    text,
                };
                on_step(&step);
                steps.push(step);
                changed = true;
            }
            path = next_path(&current, p);
        }
        if !changed {
            break;
        }
    }
    let text = enumeration.text(&current);
    let index = enumeration.rank(&current);
    Ok(Shrunk {
        term: current,
        text,
        index,
        steps,
        checks,
        exhausted,
    })
}

/// The position of the first `Ok(true)`; an error before it is returned.
fn first_true(results: Vec<Result<bool, CallError>>) -> Result<Option<usize>, CallError> {
    for (i, r) in results.into_iter().enumerate() {
        if r? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enumeration::FormulaParser;
    use std::time::Duration;

    /// A "solver" that answers `unsat` when the formula applies `mod`, else `sat`;
    /// the first judge never decides, the second always says `sat`. Unsound exactly
    /// on formulas with `mod`.
    fn goal() -> Goal<'static> {
        let sh = crate::triage::calls::shell;
        Goal {
            solver: sh(
                "liar",
                "if grep -q '(mod ' \"$1\"; then echo unsat; else echo sat; fi",
            ),
            references: vec![sh("undecided", "echo unknown"), sh("ref", "echo sat")],
            verdict: Verdict::Unsound,
            status: Some(Status::Unsat),
            crash_signature: None,
            limits: CallSettings::with_timeout(Duration::from_secs(60)),
            witness_values: None,
        }
    }

    #[test]
    fn replacing_updates_sizes_along_the_path() {
        let e = Enumeration::new(crate::builtins::load("ints").unwrap());
        let g = e.grammar().clone();
        let text = "(declare-const a Int) (declare-const b Int) \
                    (assert (= (+ a (mod b 1)) 0)) (check-sat)";
        let term = FormulaParser::new(&g).parse(text).unwrap();
        let costs: Vec<Vec<u32>> = g
            .nonterminals
            .iter()
            .map(|nt| nt.alternatives.iter().map(|a| a.cost).collect())
            .collect();
        // The path to `(+ a (mod b 1))`: find it by walking the pre-order.
        let mut path = Some(Vec::new());
        let mut plus = None;
        while let Some(p) = path {
            if e.text(at(&term, &p)) == "(+ a (mod b 1))" {
                plus = Some(p.clone());
            }
            path = next_path(&term, p);
        }
        let plus = plus.expect("the subterm is found");
        let hoisted = at(&term, &plus).children[1].clone();
        let smaller = replaced(&term, &plus, hoisted, &costs);
        assert_eq!(
            e.text(&smaller),
            "(declare-const a Int) (declare-const b Int) (assert (= (mod b 1) 0)) (check-sat)"
        );
        assert_eq!(smaller.size, term.size - 1);
        let reparsed = FormulaParser::new(&g).parse(&e.text(&smaller)).unwrap();
        assert_eq!(reparsed, smaller);
    }

    #[test]
    fn candidates_are_smaller_terms_of_the_same_rule() {
        let mut e = Enumeration::new(crate::builtins::load("ints").unwrap());
        let g = e.grammar().clone();
        let term = FormulaParser::new(&g)
            .parse("(declare-const a Int) (declare-const b Int) (assert (< (abs (- a)) b)) (check-sat)")
            .unwrap();
        let mut path = vec![];
        while e.text(at(&term, &path)) != "(abs (- a))" {
            path = next_path(&term, path).unwrap();
        }
        let node = at(&term, &path).clone();
        let texts: Vec<String> = candidates(&mut e, &node)
            .iter()
            .map(|t| e.text(t))
            .collect();
        // Size 0: the node's own `a` first, then the rule's smallest terms in order.
        assert_eq!(&texts[..4], ["a", "0", "1", "b"]);
        assert!(texts.contains(&"(- a)".to_string()), "{texts:?}");
        let sizes: Vec<u32> = candidates(&mut e, &node).iter().map(|t| t.size).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]) && sizes.iter().all(|&s| s < node.size));
    }

    #[test]
    fn a_big_trigger_shrinks_to_a_small_one_that_still_lies() {
        let mut e = Enumeration::new(crate::builtins::load("ints").unwrap());
        let g = e.grammar().clone();
        let big = "(declare-const a Int) (declare-const b Int) \
                   (assert (or (< (* a (abs b)) (+ 1 (mod (- a b) (div b 1)))) (not (= a (- b))))) (check-sat)";
        let term = FormulaParser::new(&g).parse(big).unwrap();
        let caller = Caller::new(2).unwrap();
        let goal = goal();
        assert!(goal.shows(&caller, big, true).unwrap());
        let mut seen = Vec::new();
        let shrunk = shrink(
            &mut e,
            term.clone(),
            &goal,
            &caller,
            Budget {
                max_checks: 2000,
                jobs: 2,
            },
            &mut |s| seen.push(s.size),
        )
        .unwrap();
        assert!(!shrunk.exhausted);
        assert!(shrunk.text.contains("(mod "), "{}", shrunk.text);
        assert!(
            shrunk.term.size <= 6,
            "{} (size {})",
            shrunk.text,
            shrunk.term.size
        );
        assert!(
            seen.windows(2).all(|w| w[0] > w[1]),
            "every step is smaller: {seen:?}"
        );
        // The result is a formula of the grammar, at its index.
        assert_eq!(e.term(&shrunk.index).unwrap(), shrunk.term);
        assert!(goal.shows(&caller, &shrunk.text, true).unwrap());
    }
}
