//! `et eval`: a formula's truth under a solver's model, or a witness for it, by et's
//! own evaluator (crate et-eval).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args as ClapArgs;

use et_eval::{
    evaluate_model, find_witness, Evaluation, ModelDialect, Script, Truth, WitnessBound,
};

use super::grammar_arg::BadInput;

use super::{EXIT_EVAL_FALSE as EXIT_FALSE, EXIT_EVAL_UNDETERMINED as EXIT_UNDETERMINED};

/// Evaluate a formula under a solver's model (`--model`), or search for a satisfying
/// assignment (`--witness`). Prints `true`, `false` with the first false sub-formula,
/// or `undetermined` with the reason.
#[derive(ClapArgs)]
#[command(
    after_help = "The evaluator is exact: SMT-LIB semantics for Core, Ints, Reals (sin/cos/tan by \
rigorous bounds), RealInts, bit-vectors, arrays, floating point, strings and datatypes. Division \
by zero follows the model's div0/mod0//0 definitions when it prints them (z3), otherwise the \
formula is true if some consistent interpretation makes it true. A quantifier over finite sorts \
(at most 65536 assignments) is decided exactly; over others only candidates are tried, so a \
forall is never found true nor an exists false there: each quantifier's verdict is printed as a \
'; quantifier' line.

A trigger file et writes holds the formula without `(get-model)`: ask the solver for its \
model on its command line (z3 -model, or dump_models=true before z3 4.8.10; cvc5 \
--produce-models --dump-models).

Exit status: 0 true (or a witness was found), 3 false, 4 undetermined (or no witness within \
the bound), 2 bad input (formula or model text, with line:column, or a file that is not \
there), 1 other errors.

Examples:
  z3 -model bug.smt2 > z3.out; et eval bug.smt2 --model z3.out
  cvc5 --produce-models --dump-models bug.smt2 > cvc5.out; \\
      et eval bug.smt2 --model cvc5.out --solver cvc5
  z3 dump_models=true bug.smt2 > old.out; \\
      et eval bug.smt2 --model old.out --solver z3-4.8.7   # old z3: \\x.. escapes
  et index --grammar ints 12345 | et eval --witness
  et eval bug.smt2 --witness --bound 20"
)]
pub struct Args {
    /// The formula (an SMT-LIB script: declarations, assertions, check-sat); `-` or
    /// nothing reads standard input.
    #[arg(value_name = "FORMULA")]
    formula: Option<PathBuf>,
    /// A file with the solver's output with its model (after `(get-model)`, or asked on
    /// its command line): the `sat` line and the model, or the model alone.
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "witness",
        conflicts_with = "witness"
    )]
    model: Option<PathBuf>,
    /// The solver that printed the model, as FAMILY or FAMILY-VERSION (z3, z3-4.8.7,
    /// cvc5, cvc4, yices): old z3 writes strings with \x escapes, yices rounds
    /// algebraic numbers to decimals.
    #[arg(long, value_name = "SOLVER", requires = "model")]
    solver: Option<String>,
    /// Search for a satisfying assignment among small values instead.
    #[arg(long)]
    witness: bool,
    /// Values tried per constant by --witness.
    #[arg(long, value_name = "N", default_value_t = WitnessBound::default().values_per_constant, requires = "witness")]
    bound: usize,
}

fn read(path: Option<&Path>) -> anyhow::Result<(String, String)> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => Ok((
            p.display().to_string(),
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
        )),
    }
}

fn read_stdin() -> anyhow::Result<(String, String)> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .context("cannot read standard input")?;
    Ok(("<stdin>".into(), text))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (name, text) = read(args.formula.as_deref())?;
    let script = Script::parse(&text).map_err(|e| BadInput(format!("{name}:{e}")))?;
    if args.witness {
        let bound = WitnessBound::exhaustive(args.bound, script.decls.len());
        return Ok(match find_witness(&script, &bound) {
            Some(w) => {
                println!("witness");
                print!("{}", w.to_smtlib(&script));
                for choice in &w.evaluation.choices {
                    println!("; with {choice}");
                }
                print_quantifiers(&w.evaluation);
                ExitCode::SUCCESS
            }
            None => {
                println!("no witness with {} values per constant", args.bound);
                ExitCode::from(EXIT_UNDETERMINED)
            }
        });
    }
    let model_path = args
        .model
        .as_deref()
        .expect("clap requires --model without --witness");
    let (model_name, model_text) = read(Some(model_path))?;
    let dialect = match &args.solver {
        Some(solver) => {
            let (name, version) = solver.split_once('-').unwrap_or((solver, ""));
            let Some(family) = et_core::solvers::family::find(name) else {
                let known: Vec<&str> = et_core::solvers::family::FAMILIES
                    .iter()
                    .map(|f| f.name())
                    .collect();
                return Err(BadInput(format!(
                    "--solver {solver}: unknown family '{name}' ({})",
                    known.join(", ")
                ))
                .into());
            };
            family.model_dialect(version)
        }
        None => ModelDialect::default(),
    };
    // The solver's output read as a campaign reads it (one reader: et-eval's).
    let evaluation = evaluate_model(&script, &model_text, dialect)
        .map_err(|e| BadInput(format!("{model_name}:{e}")))?;
    let code = match &evaluation.truth {
        Truth::True => {
            println!("true");
            for choice in &evaluation.choices {
                println!("; with {choice}");
            }
            ExitCode::SUCCESS
        }
        Truth::False => {
            match &evaluation.explanation {
                Some(why) => println!("false: {why}"),
                None => println!("false"),
            }
            ExitCode::from(EXIT_FALSE)
        }
        Truth::Undetermined(why) => {
            println!("undetermined: {why}");
            ExitCode::from(EXIT_UNDETERMINED)
        }
    };
    print_quantifiers(&evaluation);
    Ok(code)
}

/// One comment line per outermost quantifier of the formula: its verdict and how it
/// was reached (exact over a finite domain, a counterexample or instance found by the
/// bounded search, or undetermined). Nothing for a formula without quantifiers.
fn print_quantifiers(evaluation: &Evaluation) {
    for note in &evaluation.quantifiers {
        let how = if note.exact() { "exact" } else { "bounded" };
        println!("; quantifier ({how}): {note}");
    }
}
