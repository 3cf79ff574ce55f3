//! `et rank`: formulas back to their global index.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;

use et_core::enumeration::{FormulaParser, MAX_SIZE};

use super::grammar_arg::{BadInput, GrammarArg};
use super::output::{finished, Output};

/// For each formula (one per line, spacing ignored) print its global index and size,
/// tab-separated.
///
/// A formula that declares only some of the grammar's constants (as a report of
/// `et triage` gives it: only those it uses) is read with the others declared as the
/// grammar declares them.
///
/// Parsing is linear in the formula's length; the index needs the grammar's
/// cardinality tables up to the formula's size, as `et index` does. Formulas larger
/// than size 4096 or nested deeper than 4160 levels are refused.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et enumerate --grammar core --n 5 | et rank --grammar core
  et rank --grammar ints bug.smt2
  echo '(declare-const a Bool)(declare-const b Bool)(assert (not a))(check-sat)' | et rank -g core
  echo '(declare-const a Bool)(assert (not a))(check-sat)' | et rank -g core   # the same formula")]
pub struct Args {
    #[command(flatten)]
    grammar: GrammarArg,
    /// File with one formula per line (a trigger file et wrote reads as its formula);
    /// `-` or nothing reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut e = args.grammar.enumeration()?;
    let (name, reader): (String, Box<dyn BufRead>) = match &args.file {
        None => ("<stdin>".into(), Box::new(BufReader::new(io::stdin()))),
        Some(p) if p.as_os_str() == "-" => {
            ("<stdin>".into(), Box::new(BufReader::new(io::stdin())))
        }
        Some(p) => (
            p.display().to_string(),
            Box::new(BufReader::new(
                File::open(p).with_context(|| format!("cannot open {}", p.display()))?,
            )),
        ),
    };
    let grammar = e.grammar().clone();
    // A formula triage reported declares only the constants it uses: read it with the
    // grammar's declarations put back.
    let parser = FormulaParser::new(&grammar).declaring(e.first_text());
    let mut out = Output::new();
    for (number, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {name}"))?;
        // A trigger file et wrote has the model request (or a prelude) on lines of their
        // own: they are not formulas; a tactic configuration's check is the formula's
        // `(check-sat)`.
        let line = et_core::judging::formula_of(&line);
        if line.is_empty() {
            continue;
        }
        let term = parser
            .parse(&line)
            .map_err(|err| BadInput(format!("{name}:{}: {err}", number + 1)))?;
        if term.size > MAX_SIZE {
            return Err(BadInput(format!(
                "{name}:{}: the formula has size {}, beyond {MAX_SIZE}, the largest size et enumerates",
                number + 1,
                term.size
            ))
            .into());
        }
        let index = e.rank(&term);
        let text = format!("{index}\t{}", term.size);
        out.buf().extend_from_slice(text.as_bytes());
        if let Err(closed) = out.end_line() {
            return finished(Err(closed));
        }
    }
    finished(out.flush())
}
