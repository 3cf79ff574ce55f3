//! FEAT enumeration of a grammar: part cardinalities, random access by big-integer
//! index, in-order streaming, uniform sampling of a part, rank, and the terms of any
//! rule (for grammar-aware reduction, `et shrink`). It reads a
//! validated [`Grammar`] and knows nothing of solvers or files.
//!
//! The order is FEAT's (the Haskell `testing-feat` library's, which the published ET
//! generator uses): parts by size; within a part, a rule's alternatives in order; an
//! alternative's children as the left-nested product `((c1 × c2) × c3) × …`, whose part
//! n is the concatenation over k = 0..=n of (prefix part k) × (last child part n − k),
//! each block prefix-major.

mod cards;
pub mod declarations;
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

pub use cards::{AltShape, Cards, Magnitude, Node};
pub use parse::{atoms, FormulaParser, ParseError, MAX_DEPTH};
pub use print::Printer;
pub use term::Term;

/// The largest size et enumerates, the one bound on every count, index and size: a
/// part of this size holds 10^6000 to 10^12000 formulas for the built-in grammars
/// (arrays to fp), so indices up to 10^5000 are in reach for all of them. It bounds the
/// memory of the tables and the depth of terms (the printer and the streaming step
/// recurse once per level).
pub const MAX_SIZE: u32 = 4096;

/// An index that does not name a formula.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// Past the end of a finite language.
    #[error("index {} is past the end of grammar `{grammar}`, which has {total} formulas (indices 0..{total})", abbreviated(.index))]
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
        "index {} of grammar `{grammar}` lies beyond size {max}, the largest size et enumerates (`et count --grammar {grammar} --max-size {max}` shows the last index in reach)", abbreviated(.index)
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

/// A number as a message shows it: in full up to 60 digits, else its ends and length.
pub fn abbreviated(n: &BigUint) -> String {
    let digits = n.to_string();
    if digits.len() <= 60 {
        return digits;
    }
    format!(
        "{}…{} ({} digits)",
        &digits[..20],
        &digits[digits.len() - 10..],
        digits.len()
    )
}

/// The enumeration of a grammar's start rule.
pub struct Enumeration {
    grammar: Grammar,
    cards: Cards,
    printer: Printer,
    /// The largest size with formulas, for finite languages.
    max_size: Option<u32>,
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

    /// Makes part sizes 0..=size known (at most [`MAX_SIZE`]).
    pub fn ensure(&mut self, size: u32) {
        self.cards.ensure(size.min(MAX_SIZE));
    }

    /// |part `size`|: the number of formulas of that size.
    pub fn part_cardinality(&mut self, size: u32) -> BigUint {
        self.rule_part_cardinality(self.start(), size)
    }

    /// Number of formulas of size < `size`: the global index of the first of size `size`.
    pub fn count_below(&mut self, size: u32) -> BigUint {
        let size = size.min(MAX_SIZE + 1);
        self.ensure(size.saturating_sub(1));
        self.cards.cumulative(size).clone()
    }

    /// The number of formulas, if finite.
    pub fn total(&mut self) -> Option<BigUint> {
        let max = self.max_size?;
        Some(self.count_below(max + 1))
    }

    /// The smallest size with a formula.
    pub fn smallest_size(&mut self) -> u32 {
        let mut n = 0;
        loop {
            self.cards.ensure_magnitudes(n);
            if self.cards.has(Node::Nt(self.start()), n) || n >= MAX_SIZE {
                return n;
            }
            n += 1;
        }
    }

    /// The size and the offset within its part of a global index.
    ///
    /// The size is found on the magnitudes first (cheap: no exact arithmetic), so an
    /// index beyond [`MAX_SIZE`] is refused before any exact table is built; the exact
    /// cumulative counts then settle it.
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
        let wanted = Magnitude::of(index);
        // The first size whose cumulative count (values of size ≤ n) may exceed index.
        let mut n = 0;
        loop {
            self.cards.ensure_magnitudes(n);
            if !self
                .cards
                .cumulative_magnitude(n + 1)
                .certainly_below(wanted)
                && !(self.cards.cumulative_magnitude(n + 1).is_zero())
            {
                break;
            }
            if n >= MAX_SIZE {
                return Err(self.too_large(index));
            }
            n += 1;
        }
        // Exact: step forward past parts that end at or before the index.
        loop {
            if n > MAX_SIZE {
                return Err(self.too_large(index));
            }
            self.ensure(n);
            if self.cards.cumulative(n + 1) > index {
                break;
            }
            n += 1;
        }
        Ok((n, index - self.cards.cumulative(n)))
    }

    fn too_large(&self, index: &BigUint) -> IndexError {
        IndexError::TooLarge {
            grammar: self.grammar.name.clone(),
            index: index.clone(),
            max: MAX_SIZE,
        }
    }

    /// The formula at a global index.
    pub fn term(&mut self, index: &BigUint) -> Result<Term, IndexError> {
        let (size, offset) = self.locate(index)?;
        Ok(decode::decode(&self.cards, self.start(), size, offset))
    }

    /// The text of the grammar's first formula (`None` for a grammar without any): whose
    /// declarations a [`FormulaParser::declaring`] puts back.
    pub fn first_text(&mut self) -> Option<String> {
        let term = self.term(&BigUint::default()).ok()?;
        Some(self.text(&term))
    }

    /// The formula at `offset` within part `size` (offset below the part's cardinality).
    pub fn term_in_part(&mut self, size: u32, offset: BigUint) -> Term {
        self.rule_term(self.start(), size, offset)
    }

    /// |part `size`| of any rule `nt`, not only the start rule: how many terms of that
    /// size the rule derives (for grammar-aware reduction, `et shrink`).
    pub fn rule_part_cardinality(&mut self, nt: NtId, size: u32) -> BigUint {
        self.ensure(size);
        self.cards.card(Node::Nt(nt), size).clone()
    }

    /// The term at `offset` within part `size` of rule `nt` (offset below
    /// [`Enumeration::rule_part_cardinality`]), in the rule's FEAT order.
    pub fn rule_term(&mut self, nt: NtId, size: u32, offset: BigUint) -> Term {
        self.ensure(size);
        decode::decode(&self.cards, nt, size, offset)
    }

    /// The global index of a term of the start rule, whose size must be at most
    /// [`MAX_SIZE`] (callers with untrusted input check `term.size` first).
    pub fn rank(&mut self, term: &Term) -> BigUint {
        assert!(
            term.size <= MAX_SIZE,
            "rank of a term of size {} > MAX_SIZE",
            term.size
        );
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
        let grammar = self.grammar();
        self.for_each_token_id(term, &mut |t| f(grammar.token(t)));
    }

    /// Calls `f` on the id of each grammar token of a term in order
    /// ([`Grammar::token`] gives its text): what a campaign hands its workers, which
    /// share the grammar's token table, so a job owns no strings.
    pub fn for_each_token_id(&self, term: &Term, f: &mut impl FnMut(crate::grammar::TokenId)) {
        // Recursion depth is the term's depth, bounded by its size (see MAX_SIZE).
        let grammar = self.grammar();
        let mut child = 0;
        for item in &grammar.nonterminals[term.nt].alternatives[term.alt as usize].items {
            match *item {
                crate::grammar::Item::Child(_) => {
                    self.for_each_token_id(&term.children[child], f);
                    child += 1;
                }
                crate::grammar::Item::Token(t) => f(t),
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

    /// Calls `f` on the id of each grammar token of the current formula (see
    /// [`Enumeration::for_each_token_id`]); nothing past the end.
    pub fn current_token_ids(&self, f: &mut impl FnMut(crate::grammar::TokenId)) {
        if let Some(term) = &self.next {
            self.enumeration.for_each_token_id(term, f);
        }
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
    // Each entry: a rule, its children through usable alternatives (listed once, when
    // the rule is entered, so a rule with many alternatives costs linear time), and
    // how many of them have been visited.
    let children_of = |nt: NtId| -> Vec<NtId> {
        usable(nt)
            .iter()
            .flat_map(|a| a.children.iter().copied())
            .collect()
    };
    let mut stack: Vec<(NtId, Vec<NtId>, usize)> =
        vec![(grammar.start, children_of(grammar.start), 0)];
    colour[grammar.start] = 1;
    while let Some((nt, children, i)) = stack.last_mut() {
        let nt = *nt;
        if let Some(&c) = children.get(*i) {
            *i += 1;
            match colour[c] {
                0 => {
                    colour[c] = 1;
                    stack.push((c, children_of(c), 0));
                }
                1 => return None,
                _ => {}
            }
            continue;
        }
        let alts = usable(nt);
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
