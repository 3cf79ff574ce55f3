//! The sorts et's formulas use.

use std::fmt;
use std::sync::Arc;

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
    /// `(_ FloatingPoint 11 53)` (binary64, the only format supported).
    Float64,
    /// `RoundingMode`.
    RoundingMode,
    /// `String`.
    String,
    /// `RegLan`.
    RegLan,
}

/// The widest bit-vector supported (values are big integers; the bound keeps a
/// `repeat` or `concat` chain from asking for gigabytes).
pub const MAX_BV_WIDTH: u32 = 1 << 16;

impl Sort {
    /// `(Array index element)`.
    pub fn array(index: Sort, element: Sort) -> Sort {
        Sort::Array(Arc::new((index, element)))
    }

    /// Reads a sort; `Err` holds the reason.
    pub fn parse(sexp: &Sexp) -> Result<Sort, String> {
        match &sexp.kind {
            SexpKind::Symbol(s) => match s.as_str() {
                "Bool" => Ok(Sort::Bool),
                "Int" => Ok(Sort::Int),
                "Real" => Ok(Sort::Real),
                "RoundingMode" => Ok(Sort::RoundingMode),
                "String" => Ok(Sort::String),
                "RegLan" => Ok(Sort::RegLan),
                "Float64" => Ok(Sort::Float64),
                _ => Err(format!("unsupported sort '{s}'")),
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
                        if numeral_u32(&items[2]) == Some(11) && numeral_u32(&items[3]) == Some(53)
                        {
                            Ok(Sort::Float64)
                        } else {
                            Err(format!(
                                "unsupported floating-point sort '{sexp}' (only 11 53)"
                            ))
                        }
                    }
                    [Some("Array"), _, _] => Ok(Sort::array(
                        Sort::parse(&items[1])?,
                        Sort::parse(&items[2])?,
                    )),
                    _ => Err(format!("unsupported sort '{sexp}'")),
                }
            }
            _ => Err(format!("not a sort: '{sexp}'")),
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
            Sort::RoundingMode => f.write_str("RoundingMode"),
            Sort::String => f.write_str("String"),
            Sort::RegLan => f.write_str("RegLan"),
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
        assert!(sort("(_ FloatingPoint 8 24)").is_err());
        assert!(sort("Foo").is_err());
        assert!(sort("(Array Int)").is_err());
    }
}
