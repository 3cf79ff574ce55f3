//! Brzozowski derivatives: `D_c(L) = { w | c·w ∈ L }`, computed on terms. A string
//! `c₁…cₙ` is in `L` iff `D_cₙ(…D_c₁(L)…)` contains ε.

use super::{Kind, Regex, Text};

impl Regex {
    /// The derivative by one character.
    pub fn derivative(&self, c: u32) -> Regex {
        match &self.0.kind {
            Kind::Nothing | Kind::Epsilon => Regex::none(),
            Kind::Chars(set) => {
                if set.contains(c) {
                    Regex::epsilon()
                } else {
                    Regex::none()
                }
            }
            Kind::Text(text) => {
                let rest = text.rest();
                if rest[0] != c {
                    Regex::none()
                } else if rest.len() == 2 {
                    Regex::chars(super::CharSet::single(rest[1]))
                } else {
                    Regex::make(Kind::Text(Text {
                        chars: text.chars.clone(),
                        start: text.start + 1,
                    }))
                }
            }
            // D(ab) = D(a) b ∪ (D(b) if a is nullable).
            Kind::Concat(a, b) => {
                let head = a.derivative(c).concat(b);
                if a.is_nullable() {
                    head.union(&b.derivative(c))
                } else {
                    head
                }
            }
            Kind::Union(items) => Regex::union_of(items.iter().map(|r| r.derivative(c))),
            Kind::Inter(items) => Regex::inter_of(items.iter().map(|r| r.derivative(c))),
            // D(r*) = D(r) r*.
            Kind::Star(r) => r.derivative(c).concat(self),
            Kind::Complement(r) => r.derivative(c).complement(),
            // D(r{m,n}) = D(r) r{m−1,n−1}: a first non-empty copy, the others may be ε
            // when r is nullable, which r{m−1,n−1} already allows.
            Kind::Repeat(r, min, max) => r
                .derivative(c)
                .concat(&r.repeat_at_least(min.saturating_sub(1), max.map(|max| max - 1))),
        }
    }

    /// Every operand of a character set or literal in the term, for the search's
    /// partition of the alphabet.
    pub(super) fn visit_character_sets(&self, visit: &mut impl FnMut(u32, u32)) {
        match &self.0.kind {
            Kind::Nothing | Kind::Epsilon => {}
            Kind::Chars(set) => set
                .ranges()
                .iter()
                .for_each(|&(low, high)| visit(low, high)),
            Kind::Text(text) => text.rest().iter().for_each(|&c| visit(c, c)),
            Kind::Concat(a, b) => {
                a.visit_character_sets(visit);
                b.visit_character_sets(visit);
            }
            Kind::Union(items) | Kind::Inter(items) => {
                items.iter().for_each(|r| r.visit_character_sets(visit))
            }
            Kind::Star(r) | Kind::Complement(r) | Kind::Repeat(r, _, _) => {
                r.visit_character_sets(visit)
            }
        }
    }
}
