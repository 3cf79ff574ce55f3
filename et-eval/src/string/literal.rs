//! String literals: the text between the quotes in both dialects a solver may speak,
//! and printing in SMT-LIB 2.6.

use thiserror::Error;

use super::{SmtString, MAX_CODE_POINT, MAX_LEGACY_CHAR};

/// How a solver writes and reads string literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// SMT-LIB 2.6: `""` is a quote; `\ud₃d₂d₁d₀` and `\u{d}`…`\u{d₄d₃d₂d₁d₀}` (d₄ at most
    /// 2) are code points; every other character, backslashes included, stands for itself.
    /// Alphabet 0..=0x2FFFF.
    Smtlib26,
    /// z3 up to 4.8.10 (byte strings, alphabet 0..=255): `""` is a quote; `\xNN` (two hex
    /// digits), `\ooo` (one to three octal digits, taken modulo 256), `\a \b \f \n \r \t
    /// \v` and `\\` are escapes; a backslash before anything else is dropped (`\u` is
    /// `u`), a final backslash stays; characters beyond ASCII are their UTF-8 bytes. This
    /// is what those releases were observed to do (z3 4.8.5 and 4.8.7).
    Z3Legacy,
}

impl Dialect {
    /// The largest character of the dialect's alphabet.
    pub fn max_char(self) -> u32 {
        match self {
            Dialect::Smtlib26 => MAX_CODE_POINT,
            Dialect::Z3Legacy => MAX_LEGACY_CHAR,
        }
    }
}

/// Text between a literal's quotes that is not a string literal.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LiteralError {
    /// A `"` that is not doubled (it would have ended the literal).
    #[error("a lone '\"' at byte {offset} of a string literal (a quote inside a literal is written \"\")")]
    LoneQuote {
        /// Byte offset in the text given.
        offset: usize,
    },
    /// A character beyond the alphabet (SMT-LIB 2.6 dialect only).
    #[error("character U+{code:04X} at byte {offset} of a string literal is outside the SMT-LIB string alphabet 0..=0x2FFFF")]
    OutsideAlphabet {
        /// Byte offset in the text given.
        offset: usize,
        /// The character's code point.
        code: u32,
    },
}

/// Parse the text between a literal's quotes (see [`SmtString::parse_literal`]).
pub(super) fn parse(text: &str, dialect: Dialect) -> Result<SmtString, LiteralError> {
    let unquoted = undouble_quotes(text)?;
    match dialect {
        Dialect::Smtlib26 => parse_smtlib26(&unquoted),
        Dialect::Z3Legacy => Ok(parse_z3_legacy(&unquoted)),
    }
}

/// The SMT-LIB 2.6 literal of these code points (see [`SmtString::to_literal`]).
pub(super) fn print(chars: &[u32]) -> String {
    let mut out = String::with_capacity(chars.len() + 2);
    out.push('"');
    for &c in chars {
        match c {
            0x22 => out.push_str("\"\""),
            0x5c => out.push_str("\\u{5c}"),
            0x20..=0x7e => out.push(char::from(c as u8)),
            _ => out.push_str(&format!("\\u{{{c:x}}}")),
        }
    }
    out.push('"');
    out
}

/// The lexical step both dialects share: `""` is one quote, a lone `"` is an error.
/// Returns the characters with their byte offsets in `text`.
fn undouble_quotes(text: &str) -> Result<Vec<(usize, char)>, LiteralError> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((offset, c)) = chars.next() {
        if c == '"' && chars.next_if(|&(_, next)| next == '"').is_none() {
            return Err(LiteralError::LoneQuote { offset });
        }
        out.push((offset, c));
    }
    Ok(out)
}

fn hex_value(c: char) -> Option<u32> {
    c.to_digit(16)
}

/// SMT-LIB 2.6 escapes: `\ud₃d₂d₁d₀` and `\u{d₀}` … `\u{d₄d₃d₂d₁d₀}` with d₄ ≤ 2; a
/// backslash that does not start one of them is an ordinary character.
fn parse_smtlib26(chars: &[(usize, char)]) -> Result<SmtString, LiteralError> {
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let (offset, c) = chars[i];
        if c == '\\' {
            if let Some((code, used)) = unicode_escape(&chars[i + 1..]) {
                out.push(code);
                i += 1 + used;
                continue;
            }
        }
        let code = u32::from(c);
        if code > MAX_CODE_POINT {
            return Err(LiteralError::OutsideAlphabet { offset, code });
        }
        out.push(code);
        i += 1;
    }
    Ok(SmtString::from_trusted(out))
}

/// The code point of a `u…` escape body after the backslash, and the characters it used.
fn unicode_escape(after_backslash: &[(usize, char)]) -> Option<(u32, usize)> {
    let text: Vec<char> = after_backslash.iter().take(8).map(|&(_, c)| c).collect();
    if text.first() != Some(&'u') {
        return None;
    }
    if text.get(1) == Some(&'{') {
        let digits: Vec<u32> = text[2..].iter().map_while(|&c| hex_value(c)).collect();
        let closed = text.get(2 + digits.len()) == Some(&'}');
        let valid_length = (1..=5).contains(&digits.len());
        // Five digits only up to 2FFFF: the leading one is at most 2.
        if !closed || !valid_length || (digits.len() == 5 && digits[0] > 2) {
            return None;
        }
        let code = digits.iter().fold(0, |acc, d| acc * 16 + d);
        return Some((code, 3 + digits.len()));
    }
    let digits: Vec<u32> = text[1..]
        .iter()
        .take(4)
        .map_while(|&c| hex_value(c))
        .collect();
    if digits.len() != 4 {
        return None;
    }
    Some((digits.iter().fold(0, |acc, d| acc * 16 + d), 5))
}

/// z3 ≤ 4.8.10's escapes over byte strings (see [`Dialect::Z3Legacy`]).
fn parse_z3_legacy(chars: &[(usize, char)]) -> SmtString {
    let mut out = Vec::with_capacity(chars.len());
    let push_char = |out: &mut Vec<u32>, c: char| {
        let mut buffer = [0u8; 4];
        out.extend(c.encode_utf8(&mut buffer).bytes().map(u32::from));
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        i += 1;
        if c != '\\' {
            push_char(&mut out, c);
            continue;
        }
        let Some(&(_, next)) = chars.get(i) else {
            // A final backslash stands for itself.
            out.push(u32::from(b'\\'));
            break;
        };
        i += 1;
        let simple = match next {
            'a' => Some(0x07),
            'b' => Some(0x08),
            'f' => Some(0x0c),
            'n' => Some(0x0a),
            'r' => Some(0x0d),
            't' => Some(0x09),
            'v' => Some(0x0b),
            '\\' => Some(0x5c),
            _ => None,
        };
        if let Some(code) = simple {
            out.push(code);
        } else if next == 'x' {
            let hex: Vec<u32> = chars[i..]
                .iter()
                .take(2)
                .map_while(|&(_, c)| hex_value(c))
                .collect();
            if hex.len() == 2 {
                out.push(hex[0] * 16 + hex[1]);
                i += 2;
            } else {
                out.push(u32::from(b'x'));
            }
        } else if let Some(first) = next.to_digit(8) {
            let more: Vec<u32> = chars[i..]
                .iter()
                .take(2)
                .map_while(|&(_, c)| c.to_digit(8))
                .collect();
            i += more.len();
            out.push(more.iter().fold(first, |acc, d| acc * 8 + d) % 256);
        } else {
            // An unknown escape drops the backslash.
            push_char(&mut out, next);
        }
    }
    SmtString::from_trusted(out)
}
