//! `et grammars`: the built-in grammars.

use std::process::ExitCode;

use clap::Args as ClapArgs;

use et_core::builtins::BUILTINS;
use et_core::enumeration::Enumeration;

/// List the built-in grammars with their smallest formula size and a description.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et grammars
  et enumerate --grammar $(et grammars | awk 'NR==2{print $1}') --n 3")]
pub struct Args {}

pub fn run(_: Args) -> anyhow::Result<ExitCode> {
    println!("{:<12} {:>8}  description", "name", "smallest");
    for b in BUILTINS {
        let grammar = b.grammar();
        let doc = grammar.doc.clone();
        let mut e = Enumeration::new(grammar);
        let description = doc
            .strip_prefix(&format!("{}:", b.name))
            .unwrap_or(&doc)
            .trim()
            .to_string();
        println!("{:<12} {:>8}  {}", b.name, e.smallest_size(), description);
    }
    Ok(ExitCode::SUCCESS)
}
