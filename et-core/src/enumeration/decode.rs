//! Random access: the value at an offset within a part, without recursion (a term of
//! size 4,000 must not overflow the stack).

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;

use crate::grammar::NtId;

use super::cards::{Cards, Node, SeqId};
use super::term::Term;

/// The term at `offset` within part `size` of `nt`; sizes must be known and the offset
/// below the part's cardinality.
pub fn decode(cards: &Cards, nt: NtId, size: u32, offset: BigUint) -> Term {
    // Preorder list of (nt, alt, size, child count), then assembled bottom-up.
    let mut flat: Vec<(NtId, u32, u32, usize)> = Vec::new();
    let mut work: Vec<(NtId, u32, BigUint)> = vec![(nt, size, offset)];
    let mut children: Vec<(NtId, u32, BigUint)> = Vec::new();
    while let Some((nt, size, mut offset)) = work.pop() {
        let alts = &cards.alts[nt];
        let mut chosen = None;
        for (a, alt) in alts.iter().enumerate() {
            let card = cards.alt_card(alt, size);
            if offset < *card {
                chosen = Some(a);
                break;
            }
            offset -= card;
        }
        let a = chosen.expect("offset is below the part's cardinality");
        let alt = &alts[a];
        children.clear();
        split(cards, alt.body(), size - alt.cost, offset, &mut children);
        flat.push((nt, a as u32, size, children.len()));
        // Reversed so that the first child is decoded next: `flat` stays in preorder.
        work.extend(children.drain(..).rev());
    }
    assemble(flat)
}

/// Splits an offset within a product into one (nt, size, offset) per child, in order.
fn split(
    cards: &Cards,
    body: Option<Node>,
    size: u32,
    mut offset: BigUint,
    out: &mut Vec<(NtId, u32, BigUint)>,
) {
    let Some(mut node) = body else { return };
    let mut total = size;
    let start = out.len();
    loop {
        match node {
            Node::Nt(c) => {
                out.push((c, total, offset));
                break;
            }
            Node::Seq(s) => {
                let def = cards.seqs[s];
                let (k, inner) = find_block(cards, s, total, offset);
                let b = cards.card(Node::Nt(def.last), total - k);
                let (q, r) = inner.div_rem(b);
                out.push((def.last, total - k, r));
                offset = q;
                node = def.prefix;
                total = k;
            }
        }
    }
    out[start..].reverse();
}

fn assemble(flat: Vec<(NtId, u32, u32, usize)>) -> Term {
    let mut done: Vec<Term> = Vec::new();
    for (nt, alt, size, arity) in flat.into_iter().rev() {
        // In reverse preorder a node's subtrees are the last `arity` built, first
        // child on top.
        let children: Vec<Term> = (0..arity)
            .map(|_| done.pop().expect("children precede"))
            .collect();
        done.push(Term::new(nt, alt, size, children));
    }
    done.pop().expect("one root")
}

/// The block k (prefix size) of product `s` at size `total` that holds `offset`, and
/// the offset within that block.
///
/// Blocks are scanned from both ends at once: in a random term the split is almost
/// always lopsided (one child tiny), so the right block is near one end, and the
/// products there are cheap (one factor is small). The upper end is located by
/// subtracting from the product's cardinality, which is memoised.
fn find_block(cards: &Cards, s: SeqId, total: u32, offset: BigUint) -> (u32, BigUint) {
    let def = cards.seqs[s];
    let block = |k: u32| -> Option<BigUint> {
        let a = cards.card(def.prefix, k);
        let b = cards.card(Node::Nt(def.last), total - k);
        (!a.is_zero() && !b.is_zero()).then(|| a * b)
    };
    // Blocks lo.. are unscanned from below, ..=hi from above; `below` is the sum of
    // blocks under lo, `upto_hi` the sum of blocks up to and including hi.
    let (mut lo, mut hi) = (0u32, total);
    let mut below = BigUint::zero();
    let mut upto_hi = cards.card(Node::Seq(s), total).clone();
    loop {
        assert!(lo <= hi, "offset is below the product's cardinality");
        if let Some(b) = block(lo) {
            let next = &below + &b;
            if offset < next {
                return (lo, offset - below);
            }
            below = next;
        }
        lo += 1;
        if lo > hi {
            continue;
        }
        if let Some(b) = block(hi) {
            upto_hi -= &b;
            if offset >= upto_hi {
                return (hi, offset - upto_hi);
            }
        }
        hi -= 1;
    }
}
