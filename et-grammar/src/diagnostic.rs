//! Grammar problems with their file:line:column.

use std::fmt;

/// A position in a grammar file (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
}

impl Position {
    /// The start of a file, for problems that belong to no construct.
    pub const START: Position = Position { line: 1, column: 1 };
}

/// One problem found in a grammar, located in its source file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The grammar's file path (or `<builtin:name>`).
    pub file: String,
    /// Where the offending construct starts.
    pub position: Position,
    /// A sentence naming the rule(s) and saying what is wrong.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.position.line, self.position.column, self.message
        )
    }
}

/// Why a grammar could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum GrammarError {
    /// The file could not be read.
    #[error("cannot read grammar file {path}: {source}")]
    Io {
        /// The path as given.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The name is neither a built-in grammar nor an existing file.
    #[error("unknown grammar `{0}`: not a built-in ({1}) and no such file")]
    Unknown(String, String),
    /// The grammar was read but is not acceptable; every problem found is listed.
    #[error("{}", render_all(.0))]
    Invalid(Vec<Diagnostic>),
}

fn render_all(diagnostics: &[Diagnostic]) -> String {
    let lines: Vec<String> = diagnostics.iter().map(|d| format!("error: {d}")).collect();
    lines.join("\n")
}

impl GrammarError {
    /// The individual problems, if the grammar was read.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            GrammarError::Invalid(d) => d,
            _ => &[],
        }
    }
}
