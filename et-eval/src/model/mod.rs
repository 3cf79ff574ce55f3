//! Models as solvers print them after `(get-model)`, read into an [`Assignment`].
//!
//! Formats: z3 (`(model ...)` up to 4.8.x, a bare list later), cvc5 and cvc4 (bare
//! list / `(model ...)`), yices in both its own format (`(= a 3)`,
//! `(function @fun_6 (type ...) (= (@fun_6 i) v) (default v))`) and
//! `--smt2-model-format`. Values: literals of every supported sort, negative and
//! rational terms (`(- 1)`, `(/ 1 2)`, `(- (/ 7.0 2.0))`), constant arrays, store chains,
//! `(_ as-array f)` with `f`'s `ite` definition, lambdas, arrays printed as functions,
//! and z3's definitions of the division-by-zero functions `div0`, `mod0` and `/0`.
//! Functions with parameters (the formula's uninterpreted functions, as z3, cvc5,
//! yices `--smt2-model-format` and bitwuzla print them) are read with bodies over
//! their parameters that may call the model's other functions (z3's `f!0` helpers);
//! in yices' own format, one-parameter functions (printed like arrays) are read, those
//! of more parameters (`(type (FunType2 ...))`) are not.
//! Algebraic numbers (`root-obj`, cvc5's `real_algebraic_number`, cvc4's `witness`,
//! yices' rounded decimals) become [`Binding::Undetermined`]. Malformed text is a
//! [`ModelError`], never a panic.

use std::collections::HashMap;
use std::sync::Arc;

use num_rational::BigRational;
use thiserror::Error;

use crate::algebraic::{self, Poly, Real};
use crate::datatype::{DatatypeGroup, DatatypeSort};
use crate::eval::{Assignment, Binding, Function, Interpretations};
use crate::script::{Decl, Script};
use crate::sexp::{self, Pos, Sexp, SexpKind};
use crate::sort::Sort;
use crate::string::{Dialect, SmtString};
use crate::term::{FunDecl, Term, TermKind};
use crate::value::{ArrayValue, Value};

/// Text that is not a model, with the position of the problem.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{pos}: {message}")]
pub struct ModelError {
    /// Where in the solver's output.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
}

fn err(pos: Pos, message: impl Into<String>) -> ModelError {
    ModelError {
        pos,
        message: message.into(),
    }
}

/// How a solver writes values, where solvers differ (which solver writes which is
/// et-core's knowledge of solver families; here it is only a reading option).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelDialect {
    /// String literal escapes (z3 up to 4.8.10 writes `\xNN`).
    pub strings: Dialect,
    /// Decimals other than `n.0` are rounded approximations of algebraic numbers
    /// (yices), not exact values (z3, cvc5 and cvc4 print exact decimals).
    pub approximate_decimals: bool,
}

impl Default for ModelDialect {
    fn default() -> Self {
        ModelDialect {
            strings: Dialect::Smtlib26,
            approximate_decimals: false,
        }
    }
}

/// A model: what the solver defined, by name.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// Constants' values.
    pub values: HashMap<String, Binding>,
    /// Functions with parameters (including the division-by-zero functions); a body
    /// may call the model's other functions.
    pub functions: HashMap<String, Function>,
    /// Functions with parameters whose definitions could not be read (e.g. of a
    /// theory et-eval lacks), with the reason: undetermined where they are applied.
    pub unreadable: HashMap<String, String>,
}

impl Model {
    /// The first constant of `script` that the model defines with another sort than the
    /// formula declares (an Int where a Real is declared is the Int's value, as SMT-LIB's
    /// coercion reads it), in words: such a model is not a model of the formula.
    pub fn wrong_sort(&self, script: &Script) -> Option<String> {
        let constant = script.decls.iter().find_map(|d| {
            let given = match self.values.get(&*d.name)? {
                Binding::Value(v) => v.sort(),
                Binding::Term(t) => t.sort.clone(),
                Binding::Algebraic(_) => Sort::Real,
                Binding::Undetermined(_) => return None,
            };
            let fits = given == d.sort || (given == Sort::Int && d.sort == Sort::Real);
            (!fits).then(|| {
                format!(
                    "{} (the model defines it as a {given}, the formula declares it {})",
                    d.name, d.sort
                )
            })
        });
        constant.or_else(|| self.wrong_signature(script))
    }

    /// A one-parameter function the model gives as an array value (yices' own format
    /// prints `f` of sort `(Int) Int` as `(= f @fun_9)` with `@fun_9` of type
    /// `(Array Int Int)`): `(select array x)`.
    fn unary_as_array(&self, f: &FunDecl) -> Option<Function> {
        let [param] = f.params.as_slice() else {
            return None;
        };
        let Some(Binding::Value(Value::Array(array))) = self.values.get(&*f.name) else {
            return None;
        };
        let sort = Sort::array(param.clone(), f.sort.clone());
        if array.sort != sort {
            return None;
        }
        let body = Term {
            kind: TermKind::App(
                crate::term::Op::Select,
                vec![
                    Term::lit(Value::Array(array.clone())),
                    Term {
                        kind: TermKind::Var(0, "x".into()),
                        sort: param.clone(),
                    },
                ],
            ),
            sort: f.sort.clone(),
        };
        Some(Function {
            params: vec![param.clone()],
            body,
        })
    }

    /// The first uninterpreted function of `script` that the model defines with
    /// another signature (other parameters' sorts, another result sort, or as a
    /// constant), in words.
    fn wrong_signature(&self, script: &Script) -> Option<String> {
        script.functions().iter().find_map(|f| {
            let declared = signature(&f.params, &f.sort);
            let given = match self.functions.get(&*f.name) {
                Some(def) => {
                    let fits = def.params == f.params
                        && (def.body.sort == f.sort
                            || (def.body.sort == Sort::Int && f.sort == Sort::Real));
                    if fits {
                        return None;
                    }
                    signature(&def.params, &def.body.sort)
                }
                None if self.unreadable.contains_key(&*f.name) => return None,
                None if self.unary_as_array(f).is_some() => return None,
                None => match self.values.get(&*f.name)? {
                    Binding::Value(v) => format!("a constant of sort {}", v.sort()),
                    Binding::Term(t) => format!("a constant of sort {}", t.sort),
                    Binding::Algebraic(_) => "a constant of sort Real".into(),
                    Binding::Undetermined(_) => "a constant".into(),
                },
            };
            Some(format!(
                "{} (the model defines it as {given}, the formula declares it {declared})",
                f.name
            ))
        })
    }

    /// The assignment of `script`'s constants (missing ones are undetermined: the
    /// solver left them open) with the model's division-by-zero functions.
    pub fn assignment(&self, script: &Script) -> Assignment {
        let values = script
            .decls
            .iter()
            .map(|d| match self.values.get(&*d.name) {
                Some(Binding::Value(v)) if v.sort() == d.sort => Binding::Value(v.clone()),
                Some(Binding::Value(Value::Int(n))) if d.sort == Sort::Real => {
                    Binding::Value(Value::Real(BigRational::from_integer(n.clone())))
                }
                Some(Binding::Value(v)) => Binding::Undetermined(format!(
                    "the model gives a {} where {} was declared",
                    v.sort(),
                    d.sort
                )),
                Some(Binding::Term(t)) if t.sort == d.sort => Binding::Term(t.clone()),
                Some(Binding::Term(t)) => Binding::Undetermined(format!(
                    "the model gives a {} where {} was declared",
                    t.sort, d.sort
                )),
                Some(Binding::Algebraic(a)) if d.sort == Sort::Real => {
                    Binding::Algebraic(a.clone())
                }
                Some(Binding::Algebraic(_)) => Binding::Undetermined(format!(
                    "the model gives an irrational algebraic number where {} was declared",
                    d.sort
                )),
                Some(b @ Binding::Undetermined(_)) => b.clone(),
                None => Binding::Undetermined("not in the model".into()),
            })
            .collect();
        let mut functions: HashMap<String, Result<Function, String>> = self
            .functions
            .iter()
            .map(|(name, f)| (name.clone(), Ok(f.clone())))
            .collect();
        for (name, why) in &self.unreadable {
            functions.insert(name.clone(), Err(why.clone()));
        }
        for f in script.functions() {
            if !functions.contains_key(&*f.name) {
                if let Some(array) = self.unary_as_array(&f) {
                    functions.insert(f.name.to_string(), Ok(array));
                }
            }
        }
        Assignment {
            values,
            interpretations: Interpretations {
                int_div: self.functions.get("div0").cloned(),
                int_mod: self.functions.get("mod0").cloned(),
                real_div: self.functions.get("/0").cloned(),
                uninterpreted: functions,
            },
        }
    }
}

/// A solver's output without its `(error ...)` lines: what is left is the answer and
/// the model. z3's failed self-check prints its error between `sat` and the model, and
/// a solver's refusal of a model request is an error line too; both are the oracle's
/// business (its classification), not the model's. The one way et reads a model out
/// of solver output ([`crate::check::evaluate_model`]).
pub fn without_error_lines(output: &str) -> String {
    output
        .lines()
        .filter(|l| {
            let l = l.trim();
            !(l.starts_with("(error") && l.ends_with(')'))
        })
        .flat_map(|l| [l, "\n"])
        .collect()
}

/// Reads the model from a solver's output: an optional `sat` line, then the model.
/// Values of datatypes cannot be read without their declarations:
/// [`parse_model_for`] reads a model of a formula that declares some.
pub fn parse_model(output: &str, dialect: ModelDialect) -> Result<Model, ModelError> {
    read_model(output, dialect, Vec::new())
}

/// Reads the model of `script` from a solver's output, as [`parse_model`] does,
/// knowing the datatypes the script declares (their sorts, constructors and
/// selectors: `(cons 3 nil)`, `(as nil IntList)`).
pub fn parse_model_for(
    output: &str,
    dialect: ModelDialect,
    script: &Script,
) -> Result<Model, ModelError> {
    read_model(output, dialect, script.datatypes())
}

fn read_model(
    output: &str,
    dialect: ModelDialect,
    datatypes: Vec<Arc<DatatypeGroup>>,
) -> Result<Model, ModelError> {
    let output = quote_algebraic_numbers(output);
    let items = sexp::read_output(&output).map_err(|e| err(e.pos, e.message))?;
    let mut rest = items.as_slice();
    while let Some(first) = rest.first() {
        match first.as_symbol() {
            Some("sat") => rest = &rest[1..],
            Some(answer @ ("unsat" | "unknown")) => {
                return Err(err(
                    first.pos,
                    format!("the solver answered {answer}, so there is no model"),
                ))
            }
            _ => break,
        }
    }
    let Some(first) = rest.first() else {
        return Err(err(Pos { line: 1, column: 1 }, "no model in the output"));
    };
    if first.head() == Some("error") {
        return Err(err(first.pos, format!("the solver reported {first}")));
    }
    let sorts = datatypes
        .iter()
        .flat_map(|g| (0..g.types.len()).filter_map(move |i| DatatypeSort::new(g.clone(), i)))
        .map(|d| (d.name().to_string(), Sort::Datatype(d)))
        .collect();
    let reader = Reader {
        dialect,
        datatypes,
        sorts,
    };
    if matches!(first.head(), Some("=") | Some("function")) {
        return reader.yices_native(rest);
    }
    let entries = match first.as_list() {
        Some([head, entries @ ..]) if head.is_symbol("model") => entries,
        Some(entries) => entries,
        None => return Err(err(first.pos, format!("expected a model, found '{first}'"))),
    };
    reader.definitions(entries)
}

struct Reader {
    dialect: ModelDialect,
    /// The formula's datatypes.
    datatypes: Vec<Arc<DatatypeGroup>>,
    /// Their sorts by name.
    sorts: HashMap<String, Sort>,
}

/// A `define-fun` taken apart.
struct Definition<'a> {
    name: &'a str,
    params: Vec<Decl>,
    sort: Sort,
    body: &'a Sexp,
}

impl Reader {
    /// A sort: a theory's, or one of the formula's datatypes.
    fn sort(&self, sexp: &Sexp) -> Result<Sort, ModelError> {
        Sort::parse_with(sexp, &|name| self.sorts.get(name).cloned()).map_err(|m| err(sexp.pos, m))
    }

    fn definitions(&self, entries: &[Sexp]) -> Result<Model, ModelError> {
        let mut defs = Vec::new();
        for entry in entries {
            let items = entry
                .as_list()
                .ok_or_else(|| err(entry.pos, format!("expected a definition, found '{entry}'")))?;
            match entry.head() {
                Some("define-fun") => {
                    let [_, name, params, sort, body] = items else {
                        return Err(err(entry.pos, "malformed define-fun"));
                    };
                    let name = name
                        .as_symbol()
                        .ok_or_else(|| err(name.pos, "expected a name"))?;
                    let params = params
                        .as_list()
                        .ok_or_else(|| err(params.pos, "expected a parameter list"))?
                        .iter()
                        .map(|p| match p.as_list() {
                            Some([n, s]) => Ok(Decl {
                                name: n
                                    .as_symbol()
                                    .ok_or_else(|| err(n.pos, "expected a parameter name"))?
                                    .into(),
                                sort: self.sort(s)?,
                            }),
                            _ => Err(err(p.pos, "malformed parameter")),
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    let sort = self.sort(sort)?;
                    defs.push(Definition {
                        name,
                        params,
                        sort,
                        body,
                    });
                }
                // Declarations of uninterpreted sorts' elements and comments carry no
                // value of a constant.
                Some("declare-sort") | Some("declare-fun") | Some("declare-datatypes") => {}
                _ => {
                    return Err(err(
                        entry.pos,
                        format!("unexpected model entry '{}'", entry.head().unwrap_or("?")),
                    ))
                }
            }
        }
        let mut seen: HashMap<&str, Pos> = HashMap::new();
        for def in &defs {
            if let Some(first) = seen.insert(def.name, def.body.pos) {
                return Err(err(
                    def.body.pos,
                    format!(
                        "'{}' is defined twice (first at {first}): the model is ambiguous",
                        def.name
                    ),
                ));
            }
        }
        let mut model = Model::default();
        // Functions first: constants may refer to them through `(_ as-array f)`. Their
        // signatures before their bodies: a body may call another function defined
        // later (z3's `f!0` helpers, or `f` itself in `g`'s body).
        let signatures: Vec<Arc<FunDecl>> = defs
            .iter()
            .filter(|d| !d.params.is_empty())
            .map(|d| {
                Arc::new(FunDecl {
                    name: d.name.into(),
                    params: d.params.iter().map(|p| p.sort.clone()).collect(),
                    sort: d.sort.clone(),
                })
            })
            .collect();
        for def in defs.iter().filter(|d| !d.params.is_empty()) {
            // Only the parameters are in scope, so a parameter named like a constant
            // of the model or the formula is the parameter.
            let script = Script {
                decls: def.params.clone(),
                assertions: Vec::new(),
            };
            let body = match self.function_body(&script, def.body, &def.sort, &signatures) {
                Ok(body) => body,
                // A function the evaluator cannot read (e.g. of an unsupported theory)
                // matters only if used: where it is, it is undetermined.
                Err(e) => {
                    model.unreadable.insert(def.name.to_string(), e.to_string());
                    continue;
                }
            };
            model.functions.insert(
                def.name.to_string(),
                Function {
                    params: def.params.iter().map(|p| p.sort.clone()).collect(),
                    body,
                },
            );
        }
        for def in &defs {
            if def.params.is_empty() {
                let binding = self.value(def.body, &def.sort, &model.functions)?;
                model.values.insert(def.name.to_string(), binding);
            } else if let ([param], Some(array)) =
                (def.params.as_slice(), model.functions.get(def.name))
            {
                // yices' smt2 format prints an array constant as a function of its index.
                let sort = Sort::array(param.sort.clone(), def.sort.clone());
                if let Some(a) = function_to_array(array, &sort) {
                    model.values.insert(
                        def.name.to_string(),
                        Binding::Value(Value::Array(Arc::new(a))),
                    );
                }
            }
        }
        Ok(model)
    }

    /// A typed term of a model value or function body.
    fn term(&self, script: &Script, sexp: &Sexp, sort: &Sort) -> Result<Term, ModelError> {
        self.function_body(script, sexp, sort, &[])
    }

    /// A typed term over `script`'s constants (a function's parameters) that may apply
    /// the model's `functions`.
    fn function_body(
        &self,
        script: &Script,
        sexp: &Sexp,
        sort: &Sort,
        functions: &[Arc<FunDecl>],
    ) -> Result<Term, ModelError> {
        let sexp = self.rewrite(sexp)?;
        let term = script
            .term_in(&sexp, functions, &self.datatypes)
            .map_err(|e| err(e.pos, e.message))?;
        if &term.sort == sort {
            return Ok(term);
        }
        if term.sort == Sort::Int && *sort == Sort::Real {
            return Ok(Term {
                kind: TermKind::App(crate::term::Op::ToReal, vec![term]),
                sort: Sort::Real,
            });
        }
        Err(err(
            sexp.pos,
            format!("a value of sort {} where {sort} was declared", term.sort),
        ))
    }

    /// Re-reads string literals in the solver's dialect (the script reader assumes
    /// SMT-LIB 2.6) by replacing them with their SMT-LIB 2.6 spelling.
    fn rewrite(&self, sexp: &Sexp) -> Result<Sexp, ModelError> {
        Ok(match &sexp.kind {
            SexpKind::Str(text) if self.dialect.strings != Dialect::Smtlib26 => {
                let s = SmtString::parse_literal(&text.replace('"', "\"\""), self.dialect.strings)
                    .map_err(|e| err(sexp.pos, e.to_string()))?;
                let literal = s.to_literal();
                let inner = literal[1..literal.len() - 1].replace("\"\"", "\"");
                Sexp {
                    kind: SexpKind::Str(inner),
                    pos: sexp.pos,
                }
            }
            SexpKind::List(items) => Sexp {
                kind: SexpKind::List(
                    items
                        .iter()
                        .map(|i| self.rewrite(i))
                        .collect::<Result<_, _>>()?,
                ),
                pos: sexp.pos,
            },
            _ => sexp.clone(),
        })
    }

    /// The value of a constant of sort `sort`.
    fn value(
        &self,
        sexp: &Sexp,
        sort: &Sort,
        functions: &HashMap<String, Function>,
    ) -> Result<Binding, ModelError> {
        if *sort == Sort::Real {
            if let Some(real) = algebraic_value(sexp) {
                return Ok(match real {
                    Real::Rational(q) => Binding::Value(Value::Real(q)),
                    Real::Algebraic(a) => Binding::Algebraic(a),
                });
            }
        }
        if let Some(why) = self.inexact(sexp) {
            return Ok(Binding::Undetermined(why));
        }
        if let Some(parts) = sort.array_parts() {
            if let Some(v) = self.array_value(sexp, sort, parts, functions)? {
                return Ok(v);
            }
        }
        let term = self.term(
            &Script {
                decls: Vec::new(),
                assertions: Vec::new(),
            },
            sexp,
            sort,
        )?;
        let closed = Function {
            params: Vec::new(),
            body: term,
        };
        Ok(match closed.apply(&[]) {
            Some(v) => Binding::Value(v),
            // cvc5 gives e.g. `(div 0 0)` as a value: the formula's own unspecified
            // result, so it is evaluated together with the formula.
            None => Binding::Term(closed.body),
        })
    }

    /// Why a value cannot be taken exactly, if so.
    fn inexact(&self, sexp: &Sexp) -> Option<String> {
        let mut why = None;
        visit(sexp, &mut |s| {
            let reason = match &s.kind {
                SexpKind::Symbol(name) if name == "root-obj" => {
                    Some("an algebraic number (root-obj)")
                }
                SexpKind::Symbol(name) if name == "real_algebraic_number" => {
                    Some("an algebraic number (real_algebraic_number)")
                }
                SexpKind::Symbol(name) if name == "witness" => {
                    Some("a value given by a witness term")
                }
                // yices writes integral reals as `2.0` and rationals as `(/ 2 3)`: only
                // other decimals are rounded.
                SexpKind::Decimal(d) if self.dialect.approximate_decimals && !d.ends_with(".0") => {
                    Some("a decimal that rounds an algebraic number")
                }
                SexpKind::Symbol(name)
                    if self.dialect.approximate_decimals
                        && name.starts_with('-')
                        && name.contains('.') =>
                {
                    Some("a decimal that rounds an algebraic number")
                }
                _ => None,
            };
            if why.is_none() {
                why = reason.map(String::from);
            }
        });
        why
    }

    /// Array values that are not plain terms: `(_ as-array f)` and lambdas, possibly
    /// inside store chains.
    fn array_value(
        &self,
        sexp: &Sexp,
        sort: &Sort,
        parts: (&Sort, &Sort),
        functions: &HashMap<String, Function>,
    ) -> Result<Option<Binding>, ModelError> {
        let items = match sexp.as_list() {
            Some(items) => items,
            None => return Ok(None),
        };
        let heads: Vec<Option<&str>> = items.iter().map(Sexp::as_symbol).collect();
        match heads.as_slice() {
            [Some("_"), Some("as-array"), Some(f)] => {
                let function = functions.get(*f).ok_or_else(|| {
                    err(
                        sexp.pos,
                        format!("(_ as-array {f}) without a definition of {f}"),
                    )
                })?;
                Ok(Some(match function_to_array(function, sort) {
                    Some(a) => Binding::Value(Value::Array(Arc::new(a))),
                    None => Binding::Undetermined(format!(
                        "the definition of {f} is not an ite over its argument"
                    )),
                }))
            }
            [Some("lambda"), None, None] => {
                let params = items[1].as_list().unwrap_or(&[]);
                let [param] = params else {
                    return Err(err(
                        items[1].pos,
                        "a lambda for an array takes one parameter",
                    ));
                };
                let Some([name, psort]) = param.as_list() else {
                    return Err(err(param.pos, "malformed lambda parameter"));
                };
                let decl = Decl {
                    name: name
                        .as_symbol()
                        .ok_or_else(|| err(name.pos, "expected a parameter name"))?
                        .into(),
                    sort: self.sort(psort)?,
                };
                if decl.sort != *parts.0 {
                    return Err(err(
                        psort.pos,
                        format!(
                            "lambda parameter of sort {} for an array indexed by {}",
                            decl.sort, parts.0
                        ),
                    ));
                }
                let script = Script {
                    decls: vec![decl.clone()],
                    assertions: Vec::new(),
                };
                let body = self.term(&script, &items[2], parts.1)?;
                let function = Function {
                    params: vec![decl.sort],
                    body,
                };
                Ok(Some(match function_to_array(&function, sort) {
                    Some(a) => Binding::Value(Value::Array(Arc::new(a))),
                    None => Binding::Undetermined(
                        "a lambda that is not an ite over its argument".into(),
                    ),
                }))
            }
            [Some("store"), None, None, None] | [Some("store"), None, _, _] => {
                let inner = match self.array_value(&items[1], sort, parts, functions)? {
                    Some(Binding::Value(Value::Array(a))) => a,
                    Some(undetermined) => return Ok(Some(undetermined)),
                    None => return Ok(None),
                };
                let index = self.value(&items[2], parts.0, functions)?;
                let element = self.value(&items[3], parts.1, functions)?;
                Ok(Some(match (concrete(index), concrete(element)) {
                    (Ok(i), Ok(v)) => Binding::Value(Value::Array(Arc::new(inner.store(i, v)))),
                    (Err(why), _) | (_, Err(why)) => Binding::Undetermined(why),
                }))
            }
            _ => Ok(None),
        }
    }

    /// yices' own format: `(= name value)` lines and `(function @f ...)` blocks.
    fn yices_native(&self, items: &[Sexp]) -> Result<Model, ModelError> {
        let mut arrays: HashMap<String, (Sort, &[Sexp])> = HashMap::new();
        for item in items {
            if item.head() == Some("function") {
                let list = item.as_list().expect("has a head");
                let name = list
                    .get(1)
                    .and_then(Sexp::as_symbol)
                    .ok_or_else(|| err(item.pos, "a function without a name"))?;
                let ty = list
                    .get(2)
                    .and_then(Sexp::as_list)
                    .ok_or_else(|| err(item.pos, "a function without a type"))?;
                let sort = match ty {
                    [head, sort] if head.is_symbol("type") => self.sort(sort)?,
                    _ => return Err(err(item.pos, "malformed function type")),
                };
                arrays.insert(name.to_string(), (sort, &list[3..]));
            }
        }
        let mut model = Model::default();
        let empty = HashMap::new();
        for item in items {
            match item.as_list() {
                Some([head, name, value]) if head.is_symbol("=") => {
                    let name = name
                        .as_symbol()
                        .ok_or_else(|| err(name.pos, "expected a name"))?;
                    let binding = match value.as_symbol().and_then(|v| arrays.get(v)) {
                        Some((sort, body)) => self.yices_array(sort, body, &empty)?,
                        None => {
                            match self.inexact(value) {
                                Some(why) => Binding::Undetermined(why),
                                None => {
                                    let term = Script {
                                        decls: Vec::new(),
                                        assertions: Vec::new(),
                                    }
                                    .term_in(&self.rewrite(value)?, &[], &self.datatypes)
                                    .map_err(|e| err(e.pos, e.message))?;
                                    let sort = term.sort.clone();
                                    match (Function { params: Vec::new(), body: term }).apply(&[]) {
                                    Some(v) => Binding::Value(v),
                                    None => Binding::Undetermined(format!("the value '{value}' of sort {sort} is not a closed value")),
                                }
                                }
                            }
                        }
                    };
                    if model.values.insert(name.to_string(), binding).is_some() {
                        return Err(err(
                            item.pos,
                            format!("'{name}' is defined twice: the model is ambiguous"),
                        ));
                    }
                }
                Some([head, ..]) if head.is_symbol("function") => {}
                _ => return Err(err(item.pos, format!("unexpected model entry '{item}'"))),
            }
        }
        Ok(model)
    }

    fn yices_array(
        &self,
        sort: &Sort,
        body: &[Sexp],
        functions: &HashMap<String, Function>,
    ) -> Result<Binding, ModelError> {
        let Some(parts) = sort.array_parts() else {
            return Ok(Binding::Undetermined(format!("a function of sort {sort}")));
        };
        let mut default = None;
        let mut entries = Vec::new();
        for line in body {
            match line.as_list() {
                Some([head, value]) if head.is_symbol("default") => {
                    default = Some(self.value(value, parts.1, functions)?)
                }
                Some([head, app, value]) if head.is_symbol("=") => {
                    let Some([_, index]) = app.as_list() else {
                        return Err(err(app.pos, "expected (@f index)"));
                    };
                    entries.push((
                        self.value(index, parts.0, functions)?,
                        self.value(value, parts.1, functions)?,
                    ));
                }
                _ => {
                    return Err(err(
                        line.pos,
                        format!("unexpected line '{line}' in a yices function"),
                    ))
                }
            }
        }
        let Some(Binding::Value(default)) = default else {
            return Ok(Binding::Undetermined(
                "a yices function without a usable default".into(),
            ));
        };
        let mut array = ArrayValue::constant(sort.clone(), default);
        for (i, v) in entries.into_iter().rev() {
            match (concrete(i), concrete(v)) {
                (Ok(i), Ok(v)) => array = array.store(i, v),
                (Err(why), _) | (_, Err(why)) => return Ok(Binding::Undetermined(why)),
            }
        }
        Ok(Binding::Value(Value::Array(Arc::new(array))))
    }
}

/// An algebraic number as z3 (`(root-obj p k)`) or cvc5
/// (`(_ real_algebraic_number |<p, (lo, hi)>|)`, quoted by [`quote_algebraic_numbers`])
/// prints it, possibly negated with `(- ...)`.
fn algebraic_value(sexp: &Sexp) -> Option<Real> {
    let items = sexp.as_list()?;
    match items {
        [head, arg] if head.as_symbol() == Some("-") => match algebraic_value(arg)? {
            Real::Rational(q) => Some(Real::Rational(-q)),
            Real::Algebraic(a) => {
                // −α is the root of p(−x) in (−hi, −lo).
                let poly = Poly(
                    a.poly
                        .0
                        .iter()
                        .enumerate()
                        .map(|(k, c)| if k % 2 == 1 { -c } else { c.clone() })
                        .collect(),
                );
                Real::in_interval(&poly, -a.hi, -a.lo)
            }
        },
        [head, poly, index] if head.as_symbol() == Some("root-obj") => {
            let SexpKind::Numeral(k) = &index.kind else {
                return None;
            };
            Real::root(&algebraic::poly_from_z3(poly)?, k.parse().ok()?)
        }
        [underscore, name, text]
            if underscore.as_symbol() == Some("_")
                && name.as_symbol() == Some("real_algebraic_number") =>
        {
            algebraic::from_cvc5(text.as_symbol()?)
        }
        _ => None,
    }
}

/// cvc5 writes `(_ real_algebraic_number <1*x^2 + -2, (-3/2, -1)>)`, which is no
/// s-expression: the part in angle brackets becomes a quoted symbol.
fn quote_algebraic_numbers(output: &str) -> std::borrow::Cow<'_, str> {
    const MARK: &str = "real_algebraic_number";
    if !output.contains(MARK) {
        return output.into();
    }
    let mut out = String::with_capacity(output.len() + 8);
    let mut rest = output;
    while let Some(at) = rest.find(MARK) {
        let (before, after) = rest.split_at(at + MARK.len());
        out.push_str(before);
        let trimmed = after.trim_start();
        match (trimmed.strip_prefix('<'), trimmed.find('>')) {
            (Some(_), Some(end)) if !trimmed[..end].contains('|') => {
                out.push_str(" |");
                out.push_str(&trimmed[..=end]);
                out.push('|');
                rest = &trimmed[end + 1..];
            }
            _ => rest = after,
        }
    }
    out.push_str(rest);
    out.into()
}

/// The value of a binding, or why there is none (array entries must be values).
fn concrete(binding: Binding) -> Result<Value, String> {
    match binding {
        Binding::Value(v) => Ok(v),
        Binding::Term(t) => Err(format!("the array entry '{t}' is not a value")),
        Binding::Algebraic(_) => Err("an array entry that is an algebraic number".into()),
        Binding::Undetermined(why) => Err(why),
    }
}

fn visit(sexp: &Sexp, f: &mut impl FnMut(&Sexp)) {
    f(sexp);
    if let Some(items) = sexp.as_list() {
        for i in items {
            visit(i, f);
        }
    }
}

/// An array from a one-parameter function whose body is a chain
/// `(ite (= x i₁) v₁ (ite (= x i₂) v₂ ... default))` (conditions may be `(= i x)` or
/// `(and (= x i))`).
fn function_to_array(function: &Function, sort: &Sort) -> Option<ArrayValue> {
    use crate::term::Op;
    if function.params.len() != 1 {
        return None;
    }
    let closed = |t: &Term| {
        Function {
            params: Vec::new(),
            body: t.clone(),
        }
        .apply(&[])
    };
    let mut entries = Vec::new();
    let mut body = &function.body;
    while let TermKind::App(Op::Ite, args) = &body.kind {
        let mut cond = &args[0];
        while let TermKind::App(Op::And, inner) = &cond.kind {
            if inner.len() != 1 {
                return None;
            }
            cond = &inner[0];
        }
        let index = match &cond.kind {
            TermKind::App(Op::Eq, sides) if sides.len() == 2 => {
                match (&sides[0].kind, &sides[1].kind) {
                    (TermKind::Var(0, _), _) => closed(&sides[1])?,
                    (_, TermKind::Var(0, _)) => closed(&sides[0])?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        entries.push((index, closed(&args[1])?));
        body = &args[2];
    }
    let mut array = ArrayValue::constant(sort.clone(), closed(body)?);
    // Earlier conditions win: store them last.
    for (i, v) in entries.into_iter().rev() {
        array = array.store(i, v);
    }
    Some(array)
}

/// `(S1 ... Sn) S`, or `S` without parameters.
fn signature(params: &[Sort], sort: &Sort) -> String {
    if params.is_empty() {
        return format!("a constant of sort {sort}");
    }
    let params: Vec<String> = params.iter().map(Sort::to_string).collect();
    format!("a function ({}) {sort}", params.join(" "))
}

#[cfg(test)]
mod tests;
