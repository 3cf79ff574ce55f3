//! What a terminal's text holds when read as SMT-LIB: the commands it names, what it
//! does to the assertion stack and the characters of its string literals. A terminal is
//! read on its own (a string literal or comment opened in one terminal and closed in
//! another is not followed).

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
    /// A simple symbol (or numeral: anything of symbol characters).
    Symbol(&'t str),
    /// The characters inside a string literal, `""` still doubled.
    Literal(&'t str),
    /// Anything else but white space and comments: a bracket, a keyword (`:named`), a
    /// quoted symbol (`|x y|`), another character.
    Other,
}

/// Splits a terminal into simple symbols, string literals and the rest, skipping
/// comments and white space. An unterminated literal runs to the end.
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
                return Some(Piece::Other);
            }
            ';' => rest = rest.find('\n').map_or("", |end| &rest[end..]),
            ':' => {
                let body = &rest[1..];
                rest = &body[body.find(|d| !is_symbol_char(d)).unwrap_or(body.len())..];
                return Some(Piece::Other);
            }
            c if is_symbol_char(c) => {
                let end = rest.find(|d| !is_symbol_char(d)).unwrap_or(rest.len());
                let symbol = &rest[..end];
                rest = &rest[end..];
                return Some(Piece::Symbol(symbol));
            }
            c if c.is_whitespace() => rest = &rest[c.len_utf8()..],
            c => {
                rest = &rest[c.len_utf8()..];
                return Some(Piece::Other);
            }
        }
    })
}

/// A command that moves the assertion stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackCommand {
    /// `(push n)`.
    Push(u64),
    /// `(pop n)`.
    Pop(u64),
    /// `(reset-assertions)` or `(reset)`: back to level 0.
    Reset,
}

/// What a terminal does to the assertion stack, read on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StackScan {
    /// The numeral the terminal starts with: the level of a `push` or `pop` that ends
    /// the terminal before it (`"pop" ~ "1"`).
    pub leading_numeral: Option<u64>,
    /// Its `push`, `pop` (with their levels) and resets, in order.
    pub commands: Vec<StackCommand>,
    /// A `push` or `pop` that ends the terminal (`"(pop"`, `"pop"`): its level must be
    /// the next terminal. `true` for `push`.
    pub open: Option<bool>,
    /// A `push` or `pop` followed by something else than a numeral in the terminal
    /// (`"(pop)"`, `"(push x)"`): its name.
    pub bad_level: Option<&'static str>,
}

impl StackScan {
    /// Whether the terminal names a stack command.
    pub fn moves(&self) -> bool {
        !self.commands.is_empty() || self.open.is_some() || self.bad_level.is_some()
    }
}

/// The value of an SMT-LIB numeral (`0` or digits without a leading zero); one beyond
/// `u64` counts as `u64::MAX`.
pub fn numeral(symbol: &str) -> Option<u64> {
    let digits = !symbol.is_empty() && symbol.bytes().all(|b| b.is_ascii_digit());
    (digits && (symbol == "0" || !symbol.starts_with('0')))
        .then(|| symbol.parse().unwrap_or(u64::MAX))
}

/// Reads what a terminal does to the assertion stack: the symbols `push` and `pop`
/// (each followed by its level, a numeral) and `reset-assertions` and `reset`, outside
/// string literals, quoted symbols and comments.
pub fn stack_scan(text: &str) -> StackScan {
    let mut scan = StackScan::default();
    let mut pieces = pieces(text).peekable();
    if let Some(Piece::Symbol(s)) = pieces.peek() {
        scan.leading_numeral = numeral(s);
    }
    while let Some(piece) = pieces.next() {
        let Piece::Symbol(symbol) = piece else {
            continue;
        };
        match symbol {
            "push" | "pop" => {
                let push = symbol == "push";
                match pieces.peek() {
                    None => scan.open = Some(push),
                    Some(Piece::Symbol(s)) if numeral(s).is_some() => {
                        let level = numeral(s).expect("a numeral");
                        pieces.next();
                        scan.commands.push(if push {
                            StackCommand::Push(level)
                        } else {
                            StackCommand::Pop(level)
                        });
                    }
                    Some(_) => {
                        scan.bad_level
                            .get_or_insert(if push { "push" } else { "pop" });
                    }
                }
            }
            "reset" | "reset-assertions" => scan.commands.push(StackCommand::Reset),
            _ => {}
        }
    }
    scan
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
    fn stack_commands_with_their_levels() {
        use StackCommand::*;
        assert_eq!(stack_scan("(push 1)").commands, [Push(1)]);
        assert_eq!(stack_scan("(pop 2) (push 10)").commands, [Pop(2), Push(10)]);
        assert_eq!(
            stack_scan("(reset-assertions) (reset)").commands,
            [Reset, Reset]
        );
        assert_eq!(stack_scan("(pop").open, Some(false));
        assert_eq!(stack_scan("push ; a comment").open, Some(true));
        assert_eq!(stack_scan("(pop)").bad_level, Some("pop"));
        assert_eq!(stack_scan("(push x)").bad_level, Some("push"));
        assert_eq!(stack_scan("(push 01)").bad_level, Some("push"));
        assert_eq!(stack_scan("(pop |1|)").bad_level, Some("pop"));
        assert_eq!(stack_scan("1)").leading_numeral, Some(1));
        assert_eq!(stack_scan("(1)").leading_numeral, None);
        assert_eq!(
            stack_scan("99999999999999999999999").leading_numeral,
            Some(u64::MAX)
        );
        // Not commands: in a literal, a quoted symbol, a keyword, a comment, a longer name.
        for text in [
            "\"(pop 1)\"",
            "|pop|",
            ":pop",
            "; (pop 1)",
            "pops",
            "my-push",
        ] {
            assert!(!stack_scan(text).moves(), "{text}");
        }
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
