//! FEAT enumeration of a grammar (DESIGN §2): part cardinalities, random access by
//! big-integer index, in-order streaming, uniform sampling of a part, and rank. It
//! reads a validated [`Grammar`] and knows nothing of solvers or files.

mod cards;
mod decode;
mod parse;
mod print;
mod rank;
mod stream;
mod term;

use num_bigint::{BigUint, RandBigInt};
use num_traits::Zero;
use rand::Rng;

use crate::grammar::{Grammar, NtId};

pub use cards::{AltShape, Cards, Node};
pub use parse::{atoms, FormulaParser, ParseError};
pub use print::Printer;
pub use term::Term;

/// The largest size et enumerates. Parts grow exponentially for any useful grammar,
/// so this is far past index 10^1000; it bounds memory and the depth of terms (the
/// printer and the streaming step recurse once per level).
pub const MAX_SIZE: u32 = 4096;

/// An index that does not name a formula.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// Past the end of a finite language.
    #[error("index {index} is past the end of grammar `{grammar}`, which has {total} formulas (indices 0..{total})")]
    PastEnd {
        /// The grammar's name.
        grammar: String,
        /// The index asked for.
        index: BigUint,
        /// The number of formulas.
        total: BigUint,
    },
    /// Reaching the index would need formulas larger than [`MAX_SIZE`].
    #[error(
        "index {index} of grammar `{grammar}` lies beyond size {max}, where et stops enumerating"
    )]
    TooLarge {
        /// The grammar's name.
        grammar: String,
        /// The index asked for.
        index: BigUint,
        /// [`MAX_SIZE`].
        max: u32,
    },
}

/// The enumeration of a grammar's start rule.
pub struct Enumeration {
    grammar: Grammar,
    cards: Cards,
    printer: Printer,
    /// The largest size with formulas, for finite languages.
    max_size: Option<u32>,
    /// `cumulative[n]` = number of formulas of size < n.
    cumulative: Vec<BigUint>,
}

impl Enumeration {
    /// Prepares the enumeration of a validated grammar.
    pub fn new(grammar: Grammar) -> Enumeration {
        let cards = Cards::new(&grammar);
        let printer = Printer::new(&grammar);
        let max_size = finite_max_size(&grammar, &cards);
        Enumeration {
            grammar,
            cards,
            printer,
            max_size,
            cumulative: vec![BigUint::zero()],
        }
    }

    /// The grammar being enumerated.
    pub fn grammar(&self) -> &Grammar {
        &self.grammar
    }

    /// The cardinality tables (grown on demand by the other methods).
    pub fn cards(&self) -> &Cards {
        &self.cards
    }

    /// The printer of this grammar.
    pub fn printer(&self) -> &Printer {
        &self.printer
    }

    /// The largest size with formulas, or `None` if the language is infinite.
    pub fn max_size(&self) -> Option<u32> {
        self.max_size
    }

    fn start(&self) -> NtId {
        self.grammar.start
    }

    /// Makes part sizes 0..=size known.
    pub fn ensure(&mut self, size: u32) {
        self.cards.ensure(size.min(MAX_SIZE));
        while self.cumulative.len() <= size as usize + 1
            && self.cumulative.len() <= MAX_SIZE as usize + 1
        {
            let n = self.cumulative.len() - 1;
            let next = &self.cumulative[n] + self.cards.card(Node::Nt(self.start()), n as u32);
            self.cumulative.push(next);
        }
    }

    /// |part `size`|: the number of formulas of that size.
    pub fn part_cardinality(&mut self, size: u32) -> BigUint {
        self.ensure(size);
        self.cards.card(Node::Nt(self.start()), size).clone()
    }

    /// Number of formulas of size < `size`: the global index of the first of size `size`.
    pub fn count_below(&mut self, size: u32) -> BigUint {
        self.ensure(size);
        self.cumulative[size as usize].clone()
    }

    /// The number of formulas, if finite.
    pub fn total(&mut self) -> Option<BigUint> {
        let max = self.max_size?;
        Some(self.count_below(max + 1))
    }

    /// The smallest size with a formula.
    pub fn smallest_size(&mut self) -> u32 {
        let mut n = 0;
        while self.part_cardinality(n).is_zero() && n < MAX_SIZE {
            n += 1;
        }
        n
    }

    /// The size and the offset within its part of a global index.
    pub fn locate(&mut self, index: &BigUint) -> Result<(u32, BigUint), IndexError> {
        if let Some(total) = self.total() {
            if *index >= total {
                return Err(IndexError::PastEnd {
                    grammar: self.grammar.name.clone(),
                    index: index.clone(),
                    total,
                });
            }
        }
        // Grow one size at a time, then binary-search the cumulative counts.
        let mut n = self.cumulative.len() as u32 - 1;
        while self.cumulative[n as usize] <= *index {
            if n > MAX_SIZE {
                return Err(IndexError::TooLarge {
                    grammar: self.grammar.name.clone(),
                    index: index.clone(),
                    max: MAX_SIZE,
                });
            }
            self.ensure(n);
            n += 1;
        }
        let size = self.cumulative.partition_point(|c| c <= index) as u32 - 1;
        Ok((size, index - &self.cumulative[size as usize]))
    }

    /// The formula at a global index.
    pub fn term(&mut self, index: &BigUint) -> Result<Term, IndexError> {
        let (size, offset) = self.locate(index)?;
        Ok(decode::decode(&self.cards, self.start(), size, offset))
    }

    /// The formula at `offset` within part `size` (offset below the part's cardinality).
    pub fn term_in_part(&mut self, size: u32, offset: BigUint) -> Term {
        self.ensure(size);
        decode::decode(&self.cards, self.start(), size, offset)
    }

    /// The global index of a term of the start rule.
    pub fn rank(&mut self, term: &Term) -> BigUint {
        self.ensure(term.size);
        self.count_below(term.size) + rank::rank(&self.cards, term)
    }

    /// A formula of part `size` drawn uniformly, or `None` if the part is empty.
    pub fn sample<R: Rng + ?Sized>(&mut self, size: u32, rng: &mut R) -> Option<Term> {
        let card = self.part_cardinality(size);
        if card.is_zero() {
            return None;
        }
        let offset = rng.gen_biguint_below(&card);
        Some(self.term_in_part(size, offset))
    }

    /// The text of a term.
    pub fn text(&self, term: &Term) -> String {
        self.printer.to_string(term)
    }

    /// Calls `f` on each grammar token of a term in order (a token may hold several
    /// lexical tokens, like `(_ BitVec 64)`): what et-eval's `Script::from_tokens`
    /// reads, so a checked formula is never printed and re-lexed.
    pub fn for_each_token<'g>(&'g self, term: &Term, f: &mut impl FnMut(&'g str)) {
        // Recursion depth is the term's depth, bounded by its size (see MAX_SIZE).
        let grammar = self.grammar();
        let mut child = 0;
        for item in &grammar.nonterminals[term.nt].alternatives[term.alt as usize].items {
            match *item {
                crate::grammar::Item::Child(_) => {
                    self.for_each_token(&term.children[child], f);
                    child += 1;
                }
                crate::grammar::Item::Token(t) => f(grammar.token(t)),
            }
        }
    }

    /// The formulas from global index `start` on, in order.
    pub fn stream_from(&mut self, start: &BigUint) -> Result<Stream<'_>, IndexError> {
        let mut term = self.term(start)?;
        let mut text = Vec::new();
        self.printer.print_marked(&mut term, &mut text);
        Ok(Stream {
            enumeration: self,
            next: Some(term),
            text,
            path: Vec::new(),
        })
    }
}

/// An in-order walk over the formulas of an enumeration; each step costs about the
/// same whatever the index (no big-integer decoding), and only the changed end of the
/// formula's text is re-printed.
pub struct Stream<'e> {
    enumeration: &'e mut Enumeration,
    next: Option<Term>,
    /// The text of `next`, with every node's start marked in it.
    text: Vec<u8>,
    path: Vec<usize>,
}

impl Stream<'_> {
    /// The current formula, or `None` past the end of a finite language.
    pub fn current(&self) -> Option<&Term> {
        self.next.as_ref()
    }

    /// Moves to the next formula; returns false past the end of a finite language.
    pub fn advance(&mut self) -> bool {
        let Some(term) = self.next.as_mut() else {
            return false;
        };
        let e = &mut *self.enumeration;
        self.path.clear();
        if stream::step(&e.cards, term, &mut self.path) {
            e.printer.reprint(term, &self.path, &mut self.text);
            return true;
        }
        let mut size = term.size + 1;
        loop {
            if e.max_size.is_some_and(|max| size > max) || size > MAX_SIZE {
                self.next = None;
                self.text.clear();
                return false;
            }
            e.ensure(size);
            if e.cards.has(Node::Nt(e.grammar.start), size) {
                break;
            }
            size += 1;
        }
        let start = e.grammar.start;
        stream::fill_first(&e.cards, term, start, size);
        e.printer.print_marked(term, &mut self.text);
        true
    }

    /// Appends the current formula's text to `out`; false past the end.
    pub fn print_current(&self, out: &mut Vec<u8>) -> bool {
        if self.next.is_none() {
            return false;
        }
        out.extend_from_slice(&self.text);
        true
    }

    /// The current formula's text (empty past the end).
    pub fn current_text(&self) -> &[u8] {
        &self.text
    }

    /// The enumeration being walked.
    pub fn enumeration(&self) -> &Enumeration {
        self.enumeration
    }
}

/// The largest size of a finite language, `None` if it is infinite. The language is
/// infinite iff some rule reachable from start through productive alternatives lies on
/// a cycle; otherwise sizes are bounded and computed bottom-up.
fn finite_max_size(grammar: &Grammar, cards: &Cards) -> Option<u32> {
    let productive = &crate::grammar::productive_rules(grammar);
    let usable = |nt: NtId| {
        cards.alts[nt]
            .iter()
            .filter(move |a| a.children.iter().all(|&c| productive[c]))
            .collect::<Vec<_>>()
    };
    // Iterative DFS with colours: 0 new, 1 on the path, 2 done (max size known).
    let n = grammar.nonterminals.len();
    let mut colour = vec![0u8; n];
    let mut max: Vec<u32> = vec![0; n];
    let mut stack: Vec<(NtId, usize)> = vec![(grammar.start, 0)];
    colour[grammar.start] = 1;
    while let Some(&mut (nt, ref mut i)) = stack.last_mut() {
        let alts = usable(nt);
        let children: Vec<NtId> = alts
            .iter()
            .flat_map(|a| a.children.iter().copied())
            .collect();
        if let Some(&c) = children.get(*i) {
            *i += 1;
            match colour[c] {
                0 => {
                    colour[c] = 1;
                    stack.push((c, 0));
                }
                1 => return None,
                _ => {}
            }
            continue;
        }
        max[nt] = alts
            .iter()
            .map(|a| a.cost + a.children.iter().map(|&c| max[c]).sum::<u32>())
            .max()
            .unwrap_or(0);
        colour[nt] = 2;
        stack.pop();
    }
    Some(max[grammar.start])
}

#[cfg(test)]
mod tests;
