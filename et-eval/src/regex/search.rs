//! Shortest members by breadth-first search over derivatives.
//!
//! The alphabet is cut into intervals at every bound of every character set and literal
//! character in the term; characters of one interval have the same derivative in every
//! sub-term, so one representative per interval explores all the behaviours. Derivatives
//! only ever combine the term's own sets, so the partition stays valid for all states.

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::Regex;
use crate::string::{SmtString, MAX_CODE_POINT};

/// The outcome of a shortest-member search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Member {
    /// A shortest string of the language over the alphabet searched.
    Found(SmtString),
    /// The language has no string over the alphabet searched: every derivative was
    /// explored without reaching one that accepts ε.
    Empty,
    /// The work budget ran out before either was established.
    GaveUp,
}

impl Regex {
    /// A shortest string of the language over the alphabet `0..=max_char` (use
    /// [`crate::string::Dialect::max_char`]). Among shortest members it prefers the
    /// smallest characters in the order of [`Regex::representative_chars`].
    ///
    /// `budget` bounds the work: the sizes ([`Regex::size`]) of all derivatives computed
    /// add up to at most that much before the search gives up. Counting states alone
    /// would not bound the time: pathological terms (nested huge `re.loop` counts
    /// around `re.all`) have derivatives that grow with every step.
    pub fn shortest_member(&self, max_char: u32, budget: u64) -> Member {
        if self.is_nullable() {
            return Member::Found(SmtString::new());
        }
        let characters = self.representative_chars(max_char);
        let mut states = vec![self.clone()];
        // For each state after the first: the state it was reached from, by which character.
        let mut reached_from: Vec<(usize, u32)> = vec![(0, 0)];
        let mut seen: HashMap<Regex, usize> = HashMap::from([(self.clone(), 0)]);
        let mut queue = VecDeque::from([0usize]);
        let mut work = 0u64;
        while let Some(index) = queue.pop_front() {
            for &c in &characters {
                let next = states[index].derivative(c);
                work = work.saturating_add(next.size());
                if work > budget {
                    return Member::GaveUp;
                }
                if next.is_nothing() || seen.contains_key(&next) {
                    continue;
                }
                let next_index = states.len();
                let accepting = next.is_nullable();
                seen.insert(next.clone(), next_index);
                states.push(next);
                reached_from.push((index, c));
                if accepting {
                    return Member::Found(path_to(&reached_from, next_index));
                }
                queue.push_back(next_index);
            }
        }
        Member::Empty
    }

    /// One character from each class of characters the term cannot tell apart, within
    /// `0..=max_char`, in increasing order of the classes; a class's representative is
    /// `a`, `0` or `A` if it has one, else its first printable ASCII character, else its
    /// smallest. These are the characters worth trying in a string searched for the term.
    pub fn representative_chars(&self, max_char: u32) -> Vec<u32> {
        let max_char = max_char.min(MAX_CODE_POINT);
        let mut bounds = BTreeSet::from([0u32]);
        self.visit_character_sets(&mut |low, high| {
            bounds.insert(low);
            bounds.insert(high.saturating_add(1));
        });
        let starts: Vec<u32> = bounds.into_iter().filter(|&b| b <= max_char).collect();
        starts
            .iter()
            .enumerate()
            .map(|(i, &low)| {
                let high = starts.get(i + 1).map_or(max_char, |next| next - 1);
                representative(low, high)
            })
            .collect()
    }
}

/// The preferred character of the interval `low..=high`.
fn representative(low: u32, high: u32) -> u32 {
    let contains = |c: u8| (low..=high).contains(&u32::from(c));
    if let Some(c) = [b'a', b'0', b'A'].into_iter().find(|&c| contains(c)) {
        return u32::from(c);
    }
    let printable = 0x21..=0x7e;
    if printable.contains(&low) {
        low
    } else if low < *printable.start() && high >= *printable.start() {
        *printable.start()
    } else {
        low
    }
}

/// The string spelled by the characters on the way from the first state to `index`.
fn path_to(reached_from: &[(usize, u32)], mut index: usize) -> SmtString {
    let mut chars = Vec::new();
    while index != 0 {
        let (previous, c) = reached_from[index];
        chars.push(c);
        index = previous;
    }
    chars.reverse();
    SmtString::from_trusted(chars)
}
