//! String and regular-expression operators: the evaluator's side of
//! [`crate::string`] and [`crate::regex`], which hold the semantics.

use num_bigint::BigInt;

use super::domain::{Lin, Tri, V};
use crate::regex::Regex;
use crate::string::SmtString;
use crate::term::{Op, ReConst};

/// The language of a regular-expression constant.
pub fn re_const(c: ReConst) -> Regex {
    match c {
        ReConst::None => Regex::none(),
        ReConst::All => Regex::all(),
        ReConst::Allchar => Regex::all_char(),
    }
}

fn int(v: &V) -> Option<BigInt> {
    match v {
        V::Num(l) => Some(l.as_const()?.to_integer()),
        _ => None,
    }
}

fn string(v: &V) -> Option<&SmtString> {
    match v {
        V::Str(s) => Some(s),
        _ => None,
    }
}

fn regex(v: &V) -> Option<&Regex> {
    match v {
        V::Re(r) => Some(r),
        _ => None,
    }
}

/// Applies a string or regular-expression operator; `None` when an argument is not
/// determined.
pub fn apply(op: Op, args: &[V]) -> Option<V> {
    use Op::*;
    let s = |i: usize| string(&args[i]);
    let r = |i: usize| regex(&args[i]);
    let n = |i: usize| int(&args[i]);
    let chain = |f: fn(&SmtString, &SmtString) -> bool| -> Option<V> {
        let mut ok = true;
        for w in args.windows(2) {
            ok &= f(string(&w[0])?, string(&w[1])?);
        }
        Some(V::Bool(Tri::from(ok)))
    };
    let num = |x: BigInt| V::Num(Lin::int(x));
    let b = |x: bool| V::Bool(Tri::from(x));
    Some(match op {
        StrConcat => {
            let mut acc = s(0)?.clone();
            for i in 1..args.len() {
                acc = acc.concat(s(i)?);
            }
            V::Str(acc)
        }
        StrLen => num(BigInt::from(s(0)?.len())),
        StrAt => V::Str(s(0)?.at(&n(1)?)),
        StrSubstr => V::Str(s(0)?.substr(&n(1)?, &n(2)?)),
        StrPrefixof => b(s(0)?.is_prefix_of(s(1)?)),
        StrSuffixof => b(s(0)?.is_suffix_of(s(1)?)),
        StrContains => b(s(0)?.contains(s(1)?)),
        StrIndexof => num(s(0)?.index_of(s(1)?, &n(2)?)),
        StrReplace => V::Str(s(0)?.replace(s(1)?, s(2)?)),
        StrReplaceAll => V::Str(s(0)?.replace_all(s(1)?, s(2)?)),
        StrReplaceRe => V::Str(s(0)?.replace_re(r(1)?, s(2)?)),
        StrReplaceReAll => V::Str(s(0)?.replace_re_all(r(1)?, s(2)?)),
        StrLt => chain(SmtString::str_lt)?,
        StrLe => chain(SmtString::str_le)?,
        StrToInt => num(s(0)?.to_int()),
        StrFromInt => V::Str(SmtString::from_int(&n(0)?)),
        StrIsDigit => b(s(0)?.is_digit()),
        StrToCode => num(s(0)?.to_code()),
        StrFromCode => V::Str(SmtString::from_code(&n(0)?)),
        StrInRe => b(r(1)?.matches(s(0)?)),
        StrToRe => V::Re(Regex::literal(s(0)?)),
        ReRange => V::Re(Regex::range(s(0)?, s(1)?)),
        ReConcat => {
            let mut acc = r(0)?.clone();
            for i in 1..args.len() {
                acc = acc.concat(r(i)?);
            }
            V::Re(acc)
        }
        ReUnion => V::Re(Regex::union_of(
            args.iter()
                .map(regex)
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .cloned(),
        )),
        ReInter => V::Re(Regex::inter_of(
            args.iter()
                .map(regex)
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .cloned(),
        )),
        ReDiff => {
            let mut acc = r(0)?.clone();
            for i in 1..args.len() {
                acc = acc.diff(r(i)?);
            }
            V::Re(acc)
        }
        ReComp => V::Re(r(0)?.complement()),
        ReStar => V::Re(r(0)?.star()),
        RePlus => V::Re(r(0)?.plus()),
        ReOpt => V::Re(r(0)?.opt()),
        ReLoop(i, j) => V::Re(r(0)?.repeat(i.into(), j.into())),
        RePower(k) => V::Re(r(0)?.power(k.into())),
        _ => return None,
    })
}
