//! SMT-LIB regular expressions (sort RegLan) with exact membership by Brzozowski
//! derivatives, which handle complement, intersection and difference as directly as
//! union, and a shortest-member search for the witness search.
//!
//! Terms are immutable and shared (`Arc`), built only through smart constructors that
//! keep them in a normal form: unions and intersections are flattened, sorted and
//! deduplicated (so `r ∪ r` is `r`), concatenation is right-nested, and the identities of
//! `re.none`, `re.all` and ε are applied. With that normal form a regular expression has
//! finitely many distinct derivatives, so the shortest-member search terminates, and
//! when it has seen them all without reaching a nullable one the language is empty — an
//! exact answer, also for intersections and complements.

mod charset;
mod derivative;
mod search;
#[cfg(test)]
mod tests;

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub use charset::CharSet;
pub use search::Member;

use crate::string::SmtString;

/// A regular expression: a value of sort RegLan. Equality is structural on the normal
/// form (equal terms denote the same language; different terms may too).
#[derive(Clone)]
pub struct Regex(Arc<Node>);

struct Node {
    kind: Kind,
    nullable: bool,
    /// A structural hash, fixed at construction: the cheap first comparison for the
    /// sorting and deduplication of union and intersection operands.
    hash: u64,
    /// The number of nodes of the term as a tree (saturating): what a derivative of it
    /// costs, the unit of the search budget.
    size: u64,
}

#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// `re.none`.
    Nothing,
    /// The language of the empty string, `(str.to_re "")`.
    Epsilon,
    /// One character from a non-empty set.
    Chars(CharSet),
    /// A literal of at least two characters, `str.to_re`: the characters from `start` on.
    Text(Text),
    /// Concatenation; the left operand is never itself a concatenation.
    Concat(Regex, Regex),
    /// Union of at least two operands, sorted, distinct, none a union or `re.none`.
    Union(Vec<Regex>),
    /// Intersection of at least two operands, sorted, distinct, none an intersection or
    /// `re.all`.
    Inter(Vec<Regex>),
    /// Kleene star.
    Star(Regex),
    /// Complement with respect to all strings.
    Complement(Regex),
    /// `min` to `max` (unbounded if `None`) repetitions, `max ≥ 1`, not a case the
    /// other forms express (`*`, one copy).
    Repeat(Regex, u64, Option<u64>),
}

/// A suffix of a literal: derivatives of long literals share the characters.
#[derive(Clone)]
struct Text {
    chars: Arc<[u32]>,
    start: usize,
}

impl Text {
    fn rest(&self) -> &[u32] {
        &self.chars[self.start..]
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.rest() == other.rest()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rest().cmp(other.rest())
    }
}

/// A deterministic mixing step (FxHash's), so that normal forms and search orders do not
/// depend on a per-process random seed.
fn mix(hash: u64, value: u64) -> u64 {
    (hash.rotate_left(5) ^ value).wrapping_mul(0x517c_c1b7_2722_0a95)
}

impl Kind {
    fn hash(&self) -> u64 {
        let children = |tag: u64, items: &[Regex]| items.iter().fold(tag, |h, r| mix(h, r.0.hash));
        match self {
            Kind::Nothing => mix(1, 0),
            Kind::Epsilon => mix(2, 0),
            Kind::Chars(set) => set.ranges().iter().fold(3, |h, &(low, high)| {
                mix(mix(h, u64::from(low)), u64::from(high))
            }),
            Kind::Text(text) => {
                // The length and first characters: O(1) per derivative step, and equal
                // texts hash equal.
                let rest = text.rest();
                rest.iter()
                    .take(8)
                    .fold(mix(4, rest.len() as u64), |h, &c| mix(h, u64::from(c)))
            }
            Kind::Concat(a, b) => children(5, &[a.clone(), b.clone()]),
            Kind::Union(items) => children(6, items),
            Kind::Inter(items) => children(7, items),
            Kind::Star(r) => mix(8, r.0.hash),
            Kind::Complement(r) => mix(9, r.0.hash),
            Kind::Repeat(r, min, max) => {
                mix(mix(mix(10, r.0.hash), *min), max.map_or(u64::MAX, |m| m))
            }
        }
    }

    fn size(&self) -> u64 {
        let sum = |items: &[&Regex]| {
            items
                .iter()
                .fold(1u64, |total, r| total.saturating_add(r.0.size))
        };
        match self {
            Kind::Nothing | Kind::Epsilon | Kind::Chars(_) | Kind::Text(_) => 1,
            Kind::Concat(a, b) => sum(&[a, b]),
            Kind::Union(items) | Kind::Inter(items) => sum(&items.iter().collect::<Vec<_>>()),
            Kind::Star(r) | Kind::Complement(r) | Kind::Repeat(r, _, _) => sum(&[r]),
        }
    }

    fn nullable(&self) -> bool {
        match self {
            Kind::Nothing | Kind::Chars(_) | Kind::Text(_) => false,
            Kind::Epsilon | Kind::Star(_) => true,
            Kind::Concat(a, b) => a.is_nullable() && b.is_nullable(),
            Kind::Union(items) => items.iter().any(Regex::is_nullable),
            Kind::Inter(items) => items.iter().all(Regex::is_nullable),
            Kind::Complement(r) => !r.is_nullable(),
            Kind::Repeat(r, min, _) => *min == 0 || r.is_nullable(),
        }
    }
}

impl PartialEq for Regex {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.hash == other.0.hash && self.0.kind == other.0.kind)
    }
}

impl Eq for Regex {}

impl Hash for Regex {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash);
    }
}

impl PartialOrd for Regex {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Regex {
    /// Hash first, structure on ties: a total order consistent with equality that is
    /// cheap for different terms.
    fn cmp(&self, other: &Self) -> Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return Ordering::Equal;
        }
        self.0
            .hash
            .cmp(&other.0.hash)
            .then_with(|| self.0.kind.cmp(&other.0.kind))
    }
}

impl Regex {
    fn make(kind: Kind) -> Regex {
        let nullable = kind.nullable();
        let hash = kind.hash();
        let size = kind.size();
        Regex(Arc::new(Node {
            kind,
            nullable,
            hash,
            size,
        }))
    }

    /// `re.none`: the empty language.
    pub fn none() -> Regex {
        Regex::make(Kind::Nothing)
    }

    /// `re.all`: every string.
    pub fn all() -> Regex {
        Regex::all_char().star()
    }

    /// `re.allchar`: every one-character string.
    pub fn all_char() -> Regex {
        Regex::chars(CharSet::full())
    }

    /// The language of the empty string only, `(str.to_re "")`.
    pub fn epsilon() -> Regex {
        Regex::make(Kind::Epsilon)
    }

    /// The one-character strings of a set (`re.none` for the empty set).
    pub fn chars(set: CharSet) -> Regex {
        if set.is_empty() {
            Regex::none()
        } else {
            Regex::make(Kind::Chars(set))
        }
    }

    /// `str.to_re`: the language of one string.
    pub fn literal(text: &SmtString) -> Regex {
        match text.code_points() {
            [] => Regex::epsilon(),
            [c] => Regex::chars(CharSet::single(*c)),
            chars => Regex::make(Kind::Text(Text {
                chars: chars.into(),
                start: 0,
            })),
        }
    }

    /// `re.range`: the single characters from `low` to `high` (by code point); empty
    /// unless both bounds are one-character strings (SMT-LIB 2.6), or if `low > high`.
    pub fn range(low: &SmtString, high: &SmtString) -> Regex {
        match (low.code_points(), high.code_points()) {
            ([low], [high]) => Regex::chars(CharSet::range(*low, *high)),
            _ => Regex::none(),
        }
    }

    /// `re.++`.
    pub fn concat(&self, other: &Regex) -> Regex {
        match (&self.0.kind, &other.0.kind) {
            (Kind::Nothing, _) | (_, Kind::Nothing) => Regex::none(),
            (Kind::Epsilon, _) => other.clone(),
            (_, Kind::Epsilon) => self.clone(),
            // re.all absorbs a nullable neighbour: Σ* X ⊇ Σ* ε.
            _ if (self.is_all() && other.is_nullable())
                || (other.is_all() && self.is_nullable()) =>
            {
                Regex::all()
            }
            // r* r* = r*, also at the head of a longer concatenation.
            (Kind::Star(_), _) if self == other || other.head() == Some(self) => other.clone(),
            // Right-nested: (a b) c = a (b c).
            (Kind::Concat(a, b), _) => a.concat(&b.concat(other)),
            _ => Regex::make(Kind::Concat(self.clone(), other.clone())),
        }
    }

    /// The first operand of a concatenation.
    fn head(&self) -> Option<&Regex> {
        match &self.0.kind {
            Kind::Concat(head, _) => Some(head),
            _ => None,
        }
    }

    /// `re.union` of any number of operands (none: `re.none`).
    pub fn union_of(operands: impl IntoIterator<Item = Regex>) -> Regex {
        let mut flat = Vec::new();
        for r in operands {
            match &r.0.kind {
                Kind::Nothing => {}
                Kind::Union(items) => flat.extend(items.iter().cloned()),
                _ => flat.push(r),
            }
        }
        // Single characters merge into one set.
        let mut chars = CharSet::empty();
        flat.retain(|r| match &r.0.kind {
            Kind::Chars(set) => {
                chars = chars.union(set);
                false
            }
            _ => true,
        });
        if !chars.is_empty() {
            flat.push(Regex::chars(chars));
        }
        if flat.iter().any(Regex::is_all) {
            return Regex::all();
        }
        // ε adds nothing next to a nullable operand.
        if flat.len() > 1 && flat.iter().any(|r| r.is_nullable() && !r.is_epsilon()) {
            flat.retain(|r| !r.is_epsilon());
        }
        flat.sort();
        flat.dedup();
        match flat.len() {
            0 => Regex::none(),
            1 => flat.pop().expect("one operand"),
            _ => Regex::make(Kind::Union(flat)),
        }
    }

    /// `re.union` of two operands.
    pub fn union(&self, other: &Regex) -> Regex {
        Regex::union_of([self.clone(), other.clone()])
    }

    /// `re.inter` of any number of operands (none: `re.all`).
    pub fn inter_of(operands: impl IntoIterator<Item = Regex>) -> Regex {
        let mut flat = Vec::new();
        for r in operands {
            match &r.0.kind {
                Kind::Inter(items) => flat.extend(items.iter().cloned()),
                _ => flat.push(r),
            }
        }
        if flat.iter().any(Regex::is_nothing) {
            return Regex::none();
        }
        flat.retain(|r| !r.is_all());
        // With ε among them, the intersection is ε or nothing.
        if flat.iter().any(Regex::is_epsilon) {
            return if flat.iter().all(Regex::is_nullable) {
                Regex::epsilon()
            } else {
                Regex::none()
            };
        }
        // Single-character sets intersect into one.
        let mut chars: Option<CharSet> = None;
        flat.retain(|r| match &r.0.kind {
            Kind::Chars(set) => {
                chars = Some(
                    chars
                        .as_ref()
                        .map_or_else(|| set.clone(), |c| c.intersection(set)),
                );
                false
            }
            _ => true,
        });
        if let Some(set) = chars {
            if set.is_empty() {
                return Regex::none();
            }
            flat.push(Regex::chars(set));
        }
        flat.sort();
        flat.dedup();
        // r ∩ comp(r) is empty.
        if flat.iter().any(
            |r| matches!(&r.0.kind, Kind::Complement(inner) if flat.binary_search(inner).is_ok()),
        ) {
            return Regex::none();
        }
        match flat.len() {
            0 => Regex::all(),
            1 => flat.pop().expect("one operand"),
            _ => Regex::make(Kind::Inter(flat)),
        }
    }

    /// `re.inter` of two operands.
    pub fn inter(&self, other: &Regex) -> Regex {
        Regex::inter_of([self.clone(), other.clone()])
    }

    /// `re.diff`: the strings of `self` not in `other`.
    pub fn diff(&self, other: &Regex) -> Regex {
        self.inter(&other.complement())
    }

    /// `re.comp`: every string not in the language.
    pub fn complement(&self) -> Regex {
        match &self.0.kind {
            Kind::Complement(inner) => inner.clone(),
            Kind::Nothing => Regex::all(),
            _ if self.is_all() => Regex::none(),
            _ => Regex::make(Kind::Complement(self.clone())),
        }
    }

    /// `re.*`.
    pub fn star(&self) -> Regex {
        match &self.0.kind {
            Kind::Nothing | Kind::Epsilon => Regex::epsilon(),
            Kind::Star(_) => self.clone(),
            _ => Regex::make(Kind::Star(self.clone())),
        }
    }

    /// `re.+`: one or more.
    pub fn plus(&self) -> Regex {
        self.concat(&self.star())
    }

    /// `re.opt`: zero or one.
    pub fn opt(&self) -> Regex {
        self.union(&Regex::epsilon())
    }

    /// `((_ re.loop min max) r)`: from `min` to `max` repetitions; empty if `min > max`.
    /// Counts beyond `u64` may be saturated to `u64::MAX` by the caller: no string that
    /// fits in memory tells the difference.
    pub fn repeat(&self, min: u64, max: u64) -> Regex {
        self.repeat_at_least(min, Some(max))
    }

    /// `((_ re.^ n) r)`: exactly `n` repetitions.
    pub fn power(&self, n: u64) -> Regex {
        self.repeat(n, n)
    }

    /// From `min` to `max` repetitions, `None` for no upper bound.
    fn repeat_at_least(&self, min: u64, max: Option<u64>) -> Regex {
        if max.is_some_and(|max| min > max) {
            return Regex::none();
        }
        // With ε in r, fewer copies are padded with ε: r{min,max} = r{0,max}, and a
        // star absorbs any positive number of copies of itself.
        let min = if self.is_nullable() { 0 } else { min };
        match (&self.0.kind, min, max) {
            (_, _, Some(0)) | (Kind::Epsilon, _, _) => Regex::epsilon(),
            (Kind::Star(_), _, _) => self.clone(),
            (Kind::Nothing, 0, _) => Regex::epsilon(),
            (Kind::Nothing, _, _) => Regex::none(),
            (_, 0, None) => self.star(),
            (_, 1, Some(1)) => self.clone(),
            _ => Regex::make(Kind::Repeat(self.clone(), min, max)),
        }
    }

    /// The number of nodes of the term (as a tree, saturating): the work a derivative of
    /// it takes, in the unit of [`Regex::shortest_member`]'s budget.
    pub fn size(&self) -> u64 {
        self.0.size
    }

    /// Whether the empty string is in the language.
    pub fn is_nullable(&self) -> bool {
        self.0.nullable
    }

    /// Whether this is `re.none` in normal form (the language may be empty without it:
    /// [`Regex::shortest_member`] decides that).
    pub fn is_nothing(&self) -> bool {
        matches!(self.0.kind, Kind::Nothing)
    }

    fn is_epsilon(&self) -> bool {
        matches!(self.0.kind, Kind::Epsilon)
    }

    /// Whether this is `re.all` in normal form.
    fn is_all(&self) -> bool {
        matches!(&self.0.kind, Kind::Star(inner) if matches!(&inner.0.kind, Kind::Chars(set) if set.is_full()))
    }

    /// `str.in_re`: whether the string is in the language.
    pub fn matches(&self, text: &SmtString) -> bool {
        let mut state = self.clone();
        for &c in text.code_points() {
            if state.is_nothing() {
                return false;
            }
            if state.is_all() {
                return true;
            }
            state = state.derivative(c);
        }
        state.is_nullable()
    }

    /// The end of the shortest match of the language in `chars` starting at `start`
    /// (non-empty if asked), if any: what `str.replace_re` and `str.replace_re_all` look
    /// for at each position.
    pub(crate) fn shortest_match_at(
        &self,
        chars: &[u32],
        start: usize,
        non_empty: bool,
    ) -> Option<usize> {
        if !non_empty && self.is_nullable() {
            return Some(start);
        }
        let mut state = self.clone();
        for (end, &c) in chars.iter().enumerate().skip(start) {
            state = state.derivative(c);
            if state.is_nullable() {
                return Some(end + 1);
            }
            if state.is_nothing() {
                return None;
            }
        }
        None
    }
}

impl fmt::Display for Regex {
    /// The term in SMT-LIB syntax (of its normal form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, op: &str, items: &[Regex]| {
            write!(f, "({op}")?;
            for item in items {
                write!(f, " {item}")?;
            }
            f.write_str(")")
        };
        match &self.0.kind {
            Kind::Nothing => f.write_str("re.none"),
            Kind::Epsilon => f.write_str("(str.to_re \"\")"),
            Kind::Chars(set) => write!(f, "{set}"),
            Kind::Text(text) => {
                write!(
                    f,
                    "(str.to_re {})",
                    SmtString::from_trusted(text.rest().to_vec())
                )
            }
            Kind::Concat(a, b) => write!(f, "(re.++ {a} {b})"),
            Kind::Union(items) => list(f, "re.union", items),
            Kind::Inter(items) => list(f, "re.inter", items),
            Kind::Star(_) if self.is_all() => f.write_str("re.all"),
            Kind::Star(r) => write!(f, "(re.* {r})"),
            Kind::Complement(r) => write!(f, "(re.comp {r})"),
            Kind::Repeat(r, min, Some(max)) => write!(f, "((_ re.loop {min} {max}) {r})"),
            Kind::Repeat(r, min, None) => write!(f, "(re.++ ((_ re.^ {min}) {r}) (re.* {r}))"),
        }
    }
}

impl fmt::Debug for Regex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Regex({self})")
    }
}
