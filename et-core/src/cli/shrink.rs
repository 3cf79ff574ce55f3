//! `et shrink`: a smaller formula of the same grammar that still shows a verdict.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use et_core::enumeration::{Enumeration, FormulaParser, Term};
use et_core::oracle::Verdict;
use et_core::solvers::{Pool, SolverConfig};
use et_core::triage::calls::Caller;
use et_core::triage::shrink::{needs_reference, shrink, witness_can_judge, Budget, Goal, Shrunk};

use super::args::{parse_verdict, CallArgs};
use super::grammar_arg::{BadInput, GrammarArg};
use super::inputs::read_formula;
use super::notes::note_supervision;

/// Reduce a bug trigger to a smaller formula of its grammar that still shows the same
/// verdict on the same solver, and print it (stdout) with its index (stderr).
///
/// Subterms are replaced, from the root down, by smaller terms of the same grammar
/// rule — the rule's smallest terms first, in enumeration order, and the subterm's own
/// same-rule parts — while the verdict still shows, so every step is a formula of the
/// grammar (`et rank` accepts it). `unsound` keeps the wrong answer (unsat stays
/// unsat) and `crash` the crash signature. Verdicts judged against a reference
/// (unsound, timeout, unknown) run the judges on every candidate — --reference
/// NAME,..., else those the pool's rules give the solver on the grammar, as `et run`
/// picks them — and, as in `et run`, the first judge that decides is the reference.
/// The final formula is run again in fresh processes to confirm it.
#[derive(ClapArgs)]
#[command(after_help = "Examples:
  et shrink bug.smt2 --grammar ints --solver z3-4.8.7 --keep validator_false_alarm
  et index -g ints 10^30 | et shrink - -g ints --solver z3-4.8.5 --keep validator_false_alarm
  et index -g ints 40124 | et shrink - -g ints --solver z3-4.8.5 --keep unknown \\
      --reference cvc5-1.4.2 --jobs 4

Accepted steps are printed on stderr (size, index, formula), the result on stdout.")]
pub struct Args {
    /// The trigger: an .smt2 file (one formula of the grammar), or `-` for stdin.
    #[arg(value_name = "FORMULA")]
    formula: PathBuf,
    #[command(flatten)]
    grammar: GrammarArg,
    /// The solver that shows the verdict (a name from the pool).
    #[arg(long, value_name = "NAME")]
    solver: String,
    /// The verdict to keep: unsound, invalid_model, crash, timeout, unknown or
    /// validator_false_alarm.
    #[arg(long, value_name = "VERDICT", value_parser = parse_verdict)]
    keep: Verdict,
    /// The judges for unsound, timeout and unknown: comma-separated solver names or
    /// families, in order (default: the pool's rules, as `et run` applies them).
    #[arg(long, value_name = "NAME,...")]
    reference: Option<String>,
    #[command(flatten)]
    calls: CallArgs,
    /// Stop after this many candidate checks (at least 1) and print the smallest
    /// formula so far.
    #[arg(long, default_value_t = 5000, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    max_checks: u64,
    /// No step lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Runs `et shrink`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let verdict = args.keep;
    let jobs = args.calls.jobs();
    let mut enumeration = args.grammar.enumeration()?;
    let text = read_formula(&args.formula)?.formula;
    let grammar = enumeration.grammar().clone();
    // The logic yices' prelude states, as `et run` states it for this grammar.
    let logic = et_core::builtins::declared_logic(&grammar)?;
    let limits = args.calls.settings(logic);
    let term = FormulaParser::new(&grammar)
        .declaring(enumeration.first_text())
        .parse(&text)
        .map_err(|e| BadInput(format!("{}: {e}", args.formula.display())))?;
    let pool = args.calls.pool()?;
    let Some(solver) = pool.get(&args.solver).cloned() else {
        return Err(BadInput(format!(
            "--solver `{}` is not in the pool (solvers: {})",
            args.solver,
            pool.names().join(", ")
        ))
        .into());
    };
    let references = if needs_reference(verdict) {
        judges(&args, &pool, &solver, &grammar.name)?
    } else {
        Vec::new()
    };
    note_supervision();
    let caller = Caller::new(jobs)?;
    // The answer to keep (an `unsound`'s wrong answer, a crash's signature) is taken
    // from the very check that decides whether the formula shows the verdict, and an
    // error quotes that check's calls: a solver or judge asked a second time may
    // answer otherwise.
    let mut goal = Goal {
        solver,
        references,
        verdict,
        status: None,
        crash_signature: None,
        limits,
        witness_values: args.calls.witness_values(),
    };
    let original = enumeration.text(&term);
    let start = goal.check(&caller, &original, true)?;
    if !start.shows {
        return Err(BadInput(format!(
            "{} does not show `{verdict}` on {}: {}",
            args.formula.display(),
            goal.solver.name,
            start.describe()
        ))
        .into());
    }
    if verdict == Verdict::Unsound {
        goal.status = Some(start.answer.status);
    }
    if verdict == Verdict::Crash {
        goal.crash_signature = start.answer.crash_signature.clone();
    }
    let start_index = enumeration.rank(&term);
    let start_size = term.size;
    if !args.quiet {
        eprintln!(
            "et: shrink: start: size {start_size}, index {start_index}, {} {} shows `{verdict}`",
            goal.solver.name,
            start.answer.describe()
        );
    }
    let shrunk = shrink_and_say(&args, &mut enumeration, term, &goal, &caller)?;
    let confirmed = goal.check(&caller, &shrunk.text, true)?;
    println!("{}", shrunk.text);
    eprintln!(
        "et: shrink: size {start_size} → {}, index {}, after {} checks{}",
        shrunk.term.size,
        shrunk.index,
        shrunk.checks,
        if shrunk.exhausted {
            " (--max-checks reached: a smaller formula may exist)"
        } else {
            ""
        }
    );
    if !confirmed.shows {
        anyhow::bail!(
            "the smallest formula did not show `{verdict}` again when re-run in fresh \
             processes ({}): {} may be flaky on it",
            confirmed.describe(),
            goal.solver.name
        );
    }
    if !args.quiet {
        eprintln!("et: shrink: re-run in fresh processes: it shows `{verdict}`");
    }
    Ok(ExitCode::SUCCESS)
}

/// The judges of `solver` for a verdict judged against a reference: `--reference`,
/// else those the pool's rules give it on `grammar`, as `et run` picks them; an error
/// if there is none and the witness search cannot stand in for them.
fn judges(
    args: &Args,
    pool: &Pool,
    solver: &SolverConfig,
    grammar: &str,
) -> anyhow::Result<Vec<SolverConfig>> {
    let verdict = args.keep;
    let explicit: Option<Vec<String>> = args.reference.as_ref().map(|r| {
        r.split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect()
    });
    let mut judges = et_core::solvers::reference_rules::judges_by_solver(
        pool,
        std::slice::from_ref(solver),
        grammar,
        explicit.as_deref(),
    )?;
    let judges = judges.remove(&solver.name).unwrap_or_default();
    // Without judges, a witness can still establish the verdict, as in `et run`.
    let witness = args.calls.witness_values().is_some() && witness_can_judge(verdict);
    if judges.is_empty() && !witness {
        let how = if witness_can_judge(verdict) {
            "give --reference NAME, or let et search for a witness (without --no-witness)"
        } else {
            "give --reference NAME"
        };
        return Err(BadInput(format!("--keep {verdict} needs a reference solver: {how}")).into());
    }
    Ok(judges)
}

/// Shrinks `term` toward `goal`, saying each accepted step on stderr (unless
/// `--quiet`).
fn shrink_and_say(
    args: &Args,
    enumeration: &mut Enumeration,
    term: Term,
    goal: &Goal<'_>,
    caller: &Caller,
) -> anyhow::Result<Shrunk> {
    let quiet = args.quiet;
    let mut steps = 0;
    let shrunk = shrink(
        enumeration,
        term,
        goal,
        caller,
        Budget {
            max_checks: args.max_checks,
            jobs: args.calls.jobs(),
        },
        &mut |step| {
            steps += 1;
            if !quiet {
                eprintln!(
                    "et: shrink: step {steps}: size {}, index {}: {}",
                    step.size, step.index, step.text
                );
            }
        },
    )?;
    Ok(shrunk)
}
