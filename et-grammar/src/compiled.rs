//! A grammar compiled by `#[derive(Grammar)]`: the lowered, validated grammar as static
//! data. Building a [`Grammar`] from it is a copy, not a parse: the macro ran this crate
//! (the same code as `et --grammar x.pest`) at compile time.

use crate::{
    Alternative, Diagnostic, Extension, Grammar, GrammarError, Item, Nonterminal, NtId, Position,
    DEFAULT_START,
};

/// A grammar as `#[derive(Grammar)]` emits it.
#[derive(Debug)]
pub struct CompiledGrammar {
    /// Short name (the file stem).
    pub name: &'static str,
    /// The path as written in the attribute, for messages.
    pub file: &'static str,
    /// The `//!` documentation of the file.
    pub doc: &'static str,
    /// The `.pest` text, kept so tests can compare with the interpreted path; never
    /// parsed on the compiled path.
    pub source: &'static str,
    /// ET's extension applied to `source` before lowering, if any.
    pub extension: Option<Extension>,
    /// Distinct token texts.
    pub tokens: &'static [&'static str],
    /// The lowered rules, numbered as the interpreted path numbers them.
    pub rules: &'static [CompiledRule],
    /// The start rule.
    pub start: NtId,
    /// Warnings the grammar library gave (unreachable rules).
    pub warnings: &'static [CompiledWarning],
}

/// A rule of a [`CompiledGrammar`].
#[derive(Debug)]
pub struct CompiledRule {
    /// The rule's name (`<rule>__<n>` for generated rules).
    pub name: &'static str,
    /// 1-based line of the rule in the `.pest` file.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// For a generated rule, the user rule it was written in.
    pub generated_in: Option<NtId>,
    /// The alternatives in order.
    pub alternatives: &'static [CompiledAlternative],
}

/// An alternative of a [`CompiledRule`].
#[derive(Debug)]
pub struct CompiledAlternative {
    /// FEAT cost.
    pub cost: u32,
    /// Tokens and children in printed order.
    pub items: &'static [Item],
}

/// A warning the grammar library gave at compile time.
#[derive(Debug)]
pub struct CompiledWarning {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The sentence.
    pub message: &'static str,
}

impl CompiledGrammar {
    /// The engine's grammar, starting from the grammar's start rule.
    pub fn grammar(&self) -> Grammar {
        self.grammar_from(self.start)
    }

    /// The engine's grammar with another start rule (the typed enumeration of a rule's
    /// enum starts there). Warnings are the compile-time ones, which concern `start`.
    pub fn grammar_from(&self, start: NtId) -> Grammar {
        let warnings = if start == self.start {
            self.warnings
                .iter()
                .map(|w| Diagnostic {
                    file: self.file.to_string(),
                    position: Position {
                        line: w.line,
                        column: w.column,
                    },
                    message: w.message.to_string(),
                })
                .collect()
        } else {
            Vec::new()
        };
        Grammar {
            name: self.name.to_string(),
            file: self.file.to_string(),
            doc: self.doc.to_string(),
            tokens: self.tokens.iter().map(|t| t.to_string()).collect(),
            nonterminals: self
                .rules
                .iter()
                .map(|r| Nonterminal {
                    name: r.name.to_string(),
                    position: Position {
                        line: r.line,
                        column: r.column,
                    },
                    generated_in: r.generated_in,
                    alternatives: r
                        .alternatives
                        .iter()
                        .map(|a| Alternative {
                            cost: a.cost,
                            items: a.items.to_vec(),
                        })
                        .collect(),
                })
                .collect(),
            start,
            warnings,
        }
    }

    /// The same grammar read from its `.pest` text by the interpreted path, for tests
    /// that check the two paths agree.
    pub fn interpreted(&self) -> Result<Grammar, GrammarError> {
        let start = self.rules.get(self.start).map_or(DEFAULT_START, |r| r.name);
        Grammar::from_source_extended(self.name, self.file, self.source, start, self.extension)
    }
}
