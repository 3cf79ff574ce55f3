//! Which operators an SMT-LIB logic has: its name read as the standard's letters
//! (`QF_` no quantifiers; `A`/`AX` arrays, `UF` uninterpreted functions, `BV`
//! bit-vectors, `FP` floating point, `DT` datatypes, `S` strings; then the arithmetic:
//! `IDL`/`LIA`/`NIA` integers, `RDL`/`LRA`/`NRA` reals, `LIRA`/`NIRA` both), and the
//! theory an operator belongs to by its name.
//!
//! A name-level table, not a type checker: it does not tell linear from non-linear
//! multiplication, nor a `to_fp` from a Real (which needs reals) from one from a float.
//! Transcendental functions (`sin`, `cos`, `tan`, `exp`, `real.pi`) are in no standard
//! logic.

use crate::solvers::family::catalog::Theory;

/// What a logic allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Logic {
    /// Quantifiers (no `QF_`).
    pub quantifiers: bool,
    /// Arrays.
    pub arrays: bool,
    /// Bit-vectors.
    pub bit_vectors: bool,
    /// Floating point.
    pub floats: bool,
    /// Strings and regular expressions.
    pub strings: bool,
    /// Integers.
    pub ints: bool,
    /// Reals.
    pub reals: bool,
    /// Datatypes (`DT`).
    pub datatypes: bool,
    /// Theories no standard logic names (finite fields, sets): only `ALL` has them.
    pub extensions: bool,
}

impl Logic {
    /// Reads a logic name (`QF_SLIA`, `QF_AUFBV`, `ALL`); `None` for a name this table
    /// does not know.
    pub fn parse(name: &str) -> Option<Logic> {
        if name == "ALL" {
            return Some(Logic {
                quantifiers: true,
                arrays: true,
                bit_vectors: true,
                floats: true,
                strings: true,
                ints: true,
                reals: true,
                datatypes: true,
                extensions: true,
            });
        }
        let mut logic = Logic::default();
        let mut rest = match name.strip_prefix("QF_") {
            Some(rest) => rest,
            None => {
                logic.quantifiers = true;
                name
            }
        };
        // Theory letters, in the order the standard's names use them (uninterpreted
        // functions have nothing to check).
        let letters: [(&str, Letter); 7] = [
            ("AX", |l| l.arrays = true),
            ("A", |l| l.arrays = true),
            ("UF", |_| {}),
            ("BV", |l| l.bit_vectors = true),
            ("FP", |l| l.floats = true),
            ("DT", |l| l.datatypes = true),
            ("S", |l| l.strings = true),
        ];
        for (prefix, add) in letters {
            if let Some(after) = rest.strip_prefix(prefix) {
                rest = after;
                add(&mut logic);
            }
        }
        let (ints, reals) = match rest {
            "" => (false, false),
            "IDL" | "LIA" | "NIA" => (true, false),
            "RDL" | "LRA" | "NRA" => (false, true),
            "LIRA" | "NIRA" => (true, true),
            _ => return None,
        };
        logic.ints = ints;
        logic.reals = reals;
        Some(logic)
    }

    /// Whether the logic has `theory`, which solver options may act on.
    pub fn has(&self, theory: Theory) -> bool {
        match theory {
            Theory::Arithmetic => self.ints || self.reals,
            Theory::BitVectors => self.bit_vectors,
            Theory::Floats => self.floats,
            Theory::Arrays => self.arrays,
            Theory::Strings => self.strings,
            Theory::Datatypes => self.datatypes,
            Theory::Quantifiers => self.quantifiers,
            Theory::Extensions => self.extensions,
        }
    }

    /// What an operator needs that this logic lacks, if anything (a sentence part such
    /// as "bit-vectors and integers"); operators the table does not know need nothing.
    /// Transcendental functions are in no logic: see [`transcendental`].
    pub fn lacks(&self, operator: &str) -> Option<String> {
        let needs = Needs::of(operator);
        let mut missing: Vec<&str> = Vec::new();
        let pairs = [
            (needs.quantifiers && !self.quantifiers, "quantifiers"),
            (needs.arrays && !self.arrays, "arrays"),
            (needs.bit_vectors && !self.bit_vectors, "bit-vectors"),
            (needs.floats && !self.floats, "floating point"),
            (needs.strings && !self.strings, "strings"),
            (needs.ints && !self.ints, "integers"),
            (needs.reals && !self.reals, "reals"),
            (needs.arithmetic && !self.ints && !self.reals, "arithmetic"),
        ];
        for (lacking, what) in pairs {
            if lacking {
                missing.push(what);
            }
        }
        (!missing.is_empty()).then(|| missing.join(" and "))
    }
}

/// Whether an operator is a transcendental function, which no standard logic has.
pub fn transcendental(operator: &str) -> bool {
    Needs::of(operator).transcendental
}

/// What a theory letter of a logic name adds to it.
type Letter = fn(&mut Logic);

/// What an operator needs from a logic, by its name.
#[derive(Debug, Default)]
struct Needs {
    quantifiers: bool,
    arrays: bool,
    bit_vectors: bool,
    floats: bool,
    strings: bool,
    ints: bool,
    reals: bool,
    /// Integers or reals, either will do.
    arithmetic: bool,
    transcendental: bool,
}

impl Needs {
    fn of(op: &str) -> Needs {
        let mut n = Needs::default();
        match op {
            "forall" | "exists" => n.quantifiers = true,
            "sin" | "cos" | "tan" | "exp" | "real.pi" | "arcsin" | "arccos" | "arctan" => {
                n.transcendental = true
            }
            "+" | "-" | "*" | "<" | "<=" | ">" | ">=" => n.arithmetic = true,
            "div" | "mod" | "abs" | "divisible" => n.ints = true,
            "/" => n.reals = true,
            "to_real" | "to_int" | "is_int" => (n.ints, n.reals) = (true, true),
            "select" | "store" | "const" => n.arrays = true,
            "bv2nat" | "bv2int" | "nat2bv" | "int2bv" => (n.bit_vectors, n.ints) = (true, true),
            "concat" | "extract" | "zero_extend" | "sign_extend" | "repeat" | "rotate_left"
            | "rotate_right" => n.bit_vectors = true,
            "fp.to_real" => (n.floats, n.reals) = (true, true),
            "fp.to_ubv" | "fp.to_sbv" => (n.floats, n.bit_vectors) = (true, true),
            "fp" | "to_fp" | "to_fp_unsigned" => n.floats = true,
            _ if op.starts_with("bv") => n.bit_vectors = true,
            _ if op.starts_with("fp.") => n.floats = true,
            _ if op.starts_with("str.") || op.starts_with("re.") => n.strings = true,
            _ => {}
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logic_names_read_as_letters() {
        let lia = Logic::parse("QF_LIA").unwrap();
        assert!(lia.ints && !lia.reals && !lia.quantifiers && !lia.bit_vectors);
        let slia = Logic::parse("QF_SLIA").unwrap();
        assert!(slia.strings && slia.ints);
        let abvfp = Logic::parse("QF_ABVFPLRA").unwrap();
        assert!(abvfp.arrays && abvfp.bit_vectors && abvfp.floats && abvfp.reals);
        assert!(Logic::parse("QF_AUFLIA").unwrap().arrays);
        assert!(Logic::parse("LIA").unwrap().quantifiers);
        assert!(Logic::parse("QF_UF").is_some());
        assert!(Logic::parse("QF_NIRA").unwrap().ints);
        assert_eq!(Logic::parse("QF_XYZ"), None);
    }

    #[test]
    fn theories_options_act_on() {
        let bv = Logic::parse("QF_BV").unwrap();
        assert!(bv.has(Theory::BitVectors) && !bv.has(Theory::Arithmetic));
        let slia = Logic::parse("QF_SLIA").unwrap();
        assert!(slia.has(Theory::Strings) && slia.has(Theory::Arithmetic));
        assert!(!slia.has(Theory::Quantifiers) && !slia.has(Theory::Extensions));
        assert!(Logic::parse("QF_UFDT").unwrap().has(Theory::Datatypes));
        let all = Logic::parse("ALL").unwrap();
        assert!(all.has(Theory::Extensions) && all.has(Theory::Quantifiers));
    }

    #[test]
    fn operators_outside_a_logic() {
        let bv = Logic::parse("QF_BV").unwrap();
        assert_eq!(bv.lacks("bvadd"), None);
        assert_eq!(bv.lacks("bv2nat").as_deref(), Some("integers"));
        assert_eq!(bv.lacks("+").as_deref(), Some("arithmetic"));
        assert_eq!(bv.lacks("and"), None);
        let nira = Logic::parse("QF_NIRA").unwrap();
        assert_eq!(nira.lacks("sin"), None);
        assert!(transcendental("sin") && transcendental("real.pi") && !transcendental("+"));
        assert_eq!(nira.lacks("to_real"), None);
        let lra = Logic::parse("QF_LRA").unwrap();
        assert_eq!(lra.lacks("mod").as_deref(), Some("integers"));
        assert_eq!(lra.lacks("str.len").as_deref(), Some("strings"));
        assert_eq!(lra.lacks("forall").as_deref(), Some("quantifiers"));
        let fp = Logic::parse("QF_FP").unwrap();
        assert_eq!(fp.lacks("fp.to_real").as_deref(), Some("reals"));
    }
}
