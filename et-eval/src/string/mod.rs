//! SMT-LIB 2.6 strings: sequences of code points 0..=0x2FFFF, their literal syntax (and
//! the byte-string dialect of z3 up to 4.8.10), and every `str.*` operation of the
//! UnicodeStrings theory with its total semantics (out-of-range arguments give the
//! standard's values, never an error).

use std::fmt;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive};
use thiserror::Error;

use crate::regex::Regex;

mod literal;
#[cfg(test)]
mod tests;

pub use literal::{Dialect, LiteralError};

/// The largest code point of SMT-LIB 2.6's string alphabet (the first three Unicode
/// planes; surrogates 0xD800..=0xDFFF are characters like any other).
pub const MAX_CODE_POINT: u32 = 0x2FFFF;

/// The largest character of z3's byte strings (releases up to 4.8.10).
pub const MAX_LEGACY_CHAR: u32 = 0xFF;

/// A code point outside SMT-LIB's string alphabet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("code point {0:#x} is outside the SMT-LIB string alphabet 0..=0x2FFFF")]
pub struct OutsideAlphabet(pub u32);

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
        literal::parse(text, dialect)
    }

    /// The SMT-LIB 2.6 literal, quotes included: printable ASCII as itself, `"` doubled,
    /// the backslash and everything else as `\u{…}`, so the literal reads back the same in
    /// any 2.6 reader.
    pub fn to_literal(&self) -> String {
        literal::print(&self.chars)
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
