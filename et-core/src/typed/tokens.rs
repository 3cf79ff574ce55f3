//! ET's printing style for typed values: tokens joined by one space, except none after
//! a `(` token and none before a `)` token (the Printing rule of docs/grammars.md). The engine's `Printer` joins
//! the same way; the agreement tests compare the two on every built-in grammar.

use std::fmt;

/// Writes tokens one at a time, spacing them as the engine's printer does.
pub struct TokenWriter<'a> {
    out: &'a mut dyn fmt::Write,
    /// A space is due before the next token unless it is `)`.
    space: bool,
}

impl<'a> TokenWriter<'a> {
    /// A writer at the start of a formula.
    pub fn new(out: &'a mut dyn fmt::Write) -> Self {
        TokenWriter { out, space: false }
    }

    /// Writes one token.
    pub fn token(&mut self, token: &str) -> fmt::Result {
        if self.space && token != ")" {
            self.out.write_char(' ')?;
        }
        self.out.write_str(token)?;
        self.space = token != "(";
        Ok(())
    }
}
