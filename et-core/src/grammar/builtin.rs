//! The eight theory grammars of ET (DESIGN §4), shipped inside the binary.

use super::diagnostic::GrammarError;
use super::model::Grammar;
use super::DEFAULT_START;

/// A grammar that ships with et.
#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    /// Its name on the command line.
    pub name: &'static str,
    /// The `.pest` source.
    pub source: &'static str,
}

macro_rules! builtins {
    ($($name:literal),+) => {
        /// The built-in grammars, in the order ET lists them.
        pub const BUILTINS: &[Builtin] = &[$(Builtin {
            name: $name,
            source: include_str!(concat!("../../../grammars/", $name, ".pest")),
        }),+];
    };
}

builtins!(
    "core",
    "ints",
    "reals",
    "realints",
    "bitvectors",
    "arrays",
    "fp",
    "strings"
);

impl Builtin {
    /// Looks a built-in up by name.
    pub fn find(name: &str) -> Option<&'static Builtin> {
        BUILTINS.iter().find(|b| b.name == name)
    }

    /// Reads the built-in; it is validated by the test suite, so this cannot fail in a
    /// released binary, but the error path is kept rather than hidden behind a panic.
    pub fn grammar(&self) -> Result<Grammar, GrammarError> {
        Grammar::from_source(
            self.name,
            &format!("<builtin:{}>", self.name),
            self.source,
            DEFAULT_START,
        )
    }
}
