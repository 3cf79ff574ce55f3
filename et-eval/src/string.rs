//! SMT-LIB 2.6 strings: sequences of code points 0..=0x2FFFF, their literal syntax (and
//! the byte-string dialect of z3 up to 4.8.10), and every `str.*` operation of the
//! UnicodeStrings theory with its total semantics (out-of-range arguments give the
//! standard's values, never an error).

use std::fmt;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use thiserror::Error;

use crate::regex::Regex;

/// The largest code point of SMT-LIB 2.6's string alphabet (the first three Unicode
/// planes; surrogates 0xD800..=0xDFFF are characters like any other).
pub const MAX_CODE_POINT: u32 = 0x2FFFF;

/// The largest character of z3's byte strings (releases up to 4.8.10).
pub const MAX_LEGACY_CHAR: u32 = 0xFF;

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

/// A code point outside SMT-LIB's string alphabet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("code point {0:#x} is outside the SMT-LIB string alphabet 0..=0x2FFFF")]
pub struct OutsideAlphabet(pub u32);

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

/// A value of sort String: a sequence of code points in 0..=0x2FFFF.
///
/// The derived order is SMT-LIB's `str.<` / `str.<=`: lexicographic by code point, a
/// proper prefix before its extensions. `Display` prints the SMT-LIB 2.6 literal.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SmtString {
    chars: Vec<u32>,
}

impl SmtString {
    /// The empty string.
    pub fn new() -> SmtString {
        SmtString::default()
    }

    /// The string of these code points, each checked against the alphabet.
    pub fn from_code_points(
        chars: impl IntoIterator<Item = u32>,
    ) -> Result<SmtString, OutsideAlphabet> {
        let chars: Vec<u32> = chars.into_iter().collect();
        match chars.iter().find(|&&c| c > MAX_CODE_POINT) {
            Some(&c) => Err(OutsideAlphabet(c)),
            None => Ok(SmtString { chars }),
        }
    }

    /// The string of a Rust text's characters (no escapes interpreted).
    pub fn from_text(text: &str) -> Result<SmtString, OutsideAlphabet> {
        SmtString::from_code_points(text.chars().map(u32::from))
    }

    /// A string of code points known to be in the alphabet (from another `SmtString`).
    pub(crate) fn from_trusted(chars: Vec<u32>) -> SmtString {
        debug_assert!(chars.iter().all(|&c| c <= MAX_CODE_POINT));
        SmtString { chars }
    }

    /// The code points.
    pub fn code_points(&self) -> &[u32] {
        &self.chars
    }

    /// `str.len`: the number of characters.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Whether this is the empty string.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// Parse the text between a literal's double quotes, as it appears in SMT-LIB source
    /// (so `""` is one quote), in a solver's dialect.
    pub fn parse_literal(text: &str, dialect: Dialect) -> Result<SmtString, LiteralError> {
        let unquoted = undouble_quotes(text)?;
        match dialect {
            Dialect::Smtlib26 => parse_smtlib26(&unquoted),
            Dialect::Z3Legacy => Ok(parse_z3_legacy(&unquoted)),
        }
    }

    /// The SMT-LIB 2.6 literal, quotes included: printable ASCII as itself, `"` doubled,
    /// the backslash and everything else as `\u{…}`, so the literal reads back the same in
    /// any 2.6 reader.
    pub fn to_literal(&self) -> String {
        let mut out = String::with_capacity(self.chars.len() + 2);
        out.push('"');
        for &c in &self.chars {
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

    /// `str.++`.
    pub fn concat(&self, other: &SmtString) -> SmtString {
        let mut chars = Vec::with_capacity(self.len() + other.len());
        chars.extend_from_slice(&self.chars);
        chars.extend_from_slice(&other.chars);
        SmtString { chars }
    }

    /// `str.at`: the character at `index` as a string, or "" out of range.
    pub fn at(&self, index: &BigInt) -> SmtString {
        self.substr(index, &BigInt::from(1))
    }

    /// `str.substr`: the characters from `offset`, at most `length` of them; "" unless
    /// 0 ≤ offset < len and length > 0.
    pub fn substr(&self, offset: &BigInt, length: &BigInt) -> SmtString {
        let Some(start) = self.position(offset).filter(|&start| start < self.len()) else {
            return SmtString::new();
        };
        if !length.is_positive() {
            return SmtString::new();
        }
        let available = self.len() - start;
        let take = length
            .to_usize()
            .map_or(available, |length| length.min(available));
        SmtString {
            chars: self.chars[start..start + take].to_vec(),
        }
    }

    /// `(str.prefixof self other)`: whether `self` is a prefix of `other`.
    pub fn is_prefix_of(&self, other: &SmtString) -> bool {
        other.chars.starts_with(&self.chars)
    }

    /// `(str.suffixof self other)`: whether `self` is a suffix of `other`.
    pub fn is_suffix_of(&self, other: &SmtString) -> bool {
        other.chars.ends_with(&self.chars)
    }

    /// `(str.contains self other)`: whether `other` occurs in `self`.
    pub fn contains(&self, other: &SmtString) -> bool {
        self.find_from(other, 0).is_some()
    }

    /// `str.indexof`: the first position at or after `start` where `pattern` occurs, or
    /// −1 (also when `start` is negative or beyond the length; an empty pattern occurs
    /// at every position 0..=len).
    pub fn index_of(&self, pattern: &SmtString, start: &BigInt) -> BigInt {
        match self
            .position(start)
            .and_then(|start| self.find_from(pattern, start))
        {
            Some(found) => BigInt::from(found),
            None => BigInt::from(-1),
        }
    }

    /// `str.replace`: the first occurrence of `pattern` replaced; an empty pattern
    /// occurs at 0, so the replacement is prepended.
    pub fn replace(&self, pattern: &SmtString, replacement: &SmtString) -> SmtString {
        match self.find_from(pattern, 0) {
            Some(found) => self.splice(found, found + pattern.len(), replacement),
            None => self.clone(),
        }
    }

    /// `str.replace_all`: every occurrence, left to right without overlaps; an empty
    /// pattern changes nothing.
    pub fn replace_all(&self, pattern: &SmtString, replacement: &SmtString) -> SmtString {
        if pattern.is_empty() {
            return self.clone();
        }
        let mut chars = Vec::with_capacity(self.len());
        let mut rest = 0;
        while let Some(found) = self.find_from(pattern, rest) {
            chars.extend_from_slice(&self.chars[rest..found]);
            chars.extend_from_slice(&replacement.chars);
            rest = found + pattern.len();
        }
        chars.extend_from_slice(&self.chars[rest..]);
        SmtString { chars }
    }

    /// `str.replace_re`: the leftmost match of `regex` (shortest among those starting
    /// there) replaced; if the empty string matches, the replacement is prepended.
    pub fn replace_re(&self, regex: &Regex, replacement: &SmtString) -> SmtString {
        for start in 0..=self.len() {
            if let Some(end) = regex.shortest_match_at(&self.chars, start, false) {
                return self.splice(start, end, replacement);
            }
        }
        self.clone()
    }

    /// `str.replace_re_all`: left to right, each leftmost shortest *non-empty* match
    /// replaced.
    pub fn replace_re_all(&self, regex: &Regex, replacement: &SmtString) -> SmtString {
        let mut chars = Vec::with_capacity(self.len());
        let mut start = 0;
        while start < self.len() {
            match regex.shortest_match_at(&self.chars, start, true) {
                Some(end) => {
                    chars.extend_from_slice(&replacement.chars);
                    start = end;
                }
                None => {
                    chars.push(self.chars[start]);
                    start += 1;
                }
            }
        }
        SmtString { chars }
    }

    /// `str.in_re`: whether the string is in the regular expression's language.
    pub fn in_re(&self, regex: &Regex) -> bool {
        regex.matches(self)
    }

    /// `str.is_digit`: a single character among 0..9.
    pub fn is_digit(&self) -> bool {
        matches!(self.chars[..], [c] if is_decimal_digit(c))
    }

    /// `str.to_code`: the code point of a one-character string, −1 otherwise.
    pub fn to_code(&self) -> BigInt {
        match self.chars[..] {
            [c] => BigInt::from(c),
            _ => BigInt::from(-1),
        }
    }

    /// `str.from_code`: the one-character string of a code point in 0..=0x2FFFF, ""
    /// otherwise.
    pub fn from_code(code: &BigInt) -> SmtString {
        match code.to_u32() {
            Some(c) if c <= MAX_CODE_POINT => SmtString { chars: vec![c] },
            _ => SmtString::new(),
        }
    }

    /// `str.to_int`: the non-negative integer the string spells in decimal digits (leading
    /// zeros allowed), −1 if it is empty or has any other character.
    pub fn to_int(&self) -> BigInt {
        if self.is_empty() || !self.chars.iter().all(|&c| is_decimal_digit(c)) {
            return BigInt::from(-1);
        }
        let digits: Vec<u8> = self
            .chars
            .iter()
            .map(|&c| (c - u32::from(b'0')) as u8)
            .collect();
        BigInt::from_radix_be(num_bigint::Sign::Plus, &digits, 10).expect("decimal digits")
    }

    /// `str.from_int`: the decimal digits of a non-negative integer (no leading zeros),
    /// "" for a negative one.
    pub fn from_int(value: &BigInt) -> SmtString {
        if value.is_negative() {
            return SmtString::new();
        }
        SmtString {
            chars: value.to_str_radix(10).bytes().map(u32::from).collect(),
        }
    }

    /// `str.<`: strictly before in the lexicographic order of code points.
    pub fn str_lt(&self, other: &SmtString) -> bool {
        self < other
    }

    /// `str.<=`: `str.<` or equal.
    pub fn str_le(&self, other: &SmtString) -> bool {
        self <= other
    }

    /// An Int argument as a position in the string, if it is one of 0..=len.
    fn position(&self, index: &BigInt) -> Option<usize> {
        index.to_usize().filter(|&i| i <= self.len())
    }

    /// The first occurrence of `pattern` starting at or after `from` (≤ len).
    fn find_from(&self, pattern: &SmtString, from: usize) -> Option<usize> {
        if pattern.len() > self.len().saturating_sub(from) {
            return None;
        }
        if pattern.is_empty() {
            return Some(from);
        }
        self.chars[from..]
            .windows(pattern.len())
            .position(|window| window == pattern.chars.as_slice())
            .map(|i| from + i)
    }

    /// The string with `start..end` replaced.
    fn splice(&self, start: usize, end: usize, replacement: &SmtString) -> SmtString {
        let mut chars = Vec::with_capacity(self.len() - (end - start) + replacement.len());
        chars.extend_from_slice(&self.chars[..start]);
        chars.extend_from_slice(&replacement.chars);
        chars.extend_from_slice(&self.chars[end..]);
        SmtString { chars }
    }
}

impl fmt::Display for SmtString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_literal())
    }
}

impl fmt::Debug for SmtString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SmtString({})", self.to_literal())
    }
}

fn is_decimal_digit(c: u32) -> bool {
    (u32::from(b'0')..=u32::from(b'9')).contains(&c)
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
    Ok(SmtString { chars: out })
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
    SmtString { chars: out }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> SmtString {
        SmtString::from_text(text).unwrap()
    }

    fn int(value: i64) -> BigInt {
        BigInt::from(value)
    }

    fn parse(text: &str) -> SmtString {
        SmtString::parse_literal(text, Dialect::Smtlib26).unwrap()
    }

    fn legacy(text: &str) -> Vec<u32> {
        SmtString::parse_literal(text, Dialect::Z3Legacy)
            .unwrap()
            .code_points()
            .to_vec()
    }

    #[test]
    fn smtlib26_literals() {
        assert_eq!(parse(""), s(""));
        assert_eq!(parse("a\"\"b"), s("a\"b"));
        assert_eq!(
            parse("\\u0041\\u{42}\\u{043}\\u{0044}\\u{00045}"),
            s("ABCDE")
        );
        assert_eq!(parse("\\u{2FFFF}").code_points(), [0x2ffff]);
        assert_eq!(parse("\\ud800").code_points(), [0xd800]);
        // Not escapes: the characters stand for themselves.
        assert_eq!(parse("\\u{30000}"), s("\\u{30000}"));
        assert_eq!(parse("\\u{}"), s("\\u{}"));
        assert_eq!(parse("\\u{000041}"), s("\\u{000041}"));
        assert_eq!(parse("\\u004"), s("\\u004"));
        assert_eq!(parse("\\x41\\n\\\\"), s("\\x41\\n\\\\"));
        assert_eq!(parse("\\u{41"), s("\\u{41"));
        assert_eq!(parse("é"), s("é"));
        // The escape's hex digits are case-insensitive.
        assert_eq!(parse("\\u{fF}").code_points(), [0xff]);
        assert_eq!(
            SmtString::parse_literal("a\"b", Dialect::Smtlib26),
            Err(LiteralError::LoneQuote { offset: 1 })
        );
        assert_eq!(
            SmtString::parse_literal("ab\"", Dialect::Z3Legacy),
            Err(LiteralError::LoneQuote { offset: 2 })
        );
        assert!(matches!(
            SmtString::parse_literal("a\u{e0001}", Dialect::Smtlib26),
            Err(LiteralError::OutsideAlphabet {
                offset: 1,
                code: 0xe0001
            })
        ));
    }

    #[test]
    fn z3_legacy_literals() {
        assert_eq!(legacy("\\x41\\xAbc"), [0x41, 0xab, 0x63]);
        assert_eq!(
            legacy("\\a\\b\\f\\n\\r\\t\\v\\\\"),
            [7, 8, 12, 10, 13, 9, 11, 0x5c]
        );
        assert_eq!(
            legacy("\\0\\08\\101\\1234\\400\\7777"),
            [0, 0, 0x38, 0x41, 0x53, 0x34, 0, 0xff, 0x37]
        );
        // Incomplete or unknown escapes drop the backslash; a final one stays.
        assert_eq!(legacy("\\x4g"), [0x78, 0x34, 0x67]);
        assert_eq!(
            legacy("\\u{41}"),
            "u{41}".bytes().map(u32::from).collect::<Vec<_>>()
        );
        assert_eq!(legacy("\\q\\X"), [0x71, 0x58]);
        assert_eq!(legacy("a\\"), [0x61, 0x5c]);
        assert_eq!(legacy("\\\"\""), [0x22]);
        // Beyond ASCII: the UTF-8 bytes.
        assert_eq!(legacy("é"), [0xc3, 0xa9]);
        assert_eq!(Dialect::Z3Legacy.max_char(), 255);
    }

    #[test]
    fn literals_print_and_read_back() {
        let odd =
            SmtString::from_code_points([0x22, 0x5c, 0x41, 0x7e, 0x7f, 0, 0xd800, 0x2ffff, 0x20])
                .unwrap();
        assert_eq!(
            odd.to_literal(),
            "\"\"\"\\u{5c}A~\\u{7f}\\u{0}\\u{d800}\\u{2ffff} \""
        );
        let body = odd.to_literal();
        assert_eq!(parse(&body[1..body.len() - 1]), odd);
        // A backslash followed by u{..} text must not turn into an escape on reading back.
        let tricky = s("\\u{41}");
        let body = tricky.to_literal();
        assert_eq!(parse(&body[1..body.len() - 1]), tricky);
        assert_eq!(format!("{}", s("a")), "\"a\"");
        assert_eq!(
            SmtString::from_code_points([0x30000]),
            Err(OutsideAlphabet(0x30000))
        );
    }

    #[test]
    fn substrings_out_of_range_are_empty() {
        let abc = s("abc");
        assert_eq!(abc.at(&int(0)), s("a"));
        assert_eq!(abc.at(&int(2)), s("c"));
        assert_eq!(abc.at(&int(3)), s(""));
        assert_eq!(abc.at(&int(-1)), s(""));
        assert_eq!(abc.substr(&int(1), &int(5)), s("bc"));
        assert_eq!(abc.substr(&int(1), &int(0)), s(""));
        assert_eq!(abc.substr(&int(1), &int(-2)), s(""));
        assert_eq!(abc.substr(&int(3), &int(1)), s(""));
        assert_eq!(abc.substr(&int(-1), &int(2)), s(""));
        let huge = BigInt::from(10).pow(30);
        assert_eq!(abc.substr(&int(0), &huge), abc);
        assert_eq!(abc.substr(&huge, &huge), s(""));
        assert_eq!(abc.at(&-huge), s(""));
        assert_eq!(s("").substr(&int(0), &int(1)), s(""));
    }

    #[test]
    fn searching() {
        let abab = s("abab");
        assert!(
            s("ab").is_prefix_of(&abab)
                && !s("b").is_prefix_of(&abab)
                && s("").is_prefix_of(&s(""))
        );
        assert!(s("ab").is_suffix_of(&abab) && !s("abc").is_suffix_of(&s("bc")));
        assert!(abab.contains(&s("ba")) && abab.contains(&s("")) && !abab.contains(&s("aa")));
        assert!(!s("").contains(&s("a")));
        assert_eq!(abab.index_of(&s("b"), &int(0)), int(1));
        assert_eq!(abab.index_of(&s("b"), &int(2)), int(3));
        assert_eq!(abab.index_of(&s("b"), &int(4)), int(-1));
        assert_eq!(abab.index_of(&s("ab"), &int(-1)), int(-1));
        // The empty pattern is found at every position 0..=len, and nowhere else.
        for i in 0..=4 {
            assert_eq!(abab.index_of(&s(""), &int(i)), int(i));
        }
        assert_eq!(abab.index_of(&s(""), &int(5)), int(-1));
        assert_eq!(abab.index_of(&s(""), &int(-1)), int(-1));
        assert_eq!(s("").index_of(&s(""), &int(0)), int(0));
        assert_eq!(abab.index_of(&s("abc"), &int(0)), int(-1));
        assert_eq!(abab.index_of(&s("a"), &BigInt::from(10).pow(20)), int(-1));
    }

    #[test]
    fn replacing() {
        let abab = s("abab");
        assert_eq!(abab.replace(&s("b"), &s("xy")), s("axyab"));
        assert_eq!(abab.replace(&s(""), &s("x")), s("xabab"));
        assert_eq!(abab.replace(&s("c"), &s("x")), abab);
        assert_eq!(s("").replace(&s(""), &s("x")), s("x"));
        assert_eq!(abab.replace_all(&s("b"), &s("xy")), s("axyaxy"));
        assert_eq!(abab.replace_all(&s(""), &s("x")), abab);
        assert_eq!(s("aaa").replace_all(&s("aa"), &s("b")), s("ba"));
        assert_eq!(s("aaa").replace_all(&s("a"), &s("aa")), s("aaaaaa"));
    }

    #[test]
    fn replacing_regex_matches() {
        let a_star = Regex::literal(&s("a")).star();
        let a_plus = Regex::literal(&s("a")).plus();
        // The empty match at 0 is the leftmost shortest.
        assert_eq!(s("baab").replace_re(&a_star, &s("x")), s("xbaab"));
        assert_eq!(s("baab").replace_re(&a_plus, &s("x")), s("bxab"));
        assert_eq!(s("bbb").replace_re(&a_plus, &s("x")), s("bbb"));
        assert_eq!(s("baab").replace_re_all(&a_star, &s("x")), s("bxxb"));
        assert_eq!(s("baab").replace_re_all(&a_plus, &s("x")), s("bxxb"));
        assert_eq!(s("").replace_re(&a_star, &s("x")), s("x"));
        assert_eq!(s("").replace_re_all(&a_star, &s("x")), s(""));
        assert_eq!(s("abc").replace_re(&Regex::none(), &s("x")), s("abc"));
        let ab_or_b = Regex::literal(&s("ab")).union(&Regex::literal(&s("b")));
        assert_eq!(
            s("aab").replace_re(&ab_or_b, &s("x")),
            s("ax"),
            "leftmost wins over shortest"
        );
        assert!(s("aab").in_re(&ab_or_b.complement()));
    }

    #[test]
    fn order_is_lexicographic_by_code_point() {
        assert!(s("").str_lt(&s("a")) && s("a").str_lt(&s("aa")) && s("ab").str_lt(&s("b")));
        assert!(!s("a").str_lt(&s("a")) && s("a").str_le(&s("a")) && s("").str_le(&s("")));
        assert!(s("Z").str_lt(&s("a")) && s("z").str_lt(&s("é")));
        let surrogate = SmtString::from_code_points([0xd800]).unwrap();
        assert!(surrogate.str_lt(&s("\u{e000}")) && s("\u{d7ff}").str_lt(&surrogate));
    }

    #[test]
    fn conversions() {
        assert_eq!(s("").to_int(), int(-1));
        assert_eq!(s("007").to_int(), int(7));
        assert_eq!(s("-1").to_int(), int(-1));
        assert_eq!(s("1a").to_int(), int(-1));
        assert_eq!(s("٣").to_int(), int(-1), "only ASCII digits");
        assert_eq!(
            s("123456789012345678901234567890").to_int(),
            "123456789012345678901234567890".parse().unwrap()
        );
        assert_eq!(SmtString::from_int(&int(0)), s("0"));
        assert_eq!(SmtString::from_int(&int(-5)), s(""));
        assert_eq!(SmtString::from_int(&int(120)), s("120"));
        assert!(
            s("7").is_digit() && !s("77").is_digit() && !s("").is_digit() && !s("a").is_digit()
        );
        assert_eq!(s("a").to_code(), int(97));
        assert_eq!(s("").to_code(), int(-1));
        assert_eq!(s("ab").to_code(), int(-1));
        assert_eq!(SmtString::from_code(&int(97)), s("a"));
        assert_eq!(SmtString::from_code(&int(0x2ffff)).code_points(), [0x2ffff]);
        assert_eq!(SmtString::from_code(&int(0x30000)), s(""));
        assert_eq!(SmtString::from_code(&int(-1)), s(""));
        assert_eq!(SmtString::from_code(&BigInt::from(10).pow(20)), s(""));
        assert_eq!(s("ab").concat(&s("c")), s("abc"));
        assert_eq!(s("a\u{10000}").len(), 2);
    }
}
