//! One-step rewrites of a formula's assertions, the moves every shrinking beyond the
//! grammar makes ([`super::minimize`] for a wrong `sat`, [`super::minimize_performance`]
//! for a timeout): drop an assertion, or replace one term by an argument of its own
//! sort, or by a replacement the caller offers (a value under a model, an array-free
//! form). Every result is well sorted: a replacement has the sort of what it replaces.
//!
//! *Must not:* run a solver or judge anything: callers decide what a step must keep.

use std::collections::BTreeSet;

use et_eval::term::{Term, TermKind};

/// Every one-step rewrite of `body` (a formula's assertions), smallest results first
/// (by printed length; ties in the order made): each assertion dropped (when there is
/// more than one), then each term of each assertion replaced by one of its arguments
/// of the same sort or by what `also` offers for it.
pub fn one_step(body: &[Term], also: impl Fn(&Term) -> Vec<Term>) -> Vec<Vec<Term>> {
    let mut out = Vec::new();
    if body.len() > 1 {
        for i in 0..body.len() {
            let mut fewer = body.to_vec();
            fewer.remove(i);
            out.push(fewer);
        }
    }
    for (i, assertion) in body.iter().enumerate() {
        for at in 0..size(assertion) {
            let Some(sub) = nth(assertion, at) else {
                continue;
            };
            let mut replacements: Vec<Term> = Vec::new();
            replacements.extend(children(sub).iter().filter(|a| a.sort == sub.sort).cloned());
            replacements.extend(also(sub));
            for r in replacements {
                let mut changed = body.to_vec();
                changed[i] = replace(assertion, at, r);
                out.push(changed);
            }
        }
    }
    out.sort_by_key(|b| b.iter().map(|t| t.to_string().len()).sum::<usize>());
    out
}

/// The declarations `body` uses, in declaration order (under binders too).
pub fn used(body: &[Term]) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    for t in body {
        t.for_each_var(&mut |i| {
            out.insert(i);
        });
    }
    out
}

/// The arguments a rewrite may reach into: those of operators and uninterpreted
/// functions. Not a quantifier's body, a datatype operation's or a `match`'s: a term
/// lifted out of a binder could leave a bound variable free, and a rewrite inside one
/// keeps its scope only where the grammar says so (`et shrink`'s business).
fn children(term: &Term) -> &[Term] {
    match &term.kind {
        TermKind::App(_, args) | TermKind::Call(_, args) => args,
        _ => &[],
    }
}

fn visit(term: &Term, f: &mut impl FnMut(&Term)) {
    f(term);
    for a in children(term) {
        visit(a, f);
    }
}

/// Nodes of `term`, preorder.
fn size(term: &Term) -> usize {
    let mut n = 0;
    visit(term, &mut |_| n += 1);
    n
}

/// The `at`-th node of `term`, preorder.
fn nth(term: &Term, at: usize) -> Option<&Term> {
    if at == 0 {
        return Some(term);
    }
    let mut rest = at - 1;
    for a in children(term) {
        let n = size(a);
        if rest < n {
            return nth(a, rest);
        }
        rest -= n;
    }
    None
}

/// `term` with its `at`-th node (preorder) replaced by `by`.
fn replace(term: &Term, at: usize, by: Term) -> Term {
    if at == 0 {
        return by;
    }
    let mut rest = at - 1;
    let mut out = term.clone();
    if let TermKind::App(_, args) | TermKind::Call(_, args) = &mut out.kind {
        for a in args.iter_mut() {
            let n = size(a);
            if rest < n {
                *a = replace(a, rest, by);
                break;
            }
            rest -= n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use et_eval::Script;

    #[test]
    fn rewrites_drop_assertions_and_keep_sorts() {
        let script = Script::parse(
            "(declare-const x Real) (declare-const b Bool) \
             (assert (= (sin (* x 2.0)) 1.0)) (assert b) (check-sat)",
        )
        .unwrap();
        let texts: Vec<String> = one_step(&script.assertions, |_| Vec::new())
            .iter()
            .map(|body| {
                body.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        // Smallest first: `b` alone, then the arithmetic alone.
        assert_eq!(texts[0], "b");
        assert!(
            texts.contains(&"(= (sin x) 1.0) b".to_string()),
            "{texts:?}"
        );
        assert!(
            texts.contains(&"(= (sin 2.0) 1.0) b".to_string()),
            "{texts:?}"
        );
        // Every result reads back as a well-sorted script.
        for t in &texts {
            let decls = "(declare-const x Real) (declare-const b Bool)";
            assert!(
                Script::parse(&format!("{decls} (assert (and {t} true)) (check-sat)")).is_ok(),
                "{t}"
            );
        }
        assert_eq!(used(&script.assertions).len(), 2);
    }
}
