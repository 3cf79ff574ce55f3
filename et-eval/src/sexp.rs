//! S-expressions as SMT-LIB writes them: the reader for formulas and solver outputs.
//!
//! Only the lexical level lives here (symbols, numerals, decimals, `#x`/`#b` literals,
//! string literals, keywords, lists); what a list means is the business of
//! [`crate::script`] and [`crate::model`]. Every node remembers where it started, so
//! errors can name a line and column.

use std::fmt;

use thiserror::Error;

/// A position in the text: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One s-expression with the position of its first character.
#[derive(Debug, PartialEq, Eq)]
pub struct Sexp {
    /// What it is.
    pub kind: SexpKind,
    /// Where it starts.
    pub pos: Pos,
}

/// The kinds of s-expressions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SexpKind {
    /// A simple or `|quoted|` symbol (quotes removed).
    Symbol(String),
    /// A `:keyword`.
    Keyword(String),
    /// A numeral (digits only).
    Numeral(String),
    /// A decimal `d.d` (as written).
    Decimal(String),
    /// A `#x` literal: the hex digits.
    Hex(String),
    /// A `#b` literal: the binary digits.
    Binary(String),
    /// A string literal: the text between the quotes with `""` turned into `"`; other
    /// escapes are left for the string theory (their meaning depends on the dialect).
    Str(String),
    /// A parenthesised list.
    List(Vec<Sexp>),
}

/// A lexical error with its position.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{pos}: {message}")]
pub struct SexpError {
    /// Where.
    pub pos: Pos,
    /// What.
    pub message: String,
}

impl Sexp {
    /// The symbol's name, if this is a symbol.
    pub fn as_symbol(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Symbol(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is a list.
    pub fn as_list(&self) -> Option<&[Sexp]> {
        match &self.kind {
            SexpKind::List(items) => Some(items),
            _ => None,
        }
    }

    /// The head symbol of a list `(head ...)`.
    pub fn head(&self) -> Option<&str> {
        self.as_list()?.first()?.as_symbol()
    }

    /// Whether this is the symbol `name`.
    pub fn is_symbol(&self, name: &str) -> bool {
        self.as_symbol() == Some(name)
    }
}

impl Clone for Sexp {
    fn clone(&self) -> Sexp {
        crate::deep(|| Sexp {
            kind: self.kind.clone(),
            pos: self.pos,
        })
    }
}

impl Drop for Sexp {
    /// Drops deep lists without recursion.
    fn drop(&mut self) {
        if let SexpKind::List(items) = &mut self.kind {
            if items
                .iter()
                .all(|i| !matches!(&i.kind, SexpKind::List(l) if !l.is_empty()))
            {
                return;
            }
            let mut stack = std::mem::take(items);
            while let Some(mut s) = stack.pop() {
                if let SexpKind::List(l) = &mut s.kind {
                    stack.append(l);
                }
            }
        }
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::deep(|| self.write(f))
    }
}

impl Sexp {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SexpKind::Symbol(s) => {
                if s.is_empty()
                    || !s.chars().all(is_symbol_char)
                    || s.starts_with(|c: char| c.is_ascii_digit())
                {
                    write!(f, "|{s}|")
                } else {
                    f.write_str(s)
                }
            }
            SexpKind::Keyword(s) => write!(f, ":{s}"),
            SexpKind::Numeral(s) | SexpKind::Decimal(s) => f.write_str(s),
            SexpKind::Hex(s) => write!(f, "#x{s}"),
            SexpKind::Binary(s) => write!(f, "#b{s}"),
            SexpKind::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            SexpKind::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Characters of a simple symbol (SMT-LIB 2.6, §3.1).
pub fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)
}

/// Whether a character may appear as itself in a string literal: printable ASCII
/// (32–126) and the white space SMT-LIB's lexicon allows inside one (tab, line feed,
/// carriage return). The theory of strings writes every other character as an escape
/// `\u{..}`; solvers read a raw one differently (z3 as its UTF-8 bytes, cvc5 not at
/// all), and z3 and cvc5 print models with the escapes.
pub fn literal_char_ok(c: char) -> bool {
    matches!(c, ' '..='~' | '\t' | '\n' | '\r')
}

/// A lexical token.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Open,
    Close,
    Atom(SexpKind),
}

/// Splits text into tokens with positions.
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
    /// Whether string literals must hold only [`literal_char_ok`] characters (formulas),
    /// or may hold any (a solver's output, taken as printed).
    strict: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, start: Pos) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            pos: start,
            strict: true,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    fn error(&self, pos: Pos, message: impl Into<String>) -> SexpError {
        SexpError {
            pos,
            message: message.into(),
        }
    }

    fn next_token(&mut self) -> Result<Option<(Token, Pos)>, SexpError> {
        self.skip_blanks();
        let start = self.pos;
        let Some(c) = self.bump() else {
            return Ok(None);
        };
        let token = match c {
            '(' => Token::Open,
            ')' => Token::Close,
            '"' => Token::Atom(SexpKind::Str(self.string_literal(start)?)),
            '|' => Token::Atom(SexpKind::Symbol(self.quoted_symbol(start)?)),
            '#' => Token::Atom(self.radix_literal(start)?),
            ':' => {
                let mut s = String::new();
                self.symbol_chars(&mut s);
                Token::Atom(SexpKind::Keyword(s))
            }
            c if c.is_ascii_digit() => Token::Atom(self.number(c, start)?),
            c if is_symbol_char(c) => {
                let mut s = String::from(c);
                self.symbol_chars(&mut s);
                Token::Atom(SexpKind::Symbol(s))
            }
            c => return Err(self.error(start, format!("unexpected character {c:?}"))),
        };
        Ok(Some((token, start)))
    }

    /// Skips white space and `;` comments up to the next token or the end.
    #[inline]
    fn skip_blanks(&mut self) {
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == ';' {
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// The rest of a symbol (or keyword) after its first character, appended to `s`.
    #[inline]
    fn symbol_chars(&mut self, s: &mut String) {
        while let Some(&d) = self.chars.peek() {
            if is_symbol_char(d) {
                s.push(d);
                self.bump();
            } else {
                break;
            }
        }
    }

    /// The text of a string literal whose opening quote (at `start`) was read, with
    /// `""` turned into `"`.
    #[inline]
    fn string_literal(&mut self, start: Pos) -> Result<String, SexpError> {
        let mut s = String::new();
        loop {
            let at = self.pos;
            match self.bump() {
                None => return Err(self.error(start, "unterminated string literal")),
                Some(c) if self.strict && !literal_char_ok(c) => {
                    return Err(self.error(
                        at,
                        format!(
                            "string literal holds {:?} (U+{:04X}), outside printable \
                             ASCII: SMT-LIB string literals cannot hold it as itself; \
                             write \\u{{{:x}}}",
                            c,
                            u32::from(c),
                            u32::from(c)
                        ),
                    ))
                }
                Some('"') => {
                    if self.chars.peek() == Some(&'"') {
                        self.bump();
                        s.push('"');
                    } else {
                        return Ok(s);
                    }
                }
                Some(c) => s.push(c),
            }
        }
    }

    /// The name of a `|quoted|` symbol whose opening bar (at `start`) was read.
    #[inline]
    fn quoted_symbol(&mut self, start: Pos) -> Result<String, SexpError> {
        let mut s = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error(start, "unterminated quoted symbol")),
                Some('|') => return Ok(s),
                Some('\\') => return Err(self.error(start, "'\\' in a quoted symbol")),
                Some(c) => s.push(c),
            }
        }
    }

    /// A `#x` or `#b` literal whose `#` (at `start`) was read.
    #[inline]
    fn radix_literal(&mut self, start: Pos) -> Result<SexpKind, SexpError> {
        let radix = self.bump();
        let mut digits = String::new();
        while let Some(&d) = self.chars.peek() {
            if d.is_ascii_alphanumeric() {
                digits.push(d);
                self.bump();
            } else {
                break;
            }
        }
        match radix {
            Some('x') if !digits.is_empty() && digits.chars().all(|d| d.is_ascii_hexdigit()) => {
                Ok(SexpKind::Hex(digits))
            }
            Some('b') if !digits.is_empty() && digits.chars().all(|d| d == '0' || d == '1') => {
                Ok(SexpKind::Binary(digits))
            }
            _ => Err(self.error(
                start,
                format!(
                    "malformed literal '#{}{digits}'",
                    radix.map(String::from).unwrap_or_default()
                ),
            )),
        }
    }

    /// A numeral or decimal whose first digit `first` (at `start`) was read.
    #[inline]
    fn number(&mut self, first: char, start: Pos) -> Result<SexpKind, SexpError> {
        let mut s = String::from(first);
        let mut dot = false;
        while let Some(&d) = self.chars.peek() {
            if d.is_ascii_digit() {
                s.push(d);
            } else if d == '.' && !dot {
                dot = true;
                s.push(d);
            } else {
                break;
            }
            self.bump();
        }
        if s.ends_with('.') {
            return Err(self.error(start, format!("malformed decimal '{s}'")));
        }
        if let Some(&d) = self.chars.peek() {
            if is_symbol_char(d) {
                return Err(self.error(start, format!("malformed number '{s}{d}...'")));
            }
        }
        Ok(if dot {
            SexpKind::Decimal(s)
        } else {
            SexpKind::Numeral(s)
        })
    }
}

/// Builds s-expressions from a stream of tokens.
#[derive(Default)]
struct Builder {
    stack: Vec<(Pos, Vec<Sexp>)>,
    done: Vec<Sexp>,
}

/// The deepest nesting accepted. The recursive walks (checking, evaluating, printing)
/// grow their stack on the heap as needed and drops are iterative, so the bound only
/// keeps a malicious input from asking for gigabytes.
pub const MAX_DEPTH: usize = 100_000;

impl Builder {
    fn push(&mut self, token: Token, pos: Pos) -> Result<(), SexpError> {
        match token {
            Token::Open => {
                if self.stack.len() >= MAX_DEPTH {
                    return Err(SexpError {
                        pos,
                        message: format!("nested deeper than {MAX_DEPTH} levels"),
                    });
                }
                self.stack.push((pos, Vec::new()));
            }
            Token::Close => {
                let Some((start, items)) = self.stack.pop() else {
                    return Err(SexpError {
                        pos,
                        message: "unbalanced ')'".into(),
                    });
                };
                self.emit(Sexp {
                    kind: SexpKind::List(items),
                    pos: start,
                });
            }
            Token::Atom(kind) => self.emit(Sexp { kind, pos }),
        }
        Ok(())
    }

    fn emit(&mut self, sexp: Sexp) {
        match self.stack.last_mut() {
            Some((_, items)) => items.push(sexp),
            None => self.done.push(sexp),
        }
    }

    fn finish(self) -> Result<Vec<Sexp>, SexpError> {
        if let Some((pos, _)) = self.stack.last() {
            return Err(SexpError {
                pos: *pos,
                message: "unclosed '('".into(),
            });
        }
        Ok(self.done)
    }
}

/// Reads every s-expression of a text (a formula: its string literals hold printable
/// ASCII, see [`literal_char_ok`]).
pub fn read_all(text: &str) -> Result<Vec<Sexp>, SexpError> {
    read(text, true)
}

/// Reads every s-expression of a solver's output, whose string literals are taken as
/// printed whatever they hold: z3 4.8.12 prints DEL (U+007F) raw in a model.
pub fn read_output(text: &str) -> Result<Vec<Sexp>, SexpError> {
    read(text, false)
}

fn read(text: &str, strict: bool) -> Result<Vec<Sexp>, SexpError> {
    let mut lexer = Lexer::new(text, Pos { line: 1, column: 1 });
    lexer.strict = strict;
    let mut builder = Builder::default();
    while let Some((token, pos)) = lexer.next_token()? {
        builder.push(token, pos)?;
    }
    builder.finish()
}

/// Reads s-expressions from a sequence of tokens such as the enumeration printer's
/// (a grammar token may itself hold several lexical tokens, like `(_ BitVec 64)`).
/// Positions count tokens: line 1, column = the token's 1-based number.
pub fn read_tokens<I>(tokens: I) -> Result<Vec<Sexp>, SexpError>
where
    I: IntoIterator,
    I::Item: AsRef<str>,
{
    let mut builder = Builder::default();
    for (i, token) in tokens.into_iter().enumerate() {
        let token = token.as_ref();
        let pos = Pos {
            line: 1,
            column: i as u32 + 1,
        };
        match token {
            "(" => builder.push(Token::Open, pos)?,
            ")" => builder.push(Token::Close, pos)?,
            _ => {
                let mut lexer = Lexer::new(token, pos);
                // An error inside the token is placed at the token.
                let at_token = |e: SexpError| SexpError { pos, ..e };
                while let Some((t, _)) = lexer.next_token().map_err(at_token)? {
                    builder.push(t, pos)?;
                }
            }
        }
    }
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_atoms_and_lists() {
        let s =
            read_all("(assert (= a #x0F #b01 \"x\"\"y\" 1.5 12 |a b| :named)) ; c\n(check-sat)")
                .unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].head(), Some("assert"));
        let inner = &s[0].as_list().unwrap()[1];
        let items = inner.as_list().unwrap();
        assert_eq!(items[2].kind, SexpKind::Hex("0F".into()));
        assert_eq!(items[3].kind, SexpKind::Binary("01".into()));
        assert_eq!(items[4].kind, SexpKind::Str("x\"y".into()));
        assert_eq!(items[5].kind, SexpKind::Decimal("1.5".into()));
        assert_eq!(items[6].kind, SexpKind::Numeral("12".into()));
        assert_eq!(items[7].kind, SexpKind::Symbol("a b".into()));
        assert_eq!(items[8].kind, SexpKind::Keyword("named".into()));
        assert_eq!(s[1].pos, Pos { line: 2, column: 1 });
        assert_eq!(
            s[0].to_string(),
            "(assert (= a #x0F #b01 \"x\"\"y\" 1.5 12 |a b| :named))"
        );
    }

    #[test]
    fn tokens_and_text_agree() {
        let text = "(declare-const a (_ BitVec 64))(assert (= a #x0000000000000001))";
        let tokens = [
            "(",
            "declare-const",
            "a",
            "(_ BitVec 64)",
            ")",
            "(",
            "assert",
            "(",
            "=",
            "a",
            "#x0000000000000001",
            ")",
            ")",
        ];
        let a: Vec<String> = read_all(text)
            .unwrap()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let b: Vec<String> = read_tokens(tokens)
            .unwrap()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(a, b);
    }

    #[test]
    fn errors_have_positions() {
        assert_eq!(
            read_all("(a\n  (b").unwrap_err().pos,
            Pos { line: 2, column: 3 }
        );
        assert_eq!(read_all("a)").unwrap_err().message, "unbalanced ')'");
        assert!(read_all("\"abc").is_err());
        assert!(read_all("#xZZ").is_err());
        assert!(read_all("#q1").is_err());
        assert!(read_all("1.").is_err());
        assert!(read_all("12ab").is_err());
        assert!(read_all(&"(".repeat(MAX_DEPTH + 1)).is_err());
    }

    #[test]
    fn string_literals_hold_printable_ascii() {
        let e = read_all("(assert\n (= s \"caf\u{e9}\"))").unwrap_err();
        assert_eq!(
            e.pos,
            Pos {
                line: 2,
                column: 11
            }
        );
        assert!(
            e.message.contains("'é' (U+00E9)") && e.message.ends_with("write \\u{e9}"),
            "{e}"
        );
        assert!(read_all("\"\u{7f}\"").is_err());
        assert!(read_all("\"\u{0}\"").is_err());
        // A solver's output is read as printed.
        let out = read_output("(define-fun a () String \"\u{7f}Az\")").unwrap();
        assert_eq!(out[0].to_string(), "(define-fun a () String \"\u{7f}Az\")");
        // The same through the enumeration's tokens (positions count tokens).
        let e = read_tokens(["(", "=", "s", "\"\u{1F600}\"", ")"]).unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, column: 4 });
        // Escapes, doubled quotes, white space, and other characters where SMT-LIB allows
        // them (quoted symbols, comments) are read.
        let ok = read_all("(= |\u{e9}| \"\\u{e9} \"\"a\"\"\tb\n\") ; caf\u{e9}").unwrap();
        assert_eq!(ok[0].to_string(), "(= |\u{e9}| \"\\u{e9} \"\"a\"\"\tb\n\")");
    }
}
