//! The sorts et's formulas use.

use std::fmt;
use std::sync::Arc;

use crate::datatype::DatatypeSort;
use crate::sexp::{Sexp, SexpKind};

/// An SMT-LIB sort of the supported theories.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Sort {
    /// `Bool`.
    Bool,
    /// `Int`.
    Int,
    /// `Real`.
    Real,
    /// `(_ BitVec n)`, 1 ≤ n ≤ [`MAX_BV_WIDTH`].
    BitVec(u32),
    /// `(Array index element)`.
    Array(Arc<(Sort, Sort)>),
    /// `(_ FloatingPoint 11 53)` (binary64, with its own fast arithmetic).
    Float64,
    /// `(_ FloatingPoint eb sb)` of any other format (Float16, Float32, Float128, ...).
    Float(u32, u32),
    /// `RoundingMode`.
    RoundingMode,
    /// `String`.
    String,
    /// `RegLan`.
    RegLan,
    /// A datatype a script declares (`declare-datatypes`), by its declaration.
    Datatype(DatatypeSort),
}

/// The widest bit-vector supported (values are big integers; the bound keeps a
/// `repeat` or `concat` chain from asking for gigabytes).
pub const MAX_BV_WIDTH: u32 = 1 << 16;

impl Sort {
    /// `(Array index element)`.
    pub fn array(index: Sort, element: Sort) -> Sort {
        Sort::Array(Arc::new((index, element)))
    }

    /// Reads a sort of the theories; `Err` holds the reason.
    pub fn parse(sexp: &Sexp) -> Result<Sort, String> {
        Sort::parse_with(sexp, &|_| None)
    }

    /// Reads a sort, looking names that are no theory's sort up in `named` (the
    /// datatypes a script declares); `Err` holds the reason.
    pub fn parse_with(sexp: &Sexp, named: &dyn Fn(&str) -> Option<Sort>) -> Result<Sort, String> {
        match &sexp.kind {
            SexpKind::Symbol(s) => match s.as_str() {
                "Bool" => Ok(Sort::Bool),
                "Int" => Ok(Sort::Int),
                "Real" => Ok(Sort::Real),
                "RoundingMode" => Ok(Sort::RoundingMode),
                "String" => Ok(Sort::String),
                "RegLan" => Ok(Sort::RegLan),
                "Float64" => Ok(Sort::Float64),
                "Float16" => Ok(Sort::Float(5, 11)),
                "Float32" => Ok(Sort::Float(8, 24)),
                "Float128" => Ok(Sort::Float(15, 113)),
                _ => named(s).ok_or_else(|| format!("unsupported sort '{s}'")),
            },
            SexpKind::List(items) => {
                let heads: Vec<Option<&str>> = items.iter().map(Sexp::as_symbol).collect();
                match heads.as_slice() {
                    [Some("_"), Some("BitVec"), None] => {
                        let width = numeral_u32(&items[2])
                            .filter(|w| (1..=MAX_BV_WIDTH).contains(w))
                            .ok_or_else(|| {
                                format!(
                                    "unsupported bit-vector width '{}' (1 to {MAX_BV_WIDTH})",
                                    items[2]
                                )
                            })?;
                        Ok(Sort::BitVec(width))
                    }
                    [Some("_"), Some("FloatingPoint"), None, None] => {
                        match (numeral_u32(&items[2]), numeral_u32(&items[3])) {
                            (Some(eb), Some(sb)) => Sort::floating_point(eb, sb),
                            _ => Err(format!("unsupported floating-point sort '{sexp}'")),
                        }
                    }
                    [Some("Array"), _, _] => Ok(Sort::array(
                        Sort::parse_with(&items[1], named)?,
                        Sort::parse_with(&items[2], named)?,
                    )),
                    _ => Err(format!("unsupported sort '{sexp}'")),
                }
            }
            _ => Err(format!("not a sort: '{sexp}'")),
        }
    }

    /// `(_ FloatingPoint eb sb)`, if the format is supported.
    pub fn floating_point(eb: u32, sb: u32) -> Result<Sort, String> {
        if (eb, sb) == (11, 53) {
            Ok(Sort::Float64)
        } else if crate::fp::generic::Fp::format_supported(eb, sb) {
            Ok(Sort::Float(eb, sb))
        } else {
            Err(format!(
                "unsupported floating-point format (_ FloatingPoint {eb} {sb}) (exponent 2 to 30 bits, significand 2 to 65536)"
            ))
        }
    }

    /// The format (eb, sb) of a floating-point sort.
    pub fn fp_format(&self) -> Option<(u32, u32)> {
        match self {
            Sort::Float64 => Some((11, 53)),
            Sort::Float(eb, sb) => Some((*eb, *sb)),
            _ => None,
        }
    }

    /// Whether the sort is `Int` or `Real`.
    pub fn is_numeric(&self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }

    /// The index and element sorts of an array sort.
    pub fn array_parts(&self) -> Option<(&Sort, &Sort)> {
        match self {
            Sort::Array(parts) => Some((&parts.0, &parts.1)),
            _ => None,
        }
    }

    /// The datatype, if the sort is one.
    pub fn datatype(&self) -> Option<&DatatypeSort> {
        match self {
            Sort::Datatype(d) => Some(d),
            _ => None,
        }
    }

    /// Calls `f` on every datatype the sort is or contains (an array's index and
    /// element sorts), outermost first.
    pub fn for_each_datatype(&self, f: &mut impl FnMut(&DatatypeSort)) {
        match self {
            Sort::Datatype(d) => f(d),
            Sort::Array(parts) => {
                parts.0.for_each_datatype(f);
                parts.1.for_each_datatype(f);
            }
            _ => {}
        }
    }
}

fn numeral_u32(sexp: &Sexp) -> Option<u32> {
    match &sexp.kind {
        SexpKind::Numeral(n) => n.parse().ok(),
        _ => None,
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Real => f.write_str("Real"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Array(parts) => write!(f, "(Array {} {})", parts.0, parts.1),
            Sort::Float64 => f.write_str("(_ FloatingPoint 11 53)"),
            Sort::Float(eb, sb) => write!(f, "(_ FloatingPoint {eb} {sb})"),
            Sort::RoundingMode => f.write_str("RoundingMode"),
            Sort::String => f.write_str("String"),
            Sort::RegLan => f.write_str("RegLan"),
            Sort::Datatype(d) => write!(f, "{d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sexp::read_all;

    fn sort(text: &str) -> Result<Sort, String> {
        Sort::parse(&read_all(text).unwrap()[0])
    }

    #[test]
    fn parses_and_prints() {
        for text in [
            "Bool",
            "Int",
            "Real",
            "(_ BitVec 64)",
            "(Array (_ BitVec 64) (_ BitVec 64))",
            "(_ FloatingPoint 11 53)",
            "RoundingMode",
            "String",
            "RegLan",
        ] {
            assert_eq!(sort(text).unwrap().to_string(), text);
        }
        assert_eq!(sort("(_ BitVec 65)").unwrap(), Sort::BitVec(65));
        assert!(sort("(_ BitVec 65537)").unwrap_err().contains("65537"));
        assert!(sort("(_ BitVec 0)").is_err());
        assert_eq!(sort("(_ FloatingPoint 8 24)").unwrap(), Sort::Float(8, 24));
        assert_eq!(sort("Float16").unwrap(), Sort::Float(5, 11));
        assert!(sort("(_ FloatingPoint 1 24)").is_err());
        assert!(sort("Foo").is_err());
        assert!(sort("(Array Int)").is_err());
    }
}
