//! Theory grammars: reading `.pest` files, lowering them to constructors with costs,
//! and validating them. This module is shared by the interpreted path
//! (`et --grammar x.pest`) and the derive macro, which compiles this very source file
//! (`#[path]` in et-derive), so both read, validate and cost a grammar with the same
//! code. It must therefore stay self-contained: only `super::`, std, pest, pest_meta
//! and thiserror. It knows nothing of enumeration or of the built-in grammars.

mod diagnostic;
mod lower;
mod model;
mod syntax;
mod validate;

use std::path::Path;

pub use diagnostic::{Diagnostic, GrammarError, Position};
pub use model::{Alternative, Grammar, Item, Nonterminal, NtId, TokenId};
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
        let source = syntax::parse(file, text).map_err(GrammarError::Invalid)?;
        let lowered = lower::lower(file, &source.rules).map_err(GrammarError::Invalid)?;
        let (start, warnings) = validate::validate(file, &lowered.nonterminals, start)
            .map_err(GrammarError::Invalid)?;
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
    /// Rust ADTs under `#[derive(Enumerable)]`).
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
