//! Part cardinalities, memoised per (nonterminal, size) and per product prefix.
//!
//! An alternative with children c1..cm is the left-nested product
//! ((c1 × c2) × c3) × ... × cm. Each prefix (c1..cj), j ≥ 2, is a *sequence* whose
//! cardinalities are memoised once and shared by every alternative that starts with the
//! same children: `and b b`, `or b b` and `xor b b` share one table.

use std::collections::{HashMap, HashSet};

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::grammar::{Grammar, NtId};

/// Index of a product prefix in [`Cards`].
pub type SeqId = usize;

/// Something with parts: a nonterminal or a product prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Node {
    /// All values of a nonterminal.
    Nt(NtId),
    /// All values of a product prefix (c1..cj), j ≥ 2.
    Seq(SeqId),
}

/// A product prefix: `prefix × last`.
#[derive(Debug, Clone, Copy)]
pub struct SeqDef {
    /// c1..c(j−1): a nonterminal when j = 2.
    pub prefix: Node,
    /// cj.
    pub last: NtId,
}

/// An alternative as the engine sees it.
#[derive(Debug, Clone)]
pub struct AltShape {
    /// 0 or 1 (FEAT `pay`).
    pub cost: u32,
    /// The children in order.
    pub children: Vec<NtId>,
    /// `prefixes[j]` holds c1..c(j+1); the last one is the whole product.
    pub prefixes: Vec<Node>,
}

impl AltShape {
    /// The node holding all children together, `None` for a childless alternative.
    pub fn body(&self) -> Option<Node> {
        self.prefixes.last().copied()
    }
}

/// Cardinality tables of one grammar, grown on demand.
#[derive(Debug, Clone)]
pub struct Cards {
    /// Per nonterminal, its alternatives.
    pub alts: Vec<Vec<AltShape>>,
    /// The product prefixes.
    pub seqs: Vec<SeqDef>,
    /// Nodes in an order where every same-size dependency comes first.
    order: Vec<Node>,
    nt: Vec<Vec<BigUint>>,
    seq: Vec<Vec<BigUint>>,
    zero: BigUint,
    one: BigUint,
}

impl Cards {
    /// Builds the shapes of a validated grammar (which has no zero-cost cycle).
    pub fn new(grammar: &Grammar) -> Cards {
        let mut seqs = Vec::new();
        let mut seq_ids: HashMap<(Node, NtId), SeqId> = HashMap::new();
        let alts: Vec<Vec<AltShape>> = grammar
            .nonterminals
            .iter()
            .map(|nt| {
                nt.alternatives
                    .iter()
                    .map(|alt| {
                        let children: Vec<NtId> = alt.children().collect();
                        let mut prefixes = Vec::with_capacity(children.len());
                        for (j, &c) in children.iter().enumerate() {
                            let node = if j == 0 {
                                Node::Nt(c)
                            } else {
                                let key = (prefixes[j - 1], c);
                                let id = *seq_ids.entry(key).or_insert_with(|| {
                                    seqs.push(SeqDef {
                                        prefix: key.0,
                                        last: c,
                                    });
                                    seqs.len() - 1
                                });
                                Node::Seq(id)
                            };
                            prefixes.push(node);
                        }
                        AltShape {
                            cost: alt.cost,
                            children,
                            prefixes,
                        }
                    })
                    .collect()
            })
            .collect();
        let order = same_size_order(&alts, &seqs);
        Cards {
            nt: vec![Vec::new(); alts.len()],
            seq: vec![Vec::new(); seqs.len()],
            alts,
            seqs,
            order,
            zero: BigUint::zero(),
            one: BigUint::one(),
        }
    }

    /// Sizes 0..computed() are known.
    pub fn computed(&self) -> usize {
        self.nt.first().map_or(0, Vec::len)
    }

    /// Makes sizes 0..=size known.
    pub fn ensure(&mut self, size: u32) {
        let size = size as usize;
        for n in self.computed()..=size {
            for i in 0..self.order.len() {
                let value = match self.order[i] {
                    Node::Nt(nt) => self.nt_at(nt, n),
                    Node::Seq(s) => self.seq_at(s, n),
                };
                match self.order[i] {
                    Node::Nt(nt) => self.nt[nt].push(value),
                    Node::Seq(s) => self.seq[s].push(value),
                }
            }
        }
    }

    fn nt_at(&self, nt: NtId, n: usize) -> BigUint {
        let mut total = BigUint::zero();
        for alt in &self.alts[nt] {
            if let Some(m) = n.checked_sub(alt.cost as usize) {
                total += self.body_card(alt, m as u32);
            }
        }
        total
    }

    fn seq_at(&self, s: SeqId, n: usize) -> BigUint {
        let def = self.seqs[s];
        let mut total = BigUint::zero();
        for k in 0..=n {
            let a = self.card(def.prefix, k as u32);
            if a.is_zero() {
                continue;
            }
            let b = self.card(Node::Nt(def.last), (n - k) as u32);
            if !b.is_zero() {
                total += a * b;
            }
        }
        total
    }

    /// |part `size`| of a node; the size must be known (see [`Cards::ensure`]).
    pub fn card(&self, node: Node, size: u32) -> &BigUint {
        let table = match node {
            Node::Nt(nt) => &self.nt[nt],
            Node::Seq(s) => &self.seq[s],
        };
        table.get(size as usize).unwrap_or(&self.zero)
    }

    /// |part `size`| of an alternative's children together (before its cost).
    pub fn body_card(&self, alt: &AltShape, size: u32) -> &BigUint {
        match alt.body() {
            Some(node) => self.card(node, size),
            None if size == 0 => &self.one,
            None => &self.zero,
        }
    }

    /// |part `size`| of an alternative, cost included.
    pub fn alt_card(&self, alt: &AltShape, size: u32) -> &BigUint {
        match size.checked_sub(alt.cost) {
            Some(m) => self.body_card(alt, m),
            None => &self.zero,
        }
    }

    /// Whether the part is non-empty (sizes must be known).
    pub fn has(&self, node: Node, size: u32) -> bool {
        !self.card(node, size).is_zero()
    }
}

/// Depth-first post-order over same-size dependencies: a nonterminal depends on the
/// bodies of its cost-0 alternatives, a sequence on its prefix and its last child.
fn same_size_order(alts: &[Vec<AltShape>], seqs: &[SeqDef]) -> Vec<Node> {
    let deps = |node: Node| -> Vec<Node> {
        match node {
            Node::Nt(nt) => alts[nt]
                .iter()
                .filter(|a| a.cost == 0)
                .filter_map(AltShape::body)
                .collect(),
            Node::Seq(s) => vec![seqs[s].prefix, Node::Nt(seqs[s].last)],
        }
    };
    let all: Vec<Node> = (0..alts.len())
        .map(Node::Nt)
        .chain((0..seqs.len()).map(Node::Seq))
        .collect();
    let mut seen: HashSet<Node> = HashSet::new();
    let mut order = Vec::with_capacity(all.len());
    for root in all {
        if !seen.insert(root) {
            continue;
        }
        let mut stack = vec![(root, deps(root), 0usize)];
        while let Some((node, next, i)) = stack.last_mut() {
            if let Some(&d) = next.get(*i) {
                *i += 1;
                if seen.insert(d) {
                    stack.push((d, deps(d), 0));
                }
            } else {
                order.push(*node);
                stack.pop();
            }
        }
    }
    order
}
