//! Algebraic datatypes (non-parametric, as `declare-datatypes` and `declare-datatype`
//! declare them): their declarations, sorts and values.
//!
//! A declaration block is a [`DatatypeGroup`]; a field whose sort is a datatype of the
//! same block names it by its position in the block ([`FieldSort::Own`]) rather than by
//! a [`Sort`], so that recursive and mutually recursive datatypes hold no reference
//! cycle (a datatype of an earlier block is an ordinary [`Sort::Datatype`]). A
//! [`DatatypeSort`] is a block and a position in it: everything the evaluator needs to
//! know of a datatype travels with its sort.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use num_bigint::BigUint;

use crate::fp::RoundingMode;
use crate::sort::Sort;
use crate::value::Value;

/// The datatypes one `declare-datatypes` (or `declare-datatype`) declares together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatatypeGroup {
    /// The datatypes, in the order of the declaration.
    pub types: Vec<DatatypeDef>,
}

/// One datatype: its name and constructors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatatypeDef {
    /// Its name (the sort's).
    pub name: Arc<str>,
    /// Its constructors, at least one.
    pub constructors: Vec<ConstructorDef>,
}

/// A constructor: its name and fields (none for a constant such as `nil`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstructorDef {
    /// Its name.
    pub name: Arc<str>,
    /// Its fields, each with its selector's name.
    pub fields: Vec<FieldDef>,
}

/// A field of a constructor: its selector's name and its sort.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDef {
    /// The selector's name.
    pub name: Arc<str>,
    /// The field's sort.
    pub sort: FieldSort,
}

/// The sort of a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldSort {
    /// A sort declared before the block (a theory's, or an earlier block's datatype).
    Sort(Sort),
    /// The block's own datatype at this position (recursion without a cycle of `Arc`s).
    Own(usize),
}

/// The sort of a datatype: its block and its position in it (behind one pointer, so
/// that [`Sort`], in every term, stays as small as without datatypes).
#[derive(Debug, Clone)]
pub struct DatatypeSort(Arc<Position>);

/// A datatype's block and position in it.
#[derive(Debug)]
struct Position {
    group: Arc<DatatypeGroup>,
    index: usize,
}

impl PartialEq for DatatypeSort {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        Arc::ptr_eq(a, b)
            || (a.index == b.index && (Arc::ptr_eq(&a.group, &b.group) || a.group == b.group))
    }
}

impl Eq for DatatypeSort {}

impl Hash for DatatypeSort {
    /// By name only: equal sorts have equal names.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl DatatypeSort {
    /// The `index`-th datatype of `group`, if there is one.
    pub fn new(group: Arc<DatatypeGroup>, index: usize) -> Option<DatatypeSort> {
        (index < group.types.len()).then(|| DatatypeSort(Arc::new(Position { group, index })))
    }

    /// Its declaration block.
    pub fn group(&self) -> &Arc<DatatypeGroup> {
        &self.0.group
    }

    /// Its position in the block.
    pub fn index(&self) -> usize {
        self.0.index
    }

    /// Its declaration.
    pub fn def(&self) -> &DatatypeDef {
        &self.0.group.types[self.0.index]
    }

    /// The block's datatype at position `index` (in range).
    fn sibling(&self, index: usize) -> DatatypeSort {
        if index == self.0.index {
            return self.clone();
        }
        DatatypeSort(Arc::new(Position {
            group: self.0.group.clone(),
            index,
        }))
    }

    /// Its name.
    pub fn name(&self) -> &Arc<str> {
        &self.def().name
    }

    /// Its constructors.
    pub fn constructors(&self) -> &[ConstructorDef] {
        &self.def().constructors
    }

    /// The number of the constructor called `name`.
    pub fn constructor_index(&self, name: &str) -> Option<usize> {
        self.constructors().iter().position(|c| &*c.name == name)
    }

    /// The sort of field `field` of constructor `constructor` (both in range).
    pub fn field_sort(&self, constructor: usize, field: usize) -> Sort {
        self.resolve(&self.constructors()[constructor].fields[field].sort)
    }

    /// The sorts of the fields of constructor `constructor`.
    pub fn field_sorts(&self, constructor: usize) -> Vec<Sort> {
        self.constructors()[constructor]
            .fields
            .iter()
            .map(|f| self.resolve(&f.sort))
            .collect()
    }

    fn resolve(&self, sort: &FieldSort) -> Sort {
        match sort {
            FieldSort::Sort(s) => s.clone(),
            FieldSort::Own(j) => Sort::Datatype(self.sibling(*j)),
        }
    }

    /// How many values the datatype has, when finitely many (no recursion, finite
    /// fields) and at most `u64::MAX`.
    pub fn domain_size(&self) -> Option<u64> {
        self.size(&mut Vec::new())
    }

    /// [`DatatypeSort::domain_size`], with the block's datatypes being counted on
    /// `visiting`: meeting one of them again is recursion, an infinite domain.
    fn size(&self, visiting: &mut Vec<usize>) -> Option<u64> {
        if visiting.contains(&self.0.index) {
            return None;
        }
        visiting.push(self.0.index);
        let mut total: u64 = 0;
        let mut finite = true;
        'constructors: for c in self.constructors() {
            let mut product: u64 = 1;
            for f in &c.fields {
                let n = match &f.sort {
                    FieldSort::Own(j) => self.sibling(*j).size(visiting),
                    FieldSort::Sort(s) => domain_size(s),
                };
                match n.and_then(|n| product.checked_mul(n)) {
                    Some(p) => product = p,
                    None => {
                        finite = false;
                        break 'constructors;
                    }
                }
            }
            match total.checked_add(product) {
                Some(t) => total = t,
                None => {
                    finite = false;
                    break;
                }
            }
        }
        visiting.pop();
        finite.then_some(total)
    }

    /// The value of constructor `constructor` applied to `fields`.
    pub fn value(&self, constructor: usize, fields: Vec<Value>) -> Value {
        Value::Datatype(Arc::new(DatatypeValue {
            sort: self.clone(),
            constructor,
            fields,
        }))
    }
}

impl fmt::Display for DatatypeSort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl DatatypeGroup {
    /// The block as an SMT-LIB command: `(declare-datatypes ((A 0) (B 0)) (((c1) (c2
    /// (s Int))) ((d (t A)))))`.
    pub fn to_smtlib(&self) -> String {
        let mut text = String::from("(declare-datatypes (");
        for (i, t) in self.types.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&format!("({} 0)", t.name));
        }
        text.push_str(") (");
        for (i, t) in self.types.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push('(');
            for (k, c) in t.constructors.iter().enumerate() {
                if k > 0 {
                    text.push(' ');
                }
                text.push_str(&format!("({}", c.name));
                for field in &c.fields {
                    let sort = match &field.sort {
                        FieldSort::Sort(s) => s.to_string(),
                        FieldSort::Own(j) => self.types[*j].name.to_string(),
                    };
                    text.push_str(&format!(" ({} {sort})", field.name));
                }
                text.push(')');
            }
            text.push(')');
        }
        text.push_str("))");
        text
    }

    /// The datatypes of other (earlier) blocks that the fields mention.
    pub fn dependencies(&self) -> Vec<DatatypeSort> {
        let mut found = Vec::new();
        for t in &self.types {
            for c in &t.constructors {
                for f in &c.fields {
                    if let FieldSort::Sort(s) = &f.sort {
                        s.for_each_datatype(&mut |d| found.push(d.clone()));
                    }
                }
            }
        }
        found
    }

    /// Whether every datatype of the block has a value built without itself (SMT-LIB
    /// demands it); otherwise the name of one that has none.
    pub fn uninhabited(&self) -> Option<&str> {
        let mut inhabited = vec![false; self.types.len()];
        loop {
            let mut changed = false;
            for (i, t) in self.types.iter().enumerate() {
                if inhabited[i] {
                    continue;
                }
                let buildable = t.constructors.iter().any(|c| {
                    c.fields.iter().all(|f| match &f.sort {
                        FieldSort::Own(j) => inhabited[*j],
                        FieldSort::Sort(_) => true,
                    })
                });
                if buildable {
                    inhabited[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        inhabited
            .iter()
            .position(|ok| !ok)
            .map(|i| &*self.types[i].name)
    }
}

/// A value of a datatype: a constructor applied to values of its fields.
#[derive(Debug, Clone)]
pub struct DatatypeValue {
    /// The datatype.
    pub sort: DatatypeSort,
    /// The constructor's number.
    pub constructor: usize,
    /// The fields' values, in order.
    pub fields: Vec<Value>,
}

impl DatatypeValue {
    /// The constructor's name.
    pub fn constructor_name(&self) -> &Arc<str> {
        &self.sort.constructors()[self.constructor].name
    }

    /// SMT-LIB equality: the same constructor with equal fields (datatype values are
    /// equal exactly when they are built alike).
    pub fn smt_eq(&self, other: &DatatypeValue) -> bool {
        self.constructor == other.constructor
            && self.sort == other.sort
            && self.fields.len() == other.fields.len()
            && self
                .fields
                .iter()
                .zip(&other.fields)
                .all(|(a, b)| a.smt_eq(b))
    }
}

impl fmt::Display for DatatypeValue {
    /// `nil`, `(cons 3 nil)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::deep(|| {
            if self.fields.is_empty() {
                return f.write_str(self.constructor_name());
            }
            write!(f, "({}", self.constructor_name())?;
            for v in &self.fields {
                write!(f, " {v}")?;
            }
            f.write_str(")")
        })
    }
}

/// How many values a sort has, when it is finite and the number fits in a `u64`
/// (Bool, bit-vectors narrower than 64 bits, rounding modes, finite datatypes);
/// `None` otherwise.
pub fn domain_size(sort: &Sort) -> Option<u64> {
    match sort {
        Sort::Bool => Some(2),
        Sort::BitVec(w) if *w < 64 => Some(1u64 << w),
        Sort::RoundingMode => Some(5),
        Sort::Datatype(d) => d.domain_size(),
        _ => None,
    }
}

/// Every value of a finite sort, if there are at most `limit`.
pub fn all_values(sort: &Sort, limit: u64) -> Option<Vec<Value>> {
    if domain_size(sort)? > limit {
        return None;
    }
    Some(match sort {
        Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Sort::BitVec(w) => (0..1u64 << w)
            .map(|i| Value::bv_big(*w, BigUint::from(i)))
            .collect(),
        Sort::RoundingMode => RoundingMode::ALL.map(Value::Rm).to_vec(),
        Sort::Datatype(d) => {
            let mut out = Vec::new();
            for (c, _) in d.constructors().iter().enumerate() {
                let lists: Vec<Vec<Value>> = d
                    .field_sorts(c)
                    .iter()
                    .map(|s| all_values(s, limit))
                    .collect::<Option<_>>()?;
                for_each_tuple(&lists, usize::MAX, &mut |fields| {
                    out.push(d.value(c, fields.to_vec()))
                });
            }
            out
        }
        _ => return None,
    })
}

/// Small values of a datatype, nesting constructors at most `depth` deep (0: the
/// constructors without fields), fields of other sorts taking the first `per_field`
/// values `base` gives for their sort; at most `max` values, shallowest first.
pub fn small_values(
    sort: &DatatypeSort,
    depth: u32,
    per_field: usize,
    max: usize,
    base: &dyn Fn(&Sort) -> Vec<Value>,
) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for (c, ctor) in sort.constructors().iter().enumerate() {
        if ctor.fields.is_empty() && out.len() < max {
            out.push(sort.value(c, Vec::new()));
        }
    }
    if depth == 0 {
        return out;
    }
    for (c, ctor) in sort.constructors().iter().enumerate() {
        if ctor.fields.is_empty() {
            continue;
        }
        let lists: Vec<Vec<Value>> = sort
            .field_sorts(c)
            .iter()
            .map(|s| {
                let mut list = match s {
                    Sort::Datatype(d) => small_values(d, depth - 1, per_field, per_field, base),
                    other => base(other),
                };
                list.truncate(per_field);
                list
            })
            .collect();
        let room = max.saturating_sub(out.len());
        let mut built = Vec::new();
        for_each_tuple(&lists, room, &mut |fields| {
            built.push(sort.value(c, fields.to_vec()))
        });
        out.extend(built);
    }
    out.truncate(max);
    out
}

/// Calls `f` on every tuple of one element of each list (the last list fastest), at
/// most `max` times; once with the empty tuple when there are no lists.
pub(crate) fn for_each_tuple<T: Clone>(lists: &[Vec<T>], max: usize, f: &mut impl FnMut(&[T])) {
    if lists.iter().any(Vec::is_empty) || max == 0 {
        return;
    }
    let mut index = vec![0usize; lists.len()];
    let mut tuple: Vec<T> = lists.iter().map(|l| l[0].clone()).collect();
    let mut done = 0;
    loop {
        f(&tuple);
        done += 1;
        if done >= max {
            return;
        }
        let mut k = lists.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            if index[k] < lists[k].len() {
                tuple[k] = lists[k][index[k]].clone();
                break;
            }
            index[k] = 0;
            tuple[k] = lists[k][0].clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn opt_bool() -> DatatypeSort {
        let group = Arc::new(DatatypeGroup {
            types: vec![DatatypeDef {
                name: "OptB".into(),
                constructors: vec![
                    ConstructorDef {
                        name: "none".into(),
                        fields: Vec::new(),
                    },
                    ConstructorDef {
                        name: "some".into(),
                        fields: vec![FieldDef {
                            name: "val".into(),
                            sort: FieldSort::Sort(Sort::Bool),
                        }],
                    },
                ],
            }],
        });
        DatatypeSort::new(group, 0).unwrap()
    }

    fn int_list() -> DatatypeSort {
        let group = Arc::new(DatatypeGroup {
            types: vec![DatatypeDef {
                name: "IntList".into(),
                constructors: vec![
                    ConstructorDef {
                        name: "nil".into(),
                        fields: Vec::new(),
                    },
                    ConstructorDef {
                        name: "cons".into(),
                        fields: vec![
                            FieldDef {
                                name: "head".into(),
                                sort: FieldSort::Sort(Sort::Int),
                            },
                            FieldDef {
                                name: "tail".into(),
                                sort: FieldSort::Own(0),
                            },
                        ],
                    },
                ],
            }],
        });
        DatatypeSort::new(group, 0).unwrap()
    }

    #[test]
    fn finite_and_infinite_domains() {
        let opt = opt_bool();
        assert_eq!(opt.domain_size(), Some(3));
        let all = all_values(&Sort::Datatype(opt), 100).unwrap();
        let shown: Vec<String> = all.iter().map(Value::to_string).collect();
        assert_eq!(shown, ["none", "(some false)", "(some true)"]);
        let list = int_list();
        assert_eq!(list.domain_size(), None);
        assert!(all_values(&Sort::Datatype(list.clone()), 100).is_none());
        let ints = |_: &Sort| (0..3).map(|n| Value::Int(BigInt::from(n))).collect();
        let small = small_values(&list, 2, 2, 100, &ints);
        let shown: Vec<String> = small.iter().map(Value::to_string).collect();
        assert_eq!(
            shown,
            [
                "nil",
                "(cons 0 nil)",
                "(cons 0 (cons 0 nil))",
                "(cons 1 nil)",
                "(cons 1 (cons 0 nil))"
            ]
        );
        assert_eq!(
            list.group().to_smtlib(),
            "(declare-datatypes ((IntList 0)) (((nil) (cons (head Int) (tail IntList)))))"
        );
    }

    #[test]
    fn values_are_equal_when_built_alike() {
        let list = int_list();
        let one = |n: i64| list.value(1, vec![Value::Int(BigInt::from(n)), list.value(0, vec![])]);
        assert!(one(1).smt_eq(&one(1)));
        assert!(!one(1).smt_eq(&one(2)));
        assert!(!one(1).smt_eq(&list.value(0, vec![])));
    }
}
