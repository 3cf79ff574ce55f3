//! `et grammar check`: what will go wrong with a grammar, before any run.

use std::process::ExitCode;

use clap::{Args as ClapArgs, Subcommand};
use num_traits::Zero;

use et_core::builtins;
use et_core::enumeration::Enumeration;
use et_core::grammar_check::logic::Logic;
use et_core::grammar_check::{self, Finding, Problem};

use super::numeric;
use super::output::{finished, Output};

/// Flags of `et grammar`.
#[derive(ClapArgs)]
#[command(
    about = "Check a grammar file before running it",
    after_help = "Examples:
  et grammar check grammars/ints.pest
  et grammar check realints
  et grammar check strings --formulas 1000"
)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand)]
enum Sub {
    /// Say what will go wrong with a grammar (a `.pest` file or a built-in name).
    #[command(
        long_about = "Say what will go wrong with a grammar (a `.pest` file or a built-in \
name) before any run.

Errors (exit 2), the checks every command makes when it loads a grammar: formulas that \
can lack a `(check-sat)` command, string literals holding characters outside printable \
ASCII, and every other grammar error, each with its file:line:column.

Warnings (exit 0, on stderr as `et: warning: ...`), from the first formulas \
(--formulas), type-checked by et's evaluator: operators the grammar's declared logic \
(its `//! logic:` line) does not have, transcendental functions (`sin`: in no standard \
logic), operators that get an Int where they want a Real \
(et and z3 read a `to_real` around it; SMT-LIB has no such coercion), and formulas et \
cannot read (their models cannot be checked). Each distinct problem is reported once, \
with the index of the first formula showing it (`et index` prints it).

Results on stdout: the grammar, its logic, the number of formulas per size (the \
first sizes, up to the checked count), how many formulas were checked.",
        after_help = "Examples:
  et grammar check grammars/ints.pest
  et grammar check realints
  et grammar check strings --formulas 1000
  et index --grammar realints 7      # a formula a warning names"
    )]
    Check {
        /// A built-in grammar (see `et grammars`) or the path of a `.pest` file.
        #[arg(value_name = "NAME|FILE")]
        grammar: String,
        /// How many formulas to type-check, from the smallest. Decimal, 10^k or k*10^j.
        #[arg(long, default_value = "10^4", value_parser = numeric::count)]
        formulas: u64,
    },
}

/// The most sizes listed.
const MAX_SIZES: usize = 12;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Sub::Check { grammar, formulas } => check(&grammar, formulas),
    }
}

fn check(spec: &str, limit: u64) -> anyhow::Result<ExitCode> {
    let grammar = builtins::load(spec)?;
    let file = grammar.file.clone();
    let declared = builtins::declared_logic(&grammar)?.map(str::to_string);
    for w in &grammar.warnings {
        eprintln!("et: warning: {w}");
    }
    let logic = match &declared {
        Some(name) => match Logic::parse(name) {
            Some(logic) => Some((name.as_str(), logic)),
            None => {
                eprintln!(
                    "et: warning: {file}: logic `{name}` is not one et knows the operators of; \
                     operators are not checked against it"
                );
                None
            }
        },
        None => {
            eprintln!(
                "et: warning: {file}: no `//! logic:` line, so operators are not checked \
                 against a logic (and solvers that need one, like yices, cannot run it)"
            );
            None
        }
    };
    let mut e = Enumeration::new(grammar);
    let mut out = Output::new();
    let line = |out: &mut Output, text: String| {
        out.buf().extend_from_slice(text.as_bytes());
        out.end_line()
    };
    let name = e.grammar().name.clone();
    let _ = line(&mut out, format!("grammar\t{name}\t{file}"));
    let _ = line(
        &mut out,
        format!("logic\t{}", declared.as_deref().unwrap_or("-")),
    );
    let _ = line(&mut out, "size\tformulas\tcumulative".to_string());
    let smallest = e.smallest_size();
    let mut size = smallest;
    let mut listed = 0;
    while listed < MAX_SIZES && e.max_size().is_none_or(|max| size <= max) {
        let card = e.part_cardinality(size);
        let cumulative = e.count_below(size + 1);
        if !card.is_zero() {
            let _ = line(&mut out, format!("{size}\t{card}\t{cumulative}"));
            listed += 1;
        }
        if cumulative >= limit.into() {
            break;
        }
        size += 1;
    }
    let checked = grammar_check::check_formulas(&mut e, logic, limit);
    let _ = line(
        &mut out,
        format!(
            "checked\t{} formulas\t{} warnings",
            checked.formulas,
            checked.findings.len()
        ),
    );
    let flushed = out.flush();
    for finding in &checked.findings {
        eprintln!("et: warning: {}", describe(&file, finding));
    }
    finished(flushed)
}

/// One warning line (without `et: warning: `).
fn describe(file: &str, f: &Finding) -> String {
    let at = match f.rules.as_slice() {
        [(rule, p)] => format!("{file}:{}:{}: rule `{rule}`: ", p.line, p.column),
        [] => format!("{file}: "),
        several => {
            let names: Vec<String> = several.iter().map(|(r, _)| format!("`{r}`")).collect();
            format!("{file}: rules {}: ", names.join(", "))
        }
    };
    let op = &f.operator;
    let what = match &f.problem {
        Problem::OutsideLogic { logic, lacks } => {
            format!("operator `{op}` needs {lacks}, which logic {logic} does not have")
        }
        Problem::Transcendental => {
            format!("operator `{op}` is transcendental: no SMT-LIB logic has it")
        }
        Problem::IntForReal => format!(
            "operator `{op}` gets an Int where it wants a Real (et and z3 coerce it; \
             SMT-LIB does not)"
        ),
        Problem::Unreadable(message) => format!(
            "et's evaluator cannot read some formulas ({message}{}), so it cannot check \
             their models",
            f.detail
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default()
        ),
    };
    format!(
        "{at}{what}; first in formula {}, in {} of those checked",
        f.first, f.formulas
    )
}
