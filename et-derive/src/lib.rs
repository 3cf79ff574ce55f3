//! Derive macros for et: `#[derive(Grammar)]` compiles a `.pest` theory grammar and
//! `#[derive(Enumerable)]` a Rust ADT into FEAT enumerations over et-core's engine.
//!
//! Use them through `et_core::typed`, which re-exports both next to the traits they
//! implement (as serde does). This crate is a thin shell over the grammar model,
//! `et-grammar` (as pest_derive is over pest_meta): reading, lowering, validating and
//! costing a grammar, and emitting it as static tables, all happen there, with the same
//! code `et --grammar x.pest` runs, so the two cannot disagree; a grammar problem is a
//! compile error at the attribute carrying the very sentence `et --grammar` prints, with
//! the grammar's file:line:column.
//!
//! # `#[derive(Grammar)]`
//!
//! ```
//! use et_core::typed::{Enumerable, TypedEnumeration};
//!
//! #[derive(et_core::typed::Grammar)]
//! #[grammar = "../grammars/strings.pest"] // relative to the crate's Cargo.toml
//! pub struct Strings;
//!
//! // `pub mod strings`: one enum per rule, one variant per alternative.
//! use strings::{BoolTerm, StrTerm};
//! let formula = BoolTerm::Not(Box::new(BoolTerm::EqStr(StrTerm::A, StrTerm::StrEmpty)));
//! assert_eq!(formula.to_string(), r#"(not (= a ""))"#);
//!
//! let mut e = TypedEnumeration::<BoolTerm>::new();
//! assert_eq!(e.get(&0u32.into()).unwrap(), BoolTerm::EqStr(StrTerm::StrEmpty, StrTerm::StrEmpty));
//! assert_eq!(e.rank(&formula), 120u32.into());
//! ```
//!
//! generates `pub mod strings` with one enum per rule (`strings::BoolTerm`), one
//! variant per alternative named from its operator token (`Not`, `StrReplaceAll`,
//! `ReStar`; `EqBool`/`EqStr` where two alternatives share `=`; `Alt<i>` when no
//! readable name exists), children boxed where recursive, `Enumerable` and `Display`
//! impls, and `strings::GRAMMAR`, the compiled grammar as static data. Editing the
//! `.pest` file rebuilds the crate (the text is `include_str!`ed).
//!
//! # `#[derive(Enumerable)]`
//!
//! Standard FEAT: each constructor application costs 1 unless `#[enumerable(cost = n)]`
//! says otherwise; a value prints as its constructor's name, or
//! `#[enumerable(print = "...")]`, applied to its fields in parentheses; the derive
//! implements `Display` that way. Fields are other `#[derive(Enumerable)]` types,
//! boxed or not. Attributes are checked strictly: anything but `cost` and `print` is a
//! compile error at its span. Problems that span several types (a zero-cost cycle, a
//! type with no finite value) are found when the type's grammar is first built, and
//! panic with the grammar library's sentence.
//!
//! ```
//! use et_core::typed::{Enumerable, TypedEnumeration};
//!
//! #[derive(Enumerable, Debug, PartialEq)]
//! enum Int {
//!     #[enumerable(print = "0")]
//!     Zero,
//!     #[enumerable(print = "+")]
//!     Add(Box<Int>, Box<Int>),
//! }
//!
//! #[derive(Enumerable, Debug, PartialEq)]
//! enum Bool {
//!     #[enumerable(print = "true")]
//!     True,
//!     #[enumerable(print = "not")]
//!     Not(Box<Bool>),
//!     #[enumerable(print = "<")]
//!     Lt(Int, Int),
//! }
//!
//! let mut e = TypedEnumeration::<Bool>::new();
//! // Size 1: `true`; size 2: `(not true)`; size 3: `(not (not true))`, `(< 0 0)`.
//! let cards: Vec<u32> = (0..4).map(|n| e.part_cardinality(n).try_into().unwrap()).collect();
//! assert_eq!(cards, [0, 1, 1, 2]);
//! let third = e.get(&3u32.into()).unwrap();
//! assert_eq!(third.to_string(), "(< 0 0)");
//! assert_eq!(e.rank(&third), 3u32.into());
//! ```

#![warn(missing_docs)]

mod enumerable_derive;
mod grammar_derive;
mod names;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Compiles the `.pest` grammar named by `#[grammar = "..."]` into one enum per rule;
/// `#[extend(vars = 5, asserts = 2)]` compiles ET's extension of it instead.
#[proc_macro_derive(Grammar, attributes(grammar, extend))]
pub fn derive_grammar(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    grammar_derive::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Enumerates a Rust enum or struct with FEAT (each constructor costs 1 by default).
#[proc_macro_derive(Enumerable, attributes(enumerable))]
pub fn derive_enumerable(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    enumerable_derive::derive(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
