//! `--grammar G`, shared by every subcommand that enumerates.

use clap::Args as ClapArgs;
use num_bigint::BigUint;

use et_core::enumeration::Enumeration;

use super::numeric;

/// Bad input that is not a grammar problem: an argument value, a formula, a config.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// The grammar to enumerate.
#[derive(ClapArgs, Debug, Clone)]
pub struct GrammarArg {
    /// A built-in grammar — core ints reals realints bitvectors arrays fp strings, and
    /// each extended to five variables and up to two asserts as NAME-5v2a (core-5v2a
    /// ... strings-5v2a); see `et grammars` — or the path of a `.pest` file.
    #[arg(long, short = 'g', value_name = "NAME|FILE")]
    pub grammar: String,
}

impl GrammarArg {
    /// The grammar: a built-in as compiled into the binary (nothing is read or parsed),
    /// or a `.pest` file read, validated and costed at run time. Warnings go to stderr.
    pub fn enumeration(&self) -> anyhow::Result<Enumeration> {
        let grammar = et_core::builtins::load(&self.grammar)?;
        for w in &grammar.warnings {
            eprintln!("et: warning: {w}");
        }
        Ok(Enumeration::new(grammar))
    }
}

/// `--start I --n N`: the formulas at global indices I .. I+N−1 (`et enumerate`; `et
/// run` has both flags optional, as `--resume` takes them from run.toml). Both take the
/// numeric forms of [`super::numeric`].
#[derive(ClapArgs, Debug, Clone)]
pub struct RangeArg {
    /// How many formulas, at least 1 (for `et run`: of the whole study, before
    /// sharding). Decimal, 10^k or k*10^j.
    #[arg(long, short = 'n', value_parser = numeric::count)]
    pub n: u64,
    /// Global index of the first formula. Decimal (any size), 10^k or k*10^j.
    #[arg(long, default_value = "0", value_parser = numeric::index)]
    pub start: BigUint,
}
