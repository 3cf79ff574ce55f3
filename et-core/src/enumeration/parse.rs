//! Reading a formula back into a term of the grammar, for `et rank`.
//!
//! Input and grammar tokens are both cut into SMT-LIB atoms (parentheses, string
//! literals, symbols), so matching ignores whitespace and a token such as
//! `(_ BitVec 64)` matches however it is spaced. The grammar is context-free, possibly
//! ambiguous or left-recursive, so parsing computes the set of end positions of every
//! (rule, position) as a fixpoint, then reads off the first derivation in alternative
//! order.

use std::collections::{HashMap, HashSet};

use crate::grammar::{Grammar, Item, NtId};

use super::term::Term;

/// A formula that is not in the grammar's language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A token did not fit: names the first token where every derivation fails.
    #[error("not a formula of grammar `{grammar}`: it fails at token {position} `{found}`; expected {expected}")]
    Mismatch {
        /// The grammar's name.
        grammar: String,
        /// 1-based atom position in the input.
        position: usize,
        /// The offending token (or `end of input`).
        found: String,
        /// What the grammar allows there.
        expected: String,
    },
    /// The input is empty.
    #[error("empty formula")]
    Empty,
    /// Parentheses nested deeper than any formula et enumerates can be.
    #[error("the formula nests parentheses {depth} levels deep; formulas of size up to {max_size} (the largest et enumerates) nest at most {max} levels", max_size = super::MAX_SIZE)]
    TooDeep {
        /// The formula's nesting depth.
        depth: usize,
        /// [`MAX_DEPTH`].
        max: usize,
    },
}

/// The deepest parenthesis nesting [`FormulaParser::parse`] accepts. Each nesting level
/// of a formula is a `"("` token, which costs 1 in et's cost model, plus at most a few
/// levels inside multi-atom tokens such as `(_ BitVec 64)`; so no formula of size up to
/// [`MAX_SIZE`](super::MAX_SIZE) is deeper, and the parser's recursion (a few frames per
/// level) stays far inside the main thread's stack.
pub const MAX_DEPTH: usize = super::MAX_SIZE as usize + 64;

/// The deepest nesting of `(` atoms.
fn depth(input: &[&str]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for atom in input {
        match *atom {
            "(" => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ")" => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Cuts text into SMT-LIB atoms: `(`, `)`, string literals (with `""` escapes),
/// `|quoted symbols|`, and maximal runs of other non-space characters.
pub fn atoms(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'(' || c == b')' {
            i += 1;
        } else if c == b'"' {
            i += 1;
            while i < bytes.len() {
                if bytes[i] == b'"' {
                    if bytes.get(i + 1) == Some(&b'"') {
                        i += 2;
                        continue;
                    }
                    i += 1;
                    break;
                }
                i += 1;
            }
        } else if c == b'|' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'|' {
                i += 1;
            }
            i = (i + 1).min(bytes.len());
        } else {
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && bytes[i] != b'('
                && bytes[i] != b')'
            {
                i += 1;
            }
        }
        out.push(&text[start..i]);
    }
    out
}

/// Parses formulas of one grammar.
pub struct FormulaParser<'g> {
    grammar: &'g Grammar,
    /// A formula of the grammar whose declarations a formula that lacks some of them
    /// is read with ([`FormulaParser::declaring`]).
    declaring: Option<String>,
    token_atoms: Vec<Vec<&'g str>>,
    costs: Vec<Vec<u32>>,
}

struct Run<'a> {
    input: Vec<&'a str>,
    ends: HashMap<(NtId, usize), Vec<usize>>,
    visited: HashSet<(NtId, usize)>,
    changed: bool,
    furthest: usize,
    expected: Vec<String>,
}

impl<'g> FormulaParser<'g> {
    /// Prepares the token atoms of a grammar.
    pub fn new(grammar: &'g Grammar) -> FormulaParser<'g> {
        FormulaParser {
            grammar,
            declaring: None,
            token_atoms: grammar.tokens.iter().map(|t| atoms(t)).collect(),
            costs: grammar
                .nonterminals
                .iter()
                .map(|nt| nt.alternatives.iter().map(|a| a.cost).collect())
                .collect(),
        }
    }

    /// Reads a formula that lacks some of the grammar's declarations (as triage reports
    /// a finding: only the constants it uses) as the grammar's formula that declares
    /// them all, taking them from `formula`, a formula of the grammar
    /// ([`Enumeration::first_text`](super::Enumeration::first_text)).
    pub fn declaring(mut self, formula: Option<String>) -> FormulaParser<'g> {
        self.declaring = formula;
        self
    }

    /// The derivation of `text` from the start rule (for a parser
    /// [`declaring`](FormulaParser::declaring) the grammar's declarations, of `text`
    /// with the ones it lacks put back, when only that reads).
    pub fn parse(&self, text: &str) -> Result<Term, ParseError> {
        let err = match self.parse_text(text) {
            Ok(term) => return Ok(term),
            Err(err) => err,
        };
        let restored = self
            .declaring
            .as_deref()
            .and_then(|all| super::declarations::restored(text, all));
        match restored {
            Some(full) => self.parse_text(&full).map_err(|_| err),
            None => Err(err),
        }
    }

    fn parse_text(&self, text: &str) -> Result<Term, ParseError> {
        let input = atoms(text);
        if input.is_empty() {
            return Err(ParseError::Empty);
        }
        let depth = depth(&input);
        if depth > MAX_DEPTH {
            return Err(ParseError::TooDeep {
                depth,
                max: MAX_DEPTH,
            });
        }
        if depth > 64 {
            // The parse recurses a few frames per nesting level: give a deep formula a
            // stack of its own, sized to its depth, whatever thread asked.
            let stack = (8 << 20) + depth * (32 << 10);
            return std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .name("et-parse".into())
                    .stack_size(stack)
                    .spawn_scoped(scope, || self.parse_atoms(input))
                    .expect("a parser thread can be started")
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
        }
        self.parse_atoms(input)
    }

    fn parse_atoms(&self, input: Vec<&str>) -> Result<Term, ParseError> {
        let mut run = Run {
            input,
            ends: HashMap::new(),
            visited: HashSet::new(),
            changed: true,
            furthest: 0,
            expected: Vec::new(),
        };
        let start = self.grammar.start;
        while run.changed {
            run.changed = false;
            run.visited.clear();
            self.ends(&mut run, start, 0);
        }
        let full = run.input.len();
        if run.ends[&(start, 0)].contains(&full) {
            let mut path = HashSet::new();
            if let Some(term) = self.build(&run, start, 0, full, &mut path) {
                return Ok(term);
            }
        }
        // A complete formula followed by more input (a script's `(get-model)`, say) fails
        // where the formula ends, not inside it where some alternative stopped matching.
        let longest = run.ends[&(start, 0)].iter().copied().max();
        if let Some(end) = longest.filter(|&end| end >= run.furthest && end < full) {
            return Err(ParseError::Mismatch {
                grammar: self.grammar.name.clone(),
                position: end + 1,
                found: run.input[end].to_string(),
                expected: "the end of the formula".to_string(),
            });
        }
        let position = run.furthest;
        let found = run
            .input
            .get(position)
            .map_or_else(|| "end of input".to_string(), |s| s.to_string());
        let mut expected = run.expected.clone();
        expected.sort();
        expected.dedup();
        let expected = if expected.is_empty() {
            "the end of the formula".to_string()
        } else {
            expected
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        Err(ParseError::Mismatch {
            grammar: self.grammar.name.clone(),
            position: position + 1,
            found,
            expected,
        })
    }

    fn ends(&self, run: &mut Run, nt: NtId, pos: usize) -> Vec<usize> {
        if !run.visited.insert((nt, pos)) {
            // In progress or done this round: use what is known (left recursion grows
            // through the outer fixpoint loop).
            return run.ends.get(&(nt, pos)).cloned().unwrap_or_default();
        }
        let mut found: Vec<usize> = Vec::new();
        for alt in &self.grammar.nonterminals[nt].alternatives {
            let mut positions = vec![pos];
            for item in &alt.items {
                let mut next = Vec::new();
                for &p in &positions {
                    match *item {
                        Item::Token(t) => {
                            if let Some(e) = self.match_token(run, t, p) {
                                next.push(e);
                            }
                        }
                        Item::Child(c) => next.extend(self.ends(run, c, p)),
                    }
                }
                next.sort_unstable();
                next.dedup();
                positions = next;
                if positions.is_empty() {
                    break;
                }
            }
            found.extend(positions);
        }
        found.sort_unstable();
        found.dedup();
        let known = run.ends.entry((nt, pos)).or_default();
        if *known != found {
            let mut merged = known.clone();
            merged.extend(found);
            merged.sort_unstable();
            merged.dedup();
            if merged != *known {
                *known = merged;
                run.changed = true;
            }
        }
        known.clone()
    }

    fn match_token(&self, run: &mut Run, token: usize, pos: usize) -> Option<usize> {
        let want = &self.token_atoms[token];
        for (i, atom) in want.iter().enumerate() {
            if run.input.get(pos + i) != Some(atom) {
                let at = pos + i;
                if at > run.furthest {
                    run.furthest = at;
                    run.expected.clear();
                }
                if at == run.furthest {
                    run.expected.push(atom.to_string());
                }
                return None;
            }
        }
        Some(pos + want.len())
    }

    /// The first derivation of `nt` spanning pos..end, avoiding cyclic unit derivations.
    fn build(
        &self,
        run: &Run,
        nt: NtId,
        pos: usize,
        end: usize,
        path: &mut HashSet<(NtId, usize, usize)>,
    ) -> Option<Term> {
        if !path.insert((nt, pos, end)) {
            return None;
        }
        let mut result = None;
        for (a, alt) in self.grammar.nonterminals[nt]
            .alternatives
            .iter()
            .enumerate()
        {
            if let Some(children) = self.build_items(run, &alt.items, pos, end, path) {
                let size = self.costs[nt][a] + children.iter().map(|c| c.size).sum::<u32>();
                result = Some(Term::new(nt, a as u32, size, children));
                break;
            }
        }
        path.remove(&(nt, pos, end));
        result
    }

    fn build_items(
        &self,
        run: &Run,
        items: &[Item],
        pos: usize,
        end: usize,
        path: &mut HashSet<(NtId, usize, usize)>,
    ) -> Option<Vec<Term>> {
        let Some((first, rest)) = items.split_first() else {
            return (pos == end).then(Vec::new);
        };
        match *first {
            Item::Token(t) => {
                let want = &self.token_atoms[t];
                let fits = want
                    .iter()
                    .enumerate()
                    .all(|(i, a)| run.input.get(pos + i) == Some(a));
                if fits {
                    self.build_items(run, rest, pos + want.len(), end, path)
                } else {
                    None
                }
            }
            Item::Child(c) => {
                let ends = run.ends.get(&(c, pos))?;
                for &mid in ends.iter().filter(|&&e| e <= end) {
                    if let Some(mut tail) = self.build_items(run, rest, mid, end, path) {
                        if let Some(child) = self.build(run, c, pos, mid, path) {
                            tail.insert(0, child);
                            return Some(tail);
                        }
                    }
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoms_ignore_spacing() {
        assert_eq!(
            atoms("(declare-const a (_ BitVec 64))"),
            vec![
                "(",
                "declare-const",
                "a",
                "(",
                "_",
                "BitVec",
                "64",
                ")",
                ")"
            ]
        );
        assert_eq!(
            atoms(r#"(= "" "a""b")"#),
            vec!["(", "=", "\"\"", "\"a\"\"b\"", ")"]
        );
    }

    #[test]
    fn input_after_a_whole_formula_fails_where_the_formula_ends() {
        let grammar = crate::builtins::load("strings").unwrap();
        let formula =
            "(declare-const a String) (declare-const b String) (assert (not (str.<= \"a\" \"\"))) (check-sat)";
        let parser = FormulaParser::new(&grammar);
        assert!(parser.parse(formula).is_ok());
        let err = parser
            .parse(&format!("{formula}\n(get-model)"))
            .unwrap_err();
        let atoms_of_formula = atoms(formula).len();
        assert_eq!(
            err,
            ParseError::Mismatch {
                grammar: "strings".into(),
                position: atoms_of_formula + 1,
                found: "(".into(),
                expected: "the end of the formula".into(),
            }
        );
    }
}
