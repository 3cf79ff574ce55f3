//! The operator signature of a formula: the set of function symbols its assertions
//! apply. For et's smallest formulas it tells most root causes apart (a bug in `mod`
//! shows on formulas that apply `mod`), so triage refines its groups by it.
//!
//! The formula is read as S-expressions (with [`crate::enumeration::atoms`], the
//! tokenizer `et rank` uses), never matched with patterns over the text: only the
//! heads of applications inside `assert` count. Declarations, sorts, literals,
//! variables, `let`-bound names and quantified variables do not; `((_ extract 3 0) x)`
//! counts as `extract`; `let`, `forall` and `exists` count as themselves.

use std::collections::BTreeSet;
use std::fmt;

use crate::enumeration::atoms;

/// The Boolean skeleton and the relations that compare terms, of every theory et's
/// grammars use: what [`Signature::theory`] leaves out.
pub const COMPARISONS: &[&str] = &[
    "not", "and", "or", "xor", "=>", "ite", "=", "distinct", "<", "<=", ">", ">=", "bvult",
    "bvule", "bvugt", "bvuge", "bvslt", "bvsle", "bvsgt", "bvsge", "fp.eq", "fp.lt", "fp.leq",
    "fp.gt", "fp.geq", "str.<", "str.<=",
];

/// A set of operator names, ordered so that equal sets print and compare alike.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature(pub BTreeSet<String>);

impl Signature {
    /// The operators applied in the `assert` commands of `formula`. Unbalanced input
    /// gives the operators of the part that could be read.
    pub fn of(formula: &str) -> Signature {
        let tree = Tree::parse(formula);
        let mut ops = BTreeSet::new();
        for &command in &tree.roots {
            let Some(items) = tree.list(command) else {
                continue;
            };
            if let [head, body @ ..] = items {
                if tree.atom(*head) == Some("assert") {
                    for &term in body {
                        tree.collect(term, &mut ops);
                    }
                }
            }
        }
        Signature(ops)
    }

    /// The operators of the theory, without the Boolean skeleton and the relations
    /// that compare terms ([`COMPARISONS`]): what a formula computes, whatever asks
    /// about it. `(< 0.0 (sin 1.0))` and `(not (>= 0.0 (sin 1.0)))` both have the
    /// theory `sin`; `(bvult (bvurem a b) c)` has `bvurem`.
    pub fn theory(&self) -> Signature {
        Signature(
            self.0
                .iter()
                .filter(|op| !COMPARISONS.contains(&op.as_str()))
                .cloned()
                .collect(),
        )
    }

    /// The operators, comma-separated (`=, mod`); `(none)` for the empty set.
    pub fn describe(&self) -> String {
        if self.0.is_empty() {
            "(none)".to_string()
        } else {
            self.0.iter().cloned().collect::<Vec<_>>().join(", ")
        }
    }
}

impl fmt::Display for Signature {
    /// Space-separated operators, the form `groups.csv` uses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for op in &self.0 {
            if !first {
                f.write_str(" ")?;
            }
            f.write_str(op)?;
            first = false;
        }
        Ok(())
    }
}

/// An S-expression forest in an arena, built without recursion.
struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    roots: Vec<usize>,
}

enum Node<'a> {
    Atom(&'a str),
    List(Vec<usize>),
}

impl<'a> Tree<'a> {
    fn parse(text: &'a str) -> Tree<'a> {
        let mut nodes = Vec::new();
        let mut roots = Vec::new();
        // Open lists: their children so far.
        let mut open: Vec<Vec<usize>> = Vec::new();
        for atom in atoms(text) {
            let id = match atom {
                "(" => {
                    open.push(Vec::new());
                    continue;
                }
                ")" => {
                    let Some(children) = open.pop() else {
                        continue; // a stray `)`: skip it
                    };
                    nodes.push(Node::List(children));
                    nodes.len() - 1
                }
                _ => {
                    nodes.push(Node::Atom(atom));
                    nodes.len() - 1
                }
            };
            match open.last_mut() {
                Some(parent) => parent.push(id),
                None => roots.push(id),
            }
        }
        Tree { nodes, roots }
    }

    fn atom(&self, id: usize) -> Option<&'a str> {
        match self.nodes[id] {
            Node::Atom(a) => Some(a),
            Node::List(_) => None,
        }
    }

    fn list(&self, id: usize) -> Option<&[usize]> {
        match &self.nodes[id] {
            Node::List(items) => Some(items),
            Node::Atom(_) => None,
        }
    }

    /// Adds the operators applied in the term `id` (explicit stack: no recursion).
    fn collect(&self, id: usize, ops: &mut BTreeSet<String>) {
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            let Some(items) = self.list(id) else {
                continue; // a constant or a variable
            };
            let Some((&head, args)) = items.split_first() else {
                continue;
            };
            match (self.atom(head), self.list(head)) {
                // `(_ bv5 64)`, `(_ +zero 11 53)`: an indexed constant, not an application.
                (Some("_"), _) => {}
                (Some(binder @ ("let" | "forall" | "exists" | "lambda")), _) => {
                    ops.insert(binder.to_string());
                    if let [bindings, body @ ..] = args {
                        if binder == "let" {
                            // `((x t) (y u))`: only the bound terms are terms.
                            for &binding in self.list(*bindings).unwrap_or(&[]) {
                                if let Some([_, term]) = self.list(binding) {
                                    stack.push(*term);
                                }
                            }
                        }
                        stack.extend(body.iter().copied());
                    }
                }
                (Some("!"), _) => stack.extend(args.first().copied()), // annotations
                (Some("fp"), _) if args.iter().all(|&a| self.atom(a).is_some()) => {
                    // `(fp #b0 #b000 #b0...)`: a floating-point literal.
                }
                (Some(op), _) => {
                    ops.insert(op.to_string());
                    stack.extend(args.iter().copied());
                }
                (None, Some(indexed)) => {
                    // `((_ extract 3 0) x)`, `((as const (Array Int Int)) 0)`.
                    if let Some(name) = indexed.get(1).and_then(|&n| self.atom(n)) {
                        ops.insert(name.to_string());
                    }
                    stack.extend(args.iter().copied());
                }
                (None, None) => unreachable!("a node is an atom or a list"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(text: &str) -> Vec<String> {
        Signature::of(text).0.into_iter().collect()
    }

    #[test]
    fn only_applications_in_assertions_count() {
        let f = "(declare-const a Int) (declare-const b Int) \
                 (assert (= (mod a 0) (abs (- b)))) (check-sat)";
        assert_eq!(ops(f), ["-", "=", "abs", "mod"]);
        assert_eq!(Signature::of(f).to_string(), "- = abs mod");
        assert_eq!(Signature::of(f).describe(), "-, =, abs, mod");
    }

    #[test]
    fn the_theory_leaves_out_what_compares() {
        let theory = |f: &str| Signature::of(f).theory().to_string();
        assert_eq!(theory("(assert (< 0.0 (sin 1.0)))"), "sin");
        assert_eq!(theory("(assert (not (>= 0.0 (sin 1.0))))"), "sin");
        assert_eq!(theory("(assert (= 1 (mod (* a a) a)))"), "* mod");
        assert_eq!(theory("(assert (bvult (bvurem a b) c))"), "bvurem");
        assert_eq!(theory("(assert (fp.leq (fp.sqrt RNE x) y))"), "fp.sqrt");
        assert_eq!(theory("(assert (and (=> p q) (xor p (ite q p q))))"), "");
    }

    #[test]
    fn constants_sorts_and_declarations_do_not() {
        let f = "(declare-const a (_ BitVec 64)) (declare-const b (_ FloatingPoint 11 53)) \
                 (assert (str.in_re \"a\" re.allchar)) (assert true) (check-sat)";
        assert_eq!(ops(f), ["str.in_re"]);
        let fp = "(assert (fp.eq b (fp #b0 #b00000000000 #b0000)))";
        assert_eq!(ops(fp), ["fp.eq"]);
        assert_eq!(ops("(assert (= (_ bv5 64) a))"), ["="]);
        assert!(Signature::of("(assert a)").0.is_empty());
        assert_eq!(Signature::of("(assert a)").describe(), "(none)");
    }

    #[test]
    fn indexed_operators_and_binders() {
        assert_eq!(ops("(assert (= ((_ extract 3 0) a) b))"), ["=", "extract"]);
        let f = "(assert (let ((x (+ a 1)) (y b)) (forall ((z Int)) (> x z))))";
        assert_eq!(ops(f), ["+", ">", "forall", "let"]);
        assert_eq!(ops("(assert (! (not a) :named n))"), ["not"]);
    }

    #[test]
    fn malformed_text_does_not_panic() {
        for text in [
            "",
            ")",
            "(((",
            "(assert",
            "(assert (",
            "(assert ())",
            "())(assert (f",
        ] {
            let _ = Signature::of(text);
        }
        assert_eq!(ops("(assert (not (and a"), Vec::<String>::new());
        assert_eq!(ops(") (assert (not a))"), ["not"]);
    }

    #[test]
    fn deep_terms_do_not_overflow_the_stack() {
        let depth = 200_000;
        let text = format!("(assert {}a{})", "(not ".repeat(depth), ")".repeat(depth));
        assert_eq!(ops(&text), ["not"]);
    }
}
