//! The grammar as et enumerates it: a regular tree grammar whose constructors are the
//! alternatives of the `.pest` rules, each with its FEAT cost.

use super::diagnostic::{Diagnostic, Position};

/// Index of a nonterminal in [`Grammar::nonterminals`].
pub type NtId = usize;
/// Index of a token text in [`Grammar::tokens`].
pub type TokenId = usize;

/// A validated grammar, ready to enumerate.
#[derive(Debug, Clone)]
pub struct Grammar {
    /// Short name (built-in name or file stem).
    pub name: String,
    /// Where it was read from (a path, or `<builtin:name>`).
    pub file: String,
    /// The `//!` documentation of the file.
    pub doc: String,
    /// Distinct token texts; items refer to them by index.
    pub tokens: Vec<String>,
    /// The rules, followed by the rules generated for groups and repetitions.
    pub nonterminals: Vec<Nonterminal>,
    /// The start symbol.
    pub start: NtId,
    /// Problems that do not stop enumeration (unreachable rules).
    pub warnings: Vec<Diagnostic>,
}

/// A rule: an ordered union of constructors.
#[derive(Debug, Clone)]
pub struct Nonterminal {
    /// The rule's name; generated rules are named `<rule>__<n>`.
    pub name: String,
    /// Where the rule (or the group it was generated from) is written.
    pub position: Position,
    /// For a generated rule, the user rule it was written in.
    pub generated_in: Option<NtId>,
    /// The alternatives in order.
    pub alternatives: Vec<Alternative>,
}

/// One constructor: a sequence of tokens and children, and its cost (0 or 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alternative {
    /// 1 if the constructor is wrapped in FEAT's `pay`, else 0.
    pub cost: u32,
    /// Tokens and child nonterminals in printed order.
    pub items: Vec<Item>,
}

/// A symbol of an alternative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// A terminal token, printed as is.
    Token(TokenId),
    /// A child nonterminal.
    Child(NtId),
}

impl Alternative {
    /// The child nonterminals in order (tokens do not take part in enumeration).
    pub fn children(&self) -> impl Iterator<Item = NtId> + '_ {
        self.items.iter().filter_map(|i| match i {
            Item::Child(c) => Some(*c),
            Item::Token(_) => None,
        })
    }

    /// Number of child nonterminals.
    pub fn arity(&self) -> usize {
        self.children().count()
    }
}

impl Grammar {
    /// The text of a token.
    pub fn token(&self, id: TokenId) -> &str {
        &self.tokens[id]
    }

    /// The operator of an alternative: the token right after a `(` token (`not`,
    /// `str.replace_all`), or its only token for constants. Used for readable names.
    pub fn operator(&self, alt: &Alternative) -> Option<&str> {
        let mut tokens = alt.items.iter().filter_map(|i| match i {
            Item::Token(t) => Some(self.token(*t)),
            Item::Child(_) => None,
        });
        let first = tokens.next()?;
        if first == "(" {
            tokens.next()
        } else {
            Some(first)
        }
    }

    /// Looks a nonterminal up by name.
    pub fn nonterminal(&self, name: &str) -> Option<NtId> {
        self.nonterminals.iter().position(|n| n.name == name)
    }

    /// The user rule a nonterminal belongs to (itself unless generated).
    pub fn owner(&self, nt: NtId) -> NtId {
        self.nonterminals[nt].generated_in.unwrap_or(nt)
    }
}
