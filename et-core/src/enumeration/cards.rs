//! Part cardinalities, memoised per (nonterminal, size) and per product prefix.
//!
//! An alternative with children c1..cm is the left-nested product
//! ((c1 × c2) × c3) × ... × cm. Each prefix (c1..cj), j ≥ 2, is a *sequence* whose
//! cardinalities are memoised once and shared by every alternative that starts with the
//! same children: `and b b`, `or b b` and `xor b b` share one table.
//!
//! Cardinalities pass 10^1000 around size 450, and a product's part n is a sum of n
//! products of such numbers, so exact big-integer tables cost Θ(n⁴) word operations up
//! to size n (125 s at index 10^4000). Instead the tables are kept three ways:
//!
//! - **residues** modulo as many primes below 2^28 as the largest entry needs
//!   ([`magnitude`] says how many bits, [`crt`] how many primes that is): the
//!   convolutions run on machine words, 16 primes per block on vector registers
//!   ([`kernel`]), sizes by windows of four so that each factor read serves four
//!   parts ([`residues`]), blocks in parallel — Θ(n²) word operations per prime;
//! - **magnitudes** (a float with a 64-bit exponent) for every entry: they say how many
//!   bits an exact value needs, whether a part is empty (exactly: sums of products
//!   of non-negative numbers are zero only if every term is) and so which terms of a
//!   product can be non-zero, and let an index beyond the largest size be refused
//!   without any exact arithmetic;
//! - **exact values**, rebuilt from the residues by the Chinese remainder theorem
//!   (Garner's mixed radix, [`crt`]) the first time they are asked for, and cached.
//!   Decoding a formula asks for a few entries per node; streaming only asks whether
//!   parts are empty.

mod crt;
mod kernel;
mod magnitude;
mod residues;

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::grammar::{Grammar, NtId};

pub use magnitude::Magnitude;
use residues::Residues;

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

/// The structure the three tables share: which nodes exist and how each part is made.
#[derive(Debug, Clone)]
pub(crate) struct Shape {
    /// Per nonterminal, its alternatives.
    pub alts: Vec<Vec<AltShape>>,
    /// The product prefixes.
    pub seqs: Vec<SeqDef>,
    /// Nodes in an order where every same-size dependency comes first.
    pub order: Vec<Node>,
    /// The nonterminal whose cumulative counts are kept (the grammar's start).
    pub root: NtId,
}

impl Shape {
    /// Flat index of a node in per-node tables: nonterminals first, then sequences.
    pub fn slot(&self, node: Node) -> usize {
        match node {
            Node::Nt(nt) => nt,
            Node::Seq(s) => self.alts.len() + s,
        }
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.alts.len() + self.seqs.len()
    }
}

/// Cardinality tables of one grammar, grown on demand.
#[derive(Debug, Clone)]
pub struct Cards {
    /// Per nonterminal, its alternatives.
    pub alts: Vec<Vec<AltShape>>,
    /// The product prefixes.
    pub seqs: Vec<SeqDef>,
    shape: Shape,
    magnitudes: magnitude::Table,
    residues: Residues,
    /// Exact values per node and size, rebuilt from residues on first use.
    exact: Vec<Vec<OnceCell<BigUint>>>,
    /// Exact cumulative counts of the root: `cumulative[n]` = values of size < n.
    cumulative: Vec<OnceCell<BigUint>>,
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
        let shape = Shape {
            alts: alts.clone(),
            seqs: seqs.clone(),
            order,
            root: grammar.start,
        };
        Cards {
            magnitudes: magnitude::Table::new(&shape),
            residues: Residues::default(),
            exact: vec![Vec::new(); shape.nodes()],
            cumulative: Vec::new(),
            alts,
            seqs,
            shape,
            zero: BigUint::zero(),
            one: BigUint::one(),
        }
    }

    /// Sizes 0..computed() are known exactly.
    pub fn computed(&self) -> usize {
        self.residues.computed()
    }

    /// Makes sizes 0..=size known exactly.
    pub fn ensure(&mut self, size: u32) {
        let size = size as usize;
        if size < self.computed() {
            return;
        }
        self.magnitudes.ensure(&self.shape, size);
        let bits = magnitude::bits_needed(self.magnitudes.max_log2(size));
        self.residues
            .ensure(&self.shape, &self.magnitudes, size, bits);
        for table in &mut self.exact {
            table.resize_with(size + 1, OnceCell::new);
        }
        self.cumulative.resize_with(size + 2, OnceCell::new);
    }

    /// Makes the magnitudes of sizes 0..=size known (cheap: no exact arithmetic).
    pub fn ensure_magnitudes(&mut self, size: u32) {
        self.magnitudes.ensure(&self.shape, size as usize);
    }

    /// The magnitude of |part `size`| of a node (sizes must be known, see
    /// [`Cards::ensure_magnitudes`]).
    pub fn magnitude(&self, node: Node, size: u32) -> Magnitude {
        self.magnitudes.get(self.shape.slot(node), size as usize)
    }

    /// The magnitude of the number of root values of size < `size` (known up to
    /// `size − 1`).
    pub fn cumulative_magnitude(&self, size: u32) -> Magnitude {
        self.magnitudes.cumulative(size as usize)
    }

    /// |part `size`| of a node; the size must be known (see [`Cards::ensure`]).
    pub fn card(&self, node: Node, size: u32) -> &BigUint {
        let slot = self.shape.slot(node);
        let Some(cell) = self.exact[slot].get(size as usize) else {
            return &self.zero;
        };
        cell.get_or_init(|| {
            let magnitude = self.magnitudes.get(slot, size as usize);
            if magnitude.is_zero() {
                return BigUint::zero();
            }
            self.residues.reconstruct(
                slot,
                size as usize,
                magnitude::bits_needed(magnitude.log2()),
            )
        })
    }

    /// The number of root values of size < `size`, for `size` up to `computed()`.
    pub fn cumulative(&self, size: u32) -> &BigUint {
        let cell = &self.cumulative[size as usize];
        cell.get_or_init(|| {
            let magnitude = self.magnitudes.cumulative(size as usize);
            if magnitude.is_zero() {
                return BigUint::zero();
            }
            self.residues
                .reconstruct_cumulative(size as usize, magnitude::bits_needed(magnitude.log2()))
        })
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

    /// Whether the part is non-empty (magnitudes must be known).
    pub fn has(&self, node: Node, size: u32) -> bool {
        !self.magnitude(node, size).is_zero()
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
