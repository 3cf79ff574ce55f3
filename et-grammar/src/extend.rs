//! ET's extended grammars: a theory grammar of ET's shape (declare `a` and `b`, assert
//! one Boolean term, check-sat) widened to more variables and more asserts, as the
//! published bug hunt used them ("extended to up to five variables and two asserts").
//!
//! The published generator's extended grammars are not public, so this is the natural
//! extension, applied to the rules as written (before lowering, so the cost model and
//! the FEAT order treat the new parts like any other):
//!
//! - variables `c`, `d`, … are declared like `b` (rule `decl_c` is `decl_b` with the
//!   token `b` renamed), right after `decl_b` in `start`;
//! - wherever a rule has the alternative `"b"`, the new variables follow it as
//!   alternatives of their own (`… | "b" | "c" | "d" | "e" | …`); a grammar that uses
//!   `b` nowhere (realints, whose `b: Real` is unused) gets them after `"a"` instead;
//! - `assert` in `start` is followed by up to `asserts − 1` more: `assert ~ assert{0,k}`,
//!   so the smallest formulas keep one assert, and each extra assert adds its own size.

use super::diagnostic::{Diagnostic, Position};
use super::syntax::{Expr, GrammarSource, RuleDef};

/// How far to extend a theory grammar: `vars` variables `a`, `b`, `c`, … and up to
/// `asserts` asserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Extension {
    /// The number of variables, 2 (the base grammar's `a`, `b`) to 26.
    pub vars: u32,
    /// The largest number of asserts in a formula, at least 1.
    pub asserts: u32,
}

impl Extension {
    /// The variable names beyond `a` and `b`.
    fn new_variables(&self) -> Vec<String> {
        (2..self.vars.min(26))
            .map(|i| char::from(b'a' + i as u8).to_string())
            .collect()
    }

    /// Rewrites the rules of a base grammar; `file` names it in diagnostics.
    pub(crate) fn apply(
        &self,
        file: &str,
        source: &mut GrammarSource,
    ) -> Result<(), Vec<Diagnostic>> {
        let problem = |message: String| {
            vec![Diagnostic {
                file: file.to_string(),
                position: Position::START,
                message,
            }]
        };
        if !(2..=26).contains(&self.vars) || self.asserts == 0 {
            return Err(problem(format!(
                "cannot extend to {} variables and {} asserts: variables are 2 to 26, asserts at least 1",
                self.vars, self.asserts
            )));
        }
        let find = |name: &str| source.rules.iter().position(|r| r.name == name);
        let (Some(decl_b), Some(start), Some(_)) = (find("decl_b"), find("start"), find("assert"))
        else {
            return Err(problem(
                "cannot extend this grammar: it needs ET's shape, rules `start`, `decl_b` and `assert`"
                    .to_string(),
            ));
        };
        let variables = self.new_variables();

        // Declarations: `decl_c` … right after `decl_b`, in the rules and in `start`.
        let declarations: Vec<RuleDef> = variables
            .iter()
            .map(|v| {
                let mut rule = source.rules[decl_b].clone();
                rule.name = format!("decl_{v}");
                rename_token(&mut rule.expr, "b", v);
                rule
            })
            .collect();
        let start_expr = &mut source.rules[start].expr;
        let Expr::Seq(parts) = start_expr else {
            return Err(problem(
                "cannot extend this grammar: `start` is not a sequence".into(),
            ));
        };
        let after_decl = parts
            .iter()
            .position(|p| matches!(p, Expr::Ref(name, _) if name == "decl_b"))
            .map(|i| i + 1);
        let Some(after_decl) = after_decl else {
            return Err(problem(
                "cannot extend this grammar: `start` does not use `decl_b`".into(),
            ));
        };
        let position = match &parts[after_decl - 1] {
            Expr::Ref(_, position) => *position,
            _ => Position::START,
        };
        for (k, v) in variables.iter().enumerate() {
            parts.insert(after_decl + k, Expr::Ref(format!("decl_{v}"), position));
        }
        if self.asserts > 1 {
            let Some(at) = parts
                .iter()
                .position(|p| matches!(p, Expr::Ref(name, _) if name == "assert"))
            else {
                return Err(problem(
                    "cannot extend this grammar: `start` does not use `assert`".into(),
                ));
            };
            let position = match &parts[at] {
                Expr::Ref(_, position) => *position,
                _ => Position::START,
            };
            parts.insert(
                at + 1,
                Expr::Repeat {
                    expr: Box::new(Expr::Ref("assert".into(), position)),
                    min: 0,
                    max: Some(self.asserts - 1),
                    position,
                },
            );
        }
        for (k, rule) in declarations.into_iter().enumerate() {
            source.rules.insert(decl_b + 1 + k, rule);
        }

        // Uses: after every `"b"` alternative, or `"a"` where no rule has `"b"`.
        let anchor = if source.rules.iter().any(|r| has_alternative(&r.expr, "b")) {
            "b"
        } else {
            "a"
        };
        for rule in &mut source.rules {
            if let Expr::Choice(alternatives, _) = &mut rule.expr {
                if let Some(at) = alternatives
                    .iter()
                    .position(|a| matches!(a, Expr::Token(t, _) if t == anchor))
                {
                    let position = match &alternatives[at] {
                        Expr::Token(_, position) => *position,
                        _ => Position::START,
                    };
                    for (k, v) in variables.iter().enumerate() {
                        alternatives.insert(at + 1 + k, Expr::Token(v.clone(), position));
                    }
                }
            }
        }
        Ok(())
    }
}

fn has_alternative(expr: &Expr, token: &str) -> bool {
    matches!(expr, Expr::Choice(alternatives, _)
        if alternatives.iter().any(|a| matches!(a, Expr::Token(t, _) if t == token)))
}

fn rename_token(expr: &mut Expr, from: &str, to: &str) {
    match expr {
        Expr::Token(text, _) if text == from => *text = to.to_string(),
        Expr::Token(..) | Expr::Ref(..) => {}
        Expr::Seq(parts) | Expr::Choice(parts, _) => {
            for p in parts {
                rename_token(p, from, to);
            }
        }
        Expr::Repeat { expr, .. } => rename_token(expr, from, to),
    }
}
