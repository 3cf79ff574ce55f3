//! What a terminal's text holds when read as SMT-LIB: the commands it names and the
//! characters of its string literals. A terminal is read on its own (a string literal
//! or comment opened in one terminal and closed in another is not followed).

/// The commands that check satisfiability: a script needs one of them before et's
/// `(get-model)` means anything.
const CHECK_SAT: &[&str] = &["check-sat", "check-sat-assuming"];

/// Whether a character may appear as itself in an SMT-LIB string literal: printable
/// ASCII (32–126), and the white space (tab, line feed, carriage return) that SMT-LIB's
/// lexicon allows inside one. Everything else is written as an escape `\u{..}`.
pub fn literal_char_ok(c: char) -> bool {
    matches!(c, ' '..='~' | '\t' | '\n' | '\r')
}

/// Characters of an SMT-LIB simple symbol (SMT-LIB 2.6, §3.1).
fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c)
}

/// One lexical piece of a terminal's text.
enum Piece<'t> {
    /// A simple symbol (or numeral, keyword body: anything of symbol characters).
    Symbol(&'t str),
    /// The characters inside a string literal, `""` still doubled.
    Literal(&'t str),
}

/// Splits a terminal into simple symbols and string literals, skipping quoted symbols,
/// comments, brackets and white space. An unterminated literal runs to the end.
fn pieces(text: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = text;
    std::iter::from_fn(move || loop {
        let c = rest.chars().next()?;
        match c {
            '"' => {
                // The literal ends at a `"` not followed by another (`""` is a quote).
                let body = &rest[1..];
                let mut end = body.len();
                let mut i = 0;
                let bytes = body.as_bytes();
                while i < bytes.len() {
                    if bytes[i] == b'"' {
                        if bytes.get(i + 1) == Some(&b'"') {
                            i += 2;
                            continue;
                        }
                        end = i;
                        break;
                    }
                    i += 1;
                }
                rest = body.get(end + 1..).unwrap_or("");
                return Some(Piece::Literal(&body[..end]));
            }
            '|' => {
                let body = &rest[1..];
                rest = body.find('|').map_or("", |end| &body[end + 1..]);
            }
            ';' => rest = rest.find('\n').map_or("", |end| &rest[end..]),
            c if is_symbol_char(c) => {
                let end = rest.find(|d| !is_symbol_char(d)).unwrap_or(rest.len());
                let symbol = &rest[..end];
                rest = &rest[end..];
                return Some(Piece::Symbol(symbol));
            }
            c => rest = &rest[c.len_utf8()..],
        }
    })
}

/// Whether a terminal names `check-sat` or `check-sat-assuming` (as a symbol, not
/// inside a string literal, quoted symbol or comment).
pub fn checks_sat(text: &str) -> bool {
    pieces(text).any(|p| matches!(p, Piece::Symbol(s) if CHECK_SAT.contains(&s)))
}

/// The distinct characters of a terminal's string literals that a literal cannot hold
/// as themselves ([`literal_char_ok`]), in order of first appearance.
pub fn bad_literal_chars(text: &str) -> Vec<char> {
    let mut bad: Vec<char> = Vec::new();
    for piece in pieces(text) {
        if let Piece::Literal(body) = piece {
            for c in body.chars() {
                if !literal_char_ok(c) && !bad.contains(&c) {
                    bad.push(c);
                }
            }
        }
    }
    bad
}

/// The SMT-LIB escape of a character, `\u{e9}` for `é`.
pub fn escape(c: char) -> String {
    format!("\\u{{{:x}}}", u32::from(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_sat_is_a_symbol_outside_literals() {
        assert!(checks_sat("(check-sat)"));
        assert!(checks_sat("check-sat"));
        assert!(checks_sat("(check-sat-assuming (a))"));
        assert!(checks_sat("(assert a) (check-sat)"));
        assert!(!checks_sat("(check-sats)"));
        assert!(!checks_sat("my-check-sat"));
        assert!(!checks_sat("\"check-sat\""));
        assert!(!checks_sat("|check-sat|"));
        assert!(!checks_sat("; (check-sat)"));
        assert!(checks_sat("; c\n(check-sat)"));
        assert!(checks_sat("(= a \"x\"\"y\") (check-sat)"));
    }

    #[test]
    fn literal_characters_outside_printable_ascii() {
        assert_eq!(bad_literal_chars("\"é\""), ['é']);
        assert_eq!(bad_literal_chars("(= a \"aéb中é\")"), ['é', '中']);
        assert_eq!(bad_literal_chars("\"\\u{e9}\""), Vec::<char>::new());
        assert_eq!(bad_literal_chars("\"tab\tand\nline\""), Vec::<char>::new());
        assert_eq!(bad_literal_chars("\"bell\u{7}\""), ['\u{7}']);
        // Outside a literal (a quoted symbol, a comment) it is not a string's business.
        assert_eq!(bad_literal_chars("|é| ; é"), Vec::<char>::new());
        // `""` is a quote inside the literal, which goes on.
        assert_eq!(bad_literal_chars("\"a\"\"é\" b"), ['é']);
        // An unterminated literal runs to the end of the terminal.
        assert_eq!(bad_literal_chars("\"é"), ['é']);
        assert_eq!(escape('é'), "\\u{e9}");
        assert_eq!(escape('\u{1F600}'), "\\u{1f600}");
    }
}
