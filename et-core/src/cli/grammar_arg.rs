//! `--grammar G`, shared by every subcommand that enumerates.

use clap::Args as ClapArgs;
use num_bigint::BigUint;

use et_core::enumeration::Enumeration;

/// Bad input that is not a grammar problem: an argument value, a formula, a config.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// The grammar to enumerate.
#[derive(ClapArgs, Debug, Clone)]
pub struct GrammarArg {
    /// A built-in grammar (core ints reals realints bitvectors arrays fp strings; see
    /// `et grammars`) or the path of a `.pest` file.
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

/// `--start I --n N`: the formulas at global indices I .. I+N−1.
#[derive(ClapArgs, Debug, Clone)]
pub struct RangeArg {
    /// How many formulas (for `et run`: of the whole study, before sharding).
    #[arg(long, short = 'n')]
    pub n: u64,
    /// Global index of the first formula (decimal, any size, or 10^k).
    #[arg(long, default_value = "0")]
    pub start: String,
}

impl RangeArg {
    /// The first index, parsed.
    pub fn start(&self) -> Result<BigUint, BadInput> {
        parse_index(&self.start)
    }
}

/// Parses an index: a decimal integer of any size, or `10^k`, naming the value if it
/// is neither.
pub fn parse_index(text: &str) -> Result<BigUint, BadInput> {
    let clean = text.trim().replace('_', "");
    let bad = || {
        BadInput(format!(
            "`{text}` is not an index (a non-negative decimal integer or 10^k)"
        ))
    };
    if let Some((base, exp)) = clean.split_once('^') {
        let base: BigUint = base.parse().map_err(|_| bad())?;
        let exp: u32 = exp.parse().map_err(|_| bad())?;
        return Ok(base.pow(exp));
    }
    clean.parse::<BigUint>().map_err(|_| bad())
}
