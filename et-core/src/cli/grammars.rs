//! `et grammars`: the built-in grammars.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use et_core::builtins::BUILTINS;
use et_core::enumeration::Enumeration;

/// List the built-in grammars with their smallest formula size, SMT-LIB logic and a
/// description: ET's eight theory grammars, then each extended to five variables and up
/// to two asserts (`<theory>-5v2a`, as in ET's bug hunt).
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et grammars
  et index --grammar ints-5v2a 10^275
  et enumerate --grammar $(et grammars | awk 'NR==2{print $1}') --n 3")]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<ExitCode> {
    println!(
        "{:<16} {:>8}  {:<8} description",
        "name", "smallest", "logic"
    );
    for b in BUILTINS {
        let grammar = b.grammar();
        let logic = et_core::builtins::declared_logic(&grammar)?
            .unwrap_or("-")
            .to_string();
        let mut e = Enumeration::new(grammar);
        println!(
            "{:<16} {:>8}  {logic:<8} {}",
            b.name,
            e.smallest_size(),
            b.description()
        );
    }
    Ok(ExitCode::SUCCESS)
}
