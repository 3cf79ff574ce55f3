//! The grammar model of et, as pest_meta is for pest: reading `.pest` files as
//! context-free grammars, lowering them to FEAT constructors with ET's cost model, and
//! validating them with every problem's file:line:column.
//!
//! Two crates build on it: et-core (the interpreted path, `et --grammar x.pest`, and the
//! engine) and et-derive (`#[derive(Grammar)]`, which runs this very code at compile
//! time and, with the `codegen` feature, emits the result as static tables). Both read,
//! validate and cost a grammar with the same code, so they cannot disagree. This crate
//! knows nothing of enumeration, solvers or the built-in grammars.
//!
//! ```
//! use et_grammar::{Grammar, DEFAULT_START};
//!
//! let text = r#"start = { t ~ "(check-sat)" }  t = { "x" | "(" ~ "f" ~ t ~ ")" }"#;
//! let g = Grammar::from_source("t", "t.pest", text, DEFAULT_START)?;
//! let t = g.nonterminal("t").unwrap();
//! let costs: Vec<u32> = g.nonterminals[t].alternatives.iter().map(|a| a.cost).collect();
//! assert_eq!(costs, [0, 1]); // a standalone "(" pays
//! # Ok::<(), et_grammar::GrammarError>(())
//! ```

#![warn(missing_docs)]

#[cfg(feature = "codegen")]
pub mod codegen;
mod compiled;
mod diagnostic;
mod extend;
mod lower;
mod model;
mod scopes;
mod syntax;
mod terminal;
mod validate;

use std::path::Path;

pub use compiled::{CompiledAlternative, CompiledGrammar, CompiledRule, CompiledWarning};
pub use diagnostic::{Diagnostic, GrammarError, Position};
pub use extend::Extension;
pub use model::{Alternative, Grammar, Item, Nonterminal, NtId, TokenId};
pub use syntax::{MAX_NESTING, MAX_REPEAT};
pub use validate::zero_cost_edges;

/// Which rules derive at least one finite formula.
pub fn productive_rules(grammar: &Grammar) -> Vec<bool> {
    validate::productive(&grammar.nonterminals)
}

/// The start rule unless told otherwise.
pub const DEFAULT_START: &str = "start";

impl Grammar {
    /// Reads, lowers and validates grammar text. `file` names it in diagnostics.
    pub fn from_source(
        name: &str,
        file: &str,
        text: &str,
        start: &str,
    ) -> Result<Grammar, GrammarError> {
        Grammar::from_source_extended(name, file, text, start, None)
    }

    /// Like [`Grammar::from_source`], with ET's extension to more variables and asserts
    /// applied to the rules before lowering (see [`Extension`]).
    pub fn from_source_extended(
        name: &str,
        file: &str,
        text: &str,
        start: &str,
        extension: Option<Extension>,
    ) -> Result<Grammar, GrammarError> {
        let mut source = syntax::parse(file, text).map_err(GrammarError::Invalid)?;
        if let Some(extension) = extension {
            extension
                .apply(file, &mut source)
                .map_err(GrammarError::Invalid)?;
        }
        // Problems of terminals are reported with those of the rules; whether formulas
        // hold `(check-sat)`, and whether scripts pop an empty assertion stack, is asked
        // only of a grammar whose language is sound.
        let mut problems = validate::string_literals(file, &source.rules);
        let lowered = match lower::lower(file, &source.rules) {
            Ok(lowered) => lowered,
            Err(rules) => {
                return Err(GrammarError::Invalid(
                    rules.into_iter().chain(problems).collect(),
                ))
            }
        };
        let (start, warnings) = match validate::validate(file, &lowered.nonterminals, start) {
            Ok(valid) => valid,
            Err(rules) => {
                return Err(GrammarError::Invalid(
                    rules.into_iter().chain(problems).collect(),
                ))
            }
        };
        problems.extend(validate::check_sat(
            file,
            &lowered.tokens,
            &lowered.nonterminals,
            start,
        ));
        problems.extend(scopes::check(
            file,
            &lowered.tokens,
            &lowered.nonterminals,
            &lowered.positions,
            start,
        ));
        if !problems.is_empty() {
            return Err(GrammarError::Invalid(problems));
        }
        Ok(Grammar {
            name: name.to_string(),
            file: file.to_string(),
            doc: source.doc,
            tokens: lowered.tokens,
            nonterminals: lowered.nonterminals,
            start,
            warnings,
        })
    }

    /// Reads a `.pest` file; the grammar is named after the file stem.
    pub fn from_file(path: &Path, start: &str) -> Result<Grammar, GrammarError> {
        let text = std::fs::read_to_string(path).map_err(|source| GrammarError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "grammar".to_string());
        Grammar::from_source(&name, &path.display().to_string(), &text, start)
    }

    /// Validates constructors built by other means than reading a file (the rules of
    /// Rust ADTs under `#[derive(Enumerable)]`). Their terms are values, not scripts, so
    /// neither `(check-sat)` nor the string literals of their tokens are checked.
    pub fn from_nonterminals(
        name: &str,
        file: &str,
        tokens: Vec<String>,
        nonterminals: Vec<Nonterminal>,
        start: &str,
    ) -> Result<Grammar, GrammarError> {
        let (start, warnings) =
            validate::validate(file, &nonterminals, start).map_err(GrammarError::Invalid)?;
        Ok(Grammar {
            name: name.to_string(),
            file: file.to_string(),
            doc: String::new(),
            tokens,
            nonterminals,
            start,
            warnings,
        })
    }
}

#[cfg(test)]
mod tests;
