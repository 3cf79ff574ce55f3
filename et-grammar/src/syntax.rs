//! Reads the text of a `.pest` file into rules and expressions, keeping the position
//! of every construct. pest_meta does the parsing; this module walks its parse tree
//! itself (rather than using pest_meta's AST) because the AST drops the positions of
//! expressions and its validator rejects left recursion, which is fine in a CFG.

use std::iter::Peekable;
use std::str::CharIndices;

use pest::error::{ErrorVariant, InputLocation, LineColLocation};
use pest::iterators::Pair;
use pest_meta::parser::{self, Rule as Meta};

use super::diagnostic::{Diagnostic, Position};

/// The largest repeat count `e{n}`, `e{m,}`, `e{,n}`, `e{m,n}` may use. A count is a
/// number of copies et really expands (`e{n}` is `e` written n times), so it is bounded
/// like any other size of the model; formulas this long are far past what a solver
/// test needs.
pub const MAX_REPEAT: u32 = 100_000;

/// The deepest nesting of `( )`, `{ }` and `[ ]` a grammar file may use. pest_meta's
/// parser and the walk over its parse tree recurse once per level; the bound keeps
/// them far inside the smallest thread stack et runs them on.
pub const MAX_NESTING: usize = 256;

/// A rule as written: `name = { expr }`.
#[derive(Debug, Clone)]
pub struct RuleDef {
    /// The rule's name.
    pub name: String,
    /// Where the rule's name starts.
    pub position: Position,
    /// Its right-hand side.
    pub expr: Expr,
}

/// A right-hand side expression, restricted to what a CFG can mean.
#[derive(Debug, Clone)]
pub enum Expr {
    /// A string literal: one terminal token (unescaped).
    Token(String, Position),
    /// A reference to another rule.
    Ref(String, Position),
    /// `a ~ b ~ c`.
    Seq(Vec<Expr>),
    /// `a | b | c`.
    Choice(Vec<Expr>, Position),
    /// `e?`, `e*`, `e+`, `e{n}`, `e{m,}`, `e{,n}`, `e{m,n}`: at least `min`, at most `max`.
    Repeat {
        /// The repeated expression.
        expr: Box<Expr>,
        /// Fewest repetitions.
        min: u32,
        /// Most repetitions; `None` is unbounded.
        max: Option<u32>,
        /// Where the operator is.
        position: Position,
    },
}

/// A parsed grammar file: its rules and its `//!` documentation.
#[derive(Debug, Clone)]
pub struct GrammarSource {
    /// The rules in file order.
    pub rules: Vec<RuleDef>,
    /// The `//!` lines, joined with newlines.
    pub doc: String,
}

/// pest's built-in rules: they match characters, not tokens, so they have no place in
/// a grammar of formulas.
const BUILTIN_RULES: &[&str] = &[
    "ANY",
    "SOI",
    "EOI",
    "PEEK",
    "PEEK_ALL",
    "POP",
    "POP_ALL",
    "DROP",
    "NEWLINE",
    "ASCII",
    "ASCII_DIGIT",
    "ASCII_NONZERO_DIGIT",
    "ASCII_BIN_DIGIT",
    "ASCII_OCT_DIGIT",
    "ASCII_HEX_DIGIT",
    "ASCII_ALPHA_LOWER",
    "ASCII_ALPHA_UPPER",
    "ASCII_ALPHA",
    "ASCII_ALPHANUMERIC",
];

/// Parses grammar text; `file` is only used in diagnostics. Returns every problem found.
pub fn parse(file: &str, text: &str) -> Result<GrammarSource, Vec<Diagnostic>> {
    if let Some(offset) = too_deep(text) {
        return Err(vec![Diagnostic {
            file: file.to_string(),
            position: position_at(text, offset),
            message: format!(
                "brackets are nested more than {MAX_NESTING} levels deep here; split the \
                 expression into rules"
            ),
        }]);
    }
    let pairs =
        parser::parse(Meta::grammar_rules, text).map_err(|e| vec![syntax_error(file, text, e)])?;
    let mut reader = Reader {
        file,
        problems: Vec::new(),
    };
    let mut rules = Vec::new();
    let mut doc = Vec::new();
    for pair in pairs {
        match pair.as_rule() {
            Meta::grammar_doc => doc.push(doc_text(pair)),
            Meta::grammar_rule => {
                if let Some(rule) = reader.rule(pair) {
                    rules.push(rule);
                }
            }
            _ => {}
        }
    }
    if reader.problems.is_empty() {
        Ok(GrammarSource {
            rules,
            doc: doc.join("\n"),
        })
    } else {
        Err(reader.problems)
    }
}

fn doc_text(pair: Pair<Meta>) -> String {
    pair.into_inner()
        .map(|p| p.as_str().trim().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn position(pair: &Pair<Meta>) -> Position {
    let (line, column) = pair.as_span().start_pos().line_col();
    Position { line, column }
}

struct Reader<'f> {
    file: &'f str,
    problems: Vec<Diagnostic>,
}

impl Reader<'_> {
    fn problem(&mut self, position: Position, message: String) {
        self.problems.push(Diagnostic {
            file: self.file.to_string(),
            position,
            message,
        });
    }

    fn rule(&mut self, pair: Pair<Meta>) -> Option<RuleDef> {
        let mut inner = pair.into_inner();
        let first = inner.next()?;
        if first.as_rule() == Meta::line_doc {
            return None;
        }
        let name = first.as_str().to_string();
        let position = position(&first);
        // Modifiers (silent, atomic, ...) change how pest builds parse trees and skips
        // whitespace; neither matters to a formula grammar, so they are accepted.
        let expr_pair = inner.find(|p| p.as_rule() == Meta::expression)?;
        let expr = self.expression(&name, expr_pair)?;
        Some(RuleDef {
            name,
            position,
            expr,
        })
    }

    /// `expression = choice_operator? ~ term ~ (infix_operator ~ term)*`: `~` binds
    /// tighter than `|`.
    fn expression(&mut self, rule: &str, pair: Pair<Meta>) -> Option<Expr> {
        let position = position(&pair);
        let mut alternatives: Vec<Vec<Expr>> = vec![Vec::new()];
        let mut ok = true;
        for p in pair.into_inner() {
            match p.as_rule() {
                // A leading `|` (allowed by pest) opens no empty alternative.
                Meta::choice_operator if !alternatives.last().is_some_and(Vec::is_empty) => {
                    alternatives.push(Vec::new());
                }
                Meta::sequence_operator => {}
                Meta::term => match self.term(rule, p) {
                    Some(e) => alternatives.last_mut().expect("never empty").push(e),
                    None => ok = false,
                },
                _ => {}
            }
        }
        if !ok {
            return None;
        }
        let mut choices: Vec<Expr> = alternatives.into_iter().map(seq).collect();
        Some(if choices.len() == 1 {
            choices.pop().expect("one")
        } else {
            Expr::Choice(choices, position)
        })
    }

    fn term(&mut self, rule: &str, pair: Pair<Meta>) -> Option<Expr> {
        let mut expr: Option<Expr> = None;
        let mut ok = true;
        for p in pair.into_inner() {
            let at = position(&p);
            match p.as_rule() {
                // `#tag = e` only labels a node in pest's parse tree.
                Meta::tag_id | Meta::assignment_operator => {}
                Meta::positive_predicate_operator | Meta::negative_predicate_operator => {
                    self.problem(
                        at,
                        format!(
                            "rule `{rule}` uses the lookahead `{}`: a lookahead matches no \
                             token, so it has no meaning in a grammar of formulas",
                            p.as_str()
                        ),
                    );
                    ok = false;
                }
                Meta::opening_paren | Meta::closing_paren => {}
                Meta::expression => match self.expression(rule, p) {
                    Some(e) => expr = Some(e),
                    None => ok = false,
                },
                Meta::string => match unescape(p.as_str()) {
                    Some(s) => expr = Some(Expr::Token(s, at)),
                    None => {
                        self.problem(
                            at,
                            format!(
                                "rule `{rule}` has a string with a bad escape: {}",
                                p.as_str()
                            ),
                        );
                        ok = false;
                    }
                },
                Meta::identifier => {
                    let name = p.as_str();
                    if BUILTIN_RULES.contains(&name) || name.starts_with("ASCII_") {
                        self.problem(
                            at,
                            format!(
                                "rule `{rule}` uses pest's built-in rule `{name}`, which matches \
                                 characters rather than tokens; write the tokens as string literals"
                            ),
                        );
                        ok = false;
                    } else {
                        expr = Some(Expr::Ref(name.to_string(), at));
                    }
                }
                Meta::_push | Meta::_push_literal | Meta::peek_slice => {
                    self.problem(
                        at,
                        format!(
                            "rule `{rule}` uses the stack operation `{}`: the stack makes a \
                             grammar context-sensitive, and et enumerates context-free grammars",
                            p.as_str().split('(').next().unwrap_or("").trim()
                        ),
                    );
                    ok = false;
                }
                Meta::insensitive_string => {
                    self.problem(
                        at,
                        format!(
                            "rule `{rule}` uses the case-insensitive string {}: it has no single \
                             printed form; list the spellings as alternatives",
                            p.as_str()
                        ),
                    );
                    ok = false;
                }
                Meta::range => {
                    self.problem(
                        at,
                        format!(
                            "rule `{rule}` uses the character range {}: ranges match characters, \
                             not tokens; list the tokens as alternatives",
                            p.as_str()
                        ),
                    );
                    ok = false;
                }
                Meta::optional_operator => expr = expr.map(|e| repeat(e, 0, Some(1), at)),
                Meta::repeat_operator => expr = expr.map(|e| repeat(e, 0, None, at)),
                Meta::repeat_once_operator => expr = expr.map(|e| repeat(e, 1, None, at)),
                Meta::repeat_exact | Meta::repeat_min | Meta::repeat_max | Meta::repeat_min_max => {
                    let Some((min, max)) = bounds(&p) else {
                        self.problem(
                            at,
                            format!(
                                "rule `{rule}` repeats {} times: repeat counts are at most \
                                 {MAX_REPEAT}",
                                p.as_str().trim()
                            ),
                        );
                        ok = false;
                        continue;
                    };
                    if max.is_some_and(|m| m < min) {
                        self.problem(
                            at,
                            format!(
                                "rule `{rule}` repeats at least {min} but at most {max:?} times"
                            ),
                        );
                        ok = false;
                    }
                    expr = expr.map(|e| repeat(e, min, max, at));
                }
                other => {
                    self.problem(
                        at,
                        format!(
                            "rule `{rule}` uses `{}` ({other:?}), which et does not support",
                            p.as_str()
                        ),
                    );
                    ok = false;
                }
            }
        }
        if ok {
            expr
        } else {
            None
        }
    }
}

fn seq(mut items: Vec<Expr>) -> Expr {
    if items.len() == 1 {
        items.pop().expect("one")
    } else {
        Expr::Seq(items)
    }
}

fn repeat(expr: Expr, min: u32, max: Option<u32>, position: Position) -> Expr {
    Expr::Repeat {
        expr: Box::new(expr),
        min,
        max,
        position,
    }
}

/// `{n}`, `{m,}`, `{,n}`, `{m,n}` → (min, max); `None` if a count exceeds [`MAX_REPEAT`].
fn bounds(pair: &Pair<Meta>) -> Option<(u32, Option<u32>)> {
    let numbers = pair
        .clone()
        .into_inner()
        .filter(|p| p.as_rule() == Meta::number)
        .map(|p| p.as_str().parse::<u32>().ok().filter(|&n| n <= MAX_REPEAT))
        .collect::<Option<Vec<u32>>>()?;
    Some(match pair.as_rule() {
        Meta::repeat_exact => (numbers[0], Some(numbers[0])),
        Meta::repeat_min => (numbers[0], None),
        Meta::repeat_max => (0, Some(numbers[0])),
        _ => (numbers[0], Some(numbers[1])),
    })
}

/// Where (a byte offset) the bracket nesting of a grammar text first exceeds
/// [`MAX_NESTING`].
fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (offset, bracket) in Brackets::new(text) {
        if matches!(bracket, '(' | '{' | '[') {
            depth += 1;
            if depth > MAX_NESTING {
                return Some(offset);
            }
        } else {
            depth = depth.saturating_sub(1);
        }
    }
    None
}

/// The line and column of a byte offset of `text`, counted as pest counts them.
fn position_at(text: &str, offset: usize) -> Position {
    let (line, column) = pest::Position::new(text, offset)
        .expect("an offset inside the text")
        .line_col();
    Position { line, column }
}

/// pest_meta's parse error as a diagnostic. Two common slips get a sentence that names
/// the fix rather than the tokens pest expected: a bracket, literal or block comment
/// never closed (pest sees it only at the end of the file, or where the next rule
/// starts) is reported where it opens, and two items written side by side (pest
/// expected an operator after the first) are reported at the second as a missing `~`.
fn syntax_error(file: &str, text: &str, e: pest::error::Error<Meta>) -> Diagnostic {
    let diagnostic = |offset: usize, message: String| Diagnostic {
        file: file.to_string(),
        position: position_at(text, offset),
        message: format!("syntax error: {message}"),
    };
    let offset = match e.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    };
    let rest = skip_trivia(&text[offset..]);
    let next = text.len() - rest.len();
    if rest.is_empty() || starts_rule(rest) {
        if let Some((open, bracket)) = unclosed(text, next) {
            let close = match bracket {
                "(" => ")",
                "[" => "]",
                "{" => "}",
                "/*" => "*/",
                quote => quote,
            };
            let before = if rest.is_empty() {
                "the end of the file".to_string()
            } else {
                let at = position_at(text, next);
                format!("the next rule, at {}:{}", at.line, at.column)
            };
            return diagnostic(
                open,
                format!("this `{bracket}` is never closed: expected `{close}` before {before}"),
            );
        }
    }
    let after_term = matches!(
        &e.variant,
        ErrorVariant::ParsingError { positives, .. } if positives.contains(&Meta::sequence_operator)
    );
    if after_term && starts_term(rest) {
        return diagnostic(
            next,
            "expected `~` between two items of a sequence (or `|` between alternatives)"
                .to_string(),
        );
    }
    let e = e.renamed_rules(rename_meta_rule);
    let (line, column) = match e.line_col {
        LineColLocation::Pos(p) | LineColLocation::Span(p, _) => p,
    };
    Diagnostic {
        file: file.to_string(),
        position: Position { line, column },
        message: format!("syntax error: {}", e.variant.message()),
    }
}

/// pest_meta's names of its rules in error messages, but `~` for the sequence operator
/// (pest_meta 2.9 calls it `&`).
fn rename_meta_rule(rule: &Meta) -> String {
    match rule {
        Meta::sequence_operator => "`~`".to_string(),
        other => parser::rename_meta_rule(other),
    }
}

/// `text` from its first character that is neither whitespace (as pest_meta's) nor in a
/// comment (documentation comments included).
fn skip_trivia(mut text: &str) -> &str {
    loop {
        let trimmed = text.trim_start_matches([' ', '\t', '\r', '\n']);
        if trimmed.starts_with("//") {
            text = trimmed.find('\n').map_or("", |end| &trimmed[end..]);
        } else if trimmed.starts_with("/*") {
            let mut brackets = Brackets::new(trimmed);
            brackets.chars.nth(1);
            brackets.skip_block_comment(0);
            let end = brackets.chars.peek().map_or(trimmed.len(), |&(i, _)| i);
            text = &trimmed[end..];
        } else {
            return trimmed;
        }
    }
}

/// Whether `text` starts with a rule definition: a name, then `=`.
fn starts_rule(text: &str) -> bool {
    let name = text
        .find(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
        .unwrap_or(text.len());
    name > 0
        && !text.starts_with(|c: char| c.is_ascii_digit())
        && skip_trivia(&text[name..]).starts_with('=')
}

/// Whether `text` starts with what can start an item of an expression: a name, a
/// string, a character, a group, a prefix operator or a tag.
fn starts_term(text: &str) -> bool {
    text.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic() || "\"'(^&!#".contains(c))
}

/// The innermost bracket, literal or block comment still open at byte offset `end` of
/// `text`: its offset and how it opens.
fn unclosed(text: &str, end: usize) -> Option<(usize, &'static str)> {
    let mut open: Vec<(usize, &'static str)> = Vec::new();
    let mut brackets = Brackets::new(text);
    for (offset, bracket) in brackets.by_ref() {
        if offset >= end {
            break;
        }
        match bracket {
            '(' => open.push((offset, "(")),
            '{' => open.push((offset, "{")),
            '[' => open.push((offset, "[")),
            _ => {
                open.pop();
            }
        }
    }
    match brackets.unterminated {
        Some((offset, opening)) if offset < end => Some((offset, opening)),
        _ => open.pop(),
    }
}

/// The brackets `( ) { } [ ]` of grammar text with their byte offsets, outside string
/// and character literals and comments (block comments nest, as in pest).
struct Brackets<'t> {
    chars: Peekable<CharIndices<'t>>,
    /// A literal or block comment the text ends inside: where it opens, and how.
    unterminated: Option<(usize, &'static str)>,
}

impl<'t> Brackets<'t> {
    fn new(text: &'t str) -> Brackets<'t> {
        Brackets {
            chars: text.char_indices().peekable(),
            unterminated: None,
        }
    }

    /// Skips to after the quote closing the literal opened at `offset`.
    fn skip_literal(&mut self, offset: usize, quote: char) {
        while let Some((_, c)) = self.chars.next() {
            if c == '\\' {
                self.chars.next();
            } else if c == quote {
                return;
            }
        }
        self.unterminated = Some((offset, if quote == '"' { "\"" } else { "'" }));
    }

    /// Skips to after the `*/` closing the block comment whose `/*` is at `offset`.
    fn skip_block_comment(&mut self, offset: usize) {
        let mut depth = 1usize;
        while let Some((_, c)) = self.chars.next() {
            if c == '/' && self.chars.next_if(|&(_, c)| c == '*').is_some() {
                depth += 1;
            } else if c == '*' && self.chars.next_if(|&(_, c)| c == '/').is_some() {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
        }
        self.unterminated = Some((offset, "/*"));
    }
}

impl Iterator for Brackets<'_> {
    type Item = (usize, char);

    fn next(&mut self) -> Option<(usize, char)> {
        while let Some((offset, c)) = self.chars.next() {
            match c {
                '"' | '\'' => self.skip_literal(offset, c),
                '/' => {
                    if self.chars.next_if(|&(_, c)| c == '/').is_some() {
                        while self.chars.next_if(|&(_, c)| c != '\n').is_some() {}
                    } else if self.chars.next_if(|&(_, c)| c == '*').is_some() {
                        self.skip_block_comment(offset);
                    }
                }
                '(' | ')' | '{' | '}' | '[' | ']' => return Some((offset, c)),
                _ => {}
            }
        }
        None
    }
}

/// Unescapes a pest string literal including its quotes.
fn unescape(quoted: &str) -> Option<String> {
    let body = &quoted[1..quoted.len() - 1];
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            'u' => {
                let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let hex = rest.strip_prefix('{')?;
                out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_quotes_and_unicode() {
        assert_eq!(unescape(r#""\"\"""#).unwrap(), "\"\"");
        assert_eq!(unescape(r#""a\u{41}\x42""#).unwrap(), "aAB");
    }

    #[test]
    fn sequence_binds_tighter_than_choice() {
        let g = parse("t", r#"start = { "a" ~ "b" | "c" }"#).unwrap();
        match &g.rules[0].expr {
            Expr::Choice(alts, _) => {
                assert_eq!(alts.len(), 2);
                assert!(matches!(&alts[0], Expr::Seq(items) if items.len() == 2));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reads_grammar_doc() {
        let g = parse("t", "//! Boolean core.\nstart = { \"a\" }").unwrap();
        assert_eq!(g.doc, "Boolean core.");
    }

    #[test]
    fn lookahead_is_refused_with_position() {
        let errs = parse("g.pest", "start = {\n  !\"a\" ~ \"b\" }").unwrap_err();
        assert_eq!(errs[0].position, Position { line: 2, column: 3 });
        assert!(errs[0].message.contains("lookahead"), "{}", errs[0]);
    }
}
