//! Typed enumerations: Rust types whose values are enumerated by the FEAT engine.
//!
//! `#[derive(Grammar)]` compiles a `.pest` grammar into one enum per rule plus a
//! [`CompiledGrammar`] (static data: tokens, rules, alternatives with costs); the
//! [`Grammar`] the engine runs on is built from that data without parsing any text, so
//! compiled and interpreted enumeration of the same file agree index for index by
//! construction. `#[derive(Enumerable)]` describes a hand-written ADT as
//! [`Constructors`], assembled into a grammar at first use. Either way a
//! [`TypedEnumeration`] delegates every operation to the one engine,
//! [`Enumeration`]; this module only converts between [`Term`]s and values.

mod adt;
mod tokens;

use std::fmt;
use std::marker::PhantomData;

use num_bigint::BigUint;
use rand::Rng;

use crate::enumeration::{Enumeration, IndexError, Stream, Term};
use crate::grammar::Grammar;

pub use crate::grammar::{CompiledAlternative, CompiledGrammar, CompiledRule, CompiledWarning};
pub use adt::{
    assemble, grammar_of, node, renumber, AdtError, AdtRule, Constructor, Constructors, Describe,
};
pub use et_derive::{Enumerable, Grammar};
pub use tokens::TokenWriter;

/// A type whose values are the derivations of a grammar's start rule.
pub trait Enumerable: Sized {
    /// The grammar whose start rule derives this type's values (built once per type).
    fn grammar() -> &'static Grammar;

    /// The value a derivation of [`Enumerable::grammar`] stands for.
    fn from_term(term: &Term) -> Self;

    /// The derivation of this value, numbered as in [`Enumerable::grammar`].
    fn to_term(&self) -> Term;

    /// Writes the value's tokens; [`TokenWriter`] spaces them as the engine's printer does.
    fn write_tokens(&self, out: &mut TokenWriter<'_>) -> fmt::Result;
}

/// A unit struct carrying `#[derive(Grammar)]`: names a compiled grammar and its start type.
pub trait DerivedGrammar {
    /// The enum of the start rule.
    type Start: Enumerable;

    /// The grammar as compiled from its `.pest` file.
    const COMPILED: &'static CompiledGrammar;
}

/// The FEAT enumeration of a type: every operation is the engine's, on `T::grammar()`.
pub struct TypedEnumeration<T> {
    engine: Enumeration,
    values: PhantomData<fn() -> T>,
}

impl<T: Enumerable> Default for TypedEnumeration<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Enumerable> TypedEnumeration<T> {
    /// Prepares the enumeration of `T`.
    pub fn new() -> Self {
        TypedEnumeration {
            engine: Enumeration::new(T::grammar().clone()),
            values: PhantomData,
        }
    }

    /// The engine underneath, for anything not wrapped here (texts, cumulative counts).
    pub fn engine(&mut self) -> &mut Enumeration {
        &mut self.engine
    }

    /// |part `size`|: the number of values of that size.
    pub fn part_cardinality(&mut self, size: u32) -> BigUint {
        self.engine.part_cardinality(size)
    }

    /// Number of values of size < `size`.
    pub fn count_below(&mut self, size: u32) -> BigUint {
        self.engine.count_below(size)
    }

    /// The number of values, if finite.
    pub fn total(&mut self) -> Option<BigUint> {
        self.engine.total()
    }

    /// The value at a global index.
    pub fn get(&mut self, index: &BigUint) -> Result<T, IndexError> {
        Ok(T::from_term(&self.engine.term(index)?))
    }

    /// The value at `offset` within part `size` (offset below the part's cardinality).
    pub fn get_in_part(&mut self, size: u32, offset: BigUint) -> T {
        T::from_term(&self.engine.term_in_part(size, offset))
    }

    /// The global index of a value.
    pub fn rank(&mut self, value: &T) -> BigUint {
        self.engine.rank(&value.to_term())
    }

    /// A value of part `size` drawn uniformly, or `None` if the part is empty.
    pub fn sample<R: Rng + ?Sized>(&mut self, size: u32, rng: &mut R) -> Option<T> {
        self.engine.sample(size, rng).map(|t| T::from_term(&t))
    }

    /// The values from global index `start` on, in order (the engine's stream, which
    /// steps without big-integer decoding).
    pub fn iter_from(&mut self, start: &BigUint) -> Result<TypedStream<'_, T>, IndexError> {
        Ok(TypedStream {
            stream: self.engine.stream_from(start)?,
            started: false,
            values: PhantomData,
        })
    }
}

/// The values of a [`TypedEnumeration`] in order; ends only for a finite language.
pub struct TypedStream<'e, T> {
    stream: Stream<'e>,
    started: bool,
    values: PhantomData<fn() -> T>,
}

impl<T: Enumerable> Iterator for TypedStream<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.started && !self.stream.advance() {
            return None;
        }
        self.started = true;
        self.stream.current().map(T::from_term)
    }
}

/// Prints a value in ET's style; used by the generated `Display` impls.
pub fn display<T: Enumerable>(value: &T, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    value.write_tokens(&mut TokenWriter::new(f))
}

#[cfg(test)]
mod tests;
