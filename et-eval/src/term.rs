//! Typed terms: what a formula means once its symbols are resolved and its sorts
//! checked. Printing a term gives SMT-LIB text again (for explanations).

use std::fmt;
use std::sync::Arc;

use crate::datatype::DatatypeSort;
use crate::sort::Sort;
use crate::value::Value;

/// A typed term.
#[derive(Debug)]
pub struct Term {
    /// What it is.
    pub kind: TermKind,
    /// Its sort.
    pub sort: Sort,
}

/// The kinds of terms.
#[derive(Debug, Clone)]
pub enum TermKind {
    /// A literal value (`3`, `1.5`, `#x00`, `"a"`, `RNE`, `(fp ...)`).
    Lit(Value),
    /// A regular-expression constant (`re.none`, `re.all`, `re.allchar`).
    ReConst(ReConst),
    /// A declared constant: its number in the script's declarations, and its name.
    Var(usize, Arc<str>),
    /// An operator applied to arguments.
    App(Op, Vec<Term>),
    /// An uninterpreted function (`declare-fun` with parameters, or a function a model
    /// defines) applied to arguments of its parameters' sorts; a model gives its value.
    Call(Arc<FunDecl>, Vec<Term>),
    /// A variable bound by a quantifier or a `match` pattern: its level (how many
    /// variables are bound around its binder, counting outward) and its name. Levels,
    /// not distances, so that a term `let` substitutes deeper keeps its meaning.
    Bound(u32, Arc<str>),
    /// `(forall ...)` or `(exists ...)`: the binder, and the body (the one element).
    Quantifier(Arc<Quantifier>, Vec<Term>),
    /// A constructor, selector or tester of a datatype applied to its arguments (the
    /// datatype is the term's sort for a constructor, its argument's otherwise).
    Datatype(DtOp, Vec<Term>),
    /// `(match t (cases))`: the scrutinee, then one body per case; the cases'
    /// patterns.
    Match(Arc<[MatchCase]>, Vec<Term>),
}

/// `forall` or `exists`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuantKind {
    /// `forall`.
    Forall,
    /// `exists`.
    Exists,
}

impl fmt::Display for QuantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QuantKind::Forall => "forall",
            QuantKind::Exists => "exists",
        })
    }
}

/// A quantifier's binder: which quantifier, its variables, and the level of the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantifier {
    /// `forall` or `exists`.
    pub kind: QuantKind,
    /// The bound variables, with their sorts (at least one); the i-th is
    /// [`TermKind::Bound`] at level `level + i` in the body.
    pub vars: Vec<(Arc<str>, Sort)>,
    /// The level of the first variable.
    pub level: u32,
}

/// One case of a `match`: its pattern and the level of its first variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchCase {
    /// The pattern.
    pub pattern: Pattern,
    /// The level of the pattern's first variable (its body sees the variables at
    /// `level`, `level + 1`, ...).
    pub level: u32,
}

/// A pattern of a `match` case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    /// A constructor (its number) with one variable per field: `nil`, `(cons h t)`.
    Constructor(usize, Vec<Arc<str>>),
    /// A variable that matches anything and is bound to the scrutinee (`_` too).
    Var(Arc<str>),
}

impl Pattern {
    /// How many variables the pattern binds.
    pub fn arity(&self) -> u32 {
        match self {
            Pattern::Constructor(_, vars) => vars.len() as u32,
            Pattern::Var(_) => 1,
        }
    }
}

/// The operations of a datatype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DtOp {
    /// The constructor of this number, applied to its fields.
    Construct(usize),
    /// The selector of field `.1` of constructor `.0`.
    Select(usize, usize),
    /// The tester `(_ is c)` of constructor `.0`.
    Test(usize),
}

/// An uninterpreted function: its name and signature.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FunDecl {
    /// Its name.
    pub name: Arc<str>,
    /// Its parameters' sorts (at least one).
    pub params: Vec<Sort>,
    /// Its result sort.
    pub sort: Sort,
}

impl fmt::Display for FunDecl {
    /// `(declare-fun f (S1 ... Sn) S)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(declare-fun {} (", self.name)?;
        for (i, s) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        write!(f, ") {})", self.sort)
    }
}

/// The regular-expression constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReConst {
    /// `re.none`: the empty language.
    None,
    /// `re.all`: every string.
    All,
    /// `re.allchar`: every one-character string.
    Allchar,
}

macro_rules! ops {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// The supported operators (indexed ones carry their indices).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Op {
            $($(#[$doc])* $variant,)*
            /// `(_ re.loop i j)`.
            ReLoop(u32, u32),
            /// `(_ re.^ n)`.
            RePower(u32),
            /// `(as const (Array I E))`: the array sort is the term's sort.
            ConstArray,
            /// `(_ extract i j)`.
            Extract(u32, u32),
            /// `(_ zero_extend k)`.
            ZeroExtend(u32),
            /// `(_ sign_extend k)`.
            SignExtend(u32),
            /// `(_ repeat k)`.
            Repeat(u32),
            /// `(_ rotate_left k)`.
            RotateLeft(u32),
            /// `(_ rotate_right k)`.
            RotateRight(u32),
            /// `(_ int2bv w)` (SMT-LIB 2.7: `(_ int_to_bv w)`).
            Int2Bv(u32),
            /// `(_ divisible n)`.
            Divisible(u32),
            /// `(_ to_fp eb sb)` (from bits, another format, a real or a signed
            /// bit-vector: the arguments' sorts tell which).
            ToFp(u32, u32),
            /// `(_ to_fp_unsigned eb sb)`.
            ToFpUnsigned(u32, u32),
            /// `(_ fp.to_ubv w)`.
            FpToUbv(u32),
            /// `(_ fp.to_sbv w)`.
            FpToSbv(u32),
        }

        impl Op {
            /// The operator of a plain (non-indexed) SMT-LIB name.
            pub fn from_name(name: &str) -> Option<Op> {
                match name {
                    $($name => Some(Op::$variant),)*
                    _ => None,
                }
            }

            /// The SMT-LIB name (without indices).
            pub fn name(self) -> &'static str {
                match self {
                    $(Op::$variant => $name,)*
                    Op::ReLoop(..) => "re.loop",
                    Op::RePower(_) => "re.^",
                    Op::ConstArray => "const",
                    Op::Extract(..) => "extract",
                    Op::ZeroExtend(_) => "zero_extend",
                    Op::SignExtend(_) => "sign_extend",
                    Op::Repeat(_) => "repeat",
                    Op::RotateLeft(_) => "rotate_left",
                    Op::RotateRight(_) => "rotate_right",
                    Op::Int2Bv(_) => "int2bv",
                    Op::Divisible(_) => "divisible",
                    Op::ToFp(..) => "to_fp",
                    Op::ToFpUnsigned(..) => "to_fp_unsigned",
                    Op::FpToUbv(_) => "fp.to_ubv",
                    Op::FpToSbv(_) => "fp.to_sbv",
                }
            }
        }
    };
}

ops! {
    /// `not`.
    Not = "not",
    /// `and`.
    And = "and",
    /// `or`.
    Or = "or",
    /// `xor`.
    Xor = "xor",
    /// `=>`.
    Implies = "=>",
    /// `=`.
    Eq = "=",
    /// `distinct`.
    Distinct = "distinct",
    /// `ite`.
    Ite = "ite",
    /// `-` (unary negation or subtraction).
    Sub = "-",
    /// `+`.
    Add = "+",
    /// `*`.
    Mul = "*",
    /// `/` (real division).
    RealDiv = "/",
    /// `div` (Euclidean integer division).
    IntDiv = "div",
    /// `mod` (Euclidean remainder).
    Mod = "mod",
    /// `abs`.
    Abs = "abs",
    /// `<`.
    Lt = "<",
    /// `<=`.
    Le = "<=",
    /// `>`.
    Gt = ">",
    /// `>=`.
    Ge = ">=",
    /// `to_real`.
    ToReal = "to_real",
    /// `to_int` (floor).
    ToInt = "to_int",
    /// `is_int`.
    IsInt = "is_int",
    /// `sin`.
    Sin = "sin",
    /// `cos`.
    Cos = "cos",
    /// `tan`.
    Tan = "tan",
    /// `real.pi` (cvc5 writes it in model values).
    Pi = "real.pi",
    /// `bvnot`.
    BvNot = "bvnot",
    /// `bvneg`.
    BvNeg = "bvneg",
    /// `bvand`.
    BvAnd = "bvand",
    /// `bvor`.
    BvOr = "bvor",
    /// `bvxor`.
    BvXor = "bvxor",
    /// `bvadd`.
    BvAdd = "bvadd",
    /// `bvsub`.
    BvSub = "bvsub",
    /// `bvmul`.
    BvMul = "bvmul",
    /// `bvudiv` (all ones when dividing by zero).
    BvUdiv = "bvudiv",
    /// `bvurem` (the dividend when dividing by zero).
    BvUrem = "bvurem",
    /// `bvsdiv`.
    BvSdiv = "bvsdiv",
    /// `bvsrem`.
    BvSrem = "bvsrem",
    /// `bvsmod`.
    BvSmod = "bvsmod",
    /// `bvshl`.
    BvShl = "bvshl",
    /// `bvlshr`.
    BvLshr = "bvlshr",
    /// `bvashr`.
    BvAshr = "bvashr",
    /// `bvult`.
    BvUlt = "bvult",
    /// `bvule`.
    BvUle = "bvule",
    /// `bvugt`.
    BvUgt = "bvugt",
    /// `bvuge`.
    BvUge = "bvuge",
    /// `bvslt`.
    BvSlt = "bvslt",
    /// `bvsle`.
    BvSle = "bvsle",
    /// `bvsgt`.
    BvSgt = "bvsgt",
    /// `bvsge`.
    BvSge = "bvsge",
    /// `bv2nat` (SMT-LIB 2.7: `ubv_to_int`).
    Bv2Nat = "bv2nat",
    /// `sbv_to_int` (SMT-LIB 2.7): the two's-complement value.
    Sbv2Int = "sbv_to_int",
    /// `concat`.
    Concat = "concat",
    /// `bvcomp`.
    BvComp = "bvcomp",
    /// `bvnand`.
    BvNand = "bvnand",
    /// `bvnor`.
    BvNor = "bvnor",
    /// `bvxnor`.
    BvXnor = "bvxnor",
    /// `fp.to_real`.
    FpToReal = "fp.to_real",
    /// `fp` (a floating-point number from its three bit fields).
    FpFromFields = "fp",
    /// `select`.
    Select = "select",
    /// `store`.
    Store = "store",
    /// `fp.abs`.
    FpAbs = "fp.abs",
    /// `fp.neg`.
    FpNeg = "fp.neg",
    /// `fp.add`.
    FpAdd = "fp.add",
    /// `fp.sub`.
    FpSub = "fp.sub",
    /// `fp.mul`.
    FpMul = "fp.mul",
    /// `fp.div`.
    FpDiv = "fp.div",
    /// `fp.fma`.
    FpFma = "fp.fma",
    /// `fp.sqrt`.
    FpSqrt = "fp.sqrt",
    /// `fp.rem`.
    FpRem = "fp.rem",
    /// `fp.roundToIntegral`.
    FpRoundToIntegral = "fp.roundToIntegral",
    /// `fp.min`.
    FpMin = "fp.min",
    /// `fp.max`.
    FpMax = "fp.max",
    /// `fp.leq`.
    FpLeq = "fp.leq",
    /// `fp.lt`.
    FpLt = "fp.lt",
    /// `fp.geq`.
    FpGeq = "fp.geq",
    /// `fp.gt`.
    FpGt = "fp.gt",
    /// `fp.eq`.
    FpEq = "fp.eq",
    /// `fp.isNaN`.
    FpIsNaN = "fp.isNaN",
    /// `fp.isZero`.
    FpIsZero = "fp.isZero",
    /// `fp.isInfinite`.
    FpIsInfinite = "fp.isInfinite",
    /// `fp.isNormal`.
    FpIsNormal = "fp.isNormal",
    /// `fp.isSubnormal`.
    FpIsSubnormal = "fp.isSubnormal",
    /// `fp.isNegative`.
    FpIsNegative = "fp.isNegative",
    /// `fp.isPositive`.
    FpIsPositive = "fp.isPositive",
    /// `str.++`.
    StrConcat = "str.++",
    /// `str.len`.
    StrLen = "str.len",
    /// `str.at`.
    StrAt = "str.at",
    /// `str.substr`.
    StrSubstr = "str.substr",
    /// `str.prefixof`.
    StrPrefixof = "str.prefixof",
    /// `str.suffixof`.
    StrSuffixof = "str.suffixof",
    /// `str.contains`.
    StrContains = "str.contains",
    /// `str.indexof`.
    StrIndexof = "str.indexof",
    /// `str.replace`.
    StrReplace = "str.replace",
    /// `str.replace_all`.
    StrReplaceAll = "str.replace_all",
    /// `str.replace_re`.
    StrReplaceRe = "str.replace_re",
    /// `str.replace_re_all`.
    StrReplaceReAll = "str.replace_re_all",
    /// `str.<`.
    StrLt = "str.<",
    /// `str.<=`.
    StrLe = "str.<=",
    /// `str.to_int`.
    StrToInt = "str.to_int",
    /// `str.from_int`.
    StrFromInt = "str.from_int",
    /// `str.is_digit`.
    StrIsDigit = "str.is_digit",
    /// `str.to_code`.
    StrToCode = "str.to_code",
    /// `str.from_code`.
    StrFromCode = "str.from_code",
    /// `str.in_re`.
    StrInRe = "str.in_re",
    /// `str.to_re`.
    StrToRe = "str.to_re",
    /// `re.range`.
    ReRange = "re.range",
    /// `re.++`.
    ReConcat = "re.++",
    /// `re.union`.
    ReUnion = "re.union",
    /// `re.inter`.
    ReInter = "re.inter",
    /// `re.diff`.
    ReDiff = "re.diff",
    /// `re.comp`.
    ReComp = "re.comp",
    /// `re.*`.
    ReStar = "re.*",
    /// `re.+`.
    RePlus = "re.+",
    /// `re.opt`.
    ReOpt = "re.opt",
}

impl Term {
    /// A literal.
    pub fn lit(value: Value) -> Term {
        Term {
            sort: value.sort(),
            kind: TermKind::Lit(value),
        }
    }

    /// The arguments of an application of an operator, a function or a datatype's
    /// operation; a quantifier's body; a `match`'s scrutinee and bodies (none for
    /// other terms).
    pub fn args(&self) -> &[Term] {
        match &self.kind {
            TermKind::App(_, args)
            | TermKind::Call(_, args)
            | TermKind::Datatype(_, args)
            | TermKind::Quantifier(_, args)
            | TermKind::Match(_, args) => args,
            _ => &[],
        }
    }

    /// [`Term::args`], mutably.
    fn args_mut(&mut self) -> Option<&mut Vec<Term>> {
        match &mut self.kind {
            TermKind::App(_, args)
            | TermKind::Call(_, args)
            | TermKind::Datatype(_, args)
            | TermKind::Quantifier(_, args)
            | TermKind::Match(_, args) => Some(args),
            _ => None,
        }
    }

    /// Whether the term has a quantifier inside (or is one).
    pub fn has_quantifier(&self) -> bool {
        let mut found = false;
        self.for_each(&mut |t| found |= matches!(t.kind, TermKind::Quantifier(..)));
        found
    }

    /// Whether the term mentions a bound variable that no binder inside it binds (it
    /// has a meaning only inside a quantifier or `match`).
    pub fn has_free_bound(&self) -> bool {
        /// `ranges`: the levels the binders around `t` (inside the whole term) bind.
        fn walk(t: &Term, ranges: &mut Vec<(u32, u32)>) -> bool {
            crate::deep(|| match &t.kind {
                TermKind::Bound(l, _) => !ranges.iter().any(|(lo, hi)| (*lo..*hi).contains(l)),
                TermKind::Quantifier(q, body) => {
                    ranges.push((q.level, q.level.saturating_add(q.vars.len() as u32)));
                    let free = body.iter().any(|b| walk(b, ranges));
                    ranges.pop();
                    free
                }
                TermKind::Match(cases, args) => {
                    let Some((scrutinee, bodies)) = args.split_first() else {
                        return false;
                    };
                    walk(scrutinee, ranges)
                        || cases.iter().zip(bodies).any(|(c, b)| {
                            ranges.push((c.level, c.level.saturating_add(c.pattern.arity())));
                            let free = walk(b, ranges);
                            ranges.pop();
                            free
                        })
                }
                _ => t.args().iter().any(|a| walk(a, ranges)),
            })
        }
        walk(self, &mut Vec::new())
    }

    /// Calls `f` on every uninterpreted function the term applies (with repeats).
    pub fn for_each_function(&self, f: &mut impl FnMut(&Arc<FunDecl>)) {
        self.for_each(&mut |t| {
            if let TermKind::Call(decl, _) = &t.kind {
                f(decl)
            }
        });
    }

    /// Calls `f` on every declared constant the term mentions (with repeats).
    pub fn for_each_var(&self, f: &mut impl FnMut(usize)) {
        self.for_each(&mut |t| {
            if let TermKind::Var(i, _) = &t.kind {
                f(*i)
            }
        });
    }

    /// Calls `f` on every sub-term, parents before children (with an explicit stack:
    /// terms may be deep).
    pub fn for_each(&self, f: &mut impl FnMut(&Term)) {
        let mut stack = vec![self];
        while let Some(t) = stack.pop() {
            f(t);
            stack.extend(t.args().iter().rev());
        }
    }
}

impl Clone for Term {
    fn clone(&self) -> Term {
        crate::deep(|| Term {
            kind: self.kind.clone(),
            sort: self.sort.clone(),
        })
    }
}

impl Drop for Term {
    /// Drops deep terms without recursion.
    fn drop(&mut self) {
        if let Some(args) = self.args_mut() {
            if args.iter().all(|a| a.args().is_empty()) {
                return;
            }
            let mut stack = std::mem::take(args);
            while let Some(mut t) = stack.pop() {
                if let Some(a) = t.args_mut() {
                    stack.append(a);
                }
            }
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, &mut Vec::new())
    }
}

/// The names the binders around a term being printed give their variables, by level.
type Printed = Vec<(u32, Arc<str>)>;

/// The name variable `name` of a binder of the levels `lo..` prints with: its own,
/// unless its scope `body` mentions a constant of that name or a variable bound
/// outside the binder that prints so (as `let` substitution can make happen) — then
/// `name!level`, so that the printed formula means what the term does.
fn binder_name(name: &Arc<str>, level: u32, lo: u32, body: &[Term], names: &Printed) -> Arc<str> {
    let mut captured = false;
    for b in body {
        b.for_each(&mut |t| match &t.kind {
            TermKind::Var(_, n) if n == name => captured = true,
            TermKind::Bound(l, n) if *l < lo => {
                let printed = names
                    .iter()
                    .rev()
                    .find(|(x, _)| x == l)
                    .map_or(n, |(_, p)| p);
                captured |= printed == name;
            }
            _ => {}
        });
    }
    if captured {
        format!("{name}!{level}").into()
    } else {
        name.clone()
    }
}

impl Term {
    fn write(&self, f: &mut fmt::Formatter<'_>, names: &mut Printed) -> fmt::Result {
        crate::deep(|| self.write_inner(f, names))
    }

    /// ` a1 a2 ...`.
    fn write_args(args: &[Term], f: &mut fmt::Formatter<'_>, names: &mut Printed) -> fmt::Result {
        for a in args {
            f.write_str(" ")?;
            a.write(f, names)?;
        }
        Ok(())
    }

    fn write_inner(&self, f: &mut fmt::Formatter<'_>, names: &mut Printed) -> fmt::Result {
        match &self.kind {
            TermKind::Lit(v) => write!(f, "{v}"),
            TermKind::ReConst(c) => f.write_str(match c {
                ReConst::None => "re.none",
                ReConst::All => "re.all",
                ReConst::Allchar => "re.allchar",
            }),
            TermKind::Var(_, name) => f.write_str(name),
            TermKind::Bound(level, name) => f.write_str(
                names
                    .iter()
                    .rev()
                    .find(|(l, _)| l == level)
                    .map_or(name, |(_, p)| p),
            ),
            TermKind::Quantifier(q, body) => Term::write_quantifier(q, body, f, names),
            TermKind::Datatype(op, args) => self.write_datatype_op(*op, args, f, names),
            TermKind::Match(cases, args) => Term::write_match(cases, args, f, names),
            TermKind::Call(decl, args) => {
                write!(f, "({}", decl.name)?;
                Term::write_args(args, f, names)?;
                f.write_str(")")
            }
            TermKind::App(op, args) => self.write_app(op, args, f, names),
        }
    }

    /// `(forall ((x S) ...) body)`, or `exists`, its variables named for the body.
    fn write_quantifier(
        q: &Quantifier,
        body: &[Term],
        f: &mut fmt::Formatter<'_>,
        names: &mut Printed,
    ) -> fmt::Result {
        let outer = names.len();
        write!(f, "({} (", q.kind)?;
        for (i, (name, sort)) in q.vars.iter().enumerate() {
            let level = q.level + i as u32;
            let printed = binder_name(name, level, q.level, body, names);
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "({printed} {sort})")?;
            names.push((level, printed));
        }
        f.write_str(")")?;
        let written = Term::write_args(body, f, names);
        names.truncate(outer);
        written?;
        f.write_str(")")
    }

    /// A datatype's constructor, selector or tester `op` applied to `args` (this term).
    fn write_datatype_op(
        &self,
        op: DtOp,
        args: &[Term],
        f: &mut fmt::Formatter<'_>,
        names: &mut Printed,
    ) -> fmt::Result {
        let owner = match op {
            DtOp::Construct(_) => self.sort.datatype(),
            _ => args.first().and_then(|a| a.sort.datatype()),
        };
        let Some(dt) = owner else {
            return f.write_str("(ill-sorted datatype operation)");
        };
        let ctor = |c: usize| dt.constructors().get(c);
        match op {
            DtOp::Construct(c) => {
                let name = ctor(c).map_or("?", |c| &c.name);
                if args.is_empty() {
                    return f.write_str(name);
                }
                write!(f, "({name}")?;
            }
            DtOp::Select(c, k) => {
                let name = ctor(c)
                    .and_then(|c| c.fields.get(k))
                    .map_or("?", |f| &f.name);
                write!(f, "({name}")?;
            }
            DtOp::Test(c) => {
                write!(f, "((_ is {})", ctor(c).map_or("?", |c| &c.name))?;
            }
        }
        Term::write_args(args, f, names)?;
        f.write_str(")")
    }

    /// `(match scrutinee ((pattern body) ...))`, from the `cases` and `args` of a
    /// [`TermKind::Match`].
    fn write_match(
        cases: &[MatchCase],
        args: &[Term],
        f: &mut fmt::Formatter<'_>,
        names: &mut Printed,
    ) -> fmt::Result {
        let Some((scrutinee, bodies)) = args.split_first() else {
            return f.write_str("(match)");
        };
        let dt = scrutinee.sort.datatype();
        f.write_str("(match ")?;
        scrutinee.write(f, names)?;
        f.write_str(" (")?;
        for (i, (case, body)) in cases.iter().zip(bodies).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            Term::write_case(case, body, dt, f, names)?;
        }
        f.write_str("))")
    }

    /// One case `(pattern body)` of a `match` whose scrutinee is of datatype `dt`, its
    /// variables named for the body.
    fn write_case(
        case: &MatchCase,
        body: &Term,
        dt: Option<&DatatypeSort>,
        f: &mut fmt::Formatter<'_>,
        names: &mut Printed,
    ) -> fmt::Result {
        let outer = names.len();
        let body_slice = std::slice::from_ref(body);
        let bind = |k: usize, name: &Arc<str>, names: &mut Printed| {
            let level = case.level + k as u32;
            let printed = binder_name(name, level, case.level, body_slice, names);
            names.push((level, printed.clone()));
            printed
        };
        match &case.pattern {
            Pattern::Var(name) => {
                let printed = bind(0, name, names);
                write!(f, "({printed} ")?;
            }
            Pattern::Constructor(c, vars) => {
                let name = dt
                    .and_then(|d| d.constructors().get(*c))
                    .map_or("?", |c| &c.name);
                if vars.is_empty() {
                    write!(f, "({name} ")?;
                } else {
                    let printed: Vec<Arc<str>> = vars
                        .iter()
                        .enumerate()
                        .map(|(k, v)| bind(k, v, names))
                        .collect();
                    write!(f, "(({name} {}) ", printed.join(" "))?;
                }
            }
        }
        let written = body.write(f, names);
        names.truncate(outer);
        written?;
        f.write_str(")")
    }

    /// An operator `op` applied to `args` (this term): indexed operators as `(_ op i)`,
    /// a constant array as `(as const S)` of this term's sort.
    fn write_app(
        &self,
        op: &Op,
        args: &[Term],
        f: &mut fmt::Formatter<'_>,
        names: &mut Printed,
    ) -> fmt::Result {
        match op {
            Op::ReLoop(i, j) => write!(f, "((_ re.loop {i} {j})")?,
            Op::RePower(n) => write!(f, "((_ re.^ {n})")?,
            Op::ConstArray => write!(f, "((as const {})", self.sort)?,
            Op::Extract(i, j) => write!(f, "((_ extract {i} {j})")?,
            Op::ZeroExtend(k)
            | Op::SignExtend(k)
            | Op::Repeat(k)
            | Op::RotateLeft(k)
            | Op::RotateRight(k)
            | Op::Int2Bv(k)
            | Op::Divisible(k)
            | Op::FpToUbv(k)
            | Op::FpToSbv(k) => write!(f, "((_ {} {k})", op.name())?,
            Op::ToFp(e, s) | Op::ToFpUnsigned(e, s) => write!(f, "((_ {} {e} {s})", op.name())?,
            _ => write!(f, "({}", op.name())?,
        }
        Term::write_args(args, f, names)?;
        f.write_str(")")
    }
}
