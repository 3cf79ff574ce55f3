//! `et bisect`: one formula on every installed version of a family.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args as ClapArgs, ValueEnum};

use et_core::oracle::Status;
use et_core::solvers::Pool;
use et_core::triage::bisect::{bisect, Bisection, Expectation};
use et_core::triage::calls::Caller;
use et_core::triage::range::family_versions;

use super::args::CallArgs;
use super::grammar_arg::BadInput;
use super::inputs::read_formula;
use super::notes::note_supervision;
use et_core::judging::Formula;

/// Run one formula on every installed version of a solver family, in release order and
/// in parallel, print each version's answer and where the behaviour changes.
///
/// With --expect sat|unsat, or --reference NAME (that solver's answer is the expected
/// one), each version is judged as `et run` judges a call, and the changes become the
/// first bad, last bad and first fixed release. Installed versions are the solvers of
/// the family in --pool FILE, else in $ET_HOME/pool.toml.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et bisect results/ints/bugs/validator_false_alarm/z3-4.8.5-223.smt2 --family z3
  et bisect bug.smt2 --family z3 --expect sat
  et bisect bug.smt2 --family cvc5 --reference z3-4.16.0 --timeout 30
  et index -g ints 302 | et bisect - --family z3 --expect sat")]
pub struct Args {
    /// The formula: an .smt2 file, or `-` for standard input.
    #[arg(value_name = "FORMULA")]
    formula: PathBuf,
    /// The solver family (z3, cvc5, cvc4, yices, ...).
    #[arg(long, value_name = "F")]
    family: String,
    /// The expected answer.
    #[arg(long, value_enum, conflicts_with = "reference")]
    expect: Option<Expected>,
    /// A solver of the pool whose answer is the expected one.
    #[arg(long, value_name = "NAME")]
    reference: Option<String>,
    #[command(flatten)]
    calls: CallArgs,
}

/// `--expect`.
#[derive(Clone, Copy, ValueEnum)]
enum Expected {
    Sat,
    Unsat,
}

/// Runs `et bisect`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // A saved trigger of a family that needs a prelude states its logic there (the
    // script the solver ran); without one, yices gets `(set-logic ALL)`.
    let file = read_formula(&args.formula)?;
    let limits = args.calls.settings(file.logic.as_deref());
    let jobs = args.calls.jobs();
    let formula = Formula::new(&file.formula, args.calls.witness_values());
    let pool = args.calls.pool()?;
    let versions = family_versions(&pool.solvers, &args.family);
    if versions.is_empty() {
        let mut families: Vec<&str> = pool.solvers.iter().map(|s| s.family.as_str()).collect();
        families.sort();
        families.dedup();
        return Err(BadInput(format!(
            "no solver of family `{}` in the pool (families: {})",
            args.family,
            families.join(", ")
        ))
        .into());
    }
    let expectation = expectation(&args, &pool)?;
    note_supervision();
    let caller = Caller::new(jobs)?;
    let mut progress = super::progress::Steps::for_stderr("bisect", false);
    progress.line(&format!("{} versions of {}", versions.len(), args.family));
    let b = bisect(
        &caller,
        &formula,
        &versions,
        &expectation,
        limits,
        &mut |done, total| progress.advance(done, total),
    )?;
    print_expected(&expectation, &b);
    print_versions(&b);
    print_changes(&b);
    if b.judged {
        print_bad_range(&b);
    }
    Ok(ExitCode::SUCCESS)
}

/// What each version is judged against: `--expect`, `--reference`'s answer, or nothing.
fn expectation(args: &Args, pool: &Pool) -> anyhow::Result<Expectation> {
    Ok(match (&args.expect, &args.reference) {
        (Some(Expected::Sat), _) => Expectation::Answer(Status::Sat),
        (Some(Expected::Unsat), _) => Expectation::Answer(Status::Unsat),
        (None, Some(name)) => match pool.get(name) {
            Some(r) => Expectation::Reference(Box::new(r.clone())),
            None => {
                return Err(BadInput(format!(
                    "--reference `{name}` is not in the pool (solvers: {})",
                    pool.names().join(", ")
                ))
                .into())
            }
        },
        (None, None) => Expectation::None,
    })
}

/// The `expected:` line: the answer given, or the reference's.
fn print_expected(expectation: &Expectation, b: &Bisection) {
    match (expectation, &b.reference) {
        (Expectation::Answer(s), _) => println!("expected: {s} (given)"),
        (Expectation::Reference(r), Some(a)) => match b.expected {
            Some(s) => println!("expected: {s} (the reference {} answered it)", r.name),
            None => println!(
                "expected: unknown: the reference {} answered {}, so only crashes and \
                 invalid models count as bad",
                r.name,
                a.describe()
            ),
        },
        _ => {}
    }
}

/// The table of versions: each one's answer, time and (when judged) verdict.
fn print_versions(b: &Bisection) {
    let width = b
        .versions
        .iter()
        .map(|v| v.answer.describe().len())
        .max()
        .unwrap_or(6)
        .max(6);
    let vwidth = b
        .versions
        .iter()
        .map(|v| v.solver.version.len())
        .max()
        .unwrap_or(7)
        .max(7);
    println!(
        "{:<vwidth$}  {:<width$}  {:>8}{}",
        "version",
        "answer",
        "time",
        if b.judged { "  verdict" } else { "" }
    );
    for v in &b.versions {
        let verdict = if b.judged {
            format!("  {}", v.verdict.map_or("-", |x| x.label()))
        } else {
            String::new()
        };
        println!(
            "{:<vwidth$}  {:<width$}  {:>6.2} s{verdict}",
            v.solver.version,
            v.answer.describe(),
            v.answer.time_s
        );
    }
}

/// One `change:` line per pair of consecutive versions that behave differently.
fn print_changes(b: &Bisection) {
    let changes = b.changes();
    if changes.is_empty() {
        println!("no change: every installed version behaves the same");
    }
    for c in &changes {
        let (before, after) = (&b.versions[c.before], &b.versions[c.after]);
        println!(
            "change: {} → {}: {} → {}",
            before.solver.version,
            after.solver.version,
            before.answer.describe(),
            after.answer.describe()
        );
    }
}

/// The first bad, last bad and first fixed release of a judged bisection.
fn print_bad_range(b: &Bisection) {
    let oldest = &b.versions[0].solver.version;
    let newest = &b.versions[b.versions.len() - 1].solver.version;
    let Some(first) = b.first_bad() else {
        println!("no installed version is bad");
        return;
    };
    let note = if &first.solver.version == oldest {
        " (the oldest installed release)"
    } else {
        ""
    };
    println!("first bad: {}{note}", first.solver.version);
    let last = b.last_bad().expect("there is a first bad");
    println!("last bad: {}", last.solver.version);
    match b.first_fixed() {
        Some(fixed) => println!("first fixed: {}", fixed.solver.version),
        None => {
            println!("first fixed: none (the newest installed release {newest} is bad)")
        }
    }
}
