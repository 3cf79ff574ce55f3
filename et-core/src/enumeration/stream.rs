//! Streaming: stepping a term to its successor in place. Within a part, values are
//! ordered by alternative, then by the split of the size among the children (the
//! left-nested product's prefix sizes, outermost most significant), then by the
//! children's own orders with the last child varying fastest — so a step is an
//! odometer increment that mostly touches the rightmost leaves, and the cost per value
//! stays constant instead of a fresh big-integer decode.

use crate::grammar::NtId;

use super::cards::{AltShape, Cards, Node};
use super::term::Term;

/// Overwrites `term` with the first value of part `size` of `nt` (which must be
/// non-empty), reusing its allocations.
pub fn fill_first(cards: &Cards, term: &mut Term, nt: NtId, size: u32) {
    term.nt = nt;
    term.size = size;
    let (a, alt) = cards.alts[nt]
        .iter()
        .enumerate()
        .find(|(_, alt)| size >= alt.cost && body_has(cards, alt, size - alt.cost))
        .expect("part is non-empty");
    term.alt = a as u32;
    fill_alt(cards, term, alt);
}

/// Fills the children of `term` (alternative already set) with the first split and
/// the first value of each child.
fn fill_alt(cards: &Cards, term: &mut Term, alt: &AltShape) {
    let m = alt.children.len();
    term.children.truncate(m);
    while term.children.len() < m {
        term.children.push(Term::new(0, 0, 0, Vec::new()));
    }
    if m == 0 {
        return;
    }
    // First split, outermost level first: the smallest prefix size that works.
    let mut total = term.size - alt.cost;
    for j in (1..m).rev() {
        let k = (0..=total)
            .find(|&k| split_ok(cards, alt, j, k, total))
            .expect("product part is non-empty");
        term.children[j].size = total - k;
        total = k;
    }
    term.children[0].size = total;
    for (child, &nt) in term.children.iter_mut().zip(&alt.children) {
        let size = child.size;
        fill_first(cards, child, nt, size);
    }
}

/// Whether prefix c1..cj can take size k and child c(j+1) the rest of `total`.
fn split_ok(cards: &Cards, alt: &AltShape, j: usize, k: u32, total: u32) -> bool {
    cards.has(alt.prefixes[j - 1], k) && cards.has(Node::Nt(alt.children[j]), total - k)
}

fn body_has(cards: &Cards, alt: &AltShape, size: u32) -> bool {
    match alt.body() {
        Some(node) => cards.has(node, size),
        None => size == 0,
    }
}

/// Steps `term` to the next value of its part; false (term unchanged in meaning) if it
/// was the last. On success `path` ends with the child indices, deepest first, that
/// lead to the first node (in preorder) that changed: every node after it changed
/// too, every node before it did not, so only the text from there on is stale.
pub fn step(cards: &Cards, term: &mut Term, path: &mut Vec<usize>) -> bool {
    let alts = &cards.alts[term.nt];
    let alt = &alts[term.alt as usize];
    let m = alt.children.len();
    // 1. Odometer over the children, last child fastest.
    for j in (0..m).rev() {
        if step(cards, &mut term.children[j], path) {
            path.push(j);
            for l in j + 1..m {
                let (nt, size) = (alt.children[l], term.children[l].size);
                fill_first(cards, &mut term.children[l], nt, size);
            }
            return true;
        }
    }
    // 2. The next split of the size among the children.
    if m >= 2 && next_split(cards, alt, term) {
        for (child, &nt) in term.children.iter_mut().zip(&alt.children) {
            let size = child.size;
            fill_first(cards, child, nt, size);
        }
        return true;
    }
    // 3. The next alternative with values of this size.
    let size = term.size;
    for (a, next) in alts.iter().enumerate().skip(term.alt as usize + 1) {
        if size >= next.cost && body_has(cards, next, size - next.cost) {
            term.alt = a as u32;
            fill_alt(cards, term, next);
            return true;
        }
    }
    false
}

/// Advances the children's sizes to the next split: the innermost prefix size moves
/// first; when it cannot, the next level out moves and the inner ones restart.
fn next_split(cards: &Cards, alt: &AltShape, term: &mut Term) -> bool {
    let m = alt.children.len();
    // prefix[j] = size of c1..c(j+1).
    let mut prefix: Vec<u32> = term
        .children
        .iter()
        .scan(0, |acc, c| {
            *acc += c.size;
            Some(*acc)
        })
        .collect();
    for j in 1..m {
        let total = prefix[j];
        let next = (prefix[j - 1] + 1..=total).find(|&k| split_ok(cards, alt, j, k, total));
        if let Some(k) = next {
            prefix[j - 1] = k;
            for i in (1..j).rev() {
                let total = prefix[i];
                prefix[i - 1] = (0..=total)
                    .find(|&k| split_ok(cards, alt, i, k, total))
                    .expect("prefix part is non-empty");
            }
            let mut previous = 0;
            for (child, &p) in term.children.iter_mut().zip(&prefix) {
                child.size = p - previous;
                previous = p;
            }
            return true;
        }
    }
    false
}
