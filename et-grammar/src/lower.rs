//! CFG → regular tree grammar: every alternative of every rule becomes a constructor,
//! and groups and repetitions become generated rules. This is also where the cost
//! model lives.
//!
//! Cost model (ET's): an alternative costs 1 if it contains a standalone `"("` token
//! or refers directly to its own rule, else 0. Generated rules: a parenthesised choice
//! `(x | y)` becomes a rule whose alternatives are `x` and `y`; `e{m,n}` is `e` written
//! m times followed by a generated rule with alternatives `ε, e, e e, ...` up to n−m;
//! `e?` is `e{0,1}`, `e{n}` is `e` n times; `e*` is a generated rule `S = ε | e S` and
//! `e+` is `e S`. An alternative of a generated rule pays if it contains `"("`, refers
//! to the generated rule itself (so each repetition of `e*` costs 1) or to the rule it
//! is written in.
//!
//! `e{m,n}` is stored without writing `e` (n−m)²/2 times: the alternative `e^j` is a
//! *chunk* rule holding `e^(CHUNK·q)` followed by the r = j − CHUNK·q copies left over,
//! and each chunk rule is the one before it followed by CHUNK copies. A chunk rule has
//! one alternative of cost 0, so its values are ordered exactly as the left-nested
//! product of its `e`s is; the alternative `e^j` keeps the cost the documented rule
//! gives it (that of `e` written j times). Order, sizes and printing are therefore
//! those of `ε | e | e e | …`, in linear space.

use std::collections::HashMap;

use super::diagnostic::{Diagnostic, Position};
use super::model::{Alternative, Item, Nonterminal, NtId, TokenId};
use super::syntax::{Expr, RuleDef};

/// Copies of `e` per chunk rule of a bounded repetition: alternatives hold at most this
/// many copies, and chunk rules nest at most `MAX_REPEAT / CHUNK` deep.
const CHUNK: u32 = 32;

/// The lowered rules and token table, before validation.
pub struct Lowered {
    /// Rules in file order, then generated rules.
    pub nonterminals: Vec<Nonterminal>,
    /// Distinct token texts.
    pub tokens: Vec<String>,
    /// Where each item of each alternative is written, parallel to
    /// `nonterminals[nt].alternatives[alt].items` (a token: its literal; a rule: the
    /// reference; a generated rule: its group or repetition), for the checks that point
    /// at a terminal.
    pub positions: Vec<Vec<Vec<Position>>>,
}

/// An item with where it is written.
type Located = (Item, Position);

/// Lowers parsed rules; reports duplicate and undefined rules.
pub fn lower(file: &str, rules: &[RuleDef]) -> Result<Lowered, Vec<Diagnostic>> {
    let mut lowerer = Lowerer {
        file,
        ids: HashMap::new(),
        nonterminals: Vec::new(),
        positions: Vec::new(),
        tokens: Vec::new(),
        token_ids: HashMap::new(),
        generated_count: HashMap::new(),
        problems: Vec::new(),
    };
    for rule in rules {
        if let Some(&first) = lowerer.ids.get(&rule.name) {
            let earlier: &Nonterminal = &lowerer.nonterminals[first];
            let message = format!(
                "rule `{}` is defined twice (first at line {})",
                rule.name, earlier.position.line
            );
            lowerer.problem(rule.position, message);
            continue;
        }
        lowerer
            .ids
            .insert(rule.name.clone(), lowerer.nonterminals.len());
        lowerer.nonterminals.push(Nonterminal {
            name: rule.name.clone(),
            position: rule.position,
            generated_in: None,
            alternatives: Vec::new(),
        });
        lowerer.positions.push(Vec::new());
    }
    for rule in rules {
        let id = lowerer.ids[&rule.name];
        if !lowerer.nonterminals[id].alternatives.is_empty() {
            continue; // the duplicate definition, already reported
        }
        let branches = match &rule.expr {
            Expr::Choice(alts, _) => alts.clone(),
            other => vec![other.clone()],
        };
        let alternatives = branches
            .iter()
            .map(|b| {
                let mut items = Vec::new();
                lowerer.items(id, b, &mut items);
                items
            })
            .collect();
        lowerer.set_alternatives(id, id, alternatives);
    }
    if lowerer.problems.is_empty() {
        Ok(Lowered {
            nonterminals: lowerer.nonterminals,
            tokens: lowerer.tokens,
            positions: lowerer.positions,
        })
    } else {
        Err(lowerer.problems)
    }
}

struct Lowerer<'f> {
    file: &'f str,
    ids: HashMap<String, NtId>,
    nonterminals: Vec<Nonterminal>,
    /// Parallel to `nonterminals`: where each item of each alternative is written.
    positions: Vec<Vec<Vec<Position>>>,
    tokens: Vec<String>,
    token_ids: HashMap<String, TokenId>,
    /// Generated rules so far per user rule, for their names.
    generated_count: HashMap<NtId, usize>,
    problems: Vec<Diagnostic>,
}

impl Lowerer<'_> {
    fn problem(&mut self, position: Position, message: String) {
        self.problems.push(Diagnostic {
            file: self.file.to_string(),
            position,
            message,
        });
    }

    fn token(&mut self, text: &str) -> TokenId {
        if let Some(&id) = self.token_ids.get(text) {
            return id;
        }
        let id = self.tokens.len();
        self.tokens.push(text.to_string());
        self.token_ids.insert(text.to_string(), id);
        id
    }

    /// Sets the alternatives of rule `nt`, written in rule `owner`, costed by the model.
    fn set_alternatives(&mut self, nt: NtId, owner: NtId, alternatives: Vec<Vec<Located>>) {
        let (alternatives, positions) = alternatives
            .into_iter()
            .map(|located| {
                let (items, positions): (Vec<Item>, Vec<Position>) = located.into_iter().unzip();
                let cost = u32::from(self.pays(nt, owner, &items));
                (Alternative { cost, items }, positions)
            })
            .unzip();
        self.nonterminals[nt].alternatives = alternatives;
        self.positions[nt] = positions;
    }

    /// Whether items written in rule `owner` pay inside rule `nt` (the cost model).
    fn pays(&self, nt: NtId, owner: NtId, items: &[Item]) -> bool {
        items.iter().any(|item| match *item {
            Item::Token(t) => self.tokens[t] == "(",
            Item::Child(c) => c == nt || c == owner,
        })
    }

    /// Appends the items of `expr`, written in rule `owner`, to `out`.
    fn items(&mut self, owner: NtId, expr: &Expr, out: &mut Vec<Located>) {
        match expr {
            Expr::Token(text, position) => {
                let id = self.token(text);
                out.push((Item::Token(id), *position));
            }
            Expr::Ref(name, position) => match self.ids.get(name) {
                Some(&id) => out.push((Item::Child(id), *position)),
                None => {
                    let rule = &self.nonterminals[owner].name;
                    let defined = self
                        .nonterminals
                        .iter()
                        .filter(|nt| nt.generated_in.is_none())
                        .map(|nt| nt.name.as_str());
                    let hint = closest(name, defined)
                        .map(|near| format!("; did you mean `{near}`?"))
                        .unwrap_or_default();
                    let message =
                        format!("rule `{rule}` refers to `{name}`, which is not defined{hint}");
                    self.problem(*position, message);
                }
            },
            Expr::Seq(parts) => {
                for p in parts {
                    self.items(owner, p, out);
                }
            }
            Expr::Choice(branches, position) => {
                let branch_items: Vec<Vec<Located>> = branches
                    .iter()
                    .map(|b| {
                        let mut items = Vec::new();
                        self.items(owner, b, &mut items);
                        items
                    })
                    .collect();
                let id = self.generated(owner, *position, |_, _| branch_items);
                out.push((Item::Child(id), *position));
            }
            Expr::Repeat {
                expr,
                min,
                max,
                position,
            } => {
                let mut once = Vec::new();
                self.items(owner, expr, &mut once);
                for _ in 0..*min {
                    out.extend_from_slice(&once);
                }
                match max {
                    Some(max) if max == min => {}
                    Some(max) => {
                        let id = self.bounded_repeat(owner, *position, &once, max - min);
                        out.push((Item::Child(id), *position));
                    }
                    None => {
                        let id = self.generated(owner, *position, |this, _| {
                            let mut again = once.clone();
                            again.push((Item::Child(this), *position));
                            vec![Vec::new(), again]
                        });
                        out.push((Item::Child(id), *position));
                    }
                }
            }
        }
    }

    /// The generated rule `ε | e | e e | … | e^extra` for `e` = `once`, in linear space
    /// (see the module documentation): alternative j is `chunk[q] e^r` with
    /// j = CHUNK·q + r, and its cost is that of `e` written j times.
    fn bounded_repeat(
        &mut self,
        owner: NtId,
        position: Position,
        once: &[Located],
        extra: u32,
    ) -> NtId {
        let id = self.reserve(owner, position);
        // chunks[q − 1] holds e^(CHUNK·q), cost 0: the previous chunk then CHUNK copies.
        let mut chunks: Vec<NtId> = Vec::new();
        for _ in 0..extra / CHUNK {
            let chunk = self.reserve(owner, position);
            let mut items = Vec::with_capacity(1 + (CHUNK as usize) * once.len());
            if let Some(&previous) = chunks.last() {
                items.push((Item::Child(previous), position));
            }
            for _ in 0..CHUNK {
                items.extend_from_slice(once);
            }
            let (items, positions) = items.into_iter().unzip();
            self.nonterminals[chunk].alternatives = vec![Alternative { cost: 0, items }];
            self.positions[chunk] = vec![positions];
            chunks.push(chunk);
        }
        let once_items: Vec<Item> = once.iter().map(|(item, _)| *item).collect();
        let cost = u32::from(self.pays(id, owner, &once_items));
        let (alternatives, positions) = (0..=extra)
            .map(|j| {
                let (q, r) = (j / CHUNK, j % CHUNK);
                let mut items = Vec::with_capacity(1 + (r as usize) * once.len());
                if q > 0 {
                    items.push((Item::Child(chunks[q as usize - 1]), position));
                }
                for _ in 0..r {
                    items.extend_from_slice(once);
                }
                let (items, positions) = items.into_iter().unzip();
                let alternative = Alternative {
                    cost: if j == 0 { 0 } else { cost },
                    items,
                };
                (alternative, positions)
            })
            .unzip();
        self.nonterminals[id].alternatives = alternatives;
        self.positions[id] = positions;
        id
    }

    /// Adds an empty generated rule written in `owner` and returns its id.
    fn reserve(&mut self, owner: NtId, position: Position) -> NtId {
        let id = self.nonterminals.len();
        let base = &self.nonterminals[owner].name;
        // Numbered per rule from 1; a number is skipped only if the user named a rule so.
        let k = self.generated_count.entry(owner).or_insert(0);
        let mut name;
        loop {
            *k += 1;
            name = format!("{base}__{k}");
            if !self.ids.contains_key(&name) {
                break;
            }
        }
        self.ids.insert(name.clone(), id);
        self.nonterminals.push(Nonterminal {
            name,
            position,
            generated_in: Some(owner),
            alternatives: Vec::new(),
        });
        self.positions.push(Vec::new());
        id
    }

    /// Adds a generated rule whose alternatives `make` builds, given the new rule's id.
    fn generated(
        &mut self,
        owner: NtId,
        position: Position,
        make: impl FnOnce(NtId, NtId) -> Vec<Vec<Located>>,
    ) -> NtId {
        let id = self.reserve(owner, position);
        let alternatives = make(id, owner);
        self.set_alternatives(id, owner, alternatives);
        id
    }
}

/// The name among `candidates` closest to `name`, if it is close enough to be the one
/// meant: a slip of one or two edits (swapped neighbours count as one), and at most a
/// third of `name`'s characters (but one always). The first in order wins a tie.
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let length = name.chars().count();
    let within = (length / 3).clamp(1, 2);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        // Names whose lengths differ by more are farther (and not worth the table).
        if candidate.chars().count().abs_diff(length) > within {
            continue;
        }
        let distance = edit_distance(name, candidate);
        let closer = match best {
            Some((d, _)) => distance < d,
            None => distance <= within,
        };
        if closer {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The optimal-string-alignment distance: the fewest insertions, deletions,
/// substitutions and swaps of two neighbouring characters turning `a` into `b` (no
/// substring edited twice).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Rows i − 2, i − 1 and i of the table of distances between prefixes.
    let mut before: Vec<usize> = Vec::new();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let substitute = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            row[j] = substitute.min(previous[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut previous, row);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_a_swap_as_one_edit() {
        assert_eq!(edit_distance("int_trem", "int_term"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }

    #[test]
    fn closest_suggests_only_near_names() {
        let rules = ["start", "int_term", "bool_term"];
        assert_eq!(closest("int_trem", rules.into_iter()), Some("int_term"));
        assert_eq!(closest("bool_tem", rules.into_iter()), Some("bool_term"));
        assert_eq!(closest("bool_trm", rules.into_iter()), Some("bool_term"));
        assert_eq!(closest("real_term", rules.into_iter()), None); // 3 from `bool_term`
        assert_eq!(closest("x", rules.into_iter()), None);
    }
}
