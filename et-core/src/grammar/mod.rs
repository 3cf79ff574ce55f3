//! Theory grammars: reading `.pest` files, lowering them to constructors with costs,
//! validating them, and the built-in grammars. This module is shared by the
//! interpreted path (`et --grammar x.pest`) and the derive macro, so both read,
//! validate and cost a grammar with the same code. It knows nothing of enumeration.

mod builtin;
mod diagnostic;
mod lower;
mod model;
mod syntax;
mod validate;

use std::path::Path;

pub use builtin::{Builtin, BUILTINS};
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

    /// A built-in grammar by name, or else a `.pest` file by path.
    pub fn load(name_or_path: &str) -> Result<Grammar, GrammarError> {
        if let Some(builtin) = Builtin::find(name_or_path) {
            return builtin.grammar();
        }
        let path = Path::new(name_or_path);
        if path.exists() {
            return Grammar::from_file(path, DEFAULT_START);
        }
        Err(GrammarError::Unknown(
            name_or_path.to_string(),
            BUILTINS
                .iter()
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(" "),
        ))
    }
}

#[cfg(test)]
mod tests;
