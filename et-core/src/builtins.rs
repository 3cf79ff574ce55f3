//! The eight theory grammars of ET (`grammars/*.pest`, ET's published grammars with the
//! token fixes docs/grammars.md lists), thirteen more in ET's style where ET's never reach
//! (quantifiers, uninterpreted functions, conversions between theories, datatypes), the
//! extensions of all to five variables and up to two asserts (`ints-5v2a`, …), and seven
//! grammars of scripts (`scripts-ints`, …: scopes, check-sat-assuming, reset-assertions),
//! compiled into the binary by `#[derive(Grammar)]`: each
//! becomes a module of typed enums (`builtins::strings::BoolTerm`) and a
//! [`CompiledGrammar`]. Nothing here reads or parses `.pest` text at run time;
//! [`Builtin::interpreted`] does, for the tests that compare the two paths.

use std::path::Path;

use crate::grammar::{Grammar, GrammarError, DEFAULT_START};
use crate::typed::{self, CompiledGrammar, DerivedGrammar};

/// core: Booleans.
#[derive(typed::Grammar)]
#[grammar = "../grammars/core.pest"]
pub struct Core;

/// ints: integer arithmetic.
#[derive(typed::Grammar)]
#[grammar = "../grammars/ints.pest"]
pub struct Ints;

/// reals: real arithmetic with transcendental functions.
#[derive(typed::Grammar)]
#[grammar = "../grammars/reals.pest"]
pub struct Reals;

/// realints: mixed integer and real arithmetic, as published.
#[derive(typed::Grammar)]
#[grammar = "../grammars/realints.pest"]
pub struct Realints;

/// bitvectors: 64-bit bit-vectors and their conversion to integers.
#[derive(typed::Grammar)]
#[grammar = "../grammars/bitvectors.pest"]
pub struct Bitvectors;

/// arrays: arrays from bit-vectors to bit-vectors.
#[derive(typed::Grammar)]
#[grammar = "../grammars/arrays.pest"]
pub struct Arrays;

/// fp: IEEE double-precision floating point.
#[derive(typed::Grammar)]
#[grammar = "../grammars/fp.pest"]
pub struct Fp;

/// strings: strings, integers and regular expressions.
#[derive(typed::Grammar)]
#[grammar = "../grammars/strings.pest"]
pub struct Strings;

/// core extended to five Bool variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/core.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Core5v2a;

/// ints extended to five Int variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/ints.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Ints5v2a;

/// reals extended to five Real variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/reals.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Reals5v2a;

/// realints extended to five variables (`c d e` Real) and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/realints.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Realints5v2a;

/// bitvectors extended to five bit-vector variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/bitvectors.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Bitvectors5v2a;

/// arrays extended to five variables (`c d e` bit-vectors) and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/arrays.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Arrays5v2a;

/// fp extended to five floating-point variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/fp.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Fp5v2a;

/// strings extended to five String variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/strings.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Strings5v2a;

// The grammars past ET's: where recent solver bugs are (quantifiers, uninterpreted
// functions, conversions between theories, datatypes), in ET's small style.

/// uf-ints: uninterpreted functions over integers.
#[derive(typed::Grammar)]
#[grammar = "../grammars/uf-ints.pest"]
pub struct UfInts;

/// uf-bitvectors: uninterpreted functions over 8-bit bit-vectors.
#[derive(typed::Grammar)]
#[grammar = "../grammars/uf-bitvectors.pest"]
pub struct UfBitvectors;

/// quantifiers-ints: quantifiers over integers, with a predicate.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-ints.pest"]
pub struct QuantifiersInts;

/// quantifiers-reals: quantifiers over reals, with a predicate.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-reals.pest"]
pub struct QuantifiersReals;

/// quantifiers-bitvectors: quantifiers over 8-bit bit-vectors.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-bitvectors.pest"]
pub struct QuantifiersBitvectors;

/// quantifiers-bv64: quantifiers over 64-bit bit-vectors.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-bv64.pest"]
pub struct QuantifiersBv64;

/// quantifiers-bv1: quantifiers over 1-bit bit-vectors.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-bv1.pest"]
pub struct QuantifiersBv1;

/// quantifiers-strings: quantifiers over strings.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-strings.pest"]
pub struct QuantifiersStrings;

/// bv-ints: bit-vectors and integers mixed by their conversions.
#[derive(typed::Grammar)]
#[grammar = "../grammars/bv-ints.pest"]
pub struct BvInts;

/// strings-ints: strings and integers mixed by lengths, positions and conversions.
#[derive(typed::Grammar)]
#[grammar = "../grammars/strings-ints.pest"]
pub struct StringsInts;

/// fp-reals: floating point mixed with reals and bit-vectors by their conversions.
#[derive(typed::Grammar)]
#[grammar = "../grammars/fp-reals.pest"]
pub struct FpReals;

/// arrays-uf: arrays of bit-vectors with uninterpreted functions.
#[derive(typed::Grammar)]
#[grammar = "../grammars/arrays-uf.pest"]
pub struct ArraysUf;

/// datatypes: algebraic datatypes over Int: a list, an option, a pair.
#[derive(typed::Grammar)]
#[grammar = "../grammars/datatypes.pest"]
pub struct Datatypes;

/// uf-ints extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/uf-ints.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct UfInts5v2a;

/// uf-bitvectors extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/uf-bitvectors.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct UfBitvectors5v2a;

/// quantifiers-ints extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-ints.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct QuantifiersInts5v2a;

/// quantifiers-reals extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-reals.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct QuantifiersReals5v2a;

/// quantifiers-bitvectors extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-bitvectors.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct QuantifiersBitvectors5v2a;

/// quantifiers-bv64 extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-bv64.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct QuantifiersBv645v2a;

/// quantifiers-bv1 extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-bv1.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct QuantifiersBv15v2a;

/// quantifiers-strings extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/quantifiers-strings.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct QuantifiersStrings5v2a;

/// bv-ints extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/bv-ints.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct BvInts5v2a;

/// strings-ints extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/strings-ints.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct StringsInts5v2a;

/// fp-reals extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/fp-reals.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct FpReals5v2a;

/// arrays-uf extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/arrays-uf.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct ArraysUf5v2a;

/// datatypes extended to five variables and up to two asserts.
#[derive(typed::Grammar)]
#[grammar = "../grammars/datatypes.pest"]
#[extend(vars = 5, asserts = 2)]
pub struct Datatypes5v2a;

// Scripts: several check-sats over the theories above, with balanced push/pop scopes,
// check-sat-assuming and (in some) reset-assertions. No `-5v2a` extensions: a script
// has no single assert to extend.

/// scripts-ints: scripts over integer arithmetic.
#[derive(typed::Grammar)]
#[grammar = "../grammars/scripts-ints.pest"]
pub struct ScriptsInts;

/// scripts-reals: scripts over real arithmetic.
#[derive(typed::Grammar)]
#[grammar = "../grammars/scripts-reals.pest"]
pub struct ScriptsReals;

/// scripts-bitvectors: scripts over 64-bit bit-vectors.
#[derive(typed::Grammar)]
#[grammar = "../grammars/scripts-bitvectors.pest"]
pub struct ScriptsBitvectors;

/// scripts-strings: scripts over strings.
#[derive(typed::Grammar)]
#[grammar = "../grammars/scripts-strings.pest"]
pub struct ScriptsStrings;

/// scripts-arrays: scripts over arrays of 64-bit bit-vectors.
#[derive(typed::Grammar)]
#[grammar = "../grammars/scripts-arrays.pest"]
pub struct ScriptsArrays;

/// scripts-fp: scripts over IEEE double-precision floating point.
#[derive(typed::Grammar)]
#[grammar = "../grammars/scripts-fp.pest"]
pub struct ScriptsFp;

/// scripts-uf-ints: scripts over uninterpreted functions over integers.
#[derive(typed::Grammar)]
#[grammar = "../grammars/scripts-uf-ints.pest"]
pub struct ScriptsUfInts;

/// A grammar that ships with et.
#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    /// Its name on the command line.
    pub name: &'static str,
    /// The grammar as the macro compiled it.
    pub compiled: &'static CompiledGrammar,
}

/// The built-in grammars in the order `et grammars` lists them: ET's eight, their
/// extensions (`<theory>-5v2a`), the thirteen past ET's and their extensions, then the
/// seven of scripts.
pub const BUILTINS: &[Builtin] = &[
    Builtin::of::<Core>("core"),
    Builtin::of::<Ints>("ints"),
    Builtin::of::<Reals>("reals"),
    Builtin::of::<Realints>("realints"),
    Builtin::of::<Bitvectors>("bitvectors"),
    Builtin::of::<Arrays>("arrays"),
    Builtin::of::<Fp>("fp"),
    Builtin::of::<Strings>("strings"),
    Builtin::of::<Core5v2a>("core-5v2a"),
    Builtin::of::<Ints5v2a>("ints-5v2a"),
    Builtin::of::<Reals5v2a>("reals-5v2a"),
    Builtin::of::<Realints5v2a>("realints-5v2a"),
    Builtin::of::<Bitvectors5v2a>("bitvectors-5v2a"),
    Builtin::of::<Arrays5v2a>("arrays-5v2a"),
    Builtin::of::<Fp5v2a>("fp-5v2a"),
    Builtin::of::<Strings5v2a>("strings-5v2a"),
    Builtin::of::<UfInts>("uf-ints"),
    Builtin::of::<UfBitvectors>("uf-bitvectors"),
    Builtin::of::<QuantifiersInts>("quantifiers-ints"),
    Builtin::of::<QuantifiersReals>("quantifiers-reals"),
    Builtin::of::<QuantifiersBitvectors>("quantifiers-bitvectors"),
    Builtin::of::<QuantifiersBv64>("quantifiers-bv64"),
    Builtin::of::<QuantifiersBv1>("quantifiers-bv1"),
    Builtin::of::<QuantifiersStrings>("quantifiers-strings"),
    Builtin::of::<BvInts>("bv-ints"),
    Builtin::of::<StringsInts>("strings-ints"),
    Builtin::of::<FpReals>("fp-reals"),
    Builtin::of::<ArraysUf>("arrays-uf"),
    Builtin::of::<Datatypes>("datatypes"),
    Builtin::of::<UfInts5v2a>("uf-ints-5v2a"),
    Builtin::of::<UfBitvectors5v2a>("uf-bitvectors-5v2a"),
    Builtin::of::<QuantifiersInts5v2a>("quantifiers-ints-5v2a"),
    Builtin::of::<QuantifiersReals5v2a>("quantifiers-reals-5v2a"),
    Builtin::of::<QuantifiersBitvectors5v2a>("quantifiers-bitvectors-5v2a"),
    Builtin::of::<QuantifiersBv645v2a>("quantifiers-bv64-5v2a"),
    Builtin::of::<QuantifiersBv15v2a>("quantifiers-bv1-5v2a"),
    Builtin::of::<QuantifiersStrings5v2a>("quantifiers-strings-5v2a"),
    Builtin::of::<BvInts5v2a>("bv-ints-5v2a"),
    Builtin::of::<StringsInts5v2a>("strings-ints-5v2a"),
    Builtin::of::<FpReals5v2a>("fp-reals-5v2a"),
    Builtin::of::<ArraysUf5v2a>("arrays-uf-5v2a"),
    Builtin::of::<Datatypes5v2a>("datatypes-5v2a"),
    Builtin::of::<ScriptsInts>("scripts-ints"),
    Builtin::of::<ScriptsReals>("scripts-reals"),
    Builtin::of::<ScriptsBitvectors>("scripts-bitvectors"),
    Builtin::of::<ScriptsStrings>("scripts-strings"),
    Builtin::of::<ScriptsArrays>("scripts-arrays"),
    Builtin::of::<ScriptsFp>("scripts-fp"),
    Builtin::of::<ScriptsUfInts>("scripts-uf-ints"),
];

impl Builtin {
    const fn of<G: DerivedGrammar>(name: &'static str) -> Builtin {
        Builtin {
            name,
            compiled: G::COMPILED,
        }
    }

    /// One line for `et grammars`: the first line of the grammar file's `//!`
    /// documentation (the `logic:` line after it has a column of its own), or for an
    /// extension, what it extends.
    pub fn description(&self) -> String {
        let first = self.compiled.doc.lines().next().unwrap_or_default();
        let base = first
            .strip_prefix(&format!("{}:", self.compiled.name))
            .unwrap_or(first)
            .trim();
        match self.compiled.extension {
            None => base.to_string(),
            Some(e) => format!(
                "`{}` extended to {} variables and up to {} asserts",
                self.compiled.name, e.vars, e.asserts
            ),
        }
    }

    /// Looks a built-in up by name.
    pub fn find(name: &str) -> Option<&'static Builtin> {
        BUILTINS.iter().find(|b| b.name == name)
    }

    /// The grammar, built from the compiled data (no parsing).
    pub fn grammar(&self) -> Grammar {
        let mut grammar = self.compiled.grammar();
        grammar.name = self.name.to_string();
        grammar.file = format!("<builtin:{}>", self.name);
        grammar
    }

    /// The same grammar read from its `.pest` text by the interpreted path, as
    /// `et --grammar grammars/<name>.pest` reads it; for tests and benchmarks.
    pub fn interpreted(&self) -> Result<Grammar, GrammarError> {
        Grammar::from_source_extended(
            self.name,
            &format!("<builtin:{}>", self.name),
            self.compiled.source,
            DEFAULT_START,
            self.compiled.extension,
        )
    }
}

/// A built-in grammar by name (compiled), or else a `.pest` file by path (interpreted).
pub fn load(name_or_path: &str) -> Result<Grammar, GrammarError> {
    if let Some(builtin) = Builtin::find(name_or_path) {
        return Ok(builtin.grammar());
    }
    let path = Path::new(name_or_path);
    if path.exists() {
        return Grammar::from_file(path, DEFAULT_START);
    }
    Err(GrammarError::Unknown(
        name_or_path.to_string(),
        BUILTINS
            .iter()
            .map(|b| b.name)
            .collect::<Vec<_>>()
            .join(" "),
    ))
}

/// A `//! logic:` line that does not name one SMT-LIB logic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("grammar `{grammar}`: `//! logic: {value}` must name one SMT-LIB logic, such as QF_LIA")]
pub struct BadLogic {
    /// The grammar's name.
    pub grammar: String,
    /// What follows `logic:`.
    pub value: String,
}

/// The SMT-LIB logic a grammar declares with a `//! logic: QF_SLIA` line in its
/// documentation, if any. Solvers that need the logic stated (yices) get it before the
/// formula; the formula itself never states it, so other solvers pick their own tactics.
pub fn declared_logic(grammar: &Grammar) -> Result<Option<&str>, BadLogic> {
    let Some(value) = grammar
        .doc
        .lines()
        .find_map(|l| l.trim().strip_prefix("logic:"))
        .map(str::trim)
    else {
        return Ok(None);
    };
    let symbol = !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !symbol {
        return Err(BadLogic {
            grammar: grammar.name.clone(),
            value: value.to_string(),
        });
    }
    Ok(Some(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_are_valid_and_documented() {
        for b in BUILTINS {
            let g = b.interpreted().unwrap();
            assert!(g.warnings.is_empty(), "{}: {:?}", b.name, g.warnings);
            let stem = b.compiled.name;
            assert!(g.doc.starts_with(&format!("{stem}:")), "{}", b.name);
            assert!(b.grammar().doc.starts_with(&format!("{stem}:")));
            let line = b.description();
            assert!(!line.is_empty() && !line.contains("//"), "{}", b.name);
            assert!(!line.contains('\n') && !line.contains("logic:"), "{line}");
        }
    }

    #[test]
    fn builtins_declare_their_logic() {
        let logics: Vec<(&str, String)> = BUILTINS
            .iter()
            .map(|b| {
                (
                    b.name,
                    declared_logic(&b.grammar()).unwrap().unwrap().to_string(),
                )
            })
            .collect();
        let expected = [
            ("core", "QF_UF"),
            ("ints", "QF_NIA"),
            ("reals", "QF_NRA"),
            ("realints", "QF_NIRA"),
            ("bitvectors", "QF_BV"),
            ("arrays", "QF_ABV"),
            ("fp", "QF_FP"),
            ("strings", "QF_SLIA"),
            ("uf-ints", "QF_UFLIA"),
            ("uf-bitvectors", "QF_UFBV"),
            ("quantifiers-ints", "UFLIA"),
            ("quantifiers-reals", "UFLRA"),
            ("quantifiers-bitvectors", "BV"),
            ("quantifiers-bv64", "BV"),
            ("quantifiers-bv1", "BV"),
            ("quantifiers-strings", "SLIA"),
            ("bv-ints", "QF_BVNIA"),
            ("strings-ints", "QF_SLIA"),
            ("fp-reals", "QF_BVFPNRA"),
            ("arrays-uf", "QF_AUFBV"),
            ("datatypes", "QF_DTLIA"),
            ("scripts-ints", "QF_NIA"),
            ("scripts-reals", "QF_NRA"),
            ("scripts-bitvectors", "QF_BV"),
            ("scripts-strings", "QF_SLIA"),
            ("scripts-arrays", "QF_ABV"),
            ("scripts-fp", "QF_FP"),
            ("scripts-uf-ints", "QF_UFLIA"),
        ];
        let logics: Vec<(&str, &str)> = logics.iter().map(|(n, l)| (*n, l.as_str())).collect();
        // Every base grammar declares its logic; each extension its base's.
        for (name, logic) in &logics {
            let base = name.strip_suffix("-5v2a").unwrap_or(name);
            let (_, base_logic) = expected.iter().find(|(n, _)| *n == base).unwrap();
            assert_eq!(logic, base_logic, "{name}");
        }
        let mut g = Builtin::find("core").unwrap().grammar();
        g.doc = "mine: x\nlogic: QF LIA".into();
        assert_eq!(
            declared_logic(&g).unwrap_err().to_string(),
            "grammar `core`: `//! logic: QF LIA` must name one SMT-LIB logic, such as QF_LIA"
        );
        g.doc = "mine: no logic".into();
        assert_eq!(declared_logic(&g).unwrap(), None);
    }
}
