//! SMT-LIB scripts of et's shape — declarations of constants, assertions, `check-sat` —
//! read into typed terms.
//!
//! Uninterpreted functions (`declare-fun` with parameters) are applied as
//! [`TermKind::Call`]s, type-checked against their signature; a model gives their
//! values. Quantifiers and `match` bind variables as [`TermKind::Bound`] (a bound name
//! hides a declared constant of the same name in its scope); `let` is substituted.
//! Datatypes (`declare-datatypes`, `declare-datatype`, non-parametric) give
//! constructors, selectors, testers (`(_ is c)`, and cvc4's `is-c`) and `match`.
//!
//! An Int term where a Real is expected gets a `to_real` around it, as z3 and older cvc5
//! read it (the published realints grammar relies on this). An operator, sort or
//! command outside the supported set is an error naming it, never a panic.

use std::collections::HashMap;
use std::sync::Arc;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::Num;
use thiserror::Error;

use crate::datatype::{
    ConstructorDef, DatatypeDef, DatatypeGroup, DatatypeSort, FieldDef, FieldSort,
};
use crate::fp::generic::Fp;
use crate::fp::RoundingMode;
use crate::sexp::{self, Pos, Sexp, SexpKind};
use crate::sort::{Sort, MAX_BV_WIDTH};
use crate::string::{Dialect, SmtString};
use crate::term::{
    DtOp, FunDecl, MatchCase, Op, Pattern, QuantKind, Quantifier, ReConst, Term, TermKind,
};
use crate::value::{ArrayValue, Value};

/// A script that cannot be read, with the position of the offending part.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{pos}: {message}")]
pub struct ScriptError {
    /// Where (line:column, or 1:token number for token input).
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

impl ScriptError {
    /// What et-eval does not support, when that is why the script cannot be read
    /// (e.g. `operator 'fp.to_ubv'`); `None` for malformed text.
    pub fn unsupported(&self) -> Option<&str> {
        let rest = self.message.strip_prefix("unsupported ")?;
        Some(rest.split(" (").next().unwrap_or(rest))
    }
}

impl From<sexp::SexpError> for ScriptError {
    fn from(e: sexp::SexpError) -> Self {
        ScriptError {
            pos: e.pos,
            message: e.message,
        }
    }
}

/// An application whose operator got an Int argument where it wants a Real, and so a
/// `to_real` around it (numerals excepted: in the theory of reals a numeral is a Real).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coercion {
    /// The operator applied (`sin`, `+`, `to_fp`).
    pub operator: &'static str,
    /// Where the application is.
    pub pos: Pos,
}

/// A declared constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decl {
    /// Its name.
    pub name: Arc<str>,
    /// Its sort.
    pub sort: Sort,
}

/// A formula: declared constants and the assertions over them (their conjunction).
#[derive(Debug, Clone)]
pub struct Script {
    /// The declared constants, in order; [`TermKind::Var`] numbers index this.
    pub decls: Vec<Decl>,
    /// The asserted terms, all Boolean.
    pub assertions: Vec<Term>,
}

impl Script {
    /// Reads a script from SMT-LIB text.
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        Script::from_sexps(&sexp::read_all(text)?)
    }

    /// Reads a script from tokens (e.g. the enumeration printer's), without printing
    /// and re-lexing the formula.
    pub fn from_tokens<I>(tokens: I) -> Result<Script, ScriptError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        Script::from_sexps(&sexp::read_tokens(tokens)?)
    }

    /// Reads a script from s-expressions (its commands).
    pub fn from_sexps(commands: &[Sexp]) -> Result<Script, ScriptError> {
        Script::checked(commands).map(|(script, _)| script)
    }

    /// Reads a script from SMT-LIB text as [`Script::parse`] does, and says where it
    /// relied on the Int→Real coercion ([`Script::from_tokens_with_coercions`]).
    pub fn parse_with_coercions(text: &str) -> Result<(Script, Vec<Coercion>), ScriptError> {
        Script::checked(&sexp::read_all(text)?)
    }

    /// The script as SMT-LIB on one line, as et prints formulas: its declarations, its
    /// assertions — with every conversion the reader made written out as `to_real` —
    /// and `(check-sat)`.
    pub fn text(&self) -> String {
        let mut parts: Vec<String> = self.datatypes().iter().map(|g| g.to_smtlib()).collect();
        parts.extend(
            self.decls
                .iter()
                .map(|d| format!("(declare-const {} {})", d.name, d.sort)),
        );
        parts.extend(self.functions().iter().map(|f| f.to_string()));
        parts.extend(self.assertions.iter().map(|t| format!("(assert {t})")));
        parts.push("(check-sat)".to_string());
        parts.join(" ")
    }

    /// Reads a script from tokens as [`Script::from_tokens`] does, and says where it
    /// relied on the Int→Real coercion (which SMT-LIB's mixed Int/Real logics do not
    /// have: `(sin a)` with `a` an Int is ill-sorted there).
    pub fn from_tokens_with_coercions<I>(tokens: I) -> Result<(Script, Vec<Coercion>), ScriptError>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        Script::checked(&sexp::read_tokens(tokens)?)
    }

    fn checked(commands: &[Sexp]) -> Result<(Script, Vec<Coercion>), ScriptError> {
        let mut reading = Reading::default();
        for command in commands {
            reading.command(command)?;
        }
        Ok(reading.finish())
    }

    /// The index of a declared constant.
    pub fn var(&self, name: &str) -> Option<usize> {
        self.decls.iter().position(|d| &*d.name == name)
    }

    /// Reads one term over this script's constants (e.g. a model's value).
    pub fn term(&self, sexp: &Sexp) -> Result<Term, ScriptError> {
        self.term_with_functions(sexp, &[])
    }

    /// Reads one term over this script's constants that may apply `functions` (e.g.
    /// the body of a model's function, which may call the model's other functions).
    pub fn term_with_functions(
        &self,
        sexp: &Sexp,
        functions: &[Arc<FunDecl>],
    ) -> Result<Term, ScriptError> {
        self.term_in(sexp, functions, &self.datatypes())
    }

    /// Reads one term over this script's constants that may apply `functions` and the
    /// constructors, selectors and testers of `datatypes`.
    pub(crate) fn term_in(
        &self,
        sexp: &Sexp,
        functions: &[Arc<FunDecl>],
        datatypes: &[Arc<DatatypeGroup>],
    ) -> Result<Term, ScriptError> {
        let mut checker = Checker {
            vars: self
                .decls
                .iter()
                .enumerate()
                .map(|(i, d)| (d.name.to_string(), i))
                .collect(),
            decls: self.decls.clone(),
            functions: functions
                .iter()
                .map(|f| (f.name.to_string(), f.clone()))
                .collect(),
            ..Checker::default()
        };
        for group in datatypes {
            // Names the model's functions or the constants already take keep their
            // meaning: a clash only hides the datatype's operation.
            checker.add_datatypes_over(group);
        }
        checker.term(sexp)
    }

    /// The datatypes the script's constants, functions and assertions use, each
    /// declaration block once, a block after the blocks its fields use.
    pub fn datatypes(&self) -> Vec<Arc<DatatypeGroup>> {
        let mut found: Vec<Arc<DatatypeGroup>> = Vec::new();
        let mut add =
            |sort: &Sort| sort.for_each_datatype(&mut |d| add_group(d.group(), &mut found));
        for d in &self.decls {
            add(&d.sort);
        }
        for f in self.functions() {
            f.params.iter().for_each(&mut add);
            add(&f.sort);
        }
        for a in &self.assertions {
            a.for_each(&mut |t| {
                add(&t.sort);
                if let TermKind::Quantifier(q, _) = &t.kind {
                    q.vars.iter().for_each(|(_, s)| add(s));
                }
                if let TermKind::Match(_, args) = &t.kind {
                    if let Some(scrutinee) = args.first() {
                        add(&scrutinee.sort);
                    }
                }
            });
        }
        found
    }

    /// The uninterpreted functions the assertions apply, each once, in order of first
    /// application (a declared function no assertion applies does not matter to the
    /// formula's truth).
    pub fn functions(&self) -> Vec<Arc<FunDecl>> {
        let mut found: Vec<Arc<FunDecl>> = Vec::new();
        for a in &self.assertions {
            a.for_each_function(&mut |f| {
                if !found.iter().any(|g| g.name == f.name) {
                    found.push(f.clone());
                }
            });
        }
        found
    }
}

/// Adds `group` to `found` unless it is there, after the blocks its fields use.
fn add_group(group: &Arc<DatatypeGroup>, found: &mut Vec<Arc<DatatypeGroup>>) {
    if found
        .iter()
        .any(|f| Arc::ptr_eq(f, group) || **f == **group)
    {
        return;
    }
    for dep in group.dependencies() {
        if !Arc::ptr_eq(dep.group(), group) {
            add_group(dep.group(), found);
        }
    }
    found.push(group.clone());
}

/// What a `push` saves, which a `pop` restores: the number of assertions and
/// declarations, the definitions, the declared functions and the datatypes.
struct Level {
    assertions: usize,
    decls: usize,
    macros: HashMap<String, Macro>,
    functions: HashMap<String, Arc<FunDecl>>,
    datatypes: Datatypes,
}

/// The state of reading a script's commands in order.
#[derive(Default)]
struct Reading {
    checker: Checker,
    assertions: Vec<Term>,
    /// One per `push` not yet popped.
    levels: Vec<Level>,
    /// The assertions and declarations at the first `check-sat`.
    first_check: Option<(Vec<Term>, Vec<Decl>)>,
}

impl Reading {
    fn command(&mut self, command: &Sexp) -> Result<(), ScriptError> {
        let items = command.as_list().ok_or_else(|| {
            err(
                command.pos,
                format!("expected a command, found '{command}'"),
            )
        })?;
        let head = items.first().and_then(Sexp::as_symbol).unwrap_or("");
        match head {
            "declare-const" | "declare-fun" => self.declare(head, items, command.pos),
            "declare-datatypes" | "declare-datatype" => {
                self.declare_datatypes(head, items, command.pos)
            }
            "assert" => self.assert(items, command.pos),
            "define-fun" => self.define(items, command.pos),
            "push" | "pop" => {
                let n = push_pop_count(head, items, command.pos)?;
                if head == "push" {
                    self.push(n);
                    Ok(())
                } else {
                    self.pop(n, command.pos)
                }
            }
            // A tactic (`check-sat-using`) decides the same question another way.
            "check-sat" | "check-sat-assuming" | "check-sat-using" => {
                self.check_sat(head, items, command.pos)
            }
            // Commands that do not change what the formula means.
            "get-model" | "set-logic" | "set-option" | "set-info" | "exit" | "get-info"
            | "echo" | "get-value" | "get-assignment" | "get-unsat-core" => Ok(()),
            _ => Err(err(
                command.pos,
                format!(
                    "unsupported command '{}'",
                    items.first().map(|h| h.to_string()).unwrap_or_default()
                ),
            )),
        }
    }

    /// `declare-const`, or `declare-fun` of a constant or of an uninterpreted
    /// function (with parameters).
    fn declare(&mut self, head: &str, items: &[Sexp], pos: Pos) -> Result<(), ScriptError> {
        let (name, params, sort) = match (head, items) {
            ("declare-const", [_, name, sort]) => (name, &[][..], sort),
            ("declare-fun", [_, name, params, sort]) => {
                let params = params
                    .as_list()
                    .ok_or_else(|| err(params.pos, "expected a list of parameter sorts"))?;
                (name, params, sort)
            }
            _ => return Err(err(pos, format!("malformed {head}"))),
        };
        let name = name
            .as_symbol()
            .ok_or_else(|| err(name.pos, "expected a symbol"))?;
        let params = params
            .iter()
            .map(|p| self.checker.sort(p))
            .collect::<Result<Vec<_>, _>>()?;
        let sort = self.checker.sort(sort)?;
        let checker = &mut self.checker;
        if checker.taken(name) {
            return Err(err(pos, format!("'{name}' is declared twice")));
        }
        if !params.is_empty() {
            if Op::from_name(name).is_some() {
                return Err(err(
                    pos,
                    format!("'{name}' is an operator of a theory, not a new function"),
                ));
            }
            checker.functions.insert(
                name.to_string(),
                Arc::new(FunDecl {
                    name: name.into(),
                    params,
                    sort,
                }),
            );
            return Ok(());
        }
        checker.vars.insert(name.to_string(), checker.decls.len());
        checker.decls.push(Decl {
            name: name.into(),
            sort,
        });
        Ok(())
    }

    /// `(declare-datatypes ((T 0) ...) ((constructors) ...))`, its SMT-LIB 2.5 form
    /// `(declare-datatypes () ((T constructors) ...))` and `(declare-datatype T
    /// (constructors))`: one block, whose datatypes may refer to each other.
    fn declare_datatypes(
        &mut self,
        head: &str,
        items: &[Sexp],
        pos: Pos,
    ) -> Result<(), ScriptError> {
        let types = datatype_block(head, items, pos)?;
        let names = self.datatype_names(&types)?;
        let mut defs = Vec::new();
        for ((_, ctors), type_name) in types.iter().zip(&names) {
            if ctors.is_empty() {
                return Err(err(
                    pos,
                    format!("datatype '{type_name}' has no constructor"),
                ));
            }
            let constructors = ctors
                .iter()
                .map(|c| self.constructor_def(c, &names))
                .collect::<Result<Vec<_>, _>>()?;
            defs.push(DatatypeDef {
                name: (*type_name).into(),
                constructors,
            });
        }
        let group = DatatypeGroup { types: defs };
        if let Some(empty) = group.uninhabited() {
            return Err(err(
                pos,
                format!("datatype '{empty}' has no value (each of its constructors needs one)"),
            ));
        }
        self.checker
            .add_datatypes(&Arc::new(group))
            .map_err(|m| err(pos, m))
    }

    /// The names of a block's datatypes (`types`, as [`datatype_block`] gives them),
    /// each a new sort named once.
    fn datatype_names<'a>(
        &self,
        types: &[(&'a Sexp, &[Sexp])],
    ) -> Result<Vec<&'a str>, ScriptError> {
        let mut names: Vec<&str> = Vec::new();
        for (name, _) in types {
            let n = name
                .as_symbol()
                .ok_or_else(|| err(name.pos, "expected a datatype name"))?;
            if names.contains(&n)
                || self.checker.datatypes.sorts.contains_key(n)
                || Sort::parse(name).is_ok()
            {
                return Err(err(name.pos, format!("the sort '{n}' is declared twice")));
            }
            names.push(n);
        }
        Ok(names)
    }

    /// A constructor's declaration, `c` or `(c (selector sort) ...)`, in a block whose
    /// datatypes are `names`.
    fn constructor_def(&self, c: &Sexp, names: &[&str]) -> Result<ConstructorDef, ScriptError> {
        let (cname, fields) = match &c.kind {
            SexpKind::Symbol(n) => (n.as_str(), &[][..]),
            SexpKind::List(parts) => match parts.split_first() {
                Some((n, fields)) if n.as_symbol().is_some() => {
                    (n.as_symbol().unwrap_or_default(), fields)
                }
                _ => return Err(err(c.pos, "malformed constructor")),
            },
            _ => return Err(err(c.pos, "malformed constructor")),
        };
        let fields = fields
            .iter()
            .map(|f| self.field_def(f, names))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ConstructorDef {
            name: cname.into(),
            fields,
        })
    }

    /// A field's declaration `(selector sort)`, in a block whose datatypes are `names`.
    fn field_def(&self, f: &Sexp, names: &[&str]) -> Result<FieldDef, ScriptError> {
        let Some([fname, fsort]) = f.as_list() else {
            return Err(err(f.pos, "expected (selector sort)"));
        };
        let fname = fname
            .as_symbol()
            .ok_or_else(|| err(fname.pos, "expected a selector name"))?;
        let sort = self.field_sort(fsort, names)?;
        if matches!(sort, FieldSort::Sort(Sort::RegLan)) {
            return Err(err(fsort.pos, "a field of sort RegLan"));
        }
        Ok(FieldDef {
            name: fname.into(),
            sort,
        })
    }

    /// A field's sort: one of the block's datatypes `names` (by its number), or a sort
    /// declared before.
    fn field_sort(&self, fsort: &Sexp, names: &[&str]) -> Result<FieldSort, ScriptError> {
        let own = fsort
            .as_symbol()
            .and_then(|n| names.iter().position(|m| *m == n));
        if let Some(j) = own {
            return Ok(FieldSort::Own(j));
        }
        // The block's datatypes are no sorts yet, so one inside another sort fails to
        // parse: say that, not that the sort is unknown.
        self.checker.sort(fsort).map(FieldSort::Sort).map_err(|e| {
            if names.iter().any(|n| fsort.to_string().contains(n)) {
                err(
                    fsort.pos,
                    format!(
                        "unsupported sort '{fsort}' (a datatype of the same declaration inside another sort)"
                    ),
                )
            } else {
                e
            }
        })
    }

    fn assert(&mut self, items: &[Sexp], pos: Pos) -> Result<(), ScriptError> {
        let [_, body] = items else {
            return Err(err(pos, "assert takes one term"));
        };
        let term = self.checker.term(body)?;
        if term.sort != Sort::Bool {
            return Err(err(
                body.pos,
                format!("asserted term has sort {}, not Bool", term.sort),
            ));
        }
        self.assertions.push(term);
        Ok(())
    }

    /// `define-fun`: checked now, expanded where it is applied.
    fn define(&mut self, items: &[Sexp], pos: Pos) -> Result<(), ScriptError> {
        let [_, name, params, sort, body] = items else {
            return Err(err(pos, "malformed define-fun"));
        };
        let name = name
            .as_symbol()
            .ok_or_else(|| err(name.pos, "expected a symbol"))?;
        let params = params
            .as_list()
            .ok_or_else(|| err(params.pos, "expected a parameter list"))?
            .iter()
            .map(|p| match p.as_list() {
                Some([n, s]) if n.as_symbol().is_some() => Ok((
                    n.as_symbol().unwrap_or_default().to_string(),
                    self.checker.sort(s)?,
                )),
                _ => Err(err(p.pos, "malformed parameter")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let sort = self.checker.sort(sort)?;
        let checker = &mut self.checker;
        if checker.taken(name) {
            return Err(err(pos, format!("'{name}' is declared twice")));
        }
        // Checked once now, with placeholder parameters, so errors point
        // at the definition.
        let placeholder: HashMap<String, Term> = params
            .iter()
            .map(|(p, s)| (p.clone(), placeholder(s)))
            .collect();
        checker.scopes.push(placeholder);
        let checked = checker.term(body);
        checker.scopes.pop();
        coerce(checked?, &sort).map_err(|m| err(body.pos, m))?;
        checker.macros.insert(
            name.to_string(),
            Macro {
                params,
                sort,
                body: body.clone(),
                scope: Vec::new(),
            },
        );
        Ok(())
    }

    fn push(&mut self, n: usize) {
        for _ in 0..n.min(1 << 16) {
            self.levels.push(Level {
                assertions: self.assertions.len(),
                decls: self.checker.decls.len(),
                macros: self.checker.macros.clone(),
                functions: self.checker.functions.clone(),
                datatypes: self.checker.datatypes.clone(),
            });
        }
    }

    fn pop(&mut self, n: usize, pos: Pos) -> Result<(), ScriptError> {
        if n > self.levels.len() {
            return Err(err(
                pos,
                format!("pop {n} with {} levels pushed", self.levels.len()),
            ));
        }
        for _ in 0..n {
            if let Some(level) = self.levels.pop() {
                self.assertions.truncate(level.assertions);
                for decl in self.checker.decls.drain(level.decls..) {
                    self.checker.vars.remove(&*decl.name);
                }
                self.checker.macros = level.macros;
                self.checker.functions = level.functions;
                self.checker.datatypes = level.datatypes;
            }
        }
        Ok(())
    }

    /// `check-sat`, or `check-sat-assuming` (its literals count as assertions for
    /// this check only).
    fn check_sat(&mut self, head: &str, items: &[Sexp], pos: Pos) -> Result<(), ScriptError> {
        if head == "check-sat-assuming" {
            let [_, literals] = items else {
                return Err(err(pos, "malformed check-sat-assuming"));
            };
            let literals = literals
                .as_list()
                .ok_or_else(|| err(literals.pos, "expected a list of literals"))?;
            for l in literals {
                let t = self.checker.term(l)?;
                if t.sort != Sort::Bool {
                    return Err(err(l.pos, format!("assumption of sort {}", t.sort)));
                }
                self.assertions.push(t);
            }
        }
        // The formula is what the first check asks about: a model printed
        // after it answers that question.
        let (assertions, decls) = (&self.assertions, &self.checker.decls);
        self.first_check
            .get_or_insert_with(|| (assertions.clone(), decls.clone()));
        if head == "check-sat-assuming" {
            let keep = self.assertions.len() - items[1].as_list().map_or(0, <[Sexp]>::len);
            self.assertions.truncate(keep);
        }
        Ok(())
    }

    /// The script (what the first check asks about, else every assertion) and the
    /// coercions made.
    fn finish(mut self) -> (Script, Vec<Coercion>) {
        let coercions = std::mem::take(&mut self.checker.coercions);
        let (assertions, decls) = self
            .first_check
            .unwrap_or((self.assertions, self.checker.decls));
        (Script { decls, assertions }, coercions)
    }
}

/// How many levels a `push` or `pop` command names (1 when it names none).
fn push_pop_count(head: &str, items: &[Sexp], pos: Pos) -> Result<usize, ScriptError> {
    match items {
        [_] => Ok(1),
        [_, n] => match &n.kind {
            SexpKind::Numeral(k) => Ok(k.parse::<usize>().unwrap_or(usize::MAX)),
            _ => Err(err(n.pos, format!("malformed {head}"))),
        },
        _ => Err(err(pos, format!("malformed {head}"))),
    }
}

/// The datatypes a `declare-datatype` or `declare-datatypes` command declares, in
/// order: each one's name and its constructors' declarations, to be checked.
fn datatype_block<'a>(
    head: &str,
    items: &'a [Sexp],
    pos: Pos,
) -> Result<Vec<(&'a Sexp, &'a [Sexp])>, ScriptError> {
    match (head, items) {
        ("declare-datatype", [_, name, ctors]) => Ok(vec![(name, constructor_list(ctors)?)]),
        ("declare-datatypes", [_, sorts, bodies]) => {
            let sorts = sorts
                .as_list()
                .ok_or_else(|| err(sorts.pos, "expected a list of sorts"))?;
            let bodies = bodies
                .as_list()
                .ok_or_else(|| err(bodies.pos, "expected a list of datatype bodies"))?;
            if sorts.is_empty() {
                // SMT-LIB 2.5: each body is (T constructor ...).
                bodies
                    .iter()
                    .map(|b| match b.as_list() {
                        Some([name, ctors @ ..]) if name.as_symbol().is_some() => Ok((name, ctors)),
                        _ => Err(err(b.pos, "malformed datatype declaration")),
                    })
                    .collect()
            } else {
                named_datatypes(sorts, bodies, pos)
            }
        }
        _ => Err(err(pos, format!("malformed {head}"))),
    }
}

/// The datatypes of the SMT-LIB 2.6 form of `declare-datatypes`, whose `sorts` are
/// `(name arity)` and whose `bodies` are the lists of their constructors.
fn named_datatypes<'a>(
    sorts: &'a [Sexp],
    bodies: &'a [Sexp],
    pos: Pos,
) -> Result<Vec<(&'a Sexp, &'a [Sexp])>, ScriptError> {
    if sorts.len() != bodies.len() {
        return Err(err(
            pos,
            format!(
                "{} datatypes named and {} declared",
                sorts.len(),
                bodies.len()
            ),
        ));
    }
    sorts
        .iter()
        .zip(bodies)
        .map(|(sort, body)| {
            let (name, arity) = match sort.as_list() {
                Some([name, arity]) => (name, arity),
                _ => return Err(err(sort.pos, "expected (name arity)")),
            };
            match &arity.kind {
                SexpKind::Numeral(n) if n == "0" => {}
                SexpKind::Numeral(_) => {
                    return Err(err(
                        arity.pos,
                        "unsupported parametric datatype (arity above 0)",
                    ))
                }
                _ => return Err(err(arity.pos, "expected the datatype's arity")),
            }
            Ok((name, constructor_list(body)?))
        })
        .collect()
}

/// The constructors' declarations of a datatype's body; a parametric one, `(par ...)`,
/// is refused.
fn constructor_list(body: &Sexp) -> Result<&[Sexp], ScriptError> {
    if body.head() == Some("par") {
        return Err(err(
            body.pos,
            "unsupported parametric datatype (par ...)".to_string(),
        ));
    }
    body.as_list()
        .ok_or_else(|| err(body.pos, "expected a list of constructors"))
}

fn err(pos: Pos, message: impl Into<String>) -> ScriptError {
    ScriptError {
        pos,
        message: message.into(),
    }
}

/// Reads a literal that stands alone (numerals, decimals, bit-vectors, strings,
/// rounding modes, FP specials, `(fp ...)`, `(_ bvN w)`); `None` if it is no literal.
pub fn literal(sexp: &Sexp) -> Result<Option<Value>, ScriptError> {
    let value = match &sexp.kind {
        SexpKind::Numeral(n) => {
            Value::Int(BigInt::from_str_radix(n, 10).map_err(|_| err(sexp.pos, "bad numeral"))?)
        }
        SexpKind::Decimal(d) => {
            Value::Real(parse_decimal(d).ok_or_else(|| err(sexp.pos, "bad decimal"))?)
        }
        SexpKind::Hex(h) | SexpKind::Binary(h) => {
            let (radix, per_digit) = if matches!(sexp.kind, SexpKind::Hex(_)) {
                (16, 4)
            } else {
                (2, 1)
            };
            let width = (per_digit * h.len()) as u64;
            if width == 0 || width > u64::from(MAX_BV_WIDTH) {
                return Err(err(
                    sexp.pos,
                    format!("unsupported bit-vector literal width {width} (1 to {MAX_BV_WIDTH})"),
                ));
            }
            Value::bv_big(
                width as u32,
                BigUint::from_str_radix(h, radix)
                    .map_err(|_| err(sexp.pos, "bad bit-vector literal"))?,
            )
        }
        SexpKind::Str(s) => Value::Str(
            SmtString::parse_literal(&s.replace('"', "\"\""), Dialect::Smtlib26)
                .map_err(|e| err(sexp.pos, e.to_string()))?,
        ),
        SexpKind::Symbol(s) => match s.parse::<RoundingMode>() {
            Ok(rm) => Value::Rm(rm),
            Err(_) => return Ok(None),
        },
        SexpKind::List(items) => {
            let heads: Vec<Option<&str>> = items.iter().map(Sexp::as_symbol).collect();
            match heads.as_slice() {
                [Some("_"), Some(special), None, None] if is_fp_special(special) => {
                    let format = match (&items[2].kind, &items[3].kind) {
                        (SexpKind::Numeral(e), SexpKind::Numeral(s)) => {
                            match (e.parse::<u32>(), s.parse::<u32>()) {
                                (Ok(e), Ok(s)) => Sort::floating_point(e, s).ok().map(|_| (e, s)),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    let Some((eb, sb)) = format else {
                        return Err(err(
                            sexp.pos,
                            format!("unsupported floating-point format in '{sexp}'"),
                        ));
                    };
                    Value::float(match *special {
                        "+zero" => Fp::zero(eb, sb, false),
                        "-zero" => Fp::zero(eb, sb, true),
                        "+oo" => Fp::infinity(eb, sb, false),
                        "-oo" => Fp::infinity(eb, sb, true),
                        _ => Fp::nan(eb, sb),
                    })
                }
                [Some("_"), Some("char"), None] => match &items[2].kind {
                    SexpKind::Hex(h) if h.len() <= 5 => {
                        let code = u32::from_str_radix(h, 16)
                            .map_err(|_| err(items[2].pos, "bad character code"))?;
                        Value::Str(
                            SmtString::from_code_points([code])
                                .map_err(|e| err(sexp.pos, e.to_string()))?,
                        )
                    }
                    _ => return Err(err(sexp.pos, format!("bad character literal '{sexp}'"))),
                },
                [Some("_"), Some(bv), None]
                    if bv.starts_with("bv")
                        && bv[2..].chars().all(|c| c.is_ascii_digit())
                        && bv.len() > 2 =>
                {
                    let width = match &items[2].kind {
                        SexpKind::Numeral(w) => w
                            .parse::<u32>()
                            .ok()
                            .filter(|w| (1..=MAX_BV_WIDTH).contains(w)),
                        _ => None,
                    }
                    .ok_or_else(|| {
                        err(
                            items[2].pos,
                            format!("unsupported bit-vector width in '{sexp}'"),
                        )
                    })?;
                    let n = BigUint::from_str_radix(&bv[2..], 10)
                        .map_err(|_| err(sexp.pos, "bad numeral"))?;
                    Value::bv_big(width, n)
                }
                [Some("fp"), None, None, None] => {
                    let fields: Vec<Value> = items[1..]
                        .iter()
                        .map(|f| {
                            literal(f)?.ok_or_else(|| err(f.pos, "expected a bit-vector literal"))
                        })
                        .collect::<Result<_, _>>()?;
                    match fields.as_slice() {
                        [Value::BitVec { width: 1, bits: s }, Value::BitVec { width: eb, bits: e }, Value::BitVec { width: mb, bits: m }]
                            if Sort::floating_point(*eb, mb + 1).is_ok() =>
                        {
                            Value::float(Fp::from_fields(*eb, mb + 1, s, e, m))
                        }
                        _ => {
                            return Err(err(
                                sexp.pos,
                                format!("unsupported floating-point literal '{sexp}'"),
                            ))
                        }
                    }
                }
                _ => return Ok(None),
            }
        }
        SexpKind::Keyword(_) => return Ok(None),
    };
    Ok(Some(value))
}

fn is_fp_special(name: &str) -> bool {
    matches!(name, "+zero" | "-zero" | "+oo" | "-oo" | "NaN")
}

/// The exact value of a decimal `123.456`.
pub fn parse_decimal(text: &str) -> Option<BigRational> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{whole}{frac}");
    let numer = BigInt::from_str_radix(&digits, 10).ok()?;
    let denom = num_traits::pow(BigInt::from(10), frac.len());
    Some(BigRational::new(numer, denom))
}

/// The datatypes in scope: their sorts, constructors and selectors, by name.
#[derive(Default, Clone)]
struct Datatypes {
    sorts: HashMap<String, Sort>,
    /// The datatype and the constructor's number.
    constructors: HashMap<String, (DatatypeSort, usize)>,
    /// The datatype, the constructor's number and the field's.
    selectors: HashMap<String, (DatatypeSort, usize, usize)>,
}

#[derive(Default)]
struct Checker {
    vars: HashMap<String, usize>,
    decls: Vec<Decl>,
    /// `let` bindings, `define-fun` parameters, and variables bound by quantifiers and
    /// `match` patterns in scope, innermost last.
    scopes: Vec<HashMap<String, Term>>,
    /// How many variables quantifiers and `match` patterns bind around the term being
    /// checked: the level the next bound variable gets.
    depth: u32,
    /// Declared datatypes.
    datatypes: Datatypes,
    /// `define-fun`s and named terms: parameters, result sort, body.
    macros: HashMap<String, Macro>,
    /// Uninterpreted functions (`declare-fun` with parameters).
    functions: HashMap<String, Arc<FunDecl>>,
    /// Where an operator's Int argument became a Real.
    coercions: Vec<Coercion>,
}

/// A function the script defines (`define-fun`, or a named term `(! t :named n)` as a
/// function without parameters): expanded where it is applied.
#[derive(Clone)]
struct Macro {
    params: Vec<(String, Sort)>,
    sort: Sort,
    body: Sexp,
    /// The scope the body sees (a named term's enclosing `let`s).
    scope: Vec<HashMap<String, Term>>,
}

/// How deep `define-fun`s may expand into each other (a definition that refers to
/// itself is refused by the order of definitions, but a long chain still costs).
const MAX_EXPANSION: usize = 64;

impl Checker {
    fn term(&mut self, sexp: &Sexp) -> Result<Term, ScriptError> {
        crate::deep(|| self.term_inner(sexp))
    }

    /// Reads a sort: a theory's, or a declared datatype.
    fn sort(&self, sexp: &Sexp) -> Result<Sort, ScriptError> {
        Sort::parse_with(sexp, &|name| self.datatypes.sorts.get(name).cloned())
            .map_err(|m| err(sexp.pos, m))
    }

    /// Whether `name` already names a constant, function, definition, constructor or
    /// selector.
    fn taken(&self, name: &str) -> bool {
        self.vars.contains_key(name)
            || self.functions.contains_key(name)
            || self.macros.contains_key(name)
            || self.datatypes.constructors.contains_key(name)
            || self.datatypes.selectors.contains_key(name)
    }

    /// Declares the datatypes of a block: their sorts, constructors and selectors
    /// (`Err`: a name already taken, or a theory's).
    fn add_datatypes(&mut self, group: &Arc<DatatypeGroup>) -> Result<(), String> {
        for (i, t) in group.types.iter().enumerate() {
            let Some(sort) = DatatypeSort::new(group.clone(), i) else {
                continue;
            };
            self.datatypes
                .sorts
                .insert(t.name.to_string(), Sort::Datatype(sort.clone()));
            for (c, ctor) in t.constructors.iter().enumerate() {
                let names = std::iter::once(&ctor.name).chain(ctor.fields.iter().map(|f| &f.name));
                for name in names {
                    if self.taken(name) {
                        return Err(format!("'{name}' is declared twice"));
                    }
                    if Op::from_name(name).is_some()
                        || matches!(
                            &**name,
                            "true"
                                | "false"
                                | "let"
                                | "forall"
                                | "exists"
                                | "match"
                                | "as"
                                | "_"
                                | "!"
                        )
                    {
                        return Err(format!(
                            "'{name}' is a theory's symbol, not a constructor or selector"
                        ));
                    }
                }
                self.datatypes
                    .constructors
                    .insert(ctor.name.to_string(), (sort.clone(), c));
                for (k, field) in ctor.fields.iter().enumerate() {
                    self.datatypes
                        .selectors
                        .insert(field.name.to_string(), (sort.clone(), c, k));
                }
            }
        }
        Ok(())
    }

    /// Declares the datatypes of a block as [`Checker::add_datatypes`] does, except
    /// that a constructor or selector whose name is taken (by a function of a model,
    /// e.g. its definition of a selector) is left out rather than an error.
    fn add_datatypes_over(&mut self, group: &Arc<DatatypeGroup>) {
        for (i, t) in group.types.iter().enumerate() {
            let Some(sort) = DatatypeSort::new(group.clone(), i) else {
                continue;
            };
            self.datatypes
                .sorts
                .insert(t.name.to_string(), Sort::Datatype(sort.clone()));
            for (c, ctor) in t.constructors.iter().enumerate() {
                if !self.taken(&ctor.name) {
                    self.datatypes
                        .constructors
                        .insert(ctor.name.to_string(), (sort.clone(), c));
                }
                for (k, field) in ctor.fields.iter().enumerate() {
                    if !self.taken(&field.name) {
                        self.datatypes
                            .selectors
                            .insert(field.name.to_string(), (sort.clone(), c, k));
                    }
                }
            }
        }
    }

    /// Whether `head` (of an application) is a datatype's constructor (also `(as c
    /// T)`), selector or tester (`(_ is c)`, `is-c`).
    fn is_datatype_head(&self, head: &Sexp) -> bool {
        let dt = &self.datatypes;
        if dt.constructors.is_empty() {
            return false;
        }
        match &head.kind {
            SexpKind::Symbol(name) => {
                dt.constructors.contains_key(name)
                    || dt.selectors.contains_key(name)
                    || name
                        .strip_prefix("is-")
                        .is_some_and(|c| dt.constructors.contains_key(c))
            }
            SexpKind::List(items) => {
                match items.iter().map(Sexp::as_symbol).collect::<Vec<_>>()[..] {
                    [Some("_"), Some("is"), Some(c)] | [Some("as"), Some(c), _] => {
                        dt.constructors.contains_key(c)
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// A constructor, selector or tester applied (`sexp` is the whole application,
    /// `items` its elements).
    fn datatype_application(&mut self, sexp: &Sexp, items: &[Sexp]) -> Result<Term, ScriptError> {
        let head = &items[0];
        let mut args = items[1..]
            .iter()
            .map(|a| self.term(a))
            .collect::<Result<Vec<_>, _>>()?;
        let name = match &head.kind {
            SexpKind::Symbol(name) => name.as_str(),
            SexpKind::List(parts) => {
                match parts.iter().map(Sexp::as_symbol).collect::<Vec<_>>()[..] {
                    [Some("_"), Some("is"), Some(c)] => {
                        let Some((dt, c)) = self.datatypes.constructors.get(c).cloned() else {
                            return Err(err(head.pos, format!("unknown constructor '{c}'")));
                        };
                        return tester(dt, c, args, sexp);
                    }
                    [Some("as"), Some(c), _] => {
                        let Some((dt, _)) = self.datatypes.constructors.get(c) else {
                            return Err(err(head.pos, format!("unknown constructor '{c}'")));
                        };
                        let annotated = self.sort(&parts[2])?;
                        if annotated != Sort::Datatype(dt.clone()) {
                            return Err(err(
                                parts[2].pos,
                                format!("'{c}' is a constructor of {dt}, not of {annotated}"),
                            ));
                        }
                        c
                    }
                    _ => return Err(err(head.pos, format!("unsupported operator '{head}'"))),
                }
            }
            _ => return Err(err(head.pos, format!("unsupported operator '{head}'"))),
        };
        if let Some((dt, c)) = self.datatypes.constructors.get(name).cloned() {
            let want = dt.field_sorts(c);
            if args.len() != want.len() {
                return Err(err(
                    sexp.pos,
                    format!(
                        "'{name}' takes {} arguments, not {} in '{sexp}'",
                        want.len(),
                        args.len()
                    ),
                ));
            }
            let mut checked = Vec::with_capacity(args.len());
            for ((a, want), item) in args.into_iter().zip(&want).zip(&items[1..]) {
                checked
                    .push(coerce(a, want).map_err(|m| err(item.pos, format!("{m} in '{sexp}'")))?);
            }
            // A constructor of values is a value (as a model prints it).
            if checked.iter().all(|a| matches!(a.kind, TermKind::Lit(_))) {
                let fields = checked
                    .iter()
                    .filter_map(|a| match &a.kind {
                        TermKind::Lit(v) => Some(v.clone()),
                        _ => None,
                    })
                    .collect();
                return Ok(Term::lit(dt.value(c, fields)));
            }
            return Ok(Term {
                kind: TermKind::Datatype(DtOp::Construct(c), checked),
                sort: Sort::Datatype(dt),
            });
        }
        if let Some((dt, c, k)) = self.datatypes.selectors.get(name).cloned() {
            let [arg] = args.as_slice() else {
                return Err(err(
                    sexp.pos,
                    format!("'{name}' takes 1 arguments, not {} in '{sexp}'", args.len()),
                ));
            };
            if arg.sort != Sort::Datatype(dt.clone()) {
                return Err(err(
                    items[1].pos,
                    format!("expected {dt}, found {} '{arg}' in '{sexp}'", arg.sort),
                ));
            }
            return Ok(Term {
                sort: dt.field_sort(c, k),
                kind: TermKind::Datatype(DtOp::Select(c, k), std::mem::take(&mut args)),
            });
        }
        match name
            .strip_prefix("is-")
            .and_then(|c| self.datatypes.constructors.get(c))
        {
            Some((dt, c)) => tester(dt.clone(), *c, args, sexp),
            None => Err(err(head.pos, format!("unsupported operator '{name}'"))),
        }
    }

    /// `(forall ((x S) ...) body)` or `(exists ...)`: the variables bound at the next
    /// levels, hiding constants and outer variables of the same names in the body.
    fn quantifier(
        &mut self,
        kind: QuantKind,
        items: &[Sexp],
        pos: Pos,
    ) -> Result<Term, ScriptError> {
        let [_, vars, body] = items else {
            return Err(err(pos, format!("malformed {kind}")));
        };
        let vars = vars
            .as_list()
            .filter(|v| !v.is_empty())
            .ok_or_else(|| err(vars.pos, format!("{kind} needs a list of variables")))?;
        let level = self.depth;
        let mut scope = HashMap::new();
        let mut bound: Vec<(Arc<str>, Sort)> = Vec::with_capacity(vars.len());
        for (i, v) in vars.iter().enumerate() {
            let Some([name, sort]) = v.as_list() else {
                return Err(err(v.pos, "expected (variable sort)"));
            };
            let name: Arc<str> = name
                .as_symbol()
                .ok_or_else(|| err(name.pos, "expected a variable name"))?
                .into();
            let sort = self.sort(sort)?;
            if sort == Sort::RegLan {
                return Err(err(v.pos, "a variable of sort RegLan"));
            }
            if bound.iter().any(|(n, _)| *n == name) {
                return Err(err(v.pos, format!("'{name}' is bound twice")));
            }
            scope.insert(
                name.to_string(),
                Term {
                    kind: TermKind::Bound(level + i as u32, name.clone()),
                    sort: sort.clone(),
                },
            );
            bound.push((name, sort));
        }
        let body = self.bind(scope, bound.len() as u32, body)?;
        if body.sort != Sort::Bool {
            return Err(err(
                items[2].pos,
                format!("the body of {kind} has sort {}, not Bool", body.sort),
            ));
        }
        Ok(Term {
            kind: TermKind::Quantifier(
                Arc::new(Quantifier {
                    kind,
                    vars: bound,
                    level,
                }),
                vec![body],
            ),
            sort: Sort::Bool,
        })
    }

    /// Checks `body` with `scope`'s `count` bound variables in scope (at the next
    /// levels).
    fn bind(
        &mut self,
        scope: HashMap<String, Term>,
        count: u32,
        body: &Sexp,
    ) -> Result<Term, ScriptError> {
        self.depth += count;
        self.scopes.push(scope);
        let body = self.term(body);
        self.scopes.pop();
        self.depth -= count;
        body
    }

    /// `(match t ((pattern body) ...))`: a pattern is a constructor without fields,
    /// a constructor with one variable per field, or a variable (bound to `t`).
    fn match_term(&mut self, items: &[Sexp], pos: Pos) -> Result<Term, ScriptError> {
        let [_, scrutinee, cases] = items else {
            return Err(err(pos, "malformed match"));
        };
        let t = self.term(scrutinee)?;
        let Some(dt) = t.sort.datatype().cloned() else {
            return Err(err(
                scrutinee.pos,
                format!("match on a {}, not a datatype", t.sort),
            ));
        };
        let cases = cases
            .as_list()
            .filter(|c| !c.is_empty())
            .ok_or_else(|| err(cases.pos, "match needs a list of cases"))?;
        let mut patterns = Vec::with_capacity(cases.len());
        let mut args = vec![t];
        for case in cases {
            let Some([pattern, body]) = case.as_list() else {
                return Err(err(case.pos, "expected (pattern term)"));
            };
            let level = self.depth;
            let (pattern, bound): (Pattern, Vec<(Arc<str>, Sort)>) = match &pattern.kind {
                SexpKind::Symbol(name) => match dt.constructor_index(name) {
                    Some(c) if dt.constructors()[c].fields.is_empty() => {
                        (Pattern::Constructor(c, Vec::new()), Vec::new())
                    }
                    Some(_) => {
                        return Err(err(
                            pattern.pos,
                            format!("the pattern '{name}' needs a variable per field"),
                        ))
                    }
                    None => {
                        let name: Arc<str> = name.as_str().into();
                        (
                            Pattern::Var(name.clone()),
                            vec![(name, Sort::Datatype(dt.clone()))],
                        )
                    }
                },
                SexpKind::List(parts) => {
                    let c = parts
                        .first()
                        .and_then(Sexp::as_symbol)
                        .and_then(|n| dt.constructor_index(n))
                        .ok_or_else(|| {
                            err(
                                pattern.pos,
                                format!("'{pattern}' is no constructor of {dt}"),
                            )
                        })?;
                    let sorts = dt.field_sorts(c);
                    if parts.len() - 1 != sorts.len() {
                        return Err(err(
                            pattern.pos,
                            format!(
                                "the pattern '{pattern}' has {} variables for {} fields",
                                parts.len() - 1,
                                sorts.len()
                            ),
                        ));
                    }
                    let mut vars: Vec<Arc<str>> = Vec::new();
                    for p in &parts[1..] {
                        let v: Arc<str> = p
                            .as_symbol()
                            .ok_or_else(|| err(p.pos, "expected a pattern variable"))?
                            .into();
                        if vars.contains(&v) {
                            return Err(err(p.pos, format!("'{v}' is bound twice")));
                        }
                        vars.push(v);
                    }
                    let bound = vars.iter().cloned().zip(sorts).collect();
                    (Pattern::Constructor(c, vars), bound)
                }
                _ => return Err(err(pattern.pos, "malformed pattern")),
            };
            let scope: HashMap<String, Term> = bound
                .iter()
                .enumerate()
                .map(|(i, (name, sort))| {
                    (
                        name.to_string(),
                        Term {
                            kind: TermKind::Bound(level + i as u32, name.clone()),
                            sort: sort.clone(),
                        },
                    )
                })
                .collect();
            args.push(self.bind(scope, bound.len() as u32, body)?);
            patterns.push(MatchCase { pattern, level });
        }
        let sort = same(&mut args[1..]).map_err(|m| err(pos, format!("{m} in a match")))?;
        Ok(Term {
            kind: TermKind::Match(patterns.into(), args),
            sort,
        })
    }

    /// `(as t S)` as a term: a constructor without fields of datatype `S`, or a term of
    /// sort `S`.
    fn qualified(&mut self, items: &[Sexp], pos: Pos) -> Result<Term, ScriptError> {
        let [_, name, sort] = items else {
            return Err(err(pos, "malformed (as ...)"));
        };
        let sort = self.sort(sort)?;
        if let Some((dt, c)) = name
            .as_symbol()
            .and_then(|n| self.datatypes.constructors.get(n))
            .cloned()
        {
            if Sort::Datatype(dt.clone()) != sort {
                return Err(err(
                    pos,
                    format!("'{name}' is a constructor of {dt}, not of {sort}"),
                ));
            }
            if !dt.constructors()[c].fields.is_empty() {
                return Err(err(
                    pos,
                    format!(
                        "'{name}' takes {} arguments, not 0",
                        dt.constructors()[c].fields.len()
                    ),
                ));
            }
            return Ok(Term::lit(dt.value(c, Vec::new())));
        }
        let t = self.term(name)?;
        coerce(t, &sort).map_err(|m| err(pos, m))
    }

    /// Applies a macro to checked arguments: its body checked with the parameters
    /// bound to them.
    fn expand(&mut self, name: &str, args: Vec<Term>, pos: Pos) -> Result<Term, ScriptError> {
        let Some(m) = self.macros.get(name).cloned() else {
            return Err(err(pos, format!("unsupported operator '{name}'")));
        };
        if args.len() != m.params.len() {
            return Err(err(
                pos,
                format!(
                    "'{name}' takes {} arguments, not {}",
                    m.params.len(),
                    args.len()
                ),
            ));
        }
        if self.scopes.len() > MAX_EXPANSION * 4 {
            return Err(err(pos, format!("'{name}' expands too deeply")));
        }
        let mut scope = HashMap::new();
        for ((p, sort), a) in m.params.iter().zip(args) {
            scope.insert(p.clone(), coerce(a, sort).map_err(|msg| err(pos, msg))?);
        }
        let saved = std::mem::replace(&mut self.scopes, m.scope.clone());
        self.scopes.push(scope);
        let body = self.term(&m.body);
        self.scopes = saved;
        let body = body?;
        coerce(body, &m.sort).map_err(|msg| err(pos, msg))
    }

    fn term_inner(&mut self, sexp: &Sexp) -> Result<Term, ScriptError> {
        if let Some(value) = literal(sexp)? {
            return Ok(Term::lit(value));
        }
        match &sexp.kind {
            SexpKind::Symbol(name) => self.symbol(name, sexp.pos),
            SexpKind::List(items) if items.first().and_then(Sexp::as_symbol) == Some("let") => {
                self.let_term(items, sexp.pos)
            }
            SexpKind::List(items) if items.first().and_then(Sexp::as_symbol) == Some("!") => {
                self.annotated(items, sexp.pos)
            }
            SexpKind::List(items)
                if matches!(
                    items.first().and_then(Sexp::as_symbol),
                    Some("forall" | "exists")
                ) =>
            {
                let kind = if items[0].is_symbol("forall") {
                    QuantKind::Forall
                } else {
                    QuantKind::Exists
                };
                self.quantifier(kind, items, sexp.pos)
            }
            SexpKind::List(items) if items.first().and_then(Sexp::as_symbol) == Some("match") => {
                self.match_term(items, sexp.pos)
            }
            SexpKind::List(items)
                if items.len() == 3 && items[0].is_symbol("as") && !items[1].is_symbol("const") =>
            {
                self.qualified(items, sexp.pos)
            }
            SexpKind::List(items)
                if items
                    .first()
                    .and_then(Sexp::as_symbol)
                    .is_some_and(|h| self.macros.contains_key(h)) =>
            {
                let args = items[1..]
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Result<Vec<_>, _>>()?;
                self.expand(items[0].as_symbol().unwrap_or_default(), args, sexp.pos)
            }
            SexpKind::List(items)
                if items
                    .first()
                    .and_then(Sexp::as_symbol)
                    .is_some_and(|h| self.functions.contains_key(h)) =>
            {
                self.call(sexp, items)
            }
            SexpKind::List(items) if !items.is_empty() && self.is_datatype_head(&items[0]) => {
                self.datatype_application(sexp, items)
            }
            SexpKind::List(items) if !items.is_empty() => self.application(sexp, items),
            _ => Err(err(sexp.pos, format!("unsupported term '{sexp}'"))),
        }
    }

    /// A symbol in term position: a bound name, a definition without parameters, a
    /// declared constant, or a constant of a theory.
    fn symbol(&mut self, name: &str, pos: Pos) -> Result<Term, ScriptError> {
        if let Some(t) = self.scopes.iter().rev().find_map(|s| s.get(name)) {
            return Ok(t.clone());
        }
        if self.macros.contains_key(name) {
            return self.expand(name, Vec::new(), pos);
        }
        if let Some(f) = self.functions.get(name) {
            return Err(err(
                pos,
                format!(
                    "'{name}' takes {} arguments, not 0 (it is a function)",
                    f.params.len()
                ),
            ));
        }
        if let Some(&i) = self.vars.get(name) {
            let decl = &self.decls[i];
            return Ok(Term {
                kind: TermKind::Var(i, decl.name.clone()),
                sort: decl.sort.clone(),
            });
        }
        if let Some((dt, c)) = self.datatypes.constructors.get(name) {
            let fields = dt.constructors()[*c].fields.len();
            if fields > 0 {
                return Err(err(
                    pos,
                    format!("'{name}' takes {fields} arguments, not 0 (it is a constructor)"),
                ));
            }
            return Ok(Term::lit(dt.value(*c, Vec::new())));
        }
        if self.datatypes.selectors.contains_key(name) {
            return Err(err(
                pos,
                format!("'{name}' takes 1 arguments, not 0 (it is a selector)"),
            ));
        }
        let constant = match name {
            "true" => return Ok(Term::lit(Value::Bool(true))),
            "real.pi" => {
                return Ok(Term {
                    kind: TermKind::App(Op::Pi, Vec::new()),
                    sort: Sort::Real,
                })
            }
            "false" => return Ok(Term::lit(Value::Bool(false))),
            "re.none" | "re.nostr" => ReConst::None,
            "re.all" => ReConst::All,
            "re.allchar" => ReConst::Allchar,
            _ => return Err(err(pos, format!("unknown constant '{name}'"))),
        };
        Ok(Term {
            kind: TermKind::ReConst(constant),
            sort: Sort::RegLan,
        })
    }

    /// `(let ((x t) ...) body)`.
    fn let_term(&mut self, items: &[Sexp], pos: Pos) -> Result<Term, ScriptError> {
        let [_, bindings, body] = items else {
            return Err(err(pos, "malformed let"));
        };
        let bindings = bindings
            .as_list()
            .ok_or_else(|| err(bindings.pos, "expected let bindings"))?;
        // Parallel: every bound term is checked in the outer scope.
        let mut scope = HashMap::new();
        for b in bindings {
            match b.as_list() {
                Some([name, t]) if name.as_symbol().is_some() => {
                    let t = self.term(t)?;
                    scope.insert(name.as_symbol().unwrap_or_default().to_string(), t);
                }
                _ => return Err(err(b.pos, "malformed let binding")),
            }
        }
        self.scopes.push(scope);
        let body = self.term(body);
        self.scopes.pop();
        body
    }

    /// `(! t :named n ...)`: the term itself; a name becomes a definition without
    /// parameters.
    fn annotated(&mut self, items: &[Sexp], pos: Pos) -> Result<Term, ScriptError> {
        let Some(body) = items.get(1) else {
            return Err(err(pos, "malformed annotation"));
        };
        let term = self.term(body)?;
        let mut rest = items[2..].iter();
        while let Some(attr) = rest.next() {
            if let SexpKind::Keyword(k) = &attr.kind {
                if k == "named" {
                    let name = rest
                        .next()
                        .and_then(Sexp::as_symbol)
                        .ok_or_else(|| err(attr.pos, ":named needs a symbol"))?;
                    // Inside a quantifier a name would outlive the variables the term
                    // mentions: the annotation is dropped (like `:pattern`).
                    if self.depth > 0 && term.has_free_bound() {
                        continue;
                    }
                    self.macros.insert(
                        name.to_string(),
                        Macro {
                            params: Vec::new(),
                            sort: term.sort.clone(),
                            body: body.clone(),
                            scope: self.scopes.clone(),
                        },
                    );
                }
            }
        }
        Ok(term)
    }

    /// An uninterpreted function applied to arguments (`sexp` is the whole application,
    /// `items` its elements): as many as it has parameters, each of its parameter's
    /// sort (an Int where a Real is expected becomes a Real, as for operators).
    fn call(&mut self, sexp: &Sexp, items: &[Sexp]) -> Result<Term, ScriptError> {
        let name = items[0].as_symbol().unwrap_or_default();
        let Some(decl) = self.functions.get(name).cloned() else {
            return Err(err(sexp.pos, format!("unknown function '{name}'")));
        };
        let args = items[1..]
            .iter()
            .map(|a| self.term(a))
            .collect::<Result<Vec<_>, _>>()?;
        if args.len() != decl.params.len() {
            return Err(err(
                sexp.pos,
                format!(
                    "'{name}' takes {} arguments, not {} in '{sexp}'",
                    decl.params.len(),
                    args.len()
                ),
            ));
        }
        let mut checked = Vec::with_capacity(args.len());
        for ((a, want), item) in args.into_iter().zip(&decl.params).zip(&items[1..]) {
            let int = a.sort == Sort::Int && !matches!(a.kind, TermKind::Lit(_));
            let a = coerce(a, want).map_err(|m| err(item.pos, format!("{m} in '{sexp}'")))?;
            if int && a.sort == Sort::Real {
                self.coercions.push(Coercion {
                    operator: "uninterpreted function",
                    pos: sexp.pos,
                });
            }
            checked.push(a);
        }
        Ok(Term {
            sort: decl.sort.clone(),
            kind: TermKind::Call(decl, checked),
        })
    }

    /// An operator of a theory applied to arguments (`sexp` is the whole application,
    /// `items` its elements); records where an Int argument became a Real.
    fn application(&mut self, sexp: &Sexp, items: &[Sexp]) -> Result<Term, ScriptError> {
        let (op, array_sort) = self.operator(&items[0])?;
        let mut args = items[1..]
            .iter()
            .map(|a| self.term(a))
            .collect::<Result<Vec<_>, _>>()?;
        if op == Op::ConstArray {
            let sort = array_sort.expect("const carries its sort");
            return const_array(sort, args, items, sexp.pos);
        }
        let ints: Vec<bool> = args
            .iter()
            .map(|a| a.sort == Sort::Int && !matches!(a.kind, TermKind::Lit(_)))
            .collect();
        let sort =
            signature(op, &mut args).map_err(|m| err(sexp.pos, format!("{m} in '{sexp}'")))?;
        if args
            .iter()
            .zip(ints)
            .any(|(a, int)| int && a.sort == Sort::Real)
        {
            self.coercions.push(Coercion {
                operator: op.name(),
                pos: sexp.pos,
            });
        }
        Ok(Term {
            kind: TermKind::App(op, args),
            sort,
        })
    }

    /// The operator in head position: a name, `(_ re.loop i j)`, `(_ re.^ n)` or
    /// `(as const S)` (then with its sort).
    fn operator(&self, head: &Sexp) -> Result<(Op, Option<Sort>), ScriptError> {
        match &head.kind {
            SexpKind::Symbol(name) => Op::from_name(name)
                .or(match name.as_str() {
                    // Names older solvers and grammars use.
                    "str.in.re" => Some(Op::StrInRe),
                    "str.to.re" => Some(Op::StrToRe),
                    "str.to.int" | "str.to-int" => Some(Op::StrToInt),
                    "int.to.str" | "str.from-int" => Some(Op::StrFromInt),
                    "bv2int" | "ubv_to_int" => Some(Op::Bv2Nat),
                    _ => None,
                })
                .map(|op| (op, None))
                .ok_or_else(|| err(head.pos, format!("unsupported operator '{name}'"))),
            SexpKind::List(items) => {
                let heads: Vec<Option<&str>> = items.iter().map(Sexp::as_symbol).collect();
                let numeral = |s: &Sexp| match &s.kind {
                    SexpKind::Numeral(n) => n.parse::<u32>().ok(),
                    _ => None,
                };
                match heads.as_slice() {
                    [Some("_"), Some("re.loop"), None, None] => {
                        match (numeral(&items[2]), numeral(&items[3])) {
                            (Some(i), Some(j)) => Ok((Op::ReLoop(i, j), None)),
                            _ => Err(err(head.pos, format!("bad indices in '{head}'"))),
                        }
                    }
                    [Some("_"), Some("re.^"), None] => match numeral(&items[2]) {
                        Some(n) => Ok((Op::RePower(n), None)),
                        None => Err(err(head.pos, format!("bad index in '{head}'"))),
                    },
                    [Some("_"), Some(name), None, ..] => {
                        let indices: Vec<u32> = items[2..].iter().filter_map(numeral).collect();
                        if indices.len() != items.len() - 2 {
                            return Err(err(head.pos, format!("bad indices in '{head}'")));
                        }
                        let op = match (*name, indices.as_slice()) {
                            ("extract", &[i, j]) => Op::Extract(i, j),
                            ("zero_extend", &[k]) => Op::ZeroExtend(k),
                            ("sign_extend", &[k]) => Op::SignExtend(k),
                            ("repeat", &[k]) => Op::Repeat(k),
                            ("rotate_left", &[k]) => Op::RotateLeft(k),
                            ("rotate_right", &[k]) => Op::RotateRight(k),
                            ("int2bv" | "int_to_bv", &[k]) => Op::Int2Bv(k),
                            ("divisible", &[k]) if k > 0 => Op::Divisible(k),
                            ("to_fp", &[e, s]) => Op::ToFp(e, s),
                            ("to_fp_unsigned", &[e, s]) => Op::ToFpUnsigned(e, s),
                            ("fp.to_ubv", &[k]) => Op::FpToUbv(k),
                            ("fp.to_sbv", &[k]) => Op::FpToSbv(k),
                            _ => {
                                return Err(err(head.pos, format!("unsupported operator '{head}'")))
                            }
                        };
                        Ok((op, None))
                    }
                    [Some("as"), Some("const"), _] => {
                        let sort = Sort::parse(&items[2]).map_err(|m| err(items[2].pos, m))?;
                        if sort.array_parts().is_none() {
                            return Err(err(
                                items[2].pos,
                                format!("(as const {sort}) needs an array sort"),
                            ));
                        }
                        Ok((Op::ConstArray, Some(sort)))
                    }
                    _ => Err(err(head.pos, format!("unsupported operator '{head}'"))),
                }
            }
            _ => Err(err(head.pos, format!("unsupported operator '{head}'"))),
        }
    }
}

/// `((as const sort) value)` with its checked arguments (`items` are the
/// application's elements, at `pos`).
fn const_array(
    sort: Sort,
    mut args: Vec<Term>,
    items: &[Sexp],
    pos: Pos,
) -> Result<Term, ScriptError> {
    let [value] = args.as_mut_slice() else {
        return Err(err(pos, "(as const ...) takes one value"));
    };
    let (_, element) = sort.array_parts().expect("checked array sort");
    let element = element.clone();
    let value = std::mem::replace(value, Term::lit(Value::Bool(false)));
    let value = coerce(value, &element).map_err(|m| err(items[1].pos, m))?;
    // A constant array of a literal is itself a literal.
    if let TermKind::Lit(v) = &value.kind {
        return Ok(Term::lit(Value::Array(Arc::new(ArrayValue::constant(
            sort,
            v.clone(),
        )))));
    }
    Ok(Term {
        kind: TermKind::App(Op::ConstArray, vec![value]),
        sort,
    })
}

/// The tester of constructor `c` of `dt` applied to `args` (`sexp`: the application).
fn tester(dt: DatatypeSort, c: usize, args: Vec<Term>, sexp: &Sexp) -> Result<Term, ScriptError> {
    let [arg] = args.as_slice() else {
        return Err(err(
            sexp.pos,
            format!("a tester takes 1 arguments, not {} in '{sexp}'", args.len()),
        ));
    };
    if arg.sort != Sort::Datatype(dt.clone()) {
        return Err(err(
            sexp.pos,
            format!("expected {dt}, found {} '{arg}' in '{sexp}'", arg.sort),
        ));
    }
    Ok(Term {
        kind: TermKind::Datatype(DtOp::Test(c), args),
        sort: Sort::Bool,
    })
}

/// A stand-in of sort `sort` for a parameter while a definition is checked.
fn placeholder(sort: &Sort) -> Term {
    Term {
        kind: TermKind::Var(usize::MAX, "parameter".into()),
        sort: sort.clone(),
    }
}

/// `term` as a term of sort `want`: itself, or an Int term inside `to_real`.
fn coerce(term: Term, want: &Sort) -> Result<Term, String> {
    if &term.sort == want {
        return Ok(term);
    }
    if term.sort == Sort::Int && *want == Sort::Real {
        return Ok(match &term.kind {
            TermKind::Lit(Value::Int(n)) => {
                Term::lit(Value::Real(BigRational::from_integer(n.clone())))
            }
            _ => Term {
                kind: TermKind::App(Op::ToReal, vec![term]),
                sort: Sort::Real,
            },
        });
    }
    Err(format!("expected {want}, found {} '{term}'", term.sort))
}

/// Coerces every argument to `want`.
fn all(args: &mut [Term], want: &Sort) -> Result<(), String> {
    for a in args.iter_mut() {
        let t = std::mem::replace(a, Term::lit(Value::Bool(false)));
        *a = coerce(t, want)?;
    }
    Ok(())
}

/// The common numeric sort of arithmetic arguments: Real if any is Real.
fn numeric(args: &mut [Term]) -> Result<Sort, String> {
    if let Some(bad) = args.iter().find(|a| !a.sort.is_numeric()) {
        return Err(format!("expected Int or Real, found {} '{bad}'", bad.sort));
    }
    let sort = if args.iter().any(|a| a.sort == Sort::Real) {
        Sort::Real
    } else {
        Sort::Int
    };
    all(args, &sort)?;
    Ok(sort)
}

/// The common sort of `=`, `distinct` and `ite` branches (numeric arguments may mix).
fn same(args: &mut [Term]) -> Result<Sort, String> {
    if args.iter().all(|a| a.sort.is_numeric()) {
        return numeric(args);
    }
    let sort = args[0].sort.clone();
    all(args, &sort)?;
    Ok(sort)
}

fn arity(op: Op, args: &[Term], min: usize, max: usize) -> Result<(), String> {
    if args.len() < min || args.len() > max {
        let want = if min == max {
            format!("{min}")
        } else if max == usize::MAX {
            format!("at least {min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(format!(
            "'{}' takes {want} arguments, not {}",
            op.name(),
            args.len()
        ));
    }
    Ok(())
}

fn bv_width(args: &[Term]) -> Result<u32, String> {
    let Sort::BitVec(w) = args[0].sort else {
        return Err(format!(
            "expected a bit-vector, found {} '{}'",
            args[0].sort, args[0]
        ));
    };
    if let Some(bad) = args.iter().find(|a| a.sort != Sort::BitVec(w)) {
        return Err(format!(
            "expected (_ BitVec {w}), found {} '{bad}'",
            bad.sort
        ));
    }
    Ok(w)
}

/// The common floating-point sort of the arguments.
fn fp_sort(args: &[Term]) -> Result<Sort, String> {
    let sort = args[0].sort.clone();
    if sort.fp_format().is_none() {
        return Err(format!(
            "expected a floating-point number, found {} '{}'",
            sort, args[0]
        ));
    }
    if let Some(bad) = args.iter().find(|a| a.sort != sort) {
        return Err(format!("expected {sort}, found {} '{bad}'", bad.sort));
    }
    Ok(sort)
}

/// The sort of a bit-vector width, if supported.
fn checked_width(w: u64) -> Result<Sort, String> {
    if (1..=u64::from(MAX_BV_WIDTH)).contains(&w) {
        Ok(Sort::BitVec(w as u32))
    } else {
        Err(format!(
            "unsupported bit-vector width {w} (1 to {MAX_BV_WIDTH})"
        ))
    }
}

/// No upper bound on the number of arguments (left-associative and chainable
/// operators).
const MANY: usize = usize::MAX;

/// Checks the arguments of `op` (coercing Int to Real where a Real is expected) and
/// returns the result sort.
fn signature(op: Op, args: &mut [Term]) -> Result<Sort, String> {
    use Op::*;
    match op {
        Not | And | Or | Xor | Implies | Eq | Distinct | Ite => core_signature(op, args),
        Sub | Add | Mul | RealDiv | IntDiv | Mod | Abs | Lt | Le | Gt | Ge | ToReal | ToInt
        | IsInt | Pi | Sin | Cos | Tan | Divisible(_) => arithmetic_signature(op, args),
        BvNot | BvNeg | BvAnd | BvOr | BvXor | BvAdd | BvMul | BvSub | BvUdiv | BvUrem | BvSdiv
        | BvSrem | BvSmod | BvShl | BvLshr | BvAshr | BvUlt | BvUle | BvUgt | BvUge | BvSlt
        | BvSle | BvSgt | BvSge | Bv2Nat | Sbv2Int | BvNand | BvNor | BvXnor | BvComp | Concat
        | Extract(..) | ZeroExtend(_) | SignExtend(_) | Repeat(_) | RotateLeft(_)
        | RotateRight(_) | Int2Bv(_) => bitvector_signature(op, args),
        Select | Store | ConstArray => array_signature(op, args),
        FpAbs | FpNeg | FpAdd | FpSub | FpMul | FpDiv | FpFma | FpSqrt | FpRoundToIntegral
        | FpRem | FpMin | FpMax | FpLeq | FpLt | FpGeq | FpGt | FpEq | FpIsNaN | FpIsZero
        | FpIsInfinite | FpIsNormal | FpIsSubnormal | FpIsNegative | FpIsPositive | FpToReal
        | FpFromFields | ToFp(..) | ToFpUnsigned(..) | FpToUbv(_) | FpToSbv(_) => {
            floating_point_signature(op, args)
        }
        StrConcat | StrLen | StrToInt | StrToCode | StrIsDigit | StrFromInt | StrFromCode
        | StrAt | StrSubstr | StrPrefixof | StrSuffixof | StrContains | StrLt | StrLe
        | StrIndexof | StrReplace | StrReplaceAll | StrReplaceRe | StrReplaceReAll | StrInRe
        | StrToRe | ReRange | ReConcat | ReUnion | ReInter | ReDiff | ReComp | ReStar | RePlus
        | ReOpt | ReLoop(..) | RePower(_) => string_signature(op, args),
    }
}

/// Core theory: the Boolean connectives, `=`, `distinct` and `ite`.
fn core_signature(op: Op, args: &mut [Term]) -> Result<Sort, String> {
    use Op::*;
    let sort = match op {
        Not => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::Bool)?;
            Sort::Bool
        }
        And | Or | Xor | Implies => {
            arity(op, args, if matches!(op, And | Or) { 1 } else { 2 }, MANY)?;
            all(args, &Sort::Bool)?;
            Sort::Bool
        }
        Eq | Distinct => {
            arity(op, args, 2, MANY)?;
            same(args)?;
            Sort::Bool
        }
        Ite => {
            arity(op, args, 3, 3)?;
            all(&mut args[..1], &Sort::Bool)?;
            same(&mut args[1..])?
        }
        _ => unreachable!("not a core operator: {op:?}"),
    };
    Ok(sort)
}

/// Ints and Reals: arithmetic, comparisons, conversions, `divisible` and the
/// transcendental functions.
fn arithmetic_signature(op: Op, args: &mut [Term]) -> Result<Sort, String> {
    use Op::*;
    let sort = match op {
        Sub => {
            arity(op, args, 1, MANY)?;
            numeric(args)?
        }
        Add | Mul => {
            arity(op, args, 2, MANY)?;
            numeric(args)?
        }
        RealDiv => {
            arity(op, args, 2, MANY)?;
            all(args, &Sort::Real)?;
            Sort::Real
        }
        IntDiv | Mod => {
            arity(op, args, 2, if op == Mod { 2 } else { MANY })?;
            all(args, &Sort::Int)?;
            Sort::Int
        }
        Abs => {
            arity(op, args, 1, 1)?;
            numeric(args)?
        }
        Lt | Le | Gt | Ge => {
            arity(op, args, 2, MANY)?;
            numeric(args)?;
            Sort::Bool
        }
        ToReal => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::Int)?;
            Sort::Real
        }
        ToInt | IsInt => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::Real)?;
            if op == ToInt {
                Sort::Int
            } else {
                Sort::Bool
            }
        }
        Pi => {
            arity(op, args, 0, 0)?;
            Sort::Real
        }
        Sin | Cos | Tan => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::Real)?;
            Sort::Real
        }
        Divisible(_) => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::Int)?;
            Sort::Bool
        }
        _ => unreachable!("not arithmetic: {op:?}"),
    };
    Ok(sort)
}

/// Bit-vectors: the operators of SMT-LIB's FixedSizeBitVectors and QF_BV
/// logic, and the conversions to and from Int (`bv2nat`, `int2bv`).
fn bitvector_signature(op: Op, args: &mut [Term]) -> Result<Sort, String> {
    use Op::*;
    let sort = match op {
        BvNot | BvNeg => {
            arity(op, args, 1, 1)?;
            Sort::BitVec(bv_width(args)?)
        }
        BvAnd | BvOr | BvXor | BvAdd | BvMul => {
            arity(op, args, 2, MANY)?;
            Sort::BitVec(bv_width(args)?)
        }
        BvSub | BvUdiv | BvUrem | BvSdiv | BvSrem | BvSmod | BvShl | BvLshr | BvAshr => {
            arity(op, args, 2, 2)?;
            Sort::BitVec(bv_width(args)?)
        }
        BvUlt | BvUle | BvUgt | BvUge | BvSlt | BvSle | BvSgt | BvSge => {
            arity(op, args, 2, 2)?;
            bv_width(args)?;
            Sort::Bool
        }
        Bv2Nat | Sbv2Int => {
            arity(op, args, 1, 1)?;
            bv_width(args)?;
            Sort::Int
        }
        BvNand | BvNor | BvXnor => {
            arity(op, args, 2, 2)?;
            Sort::BitVec(bv_width(args)?)
        }
        BvComp => {
            arity(op, args, 2, 2)?;
            bv_width(args)?;
            Sort::BitVec(1)
        }
        Concat => {
            arity(op, args, 2, MANY)?;
            let mut total: u64 = 0;
            for a in args.iter() {
                total += u64::from(bv_width(std::slice::from_ref(a))?);
            }
            checked_width(total)?
        }
        Extract(i, j) => {
            arity(op, args, 1, 1)?;
            let w = bv_width(args)?;
            if i < j || i >= w {
                return Err(format!("extract {i} {j} of a {w}-bit vector"));
            }
            Sort::BitVec(i - j + 1)
        }
        ZeroExtend(k) | SignExtend(k) => {
            arity(op, args, 1, 1)?;
            checked_width(u64::from(bv_width(args)?) + u64::from(k))?
        }
        Repeat(k) => {
            arity(op, args, 1, 1)?;
            if k == 0 {
                return Err("repeat 0".into());
            }
            checked_width(u64::from(bv_width(args)?) * u64::from(k))?
        }
        RotateLeft(_) | RotateRight(_) => {
            arity(op, args, 1, 1)?;
            Sort::BitVec(bv_width(args)?)
        }
        Int2Bv(w) => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::Int)?;
            checked_width(u64::from(w))?
        }
        _ => unreachable!("not a bit-vector operator: {op:?}"),
    };
    Ok(sort)
}

/// Arrays: `select` and `store` (`(as const ...)` gets its sort from its annotation).
fn array_signature(op: Op, args: &mut [Term]) -> Result<Sort, String> {
    use Op::*;
    let sort = match op {
        Select => {
            arity(op, args, 2, 2)?;
            let (index, element) = array_parts(&args[0])?;
            all(&mut args[1..], &index)?;
            element
        }
        Store => {
            arity(op, args, 3, 3)?;
            let (index, element) = array_parts(&args[0])?;
            all(&mut args[1..2], &index)?;
            all(&mut args[2..], &element)?;
            args[0].sort.clone()
        }
        ConstArray => unreachable!("handled by the checker"),
        _ => unreachable!("not an array operator: {op:?}"),
    };
    Ok(sort)
}

/// The index and element sorts of an array term.
fn array_parts(array: &Term) -> Result<(Sort, Sort), String> {
    match array.sort.array_parts() {
        Some((index, element)) => Ok((index.clone(), element.clone())),
        None => Err(format!("expected an array, found {} '{array}'", array.sort)),
    }
}

/// Floating point: arithmetic under a rounding mode, comparisons,
/// classification and the conversions from and to other sorts.
fn floating_point_signature(op: Op, args: &mut [Term]) -> Result<Sort, String> {
    use Op::*;
    let sort = match op {
        FpAbs | FpNeg => {
            arity(op, args, 1, 1)?;
            fp_sort(args)?
        }
        FpAdd | FpSub | FpMul | FpDiv => {
            arity(op, args, 3, 3)?;
            all(&mut args[..1], &Sort::RoundingMode)?;
            fp_sort(&args[1..])?
        }
        FpFma => {
            arity(op, args, 4, 4)?;
            all(&mut args[..1], &Sort::RoundingMode)?;
            fp_sort(&args[1..])?
        }
        FpSqrt | FpRoundToIntegral => {
            arity(op, args, 2, 2)?;
            all(&mut args[..1], &Sort::RoundingMode)?;
            fp_sort(&args[1..])?
        }
        FpRem | FpMin | FpMax => {
            arity(op, args, 2, 2)?;
            fp_sort(args)?
        }
        FpLeq | FpLt | FpGeq | FpGt | FpEq => {
            arity(op, args, 2, MANY)?;
            fp_sort(args)?;
            Sort::Bool
        }
        FpIsNaN | FpIsZero | FpIsInfinite | FpIsNormal | FpIsSubnormal | FpIsNegative
        | FpIsPositive => {
            arity(op, args, 1, 1)?;
            fp_sort(args)?;
            Sort::Bool
        }
        FpToReal => {
            arity(op, args, 1, 1)?;
            fp_sort(args)?;
            Sort::Real
        }
        FpFromFields => {
            arity(op, args, 3, 3)?;
            let widths: Vec<u32> = args
                .iter()
                .map(|a| bv_width(std::slice::from_ref(a)))
                .collect::<Result<_, _>>()?;
            if widths[0] != 1 {
                return Err("the sign of (fp ...) has 1 bit".into());
            }
            Sort::floating_point(widths[1], widths[2] + 1)?
        }
        ToFp(eb, sb) => {
            let target = Sort::floating_point(eb, sb)?;
            match args.len() {
                1 => {
                    if bv_width(args)? != eb + sb {
                        return Err(format!("to_fp {eb} {sb} of bits needs {} bits", eb + sb));
                    }
                }
                2 => {
                    all(&mut args[..1], &Sort::RoundingMode)?;
                    let from = args[1].sort.clone();
                    if from.is_numeric() {
                        all(&mut args[1..], &Sort::Real)?;
                    } else if from.fp_format().is_none() && !matches!(from, Sort::BitVec(_)) {
                        return Err(format!("to_fp of {from}"));
                    }
                }
                n => return Err(format!("'to_fp' takes 1 or 2 arguments, not {n}")),
            }
            target
        }
        ToFpUnsigned(eb, sb) => {
            arity(op, args, 2, 2)?;
            all(&mut args[..1], &Sort::RoundingMode)?;
            bv_width(&args[1..])?;
            Sort::floating_point(eb, sb)?
        }
        FpToUbv(w) | FpToSbv(w) => {
            arity(op, args, 2, 2)?;
            all(&mut args[..1], &Sort::RoundingMode)?;
            fp_sort(&args[1..])?;
            checked_width(u64::from(w))?
        }
        _ => unreachable!("not floating point: {op:?}"),
    };
    Ok(sort)
}

/// Strings and regular expressions (`RegLan`).
fn string_signature(op: Op, args: &mut [Term]) -> Result<Sort, String> {
    use Op::*;
    let sort = match op {
        StrConcat => {
            arity(op, args, 2, MANY)?;
            all(args, &Sort::String)?;
            Sort::String
        }
        StrLen | StrToInt | StrToCode => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::String)?;
            Sort::Int
        }
        StrIsDigit => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::String)?;
            Sort::Bool
        }
        StrFromInt | StrFromCode => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::Int)?;
            Sort::String
        }
        StrAt => {
            arity(op, args, 2, 2)?;
            all(&mut args[..1], &Sort::String)?;
            all(&mut args[1..], &Sort::Int)?;
            Sort::String
        }
        StrSubstr => {
            arity(op, args, 3, 3)?;
            all(&mut args[..1], &Sort::String)?;
            all(&mut args[1..], &Sort::Int)?;
            Sort::String
        }
        StrPrefixof | StrSuffixof | StrContains => {
            arity(op, args, 2, 2)?;
            all(args, &Sort::String)?;
            Sort::Bool
        }
        StrLt | StrLe => {
            arity(op, args, 2, MANY)?;
            all(args, &Sort::String)?;
            Sort::Bool
        }
        StrIndexof => {
            arity(op, args, 3, 3)?;
            all(&mut args[..2], &Sort::String)?;
            all(&mut args[2..], &Sort::Int)?;
            Sort::Int
        }
        StrReplace | StrReplaceAll => {
            arity(op, args, 3, 3)?;
            all(args, &Sort::String)?;
            Sort::String
        }
        StrReplaceRe | StrReplaceReAll => {
            arity(op, args, 3, 3)?;
            all(&mut args[..1], &Sort::String)?;
            all(&mut args[1..2], &Sort::RegLan)?;
            all(&mut args[2..], &Sort::String)?;
            Sort::String
        }
        StrInRe => {
            arity(op, args, 2, 2)?;
            all(&mut args[..1], &Sort::String)?;
            all(&mut args[1..], &Sort::RegLan)?;
            Sort::Bool
        }
        StrToRe => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::String)?;
            Sort::RegLan
        }
        ReRange => {
            arity(op, args, 2, 2)?;
            all(args, &Sort::String)?;
            Sort::RegLan
        }
        ReConcat | ReUnion | ReInter => {
            arity(op, args, 2, MANY)?;
            all(args, &Sort::RegLan)?;
            Sort::RegLan
        }
        ReDiff => {
            arity(op, args, 2, MANY)?;
            all(args, &Sort::RegLan)?;
            Sort::RegLan
        }
        ReComp | ReStar | RePlus | ReOpt | ReLoop(..) | RePower(_) => {
            arity(op, args, 1, 1)?;
            all(args, &Sort::RegLan)?;
            Sort::RegLan
        }
        _ => unreachable!("not a string operator: {op:?}"),
    };
    Ok(sort)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_et_formulas() {
        let s = Script::parse("(declare-const a Int)\n(declare-const b Real)\n(assert (< (+ a 1.0) (sin a)))\n(check-sat)").unwrap();
        assert_eq!(s.decls.len(), 2);
        assert_eq!(
            s.assertions[0].to_string(),
            "(< (+ (to_real a) 1.0) (sin (to_real a)))"
        );
        let s = Script::parse("(declare-const a (Array (_ BitVec 64) (_ BitVec 64)))(declare-const b (_ BitVec 64))(assert (= (store a b #x0000000000000001) a))").unwrap();
        assert_eq!(
            s.assertions[0].to_string(),
            "(= (store a b #x0000000000000001) a)"
        );
        let s = Script::parse("(declare-fun a () (_ FloatingPoint 11 53))(assert (fp.lt a (fp #b0 #b00000000000 #b0000000000000000000000000000000000000000000000000001)))").unwrap();
        assert_eq!(s.assertions.len(), 1);
    }

    #[test]
    fn coercions_are_reported_where_they_happen() {
        let tokens = [
            "(",
            "declare-const",
            "a",
            "Int",
            ")",
            "(",
            "assert",
            "(",
            "<",
            "(",
            "+",
            "a",
            "1.0",
            ")",
            "(",
            "sin",
            "a",
            ")",
            ")",
            ")",
            "(",
            "assert",
            "(",
            "<",
            "(",
            "+",
            "1",
            "1.0",
            ")",
            "(",
            "to_real",
            "a",
            ")",
            ")",
            ")",
        ];
        let (script, coercions) = Script::from_tokens_with_coercions(tokens).unwrap();
        assert_eq!(script.assertions.len(), 2);
        let found: Vec<(&str, u32)> = coercions
            .iter()
            .map(|c| (c.operator, c.pos.column))
            .collect();
        // `<` gets two Reals; a numeral is a Real in the theory of reals; `to_real` is
        // written out.
        assert_eq!(found, [("+", 10), ("sin", 15)]);
    }

    #[test]
    fn a_script_relying_on_coercions_prints_them_written_out() {
        let text =
            "(declare-const a Int) (declare-const b Real) (assert (< b (sin a))) (check-sat)";
        let (script, coercions) = Script::parse_with_coercions(text).unwrap();
        assert_eq!(coercions.len(), 1);
        let written = script.text();
        assert_eq!(
            written,
            "(declare-const a Int) (declare-const b Real) (assert (< b (sin (to_real a)))) (check-sat)"
        );
        // What it prints reads back with nothing left to convert.
        let (again, none) = Script::parse_with_coercions(&written).unwrap();
        assert!(none.is_empty());
        assert_eq!(again.text(), written);
    }

    #[test]
    fn refuses_with_positions() {
        let e = Script::parse("(declare-const a Int)\n(assert (frob a))").unwrap_err();
        assert_eq!((e.pos.line, e.pos.column), (2, 10));
        assert!(e.message.contains("frob"));
        let e = Script::parse("(declare-const a Int)\n(assert (and a true))").unwrap_err();
        assert!(e.message.contains("expected Bool"), "{e}");
        assert!(Script::parse("(declare-const a Int)(assert a)").is_err());
        assert!(Script::parse("(declare-fun f (Int) Int)(assert (f 1))").is_err());
        assert!(Script::parse("(push 1)(pop 2)").is_err());
        // Parametric datatypes are not supported; plain ones are.
        let e = Script::parse("(declare-datatypes ((T 1)) ((par (X) ((c (f X))))))").unwrap_err();
        assert_eq!(e.unsupported(), Some("parametric datatype"), "{e}");
        assert!(Script::parse("(declare-datatypes ((T 0)) (((c))))").is_ok());
        assert!(Script::parse("(assert (not))").is_err());
        assert!(Script::parse("(assert (= #x0 #b0))").is_err());
        assert!(Script::parse("(declare-const a Int)(declare-const a Int)").is_err());
    }

    #[test]
    fn uninterpreted_functions_are_declared_applied_and_checked() {
        let text = "(declare-fun f (Int) Int)\n(declare-fun g ((_ BitVec 8) (_ BitVec 8)) (_ BitVec 8))\n(declare-fun p (Int Real) Bool)\n(declare-const a Int)\n(declare-const x (_ BitVec 8))\n(assert (p (f a) 2.0))\n(assert (= (g x (g x #x01)) #x00))";
        let s = Script::parse(text).unwrap();
        assert_eq!(s.decls.len(), 2, "functions are not constants");
        let names: Vec<String> = s.functions().iter().map(|f| f.name.to_string()).collect();
        assert_eq!(names, ["p", "f", "g"]);
        assert_eq!(s.assertions[0].to_string(), "(p (f a) 2.0)");
        assert_eq!(s.assertions[1].args()[0].sort, Sort::BitVec(8));
        assert_eq!(
            s.text(),
            "(declare-const a Int) (declare-const x (_ BitVec 8)) (declare-fun p (Int Real) Bool) (declare-fun f (Int) Int) (declare-fun g ((_ BitVec 8) (_ BitVec 8)) (_ BitVec 8)) (assert (p (f a) 2.0)) (assert (= (g x (g x #x01)) #x00)) (check-sat)"
        );
        // What it prints reads back the same.
        assert_eq!(Script::parse(&s.text()).unwrap().text(), s.text());
        // An Int argument where a Real parameter is: to_real, as for operators.
        let (s, coercions) = Script::parse_with_coercions(
            "(declare-fun p (Real) Bool)(declare-const a Int)(assert (p a))",
        )
        .unwrap();
        assert_eq!(s.assertions[0].to_string(), "(p (to_real a))");
        assert_eq!(coercions.len(), 1);
    }

    #[test]
    fn misapplied_functions_are_errors_with_positions() {
        let decls =
            "(declare-fun f (Int) Int)(declare-fun g (Int Int) Bool)(declare-const b Bool)\n";
        let cases = [
            // Arity.
            (
                "(assert (= (f 1 2) 0))",
                (2, 12),
                "'f' takes 1 arguments, not 2",
            ),
            ("(assert (g 1))", (2, 9), "'g' takes 2 arguments, not 1"),
            // An argument's sort: at the argument.
            (
                "(assert (g 1 b))",
                (2, 14),
                "expected Int, found Bool 'b' in '(g 1 b)'",
            ),
            // The result's sort.
            (
                "(assert (f 1))",
                (2, 9),
                "asserted term has sort Int, not Bool",
            ),
            (
                "(assert (and (f 1) b))",
                (2, 9),
                "expected Bool, found Int '(f 1)'",
            ),
            // A function without arguments.
            ("(assert (= f 1))", (2, 12), "'f' takes 1 arguments, not 0"),
        ];
        for (assertion, (line, column), message) in cases {
            let e = Script::parse(&format!("{decls}{assertion}")).unwrap_err();
            assert_eq!(
                (e.pos.line, e.pos.column),
                (line, column),
                "{assertion}: {e}"
            );
            assert!(e.message.contains(message), "{assertion}: {e}");
        }
        for twice in [
            "(declare-fun f (Int) Int)(declare-fun f (Int) Int)",
            "(declare-const f Int)(declare-fun f (Int) Int)",
            "(declare-fun f (Int) Int)(declare-const f Int)",
            "(declare-fun f (Int) Int)(define-fun f () Int 1)",
        ] {
            let e = Script::parse(twice).unwrap_err();
            assert!(e.message.contains("declared twice"), "{twice}: {e}");
        }
        assert!(Script::parse("(declare-fun bvadd (Int) Int)").is_err());
        assert!(Script::parse("(declare-fun f (Frob) Int)").is_err());
        // A declaration inside push/pop ends with its level.
        assert!(Script::parse(
            "(push 1)(declare-fun f (Int) Int)(pop 1)(declare-const a Int)(assert (= (f a) 1))"
        )
        .is_err());
        assert!(Script::parse(
            "(push 1)(declare-fun f (Int) Int)(pop 1)(declare-fun f (Int) Bool)(assert (f 1))"
        )
        .is_ok());
        // Inside a define-fun and a let.
        let s = Script::parse(
            "(declare-fun f (Int) Int)(define-fun h ((x Int)) Int (f (f x)))(assert (let ((y (h 1))) (> y 0)))",
        )
        .unwrap();
        assert_eq!(s.assertions[0].to_string(), "(> (f (f 1)) 0)");
    }

    #[test]
    fn tokens_give_the_same_script() {
        let tokens = [
            "(",
            "declare-const",
            "a",
            "Bool",
            ")",
            "(",
            "assert",
            "(",
            "not",
            "a",
            ")",
            ")",
            "(",
            "check-sat",
            ")",
        ];
        let s = Script::from_tokens(tokens).unwrap();
        assert_eq!(s.assertions[0].to_string(), "(not a)");
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;
    use crate::eval::{evaluate, Assignment, Limits};

    #[test]
    fn the_deepest_accepted_nesting_reads_and_evaluates() {
        // A test thread has a 2 MiB stack: reading, checking, evaluating, printing,
        // cloning and dropping a term far deeper than 256 levels must not overflow it.
        let depth = 20_000;
        let text = format!(
            "(declare-const a Bool)(assert {}a{})",
            "(not ".repeat(depth),
            ")".repeat(depth)
        );
        let script = Script::parse(&text).unwrap();
        assert_eq!(
            script.assertions[0].to_string().len(),
            text.len() - "(declare-const a Bool)(assert )".len()
        );
        let values = Assignment::of_values(vec![Value::Bool(depth % 2 == 1)]);
        let e = evaluate(&script, &values, &Limits::default());
        assert_eq!(e.truth, crate::eval::Truth::False);
        assert!(e.explanation.is_some());
        let copy = script.clone();
        drop(script);
        assert_eq!(copy.assertions.len(), 1);
        let too_deep = crate::sexp::MAX_DEPTH + 5;
        assert!(Script::parse(&format!(
            "(assert {}true{})",
            "(not ".repeat(too_deep),
            ")".repeat(too_deep)
        ))
        .is_err());
    }
}
