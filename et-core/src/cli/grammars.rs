//! `et grammars`: the built-in grammars.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use et_core::builtins::BUILTINS;
use et_core::enumeration::Enumeration;

/// List the built-in grammars with their smallest formula size, SMT-LIB logic and a
/// description.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et grammars
  et enumerate --grammar $(et grammars | awk 'NR==2{print $1}') --n 3")]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<ExitCode> {
    println!(
        "{:<12} {:>8}  {:<8} description",
        "name", "smallest", "logic"
    );
    for b in BUILTINS {
        let grammar = b.grammar();
        let logic = et_core::builtins::declared_logic(&grammar)?
            .unwrap_or("-")
            .to_string();
        let first_line = grammar.doc.lines().next().unwrap_or("").to_string();
        let mut e = Enumeration::new(grammar);
        let description = first_line
            .strip_prefix(&format!("{}:", b.name))
            .unwrap_or(&first_line)
            .trim()
            .to_string();
        println!(
            "{:<12} {:>8}  {logic:<8} {description}",
            b.name,
            e.smallest_size()
        );
    }
    Ok(ExitCode::SUCCESS)
}
