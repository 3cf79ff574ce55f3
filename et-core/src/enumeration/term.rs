//! A value of an enumeration: a derivation tree of the grammar.

use std::hash::{Hash, Hasher};

use crate::grammar::NtId;

/// A derivation: which alternative of which rule, its FEAT size, and its children.
#[derive(Debug, Clone)]
pub struct Term {
    /// The rule this node derives.
    pub nt: NtId,
    /// The alternative chosen (index into the rule's alternatives).
    pub alt: u32,
    /// FEAT size of the whole subtree (its own cost plus its children's sizes).
    pub size: u32,
    /// One subtree per child nonterminal of the alternative, in order.
    pub children: Vec<Term>,
    /// Where this node's text began the last time a stream printed it; lets a stream
    /// re-print only the part of a formula that a step changed. Not part of the value.
    pub(crate) mark: Mark,
}

/// A node's place in printed text: the length of the text before it (before any
/// separating space) and whether a space was due.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Mark {
    pub start: u32,
    pub space: bool,
}

impl Term {
    /// A node with the given children.
    pub fn new(nt: NtId, alt: u32, size: u32, children: Vec<Term>) -> Term {
        Term {
            nt,
            alt,
            size,
            children,
            mark: Mark::default(),
        }
    }

    /// Number of nodes in the tree.
    pub fn node_count(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            count += 1;
            stack.extend(t.children.iter());
        }
        count
    }
}

impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        self.nt == other.nt
            && self.alt == other.alt
            && self.size == other.size
            && self.children == other.children
    }
}

impl Eq for Term {}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.nt.hash(state);
        self.alt.hash(state);
        self.size.hash(state);
        self.children.hash(state);
    }
}
