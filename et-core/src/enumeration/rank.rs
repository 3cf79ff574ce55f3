//! The inverse of decoding: a term's offset within its part.

use num_bigint::BigUint;
use num_traits::Zero;

use super::cards::{Cards, Node};
use super::term::Term;

/// The offset of `term` within part `term.size` of `term.nt` (sizes must be known).
/// Iterative post-order, so deep terms cannot overflow the stack.
pub fn rank(cards: &Cards, term: &Term) -> BigUint {
    let mut ranks: Vec<BigUint> = Vec::new();
    let mut work: Vec<(&Term, bool)> = vec![(term, false)];
    while let Some((t, children_done)) = work.pop() {
        if !children_done {
            work.push((t, true));
            work.extend(t.children.iter().rev().map(|c| (c, false)));
            continue;
        }
        let child_ranks = ranks.split_off(ranks.len() - t.children.len());
        ranks.push(rank_node(cards, t, child_ranks));
    }
    ranks.pop().expect("one root")
}

fn rank_node(cards: &Cards, term: &Term, child_ranks: Vec<BigUint>) -> BigUint {
    let alts = &cards.alts[term.nt];
    let mut offset = BigUint::zero();
    for alt in &alts[..term.alt as usize] {
        offset += cards.alt_card(alt, term.size);
    }
    let alt = &alts[term.alt as usize];
    let mut child_ranks = child_ranks.into_iter();
    let Some(mut inner) = child_ranks.next() else {
        return offset;
    };
    // Left-nested product: offset of (c1..cj) from that of (c1..c(j−1)) and cj.
    let mut prefix_size = term.children[0].size;
    for (j, child_rank) in (1..).zip(child_ranks) {
        let child = &term.children[j];
        let last = Node::Nt(alt.children[j]);
        let total = prefix_size + child.size;
        // The blocks before this split, summed from whichever end is nearer (see
        // decode::find_block for why the near end is cheap).
        let block = |k: u32| -> BigUint {
            let a = cards.card(alt.prefixes[j - 1], k);
            if a.is_zero() {
                BigUint::zero()
            } else {
                a * cards.card(last, total - k)
            }
        };
        let before = if prefix_size <= total / 2 {
            (0..prefix_size).map(block).sum()
        } else {
            let above: BigUint = (prefix_size..=total).map(block).sum();
            cards.card(alt.prefixes[j], total) - above
        };
        inner = before + inner * cards.card(last, child.size) + child_rank;
        prefix_size = total;
    }
    offset + inner
}
