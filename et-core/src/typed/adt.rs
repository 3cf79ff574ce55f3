//! Hand-written ADTs under `#[derive(Enumerable)]`: each type describes its
//! constructors; the grammar of a type is assembled at first use by walking the types
//! its fields mention, then validated by the grammar library (an ADT can have a
//! zero-cost cycle or no finite value just as a `.pest` grammar can).

use std::collections::HashMap;

use crate::enumeration::Term;
use crate::grammar::{Alternative, Grammar, GrammarError, Item, Nonterminal, NtId, Position};

use super::Enumerable;

/// An ADT as `#[derive(Enumerable)]` describes it.
pub trait Constructors: Enumerable {
    /// The type's rule: a `static`, so its address identifies the type.
    fn rule() -> &'static AdtRule;

    /// The derivation of this value; `nt` fields are filled in by [`renumber`].
    fn shape(&self) -> Term;
}

/// A field's type, by its rule (`<T as Constructors>::rule`).
pub type Describe = fn() -> &'static AdtRule;

/// An ADT: its name and constructors in declaration order.
#[derive(Debug)]
pub struct AdtRule {
    /// The type's name, for messages and the grammar's rule names.
    pub name: &'static str,
    /// Enum variants in order, or the one constructor of a struct.
    pub constructors: &'static [Constructor],
}

/// One constructor (enum variant or struct) of an ADT.
#[derive(Debug)]
pub struct Constructor {
    /// Its printed operator (`print = "..."`, else the variant's name); empty prints nothing.
    pub print: &'static str,
    /// FEAT cost (1 unless `cost = n`).
    pub cost: u32,
    /// The field types, in order.
    pub fields: &'static [Describe],
}

/// The tokens a constructor prints: its operator alone, or `( op fields... )`.
pub fn constructor_items(
    c: &Constructor,
    mut token: impl FnMut(&'static str) -> usize,
    mut field: impl FnMut(usize) -> NtId,
) -> Vec<Item> {
    let mut items = Vec::new();
    let wrap = !c.fields.is_empty();
    if wrap {
        items.push(Item::Token(token("(")));
    }
    if !c.print.is_empty() {
        items.push(Item::Token(token(c.print)));
    }
    items.extend((0..c.fields.len()).map(|j| Item::Child(field(j))));
    if wrap {
        items.push(Item::Token(token(")")));
    }
    items
}

/// Why an ADT cannot be enumerated, or a term is not a value of a grammar.
#[derive(Debug, thiserror::Error)]
pub enum AdtError {
    /// The grammar the types spell is refused by the grammar library (a zero-cost
    /// cycle, a type with no finite value); the library's sentence says which.
    #[error("type `{type_name}` cannot be enumerated:\n{problem}")]
    NotEnumerable {
        /// The root type.
        type_name: &'static str,
        /// What the grammar library found.
        problem: GrammarError,
    },
    /// A node chose an alternative its rule does not have, or has another number of
    /// children than the alternative.
    #[error(
        "not a derivation of grammar `{grammar}`: rule `{rule}` has no alternative {alt} \
         with {children} children"
    )]
    NotADerivation {
        /// The grammar's name.
        grammar: String,
        /// The rule the node stands for.
        rule: String,
        /// The alternative it chose.
        alt: u32,
        /// How many children it has.
        children: usize,
    },
}

/// The grammar of an ADT and the types it mentions; the root type is rule 0.
pub fn assemble(root: &'static AdtRule) -> Result<Grammar, AdtError> {
    let mut ids: HashMap<*const AdtRule, NtId> = HashMap::new();
    let mut order: Vec<&'static AdtRule> = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut token_ids: HashMap<&'static str, usize> = HashMap::new();
    let mut nonterminals: Vec<Nonterminal> = Vec::new();
    let mut visit = |rule: &'static AdtRule, order: &mut Vec<_>| {
        *ids.entry(rule as *const _).or_insert_with(|| {
            order.push(rule);
            order.len() - 1
        })
    };
    visit(root, &mut order);
    let mut next = 0;
    while next < order.len() {
        let rule = order[next];
        let mut alternatives = Vec::new();
        for c in rule.constructors {
            let children: Vec<NtId> = c
                .fields
                .iter()
                .map(|describe| visit(describe(), &mut order))
                .collect();
            let items = constructor_items(
                c,
                |t| {
                    *token_ids.entry(t).or_insert_with(|| {
                        tokens.push(t.to_string());
                        tokens.len() - 1
                    })
                },
                |j| children[j],
            );
            alternatives.push(Alternative {
                cost: c.cost,
                items,
            });
        }
        nonterminals.push(Nonterminal {
            name: rule.name.to_string(),
            position: Position::START,
            generated_in: None,
            alternatives,
        });
        next += 1;
    }
    Grammar::from_nonterminals(
        root.name,
        &format!("<derive(Enumerable) {}>", root.name),
        tokens,
        nonterminals,
        root.name,
    )
    .map_err(|problem| AdtError::NotEnumerable {
        type_name: root.name,
        problem,
    })
}

/// The grammar of `T`, or what is wrong with the type (this cannot be checked at
/// compile time: the macro sees one type at a time).
pub fn grammar_of<T: Constructors>() -> Result<Grammar, AdtError> {
    assemble(T::rule())
}

/// A derivation node whose size is its cost plus its children's sizes.
pub fn node(nt: NtId, alt: u32, cost: u32, children: Vec<Term>) -> Term {
    let size = cost + children.iter().map(|c| c.size).sum::<u32>();
    Term::new(nt, alt, size, children)
}

/// Fills in the `nt` of every node from the root's rule and the alternatives chosen:
/// an ADT's rule numbers depend on which type is the root. Iterative, so deep values
/// cannot overflow the stack. An error when `term` is not a derivation of `grammar`
/// (the nodes filled in so far keep their new numbers).
pub fn renumber(term: &mut Term, grammar: &Grammar) -> Result<(), AdtError> {
    let mut work: Vec<(&mut Term, NtId)> = vec![(term, grammar.start)];
    while let Some((t, nt)) = work.pop() {
        t.nt = nt;
        let rule = &grammar.nonterminals[nt];
        let alt = rule
            .alternatives
            .get(t.alt as usize)
            .filter(|alt| alt.children().count() == t.children.len())
            .ok_or_else(|| AdtError::NotADerivation {
                grammar: grammar.name.clone(),
                rule: rule.name.clone(),
                alt: t.alt,
                children: t.children.len(),
            })?;
        work.extend(t.children.iter_mut().zip(alt.children()));
    }
    Ok(())
}
