//! `et grammars`: the built-in grammars.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use et_core::builtins::BUILTINS;
use et_core::enumeration::Enumeration;

/// List the built-in grammars with their smallest formula size, SMT-LIB logic and a
/// description: ET's eight theory grammars, each extended to five variables and up to
/// two asserts (`<theory>-5v2a`, as in ET's bug hunt), then thirteen past ET's
/// (quantifiers, uninterpreted functions, mixed theories, datatypes) and their
/// extensions, then seven of scripts (several check-sats, scopes, assumptions).
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et grammars
  et index --grammar ints-5v2a 10^275
  et enumerate --grammar $(et grammars | awk 'NR==2{print $1}') --n 3")]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<ExitCode> {
    let mut lines = Vec::with_capacity(BUILTINS.len());
    for b in BUILTINS {
        let grammar = b.grammar();
        let logic = et_core::builtins::declared_logic(&grammar)?
            .unwrap_or("-")
            .to_string();
        let mut e = Enumeration::new(grammar);
        lines.push((b.name, e.smallest_size(), logic, b.description()));
    }
    // Columns as wide as their widest cell, so that `awk '{print $1}'` and a reader
    // both see one grammar per line in aligned columns.
    let name_width = lines.iter().map(|l| l.0.len()).max().unwrap_or(0).max(4);
    let logic_width = lines.iter().map(|l| l.2.len()).max().unwrap_or(0).max(5);
    println!(
        "{:<name_width$} {:>8}  {:<logic_width$} description",
        "name", "smallest", "logic"
    );
    for (name, smallest, logic, description) in lines {
        println!("{name:<name_width$} {smallest:>8}  {logic:<logic_width$} {description}");
    }
    Ok(ExitCode::SUCCESS)
}
